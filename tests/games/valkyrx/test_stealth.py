"""Stealth characters (section 12): the Grima hunting unseen, the Sand Worm underground.

Decisions (issue3-spec "Stealth"): the Grima hides as her move, the table moves her up to her charge allowance
(3) after her quarry at the end of the movement phase, ignoring units but not impassable ground, and beside it
she emerges and a d2 decides (2: the quarry dies). The worm burrows as its move, tunnels up to 6 cells once
a phase, surfaces with a d12 (1-6 on the aimed cell, 7-12 on the neighbour in direction face-7), swallows a
character whole or 100 men of a body unit, friend or foe, and dies at the end of its third turn on the
surface.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import ChanceOutcome, Event, visible_events
from iwgt.games.valkyrx.actions import (
    Conceal,
    EndPhase,
    Move,
    Reveal,
    SetQuarry,
    Surface,
    Tunnel,
)
from iwgt.games.valkyrx.events import (
    GrimaStruck,
    HiddenMove,
    QuarryChosen,
    UnitConcealed,
    UnitRemoved,
    UnitRevealed,
    WormSurfaced,
)
from iwgt.games.valkyrx.state import Contact, Enchantment, ValkyrxState
from iwgt.geometry.hexgrid import hex_to_offset

from .kit import GAME, cell, end_movement, next_turn, position, turn_over, tweak


def finish_turn(state: ValkyrxState, factor: int = 50) -> tuple[ValkyrxState, list[Event]]:
    """End every phase and answer every die (random factors ``factor``, others 1) until the turn is over."""
    events: list[Event] = []
    while not turn_over(state):
        if state.pending:
            face = factor if state.pending[0].kind == "factor" else 1
            state, more = GAME.apply(state, ChanceOutcome(face))
        else:
            state, more = GAME.apply(state, EndPhase())
        events.extend(more)
    return state, events


def view(state: ValkyrxState, uid: int, seat: int | None) -> dict[str, Any]:
    unit: dict[str, Any] = GAME.observe(state, seat)["units"][uid]
    return unit


def at(state: ValkyrxState, uid: int) -> tuple[int, int]:
    return hex_to_offset(state.units[uid].cell)


def refused(state: ValkyrxState, action: Any, match: str) -> str:
    """The action raises IllegalAction and leaves the state as it was; the message is returned."""
    before = GAME.state_to_json(state)
    with pytest.raises(IllegalAction, match=match) as err:
        GAME.apply(state, action)
    assert GAME.state_to_json(state) == before
    return str(err.value)


# --- the Grima ------------------------------------------------------------------------------------------


def hunt(quarry: str = "giant_spider", at_cell: tuple[int, int] = (3, 4), **kw: Any) -> ValkyrxState:
    """L0 the Grima at (0,4), L1 Môdrôf at (0,8); D2 the quarry; D3 Wearg Warriors (11,8). Seat 0 moves."""
    return position(
        [("grima", (0, 4)), ("modrof", (0, 8))],
        [(quarry, at_cell), ("wearg_warriors", (11, 8))],
        **kw,
    )


def test_vx_12_01_the_grima_starts_on_the_table() -> None:
    state = hunt()
    grima = state.units[0]
    assert grima.on_table and not grima.hidden
    assert view(state, 0, 1)["cell"] == [0, 4]  # the enemy sees her at first
    assert Conceal(0) in GAME.legal_actions(state, 0)


def test_vx_12_02_05_06_conceal_is_her_move_and_hides_her_from_the_enemy() -> None:
    state = hunt()
    state, events = GAME.apply(state, Conceal(0))
    grima = state.units[0]
    assert grima.hidden and not grima.on_table and grima.moved
    assert events == [UnitConcealed(0)]  # the enemy sees her vanish, nothing more
    refused(state, Move(0, cell(1, 4)), "she is hidden: the table moves her")  # it was her move
    refused(state, Conceal(0), "already hidden")
    state, events = GAME.apply(state, SetQuarry(0, 2))
    assert events == [QuarryChosen(0, 0, 2)]
    assert visible_events(events, 0) == events
    assert visible_events(events, 1) == [] and visible_events(events, None) == []  # VX-12-05
    enemy = view(state, 0, 1)
    assert enemy["cell"] is None and enemy["moved"] is None and enemy["hidden"] is True
    assert "quarry" not in enemy
    assert "quarry" not in view(state, 0, None)  # nor a spectator
    mine = view(state, 0, 0)
    assert mine["cell"] == [0, 4] and mine["quarry"] == 2 and mine["moved"] is True


def test_vx_12_02_a_grima_who_has_moved_or_is_locked_cannot_hide() -> None:
    state = hunt()
    moved, _ = GAME.apply(state, Move(0, cell(1, 4)))
    refused(moved, Conceal(0), "cannot hide now: it has already moved")
    # D2 the Spider at (1,4), beside her at (0,4), no round fought yet: she is locked (VX-04-11).
    locked = hunt(at_cell=(1, 4))
    msg = refused(locked, Conceal(0), "cannot hide now: it is locked in close combat")
    assert "Giant Spider" in msg or "Lâf" in msg
    assert Conceal(0) not in GAME.legal_actions(locked, 0)


def test_vx_12_03_vx_13_grima_1_the_quarry_is_an_enemy_character_on_the_table() -> None:
    state = hunt(quarry="unsibb")  # any enemy character, however mighty (VX-13-GRIMA-1)
    orders = [a for a in GAME.legal_actions(state, 0) if isinstance(a, SetQuarry)]
    assert orders == [SetQuarry(0, 2)]  # not Môdrôf (a friend), not the Wearg Warriors (a body unit)
    refused(state, SetQuarry(0, 1), "enemy character on the table")
    refused(state, SetQuarry(0, 3), "enemy character on the table")
    gone = tweak(state, 2, status="destroyed")
    refused(gone, SetQuarry(0, 2), "enemy character on the table")
    refused(state, SetQuarry(0, 99), "no unit 99")
    # The quarry may be named while she is still in sight, and changed later.
    state, _ = GAME.apply(state, SetQuarry(0, 2))
    assert state.units[0].quarry == 2


def test_vx_12_05_the_quarry_order_is_a_secret_order() -> None:
    action = SetQuarry(0, 2)
    assert GAME.action_view(action, 0, 1) == {"type": "secret_order"}
    assert GAME.action_view(action, 0, None) == {"type": "secret_order"}
    assert GAME.action_view(action, 0, 0) == {"type": "quarry", "unit": 0, "target": 2}
    assert GAME.action_view(Conceal(0), 0, 1) == {"type": "conceal", "unit": 0}  # her vanishing is seen


def hidden_hunt(at_cell: tuple[int, int], **kw: Any) -> ValkyrxState:
    """The Grima already hidden at (0,4) (not yet moved this turn) with D2 the Giant Spider as quarry."""
    state = hunt(at_cell=at_cell, **kw)
    return tweak(state, 0, hidden=True, quarry=2)


def test_vx_12_04_pursuit_moves_her_3_cells_unseen_through_units() -> None:
    # D4 Spider at (6,4), 6 cells east. L2 Guardsmen (1,4) and L3 Swordsmen (2,4) wall the straight way.
    # Ignoring units, 3 steps east reach (3,4), 3 cells from the Spider. Were the units to block her,
    # (3,4) would need 4 steps ((0,4)-(0,3)-(1,3)-(2,3)-(3,4)) and she would end 4 cells away.
    state = position(
        [("grima", (0, 4)), ("modrof", (0, 8)), ("guardsmen", (1, 4)), ("swordsmen", (2, 4))],
        [("giant_spider", (6, 4)), ("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 0, hidden=True, quarry=4)
    state, events = end_movement(state)
    assert at(state, 0) == (3, 4) and state.units[0].hidden
    assert HiddenMove(0, 0, (0, 4), (3, 4)) in events
    assert not [e for e in visible_events(events, 1) if isinstance(e, HiddenMove)]  # VX-12-06
    assert not [p for p in state.pending if p.kind == "grima"]  # 3 cells off: no strike yet
    assert view(state, 0, 1)["cell"] is None


def test_vx_12_04_pursuit_does_not_cross_impassable_ground() -> None:
    # Spider at (4,4); (3,4) impassable. The cells beside the Spider that she could reach in 3 are only
    # (3,4): (3,3) and (3,5) are 4 from (0,4). So she cannot strike; the cell nearest the Spider within 3,
    # cheapest first, is (2,4) (2 steps, 2 from the Spider; (2,3) and (2,5) are also 2 away but 3 steps).
    state = hidden_hunt((4, 4), terrain=[("impassable", [(3, 4)])])
    state, events = end_movement(state)
    assert at(state, 0) == (2, 4) and state.units[0].hidden
    assert HiddenMove(0, 0, (0, 4), (2, 4)) in events
    assert not [p for p in state.pending if p.kind == "grima"]


def test_vx_12_04_07_she_stops_beside_her_quarry_and_strikes_face_2_kills() -> None:
    # Spider at (3,4), 3 cells away. She stops next to it at (2,4) (2 steps; she does not step onto the
    # Spider's own cell), emerges there, her own cell being free, and a d2 is rolled.
    state = hidden_hunt((3, 4))
    state, events = end_movement(state)
    assert HiddenMove(0, 0, (0, 4), (2, 4)) in events
    assert UnitRevealed(0, (2, 4)) in events
    assert at(state, 0) == (2, 4) and state.units[0].on_table
    assert [(p.kind, p.unit, p.sides) for p in state.pending] == [("grima", 0, 2)]
    killed, events = GAME.apply(state, ChanceOutcome(2))
    assert GrimaStruck(0, 2, True) in events and UnitRemoved(2, "slain by the Grima") in events
    assert killed.units[2].status == "destroyed"
    assert killed.units[0].quarry is None


def test_vx_12_07_face_1_she_stands_revealed_in_contact() -> None:
    state = hidden_hunt((3, 4))
    state, _ = end_movement(state)
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert GrimaStruck(0, 2, False) in events
    assert state.units[2].on_table and state.units[2].strength == 1.0
    grima = state.units[0]
    assert grima.on_table and not grima.hidden and at(state, 0) == (2, 4)
    contact = state.contact(0, 2)
    assert contact is not None and not contact.deferred  # they fight in this combat round
    assert view(state, 0, 1)["cell"] == [2, 4]


def test_vx_12_07_she_emerges_on_the_free_cell_beside_the_quarry_nearest_her() -> None:
    # D3 Spider at (3,4); her stopping cell (2,4) (1 from the Spider, 2 steps: the cheapest such cell) is
    # held by L2 Guardsmen. Free neighbours of (3,4): (4,4), (2,3), (3,3), (2,5), (3,5). Of these, (2,3) and
    # (2,5) are next to (2,4) (whose neighbours are (3,4),(1,4),(1,3),(2,3),(1,5),(2,5)); the rest are 2
    # away. Board order (row by row) puts (2,3) first.
    state = position(
        [("grima", (0, 4)), ("modrof", (0, 8)), ("guardsmen", (2, 4))],
        [("giant_spider", (3, 4)), ("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 0, hidden=True, quarry=3)
    state, events = end_movement(state)
    assert UnitRevealed(0, (2, 3)) in events
    assert [p.kind for p in state.pending] == ["grima"]


def test_vx_12_07_no_free_cell_beside_the_quarry_she_waits_unseen() -> None:
    # D8 Spider at (3,4) ringed by six Light units on (4,4),(2,4),(2,3),(3,3),(2,5),(3,5). She ends her
    # pursuit at (2,4) (1 from the Spider, 2 steps, unseen among her friends) but cannot emerge: no die.
    ring = [(4, 4), (2, 4), (2, 3), (3, 3), (2, 5), (3, 5)]
    kinds = ["guardsmen", "swordsmen", "spearmen", "archers", "dwarfs", "knights_of_fire"]
    state = position(
        [("grima", (0, 4)), ("modrof", (0, 8)), *zip(kinds, ring, strict=True)],
        [("giant_spider", (3, 4)), ("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 0, hidden=True, quarry=8)
    state, events = end_movement(state)
    assert HiddenMove(0, 0, (0, 4), (2, 4)) in events
    assert state.units[0].hidden and state.units[0].quarry == 8
    assert not [p for p in state.pending if p.kind == "grima"]
    assert not [e for e in events if isinstance(e, UnitRevealed)]


def test_vx_sp_shield_3_a_shielded_quarry_survives_her_strike() -> None:
    # D2 Ellorgast under his own Shield (cast this turn, in force turns 1..3): face 2 does not kill.
    state = position(
        [("grima", (0, 4)), ("modrof", (0, 8))],
        [("ellorgast", (3, 4)), ("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 0, hidden=True, quarry=2)
    shield = Enchantment("shield", caster=2, side=1, cast_turn=1, first=1, last=3, units=(2,))
    state = replace(state, enchantments=(shield,))
    state, _ = end_movement(state)
    state, events = GAME.apply(state, ChanceOutcome(2))
    assert GrimaStruck(0, 2, False) in events
    assert state.units[2].on_table


def test_vx_12_02_reveal_brings_her_back_as_her_move() -> None:
    state = hunt()
    state = tweak(state, 0, hidden=True)  # hidden since an earlier turn, not yet moved this turn
    assert Reveal(0) in GAME.legal_actions(state, 0)
    shown, events = GAME.apply(state, Reveal(0))
    assert events == [UnitRevealed(0, (0, 4))]
    assert shown.units[0].on_table and shown.units[0].moved
    assert view(shown, 0, 1)["cell"] == [0, 4]
    refused(shown, Reveal(0), "not hidden")
    # Concealed this very turn: she has moved, she cannot come back before next turn.
    hid, _ = GAME.apply(hunt(), Conceal(0))
    refused(hid, Reveal(0), "already moved this turn")
    # Her hidden cell taken by L2 Guardsmen: the nearest free cell; the six at 1 from (2,4) are
    # (3,4),(1,4),(1,3),(2,3),(1,5),(2,5); row 3 comes first in board order, and (1,3) before (2,3).
    crowded = position(
        [("grima", (0, 4)), ("modrof", (0, 8)), ("guardsmen", (2, 4))],
        [("giant_spider", (9, 4)), ("wearg_warriors", (11, 8))],
    )
    crowded = tweak(crowded, 0, hidden=True, cell=cell(2, 4))
    shown, events = GAME.apply(crowded, Reveal(0))
    assert events == [UnitRevealed(0, (1, 3))]


def test_vx_12_03_a_quarry_that_leaves_the_table_is_lost() -> None:
    # D2 the Spider is slain by other hands: at the end of the movement phase she does not move and her
    # quarry is forgotten; she waits for a new one.
    state = tweak(hidden_hunt((6, 4)), 2, status="destroyed", strength=0.0)
    state, events = end_movement(state)
    assert at(state, 0) == (0, 4) and state.units[0].hidden
    assert not [e for e in events if isinstance(e, HiddenMove)]
    assert state.units[0].quarry is None
    assert view(state, 0, 0)["quarry"] is None


# --- the Sand Worm --------------------------------------------------------------------------------------


def worm_position(
    light: list[tuple[str, tuple[int, int]]], worm_at: tuple[int, int] = (3, 4)
) -> ValkyrxState:
    """The Light's units, then D<n> the Sand Worm and D<n+1> Wearg Warriors (11,8); the Darkness moves."""
    return position(light, [("sand_worm", worm_at), ("wearg_warriors", (11, 8))], first=1)


def test_vx_12_08_the_worm_burrows_even_when_locked_in_contact() -> None:
    # L0 Guardsmen at (2,4), beside the worm D1 at (3,4), in contact (fought no round yet: locked).
    state = worm_position([("guardsmen", (2, 4))])
    state = replace(state, contacts=(Contact(0, 1),))
    assert Conceal(1) in GAME.legal_actions(state, 1)
    state, events = GAME.apply(state, Conceal(1))
    worm = state.units[1]
    assert worm.hidden and worm.moved and not worm.on_table
    assert state.contacts == ()  # it vanished underground
    assert events == [UnitConcealed(1)]
    assert view(state, 1, 0)["cell"] is None and view(state, 1, 1)["cell"] == [3, 4]


def test_vx_12_08_tunnel_up_to_6_cells_a_private_order_once_a_phase() -> None:
    state = worm_position([("guardsmen", (0, 0))], worm_at=(0, 4))
    state = tweak(state, 1, hidden=True)
    msg = refused(state, Tunnel(1, cell(7, 4)), "at most 6 cells")  # (0,4) to (7,4): 7 cells
    assert "6" in msg
    state, events = GAME.apply(state, Tunnel(1, cell(6, 4)))  # 6 cells east: allowed
    assert at(state, 1) == (6, 4) and state.units[1].hidden
    assert events == [HiddenMove(1, 1, (0, 4), (6, 4))]
    assert visible_events(events, 0) == [] and visible_events(events, 1) == events
    assert view(state, 1, 0)["cell"] is None
    assert GAME.action_view(Tunnel(1, cell(6, 4)), 1, 0) == {"type": "secret_order"}
    assert GAME.action_view(Tunnel(1, cell(6, 4)), 1, 1) == {"type": "tunnel", "unit": 1, "to": [6, 4]}
    refused(state, Tunnel(1, cell(7, 4)), "already moved this turn")  # once a phase
    refused(state, Surface(1, cell(7, 4)), "already moved this turn")


def test_vx_12_09_surface_aims_within_6_cells() -> None:
    state = tweak(worm_position([("guardsmen", (0, 0))], worm_at=(0, 4)), 1, hidden=True)
    refused(state, Surface(1, cell(7, 4)), "at most 6 cells")
    state, events = GAME.apply(state, Surface(1, cell(6, 4)))
    assert events == []  # nothing is told before the die
    assert [(p.kind, p.unit, p.sides) for p in state.pending] == [("worm", 1, 12)]
    assert view(state, 1, 0)["cell"] is None  # still unseen while the die is awaited


# d12 face -> where the worm comes up when aiming at (6,4) (an even row): 1-6 the aimed cell; 7-12 the
# neighbour in DIRECTIONS[face - 7] = E (1,0), NE (1,-1), NW (0,-1), W (-1,0), SW (-1,1), SE (0,1) axial,
# i.e. on an even row: (7,4), (6,3), (5,3), (5,4), (5,5), (6,5).
NAVIGATION = [(f, (6, 4)) for f in range(1, 7)] + [
    (7, (7, 4)),
    (8, (6, 3)),
    (9, (5, 3)),
    (10, (5, 4)),
    (11, (5, 5)),
    (12, (6, 5)),
]


@pytest.mark.parametrize(("face", "where"), NAVIGATION)
def test_vx_12_10_the_d12_decides_where_it_comes_up(face: int, where: tuple[int, int]) -> None:
    state = tweak(worm_position([("guardsmen", (0, 0))], worm_at=(3, 4)), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(face))
    assert events == [WormSurfaced(1, (6, 4), where, None, 0.0)]
    worm = state.units[1]
    assert worm.on_table and at(state, 1) == where and worm.surface_turns == 0
    assert view(state, 1, 0)["cell"] == list(where)


def test_vx_12_10_off_the_board_it_comes_up_on_the_aimed_cell() -> None:
    # Aimed at (11,4), the east edge of the 12-wide board: face 7 (east) would be (12,4), off the board.
    state = tweak(worm_position([("guardsmen", (0, 0))], worm_at=(6, 4)), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(11, 4)))
    state, _ = GAME.apply(state, ChanceOutcome(7))
    assert at(state, 1) == (11, 4)


def test_vx_12_11_13_sandworm_1_a_body_unit_loses_100_men_the_worm_comes_up_beside() -> None:
    # L0 Guardsmen 300 at (6,4); face 3 on target: 300 - 100 = 200 left. The worm comes up on the free cell
    # nearest (6,4): its six neighbours are 1 away, and board order (row 3 first) gives (5,3).
    state = tweak(worm_position([("guardsmen", (6, 4))]), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(3))
    assert events == [WormSurfaced(1, (6, 4), (5, 3), 0, 100.0)]
    assert state.units[0].strength == pytest.approx(200.0)
    assert state.units[0].casualties_turn == pytest.approx(100.0)
    assert at(state, 1) == (5, 3)


def test_vx_12_11_a_character_is_swallowed_whole() -> None:
    # L0 Grondul (a character, not immune to anything) at (6,4): destroyed; the cell is free, the worm
    # comes up on it.
    state = tweak(worm_position([("grondul", (6, 4)), ("guardsmen", (0, 0))]), 2, hidden=True)
    state, _ = GAME.apply(state, Surface(2, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert WormSurfaced(2, (6, 4), (6, 4), 0, 1.0) in events
    assert UnitRemoved(0, "swallowed by the Sand Worm") in events
    assert state.units[0].status == "destroyed"
    assert at(state, 2) == (6, 4)


def test_vx_12_12_vx_13_sandworm_2_friends_are_swallowed_alike() -> None:
    # D2 Wearg Warriors (the worm's own side) at (6,4): 300 - 100 = 200.
    state = position(
        [("guardsmen", (0, 0))],
        [("sand_worm", (3, 4)), ("wearg_warriors", (6, 4))],
        first=1,
    )
    state = tweak(state, 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(6))
    assert WormSurfaced(1, (6, 4), (5, 3), 2, 100.0) in events
    assert state.units[2].strength == pytest.approx(200.0)


def test_vx_13_sandworm_1_a_body_unit_of_60_is_swallowed_whole() -> None:
    # L0 Knights of Fire, 60 men at (6,4): min(60, 100) = 60 swallowed, destroyed; the worm takes the cell.
    state = tweak(worm_position([("knights_of_fire", (6, 4))]), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(4))
    assert WormSurfaced(1, (6, 4), (6, 4), 0, 60.0) in events
    assert state.units[0].status == "destroyed" and at(state, 1) == (6, 4)


def test_vx_sp_shield_3_a_shielded_wizard_is_not_swallowed() -> None:
    # L0 Circan under his Shield (turns 1..3) at (6,4): untouched; the worm comes up beside, on (5,3).
    state = worm_position([("circan", (6, 4))])
    shield = Enchantment("shield", caster=0, side=0, cast_turn=1, first=1, last=3, units=(0,))
    state = tweak(replace(state, enchantments=(shield,)), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert events == [WormSurfaced(1, (6, 4), (5, 3), None, 0.0)]
    assert state.units[0].strength == 1.0 and state.units[0].on_table


def test_vx_12_11_an_airborne_flyer_cannot_be_swallowed() -> None:
    # L0 Ekglide airborne over (6,4): untouched; the worm comes up beside it, on (5,3) as above.
    state = worm_position([("ekglide", (6, 4))])
    state = tweak(tweak(state, 0, airborne=True), 1, hidden=True)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(2))
    assert events == [WormSurfaced(1, (6, 4), (5, 3), None, 0.0)]
    assert state.units[0].strength == 1.0 and state.units[0].on_table


def test_vx_12_13_sunstroke_at_the_end_of_the_third_turn_on_the_surface() -> None:
    # The worm starts on the surface (turn 1 is its first surface turn): it counts 1, 2, then dies at the
    # end of turn 3.
    state = worm_position([("guardsmen", (0, 0))], worm_at=(6, 4))
    for turn, count in ((1, 1), (2, 2)):
        assert state.turn == turn
        state, events = finish_turn(state)
        assert state.units[1].surface_turns == count and state.units[1].on_table
        assert view(state, 1, 0)["surface_turns"] == count
        state = next_turn(state, first=1)
    state, events = finish_turn(state)
    assert state.units[1].status == "destroyed"
    assert UnitRemoved(1, "sunstroke") in events


def test_vx_12_13_burrowing_resets_the_count() -> None:
    # Two turns on the surface (count 2), then it burrows in turn 3: no sunstroke, count 0. In turn 4 it
    # surfaces (face 1, on (6,4)): the end of turn 4 is surface turn 1 again.
    state = worm_position([("guardsmen", (0, 0))], worm_at=(6, 4))
    for _ in range(2):
        state, _ = finish_turn(state)
        state = next_turn(state, first=1)
    assert state.units[1].surface_turns == 2
    state, _ = GAME.apply(state, Conceal(1))
    assert state.units[1].surface_turns == 0
    state, events = finish_turn(state)
    assert state.units[1].in_play and state.units[1].hidden
    assert state.units[1].surface_turns == 0
    assert UnitRemoved(1, "sunstroke") not in events
    state = next_turn(state, first=1)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, _ = GAME.apply(state, ChanceOutcome(1))
    state, _ = finish_turn(state)
    assert state.units[1].surface_turns == 1 and state.units[1].on_table


# --- illegal orders, and secrets kept in refusals ---------------------------------------------------------


def test_vx_12_illegal_stealth_orders_are_refused_and_change_nothing() -> None:
    # L0 the Grima (0,4), L1 Guardsmen (0,0); D2 the worm hidden at (6,4), D3 Wearg Warriors (11,8).
    state = position(
        [("grima", (0, 4)), ("guardsmen", (0, 0))],
        [("sand_worm", (6, 4)), ("wearg_warriors", (11, 8))],
        first=1,
    )
    state = tweak(state, 2, hidden=True)
    # Wrong unit: only the Grima and the worm hide; only the worm tunnels and surfaces.
    refused(state, Conceal(3), "cannot hide")
    refused(state, Tunnel(3, cell(9, 8)), "not a Sand Worm")
    refused(state, Surface(3, cell(9, 8)), "not a Sand Worm")
    # Wrong seat: the Darkness moves; the Grima is the Light's.
    refused(state, Conceal(0), "not yours")
    refused(state, SetQuarry(0, 2), "not yours")
    refused(state, Reveal(0), "not yours")
    # Not hidden: a worm on the surface must burrow first; a Grima in sight cannot be revealed.
    surfaced = tweak(state, 2, hidden=False)
    refused(surfaced, Tunnel(2, cell(7, 4)), "burrow first")
    refused(surfaced, Surface(2, cell(7, 4)), "burrow first")
    light = tweak(replace(state, mover=0), 0, moved=False)
    refused(light, Reveal(0), "not hidden")
    # Wrong phase: in the combat round, or while a die is awaited.
    refused(replace(state, phase="combat", mover=None), Tunnel(2, cell(7, 4)), "movement phase")
    waiting, _ = GAME.apply(state, Surface(2, cell(7, 4)))
    refused(waiting, Tunnel(2, cell(8, 4)), "waiting for a die")
    # A unit that is no longer in the game.
    refused(tweak(state, 2, status="destroyed"), Tunnel(2, cell(7, 4)), "no longer in the game")


def test_vx_12_06_08_an_enemy_move_onto_the_hidden_worm_does_not_give_it_away() -> None:
    # D2 the worm hidden at (4,4); L0 Guardsmen at (2,4) (move 2). The Light moves.
    state = position(
        [("guardsmen", (2, 4)), ("grima", (0, 0))],
        [("sand_worm", (4, 4)), ("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 2, hidden=True)
    # The worm hidden below (5,4) instead: (2,4) to (5,4) is 3 cells, too far for a move of 2. The refusal
    # is the ordinary one, with no word of the worm (nor of the Grima).
    hidden_too_far = tweak(state, 2, cell=cell(5, 4))
    msg = refused(hidden_too_far, Move(0, cell(5, 4)), "may move 2 cells")
    assert "worm" not in msg.lower() and "grima" not in msg.lower()
    # Its cell is lit like any free cell and the move is taken: the worm is not revealed.
    assert Move(0, cell(4, 4)) in GAME.legal_actions(state, 0)
    moved, events = GAME.apply(state, Move(0, cell(4, 4)))
    assert at(moved, 0) == (4, 4) and moved.units[2].hidden
    assert not any(getattr(e, "unit", None) == 2 for e in events)
    assert view(moved, 2, 0)["cell"] is None


def test_vx_12_06_an_enemy_refused_on_the_hidden_grimas_cell_learns_nothing() -> None:
    # L0 the Grima hidden at (4,4); D2 Wearg Warriors at (1,4) try 3 cells to her cell: too far.
    state = position(
        [("grima", (4, 4)), ("guardsmen", (0, 0))],
        [("wearg_warriors", (1, 4)), ("giant_spider", (11, 8))],
        first=1,
    )
    state = tweak(state, 0, hidden=True)
    msg = refused(state, Move(2, cell(4, 4)), "may move 2 cells")
    assert "grima" not in msg.lower()


def test_vx_05_11_the_temple_halves_what_the_worm_swallows() -> None:
    # As the 100-men swallow above, but the Guardsmen are blessed: 100 halved = 50 (250 left).
    state = tweak(tweak(worm_position([("guardsmen", (6, 4))]), 1, hidden=True), 0, temple_until=5)
    state, _ = GAME.apply(state, Surface(1, cell(6, 4)))
    state, events = GAME.apply(state, ChanceOutcome(3))
    assert events == [WormSurfaced(1, (6, 4), (5, 3), 0, 50.0)]
    assert state.units[0].strength == pytest.approx(250.0)
