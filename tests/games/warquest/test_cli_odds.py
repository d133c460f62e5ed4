"""``iwgt odds warquest battle``: the battle's exact odds as JSON (the spec's keys, string-keyed laws) and as
a Rich table; mistakes (an unknown troop, bad count syntax, more troops than the pool, a leader count or a
power that cannot be) refused with exit 2 and one line naming the option. The app is tested directly, as
the shared CLI mounts it, and through ``iwgt`` itself (WQ-CB, WQ-SP, WQ-RT-06)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from iwgt.games.warquest.cli import commands, odds_commands, warquest_odds
from iwgt.games.warquest.odds import battle_from_armies, battle_odds, rank_previews

runner = CliRunner()
ENV = {"COLUMNS": "400"}  # a wide terminal keeps Rich from wrapping the error messages


def battle(*args: str) -> Result:
    return runner.invoke(warquest_odds, ["battle", *args], env=ENV)


def as_json(*args: str) -> dict[str, Any]:
    result = battle(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_commands_join_the_odds_group() -> None:
    assert odds_commands() == {"odds": warquest_odds}
    assert commands()["odds"] is warquest_odds


def test_the_briefs_example_as_json() -> None:
    """The spec's shape: attacker_wins, defender_wins, error, rounds_mean and round 1 of each rank, with
    string keys; the numbers are odds.py's for the same armies."""
    data = as_json("--attacker", "orc_foot:4,orc_archer:2", "--defender", "dwarf_foot:3")
    b = battle_from_armies({"orc_foot": 4, "orc_archer": 2}, {"dwarf_foot": 3})
    exact = battle_odds(b)
    assert data["attacker_wins"] == exact.p_attacker_wins
    assert data["defender_wins"] == exact.p_defender_wins
    assert data["error"] == 0.0
    assert data["attacker_wins"] + data["defender_wins"] == pytest.approx(1.0)
    assert data["rounds_mean"] == exact.rounds_mean
    assert data["round"] == rank_previews(b)
    assert set(data["round"]) == {"attacker", "defender"}
    front = data["round"]["attacker"]["front"]
    assert front["dice"] == 12  # 4 Orc Foot: attack 2 + RAGE 1 each in round 1 (WQ-SP-06)
    assert set(front) >= {"dice", "hits", "flees"}
    assert all(isinstance(k, str) for k in front["hits"]) and sum(front["hits"].values()) == pytest.approx(1)
    assert data["attacker"] == {"orc_foot": 4, "orc_archer": 2}


def test_leaders_and_powers_change_the_odds() -> None:
    """More leaders rally more (WQ-SP-02); a front-rank power adds a die (War Drums: 12 -> 13 dice)."""
    base = as_json("--attacker", "orc_foot:2", "--defender", "goblin_foot:2,goblin_archer:1")
    rallied = as_json(
        "--attacker", "orc_foot:2", "--defender", "goblin_foot:2,goblin_archer:1", "--defender-leaders", "3"
    )
    assert rallied["defender_wins"] > base["defender_wins"]
    drums = as_json(
        "--attacker", "orc_foot:4", "--defender", "dwarf_foot:3", "--attacker-powers", "war_drums"
    )
    assert drums["round"]["attacker"]["front"]["dice"] == 13
    walls = as_json(
        "--attacker", "orc_foot:4", "--defender", "dwarf_foot:3", "--defender-powers", "shield_wall_drill"
    )
    assert walls["round"]["defender"]["front"]["dice"] == 4  # defend_dice when defending


def test_the_human_output_is_a_table() -> None:
    result = battle("--attacker", "orc_foot:3", "--defender", "goblin_foot:3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 orc_foot attack 3 goblin_foot" in out
    assert "attacker wins" in out and "(exact)" in out
    for row in ("defender rear", "attacker rear", "defender front", "attacker front"):
        assert row in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--attacker", "orc_fot:3", "--defender", "goblin_foot:1"], "--attacker: unknown troop 'orc_fot'"),
        (
            ["--attacker", "orc_foot:3", "--defender", "goblin_foot"],
            "--defender: 'goblin_foot' is not kind:count",
        ),
        (
            ["--attacker", "orc_foot:x", "--defender", "goblin_foot:1"],
            "--attacker: 'orc_foot:x' is not kind:count",
        ),
        (
            ["--attacker", "orc_foot:0", "--defender", "goblin_foot:1"],
            "--attacker: 'orc_foot:0'; a count is 1",
        ),
        (
            ["--attacker", "orc_foot:11", "--defender", "goblin_foot:1"],
            "--attacker: 11 orc_foot; the pool holds 10",
        ),
        (
            ["--attacker", "orc_foot:6", "--defender", "orc_foot:5"],
            "--defender: 5 orc_foot with the attacker's 6; the pool holds 10",
        ),
        (
            ["--attacker", "orc_foot:1", "--defender", "goblin_foot:1", "--attacker-leaders", "0"],
            "--attacker-leaders: 0",
        ),
        (
            ["--attacker", "orc_foot:1", "--defender", "goblin_foot:1", "--defender-leaders", "4"],
            "--defender-leaders: 4",
        ),
        (
            ["--attacker", "orc_foot:1", "--defender", "goblin_foot:1", "--attacker-powers", "nope"],
            "--attacker-powers: unknown power card 'nope'",
        ),
        (
            [
                "--attacker",
                "orc_foot:1",
                "--defender",
                "goblin_foot:1",
                "--defender-powers",
                "the_tax_collectors",
            ],
            "--defender-powers: 'the_tax_collectors' (tax) changes no battle",
        ),
        (["--attacker", "orc_foot:1"], "--defender"),
    ],
)
def test_bad_input_is_refused_with_exit_2(args: list[str], message: str) -> None:
    result = battle(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 or "Usage" in result.output


def test_a_side_with_no_troops_loses_at_once() -> None:
    """An empty army ("") is no troops: it loses before any round (WQ-MS-41 designed)."""
    data = as_json("--attacker", "orc_foot:1", "--defender", "")
    assert data["attacker_wins"] == 1.0 and data["rounds_mean"] == 0.0


def test_mounted_as_the_shared_cli_mounts_them() -> None:
    root = typer.Typer()
    groups = {name: typer.Typer() for name in commands()}
    for name, sub in commands().items():
        groups[name].add_typer(sub, name="warquest")
        root.add_typer(groups[name], name=name)
    result = runner.invoke(
        root,
        ["odds", "warquest", "battle", "--attacker", "orc_foot:2", "--defender", "goblin_foot:2", "--json"],
        env=ENV,
    )
    assert result.exit_code == 0, result.output
    assert 0 < json.loads(result.stdout)["attacker_wins"] < 1


def test_through_the_shared_cli() -> None:
    from iwgt.cli import app

    args = ["odds", "warquest", "battle", "--attacker", "orc_foot:2", "--defender", "goblin_foot:2", "--json"]
    result = runner.invoke(app, args, env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (
        data["attacker_wins"]
        == battle_odds(battle_from_armies({"orc_foot": 2}, {"goblin_foot": 2})).p_attacker_wins
    )
    refused = runner.invoke(
        app, ["odds", "warquest", "battle", "--attacker", "x:1", "--defender", "orc_foot:1"], env=ENV
    )
    assert refused.exit_code == 2 and "--attacker: unknown troop 'x'" in refused.output
