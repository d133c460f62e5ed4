"""Valhalla's own commands: ``iwgt odds valhalla combat`` and ``iwgt odds valhalla shoot``."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.terminal import console, fail

valhalla_odds = typer.Typer(help="Valhalla: the exact odds of a combat or a shot.", no_args_is_help=True)
KIND_HELP = "hero, warrior, archer or slinger"


def _kind(text: str, what: str) -> Any:
    """A Valhalla figure kind typed on the command line, or an exit-2 error naming the choices."""
    from iwgt.games.valhalla.config import KINDS

    kind = text.strip().lower()
    if kind not in KINDS:
        raise fail(f"{what}: unknown kind {text!r}; choose {KIND_HELP}")
    return kind


def _check_shock(shock: int, wounded: bool, what: str) -> None:
    """An exit-2 error naming the option when a shock count is one the rules never reach."""
    from iwgt.games.valhalla.odds import start_harm

    try:
        start_harm(shock, wounded)
    except ValueError as exc:
        raise fail(f"{what}: {exc}") from None


def _chance(p: Any) -> str:
    """A chance as a percentage and its exact fraction, e.g. "45.00%  9/20"."""
    return f"{float(p):7.2%}  {p}"


@valhalla_odds.command(name="combat")
def odds_combat(
    attacker: Annotated[str, typer.Option(help=f"the attacker: {KIND_HELP}")] = "hero",
    defender: Annotated[str, typer.Option(help=f"the defender: {KIND_HELP}")] = "warrior",
    charging: Annotated[bool, typer.Option("--charging", help="the attacker charged: +1 (VH-CO-06)")] = False,
    uphill_attacker: Annotated[
        bool, typer.Option("--uphill-attacker", help="the attacker has the higher ground: +1 (VH-CO-07)")
    ] = False,
    uphill_defender: Annotated[
        bool,
        typer.Option("--uphill-defender", help="the defender is uphill or defends a village or woods: +1"),
    ] = False,
    attacker_shock: Annotated[int, typer.Option(help="the attacker's shock markers: -1 each")] = 0,
    defender_shock: Annotated[int, typer.Option(help="the defender's shock markers: -1 each")] = 0,
    attacker_wounded: Annotated[
        bool, typer.Option("--attacker-wounded", help="the attacker is wounded: -2")
    ] = False,
    defender_wounded: Annotated[
        bool, typer.Option("--defender-wounded", help="the defender is wounded: -2")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object (exact fractions too)")
    ] = False,
) -> None:
    """The exact odds of one round of Valhalla combat and the saving throws that follow."""
    from iwgt.games.valhalla.dice import Fighter
    from iwgt.games.valhalla.odds import combat_odds

    a = Fighter(_kind(attacker, "--attacker"), attacker_shock, attacker_wounded, charging, uphill_attacker)
    d = Fighter(_kind(defender, "--defender"), defender_shock, defender_wounded, False, uphill_defender)
    _check_shock(attacker_shock, attacker_wounded, "--attacker-shock")
    _check_shock(defender_shock, defender_wounded, "--defender-shock")
    try:
        odds = combat_odds(a, d)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(odds.to_json(), ensure_ascii=False) + "\n")
        return

    def who(f: Fighter) -> str:
        mod = f"{f.modifier:+d}" if f.modifier else ""
        return f"{f.kind} (d{f.die}{mod})"

    console.print(f"[bold]Valhalla combat[/]: {who(a)} attacks {who(d)}")
    table = Table()
    table.add_column("outcome")
    table.add_column("attacker", justify="right")
    table.add_column("defender", justify="right")
    for n in range(3):
        label = f"scores {n} hit{'' if n == 1 else 's'}"
        table.add_row(label, _chance(odds.attacker_hits[n]), _chance(odds.defender_hits[n]))
    a_fates, d_fates = odds.attacker_fate.fates(), odds.defender_fate.fates()
    for name in a_fates:
        table.add_row(name, _chance(a_fates[name]), _chance(d_fates[name]))
    console.print(table)
    console.print(
        "hits: scored on the opponent (VH-CO-10..12), then one Dice of Death per hit taken (VH-ST-01..12); "
        "wounded: a new wound, alive; shocked: shock only, alive."
    )


@valhalla_odds.command(name="shoot")
def odds_shoot(
    range_: Annotated[
        float, typer.Option("--range", help="inches from the shooter to the target, edge to edge")
    ],
    cover: Annotated[bool, typer.Option("--cover", help="the target is in woods or a village: -1")] = False,
    target: Annotated[str, typer.Option(help=f"the target: {KIND_HELP}")] = "warrior",
    target_shock: Annotated[int, typer.Option(help="the target's shock markers")] = 0,
    target_wounded: Annotated[bool, typer.Option("--target-wounded", help="the target is wounded")] = False,
    shots: Annotated[int, typer.Option(help="shooting dice: 2 when shooting twice (VH-AC-17)")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON object (exact fractions too)")
    ] = False,
) -> None:
    """The exact odds of a Valhalla shot (or two) and the target's saving throws."""
    from iwgt.games.valhalla.odds import SHOT_DIE, shoot_odds

    kind = _kind(target, "--target")
    if shots not in (1, 2):
        raise fail(f"--shots: a figure shoots once or twice (VH-AC-17), not {shots}")
    try:
        odds = shoot_odds(range_, cover, kind, target_shock, target_wounded, shots)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(odds.to_json(), ensure_ascii=False) + "\n")
        return
    if odds.needs is None:
        needs = f"cannot hit: {odds.reason}"
    else:
        needs = f"hits on {odds.needs}" + (f"-{SHOT_DIE}" if odds.needs < SHOT_DIE else "")
    where = " in cover" if cover else ""
    band = odds.range_band if odds.range_band == "out of range" else f"{odds.range_band} range"
    console.print(f'[bold]Valhalla shot[/]: {kind} at {range_:g}"{where}, {band}, {needs}')
    table = Table()
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_row("a die hits", _chance(odds.hit))
    if shots > 1:
        for n, p in sorted(odds.hits.items()):
            table.add_row(f"{n} hit{'' if n == 1 else 's'}", _chance(p))
    for name, p in odds.fate.fates().items():
        table.add_row(name, _chance(p))
    console.print(table)
    console.print(
        "VH-SH-03..09: one Dice of Death per hit; wounded: a new wound, alive; shocked: shock only, alive."
    )


def commands() -> dict[str, typer.Typer]:
    """The commands this game adds, by the shared group they join."""
    return {"odds": valhalla_odds}
