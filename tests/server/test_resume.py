"""A restarted server resumes every game in play: its bot and its movement timer wake up."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from .kit import create, moving, pair, screen, seat_token, serving, steps, to_movement

pytestmark = pytest.mark.timeout(60)


def test_the_bot_wakes_up_after_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path, bot_delay=60.0) as c:  # a bot that would think for a minute
        made = create(c, seats=["human", "bot"], seed=7)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            v = s.acted({"type": "confirm"}, "deploy", 0)
            assert v["to_move"] == 1
    with serving(tmp_path, bot_delay=0.0) as c:  # stopped while the bot waited; restarted
        with screen(c, tid, seat_token(made, 0)) as s:
            s.wait_for(moving(0), timeout=20)  # the bot deployed, the dice rolled, the bot moved
        origins = [r.origin for r in steps(c, tid)]
        assert origins[:3] == ["player", "bot", "auto"]
        assert origins.count("bot") >= 2


def test_the_movement_timer_wakes_up_after_a_restart(tmp_path: Path) -> None:
    """VX-02-07: a game resumed in a movement phase gets its timer back (a full one: the clock restarts)."""
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=0.8)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            mover = to_movement(s0, s1)["to_move"]
    time.sleep(0.9)  # the server is down past the deadline: nothing ends the phase meanwhile
    with serving(tmp_path) as c:
        assert "timer" not in [r.origin for r in steps(c, tid)]
        with pair(c, made) as (s0, s1):
            v = s0.last_view()
            assert v["to_move"] == mover and v["timer"]["seat"] == mover
            assert 0 < v["timer"]["remaining"] <= 0.8
            s0.until(lambda m: m["type"] == "view" and m["to_move"] == 1 - mover, timeout=5)
        assert [r.origin for r in steps(c, tid)].count("timer") >= 1


def test_a_retried_id_is_still_applied_once_after_a_restart(tmp_path: Path) -> None:
    """A screen resends its unacknowledged acts on reconnection: the journal remembers their ids."""
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            mover = to_movement(s0, s1)["to_move"]
            first = (s0, s1)[mover].act({"type": "end_phase"}, "c-lost-ack", mover)
            assert first["type"] == "ack"
            n = len(steps(c, tid))
    with serving(tmp_path) as c:
        with pair(c, made) as (s0, s1):
            again = (s0, s1)[mover].act({"type": "end_phase"}, "c-lost-ack", mover)
            assert again == first
        assert len(steps(c, tid)) == n


def test_a_retried_id_gets_its_first_ack_after_a_restart_with_the_dice_that_followed(tmp_path: Path) -> None:
    """Seat 1's tick is followed by the table's die for who moves first, committed with it: its ack names the
    version after that die, and a retry after a restart gets that same ack."""
    with serving(tmp_path) as c:
        made = create(c, seed=7)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            s0.acted({"type": "confirm"}, "c0", 0)
            first = s1.act({"type": "confirm"}, "c1", 1)
        rows = steps(c, tid)
        assert [(r.seq, r.origin, r.client_id) for r in rows] == [
            (1, "player", "seat0/c0"),
            (2, "player", "seat1/c1"),
            (3, "auto", None),
        ]
        assert first == {"type": "ack", "id": "c1", "version": 3}
    with serving(tmp_path) as c:
        with pair(c, made) as (_, s1):
            assert s1.act({"type": "confirm"}, "c1", 1) == first
        assert len(steps(c, tid)) == 3


def test_a_journal_that_does_not_reproduce_is_refused_naming_the_step(tmp_path: Path) -> None:
    """On resume every step is folded again: the table's dice re-rolled, each face must come up the same."""
    with serving(tmp_path) as c:
        made = create(c, seed=7)  # the table's first d2 (who moves first) comes up 2
        keep = create(c, seed=7)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            s0.acted({"type": "confirm"}, "c0", 0)
            s1.acted({"type": "confirm"}, "c1", 1)
        rows = steps(c, tid)
        assert (rows[2].seq, rows[2].origin, rows[2].action) == (3, "auto", {"face": 2})
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:  # the journal edited behind the server's back
        db.execute("UPDATE steps SET action = ? WHERE table_id = ? AND seq = 3", ('{"face":1}', tid))
    with serving(tmp_path) as c:
        r = c.get(f"/api/tables/{tid}")
        assert r.status_code == 409
        assert r.json()["message"] == f"table {tid}: step 3: the table's dice re-rolled 2, not the 1 written"
        with screen(c, tid) as s:
            s.send({"type": "hello", "token": seat_token(made, 0)})
            err = s.expect("error")
            assert err["error"] == "record" and "step 3" in err["message"]
        assert c.get(f"/api/tables/{keep['id']}").status_code == 200  # the other table still resumes
