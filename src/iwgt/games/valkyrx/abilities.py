"""Section 13 abilities that act outside the combat formula: the Troll, the Elves, the army of the dead."""

from __future__ import annotations

from dataclasses import replace

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import DeadRaised, TrollDevoured, UnitRemoved
from iwgt.games.valkyrx.losses import received
from iwgt.games.valkyrx.movement import is_ground
from iwgt.games.valkyrx.state import Unit, ValkyrxState
from iwgt.geometry.hexgrid import neighbours


def troll_victim(state: ValkyrxState, troll: Unit) -> Unit | None:
    """The friend a hungry Troll may pounce on: the fullest friendly body-unit beside it (VX-13-TROLL-1)."""
    if not is_ground(troll) or not troll.type.has("devours_friends"):
        return None
    occ = state.occupancy()
    friends = [
        u
        for n in neighbours(troll.cell)
        if (u := occ.get(n)) is not None
        and u.owner == troll.owner
        and is_ground(u)
        and not u.type.is_character
        and not u.type.has("devours_friends")
    ]
    return max(friends, key=lambda u: (u.strength, -u.id)) if friends else None


def devour(state: ValkyrxState, troll: Unit, face: int) -> tuple[ValkyrxState, list[TrollDevoured]]:
    """On a 1 the Troll devours a share of its friend's men."""
    victim = troll_victim(state, troll)
    if victim is None or face != 1:
        return state, []
    cas = received(state, victim, victim.strength * rules_config().abilities.troll_devour_share)
    victim = replace(victim, strength=victim.strength - cas, casualties_turn=victim.casualties_turn + cas)
    return state.with_unit(victim), [TrollDevoured(troll.id, victim.id, cas)]


def elves_depart(state: ValkyrxState) -> tuple[ValkyrxState, list[UnitRemoved]]:
    """VX-13-ELVES-4: when the Elven force has lost too much of its value, every Elf leaves the field."""
    events: list[UnitRemoved] = []
    for seat in (0, 1):
        # Elves still in reserve are not yet of the force: they count from their arrival (VX-15-24).
        elves = [u for u in state.units if u.owner == seat and u.type.has("elf") and not u.in_reserve]
        if not any(u.on_table for u in elves):
            continue
        start = sum(u.type.points for u in elves)
        now = sum(u.value for u in elves if u.on_table)
        if start - now >= rules_config().abilities.elves_grievous_loss * start:
            for u in elves:
                if u.on_table:
                    state = state.with_unit(replace(u, status="left"))
                    events.append(UnitRemoved(u.id, "left"))
    return state, events


def raise_dead(state: ValkyrxState) -> tuple[ValkyrxState, list[DeadRaised]]:
    """VX-13-UNDEAD-2: while the King of the Dead stands, some of those the undead slew rise and join them."""
    events: list[DeadRaised] = []
    ab = rules_config().abilities
    for uid, slain in state.raised:
        unit = state.units[uid]
        king = any(u.on_table and u.owner == unit.owner and u.type.has("raises_dead") for u in state.units)
        if not king or not unit.on_table or unit.type.is_character:
            continue
        cap = ab.undead_raise_cap * unit.start_strength
        gain = min(slain * ab.undead_raise_share, cap - unit.strength)
        if gain > 0:
            state = state.with_unit(replace(unit, strength=unit.strength + gain))
            events.append(DeadRaised(uid, gain))
    return replace(state, raised=()), events
