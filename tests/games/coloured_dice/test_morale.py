"""Morale (CD-MO, CD-MM, CD-GM): the cap, the target, the 2d6 test and general morale, computed by hand
from the text's own words and examples."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.games.coloured_dice.morale import (
    general_morale_change,
    general_morale_sign,
    morale_cap,
    morale_target,
    starting_us,
    test_passes,
    unit_destroyed_event,
)
from iwgt.games.coloured_dice.rules import Profile, profile

ROLLS: list[tuple[int, int]] = [(a, b) for a, b in product(range(1, 7), repeat=2)]
"""The 36 equally likely rolls of 2d6."""


def archers(**change: object) -> Profile:
    """The text's human archers (Us 7, ten of them, CD-MO-11), changed for a case."""
    return profile("kaleva", "archers").model_copy(update=change)


def passing(target: int, *, losses: int = 0, gm: int = 0) -> tuple[set[int], Fraction]:
    """The totals that pass and the chance of passing, by counting all 36 rolls."""
    passed = [r for r in ROLLS if test_passes(r, target=target, round_losses=losses, general_morale=gm)]
    return {a + b for a, b in passed}, Fraction(len(passed), 36)


def test_the_human_archers_roll_under_7_cd_mo_11() -> None:
    p = archers()
    assert (p.us, p.us_kind, p.models, p.leader) == (7, "Us", 10, False)
    target = morale_target(p, 10, leader_alive=False)
    assert target == 7
    totals, chance = passing(target)
    assert totals == {2, 3, 4, 5, 6} and chance == Fraction(15, 36)


def test_with_a_commander_the_archers_roll_under_their_headcount_cd_mo_12() -> None:
    p = archers(leader=True)
    assert morale_cap(p, leader_alive=True) == 14  # "their Us would be doubled, i.e. it would be 14"
    target = morale_target(p, 10, leader_alive=True)
    assert target == 10  # "they would have to roll under 10 ..., that is, the unit's headcount"
    totals, chance = passing(target)
    assert totals == set(range(2, 10)) and chance == Fraction(30, 36)


def test_a_dead_commander_no_longer_doubles_cd_mo_04() -> None:
    assert morale_cap(archers(leader=True), leader_alive=False) == 7
    assert morale_target(archers(leader=True), 10, leader_alive=False) == 7


def test_losses_lower_the_target_to_the_headcount_cd_mo_10() -> None:
    p = archers()
    assert [morale_target(p, n, leader_alive=False) for n in (10, 8, 7, 6, 3, 1)] == [7, 7, 7, 6, 3, 1]


def test_twelve_always_fails_and_two_always_passes_cd_mo_08_09() -> None:
    assert not test_passes((6, 6), target=25, round_losses=0, general_morale=0)
    assert not test_passes((6, 6), target=25, round_losses=0, general_morale=20)
    assert test_passes((1, 1), target=1, round_losses=0, general_morale=0)
    assert test_passes((1, 1), target=2, round_losses=10, general_morale=-6)
    # 11 against 25 passes: only 12 is the automatic failure.
    assert test_passes((5, 6), target=25, round_losses=0, general_morale=0)


def test_under_means_strictly_under_cd_mo_02() -> None:
    assert test_passes((3, 3), target=7, round_losses=0, general_morale=0)
    assert not test_passes((4, 3), target=7, round_losses=0, general_morale=0)


def test_the_cap_is_at_most_2x10_plus_5_cd_mo_05_06() -> None:
    best = archers(us=10, leader=True, leader_bonus=5)
    assert morale_cap(best, leader_alive=True) == 25  # 2 x 10 + 5
    assert morale_target(best, 40, leader_alive=True) == 25
    beyond = archers(us=12, leader=True, leader_bonus=5, us_exception="a designed exception")
    assert morale_cap(beyond, leader_alive=True) == 25  # 29 held at 25


def test_the_cap_is_at_least_5_cd_mo_07_ch_30() -> None:
    poor = archers(us=5, leader=True, leader_bonus=-5)
    assert morale_cap(poor, leader_alive=True) == 5  # 2 x 5 - 5
    rabble = archers(us=3, us_exception="a designed exception")
    assert morale_cap(rabble, leader_alive=False) == 5
    # The headcount still limits a unit's target below 5 (CD-MO-10): three rabble test under 3.
    assert morale_target(rabble, 3, leader_alive=False) == 3
    assert morale_cap(archers(us=6, leader=True, leader_bonus=-5), leader_alive=True) == 7


def test_a_better_leader_adds_after_doubling_cd_mo_05() -> None:
    brothers = profile("kaleva", "sword_brothers")
    assert (brothers.us, brothers.leader, brothers.leader_bonus) == (8, True, 2)
    assert morale_cap(brothers, leader_alive=True) == 18  # 8 x 2 + 2, not (8 + 2) x 2
    assert morale_cap(brothers, leader_alive=False) == 8  # the bonus is the leader's: gone with him
    guard = profile("kaleva", "hearth_guard")  # the elite guard: 10 x 2 + 5 = 25, the cap's top
    assert morale_cap(guard, leader_alive=True) == 25 and morale_cap(guard, leader_alive=False) == 10


def test_an_individual_is_not_capped_by_its_headcount_cd_mo_01() -> None:
    hero = profile("kaleva", "lemminkainen")
    assert hero.us_kind == "iUs" and hero.models == 1
    assert morale_target(hero, 1, leader_alive=False) == 9  # a lone hero tests under his iUs 9
    assert (
        morale_target(archers(), 1, leader_alive=False) == 1
    )  # a lone archer under 1: always fails but on 2


def test_no_models_no_test() -> None:
    with pytest.raises(ValueError, match="gone"):
        morale_target(archers(), 0, leader_alive=False)


def test_close_combat_losses_make_the_test_harder_cd_mm_02_03() -> None:
    # Target 7, roll 5: passes with 1 loss this round (6 < 7), fails with 2 (7 is not under 7).
    assert test_passes((3, 2), target=7, round_losses=1, general_morale=0)
    assert not test_passes((3, 2), target=7, round_losses=2, general_morale=0)
    totals, chance = passing(7, losses=2)
    assert totals == {2, 3, 4} and chance == Fraction(6, 36)


def test_general_morale_helps_or_hurts_every_test_cd_gm_01_mm_05() -> None:
    assert not test_passes((4, 3), target=7, round_losses=0, general_morale=0)
    assert test_passes((4, 3), target=7, round_losses=0, general_morale=1)
    assert not test_passes((3, 3), target=7, round_losses=0, general_morale=-1)
    totals, _ = passing(7, gm=2)
    assert totals == set(range(2, 9))
    totals, _ = passing(7, losses=1, gm=-1)
    assert totals == {2, 3, 4}


def test_dice_are_d6() -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        test_passes((0, 6), target=7, round_losses=0, general_morale=0)
    with pytest.raises(ValueError, match="negative"):
        test_passes((1, 6), target=7, round_losses=-1, general_morale=0)


# ------------------------------------------------------------------ general morale (CD-GM)


def test_starting_us_includes_the_leader_cd_gm_05() -> None:
    assert starting_us(profile("kaleva", "hearth_guard")) == 25  # 10 x 2 + 5: the elite guard
    assert starting_us(profile("kaleva", "sword_brothers")) == 18  # 8 x 2 + 2
    assert starting_us(profile("kaleva", "levy")) == 6
    assert starting_us(profile("pohjola", "troll")) == 7
    assert starting_us(archers(us=10, leader=True, leader_bonus=5)) == 25


def test_a_destroyed_unit_makes_only_the_higher_row_cd_gm_05_06() -> None:
    assert unit_destroyed_event(25, own=True) == "own_unit_destroyed_25"
    assert general_morale_change("own_unit_destroyed_25") == -2  # not -3: only the higher row applies
    assert unit_destroyed_event(24, own=True) == "own_unit_destroyed_15"
    assert unit_destroyed_event(15, own=True) == "own_unit_destroyed_15"
    assert general_morale_change("own_unit_destroyed_15") == -1
    assert unit_destroyed_event(14, own=True) is None


def test_an_enemy_unit_counts_only_from_25_cd_gm_11() -> None:
    assert unit_destroyed_event(25, own=False) == "enemy_unit_destroyed_25"
    assert general_morale_change("enemy_unit_destroyed_25") == 1
    assert unit_destroyed_event(24, own=False) is None  # no row for an enemy of 15-24
    assert unit_destroyed_event(17, own=False) is None


def test_the_d6_rows_take_their_sign_cd_gm_04_09_10() -> None:
    for event, sign in (("own_leader_killed", -1), ("destroyed_by_own_fire", -1), ("enemy_leader_killed", 1)):
        assert general_morale_change(event) == "d6"
        assert general_morale_sign(event) == sign


def test_the_fixed_rows_cd_gm_07_08_12_13() -> None:
    assert general_morale_change("own_banner_lost") == -1
    assert general_morale_change("own_fire") == -1
    assert general_morale_change("enemy_banner_captured") == 1
    assert general_morale_change("objective_achieved") == 1
    with pytest.raises(KeyError, match="known"):
        general_morale_change("unit_sneezed")


# ------------------------------------------------------------------ properties

MORALE = st.fixed_dictionaries(
    {
        "us": st.integers(1, 12),
        "leader": st.booleans(),
        "leader_bonus": st.integers(-5, 5),
        "us_kind": st.sampled_from(["Us", "iUs"]),
    }
)


@settings(max_examples=200, deadline=None)
@given(MORALE, st.integers(1, 40), st.booleans())
def test_the_target_is_within_1_and_25(change: dict[str, object], models: int, alive: bool) -> None:
    target = morale_target(archers(**change), models, leader_alive=alive)
    assert 1 <= target <= 25
    assert 5 <= morale_cap(archers(**change), leader_alive=alive) <= 25


@settings(max_examples=200, deadline=None)
@given(MORALE, st.integers(1, 39), st.booleans())
def test_more_models_never_lower_the_target(change: dict[str, object], models: int, alive: bool) -> None:
    p = archers(**change)
    assert morale_target(p, models + 1, leader_alive=alive) >= morale_target(p, models, leader_alive=alive)


@settings(max_examples=200, deadline=None)
@given(MORALE, st.integers(1, 40))
def test_a_living_leader_never_lowers_the_target(change: dict[str, object], models: int) -> None:
    p = archers(**change)
    assert morale_target(p, models, leader_alive=True) >= morale_target(p, models, leader_alive=False)


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    st.integers(1, 25),
    st.integers(0, 10),
    st.integers(-10, 10),
)
def test_the_test_is_monotone(roll: tuple[int, int], target: int, losses: int, gm: int) -> None:
    """A higher target or general morale never turns a pass into a failure; more losses never turn a failure
    into a pass; 2 and 12 do not depend on anything."""
    now = test_passes(roll, target=target, round_losses=losses, general_morale=gm)
    assert test_passes(roll, target=target + 1, round_losses=losses, general_morale=gm) >= now
    assert test_passes(roll, target=target, round_losses=losses, general_morale=gm + 1) >= now
    assert test_passes(roll, target=target, round_losses=losses + 1, general_morale=gm) <= now
    if sum(roll) == 12:
        assert not now
    if sum(roll) == 2:
        assert now
