"""The turn-by-turn report of a game of WarQuest, for ``iwgt simulate warquest``: each round and turn, every
move, purchase, tax, conquest, quest roll, battle (its attacks with their combat dice), event card and the
result, in the game's words (``iwgt.games.warquest.words``: the one place each is worded), as a spectator
sees it: the secret hands and the cards drawn into them are never printed (issue 15 section 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.markup import escape

from iwgt.core.protocol import Event
from iwgt.games.warquest import battle_events as be
from iwgt.games.warquest import events as ev
from iwgt.games.warquest import happenings as hp
from iwgt.games.warquest.state import WqState
from iwgt.games.warquest.words import WqWords

WORDS: Final = WqWords()

FACES: Final = {1: "hit", 2: "flee"}
"""The combat die's faces with a meaning (WQ-CB-01 decided); the others are blank."""

STYLE: Final[dict[str, str]] = {
    "TurnBegan": "bold",
    "EventTurned": "bold magenta",
    "BattleBegan": "bold red",
    "AttackRolled": "yellow",
    "SpellRolled": "yellow",
    "HitsTaken": "yellow",
    "BattleWon": "bold red",
    "QuestRolled": "cyan",
    "ConquestScored": "bold green",
    "Conquered": "green",
    "GameOver": "bold",
}
"""The lines the report stresses, by event class; every other line is plain."""

FLUSH: Final = frozenset({"TurnBegan", "EventTurned", "GameOver"})
"""The lines printed flush left: each heads what follows it (a turn's actions are indented under it)."""

QUIET: Final = frozenset({"DeckShuffled"})
"""Events the report leaves out (the shuffles at the start say nothing a reader needs)."""

ROLLS: Final = (be.AttackRolled, be.SpellRolled, be.Pursued, hp.MonsterRolled)
"""Events carrying combat dice, whose faces follow their line."""


def dice_line(faces: Sequence[int]) -> str:
    """Combat dice as they show: ``hit, blank, flee``."""
    return ", ".join(FACES.get(int(f), "blank") for f in faces)


def print_events(console: Console, state: WqState, events: Sequence[Event]) -> list[Event]:
    """Print the events in the game's words, naming warlords and regions from the spectator's observation of
    ``state``; combat dice follow their roll's line; nothing is kept for later."""
    from iwgt.games.warquest.observe import observe

    obs = observe(state, None)
    for e in events:
        if not e.visible_to(None):
            continue
        name = type(e).__name__
        if name in QUIET:
            continue
        said = WORDS.event(e, obs, None)
        if not said:
            continue
        if isinstance(e, ev.TurnBegan) and e.seat == state.first:
            console.rule(f"Round {e.round} of {state.scenario.rounds}", style="dim")
        style = STYLE.get(name, "")
        line = f"[{style}]{escape(said)}[/]" if style else escape(said)
        console.print(line if name in FLUSH else f"  {line}")
        if isinstance(e, ROLLS) and e.faces:
            console.print(f"    [dim]{escape(dice_line(e.faces))}[/]")
    return []
