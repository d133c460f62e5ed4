"""A table as its views see it at one version: a plain value, built once per broadcast.

The live table makes snapshots and the views read them, so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from iwgt.core.chance import Die
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import JSON, Event, Seat, visible_events


@dataclass(slots=True)
class Batch:
    """One accepted step and the dice that followed it: what one acknowledgement covers, one log entry."""

    version: int
    actor: Seat
    action: JSON | None  # None for a die entered by a player, or the table's own opening dice
    events: list[Event]  # typed, as the game made them: the table adapter matches them by class
    origin: str = "player"  # who took the step: the journal's origin ("player", "bot", "timer", ...)
    seen: dict[Seat | None, JSON] = field(default_factory=dict)  # its log entry per seat, built once

    def visible(self, seat: Seat | None) -> list[Event]:
        """The batch's events the seat may see, still typed (the log's JSON is built from these)."""
        return visible_events(self.events, seat)


@dataclass(frozen=True, slots=True)
class UndoFacts:
    """Who may take back the last step now, why the others may not, and an undo waiting for consent."""

    by: Seat | None = None  # the seat that may take back the last step now (asking first if ``consent``)
    reasons: tuple[tuple[Seat, str], ...] = ()  # every other human seat, and why it may not
    humans: tuple[Seat, ...] = ()  # the seats people play: one of them answers another's undo
    request: Seat | None = None  # the seat whose undo waits for another player's answer
    declined: Seat | None = None  # the seat whose undo was just declined (until the game moves on)

    def consent(self, seat: Seat) -> bool:
        """Whether the seat's undo waits for another player's yes (another human plays at this table)."""
        return any(h != seat for h in self.humans)

    def reason(self, seat: Seat | None) -> str | None:
        """Why the seat may not take back the last step now (None if it may)."""
        if seat is None:
            return "a spectator takes nothing back"
        if seat == self.by:
            return None
        return dict(self.reasons).get(seat, "nothing to undo")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """All a seat's view is built from: the game, its state and version, the log, the timer, the die."""

    table: str  # the table's id
    game: AnyGame
    plugin: GamePlugin
    state: Any
    version: int
    to_move: Seat | None  # CHANCE while a die is awaited, None when the game is over or quit
    log: tuple[Batch, ...]  # the recent steps, oldest first
    timer: JSON | None  # the movement timer as a view shows it
    die: Die | None  # the die the players must roll by hand, if one is awaited
    dice: str  # "table" or "physical"
    status: str  # "playing", "over" or "quit"
    result: JSON | None
    undo: UndoFacts = UndoFacts()
    hardware: JSON | None = None  # the bound physical table as every seat sees it (server/bridge/), or None
