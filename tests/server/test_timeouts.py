"""Half-sent HTTP requests are not held open: a real uvicorn with the table's protocol closes them.

The deadlines are shortened for the test (a subclass); each test waits for the server to close a raw socket
that sent half a request, and fails if the connection is still open long after the deadline.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from iwgt.server.app import create_app
from iwgt.server.timeouts import TimedH11Protocol, uvicorn_options

from .kit import settings

pytestmark = pytest.mark.timeout(60)

DEADLINE = 0.5
"""The shortened header deadline and body idle timeout."""

GIVE_UP = 15.0
"""How long the test waits for the close before it calls the connection held open."""


class QuickProtocol(TimedH11Protocol):
    header_seconds = DEADLINE
    body_idle_seconds = DEADLINE


@contextmanager
def running(tmp_path: Path) -> Iterator[int]:
    """The app under a real uvicorn, in a thread, with the table's options and the quick deadlines."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    options = {**uvicorn_options(), "http": QuickProtocol}
    config = uvicorn.Config(create_app(settings(tmp_path)), log_level="warning", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            threading.Event().wait(0.05)
        assert server.started
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def closed_by_server(port: int, sent: bytes) -> bytes:
    """Send ``sent`` on a raw connection and read until the server closes it; what it answered."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(GIVE_UP)
        if sent:
            s.sendall(sent)
        got = b""
        while chunk := s.recv(4096):  # socket.timeout (an OSError) if the server holds it open
            got += chunk
        return got


def test_the_table_serves_with_the_timed_protocol() -> None:
    options = uvicorn_options()
    assert options["http"] is TimedH11Protocol and options["timeout_keep_alive"] > 0


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # connected, said nothing
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # headers cut off
        b'POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"game"',  # half a body
    ],
    ids=["nothing", "half the headers", "half the body"],
)
def test_a_half_sent_request_is_closed(tmp_path: Path, sent: bytes) -> None:
    with running(tmp_path) as port:
        closed_by_server(port, sent)
        # The server still answers a whole request.
        r = httpx.get(f"http://127.0.0.1:{port}/api/games", trust_env=False, timeout=10)
        assert r.status_code == 200


def test_a_whole_request_is_answered(tmp_path: Path) -> None:
    with running(tmp_path) as port:
        whole = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        got = closed_by_server(port, whole)
        assert got.startswith(b"HTTP/1.1 200")
