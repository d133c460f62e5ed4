"""What a WarQuest seat may see (wq-spec 3), and the redrawing of what it may not (``resample_hidden``).

Public: the board, gold, VP, power cards held, done quests, scored conquests, the market, the bottom piles,
deck sizes. Secret: each seat's quest and conquest hands (shown to their holder only) and every deck's hidden
order (never shown). The observation never holds a key named ``pending`` (the conformance suite checks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from iwgt.core.protocol import JSON
from iwgt.games.warquest.battle import COMBAT_FACES, FLEE_FACE, HIT_FACE
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.score import SEAT_COLOURS, SEAT_NAMES, sacred, total_vp
from iwgt.games.warquest.state import WqState


def power_json(card: int) -> JSON:
    """A power card's public face."""
    p = rules().powers[card]
    return {"id": card, "key": p.key, "name": p.name, "text": p.text, "cost": p.cost, "event": p.event}


def quest_json(state: WqState, card: int) -> JSON:
    """A quest card's face, with the region of its location on this map."""
    q = rules().quests[card]
    region = load_map(state.scenario.map).location_region.get(q.location)
    return {
        "id": card,
        "key": q.key,
        "name": q.name,
        "monster": q.monster,
        "location": q.location,
        "region": region,
        "vp": q.vp,
        "sacred": q.sacred,
    }


def conquest_json(card: int) -> JSON:
    """A conquest card's face."""
    c = rules().conquests[card]
    return {"id": card, "name": c.name, "text": c.text, "vp": c.vp}


def event_json(card: int) -> JSON:
    """An event card's face."""
    e = rules().events[card]
    return {"id": card, "key": e.key, "name": e.name, "text": e.text}


def _player(state: WqState, seat: int) -> JSON:
    p = state.players[seat]
    c = rules().constants
    return {
        "seat": seat,
        "name": SEAT_NAMES[seat],
        "colour": SEAT_COLOURS[seat],
        "gold": p.gold,
        "vp": total_vp(state, seat),
        "sacred": sacred(state, seat),
        "quests_held": len(p.quests),
        "conquests_held": len(p.conquests),
        "powers": [power_json(x) for x in p.powers],
        "done_quests": [quest_json(state, q) for q in p.done_quests],
        "scored_conquests": [conquest_json(x) for x in p.scored_conquests],
        "battles_won": p.battles_won,
        "lieutenants": state.lieutenants(seat),
        "tokens_left": c.OWNERSHIP_TOKENS - sum(1 for _, s in state.owners if s == seat),
        "extra_action": p.extra_action,
        # the one-shot event power's dice for the next battle: the table's odds read it (powers.side_mods)
        "battle_dice": p.battle_dice,
    }


def _regions(state: WqState) -> list[JSON]:
    owners = state.owner_map()
    ids = load_map(state.scenario.map).geometry.ids
    used = set(owners) | {ld.region for ld in state.leaders} | {t.region for t in state.troops}
    out = []
    for r in ids:
        if r not in used:
            continue
        out.append(
            {
                "id": r,
                "owner": owners.get(r),
                "leaders": [
                    {"id": ld.id, "seat": ld.seat, "rank": ld.rank} for ld in state.leaders if ld.region == r
                ],
                "troops": [
                    {"id": t.id, "kind": t.kind, "seat": t.seat} for t in state.troops if t.region == r
                ],
            }
        )
    return out


def _question(state: WqState) -> JSON | None:
    if not state.pending or state.pending[-1].die is not None:
        return None
    top = state.pending[-1]
    if top.kind == "discard" and top.seat is not None:
        from iwgt.games.warquest import cards

        return {
            "kind": "discard",
            "seat": top.seat,
            "cards": list(cards.discard_choices(state.players[top.seat].powers)),
        }
    return {"kind": top.kind, "seat": top.seat}


def _labels(faces: tuple[int, ...], combat: bool) -> list[Any]:
    # combat dice show their labels ("hit", "flee", "blank"), as in a battle; other dice their numbers
    return [COMBAT_FACES[f - 1] for f in faces] if combat else list(faces)


def _rolling(state: WqState) -> JSON | None:
    if not state.pending or state.pending[-1].die is None:
        return None
    top = state.pending[-1]
    if top.die is None or top.die.secret:
        return {"purpose": top.die.purpose if top.die else top.kind, "dice": 1, "faces": []}
    # ``count`` is the roll's total dice for every entry (the faces so far are ``faces``)
    combat = top.die.faces == COMBAT_FACES
    out: JSON = {"purpose": top.die.purpose, "dice": max(top.count, 1), "faces": _labels(top.faces, combat)}
    if top.seat is not None:
        out["seat"] = top.seat  # whose roll it is (the quester) or whom it strikes (a monster)
    return out


def _last_roll(state: WqState) -> JSON | None:
    last = state.last_roll
    if last is None:
        return None
    out: JSON = {"purpose": last.purpose, "faces": _labels(last.faces, last.combat), "seat": last.seat}
    if last.combat:
        out["hits"] = sum(1 for f in last.faces if f == HIT_FACE)
        out["flees"] = sum(1 for f in last.faces if f == FLEE_FACE)
    else:
        out["total"] = sum(last.faces)
    return out


def observe(state: WqState, seat: int | None) -> JSON:
    """What one seat may see (None: a spectator)."""
    r = rules()
    c = r.constants
    phase = "battle" if state.battle is not None else ("place" if state.phase == "setup" else state.phase)
    pool = {k: t.pool - state.on_board(k) for k, t in r.troops.items()}
    hand: JSON = {"quests": [], "conquests": []}
    if seat is not None and 0 <= seat < state.n:
        p = state.players[seat]
        hand = {
            "quests": [quest_json(state, q) for q in p.quests],
            "conquests": [conquest_json(x) for x in p.conquests],
        }
    d = state.decks
    out: JSON = {
        "game": "warquest",
        "map": state.scenario.map,
        "phase": phase,
        "round": state.round,
        "rounds": state.scenario.rounds,
        "first": state.first,
        "seat": state.seat,
        "actions_left": state.marks.actions_left if state.phase == "turn" else 0,
        "events_left": len(d.events),
        "players": [_player(state, s) for s in range(state.n)],
        "regions": _regions(state),
        "pool": pool,
        "lieutenant_supply": [c.LIEUTENANTS_PER_PLAYER - state.lieutenants(s) for s in range(state.n)],
        "market": [None if x is None else power_json(x) for x in d.market],
        "decks": {
            "quest": len(d.quest) + len(d.quest_bottom),
            "quest_bottom": list(d.quest_bottom),
            "power": len(d.power) + len(d.power_bottom),
            "power_bottom": list(d.power_bottom),
            "conquest": len(d.conquest),
            "events": len(d.events),
        },
        "event": event_json(d.events_done[-1]) if d.events_done else None,
        "marks": {
            "moved": sorted(state.marks.moved),
            "taxed": sorted(state.marks.taxed),
            "bought_power": state.marks.bought_power,
            "quests": state.marks.quests,
        },
        "hand": hand,
        "battle": None,
        "question": _question(state),
        "rolling": _rolling(state),
        "last_roll": _last_roll(state),
        "unlocked": sorted(d.unlocked),
        "wraith": None if state.wraith_seat is None else {"seat": state.wraith_seat},
        "result": None if state.result is None else state.result.to_json(),
    }
    if state.battle is not None:
        from iwgt.games.warquest import battle_flow

        view: Any = battle_flow.battle_view(state)
        if isinstance(view, dict) and set(view) <= {"battle", "question", "rolling", "last_roll"}:
            out.update(view)
        else:
            out["battle"] = view
    return out


def _permute(items: list[int], pick: Callable[[int], int]) -> list[int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = pick(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def resample_hidden(state: WqState, seat: int | None, pick: Callable[[int], int]) -> WqState:
    """Redraw every card the seat cannot know among the places it cannot see (sizes kept): the hidden
    parts of the quest, conquest, power and event decks, the removed events, and the other seats' hands."""
    others = [p for p in state.players if p.seat != seat]
    d = state.decks
    # quests: the hidden deck and the other hands
    pool = _permute(list(d.quest) + [q for p in others for q in p.quests], pick)
    quest_deck, pool = tuple(pool[: len(d.quest)]), pool[len(d.quest) :]
    new_quests: dict[int, tuple[int, ...]] = {}
    for p in others:
        new_quests[p.seat], pool = tuple(pool[: len(p.quests)]), pool[len(p.quests) :]
    pool = _permute(list(d.conquest) + [x for p in others for x in p.conquests], pick)
    conquest_deck, pool = tuple(pool[: len(d.conquest)]), pool[len(d.conquest) :]
    new_conquests: dict[int, tuple[int, ...]] = {}
    for p in others:
        new_conquests[p.seat], pool = tuple(pool[: len(p.conquests)]), pool[len(p.conquests) :]
    power_deck = tuple(_permute(list(d.power), pick))
    ev = _permute(list(d.events) + list(d.events_removed), pick)
    decks = replace(
        d,
        quest=quest_deck,
        conquest=conquest_deck,
        power=power_deck,
        events=tuple(ev[: len(d.events)]),
        events_removed=tuple(ev[len(d.events) :]),
    )
    players = tuple(
        p if p.seat == seat else replace(p, quests=new_quests[p.seat], conquests=new_conquests[p.seat])
        for p in state.players
    )
    return replace(state, decks=decks, players=players)
