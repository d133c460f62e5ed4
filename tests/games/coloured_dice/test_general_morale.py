"""Every row of the general-morale table in play (CD-GM-04..13), destroyed and routed bookkeeping, VP, Will.

Starting Us: the host has Us 10 with a leader and +5: 2 x 10 + 5 = 25 (CD-GM-05); the guard Us 7 with a
leader: 14 (a guard given a starting Us of 16 by hand stands for 15 or more, CD-GM-06).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.coloured_dice.combat_kit import combat_profiles, drive, of, state, unit

from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.combat_events import GeneralMoraleChanged, UnitDestroyed, VictoryPoints
from iwgt.games.coloured_dice.general_morale import lose_unit, objective_row
from iwgt.games.coloured_dice.pending import D6Roll
from iwgt.games.coloured_dice.state import CdState

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")


def _two(key: str, **kw: object) -> CdState:
    mine = unit(0, 0, key, (20.0, 10.0), **kw)  # type: ignore[arg-type]
    theirs = unit(1, 1, "militia", (20.0, 40.0))
    return state(mine, theirs)


def _rows(events: list) -> set[tuple[int, int, str]]:
    return {(e.seat, e.change, e.row) for e in of(events, GeneralMoraleChanged)}


def test_cd_gm_05_11_a_unit_of_starting_us_25_destroyed_minus_2_and_plus_1() -> None:
    """CD-GM-05 (only the higher row: -2, not -3) and CD-GM-11 (+1 to the enemy)."""
    s = _two("host")
    assert s.unit(0).start_us == 25
    events: list = []
    s = lose_unit(s, 0, "wounds", events)
    assert s.general_morale == (-2, 1)
    assert _rows(events) == {(0, -2, "own_unit_destroyed_25"), (1, 1, "enemy_unit_destroyed_25")}


def test_cd_gm_06_a_unit_of_starting_us_15_destroyed_minus_1_no_enemy_row() -> None:
    """CD-GM-06: -1; there is no enemy row for 15-24 (CD-GM-11)."""
    s = _two("guard", start_us=16)
    events: list = []
    s = lose_unit(s, 0, "wounds", events)
    assert s.general_morale == (-1, 0)
    assert _rows(events) == {(0, -1, "own_unit_destroyed_15")}


def test_under_15_no_row_but_the_enemy_scores_the_points() -> None:
    """Starting Us 14: no row; the enemy scores 12 models x 5 points (designed VP)."""
    s = _two("guard")
    events: list = []
    s = lose_unit(s, 0, "wounds", events)
    assert s.general_morale == (0, 0)
    assert s.vp == (0, 60)
    assert of(events, VictoryPoints)[0].total == 60


def test_a_routed_unit_counts_as_destroyed() -> None:
    """Designed: routed counts as destroyed for general morale and VP."""
    s = _two("host")
    events: list = []
    s = lose_unit(s, 0, "routed", events, routed=True)
    assert s.unit(0).routed and not s.unit(0).destroyed and s.unit(0).gone
    assert s.general_morale == (-2, 1) and s.vp == (0, 150)
    assert of(events, UnitDestroyed)[0].routed


def test_cd_gm_07_a_banner_lost_out_of_contact_is_not_captured() -> None:
    """CD-GM-07: the banner unit gone with no enemy touching it: -1, nobody +1."""
    s = _two("guard", banner=True)
    events: list = []
    s = lose_unit(s, 0, "routed", events, routed=True)
    assert s.general_morale == (-1, 0)


def test_cd_gm_04_10_leader_death_is_a_d6_chance_node() -> None:
    """CD-GM-04/10: the general gone: one d6 (here 6): -6 for his side, +6 for the enemy."""
    s = _two("hero", general=True)
    events: list = []
    s = lose_unit(s, 0, "wounds", events)
    assert isinstance(s.top, D6Roll)
    assert resolve.die_needed(s) is not None and resolve.die_needed(s).sides == 6  # type: ignore[union-attr]
    s, _ = drive((s, []), [6])
    assert s.general_morale == (-6, 6) and not s.pending


def test_cd_gm_13_an_objective_achieved_plus_1() -> None:
    """CD-GM-13: +1 (the flow calls it when a side takes an objective)."""
    events: list = []
    s = objective_row(_two("militia"), 1, events)
    assert s.general_morale == (0, 1)


def test_cd_ch_24_a_character_at_will_0_leaves_the_game() -> None:
    """CD-CH-24: Will 1 spent: 0 or less, the character is removed (counts as destroyed; the general's d6)."""
    s = _two("hero", general=True, will=1)
    events: list = []
    s = resolve.spend_will(s, 0, 1, events)
    assert s.unit(0).destroyed and of(events, UnitDestroyed)[0].cause == "will"
    assert isinstance(s.top, D6Roll)


def test_lose_unit_twice_counts_once() -> None:
    """A unit already gone is not scored again."""
    s = _two("host")
    events: list = []
    s = lose_unit(s, 0, "wounds", events)
    again: list = []
    s2 = lose_unit(s, 0, "routed", again, routed=True)
    assert s2 == s and not again


def test_general_morale_helps_every_later_test() -> None:
    """CD-MM-05: with general morale +6 an 11 passes at target 7 (11 - 6 = 5)."""
    s = replace(_two("militia"), general_morale=(6, 0))
    st, _ = drive(resolve.begin_morale_test(s, 0, close_combat=False, reason="shot"), [5, 6])
    assert not st.unit(0).shaken
