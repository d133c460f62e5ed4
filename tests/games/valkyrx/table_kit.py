"""Helpers for the table tests: positions from tests/games/valkyrx/kit.py, played to the step wanted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.games.valkyrx.kit import GAME, turn_over

from iwgt.core.lights import Light
from iwgt.core.protocol import ChanceOutcome, Event, Seat, visible_events
from iwgt.core.registry import get_plugin
from iwgt.games.valkyrx.actions import EndPhase
from iwgt.games.valkyrx.events import CombatReport
from iwgt.games.valkyrx.state import ValkyrxState

ADAPTER = get_plugin("valkyrx").table()


def seen(events: Sequence[Event], seat: Seat | None) -> list[Event]:
    """The events the seat may see, typed as the adapter receives them from the server."""
    return visible_events(events, seat)


def play_turn(state: ValkyrxState, face: int | None = None) -> list[tuple[ValkyrxState, list[Event]]]:
    """Every step to the end of the turn: phases ended, every die at ``face`` (else its top face)."""
    steps: list[tuple[ValkyrxState, list[Event]]] = []
    while not turn_over(state):
        if state.pending:
            sides = state.pending[0].sides
            action: Any = ChanceOutcome(min(face, sides) if face is not None else sides)
        else:
            action = EndPhase()
        state, events = GAME.apply(state, action)
        steps.append((state, events))
    return steps


def combat_step(state: ValkyrxState, face: int | None = None) -> tuple[ValkyrxState, list[Event]]:
    """The step of this turn whose events hold the combat round (the one with the CombatReport)."""
    for after, events in play_turn(state, face):
        if any(isinstance(e, CombatReport) for e in events):
            return after, events
    raise AssertionError("no combat round in this turn")


def lights_of(
    state: ValkyrxState, events: Sequence[Event], seat: Seat, movable: Sequence[int] = ()
) -> list[Light]:
    """The seat's lights for a state and the step's events, through the adapter only."""
    return ADAPTER.lights(GAME.observe(state, seat), seen(events, seat), seat, movable=movable)


def at(lights: Sequence[Light], effect: str) -> list[tuple[int, int]]:
    """The cells of one effect, in order."""
    return [x.cell for x in lights if x.effect == effect]
