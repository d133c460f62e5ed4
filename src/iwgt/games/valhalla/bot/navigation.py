"""Where a Valhalla figure can get to: walking-distance fields, reach, and the spots worth moving to.

The fields are an estimate on a 1" grid (woods, villages and uphill at half speed, a crossing as an extra
cost); every spot the bot moves to is still checked with the engine's own rule, so the estimate only
chooses, never decides, what is legal.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from iwgt.games.valhalla.actions import Action, Move
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.movement import MIN_MOVE, contact_point, figure_radius, why_not_move
from iwgt.games.valhalla.scenario import ObjectiveSpec
from iwgt.games.valhalla.state import Figure, ValhallaState
from iwgt.geometry.plane import EPS, XY, Ground, distance, edge_distance, rounded, toward

CROSS_PENALTY = 5.0
"""Inches of walking a crossing costs in the distance fields: crossing is an action of its own."""
MERGE = 0.4
"""Move ends closer than about this (inches) are taken as one: their values hardly differ."""
GRID = 1.0
"""Spacing (inches) of the walking-distance fields."""


# ---------------------------------------------------------------- walking-distance fields


@dataclass(frozen=True)
class Grid:
    """The table as a grid of nodes with the cost of walking from each to its neighbours."""

    nx: int
    ny: int
    back: tuple[tuple[tuple[int, float], ...], ...]
    """For each node v: (u, cost of walking from u to v), for Dijkstra run from the goal outwards."""
    slow: tuple[bool, ...]
    """Whether each node is in woods or a village."""
    height: tuple[float, ...]
    """The ground's height at each node."""

    def cost(self, a: XY, b: XY) -> float:
        """A quick estimate of a straight walk's movement cost (half speed in woods, villages, uphill)."""
        length = distance(a, b)
        steps = max(1, math.ceil(length / (GRID / 2)))
        total, last = 0.0, self.node(a)
        for k in range(1, steps + 1):
            n = self.node((a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps))
            slowed = self.slow[n] or self.height[n] > self.height[last] + EPS
            total += length / steps * (2.0 if slowed else 1.0)
            last = n
        return total

    def node(self, p: XY) -> int:
        """The node nearest to a point."""
        i = min(self.nx - 1, max(0, int(p[0] / GRID)))
        j = min(self.ny - 1, max(0, int(p[1] / GRID)))
        return j * self.nx + i

    def centre(self, n: int) -> XY:
        """A node's position."""
        return ((n % self.nx + 0.5) * GRID, (n // self.nx + 0.5) * GRID)


@cache
def grid(ground: Ground) -> Grid:
    """The walking grid of a table: half speed in woods, villages and uphill; a crossing costs extra."""
    nx, ny = max(1, int(ground.width / GRID)), max(1, int(ground.height / GRID))
    xs = (np.arange(nx * ny) % nx + 0.5) * GRID
    ys = (np.arange(nx * ny) // nx + 0.5) * GRID
    slow = [ground.is_slow((float(x), float(y))) for x, y in zip(xs, ys, strict=True)]
    height = ground.elevations(xs, ys)
    pairs: list[tuple[int, int, float]] = []
    for j in range(ny):
        for i in range(nx):
            u = j * nx + i
            for di, dj in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                a, b = i + di, j + dj
                if 0 <= a < nx and 0 <= b < ny:
                    pairs.append((u, b * nx + a, math.hypot(di, dj) * GRID))
    crossing: list[bool] = [False] * len(pairs)
    if ground.obstacles and pairs:
        walls = shapely.union_all([o.geometry for o in ground.obstacles])
        coords = np.array([[[xs[u], ys[u]], [xs[v], ys[v]]] for u, v, _ in pairs])
        hits = np.asarray(shapely.intersects(shapely.linestrings(coords), walls), dtype=bool)
        crossing = [bool(x) for x in hits]
    back: list[list[tuple[int, float]]] = [[] for _ in range(nx * ny)]
    for (u, v, length), cross in zip(pairs, crossing, strict=True):
        extra = CROSS_PENALTY if cross else 0.0
        for a, b in ((u, v), (v, u)):
            slowed = slow[a] or slow[b] or height[b] > height[a] + EPS
            back[b].append((a, length * (2.0 if slowed else 1.0) + extra))
    return Grid(nx, ny, tuple(tuple(x) for x in back), tuple(slow), tuple(float(h) for h in height))


@lru_cache(maxsize=64)
def field(ground: Ground, goal: tuple[XY, ...]) -> tuple[float, ...]:
    """Walking cost from every node to a goal: a point (one vertex) or an area (a polygon's outline)."""
    g = grid(ground)
    dist = [math.inf] * (g.nx * g.ny)
    heap: list[tuple[float, int]] = []
    if len(goal) >= 3:
        poly = Polygon(goal)
        for n in range(len(dist)):
            if poly.covers(Point(g.centre(n))):
                dist[n] = 0.0
                heap.append((0.0, n))
        if not heap:
            inner = poly.representative_point()
            n = g.node((inner.x, inner.y))
            dist[n], heap = 0.0, [(0.0, n)]
    else:
        n = g.node(goal[0])
        dist[n] = distance(g.centre(n), goal[0])
        heap.append((dist[n], n))
    heapq.heapify(heap)
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, c in g.back[v]:
            if d + c < dist[u]:
                dist[u] = d + c
                heapq.heappush(heap, (d + c, u))
    return tuple(dist)


@cache
def polygon(outline: tuple[XY, ...]) -> Polygon:
    """An area's outline as a polygon, built once."""
    return Polygon(outline)


def walk(ground: Ground, goal: tuple[XY, ...], p: XY) -> float:
    """Walking cost from a point to a goal (0 inside an area goal)."""
    if len(goal) >= 3 and polygon(goal).covers(Point(p)):
        return 0.0
    g = grid(ground)
    n = g.node(p)
    return field(ground, goal)[n] + distance(p, g.centre(n))


def downhill(ground: Ground, goal: tuple[XY, ...], at: XY, budget: float) -> XY:
    """The node within a move's reach that is nearest the goal by walking (a waypoint round obstacles)."""
    g = grid(ground)
    costs = field(ground, goal)
    here = walk(ground, goal, at)
    reach = int(budget / GRID) + 1
    i0, j0 = int(at[0] / GRID), int(at[1] / GRID)
    nodes = sorted(
        (costs[j * g.nx + i], j * g.nx + i)
        for j in range(max(0, j0 - reach), min(g.ny, j0 + reach + 1))
        for i in range(max(0, i0 - reach), min(g.nx, i0 + reach + 1))
    )
    for value, n in nodes[:12]:  # the few nearest the goal; the first reachable one is the waypoint
        c = g.centre(n)
        if value >= here or distance(at, c) > budget:
            continue
        if not ground.crosses_obstacle([at, c]) and ground.path_cost([at, c]) <= budget + EPS:
            return c
    return at


# ---------------------------------------------------------------- reach


@dataclass(frozen=True, slots=True)
class Reach:
    """How far figures get on one table: the rules' distances, and the walking grid's estimate of reach."""

    ground: Ground
    radius: float
    move: float
    charge: float
    zone: float

    @staticmethod
    def of(ground: Ground) -> Reach:
        """The reach of figures on this table under the rules now in force."""
        a = rules().actions
        return Reach(ground, figure_radius(), a.move, a.charge, a.enemy_zone)

    def can_charge_next(self, a: Figure, d: Figure) -> bool:
        """Whether ``a`` could charge ``d`` at its next activation: within 2", or a move and 2" away."""
        gap = edge_distance(a.at, self.radius, d.at, self.radius)
        if gap <= self.charge + EPS:
            return not self.ground.crosses_obstacle([a.at, contact_point(a, d)])
        if a.hurt or a.carrying is not None:  # one action, or one spent dropping the load (VH-AC-16)
            return False
        need = gap - self.charge + 0.05
        if need > self.move + EPS:
            return False
        to = toward(a.at, d.at, need)
        if self.ground.crosses_obstacle([a.at, to]):
            return False
        return need * 2 <= self.move or grid(self.ground).cost(a.at, to) <= self.move + EPS

    def charge_spots(self, st: ValhallaState, f: Figure, e: Figure) -> list[XY]:
        """Legal move ends from which ``f`` may then charge ``e`` (the nearest few of the exact ring)."""
        r = self.radius
        offsets = ring(2 * r + self.zone, 2 * r + self.charge)
        spots = [rounded((e.at[0] + a / 100, e.at[1] + b / 100)) for a, b in offsets]
        spots = [p for p in spots if MIN_MOVE <= distance(f.at, p) <= self.move + EPS]
        spots.sort(key=lambda p: (distance(f.at, p), p))
        out = []
        for p in spots[:8]:
            if why_not_move(st, f, [f.at, p], self.move) is None:
                out.append(p)
                if len(out) == 3:
                    break
        return out


# ---------------------------------------------------------------- spots to move to


def furthest(st: ValhallaState, f: Figure, goal: XY, budget: float) -> XY | None:
    """The furthest legal move end on the straight line to ``goal`` (checked by the engine's rule)."""
    start = f.at
    length = distance(start, goal)
    if length < MIN_MOVE:
        return None
    end = rounded(goal)
    if why_not_move(st, f, [start, end], budget) is None:
        return end
    lo, hi = 0.0, length
    for _ in range(7):
        mid = (lo + hi) / 2
        why = why_not_move(st, f, [start, toward(start, goal, mid)], budget)
        if why is None or why.startswith("there is no room"):
            lo = mid
        else:
            hi = mid
    d = lo
    for _ in range(6):  # a blocked end (another base) is stepped back from
        if d < MIN_MOVE:
            return None
        p = rounded(toward(start, goal, d))
        if why_not_move(st, f, [start, p], budget) is None:
            return p
        d -= 0.3
    return None


@cache
def ring(inner: float, outer: float) -> tuple[tuple[int, int], ...]:
    """Offsets in hundredths of an inch whose length lies between ``inner`` and ``outer`` inches.

    Positions are kept to hundredths, a move may not end nearer than 2" to an enemy and a charge may not
    start further than 2" (VH-AC-06, VH-AC-09). With both at 2", the 20 lattice points exactly 3" from an
    enemy's centre are stops from which a charge surely reaches, however the engine rounds the distance
    (it now measures a charge to the hundredth, so a stop a little further also reaches; before that, these
    were the only ones).
    """
    lo, hi = inner * 100 - 1e-4, outer * 100 + 1e-4
    out = []
    for a in range(-int(hi), int(hi) + 1):
        b_lo = math.sqrt(max(0.0, lo * lo - a * a))
        for b in range(math.ceil(b_lo), int(math.sqrt(max(0.0, hi * hi - a * a))) + 1):
            for sb in {b, -b}:
                out.append((a, sb))
    out.sort(key=lambda ab: math.atan2(ab[1], ab[0]))
    step = max(1, len(out) // 24)  # a band wider than a line would have too many: keep about 24
    return tuple(out[::step])


@cache
def cover(ground: Ground) -> tuple[Polygon, ...]:
    """The woods and villages (cover, VH-SH-08) as polygons."""
    return tuple(Polygon(a.outline) for a in ground.areas if a.kind in ground.cover_kinds)


def inside(area: Polygon, at: XY) -> XY:
    """A point just inside an area's edge, on the side nearest ``at``."""
    edge = area.exterior.interpolate(area.exterior.project(Point(at)))
    centre = area.representative_point()
    return toward((edge.x, edge.y), (centre.x, centre.y), 0.7)


def shoots(f: Figure) -> bool:
    """Whether the figure is one that shoots (an archer or a slinger)."""
    return rules().figures[f.kind].shoots


def goal_points(
    st: ValhallaState, f: Figure, reach: Reach, objectives: Sequence[ObjectiveSpec], light: bool = False
) -> list[XY]:
    """Legal move ends towards what matters: each enemy's 2" zone (and exact spots to charge from),
    range bands, things, the objectives still open, cover, and straight away from the nearest enemy;
    ``light``: only away, to cover and towards objectives."""
    r = reach.radius
    goals: list[XY] = []
    foes = [e for e in st.figures if e.alive and e.side != f.side]
    shooting = shoots(f) and f.carrying is None
    exact: list[XY] = []
    for e in foes:
        d = distance(f.at, e.at)
        if d < EPS or light:
            continue
        exact.extend(reach.charge_spots(st, f, e))
        goals.append(toward(e.at, f.at, 2 * r + reach.zone + 0.02))
        if shooting:
            for band in (rules().shooting.close - 0.1, rules().shooting.range - 0.1):
                goals.append(toward(e.at, f.at, band + 2 * r))
    if foes:
        near = min(foes, key=lambda e: (distance(f.at, e.at), e.id))
        if distance(f.at, near.at) > EPS:
            goals.append(toward(near.at, f.at, distance(f.at, near.at) + reach.move))
    for t in st.things:
        if t.baggage_side is None and t.carrier is None and f.carrying is None:
            goals.append(toward(t.at, f.at, r + t.radius + 0.5))
    for o in objectives:
        goals.extend(objective_goals(st, f, o, reach.move))
    for area in cover(st.scenario.ground):
        if area.distance(Point(f.at)) <= reach.move:
            goals.append(inside(area, f.at))
    out: list[XY] = list(dict.fromkeys(exact))
    for g in goals:
        p = furthest(st, f, g, reach.move)
        if p is not None and p not in out:
            out.append(p)
    return out


def objective_goals(st: ValhallaState, f: Figure, o: ObjectiveSpec, budget: float) -> list[XY]:
    """A step down the walking field towards an objective's zone (a carrier, a runner) or cart."""
    ground = st.scenario.ground
    if o.kind == "carry":
        if f.carrying is None or st.things[f.carrying].name != o.thing or o.side != f.side:
            return []
        goal = tuple(o.zone)
    elif o.kind == "reach" and o.side == f.side:
        goal = tuple(o.zone)
    elif o.kind == "plunder" and o.side == f.side:
        goal = (next(t for t in st.things if t.name == o.baggage).at,)
    else:
        return []
    return [downhill(ground, goal, f.at, budget)]


def move_points(
    st: ValhallaState, f: Figure, legal: Sequence[Action], reach: Reach, objectives: Sequence[ObjectiveSpec]
) -> list[XY]:
    """The points offered by ``legal_actions`` and purposeful points of the bot's own, each legal."""
    offered = [a.to for a in legal if isinstance(a, Move) and not a.via and a.figure == f.id]
    if not offered:
        return []
    # Points a few tenths apart are worth about the same: one stands for all (the bot's own first, so
    # that the exact spots to charge from are kept).
    seen: set[tuple[int, int]] = set()
    out: list[XY] = []
    for p in (*goal_points(st, f, reach, objectives), *offered):
        cell = (round(p[0] / MERGE), round(p[1] / MERGE))
        if cell not in seen:
            seen.add(cell)
            out.append(p)
    return out
