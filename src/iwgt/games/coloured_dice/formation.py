"""Units as blocks of models on one tray: cells, ranks, who fights, losses, reforming and charging home.

A unit stands on one ``Tray`` (``iwgt.geometry.trays``): ``files`` models across the front and
ceil(models / files) ranks behind. Each model owns one cell, its base plus the order's gap (so two bases
side by side are exactly ``gap`` apart and coherency holds by construction, CD-AC-05..07). Model ``i``
stands in rank ``i // files`` and file ``i % files``: index 0 is the front-left model (left as the unit sees
it), the front rank comes first, and the last rank may be partial: it is then centred behind the others.
Casualties come off the rear: the front edge never moves, the tray shrinks towards the front, and when
fewer models than files are left the files become the models, centred on the same front (CD-MS-10).

Signatures (the contract of the team spec, section 2, with the choices made here):

- ``cell_size(kind, order, *, base=None, gap=None) -> (width, depth)``: one model's space; base by kind and
  gap by order from ``rules()``, or given outright (pure geometry).
- ``cell_of(base, gap) -> (width, depth)``: base plus gap.
- ``ranks_of(models, files) -> int`` and ``files_of(models, files) -> int`` (files never more than models).
- ``block_tray(centre, facing, models, files, cell) -> Tray``: the tray from its CENTRE.
- ``block_tray_at_front(front_centre, facing, models, files, cell) -> Tray``: the same from its front centre.
- ``cell_dims(tray, models, files) -> (width, depth)``: a laid-out tray's cell, read back from the tray.
- ``model_cells(tray, models, files) -> list[Polygon]`` and ``model_trays(...) -> list[Tray]`` (each cell as
  a small tray facing the unit's way), ``model_points(...) -> list[XY]`` (the cells' centres).
- ``UnitGeo(tray, models, files)``: what ``fighters`` needs of a unit.
- ``fighters(attacker, defender_tray, *, fights_together, reach, contact_eps=CONTACT_EPS) -> list[int]``.
- ``after_losses(tray, models_before, models_after, files) -> (Tray, files)``.
- ``reform(tray, models, files, cell, *, facing=None) -> (Tray, files)``: about the same front centre.
- ``charge_end(charger, target) -> Tray``.
- ``coherent(tray, models, files, base, limit) -> bool``: every model within ``limit`` (edge to edge) of
  another, and the unit in one piece.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shapely.geometry import Polygon

from iwgt.games.coloured_dice.rules import rules
from iwgt.geometry.plane import XY
from iwgt.geometry.trays import Tray, contact_position, engaged_edge, normal_facing, tray_gap

CONTACT_EPS: Final[float] = rules().constants.contact_eps
"""Two shapes this near (inches) touch (``rules.toml`` constants.contact_eps, CD-MS-16)."""

COHERENCY_SLACK = 1e-6
"""Rounding slack (inches) when checking the coherency distance between two laid-out bases."""

REACH_OVERLAP = 1e-6
"""A rank-2 model is behind a front model when their cells overlap sideways by more than this (inches)."""

REACH_RANK = 1
"""The rank (0-based) a reach-2 weapon fights from: the second, behind a fighting front model (CD-FI-02)."""

Cell = tuple[float, float]
"""One model's space: (width across the front, depth) in inches."""


# --- sizes -----------------------------------------------------------------------------------------------


def cell_of(base: Cell, gap: float) -> Cell:
    """One model's cell: its base plus the order's gap both ways (gap between neighbouring bases)."""
    return (base[0] + gap, base[1] + gap)


def cell_size(kind: str, order: str, *, base: Cell | None = None, gap: float | None = None) -> Cell:
    """The (width, depth) of one model's space: the kind's base plus the order's gap (CD-AC-05..08).

    ``base`` and ``gap`` override the data (``rules().kinds[kind]`` and ``rules().orders[order]``).
    """
    if base is None or gap is None:
        data = rules()
        if base is None:
            size = data.kinds[kind].base  # type: ignore[index]  # an unknown kind is a KeyError
            base = (float(size[0]), float(size[1]))
        if gap is None:
            gap = float(data.orders[order].gap)  # type: ignore[index]
    return cell_of(base, gap)


def files_of(models: int, files: int) -> int:
    """The files a block of ``models`` stands in: never more than its models, at least one."""
    return max(1, min(files, models))


def ranks_of(models: int, files: int) -> int:
    """How many ranks ``models`` make in ``files`` files (the last may be partial)."""
    if models <= 0:
        return 0
    return math.ceil(models / files_of(models, files))


# --- trays -----------------------------------------------------------------------------------------------


def block_tray(centre: XY, facing: float, models: int, files: int, cell: Cell) -> Tray:
    """The tray of a block of ``models`` in ``files`` files of ``cell`` cells, placed by its centre."""
    if models <= 0:
        raise ValueError("a block needs at least one model")
    f = files_of(models, files)
    at = (float(centre[0]), float(centre[1]))
    return Tray(at, normal_facing(facing), float(f * cell[0]), float(ranks_of(models, f) * cell[1]))


def block_tray_at_front(front_centre: XY, facing: float, models: int, files: int, cell: Cell) -> Tray:
    """The tray of a block placed by the middle of its front edge."""
    tray = block_tray(front_centre, facing, models, files, cell)
    (fx, fy), _ = tray.axes()
    half = tray.depth / 2
    return tray.moved((front_centre[0] - fx * half, front_centre[1] - fy * half))


def cell_dims(tray: Tray, models: int, files: int) -> Cell:
    """The cell of a tray laid out for ``models`` in ``files`` files (the tray is a whole number of cells)."""
    f = files_of(models, files)
    return (tray.frontage / f, tray.depth / ranks_of(models, f))


def _slots(models: int, files: int) -> list[tuple[float, int]]:
    """Each model's (file position from the left in cells, centre of its cell; rank) in the block."""
    f = files_of(models, files)
    out: list[tuple[float, int]] = []
    for i in range(models):
        rank, file = divmod(i, f)
        in_rank = min(f, models - rank * f)
        shift = (f - in_rank) / 2  # a partial last rank is centred behind the others
        out.append((file + shift + 0.5, rank))
    return out


APART_EPS: Final = 1e-9
"""Rounding slack (inches) of ``surely_apart``'s bound."""


def surely_apart(a: Tray, b: Tray, by: float) -> bool:
    """Whether the trays are surely more than ``by`` inches apart: their centres' distance less both
    half-diagonals (never more than their true gap) exceeds it. A cheap test before ``tray_gap``."""
    reach = (math.hypot(a.frontage, a.depth) + math.hypot(b.frontage, b.depth)) / 2
    return math.dist(a.centre, b.centre) - reach > by + APART_EPS


def model_trays(tray: Tray, models: int, files: int) -> list[Tray]:
    """Each model's cell as a small tray facing the unit's way: index 0 front-left, front rank first."""
    return list(_model_trays(tray, models, files))


@lru_cache(maxsize=4096)
def _model_trays(tray: Tray, models: int, files: int) -> tuple[Tray, ...]:
    """``model_trays`` worked out once per block (the observation and every shot ask again)."""
    if models <= 0:
        return ()
    f = files_of(models, files)
    cw, cd = cell_dims(tray, models, f)
    (fx, fy), (rx, ry) = tray.axes()
    cx, cy = tray.centre
    out = []
    for pos, rank in _slots(models, f):
        u = pos * cw - tray.frontage / 2  # to the right of the centre
        w = tray.depth / 2 - (rank + 0.5) * cd  # ahead of the centre
        out.append(Tray((cx + rx * u + fx * w, cy + ry * u + fy * w), tray.facing, cw, cd))
    return tuple(out)


def model_cells(tray: Tray, models: int, files: int) -> list[Polygon]:
    """Each model's cell as a polygon: index 0 front-left, front rank first, a partial last rank centred."""
    return list(_model_cells(tray, models, files))


@lru_cache(maxsize=4096)
def _model_cells(tray: Tray, models: int, files: int) -> tuple[Polygon, ...]:
    """``model_cells`` built once per block (shapely polygons are immutable: shared safely)."""
    return tuple(t.polygon() for t in _model_trays(tray, models, files))


def model_points(tray: Tray, models: int, files: int) -> list[XY]:
    """Each model's centre (the middle of its cell), in model order."""
    return [t.centre for t in model_trays(tray, models, files)]


# --- fighting --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitGeo:
    """What the geometry needs of a unit: its tray, how many models it has and in how many files."""

    tray: Tray
    models: int
    files: int


def touching(unit: UnitGeo, enemy: Tray, *, contact_eps: float = CONTACT_EPS) -> list[int]:
    """The models of ``unit`` whose cells lie within ``contact_eps`` of the enemy tray (CD-FI-01)."""
    return [
        i
        for i, c in enumerate(model_trays(unit.tray, unit.models, unit.files))
        if tray_gap(c, enemy) <= contact_eps
    ]


def fighters(
    attacker: UnitGeo,
    defender_tray: Tray,
    *,
    fights_together: bool,
    reach: int,
    contact_eps: float = CONTACT_EPS,
) -> list[int]:
    """The model indices of ``attacker`` that fight ``defender_tray``, sorted (CD-FI-01, CD-FI-02, CD-AC-04).

    The models whose cells touch the enemy fight; in a formation unit (``fights_together``) any touch brings
    in the whole front rank; with a reach-2 weapon each rank-2 model right behind a fighting front-rank
    model (their cells overlapping sideways) fights too. No touch: nobody fights.
    """
    if tray_gap(attacker.tray, defender_tray) > contact_eps:
        return []  # the trays do not touch: no model can (the common case, asked often)
    cells = model_trays(attacker.tray, attacker.models, attacker.files)
    fight = {i for i, c in enumerate(cells) if tray_gap(c, defender_tray) <= contact_eps}
    if not fight:
        return []
    f = files_of(attacker.models, attacker.files)
    if fights_together:
        fight.update(range(min(f, attacker.models)))
    if reach >= REACH_RANK + 1:
        front = [i for i in fight if i // f == REACH_RANK - 1]
        for j in range(REACH_RANK * f, min((REACH_RANK + 1) * f, attacker.models)):
            uj = attacker.tray.local(cells[j].centre)[0]
            for i in front:
                ui = attacker.tray.local(cells[i].centre)[0]
                if cells[i].frontage - abs(ui - uj) > REACH_OVERLAP:
                    fight.add(j)
                    break
    return sorted(fight)


# --- losses, reforming, charging -------------------------------------------------------------------------


def after_losses(tray: Tray, models_before: int, models_after: int, files: int) -> tuple[Tray, int]:
    """The tray and files after casualties from the rear: the front edge stays, the tray shrinks (CD-MS-10).

    When fewer models than files are left the files become the models, centred on the same front.
    """
    if models_after <= 0:
        raise ValueError("no models left: a destroyed unit has no tray")
    if models_after > models_before:
        raise ValueError("losses cannot add models")
    cell = cell_dims(tray, models_before, files)
    new_files = files_of(models_after, files)
    return block_tray_at_front(tray.front_centre(), tray.facing, models_after, new_files, cell), new_files


def reform(
    tray: Tray, models: int, files: int, cell: Cell, *, facing: float | None = None
) -> tuple[Tray, int]:
    """A new block (the new files and cell) about the same front centre, facing as given or as before."""
    new_files = files_of(models, files)
    new_facing = tray.facing if facing is None else facing
    return block_tray_at_front(tray.front_centre(), new_facing, models, new_files, cell), new_files


def charge_end(charger: Tray, target: Tray) -> Tray:
    """Where a charger ends: facing the side the engage line meets, flush and centred on it (CD-MS-16)."""
    return contact_position(charger, target, engaged_edge(charger, target))


def coherent(tray: Tray, models: int, files: int, base: Cell, limit: float) -> bool:
    """Whether the laid-out models keep coherency: all linked by bases at most ``limit`` apart (CD-AC-05/06).

    Bases are ``base`` rectangles centred in their cells; the distance is edge to edge.
    """
    points = [tray.local(p) for p in model_points(tray, models, files)]
    if len(points) <= 1:
        return True
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        ui, wi = points[i]
        for j, (uj, wj) in enumerate(points):
            if j in seen:
                continue
            du = max(0.0, abs(ui - uj) - base[0])
            dw = max(0.0, abs(wi - wj) - base[1])
            if math.hypot(du, dw) <= limit + COHERENCY_SLACK:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(points)
