"""A physical table's frame of a known position, by hand: the movable pieces, a held piece's destinations, a
refusal, divergent cells, identify; the order of urgency; and an inch game's spots on the same table.

The position (tests/games/valkyrx/kit.py): a 12 x 9 board, the Light's Guardsmen (unit 0) at [3, 6], the
Darkness's Wearg Warriors (unit 1) at [3, 3], the Light to move. On the 16 x 12 table the board is centred:
columns shifted by (16 - 12) // 2 = 2, rows by (12 - 9) // 2 = 1 rounded down to an even 0 (odd-r parity), so
game cell (c, r) is table cell (c + 2, r).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.valkyrx.kit import position

import iwgt.hardware
from iwgt.core.chance import SeededDice
from iwgt.core.lights import AMBER, BLUE, GREEN, ORANGE, RED, SKY, WHITE
from iwgt.core.match import Match
from iwgt.core.registry import get_plugin
from iwgt.games.valkyrx.events import UnitRemoved
from iwgt.geometry.hexgrid import distance, offset_to_hex
from iwgt.hardware.frames import (
    HARDWARE_EFFECTS,
    HARDWARE_PALETTE,
    Overlay,
    held_lights,
    public_lights,
    table_frame,
)
from iwgt.hardware.layout import load_layout
from iwgt.hardware.places import placement
from iwgt.hardware.protocol import FrameLight
from iwgt.hardware.reconcile import Divergent

PLUGIN = get_plugin("valkyrx")
GAME = PLUGIN.game
LAYOUT = load_layout(Path(iwgt.hardware.__file__).parent / "data" / "table-16x12.toml")
STATE = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
PLACE = placement(LAYOUT, PLUGIN.table().surface(GAME.observe(STATE, None)))


def frame(overlay: Overlay, state: Any = STATE) -> list[FrameLight]:
    return table_frame(PLUGIN, GAME, state, [], PLACE, overlay)


def light(cell: tuple[int, int], effect: str, colour: str, pattern: str = "steady") -> FrameLight:
    return FrameLight(cell=cell, effect=effect, colour=colour, pattern=pattern)


def test_the_board_sits_where_the_module_docstring_says() -> None:
    assert PLACE.to_table((3, 6)) == (5, 6) and PLACE.to_table((0, 0)) == (2, 0)


def test_nothing_in_the_air_lights_the_movers_movable_pieces_alone() -> None:
    # The Guardsmen may move (white, VX-14-02); the Wearg are not the mover's: no light.
    assert frame(Overlay()) == [light((5, 6), "movable", WHITE)]


def test_a_held_piece_lights_its_destinations_its_target_and_itself() -> None:
    lit = frame(Overlay(held=(0, 0)))
    assert lit[0] == light((5, 6), "movable", WHITE)  # least urgent first
    assert lit[-1] == light((5, 6), "selected", BLUE)  # the piece in the air, most urgent
    assert light((5, 3), "preview", AMBER) in lit  # the Wearg, whom a charge would strike
    green = {x.cell for x in lit if x.effect == "destination"}
    amber = {x.cell for x in lit if x.effect == "charge"}
    # Walking, the Guardsmen reach every cell within 2 of [3, 6] (18 cells, all on the board); those next to
    # the Wearg ([3, 4] and [4, 4]) light amber: a charge. A charge (3 cells) also reaches [2, 3] round the
    # Wearg's flank by [2, 5], [2, 4]; [4, 3] is 3 away too, but only through [3, 4] or [4, 4], where a move
    # into contact stops.
    within_2 = {
        (c + 2, r)
        for c in range(12)
        for r in range(9)
        if 0 < distance(offset_to_hex(c, r), offset_to_hex(3, 6)) <= 2
    }
    assert len(within_2) == 18
    assert amber == {(5, 4), (6, 4), (4, 3)}
    assert green == within_2 - amber
    assert all(x.colour == GREEN for x in lit if x.effect == "destination")
    assert [x.effect for x in lit if x.effect in ("destination", "charge", "preview", "selected")] == (
        ["destination"] * 16 + ["charge"] * 3 + ["preview", "selected"]
    )


def test_held_lights_give_the_moves_to_play_and_the_note() -> None:
    lights, moves, note = held_lights(PLUGIN, GAME, STATE, 0, 0)
    assert {(x.cell, x.effect) for x in lights} >= {((3, 6), "selected"), ((3, 4), "charge")}
    assert note is None
    to_34 = [m for m in moves if m["to"] == [3, 4]]
    # Two moves end on [3, 4]: a charge and a walk (a deferred contact). The charge comes first: it is what
    # the cell's amber light promised, and the bridge plays the first move to the cell a piece is put on.
    assert [m["action"] for m in to_34] == [
        {"type": "move", "unit": 0, "to": [3, 4], "charge": True},
        {"type": "move", "unit": 0, "to": [3, 4]},
    ]
    # The Wearg, lifted by their seat out of turn: nothing lights, and the note says why.
    assert held_lights(PLUGIN, GAME, STATE, 1, 1) == (
        [],
        [],
        "Wearg Warriors cannot move now: it is not your turn to act.",
    )
    assert frame(Overlay(held=(1, 1))) == frame(Overlay())


def test_a_refusal_divergence_and_identify_come_above_every_game_light() -> None:
    overlay = Overlay(
        held=(0, 0),
        refusal=((9, 7), "the Guardsmen cannot reach that cell"),
        divergent=(
            Divergent((5, 6), "piece", 0, "Guardsmen"),  # the Guardsmen's cell, sensed empty
            Divergent((9, 7), "empty"),  # the refused cell's piece: the red light says it already
            Divergent((1, 1), "tag", 1, "Wearg Warriors"),
            Divergent((2, 2), "empty"),
        ),
        identify=((0, 0),),
    )
    lit = frame(overlay)
    game_part = frame(Overlay(held=(0, 0)))
    assert lit == [
        *game_part,
        light((9, 7), "illegal", RED),
        light((5, 6), "piece_missing", SKY, "pulse"),
        light((1, 1), "piece_extra", ORANGE, "flash"),
        light((2, 2), "piece_extra", ORANGE, "flash"),
        light((0, 0), "identify", WHITE, "flash"),
    ]
    assert HARDWARE_EFFECTS == ("piece_missing", "piece_extra", "identify")
    assert dict(HARDWARE_PALETTE) == {"piece_missing": SKY, "piece_extra": ORANGE, "identify": WHITE}


def test_a_refusal_keeps_the_illegal_rank_among_the_games_effects() -> None:
    # The Wearg removed in the last step (a red flash, VX-14-10) is more urgent than the piece in the air;
    # "illegal", the last of the shared order, more urgent still; the table's own effects above all.
    events = [UnitRemoved(unit=1, why="destroyed")]
    overlay = Overlay(held=(0, 0), refusal=((9, 7), "no"), divergent=(Divergent((5, 6), "piece", 0),))
    lit = table_frame(PLUGIN, GAME, STATE, events, PLACE, overlay)
    assert [x.effect for x in lit][-4:] == ["selected", "destroyed", "illegal", "piece_missing"]
    assert lit[-3] == light((5, 3), "destroyed", RED, "flash")


def test_an_inch_game_without_secrets_lights_its_movable_figures_on_the_tables_cells() -> None:
    plugin = get_plugin("valhalla")
    game = plugin.game
    match = Match(game, game.load_scenario("skirmish"), SeededDice(1), 1)
    match.resolve_chance()
    while not plugin.table().options(game, match.state, seat := game.to_move(match.state))["movable"]:
        match.act(seat, game.legal_actions(match.state, seat)[0])
    state = match.state
    observation = game.observe(state, None)
    place = placement(LAYOUT, plugin.table().surface(observation))
    spots = public_lights(plugin, game, state, [])
    movable = [x for x in spots if x.effect == "movable"]
    assert movable and all(x.place == "spot" for x in movable)
    lit = table_frame(plugin, game, state, [], place, Overlay())
    # Each figure's spot lights the table cells under it (at least one each), white and steady.
    for spot in movable:
        cells = place.cells_of(spot)
        assert cells and all(light(c, "movable", WHITE) in lit for c in cells)
    assert {x.cell for x in lit if x.effect == "movable"} <= set(LAYOUT.cells())
