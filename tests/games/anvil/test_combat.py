"""Engaging and the combat that follows (FA-EN, FA-CRM): expectations measured by hand on a 36" x 36" table.

Trays are 3" x 1.5". A tray facing 0 spans x +-1.5, y +-0.75 around its centre; one facing 180 has its
front edge on the -y side.
"""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import Engage, Stratagem
from iwgt.games.anvil.combat import combat_actions, engage_actions, plan_engage

from .kit import act, block, kinds, of, place, table


def test_front_engage_moves_aligned_and_bounces_the_defender() -> None:
    """FA-EN-02/04/05, FA-CRM-TROOP-TROOP, FA-BB-01: a Troop 5" below an enemy Troop facing it engages its
    front: 3.5" straight to contact at y = 13.5, 2 HP of damage, the defender bounces 3" to y = 18."""
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0))
    assert Engage(0, 1) in combat_actions(s)
    s, ev = act(s, Engage(0, 1))
    assert kinds(ev) == ["EngageDeclared", "CombatResolved", "BouncedBack"]
    d = of(ev, "EngageDeclared")[0]
    assert d.side == "front" and d.end == pytest.approx((18.0, 13.5)) and d.cost == pytest.approx(3.5)  # type: ignore[attr-defined]
    r = of(ev, "CombatResolved")[0]
    assert r.damage == 2 and r.defender_hp == 2 and r.cell == "FA-CRM-TROOP-TROOP"  # type: ignore[attr-defined]
    a, b = s.unit(0), s.unit(1)
    assert a.tray is not None and a.tray.centre == pytest.approx((18.0, 13.5)) and a.tray.facing == 0.0
    assert b.hp == 2 and b.tray is not None and b.tray.centre == pytest.approx((18.0, 18.0))
    assert b.tray.facing == 180.0  # FA-BB-01 decided: facing kept
    assert s.activation is not None and s.activation.engaged and s.activation.allowance == 0.0
    assert s.pending is None and s.phase == "activation"


def test_flank_engage_reads_the_flank_value() -> None:
    """FA-EN-05, FA-CRM-TROOP-TROOP: from 8" to the side of a defender facing 180 the line enters its
    flank: contact centre at x = 15.75 (5.75" away), 3 HP."""
    s = table([place(0, "troop", 10, 15), place(1, "troop", 18, 15)], cp=(10, 0))
    plan = plan_engage(s, s.unit(0), s.unit(1))
    assert plan.side == "flank" and plan.end.centre == pytest.approx((15.75, 15.0))
    assert plan.cost == pytest.approx(5.75)
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 3  # type: ignore[attr-defined]
    assert s.unit(1).hp == 1


def test_rear_engage_destroys_and_gives_no_bounce() -> None:
    """FA-CRM-TROOP-TROOP rear 4 against 4 HP: destroyed (FA-CRM-02); no excess (4 - 4 = 0)."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "troop", 18, 15)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].side == "rear"  # type: ignore[attr-defined]
    assert kinds(ev)[-1] == "UnitDestroyed" and "ExcessMove" not in kinds(ev)
    assert s.unit(1).destroyed and not s.unit(1).on_table
    assert s.activation is not None and s.activation.excess == 0.0 and not s.activation.excess_only


def test_excess_damage_becomes_inches_for_the_attacker() -> None:
    """FA-CRM-03, FA-CRM-MONSTER-TROOP rear 5 against 4 HP: 1" of excess move for the Monster."""
    s = table([place(0, "monster", 18, 20, 180), place(1, "troop", 18, 15)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "ExcessMove")[0].inches == pytest.approx(1.0)  # type: ignore[attr-defined]
    assert s.activation is not None and s.activation.excess == pytest.approx(1.0) and s.activation.excess_only
    # Only the excess move is left: no stratagem, engage, shot or spell.
    assert combat_actions(s) == []


def test_hammerblow_adds_one_and_the_excess_follows() -> None:
    """FA-SC-05: Troop rear 4 + 1 = 5 against 4 HP: destroyed with 1" of excess (FA-CRM-03)."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "troop", 18, 15)], cp=(10, 0))
    s, _ = act(s, Stratagem("hammerblow"))
    assert s.cp == (8, 0)
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 5  # type: ignore[attr-defined]
    assert of(ev, "ExcessMove")[0].inches == pytest.approx(1.0)  # type: ignore[attr-defined]


def test_nate_side_stops_one_inch_away_without_combat() -> None:
    """FA-EN-03, FA-CRM-TROOP-WARMACHINE front NATE: the Troop stops with its front 1" from the War
    Machine's front edge (y = 14.25): centre y = 12.5, no combat."""
    s = table([place(0, "troop", 18, 10), place(1, "war_machine", 18, 15)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert kinds(ev) == ["EngageDeclared", "EngageStopped"]
    stop = of(ev, "EngageStopped")[0]
    assert stop.reason == "nate" and stop.at == pytest.approx((18.0, 12.5))  # type: ignore[attr-defined]
    assert s.unit(1).hp == 12 and s.activation is not None and s.activation.engaged


def test_no_room_to_turn_at_the_edge_no_engage() -> None:
    """FA-MV-01, FA-EN-03: a Troop at the far edge (centre y = 35.2, its tray up to y = 35.95) would have
    to pivot about its middle to face a War Machine to its right; turned, its 3" frontage runs along y from
    33.7 to 36.7, off the 36" table. Since the decision on engages from the edge (the pivot may stick off
    the table when the path leads inward) the refusal comes from where it ends: the NATE stop slides along
    y = 35.2, parallel to the edge, so the stop 1" short of the War Machine is still partly off the table:
    refused and not offered (a NATE stop once began and ended there)."""
    s = table([place(0, "troop", 18, 35.2), place(1, "war_machine", 26, 35.2, 90)], cp=(10, 0))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="would stop partly off the table"):
        act(s, Engage(0, 1))


def test_fa_en_02_an_engage_from_the_edge_whose_path_leads_inward() -> None:
    """FA-EN-02, FA-DP-01, FA-MV-01 decided: a Troop just deployed at (10, 0.75) facing 0 engages an enemy
    Troop at (13.5, 4.5) facing 180. Pivoted in place towards it (direction (3.5, 3.75)) a corner of its tray
    would be at y = 0.75 - 1.5 x 0.682 - 0.75 x 0.731 = -0.82, off the table; but the line of centres meets
    the defender's front edge (y = 3.75) at x = 12.8 (front), and the aligned end (13.5, 3.0) facing 0 lies
    on the table: accepted, cost sqrt(3.5^2 + 2.25^2) = 4.16" of its 6"."""
    s = table([place(0, "troop", 10, 0.75), place(1, "troop", 13.5, 4.5)], cp=(10, 0))
    plan = plan_engage(s, s.unit(0), s.unit(1))
    assert plan.side == "front" and plan.end.centre == pytest.approx((13.5, 3.0)) and plan.end.facing == 0.0
    assert plan.cost == pytest.approx(4.1608, abs=1e-4)
    assert Engage(0, 1) in engage_actions(s)
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 2  # type: ignore[attr-defined]


def test_skirmishing_defender_counts_only_a_front() -> None:
    """FA-SM-10: engaged in the rear, a Skirmishing Troop takes the front value 2, not 4."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "troop", 18, 15, skirmishing=True)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    r = of(ev, "CombatResolved")[0]
    assert r.side == "front" and r.damage == 2 and s.unit(1).hp == 2  # type: ignore[attr-defined]


def test_no_line_of_sight_no_engage() -> None:
    """FA-EN-01: a blocking feature between the trays: no LOS, the engage is refused."""
    wall = block(10, 12, 26, 13, blocks=True)
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0), features=(wall,))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="line of sight"):
        act(s, Engage(0, 1))


def test_out_of_reach_is_refused_when_premeasuring() -> None:
    """A Troop (6") 10" from its target: contact needs 8.5"; refused with the distance."""
    s = table([place(0, "troop", 18, 5), place(1, "troop", 18, 15)], cp=(10, 0))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match=r"8\.50"):
        act(s, Engage(0, 1))


def test_out_of_reach_without_premeasure_goes_as_far_as_it_can() -> None:
    """FA-GN-09 decided: the engage falls short: 6" straight towards contact, no combat."""
    s = table([place(0, "troop", 18, 5), place(1, "troop", 18, 15)], cp=(10, 0), premeasure=False)
    assert Engage(0, 1) in engage_actions(s)
    s, ev = act(s, Engage(0, 1))
    stop = of(ev, "EngageStopped")[0]
    assert stop.reason == "short" and stop.at == pytest.approx((18.0, 11.0))  # type: ignore[attr-defined]
    assert s.unit(1).hp == 4


def test_halving_ground_doubles_the_engage_cost() -> None:
    """FA-MV-02: 2" of the 3.5" engage line lie in halving ground (y 11..13): cost 3.5 + 2 = 5.5."""
    marsh = block(10, 11, 26, 13, halves=True)
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0), features=(marsh,))
    assert plan_engage(s, s.unit(0), s.unit(1)).cost == pytest.approx(5.5)


def test_impassable_on_the_line_is_refused_and_a_friend_in_the_way_too() -> None:
    """FA-MV-02: the straight engage may not cross impassable terrain or another tray."""
    rock = block(17, 11.5, 19, 12.5, impassable=True)
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0), features=(rock,))
    with pytest.raises(IllegalAction, match="impassable"):
        act(s, Engage(0, 1))
    s = table([place(0, "troop", 18, 8), place(1, "troop", 18, 15), place(0, "troop", 18, 11)], cp=(10, 0))
    with pytest.raises(IllegalAction, match="in the way"):
        act(s, Engage(0, 1))


def test_march_forbids_the_engage() -> None:
    """FA-SM-06: a unit using March may not engage."""
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0), used=("march",))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SM-06"):
        act(s, Engage(0, 1))


def test_one_engage_per_activation() -> None:
    """The engage ends the move: a second one is refused."""
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15), place(1, "troop", 25, 12)], cp=(10, 0))
    s, _ = act(s, Engage(0, 1))
    with pytest.raises(IllegalAction, match="already engaged"):
        act(s, Engage(0, 2))


def test_fa_mv_01_the_pivot_towards_the_target_may_not_overlap_a_friend() -> None:
    """FA-EN-02, FA-MV-01: a Troop at (5, 10) facing 0 engages an enemy Troop at (12, 10) facing 90 (its
    front towards it): it first pivots in place to face 270, its 3" frontage then running y 8.5..11.5 and
    its depth x 4.25..5.75; a friendly Troop at (6.5, 12) spans x 5..8, y 11.25..12.75: they overlap
    (x 5..5.75, y 11.25..11.5). The unpivoted tray (y up to 10.75) would have passed below the friend."""
    s = table(
        [place(0, "troop", 5, 10), place(0, "troop", 6.5, 12), place(1, "troop", 12, 10, 90)], cp=(10, 0)
    )
    assert Engage(0, 2) not in engage_actions(s)
    with pytest.raises(IllegalAction, match="FA-MV-01: turning to engage"):
        act(s, Engage(0, 2))


def test_fa_mv_02_the_pivoted_path_may_not_cross_impassable_terrain() -> None:
    """FA-EN-02, FA-MV-02: the same engage with an impassable block x 9..11, y 11..13: the pivoted tray
    (y 8.5..11.5) slides along y = 10 to (10.5, 10) and sweeps y up to 11.5 through the block; the unpivoted
    tray (y 9.25..10.75) would not have touched it."""
    rock = block(9, 11, 11, 13, impassable=True)
    s = table([place(0, "troop", 5, 10), place(1, "troop", 12, 10, 90)], cp=(10, 0), features=(rock,))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-MV-02: the engage line crosses impassable"):
        act(s, Engage(0, 1))


def test_fa_mv_02_the_aligned_end_may_not_stand_in_impassable_terrain() -> None:
    """FA-MV-02, FA-EN-02: a Troop at (5, 13) engages the front of an enemy Troop at (12, 10) facing 90 (the
    line of centres meets its front edge x = 11.25 at y = 10.32). It ends aligned at (10.5, 10) facing 270:
    x 9.75..11.25, y 8.5..11.5. Its straight path, with the facing of the pivot towards (12, 10), sweeps
    up to the line from its end corner (11.78, 11.08) back to (6.28, 14.08): y = 11.40 at x = 11.15. A
    small impassable block x 11.15..11.25, y 11.45..11.6 lies above that line, but the aligned tray's corner
    (11.25, 11.5) reaches into it (0.1 x 0.05): refused (once only checked when flying)."""
    rock = block(11.15, 11.45, 11.25, 11.6, impassable=True)
    s = table([place(0, "troop", 5, 13), place(1, "troop", 12, 10, 90)], cp=(10, 0), features=(rock,))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-MV-02: the unit may not stop inside impassable"):
        act(s, Engage(0, 1))


def test_fa_sm_03_a_flying_nate_stop_does_not_end_in_impassable_terrain() -> None:
    """FA-SM-03, FA-EN-03: a flying Wizard at (18, 12) engages the front of an enemy Knight at (18, 20)
    facing 180 (Wizard -> Knight front: NATE). The stop 1" short of the Knight (its front edge y = 19.25)
    would put the Wizard's centre at 17.5, its tray y 16.75..18.25, inside an impassable cliff y 16.5..18.9;
    it stops 1" short of the cliff instead: front edge 15.5, centre (18, 14.75), 2.75" flown."""
    cliff = block(14, 16.5, 22, 18.9, impassable=True)
    s = table(
        [place(0, "wizard", 18, 12), place(1, "knight", 18, 20)], cp=(10, 0), features=(cliff,), used=("fly",)
    )
    s, ev = act(s, Engage(0, 1))
    stop = of(ev, "EngageStopped")[0]
    assert stop.reason == "nate" and stop.at == pytest.approx((18.0, 14.75))  # type: ignore[attr-defined]
    assert s.unit(0).tray is not None and s.unit(0).tray.centre == pytest.approx((18.0, 14.75))


def test_fa_sm_03_a_flying_engage_falling_short_does_not_end_in_impassable_terrain() -> None:
    """FA-SM-03, FA-GN-09 decided (premeasure off): a flying Hero (Move 6) at (18, 5) engages an enemy
    Troop at (18, 16) facing 180: contact at (18, 14.5) needs 9.5"; its 6" would end at (18, 11), tray
    y 10.25..11.75, inside an impassable rock y 10..12.5; it stops 1" short of the rock instead: front
    edge 9, centre (18, 8.25), no combat."""
    rock = block(15, 10, 21, 12.5, impassable=True)
    s = table(
        [place(0, "hero", 18, 5), place(1, "troop", 18, 16)],
        cp=(10, 0),
        features=(rock,),
        used=("fly",),
        premeasure=False,
    )
    s, ev = act(s, Engage(0, 1))
    stop = of(ev, "EngageStopped")[0]
    assert stop.reason == "short" and stop.at == pytest.approx((18.0, 8.25))  # type: ignore[attr-defined]
    assert "CombatResolved" not in kinds(ev)


def test_fa_en_03_a_nate_engage_from_within_one_inch_is_refused() -> None:
    """FA-EN-03: a Troop at (18, 10) facing 0 and an enemy War Machine at (18, 12) facing 180 (Troop -> War
    Machine front: NATE); their trays are 0.5" apart (10.75 to 11.25), already nearer than the 1" stop: the
    engage would not move it at all, so it is neither listed nor taken (no move spent, no event)."""
    s = table([place(0, "troop", 18, 10), place(1, "war_machine", 18, 12)], cp=(10, 0))
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="no contact, no move"):
        act(s, Engage(0, 1))
