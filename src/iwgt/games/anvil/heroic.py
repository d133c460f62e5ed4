"""The Heroic stratagems: Steady and Raise a Champion (FA-SH-01..06).

Entry points for ``game.py``: ``heroic_actions(state)``, ``apply_steady(state, Steady)``,
``apply_raise_champion(state, RaiseChampion)``.

- Steady (1 CP, the General's unit): one OTHER friendly unit within 6" (nearest points; not the Seat of
  Power, which takes no stratagem) gains 1 HP, never above its starting HP (listed only for a unit below it).
  A General may not use both Steady and Summon Subjects in one turn (FA-SN-15, the second reading).
- Raise a Champion (2 CP, a Wizard or Troop, once per game per player): when the unit's tray touches the
  enemy Seat of Power (within 0.01"), a Hero (4 HP, no DCP, outside the army and the availability limits)
  is placed with its tray touching the raising unit's tray, wholly on the table, overlapping no tray and
  no impassable terrain; it may stand within 1" of an enemy, even touch the Seat, since "beside" a unit
  in contact with the Seat is there (the listed places: beside, behind, or in front).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import RaiseChampion, Steady
from iwgt.games.anvil.combat_events import SpellFizzled, UnitHealed, UnitSummoned
from iwgt.games.anvil.resolving import check_actor, cost_of, gap, in_activation, may_use, pay, tray_of
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.spells import place_block, summon_tray
from iwgt.games.anvil.state import AnvilState, Unit, pair
from iwgt.geometry.trays import Tray, tray_gap

STEADY: Final = "steady"
CHAMPION: Final = "raise_champion"
SUMMON: Final = "summon_subjects"


def _common_block(state: AnvilState, unit: Unit, key: str) -> str | None:
    act = state.activation
    if act is None:
        return "no unit is activated now"
    strat = rules().stratagem(key)
    if not may_use(unit, key):
        return f"{strat.clauses[0]}: {strat.name} is for {strat.printed_users}"
    if act.used(key):
        return f"FA-AC-02: {strat.name} is already used in this activation"
    if act.excess_only:
        return "FA-CRM-03: only the excess move is left"
    if state.cp[act.seat] < strat.cost:
        return f"{strat.name} costs {strat.cost} CP; {state.cp[act.seat]} CP left"
    return None


def steady_block(state: AnvilState, unit: Unit) -> str | None:
    """Why the active unit may not use Steady now (None: it may, given a target)."""
    why = _common_block(state, unit, STEADY)
    if why is None and SUMMON in state.turn_used[unit.seat]:
        return "FA-SN-15: the General used Summon Subjects this turn"
    return why


def steady_targets(state: AnvilState, unit: Unit) -> list[Unit]:
    """The friends Steady may be ordered at: another friendly unit below its starting HP, not the Seat;
    within 6" when premeasuring (without it, FA-GN-09 decided: every such friend, the range is measured
    only when the order is given)."""
    return [
        u
        for u in state.on_table(unit.seat)
        if u.id != unit.id
        and not u.is_seat
        and u.hp < u.start_hp
        and (not state.options.premeasure or _in_reach(unit, u))
    ]


def _in_reach(unit: Unit, friend: Unit) -> bool:
    """Whether the friend is within Steady's 6" (nearest points of the trays)."""
    return gap(unit, friend) <= (rules().stratagem(STEADY).range or 0.0)


def champion_block(state: AnvilState, unit: Unit) -> str | None:
    """Why the active unit may not Raise a Champion now (None: it may, given a place)."""
    why = _common_block(state, unit, CHAMPION)
    if why is not None:
        return why
    if CHAMPION in state.game_used[unit.seat]:
        return "FA-SH-06: Raise a Champion is once per game"
    seat = state.seat_of_power(1 - unit.seat)
    if seat is None or not seat.on_table or gap(unit, seat) > rules().constants.contact:
        return "FA-SH-04: the unit must reach (touch) the enemy Seat of Power"
    return None


def champion_places(state: AnvilState, unit: Unit) -> list[Tray]:
    """Legal trays for the Champion: beside (left, right), behind or in front of the raising unit."""
    me = tray_of(unit)
    (fx, fy), (rx, ry) = me.axes()
    front, depth = state.scenario.spec.tray
    out = []
    for dx, dy in (
        (rx * front, ry * front),
        (-rx * front, -ry * front),
        (-fx * depth, -fy * depth),
        (fx * depth, fy * depth),
    ):
        centre = (round(me.centre[0] + dx, 6), round(me.centre[1] + dy, 6))
        tray = summon_tray(state, centre, me.facing)
        if _place_ok(state, unit, tray):
            out.append(tray)
    return out


def _place_ok(state: AnvilState, unit: Unit, tray: Tray) -> bool:
    if tray_gap(tray, tray_of(unit)) > rules().constants.contact:
        return False
    return place_block(state, unit.seat, tray, keep_off=False) is None


def heroic_actions(state: AnvilState) -> list[Steady | RaiseChampion]:
    """Steady and Raise a Champion actions legal now."""
    if not in_activation(state) or state.active is None or not state.active.on_table:
        return []
    unit = state.active
    out: list[Steady | RaiseChampion] = []
    if steady_block(state, unit) is None:
        out.extend(Steady(unit.id, t.id) for t in steady_targets(state, unit))
    if champion_block(state, unit) is None:
        out.extend(RaiseChampion(unit.id, t.centre, t.facing) for t in champion_places(state, unit))
    return out


def apply_steady(state: AnvilState, action: Steady) -> tuple[AnvilState, list[Event]]:
    """Steady: 1 CP, the friend gains 1 HP (never above its starting HP)."""
    unit = check_actor(state, action.unit)
    why = steady_block(state, unit)
    if why is not None:
        raise IllegalAction(why)
    if action.target not in [u.id for u in steady_targets(state, unit)]:
        raise IllegalAction('FA-SH-02: Steady helps another friendly unit within 6" below its starting HP')
    act = state.activation
    assert act is not None
    events: list[Event] = []
    state = pay(state, act.seat, unit.id, STEADY, events, cost_of(STEADY))
    target = state.unit(action.target)
    if _in_reach(unit, target):
        gained = min(rules().stratagem(STEADY).heal, target.start_hp - target.hp)
        state = state.with_unit(replace(target, hp=target.hp + gained))
        events.append(UnitHealed(target.id, gained, target.hp + gained, "FA-SH-02"))
    else:
        # Premeasuring off (FA-GN-09 decided): beyond 6" the order is spent with no effect, CP paid.
        events.append(SpellFizzled(unit.id, STEADY, target.id))
    used = pair(state.turn_used, act.seat, state.turn_used[act.seat] | {STEADY})
    return replace(
        state, activation=replace(act, stratagems=(*act.stratagems, STEADY)), turn_used=used
    ), events


def apply_raise_champion(state: AnvilState, action: RaiseChampion) -> tuple[AnvilState, list[Event]]:
    """Raise a Champion: 2 CP, a 4 HP Hero beside the unit touching the enemy Seat."""
    unit = check_actor(state, action.unit)
    why = champion_block(state, unit)
    if why is not None:
        raise IllegalAction(why)
    tray = summon_tray(state, action.centre, action.facing)
    if tray_gap(tray, tray_of(unit)) > rules().constants.contact:
        raise IllegalAction("FA-SH-04: the Champion is placed beside the unit (its tray touching)")
    blocked = place_block(state, unit.seat, tray, keep_off=False)
    if blocked is not None:
        raise IllegalAction(f"FA-SH-04: {blocked}")
    act = state.activation
    assert act is not None
    events: list[Event] = []
    state = pay(state, act.seat, unit.id, CHAMPION, events, cost_of(CHAMPION))
    hp = rules().constants.champion_hp
    uid = len(state.units)
    champion = Unit(
        id=uid, seat=unit.seat, type="hero", name="Champion", hp=hp, start_hp=hp, tray=tray, summoned=True
    )
    events.append(UnitSummoned(uid, unit.seat, "hero", tray.centre, tray.facing, hp, "FA-SH-04"))
    used = pair(state.game_used, act.seat, state.game_used[act.seat] | {CHAMPION})
    act = replace(act, stratagems=(*act.stratagems, CHAMPION))
    return replace(state, units=(*state.units, champion), game_used=used, activation=act), events
