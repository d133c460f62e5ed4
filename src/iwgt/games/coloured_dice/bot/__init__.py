"""The built-in Coloured-Dice bot: one ply, every order weighed with the exact odds of its dice.

Its modules, by job:

* ``view``: the observation read into units with their trays, profiles (the armies' data) and worth;
* ``exchange``: what an attack is worth in points from ``odds.py`` (expected models, the chance the target's
  morale breaks, the chance it is destroyed), a fight's exchange with the survivors' strike back;
* ``answers``: hero points, bear wounds, reactions and resisting;
* ``play``: the bot itself (``CdBot.choose``).
"""

from __future__ import annotations

from typing import Any

from iwgt.games.coloured_dice.bot.play import CdBot


def bot_for(game: Any, seed: int = 0) -> CdBot:
    """The Coloured-Dice bot for ``game`` (the plug-in's rules object); ``seed`` breaks its near ties."""
    return CdBot(game, seed=seed)


__all__ = ["CdBot", "bot_for"]
