"""The turn-by-turn Rich report of a Days of the Valkyrx game (what the health-bar screen shows)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from iwgt.core.protocol import Event, Seat, visible_events
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
SKULL = "\N{SKULL AND CROSSBONES}"
"""The skull beside an infected unit in the report (VX-SP-PLAGUE-7)."""


def _bar(strength: float, start: float, width: int = 12) -> str:
    full = round(width * strength / start) if start else 0
    return "█" * full + "·" * (width - full)


def print_events(
    console: Console, state: ValkyrxState, events: Sequence[Event], seat: Seat | None = None
) -> list[Event]:
    """Print what a turn's events tell ``seat`` (None: a spectator), once its report has come.

    Returns the events still waiting. Private events (hidden moves, secret orders, the plague's first
    carrier) are left out unless ``seat`` may see them: the report is redacted like every other channel.
    """
    idx = next((i for i, e in enumerate(events) if isinstance(e, ev.CombatReport | ev.GameOver)), None)
    if idx is None:
        return list(events)
    done, rest = events[: idx + 1], events[idx + 1 :]
    name = {u.id: u.label for u in state.units}
    for e in visible_events(done, seat):
        match e:
            case ev.SpellCast(unit, _spell, spell_name, _reach, _cost):
                console.print(f"  [magenta]{name[unit]} is casting {spell_name}[/]")
            case ev.SpellResisted(unit, spell):
                console.print(f"  {name[unit]} resists {spell}")
            case ev.SpellFizzled(unit, spell, why):
                console.print(f"  {name[unit]}'s {spell} comes to nothing: {why}")
            case ev.SpellEnded(unit, spell, why):
                console.print(f"  {name[unit]}'s {spell} ends: {why}")
            case ev.SpellTookEffect(_caster, spell, units, cells, _first, _last) if units or cells:
                touched = ", ".join(name[u] for u in units) or "cells " + ", ".join(map(str, cells))
                console.print(f"  {spell}: {touched}")
            case ev.SpellCasualties(unit, spell, cas):
                console.print(f"  {name[unit]} loses {cas:.1f} to {spell}")
            case ev.UnitRestored(unit, restored):
                console.print(f"  {name[unit]} restored by {restored:.1f}")
            case ev.TroopsArrived(unit, cell):
                console.print(f"  [bold]{name[unit]} joins the battle at {list(cell)}[/]")
            case ev.UnitTransported(unit, frm, to):
                console.print(f"  {name[unit]} passes through the portal from {list(frm)} to {list(to)}")
            case ev.LavaSpread(_caster, cells):
                console.print(f"  [red]the lava spreads over {len(cells)} cells[/]")
            case ev.ArmageddonRolled(caster, works):
                verdict = "the gods deliver it" if works else "the gods will not"
                console.print(f"  [bold]Armageddon by {name[caster]}: {verdict}[/]")
            case ev.UnitInfected(unit):
                console.print(f"  {SKULL} {name[unit]} catches the plague")
            case ev.PlagueLosses(unit, cas):
                console.print(f"  {SKULL} {name[unit]} loses {cas:.1f} to the plague")
            case ev.PlagueCured(unit):
                console.print(f"  {name[unit]} is cured of the plague")
            case ev.TitanCracked(unit):
                console.print(f"  [bold]{name[unit]} cracks under fire and ice[/]")
            case ev.UnitConcealed(unit):
                console.print(f"  {name[unit]} vanishes from sight")
            case ev.UnitRevealed(unit, cell):
                console.print(f"  {name[unit]} appears at {list(cell)}")
            case ev.QuarryChosen(_owner, unit, target):
                console.print(f"  {name[unit]} hunts {name[target]}")
            case ev.HiddenMove(_owner, unit, frm, to):
                console.print(f"  {name[unit]} moves unseen from {list(frm)} to {list(to)}")
            case ev.GrimaStruck(unit, quarry, success):
                verdict = "and kills" if success else "and fails: they fight"
                console.print(f"  [bold]{name[unit]} strikes at {name[quarry]} {verdict}[/]")
            case ev.WormSurfaced(unit, _aimed, cell, victim, swallowed):
                meal = f", swallowing {swallowed:.0f} of {name[victim]}" if victim is not None else ""
                console.print(f"  [bold]{name[unit]} breaks the surface at {list(cell)}{meal}[/]")
            case ev.PlagueChain(infections):
                _plague_story(console, name, infections)
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


def _plague_story(
    console: Console, name: dict[int, str], infections: Sequence[tuple[int, int, int, bool]]
) -> None:
    """The end-of-game story of the plague (VX-SP-PLAGUE-8): who first carried it, when, and who caught it."""
    console.print("[bold]The plague[/]")
    for turn, unit, source, by_spell in infections:
        how = (
            f"the first carrier, by {name.get(source, '?')}'s spell"
            if by_spell
            else f"from {name.get(source, '?')}"
        )
        console.print(f"  turn {turn}: {name[unit]}: {how}")


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
        if line.infected:
            label = f"{SKULL} {label}"  # VX-SP-PLAGUE-7
        shown = f"[{style}]{level}[/]" if style else level
        table.add_row(
            label, line.side, _bar(line.strength, line.start), men, lost, f"{line.morale:.1f}", shown
        )
    console.print(table)
