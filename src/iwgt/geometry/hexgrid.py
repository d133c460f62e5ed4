"""Pointy-top hex geometry: axial coordinates, odd-r offsets, boards, movement and pixel layout.

Follows Red Blob Games, https://www.redblobgames.com/grids/hexagons/. Cells are addressed in axial
coordinates ``(q, r)`` (cube ``s = -q - r``); humans see odd-r offset coordinates ``(col, row)``, where
odd rows are shoved half a cell to the right. Pixel and millimetre coordinates have y growing
downwards, so row 0 is the top row of the board.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from heapq import heappop, heappush
from typing import NamedTuple

__all__ = [
    "CELL_ACROSS_MM",
    "DIRECTIONS",
    "Hex",
    "HexBoard",
    "Layout",
    "board",
    "distance",
    "hex_add",
    "hex_corners",
    "hex_round",
    "hex_sub",
    "hex_to_offset",
    "hex_to_pixel",
    "layout_for_cells_across",
    "line",
    "movement_range",
    "neighbours",
    "offset_to_hex",
    "path_to",
    "pixel_to_hex",
    "ring",
    "within",
    "zone_of_control",
]

CELL_ACROSS_MM = 155.0
"""Width of one table cell, flat side to flat side, in millimetres."""

_SQRT3 = math.sqrt(3.0)
# Costs are summed as floats and extra sources may carry fractional costs, so compare with slack.
_BUDGET_EPS = 1e-9
# Shifts line samples off cell edges and corners so that ties always round the same way. Red Blob's
# nudge (1e-6, 1e-6, -2e-6) runs parallel to the edges between q- and r-neighbours, leaving those ties
# to floating-point noise (lines then change when translated); cube components that all differ do not.
_LINE_NUDGE_Q = 1e-6
_LINE_NUDGE_R = 2e-6


class Hex(NamedTuple):
    """An axial hex coordinate; the third cube coordinate is ``s = -q - r``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The implied cube coordinate ``-q - r``."""
        return -self.q - self.r


def hex_add(a: Hex, b: Hex) -> Hex:
    """Component-wise sum (``a + b`` on a NamedTuple would concatenate)."""
    return Hex(a.q + b.q, a.r + b.r)


def hex_sub(a: Hex, b: Hex) -> Hex:
    """Component-wise difference ``a - b``."""
    return Hex(a.q - b.q, a.r - b.r)


# Red Blob's order. With y growing downwards: east, north-east, north-west, west, south-west, south-east.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six adjacent cells, in ``DIRECTIONS`` order."""
    q, r = h
    return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two cells."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """Cells at exactly ``radius`` steps from ``center`` (``[center]`` for radius 0), walking round."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    # Start radius steps towards direction 4, then walk radius steps along each direction in turn.
    q = center.q + DIRECTIONS[4].q * radius
    r = center.r + DIRECTIONS[4].r * radius
    out: list[Hex] = []
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            out.append(Hex(q, r))
            q += dq
            r += dr
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    """All cells at distance ``<= radius``, as a spiral: centre first, then ring 1, ring 2, ..."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


def hex_round(fq: float, fr: float) -> Hex:
    """The cell containing fractional axial coordinates ``(fq, fr)``."""
    fs = -fq - fr
    # Half-up rather than Python's round(): banker's rounding would make tie direction depend on parity.
    q = math.floor(fq + 0.5)
    r = math.floor(fr + 0.5)
    s = math.floor(fs + 0.5)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    # Rounding may break q + r + s == 0; recompute the coordinate that moved furthest.
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Cells on the straight line from ``a`` to ``b`` inclusive (``distance + 1`` cells)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    aq = a.q + _LINE_NUDGE_Q
    ar = a.r + _LINE_NUDGE_R
    dq = b.q - a.q
    dr = b.r - a.r
    return [hex_round(aq + dq * (i / n), ar + dr * (i / n)) for i in range(n + 1)]


def offset_to_hex(col: int, row: int) -> Hex:
    """Axial cell for odd-r offset coordinates (pointy-top, odd rows shoved right)."""
    # `row & 1` rather than `row % 2` keeps the formula right for negative rows too.
    return Hex(col - (row - (row & 1)) // 2, row)


def hex_to_offset(h: Hex) -> tuple[int, int]:
    """Odd-r offset coordinates ``(col, row)`` of an axial cell."""
    return h.q + (h.r - (h.r & 1)) // 2, h.r


@dataclass(frozen=True, slots=True)
class HexBoard:
    """A rectangular ``width`` x ``height`` board in odd-r offset coordinates, with lookup tables."""

    width: int
    height: int
    cells: tuple[Hex, ...] = field(init=False, repr=False, compare=False)
    index: dict[Hex, int] = field(init=False, repr=False, compare=False)
    neighbour_index: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Build the cell, index and neighbour tables (never mutated afterwards)."""
        if self.width < 1 or self.height < 1:
            raise ValueError(f"board must be at least 1x1, got {self.width}x{self.height}")
        cells = tuple(offset_to_hex(col, row) for row in range(self.height) for col in range(self.width))
        index = {h: i for i, h in enumerate(cells)}
        table = tuple(tuple(index[n] for n in neighbours(h) if n in index) for h in cells)
        # The dataclass is frozen so callers cannot reassign; the tables are filled in once, here.
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbour_index", table)

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the board."""
        return h in self.index

    def neighbours_on_board(self, h: Hex) -> tuple[Hex, ...]:
        """Adjacent cells that are on the board (``h`` itself may be off it)."""
        i = self.index.get(h)
        if i is None:
            return tuple(n for n in neighbours(h) if n in self.index)
        cells = self.cells
        return tuple(cells[j] for j in self.neighbour_index[i])

    def cells_within(self, center: Hex, radius: int) -> list[Hex]:
        """On-board cells at distance ``<= radius`` from ``center``, in spiral order."""
        index = self.index
        return [h for h in within(center, radius) if h in index]

    def offset(self, h: Hex) -> tuple[int, int]:
        """Odd-r ``(col, row)`` of an on-board cell."""
        if h not in self.index:
            raise ValueError(f"{h} is not on the {self.width}x{self.height} board")
        return hex_to_offset(h)

    def hex_at(self, col: int, row: int) -> Hex:
        """The cell at odd-r ``(col, row)`` on this board."""
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"({col}, {row}) is not on the {self.width}x{self.height} board")
        return self.cells[row * self.width + col]


@lru_cache(maxsize=16)
def board(width: int, height: int) -> HexBoard:
    """The shared ``HexBoard`` of this size (its tables are built once per size)."""
    return HexBoard(width, height)


def _check_search(hb: HexBoard, start: Hex, budget: float, cost: Sequence[int]) -> int:
    """Validate the common arguments of the searches; return the start cell's index."""
    if len(cost) != len(hb.cells):
        raise ValueError(f"cost has {len(cost)} entries, board has {len(hb.cells)} cells")
    if not budget >= 0.0:  # also rejects NaN, which would make every budget comparison false
        raise ValueError(f"budget must be >= 0, got {budget}")
    s = hb.index.get(start)
    if s is None:
        raise ValueError(f"start {start} is not on the {hb.width}x{hb.height} board")
    return s


def _source_indices(hb: HexBoard, extra_sources: Mapping[Hex, float]) -> list[tuple[int, float]]:
    """Board indices and initial costs of the extra sources, validated."""
    out: list[tuple[int, float]] = []
    for h, c0 in extra_sources.items():
        j = hb.index.get(h)
        if j is None:
            raise ValueError(f"extra source {h} is not on the {hb.width}x{hb.height} board")
        if not c0 >= 0.0:
            raise ValueError(f"extra source {h} has initial cost {c0}; it must be >= 0")
        out.append((j, c0))
    return out


# Above this budget the bucket queue could allocate one list per unit of cost up to the budget (think
# of a cost of 10**9 used as "nearly impassable"), so the heap search takes over.
_BUCKET_MAX_BUDGET = 4096


def _bucket_range(
    hb: HexBoard,
    s: int,
    last: int,
    cost: Sequence[int],
    blocked: AbstractSet[Hex],
    stop: AbstractSet[Hex],
    sources: list[tuple[int, int]],
) -> dict[Hex, float]:
    """Dial's algorithm: Dijkstra with one bucket per integer path cost, for path costs up to ``last``.

    About twice as fast as a binary heap here: no tuples are built and no comparisons between them.
    Relies on entering costs being integers >= 1, so a bucket never receives entries while it is read.
    """
    cells = hb.cells
    table = hb.neighbour_index
    # best[i] > last marks "not reached"; it also rejects over-budget relaxations in a single comparison.
    best = [last + 1] * len(cells)
    best[s] = 0
    buckets: list[list[int]] = [[s]]
    for j, c0 in sources:
        if c0 < best[j] and cells[j] not in blocked:
            best[j] = c0
            while c0 >= len(buckets):
                buckets.append([])
            buckets[c0].append(j)
    top = len(buckets)
    out: dict[Hex, float] = {}
    d = 0
    while d < top:
        fd = float(d)
        for i in buckets[d]:
            if best[i] != d:
                continue  # stale: i was re-queued in a cheaper bucket and already settled
            h = cells[i]
            out[h] = fd
            if d == last or (i != s and h in stop):
                continue
            for j in table[i]:
                c = cost[j]
                if c <= 0:
                    continue
                nd = d + c
                if nd >= best[j] or cells[j] in blocked:
                    continue
                best[j] = nd
                while nd >= top:  # a loop: steps are small, and cheaper than building a generator
                    buckets.append([])
                    top += 1
                buckets[nd].append(j)
        d += 1
    return out


def _heap_search(
    hb: HexBoard,
    s: int,
    limit: float,
    cost: Sequence[int],
    blocked: AbstractSet[Hex],
    stop: AbstractSet[Hex],
    sources: list[tuple[int, float]],
    goal: int,
    parent: dict[int, int] | None,
) -> dict[int, float]:
    """Dijkstra with a binary heap over board indices; cheapest cost of every cell within ``limit``.

    Handles what the bucket queue cannot (fractional source costs, huge budgets) and path finding:
    stops once ``goal`` (an index, or -1) is settled and records predecessors in ``parent`` if given.
    """
    cells = hb.cells
    table = hb.neighbour_index
    inf = math.inf
    best: dict[int, float] = {s: 0.0}
    heap: list[tuple[float, int]] = [(0.0, s)]
    for j, c0 in sources:
        if c0 <= limit and c0 < best.get(j, inf) and cells[j] not in blocked:
            best[j] = c0
            heappush(heap, (c0, j))
    # Entering a passable cell costs at least 1, so a cell with less than 1 left cannot lead anywhere.
    expand_limit = limit - 1.0
    while heap:
        d, i = heappop(heap)
        if d > best[i]:
            continue  # stale entry: a cheaper route to i was settled already
        if i == goal:
            break
        if d > expand_limit or (i != s and cells[i] in stop):
            continue
        for j in table[i]:
            c = cost[j]
            if c <= 0:
                continue
            nd = d + c
            if nd > limit or nd >= best.get(j, inf) or cells[j] in blocked:
                continue
            best[j] = nd
            if parent is not None:
                parent[j] = i
            heappush(heap, (nd, j))
    return best


def movement_range(
    board: HexBoard,
    start: Hex,
    budget: float,
    *,
    cost: Sequence[int],
    blocked: AbstractSet[Hex],
    stop: AbstractSet[Hex],
    extra_sources: Mapping[Hex, float] | None = None,
) -> dict[Hex, float]:
    """Every cell reachable from ``start`` within ``budget``, mapped to its cheapest cost.

    ``cost[i]`` is the integer cost to enter ``board.cells[i]`` (``<= 0`` is impassable). ``blocked``
    cells cannot be entered; ``stop`` cells (zone of control) may be entered but not left, except the
    start cell. ``start`` is included at 0 even when in ``blocked`` (the unit is standing there).
    ``extra_sources`` seeds further start cells at initial costs ``>= 0``: they ignore terrain cost,
    are skipped when blocked and are not expanded when in ``stop``. Raises ``ValueError`` on bad input.
    """
    s = _check_search(board, start, budget, cost)
    sources = _source_indices(board, extra_sources) if extra_sources else []
    limit = budget + _BUDGET_EPS
    if limit <= _BUCKET_MAX_BUDGET:
        if not sources:
            return _bucket_range(board, s, math.floor(limit), cost, blocked, stop, [])
        if all(float(c0).is_integer() for _, c0 in sources):
            int_sources = [(j, int(c0)) for j, c0 in sources]
            return _bucket_range(board, s, math.floor(limit), cost, blocked, stop, int_sources)
    best = _heap_search(board, s, limit, cost, blocked, stop, sources, -1, None)
    cells = board.cells
    return {cells[i]: d for i, d in best.items()}


def path_to(
    board: HexBoard,
    start: Hex,
    goal: Hex,
    budget: float,
    *,
    cost: Sequence[int],
    blocked: AbstractSet[Hex],
    stop: AbstractSet[Hex],
) -> list[Hex] | None:
    """A cheapest path ``[start, ..., goal]`` within ``budget`` under ``movement_range`` rules, else None."""
    s = _check_search(board, start, budget, cost)
    g = board.index.get(goal)
    if g is None:
        return None
    parent: dict[int, int] = {}
    best = _heap_search(board, s, budget + _BUDGET_EPS, cost, blocked, stop, [], g, parent)
    if g not in best:
        return None
    path = [g]
    while path[-1] != s:
        path.append(parent[path[-1]])
    cells = board.cells
    return [cells[i] for i in reversed(path)]


def zone_of_control(board: HexBoard, enemies: Iterable[Hex]) -> frozenset[Hex]:
    """All on-board cells adjacent to any of ``enemies``."""
    zone: set[Hex] = set()
    for e in enemies:
        zone.update(board.neighbours_on_board(e))
    return frozenset(zone)


@dataclass(frozen=True)
class Layout:
    """Pointy-top placement: ``size`` is the centre-to-corner radius, ``origin`` the centre of Hex(0, 0)."""

    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        """Reject sizes that would make pixel_to_hex divide by zero or flip the board."""
        if not (self.size > 0.0 and math.isfinite(self.size)):
            raise ValueError(f"size must be positive and finite, got {self.size}")


def layout_for_cells_across(
    across_mm: float = CELL_ACROSS_MM, origin: tuple[float, float] = (0.0, 0.0)
) -> Layout:
    """Layout whose cells measure ``across_mm`` flat-to-flat (size = across / sqrt(3))."""
    return Layout(size=across_mm / _SQRT3, origin=origin)


def hex_to_pixel(layout: Layout, h: Hex) -> tuple[float, float]:
    """Centre of cell ``h``."""
    size = layout.size
    ox, oy = layout.origin
    return (size * _SQRT3 * (h.q + h.r / 2.0) + ox, size * 1.5 * h.r + oy)


def pixel_to_hex(layout: Layout, x: float, y: float) -> Hex:
    """The cell containing point ``(x, y)``, e.g. a touchscreen tap."""
    ox, oy = layout.origin
    px = (x - ox) / layout.size
    py = (y - oy) / layout.size
    return hex_round(_SQRT3 / 3.0 * px - py / 3.0, 2.0 / 3.0 * py)


def hex_corners(layout: Layout, h: Hex) -> list[tuple[float, float]]:
    """The six corners of cell ``h``, starting at the upper-right one and going clockwise on screen."""
    cx, cy = hex_to_pixel(layout, h)
    size = layout.size
    out: list[tuple[float, float]] = []
    for i in range(6):
        angle = math.radians(60.0 * i - 30.0)
        out.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return out
