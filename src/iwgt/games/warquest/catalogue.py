"""What the touchscreen needs of WarQuest: both maps' drawing data (``maps.map_json``: outlines, kingdoms,
cities, locations, borders), the troop table, the special locations, the seats' names and colours, the combat
die's faces and the public texts of the power and event cards, all read from the game's data:
``GET /api/games/warquest/data``. Quest and conquest cards are not listed: a hand is secret, and the
observation gives its holder the cards it holds (issue 15 section 4).

Also ``iwgt units warquest``: the troop table, as a Rich table or ``--json``.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.protocol import JSON
from iwgt.core.terminal import console
from iwgt.games.warquest.score import SEAT_COLOURS, SEAT_NAMES


def unit_json(t: Any) -> JSON:
    """One troop kind as ``iwgt units warquest --json`` lists it (the issue's fields and the spec's):
    ``designed`` is false only for the rows the text prints (WQ-TR-01..04)."""
    return {
        "id": t.key,
        "name": t.name,
        "cost": t.cost,
        "attack": t.attack,
        "defense": t.defense,
        "missile": bool(t.missile),
        "advanced": bool(t.advanced),
        "designed": t.designed is not None,
        "pool": t.pool,
        "people": t.people,
        "specials": list(t.specials),
    }


def units_json() -> list[JSON]:
    """Every troop kind, in the data's order."""
    from iwgt.games.warquest.rules import rules

    return [unit_json(t) for t in rules().troops.values()]


def troop_json(t: Any) -> JSON:
    """A troop kind as the screen draws and explains it: the units fields and where it is recruited, its
    rage, elite and unique marks and the designed reason (None for a printed row)."""
    return {
        **unit_json(t),
        "recruit": t.recruit,
        "rage": t.rage,
        "elite": bool(t.elite),
        "unique": bool(t.unique),
        "reason": t.designed,
    }


def catalogue() -> JSON:
    """The maps, troops, locations, seats, combat die and public card texts, as JSON."""
    from iwgt.games.warquest.battle import COMBAT_FACES
    from iwgt.games.warquest.facts import RULES_VERSION
    from iwgt.games.warquest.maps import LOCATIONS, load_map, map_json, map_keys
    from iwgt.games.warquest.rules import rules

    r = rules()
    return {
        "version": RULES_VERSION,
        "maps": {key: map_json(load_map(key)) for key in map_keys()},
        "troops": {k: troop_json(t) for k, t in r.troops.items()},
        "troop_order": list(r.troops),
        "locations": {k: {"name": name, "kind": kind} for k, (name, kind) in LOCATIONS.items()},
        "seats": [{"seat": i, "name": n, "colour": SEAT_COLOURS[i]} for i, n in enumerate(SEAT_NAMES)],
        "combat_die": list(COMBAT_FACES),
        "powers": [
            {
                "id": c.id,
                "key": c.key,
                "name": c.name,
                "text": c.text,
                "cost": c.cost,
                "effect": c.effect,
                "event": c.event,
            }
            for c in r.powers.values()
        ],
        "events": [
            {"id": c.id, "key": c.key, "name": c.name, "text": c.text, "effect": c.effect}
            for c in r.events.values()
        ],
    }


# ------------------------------------------------------------------------------------------ iwgt units

units_app = typer.Typer(
    invoke_without_command=True,
    help="WarQuest: the troop table (cost, attack dice, defence, missile, advanced, pool, special powers).",
)


@units_app.callback()
def units(
    as_json: Annotated[bool, typer.Option("--json", help="the troop table as a JSON list")] = False,
) -> None:
    """Every troop kind: cost in gold (- for the Wraith King), attack dice, defence, (M), Basic or Advanced,
    pool, people and special powers; the printed rows (WQ-TR-01..04) are marked."""
    rows = units_json()
    if as_json:
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        return
    table = Table(title="WarQuest: troops", caption="* designed (the text prints only the last four rows)")
    for head in ("id", "name", "cost", "att", "def", "M", "kind", "pool", "people", "special"):
        table.add_column(head, justify="right" if head in ("cost", "att", "def", "pool") else "left")
    for u in rows:
        table.add_row(
            u["id"] + ("*" if u["designed"] else ""),
            u["name"],
            "-" if u["cost"] is None else str(u["cost"]),
            str(u["attack"]),
            str(u["defense"]),
            "M" if u["missile"] else "",
            "advanced" if u["advanced"] else "basic",
            str(u["pool"]),
            u["people"],
            ", ".join(s.replace("_", " ") for s in u["specials"]),
        )
    console.print(table)
