"""``iwgt simulate warquest --players N --seed S --json`` (issue 15 section 6): the shared ``--players``
option seats N warlords through the game's ``players`` setup option, the game is played to its end by the
bots, the same seed gives the same game, and a count the scenario's map cannot seat is refused in one
line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app

runner = CliRunner()


def simulate(*args: str) -> Result:
    """``iwgt simulate warquest ...`` in-process."""
    return runner.invoke(app, ["simulate", "warquest", *args], env={"COLUMNS": "400"})


def summary(*args: str) -> dict[str, Any]:
    result = simulate(*args, "--json")
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_players_seats_that_many_warlords_to_the_end(players: int) -> None:
    out = summary("--scenario", "short", "--players", str(players), "--seed", "3")
    assert out["game"] == "warquest" and out["scenario"] == "short"
    assert len(out["vp"]) == players and len(out["gold"]) == players
    assert out["reason"] and out["winner"] is not None
    assert out["rounds"] <= 6  # the short scenario's rounds (WQ-MS-39 designed)


def test_the_same_seed_gives_the_same_game() -> None:
    first = simulate("--scenario", "short", "--players", "4", "--seed", "8", "--json")
    second = simulate("--scenario", "short", "--players", "4", "--seed", "8", "--json")
    assert first.exit_code == 0 and first.stdout == second.stdout


def test_rounds_as_a_setup_option() -> None:
    out = summary("--scenario", "three_warlords", "--option", "rounds=6", "--seed", "3")
    assert out["rounds"] <= 6 and len(out["vp"]) == 3


def test_a_count_the_map_cannot_seat_is_refused_in_one_line() -> None:
    result = simulate("--scenario", "duel", "--players", "4", "--json")
    assert result.exit_code == 2
    assert (
        result.output.strip()
        == "error: setup option 'players': the map 'marches' seats 2 to 2 warlords, not 4"
    )
    result = simulate("--players", "6", "--json")
    assert result.exit_code == 2
    assert result.output.strip().startswith(
        "error: setup option 'players' must be one of scenario, 2, 3, 4, 5"
    )


def test_the_report_is_a_spectator_s_and_the_same_for_the_same_seed_wq_su_08() -> None:
    """The turn-by-turn report names no card of a secret hand: only how many were dealt."""
    first = simulate("--scenario", "short", "--seed", "2")
    second = simulate("--scenario", "short", "--seed", "2")
    assert first.exit_code == 0 and first.stdout == second.stdout
    text = " ".join(first.stdout.split())
    assert "The Red Warlord is dealt 2 quest cards." in text
    assert "is dealt the quest cards" not in text and "draws the quest card" not in text
    assert "Round 1 of 6" in text


@pytest.mark.parametrize(("players", "scenario"), [(2, "duel"), (3, "short"), (5, "five_warlords")])
def test_without_a_scenario_players_picks_the_first_made_for_them(players: int, scenario: str) -> None:
    """`iwgt simulate warquest --players N` (the README's example): the first scenario (by name) made for N
    warlords, so the two-player duel that sorts first does not refuse three."""
    out = summary("--players", str(players), "--seed", "2", "--option", "rounds=6")
    assert out["scenario"] == scenario
    assert len(out["vp"]) == players


def test_the_winner_is_named_by_the_colour_of_the_seat() -> None:
    """A headless game's summary names the winning warlord by colour, as the seats are named (the Red
    Warlord is "red"), not by a bare seat number."""
    out = summary("--players", "3", "--seed", "1")
    assert out["winner"] in ("red", "blue", "green")
    assert out["winner"] in out["reason"].lower() or "victory points" in out["reason"]
