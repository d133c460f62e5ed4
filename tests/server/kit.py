"""Helpers for the server tests: an app on a temporary journal, tables, and screens that never hang.

A ``Screen`` wraps Starlette's WebSocket test session. Its ``recv`` waits at most ``timeout`` seconds (the
test session's own ``receive_json`` would wait forever), and it keeps every message it received in ``seen``,
so a test can inspect everything a seat was sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient

from iwgt.server.app import Settings, create_app

JSON = dict[str, Any]

WAIT = 10.0
"""How long a test waits for a message it expects (generous: a loaded 2-core machine)."""


def settings(data_dir: Path, **changes: Any) -> Settings:
    """The test server's settings: an open lobby and a bot that does not pause, unless told otherwise."""
    base: JSON = {"data_dir": data_dir, "open_lobby": True, "bot_delay": 0.0}
    base.update(changes)
    return Settings(**base)


@contextmanager
def serving(
    data_dir: Path, *, client: tuple[str, int] | None = None, base_url: str | None = None, **changes: Any
) -> Iterator[TestClient]:
    """A TestClient on a fresh app, its lifespan running (journal open, timers and bots alive)."""
    app = create_app(settings(data_dir, **changes))
    kw: JSON = {} if client is None else {"client": client}
    if base_url is not None:
        kw["base_url"] = base_url
    with TestClient(app, **kw) as c:
        yield c


def create(c: TestClient, **body: Any) -> JSON:
    """Create a table (defaults: skirmish, two remote humans, no timer, seed 7); returns the 201 answer."""
    req: JSON = {
        "game": "valkyrx",
        "scenario": "skirmish",
        "seats": ["human", "human"],
        "mode": "remote",
        "dice": "table",
        "timer_seconds": 0,
        "seed": 7,
    }
    req.update(body)
    r = c.post("/api/tables", json=req)
    assert r.status_code == 201, r.text
    out: JSON = r.json()
    return out


def token(link: str) -> str:
    """The credential in an invitation link's fragment."""
    assert "#token=" in link, link
    return link.split("#token=", 1)[1]


def seat_token(created: JSON, seat: int) -> str:
    """A seat's credential from a create (or import) answer."""
    link = created["links"]["seats"][seat]
    assert link is not None, f"seat {seat} has no invitation link"
    return token(link)


def table_token(created: JSON) -> str:
    """The shared touchscreen's credential."""
    return token(created["links"]["table"])


class Screen:
    """One screen's socket; ``seen`` is every message it has received, in order."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[JSON] = []
        self._n = 0

    def send(self, msg: Any) -> None:
        """Send one JSON message."""
        self.ws.send_json(msg)

    def send_text(self, text: str) -> None:
        """Send raw text."""
        self.ws.send_text(text)

    def recv(self, timeout: float = WAIT) -> JSON:
        """The next message: TimeoutError if none comes in ``timeout`` s, WebSocketDisconnect if closed."""

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        self.ws._raise_on_close(message)  # the socket closed: WebSocketDisconnect(code, reason)
        msg: JSON = json.loads(message["text"])
        self.seen.append(msg)
        return msg

    def expect(self, kind: str, timeout: float = WAIT) -> JSON:
        """The next message, which must be of type ``kind``."""
        msg = self.recv(timeout)
        assert msg["type"] == kind, f"expected {kind!r}, got {msg}"
        return msg

    def until(self, pred: Callable[[JSON], bool], timeout: float = WAIT) -> JSON:
        """Read messages until one satisfies ``pred`` (all of them kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message satisfied the condition")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def wait_for(self, pred: Callable[[JSON], bool], timeout: float = WAIT) -> JSON:
        """The latest message already received that satisfies ``pred``, or the next one to come."""
        for msg in reversed(self.seen):
            if pred(msg):
                return msg
        return self.until(pred, timeout)

    def view_from(self, version: int, timeout: float = WAIT) -> JSON:
        """The latest view of at least ``version`` (already received, or the next to come)."""
        return self.wait_for(lambda m: m["type"] == "view" and m["version"] >= version, timeout)

    def quiet(self, seconds: float = 0.2) -> list[JSON]:
        """Every message arriving within ``seconds`` (none expected, usually)."""
        got: list[JSON] = []
        while True:
            try:
                got.append(self.recv(seconds))
            except TimeoutError:
                return got

    def hello(self, tok: str) -> tuple[JSON, JSON]:
        """Say hello; returns the welcome and the first view."""
        self.send({"type": "hello", "token": tok})
        return self.expect("welcome"), self.expect("view")

    def act(self, action: JSON, msg_id: str, seat: int | None = None) -> JSON:
        """Send an action; returns the ack or the error (whatever comes first for this id)."""
        msg: JSON = {"type": "act", "id": msg_id, "action": action}
        if seat is not None:
            msg["seat"] = seat
        self.send(msg)
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id)

    def acted(self, action: JSON, msg_id: str, seat: int | None = None) -> JSON:
        """Send an action that must be accepted; returns the view that follows its ack."""
        ack = self.act(action, msg_id, seat)
        assert ack["type"] == "ack", ack
        return self.until(lambda m: m["type"] == "view" and m["version"] >= ack["version"])

    def last_view(self) -> JSON:
        """The latest view received."""
        return next(m for m in reversed(self.seen) if m["type"] == "view")


@contextmanager
def screen(c: TestClient, table_id: str, tok: str | None = None, **kw: Any) -> Iterator[Screen]:
    """A socket on a table; with ``tok`` it has said hello (welcome and first view read)."""
    with c.websocket_connect(f"/ws/{table_id}", **kw) as ws:
        s = Screen(ws)
        if tok is not None:
            s.hello(tok)
        yield s


@contextmanager
def pair(c: TestClient, made: JSON) -> Iterator[tuple[Screen, Screen]]:
    """Both seats' own screens on a remote table, each past hello."""
    tid = made["id"]
    with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
        yield s0, s1


def moving(seat: int) -> Callable[[JSON], bool]:
    """A view of ``seat``'s movement phase."""
    return lambda m: m["type"] == "view" and m["to_move"] == seat and m["observation"]["phase"] == "movement"


def steps(c: TestClient, table_id: str) -> list[Any]:
    """The table's journalled steps, read from the journal itself."""
    return list(c.app.state.manager.journal.steps(table_id))  # type: ignore[attr-defined]


def to_movement(s0: Screen, s1: Screen) -> JSON:
    """From deployment: both seats confirm (VX-15-04); the table rolls who moves first. The first view of the
    movement phase, as ``s0`` sees it."""
    s0.acted({"type": "confirm"}, "deploy-0", 0)
    s1.acted({"type": "confirm"}, "deploy-1", 1)
    return s0.until(lambda m: m["type"] == "view" and m["observation"]["phase"] == "movement")
