"""Days of the Valkyrx's help at the table: ``data/help.toml`` joined with the profile of every unit type (the
Character Attributes Table, ``data/units.toml``), every spell (``data/spells.toml``) and every kind of ground
(``scenario.py``, with its numbers from ``data/rules.toml``), read from that data, never retyped."""

from __future__ import annotations

from typing import get_args

from iwgt.core.help import GameHelp, Profile, load_help
from iwgt.games.valkyrx.facts import FACTS
from iwgt.games.valkyrx.units import DATA_DIR, UnitType, unit_types

HELP_FILE = DATA_DIR / "help.toml"
SIDE = {"light": "Forces of the Light", "darkness": "Forces of Darkness"}
TRAIT_WORDS = {
    "flyer": "flies",
    "wizard": "wizard",
    "master_wizard": "Master wizard",
    "stealth": "stealth (hidden moves)",
    "burrower": "burrows underground",
    "undead": "undead",
    "living_spirit": "Living Spirit",
    "supreme_leader": "Supreme Leader",
    "magic_weapon": "magical weapons",
    "war_machine": "war machine",
    "mounted": "mounted",
}
"""The traits a profile names (the others are said in the topic's text and rules)."""


def terrain_kinds() -> tuple[str, ...]:
    """Every kind of ground a scenario may place (``scenario.TerrainKind``)."""
    from iwgt.games.valkyrx.scenario import TerrainKind

    return get_args(TerrainKind)


def unit_profile(t: UnitType) -> Profile:
    """A unit type's row of the attributes table, as a player reads it."""
    if t.charge is None:
        from iwgt.games.valkyrx.config import rules_config

        walk = max(1, t.move // rules_config().movement.flyer_walk_divisor)
        move = f"fly {t.move} cells (or walk {walk})" if t.has("flyer") else f"{t.move} cells"
    else:
        move = f"{t.move} cells, charge {t.charge}"
    traits = [w for trait, w in TRAIT_WORDS.items() if trait in t.traits]
    rows = [
        ("Side", f"{SIDE[t.side]} ({t.rank})"),
        ("Represents", "one character" if t.is_character else f"{t.bodies} troops"),
        ("Movement", move),
        ("Attack", f"{t.attack:,}"),
        ("Defence", f"{t.defence:,}"),
        ("Weapon range", f"{t.range} cell" + ("s (missile)" if t.range > 1 else " (close combat)")),
        ("Strike rate, accuracy", f"{t.rate_of_fire}, {t.accuracy}%"),
        ("Melee, resist magic", f"{t.melee}, {t.resist_magic}"),
        ("Morale at the start", str(t.morale)),
        ("Points", f"{t.points:,}"),
    ]
    if traits:
        rows.append(("Traits", ", ".join(traits)))
    return Profile(t.name, tuple(rows))


def profiles() -> dict[str, Profile]:
    """The profile of every unit type, spell and kind of ground, keyed ``kind:id``."""
    from iwgt.games.valkyrx.config import rules_config
    from iwgt.games.valkyrx.spellbook import spell_table

    out: dict[str, Profile] = {f"unit:{t.id}": unit_profile(t) for t in unit_types().values()}
    for s in spell_table().spell:
        reach = {"local": "the wizard's own cell and those next to it", "all": "the whole table"}
        rows = [
            ("Range", reach.get(str(s.range), f"{s.range} cells")),
            ("Lasts", f"{s.duration} turn" + ("s" if s.duration != 1 else "")),
            ("Takes effect", "this turn" if s.timing == "immediate" else "the following turn"),
            ("Red (Master wizards only)", "yes" if s.red else "no"),
            ("Can be resisted", "yes" if s.resisted else "no"),
            ("Effect", s.effect),
        ]
        out[f"spell:{s.id}"] = Profile(s.name, tuple(rows))
    r = rules_config()
    extra = r.movement.difficult_extra_cost
    ground: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
        "impassable": ("Impassable ground", (("Movement", "no unit on the ground may enter it"),)),
        "difficult": ("Difficult ground", (("Movement", f"entering it costs {extra} cell more"),)),
        "quicksand": (
            "Quicksand",
            (
                ("Movement", f"entering it costs {extra} cell more"),
                (
                    "Losses",
                    f"{r.combat.quicksand_casualties:.0%} of the unit's troops, on every ground move there",
                ),
            ),
        ),
        "temple": (
            "The Temple",
            (
                ("Prayer", "a 50:50 chance, once per unit"),
                (
                    "Powers",
                    f"for {r.abilities.temple_turns} turns: movement x2, casualties inflicted "
                    f"x{r.combat.temple_inflict_factor:g}, received x{r.combat.temple_receive_factor:g}",
                ),
                ("Failure", "the unit is destroyed"),
            ),
        ),
    }
    for kind in terrain_kinds():
        title, said = ground.get(kind, (kind.capitalize(), ()))
        out[f"terrain:{kind}"] = Profile(title, said)
    return out


def game_help() -> GameHelp:
    """Days of the Valkyrx's help, whole."""
    return load_help(HELP_FILE, profiles(), FACTS.name, FACTS.title)
