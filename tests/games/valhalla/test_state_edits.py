"""What each act does to the state, as the rules' pure functions (``movement``, ``flow``): the engine applies
them and the bot plans with them, so each must give exactly the state ``apply`` gives, with the positions
worked out by hand.

Figures 0, 1, 2 are seat 0's hero, warrior and archer (side 0); 3, 4, 5 are seat 1's.
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.games.valhalla.actions import Charge, Cross, Drop, PickUp, Recover, Withdraw
from iwgt.games.valhalla.dice import Fighter
from iwgt.games.valhalla.events import FigureActivated
from iwgt.games.valhalla.flow import activate, allowance, charge_sides, coin_targets, fight_sides, recover
from iwgt.games.valhalla.movement import (
    charge_into,
    cross_end,
    drop,
    pick_up,
    relocate,
    withdraw_to,
)
from iwgt.games.valhalla.state import Engagement, ValhallaState

from .kit import GAME, act, make, of, player, position, tweak

AWAY = [(46, 30), (44, 30), (42, 30)]
HERO_AT_10 = [(10, 10), (4, 2), (6, 2)]
HILL_RIGHT = ((12.5, 0), (30, 0), (30, 20), (12.5, 20)), 1, 2.0  # 1" high, reached over a 2" slope
COINS_PER_PLAYER = 3
"""The coins a side needs for each of its players (VH-WL-08, data/rules.toml)."""
CHEST = """
[[things]]
name = "chest"
at = [20, 16]
"""


def up(state: ValhallaState, fid: int) -> ValhallaState:
    """The state once the figure is activated, as the engine does at its first action."""
    return activate(state, state.figure(fid))


def same_table(a: ValhallaState, b: ValhallaState) -> None:
    """The figures, things and combats are the same (the engine also counts the actions used)."""
    assert a.figures == b.figures
    assert a.things == b.things
    assert a.engagements == b.engagements


def test_activate_gives_two_actions_or_one_when_hurt_as_the_engine_does() -> None:
    state = position(HERO_AT_10, AWAY)
    mine = activate(state, state.figure(0))
    assert (mine.active, mine.allowance, mine.actions_used, mine.figure(0).activated) == (0, 2, 0, True)
    hurt = tweak(state, 0, shock=1)
    assert allowance(hurt.figure(0)) == 1  # VH-AC-03
    applied, events = act(hurt, Recover(0))  # recovering is possible: nobody within 2"
    assert of(events, FigureActivated) == [FigureActivated(0, 1)]  # and its one action ends the activation
    assert recover(hurt, hurt.figure(0)).figure(0).shock == 0
    same_table(recover(up(hurt, 0), up(hurt, 0).figure(0)), applied)


def test_charge_into_ends_at_the_contact_point_in_combat_as_the_engine_does() -> None:
    # Diagonally: the warrior at (12,12), centres sqrt(8) apart: the hero stops 1" short of its centre, at
    # (12 - 1/sqrt(2), 12 - 1/sqrt(2)) = (11.29, 11.29) to the hundredth.
    state = position(HERO_AT_10, [(46, 30), (12, 12), (42, 30)])
    mine = charge_into(up(state, 0), up(state, 0).figure(0), state.figure(4))
    assert mine.figure(0).at == (11.29, 11.29)
    assert mine.engagements == (Engagement(0, 4),)
    applied, _ = act(state, Charge(0, 4))
    same_table(mine, applied)


def test_charge_sides_are_the_fighters_the_dice_see_after_the_charge() -> None:
    # Charging downhill: the hero from the crest at (16.5,10) onto the warrior half way up at (13.5,10) ends
    # at (14.5,10), higher than it: +1 for charging and +1 for the height; the warrior has neither.
    state = position([(16.5, 10), (4, 2), (6, 2)], [(46, 30), (13.5, 10), (42, 30)], hills=[HILL_RIGHT])
    hero, warrior = state.figure(0), state.figure(4)
    sides = charge_sides(state, hero, warrior)
    assert sides == (Fighter("hero", charging=True, higher_ground=True), Fighter("warrior"))
    applied, _ = act(state, Charge(0, 4))
    assert sides == fight_sides(applied, 0, 4, charging=True)
    assert sides == fight_sides(charge_into(state, hero, warrior), 0, 4, charging=True)


def test_withdraw_to_leaves_every_combat_and_bars_a_new_charge() -> None:
    state = position([(13.5, 10), (4, 2), (6, 2)], [(14.5, 10), (44, 30), (42, 30)])
    state = replace(state, engagements=(Engagement(3, 0),))
    mine = withdraw_to(up(state, 0), up(state, 0).figure(0), (11.5, 10))
    assert mine.figure(0).at == (11.5, 10) and mine.engagements == () and mine.withdrew
    applied, _ = act(state, Withdraw(0, (11.5, 10)))
    same_table(mine, applied)
    assert applied.withdrew


def test_a_carrier_takes_its_thing_along_and_drops_it_where_it_stands() -> None:
    state = position([(2, 30), (20, 17.5), (4, 30)], AWAY, extra=CHEST)
    picked = pick_up(up(state, 1), up(state, 1).figure(1), state.things[0])
    assert picked.figure(1).carrying == 0 and picked.things[0].carrier == 1
    assert picked.things[0].at == (20, 17.5)  # the chest is where its carrier is
    applied, _ = act(state, PickUp(1, 0))
    same_table(picked, applied)
    moved = relocate(picked, picked.figure(1), (22, 20))
    assert moved.figure(1).at == moved.things[0].at == (22, 20)
    dropped = drop(moved, moved.figure(1))
    assert dropped.figure(1).carrying is None and dropped.things[0].carrier is None
    assert dropped.things[0].at == (22, 20)
    after, _ = act(applied, Drop(1))
    same_table(drop(picked, picked.figure(1)), after)


def test_cross_end_is_just_beyond_the_obstacle_as_the_engine_puts_it() -> None:
    # At (10,10.5) the base edge is 1" from the hedge at y = 12: it crosses to (10,12.55).
    state = position([(10, 10.5), (4, 2), (6, 2)], AWAY, obstacles=[("hedge", [(0, 12), (30, 12)])])
    assert cross_end(state, state.figure(0), 0) == (10, 12.55)
    applied, _ = act(state, Cross(0, 0))
    same_table(relocate(up(state, 0), up(state, 0).figure(0), (10, 12.55)), applied)


def test_coin_targets_count_the_players_of_each_side() -> None:
    two_to_one = make(
        players=[
            player(0, (2, 2), (4, 2), (6, 2), name="A"),
            player(0, (2, 6), (4, 6), (6, 6), name="B"),
            player(1, (46, 30), (44, 30), (42, 30), name="C"),
        ]
    )
    assert coin_targets(GAME.initial_state(two_to_one)) == (2 * COINS_PER_PLAYER, COINS_PER_PLAYER)
    assert coin_targets(position()) == (COINS_PER_PLAYER, COINS_PER_PLAYER)
