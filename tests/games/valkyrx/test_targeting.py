"""Automatic target selection (section 9), expectations by hand."""

from __future__ import annotations

from iwgt.games.valkyrx.targeting import (
    can_fire,
    candidates,
    firing_groups,
    firing_order,
    order_rolls_needed,
    select_targets,
)

from .kit import position, tweak


def targets(state, firers):  # type: ignore[no-untyped-def]
    occ = state.occupancy()
    return {f.id: t.id for f, t in select_targets(state, [state.units[i] for i in firers], occ)}


def test_vx_09_03_the_wolf_closest_to_the_sledge() -> None:
    # Archers (range 3) at (5,4); Wearg at distance 3 (5,1) and distance 2 (7,4).
    state = position([("archers", (5, 4))], [("wearg_warriors", (5, 1)), ("wearg_warriors", (7, 4))])
    assert targets(state, [0]) == {0: 2}


def test_vx_09_04_routed_enemies_are_not_engaged() -> None:
    state = position([("archers", (5, 4))], [("wearg_warriors", (5, 1)), ("wearg_warriors", (7, 4))])
    state = tweak(state, 2, routed=True)
    assert targets(state, [0]) == {0: 1}


def test_vx_09_05_enemies_engaged_with_friends_are_not_engaged() -> None:
    state = position(
        [("archers", (5, 4)), ("guardsmen", (8, 4))], [("wearg_warriors", (5, 1)), ("wearg_warriors", (7, 4))]
    )
    assert targets(state, [0]) == {0: 2}  # the nearer Wearg stands next to the Guardsmen


def test_vx_09_06_a_weak_target_yields_to_a_more_powerful_one() -> None:
    # Archers are worth 900. A Wearg unit at 60 of 300 men is worth 1200 x 0.2 = 240 >= 225: still a target;
    # at 40 men, 160 < 25% of 900: passed over for the full unit farther away.
    state = position([("archers", (5, 4))], [("wearg_warriors", (5, 1)), ("wearg_warriors", (7, 4))])
    assert targets(tweak(state, 2, strength=60.0), [0]) == {0: 2}
    assert targets(tweak(state, 2, strength=40.0), [0]) == {0: 1}
    alone = position([("archers", (5, 4))], [("wearg_warriors", (7, 4))])
    assert targets(tweak(alone, 1, strength=40.0), [0]) == {0: 1}  # no stronger enemy: the weak one is shot


def test_vx_09_08_vx_09_09_different_targets_then_shared() -> None:
    state = position(
        [("archers", (5, 4)), ("archers", (6, 4))], [("wearg_warriors", (5, 1)), ("wearg_warriors", (7, 2))]
    )
    got = targets(state, [0, 1])
    assert sorted(got.values()) == [2, 3]
    one = position([("archers", (5, 4)), ("archers", (6, 4))], [("wearg_warriors", (6, 2))])
    assert targets(one, [0, 1]) == {0: 2, 1: 2}


def test_vx_09_07_vx_09_11_highest_value_first_ties_by_the_dice() -> None:
    state = position(
        [("archers", (5, 4)), ("archers", (6, 4)), ("trebuchet", (6, 6))], [("wearg_warriors", (6, 1))]
    )
    groups = firing_groups(state, list(state.units[:3]))
    assert [[u.id for u in g] for g in groups] == [[0, 1], [2]]  # 900, 900, then 500
    assert order_rolls_needed(groups) == [2]  # one d2 orders the two archers
    assert [u.id for u in firing_order(groups, [1])] == [0, 1, 2]
    assert [u.id for u in firing_order(groups, [2])] == [1, 0, 2]


def test_vx_13_laf_1_the_spider_hunts_dwarfs() -> None:
    # The Guardsmen at (5,3) are 2 cells from the spider at (5,5) and not engaged; the Dwarfs are 3 away.
    state = position([("guardsmen", (5, 3)), ("dwarfs", (5, 8))], [("giant_spider", (5, 5))])
    spider = state.units[2]
    assert [u.id for u in candidates(state, spider, state.occupancy())] == [1]
    assert targets(state, [2]) == {2: 1}


def test_vx_04_07_missile_units_that_moved_over_half_do_not_fire() -> None:
    state = position([("archers", (5, 4))], [("wearg_warriors", (5, 1))])
    archers = state.units[0]
    assert can_fire(state, tweak(state, 0, moved_cost=1.0).units[0], set())  # 1 of 2: exactly 50%
    assert not can_fire(state, tweak(state, 0, moved_cost=2.0).units[0], set())
    assert not can_fire(state, archers, {0})  # in close combat: fights hand to hand instead
