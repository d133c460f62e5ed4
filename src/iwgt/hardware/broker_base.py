"""What both MQTT brokers share: their error, a free port, TLS files, start/stop/restart, private files.

The embedded broker (``amqtt_broker.py``) and Mosquitto (``mosquitto.py``) build on these;
``broker.py`` re-exports the public names.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self

START_TIMEOUT_S = 10.0
"""How long a broker may take to accept connections (or Mosquitto to reload) before it is an error."""


class BrokerError(RuntimeError):
    """A broker that could not start (the message says why: its log's last lines for Mosquitto)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the OS's pick; another process may take it before we bind it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


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
