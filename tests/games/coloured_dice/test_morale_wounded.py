"""A unit wounded through its armour that loses no model tests morale too (CD-MS-03 decision), through the
Game API with the shipped armies. The Troll of Pohjola: one model, Body 3, armour 2, so a wound or two
leave it standing; before this decision single models (characters, monsters, the troll) never tested.

White faces: 1, 2 -> 1, 3 -> 2, 4..6 -> miss. Yellow: 1 -> 1, 2 -> 2, 3..6 -> miss. Orange: 6 -> miss.
"""

from __future__ import annotations

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.actions import Fight, Shoot

from .kit import GAME, battle, roll, unit

ARCHERS = SPEARMEN = 0
TROLL = 1


def _of(events: list[Event], kind: str) -> list[dict[str, object]]:
    return [e.to_json() for e in events if e.kind == kind]


def test_cd_ms_03_a_troll_wounded_by_a_shot_tests_morale() -> None:
    """Kaleva's archers (10 white dice) at the troll 7.5" away, armour 2 + skill 1 = 3 (armour + 1 points a
    wound): two 2s = 4 points, 1 wound; Body 3, so no model falls, and the troll tests morale (reason shot,
    no losses modifier)."""
    st = battle([unit(0, "archers", 24, 5), unit(1, "troll", 24, 14)])
    st, events = GAME.apply(st, Shoot(ARCHERS, TROLL))
    st, more = roll(st, [3, 3] + [6] * 8)
    events += more
    [taken] = _of(events, "WoundsTaken")
    assert (taken["wounds"], taken["removed"], taken["wounds_on"]) == (1, 0, 1)
    awaiting = GAME.observe(st, 1)["awaiting"]
    assert (awaiting["kind"], awaiting["unit"], awaiting["reason"]) == ("morale", TROLL, "shot")
    st, more = roll(st, [3, 3])
    [tested] = _of(more, "MoraleTested")
    assert (tested["unit"], tested["losses"], tested["reason"]) == (TROLL, 0, "shot")


def test_cd_ms_03_a_troll_wounded_in_a_fight_tests_but_an_unhurt_unit_does_not() -> None:
    """The spearmen (12 yellow dice, armour 2) strike the troll first (equal slowness 3, their turn): a 2 and
    a 1 = 3 points, 1 wound, no model falls; the troll's 3 orange dice all miss. After the fight only the
    troll tests (close combat, 0 models lost this round); the unhurt spearmen do not."""
    st = battle([unit(0, "spearmen", 24, 5, files=6), unit(1, "troll", 24, 7.5)])
    st, events = GAME.apply(st, Fight(SPEARMEN, TROLL))
    st, more = roll(st, [2, 1] + [6] * 10 + [6, 6, 6])
    events += more
    assert [(t["unit"], t["removed"]) for t in _of(events, "WoundsTaken")] == [(TROLL, 0)]
    awaiting = GAME.observe(st, 1)["awaiting"]
    assert (awaiting["kind"], awaiting["unit"], awaiting["reason"]) == ("morale", TROLL, "fight")
    st, more = roll(st, [3, 3])
    assert [(t["unit"], t["losses"]) for t in _of(more, "MoraleTested")] == [(TROLL, 0)]
    assert not st.pending
