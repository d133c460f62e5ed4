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
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import hashlib
import hmac
import logging
import os
import pwd
import re
import secrets
import signal
import socket
import subprocess
import tomllib
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, cast

# amqtt ships no type information: its broker and plug-in bases are Any to mypy.
from amqtt.broker import Broker  # type: ignore[import-untyped]
from amqtt.contexts import Action  # type: ignore[import-untyped]
from amqtt.plugins.base import BaseAuthPlugin, BasePlugin, BaseTopicPlugin  # type: ignore[import-untyped]

from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.protocol import PREFIX, REFEREE_LEAVES, REFEREE_STATUS, TABLE_LEAVES

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

log = logging.getLogger(__name__)

CREDENTIALS_FILE = "mqtt-users.toml"
"""The credentials file's name inside the data folder."""
RESERVED = ("referee", "table")
"""User names that are no device's: the referee (every topic) and the shared table login (if made)."""
MOSQUITTO = Path("/usr/sbin/mosquitto")
"""Debian's Mosquitto broker (``make mosquitto`` installs it)."""
START_TIMEOUT_S = 10.0
"""How long a broker may take to accept connections (or Mosquitto to reload) before it is an error."""
RELOADING = "Reloading config"
"""What Mosquitto logs when SIGHUP makes it read its password and ACL files again."""

TABLE_PUBLISH = tuple(f"{PREFIX}/+/{leaf}" for leaf in TABLE_LEAVES)
"""What the shared ``table`` login may publish: the table-to-referee leaves of any device."""
TABLE_SUBSCRIBE = (*(f"{PREFIX}/+/{leaf}" for leaf in REFEREE_LEAVES), REFEREE_STATUS)
"""What the shared ``table`` login may subscribe to: any device's referee-to-table leaves, REFEREE_STATUS."""

# protocol.is_device's pattern, matched whole (its "$" would let a trailing newline through).
_DEVICE_LOGIN = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


class BrokerError(RuntimeError):
    """A broker that could not start (the message says why: its log's last lines for Mosquitto)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the OS's pick; another process may take it before we bind it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------------------------------------------------
# credentials


def default_data_dir() -> Path:
    """The data folder ``iwgt serve`` uses when given none (the user's data folder)."""
    from platformdirs import user_data_path

    return user_data_path("iwgt", appauthor=False)


def is_login(user: str) -> bool:
    """Whether a user name may log in at all: ``referee``, the shared ``table`` or a device id."""
    return user in RESERVED or _DEVICE_LOGIN.fullmatch(user) is not None


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells a changed file (inode, size, mtime): a rewrite is a new inode (it is replaced whole)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass(eq=False)
class Credentials:
    """The broker users' passwords, from ``<dir>/mqtt-users.toml`` (created 0600 with random ones).

    The users: ``referee`` (always), one per device (its user name is its device id; created by
    ``device()``), and the shared ``table`` login only when asked for (``shared_table()``): every device
    holding it could speak for every other.
    """

    passwords: dict[str, str]
    path: Path | None = None
    _stamp: tuple[int, int, int] | None = field(default=None, repr=False)

    @classmethod
    def generate(cls, *, shared_table: bool = False) -> Credentials:
        """Fresh random passwords, kept in memory only: ``referee`` (and ``table`` if asked)."""
        users = ("referee", "table") if shared_table else ("referee",)
        return cls({user: _new_password() for user in users})

    @classmethod
    def load(cls, folder: Path) -> Credentials:
        """The credentials of a data folder: read ``mqtt-users.toml``, or create it (0600) on first use."""
        path = Path(folder) / CREDENTIALS_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            with _locked(path):
                # Two iwgt processes starting at once: the second finds the first's file under the lock.
                if not path.exists():
                    _write_private(path, _toml(cls.generate().passwords), atomic=True)
        return cls._read(path)

    @classmethod
    def _read(cls, path: Path) -> Credentials:
        stamp = _stamp(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise BrokerError(f"cannot read the MQTT credentials {path}: {exc}") from exc
        users = data.get("users")
        if not isinstance(users, dict):
            raise BrokerError(f"the MQTT credentials {path} have no [users] table")
        referee = users.get("referee")
        if not isinstance(referee, str) or not referee:
            raise BrokerError(f"the MQTT credentials {path} give no password for user 'referee'")
        passwords: dict[str, str] = {}
        for user, password in users.items():
            if not is_login(user):
                # Never a login: such a name gets no rights on either broker.
                log.warning("%s: %r is not a device id: that user is ignored", path, user)
            elif not isinstance(password, str) or not password:
                raise BrokerError(f"the MQTT credentials {path} give no password for user {user!r}")
            else:
                passwords[user] = password
        if path.stat().st_mode & 0o077:
            # Passwords readable by others: close the file again rather than refuse to start.
            log.warning("%s was readable by other users: mode set back to 0600", path)
            path.chmod(0o600)
        return cls(passwords, path, stamp)

    @classmethod
    def of_data(cls, data: Path | None = None) -> Credentials:
        """The credentials of a data folder (default: ``iwgt serve``'s), created on first use."""
        return cls.load(data if data is not None else default_data_dir())

    def refresh(self) -> bool:
        """Read the file again if it changed since (another process added a device); whether it did."""
        if self.path is None or _stamp(self.path) == self._stamp:
            return False
        fresh = Credentials._read(self.path)
        self.passwords.clear()
        self.passwords.update(fresh.passwords)
        self._stamp = fresh._stamp
        return True

    def device(self, device_id: str) -> str:
        """A device's password (its user name is its device id), created on first use and saved."""
        if device_id in RESERVED or _DEVICE_LOGIN.fullmatch(device_id) is None:
            raise BrokerError(
                f"{device_id!r} cannot be a device's login: 1 to 32 of a-z, 0-9, _ and -, from a letter or"
                f" digit, and not {' or '.join(RESERVED)}"
            )
        return self._add(device_id)

    def shared_table(self) -> str:
        """The shared ``table`` login's password, created when asked for (it may speak as any device)."""
        return self._add("table")

    def _add(self, user: str) -> str:
        if self.path is None:
            return self.passwords.setdefault(user, _new_password())
        with _locked(self.path):
            # Under the lock and from the file as it is now: another process may have added users meanwhile.
            self.refresh()
            if user not in self.passwords:
                passwords = {**self.passwords, user: _new_password()}
                _write_private(self.path, _toml(passwords), atomic=True)
                self.refresh()
        return self.passwords[user]

    def password(self, user: str) -> str:
        """The password of a user (``referee``, a device created by ``device()``, ``table`` if made)."""
        if user not in self.passwords:
            self.refresh()
        try:
            return self.passwords[user]
        except KeyError:
            raise BrokerError(
                f"no MQTT user {user!r} (the users are {', '.join(sorted(self.passwords))};"
                " a device's is made by iwgt hardware credentials --device D)"
            ) from None

    def url(self, user: str, host: str = "127.0.0.1", port: int = 1883, *, ca: Path | None = None) -> str:
        """The whole broker URL for a user, password included (``mqtts://...?ca=`` given a CA file)."""
        return MqttUrl(host, port, user, self.password(user), tls=ca is not None, ca=ca).text()


def _new_password() -> str:
    return secrets.token_urlsafe(24)


def _toml(passwords: dict[str, str]) -> str:
    """The credentials file: referee first, then the shared table login if any, then the devices by name."""
    order = [user for user in RESERVED if user in passwords] + sorted(set(passwords) - set(RESERVED))
    lines = [
        "# The MQTT users of this iwgt's brokers: keep this file private (mode 0600).",
        "# A physical table logs in as its device id: `iwgt hardware credentials --device D` adds D and",
        "# prints its broker URL. The embedded broker reads this file again when it changes.",
        "[users]",
    ]
    lines += [f'{user} = "{passwords[user]}"' for user in order]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the credentials' lock file (one writer at a time, across processes)."""
    lock = path.with_name(path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# ---------------------------------------------------------------------------------------------------------
# topic rights


def _covers(pattern: str, wanted: str) -> bool:
    """Whether every topic that ``wanted`` (a topic or a subscription filter) can name matches ``pattern``."""
    p_levels = pattern.split("/")
    w_levels = wanted.split("/")
    for i, p in enumerate(p_levels):
        if p == "#":
            return True
        if i >= len(w_levels):
            return False
        w = w_levels[i]
        if w == "#":
            return False  # the filter reaches further than the pattern's level
        if p != "+" and p != w:
            return False  # a literal level must match (a "+" in the filter is wider than a literal)
    return len(p_levels) == len(w_levels)


def device_rights(device: str, action: Literal["publish", "subscribe"]) -> tuple[str, ...]:
    """A device user's topics: publish its own status/sensor/snapshot/ack; read its frame/cmd/error and
    the referee's status."""
    if action == "publish":
        return tuple(f"{PREFIX}/{device}/{leaf}" for leaf in TABLE_LEAVES)
    return (*(f"{PREFIX}/{device}/{leaf}" for leaf in REFEREE_LEAVES), REFEREE_STATUS)


def allowed(user: str | None, action: Literal["publish", "subscribe"], topic: str) -> bool:
    """Whether a broker user may publish to a topic or subscribe with a filter (the section-1 rights)."""
    if user == "referee":
        return True
    if user is None or not is_login(user):
        return False  # not a device id: no rights at all
    # The user name is the device id (Mosquitto's "pattern ... %u" lines say the same); the shared table
    # login also gets every device's topics (which include its own, as the pattern lines give it).
    patterns = device_rights(user, action)
    if user == "table":
        patterns += TABLE_PUBLISH if action == "publish" else TABLE_SUBSCRIBE
    return any(_covers(pattern, topic) for pattern in patterns)


class PasswordAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
    """amqtt plug-in: a user name and its password from the config, or the connection is refused.

    It also drops a will the user may not publish (amqtt never checks a will's topic).
    """

    @dataclass
    class Config:
        """The users amqtt accepts (name -> password) and the credentials file they came from, if any."""

        users: dict[str, str] = field(default_factory=dict)
        path: str | None = None

    def __init__(self, context: Any) -> None:
        """Hold the users, to be read again from their file when it changes."""
        super().__init__(context)
        config = cast(PasswordAuthPlugin.Config, self.config)
        self._credentials = Credentials(dict(config.users), Path(config.path) if config.path else None)

    def _users(self) -> dict[str, str]:
        """The users now: a device added since by another process (the same file) logs in at once."""
        try:
            self._credentials.refresh()
        except BrokerError as exc:  # a file half edited by hand: keep the users we had
            log.warning("the MQTT users were not read again: %s", exc)
        return self._credentials.passwords

    async def authenticate(self, *, session: Any) -> bool:
        """True only for a known user with its password (anonymous and unknown users are refused)."""
        users = self._users()
        username, password = session.username, session.password
        if not username or password is None or username not in users or not is_login(username):
            return False
        if not hmac.compare_digest(str(password).encode(), users[username].encode()):
            return False
        if session.will_flag and not allowed(username, "publish", session.will_topic or ""):
            # amqtt publishes a will without checking its topic: a table could leave a forged, retained
            # "referee offline". Drop the will and keep the login, as Mosquitto does.
            log.warning(
                "MQTT user %s may not publish its will on %s: will dropped", username, session.will_topic
            )
            session.will_flag = False
        return True


class TopicRightsPlugin(BaseTopicPlugin):  # type: ignore[misc]
    """amqtt plug-in: each user's publish and subscribe rights (``allowed``)."""

    async def topic_filtering(
        self, *, session: Any = None, topic: str | None = None, action: Any = None
    ) -> bool:
        """Whether the session's user may do ``action`` on ``topic`` (a delivery is always allowed)."""
        if action == Action.RECEIVE:
            return True  # what a user receives was checked when it subscribed (and _Broker never asks)
        if topic is None or session is None:
            return False
        return allowed(session.username, "publish" if action == Action.PUBLISH else "subscribe", topic)


class KeepAlivePlugin(BasePlugin):  # type: ignore[misc]
    """amqtt plug-in: cut a client silent for 1.5 keep-alive periods, so that the broker publishes its will.

    amqtt 0.12 notices the silence (its reader times out) but does nothing with it (the broker's read-timeout
    handler is empty): a table whose power is cut would stay online until TCP gives up, hours later.
    Mosquitto does this itself (MQTT 3.1.1, 3.1.2.10).
    """

    CHECK_S = 0.5
    """How often the silent clients are looked for."""

    def __init__(self, context: Any) -> None:
        """Track, per connection (its writer), when a packet last came in."""
        super().__init__(context)
        self._seen: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._task: asyncio.Task[None] | None = None

    def _sessions(self) -> list[tuple[Any, Any]]:
        # amqtt's BrokerContext lists sessions without their protocol handlers: ask the broker itself.
        return list(self.context._broker_instance.sessions.values())

    async def on_mqtt_packet_received(self, *, packet: Any = None, session: Any = None) -> None:
        """Note that this connection is alive."""
        if session is None:
            return
        for known, handler in self._sessions():
            if known is session and getattr(handler, "writer", None) is not None:
                self._seen[handler.writer] = asyncio.get_running_loop().time()

    async def on_broker_post_start(self) -> None:
        """Start the watch."""
        self._task = asyncio.create_task(self._watch())

    async def on_broker_pre_shutdown(self) -> None:
        """Stop the watch."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.CHECK_S)
            now = loop.time()
            for session, handler in self._sessions():
                writer = getattr(handler, "writer", None)
                if writer is None or not session.keep_alive or not session.transitions.is_connected():
                    continue
                last = self._seen.setdefault(writer, now)  # a new connection: its CONNECT just came in
                if now - last > 1.5 * session.keep_alive:
                    log.info("MQTT client %s silent for %.1f s: dropped", session.client_id, now - last)
                    self._seen[writer] = now  # once: the drop takes effect on the next turn of the loop
                    _abort(handler)


@dataclass(frozen=True)
class TlsFiles:
    """A broker's TLS certificate and private key (PEM files): its listener then speaks only mqtts."""

    certfile: Path
    keyfile: Path


class _Lifecycle:
    """What both brokers share: a restart on the same port, and ``async with`` starting and stopping one."""

    async def start(self) -> None:
        """Open the listener."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Close the listener."""
        raise NotImplementedError

    async def restart(self) -> None:
        """Stop and start again on the same port (clients see the line drop; retained messages are gone)."""
        await self.stop()
        await self.start()

    async def __aenter__(self) -> Self:
        """Start the broker."""
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Stop the broker."""
        await self.stop()


class EmbeddedBroker(_Lifecycle):
    """An amqtt broker in this process's event loop, with password auth and the rights of ``allowed``."""

    def __init__(self, host: str, port: int, credentials: Credentials, tls: TlsFiles | None = None) -> None:
        """A broker to listen on host:port (port 0: a free one, chosen now); ``start()`` opens it."""
        self.host = host
        self.port = port or free_port(host)
        self.credentials = credentials
        self.tls = tls
        self._broker: Any = None

    def config(self) -> dict[str, Any]:
        """amqtt's configuration: one TCP listener, our auth and rights plug-ins (no $SYS, no anonymous)."""
        listener: dict[str, Any] = {"type": "tcp", "bind": f"{self.host}:{self.port}"}
        if self.tls is not None:
            listener |= {"ssl": True, "certfile": str(self.tls.certfile), "keyfile": str(self.tls.keyfile)}
        return {
            "listeners": {"default": listener},
            "plugins": {
                f"{__name__}.PasswordAuthPlugin": {
                    "users": dict(self.credentials.passwords),
                    "path": None if self.credentials.path is None else str(self.credentials.path),
                },
                f"{__name__}.TopicRightsPlugin": {},
                f"{__name__}.KeepAlivePlugin": {},
            },
        }

    def url(self, user: str) -> str:
        """This broker's URL for a user (mqtts with TLS: give the CA with ``?ca=``)."""
        password = self.credentials.password(user)
        return MqttUrl(_reachable(self.host), self.port, user, password, tls=self.tls is not None).text()

    @property
    def running(self) -> bool:
        """Whether the broker is accepting connections."""
        return self._broker is not None

    async def start(self) -> None:
        """Open the listener (a fresh amqtt broker each time: no retained message survives a restart)."""
        if self._broker is not None:
            return
        broker = _Broker(self.config())
        try:
            await broker.start()
        except Exception as exc:
            raise BrokerError(
                f"the embedded MQTT broker cannot listen on {self.host}:{self.port}: {exc}"
            ) from exc
        self._broker = broker

    async def stop(self) -> None:
        """Close every connection (no will is sent for a broker shutdown) and the listener."""
        broker, self._broker = self._broker, None
        if broker is not None:
            await _drop_connections(broker)
            await broker.shutdown()


def _abort(handler: Any) -> None:
    """Cut an amqtt session's TCP connection at once (its reader then ends and a will is published)."""
    stream = getattr(getattr(handler, "writer", None), "_writer", None)  # the adapter's asyncio StreamWriter
    transport = getattr(stream, "transport", None)
    if transport is not None:
        transport.abort()


class _Broker(Broker):  # type: ignore[misc]
    """amqtt's broker, fixed: no yield mid-broadcast; retained messages only to their subscribers.

    amqtt 0.12 broadcasts a message by iterating its live subscriptions dict and awaiting the topic plug-ins
    for each receiver; a client subscribing meanwhile changes the dict, the iteration raises "dictionary
    changed size" and every receiver not yet reached loses the message (measured: 56 of 300 lost by a
    second subscriber while others subscribed). Receiving needs no check here (a subscription was checked
    when made), so it is answered at once, without awaiting. For retained messages see below.
    """

    async def _topic_filtering(self, session: Any, topic: str, action: Any) -> bool:
        if action == Action.RECEIVE:
            return True
        return bool(await super()._topic_filtering(session, topic, action))

    # A CONNECT naming the client id of a connected client. amqtt 0.12 (clean session) dropped that client's
    # session and subscriptions BEFORE checking the login, and then filed the new connection under the id
    # even when it refused it (deliveries are looked up by client id): anyone reaching the port, with no
    # password, could make the referee (its id is in its retained status) or a table deaf. Here the
    # connected client is left alone until the login is known; a refused login never displaces it; a
    # login of ANOTHER user is refused (a device may not cut another table's connection off); the same
    # user takes its connection over (a table rebooted before the broker noticed), with no will for the
    # old connection (as amqtt did; the new birth is the last word).

    async def _delete_session(self, client_id: str) -> None:
        held = self._sessions.get(client_id)
        if held is not None and held[0].transitions.is_connected():
            return  # not authenticated yet: _authenticate decides
        await super()._delete_session(client_id)

    async def _authenticate(self, session: Any, listener: Any) -> bool:
        ok = bool(await super()._authenticate(session, listener))
        held = self._sessions.get(session.client_id)
        if not ok or held is None or held[0] is session or not held[0].transitions.is_connected():
            return ok
        old_session, old_handler = held
        if old_session.username != session.username:
            log.warning(
                "MQTT user %s may not take over client id %s of user %s: refused",
                session.username,
                session.client_id,
                old_session.username,
            )
            return False
        old_session.will_flag = False
        _abort(old_handler)
        await super()._delete_session(session.client_id)  # what the clean session asked for, now allowed
        return True

    async def _handle_client_session(
        self, reader: Any, writer: Any, client_session: Any, handler: Any, server: Any, listener_name: str
    ) -> None:
        client_id = client_session.client_id
        held = self._sessions.get(client_id)
        answer = handler.mqtt_connack_authorize

        async def connack(authenticated: bool) -> None:
            # amqtt has just filed this connection under its client id, refused or not: a refused one gives
            # the id back to the client that holds it (before any await, so no delivery goes astray).
            if not authenticated and held is not None and self._sessions.get(client_id) is not held:
                self._sessions[client_id] = held
            await answer(authenticated)

        handler.mqtt_connack_authorize = connack
        await super()._handle_client_session(reader, writer, client_session, handler, server, listener_name)

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Any
    ) -> None:
        # amqtt 0.12 calls this on every CONNECT for EVERY client's subscription filter, so a new client got
        # the retained messages of topics others subscribed to (past its own rights), and got them again when
        # it subscribed. Send retained messages only for a filter this session holds (a subscription is
        # recorded before this runs; a refused one never is), and return at once otherwise: no await while
        # amqtt iterates its live subscriptions.
        holders = self._subscriptions.get(subscription[0], ())
        if any(holder is session for holder, _ in holders):
            await super()._publish_retained_messages_for_subscription(subscription, session)


async def _drop_connections(broker: Any) -> None:
    """Cut every client's TCP connection and let each session's reader end on its own.

    amqtt 0.12's shutdown cancels each session's reader task and waits for it to say it stopped; after the
    session has received a message that cancellation can be lost (the reader goes back to reading) and the
    shutdown hangs for good. A reader that meets the end of its stream stops cleanly, so: end the streams
    first. (This reaches into amqtt's session table; the tests restart the broker under live clients.)
    """
    handlers = [handler for _, handler in list(broker.sessions.values())]
    for handler in handlers:
        _abort(handler)
    readers = [h._reader_task for h in handlers if getattr(h, "_reader_task", None) is not None]
    pending = [task for task in readers if not task.done()]
    if pending:
        await asyncio.wait(pending, timeout=5)


# ---------------------------------------------------------------------------------------------------------
# Mosquitto


def mosquitto_password_line(user: str, password: str, *, salt: bytes | None = None) -> str:
    """A Mosquitto 2 password line as mosquitto_passwd writes: ``user:$7$101$salt$hash`` (PBKDF2-SHA512)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101, dklen=64)
    return f"{user}:$7$101${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def mosquitto_acl(users: Iterable[str] = ()) -> str:
    """The Mosquitto ACL file of the section-1 rights (the same as ``allowed``) for these users.

    A device's user name is its device id, so one set of ``pattern`` lines (``%u``: the user name; they
    apply to every user) gives each device its own topics and nobody else's. The referee's status, the same
    for all, is a ``topic`` line per device (Mosquitto warns of a pattern without ``%u``). The ``user table``
    block is written only when the shared table login exists.
    """
    users = sorted(set(users))
    lines = [
        "# Written by iwgt: the topic rights of the physical table's users.",
        "# Every device (user name = device id): its own topics only.",
    ]
    lines += [f"pattern write {t}" for t in device_rights("%u", "publish")]
    lines += [f"pattern read {t}" for t in device_rights("%u", "subscribe") if "%u" in t]
    lines += ["", "user referee", "topic readwrite #"]
    for user in users:
        if user == "table":
            lines += ["", "user table"]
            lines += [f"topic write {pattern}" for pattern in TABLE_PUBLISH]
            lines += [f"topic read {pattern}" for pattern in TABLE_SUBSCRIBE]
        elif user != "referee" and is_login(user):
            lines += ["", f"user {user}", f"topic read {REFEREE_STATUS}"]
    return "\n".join(lines) + "\n"


class MosquittoBroker(_Lifecycle):
    """Debian's Mosquitto as a child process, with a generated config, password file and ACL file."""

    def __init__(
        self,
        port: int,
        credentials: Credentials,
        workdir: Path,
        *,
        host: str = "127.0.0.1",
        tls: TlsFiles | None = None,
        executable: Path = MOSQUITTO,
    ) -> None:
        """A broker to listen on host:port (port 0: a free one, chosen now), its files in ``workdir``."""
        self.host = host
        self.port = port or free_port(host)
        self.credentials = credentials
        self.workdir = Path(workdir)
        self.tls = tls
        self.executable = Path(executable)
        self._process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def available(executable: Path = MOSQUITTO) -> bool:
        """Whether the Mosquitto executable is installed."""
        return Path(executable).is_file() and os.access(executable, os.X_OK)

    @property
    def conf_path(self) -> Path:
        """The generated mosquitto.conf."""
        return self.workdir / "mosquitto.conf"

    @property
    def log_path(self) -> Path:
        """Where Mosquitto logs (errors, warnings and notices)."""
        return self.workdir / "mosquitto.log"

    @property
    def stderr_path(self) -> Path:
        """Mosquitto's own output before its log file opens (a config it refuses)."""
        return self.workdir / "mosquitto.stderr"

    def url(self, user: str) -> str:
        """This broker's URL for a user (mqtts with TLS: give the CA with ``?ca=``)."""
        password = self.credentials.password(user)
        return MqttUrl(_reachable(self.host), self.port, user, password, tls=self.tls is not None).text()

    def write_users(self) -> tuple[Path, Path]:
        """Write the password file and the ACL file (0600) from the credentials as they are now."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        passwords = self.workdir / "passwords"
        acl = self.workdir / "acl"
        users = {u: p for u, p in self.credentials.passwords.items() if is_login(u)}  # no other name logs in
        _write_private(passwords, "".join(mosquitto_password_line(u, p) + "\n" for u, p in users.items()))
        _write_private(acl, mosquitto_acl(users))
        return passwords, acl

    def write_config(self) -> Path:
        """Write mosquitto.conf, the password file and the ACL file (all 0600); return the config's path."""
        passwords, acl = self.write_users()
        lines = [
            "# Written by iwgt: a broker for the physical table (no anonymous login; topic rights per user).",
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {passwords}",
            f"acl_file {acl}",
            "persistence false",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
            "log_type information",  # its "mosquitto version ... running" line says the listener is open
            "connection_messages false",
            # Frames are small and must go out at once: Nagle's algorithm added ~30 ms to every frame
            # (benchmarks/hardware.py: the LED driver got its frame 22-36 ms late without it, 2-3 ms with it).
            "set_tcp_nodelay true",
            f"listener {self.port} {self.host}",
        ]
        if self.tls is not None:
            lines += [f"certfile {self.tls.certfile}", f"keyfile {self.tls.keyfile}"]
        if os.geteuid() == 0:
            # Started as root, Mosquitto would become the user "mosquitto", who cannot read our files.
            lines.append(f"user {pwd.getpwuid(0).pw_name}")
        _write_private(self.conf_path, "\n".join(lines) + "\n")
        return self.conf_path

    @property
    def running(self) -> bool:
        """Whether the Mosquitto process is alive."""
        return self._process is not None and self._process.poll() is None

    async def start(self) -> None:
        """Write the files, start ``mosquitto -c`` and wait until the port accepts connections."""
        if self.running:
            return
        if not self.available(self.executable):
            raise BrokerError(f"Mosquitto is not installed at {self.executable} (make mosquitto installs it)")
        conf = self.write_config()
        with contextlib.suppress(FileNotFoundError):
            self.log_path.unlink()
        # Its own output (before the log file opens: a bad config) goes to a file, never to a pipe that fills.
        with self.stderr_path.open("wb") as stderr:
            self._process = subprocess.Popen(
                [str(self.executable), "-c", str(conf)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT_S
        delay = 0.005
        # Ready when it logs that it runs (its listener is open: a port taken by someone else fails before)
        # and the port accepts a connection.
        while not (self._logged_running() and await _accepts(self.host, self.port)):
            if self._process.poll() is not None or loop.time() > deadline:
                why = self._failure()
                await self.stop()
                raise BrokerError(f"Mosquitto did not start on {self.host}:{self.port}: {why}")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)

    async def reload(self) -> None:
        """Let in the devices added since the start: read the credentials file again, rewrite the password
        and ACL files and send Mosquitto SIGHUP (it re-reads both); returns once it has re-read them."""
        self.credentials.refresh()
        self.write_users()
        process = self._process
        if process is None or process.poll() is not None:
            return
        before = self._log_count(RELOADING)
        process.send_signal(signal.SIGHUP)
        # Mosquitto logs the line and reloads in one step of its single thread: a login after the line is
        # checked against the new files.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT_S
        delay = 0.005
        while self._log_count(RELOADING) <= before:
            if process.poll() is not None or loop.time() > deadline:
                raise BrokerError(f"Mosquitto did not reload its users: {self._failure()}")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)

    def _log_count(self, text: str) -> int:
        try:
            return self.log_path.read_text(errors="replace").count(text)
        except OSError:
            return 0

    def _logged_running(self) -> bool:
        try:
            return " running" in self.log_path.read_text(errors="replace")
        except OSError:
            return False

    def _failure(self) -> str:
        parts = []
        if self._process is not None and self._process.poll() is not None:
            parts.append(f"exit code {self._process.returncode}")
            with contextlib.suppress(OSError):
                parts.append(self.stderr_path.read_text(errors="replace").strip())
        else:
            parts.append(f"no connection within {START_TIMEOUT_S:g} s")
        with contextlib.suppress(OSError):
            parts.append(" | ".join(self.log_path.read_text(errors="replace").strip().splitlines()[-5:]))
        return "; ".join(p for p in parts if p)

    async def stop(self) -> None:
        """Stop Mosquitto (SIGTERM, then SIGKILL after 5 s) and wait for it to exit."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                await asyncio.to_thread(process.wait, 5)
            except subprocess.TimeoutExpired:
                process.kill()
                await asyncio.to_thread(process.wait)


def _reachable(host: str) -> str:
    """The address a local client dials for a listener's host (a wildcard bind is reached on loopback)."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


def _write_private(path: Path, text: str, *, atomic: bool = False) -> None:
    """Write a file only its owner may read (it holds passwords, their hashes, or points at them).

    ``atomic``: written beside it and renamed over it, so a reader (a broker checking a login) sees the old
    file or the new one, never half of one.
    """
    target = path.with_name(f".{path.name}.{os.getpid()}.tmp") if atomic else path
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    target.chmod(0o600)
    if atomic:
        os.replace(target, path)


async def _accepts(host: str, port: int) -> bool:
    """Whether something accepts TCP connections on host:port now."""
    try:
        _, writer = await asyncio.open_connection(host, port)
    except OSError:
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True
