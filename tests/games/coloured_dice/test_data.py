"""The data files (data/rules.toml, data/armies.toml): the shipped ones load; a broken copy is refused
naming its dotted key; every entry the source does not give carries ``designed`` (CD-MS-01, 04, 05)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from iwgt.core.errors import DataFileError
from iwgt.games.coloured_dice.rules import ARMIES_FILE, RULES_FILE, load_armies, load_rules, rules

RULES_TEXT = RULES_FILE.read_text(encoding="utf-8")
ARMIES_TEXT = ARMIES_FILE.read_text(encoding="utf-8")

MOVEMENT_CLAUSES = {"CD-TE-02", "CD-TE-03", "CD-TE-04", "CD-TE-05", "CD-TE-07", "CD-TE-09", "CD-TE-10",
                    "CD-TE-13", "CD-TE-14"}  # fmt: skip
"""The terrain clauses that give a movement tax or a barrier: any other entry with one is designed."""


def _broken(tmp_path: Path, text: str, change: Callable[[dict[str, Any]], None], name: str) -> Path:
    """A changed copy of a shipped file written to tmp_path."""
    data = tomllib.loads(text)
    change(data)
    path = tmp_path / name
    path.write_text(tomlkit.dumps(data), encoding="utf-8")
    return path


def rules_refused(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> DataFileError:
    """Load a broken copy of rules.toml; return the error it must raise."""
    path = _broken(tmp_path, RULES_TEXT, change, "rules.toml")
    with pytest.raises(DataFileError) as exc:
        load_rules(path)
    assert exc.value.path == str(path)
    return exc.value


def armies_refused(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> DataFileError:
    """Load a broken copy of armies.toml; return the error it must raise."""
    path = _broken(tmp_path, ARMIES_TEXT, change, "armies.toml")
    with pytest.raises(DataFileError) as exc:
        load_armies(path)
    assert exc.value.path == str(path)
    return exc.value


# ------------------------------------------------------------------ the shipped files


def test_the_shipped_rules_load_with_the_spec_constants() -> None:
    r = rules()
    c = r.constants
    assert r.version == "coloured-dice-1.0"
    assert (c.contact_eps, c.enemy_gap, c.max_range_bands, c.few_models, c.fall_back) == (
        0.05,
        1.0,
        4,
        3,
        3.0,
    )
    assert (c.morale_min, c.morale_max, c.tight_morale_bonus, c.objective_range) == (5, 25, 1, 3.0)
    assert (c.break_fraction, c.general_morale_start, c.shaman_spirit_range, c.rounds) == ((2, 3), 0, 12.0, 6)
    assert (c.reaction_inches_per_die, c.reaction_die, c.actions_per_turn) == (8.0, "yellow", 2)
    assert (c.coherency, c.skirmish_coherency, c.will_default, c.body_default) == (2.0, 4.0, 1, 1)
    assert set(r.kinds) == {"infantry", "cavalry", "monster", "character", "spirit"}
    assert set(r.orders) == {"open", "skirmish", "loose", "tight"}


def test_the_shipped_armies_load() -> None:
    from iwgt.games.coloured_dice.rules import armies

    got = armies()
    assert set(got) == {"kaleva", "pohjola"}
    assert got["kaleva"].name == "the Sons of Kaleva" and got["pohjola"].name == "the Host of Pohjola"


def test_orders_gaps_and_effects_cd_ac_05_to_08() -> None:
    o = rules().orders
    # 1" gap in open order keeps the 2" coherency (CD-AC-05); 3" keeps the skirmishers' 4" (CD-AC-06);
    # formations touch (CD-AC-07).
    assert (o["open"].gap, o["skirmish"].gap, o["loose"].gap, o["tight"].gap) == (1.0, 3.0, 0.0, 0.0)
    assert (
        o["open"].gap < rules().constants.coherency
        and o["skirmish"].gap < rules().constants.skirmish_coherency
    )
    assert (o["loose"].fights_together, o["tight"].fights_together, o["open"].fights_together) == (
        True,
        True,
        False,
    )
    assert (o["tight"].morale_bonus, o["tight"].marching, o["loose"].morale_bonus, o["loose"].marching) == (
        1, False, 0, True,
    )  # fmt: skip


def test_terrain_as_the_text_gives_it_cd_te() -> None:
    t = rules().terrain
    assert (t["stream"].infantry_tax, t["stream"].cavalry_tax) == (1.0, 1.0)  # CD-TE-02
    assert (t["river"].infantry_tax, t["river"].cavalry_tax) == ("d6", "d6")  # CD-TE-03
    assert t["pond"].infantry_tax == "d6" and t["pond"].marching_blocked  # CD-TE-04/05
    assert t["bushes"].infantry_tax == 1.0 and t["bushes"].removable  # CD-TE-06/07
    assert (t["woodland"].infantry_tax, t["woodland"].cavalry_tax, t["woodland"].among_cover) == (
        1.0,
        "d6",
        1,
    )
    tree = t["tree"]  # CD-TE-12: neither disadvantage nor advantage
    assert (tree.infantry_tax, tree.cavalry_tax, tree.among_cover, tree.behind_cover, tree.blocks_los) == (
        0.0, 0.0, 0, 0, False,
    )  # fmt: skip
    forest = t["forest"]  # CD-TE-13..17
    assert (forest.infantry_tax, forest.cavalry_blocked, forest.blocks_los, forest.edge_cover) == (
        "d6",
        True,
        True,
        1,
    )
    assert (t["building"].behind_cover, t["building"].inside_cover, t["building"].roofed) == (
        1,
        2,
        True,
    )  # TE-18/19
    for kind in ("fence", "wall", "stones"):  # CD-TE-18, CD-TE-21
        assert t[kind].behind_cover == 1 and t[kind].inside_cover == 0
    assert t["cave"].inside_cover == 2  # CD-TE-21: caves as roofed structures
    assert t["hill"].hill and not t["stream"].hill  # CD-TE-01
    assert t["rocks"].impassable and t["forest"].blocked("cavalry") and not t["forest"].blocked("infantry")
    assert t["forest"].tax("spirit") == 0.0 and not t["rocks"].blocked(
        "spirit"
    )  # immaterial spirits ignore it


def test_the_general_morale_table_row_by_row_cd_gm_04_to_13() -> None:
    # The table of the translation, §7: (clause, modifier, sign).
    text = {
        "CD-GM-04": ("d6", -1), "CD-GM-05": (-2, -1), "CD-GM-06": (-1, -1), "CD-GM-07": (-1, -1),
        "CD-GM-08": (-1, -1), "CD-GM-09": ("d6", -1), "CD-GM-10": ("d6", 1), "CD-GM-11": (1, 1),
        "CD-GM-12": (1, 1), "CD-GM-13": (1, 1),
    }  # fmt: skip
    rows = {row.clause: (row.modifier, row.sign) for row in rules().general_morale.values()}
    assert rows == text


# ------------------------------------------------------------------ designed marks


def test_every_constant_from_a_missing_part_of_the_source_is_designed_cd_ms() -> None:
    r = rules()
    for name, source in r.constant_sources.items():
        if source.clause.startswith("CD-MS-"):
            assert source.designed, f"constants.{name} ({source.clause}) is not in the source: designed"
    # The spec's decisions (cd-spec section 1) are designed, the text's own numbers are not.
    designed = {n for n, s in r.constant_sources.items() if s.designed}
    assert {"contact_eps", "enemy_gap", "max_range_bands", "few_models", "fall_back", "tight_morale_bonus",
            "general_morale_start", "objective_range", "break_fraction", "shaman_spirit_range", "rounds",
            "reaction_die", "reaction_inches_per_die"} <= designed  # fmt: skip
    text = {"morale_min", "morale_max", "leader_factor", "spirit_range",
              "coherency", "skirmish_coherency", "actions_per_turn", "will_default"}  # fmt: skip
    assert not designed & text


def test_every_terrain_rule_not_in_the_text_is_designed_cd_te() -> None:
    for key, t in rules().terrain.items():
        moves = t.infantry_tax != 0.0 or t.cavalry_tax != 0.0 or t.infantry_blocked or t.cavalry_blocked
        if moves and not set(t.clauses) & MOVEMENT_CLAUSES:
            assert t.designed, f"terrain.{key}: a movement rule the text does not give must be designed"
        if all(c.startswith("CD-MS-") for c in t.clauses) or t.hill:
            assert t.designed, f"terrain.{key} must be designed"


def test_every_designed_table_entry_says_why_in_the_raw_file() -> None:
    """Kinds, orders, equipment, the points formula, armies and profiles are all designed (the source gives
    none of them): each has a non-empty reason, read from the raw files."""
    raw = tomllib.loads(RULES_TEXT)
    for table in ("kinds", "orders", "weapons", "armours", "shields"):
        for key, entry in raw[table].items():
            assert str(entry.get("designed", "")).strip(), f"{table}.{key} has no designed reason"
    assert raw["points"]["designed"].strip()
    for army_key, army in tomllib.loads(ARMIES_TEXT)["armies"].items():
        assert army["designed"].strip()
        for table in ("units", "spirits"):
            for key, entry in army.get(table, {}).items():
                assert str(entry.get("designed", "")).strip(), f"armies.{army_key}.{table}.{key}"


# ------------------------------------------------------------------ broken rules.toml


def test_a_mistyped_constant_is_refused_with_its_key(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"]["fall_back"].update(value="three"))
    assert err.key == "constants.fall_back" and "a number" in err.expected


def test_a_constant_without_its_clause_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"]["fall_back"].pop("clause"))
    assert err.key == "constants.fall_back.clause" and "missing" in err.expected


def test_a_misspelt_key_in_a_constant_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"]["fall_back"].update(desinged="x"))
    assert err.key == "constants.fall_back.desinged" and "unknown key" in err.expected


def test_a_missing_constant_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"].pop("morale_max"))
    assert err.key == "constants.morale_max" and "missing" in err.expected


def test_true_is_not_a_number_strict(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"]["few_models"].update(value=True))
    assert err.key == "constants.few_models" and "whole number" in err.expected


def test_morale_min_above_max_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["constants"]["morale_min"].update(value=30))
    assert err.key == "constants" and "morale_min 30 is above morale_max 25" in err.expected


def test_a_reach_of_three_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["weapons"]["spear"].update(reach=3))
    assert err.key == "weapons.spear.reach"


def test_an_unknown_die_colour_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["weapons"]["axe"].update(melee=["purple"]))
    assert err.key == "weapons.axe.melee.0"


def test_a_weapon_with_no_dice_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["weapons"]["axe"].pop("melee"))
    assert err.key == "weapons.axe" and "melee dice or a missile" in err.expected


def test_a_missing_kind_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["kinds"].pop("cavalry"))
    assert err.key == "kinds.cavalry" and "missing" in err.expected


def test_a_negative_terrain_tax_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["terrain"]["stream"].update(infantry_tax=-1.0))
    assert err.key == "terrain.stream" and "negative" in err.expected


def test_a_misspelt_terrain_key_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["terrain"]["forest"].update(blocks_sight=True))
    assert err.key == "terrain.forest.blocks_sight" and "unknown key" in err.expected


def test_a_general_morale_row_against_its_sign_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["general_morale"]["own_unit_destroyed_25"].update(modifier=2))
    assert err.key == "general_morale.own_unit_destroyed_25" and "sign" in err.expected


def test_a_missing_general_morale_row_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["general_morale"].pop("own_fire"))
    assert err.key == "general_morale" and "CD-GM-08" in err.expected


def test_a_wrong_clause_id_is_refused(tmp_path: Path) -> None:
    err = rules_refused(tmp_path, lambda d: d["general_morale"]["own_fire"].update(clause="GM-08"))
    assert err.key == "general_morale.own_fire.clause"


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(RULES_TEXT.replace("scale = 5.0", "scale = = 5.0"), encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        load_rules(path)
    assert "not valid TOML" in exc.value.message and "line" in exc.value.message


# ------------------------------------------------------------------ broken armies.toml


def _unit(d: dict[str, Any], army: str, key: str) -> dict[str, Any]:
    unit: dict[str, Any] = d["armies"][army]["units"][key]
    return unit


def test_an_unknown_weapon_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(weapons=["axe", "halberd"]))
    assert err.key == "armies.kaleva.units.levy.weapons.1" and "unknown weapon 'halberd'" in err.expected


def test_a_weapon_too_heavy_for_its_strength_is_refused_cd_ch_05(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(weapons=["great_axe"]))
    assert err.key == "armies.kaleva.units.levy.weapons.0" and "CD-CH-05" in err.expected


def test_armour_and_shield_too_heavy_together_are_refused_cd_ch_05(tmp_path: Path) -> None:
    # Mail (Strength 2) and a shield (1) need 3; a levy has 2.
    err = armies_refused(
        tmp_path, lambda d: _unit(d, "kaleva", "levy").update(wears=["mail", "shield"], armour=3)
    )
    assert err.key == "armies.kaleva.units.levy.wears" and "Strength 3" in err.expected


def test_an_armour_value_that_is_not_what_it_wears_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(armour=2))
    assert err.key == "armies.kaleva.units.levy.armour" and "gives 1" in err.expected


def test_a_lance_on_foot_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "hearth_guard").update(weapons=["lance"]))
    assert err.key == "armies.kaleva.units.hearth_guard.weapons.0" and "mounted" in err.expected


def test_us_outside_5_to_10_needs_a_reason_cd_mo_03(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(us=11))
    assert err.key == "armies.kaleva.units.levy.us" and "5-10" in err.expected

    def excepted(d: dict[str, Any]) -> None:
        _unit(d, "kaleva", "levy").update(us=11, us_exception="a designed exception: fanatics")

    path = _broken(tmp_path, ARMIES_TEXT, excepted, "excepted.toml")
    assert load_armies(path)["kaleva"].units["levy"].us == 11


def test_an_individual_of_several_models_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "pohjola", "troll").update(models=3))
    assert err.key == "armies.pohjola.units.troll.models" and "iUs" in err.expected


def test_a_character_with_us_is_refused_cd_mo_01(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "pohjola", "noita").update(us_kind="Us"))
    assert err.key == "armies.pohjola.units.noita.us_kind"


def test_body_zero_is_refused_cd_ch_06(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "pohjola", "troll").update(body=0))
    assert err.key == "armies.pohjola.units.troll.body"


def test_a_shooting_skill_without_a_missile_weapon_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(shooting=1))
    assert err.key == "armies.kaleva.units.levy.shooting"


def test_a_god_without_god_likeness_is_refused_cd_ch_27(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "ukko_priest").update(god_like=0))
    assert err.key == "armies.kaleva.units.ukko_priest.god"


def test_god_likeness_above_ten_is_refused_cd_ch_26(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "ukko_priest").update(god_like=11))
    assert err.key == "armies.kaleva.units.ukko_priest.god_like"


def test_a_leader_bonus_without_a_leader_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(leader_bonus=2))
    assert err.key == "armies.kaleva.units.levy.leader_bonus"


def test_two_generals_are_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "vainamoinen").update(abilities=["general"]))
    assert err.key == "armies.kaleva.units" and "general" in err.expected


def test_an_unknown_ability_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").update(abilities=["formaton"]))
    assert err.key == "armies.kaleva.units.levy.abilities.0"


def test_a_bear_wound_of_an_unknown_colour_is_refused(tmp_path: Path) -> None:
    err = armies_refused(
        tmp_path,
        lambda d: _unit(d, "kaleva", "lemminkainen").update(bear_wound={"dice": 2, "colour": "pink"}),
    )
    assert err.key == "armies.kaleva.units.lemminkainen.bear_wound.colour"


def test_an_army_of_seven_unit_types_is_refused(tmp_path: Path) -> None:
    def shrink(d: dict[str, Any]) -> None:
        units = d["armies"]["pohjola"]["units"]
        for key in ("thralls", "hunters", "noita", "tuoni_priest", "louhi"):
            units.pop(key)

    err = armies_refused(tmp_path, shrink)
    assert err.key == "armies.pohjola.units" and "8 to 12" in err.expected


def test_a_profile_without_its_reason_is_refused(tmp_path: Path) -> None:
    err = armies_refused(tmp_path, lambda d: _unit(d, "kaleva", "levy").pop("designed"))
    assert err.key == "armies.kaleva.units.levy.designed" and "missing" in err.expected
