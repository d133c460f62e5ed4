"""The Coloured-Dice bot against a random player: win/draw/loss rate and decision times; asserts nothing.

Run with ``.venv/bin/python benchmarks/coloured_dice_bot.py [--games 40] [--scenarios skirmish,battle]
[--first-seed 1] [--quiet]``. Game ``i`` (seed ``first_seed + i``) is played on the scenarios in turn, the bot
on seat ``(i // number of scenarios) % 2`` (so each scenario sees the bot on both seats alike), the shared
random player (``iwgt.ai.random_bot``, seeded by the same number) on the other, the dice seeded by it too. It
prints the bot's wins, draws and losses by scenario and in all, and its decision time (mean and max, the
slowest decision's phase, and how much of it is ``game.observe``), against the issue's target (at least 90% of
games won against random) and the team's budget (about 50 ms a decision on the battle scenario). The random
player's own time (it builds the whole legal-actions list each move) is not the bot's and is not counted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Outcome

TARGET_WINS = 0.90
"""The issue's target: the bot wins at least this share of games against a random player."""
TARGET_DECISION_S = 0.050
"""The team's budget: about this many seconds a decision on the battle scenario."""
MAX_STEPS = 20000
"""A game still unfinished after this many steps is stopped and counted as unfinished."""


def coloured_dice() -> Any:
    """The game's rules, through the registry (or straight from the package)."""
    try:
        from iwgt.core.registry import get_game

        return get_game("coloured-dice")
    except KeyError:
        from iwgt.games.coloured_dice.game import CdGame

        return CdGame()


@dataclass
class GameRecord:
    """One game: scenario, the bot's seat, its outcome, its decision times."""

    seed: int
    scenario: str
    seat: int
    outcome: str = "unfinished"
    reason: str = ""
    seconds: float = 0.0
    decisions: list[float] = field(default_factory=list)
    slowest_phase: str = ""
    observing: float = 0.0


def play(game: Any, scenario: Any, name: str, seed: int, bot_seat: int) -> GameRecord:
    """One whole game, the bot against the random player, the bot's decisions timed."""
    from iwgt.games.coloured_dice.bot import bot_for

    bot = bot_for(game, seed)
    rnd = RandomBot(game, seed)
    dice = SeededDice(seed)
    state = game.initial_state(scenario)
    record = GameRecord(seed, name, bot_seat)
    slowest = 0.0
    start = time.perf_counter()
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            break
        seat = game.to_move(state)
        if seat == CHANCE:
            die = game.chance_outcomes(state)
            action: Any = ChanceOutcome(dice.roll(die))
        elif seat == bot_seat:
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
    record.observing = float(getattr(bot, "observe_seconds", 0.0))
    result = game.result(state)
    if result is not None:
        record.outcome = result.outcomes[bot_seat].value
        record.reason = result.reason
    return record


def _rates(records: list[GameRecord]) -> tuple[int, int, int, int]:
    wins = sum(r.outcome == Outcome.WIN.value for r in records)
    draws = sum(r.outcome == Outcome.DRAW.value for r in records)
    losses = sum(r.outcome == Outcome.LOSS.value for r in records)
    return wins, draws, losses, len(records) - wins - draws - losses


def _times(records: list[GameRecord]) -> tuple[float, float, int]:
    d = [x for r in records for x in r.decisions]
    return (statistics.fmean(d) if d else 0.0), max(d, default=0.0), len(d)


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--scenarios", default="skirmish,battle")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()
    console = Console()
    game = coloured_dice()
    names = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    scenarios = {n: game.load_scenario(n) for n in names}
    records: list[GameRecord] = []
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("bot v random", total=args.games)
        for i in range(args.games):
            seed = args.first_seed + i
            name = names[i % len(names)]
            bot_seat = (i // len(names)) % 2
            r = play(game, scenarios[name], name, seed, bot_seat)
            records.append(r)
            wins = sum(x.outcome == Outcome.WIN.value for x in records)
            progress.update(task, advance=1, description=f"bot v random: {wins}/{len(records)} won")
            if not args.quiet:
                worst = max(r.decisions, default=0.0)
                progress.console.print(
                    f"seed {seed:3d} {name:9s} bot seat {r.seat}  {r.outcome:10s} {r.seconds:6.1f} s  "
                    f"{len(r.decisions)} decisions, max {1000 * worst:.0f} ms ({r.slowest_phase})  {r.reason}"
                )
    console.print()
    console.print(
        f"Coloured-Dice bot v random, {len(records)} games (seeds {args.first_seed}..), seats alternating"
    )
    for name in [*names, "all"]:
        part = records if name == "all" else [r for r in records if r.scenario == name]
        if not part:
            continue
        wins, draws, losses, unfinished = _rates(part)
        n = len(part)
        mean, worst, count = _times(part)
        console.print(
            f"  {name:9s} {n:3d} games: won {wins} ({100 * wins / n:.1f}%), drawn {draws}, lost {losses}, "
            f"unfinished {unfinished}\n            {count} decisions: mean {1000 * mean:.1f} ms, "
            f"max {1000 * worst:.1f} ms"
        )
    wins, _, _, _ = _rates(records)
    rate = wins / len(records) if records else 0.0
    verdict = "meets" if rate >= TARGET_WINS else "MISSES"
    console.print(f"  win rate {100 * rate:.1f}%  ({verdict} the target >= {100 * TARGET_WINS:.0f}%)")
    battle = [r for r in records if r.scenario == "battle"] or records
    mean, worst, _ = _times(battle)
    observing = sum(r.observing for r in battle) / max(1, sum(len(r.decisions) for r in battle))
    verdict = "within" if mean <= TARGET_DECISION_S else "OVER"
    console.print(
        f"  decision time ({battle[0].scenario if battle else '-'}): mean {1000 * mean:.1f} ms "
        f"({verdict} the ~{1000 * TARGET_DECISION_S:.0f} ms budget), max {1000 * worst:.1f} ms"
    )
    console.print(
        f"    of which game.observe (the observation with its exact previews): mean "
        f"{1000 * observing:.1f} ms; the bot's own thinking: mean {1000 * (mean - observing):.1f} ms"
    )


if __name__ == "__main__":
    main()
