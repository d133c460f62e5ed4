"""The rules file (data/rules.toml): the shipped one loads; a broken one is refused naming its key."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from iwgt.core.datafiles import validate
from iwgt.core.errors import DataFileError
from iwgt.games.anvil.rules import RULES_FILE, AnvilRules, load_rules, rules

SHIPPED: dict[str, Any] = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))


def refused(change: Any) -> DataFileError:
    """Validate a changed copy of the shipped data; return the error it must raise."""
    data = copy.deepcopy(SHIPPED)
    change(data)
    with pytest.raises(DataFileError) as exc:
        validate(AnvilRules, data, "rules.toml")
    return exc.value


def test_the_shipped_rules_load() -> None:
    r = rules()
    assert r.version == "anvil-1.0"
    assert len(r.matrix) == 6 and all(len(row) == 6 for row in r.matrix.values())
    # 3 interruption, 2 combat, 2 shooter, 2 heroic, 8 deployment, 5 spells/naturals, 4 movement.
    counts = {g: len(r.group(g)) for g in ("interruption", "combat", "shooter", "heroic", "deployment")}
    assert counts == {"interruption": 3, "combat": 2, "shooter": 2, "heroic": 2, "deployment": 8}
    assert (len(r.group("spell")), len(r.group("movement"))) == (5, 4)
    # FA-SD-12/15/17: Heavy Projectile, Tough and Infiltrate, priced "CP" in the text, are read as DCP.
    assert all(r.stratagem(k).currency == "DCP" for k in ("heavy_projectile", "tough", "infiltrate"))
    assert (r.stratagem("weak").cost, r.stratagem("infiltrate").cost) == (-1, 3)
    c = r.constants
    assert (c.bounce_back, c.turn_cp, c.terrain_bid, c.extra_for(4), c.extra_for(5), c.extra_for(3)) == (
        3.0, 10, 5, 1, 2, 0,
    )  # fmt: skip
    assert (c.ballistics_rear, c.ballistics_flank, c.ballistics_front) == (6.0, 12.0, 18.0)
    assert [c.infiltrate_gap(t) for t in (1, 2, 3, 7)] == [6.0, 9.0, 12.0, 12.0]
    assert c.flanking_fraction == pytest.approx(2 / 3)


def test_who_may_use_a_stratagem_fa_st_02() -> None:
    r = rules()
    # Hero of the Day: "Hero, General": a Hero, or the General's unit of any type (FA-SI-09).
    assert r.stratagem("hero_of_the_day").usable_by("hero")
    assert r.stratagem("hero_of_the_day").usable_by("knight", general=True)
    assert not r.stratagem("hero_of_the_day").usable_by("knight")
    # Summon Subjects: a Wizard that is the General (FA-SN-10).
    assert r.stratagem("summon_subjects").usable_by("wizard", general=True)
    assert not r.stratagem("summon_subjects").usable_by("wizard")
    # Parthian Shot: a Troop with Shooter (FA-SS-07); nothing for the Seat (FA-GN-08).
    assert r.stratagem("parthian_shot").usable_by("troop", shooter=True)
    assert not r.stratagem("parthian_shot").usable_by("troop")
    assert not r.stratagem("march").usable_by("seat")


def test_a_cell_that_differs_from_its_printed_text_is_refused() -> None:
    err = refused(lambda d: d["matrix"]["hero"]["troop"].update(front=4))
    assert err.key == "matrix.hero.troop" and "front is 4 but the printed cell says 3" in err.expected


def test_a_bounce_that_differs_from_its_printed_text_is_refused() -> None:
    err = refused(lambda d: d["matrix"]["wizard"]["hero"].update(bounce="defender"))
    assert err.key == "matrix.wizard.hero" and "Attacker BB" in err.expected


def test_a_missing_cell_is_refused() -> None:
    err = refused(lambda d: d["matrix"]["troop"].pop("troop"))
    assert err.key == "matrix.troop.troop" and "36 cells" in err.expected


def test_a_wrong_clause_id_is_refused() -> None:
    err = refused(lambda d: d["matrix"]["hero"]["hero"].update(clause="FA-CRM-HERO-WIZARD"))
    assert err.key == "matrix.hero.hero.clause" and "FA-CRM-HERO-HERO" in err.expected


def test_a_profile_without_hp_is_refused() -> None:
    err = refused(lambda d: d["units"]["knight"].update(hp=0))
    assert err.key == "units.knight.hp"


def test_a_misspelt_key_is_refused() -> None:
    err = refused(lambda d: d["units"]["hero"].update(hpp=4))
    assert err.key == "units.hero.hpp" and "unknown key" in err.expected


def test_a_deployment_stratagem_priced_in_cp_is_refused() -> None:
    err = refused(lambda d: d["stratagems"]["tough"].update(currency="CP"))
    assert err.key == "stratagems.tough" and "deployment" in err.expected


def test_an_availability_with_both_percent_and_count_is_refused() -> None:
    err = refused(lambda d: d["deployment"]["hero"].update(count=1))
    assert err.key == "deployment.hero" and "exactly one of percent and count" in err.expected


def test_a_missing_unit_type_is_refused() -> None:
    err = refused(lambda d: d["units"].pop("seat"))
    assert err.key == "units.seat"


def test_ballistics_bands_out_of_order_are_refused() -> None:
    err = refused(lambda d: d["constants"].update(ballistics_flank=20.0))
    assert err.key == "constants" and "ballistics_rear < ballistics_flank" in err.expected


def test_a_broken_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    text = RULES_FILE.read_text(encoding="utf-8").replace("move = 4.0\nhp = 8", 'move = 4.0\nhp = "eight"', 1)
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        load_rules(path)
    assert exc.value.path == str(path) and exc.value.key == "units.knight.hp"
    assert "a whole number" in exc.value.expected


def test_a_file_that_is_not_toml_says_where(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("[units\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="line 1"):
        load_rules(path)
