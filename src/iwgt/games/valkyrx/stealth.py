"""Stealth characters (section 12): the Grima's hidden pursuit and strike, the Sand Worm underground.

A hidden unit keeps a cell, but it is a secret of its owner's: it is not ``on_table``, so it takes no part in
occupancy, contacts, targeting, morale or spells (Armageddon aside), and ``observe`` gives the other seat no
cell for it. The table moves the Grima itself; the worm goes where its owner secretly orders.
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event, Seat
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import (
    GrimaStruck,
    HiddenMove,
    QuarryChosen,
    UnitRemoved,
    UnitRevealed,
    WormSurfaced,
)
from iwgt.games.valkyrx.losses import received, wiped_out
from iwgt.games.valkyrx.movement import allowance
from iwgt.games.valkyrx.spells import is_shielded, lava_cells, open_ground
from iwgt.games.valkyrx.state import Pending, Unit, ValkyrxState
from iwgt.geometry.hexgrid import DIRECTIONS, Hex, distance, hex_to_offset, movement_range, neighbours

Flow = tuple[ValkyrxState, list[Event]]


def is_grima(unit: Unit) -> bool:
    """The Grima: an assassin who moves hidden (trait ``stealth``)."""
    return unit.type.has("stealth")


def is_worm(unit: Unit) -> bool:
    """The Sand Worm: a burrower (trait ``burrower``)."""
    return unit.type.has("burrower")


def _standable(state: ValkyrxState, cell: Hex, occ: dict[Hex, Unit]) -> bool:
    return open_ground(state, cell, occ) and cell not in lava_cells(state)


def nearest_free(state: ValkyrxState, around: Hex, occ: dict[Hex, Unit]) -> Hex | None:
    """The free cell nearest ``around`` (``around`` itself if free), ties in board order."""
    board = state.scenario.board
    cells = [c for c in board.cells if _standable(state, c, occ)]
    if not cells:
        return None
    return min(cells, key=lambda c: (distance(c, around), board.index[c]))


# --- orders -------------------------------------------------------------------------------------------


def _own_hidden(state: ValkyrxState, uid: int, seat: Seat, kind: str) -> Unit:
    unit = state.units[uid]
    check = is_grima if kind == "grima" else is_worm
    what = "the Grima" if kind == "grima" else "a Sand Worm"
    if not check(unit):
        raise IllegalAction(f"{unit.type.name} is not {what}")
    if unit.owner != seat or unit.commander != seat:
        raise IllegalAction(f"{unit.type.name} is not yours to order")
    if not unit.in_play:
        raise IllegalAction(f"{unit.type.name} is no longer in the game")
    return unit


def conceal(state: ValkyrxState, uid: int, seat: Seat, why_not_move: str | None) -> Flow:
    """Take the Grima off the table, or send the worm underground: the unit's move (VX-12-02, VX-12-08)."""
    unit = state.units[uid]
    if not (is_grima(unit) or is_worm(unit)):
        raise IllegalAction(f"{unit.type.name} cannot hide: only the Grima and the Sand Worm move unseen")
    if unit.hidden:
        raise IllegalAction(f"{unit.type.name} is already hidden")
    if why_not_move is not None and not (is_worm(unit) and why_not_move.startswith("it is locked")):
        raise IllegalAction(f"{unit.type.name} cannot hide now: {why_not_move}")
    contacts = tuple(c for c in state.contacts if uid not in (c.a, c.b))  # the worm vanishes underground
    hidden = replace(unit, hidden=True, moved=True, airborne=False, surface_turns=0)
    return replace(state.with_unit(hidden), contacts=contacts), []


def set_quarry(state: ValkyrxState, uid: int, target: int, seat: Seat) -> Flow:
    """The Grima's owner names the enemy character she pursues (VX-12-03); a secret from the enemy."""
    grima = _own_hidden(state, uid, seat, "grima")
    if not 0 <= target < len(state.units):
        raise IllegalAction(f"there is no unit {target}")
    prey = state.units[target]
    if prey.owner == grima.owner or not prey.on_table or not prey.type.is_character:
        raise IllegalAction("the Grima's quarry must be an enemy character on the table (VX-12-03)")
    return state.with_unit(replace(grima, quarry=target)), [QuarryChosen(grima.owner, uid, target)]


def reveal(state: ValkyrxState, uid: int, seat: Seat) -> Flow:
    """The Grima comes back into sight on her hidden cell, or the nearest free one (her move)."""
    grima = _own_hidden(state, uid, seat, "grima")
    if not grima.hidden:
        raise IllegalAction("the Grima is not hidden")
    if grima.moved:
        raise IllegalAction("the Grima has already moved this turn")
    cell = nearest_free(state, grima.cell, state.occupancy())
    if cell is None:
        raise IllegalAction("there is no free cell for the Grima to appear on")
    state = state.with_unit(replace(grima, hidden=False, cell=cell, moved=True))
    return state, [UnitRevealed(uid, hex_to_offset(cell))]


def tunnel(state: ValkyrxState, uid: int, to: Hex, seat: Seat) -> Flow:
    """The hidden worm travels underground, up to ``worm_tunnel`` cells, once a turn (VX-12-08)."""
    worm = _own_hidden(state, uid, seat, "worm")
    _check_underground_order(state, worm, to)
    moved = replace(worm, cell=to, moved=True)
    return state.with_unit(moved), [HiddenMove(worm.owner, uid, hex_to_offset(worm.cell), hex_to_offset(to))]


def _check_underground_order(state: ValkyrxState, worm: Unit, to: Hex) -> None:
    if not worm.hidden:
        raise IllegalAction("the Sand Worm is on the surface: it must burrow first")
    if worm.moved:
        raise IllegalAction("the Sand Worm has already moved this turn")
    if not state.scenario.board.contains(to):
        raise IllegalAction("that cell is off the table")
    reach = rules_config().stealth.worm_tunnel
    if distance(worm.cell, to) > reach:
        raise IllegalAction(f"the Sand Worm travels at most {reach} cells a turn underground")


def surface(state: ValkyrxState, uid: int, at: Hex, seat: Seat) -> Flow:
    """The worm is ordered up at a cell of its near choosing: the navigation die decides (VX-12-09, -10)."""
    worm = _own_hidden(state, uid, seat, "worm")
    _check_underground_order(state, worm, at)
    cfg = rules_config().stealth
    node = Pending(
        "worm",
        unit=uid,
        sides=cfg.worm_navigation_sides,
        purpose=f"where does the Sand Worm come up? (1-{cfg.worm_on_target}: the aimed cell, else beside it)",
    )
    state = state.with_unit(replace(worm, cell=at, moved=True))
    return replace(state, pending=(node,)), []


def worm_answered(state: ValkyrxState, uid: int, face: int) -> Flow:
    """The worm breaks the surface and swallows what stands there, friend or foe (VX-12-11, VX-12-12)."""
    cfg = rules_config().stealth
    worm = state.units[uid]
    aimed = worm.cell
    cell = aimed
    if face > cfg.worm_on_target:
        d = DIRECTIONS[(face - cfg.worm_on_target - 1) % len(DIRECTIONS)]
        off = Hex(aimed.q + d.q, aimed.r + d.r)
        if state.scenario.board.contains(off) and state.scenario.terrain.get(off) != "impassable":
            cell = off
    occ = state.occupancy()
    victim = occ.get(cell)
    events: list[Event] = []
    swallowed = 0.0
    if victim is not None and not victim.airborne and not is_shielded(state, victim.id):
        # A character is destroyed outright (no amount to halve); a body unit's 100 men are a loss the
        # Temple halves (VX-05-11).
        swallowed = (
            victim.strength
            if victim.type.is_character
            else received(state, victim, min(victim.strength, cfg.worm_swallow_men))
        )
        left = victim.strength - swallowed
        hit = replace(victim, strength=left, casualties_turn=victim.casualties_turn + swallowed)
        if hit.is_spent:
            hit = wiped_out(hit)
            events.append(UnitRemoved(victim.id, "swallowed by the Sand Worm"))
        state = state.with_unit(hit)
        occ = state.occupancy()
    up = cell if _standable(state, cell, occ) else nearest_free(state, cell, occ)
    if up is None:  # nowhere on the whole table to come up: it stays below
        return state, events
    state = state.with_unit(replace(state.units[uid], hidden=False, cell=up, surface_turns=0))
    event = WormSurfaced(
        uid,
        hex_to_offset(aimed),
        hex_to_offset(up),
        None if swallowed == 0 or victim is None else victim.id,
        swallowed,
    )
    return state, [event, *events]


def sunstroke(state: ValkyrxState) -> Flow:
    """End of turn: a worm on the surface counts the turn; after the third it dies (VX-12-13)."""
    limit = rules_config().stealth.worm_surface_turns
    events: list[Event] = []
    for u in state.units:
        if is_worm(u) and u.on_table:
            turns = u.surface_turns + 1
            if turns >= limit:
                state = state.with_unit(wiped_out(u, surface_turns=turns))
                events.append(UnitRemoved(u.id, "sunstroke"))
            else:
                state = state.with_unit(replace(u, surface_turns=turns))
    return state, events


# --- the Grima's pursuit --------------------------------------------------------------------------------


def pursue(state: ValkyrxState) -> Flow:
    """End of the movement phase: the table moves each hidden Grima after her quarry (VX-12-04).

    She moves up to her charge allowance along a shortest path, unseen, so units do not block her but
    impassable ground does. Next to her quarry she emerges on a free cell beside it and strikes: a d2.
    """
    events: list[Event] = []
    pending: list[Pending] = []
    sides = rules_config().stealth.grima_strike_sides
    for g in state.units:
        if not (is_grima(g) and g.hidden and g.in_play and g.quarry is not None):
            continue
        prey = state.units[g.quarry]
        if not prey.on_table:  # her quarry left the table: lost; she waits for a new one
            state = state.with_unit(replace(g, quarry=None))
            continue
        a = allowance(state, g)
        budget = a.charge if a.charge is not None else a.normal
        board = state.scenario.board
        reach = movement_range(
            board, g.cell, budget, cost=state.scenario.entry_costs, blocked=frozenset(), stop=frozenset()
        )
        reach.pop(prey.cell, None)  # she may pass through it unseen, but she stops beside it
        best = min(reach, key=lambda c: (distance(c, prey.cell), reach[c], board.index[c]))
        if best != g.cell:
            events.append(HiddenMove(g.owner, g.id, hex_to_offset(g.cell), hex_to_offset(best)))
            state = state.with_unit(replace(g, cell=best))
            g = state.units[g.id]
        if distance(g.cell, prey.cell) > 1 or prey.airborne:
            continue  # not there yet, or her prey is in the air: she waits below, unseen
        occ = state.occupancy()
        beside = [n for n in neighbours(prey.cell) if _standable(state, n, occ)]
        if not beside:
            continue  # no room beside her prey: she waits unseen
        cell = (
            g.cell if g.cell in beside else min(beside, key=lambda c: (distance(c, g.cell), board.index[c]))
        )
        state = state.with_unit(replace(g, hidden=False, cell=cell, moved=True, moved_cost=0.0))
        events.append(UnitRevealed(g.id, hex_to_offset(cell)))
        pending.append(
            Pending(
                "grima",
                unit=g.id,
                sides=sides,
                purpose=f"the Grima strikes at {prey.label} ({sides}: she kills, otherwise she fights)",
            )
        )
    return replace(state, pending=(*state.pending, *pending)), events


def grima_answered(state: ValkyrxState, uid: int, face: int) -> Flow:
    """Her strike: the top face kills her quarry (50%), else she stands revealed beside it (VX-12-07)."""
    grima = state.units[uid]
    assert grima.quarry is not None
    prey = state.units[grima.quarry]
    success = (
        face == rules_config().stealth.grima_strike_sides and prey.in_play and not is_shielded(state, prey.id)
    )
    events: list[Event] = [GrimaStruck(uid, prey.id, success)]
    if success:
        state = state.with_unit(wiped_out(prey))
        events.append(UnitRemoved(prey.id, "slain by the Grima"))
    state = state.with_unit(replace(state.units[uid], quarry=None))
    return state, events
