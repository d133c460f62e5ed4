"""The table session's parts on their own: the movement clock's decisions, and views that need no session."""

from __future__ import annotations

import subprocess
import sys

from iwgt.core.protocol import CHANCE, JSON, Seat, Status, TimerRule
from iwgt.server.clock import MovementClock

RULE = TimerRule(phase="movement", ends_with={"type": "end_phase"}, seconds=120.0, clause="VX-02-07")


async def never(seat: Seat, action: JSON) -> None:
    raise AssertionError("no loop runs here: the timer never fires")


def clock(seconds: float = 30.0, humans: tuple[Seat, ...] = (0,)) -> MovementClock:
    return MovementClock(RULE, seconds, humans, never)


def test_the_clock_times_a_person_s_phase_and_keeps_it_while_the_phase_goes_on() -> None:
    c = clock()
    assert c.refresh(Status("deploy", 1, 0, 0)) is False and c.timer is None  # not the timed phase
    assert c.refresh(Status("movement", 1, 0, 0)) is True  # a person's movement phase starts
    first = c.timer
    assert first is not None and (first.seat, first.total, first.key) == (0, 30.0, (1, 0, "movement"))
    assert c.refresh(Status("movement", 1, 0, 0)) is False and c.timer is first  # a move: same phase
    assert c.refresh(Status("movement", 1, CHANCE, 0)) is False and c.timer is first  # a die in the phase
    assert c.refresh(Status("movement", 2, 0, 0)) is True  # the next turn: a new timer, a full time
    assert c.timer is not None and c.timer.key == (2, 0, "movement")
    assert c.refresh(None) is True and c.timer is None  # the game is over or quit


def test_the_clock_never_times_a_bot_nor_a_table_without_a_timer() -> None:
    c = clock()
    assert c.refresh(Status("movement", 1, 1, 1)) is False and c.timer is None  # seat 1 is a bot
    assert c.refresh(Status("movement", 1, CHANCE, 0)) is False and c.timer is None  # no timer to keep
    off = clock(seconds=0.0)
    assert off.refresh(Status("movement", 1, 0, 0)) is False and off.timer is None
    untimed = MovementClock(None, 30.0, (0,), never)
    assert untimed.refresh(Status("movement", 1, 0, 0)) is False and untimed.timer is None


def test_views_and_screens_import_no_session() -> None:
    code = (
        "import sys, iwgt.server.views, iwgt.server.screens; "
        "print(sorted(m for m in sys.modules if m in ('iwgt.server.session', 'iwgt.server.live')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
