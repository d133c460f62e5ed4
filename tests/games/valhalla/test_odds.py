"""Exact odds of Valhalla combat and shooting (issue 5, section 3), checked three ways.

Hand-computed fractions for a few matchups (the comments show the counting), a seeded simulation of the same
rule functions that every exact figure must agree with, and properties over every kind and modifier.
"""

from __future__ import annotations

import math
import random
import secrets
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import iwgt.core.chance
from iwgt.core.chance import SplitMix64
from iwgt.games.valhalla.config import KINDS, Kind
from iwgt.games.valhalla.dice import Fighter, Harm, fight_hits, save_effect
from iwgt.games.valhalla.odds import (
    FATES,
    CombatOdds,
    Fate,
    ShotOdds,
    combat_odds,
    fate_after_hits,
    shoot_odds,
    start_harm,
)

HERO, WARRIOR, ARCHER = Fighter("hero"), Fighter("warrior"), Fighter("archer")


def fates(f: Fate) -> dict[str, F]:
    return {"killed": f.killed, "wounded": f.wounded, "shocked": f.shocked, "unharmed": f.unharmed}


def assert_sums_to_one(odds: CombatOdds | ShotOdds) -> None:
    hit_dists = (odds.attacker_hits, odds.defender_hits) if isinstance(odds, CombatOdds) else (odds.hits,)
    for d in hit_dists:
        assert sum(d.values()) == 1
    fate_list = (odds.attacker_fate, odds.defender_fate) if isinstance(odds, CombatOdds) else (odds.fate,)
    for f in fate_list:
        assert sum(f.harm.values()) == 1
        assert sum(fates(f).values()) == 1
        assert all(p > 0 for p in f.harm.values())


# --- combat: hand-computed (VH-CO-02..13) -------------------------------------------------------------


def test_hero_vs_warrior_plain_hits_vh_co_03_04_10_11_12() -> None:
    odds = combat_odds(HERO, WARRIOR)
    # d10 (a) vs d8 (d), 80 equal pairs. No hero hit when a <= d: sum over d of d = 36 (VH-CO-12: ties).
    # Two hits when a > 2d: d=1: 8, d=2: 6, d=3: 4, d=4: 2 -> 20 (VH-CO-11). One hit: 44 - 20 = 24.
    assert odds.attacker_hits == {0: F(36, 80), 1: F(24, 80), 2: F(20, 80)}
    assert odds.attacker_hits[0] == F(9, 20)
    # The warrior hits when d > a: sum over d of (d - 1) = 28; twice when d > 2a: a=1..3: 6, 4, 2 -> 12.
    assert odds.defender_hits == {0: F(52, 80), 1: F(16, 80), 2: F(12, 80)}
    assert odds.winner == {"attacker": F(44, 80), "defender": F(28, 80), "neither": F(8, 80)}
    assert_sums_to_one(odds)


def test_hero_vs_warrior_saves_vh_st_02_07_09_12() -> None:
    odds = combat_odds(HERO, WARRIOR)
    # A fresh warrior, one hit: 1 killed, 2 wounded, 3-5 shocked, 6 nothing (VH-ST-02..06).
    # Two hits (saved in turn, VH-CO-13): killed on a first 1 (6/36), a first 2 then 1-2 (2/36), a first 3-6
    # then a 1 (4/36) -> 12/36. So killed = 24/80 * 1/6 + 20/80 * 1/3 = 2/15.
    assert odds.defender_fate.killed == F(24, 80) * F(1, 6) + F(20, 80) * F(1, 3) == F(2, 15)
    # A fresh hero is never killed by one save (VH-ST-07: 1 becomes 2, wounded); by two only a 1 then a 1.
    assert odds.attacker_fate.killed == F(12, 80) * F(1, 36) == F(1, 240)
    assert_sums_to_one(odds)


def test_hero_charging_warrior_vh_co_06() -> None:
    odds = combat_odds(Fighter("hero", charging=True), WARRIOR)
    # The hero scores a + 1. No hit when a + 1 <= d: sum over d of (d - 1) = 28.
    # Two hits when a + 1 > 2d, i.e. a >= 2d: d=1: 9, d=2: 7, d=3: 5, d=4: 3, d=5: 1 -> 25. One hit: 27.
    assert odds.attacker_hits == {0: F(28, 80), 1: F(27, 80), 2: F(25, 80)}
    # The warrior hits when d > a + 1: a=1..6: 6+5+4+3+2+1 = 21; twice when d > 2a + 2: a=1: 4, a=2: 2 -> 6.
    assert odds.defender_hits == {0: F(59, 80), 1: F(15, 80), 2: F(6, 80)}
    assert odds.defender_fate.killed == F(27, 80) * F(1, 6) + F(25, 80) * F(1, 3) == F(77, 480)
    assert odds.attacker_fate.killed == F(6, 80) * F(1, 36) == F(1, 480)


def test_a_shock_and_the_higher_ground_shift_the_ties_vh_co_07_08() -> None:
    # Warrior vs warrior, 64 pairs. With a shock (-1) the attacker misses when a - 1 <= d, i.e. a <= d + 1:
    # d=1..7 give 2..8, d=8 gives 8 -> 43; the defender on higher ground (+1) gives the same no-hit count.
    shocked = combat_odds(Fighter("warrior", shock=1), WARRIOR)
    uphill = combat_odds(WARRIOR, Fighter("warrior", higher_ground=True))
    assert shocked.attacker_hits[0] == uphill.attacker_hits[0] == F(43, 64)
    # The other side hits when d > a - 1, i.e. d >= a: 36 pairs.
    assert shocked.defender_hits[0] == F(28, 64)
    # VH-CO-07 for the attacker too: uphill attacker vs warrior mirrors the uphill defender.
    up_att = combat_odds(Fighter("warrior", higher_ground=True), WARRIOR)
    assert up_att.attacker_hits == uphill.defender_hits
    assert up_att.defender_hits == uphill.attacker_hits


def test_wounded_hero_vs_warrior_vh_co_09_vh_st_12() -> None:
    odds = combat_odds(Fighter("hero", wounded=True), WARRIOR)
    # The hero scores a - 2: no hit when a <= d + 2, sum over d of (d + 2) = 52.
    assert odds.attacker_hits[0] == F(52, 80)
    # The warrior hits when a <= d + 1: 44 pairs; twice when d > 2 * max(a - 2, 0): a=1,2 (score <= 0): all 8
    # each; a=3: 6; a=4: 4; a=5: 2 -> 28. One hit: 16.
    assert odds.defender_hits == {0: F(36, 80), 1: F(16, 80), 2: F(28, 80)}
    # A wounded hero dies on a second wound (VH-ST-12): one hit kills on a 1 (1/6). Two hits: a first 1
    # (6/36); a first 2 (two shock) then 1-4 (4/36); a first 3-4 (one shock) then 1-2 (4/36); a first 5-6
    # then a 1 (2/36) -> 16/36.
    assert odds.attacker_fate.killed == F(16, 80) * F(1, 6) + F(28, 80) * F(16, 36) == F(17, 90)
    # Any new wound kills a wounded figure, so "wounded" (alive with a new wound) is impossible.
    assert odds.attacker_fate.wounded == 0
    assert_sums_to_one(odds)


def test_archer_vs_hero_vh_co_05() -> None:
    odds = combat_odds(ARCHER, HERO)
    # d6 (a) vs d10 (d), 60 pairs. No archer hit when a <= d: sum over a of (11 - a) = 45; twice when a > 2d:
    # d=1: 4, d=2: 2 -> 6.
    assert odds.attacker_hits == {0: F(45, 60), 1: F(9, 60), 2: F(6, 60)}
    # The hero hits when d > a: 9+8+7+6+5+4 = 39; twice when d > 2a: 8+6+4+2 = 20.
    assert odds.defender_hits == {0: F(21, 60), 1: F(19, 60), 2: F(20, 60)}
    assert odds.attacker_fate.killed == F(19, 60) * F(1, 6) + F(20, 60) * F(1, 3) == F(59, 360)


def test_scores_of_zero_or_less_are_compared_as_they_are_vh_co_11() -> None:
    # fight_hits' decision: twice a score <= 0 is 0, so any positive score hits it twice; a higher score
    # that is still <= 0 hits once.
    assert fight_hits(1, -2) == 2
    assert fight_hits(0, -1) == 1
    assert fight_hits(-1, -1) == 0
    weak = Fighter("archer", shock=1, wounded=True)  # d6 - 3: scores -2..3
    odds = combat_odds(weak, weak)
    # Two hits: attacker 1..3 (faces 4-6) against defender -2..0 (faces 1-3): 9 pairs, plus 3 against 1: 10.
    # One hit: among faces 1-3 a > d (3 pairs: negatives beat more negative ones once), 5 vs 4, 6 vs 5 -> 5.
    assert odds.attacker_hits == {0: F(21, 36), 1: F(5, 36), 2: F(10, 36)}
    assert odds.attacker_hits == odds.defender_hits


def test_shock_two_plus_a_shock_is_a_wound_vh_st_09() -> None:
    # One hit on a fresh warrior with 2 shock: a 1 kills; a 2 wounds; a 3 (two shock) or 4-5 (one shock) make
    # the third marker: a wound. Only a 6 leaves it as it was.
    f = fate_after_hits("warrior", start_harm(2, False), {1: F(1)})
    assert fates(f) == {"killed": F(1, 6), "wounded": F(4, 6), "shocked": F(0), "unharmed": F(1, 6)}
    assert f.harm[Harm(shock=0, wounds=1)] == F(2, 6)  # 4-5, 2 + 1: the three markers go with the wound
    assert f.harm[Harm(shock=1, wounds=1)] == F(1, 6)  # 3, 2 + 2: the marker beyond the third is kept
    assert f.harm[Harm(shock=2, wounds=1)] == F(1, 6)  # 2: a wound outright leaves the shock as it was


def test_start_harm_refuses_states_the_rules_never_reach() -> None:
    with pytest.raises(ValueError, match="shock"):
        start_harm(-1, False)
    with pytest.raises(ValueError, match="shock"):
        start_harm(3, False)  # VH-ST-09: a third marker is a wound at once
    with pytest.raises(ValueError, match="shock"):
        combat_odds(Fighter("hero", shock=3), WARRIOR)
    with pytest.raises(ValueError, match="unknown kind"):
        combat_odds(Fighter("orc"), WARRIOR)  # type: ignore[arg-type]


# --- shooting (VH-SH-03..09) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "cover", "hit", "needs", "band"),
    [
        (0.0, False, F(1, 2), 4, "close"),  # VH-SH-06: 4-6
        (3.0, False, F(1, 2), 4, "close"),
        (6.0, False, F(1, 2), 4, "close"),  # VH-SH-04: exactly 6" is close
        (6.01, False, F(1, 3), 5, "long"),  # VH-SH-07: 5-6
        (12.0, False, F(1, 3), 5, "long"),  # VH-SH-03: 12" is in range
        (3.0, True, F(1, 3), 5, "close"),  # VH-SH-08: -1 in cover
        (9.0, True, F(1, 6), 6, "long"),
        (12.01, False, F(0), None, "out of range"),
        (12.01, True, F(0), None, "out of range"),
    ],
)
def test_shot_hits_vh_sh_03_08(distance: float, cover: bool, hit: F, needs: int | None, band: str) -> None:
    odds = shoot_odds(distance, cover, "warrior")
    assert (odds.hit, odds.needs, odds.range_band) == (hit, needs, band)
    assert (odds.reason is None) == (needs is not None)
    assert odds.hits == {0: 1 - hit, 1: hit}
    assert_sums_to_one(odds)


def test_out_of_range_says_why() -> None:
    odds = shoot_odds(12.01, False, "hero")
    assert odds.reason is not None and "12" in odds.reason and "VH-SH-03" in odds.reason
    assert odds.unharmed == 1


@pytest.mark.parametrize("kind", ["warrior", "archer", "slinger"])
def test_one_shot_kills_an_unarmoured_figure_on_a_hit_then_a_1_vh_sh_09_vh_st_02(kind: Kind) -> None:
    for distance, cover in ((3.0, False), (8.0, False), (3.0, True), (8.0, True)):
        odds = shoot_odds(distance, cover, kind)
        assert odds.killed == odds.hit * F(1, 6)
        assert odds.wounded == odds.hit * F(1, 6)
        assert odds.shocked == odds.hit * F(3, 6)
        assert odds.unharmed == 1 - odds.hit + odds.hit * F(1, 6)


def test_one_shot_never_kills_a_fresh_hero_vh_st_07() -> None:
    odds = shoot_odds(3.0, False, "hero")
    assert odds.killed == 0
    assert odds.wounded == F(1, 2) * F(1, 6)  # a 1, +1 for armour: 2 = wounded
    assert odds.shocked == F(1, 2) * F(3, 6)  # 2-4 +1: 3-5
    assert odds.unharmed == F(1, 2) + F(1, 2) * F(2, 6)


def test_one_shot_kills_a_wounded_hero_on_a_hit_then_a_1_vh_st_12() -> None:
    assert shoot_odds(3.0, False, "hero", target_wounded=True).killed == F(1, 2) * F(1, 6)
    # Wounded with 2 shock: a 1 (wounded), a 2 (two shock) or 3-4 (one shock) all make a second wound.
    assert shoot_odds(3.0, False, "hero", target_shock=2, target_wounded=True).killed == F(1, 2) * F(4, 6)


def test_two_shots_vh_ac_17() -> None:
    odds = shoot_odds(3.0, False, "warrior", shots=2)
    assert odds.hits == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    # One hit kills on 1/6, two hits on 12/36 (as in combat).
    assert odds.killed == F(1, 2) * F(1, 6) + F(1, 4) * F(1, 3) == F(1, 6)
    assert shoot_odds(3.0, False, "hero", shots=2).killed == F(1, 4) * F(1, 36)
    assert_sums_to_one(odds)


def test_shoot_odds_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="range"):
        shoot_odds(-0.5, False, "warrior")
    with pytest.raises(ValueError, match="range"):
        shoot_odds(math.nan, False, "warrior")
    with pytest.raises(ValueError, match="unknown kind"):
        shoot_odds(3.0, False, "orc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="shot"):
        shoot_odds(3.0, False, "warrior", shots=0)
    with pytest.raises(ValueError, match="shock"):
        shoot_odds(3.0, False, "warrior", target_shock=-1)


def test_to_json_gives_floats_and_exact_fractions() -> None:
    c = combat_odds(HERO, WARRIOR).to_json()
    assert c["attacker_hits"] == {"0": 0.45, "1": 0.3, "2": 0.25}
    assert c["exact"]["attacker_hits"] == {"0": "9/20", "1": "3/10", "2": "1/4"}
    assert c["exact"]["defender"]["killed"] == "2/15"
    assert set(FATES) <= set(c["attacker"]) and set(FATES) <= set(c["defender"])
    assert c["inputs"]["attacker"]["kind"] == "hero" and c["inputs"]["attacker"]["die"] == 10
    s = shoot_odds(7.0, True, "hero").to_json()
    assert (s["hit"], s["needs"], s["range_band"], s["exact"]["hit"]) == (1 / 6, 6, "long", "1/6")
    assert sum(h["p"] for h in s["harm"]) == pytest.approx(1)


# --- a seeded simulation of the same rule functions must agree with every exact figure ----------------


def _classify(start: Harm, end: Harm) -> str:
    if end.killed:
        return "killed"
    if end.wounds > start.wounds:
        return "wounded"
    return "shocked" if end.shock > start.shock else "unharmed"


def _save(rng: SplitMix64, kind: Kind, start: Harm, hits: int) -> Harm:
    harm = start
    for _ in range(hits):
        harm = harm.take(save_effect(rng.below(6) + 1, kind))
    return harm


def _within(exact: F, count: int, n: int, what: str) -> None:
    p = float(exact)
    if p in (0.0, 1.0):
        assert count == round(p * n), what
        return
    se = math.sqrt(p * (1 - p) / n)
    assert abs(count / n - p) <= 4.5 * se, f"{what}: simulated {count / n:.4f}, exact {p:.4f}"


N = 40_000


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (HERO, WARRIOR),
        (Fighter("hero", charging=True), WARRIOR),
        (Fighter("archer", shock=1, wounded=True), Fighter("warrior", higher_ground=True)),
        (Fighter("hero", shock=2, wounded=True), Fighter("slinger", shock=1)),
    ],
)
def test_combat_odds_agree_with_a_seeded_simulation(attacker: Fighter, defender: Fighter) -> None:
    odds = combat_odds(attacker, defender)
    rng = SplitMix64(20240505)
    a_start = Harm(attacker.shock, int(attacker.wounded))
    d_start = Harm(defender.shock, int(defender.wounded))
    a_hits, d_hits, a_fate, d_fate = Counter[int](), Counter[int](), Counter[str](), Counter[str]()
    for _ in range(N):
        a_score = attacker.score(rng.below(attacker.die) + 1)
        d_score = defender.score(rng.below(defender.die) + 1)
        ah, dh = fight_hits(a_score, d_score), fight_hits(d_score, a_score)
        a_hits[ah] += 1
        d_hits[dh] += 1
        d_fate[_classify(d_start, _save(rng, defender.kind, d_start, ah))] += 1
        a_fate[_classify(a_start, _save(rng, attacker.kind, a_start, dh))] += 1
    for n in range(3):
        _within(odds.attacker_hits[n], a_hits[n], N, f"attacker hits {n}")
        _within(odds.defender_hits[n], d_hits[n], N, f"defender hits {n}")
    for name in FATES:
        _within(fates(odds.attacker_fate)[name], a_fate[name], N, f"attacker {name}")
        _within(fates(odds.defender_fate)[name], d_fate[name], N, f"defender {name}")


@pytest.mark.parametrize(
    ("distance", "cover", "target", "shock", "wounded", "shots"),
    [
        (5.0, False, "warrior", 0, False, 1),
        (8.0, True, "hero", 1, True, 2),
        (2.0, False, "hero", 0, False, 2),
    ],
)
def test_shot_odds_agree_with_a_seeded_simulation(
    distance: float, cover: bool, target: Kind, shock: int, wounded: bool, shots: int
) -> None:
    odds = shoot_odds(distance, cover, target, shock, wounded, shots)
    assert odds.needs is not None
    rng = SplitMix64(7)
    start = Harm(shock, int(wounded))
    hits, fate = Counter[int](), Counter[str]()
    for _ in range(N):
        n = sum(1 for _ in range(shots) if rng.below(6) + 1 >= odds.needs)
        hits[n] += 1
        fate[_classify(start, _save(rng, target, start, n))] += 1
    for n in range(shots + 1):
        _within(odds.hits[n], hits[n], N, f"{n} hits")
    for name in FATES:
        _within(fates(odds.fate)[name], fate[name], N, name)


# --- no random number is drawn ------------------------------------------------------------------------


def test_computing_odds_draws_no_random_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise AssertionError("the odds drew a random number")

    forbidden: list[tuple[object, str]] = [
        (random, "random"), (random, "randrange"), (random, "randint"), (random, "choice"),
        (random.Random, "random"), (random.Random, "randrange"), (secrets, "randbelow"),
        (iwgt.core.chance.SplitMix64, "next64"), (iwgt.core.chance.SplitMix64, "below"),
    ]  # fmt: skip
    for owner, name in forbidden:
        monkeypatch.setattr(owner, name, refuse)
    for a in KINDS:
        for d in KINDS:
            combat_odds(Fighter(a, charging=True), Fighter(d, shock=1, wounded=True))
    for target in KINDS:
        shoot_odds(4.0, False, target, shots=2)
        shoot_odds(20.0, True, target)


# --- properties over every kind and modifier -----------------------------------------------------------

fighters = st.builds(
    Fighter,
    kind=st.sampled_from(KINDS),
    shock=st.integers(0, 2),
    wounded=st.booleans(),
    charging=st.booleans(),
    higher_ground=st.booleans(),
)


def _p_higher(a: Fighter, d: Fighter) -> F:
    """P(a's score > d's score), counted without the rule functions: per face of a, the faces of d below."""
    wins = sum(min(max(face + a.modifier - d.modifier - 1, 0), d.die) for face in range(1, a.die + 1))
    return F(wins, a.die * d.die)


@settings(max_examples=150, deadline=None)
@given(attacker=fighters, defender=fighters)
def test_every_distribution_sums_to_one_and_hits_mean_the_higher_score(
    attacker: Fighter, defender: Fighter
) -> None:
    odds = combat_odds(attacker, defender)
    assert_sums_to_one(odds)
    assert set(odds.attacker_hits) == set(odds.defender_hits) == {0, 1, 2}
    assert odds.attacker_hits[1] + odds.attacker_hits[2] == _p_higher(attacker, defender)
    assert odds.defender_hits[1] + odds.defender_hits[2] == _p_higher(defender, attacker)
    # Only one side can score higher, and a figure with no hit taken keeps its hurts.
    assert odds.winner["neither"] >= 0
    assert odds.attacker_fate.unharmed >= odds.defender_hits[0]
    assert odds.defender_fate.unharmed >= odds.attacker_hits[0]


@settings(max_examples=100, deadline=None)
@given(
    distance=st.floats(0, 20, allow_nan=False),
    cover=st.booleans(),
    target=st.sampled_from(KINDS),
    shock=st.integers(0, 2),
    wounded=st.booleans(),
    shots=st.integers(1, 2),
)
def test_every_shot_distribution_sums_to_one(
    distance: float, cover: bool, target: Kind, shock: int, wounded: bool, shots: int
) -> None:
    odds = shoot_odds(distance, cover, target, shock, wounded, shots)
    assert_sums_to_one(odds)
    assert odds.hits[shots] == odds.hit**shots
    assert (odds.hit == 0) == (odds.range_band == "out of range" or odds.needs is None)
