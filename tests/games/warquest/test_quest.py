"""The Quest action on the test grid (WQ-QU-01..06): tower_of_winds is in r01; quest card 0 (sacred, 8 VP)
and card 1 (lesser, 4 VP) are both there. Two chance dice against the card's VP; doubles draw a power."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

from .corekit import board, dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def _questing(hand: tuple[int, ...] = (0, 1), powers: tuple[int, ...] = ()) -> WqState:
    """Seat 0's turn with its Warlord at r01 (tower_of_winds), holding ``hand``; the power deck's top is a
    known non-event card."""
    s = board(dealt(GAME, scenario(3), first=1), [(0, "warlord", "r01")])
    r = rules()
    assert r.quests[0].location == r.quests[1].location == "tower_of_winds"
    assert (r.quests[0].vp, r.quests[0].sacred, r.quests[1].vp) == (8, True, 4)
    quest_deck = tuple(c for c in s.decks.quest if c not in hand)
    others = tuple(tuple(c for c in p.quests if c not in hand) for p in s.players)
    top = next(c for c in s.decks.power if not r.powers[c].event and c not in powers)
    power_deck = (top, *(c for c in s.decks.power if c != top))
    players = tuple(
        replace(p, quests=hand if p.seat == 0 else others[p.seat], powers=powers if p.seat == 0 else p.powers)
        for p in s.players
    )
    return replace(s, players=players, decks=replace(s.decks, quest=quest_deck, power=power_deck))


def _roll(state: WqState, *faces: int) -> tuple[WqState, list[str]]:
    kinds: list[str] = []
    for f in faces:
        die = GAME.chance_outcomes(state)
        assert GAME.to_move(state) == CHANCE and die is not None and die.sides == 6
        state, events = GAME.apply(state, ChanceOutcome(f))
        kinds += [e.kind for e in events]
    return state, kinds


def test_success_scores_the_card_and_draws_a_new_one() -> None:
    """WQ-QU-03: 2 + 3 = 5 >= 4: the 4 VP are gained; WQ-MS-37 designed: the card is kept as done and the
    hand is refilled to two."""
    s = _questing()
    top_quest = s.decks.quest[0]
    s, events = GAME.apply(s, act.Quest(1))
    assert "QuestDeclared" in {e.kind for e in events}
    s, kinds = _roll(s, 2, 3)
    p = s.players[0]
    assert (p.vp, p.done_quests, p.quests) == (4, (1,), (0, top_quest))
    assert "QuestRolled" in kinds and "TreasureDrawn" not in kinds
    assert s.marks.actions_left == 2


def test_failure_puts_the_card_under_the_deck() -> None:
    """WQ-QU-04: 1 + 2 = 3 < 8: the card goes under the quest deck (in view) and a new one is drawn."""
    s = _questing()
    top_quest = s.decks.quest[0]
    s, _ = GAME.apply(s, act.Quest(0))
    s, _ = _roll(s, 1, 2)
    p = s.players[0]
    assert (p.vp, p.done_quests, p.quests) == (0, (), (1, top_quest))
    assert s.decks.quest_bottom == (0,)


def test_doubles_on_success_keep_treasure() -> None:
    """WQ-QU-05/06: 3 + 3 succeeds with doubles: the top power card is drawn and kept as Treasure (no
    purchase: WQ-PW-05 is untouched)."""
    s = _questing()
    treasure = s.decks.power[0]
    s, _ = GAME.apply(s, act.Quest(1))
    s, kinds = _roll(s, 3, 3)
    assert treasure in s.players[0].powers and "TreasureDrawn" in kinds
    assert not s.marks.bought_power


def test_doubles_on_failure_put_the_power_card_under() -> None:
    """WQ-QU-06: 1 + 1 fails with doubles: the drawn power card goes under the power deck (in view)."""
    s = _questing()
    treasure = s.decks.power[0]
    s, _ = GAME.apply(s, act.Quest(0))
    s, _ = _roll(s, 1, 1)
    assert treasure not in s.players[0].powers
    assert s.decks.power_bottom == (treasure,)


def test_treasure_beyond_five_asks_a_discard() -> None:
    """WQ-PW-07 with WQ-QU-06: a sixth card as Treasure: the holder discards one of the six."""
    held = tuple(i for i, p in rules().powers.items() if p.effect == "unlock")[:5]
    s = _questing(powers=held)
    treasure = s.decks.power[0]
    s, _ = GAME.apply(s, act.Quest(1))
    s, _ = _roll(s, 2, 2)
    assert GAME.to_move(s) == 0
    offered = GAME.legal_actions(s, 0)
    assert sorted(a.card for a in offered if isinstance(a, act.Discard)) == sorted((*held, treasure))
    with pytest.raises(IllegalAction, match=r"^WQ-PW-07: "):
        GAME.apply(s, act.Tax("r00"))
    s, _ = GAME.apply(s, act.Discard(held[0]))
    assert sorted(s.players[0].powers) == sorted((*held[1:], treasure))
    assert GAME.to_move(s) == 0 and s.marks.actions_left == 2


def test_a_leader_must_stand_at_the_location() -> None:
    """WQ-QU-01: the quest's location must hold one of the warlord's leaders; the card must be held."""
    s = _questing()
    away = replace(s, leaders=(replace(s.leaders[0], region="r02"),))
    with pytest.raises(IllegalAction, match=r"^WQ-QU-01: no leader .* the quest's location"):
        GAME.apply(away, act.Quest(1))
    with pytest.raises(IllegalAction, match=r"^WQ-QU-01: quest card 5 is not in this warlord's hand"):
        GAME.apply(s, act.Quest(5))
    assert {a.card for a in GAME.legal_actions(s, 0) if isinstance(a, act.Quest)} == {0, 1}


def test_one_quest_a_turn_the_second_is_refused_and_not_offered() -> None:
    """WQ-QU-01 designed (``QUESTS_PER_TURN = 1``): after card 1 is attempted (2 + 3 = 5 >= 4, won), card 0
    is still held and its location still holds the Warlord, with 2 actions left; yet no quest is offered and
    ``Quest(0)`` is refused, the clause first, with the state untouched."""
    assert rules().constants.QUESTS_PER_TURN == 1
    s = _questing()
    assert GAME.observe(s, 0)["marks"]["quests"] == 0
    s, _ = GAME.apply(s, act.Quest(1))
    assert s.marks.quests == 1
    s, _ = _roll(s, 2, 3)
    assert 0 in s.players[0].quests and s.marks.actions_left == 2 and GAME.to_move(s) == 0
    assert GAME.observe(s, 0)["marks"]["quests"] == 1
    offered = GAME.legal_actions(s, 0)
    assert not [a for a in offered if isinstance(a, act.Quest)]
    assert act.EndTurn() in offered
    with pytest.raises(IllegalAction, match=r"^WQ-QU-01 \(designed\): one quest a turn"):
        GAME.apply(s, act.Quest(0))
    assert s.marks.actions_left == 2 and 0 in s.players[0].quests


def test_the_next_turn_allows_a_quest_again() -> None:
    """WQ-QU-01 designed: the count is the turn's: after seat 0's quest and every other warlord's turn (and
    the round's event), seat 0's next turn offers card 0 at the tower again, and the quest is accepted."""
    s = _questing()
    s, _ = GAME.apply(s, act.Quest(1))
    s, _ = _roll(s, 2, 3)
    s, _ = GAME.apply(s, act.EndTurn())
    assert s.marks.quests == 0
    for _ in range(500):  # the others end their turns at once; any die rolls 1, any question its first answer
        if s.phase == "turn" and s.seat == 0:
            break
        who = GAME.to_move(s)
        if who == CHANCE:
            s, _ = GAME.apply(s, ChanceOutcome(1))
            continue
        assert isinstance(who, int)
        offered = GAME.legal_actions(s, who)
        s, _ = GAME.apply(s, act.EndTurn() if act.EndTurn() in offered else offered[0])
    assert s.phase == "turn" and s.seat == 0 and s.marks.quests == 0
    assert s.leaders_in("r01", 0) and 0 in s.players[0].quests
    assert act.Quest(0) in GAME.legal_actions(s, 0)
    s, _ = GAME.apply(s, act.Quest(0))
    assert s.marks.quests == 1
