"""A game's own set-up choices (``GamePlugin.setup_options``): offered on the game selection, checked on
create, and written into the scenario's text, so that the record holds them and replays as played.

Forged upon an Anvil asks two: the win condition (FA-GN-06: the General's unit or the Seat of Power) and
premeasuring (FA-GN-09: "Don't premeasure if you want a more challenging game").
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from .kit import create, serving

JSON = dict[str, Any]


def anvil(**body: Any) -> JSON:
    """A bot-free skirmish of Forged upon an Anvil, two remote people."""
    return {"game": "anvil", "scenario": "skirmish", **body}


def test_the_game_selection_lists_each_games_setup_options(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        cards = {card["name"]: card for card in c.get("/api/games").json()}
    options = {o["key"]: o for o in cards["anvil"]["setup_options"]}
    assert set(options) == {"win", "premeasure"}
    assert [ch["value"] for ch in options["win"]["choices"]] == ["scenario", "general", "seat"]
    assert options["premeasure"]["default"] == "scenario"
    assert cards["valkyrx"]["setup_options"] == []  # a game without choices of its own offers none


def test_chosen_options_are_written_into_the_recorded_scenario(tmp_path: Path) -> None:
    """The skirmish says win = "general" and premeasures; chosen: the Seat, no premeasuring."""
    with serving(tmp_path) as c:
        made = create(c, **anvil(options={"win": "seat", "premeasure": "off"}))
        record = c.get(f"/api/tables/{made['id']}/record").json()
    scenario = tomllib.loads(record["scenario"]["toml"])
    assert scenario["win"] == "seat" and scenario["premeasure"] is False
    assert scenario["name"] == "skirmish" and len(scenario["sides"]) == 2  # the rest of the text kept


def test_untouched_options_keep_what_the_scenario_says(tmp_path: Path) -> None:
    """The battle scenario is won by destroying the Seat of Power: with no options sent, so it stays."""
    with serving(tmp_path) as c:
        made = create(c, game="anvil", scenario="battle")
        record = c.get(f"/api/tables/{made['id']}/record").json()
    scenario = tomllib.loads(record["scenario"]["toml"])
    assert scenario["win"] == "seat" and "premeasure" not in scenario


@pytest.mark.parametrize(
    ("game", "options", "said"),
    [
        ("anvil", {"colour": "red"}, "unknown setup option 'colour'"),
        ("anvil", {"premeasure": "sometimes"}, "'premeasure' must be one of scenario, on, off"),
        ("anvil", ["win"], "'options' must be an object"),
        ("valkyrx", {"win": "seat"}, "this game's options: none"),
    ],
)
def test_a_bad_option_is_refused_by_name_and_nothing_is_journalled(
    tmp_path: Path, game: str, options: Any, said: str
) -> None:
    scenario = "skirmish"
    with serving(tmp_path) as c:
        r = c.post("/api/tables", json={"game": game, "scenario": scenario, "options": options})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "malformed" and said in r.json()["message"], r.json()
        assert c.get("/api/tables").json() == []


def test_a_choice_written_into_toml_keeps_the_rest_of_the_text() -> None:
    """A key inside a multi-line array, a comment and a table with a key of the same name stay as they are;
    the top-level key is replaced, a missing one added (tomlkit, not line editing)."""
    from iwgt.core.datafiles import with_top_level

    text = '# the ford\nsizes = [\n  [1, 2],\n]\nwin = "seat"\n\n[[sides]]\nwin = 3\n'
    out = with_top_level(text, {"win": "general", "premeasure": False})
    assert tomllib.loads(out) == {
        "sizes": [[1, 2]],
        "win": "general",
        "premeasure": False,
        "sides": [{"win": 3}],
    }
    assert out.startswith("# the ford\n")
