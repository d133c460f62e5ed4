"""The Quest action (WQ-QU-01..06): a leader at the card's location, two dice against the card's VP.

The card is shown (and leaves the hand) when the quest is declared; two chance nodes roll the dice. Success:
the VP, the card to the completed quests, a new card drawn (WQ-MS-37 designed). Failure: the card under the
quest deck (in view), a new card drawn (WQ-QU-04). Doubles: the top power card is drawn and shown: kept as
Treasure on success (the Rule of Five may ask a discard), else put under the power deck (WQ-QU-05/06).
A warlord attempts at most one quest a turn (WQ-QU-01 designed, ``QUESTS_PER_TURN``, in ``TurnMarks.quests``).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.warquest import cards
from iwgt.games.warquest.actions import Quest
from iwgt.games.warquest.events import QuestCardDrawn, QuestDeclared, QuestRolled, TreasureDrawn
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import LastRoll, Pending, WqState, with_player

QUEST_DIE = Die(6, "quest die")
"""One of the two regular six-sided dice of a quest (WQ-QU-03, WQ-CM-15)."""


def quest_region(state: WqState, card: int) -> str:
    """The region of a quest card's location on this map."""
    return load_map(state.scenario.map).location_region[rules().quests[card].location]


def check_quest(state: WqState, seat: int, action: Quest) -> str:
    """The quest's region, or IllegalAction naming the rule broken."""
    per_turn = rules().constants.QUESTS_PER_TURN
    if state.marks.quests >= per_turn:
        raise IllegalAction(
            f"WQ-QU-01 (designed): one quest a turn (QUESTS_PER_TURN = {per_turn}): "
            "this warlord has attempted a quest this turn"
        )
    if action.card not in state.players[seat].quests:
        raise IllegalAction(f"WQ-QU-01: quest card {action.card} is not in this warlord's hand")
    region = quest_region(state, action.card)
    if not state.leaders_in(region, seat):
        name = load_map(state.scenario.map).regions[region].name
        raise IllegalAction(f"WQ-QU-01: no leader of this warlord stands in {name}, the quest's location")
    return region


def legal_quests(state: WqState, seat: int) -> list[Quest]:
    """Every held quest whose location holds one of the warlord's leaders, while the turn allows a quest."""
    if state.marks.quests >= rules().constants.QUESTS_PER_TURN:  # WQ-QU-01 designed: one quest a turn
        return []
    here = {ld.region for ld in state.leaders if ld.seat == seat}
    return [Quest(c) for c in state.players[seat].quests if quest_region(state, c) in here]


def apply_quest(state: WqState, seat: int, action: Quest) -> tuple[WqState, list[Event]]:
    """Declare the quest: the card is shown and set aside; the two dice are chance nodes."""
    region = check_quest(state, seat, action)
    p = state.players[seat]
    state = with_player(state, replace(p, quests=tuple(c for c in p.quests if c != action.card)))
    state = replace(state, marks=replace(state.marks, quests=state.marks.quests + 1))
    roll = Pending("quest", seat=seat, die=QUEST_DIE, count=rules().constants.QUEST_DICE, card=action.card)
    state = replace(state, pending=(*state.pending, roll))
    return state, [QuestDeclared(seat, action.card, region)]


def resolve_quest_die(state: WqState, face: int) -> tuple[WqState, list[Event]]:
    """One quest die is rolled; after the last, the quest succeeds or fails (WQ-QU-03..06)."""
    from iwgt.games.warquest import powers

    top = state.pending[-1]
    faces = (*top.faces, face)
    if len(faces) < top.count:
        return replace(state, pending=(*state.pending[:-1], replace(top, faces=faces))), []
    purpose = top.die.purpose if top.die is not None else "quest"
    state = replace(state, pending=state.pending[:-1], last_roll=LastRoll(purpose, faces, seat=top.seat))
    seat = top.seat
    card = top.card
    assert seat is not None and card is not None  # a quest entry always names both
    q = rules().quests[card]
    bonus = powers.quest_bonus(state, seat)
    success = sum(faces) + bonus >= q.vp
    events: list[Event] = [QuestRolled(seat, card, faces, bonus, q.vp, success)]
    p = state.players[seat]
    decks = state.decks
    if success:
        p = replace(p, vp=p.vp + q.vp, done_quests=(*p.done_quests, card))
    else:
        decks = cards.put_under(decks, "quest", card)
    drawn, decks = cards.draw_quests(decks, 1)
    p = replace(p, quests=p.quests + drawn)
    state = replace(with_player(state, p), decks=decks)
    events += [QuestCardDrawn(seat, c) for c in drawn]
    if len(set(faces)) == 1:  # doubles (WQ-QU-05)
        treasure, decks = cards.draw_power(state.decks)
        state = replace(state, decks=decks)
        if treasure is not None:
            events.append(TreasureDrawn(seat, treasure, success))
            if success:
                state, more, over = powers.gain_power(state, seat, treasure, quest_region(state, card))
                events += more
                if over:
                    state = replace(state, pending=(*state.pending, Pending("discard", seat=seat)))
            else:
                state = replace(state, decks=cards.put_under(state.decks, "power", treasure))
    return state, events
