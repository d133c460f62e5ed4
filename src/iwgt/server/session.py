"""One live table: the game's state, its seats and screens, the journal it writes, its timer and its bot.

The order of every accepted step is fixed: validate and apply (the state is a value, so a refusal changes
nothing), **commit to the journal, then acknowledge, then broadcast** each screen's own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from iwgt.core.chance import Die, SeededDice
from iwgt.core.digest import digest
from iwgt.core.errors import GameError, MalformedAction
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Seat, visible_events
from iwgt.core.record import GameRecord, Step
from iwgt.core.registry import get_plugin
from iwgt.server.journal import Journal, StepRow, TableRow, now
from iwgt.server.writer import JournalWriter

log = logging.getLogger("iwgt.server")

LOG_BATCHES = 20
"""How many recent steps (a player's action with the dice that followed it) a view's log shows."""


class TableError(GameError):
    """A request the table refuses for a reason outside the rules (not your seat, the game is over)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Batch:
    """One accepted step and the dice that followed it: what one acknowledgement covers."""

    version: int
    actor: Seat
    action: JSON | None  # None for a die entered by a player
    events: list[Event]
    seen: dict[Seat | None, JSON] = field(default_factory=dict)  # its log entry per seat, built once


@dataclass(slots=True)
class Timer:
    """The movement timer of one seat's phase, kept by the server (VX-02-07, VX-15-08)."""

    key: tuple[Any, ...]
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


@dataclass(eq=False, slots=True)
class Screen:
    """One connected screen: the seats its credential holds, and how to send it a message."""

    seats: frozenset[Seat]
    send: Callable[[JSON], None]
    view_seat: Seat | None = None
    tag: str = ""

    def choose_view_seat(self, to_move: Seat | None) -> Seat | None:
        """The seat this screen shows: its own, or at a shared touchscreen the seat to act (pass and play)."""
        if to_move is not None and to_move in self.seats:
            self.view_seat = to_move
        elif self.view_seat is None:
            self.view_seat = min(self.seats) if self.seats else None
        return self.view_seat


@dataclass(slots=True)
class Accepted:
    """The answer to an accepted message: the version it was committed as (a retry gets the same)."""

    version: int
    repeated: bool = False


@dataclass(slots=True)
class _Pending:
    rows: list[StepRow] = field(default_factory=list)
    record_steps: list[Step] = field(default_factory=list)


class TableSession:
    """A table being played: state, record, screens, timer and bot seats. One writer: its lock."""

    def __init__(self, row: TableRow, journal: Journal, writer: JournalWriter | None = None) -> None:
        self.row = row
        self.plugin: GamePlugin = get_plugin(row.game)
        self.game: AnyGame = self.plugin.game
        if row.rules_version != self.game.rules_version:
            raise TableError(
                "record",
                f"table {row.id} was played with {row.game} rules {row.rules_version}; "
                f"this server runs {self.game.rules_version}",
            )
        self.journal = journal
        self.writer = writer
        self.scenario = self.game.parse_scenario(row.scenario_toml, f"table {row.id} scenario")
        self.seat_names = self.game.seats(self.scenario)
        if len(row.seats) != len(self.seat_names):
            raise TableError(
                "record",
                f"table {row.id} has {len(row.seats)} seats; its scenario has {len(self.seat_names)}",
            )
        self.state: Any = self.game.initial_state(self.scenario)
        self.status = row.status
        self.result = row.result
        self.version = 0
        self.steps: list[Step] = []
        self.client_ids: dict[str, int] = {}
        self.history: deque[Batch] = deque(maxlen=LOG_BATCHES)
        self.screens: set[Screen] = set()
        self.lock = asyncio.Lock()
        self.timer: Timer | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self.bot_delay = 0.0
        self._bots: dict[Seat, Any] = {}
        # The table's dice: seeded, so a resumed table rolls on exactly where it stopped. With physical dice
        # the players roll, and only the secret dice (the plague's carrier) come from the secret seed.
        seed = row.seed if row.dice == "table" and row.seed is not None else row.secret_seed
        self.dice = SeededDice(seed)

    # -- loading -------------------------------------------------------------------------------------------

    def load(self, rows: Sequence[StepRow]) -> None:
        """Replay the journal's steps, re-rolling the table's dice and checking every digest."""
        batch: Batch | None = None
        for step in rows:
            if step.seq != self.version + 1:
                raise TableError("record", f"table {self.row.id}: step {step.seq} follows {self.version}")
            to_move = self.game.to_move(self.state)
            if to_move != step.seat:
                raise TableError(
                    "record", f"table {self.row.id}: step {step.seq} by seat {step.seat}, not {to_move}"
                )
            if step.seat == CHANCE:
                die = self.game.chance_outcomes(self.state)
                face = step.action.get("face")
                if not isinstance(face, int) or isinstance(face, bool):
                    raise TableError("record", f"table {self.row.id}: step {step.seq} has no die face")
                if step.origin == "auto":
                    assert die is not None
                    rolled = self.dice.roll(die)
                    if rolled != face:
                        raise TableError(
                            "record", f"table {self.row.id}: step {step.seq} re-rolled {rolled}, not {face}"
                        )
                self.state, events = self.game.apply(self.state, ChanceOutcome(int(face)))
            else:
                self.state, events = self.game.apply(self.state, self.game.action_from_json(step.action))
            got = digest(self.game.state_to_json(self.state))
            if got != step.digest:
                raise TableError(
                    "record", f"table {self.row.id}: step {step.seq} digest {got} != {step.digest}"
                )
            self.version = step.seq
            self.steps.append(Step(step.seat, step.action, step.digest))
            if step.client_id is not None:
                self.client_ids[step.client_id] = step.seq
            if step.origin != "auto" or batch is None:
                batch = Batch(step.seq, step.seat, None if step.origin == "die" else step.action, [])
                self.history.append(batch)
            batch.events.extend(events)

    def opening_steps(self) -> list[StepRow]:
        """The dice a new table rolls before anyone acts (none in the shipped games, but allowed)."""
        pending = _Pending()
        events: list[Event] = []
        self.state = self._roll_table_dice(self.state, pending, events)
        self._adopt(pending, None, events)
        return pending.rows

    # -- acting --------------------------------------------------------------------------------------------

    @property
    def to_move(self) -> Seat | None:
        """Who acts next (CHANCE while a die is awaited, None when over or quit)."""
        if self.status != "playing":
            return None
        return self.game.to_move(self.state)

    def awaited_die(self) -> Die | None:
        """The die the players must roll by hand, if the table waits for one."""
        if self.row.dice != "physical" or self.to_move != CHANCE:
            return None
        die = self.game.chance_outcomes(self.state)
        return None if die is None or die.secret else die

    async def act(
        self, seat: Seat, action_json: Any, client_id: str | None, origin: str = "player"
    ) -> Accepted:
        """Validate, apply, journal, then answer; a refusal raises a GameError and changes nothing."""
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            self._check_playing()
            if self.game.to_move(self.state) != seat:
                raise TableError("not_your_turn", self._whose_turn(seat))
            action = self.game.action_from_json(action_json)
            logged = self.game.action_to_json(action)
            state, events = self.game.apply(self.state, action)
            pending = _Pending()
            self._push(pending, seat, logged, state, origin, client_id)
            await _uncancellable(self._commit_and_adopt(state, pending, events, logged, seat))
            return Accepted(self.version)

    async def enter_die(self, face: Any, client_id: str | None) -> Accepted:
        """A face read off a real die for the die the table asks for."""
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            self._check_playing()
            die = self.awaited_die()
            if die is None:
                raise TableError("illegal", "the table is not waiting for a die to be rolled by hand")
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= die.sides:
                raise MalformedAction(f"'face' must be a whole number from 1 to {die.sides}, got {face!r}")
            state, events = self.game.apply(self.state, ChanceOutcome(face))
            pending = _Pending()
            self._push(pending, CHANCE, {"face": face}, state, "die", client_id)
            await _uncancellable(self._commit_and_adopt(state, pending, events, None, CHANCE))
            return Accepted(self.version)

    async def quit(self) -> None:
        """Quit Game (VX-15-25): the table is closed as abandoned; its record keeps every step."""
        async with self.lock:
            if self.status == "playing":
                self.status = "quit"
                await self._write(lambda j: j.set_status(self.row.id, "quit"))
                self._stop_tasks()

    def _check_playing(self) -> None:
        if self.status == "quit":
            raise TableError("over", "this game was quit")
        if self.status == "over" or self.game.is_terminal(self.state):
            raise TableError("over", "the game is over")

    def _whose_turn(self, seat: Seat) -> str:
        to_move = self.game.to_move(self.state)
        if to_move == CHANCE:
            die = self.game.chance_outcomes(self.state)
            return f"the table is waiting for a die: {die.purpose if die else 'a roll'}"
        names = self.seat_names
        who = names[to_move] if to_move is not None and 0 <= to_move < len(names) else str(to_move)
        return f"it is not seat {seat}'s turn: {who} acts now"

    def _push(
        self, pending: _Pending, seat: Seat, action: JSON, state: Any, origin: str, client_id: str | None
    ) -> None:
        d = digest(self.game.state_to_json(state))
        seq = self.version + 1 + len(pending.rows)
        pending.rows.append(StepRow(seq, seat, action, d, origin, client_id))
        pending.record_steps.append(Step(seat, action, d))

    def _roll_table_dice(self, state: Any, pending: _Pending, events: list[Event]) -> Any:
        """Answer chance nodes with the table's dice, unless the players roll this one by hand."""
        while self.game.to_move(state) == CHANCE:
            die = self.game.chance_outcomes(state)
            assert die is not None, "a chance node must name its die"
            if self.row.dice == "physical" and not die.secret:
                break
            face = self.dice.roll(die)
            state, more = self.game.apply(state, ChanceOutcome(face))
            events.extend(more)
            self._push(pending, CHANCE, {"face": face}, state, "auto", None)
        return state

    async def _commit_and_adopt(
        self, state: Any, pending: _Pending, events: list[Event], action: JSON | None, actor: Seat
    ) -> None:
        """Roll, commit and take the new state in memory: one piece that no cancellation may split."""
        await self._roll_and_commit(state, pending, events)
        self._adopt(pending, action, events, actor=actor)

    async def _roll_and_commit(self, state: Any, pending: _Pending, events: list[Event]) -> Any:
        """Roll the table's dice after a step and commit it all; a failed commit gives the rolls back.

        Otherwise the live dice would run ahead of the journal, and the table could not be resumed
        ("step N re-rolled 2, not 1") after the next restart.
        """
        dice = copy.deepcopy(self.dice)
        try:
            state = self._roll_table_dice(state, pending, events)
            await self._commit(pending, state)
        except Exception:
            self.dice = dice
            raise
        return state

    async def _commit(self, pending: _Pending, state: Any) -> None:
        over = self.game.is_terminal(state)
        status = "over" if over else self.status
        res = self.game.result(state)
        result = None if res is None else res.to_json()
        rows = list(pending.rows)
        await self._write(lambda j: j.append(self.row.id, rows, status, result))
        self.state = state
        self.status = status
        self.result = result

    async def _write(self, work: Callable[[Journal], Any]) -> Any:
        if self.writer is not None:
            return await self.writer.write(work)
        return work(self.journal)

    def _adopt(
        self, pending: _Pending, action: JSON | None, events: list[Event], actor: Seat = CHANCE
    ) -> None:
        if not pending.rows:
            return
        first = pending.rows[0]
        self.version = pending.rows[-1].seq
        self.steps.extend(pending.record_steps)
        if first.client_id is not None:
            self.client_ids[first.client_id] = self.version
        self.history.append(Batch(first.seq, actor, action, events))

    # -- what a seat may see -------------------------------------------------------------------------------

    def log_for(self, seat: Seat | None) -> list[JSON]:
        """The recent steps as the seat may see them: secret orders masked, hidden events left out."""
        return [self._entry(b, seat) for b in self.history]

    def _entry(self, b: Batch, seat: Seat | None) -> JSON:
        """A step's log entry for a seat; built once, since a journalled step never changes."""
        entry = b.seen.get(seat)
        if entry is None:
            action = None
            if b.action is not None and b.actor != CHANCE:
                action = self.game.action_view(self.game.action_from_json(b.action), b.actor, seat)
            entry = {
                "version": b.version,
                "actor": b.actor,
                "action": action,
                "events": [e.to_json() for e in visible_events(b.events, seat)],
            }
            b.seen[seat] = entry
        return entry

    def record(self) -> GameRecord:
        """The whole record (hidden facts included): the table owner's export."""
        rec = GameRecord(
            game=self.game.name,
            rules_version=self.game.rules_version,
            scenario_name=self.scenario.name,
            scenario_toml=self.scenario.source,
            seed=self.row.seed if self.row.dice == "table" else None,
            dice="seeded" if self.row.dice == "table" else "physical",
            steps=list(self.steps),
        )
        if self.result is not None:
            rec.result = dict(self.result)
        return rec

    # -- timer and bot -------------------------------------------------------------------------------------

    def human_seat(self, seat: Seat | None) -> bool:
        """Whether a person (not the bot) plays the seat."""
        return seat is not None and 0 <= seat < len(self.row.seats) and self.row.seats[seat] == "human"

    def refresh_timer(self) -> bool:
        """Start, keep or stop the movement timer for the state now; True if it changed."""
        timed = self.game.facts.movement_timer  # the game's own rule, as data (None: no timer)
        status = self.game.status(self.state)
        seat = status.to_move
        want = (
            self.status == "playing"
            and timed is not None
            and self.row.timer_seconds > 0
            and status.phase == timed.phase
            and (self.human_seat(seat) or (seat == CHANCE and self.timer is not None))
        )
        if not want:
            changed = self.timer is not None
            self._cancel_timer()
            self.timer = None
            return changed
        mover: Seat = status.mover if status.mover is not None else (seat if seat is not None else 0)
        key = (status.turn, mover, status.phase)
        if self.timer is not None and self.timer.key == key:
            running = self._timer_task is not None and not self._timer_task.done()
            if self.timer.expired and seat == mover and not running:
                self._schedule_timeout(0.0)
            return False
        self._cancel_timer()
        self.timer = Timer(key, mover, self.row.timer_seconds, now() + self.row.timer_seconds)
        self._schedule_timeout(self.row.timer_seconds)
        return True

    def _schedule_timeout(self, delay: float) -> None:
        self._cancel_timer()
        with contextlib.suppress(RuntimeError):  # no running loop: a table loaded for export only
            self._timer_task = asyncio.get_running_loop().create_task(self._timeout(delay))

    def _cancel_timer(self) -> None:
        if self._timer_task is not None and self._timer_task is not asyncio.current_task():
            self._timer_task.cancel()
        self._timer_task = None

    async def _timeout(self, delay: float) -> None:
        await asyncio.sleep(delay)
        timer, timed = self.timer, self.game.facts.movement_timer
        if timer is None or timed is None:
            return
        timer.expired = True
        if self.game.to_move(self.state) != timer.seat:
            return  # a die is awaited: the phase ends as soon as it is answered (refresh_timer)
        try:
            await self.act(timer.seat, timed.ends_with, f"timer:{self.version}", origin="timer")
        except GameError as exc:  # the phase already ended some other way
            log.info("table %s: timer found nothing to end (%s)", self.row.id, exc.message)
            return
        self.after_step()

    def bot_seat(self) -> Seat | None:
        """The seat the bot must play now, if any."""
        seat = self.to_move
        if seat is None or seat == CHANCE or not 0 <= seat < len(self.row.seats):
            return None
        return seat if self.row.seats[seat] == "bot" else None

    def schedule_bot(self) -> None:
        """Let the bot take its turn after a short pause, so that players can follow its moves."""
        if self.bot_seat() is None or (self._bot_task is not None and not self._bot_task.done()):
            return
        with contextlib.suppress(RuntimeError):
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_turn())

    async def _bot_turn(self) -> None:
        while (seat := self.bot_seat()) is not None:
            await asyncio.sleep(self.bot_delay)
            if seat not in self._bots:
                bot = self.plugin.bot()
                if bot is None:
                    log.error(
                        "table %s: %s has no built-in bot for seat %d", self.row.id, self.game.name, seat
                    )
                    return
                self._bots[seat] = bot
            state, version = self.state, self.version
            action = await asyncio.to_thread(self._bots[seat].choose, state, seat)
            if self.version != version or self.bot_seat() != seat:
                continue  # the table moved on meanwhile (a timer, a quit): think again
            try:
                accepted = await self.act(
                    seat, self.game.action_to_json(action), f"bot:{version}", origin="bot"
                )
            except GameError as exc:
                log.error("table %s: the bot's action was refused: %s", self.row.id, exc.message)
                return
            if accepted.repeated:  # never expected (ids with ':' are the table's own): do not spin
                log.error("table %s: the bot's action at %d was already journalled", self.row.id, version)
                return
            self.after_step(schedule=False)

    def after_step(self, *, schedule: bool = True) -> None:
        """After a commit: restart the timer if the phase changed, wake the bot, and send every view."""
        self.refresh_timer()
        self.broadcast()
        if schedule:
            self.schedule_bot()

    def broadcast(self) -> None:
        """Send every screen its own view."""
        from iwgt.server.views import view_for  # views import the table layer; sessions stay light

        cache: dict[Seat | None, JSON] = {}
        for screen in list(self.screens):
            seat = screen.choose_view_seat(self.to_move)
            if seat not in cache:
                cache[seat] = view_for(self, seat)
            screen.send({**cache[seat], "seats": sorted(screen.seats)})

    def close_screens(self, reason: str) -> None:
        """Tell every screen the table is gone."""
        for screen in list(self.screens):
            screen.send({"type": "closed", "reason": reason})

    def _stop_tasks(self) -> None:
        self._cancel_timer()
        self.timer = None
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None

    def stop(self) -> None:
        """Cancel the timer and the bot (the server is stopping, or the table was deleted)."""
        self._stop_tasks()

    def summary(self) -> JSON:
        """The table as the lobby lists it."""
        return {
            "id": self.row.id,
            "game": self.row.game,
            "title": self.game.title,
            "scenario": self.scenario.name,
            "created": self.row.created,
            "status": self.status,
            "turn": self.game.status(self.state).turn,
            "seats": list(self.row.seats),
            "seat_names": list(self.seat_names),
            "mode": self.row.mode,
            "dice": self.row.dice,
            "timer_seconds": self.row.timer_seconds,
            "steps": self.version,
            "result": self.result,
        }


async def _uncancellable(coro: Coroutine[Any, Any, None]) -> None:
    """Run a commit to its end even if the caller is cancelled meanwhile (a timer replaced, a table deleted).

    A cancelled caller would otherwise leave a step in the journal but not in memory; the caller's own
    cancellation is raised once the work is done.
    """
    task = asyncio.ensure_future(coro)
    cancelled = False
    while True:
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
            continue
        break
    if cancelled:
        raise asyncio.CancelledError


def refuse(exc: Exception) -> TableError | GameError:
    """Any failure to understand a message as a GameError with a code (never a stack trace to a client)."""
    if isinstance(exc, GameError):
        return exc
    if isinstance(exc, KeyError | TypeError | ValueError):
        return MalformedAction(f"the action could not be read: {exc}")
    return TableError("internal", "the table could not take this message; nothing changed")
