"""The table of a game whose plug-in brings no adapter (every legal action offered as it is, nothing lit),
and the words of a game whose plug-in brings none (the bare names of its actions and events)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from iwgt.core.errors import GameError
from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import Light
from iwgt.core.plugin import AnyGame, GamePlugin, Words
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import TableAdapter


class PlainTable:
    """An adapter that knows no game: options are the legal actions as JSON; no lights, cards or report."""

    def __init__(self) -> None:
        self._legal = LegalActions()

    def lights(
        self, observation: JSON, events: Sequence[Event], seat: Seat | None, *, movable: Sequence[int] = ()
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

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
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


class PlainWords:
    """Words for a game that brings none: "Seat 1: end phase.", "Unit moved." (better than silence)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """The seat and the action's type in words."""
        kind = str(action.get("type", "")).replace("_", " ").strip()
        return f"Seat {actor}: {kind or 'acts'}."

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's class name in words; nothing for an event the seat may not see."""
        if not event.visible_to(seat):
            return None
        spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", event.kind)
        return spaced[:1].upper() + spaced[1:].lower() + "."


_PLAIN_WORDS = PlainWords()


def words_of(plugin: GamePlugin) -> Words:
    """The plug-in's words, or plain ones for a game that brings none."""
    return plugin.words() or _PLAIN_WORDS
