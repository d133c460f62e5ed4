"""The log is the game: a record is the save file, the replay, the bug report and the golden test."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iwgt.core.chance import RNG_ALGORITHM
from iwgt.core.digest import digest
from iwgt.core.errors import GameError, RecordError
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Seat
from iwgt.core.registry import get_game

RECORD_FORMAT = 1


@dataclass(slots=True)
class Step:
    """One logged action: who took it (CHANCE for the dice), the action, and the digest of the state after."""

    seat: Seat
    action: JSON
    digest: str

    def to_json(self) -> JSON:
        """The step as JSON."""
        return {"seat": self.seat, "action": self.action, "digest": self.digest}


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
        """A record from JSON, with a clear error naming the missing or mistyped key."""
        if not isinstance(data, dict):
            raise RecordError(f"{origin}: expected a JSON object")
        try:
            fmt = data.get("format")
            if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt != RECORD_FORMAT:
                raise RecordError(f"{origin}: 'format' must be {RECORD_FORMAT}, got {data.get('format')!r}")
            scen = data["scenario"]
            steps = [
                Step(seat=int(s["seat"]), action=dict(s["action"]), digest=str(s["digest"]))
                for s in data["steps"]
            ]
            return cls(
                game=str(data["game"]),
                rules_version=str(data["rules_version"]),
                scenario_name=str(scen["name"]),
                scenario_toml=str(scen["toml"]),
                seed=None if data.get("seed") is None else int(data["seed"]),
                dice=str(data["dice"]),
                rng=str(data.get("rng", RNG_ALGORITHM)),
                steps=steps,
                result=data.get("result"),
            )
        except KeyError as exc:
            raise RecordError(f"{origin}: missing key {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{origin}: malformed record ({exc})") from None

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


@dataclass(slots=True)
class Replay:
    """What replaying a record gives back: the final state, every event, and the number of steps."""

    state: Any
    events: list[Event]
    steps: int


def replay(record: GameRecord) -> Replay:
    """Fold the record's actions from the initial state, checking every step's digest."""
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
    state = game.initial_state(scenario)
    events: list[Event] = []
    for i, step in enumerate(record.steps):
        to_move = game.to_move(state)
        if to_move != step.seat:
            raise RecordError(f"step {i}: the record says seat {step.seat} acted, but {to_move} was to act")
        try:
            if step.seat == CHANCE:
                face = step.action.get("face")
                if not isinstance(face, int) or isinstance(face, bool):
                    raise ValueError(f"a die face must be a whole number, got {face!r}")
                state, new = game.apply(state, ChanceOutcome(face))
            else:
                state, new = game.apply(state, game.action_from_json(step.action))
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"step {i}: the recorded action was refused: {exc}") from None
        got = digest(game.state_to_json(state))
        if got != step.digest:
            raise RecordError(f"step {i}: state digest {got} differs from the recorded {step.digest}")
        events.extend(new)
    return Replay(state=state, events=events, steps=len(record.steps))
