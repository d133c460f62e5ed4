"""Sealed bids: the terrain bid (FA-FB-01..03) and the turn bid (FA-GT-01..05, FA-DP-03)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.anvil.engine_kit import GAME, at_bid, at_terrain_bid, play, unit_named

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.events import BidChosen, BidsRevealed, Sealed, TurnBegan
from iwgt.games.anvil.flow import BID_ROUNDS
from iwgt.games.anvil.words import Names, sentence


def test_fa_gt_01_each_seat_bids_up_to_10_and_seat_0_bids_first() -> None:
    state = at_bid()
    assert state.limits == (10, 10)
    assert GAME.to_move(state) == 0
    assert GAME.legal_actions(state, 0) == [act.Bid(n) for n in range(11)]
    state, _ = play(state, act.Bid(3))
    assert GAME.to_move(state) == 1
    assert GAME.legal_actions(state, 0) == []


def test_fa_gt_03_the_lower_bid_goes_first_with_each_bid_as_its_cp() -> None:
    state, events = play(at_bid(), act.Bid(7), act.Bid(4))
    assert state.phase == "activation"
    assert state.first == 1 and state.mover == 1
    assert state.cp == (7, 4)
    revealed = [e for e in events if isinstance(e, BidsRevealed)]
    assert revealed == [BidsRevealed(1, (7, 4), False, 1, (10, 10))]


def test_fa_gt_04_05_a_tie_bids_again_and_the_tied_cp_are_lost() -> None:
    state, events = play(at_bid(), act.Bid(4), act.Bid(4))
    assert state.phase == "bid" and state.turn == 1
    assert state.limits == (6, 6)  # 10 - 4
    assert state.bid_round == 1 and state.bids == (None, None)
    assert BidsRevealed(1, (4, 4), True, None, (6, 6)) in events
    with pytest.raises(IllegalAction, match="0 to 6"):
        GAME.apply(state, act.Bid(7))
    state, _ = play(state, act.Bid(6), act.Bid(2))
    assert state.cp == (6, 2) and state.first == 1


def test_fa_gt_04_05_a_second_tie_stands_in_turn_1_the_seat_that_placed_second_goes_first() -> None:
    """Decided: the re-bid is the last round; its tie stands. Terrain bids 0 and 0: seat 0 placed first
    (FA-FB-03), so seat 1 goes first, each with the tied 3 CP."""
    assert BID_ROUNDS == 2
    state, events = play(at_bid(), act.Bid(4), act.Bid(4), act.Bid(3), act.Bid(3))
    assert state.first_placer == 0
    assert state.phase == "activation" and state.turn == 1
    assert state.first == 1 and state.mover == 1 and state.cp == (3, 3)
    assert BidsRevealed(1, (3, 3), True, 1, (6, 6)) in events  # the limits after the first tie: 10 - 4


def test_fa_gt_04_05_later_a_second_tie_puts_first_the_seat_that_went_second_last_turn() -> None:
    state, _ = play(at_bid(), act.Bid(7), act.Bid(4))  # turn 1: seat 1 bid lower, goes first
    assert state.first == 1
    state, _ = play(state, act.Pass(), act.Pass())  # seat 1 then seat 0 give up their CP: turn 2
    assert state.turn == 2 and state.phase == "bid"
    state, events = play(state, act.Bid(5), act.Bid(5), act.Bid(2), act.Bid(2))
    assert BidsRevealed(2, (5, 5), True, None, (5, 5)) in events
    assert state.first == 0 and state.mover == 0 and state.cp == (2, 2)  # seat 0 went second in turn 1
    state, _ = play(state, act.Pass(), act.Pass())
    # Turn 3: no General deployed, limits 1 (FA-DP-03). A tie at 0 loses nothing and bids again from 1 and 1;
    # the re-bid ties at 1 and stands: seat 1 went second in turn 2, so it goes first, each with 1 CP.
    assert state.turn == 3 and state.limits == (1, 1)
    state, events = play(state, act.Bid(0), act.Bid(0))
    assert state.phase == "bid" and state.limits == (1, 1) and state.bid_round == 1
    state, events = play(state, act.Bid(1), act.Bid(1))
    assert BidsRevealed(3, (1, 1), True, 1, (1, 1)) in events
    assert state.first == 1 and state.mover == 1 and state.cp == (1, 1)


def test_fa_gt_04_05_a_second_tie_at_0_is_a_turn_where_nobody_has_cp() -> None:
    state, events = play(at_bid(), act.Bid(0), act.Bid(0))
    assert state.phase == "bid" and state.turn == 1 and state.limits == (10, 10)  # nothing lost: bid again
    assert BidsRevealed(1, (0, 0), True, None, (10, 10)) in events
    state, events = play(state, act.Bid(0), act.Bid(0))
    assert BidsRevealed(1, (0, 0), True, 1, (10, 10)) in events
    assert state.phase == "bid" and state.turn == 2 and TurnBegan(2, (10, 10)) in events
    assert state.last_first == 1  # the standing tie named a first player, for turn 2's own tie


def test_fa_gt_04_05_a_tie_that_leaves_no_cp_to_either_stands_at_once_at_0() -> None:
    """Limits 10 and 10, both bid 10: the re-bid could only be 0 and 0; it is made for them and stands."""
    state, events = play(at_bid(), act.Bid(10), act.Bid(10))
    revealed = [e for e in events if isinstance(e, BidsRevealed)]
    assert revealed == [
        BidsRevealed(1, (10, 10), True, None, (0, 0)),
        BidsRevealed(1, (0, 0), True, 1, (0, 0)),
    ]
    assert state.turn == 2 and state.phase == "bid" and state.limits == (10, 10)


def test_fa_gt_04_05_the_second_tie_is_said_with_its_reason() -> None:
    state, events = play(at_bid(), act.Bid(4), act.Bid(4), act.Bid(3), act.Bid(3))
    names = Names(GAME.observe(state, None))
    said = [sentence(e, names) for e in events if isinstance(e, BidsRevealed)]
    assert said[0] is not None and "bid again (up to 6 and 6 CP)" in said[0]
    assert said[1] is not None and "a tie that stands" in said[1]
    assert "it placed second on the field of battle" in said[1] and "each has 3 CP" in said[1]


def test_fa_dp_03_from_turn_3_a_seat_whose_general_has_not_deployed_bids_at_most_1() -> None:
    state, _ = play(at_bid(), *[act.Bid(0)] * 8)  # turns 1 and 2: ties at 0 that stand, nobody has CP
    assert state.turn == 3 and state.limits == (1, 1)
    assert GAME.legal_actions(state, 0) == [act.Bid(0), act.Bid(1)]


def test_fa_dp_03_two_late_seats_tying_at_1_keep_their_1_cp_and_the_tie_stands() -> None:
    """Both Generals undeployed in turn 3: limits 1 and 1. Both bid 1, a tie: the deadline's 1 CP is not lost
    (decided), so both re-bid up to 1; both bid 1 again and the tie stands: each has 1 CP, and the seat that
    went second last turn goes first."""
    state, _ = play(at_bid(), *[act.Bid(0)] * 8)
    assert state.turn == 3 and state.limits == (1, 1)
    state, _ = play(state, act.Bid(1), act.Bid(1))
    assert state.phase == "bid" and state.limits == (1, 1)
    state, _ = play(state, act.Bid(1), act.Bid(1))
    assert state.phase == "activation" and state.cp == (1, 1)
    assert state.last_first is not None and state.first == state.mover == 1 - state.last_first
    general = state.general(state.mover)
    assert general is not None
    state, _ = play(state, act.Deploy(general.id, "own", 10.0))  # its General comes on for that 1 CP
    assert not state.unit(general.id).waiting


def test_fa_dp_03_a_deployed_general_lifts_the_limit() -> None:
    state, _ = play(at_bid(), *[act.Bid(0)] * 4, act.Bid(1), act.Bid(2))  # turn 2: seat 0 first
    general = unit_named(state, "Lord Aldric")
    assert general.general
    state, _ = play(state, act.Deploy(general.id, "own", 10.0))  # the General's unit: 1 CP (FA-DP-04)
    assert state.cp[0] == 0 and state.activation is not None  # it may still move its full Move
    state, _ = play(state, act.Pass())  # seat 0 ends the activation; seat 1 has 2 CP
    assert state.mover == 1
    state, _ = play(state, act.Pass())  # seat 1 gives up its 2 CP; the turn ends
    assert state.turn == 3 and state.limits == (10, 1)


def test_fa_gt_02_turn_1_limit_adds_the_extra_cp_for_4_or_5_features() -> None:
    state = at_terrain_bid("great_battle")
    state, _ = play(state, act.TerrainBid(4), act.TerrainBid(5))
    assert state.first_placer == 1  # the higher bid places first (FA-FB-03)
    while state.phase == "terrain":
        seat = GAME.to_move(state)
        assert seat is not None
        state, _ = play(state, GAME.legal_actions(state, seat)[0])
    assert state.placed == (4, 5)
    assert state.extra_cp == (1, 2)  # FA-FB-05
    while state.phase == "seats":
        seat = GAME.to_move(state)
        assert seat is not None
        state, _ = play(state, GAME.legal_actions(state, seat)[0])
    assert state.turn == 1 and state.limits == (11, 12)
    later, _ = play(state, *[act.Bid(0)] * 4)
    assert later.turn == 2 and later.limits == (10, 10)  # the extra CP are for the first turn only


def test_a_bid_above_the_limit_or_below_0_is_refused_and_changes_nothing() -> None:
    state = at_bid()
    for bad in (11, -1):
        with pytest.raises(IllegalAction):
            GAME.apply(state, act.Bid(bad))
    assert state.bids == (None, None)


def test_the_bid_events_are_private_until_the_reveal() -> None:
    state = at_bid()
    state, events = play(state, act.Bid(3))
    assert Sealed(0, "bid") in events
    chosen = next(e for e in events if isinstance(e, BidChosen))
    assert chosen.visible_to(0) and not chosen.visible_to(1) and not chosen.visible_to(None)
    assert all(e.visible_to(1) for e in events if not isinstance(e, BidChosen))


def test_fa_fb_01_the_terrain_bid_is_0_to_5() -> None:
    state = at_terrain_bid()
    assert GAME.legal_actions(state, 0) == [act.TerrainBid(n) for n in range(6)]
    with pytest.raises(IllegalAction, match="0 to 5"):
        GAME.apply(state, act.TerrainBid(6))


def test_fa_fb_03_equal_terrain_bids_seat_0_places_first() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(2), act.TerrainBid(2))
    assert state.phase == "terrain" and state.placer == 0 and state.to_place == (2, 2)


def test_bids_are_the_only_thing_a_bid_changes() -> None:
    state = at_bid()
    after, _ = GAME.apply(state, act.Bid(2))
    assert replace(after, bids=(None, None)) == state
