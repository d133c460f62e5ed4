"""WarQuest decks: shuffles, draws with the public bottom piles, deals, the market, the Rule of Five
(WQ-SU-05..09, WQ-PW-04..09, WQ-QU-04..06)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.games.warquest import cards
from iwgt.games.warquest.events import PowerDiscarded
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Decks, Leader, Troop

from .cards_kit import make_state, power_id, power_ids


def test_shuffle_dice_are_secret() -> None:
    """WQ-SU-06: a shuffle's faces would reveal the order: its four dice are secret d256 (a 32-bit seed,
    setup.py); cards.py keeps no second, unused shuffle die."""
    from iwgt.games.warquest import setup

    die = setup.shuffle_dice("power")
    assert die.secret and die.sides == 256 and die.purpose == "power shuffle" and setup.SHUFFLE_DICE == 4
    assert not hasattr(cards, "shuffle_die") and not hasattr(cards, "SHUFFLE_SIDES")


def test_shuffle_follows_splitmix_fisher_yates_by_hand() -> None:
    """Face 0: SplitMix64's first outputs are 0xE220A8397B1DCDAF (mod 3 = 1) and 0x6E789E6AA1B965F4 (even).
    Fisher-Yates from the last place: i=2 swaps with 1 -> (10, 30, 20); i=1 swaps with 0 -> (30, 10, 20)."""
    assert cards.shuffle((10, 20, 30), 0) == (30, 10, 20)
    # two cards, face 0: the first output is odd, so place 1 swaps with itself
    assert cards.shuffle((10, 20), 0) == (10, 20)


def test_shuffle_is_a_permutation_and_the_same_face_gives_the_same_order() -> None:
    """WQ-SU-05..09: a shuffle keeps every card once; a recorded face replays the same order."""
    deck = tuple(range(51))
    a = cards.shuffle(deck, 123456)
    assert sorted(a) == list(deck)
    assert cards.shuffle(deck, 123456) == a
    assert cards.shuffle(deck, 123457) != a
    assert cards.shuffle((), 5) == () and cards.shuffle((7,), 5) == (7,)


def test_draw_takes_the_hidden_part_then_the_bottom_pile_in_order() -> None:
    """WQ-QU-04/WQ-QU-06: cards put under a deck are drawn after the hidden part, first under first drawn."""
    assert cards.draw((1, 2), (8, 9), 1) == ((1,), (2,), (8, 9))
    assert cards.draw((1, 2), (8, 9), 3) == ((1, 2, 8), (), (9,))
    assert cards.draw((), (8, 9), 2) == ((8, 9), (), ())
    assert cards.draw((1,), (), 3) == ((1,), (), ())


def test_quest_draw_and_put_under() -> None:
    """WQ-QU-04: a failed quest goes under the quest deck (public) and comes back after the hidden cards."""
    decks = cards.put_under(Decks(quest=(4,)), "quest", 11)
    decks = cards.put_under(decks, "quest", 12)
    assert decks.quest_bottom == (11, 12)
    drawn, decks = cards.draw_quests(decks, 2)
    assert drawn == (4, 11) and decks.quest == () and decks.quest_bottom == (12,)


def test_power_draw_reaches_the_bottom_pile_and_then_nothing() -> None:
    """WQ-QU-05 decision: "a random Power Card" is the top of the draw pile; then the public bottom pile."""
    decks = cards.put_under(Decks(power=(3,)), "power", 9)
    card, decks = cards.draw_power(decks)
    assert card == 3
    card, decks = cards.draw_power(decks)
    assert card == 9 and decks.power == () and decks.power_bottom == ()
    assert cards.draw_power(decks) == (None, decks)


def test_deal_goes_round_the_table_one_card_at_a_time() -> None:
    """WQ-SU-08/09: 2 cards each to 3 players from 10, 11, 12, 13, 14, 15, 16: seat 0 gets the 1st and 4th."""
    hands, rest = cards.deal((10, 11, 12, 13, 14, 15, 16), 3, 2)
    assert hands == ((10, 13), (11, 14), (12, 15)) and rest == (16,)
    hands, rest = cards.deal((10, 11, 12), 2, 2)
    assert hands == ((10, 12), (11,)) and rest == ()


def test_conquest_draw() -> None:
    """WQ-MS-34 designed: a scored conquest card is replaced from the deck; an empty deck gives nothing."""
    drawn, decks = cards.draw_conquests(Decks(conquest=(5, 6, 7)), 2)
    assert drawn == (5, 6) and decks.conquest == (7,)
    drawn, decks = cards.draw_conquests(decks, 2)
    assert drawn == (7,) and decks.conquest == ()


def test_market_is_dealt_five_in_order() -> None:
    """WQ-SU-05: five power cards face up, the rest the draw pile."""
    decks, turned = cards.refill_market(Decks(power=(1, 2, 3, 4, 5, 6, 7)))
    assert decks.market == (1, 2, 3, 4, 5) and turned == (1, 2, 3, 4, 5) and decks.power == (6, 7)


def test_market_refills_the_taken_place_at_once() -> None:
    """WQ-PW-04: a card taken is replaced at once from the deck, in the same place."""
    decks = Decks(power=(6, 7), market=(1, 2, 3, 4, 5))
    decks, turned = cards.take_from_market(decks, 3)
    assert decks.market == (1, 2, 6, 4, 5) and turned == (6,) and decks.power == (7,)


def test_market_refills_from_the_bottom_pile_then_leaves_a_gap() -> None:
    """WQ-PW-04 decision: the draw pile, then the public bottom pile; an empty deck leaves a gap."""
    decks = Decks(power=(), power_bottom=(9,), market=(1, 2, 3, 4, 5))
    decks, turned = cards.take_from_market(decks, 2)
    assert decks.market == (1, 9, 3, 4, 5) and turned == (9,) and decks.power_bottom == ()
    decks, turned = cards.take_from_market(decks, 4)
    assert decks.market == (1, 9, 3, None, 5) and turned == ()
    with pytest.raises(ValueError):
        cards.take_from_market(decks, 4)


def test_replace_market_puts_the_five_under_and_deals_five() -> None:
    """WQ-MS-35 `market`: the face-up cards go under the power deck (public, place order), five are dealt:
    the hidden part first (20, 21), then the bottom pile (8, then the old market 1, 2)."""
    decks = Decks(power=(20, 21), power_bottom=(8,), market=(1, 2, None, 4, 5))
    decks, dealt = cards.replace_market(decks)
    assert dealt == (20, 21, 8, 1, 2)
    assert decks.market == (20, 21, 8, 1, 2)
    assert decks.power == () and decks.power_bottom == (4, 5)


def test_rule_of_five_counts_non_event_cards_only() -> None:
    """WQ-PW-06/07/09: six non-event cards need a discard; event power cards never count."""
    plain = [c for c in sorted(rules().powers) if not cards.is_event_power(c)][:6]
    event = power_ids("gold")[0]
    assert cards.is_event_power(event)
    assert not cards.needs_discard(plain[:5])
    assert cards.needs_discard(plain[:6])
    assert not cards.needs_discard((*plain[:5], event))
    assert cards.counted_powers((*plain[:5], event)) == tuple(plain[:5])
    assert cards.discard_choices((*plain[:6], event)) == tuple(plain[:6])


def test_apply_discard_takes_the_card_out_of_play() -> None:
    """WQ-PW-07/08: the chosen card (the new one allowed) leaves play for good: in no pile."""
    a, b = power_ids("rank_dice")[:2]
    s = make_state(seat1={"powers": (a, b)}, decks=Decks(power=(40,)))
    s2, events = cards.apply_discard(s, 1, b)
    assert s2.players[1].powers == (a,)
    assert s2.decks == s.decks
    assert events == [PowerDiscarded(1, b)]
    with pytest.raises(ValueError, match="WQ-PW-07"):
        cards.apply_discard(s, 0, a)
    gold = power_ids("gold")[0]
    with pytest.raises(ValueError, match="WQ-PW-09"):
        cards.apply_discard(make_state(seat0={"powers": (gold,)}), 0, gold)


def test_discarding_the_black_crown_sends_the_wraith_king_back() -> None:
    """Spec (The Wraith King): losing "The Black Crown" to the Rule of Five removes him to the pool."""
    crown = power_id("the_black_crown")
    s = make_state(
        leaders=(Leader(1, 0, "warlord", "orc_1"),),
        troops=(Troop(2, "wraith_king", 0, "orc_1"), Troop(3, "skeleton_warrior", 0, "orc_1")),
        seat0={"powers": (crown,)},
    )
    s = replace(s, wraith_seat=0)
    s2, events = cards.apply_discard(s, 0, crown)
    assert [t.kind for t in s2.troops] == ["skeleton_warrior"]
    assert s2.wraith_seat is None and s2.players[0].powers == ()
    assert [e.kind for e in events] == ["PowerDiscarded", "WraithKingLeft"]
