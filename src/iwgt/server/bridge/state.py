"""The bridge's state of each physical table (``_Device``), its timings, and the commands awaiting an ack.

Plain data: ``table.py`` (``TableBridge``) reads and changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from iwgt.core.protocol import JSON, Seat
from iwgt.core.referee import SENSOR as _SENSOR
from iwgt.core.table import Surface
from iwgt.hardware.layout import Layout
from iwgt.hardware.orders import Tracker
from iwgt.hardware.places import Placement, PlacementError
from iwgt.hardware.protocol import Birth, Command, FrameLight, SensorEvent, TableCell
from iwgt.hardware.sequence import Sequencer

SENSOR = _SENSOR
"""The journal's origin of a step a piece lifted and put down on the table made (undone as a player's is)."""

DIVERGED = "table_diverged"
"""The code of an act refused while the physical table differs from the game."""

RETRY_S = 1.0
"""Seconds between re-sends of a command not yet acknowledged (or, a snapshot, not yet answered), and at least
between two snapshot commands sent to one device, whatever happens."""

HELD_CHECK_S = 2.0
"""While a piece is in the air, a snapshot is asked this often: a lost ``placed`` (the last event, so no later
one shows the gap) is found by it."""

HEARTBEAT_S = 15.0
"""A bound table is asked a snapshot at least this often (a lost last event of any kind is found by it)."""

TICK_S = 0.1
"""How often the bridge looks for gaps that timed out and commands to re-send."""

STOP_S = 5.0
"""How long the server's shutdown waits for the bridge's connection, then for its embedded broker."""

_ABSENT = object()
"""A carried-on cell that read empty when the players carried on."""


@dataclass(slots=True)
class _Held:
    """A piece in the air, as the views show it."""

    unit: int
    seat: Seat
    name: str
    cell: TableCell  # the table cell it was lifted from
    note: str | None


@dataclass(eq=False)
class _Device:
    """One physical table as the bridge knows it."""

    id: str
    birth: Birth | None = None
    layout: Layout | None = None
    online: bool = False
    session: int = 0
    table: str | None = None  # the game table it is bound to
    sequencer: Sequencer = field(default_factory=Sequencer)
    tracker: Tracker = field(default_factory=Tracker)
    synced: bool = False  # a snapshot of the current session was applied
    held: _Held | None = None
    refusal: tuple[TableCell, str] | None = None
    refused_from: TableCell | None = None  # where the refused piece stands in the game (while ``refusal``)
    ignored: dict[TableCell, object] = field(default_factory=dict)  # carried on: the cell's reading then
    # (unit, table cell) where the table has held that piece as the game had it: a piece missing there is put
    # "back"; one the game (a bot, an undo, a screen) moved where it never stood is put "on" its cell.
    stood: set[tuple[int, TableCell]] = field(default_factory=set)
    snapshot_cmd: str | None = None  # the snapshot command waiting for its answer
    asked_at: float | None = None  # when a snapshot command was last sent to it (at most one per RETRY_S)
    ahead: list[SensorEvent] = field(default_factory=list)  # events of a newer session, until the snapshot
    # The snapshot outstanding is only a check (the heartbeat, a piece in the air): nothing was lost that the
    # referee knows of, so its answer infers no move but the held piece's landing (a game step the table has
    # not followed yet, an undo, must never be "inferred" back from the table every HEARTBEAT_S).
    checking: bool = False
    # The game's surface laid on this table, or why it does not fit (both kept while surface and layout stay).
    placed: tuple[Surface, Layout, Placement | PlacementError] | None = None
    lights_failed: bool = False  # the last frame could not be computed (a bug: the view says so)
    sent: tuple[FrameLight, ...] | None = None  # the lights last published
    dirty: bool = True  # the lights may have changed: the pump recomputes them
    force: bool = False  # publish the frame even if unchanged (a birth, a reconnect)
    shown: JSON | None = None  # the hardware view the screens last got
    was_blocked: bool = False


@dataclass(slots=True)
class _Pending:
    """A command sent and not yet acknowledged."""

    device: str
    command: Command
    sent_at: float
