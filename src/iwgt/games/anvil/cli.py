"""Forged upon an Anvil's own commands: ``iwgt odds anvil combat`` and ``iwgt units anvil``.

Both read the same rule code as the game (``matrix.resolve``, ``rules()``): no number is repeated here.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.terminal import console, fail

anvil_odds = typer.Typer(
    help="Forged upon an Anvil: the exact outcome of a combat (no dice: the matrix decides).",
    no_args_is_help=True,
)
units_app = typer.Typer(
    invoke_without_command=True, help="Forged upon an Anvil: unit profiles and the Unit Deployment table."
)


@anvil_odds.callback()
def odds() -> None:
    """Forged upon an Anvil: the exact outcome of a combat (no dice: the matrix decides)."""
    # A callback keeps this a group (``... anvil combat``) even with one command, mounted or not.


TYPE_HELP = "hero, wizard, monster, knight, war_machine, troop or seat"
SIDES_HELP = "front, flank or rear"
_ALIASES = {"troops": "troop", "warmachine": "war_machine", "seat_of_power": "seat"}


def _unit_type(text: str, what: str) -> Any:
    """A unit type typed on the command line ("War Machine" and "war-machine" too), or an exit-2 error."""
    from iwgt.games.anvil.rules import UNIT_TYPES

    kind = text.strip().lower().replace("-", "_").replace(" ", "_")
    kind = _ALIASES.get(kind, kind)
    if kind not in UNIT_TYPES:
        raise fail(f"{what}: unknown unit type {text!r}; choose {TYPE_HELP}")
    return kind


def _side(text: str) -> Any:
    """A side typed on the command line, or an exit-2 error naming the choices."""
    from iwgt.games.anvil.rules import SIDES

    side = text.strip().lower().replace("flanks", "flank")
    if side not in SIDES:
        raise fail(f"--side: unknown side {text!r}; choose {SIDES_HELP}")
    return side


@anvil_odds.command(name="combat")
def odds_combat(
    attacker: Annotated[str, typer.Option(help=f"the attacking unit type: {TYPE_HELP}")],
    defender: Annotated[str, typer.Option(help=f"the defending unit type: {TYPE_HELP}")],
    side: Annotated[str, typer.Option(help=f"the side engaged: {SIDES_HELP} (FA-EN-05)")] = "front",
    brace: Annotated[bool, typer.Option("--brace", help="the defender is braced: -3 (FA-SC-02)")] = False,
    hammerblow: Annotated[
        bool, typer.Option("--hammerblow", help="the attacker uses Hammerblow: +1 (FA-SC-05)")
    ] = False,
    counterattack: Annotated[
        bool, typer.Option("--counterattack", help="the defender counterattacks (FA-SI-02..05)")
    ] = False,
    fear_attacker: Annotated[
        bool, typer.Option("--fear-attacker", help="the attacker has fear (FA-SD-11)")
    ] = False,
    fear_defender: Annotated[
        bool, typer.Option("--fear-defender", help="the defender has fear (FA-SD-11)")
    ] = False,
    skirmishing: Annotated[
        bool, typer.Option("--skirmishing", help="the defender is Skirmishing: only a front (FA-SM-10)")
    ] = False,
    hero_of_the_day: Annotated[
        bool, typer.Option("--hero-of-the-day", help="the defender plays Hero of the Day (FA-SI-10)")
    ] = False,
    defender_hp: Annotated[
        int | None, typer.Option(help="the defender's HP left (default: its profile's)")
    ] = None,
    attacker_hp: Annotated[
        int | None, typer.Option(help="the attacker's HP left (default: its profile's)")
    ] = None,
    ballistics: Annotated[
        bool, typer.Option("--ballistics", help="a shot with Ballistics, not an engage (FA-SS-02..06)")
    ] = False,
    range_: Annotated[
        float | None,
        typer.Option("--range", help="Ballistics: inches between the trays; sets the side (FA-SS-02..04)"),
    ] = None,
    parthian: Annotated[
        bool, typer.Option("--parthian", help="Ballistics with Parthian Shot: -1 (FA-SS-09)")
    ] = False,
    heavy_projectile: Annotated[
        bool, typer.Option("--heavy-projectile", help="Ballistics with Heavy Projectile: +1 (FA-SD-13)")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """The exact outcome of one Forged upon an Anvil combat, read from the Combat Resolution Matrix."""
    from iwgt.games.anvil.matrix import Attack, ballistics_band, resolve

    att = _unit_type(attacker, "--attacker")
    dfn = _unit_type(defender, "--defender")
    asked = _side(side)
    if range_ is not None:
        if not ballistics:
            raise fail("--range is the distance of a shot: add --ballistics")
        if not range_ >= 0:
            raise fail(f"--range: {range_:g} is not a distance in inches")
        band = ballistics_band(range_)
        if band is None:
            raise fail(f'--range: {range_:g}" is beyond Ballistics\' 18" (FA-SS-02)')
        asked = band
    for hp, what in ((defender_hp, "--defender-hp"), (attacker_hp, "--attacker-hp")):
        if hp is not None and hp < 1:
            raise fail(f"{what}: {hp}; a unit on the table has at least 1 HP (FA-CRM-02)")
    attack = Attack(
        attacker=att,
        defender=dfn,
        side=asked,
        hammerblow=hammerblow,
        brace=brace,
        counterattack=counterattack,
        fear_attacker=fear_attacker,
        fear_defender=fear_defender,
        skirmishing_defender=skirmishing,
        defender_hp=defender_hp,
        attacker_hp=attacker_hp,
        ballistics=ballistics,
        parthian=parthian,
        heavy_projectile=heavy_projectile,
        hero_of_the_day=hero_of_the_day,
    )
    try:
        out = resolve(attack)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if as_json:
        data = {
            "attacker": att,
            "defender": dfn,
            **out.to_json(),
            "inputs": {
                "side": asked if range_ is None else None,
                "range": range_,
                "brace": brace,
                "hammerblow": hammerblow,
                "counterattack": counterattack,
                "fear_attacker": fear_attacker,
                "fear_defender": fear_defender,
                "skirmishing": skirmishing,
                "hero_of_the_day": hero_of_the_day,
                "ballistics": ballistics,
                "parthian": parthian,
                "heavy_projectile": heavy_projectile,
                "defender_hp": defender_hp,
                "attacker_hp": attacker_hp,
            },
        }
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    _print_outcome(attack, out)


def _print_outcome(attack: Any, out: Any) -> None:
    """The outcome as a sentence and a Rich table."""
    from iwgt.games.anvil.rules import rules

    r = rules()
    a_name, d_name = r.profile(attack.attacker).name, r.profile(attack.defender).name
    how = "shoots (Ballistics) at" if attack.ballistics else "attacks"
    where = f"as if in the {attack.side}" if attack.ballistics else f"in the {attack.side}"
    console.print(f"[bold]Forged upon an Anvil[/]: {a_name} {how} {d_name} {where}")
    if not out.allowed:
        stop = "the shot is not allowed" if attack.ballistics else 'it stops 1" away, no combat'
        console.print(
            f"NATE: a {a_name} is not allowed to engage a {d_name} on its {out.side}; {stop} "
            f"({', '.join(out.clauses)})"
        )
        return
    table = Table()
    table.add_column("")
    table.add_column(a_name + " (attacker)", justify="right")
    table.add_column(d_name + " (defender)", justify="right")
    dealt = "-" if out.counter_damage is None else str(out.counter_damage)
    table.add_row("damage dealt", str(out.damage), dealt)
    table.add_row("HP left", str(out.attacker_hp_left), str(out.defender_hp_left))
    table.add_row("destroyed", _yes(out.attacker_destroyed), _yes(out.destroyed))
    bounces = out.bounce_back or "none"
    a_bb = bounces in ("attacker", "both")
    d_bb = bounces in ("defender", "both")
    table.add_row('bounces back 3"', _bb(a_bb, "attacker" in out.held), _bb(d_bb, "defender" in out.held))
    table.add_row("excess move", f'{out.excess_move:g}"', "-")
    console.print(table)
    read = f" (read at the {out.side})" if out.side != attack.side else ""
    console.print(f"matrix side{read}: {out.side}; clauses: {', '.join(out.clauses)}")


def _yes(flag: bool) -> str:
    """yes / no."""
    return "yes" if flag else "no"


def _bb(bounces: bool, held: bool) -> str:
    """A bounce back cell: held units lose 1 HP instead (FA-BB-04)."""
    if not bounces:
        return "no"
    return "cannot: -1 HP" if held else "yes"


@units_app.callback()
def units(
    as_json: Annotated[bool, typer.Option("--json", help="a JSON array, one object per unit type")] = False,
) -> None:
    """Each unit type: Move, HP (the matrix's profiles) and DCP and availability (Unit Deployment)."""
    from iwgt.games.anvil.rules import UNIT_TYPES, rules

    r = rules()
    rows = [
        {
            "type": t,
            "name": r.units[t].name,
            "move": r.units[t].move,
            "hp": r.units[t].hp,
            "dcp": r.deployment[t].dcp,
            "availability": r.deployment[t].availability,
            "clauses": [r.units[t].clause, r.deployment[t].clause],
        }
        for t in UNIT_TYPES
    ]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(
        title="Forged upon an Anvil: units",
        caption="availability: a share of the army's DCP (the Seat of Power: exactly one); "
        "the Seat counts as a Troop in combat but never moves.",
    )
    for head in ("type", "name", "move", "HP", "DCP", "availability", "clauses"):
        table.add_column(head, justify="right" if head in ("move", "HP", "DCP") else "left")
    for row in rows:
        table.add_row(
            str(row["type"]),
            str(row["name"]),
            f'{row["move"]:g}"',
            str(row["hp"]),
            str(row["dcp"]),
            str(row["availability"]),
            ", ".join(row["clauses"]),  # type: ignore[arg-type]
        )
    console.print(table)


def commands() -> dict[str, typer.Typer]:
    """The commands this game adds, by the shared group they join."""
    return {"odds": anvil_odds, "units": units_app}
