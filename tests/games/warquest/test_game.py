"""WarQuest through the ``Game`` protocol: whole random games to the end on every shipped scenario and on
the test grid with 2 to 5 warlords, determinism, offered actions always accepted, JSON of the state."""

from __future__ import annotations

import json
import random

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.score import emperor

from .corekit import play_random, scenario, testland  # noqa: F401

GAME = WqGame()


@pytest.mark.parametrize("name", GAME.scenario_names())
def test_every_scenario_plays_to_the_end(name: str) -> None:
    """A random game (seeded dice and choices) reaches its result on each shipped scenario (WQ-MS-39)."""
    sc = GAME.load_scenario(name)
    end, steps = play_random(GAME, GAME.initial_state(sc), seed=7)
    result = GAME.result(end)
    assert result is not None and len(result.outcomes) == sc.players and result.winners
    assert end.round <= sc.rounds
    assert steps > 0


@pytest.mark.usefixtures("testland")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_on_the_grid_for_every_player_count(players: int) -> None:
    """2 to 5 warlords (WQ-MS-44) on the test grid, two seeds each."""
    for seed in (1, 2):
        end, _ = play_random(GAME, GAME.initial_state(scenario(players, 8)), seed=seed)
        assert end.result is not None and (end.round == 8 or emperor(end) is not None)


def test_the_shipped_scenarios() -> None:
    """The five scenarios of the spec, sorted by name (the conformance suite); short is 6 rounds of 3."""
    assert GAME.scenario_names() == ["duel", "five_warlords", "myrathia", "short", "three_warlords"]
    short = GAME.load_scenario("short")
    assert (short.map, short.players, short.rounds) == ("myrathia", 3, 6)
    assert GAME.seats(GAME.load_scenario("duel")) == ("the Red Warlord", "the Blue Warlord")
    card = GAME.scenario_card(GAME.load_scenario("myrathia"))
    assert card.turns == 25 and card.turn_word == "rounds" and len(card.seats) == 4


@pytest.mark.usefixtures("testland")
def test_same_seed_same_game() -> None:
    """Pure rules: the same choices and faces give the same states."""
    a, n = play_random(GAME, GAME.initial_state(scenario(3, 4)), seed=11)
    b, m = play_random(GAME, GAME.initial_state(scenario(3, 4)), seed=11)
    assert n == m and GAME.state_to_json(a) == GAME.state_to_json(b)


@pytest.mark.usefixtures("testland")
def test_every_offered_action_is_accepted_through_a_game() -> None:
    """At each decision of a random game, a sample of the offered actions all apply; the state's JSON is
    JSON text; the status names the phase."""
    rng = random.Random(4)
    s = GAME.initial_state(scenario(3, 3))
    phases = set()
    while not GAME.is_terminal(s):
        who = GAME.to_move(s)
        phases.add(GAME.status(s).phase)
        if who == CHANCE:
            die = GAME.chance_outcomes(s)
            assert die is not None
            s, _ = GAME.apply(s, ChanceOutcome(rng.randrange(die.sides) + 1))
            continue
        assert who is not None
        offered = list(GAME.legal_actions(s, who))
        for a in rng.sample(offered, min(5, len(offered))):
            GAME.apply(s, GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(a)))))
        for other in range(s.n):
            if other != who:
                assert GAME.legal_actions(s, other) == []
        s, _ = GAME.apply(s, rng.choice(offered))
    json.dumps(GAME.state_to_json(s))
    assert {"place", "turn"} <= phases


@pytest.mark.usefixtures("testland")
def test_refusals_out_of_turn() -> None:
    """A chance node takes no player action; a finished game takes nothing; answers need a question."""
    s = GAME.initial_state(scenario(3))
    with pytest.raises(IllegalAction):
        GAME.apply(s, act.EndTurn())
    end, _ = play_random(GAME, s, seed=3)
    with pytest.raises(IllegalAction, match=r"^WQ-MS-39: the game is over"):
        GAME.apply(end, act.EndTurn())
