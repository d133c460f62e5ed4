"""The state and action values (wq-spec: Engine core): JSON round trips, refusals of malformed actions,
and the state's helpers."""

from __future__ import annotations

import json

import pytest

from iwgt.core.errors import MalformedAction
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.state import set_owner

EVERY = [
    act.Place("r00", act.counts({"goblin_foot": 3, "orc_foot": 2})),
    act.Move(1, (100, 101), ("r01", "r02")),
    act.Move(1, (), ("r01",)),
    act.Power(3),
    act.Power(3, 7),
    act.Tax("r00"),
    act.Conquer("r00"),
    act.Recruit("r24", act.counts({"goblin_archer": 2})),
    act.Lieutenant(),
    act.Quest(4),
    act.EndTurn(),
    act.Discard(9),
    act.Arrange((100, 101), (102,)),
    act.Target("rear"),
    act.Spell(),
    act.Spell(104),
    act.Breath(),
    act.Breath("front"),
    act.Assign(act.hits_of({104: 2, 101: 1}), (103,)),
    act.Refill((105,), ()),
    act.PressOn(True),
    act.Retreat("r12"),
]


@pytest.mark.parametrize("action", EVERY, ids=lambda a: type(a).__name__)
def test_every_action_round_trips_through_json_text(action: act.Action) -> None:
    """Each action survives JSON text and back unchanged, with its snake_case type."""
    data = act.action_to_json(action)
    assert data["type"] == act.NAMES[type(action)]
    assert act.action_from_json(json.loads(json.dumps(data))) == action
    assert act.recorded(action) == action


def test_counts_are_objects_in_json_and_sorted_pairs_in_values() -> None:
    """WQ-SU-15 / WQ-RT-05: troop counts are {kind: n}; zero counts drop out; key order does not matter."""
    a = act.action_from_json(
        {"type": "recruit", "region": "r24", "troops": {"goblin_foot": 2, "goblin_archer": 1}}
    )
    b = act.action_from_json(
        {"type": "recruit", "region": "r24", "troops": {"goblin_archer": 1, "goblin_foot": 2}}
    )
    assert a == b == act.Recruit("r24", (("goblin_archer", 1), ("goblin_foot", 2)))
    assert act.action_to_json(a)["troops"] == {"goblin_archer": 1, "goblin_foot": 2}
    assert act.counts({"orc_foot": 0, "goblin_foot": 1}) == (("goblin_foot", 1),)


def test_assign_hits_have_string_keys_in_json() -> None:
    """WQ-CB-13: hits by troop id; JSON object keys are strings, read back as ids."""
    a = act.Assign(((101, 1), (104, 2)), ())
    assert act.action_to_json(a) == {"type": "assign", "hits": {"101": 1, "104": 2}, "flees": []}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "move", "leader": 1, "troops": [3, 3], "path": ["r01"]}, "names an id twice"),
        ({"type": "move", "leader": 1, "troops": [], "path": []}, "'path' must be a list of 1 to"),
        ({"type": "move", "leader": "one", "troops": [], "path": ["r01"]}, "'leader' must be a whole number"),
        (
            {"type": "place", "region": "r00", "troops": {"goblin_foot": -1}},
            "'troops.goblin_foot' must be 0 to",
        ),
        ({"type": "place", "region": "r00", "troops": [1, 2]}, "'troops' must be an object"),
        ({"type": "target", "rank": "flank"}, '\'rank\' must be "front" or "rear"'),
        ({"type": "tax"}, "a 'tax' action needs 'region'"),
        ({"type": "fly", "region": "r00"}, "unknown action type 'fly'"),
        ({"type": "end_turn", "extra": 1}, "unexpected key(s) extra"),
    ],
)
def test_malformed_actions_are_refused_naming_the_key(data: dict[str, object], words: str) -> None:
    """A malformed action raises MalformedAction whose message says what is wrong."""
    with pytest.raises(MalformedAction) as err:
        act.action_from_json(data)
    assert words in err.value.message


def test_set_owner_keeps_owners_sorted_and_removes() -> None:
    """Ownership is a sorted tuple of (region, seat): one token a region (WQ-CQ-02)."""
    owners = set_owner((), "r05", 1)
    owners = set_owner(owners, "r00", 0)
    assert owners == (("r00", 0), ("r05", 1))
    assert set_owner(owners, "r05", 0) == (("r00", 0), ("r05", 0))
    assert set_owner(owners, "r00", None) == (("r05", 1),)
