"""The state every part of ``TableBridge`` shares, and the methods one part calls on another.

``TableBridge`` (``table.py``) is made of parts, one module each: the connection (``pump.py``), the
messages in (``messages.py``), sensors to orders (``orders.py``) and the game's side
(``game_side.py``); this base declares for the type checker what they share (set by
``TableBridge.__init__``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import aiomqtt

from iwgt.core.table import Piece, Surface
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.orders import Lifted
from iwgt.hardware.places import Placement
from iwgt.hardware.protocol import SensorEvent, Snapshot, TableCell
from iwgt.hardware.reconcile import Divergent
from iwgt.server.bridge.state import _Device, _Held, _Pending

if TYPE_CHECKING:
    from iwgt.server.manager import TableManager
    from iwgt.server.session import TableSession


class _Base:
    """What the parts of ``TableBridge`` share: its attributes (set in its ``__init__``)."""

    manager: TableManager
    url: MqttUrl
    referee: str  # the referee's own client id
    devices: dict[str, _Device]
    pending: dict[str, _Pending]
    connected: asyncio.Event
    sensor_acting: _Device | None
    frames: int
    _commands: int
    _seen: dict[str, tuple[tuple[str, int, int], tuple[Surface, list[Piece]] | None]]
    _client: aiomqtt.Client | None
    _wake: asyncio.Event
    _task: asyncio.Task[None] | None
    _stopping: bool
    _tasks: set[asyncio.Task[Any]]

    if TYPE_CHECKING:
        # The methods one part calls on another (each defined once, in its own module).

        def _forget(self, device: str) -> None: ...

        def wake(self) -> None: ...

        async def handle(self, name: str, payload: bytes) -> None: ...

        def _device(self, device: str) -> _Device: ...

        def _time(self) -> float: ...

        async def _apply(self, dev: _Device, ev: SensorEvent) -> None: ...

        def _held(
            self,
            dev: _Device,
            session: TableSession | None,
            order: Lifted,
            expected: Mapping[TableCell, Piece],
        ) -> _Held: ...

        async def _infer(self, dev: _Device, snap: Snapshot, *, check: bool = False) -> None: ...

        def _journal(self) -> Any: ...

        def _loaded(self, dev: _Device) -> TableSession | None: ...

        def _session(self, dev: _Device) -> TableSession | None: ...

        def _surface(self, session: TableSession) -> Surface | None: ...

        def _placement(self, dev: _Device, session: TableSession) -> Placement | None: ...

        def _expected(self, dev: _Device, session: TableSession | None) -> dict[TableCell, Piece]: ...

        def divergent(self, dev: _Device) -> tuple[Divergent, ...]: ...

        def blocked(self, dev: _Device, *, air: bool = True) -> str | None: ...

        async def _refresh(self, dev: _Device) -> None: ...

        def _ask_snapshot(self, dev: _Device, *, force: bool = False, check: bool = False) -> None: ...
