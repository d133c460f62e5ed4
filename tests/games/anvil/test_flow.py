"""The turn's flow: alternate activations, skipping a seat without CP, passing, the end of a turn, and the
end of the game (FA-AC-01..06, FA-GN-06, FA-MS-05/06)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.anvil.engine_kit import (
    GAME,
    activating,
    at_activation,
    at_bid,
    place,
    play,
    scenario,
    unit_named,
)

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Outcome
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.events import ActivationEnded, ArmiesRevealed, GameOver, MoverChanged, Passed, TurnEnded


def test_fa_ac_01_the_first_player_activates_first_then_they_alternate() -> None:
    state = place(at_activation(5, 6), "Pikemen", (10, 10), 0)
    assert GAME.to_move(state) == 0
    state, events = play(state, act.Activate(unit_named(state, "Pikemen").id), act.EndActivation())
    assert state.cp == (4, 6)
    assert GAME.to_move(state) == 1 and MoverChanged(1, 6) in events
    state, _ = play(state, act.Deploy(unit_named(state, "Spearmen").id, "own", 6.0), act.EndActivation())
    assert GAME.to_move(state) == 0 and state.cp == (4, 4)


def test_fa_ac_03_a_unit_may_activate_more_than_once_a_turn() -> None:
    state = place(at_activation(5, 6), "Pikemen", (10, 10), 0)
    pike = unit_named(state, "Pikemen").id
    state, _ = play(state, act.Activate(pike), act.EndActivation(), act.Pass())
    assert GAME.to_move(state) == 0
    state, _ = play(state, act.Activate(pike))
    assert state.activation is not None and state.activation.unit == pike and state.cp == (3, 0)


def test_fa_ac_04_a_seat_with_no_cp_is_skipped() -> None:
    state, events = play(at_bid(), act.Bid(0), act.Bid(3))
    assert state.first == 0 and GAME.to_move(state) == 1  # seat 0 bid 0: it has nothing to activate with
    assert [e for e in events if isinstance(e, MoverChanged)] == [MoverChanged(1, 3)]


def test_fa_ac_04_decided_pass_gives_up_the_cp_left_and_the_other_finishes() -> None:
    state, events = play(at_activation(5, 6), act.Pass())
    assert Passed(0, 5) in events and state.cp == (0, 6) and GAME.to_move(state) == 1
    state, _ = play(state, act.Deploy(unit_named(state, "Spearmen").id, "own", 6.0), act.EndActivation())
    assert GAME.to_move(state) == 1  # seat 0 passed: seat 1 activates one unit after another


def test_pass_during_an_activation_ends_it() -> None:
    state = activating(place(at_activation(5, 6), "Pikemen", (10, 10), 0), "Pikemen")
    state, events = play(state, act.Pass())
    assert isinstance(events[0], ActivationEnded) and state.activation is None and GAME.to_move(state) == 1


def test_an_activation_with_no_cp_and_no_move_left_ends_by_itself() -> None:
    state = activating(place(at_activation(1, 6), "Pikemen", (10, 10), 0), "Pikemen")
    assert state.cp[0] == 0 and state.activation is not None  # it may still move
    pike = unit_named(state, "Pikemen").id
    state, events = play(state, act.Move(pike, ((10, 14),), 0))
    assert state.activation is not None  # 2" left
    state, events = play(state, act.Move(pike, ((10, 16),), 0))
    assert state.activation is None and ActivationEnded(pike, 0) in events and GAME.to_move(state) == 1


def test_end_activation_needs_an_activation() -> None:
    with pytest.raises(IllegalAction, match="no unit is activated"):
        GAME.apply(at_activation(5, 6), act.EndActivation())


def test_fa_ac_05_06_the_turn_ends_when_both_are_out_and_per_turn_effects_go() -> None:
    state = place(at_activation(5, 6), "Pikemen", (10, 10), 0)
    pike = unit_named(state, "Pikemen")
    state = state.with_unit(replace(pike, braced=True, transfixed=True, skirmishing=True, hp=2))
    state, events = play(state, act.Pass(), act.Pass())
    assert TurnEnded(1) in events and state.turn == 2 and state.phase == "bid"
    after = unit_named(state, "Pikemen")
    assert (after.braced, after.transfixed, after.skirmishing) == (False, False, False)
    assert after.hp == 2  # HP lost stay lost


def test_fa_gn_06_destroying_the_enemy_general_wins_at_once() -> None:
    """Crown Lances (Knight) engage the Old Witch (Wizard, the General, 4 HP) in the rear: 5 HP."""
    state = place(at_activation(5, 6), "The Old Witch", (10, 16), 180)
    state = activating(place(state, "Crown Lances", (10, 19), 180), "Crown Lances")
    lances, witch = unit_named(state, "Crown Lances").id, unit_named(state, "The Old Witch").id
    state, events = play(state, act.Engage(lances, witch))
    while state.pending is not None:  # Counterattack, then Hero of the Day, offered to the Witch: declined
        state, more = play(state, act.Decline())
        events += more
    assert GAME.is_terminal(state)
    result = GAME.result(state)
    assert result is not None and result.outcomes == (Outcome.WIN, Outcome.LOSS)
    assert result.side == "The Iron Crown" and "General's unit" in result.reason
    assert any(isinstance(e, GameOver) for e in events)
    assert GAME.legal_actions(state, 0) == [] and GAME.to_move(state) is None


def test_fa_ms_06_after_the_last_turn_more_dcp_destroyed_wins() -> None:
    state = at_bid()
    spear = unit_named(state, "Spearmen")
    state = state.with_unit(replace(spear, destroyed=True, hp=0))
    for _ in range(6):  # skirmish: six turns, each a tie at 0 and a re-bid tied at 0 that stands: no CP
        state, _ = play(state, *[act.Bid(0)] * 4)
    assert GAME.is_terminal(state)
    result = GAME.result(state)
    assert result is not None and result.winner == 0 and "1 to 0 DCP" in result.reason


def test_fa_ms_06_equal_scores_after_the_last_turn_are_a_draw() -> None:
    state = at_bid()
    for _ in range(6):
        state, _ = play(state, *[act.Bid(0)] * 4)
    result = GAME.result(state)
    assert result is not None and result.winner is None and result.outcomes == (Outcome.DRAW, Outcome.DRAW)


def test_win_seat_destroying_the_seat_of_power_wins_and_a_side_with_nothing_left_loses() -> None:
    state = at_activation(5, 6, win="seat")
    seat1 = state.seat_of_power(1)
    assert seat1 is not None
    state = state.with_unit(replace(seat1, destroyed=True, hp=0, tray=None))
    state, _ = play(state, act.Pass())
    result = GAME.result(state)
    assert result is not None and result.winner == 0 and "Seat of Power" in result.reason


def test_fa_gn_03_muster_takes_a_sealed_army_from_each_seat_then_the_terrain_bid() -> None:
    state = GAME.initial_state(scenario())
    assert state.phase == "muster" and GAME.to_move(state) == 0
    assert GAME.legal_actions(state, 0) == [state.scenario.armies[0]]  # the suggested army is offered
    state, _ = play(state, state.scenario.armies[0])
    assert GAME.to_move(state) == 1 and state.units == ()
    state, events = play(state, state.scenario.armies[1])
    assert state.phase == "terrain_bid"
    assert any(isinstance(e, ArmiesRevealed) for e in events)
    # Each seat's Seat of Power first (4 HP, the Troop's, FA-GN-07), then its army in order.
    assert [u.type for u in state.units[:2]] == ["seat", "hero"]
    assert state.units[0].hp == 4 and state.units[0].seat == 0
    assert all(u.waiting for u in state.units)
    crossbow = unit_named(state, "Crossbowmen")
    assert crossbow.hp == crossbow.start_hp == 2  # Troop 4 HP - 2 for Shooter (FA-SD-07)


def test_an_army_outside_the_limits_is_refused_with_the_rule_it_breaks() -> None:
    state = GAME.initial_state(scenario())
    heroes = act.Army(
        (
            act.ArmyEntry("hero", "A", general=True),
            act.ArmyEntry("hero", "B"),
            act.ArmyEntry("hero", "C"),
            act.ArmyEntry("troop", "D"),
        )
    )
    with pytest.raises(IllegalAction, match="FA-UD-02: Heroes are 9 of 10 DCP"):
        GAME.apply(state, heroes)
    no_general = act.Army((act.ArmyEntry("troop", "D"),))
    with pytest.raises(IllegalAction, match="FA-GN-04"):
        GAME.apply(state, no_general)
    assert state.armies == (None, None)


def test_a_fixed_army_scenario_skips_muster() -> None:
    state = GAME.initial_state(scenario("battle"))
    assert state.phase == "terrain_bid" and len(state.units) == 2 + 13 + 13
