"""``iwgt replay`` of a record with a broken step: which step, and what is wrong, in plain words."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from iwgt.cli import app

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("record") / "skirmish.json"
    result = invoke(
        "simulate", "valkyrx", "--scenario", "skirmish", "--seed", "5", "--json", "--record", str(path)
    )
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def first(data: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> int:
    return next(i for i, s in enumerate(data["steps"]) if test(s))


def is_face(step: dict[str, Any]) -> bool:
    return step["seat"] == -1 and "face" in step["action"]


def is_move(step: dict[str, Any]) -> bool:
    return step["action"].get("type") == "move"


def set_key(kind: Callable[[dict[str, Any]], bool], key: str, value: Any) -> Callable[[dict[str, Any]], int]:
    def change(data: dict[str, Any]) -> int:
        i = first(data, kind)
        data["steps"][i]["action"][key] = value
        return i

    return change


def drop(key: str) -> Callable[[dict[str, Any]], int]:
    def change(data: dict[str, Any]) -> int:
        i = first(data, is_move)
        del data["steps"][i][key]
        return i

    return change


def replace_step(value: Any) -> Callable[[dict[str, Any]], int]:
    def change(data: dict[str, Any]) -> int:
        i = first(data, is_move)
        data["steps"][i] = value
        return i

    return change


def replace_key(key: str, value: Any) -> Callable[[dict[str, Any]], int]:
    def change(data: dict[str, Any]) -> int:
        i = first(data, is_move)
        data["steps"][i][key] = value
        return i

    return change


# What the error says after "step <i>" (the file's name comes first when the record itself is malformed).
CASES: dict[str, tuple[Callable[[dict[str, Any]], int], str]] = {
    "missing digest": (drop("digest"), ": missing key 'digest'"),
    "missing action": (drop("action"), ": missing key 'action'"),
    "missing seat": (drop("seat"), ": missing key 'seat'"),
    "a string face": (
        set_key(is_face, "face", "six"),
        ": the recorded action was refused: a die face must be a whole number, got 'six'",
    ),
    "an unknown action type": (
        set_key(is_move, "type", "teleport"),
        ": the recorded action was refused: unknown action type 'teleport'; expected one of",
    ),
    "a step that is a number": (
        replace_step(7),
        " must be an object with a seat, an action and a digest, got 7",
    ),
    "an action that is a list": (replace_key("action", [1]), ": 'action' must be an object, got [1]"),
    "a seat in words": (
        replace_key("seat", "zero"),
        ": 'seat' must be a whole number (-1 for the dice), got 'zero'",
    ),
    "a digest that is a number": (replace_key("digest", 12), ": 'digest' must be a text, got 12"),
}


@pytest.mark.parametrize("label", list(CASES))
def test_a_broken_step_is_named_and_explained(record: dict[str, Any], tmp_path: Path, label: str) -> None:
    change, said = CASES[label]
    data = json.loads(json.dumps(record))
    index = change(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = " ".join(result.output.split())
    assert f"step {index}{said}" in text, text
    assert text.startswith("error: ") and len(result.output.strip().splitlines()) == 1
    for internal in ("Traceback", "object is not", "KeyError", "invalid literal", "subscriptable"):
        assert internal not in text


def test_steps_that_are_not_a_list_are_said_so(record: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({**record, "steps": 5}), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == f"error: {path}: 'steps' must be a list of steps, got 5"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"seed": "one"}, "'seed' must be a whole number or null, got 'one'"),
        ({"scenario": "skirmish"}, "'scenario' must be an object with the texts 'name' and 'toml'"),
    ],
)
def test_a_broken_record_key_is_said_in_plain_words(
    record: dict[str, Any], tmp_path: Path, change: dict[str, Any], said: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({**record, **change}), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == f"error: {path}: {said}"
