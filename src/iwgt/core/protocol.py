"""The one protocol every game implements, after OpenSpiel's shared verbs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import StrEnum
from typing import Any, Final, Literal, Protocol, TypeVar, runtime_checkable

from iwgt.core.chance import Die
from iwgt.core.errors import MalformedAction

Seat = int
"""A player's seat: 0 or 1 (more for games with more players)."""

CHANCE: Final[int] = -1
"""What ``to_move`` answers at a chance node: the dice act next, not a player."""

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The face that answered a chance node: logged like any other action."""

    face: int

    def __post_init__(self) -> None:
        # Rules do arithmetic on the face: a string or a fraction must be refused here, at the door,
        # as a malformed action, not surface later as a TypeError deep inside a game.
        if not isinstance(self.face, int) or isinstance(self.face, bool):
            raise MalformedAction(f"a die face must be a whole number, got {self.face!r}")


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


class Outcome(StrEnum):
    """How the game ended for one seat."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended, per seat (OpenSpiel returns a value per player), and why.

    ``side`` names the winning side ("light", "Raiders": the name a summary gives), so that a result with
    several winning seats (a team game) is one fact; ``title`` is that side in words ("the Light") when the
    reason does not already name it. Both None for a draw. ``plural`` says the title takes a plural verb
    ("the Sons win", not "wins"); it changes only ``words``.
    """

    outcomes: tuple[Outcome, ...]
    reason: str
    side: str | None = None
    title: str | None = None
    plural: bool = False

    @classmethod
    def win(
        cls,
        winners: Sequence[Seat],
        seats: int,
        reason: str,
        side: str | None = None,
        title: str | None = None,
        plural: bool = False,
    ) -> Result:
        """The seats in ``winners`` win, every other of the ``seats`` loses."""
        chosen = set(winners)
        if not chosen or not chosen <= set(range(seats)):
            raise ValueError(f"winners {sorted(chosen)} are not seats of a {seats}-seat game")
        outcomes = tuple(Outcome.WIN if s in chosen else Outcome.LOSS for s in range(seats))
        return cls(outcomes, reason, side, title, plural)

    @classmethod
    def draw(cls, seats: int, reason: str) -> Result:
        """Nobody wins."""
        return cls(tuple(Outcome.DRAW for _ in range(seats)), reason)

    @property
    def winners(self) -> tuple[Seat, ...]:
        """Every winning seat, in seat order (empty for a draw)."""
        return tuple(s for s, o in enumerate(self.outcomes) if o is Outcome.WIN)

    @property
    def winner(self) -> Seat | None:
        """The first winning seat (None for a draw): the single seat of the records' ``winner`` key."""
        return self.winners[0] if self.winners else None

    @property
    def words(self) -> str:
        """The result in one sentence, e.g. "the Light wins (the Darkness has nothing left on the table)"."""
        if self.winner is None:
            return self.reason if self.reason.startswith("a draw") else f"a draw ({self.reason})"
        if self.title is None:
            return self.reason  # the reason names the winner itself
        return f"{self.title} {'win' if self.plural else 'wins'} ({self.reason})"

    def to_json(self) -> JSON:
        """The result as records, journals and views carry it (``winner`` kept for older readers)."""
        return {
            "winner": self.winner,
            "winners": list(self.winners),
            "outcomes": [o.value for o in self.outcomes],
            "side": self.side,
            "title": self.title,
            "reason": self.reason,
        }


def same_result(recorded: JSON | None, result: Result | None) -> bool:
    """Whether a result stored as JSON (by this or an older version) says what ``result`` says."""
    if recorded is None or result is None:
        return recorded is None and result is None
    now = result.to_json()
    return all(recorded.get(k) == now[k] for k in now if k in recorded) and "reason" in recorded


Geometry = Literal["hex", "inches", "regions", "abstract"]
"""How a game's board is measured: hex cells, a free table in inches, a region map, or no board at all."""


@dataclass(frozen=True, slots=True)
class TimerRule:
    """A game's movement timer as data: the phase it runs in, the action that ends it, its default length."""

    phase: str
    ends_with: JSON
    seconds: float
    clause: str


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a game declares about itself, in the manner of OpenSpiel's game type."""

    name: str
    title: str
    description: str
    geometry: Geometry
    min_players: int
    max_players: int
    rules_version: str
    movement_timer: TimerRule | None = None
    hidden_information: bool = False

    def to_json(self) -> JSON:
        """The facts as the game selection shows them."""
        timer = self.movement_timer
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "geometry": self.geometry,
            "players": [self.min_players, self.max_players],
            "rules_version": self.rules_version,
            "movement_timer": None if timer is None else {"phase": timer.phase, "seconds": timer.seconds},
            "hidden_information": self.hidden_information,
        }


@dataclass(frozen=True, slots=True)
class ScenarioCard:
    """A scenario as the game selection and ``iwgt scenarios`` show it."""

    name: str
    title: str
    description: str
    seats: tuple[str, ...]
    turns: int | None
    table: str  # its size in the game's own measure, e.g. "12x9 cells" or '24" x 16"'
    forces: str = ""  # what each side brings, e.g. "9 / 8 units" or "1 Raiders v 1 Defenders"
    turn_word: str = "turns"  # what ``turns`` counts, in the game's own word (a game of rounds: "rounds")

    def to_json(self) -> JSON:
        """The card as the lobby API sends it."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "seat_names": list(self.seats),
            "turns": self.turns,
            "table": self.table,
            "forces": self.forces,
            "turn_word": self.turn_word,
        }


@dataclass(frozen=True, slots=True)
class Status:
    """The public status of a state: its phase, its turn, who acts, and whose phase it is."""

    phase: str
    turn: int | None
    to_move: Seat | None  # a seat, CHANCE, or None when the game is over
    mover: Seat | None = None  # the seat whose phase it is (the timer's owner), if the game has one

    def to_json(self) -> JSON:
        """The status as JSON."""
        return {"phase": self.phase, "turn": self.turn, "to_move": self.to_move, "mover": self.mover}


S = TypeVar("S")
A = TypeVar("A")


def as_recorded(action: Any, to_json: Callable[[Any], JSON], from_json: Callable[[JSON], A], game: str) -> A:
    """The action exactly as its record will replay it, or ``MalformedAction`` naming the game.

    A game's ``apply`` takes only what survives ``to_json`` then ``from_json`` unchanged, so that every
    journalled action replays: a foreign object, a point of three numbers or a mistyped field is refused.
    """
    try:
        data = to_json(action)
    except MalformedAction:
        raise
    except Exception as exc:  # a mistyped field breaks the encoder: that is a malformed action, not a crash
        raise MalformedAction(f"not a {game} action: {action!r}") from exc
    back = from_json(data)
    if back != action:
        raise MalformedAction(f"not a {game} action as it would be recorded: {action!r}")
    return back


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
    facts: GameFacts

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """Each seat's name in this scenario (the number of seats is its length)."""
        ...

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it."""
        ...

    def status(self, state: S) -> Status:
        """The public status of a state: phase, turn, who acts."""
        ...

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
        """The result of a finished game (an outcome per seat), else None."""
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


S_in = TypeVar("S_in", contravariant=True)
A_in = TypeVar("A_in", contravariant=True)


@runtime_checkable
class UndoHook(Protocol[S_in, A_in]):
    """An optional game method forbidding more undos than the referee's own bounds (core/referee.py).

    Without it, a game that declares no hidden information lets any of a player's own steps be taken back
    within the referee's bounds, and one with hidden information only a step that told no seat anything
    hidden from it (checked by redrawing the hidden facts with ``resample_hidden``). The hook can only add to
    those bounds: a step it allows must still pass the check.
    """

    def undoable(self, before: S_in, action: A_in, after: S_in) -> bool:
        """Whether the step from ``before`` by ``action`` to ``after`` may be taken back (False: never)."""
        ...
