"""Sensors to orders: a piece lifted lights its moves, one put down acts the move, a snapshot infers it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from iwgt.core.errors import GameError
from iwgt.core.table import Piece
from iwgt.hardware.frames import held_lights
from iwgt.hardware.orders import Changed, Lifted, Moved, PutBack
from iwgt.hardware.protocol import SensorEvent, Snapshot, TableCell
from iwgt.server.bridge.gate import _why_not
from iwgt.server.bridge.state import SENSOR, _Device, _Held
from iwgt.table.plain import table_of

if TYPE_CHECKING:
    from iwgt.server.session import TableSession

from iwgt.server.bridge.base import _Base

log = logging.getLogger("iwgt.bridge")


class _Orders(_Base):
    """``TableBridge``'s turning of sensor events into the game's acts."""

    # -- sensors to orders -------------------------------------------------------------------------------

    async def _apply(self, dev: _Device, ev: SensorEvent) -> None:
        """One event in order: the tracker's order, played on the bound game table."""
        session = self._session(dev)
        expected = self._expected(dev, session)
        blocked_before = self.blocked(dev, air=False)  # its own piece in the air does not stop its move
        order = dev.tracker.on_event(ev, expected)
        dev.ignored.pop(ev.cell, None)  # a carried-on cell that changes is read again
        dev.dirty = True
        if isinstance(order, Lifted):
            dev.held = self._held(dev, session, order, expected)
        elif isinstance(order, PutBack):
            dev.held = None
        elif isinstance(order, Moved):
            dev.held = None
            if session is not None:
                client_id = f"hw:{dev.id}:{ev.session}:{ev.seq}"
                await self._move(dev, session, order, client_id, blocked_before)
        elif isinstance(order, Changed):
            if dev.tracker.held is None:
                dev.held = None
            if dev.refusal is not None and dev.refusal[0] == ev.cell and ev.event == "lifted":
                dev.refusal = None  # the refused piece is taken off its cell
            if ev.event == "placed" and dev.tracker.held is None and session is not None:
                # A piece put down whose lift was not seen (lifted before a power cycle, or before the table
                # was read): one piece missing and this one more is its move, as after a snapshot (E2).
                await self._one_moved(dev, session, f"hw:{dev.id}:{ev.session}:{ev.seq}", to=ev.cell)

    def _held(
        self, dev: _Device, session: TableSession | None, order: Lifted, expected: Mapping[TableCell, Piece]
    ) -> _Held:
        piece = expected.get(order.cell)
        name = piece.name if piece is not None else f"unit {order.unit}"
        note: str | None = None
        if session is not None:
            live = session.live
            try:
                note = held_lights(live.plugin, live.game, live.state, order.seat, order.unit)[2]
            except GameError as exc:
                note = exc.message
        return _Held(order.unit, order.seat, name, order.cell, note)

    async def _move(
        self,
        dev: _Device,
        session: TableSession,
        order: Moved,
        client_id: str,
        blocked: str | None,
        *,
        quiet: bool = False,
    ) -> bool:
        """A piece put down on another cell: the selection's move to that cell, acted as its seat; a move
        refused lights the cell red with the reason (unless ``quiet``). Whether the move was taken."""

        def refuse(reason: str) -> bool:
            if not quiet:
                dev.refusal, dev.refused_from = (order.to, reason), order.origin
            return False

        live = session.live
        if blocked is not None:
            return refuse(blocked)
        place = self._placement(dev, session)
        to = place.to_game(order.to) if place is not None else None
        if to is None:
            return refuse("that cell is off the game's board")
        try:
            out = table_of(live.plugin).selection(live.game, live.state, order.seat, order.unit)
        except GameError as exc:
            return refuse(exc.message)
        moves = out.get("moves") or []
        action = next((m["action"] for m in moves if tuple(m.get("to") or ()) == tuple(to)), None)
        if action is None:
            note = out.get("note")
            why = None if note else _why_not(live, order.seat, moves, to)
            return refuse(str(note) if note else why or f"that piece cannot go to [{to[0]}, {to[1]}] now")
        self.sensor_acting = dev
        try:
            accepted = await live.act(order.seat, action, client_id, origin=SENSOR)
        except GameError as exc:
            return refuse(exc.message)
        finally:
            self.sensor_acting = None
        dev.refusal = None
        if accepted.repeated:
            session.broadcast()
        else:
            session.after_step()
        return True

    async def _infer(self, dev: _Device, snap: Snapshot, *, check: bool = False) -> None:
        """A move the referee did not hear (its events lost while the broker was away): after a snapshot, one
        piece gone from its cell and one piece more on a cell it may move to is that move. Anything else stays
        divergence for the players to put right. After a ``check`` (heartbeat, piece in the air) only the
        held piece's landing is taken."""
        session = self._session(dev)
        if session is None:
            return
        held = dev.tracker.held
        if held is not None:
            await self._landed_unheard(dev, session, snap, held)
            return
        if check:
            return
        if await self._one_moved(dev, session, f"hw:{dev.id}:{snap.session}:s{snap.seq}"):
            log.info("physical table %s: a move made unheard was taken from its snapshot", dev.id)

    async def _one_moved(
        self, dev: _Device, session: TableSession, client_id: str, *, to: TableCell | None = None
    ) -> bool:
        """Exactly one expected piece missing and one piece more (on ``to``, if given), nothing else
        differing: that piece's move there, taken if the rules allow it (quiet: no red light if not); whether
        it was."""
        differing = self.divergent(dev)
        missing = [d for d in differing if d.want == "piece"]
        extra = [d for d in differing if d.want == "empty"]
        if len(differing) != 2 or len(missing) != 1 or len(extra) != 1:
            return False
        if to is not None and extra[0].cell != to:
            return False
        piece = self._expected(dev, session).get(missing[0].cell)
        seats = session.row.seats
        if piece is None or not 0 <= piece.seat < len(seats) or seats[piece.seat] != "human":
            return False  # a bot's piece out of place is put right by hand, never a move of the bot's
        order = Moved(piece.unit, piece.seat, missing[0].cell, extra[0].cell)
        return await self._move(dev, session, order, client_id, None, quiet=True)

    async def _landed_unheard(
        self, dev: _Device, session: TableSession, snap: Snapshot, held: Lifted
    ) -> None:
        """The piece in the air put down on another cell, its "placed" event inside the snapshot (so dropped
        as seen): a snapshot that crosses a placement (sensor and snapshot are two topics, in no order between
        them) shows its origin still empty and one piece more. That is the placement, taken as its event would
        have been (a refusal lights red)."""
        differing = self.divergent(dev)  # the origin is not divergent while the piece is in the air
        if len(differing) != 1 or differing[0].want != "empty" or held.cell in dev.tracker.sensed:
            return
        dev.tracker.held, dev.held = None, None
        order = Moved(held.unit, held.seat, held.cell, differing[0].cell)
        await self._move(dev, session, order, f"hw:{dev.id}:{snap.session}:s{snap.seq}", None)
