"""The physical tables' REST bindings (docs/protocol.md): GET /api/hardware, PUT /api/hardware/<device>.

The server runs with ``mqtt_url`` (``iwgt serve --mqtt URL``) on conftest's real broker; the simulated table
runs on its own event loop in a thread, as a controller on the network would.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.server.kit import create, screen, serving, table_token

from iwgt.hardware.broker import Credentials, free_port
from iwgt.hardware.layout import Layout, load_layout, make_layout
from iwgt.hardware.places import placement
from iwgt.hardware.protocol import TableCell
from iwgt.hardware.sim import SimTable
from iwgt.table.plain import table_of

from .bridge_kit import LAYOUT, WAIT, record

pytestmark = pytest.mark.timeout(180)

LOCAL = {"client": ("127.0.0.1", 50000), "base_url": "http://127.0.0.1"}
"""A client on the table's own machine, asking for a loopback name (the lobby's rule)."""


def wait(pred: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """Wait (in the test's thread) until ``pred()`` is truthy: its value, or an AssertionError naming
    ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


@contextmanager
def sim_table(
    layout: Layout, device: str, url: str, pieces: Iterable[TableCell] = (), loops: list[Any] | None = None
) -> Iterator[SimTable]:
    """A simulated table on its own loop in a thread (with pieces standing on ``pieces``), connected until the
    block ends; ``loops`` gets its event loop (to call the table's methods on it)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=f"sim-{device}", daemon=True)
    thread.start()

    async def make() -> SimTable:
        sim = SimTable(layout, device, url)
        sim.table.stand(pieces)
        return sim

    sim = asyncio.run_coroutine_threadsafe(make(), loop).result(10)
    task = asyncio.run_coroutine_threadsafe(sim.run(), loop)
    if loops is not None:
        loops.append(loop)
    try:
        yield sim
    finally:
        asyncio.run_coroutine_threadsafe(sim.stop(), loop).result(10)
        try:
            task.result(10)
        except Exception:
            task.cancel()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def devices(c: Any) -> list[dict[str, Any]]:
    """GET /api/hardware's devices."""
    r = c.get("/api/hardware")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["devices"]
    return out


def test_without_the_bridge_there_are_no_devices_and_no_binding(tmp_path: Path) -> None:
    with serving(tmp_path, open_lobby=False, **LOCAL) as c:  # type: ignore[arg-type]
        assert c.get("/api/hardware").json() == {"devices": []}
        r = c.put("/api/hardware/t1", json={"table": None})
        assert r.status_code == 409 and "--table-bridge" in r.json()["message"]


def test_bindings_are_listed_checked_kept_and_shown_in_the_view(tmp_path: Path, broker: Any) -> None:
    layout = load_layout(LAYOUT)
    with (
        serving(tmp_path, open_lobby=False, mqtt_url=broker.url_referee, **LOCAL) as c,  # type: ignore[arg-type]
        sim_table(layout, "t1", broker.url_table),
    ):
        listed = wait(lambda: [d for d in devices(c) if d["device"] == "t1" and d["online"]], "t1's birth")
        assert listed == [
            {
                "device": "t1",
                "online": True,
                "session": 1,
                "sensor": "presence",
                "columns": 16,
                "rows": 12,
                "cells": 192,
                "table": None,
                "divergent": 0,
            }
        ]
        made = c.post("/api/tables/import", json=record())
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        # Refusals: the body's shape, an unknown device, an unknown table.
        for body in ({}, {"table": 3}, {"table": tid, "more": 1}, []):
            r = c.put("/api/hardware/t1", json=body)
            assert r.status_code == 400, (body, r.text)
        r = c.put("/api/hardware/ghost", json={"table": tid})
        assert r.status_code == 404 and "ghost" in r.json()["message"]
        r = c.put("/api/hardware/t1", json={"table": "t-nothing"})
        assert r.status_code == 404 and "t-nothing" in r.json()["message"]
        # The lobby's rule: only on the table's own machine.
        with serving(tmp_path / "other", open_lobby=False, mqtt_url=broker.url_referee) as remote:
            assert remote.get("/api/hardware").status_code == 403
            assert remote.put("/api/hardware/t1", json={"table": None}).status_code == 403
        # Bound: listed, and every seat's view shows the table.
        r = c.put("/api/hardware/t1", json={"table": tid})
        assert r.status_code == 200, r.text
        assert r.json()["table"] == tid and r.json()["device"] == "t1"
        assert [d["table"] for d in devices(c)] == [tid]
        with screen(c, tid, table_token(made.json())) as s:
            hw = s.last_view()["hardware"]
            assert hw is not None and hw["device"] == "t1" and hw["online"] is True
            assert set(hw) == {"device", "online", "held", "refusal", "divergent", "blocked", "lights"}
        # Bound to another game table, the device moves over (one game table at a time), and back.
        other = create(c)
        assert c.put("/api/hardware/t1", json={"table": other["id"]}).status_code == 200  # moved over
        assert [d["table"] for d in devices(c)] == [other["id"]]
        # A game table deleted while bound frees its device (and the journal forgets the binding).
        assert c.delete(f"/api/tables/{other['id']}").status_code == 204
        assert [d["table"] for d in devices(c)] == [None]
        assert c.put("/api/hardware/t1", json={"table": tid}).status_code == 200  # bound again
    # Kept in the journal: a restarted server knows the binding before the table is back online.
    with serving(tmp_path, open_lobby=False, mqtt_url=broker.url_referee, **LOCAL) as c:  # type: ignore[arg-type]
        assert [(d["device"], d["table"], d["online"]) for d in devices(c)] == [("t1", tid, False)]
        with screen(c, tid, table_token(made.json())) as s:
            hw = s.last_view()["hardware"]
            assert hw["online"] is False and "offline" in hw["blocked"]
        # Freed: the game table is as any other again.
        r = c.put("/api/hardware/t1", json={"table": None})
        assert r.status_code == 200 and r.json()["table"] is None
        with screen(c, tid, table_token(made.json())) as s:
            assert s.last_view()["hardware"] is None
    with serving(tmp_path, open_lobby=False, mqtt_url=broker.url_referee, **LOCAL) as c:  # type: ignore[arg-type]
        assert devices(c) == []  # freed: nothing left to know of it


def test_a_board_larger_than_the_table_is_refused_with_both_sizes(tmp_path: Path, broker: Any) -> None:
    small = load_layout_text(make_layout(6, 5, 1, ["ddp:127.0.0.1:4048"]), tmp_path)
    with (
        serving(tmp_path, open_lobby=False, mqtt_url=broker.url_referee, **LOCAL) as c,  # type: ignore[arg-type]
        sim_table(small, "tiny", broker.url_table),
    ):
        wait(lambda: [d for d in devices(c) if d["device"] == "tiny" and d["online"]], "tiny's birth")
        made = c.post("/api/tables/import", json=record())
        r = c.put("/api/hardware/tiny", json={"table": made.json()["id"]})
        assert r.status_code == 409, r.text
        message = r.json()["message"]
        assert "12" in message and "9" in message and "6" in message and "5" in message
        assert [d["table"] for d in devices(c)] == [None]


def load_layout_text(text: str, folder: Path) -> Layout:
    """A layout from TOML text (written to a file, as ``iwgt hardware layout`` would)."""
    path = folder / "layout.toml"
    path.write_text(text, encoding="utf-8")
    return load_layout(path)


def test_serve_with_its_own_broker_gates_a_game_and_carries_on(tmp_path: Path) -> None:
    layout = load_layout(LAYOUT)
    port = free_port()
    with serving(
        tmp_path, open_lobby=False, table_bridge=True, mqtt_listen=f"127.0.0.1:{port}", **LOCAL
    ) as c:  # type: ignore[arg-type]
        # The embedded broker's users are the data folder's (created 0600 on first use).
        credentials = tmp_path / "mqtt-users.toml"
        assert credentials.is_file() and credentials.stat().st_mode & 0o777 == 0o600
        logins = Credentials.load(tmp_path)
        logins.device("t1")  # the table's own login (the running broker reads the file again)
        url = logins.url("t1", "127.0.0.1", port)
        made = c.post("/api/tables/import", json=record()).json()
        tid = made["id"]
        live = c.app.state.manager.get(tid).live  # type: ignore[attr-defined]
        obs = live.game.observe(live.state, None)
        adapter: Any = table_of(live.plugin)
        place = placement(layout, adapter.surface(obs))
        cells = [place.to_table(p.cell) for p in adapter.pieces(obs)]
        loops: list[Any] = []
        with (
            sim_table(layout, "t1", url, [x for x in cells if x is not None], loops) as sim,
            screen(c, tid, table_token(made)) as s,
        ):
            wait(lambda: [d for d in devices(c) if d["device"] == "t1" and d["online"]], "t1's birth")
            # Unbound: carry_on has nothing to carry on past.
            s.send({"type": "hardware", "op": "carry_on", "id": "h0"})
            err = s.until(lambda m: m.get("id") == "h0")
            assert err["type"] == "error" and err["error"] == "no_hardware"
            assert c.put("/api/hardware/t1", json={"table": tid}).status_code == 200
            s.until(lambda m: m["type"] == "view" and m["hardware"] and m["hardware"]["blocked"] is None)
            # A sensor stuck on beside the board (table cell [0, 0] is off the 12 x 9 board): the game waits.
            assert place.to_game((0, 0)) is None
            asyncio.run_coroutine_threadsafe(_stick(sim, (0, 0)), loops[0]).result(10)
            view = s.until(lambda m: m["type"] == "view" and m["hardware"]["divergent"])
            assert view["hardware"]["divergent"] == [
                {
                    "cell": None,
                    "table_cell": [0, 0],
                    "want": "empty",
                    "unit": None,
                    "name": None,
                    "back": False,
                }
            ]
            blocked = "the table differs from the game: take the piece off the table's cell [0, 0]"
            assert view["hardware"]["blocked"] == blocked
            err = s.act({"type": "confirm"}, "a1", 0)
            assert err["type"] == "error" and err["error"] == "table_diverged" and err["message"] == blocked
            # Carry on: the stuck cell is ignored, and the game moves on.
            s.send({"type": "hardware", "op": "carry_on", "id": "h1"})
            assert s.until(lambda m: m.get("id") == "h1")["type"] == "ack"
            s.until(lambda m: m["type"] == "view" and m["hardware"]["blocked"] is None)
            s.acted({"type": "confirm"}, "a2", 0)
            s.send({"type": "hardware", "op": "nonsense", "id": "h2"})
            assert s.until(lambda m: m.get("id") == "h2")["error"] == "malformed"


async def _stick(sim: SimTable, cell: TableCell) -> None:
    sim.stick(cell, True)


def test_serve_offers_the_bridge_flags() -> None:
    from typer.testing import CliRunner

    from iwgt.cli import app

    out = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    for flag in ("--table-bridge", "--mqtt-listen", "--mqtt "):
        assert flag in out.output, flag


def test_a_move_made_on_the_table_is_undone_from_the_touchscreen(tmp_path: Path, broker: Any) -> None:
    """A piece lifted and put down is the mover's own act: the touchscreen's undo takes it back (the other
    person allowing it), and the table then differs until the piece is put back where the lights ask."""
    layout = load_layout(LAYOUT)
    with serving(tmp_path, open_lobby=False, mqtt_url=broker.url_referee, **LOCAL) as c:  # type: ignore[arg-type]
        made = c.post("/api/tables/import", json=record()).json()
        tid = made["id"]
        session = c.app.state.manager.get(tid)  # type: ignore[attr-defined]
        live = session.live
        obs = live.game.observe(live.state, None)
        adapter: Any = table_of(live.plugin)
        place = placement(layout, adapter.surface(obs))
        cells = [place.to_table(p.cell) for p in adapter.pieces(obs)]
        loops: list[Any] = []
        with (
            sim_table(layout, "t1", broker.url_table, [x for x in cells if x is not None], loops) as sim,
            screen(c, tid, table_token(made)) as s,
        ):
            wait(lambda: [d for d in devices(c) if d["device"] == "t1" and d["online"]], "t1's birth")
            assert c.put("/api/hardware/t1", json={"table": tid}).status_code == 200
            s.until(lambda m: m["type"] == "view" and m["hardware"] and m["hardware"]["blocked"] is None)
            s.acted({"type": "confirm"}, "c0", 0)
            s.acted({"type": "confirm"}, "c1", 1)
            seat = live.to_move
            piece = next(
                p
                for p in adapter.pieces(live.game.observe(live.state, None))
                if p.seat == seat and adapter.selection(live.game, live.state, seat, p.unit).get("moves")
            )
            move = adapter.selection(live.game, live.state, seat, piece.unit)["moves"][0]
            origin, to = place.to_table(piece.cell), place.to_table(tuple(move["to"]))
            assert origin is not None and to is not None
            v0 = live.version

            def on_sim(*steps: tuple[str, TableCell]) -> None:
                async def run() -> None:
                    for op, cell in steps:
                        getattr(sim, op)(cell)

                asyncio.run_coroutine_threadsafe(run(), loops[0]).result(10)

            on_sim(("lift", origin), ("place", to))
            moved = s.until(
                lambda m: m["type"] == "view" and m["version"] > v0 and m["hardware"]["held"] is None
            )
            assert live.history[-1].origin == "sensor" and moved["hardware"]["divergent"] == []
            assert (
                moved["can_undo"] is True
                and moved["undo"]["seat"] == seat
                and moved["undo"]["consent"] is True
            )
            # The mover asks; the other person allows it: the move is taken back.
            s.send({"type": "undo", "id": "u1", "seat": seat})
            ack = s.until(lambda m: m.get("id") == "u1")
            assert ack["type"] == "ack", ack
            s.send({"type": "undo_answer", "id": "a1", "seat": 1 - seat, "allow": True})
            ack = s.until(lambda m: m.get("id") == "a1")
            assert ack["type"] == "ack", ack
            rows = c.app.state.manager.journal.steps(tid)  # type: ignore[attr-defined]
            assert rows[-1].origin == "undo" and rows[-2].origin == "sensor"
            assert (
                next(
                    p for p in adapter.pieces(live.game.observe(live.state, None)) if p.unit == piece.unit
                ).cell
                == piece.cell
            )
            # The table differs: the piece wanted back on its cell, the cell it stands on to be emptied.
            back = s.until(lambda m: m["type"] == "view" and m["hardware"]["divergent"])
            assert sorted(
                (d["table_cell"], d["want"], d["unit"]) for d in back["hardware"]["divergent"]
            ) == sorted([([origin[0], origin[1]], "piece", piece.unit), ([to[0], to[1]], "empty", None)])
            # It stood there before the hand moved it: put "back".
            (c0, r0), name = list(piece.cell), piece.name
            assert f"put {name} back on [{c0}, {r0}]" in back["hardware"]["blocked"]
            # The lights show where: the sim's frame asks for the piece back on its cell.
            wait(
                lambda: (
                    sim.frame is not None
                    and {(lt.cell, lt.effect) for lt in sim.frame.lights}
                    >= {(origin, "piece_missing"), (to, "piece_extra")}
                ),
                "the lights asking for the piece back",
            )
            # A hand follows them: the table agrees again, and the screens say so.
            on_sim(("lift", to), ("place", origin))
            s.until(
                lambda m: (
                    m["type"] == "view"
                    and m["hardware"]["divergent"] == []
                    and m["hardware"]["blocked"] is None
                )
            )
