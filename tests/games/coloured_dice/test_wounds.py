"""Wounds, Body, kills, bear wound and hero points through the engine (CD-CH-06..20, CD-DI-13, CD-MS-10).

Red faces: 1 -> 1, 2 -> 2, 3 -> 3, 4..6 -> miss. White: 1, 2 -> 1, 3 -> 2, 4..6 -> miss. Black: 1, 2 -> 0,
3, 4 -> 1, 5 -> 2, 6 -> kill.
"""

from __future__ import annotations

import pytest
from tests.games.coloured_dice.combat_kit import combat_profiles, drive, of, state, unit

from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.actions import BearWound, Hero
from iwgt.games.coloured_dice.combat_events import (
    BearWoundRolled,
    GeneralMoraleChanged,
    HeroPointsSpent,
    PoolRolled,
    WoundsTaken,
)
from iwgt.games.coloured_dice.pending import Attack, BearAsk, D6Roll, HeroAsk

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")

MISS = 4


def _at(target_key: str, dice: tuple[str, ...], armour: int, **kw: object) -> resolve.Step:
    """An attack (a shot: no fight follows) of the axemen at a lone target far away."""
    a = unit(0, 0, "axemen", (20.0, 5.0))
    t = unit(1, 1, target_key, (20.0, 30.0), **kw)  # type: ignore[arg-type]
    return resolve.begin_attack(state(a, t), Attack("shot", 0, 1, dice, armour))


def test_cd_ch_17_worked_example() -> None:
    """CD-CH-17 as printed: 3 points of damage through armour; miss, then 3: the whole wound cancelled."""
    # 3 white 3s = 6 points at armour 1: 3 wounds. The hero's points would change it: he keeps them (0).
    st, ev = drive(_at("hero", ("white",) * 3, 1), [3, 3, 3, Hero(0)])
    assert of(ev, PoolRolled)[0].wounds == 3
    assert st.top == BearAsk(1, 1, "red", st.top.wounds)  # type: ignore[union-attr]
    st, ev = drive((st, ev), [BearWound(True), 4, BearWound(True), 3])
    rolls = of(ev, BearWoundRolled)
    assert [(r.cancelled, r.wounds_left, r.dice_left) for r in rolls] == [(0, 3, 1), (3, 0, 0)]
    assert st.unit(1).models == 1 and st.unit(1).bear_left == 0
    assert not st.pending
    assert not of(ev, WoundsTaken)


def test_cd_ch_16_the_wound_may_be_let_through() -> None:
    """CD-CH-16: the owner declines: the wounds go through; the dice stay for later (CD-CH-15)."""
    st, _ = drive(_at("hero", ("white",) * 3, 1), [3, 3, 3, Hero(0), BearWound(False)])
    assert st.unit(1).destroyed and st.unit(1).bear_left == 2


def test_cd_ch_13_excess_cancellation_is_lost_and_unused_dice_stay() -> None:
    """CD-CH-13/15 decision: 1 wound, a red 3 cancels it (2 wasted); the second die stays in the pool."""
    st, ev = drive(_at("hero", ("white",), 1), [3, Hero(0), BearWound(True), 3])
    assert of(ev, BearWoundRolled)[0].cancelled == 1
    assert st.unit(1).bear_left == 1 and st.unit(1).models == 1


def test_cd_ch_18_the_targets_hero_points_take_points_off_the_roll() -> None:
    """CD-CH-18..20: 4 points at armour 1 (2 wounds); the hero spends 2 points as -2: 2 points, 1 wound."""
    st, ev = drive(_at("hero", ("white",) * 2, 1), [3, 3])
    ask = st.top
    assert isinstance(ask, HeroAsk) and ask.unit == 1
    offered = resolve.questions(st, 1)
    assert offered == [Hero(k) for k in range(-2, 3)]  # + needs a number die: there are two
    st, ev = drive((st, ev), [Hero(-2)])
    assert of(ev, HeroPointsSpent)[0].left == 0
    assert of(ev, PoolRolled)[0].points == 2 and of(ev, PoolRolled)[0].wounds == 1


def test_cd_ch_18_no_question_when_no_choice_changes_the_wounds() -> None:
    """CD-CH-18 decision: all misses: no die can go up, none down: the hero is not asked."""
    st, _ = drive(_at("hero", ("white",) * 2, 1), [MISS, MISS])
    assert not st.pending


def test_cd_ch_18_an_attacking_hero_is_asked_first_and_may_add() -> None:
    """The attacker's side is asked first: the hero adds +1 to 3 points at armour 1: 2 wounds, not 1."""
    hero = unit(0, 0, "hero", (20.0, 5.0))
    target = unit(1, 1, "militia", (20.0, 30.0), models=4)
    step = resolve.begin_attack(state(hero, target), Attack("shot", 0, 1, ("red",), 1))
    st, ev = drive(step, [3])
    assert isinstance(st.top, HeroAsk) and st.top.seat == 0
    st, ev = drive((st, ev), [Hero(1), 1, 1])  # then the militia's morale test
    assert st.unit(1).models == 2
    assert st.unit(0).hero_left == 1


def test_cd_ch_06_a_body_3_troll_carries_wounds_over_attacks() -> None:
    """CD-CH-06, CD-MS-10: Body 3: 2 wounds stay on the troll; 1 more removes it."""
    st, _ = drive(_at("troll", ("white",) * 2, 0), [3, 3])  # 4 points at armour 0: 4 wounds
    assert st.unit(1).destroyed  # 4 wounds >= Body 3: gone
    st, ev = drive(_at("troll", ("white",), 0), [3])  # 2 points at armour 0: 2 wounds
    assert (st.unit(1).models, st.unit(1).wounds) == (1, 2)
    taken = of(ev, WoundsTaken)[0]
    assert (taken.removed, taken.wounds_on) == (0, 2)
    a = st.units[0]
    st2, _ = drive(resolve.begin_attack(st, Attack("shot", a.id, 1, ("white",), 0)), [1])
    assert st2.unit(1).destroyed and st2.unit(1).models == 0 and st2.unit(1).wounds == 0


def test_cd_di_13_a_kill_ignores_armour() -> None:
    """CD-DI-13 decision: a black kill face is a wound at any armour; its 0 points add nothing."""
    st, ev = drive(_at("militia", ("black",), 9, models=4), [6, 1, 1])
    rolled = of(ev, PoolRolled)[0]
    assert (rolled.points, rolled.kills, rolled.wounds) == (0, 1, 1)
    assert st.unit(1).models == 3


def test_casualties_come_off_the_rear_and_the_front_stays() -> None:
    """CD-MS-10 decision: 12 models in 6 files lose 6: the front edge stays where it was."""
    st, _ = drive(_at("militia", ("white",) * 3, 0, files=6), [3, 3, 3, 1, 1])
    u = st.unit(1)
    before = unit(1, 1, "militia", (20.0, 30.0), files=6)
    assert u.models == 6 and u.files == 6
    assert u.tray.front_centre() == pytest.approx(before.tray.front_centre())
    assert u.tray.depth == pytest.approx(before.tray.depth / 2)


def test_cd_gm_04_10_the_army_leader_dies_one_d6_both_sides() -> None:
    """CD-GM-04/10 decision: the general (the hero) dies: one d6 (here 4): his side -4, the enemy +4."""
    st, ev = drive(_at("hero", ("white",) * 3, 1, general=True), [3, 3, 3, Hero(0), BearWound(False)])
    assert isinstance(st.top, D6Roll)
    st, ev = drive((st, ev), [4])
    assert st.general_morale == (4, -4)
    assert {(e.seat, e.row) for e in of(ev, GeneralMoraleChanged)} >= {
        (1, "own_leader_killed"),
        (0, "enemy_leader_killed"),
    }


def test_cd_ch_17_from_a_rain_of_arrows_through_a_real_shot() -> None:
    """CD-CH-17 through a shot: four javelin men 5" from the hero (armour 1 + skill 0 + band 0 = 1) throw
    2 + 2 + 2 + miss = 6 points: 3 wounds; miss, then 3: all cancelled, no bear wound left, no test."""
    jav = unit(0, 0, "javelins", (20.0, 5.0), models=4, files=4)  # front edge y = 5.5
    hero = unit(1, 1, "hero", (20.0, 11.0))  # near edge y = 10.5: 5" away
    st, ev = drive(resolve.begin_shot(state(jav, hero), 0, 1), [4, 4, 4, 5, Hero(0)])
    assert of(ev, PoolRolled)[0].armour == 1 and of(ev, PoolRolled)[0].wounds == 3
    st, ev = drive((st, ev), [BearWound(True), 4, BearWound(True), 3])
    assert st.unit(1).models == 1 and st.unit(1).bear_left == 0
    assert not st.pending


def test_cd_ch_18_an_answer_not_on_offer_names_the_range_or_the_question() -> None:
    """CD-CH-18: with -2..2 on offer, hero 3 is refused naming the range; a bear-wound answer to the hero
    question is refused naming the question asked (hero points)."""
    from iwgt.core.errors import IllegalAction

    st, _ = drive(_at("hero", ("white",) * 2, 1), [3, 3])
    with pytest.raises(IllegalAction, match=r"3 hero points is outside -2\.\.2"):
        resolve.advance(st, Hero(3))
    with pytest.raises(IllegalAction, match="the question is hero points"):
        resolve.advance(st, BearWound(True))
