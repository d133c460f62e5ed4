"""Terrain geometry: movement taxes over a move's ground, cutting a path, sight through forests, cover, hills.

Every case is laid out on squared paper with round numbers; the effects are the rules' own terrain table
(``data/rules.toml``). Facing 0 looks along +y; a tray facing 180 has its right-hand side towards -x.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.games.coloured_dice.formation import block_tray, model_cells
from iwgt.games.coloured_dice.rules import rules
from iwgt.games.coloured_dice.state import TerrainPiece
from iwgt.games.coloured_dice.terrain import (
    FEW_MODELS,
    FOREST_EDGE,
    VISIBLE_MAX,
    MoveTax,
    along,
    blocked_area,
    cover,
    height_at,
    higher,
    in_forest,
    in_water,
    move_taxes,
    sees,
    terrain_effects,
)
from iwgt.geometry.plane import XY
from iwgt.geometry.trays import Tray

INCH = (1.0, 1.0)


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[XY, ...]:
    """An axis-aligned rectangle's outline."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def piece(
    pid: int, kind: str, outline: tuple[XY, ...], *, height: float = 0.0, removed: bool = False
) -> TerrainPiece:
    """A terrain piece named after its kind, capitalised (the reasons name it)."""
    return TerrainPiece(pid, kind, kind.capitalize(), outline, height, removed)


def test_the_constants_come_from_the_data() -> None:
    """CD-TE-08, CD-TE-17, CD-TE-20: the designed numbers are the rules file's."""
    c = rules().constants
    assert (c.few_models, c.forest_edge, c.visible_max) == (FEW_MODELS, FOREST_EDGE, VISIBLE_MAX)
    eff = terrain_effects()
    assert eff["forest"].blocks_los and eff["forest"].cavalry_blocked and eff["forest"].infantry_tax == "d6"
    assert eff["building"].inside_cover == 2 and eff["woodland"].among_cover == 1


# --- movement taxes --------------------------------------------------------------------------------------

START = Tray((10.0, 5.0), 0.0, 4.0, 1.0)  # x 8..12, y 4.5..5.5, facing +y
NORTH = [(10.0, 15.0)]  # 10" straight ahead: the tray sweeps y 4.5..15.5


def test_stream_one_inch_and_river_a_d6() -> None:
    """CD-TE-02/03: crossing a stream costs 1", a river one d6 (rolled per piece, once per move)."""
    feats = [piece(0, "stream", rect(0, 8, 20, 9)), piece(1, "river", rect(0, 11, 20, 12))]
    tax = move_taxes(START, NORTH, feats, "infantry")
    assert tax == MoveTax(fixed=1.0, d6_features=(1,))


def test_forest_d6_for_infantry_barred_for_cavalry() -> None:
    """CD-TE-13/14: a forest is a d6 for infantry; cavalry may not enter it."""
    feats = [piece(3, "forest", rect(0, 10, 20, 20))]
    assert move_taxes(START, NORTH, feats, "infantry") == MoveTax(d6_features=(3,))
    tax = move_taxes(START, NORTH, feats, "cavalry")
    assert tax.blocked == "cavalry may not enter Forest"


def test_woodland_inch_for_infantry_d6_for_cavalry_monsters_as_infantry() -> None:
    """CD-TE-09/10, CD-MS-08: woodland 1" on foot (monsters too), a d6 mounted."""
    feats = [piece(0, "woodland", rect(0, 10, 20, 12))]
    assert move_taxes(START, NORTH, feats, "infantry").fixed == 1.0
    assert move_taxes(START, NORTH, feats, "monster").fixed == 1.0
    assert move_taxes(START, NORTH, feats, "cavalry") == MoveTax(d6_features=(0,))


def test_pond_bars_marching_and_rocks_are_impassable() -> None:
    """CD-TE-04/05: a pond is a d6 and no marching; rocks nobody enters (CD-MS-07)."""
    pond = [piece(0, "pond", rect(9, 10, 11, 12))]
    tax = move_taxes(START, NORTH, pond, "infantry")
    assert tax.marching_blocked and tax.d6_features == (0,) and tax.blocked is None
    rocks = [piece(1, "rocks", rect(9, 10, 11, 12))]
    assert move_taxes(START, NORTH, rocks, "infantry").blocked == "Rocks is impassable"
    assert [p.bounds for p in blocked_area(rocks + pond, "infantry")] == [(9.0, 10.0, 11.0, 12.0)]


def test_immaterial_spirits_ignore_terrain() -> None:
    """CD-MA-10 (data: kinds.spirit.terrain): immaterial spirits pay nothing and are never barred."""
    feats = [piece(0, "forest", rect(0, 10, 20, 20)), piece(1, "rocks", rect(0, 8, 20, 9))]
    assert move_taxes(START, NORTH, feats, "spirit") == MoveTax()
    assert blocked_area(feats, "spirit") == []


def test_touching_an_edge_is_not_entering() -> None:
    """CD-TE-02: a move ending flush against a stream (its front edge on the bank) pays nothing."""
    feats = [piece(0, "stream", rect(0, 15.5, 20, 17))]
    assert move_taxes(START, NORTH, feats, "infantry") == MoveTax()


def test_starting_in_water_pays_too() -> None:
    """CD-TE-02: "those who are in water" suffer: a unit leaving the stream it stands in pays its 1"."""
    feats = [piece(0, "stream", rect(0, 4, 20, 6))]
    assert move_taxes(START, NORTH, feats, "infantry").fixed == 1.0
    assert [p.id for p in in_water(START, feats)] == [0]


def test_a_piece_counts_once_per_move() -> None:
    """CD-TE-02 (decision: once per move action): a path in and out of one stream twice pays 1" once."""
    feats = [piece(0, "stream", rect(0, 8, 20, 9))]
    tax = move_taxes(START, [(10.0, 12.0), (10.0, 5.0), (10.0, 12.0)], feats, "infantry")
    assert tax.fixed == 1.0


def test_bushes_cleared_only_by_more_than_a_few_models() -> None:
    """CD-TE-06..08: 5 models through a hedge clear it; 1 model through a 1" bush, or 3 models, do not."""
    block = block_tray((10.0, 5.0), 0.0, 5, 5, INCH)  # 5 models, x 7.5..12.5
    hedge = [piece(4, "bushes", rect(0, 9, 20, 10))]
    tax = move_taxes(block, NORTH, hedge, "infantry", models=5, files=5)
    assert tax.fixed == 1.0 and tax.bushes_crossed == (4,) and tax.bushes_removed == (4,)
    # A 1" bush in front of the middle model only (its neighbours brush its sides).
    bush = [piece(4, "bushes", rect(9.5, 9, 10.5, 10))]
    tax = move_taxes(block, NORTH, bush, "infantry", models=5, files=5)
    assert tax.bushes_crossed == (4,) and tax.bushes_removed == ()
    three = block_tray((10.0, 5.0), 0.0, 3, 3, INCH)
    tax = move_taxes(three, NORTH, hedge, "infantry", models=3, files=3)
    assert tax.bushes_crossed == (4,) and tax.bushes_removed == ()


def test_cleared_bushes_are_gone() -> None:
    """CD-TE-06: bushes removed from the field no longer tax a move."""
    feats = [piece(0, "bushes", rect(0, 9, 20, 10), removed=True)]
    assert move_taxes(START, NORTH, feats, "infantry") == MoveTax()


def test_the_final_pivot_counts() -> None:
    """CD-MS-01: a move that ends pivoting into a stream enters it (the end tray at its final facing)."""
    # 4 x 1 tray ending at (10, 15); pivoted to 90 it spans y 13..17: into a stream at y 16..17.
    feats = [piece(0, "stream", rect(0, 16, 20, 17))]
    assert move_taxes(START, NORTH, feats, "infantry").fixed == 0.0
    assert move_taxes(START, NORTH, feats, "infantry", facing=90.0).fixed == 1.0


# --- along -----------------------------------------------------------------------------------------------


def test_along_cuts_a_path() -> None:
    """CD-TE-03 (designed): after a d6 tax the unit goes along its path as far as the allowance lets it."""
    path = [(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)]
    assert along(path, 5.0) == [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)]
    assert along(path, 3.0) == [(0.0, 0.0), (3.0, 0.0)]
    assert along(path, 1.5) == [(0.0, 0.0), (1.5, 0.0)]
    assert along(path, 10.0) == path
    assert along(path, 0.0) == [(0.0, 0.0)]
    assert along(path, -2.0) == [(0.0, 0.0)]
    assert along([], 3.0) == []


@settings(max_examples=50, deadline=None)
@given(
    pts=st.lists(
        st.tuples(st.floats(-20, 20, allow_nan=False), st.floats(-20, 20, allow_nan=False)),
        min_size=1,
        max_size=5,
    ),
    length=st.floats(0, 60, allow_nan=False),
)
def test_along_is_as_long_as_asked(pts: list[XY], length: float) -> None:
    """The cut path is exactly ``length`` long (or the whole path when that is shorter)."""
    cut = along(pts, length)
    total = sum(math.dist(a, b) for a, b in itertools.pairwise(pts))
    got = sum(math.dist(a, b) for a, b in itertools.pairwise(cut))
    assert got == pytest.approx(min(length, total), abs=1e-6)
    assert cut[0] == pts[0]


# --- sight -----------------------------------------------------------------------------------------------

FOREST = [piece(0, "forest", rect(10, 10, 20, 20))]
SHOOTER = Tray((15.0, 2.0), 0.0, 4.0, 1.0)  # front edge y = 2.5, x 13..17, south of the forest


def test_forest_hides_what_is_behind_it() -> None:
    """CD-TE-15: a forest blocks sight: a unit north of it is not seen from the south; one beside it is."""
    assert not sees(SHOOTER, Tray((15.0, 25.0), 180.0, 4.0, 1.0), FOREST)
    assert sees(SHOOTER, Tray((30.0, 10.0), 180.0, 4.0, 1.0), FOREST)
    assert sees(SHOOTER, Tray((15.0, 25.0), 180.0, 4.0, 1.0), [])


def test_forest_interior_invisible_edge_visible() -> None:
    """CD-TE-16/17: in a forest a unit 5" deep is not seen from outside; one within 1" of the near edge is."""
    at_edge = Tray((15.0, 10.6), 180.0, 4.0, 1.0)  # y 10.1..11.1: its near side 0.1" inside
    deep = Tray((15.0, 15.0), 180.0, 4.0, 1.0)
    assert sees(SHOOTER, at_edge, FOREST)
    assert not sees(SHOOTER, deep, FOREST)
    # 1.5" in (y 11.5..12.5): sight would cross 1.5" of trees, more than FOREST_EDGE.
    assert not sees(SHOOTER, Tray((15.0, 12.0), 180.0, 4.0, 1.0), FOREST)


def test_forest_edge_is_one_side_only() -> None:
    """CD-TE-17: at the forest's north edge a unit is seen from the north, not through the wood."""
    north_edge = Tray((15.0, 19.5), 0.0, 4.0, 1.0)  # y 19..20
    assert not sees(SHOOTER, north_edge, FOREST)
    assert sees(Tray((15.0, 25.0), 180.0, 4.0, 1.0), north_edge, FOREST)


def test_sight_out_of_a_forest_is_symmetric() -> None:
    """CD-TE-16 (designed, mutual): deep in a forest a unit sees nothing outside; at the edge it does."""
    assert not sees(Tray((15.0, 15.0), 180.0, 4.0, 1.0), SHOOTER, FOREST)
    assert sees(Tray((15.0, 10.6), 180.0, 4.0, 1.0), SHOOTER, FOREST)


def test_two_units_in_one_forest() -> None:
    """CD-TE-15 (designed): among the trees, sight reaches 1" from each unit: 1" apart they see each other."""
    a = Tray((13.0, 15.0), 90.0, 2.0, 1.0)
    assert sees(a, Tray((16.0, 15.0), 270.0, 2.0, 1.0), FOREST)
    assert not sees(Tray((12.0, 12.0), 0.0, 2.0, 1.0), Tray((18.0, 18.0), 180.0, 2.0, 1.0), FOREST)


def test_a_building_blocks_sight() -> None:
    """CD-TE-18 (data: buildings block sight): a 1" model right behind a 2" building is hidden."""
    building = [piece(5, "building", rect(14, 8, 16, 9))]
    target = Tray((15.0, 10.0), 180.0, 1.0, 1.0)
    assert not sees(SHOOTER, target, building)
    assert sees(SHOOTER, target.moved((20.0, 10.0)), building)


def test_one_visible_model_is_enough() -> None:
    """CD-MS-09 (designed): sight to any one whole model cell; a block half behind a building is seen."""
    building = [piece(5, "building", rect(10, 8, 15, 9))]
    target = block_tray((15.0, 10.5), 180.0, 10, 10, INCH)  # x 10..20
    assert sees(SHOOTER, target, building, cells=model_cells(target, 10, 10))
    assert sees(SHOOTER, target, building)  # without cells: 1" columns of the tray
    assert not sees(SHOOTER, target, building, cells=[target.polygon()])  # the whole tray as one shape


# --- cover -----------------------------------------------------------------------------------------------

TARGET = Tray((15.0, 11.0), 180.0, 4.0, 1.0)  # y 10.5..11.5; models at x 16.5, 15.5, 14.5, 13.5
CELLS = model_cells(TARGET, 4, 4)


def test_behind_a_wall() -> None:
    """CD-TE-18: a target within 1" behind a wall that hides all its models from the shooter's centre: +1."""
    wall = [piece(1, "wall", rect(5, 10, 25, 10.2))]
    assert cover(SHOOTER, TARGET, CELLS, wall) == (1, "behind the Wall")


def test_half_visible_still_covered_more_than_half_not() -> None:
    """CD-TE-20: 2 of 4 models hidden (half visible): +1; 1 of 4 hidden (more than half visible): 0.

    Lines from the shooter's centre (15, 2) to models at x 13.5 and 14.5 (y 11) cross y = 10 at x 13.67
    and 14.56: a wall ending at x 14.9 hides both, one ending at x 14 only the first.
    """
    assert cover(SHOOTER, TARGET, CELLS, [piece(1, "wall", rect(10, 10, 14.9, 10.2))]) == (
        1,
        "behind the Wall",
    )
    assert cover(SHOOTER, TARGET, CELLS, [piece(1, "wall", rect(10, 10, 14.0, 10.2))]) == (0, None)


def test_behind_means_within_an_inch() -> None:
    """CD-TE-18 (designed: behind = within 1"): a target 2.3" past the wall has no cover from it."""
    wall = [piece(1, "fence", rect(5, 10, 25, 10.2))]
    far = Tray((15.0, 13.0), 180.0, 4.0, 1.0)
    assert cover(SHOOTER, far, model_cells(far, 4, 4), wall) == (0, None)
    assert cover(SHOOTER, TARGET, CELLS, wall) == (1, "behind the Fence")


def test_the_wall_must_be_between() -> None:
    """CD-TE-18: shot from the same side of the wall, the target is not behind it."""
    wall = [piece(1, "stones", rect(5, 10, 25, 10.2))]
    north = Tray((15.0, 20.0), 180.0, 4.0, 1.0)
    assert cover(north, TARGET, CELLS, wall) == (0, None)


def test_woodland_cover() -> None:
    """CD-TE-11: a target among woodland: +1; with only 1 of its 4 models among the trees: 0."""
    assert cover(SHOOTER, TARGET, CELLS, [piece(2, "woodland", rect(10, 10, 20, 14))]) == (
        1,
        "among the Woodland",
    )
    assert cover(SHOOTER, TARGET, CELLS, [piece(2, "woodland", rect(12.9, 10, 14, 14))]) == (0, None)


def test_inside_a_building() -> None:
    """CD-TE-19: a target inside a roofed building: +2 (and it is seen: within 1" of the walls)."""
    building = [piece(3, "building", rect(12, 10, 18, 12))]
    assert cover(SHOOTER, TARGET, CELLS, building) == (2, "inside the Building")
    assert sees(SHOOTER, TARGET, building, cells=CELLS)


def test_forest_edge_cover() -> None:
    """CD-TE-17: a target seen at a forest's edge: +1."""
    edge = Tray((15.0, 10.6), 180.0, 4.0, 1.0)
    assert cover(SHOOTER, edge, model_cells(edge, 4, 4), FOREST) == (1, "at the edge of the Forest")
    assert [p.id for p in in_forest(edge, FOREST)] == [0]


def test_cover_does_not_stack() -> None:
    """CD-TC-03: woodland and a wall give +1, not +2; a building and a wall give +2."""
    wall = piece(1, "wall", rect(5, 10, 25, 10.2))
    assert cover(SHOOTER, TARGET, CELLS, [wall, piece(2, "woodland", rect(10, 10.3, 20, 14))])[0] == 1
    assert cover(SHOOTER, TARGET, CELLS, [wall, piece(3, "building", rect(12, 10.3, 18, 12))]) == (
        2,
        "inside the Building",
    )


def test_open_ground_no_cover() -> None:
    """CD-TC-01: no terrain, no cover; a hill is no cover either (it adds on its own, CD-TE-01)."""
    assert cover(SHOOTER, TARGET, CELLS, []) == (0, None)
    assert cover(SHOOTER, TARGET, CELLS, [piece(0, "hill", rect(0, 0, 30, 30), height=1.0)]) == (0, None)


# --- hills -----------------------------------------------------------------------------------------------

HILLS = [piece(0, "hill", rect(0, 0, 10, 10), height=1.0), piece(1, "hill", rect(2, 2, 5, 5), height=2.0)]


def test_higher_side() -> None:
    """CD-TE-01: the higher side +1: the 2" crest over the 1" slope, the slope over the flat."""
    crest = Tray((3.0, 3.0), 0.0, 1.0, 1.0)
    slope = Tray((8.0, 8.0), 0.0, 1.0, 1.0)
    flat = Tray((20.0, 20.0), 0.0, 1.0, 1.0)
    assert (
        height_at(crest.centre, HILLS),
        height_at(slope.centre, HILLS),
        height_at(flat.centre, HILLS),
    ) == (
        2.0,
        1.0,
        0.0,
    )
    assert higher(crest, slope, HILLS) == 1 and higher(slope, crest, HILLS) == 0
    assert higher(slope, flat, HILLS) == 1 and higher(flat, slope, HILLS) == 0
    assert higher(slope, Tray((7.0, 7.0), 0.0, 1.0, 1.0), HILLS) == 0


def test_sight_along_a_forest_edge_is_clear() -> None:
    """CD-TE-15: two units lined up along a forest's south edge (touching it) see each other along it."""
    west = Tray((5.0, 9.5), 90.0 + 180.0, 1.0, 1.0)  # faces +x, its side on y = 10
    east = Tray((25.0, 9.5), 90.0, 1.0, 1.0)
    assert sees(west, east, FOREST) and sees(east, west, FOREST)


FIELD = [
    piece(0, "stream", rect(0, 8, 30, 9)),
    piece(1, "river", rect(20, 0, 21, 30)),
    piece(2, "woodland", rect(3, 14, 9, 20)),
    piece(3, "pond", rect(12, 15, 15, 18)),
    piece(4, "bushes", rect(24, 20, 27, 22)),
]


@settings(max_examples=40, deadline=None)
@given(
    legs=st.lists(
        st.tuples(st.floats(2, 28, allow_nan=False), st.floats(2, 28, allow_nan=False)),
        min_size=1,
        max_size=3,
    ),
    cut=st.floats(0, 1, allow_nan=False),
)
def test_a_shorter_move_pays_no_more(legs: list[XY], cut: float) -> None:
    """CD-TE-02..08: every piece the first part of a move enters, the whole move enters too."""
    start = Tray((15.0, 3.0), 0.0, 3.0, 1.0)
    full = [start.centre, *legs]
    total = sum(math.dist(a, b) for a, b in itertools.pairwise(full))
    part = along(full, cut * total)
    whole = move_taxes(start, legs, FIELD, "infantry", models=3, files=3)
    short = move_taxes(start, part[1:], FIELD, "infantry", models=3, files=3)
    assert short.fixed <= whole.fixed
    assert set(short.d6_features) <= set(whole.d6_features)
    assert set(short.bushes_crossed) <= set(whole.bushes_crossed)
    assert short.marching_blocked <= whole.marching_blocked


def test_taxes_see_a_piece_only_where_the_move_enters_it() -> None:
    """CD-TE-02 with the cheap tests before the exact one: an L-shaped stream whose bounding box (and hull)
    holds the whole move but whose arms the tray never enters costs nothing; a move into one arm pays 1"; the
    end tray pivoting into the stream pays too (the end facing is part of the move)."""
    ell = piece(0, "stream", ((0, 0), (20, 0), (20, 2), (2, 2), (2, 20), (0, 20)))
    tray = Tray((10.0, 10.0), 0.0, 2.0, 1.0)
    assert move_taxes(tray, [(12.0, 12.0)], [ell], "infantry") == MoveTax()
    assert move_taxes(tray, [(3.5, 10.0)], [ell], "infantry") == MoveTax()  # x 2.5..4.5: clear of the arm
    assert move_taxes(tray, [(2.5, 10.0)], [ell], "infantry").fixed == 1.0  # x 1.5..3.5: in the arm
    assert move_taxes(tray, [(10.0, 3.0)], [ell], "infantry") == MoveTax()  # y 2.5..3.5: clear of it
    # pivoted a quarter turn at (10, 2.6): x 9.5..10.5, y 1.6..3.6, its end in the arm y 0..2
    assert move_taxes(tray, [(10.0, 2.6)], [ell], "infantry", facing=90.0).fixed == 1.0


def test_a_hill_costs_no_move_and_is_not_looked_at() -> None:
    """CD-TE-01 (designed): a hill takes nothing from a move, whatever the move does on it."""
    hill = piece(0, "hill", rect(0, 0, 30, 30), height=1.0)
    assert move_taxes(START, NORTH, [hill], "infantry") == MoveTax()
    assert move_taxes(START, NORTH, [hill], "cavalry") == MoveTax()
