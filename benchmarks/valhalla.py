"""Benchmarks of the Valhalla referee; prints figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/valhalla.py`` (``make bench`` runs it too). It measures what a
player waits for: the legal actions of a figure on the inch table (every tap on the touchscreen asks the
server), the exact odds shown before a charge or a shot, the bot's decision, and a whole headless game.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.registry import get_game, get_plugin
from iwgt.games.valhalla.dice import Fighter
from iwgt.games.valhalla.odds import combat_odds, shoot_odds


def best_ms(fn: Callable[[], object], repeat: int = 5, number: int = 20) -> float:
    """Best of ``repeat`` means of ``number`` calls, in milliseconds (the least disturbed figure)."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t) / number)
    return 1000 * min(runs)


def positions(scenario: str, count: int = 60, seed: int = 3) -> list[tuple[object, int]]:
    """States met in a random game, with the seat to move (the mid-game positions a player sees)."""
    game = get_game("valhalla")
    match = Match(game, game.load_scenario(scenario), SeededDice(seed), seed)
    match.resolve_chance()
    rng = random.Random(seed)
    out: list[tuple[object, int]] = []
    while not game.is_terminal(match.state) and len(out) < count:
        seat = game.to_move(match.state)
        actions = game.legal_actions(match.state, seat)
        out.append((match.state, seat))
        match.act(seat, actions[rng.randrange(len(actions))])
    return out


def main() -> None:
    """Print the figures."""
    game = get_game("valhalla")
    console = Console()
    table = Table(title="Valhalla (this machine)")
    table.add_column("what")
    table.add_column("figure", justify="right")
    for scenario in ("first_blood", "skirmish", "raid"):
        states = positions(scenario)
        times = []
        for state, seat in states:
            t = time.perf_counter()
            game.legal_actions(state, seat)
            times.append(1000 * (time.perf_counter() - t))
        table.add_row(
            f"legal actions, {scenario} (median / max of {len(times)})",
            f"{statistics.median(times):.1f} / {max(times):.1f} ms",
        )
    table.add_row(
        "exact combat odds, hero charging warrior",
        f"{best_ms(lambda: combat_odds(Fighter('hero', charging=True), Fighter('warrior'))):.2f} ms",
    )
    table.add_row(
        "exact shot odds, two shots", f"{best_ms(lambda: shoot_odds(7.0, True, 'hero', 1, False, 2)):.2f} ms"
    )
    for scenario in ("skirmish", "raid"):
        bot = get_plugin(game.name).bot()
        decisions = []
        t0 = time.perf_counter()
        match = Match(game, game.load_scenario(scenario), SeededDice(1), 1)
        match.resolve_chance()
        while not game.is_terminal(match.state):
            seat = game.to_move(match.state)
            t = time.perf_counter()
            action = bot.choose(match.state, seat)
            decisions.append(1000 * (time.perf_counter() - t))
            match.act(seat, action)
        total = time.perf_counter() - t0
        table.add_row(
            f"bot decision, {scenario} (median / p95 / max)",
            f"{statistics.median(decisions):.0f} / {statistics.quantiles(decisions, n=20)[-1]:.0f}"
            f" / {max(decisions):.0f} ms",
        )
        table.add_row(f"whole bot game, {scenario} ({len(decisions)} decisions)", f"{total:.1f} s")
    console.print(table)


if __name__ == "__main__":
    main()
