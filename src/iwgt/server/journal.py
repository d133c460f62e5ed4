"""The journal: every table and every accepted step in SQLite, committed before anything is acknowledged.

One writer connection per file, WAL mode with ``synchronous=FULL``: a step the server has acknowledged
survives a killed process and a power cut. The journal holds whole records (hidden facts included): it is
the table owner's save file, never sent to a seat as it is.

Rows are only ever appended: an undo is a row of its own (origin ``"undo"``, ``UNDO``) that takes back the
step before it, so the journal keeps every accepted action, the ones taken back included, and loading it
folds the rows in order (``LiveTable.load``). A row's ``seq`` counts every row, undos too: it is the table's
version, which never goes back.
"""

from __future__ import annotations

import enum
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables(
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario_toml TEXT NOT NULL,
    seed INTEGER,
    secret_seed INTEGER NOT NULL,
    dice TEXT NOT NULL,
    mode TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    timer_seconds REAL NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS steps(
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    digest TEXT NOT NULL,
    origin TEXT NOT NULL,
    client_id TEXT,
    PRIMARY KEY (table_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS steps_client ON steps(table_id, client_id) WHERE client_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS hardware(device TEXT PRIMARY KEY, table_id TEXT NOT NULL);
"""


class Unrecorded(enum.Enum):
    """A table journalled before its turn was kept (the lobby then reads the game itself)."""

    TURN = "unrecorded"


UNRECORDED = Unrecorded.TURN
"""The turn of a table row an older server wrote (its ``turn`` column is NULL)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as the journal keeps it: how it was set up, who sits where, and how it stands."""

    id: str
    game: str
    rules_version: str
    scenario_name: str
    scenario_toml: str
    seed: int | None
    secret_seed: int
    dice: str
    mode: str
    seats: tuple[str, ...]
    tokens: dict[str, Any]
    timer_seconds: float
    created: float
    status: str
    result: dict[str, Any] | None
    turn: int | Unrecorded | None = UNRECORDED  # the game's turn at its last step, as the lobby lists it


UNDO = "undo"
"""The origin of an undo row: its seat took back the last step (``{"type": "undo", "step": n}``, n the step's
number in the game), and its digest is the state's after."""


@dataclass(frozen=True, slots=True)
class StepRow:
    """One journalled step: who acted (-1 the dice), the action's JSON, the state digest after it, and why."""

    seq: int
    seat: int
    action: dict[str, Any]
    digest: str
    origin: str  # "player", "bot", "timer", "die" (a physical die entered), "auto" (the table's dice), "undo"
    client_id: str | None = None


class Journal:
    """The SQLite journal of every table; its one connection is the only writer."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # check_same_thread=False: the server calls it from its event loop and from worker threads, always
        # under self._lock, so there is still only one writer at a time.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        self._in_group = False
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            # The game's turn at the last step (JSON: a number, or null for a game that counts none), kept
            # with the status so that the lobby lists a finished or quit game's turn without replaying it.
            # A journal of an older server gets the column; its rows say NULL (not recorded) until played.
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
            if "turn" not in columns:
                self._db.execute("ALTER TABLE tables ADD COLUMN turn TEXT")
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction, or nothing more inside ``group``'s (its savepoint undoes a failed write)."""
        with self._lock:
            if self._in_group:
                yield
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def group(self, batch_work: Sequence[Callable[[Journal], Any]]) -> list[tuple[bool, Any]]:
        """Run writes in one transaction (one fsync), each in a savepoint so one failure spoils none."""
        out: list[tuple[bool, Any]] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._in_group = True
            try:
                for work in batch_work:
                    self._db.execute("SAVEPOINT job")
                    try:
                        value = work(self)
                    except Exception as exc:  # reported to the waiting table, which refuses its step
                        self._db.execute("ROLLBACK TO job")
                        self._db.execute("RELEASE job")
                        out.append((False, exc))
                    else:
                        self._db.execute("RELEASE job")
                        out.append((True, value))
                self._db.execute("COMMIT")
            except BaseException as exc:
                self._db.execute("ROLLBACK")
                return [(False, exc) for _ in batch_work]
            finally:
                self._in_group = False
        return out

    def pragma(self, name: str) -> Any:
        """A PRAGMA's value (for tests that check WAL and FULL synchronous)."""
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def create_table(self, row: TableRow, steps: Sequence[StepRow] = ()) -> None:
        """Journal a new table and its first steps (an import, or the opening dice) in one transaction."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    row.id,
                    row.game,
                    row.rules_version,
                    row.scenario_name,
                    row.scenario_toml,
                    row.seed,
                    row.secret_seed,
                    row.dice,
                    row.mode,
                    json.dumps(list(row.seats)),
                    json.dumps(row.tokens),
                    row.timer_seconds,
                    row.created,
                    row.status,
                    None if row.result is None else json.dumps(row.result),
                    _turn_text(row.turn),
                ),
            )
            self._insert_steps(row.id, steps)

    def append(
        self,
        table_id: str,
        steps: Sequence[StepRow],
        status: str,
        result: dict[str, Any] | None,
        turn: int | Unrecorded | None = UNRECORDED,
    ) -> None:
        """Commit a batch of steps and the table's new status (and turn, if given) together: all of it, or
        none of it."""
        with self._transaction():
            self._insert_steps(table_id, steps)
            self._db.execute(
                "UPDATE tables SET status = ?, result = ?, turn = COALESCE(?, turn) WHERE id = ?",
                (status, None if result is None else json.dumps(result), _turn_text(turn), table_id),
            )

    def _insert_steps(self, table_id: str, steps: Iterable[StepRow]) -> None:
        self._db.executemany(
            "INSERT INTO steps VALUES (?,?,?,?,?,?,?)",
            [
                (
                    table_id,
                    s.seq,
                    s.seat,
                    json.dumps(s.action, separators=(",", ":")),
                    s.digest,
                    s.origin,
                    s.client_id,
                )
                for s in steps
            ],
        )

    def set_status(self, table_id: str, status: str, turn: int | Unrecorded | None = UNRECORDED) -> None:
        """Mark a table quit (or back to playing), at its turn if given."""
        with self._transaction():
            self._db.execute(
                "UPDATE tables SET status = ?, turn = COALESCE(?, turn) WHERE id = ?",
                (status, _turn_text(turn), table_id),
            )

    def delete_table(self, table_id: str) -> bool:
        """Delete a table and its steps; False if there was none."""
        with self._transaction():
            self._db.execute("DELETE FROM steps WHERE table_id = ?", (table_id,))
            cur = self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            return cur.rowcount > 0

    def tables(self) -> list[TableRow]:
        """Every table, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY created DESC, id").fetchall()
        return [_table_row(r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table, or None."""
        with self._lock:
            r = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if r is None else _table_row(r)

    def steps(self, table_id: str) -> list[StepRow]:
        """A table's rows in order: its steps, and its undos where they were made."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, seat, action, digest, origin, client_id FROM steps"
                " WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
        return [StepRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5]) for r in rows]

    def step_count(self, table_id: str) -> int:
        """How many steps a table's game has: its rows, less each undo and the step it took back."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), COALESCE(SUM(origin = ?), 0) FROM steps WHERE table_id = ?",
                (UNDO, table_id),
            ).fetchone()
        return int(row[0]) - 2 * int(row[1])

    # -- physical tables: which device plays which game table (server/bridge/) ----------------------------

    def hardware_bindings(self) -> dict[str, str]:
        """Each bound physical table's device id and the game table it plays."""
        with self._lock:
            rows = self._db.execute("SELECT device, table_id FROM hardware ORDER BY device").fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def bind_hardware(self, device: str, table_id: str | None) -> None:
        """Bind a device to a game table (one table per device: a new binding replaces its old), or unbind."""
        with self._transaction():
            if table_id is None:
                self._db.execute("DELETE FROM hardware WHERE device = ?", (device,))
            else:
                self._db.execute(
                    "INSERT INTO hardware(device, table_id) VALUES (?, ?)"
                    " ON CONFLICT(device) DO UPDATE SET table_id = excluded.table_id",
                    (device, table_id),
                )

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        with self._lock:
            self._db.close()


def _table_row(r: Sequence[Any]) -> TableRow:
    return TableRow(
        id=r[0],
        game=r[1],
        rules_version=r[2],
        scenario_name=r[3],
        scenario_toml=r[4],
        seed=r[5],
        secret_seed=r[6],
        dice=r[7],
        mode=r[8],
        seats=tuple(json.loads(r[9])),
        tokens=json.loads(r[10]),
        timer_seconds=r[11],
        created=r[12],
        status=r[13],
        result=None if r[14] is None else json.loads(r[14]),
        turn=UNRECORDED if r[15] is None else json.loads(r[15]),
    )


def _turn_text(turn: int | Unrecorded | None) -> str | None:
    """The turn column's text: JSON (``null`` for a game that counts no turns), NULL if not recorded."""
    return None if isinstance(turn, Unrecorded) else json.dumps(turn)


def now() -> float:
    """Wall-clock seconds, for creation stamps and timer deadlines (never read by the rules)."""
    return time.time()
