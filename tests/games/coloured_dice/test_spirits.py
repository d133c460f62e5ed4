"""Spirit magic (CD-MA-02..11) and the passive bonuses: bound spirits (+1, released x2 for one turn then
gone), released spirits as units (material: wounds; immaterial: banished or gone with the owner, on a
6"/12" leash), runes carried by units. The armies are the shipped ones (kaleva seat 0, pohjola seat 1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.coloured_dice import magic, spirits
from iwgt.games.coloured_dice.actions import Cast, Release
from iwgt.games.coloured_dice.magic_data import magic_rules
from iwgt.games.coloured_dice.rules import armies
from iwgt.games.coloured_dice.state import CdState
from iwgt.geometry.trays import tray_gap

from .kit import battle, unit

# Seat 0: 0 Tietäjä (shaman: bear spirit, haltija; Tapio 2), 1 hearth guard (iron + fury runes).
# Seat 1: 2 noita (shaman: wolverine spirit, wolf spirit), 3 priest of Tuoni (6), 4 Louhi (bear spirit).
TIETAJA, GUARD, NOITA, TUONI_PRIEST, LOUHI = range(5)


def _state() -> CdState:
    return battle(
        [
            unit(0, "tietaja", 24, 6),
            unit(0, "hearth_guard", 10, 6, files=5),
            unit(1, "noita", 36, 20),
            unit(1, "tuoni_priest", 24, 16),
            unit(1, "louhi", 10, 30),
        ]
    )


def _released(state: CdState, uid: int, spirit: str) -> tuple[CdState, int]:
    s, _ = magic.release_spirit(state, uid, spirit)
    return s, len(s.units) - 1


def test_cd_ma_03_a_bound_bear_spirit_gives_its_bearer_plus_1_armour() -> None:
    """The Tietäjä (no runes) bears the bear spirit: +1 armour in a fight and against shooting."""
    s = _state()
    t = s.unit(TIETAJA)
    assert (magic.armour_bonus(s, t, "fight"), magic.armour_bonus(s, t, "shot")) == (1, 1)


def test_cd_ma_04_released_it_doubles_for_one_turn_then_is_gone() -> None:
    """Released: +2 (x2) through Pohjola's turn; when the Tietäjä's next turn (round 2) begins, nothing."""
    s = _state()
    assert Release(TIETAJA, "bear_spirit") in magic.releasable(s, TIETAJA)
    s2, events = magic.release_spirit(s, TIETAJA, "bear_spirit")
    t = s2.unit(TIETAJA)
    assert "bear_spirit" not in t.spirits
    assert magic.armour_bonus(s2, t, "fight") == 2
    assert magic.armour_bonus(replace(s2, seat=1), t, "shot") == 2
    assert magic.armour_bonus(replace(s2, seat=0, round=2), t, "fight") == 0
    assert [(e.spirit, e.multiplier) for e in events if isinstance(e, spirits.SpiritReleased)] == [
        ("bear_spirit", 2)
    ]
    assert Release(TIETAJA, "bear_spirit") not in magic.releasable(s2, TIETAJA)


def test_a_bound_wolverine_adds_an_orange_die_two_when_released() -> None:
    """The noita's wolverine: one orange die in each fight; released, two for one turn."""
    s = replace(_state(), seat=1)
    assert magic.extra_dice(s, s.unit(NOITA)) == ("orange",)
    s2, _ = magic.release_spirit(s, NOITA, "wolverine_spirit")
    assert magic.extra_dice(s2, s2.unit(NOITA)) == ("orange", "orange")
    assert magic.extra_dice(replace(s2, seat=1, round=2), s2.unit(NOITA)) == ()


def test_cd_ma_12_13_runes_carried_by_a_unit() -> None:
    """The hearth guard's iron and fury runes make the anvil: +2 armour in a fight, +1 against shooting,
    three red dice (1 fury + 2 anvil)."""
    s = _state()
    g = s.unit(GUARD)
    assert (magic.armour_bonus(s, g, "fight"), magic.armour_bonus(s, g, "shot")) == (2, 1)
    assert magic.extra_dice(s, g) == ("red", "red", "red")


def test_cd_ma_05_06_a_released_spirit_enters_as_a_unit_near_its_owner() -> None:
    """Releasing the haltija: a unit of its own (army kaleva, key haltija) owned by the Tietäjä, within 3" of
    him, acting from Kaleva's next turn; it is no longer in his list."""
    s, h = _released(_state(), TIETAJA, "haltija")
    hal = s.unit(h)
    assert (hal.key, hal.army, hal.seat, hal.owner, hal.models) == ("haltija", "kaleva", 0, TIETAJA, 1)
    assert tray_gap(hal.tray, s.unit(TIETAJA).tray) <= magic_rules().constants.summon_range
    assert hal.actions_left == 0
    assert "haltija" not in s.unit(TIETAJA).spirits
    assert magic.wound_immune(s, hal)
    assert spirits.is_immaterial(hal)


def test_cd_ma_10_11_a_shamans_haltija_goes_at_most_12_inches_from_him() -> None:
    """The Tietäjä is a shaman: 12". A move ending 13" away is refused, 11" is not."""
    s, h = _released(_state(), TIETAJA, "haltija")
    hal, owner = s.unit(h), s.unit(TIETAJA)
    ox, oy = owner.tray.centre
    half = (owner.tray.depth + hal.tray.depth) / 2
    far = hal.tray.moved((ox, oy + half + 13.0))
    near = hal.tray.moved((ox, oy + half + 11.0))
    refusal = magic.leash_refusal(s, h, far)
    assert refusal is not None and '12"' in refusal
    assert magic.leash_refusal(s, h, near) is None


def test_cd_ma_10_a_haltija_left_behind_is_drawn_back_within_its_leash() -> None:
    """The Tietäjä walks 20" away: after the action the haltija is pulled straight towards him, to 12"."""
    s, h = _released(_state(), TIETAJA, "haltija")
    owner = s.unit(TIETAJA)
    s = s.with_unit(
        replace(owner, tray=owner.tray.moved((owner.tray.centre[0] + 20.0, owner.tray.centre[1])))
    )
    assert tray_gap(s.unit(h).tray, s.unit(TIETAJA).tray) > 12.0
    s2, events = magic.spirit_leash(s)
    gap = tray_gap(s2.unit(h).tray, s2.unit(TIETAJA).tray)
    assert 11.0 <= gap <= 12.0 + 1e-6
    assert [e.unit for e in events if isinstance(e, spirits.SpiritPulled)] == [h]
    assert s2.unit(h).on_table


def test_cd_ma_08_a_haltija_departs_when_its_owner_is_gone() -> None:
    """Its owner slain, the immaterial spirit goes back to the spirit world."""
    s, h = _released(_state(), TIETAJA, "haltija")
    s = s.with_unit(replace(s.unit(TIETAJA), destroyed=True))
    s2, events = magic.spirit_leash(s)
    assert not s2.unit(h).on_table
    assert [(e.unit, e.why) for e in events if isinstance(e, spirits.SpiritDeparted)] == [(h, "owner_gone")]


def test_cd_ma_08_a_haltija_is_banished_by_tuonis_priest() -> None:
    """Tuoni's ban (level 3, 12"): the priest of Tuoni (God-like 6) sends the haltija back; Pohjola scores
    nothing for it (decision: a released spirit's price is in its owner's points, CD-MA-05)."""
    s, h = _released(_state(), TIETAJA, "haltija")
    s = replace(s, seat=1)
    bans = {c.target for c in magic.castable(s, TUONI_PRIEST) if c.spell == "tuoni_ban"}
    assert bans == {h}
    assert h not in {c.target for c in magic.castable(s, TUONI_PRIEST) if c.spell == "mana_touch"}
    vp = s.vp[1]
    s2, events = magic.begin_cast(s, Cast(TUONI_PRIEST, "tuoni_ban", h))
    assert not s2.unit(h).on_table
    assert [(e.unit, e.why) for e in events if isinstance(e, spirits.SpiritDeparted)] == [(h, "banished")]
    assert s2.vp[1] == vp
    assert not [e for e in events if type(e).__name__ == "VictoryPoints"]


def test_cd_ma_07_09_a_wolf_spirit_is_material() -> None:
    """The noita's wolf spirit: a monster on the table that wounds can kill and that does not vanish with
    its owner; no leash."""
    s, w = _released(replace(_state(), seat=1), NOITA, "wolf_spirit")
    wolf = s.unit(w)
    assert (wolf.key, wolf.owner, wolf.seat) == ("wolf_spirit", NOITA, 1)
    assert not magic.wound_immune(s, wolf)
    s = s.with_unit(replace(s.unit(NOITA), destroyed=True))
    s2, events = magic.spirit_leash(s)
    assert s2.unit(w).on_table and not events
    far = wolf.tray.moved((2.0, 34.0))
    assert magic.leash_refusal(s2, w, far) is None


def test_release_is_refused_for_a_spirit_not_borne() -> None:
    """The Tietäjä bears no wolf spirit."""
    with pytest.raises(IllegalAction, match="no spirit 'wolf_spirit'"):
        magic.release_spirit(_state(), TIETAJA, "wolf_spirit")


def test_every_spirit_a_unit_can_bring_has_its_profile_in_its_army() -> None:
    """A released spirit a unit bears, or one a summon spell it knows calls, has a unit profile in the same
    army (the spirit's ``unit`` key), material or immaterial as magic.toml says."""
    book = magic_rules()
    for army_key, army in armies().items():
        for key, p in army.units.items():
            called = [k for k in p.spirits if book.spirits[k].kind == "released"]
            called += [book.spells[k].spirit for k in p.spells if book.spells[k].effect == "summon"]
            for spirit in called:
                assert spirit is not None
                entry = book.spirits[spirit]
                assert entry.unit in army.spirits, f"{army_key}.{key} brings {spirit}: no profile"
                found = army.spirits[entry.unit]
                assert found.spirit == spirit
                assert found.has("material") == entry.material


def test_a_moon_gate_calls_a_haltija_owned_by_louhi_on_a_6_inch_leash() -> None:
    """Louhi (not a shaman) opens the moon gate (2 Will): a haltija within 3" of her, owned by her, whose
    leash is 6"."""
    s = replace(_state(), seat=1)
    casts = [c for c in magic.castable(s, LOUHI) if c.spell == "moon_gate"]
    assert len(casts) == 1 and casts[0].at is not None
    s2, _ = magic.begin_cast(s, casts[0])
    h = len(s2.units) - 1
    hal = s2.unit(h)
    assert (hal.key, hal.owner, s2.unit(LOUHI).will) == ("haltija", LOUHI, 5)
    owner = s2.unit(LOUHI)
    ox, oy = owner.tray.centre
    half = (owner.tray.depth + hal.tray.depth) / 2
    assert magic.leash_refusal(s2, h, hal.tray.moved((ox, oy - half - 7.0))) is not None
    assert magic.leash_refusal(s2, h, hal.tray.moved((ox, oy - half - 5.0))) is None


def test_immaterial_spirit_is_no_target_cd_ma_08() -> None:
    """CD-MA-08: wounds cannot touch an immaterial spirit, so no shot (nor its preview) and no fight may aim
    at one: the Tietäjä's released haltija is neither offered nor accepted as the archers' target."""
    from iwgt.games.coloured_dice import actions as act
    from iwgt.games.coloured_dice.preview import fight_preview, shot_preview

    from .kit import GAME, put

    st = battle([unit(0, "tietaja", 24, 5), unit(1, "poison_archers", 24, 20, files=10)])
    st, _ = GAME.apply(st, act.Release(0, "haltija"))
    st, _ = GAME.apply(st, act.EndTurn())
    hid = next(u.id for u in st.units if u.key == "haltija")
    assert not [a for a in GAME.legal_actions(st, 1) if getattr(a, "target", None) == hid]
    with pytest.raises(IllegalAction, match="CD-MA-08"):
        GAME.apply(st, act.Shoot(1, hid))
    assert isinstance(shot_preview(st, 1, hid), str)
    assert all(p["target"] != hid for p in GAME.observe(st, 1)["previews"])
    # in contact: no fight order either
    st = put(st, hid, 24, 18.5)
    assert isinstance(fight_preview(st, 1, hid), str)
    with pytest.raises(IllegalAction, match="CD-MA-08"):
        GAME.apply(st, act.Fight(1, hid))
