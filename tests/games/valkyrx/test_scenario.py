"""Scenario files: broken ones are refused naming the file, the key and what was expected."""

from __future__ import annotations

import pytest

from iwgt.core.errors import DataFileError
from iwgt.games.valkyrx.scenario import load_scenario, parse_scenario, scenario_names

from .kit import scenario_text


def refusal(text: str) -> DataFileError:
    with pytest.raises(DataFileError) as info:
        parse_scenario(text, "broken.toml")
    assert "broken.toml" in info.value.message
    return info.value


def test_shipped_scenarios_load_and_the_large_one_is_large() -> None:
    assert set(scenario_names()) >= {"skirmish", "valley", "great_battle"}
    big = load_scenario("great_battle").spec
    assert big.width >= 24 and big.height >= 18
    assert min(len(big.army["light"]), len(big.army["darkness"])) >= 25
    small = load_scenario("skirmish").spec
    assert (small.width, small.height) == (12, 9)  # a 6x4 ft table of 155 mm cells


def test_vx_06_02_an_army_over_the_points_limit_is_refused() -> None:
    # Guardsmen 1200 + Archers 900 = 2100 > 2000.
    err = refusal(
        scenario_text(
            [("guardsmen", (0, 0)), ("archers", (1, 0))],
            [("wearg_warriors", (9, 8))],
            extra="points_limit = 2000",
        )
    )
    assert "army.light" in err.message and "2100" in err.message


@pytest.mark.parametrize(
    ("light", "extra", "key"),
    [
        ([("dragonfly", (0, 0))], "", "army.light.0.unit"),
        ([("guardsmen", (20, 0))], "", "off the 12x9 board"),
        ([("guardsmen", (0, 0)), ("archers", (0, 0))], "", "one unit per cell"),
        ([("guardsmen", (0, 0))], "turn_limit = 0", "turn_limit"),
        ([("guardsmen", (0, 0))], 'victory = ["glory"]', "victory.0"),
        ([("guardsmen", (0, 0))], "colour = 3", "colour"),
    ],
)
def test_broken_scenarios_name_the_key(light, extra, key) -> None:  # type: ignore[no-untyped-def]
    assert key in refusal(scenario_text(light, [("wearg_warriors", (9, 8))], extra=extra)).message


def test_outside_the_deployment_zone_and_bad_toml() -> None:
    text = scenario_text([("guardsmen", (0, 0))], [("wearg_warriors", (9, 8))])
    text = text.replace("[deployment.light]\nrows = [0, 8]", "[deployment.light]\nrows = [0, 1]")
    assert (
        "outside the light deployment zone" in refusal(text.replace("cell = [0, 0]", "cell = [0, 5]")).message
    )
    assert "valid TOML" in refusal("name = ").message


def test_unknown_scenario_lists_the_shipped_ones() -> None:
    with pytest.raises(DataFileError, match="skirmish"):
        load_scenario("no-such-battle")


@pytest.mark.parametrize(
    ("zone", "key"),
    [
        ("rows = [7, 12]", "deployment.darkness.rows"),
        ("rows = [8, 7]", "deployment.darkness.rows"),
        ("cells = [[40, 3]]", "deployment.darkness.cells.0"),
    ],
)
def test_deployment_zones_must_lie_on_the_board(zone: str, key: str) -> None:
    """VX-02-12: the lit deployment cells are cells of the table."""
    text = scenario_text([("guardsmen", (0, 0))], [("wearg_warriors", (9, 8))])
    text = text.replace("[deployment.darkness]\nrows = [0, 8]", f"[deployment.darkness]\n{zone}")
    err = refusal(text)
    assert err.key == key
