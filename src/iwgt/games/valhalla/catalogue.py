"""What the touchscreen needs of Valhalla: its figure kinds, its measures and the suit order."""

from __future__ import annotations

from iwgt.core.protocol import JSON


def catalogue() -> JSON:
    """Valhalla's figure kinds (die, armour, shooting, coins), its measures and the suit order."""
    from iwgt.games.valhalla.config import rules

    r = rules()
    return {
        "figures": {
            kind: {
                "name": f.name,
                "letter": f.name[0],
                "die": f.die,
                "save_bonus": f.save_bonus,
                "shoots": f.shoots,
                "killed_coins": f.killed_coins,
                "wounded_coins": f.wounded_coins,
                "withdraw_coins": f.withdraw_coins,
            }
            for kind, f in r.figures.items()
        },
        "measures": {
            "move": r.actions.move,
            "charge": r.actions.charge,
            "withdraw": r.actions.withdraw,
            "zone": r.actions.enemy_zone,
            "close": r.shooting.close,
            "range": r.shooting.range,
            "base_radius": r.table.base_radius,
        },
        "suits": list(r.table.suits),
        "coins_per_player": r.table.coins_per_player,
    }
