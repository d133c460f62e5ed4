"""The game selection cards (VX-15-01): every game of the platform, playable or coming."""

from __future__ import annotations

from iwgt.core.protocol import JSON
from iwgt.core.registry import game_names, get_game
from iwgt.server.seats import seat_names_for
from iwgt.server.session import TIMED_PHASES

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
    """The five cards, each with its scenarios (and each scenario's seats) if the game is playable here."""
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
            card["movement_timer"] = name in TIMED_PHASES
            for scen_name in game.scenario_names():
                scen = game.load_scenario(scen_name)
                spec = getattr(scen, "spec", None)
                turns = getattr(scen, "turn_limit", None) or getattr(spec, "turn_limit", None)
                card["scenarios"].append(
                    {
                        "name": scen_name,
                        "title": getattr(spec, "title", scen_name),
                        "turns": turns,
                        "description": getattr(spec, "description", "") or "",
                        "seat_names": list(seat_names_for(game, scen)),
                    }
                )
            if card["scenarios"]:  # the seats of the scenario the set-up panel shows first
                card["seat_names"] = list(card["scenarios"][0]["seat_names"])
        cards.append(card)
    return cards


def game_data(name: str) -> JSON | None:
    """What a touchscreen needs to draw a game's choices (None: no data for this game)."""
    if name == "valhalla":
        return _valhalla_data()
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


def _valhalla_data() -> JSON:
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
