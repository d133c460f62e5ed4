"""Helpers shared by combat, shooting, spells, heroic and stratagems: the table, CP, damage, destruction.

Pure functions of ``AnvilState``; nothing here decides a rule of its own beyond what its docstring says.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from shapely.geometry import Polygon

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.combat_events import StratagemUsed, UnitDamaged, UnitDestroyed
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState, Unit, pair
from iwgt.geometry.trays import Feature, Tray, line_of_sight, tray_gap

AREA_EPS: Final = 1e-9
"""Square inches of shared area below which two shapes only touch."""
REACH_EPS: Final = 1e-6
"""Inches of slack when comparing a cost or range with an allowance (floating-point noise)."""


def table_size(state: AnvilState) -> tuple[float, float]:
    """The table's width and height in inches."""
    return (state.scenario.spec.width, state.scenario.spec.height)


def figures(state: AnvilState) -> int:
    """Miniatures across a tray's front (LOS looks at whole miniatures, FA-LS-01)."""
    return state.scenario.spec.figures


def terrain(state: AnvilState) -> list[Feature]:
    """The terrain features on the table."""
    return state.terrain()


def impassable(state: AnvilState) -> list[Polygon]:
    """The impassable features' polygons."""
    return [f.polygon() for f in state.terrain() if f.impassable]


def tray_of(unit: Unit) -> Tray:
    """A unit's tray, which it must have (it is on the table)."""
    if unit.tray is None:
        raise IllegalAction(f"{unit.name} is not on the table")
    return unit.tray


def sees(state: AnvilState, viewer: Unit, target: Unit) -> bool:
    """Whether ``viewer`` has LOS to ``target`` (FA-LS-01..03)."""
    return line_of_sight(tray_of(viewer), tray_of(target), figures(state), terrain(state))


def gap(a: Unit, b: Unit) -> float:
    """Inches between the nearest points of two units' trays (ranges are tray to tray)."""
    return tray_gap(tray_of(a), tray_of(b))


def crosses(a: Polygon, b: Polygon) -> bool:
    """Whether two shapes share area (touching is not crossing)."""
    return bool(a.intersects(b)) and float(a.intersection(b).area) > AREA_EPS


def cost_of(key: str) -> int:
    """A stratagem's CP cost from the data."""
    return rules().stratagem(key).cost


def clause_of(key: str) -> str:
    """A stratagem's first clause (its price and users)."""
    return rules().stratagem(key).clauses[0]


def may_use(unit: Unit, key: str) -> bool:
    """Whether the unit may use the stratagem by type, Shooter and General (FA-ST-02); never the Seat."""
    if unit.is_seat:
        return False
    return (
        rules()
        .stratagem(key)
        .usable_by(
            unit.type,  # type: ignore[arg-type]
            shooter=unit.has("shooter"),
            general=unit.general,
        )
    )


def pay(
    state: AnvilState, seat: int, unit: int, key: str, events: list[Event], cost: int | None = None
) -> AnvilState:
    """Pay a stratagem's CP from the seat's CP left this turn (refused if it cannot), recording it."""
    price = cost_of(key) if cost is None else cost
    if state.cp[seat] < price:
        name = rules().stratagem(key).name
        raise IllegalAction(f"{name} costs {price} CP; {state.cp[seat]} CP left")
    events.append(StratagemUsed(seat, unit, key, price, clause_of(key)))
    return replace(state, cp=pair(state.cp, seat, state.cp[seat] - price))


def destroy(state: AnvilState, uid: int, cause: str, events: list[Event]) -> AnvilState:
    """Remove a unit at 0 HP from the table (FA-CRM-02); the flow scores it and checks the end."""
    u = state.unit(uid)
    if u.destroyed:
        return state
    events.append(UnitDestroyed(uid, u.seat, cause))
    return state.with_unit(replace(u, hp=0, destroyed=True))


def set_hp(state: AnvilState, uid: int, hp: int, cause: str, events: list[Event]) -> AnvilState:
    """Set a unit's HP; at 0 or less it is destroyed."""
    u = state.unit(uid)
    if hp <= 0:
        return destroy(state, uid, cause, events)
    return state.with_unit(replace(u, hp=hp))


def harm(state: AnvilState, uid: int, damage: int, clause: str, events: list[Event]) -> AnvilState:
    """Damage outside the matrix (spells, Summon Subjects' price): HP down, destroyed at 0."""
    u = state.unit(uid)
    hp = u.hp - damage
    events.append(UnitDamaged(uid, damage, max(0, hp), clause))
    return set_hp(state, uid, hp, clause, events)


def friends_of(state: AnvilState, unit: Unit) -> list[Unit]:
    """The unit's friends on the table (not itself)."""
    return [u for u in state.on_table(unit.seat) if u.id != unit.id]


def others_of(state: AnvilState, unit: Unit) -> list[Unit]:
    """Every other unit on the table."""
    return [u for u in state.on_table() if u.id != unit.id]


def in_activation(state: AnvilState) -> bool:
    """Whether a unit's activation is under way (and no interruption is awaited)."""
    return state.phase == "activation" and state.activation is not None and state.pending is None


def active_unit(state: AnvilState) -> Unit:
    """The active unit, refusing when there is none or it is gone."""
    u = state.active
    if u is None or state.phase != "activation" or state.pending is not None:
        raise IllegalAction("no unit is activated now")
    if not u.on_table:
        raise IllegalAction(f"{u.name} is no longer on the table")
    return u


def check_actor(state: AnvilState, uid: int) -> Unit:
    """The active unit, which the action must name."""
    u = active_unit(state)
    if uid != u.id:
        raise IllegalAction(f"unit {uid} is not the active unit ({u.name}, {u.id})")
    return u


def enemy_target(state: AnvilState, actor: Unit, tid: int) -> Unit:
    """An enemy unit on the table by id, refused otherwise."""
    if not 0 <= tid < len(state.units):
        raise IllegalAction(f"no unit {tid}")
    t = state.unit(tid)
    if t.seat == actor.seat:
        raise IllegalAction(f"{t.name} is a friend")
    if not t.on_table:
        raise IllegalAction(f"{t.name} is not on the table")
    return t


def any_target(state: AnvilState, tid: int) -> Unit:
    """A unit on the table by id, refused otherwise."""
    if not 0 <= tid < len(state.units):
        raise IllegalAction(f"no unit {tid}")
    t = state.unit(tid)
    if not t.on_table:
        raise IllegalAction(f"{t.name} is not on the table")
    return t
