"""Moving, charging and reforming (CD-MS-01, CD-MS-16, CD-TE-02..14, CD-AC-02/08): expectations by hand.

The Sons of Kaleva's spearmen are 12 infantry models in 6 files of loose order: a 6" x 2" tray (1" cells),
4" a move action. Riders are cavalry (8"), 6 models in 3 files: 3" x 4" (1" x 2" cells).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, Event
from iwgt.games.coloured_dice import movement
from iwgt.games.coloured_dice.actions import Charge, Move, React, Reform
from iwgt.games.coloured_dice.state import CdState, MoveRoll
from iwgt.geometry.trays import tray_gap

from .kit import GAME, battle, roll, square, unit

FAR_ENEMY = unit(1, "spear_wall", 40, 32)


def spears(order: str = "loose", *features: object) -> object:
    """Kaleva spearmen at (10, 5) facing +y, and a far enemy; terrain as given."""
    return battle([unit(0, "spearmen", 10, 5, files=6, order=order), FAR_ENEMY], features=list(features))


def test_spearmen_tray_and_allowance() -> None:
    """CD-AC-07, CD-MS-01 designed: 12 models in 6 files of 1" cells: 6" x 2"; infantry moves 4"."""
    st = spears()
    u = st.unit(0)
    assert (u.tray.frontage, u.tray.depth) == (6.0, 2.0)
    assert movement.allowance(st, u) == 4.0


def test_open_ground_move_full_allowance_and_no_further() -> None:
    """CD-MS-01: 4" straight ahead is a legal move; 4.5" is refused naming the rule."""
    st = spears()
    after, _ = GAME.apply(st, Move(0, ((10.0, 9.0),), 0.0))
    assert after.unit(0).tray.centre == (10.0, 9.0)
    assert after.unit(0).actions_left == 1
    with pytest.raises(IllegalAction, match="CD-MS-01"):
        GAME.apply(st, Move(0, ((10.0, 9.5),), 0.0))


def test_stream_costs_one_inch() -> None:
    """CD-TE-02: a stream takes 1" off the move: 3" through it goes, 3.5" is refused (4 - 1 = 3)."""
    st = spears("loose", square("stream", 0, 7.5, 20, 8))
    after, events = GAME.apply(st, Move(0, ((10.0, 8.0),), 0.0))
    assert after.unit(0).tray.centre == (10.0, 8.0)
    assert events[0].to_json()["taxes"] == 1.0
    with pytest.raises(IllegalAction, match="CD-MS-01"):
        GAME.apply(st, Move(0, ((10.0, 8.5),), 0.0))


def test_river_rolls_a_d6_and_the_unit_stops_where_the_rest_ends() -> None:
    """CD-TE-03: a river takes d6": the die is a chance node when the move is ordered; a 3 leaves 1" of
    the 4", so the unit ordered 4" ahead goes 1" and stops there (no refusal after the roll)."""
    st = spears("loose", square("river", 0, 7.5, 20, 8.5))
    ordered, _ = GAME.apply(st, Move(0, ((10.0, 9.0),), 0.0))
    assert isinstance(ordered.top, MoveRoll)
    assert GAME.to_move(ordered) == CHANCE
    die = GAME.chance_outcomes(ordered)
    assert die is not None and die.sides == 6
    assert ordered.unit(0).tray.centre == (10.0, 5.0)  # not moved before the die
    awaiting = GAME.observe(ordered, 0)["awaiting"]
    assert awaiting["kind"] == "roll" and awaiting["feature"] == 0 and "terrain" in awaiting["purpose"]
    assert GAME.status(ordered).phase == "roll" and GAME.legal_actions(ordered, 0) == []
    after, events = roll(ordered, [3])
    assert after.pending == ()
    assert after.unit(0).tray.centre == pytest.approx((10.0, 6.0))
    assert [e.kind for e in events] == ["TerrainRolled", "UnitMoved"]
    assert events[1].to_json()["stopped"] is True


def test_river_low_roll_lets_the_whole_move_through() -> None:
    """CD-TE-03: a river roll of 1 still leaves 3" of 4"; ordered 3", the unit goes all of it."""
    st = spears("loose", square("river", 0, 7.5, 20, 8.5))
    ordered, _ = GAME.apply(st, Move(0, ((10.0, 8.0),), 0.0))
    after, _ = roll(ordered, [1])
    assert after.unit(0).tray.centre == pytest.approx((10.0, 8.0))


def test_pond_rolls_and_bars_marching() -> None:
    """CD-TE-04/05: a pond takes d6" and the unit may not march (no second move) this turn."""
    st = spears("loose", square("pond", 8, 7.5, 12, 8.5))
    ordered, _ = GAME.apply(st, Move(0, ((10.0, 8.0),), 0.0))
    after, _ = roll(ordered, [1])
    assert after.unit(0).marching_blocked
    assert after.unit(0).actions_left == 1
    with pytest.raises(IllegalAction, match="pond"):
        GAME.apply(after, Move(0, ((10.0, 9.0),), 0.0))


def test_cavalry_may_not_enter_a_forest() -> None:
    """CD-TE-13: cavalry may not enter a forest: a move into it is refused; the same move beside it goes."""
    st = battle(
        [unit(0, "riders", 30, 5, files=3), FAR_ENEMY],
        features=[square("forest", 26, 10, 34, 14)],
    )
    with pytest.raises(IllegalAction, match="CD-TE"):
        GAME.apply(st, Move(0, ((30.0, 10.0),), 0.0))
    after, _ = GAME.apply(st, Move(0, ((23.0, 5.0),), 0.0))
    assert after.unit(0).tray.centre == (23.0, 5.0)


def test_infantry_may_enter_a_forest_for_a_d6() -> None:
    """CD-TE-12: a forest takes d6" from infantry (a chance node), never a refusal."""
    st = spears("loose", square("forest", 0, 7.5, 20, 12))
    ordered, _ = GAME.apply(st, Move(0, ((10.0, 8.0),), 0.0))
    assert GAME.to_move(ordered) == CHANCE


def test_two_moves_in_loose_order_but_no_march_in_tight() -> None:
    """CD-AC-02: two move actions a turn (the second is marching); CD-AC-08 designed: tight order does not
    march."""
    loose = spears("loose")
    one, _ = GAME.apply(loose, Move(0, ((10.0, 9.0),), 0.0))
    two, events = GAME.apply(one, Move(0, ((10.0, 13.0),), 0.0))
    assert two.unit(0).tray.centre == (10.0, 13.0)
    assert two.unit(0).actions_left == 0 and two.unit(0).moved == 2
    assert events[0].to_json()["march"] is True
    tight = spears("tight")
    one, _ = GAME.apply(tight, Move(0, ((10.0, 9.0),), 0.0))
    with pytest.raises(IllegalAction, match="CD-AC-08"):
        GAME.apply(one, Move(0, ((10.0, 13.0),), 0.0))


def test_a_move_may_not_end_within_an_inch_of_an_enemy() -> None:
    """cd-spec 1 (ENEMY_GAP): only a charge ends in contact. The enemy's front is at y = 11; the spearmen's
    front would be at 10.5 (0.5" away): refused; at 10 (1" away): allowed."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 12, files=6)])
    with pytest.raises(IllegalAction, match="CD-MS-16"):
        GAME.apply(st, Move(0, ((10.0, 9.5),), 0.0))
    after, _ = GAME.apply(st, Move(0, ((10.0, 9.0),), 0.0))
    assert tray_gap(after.unit(0).tray, after.unit(1).tray) == pytest.approx(1.0)


def test_a_move_may_not_cross_another_unit() -> None:
    """CD-MS-01: the swept area may not cross another tray (a friend here)."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(0, "levy", 10, 8.5, files=6), FAR_ENEMY])
    with pytest.raises(IllegalAction, match="cross"):
        GAME.apply(st, Move(0, ((10.0, 9.0),), 0.0))


def _charged(st: CdState, order: Charge) -> tuple[CdState, list[Event]]:
    """The charge ordered and the target's reaction declined (CD-RE-02: each started 8" of the gap gives a
    die, so every charge from a distance asks)."""
    asked, events = GAME.apply(st, order)
    after, more = GAME.apply(asked, React(False))
    return after, events + more


def test_charge_ends_in_contact_flush_and_centred() -> None:
    """CD-MS-16: the target's front is at y = 9.5; the charger ends flush on it, centred, facing it: its
    centre at (10, 8.5), 3.5" from where it stood; the reaction (1 die from 3.5", CD-RE-02) declined."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 11, 10.5, files=6)])
    after, events = _charged(st, Charge(0, 1))
    assert after.pending == ()
    u = after.unit(0)
    assert u.tray.centre == pytest.approx((11.0, 8.5))
    assert u.tray.facing == pytest.approx(0.0)
    assert tray_gap(u.tray, after.unit(1).tray) <= movement.CONTACT_EPS
    assert movement.engaged(after, u) == [1]
    assert u.actions_left == 1
    assert any(e.kind == "UnitCharged" and e.to_json()["contact"] for e in events)


def test_charge_needs_line_of_sight() -> None:
    """CD-MS-16, CD-TE-12: a forest between the units (3" apart, in reach) blocks sight: no charge."""
    st = battle(
        [unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 10, files=6)],
        features=[square("forest", 0, 6.5, 20, 8.5)],
    )
    with pytest.raises(IllegalAction, match="cannot see"):
        GAME.apply(st, Charge(0, 1))
    open_ground = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 10, files=6)])
    after, _ = _charged(open_ground, Charge(0, 1))
    assert movement.engaged(after, after.unit(0)) == [1]


def test_charge_out_of_reach_is_refused() -> None:
    """CD-MS-16: the target 6" away is beyond the spearmen's 4"."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 13, files=6)])
    said = 'CD-MS-16: out of reach: 6.00" to Spear-wall of the North, a move of 4" for Spearmen of Kaleva'
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, Charge(0, 1))
    assert str(refused.value) == said  # the rule first, no verb after a (plural) unit name


def test_long_charge_asks_for_a_reaction() -> None:
    """CD-RE-01/02: riders (8") charging from 8" away: 8 / 8 rounded up = 1 reaction die is offered to the
    target's owner before contact."""
    st = battle([unit(0, "riders", 10, 4, files=3), unit(1, "spear_wall", 10, 15, files=6)])
    gap = tray_gap(st.unit(0).tray, st.unit(1).tray)
    assert gap == pytest.approx(8.0)
    after, _ = GAME.apply(st, Charge(0, 1))
    assert GAME.to_move(after) == 1
    obs = GAME.observe(after, 1)
    assert obs["awaiting"]["kind"] == "react"
    assert len(obs["awaiting"]["dice"]) == 1


def test_engaged_unit_may_not_move_or_charge() -> None:
    """Designed: a unit in contact with an enemy may only fight, cast or reform in place."""
    st = battle([unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 11, 10.5, files=6)])
    after, _ = _charged(st, Charge(0, 1))
    with pytest.raises(IllegalAction, match="engaged"):
        GAME.apply(after, Move(0, ((10.0, 6.0),), 0.0))


def test_reform_changes_files_about_the_front_centre() -> None:
    """CD-AC-07/08: 12 models reformed into 4 files of tight order: 4" x 3", the front edge kept (y = 6)."""
    st = spears()
    after, _ = GAME.apply(st, Reform(0, "tight", 4))
    u = after.unit(0)
    assert (u.order, u.files, u.tray.frontage, u.tray.depth) == ("tight", 4, 4.0, 3.0)
    assert u.tray.front_centre() == pytest.approx((10.0, 6.0))
    with pytest.raises(IllegalAction, match="CD-AC-07"):
        GAME.apply(st, Reform(0, "skirmish", 4))


def test_offered_moves_are_legal_and_modest() -> None:
    """The legal actions offer a finite spread of moves, each accepted by apply."""
    st = spears()
    moves = [a for a in GAME.legal_actions(st, 0) if isinstance(a, Move)]
    assert 1 <= len(moves) <= 30
    for m in moves:
        after, _ = GAME.apply(st, m)
        assert math.dist(after.unit(0).tray.centre, st.unit(0).tray.centre) <= 4.0 + 1e-6


def test_bushes_cost_an_inch_and_are_cleared_by_a_block_going_through() -> None:
    """CD-TE-06..08: bushes take 1" and are cleared when more than a few models went through them."""
    st = spears("loose", square("bushes", 7, 7, 13, 8))
    after, events = GAME.apply(st, Move(0, ((10.0, 8.0),), 0.0))
    assert after.unit(0).tray.centre == (10.0, 8.0)
    assert events[0].to_json()["taxes"] == 1.0
    assert after.piece(0).removed
    assert [f.id for f in after.terrain()] == []
    assert any(e.kind == "BushesCleared" for e in events)


def test_woodland_slows_infantry_an_inch_and_cavalry_a_d6() -> None:
    """CD-TE-09/10: woodland: infantry -1" (fixed), cavalry -d6" (a chance node)."""
    wood = square("woodland", 0, 7.5, 40, 9)
    foot = spears("loose", wood)
    after, events = GAME.apply(foot, Move(0, ((10.0, 8.0),), 0.0))
    assert after.pending == () and events[0].to_json()["taxes"] == 1.0
    horse = battle([unit(0, "riders", 30, 4, files=3), FAR_ENEMY], features=[wood])
    ordered, _ = GAME.apply(horse, Move(0, ((30.0, 8.0),), 0.0))
    assert GAME.to_move(ordered) == CHANCE
    after, _ = roll(ordered, [6])  # 8 - 6 = 2" left: the riders stop 2" along
    assert after.unit(0).tray.centre == pytest.approx((30.0, 6.0))


def test_a_charge_through_a_river_rolls_then_makes_contact_or_stops_short() -> None:
    """CD-MS-16, CD-TE-03: the charge's river d6 is rolled after it is declared; the trays are 2.5" apart.
    A 1 leaves 3" of 4": contact. A 2 leaves 2": the charger goes on only to 1" short of the enemy (1" apart).
    A 3 leaves 1": it goes 1" (1.5" apart). Neither is in contact."""
    units = [unit(0, "spearmen", 10, 5, files=6), unit(1, "spear_wall", 10, 9.5, files=6)]
    river = square("river", 0, 6.5, 20, 7.5)
    st = battle(units, features=[river])
    declared, _ = _charged(st, Charge(0, 1))
    assert GAME.to_move(declared) == CHANCE
    hit, events = roll(declared, [1])
    assert movement.engaged(hit, hit.unit(0)) == [1]
    assert any(e.kind == "UnitCharged" and e.to_json()["contact"] for e in events)
    short, events = roll(declared, [2])
    assert movement.engaged(short, short.unit(0)) == []
    assert tray_gap(short.unit(0).tray, short.unit(1).tray) == pytest.approx(1.0, abs=0.01)
    assert any(e.kind == "UnitCharged" and not e.to_json()["contact"] for e in events)
    shorter, _ = roll(declared, [3])
    assert tray_gap(shorter.unit(0).tray, shorter.unit(1).tray) == pytest.approx(1.5, abs=0.01)


def test_cd_te_14_refusal_names_the_rule_and_the_piece() -> None:
    """CD-TE-14: cavalry into a forest is refused naming the clause and the piece; CD-TE rocks (impassable
    for all, the rules' entry's clause): a move across them names the rocks; the end tray in them too."""
    st = battle(
        [unit(0, "riders", 30, 5, files=3), FAR_ENEMY],
        features=[square("forest", 26, 10, 34, 14)],
    )
    with pytest.raises(IllegalAction, match=r"^CD-TE-14: cavalry may not enter the Forest"):
        GAME.apply(st, Move(0, ((30.0, 10.0),), 0.0))
    st = battle([unit(0, "spearmen", 20, 4, files=6), FAR_ENEMY], features=[square("rocks", 18, 8, 22, 9)])
    with pytest.raises(IllegalAction, match=r"no unit may enter the Rocks, it is impassable .*cross it"):
        GAME.apply(st, Move(0, ((20.0, 12.0),), 0.0))
    tray = st.unit(0).tray.moved((20.0, 8.5))
    why = movement.why_not_stand(st, st.unit(0), tray)
    assert why is not None and "no unit may enter the Rocks" in why and why.endswith("would stand in it)")


def test_a_charger_shaken_before_contact_abandons_the_charge() -> None:
    """CD-MS-16, CD-RE-01 (designed): a charger shaken (or destroyed) by the reaction goes nowhere and no
    UnitCharged is told (no 'charge from 0"'); its action is spent."""
    st = battle([unit(0, "riders", 10, 4, files=3), unit(1, "spear_wall", 10, 15, files=6)])
    asked, _ = GAME.apply(st, Charge(0, 1))
    charger = asked.unit(0)
    shaken = asked.with_unit(replace(charger, shaken=True))
    after, events = GAME.apply(shaken, React(False))
    assert not any(e.kind == "UnitCharged" for e in events)
    # the log says the charge is abandoned, and why
    assert [e.to_json() for e in events if e.kind == "ChargeAbandoned"] == [
        {"event": "ChargeAbandoned", "unit": 0, "target": 1, "reason": "shaken"}
    ]
    assert after.unit(0).tray == st.unit(0).tray
    assert after.unit(0).actions_left == st.unit(0).actions_left - 1
    # steady, the same charge makes contact
    after, events = GAME.apply(asked, React(False))
    assert [e.to_json()["contact"] for e in events if e.kind == "UnitCharged"] == [True]
    assert not any(e.kind == "ChargeAbandoned" for e in events)


def test_remembered_offers_follow_what_changes_near_the_unit() -> None:
    """CD-MS-01: the offered moves are remembered per unit, but a friend stepping into the way, or a new
    turn, gives the same offers as working them out afresh; the friend ahead cuts the move straight ahead."""
    alone = battle([unit(0, "spearmen", 20, 4, files=6), unit(0, "archers", 40, 4), FAR_ENEMY])
    spear = alone.unit(0)
    first = movement.move_offers(alone, spear)
    reach = movement.allowance(alone, spear)
    assert first == movement._move_offers(alone, spear, reach, None)
    ahead = alone.unit(1).tray.moved((20.0, 7.5))
    blocked = alone.with_unit(replace(alone.unit(1), tray=ahead))
    offers = movement.move_offers(blocked, spear)
    assert offers == movement._move_offers(blocked, spear, reach, None)
    assert offers != first
    straight = [p[0] for p, _ in offers if p[0][0] == 20.0]
    assert straight and all(y < 5.0 for _, y in straight)  # stops short of the archers ahead
    again = movement.move_offers(alone, replace(spear, attacked=not spear.attacked))
    assert again == first
