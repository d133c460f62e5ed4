"""The rules-decision record ``docs/rules/anvil.md`` against the clauses ``shared/rules/anvil-clauses.md``.

Every clause the file defines is cited in the record, and every ``FA-`` id the record cites is defined; each
clause other than a matrix cell has exactly one entry row (its id in the first cell); each clause marked
DECISION NEEDED or MISSING FROM SOURCE has its decision in that row ("Decided:" or "Decided here:"); and the
printed matrix gives each cell's numbers and bouncer exactly as the clause quotes the text.
"""

from __future__ import annotations

import re

import pytest
from tests.helpcheck import clause_ids, defined_clauses
from tests.shared import REPOSITORY, shared_file

DOC = REPOSITORY / "docs" / "rules" / "anvil.md"
UNITS = ("HERO", "WIZARD", "MONSTER", "KNIGHT", "WARMACHINE", "TROOP")
"""The matrix's types as the cell ids spell them, in the text's column (and row) order."""
OPEN_MARKS = ("DECISION NEEDED", "MISSING FROM SOURCE")
DECIDED = re.compile(r"\bDecided(?: here)?:")
ENTRY = re.compile(r"^\| (FA-[A-Z0-9-]+) \|", re.MULTILINE)
CELL_ID = re.compile(r"^FA-CRM-(" + "|".join(UNITS) + r")-(" + "|".join(UNITS) + r")$")


def doc_text() -> str:
    """The record's text."""
    return DOC.read_text(encoding="utf-8")


def clause_rows() -> dict[str, str]:
    """Each clause row of the clause file, by its id (the whole row's text)."""
    text = shared_file("rules", "anvil-clauses.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| (FA-[A-Z0-9-]+) \|.*$", text, re.MULTILINE)}


def open_clauses() -> set[str]:
    """The clauses marked DECISION NEEDED or MISSING FROM SOURCE."""
    return {cid for cid, row in clause_rows().items() if any(mark in row for mark in OPEN_MARKS)}


def entry_rows() -> dict[str, list[str]]:
    """The record's table rows by the id in their first cell."""
    rows: dict[str, list[str]] = {}
    for line in doc_text().splitlines():
        match = ENTRY.match(line)
        if match:
            rows.setdefault(match.group(1), []).append(line)
    return rows


def test_every_defined_clause_is_cited() -> None:
    """Each clause id of the clause file appears in the record."""
    missing = sorted(defined_clauses("anvil") - clause_ids(DOC))
    assert not missing, f"clauses docs/rules/anvil.md never cites: {missing}"


def test_every_cited_clause_exists() -> None:
    """Each FA- id the record names is a clause of the file (no typo, no invented id)."""
    cited = {cid for cid in clause_ids(DOC) if cid.startswith("FA-")}
    unknown = sorted(cited - defined_clauses("anvil"))
    assert not unknown, f"ids docs/rules/anvil.md cites that the clause file does not define: {unknown}"


def test_the_clause_file_has_the_56_open_clauses_this_record_decides() -> None:
    """The file marks 56 rows (the issue says 57): if the file changes, this record must be read again."""
    assert len(open_clauses()) == 56


def test_each_clause_but_the_cells_has_exactly_one_entry_row() -> None:
    """One row per clause, in a table, its id in the first cell; matrix cells are in the printed matrix."""
    rows = entry_rows()
    doubled = sorted(cid for cid, lines in rows.items() if len(lines) > 1)
    assert not doubled, f"clauses with more than one entry row: {doubled}"
    wanted = {cid for cid in defined_clauses("anvil") if not CELL_ID.match(cid)}
    missing = sorted(wanted - set(rows))
    assert not missing, f"clauses without an entry row: {missing}"


def test_every_open_clause_has_its_decision_in_its_row() -> None:
    """A DECISION NEEDED / MISSING FROM SOURCE clause's row says 'Decided:' (spec) or 'Decided here:'."""
    rows = entry_rows()
    undecided = sorted(cid for cid in open_clauses() if not any(DECIDED.search(r) for r in rows.get(cid, [])))
    assert not undecided, f"open clauses whose entry row has no 'Decided:': {undecided}"


def test_only_open_clauses_start_with_a_decision() -> None:
    """A clause the text settles starts 'As written' (it may add a decided detail after); 'Decided' opens only
    the rows of open clauses, so a reader can tell the two apart at a glance."""
    rows = entry_rows()
    for cid, lines in rows.items():
        for line in lines:
            if cid not in open_clauses() and line.count("|") >= 5:
                decision = line.split("|")[3]
                # An as-written clause may add a decided detail, but must then say "As written" first.
                if DECIDED.search(decision) and not decision.strip().startswith("As written"):
                    pytest.fail(f"{cid} is not an open clause but its decision opens as one: {decision[:80]}")


def printed_cells() -> dict[str, str]:
    """The matrix table's cells: id -> the cell text before the id ('2 / 4 / 5 D')."""
    cells: dict[str, str] = {}
    for line in doc_text().splitlines():
        if not line.startswith("| **"):
            continue
        for cell in line.strip().strip("|").split("|")[1:]:
            match = re.match(r"\s*(.+?)\s+`(FA-CRM-[A-Z]+-[A-Z]+)`\s*$", cell)
            if match:
                assert match.group(2) not in cells, f"{match.group(2)} twice in the matrix"
                cells[match.group(2)] = match.group(1)
    return cells


def expected_cell(quote: str) -> str:
    """A cell as the record prints it: '2 Front 4 Flanks 5 Rear Defender BB' -> '2 / 4 / 5 D'."""
    match = re.fullmatch(
        r"(\d+ Front|NATE) (\d+ Flanks?|NATE) (\d+ Rear|NATE) (Attacker|Defender) BB", quote.strip()
    )
    assert match, quote
    values = [part.split()[0] for part in match.groups()[:3]]
    bouncer = "**A**" if match.group(4) == "Attacker" else "D"
    return " / ".join(values) + " " + bouncer


def test_the_printed_matrix_has_every_cell_once_as_the_text_gives_it() -> None:
    """All 36 cells, each in its attacker's column and defender's row, numbers and bouncer as quoted."""
    cells = printed_cells()
    assert sorted(cells) == sorted(f"FA-CRM-{a}-{d}" for a in UNITS for d in UNITS)
    rows = clause_rows()
    for cid, printed in cells.items():
        quote = re.search(r"“([^”]+)”", rows[cid])
        assert quote, cid
        assert printed == expected_cell(quote.group(1)), f"{cid}: the record prints {printed!r}"


def test_each_matrix_row_is_a_defender_and_each_column_an_attacker() -> None:
    """FA-CRM-04: the columns are the attackers (Hero .. Troop), the rows the defenders."""
    lines = [line for line in doc_text().splitlines() if line.startswith("| **")]
    matrix_rows = [line for line in lines if "`FA-CRM-" in line]
    assert len(matrix_rows) == len(UNITS)
    for defender, line in zip(UNITS, matrix_rows, strict=True):
        ids = re.findall(r"`(FA-CRM-[A-Z]+-[A-Z]+)`", line)
        assert ids == [f"FA-CRM-{attacker}-{defender}" for attacker in UNITS], line[:60]


WHERE = re.compile(r"(?ms)^\*\*Where:\*\*.*?(?=\n\n|\Z)")
"""A section's "Where" paragraph: the modules and test files that implement and check it."""


def test_every_file_a_where_line_names_exists() -> None:
    """The modules (relative to the package) and test files each section names are really there."""
    package = REPOSITORY / "src" / "iwgt" / "games" / "anvil"
    paragraphs = WHERE.findall(doc_text())
    assert len(paragraphs) >= 20, "a Where line per section"
    missing = []
    for paragraph in paragraphs:
        for name in re.findall(r"`([\w/]+\.(?:py|toml|js))`", paragraph):
            if name.startswith("tests/"):
                where = REPOSITORY / name
            elif name.startswith("test_"):
                where = REPOSITORY / "tests" / "games" / "anvil" / name
            else:
                where = package / name
            if not where.is_file():
                missing.append(name)
    assert not missing, f"files the Where lines name that do not exist: {sorted(set(missing))}"
