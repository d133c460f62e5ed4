"""What the touchscreen needs of Days of the Valkyrx to draw its choices: spells, packs, unit traits."""

from __future__ import annotations

from iwgt.core.protocol import JSON


def catalogue() -> JSON:
    """The spells (section 11), each wizard's default pack, and each unit type's name and traits."""
    from iwgt.games.valkyrx.spellbook import spell_table
    from iwgt.games.valkyrx.units import unit_types

    data = spell_table()
    return {
        "spells": [
            {
                "id": s.id,
                "name": s.name,
                "red": s.red,
                "range": s.range,
                "duration": s.duration,
                "timing": s.timing,
                "effect": s.effect,
            }
            for s in data.spell
        ],
        "packs": {wizard: list(pack) for wizard, pack in data.packs.items()},
        "units": {
            t.id: {
                "name": t.name,
                "character": t.is_character,
                "flyer": t.has("flyer"),
                "wizard": t.has("wizard"),
                "master": t.has("master_wizard"),
                "stealth": t.has("stealth"),
                "burrower": t.has("burrower"),
            }
            for t in unit_types().values()
        },
    }
