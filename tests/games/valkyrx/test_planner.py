"""The combat planner through the real flow: who attacks whom, and with which circumstances."""

from __future__ import annotations

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.actions import EndPhase, Move
from iwgt.games.valkyrx.events import ContactMade
from iwgt.games.valkyrx.state import Attack, ValkyrxState

from .kit import GAME, cell, position, tweak


def plan(state: ValkyrxState) -> dict[tuple[int, int], Attack]:
    """The planned attacks by (attacker, target)."""
    return {(a.attacker, a.target): a for a in state.plan}


def answer_all(state: ValkyrxState, face: int) -> tuple[ValkyrxState, list[object]]:
    """Answer every pending die of the round with one face."""
    events: list[object] = []
    while state.pending and state.pending[0].kind != "first_mover":
        state, more = GAME.apply(state, ChanceOutcome(min(face, state.pending[0].sides)))
        events += more
    return state, events


def test_vx_04_19_a_charge_strikes_with_impetus_in_the_turn_of_contact() -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (6, 4))])
    state, _ = GAME.apply(state, Move(0, cell(5, 4), charge=True))
    state, _ = GAME.apply(state, EndPhase())  # the Wearg are locked: the Darkness phase ends by itself
    p = plan(state)
    assert p[(0, 1)].charge and not p[(0, 1)].melee_stage
    assert not p[(1, 0)].charge  # the charged unit did not charge


def test_vx_04_20_flank_needs_attackers_not_adjacent_to_each_other() -> None:
    # Wearg at (4,4) and (6,4) are two cells apart: a flank attack on the Guardsmen at (5,4).
    flanked = position([("guardsmen", (5, 4))], [("wearg_warriors", (4, 4)), ("wearg_warriors", (6, 4))])
    p = plan(flanked)
    assert p[(1, 0)].flank and p[(2, 0)].flank
    assert p[(0, 1)].share == pytest.approx(0.5)  # the Guardsmen split their firepower (VX-07-09)
    # (5,3) touches (6,4): two attackers side by side are no flank attack.
    side_by_side = position([("guardsmen", (5, 4))], [("wearg_warriors", (5, 3)), ("wearg_warriors", (6, 4))])
    assert not any(a.flank for a in side_by_side.plan)


def test_vx_04_23_heavily_outnumbered_is_three_times_the_value() -> None:
    # Two Wearg (1200 + 1200) against Guardsmen worth 1200: 2x, not heavily outnumbered.
    state = position([("guardsmen", (5, 4))], [("wearg_warriors", (4, 4)), ("wearg_warriors", (6, 4))])
    assert not plan(state)[(1, 0)].outnumbered
    # The same Guardsmen at 100 men are worth 400: 2400 >= 3 x 400.
    weak = position(
        [("guardsmen", (5, 4)), ("archers", (0, 0))], [("wearg_warriors", (4, 4)), ("wearg_warriors", (6, 4))]
    )
    weak = tweak(weak, 0, strength=100.0)
    assert weak.mover == 0
    weak, _ = GAME.apply(weak, EndPhase())
    assert plan(weak)[(2, 0)].outnumbered


def test_vx_07_11_melee_stage_from_the_second_round() -> None:
    state = position([("guardsmen", (5, 4))], [("wearg_warriors", (6, 4))])
    assert not plan(state)[(0, 1)].melee_stage
    state, _ = answer_all(state, 50)
    state, _ = GAME.apply(state, ChanceOutcome(1))  # turn 2: the Light first; both stay and fight on
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, EndPhase())
    assert plan(state)[(0, 1)].melee_stage and plan(state)[(1, 0)].melee_stage


def test_vx_04_16_a_pursuit_charge_makes_a_new_contact() -> None:
    state = position([("guardsmen", (5, 4))], [("wearg_warriors", (6, 4))])
    state, _ = answer_all(state, 50)  # turn 1: one round fought; neither is locked now
    state, _ = GAME.apply(state, ChanceOutcome(2))  # turn 2: the Darkness moves first and withdraws
    state, _ = GAME.apply(state, Move(1, cell(8, 4)))
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, Move(0, cell(7, 4), charge=True))  # in pursuit of the enemy it fought
    state, events = GAME.apply(state, EndPhase())
    assert ContactMade(0, 1, False) in events
    attack = plan(state)[(0, 1)]
    assert attack.charge and not attack.melee_stage  # contact broken and made anew (VX-07-11)


def test_vx_13_wraithking_2_units_below_high_do_not_attack_him() -> None:
    state = position([("guardsmen", (5, 4))], [("wraith_king", (6, 4))])
    p = plan(state)
    assert (0, 1) not in p and (1, 0) in p
    bold = position([("guardsmen", (5, 4)), ("archers", (0, 0))], [("wraith_king", (6, 4))])
    bold, _ = GAME.apply(tweak(bold, 0, morale=55.0), EndPhase())
    assert (0, 2) in plan(bold)


def test_vx_13_undead_2_the_slain_rise_through_a_real_round() -> None:
    # Undead Warriors (200 of 300 men, morale 40: Standard) fight Swordsmen; Deall stands far away.
    state = position([("swordsmen", (5, 4))], [("undead_warriors", (6, 4)), ("deall", (11, 8))])
    state = tweak(state, 1, strength=200.0)
    state, _ = GAME.apply(state, EndPhase())  # the Darkness phase was open (Deall could move)
    state, _ = answer_all(state, 100)  # both at 120%
    # Undead: 200 x 10 x 0.15 = 300 x 1.2 = 360 hits x 8 / 150 = 19.2 Swordsmen slain; half rise: 9.6.
    # Swordsmen: 300 x 12 x 0.1 = 360 x 1.2 = 432 x 8 / 300 = 11.52, mortal v undead x0.1 = 1.152.
    assert state.units[0].strength == pytest.approx(300 - 19.2)
    assert state.units[1].strength == pytest.approx(200 - 1.152 + 9.6)


def test_the_destroyed_stay_destroyed_and_a_fallen_king_raises_no_one() -> None:
    state = position([("swordsmen", (5, 4))], [("undead_warriors", (6, 4)), ("deall", (11, 8))])
    state = tweak(state, 1, strength=1.5)  # 1.152 losses leave 0.35 men: destroyed, not raised again
    state, _ = GAME.apply(state, EndPhase())
    state, _ = answer_all(state, 100)
    assert state.units[1].status == "destroyed" and state.units[1].strength == 0.0
