"""Engaging, the Combat Resolution Matrix in play, bounce backs and their chains, interruptions.

Entry points for ``game.py`` (each returns the new state and the events, refusing with ``IllegalAction``):

- ``combat_actions(state)``: the active unit's engage / shoot / cast / steady / raise_champion / stratagem
  actions legal now (empty outside an activation or while an interruption is awaited).
- ``interrupt_actions(state)``: while ``state.pending`` is set: the ``Interrupt`` it offers and ``Decline``.
- ``apply_combat(state, action)``: any of those actions (dispatches to the functions below).
- ``apply_engage(state, Engage)``; ``apply_interrupt(state, Interrupt)``; ``apply_decline(state, Decline)``
  (``resume(state, answer)`` is either);
  ``shooting.apply_shoot``; ``spells.apply_cast``; ``heroic.apply_steady``; ``heroic.apply_raise_champion``;
  ``stratagems.apply_stratagem``.
- ``plan_engage(state, unit, target)``: where an engage ends, its side and cost (the table's preview).

An engage (FA-EN-01..06): LOS first; the side the line of centres enters the defender's tray by (a
Skirmishing defender counts its front, FA-SM-10); NATE on that side: the attacker moves along the line and
stops 1" away (FA-EN-03); else a straight move into aligned contact whose cost is the straight distance
(halving ground doubled) from the activation's allowance. Then the combat: the Counterattack offer, the
matrix (``matrix.resolve``), destruction, the Hero of the Day offer, the excess move granted to the
activation (``Activation.excess``, with ``excess_only`` set), and the bounce backs: 3" straight away from
the other unit's centre, keeping facing; 1" short of a friend or impassable terrain; at the table edge; in
contact with an enemy, which attacks at once (a chain, at most ``MAX_CHAIN`` combats); a unit that cannot
move (held by Brace, the Seat, or blocked) loses 1 HP instead (FA-BB-01..04). A paused combat lives in
``state.pending`` (phase ``interrupt``); the answer resumes it where it stopped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Final

from shapely.geometry import Polygon

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import (
    Action,
    Cast,
    Decline,
    Engage,
    Interrupt,
    RaiseChampion,
    Shoot,
    Steady,
    Stratagem,
)
from iwgt.games.anvil.combat_events import (
    BounceBlocked,
    BouncedBack,
    ChainCombat,
    ChainStopped,
    CombatResolved,
    EngageDeclared,
    EngageStopped,
    ExcessMove,
    HeroOfTheDay,
    InterruptionDeclined,
    InterruptionOffered,
)
from iwgt.games.anvil.flow import lost_targets
from iwgt.games.anvil.matrix import Attack, cell, resolve
from iwgt.games.anvil.pending import Bounce, Combat, CombatSide, Pending
from iwgt.games.anvil.resolving import (
    REACH_EPS,
    check_actor,
    cost_of,
    crosses,
    enemy_target,
    friends_of,
    impassable,
    in_activation,
    may_use,
    others_of,
    pay,
    sees,
    set_hp,
    table_size,
    terrain,
    tray_of,
)
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import Activation, AnvilState, Unit
from iwgt.geometry.trays import (
    Slide,
    Tray,
    contact_position,
    engaged_edge,
    facing_towards,
    facing_vector,
    halved_length,
    leg_sweep,
    stop_short,
    trays_overlap,
    within_table,
)

_C = rules().constants
MAX_CHAIN: Final = _C.max_chain
"""FA-BB-02 decided: at most this many combats in one bounce-back chain (the first one included)."""
BOUNCE: Final = _C.bounce_back
"""FA-BB-01: a bounce back is 3"."""
STOP_GAP: Final = _C.stop_gap
"""FA-EN-03, FA-BB-03: stop 1" away."""
MIN_BB: Final = _C.min_bounce
"""FA-BB-04 decided: a bounce back shorter than this "cannot BB"."""
BB_LOSS: Final = _C.cannot_bb_loss
"""FA-BB-04: HP lost by a unit that cannot bounce back."""
REACH_STEPS: Final = 48
"""Bisection steps finding how far an allowance reaches along a line through halving ground."""

FLY: Final = "fly"
"""The data key of Fly/Burrow (the ``stratagem`` action names it ``fly_burrow``)."""
INTERPENETRATION: Final = "interpenetration"
MARCH: Final = "march"
HAMMERBLOW: Final = "hammerblow"


# --- the engage move -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EngagePlan:
    """Where an engage ends and what follows: the side (as the matrix reads it), the tray at the end, the
    inches of allowance it costs, and why it stops with no combat ("nate", "short") or None."""

    side: CombatSide
    start: Tray
    end: Tray
    cost: float
    stopped: str | None


def _leg_cost(state: AnvilState, a: tuple[float, float], b: tuple[float, float], fly: bool) -> float:
    """A straight leg's cost: its length, halving ground doubled unless flying (FA-MV, FA-SM-02)."""
    if fly:
        return math.dist(a, b)
    return halved_length(a, b, terrain(state))


def _reach(
    state: AnvilState, start: tuple[float, float], end: tuple[float, float], allowance: float, fly: bool
) -> float:
    """How far along the straight line start -> end the allowance carries the unit (inches)."""
    length = math.dist(start, end)
    if _leg_cost(state, start, end, fly) <= allowance + REACH_EPS:
        return length
    lo, hi = 0.0, length
    for _ in range(REACH_STEPS):
        mid = (lo + hi) / 2
        t = mid / length
        p = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
        if _leg_cost(state, start, p, fly) <= allowance + REACH_EPS:
            lo = mid
        else:
            hi = mid
    return lo


def engage_block(state: AnvilState, unit: Unit, act: Activation) -> str | None:
    """Why the active unit may not engage now (None: it may)."""
    if unit.is_seat:
        return "FA-GN-08: the Seat of Power never moves"
    if act.engaged:
        return "it has already engaged in this activation"
    if act.shot:
        return "FA-SS-05: it used Ballistics in this activation"
    if act.excess_only:
        return "FA-CRM-03: only the excess move is left (it may not engage)"
    if act.used(MARCH):
        return "FA-SM-06: a unit using March may not engage"
    if unit.braced:
        return "FA-SC-03: a braced unit may not move"
    if act.infiltrated:
        return "FA-SD-18: an infiltrated unit does not move in the activation it deploys"
    return None


def plan_engage(state: AnvilState, unit: Unit, target: Unit) -> EngagePlan:
    """The engage of ``target`` by ``unit`` now, or IllegalAction naming why it may not be ordered."""
    act = state.activation
    if act is None:
        raise IllegalAction("no unit is activated now")
    if not sees(state, unit, target):
        raise IllegalAction(f"FA-EN-01: {unit.name} has no line of sight to {target.name}")
    me, them = tray_of(unit), tray_of(target)
    edge = engaged_edge(me, them)
    geometric: CombatSide = "flank" if edge in ("left", "right") else edge  # type: ignore[assignment]
    side: CombatSide = "front" if target.skirmishing else geometric  # FA-SM-10
    fly = act.used(FLY)
    through = act.used(INTERPENETRATION)
    allowance = act.allowance
    start = me.pivoted(facing_towards(me.centre, them.centre))  # pivots are free (FA-MV-01)
    nate = cell(unit.type, target.type).value(side) is None
    others = [u for u in others_of(state, unit) if u.id != target.id]
    walls = [] if fly else impassable(state)
    width, height = table_size(state)
    # The pivot in place may put part of the tray beyond a table edge (a unit just deployed, say): what
    # counts is the straight path and where it ends; a path ending wholly on the table leads inward, and a
    # NATE or short stop that would end off the table is refused below (FA-MV-01, FA-EN-02 decided).
    _check_pivot(state, unit, start, others, fly=fly, through=through)
    if nate:
        # FA-EN-03: along the engage line, stopping 1" short of the defender (and of anything else met).
        stops: list[Polygon | Tray] = [them, *(tray_of(u) for u in others), *walls]
        line = _vec(me.centre, them.centre)
        full = _stop(state, start, line, math.dist(me.centre, them.centre), stops, fly)
        _on_table(full, unit, target, width, height)
        cost = _leg_cost(state, me.centre, full.centre, fly)
        if cost <= allowance + REACH_EPS:
            return EngagePlan(side, start, full, cost, "nate")
        if state.options.premeasure:
            raise IllegalAction(
                f'FA-EN-03: moving to 1" from {target.name} costs {cost:.2f}"; {allowance:.2f}" left'
            )
        reach = _reach(state, me.centre, full.centre, allowance, fly)
        end = _stop(state, start, line, reach, stops, fly)
        _on_table(end, unit, target, width, height)
        return EngagePlan(side, start, end, _leg_cost(state, me.centre, end.centre, fly), "nate")
    end = contact_position(me, them, edge)
    # The swept area keeps the facing the unit has when it sets off (spec 1, as for a move's legs): the
    # facing after the free pivot towards the defender (FA-EN-02, FA-MV-01).
    sweep = leg_sweep(start, end.centre)
    for w in walls:
        if crosses(sweep, w):
            raise IllegalAction("FA-MV-02: the engage line crosses impassable terrain")
    for f in impassable(state):
        if crosses(end.polygon(), f):
            # Aligned on the defender, the tray may stand where the straight path did not pass.
            clause = "FA-SM-03" if fly else "FA-MV-02"
            raise IllegalAction(f"{clause}: the unit may not stop inside impassable terrain")
    for u in others:
        if not through and crosses(sweep, tray_of(u).polygon()):
            raise IllegalAction(f"FA-EN-04: {u.name} stands in the way of the engage")
        if trays_overlap(end, tray_of(u)):
            raise IllegalAction(f"FA-EN-02: no room beside {target.name}: {u.name} is there")
    if not within_table(end, width, height):
        raise IllegalAction(f"FA-EN-02: the {geometric} of {target.name} cannot be reached on the table")
    cost = _leg_cost(state, me.centre, end.centre, fly)
    if cost <= allowance + REACH_EPS:
        return EngagePlan(side, start, end, cost, None)
    if state.options.premeasure:
        raise IllegalAction(f'{target.name} is {cost:.2f}" away; {unit.name} has {allowance:.2f}" left')
    # FA-GN-09 decided: out of reach without premeasuring: as far as the allowance goes, never within 1"
    # of the defender (a plain move that ends short, no combat).
    reach = _reach(state, me.centre, end.centre, allowance, fly)
    stops = [them, *(tray_of(u) for u in others), *walls]
    short = _stop(state, start, _vec(me.centre, end.centre), reach, stops, fly)
    _on_table(short, unit, target, width, height)
    return EngagePlan(side, start, short, _leg_cost(state, me.centre, short.centre, fly), "short")


def _stop(
    state: AnvilState,
    start: Tray,
    direction: tuple[float, float],
    distance: float,
    stops: list[Polygon | Tray],
    fly: bool,
) -> Tray:
    """Where an engage that makes no contact (NATE, or short of reach) stops along its line: 1" short of
    what ``stops`` holds, at the table edge. A flying unit passes over impassable terrain but may not stop
    inside it (FA-SM-03): a stop that would, stops 1" short of that feature instead, as a move would."""
    size = table_size(state)
    met: list[int] = []
    walls = impassable(state) if fly else []
    while True:
        extra = [walls[i] for i in met]
        end = stop_short(start, direction, distance, stops_at=[*stops, *extra], edges=size, gap=STOP_GAP).end
        inside = [i for i, w in enumerate(walls) if i not in met and crosses(end.polygon(), w)]
        if not inside:
            return end
        met.extend(inside)


def _on_table(end: Tray, unit: Unit, target: Unit, width: float, height: float) -> None:
    """Refuse an engage stop (NATE or short) that would leave the tray partly off the table: its path does
    not lead inward from where the pivot put it (FA-MV-01, FA-EN-03)."""
    if not within_table(end, width, height):
        raise IllegalAction(
            f"FA-MV-01: turned towards {target.name}, {unit.name} would stop partly off the table"
        )


def _check_pivot(
    state: AnvilState, unit: Unit, start: Tray, others: list[Unit], *, fly: bool, through: bool
) -> None:
    """Refuse an engage whose free pivot in place (FA-MV-01) would put the tray on another tray (but with
    Interpenetration, FA-SM-08) or into impassable terrain (but with Fly/Burrow, FA-SM-02)."""
    if not through:
        for u in others:
            if trays_overlap(start, tray_of(u)):
                raise IllegalAction(f"FA-MV-01: turning to engage, {unit.name} would overlap {u.name}")
    if not fly:
        for w in impassable(state):
            if crosses(start.polygon(), w):
                raise IllegalAction(f"FA-MV-02: turning to engage, {unit.name} would enter impassable ground")


def _vec(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (b[0] - a[0], b[1] - a[1])


def _idle(plan: EngagePlan) -> bool:
    """Whether an engage makes no contact and does not move the unit (less than ``MIN_BB``)."""
    return plan.stopped is not None and math.dist(plan.start.centre, plan.end.centre) < MIN_BB


def engage_actions(state: AnvilState) -> list[Engage]:
    """The engages the active unit may order now (LOS, a clear straight line, in reach when premeasuring)."""
    if not in_activation(state) or state.activation is None:
        return []
    unit = state.active
    if unit is None or not unit.on_table or engage_block(state, unit, state.activation) is not None:
        return []
    out = []
    for e in state.enemies(unit.seat):
        try:
            plan = plan_engage(state, unit, e)
        except IllegalAction:
            continue
        if _idle(plan):
            continue  # an engage that would not move the unit at all is not worth listing
        out.append(Engage(unit.id, e.id))
    return out


def apply_engage(state: AnvilState, action: Engage) -> tuple[AnvilState, list[Event]]:
    """Engage: the straight move (paid from the allowance; the engage ends the move) and the combat."""
    unit = check_actor(state, action.unit)
    act = state.activation
    assert act is not None
    why = engage_block(state, unit, act)
    if why is not None:
        raise IllegalAction(why)
    target = enemy_target(state, unit, action.target)
    plan = plan_engage(state, unit, target)
    if _idle(plan):
        # Not listed, so not taken either: a NATE stop from within 1" (or a short one blocked at once) would
        # only spend the activation's move for nothing.
        raise IllegalAction(f"FA-EN-03: {unit.name} cannot move towards {target.name}: no contact, no move")
    events: list[Event] = [
        EngageDeclared(unit.id, target.id, plan.side, plan.start.centre, plan.end.centre, round(plan.cost, 6))
    ]
    # The engage ends the unit's move (spec 1): what is left of the allowance goes.
    act = replace(act, engaged=True, moved=True, allowance=0.0)
    state = replace(state.with_unit(replace(unit, tray=plan.end)), activation=act)
    if plan.stopped is not None:
        clause = "FA-EN-03" if plan.stopped == "nate" else "FA-GN-09"
        moved = math.dist(plan.start.centre, plan.end.centre)
        events.append(
            EngageStopped(unit.id, target.id, plan.stopped, plan.end.centre, round(moved, 6), clause)
        )
        return state, events
    combat = Combat(unit.id, target.id, plan.side, hammerblow=act.used(HAMMERBLOW))
    return proceed(state, combat, events), events


# --- the combat ------------------------------------------------------------------------------------------


def _active_seat(state: AnvilState) -> int | None:
    """The seat whose activation it is: the only seat that does not interrupt."""
    if state.activation is not None:
        return state.activation.seat
    return state.mover


def attack_of(state: AnvilState, c: Combat) -> Attack:
    """The ``matrix.Attack`` for a combat as things stand."""
    a, d = state.unit(c.attacker), state.unit(c.defender)
    return Attack(
        attacker=a.type,  # type: ignore[arg-type]
        defender=d.type,  # type: ignore[arg-type]
        side=c.side,
        hammerblow=c.hammerblow,
        brace=d.braced,
        counterattack=bool(c.counterattack),
        fear_attacker=a.has("fear"),
        fear_defender=d.has("fear"),
        skirmishing_defender=d.skirmishing,
        defender_hp=d.hp,
        attacker_hp=a.hp,
        ballistics=c.ballistics,
        parthian=c.parthian,
        heavy_projectile=c.heavy,
        attacker_brace=a.braced,
        hero_of_the_day=bool(c.hero_of_the_day),
    )


def _counter_offer(state: AnvilState, c: Combat) -> Pending | None:
    """FA-SI-01..05 decided: offered to the defender's seat (never the active one) when it is engaged."""
    if c.ballistics or c.counterattack is not None:
        return None
    d = state.unit(c.defender)
    if not d.on_table or d.seat == _active_seat(state) or not may_use(d, "counterattack"):
        return None
    if interrupted(state, d.id, "counterattack"):
        return None  # FA-AC-02 decided: not offered again in a chain of the same activation
    if state.cp[d.seat] < cost_of("counterattack"):
        return None
    return Pending("counterattack", d.seat, d.id, c)


def _hero_offer(state: AnvilState, c: Combat) -> Pending | None:
    """FA-SI-09..11 decided: offered when the damage would destroy a Hero or the General's unit that could
    bounce back, to its seat (never the active one), if it can pay."""
    if c.hero_of_the_day is not None or c.damage is None:
        return None
    a, d = state.unit(c.attacker), state.unit(c.defender)
    if c.damage < d.hp or d.seat == _active_seat(state) or not may_use(d, "hero_of_the_day"):
        return None
    if interrupted(state, d.id, "hero_of_the_day"):
        return None  # FA-AC-02 decided: once per unit per opponent's activation
    if state.cp[d.seat] < cost_of("hero_of_the_day"):
        return None
    if not can_bounce(state, d, tray_of(a).centre, a.id):
        return None  # FA-SI-11
    return Pending("hero_of_the_day", d.seat, d.id, c)


def _pause(state: AnvilState, offer: Pending, events: list[Event]) -> AnvilState:
    events.append(InterruptionOffered(offer.seat, offer.unit, offer.kind))
    return replace(state, pending=offer, phase="interrupt")


def _fight(state: AnvilState, c: Combat, events: list[Event]) -> tuple[AnvilState, list[Bounce] | None]:
    """Run a combat from its stage: the new state and its bounce backs, or None when paused for an answer."""
    if c.stage == "counterattack":
        offer = _counter_offer(state, c)
        if offer is not None:
            return _pause(state, offer, events), None
        c = replace(c, counterattack=bool(c.counterattack), stage="damage")
    if c.stage == "damage":
        out = resolve(attack_of(state, c))
        c = replace(
            c,
            damage=out.damage,
            counter_damage=out.counter_damage,
            bounce=out.bounce_back,
            excess=out.excess_move,
            clauses=out.clauses,
            stage="hero_of_the_day",
        )
    if c.stage == "hero_of_the_day":
        offer = _hero_offer(state, c)
        if offer is not None:
            return _pause(state, offer, events), None
        c = replace(c, hero_of_the_day=bool(c.hero_of_the_day), stage="apply")
    return _apply(state, c, events)


def _apply(state: AnvilState, c: Combat, events: list[Event]) -> tuple[AnvilState, list[Bounce]]:
    """Damage, destruction, Hero of the Day, the excess move; the bounce backs to make."""
    a, d = state.unit(c.attacker), state.unit(c.defender)
    out = resolve(attack_of(state, c))
    the_cell = cell(a.type, d.type)
    events.append(
        CombatResolved(
            a.id,
            d.id,
            out.side,
            out.damage or 0,
            out.counter_damage,
            out.defender_hp_left,
            out.attacker_hp_left,
            c.depth,
            c.ballistics,
            the_cell.clause,
            out.clauses,
        )
    )
    a_centre, d_centre = tray_of(a).centre, tray_of(d).centre
    if c.hero_of_the_day and not out.destroyed and (out.damage or 0) >= d.hp:
        events.append(HeroOfTheDay(d.id, out.defender_hp_left))
    state = set_hp(state, d.id, out.defender_hp_left, "FA-CRM-02", events)
    if out.counter_damage is not None:
        state = set_hp(state, a.id, out.attacker_hp_left, "FA-SI-03", events)
    # FA-CRM-03 decided: only the unit whose activation it is converts excess (not a chain's attacker).
    if c.depth == 0 and not c.ballistics and out.excess_move > 0 and state.activation is not None:
        act = state.activation
        if act.unit == a.id and state.unit(a.id).on_table:
            state = replace(
                state, activation=replace(act, excess=act.excess + out.excess_move, excess_only=True)
            )
            events.append(ExcessMove(a.id, out.excess_move))
    bounces: list[Bounce] = []
    if out.bounce_back in ("defender", "both"):
        bounces.append(Bounce(d.id, a_centre, a.id, c.depth))
    if out.bounce_back in ("attacker", "both"):
        bounces.append(Bounce(a.id, d_centre, d.id, c.depth))
    return state, [b for b in bounces if state.unit(b.unit).on_table]


# --- bounce backs ----------------------------------------------------------------------------------------


def _held(unit: Unit) -> str | None:
    """Why a unit cannot bounce back by rule alone (FA-BB-04 decided)."""
    if unit.is_seat:
        return "seat"  # FA-GN-08: the Seat never moves
    if unit.braced:
        return "braced"  # FA-SC-03
    return None


def bounce_slide(state: AnvilState, unit: Unit, away_from: tuple[float, float], partner: int) -> Slide:
    """Where a bounce back of ``unit`` straight away from ``away_from`` ends (FA-BB-01..03)."""
    t = tray_of(unit)
    d = (t.centre[0] - away_from[0], t.centre[1] - away_from[1])
    if math.hypot(*d) < MIN_BB:
        fx, fy = facing_vector(t.facing)
        d = (-fx, -fy)  # the same centre: straight back
    stops = [tray_of(f) for f in friends_of(state, unit)] + impassable(state)
    enemies = {e.id: tray_of(e) for e in state.enemies(unit.seat) if e.id != partner}
    return stop_short(t, d, BOUNCE, stops_at=stops, edges=table_size(state), enemies=enemies, gap=STOP_GAP)


def can_bounce(state: AnvilState, unit: Unit, away_from: tuple[float, float], partner: int) -> bool:
    """Whether the unit can bounce back: not held, and it moves at least ``MIN_BB`` or meets an enemy."""
    if _held(unit) is not None:
        return False
    slide = bounce_slide(state, unit, away_from, partner)
    return bool(slide.moved >= MIN_BB or slide.hit_enemy is not None)


def _bounce(state: AnvilState, b: Bounce, events: list[Event]) -> tuple[AnvilState, Combat | None]:
    """Make one bounce back; a new combat when it meets an enemy (FA-BB-02)."""
    unit = state.unit(b.unit)
    if not unit.on_table:
        return state, None
    reason = _held(unit)
    slide = None
    if reason is None:
        slide = bounce_slide(state, unit, b.away_from, b.partner)
        if slide.moved < MIN_BB and slide.hit_enemy is None:
            reason = {"stops_at": "blocked", "edge": "edge"}.get(str(slide.stopped_by), "blocked")
    if reason is not None or slide is None:
        hp = unit.hp - BB_LOSS
        events.append(BounceBlocked(unit.id, reason or "blocked", max(0, hp)))
        return set_hp(state, unit.id, hp, "FA-BB-04", events), None
    start = tray_of(unit).centre
    state = state.with_unit(replace(unit, tray=slide.end))
    events.append(BouncedBack(unit.id, start, slide.end.centre, round(slide.moved, 6), slide.stopped_by))
    if slide.hit_enemy is None:
        return state, None
    enemy = state.unit(slide.hit_enemy)
    if b.depth + 1 >= MAX_CHAIN:
        events.append(ChainStopped(enemy.id, unit.id, "chain bound"))
        return state, None
    edge = engaged_edge(tray_of(enemy), slide.end)
    side: CombatSide = "flank" if edge in ("left", "right") else edge  # type: ignore[assignment]
    read: CombatSide = "front" if unit.skirmishing else side
    if cell(enemy.type, unit.type).value(read) is None:
        events.append(ChainStopped(enemy.id, unit.id, "nate"))
        return state, None
    events.append(ChainCombat(enemy.id, unit.id, side, b.depth + 1))
    return state, Combat(enemy.id, unit.id, side, depth=b.depth + 1)


def proceed(
    state: AnvilState, combat: Combat | None, events: list[Event], queue: tuple[Bounce, ...] = ()
) -> AnvilState:
    """Run a combat and every bounce back and chain combat after it, until done or paused for an answer."""
    todo = list(queue)
    while True:
        if combat is not None:
            state, bounces = _fight(state, combat, events)
            if bounces is None:
                return state
            if decided(state):
                return _settle(state)  # FA-GN-06 decided: won at once; the queued bounce backs are dropped
            todo = bounces + list(combat.after)
            combat = None
        if not todo:
            return _settle(state)
        b = todo.pop(0)
        state, chain = _bounce(state, b, events)
        if decided(state):
            return _settle(state)  # a unit that cannot bounce back may die: the chain stops there too
        if chain is not None:
            combat = replace(chain, after=tuple(todo))
            todo = []


def decided(state: AnvilState) -> bool:
    """Whether a win condition is met: a General's unit (or Seat, per the win option) is destroyed. The game
    is decided that moment (FA-GN-06 decided): only the deaths of one damage step (a Counterattack's) can
    make a draw, so nothing after it is resolved."""
    return bool(lost_targets(state))


def interrupted(state: AnvilState, unit: int, key: str) -> bool:
    """Whether the unit already used this interruption in the activation (FA-AC-02 decided: at most once
    per unit per opponent's activation)."""
    act = state.activation
    return act is not None and (unit, key) in act.interruptions


def note_interruption(state: AnvilState, unit: int, key: str) -> AnvilState:
    """Record an interruption used by ``unit`` in the activation under way."""
    act = state.activation
    if act is None:
        return state
    return replace(state, activation=replace(act, interruptions=(*act.interruptions, (unit, key))))


def _settle(state: AnvilState) -> AnvilState:
    """The resolution is over: back to the activation."""
    if state.phase == "interrupt":
        state = replace(state, phase="activation")
    return replace(state, pending=None)


# --- interruptions ---------------------------------------------------------------------------------------


def interrupt_actions(state: AnvilState) -> list[Interrupt | Decline]:
    """While an interruption is awaited: the stratagem it offers and Decline."""
    p = state.pending
    if p is None or state.phase != "interrupt":
        return []
    return [Interrupt(p.kind, p.unit), Decline()]


def apply_interrupt(state: AnvilState, action: Interrupt) -> tuple[AnvilState, list[Event]]:
    """Use the interruption offered: pay its CP (FA-ST-05 decided) and resume."""
    p = state.pending
    if p is None or state.phase != "interrupt":
        raise IllegalAction("no interruption is offered now")
    if action.key != p.kind:
        raise IllegalAction(f"the interruption offered now is {p.kind}, not {action.key}")
    if p.spell is not None:
        from iwgt.games.anvil.spells import resume

        return resume(state, action)
    c = p.combat
    assert c is not None
    if action.unit is not None and action.unit != p.unit:
        raise IllegalAction(f"only unit {p.unit} may use {p.kind} now")
    events: list[Event] = []
    state = pay(replace(state, pending=None, phase="activation"), p.seat, p.unit, p.kind, events)
    state = note_interruption(state, p.unit, p.kind)
    if p.kind == "counterattack":
        c = replace(c, counterattack=True, stage="damage")
    else:
        c = replace(c, hero_of_the_day=True, stage="apply")
    return proceed(state, c, events), events


def apply_decline(state: AnvilState, action: Decline) -> tuple[AnvilState, list[Event]]:
    """Let the interruption go and resume."""
    p = state.pending
    if p is None or state.phase != "interrupt":
        raise IllegalAction("no interruption is offered now")
    if p.spell is not None:
        from iwgt.games.anvil.spells import resume

        return resume(state, action)
    c = p.combat
    assert c is not None
    events: list[Event] = [InterruptionDeclined(p.seat, p.kind)]
    state = replace(state, pending=None, phase="activation")
    if p.kind == "counterattack":
        c = replace(c, counterattack=False, stage="damage")
    else:
        c = replace(c, hero_of_the_day=False, stage="apply")
    return proceed(state, c, events), events


def resume(state: AnvilState, answer: Interrupt | Decline) -> tuple[AnvilState, list[Event]]:
    """Continue the paused resolution (a combat or a spell) with the interrupter's answer."""
    if isinstance(answer, Interrupt):
        return apply_interrupt(state, answer)
    return apply_decline(state, answer)


# --- the dispatchers for game.py -------------------------------------------------------------------------


def combat_actions(state: AnvilState) -> list[Action]:
    """The active unit's stratagem / engage / shoot / cast / steady / raise_champion actions legal now."""
    if not in_activation(state):
        return []
    from iwgt.games.anvil.heroic import heroic_actions
    from iwgt.games.anvil.shooting import shoot_actions
    from iwgt.games.anvil.spells import cast_actions
    from iwgt.games.anvil.stratagems import stratagem_actions

    return [
        *stratagem_actions(state),
        *engage_actions(state),
        *shoot_actions(state),
        *cast_actions(state),
        *heroic_actions(state),
    ]


def apply_combat(state: AnvilState, action: Action) -> tuple[AnvilState, list[Event]]:
    """Apply any action of this module family (engage, shoot, cast, steady, raise_champion, stratagem,
    interrupt, decline)."""
    from iwgt.games.anvil.heroic import apply_raise_champion, apply_steady
    from iwgt.games.anvil.shooting import apply_shoot
    from iwgt.games.anvil.spells import apply_cast
    from iwgt.games.anvil.stratagems import apply_stratagem

    if isinstance(action, Engage):
        return apply_engage(state, action)
    if isinstance(action, Shoot):
        return apply_shoot(state, action)
    if isinstance(action, Cast):
        return apply_cast(state, action)
    if isinstance(action, Steady):
        return apply_steady(state, action)
    if isinstance(action, RaiseChampion):
        return apply_raise_champion(state, action)
    if isinstance(action, Stratagem):
        return apply_stratagem(state, action)
    if isinstance(action, Interrupt):
        return apply_interrupt(state, action)
    if isinstance(action, Decline):
        return apply_decline(state, action)
    raise IllegalAction(f"not a combat action: {type(action).__name__}")
