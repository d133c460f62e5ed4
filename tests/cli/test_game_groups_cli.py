"""``iwgt odds|units|spells <game>``: a game without that command is told which games have it, in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.registry import game_names

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["odds", "valkyrx"],
            "error: valkyrx has no odds; games with odds: anvil, coloured-dice, valhalla, warquest",
        ),
        (
            ["odds", "valkyrx", "combat"],
            "error: valkyrx has no odds; games with odds: anvil, coloured-dice, valhalla, warquest",
        ),
        (
            ["units", "valhalla"],
            "error: valhalla has no units; games with units: anvil, coloured-dice, valkyrx, warquest",
        ),
        (["spells", "valhalla", "--json"], "error: valhalla has no spells; games with spells: valkyrx"),
        (
            ["odds", "chess"],
            "error: there is no game 'chess'; games with odds: anvil, coloured-dice, valhalla, warquest",
        ),
    ],
)
def test_a_game_without_the_command_names_the_games_that_have_it(args: list[str], line: str) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 2
    assert result.output.strip() == line
    assert "No such command" not in result.output


def test_a_game_with_the_command_still_runs_it() -> None:
    result = runner.invoke(app, ["odds", "valhalla", "shoot", "--range", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("{")
    result = runner.invoke(app, ["units", "valkyrx", "--json"])
    assert result.exit_code == 0, result.output


def test_a_group_alone_still_shows_its_help() -> None:
    result = runner.invoke(app, ["odds"])
    assert "valhalla" in result.output
    assert "error" not in result.output.lower()


def test_the_readme_quotes_the_message_as_printed() -> None:
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8").split())
    printed = runner.invoke(app, ["odds", "valkyrx"], env={"COLUMNS": "400"}).output.strip()
    assert (
        printed.removeprefix("error: ")
        == "valkyrx has no odds; games with odds: anvil, coloured-dice, valhalla, warquest"
    )
    assert f"`{printed.removeprefix('error: ')}`" in readme


@pytest.mark.parametrize("command", ["scenarios", "simulate"])
def test_an_unknown_game_is_one_line_naming_the_games(command: str) -> None:
    result = runner.invoke(app, [command, "chess"], env={"COLUMNS": "400"})
    assert result.exit_code == 2
    # Other tests may register a game of their own: the list is the registry's, valhalla and valkyrx among it.
    names = game_names()
    assert {"valhalla", "valkyrx"} <= set(names)
    assert result.output == f"error: unknown game 'chess'; the games on this table are: {', '.join(names)}\n"
