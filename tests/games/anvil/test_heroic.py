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
