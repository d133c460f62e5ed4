"""Lifts and placements to orders: every physical case by hand, and the sensed map as a property."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.table import Piece
from iwgt.hardware.orders import Changed, Lifted, Moved, PutBack, Tracker
from iwgt.hardware.protocol import Occupied, SensorEvent, Snapshot, TableCell
from iwgt.hardware.reconcile import Divergent, divergence

RANGERS = Piece(unit=7, cell=(4, 3), seat=0, name="Rangers")
SPEARS = Piece(unit=9, cell=(5, 3), seat=1, name="Spears")
EXPECTED: dict[TableCell, Piece] = {(4, 3): RANGERS, (5, 3): SPEARS}


class Table:
    """A device's events numbered as a controller would number them, fed to a tracker."""

    def __init__(self, occupied: Mapping[TableCell, str | None], session: int = 1) -> None:
        self.session = session
        self.seq = 0
        self.tracker = Tracker()
        self.tracker.reset(self.snapshot(occupied), EXPECTED)

    def snapshot(self, occupied: Mapping[TableCell, str | None]) -> Snapshot:
        cells = tuple(Occupied(cell=cell, tag=tag) for cell, tag in occupied.items())
        return Snapshot(v=1, session=self.session, seq=self.seq, occupied=cells)

    def event(
        self, event: Literal["lifted", "placed"], cell: TableCell, tag: str | None = None
    ) -> Changed | Lifted | Moved | PutBack:
        self.seq += 1
        ev = SensorEvent(v=1, session=self.session, seq=self.seq, cell=cell, event=event, tag=tag)
        return self.tracker.on_event(ev, EXPECTED)

    def divergent(self, ignored: frozenset[TableCell] = frozenset()) -> tuple[Divergent, ...]:
        t = self.tracker
        held_from = t.held.cell if t.held is not None else None
        return divergence(EXPECTED, t.sensed, held_from=held_from, tags=t.tags, ignored=ignored)


def presence() -> Table:
    """A presence table agreeing with the game: Rangers on (4, 3), Spears on (5, 3)."""
    return Table({(4, 3): None, (5, 3): None})


def identity() -> Table:
    """An identity table agreeing with the game, whose first snapshot binds each unit's tag."""
    table = Table({(4, 3): "tag-r", (5, 3): "tag-s"})
    assert table.tracker.tags == {7: "tag-r", 9: "tag-s"}
    return table


def test_lifted_and_put_back() -> None:
    table = presence()
    assert table.event("lifted", (4, 3)) == Lifted(7, 0, (4, 3))
    assert table.tracker.held == Lifted(7, 0, (4, 3))
    assert table.divergent() == ()  # the origin of the piece in the air is excused
    assert table.event("placed", (4, 3)) == PutBack(7)
    assert table.tracker.held is None
    assert table.tracker.sensed == {(4, 3): None, (5, 3): None}
    assert table.divergent() == ()


def test_moved() -> None:
    table = presence()
    assert table.event("lifted", (5, 3)) == Lifted(9, 1, (5, 3))
    assert table.event("placed", (6, 3)) == Moved(9, 1, (5, 3), (6, 3))
    assert table.tracker.held is None
    # Until the referee moves Spears, the table differs from the game on both cells.
    assert table.divergent() == (Divergent((5, 3), "piece", 9, "Spears"), Divergent((6, 3), "empty"))


def test_knocked_with_nothing_in_the_air_reads_as_a_move() -> None:
    # Presence sensors cannot tell a knock from a pick-up: the rules judge the move (a refusal if illegal).
    table = presence()
    assert table.event("lifted", (4, 3)) == Lifted(7, 0, (4, 3))
    assert table.event("placed", (4, 4)) == Moved(7, 0, (4, 3), (4, 4))


def test_knocked_while_another_piece_is_in_the_air() -> None:
    # Rangers are in the air; the hand knocks Spears from (5, 3) to (6, 3): a second lift, so Spears are now
    # the piece in the air (Rangers' cell is plain divergence) and their landing is judged as Spears' move.
    table = presence()
    assert table.event("lifted", (4, 3)) == Lifted(7, 0, (4, 3))
    assert table.event("lifted", (5, 3)) == Lifted(9, 1, (5, 3))
    assert table.divergent() == (Divergent((4, 3), "piece", 7, "Rangers"),)
    assert table.event("placed", (6, 3)) == Moved(9, 1, (5, 3), (6, 3))
    assert table.tracker.held is None


def test_knocked_stray_piece_is_no_order() -> None:
    table = Table({(4, 3): None, (5, 3): None, (0, 0): None})
    assert table.event("lifted", (0, 0)) == Changed((0, 0))
    assert table.event("placed", (0, 1)) == Changed((0, 1))
    assert table.tracker.held is None
    assert table.divergent() == (Divergent((0, 1), "empty"),)


def test_two_lifted_one_put_down() -> None:
    table = presence()
    table.event("lifted", (4, 3))
    assert table.event("lifted", (5, 3)) == Lifted(9, 1, (5, 3))
    assert table.tracker.held == Lifted(9, 1, (5, 3))
    # A piece set down on Rangers' empty cell is Rangers back (not Spears moving onto them): no order.
    assert table.event("placed", (4, 3)) == Changed((4, 3))
    assert table.tracker.held == Lifted(9, 1, (5, 3))
    assert table.divergent() == ()
    assert table.event("placed", (5, 3)) == PutBack(9)


def test_two_lifted_one_moved() -> None:
    table = presence()
    table.event("lifted", (4, 3))
    table.event("lifted", (5, 3))
    # Put down on a free cell: the piece in the air (the last lifted) moves; Rangers stay missing.
    assert table.event("placed", (6, 3)) == Moved(9, 1, (5, 3), (6, 3))
    assert Divergent((4, 3), "piece", 7, "Rangers") in table.divergent()


def test_placement_on_an_occupied_cell() -> None:
    # Presence sensors cannot see a second piece: such a placement sends nothing, and a `placed` on a cell
    # that already reads occupied (a stale or repeated event) is no order: the piece stays in the air.
    table = presence()
    table.event("lifted", (4, 3))
    assert table.event("placed", (5, 3)) == Changed((5, 3))
    assert table.tracker.held == Lifted(7, 0, (4, 3))
    assert table.tracker.sensed == {(5, 3): None}
    assert table.event("placed", (4, 4)) == Moved(7, 0, (4, 3), (4, 4))


def test_sensor_stuck_on() -> None:
    # (4, 3)'s sensor is stuck on: Rangers go up without a word, so their landing is a stray piece.
    table = presence()
    assert table.event("placed", (4, 4)) == Changed((4, 4))
    assert table.tracker.held is None
    assert table.divergent() == (Divergent((4, 4), "empty"),)
    # The move is made on the touchscreen instead: the game now has Rangers on (4, 4).
    moved = {(4, 4): RANGERS, (5, 3): SPEARS}
    t = table.tracker
    stuck = divergence(moved, t.sensed)
    assert stuck == (Divergent((4, 3), "empty"),)
    # Carried on, the stuck cell stops the game no more.
    assert divergence(moved, t.sensed, ignored=frozenset({(4, 3)})) == ()


def test_lift_where_the_table_did_not_agree_is_no_order() -> None:
    table = Table({(5, 3): None})  # Rangers' cell read empty already
    assert table.event("lifted", (4, 3)) == Changed((4, 3))
    assert table.tracker.held is None
    assert table.event("placed", (4, 3)) == Changed((4, 3))  # nothing in the air: Rangers back
    assert table.divergent() == ()


def test_snapshot_while_a_piece_is_in_the_air() -> None:
    table = presence()
    table.event("lifted", (4, 3))
    # A snapshot of the same session showing the origin empty: the piece is still in the air.
    table.tracker.reset(table.snapshot({(5, 3): None}), EXPECTED)
    assert table.tracker.held == Lifted(7, 0, (4, 3))
    assert table.divergent() == ()
    assert table.event("placed", (4, 4)) == Moved(7, 0, (4, 3), (4, 4))


def test_snapshot_showing_the_origin_occupied_ends_the_lift() -> None:
    # The placement was lost: the snapshot shows the piece back, so nothing is in the air any more.
    table = presence()
    table.event("lifted", (4, 3))
    table.tracker.reset(table.snapshot({(4, 3): None, (5, 3): None}))
    assert table.tracker.held is None


def test_new_session_resets_the_piece_in_the_air() -> None:
    table = presence()
    table.event("lifted", (4, 3))
    table.session, table.seq = 2, 0  # a power cycle
    table.tracker.reset(table.snapshot({(5, 3): None}))
    assert table.tracker.held is None
    assert table.tracker.session == 2
    assert table.divergent() == (Divergent((4, 3), "piece", 7, "Rangers"),)
    assert table.event("placed", (4, 3)) == Changed((4, 3))
    assert table.divergent() == ()


def test_event_of_a_new_session_drops_the_piece_in_the_air() -> None:
    table = presence()
    table.event("lifted", (4, 3))
    table.session, table.seq = 2, 0
    assert table.event("placed", (4, 4)) == Changed((4, 4))
    assert table.tracker.held is None


def test_identity_tags_bound_when_the_table_agrees() -> None:
    # Only tags read on a unit's own cell are bound; a stray tag binds nothing.
    table = Table({(4, 3): "tag-r", (0, 0): "tag-x"})
    assert table.tracker.tags == {7: "tag-r"}
    # Spears' cell read empty at first: their tag is bound when they are lifted from their cell after all.
    table.event("placed", (5, 3), "tag-s")
    assert table.tracker.tags == {7: "tag-r"}
    assert table.event("lifted", (5, 3), "tag-s") == Lifted(9, 1, (5, 3))
    assert table.tracker.tags == {7: "tag-r", 9: "tag-s"}


def test_identity_lift_and_put_back_and_move() -> None:
    table = identity()
    assert table.event("lifted", (4, 3), "tag-r") == Lifted(7, 0, (4, 3))
    assert table.event("placed", (4, 3), "tag-r") == PutBack(7)
    assert table.event("lifted", (4, 3), "tag-r") == Lifted(7, 0, (4, 3))
    assert table.event("placed", (4, 4), "tag-r") == Moved(7, 0, (4, 3), (4, 4))
    assert table.tracker.sensed == {(4, 4): "tag-r", (5, 3): "tag-s"}


def test_identity_tag_identifies_a_piece_wherever_it_stands() -> None:
    # Rangers were knocked to (4, 4); lifting them there is lifting Rangers, whose order starts at (4, 3).
    table = identity()
    table.event("lifted", (4, 3), "tag-r")
    table.event("placed", (4, 4), "tag-r")
    table.tracker.held = (
        None  # the referee refused that move: Rangers stand where the game does not have them
    )
    assert table.divergent() == (
        Divergent((4, 3), "piece", 7, "Rangers"),
        Divergent((4, 4), "empty", 7, "Rangers"),
    )
    assert table.event("lifted", (4, 4), "tag-r") == Lifted(7, 0, (4, 3))
    assert table.divergent() == ()
    assert table.event("placed", (4, 3), "tag-r") == PutBack(7)
    assert table.divergent() == ()


def test_identity_wrong_tag_on_a_cell() -> None:
    # A stranger miniature stands on Rangers' cell: divergence `tag`, and lifting it is no order.
    table = Table({(4, 3): "tag-r", (5, 3): "tag-s"})
    table.tracker.reset(table.snapshot({(4, 3): "tag-x", (5, 3): "tag-s"}))
    assert table.divergent() == (Divergent((4, 3), "tag", 7, "Rangers"),)
    assert table.event("lifted", (4, 3), "tag-x") == Changed((4, 3))
    assert table.tracker.held is None
    assert table.divergent() == (Divergent((4, 3), "piece", 7, "Rangers"),)


def test_identity_placement_of_another_piece_is_no_order() -> None:
    # Rangers in the air; Spears' miniature set down on a free cell is no order of Rangers'.
    table = identity()
    table.event("lifted", (4, 3), "tag-r")
    assert table.event("placed", (6, 6), "tag-s") == Changed((6, 6))
    assert table.event("placed", (6, 7), "tag-new") == Changed((6, 7))  # a stranger, Rangers being bound
    assert table.tracker.held == Lifted(7, 0, (4, 3))
    # Rangers' own tag lands on a cell the presence rules would call another piece's: the tag says it is them.
    table.tracker.sensed.pop((5, 3))
    assert table.event("placed", (5, 3), "tag-r") == Moved(7, 0, (4, 3), (5, 3))


def test_identity_snapshot_while_in_the_air_follows_the_tag() -> None:
    table = identity()
    table.event("lifted", (4, 3), "tag-r")
    # Another miniature on the origin does not end the lift: Rangers' tag is nowhere on the table.
    table.tracker.reset(table.snapshot({(4, 3): "tag-x", (5, 3): "tag-s"}))
    assert table.tracker.held == Lifted(7, 0, (4, 3))
    # Their tag read anywhere does.
    table.tracker.reset(table.snapshot({(2, 2): "tag-r", (5, 3): "tag-s"}))
    assert table.tracker.held is None


CELLS = st.tuples(st.integers(0, 4), st.integers(0, 4))
TAGS = st.one_of(st.none(), st.sampled_from(["t1", "t2", "t3", "t4"]))
EVENTS = st.lists(st.tuples(st.sampled_from(["lifted", "placed"]), CELLS, TAGS), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    start=st.dictionaries(CELLS, TAGS, max_size=10),
    pieces=st.sets(CELLS, max_size=6),
    events=EVENTS,
)
def test_sensed_map_is_the_set_replay_of_the_events(
    start: dict[TableCell, str | None],
    pieces: set[TableCell],
    events: list[tuple[Literal["lifted", "placed"], TableCell, str | None]],
) -> None:
    expected = {cell: Piece(i, cell, i % 2, f"unit {i}") for i, cell in enumerate(sorted(pieces))}
    tracker = Tracker()
    occupied = tuple(Occupied(cell=cell, tag=tag) for cell, tag in start.items())
    tracker.reset(Snapshot(v=1, session=1, seq=0, occupied=occupied), expected)
    replay = dict(start)
    for seq, (event, cell, tag) in enumerate(events, start=1):
        held = tracker.held
        order = tracker.on_event(
            SensorEvent(v=1, session=1, seq=seq, cell=cell, event=event, tag=tag), expected
        )
        if event == "lifted":
            replay.pop(cell, None)
        else:
            replay[cell] = tag
        assert tracker.sensed == replay
        # Orders only as the rules give them: a lift of a game piece, a landing of the piece in the air.
        if isinstance(order, Lifted):
            assert event == "lifted" and expected[order.cell].unit == order.unit
            assert tracker.held == order
        elif isinstance(order, (PutBack, Moved)):
            assert event == "placed" and held is not None and held.unit == order.unit
            assert tracker.held is None
            assert isinstance(order, PutBack) == (cell == held.cell)
        else:
            assert order == Changed(cell)
            assert tracker.held == held


@settings(max_examples=200, deadline=None)
@given(data=st.data(), events=EVENTS.filter(bool))
def test_sequencer_and_tracker_end_on_the_table_as_it_is(
    data: st.DataObject, events: list[tuple[Literal["lifted", "placed"], TableCell, str | None]]
) -> None:
    # A table's events arrive shuffled and duplicated, and its snapshot (taken after event k) crosses them:
    # reset from the snapshot and the events the sequencer gives back, the tracker reads the table as it is.
    from iwgt.hardware.sequence import Sequencer

    evs = [
        SensorEvent(v=1, session=1, seq=seq, cell=cell, event=event, tag=tag)
        for seq, (event, cell, tag) in enumerate(events, start=1)
    ]
    states: list[dict[TableCell, str | None]] = [{}]
    for ev in evs:
        state = dict(states[-1])
        if ev.event == "lifted":
            state.pop(ev.cell, None)
        else:
            state[ev.cell] = ev.tag
        states.append(state)
    k = data.draw(st.integers(0, len(evs)))
    taken = Snapshot(
        v=1, session=1, seq=k, occupied=tuple(Occupied(cell=c, tag=t) for c, t in states[k].items())
    )
    order = data.draw(st.permutations(evs))
    order += data.draw(st.lists(st.sampled_from(evs), max_size=5))
    # A first snapshot (an empty table, before any event) syncs the session; the crossing one comes later.
    arrives = data.draw(st.integers(0, len(order)))
    sequencer, tracker = Sequencer(), Tracker()
    first = Snapshot(v=1, session=1, seq=0, occupied=())
    tracker.reset(first, {})
    assert sequencer.snapshot(first) == []
    for i, ev in enumerate(order):
        if i == arrives:
            tracker.reset(taken, {})
            for again in sequencer.snapshot(taken):
                tracker.on_event(again, {})
        for out in sequencer.feed(ev, 0.0):
            tracker.on_event(out, {})
    if arrives == len(order):
        tracker.reset(taken, {})
        for again in sequencer.snapshot(taken):
            tracker.on_event(again, {})
    assert not sequencer.needs_snapshot(0.0)
    assert sequencer.next_seq == len(evs) + 1
    assert tracker.sensed == states[-1]
