"""Forged upon an Anvil's help at the table: ``data/help.toml`` joined with each unit type's and each
stratagem's profile, read from the game's own data (``data/rules.toml``), never retyped."""

from __future__ import annotations

from iwgt.core.help import GameHelp, Profile, load_help
from iwgt.games.anvil.rules import DATA_DIR, FIGHTING_TYPES, UNIT_TYPES, Stratagem, rules

HELP_FILE = DATA_DIR / "help.toml"

GROUPS = {
    "interruption": "Interruption (in the enemy's activation)",
    "combat": "Combat",
    "shooter": "Shooter",
    "heroic": "Heroic",
    "deployment": "Deployment (chosen with the army)",
    "spell": "Spell or natural",
    "movement": "Movement",
}
"""Each stratagem list's heading, as the text names them."""


def inches(x: float) -> str:
    """A distance as players say it: 6", 1.5"."""
    return f'{x:g}"'


def cost(s: Stratagem) -> str:
    """A stratagem's price as the text prints it: ``3 CP``, ``-1 DCP``."""
    return f"{s.cost} {s.currency}"


def availability(unit: str) -> str:
    """A unit type's availability, as the Unit Deployment table gives it: ``at most 30%``, ``exactly 1``."""
    d = rules().deployment[unit]  # type: ignore[index]
    if d.op == "==":
        return f"exactly {d.count}"
    word = "at most" if d.op == "<=" else "at least"
    return f"{word} {d.percent}% of the army's DCP"


def users(unit: str) -> list[Stratagem]:
    """The stratagems a unit type may use (the Seat of Power none, FA-GN-08)."""
    if unit not in FIGHTING_TYPES:
        return []
    r = rules()
    shoots = unit in r.stratagems["shooter"].users if "shooter" in r.stratagems else True
    return [s for s in r.stratagems.values() if unit in s.users and (shoots or "shooter" not in s.requires)]


def profiles() -> dict[str, Profile]:
    """The profile of every unit type and every stratagem, keyed ``kind:id``."""
    r = rules()
    out: dict[str, Profile] = {}
    for unit in UNIT_TYPES:
        p, d = r.units[unit], r.deployment[unit]
        rows = [
            ("Move", inches(p.move) if p.move else "never moves"),
            ("HP", str(p.hp)),
            ("DCP", str(d.dcp)),
            ("Availability", availability(unit)),
        ]
        if unit == "seat":
            rows.append(("Fights as", "a Troop"))
        usable = users(unit)
        rows.append(("Stratagems", ", ".join(s.name for s in usable) if usable else "none"))
        out[f"unit:{unit}"] = Profile(p.name, tuple(rows))
    for key, s in r.stratagems.items():
        rows = [("Cost", cost(s)), ("Who", s.printed_users), ("List", GROUPS.get(s.group, s.group))]
        if s.range is not None:
            rows.append(("Range", inches(s.range)))
        out[f"stratagem:{key}"] = Profile(s.name, tuple(rows))
    return out


def game_help() -> GameHelp:
    """Forged upon an Anvil's help, whole."""
    from iwgt.games.anvil.facts import FACTS

    return load_help(HELP_FILE, profiles(), FACTS.name, FACTS.title)
