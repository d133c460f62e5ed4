"""Scenario files: the shipped three, their sizes, and broken files refused with their key (FA-GN-02/03,
FA-MS-02, FA-MS-06)."""

from __future__ import annotations

import pytest
from tests.games.anvil.engine_kit import GAME, scenario

from iwgt.core.errors import DataFileError
from iwgt.games.anvil.army import army_dcp, validate_army
from iwgt.games.anvil.scenario import SCENARIO_DIR, load_scenario, parse_scenario, scenario_names

SKIRMISH = (SCENARIO_DIR / "skirmish.toml").read_text(encoding="utf-8")


def test_three_scenarios_of_different_sizes_are_shipped() -> None:
    assert scenario_names() == ["battle", "great_battle", "skirmish"]
    sizes = {
        n: (s.spec.width, s.spec.height, s.spec.dcp) for n in scenario_names() if (s := load_scenario(n))
    }
    assert sizes == {"skirmish": (36, 36, 12), "battle": (48, 36, 20), "great_battle": (72, 48, 30)}


@pytest.mark.parametrize("name", ["skirmish", "battle", "great_battle"])
def test_each_side_s_suggested_army_fits_the_budget(name: str) -> None:
    """FA-GN-03 decided: the same DCP budget for both armies; a suggested army is at most that."""
    s = load_scenario(name)
    for army in s.armies:
        assert army_dcp(army) <= s.spec.dcp
        assert sum(u.general for u in army.units) == 1  # FA-GN-04


@pytest.mark.parametrize(("name", "dcp"), [("skirmish", 12), ("battle", 20), ("great_battle", 30)])
def test_fa_gn_03_both_suggested_armies_have_the_budget_s_dcp_and_are_valid(name: str, dcp: int) -> None:
    """FA-GN-03: "Each player chooses an equal amount of units based on their DCP": both suggested armies
    are exactly the budget (great_battle's Wild Host: 2 Wizards 4 + 2 Monsters 6 + a Hero 3 + a War Machine
    4 + 13 Troops 13 = 30) and pass every army rule."""
    s = load_scenario(name)
    assert [army_dcp(a) for a in s.armies] == [dcp, dcp]
    assert [validate_army(a, dcp) for a in s.armies] == [[], []]


def test_the_tray_and_figures_default_to_3_by_1_5_inches_and_3_miniatures() -> None:
    """FA-GN-02 decided."""
    text = SKIRMISH.replace("tray = [3.0, 1.5]\n", "").replace("figures = 3\n", "")
    s = parse_scenario(text, "no-tray.toml")
    assert s.spec.tray == (3.0, 1.5) and s.spec.figures == 3


def test_the_card_names_table_turns_and_forces() -> None:
    card = GAME.scenario_card(load_scenario("battle"))
    assert card.table == '48" x 36"'
    assert card.turns == 8
    assert card.seats == ("The Iron Crown", "The Wild Host")
    assert "20 DCP a side" in card.forces


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        (("dcp = 12", 'dcp = "twelve"'), "dcp", "whole number"),
        (("width = 36", "width = 6"), "width", ""),
        (('win = "general"', 'win = "crown"'), "win", ""),
        (('armies = "build"', 'armies = "some"'), "armies", ""),
        (("dcp = 12", "dcp = 8"), "sides.0.army", "FA-GN-03"),
        (
            ('name = "Lord Aldric"\ngeneral = true', 'name = "Lord Aldric"\ngeneral = false'),
            "sides.0.army",
            "FA-GN-04",
        ),
        (
            ("outline = [[-3, -2], [3, -2], [3, 2], [-3, 2]]", "outline = [[0, 0], [1, 1], [2, 2]]"),
            "terrain.0.outline",
            "",
        ),
        (('key = "hill"', 'key = "wood"'), "terrain", "share a key"),
        (("turns = 6", "turns = 0"), "turns", ""),
        (("tray = [3.0, 1.5]", "tray = [30.0, 1.5]"), "tray", ""),
    ],
)
def test_a_broken_file_is_refused_with_its_key(change: tuple[str, str], key: str, words: str) -> None:
    old, new = change
    assert old in SKIRMISH
    with pytest.raises(DataFileError) as exc:
        parse_scenario(SKIRMISH.replace(old, new, 1), "broken.toml")
    assert exc.value.key == key
    assert words in exc.value.message


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(DataFileError) as exc:
        parse_scenario("colour_of_the_sky = 1\n" + SKIRMISH, "typo.toml")
    assert exc.value.key == "colour_of_the_sky"


def test_a_troop_with_weak_and_shooter_is_refused_at_load() -> None:
    """FA-SD-09 decided: a unit may not start with less than 1 HP (4 - 2 - 2 = 0)."""
    text = SKIRMISH.replace(
        'name = "Crossbowmen"\nstratagems = ["shooter"]',
        'name = "Crossbowmen"\nstratagems = ["shooter", "weak"]',
    )
    with pytest.raises(DataFileError) as exc:
        parse_scenario(text, "weak.toml")
    assert "FA-SD-09" in exc.value.message


def test_scenario_options_reach_the_state() -> None:
    state = GAME.initial_state(scenario(premeasure=False, win="seat"))
    assert state.options.premeasure is False and state.options.win == "seat"
