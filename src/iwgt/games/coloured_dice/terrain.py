"""Terrain on a Coloured-Dice table: what a move pays, what blocks sight, what gives cover, who stands higher.

The pieces are the state's ``TerrainPiece`` (kind, outline in inches, hill height, id; cleared bushes are
``removed`` and count for nothing here). What each kind does is data (``rules().terrain``), seen here through
``TerrainEffect``; every function takes the effects table as ``effects=`` (tests give their own) and reads
the rules' table when it is left out.

Signatures (the team spec, section 2, with the choices made here):

- ``TerrainEffect``: one kind's facts (infantry and cavalry taxes: inches or "d6"; who may not enter;
  marching blocked; sight blocked; cover among it, at its edge, behind it, inside it; removable).
- ``move_sweep(start, path, facing=None) -> Polygon``: the ground a move covers; legs keep the start
  facing (pivots are free), and the end tray at the final facing is part of it.
- ``move_taxes(start, path, features, terrain_class, *, models=1, files=1, facing=None, effects=None)
  -> MoveTax``: each piece the sweep enters (its interior, the start included) taxed once per move action.
- ``along(path, length) -> list[XY]``: the waypoint path (first point = start) cut after ``length`` inches.
- ``sees(shooter, target, features, *, cells=None, effects=None) -> bool``.
- ``cover(shooter, target, target_cells, features, *, effects=None) -> (bonus, reason | None)``; the
  ``target_cells`` are the target's model cells (``formation.model_cells``): their centres are the models.
- ``higher(a, b, features) -> int`` (+1 when a stands higher), ``height_at(point, features) -> float``.
- ``in_water``, ``in_forest``, ``pieces_under`` (the pieces a tray stands in), ``blocked_area`` (the ground
  a terrain class may not enter, for the engine's path checks).

Sight (CD-TE-15..17, CD-MS-09, designed): the pieces that block sight (forests) block a sight line whose
hull meets their interior, except within ``FOREST_EDGE`` of the shooter's and the target's own trays (a unit
among the trees sees, and is seen, through one inch of them). So a unit inside a forest is seen from outside
only when its tray comes within 1" of the forest's boundary, on that side; two units in one forest see each
other only within 2" of trees; a unit deep inside sees nothing outside. A sight line is the hull of a point
of the shooter's front edge (``trays.front_samples``) and one model cell of the target (any one clear will
do), as ``trays.line_of_sight`` judges it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from iwgt.games.coloured_dice.formation import model_trays
from iwgt.games.coloured_dice.rules import rules
from iwgt.games.coloured_dice.state import TerrainPiece
from iwgt.geometry.plane import XY
from iwgt.geometry.trays import Tray, front_samples, leg_sweep

Tax = float | Literal["d6"]
"""A movement tax: fixed inches off the allowance, or one d6 rolled when the move is ordered."""

FOREST_EDGE: Final[float] = rules().constants.forest_edge
"""How far (inches) sight reaches through trees to or from a unit among them (CD-TE-17, designed)."""

BEHIND_REACH: Final[float] = rules().constants.behind_reach
"""A target is behind a structure only within this many inches of it (CD-TE-18/20, designed, data)."""

FEW_MODELS: Final[int] = rules().constants.few_models
"""Bushes stay when no more than this many models went through them (CD-TE-08, designed)."""

VISIBLE_MAX: Final[float] = rules().constants.visible_max
"""More than this share of the target's models visible: no cover (CD-TE-20); so a target must have at
least 1 - VISIBLE_MAX of its models hidden behind, among or inside a piece for that piece's cover."""

GRID = 1e-9
"""The grid (inches) overlays are snap-rounded to: robust where outlines share edges."""

GRAZE = 1e-7
"""Sight blockers are shrunk by this (inches): a sight line along a forest's edge is not blocked."""

TOUCH_AREA = 1e-9
"""Overlaps smaller than this (square inches) are rounding: touching a piece's edge is not entering it."""

COLUMN = 1.0
"""Without the target's model cells, sight is to columns about this wide (inches) across its tray."""

INFANTRY = "infantry"
"""The infantry terrain class (``rules().kinds[...]``): taxed as infantry."""
CAVALRY = "cavalry"
"""The cavalry terrain class: taxed as cavalry, barred from forests."""
IGNORES_TERRAIN = frozenset({"none", "spirit"})
"""The terrain classes that ignore terrain (immaterial spirits: ``kinds.spirit.terrain = "none"``)."""

TERRAIN_AS: dict[str, str] = {"monster": INFANTRY}
"""Terrain classes that move as another (monsters and characters on foot as infantry, cd-spec Movement)."""


@dataclass(frozen=True, slots=True)
class TerrainEffect:
    """One terrain kind's effects (CD-TE, CD-TC), named as ``rules.Terrain`` names them."""

    infantry_tax: Tax = 0.0
    cavalry_tax: Tax = 0.0
    infantry_blocked: bool = False
    cavalry_blocked: bool = False
    marching_blocked: bool = False
    blocks_los: bool = False
    among_cover: int = 0
    """Cover for a target standing among it (woodland +1, CD-TE-11)."""
    inside_cover: int = 0
    """Cover for a target inside it (roofed structures +2, CD-TE-19)."""
    edge_cover: int = 0
    """Cover for a target seen at its edge (forest +1, CD-TE-17)."""
    behind_cover: int = 0
    """Cover for a target right behind it (structures +1, CD-TE-18, CD-TE-21)."""
    removable: bool = False
    """Cleared by the models that go through (bushes, CD-TE-06..08)."""

    def tax(self, terrain_class: str) -> Tax:
        """The tax this kind takes from a move of that terrain class."""
        return self.cavalry_tax if terrain_class == CAVALRY else self.infantry_tax

    def blocked(self, terrain_class: str) -> bool:
        """Whether a unit of that terrain class may not enter it."""
        return self.cavalry_blocked if terrain_class == CAVALRY else self.infantry_blocked


@dataclass(frozen=True, slots=True)
class MoveTax:
    """What a move pays to terrain: fixed inches, one d6 per listed piece, and what it may not do."""

    fixed: float = 0.0
    d6_features: tuple[int, ...] = ()
    blocked: str | None = None
    """Why the move may not go there (the piece it may not enter), or None."""
    marching_blocked: bool = False
    bushes_crossed: tuple[int, ...] = ()
    bushes_removed: tuple[int, ...] = ()
    """The bushes more than ``FEW_MODELS`` models went through: they are cleared (CD-TE-06/08)."""


@lru_cache(maxsize=1)
def terrain_effects() -> dict[str, TerrainEffect]:
    """Every kind's effects, from the rules' terrain table."""
    return {key: effect_of(t) for key, t in rules().terrain.items()}


def effect_of(t: object) -> TerrainEffect:
    """One entry of the rules' terrain table as a ``TerrainEffect`` (the same names)."""
    return TerrainEffect(**{name: getattr(t, name) for name in TerrainEffect.__dataclass_fields__})


_NO_EFFECT = TerrainEffect()


def _table(effects: Mapping[str, TerrainEffect] | None) -> Mapping[str, TerrainEffect]:
    """The effects table given, or the rules' own."""
    return terrain_effects() if effects is None else effects


def _standing(features: Iterable[TerrainPiece]) -> list[TerrainPiece]:
    """The pieces still on the table (cleared bushes are gone)."""
    return [p for p in features if not p.removed]


@lru_cache(maxsize=1024)
def piece_polygon(outline: tuple[XY, ...]) -> Polygon:
    """A piece's outline as a prepared polygon (built once per outline: pieces are looked at very often)."""
    poly = Polygon(outline)
    if not poly.is_valid:  # a self-crossing outline: its hull stands in for it
        hull = poly.convex_hull
        poly = hull if isinstance(hull, Polygon) else poly
    shapely.prepare(poly)
    return poly


@lru_cache(maxsize=1024)
def piece_box(outline: tuple[XY, ...]) -> tuple[float, float, float, float]:
    """A piece's bounding box (min x, min y, max x, max y): a cheap test before the exact shapely ones."""
    return piece_polygon(outline).bounds


@lru_cache(maxsize=1024)
def piece_hull(outline: tuple[XY, ...]) -> tuple[XY, ...]:
    """The convex hull of a piece's outline (for the cheap separating-axis test)."""
    return tuple(convex_hull_xy(outline))


def convex_hull_xy(points: Sequence[XY]) -> list[XY]:
    """The convex hull of some points, counter-clockwise (Andrew's monotone chain), without shapely."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def turn(o: XY, a: XY, b: XY) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[XY] = []
    for q in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], q) <= 0:
            lower.pop()
        lower.append(q)
    upper: list[XY] = []
    for q in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], q) <= 0:
            upper.pop()
        upper.append(q)
    return lower[:-1] + upper[:-1]


def convex_apart(a: Sequence[XY], b: Sequence[XY]) -> bool:
    """Whether two convex polygons' interiors are surely apart: an edge normal of either separates their
    shadows (touching counts as apart: they share no area). A cheap test before shapely's overlays."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
            nx, ny = y1 - y0, x0 - x1
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two bounding boxes meet (touching counts: the exact test decides)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _enters(area: BaseGeometry, poly: Polygon) -> bool:
    """Whether ``area`` meets the piece's interior (an edge or a corner touching it is not entering)."""
    if not area.intersects(poly):
        return False
    # Snap-rounded (grid_size): GEOS's plain overlay can misjudge nearly coincident edges.
    return float(shapely.intersection(area, poly, grid_size=GRID).area) > TOUCH_AREA


def pieces_under(tray: Tray, features: Iterable[TerrainPiece], kinds: Iterable[str]) -> list[TerrainPiece]:
    """The standing pieces of these kinds whose interior the tray overlaps."""
    wanted = set(kinds)
    body = tray.polygon()
    return [p for p in _standing(features) if p.kind in wanted and _enters(body, piece_polygon(p.outline))]


WATER = ("stream", "river", "pond")
"""The water kinds (CD-TE-02..05)."""

FOREST = "forest"
"""The forest kind (CD-TE-13..17)."""


def in_water(tray: Tray, features: Iterable[TerrainPiece]) -> list[TerrainPiece]:
    """The water pieces (streams, rivers, ponds) the tray stands in."""
    return pieces_under(tray, features, WATER)


def in_forest(tray: Tray, features: Iterable[TerrainPiece]) -> list[TerrainPiece]:
    """The forests the tray stands in."""
    return pieces_under(tray, features, (FOREST,))


# --- movement --------------------------------------------------------------------------------------------


def _legs(start: Tray, path: Sequence[XY]) -> list[tuple[Tray, XY]]:
    """The straight legs of a move: (the tray at the leg's start, the leg's end centre), facing kept."""
    out: list[tuple[Tray, XY]] = []
    here = start
    for to in path:
        out.append((here, to))
        here = here.moved(to)
    return out


def move_sweep(start: Tray, path: Sequence[XY], facing: float | None = None) -> BaseGeometry:
    """The ground a move covers: each leg swept at the start facing, and the end tray at its final facing."""
    parts: list[BaseGeometry] = [start.polygon()]
    parts += [leg_sweep(t, to) for t, to in _legs(start, path)]
    end = start.moved(path[-1]) if path else start
    if facing is not None:
        parts.append(end.pivoted(facing).polygon())
    return shapely.union_all(parts)


def _models_through(start: Tray, path: Sequence[XY], models: int, files: int, poly: Polygon) -> int:
    """How many of the unit's models went through ``poly`` (each cell swept along the legs)."""
    cells = model_trays(start, models, files)
    legs = _legs(start, path)
    count = 0
    for cell in cells:
        off = (cell.centre[0] - start.centre[0], cell.centre[1] - start.centre[1])
        sweeps = [cell.polygon()] + [
            leg_sweep(
                cell.moved((t.centre[0] + off[0], t.centre[1] + off[1])), (to[0] + off[0], to[1] + off[1])
            )
            for t, to in legs
        ]
        if any(_enters(s, poly) for s in sweeps):
            count += 1
    return count


def move_taxes(
    start: Tray,
    path: Sequence[XY],
    features: Iterable[TerrainPiece],
    terrain_class: str,
    *,
    models: int = 1,
    files: int = 1,
    facing: float | None = None,
    effects: Mapping[str, TerrainEffect] | None = None,
) -> MoveTax:
    """What a move along ``path`` (the waypoints after the start) pays to the terrain (CD-TE-02..14).

    Each piece whose interior the move's ground enters (where the unit stood at the start included) counts
    once: fixed inches summed, one d6 per d6 piece, the first piece it may not enter named, ponds bar
    marching, bushes crossed listed and cleared when more than ``FEW_MODELS`` models went through.
    Immaterial spirits (terrain class ``none``) ignore terrain.
    """
    cls = TERRAIN_AS.get(terrain_class, terrain_class)
    if cls in IGNORES_TERRAIN:
        return MoveTax()
    # Only pieces within the box of every tray the move passes through can be entered: most moves on open
    # ground meet none, and pay nothing without a single shapely overlay.
    table = _table(effects)
    box, parts = _move_box(start, path, facing)
    pieces = [
        p
        for p in _standing(features)
        if _taxes_moves(table.get(p.kind, _NO_EFFECT), cls)
        and _boxes_meet(box, piece_box(p.outline))
        and not all(convex_apart(part, piece_hull(p.outline)) for part in parts)
    ]
    if not pieces:
        return MoveTax()
    ground = move_sweep(start, path, facing)
    shapely.prepare(ground)
    fixed = 0.0
    d6: list[int] = []
    blocked: str | None = None
    marching = False
    crossed: list[int] = []
    removed: list[int] = []
    for piece in pieces:
        eff = table.get(piece.kind, _NO_EFFECT)
        poly = piece_polygon(piece.outline)
        if not _enters(ground, poly):
            continue
        if eff.blocked(cls) and blocked is None:
            what = piece.name or piece.kind
            impassable = eff.infantry_blocked and eff.cavalry_blocked
            blocked = f"{what} is impassable" if impassable else f"{cls} may not enter {what}"
        tax = eff.tax(cls)
        if tax == "d6":
            d6.append(piece.id)
        else:
            fixed += tax
        marching = marching or eff.marching_blocked
        if eff.removable:
            crossed.append(piece.id)
            if _models_through(start, path, models, files, poly) > FEW_MODELS:
                removed.append(piece.id)
    return MoveTax(fixed, tuple(d6), blocked, marching, tuple(crossed), tuple(removed))


def _taxes_moves(eff: TerrainEffect, cls: str) -> bool:
    """Whether a kind does anything to a move of that terrain class (a hill does not: nothing to look at)."""
    return eff.tax(cls) != 0 or eff.blocked(cls) or eff.marching_blocked or eff.removable


def _move_box(
    start: Tray, path: Sequence[XY], facing: float | None
) -> tuple[tuple[float, float, float, float], list[list[XY]]]:
    """The bounding box of ``move_sweep``'s ground (of the corners of every tray the move passes through),
    and its convex parts: the start tray, each leg's hull, the end tray at its final facing."""
    trays = [start] + [start.moved(to) for to in path]
    corners = [list(t.corners()) for t in trays]
    parts = [corners[0]] + [convex_hull_xy(a + b) for a, b in itertools.pairwise(corners)]
    if facing is not None:
        parts.append(list(trays[-1].pivoted(facing).corners()))
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    return (min(xs), min(ys), max(xs), max(ys)), parts


def blocked_pieces(
    features: Iterable[TerrainPiece],
    terrain_class: str,
    *,
    effects: Mapping[str, TerrainEffect] | None = None,
) -> list[TerrainPiece]:
    """The standing pieces a unit of that terrain class may not enter (rocks; forests for cavalry...)."""
    cls = TERRAIN_AS.get(terrain_class, terrain_class)
    if cls in IGNORES_TERRAIN:
        return []
    table = _table(effects)
    return [p for p in _standing(features) if table.get(p.kind, _NO_EFFECT).blocked(cls)]


def blocked_area(
    features: Iterable[TerrainPiece],
    terrain_class: str,
    *,
    effects: Mapping[str, TerrainEffect] | None = None,
) -> list[Polygon]:
    """The pieces a unit of that terrain class may not enter (impassable ground; forests for cavalry...)."""
    return [piece_polygon(p.outline) for p in blocked_pieces(features, terrain_class, effects=effects)]


def along(path: Sequence[XY], length: float) -> list[XY]:
    """The path (its first point the start) cut where ``length`` inches along it end (all of it if longer)."""
    if not path:
        return []
    out = [path[0]]
    left = max(0.0, length)
    for a, b in itertools.pairwise(path):
        leg = math.hypot(b[0] - a[0], b[1] - a[1])
        if leg <= left:
            out.append(b)
            left -= leg
            continue
        if left > 0:
            t = left / leg
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        break
    return out


# --- sight -----------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _window(tray: Tray) -> BaseGeometry:
    """The ground within ``FOREST_EDGE`` of a tray: sight passes the trees there."""
    return tray.polygon().buffer(FOREST_EDGE, join_style="mitre")


@lru_cache(maxsize=1024)
def _solid(geom: BaseGeometry) -> BaseGeometry:
    """A blocker shrunk by ``GRAZE`` and prepared: a sight line meets its interior when it meets this."""
    core = geom.buffer(-GRAZE, join_style="mitre")
    shapely.prepare(core)
    return core


def _blockers(
    shooter: Tray, target: Tray, features: Iterable[TerrainPiece], effects: Mapping[str, TerrainEffect]
) -> list[BaseGeometry]:
    """The sight-blocking ground between two trays: blocking pieces less the two trays' windows, each
    shrunk by ``GRAZE`` (a sight line grazing the trees' edge is not blocked) and prepared."""
    out: list[BaseGeometry] = []
    bodies = (shooter.polygon(), target.polygon())
    for piece in _standing(features):
        if not effects.get(piece.kind, _NO_EFFECT).blocks_los:
            continue
        whole = piece_polygon(piece.outline)
        poly: BaseGeometry = whole
        for tray, body in zip((shooter, target), bodies, strict=True):
            if _enters(body, whole):
                poly = poly.difference(_window(tray))
        solid = _solid(poly) if poly is whole else _solid.__wrapped__(poly)
        if not solid.is_empty:
            out.append(solid)
    return out


def sees(
    shooter: Tray,
    target: Tray,
    features: Iterable[TerrainPiece],
    *,
    cells: Sequence[Polygon] | None = None,
    effects: Mapping[str, TerrainEffect] | None = None,
) -> bool:
    """Whether the shooter sees a whole model of the target past the sight-blocking pieces (CD-TE-15..17).

    ``cells`` are the target's model cells (``formation.model_cells``); without them, columns about
    ``COLUMN`` wide across the tray's front, its full depth. The forest rule is the module's: trees hide
    beyond ``FOREST_EDGE`` of either unit.
    """
    blocking = _blockers(shooter, target, features, _table(effects))
    if not blocking:
        return True
    scene = MultiPoint([*shooter.front(), *target.corners()]).convex_hull
    near = [g for g in blocking if g.intersects(scene)]
    if not near:
        return True
    shapes = list(cells) if cells is not None else target.miniatures(max(1, round(target.frontage / COLUMN)))
    cell_pts = [list(c.exterior.coords)[:-1] for c in shapes]
    points = front_samples(shooter)
    hulls = shapely.convex_hull(shapely.multipoints([[p, *pts] for p in points for pts in cell_pts]))
    feats = np.array(near, dtype=object)
    hit = shapely.intersects(feats[None, :], hulls[:, None])  # the prepared blockers first: fast
    return not bool(np.all(np.any(hit, axis=1)))


# --- cover and hills -------------------------------------------------------------------------------------


def _share_in(points: Sequence[XY], poly: Polygon) -> float:
    """The share of the points standing inside ``poly``."""
    if not points:
        return 0.0
    inside = shapely.contains_xy(poly, np.array([p[0] for p in points]), np.array([p[1] for p in points]))
    return float(np.count_nonzero(inside)) / len(points)


def cover(
    shooter: Tray,
    target: Tray,
    target_cells: Sequence[Polygon],
    features: Iterable[TerrainPiece],
    *,
    effects: Mapping[str, TerrainEffect] | None = None,
) -> tuple[int, str | None]:
    """The target's cover against this shooter and why: the highest single bonus applies (CD-TC-03).

    Among woodland (CD-TE-11) and inside a roofed structure (CD-TE-19): at least half the target's models
    (cell centres) stand in it. At a forest's edge (CD-TE-17): at least half stand in the forest (being
    seen at all is ``sees``). Behind a structure (CD-TE-18, CD-TE-20/21): the target's tray within
    ``BEHIND_REACH`` of it, and the line from the shooter's centre to at least half the models crosses it
    ("more than half visible: no modification").
    """
    table = _table(effects)
    models = [c.centroid.coords[0] for c in target_cells] or [target.centre]
    models_xy: list[XY] = [(float(x), float(y)) for x, y in models]
    body = target.polygon()
    best, why = 0, None
    for piece in _standing(features):
        eff = table.get(piece.kind, _NO_EFFECT)
        if not (eff.among_cover or eff.inside_cover or eff.edge_cover or eff.behind_cover):
            continue
        poly = piece_polygon(piece.outline)
        name = piece.name or piece.kind
        found: list[tuple[int, str]] = []
        share = _share_in(models_xy, poly) if poly.intersects(body) else 0.0
        if share >= 1 - VISIBLE_MAX:
            if eff.among_cover:
                found.append((eff.among_cover, f"among the {name}"))
            if eff.inside_cover:
                found.append((eff.inside_cover, f"inside the {name}"))
            if eff.edge_cover:
                found.append((eff.edge_cover, f"at the edge of the {name}"))
        if eff.behind_cover and body.distance(poly) <= BEHIND_REACH:
            crossed = sum(
                1
                for m in models_xy
                if not poly.contains(Point(m)) and LineString([shooter.centre, m]).intersects(poly)
            )
            if crossed >= (1 - VISIBLE_MAX) * len(models_xy):
                found.append((eff.behind_cover, f"behind the {name}"))
        for bonus, reason in found:
            if bonus > best:
                best, why = bonus, reason
    return best, why


def height_at(point: XY, features: Iterable[TerrainPiece]) -> float:
    """The height of the ground at a point: the highest hill holding it (0 off the hills)."""
    best = 0.0
    for piece in _standing(features):
        if piece.height > best and piece_polygon(piece.outline).contains(Point(point)):
            best = piece.height
    return best


def higher(a: Tray, b: Tray, features: Iterable[TerrainPiece]) -> int:
    """+1 when ``a``'s tray centre stands on higher ground than ``b``'s, else 0 (CD-TE-01)."""
    pieces = list(features)
    return 1 if height_at(a.centre, pieces) > height_at(b.centre, pieces) else 0
