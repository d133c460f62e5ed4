"""A real `iwgt serve` whose screens drop at every point of an action's path: only that connection ends.

A tablet losing its Wi-Fi mid-move once froze the whole server: the socket's send failed, Starlette then
refused every receive at once, and the reader took each refusal for a bad message, logging and retrying
without ever yielding to the event loop. Here a seat's socket is dropped right after sending an action,
while it is being committed, after its ack is on its way but unread, and closed cleanly; after each drop
another table still acts and gets its ack and its broadcast, the server is not spinning, and the dropped
action is in the journal once or not at all. SIGTERM and SIGINT during play end the server with its journal
intact.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from iwgt.core.record import GameRecord, replay

from .kit import JSON, seat_token
from .test_crash import Socket, server, ws_url

pytestmark = pytest.mark.timeout(120)

ANSWER = 10.0
"""How long a live table may take to answer after a drop (generous: a loaded 2-core machine)."""

DROPS: dict[str, tuple[float, bool]] = {
    "right after sending": (0.0, True),
    "during the commit (1 ms)": (0.001, True),
    "during the commit (3 ms)": (0.003, True),
    "during the commit (10 ms)": (0.01, True),
    "ack on its way, unread": (0.3, True),
    "closed cleanly after sending": (0.0, False),
}
"""How long after sending its action a socket goes away, and whether it is cut (no close handshake)."""


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def new_table(client: httpx.Client, base: str, seed: int) -> JSON:
    r = client.post(
        f"{base}/api/tables",
        json={
            "game": "valkyrx",
            "scenario": "skirmish",
            "seats": ["human", "human"],
            "mode": "remote",
            "timer_seconds": 0,
            "seed": seed,
        },
    )
    assert r.status_code == 201, r.text
    out: JSON = r.json()
    return out


async def drop_mid_action(base: str, made: JSON, after: float, cut: bool) -> None:
    """Seat 0 sends its tick and its socket goes away ``after`` seconds later."""
    ws = await connect(ws_url(base, made["id"]), proxy=None, open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "token": seat_token(made, 0)}))
    await ws.recv()  # welcome
    await ws.recv()  # view
    await ws.send(json.dumps({"type": "act", "id": "tick", "seat": 0, "action": {"type": "confirm"}}))
    if after:
        await asyncio.sleep(after)
    if cut:
        ws.transport.abort()  # no close frame: a lost network
    else:
        await ws.close()


def next_action(view: JSON) -> JSON:
    """A legal action from the view's options that needs no selection: a placement, the tick, End Phase."""
    actions = view["options"]["actions"]
    for kind in ("place", "confirm", "end_phase"):
        for a in actions:
            if a["type"] == kind:
                return dict(a)
    return dict(actions[0])


async def live_table_acts(socks: list[Socket], n: int) -> None:
    """The other table: the seat to move acts and gets its ack; the other seat gets the broadcast view."""
    version = socks[0].latest["version"] if socks[0].latest else 0
    seat = (await socks[0].view_from(version))["to_move"]
    assert seat in (0, 1)
    s, other = socks[seat], socks[1 - seat]
    view = await s.view_from(version)
    await s.send({"type": "act", "id": f"live-{n}", "seat": seat, "action": next_action(view)})
    answer = await asyncio.wait_for(s.answer(f"live-{n}"), ANSWER)
    assert answer["type"] == "ack", answer
    await asyncio.wait_for(other.view_from(answer["version"]), ANSWER)
    await asyncio.wait_for(s.view_from(answer["version"]), ANSWER)


async def retry_tick(base: str, made: JSON) -> JSON:
    """Seat 0 reconnects and sends its tick again under the same id."""
    s = await Socket.open(base, made["id"], seat_token(made, 0))
    try:
        await s.send({"type": "act", "id": "tick", "seat": 0, "action": {"type": "confirm"}})
        return await asyncio.wait_for(s.answer("tick"), ANSWER)
    finally:
        await s.close()


def ticks(client: httpx.Client, base: str, table_id: str) -> int:
    """How many times seat 0's tick is in the table's journal."""
    r = client.get(f"{base}/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    record = GameRecord.from_json(r.json())
    replay(record)  # every digest checked
    return sum(1 for s in record.steps if s.seat == 0 and s.action == {"type": "confirm"})


def test_a_drop_at_any_point_ends_that_connection_alone(tmp_path: Path) -> None:
    client = httpx.Client(trust_env=False, timeout=10)
    log = tmp_path / "server.log"
    with server(tmp_path / "data", log) as (proc, base):
        live = new_table(client, base, 1)
        dropped = {name: new_table(client, base, 10 + i) for i, name in enumerate(DROPS)}

        async def play() -> None:
            socks = [await Socket.open(base, live["id"], seat_token(live, seat)) for seat in (0, 1)]
            try:
                for n, (name, (after, cut)) in enumerate(DROPS.items()):
                    await drop_mid_action(base, dropped[name], after, cut)
                    await live_table_acts(socks, n)
                    assert ticks(client, base, dropped[name]["id"]) in (0, 1), name
                # Not spinning: over a quiet second the server uses well under half a core.
                before = cpu_seconds(proc.pid)
                await asyncio.sleep(1.0)
                assert cpu_seconds(proc.pid) - before < 0.5
                await live_table_acts(socks, len(DROPS))
            finally:
                for s in socks:
                    await s.close()

        asyncio.run(play())
        for name, made in dropped.items():
            answer = asyncio.run(retry_tick(base, made))
            assert answer["type"] == "ack", (name, answer)
            assert ticks(client, base, made["id"]) == 1, name  # journalled once: by the drop or the retry
    text = log.read_text()
    assert "Traceback" not in text and "unexpected failure" not in text, text[-3000:]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_play_stops_the_server_promptly(tmp_path: Path, sig: signal.Signals) -> None:
    client = httpx.Client(trust_env=False, timeout=10)
    data, log = tmp_path / "data", tmp_path / "server.log"
    with server(data, log) as (proc, base):
        made = new_table(client, base, 3)
        idle = new_table(client, base, 4)

        async def play_then_signal() -> int:
            socks = [await Socket.open(base, made["id"], seat_token(made, seat)) for seat in (0, 1)]
            watcher = await Socket.open(base, idle["id"], seat_token(idle, 0))  # a screen doing nothing
            for n in range(3):
                await live_table_acts(socks, n)
            version = socks[0].latest["version"] if socks[0].latest else 0
            await drop_mid_action(base, idle, 0.0, True)  # and one dropped mid-action
            os.kill(proc.pid, sig)
            proc.wait(10)  # raises TimeoutExpired if the server hangs on to its screens
            del watcher
            return version

        acked = asyncio.run(play_then_signal())
        assert proc.returncode is not None
    with server(data, log) as (_, base):
        r = client.get(f"{base}/api/tables/{made['id']}/record")
        record = GameRecord.from_json(r.json())
        assert len(record.steps) >= acked
        replay(record)
