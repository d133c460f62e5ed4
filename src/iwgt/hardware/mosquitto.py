"""Debian's Mosquitto as the physical table's broker: its generated config, password file and ACL file.

The same users and rights as the embedded broker (``credentials.py``), written in Mosquitto's own formats
(``$7$`` PBKDF2-SHA512 passwords, ``pattern`` ACL lines with ``%u``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import pwd
import secrets
import signal
import subprocess
from collections.abc import Iterable
from pathlib import Path

from iwgt.hardware.broker_base import (
    START_TIMEOUT_S,
    BrokerError,
    TlsFiles,
    _accepts,
    _Lifecycle,
    _reachable,
    _write_private,
    free_port,
)
from iwgt.hardware.credentials import TABLE_PUBLISH, TABLE_SUBSCRIBE, Credentials, device_rights, is_login
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.protocol import REFEREE_STATUS

MOSQUITTO = Path("/usr/sbin/mosquitto")
"""Debian's Mosquitto broker (``make mosquitto`` installs it)."""
RELOADING = "Reloading config"
"""What Mosquitto logs when SIGHUP makes it read its password and ACL files again."""


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
