"""The simulated table's page: a FastAPI app of its own that draws a ``SimTable`` and takes a person's hands.

``GET /`` serves ``web/tablesim.html``; ``/static/`` the page's script and style; ``/web/`` the touchscreen's
modules (the page draws its hex cells with the touchscreen board's own geometry). ``/ws`` first sends the
table's layout, then the sim's state whenever it changed (checked RATE_HZ times a second: the rendered LED
colours move with animated lights), and takes the person's actions (``{"op": "lift", "cell": [c, r]}``...).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from iwgt.hardware.protocol import SensorEvent
from iwgt.hardware.sim import SimError, SimTable

log = logging.getLogger(__name__)

WEB = Path(__file__).with_name("web")
"""The page's own files."""
SHELL_WEB = Path(__file__).resolve().parents[1] / "web"
"""The touchscreen's modules (board.js: the hex geometry the page shares)."""
DEFAULT_LAYOUT = Path(__file__).with_name("data") / "table-30x20.toml"
"""The table the sim is when given no layout: 30 x 20 cells, 3 LEDs each."""
RATE_HZ = 10
"""How often the state is looked at for a change (and so the page's LED refresh rate at most)."""
LOG_LINES = 12
"""Sensor messages the page lists."""


class StateHub:
    """The sim's state as the page sees it, rebuilt RATE_HZ times a second and numbered when it changes."""

    def __init__(self, sim: SimTable) -> None:
        self.sim = sim
        self.version = 0
        self.state: bytes = b""
        self._changed = asyncio.Event()
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_LINES)
        self.watchers = 0
        """Pages connected now."""

    def note(self, kind: str, text: str) -> None:
        """Keep a line for the page's log (sent events, faults, refusals)."""
        self.log.appendleft({"kind": kind, "text": text})

    def build(self) -> bytes:
        """The state now, as JSON bytes."""
        sim = self.sim
        table = sim.table
        held = table.in_hand
        frame = sim.frame
        data = {
            "type": "state",
            "device": sim.device,
            "online": sim.online,
            "plugged": sim.plugged.is_set(),
            "session": table.session,
            "seq": table.seq,
            "frame": frame.frame if frame is not None else None,
            "referee": frame.referee if frame is not None else None,
            "referee_online": sim.referee_online,
            "pieces": [[c, r, tag] for (c, r), tag in sorted(table.pieces.items())],
            "stuck": sorted([c, r] for c, r in table.stuck),
            "in_hand": None if held is None else {"tag": held.tag, "origin": held.origin},
            "queued": len(sim.queue),
            "drop_pending": sim.pending_drops,
            "dropped": sim.dropped,
            "published": sim.published,
            "refusal": sim.refusal.message if sim.refusal is not None else None,
            "effects": sorted({light.effect for light in frame.lights}) if frame is not None else [],
            # the page's legend: each effect of the frame with its (first) colour
            "colours": {} if frame is None else {lt.effect: lt.colour for lt in reversed(frame.lights)},
            "leds": sim.leds().tobytes().hex(),
            "log": list(self.log),
        }
        return orjson.dumps(data)

    async def run(self) -> None:
        """Look at the state RATE_HZ times a second; wake the sockets when it changed."""
        while True:
            if not self.watchers:  # nobody looks: no rendering (a page that comes gets the last state first)
                await asyncio.sleep(1 / RATE_HZ)
                continue
            try:
                state = self.build()
            except Exception:  # a rendering bug must not stop the page: log it, keep the last state
                log.exception("the simulated table's state could not be built")
                state = self.state
            if state != self.state:
                self.state = state
                self.version += 1
                self._changed.set()
                self._changed = asyncio.Event()
            await asyncio.sleep(1 / RATE_HZ)

    async def next(self, seen: int) -> tuple[int, bytes]:
        """The state once its version is past ``seen``."""
        while self.version <= seen:
            await self._changed.wait()
        return self.version, self.state


def layout_message(sim: SimTable) -> bytes:
    """What the page needs once: the grid and each cell's LEDs."""
    layout = sim.layout
    cells = [[c, r, list(leds)] for (c, r), leds in sorted(layout.cells().items())]
    return orjson.dumps(
        {
            "type": "layout",
            "device": sim.device,
            "sensor": sim.table.sensor,
            "columns": layout.columns,
            "rows": layout.rows,
            "led_count": layout.led_count,
            "gamma": layout.gamma,
            "brightness": layout.brightness,
            "cells": cells,
        }
    )


def _cell(msg: dict[str, Any]) -> tuple[int, int]:
    cell = msg.get("cell")
    if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(x, int) for x in cell)):
        raise SimError("the action needs a cell [column, row]")
    return int(cell[0]), int(cell[1])


def act(sim: SimTable, hub: StateHub, msg: dict[str, Any]) -> None:
    """Do one of the person's actions on the sim; SimError says why it cannot be done."""
    op = msg.get("op")
    events: list[SensorEvent] = []
    note: tuple[str, str] | None = None
    if op == "lift":
        events = sim.lift(_cell(msg))
    elif op == "place":
        events = sim.place(_cell(msg))
    elif op == "box_take":
        sim.take_from_box()
    elif op == "box_put":
        sim.put_in_box()
    elif op == "drop_next":
        sim.drop_next(int(msg.get("n", 1)))
        note = ("fault", "the next sensor message will be lost")
    elif op == "power_cycle":
        sim.power_cycle()
        note = ("fault", f"power cycle: the controller reboots into session {sim.table.session}")
    elif op == "unplug":
        sim.unplug()
        note = ("fault", "network unplugged: sensor messages wait in the controller")
    elif op == "plug":
        sim.plug()
        note = ("fault", "network plugged back")
    elif op == "stick":
        cell = _cell(msg)
        on = bool(msg.get("on", cell not in sim.table.stuck))
        note = ("fault", f"sensor {list(cell)} {'stuck on' if on else 'freed'}")
        events = sim.stick(cell, on)
    elif op == "knock":
        cell = _cell(msg)
        events = sim.knock(cell)
        note = ("fault", f"the piece on {list(cell)} knocked over")
    elif op == "tidy":
        events = sim.tidy()
        note = ("tidy", f"followed the lights: {len(events)} sensor messages")
    else:
        raise SimError(f"unknown action {op!r}")
    if note is not None:
        hub.note(*note)
    for ev in events:
        tag = f" tag {ev.tag}" if ev.tag else ""
        lost = " (lost)" if (ev.session, ev.seq) in sim.lost else ""
        hub.note("lost" if lost else "sensor", f"#{ev.seq} {ev.event} {list(ev.cell)}{tag}{lost}")


def create_app(sim: SimTable) -> FastAPI:
    """The page's app for one simulated table (the sim itself runs beside it: see ``serve``)."""
    app = FastAPI(title=f"Simulated table {sim.device}", docs_url=None, redoc_url=None, openapi_url=None)
    hub = StateHub(sim)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.mount("/web", StaticFiles(directory=SHELL_WEB), name="web")

    @app.get("/")
    async def page() -> FileResponse:
        return FileResponse(WEB / "tablesim.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/api/state")
    async def state() -> JSONResponse:
        return JSONResponse(orjson.loads(hub.build()))

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_bytes(layout_message(sim))

        async def push() -> None:
            seen = 0
            while True:
                seen, data = await hub.next(seen)
                await ws.send_text(data.decode())

        async def take() -> None:
            while True:
                text = await ws.receive_text()
                try:
                    msg = orjson.loads(text)
                    act(sim, hub, msg if isinstance(msg, dict) else {})
                except (SimError, orjson.JSONDecodeError, TypeError, ValueError) as exc:
                    await ws.send_text(orjson.dumps({"type": "error", "message": str(exc)}).decode())

        tasks = [asyncio.create_task(push()), asyncio.create_task(take())]
        hub.watchers += 1
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            hub.watchers -= 1
            for t in tasks:
                t.cancel()
            with contextlib.suppress(WebSocketDisconnect, asyncio.CancelledError, Exception):
                await asyncio.gather(*tasks, return_exceptions=True)

    return app


async def serve(sim: SimTable, host: str = "127.0.0.1", port: int = 8100) -> None:
    """Run the sim's MQTT side and its page until the process is told to stop."""
    import uvicorn

    app = create_app(sim)
    hub: StateHub = app.state.hub
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off"))
    tasks = [asyncio.create_task(sim.run()), asyncio.create_task(hub.run())]
    try:
        await server.serve()
    finally:
        await sim.stop()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(tasks[0], 3)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def main(
    device: str,
    layout_path: Path | None,
    mqtt: str | None,
    port: int,
    sensor: str,
    data: Path | None,
    host: str = "127.0.0.1",
) -> int:
    """``iwgt hardware sim`` / ``iwgt table-sim``: run a simulated table and its page; the exit status."""
    from iwgt.hardware.broker import BrokerError, Credentials, default_data_dir
    from iwgt.hardware.layout import LayoutError, load_layout
    from iwgt.hardware.mqtt import MqttUrl, MqttUrlError
    from iwgt.hardware.protocol import is_device

    if not is_device(device):
        print(f"iwgt table-sim: --device {device!r}: 1 to 32 of a-z, 0-9, _ and -, from a letter or digit")
        return 2
    if sensor not in ("presence", "identity"):
        print(f"iwgt table-sim: --sensor {sensor!r}: presence or identity")
        return 2
    try:
        layout = load_layout(layout_path if layout_path is not None else DEFAULT_LAYOUT)
        if mqtt:
            url = MqttUrl.parse(mqtt)
        else:  # the local broker, as the device's own login (made on first use in the data folder)
            creds = Credentials.of_data(data)
            creds.device(device)
            url = MqttUrl.parse(creds.url(device))
    except (LayoutError, MqttUrlError, BrokerError, OSError) as exc:
        print(f"iwgt table-sim: {exc}")
        return 2
    folder = data if data is not None else default_data_dir()
    sim = SimTable(
        layout,
        device,
        url,
        "identity" if sensor == "identity" else "presence",
        flash=folder / "table-sim" / f"{device}.session",
    )
    print(f"The simulated table {device} ({layout.columns} x {layout.rows} cells, {layout.led_count} LEDs)")
    print(f"is open at http://{host}:{port}/ ; it talks to the broker {url} (session {sim.table.session})")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(sim, host, port))
    return 0
