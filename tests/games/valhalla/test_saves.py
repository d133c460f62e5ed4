"""The Dice of Death and its markers (VH-ST-01..12), shock's one action and recovering (VH-AC-03, VH-AC-13,
VH-AC-14).

Seat 0's archer (figure 2) at (10,10) shoots seat 1's figures 6" away at (17,10) (close: 4-6) with a 6, then
the Dice of Death is rolled by hand.
"""

from __future__ import annotations

import pytest

from iwgt.games.valhalla.actions import Move, Recover, Shoot
from iwgt.games.valhalla.dice import Harm, save_effect
from iwgt.games.valhalla.events import (
    ActivationEnded,
    FigureActivated,
    FigureHurt,
    FigureKilled,
    Recovered,
    SavingThrow,
)
from iwgt.games.valhalla.state import ValhallaState

from .kit import GAME, act, of, pass_to, position, refused, tweak

ARCHER = [(2, 2), (4, 2), (10, 10)]
WARRIOR_AT_17 = [(46, 30), (17, 10), (42, 30)]
HERO_AT_17 = [(17, 10), (44, 30), (42, 30)]


def hit(state: ValhallaState, target: int, save: int) -> tuple[ValhallaState, list]:  # type: ignore[type-arg]
    """Shoot the target with a 6, then roll ``save`` on its Dice of Death."""
    return act(state, Shoot(2, target), 6, save)


@pytest.mark.parametrize(
    ("face", "warrior", "hero"),
    [
        (1, "killed", "wounded"),  # VH-ST-02; VH-ST-07: a hero's 1 + 1 = 2 is a wound
        (2, "wounded", "two_shock"),  # VH-ST-03
        (3, "two_shock", "one_shock"),  # VH-ST-04
        (4, "one_shock", "one_shock"),  # VH-ST-05
        (5, "one_shock", "none"),
        (6, "none", "none"),  # VH-ST-06; a hero's 7 too
    ],
)
def test_vh_st_01_07_the_dice_of_death(face: int, warrior: str, hero: str) -> None:
    assert save_effect(face, "warrior") == warrior
    assert save_effect(face, "archer") == warrior and save_effect(face, "slinger") == warrior
    assert save_effect(face, "hero") == hero


@pytest.mark.parametrize(
    ("face", "shock", "wounds", "alive"),
    [(1, 0, 0, False), (2, 0, 1, True), (3, 2, 0, True), (4, 1, 0, True), (5, 1, 0, True), (6, 0, 0, True)],
)
def test_vh_st_02_06_through_the_game(face: int, shock: int, wounds: int, alive: bool) -> None:
    state, events = hit(position(ARCHER, WARRIOR_AT_17), 4, face)
    assert of(events, SavingThrow)[0].face == face
    w = state.figures[4]
    assert w.alive is alive
    if alive:
        assert (w.shock, w.wounds) == (shock, wounds)
    else:
        assert of(events, FigureKilled) == [FigureKilled(4)]


def test_vh_st_07_a_hero_is_never_killed_by_one_roll() -> None:
    state, events = hit(position(ARCHER, HERO_AT_17), 3, 1)
    assert of(events, SavingThrow) == [SavingThrow(3, 1, "wounded")]
    assert state.figures[3].alive and state.figures[3].wounds == 1


def test_vh_st_09_the_third_shock_is_a_wound_and_the_three_markers_go() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), 4, shock=2)
    after, events = hit(state, 4, 4)  # one more: 3 markers make a wound
    assert (after.figures[4].shock, after.figures[4].wounds) == (0, 1)
    assert of(events, FigureHurt) == [FigureHurt(4, 0, 1)]
    after, _ = hit(state, 4, 3)  # two more: 4 markers, 3 of them a wound, 1 stays
    assert (after.figures[4].shock, after.figures[4].wounds) == (1, 1)
    assert Harm(2, 0).take("two_shock") == Harm(1, 1) and Harm(1, 0).take("two_shock") == Harm(0, 1)


def test_vh_st_09_12_a_wounded_figure_reaching_a_third_shock_is_killed() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), 4, shock=2, wounds=1)
    after, events = hit(state, 4, 5)
    assert not after.figures[4].alive and of(events, FigureKilled) == [FigureKilled(4)]


def test_vh_st_12_a_second_wound_kills() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), 4, wounds=1)
    after, _ = hit(state, 4, 2)
    assert not after.figures[4].alive
    hero = tweak(position(ARCHER, HERO_AT_17), 3, wounds=1)
    after, _ = hit(hero, 3, 1)  # a hero's 1 + 1 = 2: wounded again
    assert not after.figures[3].alive


def test_vh_st_08_vh_st_10_vh_ac_03_shocked_or_wounded_one_action() -> None:
    state = position([(2, 2), (4, 2), (10, 10)], [(46, 30), (44, 30), (42, 30)])
    for changes in ({"shock": 1}, {"wounds": 1}, {"shock": 2, "wounds": 1}):
        hurt = tweak(state, 0, **changes)
        after, events = act(hurt, Move(0, (2, 6)))
        assert of(events, FigureActivated) == [FigureActivated(0, 1)]
        assert ActivationEnded(0) in events and after.active is None
    after, events = act(state, Move(0, (2, 6)))
    assert of(events, FigureActivated) == [FigureActivated(0, 2)] and after.active == 0


# --- VH-AC-13, VH-AC-14, VH-ST-11: recovering --------------------------------------------------------------


def test_vh_ac_13_recover_only_beyond_2_inches_from_every_enemy() -> None:
    # Seat 1's hero at (13,10): exactly 2" from the shocked hero at (10,10): not beyond.
    near = tweak(position([(10, 10), (4, 2), (6, 2)], [(13, 10), (44, 30), (42, 30)]), 0, shock=1)
    assert 'more than 2"' in refused(near, Recover(0))
    far = tweak(position([(10, 10), (4, 2), (6, 2)], [(13.1, 10), (44, 30), (42, 30)]), 0, shock=1)
    after, events = act(far, Recover(0))
    assert of(events, Recovered) == [Recovered(0, 0)] and after.figures[0].shock == 0


def test_vh_ac_14_recover_removes_one_marker_and_the_allowance_stays_one() -> None:
    state = tweak(position([(10, 10), (4, 2), (6, 2)], [(46, 30), (44, 30), (42, 30)]), 0, shock=2)
    after, events = act(state, Recover(0))
    assert after.figures[0].shock == 1
    assert ActivationEnded(0) in events  # one action, spent (VH-AC-03: fixed when activated)
    # Next turn it recovers the last one, and even then has had its one action.
    state = tweak(state, 0, shock=1)
    after, events = act(state, Recover(0))
    assert after.figures[0].shock == 0 and ActivationEnded(0) in events


def test_vh_st_11_a_wound_may_not_be_recovered() -> None:
    state = tweak(position([(10, 10), (4, 2), (6, 2)], [(46, 30), (44, 30), (42, 30)]), 0, wounds=1)
    assert "no shock marker" in refused(state, Recover(0))
    both = tweak(state, 0, wounds=1, shock=1)
    after, _ = act(both, Recover(0))
    assert (after.figures[0].shock, after.figures[0].wounds) == (0, 1)


def test_a_dead_figure_never_acts_again() -> None:
    state, _ = hit(position(ARCHER, [(46, 30), (17, 10), (42, 30)]), 4, 1)
    state = pass_to(state, 1)
    assert "gone to Valhalla" in refused(state, Move(4, (17, 14)))
    assert all(a.figure != 4 for a in GAME.legal_actions(state, 1) if hasattr(a, "figure"))
