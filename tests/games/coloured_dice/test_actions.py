"""The actions as values and JSON (cd-spec 2, engine core): every type round-trips; malformed ones are refused
naming the key."""

from __future__ import annotations

from typing import Any

import pytest

from iwgt.core.errors import MalformedAction
from iwgt.games.coloured_dice.actions import (
    TYPES,
    BearWound,
    Cast,
    Charge,
    EndTurn,
    Fight,
    Hero,
    Move,
    Rally,
    React,
    Reform,
    Release,
    Resist,
    Shoot,
    action_from_json,
    action_to_json,
    recorded,
)

EXAMPLES: list[tuple[Any, dict[str, Any]]] = [
    (
        Move(3, ((1.0, 2.0), (3.5, 4.0)), 90.0),
        {"type": "move", "unit": 3, "path": [[1.0, 2.0], [3.5, 4.0]], "facing": 90.0},
    ),
    (Charge(1, 7), {"type": "charge", "unit": 1, "target": 7}),
    (Reform(2, "tight", 4), {"type": "reform", "unit": 2, "order": "tight", "files": 4}),
    (
        Reform(2, "loose", 6, 180.0),
        {"type": "reform", "unit": 2, "order": "loose", "files": 6, "facing": 180.0},
    ),
    (Rally(5), {"type": "rally", "unit": 5}),
    (Fight(1, 2), {"type": "fight", "unit": 1, "target": 2}),
    (Shoot(1, 2), {"type": "shoot", "unit": 1, "target": 2}),
    (Cast(4, "fire_dart", target=9), {"type": "cast", "unit": 4, "spell": "fire_dart", "target": 9}),
    (
        Cast(4, "moon_gate", at=(10.0, 12.0)),
        {"type": "cast", "unit": 4, "spell": "moon_gate", "at": [10.0, 12.0]},
    ),
    (Release(6, "haltija"), {"type": "release", "unit": 6, "spirit": "haltija"}),
    (EndTurn(), {"type": "end_turn"}),
    (Hero(-2), {"type": "hero", "points": -2}),
    (BearWound(True), {"type": "bear_wound", "roll": True}),
    (React(False), {"type": "react", "roll": False}),
    (Resist(True), {"type": "resist", "spend": True}),
]


def test_every_type_has_an_example() -> None:
    """The examples cover every action type of the spec."""
    assert {data["type"] for _, data in EXAMPLES} == set(TYPES)


@pytest.mark.parametrize(("action", "data"), EXAMPLES)
def test_round_trip(action: Any, data: dict[str, Any]) -> None:
    """to_json gives the spec's shape (optional keys left out when unset) and from_json reads it back."""
    assert action_to_json(action) == data
    assert action_from_json(data) == action
    assert recorded(action) == action


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("move", "JSON object"),
        ({"unit": 1}, "names no 'type'"),
        ({"type": "teleport"}, "unknown action type"),
        ({"type": "charge", "unit": 1}, "needs 'target'"),
        ({"type": "charge", "unit": 1, "target": 2, "speed": 3}, "unexpected key"),
        ({"type": "fight", "unit": "1", "target": 2}, "'unit' must be a whole number"),
        ({"type": "move", "unit": 1, "path": [], "facing": 0}, "'path'"),
        ({"type": "move", "unit": 1, "path": [[1, 2, 3]], "facing": 0}, "path.0"),
        ({"type": "reform", "unit": 1, "order": "tight", "files": 0}, "'files'"),
        ({"type": "hero", "points": 1.5}, "'points'"),
        ({"type": "bear_wound", "roll": 1}, "true or false"),
        ({"type": "cast", "unit": 1, "spell": ""}, "'spell'"),
    ],
)
def test_malformed_actions_are_refused_naming_the_key(data: Any, said: str) -> None:
    """A malformed action is refused at the door with the reason."""
    with pytest.raises(MalformedAction, match=said):
        action_from_json(data)


def test_a_foreign_object_is_not_an_action() -> None:
    """Only the game's own action values are recorded."""
    with pytest.raises(MalformedAction):
        recorded({"type": "end_turn"})
