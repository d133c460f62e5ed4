"""The simulated table: a virtual physical table (pure) and its side of the protocol over MQTT.

``VirtualTable`` is what a table's sensors would see: the pieces standing on its cells, the piece in a
person's hand, stuck sensors, the session counter kept in flash and the sequence of sensor events. It has no
clock and no I/O. ``SimTable`` wraps one in an MQTT client that behaves as a table's controller would: a
retained birth with a last will, sensor events (queued while the broker is away, as a firmware buffer would),
commands acknowledged (a snapshot follows its ack), frames received and rendered to LED colours, and the
faults a person can inject from the simulated table's page.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import aiomqtt
import numpy as np
import orjson

from iwgt.geometry.hexgrid import distance, hex_to_offset, neighbours, offset_to_hex
from iwgt.hardware.layout import Layout
from iwgt.hardware.mqtt import MqttUrl, client, drop
from iwgt.hardware.protocol import (
    REFEREE_STATUS,
    Ack,
    Birth,
    Command,
    Frame,
    FrameLight,
    Occupied,
    Offline,
    ProtocolError,
    RefereeStatus,
    Refusal,
    SensorEvent,
    Snapshot,
    decode,
    encode,
    topic,
)

log = logging.getLogger(__name__)

TableCell = tuple[int, int]
Sensor = Literal["presence", "identity"]

FIRMWARE = "iwgt-sim-1"
"""What the simulated controller says it runs, in its birth."""
QUEUE_LIMIT = 512
"""Sensor events a controller keeps while the broker is away (a small ring in RAM); older ones are lost."""
BOOT_S = 0.3
"""How long the simulated controller takes to boot after a power cycle (the broker sees the drop first)."""
RECONNECT_S = (0.2, 2.0)
"""The reconnect backoff after a lost broker: first try, then doubled up to the ceiling."""
MISSING = "piece_missing"
EXTRA = "piece_extra"
REFUSED = "illegal"
"""The effect of a refused placement's red light (frames.py): "take this piece back"."""


class SimError(ValueError):
    """A person's action the table cannot do (lift from an empty cell, two pieces on one cell...)."""


@dataclass(frozen=True, slots=True)
class Held:
    """The piece in a person's hand: its tag (identity sensors) and where it came from (None: the box)."""

    tag: str | None
    origin: TableCell | None


def hex_distance(a: TableCell, b: TableCell) -> int:
    """Steps between two odd-r table cells."""
    return distance(offset_to_hex(*a), offset_to_hex(*b))


def hex_neighbours(cell: TableCell) -> list[TableCell]:
    """The six odd-r cells around a cell (some may be off the table)."""
    return [hex_to_offset(h) for h in neighbours(offset_to_hex(*cell))]


class VirtualTable:
    """The pieces on a table's cells and what its sensors report of them (pure: no clock, no I/O)."""

    def __init__(self, layout: Layout, sensor: Sensor = "presence", session: int = 1) -> None:
        self.layout = layout
        self.sensor: Sensor = sensor
        self.cells: frozenset[TableCell] = frozenset(layout.cells())
        self.pieces: dict[TableCell, str | None] = {}
        """The pieces really standing on the table: cell -> tag (None with presence sensors)."""
        self.in_hand: Held | None = None
        self.stuck: set[TableCell] = set()
        """Cells whose sensor reads occupied whatever stands there."""
        self.session = session
        self.seq = 1
        """The seq the next sensor event will carry."""
        self._tags = 0

    # What the sensors read.

    def reads(self, cell: TableCell) -> bool:
        """Whether the cell's sensor reads occupied."""
        return cell in self.pieces or cell in self.stuck

    def sensed(self) -> dict[TableCell, str | None]:
        """What the sensors read: every occupied cell with its tag (a stuck sensor reads no tag)."""
        out: dict[TableCell, str | None] = {cell: None for cell in self.stuck}
        out.update(self.pieces)
        return dict(sorted(out.items()))

    def snapshot(self, request: str | None = None) -> Snapshot:
        """A full reading of the table, including every event issued so far in this session."""
        occupied = tuple(Occupied(cell=c, tag=t) for c, t in self.sensed().items())
        return Snapshot(v=1, session=self.session, seq=self.seq - 1, request=request, occupied=occupied)

    # A person's hands.

    def lift(self, cell: TableCell) -> SensorEvent | None:
        """Lift the piece on a cell into the hand; the event the sensor reports (None: a stuck sensor)."""
        self._on_table(cell)
        if self.in_hand is not None:
            raise SimError("a piece is already in the hand: put it down first")
        if cell not in self.pieces:
            raise SimError(f"no piece on {list(cell)} to lift")
        tag = self.pieces.pop(cell)
        self.in_hand = Held(tag, cell)
        return self._changed(cell, "lifted", tag)

    def place(self, cell: TableCell) -> SensorEvent | None:
        """Put the piece in the hand down on a cell; the event the sensor reports (None: a stuck sensor)."""
        self._on_table(cell)
        if self.in_hand is None:
            raise SimError("no piece in the hand to put down")
        if cell in self.pieces:
            raise SimError(f"{list(cell)} already holds a piece")
        tag = self.in_hand.tag
        self.in_hand = None
        self.pieces[cell] = tag
        return self._changed(cell, "placed", tag)

    def take_from_box(self) -> Held:
        """Take a new piece from the box into the hand (identity sensors: a fresh tag)."""
        if self.in_hand is not None:
            raise SimError("a piece is already in the hand: put it down first")
        self.in_hand = Held(self._new_tag(), None)
        return self.in_hand

    def put_in_box(self) -> None:
        """Put the piece in the hand away in the box (no sensor sees it)."""
        if self.in_hand is None:
            raise SimError("no piece in the hand to put away")
        self.in_hand = None

    def stand(self, cells: Iterable[TableCell]) -> None:
        """Stand pieces on cells before the table is switched on (no events: its snapshots show them)."""
        for cell in cells:
            self._on_table(cell)
            self.pieces[cell] = self._new_tag()

    # Faults.

    def stick(self, cell: TableCell, on: bool = True) -> SensorEvent | None:
        """Stick a cell's sensor on (reads occupied whatever) or free it; the change its reading makes."""
        self._on_table(cell)
        before = self.reads(cell)
        if on:
            self.stuck.add(cell)
        else:
            self.stuck.discard(cell)
        after = self.reads(cell)
        if before == after:
            return None
        return self._event(cell, "placed" if after else "lifted", self.pieces.get(cell))

    def knock(self, cell: TableCell, to: TableCell) -> list[SensorEvent]:
        """A piece knocked over from one cell into another: lifted there, placed here (as the sensors see)."""
        self._on_table(cell)
        self._on_table(to)
        if cell not in self.pieces:
            raise SimError(f"no piece on {list(cell)} to knock over")
        if to in self.pieces:
            raise SimError(f"{list(to)} already holds a piece")
        tag = self.pieces.pop(cell)
        self.pieces[to] = tag
        events = [self._changed(cell, "lifted", tag), self._changed(to, "placed", tag)]
        return [e for e in events if e is not None]

    def free_neighbour(self, cell: TableCell) -> TableCell | None:
        """The first cell next to this one (east, then anticlockwise) on the table with nothing on it."""
        for n in hex_neighbours(cell):
            if n in self.cells and not self.reads(n):
                return n
        return None

    def power_cycle(self) -> None:
        """Power the controller off and on: a new session, seq from 1; the pieces stay where they stand."""
        self.session += 1
        self.seq = 1

    # Follow the lights.

    def tidy_moves(self, lights: Iterable[FrameLight]) -> list[tuple[TableCell | None, TableCell | None]]:
        """The moves that follow the lights: (from, to) with None for the box (see ``tidy``)."""
        lights = tuple(lights)
        on_table = set(self.pieces)
        missing = sorted(({lt.cell for lt in lights if lt.effect == MISSING} & self.cells) - on_table)
        extra = sorted({lt.cell for lt in lights if lt.effect == EXTRA} & on_table)
        # A refused placement's cell shows only its red light (more urgent than its own piece_extra): the
        # piece standing there is one to take back, so it may fill a missing cell; it never goes in the box.
        refused = sorted({lt.cell for lt in lights if lt.effect == REFUSED} & on_table - set(extra))
        pairs = sorted((hex_distance(a, b), b, a) for a in extra + refused for b in missing)
        moves: list[tuple[TableCell | None, TableCell | None]] = []
        used_from: set[TableCell] = set()
        used_to: set[TableCell] = set()
        for _d, to, frm in pairs:  # nearest first; ties by cell order, so the result is deterministic
            if frm in used_from or to in used_to:
                continue
            used_from.add(frm)
            used_to.add(to)
            moves.append((frm, to))
        moves += [(None, to) for to in missing if to not in used_to]
        moves += [(frm, None) for frm in extra if frm not in used_from]
        return moves

    def tidy(self, lights: Iterable[FrameLight]) -> list[SensorEvent]:
        """Follow the lights: a piece onto each ``piece_missing`` cell (from the nearest ``piece_extra`` or
        red ``illegal`` cell, else from the box), and every other ``piece_extra`` piece back into the box. A
        piece in the hand goes back where it was lifted from first (or into the box)."""
        lights = tuple(lights)
        events: list[SensorEvent | None] = []
        if self.in_hand is not None:
            origin = self.in_hand.origin
            if origin is not None and origin not in self.pieces:
                events.append(self.place(origin))
            else:
                self.put_in_box()
        for frm, to in self.tidy_moves(lights):
            if frm is None:
                self.take_from_box()
            else:
                events.append(self.lift(frm))
            if to is None:
                self.put_in_box()
            else:
                events.append(self.place(to))
        return [e for e in events if e is not None]

    # Helpers.

    def _on_table(self, cell: TableCell) -> None:
        if cell not in self.cells:
            raise SimError(f"{list(cell)} is not a cell of this table")

    def _new_tag(self) -> str | None:
        if self.sensor != "identity":
            return None
        self._tags += 1
        return f"tag-{self._tags}"

    def _changed(
        self, cell: TableCell, event: Literal["lifted", "placed"], tag: str | None
    ) -> SensorEvent | None:
        # A stuck sensor reads occupied whatever: a piece coming or going there changes nothing it reports.
        if cell in self.stuck:
            return None
        return self._event(cell, event, tag)

    def _event(self, cell: TableCell, event: Literal["lifted", "placed"], tag: str | None) -> SensorEvent:
        ev = SensorEvent(
            v=1,
            session=self.session,
            seq=self.seq,
            cell=cell,
            event=event,
            tag=tag if self.sensor == "identity" else None,
        )
        self.seq += 1
        return ev


# The table's side over MQTT.


class SimTable:
    """A simulated table's controller on an MQTT broker: birth, sensor events, commands, frames, faults.

    Every public method runs on the event loop that runs ``run()``. ``on_change`` is called (without
    arguments) whenever something a page would draw has changed.
    """

    def __init__(
        self,
        layout: Layout,
        device: str,
        url: MqttUrl | str,
        sensor: Sensor = "presence",
        *,
        session: int = 1,
        firmware: str = FIRMWARE,
        queue_limit: int = QUEUE_LIMIT,
        on_change: Callable[[], None] | None = None,
        flash: Path | None = None,
    ) -> None:
        self.layout = layout
        self.device = device
        self.url = url if isinstance(url, MqttUrl) else MqttUrl.parse(url)
        self.flash = flash
        """A file standing for the controller's flash: the session counter survives a restart of the sim."""
        if flash is not None:
            session = max(session, _read_session(flash) + 1)
            _write_session(flash, session)
        self.table = VirtualTable(layout, sensor, session)
        self.firmware = firmware
        self.online = False
        self.frame: Frame | None = None
        self.frame_at = 0.0
        self.refusal: Refusal | None = None
        self.referee_online: bool | None = None
        self.identifying: dict[TableCell, tuple[float, float]] = {}
        """cell -> (monotonic start, end) of an ``identify`` blink."""
        self.queue: deque[SensorEvent] = deque(maxlen=queue_limit)
        self.lost_from_queue = 0
        self.pending_drops = 0
        self.dropped = 0
        self.lost: deque[tuple[int, int]] = deque(maxlen=64)
        """(session, seq) of the last sensor messages ``drop_next`` lost (for the page's log)."""
        self.published = 0
        self.on_change = on_change
        self.connected = asyncio.Event()
        self._client: Any = None
        self._boot = time.monotonic()
        self._cut = asyncio.Event()
        """Set to drop the line uncleanly: a power cycle, or the network cable pulled (``unplug``)."""
        self._rebooting = False
        self.plugged = asyncio.Event()
        """Whether the network cable is in (``unplug``/``plug``); the controller connects only while it is."""
        self.plugged.set()
        self._stopping = False
        self._renderer: Any = None
        self._wake = asyncio.Event()
        self._pending = asyncio.Event()

    # Topics.

    def topic(self, leaf: str) -> str:
        """This table's topic for a leaf (status, sensor, snapshot, ack, frame, cmd, error)."""
        return topic(self.device, leaf)

    def birth(self) -> Birth:
        """The retained birth this controller publishes on each connection."""
        birth: Birth = self.layout.to_birth(self.device, self.table.session, self.firmware)
        if birth.sensor != self.table.sensor:
            birth = birth.model_copy(update={"sensor": self.table.sensor})
        return birth

    def will(self) -> Offline:
        """The last will the broker publishes when this controller drops without a word."""
        return Offline(v=1, device=self.device, online=False, session=self.table.session)

    # The connection.

    async def run(self) -> None:
        """Stay connected until ``stop()``: reconnect after a lost broker or a power cycle."""
        delay = RECONNECT_S[0]
        while not self._stopping:
            await self.plugged.wait()
            if self._stopping:
                break
            try:
                await self._connection()
                delay = RECONNECT_S[0]
            except (aiomqtt.MqttError, OSError, ProtocolError, ValueError) as exc:
                if self._stopping:
                    break
                if not isinstance(exc, (aiomqtt.MqttError, OSError)):
                    log.exception("table %s: the controller failed; it restarts", self.device)
                log.info("table %s: broker away (%s); retrying in %.1f s", self.device, exc, delay)
                self._set_online(False)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_S[1])
                continue
            self._set_online(False)
            if self._cut.is_set():
                self._cut.clear()
                if self._rebooting:  # a power cycle: the controller boots again
                    self._rebooting = False
                    await asyncio.sleep(BOOT_S)

    async def _connection(self) -> None:
        will = aiomqtt.Will(self.topic("status"), encode(self.will()), qos=1, retain=True)
        async with client(self.url, f"table-{self.device}", will=will) as c:
            self._client = c
            try:
                await c.subscribe(self.topic("frame"), qos=1)
                await c.subscribe(self.topic("cmd"), qos=1)
                await c.subscribe(self.topic("error"), qos=0)
                await c.subscribe(REFEREE_STATUS, qos=1)
                await c.publish(self.topic("status"), encode(self.birth()), qos=1, retain=True)
                self._set_online(True)
                tasks = [
                    asyncio.create_task(self._read(c)),
                    asyncio.create_task(self._sender()),
                    asyncio.create_task(self._cut.wait()),
                    asyncio.create_task(self._stopped()),
                ]
                try:
                    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for t in tasks:
                        t.cancel()
                    results = await asyncio.gather(*tasks, return_exceptions=True)
                if self._cut.is_set():
                    await self._pull_the_plug(c)
                    return
                if self._stopping:
                    # Switched off politely: say so (the will only goes out on an unclean drop).
                    with contextlib.suppress(Exception):
                        await c.publish(self.topic("status"), encode(self.will()), qos=1, retain=True)
                    return
                for r in results[:2]:
                    if isinstance(r, Exception):
                        raise r
            finally:
                self._client = None
                self._set_online(False)

    async def _sender(self) -> None:
        # The radio: publishes queued sensor events in order while connected. An event leaves the queue only
        # once the broker has it (PUBACK), so a broker lost mid-send loses nothing: it goes again on reconnect
        # (perhaps twice; the referee drops duplicates by seq).
        while True:
            while self.queue and self._client is not None:
                ev = self.queue[0]
                await self._client.publish(self.topic("sensor"), encode(ev), qos=1)
                if self.queue and self.queue[0] is ev:
                    self.queue.popleft()
                    self.published += 1
            await self._pending.wait()
            self._pending.clear()

    async def _stopped(self) -> None:
        while not self._stopping:
            await self._wake.wait()
            self._wake.clear()

    async def _pull_the_plug(self, c: Any) -> None:
        # An unclean drop, as a power cut is: the TCP connection closes without MQTT's DISCONNECT, so the
        # broker publishes the will. Wait for the client to see its line gone, so that leaving its context
        # sends nothing.
        drop(c)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                async for _message in c.messages:
                    pass

    async def stop(self) -> None:
        """Disconnect cleanly (the referee sees the table go away only through its own status)."""
        self._stopping = True
        self._wake.set()
        self.plugged.set()

    def _set_online(self, online: bool) -> None:
        if online:
            self.connected.set()
        else:
            self.connected.clear()
        if self.online != online:
            self.online = online
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # Incoming.

    async def _read(self, c: Any) -> None:
        async for message in c.messages:
            payload = bytes(message.payload) if message.payload is not None else b""
            await self._handle(str(message.topic), payload)

    async def _handle(self, where: str, payload: bytes) -> None:
        leaf = where.rsplit("/", 1)[-1]
        try:
            if where == REFEREE_STATUS:
                self.referee_online = decode(RefereeStatus, payload, where).online if payload else None
            elif leaf == "frame":
                # An empty retained payload is the referee clearing its frame: the table goes dark.
                self.frame = decode(Frame, payload, where) if payload else None
                self.frame_at = time.monotonic()
            elif leaf == "cmd":
                await self._command(payload, where)
            elif leaf == "error":
                self.refusal = decode(Refusal, payload, where)
                log.warning("table %s: the referee refused a message: %s", self.device, self.refusal.message)
        except ProtocolError as exc:
            log.warning("table %s: %s", self.device, exc)
        except (ValueError, AttributeError) as exc:
            log.warning("table %s: unreadable message on %s: %s", self.device, where, exc)
        self._changed()

    async def _command(self, payload: bytes, where: str) -> None:
        try:
            cmd = decode(Command, payload, where)
        except ProtocolError as exc:
            # A command we cannot read still gets an answer if it carries an id the referee can match.
            ident = _command_id(payload)
            if ident is not None:
                await self._publish("ack", Ack(v=1, id=ident, ok=False, error=str(exc)))
            return
        if cmd.cell is not None and cmd.cell not in self.table.cells:
            await self._publish(
                "ack", Ack(v=1, id=cmd.id, ok=False, error=f"{list(cmd.cell)} is not on this table")
            )
            return
        if cmd.cmd == "identify":
            if cmd.cell is None:
                await self._publish("ack", Ack(v=1, id=cmd.id, ok=False, error="identify needs a cell"))
                return
            now = time.monotonic()
            self.identifying[cmd.cell] = (now, now + cmd.ms / 1000)
            await self._publish("ack", Ack(v=1, id=cmd.id, ok=True))
            return
        await self._publish("ack", Ack(v=1, id=cmd.id, ok=True))
        await self._publish("snapshot", self.table.snapshot(cmd.id))

    # Outgoing.

    async def _publish(self, leaf: str, model: Any) -> None:
        c = self._client
        if c is None:
            raise ConnectionError("not connected")
        await c.publish(self.topic(leaf), encode(model), qos=1)

    def _send(self, events: Iterable[SensorEvent | None]) -> list[SensorEvent]:
        """Hand sensor events to the radio: lost ones dropped, the rest queued and flushed when connected."""
        sent = []
        for ev in events:
            if ev is None:
                continue
            ev = ev.model_copy(update={"at_ms": int((time.monotonic() - self._boot) * 1000)})
            sent.append(ev)
            if self.pending_drops > 0:
                self.pending_drops -= 1
                self.dropped += 1
                self.lost.append((ev.session, ev.seq))
                continue
            if len(self.queue) == self.queue.maxlen:
                self.lost_from_queue += 1
            self.queue.append(ev)
        if sent:
            self._pending.set()
            self._changed()
        return sent

    # A person's actions (each returns the sensor events it caused).

    def lift(self, cell: TableCell) -> list[SensorEvent]:
        """Lift the piece on a cell."""
        return self._send([self.table.lift(cell)])

    def place(self, cell: TableCell) -> list[SensorEvent]:
        """Put the piece in the hand down on a cell."""
        return self._send([self.table.place(cell)])

    def take_from_box(self) -> None:
        """Take a piece from the box into the hand."""
        self.table.take_from_box()
        self._changed()

    def put_in_box(self) -> None:
        """Put the piece in the hand away."""
        self.table.put_in_box()
        self._changed()

    def drop_next(self, n: int = 1) -> None:
        """Lose the next n sensor messages (they are counted in seq but never reach the broker)."""
        self.pending_drops += n
        self._changed()

    def power_cycle(self) -> None:
        """Cut the controller's power: an unclean drop (the broker publishes the will), a new session on boot.

        What was queued in RAM is lost with the power; the pieces stay where they stand."""
        self.queue.clear()
        self.pending_drops = 0
        self.table.power_cycle()
        self._boot = time.monotonic()  # the controller's own clock (at_ms) restarts with it
        if self.flash is not None:
            _write_session(self.flash, self.table.session)
        self.identifying.clear()
        if self._client is not None:
            self._rebooting = True
            self._cut.set()
        self._changed()

    def unplug(self) -> None:
        """Pull the network cable: an unclean drop (the will), same session; events queue till ``plug``."""
        self.plugged.clear()
        if self._client is not None:
            self._cut.set()
        self._changed()

    def plug(self) -> None:
        """Put the network cable back: the controller connects, says its birth and sends what it queued."""
        self.plugged.set()
        self._changed()

    def stick(self, cell: TableCell, on: bool = True) -> list[SensorEvent]:
        """Stick a cell's sensor on (or free it)."""
        return self._send([self.table.stick(cell, on)])

    def knock(self, cell: TableCell) -> list[SensorEvent]:
        """Knock the piece on a cell over into a free neighbouring cell."""
        to = self.table.free_neighbour(cell)
        if to is None:
            raise SimError(f"no free cell next to {list(cell)} for the piece to fall into")
        return self._send(self.table.knock(cell, to))

    def tidy(self) -> list[SensorEvent]:
        """Follow the lights: put the pieces where the frame's piece_missing/piece_extra lights ask."""
        lights = self.frame.lights if self.frame is not None else ()
        return self._send(self.table.tidy(lights))

    # The lights.

    def leds(self, now: float | None = None) -> np.ndarray:
        """Every LED's colour now, (led_count, 3) uint8: the frame as rendered, identify blinks over it."""
        now = time.monotonic() if now is None else now
        if self._renderer is None:
            from iwgt.hardware.render import Renderer

            self._renderer = Renderer(self.layout)
        lights = self.frame.lights if self.frame is not None else ()
        t_ms = int((now - self.frame_at) * 1000)
        identify = {}
        for cell, (start, end) in list(self.identifying.items()):
            if now >= end:
                del self.identifying[cell]
            else:
                identify[cell] = (now - start) * 1000
        rgb: np.ndarray = self._renderer.render(lights, t_ms, identify)
        return rgb


def _read_session(flash: Path) -> int:
    try:
        return max(0, int(flash.read_text(encoding="utf-8").strip()))
    except (OSError, ValueError):
        return 0


def _write_session(flash: Path, session: int) -> None:
    flash.parent.mkdir(parents=True, exist_ok=True)
    flash.write_text(f"{session}\n", encoding="utf-8")


def _command_id(payload: bytes) -> str | None:
    try:
        data = orjson.loads(payload)
    except orjson.JSONDecodeError:
        return None
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and 0 < len(ident) <= 64 else None
