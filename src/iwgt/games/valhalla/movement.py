"""Where figures and baggage may go: moves, charges, withdrawals and crossings on the inch table.

Every check is a ``why_not_<verb>`` (see ``iwgt.games``): the reason an act is refused, or None, so that the
touchscreen can say it and ``legal_actions`` can offer only what ``apply`` accepts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from shapely.geometry import LineString, Point

from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.scenario import THING_RADIUS
from iwgt.games.valhalla.state import Engagement, Figure, Thing, ValhallaState
from iwgt.geometry.plane import EPS, XY, Ground, closest_approach, distance, edge_distance, rounded, toward

DIRECTIONS = 16
"""Compass directions ``legal_actions`` offers moves in (any other point may still be chosen)."""
MIN_MOVE = 0.05
"""A move shorter than this is no move."""


@dataclass(frozen=True, slots=True)
class Body:
    """Something round on the table another body may not overlap: where, how big, whose side."""

    at: XY
    radius: float
    side: int | None
    label: str


def figure_radius() -> float:
    """A figure's base radius."""
    return rules().table.base_radius


def bodies(state: ValhallaState, skip: Sequence[int] = (), skip_thing: int | None = None) -> list[Body]:
    """Every living figure and every baggage on the table (things to carry never block)."""
    r = figure_radius()
    out = [Body(f.at, r, f.side, f.name) for f in state.figures if f.alive and f.id not in skip]
    out.extend(
        Body(t.at, t.radius, t.baggage_side, t.name)
        for t in state.things
        if t.baggage_side is not None and t.id != skip_thing
    )
    return out


def why_not_walk(
    ground: Ground,
    path: Sequence[XY],
    radius: float,
    side: int,
    budget: float,
    others: Sequence[Body],
    zone: float,
) -> str | None:
    """Why a base may not walk along ``path``, or None if it may (VH-AC-05..08, VH-MS-06).

    It must stay on the table, cross no obstacle, cost no more than ``budget`` (an inch of woods,
    village or uphill costs two), never come closer than ``zone`` to an enemy figure (nor closer than it
    already was, if it starts nearer), and end on free ground.
    """
    if len(path) < 2 or (distance(path[0], path[-1]) < MIN_MOVE and len(path) == 2):
        return "that is no move: pick a point further away"
    for p in path[1:]:
        if not ground.on_table(p, radius):
            return f"({p[0]:.1f}, {p[1]:.1f}) is off the table"
    if ground.crosses_obstacle(path):
        return "the path crosses an obstacle: crossing it is an action of its own"
    why = why_not_clear(ground, path, radius)
    if why is not None:
        return why
    cost = ground.path_cost(path)
    if cost > budget + EPS:
        slow = ground.slow_length(path)
        why = f' ({slow:.1f}" of it at half speed in woods, village or uphill)' if slow > EPS else ""
        return f'the path needs {cost:.1f}" of movement{why}; {budget:g}" allowed'
    for o in others:
        if o.side is None or o.side == side or o.radius != figure_radius():
            continue  # only enemy figures have a 2" zone (baggage does not)
        start = edge_distance(path[0], radius, o.at, o.radius)
        nearest = closest_approach(path, o.at) - radius - o.radius
        if nearest < min(zone, start) - EPS:
            return (
                f'it would come within {zone:g}" of {o.label}: moves stop 2" from the enemy (charge to close)'
            )
    return why_not_stand(path[-1], radius, others)


def why_not_clear(
    ground: Ground, path: Sequence[XY], radius: float, crossing: int | None = None
) -> str | None:
    """Why a base going along ``path`` would touch an obstacle it does not cross, or None (VH-AC-08 decided).

    The whole base, not only its centre, must pass clear of every fence, hedge, wall or stream, so that no
    move leaves a base straddling one. A base that already overlaps one (only an old record could have it)
    may not come any closer. ``crossing`` is the obstacle a crossing goes over.
    """
    if not ground.obstacles:
        return None
    swept = LineString(path) if len(path) > 1 else Point(path[0])
    start = Point(path[0])
    for i, o in enumerate(ground.obstacles):
        if i == crossing:
            continue
        line = o.geometry
        if swept.distance(line) < min(radius, start.distance(line)) - EPS:
            return f"its base would touch the {o.kind}: pass it clear of the base, or cross it (an action)"
    return None


def why_not_stand(at: XY, radius: float, others: Sequence[Body]) -> str | None:
    """Why a base may not stand at ``at`` (on another figure or the baggage), or None if it may."""
    for o in others:
        if edge_distance(at, radius, o.at, o.radius) < -EPS:
            return f"there is no room: it would stand on {o.label}"
    return None


def why_not_move(state: ValhallaState, f: Figure, path: Sequence[XY], budget: float) -> str | None:
    """Why a figure may not walk this path within ``budget`` inches of movement, or None if it may."""
    a = rules().actions
    return why_not_walk(
        state.scenario.ground,
        path,
        figure_radius(),
        f.side,
        budget,
        bodies(state, skip=(f.id,)),
        a.enemy_zone,
    )


def why_not_move_baggage(state: ValhallaState, t: Thing, path: Sequence[XY]) -> str | None:
    """Why the baggage may not be driven along this path, or None if it may (as a figure's move: VH-AC-04
    decided)."""
    a = rules().actions
    side = t.baggage_side if t.baggage_side is not None else -1
    return why_not_walk(
        state.scenario.ground,
        path,
        t.radius,
        side,
        a.baggage_move,
        bodies(state, skip_thing=t.id),
        a.enemy_zone,
    )


Check = Callable[[list[XY], bool], str | None]


def reach(start: XY, check: Check, limit: float, directions: int = DIRECTIONS) -> list[XY]:
    """The furthest accepted point in each compass direction, found by halving (the checks only get
    stricter further out, except a blocked end, which is stepped back from)."""
    out: list[XY] = []
    for i in range(directions):
        angle = 2 * math.pi * i / directions
        far = (start[0] + limit * math.cos(angle), start[1] + limit * math.sin(angle))
        lo, hi = 0.0, limit
        for _ in range(9):
            mid = (lo + hi) / 2
            if check([start, toward(start, far, mid)], True) is None:
                lo = mid
            else:
                hi = mid
        d = lo
        while d >= MIN_MOVE:
            p = rounded(toward(start, far, d))
            if check([start, p], False) is None:
                out.append(p)
                break
            d -= 0.1
    return out


def _along_ok(problem: str | None, relaxed: bool) -> bool:
    """Whether a problem only concerns the end point (ignored while halving)."""
    return problem is None or (relaxed and problem.startswith("there is no room"))


def move_targets(state: ValhallaState, f: Figure, budget: float) -> list[XY]:
    """Points ``legal_actions`` offers a figure's move: the furthest in each direction, half-way points,
    the edge of each enemy's 2" zone, and reach of each thing to carry."""
    ground = state.scenario.ground
    others = bodies(state, skip=(f.id,))
    radius = figure_radius()

    def check(path: list[XY], relaxed: bool) -> str | None:
        p = why_not_walk(ground, path, radius, f.side, budget, others, rules().actions.enemy_zone)
        return None if _along_ok(p, relaxed) else p

    far = reach(f.at, check, budget)
    points = list(far)
    points.extend(rounded(toward(f.at, p, distance(f.at, p) / 2)) for p in far)
    zone = rules().actions.enemy_zone
    for e in state.enemies_of(f):
        gap = distance(f.at, e.at) - 2 * radius - zone
        if 0 < gap <= budget:
            # Stop on the 2" ring, at a point kept to hundredths from which a charge reaches (VH-AC-09).
            points.append(ring_point(state, f, e, gap, budget))
    for t in state.things:
        if t.baggage_side is None and t.carrier is None:
            gap = distance(f.at, t.at) - radius - THING_RADIUS
            if gap > MIN_MOVE:
                points.append(rounded(toward(f.at, t.at, min(gap, budget))))
    seen: set[XY] = set()
    out: list[XY] = []
    for p in points:
        if p not in seen and why_not_move(state, f, [f.at, p], budget) is None:
            seen.add(p)
            out.append(p)
    return out


def ring_point(state: ValhallaState, f: Figure, e: Figure, gap: float, budget: float) -> XY:
    """A point on the way to an enemy, kept to hundredths, where a move may stop (2" or more away) and from
    which a charge reaches it; else the point 2.01" short of it."""
    zone = rules().actions.enemy_zone
    r = figure_radius()
    line = toward(f.at, e.at, gap)
    near = sorted(
        {rounded((line[0] + 0.01 * i, line[1] + 0.01 * j)) for i in range(-8, 9) for j in range(-8, 9)},
        key=lambda p: distance(p, line),
    )
    for p in near:
        stop = edge_distance(p, r, e.at, r) >= zone - EPS and within_charge(p, e.at)
        if stop and why_not_move(state, f, [f.at, p], budget) is None:
            return p
    return rounded(toward(f.at, e.at, gap - 0.01))


def baggage_targets(state: ValhallaState, t: Thing) -> list[XY]:
    """Points ``legal_actions`` offers a baggage's end-of-turn move."""
    ground = state.scenario.ground
    others = bodies(state, skip_thing=t.id)
    side = t.baggage_side if t.baggage_side is not None else -1
    a = rules().actions

    def check(path: list[XY], relaxed: bool) -> str | None:
        p = why_not_walk(ground, path, t.radius, side, a.baggage_move, others, a.enemy_zone)
        return None if _along_ok(p, relaxed) else p

    far = reach(t.at, check, a.baggage_move, 8)
    halves = [rounded(toward(t.at, p, distance(t.at, p) / 2)) for p in far]
    return far + [p for p in halves if why_not_move_baggage(state, t, [t.at, p]) is None]


def contact_point(f: Figure, target: Figure) -> XY:
    """Where a charger stops: its base touching the target's, on the line between their centres."""
    return toward(target.at, f.at, 2 * figure_radius())


def charge_end(f: Figure, target: Figure) -> XY:
    """The contact point a charge ends on, kept to hundredths as positions are."""
    return rounded(contact_point(f, target))


def charge_gap(a: XY, b: XY) -> float:
    """The edge-to-edge distance a charge must cover, measured to the hundredth of an inch as positions are
    kept (and as the shooting range is): a figure that stopped on an enemy's 2" ring can charge it."""
    return round(edge_distance(a, figure_radius(), b, figure_radius()), 2)


def within_charge(a: XY, b: XY) -> bool:
    """Whether a figure at ``a`` is within charge reach of one at ``b`` (VH-AC-09)."""
    return charge_gap(a, b) <= rules().actions.charge + EPS


def why_not_charge(state: ValhallaState, f: Figure, target: Figure) -> str | None:
    """Why a figure may not charge this enemy (VH-AC-09, VH-AC-16), or None if it may."""
    a = rules().actions
    if not target.alive or target.side == f.side:
        return f"{target.name} is not a living enemy"
    if f.carrying is not None:
        return f"{f.name} must drop the {state.things[f.carrying].name} before charging (VH-AC-16)"
    if state.engagement(f.id, target.id) is not None:
        return f"{f.name} is already fighting {target.name}: continue fighting instead"
    gap = charge_gap(f.at, target.at)
    if gap > a.charge + EPS:
        return f'{target.name} is {gap:.2f}" away: a charge covers {a.charge:g}"'
    end = contact_point(f, target)
    ground = state.scenario.ground
    if not ground.on_table(end, figure_radius()):
        return "there is no room to charge: the contact point is off the table"
    if distance(f.at, end) > EPS and ground.crosses_obstacle([f.at, end]):
        return "an obstacle stands between them: cross it first"
    if distance(f.at, end) > EPS and (why := why_not_clear(ground, [f.at, end], figure_radius())):
        return why
    return why_not_stand(end, figure_radius(), bodies(state, skip=(f.id, target.id)))


def why_not_withdraw(state: ValhallaState, f: Figure, to: XY) -> str | None:
    """Why a figure may not withdraw to this point (2" at most, out of contact: VH-AC-10), or None."""
    a = rules().actions
    ground = state.scenario.ground
    r = figure_radius()
    if distance(f.at, to) > a.withdraw + EPS:
        return f'a withdrawal covers at most {a.withdraw:g}"'
    if not ground.on_table(to, r):
        return "that point is off the table"
    if ground.crosses_obstacle([f.at, to]):
        return "the way back crosses an obstacle"
    if (why := why_not_clear(ground, [f.at, to], r)) is not None:
        return why
    for e in state.enemies_of(f):
        if edge_distance(to, r, e.at, r) <= rules().table.contact + EPS:
            return f"it would still touch {e.name}: a withdrawal ends out of contact"
    return why_not_stand(to, r, bodies(state, skip=(f.id,)))


def withdraw_targets(state: ValhallaState, f: Figure) -> list[XY]:
    """The withdrawals ``legal_actions`` offers: 2" straight away from the opponents, and other directions."""
    a = rules().actions
    foes = [state.figure(o).at for o in state.opponents(f.id)]
    cx = sum(p[0] for p in foes) / len(foes) if foes else f.at[0]
    cy = sum(p[1] for p in foes) / len(foes) if foes else f.at[1]
    away = math.atan2(f.at[1] - cy, f.at[0] - cx)
    out: list[XY] = []
    for k in (0, 1, -1, 2, -2, 3, -3, 4):
        angle = away + k * math.pi / 4
        p = rounded(
            (f.at[0] + (a.withdraw - 0.01) * math.cos(angle), f.at[1] + (a.withdraw - 0.01) * math.sin(angle))
        )
        if why_not_withdraw(state, f, p) is None and p not in out:
            out.append(p)
    return out


def why_not_cross(state: ValhallaState, f: Figure, index: int) -> str | None:
    """Why a figure may not cross this obstacle (VH-AC-08), or None if it may."""
    ground = state.scenario.ground
    if not 0 <= index < len(ground.obstacles):
        return f"there is no obstacle {index}"
    r = figure_radius()
    if index not in ground.obstacles_near(f.at, r + rules().actions.cross_reach):
        return (
            f'{f.name} is not within {rules().actions.cross_reach:g}" of the {ground.obstacles[index].kind}'
        )
    end = cross_end(state, f, index)
    if not ground.on_table(end, r):
        return "the far side is off the table"
    for i, o in enumerate(ground.obstacles):
        if i != index and o.geometry.intersects(LineString([f.at, end])):
            return "another obstacle is in the way"
    if why_not_clear(ground, [f.at, end], r, crossing=index) is not None:
        return "another obstacle is in the way: the base would touch it"
    for e in state.enemies_of(f):
        # Decided (VH-AC-08): a crossing never ends touching an enemy; contact comes only by a charge.
        if edge_distance(end, r, e.at, r) <= rules().table.contact + EPS:
            return f"{e.name} stands on the far side: cross elsewhere, or charge over once across"
    return why_not_stand(end, r, bodies(state, skip=(f.id,)))


def near_thing(f: Figure, t: Thing) -> bool:
    """Whether a figure can reach a thing to pick it up (VH-AC-12 decided: within 1" of its base)."""
    return edge_distance(f.at, figure_radius(), t.at, THING_RADIUS) <= rules().actions.pickup_reach + EPS


def why_not_pick_up(state: ValhallaState, f: Figure, t: Thing) -> str | None:
    """Why a figure may not pick this thing up, or None if it may (VH-AC-11, VH-AC-12)."""
    if state.engaged(f.id):
        return f"{f.name} is in combat"
    if t.baggage_side is not None:
        return f"the {t.name} is baggage: it is driven, not carried"
    if t.carrier is not None:
        return f"the {t.name} is already carried"
    if f.carrying is not None:
        return f"{f.name} already carries the {state.things[f.carrying].name} (one thing at a time)"
    if not near_thing(f, t):
        return f'{f.name} must be within {rules().actions.pickup_reach:g}" of the {t.name}'
    return None


def nearest_enemy_gap(state: ValhallaState, f: Figure) -> float:
    """Edge distance to the nearest living enemy figure (infinite if none)."""
    r = figure_radius()
    return min((edge_distance(f.at, r, e.at, r) for e in state.enemies_of(f)), default=math.inf)


# ---------------------------------------------------------------- what the acts do (pure: the engine applies
# them, the bot plans with them, so both always follow the same rules)


def relocate(state: ValhallaState, f: Figure, to: XY) -> ValhallaState:
    """The state with a figure, and what it carries, at ``to``."""
    if f.carrying is not None:
        state = state.with_thing(replace(state.things[f.carrying], at=to))
    return state.with_figure(replace(f, at=to))


def cross_end(state: ValhallaState, f: Figure, index: int) -> XY:
    """Where a figure stands once it has crossed this obstacle (VH-AC-08)."""
    return rounded(state.scenario.ground.beyond(index, f.at, figure_radius()))


def charge_into(state: ValhallaState, f: Figure, target: Figure) -> ValhallaState:
    """The state after ``f`` charges ``target``: at its contact point, kept to hundredths, and in combat with
    it as the charger (VH-AC-09, VH-CO-14); the fight itself is the engine's to start."""
    state = relocate(state, f, charge_end(f, target))
    return replace(state, engagements=(*state.engagements, Engagement(f.id, target.id)))


def withdraw_to(state: ValhallaState, f: Figure, to: XY) -> ValhallaState:
    """The state after a figure withdraws to ``to``: out of all its combats, and barred from charging again
    this activation (VH-AC-10); the coin a withdrawal may give the enemy is the engine's to award."""
    state = relocate(state, f, to)
    return replace(state, engagements=tuple(e for e in state.engagements if not e.has(f.id)), withdrew=True)


def pick_up(state: ValhallaState, f: Figure, t: Thing) -> ValhallaState:
    """The state after a figure picks a thing up (VH-AC-12)."""
    return state.with_thing(replace(t, carrier=f.id, at=f.at)).with_figure(replace(f, carrying=t.id))


def drop(state: ValhallaState, f: Figure) -> ValhallaState:
    """The state after a figure drops what it carries, where it stands."""
    assert f.carrying is not None
    t = state.things[f.carrying]
    return state.with_thing(replace(t, carrier=None, at=f.at)).with_figure(replace(f, carrying=None))
