"""Games registered by name, as PettingZoo and python-chess variants do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from iwgt.core.protocol import Game

AnyGame = Game[Any, Any]
_FACTORIES: dict[str, Callable[[], AnyGame]] = {}
_INSTANCES: dict[str, AnyGame] = {}


def register(name: str, factory: Callable[[], AnyGame]) -> None:
    """Register a game factory under a name; a second registration of the name is refused."""
    if name in _FACTORIES and _FACTORIES[name] is not factory:
        raise ValueError(f"a game named {name!r} is already registered")
    _FACTORIES[name] = factory


def get_game(name: str) -> AnyGame:
    """The game registered under ``name``; the error lists the known names."""
    if name not in _FACTORIES:
        known = ", ".join(sorted(_FACTORIES)) or "none"
        raise KeyError(f"unknown game {name!r}; known games: {known}")
    if name not in _INSTANCES:
        _INSTANCES[name] = _FACTORIES[name]()
    return _INSTANCES[name]


def game_names() -> list[str]:
    """Every registered game's name, sorted."""
    return sorted(_FACTORIES)
