"""Games registered by name: each game's plug-in, found through the ``iwgt.games`` entry point group.

This module is the only code that resolves a game by name (DESIGN.md: the shared layers never name a game).
A game's distribution declares ``[project.entry-points."iwgt.games"] <name> = "<module>:plugin"``; the
registry reads the group once, and loads (imports) a plug-in only when that game is first asked for.
``register`` adds a plug-in by hand (a test's own game, a game being developed without an install).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from iwgt.core.plugin import AnyGame, GamePlugin

ENTRY_POINT_GROUP = "iwgt.games"
"""The entry point group every game registers its plug-in under."""

log = logging.getLogger("iwgt.registry")

_FACTORIES: dict[str, Callable[[], GamePlugin]] = {}
_PLUGINS: dict[str, GamePlugin] = {}
_scanned = False


class UnknownGame(KeyError):
    """A game name the table does not have; the message lists the games it has."""

    def __init__(self, name: str) -> None:
        known = ", ".join(game_names()) or "none"
        super().__init__(f"unknown game {name!r}; the games on this table are: {known}")

    def __str__(self) -> str:
        return str(self.args[0])


def _from_entry_point(ep: EntryPoint) -> Callable[[], GamePlugin]:
    def load() -> GamePlugin:
        obj: Any = ep.load()
        plugin = obj() if isinstance(obj, type) else obj
        if not isinstance(plugin, GamePlugin):
            raise TypeError(f"entry point {ep.name!r} ({ep.value}) is not an iwgt GamePlugin")
        if plugin.name != ep.name:
            raise TypeError(f"entry point {ep.name!r} ({ep.value}) names its game {plugin.name!r}")
        return plugin

    return load


def _scan() -> None:
    global _scanned
    if _scanned:
        return
    _scanned = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _FACTORIES:
            log.warning("game %r is registered twice; keeping the first (%s)", ep.name, ep.value)
            continue
        _FACTORIES[ep.name] = _from_entry_point(ep)


def register(name: str, plugin: GamePlugin | Callable[[], GamePlugin]) -> None:
    """Register a game's plug-in (or a factory of it) by hand; a name already taken is refused."""
    _scan()
    if name in _FACTORIES:
        raise ValueError(f"a game named {name!r} is already registered")
    if isinstance(plugin, GamePlugin):
        if plugin.name != name:
            raise ValueError(f"the plug-in names its game {plugin.name!r}, not {name!r}")
        _PLUGINS[name] = plugin
        _FACTORIES[name] = lambda: plugin
    else:
        _FACTORIES[name] = plugin


def unregister(name: str) -> None:
    """Forget a game registered by hand (tests that register a game of their own clean up with this)."""
    _FACTORIES.pop(name, None)
    _PLUGINS.pop(name, None)


def get_plugin(name: str) -> GamePlugin:
    """The plug-in of the game registered under ``name``; an unknown name raises UnknownGame (a KeyError)."""
    _scan()
    if name not in _PLUGINS:
        factory = _FACTORIES.get(name) if isinstance(name, str) else None
        if factory is None:
            raise UnknownGame(str(name))
        _PLUGINS[name] = factory()
    return _PLUGINS[name]


def get_game(name: str) -> AnyGame:
    """The rules of the game registered under ``name``."""
    return get_plugin(name).game


def game_names() -> list[str]:
    """Every registered game's name, sorted."""
    _scan()
    return sorted(_FACTORIES)


def plugins() -> list[GamePlugin]:
    """Every registered game's plug-in, in name order."""
    return [get_plugin(name) for name in game_names()]


def coming_games() -> list[dict[str, str]]:
    """The platform's games still to come (``iwgt/games/coming.toml``), less any now registered."""
    import tomllib
    from importlib.resources import files

    data = tomllib.loads(files("iwgt.games").joinpath("coming.toml").read_text(encoding="utf-8"))
    registered = set(game_names())
    return [
        {"name": str(g["name"]), "title": str(g["title"]), "description": str(g["description"])}
        for g in data.get("coming", [])
        if g["name"] not in registered
    ]
