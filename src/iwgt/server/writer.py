"""Group commit: one thread owns the journal's writes and commits everything queued in one transaction.

Every table waits for its own batch to be durable before it acknowledges, but fifty tables acting at
once share one fsync instead of queueing for fifty, and the event loop never blocks on the disk.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from iwgt.server.journal import Journal


@dataclass(slots=True)
class _Job:
    work: Callable[[Journal], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any] = field(repr=False)


class JournalWriter:
    """The single writer thread: runs queued journal writes, many to a transaction, and reports each back."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="iwgt-journal", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions committed (for the benchmark's figures)
        self.writes = 0  # jobs written

    async def write(self, work: Callable[[Journal], Any]) -> Any:
        """Run ``work(journal)`` on the writer thread; returns once its transaction is committed."""
        loop = asyncio.get_running_loop()
        job = _Job(work, loop, loop.create_future())
        self._jobs.put(job)
        return await job.future

    def _run(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            while True:  # everything that queued up while the last fsync ran goes in this transaction
                try:
                    nxt = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._jobs.put(None)
                    break
                batch.append(nxt)
            results = self.journal.group(batch_work=[j.work for j in batch])
            self.commits += 1
            self.writes += len(batch)
            for job, (ok, value) in zip(batch, results, strict=True):
                job.loop.call_soon_threadsafe(_settle, job.future, ok, value)

    def close(self) -> None:
        """Finish the queued writes and stop the thread."""
        self._jobs.put(None)
        self._thread.join(timeout=10)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
