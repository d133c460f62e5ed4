"""The turn-by-turn report of a game of the Coloured-Dice rules, for ``iwgt simulate coloured-dice``: each
round and turn, every move, charge, attack with its dice (the faces as the dice show them), wounds, morale
test, general-morale change and the result, in the game's words (``iwgt.games.coloured_dice.words``: the one
place each is worded), as a spectator sees it (everything is public in this game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.console import Console
from rich.markup import escape

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.words import CdWords, face_label

WORDS: Final = CdWords()

STYLE: Final[dict[str, str]] = {
    "TurnStarted": "bold",
    "AttackDeclared": "bold",
    "PoolRolled": "yellow",
    "WoundsTaken": "yellow",
    "MoraleTested": "cyan",
    "UnitShaken": "bold yellow",
    "UnitRouted": "bold red",
    "UnitDestroyed": "bold red",
    "GeneralMoraleChanged": "magenta",
    "ObjectiveTaken": "bold green",
    "BattleOver": "bold",
}
"""The lines the report stresses, by event class; every other line is plain."""

FLUSH: Final = frozenset({"RoundStarted", "TurnStarted", "BattleOver"})
"""The lines printed flush left: each heads what follows it (a turn's orders are indented under it)."""


def dice_line(event: Any) -> str:
    """A roll's faces, as the dice show them: ``white 2, white miss, black kill``."""
    return ", ".join(f"{c} {face_label(c, f)}" for c, f in zip(event.dice, event.faces, strict=False))


def print_events(console: Console, state: Any, events: Sequence[Event]) -> list[Event]:
    """Print the events in the game's words, naming units and sides from the spectator's observation of
    ``state``; a roll's faces follow its line; nothing is kept for later (each event says all of itself)."""
    from iwgt.games.coloured_dice.observe import observe

    obs = observe(state, None)
    for e in events:
        if not e.visible_to(None):
            continue
        name = type(e).__name__
        if name == "RoundStarted":
            console.rule(f"Round {getattr(e, 'round', '?')} of {state.rounds}", style="dim")
            continue
        said = WORDS.event(e, obs, None)
        if not said:
            continue
        style = STYLE.get(name, "")
        line = f"[{style}]{escape(said)}[/]" if style else escape(said)
        console.print(line if name in FLUSH else f"  {line}")
        if name == "PoolRolled" and getattr(e, "dice", None):
            console.print(f"    [dim]{escape(dice_line(e))}[/]")
    return []
