"""The outline of a piece's reach on the table, drawn from the points the rules offer it: the furthest
offered point in each sector round its start (an outline to draw; any point the rules accept may still be
tapped)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import MultiPoint, Polygon

Point = tuple[float, float]
"""A point on the table, in inches."""


def _furthest(start: Sequence[float], points: Sequence[Sequence[float]], sectors: int) -> dict[int, Point]:
    """Sector -> its furthest point, in the order the sectors were first met."""
    best: dict[int, tuple[float, Point]] = {}
    step = 2 * math.pi / sectors
    for p in points:
        dx, dy = p[0] - start[0], p[1] - start[1]
        d = math.hypot(dx, dy)
        if d <= 0:
            continue
        k = round(math.atan2(dy, dx) / step) % sectors
        if k not in best or d > best[k][0]:
            best[k] = (d, (float(p[0]), float(p[1])))
    return {k: p for k, (_, p) in best.items()}


def furthest_by_sector(
    start: Sequence[float], points: Sequence[Sequence[float]], sectors: int
) -> list[Point]:
    """The furthest of ``points`` from ``start`` in each of ``sectors`` equal sectors round it (sector k
    centred on the angle 2 pi k / sectors), in sector order; points at the start itself are left out."""
    best = _furthest(start, points, sectors)
    return [best[k] for k in sorted(best)]


def reach_outline(
    start: Sequence[float], points: Sequence[Sequence[float]], sectors: int, *, hull: bool = True
) -> list[Point]:
    """The outline of the reach: the furthest point of each sector, as their convex hull (``hull``) or in
    sector order; empty when fewer than three sectors hold a point (or the hull is not an area)."""
    best = _furthest(start, points, sectors)
    if len(best) < 3:
        return []
    if not hull:
        return [best[k] for k in sorted(best)]
    shape = MultiPoint(list(best.values())).convex_hull
    if not isinstance(shape, Polygon):
        return []
    return [(float(x), float(y)) for x, y in list(shape.exterior.coords)[:-1]]


__all__ = ["furthest_by_sector", "reach_outline"]
