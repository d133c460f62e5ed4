"""WarQuest's plug-in (games/warquest/plugin.py): its declared facts (2 to 5 warlords, WQ-CM-12, WQ-CM-24,
WQ-MS-44; a region map; hidden hands), its registration, the setup options ``players`` and ``rounds`` written
into the scenario, the shipped scenarios covering 2, 3, 4 and 5 seats (the conformance suite plays each), the
catalogue (public card texts only) and the commands and facets it builds."""

from __future__ import annotations

import json
import random

import pytest

from iwgt.cli import setup_choices
from iwgt.core.chance import SeededDice
from iwgt.core.errors import MalformedAction
from iwgt.core.match import Match
from iwgt.core.plugin import checked_choices
from iwgt.core.registry import coming_games, game_names, get_plugin
from iwgt.games.warquest.plugin import WqPlugin, plugin


def test_the_facts_wq_cm_12_wq_ms_44() -> None:
    f = plugin.facts
    assert (f.name, f.title, f.rules_version, f.geometry) == (
        "warquest",
        "WarQuest",
        "warquest-1.0",
        "regions",
    )
    assert (f.min_players, f.max_players) == (2, 5)
    assert f.hidden_information is True and f.movement_timer is None
    assert f.to_json()["players"] == [2, 5]


def test_the_entry_point_registers_the_plugin_and_coming_no_longer_lists_it() -> None:
    assert "warquest" in game_names()
    assert isinstance(get_plugin("warquest"), WqPlugin)
    assert "warquest" not in [g["name"] for g in coming_games()]


def test_the_shipped_scenarios_seat_two_to_five_warlords() -> None:
    g = plugin.game
    seats = {name: len(g.seats(g.load_scenario(name))) for name in g.scenario_names()}
    assert seats == {"duel": 2, "five_warlords": 5, "myrathia": 4, "short": 3, "three_warlords": 3}
    assert set(seats.values()) == {2, 3, 4, 5}  # so the conformance suite covers every seat count


def test_the_setup_options_are_players_and_rounds() -> None:
    options = {o.key: o for o in plugin.setup_options()}
    assert list(options) == ["players", "rounds"]
    assert [v for v, _ in options["players"].choices] == ["scenario", "2", "3", "4", "5"]
    assert [v for v, _ in options["rounds"].choices] == ["scenario", "6", "10", "15", "25"]
    assert all(o.default == "scenario" for o in options.values())


def test_configure_writes_the_players_and_rounds_into_the_scenario() -> None:
    g = plugin.game
    base = g.load_scenario("myrathia")
    five = plugin.configure(base, checked_choices(plugin.setup_options(), {"players": "5", "rounds": "10"}))
    assert (five.players, five.rounds, five.map) == (5, 10, "myrathia")
    assert len(g.seats(five)) == 5
    assert g.seats(five)[4] == "the Purple Warlord"
    # The record holds the choice: the scenario's own text says it.
    again = g.parse_scenario(five.source, "the record")
    assert (again.players, again.rounds) == (5, 10)
    # WQ-MS-44 decided: two warlords may play on the standard map too.
    two = plugin.configure(base, {"players": "2"})
    assert two.players == 2 and two.rounds == base.rounds
    # "scenario" keeps the scenario as it is.
    assert plugin.configure(base, {"players": "scenario", "rounds": "scenario"}) is base


def test_a_number_of_warlords_the_map_cannot_seat_is_refused_naming_the_map() -> None:
    duel = plugin.game.load_scenario("duel")
    with pytest.raises(MalformedAction) as caught:
        plugin.configure(duel, {"players": "4"})
    assert caught.value.message == "setup option 'players': the map 'marches' seats 2 to 2 warlords, not 4"


def test_simulate_s_players_option_goes_through_the_game_s_setup_options() -> None:
    """``iwgt simulate warquest --players 5`` asks for the ``players`` option (the shared path)."""
    assert setup_choices(plugin, 4, 5, []) == {"players": "5"}
    assert setup_choices(plugin, 4, None, ["rounds=6"]) == {"rounds": "6"}
    with pytest.raises(MalformedAction, match="setup option 'players' must be one of"):
        setup_choices(plugin, 4, 6, [])


def test_a_configured_game_plays_with_five_seats() -> None:
    g = plugin.game
    scen = plugin.configure(g.load_scenario("short"), {"players": "5"})
    match = Match(g, scen, SeededDice(2), 2)
    match.resolve_chance()
    rng = random.Random(2)
    movers: set[int] = set()
    for _ in range(60):
        seat = g.to_move(match.state)
        if seat is None:
            break
        movers.add(seat)
        match.act(seat, rng.choice(list(g.legal_actions(match.state, seat))))
    assert movers == {0, 1, 2, 3, 4}
    summary = plugin.summary(match.state)
    assert set(summary) == {"vp", "gold", "sacred", "regions", "troops", "rounds"}
    assert all(len(summary[k]) == 5 for k in ("vp", "gold", "sacred", "regions", "troops"))


def test_the_catalogue_has_both_maps_the_troops_and_only_public_cards() -> None:
    cat = plugin.catalogue()
    json.dumps(cat, allow_nan=False)
    assert set(cat["maps"]) == {"marches", "myrathia"}
    assert len(cat["maps"]["myrathia"]["regions"]) == 48 and len(cat["maps"]["marches"]["regions"]) == 24
    assert len(cat["powers"]) == 51 and len(cat["events"]) == 30  # WQ-CM-18, WQ-CM-19
    assert "quests" not in cat and "conquests" not in cat  # a hand is secret (issue 15 section 4)
    assert cat["troops"]["wraith_king"]["cost"] is None and cat["troops"]["wraith_king"]["designed"] is False
    assert len(cat["locations"]) == 15
    assert [s["name"] for s in cat["seats"]][:2] == ["the Red Warlord", "the Blue Warlord"]
    assert cat["combat_die"] == ["hit", "flee", "blank", "blank", "blank", "blank"]  # WQ-CB-01 decided


def test_the_plugin_builds_every_facet() -> None:
    commands = plugin.commands()
    assert {"units", "odds"} <= set(commands)
    assert plugin.table() is not None and plugin.words() is not None and plugin.report() is not None
    help_ = plugin.help()
    assert help_ is not None and help_.topic("phase:battle") is not None
