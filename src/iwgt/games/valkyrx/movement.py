"""Movement policing (sections 2 to 5): who may move, how far, where, and why not."""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Seat
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.spells import is_leaden, lava_cells, lava_proof, move_factor, portals
from iwgt.games.valkyrx.state import Unit, ValkyrxState
from iwgt.geometry.hexgrid import Hex, HexBoard, distance, movement_range, neighbours

_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Allowance:
    """A unit's movement this turn, in cells: ground normal and charge, and flight for flyers."""

    normal: float
    charge: float | None
    fly: float | None


@dataclass(frozen=True, slots=True)
class Destinations:
    """Every legal destination of one unit with the cost (in normal-allowance cells) of reaching it."""

    walk: dict[Hex, float]
    charge: dict[Hex, float]
    fly: dict[Hex, float]


def allowance(state: ValkyrxState, unit: Unit) -> Allowance:
    """Movement Allowance from the table (VX-02-11, VX-04-12); flyers walk fly/3 (VX-04-31); Temple x2."""
    t = unit.type
    # VX-05-09 the Temple, VX-SP-SPEED-2 the Speed spell: each doubles, together still only x2.
    mult = max(2.0 if state.turn <= unit.temple_until else 1.0, move_factor(state, unit))
    if t.has("flyer"):
        walk = max(1, round(t.move / rules_config().movement.flyer_walk_divisor))
        return Allowance(normal=walk * mult, charge=None, fly=t.move * mult)
    charge = None if t.charge is None else t.charge * mult
    return Allowance(normal=t.move * mult, charge=charge, fly=None)


def is_ground(unit: Unit) -> bool:
    """On the table and on the ground: can be in close combat (VX-04-29)."""
    return unit.on_table and not unit.airborne


def enemies_of(state: ValkyrxState, unit: Unit) -> list[Unit]:
    """Units on the table of the other side (by who commands them)."""
    side = unit.commander
    return [u for u in state.units if u.on_table and u.commander != side]


def adjacent_ground_enemies(
    state: ValkyrxState, unit: Unit, occ: dict[Hex, Unit] | None = None
) -> list[Unit]:
    """Enemy ground units in the cells next to this one."""
    occ = state.occupancy() if occ is None else occ
    side = unit.commander
    out = []
    for n in neighbours(unit.cell):
        other = occ.get(n)
        if other is not None and other.commander != side and is_ground(other):
            out.append(other)
    return out


def why_not_leave(state: ValkyrxState, unit: Unit, occ: dict[Hex, Unit] | None = None) -> str | None:
    """Why a unit may not leave its cell because it is locked in close combat (VX-03-03, VX-04-11), or None
    if it may."""
    if unit.airborne:
        return None
    for enemy in adjacent_ground_enemies(state, unit, occ):
        contact = state.contact(unit.id, enemy.id)
        if contact is None or contact.rounds == 0:
            return f"it is locked in close combat with {enemy.type.name} until they have fought a round"
    return None


def why_not_move(
    state: ValkyrxState, unit: Unit, seat: Seat, occ: dict[Hex, Unit] | None = None
) -> str | None:
    """Why the seat may not move this unit now (an unlit unit, VX-03-02), or None if it may."""
    if unit.in_reserve:
        return "it is a late troop, not yet on the table: it comes on with Add troops (VX-15-24)"
    if unit.hidden and unit.in_play:  # off the table, but still in the game (section 12)
        if unit.type.has("stealth"):
            return "she is hidden: the table moves her by herself after her quarry; reveal her to command her"
        return "it is underground: it takes only Tunnel and Surface orders"
    if not unit.on_table:
        return "it is no longer on the table"
    if unit.commander != seat:
        return "it is not under your command"
    if unit.moved:
        return "it has already moved this turn"
    if unit.routed:
        return "it is routed and makes only its compulsory move away"
    if is_leaden(state, unit.id):
        return "Lead Boots hold it: it cannot move (VX-SP-LEADBOOTS-2)"
    return why_not_leave(state, unit, occ)


def why_not_charge(state: ValkyrxState, unit: Unit) -> str | None:
    """Why the unit may not charge this turn (VX-04-14, VX-04-15), or None if it may."""
    if unit.type.charge is None:
        return f"{unit.type.name} has no charge speed"
    gap = rules_config().movement.charge_interval
    if unit.last_charge is not None and state.turn < unit.last_charge + gap:
        return (
            f"it charged in turn {unit.last_charge} and may charge again from turn {unit.last_charge + gap}"
        )
    return None


def _pursued(state: ValkyrxState, unit: Unit) -> tuple[int, ...]:
    """Enemies the unit fought in the last combat round: only these may be charged (VX-04-15, -16)."""
    return tuple(c.other(unit.id) for c in state.contacts if unit.id in (c.a, c.b) and c.rounds > 0)


def _obstacles(
    state: ValkyrxState, unit: Unit, occ: dict[Hex, Unit]
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """Cells the unit may not enter (occupied, VX-04-24; lava; an enemy portal) and cells it may enter only
    to stop (VX-04-25)."""
    board = state.scenario.board
    side = unit.commander
    blocked = frozenset(c for c in occ if c != unit.cell)
    if state.enchantments:
        lava = frozenset() if lava_proof(unit) else lava_cells(state)  # VX-SP-CREEP-6
        shut = frozenset(c for c, e in portals(state).items() if e.side != side)  # the portal serves its side
        blocked = blocked | lava | shut
    # The board's neighbour tables: this runs once per unit for every legal_actions call (the hot path).
    index, cells, table = board.index, board.cells, board.neighbour_index
    zoc = frozenset(
        cells[j] for u in occ.values() if u.commander != side and not u.airborne for j in table[index[u.cell]]
    )
    return blocked, zoc


def destinations(state: ValkyrxState, unit: Unit, occ: dict[Hex, Unit] | None = None) -> Destinations:
    """Every cell the unit may legally end its move on, by kind of move (the start cell excluded)."""
    scen = state.scenario
    board: HexBoard = scen.board
    occ = state.occupancy() if occ is None else occ
    cost = scen.entry_costs
    blocked, zoc = _obstacles(state, unit, occ)
    allow = allowance(state, unit)
    lava = lava_cells(state) if state.enchantments else frozenset()

    walk = movement_range(board, unit.cell, allow.normal, cost=cost, blocked=blocked, stop=zoc)
    walk.pop(unit.cell, None)

    fly: dict[Hex, float] = {}
    if allow.fly is not None:
        # VX-04-27: placed two or more cells away, the flyer is airborne; it passes over anything.
        for cell in board.cells_within(unit.cell, int(allow.fly)):
            d = distance(unit.cell, cell)
            # An airborne flyer may end its flight over lava: it does not stand in it (VX-SP-CREEP-6).
            aloft = cell in lava and cell not in occ
            if d >= 2 and (cell not in blocked or aloft) and cost[board.index[cell]] > 0:
                fly[cell] = allow.normal * d / allow.fly
        # VX-04-31: fly part of the way, land, then walk at least one cell: fly/F + walk/W <= 1.
        # The search is seeded at the landing cells' neighbours, so a pure flight never counts as a walk.
        seeds: dict[Hex, float] = {}
        for land, c0 in fly.items():
            if land in zoc or c0 > allow.normal - 1 + _EPS:
                continue  # landing next to an enemy ends the move; or no walk is left
            for n in neighbours(land):
                j = board.index.get(n)
                if j is None or cost[j] <= 0 or n in blocked or n == unit.cell:
                    continue
                c = c0 + cost[j]
                if c <= allow.normal + _EPS and c < seeds.get(n, float("inf")):
                    seeds[n] = c
        if seeds:
            mixed = movement_range(
                board, unit.cell, allow.normal, cost=cost, blocked=blocked, stop=zoc, extra_sources=seeds
            )
            mixed.pop(unit.cell, None)
            for cell, c in mixed.items():
                if c < walk.get(cell, float("inf")):
                    walk[cell] = c

    charge: dict[Hex, float] = {}
    if allow.charge is not None and why_not_charge(state, unit) is None:
        pursued = _pursued(state, unit)
        reach = movement_range(board, unit.cell, allow.charge, cost=cost, blocked=blocked, stop=zoc)
        for cell, c in reach.items():
            if cell == unit.cell or cell not in zoc:
                continue  # VX-04-17: a charge must end in contact
            if pursued:
                foes = {occ[n].id for n in neighbours(cell) if n in occ}
                if not foes.intersection(pursued):
                    continue  # VX-04-15: engaged last round, it may charge only the enemy it pursues
            charge[cell] = c
    return Destinations(walk=walk, charge=charge, fly=fly)


def check_move(
    state: ValkyrxState, unit: Unit, seat: Seat, to: Hex, *, charge: bool, airborne: bool
) -> float:
    """The cost of a legal move; an illegal one raises IllegalAction with the reason (VX-03-06)."""
    occ = state.occupancy()
    why = why_not_move(state, unit, seat, occ)
    if why:
        raise IllegalAction(f"{unit.type.name} cannot move: {why}")
    board = state.scenario.board
    if not board.contains(to):
        raise IllegalAction("that cell is off the table")
    if to == unit.cell:
        raise IllegalAction("the unit must be set down on another cell (or not moved at all)")
    if to in occ:
        raise IllegalAction(f"that cell is occupied by {occ[to].type.name} (one unit per cell)")
    if state.scenario.terrain.get(to) == "impassable":
        raise IllegalAction("that cell is impassable")
    if to in lava_cells(state) and not lava_proof(unit) and not airborne:
        raise IllegalAction("that cell is covered in lava (Creeping Death, VX-SP-CREEP-6)")
    gate = portals(state).get(to)
    if gate is not None and gate.side != unit.commander:
        raise IllegalAction("that cell is an enemy wizard's portal: it serves only his side")
    dests = destinations(state, unit, occ)
    name = unit.type.name
    if airborne:
        if not unit.type.has("flyer"):
            raise IllegalAction(f"{name} cannot fly")
        if charge:
            raise IllegalAction("an airborne unit cannot charge: it cannot be in close combat (VX-04-29)")
        if to not in dests.fly:
            allow = allowance(state, unit)
            d = distance(unit.cell, to)
            if d < 2:
                raise IllegalAction("a flyer set down one cell away is walking, not airborne (VX-04-27)")
            raise IllegalAction(f"{name} can fly at most {allow.fly:g} cells; that cell is {d} away")
        return dests.fly[to]
    if charge:
        why = why_not_charge(state, unit)
        if why:
            raise IllegalAction(f"{name} cannot charge: {why}")
        if to not in dests.charge:
            raise IllegalAction(_charge_failure(state, unit, to, dests))
        return dests.charge[to]
    if to not in dests.walk:
        raise IllegalAction(_walk_failure(state, unit, to, dests))
    return dests.walk[to]


def _walk_failure(state: ValkyrxState, unit: Unit, to: Hex, dests: Destinations) -> str:
    allow = allowance(state, unit)
    if to in dests.charge:
        return f"that cell is beyond the normal move of {allow.normal:g}; declare a charge to reach it"
    if to in dests.fly:
        return "that cell can be reached only in flight: set the unit down airborne"
    d = distance(unit.cell, to)
    if d > allow.normal:
        return f"{unit.type.name} may move {allow.normal:g} cells; that cell is {d} away (VX-03-06)"
    return (
        "no legal path: difficult ground costs one cell more, occupied cells cannot be passed, "
        "and a path may not pass a cell next to an enemy without stopping to engage (VX-04-24, VX-04-25)"
    )


def _charge_failure(state: ValkyrxState, unit: Unit, to: Hex, dests: Destinations) -> str:
    allow = allowance(state, unit)
    if _pursued(state, unit):
        return "a unit engaged last round may charge only the enemy it was engaged with (VX-04-15, VX-04-16)"
    d = distance(unit.cell, to)
    if allow.charge is not None and d > allow.charge:
        return f"{unit.type.name} charges at most {allow.charge:g} cells; that cell is {d} away"
    return "a charge must end in contact with an enemy (VX-04-17, VX-04-18)"


def compulsory_destination(state: ValkyrxState, unit: Unit) -> Hex | None:
    """Where a routed unit flees: the reachable cell farthest from the nearest enemy (VX-03-08, VX-03-11)."""
    enemies = [u.cell for u in enemies_of(state, unit)]
    if not enemies:
        return None
    occ = state.occupancy()
    scen = state.scenario
    blocked, zoc = _obstacles(state, unit, occ)
    reach = movement_range(
        scen.board, unit.cell, allowance(state, unit).normal, cost=scen.entry_costs, blocked=blocked, stop=zoc
    )

    def key(cell: Hex) -> tuple[int, float, int]:
        return (-min(distance(cell, e) for e in enemies), reach[cell], scen.board.index[cell])

    best = min(reach, key=key)
    return None if best == unit.cell else best
