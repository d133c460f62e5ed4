"""WarQuest battle odds: the time of ``odds.battle_odds`` for typical battles against the 50 ms target;
asserts nothing.

Run with ``.venv/bin/python benchmarks/warquest_odds.py [--repeat 3] [--json]``. Three sizes of battle (3
against 3, 6 against 6, 10 against 10 troops of mixed kinds, one leader a side), three army pairs each, in
three settings:

- **exact**: the default budget (200 000 states), every cache forgotten before each call (the first time the
  table meets this battle);
- **table**: ``budget=odds.TABLE_BUDGET`` (200 000) and ``tolerance=odds.TABLE_TOLERANCE`` (1e-3: the least
  likely states dropped, at most 0.1% of the mass in all, more if the budget needs it): what a selection
  screen asking about several destinations may use;
- **warm**: the exact call again with its chain's tables kept and only the result cache forgotten (the
  table asking again after a move changed nothing in these two armies).

Each row: median and p90 of the wall and CPU time (the target is judged on the CPU median), the states
swept, the worst error bound and the attacker's chances.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from iwgt.games.warquest import odds

TARGET_MS = 50.0
"""The brief's target for one battle's odds."""

BATTLES: dict[str, list[tuple[dict[str, int], dict[str, int]]]] = {
    "3v3": [
        ({"orc_foot": 2, "orc_archer": 1}, {"goblin_foot": 2, "goblin_archer": 1}),
        ({"elf_foot": 2, "elf_archer": 1}, {"dwarf_foot": 2, "dwarf_crossbow": 1}),
        ({"satyr_foot": 2, "satyr_archer": 1}, {"orc_foot": 3}),
    ],
    "6v6": [
        ({"orc_foot": 4, "orc_archer": 2}, {"dwarf_foot": 3, "dwarf_crossbow": 3}),
        ({"goblin_foot": 3, "goblin_archer": 3}, {"elf_foot": 3, "elf_archer": 3}),
        ({"orc_foot": 3, "orc_archer": 3}, {"satyr_foot": 4, "satyr_archer": 2}),
    ],
    "10v10": [
        ({"goblin_foot": 5, "goblin_archer": 5}, {"orc_foot": 5, "orc_archer": 5}),
        ({"elf_foot": 5, "elf_archer": 5}, {"dwarf_foot": 5, "dwarf_crossbow": 5}),
        ({"orc_foot": 6, "orc_archer": 4}, {"satyr_foot": 5, "satyr_archer": 5}),
    ],
}
"""Typical battles by size: (attacker, defender) as {kind: count}."""

SETTINGS: tuple[tuple[str, int, float, bool], ...] = (
    ("exact", 200_000, 0.0, False),
    ("table", odds.TABLE_BUDGET, odds.TABLE_TOLERANCE, False),
    ("warm", 200_000, 0.0, True),
)
"""(name, budget, tolerance, warm) of each setting timed."""

app = typer.Typer(add_completion=False)


def one(b: Any, *, budget: int, tolerance: float, warm: bool) -> tuple[float, float, odds.BattleOdds]:
    """Milliseconds of one battle_odds call (cold: every cache forgotten first), wall and this process's
    CPU (the machine may be shared: the CPU time leaves out the moments another process had the core),
    and its result."""
    if warm:
        odds.battle_odds(b, budget=budget, tolerance=tolerance)
        odds._battle_odds.cache_clear()
    else:
        odds.clear_caches()
    gc.disable()
    try:
        t, c = time.perf_counter(), time.process_time()
        result = odds.battle_odds(b, budget=budget, tolerance=tolerance)
        cpu = 1000 * (time.process_time() - c)
        ms = 1000 * (time.perf_counter() - t)
    finally:
        gc.enable()
    return ms, cpu, result


def p90(xs: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.9 * (len(s) - 1)))]


@app.command()
def main(
    repeat: Annotated[int, typer.Option(help="timed calls per battle and setting")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Print median and p90 of battle_odds per size and setting against the 50 ms target."""
    odds.battle_odds(odds.battle_from_armies({"orc_foot": 1}, {"goblin_foot": 1}))  # data files loaded
    rows: list[dict[str, Any]] = []
    for size, pairs in BATTLES.items():
        for setting, budget, tolerance, warm in SETTINGS:
            times: list[float] = []
            cpus: list[float] = []
            worst_error = 0.0
            states: list[int] = []
            chances: list[float] = []
            for att, dfn in pairs:
                b = odds.battle_from_armies(att, dfn)
                for _ in range(repeat):
                    ms, cpu, r = one(b, budget=budget, tolerance=tolerance, warm=warm)
                    times.append(ms)
                    cpus.append(cpu)
                worst_error = max(worst_error, r.error)
                states.append(r.states)
                chances.append(r.p_attacker_wins)
            rows.append(
                {
                    "size": size,
                    "setting": setting,
                    "median_ms": statistics.median(times),
                    "p90_ms": p90(times),
                    "cpu_median_ms": statistics.median(cpus),
                    "cpu_p90_ms": p90(cpus),
                    "max_states": max(states),
                    "worst_error": worst_error,
                    "attacker_wins": chances,
                    "within_target": statistics.median(cpus) <= TARGET_MS,
                }
            )
    if as_json:
        sys.stdout.write(
            json.dumps({"target_ms": TARGET_MS, "repeat": repeat, "rows": rows}, indent=1) + "\n"
        )
        return
    console = Console(width=150)
    table = Table(
        title=f"WarQuest battle_odds: ms per battle ({repeat} calls x 3 army pairs per size)",
        caption=f"target {TARGET_MS:g} ms (CPU median); exact = budget 200 000 states, caches cold; "
        f"table = budget {odds.TABLE_BUDGET}, tolerance {odds.TABLE_TOLERANCE:g}, cold; "
        "warm = exact, the chain's tables kept",
    )
    heads = (
        "size",
        "setting",
        "median ms",
        "p90 ms",
        "CPU median",
        "CPU p90",
        "states (max)",
        "error",
        "P(att)",
    )
    for head in heads:
        table.add_column(head, justify="right")
    for r in rows:
        table.add_row(
            r["size"],
            r["setting"],
            f"{r['median_ms']:.0f}",
            f"{r['p90_ms']:.0f}",
            f"{r['cpu_median_ms']:.0f}",
            f"{r['cpu_p90_ms']:.0f}",
            str(r["max_states"]),
            f"{r['worst_error']:.1e}",
            " ".join(f"{p:.3f}" for p in r["attacker_wins"]),
            style=None if r["within_target"] else "red",
        )
    console.print(table)


if __name__ == "__main__":
    app()
