"""Charging, fighting and withdrawing (VH-AC-09..11, VH-CO-01..16): every score worked out by hand.

Figures 0, 1, 2 are seat 0's hero, warrior and archer (side 0); 3, 4, 5 are seat 1's. The cards alternate,
seat 0 first. A bare int given to ``act`` is a die face: in a fight the figure that
acts rolls first (its die, then its opponent's), then one Dice of Death per hit, the defender's first.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from iwgt.core.protocol import CHANCE
from iwgt.games.valhalla.actions import Charge, EndActivation, Fight, Move, Shoot, Withdraw
from iwgt.games.valhalla.dice import fight_hits
from iwgt.games.valhalla.events import (
    ActivationEnded,
    Charged,
    CoinsWon,
    FigureKilled,
    Fought,
    SavingThrow,
    Withdrew,
)
from iwgt.games.valhalla.movement import why_not_charge
from iwgt.games.valhalla.state import Engagement, ValhallaState
from iwgt.geometry.plane import edge_distance

from .kit import GAME, act, first, make, of, player, position, refused, tweak

HERO_AT_10 = [(10, 10), (4, 2), (6, 2)]
WARRIOR_AT_13 = [(46, 30), (13, 10), (42, 30)]  # seat 1's warrior (figure 4) 2" from the hero, edge to edge


def die(state: ValhallaState) -> int:
    d = GAME.chance_outcomes(state)
    assert d is not None
    return d.sides


def fought(events: list) -> Fought:  # type: ignore[type-arg]
    (f,) = of(events, Fought)
    return f


# --- VH-AC-09 and VH-CO-01: the charge ---------------------------------------------------------------------


def test_vh_ac_09_a_charge_reaches_2_inches_and_ends_touching_on_the_line_between_centres() -> None:
    state = position(HERO_AT_10, WARRIOR_AT_13)
    after, events = act(state, Charge(0, 4))
    assert of(events, Charged) == [Charged(0, 4, (12, 10))]  # base to base: centres 1" apart
    assert after.figures[0].at == (12, 10) and after.engagements == (Engagement(0, 4),)
    # 2.10" away is out of reach.
    far = position(HERO_AT_10, [(46, 30), (13.1, 10), (42, 30)])
    assert '2.10" away' in refused(far, Charge(0, 4))
    # Diagonally: warrior at (12,12), centres sqrt(8) = 2.83" apart, edges 1.83": the charger stops 1" short
    # of its centre, at (12 - 1/sqrt(2), 12 - 1/sqrt(2)) = (11.29, 11.29).
    diag = position(HERO_AT_10, [(46, 30), (12, 12), (42, 30)])
    after, _ = act(diag, Charge(0, 4))
    assert after.figures[0].at == (11.29, 11.29)


def test_vh_co_01_the_combat_is_fought_at_once() -> None:
    state, _ = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4))
    assert GAME.to_move(state) == CHANCE and state.fight is not None


def test_vh_ac_09_the_charge_ends_the_activation_even_as_the_first_action() -> None:
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 2, 3)  # 3 against 3: no hits
    assert ActivationEnded(0) in events and state.active is None and GAME.to_move(state) == 1


def test_vh_ac_09_a_move_then_a_charge() -> None:
    state = position([(6, 10), (4, 2), (6, 2)], WARRIOR_AT_13)
    state, _ = act(state, Move(0, (10, 10)))  # 4": stops exactly 2" from the warrior
    state, events = act(state, Charge(0, 4))
    assert of(events, Charged) == [Charged(0, 4, (12, 10))]


def test_vh_ac_09_the_charger_needs_room_at_the_contact_point() -> None:
    state = position([(10, 10), (4, 2), (12, 10.8)], WARRIOR_AT_13)  # its own archer on (12,10)'s ground
    assert "no room" in refused(state, Charge(0, 4))


def test_vh_ac_09_only_a_living_enemy_may_be_charged() -> None:
    state = position([(10, 10), (12, 10.5), (6, 2)], WARRIOR_AT_13)
    assert "not a living enemy" in refused(state, Charge(0, 1))
    assert "not a living enemy" in refused(tweak(state, 4, alive=False), Charge(0, 4))


def test_vh_ac_09_a_figure_may_charge_an_enemy_already_in_combat_and_fights_it_alone() -> None:
    # Seat 0's warrior (1) already fights seat 1's warrior (4); seat 0's hero charges the same warrior.
    state = position([(10, 10), (14, 10), (6, 2)], WARRIOR_AT_13)
    state = replace(state, engagements=(Engagement(1, 4),))
    state, events = act(state, Charge(0, 4), 7, 3)
    f = fought(events)
    assert (f.attacker, f.defender) == (0, 4)
    assert set(state.engagements) == {Engagement(1, 4), Engagement(0, 4)}  # two pairwise fights (VH-CO-02)


# --- VH-CO-02..05: one die each: d10, d8, d6 ------------------------------------------------------------


def test_vh_co_03_04_05_hero_d10_warrior_d8_archer_and_slinger_d6() -> None:
    state, _ = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4))
    assert die(state) == 10  # the hero, the charger, first
    state, _ = act(state, 5)
    assert die(state) == 8  # then the warrior
    players = [
        player(0, (2, 2), (4, 2), (10, 10), name="A"),
        player(1, (46, 30), (44, 30), (13, 10), name="B", slinger=True),
    ]
    archer = first(GAME.initial_state(make(players=players)))
    archer = act(archer, Charge(2, 5))[0]
    assert die(archer) == 6
    archer = act(archer, 3)[0]
    assert die(archer) == 6  # a slinger rolls the same d6 (VH-CB-03)


# --- VH-CO-06..09: the modifiers ----------------------------------------------------------------------------


def test_vh_co_10_11_a_charging_hero_7_against_a_warrior_3_scores_two_hits() -> None:
    # Hero d10 face 7, +1 charging = 8; warrior d8 face 3 = 3. 8 > 2 x 3: two hits, two Dice of Death.
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 7, 3)
    assert fought(events) == Fought(0, 4, 7, 3, 8, 3, 2, 0)
    assert state.saves == (4, 4) and die(state) == 6


def test_vh_co_11_more_than_twice_is_strict() -> None:
    # Hero 7 + 1 = 8 against warrior 4: 8 is not more than 8: one hit.
    _, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 7, 4)
    assert fought(events) == Fought(0, 4, 7, 4, 8, 4, 1, 0)


def test_vh_co_12_equal_scores_no_hits_and_vh_co_14_they_stay_in_contact() -> None:
    # Hero 2 + 1 = 3 against warrior 3.
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 2, 3)
    assert fought(events) == Fought(0, 4, 2, 3, 3, 3, 0, 0)
    assert state.saves == () and state.engagements == (Engagement(0, 4),)
    assert state.figures[0].at == (12, 10) and state.figures[4].at == (13, 10)


def test_vh_co_10_the_defender_can_win_and_vh_co_13_one_save_per_hit() -> None:
    # Hero 1 + 1 = 2 against warrior 4: one hit on the hero (4 is not more than 4).
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 1, 4)
    assert fought(events) == Fought(0, 4, 1, 4, 2, 4, 0, 1) and state.saves == (0,)
    # Warrior 5 against 2: more than twice, two hits on the hero.
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 1, 5)
    assert fought(events) == Fought(0, 4, 1, 5, 2, 5, 0, 2) and state.saves == (0, 0)


def test_vh_co_06_the_charge_bonus_is_for_the_fight_right_after_the_charge_only() -> None:
    state, _ = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 2, 3)  # 3 against 3
    assert GAME.to_move(state) == 1
    # Seat 1's warrior continues the fight: it rolls first; no one has +1 now. Warrior 3 against hero 3.
    state, events = act(state, Fight(4, 0), 3, 3)
    assert fought(events) == Fought(4, 0, 3, 3, 3, 3, 0, 0)


WOOD_RIGHT = [[(12.5, 0), (20, 0), (20, 20), (12.5, 20)]]  # the warrior at (13,10) is in it, (12,10) is not


def test_vh_co_07_the_charged_figure_defending_woods_gets_plus_1() -> None:
    # Hero 7 + 1 = 8 against warrior 3 + 1 (defending the wood) = 4: only one hit now.
    state = position(HERO_AT_10, WARRIOR_AT_13, woods=WOOD_RIGHT)
    state, events = act(state, Charge(0, 4), 7, 3)
    assert fought(events) == Fought(0, 4, 7, 3, 8, 4, 1, 0)
    # It keeps the +1 for the whole combat, also when it carries the fight on itself (after a miss here).
    state, _ = act(position(HERO_AT_10, WARRIOR_AT_13, woods=WOOD_RIGHT), Charge(0, 4), 2, 2)  # 3 against 3
    state, events = act(state, Fight(4, 0), 4, 4)
    assert fought(events) == Fought(4, 0, 4, 4, 5, 4, 1, 0)


def test_vh_co_07_a_village_too_but_not_for_the_charger() -> None:
    state = position(HERO_AT_10, WARRIOR_AT_13, villages=WOOD_RIGHT)
    _, events = act(state, Charge(0, 4), 7, 3)
    assert fought(events).defender_score == 4
    # The charger standing in a wood gets nothing for it: the wood covers x 0..12.2, the hero ends at (12,10).
    wood_left = [[(0, 0), (12.2, 0), (12.2, 20), (0, 20)]]
    _, events = act(position(HERO_AT_10, WARRIOR_AT_13, woods=wood_left), Charge(0, 4), 7, 3)
    assert fought(events) == Fought(0, 4, 7, 3, 8, 3, 2, 0)


HILL_RIGHT = [((12.5, 0), (30, 0), (30, 20), (12.5, 20)), 1, 2.0]  # (13,10) is 0.5" up a 2" slope: 0.25


def test_vh_co_07_standing_higher_than_the_opponent_gets_plus_1_and_the_bonuses_do_not_stack() -> None:
    state = position(HERO_AT_10, WARRIOR_AT_13, hills=[HILL_RIGHT])
    _, events = act(state, Charge(0, 4), 7, 3)
    assert fought(events) == Fought(0, 4, 7, 3, 8, 4, 1, 0)  # the warrior stands higher
    both = position(HERO_AT_10, WARRIOR_AT_13, hills=[HILL_RIGHT], woods=WOOD_RIGHT)
    _, events = act(both, Charge(0, 4), 7, 3)
    assert fought(events).defender_score == 4  # higher and in the wood: still +1 only
    # Charging downhill: the hero on the crest at (16.5,10) (height 1) onto a warrior half way up the slope at
    # (13.5,10) (1" in: height 0.5). The hero ends at (14.5,10), 2" in: height 1. +1 charging, +1 higher.
    down = position([(16.5, 10), (4, 2), (6, 2)], [(46, 30), (13.5, 10), (42, 30)], hills=[HILL_RIGHT])
    _, events = act(down, Charge(0, 4), 5, 3)
    assert fought(events) == Fought(0, 4, 5, 3, 7, 3, 2, 0)
    # Height is judged where the charger ends: from (13,10) (height 0.25) onto a warrior at (10,10) on the
    # flat, the hero ends at (11,10), off the hill: level ground, +1 for the charge only. 6 against 3: 1 hit.
    level = position([(13, 10), (4, 2), (6, 2)], [(46, 30), (10, 10), (42, 30)], hills=[HILL_RIGHT])
    _, events = act(level, Charge(0, 4), 5, 3)
    assert fought(events) == Fought(0, 4, 5, 3, 6, 3, 1, 0)


def test_vh_co_07_charging_uphill_onto_a_figure_higher_up() -> None:
    # The hero (1.5" up the slope, at (14,10): height 0.75) charged by a warrior from below at (11,10); the
    # warrior ends at (13,10), height 0.25: the hero stands higher and gets +1.
    state = position([(14, 10), (4, 2), (6, 2)], [(46, 30), (11, 10), (42, 30)], hills=[HILL_RIGHT], lead=1)
    _, events = act(state, Charge(4, 0), 3, 3)
    assert fought(events) == Fought(4, 0, 3, 3, 4, 4, 0, 0)


def test_vh_co_08_09_minus_1_a_shock_and_minus_2_wounded() -> None:
    state = tweak(position(HERO_AT_10, WARRIOR_AT_13), 0, shock=1, wounds=1)
    # Hero face 10: +1 charging, -1 shock, -2 wounded = 8. Warrior 4: one hit.
    _, events = act(state, Charge(0, 4), 10, 4)
    assert fought(events) == Fought(0, 4, 10, 4, 8, 4, 1, 0)
    state = tweak(position(HERO_AT_10, WARRIOR_AT_13), 4, shock=2)
    _, events = act(state, Charge(0, 4), 3, 8)  # 4 against 8 - 2 = 6: one hit on the hero
    assert fought(events) == Fought(0, 4, 3, 8, 4, 6, 0, 1)


def test_vh_co_11_scores_of_zero_or_less() -> None:
    # Decided: "twice" a score of 0 or less is 0; scores are compared as they are.
    assert fight_hits(1, 0) == 2 and fight_hits(1, -5) == 2
    assert fight_hits(0, -5) == 1 and fight_hits(-1, -3) == 1  # a winner of 0 or less never hits twice
    assert fight_hits(-3, -3) == 0 and fight_hits(-4, -3) == 0
    # Through the game: an archer (d6) wounded with 2 shock, charging: +1 - 2 - 2 = -3. Face 1: -2.
    # Against a warrior's 1: 1 > 0 = twice -2 floored: two hits on the archer.
    state = position([(2, 2), (4, 2), (10, 10)], WARRIOR_AT_13)
    state = tweak(state, 2, shock=2, wounds=1)
    _, events = act(state, Charge(2, 4), 1, 1)
    assert fought(events) == Fought(2, 4, 1, 1, -2, 1, 0, 2)
    # Both desperate: the warrior wounded with 2 shock too (-4): archer face 2 = -1 beats warrior face 1 = -3,
    # one hit only.
    both = tweak(state, 4, shock=2, wounds=1)
    _, events = act(both, Charge(2, 4), 2, 1)
    assert fought(events) == Fought(2, 4, 2, 1, -1, -3, 1, 0)


# --- VH-AC-11 and VH-CO-15: continuing the fight -----------------------------------------------------------


def engaged() -> ValhallaState:
    """Seat 0's hero (12,10) in combat with seat 1's warrior (13,10), charged by it; seat 0's card is up."""
    state = position([(12, 10), (4, 2), (6, 2)], WARRIOR_AT_13)
    return replace(state, engagements=(Engagement(4, 0),))


def test_vh_ac_11_in_combat_only_fight_or_withdraw() -> None:
    state = engaged()
    assert "only continue fighting or withdraw" in refused(state, Move(0, (11, 5)))
    legal = GAME.legal_actions(state, 0)
    mine = [a for a in legal if getattr(a, "figure", None) == 0]
    assert {type(a).__name__ for a in mine} == {"Fight", "Withdraw"}
    assert Fight(0, 4) in mine


def test_vh_co_15_continuing_is_the_only_action_of_the_activation() -> None:
    state, events = act(engaged(), Fight(0, 4), 3, 3)  # hero 3 against warrior 3: nothing, and it is over
    assert fought(events) == Fought(0, 4, 3, 3, 3, 3, 0, 0)
    assert ActivationEnded(0) in events and GAME.to_move(state) == 1
    # Not after another action: a figure that came free and was charged again cannot happen in one activation,
    # so the engine's guard is tested directly: a figure with one action used may not start a fight.
    used = replace(engaged(), active=0, allowance=2, actions_used=1)
    used = tweak(used, 0, activated=True)
    assert "only action allowed" in refused(used, Fight(0, 4))


def test_vh_co_02_a_figure_touching_two_enemies_fights_the_one_its_player_chooses() -> None:
    state = position([(12, 10), (4, 2), (6, 2)], [(12, 11), (13, 10), (42, 30)])
    state = replace(state, engagements=(Engagement(4, 0), Engagement(3, 0)))
    mine = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Fight)]
    assert set(mine) == {Fight(0, 4), Fight(0, 3)}
    _, events = act(state, Fight(0, 3), 4, 4)
    assert (fought(events).attacker, fought(events).defender) == (0, 3)
    assert "not in combat with" in refused(state, Fight(0, 5))


def test_vh_ac_11_a_figure_in_combat_may_not_charge_another_or_shoot() -> None:
    state = position([(12, 10), (4, 2), (13, 12)], [(12, 12.5), (13, 10), (14, 12)])
    state = replace(state, engagements=(Engagement(4, 0), Engagement(5, 2)))
    assert "only continue fighting or withdraw" in refused(state, Charge(0, 3))
    assert "in combat and cannot shoot" in refused(state, Shoot(2, 3))


def test_vh_ac_09_a_figure_already_fighting_its_target_continues_instead() -> None:
    state = engaged()
    why = why_not_charge(state, state.figures[0], state.figures[4])
    assert why is not None and "continue fighting" in why


# --- VH-AC-10 and VH-CO-16: withdrawing -----------------------------------------------------------------


def test_vh_ac_10_withdraw_2_inches_out_of_contact_then_a_second_action() -> None:
    state, events = act(engaged(), Withdraw(0, (10, 10)))
    assert of(events, Withdrew) == [Withdrew(0, (10, 10))]
    assert state.engagements == () and state.active == 0 and state.actions_used == 1
    # VH-WL-02: the enemy gains a coin when a hero withdraws.
    assert of(events, CoinsWon) == [CoinsWon(1, 1, "Ulf hero withdrew from combat", 1)]
    # The second action: a move away (it starts 2" from the warrior; it may not get closer).
    state, _ = act(state, Move(0, (5, 10)))
    assert state.figures[0].at == (5, 10) and state.active is None


def test_vh_ac_10_a_withdrawal_covers_at_most_2_inches_and_must_leave_contact() -> None:
    state = engaged()
    assert 'at most 2"' in refused(state, Withdraw(0, (9.9, 10)))
    # (12,10.1): 1.005" from the warrior's centre, its base 0.005" away: still touching.
    assert "still touch" in refused(state, Withdraw(0, (12, 10.1)))
    # Sideways is allowed: (12,12) is 2.24" from the warrior's centre, 1.24" edge to edge.
    after, _ = act(state, Withdraw(0, (12, 12)))
    assert after.figures[0].at == (12, 12)


def test_vh_ac_10_a_figure_that_withdrew_may_not_charge_in_the_same_activation() -> None:
    state, _ = act(engaged(), Withdraw(0, (10, 10)))
    assert "withdrew this activation" in refused(state, Charge(0, 4))


def test_vh_co_16_a_warrior_withdrawing_gives_no_coin_and_it_leaves_every_combat() -> None:
    state = position([(46, 10), (12, 10), (6, 2)], [(12, 11), (13, 10), (42, 30)])
    state = replace(state, engagements=(Engagement(4, 1), Engagement(3, 1)))
    state, events = act(state, Withdraw(1, (10.5, 8.7)))
    assert of(events, CoinsWon) == [] and state.engagements == ()
    # Not in combat: nothing to withdraw from.
    assert "not in combat" in refused(position(HERO_AT_10, WARRIOR_AT_13), Withdraw(0, (9, 10)))


def test_vh_co_14_a_killed_figure_leaves_the_combat() -> None:
    # Two hits on the warrior; the first Dice of Death is a 1: it goes to Valhalla and its second save lapses.
    state, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), 7, 3, 1)
    assert of(events, SavingThrow) == [SavingThrow(4, 1, "killed")]
    assert of(events, FigureKilled) == [FigureKilled(4)]
    assert state.saves == () and state.engagements == () and not state.figures[4].alive
    assert GAME.to_move(state) == 1


def test_vh_ac_02_end_activation_while_in_combat_does_nothing_else() -> None:
    state, _ = act(engaged(), EndActivation())
    assert state.engagements == (Engagement(4, 0),) and GAME.to_move(state) == 1


@pytest.mark.parametrize(
    ("hero", "warrior", "score", "hits"), [(10, 1, (11, 1), (2, 0)), (1, 8, (2, 8), (0, 2))]
)
def test_vh_co_10_11_extremes(hero: int, warrior: int, score: tuple[int, int], hits: tuple[int, int]) -> None:
    _, events = act(position(HERO_AT_10, WARRIOR_AT_13), Charge(0, 4), hero, warrior)
    f = fought(events)
    assert (f.attacker_score, f.defender_score) == score and (f.attacker_hits, f.defender_hits) == hits


def test_vh_ac_09_the_charge_is_measured_to_the_hundredth() -> None:
    # Positions are kept to hundredths: 2.004" counts as 2.00" (a charge), 2.006" as 2.01" (none).
    ok = position([(10, 10), (4, 2), (6, 2)], [(46, 30), (13.004, 10), (42, 30)])
    assert ok.figures[4].at == (13.004, 10)
    after, _ = act(ok, Charge(0, 4))
    assert after.fight is not None
    short = position([(10, 10), (4, 2), (6, 2)], [(46, 30), (13.006, 10), (42, 30)])
    assert '2.01" away' in refused(short, Charge(0, 4))


@pytest.mark.parametrize("angle", [0, 17, 30, 45, 61, 90, 135, 200, 313])
def test_vh_ac_06_09_a_move_offered_to_the_2_inch_ring_leaves_the_charge_in_reach(angle: int) -> None:
    # The enemy 8" from the hero (centre to centre) in any direction: among the legal moves is a stop on its
    # 2" ring; from there the charge is legal (the ring is not 2.01" out of reach).
    ex = round(24 + 8 * math.cos(math.radians(angle)), 2)
    ey = round(16 + 8 * math.sin(math.radians(angle)), 2)
    state = position([(24, 16), (4, 2), (6, 2)], [(ex, ey), (44, 30), (42, 30)])
    rings = [
        a
        for a in GAME.legal_actions(state, 0)
        if isinstance(a, Move)
        and a.figure == 0
        and 2 - 1e-6 <= edge_distance(a.to, 0.5, (ex, ey), 0.5) < 2.005
    ]
    assert rings
    moved, _ = act(state, rings[0])
    assert Charge(0, 3) in GAME.legal_actions(moved, 0)
