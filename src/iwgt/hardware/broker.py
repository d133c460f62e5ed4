"""The MQTT brokers ``iwgt`` runs for the physical table: an embedded one (amqtt) and Debian's Mosquitto.

Both require a user name and password (no anonymous login, ever) from one credentials file,
``<data>/mqtt-users.toml`` (mode 0600; random passwords: ``referee``, and one login per device whose user
name is its device id, made on first use by ``Credentials.device``), and both enforce the same topic rights
(``allowed``): ``referee`` may do anything; a device may publish only its OWN status, sensor, snapshot and
ack, and subscribe only to its own frame, cmd and error and to the referee's status, so that no table can
speak for another. The shared ``table`` login of old (the same rights under every device id) exists only
when asked for (``Credentials.shared_table``: the tests and benchmarks use it); any other user name has no
rights and cannot log in. A device added while a broker runs needs no restart: the embedded broker reads the
file again on a login when it changed, and ``MosquittoBroker.reload`` rewrites Mosquitto's files and sends
it SIGHUP. The embedded broker enforces them with two small plug-ins of ours
(``PasswordAuthPlugin``, ``TopicRightsPlugin``): amqtt 0.12's own ACL plug-in can only take subscribe rules
through its deprecated ``acl`` option, and its file auth needs argon2 hashes on disk for passwords we hold in
memory anyway; a third (``KeepAlivePlugin``) drops silent clients, which amqtt 0.12 never does. Mosquitto
gets a generated config, password file (its ``$7$`` PBKDF2-SHA512 format) and ACL file (``pattern`` lines
with ``%u``, the user name, for the devices). A refused publish is
dropped by either broker (MQTT 3.1.1 has no negative PUBACK); a refused subscription gets the failure code
0x80 from amqtt, while Mosquitto 2.0 grants it and delivers nothing the user may not read.

The pieces: ``broker_base.py`` (what both brokers share), ``credentials.py`` (the users and their rights),
``amqtt_broker.py`` (the embedded broker and its plug-ins), ``mosquitto.py`` (Mosquitto); this module
re-exports their public names, so ``iwgt.hardware.broker`` stays the one place to import them from.
"""

from __future__ import annotations

from iwgt.hardware.amqtt_broker import EmbeddedBroker, KeepAlivePlugin, PasswordAuthPlugin, TopicRightsPlugin
from iwgt.hardware.broker_base import START_TIMEOUT_S as START_TIMEOUT_S
from iwgt.hardware.broker_base import BrokerError, TlsFiles, free_port
from iwgt.hardware.credentials import (
    CREDENTIALS_FILE,
    RESERVED,
    Credentials,
    allowed,
    default_data_dir,
    device_rights,
    is_login,
)
from iwgt.hardware.credentials import TABLE_PUBLISH as TABLE_PUBLISH
from iwgt.hardware.credentials import TABLE_SUBSCRIBE as TABLE_SUBSCRIBE
from iwgt.hardware.mosquitto import MOSQUITTO, MosquittoBroker, mosquitto_password_line
from iwgt.hardware.mosquitto import RELOADING as RELOADING
from iwgt.hardware.mosquitto import mosquitto_acl as mosquitto_acl

__all__ = [
    "CREDENTIALS_FILE",
    "MOSQUITTO",
    "RESERVED",
    "BrokerError",
    "Credentials",
    "EmbeddedBroker",
    "KeepAlivePlugin",
    "MosquittoBroker",
    "PasswordAuthPlugin",
    "TlsFiles",
    "TopicRightsPlugin",
    "allowed",
    "default_data_dir",
    "device_rights",
    "free_port",
    "is_login",
    "mosquitto_password_line",
]
