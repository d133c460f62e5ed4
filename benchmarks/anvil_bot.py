"""The Forged upon an Anvil bot against a random player: win rate and decision times; asserts nothing.

Run with ``.venv/bin/python benchmarks/anvil_bot.py [--games N] [--scenario battle] [--first-seed 1]``. Each
seed is one whole game, the bot on seat ``seed % 2`` and the shared random player (``iwgt.ai.random_bot``,
seeded by the same number) on the other, so half the games the bot bids and moves as each seat. It prints
the bot's wins, draws and losses, its decision time per move (mean and max, and which phase the slowest
was in) and the whole-game time, against the issue's targets: at least 90% of games won against random,
at most 1 s per decision.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from iwgt.ai.random_bot import RandomBot
from iwgt.core.protocol import Outcome

TARGET_WINS = 0.90
"""The issue's target: the bot wins at least this share of games against a random player."""
TARGET_DECISION_S = 1.0
"""The issue's target: the bot decides within this many seconds."""
MAX_STEPS = 20000
"""A game still unfinished after this many actions is stopped and counted as unfinished (never seen)."""


def anvil() -> Any:
    """The game's rules, through the registry (or straight from the package before it is registered)."""
    try:
        from iwgt.core.registry import get_game

        return get_game("anvil")
    except KeyError:
        from iwgt.games.anvil.game import AnvilGame

        return AnvilGame()


@dataclass
class GameRecord:
    """One game: the bot's seat, its outcome, its decision times and the whole game's time."""

    seed: int
    seat: int
    outcome: str
    reason: str
    seconds: float
    decisions: list[float] = field(default_factory=list)
    slowest_phase: str = ""
    turns: int = 0


def play(game: Any, scenario: Any, seed: int) -> GameRecord:
    """One whole game, the bot against the random player, timed."""
    from iwgt.games.anvil.bot import bot_for

    bot_seat = seed % 2
    bot = bot_for(game)
    rnd = RandomBot(game, seed)
    state = game.initial_state(scenario)
    record = GameRecord(seed, bot_seat, "unfinished", "", 0.0)
    slowest = 0.0
    start = time.perf_counter()
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            break
        seat = game.to_move(state)
        if seat == bot_seat:
            t = time.perf_counter()
            action = bot.choose(state, seat)
            spent = time.perf_counter() - t
            record.decisions.append(spent)
            if spent > slowest:
                slowest, record.slowest_phase = spent, game.status(state).phase
        else:
            action = rnd.choose(state, seat)
        state, _ = game.apply(state, action)
    record.seconds = time.perf_counter() - start
    record.turns = game.status(state).turn or 0
    result = game.result(state)
    if result is not None:
        record.outcome = result.outcomes[bot_seat].value
        record.reason = result.reason
    return record


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--scenario", default="battle")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()
    game = anvil()
    scenario = game.load_scenario(args.scenario)
    records: list[GameRecord] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        r = play(game, scenario, seed)
        records.append(r)
        if not args.quiet:
            worst = max(r.decisions, default=0.0)
            print(
                f"seed {seed:3d}  bot seat {r.seat}  {r.outcome:10s} {r.seconds:6.1f} s  turns {r.turns}  "
                f"{len(r.decisions)} decisions, max {worst:.2f} s ({r.slowest_phase})  {r.reason}",
                flush=True,
            )
    wins = sum(r.outcome == Outcome.WIN.value for r in records)
    draws = sum(r.outcome == Outcome.DRAW.value for r in records)
    losses = sum(r.outcome == Outcome.LOSS.value for r in records)
    unfinished = sum(r.outcome == "unfinished" for r in records)
    decisions = [d for r in records for d in r.decisions]
    times = [r.seconds for r in records]
    n = len(records)
    rate = wins / n if n else 0.0
    mean = statistics.fmean(decisions) if decisions else 0.0
    worst = max(decisions, default=0.0)
    print()
    print(
        f"Forged upon an Anvil bot v random, scenario {args.scenario}, {n} games (seeds {args.first_seed}..)"
    )
    print(f"  wins {wins}  draws {draws}  losses {losses}  unfinished {unfinished}")
    verdict = "meets" if rate >= TARGET_WINS else "MISSES"
    print(f"  win rate {100 * rate:.1f}%  ({verdict} the target >= {100 * TARGET_WINS:.0f}%)")
    verdict = "meets" if worst <= TARGET_DECISION_S else "MISSES"
    print(
        f"  decision time per move: mean {1000 * mean:.0f} ms, max {1000 * worst:.0f} ms over "
        f"{len(decisions)} decisions ({verdict} the target <= {TARGET_DECISION_S:.0f} s)"
    )
    if times:
        print(f"  whole-game time: mean {statistics.fmean(times):.1f} s, max {max(times):.1f} s")


if __name__ == "__main__":
    main()
