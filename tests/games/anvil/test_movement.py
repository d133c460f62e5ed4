"""Movement: pivots free, straight legs, halving and impassable terrain, trays in the way, 1" from the
enemy, the movement stratagems and the premeasure option (FA-MV-01..03, FA-MS-04, FA-SM, FA-GN-09)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.anvil.engine_kit import GAME, activating, at_activation, place, play, unit_named

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.events import UnitMoved
from iwgt.games.anvil.state import AnvilState, PlacedFeature
from iwgt.geometry.trays import Feature, tray_gap, trays_overlap


def with_feature(
    state: AnvilState,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    *,
    halves: bool = False,
    impassable: bool = False,
) -> AnvilState:
    """The state with a rectangular feature set by hand."""
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    feature = Feature(outline, halves, False, impassable, "test ground")
    placed = PlacedFeature(0, "wood", ((x0 + x1) / 2, (y0 + y1) / 2), 0, feature)
    return replace(state, features=(*state.features, placed))


def pikemen_at_10_10(**keys: object) -> AnvilState:
    """Seat 0's Pikemen (Move 6") at (10, 10) facing 0, activated with 4 CP left."""
    state = place(at_activation(5, 6, **keys), "Pikemen", (10, 10), 0)
    return activating(state, "Pikemen")


def moved(state: AnvilState, *path: tuple[float, float], facing: float = 0.0) -> tuple[AnvilState, UnitMoved]:
    pike = unit_named(state, "Pikemen")
    state, events = GAME.apply(state, act.Move(pike.id, tuple(path), facing))
    event = next(e for e in events if isinstance(e, UnitMoved))
    return state, event


def test_fa_mv_01_pivoting_costs_nothing() -> None:
    state, event = moved(pikemen_at_10_10(), (10, 10), facing=90)
    assert event.cost == 0 and event.allowance_left == 6
    assert unit_named(state, "Pikemen").tray.facing == 90.0  # type: ignore[union-attr]


def test_fa_mv_03_a_unit_moves_up_to_its_move() -> None:
    state = pikemen_at_10_10()
    _, event = moved(state, (10, 16))
    assert event.cost == 6 and event.allowance_left == 0
    with pytest.raises(IllegalAction, match=r'costs 6\.50" but 6\.00" are left'):
        moved(state, (10, 16.5))


def test_a_move_may_have_several_legs_and_ends_with_its_facing() -> None:
    state, event = moved(pikemen_at_10_10(), (10, 13), (13, 13), facing=270)
    assert event.cost == 6 and event.path == ((10, 10), (10, 13), (13, 13))
    t = unit_named(state, "Pikemen").tray
    assert t is not None and t.centre == (13, 13) and t.facing == 270.0


@pytest.mark.parametrize(("to", "legal"), [(14.0, True), (14.5, False)])
def test_fa_mv_02_each_inch_of_the_centre_path_in_halving_terrain_costs_two(to: float, legal: bool) -> None:
    """Halving ground from y = 12: a move from y 10 to 14 has 2" inside: 4 + 2 = 6; to 14.5: 4.5 + 2.5 = 7."""
    state = with_feature(pikemen_at_10_10(), 5, 12, 15, 20, halves=True)
    if legal:
        _, event = moved(state, (10, to))
        assert event.cost == pytest.approx(6.0)
    else:
        with pytest.raises(IllegalAction, match=r'costs 7\.00"'):
            moved(state, (10, to))


def test_impassable_terrain_may_not_be_crossed_nor_entered() -> None:
    state = with_feature(pikemen_at_10_10(), 5, 12, 15, 13, impassable=True)
    with pytest.raises(IllegalAction, match="cross impassable"):
        moved(state, (10, 14.5))
    with pytest.raises(IllegalAction, match="impassable"):
        moved(state, (10, 11.5))  # the tray would reach y 12.25


def test_fa_sm_02_03_fly_crosses_impassable_terrain_but_may_not_stop_in_it() -> None:
    state = place(at_activation(5, 6), "Lord Aldric", (10, 10.5), 0)
    state = with_feature(activating(state, "Lord Aldric"), 5, 12, 15, 13, impassable=True)
    hero = unit_named(state, "Lord Aldric")
    with pytest.raises(IllegalAction, match="cross impassable"):
        GAME.apply(state, act.Move(hero.id, ((10, 14.5),), 0))
    state, _ = play(state, act.Stratagem("fly_burrow"))
    assert state.cp[0] == 2  # 5 - 1 (activation) - 2 (Fly/Burrow)
    with pytest.raises(IllegalAction, match="impassable"):
        GAME.apply(state, act.Move(hero.id, ((10, 12.5),), 0))
    after, _ = GAME.apply(state, act.Move(hero.id, ((10, 14.5),), 0))
    assert after.unit(hero.id).tray.centre == (10, 14.5)  # type: ignore[union-attr]


def test_a_move_may_not_cross_a_tray_but_interpenetration_passes_through() -> None:
    state = place(pikemen_at_10_10(), "Halberdiers", (10, 13), 0)
    with pytest.raises(IllegalAction, match="cross Halberdiers"):
        moved(state, (10, 16))
    state, _ = play(state, act.Stratagem("interpenetration"))
    with pytest.raises(IllegalAction, match="stand on Halberdiers"):
        moved(state, (10, 13.5))  # may not end overlapping (FA-SM-08)
    after, _ = moved(state, (10, 16))
    a, b = unit_named(after, "Pikemen").tray, unit_named(after, "Halberdiers").tray
    assert a is not None and b is not None and not trays_overlap(a, b)


@pytest.mark.parametrize(("to", "legal"), [(13.5, True), (13.6, False)])
def test_fa_ms_04_a_move_ends_at_least_1_inch_from_every_enemy(to: float, legal: bool) -> None:
    """Spearmen facing 180 at y 16 span y 15.25..16.75; the Pikemen's front at y + 0.75."""
    state = place(pikemen_at_10_10(), "Spearmen", (10, 16), 180)
    if legal:
        after, _ = moved(state, (10, to))
        a, b = unit_named(after, "Pikemen").tray, unit_named(after, "Spearmen").tray
        assert a is not None and b is not None and tray_gap(a, b) == pytest.approx(1.0)
    else:
        with pytest.raises(IllegalAction, match='at least 1" from an enemy'):
            moved(state, (10, to))


def test_fa_gn_09_unpremeasured_an_order_too_long_goes_as_far_as_the_move_lets() -> None:
    state = pikemen_at_10_10(premeasure=False)
    after, event = moved(state, (10, 20))
    assert event.short and event.cost == pytest.approx(6.0)
    assert unit_named(after, "Pikemen").tray.centre == pytest.approx((10, 16))  # type: ignore[union-attr]


def test_fa_gn_09_an_order_falling_short_near_an_enemy_backs_off_to_1_inch() -> None:
    """The enemy beside the path (it may not cross it, FA-GN-09 decided) spans x 11.7..14.7, y 17.45..18.95;
    the Pikemen's tray x 8.5..11.5, so 0.2" across: y 16 leaves sqrt(0.2^2 + 0.7^2) = 0.73", 15.75 leaves
    0.97", 15.5 leaves 1.22"."""
    state = place(pikemen_at_10_10(premeasure=False), "Spearmen", (13.2, 18.2), 180)
    after, event = moved(state, (10, 30))
    assert event.short and event.cost == pytest.approx(5.5)
    assert unit_named(after, "Pikemen").tray.centre == pytest.approx((10, 15.5))  # type: ignore[union-attr]


def test_fa_sm_05_march_adds_3_inches() -> None:
    state, _ = play(pikemen_at_10_10(), act.Stratagem("march"))
    assert state.cp[0] == 3
    _, event = moved(state, (10, 19))
    assert event.cost == 9


def test_fa_sm_11_decided_skirmishing_adds_2_inches_to_every_activation_this_turn() -> None:
    state, _ = play(pikemen_at_10_10(), act.Stratagem("skirmishing"))
    assert state.activation is not None and state.activation.allowance == 8
    state, _ = play(state, act.EndActivation(), act.Pass())  # seat 1 passes; seat 0 goes on (2 CP)
    pike = unit_named(state, "Pikemen")
    state, _ = play(state, act.Activate(pike.id))
    assert state.activation is not None and state.activation.allowance == 8
    state, _ = play(state, act.Pass())  # the turn ends: the Skirmish token goes (FA-AC-06)
    assert state.turn == 2 and not unit_named(state, "Pikemen").skirmishing


def test_fa_sc_03_a_braced_unit_may_not_move() -> None:
    state, _ = play(pikemen_at_10_10(), act.Stratagem("brace"))
    with pytest.raises(IllegalAction, match="FA-SC-03"):
        moved(state, (10, 12))
    assert not any(isinstance(a, act.Move) for a in GAME.legal_actions(state, 0))


def test_a_move_may_not_leave_the_table() -> None:
    state = activating(place(at_activation(5, 6), "Pikemen", (3, 10), 0), "Pikemen")
    with pytest.raises(IllegalAction, match="leave the table"):
        moved(state, (3, 12), (1, 12))  # the 3" tray would reach x = -0.5


def test_a_move_names_the_active_unit() -> None:
    state = place(pikemen_at_10_10(), "Halberdiers", (20, 10), 0)
    with pytest.raises(IllegalAction, match="not the active unit"):
        GAME.apply(state, act.Move(unit_named(state, "Halberdiers").id, ((20, 12),), 0))


def test_every_offered_move_applies_within_the_allowance_and_1_inch_from_the_enemy() -> None:
    state = place(pikemen_at_10_10(), "Spearmen", (12, 16), 180)
    state = place(state, "Halberdiers", (6, 12), 0)
    state = with_feature(state, 14, 6, 20, 12, impassable=True)
    moves = [a for a in GAME.legal_actions(state, 0) if isinstance(a, act.Move)]
    assert len(moves) >= 8
    for m in moves:
        after, events = GAME.apply(state, m)
        event = next(e for e in events if isinstance(e, UnitMoved))
        assert event.cost <= 6 + 1e-9 and not event.short
        mine, theirs = unit_named(after, "Pikemen").tray, unit_named(after, "Spearmen").tray
        assert mine is not None and theirs is not None and tray_gap(mine, theirs) >= 1 - 1e-6


def test_the_seat_of_power_and_a_transfixed_unit_do_not_activate() -> None:
    state = place(at_activation(5, 6), "Pikemen", (10, 10), 0)
    with pytest.raises(IllegalAction, match="Seat of Power never activates"):
        GAME.apply(state, act.Activate(0))
    pike = unit_named(state, "Pikemen")
    state = state.with_unit(replace(pike, transfixed=True))
    with pytest.raises(IllegalAction, match="FA-SN-06"):
        GAME.apply(state, act.Activate(pike.id))
    assert act.Activate(pike.id) not in GAME.legal_actions(state, 0)


def test_an_offered_move_goes_straight_at_the_nearest_enemy_and_stops_1_inch_short() -> None:
    state = place(pikemen_at_10_10(), "Spearmen", (12, 15), 180)
    gaps = []
    for m in GAME.legal_actions(state, 0):
        if isinstance(m, act.Move):
            after, _ = GAME.apply(state, m)
            a, b = unit_named(after, "Pikemen").tray, unit_named(after, "Spearmen").tray
            assert a is not None and b is not None
            gaps.append(tray_gap(a, b))
    assert min(gaps) == pytest.approx(1.0, abs=0.02)


def test_fa_crm_03_after_a_combat_only_the_excess_inches_are_left_to_move() -> None:
    state = pikemen_at_10_10()
    assert state.activation is not None
    state = replace(state, activation=replace(state.activation, engaged=True, excess=2.0, excess_only=True))
    with pytest.raises(IllegalAction, match=r'costs 2\.50" but 2\.00" are left'):
        moved(state, (10, 12.5))
    after, event = moved(state, (10, 12))
    assert event.allowance_left == 0
    assert after.activation is not None  # 4 CP are left: the activation goes on, with no move left
    assert not any(isinstance(a, act.Move) for a in GAME.legal_actions(after, 0))


def test_fa_ss_05_a_unit_that_used_ballistics_may_not_move_but_a_parthian_shot_may() -> None:
    state = pikemen_at_10_10()
    assert state.activation is not None
    shot = replace(state, activation=replace(state.activation, shot=True))
    with pytest.raises(IllegalAction, match="FA-SS-05"):
        moved(shot, (10, 12))
    parthian = replace(state, activation=replace(state.activation, shot=True, stratagems=("parthian_shot",)))
    _, event = moved(parthian, (10, 12))
    assert event.cost == 2


def test_fa_gn_09_without_premeasuring_a_refusal_gives_no_distance() -> None:
    state = place(pikemen_at_10_10(premeasure=False), "Spearmen", (10, 16), 180)
    with pytest.raises(IllegalAction) as exc:
        moved(state, (10, 13.6))
    assert "too near Spearmen" in exc.value.message and '0.90"' not in exc.value.message


@pytest.mark.parametrize("premeasure", [True, False])
def test_fa_gn_09_an_order_through_a_tray_is_refused_whatever_its_length(premeasure: bool) -> None:
    """FA-GN-09 decided: only the length is forgiven. The Pikemen at (10, 10) and a friend (Militia) at
    (10, 13) straight ahead: an order to (10, 15.5) (5.5", in reach) and one to (10, 30) (20", far beyond the
    6") both cross the friend's tray (y 12.25..13.75) and are refused, premeasuring or not (premeasuring,
    the long one is refused for its length first)."""
    state = place(pikemen_at_10_10(premeasure=premeasure), "Militia", (10, 13), 0)
    for to in (15.5, 30.0):
        why = 'costs 20.00"' if premeasure and to == 30.0 else "cross Militia"
        with pytest.raises(IllegalAction, match=why):
            moved(state, (10, to))


def test_fa_gn_09_an_order_ending_in_impassable_terrain_is_refused_unpremeasured() -> None:
    """FA-GN-09 decided, FA-MV-02: premeasuring off, an impassable block y 25..28 and an order to (10, 26)
    (16", beyond the 6"): its end would stand in the block, so it is refused, not cut short at (10, 16)."""
    state = with_feature(pikemen_at_10_10(premeasure=False), 5, 25, 15, 28, impassable=True)
    with pytest.raises(IllegalAction, match="impassable"):
        moved(state, (10, 26))
