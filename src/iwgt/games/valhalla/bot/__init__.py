"""The built-in Valhalla bot: weighs every activation it may take by expected coins and a position score.

Valhalla hides nothing (VH-MS-05 decided: cards face up, every figure, hurt and coin in plain view), so the
bot reads the public state directly for its geometry and never anything else (the undealt deck's order is
not even in the state). It asks ``legal_actions`` once per decision; any other point it moves to is checked
with the engine's own ``why_not_move``, so ``apply`` accepts every action it returns.

Its modules, by job (as OpenSpiel keeps evaluators apart from search bots):

* ``navigation``: where a figure can get to. Walking-distance fields that go round fences and hedges, the
  reach of a move and a charge, and the spots worth moving to (each enemy's 2" zone, exact spots to charge
  from, range bands, things, objectives, cover, away from the nearest enemy), each checked by the engine.
* ``evaluation``: what a position or a plan is worth in coins. A charge, a continued fight or a shot is worth
  its exact expected value, from the engine's own odds (``combat_odds``, ``shoot_odds``, the same
  ``fighter`` modifiers the referee uses); a dead hero is a lost fighter as well as three coins; shock and
  wounds cost for as long as they last. A position is worth the threats it makes and faces: each enemy that
  can reach it (a move and a 2" charge, or a shot) and would gain by attacking counts against it, for what it
  offers that enemy beyond our other figures (an enemy strikes only one) and weighted by whether that enemy
  still acts this turn; a target it can strike next activation counts for it; heroes and warriors are drawn
  towards the target they beat best, archers and slingers into range; objectives pull the figure that should
  fetch, carry, reach or plunder along the walking-distance field, and a carrier is worth charging, shooting
  or pinning in combat for the objective it would stop.
* ``search``: the planner. When a card comes up it plans each figure's activation one or two actions deep
  (move then charge, move then shoot, shoot then step back, pick up then carry, withdraw then shoot...), and
  activates the figure whose best plan gains most over standing still; with no gain anywhere it lets the
  card pass. The second action is planned afresh once the first is done, and the activation ends when
  nothing left would improve the position (a second move into danger is not made). The states a plan passes
  through are made by the rules' own functions, so the bot never plans with rules the engine has left.

Every choice is a fixed computation with fixed tie-breaks (the first best in a fixed order wins), so the
same position always gets the same answer.
"""

from __future__ import annotations

from typing import Any

from iwgt.games.valhalla.bot.search import ValhallaBot


def bot_for(game: Any) -> ValhallaBot:
    """The Valhalla bot."""
    return ValhallaBot(game)


__all__ = ["ValhallaBot", "bot_for"]
