"""Valhalla's plug-in: every facet the shared layers ask for; the ``valhalla`` entry point."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, Words, package_web
from iwgt.core.protocol import JSON
from iwgt.games.valhalla.facts import FACTS

if TYPE_CHECKING:
    import typer

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter


class ValhallaPlugin(GamePlugin):
    """Valhalla, whole: rules, bot, table adapter, words, catalogue, report, commands and screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt.games.valhalla.game import ValhallaGame

        return ValhallaGame()

    def bot(self, seed: int = 0) -> Bot:
        """A new heuristic bot for one seat (it draws nothing: the dice vary its games, not ``seed``)."""
        from iwgt.games.valhalla.bot import bot_for

        return bot_for(self.game)

    def build_table(self) -> TableAdapter:
        """The table adapter."""
        from iwgt.games.valhalla.table import ValhallaAdapter

        return ValhallaAdapter()

    def build_words(self) -> Words:
        """Every action and event in a sentence."""
        from iwgt.games.valhalla.words import ValhallaWords

        return ValhallaWords()

    def catalogue(self) -> JSON:
        """What the touchscreen draws the game's choices from."""
        from iwgt.games.valhalla.catalogue import catalogue

        return catalogue()

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        from iwgt.games.valhalla.report import print_events

        return print_events

    def commands(self) -> dict[str, typer.Typer]:
        """The game's own commands."""
        from iwgt.games.valhalla.cli import commands

        return commands()

    def summary(self, state: Any) -> JSON:
        """Each side's coins at the end (VH-WL-01..08)."""
        return {"coins": list(state.coins)}

    def build_help(self) -> GameHelp:
        """Help at the table: how to play, a topic for everything a player may tap, the first-game guide."""
        from iwgt.games.valhalla.help import game_help

        return game_help()

    def notation(self, state: Any) -> str:
        """The position in the game's one-line notation (grammar: ``iwgt.games.valhalla.notation``)."""
        from iwgt.games.valhalla.notation import notation

        return notation(state)

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen."""
        return package_web(__file__)


plugin = ValhallaPlugin()
"""The object the ``iwgt.games`` entry point names."""
