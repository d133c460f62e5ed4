"""Golden playthroughs: seeded battles between the heuristic bots, compared with committed JSON files.

Each case runs ``iwgt simulate valkyrx --scenario NAME --seed N --json --record FILE`` as a user would,
replays the record to get the final state (checking every step's digest on the way), and compares with
``golden/<scenario>_seed<N>.json``:

* the summary: winner, reason, turns and steps;
* the final report of every unit: id, type, status, strength and morale (rounded to 1 decimal), and cell
  (odd-r offset ``[col, row]``).

A change to a rule, a decided number (data/rules.toml), a unit row, a scenario or the bot changes these
files: that is the point. Review the diff, then regenerate the files and commit them with the change::

    IWGT_REGEN_GOLDEN=1 .venv/bin/pytest tests/games/valkyrx/test_golden.py

With ``IWGT_REGEN_GOLDEN=1`` the test writes the files instead of comparing (and passes). Each unit sits on
one line of its file, so a review diff shows exactly which units ended differently.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.record import GameRecord, replay
from iwgt.games.valkyrx.game import RULES_VERSION
from iwgt.geometry.hexgrid import hex_to_offset

GOLDEN_DIR = Path(__file__).parent / "golden"
REGEN = os.environ.get("IWGT_REGEN_GOLDEN") == "1"
CASES = [
    ("skirmish", 1),
    ("skirmish", 2),
    ("skirmish", 3),
    ("valley", 1),
    ("great_battle", 1),
    ("sorcery", 1),
    ("reinforcements", 1),
]
SUMMARY_KEYS = ("winner", "reason", "turns", "steps")


def play(scenario: str, seed: int, tmp_path: Path) -> dict[str, Any]:
    """Run the CLI like a user, then rebuild the final state from the record it saved."""
    record_path = tmp_path / "record.json"
    args = ["simulate", "valkyrx", "--scenario", scenario, "--seed", str(seed), "--json"]
    result = CliRunner().invoke(app, [*args, "--record", str(record_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    record = GameRecord.load(record_path)
    assert summary["steps"] == len(record.steps)
    final = replay(record).state
    units = [
        {
            "id": u.id,
            "type": u.type_id,
            "status": u.status,
            "strength": round(u.strength, 1),
            "morale": round(u.morale, 1),
            "cell": list(hex_to_offset(u.cell)),
        }
        for u in final.units
    ]
    return {
        "scenario": scenario,
        "seed": seed,
        "rules_version": RULES_VERSION,
        "summary": {k: summary[k] for k in SUMMARY_KEYS},
        "units": units,
    }


def dump(data: dict[str, Any]) -> str:
    """Stable JSON with one unit per line, for reviewable diffs."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = [f" {one(k)}: {one(data[k])}," for k in ("scenario", "seed", "rules_version", "summary")]
    units = ",\n".join(f"  {one(u)}" for u in data["units"])
    return "{\n" + "\n".join(head) + '\n "units": [\n' + units + "\n ]\n}\n"


@pytest.mark.parametrize(("scenario", "seed"), CASES, ids=[f"{s}-seed{n}" for s, n in CASES])
def test_golden_playthrough(scenario: str, seed: int, tmp_path: Path) -> None:
    path = GOLDEN_DIR / f"{scenario}_seed{seed}.json"
    got = play(scenario, seed, tmp_path)
    if REGEN:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(dump(got), encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; generate it with IWGT_REGEN_GOLDEN=1 (see the docstring)"
    want = json.loads(path.read_text(encoding="utf-8"))
    hint = f"{path.name} differs: review the change, then regenerate with IWGT_REGEN_GOLDEN=1"
    assert got["rules_version"] == want["rules_version"], hint
    assert got["summary"] == want["summary"], hint
    assert got["units"] == want["units"], hint


def test_golden_files_round_trip() -> None:
    """The writer's layout parses back to the same data (so regenerated files compare equal)."""
    sample = {
        "scenario": "skirmish",
        "seed": 1,
        "rules_version": RULES_VERSION,
        "summary": {"winner": None, "reason": "Ψεύδος", "turns": 1, "steps": 2},
        "units": [
            {"id": 0, "type": "archers", "status": "active", "strength": 1.5, "morale": -0.5, "cell": [0, 1]}
        ],
    }
    assert json.loads(dump(sample)) == sample
