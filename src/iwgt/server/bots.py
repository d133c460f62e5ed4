"""The bot driver: the table's bot seats played by the game's own bot, after a pause players can follow."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from iwgt.core.errors import GameError
from iwgt.core.protocol import CHANCE, Seat
from iwgt.server.clock import SYSTEM_CLOCK, Clock
from iwgt.server.live import LiveTable

log = logging.getLogger("iwgt.server")


class BotDriver:
    """Plays a table's bot seats: a bot per seat thinks off the event loop; ``after()`` follows each step."""

    def __init__(
        self, live: LiveTable, delay: float, after: Callable[[], None], clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.live = live
        self.clock = clock
        self.delay = delay  # seconds the bot pauses before each action
        self._after = after  # the table's work after a step: its timer and its screens' views
        self._bots: dict[Seat, Any] = {}
        self._task: asyncio.Task[None] | None = None

    def seat(self) -> Seat | None:
        """The seat the bot must play now, if any."""
        seat = self.live.to_move
        if seat is None or seat == CHANCE:
            return None
        return seat if self.live.seat_kind(seat) == "bot" else None

    def schedule(self) -> None:
        """Let the bot take its turn after a short pause, so that players can follow its moves."""
        if self.seat() is None or (self._task is not None and not self._task.done()):
            return
        with contextlib.suppress(RuntimeError):  # no running loop: a table loaded for export only
            self._task = asyncio.get_running_loop().create_task(self._turns())

    def stop(self) -> None:
        """Stop playing (the table is quit, deleted, or the server stops)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _turns(self) -> None:
        live = self.live
        while (seat := self.seat()) is not None:
            await self.clock.sleep(self.delay)
            if seat not in self._bots:
                # As the dice: the seed the table was made with (a test, a replay), else the table's secret
                # seed, so that a player cannot foresee the bot's mixed choices.
                row = live.row
                bot = live.plugin.bot(row.seed if row.seed is not None else row.secret_seed)
                if bot is None:
                    name = live.game.name
                    log.error("table %s: %s has no built-in bot for seat %d", live.row.id, name, seat)
                    return
                self._bots[seat] = bot
            state, version = live.state, live.version
            action = await asyncio.to_thread(self._bots[seat].choose, state, seat)
            if live.version != version or self.seat() != seat:
                continue  # the table moved on meanwhile (a timer, a quit): think again
            try:
                answer = live.game.action_to_json(action)
                accepted = await live.act(seat, answer, f"bot:{version}", origin="bot")
            except GameError as exc:
                if exc.code == "table_diverged":  # the physical table differs: woken when it agrees
                    log.info("table %s: the bot waits for the table: %s", live.row.id, exc.message)
                    return
                log.error("table %s: the bot's action was refused: %s", live.row.id, exc.message)
                return
            if accepted.repeated:  # never expected (ids with ':' are the table's own): do not spin
                log.error("table %s: the bot's action at %d was already journalled", live.row.id, version)
                return
            self._after()
