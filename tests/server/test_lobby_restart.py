"""The saved games list after a restart: every game, finished, quit or in play, with its status and turn.

The journal keeps each table's turn with its status (written with every step, and at Quit Game), so a
restarted server lists a finished or quit game's turn without replaying it; a row an older server wrote
(no turn kept) is read from its game once.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import get_game

from .kit import JSON, create, pair, seat_token, serving, to_movement
from .test_crash import Socket, server

pytestmark = pytest.mark.timeout(120)


def record_turn(record: JSON) -> int | None:
    """The turn a game's record ends on, by replaying it (what the lobby must say, computed independently)."""
    rec = GameRecord.from_json(record, "the exported record")
    return get_game(rec.game).status(replay(rec).state).turn


async def quit_in_turn_one(base: str, made: JSON) -> None:
    """Both seats deploy (turn 1's movement begins), then seat 0 quits the game."""
    s0 = await Socket.open(base, made["id"], seat_token(made, 0))
    s1 = await Socket.open(base, made["id"], seat_token(made, 1))
    try:
        for i, s in enumerate((s0, s1)):
            await s.send({"type": "act", "id": f"deploy-{i}", "seat": i, "action": {"type": "confirm"}})
            assert (await s.answer(f"deploy-{i}"))["type"] == "ack"
        await s0.send({"type": "quit", "id": "quit"})
        assert (await s0.answer("quit"))["type"] == "ack"
    finally:
        await s0.close()
        await s1.close()


async def to_turn_two(base: str, made: JSON) -> None:
    """Both seats deploy, then both end their movement: the combat round is fought, turn 2 begins."""
    socks = [await Socket.open(base, made["id"], seat_token(made, i)) for i in (0, 1)]
    try:
        for i, s in enumerate(socks):
            await s.send({"type": "act", "id": f"deploy-{i}", "seat": i, "action": {"type": "confirm"}})
            assert (await s.answer(f"deploy-{i}"))["type"] == "ack"
        for n in range(2):
            view = socks[0].latest
            while view is None or view["observation"]["phase"] != "movement" or view["to_move"] not in (0, 1):
                await socks[0].recv()
                view = socks[0].latest
            seat = view["to_move"]
            await socks[seat].send(
                {"type": "act", "id": f"end-{n}", "seat": seat, "action": {"type": "end_phase"}}
            )
            ack = await socks[seat].answer(f"end-{n}")
            assert ack["type"] == "ack", ack
            await socks[0].view_from(ack["version"])
    finally:
        for s in socks:
            await s.close()


def test_the_saved_games_list_keeps_status_and_turn_after_a_real_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "server.log"
    client = httpx.Client(trust_env=False, timeout=10)
    body = {"game": "valkyrx", "mode": "remote", "timer_seconds": 0, "seed": 11}
    with server(data, log) as (proc, base):
        done = client.post(
            f"{base}/api/tables", json={**body, "scenario": "skirmish", "seats": ["bot", "bot"]}
        )
        quit_ = client.post(f"{base}/api/tables", json={**body, "scenario": "skirmish"})
        playing = client.post(f"{base}/api/tables", json={**body, "scenario": "skirmish"})
        assert {r.status_code for r in (done, quit_, playing)} == {201}
        done_id, quit_id, playing_id = done.json()["id"], quit_.json()["id"], playing.json()["id"]
        asyncio.run(quit_in_turn_one(base, quit_.json()))
        asyncio.run(to_turn_two(base, playing.json()))
        # Two bots play their whole game by themselves (the test's timeout ends a game that never does).
        while client.get(f"{base}/api/tables/{done_id}").json()["status"] == "playing":
            time.sleep(0.2)
        before = {t["id"]: t for t in client.get(f"{base}/api/tables").json()}
        proc.kill()  # no goodbye: the journal is all the next server has
        proc.wait(10)

    with server(data, log) as (_, base):
        listed = {t["id"]: t for t in client.get(f"{base}/api/tables").json()}
        finished = client.get(f"{base}/api/tables/{done_id}/record").json()
    assert set(listed) == {done_id, quit_id, playing_id}
    expected = {done_id: ("over", record_turn(finished)), quit_id: ("quit", 1), playing_id: ("playing", 2)}
    assert isinstance(expected[done_id][1], int) and expected[done_id][1] >= 1
    for tid, (status, turn) in expected.items():
        assert (listed[tid]["status"], listed[tid]["turn"]) == (status, turn), listed[tid]
        # the same as the server said before it was killed, when every game was still in its memory
        assert (before[tid]["status"], before[tid]["turn"]) == (status, turn), before[tid]
        assert listed[tid]["steps"] == before[tid]["steps"]


def test_a_row_of_an_older_server_is_read_from_its_game(tmp_path: Path) -> None:
    """A journal written before the turn was kept (no column at all) still lists every game's turn."""
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=0)
        with pair(c, made) as (s0, s1):
            to_movement(s0, s1)
            s0.send({"type": "quit", "id": "q"})
            s0.until(lambda m: m["type"] == "ack")
    db = sqlite3.connect(tmp_path / "tables.sqlite3")
    try:
        assert db.execute("SELECT turn FROM tables").fetchall() == [("1",)]
        db.execute("ALTER TABLE tables DROP COLUMN turn")  # the journal as an older server left it
        db.commit()
    finally:
        db.close()
    with serving(tmp_path) as c:
        (row,) = c.get("/api/tables").json()
        assert (row["id"], row["status"], row["turn"]) == (made["id"], "quit", 1)
