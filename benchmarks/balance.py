"""Scenario balance: each game's bot in every seat, many seeds a scenario; prints a table, asserts nothing.

Run with ``nice -n 10 .venv/bin/python benchmarks/balance.py`` (every game and scenario, 200 seeds each).
Each game is played through the same referee as ``iwgt simulate`` (``Match``: the table's dice from the
seed, the game's plug-in bot for each seat) and the script knows the games only through the registry.

For each scenario it counts the games, the wins of each side (a side is the seats that win together: the
result's ``side``), the draws, and the wins of the side that moved first in turn 1 (the seat whose phase is
first, or the first seat to act when the game has no phases of a side). A scenario is fair when each side
wins 40% to 60% of the games.

    nice -n 10 .venv/bin/python benchmarks/balance.py --game valkyrx --scenario skirmish --seeds 60
    nice -n 10 .venv/bin/python benchmarks/balance.py --workers 2 --json > balance.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE
from iwgt.core.registry import game_names, get_plugin

FAIR = (40.0, 60.0)
"""The share of the games each side must win, in percent, for a scenario to count as fair."""


@dataclass(frozen=True, slots=True)
class Played:
    """One finished bot game: who won, and who moved first in turn 1."""

    game: str
    scenario: str
    seed: int
    winners: tuple[int, ...]  # the winning seats; empty for a draw
    side: str | None  # the winning side's name, None for a draw
    first: int | None  # the seat that moved first in turn 1
    turns: int | None


def play(job: tuple[str, str, int]) -> Played:
    """Play one scenario with one seed, the game's bot in every seat, as ``iwgt simulate`` does."""
    name, scenario, seed = job
    plugin = get_plugin(name)
    game = plugin.game
    match = Match(game, game.load_scenario(scenario), SeededDice(seed), seed)
    bots: dict[int, Any] = {}
    first: int | None = None
    match.resolve_chance()
    while not match.is_over():
        seat = match.to_move
        assert seat is not None and seat != CHANCE, "the table rolls every die itself"
        if first is None:
            status = game.status(match.state)
            if status.turn is not None and status.turn >= 1:
                first = status.mover if status.mover is not None else seat
        if seat not in bots:
            bots[seat] = plugin.bot()
        match.act(seat, bots[seat].choose(match.state, seat))
    result = game.result(match.state)
    assert result is not None, "a finished game has a result"
    return Played(name, scenario, seed, result.winners, result.side, first, game.status(match.state).turn)


@dataclass(slots=True)
class Tally:
    """The results of one scenario's games."""

    game: str
    scenario: str
    seats: tuple[str, ...]
    games: int = 0
    draws: int = 0
    wins: Counter[str] = field(default_factory=Counter)  # by side
    side_of: dict[int, str] = field(default_factory=dict)  # seat -> side, learnt from the results
    first_wins: int = 0  # games won by the side that moved first in turn 1
    first_games: int = 0  # games in which a seat moved first in turn 1
    first_by_side: Counter[str] = field(default_factory=Counter)  # how often each side moved first
    first_wins_by_side: Counter[str] = field(default_factory=Counter)

    def add(self, p: Played) -> None:
        """Count one game."""
        self.games += 1
        if p.side is None or not p.winners:
            self.draws += 1
        else:
            self.wins[p.side] += 1
            for seat in p.winners:
                self.side_of[seat] = p.side
        if p.first is not None:
            self.first_games += 1
            if p.first in p.winners:
                self.first_wins += 1

    def sides(self) -> list[str]:
        """Every side, in seat order; a seat that never won stands for itself under its seat's name."""
        out: list[str] = []
        for seat, seat_name in enumerate(self.seats):
            side = self.side_of.get(seat, seat_name)
            if side not in out:
                out.append(side)
        return out

    def share(self, side: str) -> float:
        """The side's wins in percent of the games."""
        return 100.0 * self.wins[side] / self.games if self.games else 0.0

    def fair(self) -> bool:
        """Whether every side wins within the fair band."""
        return all(FAIR[0] <= self.share(s) <= FAIR[1] for s in self.sides())

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {
            "game": self.game,
            "scenario": self.scenario,
            "games": self.games,
            "wins": {s: self.wins[s] for s in self.sides()},
            "wins_pct": {s: round(self.share(s), 1) for s in self.sides()},
            "draws": self.draws,
            "first_mover_wins": self.first_wins,
            "first_mover_games": self.first_games,
            "first_movers": {s: self.first_by_side[s] for s in self.sides()},
            "first_mover_wins_by_side": {s: self.first_wins_by_side[s] for s in self.sides()},
            "fair": self.fair(),
        }


def scenarios(games: list[str], only: str | None) -> list[tuple[str, str, tuple[str, ...]]]:
    """(game, scenario, seat names) for every scenario asked for."""
    out = []
    for name in games:
        game = get_plugin(name).game
        for scenario in game.scenario_names():
            if only is None or scenario == only:
                out.append((name, scenario, game.seats(game.load_scenario(scenario))))
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=200, help="games per scenario, seeds 1..N (200)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing at once (1)")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default: every game)")
    parser.add_argument("--scenario", help="only the scenario of this name")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed (1)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON (progress on stderr)")
    args = parser.parse_args(argv)

    names = args.game or [n for n in game_names() if get_plugin(n).bot() is not None]
    todo = scenarios(names, args.scenario)
    if not todo:
        print("no scenario matches", file=sys.stderr)
        return 2
    tallies = {(g, s): Tally(g, s, seats) for g, s, seats in todo}
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [(g, s, seed) for g, s, _ in todo for seed in seeds]
    played: list[Played] = []
    err = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=args.json) as progress:
        task = progress.add_task("bot games", total=len(jobs))
        if args.workers > 1:
            with multiprocessing.Pool(args.workers) as pool:
                for p in pool.imap_unordered(play, jobs, chunksize=4):
                    played.append(p)
                    progress.update(task, advance=1, description=f"{p.game} {p.scenario}")
        else:
            for job in jobs:
                played.append(play(job))
                progress.update(task, advance=1, description=f"{job[0]} {job[1]}")
    for p in sorted(played, key=lambda p: p.seed):
        tallies[(p.game, p.scenario)].add(p)
    for p in played:  # who moved first, by side: known once every side's name is
        t = tallies[(p.game, p.scenario)]
        if p.first is not None:
            side = t.side_of.get(p.first, t.seats[p.first])
            t.first_by_side[side] += 1
            if p.first in p.winners:
                t.first_wins_by_side[side] += 1

    if args.json:
        rows = [t.to_json() for t in tallies.values()]
        sys.stdout.write(json.dumps({"seeds": args.seeds, "rows": rows}, ensure_ascii=False, indent=1) + "\n")
        return 0
    table = Table(title=f"Scenario balance: bot against bot, seeds {seeds.start}-{seeds.stop - 1}")
    for col in ("game", "scenario", "games", "wins by side", "draws", "first mover wins", "40-60"):
        table.add_column(col, justify="right" if col in ("games", "draws") else "left")
    for t in tallies.values():
        wins = "\n".join(f"{s}: {t.wins[s]} ({t.share(s):.0f}%)" for s in t.sides())
        moved = ", ".join(
            f"{s} {t.first_wins_by_side[s]}/{t.first_by_side[s]}" for s in t.sides() if t.first_by_side[s]
        )
        pct = 100.0 * t.first_wins / t.first_games if t.first_games else 0.0
        first = f"{t.first_wins}/{t.first_games} ({pct:.0f}%)\n{moved}"
        table.add_row(
            t.game, t.scenario, str(t.games), wins, str(t.draws), first, "yes" if t.fair() else "[bold]NO[/]"
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
