"""The game selection cards (VX-15-01): every game of the platform, playable or coming."""

from __future__ import annotations

from iwgt.core.protocol import JSON
from iwgt.core.registry import game_names, get_game

_CARDS: tuple[tuple[str, str, str], ...] = (
    ("valkyrx", "Days of the Valkyrx", "War against the Demon King on hex cells: wizards, dragons, plague."),
    ("valhalla", "Valhalla", "A skirmish in inches: card activation, opposed dice and the Dice of Death."),
    ("anvil", "Forged upon an Anvil", "Command points, blind bids and the Combat Resolution Matrix."),
    ("warquest", "WarQuest", "Conquest on a region map: gold, quests and four decks of cards."),
    (
        "coloured_dice",
        "Coloured-Dice Fantasy Battle Rules",
        "The Finnish rules: eight coloured dice, range bands, magic and reactions.",
    ),
)


def game_cards() -> list[JSON]:
    """The five cards, each with its scenarios if the game is playable on this table."""
    playable = set(game_names())
    cards: list[JSON] = []
    for name, title, blurb in _CARDS:
        card: JSON = {
            "name": name,
            "title": title,
            "blurb": blurb,
            "playable": name in playable,
            "scenarios": [],
        }
        if name in playable:
            game = get_game(name)
            card["title"] = game.title
            card["seat_names"] = list(game.seat_names)
            for scen_name in game.scenario_names():
                scen = game.load_scenario(scen_name)
                spec = getattr(scen, "spec", None)
                card["scenarios"].append(
                    {
                        "name": scen_name,
                        "title": getattr(spec, "title", scen_name),
                        "turns": getattr(scen, "turn_limit", None),
                    }
                )
        cards.append(card)
    return cards


def game_data(name: str) -> JSON | None:
    """What a touchscreen needs to draw a game's choices: its spells and wizards' packs (None: no data)."""
    if name != "valkyrx":
        return None
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
