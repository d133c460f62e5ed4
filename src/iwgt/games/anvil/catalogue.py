"""What the touchscreen needs of Forged upon an Anvil: the unit types for the army builder (Move, HP, DCP,
availability, the stratagems each may take), every stratagem with its cost, users and list (for the army
builder's deployment stratagems and the activation's stratagem menus), the matrix, and the measures the
screen draws (tray, ranges, gaps); ``action_keys`` maps a ``stratagem`` action's key to its data key
(``fly_burrow`` is ``fly``), by which the stratagems and their help topics are keyed. All of it read from
``data/rules.toml``: ``GET /api/games/anvil/data``."""

from __future__ import annotations

from iwgt.core.protocol import JSON
from iwgt.games.anvil.rules import FIGHTING_TYPES, SIDES, UNIT_TYPES, rules


def catalogue() -> JSON:
    """The unit types, the stratagems by list, the matrix and the measures, as JSON."""
    r = rules()
    c = r.constants
    units: JSON = {}
    for unit in UNIT_TYPES:
        p, d = r.units[unit], r.deployment[unit]
        units[unit] = {
            "name": p.name,
            "plural": p.plural,
            "letter": p.name[0],
            "move": p.move,
            "hp": p.hp,
            "dcp": d.dcp,
            "availability": {"op": d.op, "percent": d.percent, "count": d.count, "clause": d.clause},
            "clause": p.clause,
            "stratagems": [k for k, s in r.stratagems.items() if unit in s.users],
        }
    stratagems: JSON = {
        key: {
            "name": s.name,
            "cost": s.cost,
            "currency": s.currency,
            "group": s.group,
            "users": list(s.users),
            "requires": list(s.requires),
            "or_general": s.or_general,
            "printed_users": s.printed_users,
            "range": s.range,
            "clauses": list(s.clauses),
        }
        for key, s in r.stratagems.items()
    }
    groups: JSON = {}
    for key, s in r.stratagems.items():
        groups.setdefault(s.group, []).append(key)
    matrix: JSON = {
        att: {
            dfn: {
                **{side: (None if getattr(cell, side) == "NATE" else getattr(cell, side)) for side in SIDES},
                "bounce": cell.bounce,
                "clause": cell.clause,
            }
            for dfn, cell in r.matrix[att].items()
        }
        for att in FIGHTING_TYPES
    }
    from iwgt.games.anvil.stratagems import TOGGLES

    return {
        "version": r.version,
        "action_keys": dict(TOGGLES),
        "units": units,
        "unit_order": list(UNIT_TYPES),
        "stratagems": stratagems,
        "groups": groups,
        "matrix": matrix,
        "measures": {
            "tray": list(c.tray),
            "figures": c.figures,
            "terrain_bid": c.terrain_bid,
            "turn_cp": c.turn_cp,
            "terrain_gap": c.terrain_gap,
            "seat_zone": c.seat_zone,
            "enemy_gap": c.enemy_gap,
            "bounce_back": c.bounce_back,
            "ballistics": {
                "rear": c.ballistics_rear,
                "flank": c.ballistics_flank,
                "front": c.ballistics_front,
            },
            "flanking_fraction": c.flanking_fraction,
            "infiltrate_gaps": list(c.infiltrate_gaps),
        },
    }
