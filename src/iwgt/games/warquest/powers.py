"""WarQuest's power cards: what the cards a player holds change (WQ-PW-03, contents designed WQ-MS-36), and
gaining a card: a purchase or a quest's Treasure (WQ-PW-02, WQ-QU-06), with the one-shot effects of the event
power cards and the Wraith King's arrival with "The Black Crown" (WQ-TR-04/07/08 designed).

Every query reads the cards in ``Player.powers`` by their ``effect`` and ``params`` (``data/powers.toml``,
a closed list of effect kinds); no card is named in code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from iwgt.core.protocol import Event, Seat
from iwgt.games.warquest import cards
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Troop, add_gold, with_player

if TYPE_CHECKING:
    from iwgt.games.warquest.battle import SideMods
    from iwgt.games.warquest.state import WqState

AMOUNT: Mapping[str, str] = {
    "rank_dice": "dice",
    "defend_dice": "dice",
    "rally": "extra",
    "pursuit": "dice",
    "tax": "gold",
    "discount": "gold",
    "lieutenant_cost": "gold",
    "move": "regions",
    "quest_bonus": "bonus",
    "vp": "vp",
    "income": "gold",
    "gold": "gold",
    "free_troops": "count",
    "battle_dice": "dice",
}
"""The number each effect kind adds up (``power_sum``): its one numeric parameter."""

WRAITH_KING = "wraith_king"
"""The troop kind of the Wraith King (unique) and the effect kind of the card that brings him."""


@dataclass(frozen=True, slots=True)
class PowerGained(Event):
    """A power card came into a warlord's hands (bought or found as Treasure; WQ-PW-02, WQ-QU-06)."""

    seat: Seat
    card: int


@dataclass(frozen=True, slots=True)
class GoldFound(Event):
    """An event power card paid gold on being gained (designed, WQ-MS-36); the card is used up."""

    seat: Seat
    card: int
    gold: int


@dataclass(frozen=True, slots=True)
class FreeTroops(Event):
    """An event power card gave troops, placed with the Warlord as far as the pool allows (WQ-MS-36)."""

    seat: Seat
    card: int
    region: str
    troop_kind: str
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExtraActionGained(Event):
    """An event power card: the holder's next turn has one more action (WQ-MS-36)."""

    seat: Seat
    card: int


@dataclass(frozen=True, slots=True)
class BattleDiceGained(Event):
    """An event power card: the holder's next battle rolls more front-rank dice in round 1 (WQ-MS-36)."""

    seat: Seat
    card: int
    dice: int


@dataclass(frozen=True, slots=True)
class WraithKingArrived(Event):
    """ "The Black Crown": the Wraith King stands with the leader who gained it (WQ-TR-04/07/08 designed)."""

    seat: Seat
    region: str
    troop: int


# ---------------------------------------------------------------- queries


def _params(card: int) -> Mapping[str, Any]:
    """A power card's parameters."""
    params: Mapping[str, Any] = rules().powers[card].params
    return params


def held(state: WqState, seat: int, effect: str) -> tuple[int, ...]:
    """The power cards of an effect kind the seat holds, in the order gained."""
    table = rules().powers
    return tuple(c for c in state.players[seat].powers if table[c].effect == effect)


def power_sum(state: WqState, seat: int, effect: str, **match: object) -> int:
    """The total of an effect's number (``AMOUNT``) over the seat's cards of that effect whose parameters
    equal every ``match`` given (e.g. ``power_sum(s, 0, "rank_dice", rank="front")``)."""
    key = AMOUNT[effect]
    total = 0
    for c in held(state, seat, effect):
        p = _params(c)
        if all(p.get(k) == v for k, v in match.items()):
            total += int(p.get(key, 0))
    return total


def has_power(state: WqState, seat: int, effect: str) -> bool:
    """Whether the seat holds a card of this effect kind."""
    return bool(held(state, seat, effect))


def unlocked(state: WqState, seat: int) -> frozenset[str]:
    """The advanced troop kinds the seat may recruit: those its `unlock` cards list and those an `unlock`
    event opened to everyone (WQ-SU-17, WQ-RT-06)."""
    kinds: set[str] = set(state.decks.unlocked)
    for c in held(state, seat, "unlock"):
        kinds.update(_params(c).get("troops", ()))
    return frozenset(kinds)


def move_regions(state: WqState, seat: int) -> int:
    """How many regions an army of the seat may move: MOVE_REGIONS + `move` cards (WQ-MV-02)."""
    return int(rules().constants.MOVE_REGIONS) + power_sum(state, seat, "move")


def ford(state: WqState, seat: int) -> bool:
    """Whether the seat's armies may cross an unbridged river without stopping (a `ford` card, WQ-MV-14)."""
    return has_power(state, seat, "ford")


@cache
def _tunnel_links(map_key: str) -> tuple[tuple[str, str], ...]:
    """Every pair of distinct regions holding a Tunnel location on a map, sorted."""
    from iwgt.games.warquest.maps import LOCATIONS, load_map

    m = load_map(map_key)
    regions = sorted({r for loc, r in m.location_region.items() if LOCATIONS[loc][1] == "tunnel"})
    return tuple(combinations(regions, 2))


def tunnel_links(state: WqState, seat: int) -> tuple[tuple[str, str], ...]:
    """The extra adjacencies of the seat's armies: with a `tunnels` card any two Tunnel regions are
    adjacent (designed, WQ-MS-36); none without."""
    if not has_power(state, seat, "tunnels"):
        return ()
    return _tunnel_links(state.scenario.map)


def quest_bonus(state: WqState, seat: int) -> int:
    """What the seat adds to its quest roll (`quest_bonus` cards, WQ-QU-03)."""
    return power_sum(state, seat, "quest_bonus")


def tax_bonus(state: WqState, seat: int) -> int:
    """What the seat adds to each tax (`tax` cards, WQ-TX-02)."""
    return power_sum(state, seat, "tax")


def income(state: WqState, seat: int) -> int:
    """Gold the seat gains at the start of each of its turns (`income` cards)."""
    return power_sum(state, seat, "income")


def vp(state: WqState, seat: int) -> int:
    """VP the seat's `vp` cards are worth while held (WQ-MS-38)."""
    return power_sum(state, seat, "vp")


def troop_cost(state: WqState, seat: int, kind: str) -> int:
    """What one troop of a kind costs the seat: its printed cost less the seat's `discount` cards for its
    people, never below 1. Refuses a kind that cannot be bought (the Wraith King)."""
    base = rules().troops[kind].cost
    if base is None:
        raise ValueError(f"{kind} cannot be bought")
    people = rules().troops[kind].people
    return max(1, base - power_sum(state, seat, "discount", people=people))


def lieutenant_cost(state: WqState, seat: int) -> int:
    """What a Lieutenant costs the seat: LIEUTENANT_COST less its `lieutenant_cost` cards, never below 1
    (WQ-LT-02)."""
    base = int(rules().constants.LIEUTENANT_COST)
    return max(1, base - power_sum(state, seat, "lieutenant_cost"))


def side_mods(state: WqState, seat: int, defending: bool) -> SideMods:
    """The seat's power modifiers for a battle: rank dice, defence dice (defending only), rally, pursuit,
    and a pending `battle_dice` event card (round 1 front rank; the battle flow spends it)."""
    from iwgt.games.warquest.battle import SideMods

    return SideMods(
        front_dice=power_sum(state, seat, "rank_dice", rank="front"),
        rear_dice=power_sum(state, seat, "rank_dice", rank="rear"),
        defend_dice=power_sum(state, seat, "defend_dice") if defending else 0,
        rally_extra=power_sum(state, seat, "rally"),
        pursuit_dice=power_sum(state, seat, "pursuit"),
        first_round_dice=state.players[seat].battle_dice,
    )


# ---------------------------------------------------------------- gaining a card


def pool_left(state: WqState, kind: str) -> int:
    """How many troops of a kind are still in the Recruitment Pool (WQ-RT-06)."""
    return max(0, rules().troops[kind].pool - state.on_board(kind))


def place_troops(
    state: WqState, seat: int, region: str, kind: str, count: int
) -> tuple[WqState, tuple[int, ...]]:
    """Place up to ``count`` troops of a kind from the pool in a region (free); returns the new ids."""
    n = min(count, pool_left(state, kind))
    ids = tuple(range(state.next_id, state.next_id + n))
    troops = state.troops + tuple(Troop(i, kind, seat, region) for i in ids)
    return replace(state, troops=troops, next_id=state.next_id + n), ids


def gain_power(state: WqState, seat: int, card: int, leader_region: str) -> tuple[WqState, list[Event], bool]:
    """A seat gains a power card (already out of the market or the deck): an event card takes effect at
    once and is used up (gold; free troops with the Warlord; the next turn's extra action; the next
    battle's dice); another card joins the seat's powers, "The Black Crown" bringing the Wraith King to
    ``leader_region`` (the region of the leader who gained it). Returns the state, the events, and whether
    the seat must now discard one card (the Rule of Five, WQ-PW-07; event cards never count, WQ-PW-09)."""
    pc = rules().powers[card]
    p = _params(card)
    player = state.players[seat]
    events: list[Event] = [PowerGained(seat, card)]
    if pc.event:
        if pc.effect == "gold":
            gold = int(p["gold"])
            state = add_gold(state, seat, gold)
            events.append(GoldFound(seat, card, gold))
        elif pc.effect == "free_troops":
            w = state.warlord(seat)
            region = w.region if w is not None else leader_region
            kind = str(p["kind"])
            state, ids = place_troops(state, seat, region, kind, int(p["count"]))
            events.append(FreeTroops(seat, card, region, kind, ids))
        elif pc.effect == "extra_action":
            state = with_player(state, replace(player, extra_action=True))
            events.append(ExtraActionGained(seat, card))
        elif pc.effect == "battle_dice":
            dice = int(p["dice"])
            state = with_player(state, replace(player, battle_dice=player.battle_dice + dice))
            events.append(BattleDiceGained(seat, card, dice))
        else:
            raise ValueError(f"power card {card}: unknown event effect {pc.effect!r}")
        return state, events, False
    state = with_player(state, replace(player, powers=(*player.powers, card)))
    if pc.effect == WRAITH_KING and state.on_board(WRAITH_KING) == 0:
        state, ids = place_troops(state, seat, leader_region, WRAITH_KING, 1)
        state = replace(state, wraith_seat=seat)
        if ids:
            events.append(WraithKingArrived(seat, leader_region, ids[0]))
    return state, events, cards.needs_discard(state.players[seat].powers)
