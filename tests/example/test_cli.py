"""``iwgt simulate pig`` and ``iwgt replay`` of its record: the game of ``kit.py``, worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.chance import Die, SeededDice

from .kit import FACES, SEED, SUMMARY

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def simulate(*extra: str) -> Result:
    return invoke("simulate", "pig", "--scenario", "first_to_30", "--seed", str(SEED), *extra)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pig") / "first_to_30_seed3.json"
    result = simulate("--json", "--record", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_the_seeded_dice_give_the_faces_the_game_was_worked_out_from() -> None:
    assert len(FACES) == 37
    dice = SeededDice(SEED)
    assert [dice.roll(Die(6, "a roll")) for _ in FACES] == FACES


def test_simulate_json_is_the_game_worked_out_by_hand() -> None:
    result = simulate("--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == SUMMARY
    assert len(result.stdout.splitlines()) == 1


def test_simulate_reports_the_game_turn_by_turn() -> None:
    result = simulate()
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert lines[1:7] == [
        "Anna rolls 4: 4 this turn",
        "Anna rolls 4: 8 this turn",
        "Anna rolls 4: 12 this turn",
        "Anna rolls 6: 18 this turn",
        "Anna rolls a 1 and loses 18",
        "Bruno rolls 2: 2 this turn",
    ]
    assert "Bruno holds: banks 23, 23 in all" in lines
    assert lines[-3:-1] == ["Anna holds: banks 14, 34 in all", "Anna wins with 34"]
    assert "Game over after 9 turns: Anna wins (34 points of the 30 needed)" in lines[-1]


def test_the_record_replays(record: Path) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["game"] == "pig" and data["rules_version"] == "pig-1.0" and len(data["steps"]) == 77
    assert [s["action"]["face"] for s in data["steps"] if s["seat"] == -1] == FACES
    assert data["result"]["winners"] == [0] and data["result"]["outcomes"] == ["win", "loss"]
    result = invoke("replay", str(record))
    assert result.exit_code == 0, result.output
    assert " ".join(result.stdout.split()) == (
        "ok: 77 steps of pig (first_to_30) reproduce; Anna wins (34 points of the 30 needed)"
    )


def tampered(record: Path, tmp_path: Path, step: int, action: dict[str, Any]) -> Result:
    data = json.loads(record.read_text(encoding="utf-8"))
    data["steps"][step]["action"] = action
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return invoke("replay", str(path))


def test_a_record_with_another_face_does_not_reproduce(record: Path, tmp_path: Path) -> None:
    result = tampered(record, tmp_path, 1, {"face": 5})  # the first roll was a 4
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "step 1: state digest" in " ".join(result.output.split())


def test_a_record_that_holds_before_rolling_is_refused(record: Path, tmp_path: Path) -> None:
    result = tampered(record, tmp_path, 0, {"type": "hold"})
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "step 0: the recorded action was refused: roll at least once" in " ".join(result.output.split())


def test_race_to_50_plays_to_the_end_with_three_seats() -> None:
    result = invoke("simulate", "pig", "--scenario", "race_to_50", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scenario"] == "race_to_50" and len(summary["scores"]) == 3
    winner = ["Anna", "Bruno", "Carla"].index(summary["winner"])
    assert summary["scores"][winner] >= 50
    assert all(s < 50 for i, s in enumerate(summary["scores"]) if i != winner)
    assert summary["reason"] == f"{summary['scores'][winner]} points of the 50 needed"
