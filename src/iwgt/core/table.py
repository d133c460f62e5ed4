"""The table adapter: what one game's table shows, as pure functions the server calls for every seat.

An adapter turns a seat's observation and the events it may see (the game's own ``Event`` objects, which it
matches by class: a renamed event breaks an import or a test, never silently a light) into lights, cards and
the health-bar report, and asks the game (``legal_actions``, ``apply``) for a seat's options, a picked-up
unit's destinations and the preview of an action. It does no I/O, reads no clock and draws no random
numbers, so a view is a function of the journal. Each game's plug-in builds its own (``GamePlugin.table``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from iwgt.core.lights import Cell, Light, Point
from iwgt.core.protocol import JSON, Event, Game, Seat

AnyGame = Game[Any, Any]
"""Any game of the platform; each adapter checks the state is its own."""


class TableAdapter(Protocol):
    """One game's table: lights, options, selections, previews, the report and the character cards."""

    def lights(
        self,
        observation: JSON,
        events: Sequence[Event],
        seat: Seat | None,
        *,
        movable: Sequence[int] = (),
    ) -> list[Light]:
        """Standing lights of the observation plus the transient lights of the last step's events.

        ``events`` are the step's ``Event`` objects the seat may see (``visible_events``), typed as the game
        made them; ``movable`` are the units lit for the seat's move (``options(...)["movable"]``). Never
        reads the state.
        """
        ...

    def options(self, game: AnyGame, state: Any, seat: Seat) -> JSON:
        """``{"movable": [unit ids], "actions": [every other legal action as JSON]}`` for the seat now."""
        ...

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked-up unit's legal destinations, their lights, and the expected casualties of its attacks.

        The contract a physical table's bridge relies on (a piece lifted and placed becomes the order a
        tap-and-tap gives): on a hex board the answer has ``"moves": [{"to": [c, r], "action": {...}},
        ...]``, one entry per legal action that ends the unit on a cell, the default move to a cell before
        any other move to the same cell (the bridge plays the first whose ``to`` is the cell the piece was put
        on), ``"lights"`` (the lights of the destinations, as JSON) and an optional ``"note"``: why the piece
        cannot move (a sentence for the touchscreen), when it cannot.
        """
        ...

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Whether the action is legal now (and why not), and its expected casualties where it has any."""
        ...

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """The red light of a refused action's destination (a cell, VX-14-03; a spot on a free table)."""
        ...

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """The report after a step (a combat phase's health bars, the dice rolled), from the ``Event``
        objects the seat may see; else None."""
        ...

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """The character cards the seat's touchscreen shows."""
        ...


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece standing on a cell of a hex board, as every seat sees it: what the table's sensors follow."""

    unit: int
    cell: Cell
    seat: Seat
    name: str


@dataclass(frozen=True, slots=True)
class Surface:
    """What a game is played on, for a physical table: hex cells, an inch board, or a map of regions.

    Inches (a free table's and a map's outlines) have their origin at the board's bottom-left corner and y
    pointing up, away from the screen's bottom edge: the board's top edge (y = height) lies on the table's
    far edge, the row the screen draws at the top. A game whose own points have y down turns them
    (y -> height - y).
    """

    kind: Literal["cells", "inches", "regions"]
    width: float  # cells: columns; inches and regions: inches
    height: float  # cells: rows; inches and regions: inches
    # regions: each region's polygon in inches (left out of the hash: a mapping has none; equality keeps it)
    outlines: Mapping[str, tuple[Point, ...]] = field(default_factory=dict, hash=False)


@runtime_checkable
class PhysicalTable(Protocol):
    """What a physical table needs of a game's adapter: the surface to lay on it and the pieces to sense.

    Both read only the spectator's observation (what every seat sees), so a table's sensors and lights can
    never follow a secret.
    """

    def surface(self, observation: JSON) -> Surface:
        """The game's board as a physical table lays it out: its cells, its inches or its regions."""
        ...

    def pieces(self, observation: JSON) -> list[Piece]:
        """The public pieces standing on cells ([] where the sensors follow no piece: free tables, maps)."""
        ...
