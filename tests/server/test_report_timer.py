"""The movement timer waits while the mover reads the combat report, and a timer that ran out says so.

The decision (docs/protocol.md, "The movement timer"): a timer whose mover has a report still to read starts
**held**, showing its full time, and runs from the moment the mover's screen says it is ready (a ``ready``
message naming the view it shows, sent once the report is dismissed), or at the latest after
``REPORT_GRACE_SECONDS``. Every table runs on a ``ManualClock``: no test reads the wall clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from iwgt.server import views
from iwgt.server.clock import REPORT_GRACE_SECONDS, ManualClock

from .kit import JSON, Screen, create, pair, serving, steps, to_movement

pytestmark = pytest.mark.timeout(60)

TOTAL = 120.0
"""The table's movement timer (the two minutes of the first evening)."""


def settled(s: Screen) -> None:
    """A round trip on the socket: whatever the server was doing when the clock moved has been sent."""
    s.send({"type": "ping"})
    s.until(lambda m: m["type"] == "pong")


def to_report(s0: Screen, s1: Screen) -> JSON:
    """From deployment through turn 1 (both seats end their movement at once): the combat round is fought
    and reported, and turn 2's movement begins. That first view of turn 2, as ``s0`` sees it."""
    first = to_movement(s0, s1)["to_move"]
    (s0, s1)[first].acted({"type": "end_phase"}, "end-1", first)
    second = (s0, s1)[1 - first].acted({"type": "end_phase"}, "end-2", 1 - first)
    return s0.view_from(second["version"])


def held(seat: int, starts_by: float) -> JSON:
    """A held timer as a view shows it: the full time, not running, and when it starts at the latest."""
    return {
        "seat": seat,
        "deadline": None,
        "remaining": TOTAL,
        "total": TOTAL,
        "held": True,
        "starts_by": round(starts_by, 3),
    }


def running(seat: int, deadline: float, now: float) -> JSON:
    """A running timer as a view shows it at ``now``."""
    return {
        "seat": seat,
        "deadline": round(deadline, 3),
        "remaining": round(deadline - now, 3),
        "total": TOTAL,
        "held": False,
    }


def test_the_timer_does_not_run_while_the_report_is_up(tmp_path: Path) -> None:
    """The mover reads the report for 20 s: the timer still shows 2:00, and starts at 2:00 on the ready."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=TOTAL)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            v = to_report(s0, s1)
            t1 = clock.now()  # the clock has not moved: every step above was taken at once
            assert v["observation"]["turn"] == 2 and v["observation"]["phase"] == "movement"
            assert v["report"] is not None and v["report"]["turn"] == 1  # the health bars of turn 1
            mover = v["to_move"]
            s = (s0, s1)[mover]
            mine = s.view_from(v["version"])
            assert mine["report"] is not None
            assert mine["timer"] == held(mover, t1 + REPORT_GRACE_SECONDS)
            assert v["timer"] == held(mover, t1 + REPORT_GRACE_SECONDS)  # the other screen sees it held too
            assert clock.waiting() == [t1 + REPORT_GRACE_SECONDS]  # only the grace is waited for
            n = len(steps(c, tid))

            clock.advance(20.0)  # the report is read
            settled(s)
            assert len(steps(c, tid)) == n

            # The other seat's ready, and the mover's ready for a view older than the report, start nothing.
            (s0, s1)[1 - mover].send({"type": "ready", "seat": 1 - mover, "version": mine["version"]})
            s.send({"type": "ready", "seat": mover, "version": mine["version"] - 1})
            settled(s)
            assert clock.waiting() == [t1 + REPORT_GRACE_SECONDS]

            s.send({"type": "ready", "seat": mover, "version": mine["version"]})  # OK pressed
            started = s.until(lambda m: m["type"] == "view" and not m["timer"]["held"])
            assert started["version"] == mine["version"]  # nothing was played: only the clock started
            t2 = t1 + 20.0
            assert started["timer"] == running(mover, t2 + TOTAL, t2)  # the full two minutes, from now
            assert clock.waiting() == [t2 + TOTAL]

            s.send({"type": "ready", "seat": mover, "version": mine["version"]})  # a repeat changes nothing
            settled(s)
            assert clock.waiting() == [t2 + TOTAL]

            clock.advance(TOTAL - 0.5)
            settled(s)
            assert len(steps(c, tid)) == n  # still the mover's time
            clock.advance(0.5)
            s.until(lambda m: m["type"] == "view" and m["version"] > mine["version"])
            assert steps(c, tid)[n].origin == "timer"


def test_a_report_left_open_holds_the_timer_for_the_grace_only(tmp_path: Path) -> None:
    """A mover who never dismisses the report cannot stall the table: after the grace the timer runs."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=TOTAL)
        with pair(c, made) as (s0, s1):
            v = to_report(s0, s1)
            t1 = clock.now()
            mover = v["to_move"]
            s = (s0, s1)[mover]
            assert s.view_from(v["version"])["timer"] == held(mover, t1 + REPORT_GRACE_SECONDS)
            clock.advance(REPORT_GRACE_SECONDS - 1)
            settled(s)
            assert clock.waiting() == [t1 + REPORT_GRACE_SECONDS]
            clock.advance(1)
            started = s.until(lambda m: m["type"] == "view" and not m["timer"]["held"])
            t2 = t1 + REPORT_GRACE_SECONDS
            assert started["timer"] == running(mover, t2 + TOTAL, t2)
            other = (s0, s1)[1 - mover].until(lambda m: m["type"] == "view" and not m["timer"]["held"])
            assert other["timer"] == started["timer"]  # every screen is told


def test_a_report_read_before_the_phase_begins_holds_nothing(tmp_path: Path) -> None:
    """The mover dismissed the report while the other side still moved: its own timer runs from its start."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=TOTAL)
        with pair(c, made) as (s0, s1):
            v = to_report(s0, s1)
            first = v["to_move"]
            a, b = (s0, s1)[first], (s0, s1)[1 - first]
            # The second mover of turn 2 reads the report at once (its screen says so), the first one too.
            b.send({"type": "ready", "seat": 1 - first, "version": v["version"]})
            a.send({"type": "ready", "seat": first, "version": v["version"]})
            a.until(lambda m: m["type"] == "view" and not m["timer"]["held"])
            clock.advance(5.0)
            t = clock.now()
            ended = a.acted({"type": "end_phase"}, "end-3", first)
            assert ended["to_move"] == 1 - first and ended["report"] is None
            assert ended["timer"] == running(1 - first, t + TOTAL, t)


def test_a_timer_that_ran_out_is_worded_as_the_timer_s(tmp_path: Path, monkeypatch: Any) -> None:
    """The step the timer took is logged with origin "timer", and the game's words get its action with
    "timeout": true (the journal keeps the game's own action)."""
    said: list[tuple[JSON | None, int]] = []
    real = views.sentences

    def spy(words: Any, action: JSON | None, actor: int, *rest: Any) -> list[str]:
        said.append((action, actor))
        return real(words, action, actor, *rest)

    monkeypatch.setattr(views, "sentences", spy)
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=TOTAL)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            start = to_movement(s0, s1)
            mover = start["to_move"]
            clock.advance(TOTAL)
            after = s0.until(lambda m: m["type"] == "view" and m["version"] > start["version"])
            entry = after["log"][-1]
            assert entry["actor"] == mover and entry["origin"] == "timer"
            assert entry["action"] == {"type": "end_phase"}
            assert steps(c, tid)[-1].action == {"type": "end_phase"}
            assert ({"type": "end_phase", "timeout": True}, mover) in said
            # A player's own End Phase is worded from the plain action.
            s = (s0, s1)[1 - mover]
            ended = s.acted({"type": "end_phase"}, "end", 1 - mover)
            assert ended["log"][-1]["origin"] == "player"
            assert ({"type": "end_phase"}, 1 - mover) in said


def test_a_mover_who_plays_without_a_ready_starts_the_timer(tmp_path: Path) -> None:
    """A screen that never says ready (an older one, a script) starts the clock with its first action."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=TOTAL)
        with pair(c, made) as (s0, s1):
            v = to_report(s0, s1)
            mover = v["to_move"]
            s = (s0, s1)[mover]
            assert s.view_from(v["version"])["timer"]["held"] is True
            clock.advance(5.0)
            t = clock.now()
            s.send({"type": "act", "id": "bad", "seat": mover, "action": {"type": "no_such_action"}})
            started = s.until(lambda m: m["type"] == "view" and not m["timer"]["held"])
            assert started["timer"] == running(mover, t + TOTAL, t)  # its full time, from the first action
            assert s.until(lambda m: m.get("id") == "bad")["type"] == "error"  # even one the rules refuse
            assert clock.waiting() == [t + TOTAL]
