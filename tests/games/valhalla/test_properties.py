"""Invariants over random Valhalla games: every legal action is accepted; after every step the table is sane.

A game is played from a seed: at each decision a legal action is picked (charges, fights and shots more often,
so that blows are struck), and every die is rolled from the same seed. After each step:

- every living figure stands wholly on the table, and no two bodies (figures, baggage) overlap;
- a plain move never ends nearer than 2" to an enemy figure, nor nearer than it started (VH-AC-06);
- shock is 0 to 2 and wounds 0 or 1 on a living figure (VH-ST-09, VH-ST-12);
- coins never decrease (VH-WL-01);
- a dead figure never acts, is in no combat and carries nothing; combats are between living enemies in
  contact;
- a carried thing goes with its carrier;
- an activation never uses more actions than it was given (VH-AC-02, VH-AC-03).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.valhalla import actions as act
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.movement import bodies
from iwgt.games.valhalla.state import ValhallaState
from iwgt.geometry.plane import edge_distance

from .kit import GAME

SCENARIOS = {name: GAME.load_scenario(name) for name in ("first_blood", "skirmish", "raid")}
MAX_STEPS = 400
R = rules().table.base_radius
ROUNDING = 0.011  # positions are kept to hundredths of an inch


def check_table(state: ValhallaState) -> None:
    g = state.scenario.ground
    for f in state.figures:
        if f.alive:
            assert g.on_table(f.at, R), f
            assert 0 <= f.shock <= 2 and 0 <= f.wounds <= 1, f
        else:
            assert not state.engaged(f.id) and f.carrying is None, f
        if f.carrying is not None:
            t = state.things[f.carrying]
            assert t.carrier == f.id and t.at == f.at
    everything = bodies(state)
    for i, a in enumerate(everything):
        for b in everything[i + 1 :]:
            assert edge_distance(a.at, a.radius, b.at, b.radius) >= -ROUNDING, (a, b)
    for e in state.engagements:
        a, b = state.figure(e.charger), state.figure(e.charged)
        assert a.alive and b.alive and a.side != b.side
        assert edge_distance(a.at, R, b.at, R) <= rules().table.contact + ROUNDING
    if state.active is not None and state.phase != "over":
        assert state.figure(state.active).alive or state.awaiting_dice
        assert state.actions_used <= state.allowance


def check_move(before: ValhallaState, after: ValhallaState, action: act.Move) -> None:
    f0, f1 = before.figure(action.figure), after.figure(action.figure)
    zone = rules().actions.enemy_zone
    for e in before.enemies_of(f0):
        start = edge_distance(f0.at, R, e.at, R)
        end = edge_distance(f1.at, R, e.at, R)
        assert end >= min(zone, start) - 1e-6, (f0, f1, e)


def choose(state: ValhallaState, legal: list[act.Action], rnd: random.Random) -> act.Action:
    """A blow when there is one (mostly), else often the move that closes on the enemy, else anything."""
    blows = [a for a in legal if isinstance(a, act.Charge | act.Fight | act.Shoot | act.Withdraw)]
    if blows and rnd.random() < 0.8:
        return rnd.choice(blows)
    moves = [a for a in legal if isinstance(a, act.Move)]
    if moves and rnd.random() < 0.6:

        def gap(m: act.Move) -> float:
            f = state.figure(m.figure)
            return min(edge_distance(m.to, R, e.at, R) for e in state.enemies_of(f))

        return min(moves, key=gap)
    return rnd.choice(legal)


def play(name: str, seed: int) -> int:
    """Play one random game; answer the number of steps."""
    rnd = random.Random(seed)
    state = GAME.initial_state(SCENARIOS[name])
    check_table(state)
    for step in range(MAX_STEPS):
        seat = GAME.to_move(state)
        if seat is None:
            return step
        if seat == CHANCE:
            die = GAME.chance_outcomes(state)
            assert die is not None
            state2, _ = GAME.apply(state, ChanceOutcome(rnd.randint(1, die.sides)))
        else:
            legal = GAME.legal_actions(state, seat)
            assert legal and isinstance(legal[-1], act.EndActivation)
            action = choose(state, legal, rnd)
            if hasattr(action, "figure"):
                assert state.figure(action.figure).alive
            state2, _ = GAME.apply(state, action)
            if isinstance(action, act.Move):
                check_move(state, state2, action)
        assert all(b >= a for a, b in zip(state.coins, state2.coins, strict=True))
        state = state2
        check_table(state)
    return MAX_STEPS


@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_on_first_blood_keep_the_invariants(seed: int) -> None:
    play("first_blood", seed)


@pytest.mark.slow  # whole random games on a bigger table: .ci/run runs it, `make test` leaves it out
@settings(max_examples=3, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_on_skirmish_keep_the_invariants(seed: int) -> None:
    play("skirmish", seed)


@pytest.mark.slow  # whole random games on a bigger table: .ci/run runs it, `make test` leaves it out
@settings(max_examples=3, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_on_raid_keep_the_invariants(seed: int) -> None:
    play("raid", seed)


def test_coins_are_monotone_within_a_game_and_games_end() -> None:
    ended = 0
    for seed in range(4):
        steps = play("first_blood", seed)
        ended += steps < MAX_STEPS
    assert ended >= 1
