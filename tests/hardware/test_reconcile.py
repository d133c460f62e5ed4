"""Reconciliation: the cells where the sensors and the game disagree, by hand and as a property."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.table import Piece
from iwgt.hardware.reconcile import Divergent, divergence

RANGERS = Piece(unit=7, cell=(4, 3), seat=0, name="Rangers")
SPEARS = Piece(unit=9, cell=(5, 3), seat=1, name="Spears")


def test_agreeing_table_has_no_divergence() -> None:
    expected = {(4, 3): RANGERS, (5, 3): SPEARS}
    assert divergence(expected, {(4, 3): None, (5, 3): None}) == ()
    assert divergence({}, {}) == ()


def test_missing_and_extra_pieces_in_cell_order() -> None:
    expected = {(4, 3): RANGERS, (5, 3): SPEARS}
    sensed = {(5, 3): None, (6, 1): None, (0, 9): None}
    assert divergence(expected, sensed) == (
        Divergent((0, 9), "empty"),
        Divergent((4, 3), "piece", 7, "Rangers"),
        Divergent((6, 1), "empty"),
    )


def test_held_origin_is_not_divergent_while_in_the_air() -> None:
    # Rangers are in the air: their cell reads empty, which is no divergence; Spears missing still is.
    expected = {(4, 3): RANGERS, (5, 3): SPEARS}
    assert divergence(expected, {}, held_from=(4, 3)) == (Divergent((5, 3), "piece", 9, "Spears"),)


def test_ignored_cells_are_carried_on() -> None:
    # A stuck sensor reads (2, 2) occupied for ever: once carried on it stops the game no more.
    expected = {(4, 3): RANGERS}
    sensed = {(4, 3): None, (2, 2): None}
    assert divergence(expected, sensed) == (Divergent((2, 2), "empty"),)
    assert divergence(expected, sensed, ignored=frozenset({(2, 2)})) == ()


def test_wrong_tag_on_a_cell_wants_the_right_piece() -> None:
    expected = {(4, 3): RANGERS, (5, 3): SPEARS}
    tags = {7: "tag-r", 9: "tag-s"}
    assert divergence(expected, {(4, 3): "tag-r", (5, 3): "tag-s"}, tags=tags) == ()
    # The two miniatures swapped: both cells read a piece, each the other's.
    assert divergence(expected, {(4, 3): "tag-s", (5, 3): "tag-r"}, tags=tags) == (
        Divergent((4, 3), "tag", 7, "Rangers"),
        Divergent((5, 3), "tag", 9, "Spears"),
    )
    # A stranger's tag on Rangers' cell (Rangers bound to another one).
    assert divergence(expected, {(4, 3): "tag-x", (5, 3): "tag-s"}, tags=tags) == (
        Divergent((4, 3), "tag", 7, "Rangers"),
    )


def test_tags_judge_only_bound_units() -> None:
    # Spears are not bound yet: any tag not bound to another unit is theirs as far as anyone knows.
    expected = {(4, 3): RANGERS, (5, 3): SPEARS}
    assert divergence(expected, {(4, 3): "tag-r", (5, 3): "tag-new"}, tags={7: "tag-r"}) == ()
    # But Rangers' tag on Spears' cell is the wrong piece, even with Spears unbound.
    assert divergence(expected, {(4, 3): None, (5, 3): "tag-r"}, tags={7: "tag-r"}) == (
        Divergent((5, 3), "tag", 9, "Spears"),
    )


def test_extra_piece_named_by_its_tag() -> None:
    # Rangers knocked from (4, 3) to (4, 4): the missing cell and the extra one both name them.
    expected = {(4, 3): RANGERS}
    assert divergence(expected, {(4, 4): "tag-r"}, tags={7: "tag-r"}) == (
        Divergent((4, 3), "piece", 7, "Rangers"),
        Divergent((4, 4), "empty", 7, "Rangers"),
    )
    # An unknown tag stays nameless.
    assert divergence(expected, {(4, 3): "tag-r", (4, 4): "tag-q"}, tags={7: "tag-r"}) == (
        Divergent((4, 4), "empty"),
    )


CELLS = st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=300, deadline=None)
@given(
    expected_cells=st.sets(CELLS, max_size=12),
    sensed_cells=st.sets(CELLS, max_size=12),
    held=st.one_of(st.none(), CELLS),
    ignored=st.frozensets(CELLS, max_size=4),
)
def test_divergence_empty_iff_presence_agrees(
    expected_cells: set[tuple[int, int]],
    sensed_cells: set[tuple[int, int]],
    held: tuple[int, int] | None,
    ignored: frozenset[tuple[int, int]],
) -> None:
    expected = {cell: Piece(i, cell, i % 2, f"unit {i}") for i, cell in enumerate(sorted(expected_cells))}
    sensed: dict[tuple[int, int], str | None] = dict.fromkeys(sensed_cells)
    out = divergence(expected, sensed, held_from=held, ignored=ignored)
    excused = ignored | ({held} if held is not None else set())
    assert (out == ()) == (expected_cells - excused == sensed_cells - excused)
    # And each divergent cell is exactly one of the symmetric difference, with what it wants.
    assert {d.cell for d in out} == (expected_cells ^ sensed_cells) - excused
    assert all(d.want == ("piece" if d.cell in expected_cells else "empty") for d in out)
    assert [d.cell for d in out] == sorted(d.cell for d in out)
