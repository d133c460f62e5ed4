"""The seats of a table: how many, and their names, for a game and the scenario it is played in."""

from __future__ import annotations

from typing import Any

from iwgt.core.protocol import Scenario
from iwgt.core.registry import AnyGame


def seat_names_for(game: AnyGame, scenario: Scenario) -> tuple[str, ...]:
    """Each seat's name for this scenario: the game's ``seats(scenario)`` where it has one (Valhalla: one seat
    per player, as many as the scenario lists), else its fixed ``seat_names`` (Days of the Valkyrx)."""
    seats: Any = getattr(game, "seats", None)
    if callable(seats):
        return tuple(str(name) for name in seats(scenario))
    return tuple(game.seat_names)
