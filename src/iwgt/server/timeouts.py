"""Uvicorn's HTTP/1.1 protocol with the deadlines it lacks: half-sent requests are not held open forever.

Uvicorn arms its keep-alive timeout only once a response is complete, so a client that opens a connection and
sends half a request's headers (or half its body) and then nothing, holds the connection, and a request
handler waiting for the body, indefinitely. Here the headers must be complete within ``header_seconds`` of
the request's first byte (however slowly they trickle in), and a body must not pause for more than
``body_idle_seconds``; otherwise the connection is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
"""How long a request's headers may take to arrive, from its first byte (or from the connection)."""

BODY_IDLE_SECONDS = 10.0
"""How long a request's body may pause before the connection is closed."""

KEEP_ALIVE_SECONDS = 5
"""How long an idle connection is kept open between requests (uvicorn's ``timeout_keep_alive``)."""

MAX_HEADER_BYTES = 16 * 1024
"""The largest request line and headers accepted (h11's incomplete event limit)."""


class TimedH11Protocol(H11Protocol):
    """H11Protocol with a header deadline and a body idle timeout."""

    header_seconds = HEADER_SECONDS
    body_idle_seconds = BODY_IDLE_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection must send its first request's headers in time."""
        super().connection_made(transport)
        self._arm(self.header_seconds)

    def data_received(self, data: bytes) -> None:
        """Headers still incomplete: the deadline stands (a trickle does not extend it); a body: reset."""
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            self._disarm()  # closed, or upgraded to a WebSocket (which has its own pings)
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self._deadline is None:
                self._arm(self.header_seconds)
        elif state is h11.SEND_BODY:
            self._disarm()
            self._arm(self.body_idle_seconds)
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: nothing to time."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self, seconds: float) -> None:
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # still waiting for the client: give up
            self.transport.close()


def uvicorn_options() -> dict[str, Any]:
    """The options ``iwgt serve`` passes to uvicorn: the timed protocol and its limits."""
    return {
        "http": TimedH11Protocol,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_graceful_shutdown": 3,
    }
