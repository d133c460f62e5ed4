"""``GET /api/games/{game}/help``: each game's help at the table as JSON; a game without help answers empty
lists, an unknown game the structured 404."""

from __future__ import annotations

from pathlib import Path

from .kit import serving


def test_valkyrx_help_has_its_topics_profiles_rules_and_guide(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.get("/api/games/valkyrx/help")
    assert r.status_code == 200
    data = r.json()
    assert data["game"] == "valkyrx" and data["title"] == "Days of the Valkyrx"
    assert data["how_to_play"] and all(s["title"] and s["text"] for s in data["how_to_play"])
    topics = {t["key"]: t for t in data["topics"]}
    grima = topics["unit:grima"]
    # the profile is the attributes table's row (units.toml: move 2, charge 3)
    assert {"label": "Movement", "value": "2 cells, charge 3"} in grima["profile"]
    # VX-12-07: the rulebook's "50% chance of success", and the table's decision (a d2)
    strike = next(r for r in grima["rules"] if r["clause"] == "VX-12-07")
    assert strike["quote"] == "she has a 50% chance of success"
    assert "d2" in strike["decision"]
    assert "terrain:difficult" in topics and "spell:sleep" in topics and "phase:movement" in topics
    guide = data["guides"][0]
    assert guide["scenario"] == "first_battle"
    assert guide["steps"][0] == {
        "title": "The table",
        "testid": "board",
        "topic": "terrain:difficult",
        "text": guide["steps"][0]["text"],
    }


def test_valhalla_help(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        data = c.get("/api/games/valhalla/help").json()
    topics = {t["key"]: t for t in data["topics"]}
    hero = topics["figure:hero"]
    assert {"label": "Combat die", "value": "d10"} in hero["profile"]
    assert hero["rules"][0] == {
        "clause": "VH-CB-01",
        "quote": "Each player has 1 armoured hero",
        "decision": "The armour is the hero's +1 on the Dice of Death.",
    }
    assert [g["scenario"] for g in data["guides"]] == ["first_blood"]


def test_a_game_without_help_answers_empty_lists(tmp_path: Path) -> None:
    # The example game Pig (registered for every test, tests/conftest.py) gives no help: the hook's default.
    with serving(tmp_path) as c:
        r = c.get("/api/games/pig/help")
    assert r.status_code == 200
    assert r.json() == {
        "game": "pig",
        "title": r.json()["title"],
        "how_to_play": [],
        "kinds": [],
        "topics": [],
        "guides": [],
    }


def test_an_unknown_game_is_a_structured_404(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.get("/api/games/chess/help")
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == "not_found" and "chess" in body["message"]
