"""The movement clock: the timer of a person's movement phase, kept by the server (the game's ``TimerRule``).

A game declares its timer as data (``facts.movement_timer``: the phase it runs in, the action that ends it);
the clock reads the phase, turn and mover from ``game.status(state)`` after every step, starts a new timer
when a person's timed phase begins, keeps it while that phase goes on, and stops it when it ends. When the
time is up it asks its table to end the phase; if a die is awaited then, the phase ends once it is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from iwgt.core.protocol import CHANCE, JSON, Seat, Status, TimerRule
from iwgt.server.journal import now


@dataclass(slots=True)
class Timer:
    """The movement timer of one seat's phase."""

    key: tuple[Any, ...]  # (turn, mover, phase): a new key is a new phase, with its own full time
    seat: Seat
    total: float
    deadline: float
    expired: bool = False

    def to_json(self) -> JSON:
        """The timer as a view shows it."""
        return {
            "seat": self.seat,
            "deadline": round(self.deadline, 3),
            "remaining": round(max(0.0, self.deadline - now()), 3),
            "total": self.total,
        }


class MovementClock:
    """One table's movement timer: kept by ``refresh``; when it is up, ``expire(seat, ending action)``."""

    def __init__(
        self,
        rule: TimerRule | None,
        seconds: float,
        humans: Collection[Seat],
        expire: Callable[[Seat, JSON], Awaitable[None]],
    ) -> None:
        self.rule = rule  # the game's own rule, as data (None: the game has no timer)
        self.seconds = seconds  # the table's length (0: no timer)
        self.humans = frozenset(humans)  # only a person's phase is timed
        self.timer: Timer | None = None
        self._expire = expire
        self._task: asyncio.Task[None] | None = None

    def to_json(self) -> JSON | None:
        """The timer as a view shows it, or None."""
        return None if self.timer is None else self.timer.to_json()

    def refresh(self, status: Status | None) -> bool:
        """Start, keep or stop the timer for the game's status (None: no longer played); True if changed."""
        rule = self.rule
        seat = None if status is None else status.to_move
        want = (
            status is not None
            and rule is not None
            and self.seconds > 0
            and status.phase == rule.phase
            and (seat in self.humans or (seat == CHANCE and self.timer is not None))
        )
        if not want:
            changed = self.timer is not None
            self.stop()
            return changed
        assert status is not None
        mover: Seat = status.mover if status.mover is not None else (seat if seat is not None else 0)
        key = (status.turn, mover, status.phase)
        if self.timer is not None and self.timer.key == key:
            running = self._task is not None and not self._task.done()
            if self.timer.expired and seat == mover and not running:
                self._schedule(0.0)  # the die that held the phase open is answered: end it now
            return False
        self._cancel()
        self.timer = Timer(key, mover, self.seconds, now() + self.seconds)
        self._schedule(self.seconds)
        return True

    def stop(self) -> None:
        """No timer: the phase ended, the game is over, or the table stops."""
        self._cancel()
        self.timer = None

    def _schedule(self, delay: float) -> None:
        self._cancel()
        with contextlib.suppress(RuntimeError):  # no running loop: a table loaded for export only
            self._task = asyncio.get_running_loop().create_task(self._timeout(delay))

    def _cancel(self) -> None:
        # The timeout's own task is not cancelled from within: it is committing the step that ends the phase.
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None

    async def _timeout(self, delay: float) -> None:
        await asyncio.sleep(delay)
        timer, rule = self.timer, self.rule
        if timer is None or rule is None:
            return
        timer.expired = True
        await self._expire(timer.seat, rule.ends_with)
