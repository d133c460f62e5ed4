"""Morale tests in play (CD-MO-02..12, CD-MM-01/02, CD-GM-01, CD-CH-18, CD-MS-03 designed).

The militia: Us 7, no leader; 12 models test under min(12, 7) = 7. The guard: Us 7 with a leader, 14, so
10 models test under 10 (CD-MO-12). The hero: iUs 8, tests under 8 alone (CD-MO-01 decision).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.coloured_dice.combat_kit import combat_profiles, drive, of, state, unit

from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.actions import Hero
from iwgt.games.coloured_dice.combat_events import MoraleTested, UnitRallied, UnitRouted, UnitShaken
from iwgt.games.coloured_dice.pending import HeroAsk

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")


def _test(key: str, faces: list[int | Hero], *, gm: int = 0, reason: str = "shot", **kw: object) -> tuple:
    u = unit(0, 0, key, (20.0, 10.0), **kw)  # type: ignore[arg-type]
    far = unit(1, 1, "militia", (20.0, 40.0))
    s = replace(state(u, far), general_morale=(gm, 0))
    return drive(resolve.begin_morale_test(s, 0, close_combat=False, reason=reason), faces)  # type: ignore[arg-type]


def test_cd_mo_11_human_archers_us_7_ten_models_need_under_7() -> None:
    """CD-MO-11: 10 models of Us 7: 6 passes, 7 fails."""
    _, ev = _test("militia", [3, 3], models=10)
    assert (of(ev, MoraleTested)[0].target, of(ev, MoraleTested)[0].passed) == (7, True)
    _, ev = _test("militia", [3, 4], models=10)
    assert not of(ev, MoraleTested)[0].passed


def test_cd_mo_12_with_a_commander_ten_models_need_under_10() -> None:
    """CD-MO-12: doubled to 14, the headcount 10 is the target: 9 passes, 10 fails."""
    _, ev = _test("guard", [4, 5], models=10)
    assert (of(ev, MoraleTested)[0].target, of(ev, MoraleTested)[0].passed) == (10, True)
    _, ev = _test("guard", [5, 5], models=10)
    assert not of(ev, MoraleTested)[0].passed


def test_cd_mo_08_09_twelve_always_fails_two_always_passes() -> None:
    """CD-MO-08/09: +10 general morale cannot save a 6+6; -10 cannot spoil a 1+1."""
    _, ev = _test("militia", [6, 6], gm=10)
    assert not of(ev, MoraleTested)[0].passed
    _, ev = _test("militia", [1, 1], gm=-10)
    assert of(ev, MoraleTested)[0].passed


def test_cd_gm_01_general_morale_is_subtracted_from_the_roll() -> None:
    """CD-GM-01 decision: with general morale +2, 8 - 2 = 6 < 7 passes; with -1, 6 + 1 = 7 fails."""
    _, ev = _test("militia", [4, 4], gm=2)
    assert of(ev, MoraleTested)[0].passed and of(ev, MoraleTested)[0].general_morale == 2
    _, ev = _test("militia", [3, 3], gm=-1)
    assert not of(ev, MoraleTested)[0].passed  # 6 + 1 = 7 is not under 7


def test_outside_close_combat_the_rounds_losses_do_not_count() -> None:
    """CD-MM-01: 3 losses this round, a shot's test: 3 + 3 = 6 < 7 passes (no loss modifier)."""
    _, ev = _test("militia", [3, 3], round_losses=3)
    assert of(ev, MoraleTested)[0].losses == 0 and of(ev, MoraleTested)[0].passed


def test_shaken_then_rout() -> None:
    """Designed (CD-MS-03): the first failure shakes, the second routs (counts as destroyed)."""
    st, ev = _test("militia", [5, 5])
    assert of(ev, UnitShaken) and st.unit(0).shaken and st.unit(0).on_table
    st, ev = drive(resolve.begin_morale_test(st, 0, close_combat=False, reason="shot"), [5, 5])
    assert of(ev, UnitRouted) and st.unit(0).routed and not st.unit(0).on_table
    assert st.vp == (0, 60)


def test_rally_passed_steadies_failed_stays_shaken() -> None:
    """Designed: a rally passed makes the unit steady; a rally failed leaves it shaken (it does not rout)."""
    st, ev = _test("militia", [2, 3], reason="rally", shaken=True)
    assert of(ev, UnitRallied) and not st.unit(0).shaken
    st, ev = _test("militia", [5, 5], reason="rally", shaken=True)
    assert st.unit(0).shaken and st.unit(0).on_table and not of(ev, UnitRouted)


def test_cd_ch_18_a_hero_turns_his_own_failed_roll() -> None:
    """CD-CH-18 decision: the hero (iUs 8) rolls 5 + 4 = 9; one point takes it to 8, still a failure; two to
    7 < 8: he is asked (some choice turns the verdict), spends -2 and passes."""
    st, ev = _test("hero", [5, 4])
    assert isinstance(st.top, HeroAsk)
    assert resolve.questions(st, 0) == [Hero(k) for k in range(-2, 3)]
    st, ev = drive((st, ev), [Hero(-2)])
    test = of(ev, MoraleTested)[0]
    assert (test.dice, test.target, test.passed) == ((3, 4), 8, True)
    assert st.unit(0).hero_left == 0


def test_a_hero_is_not_asked_when_no_choice_changes_the_verdict() -> None:
    """A 2 passes whatever he does (and -/+2 cannot make 12): no question."""
    st, ev = _test("hero", [1, 1])
    assert not st.pending and of(ev, MoraleTested)[0].passed
