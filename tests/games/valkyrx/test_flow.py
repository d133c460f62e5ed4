"""The sequence of play (section 4), deployment and the end of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.valkyrx.actions import ConfirmDeployment, EndPhase, PlaceUnit
from iwgt.games.valkyrx.events import FirstMoverChosen, MovementPhaseStarted
from iwgt.games.valkyrx.flow import judge
from iwgt.games.valkyrx.state import Verdict

from .kit import GAME, cell, make, position, tweak


def test_vx_02_12_deployment_in_the_lit_cells_only() -> None:
    scen = make([("guardsmen", (2, 0))], [("wearg_warriors", (2, 8))], extra="")
    state = GAME.initial_state(scen)
    assert GAME.to_move(state) == 0
    moved, _ = GAME.apply(state, PlaceUnit(0, cell(5, 3)))
    assert moved.units[0].cell == cell(5, 3)
    with pytest.raises(IllegalAction, match="not yours"):
        GAME.apply(state, PlaceUnit(1, cell(5, 3)))
    with pytest.raises(IllegalAction, match="already holds"):
        GAME.apply(replace(state, deploy_seat=0), PlaceUnit(0, cell(2, 8)))


def test_vx_04_01_vx_04_03_turn_order_and_a_random_first_mover() -> None:
    scen = make([("guardsmen", (2, 0))], [("wearg_warriors", (2, 8))])
    state = GAME.initial_state(scen)
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    assert GAME.to_move(state) == CHANCE and GAME.chance_outcomes(state).sides == 2  # type: ignore[union-attr]
    state, events = GAME.apply(state, ChanceOutcome(2))  # the Darkness moves first
    assert FirstMoverChosen(1, 1) in events and state.mover == 1
    assert MovementPhaseStarted(1, 1, (1,)) in events
    with pytest.raises(IllegalAction, match="no die is awaited"):
        GAME.apply(state, ChanceOutcome(1))
    state, _ = GAME.apply(state, EndPhase())
    assert state.mover == 0
    state, events = GAME.apply(state, EndPhase())  # no contact: no combat; report, then turn 2
    assert state.turn == 2 and GAME.to_move(state) == CHANCE  # a new first mover each turn


def test_vx_15_26_victory_annihilation_leader_points_and_draws() -> None:
    state = position([("guardsmen", (0, 0)), ("modrof", (1, 1))], [("wearg_warriors", (9, 8))])
    assert judge(state) is None
    assert judge(tweak(state, 2, status="destroyed")) == Verdict(
        0, "the Darkness has nothing left on the table"
    )
    gone = tweak(tweak(tweak(state, 2, status="fled"), 0, status="destroyed"), 1, status="destroyed")
    assert judge(gone) == Verdict(None, "both armies are gone from the field")
    led = position(
        [("guardsmen", (0, 0)), ("modrof", (1, 1))],
        [("wearg_warriors", (9, 8))],
        extra='victory = ["leader"]',
    )
    assert judge(tweak(led, 1, status="destroyed")) == Verdict(1, "the enemy's Supreme Leader has fallen")
    pts = position(
        [("guardsmen", (0, 0))],
        [("wearg_warriors", (9, 8))],
        extra='turn_limit = 3\nvictory = ["annihilation", "points"]',
    )
    assert judge(replace(pts, turn=3)) == Verdict(None, "turn limit: each side destroyed 0 points")
    # Wearg Warriors lost 75 of 300 men: 1200 x 0.25 = 300 points destroyed by the Light.
    assert judge(replace(tweak(pts, 1, strength=225.0), turn=3)) == Verdict(
        0, "turn limit: the Light destroyed 300 points, the Darkness 0"
    )
    plain = position([("guardsmen", (0, 0))], [("wearg_warriors", (9, 8))], extra="turn_limit = 2")
    assert judge(replace(plain, turn=2)) == Verdict(None, "turn limit of 2 reached")


def test_a_finished_game_refuses_every_action() -> None:
    state = position([("guardsmen", (0, 0))], [("wearg_warriors", (9, 8))])
    over = replace(state, result=Verdict(0, "test"))
    assert GAME.to_move(over) is None and GAME.legal_actions(over, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(over, EndPhase())


def test_vx_04_01_observations_name_the_step_of_the_turn() -> None:
    from iwgt.games.valkyrx.flow import current_step

    scen = make([("guardsmen", (2, 0))], [("wearg_warriors", (2, 8))])
    state = GAME.initial_state(scen)
    assert current_step(state) == "deployment"
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    assert current_step(state) == "first_mover"
    state, _ = GAME.apply(state, ChanceOutcome(1))
    assert GAME.observe(state, 0)["step"] == "player_1_move"
    state, _ = GAME.apply(state, EndPhase())
    assert GAME.observe(state, 1)["step"] == "player_2_move"
