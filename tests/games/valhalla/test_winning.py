"""Coins, objectives and the end of the game (VH-WL-01..08).

With one player a side a side needs 3 coins; with two players a side, 6. Seat 0's archer (figure 2) at (10,10)
shoots with a 6 at close range, then the Dice of Death is rolled by hand.
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Result
from iwgt.games.valhalla.actions import EndActivation, Move, PickUp, Shoot, Withdraw
from iwgt.games.valhalla.events import CoinsWon, GameOver, ObjectiveAchieved, TurnEnded
from iwgt.games.valhalla.observe import observe
from iwgt.games.valhalla.state import Engagement, ValhallaState

from .kit import GAME, act, first, make, of, pass_to, player, position, refused, tweak

ARCHER = [(2, 2), (4, 2), (10, 10)]


def shoot(state: ValhallaState, target: int, save: int) -> tuple[ValhallaState, list]:  # type: ignore[type-arg]
    return act(state, Shoot(2, target), 6, save)


def four_players(extra: str = "", at: tuple[float, float] = (10, 10)) -> ValhallaState:
    """Two players a side: seats 0 and 2 (side 0), 1 and 3 (side 1); seat 0's archer at ``at``; cards in seat
    order at each rank."""
    players = [
        player(0, (2, 2), (4, 2), at, name="A"),
        player(1, (17, 10), (17, 14), (17, 6), name="B"),
        player(0, (2, 6), (4, 6), (6, 6), name="C"),
        player(1, (46, 26), (44, 26), (42, 26), name="D"),
    ]
    return first(GAME.initial_state(make(players=players, extra=extra)))


# --- VH-WL-01..06: coins ----------------------------------------------------------------------------------


def test_vh_wl_05_06_a_warrior_is_worth_2_an_archer_1() -> None:
    _, events = shoot(position(ARCHER, [(46, 30), (17, 10), (17, 13)]), 4, 1)
    assert of(events, CoinsWon) == [CoinsWon(0, 2, "Asa warrior went to Valhalla", 2)]
    _, events = shoot(position(ARCHER, [(46, 30), (17, 13), (17, 10)]), 5, 1)
    assert of(events, CoinsWon) == [CoinsWon(0, 1, "Asa archer went to Valhalla", 1)]
    players = [player(0, (2, 2), (4, 2), (10, 10)), player(1, (46, 30), (44, 30), (17, 10), slinger=True)]
    slinger = first(GAME.initial_state(make(players=players)))
    _, events = shoot(slinger, 5, 1)
    assert [c.coins for c in of(events, CoinsWon)] == [1]  # a slinger counts as an archer


def test_vh_wl_03_a_wounded_hero_is_worth_1_and_vh_wl_04_a_dead_one_3() -> None:
    state = position(ARCHER, [(17, 10), (44, 30), (42, 30)])
    _, events = shoot(state, 3, 1)  # 1 + 1 = 2: wounded
    assert of(events, CoinsWon) == [CoinsWon(0, 1, "Asa hero was wounded", 1)]
    # Decided: the second wound that kills the hero scores only the kill's 3, not 1 + 3.
    _, events = shoot(tweak(state, 3, wounds=1), 3, 1)
    assert of(events, CoinsWon) == [CoinsWon(0, 3, "Asa hero went to Valhalla", 3)]


def test_vh_wl_03_a_wound_from_a_third_shock_counts() -> None:
    state = tweak(position(ARCHER, [(17, 10), (44, 30), (42, 30)]), 3, shock=2)
    after, events = shoot(state, 3, 4)  # 4 + 1 = 5: one shock, the third: a wound
    assert after.figures[3].wounds == 1
    assert of(events, CoinsWon) == [CoinsWon(0, 1, "Asa hero was wounded", 1)]


def test_vh_wl_02_an_enemy_hero_withdrawing_is_worth_1_each_time() -> None:
    state = position([(46, 2), (13, 10), (6, 2)], [(12, 10), (44, 30), (42, 30)], lead=1)
    state = replace(state, engagements=(Engagement(1, 3),))
    state, events = act(state, Withdraw(3, (10, 10)))
    assert of(events, CoinsWon) == [CoinsWon(0, 1, "Asa hero withdrew from combat", 1)]
    assert state.coins == (1, 0)


def test_vh_wl_01_a_wounded_warrior_or_shock_scores_nothing() -> None:
    # Only the listed events score: a warrior's wound or shock on anyone gives no coin.
    state, events = shoot(position(ARCHER, [(46, 30), (17, 10), (42, 30)]), 4, 2)
    assert state.figures[4].wounds == 1 and of(events, CoinsWon) == []


# --- VH-WL-07: objectives ----------------------------------------------------------------------------------

REACH = (
    '[[objectives]]\nside = 0\nkind = "reach"\ntitle = "Hold the mound"\n'
    "zone = [[18, 8], [22, 8], [22, 12], [18, 12]]\n"
)
CARRY = (
    '[[things]]\nname = "chest"\nat = [10.3, 10]\n'
    '[[objectives]]\nside = 0\nkind = "carry"\ntitle = "Take the chest home"\nthing = "chest"\n'
    "zone = [[14, 8], [18, 8], [18, 12], [14, 12]]\n"
)
PLUNDER = (
    '[[baggage]]\nname = "cart"\nside = 1\nat = [20, 10]\n'
    '[[objectives]]\nside = 0\nkind = "plunder"\ntitle = "Plunder the cart"\nbaggage = "cart"\n'
)


def test_vh_wl_07_reach_scores_3_once() -> None:
    players = [
        player(0, (15, 10), (4, 2), (6, 2), name="A"),
        player(1, (46, 30), (44, 30), (42, 30), name="B"),
        player(0, (15, 11.5), (4, 6), (6, 6), name="C"),
        player(1, (46, 26), (44, 26), (42, 26), name="D"),
    ]
    state = first(GAME.initial_state(make(players=players, extra=REACH)))
    state, events = act(state, Move(0, (20, 10)))  # into the zone: 3 coins (6 are needed: the game goes on)
    assert of(events, ObjectiveAchieved) == [ObjectiveAchieved(0, 0, "Hold the mound")]
    assert of(events, CoinsWon) == [CoinsWon(0, 3, "Hold the mound", 3)]
    state, _ = act(state, Move(0, (25, 10)))  # out again
    state = pass_to(state, 2)
    state, events = act(state, Move(6, (19, 10)))  # another raider steps in: nothing more
    assert of(events, CoinsWon) == [] and state.coins == (3, 0) and state.achieved == frozenset({0})


def test_vh_wl_07_reach_one_player_a_side_wins_at_once() -> None:
    state = position([(15, 10), (4, 2), (6, 2)], extra=REACH)
    state, events = act(state, Move(0, (20, 10)))
    assert state.phase == "over" and of(events, GameOver) == [
        GameOver(0, "Raiders reached 3 coins (3 needed)")
    ]
    assert GAME.result(state) == Result.win(
        (0,), 2, "Raiders win: Raiders reached 3 coins (3 needed)", side="Raiders"
    )
    assert GAME.to_move(state) is None and "game is over" in refused(state, EndActivation())


def test_vh_wl_07_carry_scores_only_with_the_thing() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], extra=CARRY)
    _, events = act(state, Move(0, (16, 10)))
    assert of(events, ObjectiveAchieved) == []
    state, events = act(state, PickUp(0, 0), Move(0, (16, 10)))
    assert of(events, ObjectiveAchieved) == [ObjectiveAchieved(0, 0, "Take the chest home")]
    assert state.coins == (3, 0) and state.winner_side == 0


def test_vh_wl_07_plunder_the_enemy_baggage_when_no_enemy_is_within_2_inches() -> None:
    # The cart's 2" base at (20,10): a hero at (18.5,10) touches it.
    state = position([(13, 10), (4, 2), (6, 2)], extra=PLUNDER)
    state, events = act(state, Move(0, (18.5, 10)))
    assert of(events, ObjectiveAchieved) == [ObjectiveAchieved(0, 0, "Plunder the cart")]
    # An enemy hero at (21,12.2) guards it: 2.42" from its centre, 0.92" from its edge.
    guarded = position([(13, 10), (4, 2), (6, 2)], [(21, 12.2), (44, 30), (42, 30)], extra=PLUNDER)
    guarded, events = act(guarded, Move(0, (18.5, 10)))
    assert guarded.figures[0].at == (18.5, 10) and of(events, ObjectiveAchieved) == []


# --- VH-WL-08: victory ----------------------------------------------------------------------------------


def test_vh_wl_08_three_coins_per_player() -> None:
    # Two players a side: 6 coins. Seat 1's hero (wounded already) and warrior fall to seat 0's archer: 3 + 2.
    state = tweak(four_players(), 3, wounds=1)
    assert [s["target"] for s in observe(state, None)["sides"]] == [6, 6]
    state, _ = shoot(state, 3, 1)  # (17,10): 6" away, close; the hero's second wound
    state, _ = act(state, Shoot(2, 4), 6, 1)  # (17,14): sqrt(49 + 16) - 1 = 7.06", long, a 6 hits
    assert state.coins == (5, 0) and state.phase != "over"
    # Seat 2's archer (moved by hand to (10,6)) shoots seat 1's archer at (17,6), 6" away: the sixth coin.
    state = pass_to(state, 2)
    state = state.with_figure(replace(state.figures[8], at=(10, 6)))
    state, events = act(state, Shoot(8, 5), 6, 1)
    assert of(events, GameOver) == [GameOver(0, "Raiders reached 6 coins (6 needed)")]


def test_vh_wl_08_both_sides_at_once_the_richer_wins_equal_is_a_draw() -> None:
    # Seat 0's hero withdraws into its own objective's zone: the enemy gains 1, seat 0 gains 3, at once.
    zone = (
        '[[objectives]]\nside = 0\nkind = "reach"\ntitle = "Home"\n'
        "zone = [[9, 9], [11, 9], [11, 11], [9, 11]]\n"
    )
    state = position([(12, 10), (4, 2), (6, 2)], [(46, 30), (13, 10), (42, 30)], extra=zone)
    state = replace(state, engagements=(Engagement(4, 0),))
    drawn, events = act(replace(state, coins=(0, 2)), Withdraw(0, (10, 10)))
    assert drawn.coins == (3, 3)
    assert of(events, GameOver) == [GameOver(None, "both sides reached their coins at once")]
    assert GAME.result(drawn) == Result.draw(2, "a draw: both sides reached their coins at once")
    won, events = act(replace(state, coins=(1, 2)), Withdraw(0, (10, 10)))
    assert won.coins == (4, 3) and won.winner_side == 0


def test_vh_wl_08_a_side_with_no_figure_left_loses() -> None:
    state = position(ARCHER, [(46, 30), (44, 30), (17, 10)])
    state = tweak(tweak(state, 3, alive=False), 4, alive=False)
    state, events = shoot(state, 5, 1)
    assert state.coins == (1, 0)
    assert of(events, GameOver) == [GameOver(0, "every figure of the Farmers has gone to Valhalla")]


def test_vh_wl_08_at_the_turn_limit_the_richer_side_wins_equal_is_a_draw() -> None:
    state = position(turn_limit=1)
    events: list = []  # type: ignore[type-arg]
    while state.phase == "activate":
        state, more = act(state, EndActivation())
        events += more
    assert TurnEnded(1) in events
    assert of(events, GameOver) == [GameOver(None, "the turn limit (1) is reached")]
    richer = replace(position(turn_limit=1), coins=(1, 0))
    while richer.phase == "activate":
        richer, _ = act(richer, EndActivation())
    assert richer.winner_side == 0
    assert GAME.result(richer) == Result.win(
        (0,), 2, "Raiders win: the turn limit (1) is reached", side="Raiders"
    )
