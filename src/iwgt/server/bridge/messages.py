"""The bridge's messages in: a table's birth, will, acks, sensor events and snapshots, checked and applied."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import aiomqtt

from iwgt.hardware.layout import Layout, LayoutError
from iwgt.hardware.protocol import (
    REFEREE_STATUS,
    Ack,
    Birth,
    Offline,
    ProtocolError,
    SensorEvent,
    Snapshot,
    TableCell,
    check_topic,
    decode,
    decode_status,
    encode,
    topic,
)
from iwgt.hardware.sequence import MAX_AHEAD, Sequencer, TooFarAhead
from iwgt.server.bridge.state import _ABSENT, _Device

if TYPE_CHECKING:
    pass

from iwgt.server.bridge.base import _Base

log = logging.getLogger("iwgt.bridge")


class _Messages(_Base):
    """``TableBridge``'s handling of what the tables publish."""

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
