"""Forged upon an Anvil's plug-in (games/anvil/plugin.py): every facet the shared layers ask for, built
lazily and once, and the catalogue the army builder and the stratagem menus read."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from tests.games.anvil.kit import place, table

from iwgt.core.plugin import GamePlugin
from iwgt.games.anvil.catalogue import catalogue
from iwgt.games.anvil.facts import FACTS
from iwgt.games.anvil.plugin import AnvilPlugin, plugin
from iwgt.games.anvil.rules import UNIT_TYPES, rules
from iwgt.games.anvil.table import AnvilAdapter
from iwgt.games.anvil.words import AnvilWords


def test_the_plugin_declares_its_facts_and_builds_each_facet_once() -> None:
    assert isinstance(plugin, GamePlugin) and plugin.name == "anvil" and plugin.facts is FACTS
    assert FACTS.geometry == "inches" and FACTS.hidden_information is True
    assert plugin.game.name == "anvil" and plugin.game.rules_version == FACTS.rules_version
    assert isinstance(plugin.table(), AnvilAdapter) and plugin.table() is plugin.table()
    assert isinstance(plugin.words(), AnvilWords) and plugin.words() is plugin.words()
    assert plugin.report() is not None
    bot = plugin.bot()
    assert callable(getattr(bot, "choose", None))
    assert plugin.bot() is not bot  # a new bot per seat


def test_the_commands_join_the_shared_odds_and_units_groups() -> None:
    assert set(AnvilPlugin().commands()) == {"odds", "units"}


def test_the_screen_is_where_the_shell_looks_for_it() -> None:
    web = plugin.web
    assert web is not None and (Path(web) / "screen.js").is_file()


def test_the_catalogue_gives_each_unit_type_its_move_hp_dcp_and_availability() -> None:
    cat = catalogue()
    json.dumps(cat, allow_nan=False)
    assert list(cat["units"]) == list(UNIT_TYPES) == cat["unit_order"]
    # The matrix's profile row and the Unit Deployment table, by hand: Knight 4"/8 HP, <= 40%, 2 DCP.
    knight = cat["units"]["knight"]
    assert (knight["move"], knight["hp"], knight["dcp"]) == (4.0, 8, 2)
    assert knight["availability"]["op"] == "<=" and knight["availability"]["percent"] == 40
    troop = cat["units"]["troop"]
    assert (
        troop["availability"]["op"] == ">=" and troop["availability"]["percent"] == 40 and troop["dcp"] == 1
    )
    seat = cat["units"]["seat"]
    assert (seat["dcp"], seat["availability"]["count"], seat["stratagems"]) == (0, 1, [])
    assert "shooter" in troop["stratagems"] and "shooter" not in cat["units"]["hero"]["stratagems"]


def test_the_catalogue_gives_every_stratagem_its_cost_users_and_list() -> None:
    cat = catalogue()
    assert set(cat["stratagems"]) == set(rules().stratagems)
    assert (
        cat["stratagems"]["counterattack"]["cost"] == 3
        and cat["stratagems"]["counterattack"]["group"] == "interruption"
    )
    assert cat["stratagems"]["weak"]["cost"] == -1 and cat["stratagems"]["weak"]["currency"] == "DCP"
    assert cat["stratagems"]["summon_subjects"]["requires"] == ["general"]
    assert cat["groups"]["deployment"] == [
        "flanking",
        "swiftness",
        "shooter",
        "weak",
        "fear",
        "heavy_projectile",
        "tough",
        "infiltrate",
    ]
    # The matrix as the table reads it: FA-CRM-WIZARD-WARMACHINE "NATE NATE 2 Rear Attacker BB".
    cell = cat["matrix"]["wizard"]["war_machine"]
    assert (cell["front"], cell["flank"], cell["rear"], cell["bounce"]) == (None, None, 2, "attacker")
    assert cat["measures"]["tray"] == [3.0, 1.5] and cat["measures"]["ballistics"]["front"] == 18.0


def test_the_summary_gives_hp_left_and_enemy_dcp_destroyed() -> None:
    state = table([place(0, "troop", 18, 16), place(1, "knight", 18, 20), place(1, "troop", 30, 30)])
    gone = state.with_unit(replace(state.units[1], destroyed=True, tray=None))
    # A Knight destroyed is worth its type's 2 DCP to the seat that destroyed it (FA-MS-06 decided).
    assert plugin.summary(gone) == {"hp": [4, 4], "units_left": [1, 1], "destroyed_dcp": [2, 0]}


def test_the_catalogue_maps_each_stratagem_actions_key_to_its_data_key() -> None:
    keys = catalogue()["action_keys"]
    assert keys["fly_burrow"] == "fly" and keys["parthian"] == "parthian_shot" and keys["brace"] == "brace"
    assert set(keys.values()) <= set(rules().stratagems)
