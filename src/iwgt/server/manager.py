"""Every table of the server: created, resumed from the journal, imported, deleted; and their credentials."""

from __future__ import annotations

import functools
import hmac
import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iwgt.core.errors import GameError, MalformedAction, RecordError
from iwgt.core.plugin import checked_choices
from iwgt.core.protocol import CHANCE, JSON, Seat
from iwgt.core.record import GameRecord, replay
from iwgt.core.referee import IMPORTED, PLAYER
from iwgt.core.registry import UnknownGame, get_game, get_plugin
from iwgt.server.clock import SYSTEM_CLOCK, Clock
from iwgt.server.journal import Journal, StepRow, TableRow, Unrecorded, now
from iwgt.server.session import TableSession
from iwgt.server.writer import JournalWriter

log = logging.getLogger("iwgt.server")

DEFAULT_TIMER_SECONDS = 120.0
"""The movement timer a table gets when its game declares none of its own length (the timer runs only in a
phase the game declares timed, so a game without a timer rule never starts one)."""

MAX_TIMER_SECONDS = 3600.0
"""The longest movement timer a table may set."""

MAX_SEED = 2**63 - 1
"""The largest seed a table may have: the journal keeps it as a signed 64-bit integer."""


def _choice(data: JSON, key: str, allowed: tuple[str, ...], default: str) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise MalformedAction(f"'{key}' must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


@dataclass(frozen=True, slots=True)
class CreateRequest:
    """A new table as the lobby asks for it, checked field by field."""

    game: str
    scenario: str | None
    seats: tuple[str, ...]
    mode: str
    dice: str
    timer_seconds: float
    seed: int | None
    options: dict[str, str] = field(default_factory=dict)
    """The game's own setup choices (``GamePlugin.setup_options``), written into the scenario."""

    @classmethod
    def parse(cls, data: Any, *, need_scenario: bool = True, seat_count: int | None = None) -> CreateRequest:
        """Read and check the request body; a bad field is refused by name.

        The number of seats comes from the scenario (the game's ``seats(scenario)``); an import,
        whose scenario is the record's own, gives it as ``seat_count``.
        """
        if not isinstance(data, dict):
            raise MalformedAction("the request must be a JSON object")
        known = {"game", "scenario", "seats", "mode", "dice", "timer_seconds", "seed", "record", "options"}
        extra = set(data) - known
        if extra:
            raise MalformedAction(f"unknown field(s): {', '.join(sorted(extra))}")
        if "game" not in data:
            raise MalformedAction("'game' is missing: name the game to play (GET /api/games lists them)")
        game_name = data["game"]
        if not isinstance(game_name, str):
            raise MalformedAction("'game' must be a game name")
        try:
            game = get_game(game_name)
        except UnknownGame as exc:
            raise MalformedAction(str(exc)) from None
        scenario = data.get("scenario")
        if need_scenario:
            scenario = scenario if scenario is not None else game.scenario_names()[0]
            if scenario not in game.scenario_names():
                raise MalformedAction(
                    f"'scenario' must be one of {', '.join(game.scenario_names())}, got {scenario!r}"
                )
        options = checked_choices(get_plugin(game_name).setup_options(), data.get("options"))
        if seat_count is not None:
            n = seat_count
        else:
            assert scenario is not None  # a new table names (or defaults) its scenario
            chosen = game.load_scenario(scenario)
            if options:  # a setup choice may change the seats (a game's number of players)
                chosen = get_plugin(game_name).configure(chosen, options)
            n = len(game.seats(chosen))
        seats = data.get("seats", ["human"] * n)
        if not isinstance(seats, list) or len(seats) != n or any(s not in ("human", "bot") for s in seats):
            raise MalformedAction(f'\'seats\' must list {n} entries, each "human" or "bot"')
        rule = game.facts.movement_timer
        timer = data.get("timer_seconds", DEFAULT_TIMER_SECONDS if rule is None else rule.seconds)
        if (
            not isinstance(timer, int | float)
            or isinstance(timer, bool)
            or not 0 <= timer <= MAX_TIMER_SECONDS
        ):
            raise MalformedAction(f"'timer_seconds' must be 0 (no timer) to {MAX_TIMER_SECONDS:.0f}")
        seed = data.get("seed")
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED
        ):
            raise MalformedAction(f"'seed' must be a whole number from 0 to {MAX_SEED} (2^63 - 1)")
        return cls(
            game=game_name,
            scenario=scenario,
            seats=tuple(seats),
            mode=_choice(data, "mode", ("shared", "remote"), "shared"),
            dice=_choice(data, "dice", ("table", "physical"), "table"),
            timer_seconds=float(timer),
            seed=seed,
            options=options,
        )


class TableManager:
    """The server's tables: one journal, one writer, one live session per table in play."""

    def __init__(self, journal_path: Path, bot_delay: float = 0.6, clock: Clock = SYSTEM_CLOCK) -> None:
        self.journal_path = journal_path
        self.bot_delay = bot_delay
        self.clock = clock
        self.journal: Journal | None = None
        self.writer: JournalWriter | None = None
        self.sessions: dict[str, TableSession] = {}
        self._deleting: set[str] = set()  # tables being deleted: never loaded back while their rows go

    def start(self) -> None:
        """Open the journal and resume every game still in play (its timer and its bot wake up)."""
        self.journal = Journal(self.journal_path)
        self.writer = JournalWriter(self.journal)
        for row in self.journal.tables():
            if row.status != "playing":
                continue
            try:
                table = self.get(row.id)
            except GameError as exc:
                log.error("table %s could not be resumed: %s", row.id, exc.message)
                continue
            table.resume()

    def stop(self) -> None:
        """Stop timers and bots, finish the writes and close the journal."""
        for table in self.sessions.values():
            table.stop()
        if self.writer is not None:
            self.writer.close()
        if self.journal is not None:
            self.journal.close()

    def _journal(self) -> Journal:
        if self.journal is None:
            raise RuntimeError("the table manager was not started")
        return self.journal

    def rows(self) -> list[TableRow]:
        """Every saved table, newest first."""
        return self._journal().tables()

    def get(self, table_id: str) -> TableSession:
        """A table's live session, loaded from the journal on first use; KeyError if there is none."""
        if table_id in self.sessions:
            return self.sessions[table_id]
        if table_id in self._deleting:
            raise KeyError(table_id)  # its session was let go and its rows are on their way out
        journal = self._journal()
        row = journal.table(table_id)
        if row is None:
            raise KeyError(table_id)
        table = TableSession(row, journal, self.writer, bot_delay=self.bot_delay, clock=self.clock)
        table.live.load(journal.steps(table_id))
        self.sessions[table_id] = table
        return table

    async def create(self, req: CreateRequest) -> TableSession:
        """A new table, journalled before it is returned."""
        game = get_game(req.game)
        assert req.scenario is not None
        scenario = game.load_scenario(req.scenario)
        if req.options:  # the players' setup choices go into the scenario's text, so the record holds them
            scenario = get_plugin(req.game).configure(scenario, req.options)
        row = self._new_row(req, scenario.name, scenario.source, game.rules_version)
        return await self._open(row, [])

    async def import_record(self, data: Any) -> TableSession:
        """A table from an exported record: every step replayed and checked before it is journalled."""
        if not isinstance(data, dict):
            raise RecordError("the record must be a JSON object")
        options = {k: data[k] for k in ("seats", "mode", "timer_seconds") if k in data}
        record = GameRecord.from_json({k: v for k, v in data.items() if k not in options}, "imported record")
        try:
            game = get_game(record.game)
        except KeyError as exc:
            raise RecordError(str(exc.args[0])) from None
        try:
            scenario = game.parse_scenario(record.scenario_toml, "the record's scenario")
        except GameError as exc:
            raise RecordError(exc.message) from None
        req = CreateRequest.parse(
            {"game": record.game, **options},
            need_scenario=False,
            seat_count=len(game.seats(scenario)),
        )
        row = self._new_row(
            req, record.scenario_name, record.scenario_toml, record.rules_version, imported=True
        )
        if record.rules_version != game.rules_version:
            raise RecordError(
                f"the record was made with {record.game} rules {record.rules_version}, "
                f"this table runs {game.rules_version}"
            )
        replayed = replay(record)  # every seat and digest checked before anything is written
        status = "over" if game.is_terminal(replayed.state) else "playing"
        res = game.result(replayed.state)
        row = _replace_row(row, status=status, result=None if res is None else res.to_json())
        steps = [
            StepRow(i + 1, s.seat, s.action, s.digest, IMPORTED if s.seat == CHANCE else PLAYER)
            for i, s in enumerate(record.steps)
        ]
        return await self._open(row, steps)

    def _new_row(
        self, req: CreateRequest, scen_name: str, scen_toml: str, rules: str, imported: bool = False
    ) -> TableRow:
        humans = [i for i, kind in enumerate(req.seats) if kind == "human"]
        tokens = {
            "table": secrets.token_urlsafe(24),
            "seats": [secrets.token_urlsafe(24) if i in humans else None for i in range(len(req.seats))],
        }
        # A table's dice are seeded; without a seed asked for, an unguessable one is drawn.
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        return TableRow(
            id="t-" + secrets.token_hex(4),
            game=req.game,
            rules_version=rules,
            scenario_name=scen_name,
            scenario_toml=scen_toml,
            seed=None if req.dice == "physical" else seed,
            secret_seed=secrets.randbits(63),
            dice=req.dice,
            mode=req.mode,
            seats=req.seats,
            tokens=tokens,
            timer_seconds=req.timer_seconds,
            created=now(),
            status="playing",
            result=None,
        )

    async def _open(self, row: TableRow, steps: list[StepRow]) -> TableSession:
        journal = self._journal()
        table = TableSession(row, journal, self.writer, bot_delay=self.bot_delay, clock=self.clock)
        table.live.load(steps)
        opening = table.live.opening_steps() if not steps else []
        all_steps = steps + opening
        # The journal keeps the game's turn with its status: the lobby lists it without replaying the game.
        kept = _replace_row(row, turn=table.live.game.status(table.live.state).turn)
        if self.writer is not None:
            await self.writer.write(lambda j: j.create_table(kept, all_steps))
        else:
            journal.create_table(kept, all_steps)
        self.sessions[row.id] = table
        table.resume()
        return table

    async def delete(self, table_id: str) -> bool:
        """Delete a table: its screens are told, its timer and bot stop, its journal rows go."""
        # Marked first: while the write below is awaited, nothing (a bound physical table's bridge) may load
        # the table back from its rows, or it would stay in play after the delete.
        self._deleting.add(table_id)
        try:
            table = self.sessions.pop(table_id, None)
            if table is not None:
                table.stop()
                table.close_screens("the table was deleted")
            if self.writer is not None:
                return bool(await self.writer.write(lambda j: j.delete_table(table_id)))
            return self._journal().delete_table(table_id)
        finally:
            self._deleting.discard(table_id)

    # -- credentials ---------------------------------------------------------------------------------------

    @staticmethod
    def seats_for(table: TableSession, token: str) -> set[Seat]:
        """The seats a credential holds: one seat's, or every human seat for the table credential."""
        tokens = table.row.tokens
        if hmac.compare_digest(token.encode(), str(tokens["table"]).encode()):
            return {i for i, kind in enumerate(table.row.seats) if kind == "human"}
        return {
            i
            for i, t in enumerate(tokens["seats"])
            if t is not None and hmac.compare_digest(token.encode(), t.encode())
        }

    @staticmethod
    def is_table_token(table: TableSession, token: str) -> bool:
        """Whether it is the shared touchscreen's credential (which may watch a game of two bots)."""
        return hmac.compare_digest(token.encode(), str(table.row.tokens["table"]).encode())

    @staticmethod
    def links_for_row(row: TableRow, base: str) -> JSON:
        """The shared touchscreen's link and each human seat's invitation link."""
        return {
            "table": f"{base}/play/{row.id}#token={row.tokens['table']}",
            "seats": [None if t is None else f"{base}/play/{row.id}#token={t}" for t in row.tokens["seats"]],
        }

    def links(self, table: TableSession, base: str) -> JSON:
        """Links of a live table."""
        return self.links_for_row(table.row, base)

    def row_summary(self, row: TableRow) -> JSON:
        """A saved table's summary without loading it (the live session's if it is loaded); its turn is the
        journal's, read from the game itself only for a row an older server wrote."""
        if row.id in self.sessions:
            return self.sessions[row.id].live.summary()
        turn = row.turn
        if isinstance(turn, Unrecorded):
            try:
                return self.get(row.id).live.summary()  # replayed once, then kept loaded
            except GameError as exc:
                log.error("table %s could not be read for the lobby: %s", row.id, exc.message)
                turn = None
        game = get_game(row.game) if row.game else None
        return {
            "id": row.id,
            "game": row.game,
            "title": game.title if game else row.game,
            "scenario": row.scenario_name,
            "created": row.created,
            "status": row.status,
            "turn": turn,
            "seats": list(row.seats),
            "seat_names": list(_row_seat_names(row.game, row.scenario_toml)) if game else [],
            "mode": row.mode,
            "dice": row.dice,
            "timer_seconds": row.timer_seconds,
            "steps": self._journal().step_count(row.id),
            "result": row.result,
        }


@functools.lru_cache(maxsize=256)
def _row_seat_names(game_name: str, scenario_toml: str) -> tuple[str, ...]:
    """A saved table's seat names, from its scenario's text (cached: the lobby lists every table)."""
    game = get_game(game_name)
    try:
        return game.seats(game.parse_scenario(scenario_toml, "a saved table's scenario"))
    except GameError:
        return ()


def _replace_row(row: TableRow, **changes: Any) -> TableRow:
    from dataclasses import replace

    return replace(row, **changes)
