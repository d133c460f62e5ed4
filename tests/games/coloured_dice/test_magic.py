"""Casting (CD-MA-14..17, CD-CH-21..27): Will spent and a caster at 0 gone, resisting with Will, god gifts by
God-likeness, spell bonuses and their durations. The armies are the shipped ones (kaleva seat 0, pohjola 1);
every number a test expects is worked out from data/magic.toml in its docstring."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import ChanceOutcome
from iwgt.games.coloured_dice import magic, resolve
from iwgt.games.coloured_dice.actions import Cast, Release, Resist
from iwgt.games.coloured_dice.formation import after_losses
from iwgt.games.coloured_dice.pending import MoraleRoll, PoolRoll, ResistAsk
from iwgt.games.coloured_dice.rules import Profile, profile
from iwgt.games.coloured_dice.state import CdState

from .kit import GAME, battle, square, unit

# Seat 0 (Kaleva): 0 Väinämöinen (wizard, Will 6), 1 Tietäjä (shaman, Tapio 2), 2 levy, 3 priest of Ukko (5).
# Seat 1 (Pohjola): 4 thralls, 5 Louhi (moon-mage, Will 7, Tuoni 3), 6 priest of Tuoni (6).
VAINO, TIETAJA, LEVY, UKKO_PRIEST, THRALLS, LOUHI, TUONI_PRIEST = range(7)


def _state() -> CdState:
    return battle(
        [
            unit(0, "vainamoinen", 20, 6),
            unit(0, "tietaja", 26, 6),
            unit(0, "levy", 24, 10, files=5),
            unit(0, "ukko_priest", 30, 6),
            unit(1, "thralls", 24, 18, files=6),
            unit(1, "louhi", 12, 15),
            unit(1, "tuoni_priest", 30, 14),
        ]
    )


def _casts(state: CdState, uid: int, spell: str) -> set[int | None]:
    return {c.target for c in magic.castable(state, uid) if c.spell == spell}


def _pending(state: CdState) -> object:
    return state.pending[-1] if state.pending else None


def test_cd_ch_23_a_spell_spends_its_will_and_attacks_like_a_shot() -> None:
    """Fire dart (1 Will, 12", four red dice) from Väinämöinen (Will 6) at the thralls 10" away (tray gap;
    no printed-Will character within 6" of them to resist): Will 6 -> 5, a spell attack of four red dice
    against armour 1 (thralls' leather; no cover, no hill, no skill, no band)."""
    s = _state()
    assert THRALLS in _casts(s, VAINO, "fire_dart")
    s2, _ = magic.begin_cast(s, Cast(VAINO, "fire_dart", THRALLS))
    assert s2.unit(VAINO).will == 5
    top = _pending(s2)
    assert isinstance(top, PoolRoll)
    assert (top.attack.kind, top.attack.dice, top.attack.armour) == ("spell", ("red",) * 4, 1)
    assert top.attack.spell == "fire_dart"


def test_a_fire_dart_resolves_like_a_shot() -> None:
    """Four red dice showing 3, 3, 2, 1 (faces 3, 3, 2, 1 of red: 1,2,3,miss,miss,miss) = 9 points against
    armour 1: floor(9 / 2) = 4 wounds, the thralls 12 -> 8; then they test morale (a spell's losses)."""
    s, _ = magic.begin_cast(_state(), Cast(VAINO, "fire_dart", THRALLS))
    for face in (3, 3, 2, 1):
        s, _ = resolve.advance(s, ChanceOutcome(face))
    assert s.unit(THRALLS).models == 8
    top = _pending(s)
    assert isinstance(top, MoraleRoll)
    assert (top.unit, top.reason) == (THRALLS, "spell")


def test_cd_ch_24_a_caster_at_will_0_leaves_the_game_after_the_spell() -> None:
    """CD-CH-24: Väinämöinen with Will 1 casts fire dart (1 Will): Will 0 at once, but he stays on the table
    while his dart flies (its 4 red dice rolled, the wounds and the thralls' test) and leaves only then."""
    s = _state()
    s = s.with_unit(replace(s.unit(VAINO), will=1))
    s2, _ = magic.begin_cast(s, Cast(VAINO, "fire_dart", THRALLS))
    assert s2.unit(VAINO).will == 0
    assert s2.unit(VAINO).on_table
    assert any(isinstance(p, PoolRoll) for p in s2.pending)
    names: list[str] = []
    while s2.pending and isinstance(s2.top, PoolRoll | MoraleRoll):
        s2, events = GAME.apply(s2, ChanceOutcome(2))
        names += [type(e).__name__ for e in events]
    assert not s2.unit(VAINO).on_table
    assert names.index("PoolRolled") < names.index("MoraleTested") < names.index("UnitDestroyed")


def test_cd_ch_23_a_spell_dearer_than_the_will_left_is_not_offered() -> None:
    """Dread costs 2 Will: Louhi with Will 1 may not cast it (but may cast what her god gives)."""
    s = replace(_state(), seat=1)
    s = s.with_unit(replace(s.unit(LOUHI), will=1))
    assert not _casts(s, LOUHI, "dread")
    assert _casts(s, LOUHI, "grave_chill")
    with pytest.raises(IllegalAction, match="costs 2 Will"):
        magic.begin_cast(s, Cast(LOUHI, "dread", VAINO))


def test_cd_ch_25_a_printed_will_target_may_resist_by_spending_the_cost() -> None:
    """Louhi (Will 7) casts dread (2 Will) at Väinämöinen (printed Will 6): she pays 2 (7 -> 5), seat 0 is
    asked; spending cancels the spell and costs him 2 (6 -> 4); no morale test follows."""
    s = replace(_state(), seat=1)
    cast = Cast(LOUHI, "dread", VAINO)
    assert magic.resistible(s, cast) == (0, VAINO)
    s2, _ = magic.begin_cast(s, cast)
    assert s2.unit(LOUHI).will == 5
    top = _pending(s2)
    assert isinstance(top, ResistAsk)
    assert (top.seat, top.unit, top.cost) == (0, VAINO, 2)
    s3, events = resolve.advance(s2, Resist(True))
    assert s3.unit(VAINO).will == 4
    assert not s3.pending
    assert [e.unit for e in events if isinstance(e, magic.SpellResisted)] == [VAINO]


def test_cd_ch_25_not_resisting_lets_the_spell_work() -> None:
    """The same dread, not resisted: Väinämöinen keeps Will 6 and tests morale (a forced test)."""
    s = replace(_state(), seat=1)
    s2, _ = magic.begin_cast(s, Cast(LOUHI, "dread", VAINO))
    s3, _ = resolve.advance(s2, Resist(False))
    assert s3.unit(VAINO).will == 6
    top = _pending(s3)
    assert isinstance(top, MoraleRoll)
    assert (top.unit, top.reason, top.adjust) == (VAINO, "forced", 0)


def test_cd_ch_25_a_character_within_6_inches_resists_for_a_unit() -> None:
    """Dread at the levy (no Will printed): Väinämöinen, 6" or nearer to the levy, may resist for it; moved
    far away, nobody may."""
    s = replace(_state(), seat=1)
    assert magic.resistible(s, Cast(LOUHI, "dread", LEVY)) == (0, VAINO)
    far = s.with_unit(replace(s.unit(VAINO), tray=s.unit(VAINO).tray.moved((2.0, 2.0))))
    assert magic.resistible(far, Cast(LOUHI, "dread", LEVY)) is None


def test_cd_ch_25_god_gifts_are_not_resisted() -> None:
    """Grave chill (Tuoni 1) at Väinämöinen: no Will to resist it; a forced test with +1 on the dice."""
    s = replace(_state(), seat=1)
    cast = Cast(TUONI_PRIEST, "grave_chill", VAINO)
    assert magic.resistible(s, cast) is None
    s2, _ = magic.begin_cast(s, cast)
    top = _pending(s2)
    assert isinstance(top, MoraleRoll)
    assert (top.unit, top.reason, top.adjust) == (VAINO, "forced", 1)
    assert s2.unit(TUONI_PRIEST).will is None  # a gift costs no Will


def test_cd_ch_26_gifts_are_gated_by_god_likeness() -> None:
    """The Tietäjä (Tapio, God-like 2) has bark skin (1) and forest paths (2), not Tapio's balm (4); the
    priest of Ukko (5) has all three of Ukko's gifts, the priest of Tuoni (6) all three of Tuoni's."""
    s = _state()
    assert {c.spell for c in magic.castable(s, TIETAJA)} == {"bark_skin", "forest_paths"}
    assert {c.spell for c in magic.castable(s, UKKO_PRIEST)} == {"thunder_voice", "storm_wind", "ukko_hammer"}
    with pytest.raises(IllegalAction, match=r"^Tapio.s balm is not among the powers of .* \(CD-MA\)$"):
        magic.begin_cast(s, Cast(TIETAJA, "tapio_balm", LEVY))
    s1 = replace(s, seat=1)
    assert {c.spell for c in magic.castable(s1, TUONI_PRIEST)} == {
        "grave_chill",
        "tuoni_ban",
        "mana_touch",
    } - {
        "tuoni_ban"  # no immaterial spirit of Kaleva's on the table to banish
    }


def test_cd_ma_15_one_cast_a_turn_a_cast_is_the_attack() -> None:
    """A unit that has attacked this turn casts nothing more (a priest's gift once a turn)."""
    s = _state()
    s = s.with_unit(replace(s.unit(UKKO_PRIEST), attacked=True))
    assert magic.castable(s, UKKO_PRIEST) == []


def test_mist_veil_armour_against_shooting_until_the_casters_next_turn() -> None:
    """Mist veil on the levy: +1 armour against shots (not in a fight) through Pohjola's turn, gone when
    Kaleva's round-2 turn begins."""
    s = _state()
    assert LEVY in _casts(s, VAINO, "mist_veil")
    before = magic.armour_bonus(s, s.unit(LEVY), "shot")
    s2, _ = magic.begin_cast(s, Cast(VAINO, "mist_veil", LEVY))
    levy = s2.unit(LEVY)
    assert magic.armour_bonus(s2, levy, "shot") == before + 1
    assert magic.armour_bonus(s2, levy, "fight") == magic.armour_bonus(s, s.unit(LEVY), "fight")
    assert magic.armour_bonus(replace(s2, seat=1), levy, "shot") == before + 1
    assert magic.armour_bonus(replace(s2, seat=0, round=2), levy, "shot") == before


def test_a_spell_does_not_stack_with_itself() -> None:
    """A unit already under mist veil is not offered it again."""
    s = _state()
    s2, _ = magic.begin_cast(s, Cast(VAINO, "mist_veil", LEVY))
    assert LEVY not in _casts(s2, VAINO, "mist_veil")


def test_swift_feet_two_inches_this_turn_only() -> None:
    """Swift feet: +2" on each move of the levy this turn; gone when Pohjola's turn begins."""
    s = _state()
    before = magic.move_bonus(s, s.unit(LEVY))
    s2, _ = magic.begin_cast(s, Cast(VAINO, "swift_feet", LEVY))
    assert magic.move_bonus(s2, s2.unit(LEVY)) == before + 2
    assert magic.move_bonus(replace(s2, seat=1), s2.unit(LEVY)) == before


def test_spell_out_of_range_is_refused_with_the_distance() -> None:
    """Fire dart reaches 12": the thralls moved to 30" away are no target, and the refusal says how far."""
    s = _state()
    th = s.unit(THRALLS)
    s = s.with_unit(replace(th, tray=th.tray.moved((24.0, 34.0))))
    assert THRALLS not in _casts(s, VAINO, "fire_dart")
    with pytest.raises(IllegalAction, match='the range is 12"'):
        magic.begin_cast(s, Cast(VAINO, "fire_dart", THRALLS))


def _with(monkeypatch: pytest.MonkeyPatch, changes: dict[tuple[str, str], dict[str, object]]) -> None:
    """magic reads changed profiles for some unit types (the shipped armies have no such character)."""

    def lookup(a: str, k: str) -> Profile:
        p = profile(a, k)
        return p.model_copy(update=changes[(a, k)]) if (a, k) in changes else p

    monkeypatch.setattr(magic, "profile", lookup)


def test_tapio_balm_heals_wounds_then_returns_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tapio's balm (level 4, 2 points) on a levy that lost 3 models: 2 come back (the start is not passed),
    the front edge where it was."""
    _with(monkeypatch, {("kaleva", "tietaja"): {"god_like": 4}})
    s = _state()
    levy = s.unit(LEVY)
    tray, files = after_losses(levy.tray, levy.models, levy.models - 3, levy.files)
    s = s.with_unit(replace(levy, models=levy.models - 3, tray=tray, files=files))
    assert LEVY in _casts(s, TIETAJA, "tapio_balm")
    s2, events = magic.begin_cast(s, Cast(TIETAJA, "tapio_balm", LEVY))
    healed = s2.unit(LEVY)
    assert healed.models == levy.models - 1
    assert healed.tray.front_centre() == pytest.approx(levy.tray.front_centre())
    assert [(e.wounds, e.models) for e in events if isinstance(e, magic.UnitHealed)] == [(0, 2)]


def test_heal_is_not_offered_to_a_whole_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit at its start with no wounds has nothing to heal."""
    _with(monkeypatch, {("kaleva", "tietaja"): {"god_like": 4}})
    assert LEVY not in _casts(_state(), TIETAJA, "tapio_balm")


def test_moon_well_restores_will_never_above_the_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moon well (1 Will, +2 Will to another character), given to Väinämöinen (Will 6): the Tietäjä given a
    printed Will 5 and now at 4 goes to 5 (not 6: never above the printed), Väinämöinen to 5."""
    _with(
        monkeypatch,
        {("kaleva", "vainamoinen"): {"spells": ("moon_well",)}, ("kaleva", "tietaja"): {"will": 5}},
    )
    s = _state()
    s = s.with_unit(replace(s.unit(TIETAJA), will=5))
    assert _casts(s, VAINO, "moon_well") == set()  # the Tietäjä is at his printed Will: nothing to restore
    s = s.with_unit(replace(s.unit(TIETAJA), will=4))
    assert _casts(s, VAINO, "moon_well") == {TIETAJA}  # never himself
    s2, _ = magic.begin_cast(s, Cast(VAINO, "moon_well", TIETAJA))
    assert (s2.unit(TIETAJA).will, s2.unit(VAINO).will) == (5, 5)


def test_casting_through_the_game_counts_the_action_and_the_attack() -> None:
    """The core offers the cast among the legal actions; applying it spends an action and the turn's attack,
    and Väinämöinen's Will (6 -> 5); the dart's four dice are then to be rolled."""
    s = _state()
    cast = Cast(VAINO, "fire_dart", THRALLS)
    assert cast in GAME.legal_actions(s, 0)
    s2, _ = GAME.apply(s, cast)
    v = s2.unit(VAINO)
    assert (v.will, v.attacked, v.actions_left) == (5, True, s.unit(VAINO).actions_left - 1)
    assert isinstance(_pending(s2), PoolRoll)


def test_releasing_through_the_game() -> None:
    """The core offers the release of the Tietäjä's bear spirit and applies it (one action, not an attack)."""
    s = _state()
    rel = Release(TIETAJA, "bear_spirit")
    assert rel in GAME.legal_actions(s, 0)
    s2, _ = GAME.apply(s, rel)
    t = s2.unit(TIETAJA)
    assert "bear_spirit" not in t.spirits and not t.attacked
    assert magic.armour_bonus(s2, t, "fight") == 2


def test_a_spell_attack_preview_has_the_exact_odds() -> None:
    """Fire dart at the thralls (armour 1): no casualty needs fewer than 2 points: all four red dice miss
    (1/2)^4 = 1/16, or one shows 1 and three miss 4 x 1/6 x 1/8 = 1/12: P(0) = 7/48."""
    p = magic.spell_preview(_state(), Cast(VAINO, "fire_dart", THRALLS))
    assert p is not None
    assert (p.kind, p.spell, p.dice, p.armour) == ("spell", "fire_dart", {"red": 4}, 1)
    assert p.casualties[0] == pytest.approx(7 / 48, abs=1e-12)
    assert magic.spell_preview(_state(), Cast(VAINO, "mist_veil", LEVY)) is None
    assert {(q.unit, q.target, q.spell) for q in magic.spell_previews(_state(), 0)} >= {
        (VAINO, THRALLS, "fire_dart")
    }


def test_an_enemy_out_of_sight_is_no_target_a_friend_needs_no_sight() -> None:
    """A forest band between Väinämöinen and the thralls hides them (CD-TE-15..17): no fire dart; the
    levy beyond the same trees may still be veiled (helping a friend needs no sight)."""
    s = battle(
        [
            unit(0, "vainamoinen", 20, 5),
            unit(0, "levy", 24, 14, files=5),
            unit(1, "thralls", 24, 18, files=6),
        ],
        features=[square("forest", 0, 7, 48, 11)],
    )
    assert 2 not in _casts(s, 0, "fire_dart")
    assert 1 in _casts(s, 0, "mist_veil")
    open_ground = replace(s, features=())
    assert 2 in _casts(open_ground, 0, "fire_dart")  # 11" away: the trees were the only reason


def test_restore_gives_bear_wound_dice_back_never_above_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    """A restore of bear-wound dice (moon well changed to ``what = "bear"``, 2 dice) on Lemminkäinen (2 red
    per battle) who has used both: 0 -> 2; with one left, 1 -> 2 (not 3); with both left, not offered."""
    book = magic.magic_rules()
    well = book.spells["moon_well"].model_copy(update={"what": "bear"})
    changed = book.model_copy(update={"spells": {**book.spells, "moon_well": well}})
    monkeypatch.setattr(magic, "magic_rules", lambda: changed)
    _with(monkeypatch, {("kaleva", "vainamoinen"): {"spells": ("moon_well",)}})
    s = battle([unit(0, "vainamoinen", 20, 6), unit(0, "lemminkainen", 26, 6), unit(1, "thralls", 24, 30)])
    hero = s.unit(1)
    bear = profile("kaleva", "lemminkainen").bear_wound
    assert bear is not None and bear.dice == 2
    assert _casts(s, 0, "moon_well") == set()  # both dice left
    for left, after in ((0, 2), (1, 2)):
        st = s.with_unit(replace(hero, bear_left=left))
        assert _casts(st, 0, "moon_well") == {1}
        st2, _ = magic.begin_cast(st, Cast(0, "moon_well", 1))
        assert st2.unit(1).bear_left == after


def test_cast_at_any_free_place_and_refusals_give_the_reason_cd_ma_17() -> None:
    """CD-MA-17 / CD-MA-06: a summoning may be ordered at ANY free place within 3" of the mage, not only the
    one ``castable`` offers; a refused cast names the rule's reason (range, place), never a bare "so now".
    Louhi (24, 30), Moon gate range 3": (24, 32.5) is free and 2.5" off her tray's edge-free centre."""
    st = battle([unit(0, "levy", 24, 5), unit(1, "louhi", 24, 30), unit(1, "thralls", 10, 30)], first=1)
    offered = [a for a in GAME.legal_actions(st, 1) if isinstance(a, Cast) and a.spell == "moon_gate"]
    other = Cast(1, "moon_gate", None, (24.0, 32.5))
    assert other not in offered
    _, events = GAME.apply(st, other)
    assert any(type(e).__name__ == "SpiritCalled" for e in events)
    with pytest.raises(IllegalAction, match='free place within 3"'):
        GAME.apply(st, Cast(1, "moon_gate", None, (24.0, 40.0)))
    # the levy's tray is 22.5" from Louhi's, Red moon reaches 18"
    refusal = r'^Red moon cannot aim at that unit now: out of range: 22\.5" to Kaleva levy, the range is 18"$'
    with pytest.raises(IllegalAction, match=refusal):
        GAME.apply(st, Cast(1, "red_moon", 0, None))
