"""The eight coloured dice (data/dice.toml, CD-DI-01..13) and a pool's arithmetic: points, kills, wounds
against armour (CD-FI-05..07), range bands (CD-RA-01..06) and the armour of a shot (CD-SH-04..08). Every
expectation is the text's own number or worked by hand from it."""

from __future__ import annotations

import copy
import math
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iwgt.core.chance import Die
from iwgt.core.datafiles import validate
from iwgt.core.errors import DataFileError
from iwgt.games.coloured_dice.dice import (
    COLOURS,
    DICE_FILE,
    DiceFile,
    Rolled,
    dice_file,
    die,
    face_value,
    faces,
    parse_pool,
    pool_list,
    pool_text,
    range_band,
    shot_armour,
    spec,
    total,
    wounds,
)

SHIPPED: dict[str, Any] = tomllib.loads(DICE_FILE.read_text(encoding="utf-8"))

# The faces as the English translation lists them (Part I section 1, Part II table A), one clause each.
TEXT = {
    "white": ("CD-DI-04", (1, 1, 2, "miss", "miss", "miss")),
    "blue": ("CD-DI-05", (1, 1, 1, 2, "miss", "miss")),
    "green": ("CD-DI-06", (0, 0, 0, 1, 2, "kill")),
    "black": ("CD-DI-07", (0, 0, 1, 1, 2, "kill")),
    "red": ("CD-DI-08", (1, 2, 3, "miss", "miss", "miss")),
    "violet": ("CD-DI-09", (1, 2, 2, 3, "miss", "miss")),
    "yellow": ("CD-DI-10", (1, 2, "miss", "miss", "miss", "miss")),
    "orange": ("CD-DI-11", (1, 1, 2, 2, 3, "miss")),
}


@pytest.mark.parametrize("colour", list(TEXT))
def test_cd_di_04_to_11_each_die_has_the_texts_six_faces(colour: str) -> None:
    clause, printed = TEXT[colour]
    assert faces(colour) == printed
    assert spec(colour).clause == clause
    assert [face_value(colour, n) for n in range(1, 7)] == list(printed)


def test_cd_di_01_02_eight_six_sided_dice_in_the_texts_order() -> None:
    assert COLOURS == tuple(TEXT) == tuple(dice_file().dice)
    assert all(len(faces(c)) == 6 for c in COLOURS)


def test_cd_di_12_13_miss_and_kill_decisions_are_in_the_data() -> None:
    data = dice_file()
    assert (data.miss.clause, data.miss.points, data.miss.wounds) == ("CD-DI-12", 0, 0)
    assert (data.kill.clause, data.kill.points, data.kill.wounds, data.kill.designed) == (
        "CD-DI-13",
        0,
        1,
        True,
    )
    # Only green and black carry a kill; their 0 faces are real numbers, not misses.
    assert [c for c in COLOURS if "kill" in faces(c)] == ["green", "black"]
    assert "miss" not in faces("green") and "miss" not in faces("black")


def test_a_die_is_a_labelled_chance_node() -> None:
    d = die("black", "the volley")
    assert d == Die(6, "the volley", faces=("0", "0", "1", "1", "2", "kill"), colour="black")
    assert d.hint() == "roll a black die"


@pytest.mark.parametrize("index", [0, 7, -1])
def test_face_numbers_run_1_to_6(index: int) -> None:
    with pytest.raises(ValueError, match="faces 1 to 6"):
        face_value("white", index)


def test_unknown_colour_is_refused_naming_the_dice() -> None:
    with pytest.raises(ValueError, match="unknown colour 'pink': the dice are white, blue, green"):
        faces("pink")


# --- the data file is validated, a broken one refused naming its key ---------------------------------------


def refused(change: Any) -> DataFileError:
    data = copy.deepcopy(SHIPPED)
    change(data)
    with pytest.raises(DataFileError) as exc:
        validate(DiceFile, data, "dice.toml")
    return exc.value


def test_the_shipped_file_validates() -> None:
    assert validate(DiceFile, SHIPPED, "dice.toml") == dice_file()


def test_a_seventh_face_is_refused() -> None:
    err = refused(lambda d: d["dice"]["white"]["faces"].append(1))
    assert err.key == "dice.white.faces" and "6 faces" in str(err)


def test_a_misspelt_face_is_refused() -> None:
    err = refused(lambda d: d["dice"]["blue"]["faces"].__setitem__(4, "mis"))
    assert err.key == "dice.blue.faces" and "face 5 is 'mis'" in str(err)


def test_a_negative_or_true_face_is_refused() -> None:
    assert refused(lambda d: d["dice"]["red"]["faces"].__setitem__(0, -1)).key == "dice.red.faces"
    assert refused(lambda d: d["dice"]["red"]["faces"].__setitem__(0, True)).key == "dice.red.faces"


def test_a_missing_or_unknown_die_is_refused() -> None:
    assert refused(lambda d: d["dice"].pop("orange")).key == "dice.orange"
    err = refused(lambda d: d["dice"].__setitem__("pink", copy.deepcopy(d["dice"]["white"])))
    assert err.key == "dice.pink" and "not a die of the text" in str(err)


def test_an_unknown_key_and_a_bad_clause_are_refused() -> None:
    assert refused(lambda d: d["dice"]["white"].__setitem__("facez", [])).key == "dice.white.facez"
    assert refused(lambda d: d["kill"].__setitem__("clause", "DI-13")).key == "kill.clause"
    assert refused(lambda d: d["kill"].pop("wounds")).key == "kill.wounds"


# --- pools ------------------------------------------------------------------------------------------------


def test_parse_pool_reads_counts_and_colours_in_pool_order() -> None:
    assert parse_pool("10white,5black") == {"white": 10, "black": 5}
    assert list(parse_pool("5black, 10 White")) == ["white", "black"]  # pool order, any case, spaces
    assert parse_pool("2xred,red;3orange") == {"red": 3, "orange": 3}  # a bare colour is one die; adds up


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "3pink",
            "unknown colour 'pink' in '3pink': the dice are white, blue, green, black, red, violet, yellow, "
            "orange",
        ),
        ("", "no dice"),
        ("10white,", "an empty part"),
        ("white10", "'white10' is not a count and a colour"),
        ("0white", "at least one die"),
        ("1001white", "at most 1000"),
    ],
)
def test_parse_pool_refuses_clearly(text: str, message: str) -> None:
    with pytest.raises(ValueError) as exc:
        parse_pool(text)
    assert message in str(exc.value)


def test_pool_list_is_one_colour_per_die_in_pool_order() -> None:
    assert pool_list({"black": 2, "white": 1, "red": 0}) == ("white", "black", "black")
    assert pool_text({"black": 2, "white": 1}) == "1 white, 2 black"
    with pytest.raises(ValueError):
        pool_list({"white": -1})


def test_total_counts_numbers_kills_and_misses() -> None:
    # white 3 = 2, white 4 = miss, green 6 = kill, green 1 = 0 (a number), black 5 = 2.
    rolled = total(("white", "white", "green", "green", "black"), (3, 4, 6, 1, 5))
    assert rolled == Rolled(points=4, kills=1, numbers=3)
    with pytest.raises(ValueError):
        total(("white",), (1, 2))


# --- the text's worked examples ---------------------------------------------------------------------------


def test_cd_fi_07_ten_white_dice_rolling_7_against_armour_1_remove_3() -> None:
    # Ten white dice: 2, 2, 1, 1, 1 and five misses = 7 points; armour 1 costs 2 points a model.
    rolled = total(("white",) * 10, (3, 3, 1, 2, 1, 4, 5, 6, 4, 5))
    assert rolled.points == 7
    assert wounds(rolled.points, rolled.kills, 1) == 3


def test_cd_fi_06_each_casualty_costs_armour_plus_one() -> None:
    assert [wounds(6, 0, a) for a in range(4)] == [6, 3, 2, 1]
    assert wounds(1, 0, 1) == 0  # the left-over point is lost
    with pytest.raises(ValueError):
        wounds(3, 0, -1)


def test_cd_di_13_a_kill_is_a_wound_whatever_the_armour() -> None:
    assert wounds(0, 2, 9) == 2
    assert wounds(5, 1, 4) == 2


def test_cd_ra_03_to_05_sixteen_javelins_at_23_inches() -> None:
    band = range_band(23, 8)
    assert band == 2  # 8+8+8 = 24 covers 23": +0+1+1
    armour = shot_armour(1, skill=0, band=band, cover=0)  # javelin men: excellent (skill 0), CD-RA-04
    assert armour == 3
    assert wounds(11, 0, armour) == 2  # 16 blue dice rolling 11: 2 casualties, 3 points lost


def test_cd_ra_06_at_25_inches_armour_4_still_two() -> None:
    band = range_band(25, 8)
    assert band == 3
    armour = shot_armour(1, skill=0, band=band, cover=0)
    assert armour == 4
    assert wounds(11, 0, armour) == 2  # 11 points at 5 a casualty, 1 lost


def test_cd_ra_02_an_exact_multiple_is_the_lower_band() -> None:
    assert range_band(24, 8) == 2
    assert range_band(24.000000001, 8) == 2  # a measured tray gap a hair over is still the text's 24"
    assert range_band(24.01, 8) == 3
    assert [range_band(d, 8) for d in (0, 0.5, 8, 8.1, 16, 16.5, 32)] == [0, 0, 0, 1, 1, 2, 3]


@given(
    st.floats(min_value=0, max_value=500, allow_nan=False),
    st.floats(min_value=0.5, max_value=60, allow_nan=False),
)
def test_range_band_counts_the_multiples_after_the_first(distance: float, weapon: float) -> None:
    band = range_band(distance, weapon)
    assert band >= 0
    # The multiples band + 1 reach the target (within the measuring tolerance); band multiples do not.
    assert distance <= (band + 1 + 1e-6) * weapon
    assert band == 0 or distance > band * weapon


@given(st.floats(min_value=0, max_value=300, allow_nan=False), st.floats(min_value=0, max_value=300))
def test_range_band_never_falls_with_distance(a: float, b: float) -> None:
    near, far = sorted((a, b))
    assert range_band(near, 8) <= range_band(far, 8)


@pytest.mark.parametrize(("distance", "weapon"), [(-1, 8), (5, 0), (5, -8), (math.nan, 8), (5, math.inf)])
def test_range_band_refuses_nonsense(distance: float, weapon: float) -> None:
    with pytest.raises(ValueError):
        range_band(distance, weapon)


def test_cd_sh_04_to_08_shot_armour_adds_skill_band_cover_hill_never_below_0() -> None:
    assert shot_armour(1, skill=1, band=2, cover=1) == 5
    assert shot_armour(2, skill=3, band=0, cover=2, hill=1, extra=-1) == 7
    assert shot_armour(1, skill=-3, band=1, cover=0) == 0  # a legend's negative skill stops at 0
