"""Losses outside the combat formula: the Temple's ward on every loss received, and quicksand's quarter."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import TerrainCasualties
from iwgt.games.valkyrx.state import Unit, ValkyrxState


def warded(state: ValkyrxState, unit: Unit) -> bool:
    """The unit prayed at the Temple and its powers last: it receives half its casualties (VX-05-11)."""
    return state.turn <= unit.temple_until


def received(state: ValkyrxState, unit: Unit, cas: float) -> float:
    """What a loss of ``cas`` really takes from the unit: halved by the Temple's ward, never more than it has.

    VX-05-11 "Casualties received 50% of normal" is unqualified, so it halves every loss given as an
    amount (quicksand, a Troll, spell damage, the plague, the Sand Worm), as ``combat.casualties`` does.
    """
    if warded(state, unit):
        cas *= rules_config().combat.temple_receive_factor
    return min(max(cas, 0.0), unit.strength)


def wiped_out(unit: Unit, **changes: Any) -> Unit:
    """The unit destroyed outright: everything it had left counts as this turn's loss, for the report.

    A removal (Sleep's slaughter, the earthquake, lava, the Grima's strike, Armageddon ...) takes no amount
    to halve, but the men or the share it takes are lost all the same: the health-bar report counts them
    (VX-15-22). The unit is off the table, so its morale, which ``casualties_turn`` also feeds, is moot.
    """
    return replace(
        unit,
        status="destroyed",
        strength=0.0,
        casualties_turn=unit.casualties_turn + unit.strength,
        **changes,
    )


def sink(state: ValkyrxState, unit: Unit) -> tuple[Unit, list[TerrainCasualties]]:
    """The unit, set down on the ground at its cell, after quicksand takes its quarter (VX-05-05).

    Every ground move pays it: a walk or charge, a late arrival (VX-15-24) and a routed unit's compulsory
    move (VX-03-08) alike. A unit that is airborne or not in quicksand is returned unchanged.
    """
    if unit.airborne or state.scenario.terrain.get(unit.cell) != "quicksand":
        return unit, []
    cas = received(state, unit, unit.strength * rules_config().combat.quicksand_casualties)
    hit = replace(unit, strength=unit.strength - cas, casualties_turn=unit.casualties_turn + cas)
    return hit, [TerrainCasualties(unit.id, cas, "quicksand")]
