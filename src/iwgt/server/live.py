"""A table's live game and its commits: the referee's state, the journal, the log and the clients' ids.

The order of every accepted step is fixed: the referee validates and folds it (the table's dice rolled)
without touching the live state, the fold is **committed to the journal, then adopted**; only then does the
caller acknowledge it and broadcast every screen's view. A failed commit changes nothing, the table's dice
included (its rolls are given back), and a commit runs to its end even if its caller is cancelled.

An undo takes back the last step within the referee's bounds (``Referee.undo_refusal``) and the table's own:
only a person's seat, not while a bot has its turn, and with another person at the table only once one of
them allows it (``ask_undo``, ``answer_undo``; the request is held in memory and lapses when the game moves
on). It is journalled as a row of its own, so the table's ``version`` (the journal's row count) never goes
back, while ``referee.version`` counts the game's steps.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from iwgt.core.chance import Die, SeededDice
from iwgt.core.errors import MalformedAction, RecordError
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import CHANCE, JSON, Seat, Status
from iwgt.core.record import GameRecord
from iwgt.core.referee import BY_HAND, GAME_OVER, PLAYER, TABLE_DICE, Fold, Referee, Step, Undo, UndoRefused
from iwgt.core.registry import get_plugin
from iwgt.server.errors import TableError
from iwgt.server.journal import UNDO, Journal, StepRow, TableRow
from iwgt.server.snapshot import Batch, Snapshot, UndoFacts
from iwgt.server.writer import JournalWriter

BOT_TURN = "the bot has its turn"
"""Why an undo is refused once the step ended a person's turn and a bot plays next (it acts at once)."""

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
        self.rows = 0  # the journal's rows for this table: its version (steps and undos)
        self.request: tuple[Seat, int] | None = (
            None  # a seat's undo waiting for consent, and at which version
        )
        self.declined: tuple[Seat, int] | None = None  # a seat's undo just declined, and at which version
        # A bound physical table's gate (server/bridge/gate.py): called with each act's origin, it raises a
        # TableError ("table_diverged") while the pieces on the table differ from the game.
        self.gate: Callable[[str], None] | None = None

    # -- where the game stands ----------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state as committed."""
        return self.referee.state

    @property
    def version(self) -> int:
        """How many rows are committed (steps and undos): it only ever grows, and views and acks carry it."""
        return self.rows

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
            undo=self.undo_facts(),
        )

    # -- loading -------------------------------------------------------------------------------------------

    def load(self, rows: Sequence[StepRow]) -> None:
        """Fold the journal's rows into the game: the table's dice re-rolled, every seat, origin and digest
        checked, each undo taken where it was made; a journal that does not reproduce is refused with the row
        it failed at."""
        for expected, row in enumerate(rows, start=self.version + 1):
            if row.seq != expected:
                raise TableError("record", f"table {self.row.id}: step {row.seq} follows {expected - 1}")
        start = 0
        for i, row in enumerate(rows):
            if row.origin == UNDO:
                self._load_steps(rows[start:i])
                self._load_undo(row)
                start = i + 1
        self._load_steps(rows[start:])

    def _load_undo(self, row: StepRow) -> None:
        """A journalled undo, taken again: the same seat's last step, and the same state after it."""
        where = f"table {self.row.id}: row {row.seq}"
        if row.action != {"type": "undo", "step": self.referee.version}:
            raise TableError(
                "record",
                f"{where}: an undo of {row.action} where the game has taken {self.referee.version} steps",
            )
        try:
            undo = self.referee.propose_undo(row.seat, check_reveals=False)  # it was allowed when made
        except UndoRefused as exc:
            raise TableError(
                "record", f"{where}: seat {row.seat}'s undo cannot be taken: {exc.message}"
            ) from None
        if undo.digest != row.digest:
            raise TableError(
                "record", f"{where}: the undo leaves digest {undo.digest}, not the {row.digest} written"
            )
        self._adopt_undo(undo, row)

    def _load_steps(self, rows: Sequence[StepRow]) -> None:
        if not rows:
            return
        try:
            taken = self.referee.load(
                [Step(r.seat, r.action, r.digest) for r in rows],
                [r.origin for r in rows],
                source="the journal",
                first=rows[0].seq,
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
        self.rows = rows[-1].seq

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
            if self.gate is not None:
                self.gate(origin)
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

    # -- undo --------------------------------------------------------------------------------------------

    def undo_refusal(self, seat: Seat) -> str | None:
        """Why ``seat`` may not take back the last step now (the referee's bounds, the table's), or None."""
        if self.status != "playing":
            return GAME_OVER if self.status == "over" else "this game was quit"
        if self.seat_kind(seat) != "human":
            return "only a person's own steps are taken back"
        why = self.referee.undo_refusal(seat)
        if why is not None:
            return why
        to_move = self.referee.to_move
        if to_move is not None and to_move != CHANCE and self.seat_kind(to_move) == "bot":
            return BOT_TURN
        return None

    def undo_facts(self) -> UndoFacts:
        """Who may take back the last step, why the others may not, and an undo waiting for an answer."""
        humans = tuple(s for s, kind in enumerate(self.row.seats) if kind == "human")
        by: Seat | None = None
        reasons: list[tuple[Seat, str]] = []
        for seat in humans:
            why = self.undo_refusal(seat)
            if why is None:
                by = seat
            else:
                reasons.append((seat, why))
        declined = self.declined[0] if self.declined and self.declined[1] == self.version else None
        return UndoFacts(by, tuple(reasons), humans, self._pending(), declined)

    def _pending(self) -> Seat | None:
        """The seat whose undo waits for an answer; a request lapses as soon as the game moves on."""
        if self.request is None or self.request[1] != self.version:
            return None
        return self.request[0]

    def _needs_consent(self, seat: Seat) -> bool:
        return any(kind == "human" and s != seat for s, kind in enumerate(self.row.seats))

    async def ask_undo(self, seat: Seat, client_id: str | None) -> Accepted:
        """Take back ``seat``'s last step, at once, or (with another person at the table) once allowed.

        A refusal raises ``UndoRefused`` with the reason; an undo that must be allowed is held as a request
        (``self.request``) that every view shows until another person answers or the game moves on.
        """
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            why = self.undo_refusal(seat)
            if why is not None:
                raise UndoRefused(why)
            if self._needs_consent(seat):
                self.request, self.declined = (seat, self.version), None
                if client_id is not None:
                    self.client_ids[client_id] = self.version
                return Accepted(self.version)
            await uncancellable(self._commit_undo(seat, client_id))
            return Accepted(self.version)

    async def answer_undo(self, seat: Seat, allow: Any, client_id: str | None) -> Accepted:
        """Another person's answer to the undo waiting: allowed, it is taken; declined, it lapses."""
        async with self.lock:
            if client_id is not None and client_id in self.client_ids:
                return Accepted(self.client_ids[client_id], repeated=True)
            if not isinstance(allow, bool):
                raise MalformedAction("'allow' must be true or false")
            asker = self._pending()
            if asker is None:
                raise UndoRefused("no undo waits for an answer")
            if seat == asker or self.seat_kind(seat) != "human":
                raise TableError("unauthorized", "the other player answers an undo, not the one who asked")
            self.request = None
            if not allow:
                self.declined = (asker, self.version)
            else:
                why = self.undo_refusal(asker)
                if why is not None:
                    raise UndoRefused(why)
                await uncancellable(self._commit_undo(asker, client_id))
                return Accepted(self.version)
            if client_id is not None:
                self.client_ids[client_id] = self.version
            return Accepted(self.version)

    async def _commit_undo(self, seat: Seat, client_id: str | None) -> None:
        """Journal the undo as a row of its own, then take the step back."""
        undo = self.referee.propose_undo(seat)
        row = StepRow(self.rows + 1, seat, {"type": "undo", "step": undo.base}, undo.digest, UNDO, client_id)
        turn = self.game.status(undo.state).turn  # the lobby's turn follows the game back
        await self._write(lambda j: j.append(self.row.id, [row], self.status, self.result, turn))
        self._adopt_undo(undo, row)

    def _adopt_undo(self, undo: Undo, row: StepRow) -> None:
        self.referee.adopt_undo(undo)
        self.rows = row.seq
        self.request = None
        if self.history:
            self.history.pop()  # the step's own log entry: an undone step leaves the recent log
        if row.client_id is not None:
            self.client_ids[row.client_id] = row.seq

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
            seq = self.rows + 1 + i
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
        self.rows = rows[-1].seq
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
            "steps": self.referee.version,
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
