"""The Coloured-Dice Fantasy Battle Rules' plug-in: every facet the shared layers ask for; the
``coloured-dice`` entry point."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from iwgt.core.datafiles import with_top_level
from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, SetupOption, Words, package_web
from iwgt.core.protocol import JSON
from iwgt.games.coloured_dice.facts import FACTS

if TYPE_CHECKING:
    import typer

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter

ROUND_CHOICES: Final = (4, 6, 8, 10)
"""The battle lengths a table may choose instead of the scenario's (CD-MS-02 designed: 6 as a rule)."""

SETUP_OPTIONS: Final = (
    SetupOption(
        "rounds",
        "Rounds",
        (("scenario", "As the scenario says"), *((str(n), f"{n} rounds") for n in ROUND_CHOICES)),
        "scenario",
        "CD-MS-02 (designed): the battle lasts so many rounds; after the last, more victory points win.",
    ),
    SetupOption(
        "first",
        "First turn",
        (("scenario", "As the scenario says"), ("0", "The first side"), ("1", "The second side")),
        "scenario",
        "CD-MS-02 (designed): which side takes the first turn of every round.",
    ),
)
"""The choices a table of the Coloured-Dice rules is set up with (the scenario's own values by default).
The dice, the table's or the players' own, are a choice every game shares."""


class CdPlugin(GamePlugin):
    """The Coloured-Dice Fantasy Battle Rules, whole: rules, bot, table adapter, words, catalogue, report,
    commands, help and screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt.games.coloured_dice.game import CdGame

        game: AnyGame = CdGame()
        return game

    def bot(self, seed: int = 0) -> Bot:
        """A new bot for one seat (the exact odds of each attack, from its own observation); ``seed`` varies
        its free choices."""
        from iwgt.games.coloured_dice.bot import bot_for

        bot: Bot = bot_for(self.game, seed)
        return bot

    def build_table(self) -> TableAdapter:
        """The table adapter: lights, options, selections with range bands and odds, the dice report."""
        from iwgt.games.coloured_dice.table import CdAdapter

        return CdAdapter()

    def build_words(self) -> Words:
        """Every action and event in a sentence."""
        from iwgt.games.coloured_dice.words import CdWords

        return CdWords()

    def catalogue(self) -> JSON:
        """The dice, the armies' unit types, weapons, orders, terrain and magic, for the screen and menus."""
        from iwgt.games.coloured_dice.catalogue import catalogue

        return catalogue()

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        from iwgt.games.coloured_dice.report import print_events

        return print_events

    def commands(self) -> dict[str, typer.Typer]:
        """``iwgt odds coloured-dice pool`` and ``iwgt units coloured-dice``."""
        from iwgt.games.coloured_dice.catalogue import units_app
        from iwgt.games.coloured_dice.cli import commands

        return {**commands(), "units": units_app}

    def summary(self, state: Any) -> JSON:
        """Each side's victory points (enemy points destroyed or routed and objectives, CD-MS-06 designed),
        points lost, general morale, units and models left on the table."""
        from iwgt.games.coloured_dice.flow import points_lost, victory_points

        units, models = [0, 0], [0, 0]
        for u in state.units:
            if u.on_table:
                units[u.seat] += 1
                models[u.seat] += u.models
        return {
            "vp": [victory_points(state, 0), victory_points(state, 1)],
            "points_lost": [points_lost(state, 0), points_lost(state, 1)],
            "general_morale": list(state.general_morale),
            "units_left": units,
            "models_left": models,
        }

    def setup_options(self) -> tuple[SetupOption, ...]:
        """The players' choices at set-up: the battle's rounds and who moves first (CD-MS-02 designed)."""
        return SETUP_OPTIONS

    def configure(self, scenario: Any, choices: Mapping[str, str]) -> Any:
        """The scenario with ``rounds`` and ``first`` as chosen, written into its TOML text."""
        values: dict[str, str | bool | int] = {}
        for key in ("rounds", "first"):
            if choices.get(key, "scenario") != "scenario":
                values[key] = int(choices[key])
        if not values:
            return scenario
        return self.game.parse_scenario(with_top_level(scenario.source, values), f"{scenario.name} as set up")

    def build_help(self) -> GameHelp:
        """Help at the table: how to play, a topic for every die, kind of ground, unit type and idea."""
        from iwgt.games.coloured_dice.help import game_help

        return game_help()

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen."""
        return package_web(__file__)


plugin = CdPlugin()
"""The object the ``iwgt.games`` entry point names."""
