"""Tests for iwgt.geometry.hexgrid: hand-worked cases first, then property tests."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import pairwise

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.geometry.hexgrid import (
    CELL_ACROSS_MM,
    DIRECTIONS,
    Hex,
    HexBoard,
    Layout,
    board,
    distance,
    hex_add,
    hex_corners,
    hex_round,
    hex_sub,
    hex_to_offset,
    hex_to_pixel,
    layout_for_cells_across,
    line,
    movement_range,
    neighbours,
    offset_to_hex,
    path_to,
    pixel_to_hex,
    ring,
    within,
    zone_of_control,
)

ORIGIN = Hex(0, 0)
NONE: frozenset[Hex] = frozenset()
SQRT3 = math.sqrt(3.0)


# --- Coordinates ---------------------------------------------------------------------------------


def test_s_and_arithmetic() -> None:
    assert Hex(2, -5).s == 3
    assert hex_add(Hex(1, 2), Hex(3, -4)) == Hex(4, -2)
    assert hex_sub(Hex(1, 2), Hex(3, -4)) == Hex(-2, 6)


def test_directions_are_the_six_unit_steps() -> None:
    assert len(DIRECTIONS) == 6
    assert len(set(DIRECTIONS)) == 6
    assert all(distance(ORIGIN, d) == 1 for d in DIRECTIONS)
    assert set(neighbours(Hex(5, -2))) == {hex_add(Hex(5, -2), d) for d in DIRECTIONS}


def test_distance_by_hand() -> None:
    assert distance(ORIGIN, Hex(3, -1)) == 3
    assert distance(ORIGIN, Hex(2, 2)) == 4
    assert distance(Hex(-1, 2), Hex(2, -1)) == 3
    assert distance(Hex(4, 4), Hex(4, 4)) == 0


def test_ring_and_within_sizes() -> None:
    assert ring(Hex(3, 1), 0) == [Hex(3, 1)]
    assert set(ring(ORIGIN, 1)) == set(DIRECTIONS)
    for r in range(1, 6):
        cells = ring(Hex(2, -7), r)
        assert len(cells) == 6 * r
        assert all(distance(Hex(2, -7), h) == r for h in cells)
        # Walking round: each cell touches the next, and the last touches the first.
        assert all(distance(a, b) == 1 for a, b in zip(cells, cells[1:] + cells[:1], strict=True))
    for r in range(6):
        assert len(within(ORIGIN, r)) == 1 + 3 * r * (r + 1)
        assert len(set(within(ORIGIN, r))) == 1 + 3 * r * (r + 1)
    assert within(Hex(1, 1), 2)[0] == Hex(1, 1)  # spiral order: centre first
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)
    with pytest.raises(ValueError):
        within(ORIGIN, -1)


def test_line_by_hand() -> None:
    assert line(Hex(2, 2), Hex(2, 2)) == [Hex(2, 2)]
    assert line(ORIGIN, Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    # The midpoint of (0,0)-(1,1) lies exactly on the edge between (1,0) and (0,1); the nudge
    # (larger on r than on q) settles it on (0,1) in both directions.
    assert line(ORIGIN, Hex(1, 1)) == [Hex(0, 0), Hex(0, 1), Hex(1, 1)]
    assert line(Hex(1, 1), ORIGIN) == [Hex(1, 1), Hex(0, 1), Hex(0, 0)]
    # (0.5, 2.5) is a tie between (1, 2) and (0, 3), which Red Blob's equal q and r nudges leave to
    # floating-point noise; ours settles it the same way wherever the line is drawn.
    expected = [Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(0, 3), Hex(1, 3), Hex(1, 4), Hex(1, 5)]
    assert line(ORIGIN, Hex(1, 5)) == expected
    assert line(Hex(-3, -3), Hex(-2, 2)) == [hex_add(Hex(-3, -3), h) for h in expected]


def test_hex_round() -> None:
    assert hex_round(0.0, 0.0) == ORIGIN
    assert hex_round(0.9, -0.1) == Hex(1, 0)
    assert hex_round(-2.2, 1.1) == Hex(-2, 1)


def test_odd_r_offsets_by_hand() -> None:
    assert offset_to_hex(0, 0) == Hex(0, 0)
    assert offset_to_hex(0, 1) == Hex(0, 1)
    assert offset_to_hex(0, 2) == Hex(-1, 2)
    assert offset_to_hex(3, 3) == Hex(2, 3)
    assert offset_to_hex(5, 4) == Hex(3, 4)
    assert hex_to_offset(Hex(-1, 2)) == (0, 2)
    assert hex_to_offset(Hex(2, 3)) == (3, 3)


def test_offset_neighbours_of_odd_and_even_rows() -> None:
    # Red Blob's odd-r neighbour offsets: odd rows lean right, even rows lean left.
    odd = {hex_to_offset(n) for n in neighbours(offset_to_hex(2, 1))}
    assert odd == {(3, 1), (3, 0), (2, 0), (1, 1), (2, 2), (3, 2)}
    even = {hex_to_offset(n) for n in neighbours(offset_to_hex(2, 2))}
    assert even == {(3, 2), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3)}


# --- Boards --------------------------------------------------------------------------------------


def test_board_tables() -> None:
    hb = board(12, 9)
    assert len(hb.cells) == 108
    assert hb.cells[0] == hb.hex_at(0, 0) == Hex(0, 0)
    assert hb.cells[13] == hb.hex_at(1, 1)  # row-major
    assert all(hb.index[h] == i for i, h in enumerate(hb.cells))
    assert all(hb.offset(h) == (i % 12, i // 12) for i, h in enumerate(hb.cells))
    for i, h in enumerate(hb.cells):
        on_board = {n for n in neighbours(h) if hb.contains(n)}
        assert {hb.cells[j] for j in hb.neighbour_index[i]} == on_board
        assert all(i in hb.neighbour_index[j] for j in hb.neighbour_index[i])


def test_board_edges_of_odd_r() -> None:
    hb = board(12, 9)
    # Top-left corner on an even row: only east and the shoved-right cell below.
    assert {hb.offset(n) for n in hb.neighbours_on_board(hb.hex_at(0, 0))} == {(1, 0), (0, 1)}
    # Left edge, odd row: shoved right, so it keeps five neighbours.
    assert {hb.offset(n) for n in hb.neighbours_on_board(hb.hex_at(0, 1))} == {
        (1, 1),
        (1, 0),
        (0, 0),
        (0, 2),
        (1, 2),
    }
    # Right edge, odd row: loses east, north-east and south-east.
    assert {hb.offset(n) for n in hb.neighbours_on_board(hb.hex_at(11, 1))} == {(11, 0), (10, 1), (11, 2)}
    # A cell just off the board still has on-board neighbours.
    assert set(hb.neighbours_on_board(Hex(-1, 0))) == {Hex(0, 0)}
    assert hb.cells_within(hb.hex_at(0, 0), 1) == [Hex(0, 0), Hex(0, 1), Hex(1, 0)]
    assert len(hb.cells_within(hb.hex_at(5, 4), 3)) == 37


def test_board_errors_cache_and_immutability() -> None:
    hb = board(12, 9)
    assert board(12, 9) is hb
    assert hb == HexBoard(12, 9)
    assert hash(hb) == hash(HexBoard(12, 9))
    assert not hb.contains(Hex(12, 0))
    with pytest.raises(ValueError):
        hb.hex_at(12, 0)
    with pytest.raises(ValueError):
        hb.hex_at(0, -1)
    with pytest.raises(ValueError):
        hb.offset(Hex(-1, 0))
    with pytest.raises(ValueError):
        HexBoard(0, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hb.width = 3  # type: ignore[misc]


def test_zone_of_control() -> None:
    hb = board(12, 9)
    middle = hb.hex_at(5, 4)
    assert zone_of_control(hb, [middle]) == frozenset(neighbours(middle))
    assert zone_of_control(hb, [hb.hex_at(0, 0)]) == {hb.hex_at(1, 0), hb.hex_at(0, 1)}
    pair = zone_of_control(hb, [middle, hb.hex_at(6, 4)])
    assert len(pair) == 10  # 6 + 6, less the two cells both enemies touch
    assert middle in pair
    assert zone_of_control(hb, []) == frozenset()


# --- Movement: a hand-worked 7x7 board -----------------------------------------------------------

HB7 = board(7, 7)
START = HB7.hex_at(3, 3)  # Hex(2, 3); everything within 3 steps is on the board
EAST = hex_add(START, Hex(1, 0))
EAST2 = hex_add(START, Hex(2, 0))  # only neighbour at distance 1 from START is EAST


def at(dq: int, dr: int) -> Hex:
    """The cell at axial offset (dq, dr) from START."""
    return hex_add(START, Hex(dq, dr))


def costs(overrides: Mapping[Hex, int], hb: HexBoard = HB7) -> list[int]:
    """Open ground (cost 1) everywhere except the given cells."""
    out = [1] * len(hb.cells)
    for h, c in overrides.items():
        out[hb.index[h]] = c
    return out


def cells_at(radius: int) -> set[Hex]:
    """Cells at exactly ``radius`` from START."""
    return set(ring(START, radius))


def test_open_ground() -> None:
    got = movement_range(HB7, START, 2, cost=costs({}), blocked=NONE, stop=NONE)
    assert got == {h: float(distance(START, h)) for h in within(START, 2)}
    assert movement_range(HB7, START, 0, cost=costs({}), blocked=NONE, stop=NONE) == {START: 0.0}


def test_difficult_cell_costs_two() -> None:
    cost = costs({EAST: 2})
    got = movement_range(HB7, START, 1, cost=cost, blocked=NONE, stop=NONE)
    assert set(got) == {START} | cells_at(1) - {EAST}
    got = movement_range(HB7, START, 2, cost=cost, blocked=NONE, stop=NONE)
    assert got[EAST] == 2.0
    assert set(got) == {START} | cells_at(1) | cells_at(2) - {EAST2}  # EAST2 needs 3 either way
    got = movement_range(HB7, START, 3, cost=cost, blocked=NONE, stop=NONE)
    assert got[EAST2] == 3.0


def test_impassable_and_blocked_cells_are_never_entered() -> None:
    impassable = movement_range(HB7, START, 2, cost=costs({EAST: 0}), blocked=NONE, stop=NONE)
    occupied = movement_range(HB7, START, 2, cost=costs({}), blocked=frozenset({EAST}), stop=NONE)
    for got in (impassable, occupied):
        assert EAST not in got
        assert EAST2 not in got  # the detour round EAST costs 3
        assert len(got) == 1 + 5 + 11
    detour = movement_range(HB7, START, 3, cost=costs({EAST: -1}), blocked=NONE, stop=NONE)
    assert EAST not in detour
    assert detour[EAST2] == 3.0


def test_stop_cell_is_entered_but_not_left() -> None:
    stop = frozenset({EAST})
    got = movement_range(HB7, START, 2, cost=costs({}), blocked=NONE, stop=stop)
    assert got[EAST] == 1.0
    assert EAST2 not in got
    got = movement_range(HB7, START, 3, cost=costs({}), blocked=NONE, stop=stop)
    assert got[EAST2] == 3.0  # round the zone instead of through it
    # A unit that starts in a zone of control may still leave it.
    got = movement_range(HB7, START, 1, cost=costs({}), blocked=NONE, stop=frozenset({START}))
    assert set(got) == {START} | cells_at(1)


def test_enemy_zone_of_control() -> None:
    enemy = at(2, 0)
    zoc = zone_of_control(HB7, [enemy])
    got = movement_range(HB7, START, 3, cost=costs({}), blocked=frozenset({enemy}), stop=zoc)
    assert enemy not in got
    assert got[EAST] == 1.0  # in the zone: may stop here
    # Three steps away, reached in time only through (2, -1), which is in the zone.
    assert at(3, -1) not in got
    free = movement_range(HB7, START, 3, cost=costs({}), blocked=frozenset({enemy}), stop=NONE)
    assert free[at(3, -1)] == 3.0


def test_start_cell_counts_even_if_listed_as_occupied() -> None:
    got = movement_range(HB7, START, 1, cost=costs({START: 0}), blocked=frozenset({START}), stop=NONE)
    assert got == {START: 0.0} | {h: 1.0 for h in cells_at(1)}


def test_extra_sources_fly_then_walk() -> None:
    landing = at(-3, 0)
    got = movement_range(HB7, START, 3, cost=costs({}), blocked=NONE, stop=NONE, extra_sources={landing: 2})
    assert got[landing] == 2.0
    assert got[at(-3, -1)] == 3.0  # beyond walking range, reached from the landing cell
    assert got[at(-1, 0)] == 1.0  # walking is still cheaper near the start
    # Fractional flying costs take the heap path; sources in a zone are kept but not left.
    got = movement_range(
        HB7,
        START,
        3,
        cost=costs({}),
        blocked=NONE,
        stop=frozenset({landing}),
        extra_sources={landing: 1.5},
    )
    assert got[landing] == 1.5
    assert got[at(-2, -1)] == 3.0  # on foot: the landing cell, next door, cannot be left
    assert at(-3, -1) not in got
    # Blocked sources and sources beyond the budget are ignored.
    got = movement_range(
        HB7,
        START,
        1,
        cost=costs({}),
        blocked=frozenset({landing}),
        stop=NONE,
        extra_sources={landing: 0, at(0, -3): 2},
    )
    assert set(got) == {START} | cells_at(1)


def test_bad_arguments() -> None:
    cost = costs({})
    with pytest.raises(ValueError):
        movement_range(HB7, Hex(-5, 0), 2, cost=cost, blocked=NONE, stop=NONE)
    with pytest.raises(ValueError):
        movement_range(HB7, START, -1, cost=cost, blocked=NONE, stop=NONE)
    with pytest.raises(ValueError):
        movement_range(HB7, START, math.nan, cost=cost, blocked=NONE, stop=NONE)
    with pytest.raises(ValueError):
        movement_range(HB7, START, 2, cost=cost[:-1], blocked=NONE, stop=NONE)
    with pytest.raises(ValueError):
        movement_range(HB7, START, 2, cost=cost, blocked=NONE, stop=NONE, extra_sources={Hex(-5, 0): 1})
    with pytest.raises(ValueError):
        movement_range(HB7, START, 2, cost=cost, blocked=NONE, stop=NONE, extra_sources={EAST: -1})


def path_cost(path: Sequence[Hex], cost: Sequence[int], hb: HexBoard = HB7) -> int:
    """Sum of the costs of entering each cell after the first."""
    return sum(cost[hb.index[h]] for h in path[1:])


def test_path_to_by_hand() -> None:
    cost = costs({EAST: 0})
    assert path_to(HB7, START, START, 0, cost=cost, blocked=NONE, stop=NONE) == [START]
    path = path_to(HB7, START, EAST2, 3, cost=cost, blocked=NONE, stop=NONE)
    assert path is not None
    assert path[0] == START
    assert path[-1] == EAST2
    assert len(path) == 4
    assert path[1] in {at(1, -1), at(0, 1)}  # round EAST, by the north or by the south
    assert path_cost(path, cost) == 3
    assert path_to(HB7, START, EAST2, 2, cost=cost, blocked=NONE, stop=NONE) is None
    assert path_to(HB7, START, EAST, 5, cost=cost, blocked=NONE, stop=NONE) is None
    assert path_to(HB7, START, Hex(40, 40), 5, cost=cost, blocked=NONE, stop=NONE) is None
    # The goal may be a stop cell; intermediate cells may not.
    path = path_to(HB7, START, EAST2, 3, cost=costs({}), blocked=NONE, stop=frozenset({EAST, EAST2}))
    assert path is not None
    assert EAST not in path
    assert path_cost(path, costs({})) == 3


def test_path_to_matches_movement_range_costs() -> None:
    cost = costs({EAST: 2, at(0, -1): 0, at(-1, 1): 3})
    blocked = frozenset({at(-1, 0)})
    stop = zone_of_control(HB7, [at(0, 3)])
    reach = movement_range(HB7, START, 4, cost=cost, blocked=blocked, stop=stop)
    for goal in HB7.cells:
        path = path_to(HB7, START, goal, 4, cost=cost, blocked=blocked, stop=stop)
        if goal not in reach:
            assert path is None
            continue
        assert path is not None
        assert path_cost(path, cost) == reach[goal]


# --- Pixel layout --------------------------------------------------------------------------------


def test_layout_by_hand() -> None:
    unit = Layout(size=1.0)
    assert hex_to_pixel(unit, ORIGIN) == (0.0, 0.0)
    assert hex_to_pixel(unit, Hex(1, 0)) == pytest.approx((SQRT3, 0.0))
    assert hex_to_pixel(unit, Hex(0, 1)) == pytest.approx((SQRT3 / 2, 1.5))
    shifted = Layout(size=2.0, origin=(10.0, 20.0))
    assert hex_to_pixel(shifted, Hex(0, 1)) == pytest.approx((10.0 + SQRT3, 23.0))
    with pytest.raises(ValueError):
        Layout(size=0.0)


def test_table_cells_are_155_mm_across() -> None:
    layout = layout_for_cells_across(CELL_ACROSS_MM)
    assert layout.size == pytest.approx(155.0 / SQRT3)
    assert layout_for_cells_across() == layout
    cx, cy = hex_to_pixel(layout, ORIGIN)
    for n in neighbours(ORIGIN):
        nx_, ny = hex_to_pixel(layout, n)
        assert math.hypot(nx_ - cx, ny - cy) == pytest.approx(155.0)
    # A 12-wide odd-r board is 12 cells plus half a cell for the shoved rows.
    hb = board(12, 9)
    xs = [x for h in hb.cells for x, _ in hex_corners(layout, h)]
    assert max(xs) - min(xs) == pytest.approx(12.5 * 155.0)


def test_corners() -> None:
    layout = Layout(size=10.0)
    corners = hex_corners(layout, ORIGIN)
    assert len(corners) == 6
    assert corners[0] == pytest.approx((5.0 * SQRT3, -5.0))  # upper right, y growing downwards
    assert all(math.hypot(x, y) == pytest.approx(10.0) for x, y in corners)
    east = hex_corners(layout, Hex(1, 0))
    shared = [c for c in corners if any(c == pytest.approx(e) for e in east)]
    assert len(shared) == 2


# --- Properties ----------------------------------------------------------------------------------

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_are_at_distance_one(h: Hex) -> None:
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    assert h.q + h.r + h.s == 0


@given(hexes, st.integers(min_value=0, max_value=6))
def test_within_is_every_cell_at_distance_at_most_r(center: Hex, r: int) -> None:
    cells = within(center, r)
    box = {hex_add(center, Hex(dq, dr)) for dq in range(-r, r + 1) for dr in range(-r, r + 1)}
    assert set(cells) == {h for h in box if distance(center, h) <= r}
    assert [distance(center, h) for h in cells] == sorted(distance(center, h) for h in cells)


@given(hexes, hexes)
def test_line_properties(a: Hex, b: Hex) -> None:
    cells = line(a, b)
    assert cells[0] == a
    assert cells[-1] == b
    assert len(cells) == distance(a, b) + 1
    assert all(distance(x, y) == 1 for x, y in pairwise(cells))
    assert line(b, a) == cells[::-1]
    shift = Hex(17, -40)
    assert line(hex_add(a, shift), hex_add(b, shift)) == [hex_add(h, shift) for h in cells]


@given(coords, coords)
def test_offset_round_trip(col: int, row: int) -> None:
    assert hex_to_offset(offset_to_hex(col, row)) == (col, row)
    h = Hex(col, row)
    assert offset_to_hex(*hex_to_offset(h)) == h


layouts = st.builds(
    Layout,
    st.floats(min_value=1.0, max_value=200.0),
    st.tuples(st.floats(min_value=-1e4, max_value=1e4), st.floats(min_value=-1e4, max_value=1e4)),
)


@given(layouts, hexes, st.floats(min_value=0.0, max_value=2 * math.pi), st.floats(0.0, 0.85))
def test_pixel_round_trip_and_taps(layout: Layout, h: Hex, angle: float, frac: float) -> None:
    x, y = hex_to_pixel(layout, h)
    assert pixel_to_hex(layout, x, y) == h
    # A tap anywhere inside the inscribed circle (radius size * sqrt(3) / 2) lands on the same cell.
    reach = frac * layout.size * SQRT3 / 2
    assert pixel_to_hex(layout, x + reach * math.cos(angle), y + reach * math.sin(angle)) == h


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[HexBoard, Hex, list[int], frozenset[Hex], frozenset[Hex]]:
    """A small board, a start cell, a random cost map and random occupied cells."""
    hb = board(draw(st.integers(1, 9)), draw(st.integers(1, 8)))
    start = draw(st.sampled_from(hb.cells))
    n = len(hb.cells)
    cost = draw(st.lists(st.sampled_from([1, 1, 1, 2, 3, 0, -1]), min_size=n, max_size=n))
    blocked = frozenset(draw(st.sets(st.sampled_from(hb.cells), max_size=n // 3)))
    return hb, start, cost, blocked, NONE


# Mostly small movement allowances (bucket queue), some fractional ones, and some above the bucket
# queue's limit (heap search).
budgets = st.one_of(
    st.integers(0, 12).map(float),
    st.integers(0, 24).map(lambda k: k / 2),
    st.sampled_from([5000.0, math.inf]),
)


def networkx_range(
    hb: HexBoard,
    start: Hex,
    budget: float,
    cost: Sequence[int],
    blocked: AbstractSet[Hex],
    stop: AbstractSet[Hex],
    sources: Mapping[Hex, float] | None = None,
) -> dict[Hex, float]:
    """The reference: networkx Dijkstra on a DiGraph weighted by the cost of entering the target."""
    graph = nx.DiGraph()
    graph.add_nodes_from(h for h in hb.cells if h not in blocked or h == start)
    for i, h in enumerate(hb.cells):
        if h not in graph or (h in stop and h != start):
            continue
        for j in hb.neighbour_index[i]:
            target = hb.cells[j]
            if target in graph and cost[j] > 0:
                graph.add_edge(h, target, weight=cost[j])
    # Several starting cells: one super-source with an edge to each, weighted by its initial cost.
    root = "root"
    graph.add_edge(root, start, weight=0.0)
    for h, c0 in (sources or {}).items():
        if h in graph and h != start:  # the start's own edge already costs 0
            graph.add_edge(root, h, weight=c0)
    got = nx.single_source_dijkstra_path_length(graph, root, cutoff=budget, weight="weight")
    del got[root]
    return got


@given(scenarios(), st.integers(0, 8), st.floats(0.0, 0.9))
def test_open_board_range_is_a_hex_disc(
    scenario: tuple[HexBoard, Hex, list[int], frozenset[Hex], frozenset[Hex]], steps: int, frac: float
) -> None:
    hb, start, _, _, _ = scenario
    flat = [1] * len(hb.cells)
    got = movement_range(hb, start, steps + frac, cost=flat, blocked=NONE, stop=NONE)
    assert set(got) == set(hb.cells_within(start, steps))
    assert all(d == distance(start, h) for h, d in got.items())


@settings(max_examples=300)
@given(scenarios(), budgets)
def test_range_matches_networkx(
    scenario: tuple[HexBoard, Hex, list[int], frozenset[Hex], frozenset[Hex]], budget: float
) -> None:
    hb, start, cost, blocked, stop = scenario
    got = movement_range(hb, start, budget, cost=cost, blocked=blocked, stop=stop)
    assert got == networkx_range(hb, start, budget, cost, blocked, stop)


@settings(max_examples=300)
@given(scenarios(), budgets, st.data())
def test_range_with_stops_and_sources_matches_networkx(
    scenario: tuple[HexBoard, Hex, list[int], frozenset[Hex], frozenset[Hex]],
    budget: float,
    data: st.DataObject,
) -> None:
    hb, start, cost, blocked, _ = scenario
    cell = st.sampled_from(hb.cells)
    stop = frozenset(data.draw(st.sets(cell, max_size=len(hb.cells) // 3)))
    # Halves keep every sum exact, so the reference's cutoff and our 1e-9 slack agree.
    initial = st.integers(0, 12).map(lambda k: k / 2)
    sources = data.draw(st.dictionaries(cell, initial, max_size=3))
    got = movement_range(hb, start, budget, cost=cost, blocked=blocked, stop=stop, extra_sources=sources)
    assert got == networkx_range(hb, start, budget, cost, blocked, stop, sources)


@given(scenarios(), st.integers(0, 10), st.data())
def test_path_to_agrees_with_movement_range(
    scenario: tuple[HexBoard, Hex, list[int], frozenset[Hex], frozenset[Hex]],
    budget: int,
    data: st.DataObject,
) -> None:
    hb, start, cost, blocked, _ = scenario
    stop = frozenset(data.draw(st.sets(st.sampled_from(hb.cells), max_size=len(hb.cells) // 3)))
    goal = data.draw(st.sampled_from(hb.cells))
    reach = movement_range(hb, start, budget, cost=cost, blocked=blocked, stop=stop)
    path = path_to(hb, start, goal, budget, cost=cost, blocked=blocked, stop=stop)
    if goal not in reach:
        assert path is None
        return
    assert path is not None
    assert path[0] == start
    assert path[-1] == goal
    assert all(distance(a, b) == 1 for a, b in pairwise(path))
    assert not any(h in blocked for h in path[1:])
    assert not any(h in stop for h in path[1:-1])
    assert path_cost(path, cost, hb) == reach[goal]
