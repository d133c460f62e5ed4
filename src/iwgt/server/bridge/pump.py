"""The bridge's connection: logging in, the pump (retries, timeouts, heartbeats), lights and commands out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import aiomqtt

from iwgt.hardware.frames import Overlay, table_frame
from iwgt.hardware.mqtt import MqttAuthError, run_forever
from iwgt.hardware.protocol import (
    PREFIX,
    REFEREE_STATUS,
    Command,
    Frame,
    FrameLight,
    RefereeStatus,
    encode,
    topic,
)
from iwgt.server.bridge.state import HEARTBEAT_S, HELD_CHECK_S, RETRY_S, STOP_S, TICK_S, _Device, _Pending

if TYPE_CHECKING:
    pass

from iwgt.server.bridge.base import _Base

log = logging.getLogger("iwgt.bridge")


class _Pump(_Base):
    """``TableBridge``'s connection to the broker and what it sends."""

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
