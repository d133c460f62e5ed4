"""A table's live game and its commits: the referee's state, the journal, the log and the clients' ids.

The order of every accepted step is fixed: the referee validates and folds it (the table's dice rolled)
without touching the live state, the fold is **committed to the journal, then adopted**; only then does the
caller acknowledge it and broadcast every screen's view. A failed commit changes nothing, the table's dice
included (its rolls are given back), and a commit runs to its end even if its caller is cancelled.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from iwgt.core.chance import Die, SeededDice
from iwgt.core.errors import RecordError
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import CHANCE, JSON, Seat, Status
from iwgt.core.record import GameRecord
from iwgt.core.referee import BY_HAND, PLAYER, TABLE_DICE, Fold, Referee, Step
from iwgt.core.registry import get_plugin
from iwgt.server.errors import TableError
from iwgt.server.journal import Journal, StepRow, TableRow
from iwgt.server.snapshot import Batch, Snapshot
from iwgt.server.writer import JournalWriter

LOG_BATCHES = 20
"""How many recent steps (a player's action with the dice that followed it) a view's log shows."""


@dataclass(slots=True)
class Accepted:
    """The answer to an accepted message: the version it was committed as (a retry gets the same)."""

    version: int
    repeated: bool = False


class LiveTable:
    """One table's game as journalled: its referee, status, result, recent log and clients' ids; one lock."""

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
        # The table's dice are seeded, so a resumed table rolls on exactly where it stopped. With physical
        # dice the players roll, and only the secret dice (the plague's carrier) come from the secret seed.
        seed = row.seed if row.dice == "table" and row.seed is not None else row.secret_seed
        self.referee = Referee(self.game, self.scenario, SeededDice(seed), by_hand=row.dice == "physical")
        self.status = row.status
        self.result = row.result
        self.client_ids: dict[str, int] = {}  # a client's message id -> the version its step was committed as
        self.history: deque[Batch] = deque(maxlen=LOG_BATCHES)
        self.lock = asyncio.Lock()

    # -- where the game stands ----------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state as committed."""
        return self.referee.state

    @property
    def version(self) -> int:
        """How many steps are committed."""
        return self.referee.version

    @property
    def to_move(self) -> Seat | None:
        """Who acts next (CHANCE while a die is awaited, None when over or quit)."""
        if self.status != "playing":
            return None
        return self.referee.to_move

    def awaited_die(self) -> Die | None:
        """The die the players must roll by hand, if the table waits for one."""
        return self.referee.awaited_die() if self.status == "playing" else None

    def phase(self) -> Status | None:
        """The game's status while it is played (the movement clock's input), None once over or quit."""
        return self.game.status(self.state) if self.status == "playing" else None

    def seat_kind(self, seat: Seat | None) -> str | None:
        """Who plays a seat: "human", "bot", or None for the dice and for no seat."""
        if seat is None or not 0 <= seat < len(self.row.seats):
            return None
        return self.row.seats[seat]

    def snapshot(self, timer: JSON | None) -> Snapshot:
        """What the views need now, as one plain value."""
        return Snapshot(
            table=self.row.id,
            game=self.game,
            plugin=self.plugin,
            state=self.state,
            version=self.version,
            to_move=self.to_move,
            log=tuple(self.history),
            timer=timer,
            die=self.awaited_die(),
            dice=self.row.dice,
            status=self.status,
            result=self.result,
        )

    # -- loading -------------------------------------------------------------------------------------------

    def load(self, rows: Sequence[StepRow]) -> None:
        """Fold the journal's steps into the game: the table's dice re-rolled, every seat, origin and digest
        checked; a journal that does not reproduce is refused with the step it failed at."""
        for expected, row in enumerate(rows, start=self.version + 1):
            if row.seq != expected:
                raise TableError("record", f"table {self.row.id}: step {row.seq} follows {expected - 1}")
        try:
            taken = self.referee.load(
                [Step(r.seat, r.action, r.digest) for r in rows],
                [r.origin for r in rows],
                source="the journal",
                first=self.version + 1,
            )
        except RecordError as exc:
            raise TableError("record", f"table {self.row.id}: {exc.message}") from None
        batch: Batch | None = None
        client_id: str | None = None  # the id of the step whose table dice are being read
        for row, t in zip(rows, taken, strict=True):
            if row.origin != TABLE_DICE or batch is None:
                action = None if row.origin == BY_HAND else row.action
                batch = Batch(row.seq, row.seat, action, [], row.origin)
                self.history.append(batch)
                client_id = row.client_id
            batch.events.extend(t.events)
            # A retried id is answered with its first ack, whose version counted the table's dice that
            # followed the step (they were committed with it): the last step of its batch, not its first.
            if client_id is not None:
                self.client_ids[client_id] = row.seq

    def opening_steps(self) -> list[StepRow]:
        """The dice a new table rolls before anyone acts (none in the shipped games, but allowed).

        They are journalled with the table itself (``Journal.create_table``), so they are adopted at once.
        """
        fold = self.referee.propose_chance()
        rows = self._rows(fold, None)
        self._adopt(fold, rows, CHANCE, None)
        return rows

    # -- acting --------------------------------------------------------------------------------------------

    async def act(
        self, seat: Seat, action_json: Any, client_id: str | None, origin: str = PLAYER
    ) -> Accepted:
        """Validate, fold, commit, adopt; a refusal raises a GameError and changes nothing."""
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            self._check_playing()
            if self.referee.to_move != seat:
                raise TableError("not_your_turn", self._whose_turn(seat))
            action = self.game.action_from_json(action_json)
            fold = self.referee.propose(seat, action, origin)
            await uncancellable(self._commit(fold, client_id, seat, fold.taken[0].step.action))
            return Accepted(self.version)

    async def enter_die(self, face: Any, client_id: str | None) -> Accepted:
        """A face read off a real die for the die the table asks for."""
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            self._check_playing()
            fold = self.referee.propose_face(face)
            await uncancellable(self._commit(fold, client_id, CHANCE, None))
            return Accepted(self.version)

    async def quit(self) -> bool:
        """Quit Game (VX-15-25): the table is closed as abandoned, its record keeps every step; True if it was
        still being played."""
        async with self.lock:
            if self.status != "playing":
                return False
            self.status = "quit"
            turn = self.game.status(self.state).turn
            await self._write(lambda j: j.set_status(self.row.id, "quit", turn))
            return True

    def _check_playing(self) -> None:
        if self.status == "quit":
            raise TableError("over", "this game was quit")
        if self.status == "over" or self.referee.is_over():
            raise TableError("over", "the game is over")

    def _whose_turn(self, seat: Seat) -> str:
        to_move = self.referee.to_move
        if to_move == CHANCE:
            die = self.game.chance_outcomes(self.state)
            return f"the table is waiting for a die: {die.purpose if die else 'a roll'}"
        names = self.seat_names
        who = names[to_move] if to_move is not None and 0 <= to_move < len(names) else str(to_move)
        return f"it is not seat {seat}'s turn: {who} acts now"

    def _rows(self, fold: Fold, client_id: str | None) -> list[StepRow]:
        """The fold's steps as journal rows; the client's id goes with the first (what its ack answers)."""
        rows = []
        for i, t in enumerate(fold.taken):
            s = t.step
            seq = fold.base + 1 + i
            rows.append(StepRow(seq, s.seat, s.action, s.digest, t.origin, None if i else client_id))
        return rows

    async def _commit(self, fold: Fold, client_id: str | None, actor: Seat, action: JSON | None) -> None:
        """Commit the fold to the journal, then adopt it; a failed commit gives the table's rolls back."""
        rows = self._rows(fold, client_id)
        status = "over" if self.game.is_terminal(fold.state) else self.status
        res = self.game.result(fold.state)
        result = None if res is None else res.to_json()
        turn = self.game.status(fold.state).turn  # the lobby lists it, also after a restart
        try:
            await self._write(lambda j: j.append(self.row.id, rows, status, result, turn))
        except Exception:
            self.referee.give_back(fold)
            raise
        self.status = status
        self.result = result
        self._adopt(fold, rows, actor, action)

    def _adopt(self, fold: Fold, rows: list[StepRow], actor: Seat, action: JSON | None) -> None:
        if not rows:
            return
        self.referee.adopt(fold)
        first = rows[0]
        if first.client_id is not None:
            self.client_ids[first.client_id] = self.version
        self.history.append(Batch(first.seq, actor, action, fold.events, first.origin))

    async def _write(self, work: Callable[[Journal], Any]) -> Any:
        if self.writer is not None:
            return await self.writer.write(work)
        return work(self.journal)

    # -- what the table shows of itself --------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The whole record (hidden facts included): the table owner's export."""
        rec = GameRecord(
            game=self.game.name,
            rules_version=self.game.rules_version,
            scenario_name=self.scenario.name,
            scenario_toml=self.scenario.source,
            seed=self.row.seed if self.row.dice == "table" else None,
            dice="seeded" if self.row.dice == "table" else "physical",
            steps=list(self.referee.steps),
        )
        if self.result is not None:
            rec.result = dict(self.result)
        return rec

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


async def uncancellable(coro: Coroutine[Any, Any, None]) -> None:
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
