"""Sensor event sequencing, one ``Sequencer`` per device: duplicates dropped, early events held, gaps mended.

MQTT at QoS 1 delivers a message at least once, so an event may come twice; a broker restart or a dropped
connection may lose one, and a table's events and snapshots travel on two topics, so they may cross. The
sequencer hands the tracker each event of a session exactly once, in ``seq`` order; it holds an event that
comes early (a gap) for ``GAP_TIMEOUT_S`` and then asks for a snapshot, and a new session (the controller was
power cycled) is always snapshotted before its events are used. Pure: the time is passed in, never read.
"""

from __future__ import annotations

from collections import deque

from iwgt.hardware.protocol import SensorEvent, Snapshot

GAP_TIMEOUT_S = 0.5
"""How long an event that came early waits for the ones before it before the sequencer asks a snapshot."""

MAX_WAITING = 4096
"""Events held at most; more are dropped (they leave a gap, which a snapshot covers)."""

REPLAY_KEPT = 1024
"""Delivered events kept since the last snapshot, to re-apply over a snapshot that is older than them."""

MAX_AHEAD = 256
"""How far beyond the next expected ``seq`` an event may be: one further is refused (a table that lost that
many events in a row is read again by a snapshot anyway), and a held one further after a snapshot dropped."""


class TooFarAhead(ValueError):
    """An event too far beyond the next expected ``seq`` (``MAX_AHEAD``): refused, never held."""

    def __init__(self, ev: SensorEvent, next_seq: int) -> None:
        super().__init__(
            f"seq {ev.seq} is more than {MAX_AHEAD} beyond the next expected ({next_seq}) "
            f"of session {ev.session}"
        )
        self.event = ev
        self.next_seq = next_seq


class Sequencer:
    """One device's sensor events in order, each once, with the snapshots that mend gaps and new sessions."""

    def __init__(self, gap_timeout_s: float = GAP_TIMEOUT_S) -> None:
        """A sequencer that knows no session yet (it needs a snapshot before it delivers anything)."""
        self._timeout = gap_timeout_s
        self._session: int | None = None
        self._next = 1
        self._waiting: dict[int, SensorEvent] = {}
        self._gap_since: float | None = None
        self._synced = False
        self._timed_out = False
        self._delivered: deque[SensorEvent] = deque(maxlen=REPLAY_KEPT)
        self._dropped: list[SensorEvent] = []

    @property
    def session(self) -> int | None:
        """The session being followed (``None`` before the first event or snapshot)."""
        return self._session

    @property
    def next_seq(self) -> int:
        """The ``seq`` of the next event to deliver."""
        return self._next

    @property
    def waiting(self) -> tuple[SensorEvent, ...]:
        """The held events (early ones, or any while a snapshot is awaited), in ``seq`` order."""
        return tuple(self._waiting[seq] for seq in sorted(self._waiting))

    def feed(self, ev: SensorEvent, now: float) -> list[SensorEvent]:
        """The events this one releases, in order: none for a duplicate or an early one, several at a gap.

        Raises ``TooFarAhead`` for an event more than ``MAX_AHEAD`` beyond the next expected one (once synced:
        before, the next one is not known), which is never held: a held one could never be filled."""
        if self._session is None or ev.session > self._session:
            self._new_session(ev.session)
        elif ev.session < self._session:
            return []  # a straggler of a session that a power cycle ended
        if ev.seq < self._next or ev.seq in self._waiting:
            return []  # a duplicate (QoS 1 redelivers)
        if self._synced and ev.seq > self._next + MAX_AHEAD:
            raise TooFarAhead(ev, self._next)
        if len(self._waiting) < MAX_WAITING:
            self._waiting[ev.seq] = ev
        if ev.seq != self._next and self._gap_since is None:
            self._gap_since = now
        self._check_timeout(now)
        if not self._synced or self._timed_out:
            return []  # the snapshot asked for will say where to resume
        out = self._release()
        if out:
            # Progress: a gap that remains further on waits its own full timeout from now.
            self._gap_since = now if self._waiting else None
        return out

    def snapshot(self, snap: Snapshot) -> list[SensorEvent]:
        """Resume after ``snap.seq`` of ``snap.session``: the events to apply over the snapshot, in order.

        The caller resets its tracker from the snapshot, then applies the returned events: held ones that
        follow it, and delivered ones the snapshot is older than (it crossed them on the way; re-applying them
        gives the same orders again, which the referee takes idempotently). A stale session's snapshot is
        ignored (``[]``).
        """
        if self._session is not None and snap.session < self._session:
            return []
        if self._session is None or snap.session > self._session:
            self._new_session(snap.session)
        replay = [ev for ev in self._delivered if ev.seq > snap.seq]
        if len(replay) < self._next - 1 - snap.seq:
            # Older than the events kept to re-apply: this snapshot cannot be brought up to date; ask again.
            self._synced = False
            return []
        self._next = max(self._next, snap.seq + 1)
        for seq in [seq for seq in self._waiting if seq < self._next]:
            del self._waiting[seq]
        # The snapshot says the table's latest seq: a held event far beyond it can no longer be filled (a
        # bogus seq); held, it would keep the gap open and a snapshot asked for ever.
        for seq in sorted(seq for seq in self._waiting if seq > self._next + MAX_AHEAD):
            self._dropped.append(self._waiting.pop(seq))
        self._delivered = deque(replay, maxlen=REPLAY_KEPT)
        self._synced = True
        self._timed_out = False
        self._gap_since = None
        return replay + self._release()

    def dropped(self) -> list[SensorEvent]:
        """The held events the last snapshots dropped as too far ahead (each given once, to be refused)."""
        out, self._dropped = self._dropped, []
        return out

    def needs_snapshot(self, now: float) -> bool:
        """Whether to ask the table for a snapshot: never synced, a new session, or a gap that timed out."""
        if self._waiting and self._gap_since is None and self._synced:
            self._gap_since = now  # a gap a snapshot left behind starts waiting now
        self._check_timeout(now)
        return not self._synced or self._timed_out

    def _check_timeout(self, now: float) -> None:
        if self._gap_since is not None and now - self._gap_since > self._timeout:
            self._timed_out = True

    def _new_session(self, session: int) -> None:
        self._session = session
        self._next = 1
        self._waiting.clear()
        self._gap_since = None
        self._synced = False
        self._timed_out = False
        self._delivered.clear()

    def _release(self) -> list[SensorEvent]:
        out: list[SensorEvent] = []
        while self._next in self._waiting:
            ev = self._waiting.pop(self._next)
            out.append(ev)
            self._delivered.append(ev)
            self._next += 1
        return out
