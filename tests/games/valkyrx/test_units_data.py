"""The Character Attributes Table data (units.toml) against the printed table in the rules text.

Clauses: VX-16-01..VX-16-15 (the table), VX-10-04 (starting morale), VX-06-01 (points).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.shared import shared_file

from iwgt.core.datafiles import load_model
from iwgt.core.errors import DataFileError
from iwgt.games.valkyrx.units import UnitTable, UnitType, unit_types

SOURCE = ("seeds", "000_9f29f2bdcadaed54.txt")
"""The rules text holding the printed table, in the shared folder (found by ``tests/shared.py``)."""

RATINGS = {"VL", "L", "A", "H", "VH"}
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi"]
ROW = re.compile(r"^(?P<roman>[ivx]+)\) <i>(?P<name>.*?)</i>\t(?P<rest>.*)$")


def units() -> list[UnitType]:
    return list(unit_types().values())


# --------------------------------------------------------------------------------------------
# An independent reader of the printed table
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintedRow:
    roman: str
    name: str  # as printed, tags removed
    side: str
    rank: str
    cells: tuple[str, ...]  # every tab-separated cell after the name

    def right(self, k: int) -> str:
        """The k-th cell counted from the right (1 = Points Final): both forces line up there."""
        return self.cells[-k]


def _number(cell: str) -> int:
    """A printed number; "2,500" has a thousands separator (VX-16-15)."""
    assert re.fullmatch(r"\d{1,3}(,\d{3})*|\d+", cell), f"not a number: {cell!r}"
    return int(cell.replace(",", ""))


def _section_lines() -> list[str]:
    lines = shared_file(*SOURCE).read_text(encoding="utf-8").splitlines()
    # The heading appears first in the contents list; the table follows the last occurrence.
    start = max(i for i, line in enumerate(lines) if line.strip() == "CHARACTER ATTRIBUTES TABLE")
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "VALKYRX MAGIC SPELLS")
    return lines[start:end]


def printed_rows() -> list[PrintedRow]:
    side = rank = ""
    rows: list[PrintedRow] = []
    for line in _section_lines():
        text = line.strip()
        if text.startswith("A) FORCES OF THE LIGHT"):
            side = "light"
        elif text.startswith("B) FORCES OF DARKNESS"):
            side = "darkness"
        elif text == "1) PRINCIPAL CHARACTERS":
            rank = "principal"
        elif text == "2) SECONDARY CHARACTERS":
            rank = "secondary"
        elif m := ROW.match(line):
            assert side and rank, f"row before its heading: {line!r}"
            rows.append(PrintedRow(m["roman"], m["name"], side, rank, tuple(m["rest"].split("\t"))))
    return rows


def clean_name(printed: str) -> str:
    """The printed name without the stray space after a leading capital ("W earg" -> "Wearg"), and with a
    capital first letter, as a name that may begin a sentence ("astigend" -> "Astigend")."""
    name = re.sub(r"^([A-Z]) (?=[^\sA-Z])", r"\1", printed)
    return name[:1].upper() + name[1:]


@pytest.fixture(scope="module")
def printed() -> list[PrintedRow]:
    return printed_rows()


# --------------------------------------------------------------------------------------------
# VX-16-01: every row, in order
# --------------------------------------------------------------------------------------------


def test_vx_16_01_row_counts_by_side_and_rank() -> None:
    rows = units()
    assert len(rows) == 48
    assert Counter(u.side for u in rows) == {"light": 23, "darkness": 25}
    by_rank = Counter((u.side, u.rank) for u in rows)
    assert by_rank == {
        ("light", "principal"): 13,
        ("light", "secondary"): 10,
        ("darkness", "principal"): 16,
        ("darkness", "secondary"): 9,
    }


def test_vx_16_01_table_order_is_grouped() -> None:
    order = [(u.side, u.rank) for u in units()]
    groups = [k for i, k in enumerate(order) if i == 0 or order[i - 1] != k]
    assert groups == [
        ("light", "principal"),
        ("light", "secondary"),
        ("darkness", "principal"),
        ("darkness", "secondary"),
    ]


def test_vx_16_01_source_has_48_rows_numbered_in_sequence(printed: list[PrintedRow]) -> None:
    assert len(printed) == 48
    start = 0
    for i, row in enumerate(printed):
        if i and (row.side, row.rank) != (printed[i - 1].side, printed[i - 1].rank):
            start = i
        assert row.roman == ROMAN[i - start], row


def test_vx_16_12_column_layout(printed: list[PrintedRow]) -> None:
    # Light rows: 16 cells, Mount on Base Type (5th) always empty. Darkness rows: no mount column.
    for row in printed:
        if row.side == "light":
            assert len(row.cells) == 16, row
            assert row.cells[4] == "", row
        else:
            assert len(row.cells) == 15, row
    assert all(u.mount is None for u in units())


# --------------------------------------------------------------------------------------------
# VX-16-01..VX-16-15: every value, row by row, against the printed table
# --------------------------------------------------------------------------------------------


def test_vx_16_01_every_row_matches_the_printed_table(printed: list[PrintedRow]) -> None:
    rows = units()
    assert len(rows) == len(printed)
    for unit, row in zip(rows, printed, strict=True):
        where = f"{unit.id} vs printed row {row.side}/{row.rank} {row.roman}) {row.name!r}"
        assert (unit.side, unit.rank) == (row.side, row.rank), where
        assert unit.name == clean_name(row.name), where

        # Left-hand columns: No. Poses, Size of Miniature, No. of Figs per Base, No. of bodies.
        poses, miniature, figs, bodies = row.cells[:4]
        assert unit.poses == (_number(poses) if poses else None), where
        assert unit.miniature == miniature, where
        assert unit.figs_per_base == figs, where
        assert unit.bodies == _number(bodies), where  # VX-16-05

        # Right-hand columns, read from the right (VX-16-12).
        movement = row.right(11)
        if "/" in movement:  # VX-16-02, VX-16-04
            normal, chg = movement.split("/")
            assert (unit.move, unit.charge) == (_number(normal), _number(chg)), where
        else:  # VX-16-03: a single figure, no charge value
            assert (unit.move, unit.charge) == (_number(movement), None), where
        assert unit.attack == _number(row.right(10)), where  # VX-16-11
        assert unit.special == _number(row.right(9)), where  # VX-16-11
        assert unit.defence == _number(row.right(8)), where  # VX-16-11, VX-16-15
        assert unit.range == _number(row.right(7)), where  # VX-16-06
        assert unit.rate_of_fire == _number(row.right(6)), where  # VX-16-07
        assert unit.accuracy == _number(row.right(5)), where  # VX-16-07
        assert row.right(4) in RATINGS | {"n/a"} and row.right(3) in RATINGS, where  # VX-16-08
        assert unit.resist_magic == row.right(4), where
        assert unit.melee == row.right(3), where
        assert unit.morale == _number(row.right(2)), where  # VX-16-09
        assert unit.points == _number(row.right(1)), where  # VX-16-10, VX-06-01


def test_vx_06_01_profile_points_values_appear_in_the_table() -> None:
    # The character profiles (section 13) repeat the points values of the table.
    text = shared_file(*SOURCE).read_text(encoding="utf-8")
    profile_values = {int(v) for v in re.findall(r"Points Value (\d+)", text)}
    assert profile_values
    assert profile_values <= {u.points for u in units()}


# --------------------------------------------------------------------------------------------
# Hand-written spot checks
# --------------------------------------------------------------------------------------------


def test_spot_modrof() -> None:
    u = unit_types()["modrof"]
    assert u.name == "Môdrôf The Fire King (Mounted)"
    assert (u.move, u.charge) == (4, 6)
    assert (u.attack, u.special, u.defence) == (750, 100000, 25000)
    assert (u.range, u.rate_of_fire, u.accuracy) == (1, 25, 25)
    assert (u.resist_magic, u.melee, u.morale, u.points) == ("VH", "VH", 40, 2500)
    assert u.is_character and not u.is_missile


def test_spot_trebuchet_range_6() -> None:
    u = unit_types()["trebuchet"]
    assert u.poses is None and u.miniature == "n/a"
    assert (u.move, u.charge, u.range, u.points) == (1, 1, 6, 500)  # VX-16-04, VX-16-06
    assert u.has("war_machine") and u.is_missile


def test_spot_giant_crossbow_war_machine() -> None:
    u = unit_types()["giant_crossbow"]
    assert u.name == "Giant Crossbow War Machine"
    assert (u.range, u.points, u.attack, u.defence) == (8, 600, 2000, 5000)


def test_spot_undead_warriors() -> None:
    u = unit_types()["undead_warriors"]
    assert (u.move, u.charge, u.bodies, u.figs_per_base) == (1, 2, 300, "6")
    assert (u.resist_magic, u.melee, u.points) == ("VH", "A", 2100)


def test_vx_16_15_thousands_separator() -> None:
    assert unit_types()["ellorgast"].defence == 2500
    assert unit_types()["lefan"].defence == 2500


def test_vx_16_03_single_movement_figures() -> None:
    single = {u.id: u.move for u in units() if u.charge is None}
    assert single == {"astigend": 12, "vertigron": 12, "ekglide": 12, "mangere": 12, "harpies": 8}


def test_vx_16_08_resist_magic_not_applicable() -> None:
    na = {u.id for u in units() if u.resist_magic == "n/a"}
    assert na == {"circan", "waerloga", "ellorgast", "lefan", "mangere"}


def test_vx_16_13_names_with_stray_spaces_cleaned() -> None:
    names = {u.id: u.name for u in units()}
    assert names["mangere"] == "Mangere - Demon King"
    assert names["wearg_archers"] == "Wearg archers"
    assert names["maegen"] == "Mægen"
    assert names["giant_spider"] == "Lâf gangewifre - Giant Spider"
    assert names["wraith_king"] == "Witch King Wraith"
    assert names["astigend"] == "Astigend - Dragon of the Ancients (fire)"  # printed "astigend" (a slip)
    assert names["ekglide"] == "Ekglide - Dragon of the Ancients (venom)"


def test_vx_10_04_starting_morale_in_20_to_40() -> None:
    assert all(20 <= u.morale <= 40 for u in units())


def test_vx_02_04_characters_are_one_body() -> None:
    ones = {u.id for u in units() if u.bodies == 1}
    assert {"modrof", "mangere", "ballista", "giant_catapult"} <= ones
    assert unit_types()["wraiths"].bodies == 90


# --------------------------------------------------------------------------------------------
# A broken units file is refused, naming the file and the key
# --------------------------------------------------------------------------------------------

GOOD_ROW = """\
[[unit]]
id = "test_unit"
name = "Test Unit"
side = "light"
rank = "secondary"
poses = 3
miniature = "32mm"
figs_per_base = "6"
bodies = 300
move = 2
charge = 3
attack = 10
special = 0
defence = 150
range = 1
rate_of_fire = 15
accuracy = 10
resist_magic = "H"
melee = "H"
morale = 30
points = 1200
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "units.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_good_row_loads(tmp_path: Path) -> None:
    table = load_model(UnitTable, _write(tmp_path, GOOD_ROW))
    assert table.unit[0].id == "test_unit"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (GOOD_ROW.replace("attack = 10", 'attack = "lots"'), "attack"),
        (GOOD_ROW + "armour = 3\n", "armour"),
        (GOOD_ROW.replace("defence = 150\n", ""), "defence"),
        (GOOD_ROW.replace('melee = "H"', 'melee = "XH"'), "melee"),
    ],
    ids=["wrong-type", "unknown-key", "missing-key", "bad-rating"],
)
def test_broken_units_file_is_refused(tmp_path: Path, text: str, key: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DataFileError) as exc:
        load_model(UnitTable, path)
    assert str(path) in exc.value.message
    assert key in exc.value.message
    assert exc.value.key.startswith("unit.0.")


def test_duplicate_id_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_ROW + "\n" + GOOD_ROW)
    with pytest.raises(DataFileError, match="appears twice"):
        load_model(UnitTable, path)
