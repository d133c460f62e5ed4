"""The built-in bot of each game, found by the game's name."""

from __future__ import annotations

from typing import Any, Protocol

from iwgt.core.protocol import Seat


class Bot(Protocol):
    """A bot: given a state and its seat, the action it takes (it reads only its observation)."""

    def choose(self, state: Any, seat: Seat) -> Any:
        """The bot's action for the seat now."""
        ...


def bot_for(game: Any) -> Bot:
    """The built-in bot for a game object; a game without one raises TypeError."""
    if game.name == "valkyrx":
        from iwgt.ai.valkyrx_bot import bot_for as valkyrx_bot

        return valkyrx_bot(game)
    if game.name == "valhalla":
        from iwgt.ai.valhalla_bot import bot_for as valhalla_bot

        return valhalla_bot(game)
    raise TypeError(f"there is no built-in bot for {game.name}")
