"""Turns, rounds, objectives, VP and the end of a battle (CD-AC-01, CD-MM-02, CD-GM, CD-MS-06/07 designed)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event, Outcome
from iwgt.games.coloured_dice import flow
from iwgt.games.coloured_dice.actions import Charge, EndTurn, Move, Rally
from iwgt.games.coloured_dice.general_morale import lose_unit
from iwgt.games.coloured_dice.state import Buff

from .kit import GAME, battle, objective, roll, unit

UNITS = [
    unit(0, "spearmen", 10, 5, files=6),
    unit(0, "archers", 30, 5, files=5),
    unit(1, "spear_wall", 10, 30, files=6),
    unit(1, "poison_archers", 30, 30, files=5),
]


def test_turn_and_round_order_and_actions_reset() -> None:
    """CD-AC-01: a round is seat 0's turn then seat 1's; each side's units have 2 actions in its turn."""
    st = battle(UNITS, rounds=3)
    assert (st.round, st.seat) == (1, 0)
    st, _ = GAME.apply(st, Move(0, ((10.0, 9.0),), 0.0))
    assert st.unit(0).actions_left == 1
    st, events = GAME.apply(st, EndTurn())
    assert (st.round, st.seat) == (1, 1)
    assert [e.kind for e in events] == ["TurnEnded", "TurnStarted"]
    assert GAME.to_move(st) == 1
    assert st.unit(2).actions_left == 2
    st, events = GAME.apply(st, EndTurn())
    assert (st.round, st.seat) == (2, 0)
    assert [e.kind for e in events] == ["TurnEnded", "RoundStarted", "TurnStarted"]
    assert st.unit(0).actions_left == 2 and st.unit(0).moved == 0


def test_round_losses_reset_at_the_start_of_a_round() -> None:
    """CD-MM-02: a unit's losses count for the round only."""
    st = battle(UNITS)
    st = st.with_unit(replace(st.unit(2), round_losses=3))
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(2).round_losses == 3  # same round, seat 1's turn
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(2).round_losses == 0


def test_shaken_unit_has_one_action() -> None:
    """Designed: a shaken unit has one action in its turn."""
    st = battle(UNITS)
    st = st.with_unit(replace(st.unit(0), shaken=True))
    st, _ = GAME.apply(st, EndTurn())
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(0).actions_left == 1 and st.unit(1).actions_left == 2


def test_buffs_last_until_the_named_turn() -> None:
    """A buff until (round 2, seat 0) is gone when seat 0's turn of round 2 starts."""
    st = battle(UNITS)
    st = st.with_unit(replace(st.unit(0), buffs=(Buff("swift_feet", "move", 2, 2, 0),)))
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(0).buffs
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(0).buffs == ()


def test_objective_taken_at_the_end_of_turn_gives_gm_and_vp() -> None:
    """CD-GM (objective achieved +1) and CD-MS-07 designed: a steady unit within 3" of the objective, no enemy
    as near, at the end of its side's turn: +1 general morale and its VP, once."""
    st = battle(UNITS, objectives=[objective(10, 8, vp=40)])
    # the spearmen's front edge is at y = 6: 2" from the objective
    st, events = GAME.apply(st, EndTurn())
    assert st.general_morale == (1, 0)
    assert st.objectives_taken[0] == frozenset({0})
    assert flow.victory_points(st, 0) == 40
    assert any(e.kind == "ObjectiveTaken" for e in events)
    # CD-GM-13: the row is logged like every general-morale change
    gm = [e.to_json() for e in events if e.kind == "GeneralMoraleChanged"]
    assert [(g["seat"], g["change"], g["value"], g["row"], g["clause"]) for g in gm] == [
        (0, 1, 1, "objective_achieved", "CD-GM-13")
    ]
    st, _ = GAME.apply(st, EndTurn())
    st, _ = GAME.apply(st, EndTurn())
    assert st.general_morale == (1, 0)  # once per side


def test_objective_not_taken_with_an_enemy_as_near() -> None:
    """Designed: an enemy within 3" of the objective denies it."""
    units = [unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 11, files=6)]
    st = battle(units, objectives=[objective(10, 8, vp=40)])
    st, _ = GAME.apply(st, EndTurn())
    assert st.objectives_taken == (frozenset(), frozenset())


def test_objective_not_taken_by_a_shaken_unit() -> None:
    """Designed: only a steady unit achieves an objective."""
    st = battle(UNITS, objectives=[objective(10, 8, vp=40)])
    st = st.with_unit(replace(st.unit(0), shaken=True))
    st, _ = GAME.apply(st, EndTurn())
    assert st.objectives_taken[0] == frozenset()


def test_points_and_vp_of_destroyed_units() -> None:
    """CD-MS-07 designed: a side's VP are the points of enemy units destroyed or routed (at their starting
    models: 12 spear-wall at 20 = 240), plus objectives; a side's losses count a gone unit whole and the dead
    of the others (10 poison archers at 11, 6 left: 44)."""
    st = battle(UNITS)
    events: list[Event] = []
    st = lose_unit(st, 2, "test", events)
    assert flow.victory_points(st, 0) == 240 and flow.victory_points(st, 1) == 0
    assert flow.points_lost(st, 1) == 240
    st2 = st.with_unit(replace(st.unit(3), models=6))
    assert flow.points_lost(st2, 1) == 240 + 44


def test_a_side_that_lost_two_thirds_of_its_points_breaks() -> None:
    """CD-MS-07 designed: at 2/3 of its starting points lost a side breaks and flees: it loses at once.

    Pohjola: 12 spear-wall at 20 points and 10 poison archers at 11: 350 points; 2/3 is 233 1/3. The archers
    gone (110) and 6 spear-wall dead (120): 230 lost, not broken; a seventh dead (250): broken."""
    st = battle(UNITS)
    assert st.start_points[1] == 350
    archers_gone = replace(st.unit(3), models=0, destroyed=True)
    lost_less = st.with_units(archers_gone, replace(st.unit(2), models=6))
    assert flow.points_lost(lost_less, 1) == 230
    assert not flow.broken(lost_less, 1)
    assert flow.check_over(lost_less)[0].over is None
    broke = st.with_units(archers_gone, replace(st.unit(2), models=5))
    assert flow.points_lost(broke, 1) == 250
    assert flow.broken(broke, 1)
    over, events = flow.check_over(broke)
    assert over.over is not None and over.over.outcomes == (Outcome.WIN, Outcome.LOSS)
    assert "broken" in over.over.reason
    assert events[0].kind == "BattleOver"


def test_the_end_line_agrees_with_each_side_s_name() -> None:
    """CD-MS-07: the Sons of Kaleva (plural = true) win; the Host of Pohjola (plural = false) has broken."""
    st = battle(UNITS)
    broke = st.with_units(replace(st.unit(3), models=0, destroyed=True), replace(st.unit(2), models=5))
    over, _ = flow.check_over(broke)
    assert over.over is not None and over.over.plural
    assert over.over.words == "the Sons of Kaleva win (the Host of Pohjola has broken and fled)"


def test_a_side_with_nothing_on_the_table_loses() -> None:
    """CD-MS-07 designed: no unit left on the table: the side loses."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "lemminkainen", 10, 30, army="kaleva")])
    st = st.with_unit(replace(st.unit(1), routed=True))
    over, _ = flow.check_over(st)
    assert over.over is not None and over.over.winner == 0


def test_the_battle_ends_after_the_last_round_and_vp_decide() -> None:
    """CD-MS-07 designed: after the last round's second turn, more VP wins."""
    st = battle(UNITS, rounds=1, objectives=[objective(10, 8, vp=40)])
    st, _ = GAME.apply(st, EndTurn())
    assert not GAME.is_terminal(st)
    st, events = GAME.apply(st, EndTurn())
    assert GAME.is_terminal(st)
    result = GAME.result(st)
    assert result is not None and result.winner == 0
    assert "40 VP to 0" in result.reason
    assert events[-1].kind == "BattleOver"
    assert GAME.to_move(st) is None and GAME.legal_actions(st, 0) == []


def test_equal_vp_after_the_last_round_is_a_draw() -> None:
    """CD-MS-07 designed: equal VP: a draw."""
    st = battle(UNITS, rounds=1)
    st, _ = GAME.apply(st, EndTurn())
    st, _ = GAME.apply(st, EndTurn())
    result = GAME.result(st)
    assert result is not None and result.winner is None
    assert result.outcomes == (Outcome.DRAW, Outcome.DRAW)


@pytest.mark.parametrize("first", [0, 1])
def test_the_scenario_names_who_goes_first(first: int) -> None:
    """cd-spec 1: a round is the first seat's turn then the other's."""
    st = battle(UNITS, first=first)
    assert st.seat == first and GAME.to_move(st) == first
    st, _ = GAME.apply(st, EndTurn())
    assert (st.round, st.seat) == (1, 1 - first)
    st, _ = GAME.apply(st, EndTurn())
    assert (st.round, st.seat) == (2, first)


def test_per_round_bear_wound_dice_refill_and_per_battle_ones_do_not() -> None:
    """CD-CH-17: the Master of Pohjola's 1 bear-wound die is per round: spent, it is back next round;
    Lemminkäinen's 2 are per battle: spent, they stay spent."""
    units = [unit(0, "lemminkainen", 10, 5), unit(1, "master", 10, 30)]
    st = battle(units)
    assert (st.unit(0).bear_left, st.unit(1).bear_left) == (2, 1)
    st = st.with_units(replace(st.unit(0), bear_left=0), replace(st.unit(1), bear_left=0))
    st, _ = GAME.apply(st, EndTurn())
    assert st.unit(1).bear_left == 0  # same round
    st, _ = GAME.apply(st, EndTurn())
    assert (st.round, st.unit(0).bear_left, st.unit(1).bear_left) == (2, 0, 1)


def test_a_shaken_unit_rallies_with_its_action_and_a_passed_test() -> None:
    """Designed (CD-MO-09): a rally is a morale test taking all the unit's actions; 2 on 2d6 always passes."""
    st = battle(UNITS)
    st = st.with_unit(replace(st.unit(0), shaken=True, actions_left=1))
    assert Rally(0) in GAME.legal_actions(st, 0)
    st, _ = GAME.apply(st, Rally(0))
    assert st.unit(0).actions_left == 0
    assert GAME.status(st).phase == "roll"
    st, _ = roll(st, [1, 1])
    assert not st.pending and not st.unit(0).shaken


def test_a_shaken_unit_may_not_charge_nor_rally_after_acting() -> None:
    """Designed: a shaken unit cannot charge; a rally takes all its actions (none used before)."""
    units = [unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 11, 10.5, files=6)]
    st = battle(units)
    st = st.with_unit(replace(st.unit(0), shaken=True, actions_left=1))
    with pytest.raises(IllegalAction, match="shaken"):
        GAME.apply(st, Charge(0, 1))
    far = battle(UNITS)
    far = far.with_unit(replace(far.unit(0), shaken=True, actions_left=1))
    moved, _ = GAME.apply(far, Move(0, ((10.0, 4.0),), 0.0))
    assert Rally(0) not in GAME.legal_actions(moved, 0)
