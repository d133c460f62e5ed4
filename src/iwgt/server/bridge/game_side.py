"""The game's side of a bound table: what the game expects on it, what differs, what blocks, the views."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON
from iwgt.core.table import PhysicalTable, Piece, Surface
from iwgt.hardware.places import Placement, PlacementError, placement
from iwgt.hardware.protocol import TableCell
from iwgt.hardware.reconcile import Divergent, divergence
from iwgt.server.bridge.gate import _back, _Link, _words
from iwgt.server.bridge.state import _ABSENT, _Device
from iwgt.table.plain import table_of

if TYPE_CHECKING:
    from iwgt.server.bridge.table import TableBridge
    from iwgt.server.session import TableSession

from iwgt.server.bridge.base import _Base

log = logging.getLogger("iwgt.bridge")


class _GameSide(_Base):
    """``TableBridge``'s comparison of the table with its game, and the screens' view of it."""

    # -- what the game expects on the table ---------------------------------------------------------------

    def _journal(self) -> Any:
        return self.manager.journal

    def _loaded(self, dev: _Device) -> TableSession | None:
        return None if dev.table is None else self.manager.sessions.get(dev.table)

    def _session(self, dev: _Device) -> TableSession | None:
        """The bound game table's session (loaded and linked on first use), or None."""
        if dev.table is None:
            return None
        session = self.manager.sessions.get(dev.table)
        if session is None:
            try:
                session = self.manager.get(dev.table)
            except KeyError:  # the game table was deleted: its device is free again
                log.info("table %s is gone: physical table %s is free", dev.table, dev.id)
                dev.table, dev.placed, dev.shown, dev.was_blocked = None, None, None, False
                dev.dirty = True
                self._forget(dev.id)
                return None
            except GameError:  # a journal that does not load: bound still, shown nothing
                return None
        if session.hardware is None or getattr(session.hardware, "device", None) is not dev:
            link = _Link(cast("TableBridge", self), dev)  # this part is only ever a TableBridge's
            session.hardware = link
            session.live.gate = link.gate
        return session

    def _observed(self, session: TableSession) -> tuple[Surface, list[Piece]] | None:
        """The game's surface and public pieces now (the spectator's observation), read once per version."""
        live = session.live
        key = (live.row.id, live.version, id(live.state))
        cached = self._seen.get(key[0])
        if cached is not None and cached[0] == key:
            return cached[1]
        adapter = table_of(live.plugin)
        out: tuple[Surface, list[Piece]] | None = None
        if isinstance(adapter, PhysicalTable):
            obs = live.game.observe(live.state, None)
            out = (adapter.surface(obs), adapter.pieces(obs))
        self._seen[key[0]] = (key, out)
        return out

    def _surface(self, session: TableSession) -> Surface | None:
        observed = self._observed(session)
        return None if observed is None else observed[0]

    def _placement(self, dev: _Device, session: TableSession) -> Placement | None:
        """The game's surface laid on the table (cached while the surface and the layout stay)."""
        if dev.layout is None:
            return None
        surface = self._surface(session)
        if surface is None:
            return None
        if dev.placed is not None and dev.placed[0] == surface and dev.placed[1] is dev.layout:
            got = dev.placed[2]
            return got if isinstance(got, Placement) else None
        try:
            place = placement(dev.layout, surface)
        except PlacementError as exc:
            # Kept like a success: said once (a table re-born too small), and the gate says why.
            log.warning("physical table %s cannot show table %s: %s", dev.id, dev.table, exc)
            dev.placed = (surface, dev.layout, exc)
            return None
        dev.placed = (surface, dev.layout, place)
        return place

    def _misfit(self, dev: _Device, session: TableSession) -> str | None:
        """Why the bound game's board does not fit the table as it was last born, or None."""
        self._placement(dev, session)
        got = None if dev.placed is None else dev.placed[2]
        if not isinstance(got, PlacementError) or dev.layout is None:
            return None
        return (
            f"the physical table {dev.id} is now {dev.layout.columns} x {dev.layout.rows} and cannot show "
            f"this game ({got}): free it in the lobby"
        )

    def _expected(self, dev: _Device, session: TableSession | None) -> dict[TableCell, Piece]:
        """The table cells where the game has a public piece (none where the sensors follow no piece)."""
        observed = None if session is None else self._observed(session)
        if session is None or observed is None or observed[0].kind != "cells":
            return {}
        place = self._placement(dev, session)
        if place is None:
            return {}
        out: dict[TableCell, Piece] = {}
        for piece in observed[1]:
            cell = place.to_table(piece.cell)
            if cell is not None:
                out[cell] = piece
        return out

    def divergent(self, dev: _Device) -> tuple[Divergent, ...]:
        """The cells where the bound table differs from its game (none while it is not read yet)."""
        session = self._session(dev)
        if session is None or not dev.synced or self._misfit(dev, session) is not None:
            return ()  # not read yet, or the game does not fit the table: no cell to name
        held = dev.tracker.held
        expected = self._expected(dev, session)
        sensed = dev.tracker.sensed
        for cell, piece in expected.items():
            if cell in sensed and cell not in dev.ignored:
                dev.stood.add((piece.unit, cell))
        return divergence(
            expected,
            sensed,
            held_from=None if held is None else held.cell,
            tags=dev.tracker.tags,
            ignored=frozenset(dev.ignored),
        )

    def blocked(self, dev: _Device, *, air: bool = True) -> str | None:
        """Why the bound game may not move on now, or None; ``air``: a piece in the air stops it too (no
        screen may act meanwhile: its ``placed`` may be lost, and the game must not move on without it)."""
        session = self._session(dev)
        if session is None:
            return None
        if not dev.online:
            return f"the physical table {dev.id} is offline: the game waits for it (or free it in the lobby)"
        misfit = self._misfit(dev, session)
        if misfit is not None:
            return misfit
        if not dev.synced:
            return (
                f"the game waits for the physical table {dev.id} to say what stands on it "
                "(or free it in the lobby)"
            )
        differing = self.divergent(dev)
        if not differing:
            held = dev.held
            if air and held is not None:
                return f"{held.name} is in the air: put it down on the table first"
            return None
        place = self._placement(dev, session)
        return "the table differs from the game: " + "; ".join(
            _words(d, place, back=_back(dev, d)) for d in differing
        )

    # -- the touchscreen's side ---------------------------------------------------------------------------

    def hardware_view(self, dev: _Device) -> JSON:
        """The view's ``hardware`` field (docs/protocol.md): public, the same for every seat."""
        session = self._session(dev)
        place = None if session is None else self._placement(dev, session)

        def game_cell(cell: TableCell) -> list[int] | None:
            to = place.to_game(cell) if place is not None else None
            return None if to is None else [to[0], to[1]]

        held = dev.held
        refusal = dev.refusal
        return {
            "device": dev.id,
            "online": dev.online,
            "held": None
            if held is None
            else {"unit": held.unit, "name": held.name, "cell": game_cell(held.cell), "note": held.note},
            "refusal": None if refusal is None else {"cell": game_cell(refusal[0]), "reason": refusal[1]},
            "divergent": [
                {
                    "cell": game_cell(d.cell),
                    "table_cell": [d.cell[0], d.cell[1]],
                    "want": d.want,
                    "unit": d.unit,
                    "name": d.name,
                    "back": _back(dev, d),
                }
                for d in self.divergent(dev)
            ],
            "blocked": self.blocked(dev),
            "lights": "the table's lights could not be computed: see the server's log"
            if dev.lights_failed
            else None,
        }

    def carry_on(self, dev: _Device) -> None:
        """The players play on past the cells read wrongly now; each is read again once it changes. Never a
        refused placement's two cells: the sensors saw that piece move (no sensor fault), and it goes back by
        hand (the game must not move on with the piece where the rules forbid it)."""
        keep = set() if dev.refusal is None else {dev.refusal[0], dev.refused_from}
        for d in self.divergent(dev):
            if d.cell not in keep:
                dev.ignored[d.cell] = dev.tracker.sensed.get(d.cell, _ABSENT)
        dev.dirty = True
        task = asyncio.get_running_loop().create_task(self._refresh(dev))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh(self, dev: _Device) -> None:
        """After a change: the screens get the new hardware field, the lights follow, a held game plays on."""
        dev.dirty = True
        self.wake()
        session = self._session(dev)
        if session is None:
            return
        view = self.hardware_view(dev)
        # The mover's timer waits while the game waits for the table (not for a piece in the air: a player
        # must not stop his clock by holding a piece), and runs on with its time left once it agrees.
        waiting = self.blocked(dev, air=False) is not None
        clock = session.clock.pause() if waiting else session.clock.resume()
        if view != dev.shown or clock:
            dev.shown = view
            session.broadcast()
        blocked = view["blocked"] is not None
        if not blocked:
            # Whatever the gate held back goes on: a timer's end owed, and the bot, whose driver stops at a
            # refusal (a bot's own move makes the table differ until its piece is moved by hand, and its next
            # action was refused meanwhile). Both are no-ops when nothing waits.
            await session.unblocked()
        dev.was_blocked = blocked
