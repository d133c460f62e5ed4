"""The Coloured-Dice engine's speed: legal_actions, observe and apply on random games; asserts nothing.

Run with ``.venv/bin/python benchmarks/coloured_dice_engine.py [--scenario battle] [--games 3] [--seed 1]
[--profile]``. Each game is random (random legal actions, dice seeded by the game's seed) until it ends; every
decision's ``legal_actions`` and ``observe`` (the acting seat's view, as the table server builds it each step)
and every ``apply`` are timed. It prints, per call, the median, 90th percentile and worst time, with the
mid-game figures (rounds 2 and later) apart, and each game's length in steps and seconds, against the team's
targets (legal_actions under 20 ms, observe under 10 ms in mid-game). ``--profile`` prints the cProfile top of
the first game instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from typing import Any

from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.coloured_dice.game import CdGame

TARGET_LEGAL_S = 0.020
"""The team's target for one legal_actions call in mid-game."""
TARGET_OBSERVE_S = 0.010
"""The team's target for one observe call in mid-game."""
MAX_STEPS = 20000
"""A game still unfinished after this many steps is stopped."""


def play(game: CdGame, scenario: Any, seed: int, times: dict[str, list[float]]) -> tuple[int, float, bool]:
    """One random game; each call's seconds appended to ``times`` (keys ``call`` and ``call mid``)."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = game.initial_state(scenario)
    steps = 0
    began = time.process_time()
    while not game.is_terminal(state) and steps < MAX_STEPS:
        who = game.to_move(state)
        mid = state.round >= 2
        if who == CHANCE:
            die = game.chance_outcomes(state)
            assert die is not None
            action: Any = ChanceOutcome(dice.roll(die))
        else:
            assert who is not None
            t = time.process_time()
            legal = game.legal_actions(state, who)
            _note(times, "legal_actions", time.process_time() - t, mid)
            t = time.process_time()
            game.observe(state, who)
            _note(times, "observe", time.process_time() - t, mid)
            action = rng.choice(list(legal))
        t = time.process_time()
        state, _ = game.apply(state, action)
        _note(times, "apply", time.process_time() - t, mid)
        steps += 1
    return steps, time.process_time() - began, game.is_terminal(state)


def _note(times: dict[str, list[float]], call: str, seconds: float, mid: bool) -> None:
    times.setdefault(call, []).append(seconds)
    if mid:
        times.setdefault(f"{call} mid", []).append(seconds)


def _ms(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    ordered = sorted(xs)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:8.2f}"


def main() -> None:
    """Play the games and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="battle")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the first game and print its top")
    args = ap.parse_args()
    game = CdGame()
    scenario = game.load_scenario(args.scenario)
    times: dict[str, list[float]] = {}
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play(game, scenario, args.seed, times)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        return
    print(f"Coloured-Dice engine, scenario {args.scenario}, {args.games} random game(s), seed {args.seed}")
    for i in range(args.games):
        steps, seconds, over = play(game, scenario, args.seed + i, times)
        print(f"  game seed {args.seed + i}: {steps} steps, {seconds:.2f} s{'' if over else ' (unfinished)'}")
    print(f"{'call':22} {'n':>6} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'mean ms':>8}")
    for call in ("legal_actions", "legal_actions mid", "observe", "observe mid", "apply", "apply mid"):
        xs = times.get(call, [])
        mean = f"{statistics.fmean(xs) * 1000:8.2f}" if xs else "-"
        print(f"{call:22} {len(xs):6d} {_ms(xs, 0.5):>10} {_ms(xs, 0.9):>8} {_ms(xs, 1.0):>8} {mean:>8}")
    for call, target in (("legal_actions mid", TARGET_LEGAL_S), ("observe mid", TARGET_OBSERVE_S)):
        xs = times.get(call, [])
        if xs:
            p90 = sorted(xs)[int(0.9 * len(xs))]
            verdict = "within" if p90 <= target else "OVER"
            print(f"{call}: p90 {p90 * 1000:.1f} ms, {verdict} the {target * 1000:.0f} ms target")


if __name__ == "__main__":
    main()
