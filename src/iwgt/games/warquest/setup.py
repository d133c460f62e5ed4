"""Setting up a WarQuest game (WQ-SU-01..18): the secret shuffles and the deals as chance nodes, the
starting player's die, then each warlord's placement in the text's order.

The initial state holds a stack of chance entries (top last): the power, event, quest and conquest
shuffles, then the starting player's die. Placement goes from the seat to the right of the starting player
counter-clockwise, the starting player last (WQ-SU-13, WQ-SU-18).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.warquest import cards
from iwgt.games.warquest.actions import Counts, Place, counts
from iwgt.games.warquest.events import (
    CardsDealt,
    DeckShuffled,
    EventsSetAside,
    HandDealt,
    LeadersPlaced,
    MarketTurned,
    StartingPlayer,
    TroopsBought,
)
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.powers import pool_left
from iwgt.games.warquest.rules import basic_kinds, rules
from iwgt.games.warquest.scenario import WqScenario
from iwgt.games.warquest.state import Decks, Leader, Pending, Player, Troop, TurnMarks, WqState

SHUFFLE_ORDER: tuple[cards.DeckName, ...] = ("power", "event", "quest", "conquest")
"""The decks in the order the text shuffles them (WQ-SU-05..09)."""
SHUFFLE_PART = 256
"""Faces of each of a shuffle's secret dice: their faces, base 256, make the 32-bit seed of the permutation.
(One die of 2**31 faces, as the spec first had it, cannot be enumerated: the conformance suite lists every
outcome of a die, and takes a face of 1000 for one no die has.)"""
SHUFFLE_DICE = 4
"""Secret dice a shuffle rolls (4 x 8 bits = a 32-bit seed)."""


def shuffle_dice(deck: cards.DeckName) -> Die:
    """One of the secret dice that shuffle a deck (nobody may see a face: it would reveal the order)."""
    return Die(SHUFFLE_PART, f"{deck} shuffle", secret=True)


def shuffle_seed(faces: tuple[int, ...]) -> int:
    """The permutation's seed from the faces (1-based), the first the most significant."""
    seed = 0
    for f in faces:
        seed = seed * SHUFFLE_PART + (f - 1)
    return seed


def first_die(n: int) -> Die:
    """The die that chooses the starting player: face f is seat f - 1 (WQ-SU-12)."""
    return Die(n, "the starting player")


def initial_state(scenario: WqScenario) -> WqState:
    """The state before the first chance node: 30 gold each, nothing on the board, the decks unshuffled."""
    c = rules().constants
    players = tuple(
        Player(
            seat=s,
            gold=c.START_GOLD,
            vp=0,
            quests=(),
            conquests=(),
            powers=(),
            done_quests=(),
            scored_conquests=(),
        )
        for s in range(scenario.players)
    )
    stack = [Pending("first", die=first_die(scenario.players), count=1)]
    stack += [
        Pending("shuffle", die=shuffle_dice(d), count=SHUFFLE_DICE, key=d) for d in reversed(SHUFFLE_ORDER)
    ]
    return WqState(
        scenario=scenario,
        phase="setup",
        round=0,
        first=0,
        seat=0,
        marks=TurnMarks(),
        players=players,
        leaders=(),
        troops=(),
        owners=(),
        decks=Decks(),
        pending=tuple(stack),
    )


def _deal(state: WqState, deck: str, order: tuple[int, ...]) -> tuple[WqState, list[Event]]:
    c = rules().constants
    size = c.QUEST_HAND if deck == "quest" else c.CONQUEST_HAND
    hands, rest = cards.deal(order, state.n, size)
    events: list[Event] = []
    players = []
    for p, hand in zip(state.players, hands, strict=True):
        if deck == "quest":
            players.append(replace(p, quests=p.quests + hand))
        else:
            players.append(replace(p, conquests=p.conquests + hand))
        events.append(HandDealt(p.seat, deck, hand))
        events.append(CardsDealt(p.seat, deck, len(hand)))
    decks = replace(state.decks, quest=rest) if deck == "quest" else replace(state.decks, conquest=rest)
    return replace(state, players=tuple(players), decks=decks), events


def resolve_setup_chance(state: WqState, face: int) -> tuple[WqState, list[Event]]:
    """Apply a face of a shuffle's dice or of the starting die (the top of the pending stack)."""
    r = rules()
    top = state.pending[-1]
    faces = (*top.faces, face)
    if len(faces) < top.count:  # a shuffle's dice before its last: wait for the rest
        return replace(state, pending=(*state.pending[:-1], replace(top, faces=faces))), []
    state = replace(state, pending=state.pending[:-1])
    events: list[Event] = []
    if top.kind == "first":
        first = face - 1
        state = replace(state, first=first, phase="place", seat=(first - 1) % state.n)
        return state, [StartingPlayer(first)]
    face = shuffle_seed(faces)
    deck = top.key
    if deck == "power":
        order = cards.shuffle(sorted(r.powers), face)
        events.append(DeckShuffled("power", len(order)))
        decks, turned = cards.refill_market(replace(state.decks, power=order))
        events.append(MarketTurned(turned))
        return replace(state, decks=decks), events
    if deck == "event":
        order = cards.shuffle(sorted(r.events), face)
        keep = r.constants.ACTIVE_EVENTS
        events.append(DeckShuffled("event", len(order)))
        events.append(EventsSetAside(len(order[:keep]), len(order[keep:])))
        return replace(
            state, decks=replace(state.decks, events=order[:keep], events_removed=order[keep:])
        ), events
    source = r.quests if deck == "quest" else r.conquests
    order = cards.shuffle(sorted(source), face)
    events.append(DeckShuffled(deck, len(order)))
    state, dealt = _deal(state, deck, order)
    return state, events + dealt


def placement_blocked(state: WqState, seat: int, region: str) -> bool:
    """Whether another player's pieces stand in a region (WQ-SU-14 decision: refused)."""
    return any(s != seat for s in state.seats_in(region))


def _buy_max(state: WqState, kinds: tuple[str, ...], gold: int) -> Counts:
    """Round-robin over ``kinds``, one at a time, while gold and the pool allow (a package on offer)."""
    troops = rules().troops
    bought: dict[str, int] = {}
    progress = True
    while progress:
        progress = False
        for k in kinds:
            cost = troops[k].cost or 0
            if cost <= gold and pool_left(state, k) - bought.get(k, 0) > 0:
                bought[k] = bought.get(k, 0) + 1
                gold -= cost
                progress = True
    return counts(bought)


def placement_packages(state: WqState, region: str) -> list[Counts]:
    """The starting armies offered in a region: none, each basic kind at the most the gold buys, and a
    balanced mix of the region's people (else of the two cheapest kinds) (wq-spec legal_actions)."""
    people = load_map(state.scenario.map).regions[region].people
    return _packages(state, people)


def _packages(state: WqState, people: str | None) -> list[Counts]:
    gold = state.players[state.seat].gold
    basics = basic_kinds()
    out: list[Counts] = [()]
    for k in basics:
        pkg = _buy_max(state, (k,), gold)
        if pkg and pkg not in out:
            out.append(pkg)
    troops = rules().troops
    mix = tuple(k for k in basics if troops[k].people == people) or tuple(
        sorted(basics, key=lambda k: (troops[k].cost or 0, k))[:2]
    )
    pkg = _buy_max(state, mix, gold)
    if pkg and pkg not in out:
        out.append(pkg)
    return out


def legal_placements(state: WqState) -> list[Place]:
    """Every offered placement of the seat placing now (the packages worked out once per people)."""
    m = load_map(state.scenario.map)
    by_people: dict[str | None, list[Counts]] = {}
    out: list[Place] = []
    for region in m.geometry.ids:
        if placement_blocked(state, state.seat, region):
            continue
        people = m.regions[region].people
        if people not in by_people:
            by_people[people] = _packages(state, people)
        out.extend(Place(region, pkg) for pkg in by_people[people])
    return out


def apply_place(state: WqState, action: Place) -> tuple[WqState, list[Event]]:
    """Place both leaders and buy the starting army (WQ-SU-14..17), then pass to the next placer."""
    m = load_map(state.scenario.map)
    r = rules()
    seat = state.seat
    if action.region not in m.regions:
        raise IllegalAction(f"WQ-SU-14: there is no region {action.region!r} on this map")
    if placement_blocked(state, seat, action.region):
        raise IllegalAction(
            f"WQ-SU-14: another warlord's pieces stand in {m.regions[action.region].name}: choose another"
        )
    cost = 0
    for kind, n in action.troops:
        t = r.troops.get(kind)
        if t is None:
            raise IllegalAction(f"WQ-SU-16: there is no troop kind {kind!r}")
        if kind not in basic_kinds():
            raise IllegalAction(f"WQ-SU-17: the starting army may hold only Basic troops, not {t.name}")
        if n > pool_left(state, kind):
            raise IllegalAction(
                f"WQ-RT-06: the Recruitment Pool holds only {pool_left(state, kind)} {t.name}"
            )
        cost += (t.cost or 0) * n
    player = state.players[seat]
    if cost > player.gold:
        raise IllegalAction(f"WQ-SU-15: the starting army costs {cost} gold; the warlord has {player.gold}")
    nid = state.next_id
    leaders = (
        Leader(nid, seat, "warlord", action.region),
        Leader(nid + 1, seat, "lieutenant", action.region),
    )
    nid += 2
    troops: list[Troop] = []
    for kind, n in action.troops:
        for _ in range(n):
            troops.append(Troop(nid, kind, seat, action.region))
            nid += 1
    players = tuple(replace(p, gold=p.gold - cost) if p.seat == seat else p for p in state.players)
    events: list[Event] = [LeadersPlaced(seat, action.region, tuple(ld.id for ld in leaders))]
    if troops:
        events.append(TroopsBought(seat, action.region, action.troops, tuple(t.id for t in troops), cost))
    state = replace(
        state,
        players=players,
        leaders=state.leaders + leaders,
        troops=state.troops + tuple(troops),
        next_id=nid,
    )
    if seat == state.first:  # the starting player places last and moves first (WQ-SU-18)
        from iwgt.games.warquest.turn import begin_game

        state, more = begin_game(state)
        return state, events + more
    return replace(state, seat=(seat - 1) % state.n), events
