"""Moving on the inch table (VH-AC-04..08, VH-AC-12, VH-AC-16, VH-MS-06): expectations measured by hand.

Figures 0, 1, 2 are seat 0's hero, warrior and archer (side 0); 3, 4, 5 are seat 1's (side 1). Seat 0's card
is up first in every position unless said otherwise. Distances are edge to edge on 1" bases (radius 0.5).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import MalformedAction
from iwgt.games.valhalla.actions import (
    Charge,
    Cross,
    Drop,
    EndActivation,
    Move,
    MoveBaggage,
    PickUp,
    Shoot,
    Withdraw,
)
from iwgt.games.valhalla.events import (
    ActivationEnded,
    BaggageMoved,
    FigureMoved,
    ObstacleCrossed,
    ThingDropped,
    ThingPickedUp,
)
from iwgt.games.valhalla.movement import why_not_move_baggage
from iwgt.games.valhalla.state import Engagement

from .kit import GAME, act, of, pass_to, position, refused, tweak

# Seat 1 parked far away on the right.
AWAY = [(46, 30), (44, 30), (42, 30)]


def moved_to(state, fid):  # type: ignore[no-untyped-def]
    return state.figures[fid].at


# --- VH-AC-05 and VH-AC-17: up to 6", twice --------------------------------------------------------------


def test_vh_ac_05_a_move_is_up_to_6_inches() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], AWAY)
    assert 'needs 6.1"' in refused(state, Move(0, (16.1, 10)))
    after, events = act(state, Move(0, (16, 10)))
    assert moved_to(after, 0) == (16, 10)
    assert of(events, FigureMoved)[0].cost == 6.0
    # A bent path is measured along its legs: (10,10) -> (13,14) is 5", then 1" more to (14,14) = 6".
    bent, _ = act(state, Move(0, (14, 14), via=((13, 14),)))
    assert moved_to(bent, 0) == (14, 14)
    assert 'needs 6.4"' in refused(state, Move(0, (14.4, 14), via=((13, 14),)))


def test_vh_ac_17_two_moves_make_12_inches_and_end_the_activation() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], AWAY)
    state, _ = act(state, Move(0, (16, 10)))
    assert state.active == 0 and state.actions_used == 1
    state, events = act(state, Move(0, (22, 10)))
    assert moved_to(state, 0) == (22, 10)
    assert ActivationEnded(0) in events and state.active is None
    assert GAME.to_move(state) == 1  # seat 1's Ace of diamonds is up


# --- VH-AC-06: stop 2" from the enemy --------------------------------------------------------------------


def test_vh_ac_06_a_move_stops_2_inches_from_the_enemy() -> None:
    # Enemy hero at (20,10). Ending at (17,10): centres 3" apart, edges 2" apart: allowed.
    state = position([(11.5, 10), (4, 2), (6, 2)], [(20, 10), (44, 30), (42, 30)])
    after, _ = act(state, Move(0, (17, 10)))
    assert moved_to(after, 0) == (17, 10)
    # At (17.1,10) the edges are 1.9" apart.
    assert 'within 2" of' in refused(state, Move(0, (17.1, 10)))


def test_vh_ac_06_a_move_may_not_pass_within_2_inches_either() -> None:
    # Enemy at (13,11.9). Walking (10,10) -> (16,10) passes 1.9" from its centre, 0.9" edge to edge, though
    # the end (16,10) is 2.55" clear (centres sqrt(9 + 3.61) = 3.55" apart).
    state = position([(10, 10), (4, 2), (6, 2)], [(13, 11.9), (44, 30), (42, 30)])
    assert 'within 2" of' in refused(state, Move(0, (16, 10)))
    # Walking away from it is fine.
    after, _ = act(state, Move(0, (10, 5)))
    assert moved_to(after, 0) == (10, 5)


def test_vh_ac_06_a_figure_already_within_2_inches_may_not_get_closer() -> None:
    # Enemy at (11.5,10): edges 0.5" apart (as after a withdrawal).
    state = position([(10, 10), (4, 2), (6, 2)], [(11.5, 10), (44, 30), (42, 30)])
    away, _ = act(state, Move(0, (9, 10)))  # 1.5" apart: further
    assert moved_to(away, 0) == (9, 10)
    # (10,12): centres sqrt(2.25 + 4) = 2.5" apart, edges 1.5": no closer than 0.5", allowed.
    side, _ = act(state, Move(0, (10, 12)))
    assert moved_to(side, 0) == (10, 12)
    # (11,11): centres sqrt(0.25 + 1) = 1.118", edges 0.118": closer, refused.
    assert 'within 2" of' in refused(state, Move(0, (11, 11)))


def test_vh_ac_06_friends_have_no_zone() -> None:
    state = position([(10, 10), (12, 10), (6, 2)], AWAY)
    after, _ = act(state, Move(0, (10, 11)))  # edges 0.236" from its own warrior: fine
    assert moved_to(after, 0) == (10, 11)


# --- VH-AC-07: half speed in woods, village or uphill ----------------------------------------------------

WOOD = [[(12, 0), (14, 0), (14, 20), (12, 20)]]


def test_vh_ac_07_an_inch_in_woods_costs_two() -> None:
    # Woods from x = 12 to 14. From (8,10): 4" open + 1" woods = 6" of movement: allowed.
    state = position([(8, 10), (4, 2), (6, 2)], AWAY, woods=WOOD)
    after, events = act(state, Move(0, (13, 10)))
    assert moved_to(after, 0) == (13, 10) and of(events, FigureMoved)[0].cost == 6.0
    # 4" open + 2" woods = 8": refused, though the tape says 6".
    assert 'needs 8.0" of movement' in refused(state, Move(0, (14, 10)))
    # From (10,10) a 6" walk through the 2" wood costs 8": refused; 5" (2 + 2x2 + 1 = 7") too.
    state = position([(10, 10), (4, 2), (6, 2)], AWAY, woods=WOOD)
    assert 'needs 8.0"' in refused(state, Move(0, (16, 10)))
    assert 'needs 7.0"' in refused(state, Move(0, (15, 10)))


def test_vh_ac_07_a_village_is_half_speed_too() -> None:
    state = position([(8, 10), (4, 2), (6, 2)], AWAY, villages=WOOD)
    _, events = act(state, Move(0, (13, 10)))
    assert of(events, FigureMoved)[0].cost == 6.0
    assert 'needs 8.0"' in refused(state, Move(0, (14, 10)))


def test_vh_ac_07_uphill_costs_double_downhill_does_not() -> None:
    # A hill x 12..22, y 0..20, 2" slope: the ground rises from x = 12 to the crest at x = 14.
    hill = [((12, 0), (22, 0), (22, 20), (12, 20)), 1, 2.0]
    state = position([(8, 10), (4, 2), (6, 2)], AWAY, hills=[hill])
    after, events = act(state, Move(0, (13, 10)))  # 4" open + 1" up (2") = 6"
    assert of(events, FigureMoved)[0].cost == 6.0
    assert 'needs 8.0"' in refused(state, Move(0, (14, 10)))  # 4" open + 2" up = 8"
    # Downhill from the crest: (16,10) -> (10,10) is 2" crest + 2" down + 2" open = 6": allowed.
    down = position([(16, 10), (4, 2), (6, 2)], AWAY, hills=[hill])
    after, events = act(down, Move(0, (10, 10)))
    assert moved_to(after, 0) == (10, 10) and of(events, FigureMoved)[0].cost == 6.0


def test_vh_ac_07_half_speed_does_not_apply_to_charge_withdraw_or_cross() -> None:
    # In the wood at (13,10), enemy at (16,10): 2" edge to edge, 1" of it in the wood. The charge goes.
    state = position([(13, 10), (4, 2), (6, 2)], [(16, 10), (44, 30), (42, 30)], woods=WOOD)
    after, _ = act(state, Charge(0, 3))
    assert moved_to(after, 0) == (15, 10)
    # Withdrawing 2" straight back through woods: (13.5,10) -> (11.5,10), 0.5" open + 1.5" woods.
    fight = position([(13.5, 10), (4, 2), (6, 2)], [(14.5, 10), (44, 30), (42, 30)], woods=WOOD)
    fight = replace(fight, engagements=(Engagement(3, 0),))
    back, _ = act(fight, Withdraw(0, (11.5, 10)))
    assert moved_to(back, 0) == (11.5, 10)


# --- VH-AC-08: crossing obstacles --------------------------------------------------------------------------

HEDGE = [("hedge", [(0, 12), (30, 12)])]


def test_vh_ac_08_a_plain_move_may_not_cross_an_obstacle() -> None:
    state = position([(10, 11), (4, 2), (6, 2)], AWAY, obstacles=HEDGE)
    assert "crosses an obstacle" in refused(state, Move(0, (10, 14)))
    around, _ = act(state, Move(0, (15, 11)))  # along it is fine
    assert moved_to(around, 0) == (15, 11)


def test_vh_ac_08_cross_from_within_1_inch_ends_just_beyond() -> None:
    # At (10,10.5) the base edge is at 11: 1" from the hedge at y = 12. It crosses to (10,12.55).
    state = position([(10, 10.5), (4, 2), (6, 2)], AWAY, obstacles=HEDGE)
    after, events = act(state, Cross(0, 0))
    assert moved_to(after, 0) == (10, 12.55)
    assert of(events, ObstacleCrossed) == [ObstacleCrossed(0, 0, (10, 12.55))]
    assert after.actions_used == 1  # one action; a second may follow
    # At (10,10.4) the base is 1.1" away: too far.
    far = position([(10, 10.4), (4, 2), (6, 2)], AWAY, obstacles=HEDGE)
    assert 'not within 1"' in refused(far, Cross(0, 0))
    assert "no obstacle 3" in refused(far, Cross(0, 3))


def test_vh_ac_08_a_crossing_may_end_in_the_enemy_zone_but_not_on_a_figure() -> None:
    # Enemy at (10,15): after the crossing the bases are 15 - 12.55 - 1 = 1.45" apart: allowed.
    state = position([(10, 11), (4, 2), (6, 2)], [(10, 15), (44, 30), (42, 30)], obstacles=HEDGE)
    after, _ = act(state, Cross(0, 0))
    assert moved_to(after, 0) == (10, 12.55)
    # Enemy at (10,13): the far side is taken.
    blocked = position([(10, 11), (4, 2), (6, 2)], [(10, 13), (44, 30), (42, 30)], obstacles=HEDGE)
    assert "stands on the far side" in refused(blocked, Cross(0, 0))
    # A friend there: no room either.
    friend = position([(10, 11), (10, 13.2), (6, 2)], AWAY, obstacles=HEDGE)
    assert "no room" in refused(friend, Cross(0, 0))


def test_vh_ac_08_a_charge_may_not_cross_an_obstacle() -> None:
    # Enemy across the hedge, 1.1" away edge to edge: in charge reach, but the hedge is between.
    state = position([(10, 11.2), (4, 2), (6, 2)], [(10, 13.3), (44, 30), (42, 30)], obstacles=HEDGE)
    assert "obstacle stands between" in refused(state, Charge(0, 3))


def test_vh_ac_11_a_figure_in_combat_may_not_cross() -> None:
    state = position([(10, 11), (4, 2), (6, 2)], [(11, 11), (44, 30), (42, 30)], obstacles=HEDGE)
    state = replace(state, engagements=(Engagement(3, 0),))
    assert "only continue fighting or withdraw" in refused(state, Cross(0, 0))


# --- VH-MS-06: passing figures, no overlap; the table's edge ---------------------------------------------


def test_vh_ms_06_a_figure_may_pass_friends_but_not_end_on_one() -> None:
    state = position([(10, 10), (13, 10), (6, 2)], AWAY)
    through, _ = act(state, Move(0, (16, 10)))  # straight through its own warrior
    assert moved_to(through, 0) == (16, 10)
    assert "no room" in refused(state, Move(0, (13.5, 10)))  # would stand on it
    beside, _ = act(state, Move(0, (14, 10)))  # touching it is fine
    assert moved_to(beside, 0) == (14, 10)


def test_vh_ms_06_things_never_block_baggage_does() -> None:
    extra = '[[things]]\nname = "chest"\nat = [13, 10]\n[[baggage]]\nname = "cart"\nside = 0\nat = [10, 14]\n'
    state = position([(10, 10), (4, 2), (6, 2)], AWAY, extra=extra)
    onto, _ = act(state, Move(0, (13, 10)))  # onto the chest
    assert moved_to(onto, 0) == (13, 10)
    assert "no room" in refused(state, Move(0, (10, 12.8)))  # the cart's 2" base reaches y = 13
    past, _ = act(state, Move(0, (10, 16)))  # through the cart to the far side
    assert moved_to(past, 0) == (10, 16)


def test_a_move_stays_on_the_table() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], AWAY)
    assert "off the table" in refused(state, Move(0, (10, 31.6)))
    edge, _ = act(state, Move(0, (10, 15.5)))
    assert moved_to(edge, 0) == (10, 15.5)
    assert "no move" in refused(state, Move(0, (10, 10.01)))


# --- VH-AC-12 and VH-AC-16: carrying ----------------------------------------------------------------------

CHEST = '[[things]]\nname = "chest"\nat = [12, 10]\n'


def test_vh_ac_12_pick_up_within_1_inch_and_carry_it() -> None:
    # The chest (a 0.5" marker) at (12,10). From (10.3,10): 1.7 - 0.5 - 0.25 = 0.95" from the base: in reach.
    state = position([(10.3, 10), (4, 2), (6, 2)], AWAY, extra=CHEST)
    state, events = act(state, PickUp(0, 0))
    assert of(events, ThingPickedUp) == [ThingPickedUp(0, 0)]
    assert state.figures[0].carrying == 0 and state.things[0].carrier == 0
    state, _ = act(state, Move(0, (16, 10)))
    assert state.things[0].at == (16, 10)  # it goes with its carrier
    # From (10,10): 2 - 0.75 = 1.25": out of reach.
    far = position([(10, 10), (4, 2), (6, 2)], AWAY, extra=CHEST)
    assert 'within 1"' in refused(far, PickUp(0, 0))


def test_vh_ac_12_one_thing_at_a_time_and_dropped_where_the_figure_stands() -> None:
    two = CHEST + '[[things]]\nname = "banner"\nat = [10, 11.5]\n'
    state = position([(10.3, 10), (4, 2), (6, 2)], AWAY, extra=two)
    state, _ = act(state, PickUp(0, 0))
    assert "one thing at a time" in refused(state, PickUp(0, 1))
    state, events = act(state, Drop(0))  # the second action: the activation ends
    assert of(events, ThingDropped) == [ThingDropped(0, 0, (10.3, 10))]
    assert state.things[0].at == (10.3, 10) and state.things[0].carrier is None
    assert state.figures[0].carrying is None


def test_vh_ac_12_a_carried_thing_cannot_be_taken_and_baggage_cannot_be_carried() -> None:
    extra = CHEST + '[[baggage]]\nname = "cart"\nat = [10, 12]\nside = 0\n'
    state = position([(10.3, 10), (11, 8), (6, 2)], AWAY, extra=extra)
    assert "driven, not carried" in refused(state, PickUp(0, 1))
    state, _ = act(state, PickUp(0, 0), EndActivation())
    state = pass_to(state, 0)
    assert "already carried" in refused(state, PickUp(1, 0))


def test_vh_ac_16_a_carrier_must_drop_it_to_charge_or_shoot_and_the_drop_is_an_action() -> None:
    extra = '[[things]]\nname = "chest"\nat = [20, 8]\n'
    state = position([(20, 10), (4, 2), (20, 8)], [(23, 10), (44, 30), (28, 8)], extra=extra)
    hero = tweak(state, 0, carrying=0)
    hero = hero.with_thing(replace(hero.things[0], carrier=0, at=(20, 10)))
    assert "must drop the chest before charging" in refused(hero, Charge(0, 3))
    archer = tweak(state, 2, carrying=0)
    archer = archer.with_thing(replace(archer.things[0], carrier=2))
    assert "must drop the chest to shoot" in refused(archer, Shoot(2, 5))
    dropped, _ = act(hero, Drop(0))
    assert dropped.actions_used == 1 and dropped.active == 0
    charged, _ = act(dropped, Charge(0, 3))  # the second action
    assert charged.fight is not None


# --- VH-AC-04: baggage -----------------------------------------------------------------------------------

CART = '[[baggage]]\nname = "cart"\nside = 0\nat = [10, 20]\n'


def end_of_turn(state):  # type: ignore[no-untyped-def]
    while state.phase == "activate":
        state, _ = act(state, EndActivation())
    return state


def test_vh_ac_04_baggage_moves_up_to_6_inches_at_the_end_of_the_turn() -> None:
    state = position(extra=CART)
    assert "end of the turn" in refused(state, MoveBaggage(0, (10, 22)))
    state = end_of_turn(state)
    assert state.phase == "baggage" and GAME.to_move(state) == 0  # side 0's first player drives it
    assert 'needs 6.1"' in refused(state, MoveBaggage(0, (16.1, 20)))
    after, events = act(state, MoveBaggage(0, (16, 20)))
    assert of(events, BaggageMoved) == [BaggageMoved(0, ((10, 20), (16, 20)))]
    assert after.things[0].at == (16, 20) and after.turn == 2 and after.phase == "deal"


def test_vh_ac_04_baggage_is_slowed_stopped_and_blocked_like_a_figure_and_may_stay() -> None:
    woods = [[(12, 15), (14, 15), (14, 25), (12, 25)]]
    state = end_of_turn(position(extra=CART, woods=woods))
    # Through the 2" of woods from (10,20) to (15,20): 2 open + 2 woods x 2 + 1 open = 7".
    assert 'needs 7.0"' in refused(state, MoveBaggage(0, (15, 20)))
    # An enemy hero at (19,20): the cart's 2" base stops 2" from its base, at (15.5,20) (3.5 - 1 - 0.5).
    enemy = [(19, 20), (44, 30), (42, 30)]
    state = end_of_turn(position(None, enemy, extra=CART))
    assert 'within 2" of' in refused(state, MoveBaggage(0, (15.6, 20)))
    stopped, _ = act(state, MoveBaggage(0, (15.5, 20)))
    assert stopped.things[0].at == (15.5, 20)
    # A fence across its way; a figure where it would stand.
    fence = [("fence", [(5, 23), (15, 23)])]
    state = end_of_turn(position([(2, 2), (10, 16), (6, 2)], None, extra=CART, obstacles=fence))
    assert "crosses an obstacle" in refused(state, MoveBaggage(0, (10, 25)))
    assert "no room" in refused(state, MoveBaggage(0, (10, 17)))
    stay, _ = act(state, EndActivation())  # it may stay where it is
    assert stay.things[0].at == (10, 20) and stay.turn == 2


def test_vh_ac_04_the_first_player_of_the_side_with_a_living_figure_drives() -> None:
    from .kit import make, player

    players = [
        player(0, (2, 2), (4, 2), (6, 2), name="A"),
        player(1, (46, 30), (44, 30), (42, 30), name="B"),
        player(0, (2, 6), (4, 6), (6, 6), name="C"),
        player(1, (46, 26), (44, 26), (42, 26), name="D"),
    ]
    scen = make(players=players, extra=CART)
    state = GAME.initial_state(scen)
    for fid in (0, 1, 2):
        state = tweak(state, fid, alive=False)
    from .kit import first

    state = end_of_turn(first(state, 1))
    assert state.phase == "baggage" and GAME.to_move(state) == 2


def test_vh_ac_12_a_fallen_figure_drops_what_it_carries() -> None:
    # Seat 1's warrior carries the chest at (17,10); seat 0's archer at (10,10) shoots it dead (6, then a 1).
    extra = '[[things]]\nname = "chest"\nat = [17, 10]\n'
    state = position([(2, 2), (4, 2), (10, 10)], [(46, 30), (17, 10), (42, 30)], extra=extra)
    state = tweak(state, 4, carrying=0).with_thing(replace(state.things[0], carrier=4))
    state, events = act(state, Shoot(2, 4), 6, 1)
    assert of(events, ThingDropped) == [ThingDropped(4, 0, (17, 10))]
    assert state.things[0].carrier is None and state.things[0].at == (17, 10)


# --- what apply accepts, the record replays ----------------------------------------------------------------


def test_a_point_of_three_numbers_is_malformed_not_journalled() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], AWAY)
    for bad in (
        Move(0, (12.0, 10.0, 3.0)),  # type: ignore[arg-type]
        Move(0, [12.0, 10.0]),  # type: ignore[arg-type]  # a list: the record would give a tuple back
        Move(0, (12.0, 10.0), via=((11.0, 10.0, 1.0),)),  # type: ignore[arg-type]
        Move(True, (12.0, 10.0)),
        Withdraw(0, (float("nan"), 10.0)),
        MoveBaggage(0, (12.0,)),  # type: ignore[arg-type]
    ):
        with pytest.raises(MalformedAction):
            GAME.apply(state, bad)
    for data in ([12, 10, 3.0], [12], [10**400, 10], ["12", 10], [True, 10], [12, float("inf")]):
        with pytest.raises(MalformedAction) as exc:
            GAME.action_from_json({"type": "move", "figure": 0, "to": data})
        assert "point [x, y]" in exc.value.message and len(exc.value.message) < 200
    # Whole inches are a point too, and the state holds the record's floats.
    after, _ = act(state, Move(0, (12, 10)))
    assert after.figures[0].at == (12.0, 10.0) and isinstance(after.figures[0].at[0], float)


@pytest.mark.parametrize("foreign", [None, "move", {"type": "move", "figure": 0, "to": [12, 10]}, 7])
def test_apply_refuses_what_is_not_a_valhalla_action(foreign: object) -> None:
    state = position([(10, 10), (4, 2), (6, 2)], AWAY)
    with pytest.raises(MalformedAction, match="not a Valhalla action"):
        GAME.apply(state, foreign)  # type: ignore[arg-type]


# A hedge from (20, 0) up to its end at (20, 12). Bases have radius 0.5.
HEDGE_END = [("hedge", [(20, 0), (20, 12)])]


def test_vh_ac_08_the_whole_base_passes_an_obstacle_clear() -> None:
    # From (16, 12.3) to (20, 12.3): the centre's path runs 0.3" above the hedge's end and never touches it,
    # but the base would: 0.3 < 0.5, so it would end straddling the hedge.
    state = position([(16, 12.3), (4, 2), (6, 2)], AWAY, obstacles=HEDGE_END)
    assert "base would touch the hedge" in refused(state, Move(0, (20, 12.3)))
    # Passing the end at 0.3" (to (22, 12.3)) is refused too: the base sweeps over the hedge's end.
    assert "base would touch the hedge" in refused(state, Move(0, (22, 12.3)))
    # 0.5" above the end the base just touches it, as a base may touch another: allowed.
    state = position([(16, 12.5), (4, 2), (6, 2)], AWAY, obstacles=HEDGE_END)
    after, _ = act(state, Move(0, (22, 12.5)))
    assert moved_to(after, 0) == (22, 12.5)
    # Alongside, 0.4" from the line (x = 19.6): the base overlaps it by 0.1".
    state = position([(18, 6), (4, 2), (6, 2)], AWAY, obstacles=HEDGE_END)
    assert "base would touch the hedge" in refused(state, Move(0, (19.6, 6)))
    after, _ = act(state, Move(0, (19.5, 6)))  # 0.5": touching
    assert moved_to(after, 0) == (19.5, 6)
    # The baggage too: a cart (radius 1") driven from (16, 12.8) to (21, 12.8) passes 0.8" above the end.
    cart = '[[baggage]]\nname = "cart"\nside = 0\nat = [16, 12.8]\n'
    state = position([(10, 10), (4, 2), (6, 2)], AWAY, obstacles=HEDGE_END, extra=cart)
    why = why_not_move_baggage(state, state.things[0], [(16, 12.8), (21, 12.8)])
    assert why is not None and "base would touch the hedge" in why
    assert why_not_move_baggage(state, state.things[0], [(16, 13.0), (21, 13.0)]) is None  # 1": touching
