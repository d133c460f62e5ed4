"""What a seat sees of a game of Valhalla: all of it (cards face up, VH-MS-05 decided), as JSON."""

from __future__ import annotations

from shapely.geometry import Polygon

from iwgt.core.protocol import JSON, Seat
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.state import ValhallaState, card_label


def _xy(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 2), round(p[1], 2)]


def _outline(shape: object) -> list[list[float]]:
    """A polygon's outline as points (empty if the shape is not one polygon)."""
    if not isinstance(shape, Polygon) or shape.is_empty:
        return []
    return [[round(x, 2), round(y, 2)] for x, y in shape.exterior.coords]


def table_json(state: ValhallaState) -> JSON:
    """The table and its terrain, for drawing it."""
    g = state.scenario.ground
    spec = state.scenario.spec
    return {
        "width": g.width,
        "height": g.height,
        "areas": [{"kind": a.kind, "name": a.name, "outline": [_xy(p) for p in a.outline]} for a in g.areas],
        "hills": [
            {
                "name": h.name,
                "height": h.height,
                "slope": h.slope,
                "outline": [_xy(p) for p in h.outline],
                "crest": _outline(h.crest),
            }
            for h in g.hills
        ],
        "obstacles": [
            {"kind": o.kind, "name": o.name, "line": [_xy(p) for p in o.line]} for o in g.obstacles
        ],
        "zones": [
            {"objective": i, "side": o.side, "outline": [_xy(p) for p in o.zone]}
            for i, o in enumerate(spec.objectives)
            if o.zone
        ],
    }


def observe(state: ValhallaState, seat: Seat | None) -> JSON:
    """The whole public state: the table, figures, things, cards, activation, coins and the result."""
    spec = state.scenario.spec
    r = rules()
    current = state.current
    targets = [r.table.coins_per_player * len(state.scenario.side_seats(s)) for s in (0, 1)]
    return {
        "game": "valhalla",
        "scenario": spec.name,
        "title": spec.title,
        "seat": seat,
        "turn": state.turn,
        "turn_limit": spec.turn_limit,
        "phase": state.phase,
        "table": table_json(state),
        "base_radius": r.table.base_radius,
        "rings": {
            "move": r.actions.move,
            "close": r.shooting.close,
            "range": r.shooting.range,
            "zone": r.actions.enemy_zone,
            "charge": r.actions.charge,
        },
        "sides": [
            {
                "name": s.name,
                "colour": s.colour,
                "coins": state.coins[i],
                "target": targets[i],
                "seats": list(state.scenario.side_seats(i)),
            }
            for i, s in enumerate(spec.sides)
        ],
        "players": [
            {
                "seat": i,
                "name": p.name,
                "side": p.side,
                "cards": [
                    {
                        "card": c,
                        "label": card_label(c),
                        "played": any(c == o[0] for o in state.order[: state.card_index]),
                    }
                    for c in (state.hands[i] if i < len(state.hands) else ())
                ],
            }
            for i, p in enumerate(spec.players)
        ],
        "figures": [
            {
                "id": f.id,
                "seat": f.seat,
                "side": f.side,
                "kind": f.kind,
                "name": f.name,
                "at": _xy(f.at),
                "shock": f.shock,
                "wounds": f.wounds,
                "alive": f.alive,
                "activated": f.activated,
                "carrying": f.carrying,
                "in_combat": state.engaged(f.id),
                "cover": state.scenario.ground.in_cover(f.at),
                "ground": state.scenario.ground.kind_at(f.at),
            }
            for f in state.figures
        ],
        "things": [
            {
                "id": t.id,
                "name": t.name,
                "at": _xy(t.at),
                "radius": t.radius,
                "baggage_side": t.baggage_side,
                "carrier": t.carrier,
            }
            for t in state.things
        ],
        "objectives": [
            {"id": i, "side": o.side, "kind": o.kind, "title": o.title, "achieved": i in state.achieved}
            for i, o in enumerate(spec.objectives)
        ],
        "order": [{"card": c, "label": card_label(c), "seat": s} for c, s in state.order],
        "card_index": state.card_index,
        "card_up": None
        if current is None
        else {"card": current[0], "label": card_label(current[0]), "seat": current[1]},
        "active": state.active,
        "actions_left": max(0, state.allowance - state.actions_used) if state.active is not None else None,
        "withdrew": state.withdrew,
        "engagements": [[e.charger, e.charged] for e in state.engagements],
        "baggage_up": state.baggage_queue[0] if state.phase == "baggage" and state.baggage_queue else None,
        "result": None if state.phase != "over" else {"side": state.winner_side, "reason": state.over_reason},
    }


def state_to_json(state: ValhallaState) -> JSON:
    """The whole state (nothing is hidden; the deck's remaining cards are listed, not their order)."""
    out = observe(state, None)
    out["deck"] = list(state.deck)
    out["to_deal"] = list(state.to_deal)
    out["fight"] = (
        None
        if state.fight is None
        else [state.fight.attacker, state.fight.defender, state.fight.charging, state.fight.attacker_face]
    )
    out["shot"] = None if state.shot is None else [state.shot.shooter, state.shot.target, state.shot.needs]
    out["saves"] = list(state.saves)
    out["achieved"] = sorted(state.achieved)
    return out
