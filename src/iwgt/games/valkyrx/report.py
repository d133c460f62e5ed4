"""The turn-by-turn Rich report of a Days of the Valkyrx game (what the health-bar screen shows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from iwgt.core.protocol import JSON, Event, Seat, visible_events
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.observe import observe
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.words import Names, ValkyrxWords, infection, whole

LEVEL_STYLE = {
    "High": "bold green",
    "Enhanced": "green",
    "Standard": "",
    "Weakened": "yellow",
    "Critical": "red",
}
WORDS: Final = ValkyrxWords()
SKULL = "\N{SKULL AND CROSSBONES}"
"""The skull beside an infected unit in the report (VX-SP-PLAGUE-7)."""


def _bar(strength: float, start: float, width: int = 12) -> str:
    full = round(width * strength / start) if start else 0
    return "█" * full + "·" * (width - full)


_STYLE: Final[dict[type[Event], str]] = {
    ev.SpellCast: "magenta",
    ev.SpellResisted: "",
    ev.SpellFizzled: "",
    ev.SpellEnded: "",
    ev.SpellTookEffect: "",
    ev.SpellCasualties: "",
    ev.UnitRestored: "",
    ev.TroopsArrived: "bold",
    ev.UnitTransported: "",
    ev.LavaSpread: "red",
    ev.ArmageddonRolled: "bold",
    ev.UnitInfected: "",
    ev.PlagueLosses: "",
    ev.PlagueCured: "",
    ev.TitanCracked: "bold",
    ev.UnitConcealed: "",
    ev.UnitRevealed: "",
    ev.QuarryChosen: "",
    ev.HiddenMove: "",
    ev.GrimaStruck: "bold",
    ev.WormSurfaced: "bold",
    ev.ContactMade: "",
    ev.TemplePrayer: "",
    ev.TrollDevoured: "",
    ev.TerrainCasualties: "",
    ev.UnitRouted: "red",
    ev.UnitRemoved: "bold red",
    ev.DeadRaised: "",
}
"""The events the turn report tells in a line of their own, in their style; the words are ``words.py``'s."""

_SKULLED: Final = (ev.UnitInfected, ev.PlagueLosses)


def print_events(
    console: Console, state: ValkyrxState, events: Sequence[Event], seat: Seat | None = None
) -> list[Event]:
    """Print what a turn's events tell ``seat`` (None: a spectator), once its report has come.

    Returns the events still waiting. Private events (hidden moves, secret orders, the plague's first
    carrier) are left out unless ``seat`` may see them: the report is redacted like every other channel, and
    its sentences are the game's words (``iwgt.games.valkyrx.words``) from the seat's observation.
    """
    idx = next((i for i, e in enumerate(events) if isinstance(e, ev.CombatReport | ev.GameOver)), None)
    if idx is None:
        return list(events)
    done, rest = events[: idx + 1], events[idx + 1 :]
    obs = observe(state, seat)
    for e in visible_events(done, seat):
        match e:
            case ev.PlagueChain(infections):
                _plague_story(console, Names(obs), infections)
            case ev.FirstMoverChosen():
                console.print(f"\n[bold]{escape(_said(e, obs, seat))}[/]")
            case ev.CombatReport(turn, lines):
                _report(console, turn, lines)
            case _ if type(e) in _STYLE:
                said = escape(_said(e, obs, seat))
                if not said:
                    continue
                if isinstance(e, _SKULLED):
                    said = f"{SKULL} {said}"
                style = _STYLE[type(e)]
                console.print(f"  [{style}]{said}[/]" if style else f"  {said}")
    return list(rest)


def _said(e: Event, obs: JSON, seat: Seat | None) -> str:
    return WORDS.event(e, obs, seat) or ""


def _plague_story(console: Console, name: Names, infections: Sequence[tuple[int, int, int, bool]]) -> None:
    """The end-of-game story of the plague (VX-SP-PLAGUE-8): who first carried it, when, and who caught it."""
    console.print("[bold]The plague[/]")
    for turn, unit, source, by_spell in infections:
        console.print(f"  {escape(infection(turn, name(unit), name(source), by_spell))}")


def _lost(casualties: float, start: float) -> str:
    """This turn's loss in whole men (``7``, ``<1`` for a sliver), or a character's share (``16%``)."""
    k = whole(casualties) if start > 1 else whole(100 * casualties)
    k_text = "<1" if k == 0 and casualties > 0 else str(k)
    return k_text if start > 1 else f"{k_text}%"


def _report(console: Console, turn: int, lines: Sequence[ev.ReportLine]) -> None:
    table = Table(
        title=f"Report after the combat round of turn {turn}",
        caption="men: men left of the starting complement (a character: the share of its defence left); "
        "lost: everything lost this turn (combat, shooting, spells, the Sand Worm, the plague, quicksand); "
        "level: morale status, or what became of the unit",
        pad_edge=False,
    )
    for col, j in (("unit", "left"), ("side", "left"), ("strength", "left"), ("men", "right"),
                   ("lost", "right"), ("morale", "right"), ("level", "left")):  # fmt: skip
        table.add_column(col, justify=j)  # type: ignore[arg-type]
    for line in lines:
        if line.status in ("destroyed", "fled", "left") and line.casualties == 0:
            continue  # gone in an earlier turn; the turn it went, an event line said so
        style = LEVEL_STYLE.get(line.level, "dim")
        men = (
            f"{whole(line.strength)}/{whole(line.start)}"
            if line.start > 1
            else f"{whole(100 * line.strength)}%"
        )
        lost = _lost(line.casualties, line.start)
        level = line.level if line.status in ("active",) else line.status
        label = f"{line.name} ({'LD'[line.side == 'darkness']}{line.unit})"
        if line.infected:
            label = f"{SKULL} {label}"  # VX-SP-PLAGUE-7
        shown = f"[{style}]{level}[/]" if style else level
        table.add_row(
            label, line.side, _bar(line.strength, line.start), men, lost, f"{line.morale:.1f}", shown
        )
    console.print(table)
