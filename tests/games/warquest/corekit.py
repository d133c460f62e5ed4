"""Helpers for the engine-core tests: a 6 x 4 grid map (``core_maps/testland.toml``), scenarios on it,
hand-built states, and a random player that plays whole games.

The grid's regions are ``r<row><col>``, sites 4 units apart, so each region borders only the regions left,
right, above and below it. Rows 0-1 and the first four of row 2 are the kingdoms (two regions each, the
first a capital with a city of tax 4); r24, r25, r30..r35 are the lands of goblin, elf, dwarf, satyr, orc,
bugbear, troll, dragon. Ancient Battlefields: r01, r33. A mountain between r11 and r21; an unbridged river
between r12 and r22; a bridge between r13 and r23. Locations: r01 tower_of_winds, r02 tower_of_embers, r03
black_tower, r04 deep_tunnels, r05 goblin_tunnels, r10 dwarf_gate, r11 tomb_of_the_wraith_king, r12
barrow_of_kings, r13 monument_of_vandar, r14 standing_stones, r15 dungeon_of_despair, r20 the_pit, r21
dragon_cave, r22 crystal_cave, r23 sunken_temple.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import iwgt.games.warquest.maps as maps_module
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.scenario import WqScenario, parse_scenario
from iwgt.games.warquest.state import Leader, Troop, TurnMarks, WqState

HERE = Path(__file__).parent / "core_maps"


def testland_loader() -> object:
    """A ``load_map`` that knows the test grid ``testland`` besides the shipped maps (cached per key)."""
    original = maps_module.load_map
    cache: dict[str, maps_module.WqMap] = {}

    def cached(key: str) -> maps_module.WqMap:
        if key not in cache:
            if key == "testland":
                text = (HERE / "testland.toml").read_text(encoding="utf-8")
                cache[key] = maps_module.parse_map(text, "testland.toml")
            else:
                cache[key] = original(key)
        return cache[key]

    return cached


@pytest.fixture
def testland() -> Iterator[None]:
    """Every WarQuest module's ``load_map`` knows the test grid while the test runs."""
    _import_all()
    saved = _swap(testland_loader())
    try:
        yield None
    finally:
        _restore(saved)


def _import_all() -> None:
    """Import every module that reads maps, so the swap reaches them all."""
    import iwgt.games.warquest.battle_flow
    import iwgt.games.warquest.conquest
    import iwgt.games.warquest.game
    import iwgt.games.warquest.happenings
    import iwgt.games.warquest.observe
    import iwgt.games.warquest.powers  # noqa: F401


def _swap(fn: object) -> dict[object, object]:
    """Point every WarQuest module's ``load_map`` at ``fn``; returns what to restore."""
    import sys

    saved: dict[object, object] = {}
    for name, mod in list(sys.modules.items()):
        if name.startswith("iwgt.games.warquest") and getattr(mod, "load_map", None) is not None:
            saved[mod] = mod.load_map
            mod.load_map = fn  # type: ignore[attr-defined]
    return saved


def _restore(saved: dict[object, object]) -> None:
    for mod, fn in saved.items():
        mod.load_map = fn  # type: ignore[attr-defined]


def scenario(players: int = 3, rounds: int = 25, map_key: str = "testland") -> WqScenario:
    """A scenario on a map."""
    text = (
        f'name = "test"\ntitle = "Test"\nmap = "{map_key}"\nplayers = {players}\nrounds = {rounds}\n'
        "emperor_quests = 4\n"
    )
    return parse_scenario(text, "test")


def dealt(
    game: WqGame, sc: WqScenario, faces: tuple[int, ...] = tuple(range(11, 27)), first: int = 1
) -> WqState:
    """The state after the four shuffles (four secret dice each: ``faces``) and the starting die."""
    s = game.initial_state(sc)
    for f in (*faces, first):
        assert game.to_move(s) == CHANCE
        s, _ = game.apply(s, ChanceOutcome(f))
    return s


def board(
    state: WqState,
    leaders: list[tuple[int, str, str]],
    troops: list[tuple[int, str, str]] = (),  # type: ignore[assignment]
    *,
    seat: int = 0,
    actions: int = 3,
) -> WqState:
    """A turn of ``seat`` with these pieces only: leaders (seat, rank, region), troops (seat, kind, place)."""
    ls = tuple(Leader(i, s, rank, r) for i, (s, rank, r) in enumerate(leaders))  # type: ignore[arg-type]
    ts = tuple(Troop(100 + i, k, s, r) for i, (s, k, r) in enumerate(troops))
    return replace(
        state,
        phase="turn",
        round=1,
        seat=seat,
        leaders=ls,
        troops=ts,
        marks=TurnMarks(actions_left=actions),
        next_id=100 + len(ts),
        pending=(),
    )


def play_random(game: WqGame, state: WqState, seed: int, max_steps: int = 20000) -> tuple[WqState, int]:
    """Play to the end with random legal actions and seeded dice; returns the end state and the steps."""
    rng = random.Random(seed)
    for step in range(max_steps):
        if game.is_terminal(state):
            return state, step
        who = game.to_move(state)
        if who == CHANCE:
            die = game.chance_outcomes(state)
            assert die is not None
            state, _ = game.apply(state, ChanceOutcome(rng.randrange(die.sides) + 1))
            continue
        assert who is not None
        acts = list(game.legal_actions(state, who))
        assert acts, f"seat {who} has no legal action in phase {state.phase}"
        # end the turn less often than the other choices, so games do things
        weights = [0.2 if type(a).__name__ == "EndTurn" else 1.0 for a in acts]
        state, _ = game.apply(state, rng.choices(acts, weights)[0])
    raise AssertionError("the game did not end")
