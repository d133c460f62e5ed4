"""Soak: SIGKILL a real `iwgt serve` at random moments, a hundred times, and count lost acknowledged actions.

Not part of the test run (it takes minutes). Each round starts the server on the same journal, plays a few
tables over real WebSockets (every acknowledged action kept with the version its ack named), kills the server
with SIGKILL after a random moment, and checks on the next start that each table's exported record holds
every acknowledged action at the step its ack named (the table's dice after it aside). Expected: 0 lost.

Run with ``python benchmarks/soak.py [--rounds 100] [--seed 1]`` (the ``iwgt`` script next to this Python).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

JSON = dict[str, Any]
TABLES = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(data: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``iwgt serve`` on a free port, once it answers."""
    script = Path(sys.executable).parent / "iwgt"
    cmd = [str(script) if script.exists() else "iwgt", "serve", "--data", str(data), "--bot-delay", "0"]
    port = free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen([*cmd, "--port", str(port)], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"iwgt serve exited with {proc.returncode}; see {log}")
        with suppress(httpx.TransportError):
            if httpx.get(f"{base}/api/games", timeout=1, trust_env=False).status_code == 200:
                return proc, base
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"iwgt serve never answered; see {log}")


@dataclass
class Table:
    """One table and every action acknowledged on it: (action, version its ack named)."""

    made: JSON
    acked: list[tuple[JSON, int]] = field(default_factory=list)
    over: bool = False


def token(made: JSON, seat: int) -> str:
    return str(made["links"]["seats"][seat]).split("#token=", 1)[1]


async def recv(ws: ClientConnection) -> JSON:
    msg: JSON = json.loads(await asyncio.wait_for(ws.recv(), 15))
    return msg


def next_action(view: JSON) -> JSON | None:
    """A legal action that needs no selection: a placement, the tick, End Phase; None if none."""
    actions = view["options"]["actions"]
    for kind in ("place", "confirm", "end_phase", "end_activation"):
        for a in actions:
            if a["type"] == kind:
                return dict(a)
    return dict(actions[0]) if actions else None


async def drive(base: str, table: Table, tag: str) -> None:
    """Play both seats of a table, one action at a time, until the server dies or the game ends."""
    socks: list[ClientConnection] = []
    views: list[JSON] = [{}, {}]
    url = base.replace("http://", "ws://") + f"/ws/{table.made['id']}"
    try:
        for seat in (0, 1):
            ws = await connect(url, proxy=None, open_timeout=10)
            await ws.send(json.dumps({"type": "hello", "token": token(table.made, seat)}))
            await recv(ws)  # welcome
            views[seat] = await recv(ws)
            socks.append(ws)
        version = views[0]["version"]
        n = 0
        while True:
            mover = views[0]["to_move"]
            if views[0]["status"] != "playing" or mover not in (0, 1):
                table.over = views[0]["status"] != "playing"
                return
            while views[mover].get("version", -1) < version:
                m = await recv(socks[mover])
                if m["type"] == "view":
                    views[mover] = m
            action = next_action(views[mover])
            if action is None:
                return
            n += 1
            msg_id = f"{tag}-{n}"
            act = {"type": "act", "id": msg_id, "seat": mover, "action": action}
            await socks[mover].send(json.dumps(act))
            while True:
                m = await recv(socks[mover])
                if m["type"] == "view":
                    views[mover] = m
                if m["type"] in ("ack", "error") and m.get("id") == msg_id:
                    break
            if m["type"] == "error":
                return  # not expected; the table is checked all the same
            version = m["version"]
            table.acked.append((action, version))
            while views[0].get("version", -1) < version:
                v = await recv(socks[0])
                if v["type"] == "view":
                    views[0] = v
    except (ConnectionClosed, OSError, TimeoutError):
        return  # killed under us
    finally:
        for ws in socks:
            with suppress(Exception):
                await asyncio.wait_for(ws.close(), 0.5)


async def play(base: str, tables: list[Table], tag: str, kill_after: float, pid: int) -> None:
    drivers = [asyncio.create_task(drive(base, t, f"{tag}-{i}")) for i, t in enumerate(tables)]
    await asyncio.sleep(kill_after)
    os.kill(pid, signal.SIGKILL)
    await asyncio.wait_for(asyncio.gather(*drivers), 30)


def lost(client: httpx.Client, base: str, table: Table) -> int:
    """Acknowledged actions missing from the table's record (or not at the step their ack named)."""
    r = client.get(f"{base}/api/tables/{table.made['id']}/record")
    r.raise_for_status()
    steps = r.json()["steps"]
    missing = 0
    for action, version in table.acked:
        if len(steps) < version:
            missing += 1
            continue
        # The acked step is the last seat's step at or before the version (table dice follow it).
        players = [s for s in steps[:version] if s["seat"] >= 0]
        if not players or players[-1]["action"] != action:
            missing += 1
    return missing


def new_table(client: httpx.Client, base: str, rng: random.Random) -> Table:
    body = {
        "game": "valkyrx",
        "scenario": "skirmish",
        "seats": ["human", "human"],
        "mode": "remote",
        "timer_seconds": 0,
        "seed": rng.randrange(2**31),
    }
    r = client.post(f"{base}/api/tables", json=body)
    r.raise_for_status()
    return Table(r.json())


def main() -> None:
    """Run the rounds and print the count of lost acknowledged actions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="iwgt-soak-"))
    data, log = work / "data", work / "server.log"
    client = httpx.Client(trust_env=False, timeout=10)
    tables: list[Table] = []
    acked = missing = 0
    try:
        for round_no in range(args.rounds):
            proc, base = start(data, log)
            # Every table played before the last kill: its acknowledged actions must all be there.
            for t in tables:
                missing += lost(client, base, t)
                acked += len(t.acked)
                t.acked.clear()
            tables = [t for t in tables if not t.over]
            while len(tables) < TABLES:
                tables.append(new_table(client, base, rng))
            asyncio.run(play(base, tables, f"r{round_no}", rng.uniform(0.05, 1.5), proc.pid))
            proc.wait(10)
            print(f"round {round_no + 1}/{args.rounds}: {acked} checked so far, {missing} lost", flush=True)
        proc, base = start(data, log)
        for t in tables:
            missing += lost(client, base, t)
            acked += len(t.acked)
        proc.terminate()
        proc.wait(10)
    finally:
        client.close()
    print(f"{args.rounds} SIGKILLs, {acked} acknowledged actions checked, lost: {missing}")
    shutil.rmtree(work, ignore_errors=True)
    raise SystemExit(1 if missing else 0)


if __name__ == "__main__":
    main()
