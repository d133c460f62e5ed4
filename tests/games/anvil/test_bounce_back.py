"""Bounce backs (FA-BB-01..04) and their chains, measured by hand.

The base case: a Troop at (18, 10) engages the front of an enemy Troop at (18, 15) facing 180; it ends at
(18, 13.5), deals 2 HP (FA-CRM-TROOP-TROOP) and the defender bounces straight away from (18, 13.5): up the
table (+y), its rear edge starting at y = 15.75. The defender's seat has no CP (no Counterattack offer).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Polygon

from iwgt.games.anvil.actions import Engage, Stratagem
from iwgt.games.anvil.combat import MAX_CHAIN
from iwgt.geometry.trays import tray_gap, within_table

from .kit import act, block, kinds, of, place, table


def _engage(*extra, features=(), defender=None):  # type: ignore[no-untyped-def]
    d = defender or place(1, "troop", 18, 15)
    s = table([place(0, "troop", 18, 10), d, *extra], cp=(10, 0), features=features)
    return act(s, Engage(0, 1))


def test_free_bounce_back_is_three_inches_straight_away() -> None:
    """FA-BB-01: 3" from (18, 15) to (18, 18), facing kept."""
    _s, ev = _engage()
    bb = of(ev, "BouncedBack")[0]
    assert bb.moved == pytest.approx(3.0) and bb.end == pytest.approx((18.0, 18.0))  # type: ignore[attr-defined]
    assert bb.stopped_by is None  # type: ignore[attr-defined]


def test_stops_one_inch_short_of_a_friend() -> None:
    """FA-BB-03: a friend of the defender at (18, 19) (its near edge at 18.25): the defender's rear edge
    stops at 17.25, so it moves 1.5" to (18, 16.5)."""
    s, ev = _engage(place(1, "troop", 18, 19))
    bb = of(ev, "BouncedBack")[0]
    assert bb.moved == pytest.approx(1.5, abs=1e-3) and bb.end == pytest.approx((18.0, 16.5), abs=1e-3)  # type: ignore[attr-defined]
    assert s.unit(1).hp == 2


def test_stops_one_inch_short_of_impassable_terrain() -> None:
    """FA-BB-03: impassable ground from y = 19: the rear edge stops at 18, the centre at 17.25 (2.25")."""
    rock = block(10, 19, 26, 22, impassable=True)
    _s, ev = _engage(features=(rock,))
    bb = of(ev, "BouncedBack")[0]
    assert bb.moved == pytest.approx(2.25, abs=1e-3) and bb.end == pytest.approx((18.0, 17.25), abs=1e-3)  # type: ignore[attr-defined]


def test_stops_at_the_table_edge() -> None:
    """FA-BB-04 decided: at (18, 34.5) the rear edge is 0.75" from the edge (y = 36): it moves 0.75"."""
    s = table([place(0, "troop", 18, 29.5), place(1, "troop", 18, 34.5)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    bb = of(ev, "BouncedBack")[0]
    assert bb.moved == pytest.approx(0.75, abs=1e-3) and bb.stopped_by == "edge"  # type: ignore[attr-defined]
    assert s.unit(1).hp == 2


def test_cannot_bounce_back_from_the_edge_loses_one_hp() -> None:
    """FA-BB-04: already on the edge it cannot bounce back: 4 - 2 - 1 = 1 HP, it stays put."""
    s = table([place(0, "troop", 18, 30), place(1, "troop", 18, 35.25)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert "BouncedBack" not in kinds(ev)
    blocked = of(ev, "BounceBlocked")[0]
    assert blocked.hp == 1 and blocked.reason == "edge"  # type: ignore[attr-defined]
    assert s.unit(1).hp == 1 and s.unit(1).tray is not None and s.unit(1).tray.centre == (18, 35.25)


def test_cannot_bounce_back_may_destroy() -> None:
    """FA-BB-04, FA-CRM-02: a defender left with 1 HP that cannot bounce back is destroyed."""
    s = table([place(0, "troop", 18, 30), place(1, "troop", 18, 35.25, hp=3)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert kinds(ev)[-2:] == ["BounceBlocked", "UnitDestroyed"]
    assert s.unit(1).destroyed


def test_already_one_inch_from_a_friend_cannot_bounce_back() -> None:
    """FA-BB-03/04: a friend 1" behind the defender (its edge at 16.75): no room: 1 HP lost instead."""
    _s, ev = _engage(place(1, "troop", 18, 17.5))
    assert of(ev, "BounceBlocked")[0].hp == 1  # type: ignore[attr-defined]


def test_a_braced_unit_cannot_bounce_back() -> None:
    """FA-SC-02/03, FA-BB-04: Brace: 2 - 3 = 0 damage, and held by Brace it loses 1 HP instead."""
    s, ev = _engage(defender=place(1, "troop", 18, 15, braced=True))
    assert of(ev, "CombatResolved")[0].damage == 0  # type: ignore[attr-defined]
    assert of(ev, "BounceBlocked")[0].reason == "braced"  # type: ignore[attr-defined]
    assert s.unit(1).hp == 3


def test_attacker_bounce_back_by_the_cell() -> None:
    """FA-CRM-TROOP-WARMACHINE "NATE 1 Flank 2 Rear Attacker BB": engaged in the rear, 2 HP, and the
    attacking Troop bounces 3" away from the War Machine: from (18, 16.5) to (18, 19.5)."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "war_machine", 18, 15)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert s.unit(1).hp == 10
    bb = of(ev, "BouncedBack")[0]
    assert bb.unit == 0 and bb.end == pytest.approx((18.0, 19.5))  # type: ignore[attr-defined]


def test_fear_makes_the_enemy_bounce() -> None:
    """FA-SD-11: the same attack by a Troop with fear: the War Machine bounces instead (to y = 12)."""
    s = table(
        [place(0, "troop", 18, 20, 180, stratagems=("fear",)), place(1, "war_machine", 18, 15)], cp=(10, 0)
    )
    s, ev = act(s, Engage(0, 1))
    bb = of(ev, "BouncedBack")[0]
    assert bb.unit == 1 and bb.end == pytest.approx((18.0, 12.0))  # type: ignore[attr-defined]


def test_bounce_into_an_enemy_is_a_new_combat_with_that_enemy_attacking() -> None:
    """FA-BB-02: behind the defender stands a second Troop of the attacker's side at (18, 19) (its edge at
    18.25): the defender moves 2.5" into contact; that Troop attacks it in the rear (4 HP against 2 left):
    destroyed."""
    s, ev = _engage(place(0, "troop", 18, 19, 180))
    assert kinds(ev) == [
        "EngageDeclared",
        "CombatResolved",
        "BouncedBack",
        "ChainCombat",
        "CombatResolved",
        "UnitDestroyed",
    ]
    chain = of(ev, "ChainCombat")[0]
    assert (chain.attacker, chain.defender, chain.side, chain.depth) == (2, 1, "rear", 1)  # type: ignore[attr-defined]
    assert of(ev, "BouncedBack")[0].moved == pytest.approx(2.5, abs=1e-3)  # type: ignore[attr-defined]
    assert s.unit(1).destroyed
    assert s.cp == (10, 0)  # FA-BB-02 decided: the chain combat costs no CP


def test_the_chain_stops_at_its_bound() -> None:
    """FA-BB-02 decided: a Tough Knight (10 HP) facing 0 at (18, 15) between two enemy Troops that strike
    its flanks (FA-CRM-TROOP-KNIGHT flank 1) bounces from one into the other: 8 combats (MAX_CHAIN), then
    the chain stops: 10 - 8 = 2 HP left."""
    knight = place(1, "knight", 18, 15, 0, stratagems=("tough",))
    right = place(0, "troop", 21.5, 15, 90)  # facing -x: spans x 20.75..22.25
    s = table([place(0, "troop", 10, 15, 270), knight, right], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert MAX_CHAIN == 8
    assert len(of(ev, "CombatResolved")) == MAX_CHAIN
    assert [c.depth for c in of(ev, "ChainCombat")] == list(range(1, MAX_CHAIN))  # type: ignore[attr-defined]
    assert all(c.damage == 1 for c in of(ev, "CombatResolved"))  # type: ignore[attr-defined]
    assert of(ev, "ChainStopped")[0].reason == "chain bound"  # type: ignore[attr-defined]
    assert s.unit(1).hp == 2 and s.pending is None


def test_seat_of_power_never_moves() -> None:
    """FA-GN-08, FA-BB-04: the Seat (the Troop row) cannot bounce back: front 2 then 1 HP lost."""
    s = table([place(0, "troop", 18, 10), place(1, "seat", 18, 15)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "BounceBlocked")[0].reason == "seat"  # type: ignore[attr-defined]
    assert s.unit(1).hp == 1


def test_no_bounce_after_hammerblow_destroys() -> None:
    """A destroyed defender does not bounce back (FA-BB-01: "If a defending unit isn't destroyed")."""
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15, hp=3)], cp=(10, 0))
    s, _ = act(s, Stratagem("hammerblow"))
    s, ev = act(s, Engage(0, 1))
    assert "BouncedBack" not in kinds(ev) and s.unit(1).destroyed


@settings(max_examples=60, deadline=None)
@given(
    rx=st.floats(8, 24),
    ry=st.floats(16, 26),
    rw=st.floats(0.5, 8),
    rh=st.floats(0.5, 6),
    fx=st.floats(10, 26),
    fy=st.floats(17, 26),
)
def test_a_bounce_back_never_ends_in_impassable_terrain_or_on_a_tray(
    rx: float, ry: float, rw: float, rh: float, fx: float, fy: float
) -> None:
    """FA-BB-03 (property): wherever impassable ground and a friend stand behind the defender (both at
    least 1" from it to start with), its bounce back ends wholly on the table, at least 1" from both."""
    rock = block(rx, ry, rx + rw, ry + rh, impassable=True)
    friend = place(1, "troop", fx, fy)
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15), friend], cp=(10, 0), features=(rock,))
    d0, f0 = s.unit(1).tray, s.unit(2).tray
    assert d0 is not None and f0 is not None
    wall = rock.feature.polygon()
    assume(Polygon(d0.corners()).distance(wall) >= 1.0 and tray_gap(d0, f0) >= 1.0)
    assume(Polygon(f0.corners()).distance(wall) > 0 and within_table(f0, 36, 36))
    assume(Polygon(s.unit(0).tray.corners()).distance(wall) > 0)  # type: ignore[union-attr]
    assume(LineString([(18, 10.75), (18, 13.5)]).distance(wall) > 2)
    s, _ = act(s, Engage(0, 1))
    d = s.unit(1).tray
    assert d is not None
    assert Polygon(d.corners()).distance(wall) >= 1.0 - 1e-3
    assert tray_gap(d, f0) >= 1.0 - 1e-3 and within_table(d, 36, 36)


def test_fa_gn_06_a_chain_stops_when_a_general_dies_the_win_stands() -> None:
    """FA-GN-06 decided: Lord Aldric (seat 0's General, Hero, 2 HP) at (18, 10) engages the front of the Old
    Witch (seat 1's General, Wizard) at (18, 12) facing 180: he moves 0.5" to (18, 10.5). She counterattacks:
    Hero -> Wizard front 2 (she has 2 left), Wizard -> Hero front 1 (he has 1 left); both bounce. She goes
    first, 0.5" up into the Pikemen at (18, 14) (seat 0): their chain combat hits her rear, Troop -> Wizard
    rear 4: she is destroyed and seat 0 has won. Aldric's queued bounce back (0.5" from the Halberdiers
    behind him at (18, 8.5): he cannot bounce and would lose his last HP) is dropped: no draw."""
    from tests.games.anvil.engine_kit import GAME, activating, at_activation, unit_named
    from tests.games.anvil.engine_kit import place as put

    from iwgt.core.protocol import Outcome
    from iwgt.games.anvil.actions import Decline, Interrupt

    s = at_activation(5, 6)
    for name, centre, facing in (
        ("Lord Aldric", (18, 10), 0),
        ("Halberdiers", (18, 8.5), 0),
        ("Pikemen", (18, 14.0), 180),
        ("The Old Witch", (18, 12), 180),
    ):
        s = put(s, name, centre, facing)
    ald, wit = unit_named(s, "Lord Aldric"), unit_named(s, "The Old Witch")
    s = activating(s.with_unit(replace(ald, hp=2)), "Lord Aldric")
    s, _ = GAME.apply(s, Engage(ald.id, wit.id))
    s, ev = GAME.apply(s, Interrupt("counterattack", wit.id))
    if s.pending is not None:  # whether the chain offers Counterattack again is FA-AC-02's matter
        s, more = GAME.apply(s, Decline())
        ev = ev + more
    assert [(e.defender, e.damage, e.defender_hp) for e in of(ev, "CombatResolved")] == [  # type: ignore[attr-defined]
        (wit.id, 2, 2),
        (wit.id, 4, 0),
    ]
    assert s.unit(wit.id).destroyed and not s.unit(ald.id).destroyed and s.unit(ald.id).hp == 1
    assert "BounceBlocked" not in kinds(ev) and kinds(ev)[-1] == "GameOver"
    assert GAME.result(s).outcomes == (Outcome.WIN, Outcome.LOSS)
