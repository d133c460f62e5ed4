"""Spells (Wizards) and Naturals (Monsters): Fireball, Stormwind, Transfix, Drain Life, Summon Subjects, and
the Dispel interruption (FA-SN-01..15, FA-SI-06..08, FA-ST-06).

Entry points for ``game.py``: ``cast_actions(state)``, ``apply_cast(state, Cast)``; ``resume(state,
Interrupt | Decline)`` answers a Dispel offer (``combat.apply_interrupt`` / ``apply_decline`` call it).

Each spell's CP are paid when cast (each spell at most once per activation, FA-AC-02). Ranges are tray to
tray (nearest points). When an enemy WIZARD casts (a Spell, not a Monster's Natural) and a Wizard of the
other seat stands within 12" of it, that seat is asked first (``Pending("dispel")``): Dispel (3 CP) stops
the effect, the caster's CP stay spent (FA-SI-07/08).

- Fireball: an enemy unit within 12" and LOS suffers 2 HP (Brace does not reduce spell damage).
- Stormwind: any other unit within 12" (not the Seat, not a braced unit: they may not move) slides straight
  away from or towards the caster up to 6", keeping its facing, stopping 1" short of any tray or impassable
  terrain and at the table edge; it never starts a combat.
- Transfix: an enemy unit within 12" and LOS may not activate this turn.
- Drain Life (Wizard): an enemy unit within 12" (no LOS) suffers 1 HP; the Wizard gains 1 HP, never above
  its starting HP.
- Summon Subjects (a Wizard that is the General): a Weak Troop (2 HP) with its tray centre within 18" of
  the caster's tray, wholly on the table, overlapping no tray and no impassable terrain, not within 1" of an
  enemy; ``extras`` Swiftness and/or fear for their DCP as CP (Shooter is not offered: it would start at
  0 HP). From the second use in the game the Wizard loses 1 HP each time. A General may not use both
  Steady and Summon Subjects in one turn (FA-SN-15, the second reading).
- With premeasuring off a spell out of range is spent with no effect (FA-GN-09 decided).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

from shapely.geometry import Point

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import Cast, Decline, Interrupt
from iwgt.games.anvil.combat_events import (
    InterruptionDeclined,
    InterruptionOffered,
    SpellCastEvent,
    SpellDispelled,
    SpellFizzled,
    UnitHealed,
    UnitPushed,
    UnitSummoned,
    UnitTransfixed,
)
from iwgt.games.anvil.pending import Pending, SpellCast, StormDirection
from iwgt.games.anvil.resolving import (
    check_actor,
    cost_of,
    crosses,
    gap,
    harm,
    impassable,
    in_activation,
    may_use,
    others_of,
    pay,
    sees,
    table_size,
    tray_of,
)
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState, Unit, home_facing, pair
from iwgt.geometry.trays import Slide, Tray, facing_vector, stop_short, tray_gap, trays_overlap, within_table

SPELLS: Final = ("fireball", "stormwind", "transfix", "drain_life", "summon_subjects")
"""The spells and naturals, in the text's order."""
SUMMON_EXTRAS: Final = ("swiftness", "fear")
"""What a summoned Troop may be given (FA-SN-13; Shooter would leave it at 0 HP, FA-SD-09)."""
STORM_DISTANCES: Final = (6.0,)
"""The Stormwind distances the legal actions list (any distance up to 6" may be ordered)."""
SUMMON_RINGS: Final = (3.0, 6.0, 12.0)
"""How far from the caster the listed Summon Subjects placements are (any legal point may be ordered)."""
MOVE_EPS: Final = 0.01
"""A Stormwind that would move a unit less than this is not listed."""
DISPEL: Final = "dispel"


def _spell(key: str) -> None:
    if key not in SPELLS:
        raise IllegalAction(f"unknown spell {key!r}; the spells are {', '.join(SPELLS)}")


def _price(key: str, extras: tuple[str, ...] = ()) -> int:
    """What a cast costs: the spell's CP plus a summoned Troop's extras (their DCP paid as CP)."""
    return cost_of(key) + sum(cost_of(x) for x in extras)


def cast_block(state: AnvilState, unit: Unit, key: str, extras: tuple[str, ...] = ()) -> str | None:
    """Why the active unit may not cast ``key`` now (None: it may)."""
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
    price = _price(key, extras)
    if state.cp[act.seat] < price:
        return f"{strat.name} costs {price} CP; {state.cp[act.seat]} CP left"
    if key == "summon_subjects" and "steady" in state.turn_used[act.seat]:
        return "FA-SN-15: the General used Steady this turn"
    return None


def _in_range(unit: Unit, target: Unit, key: str) -> bool:
    reach = rules().stratagem(key).range
    return reach is None or gap(unit, target) <= reach


def _target_block(state: AnvilState, unit: Unit, key: str, target: Unit) -> str | None:
    """Why ``target`` may not be aimed at by ``key`` (range aside)."""
    if not target.on_table:
        return f"{target.name} is not on the table"
    if key == "stormwind":
        if target.id == unit.id:
            return "FA-SN-04: Stormwind moves another unit"
        if target.is_seat or target.braced:
            return "FA-SN-04 decided: the Seat of Power and a braced unit may not move"
        return None
    if target.seat == unit.seat:
        return f"{rules().stratagem(key).name} is aimed at an enemy unit (decided)"
    if key == "transfix" and (target.is_seat or target.transfixed):
        return "FA-SN-06: the unit is already kept from activating"
    if rules().stratagem(key).needs_los and not sees(state, unit, target):
        return f"{rules().stratagem(key).clauses[1]}: no line of sight to {target.name}"
    return None


def _storm_slide(state: AnvilState, caster: Unit, target: Unit, distance: float, direction: str) -> Slide:
    """Where Stormwind leaves the target (FA-SN-04 decided: stops 1" short of any tray, no combat)."""
    c, t = tray_of(caster).centre, tray_of(target)
    d = (t.centre[0] - c[0], t.centre[1] - c[1])
    if direction == "towards":
        d = (-d[0], -d[1])
    stops = [tray_of(u) for u in others_of(state, target)] + impassable(state)
    gap_ = rules().constants.stop_gap
    return stop_short(t, d, distance, stops_at=stops, edges=table_size(state), gap=gap_)


def summon_tray(state: AnvilState, point: tuple[float, float], facing: float) -> Tray:
    """The tray of a unit placed at ``point`` with ``facing`` (the scenario's tray)."""
    front, depth = state.scenario.spec.tray
    return Tray(point, facing, front, depth)


def place_block(state: AnvilState, seat: int, tray: Tray, *, keep_off: bool = True) -> str | None:
    """Why a new unit's tray may not stand there: off the table, on a tray or impassable ground, or (with
    ``keep_off``) within 1" of an enemy (FA-MS-04)."""
    width, height = table_size(state)
    if not within_table(tray, width, height):
        return "the tray must lie wholly on the table"
    poly = tray.polygon()
    if any(crosses(poly, w) for w in impassable(state)):
        return "the tray may not stand in impassable terrain"
    enemy_gap = rules().constants.enemy_gap
    for u in state.on_table():
        if trays_overlap(tray, tray_of(u)):
            return f"the tray would overlap {u.name}"
        if keep_off and u.seat != seat and tray_gap(tray, tray_of(u)) < enemy_gap:
            return f'the tray would be within {enemy_gap:g}" of {u.name}'
    return None


def _summon_block(state: AnvilState, caster: Unit, point: tuple[float, float], facing: float) -> str | None:
    reach = rules().stratagem("summon_subjects").range or 0.0
    if Point(point).distance(tray_of(caster).polygon()) > reach:
        return f"FA-SN-11: the summoned Troop's centre must be within {reach:g}\" of the caster"
    return place_block(state, caster.seat, summon_tray(state, point, facing))


def cast_actions(state: AnvilState) -> list[Cast]:
    """The casts the active unit may make now (a few Stormwind distances and Summon placements listed)."""
    if not in_activation(state) or state.active is None or not state.active.on_table:
        return []
    unit = state.active
    premeasure = state.options.premeasure
    out: list[Cast] = []
    for key in SPELLS:
        if cast_block(state, unit, key) is not None:
            continue
        if key == "summon_subjects":
            out.extend(_summon_casts(state, unit))
            continue
        for t in state.on_table():
            if _target_block(state, unit, key, t) is not None:
                continue
            if premeasure and not _in_range(unit, t, key):
                continue
            if key != "stormwind":
                out.append(Cast(unit.id, key, target=t.id))
                continue
            for direction in ("away", "towards"):
                for d in STORM_DISTANCES:
                    slide = _storm_slide(state, unit, t, d, direction)
                    if slide.moved >= MOVE_EPS:
                        out.append(Cast(unit.id, key, target=t.id, distance=d, direction=direction))
    return out


def _summon_casts(state: AnvilState, unit: Unit) -> list[Cast]:
    """A few legal placements around the caster, with each affordable set of extras."""
    me = tray_of(unit)
    facing = home_facing(unit.seat)
    points: list[tuple[float, float]] = []
    for ring in SUMMON_RINGS:
        for turn in (0.0, 90.0, 270.0, 180.0):
            fx, fy = facing_vector(me.facing + turn)
            p = (round(me.centre[0] + fx * ring, 3), round(me.centre[1] + fy * ring, 3))
            if _summon_block(state, unit, p, facing) is None:
                points.append(p)
    out = []
    for extras in ((), ("swiftness",), ("fear",), ("swiftness", "fear")):
        if cast_block(state, unit, "summon_subjects", extras) is not None:
            continue
        for p in points[:4]:
            out.append(Cast(unit.id, "summon_subjects", point=p, extras=extras, facing=facing))
    return out


def apply_cast(state: AnvilState, action: Cast) -> tuple[AnvilState, list[Event]]:
    """Cast: pay, then the Dispel offer (a Wizard's Spell only) or the effect."""
    unit = check_actor(state, action.unit)
    _spell(action.spell)
    key = action.spell
    extras = tuple(action.extras)
    if key == "summon_subjects":
        if len(set(extras)) != len(extras) or any(x not in SUMMON_EXTRAS for x in extras):
            raise IllegalAction(f"FA-SN-13: a summoned Troop may be given {' and '.join(SUMMON_EXTRAS)}")
    elif extras:
        raise IllegalAction(f"{key} takes no extras")
    why = cast_block(state, unit, key, extras)
    if why is not None:
        raise IllegalAction(why)
    act = state.activation
    assert act is not None
    cast = _checked(state, unit, action)
    events: list[Event] = []
    price = _price(key, extras)
    state = pay(state, act.seat, unit.id, key, events, price)
    state = replace(state, activation=replace(act, stratagems=(*act.stratagems, key)))
    if key == "summon_subjects":
        state = replace(state, turn_used=pair(state.turn_used, act.seat, state.turn_used[act.seat] | {key}))
    events.append(SpellCastEvent(unit.id, key, action.target, cast.natural, price))
    if cast.spell == "":  # out of range with premeasuring off
        events.append(SpellFizzled(unit.id, key, action.target))
        return state, events
    offer = _dispel_offer(state, unit, cast)
    if offer is not None:
        events.append(InterruptionOffered(offer.seat, offer.unit, DISPEL))
        return replace(state, pending=offer, phase="interrupt"), events
    return _effect(state, cast, events), events


def _checked(state: AnvilState, unit: Unit, action: Cast) -> SpellCast:
    """The cast, checked (IllegalAction otherwise); ``spell`` empty when it is out of range with
    premeasuring off (spent with no effect)."""
    key = action.spell
    natural = unit.type == "monster"  # FA-ST-06
    if key == "summon_subjects":
        if action.point is None:
            raise IllegalAction("Summon Subjects needs the point where the Troop stands")
        facing = home_facing(unit.seat) if action.facing is None else action.facing
        why = _summon_block(state, unit, action.point, facing)
        if why is not None:
            reach = rules().stratagem(key).range or 0.0
            beyond = Point(action.point).distance(tray_of(unit).polygon()) > reach
            if (
                beyond
                and not state.options.premeasure
                and place_block(state, unit.seat, summon_tray(state, action.point, facing)) is None
            ):
                return SpellCast(unit.id, "", point=action.point, facing=facing, natural=natural)
            raise IllegalAction(why)
        return SpellCast(
            unit.id, key, point=action.point, facing=facing, extras=tuple(action.extras), natural=natural
        )
    if action.target is None:
        raise IllegalAction(f"{rules().stratagem(key).name} needs a target unit")
    if not 0 <= action.target < len(state.units):
        raise IllegalAction(f"no unit {action.target}")
    target = state.unit(action.target)
    why = _target_block(state, unit, key, target)
    if why is not None:
        raise IllegalAction(why)
    distance: float | None = None
    direction: StormDirection | None = None
    if key == "stormwind":
        limit = rules().stratagem(key).distance or 0.0
        if action.distance is None or not 0 < action.distance <= limit:
            raise IllegalAction(f'FA-SN-04: Stormwind moves a unit up to {limit:g}" (give the distance)')
        if action.direction not in ("away", "towards"):
            raise IllegalAction("FA-SN-04: Stormwind moves a unit 'away' from or 'towards' the caster")
        distance = action.distance
        direction = "away" if action.direction == "away" else "towards"
    if not _in_range(unit, target, key):
        span = rules().stratagem(key).range or 0.0
        if state.options.premeasure:
            raise IllegalAction(f'{target.name} is {gap(unit, target):.2f}" away; {key} reaches {span:g}"')
        return SpellCast(unit.id, "", target=target.id, natural=natural)
    return SpellCast(
        unit.id,
        key,
        target=target.id,
        distance=distance,
        direction=direction,
        natural=natural,
    )


def _dispellers(state: AnvilState, caster: Unit) -> list[Unit]:
    """The other seat's Wizards within Dispel's 12" of the casting Wizard (FA-SI-07)."""
    reach = rules().stratagem(DISPEL).range or 0.0
    return [
        u
        for u in state.enemies(caster.seat)
        if may_use(u, DISPEL) and tray_gap(tray_of(u), tray_of(caster)) <= reach
    ]


def _dispel_offer(state: AnvilState, caster: Unit, cast: SpellCast) -> Pending | None:
    """Dispel is offered against a Wizard's Spell (never a Natural) when the other seat can pay."""
    if cast.natural:
        return None
    from iwgt.games.anvil.combat import interrupted

    # FA-AC-02 decided: a Wizard dispels at most once in an opponent's activation.
    wizards = [u for u in _dispellers(state, caster) if not interrupted(state, u.id, DISPEL)]
    if not wizards:
        return None
    seat = wizards[0].seat
    if state.cp[seat] < cost_of(DISPEL):
        return None
    return Pending(DISPEL, seat, wizards[0].id, replace(cast, cost=_price(cast.spell, cast.extras)))


def resume(state: AnvilState, answer: Interrupt | Decline) -> tuple[AnvilState, list[Event]]:
    """The answer to a Dispel offer: Dispel (3 CP, the effect stopped) or Decline (the effect)."""
    p = state.pending
    if p is None or p.spell is None:
        raise IllegalAction("no Dispel is offered now")
    cast = p.spell
    events: list[Event] = []
    state = replace(state, pending=None, phase="activation")
    if isinstance(answer, Decline):
        events.append(InterruptionDeclined(p.seat, DISPEL))
        return _effect(state, cast, events), events
    by = p.unit if answer.unit is None else answer.unit
    caster = state.unit(cast.caster)
    if by not in [u.id for u in _dispellers(state, caster)]:
        raise IllegalAction(f'unit {by} is not a Wizard within 12" of {caster.name}')
    from iwgt.games.anvil.combat import interrupted, note_interruption

    if interrupted(state, by, DISPEL):
        raise IllegalAction(f"unit {by} has already dispelled in this activation (FA-AC-02)")
    state = note_interruption(pay(state, p.seat, by, DISPEL, events), by, DISPEL)
    events.append(SpellDispelled(cast.caster, cast.spell, by))
    return state, events


def _effect(state: AnvilState, cast: SpellCast, events: list[Event]) -> AnvilState:
    """The spell's effect."""
    caster = state.unit(cast.caster)
    key = cast.spell
    strat = rules().stratagem(key)
    if key == "summon_subjects":
        return _summon(state, caster, cast, events)
    assert cast.target is not None
    target = state.unit(cast.target)
    if not target.on_table:
        return state
    if key == "fireball":
        return harm(state, target.id, strat.harm, "FA-SN-02", events)
    if key == "transfix":
        events.append(UnitTransfixed(target.id))
        return state.with_unit(replace(target, transfixed=True))
    if key == "drain_life":
        state = harm(state, target.id, strat.harm, "FA-SN-09", events)
        caster = state.unit(caster.id)
        if caster.on_table:
            gained = max(0, min(strat.heal, caster.start_hp - caster.hp))
            state = state.with_unit(replace(caster, hp=caster.hp + gained))
            events.append(UnitHealed(caster.id, gained, caster.hp + gained, "FA-SN-09"))
        return state
    # stormwind
    assert cast.distance is not None and cast.direction is not None
    slide = _storm_slide(state, caster, target, cast.distance, cast.direction)
    end = slide.end
    start = tray_of(target).centre
    events.append(
        UnitPushed(
            target.id,
            start,
            end.centre,
            round(math.dist(start, end.centre), 6),
            slide.stopped_by,
        )
    )
    return state.with_unit(replace(target, tray=end))


def _summon(state: AnvilState, caster: Unit, cast: SpellCast, events: list[Event]) -> AnvilState:
    """FA-SN-11..14: a Weak Troop on the table; the caster's price from the second use on."""
    assert cast.point is not None and cast.facing is not None
    seat = caster.seat
    r = rules()
    stratagems = ("weak", *cast.extras)
    hp = r.profile("troop").hp + sum(r.stratagem(k).hp for k in stratagems)
    uid = len(state.units)
    n = sum(1 for u in state.units if u.seat == seat and u.summoned and u.type == "troop") + 1
    unit = Unit(
        id=uid,
        seat=seat,
        type="troop",
        name=f"Summoned Subjects {n}",
        hp=hp,
        start_hp=hp,
        stratagems=stratagems,
        tray=summon_tray(state, cast.point, cast.facing),
        summoned=True,
    )
    uses = state.summons[seat]
    state = replace(state, units=(*state.units, unit), summons=pair(state.summons, seat, uses + 1))
    events.append(UnitSummoned(uid, seat, "troop", cast.point, cast.facing, hp, "FA-SN-11"))
    if uses >= 1:  # FA-SN-14: the second and later uses
        state = harm(state, caster.id, r.stratagem("summon_subjects").self_harm, "FA-SN-14", events)
    return state
