"""The actions of gold and ground: Tax (WQ-TX), Conquer (WQ-CQ), Recruit Troops (WQ-RT), Recruit
Lieutenant (WQ-LT) and Acquire a Power Card (WQ-PW, with the Rule of Five)."""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.warquest import cards
from iwgt.games.warquest.actions import Conquer, Lieutenant, Power, Recruit, Tax, counts
from iwgt.games.warquest.events import (
    Conquered,
    LieutenantBought,
    MarketTurned,
    PowerBought,
    Taxed,
    TroopsBought,
)
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.powers import WRAITH_KING, WraithKingArrived, pool_left
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Leader, Troop, WqState, add_gold, set_owner

TOMB = "tomb_of_the_wraith_king"
"""The location where the holder of The Black Crown calls the Wraith King back (WQ-TR-04 designed)."""


def _name(state: WqState, region: str) -> str:
    return load_map(state.scenario.map).regions[region].name


def _region(state: WqState, region: str, clause: str) -> None:
    if region not in load_map(state.scenario.map).regions:
        raise IllegalAction(f"{clause}: there is no region {region!r} on this map")


# --- Tax (WQ-TX-01..03)


def tax_gold(state: WqState, seat: int, region: str) -> int:
    """The gold a tax of this city gives: the city's value plus ``tax`` powers (WQ-TX-02)."""
    from iwgt.games.warquest import powers

    return load_map(state.scenario.map).regions[region].tax + powers.tax_bonus(state, seat)


def check_tax(state: WqState, seat: int, region: str) -> None:
    """IllegalAction unless the warlord may tax the region now."""
    _region(state, region, "WQ-TX-01")
    if state.owner(region) != seat:
        raise IllegalAction(f"WQ-TX-01: {_name(state, region)} is not owned by this warlord")
    if load_map(state.scenario.map).regions[region].city is None:
        raise IllegalAction(f"WQ-TX-01: {_name(state, region)} has no city to tax")
    if region in state.marks.taxed:
        raise IllegalAction(f"WQ-TX-03: {_name(state, region)} has already been taxed this turn")


def apply_tax(state: WqState, seat: int, action: Tax) -> tuple[WqState, list[Event]]:
    """Tax an owned city."""
    check_tax(state, seat, action.region)
    gold = tax_gold(state, seat, action.region)
    state = add_gold(state, seat, gold)
    state = replace(state, marks=replace(state.marks, taxed=state.marks.taxed | {action.region}))
    return state, [Taxed(seat, action.region, gold)]


def legal_tax(state: WqState, seat: int) -> list[Tax]:
    """Every owned city not yet taxed this turn."""
    regions = load_map(state.scenario.map).regions
    return [
        Tax(r)
        for r, s in state.owners
        if s == seat and regions[r].city is not None and r not in state.marks.taxed
    ]


# --- Conquer (WQ-CQ-01..03)


def tokens_left(state: WqState, seat: int) -> int:
    """The ownership tokens a warlord has not placed (WQ-CM-21 decision: 24 each)."""
    return rules().constants.OWNERSHIP_TOKENS - sum(1 for _, s in state.owners if s == seat)


def check_conquer(state: WqState, seat: int, region: str) -> None:
    """IllegalAction unless the warlord may conquer the region now."""
    _region(state, region, "WQ-CQ-01")
    if not state.leaders_in(region, seat):
        raise IllegalAction(f"WQ-CQ-01: no army of this warlord (a leader) stands in {_name(state, region)}")
    if state.owner(region) == seat:
        raise IllegalAction(f"WQ-CQ-01: this warlord already owns {_name(state, region)}")
    if tokens_left(state, seat) <= 0:
        raise IllegalAction("WQ-CM-21: this warlord has no ownership token left")


def apply_conquer(state: WqState, seat: int, action: Conquer) -> tuple[WqState, list[Event]]:
    """Place an ownership token; a previous owner's token goes back (WQ-CQ-02)."""
    check_conquer(state, seat, action.region)
    previous = state.owner(action.region)
    state = replace(state, owners=set_owner(state.owners, action.region, seat))
    return state, [Conquered(seat, action.region, previous)]


def legal_conquer(state: WqState, seat: int) -> list[Conquer]:
    """Every region with one of the warlord's leaders it does not own."""
    if tokens_left(state, seat) <= 0:
        return []
    regions = sorted({ld.region for ld in state.leaders if ld.seat == seat})
    return [Conquer(r) for r in regions if state.owner(r) != seat]


# --- Recruit Troops (WQ-RT-01..06)


def wraith_region(state: WqState, seat: int) -> str | None:
    """The region of the Wraith King if this warlord controls him."""
    if state.wraith_seat != seat:
        return None
    for t in state.troops:
        if t.kind == "wraith_king" and t.seat == seat:
            return t.region
    return None


def _recall_problem(state: WqState, seat: int, region: str) -> str | None:
    # designed (WQ-TR-04, wq-decisions): the Wraith King in the pool (dead, or gone home leaderless) comes
    # back, free, to the holder of The Black Crown who recruits him at his tomb
    from iwgt.games.warquest import powers

    m = load_map(state.scenario.map)
    tomb = m.location_region.get(TOMB)
    if not powers.has_power(state, seat, WRAITH_KING):
        return "WQ-TR-04: only the holder of The Black Crown may call the Wraith King back"
    if state.on_board(WRAITH_KING):
        return "WQ-TR-04: the Wraith King is already on the board"
    if region != tomb:
        where = m.regions[tomb].name if tomb is not None else "his tomb"
        return f"WQ-TR-04: the Wraith King is called back only at his tomb, in {where}"
    return None


def recruit_cost(state: WqState, seat: int, kind: str) -> int:
    """What one troop of a kind costs the seat to recruit (the Wraith King, called back, is free)."""
    from iwgt.games.warquest import powers

    return 0 if kind == WRAITH_KING else powers.troop_cost(state, seat, kind)


def recruit_problem(state: WqState, seat: int, region: str, kind: str) -> str | None:
    """Why a kind may not be recruited in a region by this warlord (None: it may, gold and pool aside)."""
    from iwgt.games.warquest import powers

    t = rules().troops.get(kind)
    if t is None:
        return f"WQ-RT-02: there is no troop kind {kind!r}"
    reg = load_map(state.scenario.map).regions[region]
    if kind == WRAITH_KING:
        return _recall_problem(state, seat, region)
    if t.recruit == "wraith":
        if wraith_region(state, seat) != region:
            return f"WQ-TR-07: {t.name} are recruited only by the Wraith King's master, in his region"
        return None
    if t.recruit == "land":
        if reg.people != t.people:
            return f"WQ-RT-02: {t.name} are not recruited in {reg.name}"
    elif t.recruit == "city":
        if reg.city is None:
            return f"WQ-RT-02: {t.name} are recruited only in a region with a city"
    else:
        return f"WQ-RT-02: {t.name} cannot be recruited"
    if t.advanced and kind not in powers.unlocked(state, seat):
        return f"WQ-TR-06: {t.name} are Advanced: they need a power card or an event that allows them"
    return None


def check_recruit(state: WqState, seat: int, action: Recruit) -> int:
    """The cost of the recruit, or IllegalAction naming the rule broken."""

    _region(state, action.region, "WQ-RT-01")
    name = _name(state, action.region)
    if not state.leaders_in(action.region, seat):
        raise IllegalAction(f"WQ-RT-01: no leader of this warlord stands in {name}")
    owner = state.owner(action.region)
    if owner is not None and owner != seat:
        raise IllegalAction(f"WQ-RT-03: {name} is owned by another warlord; conquer it first (WQ-RT-04)")
    if not action.troops:
        raise IllegalAction("WQ-RT-05: a recruit buys at least one troop")
    cost = 0
    for kind, n in action.troops:
        why = recruit_problem(state, seat, action.region, kind)
        if why is not None:
            raise IllegalAction(why)
        left = pool_left(state, kind)
        if n > left:
            raise IllegalAction(
                f"WQ-RT-06: the Recruitment Pool holds only {left} {rules().troops[kind].name}"
            )
        cost += recruit_cost(state, seat, kind) * n
    gold = state.players[seat].gold
    if cost > gold:
        raise IllegalAction(f"WQ-RT-05: these troops cost {cost} gold; the warlord has {gold}")
    return cost


def apply_recruit(state: WqState, seat: int, action: Recruit) -> tuple[WqState, list[Event]]:
    """Pay and place the troops with the leader (WQ-RT-05)."""
    cost = check_recruit(state, seat, action)
    nid = state.next_id
    new: list[Troop] = []
    for kind, n in action.troops:
        for _ in range(n):
            new.append(Troop(nid, kind, seat, action.region))
            nid += 1
    state = add_gold(state, seat, -cost)
    state = replace(state, troops=state.troops + tuple(new), next_id=nid)
    events: list[Event] = [TroopsBought(seat, action.region, action.troops, tuple(t.id for t in new), cost)]
    for t in new:
        if t.kind == WRAITH_KING:
            state = replace(state, wraith_seat=seat)
            events.append(WraithKingArrived(seat, action.region, t.id))
    return state, events


def legal_recruits(state: WqState, seat: int) -> list[Recruit]:
    """Per region with a leader, per kind: one troop and the most gold and pool allow."""

    out: list[Recruit] = []
    gold = state.players[seat].gold
    for region in sorted({ld.region for ld in state.leaders if ld.seat == seat}):
        owner = state.owner(region)
        if owner is not None and owner != seat:
            continue
        for kind, t in rules().troops.items():
            if (t.cost is None and kind != WRAITH_KING) or recruit_problem(
                state, seat, region, kind
            ) is not None:
                continue
            cost = recruit_cost(state, seat, kind)
            most = min(pool_left(state, kind), gold // cost if cost > 0 else pool_left(state, kind))
            if most >= 1:
                out.append(Recruit(region, counts({kind: 1})))
            if most > 1:
                out.append(Recruit(region, counts({kind: most})))
    return out


# --- Recruit Lieutenant (WQ-LT-01..04)


def check_lieutenant(state: WqState, seat: int) -> tuple[Leader, int]:
    """The warlord and the cost, or IllegalAction naming the rule broken."""
    from iwgt.games.warquest import powers

    c = rules().constants
    w = state.warlord(seat)
    if w is None:
        raise IllegalAction("WQ-LT-01: the Warlord is not on the board")
    if load_map(state.scenario.map).regions[w.region].city is None:
        raise IllegalAction(f"WQ-LT-01: the Warlord stands in {_name(state, w.region)}, which has no city")
    on = state.lieutenants(seat)
    if on >= c.MAX_LIEUTENANTS or on >= c.LIEUTENANTS_PER_PLAYER:
        raise IllegalAction(f"WQ-LT-04: this warlord already has {on} Lieutenants on the board")
    cost = powers.lieutenant_cost(state, seat)
    gold = state.players[seat].gold
    if cost > gold:
        raise IllegalAction(f"WQ-LT-02: a Lieutenant costs {cost} gold; the warlord has {gold}")
    return w, cost


def apply_lieutenant(state: WqState, seat: int, action: Lieutenant) -> tuple[WqState, list[Event]]:
    """Pay and place a new Lieutenant with the Warlord (WQ-LT-03)."""
    w, cost = check_lieutenant(state, seat)
    ld = Leader(state.next_id, seat, "lieutenant", w.region)
    state = add_gold(state, seat, -cost)
    # a new leader has not moved: it may move this turn (only pieces that moved are marked, WQ-MV-06)
    state = replace(state, leaders=(*state.leaders, ld), next_id=state.next_id + 1)
    return state, [LieutenantBought(seat, w.region, ld.id, cost)]


def legal_lieutenant(state: WqState, seat: int) -> list[Lieutenant]:
    """The Lieutenant purchase, when allowed."""
    try:
        check_lieutenant(state, seat)
    except IllegalAction:
        return []
    return [Lieutenant()]


# --- Acquire a Power Card (WQ-PW-01..09)


def check_power(state: WqState, seat: int, action: Power) -> int:
    """The card's cost, or IllegalAction naming the rule broken."""
    regions = load_map(state.scenario.map).regions
    if not any(ld.seat == seat and regions[ld.region].battlefield for ld in state.leaders):
        raise IllegalAction("WQ-PW-01: no leader of this warlord stands on an Ancient Battlefield")
    if state.marks.bought_power:
        raise IllegalAction("WQ-PW-05: a warlord may purchase only one power card a turn")
    if action.card not in state.decks.market:
        raise IllegalAction(f"WQ-PW-02: power card {action.card} is not one of the face-up cards")
    card = rules().powers[action.card]
    gold = state.players[seat].gold
    if card.cost > gold:
        raise IllegalAction(f"WQ-PW-02: {card.name} costs {card.cost} gold; the warlord has {gold}")
    held = (*state.players[seat].powers, action.card)
    if cards.needs_discard(held):
        if action.discard is None:
            raise IllegalAction("WQ-PW-07: a sixth power card: name the one to discard (the new one allowed)")
        if action.discard not in cards.discard_choices(held):
            raise IllegalAction(
                f"WQ-PW-07: power card {action.discard} is not one of the six to discard from"
            )
    elif action.discard is not None:
        raise IllegalAction("WQ-PW-06: no discard is needed: the warlord holds fewer than six power cards")
    return int(card.cost)


def apply_power(state: WqState, seat: int, action: Power) -> tuple[WqState, list[Event]]:
    """Pay, take the card (the market refills at once, WQ-PW-04), gain it; discard for the Rule of Five."""
    from iwgt.games.warquest import powers

    cost = check_power(state, seat, action)
    state = add_gold(state, seat, -cost)
    decks, turned = cards.take_from_market(state.decks, action.card)
    state = replace(state, decks=decks, marks=replace(state.marks, bought_power=True))
    events: list[Event] = [PowerBought(seat, action.card, cost)]
    if turned:
        events.append(MarketTurned(turned))
    regions = load_map(state.scenario.map).regions
    at = next(ld.region for ld in state.leaders if ld.seat == seat and regions[ld.region].battlefield)
    state, more, _ = powers.gain_power(state, seat, action.card, at)
    events += more
    if action.discard is not None:
        state, more = cards.apply_discard(state, seat, action.discard)
        events += more
    return state, events


def legal_powers(state: WqState, seat: int) -> list[Power]:
    """Every affordable market card (one per card the Rule of Five could discard, when needed)."""
    if state.marks.bought_power:
        return []
    regions = load_map(state.scenario.map).regions
    if not any(ld.seat == seat and regions[ld.region].battlefield for ld in state.leaders):
        return []
    out: list[Power] = []
    gold = state.players[seat].gold
    for c in state.decks.market:
        if c is None or rules().powers[c].cost > gold:
            continue
        held = (*state.players[seat].powers, c)
        if cards.needs_discard(held):
            out.extend(Power(c, d) for d in cards.discard_choices(held))
        else:
            out.append(Power(c))
    return out
