"""Morale (section 10): the five statuses, end-of-turn changes, rout and flight."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import MoraleChanged, UnitRallied, UnitRemoved, UnitRouted
from iwgt.games.valkyrx.state import Unit, ValkyrxState
from iwgt.geometry.hexgrid import distance

Status = Literal["High", "Enhanced", "Standard", "Weakened", "Critical"]


def morale_status(score: float) -> Status:
    """VX-10-07..12: shared end points belong to the lower band above 20 and the higher band below it.

    Units start at 20..40 and are "Standard" (VX-10-01), so 40 and 20 are Standard; 50 is Enhanced
    ("Over 50" is High); 10 is Weakened. Scores below zero mean flight (VX-10-13), handled elsewhere.
    """
    m = rules_config().morale
    if score > m.high_above:
        return "High"
    if score > m.enhanced_above:
        return "Enhanced"
    if score >= m.weakened_below:
        return "Standard"
    if score >= m.critical_below:
        return "Weakened"
    return "Critical"


def _near(a: Unit, b: Unit, radius: int) -> bool:
    return distance(a.cell, b.cell) <= radius


def morale_changes(
    state: ValkyrxState,
    unit: Unit,
    *,
    won: int,
    flanked: bool,
    outnumbered: bool,
    leaders_fallen: Mapping[int, int],
) -> list[tuple[float, str]]:
    """Every end-of-turn morale change of one unit, with its reason (VX-10-05, VX-10-14 to VX-10-16)."""
    m = rules_config().morale
    out: list[tuple[float, str]] = []
    if unit.casualties_turn > 0:  # VX-10-15
        pct = 100 * unit.casualties_turn / unit.start_strength
        out.append((-m.loss_per_percent_casualties * pct, f"lost {pct:.1f}% of its strength"))
    if won > 0:  # VX-10-03: performed well
        out.append((m.combat_won, "won its close combat"))
    elif won < 0:
        out.append((m.combat_lost, "lost its close combat"))
    if flanked:  # VX-04-21
        out.append((m.flanked, "attacked in the flank"))
        if outnumbered:  # VX-04-23
            out.append((m.outnumbered, "heavily outnumbered"))
    fearless = unit.type.has("elf")  # VX-13-ELVES-1: no fear of the supernatural or the undead
    for other in state.units:
        if not other.on_table or other.id == unit.id:
            continue
        t = other.type
        friend = other.commander == unit.commander
        if t.has("supreme_leader") and _near(unit, other, m.leader_radius):  # VX-10-16
            if friend:
                out.append((m.own_leader, f"{t.name} is near"))
            elif not fearless:
                out.append((m.enemy_leader, f"the enemy's {t.name} is near"))
        if friend:
            if (
                t.has("unsettling")
                and not unit.type.has("unsettling")
                and _near(unit, other, m.unsettling_radius)
            ):
                out.append((m.unsettling, f"uneasy beside the {t.name}"))  # VX-13-TROLL-2
            continue
        adjacent = distance(unit.cell, other.cell) == 1 and not other.airborne and not unit.airborne
        if t.has("unsettling") and _near(unit, other, m.unsettling_radius):
            out.append((m.unsettling, f"uneasy beside the {t.name}"))
        if not adjacent or fearless:
            continue
        if t.has("despair"):  # VX-13-MISTRIWAN-1
            out.append((m.despair, f"despair at {t.name}"))
        high = morale_status(unit.spirit) == "High"
        if t.has("dread") and not high:  # VX-13-UNSIBB-1
            out.append((m.dread, f"quails before {t.name}"))
        if t.has("fear") and not high:  # VX-13-WRAITHKING-2
            out.append((m.fear, f"fear of {t.name}"))
    if unit.type.has("mutant") and leaders_fallen.get(unit.owner, 0):  # VX-13-MANGERE-2
        out.append((m.leader_slain_panic, "panic: the Demon King has fallen"))
    return out


def apply_morale(
    state: ValkyrxState,
    won: Mapping[int, int],
    flanked: frozenset[int],
    outnumbered: frozenset[int],
    leaders_fallen: Mapping[int, int],
) -> tuple[ValkyrxState, list[MoraleChanged | UnitRouted | UnitRallied | UnitRemoved]]:
    """End-of-turn morale for every unit on the table, then rout (Critical) and flight (below zero)."""
    m = rules_config().morale
    events: list[MoraleChanged | UnitRouted | UnitRallied | UnitRemoved] = []
    new_units = list(state.units)
    for unit in state.units:
        if not unit.on_table:
            continue
        changes = morale_changes(
            state,
            unit,
            won=won.get(unit.id, 0),
            flanked=unit.id in flanked,
            outnumbered=unit.id in outnumbered,
            leaders_fallen=leaders_fallen,
        )
        score = float(round(min(m.maximum, unit.morale + sum(d for d, _ in changes)), 3))
        if changes and score != unit.morale:
            events.append(MoraleChanged(unit.id, unit.morale, score, tuple(r for _, r in changes)))
        u = replace(unit, morale=score)
        if u.spirit < 0:  # VX-10-13: flees the field (Fear and Courage count, VX-SP-FEAR-2)
            u = replace(u, status="fled")
            events.append(UnitRemoved(u.id, "fled"))
        elif morale_status(u.spirit) == "Critical" and not unit.routed:  # VX-03-11
            u = replace(u, routed=True)
            events.append(UnitRouted(u.id))
        elif morale_status(u.spirit) != "Critical" and unit.routed:
            u = replace(u, routed=False)
            events.append(UnitRallied(u.id))
        new_units[unit.id] = u
    return replace(state, units=tuple(new_units)), events
