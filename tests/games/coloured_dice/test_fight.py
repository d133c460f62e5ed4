"""Fighting through the engine with scripted faces (CD-FI-01..07, CD-CH-32, CD-MM-02, CD-MS-03 designed).

Layout (inches): the axemen (seat 0, 10 models in one rank, loose) stand with their front on y = 10.5 from
x = 15 to 25; the militia (seat 1, 12 models in one rank) face them from y = 10.5 to 11.5, x = 14 to 26: every
model of both front ranks fights. White faces: 1, 2 -> 1 point, 3 -> 2 points, 4..6 -> miss.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as strategies
from tests.games.coloured_dice import kit
from tests.games.coloured_dice.combat_kit import combat_profiles, drive, of, state, test_profile, unit

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.actions import Fight
from iwgt.games.coloured_dice.combat_events import (
    AttackDeclared,
    FellBack,
    FightBegun,
    GeneralMoraleChanged,
    MoraleTested,
    PoolRolled,
    UnitRouted,
    UnitShaken,
    WoundsTaken,
)
from iwgt.games.coloured_dice.state import Buff

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")

MISS = 4
SEVEN = [3, 3, 3, 1, MISS, MISS, MISS, MISS, MISS, MISS]  # 2 + 2 + 2 + 1 = 7 points on ten white dice


def _lines(seat: int = 0, b_key: str = "militia", **b: object) -> resolve.Step:
    a = unit(0, 0, "axemen", (20.0, 10.0))
    d = unit(1, 1, b_key, (20.0, 11.0), **b)  # type: ignore[arg-type]
    return resolve.begin_fight(state(a, d, seat=seat), 0, 1)


def test_cd_fi_07_ten_white_dice_rolling_7_remove_3_models_at_armour_1() -> None:
    """CD-FI-07: 7 points at armour 1 cost 2 a model: 3 removed, 1 point lost."""
    st, ev = drive(_lines(), SEVEN)
    rolled = of(ev, PoolRolled)[0]
    assert (rolled.points, rolled.armour, rolled.wounds) == (7, 1, 3)
    assert st.unit(1).models == 9
    assert of(ev, WoundsTaken)[0].removed == 3


def test_cd_fi_03_the_lower_slowness_strikes_first() -> None:
    """CD-FI-03, CD-CH-32 decision: slowness 1 strikes before slowness 3, whoever ordered the fight."""
    a = unit(0, 0, "axemen", (20.0, 10.0))
    d = unit(1, 1, "militia", (20.0, 11.0))
    _, ev = resolve.begin_fight(state(a, d, seat=1), 1, 0)  # the militia's turn, the militia fights
    begun = of(ev, FightBegun)[0]
    assert (begun.first, begun.second, begun.why) == (0, 1, "slowness")


def test_cd_fi_03_equal_slowness_the_active_players_unit_strikes_first() -> None:
    """Equal slowness: the unit whose player's turn it is strikes first (designed)."""
    a = unit(0, 0, "militia", (20.0, 10.0), models=10)
    d = unit(1, 1, "militia", (20.0, 11.0))
    _, ev = resolve.begin_fight(state(a, d, seat=1), 0, 1)
    begun = of(ev, FightBegun)[0]
    assert (begun.first, begun.why) == (1, "turn")


def test_cd_re_a_successful_reaction_strikes_first() -> None:
    """CD-MS-14 designed: a charged unit that reacted, without missiles, strikes first against the charger."""
    _, ev = _lines(strikes_first_vs=0)
    begun = of(ev, FightBegun)[0]
    assert (begun.first, begun.second, begun.why) == (1, 0, "reaction")
    assert of(ev, AttackDeclared)[0].dice == ("white",) * 12


def test_cd_fi_04_the_survivors_strike_back_with_fewer_dice() -> None:
    """CD-FI-04: after losing 3 of 12, the militia strike back with their 9 survivors' 9 white dice."""
    st, ev = drive(_lines(), [*SEVEN, *([MISS] * 9)])
    declared = of(ev, AttackDeclared)
    assert [len(d.dice) for d in declared] == [10, 9]
    assert (declared[1].unit, declared[1].target, declared[1].armour) == (1, 0, 0)
    assert st.unit(0).models == 10  # nine misses


def test_cd_mm_02_morale_after_the_fight_adds_the_rounds_losses() -> None:
    """CD-MM-02: the militia (9 left, Us 7: target 7) lost 3 this round: 1 + 2 + 3 = 6 < 7 passes."""
    st, ev = drive(_lines(), [*SEVEN, *([MISS] * 9), 1, 2])
    test = of(ev, MoraleTested)[0]
    assert (test.unit, test.dice, test.target, test.losses, test.passed) == (1, (1, 2), 7, 3, True)
    assert not st.pending
    assert not st.unit(1).shaken


def test_a_failed_close_combat_test_shakes_and_falls_back_3_inches() -> None:
    """Designed (CD-MS-03): 2 + 2 + 3 losses = 7, not under 7: shaken, 3" straight away from the enemy."""
    st, ev = drive(_lines(), [*SEVEN, *([MISS] * 9), 2, 2])
    assert not of(ev, MoraleTested)[0].passed
    assert of(ev, UnitShaken)[0].unit == 1
    fell = of(ev, FellBack)[0]
    assert fell.distance == pytest.approx(3.0)
    assert st.unit(1).tray.centre == pytest.approx((20.0, 14.0))
    assert st.unit(1).shaken


def test_a_tight_formation_adds_1_to_its_target_in_close_combat() -> None:
    """CD-AC-08 designed: tight: target 8, so 2 + 2 + 3 = 7 < 8 passes."""
    _, ev = drive(_lines(order="tight"), [*SEVEN, *([MISS] * 9), 2, 2])
    test = of(ev, MoraleTested)[0]
    assert (test.target, test.passed) == (8, True)


def test_a_shaken_unit_that_fails_again_routs() -> None:
    """Designed: shaken and failing again: it routs (counts as destroyed; the enemy scores 12 x 5 points)."""
    st, ev = drive(_lines(shaken=True), [*SEVEN, *([MISS] * 9), 6, 6])
    assert of(ev, UnitRouted)[0].unit == 1
    assert st.unit(1).routed and not st.unit(1).on_table
    assert st.vp == (60, 0)


def test_a_unit_with_no_losses_takes_no_test() -> None:
    """CD-MS-03 designed: only a unit that lost models in the fight tests; no losses, no test."""
    st, ev = drive(_lines(), [MISS] * 10 + [MISS] * 12)
    assert not of(ev, MoraleTested)
    assert not st.pending


def test_cd_gm_12_a_banner_unit_wiped_out_in_contact_is_captured() -> None:
    """CD-GM-07/12: the guard (2 left, the banner) wiped out in contact: its side -1, the victors +1."""
    st, ev = drive(_lines(b_key="guard", models=2, banner=True), [3, 3, *([MISS] * 8)])
    assert st.unit(1).destroyed
    assert st.general_morale == (1, -1)
    rows = {(e.seat, e.row) for e in of(ev, GeneralMoraleChanged)}
    assert rows == {(1, "own_banner_lost"), (0, "enemy_banner_captured")}
    assert not st.pending  # nobody left to strike back or to test


def test_no_fight_without_contact() -> None:
    """CD-FI-01: 1" apart is not a fight."""
    a = unit(0, 0, "axemen", (20.0, 10.0))
    d = unit(1, 1, "militia", (20.0, 12.0))
    with pytest.raises(IllegalAction, match="CD-FI-01"):
        resolve.begin_fight(state(a, d), 0, 1)


# --- properties ------------------------------------------------------------------------------------------

SETUPS = {
    "lines": lambda: (unit(0, 0, "axemen", (20.0, 10.0)), unit(1, 1, "militia", (20.0, 11.0), banner=True)),
    "hero": lambda: (unit(0, 0, "axemen", (20.0, 10.0)), unit(1, 1, "hero", (20.0, 11.0), general=True)),
    "troll": lambda: (unit(0, 0, "hero", (20.0, 10.0)), unit(1, 1, "troll", (20.0, 11.5), wounds=1)),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    setup=strategies.sampled_from(sorted(SETUPS)),
    picks=strategies.lists(strategies.integers(0, 5), min_size=120, max_size=120),
)
def test_any_dice_and_answers_settle_a_fight_and_nothing_goes_below_zero(
    setup: str, picks: list[int]
) -> None:
    """Whatever the faces and answers: every accepted face or answer changes the state (none is lost);
    models, wounds, hero points and bear dice never go below 0; the stack empties (hypothesis)."""
    a, d = SETUPS[setup]()
    s, _ = resolve.begin_fight(state(a, d), 0, 1)
    for pick in picks:
        if not s.pending:
            break
        who = resolve.to_move(s)
        if who == CHANCE:
            move: object = ChanceOutcome(pick + 1)
        else:
            offered = resolve.questions(s, who)
            assert offered, f"a question with no answer: {s.top}"
            move = offered[pick % len(offered)]
        after, _ = resolve.advance(s, move)  # type: ignore[arg-type]
        assert after != s, f"{move!r} was accepted but changed nothing"
        s = after
        for u in s.units:
            assert u.models >= 0 and u.wounds >= 0 and u.hero_left >= 0 and u.bear_left >= 0
            assert u.wounds < test_profile(u.key).body  # the wounds on the current model only
    assert not s.pending, f"still pending after 120 inputs: {s.pending}"


def test_magic_armour_and_dice_enter_the_fight() -> None:
    """CD-MA designed (magic_bonus): a running +1 armour spell on the militia and a spell giving the axemen
    2 extra black dice: armour 1 + 1 = 2, and 10 white + 2 black dice (once to the pool, in pool order)."""
    a = unit(0, 0, "axemen", (20.0, 10.0), buffs=(Buff("war_cry", "dice:black", 2, 2, 0),))
    d = unit(1, 1, "militia", (20.0, 11.0), buffs=(Buff("stone_skin", "armour", 1, 2, 0),))
    _, ev = resolve.begin_fight(state(a, d), 0, 1)
    declared = of(ev, AttackDeclared)[0]
    assert declared.dice == ("white",) * 10 + ("black",) * 2
    assert declared.armour == 2 and dict(declared.parts)["magic"] == 1


def test_through_the_game_spears_reach_from_the_second_rank_and_survivors_strike_back() -> None:
    """CD-FI-02/04 with the shipped armies through the Game: 12 Spearmen of Kaleva in 2 ranks of 6 (yellow,
    reach 2) fight 12 Thralls of Pohjola (armour 1): both ranks fight, 12 yellow dice; 2 + 2 + 2 + 1 = 7
    points remove 3; the 9 thralls left (6 in front, 3 behind with axes, no reach) strike back with 6 white
    dice; equal slowness 3: the spearmen's turn, they strike first. Yellow: 1 -> 1, 2 -> 2, 3..6 -> miss."""
    units = [
        kit.unit(0, "spearmen", 24.0, 10.0, files=6, order="loose"),  # front edge y = 11
        kit.unit(1, "thralls", 24.0, 12.0, files=6, order="loose"),  # front edge y = 11
    ]
    s, ev = kit.GAME.apply(kit.battle(units), Fight(0, 1))
    s, more = kit.roll(s, [2, 2, 2, 1, *([3] * 8), *([MISS] * 6), 1, 1])
    ev += more
    declared = of(ev, AttackDeclared)
    assert [(d.unit, d.dice) for d in declared] == [(0, ("yellow",) * 12), (1, ("white",) * 6)]
    assert of(ev, PoolRolled)[0].wounds == 3
    assert s.unit(1).models == 9 and s.unit(0).models == 12
    test = of(ev, MoraleTested)[0]
    assert (test.unit, test.target, test.losses, test.passed) == (1, 5, 3, True)
    assert not s.pending
