"""Combat (section 7, 8): every expectation computed by hand from the rules text and data/rules.toml.

Guardsmen of Mynsterlif: 300 men, rate of fire 15, accuracy 10%, attack 10, defence 150, morale 30.
H = 300 x 15 x 0.10 = 450 hits (VX-07-03). Morale 30 is Standard: random factor 80%..120% (VX-10-09);
a d100 face f gives 80 + 40 (f - 1) / 99 percent, so face 1 is 80% and face 100 is 120%.
Casualties = H x factor x attack / defence (VX-07-04): 450 x 0.8 x 10 / 150 = 24 men.
"""

from __future__ import annotations

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.combat import casualties, random_factor, weapon_factor
from iwgt.games.valkyrx.events import CloseCombatOutcome
from iwgt.games.valkyrx.state import Attack
from iwgt.games.valkyrx.units import unit_types

from .kit import GAME, position, tweak

T = unit_types()


def duel(att: str, tgt: str, **kw: object) -> float:
    """Casualties of one melee attack of unit 0 (light) on unit 1 (darkness) at face 1 (factor 80%)."""
    light_side = "light" if T[att].side == "light" else "darkness"
    pair = [(att, (5, 4)), (tgt, (6, 4))]
    state = position([pair[0]], [pair[1]]) if light_side == "light" else position([pair[1]], [pair[0]])
    a, t = (0, 1) if light_side == "light" else (1, 0)
    attack = Attack(a, t, kw.pop("kind", "melee"), kw.pop("share", 1.0), **kw)  # type: ignore[arg-type]
    return casualties(state, attack, 1)[1]


def test_vx_07_03_first_contact_guardsmen_lose_24_to_36_men() -> None:
    state = position([("guardsmen", (5, 4))], [("guardsmen", (6, 4))])
    hits, cas, factors = casualties(state, Attack(0, 1, "melee", 1.0), 1)
    assert hits == pytest.approx(360.0)  # 450 x 80%
    assert cas == pytest.approx(24.0)
    assert factors == ()
    assert casualties(state, Attack(0, 1, "melee", 1.0), 100)[1] == pytest.approx(36.0)  # 450 x 1.2 x 10/150
    # The designer's check: equal infantry lose 8%..12% of 300 in a first full contact (5-15% asked).


def test_vx_07_09_firepower_split_evenly() -> None:
    assert duel("guardsmen", "guardsmen", share=0.5) == pytest.approx(12.0)
    assert duel("guardsmen", "guardsmen", share=1 / 3) == pytest.approx(8.0)


def test_vx_07_11_vx_07_12_melee_modifier_from_second_round() -> None:
    assert duel("guardsmen", "guardsmen", melee_stage=True) == pytest.approx(24.0 * 1.2)  # melee H
    assert duel("spearmen", "wearg_spearmen", melee_stage=True) == pytest.approx(16.0 * 0.8)  # melee L
    # Spearmen: 300 x 10 x 0.10 = 300 hits x 0.8 = 240 x 10 / 150 = 16 men.


def test_vx_04_19_charge_and_vx_13_minotaurs_1_impetus() -> None:
    assert duel("guardsmen", "guardsmen", charge=True) == pytest.approx(36.0)  # x1.5
    # Minotaurs: 60 x 15 x 0.15 = 135 x 0.8 = 108 x 20 / 150 = 14.4, impetus x2 = 28.8.
    assert duel("minotaurs", "guardsmen") == pytest.approx(14.4)
    assert duel("minotaurs", "guardsmen", charge=True) == pytest.approx(28.8)


def test_vx_04_22_flank_and_vx_04_23_outnumbered() -> None:
    assert duel("guardsmen", "guardsmen", flank=True) == pytest.approx(36.0)
    assert duel("guardsmen", "guardsmen", flank=True, outnumbered=True) == pytest.approx(45.0)


@pytest.mark.parametrize(
    ("att", "tgt", "expected", "why"),
    [
        # Archers: 300 x 15 x 0.1 = 450 x 0.8 = 360 hits, attack 5. Undead Warriors defence 300.
        ("archers", "undead_warriors", 360 * 5 / 300 * 0.1, "VX-08-02 mortal x0.1"),
        # Elves: 300 x 18 x 0.2 = 1080 x 0.8 = 864 hits, attack 15: magic weapons full (VX-08-03).
        ("elves", "undead_warriors", 864 * 15 / 300, "VX-08-03 magic x1"),
        # Môdrôf: 1 x 25 x 0.25 = 6.25 x 0.8 = 5 hits x 750 / Wickermen 1000 = 3.75, fire x3.
        ("modrof", "wickermen", 5 * 750 / 1000 * 3, "VX-13-MODROF-3, VX-13-WICKERMEN-2 fire x3"),
        ("swordsmen", "wickermen", 0.0, "VX-13-WICKERMEN-1 impervious to sword and spear"),
        ("guardsmen", "wraith_king", 0.0, "VX-13-WRAITHKING-1 immune to mortal weapons"),
        ("elves", "wraith_king", 864 * 15 / 15000, "magic harms the Wraith King"),
        ("guardsmen", "stone_titan", 360 * 10 / 25000 * 0.05, "VX-13-TITAN-1 almost impervious"),
        ("astigend", "stone_titan", 1 * 15 * 0.15 * 0.8 * 1000 / 25000, "VX-13-TITAN-2 fire and ice"),
        ("guardsmen", "modrof", 360 * 10 / 25000, "a character is worn down by damage / defence"),
    ],
)
def test_weapons_against_particular_foes(att: str, tgt: str, expected: float, why: str) -> None:
    assert duel(att, tgt) == pytest.approx(expected), why


def test_vx_13_wickermen_1_missiles_are_not_sword_and_spear() -> None:
    # Archers shooting: 360 hits x 5 / 1000 = 1.8 men, factor 1.
    assert duel("archers", "wickermen", kind="missile") == pytest.approx(1.8)
    assert weapon_factor(T["archers"], T["wickermen"], "melee")[0] == 0.0


@pytest.mark.parametrize(
    ("morale", "low", "high"),
    [(55, 1.6, 2.0), (45, 1.1, 1.6), (30, 0.8, 1.2), (15, 0.5, 0.9), (5, 0.1, 0.5)],
)
def test_vx_10_07_to_11_random_factor_bands(morale: float, low: float, high: float) -> None:
    assert random_factor(morale, 1) == pytest.approx(low)
    assert random_factor(morale, 100) == pytest.approx(high)
    assert low < random_factor(morale, 50) < high


def test_vx_05_10_vx_05_11_temple_powers() -> None:
    state = position([("guardsmen", (5, 4))], [("guardsmen", (6, 4))])
    blessed = tweak(state, 0, temple_until=5)
    assert casualties(blessed, Attack(0, 1, "melee", 1.0), 1)[1] == pytest.approx(48.0)  # x2 inflicted
    assert casualties(blessed, Attack(1, 0, "melee", 1.0), 1)[1] == pytest.approx(12.0)  # x0.5 received


def test_vx_07_02_simultaneous_round_and_vx_14_07_winner() -> None:
    """Two Guardsmen in contact at the start: neither may move, so combat follows both (empty) moves."""
    state = position([("guardsmen", (5, 4))], [("guardsmen", (6, 4))])
    assert GAME.chance_outcomes(state) is not None  # both phases ended themselves: nothing was lit
    assert [p.kind for p in state.pending] == ["factor", "factor"]
    state, _ = GAME.apply(state, ChanceOutcome(1))  # the Light's Guardsmen: 80% -> 24 casualties dealt
    state, events = GAME.apply(state, ChanceOutcome(100))  # the Darkness's: 120% -> 36 dealt
    assert state.units[0].strength == pytest.approx(264.0)
    assert state.units[1].strength == pytest.approx(276.0)
    assert CloseCombatOutcome(winner=1, loser=0) in events
    # Morale (VX-10-15, VX-10-03): 0.4 per 1% lost; winner +2, loser -2.
    assert state.units[0].morale == pytest.approx(30 - 0.4 * 12 - 2)
    assert state.units[1].morale == pytest.approx(30 - 0.4 * 8 + 2)
    assert state.contacts[0].rounds == 1  # the next round is the melee stage (VX-07-11)


def test_casualties_never_exceed_strength_and_a_character_falls() -> None:
    state = position([("guardsmen", (5, 4))], [("guardsmen", (6, 4))])
    state = tweak(state, 1, strength=10.0)
    state, _ = GAME.apply(state, ChanceOutcome(100))
    state, _ = GAME.apply(state, ChanceOutcome(1))
    assert state.units[1].strength == 0.0
    assert state.units[1].status == "destroyed"
    assert state.units[1].casualties_turn == pytest.approx(10.0)
