"""Pig's plug-in: the object the ``pig`` entry point of the ``iwgt.games`` group names.

It brings the rules, a bot, its words, a headless report and a browser screen. It brings no table adapter:
the server then uses the plain one (``iwgt.table.plain``), which offers the legal actions as JSON and lights
nothing, which is all a game without a board needs. No catalogue and no extra commands either.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, Words, package_web
from iwgt.core.protocol import JSON, Event, Seat
from iwgt_pig.facts import FACTS
from iwgt_pig.words import PigWords

if TYPE_CHECKING:
    from rich.console import Console


class HoldBot:
    """Rolls until the turn's total reaches ``threshold`` or would win, then holds."""

    def __init__(self, threshold: int = 20) -> None:
        self.threshold = threshold

    def choose(self, state: Any, seat: Seat) -> Any:
        """Hold at the threshold or at what wins; else roll (the first roll of a turn always)."""
        from iwgt_pig.rules import Hold, Roll

        total = state.turn_total
        wins = state.scores[seat] + total >= state.scenario.spec.target
        return Hold() if total > 0 and (total >= self.threshold or wins) else Roll()


def print_events(console: Console, state: Any, events: list[Event]) -> list[Event]:
    """Each roll, lost turn, hold and the win in one line, in the game's words; nothing is kept for later."""
    from rich.markup import escape

    obs = plugin.game.observe(state, None)
    for e in events:
        said = WORDS.event(e, obs, None)
        if said:
            console.print(escape(said))
    return []


WORDS = PigWords()


class PigPlugin(GamePlugin):
    """Pig, whole: rules, bot, words, report and screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt_pig.rules import PigGame

        return PigGame()

    def bot(self, seed: int = 0) -> Bot:
        """A new bot for one seat: hold at 20 or at what wins (it draws nothing, so ``seed`` is not used)."""
        return HoldBot()

    def build_words(self) -> Words:
        """Every event in a sentence."""
        return WORDS

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        return print_events

    def summary(self, state: Any) -> JSON:
        """Every seat's final score."""
        return {"scores": list(state.scores)}

    @property
    def web(self) -> Path | None:
        """The folder of the browser screen (``web/screen.js``)."""
        return package_web(__file__)


plugin = PigPlugin()
"""The object the ``iwgt.games`` entry point names."""
