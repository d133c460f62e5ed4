"""The referee's bridge (server/bridge.py) end to end: a game played by sensor events through a real broker.

Each test runs twice (conftest's ``broker``: the embedded amqtt broker, then Mosquitto). The table's side is
the simulated table (``SimTable``) or, for messages no honest controller sends, a raw client logged in as the
``table`` user.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import aiomqtt
import orjson
import pytest

from iwgt.core.errors import GameError
from iwgt.hardware.layout import load_layout
from iwgt.hardware.mqtt import MqttUrl, client, drop
from iwgt.hardware.places import placement
from iwgt.hardware.protocol import (
    REFEREE_STATUS,
    Ack,
    Occupied,
    Offline,
    RefereeStatus,
    Refusal,
    SensorEvent,
    Snapshot,
    decode,
    encode,
    topic,
)
from iwgt.hardware.sim import SimTable
from iwgt.server.bridge import DIVERGED, SENSOR, TableBridge
from iwgt.server.clock import ManualClock
from iwgt.server.manager import TableManager
from iwgt.table.plain import table_of

from .bridge_kit import DEVICE, LAYOUT, Rig, confirm_deployment, record, rig, unstarted_bridge, until

pytestmark = pytest.mark.timeout(180)

BOT_DELAY = 1.0
"""The bot's pause before each action, on a manual clock."""


async def _move_by_hand(r: Rig) -> tuple[int, Any, Any]:
    """Lift a piece of the seat to move and put it on its first legal cell; the version before, the piece and
    the move."""
    piece, move = r.mover_move()
    v0 = r.session.live.version
    r.sim.lift(r.tc(piece.cell))
    await until(lambda: r.view()["held"] is not None, "the piece in the air")
    r.sim.place(r.tc(move["to"]))
    await until(lambda: r.session.live.version > v0, "the move committed")
    return v0, piece, move


def test_a_move_by_lift_and_place_is_committed_as_the_sensors_and_the_frame_follows(
    tmp_path: Path, broker: Any
) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, move = r.mover_move()
            v0 = live.version
            r.sim.lift(r.tc(piece.cell))
            held = await until(lambda: r.view()["held"], "the piece in the air")
            assert (
                held["unit"] == piece.unit and held["cell"] == list(piece.cell) and held["name"] == piece.name
            )
            # The piece in the air is no divergence, but the game waits for it to land (no screen acts).
            assert r.view()["blocked"] == f"{piece.name} is in the air: put it down on the table first"
            assert r.view()["divergent"] == []
            lifted_frame = await until(lambda: r.frame_id(), "a frame")
            r.sim.place(r.tc(move["to"]))
            await until(lambda: live.version > v0, "the move committed")
            row = r.manager.journal.steps(r.session.row.id)[v0]  # the row after the last one before
            assert row.seq == v0 + 1 and row.origin == SENSOR and row.action == move["action"]
            assert row.client_id is not None and row.client_id.startswith(f"hw:{DEVICE}:1:")
            assert live.history[-1].origin == SENSOR
            moved = next(p for p in r.pieces() if p.unit == piece.unit)
            assert list(moved.cell) == move["to"]
            view = r.view()
            assert view["held"] is None and view["refusal"] is None and view["divergent"] == []
            # The journal's sensor step loads again (a restarted server resumes the game as it stands).
            again = TableManager(r.manager.journal_path, bot_delay=0.0)
            again.start()
            try:
                resumed = again.get(r.session.row.id).live
                assert resumed.version == live.version and resumed.history[-1].origin == SENSOR
                assert resumed.referee.steps[-1].digest == live.referee.steps[-1].digest
            finally:
                again.stop()
            # The frame follows the game: a newer one, with what the referee computes for the new state.
            await until(
                lambda: (
                    r.frame_id() > lifted_frame
                    and r.sim.frame is not None
                    and r.sim.frame.lights == r.bridge._lights(r.dev)
                ),
                "the frame of the new state",
            )

    asyncio.run(body())


def test_a_refused_placement_lights_red_and_gates_the_game_until_the_piece_is_back(
    tmp_path: Path, broker: Any
) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, _ = r.mover_move()
            legal = {
                tuple(m["to"])
                for m in table_of(live.plugin).selection(live.game, live.state, piece.seat, piece.unit)[
                    "moves"
                ]
            }
            occupied = {p.cell for p in r.pieces()}
            # A cell of the board out of the piece's reach (the far corner from it), free of pieces.
            far = max(
                ((c, rr) for c in range(12) for rr in range(9) if (c, rr) not in legal | occupied),
                key=lambda cell: abs(cell[0] - piece.cell[0]) + abs(cell[1] - piece.cell[1]),
            )
            v0 = live.version
            origin, bad = r.tc(piece.cell), r.tc(far)
            r.sim.lift(origin)
            await until(lambda: r.view()["held"] is not None, "the piece in the air")
            r.sim.place(bad)
            refusal = await until(lambda: r.view()["refusal"], "the refusal")
            assert refusal["cell"] == list(far) and refusal["reason"]
            assert live.version == v0  # nothing was committed
            view = r.view()
            wants = {(tuple(d["table_cell"]), d["want"]) for d in view["divergent"]}
            assert wants == {(origin, "piece"), (bad, "empty")}
            assert view["blocked"] is not None and f"[{piece.cell[0]}, {piece.cell[1]}]" in view["blocked"]
            # Red on the refused cell in the table's frame.
            await until(
                lambda: (
                    r.sim.frame is not None
                    and any(lt.cell == bad and lt.effect == "illegal" for lt in r.sim.frame.lights)
                ),
                "the red light on the refused cell",
            )
            # A screen's act (or the bot's, or the timer's: the same gate) is refused while the table differs.
            with pytest.raises(GameError) as refused:
                await live.act(piece.seat, {"type": "end_phase"}, "screen-1")
            assert refused.value.code == DIVERGED
            assert f"put {piece.name} back on [{piece.cell[0]}, {piece.cell[1]}]" in refused.value.message
            assert [d["back"] for d in view["divergent"] if d["want"] == "piece"] == [
                True
            ]  # lifted from there
            assert f"take the piece off [{far[0]}, {far[1]}]" in refused.value.message
            assert live.version == v0
            # The piece goes back: the table agrees again, and the game moves on.
            r.sim.lift(bad)
            r.sim.place(origin)
            await until(lambda: r.bridge.blocked(r.dev) is None, "the table to agree again")
            await until(lambda: r.view()["refusal"] is None and r.view()["divergent"] == [], "a clear view")
            await live.act(piece.seat, {"type": "end_phase"}, "screen-2")
            assert live.version == v0 + 1

    asyncio.run(body())


def test_duplicated_and_reordered_sensor_events_make_one_move(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, move = r.mover_move()
            v0 = live.version
            # The controller's own events, sent by hand: place before lift, each twice (QoS 1 may redeliver).
            lift = r.sim.table.lift(r.tc(piece.cell))
            place = r.sim.table.place(r.tc(move["to"]))
            assert lift is not None and place is not None
            async with client(broker.url_table, "resender") as c:
                for ev in (place, lift, place, lift):
                    await c.publish(topic(DEVICE, "sensor"), encode(ev), qos=1)
            await until(lambda: live.version > v0, "the move committed")
            await until(lambda: r.dev.sequencer.next_seq == place.seq + 1, "every event taken")
            rows = r.manager.journal.steps(r.session.row.id)[v0:]
            assert [(row.origin, row.action) for row in rows] == [(SENSOR, move["action"])]  # once, not twice
            assert r.dev.tracker.sensed == r.sim.table.sensed()
            await r.settled()
            # A late duplicate changes nothing.
            async with client(broker.url_table, "resender") as c:
                await c.publish(topic(DEVICE, "sensor"), encode(place), qos=1)
                await c.publish(topic(DEVICE, "sensor"), encode(lift), qos=1)
            await r.settled()
            assert live.version == v0 + 1

    asyncio.run(body())


def test_a_lost_event_is_mended_by_a_snapshot(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, move = r.mover_move()
            v0 = live.version
            r.sim.drop_next(1)  # the lift never reaches the broker: the place comes early (a gap)
            r.sim.lift(r.tc(piece.cell))
            r.sim.place(r.tc(move["to"]))
            # The gap times out, a snapshot is asked: the piece gone from its cell and standing on a cell it
            # may move to is that move.
            await until(lambda: live.version > v0, "the move taken from the snapshot")
            assert r.manager.journal.steps(r.session.row.id)[v0].origin == SENSOR
            await r.settled()

    asyncio.run(body())


def test_a_broker_restart_loses_nothing(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, move = r.mover_move()
            v0 = live.version
            await broker.restart()  # every line drops; retained messages are gone
            r.sim.lift(r.tc(piece.cell))  # moved while the broker was away: queued, or read by a snapshot
            r.sim.place(r.tc(move["to"]))
            await until(lambda: r.bridge.connected.is_set() and r.sim.online, "both back on the broker")
            await until(lambda: live.version > v0, "the move made during the outage")
            rows = r.manager.journal.steps(r.session.row.id)[v0:]
            assert [(row.origin, row.action) for row in rows] == [(SENSOR, move["action"])]
            await r.settled()
            # The frame is back on the (restarted) broker: the table has the current lights.
            await until(
                lambda: r.sim.frame is not None and r.sim.frame.lights == r.bridge._lights(r.dev),
                "the current frame after the restart",
            )
            # And the game goes on by sensors.
            await _move_by_hand(r)

    asyncio.run(body())


def test_a_power_cycle_is_reconciled_by_a_snapshot(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, _ = r.mover_move()
            origin = r.tc(piece.cell)
            # A piece taken away as the power goes (no event: the controller was going down).
            kept = r.sim.table.pieces.pop(origin)
            r.sim.power_cycle()
            await until(lambda: not r.dev.online or r.dev.session == 2, "the will: the table offline")
            with pytest.raises(GameError) as refused:
                await live.act(piece.seat, {"type": "end_phase"}, "screen-1")
            assert refused.value.code == DIVERGED  # offline, then read anew: the piece is missing either way
            await until(lambda: r.dev.online and r.dev.session == 2 and r.dev.synced, "the new session read")
            view = r.view()
            assert [(d["table_cell"], d["want"], d["unit"]) for d in view["divergent"]] == [
                ([origin[0], origin[1]], "piece", piece.unit)
            ]
            r.sim.table.pieces[origin] = kept  # put back as the power goes again: still no event
            r.sim.power_cycle()
            await until(lambda: r.dev.session == 3 and r.dev.synced, "the third session read")
            await r.settled()
            assert r.view()["divergent"] == []
            await _move_by_hand(r)  # the new session's events are used

    asyncio.run(body())


def test_a_network_cut_queues_the_table_s_events_and_nothing_is_lost(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            piece, move = r.mover_move()
            v0 = live.version
            r.sim.unplug()  # the cable: the broker publishes the will, the session stays
            await until(lambda: not r.dev.online, "the will: the table offline")
            assert "offline" in (r.bridge.blocked(r.dev) or "")
            r.sim.lift(r.tc(piece.cell))  # queued in the controller while the cable is out
            r.sim.place(r.tc(move["to"]))
            assert live.version == v0
            r.sim.plug()
            await until(lambda: live.version > v0, "the queued move")
            rows = r.manager.journal.steps(r.session.row.id)[v0:]
            assert [(row.origin, row.action) for row in rows] == [(SENSOR, move["action"])]
            assert r.dev.session == 1
            await r.settled()

    asyncio.run(body())


def test_malformed_messages_are_refused_on_error_and_change_nothing(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            v0, sensed, seq = live.version, dict(r.dev.tracker.sensed), r.dev.sequencer.next_seq
            good = SensorEvent(session=1, seq=seq, cell=(0, 0), event="placed").model_dump(mode="json")
            bad: list[tuple[str, bytes, str]] = [
                ("sensor", b"not json", "malformed"),
                ("sensor", b"[1, 2]", "malformed"),
                ("sensor", orjson.dumps({**good, "v": 2}), "version"),
                ("sensor", orjson.dumps({**good, "seq": 0}), "invalid"),
                ("sensor", orjson.dumps({**good, "event": "dropped"}), "invalid"),
                ("snapshot", orjson.dumps({"v": 1, "session": 1}), "invalid"),
                (
                    "status",
                    orjson.dumps({"v": 1, "device": "other", "online": False, "session": 1}),
                    "invalid",
                ),
            ]
            async with client(broker.url_table, "prankster") as c:
                await c.subscribe(topic(DEVICE, "error"), qos=0)
                for leaf, payload, _ in bad:
                    await c.publish(topic(DEVICE, leaf), payload, qos=1)
                got: list[Refusal] = []
                async with asyncio.timeout(30):
                    async for message in c.messages:
                        if str(message.topic) != topic(DEVICE, "error"):
                            continue  # amqtt also hands a new subscriber the retained frame of another topic
                        got.append(decode(Refusal, bytes(message.payload), str(message.topic)))  # type: ignore[arg-type]
                        if len(got) == len(bad):
                            break
            assert [g.error for g in got] == [code for _, _, code in bad]
            assert all(g.topic == topic(DEVICE, leaf) for g, (leaf, _, _) in zip(got, bad, strict=True))
            assert "seq" in got[3].message  # it says what was wrong
            assert live.version == v0 and r.dev.tracker.sensed == sensed and r.dev.sequencer.next_seq == seq
            assert r.dev.online and r.bridge.blocked(r.dev) is None

    asyncio.run(body())


def test_an_unauthenticated_client_is_refused(broker: Any) -> None:
    async def body() -> None:
        url = MqttUrl.parse(broker.url_table)
        for user, password in (("table", "wrong"), (None, None), ("nobody", "x")):
            with pytest.raises(aiomqtt.MqttError):
                async with aiomqtt.Client(
                    url.host, url.port, username=user, password=password, identifier="intruder", timeout=10
                ) as c:
                    await c.publish(topic(DEVICE, "sensor"), b"{}", qos=1)

    asyncio.run(body())


def test_the_gate_and_carry_on(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker) as r:
            live = r.session.live
            seat = live.to_move
            occupied = {p.cell for p in r.pieces()}
            stuck_game = next((c, 4) for c in range(12) if (c, 4) not in occupied)
            stuck = r.tc(stuck_game)
            r.sim.stick(stuck, True)  # a sensor stuck on: the table reads a piece where the game has none
            await until(lambda: r.view()["divergent"], "the stuck cell")
            view = r.view()
            assert view["divergent"] == [
                {
                    "cell": list(stuck_game),
                    "table_cell": list(stuck),
                    "want": "empty",
                    "unit": None,
                    "name": None,
                    "back": False,
                }
            ]
            assert view["blocked"] == (
                f"the table differs from the game: take the piece off [{stuck_game[0]}, {stuck_game[1]}]"
            )
            with pytest.raises(GameError) as refused:
                await live.act(seat, {"type": "end_phase"}, "screen-1")
            assert refused.value.code == DIVERGED and refused.value.message == view["blocked"]
            v0 = live.version
            # The bot and the timer act through the same gate: refused alike; the timer's end is owed.
            with pytest.raises(GameError) as refused:
                await live.act(seat, {"type": "end_phase"}, f"bot:{v0}", origin="bot")
            assert refused.value.code == DIVERGED
            await r.session._time_is_up(seat, {"type": "end_phase"})
            assert live.version == v0
            # The players carry on past it: the game moves on (the owed timer's end first), though the cell
            # still reads wrongly.
            assert r.session.hardware is not None
            r.session.hardware.carry_on()
            await until(lambda: r.view()["blocked"] is None, "the carried-on cell ignored")
            assert r.view()["divergent"] == []
            await until(lambda: live.version == v0 + 1, "the owed timer's end taken")
            assert live.history[-1].origin == "timer" and live.history[-1].actor == seat
            # Until it changes again: freed, then stuck again, it is read (and differs) once more.
            r.sim.stick(stuck, False)
            r.sim.stick(stuck, True)
            await until(lambda: r.view()["divergent"], "the cell read again")
            r.sim.stick(stuck, False)
            await r.settled()

    asyncio.run(body())


def test_a_bot_refused_by_the_gate_plays_on_once_the_table_agrees(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        clock = ManualClock()  # the bot pauses BOT_DELAY before each action: only when the test says
        async with rig(tmp_path, broker, seats=("human", "bot"), clock=clock, bot_delay=BOT_DELAY) as r:
            live = r.session.live
            for _ in range(10):  # the person ends phases until the bot has its turn
                if live.to_move == 1:
                    break
                await live.act(0, {"type": "end_phase"}, f"end-{live.version}")
                r.session.after_step()
                await r.settled()
            assert live.to_move == 1
            await until(lambda: clock.waiting(), "the bot pausing before its action")
            stuck = next(r.tc((c, 4)) for c in range(12) if (c, 4) not in {p.cell for p in r.pieces()})
            r.sim.stick(stuck, True)
            await until(lambda: r.bridge.blocked(r.dev), "the table to differ")
            v0 = live.version
            clock.advance(BOT_DELAY)  # the bot acts: refused by the gate, its driver stops
            bots = r.session.bots
            await until(lambda: bots._task is not None and bots._task.done(), "the bot refused")
            assert live.version == v0
            r.sim.stick(stuck, False)  # the table agrees again: the bot is woken
            await until(lambda: clock.waiting(), "the bot pausing again")
            clock.advance(BOT_DELAY)
            await until(lambda: live.version > v0, "the bot's action")
            assert live.history[-1].origin == "bot"
            # Its action moved a piece (seed 3: Wearg Warriors to [8, 6]): the table differs until a hand
            # moves it, and the bot's next action is refused meanwhile.
            assert live.history[-1].action["type"] == "move" and r.bridge.blocked(r.dev) and live.to_move == 1
            # Its piece never stood on its new cell: it is put ON it (not "back"), and taken off the old one.
            wanted = [d for d in r.view()["divergent"] if d["want"] == "piece"]
            assert len(wanted) == 1 and wanted[0]["back"] is False
            (c, rr), name = wanted[0]["cell"], wanted[0]["name"]
            blocked = r.bridge.blocked(r.dev) or ""
            assert f"put {name} on [{c}, {rr}]" in blocked and "back" not in blocked
            v1 = live.version
            await until(lambda: clock.waiting(), "the bot pausing before its next action")
            clock.advance(BOT_DELAY)
            await until(lambda: bots._task is not None and bots._task.done(), "the bot refused again")
            assert live.version == v1
            # The hand follows the lights the table shows: wait until they are the referee's for this state
            # (asking for the bot's piece), or it would follow an older frame and move nothing.
            await until(
                lambda: (
                    r.sim.frame is not None
                    and r.sim.frame.lights == r.bridge._lights(r.dev)
                    and {"piece_missing", "piece_extra"} <= {lt.effect for lt in r.sim.frame.lights}
                ),
                "the lights asking for the bot's piece",
            )
            assert r.sim.tidy()  # a hand follows the lights: the bot's piece goes where the game has it
            await r.settled()
            await until(lambda: clock.waiting(), "the bot woken")
            clock.advance(BOT_DELAY)
            await until(lambda: live.version > v1, "the bot's next action")
            assert live.history[-1].origin == "bot"

    asyncio.run(body())


def test_the_referee_status_is_retained_with_a_last_will(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker, bind=False) as r:
            await until(lambda: r.sim.referee_online is True, "the referee online (retained)")
            seen: list[RefereeStatus] = []
            async with client(broker.url_table, "watcher") as c:
                await c.subscribe(REFEREE_STATUS, qos=1)

                async def watch() -> None:
                    async for message in c.messages:
                        if str(message.topic) == REFEREE_STATUS:  # amqtt may hand over others' retained ones
                            seen.append(decode(RefereeStatus, bytes(message.payload), REFEREE_STATUS))  # type: ignore[arg-type]

                watcher = asyncio.get_running_loop().create_task(watch())
                await until(lambda: seen, "the retained status")
                assert seen[0].referee == r.bridge.referee
                assert r.bridge._client is not None
                drop(r.bridge._client)  # the referee's line cut: the broker publishes its will
                await until(lambda: any(not s.online for s in seen), "the referee's will")
                await until(lambda: len(seen) >= 3 and seen[-1].online, "the referee back online")
                await r.bridge.stop()  # a clean stop says so itself
                await until(lambda: not seen[-1].online, "the referee offline after its stop")
                watcher.cancel()

    asyncio.run(body())


def test_an_unbound_device_gates_nothing(tmp_path: Path, broker: Any) -> None:
    async def body() -> None:
        async with rig(tmp_path, broker, bind=False) as r:
            assert r.session.hardware is None and r.session.snapshot().hardware is None
            r.sim.stick((0, 0), True)
            await until(lambda: r.dev.tracker.sensed.get((0, 0), 0) is None, "the event followed")
            live = r.session.live
            v0 = live.version
            await live.act(live.to_move, {"type": "end_phase"}, "screen-1")
            assert live.version == v0 + 1

    asyncio.run(body())


def test_the_bridge_in_process_sessions_snapshots_and_order(tmp_path: Path) -> None:
    """The bridge fed by hand (no broker): what it asks, when it trusts the table, what it plays."""

    async def body() -> None:
        async with unstarted_bridge(tmp_path) as (manager, bridge):
            session = await manager.import_record(record())
            await confirm_deployment(session)
            live = session.live
            layout = load_layout(LAYOUT)
            adapter: Any = table_of(live.plugin)
            obs = live.game.observe(live.state, None)
            place = placement(layout, adapter.surface(obs))
            occupied = [Occupied(cell=place.to_table(p.cell)) for p in adapter.pieces(obs)]

            async def send(leaf: str, model: Any) -> None:
                await bridge.handle(topic(DEVICE, leaf), encode(model))

            await send("status", layout.to_birth(DEVICE, 1, "test"))
            dev = bridge.devices[DEVICE]
            await bridge.bind(DEVICE, session.row.id)
            # A birth (and a binding) ask what stands on the table: one snapshot command at a time.
            asked = [p.command for p in bridge.pending.values()]
            assert [(c.cmd, c.id) for c in asked] == [("snapshot", dev.snapshot_cmd)]
            assert (
                bridge.blocked(dev)
                == f"the game waits for the physical table {DEVICE} to say what stands on it "
                "(or free it in the lobby)"
            )
            # A refused snapshot command is kept, to be asked again.
            await send("ack", Ack(id=asked[0].id, ok=False, error="busy"))
            assert asked[0].id in bridge.pending
            await send("snapshot", Snapshot(session=1, seq=0, request=asked[0].id, occupied=tuple(occupied)))
            assert bridge.pending == {} and dev.synced and bridge.blocked(dev) is None
            # The place comes before the lift: held, then both in order, one move.
            seat = live.to_move
            piece = next(p for p in adapter.pieces(obs) if p.seat == seat)
            move = adapter.selection(live.game, live.state, seat, piece.unit)["moves"][0]
            v0 = live.version
            origin, to = place.to_table(piece.cell), place.to_table(tuple(move["to"]))
            await send("sensor", SensorEvent(session=1, seq=2, cell=to, event="placed"))
            assert live.version == v0 and [e.seq for e in dev.sequencer.waiting] == [2]
            await send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            assert live.version == v0 + 1 and live.history[-1].origin == SENSOR
            assert manager.journal is not None
            assert manager.journal.steps(session.row.id)[-1].client_id == f"hw:{DEVICE}:1:2"
            await send("sensor", SensorEvent(session=1, seq=2, cell=to, event="placed"))  # again: nothing
            assert live.version == v0 + 1 and bridge.blocked(dev) is None
            # A new session whose will never came (a broker restarted meanwhile): not trusted until read.
            await send("status", layout.to_birth(DEVICE, 2, "test"))
            assert not dev.synced and "say what stands" in (bridge.blocked(dev) or "")
            await send("sensor", SensorEvent(session=2, seq=1, cell=to, event="lifted"))
            assert dev.tracker.sensed.get(to, "none") != "none"  # held back until the snapshot
            again = dev.snapshot_cmd
            await send("snapshot", Snapshot(session=2, seq=0, request=again, occupied=()))
            # The held event follows the snapshot: the table is empty, every piece missing.
            wants = {d.want for d in bridge.divergent(dev)}
            assert dev.synced and wants == {"piece"} and "put" in (bridge.blocked(dev) or "")

    asyncio.run(body())


def test_the_pump_stops_when_cancelled_as_it_is_woken(tmp_path: Path) -> None:
    """A lost line cancels the pump right after the last message woke it (an Offline's refresh): the pump must
    end, or the bridge never reconnects (Python 3.11's wait_for swallowed a cancel whose inner wait had just
    completed: the bridge kept its dead connection until it was stopped)."""

    async def body() -> None:
        async with unstarted_bridge(tmp_path) as (_manager, bridge):
            pump = asyncio.get_running_loop().create_task(bridge._pump(None))  # type: ignore[arg-type]
            await asyncio.sleep(0.01)  # the pump waits to be woken
            bridge.wake()
            pump.cancel()
            done, _ = await asyncio.wait({pump}, timeout=10)
            assert pump in done and pump.cancelled()

    asyncio.run(body())


def test_a_game_table_deleted_while_the_bridge_looks_at_it_frees_its_device(tmp_path: Path) -> None:
    """The delete awaits its journal write after letting go of the session; a bridge looking at its device
    meanwhile (the pump, GET /api/hardware) must not load the table back from the journal, or the deleted
    table stays in play and its device bound for good."""

    async def body() -> None:
        async with unstarted_bridge(tmp_path) as (manager, bridge):
            session = await manager.import_record(record())
            tid = session.row.id
            await bridge.handle(topic(DEVICE, "status"), encode(load_layout(LAYOUT).to_birth(DEVICE, 1, "t")))
            await bridge.bind(DEVICE, tid)
            deleting = asyncio.get_running_loop().create_task(manager.delete(tid))
            await asyncio.sleep(0)  # the delete has let go of the session and awaits its journal write
            assert tid not in manager.sessions and not deleting.done()
            bridge.devices_json()  # the bridge looks at its device meanwhile
            assert await deleting
            assert tid not in manager.sessions
            assert [d["table"] for d in bridge.devices_json()] == [None]

    asyncio.run(body())


def test_a_reboot_taking_its_old_connection_over_and_a_stale_will_leave_the_table_online(
    tmp_path: Path, broker: Any
) -> None:
    """A controller that reboots before the broker noticed its power cut logs in with the same client id and
    takes its old connection over: Mosquitto publishes the old connection's will (an Offline of the OLD
    session) just before the new birth, amqtt publishes none. An Offline older than the session followed is
    stale: the table stays online and the game is not gated."""

    async def body() -> None:
        manager = TableManager(tmp_path / "tables.sqlite3", bot_delay=0.0)
        manager.start()
        session = await manager.import_record(record())
        await confirm_deployment(session)
        live = session.live
        layout = load_layout(LAYOUT)
        adapter: Any = table_of(live.plugin)
        obs = live.game.observe(live.state, None)
        place = placement(layout, adapter.surface(obs))
        cells = [place.to_table(p.cell) for p in adapter.pieces(obs)]
        bridge = TableBridge(manager, MqttUrl.parse(broker.url_referee))
        await bridge.start()
        status = topic(DEVICE, "status")
        sim = SimTable(layout, DEVICE, broker.url_table, session=2)
        sim.table.stand([c for c in cells if c is not None])
        sim_task: asyncio.Task[None] | None = None
        # The controller's connection of session 1, whose power is cut without the broker noticing.
        will = aiomqtt.Will(status, encode(Offline(device=DEVICE, session=1)), qos=1, retain=True)
        old = client(broker.url_table, f"table-{DEVICE}", will=will)
        try:
            await old.__aenter__()
            await old.publish(status, encode(layout.to_birth(DEVICE, 1, "test")), qos=1, retain=True)
            await until(
                lambda: DEVICE in bridge.devices and bridge.devices[DEVICE].online, "session 1's birth"
            )
            dev = bridge.devices[DEVICE]
            assert dev.session == 1
            # It boots again (session 2) and logs in with the same client id: it takes the old line over.
            sim_task = asyncio.get_running_loop().create_task(sim.run())
            await until(lambda: dev.online and dev.session == 2, "session 2's birth")
            await bridge.bind(DEVICE, session.row.id)
            await until(lambda: dev.synced and bridge.blocked(dev) is None, "the new session read")
            # A will of session 1 arriving now (late, or published again) is stale: ignored.
            async with client(broker.url_table, "late-will") as late:
                await late.publish(status, encode(Offline(device=DEVICE, session=1)), qos=1, retain=True)
            # Handled once a later message on the same line is: the sim's next sensor event.
            free = next(c for c in layout.cells() if c not in sim.table.pieces and place.to_game(c) is None)
            sim.stick(free, True)
            await until(lambda: dev.tracker.sensed.get(free, 0) is None, "the later event followed")
            assert dev.online and dev.session == 2 and dev.synced
            assert "offline" not in (bridge.blocked(dev) or "")
            sim.stick(free, False)
            await until(lambda: bridge.blocked(dev) is None, "the table to agree")
        finally:
            old._disconnected.add_done_callback(lambda f: f.cancelled() or f.exception())
            with contextlib.suppress(Exception):
                await old.__aexit__(None, None, None)  # its line was taken over: nothing to close
            await sim.stop()
            if sim_task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sim_task, 10)
            await bridge.stop()
            manager.stop()

    asyncio.run(body())


def test_a_snapshot_crossing_a_placement_takes_the_move(tmp_path: Path) -> None:
    """Sensor events and snapshots are two topics in no order: a snapshot taken after a placement may come
    before the placement's event, which it includes (so the event is then dropped as seen). The piece in the
    air, its origin still empty and one piece more on the table: that is the placement, and the move is taken.
    A snapshot answering a command already answered (a re-send crossed its answer) is not taken at all."""

    async def body() -> None:
        async with unstarted_bridge(tmp_path) as (manager, bridge):
            session = await manager.import_record(record())
            await confirm_deployment(session)
            live = session.live
            layout = load_layout(LAYOUT)
            adapter: Any = table_of(live.plugin)
            obs = live.game.observe(live.state, None)
            place = placement(layout, adapter.surface(obs))
            cells = {place.to_table(p.cell) for p in adapter.pieces(obs)}

            async def send(leaf: str, model: Any) -> None:
                await bridge.handle(topic(DEVICE, leaf), encode(model))

            await send("status", layout.to_birth(DEVICE, 1, "test"))
            dev = bridge.devices[DEVICE]
            await bridge.bind(DEVICE, session.row.id)
            first = dev.snapshot_cmd
            occupied = tuple(Occupied(cell=c) for c in sorted(c for c in cells if c is not None))
            await send("snapshot", Snapshot(session=1, seq=0, request=first, occupied=occupied))
            assert dev.synced and bridge.blocked(dev) is None
            seat = live.to_move
            piece = next(p for p in adapter.pieces(obs) if p.seat == seat)
            move = adapter.selection(live.game, live.state, seat, piece.unit)["moves"][0]
            origin, to = place.to_table(piece.cell), place.to_table(tuple(move["to"]))
            assert origin is not None and to is not None
            v0 = live.version
            await send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            assert dev.held is not None
            # A late answer to the command already answered (taken before the lift): not taken.
            await send("snapshot", Snapshot(session=1, seq=0, request=first, occupied=occupied))
            assert dev.held is not None and dev.tracker.sensed.get(origin, 0) == 0
            # The table's own snapshot after the placement, before the placement's event.
            after = tuple(Occupied(cell=c) for c in sorted({c for c in cells if c != origin} | {to}))
            await send("snapshot", Snapshot(session=1, seq=2, request=None, occupied=after))
            assert live.version == v0 + 1 and live.history[-1].origin == SENSOR
            await send("sensor", SensorEvent(session=1, seq=2, cell=to, event="placed"))  # included: dropped
            assert live.version == v0 + 1 and dev.held is None and bridge.blocked(dev) is None
            rows = manager.journal.steps(session.row.id)  # type: ignore[union-attr]
            assert rows[-1].action == move["action"] and rows[-1].client_id == f"hw:{DEVICE}:1:s2"

    asyncio.run(body())


def test_an_offline_of_a_device_never_born_makes_no_device(tmp_path: Path) -> None:
    """A device is known from its birth or its binding: the retained goodbye a table left on the broker (its
    clean stop) makes no device of it (a freed table must not come back in the lobby's list as offline)."""

    async def body() -> None:
        async with unstarted_bridge(tmp_path) as (_manager, bridge):
            await bridge.handle(topic(DEVICE, "status"), encode(Offline(device=DEVICE, session=3)))
            assert bridge.devices_json() == []
            await bridge.handle(topic(DEVICE, "status"), encode(load_layout(LAYOUT).to_birth(DEVICE, 3, "t")))
            await bridge.handle(topic(DEVICE, "status"), encode(Offline(device=DEVICE, session=3)))
            known = [(d["device"], d["online"], d["session"]) for d in bridge.devices_json()]
            assert known == [(DEVICE, False, 3)]

    asyncio.run(body())
