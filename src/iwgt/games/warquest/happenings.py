"""WarQuest's event cards (WQ-TU-06, contents designed WQ-MS-35): after every round the top card of the active
event deck is turned up and executed. Effect kinds (closed list): ``harvest {gold}``, ``tribute
{gold_per_city}``, ``bandits {gold}``, ``plague {kingdom}``, ``monster {kingdom, dice}``, ``uprising
{kingdom}``, ``unlock {troops}``, ``muster {people, count}``, ``market {}``, ``calm {}``.

Everything happens at once except a monster's combat dice: they are chance nodes, one ``Pending("monster")``
entry per warlord struck (``seat``; ``key`` the kingdom, ``card`` the event, ``count`` the dice still to
roll, ``faces`` those rolled so far), the first in turn order on top; ``monster_face`` answers the top one.
Players are taken in the round's turn order (the starting player first) wherever order matters (a short pool).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from iwgt.core.chance import Die
from iwgt.core.protocol import Event, Seat
from iwgt.games.warquest import cards
from iwgt.games.warquest.battle import COMBAT_FACES, HIT_FACE
from iwgt.games.warquest.events import EventTurned
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.powers import WRAITH_KING, place_troops, pool_left
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import LastRoll, Pending, Troop, add_gold, set_owner

if TYPE_CHECKING:
    from iwgt.games.warquest.state import WqState

EFFECTS = (
    "harvest",
    "tribute",
    "bandits",
    "plague",
    "monster",
    "uprising",
    "unlock",
    "muster",
    "market",
    "calm",
)
"""The closed list of event effect kinds (spec: Cards and winning)."""


@dataclass(frozen=True, slots=True)
class GoldChanged(Event):
    """An event card gave or took a warlord's gold (harvest, tribute, bandits; WQ-MS-35)."""

    seat: Seat
    gold: int  # signed: negative for a loss
    cause: str  # the effect kind


@dataclass(frozen=True, slots=True)
class TroopLost(Event):
    """An event card eliminated a troop (to the pool): plague or a monster (WQ-MS-35)."""

    seat: Seat
    troop: int
    troop_kind: str
    region: str
    cause: str


@dataclass(frozen=True, slots=True)
class MonsterRolled(Event):
    """A monster's combat dice against one warlord's troops in a kingdom (WQ-MS-35)."""

    seat: Seat
    kingdom: str
    faces: tuple[int, ...]
    hits: int


@dataclass(frozen=True, slots=True)
class TokenRemoved(Event):
    """An uprising removed an ownership token (back to its owner) from a region without its owner's leader."""

    seat: Seat
    region: str


@dataclass(frozen=True, slots=True)
class TroopsUnlocked(Event):
    """An event opened advanced troop kinds to every warlord for the rest of the game (WQ-SU-17)."""

    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Mustered(Event):
    """A people mustered free troops to a warlord's leader in its land (WQ-MS-35)."""

    seat: Seat
    region: str
    troop_kind: str
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MarketReplaced(Event):
    """The market's cards went under the power deck (public) and a new market was dealt (WQ-MS-35)."""

    gone: tuple[int, ...]
    dealt: tuple[int, ...]


def turn_order(state: WqState) -> tuple[int, ...]:
    """The seats in the round's turn order: the starting player, then clockwise (WQ-SU-18)."""
    return tuple((state.first + i) % state.n for i in range(state.n))


def monster_die(kingdom: str) -> Die:
    """The combat die a monster rolls (WQ-CB-01 decision: face 1 a hit, 2 a flee, 3..6 blank)."""
    return Die(6, f"monster in {kingdom}", faces=COMBAT_FACES)


def _worth(t: Troop) -> tuple[float, int]:
    """Cheapest first: cost in gold (the Wraith King, unbuyable, the dearest), then the lowest id."""
    cost = rules().troops[t.kind].cost
    return (float("inf") if cost is None else float(cost), t.id)


def cheapest(troops: Iterable[Troop], n: int) -> tuple[Troop, ...]:
    """The ``n`` cheapest troops (cost, then lowest id)."""
    return tuple(sorted(troops, key=_worth)[:n])


def remove_troops(state: WqState, lost: Iterable[Troop], cause: str) -> tuple[WqState, list[Event]]:
    """Eliminate troops (to the pool); the Wraith King dying leaves nobody controlling him."""
    lost = tuple(lost)
    ids = {t.id for t in lost}
    state = replace(state, troops=tuple(t for t in state.troops if t.id not in ids))
    if any(t.kind == WRAITH_KING for t in lost):
        state = replace(state, wraith_seat=None)
    return state, [TroopLost(t.seat, t.id, t.kind, t.region, cause) for t in lost]


def _kingdom_troops(state: WqState, kingdom: str, seat: int) -> tuple[Troop, ...]:
    """A seat's troops in a kingdom's regions."""
    regions = set(load_map(state.scenario.map).kingdoms[kingdom].regions)
    return tuple(t for t in state.troops if t.seat == seat and t.region in regions)


def _gold(state: WqState, seat: int, delta: int, cause: str) -> tuple[WqState, list[Event]]:
    """Change a seat's gold (never below 0)."""
    delta = max(delta, -state.players[seat].gold)
    if delta == 0:
        return state, []
    return add_gold(state, seat, delta), [GoldChanged(seat, delta, cause)]


def first_infantry(people: str) -> str | None:
    """A people's first basic infantry kind in the troop table (neither advanced nor missile), if any."""
    for key, kind in rules().troops.items():
        if kind.people == people and not kind.advanced and not kind.missile and kind.cost is not None:
            return key
    return None


def turn_event(state: WqState) -> tuple[WqState, list[Event]]:
    """Turn up the top card of the active event deck and execute it (WQ-TU-06). The card goes to the
    turned pile; a spent deck turns nothing."""
    if not state.decks.events:
        return state, []
    card = state.decks.events[0]
    decks = replace(state.decks, events=state.decks.events[1:], events_done=(*state.decks.events_done, card))
    state = replace(state, decks=decks)
    state, events = execute(state, card)
    return state, [EventTurned(card, state.round), *events]


def execute(state: WqState, card: int) -> tuple[WqState, list[Event]]:
    """Execute an event card's effect; a monster pushes its dice as pending chance entries."""
    ec = rules().events[card]
    p: Mapping[str, Any] = ec.params
    events: list[Event] = []
    order = turn_order(state)
    effect = ec.effect
    if effect == "harvest":
        for s in order:
            state, ev = _gold(state, s, int(p["gold"]), effect)
            events += ev
    elif effect == "tribute":
        m = load_map(state.scenario.map)
        for s in order:
            n_cities = sum(1 for r, o in state.owners if o == s and m.regions[r].city)
            state, ev = _gold(state, s, int(p["gold_per_city"]) * n_cities, effect)
            events += ev
    elif effect == "bandits":
        for s in order:
            state, ev = _gold(state, s, -int(p["gold"]), effect)
            events += ev
    elif effect == "plague":
        for s in order:
            state, ev = remove_troops(state, cheapest(_kingdom_troops(state, p["kingdom"], s), 1), effect)
            events += ev
    elif effect == "monster":
        kingdom, dice = str(p["kingdom"]), int(p["dice"])
        struck = [s for s in order if _kingdom_troops(state, kingdom, s)] if dice > 0 else []
        frames = tuple(
            Pending("monster", seat=s, die=monster_die(kingdom), count=dice, card=card, key=kingdom)
            for s in reversed(struck)
        )
        state = replace(state, pending=state.pending + frames)
    elif effect == "uprising":
        regions = load_map(state.scenario.map).kingdoms[p["kingdom"]].regions
        owners = state.owners
        for r, s in state.owners:
            if r in regions and not state.leaders_in(r, s):
                owners = set_owner(owners, r, None)
                events.append(TokenRemoved(s, r))
        state = replace(state, owners=owners)
    elif effect == "unlock":
        kinds = tuple(k for k in p["troops"] if k not in state.decks.unlocked)
        state = replace(state, decks=replace(state.decks, unlocked=state.decks.unlocked | set(kinds)))
        if kinds:
            events.append(TroopsUnlocked(kinds))
    elif effect == "muster":
        state, events = _muster(state, str(p["people"]), int(p["count"]))
    elif effect == "market":
        gone = tuple(c for c in state.decks.market if c is not None)
        decks, dealt = cards.replace_market(state.decks)
        state = replace(state, decks=decks)
        events.append(MarketReplaced(gone, dealt))
    elif effect != "calm":
        raise ValueError(f"event card {card}: unknown effect {effect!r}")
    return state, events


def _muster(state: WqState, people: str, count: int) -> tuple[WqState, list[Event]]:
    """Each warlord with a leader in the people's land gains ``count`` free troops of its first basic
    infantry there (with the Warlord if he is in the land, else the leader of lowest id), pool permitting."""
    kind = first_infantry(people)
    if kind is None:
        return state, []
    land = {r.id for r in load_map(state.scenario.map).regions.values() if r.people == people}
    events: list[Event] = []
    for s in turn_order(state):
        here = sorted(
            (ld for ld in state.leaders if ld.seat == s and ld.region in land),
            key=lambda ld: (ld.rank != "warlord", ld.id),
        )
        if not here or pool_left(state, kind) == 0:
            continue
        state, ids = place_troops(state, s, here[0].region, kind, count)
        events.append(Mustered(s, here[0].region, kind, ids))
    return state, events


def monster_face(state: WqState, face: int) -> tuple[WqState, list[Event]]:
    """A face of the top monster entry's die: once its dice are all rolled, each hit eliminates the struck
    warlord's cheapest troop in the kingdom (cost, then lowest id), and the entry leaves the stack."""
    top = state.pending[-1] if state.pending else None
    if top is None or top.kind != "monster" or top.seat is None:
        raise ValueError("no monster die is pending")
    faces = (*top.faces, face)
    if len(faces) < top.count:  # ``count`` is the roll's total (as for every Pending)
        return replace(state, pending=(*state.pending[:-1], replace(top, faces=faces))), []
    purpose = top.die.purpose if top.die is not None else f"monster in {top.key}"
    last = LastRoll(purpose, faces, seat=top.seat, combat=True)
    state = replace(state, pending=state.pending[:-1], last_roll=last)
    hits = sum(1 for f in faces if f == HIT_FACE)
    events: list[Event] = [MonsterRolled(top.seat, top.key, faces, hits)]
    state, ev = remove_troops(state, cheapest(_kingdom_troops(state, top.key, top.seat), hits), "monster")
    return state, events + ev
