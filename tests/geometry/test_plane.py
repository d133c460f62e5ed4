"""Tests for iwgt.geometry.plane (the inch table Valhalla is played on): hand-measured cases, then properties.

Every expectation below is measured by hand on the figure drawn in its comment. The table is 48" x 32";
(x, y) are inches from the bottom-left corner.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from iwgt.geometry.plane import (
    Area,
    Ground,
    Hill,
    Obstacle,
    closest_approach,
    distance,
    edge_distance,
    path_length,
    points_on_circle,
    rounded,
    segment_distance,
    toward,
)

R = 0.5  # a figure's base radius (VH-MS-03)


def square(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def woods(*outline: tuple[float, float]) -> Area:
    return Area("woods", outline)


# Woods covering x 4..6 (2" deep along y = 5), a village x 20..22.
WOODS_2 = Ground(48, 32, areas=(woods(*square(4, 0, 6, 10)), Area("village", square(20, 0, 22, 10))))
# A hill x 10..20, y 0..10, one level high, a 2" slope band: the crest is x 12..18, y 2..8.
HILL = Hill(square(10, 0, 20, 10), height=1, slope=2.0, name="knoll")
HILLY = Ground(48, 32, hills=(HILL,))
# A hedge along y = 10 from x 0 to 20.
HEDGE = Ground(48, 32, obstacles=(Obstacle("hedge", ((0, 10), (20, 10))),))


# --- distances (VH-MS-03: edge to edge) -----------------------------------------------------------------


def test_vh_ms_03_distances_are_edge_to_edge() -> None:
    assert distance((0, 0), (3, 4)) == 5
    assert edge_distance((0, 0), R, (3, 4), R) == pytest.approx(4.0)  # 5 centre to centre, less two radii
    assert edge_distance((0, 0), R, (1, 0), R) == pytest.approx(0.0)  # touching
    assert edge_distance((0, 0), R, (0.6, 0), R) == pytest.approx(-0.4)  # overlapping: negative
    assert edge_distance((0, 0), R, (4, 0), 1.0) == pytest.approx(2.5)  # a figure and a 2" baggage base


def test_paths_segments_and_points() -> None:
    assert path_length([(0, 0), (3, 4), (3, 10)]) == pytest.approx(11.0)
    assert toward((0, 0), (3, 4), 2.5) == pytest.approx((1.5, 2.0))
    assert toward((1, 1), (1, 1), 5) == (1, 1)
    assert segment_distance((0, 0), (10, 0), (5, 3)) == pytest.approx(3.0)  # foot inside the segment
    assert segment_distance((0, 0), (10, 0), (13, 4)) == pytest.approx(5.0)  # beyond the end: to (10, 0)
    assert closest_approach([(0, 0), (10, 0), (10, 10)], (12, 5)) == pytest.approx(2.0)
    assert closest_approach([(3, 3)], (6, 7)) == pytest.approx(5.0)
    assert rounded((1.23456, 7.891)) == (1.23, 7.89)
    pts = list(points_on_circle((0, 0), 2, 4))
    assert [rounded(p) for p in pts] == [(2, 0), (0, 2), (-2, 0), (0, -2)]


def test_on_table_keeps_the_whole_base_on_the_table() -> None:
    g = Ground(48, 32)
    assert g.on_table((0.5, 0.5), R) and g.on_table((47.5, 31.5), R)
    assert not g.on_table((0.49, 5), R) and not g.on_table((5, 31.6), R)
    assert g.on_table((0, 0)) and not g.on_table((48.1, 0))


# --- movement cost (VH-AC-07) ---------------------------------------------------------------------------


def test_vh_ac_07_an_inch_of_woods_costs_two() -> None:
    # Along y = 5: x 0..4 open, 4..6 woods.
    assert WOODS_2.path_cost([(0, 5), (6, 5)]) == pytest.approx(8.0)  # 4 open + 2 woods x 2
    assert WOODS_2.path_cost([(0, 5), (5, 5)]) == pytest.approx(6.0)  # 4 open + 1 woods x 2
    assert WOODS_2.path_cost([(0, 5), (3, 5)]) == pytest.approx(3.0)  # all open
    assert WOODS_2.path_cost([(4.5, 5), (5.5, 5)]) == pytest.approx(2.0)  # all woods
    assert WOODS_2.path_cost([(20, 5), (22, 5)]) == pytest.approx(4.0)  # a village, the same
    assert WOODS_2.slow_length([(0, 5), (6, 5)]) == pytest.approx(2.0)
    # Two legs: (0,5) -> (5,5) is 4 open + 1 woods; (5,5) -> (5,8) is 3 woods. 5 + 4 + 3 = 12.
    assert WOODS_2.path_cost([(0, 5), (5, 5), (5, 8)]) == pytest.approx(12.0)


def test_vh_ac_07_woods_are_measured_exactly_not_in_steps() -> None:
    # Woods from x = 4.03: a 6" walk along y = 5 has 1.97" in the woods, so it costs 7.97" (not 7.95").
    g = Ground(48, 32, areas=(woods(*square(4.03, 0, 10, 10)),))
    assert g.path_cost([(0, 5), (6, 5)]) == pytest.approx(7.97, abs=1e-9)
    # A diagonal into a triangle wood: from (0,0) towards (10,10); the wood is x + y >= 16 (a 45 degree edge).
    # The path enters at (8,8) and goes on to (10,10): sqrt(8) = 2.828... inches in the wood.
    tri = Ground(48, 32, areas=(woods((16, 0), (30, 0), (30, 30), (0, 30), (0, 16)),))
    assert tri.slow_length([(0, 0), (10, 10)]) == pytest.approx(math.sqrt(8), abs=1e-9)


def test_vh_ac_07_the_slow_cost_is_a_parameter() -> None:
    # rules.toml's slow_cost reaches the geometry: at 3, 4" open + 1" of woods cost 7".
    third = Ground(48, 32, areas=(woods(*square(4, 0, 6, 10)),), slow_cost=3.0)
    assert third.path_cost([(0, 5), (5, 5)]) == pytest.approx(7.0)
    from iwgt.games.valhalla.config import rules
    from iwgt.games.valhalla.scenario import load_scenario

    assert load_scenario("skirmish").ground.slow_cost == rules().actions.slow_cost == 2.0


def test_vh_ac_07_uphill_costs_double_downhill_and_along_do_not() -> None:
    # Along y = 5 the ground rises from 0 at x = 10 to 1 at x = 12 (the crest), flat on to x = 18.
    assert HILLY.elevation((9, 5)) == 0
    assert HILLY.elevation((11, 5)) == pytest.approx(0.5)
    assert HILLY.elevation((15, 5)) == pytest.approx(1.0)
    # (8,5) -> (14,5): 2 open + 2 up the slope (x 2) + 2 on the crest = 8.
    assert HILLY.path_cost([(8, 5), (14, 5)]) == pytest.approx(8.0)
    # Back down the same way: 6, no penalty downhill.
    assert HILLY.path_cost([(14, 5), (8, 5)]) == pytest.approx(6.0)
    # Along the slope at the same height (x = 11 from y = 3 to 7): level ground, 4.
    assert HILLY.path_cost([(11, 3), (11, 7)]) == pytest.approx(4.0)
    # Over the whole hill, y = 5 from x = 8 to 22 would be 14: up 2 (x 2), crest 6, down 2, open 4 = 16.
    assert HILLY.path_cost([(8, 5), (22, 5)]) == pytest.approx(16.0)


def test_vh_ac_07_woods_on_a_slope_cost_double_once() -> None:
    g = Ground(48, 32, areas=(woods(*square(10, 0, 12, 10)),), hills=(HILL,))
    # (10,5) -> (12,5) is both uphill and in the woods: 2" costs 4", not 6".
    assert g.path_cost([(10, 5), (12, 5)]) == pytest.approx(4.0)


def test_kind_of_ground_and_cover() -> None:
    assert WOODS_2.kind_at((5, 5)) == "woods" and WOODS_2.kind_at((21, 5)) == "village"
    assert WOODS_2.kind_at((30, 5)) == "open" and HILLY.kind_at((11, 5)) == "hill"
    assert WOODS_2.in_cover((5, 5)) and WOODS_2.in_cover((21, 5))
    assert WOODS_2.in_cover((4, 5))  # on the edge: the centre is in the wood (covers)
    assert not WOODS_2.in_cover((3.9, 5))  # the base overlaps the wood, the centre does not (VH-MS-04)
    assert not HILLY.in_cover((15, 5))  # a hill is no cover
    assert WOODS_2.is_slow((5, 5)) and not WOODS_2.is_slow((7, 5))
    assert [a.kind for a in WOODS_2.areas_at((5, 5))] == ["woods"]


# --- obstacles (VH-AC-08) -------------------------------------------------------------------------------


def test_vh_ac_08_crossing_an_obstacle_is_detected() -> None:
    assert HEDGE.crosses_obstacle([(5, 8), (5, 12)])
    assert HEDGE.crosses_obstacle([(5, 8), (5, 10)])  # touching it counts
    assert not HEDGE.crosses_obstacle([(5, 8), (15, 8)])  # along it
    assert not HEDGE.crosses_obstacle([(25, 8), (25, 12)])  # round its end
    assert HEDGE.crosses_obstacle([(25, 8), (15, 12)])  # diagonally across it
    assert not HEDGE.crosses_obstacle([(5, 8)])
    assert not Ground(48, 32).crosses_obstacle([(5, 8), (5, 12)])


def test_vh_ac_08_obstacles_within_reach() -> None:
    # A base within 1" of the hedge: its centre within 1.5" of the line.
    assert HEDGE.obstacles_near((5, 8.5), 1.5) == [0]
    assert HEDGE.obstacles_near((5, 8.4), 1.5) == []
    assert HEDGE.obstacles_near((21, 10), 1.5) == [0]  # 1" beyond its end
    assert HEDGE.obstacles_near((22, 10), 1.5) == []


def test_vh_ac_08_beyond_lands_just_clear_on_the_far_side() -> None:
    # Foot of the perpendicular, then the radius and 0.05" more: the base ends 0.05" clear of the line.
    assert HEDGE.beyond(0, (5, 9.2), R) == pytest.approx((5, 10.55))
    assert HEDGE.beyond(0, (5, 10.8), R) == pytest.approx((5, 9.45))
    assert HEDGE.beyond(0, (5, 10), R) == pytest.approx((5, 10.55))  # on the line: across its normal
    assert HEDGE.obstacles[0].geometry.distance(Point(HEDGE.beyond(0, (5, 9.2), R))) == pytest.approx(0.55)
    # A slanted fence from (0,0) to (10,10): from (6,4) the foot is (5,5); the far side is up-left.
    fence = Ground(48, 32, obstacles=(Obstacle("fence", ((0, 0), (10, 10))),))
    s = 0.55 / math.sqrt(2)
    assert fence.beyond(0, (6, 4), R) == pytest.approx((5 - s, 5 + s))


# --- line of sight (VH-SH-03, VH-MS-04) -----------------------------------------------------------------


def test_vh_ms_04_sight_through_woods_up_to_2_inches() -> None:
    # Along y = 5 the woods of WOODS_2 are exactly 2" deep: not more than 2", so not blocked.
    assert WOODS_2.sight_blocked((1, 5), (9, 5), 2.0) is None
    deep = Ground(48, 32, areas=(woods(*square(4, 0, 6.1, 10)),))
    why = deep.sight_blocked((1, 5), (9, 5), 2.0)
    assert why is not None and "2.1" in why
    # Two woods of 1.5" each on the line: 3" in total, blocked.
    two = Ground(48, 32, areas=(woods(*square(4, 0, 5.5, 10)), Area("village", square(7, 0, 8.5, 10))))
    assert two.sight_blocked((1, 5), (10, 5), 2.0) is not None
    assert two.sight_blocked((1, 5), (6, 5), 2.0) is None  # only the first 1.5"


def test_vh_ms_04_overlapping_woods_and_village_are_measured_once() -> None:
    # A wood and a village on the same 1.5" of ground (a hamlet in the trees): 1.5" on the line, not 3".
    same = Ground(48, 32, areas=(woods(*square(4, 0, 5.5, 10)), Area("village", square(4, 0, 5.5, 10))))
    assert same.sight_blocked((1, 5), (10, 5), 2.0) is None
    # Two woods overlapping by 1": x 4..6 and 5..7 make 3" of wood, not 4".
    two = Ground(48, 32, areas=(woods(*square(4, 0, 6, 10)), woods(*square(5, 0, 7, 10))))
    why = two.sight_blocked((1, 5), (10, 5), 2.0)
    assert why is not None and '3.0"' in why
    assert two.path_cost([(1, 5), (10, 5)]) == pytest.approx(12.0)  # 6 open + 3 wood x 2


def test_vh_ms_04_a_crest_higher_than_both_blocks_sight() -> None:
    assert HILLY.sight_blocked((5, 5), (25, 5), 2.0) == "the hill knoll stands between them"
    assert HILLY.sight_blocked((5, 1), (25, 1), 2.0) is None  # past the slope only, not the crest
    assert HILLY.sight_blocked((15, 5), (25, 5), 2.0) is None  # the shooter stands on the crest
    assert HILLY.sight_blocked((5, 5), (15, 5), 2.0) is None  # the target stands on the crest
    # Both on the slope, half way up, the crest between them: blocked.
    assert HILLY.sight_blocked((11, 5), (19, 5), 2.0) is not None
    assert Ground(48, 32).sight_blocked((0, 0), (40, 30), 2.0) is None


def test_hill_crest_and_a_hill_too_small_for_one() -> None:
    assert HILL.crest.bounds == pytest.approx((12, 2, 18, 8))
    tiny = Hill(square(0, 0, 2, 2), height=1, slope=1.5)
    assert tiny.crest.is_empty
    g = Ground(48, 32, hills=(tiny,))
    assert g.elevation((1, 1)) == pytest.approx(1 / 1.5)  # 1" deep of a 1.5" slope
    assert g.sight_blocked((-5, 1), (5, 1), 2.0) is None


# --- properties ------------------------------------------------------------------------------------------

coord = st.floats(min_value=0.5, max_value=30.0, allow_nan=False)
point = st.tuples(coord, coord)
TERRAIN = Ground(
    48,
    32,
    areas=(woods(*square(4, 0, 6, 10)), Area("village", square(20, 0, 22, 10))),
    hills=(HILL,),
)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.lists(point, min_size=2, max_size=5))
def test_a_path_costs_between_its_length_and_twice_it(path: list[tuple[float, float]]) -> None:
    length = path_length(path)
    cost = TERRAIN.path_cost(path)
    assert length - 1e-9 <= cost <= 2 * length + 1e-9


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(point, point)
def test_woods_cost_the_same_both_ways_and_uphill_and_down_make_one_climb(
    a: tuple[float, float], b: tuple[float, float]
) -> None:
    assert WOODS_2.path_cost([a, b]) == pytest.approx(WOODS_2.path_cost([b, a]), abs=1e-9)
    # On a hill a straight line climbs one way and descends the other: the two costs share one penalty,
    # at most the line's length.
    there, back = HILLY.slow_length([a, b]), HILLY.slow_length([b, a])
    assert there + back <= distance(a, b) + 0.051


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    st.floats(min_value=0.05, max_value=0.95),
    st.floats(min_value=0.01, max_value=1.5),
    st.sampled_from([1, -1]),
)
def test_beyond_always_ends_just_clear_on_the_far_side(t: float, offset: float, side: int) -> None:
    # A slanted fence from (2,2) to (28,20); a base whose centre is ``offset`` inches to one side of it.
    a, b = (2.0, 2.0), (28.0, 20.0)
    fence = Ground(48, 32, obstacles=(Obstacle("fence", (a, b)),))
    n = math.hypot(b[0] - a[0], b[1] - a[1])
    nx, ny = -(b[1] - a[1]) / n * side, (b[0] - a[0]) / n * side
    foot = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    p = (foot[0] + nx * offset, foot[1] + ny * offset)
    end = fence.beyond(0, p, R)
    line = fence.obstacles[0].geometry
    assert line.distance(Point(end)) == pytest.approx(R + 0.05, abs=1e-9)
    assert fence.crosses_obstacle([p, end])  # the step goes over the line
    assert distance(p, end) == pytest.approx(offset + R + 0.05, abs=1e-9)
