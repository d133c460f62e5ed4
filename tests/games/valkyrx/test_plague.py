"""The plague (VX-SP-PLAGUE-*, VX-SP-CURE-2, VX-13-POCADL-1): contact, losses, immunity, the skull, the chain.

Decisions (issue3-spec "Plague"): contact is adjacency on the ground at the end of the movement phase, friend
or foe; losses are cumulative 5/10/25/50/100% of the strength at infection, the turn of infection being the
first, taken at the end of the turn; the first carrier and Pocâdl never sicken and never show the skull.
"""

from __future__ import annotations

from typing import Any

import pytest

from iwgt.core.protocol import ChanceOutcome, Event
from iwgt.games.valkyrx.actions import CastSpell, EndPhase, Move
from iwgt.games.valkyrx.events import (
    CombatReport,
    GameOver,
    PlagueChain,
    PlagueCured,
    PlagueLosses,
    UnitInfected,
    UnitRemoved,
)
from iwgt.games.valkyrx.state import ValkyrxState

from .kit import GAME, cell, end_movement, next_turn, position, turn_over, tweak

# Faces the helpers give the dice unless told otherwise: a middling d100 random factor, a 1 elsewhere
# (first mover: the Light; a hungry Troll would eat, but no Troll appears in these positions).
DEFAULT_FACES = {"factor": 50}


def face_for(state: ValkyrxState, faces: dict[str, Any]) -> int:
    kind = state.pending[0].kind
    face = faces.get(kind, DEFAULT_FACES.get(kind, 1))
    if isinstance(face, list):  # one face per die of that kind, in order
        return int(face.pop(0))
    return int(face)


def finish_turn(state: ValkyrxState, **faces: Any) -> tuple[ValkyrxState, list[Event]]:
    """End every phase and answer every die until the turn is over (nothing to do if it is already)."""
    events: list[Event] = []
    while not turn_over(state):
        if state.pending:
            state, more = GAME.apply(state, ChanceOutcome(face_for(state, faces)))
        else:
            state, more = GAME.apply(state, EndPhase())
        events.extend(more)
    return state, events


def report_line(events: list[Event], uid: int) -> Any:
    (report,) = [e for e in events if isinstance(e, CombatReport)]
    return next(line for line in report.lines if line.unit == uid)


def skull(state: ValkyrxState, uid: int, seat: int | None) -> bool:
    return bool(GAME.observe(state, seat)["units"][uid]["infected"])


# --- infection by contact --------------------------------------------------------------------------------


def test_vx_sp_plague_5_9_contact_at_the_end_of_the_movement_phase_infects_a_friend() -> None:
    # L0 Guardsmen at (1,4), L1 Swordsmen at (3,4), the first carrier (made so by a Plague spell in turn 1).
    state = position(
        [("guardsmen", (1, 4)), ("swordsmen", (3, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 1, carrier_only=True, infected=1, plague_base=300.0)
    state, _ = GAME.apply(state, Move(0, cell(2, 4)))  # next to the carrier: (2,4)-(3,4)
    assert state.units[0].infected == 0  # no infection on the move: only at the end of the phase
    state, _ = GAME.apply(state, EndPhase())
    assert state.units[0].infected == 0  # the Darkness has still to move
    state, events = GAME.apply(state, EndPhase())
    assert UnitInfected(0) in events
    guards = state.units[0]
    assert guards.infected == 1 and guards.is_carrier and not guards.carrier_only
    assert guards.plague_base == 300.0  # its strength when infected


def test_vx_sp_plague_5_a_foe_in_contact_is_infected_too() -> None:
    # L0 Swordsmen (3,4), first carrier; D1 Wearg Warriors (5,4) walk to (4,4), next to it: an enemy contact.
    state = position([("swordsmen", (3, 4))], [("wearg_warriors", (5, 4))])
    state = tweak(state, 0, carrier_only=True, infected=1, plague_base=300.0)
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, Move(1, cell(4, 4)))
    state, events = end_movement(state)
    assert UnitInfected(1) in events
    assert state.units[1].infected == 1
    assert state.contact(0, 1) is not None  # and they fight: the dice for the round are awaited
    assert {p.kind for p in state.pending} == {"factor"}


def test_vx_sp_plague_9_a_newly_infected_unit_carries_it_on_next_turn() -> None:
    # Chain: L2 (first carrier, (4,4)) - L1 Guardsmen (3,4) - L0 Swordsmen (2,4). Turn 1: only L1 touches
    # the carrier... L0 touches L1 too, but L1 was healthy when the contacts were judged. Turn 2: L1 is a
    # carrier and L0 catches it from L1.
    state = position(
        [("swordsmen", (2, 4)), ("guardsmen", (3, 4)), ("spearmen", (4, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 2, carrier_only=True, infected=1, plague_base=300.0)
    state, events = end_movement(state)
    assert [e for e in events if isinstance(e, UnitInfected)] == [UnitInfected(1)]
    assert state.units[0].infected == 0
    state, _ = finish_turn(state)
    state, events = end_movement(next_turn(state))
    # L0 catches it from L1; and the first carrier L2, exposed to L1 like any healthy unit (or the dice and
    # events would name it, VX-SP-PLAGUE-4), catches it back and from now on sickens (decision).
    assert [e for e in events if isinstance(e, UnitInfected)] == [UnitInfected(0), UnitInfected(2)]
    assert state.units[0].infected == 2  # infection turn: turn 2
    assert (state.units[2].infected, state.units[2].carrier_only) == (2, False)
    assert [(i.turn, i.unit, i.source, i.by_spell) for i in state.plague_chain] == [
        (1, 1, 2, False),
        (2, 0, 1, False),
        (2, 2, 1, False),
    ]


# --- losses --------------------------------------------------------------------------------------------


def test_vx_sp_plague_6_losses_5_10_25_50_100_percent_and_vx_sp_plague_3_the_first_carrier_none() -> None:
    # L0 Guardsmen 300 (2,4) touches L1 Swordsmen (3,4), the first carrier: infected in turn 1.
    # Cumulative losses of 300 (strength at infection) at the end of turns 1..5:
    #   turn 1:   5% = 15  (285 left)
    #   turn 2:  10% = 30  -> 15 more  (270)
    #   turn 3:  25% = 75  -> 45 more  (225)
    #   turn 4:  50% = 150 -> 75 more  (150)
    #   turn 5: 100% = 300 -> the last 150: destroyed.
    state = position(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 1, carrier_only=True, infected=1, plague_base=300.0)
    expected = [(15.0, 285.0), (15.0, 270.0), (45.0, 225.0), (75.0, 150.0), (150.0, 0.0)]
    for turn, (lost, left) in enumerate(expected, start=1):
        assert state.turn == turn
        state, events = finish_turn(state)
        sick = [e for e in events if isinstance(e, PlagueLosses)]
        assert [e.unit for e in sick] == [0]  # the first carrier L1 takes none (VX-SP-PLAGUE-3)
        assert sick[0].casualties == pytest.approx(lost)
        assert report_line(events, 0).casualties == pytest.approx(lost)  # this turn's casualties
        assert state.units[0].strength == pytest.approx(left)
        assert state.units[1].strength == 300.0
        if turn == 1:  # the carrier walks away: touching L0 again, it would catch the plague back (decision)
            state = tweak(state, 1, cell=cell(8, 4))
        if turn < 5:
            state = next_turn(state)
    assert state.units[0].status == "destroyed"
    assert UnitRemoved(0, "destroyed") in events
    # Turn 6: the carrier lives on, untouched.
    state, events = finish_turn(next_turn(state))
    assert not [e for e in events if isinstance(e, PlagueLosses)]
    assert state.units[1].strength == 300.0


def test_vx_sp_plague_6_shares_of_the_strength_when_infected_not_of_the_start() -> None:
    # Guardsmen already down to 200 men when they touch the carrier: 5% of 200 = 10 at the end of turn 1.
    state = position(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(tweak(state, 1, carrier_only=True, infected=1), 0, strength=200.0)
    state, _ = finish_turn(state)
    assert state.units[0].plague_base == 200.0
    assert state.units[0].strength == pytest.approx(190.0)  # 200 - 10


# --- immunity and the airborne -------------------------------------------------------------------------


def test_vx_sp_plague_10_living_spirits_elves_and_undead_are_immune() -> None:
    # Light carrier L0 Swordsmen (3,4); around it: L1 Elves (2,4), L2 Môdrôf (4,4) (Living Spirit),
    # L3 Guardsmen (3,3) (the control: not immune). Darkness carrier D4 Wearg Warriors (8,4); around it:
    # D5 Wraiths (7,4), D6 Undead Warriors (9,4), D7 Deall (8,3) (undead), D8 Wearg Spearmen (8,5).
    state = position(
        [("swordsmen", (3, 4)), ("elves", (2, 4)), ("modrof", (4, 4)), ("guardsmen", (3, 3))],
        [
            ("wearg_warriors", (8, 4)),
            ("wraiths", (7, 4)),
            ("undead_warriors", (9, 4)),
            ("deall", (8, 3)),
            ("wearg_spearmen", (8, 5)),
        ],
    )
    state = tweak(state, 0, carrier_only=True, infected=1)
    state = tweak(state, 4, carrier_only=True, infected=1)
    state, events = end_movement(state)
    assert [e for e in events if isinstance(e, UnitInfected)] == [UnitInfected(3), UnitInfected(8)]
    for immune in (1, 2, 5, 6, 7):
        assert state.units[immune].infected == 0 and not state.units[immune].is_carrier


def test_vx_sp_plague_5_airborne_units_neither_catch_nor_spread_it() -> None:
    # D1 Harpies airborne at (4,4) next to the carrier L0 (3,4): not on the ground, not infected.
    # D2 Harpies airborne carrier at (8,4) next to D3 Wearg Warriors (9,4): an airborne carrier touches
    # nothing either.
    state = position(
        [("swordsmen", (3, 4))],
        [("harpies", (4, 4)), ("harpies", (8, 4)), ("wearg_warriors", (9, 4))],
    )
    state = tweak(state, 0, carrier_only=True, infected=1)
    state = tweak(state, 1, airborne=True)
    state = tweak(state, 2, airborne=True, infected=1, plague_base=90.0)
    state, events = end_movement(state)
    assert not [e for e in events if isinstance(e, UnitInfected)]
    assert state.units[1].infected == 0 and state.units[3].infected == 0


# --- Pocâdl's rats -------------------------------------------------------------------------------------


def test_vx_13_pocadl_1_a_d6_per_unit_in_contact_faces_1_to_4_infect() -> None:
    # D0 Pocâdl (3,4) with his friends D1 Wearg Warriors (2,4) and D2 Wearg Spearmen (4,4) beside him
    # (friends: no combat). One public d6 each, in unit order: D1 rolls 4 (infected), D2 rolls 5 (spared).
    state = position(
        [("guardsmen", (0, 0))],
        [("pocadl", (3, 4)), ("wearg_warriors", (2, 4)), ("wearg_spearmen", (4, 4))],
    )
    assert state.units[1].carrier_only and state.units[1].infected == 0  # a carrier from the start
    state, events = end_movement(state)
    assert not [e for e in events if isinstance(e, UnitInfected)]  # nothing sure: the rats roll
    assert [(p.kind, p.unit, p.sides, p.secret) for p in state.pending] == [
        ("bearer", 2, 6, False),
        ("bearer", 3, 6, False),
    ]
    state, events = GAME.apply(state, ChanceOutcome(4))
    assert events == [UnitInfected(2)]
    state, events = GAME.apply(state, ChanceOutcome(5))  # the last die: no combat, the turn ends
    assert not [e for e in events if isinstance(e, UnitInfected)]
    assert state.units[3].infected == 0
    assert [(i.turn, i.unit, i.source, i.by_spell) for i in state.plague_chain] == [(1, 2, 1, False)]
    assert turn_over(state)
    assert [(e.unit, e.casualties) for e in events if isinstance(e, PlagueLosses)] == [(2, 15.0)]  # 5% of 300
    # Turn 2: the spared Spearmen, still beside him, roll again (a 1 infects); Pocâdl, beside the infected
    # Warriors, never catches it and never sickens (VX-13-POCADL-1 decision).
    state, _ = end_movement(next_turn(state))
    assert [(p.kind, p.unit) for p in state.pending] == [("bearer", 3)]
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert UnitInfected(3) in events
    assert turn_over(state)
    # D2: 10% - 5% of 300 = 15 more; D3: 5% of 300 = 15; nothing for Pocâdl.
    assert [(e.unit, e.casualties) for e in events if isinstance(e, PlagueLosses)] == [(2, 15.0), (3, 15.0)]
    pocadl = state.units[1]
    assert pocadl.infected == 0 and pocadl.strength == 1.0
    assert not skull(state, 1, 0) and not skull(state, 1, 1)  # no skull beside Pocâdl


def test_vx_13_pocadl_1_an_ordinary_carrier_beside_him_makes_the_roll_needless() -> None:
    # D2 Wearg Warriors (4,4) touches both Pocâdl D1 (3,4) and the carrier D3 (5,4): infected for sure.
    state = position(
        [("guardsmen", (0, 0))],
        [("pocadl", (3, 4)), ("wearg_warriors", (4, 4)), ("wearg_spearmen", (5, 4))],
    )
    state = tweak(state, 3, carrier_only=True, infected=1)
    state, events = end_movement(state)
    assert UnitInfected(2) in events and not [p for p in state.pending if p.kind == "bearer"]
    assert [(i.unit, i.source) for i in state.plague_chain] == [(2, 3)]


# --- Cure Plague: a cured unit may sicken again ----------------------------------------------------------


def test_vx_sp_cure_2_3_a_cured_unit_keeps_its_losses_and_may_be_infected_again() -> None:
    # L0 Guardsmen (2,4), sickening since turn 1; L1 Circan (0,4), 2 cells away; L2 Swordsmen (7,4), a first
    # carrier 7 cells from Circan (out of his 5). D3 Wearg Warriors far away.
    state = position(
        [("guardsmen", (2, 4)), ("circan", (0, 4)), ("swordsmen", (7, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 0, infected=1, plague_base=300.0)
    state = tweak(state, 2, carrier_only=True, infected=1, plague_base=300.0)
    state, _ = finish_turn(state)
    assert state.units[0].strength == pytest.approx(285.0)  # 5% of 300
    # Turn 2: Circan cures it in the spells step, before the end-of-turn losses.
    state, _ = end_movement(next_turn(state))
    assert state.phase == "spells" and state.mover == 0
    state, events = GAME.apply(state, CastSpell(1, "cure_plague"))
    assert PlagueCured(0) in events
    assert state.units[0].infected == 0 and state.units[2].is_carrier  # the far carrier is untouched
    state, events = finish_turn(state)
    assert not [e for e in events if isinstance(e, PlagueLosses)]
    assert state.units[0].strength == pytest.approx(285.0)  # losses are not restored (VX-SP-CURE-3)
    assert not skull(state, 0, 0)
    # Turn 3: the Guardsmen (2,4)->(4,4) and the carrier (7,4)->(5,4) meet: infected anew, from 285 men.
    state = next_turn(state)
    state, _ = GAME.apply(state, Move(0, cell(4, 4)))
    state, _ = GAME.apply(state, Move(2, cell(5, 4)))
    state, events = end_movement(state)
    assert UnitInfected(0) in events
    assert state.units[0].infected == 3 and state.units[0].plague_base == pytest.approx(285.0)
    state, _ = finish_turn(state)
    assert state.units[0].strength == pytest.approx(270.75)  # 285 - 5% of 285 (14.25)


# --- the skull and the end-of-game chain -----------------------------------------------------------------


def test_vx_sp_plague_4_7_the_skull_marks_sickening_units_never_the_first_carrier() -> None:
    state = position(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(state, 1, carrier_only=True, infected=1)
    assert not any(skull(state, uid, seat) for uid in (0, 1) for seat in (0, 1, None))
    state, events = finish_turn(state)
    for seat in (0, 1, None):  # both seats and a spectator see it
        assert skull(state, 0, seat)
        assert not skull(state, 1, seat)  # the first carrier: hidden from both (VX-SP-PLAGUE-4)
    assert report_line(events, 0).infected is True
    assert report_line(events, 1).infected is False
    assert report_line(events, 2).infected is False


def test_vx_sp_plague_8_the_chain_is_told_at_the_end_of_the_game_only() -> None:
    # turn_limit 2. L0 Guardsmen (2,4) and L1 Swordsmen (3,4) are friends side by side; D2 Waerloga (6,4)
    # casts Plague in turn 1: L0 is 4 cells away, L1 3 (both within 5), D3 Wearg Warriors (11,8) is 7 away.
    # Candidates in unit order (L0, L1): the secret d2 shows 1 -> L0 is the first carrier, source Waerloga.
    # Turn 2: L1 touches L0 at the end of the movement phase: infected, source L0.
    state = position(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("waerloga", (6, 4)), ("wearg_warriors", (11, 8))],
        extra="turn_limit = 2",
    )
    state, _ = end_movement(state)
    assert state.phase == "spells" and state.mover == 1
    state, _ = GAME.apply(state, CastSpell(2, "plague"))
    assert [(p.kind, p.sides, p.secret) for p in state.pending] == [("spell", 2, True)]
    state, _ = GAME.apply(state, ChanceOutcome(1))
    assert state.units[0].carrier_only and state.units[0].infected == 1
    state, events = finish_turn(state)
    assert not [e for e in events if isinstance(e, PlagueLosses)]  # the first carrier never sickens
    assert GAME.observe(state, 0)["plague_chain"] is None
    assert GAME.observe(state, 1)["plague_chain"] is None
    state, events = finish_turn(next_turn(state))
    assert state.result is not None
    chain = ((1, 0, 2, True), (2, 1, 0, False))  # (turn, unit, source, by_spell)
    assert PlagueChain(chain) in events
    kinds = [type(e) for e in events]
    assert kinds.index(GameOver) < kinds.index(PlagueChain)
    for seat in (0, 1, None):
        assert GAME.observe(state, seat)["plague_chain"] == [
            {"turn": 1, "unit": 0, "source": 2, "by_spell": True},
            {"turn": 2, "unit": 1, "source": 0, "by_spell": False},
        ]
    assert state.units[1].strength == pytest.approx(285.0)  # 5% of 300 in its first turn


def test_vx_sp_plague_8_no_chain_event_without_a_plague() -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (11, 8))], extra="turn_limit = 1")
    state, events = finish_turn(state)
    assert state.result is not None
    assert not [e for e in events if isinstance(e, PlagueChain)]
    assert GAME.observe(state, 0)["plague_chain"] == []


def test_vx_05_11_the_temple_halves_plague_losses() -> None:
    # As above, L0 Guardsmen 300 infected in turn 1 but blessed to turn 5: 5% of 300 = 15, halved: 7.5.
    state = position(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("wearg_warriors", (11, 8))],
    )
    state = tweak(tweak(state, 1, carrier_only=True, infected=1, plague_base=300.0), 0, temple_until=5)
    state, events = finish_turn(state)
    assert [(e.unit, e.casualties) for e in events if isinstance(e, PlagueLosses)] == [(0, 7.5)]
    assert state.units[0].strength == pytest.approx(292.5)
