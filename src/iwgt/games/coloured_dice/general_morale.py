"""A unit lost, and the general-morale table (CD-GM-04..13): VP, banner, army leader, own fire.

When a unit is gone (no models left, routed, a character at Will 0, an immaterial spirit whose owner is gone)
``lose_unit`` does the bookkeeping of every row: its side's general morale for a starting Us of 25 or more
(-2) or else 15 or more (-1) (only the higher row, CD-GM-05/06 decision), the enemy's +1 for 25 or more
(CD-GM-11); the banner lost (-1) and captured (+1 to the enemy) when an enemy unit touches it (CD-GM-07/12
designed); the death of the army leader: one d6 chance node, -d6 for its side and +d6 for the enemy (CD-GM-04
and CD-GM-10 decision); destroyed by own fire: -d6 (CD-GM-09). The enemy scores the unit's points (designed),
none for a released spirit (decision).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_common import change_gm, gm_change, prof
from iwgt.games.coloured_dice.combat_events import BannerLost, UnitDestroyed, VictoryPoints
from iwgt.games.coloured_dice.formation import CONTACT_EPS
from iwgt.games.coloured_dice.morale import general_morale_sign, unit_destroyed_event
from iwgt.games.coloured_dice.pending import D6Roll
from iwgt.games.coloured_dice.rules import unit_points
from iwgt.games.coloured_dice.spirits import is_immaterial
from iwgt.games.coloured_dice.state import CdState, pair
from iwgt.geometry.trays import tray_gap

GM_LEADER: Final = "gm_leader"
"""The d6 effect of the army leader's death (CD-GM-04/10)."""
GM_OWN_FIRE: Final = "gm_own_fire"
"""The d6 effect of a unit destroyed by its own side's fire (CD-GM-09)."""
D6_EFFECTS: Final = (GM_LEADER, GM_OWN_FIRE)
"""The d6 effects this module resolves."""

BANNER_LOST: Final = "own_banner_lost"
BANNER_CAPTURED: Final = "enemy_banner_captured"
OWN_FIRE: Final = "own_fire"
OWN_LEADER: Final = "own_leader_killed"
ENEMY_LEADER: Final = "enemy_leader_killed"
DESTROYED_BY_OWN_FIRE: Final = "destroyed_by_own_fire"
OBJECTIVE: Final = "objective_achieved"


def lose_unit(
    state: CdState, uid: int, cause: str, events: list[Event], *, routed: bool = False, own_fire: bool = False
) -> CdState:
    """A unit is gone: every row of the general-morale table it meets, the enemy's VP, its spirits."""
    u = state.unit(uid)
    if u.destroyed or u.routed:
        return state
    # The touch is judged on its last tray (a unit wiped out in a fight has no models left).
    captor = next((e for e in state.enemies(u.seat) if tray_gap(u.tray, e.tray) <= CONTACT_EPS), None)
    state = state.with_unit(replace(u, destroyed=not routed, routed=routed))
    events.append(UnitDestroyed(u.id, u.seat, cause, routed))
    enemy = 1 - u.seat
    if u.owner is None:
        # a released spirit scores nothing (decision): its price is in its owner's points, and it is not in
        # its army's starting points either
        pts = unit_points(prof(u), u.start_models)
        state = replace(state, vp=pair(state.vp, enemy, state.vp[enemy] + pts))
        events.append(VictoryPoints(enemy, pts, state.vp[enemy], u.id))
    own_row = unit_destroyed_event(u.start_us, own=True)
    if own_row is not None:
        state = _row(state, u.seat, own_row, events)
    enemy_row = unit_destroyed_event(u.start_us, own=False)
    if enemy_row is not None:
        state = _row(state, enemy, enemy_row, events)
    if u.banner:
        events.append(BannerLost(u.id, u.seat, None if captor is None else captor.id))
        state = _row(state, u.seat, BANNER_LOST, events)
        if captor is not None:
            state = _row(state, enemy, BANNER_CAPTURED, events)
    if u.general:
        state = state.push(D6Roll("death of the army leader: general morale d6", GM_LEADER, u.seat))
    if own_fire:
        state = state.push(
            D6Roll("a unit destroyed by its own side's fire: general morale d6", GM_OWN_FIRE, u.seat)
        )
    for s in state.units:
        if s.owner == u.id and s.on_table and is_immaterial(s):
            state = lose_unit(state, s.id, "owner", events)  # CD-MA-08: bound to the world by its owner
    return state


def _row(state: CdState, seat: int, event: str, events: list[Event]) -> CdState:
    change = gm_change(event)
    assert isinstance(change, int), f"{event} is a d6 row"
    return change_gm(state, seat, change, event, events)


def own_fire_row(state: CdState, seat: int, events: list[Event]) -> CdState:
    """An own unit comes under fire from its own side: -1 (CD-GM-08)."""
    return _row(state, seat, OWN_FIRE, events)


def objective_row(state: CdState, seat: int, events: list[Event]) -> CdState:
    """An objective is achieved: +1 (CD-GM-13); the flow calls it."""
    return _row(state, seat, OBJECTIVE, events)


def d6_event(state: CdState, roll: D6Roll, face: int, events: list[Event]) -> CdState:
    """A general-morale d6 rolled: the leader's death (-d6 to its side, +d6 to the enemy from the same die)
    or a unit destroyed by own fire (-d6)."""
    seat = roll.seat if roll.seat is not None else 0
    if roll.effect == GM_LEADER:
        state = _d6_row(state, seat, OWN_LEADER, face, events)
        return _d6_row(state, 1 - seat, ENEMY_LEADER, face, events)
    return _d6_row(state, seat, DESTROYED_BY_OWN_FIRE, face, events)


def _d6_row(state: CdState, seat: int, event: str, face: int, events: list[Event]) -> CdState:
    """A d6 row: the die's face with the row's own sign (data/rules.toml)."""
    return change_gm(state, seat, general_morale_sign(event) * face, event, events)
