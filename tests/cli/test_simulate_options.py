"""The shared ``iwgt simulate`` options ``--players N`` and ``--option KEY=VALUE``: game-neutral, they go
through the game's own setup options (``GamePlugin.setup_options`` / ``configure``); a game without a
``players`` option refuses ``--players`` in one line naming its fixed seat count; a bad ``--option`` is
refused by name."""

from __future__ import annotations

import json

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app, setup_choices
from iwgt.core.errors import MalformedAction
from iwgt.core.plugin import GamePlugin, SetupOption
from iwgt.core.protocol import GameFacts

runner = CliRunner()


def invoke(*args: str) -> Result:
    """The command line in-process, wide enough that no message wraps."""
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


def one_line_error(result: Result) -> str:
    """The refusal's single line (exit 2, no traceback)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


class Seated(GamePlugin):
    """A game-free plug-in with a ``players`` option (2 to 4) and a ``length`` option."""

    facts = GameFacts("seated", "Seated", "a test game", "abstract", 2, 4, "seated-1")

    def setup_options(self) -> tuple[SetupOption, ...]:
        """Players and length."""
        return (
            SetupOption(
                "players", "Players", (("scenario", "as written"), ("2", "2"), ("3", "3")), "scenario"
            ),
            SetupOption("length", "Length", (("short", "short"), ("long", "long")), "short"),
        )


class Fixed(GamePlugin):
    """A game-free plug-in without setup options."""

    facts = GameFacts("fixed", "Fixed Game", "a test game", "abstract", 2, 2, "fixed-1")


def test_players_and_options_become_the_game_s_setup_choices() -> None:
    assert setup_choices(Seated(), 2, 3, ["length=long"]) == {"players": "3", "length": "long"}
    assert setup_choices(Seated(), 2, None, ["players=2"]) == {"players": "2"}
    assert setup_choices(Seated(), 2, None, []) == {}


def test_a_players_count_the_game_does_not_offer_is_refused_by_its_option() -> None:
    with pytest.raises(
        MalformedAction, match=r"setup option 'players' must be one of scenario, 2, 3, got '5'"
    ):
        setup_choices(Seated(), 2, 5, [])


def test_players_twice_and_disagreeing_is_refused() -> None:
    with pytest.raises(MalformedAction, match="--players 3 and --option players=2 disagree"):
        setup_choices(Seated(), 2, 3, ["players=2"])
    assert setup_choices(Seated(), 2, 3, ["players=3"]) == {"players": "3"}


def test_a_game_without_a_players_option_names_its_fixed_seats() -> None:
    with pytest.raises(MalformedAction) as caught:
        setup_choices(Fixed(), 2, 3, [])
    assert caught.value.message == "--players: Fixed Game seats a fixed 2 players (its scenario's seats)"


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("length", "--option 'length': write a setup option as KEY=VALUE"),
        ("=long", "--option '=long': write a setup option as KEY=VALUE"),
        ("colour=red", "unknown setup option 'colour'; this game's options: length, players"),
        ("length=medium", "setup option 'length' must be one of short, long, got 'medium'"),
    ],
)
def test_a_malformed_or_unknown_option_is_refused_by_name(given: str, said: str) -> None:
    with pytest.raises(MalformedAction) as caught:
        setup_choices(Seated(), 2, None, [given])
    assert caught.value.message == said


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(MalformedAction, match="--option 'length' is given twice"):
        setup_choices(Seated(), 2, None, ["length=short", "length=long"])


def test_simulate_refuses_players_for_a_two_player_game_in_one_line() -> None:
    line = one_line_error(invoke("simulate", "coloured-dice", "--players", "3", "--json"))
    title = "Coloured-Dice Fantasy Battle Rules"
    assert line == f"error: --players: {title} seats a fixed 2 players (its scenario's seats)"


def test_simulate_refuses_an_unknown_option_in_one_line() -> None:
    line = one_line_error(invoke("simulate", "coloured-dice", "--option", "colour=red", "--json"))
    assert line == "error: unknown setup option 'colour'; this game's options: first, rounds"


def test_simulate_plays_with_a_game_s_own_option() -> None:
    """The Coloured-Dice rules' ``rounds`` option (CD-MS-02): four rounds instead of the scenario's six."""
    result = invoke("simulate", "coloured-dice", "--seed", "3", "--json", "--option", "rounds=4")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["turns"] <= 4 and "(4)" in summary["reason"]
