"""The built-in Forged upon an Anvil bot (issue 13, 5: "A bot worth playing").

The bid solver is checked on games solved by hand; the evaluation on hand-built positions (material,
threats by the printed matrix cell of the side struck, the win); the whole bot returns legal actions, never
reads the other seat's sealed bid (its choice stays the same when the hidden facts are redrawn), and wins a
small sample of games against a random player (the >= 90% figure and the decision times come from
``benchmarks/anvil_bot.py``, not from here).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from iwgt.ai.random_bot import RandomBot
from iwgt.core.protocol import Outcome
from iwgt.core.registry import get_plugin
from iwgt.games.anvil.actions import Bid, Decline, Engage, Interrupt, TerrainBid
from iwgt.games.anvil.army import deploy_cost, validate_army
from iwgt.games.anvil.bot import AnvilBot, bot_for
from iwgt.games.anvil.bot.bids import draw, solve, solve_pair, terrain_bid_game, tidy, turn_bid_game
from iwgt.games.anvil.bot.evaluation import WIN, evaluate, harm_value, side_struck, unit_value
from iwgt.games.anvil.bot.field import build_army
from iwgt.games.anvil.bot.search import DEPLOY_CP, GENERAL_DEADLINE, GENERAL_EARLY, cp_marginals, cp_worth
from iwgt.games.anvil.scenario import parse_scenario
from iwgt.games.anvil.state import Activation, AnvilState, Unit
from iwgt.geometry.trays import Tray

# ---------------------------------------------------------------- the bid solver, on games solved by hand


def test_two_by_two_mixed_equilibrium() -> None:
    # [[2, -1], [-1, 1]]: the rows mix p so that both columns pay the same: 2p - (1 - p) = -p + (1 - p),
    # p = 2/5; the columns likewise q = 2/5; the value 2(2/5) - 3/5 = 1/5.
    payoff = [[2.0, -1.0], [-1.0, 1.0]]
    s = solve(payoff)
    assert s.rows == pytest.approx((0.4, 0.6), abs=0.01)
    assert s.cols == pytest.approx((0.4, 0.6), abs=0.01)
    assert s.value == pytest.approx(0.2, abs=0.01)
    assert s.exploitability(payoff) < 0.01


def test_two_by_two_saddle_point() -> None:
    # [[3, 1], [4, 2]]: row 2 dominates row 1, then the columns take column 2: a pure saddle worth 2.
    s = solve([[3.0, 1.0], [4.0, 2.0]])
    assert tidy(s.rows) == pytest.approx((0.0, 1.0))
    assert tidy(s.cols) == pytest.approx((0.0, 1.0))
    assert s.value == pytest.approx(2.0, abs=0.01)


def test_three_by_three_weighted_rock_paper_scissors() -> None:
    # Rock-paper-scissors where scissors beating paper pays 2: the rows must make each column pay 0:
    # col R: x_P - 2 x_S = 0 ... solved by hand: (1/4, 1/2, 1/4) for both, value 0.
    payoff = [[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-2.0, 1.0, 0.0]]
    s = solve(payoff)
    assert s.rows == pytest.approx((0.25, 0.5, 0.25), abs=0.01)
    assert s.cols == pytest.approx((0.25, 0.5, 0.25), abs=0.01)
    assert s.value == pytest.approx(0.0, abs=0.01)


def test_one_sided_game_is_a_best_answer() -> None:
    s = solve([[5.0, 2.0, 7.0]])  # the columns simply take the least
    assert s.cols == (0.0, 1.0, 0.0)
    assert s.value == 2.0


def test_draw_follows_the_mixture() -> None:
    assert draw((0.25, 0.5, 0.25), 0.0) == 0
    assert draw((0.25, 0.5, 0.25), 0.3) == 1
    assert draw((0.25, 0.5, 0.25), 0.99) == 2
    assert draw((0.0, 1.0, 0.0), 0.999999) == 1


def test_solve_pair_matching_pennies_is_half_and_half() -> None:
    # Zero-sum matching pennies, posed as a general-sum game: the only equilibrium (and the logit one at any
    # temperature, by symmetry) is 1/2 - 1/2 for both, worth 0 to each.
    s = solve_pair([[1.0, -1.0], [-1.0, 1.0]], [[-1.0, 1.0], [1.0, -1.0]])
    assert s.rows == pytest.approx((0.5, 0.5), abs=1e-6) and s.cols == pytest.approx((0.5, 0.5), abs=1e-6)
    assert s.row_value == pytest.approx(0.0, abs=1e-6) and s.col_value == pytest.approx(0.0, abs=1e-6)


def test_solve_pair_prisoners_dilemma_both_defect() -> None:
    # Defecting (1) gains 2 against cooperation and 1 against defection, for each side: dominant for both.
    s = solve_pair([[3.0, 0.0], [5.0, 1.0]], [[3.0, 5.0], [0.0, 1.0]])
    assert tidy(s.rows) == (0.0, 1.0) and tidy(s.cols) == (0.0, 1.0)
    assert s.row_value == pytest.approx(1.0, abs=0.05) and s.col_value == pytest.approx(1.0, abs=0.05)


def tempo_outcome(cp0: int, cp1: int, first: int) -> tuple[float, float]:
    """Each CP worth 1 to its side, going first 0.5."""
    return cp0 + (0.5 if first == 0 else 0.0), cp1 + (0.5 if first == 1 else 0.0)


def test_fa_gt_04_05_in_the_last_round_a_tie_stands_for_tie_first() -> None:
    # Limits 1 and 1, the re-bid (one round left). (0, 1): seat 0 first with 0 CP: 0.5. (1, 0): seat 1
    # first, seat 0 has 1 CP: 1. A tie stands: with seat 1 going first, (0, 0) is 0 and (1, 1) is 1 to seat
    # 0; with seat 0 going first, each gains 0.5.
    matrix, _ = turn_bid_game((1, 1), tempo_outcome, tie_first=1, rounds=1)
    assert matrix == [[0.0, 0.5], [1.0, 1.0]]
    matrix, _ = turn_bid_game((1, 1), tempo_outcome, tie_first=0, rounds=1)
    assert matrix == [[0.5, 0.5], [1.0, 1.5]]


def test_fa_gt_04_05_a_first_round_tie_is_the_rebid_game() -> None:
    # Limits 1 and 1 with two rounds. A tie at 1 loses the CP: the re-bid can only be 0 / 0, which stands
    # with seat 1 first: 0 to seat 0. A tie at 0 loses nothing: the re-bid game is the one above, where
    # bidding 1 dominates for both (seat 0: 1 > 0 and 1 > 0.5; seat 1: 1 > 0.5 and 1.5 > 0.5), so it is worth
    # about 1 to seat 0 (the logit solution plays the dominated bids a little).
    matrix, s = turn_bid_game((1, 1), tempo_outcome, tie_first=1, rounds=2)
    assert matrix[1][1] == 0.0 and matrix[0][1] == 0.5 and matrix[1][0] == 1.0
    assert matrix[0][0] == pytest.approx(1.0, abs=0.1)
    # Seat 0: bid 1 gives 1 or 0, bid 0 about 1 or 0.5; seat 1 mirrors: the game mixes, and never ties
    # at 1 for sure.
    assert s.rows[1] * s.cols[1] < 0.5


def test_two_equal_bots_do_not_tie_in_turn_1() -> None:
    # The deadlock this bid game was built against: two bots, equal sides, nothing on the table. Posed from
    # seat 0's side, the game's solution is lopsided (one side bids high, the other less) and both bots
    # read their own side of the same solution: the likeliest pair of bids is not a tie.
    game = anvil_game()
    bot = bot_for(game)
    state = game.initial_state(game.load_scenario("skirmish"))
    while state.phase != "bid":
        seat = game.to_move(state)
        assert isinstance(seat, int)
        state, _ = game.apply(state, bot.choose(state, seat))
    b0 = bot.choose(state, 0)
    b1 = bot.choose(game.apply(state, b0)[0], 1)  # seat 1 bids second, its bot blind to b0
    assert isinstance(b0, Bid) and isinstance(b1, Bid) and b0 != b1


def test_cp_buy_the_general_first_and_most_in_turn_2() -> None:
    # Nothing on the table: a CP's worth is what it deploys, the General's unit first (FA-DP-03's deadline).
    game = anvil_game()
    state = game.initial_state(game.load_scenario("skirmish"))
    bot = bot_for(game)
    while state.phase != "bid":
        seat = game.to_move(state)
        assert isinstance(seat, int)
        state, _ = game.apply(state, bot.choose(state, seat))
    general = state.general(0)
    assert general is not None and general.tray is None
    cost = deploy_cost(general)
    early = cp_marginals(state, 0)
    assert early[:cost] == [GENERAL_EARLY / cost] * cost and early[cost] == DEPLOY_CP
    assert cp_worth(early, 0) == 0.0
    later = cp_marginals(replace(state, turn=2), 0)
    assert later[:cost] == [GENERAL_DEADLINE / cost] * cost


def test_bot_against_bot_deploys_and_fights() -> None:
    # Skirmish seed 3 was the deadlock (both bid 8, then 2: no activations, turn after turn, a 0-0 draw).
    game = anvil_game()
    bot = bot_for(game)
    state = game.initial_state(game.load_scenario("skirmish"))
    while not game.is_terminal(state) and state.turn <= 2:
        seat = game.to_move(state)
        assert isinstance(seat, int)
        state, _ = game.apply(state, bot.choose(state, seat))
    assert any(u.tray is not None or u.destroyed for u in state.units if not u.is_seat)
    assert all((g := state.general(s)) is not None and (g.tray is not None or g.destroyed) for s in (0, 1))


def test_terrain_bid_extra_cp_makes_five_dominant() -> None:
    # The terrain bid pays the turn-1 extra CP for 4 or 5 features (+1 / +2, FA-FB-05): ours minus theirs.
    extra = (0, 0, 0, 0, 1, 2)
    _, s = terrain_bid_game(5, lambda a, b: float(extra[a] - extra[b]))
    assert tidy(s.rows)[5] == pytest.approx(1.0, abs=0.02)


# ---------------------------------------------------------------- the evaluation, on hand-built positions

SCENARIO_TOML = """
name = "bot_test"
title = "Bot test"
width = 36.0
height = 36.0
dcp = 12
armies = "fixed"
[[terrain]]
key = "wood"
name = "Wood"
outline = [[-3.0, -2.0], [3.0, -2.0], [3.0, 2.0], [-3.0, 2.0]]
[[sides]]
name = "South"
army = [
  { type = "knight", name = "Guard", general = true },
  { type = "troop", name = "Spears" },
  { type = "troop", name = "Bows" },
  { type = "troop", name = "Axes" },
]
[[sides]]
name = "North"
army = [
  { type = "knight", name = "Guard", general = true },
  { type = "troop", name = "Spears" },
  { type = "troop", name = "Bows" },
  { type = "troop", name = "Axes" },
]
"""
SCENARIO = parse_scenario(SCENARIO_TOML, "test_bot")
TRAY = (3.0, 1.5)


def tray(x: float, y: float, facing: float) -> Tray:
    return Tray((x, y), facing, *TRAY)


def position(*units: tuple[int, str, bool, int, Tray | None], cp: tuple[int, int] = (5, 5)) -> AnvilState:
    """An activation-phase state, seat 0 to act: (seat, type, general, hp, tray) per unit."""
    built = tuple(
        Unit(
            id=i,
            seat=s,
            type=kind,
            name=kind,
            hp=hp,
            start_hp=8 if kind == "knight" else 4,
            general=gen,
            tray=t,
        )
        for i, (s, kind, gen, hp, t) in enumerate(units)
    )
    return AnvilState(scenario=SCENARIO, phase="activation", turn=2, units=built, cp=cp, first=0, mover=0)


GENERALS = ((0, "knight", True, 8, tray(4, 2, 0)), (1, "knight", True, 8, tray(32, 34, 180)))


def test_a_hurt_enemy_is_better_for_us() -> None:
    whole = position(
        *GENERALS, (0, "troop", False, 4, tray(10, 10, 0)), (1, "troop", False, 4, tray(20, 30, 180))
    )
    hurt = whole.with_unit(replace(whole.unit(3), hp=1))
    gone = whole.with_unit(replace(whole.unit(3), hp=0, destroyed=True, tray=None))
    assert evaluate(hurt, 0) > evaluate(whole, 0)
    assert evaluate(gone, 0) > evaluate(hurt, 0)
    assert evaluate(hurt, 1) < evaluate(whole, 1)


def test_harm_is_worth_the_hp_taken_and_all_at_death() -> None:
    s = position(*GENERALS, (1, "troop", False, 4, tray(20, 30, 180)))
    troop = s.unit(2)
    assert harm_value(s, troop, 4) == pytest.approx(unit_value(s, troop))
    assert harm_value(s, troop, 9) == pytest.approx(unit_value(s, troop))
    # 2 of 4 HP: half the HP share of a 1-DCP Troop (0.6 of its worth goes with HP).
    assert harm_value(s, troop, 2) == pytest.approx(0.3)
    # The enemy General decides the game (win = "general"): its HP are worth far more than a Troop's.
    assert harm_value(s, s.unit(1), 2) > 5 * harm_value(s, troop, 2)


def test_side_struck_follows_the_engage_line() -> None:
    defender = tray(18, 18, 0)  # faces +y
    assert side_struck(tray(18, 22, 180), defender) == "front"
    assert side_struck(tray(22, 18, 90), defender) == "flank"
    assert side_struck(tray(18, 14, 0), defender) == "rear"


def test_a_threat_on_the_flank_counts_more_than_in_front() -> None:
    # Our Knight 2" from an enemy Troop: in front of it (Knight on Troop, front 3) or on its flank (4).
    troop = (1, "troop", False, 4, tray(18, 18, 180))  # faces -y, towards seat 0
    front = position(*GENERALS, troop, (0, "knight", False, 8, tray(18, 15.5, 0)))
    flank = position(*GENERALS, troop, (0, "knight", False, 8, tray(21.5, 18, 90)))
    far = position(*GENERALS, troop, (0, "knight", False, 8, tray(3, 30, 0)))
    assert evaluate(flank, 0) > evaluate(front, 0)
    # In reach at all beats standing far off in a corner.
    assert evaluate(front, 0) > evaluate(far, 0)


def test_standing_next_to_an_enemy_that_acts_first_costs() -> None:
    # Our Troop 1" in front of an enemy Knight; the enemy acts next and has CP: that is a threat against us
    # (Knight on Troop, front 3, and Hammerblow: the Troop's 4 HP). The same Troop as far forward, 12" to the
    # side, out of the Knight's 4" Move, is better off, though farther from the enemy General.
    ours = (0, "troop", False, 4, tray(18, 16.5, 0))
    enemy = (1, "knight", False, 8, tray(18, 19, 180))
    exposed = replace(position(*GENERALS, ours, enemy), mover=1)
    safe = replace(position(*GENERALS, (0, "troop", False, 4, tray(6, 16.5, 0)), enemy), mover=1)
    assert evaluate(exposed, 0) < evaluate(safe, 0)


def test_the_finished_game_is_won_or_lost() -> None:
    s = replace(position(*GENERALS), phase="over", winner=0)
    assert evaluate(s, 0) == WIN
    assert evaluate(s, 1) == -WIN
    assert evaluate(replace(s, winner=None), 0) == 0.0


# ---------------------------------------------------------------- whole games: legal, hidden-blind, winning


def anvil_game() -> Any:
    from iwgt.games.anvil.game import AnvilGame

    return AnvilGame()


def bot_game(scenario: str, seed: int, check_hidden: bool = False) -> tuple[Any, AnvilState, int]:
    """A whole game, the bot on seat ``seed % 2`` against the shared random player; every bot action goes
    through ``apply`` (which refuses an illegal one by raising). With ``check_hidden``, every sealed-bid
    decision is asked again of a fresh bot on states with the hidden facts redrawn: the same answer."""
    game = anvil_game()
    bot = bot_for(game)
    seat_of_bot = seed % 2
    rnd = RandomBot(game, seed)
    state = game.initial_state(game.load_scenario(scenario))
    rng = random.Random(seed)
    for _ in range(20000):
        if game.is_terminal(state):
            break
        seat = game.to_move(state)
        assert isinstance(seat, int)
        if seat == seat_of_bot:
            action = bot.choose(state, seat)
            if check_hidden and state.phase in ("muster", "terrain_bid", "bid"):
                for _ in range(3):
                    redrawn = game.resample_hidden(state, seat, lambda n: rng.randrange(n))
                    assert bot_for(game).choose(redrawn, seat) == action
        else:
            action = rnd.choose(state, seat)
        state, _ = game.apply(state, action)
    assert game.is_terminal(state), "the game did not finish"
    return game, state, seat_of_bot


def test_the_plugin_gives_this_bot() -> None:
    assert isinstance(get_plugin("anvil").bot(), AnvilBot)


@pytest.mark.parametrize("budget", [12, 20, 30])
def test_the_army_is_legal_for_each_scenario_budget(budget: int) -> None:
    army = build_army(budget)
    assert army is not None
    assert validate_army(army, budget) == []
    assert sum(u.general for u in army.units) == 1


def test_every_action_is_legal_in_self_play() -> None:
    game = anvil_game()
    bot = bot_for(game)
    state = game.initial_state(game.load_scenario("skirmish"))
    for _ in range(5000):
        if game.is_terminal(state):
            break
        seat = game.to_move(state)
        assert isinstance(seat, int)
        state, _ = game.apply(state, bot.choose(state, seat))  # apply refuses an illegal action by raising
    assert game.is_terminal(state)


def test_the_bot_wins_a_small_sample_against_random() -> None:
    # Six seeds, the bot on each seat three times; the >= 90% figure comes from benchmarks/anvil_bot.py.
    outcomes = []
    for seed in range(1, 7):
        game, state, seat = bot_game("skirmish", seed)
        result = game.result(state)
        assert result is not None
        outcomes.append(result.outcomes[seat])
    assert outcomes.count(Outcome.WIN) >= 5, outcomes
    assert Outcome.LOSS not in outcomes


def test_the_bids_never_read_the_hidden_bid() -> None:
    # The bot on seat 1 bids after seat 0, whose bid is sealed: every bid it makes (terrain and turns) is the
    # same when seat 0's sealed bid is redrawn (and so is its army at muster).
    bot_game("skirmish", 3, check_hidden=True)


def test_the_turn_bid_is_the_same_whatever_the_sealed_bid_says() -> None:
    game = anvil_game()
    bot = bot_for(game)
    state = game.initial_state(game.load_scenario("skirmish"))
    rnd = RandomBot(game, 5)
    while state.phase != "bid":  # play the set-up randomly up to the first turn bid
        seat = game.to_move(state)
        assert isinstance(seat, int)
        state, _ = game.apply(state, rnd.choose(state, seat))
    state, _ = game.apply(state, Bid(0))  # seat 0 bids first; its bid is sealed from seat 1
    assert game.to_move(state) == 1
    answer = bot.choose(state, 1)
    assert isinstance(answer, Bid)
    for amount in range(state.limits[0] + 1):
        assert bot_for(game).choose(replace(state, bids=(amount, None)), 1) == answer


def test_the_terrain_bid_is_five() -> None:
    # Bidding 5 dominates: 2 extra CP in turn 1 (FA-FB-05) and placing first.
    game = anvil_game()
    state = game.initial_state(game.load_scenario("skirmish"))
    state, _ = game.apply(state, bot_for(game).choose(state, 0))  # muster, seat 0
    state, _ = game.apply(state, bot_for(game).choose(state, 1))  # muster, seat 1
    assert state.phase == "terrain_bid"
    assert bot_for(game).choose(state, 0) == TerrainBid(5)


# ---------------------------------------------------------------- interruptions


def engaged(general_hp: int, cp: int) -> AnvilState:
    """Seat 0's General (a Knight) engages seat 1's General (a Hero with ``general_hp`` HP) head on; seat 1
    has ``cp`` CP: the engine now asks seat 1 whether it counterattacks."""
    game = anvil_game()
    units = (
        Unit(0, 0, "seat", "Seat", 4, 4, tray=tray(2, 1, 0)),
        Unit(1, 0, "knight", "Lances", 8, 8, general=True, tray=tray(18, 15, 0)),
        Unit(2, 1, "seat", "Seat", 4, 4, tray=tray(34, 35, 180)),
        Unit(3, 1, "hero", "Lord", general_hp, 4, general=True, tray=tray(18, 18, 180)),
    )
    scenario = game.load_scenario("skirmish")
    state = AnvilState(
        scenario=scenario,
        phase="activation",
        turn=2,
        units=units,
        cp=(5, cp),
        first=0,
        mover=0,
        activation=Activation(unit=1, seat=0, allowance=4.0),
    )
    after, _ = game.apply(state, Engage(1, 3))
    assert after.phase == "interrupt" and game.to_move(after) == 1
    return after


def test_hero_of_the_day_saves_the_general() -> None:
    # Knight on Hero, front: 2 damage (FA-CRM-KNIGHT-HERO) kills a 2-HP General. With 6 CP seat 1 cannot pay
    # both Counterattack (3) and Hero of the Day (4): it keeps its CP, then saves the General.
    game = anvil_game()
    bot = bot_for(game)
    state = engaged(2, 6)
    assert bot.choose(state, 1) == Decline()
    state, _ = game.apply(state, Decline())
    assert state.pending is not None and state.pending.kind == "hero_of_the_day"
    assert bot.choose(state, 1) == Interrupt("hero_of_the_day", 3)
    state, _ = game.apply(state, Interrupt("hero_of_the_day", 3))
    assert not state.unit(3).destroyed and state.unit(3).hp == 1


def test_counterattack_when_it_pays() -> None:
    # Seat 0's General (Knight) attacks seat 1's Troop; the counterattack, Troop on Knight front 1
    # (FA-CRM-TROOP-KNIGHT), kills a Knight General left with 1 HP: the game is won.
    game = anvil_game()
    units = (
        Unit(0, 0, "seat", "Seat", 4, 4, tray=tray(2, 1, 0)),
        Unit(1, 0, "knight", "Lances", 1, 8, general=True, tray=tray(18, 15, 0)),
        Unit(2, 1, "seat", "Seat", 4, 4, tray=tray(34, 35, 180)),
        Unit(3, 1, "troop", "Spears", 4, 4, tray=tray(18, 18, 180)),
        Unit(4, 1, "hero", "Lord", 4, 4, general=True, tray=tray(30, 30, 180)),
    )
    state = AnvilState(
        scenario=game.load_scenario("skirmish"),
        phase="activation",
        turn=2,
        units=units,
        cp=(5, 5),
        first=0,
        mover=0,
        activation=Activation(unit=1, seat=0, allowance=4.0),
    )
    state, _ = game.apply(state, Engage(1, 3))
    assert state.pending is not None and state.pending.kind == "counterattack"
    action = bot_for(game).choose(state, 1)
    assert action == Interrupt("counterattack", 3)
    state, _ = game.apply(state, action)
    assert state.phase == "over" and state.winner == 1
