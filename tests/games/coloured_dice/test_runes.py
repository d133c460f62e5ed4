"""Rune magic (CD-MA-12/13): single runes are modest, combinations add their own bonus on top."""

from __future__ import annotations

import pytest

from iwgt.games.coloured_dice.magic_data import Bonus
from iwgt.games.coloured_dice.runes import combos_of, rune_bonus


def test_cd_ma_12_a_single_rune_is_modest() -> None:
    """The iron rune: +1 armour in close combat, nothing against shooting (magic.toml)."""
    assert rune_bonus(["rune_iron"]) == Bonus(armour_fight=1)
    assert rune_bonus(["rune_fury"]) == Bonus(dice=("red",))
    assert rune_bonus(["rune_swift"]) == Bonus(move=1.0)
    assert rune_bonus([]) == Bonus()


def test_cd_ma_13_iron_and_fury_make_the_anvil_rune() -> None:
    """Iron (+1 fight) + fury (1 red) + the anvil's own (+1 fight, +1 shot, 2 red): +2 fight, +1 shot,
    3 red."""
    assert combos_of(["rune_fury", "rune_iron"]) == ["anvil_rune"]
    assert rune_bonus(["rune_iron", "rune_fury"]) == Bonus(
        armour_fight=2, armour_shot=1, dice=("red", "red", "red")
    )


def test_cd_ma_13_swift_and_fury_make_the_wind_rune() -> None:
    """Swift (+1") + fury (1 red) + the wind's own (+2", 1 red): +3", 2 red."""
    assert rune_bonus(["rune_swift", "rune_fury"]) == Bonus(move=3.0, dice=("red", "red"))


def test_cd_ma_13_three_runes_make_both_combinations() -> None:
    """All three: anvil and wind both apply: +2 fight, +1 shot, +3", 1 + 2 + 1 = 4 red dice."""
    assert combos_of(["rune_iron", "rune_fury", "rune_swift"]) == ["anvil_rune", "wind_rune"]
    b = rune_bonus(["rune_iron", "rune_fury", "rune_swift"])
    assert (b.armour_fight, b.armour_shot, b.move, b.dice) == (2, 1, 3.0, ("red",) * 4)


def test_a_rune_carried_twice_counts_once() -> None:
    """Two iron runes are one iron rune (designed: a stone's power is not doubled)."""
    assert rune_bonus(["rune_iron", "rune_iron"]) == Bonus(armour_fight=1)


def test_an_unknown_rune_is_refused_by_name() -> None:
    """Army data naming a rune magic.toml does not have is an error, not a silent nothing."""
    with pytest.raises(KeyError, match="rune_gold"):
        rune_bonus(["rune_gold"])
