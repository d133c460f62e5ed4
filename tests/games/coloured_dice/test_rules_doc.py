"""The rules-decision record ``docs/rules/coloured-dice.md`` against the clauses, the data and the code.

Every clause of ``shared/rules/coloured-dice-clauses.md`` has exactly one entry row, its text as the clause
file words it; every ``CD-`` id the record cites exists; every DECISION NEEDED / MISSING FROM SOURCE clause's
row says "Decided"; the Finnish quoted is the original's; every file a Code, Tests or Where cell names exists;
each designed data entry (armies, unit types, released spirits, spells, gifts, gods, spirits, runes,
combinations) is named; and the numbers the record quotes (the dice faces, the constants, the profiles'
points) equal the data, and the code's own copies of the constants equal the data too.
"""

from __future__ import annotations

import re
from fractions import Fraction

from tests.helpcheck import clause_ids, defined_clauses, quoted_in
from tests.shared import REPOSITORY, shared_file

from iwgt.games.coloured_dice import (
    combat_common,
    dice,
    flow,
    formation,
    movement,
    scenario,
    spirits,
    state,
    terrain,
)
from iwgt.games.coloured_dice.magic_data import magic_rules
from iwgt.games.coloured_dice.rules import armies, army_points, rules

DOC = REPOSITORY / "docs" / "rules" / "coloured-dice.md"
PACKAGE = REPOSITORY / "src" / "iwgt" / "games" / "coloured_dice"
TESTS = REPOSITORY / "tests" / "games" / "coloured_dice"
GAME = "coloured-dice"
FINNISH = "002_9e8e1c9a3d29e5b4.txt"
"""The Finnish original the record quotes where the translator flagged an ambiguity."""
OPEN_MARKS = ("DECISION NEEDED", "MISSING FROM SOURCE")
ENTRY = re.compile(r"^\| (CD-[A-Z]+-\d+) \|")
CELL = re.compile(r"(?<!\\)\|")
"""A table cell boundary: a pipe not escaped as ``\\|``."""


def doc_text() -> str:
    """The record's text."""
    return DOC.read_text(encoding="utf-8")


def cells(line: str) -> list[str]:
    """A markdown table row's cells, stripped (an escaped pipe stays inside its cell)."""
    return [c.strip() for c in CELL.split(line.strip())[1:-1]]


def clause_rows() -> dict[str, tuple[str, str]]:
    """Each clause of the clause file by id: (its clause cell, its notes cell)."""
    text = shared_file("rules", f"{GAME}-clauses.md").read_text(encoding="utf-8")
    rows: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        if ENTRY.match(line):
            parts = cells(line)
            rows[parts[0]] = (parts[1], parts[2])
    return rows


def open_clauses() -> set[str]:
    """The clauses marked DECISION NEEDED or MISSING FROM SOURCE."""
    return {
        cid for cid, (clause, notes) in clause_rows().items() if any(m in clause + notes for m in OPEN_MARKS)
    }


def entry_rows() -> dict[str, list[list[str]]]:
    """The record's clause rows (their cells) by the id in their first cell."""
    rows: dict[str, list[list[str]]] = {}
    for line in doc_text().splitlines():
        match = ENTRY.match(line)
        if match:
            rows.setdefault(match.group(1), []).append(cells(line))
    return rows


def test_every_defined_clause_is_cited() -> None:
    """Each clause id of the clause file appears in the record (CD-DI-01 .. CD-MS-16)."""
    defined = defined_clauses(GAME)
    assert {"CD-DI-01", "CD-DI-13", "CD-RE-02", "CD-MS-16"} <= defined
    missing = sorted(defined - clause_ids(DOC))
    assert not missing, f"clauses docs/rules/coloured-dice.md never cites: {missing}"


def test_every_cited_clause_exists() -> None:
    """Each CD- id the record names is a clause of the file (no typo, no invented id); a bare section
    (``CD-GM``) is one of the file's sections."""
    cited = {cid for cid in clause_ids(DOC) if cid.startswith("CD-")}
    sections = {cid.rsplit("-", 1)[0] for cid in defined_clauses(GAME)}
    unknown = sorted(cited - defined_clauses(GAME) - sections)
    assert not unknown, f"ids the record cites that the clause file does not define: {unknown}"


def test_each_clause_has_exactly_one_entry_row_with_its_text() -> None:
    """One row per clause, five cells: id, the clause's text as the clause file words it, decision, code,
    tests; none empty."""
    rows = entry_rows()
    clauses = clause_rows()
    assert len(clauses) == 165
    doubled = sorted(cid for cid, lines in rows.items() if len(lines) > 1)
    assert not doubled, f"clauses with more than one entry row: {doubled}"
    assert sorted(rows) == sorted(clauses)
    for cid, [row] in rows.items():
        assert len(row) == 5, f"{cid}: {len(row)} cells"
        assert all(row), f"{cid} has an empty cell"
        assert row[1].startswith(clauses[cid][0]), f"{cid}: the text is not the clause's: {row[1][:60]}"


def test_every_open_clause_has_its_decision_in_its_row() -> None:
    """A DECISION NEEDED / MISSING FROM SOURCE clause's decision opens with "Decided"."""
    rows = entry_rows()
    opened = open_clauses()
    assert {"CD-DI-12", "CD-DI-13", "CD-RE-02", "CD-MS-01", "CD-MS-16"} <= opened
    undecided = sorted(cid for cid in opened if not rows[cid][0][2].startswith("Decided"))
    assert not undecided, f"open clauses whose row does not say 'Decided': {undecided}"


def test_the_designed_missing_parts_are_marked_designed() -> None:
    """Every MISSING FROM SOURCE clause but the plain readings is marked designed in its row."""
    rows = entry_rows()
    missing = [cid for cid, (clause, _) in clause_rows().items() if "MISSING FROM SOURCE" in clause]
    assert len(missing) == 16
    unmarked = sorted(cid for cid in missing if "**designed**" not in rows[cid][0][2] and cid != "CD-MS-10")
    assert not unmarked, f"missing parts not marked designed: {unmarked}"


def test_the_finnish_quoted_is_the_original_s() -> None:
    """Each "Finnish: “...”" of a row is found in the Finnish original (its typing errors included)."""
    original = shared_file("seeds", FINNISH).read_text(encoding="utf-8")
    quotes = {cid: re.search(r"Finnish: “(.+?)”", row[0][1]) for cid, row in entry_rows().items()}
    found = {cid: m.group(1) for cid, m in quotes.items() if m}
    assert len(found) >= 20, "the flagged ambiguities quote the Finnish"
    wrong = {cid: q for cid, q in found.items() if not quoted_in(q.replace('\\"', '"'), original)}
    assert not wrong, f"Finnish not found in the original: {wrong}"


def named_files() -> set[str]:
    """The files the Code and Tests cells and the Where lines name."""
    text = doc_text()
    names: set[str] = set()
    for _, rows in entry_rows().items():
        for row in rows:
            names.update(re.findall(r"`([\w/]+\.(?:py|toml))`", row[3] + " " + row[4]))
    for paragraph in re.findall(r"(?m)^\*\*Where:\*\*.*$", text):
        names.update(re.findall(r"`([\w/]+\.(?:py|toml))`", paragraph))
    return names


def test_every_file_the_record_names_exists() -> None:
    """The modules (relative to the package) and tests (relative to tests/games/coloured_dice) are there."""
    names = named_files()
    assert {"dice.py", "odds.py", "fight.py", "test_dice.py"} <= names
    missing = sorted(
        n for n in names if not ((TESTS / n) if n.startswith("test_") else (PACKAGE / n)).is_file()
    )
    assert not missing, f"files the record names that do not exist: {missing}"


def test_each_designed_data_entry_is_named() -> None:
    """Every army, unit type, released spirit, spell, gift, god, spirit, rune and combination of the data is
    named in the record (its key in backticks)."""
    text = doc_text()
    keys: list[str] = []
    for key, army in armies().items():
        keys += [key, *army.units, *army.spirits]
    magic = magic_rules()
    for table in (magic.spells, magic.gifts, magic.gods, magic.spirits, magic.runes, magic.combos):
        keys += list(table)
    assert "louhi" in keys and "moon_gate" in keys and "anvil_rune" in keys
    unnamed = sorted({k for k in keys if f"`{k}`" not in text})
    assert not unnamed, f"data entries the record never names: {unnamed}"
    for army in armies().values():
        assert army.name in text
        for p in (*army.units.values(), *army.spirits.values()):
            assert p.name in text, p.name


def constants_quoted() -> dict[str, str]:
    """The Constants table: name -> the value as printed."""
    out: dict[str, str] = {}
    for line in doc_text().splitlines():
        m = re.match(r"^\| `([a-z_]+)` \| `([^`]+)` \|", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def printed(value: object) -> str:
    """A constant as the record prints it."""
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def test_the_constants_table_equals_the_data() -> None:
    """Every named constant of data/rules.toml is in the table with its value (MAX_RANGE_BANDS, FALL_BACK,
    BREAK_FRACTION, ...), and nothing else is."""
    c = rules().constants
    quoted = constants_quoted()
    names = set(type(c).model_fields)
    assert {"max_range_bands", "fall_back", "break_fraction", "enemy_gap", "tight_morale_bonus"} <= names
    assert set(quoted) == names
    wrong = {n: (quoted[n], printed(getattr(c, n))) for n in names if quoted[n] != printed(getattr(c, n))}
    assert not wrong, f"constants the record prints otherwise than the data: {wrong}"


def test_the_numbers_in_the_text_are_the_data_s() -> None:
    """The decisions' prose quotes the same numbers (hand-picked: each a number a player would look up)."""
    c = rules().constants
    text = doc_text()
    assert c.max_range_bands == 4 and "`max_range_bands = 4`" in text
    assert c.fall_back == 3.0 and "`fall_back = 3.0`" in text
    assert c.break_fraction == (2, 3) and "`break_fraction = [2, 3]`" in text
    assert c.few_models == 3 and "`few_models = 3`" in text
    assert c.tight_morale_bonus == 1 and "`tight_morale_bonus = 1`" in text
    assert c.objective_range == 3.0 and "`objective_range = 3.0`" in text
    assert c.shaman_spirit_range == 12.0
    assert "`shaman_spirit_range = 12.0`" in text
    assert c.reaction_die == "yellow" and c.reaction_inches_per_die == 8.0


def test_the_code_s_own_constants_equal_the_data() -> None:
    """Where the code keeps a copy of a designed number, it is the data's (the record quotes one value)."""
    c = rules().constants
    assert Fraction(*c.break_fraction) == flow.BREAK_FRACTION
    assert c.objective_range == flow.OBJECTIVE_RANGE
    assert c.shaken_actions == flow.SHAKEN_ACTIONS
    assert c.actions_per_turn == state.ACTIONS_PER_TURN
    assert (c.general_morale_start,) * 2 == state.CdState.__dataclass_fields__["general_morale"].default
    assert c.deploy_depth == scenario.DEPLOY_DEPTH
    assert c.behind_reach == terrain.BEHIND_REACH
    assert c.spirit_place_gap == spirits.PLACE_GAP
    assert c.enemy_gap == movement.ENEMY_GAP
    assert c.contact_eps == formation.CONTACT_EPS
    assert combat_common.max_range_bands() == c.max_range_bands
    assert combat_common.fall_back_inches() == c.fall_back
    assert combat_common.tight_bonus() == c.tight_morale_bonus
    assert combat_common.reaction_die() == c.reaction_die


def test_the_dice_table_equals_the_data() -> None:
    """The faces table prints each colour's six faces in order, as dice.faces gives them (CD-DI-04..11)."""
    table: dict[str, list[str]] = {}
    for line in doc_text().splitlines():
        parts = cells(line) if line.startswith("| ") else []
        if parts and parts[0] in dice.COLOURS and len(parts) == 11:
            table[parts[0]] = parts[2:8]
    assert list(table) == list(dice.COLOURS)
    for colour, shown in table.items():
        assert shown == [str(f) for f in dice.faces(colour)], colour
    assert dice.faces("green") == (0, 0, 0, 1, 2, "kill")  # CD-DI-06, as the text gives it


def test_the_armies_tables_equal_the_data() -> None:
    """Each profile row prints its points per model and per unit as the data and the formula give them."""
    rows: dict[tuple[str, str], list[str]] = {}
    army = ""
    for line in doc_text().splitlines():
        m = re.match(r"^### `([a-z]+)`: ", line)
        if m:
            army = m.group(1)
        elif army and re.match(r"^\| `[a-z_]+` \|", line):
            parts = cells(line)
            rows[(army, parts[0].strip("`"))] = parts
    for key, a in armies().items():
        for unit_key, p in (*a.units.items(), *a.spirits.items()):
            row = rows[(key, unit_key)]
            assert row[4] == f"{p.points} / {p.points * p.models}", (key, unit_key, row[4])
            assert p.points == army_points(a, unit_key)
            assert row[2] == p.kind and row[3] == str(p.models)
