"""Conformance: undo behaves in every game and scenario on the table.

A seeded random playout takes back every step the bounds allow as it goes: the undo must give back exactly
the state before the step, taking the same action again must come back to the same digest, a step after
which a die was thrown is never taken back, only a game with hidden information (or its own ``undoable``)
refuses a step as revealing, and the record at the end replays without a trace of what was taken back.
"""

from __future__ import annotations

import random

import pytest

from iwgt.core.chance import SeededDice
from iwgt.core.digest import digest
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE
from iwgt.core.record import replay
from iwgt.core.referee import DIE_THROWN, GAME_OVER, REVEALED
from iwgt.core.registry import game_names, get_game

ACTIONS = 60
"""Player actions per playout (the reveal check applies each action a few more times)."""

CASES = [
    pytest.param(game, scenario, id=f"{game}-{scenario}")
    for game in game_names()
    for scenario in get_game(game).scenario_names()
]


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_every_undo_gives_back_the_state_before_and_respects_the_dice(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    m = Match(game, game.load_scenario(scenario), SeededDice(11), 11)
    m.resolve_chance()
    rng = random.Random(11)
    undone = 0
    for _ in range(ACTIONS):
        seat = m.to_move
        if seat is None:
            break
        before, n = m.state, len(m.steps)
        action = rng.choice(list(game.legal_actions(m.state, seat)))
        m.act(seat, action)
        after = digest(game.state_to_json(m.state))
        last = m.steps[-1]
        why = m.undo_refusal(seat)
        if last.seat == CHANCE:
            assert why in (DIE_THROWN, GAME_OVER), why
            continue
        if why == REVEALED:
            assert game.facts.hidden_information or hasattr(game, "undoable"), "nothing hidden to reveal"
            continue
        if why is not None:
            assert why == GAME_OVER, why
            continue
        m.undo(seat)
        undone += 1
        assert m.state == before and len(m.steps) == n
        m.act(seat, action)  # taken again, it comes to the same state: undo leaves nothing behind
        assert digest(game.state_to_json(m.state)) == after
    assert undone > 0, "a playout should have steps a player may take back"
    replayed = replay(m.finish_record()).state
    assert digest(game.state_to_json(replayed)) == digest(game.state_to_json(m.state))
