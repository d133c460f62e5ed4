"""Sequencing sensor events: duplicates, reordering, gaps and new sessions; by hand and as properties."""

from __future__ import annotations

from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.hardware.protocol import Occupied, SensorEvent, Snapshot
from iwgt.hardware.sequence import GAP_TIMEOUT_S, REPLAY_KEPT, Sequencer


def ev(seq: int, session: int = 1, event: Literal["lifted", "placed"] = "placed") -> SensorEvent:
    """Event ``seq`` of a session, on a cell of its own (so that events differ by more than their seq)."""
    return SensorEvent(v=1, session=session, seq=seq, cell=(seq % 7, seq // 7), event=event)


def snap(seq: int, session: int = 1) -> Snapshot:
    """A snapshot after event ``seq`` (its cells do not matter to the sequencer)."""
    return Snapshot(v=1, session=session, seq=seq, request="c1", occupied=(Occupied(cell=(0, 0)),))


def synced(session: int = 1, seq: int = 0) -> Sequencer:
    """A sequencer that has had its session's first snapshot."""
    s = Sequencer()
    assert s.snapshot(snap(seq, session)) == []
    return s


def test_fresh_sequencer_holds_events_until_its_first_snapshot() -> None:
    s = Sequencer()
    assert s.session is None
    assert s.needs_snapshot(0.0)
    assert s.feed(ev(1), 0.0) == []
    assert s.feed(ev(2), 0.1) == []
    assert s.session == 1
    assert s.waiting == (ev(1), ev(2))
    # The snapshot covers event 1 already: only event 2 follows it.
    assert s.snapshot(snap(1)) == [ev(2)]
    assert not s.needs_snapshot(0.2)
    assert s.next_seq == 3
    assert s.waiting == ()


def test_in_order_events_pass_and_duplicates_are_dropped() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.feed(ev(1), 0.0) == []
    assert s.feed(ev(2), 0.0) == [ev(2)]
    assert s.feed(ev(1), 0.1) == []
    assert s.next_seq == 3


def test_reordered_events_are_put_back_in_order() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.feed(ev(3), 0.0) == []
    assert s.feed(ev(3), 0.1) == []  # a duplicate of a held event
    assert s.feed(ev(4), 0.2) == []
    assert s.waiting == (ev(3), ev(4))
    assert not s.needs_snapshot(0.3)
    assert s.feed(ev(2), 0.3) == [ev(2), ev(3), ev(4)]
    assert s.waiting == ()
    assert not s.needs_snapshot(10.0)


def test_lost_event_asks_a_snapshot_after_the_timeout_and_resumes_after_it() -> None:
    s = synced()
    assert s.feed(ev(1), 10.0) == [ev(1)]
    assert s.feed(ev(3), 10.0) == []  # event 2 was lost
    assert not s.needs_snapshot(10.0 + GAP_TIMEOUT_S)
    assert s.needs_snapshot(10.0 + GAP_TIMEOUT_S + 0.01)
    # Events keep coming while the snapshot is on its way: held, not used.
    assert s.feed(ev(4), 10.6) == []
    assert s.feed(ev(5), 10.7) == []
    assert s.needs_snapshot(10.8)
    # The snapshot includes event 4: event 5 follows it.
    assert s.snapshot(snap(4)) == [ev(5)]
    assert not s.needs_snapshot(11.0)
    assert s.feed(ev(6), 11.0) == [ev(6)]
    assert s.feed(ev(2), 11.0) == []  # the lost one turning up late is in the snapshot


def test_late_event_after_the_timeout_waits_for_the_snapshot() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.feed(ev(3), 0.0) == []
    assert s.needs_snapshot(0.6)
    # Event 2 was late, not lost: still held, as the snapshot asked for will say where to resume.
    assert s.feed(ev(2), 0.7) == []
    assert s.waiting == (ev(2), ev(3))
    # A snapshot taken before event 2 reached the table: both follow it.
    assert s.snapshot(snap(1)) == [ev(2), ev(3)]
    assert s.next_seq == 4


def test_progress_restarts_the_wait_of_a_further_gap() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.feed(ev(3), 0.0) == []
    assert s.feed(ev(5), 0.1) == []
    assert s.feed(ev(2), 0.4) == [ev(2), ev(3)]
    # Event 4 is now the gap; it has waited since 0.4.
    assert not s.needs_snapshot(0.4 + GAP_TIMEOUT_S)
    assert s.needs_snapshot(0.4 + GAP_TIMEOUT_S + 0.01)


def test_gap_left_by_a_snapshot_waits_from_the_next_look() -> None:
    s = synced()
    assert s.feed(ev(3), 0.0) == []
    assert s.feed(ev(5), 0.0) == []
    assert s.needs_snapshot(1.0)
    # The snapshot covers up to 2: event 3 follows, event 4 is still missing before 5.
    assert s.snapshot(snap(2)) == [ev(3)]
    assert not s.needs_snapshot(2.0)
    assert not s.needs_snapshot(2.0 + GAP_TIMEOUT_S)
    assert s.needs_snapshot(2.0 + GAP_TIMEOUT_S + 0.01)


def test_new_session_needs_a_snapshot_before_its_events_are_used() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.feed(ev(2), 0.0) == [ev(2)]
    # The controller was power cycled: session 2 counts from 1 again.
    assert s.feed(ev(1, session=2), 1.0) == []
    assert s.session == 2
    assert s.needs_snapshot(1.0)
    assert s.feed(ev(3, session=1), 1.0) == []  # a straggler of the old session
    assert s.snapshot(snap(2, session=1)) == []  # a stale answer of the old session
    assert s.needs_snapshot(1.1)
    assert s.feed(ev(2, session=2), 1.1) == []
    assert s.snapshot(snap(0, session=2)) == [ev(1, 2), ev(2, 2)]
    assert not s.needs_snapshot(1.2)
    assert s.feed(ev(3, session=2), 1.2) == [ev(3, 2)]


def test_snapshot_of_a_new_session_before_any_of_its_events() -> None:
    s = synced()
    assert s.feed(ev(1), 0.0) == [ev(1)]
    assert s.snapshot(snap(0, session=3)) == []
    assert (s.session, s.next_seq) == (3, 1)
    assert s.feed(ev(1, session=3), 0.0) == [ev(1, 3)]


def test_snapshot_that_crossed_delivered_events_replays_them() -> None:
    # Events travel on `sensor`, snapshots on `snapshot`: the snapshot taken after event 3 came after 5.
    s = synced()
    assert [e.seq for i in range(1, 6) for e in s.feed(ev(i), 0.0)] == [1, 2, 3, 4, 5]
    assert s.snapshot(snap(3)) == [ev(4), ev(5)]
    assert s.next_seq == 6
    # The same snapshot delivered twice (QoS 1) replays the same events again, and nothing else.
    assert s.snapshot(snap(3)) == [ev(4), ev(5)]
    assert s.snapshot(snap(5)) == []
    assert s.snapshot(snap(3)) == []  # older than the last snapshot's baseline: ask again
    assert s.needs_snapshot(0.0)


def test_snapshot_older_than_the_kept_events_asks_again() -> None:
    s = synced()
    n = REPLAY_KEPT + 20
    assert sum(len(s.feed(ev(i), 0.0)) for i in range(1, n + 1)) == n
    assert s.snapshot(snap(5)) == []  # events 6..20 are no longer kept: it cannot be brought up to date
    assert s.needs_snapshot(0.0)
    assert s.snapshot(snap(n)) == []
    assert not s.needs_snapshot(0.0)


@st.composite
def deliveries(draw: st.DrawFn, n: int) -> list[int]:
    """Every seq of 1..n at least once, in any order, with duplicates anywhere."""
    order = draw(st.permutations(range(1, n + 1)))
    dupes = draw(st.lists(st.integers(1, n), max_size=n))
    out = list(order)
    for seq in dupes:
        out.insert(draw(st.integers(0, len(out))), seq)
    return out


@st.composite
def times(draw: st.DrawFn, k: int) -> list[float]:
    """k non-decreasing times, none beyond the gap timeout."""
    return sorted(draw(st.lists(st.floats(0.0, GAP_TIMEOUT_S), min_size=k, max_size=k)))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(1, 30), session=st.integers(1, 5))
def test_any_permutation_with_duplicates_yields_each_event_once_in_order(
    data: st.DataObject, n: int, session: int
) -> None:
    seqs = data.draw(deliveries(n))
    at = data.draw(times(len(seqs)))
    # The first snapshot may come before any event or after any number of them.
    first = data.draw(st.integers(0, len(seqs)))
    s = Sequencer()
    out: list[SensorEvent] = []
    for i, (seq, now) in enumerate(zip(seqs, at, strict=True)):
        if i == first:
            out += s.snapshot(snap(0, session))
        out += s.feed(ev(seq, session), now)
        assert s.needs_snapshot(now) == (i < first)
    if first == len(seqs):
        out += s.snapshot(snap(0, session))
    assert out == [ev(seq, session) for seq in range(1, n + 1)]
    assert s.waiting == ()
    assert s.next_seq == n + 1
    assert not s.needs_snapshot(at[-1])


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(2, 30))
def test_lost_event_asks_a_snapshot_and_resumes_after_its_seq(data: st.DataObject, n: int) -> None:
    lost = data.draw(st.integers(1, n - 1))
    seqs = [seq for seq in data.draw(deliveries(n)) if seq != lost]
    at = data.draw(times(len(seqs)))
    s = synced()
    out: list[SensorEvent] = []
    for seq, now in zip(seqs, at, strict=True):
        out += s.feed(ev(seq), now)
        assert not s.needs_snapshot(now)  # never past the timeout yet
    assert out == [ev(seq) for seq in range(1, lost)]
    assert s.waiting == tuple(ev(seq) for seq in range(lost + 1, n + 1))
    later = at[-1] + GAP_TIMEOUT_S + 0.01
    assert s.needs_snapshot(later)
    assert s.feed(ev(n + 1), later) == []  # held while the snapshot is awaited
    # The table answers with a snapshot that includes the lost event (and maybe some after it).
    upto = data.draw(st.integers(lost, n + 1))
    assert s.snapshot(snap(upto)) == [ev(seq) for seq in range(upto + 1, n + 2)]
    assert not s.needs_snapshot(later)
    assert s.feed(ev(lost), later) == []
    assert s.feed(ev(n + 2), later) == [ev(n + 2)]


def test_an_event_far_beyond_the_next_is_refused_once_synced_and_dropped_after_a_snapshot() -> None:
    from iwgt.hardware.sequence import MAX_AHEAD, TooFarAhead

    s = synced()
    # Synced: the next expected is 1; 1 + MAX_AHEAD is the furthest held, one more is refused (never held).
    assert s.feed(ev(1 + MAX_AHEAD), 0.0) == []
    try:
        s.feed(ev(2 + MAX_AHEAD), 0.0)
    except TooFarAhead as exc:
        assert exc.next_seq == 1
    else:
        raise AssertionError("an event MAX_AHEAD + 1 beyond the next was taken")
    assert [e.seq for e in s.waiting] == [1 + MAX_AHEAD]
    # Before any snapshot the next is not known: held; the snapshot drops what it can no longer fill.
    fresh = Sequencer()
    far = SensorEvent(v=1, session=1, seq=10**9, cell=(0, 0), event="placed")
    assert fresh.feed(far, 0.0) == [] and fresh.feed(ev(5), 0.0) == []
    assert fresh.snapshot(snap(3)) == []
    assert [e.seq for e in fresh.waiting] == [5]  # 4 may still come
    assert fresh.dropped() == [far] and fresh.dropped() == []
    assert fresh.feed(ev(4), 0.1) == [ev(4), ev(5)]
    assert not fresh.needs_snapshot(100.0)  # nothing held: no snapshot asked for ever
