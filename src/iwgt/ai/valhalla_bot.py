"""A placeholder Valhalla bot (being replaced): the first legal action that is not the pass."""

from __future__ import annotations

from typing import Any

from iwgt.core.protocol import Seat


class ValhallaBot:
    """Takes the first legal action other than ending the activation."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def choose(self, state: Any, seat: Seat) -> Any:
        """The first legal action."""
        actions = list(self.game.legal_actions(state, seat))
        return actions[0]


def bot_for(game: Any) -> ValhallaBot:
    """The Valhalla bot."""
    return ValhallaBot(game)
