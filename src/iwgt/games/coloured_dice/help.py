"""The Coloured-Dice Fantasy Battle Rules' help at the table: ``data/help.toml`` joined with each die's faces,
each kind of ground's rules and each army's unit types, read from the game's own data (``data/dice.toml``,
``data/rules.toml``, ``data/armies.toml``), never retyped."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from iwgt.core.help import GameHelp, Profile, load_help

HELP_FILE: Final = Path(__file__).parent / "data" / "help.toml"
"""The help file beside the game's other data."""


def inches(x: float) -> str:
    """A distance as players say it: 6", 1.5"."""
    return f'{x:g}"'


def tax(value: Any) -> str:
    """A movement tax as the text gives it: ``-1"``, ``-d6"``, ``none``."""
    if isinstance(value, str):
        return f'-{value}"'
    return f"-{inches(float(value))}" if value else "none"


def die_profiles() -> dict[str, Profile]:
    """Each die's faces in the order of the data (the face index 1..6 is its place in the list)."""
    from iwgt.games.coloured_dice.dice import COLOURS, faces

    out: dict[str, Profile] = {}
    for colour in COLOURS:
        shown = [str(f) for f in faces(colour)]
        numbers = [f for f in faces(colour) if isinstance(f, int)]
        rows = (
            ("Faces", ", ".join(shown)),
            ("Mean", f"{sum(numbers) / len(shown):.2f} points"),
        )
        out[f"die:{colour}"] = Profile(f"{colour.capitalize()} die", rows)
    return out


def terrain_profiles() -> dict[str, Profile]:
    """Each kind of ground: its movement taxes, whether it stops a kind of troops or marching, its cover and
    whether it blocks sight."""
    from iwgt.games.coloured_dice.rules import rules

    out: dict[str, Profile] = {}
    for key, t in rules().terrain.items():
        rows: list[tuple[str, str]] = []
        rows.append(("Infantry", "cannot enter" if t.infantry_blocked else tax(t.infantry_tax)))
        rows.append(("Cavalry", "cannot enter" if t.cavalry_blocked else tax(t.cavalry_tax)))
        if t.marching_blocked:
            rows.append(("Marching", "not that turn"))
        cover = [
            (label, value)
            for label, value in (
                ("among", t.among_cover),
                ("at the edge", t.edge_cover),
                ("behind", t.behind_cover),
                ("inside", t.inside_cover),
            )
            if value
        ]
        if cover:
            rows.append(("Cover", ", ".join(f"+{v} {where}" for where, v in cover)))
        if t.hill:
            rows.append(("Higher side", f"+{rules().constants.hill_bonus} armour"))
        if t.blocks_los:
            rows.append(("Sight", "blocked"))
        if t.removable:
            rows.append(("Cleared", f"by more than {rules().constants.few_models} models"))
        out[f"terrain:{key}"] = Profile(t.name, tuple(rows))
    return out


def dice_words(dice: Any) -> str:
    """Dice per model, counted by colour in their order: ``3 violet``, ``1 white, 1 black``."""
    counts: dict[str, int] = {}
    for colour in dice:
        counts[colour] = counts.get(colour, 0) + 1
    return ", ".join(f"{n} {c}" for c, n in counts.items())


def weapon_words(key: str) -> str:
    """A weapon and its dice per model: ``Spear (yellow, reach 2)``, ``Javelins (8": blue)``."""
    from iwgt.games.coloured_dice.rules import rules

    w = rules().weapons.get(key)
    if w is None:
        return key
    parts = []
    if w.melee:
        parts.append(dice_words(w.melee) + (f", reach {w.reach}" if w.reach > 1 else ""))
    if w.missile is not None:
        parts.append(f"{inches(w.missile.range)}: " + dice_words(w.missile.dice))
    return f"{w.name} ({'; '.join(parts)})" if parts else w.name


def unit_rows(p: Any) -> tuple[tuple[str, str], ...]:
    """A unit type's profile as the army list prints it: what the text shows only when it has it (Body
    above 1, bear wound, hero, will, God-likeness) is left out otherwise (CD-CH-08, CD-CH-10, CD-CH-27)."""
    rows: list[tuple[str, str]] = [
        ("Kind", p.kind),
        ("Models", str(p.models)),
        ("Points", f"{p.points} a model"),
        (p.us_kind, str(p.us) + (" (a leader doubles it)" if p.leader else "")),
        ("Armour", str(p.armour)),
    ]
    if p.leader and p.leader_bonus:
        rows.append(("Leader", f"{p.leader_bonus:+d}"))
    if p.body > 1:
        rows.append(("Body", str(p.body)))
    if p.shooting is not None:
        rows.append(("Shooting", str(p.shooting)))
    rows.append(("Slowness", str(p.slowness)))
    rows.append(("Weapons", "; ".join(weapon_words(k) for k in p.weapons)))
    if p.bear_wound is not None:
        b = p.bear_wound
        rows.append(("Bear wound", f"{b.dice} {b.colour} a {b.per}"))
    if p.hero:
        rows.append(("Hero", str(p.hero)))
    if p.will is not None:
        rows.append(("Will", str(p.will)))
    if p.god_like:
        rows.append(("God-like", f"{p.god_like} ({p.god})" if p.god else str(p.god_like)))
    for label, keys in (
        ("Abilities", p.abilities),
        ("Spells", p.spells),
        ("Spirits", p.spirits),
        ("Runes", p.runes),
    ):
        if keys:
            rows.append((label, ", ".join(str(k).replace("_", " ") for k in keys)))
    return tuple(rows)


def unit_profiles() -> dict[str, Profile]:
    """Each army's unit types and released spirits, keyed ``unit:<army>.<type>``."""
    from iwgt.games.coloured_dice.rules import armies

    out: dict[str, Profile] = {}
    for army_key, army in armies().items():
        for key, p in {**army.units, **army.spirits}.items():
            out[f"unit:{army_key}.{key}"] = Profile(f"{p.name} ({army.name})", unit_rows(p))
    return out


def profiles() -> dict[str, Profile]:
    """The profile of every die, kind of ground and unit type, keyed ``kind:id``."""
    return {**die_profiles(), **terrain_profiles(), **unit_profiles()}


def game_help() -> GameHelp:
    """The Coloured-Dice rules' help, whole."""
    from iwgt.games.coloured_dice.facts import FACTS

    return load_help(HELP_FILE, profiles(), FACTS.name, FACTS.title)
