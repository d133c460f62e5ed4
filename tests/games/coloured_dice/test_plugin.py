"""The Coloured-Dice plug-in (games/coloured_dice/plugin.py): registered as ``coloured-dice``, every facet
built lazily and once, the catalogue the screen and menus read (dice, armies, weapons, measures), the set-up
choices (rounds and the first turn, CD-MS-02 designed) written into the scenario, the headless summary, and
``iwgt units coloured-dice``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from iwgt.core.errors import MalformedAction
from iwgt.core.plugin import GamePlugin, checked_choices
from iwgt.core.registry import get_plugin
from iwgt.games.coloured_dice.catalogue import catalogue, units_app
from iwgt.games.coloured_dice.facts import FACTS
from iwgt.games.coloured_dice.plugin import CdPlugin, plugin
from iwgt.games.coloured_dice.table import CdAdapter
from iwgt.games.coloured_dice.words import CdWords

ENV = {"COLUMNS": "200", "NO_COLOR": "1"}


def test_the_plugin_is_registered_and_builds_each_facet_once() -> None:
    assert get_plugin("coloured-dice") is plugin
    assert isinstance(plugin, GamePlugin) and plugin.name == "coloured-dice" and plugin.facts is FACTS
    assert FACTS.geometry == "inches" and FACTS.hidden_information is False
    assert plugin.game.rules_version == FACTS.rules_version == "coloured-dice-1.0"
    assert isinstance(plugin.table(), CdAdapter) and plugin.table() is plugin.table()
    assert isinstance(plugin.words(), CdWords) and plugin.words() is plugin.words()
    assert plugin.report() is not None and plugin.help() is plugin.help()


def test_the_commands_join_the_shared_odds_and_units_groups() -> None:
    assert set(CdPlugin().commands()) == {"odds", "units"}


def test_the_screen_is_where_the_shell_looks_for_it() -> None:
    web = plugin.web
    assert web is not None and (Path(web) / "screen.js").is_file()


def test_the_catalogue_gives_the_dice_faces_in_order_cd_di() -> None:
    cat = catalogue()
    json.dumps(cat, allow_nan=False)
    assert cat["dice_order"] == ["white", "blue", "green", "black", "red", "violet", "yellow", "orange"]
    assert cat["dice"]["white"]["faces"] == [1, 1, 2, "miss", "miss", "miss"]  # CD-DI-04
    assert (
        cat["dice"]["black"]["faces"] == [0, 0, 1, 1, 2, "kill"] and cat["dice"]["black"]["kill"]
    )  # CD-DI-07
    assert cat["dice"]["orange"]["mean"] == 1.5  # (1 + 1 + 2 + 2 + 3) / 6


def test_the_catalogue_gives_both_armies_weapons_and_measures() -> None:
    cat = catalogue()
    assert set(cat["armies"]) == {"kaleva", "pohjola"}
    kaleva = cat["armies"]["kaleva"]
    assert kaleva["name"] == "the Sons of Kaleva" and kaleva["unit_order"][0] in kaleva["units"]
    javelins = kaleva["units"]["javelin_men"]
    assert (javelins["models"], javelins["shooting"]) == (16, 0)  # the text's 16 javelin men, skill 0
    assert cat["weapons"]["javelin"]["missile"] == {"range": 8.0, "dice": ["blue"]}  # CD-RA-03, CD-RA-05
    assert cat["armies"]["pohjola"]["units"]["troll"]["body"] == 3
    assert cat["measures"]["max_range_bands"] == 4
    assert cat["magic"]["spells"] and cat["terrain"]["forest"]["cavalry_blocked"] is True


def test_setup_choices_are_written_into_the_scenario_cd_ms_02() -> None:
    game = plugin.game
    scenario = game.load_scenario("skirmish")
    assert scenario.rounds == 4 and scenario.spec.first == 0
    assert plugin.configure(scenario, {"rounds": "scenario", "first": "scenario"}) is scenario
    chosen = checked_choices(plugin.setup_options(), {"rounds": "8", "first": "1"})
    configured = plugin.configure(scenario, chosen)
    assert configured.rounds == 8 and configured.spec.first == 1
    assert "rounds = 8" in configured.source  # the record holds the choice
    state = game.initial_state(configured)
    assert state.seat == 1  # the second side takes the first turn
    with pytest.raises(MalformedAction):
        checked_choices(plugin.setup_options(), {"rounds": "7"})
    with pytest.raises(MalformedAction):
        checked_choices(plugin.setup_options(), {"dice": "physical"})  # the dice are the shell's own choice


def test_the_summary_counts_units_and_models_left() -> None:
    state = plugin.game.initial_state(plugin.game.load_scenario("skirmish"))
    summary = plugin.summary(state)
    assert (
        summary["vp"] == [0, 0] and summary["points_lost"] == [0, 0] and summary["general_morale"] == [0, 0]
    )
    assert summary["units_left"] == [4, 4]  # four units a side in the skirmish
    by_hand = [sum(u.models for u in state.units if u.seat == s) for s in (0, 1)]
    assert summary["models_left"] == by_hand


def test_units_prints_each_army_s_profiles() -> None:
    runner = CliRunner()
    result = runner.invoke(units_app, ["--army", "kaleva", "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["kaleva"] and "javelin_men" in data["kaleva"]["units"]
    table = runner.invoke(units_app, ["--army", "pohjola"], env=ENV)
    assert table.exit_code == 0 and "wolf_riders" in table.output and "Host of Pohjola" in table.output
    wrong = runner.invoke(units_app, ["--army", "rome"], env=ENV)
    assert wrong.exit_code == 2 and "unknown army" in wrong.output


def test_simulate_is_deterministic_by_seed() -> None:
    """``iwgt simulate coloured-dice --seed N --json``: the same seed plays the same battle (the bots and the
    dice seeded), another seed another; the summary carries the plug-in's keys."""
    from iwgt.cli import app

    runner = CliRunner()
    args = ["simulate", "coloured-dice", "--scenario", "skirmish", "--json"]
    runs = [runner.invoke(app, [*args, "--seed", seed], env=ENV) for seed in ("1", "1", "2")]
    assert all(r.exit_code == 0 for r in runs), [r.output for r in runs]
    first, again, other = (json.loads(r.output) for r in runs)
    assert first == again and first != other
    assert first["game"] == "coloured-dice" and first["seed"] == 1
    assert {"vp", "points_lost", "general_morale", "units_left", "models_left"} <= set(first)
