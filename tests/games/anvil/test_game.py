"""The game behind the protocol: its facts, JSON actions, refusals that change nothing, and properties of
any sequence of legal actions (trays never overlap, CP never negative, every tray on the table)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.anvil.engine_kit import GAME, at_activation, at_bid, at_terrain_bid, play

from iwgt.core.digest import canonical_json
from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.protocol import ChanceOutcome
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.facts import FACTS
from iwgt.games.anvil.movement import in_impassable
from iwgt.games.anvil.state import AnvilState
from iwgt.geometry.trays import trays_overlap, within_table

EVERY_ACTION: list[act.Action] = [
    act.Army((act.ArmyEntry("troop", "Spearmen", True, ("shooter",)), act.ArmyEntry("hero", "Ulf"))),
    act.TerrainBid(3),
    act.PlaceFeature("wood", (10.0, 12.5), 90, True, False, True),
    act.SkipFeature(),
    act.PlaceSeat((18.0, 0.75)),
    act.Bid(7),
    act.Activate(4),
    act.Deploy(4, "own", 6.0),
    act.Deploy(4, "left", y=10.0),
    act.Deploy(4, "infiltrate", 10.0, 20.0, 45.0),
    act.Stratagem("march"),
    act.Move(4, ((1.0, 2.0), (3.0, 4.5)), 270.0),
    act.Engage(4, 9),
    act.Shoot(4, 9),
    act.Cast(4, "fireball", target=9),
    act.Cast(4, "stormwind", target=9, distance=4.5, direction="away"),
    act.Cast(4, "summon_subjects", point=(12.0, 14.0), extras=("fear",), facing=180.0),
    act.Steady(4, 5),
    act.RaiseChampion(4, (20.0, 30.0), 180.0),
    act.Interrupt("counterattack"),
    act.Interrupt("dispel", 6),
    act.Decline(),
    act.EndActivation(),
    act.Pass(),
]


def test_the_facts() -> None:
    assert (FACTS.name, FACTS.title, FACTS.geometry, FACTS.rules_version) == (
        "anvil",
        "Forged upon an Anvil",
        "inches",
        "anvil-1.0",
    )
    assert (FACTS.min_players, FACTS.max_players, FACTS.hidden_information) == (2, 2, True)
    assert FACTS.movement_timer is None
    assert GAME.name == "anvil" and GAME.rules_version == "anvil-1.0"


@pytest.mark.parametrize("action", EVERY_ACTION, ids=lambda a: type(a).__name__)
def test_every_action_type_round_trips_through_json(action: act.Action) -> None:
    data = GAME.action_to_json(action)
    assert GAME.action_from_json(json.loads(json.dumps(data))) == action
    assert data["type"] == act.NAMES[type(action)]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "bid"}, "needs 'amount'"),
        ({"type": "bid", "amount": True}, "whole number"),
        ({"type": "bid", "amount": 2.5}, "whole number"),
        ({"type": "move", "unit": 1, "path": [], "facing": 0}, "1 to 16 points"),
        ({"type": "move", "unit": 1, "path": [[1, 2, 3]], "facing": 0}, "point [x, y]"),
        ({"type": "move", "unit": 1, "path": [[1, 2]], "facing": float("nan")}, "number"),
        ({"type": "move", "unit": 1, "path": [[1, 2]] * 17, "facing": 0}, "1 to 16 points"),
        ({"type": "army", "units": [{"type": "troop", "colour": "red"}]}, "unexpected key"),
        ({"type": "army", "units": []}, "1 to 64 units"),
        ({"type": "deploy", "unit": 1, "edge": 3}, "short name"),
        (
            {
                "type": "place_feature",
                "piece": "wood",
                "centre": [1, 2],
                "rotation": 0,
                "halves": 1,
                "blocks": False,
                "impassable": False,
            },
            "true or false",
        ),
        ({"type": "pass", "now": True}, "unexpected key"),
        ({"type": "charge"}, "unknown action type"),
    ],
)
def test_malformed_json_is_refused_with_the_reason(data: dict[str, Any], words: str) -> None:
    with pytest.raises(MalformedAction, match=words.replace("[", r"\[").replace("]", r"\]")):
        GAME.action_from_json(data)


def test_actions_out_of_their_phase_are_refused_and_change_nothing() -> None:
    state = at_bid()
    before = canonical_json(GAME.state_to_json(state))
    for action in (act.TerrainBid(2), act.PlaceSeat((5.0, 5.0)), act.Activate(3), act.Move(3, ((1, 1),), 0)):
        with pytest.raises(IllegalAction):
            GAME.apply(state, action)
    with pytest.raises(IllegalAction):
        GAME.apply(state, ChanceOutcome(1))
    with pytest.raises(MalformedAction):
        GAME.apply(state, "bid")  # type: ignore[arg-type]
    assert canonical_json(GAME.state_to_json(state)) == before


def test_an_unknown_unit_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no unit 99"):
        GAME.apply(at_activation(5, 6), act.Activate(99))


def test_only_the_seat_to_move_has_legal_actions() -> None:
    state = at_terrain_bid()
    assert GAME.legal_actions(state, 1) == [] and GAME.legal_actions(state, 0)
    state, _ = play(state, act.TerrainBid(0))
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 1)


def check_invariants(state: AnvilState) -> None:
    """Trays never overlap, every tray lies on the table out of impassable terrain, CP never negative."""
    assert min(state.cp) >= 0 and min(state.limits) >= 0
    w, h = state.scenario.spec.width, state.scenario.spec.height
    trays = [u.tray for u in state.units if u.on_table and u.tray is not None]
    terrain = state.terrain()
    for i, a in enumerate(trays):
        assert within_table(a, w, h)
        assert not in_impassable(a.polygon(), terrain)
        for b in trays[:i]:
            assert not trays_overlap(a, b), (a, b)


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(["skirmish", "battle"]),
    st.lists(st.integers(min_value=0, max_value=1_000_000), min_size=20, max_size=150),
)
def test_any_sequence_of_legal_actions_keeps_the_table_sound(name: str, picks: list[int]) -> None:
    """Property: trays never overlap, stay on the table and out of impassable terrain; CP never negative.
    Passing is taken only one time in five, so that units come on and move."""
    state = at_terrain_bid(name)
    for k in picks:
        seat = GAME.to_move(state)
        if seat is None:
            break
        legal = list(GAME.legal_actions(state, seat))
        assert legal
        if len(legal) > 1 and k % 5:
            legal = [a for a in legal if not isinstance(a, act.Pass)] or legal
        before = canonical_json(GAME.state_to_json(state))
        after, _ = GAME.apply(state, legal[k % len(legal)])
        assert canonical_json(GAME.state_to_json(state)) == before  # apply leaves its input alone
        state = after
        check_invariants(state)


def test_a_bid_state_is_a_value_replace_gives_a_new_one() -> None:
    state = at_bid()
    other = replace(state, bids=(3, None))
    assert state.bids == (None, None) and other.bids == (3, None)
