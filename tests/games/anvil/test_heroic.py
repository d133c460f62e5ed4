"""Steady and Raise a Champion (FA-SH-01..06), measured by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import RaiseChampion, Steady
from iwgt.games.anvil.heroic import heroic_actions

from .kit import act, kinds, place, table


def _steady(friend_hp: int = 2, friend_x: float = 22.0, general: bool = True):  # type: ignore[no-untyped-def]
    """The General's Troop at (18, 10); a friendly Troop at (friend_x, 10): 1" apart at x = 22."""
    return table(
        [place(0, "troop", 18, 10, general=general), place(0, "troop", friend_x, 10, hp=friend_hp)],
        cp=(10, 10),
    )


def test_steady_gives_one_hp() -> None:
    """FA-SH-01/02: 1 CP; the friend 1" away goes from 2 to 3 HP."""
    s = _steady()
    assert heroic_actions(s) == [Steady(0, 1)]
    s, ev = act(s, Steady(0, 1))
    assert s.unit(1).hp == 3 and s.cp == (9, 10) and "UnitHealed" in kinds(ev)
    assert "steady" in s.turn_used[0]


def test_steady_never_above_the_starting_hp() -> None:
    """FA-SH-02 decided: a friend at its starting HP gains nothing: not offered, refused."""
    s = _steady(friend_hp=4)
    assert heroic_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SH-02"):
        act(s, Steady(0, 1))


def test_steady_within_six_inches_of_another_unit_by_the_general() -> None:
    """FA-SH-01/02: 7" apart (x = 28: 26.5 - 19.5) is too far; only the General's unit; not itself."""
    with pytest.raises(IllegalAction, match="FA-SH-02"):
        act(_steady(friend_x=28.0), Steady(0, 1))
    with pytest.raises(IllegalAction, match="FA-SH-01"):
        act(_steady(general=False), Steady(0, 1))
    s = table([place(0, "troop", 18, 10, general=True, hp=2)], cp=(10, 10))
    with pytest.raises(IllegalAction):
        act(s, Steady(0, 0))


def _champion(raiser: str = "troop"):  # type: ignore[no-untyped-def]
    """A Troop touching the front of the enemy Seat of Power (its front edge at y = 14.25)."""
    return table([place(0, raiser, 18, 13.5), place(1, "seat", 18, 15)], cp=(10, 10))


def test_raise_a_champion_places_a_four_hp_hero_beside() -> None:
    """FA-SH-03..05: 2 CP; a Hero (4 HP, outside the army) with its tray touching the raiser."""
    s = _champion()
    offered = heroic_actions(s)
    assert RaiseChampion(0, (21.0, 13.5), 0.0) in offered
    s, _ = act(s, RaiseChampion(0, (21.0, 13.5), 0.0))
    hero = s.units[-1]
    assert hero.type == "hero" and hero.hp == 4 and hero.summoned and hero.seat == 0
    assert s.cp == (8, 10) and "raise_champion" in s.game_used[0]


def test_raise_a_champion_once_per_game_and_only_touching_the_seat() -> None:
    """FA-SH-06: once per game; FA-SH-04: the unit must reach the enemy Seat; FA-SH-03: Wizard or Troop."""
    s = replace(_champion(), game_used=(frozenset({"raise_champion"}), frozenset()))
    assert heroic_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SH-06"):
        act(s, RaiseChampion(0, (21.0, 13.5), 0.0))
    far = table([place(0, "troop", 18, 12), place(1, "seat", 18, 15)], cp=(10, 10))
    with pytest.raises(IllegalAction, match="FA-SH-04"):
        act(far, RaiseChampion(0, (21.0, 12.0), 0.0))
    with pytest.raises(IllegalAction, match="FA-SH-03"):
        act(_champion("knight"), RaiseChampion(0, (21.0, 13.5), 0.0))


def test_the_champion_must_touch_the_raiser_and_fit() -> None:
    """FA-SH-04 decided: beside means touching; it may not overlap a tray."""
    with pytest.raises(IllegalAction, match="touching"):
        act(_champion(), RaiseChampion(0, (25.0, 13.5), 0.0))
    with pytest.raises(IllegalAction, match="overlap"):
        act(_champion(), RaiseChampion(0, (19.0, 13.5), 0.0))


def test_fa_gn_09_unpremeasured_steady_beyond_6_inches_is_spent_with_no_effect() -> None:
    """FA-GN-09 decided, FA-SH-02: premeasuring off, the General's Troop at (18, 10) and two hurt friends:
    one at (18, 16) (trays 4.5" apart: 16 - 0.75 - 10.75) and one at (18, 19) (7.5" apart). Both are
    listed; Steady at the far one costs its 1 CP and heals nothing (spent, like a shot or spell), at the
    near one 1 HP."""
    s = table(
        [
            place(0, "troop", 18, 10, general=True),
            place(0, "troop", 18, 16, hp=2),
            place(0, "troop", 18, 19, hp=2),
        ],
        cp=(10, 10),
        premeasure=False,
    )
    assert heroic_actions(s) == [Steady(0, 1), Steady(0, 2)]
    far, ev = act(s, Steady(0, 2))
    assert far.cp == (9, 10) and far.unit(2).hp == 2
    assert kinds(ev) == ["StratagemUsed", "SpellFizzled"] and "steady" in far.turn_used[0]
    near, _ = act(s, Steady(0, 1))
    assert near.cp == (9, 10) and near.unit(1).hp == 3
    # Premeasuring on, the far friend is neither listed nor helped (refused, no CP spent).
    on = replace(s, options=replace(s.options, premeasure=True))
    assert heroic_actions(on) == [Steady(0, 1)]
    with pytest.raises(IllegalAction, match="FA-SH-02"):
        act(on, Steady(0, 2))
