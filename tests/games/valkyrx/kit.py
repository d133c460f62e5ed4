"""Builders for named test positions: a tiny scenario, past deployment, with units placed by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from iwgt.core.protocol import ChanceOutcome, Event
from iwgt.games.valkyrx.actions import ConfirmDeployment, EndPhase
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.scenario import ValkyrxScenario, parse_scenario
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.geometry.hexgrid import Hex, offset_to_hex

GAME = ValkyrxGame()
Placed = tuple[str, tuple[int, int]]


def scenario_text(
    light: Sequence[Placed],
    dark: Sequence[Placed],
    *,
    width: int = 12,
    height: int = 9,
    terrain: Sequence[tuple[str, Sequence[tuple[int, int]]]] = (),
    extra: str = "",
) -> str:
    """TOML for a scenario whose deployment zones are the whole board (tests place units anywhere)."""
    lines = [
        'name = "test"',
        'title = "Test position"',
        f"width = {width}",
        f"height = {height}",
        extra,
    ]
    for kind, cells in terrain:
        lines.append(f'[[terrain]]\nkind = "{kind}"\ncells = {[list(c) for c in cells]}')
    lines.append(f"[deployment.light]\nrows = [0, {height - 1}]")
    lines.append(f"[deployment.darkness]\nrows = [0, {height - 1}]")
    army = "[army]\n"
    for side, units in (("light", light), ("darkness", dark)):
        army += (
            f"{side} = [" + ", ".join(f'{{ unit = "{u}", cell = [{c}, {r}] }}' for u, (c, r) in units) + "]\n"
        )
    lines.append(army)
    return "\n".join(lines)


def make(light: Sequence[Placed], dark: Sequence[Placed], **kw: Any) -> ValkyrxScenario:
    """A scenario from units and cells."""
    return parse_scenario(scenario_text(light, dark, **kw), "test scenario")


def start(scen: ValkyrxScenario, first: int = 0) -> ValkyrxState:
    """Past deployment, with ``first`` chosen to move first in turn 1: its movement phase is open."""
    state = GAME.initial_state(scen)
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ChanceOutcome(first + 1))
    return state


def position(light: Sequence[Placed], dark: Sequence[Placed], first: int = 0, **kw: Any) -> ValkyrxState:
    """A started position in one call."""
    return start(make(light, dark, **kw), first)


def cell(col: int, row: int) -> Hex:
    """An offset cell as the engine's axial hex."""
    return offset_to_hex(col, row)


def tweak(state: ValkyrxState, uid: int, **changes: Any) -> ValkyrxState:
    """The state with one unit's fields changed."""
    return state.with_unit(replace(state.units[uid], **changes))


def turn_over(state: ValkyrxState) -> bool:
    """The turn is over: the next turn's first-mover d2 is awaited, or the game has ended."""
    return state.result is not None or (bool(state.pending) and state.pending[0].kind == "first_mover")


def next_turn(state: ValkyrxState, first: int = 0) -> ValkyrxState:
    """Answer the first-mover d2 of the new turn: ``first`` opens the movement."""
    assert [p.kind for p in state.pending] == ["first_mover"]
    state, _ = GAME.apply(state, ChanceOutcome(first + 1))
    return state


def end_movement(state: ValkyrxState) -> tuple[ValkyrxState, list[Event]]:
    """Both seats end their movement phases (a seat with nothing to move is skipped)."""
    events: list[Event] = []
    while state.phase == "movement" and not state.pending:
        state, more = GAME.apply(state, EndPhase())
        events.extend(more)
    return state, events
