"""The screens connected to one table, and sending each its own view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from iwgt.core.protocol import JSON, Seat
from iwgt.server.snapshot import Snapshot
from iwgt.server.views import undo_view, view_for


@dataclass(eq=False, slots=True)
class Screen:
    """One connected screen: the seats its credential holds, and how to send it a message."""

    seats: frozenset[Seat]
    send: Callable[[JSON], None]
    view_seat: Seat | None = None
    tag: str = ""

    def choose_view_seat(self, to_move: Seat | None) -> Seat | None:
        """The seat this screen shows: its own, or at a shared touchscreen the seat to act (pass and play)."""
        if to_move is not None and to_move in self.seats:
            self.view_seat = to_move
        elif self.view_seat is None:
            self.view_seat = min(self.seats) if self.seats else None
        return self.view_seat


class Screens:
    """A table's screens: each is sent the view of the seat it shows, built once per seat and snapshot."""

    def __init__(self) -> None:
        self._screens: set[Screen] = set()

    def add(self, screen: Screen) -> None:
        """A screen joins (after its hello)."""
        self._screens.add(screen)

    def discard(self, screen: Screen) -> None:
        """A screen leaves."""
        self._screens.discard(screen)

    def send_view(self, screen: Screen, snap: Snapshot) -> None:
        """Send one screen its view (a screen that just joined, or a retried message's answer)."""
        seat = screen.choose_view_seat(snap.to_move)
        screen.send(
            {**view_for(snap, seat), **undo_view(snap, screen.seats, seat), "seats": sorted(screen.seats)}
        )

    def broadcast(self, snap: Snapshot) -> None:
        """Send every screen its own view."""
        cache: dict[Seat | None, JSON] = {}
        for screen in list(self._screens):
            seat = screen.choose_view_seat(snap.to_move)
            if seat not in cache:
                cache[seat] = view_for(snap, seat)
            # undo_view: what the screen's own seats may take back (a shared touchscreen holds several)
            screen.send({**cache[seat], **undo_view(snap, screen.seats, seat), "seats": sorted(screen.seats)})

    def close(self, reason: str) -> None:
        """Tell every screen the table is gone."""
        for screen in list(self._screens):
            screen.send({"type": "closed", "reason": reason})
