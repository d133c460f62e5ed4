"""What the touchscreen needs of the Coloured-Dice rules: the eight dice (faces in order, so the screen draws
a face as the die shows it), each army's unit types with their profiles in the text's own terms, the weapons
with their dice and ranges, the armours, the orders, the troop kinds (base, move), the terrain kinds, the
magic (spells, gifts, gods, spirits, runes) and the measures the screen draws; all read from the game's data
(``data/dice.toml``, ``data/rules.toml``, ``data/armies.toml``, ``data/magic.toml``):
``GET /api/games/coloured-dice/data``. Also ``iwgt units coloured-dice``, the armies' profiles as a table.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.protocol import JSON
from iwgt.core.terminal import console, fail


def _dump(model: Any) -> JSON:
    """A data model as JSON (tuples as lists, the designed reasons kept: the screen shows them)."""
    out: JSON = model.model_dump(mode="json")
    return out


def dice_json() -> JSON:
    """Each die by colour, in pool order: its faces (index 1..6 is the place in the list) and mean points."""
    from iwgt.games.coloured_dice.dice import COLOURS, faces, labels

    out: JSON = {}
    for colour in COLOURS:
        shown = faces(colour)
        out[colour] = {
            "faces": list(shown),
            "labels": list(labels(colour)),
            "mean": round(sum(f for f in shown if isinstance(f, int)) / len(shown), 4),
            "kill": "kill" in shown,
        }
    return out


def profile_json(p: Any) -> JSON:
    """A unit type's profile as the army list prints it, with its weapons named."""
    out = _dump(p)
    out["individual"] = bool(p.individual)
    out["will"] = p.will_value if p.will is not None else None
    return out


def armies_json() -> JSON:
    """Each army: its name, colour, unit types (in the data's order) and released spirits."""
    from iwgt.games.coloured_dice.rules import armies

    return {
        key: {
            "name": a.name,
            "colour": a.colour,
            "designed": a.designed,
            "units": {k: profile_json(p) for k, p in a.units.items()},
            "unit_order": list(a.units),
            "spirits": {k: profile_json(p) for k, p in a.spirits.items()},
        }
        for key, a in armies().items()
    }


def magic_json() -> JSON:
    """The five kinds of magic's data: spells, gods and their gifts, spirits, runes and their combinations."""
    from iwgt.games.coloured_dice.magic_data import magic_rules

    m = magic_rules()
    return {
        "spells": {k: _dump(s) for k, s in m.spells.items()},
        "gods": {k: _dump(g) for k, g in m.gods.items()},
        "gifts": {k: _dump(g) for k, g in m.gifts.items()},
        "spirits": {k: _dump(s) for k, s in m.spirits.items()},
        "runes": {k: _dump(r) for k, r in m.runes.items()},
        "combos": {k: _dump(c) for k, c in m.combos.items()},
        "constants": _dump(m.constants),
    }


def catalogue() -> JSON:
    """The dice, armies, weapons, armours, orders, kinds, terrain, magic and measures, as JSON."""
    from iwgt.games.coloured_dice.dice import COLOURS
    from iwgt.games.coloured_dice.facts import RULES_VERSION
    from iwgt.games.coloured_dice.rules import rules

    r = rules()
    return {
        "version": RULES_VERSION,
        "dice": dice_json(),
        "dice_order": list(COLOURS),
        "armies": armies_json(),
        "weapons": {k: _dump(w) for k, w in r.weapons.items()},
        "armours": {k: _dump(a) for k, a in r.armours.items()},
        "orders": {k: _dump(o) for k, o in r.orders.items()},
        "kinds": {k: _dump(kind) for k, kind in r.kinds.items()},
        "terrain": {k: _dump(t) for k, t in r.terrain.items()},
        "magic": magic_json(),
        "measures": _dump(r.constants),
    }


# ------------------------------------------------------------------------------------------ iwgt units

units_app = typer.Typer(
    invoke_without_command=True,
    help="Coloured-Dice: each army's unit types in the text's own terms (Us, armour, weapons and dice).",
)


def _weapon_dice(keys: Any) -> str:
    """A profile's weapons and their dice per model: ``Spear (1 yellow, reach 2); Javelins (8": 1 blue)``."""
    from iwgt.games.coloured_dice.help import weapon_words

    return "; ".join(weapon_words(k) for k in keys)


@units_app.callback()
def units(
    army: Annotated[
        str | None, typer.Option(help="one army's key (kaleva, pohjola...); default: all")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="the armies as JSON, as the screen reads them")
    ] = False,
) -> None:
    """Each army's unit types: kind, models, points, Us, armour, body, shooting, slowness and weapons."""
    data = armies_json()
    if army is not None:
        if army not in data:
            raise fail(f"--army: unknown army {army!r}; choose {', '.join(data)}")
        data = {army: data[army]}
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        return
    for key, a in data.items():
        table = Table(title=f"Coloured-Dice: {a['name']} ({key})", caption=f"designed: {a['designed']}")
        for head in (
            "type",
            "name",
            "kind",
            "models",
            "pts",
            "Us",
            "arm",
            "body",
            "shoot",
            "slow",
            "weapons",
        ):
            right = head in ("models", "pts", "arm", "body", "shoot", "slow")
            table.add_column(head, justify="right" if right else "left")
        for k in a["unit_order"]:
            p = a["units"][k]
            us = f"{p['us']} {p['us_kind']}" + (" +leader" if p["leader"] else "")
            table.add_row(
                k,
                str(p["name"]),
                str(p["kind"]),
                str(p["models"]),
                str(p["points"]),
                us,
                str(p["armour"]),
                str(p["body"]),
                "-" if p["shooting"] is None else str(p["shooting"]),
                str(p["slowness"]),
                _weapon_dice(p["weapons"]),
            )
        console.print(table)
