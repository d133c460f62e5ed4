"""Action-to-broadcast latency of ``iwgt serve`` with 1, 10 and 50 tables playing at once; prints figures.

The server runs in its own process (``iwgt serve --bot-delay 0``, a fresh journal per level); this process is
the load generator: per table it creates a two-seat remote game through the lobby, opens one WebSocket per
seat with that seat's credential, and plays real legal actions from the views, as a player would: confirm the
deployment, pick up a movable unit (``select``) and move it to one of its legal destinations, a few units a
phase, then End Phase. A table waits a think time between its actions (uniform in 0.5x-1.5x ``--think``).

Measured per action:

- **ack**: from sending ``act`` to its ``ack`` on the acting seat's socket (validated, applied, journalled
  with fsync);
- **broadcast**: from sending ``act`` to the view of that version on the *other* seat's socket: what the
  other player sees. This is the figure the issue's target (p99 within 50 ms at 50 tables) is about.

Actions sent during the warm-up are discarded. The client honours the protocol's rate limit (20 messages a
second per connection) and never counts that wait as latency. A second pass with think 0 (flat out) is a
stress figure, not the target: every table acts as soon as it sees its view, so latency there is queueing.

Run: ``.venv/bin/python benchmarks/latency.py`` (``--tables 1,10,50 --seconds 20 --think 0.5``; ``--repeat 3``
runs each level three times and reports the median run; ``--json`` prints the figures as JSON).
``--breakdown`` instead times the server's work per action in process, part by part; ``--py-spy PATH``
profiles the server during each measured window (a perturbed run). See benchmarks/README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

GAME = "valkyrx"
"""The game the benchmark plays (its policy reads Valkyrx's views: units, cells, End Phase)."""
TARGET_MS = 50.0
"""The issue's target: p99 action-to-broadcast latency at 50 tables."""
RATE = 20.0
BURST = 40
"""The server's per-connection rate limit (iwgt.server.app.Settings); the client stays under it."""
MOVES_PER_PHASE = 3
"""Units a player moves in a movement phase before ending it."""
REPLY_SECONDS = 30.0
"""An answer slower than this stops the run: the server is stuck, and no figure would mean anything."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
_VERSION = re.compile(r'"version":(\d+)')
_TO_MOVE = re.compile(r'"to_move":(null|-?\d+)')

app = typer.Typer(add_completion=False)


# ---------------------------------------------------------------------------------------- measurements


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def cpu_ticks(pid: int | str) -> int:
    """utime + stime of a process (all its threads), in clock ticks."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def machine_busy_ticks() -> int:
    """Busy clock ticks of the whole machine (every CPU), from /proc/stat."""
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
    return sum(parts[:8]) - idle


@dataclass
class Samples:
    """Every measured action of one level."""

    ack: list[float] = field(default_factory=list)
    broadcast: list[float] = field(default_factory=list)
    select: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


@dataclass
class Level:
    """The figures of one run at one table count."""

    tables: int
    think: float
    seconds: float
    actions: int
    actions_per_s: float
    ack_p50: float
    ack_p99: float
    broadcast_p50: float
    broadcast_p99: float
    broadcast_max: float
    select_p50: float
    select_p99: float
    server_cpu: float  # cores (1.0 = one core busy all the time)
    server_ms_per_action: float  # the server's CPU time per action (select included), whatever the load
    client_cpu: float
    other_cpu: float  # every other process on the machine meanwhile
    errors: dict[str, int]
    games_finished: int
    view_kib: float  # the mean size of a view the sockets received
    profile: dict[str, float] | None = None  # py-spy's shares of the event loop's time (a perturbed run)


def summarise(
    n: int, think: float, seconds: float, s: Samples, cpu: tuple[float, float, float], view_kib: float
) -> Level:
    def ms(values: list[float], p: float) -> float:
        return round(1000 * percentile(values, p), 2)

    return Level(
        tables=n,
        think=think,
        seconds=round(seconds, 2),
        actions=len(s.broadcast),
        actions_per_s=round(len(s.broadcast) / seconds, 1) if seconds > 0 else 0.0,
        ack_p50=ms(s.ack, 50),
        ack_p99=ms(s.ack, 99),
        broadcast_p50=ms(s.broadcast, 50),
        broadcast_p99=ms(s.broadcast, 99),
        broadcast_max=ms(s.broadcast, 100),
        select_p50=ms(s.select, 50),
        select_p99=ms(s.select, 99),
        server_cpu=round(cpu[0], 2),
        server_ms_per_action=round(1000 * cpu[0] * seconds / len(s.broadcast), 2)
        if s.broadcast
        else math.nan,
        client_cpu=round(cpu[1], 2),
        other_cpu=round(cpu[2], 2),
        errors=dict(s.errors),
        games_finished=s.games_finished,
        view_kib=round(view_kib, 1),
    )


# ---------------------------------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``iwgt serve`` in its own process, on a free port, with a fresh journal."""

    def __init__(self, data_root: Path | None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="iwgt-latency-", dir=data_root))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).parent / "iwgt"
        if not exe.exists():
            raise SystemExit(f"no iwgt script next to {sys.executable}: install the project (make)")
        self.log = (self.dir / "server.log").open("wb")
        cmd = [
            str(exe),
            "serve",
            "--port",
            str(self.port),
            "--data",
            str(self.dir / "data"),
            "--bot-delay",
            "0",
        ]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    async def ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.base) as http:
            for _ in range(300):
                if self.proc.poll() is not None:
                    break
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/games")).status_code == 200:
                        return
                await asyncio.sleep(0.05)
        self.stop()
        tail = (self.dir / "server.log").read_text(errors="replace")[-2000:]
        raise SystemExit(f"the server did not start:\n{tail}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------- client


class Bucket:
    """The client's side of the per-connection rate limit: wait for a token instead of being refused."""

    def __init__(self, rate: float = RATE * 0.95, burst: int = BURST // 2) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.last = float(burst), time.monotonic()

    async def take(self) -> None:
        while True:
            t = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
            self.last = t
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return
            await asyncio.sleep((1.0 - self.tokens) / self.rate)


class SeatSocket:
    """One seat's WebSocket: a reader task timestamps every message as it arrives and wakes who waits.

    Views are parsed lazily: the reader only reads the version off the front of the text, so the client's
    own JSON work stays out of the measured path.
    """

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.bucket = Bucket()
        self.view_raw = ""
        self.view_version = -1
        self.view_bytes = 0
        self.views = 0
        self.waiters: list[tuple[int, asyncio.Future[float]]] = []
        self.pending: dict[str, asyncio.Future[tuple[float, dict[str, Any]]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                t = time.perf_counter()
                text = raw if isinstance(raw, str) else raw.decode()
                if text.startswith('{"type":"view"'):
                    m = _VERSION.search(text, 0, 200)
                    version = int(m.group(1)) if m else -1
                    self.view_raw, self.view_version = text, version
                    self.view_bytes += len(text)
                    self.views += 1
                    keep = []
                    for v, waiter in self.waiters:
                        if version >= v:
                            if not waiter.done():
                                waiter.set_result(t)
                        else:
                            keep.append((v, waiter))
                    self.waiters = keep
                    continue
                msg = json.loads(text)
                answer = self.pending.pop(str(msg.get("id")), None)
                if answer is not None and not answer.done():
                    answer.set_result((t, msg))
        except websockets.ConnectionClosed:
            pass
        finally:
            for _, f in self.waiters:
                if not f.done():
                    f.set_exception(ConnectionError("socket closed"))
            for a in self.pending.values():
                if not a.done():
                    a.set_exception(ConnectionError("socket closed"))

    def view_at(self, version: int) -> asyncio.Future[float]:
        """When the view of ``version`` (or later) arrived: at once if it already has."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.view_version >= version:
            fut.set_result(time.perf_counter())
        else:
            self.waiters.append((version, fut))
        return fut

    async def request(self, msg: dict[str, Any]) -> tuple[float, float, dict[str, Any]]:
        """Send a message with an id; returns (sent, answered, answer)."""
        await self.bucket.take()
        fut: asyncio.Future[tuple[float, dict[str, Any]]] = asyncio.get_running_loop().create_future()
        self.pending[msg["id"]] = fut
        t0 = time.perf_counter()
        await self.ws.send(json.dumps(msg, separators=(",", ":")))
        t1, answer = await asyncio.wait_for(fut, REPLY_SECONDS)
        return t0, t1, answer

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


class Policy:
    """A simple but real player: confirm the deployment, move a few units a phase, then End Phase."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.moved: dict[tuple[Any, ...], int] = {}

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | int:
        """The next action as JSON, or a unit id to pick up first (a move comes from its selection)."""
        obs = view["observation"]
        options = view["options"]
        types = {a["type"]: a for a in options["actions"]}
        if "confirm" in types:
            return dict(types["confirm"])
        key = (obs.get("turn"), obs.get("phase"), view["seat"])
        if options["movable"] and self.moved.get(key, 0) < MOVES_PER_PHASE:
            self.moved[key] = self.moved.get(key, 0) + 1
            return int(self.rng.choice(options["movable"]))
        if "end_phase" in types:
            return dict(types["end_phase"])
        if options["actions"]:
            return dict(options["actions"][0])
        if options["movable"]:
            return int(self.rng.choice(options["movable"]))
        raise RuntimeError(f"seat {view['seat']} has nothing to do at version {view['version']}")

    def move(self, view: dict[str, Any], selection: dict[str, Any]) -> dict[str, Any] | None:
        """One of the picked-up unit's legal moves; None (and no more moves this phase) if it has none."""
        if selection.get("type") == "selection" and selection.get("moves"):
            return dict(self.rng.choice(selection["moves"])["action"])
        obs = view["observation"]
        self.moved[(obs.get("turn"), obs.get("phase"), view["seat"])] = MOVES_PER_PHASE
        return None


class Player:
    """One table: two remote seats played by this process, one action at a time."""

    def __init__(self, server: Server, index: int, scenario: str, think: float, compression: bool) -> None:
        self.server = server
        self.index = index
        self.scenario = scenario
        self.think = think
        self.compression = compression
        self.rng = random.Random(index)
        self.policy = Policy(index)
        self.seed = index
        self.sockets: list[SeatSocket] = []
        self.counter = 0
        self.view_bytes = 0
        self.views = 0

    async def open(self, http: httpx.AsyncClient) -> None:
        """Create the table through the lobby and say hello on both seats' sockets."""
        await self.close()
        body = {
            "game": GAME,
            "scenario": self.scenario,
            "seats": ["human", "human"],
            "mode": "remote",
            "timer_seconds": 0,
            "seed": self.seed,
        }
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        created = r.json()
        table = created["id"]
        url = f"ws://127.0.0.1:{self.server.port}/ws/{table}"
        self.sockets = []
        for seat, link in enumerate(created["links"]["seats"]):
            ws = await websockets.connect(
                url, max_size=None, compression="deflate" if self.compression else None, open_timeout=30
            )
            await ws.send(json.dumps({"type": "hello", "token": link.split("#token=", 1)[1]}))
            sock = SeatSocket(ws, seat)
            self.sockets.append(sock)
            await asyncio.wait_for(sock.view_at(0), REPLY_SECONDS)

    async def close(self) -> None:
        for s in self.sockets:
            self.view_bytes += s.view_bytes
            self.views += s.views
            await s.close()
        self.sockets = []

    def next_id(self) -> str:
        self.counter += 1
        return f"b{self.index}-{self.counter}"

    async def play(self, http: httpx.AsyncClient, start: float, stop: float, samples: Samples) -> None:
        """Act until ``stop``; actions sent from ``start`` on are measured."""
        await asyncio.sleep(self.rng.uniform(0, self.think))  # tables out of step, as people are
        while time.perf_counter() < stop:
            m = _TO_MOVE.search(self.sockets[0].view_raw, 0, 300)
            to_move = None if m is None or m.group(1) == "null" else int(m.group(1))
            if to_move not in (0, 1):
                view = json.loads(self.sockets[0].view_raw)
                if view["status"] != "playing":
                    samples.games_finished += 1
                    self.seed += 1000
                    await self.open(http)
                    continue
                raise RuntimeError(f"table {view['table']}: nobody to move at version {view['version']}")
            actor, other = self.sockets[to_move], self.sockets[1 - to_move]
            view = json.loads(actor.view_raw)
            if self.think > 0:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            choice = self.policy.choose(view)
            if isinstance(choice, int):
                t0, t1, sel = await actor.request(
                    {"type": "select", "id": self.next_id(), "seat": to_move, "unit": choice}
                )
                if t0 >= start:
                    samples.select.append(t1 - t0)
                move = self.policy.move(view, sel)
                if move is None:
                    samples.error("no_moves" if sel.get("type") == "selection" else str(sel.get("error")))
                    continue
                action = move
            else:
                action = choice
            t0, t1, ack = await actor.request(
                {"type": "act", "id": self.next_id(), "seat": to_move, "action": action}
            )
            if ack.get("type") != "ack":
                samples.error(str(ack.get("error")))
                await asyncio.sleep(0.05)
                continue
            version = int(ack["version"])
            t2 = await asyncio.wait_for(other.view_at(version), REPLY_SECONDS)
            await asyncio.wait_for(actor.view_at(version), REPLY_SECONDS)  # the next choice reads it
            if t0 >= start:
                samples.ack.append(t1 - t0)
                samples.broadcast.append(t2 - t0)


# ----------------------------------------------------------------------------------------------- a level


def scenario_for(i: int, scenario: str) -> str:
    if scenario != "mix":
        return scenario
    return "great_battle" if i % 2 == 0 else "skirmish"


async def run_level(
    n: int,
    think: float,
    seconds: float,
    warmup: float,
    scenario: str,
    compression: bool,
    data_root: Path | None,
    progress: Progress,
    label: str,
    spy_exe: str | None = None,
) -> Level:
    server = Server(data_root)
    task = progress.add_task(f"{label}: starting the server", total=warmup + seconds)
    try:
        await server.ready()
        limits = httpx.Limits(max_connections=10)
        async with httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits) as http:
            players = [Player(server, i, scenario_for(i, scenario), think, compression) for i in range(n)]
            for i, p in enumerate(players):
                progress.update(task, description=f"{label}: opening table {i + 1}/{n}")
                await p.open(http)
            samples = Samples()
            t_start = time.perf_counter()
            start, stop = t_start + warmup, t_start + warmup + seconds
            jobs = [asyncio.create_task(p.play(http, start, stop, samples)) for p in players]
            cpu0: tuple[int, int, int] | None = None
            spy: Spy | None = None
            while (now := time.perf_counter()) < stop:
                if cpu0 is None and now >= start:
                    cpu0 = (cpu_ticks(server.proc.pid), cpu_ticks("self"), machine_busy_ticks())
                    w0 = now
                    if spy_exe:
                        spy = Spy(spy_exe, server.proc.pid, seconds, f"{n}-tables-think-{think:g}")
                phase = "warming up" if now < start else f"{len(samples.broadcast)} actions"
                progress.update(task, completed=now - t_start, description=f"{label}: {phase}")
                if any(j.done() and j.exception() for j in jobs):
                    break
                await asyncio.sleep(min(0.25, max(0.0, (start if cpu0 is None else stop) - now)))
            wall = time.perf_counter() - w0 if cpu0 is not None else 0.0
            cpu1 = (cpu_ticks(server.proc.pid), cpu_ticks("self"), machine_busy_ticks())
            progress.update(task, completed=warmup + seconds, description=f"{label}: finishing")
            done = await asyncio.gather(*jobs, return_exceptions=True)
            failures = [d for d in done if isinstance(d, BaseException)]
            if failures:
                raise failures[0]
            for p in players:
                await p.close()
        assert cpu0 is not None
        server_s = (cpu1[0] - cpu0[0]) / CLK_TCK
        client_s = (cpu1[1] - cpu0[1]) / CLK_TCK
        other_s = (cpu1[2] - cpu0[2]) / CLK_TCK - server_s - client_s
        cpu = (server_s / wall, client_s / wall, max(0.0, other_s) / wall)
        views = sum(p.views for p in players)
        kib = sum(p.view_bytes for p in players) / views / 1024 if views else 0.0
        level = summarise(n, think, wall, samples, cpu, kib)
        if spy is not None:
            progress.update(task, description=f"{label}: waiting for py-spy")
            level.profile = spy.finish()
        return level
    finally:
        progress.remove_task(task)
        server.stop()


# ----------------------------------------------------------------------------------------------- py-spy

SPY_ROWS = [
    ("busy (not waiting in select/epoll)", ()),
    ("select: ValkyrxAdapter.selection", ("ValkyrxAdapter.selection ",)),
    ("  of which legal_actions", ("ValkyrxAdapter.selection ", "ValkyrxGame.legal_actions ")),
    ("  of which forecasts", ("ValkyrxAdapter.selection ", "ValkyrxAdapter._selection_forecasts ")),
    ("act: LiveTable.act (apply, digests)", ("LiveTable.act ",)),
    ("broadcast: view_for", ("Screens.broadcast ", "view_for ")),
    ("  of which options (legal_actions)", ("view_for ", "ValkyrxAdapter.options ")),
    ("  of which log_for", ("view_for ", "log_for ")),
    ("  of which observe", ("view_for ", "ValkyrxGame.observe ")),
    ("  of which lights", ("view_for ", "ValkyrxAdapter.lights ")),
    ("send: Connection._pump", ("Connection._pump ",)),
    ("  of which json.dumps", ("Connection._pump ", "dumps (json")),
    ("  of which the socket (frames, deflate, write)", ("Connection._pump ", "WebSocket.send_text ")),
    ("    of which permessage-deflate", ("Connection._pump ", "PerMessageDeflate.encode ")),
    ("receive: Connection._receive (frames, inflate, json)", ("Connection._receive ",)),
]


def _has(frames: list[str], pattern: tuple[str, ...]) -> bool:
    i = 0
    for f in frames:
        if i < len(pattern) and f.startswith(pattern[i]):
            i += 1
    return i == len(pattern)


def spy_summary(path: Path) -> dict[str, float]:
    """Shares of the event loop's wall time (py-spy --idle --threads raw stacks) per kind of work."""
    main: list[tuple[list[str], int]] = []
    journal_busy = journal_all = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if "MainThread" in frames[0]:
            main.append((frames[1:], int(n)))
        elif "iwgt-journal" in frames[0]:
            journal_all += int(n)
            journal_busy += int(n) * any(f.startswith("Journal.group ") for f in frames)
    total = sum(n for _, n in main) or 1
    out = {}
    for label, pattern in SPY_ROWS:
        if not pattern:
            idle = sum(n for f, n in main if f and "Selector.select (selectors" in f[-1])
            out[label] = (total - idle) / total
        else:
            out[label] = sum(n for f, n in main if _has(f, pattern)) / total
    out["journal thread: in a commit (fsync included)"] = journal_busy / (journal_all or 1)
    return out


class Spy:
    """py-spy attached to the server for the measured window (a second process: a perturbed run)."""

    def __init__(self, exe: str, pid: int, seconds: float, name: str) -> None:
        self.path = Path(tempfile.gettempdir()) / f"iwgt-latency-{name}.txt"
        cmd = [exe, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))), "--rate", "100"]
        cmd += ["--idle", "--threads", "--nonblocking", "--format", "raw", "--output", str(self.path)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def finish(self) -> dict[str, float]:
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait()
        return spy_summary(self.path) if self.path.exists() else {}


# --------------------------------------------------------------------------------------- the breakdown


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))  # as Connection._pump does


def _deflate(text: str) -> bytes:
    deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)  # as permessage-deflate
    return deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH)


async def breakdown_game(
    scenario: str, steps: int, seed: int, compression: bool
) -> tuple[dict[str, list[float]], int]:
    """The server's own work for each action of one game, in process: what a move costs the event loop.

    Plays ``steps`` actions with the benchmark's policy through a real ``TableSession`` (journal, writer
    thread and fsync included) with two screens, as the socket handler does: ``select``, ``live.act``, then
    ``after_step`` (every screen's view); each message is dumped as ``Connection._pump`` does and deflated
    as permessage-deflate does. The parts of a view are timed again apart, to say where its time goes.
    """
    from iwgt.core.registry import get_plugin
    from iwgt.server.manager import CreateRequest, TableManager
    from iwgt.server.screens import Screen
    from iwgt.server.views import log_for, view_for

    times: dict[str, list[float]] = {}

    def timed(key: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        out = fn(*args, **kwargs)
        times.setdefault(key, []).append(time.perf_counter() - t)
        return out

    folder = Path(tempfile.mkdtemp(prefix="iwgt-breakdown-"))
    manager = TableManager(folder / "tables.sqlite3", bot_delay=0)
    manager.start()
    try:
        body = {
            "game": GAME,
            "scenario": scenario,
            "seats": ["human", "human"],
            "mode": "remote",
            "timer_seconds": 0,
        }
        table = await manager.create(CreateRequest.parse({**body, "seed": seed}))
        live = table.live
        game, adapter, policy = live.game, get_plugin(live.game.name).table(), Policy(seed)
        outbox: list[tuple[int, dict[str, Any]]] = []
        for seat in (0, 1):
            table.screens.add(Screen(frozenset({seat}), functools.partial(_collect, outbox, seat)))
        views = {seat: view_for(table.snapshot(), seat) for seat in (0, 1)}
        done = 0
        while done < steps and live.status == "playing":
            mover = live.to_move
            assert mover is not None and mover in (0, 1)
            seat = mover
            view = views[seat]
            choice = policy.choose(view)
            action: dict[str, Any] | None
            if isinstance(choice, int):
                sel = timed("select", adapter.selection, game, live.state, seat, choice)
                timed("select: legal_actions", game.legal_actions, live.state, seat)
                timed("select: dumps", _dumps, sel)
                action = policy.move(view, sel)
                if action is None:
                    continue
            else:
                action = choice
            wall, cpu = time.perf_counter(), time.thread_time()
            await live.act(seat, action, None)
            on_loop = time.thread_time() - cpu
            times.setdefault("act: on the loop", []).append(on_loop)
            times.setdefault("act: waiting for the journal", []).append(time.perf_counter() - wall - on_loop)
            outbox.clear()
            timed("after_step (both views)", table.after_step)
            for s, msg in outbox:
                views[s] = msg
                text = timed("dumps", _dumps, msg)
                times.setdefault("view bytes", []).append(len(text))
                times.setdefault("log bytes", []).append(len(_dumps({"log": msg["log"]})))
                if compression:
                    timed("deflate", _deflate, text)
            state, mover, snap = live.state, live.to_move, table.snapshot()
            if mover in (0, 1):
                timed("view: options (legal_actions)", adapter.options, game, state, mover)
            for s in (0, 1):
                obs = timed("view: observe", game.observe, state, s)
                timed("view: log_for", log_for, snap, s, obs)
                events = snap.log[-1].visible(s) if snap.log else []  # typed, as views.view_for takes them
                movable = views[s]["options"]["movable"]
                timed("view: lights, cards, report", _decorations, adapter, obs, events, s, movable)
            done += 1
        return times, done
    finally:
        manager.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _collect(outbox: list[tuple[int, dict[str, Any]]], seat: int, msg: dict[str, Any]) -> None:
    outbox.append((seat, msg))


def _decorations(adapter: Any, obs: Any, events: list[Any], seat: int, movable: list[int]) -> None:
    adapter.lights(obs, events, seat, movable=movable)
    adapter.cards(obs, seat)
    adapter.report(obs, events)


BREAKDOWN_ROWS = [
    ("select", "select (a unit's moves and forecasts)", False),
    ("select: legal_actions", "  of which legal_actions (all the seat's actions)", True),
    ("select: dumps", "  json.dumps of the selection", False),
    ("act: on the loop", "act: validate, apply, digests (CPU on the loop)", False),
    ("act: waiting for the journal", "act: waiting for the journal's commit (fsync, off the loop)", False),
    ("after_step (both views)", "after_step: every screen's view (view_for x2)", False),
    ("view: options (legal_actions)", "  of which options = legal_actions (the mover's)", True),
    ("view: log_for", "  of which log_for (the log's steps, per seat)", True),
    ("view: observe", "  of which observe", True),
    ("view: lights, cards, report", "  of which lights, cards and report", True),
    ("dumps", "json.dumps of each view (Connection._pump)", False),
    ("deflate", "permessage-deflate of each view", False),
]


def show_breakdown(console: Console, scenarios: list[str], steps: int, compression: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for scen in scenarios:
        times, actions = asyncio.run(breakdown_game(scen, steps, 1, compression))
        table = Table(
            title=f"Where one action's server time goes: {scen}, {actions} actions of one game (in process)",
            caption="mean per call; per action = the calls an action costs, on average; "
            "'of which' rows are timed again apart",
        )
        for col in ("work", "calls/action", "mean ms", "p99 ms", "ms per action"):
            table.add_column(col, justify="left" if col == "work" else "right")
        total = 0.0
        rows = {}
        for key, label, part in BREAKDOWN_ROWS:
            values = times.get(key, [])
            if not values:
                continue
            per_action = sum(values) / actions
            if not part and key != "act: waiting for the journal":
                total += per_action
            rows[key] = {
                "calls_per_action": round(len(values) / actions, 2),
                "mean_ms": round(1000 * statistics.mean(values), 3),
                "p99_ms": round(1000 * percentile(values, 99), 3),
                "ms_per_action": round(1000 * per_action, 3),
            }
            r = rows[key]
            table.add_row(
                label,
                f"{r['calls_per_action']:.2f}",
                f"{r['mean_ms']:.2f}",
                f"{r['p99_ms']:.2f}",
                f"{r['ms_per_action']:.2f}",
            )
        table.add_row("[bold]event-loop work per action[/]", "", "", "", f"[bold]{1000 * total:.2f}[/]")
        console.print(table)
        view_kib = statistics.mean(times["view bytes"]) / 1024
        log_kib = statistics.mean(times["log bytes"]) / 1024
        console.print(
            f"  a view is {view_kib:.0f} KiB of JSON, {log_kib:.0f} KiB of it the log; "
            f"one event loop does at most about {1 / total:.0f} such actions a second"
        )
        out[scen] = {
            "actions": actions,
            "loop_ms_per_action": round(1000 * total, 3),
            "view_kib": round(view_kib, 1),
            "log_kib": round(log_kib, 1),
            "rows": rows,
        }
    return out


# ------------------------------------------------------------------------------------------------ report


def show(console: Console, title: str, levels: list[Level], repeat: int, target: bool) -> None:
    caption = "ms from sending act; bcast: the view on the other seat's socket; CPU in cores"
    if repeat > 1:
        caption += f"; the median of {repeat} runs by broadcast p99"
    table = Table(title=title, caption=caption)
    cols = [
        "tables",
        "actions",
        "act/s",
        "ack p50",
        "ack p99",
        "bcast p50",
        "bcast p99",
        "bcast max",
        "select p99",
        "server CPU",
        "server ms/act",
        "client CPU",
        "others' CPU",
        "errors",
    ]
    for c in cols:
        table.add_column(c, justify="right")
    for lv in levels:
        table.add_row(
            str(lv.tables),
            str(lv.actions),
            f"{lv.actions_per_s:.1f}",
            f"{lv.ack_p50:.1f}",
            f"{lv.ack_p99:.1f}",
            f"{lv.broadcast_p50:.1f}",
            f"{lv.broadcast_p99:.1f}",
            f"{lv.broadcast_max:.1f}",
            f"{lv.select_p99:.1f}",
            f"{lv.server_cpu:.2f}",
            f"{lv.server_ms_per_action:.1f}",
            f"{lv.client_cpu:.2f}",
            f"{lv.other_cpu:.2f}",
            ", ".join(f"{k} {v}" for k, v in sorted(lv.errors.items())) or "0",
        )
    console.print(table)
    for lv in levels:
        p99 = lv.broadcast_p99
        if not target:
            console.print(
                f"  stress, {lv.tables} table(s) flat out: {lv.actions_per_s:.0f} actions/s, "
                f"broadcast p99 {p99:.1f} ms (no target: think 0 is not how people play)"
            )
        elif math.isnan(p99):
            console.print(f"  {lv.tables} table(s): no action measured")
        else:
            ok = p99 <= TARGET_MS
            verdict = "[green]meets[/]" if ok else "[red]misses[/]"
            where = "" if lv.tables == 50 else " (the target is set at 50 tables)"
            capacity = 1000 / lv.server_ms_per_action if lv.server_ms_per_action > 0 else math.inf
            console.print(
                f"  {lv.tables} table(s): broadcast p99 {p99:.1f} ms {verdict} "
                f"the {TARGET_MS:.0f} ms target{where}; "
                f"{lv.actions_per_s:.0f} actions/s at {lv.server_ms_per_action:.1f} ms of server CPU each, "
                f"where one event loop tops out near {capacity:.0f} actions/s"
            )


def median_run(runs: list[Level]) -> Level:
    ordered = sorted(runs, key=lambda lv: lv.broadcast_p99)
    return ordered[(len(ordered) - 1) // 2]


def show_profile(console: Console, levels: list[Level]) -> None:
    profiled = [lv for lv in levels if lv.profile]
    if not profiled:
        return
    table = Table(
        title="py-spy on the server (a separate, perturbed run): share of the event loop's wall time",
        caption="'busy': the loop not waiting for the network; the journal thread's share is of its own time",
    )
    table.add_column("work")
    for lv in profiled:
        table.add_column(f"{lv.tables} table(s)", justify="right")
    assert profiled[0].profile is not None
    for label in profiled[0].profile:
        table.add_row(label, *(f"{100 * (lv.profile or {}).get(label, 0.0):.1f}%" for lv in profiled))
    console.print(table)


@app.command()
def main(
    tables: Annotated[str, typer.Option(help="table counts to run, comma-separated")] = "1,10,50",
    seconds: Annotated[float, typer.Option(help="measured seconds per level")] = 20.0,
    think: Annotated[float, typer.Option(help="mean seconds a player thinks between actions")] = 0.5,
    warmup: Annotated[float, typer.Option(help="seconds played before measuring (discarded)")] = 3.0,
    stress: Annotated[bool, typer.Option(help="also run every level flat out (think 0)")] = True,
    repeat: Annotated[
        int, typer.Option(help="runs per level; the median run (by broadcast p99) is shown")
    ] = 1,
    scenario: Annotated[
        str, typer.Option(help="great_battle, skirmish, or mix (even tables great_battle, odd skirmish)")
    ] = "mix",
    compression: Annotated[
        bool, typer.Option(help="permessage-deflate on the sockets, as browsers negotiate it")
    ] = True,
    data_root: Annotated[
        Path | None, typer.Option(help="where the server's journal goes (a real disk: it fsyncs)")
    ] = None,
    breakdown: Annotated[
        bool, typer.Option(help="instead: time the server's work per action in process, part by part")
    ] = False,
    breakdown_steps: Annotated[int, typer.Option(help="actions of each game the breakdown plays")] = 150,
    py_spy: Annotated[
        str | None, typer.Option(help="path of a py-spy binary: profile the server in each measured window")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Measure action-to-ack and action-to-broadcast latency of the game server under load."""
    console = Console(highlight=False, width=170)
    if breakdown:
        scenarios = ["great_battle", "skirmish"] if scenario == "mix" else [scenario]
        quiet = Console(file=open(os.devnull, "w"), width=150) if as_json else console  # noqa: SIM115
        figures = show_breakdown(quiet, scenarios, breakdown_steps, compression)
        if as_json:
            print(json.dumps({"breakdown": figures}, indent=2))
        return
    counts = [int(x) for x in tables.split(",") if x.strip()]
    err = Console(stderr=True, highlight=False)
    passes = [(think, think > 0)] + ([(0.0, False)] if stress and think > 0 else [])
    results: dict[str, list[Level]] = {}
    load = os.getloadavg()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=err, transient=True
    ) as progress:
        for pass_think, _ in passes:
            key = f"think {pass_think:g}"
            results[key] = []
            for n in counts:
                runs = []
                for r in range(repeat):
                    label = f"{n} table(s), think {pass_think:g} s, run {r + 1}/{repeat}"
                    level = asyncio.run(
                        run_level(
                            n,
                            pass_think,
                            seconds,
                            warmup,
                            scenario,
                            compression,
                            data_root,
                            progress,
                            label,
                            py_spy,
                        )
                    )
                    runs.append(level)
                results[key].append(median_run(runs))
    if as_json:
        out = {
            "target_ms": TARGET_MS,
            "scenario": scenario,
            "compression": compression,
            "cpus": os.cpu_count(),
            "loadavg_before": [round(x, 2) for x in load],
            "repeat": repeat,
            "profiled": py_spy is not None,
            "passes": {k: [asdict(lv) for lv in v] for k, v in results.items()},
        }
        print(json.dumps(out, indent=2))
        return
    console.print(
        f"[bold]iwgt serve latency[/]: scenario {scenario}, {os.cpu_count()} CPUs, "
        f"load average before {load[0]:.2f}; ms from sending act; CPU in cores busy"
        + (" [bold red]; PROFILED with py-spy: the latencies are perturbed[/]" if py_spy else "")
    )
    for pass_think, target in passes:
        key = f"think {pass_think:g}"
        title = (
            f"{seconds:g} s per level, players think {pass_think:g} s (0.5x-1.5x) between actions"
            if target
            else f"STRESS, flat out (think 0): {seconds:g} s per level, no target"
        )
        show(console, title, results[key], repeat, target)
        show_profile(console, results[key])
    sizes = [lv.view_kib for lvs in results.values() for lv in lvs]
    console.print(
        f"A view is {statistics.mean(sizes):.0f} KiB of JSON on average. With fewer than 100 actions, "
        "p99 is the slowest one. The client keeps each socket under the protocol's 20 messages a second "
        "and does not count that wait. 'others' CPU' is every other process on the machine while measuring: "
        "compare runs only when it is near 0."
    )


if __name__ == "__main__":
    app()
