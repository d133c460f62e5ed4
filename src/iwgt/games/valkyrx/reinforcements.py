"""Late troops (VX-15-24, the Add troops button): forces the players agreed beforehand join the battle late.

A scenario lists them with ``arrives = N`` in its army and may give each side an ``[entry]`` zone (its
deployment zone if it gives none). Until it arrives a late troop is in **reserve** (``Unit.status``): off the
table and out of play, touched by no rule, but public knowledge, since both players agreed on it before the
game. From turn N on, in its owner's movement phase, ``AddTroops(unit, to)`` sets it on a free entry cell
(``entry_cells``). The arrival is that unit's move for the turn: it spends its whole normal allowance
(``Unit.moved_cost``), so it moves no further, shoots nothing this turn (VX-04-07), and a contact an enemy
makes with it this turn is fought from the next turn unless the enemy charged (VX-02-10).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event, Seat
from iwgt.games.valkyrx.events import TroopsArrived
from iwgt.games.valkyrx.losses import sink
from iwgt.games.valkyrx.movement import allowance
from iwgt.games.valkyrx.scenario import ValkyrxScenario
from iwgt.games.valkyrx.spells import lava_cells, open_ground, portals
from iwgt.games.valkyrx.state import Unit, ValkyrxState
from iwgt.geometry.hexgrid import Hex, hex_to_offset, neighbours

ENTRY_RULE = (
    "a late troop comes on at a free cell of its side's entry zone that is not impassable, the Temple, "
    "lava, a portal, or next to an enemy on the ground (VX-15-24)"
)


def reserve_cell(scenario: ValkyrxScenario, seat: Seat) -> Hex:
    """The placeholder cell a reserve keeps while off the table: the first entry cell in board order.

    No rule reads it (a reserve is not ``on_table``) and ``observe`` shows ``null``; it only keeps
    ``Unit.cell`` a real cell of the board.
    """
    return min(scenario.entry_zones[seat], key=scenario.board.index.__getitem__)


def due(state: ValkyrxState, unit: Unit) -> bool:
    """A reserve whose turn of arrival has come."""
    turn = state.arrives(unit.id)
    return unit.in_reserve and turn is not None and state.turn >= turn


def entry_cells(state: ValkyrxState, seat: Seat, occ: dict[Hex, Unit] | None = None) -> list[Hex]:
    """The cells a late troop of ``seat`` may arrive on now, in board order.

    Only public facts decide it: the units on the table (never a hidden one), the lava and the portals.
    """
    occ = state.occupancy() if occ is None else occ
    board = state.scenario.board
    lava = lava_cells(state)
    gates = set(portals(state))
    foes = {n for u in occ.values() if u.commander != seat and not u.airborne for n in neighbours(u.cell)}
    return sorted(
        (
            c
            for c in state.scenario.entry_zones[seat]
            if open_ground(state, c, occ) and c not in lava and c not in gates and c not in foes
        ),
        key=board.index.__getitem__,
    )


def arriving(state: ValkyrxState, seat: Seat, occ: dict[Hex, Unit] | None = None) -> tuple[int, ...]:
    """The seat's late troops that may come on now: due, in its movement phase, with a free entry cell."""
    if state.phase != "movement" or state.mover != seat:
        return ()
    ready = tuple(u.id for u in state.units if u.owner == seat and due(state, u))
    if not ready or not entry_cells(state, seat, occ):
        return ()
    return ready


def why_not_arrive(state: ValkyrxState, unit: Unit, seat: Seat, to: Hex) -> str | None:
    """Why ``unit`` may not arrive at ``to`` now, or None if it may."""
    if state.phase != "movement" or state.mover != seat:
        return "late troops come on only in their owner's movement phase (VX-15-24)"
    if unit.owner != seat:
        return f"{unit.type.name} is not yours to bring on"
    turn = state.arrives(unit.id)
    if turn is None:
        return f"{unit.type.name} is no late troop: it has been on the table from the start"
    if not unit.in_reserve:
        return f"{unit.type.name} has already joined the battle"
    if state.turn < turn:
        return f"{unit.type.name} joins the battle in turn {turn}, not before (now turn {state.turn})"
    if not state.scenario.board.contains(to) or to not in state.scenario.entry_zones[seat]:
        return f"that cell is not in your entry zone: {ENTRY_RULE}"
    occ = state.occupancy()
    if to in occ:
        return f"that cell already holds {occ[to].type.name}"
    if to not in entry_cells(state, seat, occ):
        return f"that cell is closed to arrivals: {ENTRY_RULE}"
    return None


def add_troops(state: ValkyrxState, uid: int, to: Hex, seat: Seat) -> tuple[ValkyrxState, list[Event]]:
    """A late troop comes on at full strength and morale; the arrival is its move for this turn.

    Quicksand strikes it as it strikes any ground move ending there (VX-05-05).
    """
    unit = state.units[uid]
    why = why_not_arrive(state, unit, seat, to)
    if why is not None:
        raise IllegalAction(why)
    arrived = replace(unit, status="active", cell=to, airborne=False, moved=True, moved_cost=0.0)
    arrived = replace(arrived, moved_cost=allowance(state, arrived).normal)  # its whole move (VX-02-10)
    events: list[Event] = [TroopsArrived(uid, hex_to_offset(to))]
    arrived, sunk = sink(state, replace(arrived, casualties_turn=0.0))
    events.extend(sunk)
    return state.with_unit(arrived), events
