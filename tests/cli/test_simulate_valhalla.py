"""``iwgt simulate valhalla``: the built-in bots play a scenario to the end, with a turn-by-turn report or one
JSON summary, deterministic by seed; ``--record`` saves a record that ``iwgt replay`` reproduces; with
``--physical-dice`` every die is asked for except the secret deal, which the table rolls itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.games.valhalla.game import ValhallaGame

runner = CliRunner()
SCENARIOS = ValhallaGame().scenario_names()
SUMMARY_KEYS = ["game", "scenario", "seed", "winner", "reason", "turns", "steps", "coins"]


def invoke(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "400"}, input=stdin)


def simulate(*extra: str, scenario: str = "first_blood", seed: int = 1, stdin: str | None = None) -> Result:
    return invoke("simulate", "valhalla", "--scenario", scenario, "--seed", str(seed), *extra, stdin=stdin)


def summary_of(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_json_summary_of_every_scenario(scenario: str) -> None:
    data = summary_of(simulate("--json", scenario=scenario, seed=2))
    assert list(data) == SUMMARY_KEYS
    assert data["game"] == "valhalla" and data["scenario"] == scenario and data["seed"] == 2
    sides = ValhallaGame().load_scenario(scenario).spec.sides
    assert data["winner"] in (None, *(s.name for s in sides))
    assert isinstance(data["reason"], str) and data["reason"]
    assert data["turns"] >= 1 and data["steps"] >= 1
    coins = data["coins"]
    assert isinstance(coins, list) and len(coins) == 2 and all(isinstance(c, int) and c >= 0 for c in coins)
    if data["winner"] is None:
        assert "draw" in data["reason"]
    else:
        assert data["reason"].startswith(data["winner"])


def test_the_default_scenario_is_skirmish() -> None:
    data = summary_of(invoke("simulate", "valhalla", "--seed", "3", "--json"))
    assert data["scenario"] == "skirmish"


def test_same_seed_same_output() -> None:
    assert simulate("--json", seed=4).stdout_bytes == simulate("--json", seed=4).stdout_bytes
    first, second = simulate(seed=4), simulate(seed=4)
    assert first.exit_code == second.exit_code == 0, first.output
    assert first.stdout_bytes == second.stdout_bytes


def test_different_seeds_differ(tmp_path: Path) -> None:
    def steps(seed: int) -> list[Any]:
        path = tmp_path / f"seed{seed}.json"
        assert simulate("--json", "--record", str(path), seed=seed).exit_code == 0
        return list(json.loads(path.read_text(encoding="utf-8"))["steps"])

    base = steps(1)
    assert all(steps(seed) != base for seed in (2, 3))


def test_the_report_tells_the_game_turn_by_turn() -> None:
    result = simulate(seed=1)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Valhalla: First blood (seed 1)" in text
    assert "Turn 2 of 3" in text
    for words in ("activates", "moves to", "Dice of Death for", "Game over after"):
        assert words in text, words
    spec = ValhallaGame().load_scenario("first_blood").spec
    assert spec.players[0].hero_name in text and spec.players[1].archer_name in text
    assert any(f"{rank}♣ Ulf" in text or f"{rank}♦ Ulf" in text for rank in ("A", "2", "3", "4", "5", "6"))
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_the_report_shows_fights_and_shots_with_their_dice() -> None:
    # Seed 1 of first blood has both a charge and shots (the bots are deterministic, so this stays true
    # unless they change; any seed with a fight would do).
    texts = [simulate(seed=seed).stdout for seed in (1, 2, 3)]
    assert any("charges" in t and "fight:" in t and "rolls" in t and "scores" in t for t in texts)
    assert any("shoots at" in t and "needs" in t for t in texts)
    assert any("coin" in t for t in texts)


def test_a_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    data = summary_of(simulate("--json", "--record", str(path), seed=5))
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["game"] == "valhalla" and record["scenario"]["name"] == "first_blood"
    assert len(record["steps"]) == data["steps"]
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert f"ok: {data['steps']} steps of valhalla (first_blood) reproduce" in text
    assert data["reason"] in text
    assert "Light" not in text and "Darkness" not in text  # Valhalla's sides have their own names


def test_the_report_mentions_the_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = simulate("--record", str(path), seed=6)
    assert result.exit_code == 0, result.output
    assert "record saved to" in result.stdout and path.exists()


def test_physical_dice_are_asked_for_except_the_secret_deal(tmp_path: Path) -> None:
    # Every prompt is answered "3", a face of every die in the game (d6, d8, d10); the cards are dealt by the
    # table from the seed, so no prompt ever asks for them.
    path = tmp_path / "physical.json"
    result = simulate("--json", "--physical-dice", "--record", str(path), seed=8, stdin="3\n" * 3000)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[-1])  # the runner echoes each answer before it
    assert data["seed"] is None
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["dice"] == "physical"
    prompts = result.stderr
    assert "Dice of Death for" in prompts or "combat:" in prompts or "shot at" in prompts
    assert "deal a card" not in prompts
    assert invoke("replay", str(path)).exit_code == 0


def test_unknown_scenario_is_a_clean_error() -> None:
    result = simulate("--json", scenario="no_such_field")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "no_such_field" in " ".join(result.output.split())
