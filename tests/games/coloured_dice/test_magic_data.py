"""The magic data (data/magic.toml, CD-MA-01..17, CD-MS-13): every entry designed, broken files refused."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from iwgt.core.errors import DataFileError
from iwgt.games.coloured_dice.magic_data import MAGIC_FILE, load_magic, magic_rules


def _raw() -> dict[str, Any]:
    return tomllib.loads(MAGIC_FILE.read_text(encoding="utf-8"))


def _broken(tmp_path: Path, change: Any) -> DataFileError:
    raw = _raw()
    change(raw)
    path = tmp_path / "magic.toml"
    path.write_text(tomlkit.dumps(raw), encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        load_magic(path)
    return caught.value


def test_cd_ma_01_five_kinds_each_with_entries() -> None:
    """Wizard and moon spells, gods with gifts, bound and released spirits, runes and their combinations."""
    m = magic_rules()
    assert {"fire_dart", "mist_veil", "dread", "swift_feet"} <= {
        k for k, s in m.spells.items() if s.school == "wizard"
    }
    assert {k for k, s in m.spells.items() if s.school == "moon"} == {"red_moon", "moon_gate", "moon_well"}
    assert set(m.gods) == {"ukko", "tapio", "tuoni"}
    for god in m.gods:
        assert 2 <= len(m.gifts_of(god, 10)) <= 3
    assert {k for k, s in m.spirits.items() if s.kind == "bound"} >= {"bear_spirit"}
    assert {k: s.material for k, s in m.spirits.items() if s.kind == "released"} == {
        "wolf_spirit": True,
        "haltija": False,
    }
    assert set(m.runes) == {"rune_iron", "rune_fury", "rune_swift"}
    assert set(m.combos) == {"anvil_rune", "wind_rune"}


def test_cd_ms_13_every_entry_says_why_it_is_designed() -> None:
    """The source gives no spells: every entry carries its designed reason (and a clause)."""
    raw = _raw()
    for table in ("spells", "gods", "gifts", "spirits", "runes", "combos"):
        for key, entry in raw[table].items():
            assert entry.get("designed"), f"{table}.{key} has no designed reason"
    assert raw["constants"]["designed"]


def test_cd_ma_04_10_11_decided_numbers() -> None:
    """x2 for a released bound spirit (CD-MA-04), 6" leash (CD-MA-10), 12" for a shaman's (CD-MA-11): the
    leash is rules.toml's alone (one place), as spirits.leash reads it."""
    from iwgt.games.coloured_dice import spirits
    from iwgt.games.coloured_dice.rules import rules

    assert magic_rules().constants.release_multiplier == 2
    c = rules().constants
    assert (c.spirit_range, c.shaman_spirit_range) == (6.0, 12.0)
    assert (spirits.leash(False), spirits.leash(True)) == (6.0, 12.0)
    assert not hasattr(magic_rules().constants, "spirit_range")


def test_cd_ch_26_gifts_are_gated_by_god_likeness() -> None:
    """Tuoni's gifts are at levels 1, 3 and 6: God-likeness 2 has one, 3 has two, 10 all three."""
    m = magic_rules()
    assert m.gifts_of("tuoni", 0) == []
    assert m.gifts_of("tuoni", 2) == ["grave_chill"]
    assert m.gifts_of("tuoni", 3) == ["grave_chill", "tuoni_ban"]
    assert m.gifts_of("tuoni", 10) == ["grave_chill", "tuoni_ban", "mana_touch"]
    assert m.gifts_of("ukko", 4) == ["thunder_voice", "storm_wind"]


def test_wizard_spell_numbers_as_designed() -> None:
    """fire_dart: 1 Will, 12", four red dice; dread: 2 Will; mist_veil +1 against shots to the next turn."""
    m = magic_rules()
    dart = m.spells["fire_dart"]
    assert (dart.cost, dart.range, dart.effect, dart.dice) == (1, 12.0, "attack", ("red",) * 4)
    assert (m.spells["dread"].cost, m.spells["dread"].effect) == (2, "morale_test")
    veil = m.spells["mist_veil"]
    assert (veil.effect, veil.against, veil.amount, veil.duration) == ("armour", "shot", 1, "next_turn")
    feet = m.spells["swift_feet"]
    assert (feet.effect, feet.amount, feet.duration) == ("move", 2, "this_turn")


def test_a_spell_without_its_dice_is_refused_with_its_key(tmp_path: Path) -> None:
    """An attack without dice: the file is refused naming spells.fire_dart."""
    err = _broken(tmp_path, lambda raw: raw["spells"]["fire_dart"].pop("dice"))
    assert err.key == "spells.fire_dart"
    assert "needs its dice" in err.message


def test_an_attack_on_a_friend_is_refused(tmp_path: Path) -> None:
    """A typo in the target: an attack aims at enemies only."""
    err = _broken(tmp_path, lambda raw: raw["spells"]["fire_dart"].update(target="friend"))
    assert err.key == "spells.fire_dart"
    assert "attack aims at enemy" in err.message


def test_a_gift_of_an_unknown_god_is_refused(tmp_path: Path) -> None:
    """A gift names its god; an unknown one is refused at gifts.<key>.god."""
    err = _broken(tmp_path, lambda raw: raw["gifts"]["thunder_voice"].update(god="ahti"))
    assert err.key == "gifts.thunder_voice.god"


def test_a_misspelt_key_is_refused(tmp_path: Path) -> None:
    """Unknown keys are errors (a typo never silently drops a number)."""
    err = _broken(tmp_path, lambda raw: raw["runes"]["rune_iron"].update(armor_fight=1))
    assert err.key == "runes.rune_iron.armor_fight"


def test_a_combination_of_an_unknown_rune_is_refused(tmp_path: Path) -> None:
    """A combination names runes that exist."""
    err = _broken(tmp_path, lambda raw: raw["combos"]["anvil_rune"].update(runes=["rune_iron", "rune_gold"]))
    assert err.key == "combos.anvil_rune.runes"


def test_a_bound_spirit_that_gives_nothing_is_refused(tmp_path: Path) -> None:
    """A bound spirit gives its bearer something (CD-MA-03)."""
    err = _broken(tmp_path, lambda raw: raw["spirits"]["bear_spirit"].update(armour_fight=0, armour_shot=0))
    assert err.key == "spirits.bear_spirit"
    assert "gives its bearer" in err.message


def test_a_summon_of_a_bound_spirit_is_refused(tmp_path: Path) -> None:
    """The moon gate calls a released spirit; a bound one cannot walk the table."""
    err = _broken(tmp_path, lambda raw: raw["spells"]["moon_gate"].update(spirit="bear_spirit"))
    assert err.key == "spells.moon_gate.spirit"
