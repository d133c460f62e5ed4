"""Pig plugs in without touching a shared file: it is found only through its ``iwgt.games`` entry point, it
imports nothing of iwgt but the core, and the server and the command line list it like any other game."""

from __future__ import annotations

import ast
import configparser
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

from tests.server.kit import serving
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.registry import ENTRY_POINT_GROUP, game_names, get_plugin
from iwgt.table.plain import PlainTable, table_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "iwgt-pig"
PACKAGE = EXAMPLE / "src" / "iwgt_pig"


def test_pig_is_registered_by_its_own_distributions_entry_point() -> None:
    (ep,) = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == "pig"]
    assert ep.value == "iwgt_pig.plugin:plugin"
    assert ep.dist is not None and ep.dist.name == "iwgt-example-pig"
    assert game_names() == sorted({"pig", "valhalla", "valkyrx", *game_names()})
    plugin = get_plugin("pig")
    assert plugin is ep.load() and plugin.facts.geometry == "abstract"


def test_the_committed_registration_says_what_the_examples_pyproject_says() -> None:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["entry-points"]["iwgt.games"]
    (info,) = (EXAMPLE / "registration").glob("*.dist-info")
    assert info.name == f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    committed = configparser.ConfigParser()
    committed.read(info / "entry_points.txt", encoding="utf-8")
    assert committed.sections() == ["iwgt.games"]
    assert dict(committed["iwgt.games"]) == declared == {"pig": "iwgt_pig.plugin:plugin"}


def test_no_shared_file_names_the_example() -> None:
    shared = [ROOT / "pyproject.toml", *sorted((ROOT / "src").rglob("*.py")), *(ROOT / "src").rglob("*.js")]
    assert len(shared) > 50
    for path in shared:
        assert "iwgt_pig" not in path.read_text(encoding="utf-8"), path


def test_the_example_imports_nothing_of_iwgt_but_the_core() -> None:
    seen: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            seen.update(n for n in names if n.startswith("iwgt"))
    assert {n for n in seen if n.startswith("iwgt.")} <= {
        "iwgt.core.chance",
        "iwgt.core.datafiles",
        "iwgt.core.errors",
        "iwgt.core.plugin",
        "iwgt.core.protocol",
    }
    assert "iwgt.core.protocol" in seen and "iwgt_pig.rules" in seen


def test_without_an_adapter_the_table_offers_the_legal_actions_as_they_are() -> None:
    plugin = get_plugin("pig")
    assert plugin.table() is None and plugin.catalogue() is None and plugin.commands() == {}
    table = table_of(plugin)
    assert isinstance(table, PlainTable)
    game = plugin.game
    state = game.initial_state(game.load_scenario("first_to_30"))
    assert table.options(game, state, 0) == {"movable": [], "actions": [{"type": "roll"}]}
    assert table.options(game, state, 1) == {"movable": [], "actions": []}
    refused = table.preview(game, state, 0, {"type": "hold"})
    assert refused["legal"] is False and "roll at least once" in refused["reason"]


def test_the_game_selection_lists_pig_with_its_scenarios_and_serves_its_screen(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        cards = {card["name"]: card for card in c.get("/api/games").json()}
        screen = c.get("/static/games/pig/screen.js")
        data = c.get("/api/games/pig/data")
    card = cards["pig"]
    assert card["playable"] is True and card["screen"] is True and card["movement_timer"] is False
    assert card["title"] == "Pig" and card["facts"]["geometry"] == "abstract"
    assert card["facts"]["players"] == [2, 6]
    scenarios = {s["name"]: s for s in card["scenarios"]}
    assert scenarios["first_to_30"]["seat_names"] == ["Anna", "Bruno"]
    assert scenarios["race_to_50"]["seat_names"] == ["Anna", "Bruno", "Carla"]
    assert card["seat_names"] == ["Anna", "Bruno"]
    assert screen.status_code == 200 and "export class Screen" in screen.text
    assert data.status_code == 404  # no catalogue: nothing to draw choices from


def test_iwgt_games_and_scenarios_list_pig() -> None:
    runner = CliRunner()
    games = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert games.exit_code == 0, games.output
    assert "pig  Pig  (rules pig-1.0)" in games.output.splitlines()
    scenarios = runner.invoke(app, ["scenarios", "pig"], env={"COLUMNS": "200"})
    assert scenarios.exit_code == 0, scenarios.output
    assert "first_to_30" in scenarios.output and "3 players, first to 50" in scenarios.output
