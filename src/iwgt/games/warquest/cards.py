"""WarQuest's decks: shuffling from a secret chance face, drawing (the hidden part, then the public bottom
pile), dealing hands, the power market, and the Rule of Five (WQ-SU-05..09, WQ-PW-04..09, WQ-QU-04..06).

A deck is a tuple of card ids, index 0 the top. The cards seen going under a deck (a failed quest's card, a
treasure not kept, a replaced market) form its public bottom pile (``Decks.quest_bottom``,
``Decks.power_bottom``): they are drawn, in order, once the hidden part is spent. Shuffles never draw random
numbers here: a shuffle's seed comes from secret chance dice (``setup.shuffle_dice``: four d256, one 32-bit
seed) and drives a SplitMix64 Fisher-Yates, so recorded faces replay the same order everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from iwgt.core.chance import SplitMix64
from iwgt.core.protocol import Event, Seat
from iwgt.games.warquest.events import PowerDiscarded
from iwgt.games.warquest.rules import rules

if TYPE_CHECKING:
    from iwgt.games.warquest.state import Decks, WqState

DeckName = Literal["power", "quest", "conquest", "event"]
BottomPile = Literal["power", "quest"]


def shuffle(cards: Sequence[int], face: int) -> tuple[int, ...]:
    """The deck ``cards`` shuffled by the seed of its shuffle dice: a Fisher-Yates (from the last place down,
    each place swapped with a place ``below(i + 1)``) over a SplitMix64 seeded with the face."""
    rng = SplitMix64(face)
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def draw(
    top: tuple[int, ...], bottom: tuple[int, ...], n: int = 1
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Draw up to ``n`` cards: the hidden part first, then the public bottom pile in the order the cards went
    under. Returns (drawn, hidden part left, bottom pile left); fewer than ``n`` when both are spent."""
    whole = top + bottom
    drawn = whole[:n]
    taken_top = min(n, len(top))
    taken_bottom = len(drawn) - taken_top
    return drawn, top[taken_top:], bottom[taken_bottom:]


def deal(deck: tuple[int, ...], hands: int, n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Deal ``n`` cards to each of ``hands`` players, one at a time round the table from seat 0 (WQ-SU-08/09).
    Returns the hands in seat order and the deck left. A deck too short leaves the later hands short."""
    dealt: list[list[int]] = [[] for _ in range(hands)]
    k = 0
    for _ in range(n):
        for seat in range(hands):
            if k < len(deck):
                dealt[seat].append(deck[k])
                k += 1
    return tuple(tuple(h) for h in dealt), deck[k:]


def draw_quests(decks: Decks, n: int = 1) -> tuple[tuple[int, ...], Decks]:
    """Draw quest cards (hidden part, then the failed quests under the deck, WQ-QU-04)."""
    drawn, top, bottom = draw(decks.quest, decks.quest_bottom, n)
    return drawn, replace(decks, quest=top, quest_bottom=bottom)


def draw_conquests(decks: Decks, n: int = 1) -> tuple[tuple[int, ...], Decks]:
    """Draw conquest cards (no bottom pile: scored cards are kept, spec Cards)."""
    drawn = decks.conquest[:n]
    return drawn, replace(decks, conquest=decks.conquest[len(drawn) :])


def draw_power(decks: Decks) -> tuple[int | None, Decks]:
    """Draw the top power card (a quest's doubles, WQ-QU-05: "random" = the top of the draw pile), or None
    when the hidden part and the bottom pile are both spent."""
    drawn, top, bottom = draw(decks.power, decks.power_bottom, 1)
    if not drawn:
        return None, decks
    return drawn[0], replace(decks, power=top, power_bottom=bottom)


def put_under(decks: Decks, pile: BottomPile, card: int) -> Decks:
    """Put a card under a deck, in view: it joins the end of the public bottom pile (WQ-QU-04, WQ-QU-06)."""
    if pile == "power":
        return replace(decks, power_bottom=(*decks.power_bottom, card))
    return replace(decks, quest_bottom=(*decks.quest_bottom, card))


def refill_market(decks: Decks) -> tuple[Decks, tuple[int, ...]]:
    """Fill every gap of the market (and grow it to MARKET_SIZE places) from the power deck, in place order;
    an empty deck leaves the gap (WQ-PW-04 decision). Returns the decks and the cards turned up."""
    size = rules().constants.MARKET_SIZE
    market = list(decks.market) + [None] * max(0, size - len(decks.market))
    turned: list[int] = []
    for i, slot in enumerate(market):
        if slot is None:
            card, decks = draw_power(decks)
            if card is None:
                break
            market[i] = card
            turned.append(card)
    return replace(decks, market=tuple(market)), tuple(turned)


def take_from_market(decks: Decks, card: int) -> tuple[Decks, tuple[int, ...]]:
    """Take a card from the market and refill its place at once (WQ-PW-04). Returns the decks and the card
    turned up (none when the deck is spent)."""
    if card not in decks.market:
        raise ValueError(f"power card {card} is not in the market")
    market = tuple(None if c == card else c for c in decks.market)
    return refill_market(replace(decks, market=market))


def replace_market(decks: Decks) -> tuple[Decks, tuple[int, ...]]:
    """The ``market`` event: the face-up cards go under the power deck (public, in place order), then a new
    market is dealt (the draw pile first; the cards just put under only if the hidden part runs out)."""
    gone = tuple(c for c in decks.market if c is not None)
    decks = replace(decks, power_bottom=decks.power_bottom + gone, market=tuple(None for _ in decks.market))
    return refill_market(decks)


def is_event_power(card: int) -> bool:
    """Whether a power card is an "Event" Power Card (one-shot; not counted by the Rule of Five, WQ-PW-09)."""
    return rules().powers[card].event


def counted_powers(powers: Iterable[int]) -> tuple[int, ...]:
    """The power cards that count for the Rule of Five: every card but the event ones (WQ-PW-06, WQ-PW-09)."""
    return tuple(c for c in powers if not is_event_power(c))


def needs_discard(powers: Iterable[int]) -> bool:
    """Whether a player holding ``powers`` (the new card included) must discard one: more than POWER_LIMIT
    non-event cards (WQ-PW-06/07)."""
    return len(counted_powers(powers)) > rules().constants.POWER_LIMIT


def discard_choices(powers: Iterable[int]) -> tuple[int, ...]:
    """The cards a player over the limit may discard: any counted card, the new one included (WQ-PW-07)."""
    return counted_powers(powers)


@dataclass(frozen=True, slots=True)
class WraithKingLeft(Event):
    """The Wraith King went back to the pool: his card, "The Black Crown", was discarded (designed)."""

    seat: Seat
    region: str


def apply_discard(state: WqState, seat: int, card: int) -> tuple[WqState, list[Event]]:
    """Discard a power card for the Rule of Five: it leaves play for good, in no pile (WQ-PW-08). Losing
    "The Black Crown" sends the Wraith King back to the pool (spec: The Wraith King). Refuses a card the
    seat does not hold or one that does not count."""
    player = state.players[seat]
    if card not in player.powers:
        raise ValueError(f"WQ-PW-07: power card {card} is not held by seat {seat}")
    if is_event_power(card):
        raise ValueError(
            f"WQ-PW-09: power card {card} is an event card (it does not count for the Rule of Five)"
        )
    powers = tuple(c for c in player.powers if c != card)
    players = tuple(replace(p, powers=powers) if p.seat == seat else p for p in state.players)
    state = replace(state, players=players)
    events: list[Event] = [PowerDiscarded(seat, card)]
    if rules().powers[card].effect == "wraith_king":
        for t in state.troops:
            if t.kind == "wraith_king":
                events.append(WraithKingLeft(seat, t.region))
        state = remove_wraith_king(state)
    return state, events


def remove_wraith_king(state: WqState) -> WqState:
    """The Wraith King leaves the board (back to the pool of one); nobody controls him."""
    troops = tuple(t for t in state.troops if t.kind != "wraith_king")
    return replace(state, troops=troops, wraith_seat=None)
