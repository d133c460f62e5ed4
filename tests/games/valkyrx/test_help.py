"""Days of the Valkyrx's help at the table (data/help.toml): the rulebook's words, the recorded decisions, a
topic for every unit type, spell and kind of ground, and the first_battle guide."""

from __future__ import annotations

from tests.helpcheck import check_clauses, check_quotes

from iwgt.core.registry import get_plugin
from iwgt.games.valkyrx.help import game_help, terrain_kinds
from iwgt.games.valkyrx.scenario import load_scenario
from iwgt.games.valkyrx.spellbook import spell_table
from iwgt.games.valkyrx.units import unit_types

SEED = "000_9f29f2bdcadaed54.txt"


def test_every_cited_clause_is_a_shared_clause_and_in_the_rules_doc() -> None:
    cited = check_clauses(game_help(), "valkyrx")
    assert {"VX-05-04", "VX-SP-SLEEP-2", "VX-12-07", "VX-13-GRIMA-1"} <= cited


def test_every_quote_is_the_rulebooks_own_words() -> None:
    assert check_quotes(game_help(), SEED) > 150


def test_every_unit_type_spell_and_kind_of_ground_has_a_topic() -> None:
    help_ = game_help()
    assert len(unit_types()) == 48 and len(spell_table().spell) == 21
    keys = [f"unit:{u}" for u in unit_types()] + [f"spell:{s.id}" for s in spell_table().spell]
    keys += [f"terrain:{k}" for k in terrain_kinds()]
    assert terrain_kinds() == ("impassable", "difficult", "quicksand", "temple")
    for key in keys:
        topic = help_.topic(key)
        assert topic is not None, key
        assert topic.profile and topic.rules and topic.text, key


def test_profiles_come_from_the_attributes_table_and_the_spells_table() -> None:
    help_ = game_help()
    grima = help_.topic("unit:grima")
    assert grima is not None
    assert grima.title == "The Grima (of the mask)"  # units.toml name
    profile = dict(grima.profile)
    # units.toml: move = 2, charge = 3, range = 1, side light, principal
    assert profile["Movement"] == "2 cells, charge 3"
    assert profile["Weapon range"] == "1 cell (close combat)"
    assert profile["Side"] == "Forces of the Light (principal)"
    assert "stealth" in profile["Traits"]
    assert [r.clause for r in grima.rules if r.clause.startswith("VX-12-")] == [
        "VX-12-02",
        "VX-12-03",
        "VX-12-04",
        "VX-12-07",
    ]
    # A dragon flies 12 and walks 12 / 3 = 4 (rules.toml flyer_walk_divisor = 3, VX-04-31).
    assert dict(help_.topic("unit:astigend").profile)["Movement"] == "fly 12 cells (or walk 4)"  # type: ignore[union-attr]
    sleep = dict(help_.topic("spell:sleep").profile)  # type: ignore[union-attr]
    assert (sleep["Range"], sleep["Lasts"], sleep["Red (Master wizards only)"]) == (
        "5 cells",
        "1 turn",
        "yes",
    )
    quicksand = dict(help_.topic("terrain:quicksand").profile)  # type: ignore[union-attr]
    assert quicksand["Losses"].startswith("25%")  # rules.toml quicksand_casualties = 0.25 (VX-05-05)


def test_the_first_battle_guide_walks_through_the_first_turn() -> None:
    guide = game_help().guide("first_battle")
    assert guide is not None
    load_scenario("first_battle")
    titles = [s.title for s in guide.steps]
    # deployment (ground, spells, army), who moves first, movement, spells, combat: the first turn in order
    order = ["The ground", "Your wizard's spells", "Place your army", "Who moves first", "Move", "Spells"]
    assert [t for t in titles if t in order] == order
    assert titles.index("Combat and the report") > titles.index("Spells")


def test_the_plugin_serves_it() -> None:
    data = get_plugin("valkyrx").help().to_json()  # type: ignore[union-attr]
    assert [k["kind"] for k in data["kinds"]] == ["unit", "spell", "terrain", "phase"]
    assert data["guides"][0]["scenario"] == "first_battle"
    assert len(data["topics"]) == 48 + 21 + 4 + 5
