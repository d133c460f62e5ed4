"""``iwgt simulate anvil``: the built-in bots play a scenario to the end, with a turn-by-turn report or one
JSON summary, deterministic by seed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.registry import game_names, register, unregister
from iwgt.games.anvil.plugin import plugin

runner = CliRunner()
SUMMARY_KEYS = [
    "game",
    "scenario",
    "seed",
    "winner",
    "reason",
    "turns",
    "steps",
    "hp",
    "units_left",
    "destroyed_dcp",
]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """The game on the table: by its entry point once registered, by hand before."""
    by_hand = "anvil" not in game_names()
    if by_hand:
        register("anvil", plugin)
    yield
    if by_hand:
        unregister("anvil")


def simulate(*extra: str, scenario: str = "skirmish", seed: int = 1) -> Result:
    return runner.invoke(
        app,
        ["simulate", "anvil", "--scenario", scenario, "--seed", str(seed), *extra],
        env={"COLUMNS": "200"},
    )


def summary_of(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def test_the_json_summary_names_the_result_and_each_sides_losses() -> None:
    data = summary_of(simulate("--json", seed=2))
    assert list(data) == SUMMARY_KEYS
    assert data["game"] == "anvil" and data["scenario"] == "skirmish" and data["seed"] == 2
    assert data["winner"] in (None, "The Iron Crown", "The Wild Host")
    assert data["turns"] >= 1 and data["steps"] >= 1
    for key in ("hp", "units_left", "destroyed_dcp"):
        assert isinstance(data[key], list) and len(data[key]) == 2 and all(v >= 0 for v in data[key])
    if data["winner"] is None:
        assert "draw" in data["reason"]


def test_same_seed_same_report() -> None:
    first, second = simulate(seed=3), simulate(seed=3)
    assert first.exit_code == second.exit_code == 0, first.output
    assert first.stdout_bytes == second.stdout_bytes
    assert simulate("--json", seed=3).stdout_bytes == simulate("--json", seed=3).stdout_bytes


def test_the_report_goes_turn_by_turn_and_keeps_bids_sealed_until_revealed() -> None:
    out = simulate(seed=1)
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert "Turn 1 of 6" in text
    assert "The Iron Crown has bid (sealed)." in text
    # A bid is only told with both: never "You bid" (the maker's private line) in a spectator's report.
    assert "You bid" not in text
    assert "Game over" in text
