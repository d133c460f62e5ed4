"""``TableBridge``: the referee's side of the physical tables, over one MQTT connection.

It follows every table's birth, status, sensor events, snapshots and acks, binds devices to game tables,
gates their games, and publishes their lights (see the package's docstring).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

import aiomqtt

from iwgt.core.protocol import JSON
from iwgt.core.table import Piece, Surface
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.places import PlacementError, placement
from iwgt.hardware.protocol import is_device
from iwgt.server.bridge.state import _Device, _Pending
from iwgt.server.errors import TableError

if TYPE_CHECKING:
    from iwgt.server.manager import TableManager

from iwgt.server.bridge.game_side import _GameSide
from iwgt.server.bridge.messages import _Messages
from iwgt.server.bridge.orders import _Orders
from iwgt.server.bridge.pump import _Pump

log = logging.getLogger("iwgt.bridge")


class TableBridge(_Messages, _Orders, _GameSide, _Pump):
    """The referee's side of the physical tables (docs/hardware.md): one per server."""

    def __init__(self, manager: TableManager, url: MqttUrl, *, referee: str | None = None) -> None:
        self.manager = manager
        self.url = url
        self.referee = referee or "r-" + secrets.token_hex(4)
        self.devices: dict[str, _Device] = {}
        self.pending: dict[str, _Pending] = {}
        self.connected = asyncio.Event()  # set while the bridge is logged in to the broker
        self.sensor_acting: _Device | None = None  # the device whose sensor move is being acted
        self.frames = 0  # the last frame id published (frame ids increase over the whole run)
        self._commands = 0
        # Each bound game's surface and pieces, kept while its version (and state) stay the same.
        self._seen: dict[str, tuple[tuple[str, int, int], tuple[Surface, list[Piece]] | None]] = {}
        self._client: aiomqtt.Client | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task[Any]] = set()  # background journal writes, kept until done

    # -- bindings -----------------------------------------------------------------------------------------

    def devices_json(self) -> list[JSON]:
        """Every known table, for ``GET /api/hardware``."""
        out = []
        for dev in sorted(self.devices.values(), key=lambda d: d.id):
            self._session(dev)  # a deleted game table frees its device first
            birth = dev.birth
            out.append(
                {
                    "device": dev.id,
                    "online": dev.online,
                    "session": dev.session if birth is not None else None,
                    "sensor": None if birth is None else birth.sensor,
                    "columns": None if birth is None else birth.columns,
                    "rows": None if birth is None else birth.rows,
                    "cells": None if birth is None else len(birth.cells),
                    "table": dev.table,
                    "divergent": len(self.divergent(dev)),
                }
            )
        return out

    async def bind(self, device: str, table_id: str | None) -> JSON:
        """Bind a device to a game table (or free it): checked, journalled, then linked; the device's JSON.

        KeyError (with the words) for an unknown device or table; a TableError for a board that does not fit
        the table or a game table another device already plays.
        """
        dev = self.devices.get(device) if is_device(device) else None
        if dev is None or (table_id is not None and dev.layout is None):  # freeing one asks no birth
            raise KeyError(f"no physical table {device!r} has announced itself")
        if table_id is not None:
            try:
                session = self.manager.get(table_id)
            except KeyError:
                raise KeyError(f"there is no table {table_id!r}") from None
            other = next((d for d in self.devices.values() if d.table == table_id and d is not dev), None)
            if other is not None:
                raise TableError(
                    "conflict", f"table {table_id} already plays on {other.id}: free that one first"
                )
            surface = self._surface(session)
            if surface is not None and dev.layout is not None:
                try:
                    placement(dev.layout, surface)
                except PlacementError as exc:
                    raise TableError("conflict", str(exc)) from None
        old = self._loaded(dev)
        writer = self.manager.writer
        if writer is not None:
            await writer.write(lambda j: j.bind_hardware(device, table_id))
        else:
            self._journal().bind_hardware(device, table_id)
        if old is not None and dev.table != table_id:
            old.hardware = None
            old.live.gate = None
            old.clock.resume()  # no table to wait for any more
            old.broadcast()
            if dev.was_blocked:
                await old.unblocked()
        dev.table, dev.placed, dev.shown, dev.was_blocked = table_id, None, None, False
        dev.held, dev.refusal, dev.ignored, dev.stood = None, None, {}, set()
        dev.dirty = True
        if table_id is not None and dev.online:
            self._ask_snapshot(dev, force=True)  # read it afresh for its new game
        await self._refresh(dev)
        return next(d for d in self.devices_json() if d["device"] == device)
