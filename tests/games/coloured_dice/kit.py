"""Build Coloured-Dice states directly for the tests: units of given profiles at given places on a table with
given terrain and objectives, in the first seat's turn of round 1, without the scenario's deployment zones.

Seat 0 faces 0 (towards +y), seat 1 faces 180 unless told. Units are ``unit(seat, key, x, y, ...)`` dicts;
``battle(units, features=..., objectives=...)`` the state (ids are the units' positions in the list).
``feature(kind, outline)``, ``square(kind, x0, y0, x1, y1)`` make terrain; ``put`` moves a unit; ``roll``
feeds faces to the chance nodes; ``play_random`` plays a random game with seeded dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.coloured_dice import flow
from iwgt.games.coloured_dice.game import CdGame
from iwgt.games.coloured_dice.movement import profile_of, unit_tray
from iwgt.games.coloured_dice.rules import orders_for, profile
from iwgt.games.coloured_dice.scenario import (
    CdScenario,
    FeatureSpec,
    ObjectiveSpec,
    ScenarioFile,
    SideSpec,
    UnitSpec,
)
from iwgt.games.coloured_dice.state import CdState

XY = tuple[float, float]
ARMIES = ("kaleva", "pohjola")
"""The two armies of the tests: seat 0 the Sons of Kaleva, seat 1 the Host of Pohjola."""
GAME = CdGame()
"""One game object for the tests."""


def unit(
    seat: int,
    key: str,
    x: float,
    y: float,
    facing: float | None = None,
    *,
    files: int | None = None,
    order: str | None = None,
    models: int | None = None,
    general: bool = False,
    banner: bool = False,
    name: str = "",
    army: str | None = None,
) -> dict[str, Any]:
    """One unit of ``seat`` with profile ``key``, its tray centred at (x, y) (facing: into the table).

    Files default to the unit's models (one rank) up to 5; order to the profile's first allowed one."""
    p = profile(army or ARMIES[seat], key)
    n = models if models is not None else p.models
    return {
        "seat": seat,
        "army": army or ARMIES[seat],
        "spec": UnitSpec.model_construct(
            key=key,
            at=(float(x), float(y)),
            facing=facing,
            files=files if files is not None else min(n, 5),
            order=order or orders_for(p)[0],
            models=n,
            general=general,
            banner=banner,
            name=name,
        ),
    }


def feature(kind: str, outline: Sequence[XY], *, height: float = 0.0, name: str = "") -> FeatureSpec:
    """A terrain feature of that kind (``data/rules.toml`` terrain keys)."""
    pts = tuple((float(x), float(y)) for x, y in outline)
    return FeatureSpec(kind=kind, name=name, outline=pts, height=height)


def square(kind: str, x0: float, y0: float, x1: float, y1: float, *, height: float = 0.0) -> FeatureSpec:
    """An axis-aligned rectangular feature."""
    return feature(kind, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], height=height)


def objective(x: float, y: float, vp: int = 20) -> ObjectiveSpec:
    """An objective at (x, y) worth ``vp``."""
    return ObjectiveSpec(at=(float(x), float(y)), vp=vp)


def scenario(
    units: Iterable[dict[str, Any]],
    *,
    features: Sequence[FeatureSpec] = (),
    objectives: Sequence[ObjectiveSpec] = (),
    width: float = 48.0,
    height: float = 36.0,
    rounds: int = 6,
    first: int = 0,
    name: str = "test",
) -> CdScenario:
    """A scenario holding exactly these units (no deployment-zone check: tests put units anywhere)."""
    listed = list(units)
    sides = []
    for seat in (0, 1):
        mine = [u for u in listed if u["seat"] == seat]
        army = mine[0]["army"] if mine else ARMIES[seat]
        sides.append(SideSpec.model_construct(army=army, name="", units=tuple(u["spec"] for u in mine)))
    spec = ScenarioFile.model_construct(
        name=name,
        title="Test",
        description="",
        width=width,
        height=height,
        rounds=rounds,
        first=first,
        features=tuple(features),
        objectives=tuple(objectives),
        sides=(sides[0], sides[1]),
    )
    return CdScenario(spec, f"# a test scenario: {name}\n")


def battle(units: Iterable[dict[str, Any]], **kw: Any) -> CdState:
    """The state at the start of the first seat's turn, units in the order listed BY SEAT (seat 0's first).

    Ids: seat 0's units 0..n-1 in the order given, then seat 1's."""
    return flow.new_state(scenario(units, **kw))


def put(state: CdState, uid: int, x: float, y: float, facing: float | None = None) -> CdState:
    """The state with a unit's tray moved to (x, y) (and turned)."""
    u = state.unit(uid)
    f = u.tray.facing if facing is None else facing
    tray = unit_tray(profile_of(u), u.order, (x, y), f, u.models, u.files)
    return state.with_unit(replace(u, tray=tray))


def roll(state: CdState, faces: Iterable[int]) -> tuple[CdState, list[Event]]:
    """Feed these faces to the chance nodes in turn (each must be a chance node)."""
    events: list[Event] = []
    for f in faces:
        assert GAME.to_move(state) == CHANCE, f"not a chance node: {GAME.observe(state, None)['awaiting']}"
        state, ev = GAME.apply(state, ChanceOutcome(f))
        events += ev
    return state, events


def play_random(state: CdState, seed: int, max_steps: int = 5000) -> tuple[CdState, int]:
    """A random game (random legal actions, seeded dice) until it ends or ``max_steps``; (state, steps)."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    steps = 0
    while not GAME.is_terminal(state) and steps < max_steps:
        who = GAME.to_move(state)
        if who == CHANCE:
            die = GAME.chance_outcomes(state)
            assert die is not None
            state, _ = GAME.apply(state, ChanceOutcome(dice.roll(die)))
        else:
            assert who is not None
            legal = GAME.legal_actions(state, who)
            assert legal, f"seat {who} has no legal action"
            state, _ = GAME.apply(state, rng.choice(list(legal)))
        steps += 1
    return state, steps
