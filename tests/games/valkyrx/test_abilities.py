"""Infrastructure (section 5) and section 13 abilities outside the combat formula."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.abilities import elves_depart, raise_dead
from iwgt.games.valkyrx.actions import EndPhase, Move
from iwgt.games.valkyrx.events import TerrainCasualties, UnitMoved
from iwgt.geometry.hexgrid import distance, offset_to_hex

from .kit import GAME, cell, position, tweak


def end_both_phases(state):  # type: ignore[no-untyped-def]
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, EndPhase())
    return state


def test_vx_13_troll_1_a_hungry_troll_devours_a_passing_friend() -> None:
    state = position([("guardsmen", (0, 0))], [("cave_troll", (6, 4)), ("wearg_warriors", (7, 4))])
    state = end_both_phases(state)
    assert [(p.kind, p.sides) for p in state.pending] == [("troll", 6)]
    fed, _ = GAME.apply(state, ChanceOutcome(1))
    assert fed.units[2].strength == pytest.approx(270.0)  # 10% of 300
    spared, _ = GAME.apply(state, ChanceOutcome(2))
    assert spared.units[2].strength == 300.0


def test_vx_05_05_quicksand_takes_a_quarter() -> None:
    state = position(
        [("guardsmen", (2, 4))], [("wearg_warriors", (11, 8))], terrain=[("quicksand", [(3, 4)])]
    )
    state, _ = GAME.apply(state, Move(0, cell(3, 4)))
    assert state.units[0].strength == pytest.approx(225.0)
    assert state.units[0].moved_cost == 2  # quicksand impairs movement like difficult ground


@pytest.mark.parametrize(("face", "survives"), [(2, True), (1, False)])
def test_vx_05_06_to_12_the_temple(face: int, survives: bool) -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (11, 8))], terrain=[("temple", [(3, 4)])])
    state, _ = GAME.apply(state, Move(0, cell(3, 4), pray=True))
    assert [p.kind for p in state.pending] == ["temple"]
    state, _ = GAME.apply(state, ChanceOutcome(face))
    unit = state.units[0]
    if survives:
        assert unit.temple_until == 6  # this turn and the following five
        assert unit.on_table and unit.prayed
    else:
        assert unit.status == "destroyed"


def test_vx_05_09_temple_doubles_movement() -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (11, 8))])
    blessed = tweak(state, 0, temple_until=3)
    state, _ = GAME.apply(blessed, Move(0, cell(6, 4)))  # 4 cells: 2 x 2
    assert state.units[0].cell == cell(6, 4)


def test_vx_13_elves_4_the_elves_leave_when_losses_are_grievous() -> None:
    state = position([("elves", (2, 4)), ("erendil", (3, 4))], [("wearg_warriors", (11, 8))])
    # Elven value 2400 + 3000 = 5400; 40% is 2160. Elves at 120 of 300 have lost 1440: they stay.
    kept, events = elves_depart(tweak(state, 0, strength=120.0))
    assert events == [] and kept.units[1].on_table
    # Erendil at 25% of his defence has lost 2250 more: 3690 >= 2160: every Elf leaves.
    gone, events = elves_depart(tweak(tweak(state, 0, strength=120.0), 1, strength=0.25))
    assert [e.unit for e in events] == [0, 1]
    assert gone.units[0].status == "left" and gone.units[1].status == "left"


def test_vx_13_undead_2_the_army_of_the_dead_swells() -> None:
    state = position([("guardsmen", (0, 0))], [("undead_warriors", (6, 4)), ("deall", (9, 8))])
    state = replace(tweak(state, 1, strength=200.0), raised=((1, 40.0),))
    grown, events = raise_dead(state)
    assert grown.units[1].strength == pytest.approx(220.0)  # half of the 40 slain rise
    assert events[0].raised == pytest.approx(20.0)
    kingless = tweak(state, 2, status="destroyed")
    assert raise_dead(kingless)[0].units[1].strength == 200.0


def test_vx_05_05_vx_03_08_a_compulsory_move_into_quicksand_pays_its_quarter() -> None:
    # Guardsmen (300 men, move 2) routed at (1, 4), a Wearg at (9, 4); every other cell is quicksand,
    # which costs 2 to enter (VX-05-03), so the flight is one cell, into quicksand whichever it is.
    # VX-05-05: every ground move set down there loses 25% of current strength: 300 x 0.25 = 75 men.
    mire = [(c, r) for c in range(12) for r in range(9) if (c, r) not in {(1, 4), (9, 4)}]
    state = position(
        [("guardsmen", (1, 4))], [("wearg_warriors", (9, 4))], first=1, terrain=[("quicksand", mire)]
    )
    state = tweak(state, 0, routed=True)
    # The Darkness ends its phase; the Light's opens with the routed unit's compulsory move (VX-03-08).
    state, events = GAME.apply(state, EndPhase())
    flight = [e for e in events if isinstance(e, UnitMoved)]
    assert [(e.unit, e.compulsory) for e in flight] == [(0, True)]
    assert distance(offset_to_hex(*flight[0].to), cell(1, 4)) == 1
    assert [e for e in events if isinstance(e, TerrainCasualties)] == [
        TerrainCasualties(0, 75.0, "quicksand")
    ]
    assert state.units[0].strength == pytest.approx(225.0)


def test_vx_05_11_the_temple_halves_quicksand() -> None:
    # Guardsmen blessed to turn 5 walk into quicksand: 300 x 0.25 = 75, halved by the ward: 37.5 (262.5 left).
    state = position(
        [("guardsmen", (2, 4))], [("wearg_warriors", (11, 8))], terrain=[("quicksand", [(3, 4)])]
    )
    state, events = GAME.apply(tweak(state, 0, temple_until=5), Move(0, cell(3, 4)))
    assert TerrainCasualties(0, 37.5, "quicksand") in events
    assert state.units[0].strength == pytest.approx(262.5)
    assert state.units[0].casualties_turn == pytest.approx(37.5)


def test_vx_05_11_the_temple_halves_what_a_troll_devours() -> None:
    # The Wearg friend (300) blessed: 10% = 30 men, halved by the ward: 15 (285 left).
    state = position([("guardsmen", (0, 0))], [("cave_troll", (6, 4)), ("wearg_warriors", (7, 4))])
    state = end_both_phases(tweak(state, 2, temple_until=5))
    fed, _ = GAME.apply(state, ChanceOutcome(1))
    assert fed.units[2].strength == pytest.approx(285.0)
