"""The game seam of a physical table: every game's adapter gives its surface and its public pieces.

Expectations are read by hand from the scenario and map files (cells, sizes), never from the adapter.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Polygon

import iwgt.games.warquest
from iwgt.core.protocol import ChanceOutcome
from iwgt.core.registry import get_plugin, plugins
from iwgt.core.table import PhysicalTable, Piece, Surface

MAPS = Path(iwgt.games.warquest.__file__).parent / "data" / "maps"


def _start(game_name: str, scenario: str) -> tuple[Any, Any, Any]:
    plugin = get_plugin(game_name)
    game = plugin.game
    return plugin, game, game.initial_state(game.load_scenario(scenario))


def _to_movement(game: Any, state: Any) -> Any:
    """Through deployment (each seat confirms its setup) and the first mover's roll, to the first movement."""
    while state.phase != "movement":
        seat = game.to_move(state)
        if seat is not None and seat < 0:
            state, _ = game.apply(state, ChanceOutcome(1))
            continue
        confirm = [a for a in game.legal_actions(state, seat) if game.action_to_json(a)["type"] == "confirm"]
        state, _ = game.apply(state, confirm[0])
    return state


def test_every_registered_games_adapter_is_a_physical_table() -> None:
    with_table = [p for p in plugins() if p.table() is not None]  # the example Pig has no table to lay out
    assert {"valkyrx", "valhalla", "anvil", "coloured-dice", "warquest"} <= {p.name for p in with_table}
    for plugin in with_table:
        assert isinstance(plugin.table(), PhysicalTable), plugin.name


# first_battle.toml: 8 x 6 cells; the Light (seat 0) and the Darkness (seat 1) at these cells, in file order.
FIRST_BATTLE = [
    Piece(0, (3, 0), 0, "Wulfgeldre Warrior Wizard"),
    Piece(1, (6, 0), 0, "The Grima (of the mask)"),
    Piece(2, (3, 1), 0, "Swordsmen of Mynsterlif"),
    Piece(3, (5, 1), 0, "Archers of Mynsterlif"),
    Piece(4, (4, 5), 1, "Ellorgast - Necromancer"),
    Piece(5, (3, 4), 1, "Wearg Warriors"),
    Piece(6, (5, 4), 1, "Wearg archers"),
    Piece(7, (2, 5), 1, "Lefan Bealocraeft"),
    Piece(8, (2, 4), 1, "Cave Troll"),
]


def test_hex_game_surface_and_pieces_of_a_known_scenario() -> None:
    plugin, game, state = _start("valkyrx", "first_battle")
    adapter = plugin.table()
    obs = game.observe(state, None)
    assert adapter.surface(obs) == Surface("cells", 8, 6)
    assert adapter.pieces(obs) == FIRST_BATTLE


def test_a_hidden_unit_is_never_a_piece_not_even_for_its_owner() -> None:
    plugin, game, state = _start("valkyrx", "first_battle")
    state = _to_movement(game, state)
    conceal = next(a for a in game.legal_actions(state, 0) if game.action_to_json(a)["type"] == "conceal")
    assert game.action_to_json(conceal)["unit"] == 1  # the Grima
    state, _ = game.apply(state, conceal)
    adapter = plugin.table()
    others = [p for p in FIRST_BATTLE if p.unit != 1]
    spectator = game.observe(state, None)
    assert next(u for u in spectator["units"] if u["id"] == 1)["cell"] is None
    assert adapter.pieces(spectator) == others
    # Her owner's observation gives her cell, but her miniature is off the table while she is hidden.
    owner = game.observe(state, 0)
    assert next(u for u in owner["units"] if u["id"] == 1)["cell"] == [6, 0]
    assert adapter.pieces(owner) == others


def test_units_in_reserve_or_removed_are_not_pieces() -> None:
    plugin, game, state = _start("valkyrx", "reinforcements")
    adapter = plugin.table()
    obs = game.observe(state, None)
    late = [u["id"] for u in obs["units"] if u["arrives"] is not None]
    assert late and all(u["status"] == "reserve" for u in obs["units"] if u["id"] in late)
    pieces = adapter.pieces(obs)
    # reinforcements.toml: six Light units and the Darkness's standing units have cells; late troops none.
    assert {p.unit for p in pieces} == {u["id"] for u in obs["units"] if u["id"] not in late}
    assert [(p.cell, p.seat) for p in pieces[:6]] == [
        ((5, 1), 0), ((7, 1), 0), ((9, 1), 0), ((6, 0), 0), ((8, 0), 0), ((3, 1), 0),
    ]  # fmt: skip
    # A unit destroyed (or fled) keeps its last cell in the state, but its piece has come off the table.
    units = list(state.units)
    units[0] = replace(units[0], status="destroyed")
    units[1] = replace(units[1], status="fled")
    gone = adapter.pieces(game.observe(replace(state, units=tuple(units)), None))
    assert {p.unit for p in gone} == {p.unit for p in pieces} - {0, 1}


def test_a_commanded_piece_belongs_to_the_seat_that_moves_it() -> None:
    plugin, game, state = _start("valkyrx", "first_battle")
    units = list(state.units)
    units[5] = replace(units[5], controller=0)  # the Wearg Warriors under the Light's Command spell
    pieces = plugin.table().pieces(game.observe(replace(state, units=tuple(units)), None))
    assert next(p for p in pieces if p.unit == 5) == Piece(5, (3, 4), 0, "Wearg Warriors")


@pytest.mark.parametrize(
    ("game_name", "scenario", "size"),
    [
        ("anvil", "skirmish", (36.0, 36.0)),  # anvil/scenarios/skirmish.toml: width = 36, height = 36
        ("coloured-dice", "skirmish", (36.0, 24.0)),  # coloured_dice/scenarios/skirmish.toml: 36 x 24
        ("valhalla", "skirmish", (36.0, 24.0)),  # valhalla/scenarios/skirmish.toml: 36 x 24
    ],
)
def test_inch_games_give_their_table_in_inches_and_no_pieces(
    game_name: str, scenario: str, size: tuple[float, float]
) -> None:
    plugin, game, state = _start(game_name, scenario)
    adapter = plugin.table()
    for seat in (None, 0, 1):
        obs = game.observe(state, seat)
        assert adapter.surface(obs) == Surface("inches", *size)
        assert adapter.pieces(obs) == []


def test_the_region_game_gives_its_regions_outlines_in_inches_and_no_pieces() -> None:
    plugin, game, state = _start("warquest", "duel")
    adapter = plugin.table()
    obs = game.observe(state, None)
    surface = adapter.surface(obs)
    # duel.toml: map = "marches"; maps/marches.toml: width = 24, height = 20.
    assert (surface.kind, surface.width, surface.height) == ("regions", 24.0, 20.0)
    with (MAPS / "marches.toml").open("rb") as f:
        assert set(surface.outlines) == set(tomllib.load(f)["regions"])  # its 24 regions
    # The outlines tile the board: each inside it, none overlapping, their areas summing to 24 x 20.
    polygons = {rid: Polygon(points) for rid, points in surface.outlines.items()}
    board = Polygon([(0, 0), (24, 0), (24, 20), (0, 20)])
    assert all(p.is_valid and board.buffer(1e-3).contains(p) for p in polygons.values())
    assert sum(p.area for p in polygons.values()) == pytest.approx(24 * 20, abs=0.05)
    first, *rest = polygons.values()
    assert all(first.intersection(p).area < 1e-6 for p in rest)
    assert adapter.pieces(obs) == []


def _movement_selections(scenario: str, seed: int, steps: int) -> list[dict[str, Any]]:
    """Every selection of a movable unit over a seeded random playout's movement steps."""
    plugin, game, state = _start("valkyrx", scenario)
    adapter = plugin.table()
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        seat = game.to_move(state)
        if seat is None:
            break
        if seat < 0:
            state, _ = game.apply(state, ChanceOutcome(1))
            continue
        if state.phase == "movement":
            out += [
                adapter.selection(game, state, seat, u) for u in adapter.options(game, state, seat)["movable"]
            ]
        state, _ = game.apply(state, rng.choice(list(game.legal_actions(state, seat))))
    return out


def test_the_hex_selection_gives_each_move_its_cell_and_action_the_default_first() -> None:
    """The bridge plays the first move whose ``to`` is the cell a piece was put on: it must be what the
    cell's light promised (charge over walk over flight) and never a prayer unless that is the only move."""
    light_kind = {"charge": "charge", "destination": "walk", "fly": "fly"}
    shared = 0
    for scenario, seed in (("first_battle", 1), ("skirmish", 1)):
        for sel in _movement_selections(scenario, seed, 130):
            lit = {tuple(x["cell"]): x["effect"] for x in sel["lights"] if x["effect"] in light_kind}
            by_cell: dict[tuple[int, int], list[dict[str, Any]]] = {}
            for m in sel["moves"]:
                assert m["action"]["unit"] == sel["unit"] and m["action"]["to"] == m["to"]
                by_cell.setdefault(tuple(m["to"]), []).append(m)
            assert set(by_cell) == set(lit)
            for cell, moves in by_cell.items():
                kinds = [m["kind"] for m in moves]
                shared += len(kinds) > 1
                first = "walk" if kinds[0] == "pray" and "walk" not in kinds else kinds[0]
                assert kinds[0] != "pray" or kinds == ["pray"], (cell, kinds)
                assert first == light_kind[lit[cell]], (cell, kinds, lit[cell])
    assert shared > 0  # cells reached by two kinds of move were seen (charge and walk, walk and prayer)


def test_a_surface_is_hashable_and_compares_its_outlines() -> None:
    square = {"a": ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))}
    with_outline = Surface("regions", 1.0, 1.0, square)
    assert with_outline == Surface("regions", 1.0, 1.0, dict(square))
    assert with_outline != Surface("regions", 1.0, 1.0)
    assert len({with_outline, Surface("regions", 1.0, 1.0, dict(square))}) == 1
