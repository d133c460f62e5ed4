"""Benchmarks of the Days of the Valkyrx referee on the large scenario; prints figures, asserts nothing.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/run_all.py``). Targets from the issue:
every unit's legal destinations in a 60-unit position within 10 ms; one unit's movement range at
least 1.8x faster than networkx; a combat phase within 10 ms; a whole headless game within 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))

import bench_hexgrid
from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.core.registry import get_game
from iwgt.games.valkyrx.actions import EndPhase
from iwgt.games.valkyrx.bot import bot_for
from iwgt.games.valkyrx.events import AttackResolved
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.movement import destinations
from iwgt.games.valkyrx.state import ValkyrxState

SCENARIO = "great_battle"


def best_ms(fn: Callable[[], object], repeat: int = 7, number: int = 5) -> float:
    """Best of ``repeat`` means of ``number`` calls, in milliseconds (the least disturbed figure)."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t) / number)
    return 1000 * min(runs)


def play_game(game: ValkyrxGame, seed: int, stop_turn: int | None = None) -> Match:
    """A bot-against-bot game, to the end or until the second movement phase of ``stop_turn``."""
    match = Match(game, game.load_scenario(SCENARIO), SeededDice(seed), seed)
    bots = (bot_for(game), bot_for(game))
    match.resolve_chance()
    while not game.is_terminal(match.state):
        st: ValkyrxState = match.state
        if stop_turn is not None and st.turn == stop_turn and st.phase == "movement" and st.movers_done == 1:
            break
        seat = game.to_move(st)
        assert seat is not None and seat != CHANCE
        match.act(seat, bots[seat].choose(st, seat))
    return match


def combat_phase(game: ValkyrxGame, state: ValkyrxState, faces: list[int]) -> int:
    """End the second movement phase, pass the spells step, answer every die (combat, morale, report).

    Returns the number of attacks resolved.
    """
    state, events = game.apply(state, EndPhase())
    it = iter(faces)
    while state.phase in ("combat", "spells") or (state.pending and state.pending[0].kind != "first_mover"):
        if state.pending:
            state, more = game.apply(state, ChanceOutcome(min(next(it), state.pending[0].sides)))
        else:  # the spells step: no spell is cast here, each seat passes
            state, more = game.apply(state, EndPhase())
        events += more
    return sum(1 for e in events if isinstance(e, AttackResolved))


def main() -> None:
    """Print every figure."""
    console = Console(highlight=False)
    game = get_game("valkyrx")
    assert isinstance(game, ValkyrxGame)
    table = Table(
        title=f"Days of the Valkyrx referee, scenario {SCENARIO!r} (ms)",
        caption="best of 7 runs; the whole game: mean over seeds 1-5",
    )
    for col in ("measure", "ms", "target", "detail"):
        table.add_column(col, justify="left" if col in ("measure", "detail") else "right")

    mid = play_game(game, 1, stop_turn=4).state  # a position with units in contact and engaged
    on_table = [u for u in mid.units if u.on_table]
    occ = mid.occupancy()
    one = max(on_table, key=lambda u: len(destinations(mid, u, occ).walk))
    ms = best_ms(lambda: destinations(mid, one, occ), number=50)
    table.add_row("legal destinations, one unit", f"{ms:.3f}", "", f"{one.type.name}")
    ms = best_ms(lambda: [destinations(mid, u, mid.occupancy()) for u in on_table])
    table.add_row("legal destinations, every unit", f"{ms:.2f}", "10", f"{len(on_table)} units on the table")
    seat = mid.mover
    assert seat is not None
    n_actions = len(game.legal_actions(mid, seat))
    ms = best_ms(lambda: game.legal_actions(mid, seat))
    table.add_row("legal_actions of the mover", f"{ms:.2f}", "", f"{n_actions} actions")

    full = play_game(game, 1, stop_turn=None)
    faces = [f for f in (s.action.get("face") for s in full.record.steps) if f is not None] * 4
    attacks = combat_phase(game, mid, faces)
    ms = best_ms(lambda: combat_phase(game, mid, faces))
    table.add_row("one combat phase", f"{ms:.2f}", "10", f"{attacks} attacks resolved")

    times, turns = [], []
    for seed in range(1, 6):
        t = time.perf_counter()
        m = play_game(game, seed)
        times.append(1000 * (time.perf_counter() - t))
        turns.append(m.state.turn)
    table.add_row(
        "whole headless game",
        f"{statistics.mean(times):.0f}",
        "1000",
        f"seeds 1-5: {', '.join(f'{x:.0f}' for x in times)} ms; {statistics.mean(turns):.1f} turns",
    )
    console.print(table)

    hex_table = Table(title="One unit's movement range on the 24x18 board: ours against networkx (µs)")
    for col in ("budget", "cells", "ours", "networkx", "speed-up (target 1.8x)"):
        hex_table.add_column(col, justify="right")
    for row in bench_hexgrid.run():
        hex_table.add_row(
            f"{row['budget']:.0f}",
            f"{row['cells']:.0f}",
            f"{row['ours_us']:.1f}",
            f"{row['networkx_us']:.1f}",
            f"{row['speedup']:.2f}x",
        )
    console.print(hex_table)


if __name__ == "__main__":
    main()
