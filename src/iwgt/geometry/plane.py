"""Free tables measured in inches: round bases, terrain areas, hills, obstacles, paths and sight.

The sibling of ``hexgrid`` for games played with a tape measure. Geometry is shapely's; this module
adds the wargame's questions: how far apart two bases are (edge to edge), what a path costs when
woods, villages and slopes halve the speed, whether a line crosses a fence, where a figure stands
higher than another, whether a line of sight is blocked, and whether a figure is in cover.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import LinearRing, LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

XY = tuple[float, float]
"""A point on the table, in inches from the bottom-left corner."""

EPS = 1e-6
"""Slack for comparisons of measured distances: a move that stops exactly at 2" is at 2"."""

SAMPLE_STEP = 0.05
"""Length of the pieces a path is cut into to tell uphill from downhill (inches)."""


def distance(a: XY, b: XY) -> float:
    """Centre-to-centre distance in inches."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def edge_distance(a: XY, ra: float, b: XY, rb: float) -> float:
    """Distance between the edges of two round bases (negative when they overlap)."""
    return distance(a, b) - ra - rb


def path_length(path: Sequence[XY]) -> float:
    """Length of a path of straight legs."""
    return sum(distance(p, q) for p, q in itertools.pairwise(path))


def toward(a: XY, b: XY, length: float) -> XY:
    """The point ``length`` inches from ``a`` on the line to ``b`` (``a`` itself if they coincide)."""
    d = distance(a, b)
    if d < EPS:
        return a
    t = length / d
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def segment_distance(a: XY, b: XY, p: XY) -> float:
    """The least distance from ``p`` to the straight segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    if den < EPS * EPS:
        return distance(a, p)
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return distance((a[0] + t * dx, a[1] + t * dy), p)


def closest_approach(path: Sequence[XY], point: XY) -> float:
    """The least centre distance from ``point`` to any point of the path."""
    if len(path) == 1:
        return distance(path[0], point)
    return min(segment_distance(a, b, point) for a, b in itertools.pairwise(path))


def rounded(p: XY, places: int = 2) -> XY:
    """A point rounded to hundredths of an inch, as positions are stored and logged."""
    return (round(p[0], places), round(p[1], places))


@dataclass(frozen=True, slots=True)
class Area:
    """A terrain area (woods, village, ...) given as a polygon in inches."""

    kind: str
    outline: tuple[XY, ...]
    name: str = ""

    @property
    def polygon(self) -> Polygon:
        """The area as a shapely polygon."""
        return Polygon(self.outline)


@dataclass(frozen=True, slots=True)
class Hill:
    """A hill: its outline, its height in levels, and the width of the slope band inside the outline.

    The ground rises from 0 at the outline to ``height`` at the crest (the outline shrunk by ``slope``
    inches); moving on the slope towards higher ground is moving uphill.
    """

    outline: tuple[XY, ...]
    height: int = 1
    slope: float = 1.5
    name: str = ""

    @property
    def polygon(self) -> Polygon:
        """The whole hill."""
        return Polygon(self.outline)

    @property
    def crest(self) -> BaseGeometry:
        """The flat top: the outline shrunk by the slope width (may be empty for a small hill)."""
        return self.polygon.buffer(-self.slope)


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A linear obstacle (fence, hedge, wall, stream): a plain move may not cross it."""

    kind: str
    line: tuple[XY, ...]
    name: str = ""

    @property
    def geometry(self) -> LineString:
        """The obstacle as a shapely line."""
        return LineString(self.line)


@dataclass(frozen=True)
class Ground:
    """A whole table: its size, its areas, hills and obstacles, and the kinds that halve the speed."""

    width: float
    height: float
    areas: tuple[Area, ...] = ()
    hills: tuple[Hill, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    slow_kinds: frozenset[str] = field(default_factory=lambda: frozenset({"woods", "village"}))
    cover_kinds: frozenset[str] = field(default_factory=lambda: frozenset({"woods", "village"}))
    slow_cost: float = 2.0
    """Movement an inch of slow ground (woods, village, uphill) uses: 2 is half speed."""

    @cached_property
    def _slow(self) -> BaseGeometry:
        polys = [a.polygon for a in self.areas if a.kind in self.slow_kinds]
        return shapely.union_all(polys) if polys else Polygon()

    @cached_property
    def _cover(self) -> BaseGeometry:
        polys = [a.polygon for a in self.areas if a.kind in self.cover_kinds]
        return shapely.union_all(polys) if polys else Polygon()

    @cached_property
    def _walls(self) -> BaseGeometry:
        lines = [o.geometry for o in self.obstacles]
        return shapely.union_all(lines) if lines else LineString()

    @cached_property
    def _prepared(self) -> tuple[BaseGeometry, BaseGeometry, BaseGeometry]:
        for g in (self._slow, self._cover, self._walls):
            shapely.prepare(g)
        return self._slow, self._cover, self._walls

    def on_table(self, p: XY, radius: float = 0.0) -> bool:
        """Whether a base of this radius centred at ``p`` lies wholly on the table."""
        return (
            radius - EPS <= p[0] <= self.width - radius + EPS
            and radius - EPS <= p[1] <= self.height - radius + EPS
        )

    def areas_at(self, p: XY) -> list[Area]:
        """The terrain areas containing the point."""
        pt = Point(p)
        return [a for a in self.areas if a.polygon.covers(pt)]

    def kind_at(self, p: XY) -> str:
        """The kind of ground at a point: an area's kind, "hill" on a hill, else "open"."""
        found = self.areas_at(p)
        if found:
            return found[0].kind
        return "hill" if self.elevation(p) > 0 else "open"

    def in_cover(self, p: XY) -> bool:
        """Whether a figure whose centre is at ``p`` is in cover (woods or village)."""
        return bool(self._prepared[1].covers(Point(p)))

    def is_slow(self, p: XY) -> bool:
        """Whether the point is in ground that halves the speed (woods or village)."""
        return bool(self._prepared[0].covers(Point(p)))

    @cached_property
    def _hill_shapes(self) -> list[tuple[Hill, Polygon, LinearRing, tuple[float, float, float, float]]]:
        """Each hill with its polygon (prepared), outline and bounding box, built once."""
        out = []
        for hill in self.hills:
            poly = hill.polygon
            shapely.prepare(poly)
            out.append((hill, poly, poly.exterior, poly.bounds))
        return out

    def elevation(self, p: XY) -> float:
        """Height of the ground at a point, in hill levels (0 on the flat)."""
        return float(self.elevations(np.array([p[0]]), np.array([p[1]]))[0])

    def elevations(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Heights of the ground at many points at once."""
        out = np.zeros(len(xs))
        for hill, poly, exterior, (x0, y0, x1, y1) in self._hill_shapes:
            near = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
            if not near.any():
                continue  # the bounding box is cheap; most legs never come near most hills
            inside = near & shapely.contains_xy(poly, xs, ys)
            if not inside.any():
                continue
            idx = np.nonzero(inside)[0]
            depth = shapely.distance(exterior, shapely.points(xs[idx], ys[idx]))
            out[idx] = np.maximum(out[idx], hill.height * np.minimum(depth / hill.slope, 1.0))
        return out

    def crosses_obstacle(self, path: Sequence[XY]) -> bool:
        """Whether a path crosses (or touches) a fence, hedge or other obstacle."""
        if not self.obstacles or len(path) < 2:
            return False
        return bool(self._prepared[2].intersects(LineString(path)))

    def obstacles_near(self, p: XY, reach: float) -> list[int]:
        """Indexes of the obstacles within ``reach`` inches of the point."""
        pt = Point(p)
        return [i for i, o in enumerate(self.obstacles) if o.geometry.distance(pt) <= reach + EPS]

    def beyond(self, index: int, p: XY, radius: float, margin: float = 0.05) -> XY:
        """Where a base at ``p`` ends after crossing obstacle ``index``: just clear of its far side."""
        line = self.obstacles[index].geometry
        pt = Point(p)
        foot = line.interpolate(line.project(pt))
        dx, dy = foot.x - p[0], foot.y - p[1]
        d = math.hypot(dx, dy)
        if d < EPS:  # standing on the line: step across along its normal
            a, b = line.coords[0], line.coords[-1]
            nx, ny = -(b[1] - a[1]), b[0] - a[0]
            n = math.hypot(nx, ny) or 1.0
            dx, dy, d = nx / n, ny / n, 1.0
        ux, uy = dx / d, dy / d
        return (foot.x + ux * (radius + margin), foot.y + uy * (radius + margin))

    def path_cost(self, path: Sequence[XY]) -> float:
        """Movement a path uses: an inch of woods, village or uphill costs ``slow_cost`` (2: half speed)."""
        return path_length(path) + (self.slow_cost - 1) * self.slow_length(path)

    def slow_length(self, path: Sequence[XY]) -> float:
        """Length of the path that is in woods, a village, or uphill on a slope."""
        total = 0.0
        for a, b in itertools.pairwise(path):
            total += self._slow_leg(a, b)
        return total

    def _slow_leg(self, a: XY, b: XY) -> float:
        """Woods and villages are measured exactly; climbing outside them in ``SAMPLE_STEP`` pieces."""
        length = distance(a, b)
        if length < EPS:
            return 0.0
        slow = self._prepared[0]
        exact = float(LineString([a, b]).intersection(slow).length) if self.areas else 0.0
        if not (self.hills and self._near_a_hill(a, b)):
            return exact
        n = max(1, math.ceil(length / SAMPLE_STEP))
        t = (np.arange(n) + 0.5) / n  # midpoints of n equal pieces
        half = 0.5 / n
        x0, y0 = a[0] + (b[0] - a[0]) * (t - half), a[1] + (b[1] - a[1]) * (t - half)
        x1, y1 = a[0] + (b[0] - a[0]) * (t + half), a[1] + (b[1] - a[1]) * (t + half)
        climbing = self.elevations(x1, y1) > self.elevations(x0, y0) + EPS
        if self.areas:  # a piece already paid for as woods or village is not paid twice
            xs, ys = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            climbing &= ~shapely.contains_xy(slow, xs, ys)
        return exact + float(np.count_nonzero(climbing)) * length / n

    def _near_a_hill(self, a: XY, b: XY) -> bool:
        """Whether the leg's bounding box meets any hill's (if not, it cannot climb)."""
        lx, hx, ly, hy = min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1])
        return any(
            not (hx < x0 or lx > x1 or hy < y0 or ly > y1) for _, _, _, (x0, y0, x1, y1) in self._hill_shapes
        )

    def sight_blocked(self, a: XY, b: XY, depth: float) -> str | None:
        """Why the line from ``a`` to ``b`` is blocked, or None: more than ``depth`` inches of woods or
        village on the line, or a hill crest higher than both ends between them."""
        line = LineString([a, b])
        if self.areas:
            inside = float(line.intersection(self._prepared[1]).length)  # overlapping areas counted once
            if inside > depth + EPS:
                return (
                    f'the line of sight runs through {inside:.1f}" of woods or village (more than {depth:g}")'
                )
        ea, eb = self.elevation(a), self.elevation(b)
        for hill in self.hills:
            if hill.height > max(ea, eb) + EPS and line.intersects(hill.crest):
                return f"the hill{' ' + hill.name if hill.name else ''} stands between them"
        return None


def points_on_circle(centre: XY, radius: float, count: int) -> Iterable[XY]:
    """``count`` points evenly spaced on a circle, starting east and turning anticlockwise."""
    for i in range(count):
        angle = 2 * math.pi * i / count
        yield (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle))
