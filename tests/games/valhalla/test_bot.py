"""The built-in Valhalla bot (issue 5: "The built-in bot plays it sensibly").

Every action it returns is legal (whole seeded games on every shipped scenario, against itself and against a
random player), the same position always gets the same answer, it plays sensibly in hand-built positions
(shoots the target in the open, charges a lone archer, withdraws a wounded archer from a hero, carries the
thing home, moves and then charges, recovers when safe, drives its baggage away), it beats a random player,
and its decisions are timed by benchmarks/valhalla.py, not here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from tests.games.valhalla.kit import GAME, first, make, player, position, tweak

from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.protocol import Seat
from iwgt.core.registry import get_plugin
from iwgt.games.valhalla.actions import (
    Action,
    Charge,
    EndActivation,
    Fight,
    Move,
    MoveBaggage,
    PickUp,
    Recover,
    Shoot,
    Withdraw,
)
from iwgt.games.valhalla.bot import ValhallaBot, bot_for
from iwgt.games.valhalla.game import ValhallaGame
from iwgt.games.valhalla.movement import figure_radius
from iwgt.games.valhalla.state import Engagement, ValhallaState
from iwgt.geometry.plane import distance, edge_distance

SCENARIOS = ValhallaGame().scenario_names()
BOT = bot_for(GAME)
Chooser = Callable[[ValhallaState, Seat], Action]

# Figure ids in kit positions: seat 0's hero, warrior, archer are 0, 1, 2; seat 1's are 3, 4, 5.
HERO, WARRIOR, ARCHER = 0, 1, 2
E_HERO, E_WARRIOR, E_ARCHER = 3, 4, 5
PARKED = [(44.0, 2.0), (46.0, 2.0), (46.0, 4.0)]
"""Seat 1's figures out of the way, far from seat 0's (the kit's table is 48" x 32")."""


def random_player(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state, seat: rng.choice(list(GAME.legal_actions(state, seat)))


def play(scenario: str, seed: int, sides: tuple[Chooser, Chooser]) -> Match:
    """A whole game through Match (which refuses an illegal action by raising), each side's seats played by
    that side's chooser (the bot's decision time is measured by benchmarks/valhalla.py, not here)."""
    match = Match(GAME, GAME.load_scenario(scenario), SeededDice(seed), seed)
    match.resolve_chance()
    for _ in range(3000):
        if GAME.is_terminal(match.state):
            break
        seat = GAME.to_move(match.state)
        assert isinstance(seat, int)
        chooser = sides[match.state.scenario.spec.players[seat].side]
        match.act(seat, chooser(match.state, seat))
    assert GAME.is_terminal(match.state), "the game did not finish"
    return match


def only(state: ValhallaState, fid: int) -> ValhallaState:
    """The position with every other figure of ``fid``'s player already activated: the bot must use it."""
    seat = state.figure(fid).seat
    for f in state.figures:
        if f.seat == seat and f.id != fid:
            state = tweak(state, f.id, activated=True)
    return state


def choose(state: ValhallaState) -> Action:
    seat = GAME.to_move(state)
    assert isinstance(seat, int)
    action = BOT.choose(state, seat)
    GAME.apply(state, action)  # legal: apply accepts it
    return action


# ---------------------------------------------------------------- legality and determinism


def test_bot_for_finds_the_valhalla_bot() -> None:
    assert isinstance(get_plugin("valhalla").bot(), ValhallaBot)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_action_is_legal_in_self_play(scenario: str, seed: int) -> None:
    match = play(scenario, seed, (BOT.choose, BOT.choose))
    assert GAME.result(match.state) is not None


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [3, 4])
def test_every_action_is_legal_against_a_random_player(scenario: str, seed: int) -> None:
    rnd = random_player(seed)
    players = (BOT.choose, rnd) if seed % 2 else (rnd, BOT.choose)
    match = play(scenario, seed, players)
    assert GAME.result(match.state) is not None


def test_same_position_same_action() -> None:
    # Every decision of a seeded game, asked again of a fresh bot on the same position, gets the same answer.
    match = Match(GAME, GAME.load_scenario("first_blood"), SeededDice(7), 7)
    match.resolve_chance()
    fresh = ValhallaBot(ValhallaGame())
    while not GAME.is_terminal(match.state):
        seat = GAME.to_move(match.state)
        assert isinstance(seat, int)
        action = BOT.choose(match.state, seat)
        assert fresh.choose(match.state, seat) == action
        assert BOT.choose(replace(match.state), seat) == action
        match.act(seat, action)


def test_the_same_seed_plays_the_same_game() -> None:
    a = play("skirmish", 11, (BOT.choose, BOT.choose))
    b = play("skirmish", 11, (bot_for(GAME).choose, bot_for(GAME).choose))
    assert [s.action for s in a.record.steps] == [s.action for s in b.record.steps]


# ---------------------------------------------------------------- sensible play in built positions


def test_archer_shoots_the_warrior_in_the_open_not_the_one_in_the_woods() -> None:
    # Two enemy players' warriors, each 5" from our archer; one stands in a wood (-1 to hit, VH-SH-08).
    players = [
        player(0, (2, 30), (4, 30), (20, 10), name="Ulf"),
        player(1, (44, 2), (26, 10), (46, 2), name="Asa"),  # warrior 5" east, in the open
        player(1, (44, 30), (14, 10), (46, 30), name="Bo"),  # warrior 5" west, in the wood
    ]
    woods = [[(11, 7), (16.5, 7), (16.5, 13), (11, 13)]]
    state = only(first(GAME.initial_state(make(players=players, woods=woods)), 0), ARCHER)
    open_warrior, wood_warrior = 4, 7
    assert state.scenario.ground.in_cover(state.figure(wood_warrior).at)
    r = figure_radius()
    for fid in (open_warrior, wood_warrior):
        assert edge_distance(state.figure(ARCHER).at, r, state.figure(fid).at, r) == pytest.approx(5.0)
    assert choose(state) == Shoot(ARCHER, open_warrior)


def test_archer_shoots_the_warrior_at_close_range_not_the_one_at_long_range() -> None:
    players = [
        player(0, (2, 30), (4, 30), (20, 10), name="Ulf"),
        player(1, (44, 2), (25, 10), (46, 2), name="Asa"),  # warrior 4" east: close range, hits on 4+
        player(1, (44, 30), (10, 10), (46, 30), name="Bo"),  # warrior 9" west: long range, hits on 5+
    ]
    state = only(first(GAME.initial_state(make(players=players)), 0), ARCHER)
    assert choose(state) == Shoot(ARCHER, 4)


def test_archer_out_of_range_moves_into_range_then_shoots() -> None:
    # The warrior is 15" away: the archer closes to within 12", but stays out of the warrior's reach
    # (a move and a charge: 8"), and shoots with its second action.
    state = only(position([(2, 30), (4, 30), (10, 2)], [(46, 30), (10, 18), (44, 30)]), ARCHER)
    step = choose(state)
    assert isinstance(step, Move)
    state, _ = GAME.apply(state, step)
    gap = edge_distance(step.to, figure_radius(), state.figure(E_WARRIOR).at, figure_radius())
    assert 8 < gap <= 12
    assert choose(state) == Shoot(ARCHER, E_WARRIOR)


def test_hero_charges_a_lone_archer_close_by() -> None:
    state = only(position([(10, 10), (2, 30), (4, 30)], [(44, 2), (46, 2), (12.5, 10)]), HERO)
    assert choose(state) == Charge(HERO, E_ARCHER)


def test_hero_moves_and_then_charges_an_archer_six_inches_away() -> None:
    state = only(position([(10, 10), (2, 30), (4, 30)], [(44, 2), (46, 2), (10, 17)]), HERO)
    first_action = choose(state)
    assert isinstance(first_action, Move)
    state, _ = GAME.apply(state, first_action)
    assert choose(state) == Charge(HERO, E_ARCHER)


def test_archer_does_not_charge_a_hero() -> None:
    state = only(position([(2, 30), (4, 30), (10, 10)], [(12.5, 10), (46, 2), (44, 2)]), ARCHER)
    assert not isinstance(choose(state), Charge)


def test_wounded_archer_in_contact_with_a_hero_withdraws() -> None:
    state = position([(2, 30), (4, 30), (10, 10)], [(11, 10), (46, 2), (44, 2)])
    state = replace(tweak(state, ARCHER, wounds=1), engagements=(Engagement(E_HERO, ARCHER),))
    action = choose(only(state, ARCHER))
    assert isinstance(action, Withdraw) and action.figure == ARCHER


def test_hero_keeps_fighting_a_wounded_archer() -> None:
    state = position([(10, 10), (2, 30), (4, 30)], [(44, 2), (46, 2), (11, 10)])
    state = replace(tweak(state, E_ARCHER, wounds=1), engagements=(Engagement(HERO, E_ARCHER),))
    assert choose(only(state, HERO)) == Fight(HERO, E_ARCHER)


def test_shocked_warrior_far_from_the_enemy_recovers() -> None:
    state = only(tweak(position([(2, 30), (10, 10), (4, 30)], PARKED), WARRIOR, shock=1), WARRIOR)
    assert choose(state) == Recover(WARRIOR)


CHEST = """
[[things]]
name = "chest"
at = [20, 16]

[[objectives]]
side = 0
kind = "carry"
title = "Carry the chest to the south edge"
thing = "chest"
zone = [[0, 0], [48, 0], [48, 2], [0, 2]]
"""


def test_warrior_next_to_the_chest_picks_it_up() -> None:
    state = only(position([(2, 30), (20, 17.5), (4, 30)], PARKED, extra=CHEST), WARRIOR)
    assert choose(state) == PickUp(WARRIOR, 0)


def test_warrior_carrying_the_chest_heads_for_the_zone() -> None:
    state = position([(2, 30), (20, 16), (4, 30)], PARKED, extra=CHEST)
    state = tweak(state, WARRIOR, carrying=0).with_thing(replace(state.things[0], carrier=WARRIOR))
    action = choose(only(state, WARRIOR))
    assert isinstance(action, Move)
    assert action.to[1] <= 16 - 5.5  # nearly a full move south, towards the zone (y <= 2)
    state, _ = GAME.apply(state, action)
    action = choose(state)
    assert isinstance(action, Move) and action.to[1] <= 16 - 11


def test_a_card_is_passed_when_nothing_is_worth_doing() -> None:
    # A lone, safe archer with nothing in range, no objective and the last turn: it has nothing to gain.
    state = only(position([(2, 30), (4, 30), (2, 2)], PARKED, turn_limit=1), ARCHER)
    state = replace(state, turn=1)
    assert choose(state) == EndActivation()


BAGGAGE = """
[[baggage]]
name = "cart"
side = 0
at = [24, 16]

[[objectives]]
side = 1
kind = "plunder"
title = "Plunder the cart"
baggage = "cart"
"""


def test_baggage_is_driven_away_from_the_enemy() -> None:
    state = position([(2, 30), (4, 30), (6, 30)], [(44, 2), (27, 16), (46, 2)], extra=BAGGAGE)
    for _ in range(20):  # every card is passed: the turn ends and the baggage moves (VH-AC-04)
        if state.phase == "baggage":
            break
        state, _ = GAME.apply(state, EndActivation())
    assert state.phase == "baggage"
    action = choose(state)
    assert isinstance(action, MoveBaggage)
    enemy = state.figure(E_WARRIOR).at
    assert distance(action.to, enemy) > distance(state.things[0].at, enemy) + 3


# ---------------------------------------------------------------- strength


@pytest.mark.slow  # ten whole games: .ci/run runs it, `make test` leaves it out
def test_the_bot_beats_a_random_player_on_skirmish() -> None:
    wins = 0
    for seed in range(10):
        rnd = random_player(seed)
        bot_side = seed % 2
        players = (BOT.choose, rnd) if bot_side == 0 else (rnd, BOT.choose)
        match = play("skirmish", seed, players)
        wins += match.state.winner_side == bot_side
    # Seeds 0-9 give 8 wins at the time of writing (the losses are to dice: a wounded warrior winning three
    # fights running); 7 leaves room for tuning without letting a broken bot through.
    assert wins >= 7, f"the bot won only {wins} of 10 games against a random player"
