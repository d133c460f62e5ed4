"""Shooting through the engine with scripted faces (CD-SH, CD-RA-01..06, CD-MS-15 designed, CD-GM-08/09).

The javelin men (seat 0: 16 models in one rank, skill 0, one blue die each, range 8") have their front on
y = 5.5; the target's near edge is 23" or 25" beyond. Blue faces: 1..3 -> 1 point, 4 -> 2, 5..6 -> miss.
"""

from __future__ import annotations

import pytest
from tests.games.coloured_dice.combat_kit import combat_profiles, drive, of, state, unit

from iwgt.core.errors import IllegalAction
from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.actions import React
from iwgt.games.coloured_dice.combat_events import (
    AttackDeclared,
    GeneralMoraleChanged,
    MoraleTested,
    OwnFire,
    PoolRolled,
    ReactionRolled,
    WoundsTaken,
)
from iwgt.games.coloured_dice.pending import D6Roll, ReactAsk

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")

BLUE_MISS = 5
ELEVEN = [4, 4, 4, 4, 4, 1, *([BLUE_MISS] * 10)]  # five 2s and a 1 on sixteen blue dice


def _javelins_at(gap: float) -> resolve.Step:
    shooters = unit(0, 0, "javelins", (20.0, 5.0))  # front edge y = 5.5
    target = unit(1, 1, "militia", (20.0, 5.5 + gap + 0.5))  # one rank, 1" deep: near edge 5.5 + gap
    return resolve.begin_shot(state(shooters, target), 0, 1)


@pytest.mark.parametrize(("gap", "band", "armour"), [(23.0, 2, 3), (25.0, 3, 4)])
def test_cd_ra_03_06_sixteen_blue_dice_rolling_11_remove_2_at_23_and_25_inches(
    gap: float, band: int, armour: int
) -> None:
    """CD-RA-03..06: at 23" +0+1+1 = +2 (armour 3, 4 a casualty); at 25" +3 (armour 4, 5 a casualty): 11
    points remove 2 models both times (skill 0: the javelin men are excellent, CD-RA-04 decision)."""
    st, ev = drive(_javelins_at(gap), [*ELEVEN, 1, 1])
    declared = of(ev, AttackDeclared)[0]
    assert declared.dice == ("blue",) * 16
    parts = dict(declared.parts)
    assert (parts["armour"], parts["skill"], parts["band"], parts["cover"], parts["hill"]) == (
        1,
        0,
        band,
        0,
        0,
    )
    rolled = of(ev, PoolRolled)[0]
    assert (rolled.points, rolled.armour, rolled.wounds) == (11, armour, 2)
    assert st.unit(1).models == 10


def test_a_shot_that_kills_makes_the_target_test_without_the_rounds_losses() -> None:
    """CD-MM-01, CD-MS-03 designed: 10 left of Us 7: target 7; no loss modifier outside close combat."""
    st, ev = drive(_javelins_at(23.0), [*ELEVEN, 3, 3])
    test = of(ev, MoraleTested)[0]
    assert (test.target, test.losses, test.passed, test.reason) == (7, 0, True, "shot")
    assert not st.pending


def test_cd_ra_01_four_range_multiples_at_most() -> None:
    """CD-RA-01 decision: an 8" javelin reaches 32" (band 3); 33" is out of range."""
    _javelins_at(32.0)
    with pytest.raises(IllegalAction, match="CD-RA-01"):
        _javelins_at(33.0)


def test_cd_ra_02_an_exact_multiple_is_the_lower_band() -> None:
    """CD-RA-02 decision: at exactly 24" the band is +2."""
    _, ev = _javelins_at(24.0)
    assert dict(of(ev, AttackDeclared)[0].parts)["band"] == 2


def _melee_shot(friend_models: int) -> resolve.Step:
    shooters = unit(0, 0, "javelins", (8.0, 5.0), models=4, files=4)  # front edge y = 5.5, x 6..10
    friend = unit(1, 0, "axemen", (20.0, 16.0), models=friend_models)  # front edge y = 16.5
    target = unit(2, 1, "militia", (20.0, 17.0), models=4)  # near edge y = 16.5: in contact with the friend
    return resolve.begin_shot(state(shooters, friend, target), 0, 2)


def test_cd_ms_15_own_fire_half_the_wounds_fall_on_the_engaged_friend() -> None:
    """CD-MS-15 designed, CD-GM-08: the friend comes under fire (-1 at once). Four blue 2s = 8 points at
    armour 1 + skill 0 + band 1 (13.6" away) = 2, 3 a wound: 2 wounds; floor(2 / 2) = 1 on the friend."""
    st0, ev0 = _melee_shot(10)
    assert st0.general_morale == (-1, 0)
    assert [e.row for e in of(ev0, GeneralMoraleChanged)] == ["own_fire"]
    armour = of(ev0, AttackDeclared)[0].armour
    assert armour == 2  # 1 + skill 0 + band 1 + no cover
    st, ev = drive((st0, ev0), [4, 4, 4, 4])
    assert of(ev, OwnFire)[0].wounds == 1  # floor(2 / 2)
    taken = {e.unit: e.removed for e in of(ev, WoundsTaken)}
    assert taken == {2: 1, 1: 1}
    assert (st.unit(1).models, st.unit(2).models) == (9, 3)


def test_cd_gm_09_a_friend_destroyed_by_own_fire_costs_a_d6() -> None:
    """CD-GM-09: the friend (1 model) wiped out by own fire: a d6 chance node, its side -d6 (here 5)."""
    st, ev = drive(_melee_shot(1), [4, 4, 4, 4])
    assert st.unit(1).destroyed
    assert isinstance(st.top, D6Roll)
    st, ev = drive((st, ev), [5])
    assert st.general_morale == (-1 - 5, 0)
    assert ev[-1].row == "destroyed_by_own_fire"  # type: ignore[attr-defined]


def test_cd_re_a_reaction_at_16_inches_rolls_2_yellow_dice_and_stands_and_shoots() -> None:
    """CD-RE-01/02: 16 / 8 rounded up = 2 yellow dice; 2 + 1 = 3 over slowness 2: the javelin men shoot the
    charger at once (CD-MS-14 designed). Yellow faces: 1 -> 1, 2 -> 2, 3..6 -> miss."""
    jav = unit(0, 0, "javelins", (20.0, 5.0), models=4, files=4)
    charger = unit(1, 1, "militia", (20.0, 22.0), models=4)  # near edge y = 21.5: 16" from y = 5.5
    st, ev = resolve.begin_reaction(state(jav, charger, seat=1), 0, 1)
    assert st.top == ReactAsk(0, 0, 1, 2)
    st, ev = drive((st, ev), [React(True), 2, 1])
    rolled = of(ev, ReactionRolled)[0]
    assert (rolled.total, rolled.slowness, rolled.success, rolled.effect) == (3, 2, True, "stand_and_shoot")
    shot = of(ev, AttackDeclared)[0]
    assert (shot.attack, shot.unit, shot.target, shot.dice) == ("stand_and_shoot", 0, 1, ("blue",) * 4)


def test_cd_re_a_failed_reaction_does_nothing_and_each_started_8_inches_gives_a_die() -> None:
    """CD-RE-01: a total of 2 is not over slowness 2. CD-RE-02 decision: distance / 8 rounded up (each started
    8" a die, as the range bands count): 7" and 8" -> 1 die, 8.5" -> 2; trays touching -> none."""
    jav = unit(0, 0, "javelins", (20.0, 5.0), models=4, files=4)
    charger = unit(1, 1, "militia", (20.0, 22.0), models=4)
    st, ev = drive(resolve.begin_reaction(state(jav, charger, seat=1), 0, 1), [React(True), 2, 3])
    assert not of(ev, ReactionRolled)[0].success
    assert not st.pending
    for y, dice in ((13.0, 1), (14.0, 1), (14.5, 2)):  # the militia's near edge y - 0.5: 7", 8", 8.5" away
        near = unit(1, 1, "militia", (20.0, y), models=4)
        st2, _ = resolve.begin_reaction(state(jav, near, seat=1), 0, 1)
        assert st2.top == ReactAsk(0, 0, 1, dice)
    touching = unit(1, 1, "militia", (20.0, 6.0), models=4)
    st3, _ = resolve.begin_reaction(state(jav, touching, seat=1), 0, 1)
    assert not st3.pending
