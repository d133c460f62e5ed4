"""A restarted server resumes every game in play: its bot and its movement timer wake up."""

from __future__ import annotations

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
