"""Options, selections and previews against the engine's legal actions (the single source of truth)."""

from __future__ import annotations

import pytest
from tests.games.valkyrx.kit import GAME, end_movement, position
from tests.games.valkyrx.table_kit import ADAPTER

from iwgt.core.lights import AMBER, BLUE, GREEN
from iwgt.games.valkyrx.actions import Move


def test_options_split_the_legal_actions_into_movable_units_and_the_rest() -> None:
    state = position([("guardsmen", (3, 6)), ("archers", (8, 0))], [("wearg_warriors", (3, 3))])
    legal = GAME.legal_actions(state, 0)
    opts = ADAPTER.options(GAME, state, 0)
    assert opts["movable"] == sorted({a.unit for a in legal if isinstance(a, Move)})
    assert opts["actions"] == [GAME.action_to_json(a) for a in legal if not isinstance(a, Move)]
    assert {"type": "end_phase"} in opts["actions"]


def test_selection_gives_every_legal_move_of_the_unit_with_its_kind_and_light() -> None:
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    sel = ADAPTER.selection(GAME, state, 0, 0)
    legal = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Move) and a.unit == 0]
    assert sel["type"] == "selection" and sel["unit"] == 0
    assert sorted([m["action"] for m in sel["moves"]], key=repr) == sorted(
        map(GAME.action_to_json, legal), key=repr
    )
    kinds = [m["kind"] for m in sel["moves"] if tuple(m["to"]) == (3, 4)]
    assert kinds == [
        "charge",
        "walk",
    ]  # the default first, as the cell's light shows: charge, or walk (deferred)
    lights = {tuple(x["cell"]): x for x in sel["lights"] if x["effect"] != "preview"}
    assert lights[(3, 6)]["effect"] == "selected" and lights[(3, 6)]["colour"] == BLUE
    assert lights[(3, 4)]["effect"] == "charge" and lights[(3, 4)]["colour"] == AMBER  # charge shown first
    assert lights[(3, 5)]["effect"] == "destination" and lights[(3, 5)]["colour"] == GREEN
    assert {tuple(m["to"]) for m in sel["moves"]} | {(3, 6)} == set(lights)


def test_selection_previews_the_charge_by_hand() -> None:
    # VX-04-19: 300 x 15 x 10% x 10 / 150 x 1.5 = 45 casualties (15% of 300); the Wearg strike back 19.2.
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    sel = ADAPTER.selection(GAME, state, 0, 0)
    assert sel["previews"] == [
        {
            "target": 1,
            "cell": [3, 3],
            "expected": {"casualties": 45.0, "share": 0.15, "attacker_losses": 19.2},
        }
    ]
    assert [x["cell"] for x in sel["lights"] if x["effect"] == "preview"] == [[3, 3]]


def test_a_unit_not_the_seat_s_to_move_gets_an_empty_selection_that_says_why() -> None:
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    empty = {"type": "selection", "unit": 1, "moves": [], "lights": [], "previews": []}
    # Nothing lights, but the answer comes and says why (the screen never waits on "asking the table").
    assert ADAPTER.selection(GAME, state, 0, 1) == {
        **empty,
        "note": "Wearg Warriors cannot move now: it is not under your command.",
    }  # the enemy's unit
    assert ADAPTER.selection(GAME, state, 1, 1) == {
        **empty,
        "note": "Wearg Warriors cannot move now: it is not your turn to act.",
    }  # not the Darkness's turn
    assert ADAPTER.selection(GAME, state, 0, 99) == {**empty, "unit": 99}  # no such unit: nothing to say


def test_preview_of_a_legal_charge_and_an_illegal_move() -> None:
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    charge = ADAPTER.preview(GAME, state, 0, {"type": "move", "unit": 0, "to": [3, 4], "charge": True})
    assert charge == {
        "type": "preview",
        "legal": True,
        "reason": None,
        "expected": {
            "casualties": 45.0,
            "share": 0.15,
            "attacker_losses": 19.2,
            "targets": [
                {"target": 1, "cell": [3, 3], "casualties": 45.0, "share": 0.15, "attacker_losses": 19.2}
            ],
        },
    }
    walk = ADAPTER.preview(GAME, state, 0, {"type": "move", "unit": 0, "to": [3, 5]})
    assert (walk["legal"], walk["expected"]) == (True, None)
    far = ADAPTER.preview(GAME, state, 0, {"type": "move", "unit": 0, "to": [3, 0]})
    assert far["legal"] is False and "VX-03-06" in far["reason"]
    assert far["expected"] is None
    other = ADAPTER.preview(GAME, state, 1, {"type": "end_phase"})
    assert other["legal"] is False and "not your turn" in other["reason"]
    bad = ADAPTER.preview(GAME, state, 0, {"type": "fly"})
    assert bad["legal"] is False and "unknown action type" in bad["reason"]


def test_preview_changes_nothing() -> None:
    state = position([("guardsmen", (3, 6))], [("wearg_warriors", (3, 3))])
    before = GAME.state_to_json(state)
    ADAPTER.preview(GAME, state, 0, {"type": "move", "unit": 0, "to": [3, 4], "charge": True})
    assert GAME.state_to_json(state) == before


def test_preview_of_a_fire_spell_by_hand() -> None:
    # VX-SP-FIRE-2: 10,000 / 150 = 66.67 casualties; Resist Magic L shrugs it off 10% of the time: 60.
    state = position([("wulfgeldre", (6, 4))], [("wearg_warriors", (6, 7))], width=14, height=10)
    state, _ = end_movement(state)
    fire = ADAPTER.preview(GAME, state, 0, {"type": "cast", "unit": 0, "spell": "fire"})
    assert fire["legal"] is True
    assert fire["expected"]["casualties"] == pytest.approx(60.0)
    assert fire["expected"]["share"] == pytest.approx(0.2)
    assert fire["expected"]["attacker_losses"] is None  # Fire spares friends
    assert fire["expected"]["cost"] == pytest.approx(0.1)
    strength = ADAPTER.preview(GAME, state, 0, {"type": "cast", "unit": 0, "spell": "strength"})
    assert (strength["legal"], strength["expected"]) == (True, None)
    nothing = ADAPTER.preview(GAME, state, 0, {"type": "cast", "unit": 0, "spell": "plague"})
    assert nothing["legal"] is False and "holds no Plague" in nothing["reason"]


def test_preview_of_an_earthquake_counts_the_caster_s_friends_as_his_losses() -> None:
    state = position(
        [("guardsmen", (6, 2))], [("ellorgast", (6, 4)), ("wearg_warriors", (6, 6))], first=1, width=14
    )
    state, _ = end_movement(state)
    quake = ADAPTER.preview(GAME, state, 1, {"type": "cast", "unit": 1, "spell": "earthquake"})
    assert quake["expected"]["casualties"] == pytest.approx(39.0)
    assert quake["expected"]["attacker_losses"] == pytest.approx(54.0)
    assert [f["target"] for f in quake["expected"]["friends"]] == [2]
