"""Reconciliation: where the physical table (what its sensors read) differs from the game (its pieces).

Pure: no I/O, no clock. The bridge calls ``divergence`` after every sensed change and every step, lights the
cells it returns (a piece missing, a piece where none should be, a piece with the wrong tag) and holds the
game until they are gone or carried on.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Literal

from iwgt.core.table import Piece
from iwgt.hardware.protocol import TableCell

Want = Literal["piece", "empty", "tag"]
"""What a divergent cell wants: its piece put back, its piece taken off, or the right piece instead."""


@dataclass(frozen=True)
class Divergent:
    """A table cell where the sensors and the game disagree, and what it wants to agree again."""

    cell: TableCell
    want: Want
    unit: int | None = None
    name: str | None = None


def divergence(
    expected: Mapping[TableCell, Piece],
    sensed: Mapping[TableCell, str | None],
    *,
    held_from: TableCell | None = None,
    tags: Mapping[int, str] = {},
    ignored: Set[TableCell] = frozenset(),
) -> tuple[Divergent, ...]:
    """The cells where the table differs from the game, in sorted cell order.

    ``expected`` are the table cells where the game has a piece; ``sensed`` the cells the sensors read
    occupied, with the tag read there (``None`` for presence sensors). ``held_from`` is the origin of the
    piece in the air: its cell reads empty while the piece is held, which is no divergence. ``tags`` binds
    units to the tags of their miniatures (identity sensors): a cell of unit ``u`` that reads a tag other
    than ``u``'s, or a tag bound to another unit, wants the right piece (``tag``). ``ignored`` cells were
    carried on.
    """
    unit_of_tag = {tag: unit for unit, tag in tags.items()}
    by_unit = {piece.unit: piece for piece in expected.values()}
    out: list[Divergent] = []
    for cell in sorted(expected.keys() | sensed.keys()):
        if cell == held_from or cell in ignored:
            continue
        piece = expected.get(cell)
        if cell not in sensed:
            if piece is not None:
                out.append(Divergent(cell, "piece", piece.unit, piece.name))
            continue
        tag = sensed[cell]
        other = unit_of_tag.get(tag) if tag is not None else None
        if piece is None:
            # Occupied where the game has nothing: name the piece when its tag says which one it is.
            tagged = by_unit.get(other) if other is not None else None
            if tagged is None:
                out.append(Divergent(cell, "empty"))
            else:
                out.append(Divergent(cell, "empty", tagged.unit, tagged.name))
        elif tag is not None:
            bound = tags.get(piece.unit)
            if (bound is not None and bound != tag) or (other is not None and other != piece.unit):
                out.append(Divergent(cell, "tag", piece.unit, piece.name))
    return tuple(out)
