"""Days of the Valkyrx's plug-in: every facet the shared layers ask for; the ``valkyrx`` entry point."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, Words, package_web
from iwgt.core.protocol import JSON
from iwgt.games.valkyrx.facts import FACTS

if TYPE_CHECKING:
    import typer

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter


class ValkyrxPlugin(GamePlugin):
    """Days of the Valkyrx, whole: rules, bot, table adapter, words, catalogue, report, commands, screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt.games.valkyrx.game import ValkyrxGame

        return ValkyrxGame()

    def bot(self, seed: int = 0) -> Bot:
        """A new heuristic bot for one seat (it draws nothing: the dice vary its games, not ``seed``)."""
        from iwgt.games.valkyrx.bot import bot_for

        return bot_for(self.game)

    def build_table(self) -> TableAdapter:
        """The table adapter."""
        from iwgt.games.valkyrx.table import ValkyrxAdapter

        return ValkyrxAdapter()

    def build_words(self) -> Words:
        """Every action and event in a sentence."""
        from iwgt.games.valkyrx.words import ValkyrxWords

        return ValkyrxWords()

    def catalogue(self) -> JSON:
        """What the touchscreen draws the game's choices from."""
        from iwgt.games.valkyrx.catalogue import catalogue

        return catalogue()

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        from iwgt.games.valkyrx.report import print_events

        return print_events

    def commands(self) -> dict[str, typer.Typer]:
        """The game's own commands."""
        from iwgt.games.valkyrx.cli import commands

        return commands()

    def build_help(self) -> GameHelp:
        """Help at the table: how to play, a topic for everything a player may tap, the first-game guide."""
        from iwgt.games.valkyrx.help import game_help

        return game_help()

    def notation(self, state: Any) -> str:
        """The position in the game's one-line notation (grammar: ``iwgt.games.valkyrx.notation``)."""
        from iwgt.games.valkyrx.notation import notation

        return notation(state)

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen."""
        return package_web(__file__)


plugin = ValkyrxPlugin()
"""The object the ``iwgt.games`` entry point names."""
