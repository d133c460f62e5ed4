"""Game places on the table: hex boards centred, even row shift; inch boards scaled; spots, areas, regions."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from iwgt.core.chance import SeededDice
from iwgt.core.lights import GREEN, RED, Light
from iwgt.core.match import Match
from iwgt.core.protocol import visible_events
from iwgt.core.registry import get_plugin, plugins
from iwgt.core.table import PhysicalTable, Surface
from iwgt.geometry.hexgrid import hex_to_offset, neighbours, offset_to_hex
from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.places import Placement, PlacementError, placement

DATA = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "hardware" / "data"
TABLE = load_layout(DATA / "table-30x20.toml")
SMALL = load_layout(DATA / "table-16x12.toml")

SIZE = 2.0 / math.sqrt(3.0)  # a 2-inch cell's centre-to-corner: 1.1547 in
HEIGHT = SIZE * 30.5  # the 30 x 20 table's extent: 61.0 x 35.218 in


def cell_light(cell: tuple[int, int]) -> Light:
    return Light(cell, "destination", GREEN, "steady")


def spot(at: tuple[float, float], radius: float) -> Light:
    return Light.spot(at, radius, "firing", GREEN, "flash")


def test_a_hex_board_is_centred_with_an_even_row_shift() -> None:
    # 8 x 6 on 30 x 20: (30 - 8) // 2 = 11 columns; (20 - 6) // 2 = 7 rows, rounded down to 6.
    small_board = placement(TABLE, Surface("cells", 8, 6))
    assert small_board.shift == (11, 6)
    assert small_board.to_table((0, 0)) == (11, 6)
    assert small_board.to_table((7, 5)) == (18, 11)
    assert small_board.to_table((8, 0)) is None and small_board.to_table((0, -1)) is None
    assert small_board.to_game((11, 6)) == (0, 0)
    assert small_board.to_game((10, 6)) is None and small_board.to_game((11, 12)) is None
    # 24 x 18 (the biggest battle): 3 columns in; (20 - 18) // 2 = 1 row, rounded down to 0.
    assert placement(TABLE, Surface("cells", 24, 18)).shift == (3, 0)
    # 14 x 10 on 30 x 20: 8 columns; 5 rows rounded down to 4.
    assert placement(TABLE, Surface("cells", 14, 10)).shift == (8, 4)
    # A board as big as the table sits on it exactly.
    assert placement(SMALL, Surface("cells", 16, 12)).shift == (0, 0)


def test_the_even_shift_keeps_odd_r_neighbours() -> None:
    # Game cell (0, 1) is on an odd row, shoved right: its neighbours include (0, 0) and (1, 0). With a row
    # shift of 4 its table cell (8, 5) is odd too, and its table neighbours are (8, 4) and (9, 4): the same.
    # An odd shift of 5 would put it on table row 6 (even), whose neighbours above are (7, 5) and (8, 5).
    board = placement(TABLE, Surface("cells", 14, 10))
    table_cell = board.to_table((0, 1))
    assert table_cell == (8, 5)
    table_near = {hex_to_offset(h) for h in neighbours(offset_to_hex(*table_cell))}
    assert {(8, 4), (9, 4)} <= table_near and (7, 4) not in table_near
    game_near = {hex_to_offset(h) for h in neighbours(offset_to_hex(0, 1))}
    assert {board.to_game(t) for t in table_near} - {None} == {
        c for c in game_near if c[0] >= 0 and c[1] >= 0
    }


def test_a_board_too_big_is_refused_with_both_sizes() -> None:
    with pytest.raises(PlacementError, match=r"the game's board is 24 x 18 cells but the table has 16 x 12"):
        placement(SMALL, Surface("cells", 24, 18))
    with pytest.raises(PlacementError, match=r"18 x 12 cells but the table has 16 x 12"):
        placement(SMALL, Surface("cells", 18, 12))
    with pytest.raises(PlacementError, match="whole columns and rows"):
        placement(SMALL, Surface("cells", 7.5, 6))


def test_cell_lights_fall_on_their_shifted_cell_and_off_board_ones_nowhere() -> None:
    board = placement(TABLE, Surface("cells", 8, 6))
    assert board.cells_of(cell_light((2, 3))) == [(13, 9)]
    assert board.cells_of(cell_light((8, 3))) == []
    with pytest.raises(PlacementError, match="played on hex cells"):
        board.cells_of(spot((1.0, 1.0), 1.0))


def test_an_inch_board_is_scaled_to_the_covered_rectangle_and_centred() -> None:
    # The 30 x 20 table's covered rectangle: x 1 .. 60 (59 in), y 0.577 .. 34.641 (34.064 in).
    assert TABLE.covered == pytest.approx((1.0, SIZE / 2, 60.0, HEIGHT - SIZE / 2))
    board = placement(TABLE, Surface("inches", 72, 48))
    scale = min(59 / 72, (HEIGHT - SIZE) / 48)  # 0.70966: the height decides
    assert board.scale == pytest.approx(scale) and board.scale == pytest.approx(0.70966, abs=1e-5)
    assert board.offset == pytest.approx((1.0 + (59 - 72 * scale) / 2, SIZE / 2))  # (4.952, 0.577)
    assert board.to_table_point((36, 24)) == pytest.approx((30.5, HEIGHT / 2))  # the table's middle
    assert board.to_game_point(board.to_table_point((3.0, 7.0))) == pytest.approx((3.0, 7.0))
    assert board.to_table((0, 0)) is None and board.to_game((0, 0)) is None
    wide = placement(TABLE, Surface("inches", 118, 20))  # the width decides: 59 / 118 = 0.5
    assert wide.scale == pytest.approx(0.5)
    assert wide.offset == pytest.approx((1.0, (HEIGHT - 10) / 2))


def test_a_spot_lights_the_cells_whose_centres_lie_in_its_disc() -> None:
    board = placement(TABLE, Surface("inches", 72, 48))
    # Cell (14, 9) (odd row): centre (2 * (14 + 1), HEIGHT - SIZE * (1 + 13.5)) = (30, 18.475) in.
    centre = TABLE.centre((14, 9))
    assert centre == pytest.approx((30.0, HEIGHT - 14.5 * SIZE))
    at = board.to_game_point(centre)
    assert board.cells_of(spot(at, 0.5)) == [(14, 9)]  # 0.35 table inches: the cell alone
    # Its six neighbours are 2.0 table inches away, the next ring 3.46: 2.05 table inches reach the seven.
    ring = board.cells_of(spot(at, 2.05 / board.scale))
    assert ring == sorted([(14, 9), (13, 9), (15, 9), (14, 8), (15, 8), (14, 10), (15, 10)])
    # The table's middle (30.5, 17.609) is 1.0 in from both (14, 9) and (15, 10): a 2-inch spot (1.42 table
    # inches) lights both; a tiny one lights neither centre, so the nearest: the tie goes to the first row.
    assert board.cells_of(spot((36, 24), 2.0)) == [(14, 9), (15, 10)]
    assert board.cells_of(spot((36, 24), 0.1)) == [(14, 9)]


def test_a_region_lights_the_cells_whose_centres_lie_inside() -> None:
    # A rectangle of the table, x 6.1 .. 11.9 in, between row 2's and row 3's centres (+-0.5 in): row 2 (even,
    # centres x = 2c + 1) gives c = 3, 4, 5 (x = 7, 9, 11); row 3 (odd, x = 2c + 2) gives c = 3, 4 (x = 8, 10;
    # c = 2 at x = 6 and c = 5 at x = 12 are outside).
    board = placement(TABLE, Surface("inches", 72, 48))
    y2, y3 = TABLE.centre((0, 2))[1], TABLE.centre((0, 3))[1]
    corners = [(6.1, y3 - 0.5), (11.9, y3 - 0.5), (11.9, y2 + 0.5), (6.1, y2 + 0.5)]
    outline = tuple(board.to_game_point(p) for p in corners)
    tiny = ((50.0, 30.0), (50.2, 30.0), (50.1, 30.1))  # game inches: no centre inside
    surface = Surface("regions", 72, 48, outlines={"north": outline, "pond": tiny})
    on_map = placement(TABLE, surface)
    expected = [(3, 2), (3, 3), (4, 2), (4, 3), (5, 2)]
    assert on_map.cells_of(Light.on_region("north", "won", GREEN, "steady")) == expected
    assert on_map.cells_of(Light.over_area(outline, "under_fire", RED, "flash")) == expected
    # The tiny region: the one cell nearest its centroid.
    centroid = on_map.to_table_point((50.1, 30.1 / 3 + 20.0))
    nearest = min(TABLE.cells(), key=lambda c: math.dist(TABLE.centre(c), centroid))
    assert on_map.cells_of(Light.on_region("pond", "lost", RED, "steady")) == [nearest]
    with pytest.raises(PlacementError, match="region 'lake', which the surface has no outline for"):
        on_map.cells_of(Light.on_region("lake", "won", GREEN, "steady"))
    with pytest.raises(PlacementError, match=r"a light on cell \(1, 1\) but the game is played on regions"):
        on_map.cells_of(cell_light((1, 1)))


def test_cells_of_is_cached_per_place_and_hands_out_copies() -> None:
    board = placement(TABLE, Surface("inches", 72, 48))
    first = board.cells_of(spot((10, 10), 3))
    first.append((0, 0))
    again = board.cells_of(Light.spot((10, 10), 3, "preview", GREEN, "steady", delay_ms=200))
    assert again == first[:-1] and (0, 0) not in again


# --- properties -------------------------------------------------------------------------------------------


@st.composite
def hex_boards(draw: st.DrawFn) -> tuple[Placement, int, int]:
    columns, rows = draw(st.integers(1, 30)), draw(st.integers(1, 20))
    width, height = draw(st.integers(1, columns)), draw(st.integers(1, rows))
    layout = Layout(columns=columns, rows=rows, leds_per_cell=1)
    return placement(layout, Surface("cells", width, height)), width, height


@settings(max_examples=60, deadline=None)
@given(hex_boards(), st.data())
def test_to_game_undoes_to_table_and_neighbours_stay_neighbours(
    board: tuple[Placement, int, int], data: st.DataObject
) -> None:
    p, width, height = board
    assert p.shift[1] % 2 == 0
    c, r = data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1))
    table_cell = p.to_table((c, r))
    assert table_cell is not None and p.to_game(table_cell) == (c, r)
    assert p.cells_of(cell_light((c, r))) == [table_cell]
    for h in neighbours(offset_to_hex(c, r)):
        near = p.to_table(hex_to_offset(h))
        if near is not None:
            assert near in {hex_to_offset(t) for t in neighbours(offset_to_hex(*table_cell))}
    mapped = [t for t in p.layout.cells() if p.to_game(t) is not None]
    assert len(mapped) == width * height


LAYOUTS = [TABLE, SMALL, Layout(columns=5, rows=1), Layout(columns=7, rows=9, cell_inches=3.25)]
points = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def inch_boards(draw: st.DrawFn) -> Placement:
    layout = draw(st.sampled_from(LAYOUTS))
    width, height = draw(st.floats(6.0, 120.0)), draw(st.floats(6.0, 120.0))
    return placement(layout, Surface("inches", width, height))


@settings(max_examples=80, deadline=None)
@given(inch_boards(), points, points, st.floats(0.01, 12.0))
def test_a_spot_lights_at_least_one_cell_all_within_its_radius_and_half_a_cell(
    board: Placement, u: float, v: float, radius: float
) -> None:
    at = (u * board.surface.width, v * board.surface.height)
    cells = board.cells_of(spot(at, radius))
    assert cells
    centre = board.to_table_point((round(at[0], 2), round(at[1], 2)))  # Light.spot keeps two decimals
    half = board.layout.cell_inches / math.sqrt(3.0)  # half a cell corner to corner: the farthest a point
    reach = round(radius, 2) * board.scale + half  # of a cell lies from its centre
    for cell in cells:
        assert math.dist(board.layout.centre(cell), centre) <= reach + 1e-6


@settings(max_examples=60, deadline=None)
@given(inch_boards(), st.lists(st.tuples(points, points), min_size=3, max_size=6))
def test_every_area_and_region_lights_at_least_one_cell(
    board: Placement, corners: list[tuple[float, float]]
) -> None:
    outline = tuple(
        (round(u * board.surface.width, 2), round(v * board.surface.height, 2)) for u, v in corners
    )
    assume(Polygon(outline).buffer(0).area > 1e-3)
    assert board.cells_of(Light.over_area(outline, "charge", GREEN, "steady"))
    regions = placement(
        board.layout, Surface("regions", board.surface.width, board.surface.height, {"r": outline})
    )
    assert regions.cells_of(Light.on_region("r", "won", GREEN, "steady"))


# --- every game's surface and lights on the ready tables ----------------------------------------------------

PLAYOUT_ACTIONS = 40


@pytest.mark.parametrize("game_name", [p.name for p in plugins() if p.table() is not None])
def test_every_games_lights_fall_on_table_cells(game_name: str) -> None:
    # A short seeded playout of each shipped scenario: at every step the spectator's surface is laid on the
    # 30 x 20 table, and every public light of the step lights a table cell (a cell light: its own cell).
    plugin = get_plugin(game_name)
    game, adapter = plugin.game, plugin.table()
    assert adapter is not None and isinstance(adapter, PhysicalTable)
    lit = 0
    for scenario in game.scenario_names():
        match = Match(game, game.load_scenario(scenario), SeededDice(3), 3)
        events = match.resolve_chance()
        rng = random.Random(3)
        for _ in range(PLAYOUT_ACTIONS):
            observation = game.observe(match.state, None)
            board = placement(TABLE, adapter.surface(observation))
            seat = game.to_move(match.state)
            movable = (
                adapter.options(game, match.state, seat)["movable"] if seat is not None and seat >= 0 else []
            )
            for light in adapter.lights(observation, visible_events(events, None), None, movable=movable):
                cells = board.cells_of(light)
                assert cells, (scenario, light, board)
                if light.cell is not None:
                    assert cells == [board.to_table(light.cell)]
                lit += 1
            if seat is None:
                break
            actions = game.legal_actions(match.state, seat)
            events = match.act(seat, actions[rng.randrange(len(actions))])
    assert lit > 0
