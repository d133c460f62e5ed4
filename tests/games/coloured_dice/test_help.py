"""The Coloured-Dice rules' help at the table (data/help.toml): the translation's own words, the recorded
decisions, a topic for every die, kind of ground and unit type with its profile from the game's data, and a
topic for every phase the observation names and every action a player may send."""

from __future__ import annotations

from typing import get_args

from tests.helpcheck import check_clauses, check_quotes, unquoted_clauses

from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice.dice import COLOURS
from iwgt.games.coloured_dice.help import game_help
from iwgt.games.coloured_dice.rules import armies, rules
from iwgt.games.coloured_dice.state import Phase

SEED = "002_9e8e1c9a3d29e5b4.en.md"
"""The English translation the quotes are taken from."""


def test_every_cited_clause_is_a_shared_clause_and_in_the_rules_doc() -> None:
    cited = check_clauses(game_help(), "coloured-dice")
    assert {"CD-DI-13", "CD-RA-02", "CD-CH-25", "CD-MS-14"} <= cited


def test_every_quote_is_the_translation_s_own_words() -> None:
    help_ = game_help()
    assert help_.source is not None
    quoted = check_quotes(help_, SEED)
    # The clauses of things the text leaves out (CD-MS) quote nothing: they are decided, not quoted.
    silent = unquoted_clauses(help_)
    assert silent and all(c.startswith("CD-MS-") for c in silent)
    assert quoted == len(help_.source.rules) - len(silent)


def test_every_die_has_a_topic_with_its_faces_from_the_data() -> None:
    help_ = game_help()
    for colour in COLOURS:
        topic = help_.topic(f"die:{colour}")
        assert topic is not None and topic.rules, colour
    # data/dice.toml by hand (CD-DI-06, CD-DI-11): green 0, 0, 0, 1, 2, kill; orange 1, 1, 2, 2, 3, miss.
    green = dict(help_.topic("die:green").profile)  # type: ignore[union-attr]
    assert green == {"Faces": "0, 0, 0, 1, 2, kill", "Mean": "0.50 points"}
    orange = dict(help_.topic("die:orange").profile)  # type: ignore[union-attr]
    assert orange == {"Faces": "1, 1, 2, 2, 3, miss", "Mean": "1.50 points"}


def test_every_kind_of_ground_has_a_topic_with_its_rules_from_the_data() -> None:
    help_ = game_help()
    for key in rules().terrain:
        topic = help_.topic(f"terrain:{key}")
        assert topic is not None and topic.profile and topic.rules, key
    # CD-TE-13..17: a forest slows infantry a d6, is closed to cavalry, blocks sight, +1 at its edge.
    forest = dict(help_.topic("terrain:forest").profile)  # type: ignore[union-attr]
    assert forest == {
        "Infantry": '-d6"',
        "Cavalry": "cannot enter",
        "Cover": "+1 at the edge",
        "Sight": "blocked",
    }
    # CD-TE-09..11: woodland -1" infantry, -d6" cavalry, +1 among it against shooting.
    woodland = dict(help_.topic("terrain:woodland").profile)  # type: ignore[union-attr]
    assert woodland == {"Infantry": '-1"', "Cavalry": '-d6"', "Cover": "+1 among"}


def test_every_unit_type_and_spirit_of_both_armies_has_a_topic_with_its_profile() -> None:
    help_ = game_help()
    for army_key, army in armies().items():
        for key in [*army.units, *army.spirits]:
            topic = help_.topic(f"unit:{army_key}.{key}")
            assert topic is not None and topic.profile and topic.rules, (army_key, key)
    # The text's javelin men (CD-RA-04 decided: skill 0), from data/armies.toml: 16 models, javelins of 8"
    # with one blue die each; the text's archers are Us 7 (CD-MO-11).
    javelins = dict(help_.topic("unit:kaleva.javelin_men").profile)  # type: ignore[union-attr]
    assert javelins["Models"] == "16" and javelins["Shooting"] == "0"
    assert '8": 1 blue' in javelins["Weapons"]
    archers = dict(help_.topic("unit:kaleva.archers").profile)  # type: ignore[union-attr]
    assert archers["Us"] == "7"
    # A hero shows bear wound and hero points; a unit without them shows neither (CD-CH-10).
    hero = dict(help_.topic("unit:kaleva.lemminkainen").profile)  # type: ignore[union-attr]
    assert hero["Bear wound"] == "2 red a battle" and hero["Hero"] == "3" and hero["Body"] == "2"
    levy = dict(help_.topic("unit:kaleva.levy").profile)  # type: ignore[union-attr]
    assert not {"Bear wound", "Hero", "Body", "Will"} & set(levy)


def test_every_phase_the_header_names_has_a_topic() -> None:
    help_ = game_help()
    for phase in get_args(Phase):
        assert help_.topic(f"phase:{phase}") is not None, phase


def test_every_action_a_player_may_send_has_a_topic() -> None:
    help_ = game_help()
    for kind in act.TYPES:
        topic = help_.topic(f"action:{kind}")
        assert topic is not None and topic.rules, kind


def test_the_skirmish_guide_points_at_what_the_screen_draws() -> None:
    from pathlib import Path

    from iwgt.games.coloured_dice.plugin import plugin

    guide = game_help().guide("skirmish")
    assert guide is not None and "skirmish" in plugin.game.scenario_names()
    assert guide.steps[0].title == "The table" and guide.steps[-1].testid == "log"
    # Each step outlines the board (prefix "cd-"), a test id of web/screen.js, or the shell's log.
    screen = (Path(plugin.web or ".") / "screen.js").read_text(encoding="utf-8")
    for step in guide.steps:
        assert step.testid in ("cd-table", "log") or f'testid: "{step.testid}"' in screen, step.testid
