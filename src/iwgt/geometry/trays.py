"""Units on rectangular trays on a free table in inches: facing, edges, contact, sweeps, sight and slides.

Built on ``plane`` (its ``XY`` and ``EPS``) and shapely. A tray is a rectangle with a front: its centre, its
facing in degrees (0 faces +y, counter-clockwise positive, so 90 faces -x), its frontage (the width of the
front edge) and its depth. Terrain features are areas carrying any combination of three designations:
they halve movement, block line of sight, or are impassable.

The questions a game on trays asks are answered here: how far apart two trays are, whether they overlap,
which side of a tray a charge from another tray's centre comes in by, where the charger ends when it
aligns flush with that side, what a straight leg sweeps and costs, whether one tray sees another, and how
far a tray slides before a friend, the table edge or an enemy stops it. The hot paths (gaps, overlaps,
slides) are plain rectangle maths with numpy rather than shapely objects, as bots call them in look-aheads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Polygon
from shapely.geometry.base import BaseGeometry

from iwgt.geometry.plane import EPS, XY, distance

CORNER_EPS = 1e-6
"""How near (inches) the engage line may pass a tray's corner and still count as through the corner."""

LOS_SAMPLES = 9
"""Points sampled evenly along the viewer's front edge (both ends included) for line of sight."""

STOP_GAP = 1.0
"""How far short (inches) of a friendly tray or an impassable area a slide stops by default."""

SLIDE_TOL = 1e-4
"""Precision (inches) promised for the distance a slide moves (the computation is exact, well within)."""

TOUCH_TOL = 1e-6
"""Penetration (inches) below which two shapes merely touch: touching is not overlapping."""

NEAR_SLACK = 1e-9
"""A tray already nearer than the gap to a shape may come no closer than its distance less this (inches)."""

MOVE_SNAP = 1e-8
"""A slide shorter than this (inches) is rounding noise: it is reported as no move at all."""

ZERO = 1e-12
"""Below this a rate or a length is treated as nought (parallel motion, a degenerate edge)."""

HALVING_COST = 2.0
"""What an inch of a straight leg costs inside halving terrain (half speed: 2 inches of allowance)."""

FULL_TURN = 360.0
"""Degrees in a whole turn: facings are kept in [0, 360)."""

HALF_TURN = 180.0
"""Degrees in a half turn: facing a tray's front means facing opposite to it."""

QUARTER_TURN = 90.0
"""Degrees in a quarter turn: a tray's right-hand side faces its facing less a quarter turn."""

Side = Literal["front", "flank", "rear"]
"""The side of a tray a combat is fought on (the two flanks are one side for the rules)."""

Edge = Literal["front", "rear", "left", "right"]
"""One of a tray's four edges by name (left and right as seen by the tray itself)."""

StopReason = Literal["stops_at", "edge", "enemy"]
"""Why a slide ended before its full distance: short of an obstacle, at the table edge, or in contact."""

SIDE_OF_EDGE: dict[Edge, Side] = {"front": "front", "rear": "rear", "left": "flank", "right": "flank"}
"""The combat side each edge belongs to."""

_PRECEDENCE: tuple[Side, ...] = ("front", "flank", "rear")
"""The engage line through a corner: front beats flank beats rear."""


# --- facings ---------------------------------------------------------------------------------------------


def normal_facing(facing: float) -> float:
    """A facing brought into [0, 360) degrees."""
    f = facing % FULL_TURN
    return 0.0 if f >= FULL_TURN - ZERO else f + 0.0


def facing_vector(facing: float) -> XY:
    """The unit vector a tray with this facing looks along (0 = +y, 90 = -x)."""
    a = math.radians(facing)
    return (-math.sin(a), math.cos(a))


def facing_towards(a: XY, b: XY) -> float:
    """The facing that looks from ``a`` straight at ``b`` (0 when they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if math.hypot(dx, dy) < ZERO:
        return 0.0
    return normal_facing(math.degrees(math.atan2(-dx, dy)))


# --- trays -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tray:
    """A rectangular tray: its centre, facing (degrees), frontage (front edge width) and depth, in inches."""

    centre: XY
    facing: float
    frontage: float
    depth: float

    def axes(self) -> tuple[XY, XY]:
        """The tray's forward and right-hand unit vectors."""
        a = math.radians(self.facing)
        s, c = math.sin(a), math.cos(a)
        return (-s, c), (c, s)

    def corners(self) -> tuple[XY, XY, XY, XY]:
        """The corners: front-left, front-right, rear-right, rear-left (left and right as the tray sees)."""
        (fx, fy), (rx, ry) = self.axes()
        cx, cy = self.centre
        hd, hf = self.depth / 2, self.frontage / 2
        return (
            (cx + fx * hd - rx * hf, cy + fy * hd - ry * hf),
            (cx + fx * hd + rx * hf, cy + fy * hd + ry * hf),
            (cx - fx * hd + rx * hf, cy - fy * hd + ry * hf),
            (cx - fx * hd - rx * hf, cy - fy * hd - ry * hf),
        )

    def polygon(self) -> Polygon:
        """The tray as a shapely polygon."""
        return Polygon(self.corners())

    def front(self) -> tuple[XY, XY]:
        """The front edge, from the front-left to the front-right corner."""
        fl, fr, _, _ = self.corners()
        return fl, fr

    def rear(self) -> tuple[XY, XY]:
        """The rear edge, from the rear-left to the rear-right corner."""
        _, _, rr, rl = self.corners()
        return rl, rr

    def left(self) -> tuple[XY, XY]:
        """The left edge, from the rear-left to the front-left corner."""
        fl, _, _, rl = self.corners()
        return rl, fl

    def right(self) -> tuple[XY, XY]:
        """The right edge, from the rear-right to the front-right corner."""
        _, fr, rr, _ = self.corners()
        return rr, fr

    def edge(self, name: Edge) -> tuple[XY, XY]:
        """One edge by name."""
        if name == "front":
            return self.front()
        if name == "rear":
            return self.rear()
        return self.left() if name == "left" else self.right()

    def outward(self, name: Edge) -> XY:
        """The outward unit normal of one edge."""
        f, r = self.axes()
        n = {"front": f, "rear": (-f[0], -f[1]), "right": r, "left": (-r[0], -r[1])}[name]
        return n

    def front_centre(self) -> XY:
        """The middle of the front edge."""
        f, _ = self.axes()
        return (self.centre[0] + f[0] * self.depth / 2, self.centre[1] + f[1] * self.depth / 2)

    def local(self, p: XY) -> XY:
        """A point in the tray's own frame: (inches to the right of the centre, inches ahead of it)."""
        f, r = self.axes()
        dx, dy = p[0] - self.centre[0], p[1] - self.centre[1]
        return (dx * r[0] + dy * r[1], dx * f[0] + dy * f[1])

    def moved(self, to: XY, facing: float | None = None) -> Tray:
        """The same tray with its centre at ``to`` (and a new facing if given)."""
        return Tray(to, self.facing if facing is None else normal_facing(facing), self.frontage, self.depth)

    def pivoted(self, facing: float) -> Tray:
        """The same tray turned about its centre to a new facing."""
        return Tray(self.centre, normal_facing(facing), self.frontage, self.depth)

    def miniatures(self, count: int) -> list[Polygon]:
        """The ``count`` equal cells across the front, left to right, each the tray's full depth."""
        fl, fr, rr, rl = self.corners()
        n = max(1, count)
        out = []
        for i in range(n):
            a, b = i / n, (i + 1) / n
            out.append(
                Polygon(
                    [
                        _lerp(fl, fr, a),
                        _lerp(fl, fr, b),
                        _lerp(rl, rr, b),
                        _lerp(rl, rr, a),
                    ]
                )
            )
        return out


def _lerp(a: XY, b: XY, t: float) -> XY:
    """The point a fraction ``t`` of the way from ``a`` to ``b``."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


# --- terrain features ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feature:
    """A terrain feature: an outline in inches and its designations (any combination of the three)."""

    outline: tuple[XY, ...]
    halves: bool
    blocks: bool
    impassable: bool
    name: str = ""

    def polygon(self) -> Polygon:
        """The feature as a shapely polygon."""
        return _polygon_of(self.outline)


@lru_cache(maxsize=1024)
def _polygon_of(outline: tuple[XY, ...]) -> Polygon:
    """A feature's polygon, built and prepared once per outline (features are looked at very often)."""
    poly = Polygon(outline)
    shapely.prepare(poly)
    return poly


def place_outline(shape: Sequence[XY], centre: XY, rotation: float) -> tuple[XY, ...]:
    """A shape drawn around its own origin, turned ``rotation`` degrees anticlockwise, set at ``centre``."""
    a = math.radians(rotation)
    c, s = math.cos(a), math.sin(a)
    return tuple((centre[0] + x * c - y * s, centre[1] + x * s + y * c) for x, y in shape)


@lru_cache(maxsize=256)
def _union(outlines: tuple[tuple[XY, ...], ...]) -> BaseGeometry:
    """The union of some outlines, prepared (overlapping features are counted once)."""
    geom = shapely.union_all([_polygon_of(o) for o in outlines]) if outlines else Polygon()
    shapely.prepare(geom)
    return geom


def halving_area(features: Iterable[Feature]) -> BaseGeometry:
    """All the ground that halves movement, as one (cached) geometry."""
    return _union(tuple(f.outline for f in features if f.halves))


def impassable_area(features: Iterable[Feature]) -> BaseGeometry:
    """All the impassable ground, as one (cached) geometry."""
    return _union(tuple(f.outline for f in features if f.impassable))


# --- two trays -------------------------------------------------------------------------------------------


def _half_extent(tray: Tray, n: XY) -> float:
    """Half the length of the tray's shadow on the unit axis ``n``."""
    f, r = tray.axes()
    return tray.frontage / 2 * abs(r[0] * n[0] + r[1] * n[1]) + tray.depth / 2 * abs(
        f[0] * n[0] + f[1] * n[1]
    )


def _penetration(a: Tray, b: Tray) -> float:
    """The least overlap of the two trays' shadows over the four separating axes (<= 0: apart or touching)."""
    least = math.inf
    for t in (a, b):
        for n in t.axes():
            ca = a.centre[0] * n[0] + a.centre[1] * n[1]
            cb = b.centre[0] * n[0] + b.centre[1] * n[1]
            least = min(least, _half_extent(a, n) + _half_extent(b, n) - abs(ca - cb))
    return least


def trays_overlap(a: Tray, b: Tray) -> bool:
    """Whether the trays' interiors intersect (touching edges or corners is not overlapping)."""
    return _penetration(a, b) > TOUCH_TOL


def _point_segment(p: XY, a: XY, b: XY) -> float:
    """The least distance from ``p`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    t = 0.0 if den < ZERO else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def tray_gap(a: Tray, b: Tray) -> float:
    """The distance between the nearest points of two trays (0 when they touch or overlap)."""
    if _penetration(a, b) >= 0:
        return 0.0
    ca, cb = a.corners(), b.corners()
    best = math.inf
    for mine, theirs in ((ca, cb), (cb, ca)):
        for p in mine:
            for i in range(4):
                best = min(best, _point_segment(p, theirs[i], theirs[(i + 1) % 4]))
    return best


def within_table(tray: Tray, width: float, height: float) -> bool:
    """Whether the tray lies wholly on a table of this size (its edge may lie on the table's edge)."""
    return all(-EPS <= x <= width + EPS and -EPS <= y <= height + EPS for x, y in tray.corners())


def engaged_edge(attacker: Tray, defender: Tray) -> Edge:
    """The edge of the defender the line from the attacker's centre to the defender's centre enters by.

    Where the line passes within ``CORNER_EPS`` of a corner, front beats flank beats rear; of the two flanks
    the one on the attacker's side (left when straight ahead or behind).
    """
    u, w = defender.local(attacker.centre)
    hf, hd = defender.frontage / 2, defender.depth / 2
    flank: Edge = "right" if u > 0 else "left"
    end: Edge = "front" if w >= 0 else "rear"
    su, sw = abs(u) / hf, abs(w) / hd
    if max(su, sw) < ZERO:
        return "front"  # the same centre: no line at all; the benefit of the doubt is the front
    if sw >= su:  # the line crosses the front or rear edge line first: where along it?
        along = abs(u) / sw
        candidates = [end, flank] if hf - along <= CORNER_EPS else [end]
    else:
        along = abs(w) / su
        candidates = [flank, end] if hd - along <= CORNER_EPS else [flank]
    return min(candidates, key=lambda e: _PRECEDENCE.index(SIDE_OF_EDGE[e]))


def engaged_side(attacker: Tray, defender: Tray) -> Side:
    """The side (front, flank or rear) the engage line from the attacker's centre comes in by."""
    return SIDE_OF_EDGE[engaged_edge(attacker, defender)]


def contact_position(attacker: Tray, defender: Tray, side: Side | Edge) -> Tray:
    """Where the attacker ends aligned on a side of the defender: facing it, front edge flush, centred.

    ``side`` may name an edge; "flank" means the flank on the attacker's side (``engaged_edge``'s choice).
    """
    edge: Edge
    if side == "flank":
        u, _ = defender.local(attacker.centre)
        edge = "right" if u > 0 else "left"
    else:
        edge = side
    a, b = defender.edge(edge)
    n = defender.outward(edge)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    half = attacker.depth / 2
    centre = (mid[0] + n[0] * half, mid[1] + n[1] * half)
    # Facing opposite to the edge's outward normal, in whole degrees from the defender's own facing.
    turn = {"front": HALF_TURN, "rear": 0.0, "left": -QUARTER_TURN, "right": QUARTER_TURN}[edge]
    return Tray(centre, normal_facing(defender.facing + turn), attacker.frontage, attacker.depth)


# --- legs ------------------------------------------------------------------------------------------------


def leg_sweep(start: Tray, end_centre: XY) -> Polygon:
    """The area a tray sweeps moving straight to ``end_centre`` keeping its facing: the hull of both ends."""
    end = start.moved(end_centre)
    hull = MultiPoint([*start.corners(), *end.corners()]).convex_hull
    return hull if isinstance(hull, Polygon) else start.polygon()


def halved_length(a: XY, b: XY, features: Iterable[Feature]) -> float:
    """What a straight leg from ``a`` to ``b`` costs: its length, each inch inside halving ground doubled."""
    length = distance(a, b)
    slow = halving_area(features)
    if length < ZERO or slow.is_empty:
        return length
    inside = float(LineString([a, b]).intersection(slow).length)
    return length + (HALVING_COST - 1) * inside


# --- line of sight ---------------------------------------------------------------------------------------


def front_samples(tray: Tray, count: int = LOS_SAMPLES) -> list[XY]:
    """``count`` points evenly spaced along the front edge, both ends included."""
    a, b = tray.front()
    if count <= 1:
        return [_lerp(a, b, 0.5)]
    return [_lerp(a, b, i / (count - 1)) for i in range(count)]


def line_of_sight(viewer: Tray, target: Tray, figures: int, features: Iterable[Feature]) -> bool:
    """Whether the viewer sees a whole miniature of the target from some point of its front edge.

    A sight line is the convex hull of a point P of the viewer's front edge (``LOS_SAMPLES`` points) and a
    miniature cell of the target; it is clear when it meets the interior of no blocking feature, leaving
    out blocking features containing P (a unit sees out of the wood it stands in). No sight into a tray
    lying wholly inside a blocking feature, unless both trays touch that same feature (then always).
    """
    blocking = [f.polygon() for f in features if f.blocks]
    if not blocking:
        return True
    vpoly, tpoly = viewer.polygon(), target.polygon()
    holding = [p for p in blocking if p.covers(tpoly)]
    if holding:
        return any(p.intersects(vpoly) for p in holding)
    # Only features near the whole scene can matter.
    scene = MultiPoint([*viewer.front(), *target.corners()]).convex_hull
    near = [p for p in blocking if p.intersects(scene)]
    if not near:
        return True
    feats = np.array(near, dtype=object)
    cells = target.miniatures(figures)
    cell_pts = [list(c.exterior.coords)[:4] for c in cells]
    for p in front_samples(viewer):
        pt = shapely.points(p[0], p[1])
        inside = shapely.contains(feats, pt)  # features holding P do not block P's view
        others = feats[~inside]
        if len(others) == 0:
            return True
        hulls = shapely.convex_hull(shapely.multipoints([[p, *pts] for pts in cell_pts]))
        # "T********": the interiors meet; a sight line grazing a feature's edge is not blocked.
        hit = shapely.relate_pattern(hulls[:, None], others[None, :], "T********")
        if not bool(np.all(np.any(hit, axis=1))):
            return True
    return False


# --- slides ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slide:
    """The end of a slide: the tray there, how far it moved, the enemy met (its id) and what stopped it."""

    end: Tray
    moved: float
    hit_enemy: int | None
    stopped_by: StopReason | None
    blocker: int | None = None
    """Which of ``stops_at`` stopped the slide (its index), when ``stopped_by`` is "stops_at"."""


def _edges_of(shapes: Sequence[Polygon | Tray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All the edges (start and end points, n x 2 each) of some shapes, and the shape index of each edge."""
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    owners: list[np.ndarray] = []
    for i, shape in enumerate(shapes):
        if isinstance(shape, Tray):
            rings = [np.array(shape.corners(), dtype=float)]
        else:
            rings = [
                np.asarray(shapely.get_coordinates(r), dtype=float)[:-1]
                for r in shapely.get_rings(shapely.get_parts(shape))
            ]
        for ring in rings:
            if len(ring) < 2:
                continue
            starts.append(ring)
            ends.append(np.roll(ring, -1, axis=0))
            owners.append(np.full(len(ring), i))
    if not starts:
        empty = np.zeros((0, 2))
        return empty, empty, np.zeros(0, dtype=int)
    return np.concatenate(starts), np.concatenate(ends), np.concatenate(owners)


def _slab(x0: np.ndarray, k: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The open interval of t where lo < x0 + t k < hi (empty as (inf, -inf))."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t1 = (lo - x0) / k
        t2 = (hi - x0) / k
    moving = np.abs(k) > ZERO
    still_in = (x0 > lo) & (x0 < hi)
    enter = np.where(moving, np.minimum(t1, t2), np.where(still_in, -np.inf, np.inf))
    leave = np.where(moving, np.maximum(t1, t2), np.where(still_in, np.inf, -np.inf))
    return enter, leave


def _circle(p: np.ndarray, d: np.ndarray, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The interval of t where p + t d (d a unit vector) is within r of q (empty as (inf, -inf))."""
    f = p - q
    b = f[:, 0] * d[0] + f[:, 1] * d[1]
    c = f[:, 0] ** 2 + f[:, 1] ** 2 - r * r
    disc = b * b - c
    root = np.sqrt(np.maximum(disc, 0.0))
    ok = disc > 0
    return np.where(ok, -b - root, np.inf), np.where(ok, -b + root, -np.inf)


def _approach(
    points: np.ndarray, d: np.ndarray, a: np.ndarray, b: np.ndarray, radius: np.ndarray
) -> np.ndarray:
    """For each point moving along unit ``d`` and each segment a-b: when it first comes within r of it.

    Every pair (point i, segment j) gives the time its distance first drops below its radius (``radius``
    broadcasts to points x segments): its entry into the segment's capsule; 0 if it starts inside that
    capsule moving closer; inf if never, or if it starts inside but moves no closer (a point sliding along
    the edge it touches). Returns the matrix of times (points x segments).
    """
    if len(points) == 0 or len(a) == 0:
        return np.full((len(points), len(a)), np.inf)
    r = np.broadcast_to(radius, (len(points), len(a))).ravel()
    p = np.repeat(points, len(a), axis=0)
    qa = np.tile(a, (len(points), 1))
    qb = np.tile(b, (len(points), 1))
    seg = qb - qa
    length = np.hypot(seg[:, 0], seg[:, 1])
    safe = np.where(length > ZERO, length, 1.0)
    ux, uy = seg[:, 0] / safe, seg[:, 1] / safe
    rel = p - qa
    s0 = rel[:, 0] * ux + rel[:, 1] * uy
    h0 = rel[:, 0] * -uy + rel[:, 1] * ux
    su = d[0] * ux + d[1] * uy
    hn = d[0] * -uy + d[1] * ux
    e1, l1 = _slab(s0, su, np.zeros_like(s0), length)
    e2, l2 = _slab(h0, hn, -r, r)
    band_in = np.maximum(e1, e2)
    band_out = np.minimum(l1, l2)
    band_ok = (band_in < band_out) & (length > ZERO)
    c1_in, c1_out = _circle(p, d, qa, r)
    c2_in, c2_out = _circle(p, d, qb, r)
    t_in = np.minimum(np.minimum(c1_in, c2_in), np.where(band_ok, band_in, np.inf))
    t_out = np.maximum(np.maximum(c1_out, c2_out), np.where(band_ok, band_out, -np.inf))
    # Moving closer at the start: the direction points towards the nearest point of the segment.
    frac = np.clip(s0 / safe, 0.0, 1.0)
    near = qa + seg * frac[:, None]
    closer = (p - near) @ d < -ZERO
    real = t_out - t_in > ZERO  # grazing the capsule's rim is no approach
    starts_in = t_in < 0
    when = np.where(
        real & ~starts_in,
        t_in,
        np.where(real & starts_in & (t_out > 0) & closer, 0.0, np.inf),
    )
    return np.asarray(when.reshape(len(points), len(a)))


def _edge_time(tray: Tray, d: XY, width: float, height: float) -> float:
    """How far the tray can slide along unit ``d`` and still lie wholly on the table."""
    best = math.inf
    for x, y in tray.corners():
        for pos, k, top in ((x, d[0], width), (y, d[1], height)):
            if k > ZERO:
                best = min(best, (top - pos) / k)
            elif k < -ZERO:
                best = min(best, pos / -k)
    return max(0.0, best)


def _contact_time(tray: Tray, d: XY, other: Tray) -> float:
    """When the tray sliding along unit ``d`` first touches ``other`` on the way into it (inf if never).

    The separating axes of two rectangles, swept: on each axis the shadows overlap over an open interval
    of time; the interiors meet when all four intervals do, and first contact is the latest entry.
    """
    enter, deep_enter, deep_leave = -math.inf, -math.inf, math.inf
    for t in (tray, other):
        for n in t.axes():
            k = d[0] * n[0] + d[1] * n[1]
            gap = (other.centre[0] - tray.centre[0]) * n[0] + (other.centre[1] - tray.centre[1]) * n[1]
            reach = _half_extent(tray, n) + _half_extent(other, n)
            lo, hi = gap - reach, gap + reach  # the shadows overlap while lo < t k < hi
            if abs(k) <= ZERO:
                if not (lo < -TOUCH_TOL and hi > TOUCH_TOL):
                    return math.inf  # apart (or only touching) on this axis for ever
                continue
            enter = max(enter, min(lo / k, hi / k))
            # Whether they ever get inside each other is decided on shadows overlapping by more than
            # TOUCH_TOL, so that rounding cannot turn a slide away from (or along) a touching enemy into
            # a contact; when they do, the contact time is the exact first touch.
            t1, t2 = sorted(((lo + TOUCH_TOL) / k, (hi - TOUCH_TOL) / k))
            deep_enter, deep_leave = max(deep_enter, t1), min(deep_leave, t2)
    if deep_leave <= deep_enter or deep_leave <= 0:
        return math.inf  # never inside each other, or only behind the start
    return max(0.0, enter)


def _radii(tray: Tray, d: XY, shapes: Sequence[Polygon | Tray], gap: float) -> tuple[np.ndarray, np.ndarray]:
    """How near the slide may come to each shape, and which shapes it is already pushing into.

    ``gap`` for a shape at least ``gap`` away; for one already nearer, its present distance (a tray 0.5"
    from a friend may not come closer, but may move away or alongside). A shape it touches stops it at
    once if the first ``SLIDE_TOL`` of the slide would take it inside.
    """
    polys = np.array([s.polygon() if isinstance(s, Tray) else s for s in shapes], dtype=object)
    body = tray.polygon()
    now = np.asarray(shapely.distance(body, polys), dtype=float)
    radius = np.where(now >= gap - NEAR_SLACK, gap, np.maximum(now - NEAR_SLACK, NEAR_SLACK))
    touching = np.zeros(len(polys), dtype=bool)
    close = now <= NEAR_SLACK
    if close.any():
        step = tray.moved((tray.centre[0] + d[0] * SLIDE_TOL, tray.centre[1] + d[1] * SLIDE_TOL)).polygon()
        touching[close] = np.asarray(shapely.relate_pattern(step, polys[close], "T********"), dtype=bool)
    return radius, touching


def stop_short(
    tray: Tray,
    direction: XY,
    distance: float,
    *,
    stops_at: Sequence[Polygon | Tray] = (),
    edges: tuple[float, float] | None = None,
    enemies: dict[int, Tray] | None = None,
    gap: float = STOP_GAP,
) -> Slide:
    """Slide a tray straight along ``direction`` up to ``distance`` inches, keeping its facing.

    It stops ``gap`` inches short of any shape in ``stops_at`` (friendly trays, impassable areas), at the
    table edge (``edges`` = (width, height): the tray stays wholly on the table), and in contact with the
    first tray of ``enemies`` it meets (``hit_enemy`` names it). A shape it already lies within ``gap`` of
    only stops it from coming any closer (it may slide away or alongside). Ties go to the enemy, then the
    obstacle, then the edge. Exact: the capsule around each edge met by each corner, and the swept
    separating axes for enemies, with no stepping.
    """
    length = math.hypot(direction[0], direction[1])
    if length < ZERO or distance <= 0:
        return Slide(tray, 0.0, None, None)
    d = (direction[0] / length, direction[1] / length)
    best, reason, enemy_id, blocker = distance, None, None, None
    candidates: list[tuple[float, int, StopReason, int | None]] = []
    for eid, other in (enemies or {}).items():
        t = _contact_time(tray, d, other)
        if t <= distance:
            candidates.append((t, 0, "enemy", eid))
    if stops_at:
        starts, ends, owners = _edges_of(stops_at)
        if len(starts):
            dv = np.array(d)
            mine = np.array(tray.corners(), dtype=float)
            mine_end = np.roll(mine, -1, axis=0)
            radius, touching = _radii(tray, d, stops_at, gap)
            # My corners moving onto their edges, and their corners moving (relatively) onto my edges.
            r = radius[owners]
            onto_theirs = _approach(mine, dv, starts, ends, r[None, :]).min(axis=0)  # per edge of theirs
            onto_mine = _approach(starts, -dv, mine, mine_end, r[:, None]).min(axis=1)  # per corner of theirs
            times = np.minimum(onto_theirs, onto_mine)  # their edge i starts at their corner i
            times = np.where(touching[owners], 0.0, times)
            first = float(times.min())
            idx = int(owners[int(times.argmin())])
            if first <= distance:
                candidates.append((first, 1, "stops_at", idx))
    if edges is not None:
        t = _edge_time(tray, d, edges[0], edges[1])
        if t <= distance:
            candidates.append((t, 2, "edge", None))
    if candidates:
        t0 = min(c[0] for c in candidates)
        # Within the promised precision a tie is a tie: contact beats stopping short beats the edge.
        _, _, why, who = min((c for c in candidates if c[0] <= t0 + SLIDE_TOL / 10), key=lambda c: c[1])
        best, reason = t0, why
        if why == "enemy":
            enemy_id = who
        elif why == "stops_at":
            blocker = who
    best = max(0.0, min(best, distance))
    if reason is not None and best < MOVE_SNAP:
        best = 0.0
    end = tray.moved((tray.centre[0] + d[0] * best, tray.centre[1] + d[1] * best))
    return Slide(end, best, enemy_id, reason, blocker)
