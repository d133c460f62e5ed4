"""The physical table's figures (issue 16, section 5) on a 600-cell table with 1,800 LEDs; asserts nothing.

Run with ``.venv/bin/python benchmarks/hardware.py [--events 200] [--cycles 20] [--seconds 10]
[--broker embedded|mosquitto] [--fps 30] [--json]`` (about a minute with the defaults). Everything runs on one
machine, in this process, through a real MQTT broker (the embedded amqtt one, in this event loop as
``iwgt serve --table-bridge`` runs it, or Debian's Mosquitto as a child process) and real UDP sockets:

1. **sensor -> frame latched.** A real game table (the hex game's ``great_battle``, 24 x 18 cells, laid on
   ``table-30x20.toml``: 600 cells, 1,800 LEDs on two DDP controllers) in a journal of its own, the referee's
   bridge (``TableBridge``) bound to a simulated table (``SimTable``), and the LED driver (``LedDriver``
   through ``run_from_mqtt``, as ``iwgt hardware leds`` runs it) sending DDP to two UDP listeners standing
   in for the controllers (``--leds-process``: ``iwgt hardware leds`` itself, in a process of its own; the
   time from the frame made to the push latched is then one stage). Each measured event is a real move of
   a piece: the simulated table publishes ``lifted`` (the bridge lights the piece's destinations), then
   ``placed`` on one of them (the bridge acts the move in the game, journal included, and lights the new
   position). The clock starts when the
   simulated table hands the event to its radio and stops when a listener receives the DDP packet with the
   push flag after which the latched LEDs show the change: the listeners decode every packet, and the
   LEDs checked are those the expected frame (``table_frame`` of the state before the event with the piece
   held, or of the state after the move, rendered by ``Renderer``) lights steadily and differently from
   what the controllers showed before the event. Between events the phases are ended as a touchscreen
   would (``end_phase``). The split (sensor -> bridge has the message -> bridge done (order acted) -> frame
   made (``table_frame``) -> the LED driver has it (encoded, published, through the broker) -> push
   latched) is taken by wrapping the bridge's and the driver's methods on their instances: the code under
   test is unchanged.
2. **LED frames per second.** The driver alone with a frame lighting every cell with an animated pattern
   (flash, wave, flicker, pulse, alternate), ticking for ``--seconds`` at 30 and at 60 fps: ticks, late
   ticks skipped, the rate achieved, the pushes the listeners got a second, and the render and tick times.
3. **power cycle -> resync.** ``SimTable.power_cycle()`` (an unclean drop, the broker sends the will, a
   0.3 s boot, a new session, a birth): the time until the bridge has read a snapshot of the new session and
   sees zero divergent cells (nothing blocks the game).

Targets (the issue): sensor -> frame latched p95 <= 100 ms through the embedded broker; resync <= 2 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.metadata
import json
import math
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import iwgt.hardware
from iwgt.core.lights import PATTERNS
from iwgt.core.protocol import CHANCE
from iwgt.hardware.broker import Credentials, EmbeddedBroker, MosquittoBroker, free_port
from iwgt.hardware.ddp import parse_ddp
from iwgt.hardware.frames import Overlay, table_frame
from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.leds import LedDriver, run_from_mqtt
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.places import Placement, placement
from iwgt.hardware.protocol import Frame, FrameLight, TableCell
from iwgt.hardware.sim import SimTable
from iwgt.server.app import tune_gc
from iwgt.server.bridge import TableBridge
from iwgt.server.manager import CreateRequest, TableManager
from iwgt.server.session import TableSession
from iwgt.table.plain import table_of

LAYOUT = Path(iwgt.hardware.__file__).parent / "data" / "table-30x20.toml"
"""The issue's table: 30 x 20 cells, 3 LEDs a cell (1,800), two DDP controllers of 900 LEDs."""
GAME, SCENARIO = "valkyrx", "great_battle"
"""The game table played: the hex game's biggest scenario (24 x 18 cells, 60 units) fits the table."""
DEVICE = "bench"
LATENCY_TARGET_MS = 100.0
"""The issue's target: p95 sensor event -> frame latched, through the embedded broker."""
RESYNC_TARGET_S = 2.0
"""The issue's target: a controller's power cycle -> full resync with zero divergent cells."""
EVENT_TIMEOUT_S = 5.0
"""An event whose LEDs do not show the change within this is counted as missed (and not in the figures)."""
WAIT_S = 30.0
"""How long the rig waits for a state (a birth, a resync) before it gives up."""
PROBES_MS = (0, 113, 271, 409, 577, 853, 1201, 1733, 2411)
"""Times at which an expected frame is rendered: an LED that is the same at all of them is steady."""

app = typer.Typer(add_completion=False)
JSON = dict[str, Any]


# ---------------------------------------------------------------------------------------------- figures


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def spread(values: Sequence[float], scale: float = 1000.0) -> JSON:
    """p50, p95, max (and n) of seconds, as milliseconds (``scale``)."""
    return {
        "n": len(values),
        "p50": round(scale * percentile(values, 50), 2),
        "p95": round(scale * percentile(values, 95), 2),
        "max": round(scale * max(values), 2) if values else math.nan,
    }


def machine() -> JSON:
    """Cores, load average, Python, and the versions of the MQTT pieces."""

    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    mosquitto = "not installed"
    if MosquittoBroker.available():
        try:
            out = subprocess.run(
                [str(iwgt.hardware.broker.MOSQUITTO), "-h"], capture_output=True, text=True, timeout=5
            )
            found = re.search(r"mosquitto version (\S+)", out.stdout + out.stderr)
            mosquitto = found.group(1) if found else "unknown"
        except (OSError, subprocess.SubprocessError):
            mosquitto = "unknown"
    return {
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "amqtt": version("amqtt"),
        "aiomqtt": version("aiomqtt"),
        "paho-mqtt": version("paho-mqtt"),
        "mosquitto": mosquitto,
    }


# ------------------------------------------------------------------------------------------ the listeners


class Controllers(asyncio.DatagramProtocol):
    """The LED controllers as a UDP listener sees them: DDP packets decoded, each controller's LEDs latched on
    its push packet, and waiters told when the latched strip shows what they expect."""

    def __init__(self, layout: Layout) -> None:
        self.slices = {c.name: s for s in layout.slices() for c in [s.controller]}
        self.led_count = layout.led_count
        self.working = np.zeros((self.led_count, 3), dtype=np.uint8)  # what the packets carried
        self.latched = np.zeros((self.led_count, 3), dtype=np.uint8)  # what the controllers show
        self.pushes = 0
        self.packets = 0
        self.bad = 0
        self.watch: tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8], asyncio.Future[float]] | None = None
        self.transports: list[asyncio.DatagramTransport] = []

    async def listen(self, layout: Layout) -> Layout:
        """A listening socket per controller on a free port; the layout with the controllers sent there."""
        loop = asyncio.get_running_loop()
        controllers = []
        for c in layout.controllers:
            part = self.slices[c.name]
            transport, _ = await loop.create_datagram_endpoint(
                partial(_Port, self, part.start, part.stop), local_addr=("127.0.0.1", 0)
            )
            self.transports.append(transport)
            port = transport.get_extra_info("sockname")[1]
            controllers.append(c.model_copy(update={"host": "127.0.0.1", "port": port}))
        return layout.model_copy(update={"controllers": tuple(controllers)})

    def close(self) -> None:
        """Close the sockets."""
        for t in self.transports:
            t.close()

    def packet(self, data: bytes, start: int, stop: int, at: float) -> None:
        """One DDP packet to the controller whose LEDs are start..stop-1 of the strip."""
        self.packets += 1
        try:
            p = parse_ddp(data)
        except ValueError:
            self.bad += 1
            return
        rgb = p.rgb()
        first = start + p.first_led
        self.working[first : first + len(rgb)] = rgb[: max(0, stop - first)]
        if not p.push:
            return
        self.pushes += 1
        self.latched[start:stop] = self.working[start:stop]
        if self.watch is not None:
            leds, want, done = self.watch
            if not done.done() and np.array_equal(self.latched[leds], want):
                done.set_result(at)
                self.watch = None

    def expect(self, leds: npt.NDArray[np.intp], want: npt.NDArray[np.uint8]) -> asyncio.Future[float]:
        """A future of the time of the push after which the latched LEDs ``leds`` show ``want``."""
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.watch = (leds, want, done)
        return done


class _Port(asyncio.DatagramProtocol):
    def __init__(self, owner: Controllers, start: int, stop: int) -> None:
        self.owner, self.start, self.stop = owner, start, stop

    def datagram_received(self, data: bytes, addr: Any) -> None:
        self.owner.packet(data, self.start, self.stop, time.perf_counter())


# ------------------------------------------------------------------------------------------------ brokers


class NoDelayMosquitto(MosquittoBroker):
    """Mosquitto as ``MosquittoBroker`` configures it, plus ``set_tcp_nodelay true``
    (``--mosquitto-nodelay``): without it Mosquitto leaves Nagle's algorithm on for its clients' sockets."""

    def write_config(self) -> Path:
        """The same files, the option added at the top of mosquitto.conf."""
        path = super().write_config()
        path.write_text("set_tcp_nodelay true\n" + path.read_text())
        return path


async def start_broker(kind: str, folder: Path, *, nodelay: bool = False) -> Any:
    """A broker with the data folder's users on a free port: amqtt in this loop, or Mosquitto."""
    credentials = Credentials.load(folder)
    credentials.device(DEVICE)  # the table and its LED driver log in as the device itself
    if kind == "mosquitto":
        if not MosquittoBroker.available():
            raise typer.BadParameter("Mosquitto is not installed at /usr/sbin/mosquitto (make mosquitto)")
        kind_of = NoDelayMosquitto if nodelay else MosquittoBroker
        broker: Any = kind_of(free_port(), credentials, folder / "mosquitto")
    else:
        broker = EmbeddedBroker("127.0.0.1", free_port(), credentials)
    await broker.start()
    return broker


async def until(pred: Callable[[], Any], what: str, timeout: float = WAIT_S, step: float = 0.002) -> float:
    """Wait until ``pred()`` is truthy; the perf_counter time it was seen. RuntimeError after ``timeout``."""
    end = time.perf_counter() + timeout
    while True:
        if pred():
            return time.perf_counter()
        if time.perf_counter() > end:
            raise RuntimeError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(step)


class GcProbe:
    """The collector's pauses while installed (``gc.callbacks``): count, total and longest, by generation."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._start)

    def __enter__(self) -> GcProbe:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)

    def figures(self) -> JSON:
        """Per generation: collections, total and longest pause in ms."""
        return {
            f"gen{g}": {
                "n": len(p),
                "total_ms": round(1000 * sum(p), 1),
                "max_ms": round(1000 * max(p), 1) if p else 0.0,
            }
            for g, p in self.pauses.items()
        }


# ---------------------------------------------------------------------------------------------------- rig


@dataclass
class Marks:
    """Times (perf_counter) the instrumented methods were called, by kind."""

    times: dict[str, list[float]] = field(default_factory=dict)

    def mark(self, kind: str) -> None:
        self.times.setdefault(kind, []).append(time.perf_counter())

    def first(self, kind: str, after: float) -> float | None:
        """The first time of a kind at or after ``after``."""
        for t in self.times.get(kind, ()):
            if t >= after:
                return t
        return None

    def clear(self) -> None:
        self.times.clear()


@dataclass
class Rig:
    """Broker, journal, game table, bridge, simulated table, LED driver and the listeners, on one loop."""

    broker: Any
    manager: TableManager
    session: TableSession
    bridge: TableBridge
    sim: SimTable
    driver: LedDriver
    listeners: Controllers
    layout: Layout
    place: Placement
    marks: Marks
    tasks: list[asyncio.Task[Any]]
    process: asyncio.subprocess.Process | None = None  # ``iwgt hardware leds`` when it runs apart
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    @property
    def dev(self) -> Any:
        """The bridge's record of the simulated table."""
        return self.bridge.devices[DEVICE]

    def agrees(self) -> bool:
        """The table is read (this session) and agrees with the game: nothing blocks it (a piece in the air is
        the measured half-move itself, not a disagreement)."""
        dev = self.bridge.devices.get(DEVICE)
        return bool(
            dev is not None
            and dev.online
            and dev.synced
            and dev.session == self.sim.table.session
            and self.bridge.blocked(dev, air=False) is None
        )


def instrument(bridge: TableBridge, driver: LedDriver, session: TableSession, marks: Marks) -> None:
    """Wrap the bridge's message handler and frame maker and the driver's ``show`` on their instances, to time
    each stage; the code under test runs unchanged."""
    handle, lights, show, act = bridge.handle, bridge._lights, driver.show, session.live.act

    async def timed_handle(name: str, payload: bytes) -> None:
        leaf = name.rsplit("/", 1)[-1]
        marks.mark(f"{leaf}_in")
        try:
            await handle(name, payload)
        finally:
            marks.mark(f"{leaf}_done")

    def timed_lights(dev: Any) -> tuple[FrameLight, ...]:
        try:
            return lights(dev)
        finally:
            marks.mark(
                "frame_made"
            )  # then encoded and handed to the MQTT client (published unless unchanged)

    def timed_show(frame: Frame) -> None:
        marks.mark("driver_has_frame")
        show(frame)

    async def timed_act(*args: Any, **kw: Any) -> Any:
        marks.mark("act_in")
        try:
            return await act(*args, **kw)
        finally:
            marks.mark("act_done")

    bridge.handle = timed_handle  # type: ignore[method-assign]
    bridge._lights = timed_lights  # type: ignore[method-assign]
    driver.show = timed_show  # type: ignore[method-assign]
    session.live.act = timed_act  # type: ignore[method-assign]


def layout_file(layout: Layout, folder: Path) -> Path:
    """The ready layout's TOML with its controllers' ports replaced by the listeners' (for ``iwgt hardware
    leds`` in a process of its own)."""
    text = LAYOUT.read_text(encoding="utf-8")
    ports = iter(c.port for c in layout.controllers)
    text = re.sub(r"(?m)^port = \d+", lambda _m: f"port = {next(ports)}", text)
    path = folder / "layout.toml"
    path.write_text(text, encoding="utf-8")
    if load_layout(path).controllers != layout.controllers:
        raise RuntimeError(f"{path}: the controllers differ from the listeners'")
    return path


async def make_rig(broker: Any, folder: Path, fps: float, *, leds_process: bool = False) -> Rig:
    """The game table in its first movement phase, its pieces on the simulated table, everything bound; the
    LED driver in this loop, or ``iwgt hardware leds`` in a process of its own (``leds_process``)."""
    manager = TableManager(folder / "tables.sqlite3", bot_delay=0.0)
    manager.start()
    req = CreateRequest.parse(
        {"game": GAME, "scenario": SCENARIO, "seats": ["human", "human"], "timer_seconds": 0, "seed": 7}
    )
    session = await manager.create(req)
    live = session.live
    for seat in (0, 1):
        await live.act(seat, {"type": "confirm"}, None)
    session.after_step()
    await until(lambda: live.to_move not in (None, CHANCE), "the first mover's roll")

    listeners = Controllers(load_layout(LAYOUT))
    layout = await listeners.listen(load_layout(LAYOUT))
    adapter: Any = table_of(live.plugin)
    obs = live.game.observe(live.state, None)
    place = placement(layout, adapter.surface(obs))
    sim = SimTable(layout, DEVICE, broker.url(DEVICE))
    cells = [place.to_table(p.cell) for p in adapter.pieces(obs)]
    sim.table.stand(c for c in cells if c is not None)
    bridge = TableBridge(manager, MqttUrl.parse(broker.url("referee")))
    driver = LedDriver(layout, fps)
    marks = Marks()
    instrument(bridge, driver, session, marks)
    await bridge.start()
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(sim.run())]
    process = None
    if leds_process:
        iwgt = Path(sys.executable).parent / "iwgt"
        args = ["hardware", "leds", "--device", DEVICE, "--layout", str(layout_file(layout, folder))]
        args += ["--mqtt", broker.url(DEVICE), "--fps", f"{fps:g}"]
        process = await asyncio.create_subprocess_exec(
            str(iwgt), *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
    else:
        tasks.append(loop.create_task(run_from_mqtt(broker.url(DEVICE), DEVICE, layout, fps, driver=driver)))
    rig = Rig(broker, manager, session, bridge, sim, driver, listeners, layout, place, marks, tasks, process)
    await until(lambda: DEVICE in bridge.devices and bridge.devices[DEVICE].online, "the table's birth")
    await bridge.bind(DEVICE, session.row.id)
    await until(rig.agrees, "the table to agree with the game")
    await until(lambda: listeners.pushes > 0, "the first LED frame")
    return rig


async def close_rig(rig: Rig) -> None:
    """Stop everything the rig started."""
    await rig.sim.stop()
    rig.driver.stop()
    for task in rig.tasks:
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(task), 3)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    if rig.process is not None and rig.process.returncode is None:
        rig.process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(rig.process.wait(), 5)
        except TimeoutError:
            rig.process.kill()
            await rig.process.wait()
    await rig.bridge.stop()
    rig.manager.stop()
    rig.listeners.close()


# --------------------------------------------------------------------------------- 1: sensor -> latched


@dataclass
class Event:
    """One measured sensor event."""

    kind: str  # lifted / placed
    total: float  # seconds, sensor handed to the radio -> push latched
    stages: dict[str, float]  # seconds of each stage (when every mark was found)
    leds: int  # LEDs checked


STAGES = (
    ("sensor -> bridge has it", "sent", "sensor_in"),
    ("bridge: order acted", "sensor_in", "sensor_done"),
    ("-> frame made", "sensor_done", "frame_made"),
    ("-> LED driver has it (broker)", "frame_made", "driver_has_frame"),
    ("-> push latched", "driver_has_frame", "latched"),
)


APART = "-> push latched (broker, `iwgt hardware leds`)"
"""The last stages at once when the LED driver runs in a process of its own (its ``show`` is not timed)."""
ACTED = "  of which live.act (rules, journal commit)"
"""A part of "bridge: order acted" (a placement's move), not a stage of its own."""


def expected_leds(
    rig: Rig, lights: Sequence[FrameLight]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8]] | None:
    """The LEDs the expected lights show steadily and differently from what the controllers show now."""
    renderer = rig.driver.renderer
    shots = [renderer.render(lights, t) for t in PROBES_MS]
    same = np.all(np.stack([s == shots[0] for s in shots]), axis=(0, 2))
    changed = np.any(shots[0] != rig.listeners.latched, axis=1)
    leds = np.flatnonzero(same & changed).astype(np.intp)
    if len(leds) == 0:
        return None
    return leds, shots[0][leds]


def pick_move(rig: Rig, rng: random.Random, home: dict[int, int]) -> tuple[Any, JSON] | None:
    """A movable piece of the seat to move and one of its moves (staying near its starting row: the armies
    keep apart, so no combat ends the run), or None when the seat has nothing left to move."""
    live = rig.session.live
    seat = live.to_move
    adapter: Any = table_of(live.plugin)
    pieces = {p.unit: p for p in adapter.pieces(live.game.observe(live.state, None))}
    movable = [u for u in adapter.options(live.game, live.state, seat)["movable"] if u in pieces]
    rng.shuffle(movable)
    for unit in movable:
        piece = pieces[unit]
        row = home.setdefault(unit, piece.cell[1])
        moves = [m for m in adapter.selection(live.game, live.state, seat, unit).get("moves") or []]
        firsts: dict[tuple[int, int], JSON] = {}
        for m in moves:  # the bridge takes the first move to a cell: so do we
            firsts.setdefault((m["to"][0], m["to"][1]), m)
        near = [m for m in firsts.values() if abs(m["to"][1] - row) <= 1]
        if near:
            return piece, rng.choice(near)
    return None


async def next_phase(rig: Rig) -> None:
    """End the phase of the seat to move as its touchscreen would (the first action when there is no End)."""
    live = rig.session.live
    seat = live.to_move
    assert seat is not None
    adapter: Any = table_of(live.plugin)
    actions = adapter.options(live.game, live.state, seat)["actions"]
    ends = [a for a in actions if a.get("type") == "end_phase"] or actions
    if not ends:
        raise RuntimeError(f"seat {seat} has nothing to do")
    version = live.version
    await live.act(seat, ends[0], None)
    rig.session.after_step()
    await until(lambda: live.version > version and live.to_move not in (None, CHANCE), "the next phase")


async def settle(rig: Rig, quiet_s: float) -> None:
    """Wait until the table agrees and nothing has been published or pushed for ``quiet_s``."""
    await until(rig.agrees, "the table to agree with the game")
    while True:
        last = max((ts[-1] for ts in rig.marks.times.values() if ts), default=0.0)
        pushes = rig.listeners.pushes
        await asyncio.sleep(quiet_s)
        newest = max((ts[-1] for ts in rig.marks.times.values() if ts), default=0.0)
        if newest == last and rig.listeners.pushes == pushes:
            return


async def one_event(rig: Rig, kind: str, cell: TableCell, lights: Sequence[FrameLight]) -> Event | None:
    """Hand one sensor event to the simulated table's radio; time it until the LEDs show ``lights``."""
    expected = expected_leds(rig, lights)
    if expected is None:
        return None
    # A random wait of up to one LED period first: events then fall at every phase of the driver's ticks, not
    # at the one the previous event's settling left them in (which would bias the figures either way).
    await asyncio.sleep(rig.rng.uniform(0, 1 / rig.driver.fps))
    done = rig.listeners.expect(*expected)
    rig.marks.clear()
    sent = time.perf_counter()
    if kind == "lifted":
        rig.sim.lift(cell)
    else:
        rig.sim.place(cell)
    try:
        latched = await asyncio.wait_for(done, EVENT_TIMEOUT_S)
    except TimeoutError:
        rig.listeners.watch = None
        return Event(kind, math.inf, {}, len(expected[0]))
    marks = {"sent": sent, "latched": latched}
    at = sent
    for _label, _a, b in STAGES[:-1]:
        t = rig.marks.first(b, at)
        if t is None or t > latched:
            break
        marks[b] = at = t
    stages = {label: marks[b] - marks[a] for label, a, b in STAGES if a in marks and b in marks}
    act_in = rig.marks.first("act_in", marks.get("sensor_in", math.inf))
    act_done = None if act_in is None else rig.marks.first("act_done", act_in)
    if act_in is not None and act_done is not None and act_done <= marks.get("sensor_done", -math.inf):
        stages[ACTED] = act_done - act_in
    if "frame_made" in marks and "driver_has_frame" not in marks and rig.process is not None:
        stages[APART] = latched - marks["frame_made"]
    return Event(kind, latched - sent, stages, len(expected[0]))


async def sensor_latency(rig: Rig, events: int, gap_s: float, seed: int, progress: Progress) -> JSON:
    """``events`` sensor events (lift, place, lift...) of real moves, each timed to its push latched."""
    live = rig.session.live
    plugin, game = live.plugin, live.game
    rng = random.Random(seed)
    rig.rng = random.Random(seed + 1)
    home: dict[int, int] = {}
    measured: list[Event] = []
    skipped = phases = 0
    task = progress.add_task("sensor -> LEDs latched", total=events)
    while len(measured) < events:
        await settle(rig, gap_s)
        chosen = pick_move(rig, rng, home)
        if chosen is None:
            await next_phase(rig)
            phases += 1
            continue
        piece, move = chosen
        origin = rig.place.to_table(piece.cell)
        to = rig.place.to_table((move["to"][0], move["to"][1]))
        assert origin is not None and to is not None
        history = live.history[-1].events if live.history else []
        held = table_frame(
            plugin, game, live.state, history, rig.place, Overlay(held=(piece.unit, piece.seat))
        )
        lifted = await one_event(rig, "lifted", origin, held)
        if lifted is None:
            skipped += 1
            rig.sim.lift(origin)
        else:
            measured.append(lifted)
            progress.advance(task)
        await settle(rig, gap_s)
        after, new_events = game.apply(live.state, game.action_from_json(move["action"]))
        lights = table_frame(plugin, game, after, new_events, rig.place, Overlay())
        placed = await one_event(rig, "placed", to, lights)
        if placed is None:
            skipped += 1
            rig.sim.place(to)
        else:
            measured.append(placed)
            progress.advance(task)
    progress.remove_task(task)
    ok = [e for e in measured if math.isfinite(e.total)]
    out: JSON = {
        "events": len(measured),
        "missed": len(measured) - len(ok),
        "unchecked": skipped,
        "phases_ended": phases,
        "total": spread([e.total for e in ok]),
        "lifted": spread([e.total for e in ok if e.kind == "lifted"]),
        "placed": spread([e.total for e in ok if e.kind == "placed"]),
        "leds_checked_median": statistics.median([e.leds for e in measured]) if measured else 0,
        "stages": {},
    }
    labels = [label for label, _a, _b in STAGES]
    for label in [*labels[:2], ACTED, *labels[2:], APART]:
        for kind in ("lifted", "placed"):
            values = [e.stages[label] for e in ok if e.kind == kind and label in e.stages]
            out["stages"][f"{kind}: {label}"] = spread(values)
    return out


# ---------------------------------------------------------------------------------- 2: frames per second


def animated_frame(layout: Layout) -> Frame:
    """A frame lighting every cell with an animated pattern (waves delayed across the table)."""
    animated = [p for p in PATTERNS if p != "steady"]
    colours = ("#ff3b30", "#34c759", "#0a84ff", "#ffcc00", "#bf5af2")
    lights = []
    for i, (c, r) in enumerate(sorted(layout.cells())):
        pattern = animated[(c + r) % len(animated)]
        lights.append(
            FrameLight(
                cell=(c, r),
                effect="bench",
                colour=colours[i % len(colours)],
                pattern=pattern,
                delay_ms=(c * 40) if pattern == "wave" else 0,
            )
        )
    return Frame(v=1, referee="bench", frame=1, lights=tuple(lights))


async def frames_per_second(fps: float, seconds: float) -> JSON:
    """The LED driver alone, every cell animated, ticking ``seconds`` at ``fps`` to two UDP listeners."""
    listeners = Controllers(load_layout(LAYOUT))
    layout = await listeners.listen(load_layout(LAYOUT))
    driver = LedDriver(layout, fps)
    driver.show(animated_frame(layout))
    renders: list[float] = []
    ticks: list[float] = []
    render, tick = driver.renderer.render, driver.tick

    def timed_render(*args: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return render(*args, **kw)
        finally:
            renders.append(time.perf_counter() - t)

    def timed_tick(now: float) -> bool:
        t = time.perf_counter()
        try:
            return tick(now)
        finally:
            ticks.append(time.perf_counter() - t)

    driver.renderer.render = timed_render  # type: ignore[method-assign]
    driver.tick = timed_tick  # type: ignore[method-assign]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    running = asyncio.get_running_loop().create_task(driver.run())
    await asyncio.sleep(seconds)
    driver.stop()
    stats = await running
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    await asyncio.sleep(0.05)  # the last packets in
    listeners.close()
    return {
        "target_fps": fps,
        "seconds": round(wall, 2),
        "ticks": stats.ticks,
        "ticks_late": stats.ticks_late,
        "achieved_fps": round(stats.achieved_fps, 2),
        "frames_sent": stats.frames_sent,
        "pushes_per_s": round(listeners.pushes / len(layout.controllers) / wall, 2),
        "send_errors": stats.send_errors,
        "render_ms": spread(renders),
        "tick_ms": spread(ticks),
        "cpu_cores": round(cpu / wall, 3),
    }


# ---------------------------------------------------------------------------------------- 3: power cycle


def _off(dev: Any, old: int) -> bool:
    return not dev.online or dev.session > old


def _born(dev: Any, new: int) -> bool:
    return bool(dev.online and dev.session >= new)


async def power_cycles(rig: Rig, cycles: int, progress: Progress) -> JSON:
    """``cycles`` power cycles of the simulated controller, each timed until the bridge has resynced."""
    totals: list[float] = []
    offline: list[float] = []
    birth: list[float] = []
    failed = 0
    task = progress.add_task("power cycle -> resync", total=cycles)
    for _ in range(cycles):
        await settle(rig, 0.1)
        t0 = time.perf_counter()
        rig.sim.power_cycle()
        try:
            t_off = await until(partial(_off, rig.dev, rig.sim.table.session - 1), "the will", step=0.001)
            t_birth = await until(partial(_born, rig.dev, rig.sim.table.session), "the birth", step=0.001)
            t_sync = await until(rig.agrees, "the resync", step=0.001)
        except RuntimeError:
            failed += 1
            continue
        offline.append(t_off - t0)
        birth.append(t_birth - t0)
        totals.append(t_sync - t0)
        progress.advance(task)
        if rig.bridge.divergent(rig.dev):
            failed += 1
    progress.remove_task(task)
    return {
        "cycles": cycles,
        "failed": failed,
        "resync": spread(totals),
        "offline_seen": spread(offline),
        "birth_seen": spread(birth),
    }


# ------------------------------------------------------------------------------------------------ the run


def verdict(value: float, target: float) -> str:
    """Met or missed, for a figure against its target (lower is better)."""
    if not math.isfinite(value):
        return "[red]no figure[/]"
    return "[green]met[/]" if value <= target else "[red]missed[/]"


def report(console: Console, figures: JSON) -> None:
    """The figures as tables, each target beside its figure."""
    m = figures["machine"]
    console.print(
        f"machine: {m['cores']} cores, load average {m['load_average']} (after: {m['load_average_after']}), "
        f"Python {m['python']}, {m['platform']}"
    )
    console.print(
        f"amqtt {m['amqtt']}, aiomqtt {m['aiomqtt']}, paho-mqtt {m['paho-mqtt']}, mosquitto {m['mosquitto']}"
    )
    console.print(
        f"table: {figures['table']}; broker: {figures['broker']}; game: {GAME} {SCENARIO}; "
        f"LED driver at {figures['driver_fps']:g} fps"
        + (" (`iwgt hardware leds`, a process apart)" if figures["leds_process"] else " (in this process)")
    )
    lat = figures.get("latency")
    if lat is not None:
        t = Table(title="1. sensor event -> frame latched (ms)")
        for col in ("events", "n", "p50", "p95", "max", "target", "verdict"):
            t.add_column(col, justify="right")
        for name in ("total", "lifted", "placed"):
            s = lat[name]
            target = f"p95 <= {LATENCY_TARGET_MS:g}" if name == "total" else ""
            v = verdict(s["p95"], LATENCY_TARGET_MS) if name == "total" else ""
            t.add_row(name, str(s["n"]), f"{s['p50']:.1f}", f"{s['p95']:.1f}", f"{s['max']:.1f}", target, v)
        console.print(t)
        console.print(
            f"  missed (no LED change within {EVENT_TIMEOUT_S:g} s): {lat['missed']}; events with no LED to "
            f"check: {lat['unchecked']}; LEDs checked per event (median): {lat['leds_checked_median']}; "
            f"phases ended on the touchscreen: {lat['phases_ended']}"
        )
        g = lat["gc"]
        console.print(
            "  the collector meanwhile ("
            + ("tuned as `iwgt serve` does" if figures["tune_gc"] else "Python's defaults")
            + "): "
            + "; ".join(
                f"{k}: {v['n']} collections, {v['total_ms']} ms, longest {v['max_ms']} ms"
                for k, v in g.items()
            )
        )
        s = Table(title="   where the time goes (ms)")
        for col in ("stage", "n", "p50", "p95", "max"):
            s.add_column(col, justify="right" if col != "stage" else "left")
        for label, v in lat["stages"].items():
            if v["n"]:
                s.add_row(label, str(v["n"]), f"{v['p50']:.1f}", f"{v['p95']:.1f}", f"{v['max']:.1f}")
        console.print(s)
    fps = figures.get("fps")
    if fps:
        t = Table(title="2. LED driver, every cell animated (1,800 LEDs, 2 DDP controllers)")
        cols = ("target fps", "achieved", "pushes/s", "ticks", "late", "render p50/p95 ms", "tick p50/p95 ms")
        for col in (*cols, "CPU cores", "verdict"):
            t.add_column(col, justify="right")
        for f in fps:
            late_ok = f["achieved_fps"] >= 0.98 * f["target_fps"]
            t.add_row(
                f"{f['target_fps']:g}",
                f"{f['achieved_fps']:.2f}",
                f"{f['pushes_per_s']:.2f}",
                str(f["ticks"]),
                str(f["ticks_late"]),
                f"{f['render_ms']['p50']:.2f} / {f['render_ms']['p95']:.2f}",
                f"{f['tick_ms']['p50']:.2f} / {f['tick_ms']['p95']:.2f}",
                f"{f['cpu_cores']:.3f}",
                "[green]sustained[/]" if late_ok else "[red]not sustained[/]",
            )
        console.print(t)
    pc = figures.get("power_cycle")
    if pc is not None:
        t = Table(title="3. controller power cycle -> full resync, zero divergent cells (ms)")
        for col in ("from the power cut to", "n", "p50", "p95", "max", "target", "verdict"):
            t.add_column(col, justify="right")
        for name, label in (
            ("offline_seen", "bridge sees it offline"),
            ("birth_seen", "bridge has the birth"),
        ):
            v = pc[name]
            t.add_row(label, str(v["n"]), f"{v['p50']:.0f}", f"{v['p95']:.0f}", f"{v['max']:.0f}", "", "")
        r = pc["resync"]
        t.add_row(
            "resynced, zero divergent",
            str(r["n"]),
            f"{r['p50']:.0f}",
            f"{r['p95']:.0f}",
            f"{r['max']:.0f}",
            f"max <= {1000 * RESYNC_TARGET_S:.0f}",
            verdict(r["max"], 1000 * RESYNC_TARGET_S),
        )
        console.print(t)
        if pc["failed"]:
            console.print(f"  [red]{pc['failed']} cycle(s) did not resync within {WAIT_S:g} s[/]")


async def run_all(opts: JSON, console: Console) -> JSON:
    """Every measurement, in one event loop."""
    figures: JSON = {
        "machine": machine(),
        "broker": opts["broker"] + (" (set_tcp_nodelay true)" if opts["nodelay"] else ""),
        "driver_fps": opts["fps"],
        "tune_gc": opts["tune_gc"],
        "leds_process": opts["leds_process"],
        "table": "table-30x20.toml: 600 cells, 1,800 LEDs",
    }
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with (
        tempfile.TemporaryDirectory(prefix="iwgt-bench-hw-") as tmp,
        Progress(*columns, console=console, transient=True) as progress,
    ):
        folder = Path(tmp)
        if opts["tune_gc"]:
            tune_gc()  # as `iwgt serve` does before it serves (server/app.py)
        if opts["events"] or opts["cycles"]:
            broker = await start_broker(opts["broker"], folder, nodelay=opts["nodelay"])
            try:
                rig = await make_rig(broker, folder, opts["fps"], leds_process=opts["leds_process"])
                try:
                    if opts["events"]:
                        with GcProbe() as probe:
                            figures["latency"] = await sensor_latency(
                                rig, opts["events"], opts["gap"], opts["seed"], progress
                            )
                        figures["latency"]["gc"] = probe.figures()
                    if opts["cycles"]:
                        figures["power_cycle"] = await power_cycles(rig, opts["cycles"], progress)
                finally:
                    await close_rig(rig)
            finally:
                await broker.stop()
        if opts["seconds"] > 0:
            figures["fps"] = []
            for fps in opts["fps_targets"]:
                task = progress.add_task(f"LED driver at {fps:g} fps for {opts['seconds']:g} s", total=None)
                figures["fps"].append(await frames_per_second(fps, opts["seconds"]))
                progress.remove_task(task)
    figures["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return figures


@app.command()
def main(
    events: Annotated[int, typer.Option(help="sensor events measured (half lifts, half placements)")] = 200,
    cycles: Annotated[int, typer.Option(help="controller power cycles measured")] = 20,
    seconds: Annotated[float, typer.Option(help="seconds the LED driver ticks at each fps target")] = 10.0,
    fps_targets: Annotated[str, typer.Option("--fps-targets", help="LED frame rates to sustain")] = "30,60",
    fps: Annotated[float, typer.Option(help="the LED driver's frame rate in the latency run")] = 30.0,
    broker: Annotated[
        str, typer.Option(help="embedded (amqtt, in process) or mosquitto (Debian's)")
    ] = "embedded",
    mosquitto_nodelay: Annotated[
        bool, typer.Option(help="with --broker mosquitto: add set_tcp_nodelay true to its configuration")
    ] = False,
    leds_process: Annotated[
        bool, typer.Option("--leds-process", help="run the LED driver as `iwgt hardware leds` apart")
    ] = False,
    tune: Annotated[
        bool, typer.Option("--tune-gc/--no-tune-gc", help="tune the collector as `iwgt serve` does")
    ] = True,
    gap: Annotated[float, typer.Option(help="quiet seconds between two events")] = 0.05,
    seed: Annotated[int, typer.Option(help="the choice of pieces and moves")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Sensor -> LEDs latency, LED frame rate and power-cycle resync of a 600-cell table; prints figures."""
    if broker not in ("embedded", "mosquitto"):
        raise typer.BadParameter("--broker: embedded or mosquitto")
    targets = [float(x) for x in fps_targets.split(",") if x.strip()]
    opts = {
        "events": events,
        "cycles": cycles,
        "seconds": seconds,
        "fps_targets": targets,
        "fps": fps,
        "broker": broker,
        "gap": gap,
        "seed": seed,
        "nodelay": mosquitto_nodelay,
        "tune_gc": tune,
        "leds_process": leds_process,
    }
    console = Console(stderr=as_json, width=max(Console().width, 120))
    figures = asyncio.run(run_all(opts, console))
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        report(console, figures)


if __name__ == "__main__":
    sys.exit(app())
