"""Losses outside the combat formula: the ground's own (quicksand), taken the same way by every move."""

from __future__ import annotations

from dataclasses import replace

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import TerrainCasualties
from iwgt.games.valkyrx.state import Unit, ValkyrxState


def sink(state: ValkyrxState, unit: Unit) -> tuple[Unit, list[TerrainCasualties]]:
    """The unit, set down on the ground at its cell, after quicksand takes its quarter (VX-05-05).

    Every ground move pays it: a walk or charge, a late arrival (VX-15-24) and a routed unit's compulsory
    move (VX-03-08) alike. A unit that is airborne or not in quicksand is returned unchanged.
    """
    if unit.airborne or state.scenario.terrain.get(unit.cell) != "quicksand":
        return unit, []
    cas = unit.strength * rules_config().combat.quicksand_casualties
    hit = replace(unit, strength=unit.strength - cas, casualties_turn=unit.casualties_turn + cas)
    return hit, [TerrainCasualties(unit.id, cas, "quicksand")]
