"""What the WarQuest bot knows and how it values a position, from one seat's point of view.

Only public facts and the seat's own hand are read: the board, gold, victory points, power cards held (all
public, wq-spec 3) and the seat's own quest and conquest cards (its observation's ``hand``); a card's face is
looked up by its id in the printed decks (``rules``). The value of a position is in tenths of a victory point
("points"): VP, gold, armies with a leader, regions and cities owned, the conquest cards' progress, and each
quest card in hand as its chance of success times its VP, discounted by how many moves its nearest leader
needs to reach its location.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from iwgt.games.warquest import powers
from iwgt.games.warquest.maps import WqMap, load_map
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.score import sacred, total_vp
from iwgt.games.warquest.state import WqState
from iwgt.geometry.regions import paths

VP = 10.0
"""Points a victory point is worth (the unit of every other weight)."""
REGION_WORTH = 3.0
"""An owned region (tokens feed the conquest cards drawn later)."""
TAX_WORTH = 1.5
"""Points per gold of a city's tax while several rounds are left (it can be taxed again and again)."""
QUEST_REACH = (0.85, 0.65, 0.5, 0.4, 0.32, 0.25)
"""A quest card's share of its worth by the moves its nearest leader needs (0: a leader stands there)."""
STAND_SHARE = 0.4
"""A leader standing on a region it may conquer: this share of the conquest's worth (the conquer action
itself realises the rest)."""
ARMY_FULL = 24
"""Gold of troops with one leader worth their full cost; more count half."""
ESCORT = 14
"""Gold of troops with the Warlord below which each more gold of troops is worth extra (its safety and the
battles it may win)."""
ESCORT_BONUS = 0.6
"""The extra points per gold of troops below ``ESCORT``."""
GUARD = 6
"""Gold of troops with a Lieutenant (and no Warlord) worth the escort bonus: a leader alone is a free
battle won for any enemy army that reaches it (WQ-MS-41)."""
LEADERLESS = 0.15
"""A troop with none of its leaders in its region goes home at the end of the turn: this share of its cost."""
LEADER_WORTH = 30.0
"""A second leader early in the game (twice the quests and conquests); scaled by the rounds left."""
SACRED_STEP = 12.0
"""Extra points for a sacred quest per sacred quest already done (the Emperor is near)."""
EMPEROR = 400.0
"""Extra points for the sacred quest that crowns the Emperor (the game is won at once)."""
NEW_QUEST = 18.0
"""The worth of an unknown quest card drawn into the hand (an average card some moves away)."""
CONQUEST_NEAR = 0.35
"""An unmet conquest card one region short: this share of its worth; each more region short: x0.55."""


@cache
def quest_chance(vp: int, bonus: int) -> float:
    """P(2d6 + bonus >= vp) (WQ-QU-03)."""
    need = vp - bonus
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need) / 36.0


@dataclass(frozen=True, slots=True)
class MapFacts:
    """Per map, computed once: the fewest move actions between any two regions (rivers end a move, no
    mountains; other armies ignored), each region's neighbours."""

    moves: Mapping[str, Mapping[str, int]]
    wq: WqMap


@cache
def map_facts(key: str) -> MapFacts:
    """The map's move-count table (a breadth-first search over one move action's reach)."""
    m = load_map(key)
    reach = {r: tuple(paths(m.geometry, r, 3)) for r in m.geometry.ids}
    table: dict[str, dict[str, int]] = {}
    for start in m.geometry.ids:
        dist = {start: 0}
        ring = [start]
        while ring:
            nxt: list[str] = []
            for here in ring:
                for r in reach[here]:
                    if r not in dist:
                        dist[r] = dist[here] + 1
                        nxt.append(r)
            ring = nxt
        table[start] = dist
    return MapFacts(moves=table, wq=m)


def moves_between(facts: MapFacts, a: str, b: str) -> int:
    """The fewest move actions from ``a`` to ``b`` (a large number if unreachable)."""
    return facts.moves.get(a, {}).get(b, 9)


def rounds_left(state: WqState) -> int:
    """Rounds still to play after this one (the scenario's length or the event deck, the nearer)."""
    return max(0, min(state.scenario.rounds - max(state.round, 1), len(state.decks.events)))


def gold_weight(state: WqState) -> float:
    """Points a gold piece is worth: much while there are rounds to spend it, little at the end."""
    left = rounds_left(state)
    return 0.15 + 0.85 * min(1.0, left / 6.0)


def troop_cost(kind: str) -> int:
    """A troop's printed cost (the Wraith King, who cannot be bought, counts as 10)."""
    c = rules().troops[kind].cost
    return 10 if c is None else int(c)


def sacred_bonus(done: int, emperor_quests: int) -> float:
    """The extra worth of completing one more sacred quest when ``done`` are done."""
    if done + 1 >= emperor_quests:
        return EMPEROR
    return SACRED_STEP * (1 + done)


def quest_worth(state: WqState, seat: int, card: int) -> float:
    """The expected points of attempting a quest card now: the chance times its VP (and the Emperor)."""
    q = rules().quests[card]
    p = quest_chance(q.vp, powers.quest_bonus(state, seat))
    worth = q.vp * VP
    if q.sacred:
        worth += sacred_bonus(sacred(state, seat), rules().constants.EMPEROR_QUESTS)
    return p * worth


def region_worth(state: WqState, region: str, m: WqMap) -> float:
    """The worth of owning a region (its token; a city's tax while rounds are left)."""
    r = m.regions[region]
    worth = REGION_WORTH
    if r.city:
        worth += TAX_WORTH * r.tax * min(1.0, rounds_left(state) / 4.0) * gold_weight(state)
    return worth


def _short(state: WqState, owned: frozenset[str], card: int, m: WqMap) -> tuple[int, frozenset[str]]:
    """How many more regions a conquest card needs, and the regions that would help (approximate)."""
    c = rules().conquests[card]
    kind = c.objective
    params: Mapping[str, Any] = c.params
    if kind == "kingdom_regions":
        regs = frozenset(m.kingdoms[params["kingdom"]].regions)
        return max(0, int(params["count"]) - len(owned & regs)), regs - owned
    if kind == "kingdom_capital":
        caps = frozenset(r for r in m.kingdoms[params["kingdom"]].regions if m.regions[r].capital)
        return (0 if owned & caps else 1), caps - owned
    if kind == "kingdom_all":
        regs = frozenset(m.kingdoms[params["kingdom"]].regions)
        return len(regs - owned), regs - owned
    if kind == "cities":
        cities = frozenset(r for r in m.regions if m.regions[r].city)
        return max(0, int(params["count"]) - len(owned & cities)), cities - owned
    if kind == "regions":
        return max(0, int(params["count"]) - len(owned)), frozenset(m.regions) - owned
    if kind == "kingdoms":
        have = {m.regions[r].kingdom for r in owned} - {None}
        helps = frozenset(r for r in m.regions if m.regions[r].kingdom and m.regions[r].kingdom not in have)
        return max(0, int(params["count"]) - len(have)), helps
    if kind == "lands":
        lands = frozenset(r for r in m.regions if m.regions[r].people == params["people"])
        return (0 if owned & lands else 1), lands - owned
    return 9, frozenset()


def conquest_worth(state: WqState, seat: int, cards: Iterable[int], m: WqMap) -> float:
    """The conquest cards in hand: a card whose objective holds scores at the end of the turn (its full VP
    and a new card); an unmet one is worth a share that grows as fewer regions are missing."""
    owned = frozenset(r for r, s in state.owners if s == seat)
    total = 0.0
    for card in cards:
        vp = rules().conquests[card].vp * VP
        short, _ = _short(state, owned, card, m)
        if short == 0:
            total += vp + 5.0
        elif short <= 6:
            total += vp * CONQUEST_NEAR * (0.55 ** (short - 1))
    return total


def conquer_gain(state: WqState, seat: int, region: str, cards: Iterable[int], m: WqMap) -> float:
    """What conquering ``region`` would add: the region's worth and its help to the unmet conquest cards."""
    owned = frozenset(r for r, s in state.owners if s == seat)
    gain = region_worth(state, region, m)
    for card in cards:
        short, helps = _short(state, owned, card, m)
        if short and region in helps:
            vp = rules().conquests[card].vp * VP
            before = vp * CONQUEST_NEAR * (0.55 ** (short - 1)) if short <= 6 else 0.0
            after = vp + 5.0 if short == 1 else vp * CONQUEST_NEAR * (0.55 ** (short - 2))
            gain += after - before
    return gain


def army_worth(costs: Iterable[int], *, warlord: bool) -> float:
    """The worth of the troops with one region's leaders (their cost, less beyond ARMY_FULL; an escort
    bonus for the first troops: the Warlord's ESCORT, a Lieutenant's GUARD)."""
    s = sum(costs)
    worth = min(s, ARMY_FULL) + 0.5 * max(0, s - ARMY_FULL)
    worth += ESCORT_BONUS * min(s, ESCORT if warlord else GUARD)
    return float(worth)


def value(state: WqState, seat: int, hand_quests: Iterable[int], hand_conquests: Iterable[int]) -> float:
    """The worth of the position for ``seat`` in points (10 a VP), from public facts and its own hand."""
    facts = map_facts(state.scenario.map)
    m = facts.wq
    left = rounds_left(state)
    gw = gold_weight(state)
    player = state.players[seat]
    v = VP * total_vp(state, seat) + gw * player.gold
    mine = [ld for ld in state.leaders if ld.seat == seat]
    led = {ld.region for ld in mine}
    warlord_at = {ld.region for ld in mine if ld.rank == "warlord"}
    by_region: dict[str, list[int]] = {}
    for t in state.troops:
        if t.seat == seat:
            by_region.setdefault(t.region, []).append(troop_cost(t.kind))
    for region in led:
        by_region.setdefault(region, [])
    for region, costs in by_region.items():
        if region in led:
            v += army_worth(costs, warlord=region in warlord_at)
        else:
            v += LEADERLESS * sum(costs)
    # extra leaders: quests and conquests in two places at once, while there is time
    v += LEADER_WORTH * min(1.0, left / 10.0) * max(0, len(mine) - 1)
    owned = [r for r, s in state.owners if s == seat]
    v += sum(region_worth(state, r, m) for r in owned)
    cards = tuple(hand_conquests)
    v += conquest_worth(state, seat, cards, m)
    # each leader on a region it could conquer next
    owners = dict(state.owners)
    for ld in mine:
        if owners.get(ld.region) != seat:
            v += STAND_SHARE * conquer_gain(state, seat, ld.region, cards, m)
    # the quests in hand, by the moves their nearest leader needs
    for card in hand_quests:
        region = m.location_region[rules().quests[card].location]
        d = min((moves_between(facts, ld.region, region) for ld in mine), default=9)
        if d > left + 1:
            continue
        share = QUEST_REACH[min(d, len(QUEST_REACH) - 1)]
        v += share * quest_worth(state, seat, card)
    # income powers pay each turn that is left
    v += gw * powers.income(state, seat) * left * 0.8
    return v


def hand_of(observation: Mapping[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seat's own quest and conquest card ids, read from its observation."""
    hand = observation.get("hand") or {}
    quests = tuple(int(q["id"]) for q in hand.get("quests", ()))
    conquests = tuple(int(c["id"]) for c in hand.get("conquests", ()))
    return quests, conquests
