"""Days of the Valkyrx's own commands: ``iwgt units valkyrx`` and ``iwgt spells valkyrx``."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from iwgt.core.terminal import console

UNIT_KEYS = (
    "name", "side", "bodies", "move", "charge", "attack", "special", "defence", "range",
    "rate_of_fire", "accuracy", "resist_magic", "melee", "morale", "points",
)  # fmt: skip


units_app = typer.Typer(
    invoke_without_command=True, help="Days of the Valkyrx: the Character Attributes Table."
)


@units_app.callback()
def units(
    as_json: Annotated[
        bool, typer.Option("--json", help="a JSON array, one object per unit type, with its id")
    ] = False,
) -> None:
    """The Character Attributes Table (section 16), each unit type with its id for scenario files."""
    from iwgt.games.valkyrx.units import unit_types

    types = list(unit_types().values())
    # The id comes first: it is what a scenario file names (``unit = "guardsmen"``).
    rows = [{"id": u.id, **{k: getattr(u, k) for k in UNIT_KEYS}} for u in types]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(
        title="Days of the Valkyrx: character attributes",
        caption="id: the name scenario files use. atk, spec, def: attack, special abilities, defence; "
        "rng: weapon range in cells; rof: strike rate; acc%: accuracy; RM: resist magic; mel: melee; "
        "mor: starting morale; pts: points value.",
    )
    heads = (
        "id",
        "name",
        "side",
        "bodies",
        "move",
        "atk",
        "spec",
        "def",
        "rng",
        "rof",
        "acc%",
        "RM",
        "mel",
        "mor",
        "pts",
    )
    for h in heads:
        table.add_column(h, justify="left" if h in ("id", "name", "side") else "right")
    for t, r in zip(types, rows, strict=True):
        move = str(r["move"]) if r["charge"] is None else f"{r['move']}/{r['charge']}"
        table.add_row(
            t.id, str(r["name"]), str(r["side"]), str(r["bodies"]), move, str(r["attack"]), str(r["special"]),
            str(r["defence"]), str(r["range"]), str(r["rate_of_fire"]), str(r["accuracy"]),
            str(r["resist_magic"]), str(r["melee"]), str(r["morale"]), str(r["points"]),
        )  # fmt: skip
    Console(highlight=False, width=170).print(table)  # wide enough that no name wraps


SPELL_KEYS = ("id", "name", "duration", "range", "master_only", "timing", "affects", "resisted", "effect")
SPELLS_HELP = (
    "The magic spells table of a game (name, duration, range, master only, effect); with --packs, the "
    "wizards' default packs instead.\n\n"
    "--json prints a JSON array, one object per spell in table order, with the keys id, name, duration "
    '(turns), range (cells, or "local" / "all"), master_only (the red spells), timing ("immediate": in force '
    'from the casting turn; "following": from the next turn), affects, resisted (by Resist Magic) and effect '
    "(one line). The packs are not in that array: --packs --json prints them as an object, wizard id to "
    "spell ids."
)


spells_app = typer.Typer(invoke_without_command=True, help=SPELLS_HELP)


@spells_app.callback()
def spells_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False,
    packs: Annotated[
        bool, typer.Option("--packs", help="the wizards' default packs, not the spells")
    ] = False,
) -> None:
    """The magic spells table, or the wizards' default packs (see SPELLS_HELP)."""
    from iwgt.games.valkyrx.spellbook import spell_table
    from iwgt.games.valkyrx.units import unit_types

    data = spell_table()
    if packs:
        if as_json:
            out = {wizard: list(pack) for wizard, pack in data.packs.items()}
            sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
            return
        names = {s.id: s.name for s in data.spell}
        packs_table = Table(
            title="Days of the Valkyrx: the wizards' default packs",
            caption="A wizard left unarmed at deployment takes his default pack (VX-15-05).",
        )
        for h in ("id", "wizard", "spells"):
            packs_table.add_column(h)
        for wizard, pack in data.packs.items():
            packs_table.add_row(wizard, unit_types()[wizard].name, ", ".join(names[s] for s in pack))
        console.print(packs_table)
        return
    # master_only is the table's red mark (VX-11-09); every other key is the spell's own field.
    rows = [{k: s.red if k == "master_only" else getattr(s, k) for k in SPELL_KEYS} for s in data.spell]
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(
        title="Days of the Valkyrx: magic spells",
        caption="duration: turns from the casting turn (+1: from the next turn); range: cells, local (the "
        "wizard himself) or all (the whole field); master only: the red spells. Default packs: --packs.",
    )
    for h in ("id", "name", "duration", "range", "master only", "effect"):
        table.add_column(h, justify="right" if h in ("duration", "range") else "left")
    for r in rows:
        table.add_row(
            str(r["id"]),
            str(r["name"]),
            f"{r['duration']}" + (" (+1)" if r["timing"] == "following" else ""),
            str(r["range"]),
            "yes" if r["master_only"] else "",
            str(r["effect"]),
        )
    Console(highlight=False, width=190).print(table)  # wide enough that no effect wraps


def commands() -> dict[str, typer.Typer]:
    """The commands this game adds, by the shared group they join."""
    return {"units": units_app, "spells": spells_app}
