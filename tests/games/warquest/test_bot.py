"""The WarQuest bot (issue 15, section 6): its answers are legal in every phase, it decides from what its seat
may know, it attempts the quest whose 2d6 roll is likelier to win (WQ-QU-03), it does not move into a battle
the exact odds say it loses and it takes one they say it wins (WQ-MV-10, WQ-MS-41), and it beats random
players in most of a small seeded sample of 2- and 3-player games. No timing is asserted here:
``benchmarks/warquest_bot.py`` measures the win rate and the decision time.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.games.warquest.corekit import board, dealt, scenario

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice, SplitMix64
from iwgt.core.protocol import CHANCE, ChanceOutcome, Outcome
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.bot import WqBot, bot_for
from iwgt.games.warquest.bot.view import quest_chance
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.state import WqState

GAME = WqGame()
SAMPLE = (("duel", 1), ("duel", 2), ("duel", 3), ("short", 1), ("short", 2), ("short", 3))
"""The seeded sample: a scenario and a seed; the bot sits on seat ``seed % players``."""


def _play(name: str, seed: int, *, honest: int = 0) -> tuple[WqState, set[str]]:
    """A game, the bot on seat ``seed % players`` against random players, dice seeded. Every bot action is
    one the rules offered or (a starting army, a recruit of its own size, a move with part of the offered
    troops) one they accept; ``honest`` of
    its decisions are also taken on a redrawn state (hidden cards permuted) by a twin bot, which must choose
    the same."""
    sc = GAME.load_scenario(name)
    state = GAME.initial_state(sc)
    seat_of_bot = seed % sc.players
    bot, twin = bot_for(GAME, seed), bot_for(GAME, seed)
    randoms = {s: RandomBot(GAME, seed * 31 + s) for s in range(sc.players) if s != seat_of_bot}
    dice = SeededDice(seed)
    kinds: set[str] = set()
    shuffle = SplitMix64(seed + 1000)
    while not GAME.is_terminal(state):
        who = GAME.to_move(state)
        if who == CHANCE:
            action: Any = ChanceOutcome(dice.roll(GAME.chance_outcomes(state)))
        elif who == seat_of_bot:
            legal = list(GAME.legal_actions(state, who))
            if honest and state.phase == "turn" and state.round >= 1:
                other = GAME.resample_hidden(state, who, shuffle.below)
                twin.rng = SplitMix64(0)
                bot.rng = SplitMix64(0)
                assert twin.choose(other, who) == bot.choose(state, who)
                honest -= 1
            action = bot.choose(state, who)
            # a starting army or a recruit of its own size is checked by ``apply`` below; a move that splits
            # the troops goes along an offered path with some of the offered troops (WQ-MV-05)
            split = isinstance(action, act.Move) and any(
                isinstance(a, act.Move)
                and (a.leader, a.path) == (action.leader, action.path)
                and set(action.troops) <= set(a.troops)
                for a in legal
            )
            assert action in legal or split or isinstance(action, act.Recruit | act.Place), action
            kinds.add(act.NAMES[type(action)])
        else:
            action = randoms[who].choose(state, who)
        state, _ = GAME.apply(state, action)  # raises on anything the rules refuse
    return state, kinds


def test_the_plugin_gives_the_bot() -> None:
    """The plug-in's ``bot(seed)`` is this bot."""
    from iwgt.games.warquest.plugin import plugin

    assert isinstance(plugin.bot(3), WqBot)


def test_quest_chance_is_the_exact_2d6_law() -> None:
    """WQ-QU-03: success on 2d6 + bonus >= VP: 7 needs 21 of 36 rolls, 10 needs 6; a +1 bonus shifts it."""
    assert quest_chance(7, 0) == 21 / 36
    assert quest_chance(10, 0) == 6 / 36
    assert quest_chance(8, 1) == 21 / 36
    assert quest_chance(2, 0) == 1.0
    assert quest_chance(13, 0) == 0.0


def _duel_turn(leaders: list[tuple[int, str, str]], troops: list[tuple[int, str, str]]) -> WqState:
    """A turn of seat 0 on the small map with these pieces only, empty hands (set by the test) and too little
    gold to buy anything (so the test weighs only what it is about)."""
    state = board(dealt(GAME, scenario(2, map_key="marches")), leaders, troops, seat=0)
    players = tuple(replace(p, quests=(), conquests=(), gold=1) for p in state.players)
    return replace(state, players=players)


def test_it_attempts_the_quest_with_the_better_roll() -> None:
    """WQ-QU-03: with a leader at each location, the 5-VP quest (won on 5+, 30/36) is attempted before the
    10-VP one (won only on 10+, 6/36)."""
    state = _duel_turn(
        [(0, "warlord", "crownlands"), (0, "lieutenant", "embermarch"), (1, "warlord", "wrackshore")],
        [(0, "dwarf_foot", "crownlands")],
    )
    p0 = replace(state.players[0], quests=(17, 3))  # 17: 10 VP at crownlands; 3: 5 VP at embermarch
    state = replace(state, players=(p0, state.players[1]))
    legal = GAME.legal_actions(state, 0)
    assert act.Quest(17) in legal and act.Quest(3) in legal
    assert bot_for(GAME, 1).choose(state, 0) == act.Quest(3)


def test_it_does_not_attack_into_a_lost_battle() -> None:
    """WQ-MV-10: one Goblin Infantry against five Dwarf Infantry next door: the odds say it loses, so the bot
    never moves into that region."""
    state = _duel_turn(
        [(0, "warlord", "crownlands"), (1, "warlord", "coldbarrow")],
        [(0, "goblin_foot", "crownlands"), *[(1, "dwarf_foot", "coldbarrow")] * 5],
    )
    state = replace(state, owners=(("crownlands", 0),))
    bot = bot_for(GAME, 2)
    into = [a for a in GAME.legal_actions(state, 0) if isinstance(a, act.Move) and a.path[-1] == "coldbarrow"]
    assert into
    for move in into:
        assert bot._battle_gain(state, 0, move, "coldbarrow", ()) < 0
    chosen = bot.choose(state, 0)
    assert not (isinstance(chosen, act.Move) and chosen.path[-1] == "coldbarrow")


def test_it_attacks_a_lone_leader() -> None:
    """WQ-MS-41: a side with no troops when the battle begins loses at once: the bot's army takes the
    battle's VP from an enemy leader standing alone next door."""
    state = _duel_turn(
        [(0, "warlord", "crownlands"), (1, "warlord", "coldbarrow")],
        [(0, "orc_foot", "crownlands")] * 3,
    )
    state = replace(state, owners=(("crownlands", 0),))
    chosen = bot_for(GAME, 3).choose(state, 0)
    assert isinstance(chosen, act.Move) and chosen.path[-1] == "coldbarrow" and len(chosen.troops) == 3


def test_its_answers_are_legal_in_every_phase_and_it_reads_no_hidden_card() -> None:
    """Placing, a turn's actions and a battle's questions: every answer is offered (or accepted) by the rules;
    on a state whose hidden cards are redrawn it chooses the same."""
    kinds: set[str] = set()
    for name, seed in SAMPLE[:4]:
        _, seen = _play(name, seed, honest=3)
        kinds |= seen
    assert {"place", "quest", "move"} <= kinds


def test_its_battle_answers_are_offered_ones() -> None:
    """WQ-CB, WQ-MS-40..43: bots on both sides of a battle (seeded dice) answer every question (arrange,
    assign, refill, press on, retreat...) with an answer the rules offer, and the battle ends."""
    kinds: set[str] = set()
    for seed in range(1, 7):
        state = _duel_turn(
            [(0, "warlord", "crownlands"), (1, "warlord", "coldbarrow")],
            [
                *[(0, "orc_foot", "crownlands")] * 3,
                *[(0, "elf_archer", "crownlands")] * 2,
                *[(0, "dwarf_foot", "crownlands")] * 2,
                *[(1, "goblin_foot", "coldbarrow")] * 4,
                *[(1, "goblin_archer", "coldbarrow")] * 3,
            ],
        )
        army = tuple(t.id for t in state.troops if t.seat == 0)
        state, _ = GAME.apply(state, act.Move(0, army, ("coldbarrow",)))
        bots, dice = (bot_for(GAME, seed), bot_for(GAME, seed + 1)), SeededDice(seed)
        while state.battle is not None:
            who = GAME.to_move(state)
            if who == CHANCE:
                state, _ = GAME.apply(state, ChanceOutcome(dice.roll(GAME.chance_outcomes(state))))
                continue
            assert who in (0, 1)
            action = bots[who].choose(state, who)
            assert action in GAME.legal_actions(state, who), action
            kinds.add(act.NAMES[type(action)])
            state, _ = GAME.apply(state, action)
    assert {"arrange", "press_on"} <= kinds


def test_it_beats_random_players() -> None:
    """Issue 15, section 6: the bot wins most of a small seeded sample of 2- and 3-player games."""
    won = 0
    for name, seed in SAMPLE:
        state, _ = _play(name, seed)
        assert state.result is not None
        seat = seed % state.n
        won += state.result.outcomes[seat] == Outcome.WIN
    assert won >= len(SAMPLE) - 1
