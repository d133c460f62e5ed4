"""A game's plug-in: the one object through which the shared layers reach every facet of a game.

The rules (``Game``) say what may happen; the plug-in adds what the table, the server, the command line, the
bots and the browser need of the game: its bot, its table adapter (lights, options, selections, previews,
cards, reports), its words (every action and event in a sentence, once), its catalogue for the touchscreen,
its turn-by-turn report, its extra commands, its help at the table and the folder of its browser screen.
Each game ships one plug-in object and registers it under the ``iwgt.games`` entry point group
(``pyproject.toml``), so that a game could live in a distribution of its own; the core registry
(``iwgt.core.registry``) is the only code that resolves a game by name. (python-chess's variant classes carry
every facet in one object; a boardgame.io game is one object the framework consumes whole.)

Everything here is built lazily: listing the games reads only their declared facts, and a server that plays
one game never builds another's rules, bot or adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import CHANCE, JSON, Event, Game, GameFacts, Seat, visible_events

if TYPE_CHECKING:  # the command-line types are needed only by the games that add commands
    import typer
    from rich.console import Console

    from iwgt.core.help import GameHelp
    from iwgt.core.table import TableAdapter

AnyGame = Game[Any, Any]
"""Any game of the platform."""


class Bot(Protocol):
    """A bot: given a state and its seat, the action it takes (it reads only what the seat may know)."""

    def choose(self, state: Any, seat: Seat) -> Any:
        """The bot's action for the seat now."""
        ...


class Words(Protocol):
    """A game's sentences: every action and event worded once, in English, from what one seat may know.

    The server's log, the command line's turn report and the browser all take their words from here, so an
    event is never worded two ways. Names come from the seat's ``observation`` (never the state), an action
    comes as the seat may see it (``Game.action_view``: another seat's secret order is only that), and an
    event the seat may not see says nothing.
    """

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """The sentence of an action as ``seat`` sees it (``action_view`` JSON), or None when the events the
        action brings at once already say all of it."""
        ...

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The sentence of an event, or None for an event that says nothing (or that ``seat`` may not see)."""
        ...


def sentences(
    words: Words,
    action: JSON | None,
    actor: Seat,
    events: Sequence[Event],
    observation: JSON,
    seat: Seat | None,
) -> list[str]:
    """A step's words for one seat: the action's sentence (if a player acted), then each visible event's."""
    out: list[str] = []
    if action is not None and actor != CHANCE:
        said = words.action(action, actor, observation, seat)
        if said:
            out.append(said)
    for e in visible_events(events, seat):
        said = words.event(e, observation, seat)
        if said:
            out.append(said)
    return out


ReportPrinter = Callable[["Console", Any, list[Event]], list[Event]]
"""Prints what a batch of events brought (a headless game's turn-by-turn report) and returns the events it
keeps for later (for example those of a combat round not yet finished)."""


@dataclass(frozen=True, slots=True)
class SetupOption:
    """A choice a game asks of the players when a table is set up, beside the shared ones (seats, screens,
    dice, timer): for example whether the table may premeasure. The chosen value is written into the
    scenario (``GamePlugin.configure``), so a record of the game stays self-contained."""

    key: str
    title: str
    choices: tuple[tuple[str, str], ...]
    """Each choice as (value, label)."""
    default: str
    help: str = ""

    def to_json(self) -> JSON:
        """The option as the game selection shows it."""
        return {
            "key": self.key,
            "title": self.title,
            "choices": [{"value": v, "label": label} for v, label in self.choices],
            "default": self.default,
            "help": self.help,
        }


def checked_choices(options: Sequence[SetupOption], choices: Any) -> dict[str, str]:
    """The players' setup choices, each checked against the game's options; a bad one is refused by name."""
    if choices is None:
        return {}
    if not isinstance(choices, dict):
        raise MalformedAction("'options' must be an object of the game's setup choices")
    known = {o.key: o for o in options}
    out: dict[str, str] = {}
    for key, value in choices.items():
        option = known.get(key)
        if option is None:
            offered = ", ".join(sorted(known)) or "none"
            raise MalformedAction(f"unknown setup option {key!r}; this game's options: {offered}")
        values = [v for v, _ in option.choices]
        if value not in values:
            raise MalformedAction(f"setup option {key!r} must be one of {', '.join(values)}, got {value!r}")
        out[key] = value
    return out


class GamePlugin:
    """One game, whole. Subclasses set ``facts`` and build the rules; every other facet is optional.

    A facet a game does not have answers None (no bot, no catalogue, no extra commands, no screen), and the
    shared layers then say so in words rather than fall back on another game.
    """

    facts: GameFacts
    """The game's declared facts: name, title, geometry, players, rules version, movement timer."""

    @property
    def name(self) -> str:
        """The game's registered name (its entry point's name)."""
        return self.facts.name

    @cached_property
    def game(self) -> AnyGame:
        """The rules, built once."""
        return self.build_game()

    @cached_property
    def _built(self) -> dict[str, Any]:
        """The facets built so far (the adapter and the words are built once, on first use)."""
        return {}

    def build_game(self) -> AnyGame:
        """Build the rules object (called once, lazily)."""
        raise NotImplementedError(f"the plug-in of {self.facts.name!r} builds no rules")

    def bot(self, seed: int = 0) -> Bot | None:
        """A new built-in bot for one seat, or None if the game has none. ``seed`` varies the bot's free
        choices (its mixed strategies): a game without dice plays a different game from each seed, and the
        same seed the same game."""
        return None

    def table(self) -> TableAdapter | None:
        """The game's table adapter, built once (``build_table``), or None: then the table lights nothing."""
        if "table" not in self._built:
            self._built["table"] = self.build_table()
        adapter: TableAdapter | None = self._built["table"]
        return adapter

    def build_table(self) -> TableAdapter | None:
        """Build the table adapter (called once, lazily); None if the game has none."""
        return None

    def words(self) -> Words | None:
        """The game's sentences for its actions and events, built once (``build_words``), or None: then the
        shared layers fall back on the bare names of actions and events."""
        if "words" not in self._built:
            self._built["words"] = self.build_words()
        words: Words | None = self._built["words"]
        return words

    def build_words(self) -> Words | None:
        """Build the game's words (called once, lazily); None if the game has none."""
        return None

    def catalogue(self) -> JSON | None:
        """What the touchscreen needs to draw the game's choices (units, spells, kinds), or None."""
        return None

    def report(self) -> ReportPrinter | None:
        """The turn-by-turn report of a headless game, or None (then each event is printed in one line)."""
        return None

    def commands(self) -> dict[str, typer.Typer]:
        """The game's extra commands, by the shared command group they join (``units``, ``spells``, ``odds``):
        ``iwgt odds <game> ...`` runs the game's own ``odds`` Typer."""
        return {}

    def setup_options(self) -> tuple[SetupOption, ...]:
        """The game's own choices when a table is set up (none by default)."""
        return ()

    def configure(self, scenario: Any, choices: Mapping[str, str]) -> Any:
        """The scenario with the players' setup choices (already checked by ``checked_choices``) written into
        it: a new scenario whose text holds them. A game without setup options takes none."""
        if choices:
            raise MalformedAction(f"{self.facts.title} has no setup options")
        return scenario

    def summary(self, state: Any) -> JSON:
        """Extra keys of a finished headless game's JSON summary (for example each side's coins)."""
        return {}

    def help(self) -> GameHelp | None:
        """The game's help at the table (how to play, a topic for each thing a player can tap, first-game
        guides), built once (``build_help``), or None: then the table says the game has no help yet."""
        if "help" not in self._built:
            self._built["help"] = self.build_help()
        found: GameHelp | None = self._built["help"]
        return found

    def build_help(self) -> GameHelp | None:
        """Build the game's help (called once, lazily), usually ``core.help.load_help`` on the package's
        ``data/help.toml`` with the profiles of the game's own data; None if the game has none."""
        return None

    def notation(self, state: Any) -> str | None:
        """The position in the game's compact text notation (FEN-like), or None if the game has none."""
        return None

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser screen (``screen.js`` exporting ``Screen``), served at
        ``/static/games/<name>/``; by convention the ``web`` folder beside the plug-in's module."""
        return None

    def describe(self) -> str:
        """The game in one line, for listings."""
        f = self.facts
        return f"{f.name}  {f.title}  (rules {f.rules_version}): {f.description}"


def package_web(module_file: str) -> Path | None:
    """The ``web`` folder beside a plug-in's module, if it has one with a ``screen.js``."""
    folder = Path(module_file).resolve().parent / "web"
    return folder if (folder / "screen.js").is_file() else None
