"""The cards and the activation (VH-TS-01..06, VH-AC-01..03, VH-MS-05, VH-CB-01..04).

Cards are numbered ``(rank - 1) * 4 + suit`` (clubs, diamonds, hearts, spades); ``card(rank, suit)`` builds
them. The deal is one chance step per card: ``ChanceOutcome(k)`` takes the k-th card left.
"""

from __future__ import annotations

from iwgt.core.protocol import CHANCE
from iwgt.games.valhalla.actions import EndActivation, Move
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.events import (
    ActivationEnded,
    CardDealt,
    CardPassed,
    CardUp,
    FigureActivated,
    TurnBegan,
    TurnEnded,
)
from iwgt.games.valhalla.flow import start_turn
from iwgt.games.valhalla.observe import observe
from iwgt.games.valhalla.state import card_label, card_rank, card_suit

from .kit import GAME, act, card, deal, kinds, make, of, player, position, refused, tweak


def test_card_numbers_ranks_suits_and_labels() -> None:
    assert card(1, "clubs") == 0 and card(13, "spades") == 51 and card(10, "hearts") == 38
    assert (card_rank(38), card_suit(38), card_label(38)) == (10, "hearts", "10♥")
    assert card_label(0) == "A♣" and card_label(51) == "K♠" and card_label(card(12, "diamonds")) == "Q♦"


def test_vh_ts_01_a_52_card_deck_dealt_one_chance_step_a_card_by_the_table() -> None:
    state = GAME.initial_state(make())
    assert state.phase == "deal" and len(state.deck) == 52 and state.to_deal == (0, 1, 0, 1, 0, 1)
    assert GAME.to_move(state) == CHANCE
    die = GAME.chance_outcomes(state)
    assert die is not None and die.sides == 52 and die.secret  # the table shuffles, even with real dice
    state, events = act(state, 52)  # the 52nd card left: the King of spades
    assert of(events, CardDealt) == [CardDealt(0, 51, "K♠")]
    assert events[0] == TurnBegan(1)  # the first card dealt announces the turn, the first turn too
    die = GAME.chance_outcomes(state)
    assert die is not None and die.sides == 51 and "seat 1" in die.purpose
    state, events = act(state, 1)
    assert of(events, TurnBegan) == []  # once a turn


def test_vh_ts_01_every_card_is_gathered_and_reshuffled_each_turn() -> None:
    state = position()
    assert len(state.deck) == 46
    events: list = []  # type: ignore[type-arg]
    while state.phase == "activate":
        state, more = act(state, EndActivation())
        events += more
    assert TurnEnded(1) in events and TurnBegan(2) not in events  # said by the next turn's first card
    assert state.turn == 2 and state.phase == "deal" and len(state.deck) == 52
    assert state.hands == ((), ())
    state, events = act(state, 1)
    assert events[0] == TurnBegan(2)


def test_vh_ts_02_one_card_per_living_figure_dealt_round_the_table() -> None:
    state = tweak(position(), 4, alive=False)
    while state.phase == "activate":
        state, _ = act(state, EndActivation())
    assert state.to_deal == (0, 1, 0, 1, 0)  # seat 1 has two figures left
    state = tweak(state, 5, alive=False)
    state = tweak(state, 3, shock=2, wounds=1)  # hurt figures are alive and get their card
    state, _ = start_turn(state, [])
    assert state.to_deal == (0, 1, 0, 0)


def test_vh_ts_04_cards_come_up_ace_first_to_king() -> None:
    # Dealt in turn: seat 0 K♣, seat 1 A♠, seat 0 Q♣, seat 1 3♦, seat 0 2♣, seat 1 J♥.
    state = GAME.initial_state(make())
    cards = [card(13, "clubs"), card(1, "spades"), card(12, "clubs"), card(3, "diamonds")]
    cards += [card(2, "clubs"), card(11, "hearts")]
    state, events = deal(state, cards)
    assert state.hands == (
        (card(2, "clubs"), card(12, "clubs"), card(13, "clubs")),
        (card(1, "spades"), card(3, "diamonds"), card(11, "hearts")),
    )
    assert [s for _, s in state.order] == [1, 0, 1, 1, 0, 0]
    assert [card_label(c) for c, _ in state.order] == ["A♠", "2♣", "3♦", "J♥", "Q♣", "K♣"]
    assert of(events, CardUp) == [CardUp(1, card(1, "spades"), "A♠")] and GAME.to_move(state) == 1
    ups = []
    while state.phase == "activate":
        state, more = act(state, EndActivation())
        ups += [e.seat for e in of(more, CardUp)]
    assert ups == [0, 1, 1, 0, 0]


def test_vh_ts_05_equal_ranks_in_suit_order_clubs_diamonds_hearts_spades_for_any_number_of_players() -> None:
    players = [player(i % 2, (2 + 8 * i, 2), (4 + 8 * i, 2), (6 + 8 * i, 2), name=f"P{i}") for i in range(4)]
    state = GAME.initial_state(make(players=players))
    assert state.to_deal == (0, 1, 2, 3) * 3
    aces = [card(1, "spades"), card(1, "clubs"), card(1, "hearts"), card(1, "diamonds")]
    rest = [card(r, s) for r in (2, 3) for s in ("clubs", "diamonds", "hearts", "spades")]
    state, _ = deal(state, aces + rest)
    assert [s for _, s in state.order[:4]] == [1, 3, 2, 0]
    assert rules().table.suits == ("clubs", "diamonds", "hearts", "spades")


def test_vh_ts_03_vh_ac_01_the_card_activates_one_figure_of_its_holder() -> None:
    state = position()  # seat 0's A♣ is up
    assert "not the figure of the player whose card is up" in refused(state, Move(3, (46, 25)))
    state, events = act(state, Move(0, (2, 6)))
    assert of(events, FigureActivated) == [FigureActivated(0, 2)] and state.active == 0
    assert "this card activated" in refused(state, Move(1, (4, 6)))
    state, events = act(state, EndActivation())  # VH-AC-02: one action of two is allowed
    assert of(events, ActivationEnded) == [ActivationEnded(0)] and GAME.to_move(state) == 1
    state, _ = act(state, EndActivation())  # seat 1 passes; seat 0's 2♣ is up
    assert "already been activated" in refused(state, Move(0, (2, 8)))
    state, _ = act(state, Move(1, (4, 6)))
    assert state.active == 1


def test_vh_ac_01_a_player_may_decline_and_a_card_with_nothing_to_activate_passes_itself() -> None:
    state = tweak(tweak(position(), 4, alive=False), 5, alive=False)  # seat 1 holds 3 cards, 1 figure
    state, events = act(state, EndActivation())  # seat 0 declines its A♣
    assert of(events, CardPassed) == [CardPassed(0, 0, "A♣", "the player chose not to activate a figure")]
    state, _ = act(state, Move(3, (46, 25)), EndActivation())  # seat 1's hero: its A♦
    state, events = act(state, EndActivation())  # seat 0 declines its 2♣; seat 1's 2♦ has no one left
    assert CardPassed(1, card(2, "diamonds"), "2♦", "no figure of this player is left to activate") in events
    assert GAME.to_move(state) == 0 and state.current == (card(3, "clubs"), 0)


def test_vh_ts_06_when_all_cards_are_played_the_turn_is_over() -> None:
    state = position()
    state, events = act(state, *[EndActivation()] * 6)
    assert kinds(events).count("CardUp") == 6 - 1  # the first was up already
    assert kinds(events)[-1] == "TurnEnded" and state.turn == 2 and state.phase == "deal"


def test_vh_ms_05_every_hand_is_seen_by_everyone() -> None:
    state = position()
    for seat in (0, 1, None):
        view = observe(state, seat)
        assert [c["label"] for c in view["players"][0]["cards"]] == ["A♣", "2♣", "3♣"]
        assert [c["label"] for c in view["players"][1]["cards"]] == ["A♦", "2♦", "3♦"]
    assert GAME.observe(state, 1) == GAME.observe(state, 0) | {"seat": 1}
    _, events = act(GAME.initial_state(make()), 1)
    assert all(e.visible_to(s) for e in events for s in (0, 1, None))


# --- the combatants ---------------------------------------------------------------------------------------


def test_vh_cb_01_03_each_player_has_a_hero_a_warrior_and_an_archer_or_slinger() -> None:
    state = position()
    assert [(f.seat, f.side, f.kind) for f in state.figures] == [
        (0, 0, "hero"),
        (0, 0, "warrior"),
        (0, 0, "archer"),
        (1, 1, "hero"),
        (1, 1, "warrior"),
        (1, 1, "archer"),
    ]
    slinger = GAME.initial_state(
        make(players=[player(0, (2, 2), (4, 2), (6, 2), slinger=True), player(1, (9, 9), (11, 9), (13, 9))])
    )
    assert slinger.figures[2].kind == "slinger"
    r = rules().figures
    assert r["hero"].die == 10 and r["hero"].save_bonus == 1  # VH-CB-01: armoured
    assert r["warrior"].die == 8 and r["warrior"].save_bonus == 0  # VH-CB-02: unarmoured
    # VH-CB-03 decided: a slinger is an archer in every number.
    assert r["slinger"].model_dump(exclude={"name"}) == r["archer"].model_dump(exclude={"name"})


def test_vh_cb_04_several_players_a_side_one_seat_each() -> None:
    players = [player(i % 2, (2 + 8 * i, 2), (4 + 8 * i, 2), (6 + 8 * i, 2), name=f"P{i}") for i in range(4)]
    scen = make(players=players)
    assert GAME.seats(scen) == ("P0 (Raiders)", "P1 (Farmers)", "P2 (Raiders)", "P3 (Farmers)")
    assert scen.side_seats(0) == (0, 2) and scen.side_seats(1) == (1, 3)
