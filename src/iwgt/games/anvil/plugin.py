"""Forged upon an Anvil's plug-in: every facet the shared layers ask for; the ``anvil`` entry point."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iwgt.core.datafiles import with_top_level
from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, SetupOption, Words, package_web
from iwgt.core.protocol import JSON
from iwgt.games.anvil.facts import FACTS

if TYPE_CHECKING:
    import typer

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter


SETUP_OPTIONS = (
    SetupOption(
        "win",
        "Win by destroying",
        (
            ("scenario", "As the scenario says"),
            ("general", "The General's unit"),
            ("seat", "The Seat of Power"),
        ),
        "scenario",
        "FA-GN-06: in a basic engagement, decide before play whether the enemy General's unit or its Seat of "
        "Power must fall.",
    ),
    SetupOption(
        "premeasure",
        "Premeasuring",
        (("scenario", "As the scenario says"), ("on", "Measure freely"), ("off", "Don't premeasure")),
        "scenario",
        'FA-GN-09: "Don\'t premeasure if you want a more challenging game": no distances or rings on the '
        "screen; an order that falls short goes as far as the unit's move.",
    ),
)
"""The choices a table of Forged upon an Anvil is set up with (the scenario's own values by default)."""


class AnvilPlugin(GamePlugin):
    """Forged upon an Anvil, whole: rules, bot, table adapter, words, catalogue, report, commands, help and
    screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt.games.anvil.game import AnvilGame

        return AnvilGame()

    def bot(self, seed: int = 0) -> Bot:
        """A new bot for one seat (sealed bids by regret matching, activations by look-ahead); ``seed`` varies
        its mixed bids, the game's only free draws (there are no dice)."""
        from iwgt.games.anvil.bot import bot_for

        return bot_for(self.game, seed)

    def build_table(self) -> TableAdapter:
        """The table adapter: lights, options, selections and exact previews."""
        from iwgt.games.anvil.table import AnvilAdapter

        return AnvilAdapter()

    def build_words(self) -> Words:
        """Every action and event in a sentence."""
        from iwgt.games.anvil.words import AnvilWords

        return AnvilWords()

    def catalogue(self) -> JSON:
        """Unit types, stratagems, the matrix and the measures, for the army builder and the menus."""
        from iwgt.games.anvil.catalogue import catalogue

        return catalogue()

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        from iwgt.games.anvil.report import print_events

        return print_events

    def commands(self) -> dict[str, typer.Typer]:
        """``iwgt odds anvil combat`` and ``iwgt units anvil``."""
        from iwgt.games.anvil.cli import commands

        return commands()

    def summary(self, state: Any) -> JSON:
        """Each side's units and HP left on the table and the enemy DCP-worth it destroyed (FA-MS-06)."""
        from iwgt.games.anvil.flow import score

        hp, left = [0, 0], [0, 0]
        for u in state.units:
            if u.on_table:
                hp[u.seat] += u.hp
                left[u.seat] += 1
        return {
            "hp": hp,
            "units_left": left,
            "destroyed_dcp": [score(state, 0), score(state, 1)],
        }

    def setup_options(self) -> tuple[SetupOption, ...]:
        """The players' choices at set-up: the win condition (FA-GN-06) and premeasuring (FA-GN-09)."""
        return SETUP_OPTIONS

    def configure(self, scenario: Any, choices: Mapping[str, str]) -> Any:
        """The scenario with ``win`` and ``premeasure`` as chosen, written into its TOML text."""
        values: dict[str, str | bool] = {}
        if choices.get("win", "scenario") != "scenario":
            values["win"] = choices["win"]
        if choices.get("premeasure", "scenario") != "scenario":
            values["premeasure"] = choices["premeasure"] == "on"
        if not values:
            return scenario
        return self.game.parse_scenario(with_top_level(scenario.source, values), f"{scenario.name} as set up")

    def build_help(self) -> GameHelp:
        """Help at the table: how to play, a topic for everything a player may tap, the first-game guide."""
        from iwgt.games.anvil.help import game_help

        return game_help()

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen."""
        return package_web(__file__)


plugin = AnvilPlugin()
"""The object the ``iwgt.games`` entry point names."""
