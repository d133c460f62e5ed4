"""``iwgt odds valhalla combat|shoot``: exact odds as JSON and as a table; bad input refused with exit 2.

The JSON's floats and exact fractions must be the ones ``iwgt.games.valhalla.odds`` computes (VH-CO-02..13,
VH-SH-03..09, VH-ST-01..12).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from iwgt.cli import app
from iwgt.games.valhalla.dice import Fighter
from iwgt.games.valhalla.odds import FATES, combat_odds, shoot_odds

runner = CliRunner()


def invoke(*args: str) -> Result:
    # A wide COLUMNS keeps Rich from wrapping error messages (the stderr console sizes itself from it).
    return runner.invoke(app, ["odds", "valhalla", *args], env={"COLUMNS": "400"})


def as_json(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_combat_json_hero_charging_warrior_vh_co_06() -> None:
    data = as_json("combat", "--attacker", "hero", "--defender", "warrior", "--charging")
    odds = combat_odds(Fighter("hero", charging=True), Fighter("warrior"))
    assert data["attacker_hits"] == {str(n): float(odds.attacker_hits[n]) for n in range(3)}
    assert data["defender_hits"] == {str(n): float(odds.defender_hits[n]) for n in range(3)}
    # The hand count of tests/games/valhalla/test_odds.py: 28, 27 and 25 of the 80 pairs.
    assert data["exact"]["attacker_hits"] == {"0": "7/20", "1": "27/80", "2": "5/16"}
    assert data["exact"]["defender"]["killed"] == "77/480"
    for side in ("attacker", "defender"):
        assert set(FATES) <= set(data[side])
        assert sum(data[side][k] for k in FATES) == pytest.approx(1)
    assert data["defender"]["killed"] == float(F(77, 480))
    echoed = data["inputs"]["attacker"]
    assert (echoed["kind"], echoed["charging"], echoed["modifier"]) == ("hero", True, 1)
    assert data["inputs"]["defender"]["kind"] == "warrior"


def test_combat_json_echoes_every_modifier_vh_co_07_09() -> None:
    data = as_json(
        "combat", "--attacker", "archer", "--defender", "slinger", "--uphill-attacker", "--uphill-defender",
        "--attacker-shock", "1", "--defender-shock", "2", "--attacker-wounded", "--defender-wounded",
    )  # fmt: skip
    a = Fighter("archer", shock=1, wounded=True, higher_ground=True)
    d = Fighter("slinger", shock=2, wounded=True, higher_ground=True)
    assert data["exact"] == combat_odds(a, d).to_json()["exact"]
    assert data["inputs"]["attacker"] == {
        "kind": "archer", "die": 6, "modifier": -2, "shock": 1, "wounded": True, "charging": False,
        "higher_ground": True,
    }  # fmt: skip
    assert data["inputs"]["defender"]["modifier"] == -3


@pytest.mark.parametrize(
    ("args", "hit", "needs", "band"),
    [
        (("--range", "6"), "1/2", 4, "close"),  # VH-SH-04: exactly 6" is close
        (("--range", "6.5"), "1/3", 5, "long"),
        (("--range", "4", "--cover"), "1/3", 5, "close"),  # VH-SH-08
        (("--range", "10", "--cover"), "1/6", 6, "long"),
        (("--range", "12.01"), "0", None, "out of range"),  # VH-SH-03
    ],
)
def test_shoot_json_vh_sh_03_08(args: tuple[str, ...], hit: str, needs: int | None, band: str) -> None:
    data = as_json("shoot", *args)
    assert (data["exact"]["hit"], data["needs"], data["range_band"]) == (hit, needs, band)
    assert data["hit"] == float(F(hit))
    for k in FATES:
        assert k in data
    assert data["inputs"]["target"] == "warrior"


def test_shoot_json_matches_the_odds_module() -> None:
    data = as_json(
        "shoot", "--range", "3", "--target", "hero", "--target-shock", "2", "--target-wounded", "--shots", "2"
    )
    odds = shoot_odds(3.0, False, "hero", 2, True, 2)
    assert data == json.loads(json.dumps(odds.to_json()))
    assert data["exact"]["hits"] == {"0": "1/4", "1": "1/2", "2": "1/4"}


def test_one_shot_kills_a_warrior_on_a_hit_then_a_1() -> None:
    data = as_json("shoot", "--range", "3", "--target", "warrior")
    assert data["exact"]["killed"] == str(F(1, 2) * F(1, 6))


def test_tables_show_percentages_and_fractions() -> None:
    result = invoke("combat", "--attacker", "hero", "--defender", "warrior")
    assert result.exit_code == 0, result.output
    assert "45.00%  9/20" in result.stdout  # P(the hero scores no hit)
    assert "2/15" in result.stdout  # P(the warrior is killed)
    result = invoke("shoot", "--range", "12.01")
    assert result.exit_code == 0, result.output
    assert "out of range" in result.stdout
    result = invoke("shoot", "--range", "8", "--cover", "--target", "hero", "--shots", "2")
    assert result.exit_code == 0, result.output
    assert "long range, hits on 6" in result.stdout
    assert "1/36" in result.stdout  # two hits


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("combat", "--attacker", "orc"), "unknown kind 'orc'"),
        (("combat", "--defender", "dragon"), "unknown kind 'dragon'"),
        (("combat", "--attacker-shock", "-1"), "--attacker-shock"),
        (("combat", "--defender-shock", "3"), "--defender-shock"),
        (("shoot", "--range", "-2"), "range"),
        (("shoot", "--range", "3", "--target", "orc"), "unknown kind"),
        (("shoot", "--range", "3", "--target-shock", "-1"), "shock"),
        (("shoot", "--range", "3", "--shots", "3"), "--shots"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "error:" in result.stderr and message in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_shoot_needs_a_range() -> None:
    result = invoke("shoot")
    assert result.exit_code == 2
    assert "--range" in result.output
