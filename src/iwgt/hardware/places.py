"""Where a game's places fall on a physical table: its cells, spots, areas and regions as table cells.

A ``Placement`` is how one game's ``Surface`` sits on one table ``Layout`` (the decisions, documented in
docs/hardware.md):

- **A board of hex cells** is centred on the table: shifted ``(columns - width) // 2`` columns and
  ``(rows - height) // 2`` rows, the row shift rounded down to an even number so that odd-r parity (which rows
  are shoved half a cell right) and so every neighbour is kept. A board larger than the table is refused
  (``PlacementError``, saying both sizes).
- **An inch board or a map of regions** (W x H inches) is scaled uniformly to fit the table and centred on
  it. The rectangle it fits is the table's ``covered`` one (its extent less the half-cell notches along the
  edges), so every point of the board lies over a cell.
- **A spot** lights every table cell whose centre lies in the scaled disc (its edge included), else the one
  cell nearest its centre; **an area** or **a region** (its outline from ``Surface.outlines``) every cell
  whose centre lies inside the scaled polygon (its edge included), else the one nearest its centroid. The
  cell centres are in a shapely STRtree; ties go to the first cell row by row. ``cells_of`` is cached per
  place.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from iwgt.core.lights import Cell, Light, Point
from iwgt.core.table import Surface
from iwgt.hardware.layout import Layout
from iwgt.hardware.protocol import TableCell

__all__ = ["Placement", "PlacementError", "placement"]

_Place = tuple[Cell | None, Point | None, float | None, tuple[Point, ...] | None, str | None]


class PlacementError(ValueError):
    """A game's surface that cannot be laid on a table, or a light whose place the surface does not have."""


class Placement:
    """How a game's surface sits on a table: game cells and inches to table cells, and back."""

    def __init__(
        self,
        layout: Layout,
        surface: Surface,
        shift: tuple[int, int] = (0, 0),
        scale: float = 1.0,
        offset: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        self.layout = layout
        self.surface = surface
        self.shift = shift
        """Cells: the table cell of game cell (c, r) is (c + shift[0], r + shift[1])."""
        self.scale = scale
        """Inches and regions: table inches per game inch."""
        self.offset = offset
        """Inches and regions: where the game's (0, 0) lies on the table, in table inches."""
        self._cache: dict[_Place, tuple[TableCell, ...]] = {}
        self._tree: STRtree | None = None
        self._order: list[TableCell] = []

    def __repr__(self) -> str:
        kind = self.surface.kind
        where = f"shift={self.shift}" if kind == "cells" else f"scale={self.scale:.4f}, offset={self.offset}"
        return (
            f"Placement({kind} {self.surface.width} x {self.surface.height} on {self.layout.name!r}, {where})"
        )

    def to_table(self, game_cell: Cell) -> TableCell | None:
        """The table cell under a game cell (None off the game's board, or on a surface without cells)."""
        if self.surface.kind != "cells":
            return None
        c, r = game_cell
        if not (0 <= c < self.surface.width and 0 <= r < self.surface.height):
            return None
        return (c + self.shift[0], r + self.shift[1])

    def to_game(self, table_cell: TableCell) -> Cell | None:
        """The game cell on a table cell (None beside the game's board, or on a surface without cells)."""
        if self.surface.kind != "cells":
            return None
        c, r = table_cell[0] - self.shift[0], table_cell[1] - self.shift[1]
        if not (0 <= c < self.surface.width and 0 <= r < self.surface.height):
            return None
        return (c, r)

    def to_table_point(self, point: Point) -> Point:
        """A point of an inch board or a map (game inches) in the table's inches."""
        return (self.offset[0] + point[0] * self.scale, self.offset[1] + point[1] * self.scale)

    def to_game_point(self, point: Point) -> Point:
        """A point of the table (inches) in the game's inches (it may lie off the game's board)."""
        return ((point[0] - self.offset[0]) / self.scale, (point[1] - self.offset[1]) / self.scale)

    def cells_of(self, light: Light) -> list[TableCell]:
        """The table cells a light falls on, sorted (none for a game cell off the board)."""
        key: _Place = (light.cell, light.at, light.radius, light.area, light.region)
        found = self._cache.get(key)
        if found is None:
            found = self._find(light)
            self._cache[key] = found
        return list(found)

    def _find(self, light: Light) -> tuple[TableCell, ...]:
        place = light.place
        if place == "cell":
            if self.surface.kind != "cells":
                raise PlacementError(
                    f"a light on cell {light.cell} but the game is played on {self.surface.kind}"
                )
            assert light.cell is not None
            cell = self.to_table(light.cell)
            return () if cell is None else (cell,)
        if self.surface.kind == "cells":
            raise PlacementError(f"a light on a {place} but the game is played on hex cells")
        if place == "spot":
            assert light.at is not None and light.radius is not None
            centre = ShapelyPoint(self.to_table_point(light.at))
            return self._inside(centre, centre, light.radius * self.scale)
        if place == "area":
            assert light.area is not None
            return self._polygon(light.area, f"area {list(light.area)}")
        assert light.region is not None
        outline = self.surface.outlines.get(light.region)
        if outline is None:
            raise PlacementError(f"a light on region {light.region!r}, which the surface has no outline for")
        return self._polygon(outline, f"region {light.region!r}")

    def _polygon(self, corners: Sequence[Point], what: str) -> tuple[TableCell, ...]:
        if len(corners) < 3:
            raise PlacementError(f"{what}: an outline needs at least three corners")
        shape: BaseGeometry = Polygon([self.to_table_point(p) for p in corners])
        if not shape.is_valid:
            shape = shapely.make_valid(shape)  # a self-crossing outline: its parts, not an error
        if shape.is_empty or shape.area == 0:
            raise PlacementError(f"{what}: the outline encloses nothing")
        return self._inside(shape, shape.centroid, None)

    def _inside(
        self, shape: BaseGeometry, anchor: ShapelyPoint, radius: float | None
    ) -> tuple[TableCell, ...]:
        """The cells whose centres the shape covers (a disc: within ``radius`` of its centre), else the one
        nearest ``anchor``."""
        tree = self._centres()
        if radius is not None:
            hits = tree.query(shape, predicate="dwithin", distance=radius)
        else:
            hits = tree.query(shape, predicate="covers")
        if len(hits) == 0:
            hits = np.array([int(np.min(tree.query_nearest(anchor, all_matches=True)))])
        return tuple(sorted(self._order[int(i)] for i in hits))

    def _centres(self) -> STRtree:
        if self._tree is None:
            self._order = list(self.layout.cells())
            centres = np.array([self.layout.centre(cell) for cell in self._order], dtype=float)
            points = shapely.points(centres)  # all at once: ten times quicker than one Point at a time
            assert isinstance(points, np.ndarray)
            self._tree = STRtree(points)
        return self._tree


def placement(layout: Layout, surface: Surface) -> Placement:
    """How a game's surface sits on a table (PlacementError: a board of cells larger than the table)."""
    if surface.kind == "cells":
        width, height = surface.width, surface.height
        if width != int(width) or height != int(height) or width < 1 or height < 1:
            raise PlacementError(f"a board of cells must be whole columns and rows, got {width} x {height}")
        w, h = int(width), int(height)
        if w > layout.columns or h > layout.rows:
            raise PlacementError(
                f"the game's board is {w} x {h} cells but the table has {layout.columns} x {layout.rows}"
            )
        # An even row shift keeps odd rows odd: the shoved rows, so all neighbours, stay as the game has them.
        return Placement(layout, surface, shift=((layout.columns - w) // 2, (layout.rows - h) // 2 // 2 * 2))
    if not (surface.width > 0 and surface.height > 0):
        raise PlacementError(f"a board must have a size, got {surface.width} x {surface.height} inches")
    x0, y0, x1, y1 = layout.covered
    scale = min((x1 - x0) / surface.width, (y1 - y0) / surface.height)
    offset = (
        x0 + ((x1 - x0) - surface.width * scale) / 2,
        y0 + ((y1 - y0) - surface.height * scale) / 2,
    )
    return Placement(layout, surface, scale=scale, offset=offset)
