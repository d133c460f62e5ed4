"""``iwgt spells``: the Valkyrx Magic Spells table (VX-SP-GEN-1) as JSON and as a table, the default packs,
and ``simulate --physical-dice`` leaving the secret dice to the table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.registry import get_game

runner = CliRunner()

SPELL_KEYS = {"id", "name", "duration", "range", "master_only", "timing", "affects", "resisted", "effect"}
RED = {"Sleep", "Command", "Resurrection", "Plague", "Armageddon", "Creeping Death"}
TABLE_ORDER = [
    "Sleep", "Fear", "Command", "Fire", "Strength", "Resurrection", "Transportation", "Earthquake",
    "Disharmony", "Shield", "Weakness", "Ice", "Plague", "Cure Plague", "Deny Magic", "Dismiss Dead/Wraiths",
    "Armageddon", "Creeping Death", "Lead Boots", "Speed", "Courage",
]  # fmt: skip
# "Maximum Duration" and "Maximum Range" as printed in the rules' spells table.
PRINTED = {
    "Sleep": (1, 5), "Fear": (2, 5), "Command": (3, 5), "Fire": (1, 5), "Strength": (2, 5),
    "Resurrection": (1, 5), "Transportation": (3, 1), "Earthquake": (1, 5), "Disharmony": (1, 5),
    "Shield": (3, "local"), "Weakness": (2, 5), "Ice": (1, 5), "Plague": (1, 5), "Cure Plague": (1, 5),
    "Deny Magic": (1, 10), "Dismiss Dead/Wraiths": (1, 5), "Armageddon": (2, "all"), "Creeping Death": (3, 5),
    "Lead Boots": (3, 5), "Speed": (3, 5), "Courage": (3, 5),
}  # fmt: skip
PACKS = {
    "wulfgeldre": ["fire", "strength", "resurrection", "command", "deny_magic", "shield"],
    "circan": ["ice", "courage", "speed", "cure_plague", "deny_magic", "transportation"],
    "waerloga": ["sleep", "plague", "creeping_death", "weakness", "fear", "deny_magic"],
    "ellorgast": ["fear", "weakness", "lead_boots", "disharmony", "earthquake", "shield"],
    "lefan": ["fire", "ice", "strength", "speed", "courage", "deny_magic"],
}

GAME = get_game("valkyrx")


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    result = invoke("spells", "valkyrx", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    return data


def test_spells_json_has_21_rows_with_exactly_the_documented_keys(rows: list[dict[str, Any]]) -> None:
    assert len(rows) == 21
    for row in rows:
        assert set(row) == SPELL_KEYS, row.get("name")
    assert len({r["id"] for r in rows}) == 21


def test_spells_json_is_in_table_order(rows: list[dict[str, Any]]) -> None:
    assert [r["name"] for r in rows] == TABLE_ORDER


def test_the_red_spells_are_master_only(rows: list[dict[str, Any]]) -> None:
    assert {r["name"] for r in rows if r["master_only"]} == RED
    assert all(isinstance(r["master_only"], bool) for r in rows)


@pytest.mark.parametrize("name", list(PRINTED))
def test_duration_and_range_as_printed(rows: list[dict[str, Any]], name: str) -> None:
    row = next(r for r in rows if r["name"] == name)
    assert (row["duration"], row["range"]) == PRINTED[name]
    assert isinstance(row["duration"], int) and not isinstance(row["duration"], bool)


def test_field_types_and_values(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        assert row["range"] in ("all", "local") or (
            isinstance(row["range"], int) and not isinstance(row["range"], bool)
        )
        assert row["timing"] in ("immediate", "following")
        assert isinstance(row["resisted"], bool)
        assert isinstance(row["affects"], str) and row["affects"]
        assert isinstance(row["effect"], str) and "\n" not in row["effect"] and row["effect"]
    following = {r["name"] for r in rows if r["timing"] == "following"}
    assert following == {"Command", "Speed", "Transportation", "Armageddon"}


def test_the_packs_are_not_in_the_spells_array(rows: list[dict[str, Any]]) -> None:
    text = json.dumps(rows)
    assert "packs" not in text and "wulfgeldre" not in text


def test_packs_json_gives_every_wizard_his_default_six() -> None:
    result = invoke("spells", "valkyrx", "--packs", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == PACKS


def test_spells_table_without_json() -> None:
    result = invoke("spells", "valkyrx")
    assert result.exit_code == 0, result.output
    for name in ("Sleep", "Deny Magic", "Dismiss Dead/Wraiths", "Creeping Death", "local", "all"):
        assert name in result.stdout
    assert "Wulfgeldre" not in result.stdout  # the packs are a separate listing (--packs)
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


def test_packs_table_without_json() -> None:
    result = invoke("spells", "valkyrx", "--packs")
    assert result.exit_code == 0, result.output
    assert "Wulfgeldre" in result.stdout and "Transportation" in result.stdout


def test_spells_names_its_game_and_documents_the_json_keys() -> None:
    bare = invoke("spells")  # no silent default game: the help lists the games that have spells
    assert "valkyrx" in bare.output and '"id"' not in bare.output
    text = " ".join(invoke("spells", "valkyrx", "--help").stdout.split())
    for word in ("--json", "--packs", "master_only", "duration", "range"):
        assert word in text


@pytest.mark.parametrize("extra", [(), ("--json",), ("--packs",)])
def test_spells_of_an_unknown_game_is_a_clean_error(extra: tuple[str, ...]) -> None:
    result = invoke("spells", "chess", *extra)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "error" in result.output.lower() and "chess" in result.output
