"""From lifts and placements to orders: the physical state of one device and the piece in the air.

Pure: no I/O, no clock. The ``Tracker`` keeps what the sensors read (``sensed``: each occupied table cell and
the tag read there) and the piece in the air (``held``). Each sensor event (in order, each once: the
``Sequencer`` sees to that) updates ``sensed`` as a set operation, whatever it means, and becomes one order:

- a lift from a cell where the game has a piece and the table agreed (the cell read occupied, and with
  identity sensors the tag is not another piece's) is ``Lifted``; a second lift makes the first piece's
  origin plain divergence, the new piece is the one in the air;
- with identity sensors a lifted tag bound to a unit identifies that unit wherever it stands: ``Lifted``
  carries the unit's own cell in the game (where an order for it starts);
- a placement of the piece in the air on its own cell is ``PutBack``, elsewhere ``Moved``; a placement on a
  cell that already reads occupied (presence sensors cannot see a second piece), or on the empty cell of
  another piece of the game (that piece put back), or with a tag that is not the held piece's, is no order;
- anything else is ``Changed``: a sensed change that reconciliation judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from iwgt.core.protocol import Seat
from iwgt.core.table import Piece
from iwgt.hardware.protocol import SensorEvent, Snapshot, TableCell


@dataclass(frozen=True)
class Lifted:
    """A piece of the game taken into the air from ``cell`` (the unit's table cell in the game)."""

    unit: int
    seat: Seat
    cell: TableCell


@dataclass(frozen=True)
class PutBack:
    """The piece in the air put down again where it stood: no order, the selection ends."""

    unit: int


@dataclass(frozen=True)
class Moved:
    """The piece in the air put down on another cell: an order to move it there (the rules judge it)."""

    unit: int
    seat: Seat
    origin: TableCell
    to: TableCell


@dataclass(frozen=True)
class Changed:
    """A sensed change that is no order (reconciliation says whether the table now differs from the game)."""

    cell: TableCell


Order = Lifted | PutBack | Moved | Changed
"""What one sensor event means."""


class Tracker:
    """The physical state of one device: the cells its sensors read, units' tags, the piece in the air."""

    def __init__(self) -> None:
        """A tracker that has read nothing yet (its first snapshot fills it)."""
        self.sensed: dict[TableCell, str | None] = {}
        """Occupied table cells and the tag read on each (``None``: presence sensors, or no tag read)."""
        self.held: Lifted | None = None
        """The piece in the air, if any (one at a time)."""
        self.tags: dict[int, str] = {}
        """Units bound to the tags of their miniatures (identity sensors), bound when the table agreed."""
        self.session: int | None = None
        """The device session the state belongs to."""

    def reset(self, snapshot: Snapshot, expected: Mapping[TableCell, Piece] | None = None) -> None:
        """Take a snapshot's cells as the sensed state; bind tags where they agree with ``expected``.

        The piece in the air survives a snapshot of the same session that does not show it landed (its origin
        still reads empty, or its tag is nowhere on the table); a new session (a power cycle) drops it: its
        origin then reads as a missing piece until it is put back.
        """
        new_session = self.session is not None and snapshot.session != self.session
        self.session = snapshot.session
        self.sensed = {occupied.cell: occupied.tag for occupied in snapshot.occupied}
        if self.held is not None and (new_session or self._landed(self.held)):
            self.held = None
        if expected is not None:
            self.bind(expected)

    def bind(self, expected: Mapping[TableCell, Piece]) -> None:
        """Bind each tag read on a unit's own cell to that unit, when neither is bound yet."""
        bound = set(self.tags.values())
        for cell, tag in sorted(self.sensed.items()):
            piece = expected.get(cell)
            if tag is None or piece is None or piece.unit in self.tags or tag in bound:
                continue
            self.tags[piece.unit] = tag
            bound.add(tag)

    def on_event(self, ev: SensorEvent, expected: Mapping[TableCell, Piece]) -> Order:
        """Apply one sensor event (in order) and say what it means; ``expected`` are the game's pieces."""
        if self.session is not None and ev.session != self.session:
            self.held = None  # a power cycle: a lift of the old session means nothing in the new one
        self.session = ev.session
        if ev.event == "lifted":
            order = self._lift(ev, expected)
            self.sensed.pop(ev.cell, None)
        else:
            order = self._place(ev, expected)
            self.sensed[ev.cell] = ev.tag
        return order

    def _unit_of_tag(self, tag: str | None) -> int | None:
        if tag is None:
            return None
        return next((unit for unit, bound in self.tags.items() if bound == tag), None)

    def _landed(self, held: Lifted) -> bool:
        tag = self.tags.get(held.unit)
        if tag is not None:
            return tag in self.sensed.values()
        return held.cell in self.sensed

    def _lift(self, ev: SensorEvent, expected: Mapping[TableCell, Piece]) -> Order:
        owner = self._unit_of_tag(ev.tag)
        if owner is not None:
            # The tag says which piece it is, wherever it stood: its order starts from its cell in the game.
            where = next((cell for cell, piece in expected.items() if piece.unit == owner), None)
            if where is None:
                return Changed(ev.cell)
            self.held = Lifted(owner, expected[where].seat, where)
            return self.held
        piece = expected.get(ev.cell)
        if piece is None or ev.cell not in self.sensed:
            return Changed(ev.cell)  # nothing of the game there, or the table did not agree it was there
        if ev.tag is not None:
            if piece.unit in self.tags:
                return Changed(ev.cell)  # another miniature than the unit's stood on its cell
            self.tags[piece.unit] = ev.tag
        self.held = Lifted(piece.unit, piece.seat, ev.cell)
        return self.held

    def _place(self, ev: SensorEvent, expected: Mapping[TableCell, Piece]) -> Order:
        held = self.held
        if held is None:
            return Changed(ev.cell)
        owner = self._unit_of_tag(ev.tag)
        if ev.tag is not None:
            if owner == held.unit:
                return self._land(held, ev.cell)  # the tag says it is the piece in the air, wherever it lands
            if owner is not None or held.unit in self.tags:
                return Changed(ev.cell)  # another miniature than the one in the air
        if ev.cell == held.cell:
            order = self._land(held, ev.cell)
        elif ev.cell in self.sensed:
            return Changed(ev.cell)  # already occupied: the sensor cannot tell a second piece on it
        elif ev.cell in expected and expected[ev.cell].unit != held.unit:
            return Changed(ev.cell)  # a missing piece of the game put back on its own cell
        else:
            order = self._land(held, ev.cell)
        if ev.tag is not None:
            self.tags[held.unit] = ev.tag
        return order

    def _land(self, held: Lifted, cell: TableCell) -> PutBack | Moved:
        self.held = None
        if cell == held.cell:
            return PutBack(held.unit)
        return Moved(held.unit, held.seat, held.cell, cell)
