"""The WarQuest bot against random players: win rate per number of warlords, decision times; asserts nothing.

Run with ``.venv/bin/python benchmarks/warquest_bot.py [--games 100] [--players 2,3,5] [--first-seed 1]
[--rounds N] [--quiet]``. For each number of warlords it plays ``--games`` games of that count's scenario
(2: ``duel`` on the small map, 3: ``three_warlords``, 4: ``myrathia``, 5: ``five_warlords``; ``--rounds``
shortens them through the plug-in's ``rounds`` setup option). Game ``i`` (seed ``first_seed + i``) puts the
bot on seat ``i % players`` and the shared random player (``iwgt.ai.random_bot``, each seeded apart) on every
other seat; the dice are seeded by the same number. It prints, per count and in all, the bot's outright wins,
shared wins and losses, against the issue's target (at least 90% of games won against random players), how the
games ended (an Emperor or the last round), and the bot's decision time (mean and max; the random players'
time is not counted).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from iwgt.ai.random_bot import RandomBot
from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Outcome

TARGET_WINS = 0.90
"""The issue's target: the bot wins at least this share of games against random players."""
SCENARIOS = {2: "duel", 3: "three_warlords", 4: "myrathia", 5: "five_warlords"}
"""The scenario played for each number of warlords."""
MAX_STEPS = 50_000
"""A game still unfinished after this many steps is stopped and counted as unfinished."""


@dataclass
class GameRecord:
    """One game: warlords, seed, the bot's seat, how it ended, the bot's decision times."""

    players: int
    seed: int
    seat: int
    outcome: str = "unfinished"
    shared: bool = False
    emperor: bool = False
    rounds: int = 0
    vp: tuple[int, ...] = ()
    seconds: float = 0.0
    decisions: list[float] = field(default_factory=list)


def _game_and_plugin() -> tuple[Any, Any]:
    from iwgt.games.warquest.plugin import plugin

    return plugin.game, plugin


def play(game: Any, scenario: Any, players: int, seed: int) -> GameRecord:
    """One whole game, the bot on seat ``seed % players`` against random players, its decisions timed."""
    from iwgt.games.warquest.bot import bot_for

    bot_seat = seed % players
    bot = bot_for(game, seed)
    randoms = {s: RandomBot(game, seed * 31 + s) for s in range(players) if s != bot_seat}
    dice = SeededDice(seed)
    state = game.initial_state(scenario)
    record = GameRecord(players, seed, bot_seat)
    start = time.perf_counter()
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            break
        seat = game.to_move(state)
        if seat == CHANCE:
            action: Any = ChanceOutcome(dice.roll(game.chance_outcomes(state)))
        elif seat == bot_seat:
            t = time.perf_counter()
            action = bot.choose(state, seat)
            record.decisions.append(time.perf_counter() - t)
        else:
            action = randoms[seat].choose(state, seat)
        state, _ = game.apply(state, action)
    record.seconds = time.perf_counter() - start
    result = game.result(state)
    record.rounds = state.round
    if result is not None:
        record.outcome = result.outcomes[bot_seat].value
        record.shared = len(result.winners) > 1
        record.emperor = "Emperor" in result.reason
        from iwgt.games.warquest.score import total_vp

        record.vp = tuple(total_vp(state, s) for s in range(players))
    return record


def _summary(console: Console, label: str, part: list[GameRecord]) -> None:
    n = len(part)
    wins = sum(r.outcome == Outcome.WIN.value and not r.shared for r in part)
    shared = sum(r.outcome == Outcome.WIN.value and r.shared for r in part)
    losses = sum(r.outcome == Outcome.LOSS.value for r in part)
    unfinished = n - wins - shared - losses - sum(r.outcome == Outcome.DRAW.value for r in part)
    emperor = sum(r.emperor and r.outcome == Outcome.WIN.value for r in part)
    d = [x for r in part for x in r.decisions]
    mean = statistics.fmean(d) if d else 0.0
    rounds = statistics.fmean(r.rounds for r in part) if part else 0.0
    game_s = statistics.fmean(r.seconds for r in part) if part else 0.0
    verdict = "meets" if n and wins / n >= TARGET_WINS else "MISSES"
    console.print(
        f"  {label:12s} {n:4d} games: won {wins} ({100 * wins / max(1, n):.1f}%, {verdict} the target), "
        f"shared {shared}, lost {losses}, unfinished {unfinished}; crowned Emperor in {emperor}; "
        f"mean {rounds:.1f} rounds, {game_s:.1f} s a game\n"
        f"               {len(d)} bot decisions: mean {1000 * mean:.1f} ms, "
        f"max {1000 * max(d, default=0):.0f} ms"
    )


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per number of warlords")
    parser.add_argument("--players", default="2,3,5", help="numbers of warlords, comma-separated")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--rounds", default="scenario", help="rounds at most (6, 10, 15, 25) or 'scenario'")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args()
    console = Console()
    game, plugin = _game_and_plugin()
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    records: list[GameRecord] = []
    for players in counts:
        scenario = game.load_scenario(SCENARIOS[players])
        scenario = plugin.configure(scenario, {"rounds": args.rounds})
        part: list[GameRecord] = []
        for i in range(args.games):
            r = play(game, scenario, players, args.first_seed + i)
            part.append(r)
            if not args.quiet:
                worst = max(r.decisions, default=0.0)
                how = (" shared" if r.shared else "") + (" emperor" if r.emperor else "")
                console.print(
                    f"{players}p seed {r.seed:4d} bot seat {r.seat}  {r.outcome:5s}{how}  "
                    f"round {r.rounds:2d}  VP {list(r.vp)}  {r.seconds:5.1f} s, "
                    f"{len(r.decisions)} decisions, max {1000 * worst:.0f} ms"
                )
        records += part
        _summary(console, f"{players} warlords", part)
    console.print()
    console.print(f"WarQuest bot v random players, seeds {args.first_seed}.., rounds: {args.rounds}")
    for players in counts:
        _summary(console, f"{players} warlords", [r for r in records if r.players == players])
    _summary(console, "all", records)


if __name__ == "__main__":
    main()
