"""The Coloured-Dice bot (issue 14, section 5): it answers only legal actions, the same game for the same
seed, it takes the better shot by the exact odds (CD-SH, CD-RA, CD-FI-05..07), rolls a bear-wound die when
the wounds would remove its hero's model and not otherwise (CD-CH-13..16), and it beats a random player in a
small seeded match. No timing is asserted here: ``benchmarks/coloured_dice_bot.py`` measures it.
"""

from __future__ import annotations

from typing import Any

from tests.games.coloured_dice.kit import GAME, battle, unit

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Outcome
from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice.bot import CdBot, bot_for
from iwgt.games.coloured_dice.plugin import plugin

MATCH_SEEDS = (11, 12, 13)
"""The seeded skirmish match: one game each, the bot on seat ``seed % 2``."""


def _green_faces(kills: int, dice: int = 10) -> list[int]:
    """Green faces (0,0,0,1,2,kill): ``kills`` kill faces (6), the rest 0-point faces (1)."""
    return [6] * kills + [1] * (dice - kills)


def _play(
    seed: int, bot_seat: int, *, steps: int | None = None, check: bool = False
) -> tuple[Any, list[Any]]:
    """A skirmish, the bot on ``bot_seat`` against the random player, dice seeded; (final state, the bot's
    actions). With ``check``, each of the bot's first turn orders other than a move is among the listed
    legal actions (a move is a free path the rules take, CD-MS-01: ``apply`` below would refuse it)."""
    state = GAME.initial_state(GAME.load_scenario("skirmish"))
    bot, rnd, dice = bot_for(GAME, seed), RandomBot(GAME, seed), SeededDice(seed)
    chosen: list[Any] = []
    checked = 0
    n = 0
    while not GAME.is_terminal(state) and (steps is None or n < steps):
        who = GAME.to_move(state)
        if who == CHANCE:
            action: Any = ChanceOutcome(dice.roll(GAME.chance_outcomes(state)))
        elif who == bot_seat:
            action = bot.choose(state, who)
            chosen.append(action)
            if check and (state.pending or (checked < 12 and not isinstance(action, act.Move))):
                assert action in GAME.legal_actions(state, who), action
                checked += not state.pending
        else:
            action = rnd.choose(state, who)
        state, _ = GAME.apply(state, action)  # raises on anything the rules refuse
        n += 1
    return state, chosen


def test_the_plugin_gives_the_bot() -> None:
    """The plug-in's ``bot(seed)`` is this bot."""
    assert isinstance(plugin.bot(3), CdBot)


def test_the_bot_answers_only_legal_actions() -> None:
    """A whole seeded skirmish: every action of the bot is taken by the rules; its answers and its orders
    (other than free moves) are among the legal actions listed."""
    state, chosen = _play(5, 0, check=True)
    assert GAME.is_terminal(state)
    kinds = {type(a).__name__ for a in chosen}
    assert {"Move", "EndTurn"} <= kinds


def test_the_bot_is_deterministic_by_seed() -> None:
    """The same seeds give the same game, action for action."""
    _, first = _play(7, 1, steps=120)
    _, again = _play(7, 1, steps=120)
    assert first == again and len(first) > 10


def test_the_bot_shoots_the_unit_it_can_hurt_most() -> None:
    """CD-SH/CD-RA: ten human archers (white dice, skill 1) at two units 6-7" away (band 0): the poison
    archers (armour 1: effective 2, each casualty costs 3 points, ~1.9 models and a 70% morale break) and the
    spear-wall (armour 2: effective 3, ~1.3 models; 12 models with a leader hardly break). It shoots the
    poison archers, whichever is listed first."""
    for order in ((1, 2), (2, 1)):
        placed = {1: unit(1, "poison_archers", 14, 14), 2: unit(1, "spear_wall", 27, 14, files=6)}
        st = battle([unit(0, "archers", 20, 5, files=5), *(placed[i] for i in order)])
        poison = next(u.id for u in st.units if u.key == "poison_archers")
        previews = {p["target"]: p for p in GAME.observe(st, 0)["previews"]}
        assert previews[poison]["mean"] > max(p["mean"] for t, p in previews.items() if t != poison)
        assert bot_for(GAME, 0).choose(st, 0) == act.Shoot(0, poison)


def _shot_at_hero(kills: int) -> Any:
    """Round 1, seat 1's turn: the poison archers shoot at Lemminkäinen (Body 2, two red bear-wound dice)
    5" away and roll ``kills`` kill faces (a wound each, whatever the armour, CD-DI-13) and no points; the
    state when the hero's owner is asked about a bear-wound die."""
    st = battle([unit(0, "lemminkainen", 20, 10), unit(1, "poison_archers", 20, 19)], first=1)
    st, _ = GAME.apply(st, act.Shoot(1, 0))
    for face in _green_faces(kills):
        assert GAME.to_move(st) == CHANCE
        st, _ = GAME.apply(st, ChanceOutcome(face))
    while GAME.observe(st, 0)["awaiting"]["kind"] == "hero":  # no points to take off two kills
        st, _ = GAME.apply(st, bot_for(GAME, 0).choose(st, 0))
    assert GAME.observe(st, 0)["awaiting"]["kind"] == "bear_wound"
    return st


def test_the_bot_rolls_bear_wound_when_a_wound_would_kill_its_hero() -> None:
    """CD-CH-13..16: two wounds on a fresh Body-2 hero remove him: the bot rolls a bear-wound die."""
    st = _shot_at_hero(2)
    assert bot_for(GAME, 0).choose(st, 0) == act.BearWound(True)


def test_the_bot_keeps_bear_wound_dice_when_the_hero_survives_anyway() -> None:
    """CD-CH-15: one wound on a fresh Body-2 hero leaves him standing: the dice are kept for later."""
    st = _shot_at_hero(1)
    assert bot_for(GAME, 0).choose(st, 0) == act.BearWound(False)


def test_the_bot_beats_random_in_a_seeded_match() -> None:
    """Issue 14 section 5: a small seeded match on the skirmish, the bot on each seat in turn: it wins
    every game (the outcomes of these fixed seeds, not a time)."""
    for seed in MATCH_SEEDS:
        bot_seat = seed % 2
        state, _ = _play(seed, bot_seat)
        result = GAME.result(state)
        assert result is not None
        assert result.outcomes[bot_seat] == Outcome.WIN, (seed, result.reason)


def test_the_bot_spends_a_hero_point_to_save_its_hero() -> None:
    """CD-CH-18..20: the poison archers' green dice roll five 2s (10 points) at Lemminkäinen, armour 3 +
    skill 1 at band 0 = 4, so each wound costs 5 points: 2 wounds, his Body 2 gone. One hero point off the
    roll leaves 9 points, 1 wound: he stands. The bot spends exactly that point (-1)."""
    st = battle([unit(0, "lemminkainen", 20, 10), unit(1, "poison_archers", 20, 19)], first=1)
    st, _ = GAME.apply(st, act.Shoot(1, 0))
    for face in [5] * 5 + [1] * 5:
        st, _ = GAME.apply(st, ChanceOutcome(face))
    pending = GAME.observe(st, 0)["awaiting"]
    assert pending["kind"] == "hero" and pending["armour"] == 4
    assert bot_for(GAME, 0).choose(st, 0) == act.Hero(-1)
