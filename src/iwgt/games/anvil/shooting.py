"""Ballistics and Parthian Shot (FA-SS-01..09): a combat by the matrix at a range band, no bounce back.

Entry points for ``game.py``: ``shoot_actions(state)`` and ``apply_shoot(state, Shoot)``;
``plan_shot(state, unit, target)`` gives the band (the table's preview).

A unit with Shooter (FA-SD-05/06) pays Ballistics' 3 CP and shoots an enemy in LOS: range between the
nearest points of the trays; up to 6" the cell's rear value, up to 12" the flank value, up to 18" the front
value (FA-SS-02..04); NATE at that band: not allowed. Hammerblow +1, Heavy Projectile +1, Parthian Shot -1,
Brace -3 (``matrix.resolve``). No bounce back, no excess move (FA-SS-06); the unit may not move in that
activation (FA-SS-05) unless it declared Parthian Shot (a Troop with Shooter, 1 CP more), which lets it move
before and after the shot (the range is measured where it stands when it shoots, FA-SS-08). Hero of the
Day may answer a shot that would destroy its unit. Beyond 18" with premeasuring off: the CP are spent and
the shot has no effect (FA-GN-09 decided).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import Shoot
from iwgt.games.anvil.combat import HAMMERBLOW, proceed
from iwgt.games.anvil.combat_events import ShotMissed
from iwgt.games.anvil.matrix import ballistics_band, cell
from iwgt.games.anvil.pending import Combat, CombatSide
from iwgt.games.anvil.resolving import (
    check_actor,
    cost_of,
    enemy_target,
    gap,
    in_activation,
    may_use,
    pay,
    sees,
)
from iwgt.games.anvil.state import Activation, AnvilState, Unit

BALLISTICS = "ballistics"
PARTHIAN = "parthian_shot"


def shoot_block(state: AnvilState, unit: Unit, act: Activation) -> str | None:
    """Why the active unit may not shoot now (None: it may)."""
    if not may_use(unit, BALLISTICS):
        return "FA-SS-01: Ballistics needs a unit with Shooter"
    if act.shot:
        return "FA-AC-02: Ballistics is already used in this activation"
    if act.engaged:
        return "the unit has engaged in this activation"
    if act.excess_only:
        return "FA-CRM-03: only the excess move is left"
    if act.moved and not act.used(PARTHIAN):
        return "FA-SS-05: a unit that moved may not use Ballistics (but with Parthian Shot)"
    if act.deployed and not act.infiltrated and not act.used(PARTHIAN):
        # FA-DP-01 decided: coming on from an edge is moving onto the table (an infiltrated unit is placed:
        # it has not moved and may shoot).
        return "FA-SS-05: a unit deploying in this activation moved onto the table (but with Parthian Shot)"
    if state.cp[act.seat] < cost_of(BALLISTICS):
        return f"Ballistics costs {cost_of(BALLISTICS)} CP; {state.cp[act.seat]} CP left"
    return None


def plan_shot(state: AnvilState, unit: Unit, target: Unit) -> CombatSide | None:
    """The band a shot at ``target`` counts as (None: beyond 18", spent with no effect when not
    premeasuring), or IllegalAction (no LOS, NATE at that band, out of range when premeasuring)."""
    if not sees(state, unit, target):
        raise IllegalAction(f"FA-SS-02: {unit.name} has no line of sight to {target.name}")
    distance = gap(unit, target)
    band = ballistics_band(distance)
    if band is None:
        if state.options.premeasure:
            raise IllegalAction(f'FA-SS-02: {target.name} is {distance:.2f}" away; Ballistics reaches 18"')
        return None
    read: CombatSide = "front" if target.skirmishing else band
    if cell(unit.type, target.type).value(read) is None:
        if state.options.premeasure:
            raise IllegalAction(f'FA-SS-04: NATE: {unit.name} may not shoot {target.name} at {distance:.2f}"')
        return None
    return band


def shoot_actions(state: AnvilState) -> list[Shoot]:
    """The shots the active unit may take now (with premeasuring off: every enemy in LOS)."""
    if not in_activation(state) or state.activation is None or state.active is None:
        return []
    unit = state.active
    if not unit.on_table or shoot_block(state, unit, state.activation) is not None:
        return []
    out = []
    for e in state.enemies(unit.seat):
        try:
            plan_shot(state, unit, e)
        except IllegalAction:
            continue
        out.append(Shoot(unit.id, e.id))
    return out


def apply_shoot(state: AnvilState, action: Shoot) -> tuple[AnvilState, list[Event]]:
    """Ballistics: pay 3 CP, then the combat at the band (or no effect beyond range, premeasuring off)."""
    unit = check_actor(state, action.unit)
    act = state.activation
    assert act is not None
    why = shoot_block(state, unit, act)
    if why is not None:
        raise IllegalAction(why)
    target = enemy_target(state, unit, action.target)
    band = plan_shot(state, unit, target)
    events: list[Event] = []
    state = pay(state, act.seat, unit.id, BALLISTICS, events)
    parthian = act.used(PARTHIAN)
    act = replace(act, shot=True, stratagems=(*act.stratagems, BALLISTICS))
    if not parthian:
        act = replace(act, allowance=0.0)  # FA-SS-05
    state = replace(state, activation=act)
    if band is None:
        events.append(ShotMissed(unit.id, target.id, round(gap(unit, target), 6)))
        return state, events
    combat = Combat(
        unit.id,
        target.id,
        band,
        hammerblow=act.used(HAMMERBLOW),
        ballistics=True,
        parthian=parthian,
        heavy=unit.has("heavy_projectile"),
    )
    return proceed(state, combat, events), events
