"""The table of a game whose plug-in brings no adapter: every legal action offered as it is, nothing lit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from iwgt.core.errors import GameError
from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import Light
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import JSON, Seat
from iwgt.core.table import TableAdapter


class PlainTable:
    """An adapter that knows no game: options are the legal actions as JSON; no lights, cards or report."""

    def __init__(self) -> None:
        self._legal = LegalActions()

    def lights(
        self, observation: JSON, events: Sequence[JSON], seat: Seat | None, *, movable: Sequence[int] = ()
    ) -> list[Light]:
        """Nothing lit: a game without an adapter has no places the shell knows how to light."""
        return []

    def options(self, game: AnyGame, state: Any, seat: Seat) -> JSON:
        """Every legal action, as the game writes it."""
        return {
            "movable": [],
            "actions": [game.action_to_json(a) for a in self._legal.get(game, state, seat)],
        }

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """No pieces to pick up: the answer says so."""
        return {
            "type": "selection",
            "unit": unit_id,
            "destinations": [],
            "lights": [],
            "reason": "nothing to pick",
        }

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Whether the action is legal now, and why not."""
        try:
            game.apply(state, game.action_from_json(action))
        except GameError as exc:
            return {"type": "preview", "action": action, "legal": False, "reason": exc.message}
        return {"type": "preview", "action": action, "legal": True, "reason": None}

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """Nothing to light red."""
        return []

    def report(self, observation: JSON, events: Sequence[JSON]) -> JSON | None:
        """No report."""
        return None

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """No cards."""
        return []


def table_of(plugin: GamePlugin) -> TableAdapter:
    """The plug-in's table adapter, or a plain one for a game that brings none."""
    adapter = plugin.table()
    if adapter is None:
        adapter = _PLAIN.setdefault(plugin.name, PlainTable())
    return adapter


_PLAIN: dict[str, PlainTable] = {}
