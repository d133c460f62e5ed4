"""A real `iwgt serve`, killed with SIGKILL while actions are in flight: every acknowledged action survives.

The server commits each step to the journal before it acknowledges it (docs/protocol.md). Several tables are
played at once over real WebSockets; every ack's version is recorded; the process is killed mid-play and
started again on the same journal. Each table's exported record must hold every acknowledged action, in
order, replay to its digests, and go on being played; a reconnecting screen gets the same view back.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from iwgt.core.record import GameRecord, replay

from .kit import JSON, seat_token

pytestmark = pytest.mark.timeout(90)

TABLES = 3
"""Tables played at once when the server is killed."""
KILL_AFTER = 45
"""Acknowledged actions (over all tables) before the kill."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def iwgt_command() -> list[str]:
    """The installed ``iwgt`` script next to this Python, or the same entry point through ``-c``."""
    script = Path(sys.executable).parent / "iwgt"
    if script.exists():
        return [str(script)]
    found = shutil.which("iwgt")
    if found:
        return [found]
    return [sys.executable, "-c", "from iwgt.cli import main; main()"]


@contextmanager
def server(data: Path, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``iwgt serve`` on a free port; yields the process and its base URL once it answers."""
    port = free_port()
    cmd = [*iwgt_command(), "serve", "--port", str(port), "--data", str(data), "--bot-delay", "0"]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"iwgt serve exited with {proc.returncode}:\n{log.read_text()}")
            try:
                if httpx.get(f"{base}/api/games", timeout=1, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"iwgt serve never answered:\n{log.read_text()}")
            time.sleep(0.1)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def ws_url(base: str, table_id: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/{table_id}"


class Socket:
    """One screen over a real WebSocket: messages kept in order, read on demand."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.latest: JSON | None = None

    @classmethod
    async def open(cls, base: str, table_id: str, tok: str) -> Socket:
        ws = await connect(ws_url(base, table_id), proxy=None, open_timeout=10)
        s = cls(ws)
        await s.send({"type": "hello", "token": tok})
        assert (await s.recv())["type"] == "welcome"
        await s.view_from(0)
        return s

    async def send(self, msg: JSON) -> None:
        await self.ws.send(json.dumps(msg))

    async def recv(self) -> JSON:
        msg: JSON = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
        if msg["type"] == "view":
            self.latest = msg
        return msg

    async def view_from(self, version: int) -> JSON:
        while self.latest is None or self.latest["version"] < version:
            await self.recv()
        return self.latest

    async def answer(self, msg_id: str) -> JSON:
        while True:
            msg = await self.recv()
            if msg["type"] in ("ack", "error") and msg.get("id") == msg_id:
                return msg

    async def close(self) -> None:
        await self.ws.close()


@dataclass
class Played:
    """What one table's driver sent and had acknowledged, in order."""

    table: JSON
    acked: list[tuple[str, JSON, int]] = field(default_factory=list)  # (id, action, version)
    in_flight: JSON | None = None
    errors: list[JSON] = field(default_factory=list)


async def choose(s: Socket, view: JSON, seat: int, rng: random.Random, placed: list[int]) -> JSON:
    """A legal action for the seat: a few placements, the tick, then moves and End Phase."""
    actions = view["options"]["actions"]
    places = [a for a in actions if a["type"] == "place"]
    if places and placed[seat] < 4:
        placed[seat] += 1
        return rng.choice(places)
    if {"type": "confirm"} in actions:
        return {"type": "confirm"}
    movable = view["options"]["movable"]
    if movable and rng.random() < 0.8:
        await s.send({"type": "select", "seat": seat, "unit": rng.choice(movable)})
        while (sel := await s.recv())["type"] != "selection":
            pass
        if sel["moves"]:
            action: JSON = rng.choice(sel["moves"])["action"]
            return action
    if {"type": "end_phase"} in actions:
        return {"type": "end_phase"}
    return dict(rng.choice(actions))


async def drive(base: str, played: Played, index: int, stop: asyncio.Event) -> None:
    """Play both seats of a table through their own sockets, one action at a time, until the server dies."""
    made = played.table
    rng = random.Random(index)
    placed = [0, 0]
    socks: list[Socket] = []
    try:
        socks = [await Socket.open(base, made["id"], seat_token(made, seat)) for seat in (0, 1)]
        version = socks[0].latest["version"] if socks[0].latest else 0
        n = 0
        while not stop.is_set():
            seat = (await socks[0].view_from(version))["to_move"]
            if seat not in (0, 1):
                return  # over, or a die by hand (not with table dice)
            s = socks[seat]
            view = await s.view_from(version)
            action = await choose(s, view, seat, rng, placed)
            n += 1
            msg_id = f"{made['id']}-{n}"
            played.in_flight = action
            await s.send({"type": "act", "id": msg_id, "seat": seat, "action": action})
            answer = await s.answer(msg_id)
            if answer["type"] == "error":
                played.errors.append(answer)
                played.in_flight = None
                continue
            assert answer["version"] > version
            version = answer["version"]
            played.acked.append((msg_id, action, version))
            played.in_flight = None
    except (ConnectionClosed, OSError, TimeoutError):
        return  # the server was killed under us
    finally:
        for s in socks:
            with suppress(Exception):  # the server is gone: nothing to close cleanly
                await asyncio.wait_for(s.close(), 1)


async def play_until_killed(base: str, tables: list[Played], proc: subprocess.Popen[bytes]) -> None:
    stop = asyncio.Event()
    drivers = [asyncio.create_task(drive(base, p, i, stop)) for i, p in enumerate(tables)]
    deadline = time.monotonic() + 40
    while sum(len(p.acked) for p in tables) < KILL_AFTER:
        assert time.monotonic() < deadline, [p.errors for p in tables]
        assert not any(d.done() for d in drivers), [d.exception() for d in drivers if d.done()]
        await asyncio.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)  # mid-flight: every driver is waiting for an answer or about to send
    proc.wait(10)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*drivers), 30)


def without_remaining(view: JSON) -> JSON:
    out = dict(view)
    if out.get("timer") is not None:
        out["timer"] = {k: v for k, v in out["timer"].items() if k != "remaining"}
    return out


async def one_view(base: str, table_id: str, tok: str) -> JSON:
    s = await Socket.open(base, table_id, tok)
    try:
        assert s.latest is not None
        return s.latest
    finally:
        await s.close()


async def one_more_action(base: str, made: JSON, version: int) -> JSON:
    socks = [await Socket.open(base, made["id"], seat_token(made, seat)) for seat in (0, 1)]
    try:
        view = socks[0].latest
        assert view is not None and view["version"] == version
        seat = view["to_move"]
        assert seat in (0, 1), view["status"]
        s = socks[seat]
        view = await s.view_from(version)
        action = await choose(s, view, seat, random.Random(99), [9, 9])
        await s.send({"type": "act", "id": "after-restart", "seat": seat, "action": action})
        return await s.answer("after-restart")
    finally:
        for s in socks:
            await s.close()


def test_every_acknowledged_action_survives_a_sigkill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "server.log"
    client = httpx.Client(trust_env=False, timeout=10)
    with server(data, log) as (proc, base):
        tables = []
        for i in range(TABLES):
            body = {
                "game": "valkyrx",
                "scenario": "skirmish",
                "seats": ["human", "human"],
                "mode": "remote",
                "seed": 100 + i,
            }
            r = client.post(f"{base}/api/tables", json={**body, "timer_seconds": 0})
            assert r.status_code == 201, r.text
            tables.append(Played(r.json()))
        # An idle table with a timer: a screen reconnecting to the same server gets the same view back.
        r = client.post(
            f"{base}/api/tables",
            json={"game": "valkyrx", "scenario": "sorcery", "mode": "remote", "timer_seconds": 600},
        )
        idle = r.json()
        tok = seat_token(idle, 0)
        asyncio.run(confirm_both(base, idle))
        first = asyncio.run(one_view(base, idle["id"], tok))
        assert first["observation"]["phase"] == "movement" and first["timer"]["total"] == 600
        time.sleep(0.05)
        again = asyncio.run(one_view(base, idle["id"], tok))
        assert without_remaining(again) == without_remaining(first)
        assert asyncio.run(oversized_frame(base, idle)) == 1009  # "message too big": the socket closes
        assert asyncio.run(one_view(base, idle["id"], tok))["version"] == first["version"]  # nothing changed
        asyncio.run(play_until_killed(base, tables, proc))
        assert proc.returncode == -signal.SIGKILL
        before = {p.table["id"]: asyncio.run(one_view_safe(base, p)) for p in tables}
        assert all(v is None for v in before.values())  # it is really dead

    for p in tables:  # what the drivers saw before the kill
        assert not p.errors, p.errors
        assert p.acked, f"table {p.table['id']} got no ack before the kill"
    assert sum(len(p.acked) for p in tables) >= KILL_AFTER

    with server(data, log) as (_, base):
        listed = {t["id"]: t for t in client.get(f"{base}/api/tables").json()}
        assert set(listed) == {p.table["id"] for p in tables} | {idle["id"]}
        for p in tables:
            tid = p.table["id"]
            r = client.get(f"{base}/api/tables/{tid}/record")
            assert r.status_code == 200, r.text
            record = GameRecord.from_json(r.json())
            last = p.acked[-1][2]
            assert len(record.steps) >= last, (tid, len(record.steps), last)
            # Every acknowledged action is there, in order, at the step its ack named (or before it, with
            # the table's dice that followed it); nothing but the table's dice between them.
            players = [(i + 1, s.action) for i, s in enumerate(record.steps) if s.seat >= 0]
            acked_steps = [a for a in players if a[0] <= last]
            assert [a for _, a in acked_steps] == [a for _, a, _ in p.acked], tid
            for (seq, _), (_, _, version) in zip(acked_steps, p.acked, strict=True):
                assert seq <= version
                assert all(s.seat < 0 for s in record.steps[seq:version])  # only dice up to its ack
            extra = [a for seq, a in players if seq > last]
            assert extra in ([], [p.in_flight]), (extra, p.in_flight)  # at most the one in flight
            replayed = replay(record)  # every digest checked
            assert replayed.steps == len(record.steps) == listed[tid]["steps"]
            # The game goes on: one more action is accepted.
            answer = asyncio.run(one_more_action(base, p.table, len(record.steps)))
            assert answer["type"] == "ack", answer
            assert answer["version"] > len(record.steps)
            # And a reconnecting screen gets the same view back.
            for seat in (0, 1):
                a = asyncio.run(one_view(base, tid, seat_token(p.table, seat)))
                b = asyncio.run(one_view(base, tid, seat_token(p.table, seat)))
                assert a["version"] == answer["version"]
                assert without_remaining(a) == without_remaining(b)
        # The idle table came back as it was, but for its timer restarting after the crash.
        after = asyncio.run(one_view(base, idle["id"], tok))
        strip = {"timer"}
        assert {k: v for k, v in after.items() if k not in strip} == {
            k: v for k, v in first.items() if k not in strip
        }


async def oversized_frame(base: str, made: JSON) -> int | None:
    """Send a frame over 64 KiB (uvicorn's ws_max_size): the server closes the socket; its close code."""
    s = await Socket.open(base, made["id"], seat_token(made, 0))
    await s.send({"type": "ping", "pad": "x" * (70 * 1024)})
    try:
        while True:
            await s.recv()
    except ConnectionClosed:
        return s.ws.close_code


async def confirm_both(base: str, made: JSON) -> None:
    """Both seats tap the tick: the movement phase and its timer start."""
    for seat in (0, 1):
        s = await Socket.open(base, made["id"], seat_token(made, seat))
        try:
            await s.send({"type": "act", "id": f"tick-{seat}", "seat": seat, "action": {"type": "confirm"}})
            assert (await s.answer(f"tick-{seat}"))["type"] == "ack"
        finally:
            await s.close()


async def one_view_safe(base: str, played: Played) -> JSON | None:
    try:
        return await one_view(base, played.table["id"], seat_token(played.table, 0))
    except (OSError, ConnectionClosed, TimeoutError):
        return None
