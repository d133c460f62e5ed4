"""Exact odds of a pool of coloured dice: the time per pool against the issue's target; asserts nothing.

Run with ``.venv/bin/python benchmarks/coloured_dice_odds.py [--repeat 30] [--json]``. For each pool size
from 1 to 40 dice it times ``casualties_distribution`` (the joint (points, kills) distribution by convolution
and the casualties against armour 1, what a preview shows) in two states of the cache:

- **cold**: every cached distribution forgotten before each call (``odds.clear_caches()``): the first time a
  battle meets these colours and counts. Only the dice data file stays loaded (read once per process).
- **warm**: the per-(colour, count) distributions cached from an earlier pool, the per-pool cache forgotten:
  a new mix of colours already seen.

Two pools per size: **mixed**, the dice dealt round the eight colours in the pool order (white, blue, green,
black, red, ...), and **kills**, all green and black (the dearest: both axes convolved). It then times icepool
on the 40-die mixed pool (the issue's figure: 364 ms) for comparison. The target: at most 1 ms up to 40 dice.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Annotated, Any

import icepool
import typer
from rich.console import Console
from rich.table import Table

from iwgt.games.coloured_dice import odds
from iwgt.games.coloured_dice.dice import COLOURS, dice_file, faces, pool_list

TARGET_MS = 1.0
"""The issue's target: at most 1 ms for a pool of up to 40 dice."""
MAX_DICE = 40
ARMOUR = 1

app = typer.Typer(add_completion=False)


def mixed(n: int) -> dict[str, int]:
    """``n`` dice dealt round the eight colours in pool order."""
    pool: dict[str, int] = {}
    for i in range(n):
        colour = COLOURS[i % len(COLOURS)]
        pool[colour] = pool.get(colour, 0) + 1
    return pool


def kills(n: int) -> dict[str, int]:
    """``n`` dice, half green and half black: every die may show a kill."""
    return {c: k for c, k in (("green", (n + 1) // 2), ("black", n // 2)) if k}


def timed(
    fn: Callable[[], object], before: Callable[[], None], repeat: int
) -> tuple[list[float], list[float]]:
    """Milliseconds of ``repeat`` calls of ``fn``, each after ``before`` (untimed): wall clock and this
    process's CPU time (the CPU time leaves out the moments another process had the core). The garbage
    collector waits meanwhile, as in ``timeit``."""
    wall, cpu = [], []
    gc.disable()
    try:
        for _ in range(repeat):
            before()
            t, c = time.perf_counter(), time.process_time()
            fn()
            cpu.append(1000 * (time.process_time() - c))
            wall.append(1000 * (time.perf_counter() - t))
    finally:
        gc.enable()
    return wall, cpu


def measure(pool: dict[str, int], repeat: int) -> dict[str, float]:
    """Cold and warm times (ms) of one pool's casualties distribution: wall median and max, CPU max."""
    call = lambda: odds.casualties_distribution(pool, ARMOUR, models=sum(pool.values()))  # noqa: E731
    cold, cold_cpu = timed(call, odds.clear_caches, repeat)
    call()  # the colours' distributions now cached
    warm, warm_cpu = timed(call, odds._joint.cache_clear, repeat)
    return {
        "cold_median": statistics.median(cold),
        "cold_max": max(cold),
        "cold_cpu_max": max(cold_cpu),
        "warm_median": statistics.median(warm),
        "warm_max": max(warm),
        "warm_cpu_max": max(warm_cpu),
    }


def icepool_ms(pool: dict[str, int]) -> float:
    """icepool's time for the same pool's (points, kills) and casualties (each die a vector die, summed)."""
    t = time.perf_counter()
    total = icepool.Die([icepool.Vector((0, 0))])
    for colour in pool_list(pool):
        one = [(f if isinstance(f, int) else 0, 1 if f == "kill" else 0) for f in faces(colour)]
        total = total + icepool.Die([icepool.Vector(v) for v in one])
    total.map(lambda v: v[0] // (ARMOUR + 1) + v[1])
    return 1000 * (time.perf_counter() - t)


@app.command()
def main(
    repeat: Annotated[int, typer.Option(help="timed calls per pool and cache state")] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Print the time per pool, cold and warm, for 1..40 dice, and icepool's for the 40-die pool."""
    dice_file()  # the data file is read once per process, not per pool
    odds.casualties_distribution(mixed(3), ARMOUR)  # numpy's own first-call costs, outside the figures
    rows: list[dict[str, Any]] = []
    for n in range(1, MAX_DICE + 1):
        for kind, make in (("mixed", mixed), ("kills", kills)):
            rows.append({"dice": n, "pool": kind, **measure(make(n), repeat)})
    ice = icepool_ms(mixed(MAX_DICE))
    ours_40 = next(r for r in rows if r["dice"] == MAX_DICE and r["pool"] == "mixed")
    keys = ("cold_median", "cold_max", "cold_cpu_max", "warm_median", "warm_max", "warm_cpu_max")
    worst = {k: max(r[k] for r in rows) for k in keys}
    summary = {
        "target_ms": TARGET_MS,
        "repeat": repeat,
        "worst": worst,
        "icepool_40_mixed_ms": ice,
        "ours_40_mixed_cold_median_ms": ours_40["cold_median"],
        "speed_up_cold": ice / ours_40["cold_median"],
        "medians_within_target": worst["cold_median"] <= TARGET_MS and worst["warm_median"] <= TARGET_MS,
    }
    if as_json:
        sys.stdout.write(json.dumps({"rows": rows, "summary": summary}, indent=1) + "\n")
        return
    console = Console()
    table = Table(
        title=f"Coloured-Dice pool odds (casualties against armour {ARMOUR}): ms per pool, {repeat} calls",
        caption=f"target: at most {TARGET_MS:g} ms up to {MAX_DICE} dice; cold = every cache forgotten "
        "before each call, warm = the colours' distributions cached, the pool's not; CPU max = the slowest "
        "call's own CPU time (a wall max includes moments another process had the core)",
    )
    heads = (
        "dice",
        "pool",
        "cold median",
        "cold max",
        "cold CPU max",
        "warm median",
        "warm max",
        "warm CPU max",
    )
    for head in heads:
        table.add_column(head, justify="left" if head == "pool" else "right")
    for r in rows:
        table.add_row(str(r["dice"]), r["pool"], *(_ms(r[k]) for k in keys))
    console.print(table)
    console.print(
        f"worst median: cold {_ms(worst['cold_median'])}, warm {_ms(worst['warm_median'])} ms (target "
        f"{TARGET_MS:g} ms: {'met' if summary['medians_within_target'] else 'NOT met'}); slowest call: cold "
        f"{_ms(worst['cold_max'])} ms wall, {_ms(worst['cold_cpu_max'])} ms CPU; warm "
        f"{_ms(worst['warm_max'])} ms wall, {_ms(worst['warm_cpu_max'])} ms CPU"
    )
    console.print(
        f"icepool, the same {MAX_DICE}-die mixed pool: {ice:.0f} ms; ours cold "
        f"{_ms(ours_40['cold_median'])} ms ({summary['speed_up_cold']:.0f}x faster)"
    )


def _ms(value: float) -> str:
    """Milliseconds with three decimals."""
    return f"{value:.3f}"


if __name__ == "__main__":
    app()
