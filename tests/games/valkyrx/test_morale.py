"""Morale (section 10) and the section 13 morale abilities, expectations by hand."""

from __future__ import annotations

import pytest

from iwgt.games.valkyrx.morale import apply_morale, morale_changes, morale_status

from .kit import position, tweak


@pytest.mark.parametrize(
    ("score", "status"),
    [
        (60, "High"), (50.5, "High"), (50, "Enhanced"), (40.5, "Enhanced"), (40, "Standard"),
        (20, "Standard"), (19.9, "Weakened"), (10, "Weakened"), (9.9, "Critical"), (0, "Critical"),
    ],
)  # fmt: skip
def test_vx_10_02_vx_10_12_statuses_and_shared_end_points(score: float, status: str) -> None:
    assert morale_status(score) == status


def changes(state, uid, **kw):  # type: ignore[no-untyped-def]
    args = {"won": 0, "flanked": False, "outnumbered": False, "leaders_fallen": {}} | kw
    return sorted(morale_changes(state, state.units[uid], **args))


def test_vx_10_15_casualties_and_vx_04_21_flank() -> None:
    state = position([("guardsmen", (5, 4))], [("wearg_warriors", (9, 8))])
    hurt = tweak(state, 0, casualties_turn=30.0)  # 10% of 300 -> -4
    assert [d for d, _ in changes(hurt, 0)] == [pytest.approx(-4.0)]
    assert [d for d, _ in changes(state, 0, flanked=True, outnumbered=True)] == [-5, -5]
    assert [d for d, _ in changes(state, 0, won=1)] == [2]


def test_vx_10_16_vx_13_modrof_1_2_supreme_leaders_nearby() -> None:
    # Môdrôf 3 cells from his Guardsmen (+2), and 3 cells from the enemy's Wearg (-2); Mangere likewise.
    state = position([("guardsmen", (2, 4)), ("modrof", (5, 4))], [("wearg_warriors", (8, 4))])
    assert [d for d, _ in changes(state, 0)] == [2]
    assert [d for d, _ in changes(state, 2)] == [-2]
    far = position([("guardsmen", (1, 4)), ("modrof", (5, 4))], [("wearg_warriors", (9, 4))])
    assert changes(far, 0) == [] and changes(far, 2) == []


def test_vx_13_mistriwan_1_despair_and_vx_13_elves_1_fearless() -> None:
    state = position([("guardsmen", (5, 4)), ("elves", (5, 3))], [("mistriwan", (6, 4))])
    assert [d for d, _ in changes(state, 0)] == [-10]
    assert changes(state, 1) == []  # Elves have no fear of the supernatural


def test_vx_13_wraithking_2_only_the_highest_morale_stands() -> None:
    state = position([("guardsmen", (5, 4))], [("wraith_king", (6, 4))])
    assert [d for d, _ in changes(state, 0)] == [-5]
    assert changes(tweak(state, 0, morale=55.0), 0) == []  # High morale stands and fights


def test_vx_13_mangere_2_panic_of_the_mutant_ranks() -> None:
    state = position([("guardsmen", (0, 0))], [("wearg_warriors", (9, 8)), ("wickermen", (7, 8))])
    assert [d for d, _ in changes(state, 1, leaders_fallen={1: 1})] == [-15]
    assert changes(state, 2, leaders_fallen={1: 1}) == []  # Wickermen are not mutants


def test_vx_13_troll_2_unease_among_friend_and_foe() -> None:
    state = position([("guardsmen", (5, 4))], [("cave_troll", (6, 4)), ("wearg_warriors", (7, 4))])
    assert [d for d, _ in changes(state, 0)] == [-1]
    assert [d for d, _ in changes(state, 2)] == [-1]


def test_vx_10_13_flight_below_zero_and_vx_03_11_rout_at_critical() -> None:
    state = position([("guardsmen", (5, 4)), ("archers", (2, 2))], [("wearg_warriors", (9, 8))])
    state = tweak(state, 0, morale=3.0, casualties_turn=30.0)  # -4: below zero
    state = tweak(state, 1, morale=12.0, casualties_turn=15.0)  # 5% of 300 -> -2 -> 10: Weakened
    after, _events = apply_morale(state, {}, frozenset(), frozenset(), {})
    assert after.units[0].status == "fled"
    assert not after.units[1].routed and after.units[1].morale == pytest.approx(10.0)
    worse = tweak(state, 1, morale=11.0)
    after, _ = apply_morale(worse, {}, frozenset(), frozenset(), {})
    assert after.units[1].routed  # 9: Critical


def test_vx_13_mangere_2_panic_however_the_demon_king_falls() -> None:
    """Mangere lost to the Temple (not in combat) still panics the mutant ranks, once."""
    from iwgt.core.protocol import ChanceOutcome
    from iwgt.games.valkyrx.actions import EndPhase

    from .kit import GAME

    state = position([("guardsmen", (5, 4))], [("wearg_warriors", (6, 4)), ("mangere", (11, 8))])
    assert state.mover == 1  # Mangere was lit, so the Darkness phase is open
    state = tweak(state, 2, status="destroyed", strength=0.0)
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, ChanceOutcome(50))
    state, events = GAME.apply(state, ChanceOutcome(50))
    panic = [e for e in events if getattr(e, "unit", None) == 1 and hasattr(e, "reasons")]
    assert any("panic" in r for r in panic[0].reasons)
    assert state.leaders_slain == (2,)
