"""``TableBridge``: the referee's side of the physical tables, over one MQTT connection.

It follows every table's birth, status, sensor events, snapshots and acks, binds devices to game tables,
gates their games, and publishes their lights (see the package's docstring).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any

import aiomqtt

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON
from iwgt.core.table import PhysicalTable, Piece, Surface
from iwgt.hardware.frames import Overlay, held_lights, table_frame
from iwgt.hardware.layout import Layout, LayoutError
from iwgt.hardware.mqtt import MqttAuthError, MqttUrl, run_forever
from iwgt.hardware.orders import Changed, Lifted, Moved, PutBack
from iwgt.hardware.places import Placement, PlacementError, placement
from iwgt.hardware.protocol import (
    PREFIX,
    REFEREE_STATUS,
    Ack,
    Birth,
    Command,
    Frame,
    FrameLight,
    Offline,
    ProtocolError,
    RefereeStatus,
    SensorEvent,
    Snapshot,
    TableCell,
    check_topic,
    decode,
    decode_status,
    encode,
    is_device,
    topic,
)
from iwgt.hardware.reconcile import Divergent, divergence
from iwgt.hardware.sequence import MAX_AHEAD, Sequencer, TooFarAhead
from iwgt.server.bridge.gate import _back, _Link, _why_not, _words
from iwgt.server.bridge.state import (
    _ABSENT,
    HEARTBEAT_S,
    HELD_CHECK_S,
    RETRY_S,
    SENSOR,
    STOP_S,
    TICK_S,
    _Device,
    _Held,
    _Pending,
)
from iwgt.server.errors import TableError
from iwgt.table.plain import table_of

if TYPE_CHECKING:
    from iwgt.server.manager import TableManager
    from iwgt.server.session import TableSession

log = logging.getLogger("iwgt.bridge")


class TableBridge:
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

    # -- running --------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Reload the bindings from the journal and start following the broker (reconnecting as needed)."""
        for device, table_id in self._journal().hardware_bindings().items():
            self._device(device).table = table_id
            session = self._session(self.devices[device])  # linked now: its game waits for the table
            if session is not None:
                session.clock.pause()  # from the start, its timer too (until the table is read)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Say the referee is offline (retained), disconnect, and let go of every game table."""
        self._stopping = True
        client = self._client
        if client is not None:
            with contextlib.suppress(aiomqtt.MqttError, asyncio.TimeoutError):
                await asyncio.wait_for(self._publish_status(client, online=False), 2.0)
        if self._task is not None:
            self._task.cancel()
            # Bounded: a line half-closed must not hold the server's shutdown.
            done, _ = await asyncio.wait({self._task}, timeout=STOP_S)
            if not done:
                log.warning("the physical tables' bridge did not stop within %.0f s", STOP_S)
        for dev in self.devices.values():
            session = self._loaded(dev)
            if session is not None:
                session.hardware = None
                session.live.gate = None
                session.clock.resume()

    def _forget(self, device: str) -> None:
        """Drop a binding from the journal (its game table is gone)."""
        writer = self.manager.writer
        if writer is None:
            self._journal().bind_hardware(device, None)
            return
        task = asyncio.get_running_loop().create_task(writer.write(lambda j: j.bind_hardware(device, None)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def wake(self) -> None:
        """Let the pump look at the frames and commands now."""
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await run_forever(
                    self.url,
                    f"iwgt-referee-{self.referee}",
                    self._serve,
                    will=aiomqtt.Will(REFEREE_STATUS, encode(self._status(False)), qos=1, retain=True),
                    on_disconnect=self._disconnected,
                )
            except MqttAuthError as exc:
                log.error("the physical tables' bridge cannot log in: %s", exc)
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not end the bridge: log it and connect again
                log.exception("the physical tables' bridge failed; reconnecting")
                self._client = None
                self.connected.clear()
                await asyncio.sleep(1.0)

    def _disconnected(self, exc: BaseException) -> None:
        log.info("the physical tables' bridge lost the broker: %s", exc)
        self._client = None
        self.connected.clear()

    async def _serve(self, client: aiomqtt.Client) -> None:
        """One connection: subscription, status, then every message in turn while the pump publishes."""
        self._client = client  # first: a stop from now on says "offline" on this line
        # Subscribed before the status says online: a table holding events while the referee was away may
        # send them once it sees the referee online (docs/hardware.md), and they must not fall on no one.
        await client.subscribe(f"{PREFIX}/+/#", qos=1)
        await self._publish_status(client, online=True)
        for dev in self.devices.values():
            # Whatever happened while the line was down is asked again: the retained frame may be gone (a
            # broker restarted) and sensor events may have been lost.
            dev.force = dev.dirty = True
            if dev.online:
                self._ask_snapshot(dev, force=True)
        self.connected.set()
        pump = asyncio.get_running_loop().create_task(self._pump(client))
        try:
            async for message in client.messages:
                payload = message.payload
                raw = payload if isinstance(payload, bytes) else str(payload or "").encode()
                try:
                    await self.handle(str(message.topic), raw)
                except Exception:  # one message must never stop the bridge
                    log.exception("a message on %s could not be handled", message.topic)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            self._client = None
            self.connected.clear()

    async def _pump(self, client: aiomqtt.Client) -> None:
        """Publish changed frames, ask snapshots, re-send commands; woken by changes or every TICK_S."""
        while True:
            # Not asyncio.wait_for: in Python 3.11 it swallows a cancel that comes as its inner wait completes
            # (a lost line's last message woke the pump), and the pump then never ends: the connection's
            # block waits on it for ever and the bridge never reconnects. asyncio.timeout passes it on.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TICK_S):
                    await self._wake.wait()
            self._wake.clear()
            due = self._due(self._time())
            for dev in list(self.devices.values()):
                if dev.dirty and dev.birth is not None:
                    await self._guarded(self._publish_frame(client, dev), f"the frame of {dev.id}")
            for device, command in due:
                sent = client.publish(topic(device, "cmd"), encode(command), qos=1, retain=False)
                await self._guarded(sent, f"command {command.id} to {device}")

    def _due(self, now: float) -> list[tuple[str, Command]]:
        """The commands to send now: snapshots asked (a gap, a new session, a piece in the air, the heartbeat)
        and re-sends; at most one snapshot command per device per RETRY_S, whatever happens."""
        for dev in list(self.devices.values()):
            if not dev.online or dev.birth is None:
                continue
            if dev.sequencer.needs_snapshot(now):
                self._ask_snapshot(dev)
            elif self._check_due(dev, now):
                self._ask_snapshot(dev, check=True)
        out: list[tuple[str, Command]] = []
        for pending in list(self.pending.values()):
            target = self.devices.get(pending.device)
            if target is None or not target.online:
                continue  # asked again when it is back
            if pending.sent_at != 0.0 and now - pending.sent_at < RETRY_S:
                continue
            if pending.command.cmd == "snapshot":
                if target.asked_at is not None and now - target.asked_at < RETRY_S:
                    continue
                target.asked_at = now
            pending.sent_at = now
            out.append((pending.device, pending.command))
        return out

    def _check_due(self, dev: _Device, now: float) -> bool:
        """Whether a bound, read table is due a snapshot: every HELD_CHECK_S while a piece is in the air (its
        ``placed`` may be lost: nothing later would show the gap), every HEARTBEAT_S otherwise."""
        if dev.table is None or not dev.synced:
            return False
        every = HELD_CHECK_S if dev.tracker.held is not None else HEARTBEAT_S
        return dev.asked_at is None or now - dev.asked_at >= every

    @staticmethod
    async def _guarded(work: Coroutine[Any, Any, None], what: str) -> None:
        """One publication of the pump: a failure is logged and the pump goes on (a lost line is the
        connection's to notice; a frame that cannot be sent must not stop every other table's)."""
        try:
            await work
        except aiomqtt.MqttError as exc:
            log.info("%s not sent: %s", what, exc)
        except Exception:
            log.exception("%s could not be sent", what)

    def _status(self, online: bool) -> RefereeStatus:
        return RefereeStatus(online=online, referee=self.referee)

    async def _publish_status(self, client: aiomqtt.Client, *, online: bool) -> None:
        await client.publish(REFEREE_STATUS, encode(self._status(online)), qos=1, retain=True)

    # -- messages in --------------------------------------------------------------------------------------

    async def handle(self, name: str, payload: bytes) -> None:
        """One message from the broker: decoded, checked, applied; a refused one is answered on ``error``."""
        if name == REFEREE_STATUS:
            return  # ours (or another referee's): nothing to do
        try:
            device, leaf = check_topic(name)
        except ProtocolError as exc:
            log.warning("refused: %s", exc.message)
            return  # no device to answer
        if leaf in ("frame", "cmd", "error"):
            return  # what the referee itself publishes
        try:
            if leaf == "status":
                if not payload:
                    return  # a retained status cleared
                status = decode_status(payload, name)
                if isinstance(status, Birth):
                    await self._birth(status, name)
                else:
                    await self._offline(status)
            elif leaf == "ack":
                self._ack(device, decode(Ack, payload, name))
            else:
                dev = self.devices.get(device)
                if dev is None or dev.layout is None:
                    # A device is made by a valid birth only (any id seen must not grow the bridge's memory).
                    log.debug("%s from %s, which has not announced itself: ignored", leaf, device)
                    return
                if leaf == "sensor":
                    await self._sensor(dev, decode(SensorEvent, payload, name), name)
                elif leaf == "snapshot":
                    await self._snapshot(dev, decode(Snapshot, payload, name), name)
        except ProtocolError as exc:
            log.warning("refused from %s: %s", device, exc.message)
            await self._send(topic(device, "error"), encode(exc.refusal()), qos=0)

    async def _send(self, name: str, payload: bytes, *, qos: int, retain: bool = False) -> None:
        client = self._client
        if client is None:
            return
        with contextlib.suppress(aiomqtt.MqttError):
            await client.publish(name, payload, qos=qos, retain=retain)

    def _device(self, device: str) -> _Device:
        dev = self.devices.get(device)
        if dev is None:
            dev = self.devices[device] = _Device(device)
        return dev

    async def _birth(self, birth: Birth, name: str) -> None:
        try:
            layout = Layout.from_birth(birth)
        except LayoutError as exc:
            # Refused before anything changes: the device keeps its previous state (or is not made).
            raise ProtocolError("invalid", str(exc), name) from None
        dev = self._device(birth.device)
        if dev.online and dev.birth == birth:
            return  # the same birth again (a retained copy after our own reconnect)
        if birth.session != dev.session:
            dev.synced = False  # a new session (a power cycle): nothing it says counts before its snapshot
        if dev.sequencer.session is not None and dev.sequencer.session != birth.session:
            # The birth is the table's word on its session, lower ones too (a board replaced, its flash
            # wiped): followed afresh from its snapshot.
            self._afresh(dev)
        dev.birth, dev.online, dev.session = birth, True, birth.session
        dev.layout = layout
        dev.placed = None
        dev.held = None
        dev.force = dev.dirty = True
        log.info(
            "physical table %s is online (session %d, %d cells)",
            birth.device,
            birth.session,
            len(birth.cells),
        )
        # Whatever stood on it while we did not listen is asked: always a snapshot after a birth.
        self._ask_snapshot(dev, force=True)
        await self._refresh(dev)

    async def _offline(self, offline: Offline) -> None:
        dev = self.devices.get(offline.device)
        if dev is None:
            return  # a device is known from its birth (or its binding): a retained goodbye alone says nothing
        if offline.session < dev.session:
            return  # the will of a session a newer birth already replaced
        dev.online, dev.synced = False, False
        log.info("physical table %s is offline", offline.device)
        await self._refresh(dev)

    def _afresh(self, dev: _Device) -> None:
        """Follow the device's sensors from scratch (a session the table says is its own now): a new
        sequencer, and no piece in the air (the tags bound to units stay: they are on the miniatures)."""
        dev.sequencer = Sequencer()
        dev.tracker.held, dev.tracker.session = None, None
        dev.held, dev.synced = None, False

    def _ack(self, device: str, ack: Ack) -> None:
        pending = self.pending.get(ack.id)
        if pending is None or pending.device != device:
            # A duplicate ack, one for a command of an earlier run, or a forgery: nothing to do.
            log.debug("an ack of %s from %s matches no command sent: ignored", ack.id, device)
            return
        dev = self.devices.get(device)
        if ack.ok:
            if dev is None or dev.snapshot_cmd != ack.id:
                del self.pending[ack.id]
            # A snapshot command is kept until its snapshot comes (re-sent after RETRY_S, the same id).
            return
        log.warning("physical table %s refused command %s: %s", device, ack.id, ack.error)
        if dev is None or dev.snapshot_cmd != ack.id:
            del self.pending[ack.id]
        # A refused snapshot is asked again after RETRY_S (never faster: the table may be busy).

    def _time(self) -> float:
        """The bridge's clock (the event loop's; a test may set its own)."""
        return asyncio.get_running_loop().time()

    def _on_layout(self, dev: _Device, cells: list[TableCell], name: str) -> None:
        """Refuse a message naming a cell the device's birth does not have (no instruction to the players may
        name a cell that does not exist)."""
        layout = dev.layout
        if layout is None:
            return
        known = layout.cells()
        off = [c for c in cells if c not in known]
        if off:
            bad = off[0]
            more = f" (and {len(off) - 1} more)" if len(off) > 1 else ""
            raise ProtocolError(
                "invalid",
                f"cell [{bad[0]}, {bad[1]}]{more} is not a cell of this "
                f"{layout.columns} x {layout.rows} table",
                name,
            )

    async def _sensor(self, dev: _Device, ev: SensorEvent, name: str) -> None:
        self._on_layout(dev, [ev.cell], name)
        now = self._time()
        if ev.session > dev.session:
            # A birth we missed, or a forgery: held (a few) until the snapshot asked now says whose session it
            # is (its answer's session is the truth); not synced meanwhile.
            if len(dev.ahead) < MAX_AHEAD:
                dev.ahead.append(ev)
            dev.synced = False
            self._ask_snapshot(dev)
            await self._refresh(dev)
            return
        if ev.session < dev.session:
            raise ProtocolError(
                "invalid", f"session {ev.session} is not the table's: it follows session {dev.session}", name
            )
        try:
            released = dev.sequencer.feed(ev, now)
        except TooFarAhead as exc:
            raise ProtocolError("invalid", str(exc), name) from None
        for event in released:
            await self._apply(dev, event)
        if dev.sequencer.needs_snapshot(now):
            self.wake()
        await self._refresh(dev)

    async def _refuse(self, dev: _Device, leaf: str, message: str) -> None:
        """A message already taken in refused afterwards (an event held, then found bogus): on ``error``."""
        name = topic(dev.id, leaf)
        log.warning("refused from %s: %s", dev.id, message)
        await self._send(
            topic(dev.id, "error"), encode(ProtocolError("invalid", message, name).refusal()), qos=0
        )

    async def _snapshot(self, dev: _Device, snap: Snapshot, name: str) -> None:
        self._on_layout(dev, [o.cell for o in snap.occupied], name)
        answer = dev.snapshot_cmd is not None and snap.request == dev.snapshot_cmd
        if not answer:
            if snap.session != dev.session:
                raise ProtocolError(
                    "invalid",
                    f"a snapshot of session {snap.session}, not the table's: "
                    f"it follows session {dev.session}",
                    name,
                )
            if dev.synced and snap.request is not None:
                # The answer to a command already answered (a re-send crossed its first answer): the events
                # since say more, and taking it would only drop those it includes.
                return
        checking = answer and dev.checking
        if answer:
            # The snapshot answers its command, whatever its ack.
            self.pending.pop(dev.snapshot_cmd or "", None)
            dev.snapshot_cmd, dev.checking = None, False
        if dev.sequencer.session is not None and dev.sequencer.session != snap.session:
            self._afresh(dev)  # the answer to our own question is the table's session, lower ones too
        dev.session = snap.session
        now = self._time()
        replay = dev.sequencer.snapshot(snap)
        ahead, dev.ahead = dev.ahead, []
        for ev in ahead:
            if ev.session != snap.session:
                await self._refuse(
                    dev,
                    "sensor",
                    f"session {ev.session} is not the table's: its snapshot says {snap.session}",
                )
                continue
            try:
                replay += dev.sequencer.feed(ev, now)
            except TooFarAhead as exc:
                await self._refuse(dev, "sensor", str(exc))
        for ev in dev.sequencer.dropped():
            await self._refuse(
                dev, "sensor", f"seq {ev.seq} is more than {MAX_AHEAD} beyond the snapshot's ({snap.seq})"
            )
        if not dev.sequencer.needs_snapshot(now):
            dev.tracker.reset(snap, self._expected(dev, self._session(dev)))
            dev.synced = True
            held = dev.tracker.held
            if held is None:
                dev.held = None
            elif dev.held is None or dev.held.cell != held.cell:  # still in the air, as the snapshot says
                session = self._session(dev)
                dev.held = self._held(dev, session, held, self._expected(dev, session))
            for cell in list(dev.ignored):
                if dev.ignored[cell] != dev.tracker.sensed.get(cell, _ABSENT):
                    del dev.ignored[cell]  # carried on until it changes: it has
            if dev.refusal is not None and dev.refusal[0] not in dev.tracker.sensed:
                dev.refusal = None  # the refused piece was taken off
            for event in replay:
                await self._apply(dev, event)
            await self._infer(dev, snap, check=checking)
        await self._refresh(dev)

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
            link = _Link(self, dev)
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

    # -- lights and commands out --------------------------------------------------------------------------

    def _lights(self, dev: _Device) -> tuple[FrameLight, ...]:
        session = self._session(dev)
        if session is None:
            return ()
        place = self._placement(dev, session)
        if place is None:
            return ()
        live = session.live
        held = dev.held
        overlay = Overlay(
            held=None if held is None else (held.unit, held.seat),
            refusal=dev.refusal,
            divergent=self.divergent(dev),
        )
        events = live.history[-1].events if live.history else []
        return tuple(table_frame(live.plugin, live.game, live.state, events, place, overlay))

    async def _publish_frame(self, client: aiomqtt.Client, dev: _Device) -> None:
        dev.dirty = False
        failed = dev.lights_failed
        try:
            lights = self._lights(dev)
            dev.lights_failed = False
        except Exception:  # a game's lights that fail must not stop every table's: logged, dark, said
            if not failed:
                log.exception("the lights of physical table %s could not be computed", dev.id)
            dev.lights_failed, lights = True, ()
        if dev.lights_failed != failed:
            await self._refresh(dev)  # the touchscreen says so (once: the next failure changes nothing)
        if lights == dev.sent and not dev.force:
            return
        self.frames += 1
        frame = Frame(referee=self.referee, frame=self.frames, lights=lights)
        await client.publish(topic(dev.id, "frame"), encode(frame), qos=1, retain=True)
        dev.sent, dev.force = lights, False

    def _ask_snapshot(self, dev: _Device, *, force: bool = False, check: bool = False) -> None:
        """Ask the table what stands on it (once at a time; ``force`` replaces a request outstanding;
        ``check``: only a check, the heartbeat's or a piece in the air's, unless another asks it too)."""
        if not check:
            dev.checking = False  # a gap, a new session, a reconnect: its answer may infer a move lost
        if dev.snapshot_cmd is not None and dev.snapshot_cmd in self.pending:
            if not force:
                return
            del self.pending[dev.snapshot_cmd]
        dev.checking = check
        self._commands += 1
        cmd = Command(id=f"c{self._commands}", cmd="snapshot")
        dev.snapshot_cmd = cmd.id
        self.pending[cmd.id] = _Pending(dev.id, cmd, 0.0)
        self.wake()

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
