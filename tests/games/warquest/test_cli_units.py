"""``iwgt units warquest``: every troop kind of the data with the issue's fields (section 6: name, cost
null where it cannot be bought, attack, defense, missile, advanced, designed false only for the printed rows)
and the spec's (id, pool, people, specials); the four printed rows exactly as the text gives them
(WQ-TR-01..04)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from iwgt.games.warquest.catalogue import units_app
from iwgt.games.warquest.rules import rules

runner = CliRunner()
FIELDS = {
    "id", "name", "cost", "attack", "defense", "missile", "advanced", "designed", "pool", "people",
    "specials",
}  # fmt: skip


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    result = runner.invoke(units_app, ["--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert isinstance(out, list)
    return out


def test_every_troop_kind_is_listed_once_with_the_fields(rows: list[dict[str, Any]]) -> None:
    assert [r["id"] for r in rows] == list(rules().troops)
    for r in rows:
        assert set(r) == FIELDS, r["id"]
        assert isinstance(r["missile"], bool) and isinstance(r["advanced"], bool)
        assert isinstance(r["designed"], bool)
        assert r["cost"] is None or (isinstance(r["cost"], int) and r["cost"] >= 1)


def test_the_printed_rows_are_exact_and_the_only_ones_not_designed_wq_tr_01_04(
    rows: list[dict[str, Any]],
) -> None:
    by_id = {r["id"]: r for r in rows}
    printed = {r["id"] for r in rows if not r["designed"]}
    assert printed == {"skeleton_warrior", "skeleton_archer", "skeleton_rider", "wraith_king"}
    # Cost, Attack Dice, Defense Rating as the text prints them: 2 1 1, 2 1 1, 4 2 1, - 2 2.
    profile = {k: (by_id[k]["cost"], by_id[k]["attack"], by_id[k]["defense"]) for k in printed}
    assert profile == {
        "skeleton_warrior": (2, 1, 1),
        "skeleton_archer": (2, 1, 1),
        "skeleton_rider": (4, 2, 1),
        "wraith_king": (None, 2, 2),
    }
    # WQ-TR-02 decided: Skeleton Archers shoot (M); WQ-TR-04: the Wraith King is unique (pool 1).
    assert by_id["skeleton_archer"]["missile"] is True
    assert by_id["wraith_king"]["pool"] == 1


def test_the_components_list_gives_the_basic_pools_wq_cm_02_11(rows: list[dict[str, Any]]) -> None:
    by_id = {r["id"]: r for r in rows}
    pools = {
        "goblin_foot": 15, "goblin_archer": 10, "elf_foot": 15, "elf_archer": 10, "dwarf_foot": 10,
        "dwarf_crossbow": 5, "satyr_foot": 10, "satyr_archer": 5, "orc_foot": 10, "orc_archer": 5,
    }  # fmt: skip
    assert {k: by_id[k]["pool"] for k in pools} == pools
    # WQ-SU-17: wizards, trolls, dragons and elite units are Advanced.
    for k in ("air_wizard", "troll", "fire_dragon", "dwarf_hearthguard", "elf_warden", "orc_blackguard"):
        assert by_id[k]["advanced"] is True, k


def test_the_human_table_marks_the_designed_rows() -> None:
    result = runner.invoke(units_app, [], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "goblin_foot*" in result.stdout and "Wraith King" in result.stdout
    assert "skeleton_warrior*" not in result.stdout


def test_iwgt_units_warquest_is_the_same_table() -> None:
    """Through the shared group (``iwgt units warquest --json``), as the plug-in's commands register it."""
    from iwgt.cli import app

    result = runner.invoke(app, ["units", "warquest", "--json"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert [r["id"] for r in json.loads(result.stdout)] == list(rules().troops)
