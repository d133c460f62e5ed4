"""The exact odds against a seeded simulation of the game itself: the engine's own charges, fights and
shots, rolled thousands of times with seeded dice, land where ``forecast`` says they will.

``test_odds.py`` checks the odds against the rule functions; this closes the loop through ``apply``
(positions, modifiers from the ground, the order of the dice and the saving throws as the game does them).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.valhalla.actions import Charge, Shoot
from iwgt.games.valhalla.events import Fought, ShotFired
from iwgt.games.valhalla.forecast import charge_odds, shot_odds
from iwgt.games.valhalla.game import ValhallaGame
from iwgt.games.valhalla.scenario import parse_scenario
from iwgt.games.valhalla.state import ValhallaState

GAME = ValhallaGame()
RUNS = 6000
TOLERANCE = 4.5
"""Standard errors a simulated frequency may stray from the exact chance (false alarm ~1 in 150,000)."""

TABLE = """
name = "odds_check"
title = "Odds check"
width = 30
height = 20
[[sides]]
name = "A"
[[sides]]
name = "B"
[[players]]
name = "Ann"
side = 0
hero = [10, 10]
warrior = [4, 4]
archer = [10, 4]
[[players]]
name = "Bo"
side = 1
hero = [26, 17]
warrior = [12.5, 10]
archer = [19, 4]
[[areas]]
kind = "woods"
outline = [[17, 2], [21, 2], [21, 6], [17, 6]]
"""


def dealt(seat_first: int = 0) -> ValhallaState:
    """The test table with the deal done: the lowest card each time, so seat 0 holds the Ace of clubs."""
    state = GAME.initial_state(parse_scenario(TABLE, "odds_check"))
    while GAME.to_move(state) == CHANCE:
        state, _ = GAME.apply(state, ChanceOutcome(1))
    assert GAME.to_move(state) == seat_first
    return state


def run(state: ValhallaState, action: Any, dice: SeededDice) -> tuple[ValhallaState, list[Event]]:
    """Apply the action and roll every die it calls for."""
    state, events = GAME.apply(state, action)
    while GAME.to_move(state) == CHANCE:
        die = GAME.chance_outcomes(state)
        assert die is not None
        state, more = GAME.apply(state, ChanceOutcome(dice.roll(die)))
        events += more
    return state, events


def assert_close(observed: Counter[Any], exact: dict[Any, Fraction], runs: int, what: str) -> None:
    """Every outcome's frequency within TOLERANCE standard errors of its exact chance."""
    assert sum(exact.values()) == 1
    for key, p in exact.items():
        freq = observed[key] / runs
        se = math.sqrt(float(p * (1 - p)) / runs) or 1 / runs
        assert abs(freq - float(p)) <= TOLERANCE * se, f"{what} {key}: {freq:.4f} vs exact {float(p):.4f}"
    assert set(observed) <= {k for k, p in exact.items() if p > 0}, f"{what}: an impossible outcome happened"


def harm_of(state: ValhallaState, fid: int) -> str:
    """A figure's fate in the words of ``Fate``."""
    f = state.figure(fid)
    if not f.alive:
        return "killed"
    if f.wounds:
        return "wounded"
    return "shocked" if f.shock else "unharmed"


@pytest.mark.parametrize("seed", [11])
def test_a_hero_charging_a_warrior_fights_as_the_odds_say(seed: int) -> None:
    """VH-AC-09, VH-CO-01..13, VH-ST-01..07: charge, both dice, the hits and the saves, through apply."""
    state = dealt()
    odds = charge_odds(state, 0, 4)  # Ann's hero (10, 10) charges Bo's warrior (12.5, 10): 1.5" apart
    assert odds is not None and odds.attacker.charging and not odds.defender.charging
    dice = SeededDice(seed)
    a_hits: Counter[int] = Counter()
    d_hits: Counter[int] = Counter()
    fates: Counter[str] = Counter()
    for _ in range(RUNS):
        after, events = run(state, Charge(0, 4), dice)
        fought = next(e for e in events if isinstance(e, Fought))
        a_hits[fought.attacker_hits] += 1
        d_hits[fought.defender_hits] += 1
        fates[harm_of(after, 4)] += 1
    assert_close(a_hits, odds.attacker_hits, RUNS, "hero's hits")
    assert_close(d_hits, odds.defender_hits, RUNS, "warrior's hits")
    assert_close(fates, odds.defender_fate.fates(), RUNS, "warrior's fate")


def test_a_long_shot_into_woods_lands_as_the_odds_say() -> None:
    """VH-SH-03..09: Ann's archer at (10, 4) shoots Bo's archer in the woods at (19, 4): 8" edge to edge,
    long range, in cover: hits on a 6 only."""
    state = dealt()
    odds = shot_odds(state, 2, 5)
    assert odds is not None
    assert odds.needs == 6 and odds.range_band == "long" and odds.hit == Fraction(1, 6)
    dice = SeededDice(5)
    hits: Counter[int] = Counter()
    fates: Counter[str] = Counter()
    for _ in range(RUNS):
        after, events = run(state, Shoot(2, 5), dice)
        shot = next(e for e in events if isinstance(e, ShotFired))
        hits[int(shot.hit)] += 1
        fates[harm_of(after, 5)] += 1
    assert_close(hits, odds.hits, RUNS, "hits")
    assert_close(fates, odds.fate.fates(), RUNS, "target's fate")
