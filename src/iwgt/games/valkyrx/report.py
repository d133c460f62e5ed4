"""The turn-by-turn Rich report of a Days of the Valkyrx game (what the health-bar screen shows)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from iwgt.core.protocol import Event
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.state import ValkyrxState

LEVEL_STYLE = {
    "High": "bold green",
    "Enhanced": "green",
    "Standard": "",
    "Weakened": "yellow",
    "Critical": "red",
}
SIDE = ("Light", "Darkness")


def _bar(strength: float, start: float, width: int = 12) -> str:
    full = round(width * strength / start) if start else 0
    return "█" * full + "·" * (width - full)


def print_events(console: Console, state: ValkyrxState, events: Sequence[Event]) -> list[Event]:
    """Print what a turn's events tell, once its report has come; returns the events still waiting."""
    idx = next((i for i, e in enumerate(events) if isinstance(e, ev.CombatReport | ev.GameOver)), None)
    if idx is None:
        return list(events)
    done, rest = events[: idx + 1], events[idx + 1 :]
    name = {u.id: u.label for u in state.units}
    for e in done:
        match e:
            case ev.FirstMoverChosen(turn, seat):
                console.print(f"\n[bold]Turn {turn}[/]: the {SIDE[seat]} moves first.")
            case ev.ContactMade(a, b, deferred):
                late = " (arrived late: they fight from next turn)" if deferred else ""
                console.print(f"  contact: {name[a]} and {name[b]}{late}")
            case ev.TemplePrayer(unit, success, until):
                verdict = f"the gods answer until turn {until}" if success else "thrown into the void"
                console.print(f"  {name[unit]} prays at the Temple: {verdict}")
            case ev.TrollDevoured(troll, victim, cas):
                console.print(f"  {name[troll]} devours {cas:.0f} of {name[victim]}")
            case ev.TerrainCasualties(unit, cas, feature):
                console.print(f"  {name[unit]} loses {cas:.1f} in the {feature}")
            case ev.UnitRouted(unit):
                console.print(f"  [red]{name[unit]} routs[/]")
            case ev.UnitRemoved(unit, why):
                console.print(f"  [bold red]{name[unit]} {why}[/]")
            case ev.DeadRaised(unit, raised):
                console.print(f"  {raised:.0f} of the slain rise to march with {name[unit]}")
            case ev.CombatReport(turn, lines):
                _report(console, turn, lines)
    return list(rest)


def _report(console: Console, turn: int, lines: Sequence[ev.ReportLine]) -> None:
    table = Table(
        title=f"Report after the combat round of turn {turn}",
        caption="men: men left of the starting complement (a character: the share of its defence left); "
        "lost: this turn; level: morale status, or what became of the unit",
        pad_edge=False,
    )
    for col, j in (("unit", "left"), ("side", "left"), ("strength", "left"), ("men", "right"),
                   ("lost", "right"), ("morale", "right"), ("level", "left")):  # fmt: skip
        table.add_column(col, justify=j)  # type: ignore[arg-type]
    for line in lines:
        if line.status in ("destroyed", "fled", "left") and line.casualties == 0:
            continue  # gone in an earlier turn; the turn it went, an event line said so
        style = LEVEL_STYLE.get(line.level, "dim")
        men = f"{line.strength:.0f}/{line.start:.0f}" if line.start > 1 else f"{100 * line.strength:.0f}%"
        lost = f"{line.casualties:.1f}" if line.start > 1 else f"{100 * line.casualties:.0f}%"
        level = line.level if line.status in ("active",) else line.status
        label = f"{line.name} ({'LD'[line.side == 'darkness']}{line.unit})"
        shown = f"[{style}]{level}[/]" if style else level
        table.add_row(
            label, line.side, _bar(line.strength, line.start), men, lost, f"{line.morale:.1f}", shown
        )
    console.print(table)
