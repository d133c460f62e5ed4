"""The seeded random policy of the playthroughs: legal, reproducible, uniform over kinds of action first."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.registry import game_names, get_game


class _Deploying:
    """A stand-in with one "confirm" and 99 "place" actions, the shape of a deployment phase."""

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"type": "confirm"}, *({"type": "place", "cell": i} for i in range(99))]

    def action_to_json(self, action: dict[str, Any]) -> dict[str, Any]:
        return action


def test_a_kind_is_drawn_first_so_ending_a_phase_is_as_likely_as_any_other_kind() -> None:
    bot = RandomBot(_Deploying(), 5)  # type: ignore[arg-type]
    picks = Counter(bot.choose(None, 0)["type"] for _ in range(400))
    # Two kinds: each about half the draws (uniform over the 100 actions would confirm about 4 times in 400).
    assert 150 <= picks["confirm"] <= 250 and picks["confirm"] + picks["place"] == 400
    places = Counter(bot.choose(None, 0).get("cell") for _ in range(2000))
    assert len(places) > 60  # within a kind, the actions are drawn alike (not always the first)


def test_no_legal_action_is_a_clear_error() -> None:
    class Stuck(_Deploying):
        def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
            return []

    with pytest.raises(ValueError, match="seat 1 has no legal action"):
        RandomBot(Stuck(), 1).choose(None, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_name", game_names())
def test_every_choice_is_legal_and_the_same_seed_plays_the_same_game(game_name: str) -> None:
    game = get_game(game_name)
    scenario = game.load_scenario(game.scenario_names()[0])

    def play(seed: int) -> list[Any]:
        match = Match(game, scenario, SeededDice(seed), seed)
        match.resolve_chance()
        bots: dict[int, RandomBot] = {}
        for _ in range(60):
            seat = game.to_move(match.state)
            if seat is None:
                break
            action = bots.setdefault(seat, RandomBot(game, seed + seat)).choose(match.state, seat)
            assert action in game.legal_actions(match.state, seat)
            match.act(seat, action)
        return [s.to_json() for s in match.record.steps]

    assert play(3) == play(3)
