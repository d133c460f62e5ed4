"""A rig for the bridge's tests: a journal with one game table, the referee's bridge and a simulated table.

Everything runs on one event loop (``asyncio.run`` per test) against a real broker (conftest's ``broker``):
the table's side is ``SimTable``, the same client a person drives on the simulated table's page. Waits are on
conditions with generous timeouts, never on the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.games.valkyrx.kit import scenario_text

import iwgt.hardware
from iwgt.core.record import GameRecord
from iwgt.core.registry import get_game
from iwgt.core.table import Piece
from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.places import Placement, placement
from iwgt.hardware.protocol import TableCell
from iwgt.hardware.sim import SimTable
from iwgt.server.bridge import TableBridge, _Device
from iwgt.server.clock import SYSTEM_CLOCK, Clock
from iwgt.server.manager import TableManager
from iwgt.server.session import TableSession
from iwgt.table.plain import table_of

JSON = dict[str, Any]

WAIT = 30.0
"""How long a test waits for a condition (generous: a loaded 2-core machine, eight engineers)."""

LAYOUT = Path(iwgt.hardware.__file__).parent / "data" / "table-16x12.toml"
"""A 16 x 12 table: a 12 x 9 board fits it."""

DEVICE = "t1"
GAME = get_game("valkyrx")

LIGHT: Sequence[tuple[str, tuple[int, int]]] = (("guardsmen", (2, 1)), ("guardsmen", (2, 6)))
DARK: Sequence[tuple[str, tuple[int, int]]] = (("wearg_warriors", (9, 7)), ("wearg_warriors", (9, 2)))


def record(
    light: Sequence[Any] = LIGHT, dark: Sequence[Any] = DARK, seats: Sequence[str] = ("human", "human")
) -> JSON:
    """An import body: a 12 x 9 position, two people (or ``seats``), no movement timer, seeded dice."""
    rec = GameRecord("valkyrx", GAME.rules_version, "test", scenario_text(light, dark), seed=3, dice="seeded")
    return {**rec.to_json(), "seats": list(seats), "timer_seconds": 0}


async def until(pred: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """Wait until ``pred()`` is truthy (its value returned); an AssertionError naming ``what`` after
    ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = pred()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(0.02)


@asynccontextmanager
async def unstarted_bridge(tmp_path: Path) -> AsyncIterator[tuple[TableManager, TableBridge]]:
    """A journal's manager and a bridge never started (nothing is sent: fed by hand), stopped after."""
    manager = TableManager(tmp_path / "tables.sqlite3", bot_delay=0.0)
    manager.start()
    try:
        yield manager, TableBridge(manager, MqttUrl("127.0.0.1", 1))
    finally:
        manager.stop()


@dataclass
class Rig:
    """The journal's manager, the game table, the bridge and the simulated table."""

    manager: TableManager
    session: TableSession
    bridge: TableBridge
    sim: SimTable
    layout: Layout
    place: Placement

    @property
    def dev(self) -> _Device:
        """The bridge's record of the simulated table."""
        return self.bridge.devices[DEVICE]

    def view(self) -> JSON:
        """The views' ``hardware`` field now."""
        hw = self.session.snapshot().hardware
        assert hw is not None
        return hw

    def tc(self, game_cell: Sequence[int]) -> TableCell:
        """The table cell of a game cell."""
        cell = self.place.to_table((game_cell[0], game_cell[1]))
        assert cell is not None, game_cell
        return cell

    def pieces(self) -> list[Piece]:
        """The public pieces of the game now."""
        live = self.session.live
        adapter: Any = table_of(live.plugin)
        out: list[Piece] = adapter.pieces(live.game.observe(live.state, None))
        return out

    def mover_move(self) -> tuple[Piece, JSON]:
        """A piece of the seat to move and its selection's first move."""
        live = self.session.live
        seat = live.to_move
        adapter = table_of(live.plugin)
        for piece in self.pieces():
            if piece.seat != seat:
                continue
            moves = adapter.selection(live.game, live.state, seat, piece.unit).get("moves") or []
            if moves:
                return piece, moves[0]
        raise AssertionError("the seat to move has no piece that may move")

    async def settled(self) -> None:
        """Wait until the table is read and agrees with the game."""
        await until(lambda: self.dev.synced and self.bridge.blocked(self.dev) is None, "the table to agree")

    def frame_id(self) -> int:
        """The id of the last frame the simulated table received (0: none yet)."""
        return 0 if self.sim.frame is None else self.sim.frame.frame


async def confirm_deployment(session: TableSession) -> None:
    """Both seats confirm their deployment: the table rolls who moves first, and the movement phase starts."""
    await session.live.act(0, {"type": "confirm"}, None)
    await session.live.act(1, {"type": "confirm"}, None)
    session.after_step()


@asynccontextmanager
async def rig(
    tmp_path: Path,
    broker: Any,
    *,
    bind: bool = True,
    device: str = DEVICE,
    seats: Sequence[str] = ("human", "human"),
    clock: Clock = SYSTEM_CLOCK,
    bot_delay: float = 0.0,
) -> AsyncIterator[Rig]:
    """A game in its movement phase, its pieces standing on the simulated table, the bridge bound to it."""
    manager = TableManager(tmp_path / "tables.sqlite3", bot_delay=bot_delay, clock=clock)
    manager.start()
    session = await manager.import_record(record(seats=seats))
    await confirm_deployment(session)
    live = session.live
    layout = load_layout(LAYOUT)
    adapter: Any = table_of(live.plugin)
    obs = live.game.observe(live.state, None)
    place = placement(layout, adapter.surface(obs))
    sim = SimTable(layout, device, broker.url_table)
    cells = [place.to_table(p.cell) for p in adapter.pieces(obs)]
    sim.table.stand([c for c in cells if c is not None])
    bridge = TableBridge(manager, MqttUrl.parse(broker.url_referee))
    await bridge.start()
    sim_task = asyncio.get_running_loop().create_task(sim.run())
    r = Rig(manager, session, bridge, sim, layout, place)
    try:
        await until(lambda: device in bridge.devices and bridge.devices[device].online, "the table's birth")
        if bind:
            await bridge.bind(device, session.row.id)
            await r.settled()
        yield r
    finally:
        await sim.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sim_task, 10)
        sim_task.cancel()
        await bridge.stop()
        manager.stop()
