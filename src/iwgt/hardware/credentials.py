"""The MQTT users of the physical table and their topic rights: the credentials file and ``allowed``.

One credentials file (``<data>/mqtt-users.toml``, mode 0600) holds the passwords of ``referee``, the
devices (user name = device id) and, when asked for, the shared ``table`` login; ``allowed`` says what
each may publish and subscribe to. Both brokers enforce these rights.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import secrets
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from iwgt.hardware.broker_base import BrokerError, _write_private
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.protocol import PREFIX, REFEREE_LEAVES, REFEREE_STATUS, TABLE_LEAVES

log = logging.getLogger("iwgt.hardware.broker")  # the logger these brokers have always used

CREDENTIALS_FILE = "mqtt-users.toml"
"""The credentials file's name inside the data folder."""
RESERVED = ("referee", "table")
"""User names that are no device's: the referee (every topic) and the shared table login (if made)."""


TABLE_PUBLISH = tuple(f"{PREFIX}/+/{leaf}" for leaf in TABLE_LEAVES)
"""What the shared ``table`` login may publish: the table-to-referee leaves of any device."""
TABLE_SUBSCRIBE = (*(f"{PREFIX}/+/{leaf}" for leaf in REFEREE_LEAVES), REFEREE_STATUS)
"""What the shared ``table`` login may subscribe to: any device's referee-to-table leaves, REFEREE_STATUS."""

# protocol.is_device's pattern, matched whole (its "$" would let a trailing newline through).
_DEVICE_LOGIN = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


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
