"""The movement timer, kept by the server (VX-02-07, VX-15-08) and ended early by End Phase (VX-15-23)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .kit import JSON, create, moving, pair, screen, seat_token, serving, steps, to_movement

pytestmark = pytest.mark.timeout(60)


def check_timer(view: JSON, seat: int, total: float) -> None:
    """The view's timer: the mover's seat, a deadline on the server's clock, remaining <= total."""
    timer = view["timer"]
    assert timer is not None, view
    assert timer["seat"] == seat
    assert timer["total"] == total
    assert 0 <= timer["remaining"] <= total
    # deadline = (when the view was made) + remaining, and the view was made before now
    assert time.time() + timer["remaining"] - 5 < timer["deadline"] <= time.time() + timer["remaining"] + 0.01


def test_the_movement_phase_ends_by_itself_when_the_timer_runs_out(tmp_path: Path) -> None:
    """VX-02-07, VX-15-08: when the mover's time is up, the server ends the phase (origin "timer")."""
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=0.5)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            first = s0.view_from(0)
            assert first["timer"] is None  # no timer while deploying
            start = to_movement(s0, s1)
            mover = start["to_move"]
            check_timer(start, mover, 0.5)
            check_timer(s1.view_from(start["version"]), mover, 0.5)  # both screens see the mover's timer
            n = len(steps(c, tid))
            # Nobody acts: the phase ends by itself and the other seat moves.
            after = s0.until(lambda m: m["type"] == "view" and m["version"] > start["version"], timeout=5)
            assert after["to_move"] == 1 - mover and after["observation"]["phase"] == "movement"
            check_timer(after, 1 - mover, 0.5)
            assert after["timer"]["deadline"] > start["timer"]["deadline"]
            row = steps(c, tid)[n]
            assert (row.seat, row.action, row.origin) == (mover, {"type": "end_phase"}, "timer")
            assert row.client_id is not None and row.client_id.startswith("timer:")
            assert after["log"][-1]["action"] == {"type": "end_phase"} and after["log"][-1]["actor"] == mover


def test_end_phase_before_the_deadline_stops_the_timer(tmp_path: Path) -> None:
    """VX-15-23: End Phase ends the mover's phase at once; its timer never fires.

    Times are read off the server's own deadlines, so that a slow machine makes the test wait, not fail.
    """
    total = 1.5
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=total)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            start = to_movement(s0, s1)
            first = start["to_move"]
            check_timer(start, first, total)
            first_deadline = start["timer"]["deadline"]
            n = len(steps(c, tid))
            time.sleep(max(0.0, first_deadline - 0.9 - time.time()))
            v = (s0, s1)[first].acted({"type": "end_phase"}, "end-first", first)
            assert v["to_move"] == 1 - first
            check_timer(v, 1 - first, total)  # the other seat's own full time
            assert v["timer"]["deadline"] >= first_deadline + 0.5
            # Past the first mover's deadline: its timer does not fire.
            time.sleep(max(0.0, first_deadline + 0.2 - time.time()))
            rows = steps(c, tid)[n:]
            in_time = time.time() < v["timer"]["deadline"] - 0.05  # read before the second's deadline
            assert (rows[0].seat, rows[0].action, rows[0].origin) == (first, {"type": "end_phase"}, "player")
            fired = [r.seat for r in rows if r.origin == "timer"]
            if in_time:
                assert fired == [], "a timer fired before the second mover's deadline"
            else:  # a slow machine: the second mover's time may be up, never the first's
                assert first not in fired
            if in_time:  # the second mover ends in time too
                second = (s0, s1)[1 - first].acted({"type": "end_phase"}, "end-second", 1 - first)
                assert [r.origin for r in steps(c, tid)].count("timer") == 0
                if second["observation"]["phase"] == "movement":  # the next turn's own timer, from its start
                    assert second["observation"]["turn"] == 2
                    check_timer(second, second["to_move"], total)
                    assert second["timer"]["remaining"] > total - 0.5


def test_no_timer_when_the_table_sets_none_or_for_the_bot(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=0)
        with pair(c, made) as (s0, s1):
            assert to_movement(s0, s1)["timer"] is None
        made = create(c, timer_seconds=5, seats=["bot", "human"])
        with screen(c, made["id"], seat_token(made, 1)) as s1:
            s1.wait_for(lambda m: m["type"] == "view" and m["to_move"] == 1)  # the bot has deployed
            s1.acted({"type": "confirm"}, "c", 1)
            v = s1.wait_for(moving(1))
            check_timer(v, 1, 5)
            timed = [m["timer"]["seat"] for m in s1.seen if m["type"] == "view" and m["timer"] is not None]
            assert set(timed) == {1}  # only the human's phase is timed


def test_a_player_cannot_squat_the_timer_s_own_message_id(tmp_path: Path) -> None:
    """VX-02-07: the timer ends the phase even if a player sends the id the timer will use."""
    with serving(tmp_path) as c:
        made = create(c, timer_seconds=0.5)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            start = to_movement(s0, s1)
            mover = start["to_move"]
            s = (s0, s1)[mover]
            v = s.last_view()
            s.send({"type": "select", "seat": mover, "unit": v["options"]["movable"][0]})
            move = s.until(lambda m: m["type"] == "selection")["moves"][0]["action"]
            answer = s.act(move, f"timer:{v['version'] + 1}", mover)
            assert answer["type"] == "error" and answer["error"] == "malformed"  # the server's own id
            assert s.act(move, "mine", mover)["type"] == "ack"
            ended = s.until(lambda m: m["type"] == "view" and m["to_move"] == 1 - mover, timeout=3)
            assert ended["observation"]["phase"] == "movement"
            assert [r.origin for r in steps(c, tid)].count("timer") == 1
