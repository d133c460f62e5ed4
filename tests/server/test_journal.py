"""The journal: WAL and synchronous=FULL, and group commit that keeps each job's failure its own."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from iwgt.server.journal import Journal, StepRow, TableRow, now
from iwgt.server.writer import JournalWriter

from .kit import serving

pytestmark = pytest.mark.timeout(60)


def row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        game="valkyrx",
        rules_version="test",
        scenario_name="skirmish",
        scenario_toml="",
        seed=1,
        secret_seed=2,
        dice="table",
        mode="shared",
        seats=("human", "human"),
        tokens={"table": "t", "seats": ["a", "b"]},
        timer_seconds=0.0,
        created=now(),
        status="playing",
        result=None,
    )


def step(seq: int, client_id: str | None = None) -> StepRow:
    return StepRow(seq, 0, {"type": "end_phase"}, f"d{seq}", "player", client_id)


def other_connection(path: Path) -> sqlite3.Connection:
    """A second reader, as another process would open the file: it sees only what is committed."""
    return sqlite3.connect(path)


def test_wal_mode_and_full_synchronous(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    try:
        assert str(journal.pragma("journal_mode")).lower() == "wal"
        assert journal.pragma("synchronous") == 2  # FULL: a commit is on disk when it returns
        assert journal.pragma("foreign_keys") == 1
    finally:
        journal.close()
    with serving(tmp_path / "server") as c:  # the server's own journal
        journal = c.app.state.manager.journal  # type: ignore[attr-defined]
        assert str(journal.pragma("journal_mode")).lower() == "wal"
        assert journal.pragma("synchronous") == 2


def test_group_runs_jobs_in_one_transaction_and_a_failure_spoils_none_but_its_own(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.create_table(row("t-a"))

    def half_then_fail(j: Journal) -> None:
        j.append("t-a", [step(2)], "playing", None)  # written, then undone with its job
        raise RuntimeError("the second job fails")

    try:
        out = journal.group(
            [
                lambda j: j.append("t-a", [step(1)], "playing", None),
                half_then_fail,
                lambda j: j.append("t-a", [step(1)], "playing", None),  # a duplicate seq: refused alone
                lambda j: j.create_table(row("t-b")),
                lambda j: j.append("t-a", [step(2), step(3)], "over", {"winner": 0, "reason": "r"}),
            ]
        )
        assert [ok for ok, _ in out] == [True, False, False, True, True]
        assert isinstance(out[1][1], RuntimeError)
        assert isinstance(out[2][1], sqlite3.IntegrityError)
        assert [s.seq for s in journal.steps("t-a")] == [1, 2, 3]
        assert journal.steps("t-a")[1].digest == "d2"
        assert journal.table("t-a").status == "over"  # type: ignore[union-attr]
        assert journal.table("t-b") is not None
        with other_connection(path) as db:  # committed, visible to another connection
            assert db.execute("SELECT COUNT(*) FROM steps WHERE table_id='t-a'").fetchone()[0] == 3
    finally:
        journal.close()


def test_a_failed_append_changes_neither_steps_nor_status(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    try:
        journal.create_table(row("t-a"), [step(1, "c-1")])
        with pytest.raises(sqlite3.IntegrityError):  # the client id is already journalled
            journal.append("t-a", [step(2, "c-1")], "over", {"winner": 1, "reason": "r"})
        assert [s.seq for s in journal.steps("t-a")] == [1]
        assert journal.table("t-a").status == "playing"  # type: ignore[union-attr]
        with pytest.raises(sqlite3.IntegrityError):  # no steps for a table that does not exist
            journal.append("t-nothere", [step(1)], "playing", None)
        assert journal.step_count("t-nothere") == 0
        assert journal.delete_table("t-a") and journal.steps("t-a") == []
        assert not journal.delete_table("t-a")
    finally:
        journal.close()


def test_the_writer_commits_queued_jobs_together_and_reports_each(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.create_table(row("t-a"))
    writer = JournalWriter(journal)
    gate = threading.Event()
    started = threading.Event()

    def blocker(j: Journal) -> str:
        started.set()
        assert gate.wait(10)
        return "first"

    def fails(j: Journal) -> None:
        j.append("t-a", [step(2)], "playing", None)
        raise ValueError("this job's own failure")

    async def main() -> list[Any]:
        first = asyncio.ensure_future(writer.write(blocker))
        while not started.is_set():  # the writer thread is busy: the next jobs queue up behind it
            await asyncio.sleep(0.01)
        jobs = [
            writer.write(lambda j: j.append("t-a", [step(1)], "playing", None) or 1),
            writer.write(fails),
            writer.write(lambda j: j.append("t-a", [step(2)], "playing", None) or 2),
            writer.write(lambda j: j.append("t-a", [step(2)], "playing", None) or 3),  # duplicate seq
        ]
        tasks = [asyncio.ensure_future(job) for job in jobs]
        await asyncio.sleep(0.1)
        gate.set()
        return [await first, *(await asyncio.gather(*tasks, return_exceptions=True))]

    try:
        results = asyncio.run(main())
        assert results[0] == "first"
        assert results[1] == 1
        assert isinstance(results[2], ValueError)
        assert results[3] == 2
        assert isinstance(results[4], sqlite3.IntegrityError)
        assert writer.commits == 2  # the blocker alone, then the four queued jobs in one transaction
        assert writer.writes == 5
        assert [s.seq for s in journal.steps("t-a")] == [1, 2]
        with other_connection(path) as db:
            assert db.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == 2
    finally:
        writer.close()
        journal.close()


def test_closing_the_writer_finishes_what_is_queued(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.create_table(row("t-a"))
    writer = JournalWriter(journal)

    def job(n: int) -> Any:
        return lambda j: j.append("t-a", [step(n)], "playing", None)

    async def main() -> None:
        futures = [asyncio.ensure_future(writer.write(job(n))) for n in range(1, 21)]
        await asyncio.sleep(0)  # every job is queued
        writer.close()  # blocks until the thread has written them all and stopped
        await asyncio.gather(*futures)

    asyncio.run(main())
    assert journal.step_count("t-a") == 20
    journal.close()
    reopened = Journal(path)
    try:
        assert [s.seq for s in reopened.steps("t-a")] == list(range(1, 21))
    finally:
        reopened.close()
