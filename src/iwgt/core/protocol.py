"""The one protocol every game implements, after OpenSpiel's shared verbs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Final, Protocol, TypeVar

from iwgt.core.chance import Die

Seat = int
"""A player's seat: 0 or 1 (more for games with more players)."""

CHANCE: Final[int] = -1
"""What ``to_move`` answers at a chance node: the dice act next, not a player."""

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The face that answered a chance node: logged like any other action."""

    face: int


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; lights, touchscreen and reports react to events, rules never call them."""

    @property
    def kind(self) -> str:
        """The event's name, e.g. ``UnitMoved``."""
        return type(self).__name__

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether the seat (None: a spectator) may learn of it; private events override this."""
        return True

    def to_json(self) -> JSON:
        """The event as a JSON object."""
        out: JSON = {"event": self.kind}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, float):
        return round(value, 6)
    return value


def visible_events(events: Sequence[Event], seat: Seat | None) -> list[Event]:
    """The events a seat may see: the log is redacted by the same rule as ``observe`` (DESIGN.md 5)."""
    return [e for e in events if e.visible_to(seat)]


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: the winning seat (None for a draw) and why."""

    winner: Seat | None
    reason: str


S = TypeVar("S")
A = TypeVar("A")


class Scenario(Protocol):
    """What every game's scenario offers the engine: a name and the exact text it was read from."""

    @property
    def name(self) -> str:
        """Short name of the scenario."""
        ...

    @property
    def source(self) -> str:
        """The TOML text, so that a record is self-contained."""
        ...


class Game(Protocol[S, A]):
    """A game on the table: pure functions over immutable states."""

    name: str
    title: str
    rules_version: str
    seat_names: tuple[str, ...]

    def scenario_names(self) -> list[str]:
        """The scenarios shipped with the game."""
        ...

    def load_scenario(self, ref: str) -> Scenario:
        """A shipped scenario by name, or a scenario file by path; broken files raise DataFileError."""
        ...

    def parse_scenario(self, text: str, origin: str) -> Scenario:
        """A scenario from TOML text; ``origin`` names it in error messages."""
        ...

    def initial_state(self, scenario: Scenario) -> S:
        """The state before the first action."""
        ...

    def to_move(self, state: S) -> Seat | None:
        """Who acts next: a seat, CHANCE, or None when the game is over."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """Every action the seat may take now (empty when it is not the seat's turn)."""
        ...

    def apply(self, state: S, action: A | ChanceOutcome) -> tuple[S, list[Event]]:
        """The next state and what happened; a refused action raises a GameError and changes nothing."""
        ...

    def chance_outcomes(self, state: S) -> Die | None:
        """The die the next chance node needs, or None if the state is not a chance node."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        ...

    def result(self, state: S) -> Result | None:
        """The result of a finished game, else None."""
        ...

    def observe(self, state: S, seat: Seat | None) -> JSON:
        """What one seat may see (None: a spectator); the only door hidden information leaves by."""
        ...

    def action_to_json(self, action: A) -> JSON:
        """An action as JSON."""
        ...

    def resample_hidden(self, state: S, seat: Seat | None, pick: Callable[[int], int]) -> S:
        """A state the seat cannot tell from ``state``: every fact hidden from it redrawn by ``pick(n)``.

        For the conformance suite's leak test and for information-set search; ``pick`` is the caller's
        explicit source of choice (the rules still draw nothing themselves).
        """
        ...

    def action_view(self, action: A, actor: Seat, seat: Seat | None) -> JSON:
        """An action as another seat may see it in the log: a secret order shows only that one was given."""
        ...

    def action_from_json(self, data: JSON) -> A:
        """An action from JSON; raises MalformedAction with the reason."""
        ...

    def state_to_json(self, state: S) -> JSON:
        """The whole state as canonical JSON (for digests and debugging; it may hold hidden data)."""
        ...
