"""Pig behind the platform's one protocol: actions, events, the state and the rules, all pure.

On your turn you roll a d6 as often as you like. A 1 loses the turn's total and ends your turn; any other
face adds to it. Holding (after at least one roll) banks the turn's total and passes the die on. The first
player whose banked score reaches the scenario's target wins. Each roll is a chance node: the table's dice
or a player reading a real die answer it, never the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.protocol import (
    CHANCE,
    JSON,
    ChanceOutcome,
    Event,
    Result,
    Scenario,
    ScenarioCard,
    Seat,
    Status,
)
from iwgt_pig.facts import FACTS, RULES_VERSION
from iwgt_pig.scenario import PigScenario, load_scenario, parse_scenario, scenario_names

# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die again (a chance node follows)."""


@dataclass(frozen=True, slots=True)
class Hold:
    """Bank this turn's total and pass the die on."""


Action = Roll | Hold
_TYPES: dict[str, type[Roll] | type[Hold]] = {"roll": Roll, "hold": Hold}
_NAMES = {cls: name for name, cls in _TYPES.items()}

# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A face from 2 to 6: it adds to the turn's total."""

    seat: int
    face: int
    turn_total: int


@dataclass(frozen=True, slots=True)
class RolledOne(Event):
    """A 1: the turn's total is lost and the die passes on."""

    seat: int
    lost: int


@dataclass(frozen=True, slots=True)
class Held(Event):
    """The turn's total banked."""

    seat: int
    banked: int
    score: int


@dataclass(frozen=True, slots=True)
class Won(Event):
    """A banked score reached the target: the game is over."""

    seat: int
    score: int


# ---------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class PigState:
    """A game of Pig: an immutable value; the rules return new ones."""

    scenario: PigScenario
    scores: tuple[int, ...]
    seat: Seat = 0  # whose turn it is
    turn: int = 1  # turns taken so far, this one included (each player's turn counts one)
    faces: tuple[int, ...] = ()  # this turn's faces so far (none of them a 1)
    rolling: bool = False  # the seat chose to roll: the die is awaited
    last_face: int | None = None  # the face the die last showed, whoever rolled it
    winner: Seat | None = None

    @property
    def turn_total(self) -> int:
        """What holding now would bank."""
        return sum(self.faces)


def _pig(scenario: Scenario) -> PigScenario:
    if not isinstance(scenario, PigScenario):
        raise TypeError("a Pig scenario is needed")
    return scenario


# ---------------------------------------------------------------- the game


class PigGame:
    """Pig: a d6, a turn total, and the nerve to stop."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> PigScenario:
        """A shipped scenario by name, or a file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> PigScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """One seat per player the scenario names, in playing order."""
        return tuple(_pig(scenario).spec.players)

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it."""
        spec = _pig(scenario).spec
        return ScenarioCard(
            name=spec.name,
            title=spec.title,
            description=spec.description,
            seats=tuple(spec.players),
            turns=None,  # no turn limit: the game ends when someone reaches the target
            table="no board: one d6",
            forces=f"{len(spec.players)} players, first to {spec.target}",
        )

    def initial_state(self, scenario: Scenario) -> PigState:
        """Every score at 0; the first seat is about to roll."""
        scen = _pig(scenario)
        return PigState(scenario=scen, scores=(0,) * len(scen.spec.players))

    def status(self, state: PigState) -> Status:
        """Phase (turn, rolling, over), turn number, who acts and whose turn it is."""
        if state.winner is not None:
            return Status("over", state.turn, None)
        return Status("rolling" if state.rolling else "turn", state.turn, self.to_move(state), state.seat)

    def to_move(self, state: PigState) -> Seat | None:
        """The seat whose turn it is, CHANCE while its roll is awaited, None when the game is over."""
        if state.winner is not None:
            return None
        return CHANCE if state.rolling else state.seat

    def legal_actions(self, state: PigState, seat: Seat) -> Sequence[Action]:
        """Roll, and Hold once the turn has a roll behind it; nothing for any other seat or the dice."""
        if seat == CHANCE or self.to_move(state) != seat:
            return []
        return [Roll(), Hold()] if state.faces else [Roll()]

    def chance_outcomes(self, state: PigState) -> Die | None:
        """The d6 of the roll the seat asked for."""
        if not state.rolling or state.winner is not None:
            return None
        name = state.scenario.spec.players[state.seat]
        return Die(6, f"{name}'s roll (a 1 loses the {state.turn_total} of this turn)")

    def is_terminal(self, state: PigState) -> bool:
        """Whether someone has won."""
        return state.winner is not None

    def result(self, state: PigState) -> Result | None:
        """The winner wins, every other seat loses; None while playing."""
        if state.winner is None:
            return None
        spec = state.scenario.spec
        name = spec.players[state.winner]
        reason = f"{state.scores[state.winner]} points of the {spec.target} needed"
        return Result.win([state.winner], len(spec.players), reason, side=name, title=name)

    def apply(self, state: PigState, action: Action | ChanceOutcome) -> tuple[PigState, list[Event]]:
        """The next state and what happened; a refused action raises and the state is untouched."""
        if not isinstance(action, Roll | Hold | ChanceOutcome):
            raise MalformedAction(f"not a Pig action: {action!r}")
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.scenario.spec.players[state.winner]} won")
        if isinstance(action, ChanceOutcome):
            if not state.rolling:
                raise IllegalAction("no die is awaited: the player to act has not chosen to roll")
            if not 1 <= action.face <= 6:
                raise IllegalAction(f"a d6 has no face {action.face}")
            return _rolled(state, action.face)
        if state.rolling:
            raise IllegalAction("the die is rolling: its face comes first")
        if isinstance(action, Roll):
            return replace(state, rolling=True), []
        if not state.faces:
            raise IllegalAction("roll at least once before holding: there is nothing to bank yet")
        return _hold(state)

    def observe(self, state: PigState, seat: Seat | None) -> JSON:
        """Everything is public: the scores, whose turn, its total and faces, the last face, the result."""
        spec, winner = state.scenario.spec, state.winner
        return {
            "game": FACTS.name,
            "scenario": spec.name,
            "title": spec.title,
            "seat": seat,
            "target": spec.target,
            "turn": state.turn,
            "phase": self.status(state).phase,
            "current": state.seat,
            "players": [{"seat": i, "name": n, "score": state.scores[i]} for i, n in enumerate(spec.players)],
            "turn_total": state.turn_total,
            "turn_faces": list(state.faces),
            "last_face": state.last_face,
            "result": None if winner is None else {"winner": winner, "name": spec.players[winner]},
        }

    def state_to_json(self, state: PigState) -> JSON:
        """The whole state (nothing is hidden: a spectator's observation holds it all)."""
        return self.observe(state, None)

    def resample_hidden(self, state: PigState, seat: Seat | None, pick: Callable[[int], int]) -> PigState:
        """Nothing is hidden in Pig."""
        return state

    def action_to_json(self, action: Action) -> JSON:
        """``{"type": "roll"}`` or ``{"type": "hold"}``."""
        name = _NAMES.get(type(action))
        if name is None:
            raise MalformedAction(f"not a Pig action: {action!r}")
        return {"type": name}

    def action_from_json(self, data: Any) -> Action:
        """An action from JSON, refusing anything else with the reason."""
        if not isinstance(data, dict):
            raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
        kind = data.get("type")
        if kind is None:
            raise MalformedAction(f"the action names no 'type'; expected one of: {', '.join(_TYPES)}")
        cls = _TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedAction(f"unknown action type {kind!r}; expected one of: {', '.join(_TYPES)}")
        extra = sorted(set(data) - {"type"})
        if extra:
            raise MalformedAction(f"unexpected key(s) {', '.join(extra)} in a '{kind}' action")
        return cls()

    def action_view(self, action: Action, actor: Seat, seat: Seat | None) -> JSON:
        """Actions are public."""
        return self.action_to_json(action)


def _next_turn(state: PigState) -> PigState:
    """The die passes to the next seat, with a fresh turn total."""
    seats = len(state.scores)
    return replace(state, seat=(state.seat + 1) % seats, turn=state.turn + 1, faces=(), rolling=False)


def _rolled(state: PigState, face: int) -> tuple[PigState, list[Event]]:
    state = replace(state, rolling=False, last_face=face)
    if face == 1:
        return _next_turn(state), [RolledOne(state.seat, state.turn_total)]
    state = replace(state, faces=(*state.faces, face))
    return state, [Rolled(state.seat, face, state.turn_total)]


def _hold(state: PigState) -> tuple[PigState, list[Event]]:
    seat, banked = state.seat, state.turn_total
    score = state.scores[seat] + banked
    scores = tuple(score if i == seat else s for i, s in enumerate(state.scores))
    events: list[Event] = [Held(seat, banked, score)]
    if score >= state.scenario.spec.target:
        events.append(Won(seat, score))
        return replace(state, scores=scores, faces=(), winner=seat), events
    return _next_turn(replace(state, scores=scores)), events
