"""Forged upon an Anvil's help at the table (data/help.toml): the rulebook's words, the recorded decisions, a
topic for every unit type and stratagem with its profile from the rules data, a topic for every phase the
observation names, and the skirmish's first-game guide."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from tests.helpcheck import check_clauses, check_quotes, unquoted_clauses

from iwgt.games.anvil.game import AnvilGame
from iwgt.games.anvil.help import game_help
from iwgt.games.anvil.plugin import plugin
from iwgt.games.anvil.rules import UNIT_TYPES, rules
from iwgt.games.anvil.state import Phase

SEED = "004_86ee61d5ba0b58a1.txt"


def test_every_cited_clause_is_a_shared_clause_and_in_the_rules_doc() -> None:
    cited = check_clauses(game_help(), "anvil")
    assert {"FA-GN-09", "FA-BB-02", "FA-SI-01", "FA-CRM-PROFILE-KNIGHT", "FA-MS-06"} <= cited


def test_every_quote_is_the_rulebooks_own_words() -> None:
    help_ = game_help()
    assert help_.source is not None
    quoted = check_quotes(help_, SEED)
    # Every clause with a text of its own quotes it; the decided ones the text is silent on quote nothing.
    silent = unquoted_clauses(help_)
    assert silent == {
        "FA-MV-03",
        "FA-CRM-05",
        "FA-CRM-06",
        "FA-ST-02",
        "FA-MS-01",
        "FA-MS-02",
        "FA-MS-04",
        "FA-MS-05",
        "FA-MS-06",
    }
    assert quoted == len(help_.source.rules) - len(silent)


def test_every_unit_type_and_stratagem_has_a_topic_with_its_profile_from_the_data() -> None:
    help_ = game_help()
    for unit in UNIT_TYPES:
        topic = help_.topic(f"unit:{unit}")
        assert topic is not None and topic.profile and topic.rules, unit
    for key in rules().stratagems:
        topic = help_.topic(f"stratagem:{key}")
        assert topic is not None and topic.profile and topic.rules, key
    knight = dict(help_.topic("unit:knight").profile)  # type: ignore[union-attr]
    # data/rules.toml: [units.knight] move = 4.0, hp = 8; [deployment.knight] <= 40%, dcp = 2
    assert (knight["Move"], knight["HP"], knight["DCP"]) == ('4"', "8", "2")
    assert knight["Availability"] == "at most 40% of the army's DCP"
    assert "Ballistics" in knight["Stratagems"]  # a Knight may be given Shooter (FA-SD-05)
    hero = dict(help_.topic("unit:hero").profile)  # type: ignore[union-attr]
    assert "Ballistics" not in hero["Stratagems"]  # a Hero may not (Shooter: Knight, War Machine, Troop)
    seat = dict(help_.topic("unit:seat").profile)  # type: ignore[union-attr]
    assert (seat["Move"], seat["Availability"], seat["Stratagems"]) == ("never moves", "exactly 1", "none")
    dispel = dict(help_.topic("stratagem:dispel").profile)  # type: ignore[union-attr]
    assert (dispel["Cost"], dispel["Who"], dispel["Range"]) == ("3 CP", "Wizard", '12"')
    weak = dict(help_.topic("stratagem:weak").profile)  # type: ignore[union-attr]
    assert weak["Cost"] == "-1 DCP"


def test_every_phase_the_header_names_has_a_topic() -> None:
    help_ = game_help()
    for phase in get_args(Phase):
        assert help_.topic(f"phase:{phase}") is not None, phase


def test_the_skirmish_guide_is_for_a_shipped_scenario() -> None:
    guide = game_help().guide("skirmish")
    assert guide is not None
    assert "skirmish" in AnvilGame().scenario_names()
    assert guide.steps[0].title == "The table" and guide.steps[-1].testid == "log"
    # Each step outlines something the screen draws: the board (prefix "fa-"), a test id of web/screen.js,
    # or the shell's log.
    screen = (Path(plugin.web or ".") / "screen.js").read_text(encoding="utf-8")
    for step in guide.steps:
        assert step.testid in ("fa-table", "log") or f'testid: "{step.testid}"' in screen, step.testid


def test_the_plugin_serves_it_once() -> None:
    first = plugin.help()
    assert first is not None and first is plugin.help()
    data = first.to_json()
    assert data["game"] == "anvil" and data["title"] == "Forged upon an Anvil"
    assert [k["kind"] for k in data["kinds"]] == [
        "unit",
        "stratagem",
        "terrain",
        "phase",
        "action",
        "marker",
        "idea",
    ]
