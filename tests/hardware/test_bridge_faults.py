"""The bridge against a table that misbehaves (review A): sessions going down or far up, seq jumps, a lost
last event, cells off the layout, births that do not load; fed by hand in process, on the bridge's own clock
set by the test (no broker: what is asked and refused is read off the bridge)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest

from iwgt.core.errors import GameError
from iwgt.core.table import Piece
from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.mqtt import MqttUrl
from iwgt.hardware.places import Placement, placement
from iwgt.hardware.protocol import (
    Ack,
    Command,
    Occupied,
    Offline,
    SensorEvent,
    Snapshot,
    TableCell,
    encode,
    topic,
)
from iwgt.server.bridge import DIVERGED, HEARTBEAT_S, HELD_CHECK_S, RETRY_S, SENSOR, TableBridge, _Device
from iwgt.server.clock import SYSTEM_CLOCK, Clock, ManualClock
from iwgt.server.manager import TableManager
from iwgt.server.session import TableSession
from iwgt.table.plain import table_of

from .bridge_kit import DEVICE, LAYOUT, confirm_deployment, record, until

pytestmark = pytest.mark.timeout(120)


@dataclass
class Bench:
    """A game table, a bridge that is never connected, the table's layout, and what the bridge sent."""

    manager: TableManager
    session: TableSession
    bridge: TableBridge
    layout: Layout
    place: Placement
    now: list[float]
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def dev(self) -> _Device:
        """The bridge's record of the table."""
        return self.bridge.devices[DEVICE]

    async def send(self, leaf: str, model: Any, device: str = DEVICE) -> None:
        """A message from the table, as the broker would hand it to the bridge."""
        await self.bridge.handle(topic(device, leaf), encode(model))

    def tc(self, game_cell: Any) -> TableCell:
        """The table cell of a game cell."""
        cell = self.place.to_table((game_cell[0], game_cell[1]))
        assert cell is not None, game_cell
        return cell

    def pieces(self) -> list[Piece]:
        """The game's public pieces now."""
        live = self.session.live
        out: list[Piece] = table_of(live.plugin).pieces(live.game.observe(live.state, None))  # type: ignore[attr-defined]
        return out

    def occupied(
        self, without: TableCell | None = None, plus: TableCell | None = None
    ) -> tuple[Occupied, ...]:
        """The table cells of the game's pieces (one taken off, one added)."""
        cells = {self.place.to_table(p.cell) for p in self.pieces()} - {None, without}
        if plus is not None:
            cells.add(plus)
        return tuple(Occupied(cell=c) for c in sorted(c for c in cells if c is not None))

    def due(self, at: float) -> list[tuple[str, Command]]:
        """The commands the pump would send at ``at``."""
        self.now[0] = at
        return self.bridge._due(at)

    async def answer(self, session: int, seq: int, occupied: tuple[Occupied, ...] | None = None) -> None:
        """The table answers the snapshot command outstanding."""
        await self.send(
            "snapshot",
            Snapshot(
                session=session,
                seq=seq,
                request=self.dev.snapshot_cmd,
                occupied=self.occupied() if occupied is None else occupied,
            ),
        )

    def mover_move(self) -> tuple[Piece, TableCell, TableCell, dict[str, Any]]:
        """A piece of the seat to move, its table cell, its first legal destination's table cell, the move."""
        live = self.session.live
        adapter: Any = table_of(live.plugin)
        for piece in self.pieces():
            if piece.seat != live.to_move:
                continue
            moves = adapter.selection(live.game, live.state, piece.seat, piece.unit).get("moves") or []
            if moves:
                origin, to = self.place.to_table(piece.cell), self.place.to_table(tuple(moves[0]["to"]))
                assert origin is not None and to is not None
                return piece, origin, to, moves[0]
        raise AssertionError("no piece of the mover may move")


@asynccontextmanager
async def bench(
    tmp_path: Path,
    *,
    session: int = 1,
    clock: Clock = SYSTEM_CLOCK,
    timer: int = 0,
    seats: tuple[str, str] = ("human", "human"),
    bot_delay: float = 0.0,
) -> AsyncIterator[Bench]:
    """A bound, read table (its birth of ``session`` and its first snapshot answered)."""
    manager = TableManager(tmp_path / "tables.sqlite3", bot_delay=bot_delay, clock=clock)
    manager.start()
    bridge = TableBridge(manager, MqttUrl("127.0.0.1", 1))  # never started: nothing is sent
    now = [1000.0]
    bridge._time = lambda: now[0]  # type: ignore[method-assign]
    try:
        body = record(seats=seats)
        if timer:
            body["timer_seconds"] = timer
        game = await manager.import_record(body)
        await confirm_deployment(game)
        live = game.live
        layout = load_layout(LAYOUT)
        adapter: Any = table_of(live.plugin)
        place = placement(layout, adapter.surface(live.game.observe(live.state, None)))
        b = Bench(manager, game, bridge, layout, place, now)

        async def capture(name: str, payload: bytes, *, qos: int, retain: bool = False) -> None:
            if name.endswith("/error"):
                b.errors.append(orjson.loads(payload))

        bridge._send = capture  # type: ignore[method-assign]
        await b.send("status", layout.to_birth(DEVICE, session, "test"))
        await bridge.bind(DEVICE, game.row.id)
        assert [c.cmd for _, c in b.due(now[0])] == ["snapshot"]
        await b.answer(session, 0)
        assert b.dev.synced and bridge.blocked(b.dev) is None
        yield b
    finally:
        manager.stop()


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a test's coroutine."""
    asyncio.run(body())


def test_a_birth_with_a_lower_session_is_followed_afresh(tmp_path: Path) -> None:
    """A controller replaced (or its flash wiped) is born with session 1 after session 4: its word counts, its
    snapshot is taken and its moves are played (they were all dropped as stragglers of an older session)."""

    async def body() -> None:
        async with bench(tmp_path, session=4) as b:
            await b.send("status", b.layout.to_birth(DEVICE, 1, "new-board"))
            assert not b.dev.synced and b.bridge.blocked(b.dev) is not None
            assert [c.cmd for _, c in b.due(b.now[0] + RETRY_S)] == ["snapshot"]
            await b.answer(1, 0)
            assert b.dev.synced and b.bridge.blocked(b.dev) is None
            piece, origin, to, _ = b.mover_move()
            v0 = b.session.live.version
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            assert b.dev.held is not None and b.dev.held.unit == piece.unit
            await b.send("sensor", SensorEvent(session=1, seq=2, cell=to, event="placed"))
            assert b.session.live.version == v0 + 1 and b.session.live.history[-1].origin == SENSOR
            assert b.bridge.blocked(b.dev) is None and b.errors == []

    run(body)


def test_an_event_of_a_far_session_waits_only_for_the_snapshot_and_snapshots_are_asked_once_a_second(
    tmp_path: Path,
) -> None:
    """One event with session 10**9 (a bug or a forgery) is held until the snapshot the bridge asks: the
    answer's session (the table's) is the truth, the event is refused on ``error`` and the game plays on; a
    snapshot command is sent at most once per RETRY_S per device, acked or not, until its snapshot comes."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            t = b.now[0] + RETRY_S
            b.due(t)  # nothing due: a command was sent at the start, the heartbeat is far
            t += RETRY_S
            cell = b.occupied()[0].cell
            await b.send("sensor", SensorEvent(session=10**9, seq=1, cell=cell, event="lifted"))
            assert not b.dev.synced and "say what stands" in (b.bridge.blocked(b.dev) or "")
            sent = b.due(t)
            assert [c.cmd for _, c in sent] == ["snapshot"]
            cmd = sent[0][1]
            await b.send("ack", Ack(id=cmd.id, ok=True))  # acked: still waits for its snapshot
            # Ten ticks within the second: nothing more is sent, the same command once the second is over.
            assert all(b.due(t + k * RETRY_S / 10) == [] for k in range(1, 10))
            again = b.due(t + RETRY_S)
            assert [(c.cmd, c.id) for _, c in again] == [("snapshot", cmd.id)]
            await b.answer(1, 0)
            assert b.dev.synced and b.dev.session == 1 and b.bridge.blocked(b.dev) is None
            assert [e["error"] for e in b.errors] == ["invalid"] and "1000000000" in b.errors[0]["message"]
            assert b.due(t + 2 * RETRY_S) == []  # answered: nothing asked
            # Another one, now that the session is known to be 1: refused at once, the game never waits.
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=cell, event="lifted"))
            await b.send("sensor", SensorEvent(session=0 + 1, seq=2, cell=cell, event="placed"))
            assert b.bridge.blocked(b.dev) is None
            # A power cycle (birth with session 2) is followed, whatever was seen.
            await b.send("status", b.layout.to_birth(DEVICE, 2, "test"))
            assert [c.cmd for _, c in b.due(t + 3 * RETRY_S)] == ["snapshot"]
            await b.answer(2, 0)
            assert b.dev.synced and b.bridge.blocked(b.dev) is None

    run(body)


def test_a_seq_far_ahead_is_refused_and_never_holds_the_table(tmp_path: Path) -> None:
    """A seq 10**9 in the current session is refused on ``error`` (never held: no snapshot loop), and the
    next lift is seen live (its destinations lit)."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            cell = b.occupied()[0].cell
            await b.send("sensor", SensorEvent(session=1, seq=10**9, cell=cell, event="lifted"))
            assert [e["error"] for e in b.errors] == ["invalid"] and "1000000000" in b.errors[0]["message"]
            assert b.dev.sequencer.waiting == () and not b.dev.sequencer.needs_snapshot(b.now[0] + 60)
            piece, origin, _, _ = b.mover_move()
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            assert b.dev.held is not None and b.dev.held.unit == piece.unit

    run(body)


def test_a_lost_placed_event_is_found_by_the_snapshot_asked_while_a_piece_is_in_the_air(
    tmp_path: Path,
) -> None:
    """While a piece is in the air the game is gated (no screen may act: the game must not move on without
    the move), a snapshot is asked every HELD_CHECK_S, and one showing the origin empty and one piece more
    is the placement whose event was lost: the move is taken. Nothing in the air: a heartbeat every
    HEARTBEAT_S."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            live = b.session.live
            piece, origin, to, move = b.mover_move()
            t = b.now[0]
            assert b.due(t + HEARTBEAT_S - 0.1) == []
            heartbeat = b.due(t + HEARTBEAT_S)
            assert [c.cmd for _, c in heartbeat] == ["snapshot"]
            await b.answer(1, 0)
            t += HEARTBEAT_S
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            why = f"{piece.name} is in the air: put it down on the table first"
            assert b.bridge.blocked(b.dev) == why and b.dev.held is not None
            v0 = live.version
            with pytest.raises(GameError) as refused:
                await live.act(piece.seat, {"type": "end_phase"}, "screen-1")
            assert refused.value.code == DIVERGED and refused.value.message == why
            assert live.version == v0
            # The table's "placed" (seq 2) is lost: nothing later shows the gap; the held check finds it.
            assert b.due(t + HELD_CHECK_S - 0.1) == []
            assert [c.cmd for _, c in b.due(t + HELD_CHECK_S)] == ["snapshot"]
            await b.answer(1, 2, b.occupied(without=origin, plus=to))
            assert live.version == v0 + 1 and live.history[-1].origin == SENSOR
            moved = next(p for p in b.pieces() if p.unit == piece.unit)
            assert list(moved.cell) == move["to"]
            assert b.dev.held is None and b.bridge.blocked(b.dev) is None
            rows = b.manager.journal.steps(b.session.row.id)  # type: ignore[union-attr]
            assert rows[-1].client_id == f"hw:{DEVICE}:1:s2"

    run(body)


def test_carry_on_never_clears_a_refused_placement_which_says_the_rules_reason(tmp_path: Path) -> None:
    """A piece put where the rules forbid goes back by hand: Carry on ignores the other cells read wrongly
    (a stuck sensor), never the refused cell nor the refused piece's own cell; the game waits until it is
    back."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            live = b.session.live
            piece, origin, _, _ = b.mover_move()
            legal = {
                tuple(m["to"])
                for m in table_of(live.plugin).selection(live.game, live.state, piece.seat, piece.unit)[
                    "moves"
                ]
            }
            taken = {p.cell for p in b.pieces()}
            board = [(c, r) for r in range(9) for c in range(12) if (c, r) not in legal | taken]
            bad, stray = (b.place.to_table(cell) for cell in board[:2])
            assert bad is not None and stray is not None
            # The rules' own reason, as a tap-and-tap on the screen is refused (review B #9).
            with pytest.raises(GameError) as screen:
                await live.act(
                    piece.seat, {"type": "move", "unit": piece.unit, "to": list(board[0])}, "screen"
                )
            assert screen.value.code == "illegal"
            # A placement the rules refuse, then a stray piece (a stuck sensor, say).
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            await b.send("sensor", SensorEvent(session=1, seq=2, cell=bad, event="placed"))
            assert b.dev.refusal == (bad, screen.value.message)
            await b.send("sensor", SensorEvent(session=1, seq=3, cell=stray, event="placed"))
            assert {d.cell for d in b.bridge.divergent(b.dev)} == {stray, origin, bad}
            b.bridge.carry_on(b.dev)
            assert b.dev.refusal is not None and b.dev.refusal[0] == bad  # still red
            assert {d.cell for d in b.bridge.divergent(b.dev)} == {origin, bad}
            blocked = b.bridge.blocked(b.dev) or ""
            assert f"put {piece.name} back on [{piece.cell[0]}, {piece.cell[1]}]" in blocked
            # Back by hand: the table agrees (the stray cell still carried on), the refusal goes.
            await b.send("sensor", SensorEvent(session=1, seq=4, cell=bad, event="lifted"))
            await b.send("sensor", SensorEvent(session=1, seq=5, cell=origin, event="placed"))
            assert b.dev.refusal is None and b.bridge.blocked(b.dev) is None

    run(body)


def test_births_and_messages_that_do_not_fit_are_refused_and_change_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A birth that does not load (a cell of its grid missing) is refused on ``error`` and the device keeps
    its state; a device never born is made by none of its messages; a bound table re-born too small for its
    game gates it with that reason, said once in the log; lights that cannot be computed are said in the
    view."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            dev = b.dev
            layout, session = dev.layout, dev.session
            full = b.layout.to_birth(DEVICE, 2, "test")
            await b.send("status", full.model_copy(update={"cells": full.cells[:1]}))
            assert [e["error"] for e in b.errors] == ["invalid"] and "missing" in b.errors[0]["message"]
            assert dev.layout is layout and dev.session == session and dev.synced and dev.online
            assert b.bridge.blocked(dev) is None
            # Messages of a device never born: no device made.
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=(0, 0), event="placed"), device="ghost")
            await b.send("ack", Ack(id="c1", ok=True), device="ghost")
            assert list(b.bridge.devices) == [DEVICE]
            # Lights that fail: the view says so (the table is dark, not silently).
            assert b.bridge.hardware_view(dev)["lights"] is None

            def broken() -> Any:
                raise RuntimeError("a bug in a game's lights")

            b.bridge._lights = broken  # type: ignore[method-assign,assignment]
            dev.sent, dev.force = (), False
            await b.bridge._publish_frame(None, dev)  # type: ignore[arg-type]  # dark: nothing to publish
            assert "could not be computed" in (b.bridge.hardware_view(dev)["lights"] or "")
            # Re-born with a valid layout too small for the 12 x 9 board.
            small = load_layout(LAYOUT).to_birth(DEVICE, 1, "test")
            cells = tuple(c for c in small.cells if c.cell[0] < 5 and c.cell[1] < 5)
            await b.send("status", small.model_copy(update={"columns": 5, "rows": 5, "cells": cells}))
            caplog.clear()
            why = b.bridge.blocked(dev) or ""
            assert why.startswith(f"the physical table {DEVICE} is now 5 x 5 and cannot show this game")
            assert why.endswith("free it in the lobby")
            assert b.bridge.divergent(dev) == ()  # no cell of a board that does not fit is named
            for _ in range(5):
                assert b.bridge.blocked(dev) == why and b.bridge.hardware_view(dev)["blocked"] == why
            assert [r for r in caplog.records if "cannot show" in r.getMessage()] == []  # said once, before

    run(body)


def test_the_movement_timer_waits_while_the_game_waits_for_the_table(tmp_path: Path) -> None:
    """A reboot, or pieces to put right, must not cost the mover his phase: the timer pauses while the game
    is gated by the table (not while a piece is in the air) and runs on with the time it had left."""

    async def body() -> None:
        clock = ManualClock()
        async with bench(tmp_path, clock=clock, timer=120) as b:
            live, session = b.session.live, b.session
            seat = live.to_move
            timer = session.clock.timer
            assert timer is not None and timer.seat == seat
            if timer.held:
                session.clock.start(seat)
            assert session.clock.to_json()["remaining"] == 120  # type: ignore[index]
            clock.advance(30)
            await b.send("status", Offline(device=DEVICE, session=1))
            assert session.clock.to_json() == {
                "seat": seat,
                "deadline": None,
                "remaining": 90,
                "total": 120,
                "held": True,
                "paused": True,
            }
            v0 = live.version
            clock.advance(600)  # unplugged for ten minutes: the phase is not over
            await asyncio.sleep(0.05)
            assert live.version == v0 and session.clock.to_json()["remaining"] == 90  # type: ignore[index]
            # A piece in the air does not pause it (a player must not stop his clock by holding a piece).
            await b.send("status", b.layout.to_birth(DEVICE, 2, "test"))
            assert session.clock.timer is not None and session.clock.timer.left is not None  # not read yet
            assert [c.cmd for _, c in b.due(b.now[0] + RETRY_S)] == ["snapshot"]
            await b.answer(2, 0)
            assert b.bridge.blocked(b.dev) is None
            assert session.clock.to_json()["remaining"] == 90 and not session.clock.to_json()["held"]  # type: ignore[index]
            _, origin, _, _ = b.mover_move()
            await b.send("sensor", SensorEvent(session=2, seq=1, cell=origin, event="lifted"))
            assert b.bridge.blocked(b.dev) is not None and session.clock.timer.left is None
            await b.send("sensor", SensorEvent(session=2, seq=2, cell=origin, event="placed"))  # put back
            end = clock.now() + 90
            await until(lambda: end in clock.waiting(), "the timer running on with its 90 s")
            clock.advance(89)
            await asyncio.sleep(0.05)
            assert live.version == v0
            clock.advance(1)
            await until(lambda: live.version == v0 + 1, "the phase ended by the timer")
            assert live.history[-1].origin == "timer"

    run(body)


def test_a_piece_lifted_before_a_power_cycle_and_put_down_after_is_its_move(tmp_path: Path) -> None:
    """A power cycle with a piece in the hand forgets the lift (a new session); its placement on a cell it may
    go to, with its own cell the only one missing, is its move (as one heard only through a snapshot)."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            live = b.session.live
            piece, origin, to, move = b.mover_move()
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            await b.send("status", b.layout.to_birth(DEVICE, 2, "test"))
            assert [c.cmd for _, c in b.due(b.now[0] + RETRY_S)] == ["snapshot"]
            await b.answer(2, 0, b.occupied(without=origin))
            assert b.dev.held is None and "put" in (b.bridge.blocked(b.dev) or "")
            v0 = live.version
            await b.send("sensor", SensorEvent(session=2, seq=1, cell=to, event="placed"))
            assert live.version == v0 + 1 and live.history[-1].origin == SENSOR
            assert [list(p.cell) for p in b.pieces() if p.unit == piece.unit] == [move["to"]]
            assert b.bridge.blocked(b.dev) is None
            rows = b.manager.journal.steps(b.session.row.id)  # type: ignore[union-attr]
            assert rows[-1].client_id == f"hw:{DEVICE}:2:1"

    run(body)


def test_a_heartbeat_snapshot_never_infers_a_move_back_from_the_table(tmp_path: Path) -> None:
    """A step the table has not followed yet (a screen's move, an undo, a bot's) leaves one piece missing and
    one more: the heartbeat's snapshot (nothing lost that the referee knows of) must not take that back as a
    move every HEARTBEAT_S; a snapshot asked for a gap may (events were lost)."""

    async def body() -> None:
        async with bench(tmp_path) as b:
            live = b.session.live
            piece, _, _, move = b.mover_move()
            await live.act(piece.seat, move["action"], "screen-1")  # the table has not followed it
            b.session.after_step()
            assert {d.want for d in b.bridge.divergent(b.dev)} == {"piece", "empty"}
            tried: list[str] = []
            one_moved = b.bridge._one_moved

            async def spy(*args: Any, **kwargs: Any) -> bool:
                tried.append(args[2])
                return await one_moved(*args, **kwargs)

            b.bridge._one_moved = spy  # type: ignore[method-assign]
            v0 = live.version
            assert [c.cmd for _, c in b.due(b.now[0] + HEARTBEAT_S)] == ["snapshot"]
            await b.answer(1, 0, b.occupied(without=b.tc(move["to"]), plus=b.tc(piece.cell)))
            assert tried == [] and live.version == v0 and len(b.bridge.divergent(b.dev)) == 2
            # A gap (event 2 before 1) that times out asks a snapshot that may infer what was lost.
            cell = b.occupied()[0].cell
            await b.send("sensor", SensorEvent(session=1, seq=2, cell=cell, event="lifted"))
            b.due(b.now[0] + 2 * RETRY_S)  # the gap starts waiting
            assert [c.cmd for _, c in b.due(b.now[0] + RETRY_S)] == ["snapshot"]
            await b.answer(1, 2, b.occupied(without=b.tc(move["to"]), plus=b.tc(piece.cell)))
            assert tried == [f"hw:{DEVICE}:1:s2"]

    run(body)


def test_a_bot_s_piece_put_down_unseen_is_never_inferred_as_the_bot_s_move(tmp_path: Path) -> None:
    """The bot moves its own pieces: its piece lifted before a power cycle and put down elsewhere stays
    divergence to put right by hand (the inference acts for people only)."""

    async def body() -> None:
        clock = ManualClock()  # the bots wait for a clock that never moves: only the table acts
        async with bench(tmp_path, clock=clock, seats=("bot", "bot"), bot_delay=1.0) as b:
            live = b.session.live
            _, origin, to, _ = b.mover_move()
            await b.send("sensor", SensorEvent(session=1, seq=1, cell=origin, event="lifted"))
            await b.send("status", b.layout.to_birth(DEVICE, 2, "test"))
            assert [c.cmd for _, c in b.due(b.now[0] + RETRY_S)] == ["snapshot"]
            await b.answer(2, 0, b.occupied(without=origin))
            v0 = live.version
            await b.send("sensor", SensorEvent(session=2, seq=1, cell=to, event="placed"))
            assert live.version == v0
            assert {(d.cell, d.want) for d in b.bridge.divergent(b.dev)} == {(origin, "piece"), (to, "empty")}

    run(body)
