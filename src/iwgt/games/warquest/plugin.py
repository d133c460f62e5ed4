"""WarQuest's plug-in: every facet the shared layers ask for; the ``warquest`` entry point.

Everything is built lazily (the rules, the table adapter, the words, the help), so listing the games reads
only ``facts.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from iwgt.core.datafiles import with_top_level
from iwgt.core.errors import MalformedAction
from iwgt.core.plugin import AnyGame, Bot, GamePlugin, ReportPrinter, SetupOption, Words, package_web
from iwgt.core.protocol import JSON
from iwgt.games.warquest.facts import FACTS, MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    import typer

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter

ROUND_CHOICES: Final = (6, 10, 15, 25)
"""The game lengths a table may choose instead of the scenario's, in rounds (designed: the publisher's "pre-
determined number of turns"; 25 rounds is the whole active event deck, WQ-SU-07, WQ-MS-39)."""

PLAYER_CHOICES: Final = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
"""The numbers of warlords a table may seat instead of the scenario's (WQ-MS-44 decided: 2 to 5)."""

SETUP_OPTIONS: Final = (
    SetupOption(
        "players",
        "Warlords",
        (("scenario", "As the scenario says"), *((str(n), str(n)) for n in PLAYER_CHOICES)),
        "scenario",
        "WQ-MS-44 (decided): 2 to 5 warlords; a map states how many it suits (the small map seats two).",
    ),
    SetupOption(
        "rounds",
        "Rounds",
        (("scenario", "As the scenario says"), *((str(n), str(n)) for n in ROUND_CHOICES)),
        "scenario",
        "WQ-MS-39 (designed): the game ends after so many rounds at the latest, or when the 25 events are "
        "spent, or when a warlord completes four sacred quests; then the most victory points win.",
    ),
)
"""The choices a WarQuest table is set up with (the scenario's own values by default); the numbers are the
labels, the titles say what they count (short labels keep each choice on one line of the lobby)."""


def seats_allowed(map_key: str) -> tuple[int, int]:
    """The numbers of warlords a map seats: from 2 (WQ-MS-44: two may play on any map) up to the most the
    map states (``[map] players``)."""
    from iwgt.games.warquest.maps import load_map

    low, high = load_map(map_key).players
    return (min(MIN_PLAYERS, low), high)


class WqPlugin(GamePlugin):
    """WarQuest, whole: rules, bot, table adapter, words, catalogue, report, commands, help and screen."""

    facts = FACTS

    def build_game(self) -> AnyGame:
        """The rules."""
        from iwgt.games.warquest.game import WqGame

        game: AnyGame = WqGame()
        return game

    def bot(self, seed: int = 0) -> Bot | None:
        """A new bot for one seat (plans its three actions from its own observation); ``seed`` varies its
        free choices."""
        from iwgt.games.warquest.bot import bot_for

        bot: Bot = bot_for(self.game, seed)
        return bot

    def build_table(self) -> TableAdapter:
        """The table adapter: region lights, options, a leader's destinations, previews (a move into battle
        with its odds)."""
        from iwgt.games.warquest.table import WqAdapter

        return WqAdapter()

    def build_words(self) -> Words:
        """Every action and event in a sentence."""
        from iwgt.games.warquest.words import WqWords

        return WqWords()

    def catalogue(self) -> JSON:
        """Both maps' drawing data, the troops, the locations and the public card texts."""
        from iwgt.games.warquest.catalogue import catalogue

        return catalogue()

    def report(self) -> ReportPrinter:
        """The turn-by-turn report of a headless game."""
        from iwgt.games.warquest.report import print_events

        return print_events

    def commands(self) -> dict[str, typer.Typer]:
        """``iwgt units warquest`` and ``iwgt odds warquest battle`` (cli.py)."""
        from iwgt.games.warquest.cli import commands

        return commands()

    def summary(self, state: Any) -> JSON:
        """Each warlord's victory points, gold, sacred quests, regions owned and troops on the map."""
        seats = len(state.players)
        regions = [0] * seats
        for _, owner in state.owners:
            regions[owner] += 1
        troops = [0] * seats
        for t in state.troops:
            troops[t.seat] += 1
        from iwgt.games.warquest.rules import rules

        quests = rules().quests
        return {
            "vp": [p.vp for p in state.players],
            "gold": [p.gold for p in state.players],
            "sacred": [sum(1 for q in p.done_quests if quests[q].sacred) for p in state.players],
            "regions": regions,
            "troops": troops,
            "rounds": state.round,
        }

    def setup_options(self) -> tuple[SetupOption, ...]:
        """The players' choices at set-up: how many warlords and how many rounds at most."""
        return SETUP_OPTIONS

    def configure(self, scenario: Any, choices: Mapping[str, str]) -> Any:
        """The scenario with ``players`` and ``rounds`` as chosen, written into its TOML text; a number of
        warlords the scenario's map does not seat is refused, naming the map."""
        values: dict[str, str | bool | int] = {}
        for key in ("players", "rounds"):
            if choices.get(key, "scenario") != "scenario":
                values[key] = int(choices[key])
        if not values:
            return scenario
        players = values.get("players")
        if isinstance(players, int):
            low, high = seats_allowed(scenario.map)
            if not low <= players <= high:
                raise MalformedAction(
                    f"setup option 'players': the map {scenario.map!r} seats {low} to {high} warlords, "
                    f"not {players}"
                )
        return self.game.parse_scenario(with_top_level(scenario.source, values), f"{scenario.name} as set up")

    def build_help(self) -> GameHelp:
        """Help at the table: how to play, a topic for every troop, location and card kind and phase."""
        from iwgt.games.warquest.help import game_help

        return game_help()

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen."""
        return package_web(__file__)


plugin = WqPlugin()
"""The object the ``iwgt.games`` entry point names."""
