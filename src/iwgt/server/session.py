"""One table in play: its live game and commits, its screens, its movement clock and its bots, tied together.

Each part has one job: ``LiveTable`` (server/live.py) validates, commits and adopts every step; ``Screens``
(server/screens.py) sends each screen its own view of a ``Snapshot``; ``MovementClock`` (server/clock.py)
times a person's movement phase; ``BotDriver`` (server/bots.py) plays the bot seats. The order of every
accepted step is **commit, then acknowledge, then broadcast**: the live table commits before it answers,
the socket acknowledges, and ``after_step`` then moves the clock, broadcasts and wakes the bots.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Protocol

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON, Seat
from iwgt.server.bots import BotDriver
from iwgt.server.clock import SYSTEM_CLOCK, TIMER_ORIGIN, Clock, MovementClock
from iwgt.server.journal import Journal, TableRow
from iwgt.server.live import LiveTable
from iwgt.server.screens import Screen, Screens
from iwgt.server.snapshot import Snapshot
from iwgt.server.writer import JournalWriter
from iwgt.table.plain import table_of

log = logging.getLogger("iwgt.server")


class HardwareHook(Protocol):
    """A physical table bound to this game table (server/bridge/): what the views show of it, and a frame
    published after every broadcast."""

    def view(self) -> JSON | None:
        """The view's ``hardware`` field (public: the same for every seat)."""
        ...

    def shown(self, view: JSON | None) -> None:
        """Every screen was just sent its view, with this ``hardware`` field: the table's lights follow."""
        ...

    def carry_on(self) -> None:
        """Play on past the cells the table reads wrongly now (a stuck sensor), until each changes again."""
        ...


class TableSession:
    """A table being played: ``live`` (state and commits), ``screens``, ``clock`` and ``bots``."""

    def __init__(
        self,
        row: TableRow,
        journal: Journal,
        writer: JournalWriter | None = None,
        *,
        bot_delay: float = 0.0,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.row = row
        self.live = LiveTable(row, journal, writer)
        self.screens = Screens()
        humans = [seat for seat, kind in enumerate(row.seats) if kind == "human"]
        rule = self.live.game.facts.movement_timer
        self.clock = MovementClock(
            rule, row.timer_seconds, humans, self._time_is_up, clock, started=self._timer_started
        )
        self.bots = BotDriver(self.live, bot_delay, self._after_bot, clock)
        # Each seat's last version its screen said it had read (a report read, nothing covering the table):
        # a timer whose mover has a report still unread is held until then (clock.REPORT_GRACE_SECONDS).
        self.read: dict[Seat, int] = {}
        self.hardware: HardwareHook | None = None  # a bound physical table (server/bridge/), if any
        self._owed: tuple[Seat, Any] | None = None  # a timer's end the physical table's gate held back

    def snapshot(self) -> Snapshot:
        """What every view is built from now."""
        snap = self.live.snapshot(self.clock.to_json())
        if self.hardware is not None:
            snap = dataclasses.replace(snap, hardware=self.hardware.view())
        return snap

    def broadcast(self) -> None:
        """Send every screen its view, then the bound physical table its lights."""
        snap = self.snapshot()
        self.screens.broadcast(snap)
        if self.hardware is not None:
            self.hardware.shown(snap.hardware)

    async def unblocked(self) -> None:
        """The physical table agrees with the game again: a timer's end held back is taken now, and the bot
        plays on (both were refused while the table differed)."""
        owed, self._owed = self._owed, None
        if owed is not None:
            await self._time_is_up(*owed)
        self.bots.schedule()

    def resume(self) -> None:
        """Start the clock and wake the bots (a table just opened, or resumed from the journal)."""
        self.clock.refresh(self.live.phase(), hold=self.report_unread)
        self.bots.schedule()

    def after_step(self, *, schedule: bool = True) -> None:
        """After a committed (and acknowledged) step: restart the timer if the phase changed, send every
        screen its view, and wake the bot."""
        self.clock.refresh(self.live.phase(), hold=self.report_unread)
        self.broadcast()
        if schedule:
            self.bots.schedule()

    def report_unread(self, seat: Seat) -> bool:
        """Whether a step since the seat's screen last said it was ready brought the seat a report (the
        table adapter's ``report``, a combat round's health bars): its movement timer then waits for it."""
        since = self.read.get(seat, 0)
        live = self.live
        adapter = table_of(live.plugin)
        observation: JSON | None = None
        batches = list(live.history)
        for i, batch in enumerate(batches):
            # A batch is read once the view of its last step is: the one before the next batch's first.
            last = batches[i + 1].version - 1 if i + 1 < len(batches) else live.version
            if last <= since:
                continue
            events = batch.visible(seat)
            if not events:
                continue
            if observation is None:
                observation = live.game.observe(live.state, seat)
            if adapter.report(observation, events) is not None:
                return True
        return False

    def ready(self, seat: Seat, version: int) -> None:
        """The seat's screen shows the view of ``version`` with nothing covering it (its report read): a held
        timer of the seat starts at its full time, and every screen is told."""
        self.read[seat] = max(self.read.get(seat, 0), min(version, self.live.version))
        timer = self.clock.timer
        if timer is None or not timer.held or timer.seat != seat or self.report_unread(seat):
            return
        if self.clock.start(seat):
            self.broadcast()

    def playing(self, seat: Seat) -> None:
        """The seat's screen acts: it has read what it was shown, so a held timer of the seat starts now."""
        timer = self.clock.timer
        if timer is None or not timer.held or timer.seat != seat:
            return
        self.read[seat] = max(self.read.get(seat, 0), self.live.version)
        if self.clock.start(seat):
            self.broadcast()

    def _timer_started(self, seat: Seat) -> None:
        """A held timer ran out of grace and started by itself: the report counts as read; screens told."""
        self.read[seat] = max(self.read.get(seat, 0), self.live.version)
        self.broadcast()

    def send_view(self, screen: Screen) -> None:
        """Send one screen its view."""
        self.screens.send_view(screen, self.snapshot())

    async def quit(self) -> None:
        """Quit Game (VX-15-25): the table is closed as abandoned; its timer and bot stop."""
        if await self.live.quit():
            self.stop()

    def close_screens(self, reason: str) -> None:
        """Tell every screen the table is gone."""
        self.screens.close(reason)

    def stop(self) -> None:
        """Cancel the timer and the bot (the game was quit, the server stops, or the table was deleted)."""
        self.clock.stop()
        self.bots.stop()

    def _after_bot(self) -> None:
        self.after_step(schedule=False)  # the bot's own loop plays on

    async def _time_is_up(self, seat: Seat, ends_with: JSON) -> None:
        """The movement timer ran out: the table ends the mover's phase itself (origin "timer")."""
        live = self.live
        if live.referee.to_move != seat:
            return  # a die is awaited: the phase ends as soon as it is answered (MovementClock.refresh)
        try:
            await live.act(seat, ends_with, f"timer:{live.version}", origin=TIMER_ORIGIN)
        except GameError as exc:  # the phase already ended some other way
            if exc.code == "table_diverged":  # held until the physical table agrees (``unblocked``)
                self._owed = (seat, ends_with)
                return
            log.info("table %s: timer found nothing to end (%s)", self.row.id, exc.message)
            return
        self.after_step()
