"""``iwgt odds coloured-dice pool``: the exact odds of a pool as JSON (string-keyed maps) and as tables; close
combat (armour + cover) or a shot (armour + skill + range band + cover, never below 0); bad input refused
with exit 2 and a message naming the option. The app is tested directly and mounted as the shared CLI mounts a
game's commands (``iwgt odds <game> ...``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from iwgt.games.coloured_dice.cli import coloured_odds, commands
from iwgt.games.coloured_dice.odds import casualties_distribution, points_distribution

runner = CliRunner()
ENV = {"COLUMNS": "400"}  # a wide terminal keeps Rich from wrapping the error messages


def pool(*args: str) -> Result:
    return runner.invoke(coloured_odds, ["pool", *args], env=ENV)


def as_json(*args: str) -> dict[str, Any]:
    result = pool(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_commands_join_the_odds_group() -> None:
    assert commands() == {"odds": coloured_odds}


def test_the_issues_example_as_json() -> None:
    data = as_json("--dice", "10white,5black", "--armour", "1")
    assert data["dice"] == {"white": 10, "black": 5}
    assert (data["roll"], data["armour"]) == ("close_combat", 1)
    assert data["parts"] == {"armour": 1, "skill": None, "band": None, "cover": 0}
    expected = casualties_distribution({"white": 10, "black": 5}, 1)
    assert data["casualties"] == {str(k): v for k, v in sorted(expected.items())}
    assert data["points"] == {
        str(k): v for k, v in sorted(points_distribution({"white": 10, "black": 5}).items())
    }
    assert all(isinstance(k, str) for k in (*data["casualties"], *data["points"], *data["kills"]))
    assert sum(data["casualties"].values()) == pytest.approx(1.0)
    # Mean points by hand: 10 x 4/6 + 5 x 4/6 = 10; kills: 5 x 1/6.
    assert data["mean_points"] == pytest.approx(10.0)
    assert data["mean_kills"] == pytest.approx(5 / 6)
    assert data["mean_casualties"] == pytest.approx(sum(k * v for k, v in expected.items()))


def test_close_combat_is_armour_plus_cover() -> None:
    data = as_json("--dice", "4red", "--armour", "1", "--cover", "2")
    assert data["armour"] == 3
    assert data["casualties"] == {
        str(k): v for k, v in sorted(casualties_distribution({"red": 4}, 3).items())
    }


def test_cd_ra_03_to_05_sixteen_javelins_at_23_inches() -> None:
    data = as_json(
        "--dice", "16blue", "--armour", "1", "--range-inches", "23", "--weapon-range", "8", "--skill", "0"
    )
    assert (data["roll"], data["armour"]) == ("shot", 3)
    assert data["parts"] == {"armour": 1, "skill": 0, "band": 2, "cover": 0}
    # 11 points at 4 a casualty: 2; the chance of exactly 2 casualties is that of 8..11 points.
    points = data["points"]
    assert data["casualties"]["2"] == pytest.approx(sum(points[str(p)] for p in range(8, 12)))


def test_cd_ra_06_at_25_inches_armour_4_and_at_24_still_band_2() -> None:
    shot = ("--dice", "16blue", "--armour", "1", "--weapon-range", "8", "--skill", "0")
    assert as_json(*shot, "--range-inches", "25")["armour"] == 4
    assert as_json(*shot, "--range-inches", "24")["parts"]["band"] == 2  # an exact multiple: the lower band


def test_a_shot_without_skill_uses_the_usual_1_and_never_goes_below_0() -> None:
    data = as_json("--dice", "3white", "--armour", "1", "--range-inches", "5", "--weapon-range", "8")
    assert (data["parts"]["skill"], data["armour"]) == (1, 2)
    legend = as_json(
        "--dice", "3white", "--armour", "1", "--range-inches", "5", "--weapon-range", "8", "--skill", "-3"
    )
    assert legend["armour"] == 0  # CD-SH-08


def test_models_cap_the_casualties_and_body_takes_several_wounds() -> None:
    data = as_json("--dice", "20orange", "--armour", "0", "--models", "4")
    assert max(int(k) for k in data["casualties"]) == 4
    troll = as_json("--dice", "6orange", "--armour", "0", "--body", "3")
    assert troll["casualties"] == {
        str(k): v for k, v in sorted(casualties_distribution({"orange": 6}, 0, body=3).items())
    }


def test_the_human_output_is_a_table() -> None:
    result = pool("--dice", "10white", "--armour", "1")
    assert result.exit_code == 0, result.output
    assert "10 white, close combat" in result.stdout
    assert "armour 1 + cover 0 = 1: each casualty costs 2 points" in result.stdout
    assert "casualties" in result.stdout and "at least" in result.stdout
    shot = pool(
        "--dice", "16blue", "--armour", "1", "--range-inches", "23", "--weapon-range", "8", "--skill", "0"
    )
    assert "armour 1 + skill 0 + range band 2 + cover 0 = 3" in shot.stdout
    assert "kill face" not in result.stdout  # white dice have none (no rounding residue shown as a chance)
    assert "kill face 30.6%" in pool("--dice", "2black", "--armour", "0").stdout  # 1 - (5/6)^2 = 11/36


def test_the_human_table_leaves_out_the_rare_tail_at_both_ends() -> None:
    rows = [
        line for line in pool("--dice", "200white", "--armour", "0").stdout.splitlines() if "<0.1%" in line
    ]
    assert rows == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--dice", "3white", "--armour", "1", "--skill", "1"],
            "--skill is a shooting skill: give --range-inches",
        ),
        (["--dice", "3pink", "--armour", "1"], "unknown colour 'pink' in '3pink': the dice are white, blue"),
        (["--dice", "3white", "--armour", "-1"], "--armour: -1; armour is 0 or more"),
        (["--dice", "3white", "--armour", "1", "--cover", "3"], "--cover: 3"),
        (
            ["--dice", "3white", "--armour", "1", "--range-inches", "10"],
            "--range-inches needs --weapon-range",
        ),
        (["--dice", "3white", "--armour", "1", "--weapon-range", "8"], "--weapon-range is a shot's"),
        (
            ["--dice", "3white", "--armour", "1", "--range-inches", "-2", "--weapon-range", "8"],
            "not a distance",
        ),
        (
            ["--dice", "3white", "--armour", "1", "--range-inches", "5", "--weapon-range", "0"],
            "--weapon-range: 0",
        ),
        (["--dice", "3white", "--armour", "1", "--range-inches", "33", "--weapon-range", "8"], "(CD-RA-01)"),
        (["--dice", "3white", "--armour", "1", "--models", "0"], "--models: 0"),
        (["--dice", "3white", "--armour", "1", "--body", "0"], "--body: 0"),
        (["--dice", "", "--armour", "1"], "no dice"),
        (["--dice", "3white"], "--armour"),
        (["--dice", "3white", "--armour", "one"], "Invalid value for '--armour'"),
        (["--dice", "10", "white", "--armour", "1"], "--dice 10 white: write the pool without spaces"),
    ],
)
def test_bad_input_is_refused_with_exit_2(args: list[str], message: str) -> None:
    result = pool(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_the_maximum_range_is_4_multiples() -> None:
    # CD-RA-01 decision: a javelin reaches 32" (band +3), not 32.5".
    assert (
        as_json("--dice", "1blue", "--armour", "0", "--range-inches", "32", "--weapon-range", "8")["parts"][
            "band"
        ]
        == 3
    )


def test_mounted_as_the_shared_cli_mounts_them() -> None:
    root = typer.Typer()
    groups = {name: typer.Typer() for name in commands()}
    for name, sub in commands().items():
        groups[name].add_typer(sub, name="coloured-dice")
        root.add_typer(groups[name], name=name)
    result = runner.invoke(
        root, ["odds", "coloured-dice", "pool", "--dice", "10white", "--armour", "1", "--json"], env=ENV
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["armour"] == 1


def test_through_the_shared_cli() -> None:
    from iwgt.cli import app

    result = runner.invoke(
        app, ["odds", "coloured-dice", "pool", "--dice", "10white,5black", "--armour", "1", "--json"], env=ENV
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["casualties"] == {
        str(k): v for k, v in sorted(casualties_distribution({"white": 10, "black": 5}, 1).items())
    }
    refused = runner.invoke(
        app, ["odds", "coloured-dice", "pool", "--dice", "3white", "--armour", "-1"], env=ENV
    )
    assert refused.exit_code == 2 and "armour is 0 or more" in refused.output
