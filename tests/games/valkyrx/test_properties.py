"""Property tests on Days of the Valkyrx's skirmish (and the reinforcements scenario, for late troops):
random seeds and random choices keep the invariants."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.chance import SeededDice
from iwgt.core.digest import canonical_json, digest
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import get_game
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.scenario import ValkyrxScenario
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.geometry.hexgrid import offset_to_hex

GAME = get_game("valkyrx")
SCENARIO = GAME.load_scenario("skirmish")
LATE = GAME.load_scenario("reinforcements")  # late troops on both sides (VX-15-24)
MAX_ACTIONS = 150
EPS = 1e-9

PROPERTY_SETTINGS = settings(max_examples=20, deadline=None, derandomize=True, database=None)


def play(seed: int, rnd: random.Random, end_weight: float, scenario: ValkyrxScenario = SCENARIO) -> Match:
    """A random game: at each step a uniformly chosen legal action, or (sometimes) the last or first one."""
    match = Match(GAME, scenario, SeededDice(seed), seed)
    for _ in range(MAX_ACTIONS):
        seat = GAME.to_move(match.state)
        if seat is None:
            break
        actions = GAME.legal_actions(match.state, seat)
        assert actions
        if rnd.random() < end_weight:
            action = actions[-1] if rnd.random() < 0.5 else actions[0]
        else:
            action = actions[min(int(rnd.random() * len(actions)), len(actions) - 1)]
        match.act(seat, action)
    return match


def fold(record: GameRecord, scenario: ValkyrxScenario = SCENARIO) -> list[ValkyrxState]:
    """Every state of a record, the initial one first, by applying its steps through the protocol."""
    state = GAME.initial_state(scenario)
    states = [state]
    for step in record.steps:
        action: Any = (
            ChanceOutcome(step.action["face"]) if step.seat == CHANCE else GAME.action_from_json(step.action)
        )
        state, _ = GAME.apply(state, action)
        states.append(state)
    return states


def check_invariants(state: ValkyrxState) -> None:
    """One unit per cell, on the board, never on impassable ground; strength within its bounds."""
    scen = state.scenario
    cap = rules_config().abilities.undead_raise_cap
    on_table = [u for u in state.units if u.on_table]
    cells = [u.cell for u in on_table]
    assert len(cells) == len(set(cells)), "two units share a cell"
    for u in on_table:
        assert scen.board.contains(u.cell), f"unit {u.id} is off the board at {u.cell}"
        assert scen.terrain.get(u.cell) != "impassable", f"unit {u.id} stands on impassable ground"
        assert u.strength > 0, f"unit {u.id} is on the table with no strength"
        if not u.type.is_character:
            assert u.strength >= 1, f"unit {u.id} is on the table with under one man ({u.strength})"
    for u in state.units:
        limit = u.start_strength * (cap if u.type.has("undead") else 1.0)
        assert 0 <= u.strength <= limit + EPS, f"unit {u.id}: strength {u.strength} outside [0, {limit}]"
        assert u.casualties_turn >= 0
        if not u.on_table:
            assert u.strength == 0 or u.status in ("fled", "left", "reserve")
        arrives = state.arrives(u.id)
        if u.in_reserve:  # VX-15-24: untouched until it arrives, and only late troops wait
            assert arrives is not None, f"unit {u.id} is in reserve but no late troop"
            assert u.strength == u.start_strength and u.morale == u.type.morale and not u.moved
            assert all(u.id not in (c.a, c.b) for c in state.contacts)
            assert all(u.id not in e.units for e in state.enchantments)
        elif arrives is not None:
            assert state.turn >= arrives, f"unit {u.id} came on before its turn {arrives}"
    occupancy = state.occupancy()
    assert len(occupancy) == len(on_table)


def check_casualties(before: ValkyrxState, after: ValkyrxState) -> None:
    """Casualties taken in one step never exceed the strength the unit had."""
    for old, new in zip(before.units, after.units, strict=True):
        taken = new.casualties_turn - old.casualties_turn
        if taken > 0:
            assert taken <= old.strength + EPS, f"unit {new.id} lost {taken} of its {old.strength}"
            assert new.strength >= old.strength - taken - EPS


@PROPERTY_SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    rnd=st.randoms(use_true_random=False),
    end_weight=st.sampled_from([0.05, 0.15, 0.3]),
)
def test_random_skirmishes_keep_the_invariants_and_replay(
    seed: int, rnd: random.Random, end_weight: float
) -> None:
    match = play(seed, rnd, end_weight)
    record = match.record
    assert len(record.steps) > 0
    states = fold(record)
    assert len(states) == len(record.steps) + 1
    check_invariants(states[0])
    for i, (before, after) in enumerate(pairwise(states)):
        check_invariants(after)
        check_casualties(before, after)
        assert digest(GAME.state_to_json(after)) == record.steps[i].digest, f"step {i}"
    final = canonical_json(GAME.state_to_json(match.state))
    assert canonical_json(GAME.state_to_json(states[-1])) == final
    # The record, through JSON, replays to the same game.
    back = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    rep = replay(back)
    assert rep.steps == len(record.steps)
    assert canonical_json(GAME.state_to_json(rep.state)) == final


@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), rnd=st.randoms(use_true_random=False))
def test_random_battles_with_late_troops_keep_the_invariants_and_replay(
    seed: int, rnd: random.Random
) -> None:
    """VX-15-24: reserves stay untouched, arrive no earlier than their turn, and every record replays."""
    match = play(seed, rnd, 0.1, LATE)
    states = fold(match.record, LATE)
    for i, (before, after) in enumerate(pairwise(states)):
        check_invariants(after)
        check_casualties(before, after)
        assert digest(GAME.state_to_json(after)) == match.record.steps[i].digest, f"step {i}"
    rep = replay(GameRecord.from_json(json.loads(json.dumps(match.record.to_json()))))
    assert canonical_json(GAME.state_to_json(rep.state)) == canonical_json(GAME.state_to_json(states[-1]))


@PROPERTY_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), rnd=st.randoms(use_true_random=False))
def test_every_legal_move_keeps_the_invariants(seed: int, rnd: random.Random) -> None:
    """Not only the chosen actions: every legal action of a few visited states keeps the invariants."""
    match = play(seed, rnd, 0.15)
    states = fold(match.record)
    checked = 0
    for state in states[:: max(1, len(states) // 8)]:
        seat = GAME.to_move(state)
        if seat is None or seat == CHANCE:
            continue
        for action in GAME.legal_actions(state, seat):
            after, _ = GAME.apply(state, action)
            check_invariants(after)
            check_casualties(state, after)
            checked += 1
    assert checked > 0


def test_the_invariant_checks_catch_broken_states() -> None:
    """The checks above can fail: each broken state is caught."""

    state = GAME.initial_state(SCENARIO)
    check_invariants(state)
    a, b = state.units[0], state.units[1]
    broken = [
        state.with_unit(replace(a, cell=b.cell)),  # two units on one cell
        state.with_unit(replace(a, cell=offset_to_hex(5, 3))),  # the Rocks
        state.with_unit(replace(a, cell=offset_to_hex(40, 0))),  # off the board
        state.with_unit(replace(a, strength=-1.0)),
        state.with_unit(replace(a, strength=a.start_strength + 1)),
    ]
    for bad in broken:
        with pytest.raises(AssertionError):
            check_invariants(bad)
    hurt = state.with_unit(replace(a, strength=0.0, casualties_turn=a.strength + 5))
    with pytest.raises(AssertionError):
        check_casualties(state, hurt)
