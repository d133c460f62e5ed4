"""Interruptions (FA-ST-05, FA-SI-01..12): offered to the other seat at the moment they apply, paid from
its CP left, answered with ``interrupt`` or ``decline``; measured by hand."""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import Cast, Decline, Engage, Interrupt, Shoot
from iwgt.games.anvil.combat import combat_actions, interrupt_actions

from .kit import act, answer, kinds, of, place, table


def _front(a_hp: int = 4, d_hp: int = 4, cp: tuple[int, int] = (10, 10)):  # type: ignore[no-untyped-def]
    """A Troop engages an enemy Troop's front (FA-CRM-TROOP-TROOP front 2, both ways)."""
    s = table([place(0, "troop", 18, 10, hp=a_hp), place(1, "troop", 18, 15, hp=d_hp)], cp=cp)
    return act(s, Engage(0, 1))


def test_counterattack_is_offered_after_the_engage_move_before_damage() -> None:
    """FA-SI-01/02, FA-ST-05: the engage move is made, then seat 1 is asked (phase interrupt)."""
    s, ev = _front()
    assert kinds(ev) == ["EngageDeclared", "InterruptionOffered"]
    assert s.phase == "interrupt" and s.pending is not None
    assert (s.pending.kind, s.pending.seat, s.pending.unit) == ("counterattack", 1, 1)
    assert s.unit(0).tray is not None and s.unit(0).tray.centre == pytest.approx((18.0, 13.5))
    assert s.unit(1).hp == 4  # no damage yet
    assert interrupt_actions(s) == [Interrupt("counterattack", 1), Decline()]
    assert combat_actions(s) == []
    with pytest.raises(IllegalAction):
        act(s, Interrupt("dispel"))


def test_counterattack_none_destroyed_both_bounce() -> None:
    """FA-SI-02..04: 2 HP each way (the defender's column, front: FA-CRM-TROOP-TROOP); both bounce 3"
    away from each other: the defender to (18, 18), the attacker back to (18, 10.5). Seat 1 pays 3 CP."""
    s, _ = _front()
    s, ev = answer(s, True)
    r = of(ev, "CombatResolved")[0]
    assert r.damage == 2 and r.counter_damage == 2  # type: ignore[attr-defined]
    assert s.unit(0).hp == 2 and s.unit(1).hp == 2
    ends = {e.unit: e.end for e in of(ev, "BouncedBack")}  # type: ignore[attr-defined]
    assert ends[1] == pytest.approx((18.0, 18.0)) and ends[0] == pytest.approx((18.0, 10.5))
    assert s.cp == (10, 7) and s.phase == "activation" and s.pending is None


def test_counterattack_both_destroyed() -> None:
    """FA-SI-03: simultaneous: 2 HP each against 2 HP each: both destroyed, nobody bounces."""
    s, _ = _front(a_hp=2, d_hp=2)
    s, ev = answer(s, True)
    assert sorted(e.unit for e in of(ev, "UnitDestroyed")) == [0, 1]  # type: ignore[attr-defined]
    assert "BouncedBack" not in kinds(ev)
    assert s.unit(0).destroyed and s.unit(1).destroyed


def test_counterattacker_converts_no_excess_but_the_attacker_does() -> None:
    """FA-SI-05, FA-CRM-03: a Monster (rear 5) kills a 4 HP Troop that counterattacks: 1" for the Monster."""
    s = table([place(0, "monster", 18, 20, 180), place(1, "troop", 18, 15)], cp=(10, 10))
    s, _ = act(s, Engage(0, 1))
    s, ev = answer(s, True)
    r = of(ev, "CombatResolved")[0]
    assert r.damage == 5 and r.counter_damage == 1  # type: ignore[attr-defined]  # FA-CRM-TROOP-MONSTER front
    assert s.unit(0).hp == 7 and s.unit(1).destroyed
    assert s.activation is not None and s.activation.excess == pytest.approx(1.0)


def test_declining_lets_the_combat_go_on() -> None:
    """Decline: the plain combat; no CP spent."""
    s, _ = _front()
    s, ev = answer(s, False)
    assert kinds(ev)[0] == "InterruptionDeclined"
    assert s.unit(1).hp == 2 and s.unit(0).hp == 4 and s.cp == (10, 10)


def test_counterattack_not_offered_when_it_cannot_be_paid() -> None:
    """FA-ST-05 decided: 2 CP left is less than Counterattack's 3: no offer."""
    s, ev = _front(cp=(10, 2))
    assert s.pending is None and "InterruptionOffered" not in kinds(ev)


def test_counterattack_not_offered_against_ballistics() -> None:
    """FA-SI-02 decided: Ballistics is not an engage: no Counterattack offer."""
    s = table([place(0, "troop", 18, 10, stratagems=("shooter",)), place(1, "troop", 18, 20)], cp=(10, 10))
    s, ev = act(s, Shoot(0, 1))
    assert s.pending is None and "InterruptionOffered" not in kinds(ev)


def _hero_in_the_rear(cp: tuple[int, int], *extra):  # type: ignore[no-untyped-def]
    """A Troop engages the rear of a 2 HP Hero facing 180 (FA-CRM-TROOP-HERO rear 3: it would die)."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "hero", 18, 15, hp=2), *extra], cp=cp)
    return act(s, Engage(0, 1))


def test_hero_of_the_day_keeps_the_hero_with_one_hp_and_it_bounces() -> None:
    """FA-SI-09..12: Counterattack declined, then Hero of the Day (4 CP): 1 HP left, a bounce back 3"
    away from the attacker at (18, 16.5): to (18, 12); no excess for the attacker."""
    s, _ = _hero_in_the_rear((10, 10))
    s, _ = answer(s, False)
    assert s.pending is not None and s.pending.kind == "hero_of_the_day"
    s, ev = answer(s, True)
    assert of(ev, "HeroOfTheDay")[0].hp == 1  # type: ignore[attr-defined]
    assert s.unit(1).hp == 1 and s.unit(1).on_table
    assert of(ev, "BouncedBack")[0].end == pytest.approx((18.0, 12.0))  # type: ignore[attr-defined]
    assert "ExcessMove" not in kinds(ev) and s.activation is not None and s.activation.excess == 0.0
    assert s.cp == (10, 6)


def test_hero_of_the_day_declined_destroys_and_the_attacker_gets_the_excess() -> None:
    """FA-CRM-03: 3 against 2 HP: destroyed, 1" of excess."""
    s, _ = _hero_in_the_rear((10, 10))
    s, _ = answer(s, False)
    s, ev = answer(s, False)
    assert s.unit(1).destroyed and of(ev, "ExcessMove")[0].inches == pytest.approx(1.0)  # type: ignore[attr-defined]


def test_hero_of_the_day_not_offered_when_it_cannot_bounce_back() -> None:
    """FA-SI-11: a friend 0.5" in front of the Hero (it would bounce towards it): no room, no offer."""
    friend = place(1, "troop", 18, 13.0)
    s, _ = _hero_in_the_rear((10, 10), friend)
    s, _ev = answer(s, False)  # the Counterattack offer
    assert s.pending is None and s.unit(1).destroyed


def test_hero_of_the_day_for_the_generals_unit() -> None:
    """FA-SI-09 decided: "Hero, General": a General's Troop may use it too."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "troop", 18, 15, hp=3, general=True)], cp=(10, 4))
    s, _ = act(s, Engage(0, 1))
    s, _ = answer(s, False)  # Counterattack (3 of the 4 CP) declined
    assert s.pending is not None and s.pending.kind == "hero_of_the_day"
    s, _ = answer(s, True)
    assert s.unit(1).hp == 1 and s.cp == (10, 0)


def test_hero_of_the_day_not_for_a_plain_troop() -> None:
    """FA-SI-09: a Troop that is not the General's unit may not use it."""
    s = table([place(0, "troop", 18, 20, 180), place(1, "troop", 18, 15, hp=3)], cp=(10, 10))
    s, _ = act(s, Engage(0, 1))
    s, _ = answer(s, False)
    assert s.pending is None and s.unit(1).destroyed


def _fireball(caster: str, cp: tuple[int, int] = (10, 10)):  # type: ignore[no-untyped-def]
    """A caster at (18, 10) fireballs an enemy Troop at (18, 20) (8.5" away, in LOS); an enemy Wizard at
    (10, 20) stands 9.86" from the caster (nearest points: 5" across, 8.5" up)."""
    s = table([place(0, caster, 18, 10), place(1, "troop", 18, 20), place(1, "wizard", 10, 20)], cp=cp)
    return act(s, Cast(0, "fireball", target=1))


def test_dispel_stops_a_wizards_fireball_and_its_cp_are_spent() -> None:
    """FA-SI-06..08: the Wizard's Fireball (2 CP) is dispelled (3 CP): no damage; both CP spent."""
    s, ev = _fireball("wizard")
    assert s.pending is not None and (s.pending.kind, s.pending.seat, s.pending.unit) == ("dispel", 1, 2)
    assert s.cp == (8, 10) and s.unit(1).hp == 4
    s, ev = answer(s, True)
    assert kinds(ev) == ["StratagemUsed", "SpellDispelled"]
    assert s.unit(1).hp == 4 and s.cp == (8, 7) and s.pending is None


def test_dispel_declined_the_fireball_burns() -> None:
    """FA-SN-02: 2 HP."""
    s, _ = _fireball("wizard")
    s, _ = answer(s, False)
    assert s.unit(1).hp == 2


def test_a_monsters_fireball_cannot_be_dispelled() -> None:
    """FA-ST-06, FA-SI-07: a Monster's Fireball is a Natural: no Dispel offer, 2 HP at once."""
    s, ev = _fireball("monster")
    assert s.pending is None and "InterruptionOffered" not in kinds(ev)
    assert s.unit(1).hp == 2


def test_dispel_needs_a_wizard_within_twelve_inches_and_the_cp() -> None:
    """FA-SI-07: no offer when the other seat cannot pay 3 CP."""
    s, _ = _fireball("wizard", cp=(10, 2))
    assert s.pending is None and s.unit(1).hp == 2


def test_counterattack_in_a_chain_and_the_bounce_backs_left_after_it() -> None:
    """FA-SI-02 decided (also in chains), FA-BB-02: Counterattack at the first combat (2 HP each way), so
    both bounce; the defender first: 2.5" into a second enemy Troop at (18, 19), which attacks its rear.
    The defender has used Counterattack in this activation, so it is not asked again (FA-AC-02 decided):
    rear 4 against 2 HP, destroyed. Then the attacker's own bounce back, 3" away from where the defender
    stood: (18, 13.5) to (18, 10.5)."""
    s = table(
        [place(0, "troop", 18, 10), place(1, "troop", 18, 15), place(0, "troop", 18, 19, 180)], cp=(10, 10)
    )
    s, _ = act(s, Engage(0, 1))
    s, ev = answer(s, True)
    assert kinds(ev)[-4:] == ["ChainCombat", "CombatResolved", "UnitDestroyed", "BouncedBack"]
    assert s.unit(1).destroyed and s.unit(0).hp == 2
    assert s.unit(0).tray is not None and s.unit(0).tray.centre == pytest.approx((18.0, 10.5))
    assert s.cp == (10, 7) and s.pending is None and s.phase == "activation"


def test_through_the_game_the_interrupter_is_to_move_and_answers() -> None:
    """FA-ST-05 via AnvilGame: the engage is legal for seat 0; then seat 1 is to move with exactly
    Interrupt or Decline; its answer goes back to seat 0's activation."""
    from iwgt.games.anvil.game import AnvilGame

    game = AnvilGame()
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 10))
    assert game.to_move(s) == 0 and Engage(0, 1) in game.legal_actions(s, 0)
    s, _ = game.apply(s, Engage(0, 1))
    assert game.to_move(s) == 1
    assert list(game.legal_actions(s, 1)) == [Interrupt("counterattack", 1), Decline()]
    assert list(game.legal_actions(s, 0)) == []
    s, ev = game.apply(s, Interrupt("counterattack", 1))
    assert game.to_move(s) == 0 and s.unit(0).hp == 2 and s.unit(1).hp == 2
    assert "BouncedBack" in kinds(ev)


def test_fa_ac_02_counterattack_is_not_offered_again_in_the_chain() -> None:
    """FA-AC-02 decided: an interruption at most once per unit per opponent's activation. A Hero (2 HP) at
    (18, 10) engages a Wizard at (18, 12) facing 180 (0.5" to (18, 10.5)); the Wizard counterattacks (3 of
    its seat's 10 CP; front 2 and 1: both bounce). It bounces 0.5" into seat 0's Troop at (18, 14): that chain
    combat engages it again, but Counterattack is not offered a second time (7 CP would pay for it): Troop ->
    Wizard rear 4 destroys it (2 HP left)."""
    s = table(
        [
            place(0, "hero", 18, 10, hp=2),
            place(1, "wizard", 18, 12),
            place(0, "troop", 18, 14, 180),
            place(0, "troop", 18, 8.5),
        ],
        cp=(10, 10),
    )
    s, ev = act(s, Engage(0, 1))
    assert s.pending is not None and s.pending.kind == "counterattack"
    s, ev = answer(s, True)
    assert s.pending is None and s.phase == "activation" and "InterruptionOffered" not in kinds(ev)
    assert of(ev, "ChainCombat") and s.cp == (10, 7)
    assert [(e.attacker, e.damage) for e in of(ev, "CombatResolved")] == [(0, 2), (2, 4)]  # type: ignore[attr-defined]
    assert s.unit(1).destroyed
