"""Benchmark: one unit's movement range on a 24x18 board, ours against networkx.

Run with ``python benchmarks/bench_hexgrid.py`` (the ``iwgt`` package must be importable, e.g. after
``pip install -e .`` or with ``PYTHONPATH=src``). ``run()`` returns the figures for other scripts.
"""

from __future__ import annotations

import random
import timeit
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from iwgt.geometry.hexgrid import Hex, HexBoard, board, movement_range

WIDTH, HEIGHT = 24, 18
BUDGETS = (2, 3, 6)
OCCUPIED = 60
REPEATS = 5
SEED = 20240601


def _scenario() -> tuple[HexBoard, Hex, list[int], frozenset[Hex]]:
    """A fixed, reproducible table: rough ground, some impassable cells, 60 other units."""
    rng = random.Random(SEED)
    hb = board(WIDTH, HEIGHT)
    # 15% difficult (cost 2), 5% impassable (cost 0), the rest open ground.
    cost = [rng.choices((1, 2, 0), weights=(80, 15, 5))[0] for _ in hb.cells]
    start = hb.hex_at(WIDTH // 2, HEIGHT // 2)
    cost[hb.index[start]] = 1
    others = [h for h in hb.cells if h != start]
    occupied = frozenset(rng.sample(others, OCCUPIED))
    return hb, start, cost, occupied


def _time_per_call(fn: Callable[[], object]) -> float:
    """Microseconds per call: the best of several timeit repeats, each about 0.2 s long."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()  # calls in about 0.2 s
    return min(timer.repeat(repeat=REPEATS, number=number)) / number * 1e6


def run() -> list[dict[str, float]]:
    """Time both implementations for each budget; one dict of figures per budget."""
    # networkx is a development dependency, so only the benchmark imports it.
    import networkx as nx

    hb, start, cost, occupied = _scenario()
    graph = nx.DiGraph()
    graph.add_nodes_from(h for h in hb.cells if h not in occupied)
    for i, h in enumerate(hb.cells):
        if h in occupied:
            continue
        for j in hb.neighbour_index[i]:
            target = hb.cells[j]
            if cost[j] > 0 and target not in occupied:
                graph.add_edge(h, target, weight=cost[j])
    no_zone: frozenset[Hex] = frozenset()

    rows: list[dict[str, float]] = []
    for budget in BUDGETS:
        # The default argument binds this iteration's budget; a plain closure would see the last one.
        def ours(budget: float = budget) -> dict[Hex, float]:
            return movement_range(hb, start, budget, cost=cost, blocked=occupied, stop=no_zone)

        def theirs(budget: float = budget) -> dict[Hex, float]:
            result: dict[Hex, float] = nx.single_source_dijkstra_path_length(
                graph, start, cutoff=budget, weight="weight"
            )
            return result

        # Timing two functions that disagree would be pointless.
        if ours() != theirs():
            raise AssertionError(f"movement_range disagrees with networkx at budget {budget}")
        ours_us = _time_per_call(ours)
        theirs_us = _time_per_call(theirs)
        rows.append(
            {
                "budget": float(budget),
                "cells": float(len(ours())),
                "ours_us": ours_us,
                "networkx_us": theirs_us,
                "speedup": theirs_us / ours_us,
            }
        )
    return rows


def main() -> None:
    """Print the figures as a table."""
    rows = run()
    table = Table(title=f"Movement range on a {WIDTH}x{HEIGHT} board, {OCCUPIED} occupied cells")
    table.add_column("budget", justify="right")
    table.add_column("cells reached", justify="right")
    table.add_column("movement_range µs", justify="right")
    table.add_column("networkx µs", justify="right")
    table.add_column("speed-up", justify="right")
    for row in rows:
        table.add_row(
            f"{row['budget']:g}",
            f"{row['cells']:.0f}",
            f"{row['ours_us']:.1f}",
            f"{row['networkx_us']:.1f}",
            f"{row['speedup']:.2f}x",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
