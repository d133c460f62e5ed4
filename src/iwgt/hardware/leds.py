"""The LED driver: lighting frames in (from MQTT), LED colours out to WLED/DDP controllers at a steady rate.

``LedDriver(layout, fps)`` keeps the last frame and the identify blinks; ``run()`` ticks at ``fps``: tick k is
due at start + k / fps (a deadline, so the rate does not drift with the work of each tick); a tick that
wakes more than a period late skips the ticks it missed and counts them. Each tick renders the frame
(``render.py``) and sends each controller its slice of the global strip over UDP: DDP (push on its last
packet; the non-push packets of every controller go first, then the pushes back to back, so that several
controllers latch together) or WLED's DNRGB (with the layout's fall-back timeout).

The driver sends only while it has something to show: a frame from a referee that is online, or an identify
blink. When the referee goes offline (its retained status or its last will), or before any frame came, it
sends one dark frame and then nothing: WLED's realtime timeout (DNRGB's timeout byte; DDP: the controller's
own setting) then returns each controller to its own mode, so a crashed referee leaves no misleading lights.
An unchanged picture is re-sent every ``REFRESH_S`` only, well inside the controllers' timeout.

``run_from_mqtt(url, device, layout, fps)`` subscribes the device's ``frame`` and ``cmd`` topics (identify;
the table's firmware acks commands, the driver never does) and the referee's status, and drives the LEDs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from iwgt.hardware.ddp import ddp_packets, next_seq
from iwgt.hardware.layout import Controller, Layout
from iwgt.hardware.protocol import (
    REFEREE_STATUS,
    Command,
    Frame,
    ProtocolError,
    RefereeStatus,
    TableCell,
    decode,
    topic,
)
from iwgt.hardware.render import Renderer
from iwgt.hardware.wled import dnrgb_packets

__all__ = ["LINK_GRACE_S", "REFRESH_S", "LedDriver", "LedStats", "main", "run_from_mqtt"]

log = logging.getLogger(__name__)

LINK_GRACE_S: Final = 5.0
"""The broker lost this long (the referee's state unknown): the table goes dark until the link is back."""

REFRESH_S: Final = 0.5
"""An unchanged picture is sent again this often: well inside WLED's realtime timeout (at least 1 s)."""

Send = Callable[[Controller, bytes], None]
"""Sends one packet to a controller (the default: a UDP socket per controller, made by ``run``)."""


@dataclass
class LedStats:
    """What the driver has done: ticks, late ticks skipped, LED frames and packets sent."""

    ticks: int = 0
    ticks_late: int = 0
    frames_sent: int = 0
    dark_frames: int = 0
    packets_sent: int = 0
    send_errors: int = 0
    frames_received: int = 0
    started: float | None = None
    last_tick: float | None = None

    @property
    def achieved_fps(self) -> float:
        """Ticks rendered a second since the start."""
        if self.started is None or self.last_tick is None or self.last_tick <= self.started:
            return 0.0
        return (self.ticks - 1) / (self.last_tick - self.started)

    def as_dict(self) -> dict[str, float | int]:
        """The figures, for a log line or the command's report."""
        return {
            "ticks": self.ticks,
            "ticks_late": self.ticks_late,
            "frames_sent": self.frames_sent,
            "dark_frames": self.dark_frames,
            "packets_sent": self.packets_sent,
            "send_errors": self.send_errors,
            "frames_received": self.frames_received,
            "achieved_fps": round(self.achieved_fps, 2),
        }


class _Counter(asyncio.DatagramProtocol):
    """A sending socket's protocol: counts errors (a controller that is not there: ICMP port unreachable)."""

    def __init__(self, stats: LedStats) -> None:
        self.stats = stats

    def error_received(self, exc: Exception) -> None:
        self.stats.send_errors += 1


@dataclass
class _State:
    frame: Frame | None = None
    frame_at: float = 0.0
    referee_online: bool = True  # until a status says otherwise (a retained one arrives at once)
    identifying: dict[TableCell, tuple[float, float]] = field(default_factory=dict)
    link_lost_at: float | None = None  # when the broker connection dropped (None: connected)


class LedDriver:
    """Frames and identify blinks -> LED colours -> UDP packets to the layout's controllers, steadily."""

    def __init__(
        self,
        layout: Layout,
        fps: float = 30,
        send: Send | None = None,
        *,
        refresh_s: float = REFRESH_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not layout.controllers:
            raise ValueError("the layout names no LED controller to drive")
        if not 1 <= fps <= 240:
            raise ValueError(f"fps must be 1..240, got {fps}")
        self.layout = layout
        self.fps = float(fps)
        self.renderer = Renderer(layout)
        self.stats = LedStats()
        self.slices = layout.slices()
        self._send = send
        self.refresh_s = refresh_s
        self._clock = clock
        self._state = _State()
        self._seq = [1] * len(self.slices)  # each DDP controller's next sequence number
        self._last_rgb: npt.NDArray[np.uint8] | None = None  # what the controllers show; None: nothing sent
        self._last_sent = -math.inf
        self._dark_sent = False
        self._stop = asyncio.Event()
        self._transports: list[asyncio.DatagramTransport] = []

    # --- inputs ---------------------------------------------------------------------------------------------

    def show(self, frame: Frame) -> None:
        """Show a frame from now on; the same lights again (a retained frame redelivered) keep their clock."""
        state = self._state
        self.stats.frames_received += 1
        old = state.frame
        if old is not None and old.referee == frame.referee and frame.frame < old.frame:
            return  # an older frame of the same referee run: never go back
        if old is None or old.lights != frame.lights:
            state.frame_at = self._clock()
        state.frame = frame

    def referee(self, status: RefereeStatus) -> None:
        """The referee's status: offline makes the table dark (one dark frame, then silence)."""
        self._state.referee_online = status.online

    def link(self, up: bool) -> None:
        """The broker link is back (up) or dropped: after LINK_GRACE_S without it, the table goes dark."""
        if up:
            self._state.link_lost_at = None
        elif self._state.link_lost_at is None:
            self._state.link_lost_at = self._clock()

    def identify(self, cell: TableCell, ms: int) -> None:
        """Blink a cell's LEDs white for ``ms`` milliseconds (installation), over whatever the frame shows."""
        now = self._clock()
        self._state.identifying[(cell[0], cell[1])] = (now, now + ms / 1000)

    def stop(self) -> None:
        """Make ``run`` return after its current tick."""
        self._stop.set()

    # --- one tick -------------------------------------------------------------------------------------------

    def picture(self, now: float) -> npt.NDArray[np.uint8] | None:
        """The LEDs at ``now``, or None when there is nothing to show (no frame, or the referee offline)."""
        state = self._state
        for cell, (_, end) in list(state.identifying.items()):
            if now >= end:
                del state.identifying[cell]
        linked = state.link_lost_at is None or now - state.link_lost_at < LINK_GRACE_S
        live = state.frame is not None and state.referee_online and linked
        if not live and not state.identifying:
            return None
        lights = state.frame.lights if live and state.frame is not None else ()
        t_ms = (now - state.frame_at) * 1000.0
        identify = {cell: (now - start) * 1000.0 for cell, (start, _) in state.identifying.items()}
        return self.renderer.render(lights, t_ms, identify)

    def tick(self, now: float) -> bool:
        """Render and send what is due at ``now``; True if packets went out."""
        rgb = self.picture(now)
        if rgb is None:
            if self._dark_sent:
                return False  # silence: each controller's realtime timeout returns it to its own mode
            self._dark_sent = True
            self._last_rgb = None
            self._send_frame(self.renderer.dark())
            self.stats.dark_frames += 1
            return True
        self._dark_sent = False
        unchanged = self._last_rgb is not None and np.array_equal(rgb, self._last_rgb)
        if unchanged and now - self._last_sent < self.refresh_s:
            return False
        self._last_rgb = rgb
        self._last_sent = now
        self._send_frame(rgb)
        return True

    def _send_frame(self, rgb: npt.NDArray[np.uint8]) -> None:
        """Each controller its slice: DDP's non-push packets first, then every push back to back."""
        pushes: list[tuple[Controller, bytes]] = []
        for i, part in enumerate(self.slices):
            leds = rgb[part.start : part.stop]
            controller = part.controller
            if controller.protocol == "ddp":
                packets = ddp_packets(leds, self._seq[i])
                self._seq[i] = next_seq(self._seq[i], len(packets))
                for packet in packets[:-1]:
                    self._emit(controller, packet)
                pushes.append((controller, packets[-1]))
            else:
                for packet in dnrgb_packets(leds, 0, controller.timeout_s):
                    self._emit(controller, packet)
        for controller, packet in pushes:
            self._emit(controller, packet)
        self.stats.frames_sent += 1

    def _emit(self, controller: Controller, packet: bytes) -> None:
        if self._send is None:
            raise RuntimeError("LedDriver: no socket to send with (call run(), or pass send=)")
        try:
            self._send(controller, packet)
        except OSError:
            self.stats.send_errors += 1
            return
        self.stats.packets_sent += 1

    # --- the loop -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> LedDriver:
        """Open the UDP sockets (unless ``send`` was given): ``tick`` may then be called directly."""
        if self._send is None:
            await self._open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._close()

    async def _open(self) -> None:
        """One UDP socket per controller, connected to its host and port (resolved once)."""
        loop = asyncio.get_running_loop()
        by_name: dict[str, asyncio.DatagramTransport] = {}
        for part in self.slices:
            c = part.controller
            transport, _ = await loop.create_datagram_endpoint(
                lambda: _Counter(self.stats), remote_addr=(c.host, c.port)
            )
            self._transports.append(transport)
            by_name[c.name] = transport

        def send(controller: Controller, packet: bytes) -> None:
            by_name[controller.name].sendto(packet)

        self._send = send

    def _close(self) -> None:
        if self._transports:
            self._send = None
        for transport in self._transports:
            transport.close()
        self._transports.clear()

    async def run(self, max_ticks: int | None = None) -> LedStats:
        """Tick at ``fps`` until ``stop()`` (or ``max_ticks`` ticks); UDP sockets unless ``send`` given."""
        opened = self._send is None
        if opened:
            await self._open()
        self._stop.clear()
        period = 1.0 / self.fps
        start = self._clock()
        self.stats.started = start
        k = 0
        try:
            while not self._stop.is_set() and (max_ticks is None or self.stats.ticks < max_ticks):
                deadline = start + k * period
                now = self._clock()
                if now < deadline:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stop.wait(), deadline - now)
                    if self._stop.is_set():
                        break
                    now = self._clock()
                late = int((now - deadline) / period)
                if late > 0:
                    # Woken more than a period late: the missed ticks are skipped (and counted), not bunched.
                    self.stats.ticks_late += late
                    k += late
                self.tick(now)
                self.stats.ticks += 1
                self.stats.last_tick = now
                k += 1
                await asyncio.sleep(0)  # let MQTT messages in even when every tick is late
        finally:
            if opened:
                self._close()
        return self.stats


async def run_from_mqtt(
    url: str,
    device: str,
    layout: Layout,
    fps: float = 30,
    *,
    driver: LedDriver | None = None,
    identifier: str | None = None,
) -> None:
    """Drive the layout's LEDs from the device's frames and identify commands on the broker, until cancelled.

    Reconnects with backoff (``mqtt.run_forever``); the retained frame and referee status come again on each
    connect. A malformed message is logged and ignored (the referee answers its own messages' problems).
    """
    import aiomqtt

    from iwgt.hardware.mqtt import run_forever

    driver = driver or LedDriver(layout, fps)
    frame_topic, cmd_topic = topic(device, "frame"), topic(device, "cmd")

    async def on_connect(client: aiomqtt.Client) -> None:
        driver.link(True)
        await client.subscribe(frame_topic, qos=1)
        await client.subscribe(cmd_topic, qos=1)
        await client.subscribe(REFEREE_STATUS, qos=1)
        async for message in client.messages:
            name, payload = str(message.topic), bytes(message.payload)
            try:
                if name == frame_topic:
                    driver.show(decode(Frame, payload, name))
                elif name == cmd_topic:
                    cmd = decode(Command, payload, name)
                    if cmd.cmd == "identify" and cmd.cell is not None:
                        driver.identify(cmd.cell, cmd.ms)
                elif name == REFEREE_STATUS:
                    driver.referee(decode(RefereeStatus, payload, name))
            except ProtocolError as exc:
                log.warning("LED driver: ignored %s", exc)

    ticking = asyncio.create_task(driver.run())
    try:
        await run_forever(
            url, identifier or f"iwgt-leds-{device}", on_connect, on_disconnect=lambda _: driver.link(False)
        )
    finally:
        driver.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await ticking


def main(device: str, layout_path: Path, mqtt: str | None, fps: float, data: Path | None) -> int:
    """``iwgt hardware leds``: drive the controllers until interrupted; prints the figures at the end.

    Without ``--mqtt``: the local broker (127.0.0.1:1883, as ``iwgt serve --table-bridge`` starts it) as the
    device's own user of the data folder's credentials (made on first use). Returns the exit code (2 for a
    bad argument)."""
    from iwgt.hardware.broker import BrokerError, Credentials
    from iwgt.hardware.layout import LayoutError, load_layout
    from iwgt.hardware.mqtt import MqttAuthError, MqttUrl, MqttUrlError
    from iwgt.hardware.protocol import is_device

    def fail(message: str) -> int:
        print(f"iwgt hardware leds: {message}", file=sys.stderr)
        return 2

    if not is_device(device):
        return fail(f"device {device!r}: 1..32 of a-z, 0-9, _ and -, starting with a letter or digit")
    if not 1 <= fps <= 240:
        return fail(f"--fps must be 1..240, got {fps:g}")
    try:
        layout = load_layout(layout_path)
    except (LayoutError, OSError) as err:
        return fail(str(err))
    if not layout.controllers:
        return fail(f"{layout_path} names no LED controller ([[controllers]])")
    try:
        if mqtt is None:
            from platformdirs import user_data_path

            folder = data if data is not None else user_data_path("iwgt", appauthor=False)
            creds = Credentials.load(folder)
            creds.device(device)
            mqtt = creds.url(device)
        url = MqttUrl.parse(mqtt)
    except (BrokerError, MqttUrlError) as err:
        return fail(str(err))
    driver = LedDriver(layout, fps)
    slices = ", ".join(
        f"{c.name} {c.protocol} {c.host}:{c.port} LEDs {s.start}..{s.stop - 1}"
        for s in driver.slices
        for c in [s.controller]
    )
    print(f"iwgt hardware leds: {device} on {url} at {fps:g} fps -> {slices}", flush=True)
    try:
        asyncio.run(run_from_mqtt(url.text(), device, layout, fps, driver=driver))
    except KeyboardInterrupt:
        pass
    except MqttAuthError as err:
        return fail(str(err))
    print(f"iwgt hardware leds: {driver.stats.as_dict()}", flush=True)
    return 0
