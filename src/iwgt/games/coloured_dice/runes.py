"""Rune magic (CD-MA-12/13): runes carried by units, passive and always on, and their combinations.

A unit's runes are its profile's ``runes`` (army data). Each rune gives a modest bonus; a combination
(``combos`` in ``data/magic.toml``) whose runes a unit all carries adds its own bonus ON TOP of theirs
("single runes are often fairly modest, but in combination they become very impressive", designed). A rune
may take part in several combinations: each applies.
"""

from __future__ import annotations

from collections.abc import Sequence

from iwgt.games.coloured_dice.magic_data import Bonus, MagicRules, magic_rules


def combos_of(runes: Sequence[str], data: MagicRules | None = None) -> list[str]:
    """The combinations a unit carrying these runes makes (in the data's order)."""
    book = data or magic_rules()
    have = set(runes)
    return [key for key, combo in book.combos.items() if set(combo.runes) <= have]


def rune_bonus(runes: Sequence[str], data: MagicRules | None = None) -> Bonus:
    """The whole bonus of a unit's runes: each rune's, then each combination's on top (CD-MA-12/13).

    An unknown rune key is refused (KeyError names it): the army data and the magic data must agree.
    """
    book = data or magic_rules()
    parts: list[Bonus] = []
    for key in dict.fromkeys(runes):  # a rune carried twice counts once: a stone's power is not doubled
        if key not in book.runes:
            raise KeyError(f"no rune {key!r} in magic.toml (known: {', '.join(sorted(book.runes))})")
        parts.append(book.runes[key])
    parts.extend(book.combos[key] for key in combos_of(runes, book))
    return add(parts)


def add(parts: Sequence[Bonus]) -> Bonus:
    """The sum of several bonuses."""
    return Bonus(
        armour_fight=sum(p.armour_fight for p in parts),
        armour_shot=sum(p.armour_shot for p in parts),
        move=sum(p.move for p in parts),
        dice=tuple(d for p in parts for d in p.dice),
    )
