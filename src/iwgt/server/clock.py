"""The movement clock: the timer of a person's movement phase, kept by the server (the game's ``TimerRule``).

A game declares its timer as data (``facts.movement_timer``: the phase it runs in, the action that ends it);
the clock reads the phase, turn and mover from ``game.status(state)`` after every step, starts a new timer
when a person's timed phase begins, keeps it while that phase goes on, and stops it when it ends. When the
time is up it asks its table to end the phase; if a die is awaited then, the phase ends once it is answered.

A timer starts **held** when its table says the mover has a report still to read (a combat round's health
bars): it shows its full time and does not run until the mover's screen says it is ready (``start``), or
until ``REPORT_GRACE_SECONDS`` have passed, so no player can stall the table by leaving a report open.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from iwgt.core.protocol import CHANCE, JSON, Seat, Status, TimerRule


class Clock(Protocol):
    """The server's time: the movement timer's deadlines, the bot's pause and the rate limiter's refill."""

    def now(self) -> float:
        """Seconds since the epoch (the deadlines screens are shown)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (the rate limiter's)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` on this clock."""
        ...


class SystemClock:
    """The machine's own clocks."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()
"""The clock a server runs on unless a test gives it another."""

TIMER_ORIGIN = "timer"
"""The journal's origin of the step a timer that ran out took (its client id is ``timer:<version>``); the
log entry of that step says ``"origin": "timer"`` and its words get the action with ``"timeout": true``."""

REPORT_GRACE_SECONDS = 30.0
"""The longest a held movement timer waits for the mover's screen to say the report is read: then it runs
anyway, at its full time (docs/protocol.md, "The movement timer")."""


class ManualClock:
    """A clock that moves only when told (``advance``), from any thread: tests exact on any machine."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._t = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        """The clock's time."""
        return self._t

    def monotonic(self) -> float:
        """The same time (this clock never goes back)."""
        return self._t

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced by ``seconds`` (a zero wait yields once)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._sleepers.append((self._t + seconds, loop, future))
        await future

    def waiting(self) -> list[float]:
        """The times the sleepers still waiting will wake at, in order (cancelled ones left out)."""
        with self._lock:
            self._sleepers = [x for x in self._sleepers if not x[2].done()]
            return sorted(t for t, _, _ in self._sleepers)

    def advance(self, seconds: float) -> None:
        """Move the clock on; every sleeper whose time has come is woken."""
        with self._lock:
            self._t += seconds
            due = [x for x in self._sleepers if x[0] <= self._t]
            self._sleepers = [x for x in self._sleepers if x[0] > self._t]
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


@dataclass(slots=True)
class Timer:
    """The movement timer of one seat's phase."""

    key: tuple[Any, ...]  # (turn, mover, phase): a new key is a new phase, with its own full time
    seat: Seat
    total: float
    deadline: float  # while held: the latest it starts (the grace's end), when it runs: when it ends
    expired: bool = False
    held: bool = False  # waiting for the mover's screen (a report to read): not running
    left: float | None = None  # paused while the game waits for its physical table: the time it had left

    def to_json(self, now: float) -> JSON:
        """The timer as a view shows it at ``now`` (a held timer: its full time, and when it starts at the
        latest; a paused one: the time it has left, not counting down)."""
        if self.left is not None:
            return {
                "seat": self.seat,
                "deadline": None,
                "remaining": round(self.left, 3),
                "total": self.total,
                "held": True,
                "paused": True,
            }
        if self.held:
            return {
                "seat": self.seat,
                "deadline": None,
                "remaining": self.total,
                "total": self.total,
                "held": True,
                "starts_by": round(self.deadline, 3),
            }
        return {
            "seat": self.seat,
            "deadline": round(self.deadline, 3),
            "remaining": round(max(0.0, self.deadline - now), 3),
            "total": self.total,
            "held": False,
        }


class MovementClock:
    """One table's movement timer: kept by ``refresh``; when it is up, ``expire(seat, ending action)``.

    ``started(seat)`` is called when a held timer starts by itself at the end of its grace (the table then
    sends its screens the running timer); a screen's ready starts it through ``start``.
    """

    def __init__(
        self,
        rule: TimerRule | None,
        seconds: float,
        humans: Collection[Seat],
        expire: Callable[[Seat, JSON], Awaitable[None]],
        clock: Clock = SYSTEM_CLOCK,
        *,
        started: Callable[[Seat], None] | None = None,
        grace: float = REPORT_GRACE_SECONDS,
    ) -> None:
        self.clock = clock
        self.rule = rule  # the game's own rule, as data (None: the game has no timer)
        self.seconds = seconds  # the table's length (0: no timer)
        self.humans = frozenset(humans)  # only a person's phase is timed
        self.grace = grace
        self.timer: Timer | None = None
        self._expire = expire
        self._started = started
        self._task: asyncio.Task[None] | None = None
        # The time a phase had left when it stopped running (ended, or left by a step that may be undone):
        # a phase that comes back (an undo) carries on with it, never with a fresh full time.
        self._left: dict[tuple[Any, ...], float] = {}
        self.paused = False  # the game waits for its physical table: no timer runs meanwhile

    def to_json(self) -> JSON | None:
        """The timer as a view shows it, or None."""
        return None if self.timer is None else self.timer.to_json(self.clock.now())

    def refresh(self, status: Status | None, hold: Callable[[Seat], bool] | None = None) -> bool:
        """Start, keep or stop the timer for the game's status (None: no longer played); True if changed.

        A new timer is held (not running) if ``hold(mover)`` says the mover has a report still to read.
        """
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
            self._remember()
            self.stop()
            if status is not None:  # a phase of an earlier turn never comes back: forget its time
                self._left = {k: v for k, v in self._left.items() if k[0] == status.turn}
            return changed
        assert status is not None
        mover: Seat = status.mover if status.mover is not None else (seat if seat is not None else 0)
        key = (status.turn, mover, status.phase)
        if self.timer is not None and self.timer.key == key:
            running = self._task is not None and not self._task.done()
            if self.timer.expired and seat == mover and not running:
                self._schedule(self._timeout(0.0))  # the die that held the phase open is answered: end it now
            return False
        self._remember()
        self._cancel()
        now = self.clock.now()
        left = self._left.pop(key, None)
        if left is not None:  # the phase is back (an undo): its clock carries on where it stopped
            self.timer = Timer(key, mover, self.seconds, now + left)
            self._schedule(self._timeout(left))
        elif hold is not None and seat == mover and hold(mover):
            self.timer = Timer(key, mover, self.seconds, now + self.grace, held=True)
            self._schedule(self._grace(self.timer))
        else:
            self.timer = Timer(key, mover, self.seconds, now + self.seconds)
            self._schedule(self._timeout(self.seconds))
        if self.paused:
            self._pause_timer()
        return True

    def pause(self) -> bool:
        """The game waits for its physical table (offline, not read, differing): the running timer stops with
        the time it has left, and none runs until ``resume``; True if a running timer stopped."""
        self.paused = True
        return self._pause_timer()

    def resume(self) -> bool:
        """The table agrees again: a paused timer runs on with the time it had left; True if one did."""
        self.paused = False
        timer = self.timer
        if timer is None or timer.left is None:
            return False
        left, timer.left = timer.left, None
        timer.deadline = self.clock.now() + left
        self._schedule(self._timeout(left))
        return True

    def _pause_timer(self) -> bool:
        timer = self.timer
        if timer is None or timer.held or timer.expired or timer.left is not None:
            return False
        timer.left = max(0.0, timer.deadline - self.clock.now())
        self._cancel()
        return True

    def start(self, seat: Seat) -> bool:
        """The mover's screen is ready: a held timer of ``seat`` starts at its full time; True if it did."""
        timer = self.timer
        if timer is None or not timer.held or timer.seat != seat:
            return False
        timer.held = False
        timer.deadline = self.clock.now() + timer.total
        self._schedule(self._timeout(timer.total))
        if self.paused:
            self._pause_timer()
        return True

    async def _grace(self, timer: Timer) -> None:
        await self.clock.sleep(self.grace)
        if self.timer is timer and self.start(timer.seat) and self._started is not None:
            self._started(timer.seat)

    def _remember(self) -> None:
        """Keep the time the current timer has left, in case its phase comes back (held: its full time)."""
        timer = self.timer
        if timer is not None and not timer.expired:
            if timer.left is not None:
                left = timer.left
            else:
                left = timer.total if timer.held else max(0.0, timer.deadline - self.clock.now())
            self._left[timer.key] = left

    def stop(self) -> None:
        """No timer: the phase ended, the game is over, or the table stops."""
        self._cancel()
        self.timer = None

    def _schedule(self, work: Coroutine[Any, Any, None]) -> None:
        self._cancel()
        try:
            self._task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no running loop: a table loaded for export only
            work.close()

    def _cancel(self) -> None:
        # The timeout's own task is not cancelled from within: it is committing the step that ends the phase.
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None

    async def _timeout(self, delay: float) -> None:
        await self.clock.sleep(delay)
        timer, rule = self.timer, self.rule
        if timer is None or rule is None:
            return
        timer.expired = True
        await self._expire(timer.seat, rule.ends_with)
