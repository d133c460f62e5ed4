"""Exact pool odds (odds.py): the joint (points, kills) distribution of any mixed pool against icepool as the
oracle (within 1e-12), the text's worked examples as odds, properties (sums to one, the mean is the sum of the
dice's means, fewer casualties against more armour), casualties with Body and a models cap, the 2d6 morale
test (CD-MO-08/09) and a seeded simulation through dice.total."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.chance import SeededDice
from iwgt.games.coloured_dice import odds
from iwgt.games.coloured_dice.dice import COLOURS, die, faces, pool_list, total, wounds
from iwgt.games.coloured_dice.odds import (
    casualties_distribution,
    joint,
    kills_distribution,
    mean,
    morale_break_probability,
    pass_probability,
    points_distribution,
    wounds_distribution,
)

TOLERANCE = 1e-12
"""The issue's bar: equal to icepool within this."""
DIE_MEANS = {
    "white": Fraction(4, 6),
    "blue": Fraction(5, 6),
    "green": Fraction(3, 6),
    "black": Fraction(4, 6),
    "red": Fraction(6, 6),
    "violet": Fraction(8, 6),
    "yellow": Fraction(3, 6),
    "orange": Fraction(9, 6),
}
"""Points per die by hand from the faces ('miss' and 'kill' 0): the translation's DERIVED means (II A)."""
MIXED_40 = {c: 5 for c in COLOURS}
"""A 40-die pool of every colour, kills included (the issue's size)."""


def oracle(pool: dict[str, int]) -> icepool.Die:
    """The pool's (points, kills) as an icepool die of vectors, built from the faces apart from odds.py."""
    result = icepool.Die([icepool.Vector((0, 0))])
    for colour in pool_list(pool):
        one = [
            icepool.Vector((f if isinstance(f, int) else 0, 1 if f == "kill" else 0)) for f in faces(colour)
        ]
        result = result + icepool.Die(one)
    return result


def icepool_map(d: icepool.Die) -> dict[object, float]:
    """An icepool die as {outcome: probability}."""
    den = d.denominator()
    return {o: q / den for o, q in d.items()}


def assert_close(ours: dict[int, float], theirs: dict[object, float]) -> None:
    as_int = {int(k): p for k, p in theirs.items()}  # type: ignore[call-overload]
    worst = max(abs(ours.get(k, 0.0) - as_int.get(k, 0.0)) for k in set(ours) | set(as_int))
    assert worst <= TOLERANCE, worst


POOLS = [
    {"white": 1},
    {"green": 1},
    {"white": 10},
    {"blue": 16},
    {"white": 10, "black": 5},
    {"green": 4, "black": 3, "orange": 2},
    {"red": 7, "violet": 3, "yellow": 6},
    MIXED_40,
]


@pytest.mark.parametrize("pool", POOLS, ids=[",".join(f"{n}{c}" for c, n in p.items()) for p in POOLS])
def test_joint_equals_icepool(pool: dict[str, int]) -> None:
    truth = icepool_map(oracle(pool))
    cells = [(int(v[0]), int(v[1])) for v in truth]  # type: ignore[index]
    grid = joint(pool)
    rows = max(grid.shape[0], 1 + max(p for p, _ in cells))
    cols = max(grid.shape[1], 1 + max(k for _, k in cells))
    theirs = np.zeros((rows, cols))
    for (p, k), chance in zip(cells, truth.values(), strict=True):
        theirs[p, k] = chance
    ours = np.zeros((rows, cols))
    ours[: grid.shape[0], : grid.shape[1]] = grid
    assert np.abs(ours - theirs).max() <= TOLERANCE


@pytest.mark.parametrize(
    ("armour", "models", "body", "wounds_on"), [(0, None, 1, 0), (1, 6, 1, 0), (3, 4, 3, 2)]
)
def test_points_wounds_and_casualties_equal_icepool(
    armour: int, models: int | None, body: int, wounds_on: int
) -> None:
    pool = {"white": 6, "green": 3, "black": 2, "orange": 3}
    d = oracle(pool)
    assert_close(points_distribution(pool), icepool_map(d.map(lambda v: v[0])))
    assert_close(kills_distribution(pool), icepool_map(d.map(lambda v: v[1])))
    assert_close(wounds_distribution(pool, armour), icepool_map(d.map(lambda v: v[0] // (armour + 1) + v[1])))

    def removed(v: icepool.Vector) -> int:
        n = (v[0] // (armour + 1) + v[1] + wounds_on) // body
        return n if models is None else min(n, models)

    ours = casualties_distribution(pool, armour, models=models, body=body, wounds_on=wounds_on)
    assert_close(ours, icepool_map(d.map(removed)))


def test_an_empty_pool_rolls_nothing() -> None:
    assert points_distribution({}) == {0: 1.0}
    assert casualties_distribution({}, 0) == {0: 1.0}


def test_one_white_die_by_hand() -> None:
    # white: 1, 1, 2, miss, miss, miss
    assert points_distribution({"white": 1}) == pytest.approx({0: 3 / 6, 1: 2 / 6, 2: 1 / 6})
    # Against armour 1 only the 2 takes a model.
    assert casualties_distribution({"white": 1}, 1) == pytest.approx({0: 5 / 6, 1: 1 / 6})


def test_cd_di_13_a_green_kill_takes_a_model_through_any_armour() -> None:
    # green: 0, 0, 0, 1, 2, kill. Against armour 5 no number face wounds; only the kill does.
    assert casualties_distribution({"green": 1}, 5) == pytest.approx({0: 5 / 6, 1: 1 / 6})
    # Two green dice: a kill each with 1/6; at least one kill 11/36.
    dist = casualties_distribution({"green": 2}, 9)
    assert dist[0] == pytest.approx(25 / 36) and dist[2] == pytest.approx(1 / 36)


def test_cd_fi_07_ten_white_dice_against_armour_1() -> None:
    # The example rolled 7 (3 models). The chance of exactly 7 points, by hand: the points of the six number
    # faces... checked here against counting the 6^10 faces by generating function with exact fractions.
    poly = {0: Fraction(1)}
    for _ in range(10):
        nxt: dict[int, Fraction] = {}
        for p, q in poly.items():
            for f in faces("white"):
                v = f if isinstance(f, int) else 0
                nxt[p + v] = nxt.get(p + v, Fraction(0)) + q / 6
        poly = nxt
    assert points_distribution({"white": 10})[7] == pytest.approx(float(poly[7]), abs=1e-15)
    dist = casualties_distribution({"white": 10}, 1)
    assert dist[3] == pytest.approx(float(poly[6] + poly[7]), abs=1e-15)  # 6 or 7 points remove 3


def test_cd_ra_05_sixteen_blue_dice_against_armour_3() -> None:
    # 11 points at 4 a casualty: 2. The chance of exactly 2 casualties is P(8..11 points).
    points = points_distribution({"blue": 16})
    dist = casualties_distribution({"blue": 16}, 3)
    assert dist[2] == pytest.approx(sum(points.get(p, 0.0) for p in range(8, 12)), abs=1e-15)


def test_casualties_are_capped_at_the_models() -> None:
    dist = casualties_distribution({"red": 20}, 0, models=3)
    assert max(dist) == 3
    assert dist[3] == pytest.approx(
        sum(p for n, p in casualties_distribution({"red": 20}, 0).items() if n >= 3)
    )


def test_body_and_wounds_already_on_the_model() -> None:
    # A Body-3 troll with 2 wounds on it: the first wound removes it, the next 3 the second troll.
    w = wounds_distribution({"orange": 2}, 0)
    dist = casualties_distribution({"orange": 2}, 0, body=3, wounds_on=2)
    assert dist[0] == pytest.approx(w[0])
    assert dist[1] == pytest.approx(sum(w.get(n, 0.0) for n in (1, 2, 3)))
    assert dist[2] == pytest.approx(sum(w.get(n, 0.0) for n in (4, 5, 6)))
    with pytest.raises(ValueError):
        casualties_distribution({"orange": 2}, 0, body=3, wounds_on=3)
    with pytest.raises(ValueError):
        casualties_distribution({"orange": 2}, 0, body=0)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="armour"):
        wounds_distribution({"white": 2}, -1)
    with pytest.raises(ValueError, match="unknown colour 'pink'"):
        joint({"pink": 2})
    with pytest.raises(ValueError):
        joint({"white": -2})


def test_the_cached_grids_are_read_only() -> None:
    grid = joint({"black": 3, "white": 2})
    with pytest.raises(ValueError):
        grid[0, 0] = 1.0
    assert not odds.colour_distribution("black", 3).flags.writeable


def test_a_pool_beyond_the_cache_is_still_exact() -> None:
    count = odds.CACHED_COUNT + 3
    dist = kills_distribution({"green": count})
    # Kills are binomial (count, 1/6).
    for k in (0, 5, 11):
        assert dist[k] == pytest.approx(comb(count, k) * (1 / 6) ** k * (5 / 6) ** (count - k), rel=1e-9)
    assert mean(points_distribution({"white": count})) == pytest.approx(count * 4 / 6)


pools = st.dictionaries(st.sampled_from(COLOURS), st.integers(min_value=0, max_value=7), max_size=8)


@settings(max_examples=60, deadline=None)
@given(pools, st.integers(min_value=0, max_value=6))
def test_distributions_sum_to_one_and_mean_is_the_sum_of_the_dice_means(
    pool: dict[str, int], armour: int
) -> None:
    points = points_distribution(pool)
    assert sum(points.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(casualties_distribution(pool, armour).values()) == pytest.approx(1.0, abs=1e-12)
    expected = sum(float(DIE_MEANS[c] * n) for c, n in pool.items())
    assert mean(points) == pytest.approx(expected, abs=1e-9)
    assert mean(kills_distribution(pool)) == pytest.approx((pool.get("green", 0) + pool.get("black", 0)) / 6)
    assert all(p > 0 for p in points.values())


@settings(max_examples=60, deadline=None)
@given(pools, st.integers(min_value=0, max_value=5), st.integers(min_value=1, max_value=3))
def test_more_armour_never_means_more_casualties(pool: dict[str, int], armour: int, extra: int) -> None:
    low = casualties_distribution(pool, armour)
    high = casualties_distribution(pool, armour + extra)

    def at_least(dist: dict[int, float], n: int) -> float:
        return sum(p for k, p in dist.items() if k >= n)

    for n in range(1, max(low) + 1):
        assert at_least(high, n) <= at_least(low, n) + 1e-12


# --- morale ------------------------------------------------------------------------------------------------


def test_cd_mo_11_human_archers_need_under_7_or_under_10() -> None:
    # CD-MO-11: Us 7, 10 models: 2d6 under 7 = 15/36; with a leader, under 10 = 30/36.
    assert pass_probability(7, 0) == pytest.approx(15 / 36)
    assert pass_probability(10, 0) == pytest.approx(30 / 36)


def test_cd_mo_08_09_a_2_always_passes_and_a_12_always_fails() -> None:
    assert pass_probability(2, 0) == pytest.approx(1 / 36)  # nothing is under 2 but the 2 itself
    assert pass_probability(-5, 9) == pytest.approx(1 / 36)
    assert pass_probability(25, 0) == pytest.approx(35 / 36)  # 12 fails though it is under 25
    assert pass_probability(25, -30) == pytest.approx(35 / 36)


def test_the_modifier_adds_to_the_roll() -> None:
    # Round losses 2, general morale +1: roll + 1 under 7 = a roll under 6: 10/36.
    assert pass_probability(7, 2 - 1) == pytest.approx(10 / 36)


def test_morale_break_and_destroyed_from_a_casualties_distribution() -> None:
    casualties = {0: 0.5, 1: 0.25, 2: 0.125, 3: 0.125}
    fails, destroyed = morale_break_probability(
        casualties, models=3, target_of=lambda left: left + 5, round_losses=False, general_morale=0
    )
    # 1 lost: target 7 -> fails 21/36; 2 lost: target 6 -> fails 26/36; 3 lost: destroyed, no test.
    assert destroyed == pytest.approx(0.125)
    assert fails == pytest.approx(0.25 * 21 / 36 + 0.125 * 26 / 36)
    # Close combat: the losses add to the roll; 1 lost, target 7: roll + 1 under 7 fails 26/36; 2 lost,
    # target 6: roll + 2 under 6 passes on 2 and 3 only (3/36), fails 33/36.
    fails_cc, _ = morale_break_probability(
        casualties, models=3, target_of=lambda left: left + 5, round_losses=True, general_morale=0
    )
    assert fails_cc == pytest.approx(0.25 * 26 / 36 + 0.125 * 33 / 36)
    # Earlier losses of the round add too, general morale helps.
    fails_more, _ = morale_break_probability(
        {1: 1.0}, models=3, target_of=lambda left: 7, round_losses=True, general_morale=2, earlier_losses=1
    )
    assert fails_more == pytest.approx(1 - pass_probability(7, 1 + 1 - 2))


# --- seeded simulation through the same code as the table -------------------------------------------------


def test_seeded_rolls_through_dice_total_match_the_exact_odds() -> None:
    pool = {"white": 5, "green": 2, "violet": 2, "black": 1}
    colours = pool_list(pool)
    chance = SeededDice(20260512)
    rolls = 6000
    seen: Counter[int] = Counter()
    for _ in range(rolls):
        rolled = total(colours, [chance.roll(die(c, "sim")) for c in colours])
        seen[wounds(rolled.points, rolled.kills, 1)] += 1
    exact = wounds_distribution(pool, 1)
    # A wide bound (about 5 standard errors at p = 0.5): a wrong distribution is far outside, a right one
    # with this fixed seed well inside.
    for n in set(exact) | set(seen):
        assert abs(seen[n] / rolls - exact.get(n, 0.0)) < 0.035, (n, seen[n] / rolls, exact.get(n, 0.0))
    assert abs(np.mean([n for n, c in seen.items() for _ in range(c)]) - mean(exact)) < 0.05
