"""The game selection cards (VX-15-01): every registered game with its scenarios, then the games to come."""

from __future__ import annotations

from iwgt.core.protocol import JSON
from iwgt.core.registry import UnknownGame, coming_games, get_plugin, plugins


def game_cards() -> list[JSON]:
    """A card per game: its declared facts and each scenario's card (with its seats); games to come last."""
    cards: list[JSON] = []
    for plugin in plugins():
        game, facts = plugin.game, plugin.facts
        timer = facts.movement_timer
        scenarios = [game.scenario_card(game.load_scenario(n)).to_json() for n in game.scenario_names()]
        cards.append(
            {
                "name": facts.name,
                "title": facts.title,
                "blurb": facts.description,
                "facts": facts.to_json(),
                "playable": True,
                "screen": plugin.web is not None,
                "movement_timer": timer is not None,
                "timer_seconds": None if timer is None else timer.seconds,
                "scenarios": scenarios,
                "setup_options": [o.to_json() for o in plugin.setup_options()],
                # the seats of the scenario the set-up panel shows first
                "seat_names": list(scenarios[0]["seat_names"]) if scenarios else [],
            }
        )
    for coming in coming_games():
        cards.append(
            {
                "name": coming["name"],
                "title": coming["title"],
                "blurb": coming["description"],
                "playable": False,
                "scenarios": [],
            }
        )
    return cards


def game_data(name: str) -> JSON | None:
    """What a touchscreen needs to draw a game's choices (None: no such game, or no data for it)."""
    try:
        plugin = get_plugin(name)
    except UnknownGame:
        return None
    return plugin.catalogue()
