"""Help at the table over HTTP: ``GET /api/games/{game}/help`` answers the game's help (``core/help.py``)."""

from __future__ import annotations

from iwgt.core.help import no_help
from iwgt.core.protocol import JSON
from iwgt.core.registry import UnknownGame, get_plugin


def game_help(name: str) -> JSON | None:
    """A game's help as JSON (empty lists for a game that has none), or None if there is no such game."""
    try:
        plugin = get_plugin(name)
    except UnknownGame:
        return None
    found = plugin.help()
    return (found or no_help(plugin.facts.name, plugin.facts.title)).to_json()
