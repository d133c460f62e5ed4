"""The rules-decision record ``docs/rules/warquest.md`` against the clauses, the data and the code.

Every clause of ``shared/rules/warquest-clauses.md`` has exactly one entry row, its text as the clause file
words it; every ``WQ-`` id the record cites exists; every DECISION NEEDED / MISSING FROM SOURCE clause's row
says "Decided" (and a missing part says **designed**); every file a Code or Tests cell names exists; every
troop kind, card, card kind, location, kingdom and region of the data is named; the four printed troop rows
are marked printed with the text's numbers; every ``NAME = value`` the prose quotes is the constant's value in
``data/rules.toml``; and each table generated from the data (constants, troops, both maps, locations, the four
decks, scenarios, the combat die) is, byte for byte, what the data gives now.

When the data changes, regenerate the tables (only the parts between the ``<!-- data:NAME -->`` marks):

    .venv/bin/python -m tests.games.warquest.test_rules_doc --write
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from tests.helpcheck import clause_ids, defined_clauses
from tests.shared import REPOSITORY, shared_file

from iwgt.games.warquest import setup
from iwgt.games.warquest.battle import COMBAT_FACES
from iwgt.games.warquest.maps import LOCATIONS, WqMap, load_map
from iwgt.games.warquest.odds import battle_from_armies, battle_odds
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.scenario import load_scenario, scenario_names

DOC = REPOSITORY / "docs" / "rules" / "warquest.md"
PACKAGE = REPOSITORY / "src" / "iwgt" / "games" / "warquest"
TESTS = REPOSITORY / "tests" / "games" / "warquest"
GAME = "warquest"
MAPS = ("myrathia", "marches")
"""The shipped maps, the standard one first."""
OPEN_MARKS = ("DECISION NEEDED", "MISSING FROM SOURCE")
ENTRY = re.compile(r"^\| (WQ-[A-Z]+-\d+) \|")
CELL = re.compile(r"(?<!\\)\|")
"""A table cell boundary: a pipe not escaped as ``\\|``."""
BLOCK = re.compile(r"<!-- data:([a-z_-]+) -->\n(.*?)<!-- /data:\1 -->", re.S)
PRINTED = {
    # WQ-TR-01..04 as the surviving page prints them: cost, attack dice, defence rating ("-": no cost)
    "skeleton_warrior": (2, 1, 1),
    "skeleton_archer": (2, 1, 1),
    "skeleton_rider": (4, 2, 1),
    "wraith_king": (None, 2, 2),
}


# ---------------------------------------------------------------- the tables, from the data


def _cell(text: object) -> str:
    """A value as a table cell: pipes escaped, never empty."""
    s = str(text).replace("|", "\\|").strip()
    return s or "-"


def _row(*cells: object) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _table(head: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(head)
    lines = [_row(*head), "|" + "---|" * len(head)]
    lines += [_row(*r) for r in rows]
    return "\n".join(lines) + "\n"


def _param(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _params(params: Mapping[str, Any]) -> str:
    """Card parameters as ``key=value`` pairs, in the file's order."""
    return "; ".join(f"{k}={_param(v)}" for k, v in params.items())


def constants_table() -> str:
    """Every named constant of data/rules.toml: value, clause, printed or designed (and why)."""
    r = rules()
    rows = []
    for name in type(r.constants).model_fields:
        src = r.sources[name]
        why = f"designed: {src.designed}" if src.designed else "printed"
        rows.append((f"`{name}`", getattr(r.constants, name), src.clause, why))
    return _table(("Constant", "Value", "Clause", "Source"), rows)


def troops_table() -> str:
    """Every row of data/troops.toml, the printed ones marked printed."""
    rows = []
    for key, t in rules().troops.items():
        kind = "advanced" + (", elite" if t.elite else "") if t.advanced else "basic"
        if t.unique:
            kind += ", unique"
        specials = ", ".join(f"{s} +{t.rage}" if s == "rage" else s for s in t.specials)
        where = {"land": f"{t.people} land", "city": "a city", "wraith": "the Wraith King's region"}.get(
            t.recruit, "never (no cost)"
        )
        source = "**printed**" if t.designed is None else f"designed: {t.designed}"
        if t.designed is None and t.decision:
            source += f" (reading: {t.decision})"
        rows.append(
            (
                f"`{key}`",
                t.name,
                t.people,
                where,
                "-" if t.cost is None else t.cost,
                t.attack,
                t.defense,
                "M" if t.missile else "",
                kind,
                t.pool,
                specials,
                source,
            )
        )
    head = ("Key", "Name", "People", "Recruited in", "Cost", "Attack", "Defence", "(M)", "Kind", "Pool")
    return _table((*head, "Specials", "Source"), rows)


def _map_summary(m: WqMap) -> str:
    regions = m.regions.values()
    kinds = Counter(b.kind for b in m.geometry.borders())
    wild = Counter(r.people for r in regions if r.people)
    low, high = m.players
    seats = f"{low}" if low == high else f"{low} to {high}"
    return (
        f"`{m.key}` ({m.name}): {m.geometry.width:g} x {m.geometry.height:g} units, "
        f"{seats} players; {len(m.regions)} regions "
        f"({sum(1 for r in regions if r.kingdom)} in {len(m.kingdoms)} kingdoms, "
        f"{sum(wild.values())} wild: "
        + ", ".join(f"{p} {n}" for p, n in sorted(wild.items()))
        + f"); {sum(1 for r in regions if r.city)} cities "
        f"(tax {sum(r.tax for r in regions)} gold in all); "
        f"{sum(1 for r in regions if r.battlefield)} ancient battlefields; "
        f"{len(m.geometry.borders())} borders: {kinds['open']} open, {kinds['river']} river, "
        f"{kinds['bridge']} bridge, {kinds['mountain']} mountain.\n"
    )


def map_tables(key: str) -> str:
    """A map's summary, kingdoms, regions (with their neighbours) and non-open borders."""
    m = load_map(key)
    out = _map_summary(m) + "\n"
    out += _table(
        ("Kingdom", "Name", "Colour", "Regions"),
        (
            (f"`{k.key}`", k.name, k.colour, ", ".join(f"`{r}`" for r in k.regions))
            for k in m.kingdoms.values()
        ),
    )
    rows = []
    for rid in m.geometry.ids:
        r = m.regions[rid]
        city = "" if r.city is None else f"{r.city} ({r.tax})" + (", capital" if r.capital else "")
        rows.append(
            (
                f"`{rid}`",
                r.name,
                r.kingdom or f"{r.people} land",
                city,
                "yes" if r.battlefield else "",
                ", ".join(f"`{x}`" for x in r.locations),
                ", ".join(m.geometry.neighbours(rid)),
            )
        )
    out += "\n" + _table(
        ("Region", "Name", "Kingdom or land", "City (tax)", "Battlefield", "Locations", "Neighbours"), rows
    )
    special = [b for b in m.geometry.borders() if b.kind != "open"]
    if special:
        out += "\n" + _table(("Border", "Kind"), ((f"{b.a} / {b.b}", b.kind) for b in special))
    else:
        out += "\nNo river, bridge or mountain border in the data: every border is open ground.\n"
    return out


def locations_table() -> str:
    """The 15 special locations: kind, region on each map, the quests there."""
    maps = [load_map(k) for k in MAPS]
    quests = rules().quests.values()
    rows = []
    for key, (name, kind) in LOCATIONS.items():
        here = ", ".join(
            f"`{q.key}` ({q.vp}{', sacred' if q.sacred else ''})" for q in quests if q.location == key
        )
        rows.append((f"`{key}`", name, kind, *(m.location_region[key] for m in maps), here))
    return _table(("Location", "Name", "Kind", *(f"Region on `{k}`" for k in MAPS), "Quests (VP)"), rows)


def _kinds(values: Iterable[str]) -> str:
    c = Counter(values)
    return ", ".join(f"`{k}` x{n}" for k, n in c.items())


def quests_table() -> str:
    """The 30 quest cards."""
    qs = rules().quests
    rows = (
        (
            i,
            f"`{q.key}`",
            q.name,
            q.monster,
            f"`{q.location}`",
            q.vp,
            "sacred" if q.sacred else "lesser",
            q.designed,
        )
        for i, q in qs.items()
    )
    head = f"{len(qs)} cards: {sum(q.sacred for q in qs.values())} sacred, "
    head += f"{sum(not q.sacred for q in qs.values())} lesser.\n\n"
    return head + _table(("#", "Key", "Name", "Monster", "Location", "VP", "Sacred", "Why"), rows)


def conquests_table() -> str:
    """The 40 conquest cards."""
    cs = rules().conquests
    head = f"{len(cs)} cards; objectives: {_kinds(c.objective for c in cs.values())}.\n\n"
    rows = (
        (i, f"`{c.key}`", c.name, f"`{c.objective}` {_params(c.params)}", c.vp, c.designed)
        for i, c in cs.items()
    )
    return head + _table(("#", "Key", "Name", "Objective", "VP", "Why"), rows)


def events_table() -> str:
    """The 30 event cards."""
    es = rules().events
    head = f"{len(es)} cards; effects: {_kinds(e.effect for e in es.values())}.\n\n"
    rows = (
        (i, f"`{e.key}`", e.name, f"`{e.effect}` {_params(e.params)}", e.text, e.designed)
        for i, e in es.items()
    )
    return head + _table(("#", "Key", "Name", "Effect", "Text", "Why"), rows)


def powers_table() -> str:
    """The 51 power cards."""
    ps = rules().powers
    n_event = sum(p.event for p in ps.values())
    head = f"{len(ps)} cards ({len(ps) - n_event} held, {n_event} event power cards); costs "
    head += f"{min(p.cost for p in ps.values())}..{max(p.cost for p in ps.values())} gold; effects: "
    head += f"{_kinds(p.effect for p in ps.values())}.\n\n"
    rows = (
        (
            i,
            f"`{p.key}`",
            p.name,
            p.cost,
            f"`{p.effect}` {_params(p.params)}",
            "event" if p.event else "",
            p.text,
            p.designed,
        )
        for i, p in ps.items()
    )
    return head + _table(("#", "Key", "Name", "Cost", "Effect", "Event", "Text", "Why"), rows)


def scenarios_table() -> str:
    """The shipped scenarios."""
    rows = []
    for name in scenario_names():
        s = load_scenario(name)
        rows.append((f"`{name}`", s.title, f"`{s.map}`", s.players, s.rounds, s.emperor_quests, s.designed))
    return _table(("Scenario", "Title", "Map", "Players", "Rounds", "Emperor quests", "Why"), rows)


def die_table() -> str:
    """The combat die's six faces in face order (the chance outcome 1..6)."""
    return _table(
        ("Face", *(str(i) for i in range(1, len(COMBAT_FACES) + 1))), [("combat die", *COMBAT_FACES)]
    )


BLOCKS: dict[str, Callable[[], str]] = {
    "constants": constants_table,
    "troops": troops_table,
    "die": die_table,
    "map-myrathia": lambda: map_tables("myrathia"),
    "map-marches": lambda: map_tables("marches"),
    "locations": locations_table,
    "quests": quests_table,
    "conquests": conquests_table,
    "events": events_table,
    "powers": powers_table,
    "scenarios": scenarios_table,
}
"""Each generated part of the record by its mark name."""


def write(path: Path = DOC) -> list[str]:
    """Rewrite every generated part of the record from the data; returns the names of those that changed."""
    text = path.read_text(encoding="utf-8")
    changed: list[str] = []

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        new = BLOCKS[name]()
        if new != m.group(2):
            changed.append(name)
        return f"<!-- data:{name} -->\n{new}<!-- /data:{name} -->"

    path.write_text(BLOCK.sub(fill, text), encoding="utf-8")
    return changed


# ---------------------------------------------------------------- reading the record


def doc_text() -> str:
    """The record's text."""
    return DOC.read_text(encoding="utf-8")


def cells(line: str) -> list[str]:
    """A markdown table row's cells, stripped (an escaped pipe stays inside its cell)."""
    return [c.strip() for c in CELL.split(line.strip())[1:-1]]


def clause_rows() -> dict[str, tuple[str, str]]:
    """Each clause of the clause file by id: (its clause cell, its notes cell)."""
    text = shared_file("rules", f"{GAME}-clauses.md").read_text(encoding="utf-8")
    return {
        parts[0]: (parts[1], parts[2]) for parts in (cells(x) for x in text.splitlines() if ENTRY.match(x))
    }


def entry_rows() -> dict[str, list[list[str]]]:
    """The record's clause rows (their cells) by the id in their first cell."""
    rows: dict[str, list[list[str]]] = {}
    for line in doc_text().splitlines():
        match = ENTRY.match(line)
        if match:
            rows.setdefault(match.group(1), []).append(cells(line))
    return rows


def blocks() -> dict[str, str]:
    """The generated parts of the record by name."""
    return {m.group(1): m.group(2) for m in BLOCK.finditer(doc_text())}


# ---------------------------------------------------------------- the clauses


def test_every_defined_clause_is_cited() -> None:
    """Each clause id of the clause file appears in the record (WQ-IN-01 .. WQ-MS-44)."""
    defined = defined_clauses(GAME)
    assert len(defined) == 193 and {"WQ-IN-01", "WQ-CB-20", "WQ-MS-44"} <= defined
    missing = sorted(defined - clause_ids(DOC))
    assert not missing, f"clauses docs/rules/warquest.md never cites: {missing}"


def test_every_cited_clause_exists() -> None:
    """Each WQ- id the record names is a clause of the file (no typo, no invented id); a bare section
    (``WQ-MS``) is one of the file's sections."""
    cited = {cid for cid in clause_ids(DOC) if cid.startswith("WQ-")}
    sections = {cid.rsplit("-", 1)[0] for cid in defined_clauses(GAME)}
    unknown = sorted(cited - defined_clauses(GAME) - sections)
    assert not unknown, f"ids the record cites that the clause file does not define: {unknown}"


def test_each_clause_has_exactly_one_entry_row_with_its_text() -> None:
    """One row per clause, in the order of the clause file, four cells: id, the clause as the clause file
    words it, decision, code and tests; none empty."""
    rows = entry_rows()
    clauses = clause_rows()
    doubled = sorted(cid for cid, lines in rows.items() if len(lines) > 1)
    assert not doubled, f"clauses with more than one entry row: {doubled}"
    assert list(rows) == list(clauses), "the entry rows are not the clauses in the clause file's order"
    for cid, [row] in rows.items():
        assert len(row) == 4, f"{cid}: {len(row)} cells"
        assert all(row), f"{cid} has an empty cell"
        assert row[1] == clauses[cid][0], f"{cid}: the text is not the clause's: {row[1][:60]}"


def test_every_open_clause_has_its_decision_in_its_row() -> None:
    """A DECISION NEEDED / MISSING FROM SOURCE clause's decision opens with "Decided"; a missing part
    is marked **designed**."""
    rows = entry_rows()
    opened = {cid for cid, (c, n) in clause_rows().items() if any(m in c + n for m in OPEN_MARKS)}
    assert {"WQ-OB-03", "WQ-CB-01", "WQ-SP-14", "WQ-MS-01", "WQ-MS-44"} <= opened
    undecided = sorted(cid for cid in opened if not rows[cid][0][2].startswith("Decided"))
    assert not undecided, f"open clauses whose row does not say 'Decided': {undecided}"
    missing = [cid for cid, (c, _) in clause_rows().items() if "MISSING FROM SOURCE" in c]
    assert len(missing) == 44
    unmarked = sorted(cid for cid in missing if "**designed**" not in rows[cid][0][2])
    assert not unmarked, f"missing parts not marked designed: {unmarked}"


def test_every_file_the_record_names_exists() -> None:
    """The modules (relative to the package) and tests (relative to tests/games/warquest) of the Code and
    Tests cells are there."""
    names: set[str] = set()
    for rows in entry_rows().values():
        for row in rows:
            names.update(re.findall(r"`([\w/]+\.(?:py|toml))`", row[3]))
    assert {"battle.py", "movement.py", "test_battle.py", "data/troops.toml"} <= names
    missing = sorted(
        n for n in names if not ((TESTS / n) if n.startswith("test_") else (PACKAGE / n)).is_file()
    )
    assert not missing, f"files the record names that do not exist: {missing}"


# ---------------------------------------------------------------- the data


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_each_generated_table_equals_the_data(name: str) -> None:
    """The table between the ``data:NAME`` marks is what the data gives now (troops, maps, decks, ...);
    regenerate with ``python -m tests.games.warquest.test_rules_doc --write``."""
    found = blocks()
    assert name in found, f"the record has no generated part {name!r}"
    assert found[name] == BLOCKS[name](), f"the {name} table differs from the data: regenerate it"


def test_the_printed_troop_rows_are_marked_printed_with_the_text_s_numbers() -> None:
    """Exactly the four surviving rows (WQ-TR-01..04) say **printed**, with cost, attack and defence as the
    page prints them; every other row says designed."""
    table = blocks()["troops"]
    rows = {cells(x)[0].strip("`"): cells(x) for x in table.splitlines()[2:]}
    assert set(rows) == set(rules().troops)
    printed = {k for k, r in rows.items() if r[-1].startswith("**printed**")}
    assert printed == set(PRINTED)
    for key, (cost, attack, defence) in PRINTED.items():
        assert rows[key][4:7] == ["-" if cost is None else str(cost), str(attack), str(defence)], key
    assert all(r[-1].startswith("designed: ") for k, r in rows.items() if k not in PRINTED)


def test_every_troop_card_and_place_of_the_data_is_named() -> None:
    """Every troop kind, quest, conquest, event and power card, card kind, location, kingdom and region of
    the data is named in the record (in backticks)."""
    text = doc_text()
    r = rules()
    keys = list(r.troops)
    for deck in (r.quests, r.conquests, r.events, r.powers):
        keys += [c.key for c in deck.values()]
    keys += [c.objective for c in r.conquests.values()]
    keys += [e.effect for e in r.events.values()] + [p.effect for p in r.powers.values()]
    keys += list(LOCATIONS)
    for key in MAPS:
        m = load_map(key)
        keys += [key, *m.kingdoms, *m.regions]
    keys += scenario_names()
    assert "the_black_crown" in keys and "kingdom_all" in keys and "free_troops" in keys
    unnamed = sorted({k for k in keys if f"`{k}`" not in text})
    assert not unnamed, f"data entries the record never names: {unnamed}"


def test_every_constant_the_prose_quotes_is_the_data_s() -> None:
    """Each ``NAME = value`` in the record is the constant's value in data/rules.toml, and the prose quotes
    the constants a player looks up."""
    c = rules().constants
    quoted = re.findall(r"`([A-Z][A-Z_]+) = (-?\d+)`", doc_text())
    assert len(quoted) >= 20
    wrong = {n: v for n, v in quoted if str(getattr(c, n)) != v}
    assert not wrong, f"constants the record quotes otherwise than the data: {wrong}"
    names = {n for n, _ in quoted}
    assert {"START_GOLD", "MAX_BATTLE_ROUNDS", "PURSUIT_DICE", "BATTLE_VP", "OWNERSHIP_TOKENS"} <= names


def test_the_die_and_its_odds_are_the_text_s_reading() -> None:
    """WQ-CB-01: one hit face, one flee face, four blank (the record's chances 1/6, 1/6, 4/6)."""
    assert COMBAT_FACES.count("hit") == 1 and COMBAT_FACES.count("flee") == 1
    assert COMBAT_FACES.count("blank") == 4
    text = doc_text()
    assert "1/6 a hit, 1/6 a flee and 4/6 nothing" in text


def test_the_shuffle_is_described_as_setup_rolls_it() -> None:
    """Hidden information: a deck's shuffle is as many secret dice of as many faces as the record says."""
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight"}
    n, faces = setup.SHUFFLE_DICE, setup.SHUFFLE_PART
    said = f"Every shuffle is {words.get(n, str(n))} secret chance nodes (`Die({faces}, "
    assert said in " ".join(doc_text().split())


def test_the_cost_check_table_is_at_the_data_s_costs() -> None:
    """The cost check's table (a benchmark's output, too slow to rerun here) shows every buyable kind once,
    at the cost data/troops.toml gives it now: a moved cost makes the table stale until the benchmark is
    rerun."""
    found = re.search(r"<!-- cost-check -->\n(.*?)<!-- /cost-check -->", doc_text(), re.S)
    assert found, "the cost check has no table"
    rows = [cells(x) for x in found.group(1).splitlines() if x.startswith("| `")]
    shown = {r[0].strip("`"): r[1] for r in rows}
    assert len(shown) == len(rows)
    buyable = {k: str(t.cost) for k, t in rules().troops.items() if t.cost is not None}
    assert shown == buyable, "the cost check was measured at other costs: rerun benchmarks/warquest_costs.py"


def test_the_odds_example_is_the_odds_module_s() -> None:
    """The record's worked example (four Orc Infantry and two Orc Archers attack three Dwarf Infantry) quotes
    what ``battle_odds`` computes, to 4 places, exact (error 0)."""
    found = re.search(r"\(attacker (0\.\d{4}), defender (0\.\d{4}), error 0: exact", doc_text())
    assert found, "the odds example is not in the record"
    got = battle_odds(battle_from_armies({"orc_foot": 4, "orc_archer": 2}, {"dwarf_foot": 3}))
    assert got.error == 0.0
    assert (found.group(1), found.group(2)) == (f"{got.p_attacker_wins:.4f}", f"{got.p_defender_wins:.4f}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        print("regenerated:", ", ".join(write()) or "nothing (the record matches the data)")
    else:
        print(__doc__)
