"""Where trays may go: moves along straight legs with free pivots (FA-MV-01..03, FA-MS-04), deployment
from the own edge, a side edge or anywhere (FA-DP-01, FA-SD-02, FA-SD-18..21), terrain and Seat placement
(FA-FB-04..07), and the spreads of destinations the legal actions offer.

A leg sweeps the hull of the tray at both ends, keeping its facing (the facing at the leg's start); pivots
are free and happen at the start, between legs and at the end. Halving terrain costs 2" an inch inside it;
impassable terrain and other trays may not be crossed (Fly/Burrow crosses terrain, Interpenetration crosses
trays); a move ends on the table, on no tray, out of impassable terrain and at least 1" from every enemy.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

from shapely.geometry import Polygon

from iwgt.games.anvil.army import move_allowance
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState, Unit, home_facing
from iwgt.geometry.trays import (
    Feature,
    Tray,
    facing_towards,
    facing_vector,
    halved_length,
    impassable_area,
    leg_sweep,
    normal_facing,
    place_outline,
    stop_short,
    tray_gap,
    trays_overlap,
    within_table,
)

XY = tuple[float, float]

AREA_EPS = 1e-6
"""Square inches of overlap below which two shapes only touch."""
GAP_EPS = 1e-6
"""Inches of slack on every distance rule (a tray exactly 1" away is 1" away)."""
MOVE_DIRECTIONS = (0.0, 45.0, -45.0, 90.0, -90.0, 180.0)
"""Directions (degrees from the unit's facing) of the moves the legal actions offer."""
MOVE_FRACTIONS = (1.0, 0.5)
"""Shares of the reach in a direction the legal actions offer."""
ROUNDING_MARGIN = 0.01
"""Inches an offered move stops short of its reach, so that its end rounded to hundredths stays legal."""
MIN_OFFERED_MOVE = 0.5
"""The shortest move (inches) the legal actions bother to offer."""
BISECTIONS = 24
"""Halvings of a leg when finding how far an allowance carries a unit through halving ground (2^-24 of it)."""
SHORT_STEP = 0.25
"""Inches an unpremeasured order falling short backs off by until its end is a legal place."""
DEPLOY_SPREAD = 7
"""Points along an edge the legal actions offer for a deployment or a Seat of Power."""
INFILTRATE_GRID = (5, 4)
"""Columns and rows of the grid of infiltration points the legal actions offer."""
FEATURE_GRID = (4, 3)
"""Columns and rows of the coarse grid of feature centres the legal actions offer."""
FEATURE_STEP = 3.0
"""Inches between the centres of the fine grid looked at when the coarse one has no place left."""
FINE_OFFERS = 24
"""The most placements offered from the fine grid."""
OFFERED_DESIGNATIONS: tuple[tuple[bool, bool, bool], ...] = (
    (True, False, False),
    (False, True, False),
    (True, True, False),
    (False, False, True),
    (False, True, True),
)
"""(halves, blocks, impassable) combinations the legal actions offer; any non-empty one is accepted."""
ROTATIONS = (0, 90)
"""The rotations a feature may be placed with (decided)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A move worked out: the tray at its end, the centres it passed (start first), its cost, and whether
    an unpremeasured order fell short of its ordered end (FA-GN-09)."""

    end: Tray
    path: tuple[XY, ...]
    cost: float
    short: bool = False


# ------------------------------------------------------------------ the table


def table(state: AnvilState) -> tuple[float, float]:
    """The table's width and height."""
    return state.scenario.spec.width, state.scenario.spec.height


def tray_size(state: AnvilState) -> tuple[float, float]:
    """Every unit's tray: frontage and depth (FA-GN-02)."""
    f, d = state.scenario.spec.tray
    return f, d


def base_allowance(unit: Unit) -> float:
    """A unit's Move for one activation before March: profile, Swiftness, Heavy Projectile (FA-MV-03),
    plus Skirmishing's 2" while its token lasts (FA-SM-11 decided: every activation this turn)."""
    move = move_allowance(unit)
    if unit.skirmishing:
        move += rules().stratagems["skirmishing"].move_add
    return move


def _radius(t: Tray) -> float:
    return math.hypot(t.frontage, t.depth) / 2


def _point_segment(p: XY, a: XY, b: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    t = 0.0 if den < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def in_impassable(poly: Polygon, features: list[Feature]) -> bool:
    """Whether a shape reaches into the interior of impassable terrain."""
    if not any(f.impassable for f in features):
        return False
    area = impassable_area(features)
    if area.is_empty:
        return False
    x0, y0, x1, y1 = poly.bounds
    a0, b0, a1, b1 = area.bounds
    if x1 < a0 or a1 < x0 or y1 < b0 or b1 < y0:
        return False
    if not poly.intersects(area):
        return False
    return bool(poly.intersection(area).area > AREA_EPS)


def others(state: AnvilState, uid: int) -> list[Unit]:
    """Every other unit on the table."""
    return [u for u in state.units if u.id != uid and u.tray is not None and not u.destroyed]


# ------------------------------------------------------------------ where a tray may stand


def why_not_stand(state: AnvilState, unit: Unit, tray: Tray, *, enemy_gap: float | None = None) -> str | None:
    """Why a unit's tray may not end here: off the table, on a tray, in impassable terrain, or within 1"
    (or ``enemy_gap``) of an enemy (FA-MS-04); None when it may."""
    w, h = table(state)
    if not within_table(tray, w, h):
        return "the tray would leave the table"
    gap = rules().constants.enemy_gap if enemy_gap is None else enemy_gap
    reach = _radius(tray)
    cx, cy = tray.centre
    for other in others(state, unit.id):
        assert other.tray is not None
        ox, oy = other.tray.centre
        # Far apart centres settle both questions without the rectangle maths.
        if math.hypot(ox - cx, oy - cy) > reach + _radius(other.tray) + gap + GAP_EPS:
            continue
        if trays_overlap(tray, other.tray):
            return f"the tray would stand on {other.name}"
        if other.seat != unit.seat and gap > 0:
            apart = tray_gap(tray, other.tray)
            if apart < gap - GAP_EPS:
                # Without premeasuring the refusal must not measure for the player (FA-GN-09).
                said = f'{apart:.2f}" from' if state.options.premeasure else "too near"
                return f'the tray would end {said} {other.name}: at least {gap:g}" from an enemy'
    features = state.terrain()
    if any(f.impassable for f in features) and in_impassable(tray.polygon(), features):
        return "the tray would stand in impassable terrain"
    return None


def why_not_leg(
    state: AnvilState, unit: Unit, start: Tray, to: XY, *, fly: bool, through: bool
) -> str | None:
    """Why a straight leg may not be made: it crosses impassable terrain (but with Fly/Burrow) or another
    tray (but with Interpenetration), or leaves the table (FA-MV-02, FA-SM-02, FA-SM-08)."""
    w, h = table(state)
    end = start.moved(to)
    if not within_table(end, w, h):
        return "the move would leave the table"
    if math.dist(start.centre, to) < 1e-9:
        return None
    sweep: Polygon | None = None  # built only when something lies near the leg
    features = state.terrain()
    if not fly and any(f.impassable for f in features):
        sweep = leg_sweep(start, to)
        if in_impassable(sweep, features):
            return "the move would cross impassable terrain"
    if not through:
        reach = _radius(start)
        for other in others(state, unit.id):
            t = other.tray
            assert t is not None
            if _point_segment(t.centre, start.centre, to) > reach + _radius(t) + GAP_EPS:
                continue
            sweep = leg_sweep(start, to) if sweep is None else sweep
            if sweep.intersection(t.polygon()).area > AREA_EPS:
                return f"the move would cross {other.name}"
    return None


def leg_cost(state: AnvilState, a: XY, b: XY, *, fly: bool) -> float:
    """What a straight leg costs: its length, each inch in halving terrain 2 (not with Fly/Burrow)."""
    features = state.terrain()
    if fly or not any(f.halves for f in features):
        return math.dist(a, b)
    return halved_length(a, b, features)


def _point_at_cost(state: AnvilState, a: XY, b: XY, budget: float, *, fly: bool) -> XY:
    """The furthest point of the leg a->b reachable for ``budget`` inches of allowance."""
    length = math.dist(a, b)
    if length < 1e-12:
        return a
    if fly or not any(f.halves for f in state.terrain()):
        share = max(0.0, min(1.0, budget / length))
        return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)
    lo, hi = 0.0, 1.0
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        p = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
        if leg_cost(state, a, p, fly=fly) <= budget + 1e-9:
            lo = mid
        else:
            hi = mid
    return (a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo)


def plan_move(
    state: AnvilState,
    unit: Unit,
    path: tuple[XY, ...],
    facing: float,
    allowance: float,
    *,
    fly: bool = False,
    through: bool = False,
) -> Plan | str:
    """A move along ``path`` (tray centres) ending facing ``facing``, or why it may not be made.

    With the premeasure option on, a move costing more than ``allowance`` is refused with its cost; off
    (FA-GN-09 decided), the unit goes as far as the allowance lets along the ordered path, backing off
    ``SHORT_STEP`` at a time to the nearest legal place, and the plan says it fell short.
    """
    start = unit.tray
    assert start is not None
    facing = normal_facing(facing)
    centres: list[XY] = [start.centre]
    cost = 0.0
    short = False
    for to in path:
        step = leg_cost(state, centres[-1], to, fly=fly)
        if cost + step > allowance + 1e-9:
            if state.options.premeasure:
                full = (start.centre, *path)
                total = sum(leg_cost(state, a, b, fly=fly) for a, b in itertools.pairwise(full))
                return f'the move costs {total:.2f}" but {allowance:.2f}" are left'
            # FA-GN-09 decided: only the length is forgiven: an order illegal for another reason (a tray or
            # impassable terrain in the way or at the end, the table's edge) is refused as if in reach.
            why = _why_not_order(state, unit, start, path, facing, fly=fly, through=through)
            if why is not None:
                return why
            to = _point_at_cost(state, centres[-1], to, allowance - cost, fly=fly)
            step = leg_cost(state, centres[-1], to, fly=fly)
            short = True
        centres.append(to)
        cost += step
        if short:
            break
    # Each leg keeps the facing the tray has (pivots are free between legs, but the order gives none).
    tray = start
    for to in centres[1:]:
        why = why_not_leg(state, unit, tray, to, fly=fly, through=through)
        if why is not None and not short:
            return why
        if why is not None:
            return _fall_back(state, unit, start, centres, facing, fly=fly, through=through)
        tray = tray.moved(to)
    end = tray.pivoted(facing)
    why = why_not_stand(state, unit, end)
    if why is not None:
        if not short:
            return why
        return _fall_back(state, unit, start, centres, facing, fly=fly, through=through)
    return Plan(end, tuple(centres), cost, short)


def _why_not_order(
    state: AnvilState,
    unit: Unit,
    start: Tray,
    path: tuple[XY, ...],
    facing: float,
    *,
    fly: bool,
    through: bool,
) -> str | None:
    """Why the whole ordered move would be refused were it within reach: a leg or its end (None: none)."""
    tray = start
    for to in path:
        why = why_not_leg(state, unit, tray, to, fly=fly, through=through)
        if why is not None:
            return why
        tray = tray.moved(to)
    return why_not_stand(state, unit, tray.pivoted(facing))


def _fall_back(
    state: AnvilState,
    unit: Unit,
    start: Tray,
    centres: list[XY],
    facing: float,
    *,
    fly: bool,
    through: bool,
) -> Plan | str:
    """An unpremeasured order that ends in no legal place: back off along the path to the last one."""
    points: list[XY] = []
    for a, b in itertools.pairwise(centres):
        n = max(1, math.ceil(math.dist(a, b) / SHORT_STEP))
        points.extend((a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1))
    for i in range(len(points) - 1, -1, -1):
        sub = _truncate(centres, points[i])
        tray = start
        ok = True
        for to in sub[1:]:
            if why_not_leg(state, unit, tray, to, fly=fly, through=through) is not None:
                ok = False
                break
            tray = tray.moved(to)
        if ok and why_not_stand(state, unit, tray.pivoted(facing)) is None:
            cost = sum(leg_cost(state, a, b, fly=fly) for a, b in itertools.pairwise(sub))
            return Plan(tray.pivoted(facing), tuple(sub), cost, True)
    if why_not_stand(state, unit, start.pivoted(facing)) is None:
        return Plan(start.pivoted(facing), (start.centre,), 0.0, True)
    return Plan(start, (start.centre,), 0.0, True)


def _truncate(centres: list[XY], point: XY) -> list[XY]:
    """The path's centres up to the leg holding ``point``, ending there."""
    best, leg = math.inf, 1
    for i, (a, b) in enumerate(itertools.pairwise(centres), start=1):
        d = _point_segment(point, a, b)
        if d < best - 1e-9:
            best, leg = d, i
    return [*centres[:leg], point]


# ------------------------------------------------------------------ the moves the legal actions offer


def _nearest_enemy(state: AnvilState, unit: Unit, at: XY | None = None) -> Tray | None:
    """The tray of the enemy unit nearest to ``at`` (the unit's centre by default), if any is on the table."""
    enemies = [u.tray for u in state.units if u.seat != unit.seat and u.tray is not None and not u.destroyed]
    if not enemies:
        return None
    assert unit.tray is not None
    here = unit.tray.centre if at is None else at
    return min(enemies, key=lambda t: math.dist(t.centre, here))


def sensible_facing(state: AnvilState, unit: Unit, at: XY) -> float:
    """The facing a move offered by the legal actions ends with: towards the nearest enemy on the table,
    else the unit's own facing (a pivot is free, FA-MV-01)."""
    nearest = _nearest_enemy(state, unit, at)
    if nearest is None:
        assert unit.tray is not None
        return round(unit.tray.facing, 1)
    return round(facing_towards(at, nearest.centre), 1)


def move_targets(
    state: AnvilState, unit: Unit, allowance: float, *, fly: bool = False, through: bool = False
) -> list[tuple[tuple[XY, ...], float]]:
    """A spread of legal moves (one-leg paths and end facings): a few directions from the unit's facing
    and one straight at the nearest enemy (stopping 1" short), x shares of the reach, each ending facing
    the nearest enemy (or as it faces, where that pivot does not fit); and pivots in place."""
    tray = unit.tray
    assert tray is not None
    out: list[tuple[tuple[XY, ...], float]] = []
    seen: set[tuple[XY, float]] = set()
    w, h = table(state)
    if allowance >= MIN_OFFERED_MOVE:
        gap = rules().constants.enemy_gap
        # Only what the tray could reach in any direction can stop it: the slides look at nothing else.
        near = allowance + 2 * _radius(tray) + gap + GAP_EPS
        cx, cy = tray.centre
        blockers: list[Polygon | Tray] = []
        if not through:
            blockers.extend(
                u.tray
                for u in others(state, unit.id)
                if u.tray is not None and math.dist(u.tray.centre, tray.centre) <= near
            )
        if not fly:
            for poly in _impassable_parts(tuple(state.terrain())):
                x0, y0, x1, y1 = poly.bounds
                if x0 <= cx + near and cx - near <= x1 and y0 <= cy + near and cy - near <= y1:
                    blockers.append(poly)
        directions = [facing_vector(tray.facing + rel) for rel in MOVE_DIRECTIONS]
        enemy = _nearest_enemy(state, unit)
        if enemy is not None:  # straight at the nearest enemy: the slide stops 1" short of it
            length = math.dist(tray.centre, enemy.centre)
            if length > 1e-9:
                directions.append(((enemy.centre[0] - cx) / length, (enemy.centre[1] - cy) / length))
        for d in directions:
            if _clear(tray, d, allowance, blockers, gap):
                reach = min(allowance, _edge_reach(tray, d, w, h))
            else:
                reach = stop_short(tray, d, allowance, stops_at=blockers, edges=(w, h), gap=gap).moved
            for share in MOVE_FRACTIONS:
                # A hair short of the reach: rounding the end to hundredths must not carry it past.
                dist = reach * share - ROUNDING_MARGIN
                if dist < MIN_OFFERED_MOVE:
                    continue
                to = (round(tray.centre[0] + d[0] * dist, 2), round(tray.centre[1] + d[1] * dist, 2))
                cost = leg_cost(state, tray.centre, to, fly=fly)
                if cost > allowance:
                    to = _point_at_cost(state, tray.centre, to, allowance, fly=fly)
                    to = (math.floor(to[0] * 100) / 100, math.floor(to[1] * 100) / 100)
                # Facing the nearest enemy; if that pivot does not fit there, the facing it has.
                for facing in (sensible_facing(state, unit, to), round(tray.facing, 1)):
                    key = (to, facing)
                    if key in seen:
                        break
                    plan = plan_move(state, unit, (to,), facing, allowance, fly=fly, through=through)
                    if isinstance(plan, Plan) and not plan.short:
                        seen.add(key)
                        out.append(((to,), facing))
                        break
    here = tray.centre
    for facing in (
        sensible_facing(state, unit, here),
        tray.facing + 90,
        tray.facing - 90,
        tray.facing + 180,
    ):
        facing = round(normal_facing(facing), 1)
        if abs(facing - tray.facing) < 1e-6 or (here, facing) in seen:
            continue
        if why_not_stand(state, unit, tray.pivoted(facing)) is None:
            seen.add((here, facing))
            out.append(((here,), facing))
    return out


def _edge_reach(tray: Tray, d: XY, width: float, height: float) -> float:
    """How far the tray slides along unit ``d`` and still lies wholly on the table."""
    best = math.inf
    for x, y in tray.corners():
        for pos, k, top in ((x, d[0], width), (y, d[1], height)):
            if k > 1e-12:
                best = min(best, (top - pos) / k)
            elif k < -1e-12:
                best = min(best, pos / -k)
    return max(0.0, best)


def _clear(tray: Tray, d: XY, distance: float, blockers: list[Polygon | Tray], gap: float) -> bool:
    """Whether nothing can stop a slide along ``d``: every blocker's bounding circle (or box) stays more than
    the tray's reach away from the centre's path (a quick, conservative test before the exact slide)."""
    a = tray.centre
    b = (a[0] + d[0] * distance, a[1] + d[1] * distance)
    r = _radius(tray) + gap + GAP_EPS
    for blocker in blockers:
        if isinstance(blocker, Tray):
            if _point_segment(blocker.centre, a, b) <= r + _radius(blocker):
                return False
        else:
            x0, y0, x1, y1 = blocker.bounds
            if (
                min(a[0], b[0]) - r <= x1
                and x0 <= max(a[0], b[0]) + r
                and min(a[1], b[1]) - r <= y1
                and y0 <= max(a[1], b[1]) + r
            ):
                return False
    return True


@lru_cache(maxsize=256)
def _impassable_parts(features: tuple[Feature, ...]) -> tuple[Polygon, ...]:
    """The impassable features' polygons (a slide stops 1" short of them)."""
    return tuple(f.polygon() for f in features if f.impassable)


# ------------------------------------------------------------------ deployment (FA-DP-01, FA-SD-02/18)


def edge_tray(state: AnvilState, seat: int, x: float) -> Tray:
    """A tray entering from the seat's own edge at ``x``: rear edge on the edge, facing straight in."""
    f, d = tray_size(state)
    _, h = table(state)
    y = d / 2 if seat == 0 else h - d / 2
    return Tray((x, y), home_facing(seat), f, d)


def flank_tray(state: AnvilState, edge: str, y: float) -> Tray:
    """A tray entering from a side edge at ``y`` (Flanking): rear edge on the edge, facing straight in."""
    f, d = tray_size(state)
    w, _ = table(state)
    if edge == "left":
        return Tray((d / 2, y), 270.0, f, d)
    return Tray((w - d / 2, y), 90.0, f, d)


def flank_reach(state: AnvilState, seat: int, y: float) -> bool:
    """Whether a flanking entry at ``y`` lies within 2/3 of the table's depth of the own edge (FA-SD-02)."""
    _, h = table(state)
    depth = rules().constants.flanking_fraction * h
    from_own = y if seat == 0 else h - y
    return from_own <= depth + GAP_EPS


def infiltrate_gap(state: AnvilState) -> float:
    """How far from every enemy tray an infiltrating unit deploys this turn (FA-SD-19..21)."""
    return rules().constants.infiltrate_gap(max(1, state.turn))


def deploy_tray(
    state: AnvilState, unit: Unit, edge: str, x: float | None, y: float | None, facing: float | None
) -> Tray | str:
    """Where a unit deploys, or why it may not deploy so."""
    if edge == "own":
        if x is None or y is not None:
            return "a deployment from the own edge names x only"
        tray = edge_tray(state, unit.seat, x)
        if facing is not None and abs(normal_facing(facing) - tray.facing) > 1e-6:
            return "a unit deploying from its own edge faces straight into the table"
        why = why_not_stand(state, unit, tray)
        return why if why is not None else tray
    if edge in ("left", "right"):
        if not unit.has("flanking"):
            return f"{unit.name} has no Flanking: it deploys from its own edge (FA-SD-01/02)"
        if y is None or x is not None:
            return "a flanking deployment names y only"
        tray = flank_tray(state, edge, y)
        if facing is not None and abs(normal_facing(facing) - tray.facing) > 1e-6:
            return "a flanking unit faces straight into the table"
        if not flank_reach(state, unit.seat, y):
            return f"y={y:g}: a flanking entry lies at most 2/3 of the depth from the own edge (FA-SD-02)"
        why = why_not_stand(state, unit, tray)
        return why if why is not None else tray
    if edge == "infiltrate":
        if not unit.has("infiltrate"):
            return f"{unit.name} has no Infiltrate: it deploys from an edge (FA-SD-17/18)"
        if x is None or y is None:
            return "an infiltrating deployment names x and y"
        f, d = tray_size(state)
        tray = Tray((x, y), normal_facing(home_facing(unit.seat) if facing is None else facing), f, d)
        gap = infiltrate_gap(state)
        why = why_not_stand(state, unit, tray, enemy_gap=max(gap, rules().constants.enemy_gap))
        if why is not None and "from an enemy" in why:
            return f'{why} (infiltrating in turn {state.turn}: at least {gap:g}", FA-SD-19..21)'
        return why if why is not None else tray
    return f"unknown edge {edge!r}: own, left, right or infiltrate"


def _spread(lo: float, hi: float, n: int) -> list[float]:
    """``n`` evenly spread values from lo to hi, rounded to hundredths."""
    if hi < lo:
        return []
    if n == 1 or hi - lo < 1e-9:
        return [round((lo + hi) / 2, 2)]
    return [round(lo + (hi - lo) * i / (n - 1), 2) for i in range(n)]


Spot = tuple[str, float | None, float | None, float | None]


def deploy_spots(state: AnvilState, unit: Unit) -> list[Spot]:
    """The deployments the legal actions offer a unit: (edge, x, y, facing) at a spread of places, each
    legal. They hold for every waiting unit of the seat with the same entry stratagems (trays are equal
    and a waiting unit is not on the table), so callers may share them."""
    f, d = tray_size(state)
    w, h = table(state)
    seat = unit.seat
    flanking, infiltrate = unit.has("flanking"), unit.has("infiltrate")
    out: list[Spot] = []
    for x in _spread(f / 2, w - f / 2, DEPLOY_SPREAD):
        if why_not_stand(state, unit, edge_tray(state, seat, x)) is None:
            out.append(("own", x, None, None))
    if flanking:
        depth = rules().constants.flanking_fraction * h
        lo, hi = (f / 2, depth) if seat == 0 else (h - depth, h - f / 2)
        for edge in ("left", "right"):
            for y in _spread(lo, hi, 3):
                if why_not_stand(state, unit, flank_tray(state, edge, y)) is None:
                    out.append((edge, None, y, None))
    if infiltrate:
        cols, rows = INFILTRATE_GRID
        gap = max(infiltrate_gap(state), rules().constants.enemy_gap)
        facing = home_facing(seat)
        for x in _spread(f, w - f, cols):
            for y in _spread(f, h - f, rows):
                if why_not_stand(state, unit, Tray((x, y), facing, f, d), enemy_gap=gap) is None:
                    out.append(("infiltrate", x, y, facing))
    return out


# ------------------------------------------------------------------ the field of battle (FA-FB)


def feature_outline(state: AnvilState, piece: str, centre: XY, rotation: int) -> tuple[XY, ...] | None:
    """A palette piece's outline placed at ``centre`` turned by ``rotation`` (None: no such piece)."""
    spec = state.scenario.piece(piece)
    if spec is None:
        return None
    return tuple((round(x, 4), round(y, 4)) for x, y in place_outline(spec.outline, centre, rotation))


def _box(points: tuple[XY, ...]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def why_not_feature(state: AnvilState, piece: str, centre: XY, rotation: int) -> str | None:
    """Why a piece may not be placed there: unknown, turned other than 0 or 90, off the table, or within
    6" of another feature (FA-FB-06, nearest edges)."""
    if rotation not in ROTATIONS:
        return f"a feature is placed turned 0 or 90 degrees, not {rotation}"
    outline = feature_outline(state, piece, centre, rotation)
    if outline is None:
        keys = ", ".join(p.key for p in state.scenario.spec.terrain)
        return f"no terrain piece {piece!r} in this scenario: {keys}"
    w, h = table(state)
    x0, y0, x1, y1 = _box(outline)
    if x0 < -GAP_EPS or y0 < -GAP_EPS or x1 > w + GAP_EPS or y1 > h + GAP_EPS:
        return "the feature must lie wholly on the table"
    gap = rules().constants.terrain_gap
    poly: Polygon | None = None
    for placed in state.features:
        a0, b0, a1, b1 = _box(placed.feature.outline)
        if x1 + gap < a0 or a1 + gap < x0 or y1 + gap < b0 or b1 + gap < y0:
            continue  # the boxes are more than 6" apart: so are the shapes
        poly = Polygon(outline) if poly is None else poly
        apart = poly.distance(placed.feature.polygon())
        if apart < gap - GAP_EPS:
            name = placed.feature.name or placed.piece
            return f'the feature would be {apart:.2f}" from the {name}: at least {gap:g}" apart (FA-FB-06)'
    return None


def _grid(state: AnvilState, cols: int, rows: int) -> list[XY]:
    w, h = table(state)
    xs = [round(w * (i + 1) / (cols + 1), 2) for i in range(cols)]
    ys = [round(h * (j + 1) / (rows + 1), 2) for j in range(rows)]
    return [(x, y) for x in xs for y in ys]


@lru_cache(maxsize=256)
def _turned_box(outline: tuple[XY, ...], rotation: int) -> tuple[float, float, float, float]:
    """The box of a piece's outline turned by ``rotation`` around its own centre."""
    return _box(place_outline(outline, (0.0, 0.0), rotation))


def _feature_ok(state: AnvilState, key: str, centre: XY, rotation: int) -> bool:
    """``why_not_feature(...) is None``, settled by boxes where they are clear by a margin (the common case
    on an open table), by the exact check otherwise."""
    spec = state.scenario.piece(key)
    if spec is None or rotation not in ROTATIONS:
        return False
    bx0, by0, bx1, by1 = _turned_box(tuple(spec.outline), rotation)
    x0, y0, x1, y1 = centre[0] + bx0, centre[1] + by0, centre[0] + bx1, centre[1] + by1
    w, h = table(state)
    margin = 1e-3
    if x0 < -margin or y0 < -margin or x1 > w + margin or y1 > h + margin:
        return False
    inside = x0 >= margin and y0 >= margin and x1 <= w - margin and y1 <= h - margin
    gap = rules().constants.terrain_gap + margin
    for placed in state.features:
        a0, b0, a1, b1 = _box(placed.feature.outline)
        if not (x1 + gap < a0 or a1 + gap < x0 or y1 + gap < b0 or b1 + gap < y0):
            inside = False  # near another feature: measure exactly
            break
    return inside or why_not_feature(state, key, centre, rotation) is None


def feature_spots(state: AnvilState) -> list[tuple[str, XY, int]]:
    """The (piece, centre, rotation) placements the legal actions offer, each legal: a coarse grid of
    centres; where it has none, a spread of the legal centres of a fine grid (every ``FEATURE_STEP``");
    empty only when the fine grid has none either (then the feature may be skipped, FA-FB-06 decided)."""
    pieces = [(p.key, r) for p in state.scenario.spec.terrain for r in ROTATIONS]
    coarse = [
        (key, c, r) for key, r in pieces for c in _grid(state, *FEATURE_GRID) if _feature_ok(state, key, c, r)
    ]
    if coarse:
        return coarse
    w, h = table(state)
    cols, rows = int(w // FEATURE_STEP), int(h // FEATURE_STEP)
    fine = [
        (key, c, r) for key, r in pieces for c in _grid(state, cols, rows) if _feature_ok(state, key, c, r)
    ]
    if len(fine) <= FINE_OFFERS:
        return fine
    return [fine[round(i * (len(fine) - 1) / (FINE_OFFERS - 1))] for i in range(FINE_OFFERS)]


def seat_tray(state: AnvilState, seat: int, centre: XY) -> Tray:
    """A Seat of Power's tray at ``centre``, facing its side's default."""
    f, d = tray_size(state)
    return Tray(centre, home_facing(seat), f, d)


def why_not_seat(state: AnvilState, unit: Unit, centre: XY) -> str | None:
    """Why a Seat of Power may not stand there: not wholly within 12" of its own edge (FA-FB-07), off the
    table, in impassable terrain, or within 1" of the other Seat (decided)."""
    tray = seat_tray(state, unit.seat, centre)
    _, h = table(state)
    zone = rules().constants.seat_zone
    ys = [y for _, y in tray.corners()]
    far = max(ys) if unit.seat == 0 else h - min(ys)
    if far > zone + GAP_EPS:
        return f'the Seat of Power must lie wholly within {zone:g}" of its own edge (FA-FB-07)'
    return why_not_stand(state, unit, tray, enemy_gap=rules().constants.seat_gap)


def seat_spots(state: AnvilState, unit: Unit) -> list[XY]:
    """The Seat of Power centres the legal actions offer: a spread along the edge, at two depths."""
    f, d = tray_size(state)
    w, h = table(state)
    zone = rules().constants.seat_zone
    out: list[XY] = []
    for depth in (d / 2, zone / 2):
        y = depth if unit.seat == 0 else h - depth
        for x in _spread(f / 2, w - f / 2, DEPLOY_SPREAD):
            if why_not_seat(state, unit, (x, round(y, 2))) is None:
                out.append((x, round(y, 2)))
    if out:
        return out
    # Terrain may cover every point of the spread: look at every inch of the zone, and offer a few.
    fine = [
        (x, round(h - depth if unit.seat == 1 else depth, 2))
        for depth in _spread(d / 2, zone - d / 2, int(zone))
        for x in _spread(f / 2, w - f / 2, int(w))
    ]
    legal = [c for c in fine if why_not_seat(state, unit, c) is None]
    return legal[:: max(1, len(legal) // DEPLOY_SPREAD)]
