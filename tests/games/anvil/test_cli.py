"""``iwgt odds anvil combat`` and ``iwgt units anvil``: the matrix's results as JSON and as a table; bad input
refused with exit 2 naming the allowed values. The apps are tested directly and mounted as the shared CLI
mounts a game's commands (``iwgt <group> <game> ...``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from iwgt.games.anvil.cli import anvil_odds, commands, units_app
from iwgt.games.anvil.matrix import Attack, resolve

runner = CliRunner()
ENV = {"COLUMNS": "400"}  # a wide terminal keeps Rich from wrapping the error messages


def combat(*args: str) -> Result:
    return runner.invoke(anvil_odds, ["combat", *args], env=ENV)


def as_json(*args: str) -> dict[str, Any]:
    result = combat(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_commands_join_the_odds_and_units_groups() -> None:
    assert commands() == {"odds": anvil_odds, "units": units_app}


def test_nate_prints_null_damage_fa_crm_hero_warmachine() -> None:
    # FA-CRM-HERO-WARMACHINE: "NATE 3 Flanks 5 Rear Attacker BB": no engage on the front.
    data = as_json("--attacker", "hero", "--defender", "war_machine", "--side", "front")
    assert (data["allowed"], data["damage"], data["bounce_back"]) == (False, None, None)
    assert "FA-CRM-05" in data["clauses"]
    # Its flank: 3 of the War Machine's 12 HP; the ATTACKER bounces back.
    data = as_json("--attacker", "hero", "--defender", "war_machine", "--side", "flank")
    assert (data["damage"], data["bounce_back"], data["destroyed"], data["excess_move"]) == (
        3,
        "attacker",
        False,
        0,
    )


def test_defender_bounce_fa_crm_troop_troop() -> None:
    # FA-CRM-TROOP-TROOP: flank 3 of 4 HP: the defender survives and bounces back.
    data = as_json("--attacker", "troop", "--defender", "troop", "--side", "flank")
    assert (data["damage"], data["bounce_back"], data["destroyed"], data["counter_damage"]) == (
        3,
        "defender",
        False,
        None,
    )
    assert data["defender_hp_left"] == 1 and data["clauses"][0] == "FA-CRM-TROOP-TROOP"


def test_hammerblow_destroys_with_excess_fa_sc_05() -> None:
    # FA-CRM-WARMACHINE-HERO rear 5, +1 Hammerblow = 6 against 4 HP: destroyed, 2" to move at once.
    data = as_json("--attacker", "war_machine", "--defender", "hero", "--side", "rear", "--hammerblow")
    assert (data["damage"], data["destroyed"], data["excess_move"], data["bounce_back"]) == (
        6,
        True,
        2.0,
        None,
    )


def test_brace_and_counterattack() -> None:
    # Knight on Troop rear 5, -3 Brace = 2 (4 -> 2); the Troop counters with its front on Knights: 1.
    data = as_json(
        "--attacker", "knight", "--defender", "troop", "--side", "rear", "--brace", "--counterattack"
    )
    assert (data["damage"], data["counter_damage"], data["bounce_back"]) == (2, 1, "both")
    assert data["held"] == ["defender"]  # braced: it cannot move, it loses 1 HP instead (FA-SC-03, FA-BB-04)


def test_defender_hp_option() -> None:
    # Troop on Hero front 1 against a Hero with 1 HP left: destroyed, nothing in excess.
    data = as_json("--attacker", "troop", "--defender", "hero", "--defender-hp", "1")
    assert (data["damage"], data["destroyed"], data["excess_move"]) == (1, True, 0)


def test_ballistics_by_range() -> None:
    # Troop with Shooter at a Knight 5" away: the rear value 2; Parthian Shot -1 = 1; no bounce back.
    data = as_json(
        "--attacker", "troop", "--defender", "knight", "--ballistics", "--range", "5", "--parthian"
    )
    assert (data["damage"], data["side"], data["bounce_back"]) == (1, "rear", None)


@pytest.mark.parametrize(
    "args",
    [
        ("--attacker", "war_machine", "--defender", "knight", "--side", "flank", "--brace", "--hammerblow"),
        ("--attacker", "seat", "--defender", "wizard", "--side", "rear", "--counterattack"),
        (
            "--attacker",
            "monster",
            "--defender",
            "troop",
            "--side",
            "rear",
            "--skirmishing",
            "--fear-attacker",
        ),
    ],
)
def test_the_cli_prints_what_resolve_computes(args: tuple[str, ...]) -> None:
    # One rule code: the command's JSON is matrix.resolve's, whatever the options.
    data = as_json(*args)
    flags = {
        "--brace": "brace",
        "--hammerblow": "hammerblow",
        "--counterattack": "counterattack",
        "--skirmishing": "skirmishing_defender",
        "--fear-attacker": "fear_attacker",
    }
    attack = Attack(args[1], args[3], args[5], **{flags[a]: True for a in args[6:]})  # type: ignore[arg-type]
    assert {k: data[k] for k in resolve(attack).to_json()} == resolve(attack).to_json()


def test_a_readable_sentence_without_json() -> None:
    result = combat("--attacker", "wizard", "--defender", "war_machine", "--side", "flank")
    assert result.exit_code == 0
    assert "NATE" in result.stdout and 'stops 1" away' in result.stdout
    result = combat("--attacker", "War Machine", "--defender", "Troops", "--side", "rear")
    assert result.exit_code == 0 and "War Machine attacks Troop in the rear" in result.stdout
    assert "FA-CRM-WARMACHINE-TROOP" in result.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--attacker", "dragon", "--defender", "troop"),
         "--attacker: unknown unit type 'dragon'; "
         "choose hero, wizard, monster, knight, war_machine, troop or seat"),
        (("--attacker", "troop", "--defender", "elf"), "--defender: unknown unit type 'elf'"),
        (("--attacker", "troop", "--defender", "hero", "--side", "back"),
         "--side: unknown side 'back'; choose front, flank or rear"),
        (("--attacker", "wizard", "--defender", "troop", "--hammerblow"), "FA-SC-04"),
        (("--attacker", "troop", "--defender", "hero", "--defender-hp", "0"), "at least 1 HP"),
        (("--attacker", "troop", "--defender", "hero", "--range", "5"), "add --ballistics"),
        (("--attacker", "troop", "--defender", "hero", "--ballistics", "--range", "19"), "beyond"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_naming_the_choices(args: tuple[str, ...], said: str) -> None:
    result = combat(*args)
    assert result.exit_code == 2
    assert said in result.output


def test_units_json() -> None:
    result = runner.invoke(units_app, ["--json"], env=ENV)
    assert result.exit_code == 0
    rows = {row["type"]: row for row in json.loads(result.stdout)}
    assert list(rows) == ["hero", "wizard", "monster", "knight", "war_machine", "troop", "seat"]
    # The matrix's profiles (FA-CRM-PROFILE-..) and the Unit Deployment table (FA-UD-02..08), by hand.
    want = {
        "hero": ("Hero", 6, 4, 3, "<= 30%"),
        "wizard": ("Wizard", 6, 4, 2, "<= 20%"),
        "monster": ("Monster", 6, 8, 3, "<= 30%"),
        "knight": ("Knight", 4, 8, 2, "<= 40%"),
        "war_machine": ("War Machine", 6, 12, 4, "<= 40%"),
        "troop": ("Troop", 6, 4, 1, ">= 40%"),
        "seat": ("Seat of Power", 0, 4, 0, "1"),
    }
    for kind, (name, move, hp, dcp, availability) in want.items():
        row = rows[kind]
        assert (row["name"], row["move"], row["hp"], row["dcp"], row["availability"]) == (
            name, move, hp, dcp, availability,
        )  # fmt: skip


def test_units_table() -> None:
    result = runner.invoke(units_app, [], env=ENV)
    assert result.exit_code == 0
    assert "War Machine" in result.stdout and "<= 40%" in result.stdout and "Seat of Power" in result.stdout


def test_mounted_as_the_shared_cli_mounts_them() -> None:
    # src/iwgt/cli.py adds each game's app under its group with the game's name: iwgt odds anvil combat.
    root = typer.Typer()
    groups = {name: typer.Typer() for name in commands()}
    for name, sub in commands().items():
        groups[name].add_typer(sub, name="anvil")
        root.add_typer(groups[name], name=name)
    result = runner.invoke(
        root, ["odds", "anvil", "combat", "--attacker", "troop", "--defender", "troop", "--json"], env=ENV
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["damage"] == 2
    result = runner.invoke(root, ["units", "anvil", "--json"], env=ENV)
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 7


def test_through_iwgt_as_a_registered_game() -> None:
    from iwgt.cli import app

    result = runner.invoke(
        app, ["odds", "anvil", "combat", "--attacker", "hero", "--defender", "war_machine", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["damage"] is None
