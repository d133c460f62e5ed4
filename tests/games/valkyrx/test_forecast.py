"""Expected casualties, by hand from the rule text (VX-07-03 to VX-07-05, VX-04-19, VX-SP-FIRE-2).

The random factor of a Standard unit runs from 80% to 120% of the hits, evenly over the d100's faces
(VX-10-09), so its mean is exactly 100%: the expected casualties are the formula's hits x attack / defence.
"""

from __future__ import annotations

import pytest
from tests.games.valkyrx.kit import GAME, cell, end_movement, position, tweak

from iwgt.games.valkyrx.forecast import (
    contact_position,
    expected_attack,
    melee_forecast,
    missile_forecast,
    spell_forecast,
)
from iwgt.games.valkyrx.state import Attack


def test_vx_04_19_a_charge_into_contact_forecasts_both_blows() -> None:
    # Guardsmen: 300 men x 15 x 10% = 450 hits x 10 attack / 150 defence = 30, x1.5 for the charge = 45.
    # Wearg Warriors strike back: 300 x 12 x 10% = 360 hits x 8 / 150 = 19.2, no charge of theirs.
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    [f] = melee_forecast(state, 0, cell(3, 4), charge=True)
    assert (f.target, f.cell) == (1, cell(3, 3))
    assert f.casualties == pytest.approx(45.0)
    assert f.share == pytest.approx(0.15)
    assert f.attacker_losses == pytest.approx(19.2)


def test_vx_04_10_a_long_walk_into_contact_fights_next_turn_so_forecasts_nothing() -> None:
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    assert melee_forecast(state, 0, cell(3, 4), charge=False) == []  # two of two cells: over half
    hypo = contact_position(state, 0, cell(3, 4), charge=False)
    assert hypo is not None and [c.deferred for c in hypo.contacts] == [True]
    assert contact_position(state, 0, cell(9, 8), charge=True) is None  # no such charge


def test_vx_07_09_blows_are_split_between_two_foes() -> None:
    # Between two Wearg units the Guardsmen strike each with half their hits: 30 / 2 x 1.5 = 22.5. The two
    # Wearg are not next to each other, so each strikes the Guardsmen in the flank (VX-04-20, VX-04-22):
    # 19.2 x 1.5 = 28.8 from each.
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3)), ("wearg_warriors", (5, 4))])
    found = {f.target: f for f in melee_forecast(state, 0, cell(4, 4), charge=True)}
    assert set(found) == {1, 2}
    assert found[1].casualties == pytest.approx(22.5)
    assert found[1].attacker_losses == pytest.approx(28.8)
    assert found[2].attacker_losses == pytest.approx(28.8)


def test_vx_07_03_a_volley_forecast() -> None:
    # Archers: 300 x 15 x 10% = 450 hits x 5 / 150 = 15 casualties; no return blow.
    state = position([("archers", (3, 0))], [("wearg_warriors", (3, 3))])
    [f] = missile_forecast(state, 0)
    assert (f.target, f.casualties, f.attacker_losses) == (1, pytest.approx(15.0), None)
    assert missile_forecast(state, 1) == []  # no missile unit


def test_vx_14_10_the_forecast_never_exceeds_the_target_and_counts_a_spent_unit_whole() -> None:
    state = position([("guardsmen", (3, 4))], [("wearg_warriors", (3, 3))])
    weak = tweak(state, 1, strength=20.0)  # 24 to 36 casualties on every face: all twenty die
    assert expected_attack(weak, Attack(0, 1, "melee", 1.0)) == pytest.approx(20.0)


def test_vx_sp_fire_2_fire_forecast_counts_resist_magic() -> None:
    # 10,000 / 150 = 66.67 casualties, unless the Wearg's Resist Magic L (10%) shrugs it off: 60 expected.
    state = position([("wulfgeldre", (6, 4))], [("wearg_warriors", (6, 7))], width=14, height=10)
    state, _ = end_movement(state)
    [f] = spell_forecast(state, 0, "fire", None)
    assert f.casualties == pytest.approx(60.0)
    assert f.share == pytest.approx(0.2)
    assert spell_forecast(state, 0, "strength", None) == []  # no damage


def test_vx_sp_quake_earthquake_forecast_hits_friend_and_foe_and_may_swallow() -> None:
    # 5,000 / 150 = 33.33; a 1 on the d10 takes the other 266.67: 33.33 + 26.67 = 60 before resisting.
    # Guardsmen resist on H (35%): 39; the caster's own Wearg on L (10%): 54.
    state = position(
        [("guardsmen", (6, 2))], [("ellorgast", (6, 4)), ("wearg_warriors", (6, 6))], first=1, width=14
    )
    state, _ = end_movement(state)
    assert state.phase == "spells" and state.mover == 1
    found = {f.target: f.casualties for f in spell_forecast(state, 1, "earthquake", None)}
    assert found == {0: pytest.approx(39.0), 2: pytest.approx(54.0)}
    assert GAME.to_move(state) == 1
