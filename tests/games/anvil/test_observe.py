"""What each seat sees: the sealed army lists, terrain bids and turn bids stay with their maker until both
are in (issue 13, 3; anvil-spec 1); everything else is public."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.anvil.engine_kit import GAME, at_activation, at_bid, at_terrain_bid, play, scenario

from iwgt.core.digest import canonical_json
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.state import AnvilState

TOP_KEYS = {
    "game",
    "scenario",
    "title",
    "seat",
    "phase",
    "turn",
    "turns",
    "to_move",
    "mover",
    "options",
    "table",
    "palette",
    "sides",
    "placer",
    "first_placer",
    "bid_round",
    "features",
    "units",
    "activation",
    "interruption",
    "result",
}


def side(state: AnvilState, seat: int | None, of: int) -> dict[str, object]:
    sides = GAME.observe(state, seat)["sides"]
    assert isinstance(sides, list)
    out = sides[of]
    assert isinstance(out, dict)
    return out


def test_the_observation_has_the_documented_shape_and_is_json() -> None:
    state = at_activation(5, 6)
    for seat in (0, 1, None):
        obs = GAME.observe(state, seat)
        assert set(obs) == TOP_KEYS
        assert json.loads(json.dumps(obs, allow_nan=False)) == obs
    unit = GAME.observe(state, 0)["units"][0]
    assert unit["type"] == "seat" and unit["tray"]["centre"] == [18.0, 0.75] and unit["tray"]["facing"] == 0.0


def test_a_sealed_army_list_is_seen_by_its_maker_only_until_both_are_in() -> None:
    state = GAME.initial_state(scenario())
    state, _ = play(state, state.scenario.armies[0])
    assert side(state, 0, 0)["army"] is not None
    for viewer in (1, None):
        assert side(state, viewer, 0)["army_in"] is True
        assert side(state, viewer, 0)["army"] is None
    state, _ = play(state, state.scenario.armies[1])
    for viewer in (0, 1, None):
        assert side(state, viewer, 0)["army"] is not None and side(state, viewer, 1)["army"] is not None


def test_a_sealed_terrain_bid_is_hidden_until_both_are_in() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(4))
    assert side(state, 0, 0)["terrain_bid"] == 4
    assert side(state, 1, 0)["terrain_bid"] is None and side(state, 1, 0)["terrain_bid_in"] is True
    assert side(state, None, 0)["terrain_bid"] is None
    state, _ = play(state, act.TerrainBid(1))
    assert side(state, 1, 0)["terrain_bid"] == 4 and side(state, None, 1)["terrain_bid"] == 1


def test_a_sealed_turn_bid_is_hidden_until_both_are_in_then_public() -> None:
    state, _ = play(at_bid(), act.Bid(7))
    assert side(state, 0, 0)["bid"] == 7
    assert side(state, 1, 0)["bid"] is None and side(state, 1, 0)["bid_in"] is True
    assert side(state, None, 0)["bid"] is None
    state, _ = play(state, act.Bid(2))
    for viewer in (0, 1, None):
        assert (side(state, viewer, 0)["bid"], side(state, viewer, 1)["bid"]) == (7, 2)


def test_resample_hidden_redraws_the_sealed_bid_and_the_other_seat_cannot_tell() -> None:
    state, _ = play(at_bid(), act.Bid(7))
    rng = random.Random(3)
    drawn = set()
    for _ in range(20):
        variant = GAME.resample_hidden(state, 1, lambda n: rng.randrange(n))
        drawn.add(variant.bids[0])
        assert canonical_json(GAME.observe(variant, 1)) == canonical_json(GAME.observe(state, 1))
        assert canonical_json(GAME.observe(variant, None)) == canonical_json(GAME.observe(state, None))
        assert GAME.legal_actions(variant, 1) == GAME.legal_actions(state, 1)
    assert len(drawn) > 1
    assert GAME.resample_hidden(state, 0, lambda n: 0) == state  # seat 0 knows its own bid


def test_resample_hidden_redraws_a_sealed_army_list() -> None:
    state = GAME.initial_state(scenario())
    state, _ = play(state, state.scenario.armies[0])
    variant = GAME.resample_hidden(state, 1, lambda n: 1)
    assert variant.armies[0] == state.scenario.armies[1]
    assert canonical_json(GAME.observe(variant, 1)) == canonical_json(GAME.observe(state, 1))


def test_action_view_shows_another_seat_only_that_a_sealed_choice_was_made() -> None:
    for action, kind in ((act.Bid(7), "bid"), (act.TerrainBid(3), "terrain_bid")):
        assert GAME.action_view(action, 0, 1) == {"type": kind}
        assert GAME.action_view(action, 0, None) == {"type": kind}
        assert GAME.action_view(action, 0, 0) == GAME.action_to_json(action)
    army = at_terrain_bid().scenario.armies[0]
    assert GAME.action_view(army, 0, 1) == {"type": "army"}
    move = act.Move(3, ((1.0, 2.0),), 90.0)
    assert GAME.action_view(move, 0, 1) == GAME.action_to_json(move)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40))
def test_a_sealed_bid_never_reaches_the_other_seat_before_both_are_in(picks: list[int]) -> None:
    """Property: along any sequence of legal actions, a state whose seat-0 bid is in and seat-1 bid is not
    looks the same to seat 1 and to spectators whatever seat 0 bid."""
    state = at_bid()
    for k in picks:
        seat = GAME.to_move(state)
        if seat is None:
            break
        if state.phase == "bid" and state.bids[0] is not None and state.bids[1] is None:
            for viewer in (1, None):
                views = {
                    canonical_json(GAME.observe(replace(state, bids=(b, None)), viewer))
                    for b in range(state.limits[0] + 1)
                }
                assert len(views) == 1
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, legal[k % len(legal)])
