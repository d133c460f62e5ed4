"""``iwgt simulate valhalla``: the built-in bots play a scenario to the end, with a turn-by-turn report or one
JSON summary, deterministic by seed; ``--record`` saves a record that ``iwgt replay`` reproduces; with
``--physical-dice`` every die is asked for except the secret deal, which the table rolls itself."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from rich.console import Console
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.game import ValhallaGame
from iwgt.games.valhalla.report import print_events

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


def test_the_default_scenario_is_the_games_first() -> None:
    data = summary_of(invoke("simulate", "valhalla", "--seed", "3", "--json"))
    assert data["scenario"] == "first_blood"  # the first of first_blood, raid, skirmish


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
    assert "Turn 2 of 4" in text  # first_blood plays four turns
    for words in ("activates", "moves to", "Dice of Death for", "Game over after"):
        assert words in text, words
    spec = ValhallaGame().load_scenario("first_blood").spec
    assert spec.players[0].hero_name in text and spec.players[1].archer_name in text
    assert any(f"{rank}♣ is up: Ulf." in text or f"{rank}♦ is up: Ulf." in text for rank in "A23456")
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_the_report_shows_fights_and_shots_with_their_dice() -> None:
    # Seed 1 of first blood has both a charge and shots (the bots are deterministic, so this stays true
    # unless they change; any seed with a fight would do).
    texts = [simulate(seed=seed).stdout for seed in (1, 2, 3)]
    assert any("charges" in t and "Combat:" in t and "rolls" in t and "scores" in t for t in texts)
    assert any("Shot at" in t and "needs" in t for t in texts)
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
    # The secret deal came from a table seeded by --seed: its faces are what SeededDice(8) rolls, in order.
    game, table, deals = ValhallaGame(), SeededDice(8), 0
    state = game.initial_state(game.parse_scenario(record["scenario"]["toml"], "the record's scenario"))
    for step in record["steps"]:
        if step["seat"] == CHANCE:
            die = game.chance_outcomes(state)
            assert die is not None
            if die.secret:
                deals += 1
                assert step["action"]["face"] == table.roll(die)
            state, _ = game.apply(state, ChanceOutcome(step["action"]["face"]))
        else:
            state, _ = game.apply(state, game.action_from_json(step["action"]))
    assert deals >= 6  # two players' three figures each, dealt every turn


def test_unknown_scenario_is_a_clean_error() -> None:
    result = simulate("--json", scenario="no_such_field")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "no_such_field" in " ".join(result.output.split())


def test_the_report_words_every_event() -> None:
    game = ValhallaGame()
    state = game.initial_state(game.load_scenario("skirmish"))
    hero, slinger = 0, 5  # Ulf the Bold; Svein the slinger
    sample: list[Event] = [
        ev.TurnBegan(2),
        ev.CardDealt(0, 0, "A♣"),
        ev.CardUp(0, 0, "A♣"),
        ev.CardPassed(1, 1, "A♦", "no figure of this player is left to activate"),
        ev.FigureActivated(hero, 2),
        ev.FigureMoved(hero, ((16.0, 3.0), (16.0, 9.0)), 6.0),
        ev.ObstacleCrossed(hero, 0, (16.0, 17.55)),
        ev.Charged(hero, slinger, (22.0, 21.5)),
        ev.Fought(hero, slinger, 9, 2, 10, 2, 2, 0),
        ev.Withdrew(hero, (20.0, 21.0)),
        ev.ShotFired(slinger, hero, 5, 5, True, 7.5, False),
        ev.SavingThrow(hero, 2, "wounded"),
        ev.FigureHurt(hero, 1, 1),
        ev.FigureKilled(slinger),
        ev.Recovered(hero, 0),
        ev.ThingPickedUp(hero, 0),
        ev.ThingDropped(hero, 0, (20.0, 21.0)),
        ev.CoinsWon(0, 1, "Svein the slinger went to Valhalla", 3),
        ev.ObjectiveAchieved(0, 0, "Carry the silver hoard back"),
        ev.ActivationEnded(hero),
        ev.TurnEnded(2),
        ev.GameOver(0, "Raiders reached 3 coins (3 needed)"),
    ]
    kinds = {n for n, cls in inspect.getmembers(ev, inspect.isclass) if issubclass(cls, Event)} - {"Event"}
    assert kinds - {e.kind for e in sample} == {"BaggageMoved"}  # skirmish has no baggage: see raid below
    console = Console(record=True, width=200, highlight=False)
    assert print_events(console, state, sample) == []
    text = console.export_text()
    for words in (
        "Turn 2 of 8",
        "A♣ is up: Ulf.",
        "Asa passes the A♦: no figure of this player is left to activate.",
        "Ulf the Bold activates (2 actions).",
        'Ulf the Bold moves to (16, 9), using 6" of movement.',
        "Ulf the Bold crosses the hedge to (16, 17.55).",
        "Ulf the Bold charges Svein the slinger (contact at (22, 21.5)).",
        "Combat: Ulf the Bold rolls 9 (scores 10), Svein the slinger rolls 2 (scores 2): "
        "2 hits on Svein the slinger.",
        "Ulf the Bold withdraws from combat to (20, 21).",
        'Shot at Ulf the Bold (7.5", needs 5+): Svein the slinger rolls 5, a hit.',
        "Dice of Death for Ulf the Bold: 2, wounded.",
        "Ulf the Bold now has 1 shock marker and is wounded.",
        "Svein the slinger goes to Valhalla.",
        "Ulf the Bold recovers from shock (no shock marker left).",
        "Ulf the Bold picks up the silver hoard.",
        "Ulf the Bold drops the silver hoard at (20, 21).",
        "Raiders win 1 coin: Svein the slinger went to Valhalla (3 in all).",
        "Raiders achieve an objective: Carry the silver hoard back.",
        "End of turn 2.",
        "Game over: Raiders win (Raiders reached 3 coins (3 needed)).",
    ):
        assert words in text, words
    # A card dealt and an activation's end are deliberately silent: the hands and the next card say them.
    assert "A♣" not in text.replace("A♣ is up", "")
    raid = game.initial_state(game.load_scenario("raid"))
    mule = next(t for t in raid.things if t.baggage_side == 0)
    console = Console(record=True, width=200, highlight=False)
    print_events(console, raid, [ev.BaggageMoved(mule.id, (mule.at, (20.0, 2.0)))])
    assert "The raiders' mule moves to (20, 2)." in console.export_text()
