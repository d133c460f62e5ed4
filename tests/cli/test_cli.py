"""The ``iwgt`` command line, driven through Typer's CliRunner on ``iwgt.cli.app``.

Covers ``units`` (the Character Attributes Table, VX-16-01), ``scenarios``, ``simulate`` (deterministic for a
seed, finishes every shipped scenario with a result) and ``replay`` (a record reproduces; a tampered or
unreadable record is refused with a readable error, never a Python traceback).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.games.valkyrx.scenario import SCENARIO_DIR

SHIPPED = ("skirmish", "valley", "great_battle")
UNIT_KEYS = {
    "id", "name", "side", "bodies", "move", "charge", "attack", "special", "defence", "range",
    "rate_of_fire", "accuracy", "resist_magic", "melee", "morale", "points",
}  # fmt: skip

runner = CliRunner()


def invoke(*args: str) -> Result:
    # A wide COLUMNS keeps Rich from wrapping error messages (the stderr console sizes itself from it).
    return runner.invoke(app, list(args), env={"COLUMNS": "400"})


def flat(text: str) -> str:
    """Text with every run of whitespace made one space, so wrapped messages still match."""
    return " ".join(text.split())


def assert_clean_failure(result: Result) -> None:
    """A refusal: non-zero exit through typer.Exit/SystemExit, an error message, no traceback."""
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "error" in result.output.lower()


# ------------------------------------------------------------------------------------------------
# units
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def unit_rows() -> list[dict[str, Any]]:
    result = invoke("units", "valkyrx", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert isinstance(rows, list)
    return rows


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in rows}


def test_units_json_has_48_rows_with_exactly_the_table_columns(unit_rows: list[dict[str, Any]]) -> None:
    # VX-16-01: every row of the Character Attributes Table, 23 of the Light and 25 of the Darkness.
    assert len(unit_rows) == 48
    for row in unit_rows:
        assert isinstance(row, dict)
        assert set(row) == UNIT_KEYS, row.get("name")
        assert row["side"] in {"light", "darkness"}
    sides = [r["side"] for r in unit_rows]
    assert (sides.count("light"), sides.count("darkness")) == (23, 25)
    assert len(by_name(unit_rows)) == 48, "unit names must be unique"


def test_units_json_charge_is_null_exactly_for_single_movement_figures(
    unit_rows: list[dict[str, Any]],
) -> None:
    # VX-16-03: the three dragons and Mangere show "12", the Harpies "8": no charge figure.
    single = {r["name"] for r in unit_rows if r["charge"] is None}
    assert len(single) == 5
    assert sum("Dragon of the Ancients" in n for n in single) == 3
    assert any("Mangere" in n for n in single)
    assert "Harpies" in single
    moves = {r["name"]: r["move"] for r in unit_rows if r["charge"] is None}
    assert moves["Harpies"] == 8
    assert all(m == 12 for n, m in moves.items() if n != "Harpies")
    for row in unit_rows:
        if row["charge"] is not None:
            assert isinstance(row["charge"], int) and row["charge"] >= row["move"], row["name"]


# VX-16-01: rows spot-checked against the numbers printed in the rules text
# (/work/shared/seeds/000_9f29f2bdcadaed54.txt, CHARACTER ATTRIBUTES TABLE).
PRINTED = {
    "Môdrôf The Fire King (Mounted)": dict(
        side="light", bodies=1, move=4, charge=6, attack=750, special=100000, defence=25000, range=1,
        rate_of_fire=25, accuracy=25, resist_magic="VH", melee="VH", morale=40, points=2500,
    ),
    "Giant Crossbow War Machine": dict(
        side="darkness", bodies=1, move=1, charge=1, attack=2000, special=0, defence=5000, range=8,
        rate_of_fire=5, accuracy=15, resist_magic="L", melee="VL", morale=20, points=600,
    ),
    "Undead Warriors": dict(
        side="darkness", bodies=300, move=1, charge=2, attack=8, special=0, defence=300, range=1,
        rate_of_fire=10, accuracy=15, resist_magic="VH", melee="A", morale=40, points=2100,
    ),
    "Harpies": dict(
        side="darkness", bodies=90, move=8, charge=None, attack=30, special=0, defence=600, range=1,
        rate_of_fire=15, accuracy=15, resist_magic="H", melee="H", morale=35, points=900,
    ),
    "Archers of Mynsterlif": dict(
        side="light", bodies=300, move=2, charge=2, attack=5, special=0, defence=60, range=3,
        rate_of_fire=15, accuracy=10, resist_magic="L", melee="VL", morale=25, points=900,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(PRINTED))
def test_units_json_rows_match_the_printed_table(unit_rows: list[dict[str, Any]], name: str) -> None:
    rows = by_name(unit_rows)
    assert name in rows, sorted(rows)
    got = {k: v for k, v in rows[name].items() if k not in ("id", "name")}
    assert got == PRINTED[name]


def test_units_json_gives_each_unit_the_id_scenario_files_use(unit_rows: list[dict[str, Any]]) -> None:
    # The ids are the keys of units.toml, the names scenario files give (`unit = "archers"`).
    ids = [r["id"] for r in unit_rows]
    assert len(set(ids)) == 48
    assert next(iter(unit_rows[0])) == "id"
    assert by_name(unit_rows)["Archers of Mynsterlif"]["id"] == "archers"
    assert by_name(unit_rows)["Guardsmen of Mynsterlif"]["id"] == "guardsmen"
    assert '{ unit = "archers"' in SKIRMISH


def test_units_table_without_json() -> None:
    result = invoke("units", "valkyrx")
    assert result.exit_code == 0, result.output
    assert "Môdrôf" in result.stdout
    assert "Harpies" in result.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout)


# ------------------------------------------------------------------------------------------------
# scenarios
# ------------------------------------------------------------------------------------------------


def test_scenarios_lists_the_shipped_scenarios() -> None:
    result = invoke("scenarios", "valkyrx")
    assert result.exit_code == 0, result.output
    for name in SHIPPED:
        assert name in result.stdout


# ------------------------------------------------------------------------------------------------
# simulate
# ------------------------------------------------------------------------------------------------


def simulate(scenario: str, seed: int, *extra: str) -> Result:
    return invoke("simulate", "valkyrx", "--scenario", scenario, "--seed", str(seed), *extra)


def test_simulate_json_prints_one_result_object() -> None:
    result = simulate("skirmish", 5, "--json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    summary = json.loads(lines[0])
    assert isinstance(summary, dict)
    assert {"winner", "turns", "reason", "steps", "scenario", "seed"} <= set(summary)
    assert summary["winner"] in ("light", "darkness", None)
    assert isinstance(summary["turns"], int) and not isinstance(summary["turns"], bool)
    assert summary["turns"] >= 1
    assert summary["scenario"] == "skirmish" and summary["seed"] == 5


def test_simulate_json_is_byte_identical_for_the_same_seed() -> None:
    first = simulate("skirmish", 5, "--json")
    second = simulate("skirmish", 5, "--json")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes


def test_simulate_rich_report_is_byte_identical_for_the_same_seed() -> None:
    first = simulate("skirmish", 5)
    second = simulate("skirmish", 5)
    assert first.exit_code == second.exit_code == 0, first.output
    assert "Game over" in first.stdout
    assert first.stdout_bytes == second.stdout_bytes


def recorded_steps(path: Path) -> list[Any]:
    return json.loads(path.read_text(encoding="utf-8"))["steps"]


def test_a_different_seed_gives_a_different_record(tmp_path: Path) -> None:
    # The record's "seed" field differs trivially, so compare the logged steps (actions, faces, digests).
    def steps(seed: int) -> list[Any]:
        path = tmp_path / f"seed{seed}.json"
        result = simulate("skirmish", seed, "--json", "--record", str(path))
        assert result.exit_code == 0, result.output
        return recorded_steps(path)

    base = steps(5)
    assert any(steps(seed) != base for seed in (1, 2, 3))


@pytest.mark.parametrize("scenario", SHIPPED)
def test_simulate_finishes_every_shipped_scenario_with_a_result(scenario: str) -> None:
    # Acceptance check: "simulate finishes every shipped scenario with a result".
    result = simulate(scenario, 1, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scenario"] == scenario
    assert summary["winner"] in ("light", "darkness", None)
    assert isinstance(summary["reason"], str) and summary["reason"]
    assert summary["turns"] >= 1 and summary["steps"] >= 1


def test_unknown_scenario_name_lists_the_shipped_names() -> None:
    result = simulate("no_such_battle", 1, "--json")
    assert_clean_failure(result)
    text = flat(result.output)
    assert "no_such_battle" in text
    for name in SHIPPED:
        assert name in text


SKIRMISH = (SCENARIO_DIR / "skirmish.toml").read_text(encoding="utf-8")
FIRST_LIGHT = '{ unit = "archers", cell = [3, 0] }'


@pytest.mark.parametrize(
    ("label", "old", "new", "key", "words"),
    [
        ("unknown_unit", FIRST_LIGHT, FIRST_LIGHT.replace("archers", "dragonfly"), "army.light.0.unit",
         ["dragonfly"]),
        ("off_board", FIRST_LIGHT, '{ unit = "archers", cell = [30, 0] }', "army.light.0", ["off the"]),
        ("over_points", "points_limit = 9000", "points_limit = 8000", "army.light", ["8000", "VX-06-02"]),
        ("wrong_type", "width = 12", 'width = "twelve"', "width", []),
    ],
)  # fmt: skip
def test_broken_scenario_file_names_the_file_and_the_key(
    tmp_path: Path, label: str, old: str, new: str, key: str, words: list[str]
) -> None:
    assert old in SKIRMISH
    path = tmp_path / f"broken_{label}.toml"
    path.write_text(SKIRMISH.replace(old, new, 1), encoding="utf-8")
    result = simulate(str(path), 1, "--json")
    assert_clean_failure(result)
    text = flat(result.output)
    assert path.name in text
    assert key in text
    for word in words:
        assert word in text


# ------------------------------------------------------------------------------------------------
# replay
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("record") / "skirmish_seed5.json"
    result = simulate("skirmish", 5, "--json", "--record", str(path))
    assert result.exit_code == 0, result.output
    return path


def tampered(record_file: Path, tmp_path: Path, change: Any) -> Path:
    data = json.loads(record_file.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def first_move(data: dict[str, Any]) -> int:
    return next(i for i, s in enumerate(data["steps"]) if s["action"].get("type") == "move")


def test_replay_of_a_simulated_record_reproduces(record_file: Path) -> None:
    result = invoke("replay", str(record_file))
    assert result.exit_code == 0, result.output
    assert "reproduce" in result.stdout
    assert str(len(recorded_steps(record_file))) in result.stdout


def test_replay_refuses_a_move_to_a_far_away_cell(record_file: Path, tmp_path: Path) -> None:
    index = -1

    def change(data: dict[str, Any]) -> None:
        nonlocal index
        index = first_move(data)
        step = data["steps"][index]
        # Turn 1: the Light stands on rows 0-1 and the Darkness on rows 7-8 of the 12x9 board, so the far
        # corner of the other side is at least 7 cells away, beyond any charge of the skirmish armies.
        step["action"]["to"] = [11, 8] if step["seat"] == 0 else [0, 0]

    result = invoke("replay", str(tampered(record_file, tmp_path, change)))
    assert_clean_failure(result)
    assert f"step {index}" in flat(result.output)


def test_replay_refuses_a_move_onto_an_occupied_cell(record_file: Path, tmp_path: Path) -> None:
    index = -1

    def change(data: dict[str, Any]) -> None:
        nonlocal index
        index = first_move(data)
        step = data["steps"][index]
        # The first move of turn 1: the other side has not moved yet, so its first unit stands on its
        # scenario cell (VX-04-24: one unit per cell).
        army = tomllib.loads(data["scenario"]["toml"])["army"]
        other = ("light", "darkness")[1 - step["seat"]]
        step["action"]["to"] = list(army[other][0]["cell"])

    result = invoke("replay", str(tampered(record_file, tmp_path, change)))
    assert_clean_failure(result)
    text = flat(result.output)
    assert f"step {index}" in text
    assert "occupied" in text


def test_replay_refuses_an_altered_digest(record_file: Path, tmp_path: Path) -> None:
    index = -1

    def change(data: dict[str, Any]) -> None:
        nonlocal index
        index = len(data["steps"]) // 2
        data["steps"][index]["digest"] = "0" * len(data["steps"][index]["digest"])

    result = invoke("replay", str(tampered(record_file, tmp_path, change)))
    assert_clean_failure(result)
    text = flat(result.output)
    assert f"step {index}" in text
    assert "digest" in text


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("no_such_record.json", None),  # missing
        ("not_a_record.json", "this is not JSON {\n"),
        ("list.json", "[1, 2, 3]\n"),  # JSON, but not a record
    ],
)
def test_replay_of_a_file_that_is_not_a_record_is_a_readable_error(
    tmp_path: Path, name: str, content: str | None
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = invoke("replay", str(path))
    assert_clean_failure(result)
    assert path.name in flat(result.output)


def test_replay_of_a_record_of_an_unknown_game_is_a_readable_error(record_file: Path, tmp_path: Path) -> None:
    result = invoke("replay", str(tampered(record_file, tmp_path, lambda d: d.update(game="chess"))))
    assert_clean_failure(result)
    assert "chess" in flat(result.output)


def test_replay_of_a_truncated_record_does_not_reproduce_its_result(
    record_file: Path, tmp_path: Path
) -> None:
    def change(data: dict[str, Any]) -> None:
        assert data["result"] is not None
        del data["steps"][len(data["steps"]) // 2 :]

    result = invoke("replay", str(tampered(record_file, tmp_path, change)))
    assert result.exit_code != 0, result.output


def test_replay_of_a_binary_file_is_a_readable_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00binary")
    result = invoke("replay", str(path))
    assert_clean_failure(result)
    assert path.name in flat(result.output)


def test_a_scenario_path_that_does_not_exist_says_so(tmp_path: Path) -> None:
    for ref in ("./nope.toml", str(tmp_path / "absent.toml"), "battles/ford"):
        result = simulate(ref, 1, "--json")
        assert_clean_failure(result)
        assert flat(result.output) == f"error: no such file: {ref}"


def test_a_bare_name_that_is_neither_a_scenario_nor_a_file_lists_the_shipped_ones() -> None:
    result = simulate("nope", 1)
    assert result.exit_code == 2
    names = ", ".join(sorted(p.stem for p in SCENARIO_DIR.glob("*.toml")))
    assert (
        flat(result.output)
        == f"error: no shipped scenario or file called 'nope'; the shipped scenarios: {names}"
    )


def test_a_scenario_error_reads_as_the_readme_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's example, word for word: the file, the key, and what is wrong, without jargon."""
    monkeypatch.chdir(tmp_path)
    Path("ford.toml").write_text(SKIRMISH.replace(FIRST_LIGHT, FIRST_LIGHT.replace("archers", "dragonfly")))
    result = simulate("ford.toml", 1)
    assert result.exit_code == 2
    said = "ford.toml, army.light.0.unit: unknown unit type 'dragonfly' (see `iwgt units valkyrx`)"
    assert flat(result.output) == f"error: {said}"
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"`{said}`" in flat(readme)
    # A syntax error: the third line holds "width = = 12".
    Path("ford.toml").write_text('name = "ford"\ntitle = "Ford"\nwidth = = 12\n')
    result = simulate("ford.toml", 1)
    assert flat(result.output) == "error: ford.toml is not valid TOML: line 3, column 9: Invalid value"


def test_a_scenario_folder_is_not_a_file(tmp_path: Path) -> None:
    result = simulate(str(tmp_path), 1)
    assert flat(result.output) == f"error: {tmp_path} is a folder, not a TOML file"


@pytest.mark.parametrize("kind", ["directory", "binary"])
def test_unreadable_scenario_path_is_a_readable_error(tmp_path: Path, kind: str) -> None:
    if kind == "directory":
        path = tmp_path / "a_directory.toml"
        path.mkdir()
    else:
        path = tmp_path / "binary.toml"
        path.write_bytes(b"\xff\xfe\x00binary")
    result = simulate(str(path), 1, "--json")
    assert_clean_failure(result)
    assert path.name in flat(result.output)
