"""Spells and Naturals (FA-SN-01..15), measured by hand. The caster stands at (18, 10) (tray y 9.25..10.75);
a target at (18, y) facing 180 is y - 11.5 inches away. The other seat has no CP (no Dispel offer) unless
said."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import Cast, Steady
from iwgt.games.anvil.spells import cast_actions

from .kit import act, block, kinds, of, place, table


def _cast(
    caster: str = "wizard",
    y: float = 20.0,
    *,
    cp=(10, 0),
    general=False,
    premeasure=True,
    features=(),
    target=None,
):  # type: ignore[no-untyped-def]
    t = target or place(1, "troop", 18, y)
    return table(
        [place(0, caster, 18, 10, general=general), t], cp=cp, premeasure=premeasure, features=features
    )


def test_fireball_two_hp_within_twelve_and_los() -> None:
    """FA-SN-01/02: 2 CP; 8.5" away: 4 - 2 = 2 HP."""
    s = _cast()
    assert Cast(0, "fireball", target=1) in cast_actions(s)
    s, ev = act(s, Cast(0, "fireball", target=1))
    assert s.unit(1).hp == 2 and s.cp == (8, 0)
    assert of(ev, "SpellCastEvent")[0].natural is False  # type: ignore[attr-defined]


def test_fireball_out_of_range() -> None:
    """FA-SN-02: 13.5" away: refused when premeasuring; spent with no effect otherwise (FA-GN-09 decided)."""
    s = _cast(y=25.0)
    assert Cast(0, "fireball", target=1) not in cast_actions(s)
    with pytest.raises(IllegalAction):
        act(s, Cast(0, "fireball", target=1))
    s = _cast(y=25.0, premeasure=False)
    s, ev = act(s, Cast(0, "fireball", target=1))
    assert "SpellFizzled" in kinds(ev) and s.unit(1).hp == 4 and s.cp == (8, 0)


def test_fireball_needs_los_and_ignores_brace() -> None:
    """FA-SN-02 needs LOS; FA-SC-02 decided: Brace does not reduce spell damage."""
    wall = block(10, 13, 26, 14, blocks=True)
    s = _cast(features=(wall,))
    with pytest.raises(IllegalAction, match="line of sight"):
        act(s, Cast(0, "fireball", target=1))
    s = _cast(target=place(1, "troop", 18, 20, braced=True))
    s, _ = act(s, Cast(0, "fireball", target=1))
    assert s.unit(1).hp == 2


def test_a_monster_uses_fireball_as_a_natural() -> None:
    """FA-ST-06: a Monster's Fireball is a Natural."""
    s, ev = act(_cast("monster"), Cast(0, "fireball", target=1))
    assert of(ev, "SpellCastEvent")[0].natural is True and s.unit(1).hp == 2  # type: ignore[attr-defined]


def test_only_wizards_and_monsters_cast() -> None:
    """FA-SN-01, FA-ST-02: a Hero may not cast Fireball."""
    s = _cast("hero")
    assert cast_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SN-01"):
        act(s, Cast(0, "fireball", target=1))


def test_transfix_marks_the_target() -> None:
    """FA-SN-05..07: 3 CP; the target may not activate this turn (its marker)."""
    s, ev = act(_cast(), Cast(0, "transfix", target=1))
    assert s.unit(1).transfixed and s.cp == (7, 0) and "UnitTransfixed" in kinds(ev)


def test_drain_life_takes_one_and_heals_the_wizard_to_its_start() -> None:
    """FA-SN-08/09: 3 CP; target 4 - 1 = 3; the Wizard from 3 to 4 HP, not above its starting 4."""
    s = table([place(0, "wizard", 18, 10, hp=3), place(1, "troop", 18, 20)], cp=(10, 0))
    s, _ = act(s, Cast(0, "drain_life", target=1))
    assert s.unit(1).hp == 3 and s.unit(0).hp == 4 and s.cp == (7, 0)
    s = table([place(0, "wizard", 18, 10), place(1, "troop", 18, 20)], cp=(10, 0))
    s, _ = act(s, Cast(0, "drain_life", target=1))
    assert s.unit(0).hp == 4


def test_drain_life_needs_no_los_and_monsters_may_not() -> None:
    """FA-SN-08/09: no LOS named; a Wizard only."""
    wall = block(10, 13, 26, 14, blocks=True)
    s, _ = act(_cast(features=(wall,)), Cast(0, "drain_life", target=1))
    assert s.unit(1).hp == 3
    with pytest.raises(IllegalAction, match="FA-SN-08"):
        act(_cast("monster"), Cast(0, "drain_life", target=1))


def test_stormwind_away_six_inches() -> None:
    """FA-SN-03/04: 3 CP; straight away from the caster 6": (18, 20) to (18, 26), facing kept."""
    s, ev = act(_cast(), Cast(0, "stormwind", target=1, distance=6.0, direction="away"))
    assert s.unit(1).tray is not None and s.unit(1).tray.centre == pytest.approx((18.0, 26.0))
    assert s.unit(1).tray.facing == 180.0 and s.cp == (7, 0)
    assert of(ev, "UnitPushed")[0].moved == pytest.approx(6.0)  # type: ignore[attr-defined]


def test_stormwind_towards_stops_one_inch_short_of_the_caster() -> None:
    """FA-SN-04 decided: a target 2.5" from the caster pulled 6" towards it stops 1" short: 1.5" moved."""
    s, ev = act(_cast(y=14.0), Cast(0, "stormwind", target=1, distance=6.0, direction="towards"))
    assert s.unit(1).tray is not None and s.unit(1).tray.centre == pytest.approx((18.0, 12.5), abs=1e-3)
    assert "ChainCombat" not in kinds(ev) and "CombatResolved" not in kinds(ev)


def test_stormwind_limits() -> None:
    """FA-SN-04: up to 6"; the Seat of Power and a braced unit do not move (decided)."""
    with pytest.raises(IllegalAction, match="FA-SN-04"):
        act(_cast(), Cast(0, "stormwind", target=1, distance=7.0, direction="away"))
    s = _cast(target=place(1, "troop", 18, 20, braced=True))
    with pytest.raises(IllegalAction, match="braced"):
        act(s, Cast(0, "stormwind", target=1, distance=6.0, direction="away"))


def test_each_spell_once_per_activation() -> None:
    """FA-AC-02 decided: a second Fireball in the same activation is refused."""
    s = table([place(0, "wizard", 18, 10), place(1, "troop", 18, 20), place(1, "troop", 22, 20)], cp=(10, 0))
    s, _ = act(s, Cast(0, "fireball", target=1))
    with pytest.raises(IllegalAction, match="FA-AC-02"):
        act(s, Cast(0, "fireball", target=2))


def test_summon_subjects_places_a_weak_troop() -> None:
    """FA-SN-10..12: a General Wizard, 4 CP: a Troop with Weak (4 - 2 = 2 HP) where ordered."""
    s = _cast(general=True)
    assert any(c.spell == "summon_subjects" for c in cast_actions(s))
    s, ev = act(s, Cast(0, "summon_subjects", point=(18.0, 14.0), facing=0.0))
    new = s.units[-1]
    assert new.type == "troop" and new.hp == 2 and new.stratagems == ("weak",) and new.summoned
    assert new.tray is not None and new.tray.centre == (18.0, 14.0) and s.cp == (6, 0)
    assert s.unit(0).hp == 4 and s.summons == (1, 0)
    assert of(ev, "UnitSummoned")[0].unit == new.id  # type: ignore[attr-defined]


def test_summon_extras_cost_their_dcp_in_cp() -> None:
    """FA-SN-13 decided: Swiftness (2) and fear (2) paid as CP: 4 + 4 = 8."""
    s, _ = act(
        _cast(general=True), Cast(0, "summon_subjects", point=(18.0, 14.0), extras=("swiftness", "fear"))
    )
    assert s.cp == (2, 0) and s.units[-1].stratagems == ("weak", "swiftness", "fear")
    with pytest.raises(IllegalAction, match="FA-SN-13"):
        act(_cast(general=True), Cast(0, "summon_subjects", point=(18.0, 14.0), extras=("shooter",)))


def test_summon_second_use_costs_the_wizard_one_hp() -> None:
    """FA-SN-14: from the second use in the game the Wizard loses 1 HP."""
    s = _cast(general=True)
    s = replace(s, summons=(1, 0))
    s, ev = act(s, Cast(0, "summon_subjects", point=(18.0, 14.0)))
    assert s.unit(0).hp == 3 and "UnitDamaged" in kinds(ev)


def test_summon_placement_rules() -> None:
    """FA-SN-11: within 18" of the caster; not within 1" of an enemy; a General Wizard only (FA-SN-10)."""
    with pytest.raises(IllegalAction, match="18"):
        act(_cast(general=True), Cast(0, "summon_subjects", point=(18.0, 31.0)))
    with pytest.raises(IllegalAction, match="within 1"):
        act(_cast(general=True), Cast(0, "summon_subjects", point=(18.0, 18.0)))
    with pytest.raises(IllegalAction, match="FA-SN-10"):
        act(_cast(general=False), Cast(0, "summon_subjects", point=(18.0, 14.0)))


def test_steady_and_summon_not_in_the_same_turn() -> None:
    """FA-SN-15 decided (the second reading): the General may not use both in one turn."""
    s = table(
        [
            place(0, "wizard", 18, 10, general=True),
            place(1, "troop", 18, 20),
            place(0, "troop", 22, 10, hp=2),
        ],
        cp=(10, 0),
    )
    s, _ = act(s, Cast(0, "summon_subjects", point=(18.0, 14.0)))
    with pytest.raises(IllegalAction, match="FA-SN-15"):
        act(s, Steady(0, 2))
