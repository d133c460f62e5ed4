"""The built-in Forged upon an Anvil bot: sealed bids solved as games, activations planned by look-ahead.

Its modules, by job:

* ``bids``: a sealed bid is a small matrix game: the terrain bid zero-sum, solved by regret matching (RM+);
  the turn bid general-sum (a tie that burns both sides' CP is bad for both), solved for its logit
  equilibrium, a first tie as the re-bid game with both limits lowered, a second tie standing (FA-GT-04/05);
* ``evaluation``: what a position is worth to a seat (material by HP and unit worth, the win condition,
  threats by the printed matrix cell of the side each attacker would strike, progress, CP left);
* ``field``: the army list from the DCP budget, the terrain features and the Seat of Power;
* ``search``: the bot itself: it reads only its own seat's knowledge (the hidden facts are redrawn to a fixed
  stand-in before it looks), plans each activation a few actions deep with the engine's own ``apply`` (so
  every combat it foresees is the exact matrix outcome, bounce backs and chains included), answers the
  opponent's interruptions in its look-ahead as worst for itself, and takes its own (Counterattack, Hero of
  the Day, Dispel) when they pay.
"""

from __future__ import annotations

from typing import Any

from iwgt.games.anvil.bot.search import AnvilBot


def bot_for(game: Any, seed: int = 0) -> AnvilBot:
    """The Forged upon an Anvil bot for ``game`` (the plug-in's rules object); ``seed`` varies its bids."""
    return AnvilBot(game, seed=seed)


__all__ = ["AnvilBot", "bot_for"]
