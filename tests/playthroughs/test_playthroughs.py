"""Every registered game's every shipped scenario has a playthrough golden, and plays it again exactly.

Each case regenerates its playthrough in memory (``playthrough.py``) and compares it with the committed file;
with ``IWGT_REGEN_PLAYTHROUGHS=1`` it writes the file instead (and passes). A game registered without
goldens fails here with the command that writes them; a golden left behind by a scenario or game that is
gone fails too, so that the folder says what is played.
"""

from __future__ import annotations

import difflib
import json
import os
from typing import Any

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.core.registry import game_names, get_game

from .playthrough import GOLDEN_DIR, REGEN_COMMAND, REGEN_ENV, cap_of, diff, flatten, golden_path, playthrough

REGEN = os.environ.get(REGEN_ENV) == "1"
CASES = [
    pytest.param(game, scenario, id=f"{game}-{scenario}")
    for game in game_names()
    for scenario in get_game(game).scenario_names()
]
SHOWN = 12
"""Differing lines shown when a playthrough no longer matches its golden."""


@pytest.mark.parametrize(("game", "scenario"), CASES)
def test_playthrough_matches_its_golden(game: str, scenario: str) -> None:
    text = playthrough(game, scenario)
    path = golden_path(game, scenario)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(
            f"{game} / {scenario} has no playthrough golden ({path.relative_to(GOLDEN_DIR.parents[2])}): "
            f"write it with `{REGEN_COMMAND}`, review it and commit it"
        )
    golden = path.read_text(encoding="utf-8")
    if text != golden:
        lines = list(
            difflib.unified_diff(golden.splitlines(), text.splitlines(), "golden", "now", n=2, lineterm="")
        )
        shown = "\n".join(line[:200] for line in lines[: SHOWN + 4])
        pytest.fail(
            f"the playthrough of {game} / {scenario} differs from {path.name} (first differences below). "
            f"If the change is meant, regenerate with `{REGEN_COMMAND}`, review the diff and commit it."
            f"\n{shown}",
            pytrace=False,
        )


@pytest.mark.parametrize("game", game_names())
def test_every_registered_game_has_goldens(game: str) -> None:
    """A game registered (an entry point, or a test's own ``register``) must ship its playthroughs."""
    if REGEN:
        return
    missing = [s for s in get_game(game).scenario_names() if not golden_path(game, s).is_file()]
    assert not missing, (
        f"game {game!r} is registered but has no playthrough golden for {', '.join(missing)}: "
        f"write them with `{REGEN_COMMAND}`, review and commit them"
    )


def test_no_golden_is_left_behind() -> None:
    """Every golden file belongs to a registered game's shipped scenario."""
    expected = {golden_path(g, s) for g in game_names() for s in get_game(g).scenario_names()}
    stray = sorted(p for p in GOLDEN_DIR.glob("*/*.txt") if p not in expected)
    assert not stray, f"goldens of no registered game or scenario (delete them): {[str(p) for p in stray]}"


def test_goldens_state_their_cap_and_stay_small() -> None:
    """The header states the cap; all the goldens together stay reviewable (about 3 MB at most)."""
    total = 0
    for g in game_names():
        for s in get_game(g).scenario_names():
            path = golden_path(g, s)
            if not path.is_file():
                continue  # reported by test_every_registered_game_has_goldens
            text = path.read_text(encoding="utf-8")
            assert f"# Capped at {cap_of(g, s)} steps" in text
            total += len(text.encode())
    assert total < 3_000_000, f"the goldens weigh {total} bytes: lower the caps in playthrough.py"


def test_key_path_diff() -> None:
    """The observation diff by hand: objects and lists of objects are opened, other lists are leaves."""
    before = {"turn": 1, "units": [{"id": 0, "cell": [1, 2]}, {"id": 1, "cell": [3, 4]}], "log": [1], "x": {}}
    after = {"turn": 2, "units": [{"id": 0, "cell": [1, 3]}], "log": [1, 2], "y": {"a": True}}
    assert list(flatten(after)) == [
        ("turn", "2"),
        ("units.0.id", "0"),
        ("units.0.cell", "[1,3]"),
        ("log", "[1,2]"),
        ("y.a", "true"),
    ]
    assert diff(before, after) == [
        "= turn 2",
        "= units.0.cell [1,3]",
        "= log [1,2]",
        "= y.a true",
        "- units.1.id",
        "- units.1.cell",
        "- x",
    ]
    assert diff(after, after) == []
    # A leaf opened into keys is replaced (its keys are written); keys closed into a leaf are gone.
    assert diff({"result": None}, {"result": {"side": 1}}) == ["= result.side 1"]
    assert diff({"result": {"side": 1}}, {"result": None}) == ["= result null", "- result.side"]


def _apply(flat: dict[str, str], change: str) -> None:
    """One ``= path json`` or ``- path`` line onto a flattened observation."""
    op, _, rest = change.partition(" ")
    path, _, value = rest.partition(" ")
    if op == "=":
        for parent in [path[:i] for i, ch in enumerate(path) if ch == "."]:
            flat.pop(parent, None)  # a leaf opened into keys
        flat[path] = value
    else:
        assert op == "-", change
        del flat[path]


def rebuild(text: str) -> list[tuple[Any, dict[Any, dict[str, str]]]]:
    """Each step's action (a JSON action, a die's face, or None at the end) and every observer's flattened
    observation before it, read back from a golden by the rules its docstring states."""
    out: list[tuple[Any, dict[Any, dict[str, str]]]] = []
    views: dict[Any, dict[str, str]] = {}
    block: list[str] = []

    def close(action: Any) -> None:
        spectator = [line[len("obs None ") :] for line in block if line.startswith("obs None ")]
        seats = sorted(
            {int(line.split(" ")[1]) for line in block if line.startswith("obs ") and "None" not in line}
            | (header_seats if not out else set())
        )
        for seat in [*views.keys() - {None}, *seats]:
            views.setdefault(seat, {})
        for seat in views:
            if seat is None:
                continue
            own = [line[len(f"obs {seat} ") :] for line in block if line.startswith(f"obs {seat} ")]
            missed = {c[len("not ") :] for c in own if c.startswith("not ")}
            for c in [c for c in spectator if c not in missed] + [c for c in own if not c.startswith("not ")]:
                _apply(views[seat], c)
        views.setdefault(None, {})
        for c in spectator:
            _apply(views[None], c)
        out.append((action, {k: dict(v) for k, v in views.items()}))

    # Every seat of the header observes from step 0, even one that sees just what the spectator sees then (a
    # game without hidden information writes no lines for it until its own view first differs).
    header_seats: set[int] = set()
    for raw in text.splitlines():
        if raw.startswith("# Seats: "):
            header_seats = {int(part.strip().split(" ", 1)[0]) for part in raw[len("# Seats: ") :].split(";")}
    action: Any = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("step ") or line == "end":
            if block or out:
                close(action)
            block, action = [], None
        elif line.startswith("obs "):
            block.append(line)
        elif line.startswith("action "):
            action = json.loads(line[len("action ") :])
        elif line.startswith("die "):
            action = int(line.rsplit(" ", 1)[1])
    close(action)
    return out


@pytest.mark.parametrize("game", game_names())
def test_a_golden_rebuilds_every_observation(game: str) -> None:
    """Read back by its stated format, the golden of the game's first scenario gives, at every step, each
    seat's and the spectator's observation exactly as the game gives it in the position its steps reach."""
    g = get_game(game)
    scenario = g.scenario_names()[0]
    path = golden_path(game, scenario)
    if not path.is_file():
        pytest.skip("no golden yet (test_every_registered_game_has_goldens says so)")
    state = g.initial_state(g.load_scenario(scenario))
    seats = len(g.seats(g.load_scenario(scenario)))
    steps = rebuild(path.read_text(encoding="utf-8"))
    for n, (action, views) in enumerate(steps):
        assert set(views) == {None, *range(seats)}
        for seat, flat in views.items():
            assert flat == dict(flatten(g.observe(state, seat))), f"step {n}, observer {seat}"
        if action is not None:
            step = ChanceOutcome(action) if isinstance(action, int) else g.action_from_json(action)
            state, _ = g.apply(state, step)
