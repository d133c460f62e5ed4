"""The log is the game: a record is the save file, the replay, the bug report and the golden test."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iwgt.core.chance import RNG_ALGORITHM
from iwgt.core.errors import RecordError
from iwgt.core.protocol import JSON, Event
from iwgt.core.referee import Referee, Step
from iwgt.core.registry import get_game

__all__ = ["RECORD_FORMAT", "GameRecord", "Replay", "Step", "replay"]

RECORD_FORMAT = 1


@dataclass(slots=True)
class GameRecord:
    """Game, rules version, scenario text, seed, dice and every action: enough to rebuild every state."""

    game: str
    rules_version: str
    scenario_name: str
    scenario_toml: str
    seed: int | None
    dice: str
    rng: str = RNG_ALGORITHM
    steps: list[Step] = field(default_factory=list)
    result: JSON | None = None

    def to_json(self) -> JSON:
        """The record as JSON."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "rng": self.rng,
            "dice": self.dice,
            "seed": self.seed,
            "scenario": {"name": self.scenario_name, "toml": self.scenario_toml},
            "steps": [s.to_json() for s in self.steps],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any, origin: str = "record") -> GameRecord:
        """A record from JSON, with a clear error naming the missing or mistyped key (and step)."""
        if not isinstance(data, dict):
            raise RecordError(f"{origin}: expected a JSON object")
        fmt = data.get("format")
        if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt != RECORD_FORMAT:
            raise RecordError(f"{origin}: 'format' must be {RECORD_FORMAT}, got {data.get('format')!r}")
        for key in ("game", "rules_version", "scenario", "dice", "steps"):
            if key not in data:
                raise RecordError(f"{origin}: missing key {key!r}")
        scen = data["scenario"]
        if not isinstance(scen, dict):
            raise RecordError(f"{origin}: 'scenario' must be an object with the texts 'name' and 'toml'")
        for key in ("name", "toml"):
            if key not in scen:
                raise RecordError(f"{origin}: missing key {key!r} in 'scenario'")
            if not isinstance(scen[key], str):
                raise RecordError(f"{origin}: 'scenario' {key!r} must be a text, got {scen[key]!r}")
        seed = data.get("seed")
        if seed is not None and not _whole(seed):
            raise RecordError(f"{origin}: 'seed' must be a whole number or null, got {seed!r}")
        if not isinstance(data["steps"], list):
            raise RecordError(f"{origin}: 'steps' must be a list of steps, got {data['steps']!r}")
        return cls(
            game=str(data["game"]),
            rules_version=str(data["rules_version"]),
            scenario_name=scen["name"],
            scenario_toml=scen["toml"],
            seed=seed,
            dice=str(data["dice"]),
            rng=str(data.get("rng", RNG_ALGORITHM)),
            steps=[_step(i, s, origin) for i, s in enumerate(data["steps"])],
            result=data.get("result"),
        )

    def save(self, path: Path) -> None:
        """Write the record as JSON."""
        path.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        """Read a record file."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # ValueError covers bad JSON and text that is not UTF-8
            raise RecordError(f"{path}: cannot read a JSON record ({exc})") from None
        return cls.from_json(data, origin=str(path))


def _whole(value: Any) -> bool:
    """An integer of JSON, not a boolean (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _step(index: int, data: Any, origin: str) -> Step:
    """One recorded step, or an error saying which step and what is wrong with it, in a reader's words."""
    where = f"{origin}: step {index}"
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object with a seat, an action and a digest, got {data!r}")
    for key in ("seat", "action", "digest"):
        if key not in data:
            raise RecordError(f"{where}: missing key {key!r}")
    seat, action, digest = data["seat"], data["action"], data["digest"]
    if not _whole(seat):
        raise RecordError(f"{where}: 'seat' must be a whole number (-1 for the dice), got {seat!r}")
    if not isinstance(action, dict):
        raise RecordError(f"{where}: 'action' must be an object, got {action!r}")
    if not isinstance(digest, str):
        raise RecordError(f"{where}: 'digest' must be a text, got {digest!r}")
    return Step(seat=seat, action=dict(action), digest=digest)


@dataclass(slots=True)
class Replay:
    """What replaying a record gives back: the final state, every event, and the number of steps."""

    state: Any
    events: list[Event]
    steps: int


def replay(record: GameRecord) -> Replay:
    """Fold the record's steps from the initial state through the referee, checking every seat and digest.

    A record's faces are read as written: a replay needs no dice of its own.
    """
    try:
        game = get_game(record.game)
    except KeyError as exc:
        raise RecordError(f"the record is of a game this table does not have: {exc.args[0]}") from None
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"the record was made with {record.game} rules {record.rules_version}, "
            f"this table runs {game.rules_version}"
        )
    scenario = game.parse_scenario(record.scenario_toml, f"record scenario {record.scenario_name!r}")
    referee = Referee(game, scenario)
    taken = referee.load(record.steps)
    return Replay(state=referee.state, events=[e for t in taken for e in t.events], steps=len(taken))
