"""Helpers for the engine-core tests: scenarios with changed keys, and states driven to a phase."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from iwgt.core.protocol import Event
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.game import AnvilGame
from iwgt.games.anvil.scenario import SCENARIO_DIR, AnvilScenario, parse_scenario
from iwgt.games.anvil.state import AnvilState, Unit
from iwgt.geometry.trays import Tray

GAME = AnvilGame()


def scenario(name: str = "skirmish", **keys: Any) -> AnvilScenario:
    """A shipped scenario with some top-level keys changed (TOML values given as Python values)."""
    text = (SCENARIO_DIR / f"{name}.toml").read_text(encoding="utf-8")
    for key, value in keys.items():
        if isinstance(value, bool):
            shown = "true" if value else "false"
        elif isinstance(value, str):
            shown = f'"{value}"'
        else:
            shown = str(value)
        text, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {shown}", text, count=1)
        if n == 0:
            text = f"{key} = {shown}\n" + text
    return parse_scenario(text, f"{name}.toml (changed)")


def play(state: AnvilState, *actions: act.Action) -> tuple[AnvilState, list[Event]]:
    """Apply actions in turn; the events of all of them."""
    events: list[Event] = []
    for a in actions:
        state, ev = GAME.apply(state, a)
        events.extend(ev)
    return state, events


def at_terrain_bid(name: str = "skirmish", **keys: Any) -> AnvilState:
    """A state at the terrain bid: the scenario's armies taken at muster."""
    state = GAME.initial_state(scenario(name, **keys))
    if state.phase == "muster":
        state, _ = play(state, state.scenario.armies[0], state.scenario.armies[1])
    assert state.phase == "terrain_bid"
    return state


def at_seats(name: str = "skirmish", **keys: Any) -> AnvilState:
    """A state at the Seats of Power: no terrain bid by either side."""
    state, _ = play(at_terrain_bid(name, **keys), act.TerrainBid(0), act.TerrainBid(0))
    assert state.phase == "seats"
    return state


def at_bid(name: str = "skirmish", **keys: Any) -> AnvilState:
    """The turn-1 bid: both Seats of Power placed at the middle of their edges."""
    state = at_seats(name, **keys)
    w, h = state.scenario.spec.width, state.scenario.spec.height
    d = state.scenario.spec.tray[1]
    state, _ = play(state, act.PlaceSeat((w / 2, d / 2)), act.PlaceSeat((w / 2, h - d / 2)))
    assert state.phase == "bid" and state.turn == 1
    return state


def at_activation(b0: int = 5, b1: int = 6, name: str = "skirmish", **keys: Any) -> AnvilState:
    """Turn 1's activations after the bids ``b0`` and ``b1`` (unequal)."""
    state, _ = play(at_bid(name, **keys), act.Bid(b0), act.Bid(b1))
    assert state.phase == "activation"
    return state


def unit_named(state: AnvilState, name: str) -> Unit:
    """A unit by its name."""
    return next(u for u in state.units if u.name == name)


def tray(state: AnvilState, centre: tuple[float, float], facing: float) -> Tray:
    """A tray of the scenario's size."""
    f, d = state.scenario.spec.tray
    return Tray(centre, facing, f, d)


def place(state: AnvilState, name: str, centre: tuple[float, float], facing: float) -> AnvilState:
    """The state with a unit standing at ``centre`` (set by hand: a test's starting position)."""
    u = unit_named(state, name)
    return state.with_unit(replace(u, tray=tray(state, centre, facing)))


def activating(state: AnvilState, name: str, seat: int | None = None) -> AnvilState:
    """The state with ``name``'s seat to move (CP as they are) and the unit activated."""
    u = unit_named(state, name)
    state = replace(state, mover=u.seat if seat is None else seat)
    state, _ = GAME.apply(state, act.Activate(u.id))
    return state
