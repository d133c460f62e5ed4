"""The help-file model every game's help is validated with (iwgt.core.help), and the plug-in's hook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.helpcheck import quoted_in

from iwgt.core.datafiles import validate
from iwgt.core.errors import DataFileError
from iwgt.core.help import HelpFile, Profile, build_help, load_help, no_help
from iwgt.core.plugin import GamePlugin
from iwgt.core.protocol import GameFacts


def minimal(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "how_to_play": [{"title": "Aim", "text": "Roll high.", "clauses": ["PG-01"]}],
        "rules": {"PG-01": {"quote": "roll the die", "decision": "A d6."}},
        "topics": [{"kind": "die", "id": "d6", "text": "The die.", "clauses": ["PG-01"]}],
    }
    data.update(extra)
    return data


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "help.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_help_file_joins_its_topics_with_the_games_profiles() -> None:
    file = HelpFile.model_validate(minimal())
    help_ = build_help(
        file, {"die:d6": Profile("Six-sided die", (("Faces", "6"),))}, "pig", "Pig", "help.toml"
    )
    topic = help_.topic("die:d6")
    assert topic is not None
    assert topic.title == "Six-sided die"  # the profile's title, as the file gives none
    assert topic.profile == (("Faces", "6"),)
    assert [(r.clause, r.quote, r.decision) for r in topic.rules] == [("PG-01", "roll the die", "A d6.")]
    data = help_.to_json()
    assert data["topics"][0]["profile"] == [{"label": "Faces", "value": "6"}]
    assert data["how_to_play"][0]["rules"][0]["clause"] == "PG-01"
    assert data["kinds"] == [{"kind": "die", "title": "die"}]


def test_a_thing_of_the_data_without_a_topic_is_refused_by_name() -> None:
    file = HelpFile.model_validate(minimal())
    profiles = {"die:d6": Profile("d6"), "die:d20": Profile("d20")}
    with pytest.raises(DataFileError, match=r"no help topic for die:d20"):
        build_help(file, profiles, "pig", "Pig", "help.toml")


def test_a_topic_for_a_thing_no_longer_in_the_data_is_refused() -> None:
    topics = [{"kind": "die", "id": d, "text": "A die."} for d in ("d6", "d8")]
    file = HelpFile.model_validate(minimal(topics=topics))
    with pytest.raises(DataFileError, match=r"topics\.0: die:d6 is not in the game's data"):
        build_help(file, {"die:d8": Profile("d8")}, "pig", "Pig", "help.toml")
    file = HelpFile.model_validate(minimal())
    # A topic of a kind the data does not profile (a phase, an action) needs no profile.
    assert build_help(file, {}, "pig", "Pig", "help.toml").topic("die:d6") is not None


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"rules": {"PG-01": {"quote": "x"}, "pg-2": {"quote": "y"}}}, "rules: 'pg-2' is not a clause id"),
        ({"topics": [{"kind": "die", "id": "d6", "text": "t", "clauses": ["PG-09"]}]}, "PG-09 has no text"),
        (
            {"rules": {"PG-01": {"quote": " ", "decision": ""}}},
            "rules.PG-01: a rule needs the rulebook's words",
        ),
        ({"topics": [{"kind": "die", "id": "d6", "text": "t"}] * 2}, "die:d6 is written twice"),
        (
            {"topics": [{"kind": "die", "id": "d6", "text": "t", "see": ["die:d7"]}]},
            "topics.0.see: no topic die:d7",
        ),
        ({"kinds": {"phase": "Phases"}}, "'die' is not one of the kinds"),
        ({"guides": [{"scenario": "s", "title": "t", "steps": []}]}, "guides.0.steps"),
        (
            {
                "guides": [
                    {"scenario": "s", "title": "t", "steps": [{"title": "a", "text": "b", "topic": "x:y"}]}
                ]
            },
            "no topic x:y",
        ),
        ({"topic": []}, "topic: unknown key"),
    ],
)
def test_a_broken_help_file_is_refused_with_its_key(change: dict[str, Any], said: str) -> None:
    with pytest.raises(DataFileError) as err:
        validate(HelpFile, minimal(**change), "help.toml")
    assert said in str(err.value)


def test_a_help_file_is_read_from_toml(tmp_path: Path) -> None:
    text = """
[[how_to_play]]
title = "Aim"
text = "Roll high."

[rules."PG-01"]
quote = "roll the die"

[[topics]]
kind = "die"
id = "d6"
text = "The die."
clauses = ["PG-01"]
"""
    help_ = load_help(write(tmp_path, text), {"die:d6": Profile("d6")}, "pig", "Pig")
    assert help_.topic("die:d6") is not None
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_help(write(tmp_path, "[[topics]\n"), {}, "pig", "Pig")


def test_the_hook_is_optional() -> None:
    class Bare(GamePlugin):
        facts = GameFacts(
            name="bare",
            title="Bare",
            description="",
            geometry="none",
            min_players=2,
            max_players=2,
            rules_version="1",
        )

    assert Bare().help() is None
    empty = no_help("bare", "Bare").to_json()
    assert empty == {
        "game": "bare",
        "title": "Bare",
        "how_to_play": [],
        "kinds": [],
        "topics": [],
        "guides": [],
    }


def test_quotes_are_compared_as_words_and_elisions_keep_their_order() -> None:
    source = '**Move** up to 6 inches. Stop 2" from enemy.\n\n½ speed in “woods”, village'
    assert quoted_in("Move up to 6 inches.", source)
    assert quoted_in("Move up to 6 inches … ½ speed in woods", source)
    assert not quoted_in("½ speed … Move up to 6", source)  # out of order
    assert not quoted_in("Move up to 7 inches.", source)


def test_every_registered_games_help_loads_and_its_guides_are_for_shipped_scenarios() -> None:
    from iwgt.core.registry import plugins

    with_help = []
    for plugin in plugins():
        help_ = plugin.help()
        if help_ is None:
            continue
        with_help.append(plugin.name)
        assert help_.game == plugin.name and help_.title == plugin.facts.title
        shipped = set(plugin.game.scenario_names())
        for guide in help_.guides:
            assert guide.scenario in shipped, (plugin.name, guide.scenario)
        data = help_.to_json()
        assert len({t["key"] for t in data["topics"]}) == len(data["topics"])
    assert {"valkyrx", "valhalla"} <= set(with_help)
