"""The turn-by-turn report of a game of Forged upon an Anvil, for ``iwgt simulate anvil``: the armies, the
terrain, every bid, activation, deployment, move, combat (damage, HP left, bounce backs and chains), spell and
the result, in the game's words (``iwgt.games.anvil.words``: the one place each is worded).

The report is the table's, seen as a spectator sees it: a sealed bid is only "X has bid" until both bids are
revealed, and then both show (the ``BidsRevealed`` line)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.console import Console
from rich.markup import escape

from iwgt.core.protocol import Event
from iwgt.games.anvil import combat_events as ce
from iwgt.games.anvil import events as ev
from iwgt.games.anvil.words import AnvilWords

WORDS: Final = AnvilWords()

STYLE: Final[dict[type[Event], str]] = {
    ev.ArmiesRevealed: "bold",
    ev.TerrainBidsRevealed: "bold",
    ev.BidsRevealed: "bold",
    ev.UnitActivated: "bold",
    ev.UnitDeployed: "bold",
    ce.CombatResolved: "yellow",
    ce.UnitDestroyed: "bold red",
    ce.HeroOfTheDay: "bold yellow",
    ev.TurnEnded: "dim",
    ev.GameOver: "bold",
}
"""The lines the report stresses; every other line is plain."""

FLUSH: Final = (
    ev.ArmiesRevealed,
    ev.TerrainBidsRevealed,
    ev.BidsRevealed,
    ev.UnitActivated,
    ev.UnitDeployed,
    ev.TurnEnded,
    ev.GameOver,
)
"""The lines printed flush left: each heads what follows it (an activation's moves and combats are
indented under it)."""


def print_events(console: Console, state: Any, events: Sequence[Event]) -> list[Event]:
    """Print the events in the game's words as a spectator sees them, naming units and sides from the
    spectator's observation of ``state``; nothing is kept for later (each event says all of itself)."""
    from iwgt.games.anvil.observe import observe

    obs = observe(state, None)
    for e in events:
        if not e.visible_to(None):
            continue  # a sealed choice's private event: the public Sealed line says it
        if isinstance(e, ev.TurnBegan):
            turns = getattr(getattr(state.scenario, "spec", None), "turns", None)
            console.rule(f"Turn {e.turn}" + (f" of {turns}" if turns else ""), style="dim")
        said = WORDS.event(e, obs, None)
        if not said:
            continue
        style = STYLE.get(type(e), "")
        line = f"[{style}]{escape(said)}[/]" if style else escape(said)
        console.print(line if isinstance(e, FLUSH) else f"  {line}")
    return []
