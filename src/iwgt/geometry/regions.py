"""Maps of regions: outlines, which regions touch, what lies on each border, and the paths an army may take.

The sibling of ``hexgrid`` and ``plane`` for games played on a map divided into regions, each one "space" of
movement. A map is built once from one point (a site) per region: unless outlines are given, a region is the
Voronoi cell of its site clipped to the board, so a designer places points and the borders follow. Two regions
are adjacent when their outlines share an edge at least ``MIN_SHARED`` long (touching at a corner is not a
border). A border is open, a river, a bridged river or a mountain range. Coordinates are as drawn: x to the
right, y down.

The movement rules every such game shares are here: a mountain border cannot be crossed; a bridge is
crossed freely; crossing an unbridged river ends the path (unless the mover may ford); entering a "stop"
region (the caller says which: another player's pieces) ends the path; extra links (tunnels) join regions
that do not touch. ``paths`` is asked on every legal-action listing, so the adjacency is precomputed and the
search is a plain BFS.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, get_args

import shapely
from shapely.geometry import LineString, MultiLineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

XY = tuple[float, float]
"""A point on the map, in board units, x to the right and y down."""

BorderKind = Literal["open", "river", "bridge", "mountain"]
"""What lies on a border: nothing, a river, a river with a bridge, or a mountain range."""

BORDER_KINDS: tuple[BorderKind, ...] = get_args(BorderKind)
"""Every border kind, in the order above."""

MIN_SHARED = 0.5
"""The shortest shared edge that makes two regions adjacent (board units): corners do not count."""

GRID = 1e-6
"""Outlines are snapped to this grid so that two cells' shared edges have the very same vertices."""

DIGITS = 4
"""Decimals kept in the outlines, centres and segments handed out (drawing data, not arithmetic)."""


class MapError(ValueError):
    """A map that cannot be built: ``key`` is the dotted data key at fault (``sites.<id>``, ``outlines.<id>``,
    ``borders.<i>`` for the i-th entry of the kinds, ``regions.<id>`` for an island)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Border:
    """The border between regions ``a`` and ``b`` (``a`` first in the map's region order), its kind and the
    shared edge as a polyline."""

    a: str
    b: str
    kind: BorderKind
    segment: tuple[XY, ...]


# One step out of a region: (neighbour, kind of the border crossed).
_Step = tuple[str, BorderKind]


@dataclass(frozen=True, eq=False)
class RegionMap:
    """A built map: its regions in order, their outlines and label points, and the borders between them.

    Equality is identity: a map is built once and shared."""

    width: float
    height: float
    ids: tuple[str, ...]
    outlines: Mapping[str, tuple[XY, ...]]
    centres: Mapping[str, XY]
    _borders: Mapping[frozenset[str], Border] = field(repr=False)
    _neighbours: Mapping[str, tuple[str, ...]] = field(repr=False)
    # The steps an army may take out of each region (mountains left out), neighbours in region order.
    _steps: Mapping[str, tuple[_Step, ...]] = field(repr=False)
    _order: Mapping[str, int] = field(repr=False)

    def neighbours(self, region: str) -> tuple[str, ...]:
        """Every region adjacent to ``region`` (across mountains too), in region order."""
        return self._neighbours[region]

    def border(self, a: str, b: str) -> Border | None:
        """The border between two regions, or None when they are not adjacent."""
        return self._borders.get(frozenset((a, b)))

    def borders(self) -> tuple[Border, ...]:
        """Every border, ordered by its first and then its second region."""
        return tuple(sorted(self._borders.values(), key=lambda x: (self._order[x.a], self._order[x.b])))

    def kind(self, a: str, b: str) -> BorderKind | None:
        """The kind of the border between two regions, or None when they are not adjacent."""
        found = self._borders.get(frozenset((a, b)))
        return None if found is None else found.kind

    def index(self, region: str) -> int:
        """The region's place in the map's order (ties between paths are broken by it)."""
        return self._order[region]


# ------------------------------------------------------------------------------------------------ building


def _snap(poly: BaseGeometry) -> Polygon:
    """A polygon on the snapping grid (GEOS keeps it valid)."""
    snapped = shapely.set_precision(poly, GRID)
    if isinstance(snapped, Polygon):
        return snapped
    # Snapping a sliver can split it: keep the largest piece.
    parts = [g for g in getattr(snapped, "geoms", ()) if isinstance(g, Polygon)]
    return max(parts, key=lambda g: g.area) if parts else Polygon()


def _voronoi(sites: Mapping[str, XY], board: Polygon) -> dict[str, Polygon]:
    """The Voronoi cell of each site, clipped to the board."""
    ids = list(sites)
    cells = shapely.voronoi_polygons(MultiPoint([sites[i] for i in ids]), extend_to=board, ordered=True)
    polys = list(getattr(cells, "geoms", ()))
    out: dict[str, Polygon] = {}
    for rid, cell in zip(ids, polys, strict=True):
        out[rid] = _snap(cell.intersection(board))
    return out


def _given(sites: Mapping[str, XY], outlines: Mapping[str, Sequence[XY]]) -> dict[str, Polygon]:
    """The given outlines as polygons, each a valid area holding its site."""
    out: dict[str, Polygon] = {}
    for rid in sites:
        if rid not in outlines:
            raise MapError(f"outlines.{rid}", "missing: every region needs an outline")
        poly = Polygon([(float(x), float(y)) for x, y in outlines[rid]])
        if not poly.is_valid or poly.area <= 0:
            raise MapError(f"outlines.{rid}", "not a simple closed outline with an area")
        if not poly.covers(Point(sites[rid])):
            raise MapError(f"outlines.{rid}", f"does not contain its site {tuple(sites[rid])}")
        out[rid] = _snap(poly)
    for extra in outlines:
        if extra not in sites:
            raise MapError(f"outlines.{extra}", "an outline for a region that has no site")
    return out


def _shared(a: Polygon, b: Polygon) -> LineString | None:
    """The longest stretch of boundary two outlines share, or None when they share no line."""
    common = a.boundary.intersection(b.boundary)
    lines: list[LineString] = []
    for part in getattr(common, "geoms", (common,)):
        if isinstance(part, LineString):
            lines.append(part)
        elif isinstance(part, MultiLineString):
            lines.extend(part.geoms)
    if not lines:
        return None
    merged = shapely.line_merge(MultiLineString(lines))
    pieces = [g for g in getattr(merged, "geoms", (merged,)) if isinstance(g, LineString)]
    return max(pieces, key=lambda g: float(g.length)) if pieces else None


def _xy(p: Sequence[float]) -> XY:
    """A point rounded for the drawing data."""
    return (round(float(p[0]), DIGITS), round(float(p[1]), DIGITS))


def _ring(poly: Polygon) -> tuple[XY, ...]:
    """The outline's exterior ring as GEOS gives it, without repeating the first point at the end."""
    coords = list(poly.exterior.coords)[:-1]
    return tuple(_xy(p) for p in coords)


def build(
    sites: Mapping[str, XY],
    width: float,
    height: float,
    kinds: Mapping[frozenset[str], BorderKind],
    outlines: Mapping[str, Sequence[XY]] | None = None,
) -> RegionMap:
    """A map from one site per region (its order is the map's region order), the board's size, the kinds of
    the borders that are not open, and optionally the outlines (default: the Voronoi cells of the sites
    clipped to the board). Refuses, with a :class:`MapError` naming the key: a site off the board or on
    another site, a bad outline, a kind on a pair that is not two adjacent regions, and a region cut off from
    the rest by mountains (an island)."""
    if width <= 0 or height <= 0:
        raise MapError("width" if width <= 0 else "height", "the board needs a positive size")
    if len(sites) < 1:
        raise MapError("sites", "a map needs at least one region")
    seen: dict[XY, str] = {}
    for rid, (x, y) in sites.items():
        if not (0 < x < width and 0 < y < height):
            raise MapError(f"sites.{rid}", f"({x:g}, {y:g}) is not inside the {width:g} x {height:g} board")
        at = (round(float(x), 6), round(float(y), 6))
        if at in seen:
            raise MapError(f"sites.{rid}", f"on the same point as {seen[at]}")
        seen[at] = rid
    board = box(0.0, 0.0, float(width), float(height))
    polys = _voronoi(sites, board) if outlines is None else _given(sites, outlines)
    for rid, poly in polys.items():
        if poly.is_empty or poly.area <= 0:
            raise MapError(f"sites.{rid}", "its region has no area")

    ids = tuple(sites)
    order = {rid: i for i, rid in enumerate(ids)}
    if outlines is not None:
        for a, b in itertools.combinations(ids, 2):
            if polys[a].intersection(polys[b]).area > GRID:
                raise MapError(f"outlines.{b}", f"overlaps the outline of {a}")

    # Candidate pairs from a spatial index: only outlines that touch can share an edge.
    tree = shapely.STRtree([polys[r] for r in ids])
    left, right = tree.query([polys[r] for r in ids], predicate="intersects")
    segments: dict[frozenset[str], tuple[str, str, tuple[XY, ...]]] = {}
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        a, b = ids[i], ids[j]
        line = _shared(polys[a], polys[b])
        if line is not None and line.length >= MIN_SHARED:
            segments[frozenset((a, b))] = (a, b, tuple(_xy(p) for p in line.coords))

    for i, (pair, kind) in enumerate(kinds.items()):
        names = sorted(pair, key=lambda r: order.get(r, -1))
        missing = [r for r in names if r not in order]
        if len(pair) != 2:
            raise MapError(f"borders.{i}", f"a border joins two different regions, not {names}")
        if missing:
            raise MapError(f"borders.{i}", f"no region called {missing[0]!r}")
        if kind not in BORDER_KINDS:
            raise MapError(f"borders.{i}", f"unknown kind {kind!r} (one of {', '.join(BORDER_KINDS)})")
        if pair not in segments:
            raise MapError(f"borders.{i}", f"{names[0]} and {names[1]} are not adjacent: they share no edge")

    borders: dict[frozenset[str], Border] = {}
    for pair, (a, b, seg) in segments.items():
        borders[pair] = Border(a, b, kinds.get(pair, "open"), seg)

    neighbours: dict[str, list[str]] = {r: [] for r in ids}
    steps: dict[str, list[_Step]] = {r: [] for r in ids}
    for border in borders.values():
        neighbours[border.a].append(border.b)
        neighbours[border.b].append(border.a)
        if border.kind != "mountain":
            steps[border.a].append((border.b, border.kind))
            steps[border.b].append((border.a, border.kind))
    for r in ids:
        neighbours[r].sort(key=order.__getitem__)
        steps[r].sort(key=lambda s: order[s[0]])

    centres: dict[str, XY] = {}
    for rid in ids:
        label = polylabel(polys[rid], tolerance=0.05)
        centres[rid] = _xy((label.x, label.y))

    result = RegionMap(
        width=float(width),
        height=float(height),
        ids=ids,
        outlines=MappingProxyType({r: _ring(polys[r]) for r in ids}),
        centres=MappingProxyType(centres),
        _borders=MappingProxyType(borders),
        _neighbours=MappingProxyType({r: tuple(v) for r, v in neighbours.items()}),
        _steps=MappingProxyType({r: tuple(v) for r, v in steps.items()}),
        _order=MappingProxyType(order),
    )
    _refuse_islands(result)
    return result


def _refuse_islands(m: RegionMap) -> None:
    """Every region must be reachable from every other without crossing a mountain: the largest group of
    regions joined that way is the mainland, and the first region (in map order) outside it is named."""
    groups: list[list[str]] = []
    placed: set[str] = set()
    for rid in m.ids:
        if rid in placed:
            continue
        group = list(_reach(m, rid))
        placed.update(group)
        groups.append(group)
    if len(groups) < 2:
        return
    mainland = max(groups, key=len)  # max keeps the first of equal sizes: the group of the earlier region
    cut = next(r for r in m.ids if r not in set(mainland))
    raise MapError(
        f"regions.{cut}",
        f"an island: it cannot be reached from {mainland[0]} without crossing a mountain border",
    )


def _reach(m: RegionMap, start: str) -> dict[str, int]:
    """Fewest steps from ``start`` to every region reachable without crossing a mountain (rivers ignored)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r = queue.popleft()
        for n, _ in m._steps[r]:
            if n not in dist:
                dist[n] = dist[r] + 1
                queue.append(n)
    return dist


# ------------------------------------------------------------------------------------------------ movement


def _linked(m: RegionMap, links: Iterable[tuple[str, str]]) -> Mapping[str, tuple[_Step, ...]]:
    """The steps out of each region with extra links added as open borders (a link also opens a pair that a
    mountain or river separates: the tunnel goes under it)."""
    extra: dict[str, set[str]] = {}
    for a, b in links:
        if a == b:
            continue
        if a not in m._order or b not in m._order:
            raise KeyError(a if a not in m._order else b)
        extra.setdefault(a, set()).add(b)
        extra.setdefault(b, set()).add(a)
    if not extra:
        return m._steps
    steps = dict(m._steps)
    for r, more in extra.items():
        kept = [(n, k) for n, k in m._steps[r] if n not in more]
        kept.extend((n, "open") for n in more)
        kept.sort(key=lambda s: m._order[s[0]])
        steps[r] = tuple(kept)
    return steps


def paths(
    m: RegionMap,
    start: str,
    steps: int,
    *,
    stops: Callable[[str], bool] = lambda r: False,
    ford: bool = False,
    links: Iterable[tuple[str, str]] = (),
) -> dict[str, tuple[str, ...]]:
    """Every region reachable from ``start`` in 1..``steps`` steps -> one shortest legal path to it (the
    regions after ``start``; among the shortest, the first in region order, step by step).

    A step crosses a border to an adjacent region (or along a link); never a mountain; an unbridged river
    step ends the path unless ``ford``; entering a ``stops`` region ends the path. ``start`` itself is never a
    destination."""
    out = m._steps if not links else _linked(m, links)
    if start not in out:
        raise KeyError(start)
    stopping: dict[str, bool] = {}
    found: dict[str, tuple[str, ...]] = {}
    # Regions an army can go on from, with the path that reached them; kept in the order of their paths,
    # so the first path found to a region is the first in region order.
    frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    onward: set[str] = {start}
    for _ in range(steps):
        following: list[tuple[str, tuple[str, ...]]] = []
        for region, path in frontier:
            for n, kind in out[region]:
                if n == start:
                    continue
                stop = stopping.get(n)
                if stop is None:
                    stop = stopping[n] = bool(stops(n))
                if n not in found:
                    found[n] = (*path, n)
                if stop or (kind == "river" and not ford) or n in onward:
                    continue
                onward.add(n)
                following.append((n, (*path, n)))
        if not following:
            break
        frontier = following
    return found


def check_path(
    m: RegionMap,
    start: str,
    path: Sequence[str],
    steps: int,
    *,
    stops: Callable[[str], bool] = lambda r: False,
    ford: bool = False,
    links: Iterable[tuple[str, str]] = (),
) -> str | None:
    """None when ``path`` (the regions after ``start``) is a legal move under the rules of :func:`paths`,
    else the first rule it breaks, in words. The words name the rule so a game can cite its own clause: "no
    steps", "too long", "no region", "twice", "not adjacent", "mountain", "river", "stops"."""
    if start not in m._order:
        return f"no region called {start!r}"
    if not path:
        return "no steps: a move goes to at least one other region"
    if len(path) > steps:
        return f"too long: {len(path)} steps, at most {steps}"
    linked = {frozenset(p) for p in links}
    here = start
    visited = {start}
    for i, there in enumerate(path, start=1):
        if there not in m._order:
            return f"no region called {there!r} (step {i})"
        if there in visited:
            return f"{there} twice: a path visits each region once (step {i})"
        visited.add(there)
        kind = "open" if frozenset((here, there)) in linked else m.kind(here, there)
        if kind is None:
            return f"{here} and {there} are not adjacent (step {i})"
        if kind == "mountain":
            return f"a mountain range lies between {here} and {there} (step {i})"
        last = i == len(path)
        if kind == "river" and not ford and not last:
            return f"crossing the river from {here} into {there} without a bridge ends the move (step {i})"
        if not last and stops(there):
            return f"the move stops in {there}: it may only be the last region (step {i})"
        here = there
    return None


def distance(m: RegionMap, a: str, b: str) -> int:
    """Fewest steps from ``a`` to ``b`` without crossing a mountain, rivers and stops ignored (a map has no
    islands, so there is always a way)."""
    if b not in m._order:
        raise KeyError(b)
    return _reach(m, a)[b]
