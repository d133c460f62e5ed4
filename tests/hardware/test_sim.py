"""The simulated table (hardware/sim.py): the virtual table by hand, then SimTable through real brokers.

VirtualTable's events, sessions, stuck sensors, knocks and "follow the lights" are checked against sequences
worked out by hand. SimTable runs against both brokers (the ``broker`` fixture): its retained birth, its will
on a power cycle, ack + snapshot for a command, a lost message, and events queued across a broker restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiomqtt
import orjson
import pytest
from tests.hardware.conftest import BrokerHandle

from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.mqtt import client
from iwgt.hardware.protocol import (
    Ack,
    Birth,
    FrameLight,
    Offline,
    SensorEvent,
    Snapshot,
    decode,
    decode_status,
    topic,
)
from iwgt.hardware.sim import SimError, SimTable, VirtualTable

DATA = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "hardware" / "data"
LIMIT_S = 30
"""A safety net so that a broken broker fails a test instead of hanging it (never an assertion on time)."""


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout(DATA / "table-16x12.toml")


def light(cell: tuple[int, int], effect: str) -> FrameLight:
    return FrameLight(cell=cell, effect=effect, colour="#38bdf8", pattern="steady")


def ev(
    table: VirtualTable, seq: int, cell: tuple[int, int], event: str, tag: str | None = None
) -> SensorEvent:
    return SensorEvent.model_validate(
        {"v": 1, "session": table.session, "seq": seq, "cell": cell, "event": event, "tag": tag}
    )


# ------------------------------------------------------------------------------------------ VirtualTable


def test_lift_and_place_number_the_events(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(2, 3)])
    assert t.lift((2, 3)) == ev(t, 1, (2, 3), "lifted")
    assert t.in_hand is not None and t.in_hand.origin == (2, 3)
    assert t.place((4, 3)) == ev(t, 2, (4, 3), "placed")
    t.take_from_box()
    assert t.place((0, 0)) == ev(t, 3, (0, 0), "placed")
    snap = t.snapshot("c1")
    assert (snap.session, snap.seq, snap.request) == (1, 3, "c1")
    assert [o.cell for o in snap.occupied] == [(0, 0), (4, 3)]


def test_what_a_person_cannot_do(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(1, 1), (2, 2)])
    with pytest.raises(SimError, match="no piece on"):
        t.lift((5, 5))
    with pytest.raises(SimError, match="not a cell of this table"):
        t.lift((16, 0))
    t.lift((1, 1))
    with pytest.raises(SimError, match="already in the hand"):
        t.lift((2, 2))
    with pytest.raises(SimError, match="already holds a piece"):
        t.place((2, 2))
    assert t.seq == 2  # only the one lift was sensed


def test_power_cycle_keeps_the_pieces(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(3, 3)])
    t.lift((3, 3))
    t.place((3, 4))
    t.power_cycle()
    assert (t.session, t.seq) == (2, 1)
    assert t.pieces == {(3, 4): None}
    snap = t.snapshot(None)
    assert (snap.session, snap.seq) == (2, 0)
    assert t.lift((3, 4)) == ev(t, 1, (3, 4), "lifted")


def test_a_stuck_sensor_reads_occupied_whatever(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(6, 6)])
    # Sticking an empty cell's sensor: it now reads a piece that is not there.
    assert t.stick((4, 4)) == ev(t, 1, (4, 4), "placed")
    # Sticking an occupied cell changes nothing it reports; the piece lifted from it goes unseen.
    assert t.stick((6, 6)) is None
    assert t.lift((6, 6)) is None
    assert t.place((4, 4)) is None
    assert [o.cell for o in t.snapshot().occupied] == [(4, 4), (6, 6)]
    # Freeing them: (6, 6) is empty now (lifted), (4, 4) holds the piece (no change).
    assert t.stick((6, 6), on=False) == ev(t, 2, (6, 6), "lifted")
    assert t.stick((4, 4), on=False) is None
    assert t.sensed() == {(4, 4): None}


def test_knock_falls_into_the_first_free_neighbour(layout: Layout) -> None:
    t = VirtualTable(layout)
    # (5, 5) is on an odd row: east is (6, 5), then north-east (6, 4).
    t.stand([(5, 5), (6, 5)])
    assert t.free_neighbour((5, 5)) == (6, 4)
    assert t.knock((5, 5), (6, 4)) == [ev(t, 1, (5, 5), "lifted"), ev(t, 2, (6, 4), "placed")]
    assert t.pieces == {(6, 5): None, (6, 4): None}
    # An even row's north-east is straight up: (2, 2) -> (2, 1) once east (3, 2) is taken.
    t.stand([(2, 2), (3, 2)])
    assert t.free_neighbour((2, 2)) == (2, 1)


def test_identity_sensors_report_tags(layout: Layout) -> None:
    t = VirtualTable(layout, sensor="identity")
    held = t.take_from_box()
    assert held.tag == "tag-1"
    assert t.place((1, 2)) == ev(t, 1, (1, 2), "placed", "tag-1")
    assert t.lift((1, 2)) == ev(t, 2, (1, 2), "lifted", "tag-1")
    t.place((1, 3))
    assert [(o.cell, o.tag) for o in t.snapshot().occupied] == [((1, 3), "tag-1")]


def test_follow_the_lights_moves_the_nearest_extra_piece(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(1, 1), (5, 1), (9, 9)])
    # (2, 1) wants a piece: (1, 1) is one step away, (5, 1) three; (5, 1) goes back in the box;
    # (9, 9) is not lit and stays.
    lights = [light((2, 1), "piece_missing"), light((1, 1), "piece_extra"), light((5, 1), "piece_extra")]
    assert t.tidy_moves(lights) == [((1, 1), (2, 1)), ((5, 1), None)]
    events = t.tidy(lights)
    assert events == [ev(t, 1, (1, 1), "lifted"), ev(t, 2, (2, 1), "placed"), ev(t, 3, (5, 1), "lifted")]
    assert t.pieces == {(2, 1): None, (9, 9): None}
    assert t.in_hand is None


def test_follow_the_lights_takes_from_the_box(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(1, 1), (7, 6), (3, 3)])
    lights = [
        light((2, 1), "piece_missing"),
        light((6, 6), "piece_missing"),
        light((10, 2), "piece_missing"),
        light((3, 3), "piece_missing"),  # already has its piece: nothing to do
        light((1, 1), "piece_extra"),
        light((7, 6), "piece_extra"),
        light((8, 8), "piece_extra"),  # nothing there to take away
        light((4, 4), "move"),  # a game's light is no instruction to the person
    ]
    assert t.tidy_moves(lights) == [((1, 1), (2, 1)), ((7, 6), (6, 6)), (None, (10, 2))]
    t.tidy(lights)
    assert sorted(t.pieces) == [(2, 1), (3, 3), (6, 6), (10, 2)]
    assert t.seq == 6  # four moves' lifts and places, and one place from the box


def test_follow_the_lights_takes_a_refused_piece_back(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(6, 4), (9, 9)])
    # A piece moved from (5, 4) to (6, 4) and refused: red on (6, 4), "put it back" on (5, 4). The red piece
    # goes back; a red light alone (no missing cell) sends nothing to the box.
    lights = [light((5, 4), "piece_missing"), light((6, 4), "illegal")]
    assert t.tidy_moves(lights) == [((6, 4), (5, 4))]
    assert t.tidy_moves([light((9, 9), "illegal")]) == []
    t.tidy(lights)
    assert t.pieces == {(5, 4): None, (9, 9): None}


def test_follow_the_lights_puts_the_piece_in_hand_back_first(layout: Layout) -> None:
    t = VirtualTable(layout)
    t.stand([(4, 4)])
    t.lift((4, 4))
    assert t.tidy([]) == [ev(t, 2, (4, 4), "placed")]
    assert t.in_hand is None and t.pieces == {(4, 4): None}


# ---------------------------------------------------------------------------------- SimTable over MQTT


def run(make: Callable[[], Awaitable[None]]) -> None:
    """Run one async test body in a fresh event loop, failing it if it hangs."""

    async def body() -> None:
        async with asyncio.timeout(LIMIT_S):
            await make()

    asyncio.run(body())


class Watcher:
    """The referee's side of one device's topics: every message received, kept per leaf, in order."""

    def __init__(self, mqtt: aiomqtt.Client, device: str) -> None:
        self.mqtt = mqtt
        self.device = device
        self.got: list[tuple[str, bytes, bool]] = []
        self._new = asyncio.Event()

    async def read(self) -> None:
        async for m in self.mqtt.messages:
            self.got.append((str(m.topic).rsplit("/", 1)[-1], bytes(m.payload), bool(m.retain)))  # type: ignore[arg-type]
            self._new.set()

    async def until(self, test: Callable[[], bool]) -> None:
        while not test():
            self._new.clear()
            await self._new.wait()

    def of(self, leaf: str) -> list[bytes]:
        return [payload for got_leaf, payload, _ in self.got if got_leaf == leaf]

    def events(self) -> list[SensorEvent]:
        return [decode(SensorEvent, p, topic(self.device, "sensor")) for p in self.of("sensor")]

    def statuses(self) -> list[Birth | Offline]:
        return [decode_status(p, topic(self.device, "status")) for p in self.of("status")]


async def started(sim: SimTable) -> asyncio.Task[None]:
    task = asyncio.create_task(sim.run())
    await sim.connected.wait()
    return task


async def finish(sim: SimTable, task: asyncio.Task[None]) -> None:
    await sim.stop()
    await task


def test_birth_is_retained_with_every_cell(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-1", broker.url_table)
        task = await started(sim)
        # A referee that comes later still finds the table: the birth is retained.
        async with client(broker.url_referee, "late-referee") as ref:
            w = Watcher(ref, "sim-1")
            await ref.subscribe(topic("sim-1", "status"), qos=1)
            reader = asyncio.create_task(w.read())
            await w.until(lambda: bool(w.got))
            leaf, payload, retained = w.got[0]
            birth = decode(Birth, payload, topic("sim-1", "status"))
            assert (leaf, retained) == ("status", True)
            assert (birth.session, birth.sensor, birth.columns, birth.rows) == (1, "presence", 16, 12)
            assert len(birth.cells) == 16 * 12
            assert dict((c.cell, c.leds) for c in birth.cells) == layout.cells()
            reader.cancel()
        await finish(sim, task)

    run(body)


def test_power_cycle_publishes_the_will_then_a_new_session(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-2", broker.url_table)
        sim.table.stand([(3, 3)])
        task = await started(sim)
        async with client(broker.url_referee, "referee") as ref:
            w = Watcher(ref, "sim-2")
            await ref.subscribe(topic("sim-2", "status"), qos=1)
            await ref.subscribe(topic("sim-2", "sensor"), qos=1)
            reader = asyncio.create_task(w.read())
            await w.until(lambda: len(w.statuses()) == 1)  # the retained birth of session 1
            sim.power_cycle()
            await w.until(lambda: len(w.statuses()) == 3)
            first, will, second = w.statuses()
            assert isinstance(first, Birth) and first.session == 1
            assert will == Offline(device="sim-2", online=False, session=1)
            assert isinstance(second, Birth) and second.session == 2
            await sim.connected.wait()
            sim.lift((3, 3))
            await w.until(lambda: len(w.events()) == 1)
            assert [(e.session, e.seq, e.cell, e.event) for e in w.events()] == [(2, 1, (3, 3), "lifted")]
            reader.cancel()
        await finish(sim, task)

    run(body)


def test_commands_are_acked_and_a_snapshot_follows(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-3", broker.url_table)
        sim.table.stand([(5, 5), (0, 1)])
        task = await started(sim)
        async with client(broker.url_referee, "referee") as ref:
            w = Watcher(ref, "sim-3")
            for leaf in ("ack", "snapshot", "sensor"):
                await ref.subscribe(topic("sim-3", leaf), qos=1)
            reader = asyncio.create_task(w.read())
            sim.lift((5, 5))
            await w.until(lambda: len(w.events()) == 1)
            cmd = topic("sim-3", "cmd")
            await ref.publish(cmd, b'{"v":1,"id":"c7","cmd":"snapshot"}', qos=1)
            await w.until(lambda: len(w.of("snapshot")) == 1)
            assert [leaf for leaf, _, _ in w.got] == ["sensor", "ack", "snapshot"]
            assert decode(Ack, w.of("ack")[0], topic("sim-3", "ack")) == Ack(id="c7", ok=True)
            snap = decode(Snapshot, w.of("snapshot")[0], topic("sim-3", "snapshot"))
            assert (snap.session, snap.seq, snap.request) == (1, 1, "c7")
            assert [o.cell for o in snap.occupied] == [(0, 1)]
            # identify: acked; off the table: refused with the reason; a command without a version: its id.
            await ref.publish(cmd, b'{"v":1,"id":"c8","cmd":"identify","cell":[2,2],"ms":5000}', qos=1)
            await ref.publish(cmd, b'{"v":1,"id":"c9","cmd":"identify","cell":[40,2]}', qos=1)
            await ref.publish(cmd, b'{"id":"c10","cmd":"snapshot"}', qos=1)
            await w.until(lambda: len(w.of("ack")) == 4)
            acks = [decode(Ack, p, topic("sim-3", "ack")) for p in w.of("ack")]
            assert [(a.id, a.ok) for a in acks] == [("c7", True), ("c8", True), ("c9", False), ("c10", False)]
            assert acks[2].error is not None and "[40, 2]" in acks[2].error
            assert acks[3].error is not None and "v:" in acks[3].error
            # While it blinks, at the start of a period, the cell's LEDs are white (the renderer's own white).
            start, _end = sim.identifying[(2, 2)]
            leds = sim.leds(now=start)
            lit = leds[list(layout.cells()[(2, 2)])]
            assert (lit > 0).all() and (lit[:, 0] == lit[:, 1]).all() and (lit[:, 1] == lit[:, 2]).all()
            assert not leds[list(layout.cells()[(3, 2)])].any()
            reader.cancel()
        await finish(sim, task)

    run(body)


def test_a_frame_lights_the_leds(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-4", broker.url_table)
        got_frame = asyncio.Event()
        sim.on_change = lambda: got_frame.set() if sim.frame and sim.referee_online is not None else None
        task = await started(sim)
        async with client(broker.url_referee, "referee") as ref:
            status = b'{"v":1,"online":true,"referee":"r1"}'
            await ref.publish("iwgt/v1/referee/status", status, qos=1, retain=True)
            frame = {
                "v": 1,
                "referee": "r1",
                "frame": 3,
                "lights": [{"cell": [4, 2], "effect": "move", "colour": "#ff0000", "pattern": "steady"}],
            }
            await ref.publish(topic("sim-4", "frame"), orjson.dumps(frame), qos=1, retain=True)
            await got_frame.wait()
        assert sim.frame is not None and sim.frame.frame == 3
        assert sim.referee_online is True
        leds = sim.leds()
        red = leds[list(layout.cells()[(4, 2)])]
        # Steady red: 255 * brightness * 1 ** gamma in red, nothing else; every other LED dark.
        level = round(255 * layout.brightness)
        assert red.tolist() == [[level, 0, 0]] * len(red)
        assert int(leds.sum()) == level * len(red)
        # The referee clears its retained frame (an empty payload): the table goes dark.
        dark = asyncio.Event()
        sim.on_change = lambda: dark.set() if sim.frame is None else None
        async with client(broker.url_referee, "referee") as ref:
            await ref.publish(topic("sim-4", "frame"), b"", qos=1, retain=True)
            await dark.wait()
        assert not sim.leds().any()
        await finish(sim, task)

    run(body)


def test_drop_next_loses_exactly_one_event(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-5", broker.url_table)
        sim.table.stand([(1, 1)])
        task = await started(sim)
        async with client(broker.url_referee, "referee") as ref:
            w = Watcher(ref, "sim-5")
            await ref.subscribe(topic("sim-5", "sensor"), qos=1)
            reader = asyncio.create_task(w.read())
            sim.lift((1, 1))
            sim.drop_next(1)
            sim.place((2, 1))
            sim.lift((2, 1))
            sim.place((3, 1))
            await w.until(lambda: len(w.events()) == 3)
            # One publisher at QoS 1: in order, so the lost seq 2 would have come before seq 4.
            assert [(e.seq, e.event, e.cell) for e in w.events()] == [
                (1, "lifted", (1, 1)),
                (3, "lifted", (2, 1)),
                (4, "placed", (3, 1)),
            ]
            assert (sim.dropped, sim.pending_drops) == (1, 0)
            reader.cancel()
        await finish(sim, task)

    run(body)


def test_events_made_while_the_broker_is_away_arrive_in_order(broker: BrokerHandle, layout: Layout) -> None:
    async def body() -> None:
        sim = SimTable(layout, "sim-6", broker.url_table)
        sim.table.stand([(1, 1)])
        task = await started(sim)
        made: list[SensorEvent] = []
        queued = asyncio.Event()

        def on_change() -> None:
            # The moment the controller sees its broker gone: hold its cable out (so that the referee below
            # can subscribe again first) and move a piece: the events wait in its buffer.
            if not sim.online and not queued.is_set():
                queued.set()
                sim.unplug()
                made.extend(sim.lift((1, 1)) + sim.place((2, 2)))

        sim.on_change = on_change
        await broker.restart()
        await queued.wait()
        assert [e.seq for e in made] == [1, 2] and len(sim.queue) == 2
        async with client(broker.url_referee, "referee") as ref:
            w = Watcher(ref, "sim-6")
            await ref.subscribe(topic("sim-6", "sensor"), qos=1)
            await ref.subscribe(topic("sim-6", "status"), qos=1)
            reader = asyncio.create_task(w.read())
            sim.plug()
            await w.until(lambda: len(w.events()) == 2)
            assert [(e.session, e.seq, e.event, e.cell) for e in w.events()] == [
                (1, 1, "lifted", (1, 1)),
                (1, 2, "placed", (2, 2)),
            ]
            # The same session: a broker restart is no power cycle.
            assert [s.session for s in w.statuses() if isinstance(s, Birth)] == [1]
            assert not sim.queue
            reader.cancel()
        await finish(sim, task)

    run(body)
