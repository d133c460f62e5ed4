"""The movement timer, kept by the server (VX-02-07, VX-15-08) and ended early by End Phase (VX-15-23).

The table runs on a ``ManualClock`` that moves only when the test advances it, so every deadline, every
remaining time and every "has it fired yet" is exact on any machine; no test reads the wall clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from iwgt.server.clock import REPORT_GRACE_SECONDS, ManualClock

from .kit import JSON, Screen, create, moving, pair, screen, seat_token, serving, steps, to_movement

pytestmark = pytest.mark.timeout(60)


def check_timer(view: JSON, seat: int, total: float, deadline: float, now: float) -> None:
    """The view's timer: the mover's seat, its total, the deadline it ends at, and what remains at ``now``."""
    timer = view["timer"]
    assert timer is not None, view
    assert timer == {
        "seat": seat,
        "deadline": round(deadline, 3),
        "remaining": round(deadline - now, 3),
        "total": total,
        "held": False,
    }


def settled(s: Screen) -> None:
    """A round trip on the socket: whatever the server was doing when the clock moved has been sent."""
    s.send({"type": "ping"})
    s.until(lambda m: m["type"] == "pong")


def test_the_movement_phase_ends_by_itself_when_the_timer_runs_out(tmp_path: Path) -> None:
    """VX-02-07, VX-15-08: when the mover's time is up, the server ends the phase (origin "timer")."""
    clock = ManualClock()
    t0 = clock.now()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=0.5)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            first = s0.view_from(0)
            assert first["timer"] is None  # no timer while deploying
            start = to_movement(s0, s1)
            mover = start["to_move"]
            check_timer(start, mover, 0.5, t0 + 0.5, t0)
            check_timer(s1.view_from(start["version"]), mover, 0.5, t0 + 0.5, t0)  # both screens see it
            assert clock.waiting() == [t0 + 0.5]
            n = len(steps(c, tid))
            clock.advance(0.4)
            settled(s0)
            assert len(steps(c, tid)) == n  # not yet
            # Nobody acts: at the deadline the phase ends by itself and the other seat moves.
            clock.advance(0.1)
            after = s0.until(lambda m: m["type"] == "view" and m["version"] > start["version"])
            assert after["to_move"] == 1 - mover and after["observation"]["phase"] == "movement"
            check_timer(after, 1 - mover, 0.5, t0 + 1.0, t0 + 0.5)  # the other seat's own full time
            row = steps(c, tid)[n]
            assert (row.seat, row.action, row.origin) == (mover, {"type": "end_phase"}, "timer")
            assert row.client_id is not None and row.client_id.startswith("timer:")
            assert after["log"][-1]["action"] == {"type": "end_phase"} and after["log"][-1]["actor"] == mover


def test_end_phase_before_the_deadline_stops_the_timer(tmp_path: Path) -> None:
    """VX-15-23: End Phase ends the mover's phase at once; its timer never fires."""
    total = 1.5
    clock = ManualClock()
    t0 = clock.now()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=total)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            start = to_movement(s0, s1)
            first = start["to_move"]
            check_timer(start, first, total, t0 + total, t0)
            n = len(steps(c, tid))
            clock.advance(0.6)
            v = (s0, s1)[first].acted({"type": "end_phase"}, "end-first", first)
            assert v["to_move"] == 1 - first
            check_timer(v, 1 - first, total, t0 + 0.6 + total, t0 + 0.6)  # the other seat's own full time
            assert clock.waiting() == [t0 + 0.6 + total]  # the first mover's timer is gone
            clock.advance(1.0)  # past the first mover's deadline, before the second's
            settled(s0)
            rows = steps(c, tid)[n:]
            assert [(r.seat, r.action, r.origin) for r in rows] == [(first, {"type": "end_phase"}, "player")]
            second = (s0, s1)[1 - first].acted({"type": "end_phase"}, "end-second", 1 - first)
            assert [r.origin for r in steps(c, tid)].count("timer") == 0
            if second["observation"]["phase"] == "movement":  # the next turn's own full time, held while
                assert second["observation"]["turn"] == 2  # the combat report is read (test_report_timer.py)
                assert second["report"] is not None
                assert second["timer"] == {
                    "seat": second["to_move"],
                    "deadline": None,
                    "remaining": total,
                    "total": total,
                    "held": True,
                    "starts_by": round(t0 + 1.6 + REPORT_GRACE_SECONDS, 3),
                }


def test_no_timer_when_the_table_sets_none_or_for_the_bot(tmp_path: Path) -> None:
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=0)
        with pair(c, made) as (s0, s1):
            assert to_movement(s0, s1)["timer"] is None
        assert clock.waiting() == []
        made = create(c, timer_seconds=5, seats=["bot", "human"])
        with screen(c, made["id"], seat_token(made, 1)) as s1:
            s1.wait_for(lambda m: m["type"] == "view" and m["to_move"] == 1)  # the bot has deployed
            s1.acted({"type": "confirm"}, "c", 1)
            v = s1.wait_for(moving(1))
            check_timer(v, 1, 5, clock.now() + 5, clock.now())
            timed = [m["timer"]["seat"] for m in s1.seen if m["type"] == "view" and m["timer"] is not None]
            assert set(timed) == {1}  # only the human's phase is timed


def test_a_player_cannot_squat_the_timer_s_own_message_id(tmp_path: Path) -> None:
    """VX-02-07: the timer ends the phase even if a player sends the id the timer will use."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
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
            clock.advance(0.5)
            ended = s.until(lambda m: m["type"] == "view" and m["to_move"] == 1 - mover)
            assert ended["observation"]["phase"] == "movement"
            assert [r.origin for r in steps(c, tid)].count("timer") == 1


def test_the_bot_pauses_on_the_table_s_clock(tmp_path: Path) -> None:
    """The bot waits its delay before each action: nothing until the clock has moved that far."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock, bot_delay=2.0) as c:
        made = create(c, seats=["bot", "human"], timer_seconds=0)
        tid = made["id"]
        n = len(steps(c, tid))
        with screen(c, tid, seat_token(made, 1)) as s1:
            assert s1.last_view()["to_move"] == 0
            assert clock.waiting() == [clock.now() + 2.0]
            clock.advance(1.9)
            settled(s1)
            assert len(steps(c, tid)) == n  # still thinking about it
            clock.advance(0.1)
            s1.until(lambda m: m["type"] == "view" and m["version"] > n)
            assert steps(c, tid)[n].origin == "bot"
