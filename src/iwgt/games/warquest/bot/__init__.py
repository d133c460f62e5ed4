"""The built-in WarQuest bot: its turn's actions planned one at a time over a value of the position, its
battles weighed by the exact odds.

Its modules, by job:

* ``view``: what the seat knows, read into a value of the position (VP, gold, armies, regions, the
  conquest cards' progress, the quests in hand by their roll's chance and their distance);
* ``battle``: the battle answers, and the judgement of a fight before the move that starts it;
* ``plan``: the bot itself (``WqBot.choose``): placing, discarding, and each action of its turn.
"""

from __future__ import annotations

from typing import Any

from iwgt.games.warquest.bot.plan import WqBot


def bot_for(game: Any, seed: int = 0) -> WqBot:
    """The WarQuest bot for ``game`` (the plug-in's rules object); ``seed`` drives its redrawing of hidden
    cards and breaks its near ties."""
    return WqBot(game, seed=seed)


__all__ = ["WqBot", "bot_for"]
