"""The turn-by-turn report of a Valhalla game, for ``iwgt simulate valhalla``: every card, activation, move,
charge, fight (faces and scores), shot, saving throw, coin and the result, in the game's words
(``iwgt.games.valhalla.words``: the one place a combat, a shot or a Dice of Death is worded)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.markup import escape

from iwgt.core.protocol import Event
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.observe import observe
from iwgt.games.valhalla.state import ValhallaState
from iwgt.games.valhalla.words import ValhallaWords

WORDS: Final = ValhallaWords()

_STYLE: Final[dict[type[Event], str]] = {
    ev.CardUp: "bold",
    ev.Charged: "bold",
    ev.FigureKilled: "bold red",
    ev.CoinsWon: "yellow",
    ev.ObjectiveAchieved: "bold yellow",
    ev.TurnEnded: "dim",
    ev.GameOver: "bold",
}
"""The lines the report stresses; every other line is plain."""

_FLUSH: Final = (ev.CardUp, ev.TurnEnded, ev.GameOver)
"""The lines printed flush left: a card coming up heads what follows it, and the turn's and game's ends."""


def print_events(console: Console, state: ValhallaState, events: Sequence[Event]) -> list[Event]:
    """Print the events in the game's words, naming figures, things and sides from the observation of
    ``state``; nothing is left waiting (every Valhalla event is public, VH-MS-05), so the list returned is
    empty."""
    spec = state.scenario.spec
    obs = observe(state, None)
    for e in events:
        if isinstance(e, ev.TurnBegan):
            console.rule(f"Turn {e.turn} of {spec.turn_limit}", style="dim")
            continue
        said = WORDS.event(e, obs, None)
        if not said:
            continue  # a card dealt, an activation's end: the lines around them say it
        style = _STYLE.get(type(e), "")
        line = f"[{style}]{escape(said)}[/]" if style else escape(said)
        console.print(line if isinstance(e, _FLUSH) else f"  {line}")
    return []
