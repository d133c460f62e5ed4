"""Tests for iwgt.geometry.trays: rectangular trays with a front on a free table in inches.

Hand-measured cases first (each figure is described in its comment), then properties. Trays are 3" wide
and 1.5" deep unless a test says otherwise; facing 0 looks towards +y, 90 towards -x, 180 towards -y.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from iwgt.geometry.trays import (
    CORNER_EPS,
    LOS_SAMPLES,
    Feature,
    Tray,
    contact_position,
    engaged_edge,
    engaged_side,
    facing_towards,
    facing_vector,
    front_samples,
    halved_length,
    leg_sweep,
    line_of_sight,
    place_outline,
    stop_short,
    tray_gap,
    trays_overlap,
    within_table,
)

F, D = 3.0, 1.5  # frontage and depth of the usual tray


def tray(x: float, y: float, facing: float = 0.0) -> Tray:
    return Tray((x, y), facing, F, D)


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def blocking(*outline: tuple[float, float]) -> Feature:
    return Feature(outline, halves=False, blocks=True, impassable=False)


def close(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.isclose(p[0], q[0], abs_tol=1e-9) and math.isclose(p[1], q[1], abs_tol=1e-9)


# --- the tray itself -----------------------------------------------------------------------------------


def test_a_tray_facing_up_has_its_front_on_top() -> None:
    t = tray(10, 10)
    fl, fr, rr, rl = t.corners()
    assert close(fl, (8.5, 10.75)) and close(fr, (11.5, 10.75))
    assert close(rr, (11.5, 9.25)) and close(rl, (8.5, 9.25))
    assert t.front() == (fl, fr) and t.rear() == (rl, rr)
    assert t.left() == (rl, fl) and t.right() == (rr, fr)
    assert t.polygon().area == pytest.approx(4.5)


def test_facing_90_looks_towards_minus_x() -> None:
    t = tray(10, 10, 90)
    fl, fr, _, _ = t.corners()
    # Looking west, the front edge is the west edge x = 9.25; its left end is to the south.
    assert close(fl, (9.25, 8.5)) and close(fr, (9.25, 11.5))
    assert close(facing_vector(90), (-1.0, 0.0))
    assert facing_towards((0, 0), (-5, 0)) == pytest.approx(90)
    assert facing_towards((0, 0), (0, -5)) == pytest.approx(180)


def test_pivot_and_move() -> None:
    t = tray(10, 10)
    p = t.pivoted(-90)
    assert p.centre == (10, 10) and p.facing == pytest.approx(270)
    m = t.moved((4, 5))
    assert m.centre == (4, 5) and m.facing == 0
    assert t.moved((4, 5), 450).facing == pytest.approx(90)


def test_miniature_cells_split_the_front_evenly() -> None:
    cells = tray(10, 10).miniatures(3)
    assert [c.bounds for c in cells] == [
        pytest.approx((8.5, 9.25, 9.5, 10.75)),
        pytest.approx((9.5, 9.25, 10.5, 10.75)),
        pytest.approx((10.5, 9.25, 11.5, 10.75)),
    ]


def test_front_samples() -> None:
    pts = front_samples(tray(10, 10))
    assert len(pts) == LOS_SAMPLES
    assert close(pts[0], (8.5, 10.75)) and close(pts[-1], (11.5, 10.75)) and close(pts[4], (10, 10.75))


def test_place_outline_turns_about_the_centre() -> None:
    shape = rect(-2, -1, 2, 1)
    placed = place_outline(shape, (10, 20), 90)
    assert Polygon(placed).bounds == pytest.approx((9, 18, 11, 22))


# --- gaps, overlaps, the table -------------------------------------------------------------------------


def test_gap_and_overlap() -> None:
    a = tray(10, 10)
    assert tray_gap(a, tray(10, 13)) == pytest.approx(1.5)  # 10.75 to 12.25
    assert tray_gap(a, tray(10, 11.5)) == 0 and not trays_overlap(a, tray(10, 11.5))  # edge to edge
    assert trays_overlap(a, tray(10, 11.4))
    # Corner to corner: a 45-degree turned tray 5" off: measured with shapely.
    b = tray(16, 12, 45)
    assert tray_gap(a, b) == pytest.approx(a.polygon().distance(b.polygon()))


def test_within_table() -> None:
    assert within_table(tray(1.5, 0.75), 36, 36)  # touching the corner of the table
    assert not within_table(tray(1.4, 0.75), 36, 36)
    assert not within_table(tray(10, 35.3), 36, 36)


# --- engaging -------------------------------------------------------------------------------------------


DEF = tray(10, 10)  # the defender, facing up: front y = 10.75, rear y = 9.25, flanks x = 8.5 and 11.5


@pytest.mark.parametrize(
    ("at", "side", "edge"),
    [
        ((10, 20), "front", "front"),  # straight in front
        ((14, 14), "front", "front"),  # ahead and to the right, steeper than the corner's 1:2
        ((20, 10), "flank", "right"),  # from the right
        ((0, 10.5), "flank", "left"),  # from the left, slightly ahead of the centre line
        ((10, 0), "rear", "rear"),  # from behind
        ((11, -5), "rear", "rear"),
    ],
)
def test_the_engage_line_decides_the_side(at: tuple[float, float], side: str, edge: str) -> None:
    attacker = tray(*at, facing=180)
    assert engaged_side(attacker, DEF) == side
    assert engaged_edge(attacker, DEF) == edge


def test_a_line_through_a_front_corner_is_front() -> None:
    # The front-right corner (11.5, 10.75) is 1.5 right and 0.75 ahead of the centre; so is (16, 13).
    assert engaged_side(tray(16, 13), DEF) == "front"
    # Just inside the flank by more than CORNER_EPS: the flank.
    assert engaged_side(tray(16, 13 - 1e-3), DEF) == "flank"
    # Within CORNER_EPS of the corner still counts as the corner.
    assert engaged_side(tray(16, 13 - CORNER_EPS), DEF) == "front"


def test_a_line_through_a_rear_corner_is_flank() -> None:
    assert engaged_side(tray(4, 7), DEF) == "flank"  # through the rear-left corner (8.5, 9.25)


def test_contact_position_on_each_side() -> None:
    # The attacker's front centre lands on the side's midpoint; its centre half its depth further out.
    front = contact_position(tray(10, 20, 45), DEF, "front")
    assert close(front.centre, (10, 11.5)) and front.facing == pytest.approx(180)
    rear = contact_position(tray(10, 0), DEF, "rear")
    assert close(rear.centre, (10, 8.5)) and rear.facing == pytest.approx(0)
    right = contact_position(tray(20, 10), DEF, "flank")
    assert close(right.centre, (12.25, 10)) and right.facing == pytest.approx(90)
    left = contact_position(tray(0, 10), DEF, "flank")
    assert close(left.centre, (7.75, 10)) and left.facing == pytest.approx(270)
    for t in (front, rear, right, left):
        assert close(t.front_centre(), _mid(DEF.edge(engaged_edge(t, DEF))))
        assert not trays_overlap(t, DEF) and tray_gap(t, DEF) == 0


def _mid(edge: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
    return ((edge[0][0] + edge[1][0]) / 2, (edge[0][1] + edge[1][1]) / 2)


def test_contact_on_a_turned_defender() -> None:
    d = tray(0, 0, 90)  # looking west: its front edge is x = -0.75
    c = contact_position(tray(-10, 0), d, "front")
    assert close(c.centre, (-1.5, 0)) and c.facing == pytest.approx(270)


# --- legs -----------------------------------------------------------------------------------------------


def test_leg_sweep_is_the_hull_of_both_ends() -> None:
    sweep = leg_sweep(tray(10, 10), (10, 14))
    assert sweep.bounds == pytest.approx((8.5, 9.25, 11.5, 14.75))
    assert sweep.area == pytest.approx(3 * 5.5)
    sideways = leg_sweep(tray(10, 10), (14, 10))
    assert sideways.area == pytest.approx(7 * 1.5)


def test_halved_length_doubles_only_the_part_inside() -> None:
    strip = Feature(rect(4, 0, 6, 20), halves=True, blocks=False, impassable=False)  # 2" deep along x
    assert halved_length((0, 5), (10, 5), [strip]) == pytest.approx(12)
    assert halved_length((0, 5), (5, 5), [strip]) == pytest.approx(6)  # 1" inside
    # Overlapping halving features count once: x 4..6 and 5..7 make 3" of halving ground.
    other = Feature(rect(5, 0, 7, 20), halves=True, blocks=False, impassable=False)
    assert halved_length((0, 5), (10, 5), [strip, other]) == pytest.approx(13)
    # Blocking-only ground does not slow.
    wall = Feature(rect(4, 0, 6, 20), halves=False, blocks=True, impassable=True)
    assert halved_length((0, 5), (10, 5), [wall]) == pytest.approx(10)


# --- line of sight --------------------------------------------------------------------------------------

VIEWER = tray(10, 5)  # front edge y = 5.75, x 8.5..11.5
TARGET = tray(10, 20, 180)  # cells x 8.5..9.5, 9.5..10.5, 10.5..11.5; y 19.25..20.75


def test_open_ground_gives_sight() -> None:
    assert line_of_sight(VIEWER, TARGET, 3, [])
    assert line_of_sight(VIEWER, TARGET, 3, [Feature(rect(5, 12, 15, 12.5), True, False, True)])


def test_a_wall_between_blocks_sight() -> None:
    assert not line_of_sight(VIEWER, TARGET, 3, [blocking(*rect(5, 12, 15, 12.5))])


def test_seen_round_the_end_of_a_wall() -> None:
    # From P = (8.5, 5.75) to the left cell (x 8.5..9.5 from y 19.25): at y = 12.5 the sight line's right
    # side is at x = 8.5 + 6.75 / 13.5 = 9.0, so a wall from x = 9.2 leaves it clear ...
    assert line_of_sight(VIEWER, TARGET, 3, [blocking(*rect(9.2, 12, 30, 12.5))])
    # ... and a wall from x = 8.8 cuts every sight line (the leftmost one reaches x = 8.96 at y = 12).
    assert not line_of_sight(VIEWER, TARGET, 3, [blocking(*rect(8.8, 12, 30, 12.5))])


def test_a_whole_miniature_must_be_seen() -> None:
    # A wood up to x = 10.5 hides the two left cells; the right cell only touches it: seen.
    assert line_of_sight(VIEWER, TARGET, 3, [blocking(*rect(5, 17, 10.5, 23))])
    # Up to x = 10.7 it covers part of every cell: none is seen whole.
    assert not line_of_sight(VIEWER, TARGET, 3, [blocking(*rect(5, 17, 10.7, 23))])


def test_inside_a_wood() -> None:
    wood = blocking(*rect(5, 17, 15, 23))  # holds the whole target
    assert not line_of_sight(VIEWER, TARGET, 3, [wood])
    # A viewer whose tray touches the same wood sees it always, even past a wall.
    edge_of_wood = tray(10, 16.5)  # y 15.75..17.25: partly in the wood
    assert line_of_sight(edge_of_wood, TARGET, 3, [wood])
    assert line_of_sight(edge_of_wood, TARGET, 3, [wood, blocking(*rect(5, 18, 15, 18.2))])
    # A viewer in a wood sees out of it (features holding P do not block).
    assert line_of_sight(tray(10, 20), tray(10, 30, 180), 3, [wood])
    # ... but not through another wood it is not in.
    assert not line_of_sight(tray(10, 20), tray(10, 35, 180), 3, [wood, blocking(*rect(0, 27, 20, 30))])


# --- stop_short -----------------------------------------------------------------------------------------


def test_stops_one_inch_short_of_a_friend() -> None:
    s = stop_short(tray(10, 10), (0, 1), 10, stops_at=[tray(10, 15).polygon()])
    # Front 10.75, the friend's rear 14.25: 3.5 apart, less the 1" gap.
    assert s.moved == pytest.approx(2.5, abs=1e-4) and s.stopped_by == "stops_at" and s.blocker == 0
    assert s.end.centre == pytest.approx((10, 12.5)) and s.hit_enemy is None


def test_stops_short_of_a_corner_by_the_round() -> None:
    # Sliding +x; the friend sits 0.6" higher: corner (11.5, 10.75) meets corner (18.5, 11.35) when their
    # horizontal gap is sqrt(1 - 0.36) = 0.8, after 7 - 0.8 = 6.2".
    s = stop_short(tray(10, 10), (1, 0), 20, stops_at=[tray(20, 12.1)])
    assert s.moved == pytest.approx(6.2, abs=1e-4) and s.stopped_by == "stops_at"


def test_stops_at_the_table_edge() -> None:
    s = stop_short(tray(10, 10), (0, -1), 20, edges=(36, 36))
    assert s.moved == pytest.approx(9.25, abs=1e-4) and s.stopped_by == "edge"
    assert within_table(s.end, 36, 36)


def test_stops_in_contact_with_an_enemy() -> None:
    s = stop_short(tray(10, 10), (0, 1), 10, enemies={7: tray(10, 15), 8: tray(10, 25)})
    assert s.moved == pytest.approx(3.5, abs=1e-4) and s.hit_enemy == 7 and s.stopped_by == "enemy"
    assert tray_gap(s.end, tray(10, 15)) == pytest.approx(0, abs=1e-4)
    assert not trays_overlap(s.end, tray(10, 15))


def test_an_enemy_passed_alongside_is_not_met() -> None:
    # The enemy's left edge is x = 11.5 exactly, the slider's right edge: they slide past touching.
    s = stop_short(tray(10, 10), (0, 1), 10, enemies={3: tray(13, 14)})
    assert s.moved == 10 and s.hit_enemy is None and s.stopped_by is None


def test_the_full_distance_when_nothing_is_in_the_way() -> None:
    s = stop_short(
        tray(10, 10, 30), (1, 1), 3, stops_at=[tray(30, 30)], edges=(36, 36), enemies={1: tray(2, 30)}
    )
    assert s.moved == 3 and s.stopped_by is None
    assert s.end.centre == pytest.approx((10 + 3 / math.sqrt(2), 10 + 3 / math.sqrt(2)))
    assert s.end.facing == 30


def test_already_near_a_friend() -> None:
    friend = tray(10, 12.0)  # its rear 0.5" ahead of the slider's front
    assert stop_short(tray(10, 10), (0, 1), 3, stops_at=[friend]).moved == pytest.approx(0, abs=1e-6)
    away = stop_short(tray(10, 10), (0, -1), 3, stops_at=[friend])
    assert away.moved == 3 and away.stopped_by is None
    along = stop_short(tray(10, 10), (-1, 0), 3, stops_at=[friend])  # alongside, getting no closer
    assert along.moved == 3


def test_an_enemy_on_the_table_edge_is_met_before_the_edge() -> None:
    # The enemy lies on the top edge (y 34.5..36): the slider's front (10.75) meets it after 23.75".
    s = stop_short(tray(10, 10), (0, 1), 30, enemies={5: tray(10, 35.25)}, edges=(36, 36))
    assert s.hit_enemy == 5 and s.moved == pytest.approx(23.75, abs=1e-4)


# --- properties -----------------------------------------------------------------------------------------

coords = st.floats(min_value=-30, max_value=30, allow_nan=False)
facings = st.floats(min_value=-720, max_value=720, allow_nan=False)
sizes = st.floats(min_value=0.5, max_value=6, allow_nan=False)


@st.composite
def trays(draw: st.DrawFn) -> Tray:
    return Tray((draw(coords), draw(coords)), draw(facings), draw(sizes), draw(sizes))


@settings(max_examples=60, deadline=None)
@given(trays(), facings)
def test_a_pivot_keeps_centre_and_area(t: Tray, facing: float) -> None:
    p = t.pivoted(facing)
    assert p.centre == t.centre
    assert p.polygon().area == pytest.approx(t.polygon().area)
    assert p.polygon().centroid.coords[0] == pytest.approx(t.centre, abs=1e-9)
    assert 0 <= p.facing < 360


@settings(max_examples=60, deadline=None)
@given(trays(), trays())
def test_gap_and_overlap_agree_with_shapely(a: Tray, b: Tray) -> None:
    pa, pb = a.polygon(), b.polygon()
    assert tray_gap(a, b) == pytest.approx(pa.distance(pb), abs=1e-7)
    area = pa.intersection(pb).area
    if area > 1e-4:
        assert trays_overlap(a, b)
    if not pa.intersects(pb):
        assert not trays_overlap(a, b)


@settings(max_examples=60, deadline=None)
@given(trays(), trays())
def test_contact_position_touches_and_never_overlaps(a: Tray, d: Tray) -> None:
    assume(not d.polygon().buffer(1e-3).contains(a.polygon().centroid))
    side = engaged_side(a, d)
    c = contact_position(a, d, side)
    assert not trays_overlap(c, d)
    assert tray_gap(c, d) == pytest.approx(0, abs=1e-9)
    assert c.frontage == a.frontage and c.depth == a.depth


@settings(max_examples=60, deadline=None)
@given(trays(), trays(), coords, coords)
def test_engaged_side_is_invariant_under_translation(a: Tray, d: Tray, dx: float, dy: float) -> None:
    # Snap to a 1/8" grid so the shift is exact in floating point (the rule is decided at 1e-6").
    def snap(t: Tray, ox: float, oy: float) -> Tray:
        return t.moved((round(t.centre[0] * 8) / 8 + ox, round(t.centre[1] * 8) / 8 + oy))

    ox, oy = round(dx * 8) / 8, round(dy * 8) / 8
    assert engaged_side(snap(a, 0, 0), snap(d, 0, 0)) == engaged_side(snap(a, ox, oy), snap(d, ox, oy))


obstacle_shapes = st.sampled_from(
    [
        rect(0, 0, 4, 2),
        ((0, 0), (5, 0), (2, 3)),  # a triangle
        ((0, 0), (6, 0), (6, 1), (1, 1), (1, 6), (0, 6)),  # an L
        ((0, 0), (0.2, 0), (0.2, 8), (0, 8)),  # a thin wall
    ]
)


@settings(max_examples=80, deadline=None)
@given(
    trays(),
    st.lists(st.tuples(obstacle_shapes, coords, coords, st.sampled_from([0, 90, 33])), max_size=3),
    st.lists(trays(), max_size=2),
    st.floats(min_value=-math.pi, max_value=math.pi),
    st.floats(min_value=0, max_value=15),
)
def test_stop_short_never_overlaps_nor_overshoots(
    start: Tray,
    obstacles: list[tuple[tuple[tuple[float, float], ...], float, float, float]],
    enemies: list[Tray],
    angle: float,
    dist: float,
) -> None:
    polys = [Polygon(place_outline(shape, (x, y), rot)) for shape, x, y, rot in obstacles]
    body = start.polygon()
    assume(all(body.distance(p) > 1.0 + 1e-6 for p in polys))
    assume(all(not trays_overlap(start, e) for e in enemies))
    direction = (math.cos(angle), math.sin(angle))
    s = stop_short(start, direction, dist, stops_at=polys, enemies=dict(enumerate(enemies)))
    assert 0 <= s.moved <= dist + 1e-12
    assert s.end.facing == start.facing
    assert s.end.centre == pytest.approx(
        (start.centre[0] + direction[0] * s.moved, start.centre[1] + direction[1] * s.moved), abs=1e-9
    )
    # The whole path kept 1" clear of every obstacle (the sweep of a rectangle is the hull of its ends) ...
    path = leg_sweep(start, s.end.centre)
    for p in polys:
        assert path.distance(p) >= 1.0 - 1e-6
    # ... and went into no enemy.
    for e in enemies:
        assert not trays_overlap(s.end, e)
    if s.stopped_by == "stops_at":
        assert s.blocker is not None
        assert s.end.polygon().distance(polys[s.blocker]) == pytest.approx(1.0, abs=1e-4)
    elif s.stopped_by == "enemy":
        assert s.hit_enemy is not None
        assert tray_gap(s.end, enemies[s.hit_enemy]) == pytest.approx(0, abs=1e-4)
    else:
        assert s.moved == dist


@settings(max_examples=40, deadline=None)
@given(trays(), st.floats(min_value=-math.pi, max_value=math.pi), st.floats(min_value=0, max_value=40))
def test_stop_short_keeps_the_tray_on_the_table(t: Tray, angle: float, dist: float) -> None:
    table = (60.0, 60.0)
    placed = t.moved((t.centre[0] + 30, t.centre[1] + 30))
    assume(within_table(placed, *table))
    s = stop_short(placed, (math.cos(angle), math.sin(angle)), dist, edges=table)
    assert within_table(s.end, *table)
    if s.stopped_by == "edge":
        xs = [x for x, _ in s.end.corners()]
        ys = [y for _, y in s.end.corners()]
        assert min(min(xs), min(ys), table[0] - max(xs), table[1] - max(ys)) == pytest.approx(0, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(trays(), st.lists(st.tuples(obstacle_shapes, coords, coords), max_size=2), trays())
def test_line_of_sight_is_clear_without_blocking_ground(
    viewer: Tray, shapes: list[tuple[tuple[tuple[float, float], ...], float, float]], target: Tray
) -> None:
    # Ground that only halves or is impassable never hides anything.
    feats = [Feature(place_outline(s, (x, y), 0), True, False, True) for s, x, y in shapes]
    assert line_of_sight(viewer, target, 3, feats)


@settings(max_examples=60, deadline=None)
@given(
    trays(),
    st.lists(st.tuples(obstacle_shapes, coords, coords), min_size=1, max_size=3),
    st.floats(min_value=-math.pi, max_value=math.pi),
    st.floats(min_value=0, max_value=10),
)
def test_a_slide_starting_near_a_shape_comes_no_closer(
    start: Tray,
    obstacles: list[tuple[tuple[tuple[float, float], ...], float, float]],
    angle: float,
    dist: float,
) -> None:
    polys = [Polygon(place_outline(shape, (x, y), 0)) for shape, x, y in obstacles]
    body = start.polygon()
    assume(all(not body.intersects(p) for p in polys))
    direction = (math.cos(angle), math.sin(angle))
    s = stop_short(start, direction, dist, stops_at=polys)
    path = leg_sweep(start, s.end.centre)
    for p in polys:
        # Never nearer than the gap, or than where it started if that was nearer already.
        assert path.distance(p) >= min(1.0, body.distance(p)) - 1e-6
        assert not s.end.polygon().intersects(p) or s.end.polygon().intersection(p).area < 1e-9


@settings(max_examples=60, deadline=None)
@given(
    trays(), trays(), st.floats(min_value=-math.pi, max_value=math.pi), st.floats(min_value=0, max_value=10)
)
def test_a_slide_from_contact_never_goes_into_the_enemy(
    mover: Tray, enemy: Tray, angle: float, dist: float
) -> None:
    # Put the mover in contact with the enemy's front, then slide it anywhere.
    start = contact_position(mover, enemy, "front")
    direction = (math.cos(angle), math.sin(angle))
    s = stop_short(start, direction, dist, enemies={9: enemy})
    assert not trays_overlap(s.end, enemy)
    f = facing_vector(enemy.facing)
    push = direction[0] * f[0] + direction[1] * f[1]
    if push < -1e-3 and dist > 1e-2:  # a push into the enemy's front: met at once
        assert s.hit_enemy == 9 and s.moved == 0
    if push > 1e-9:  # a pull away: free
        assert s.hit_enemy is None and s.moved == dist


@settings(max_examples=40, deadline=None)
@given(
    trays(),
    trays(),
    st.lists(st.tuples(obstacle_shapes, coords, coords), max_size=3),
    st.integers(min_value=-20, max_value=20),
    st.integers(min_value=-20, max_value=20),
)
def test_line_of_sight_is_invariant_under_translation(
    viewer: Tray,
    target: Tray,
    shapes: list[tuple[tuple[tuple[float, float], ...], float, float]],
    dx: int,
    dy: int,
) -> None:
    def snap(v: float) -> float:
        return round(v * 8) / 8

    def put(t: Tray, ox: float, oy: float) -> Tray:
        return t.moved((snap(t.centre[0]) + ox, snap(t.centre[1]) + oy), facing=round(t.facing / 90) * 90)

    def ground(ox: float, oy: float) -> list[Feature]:
        return [blocking(*((px + snap(x) + ox, py + snap(y) + oy) for px, py in s)) for s, x, y in shapes]

    before = line_of_sight(put(viewer, 0, 0), put(target, 0, 0), 3, ground(0, 0))
    assert before == line_of_sight(put(viewer, dx, dy), put(target, dx, dy), 3, ground(dx, dy))
