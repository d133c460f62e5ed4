"""Checks every game's help at the table passes (``iwgt.core.help``), for ``tests/games/<game>/test_help.py``.

- every clause the help cites is a clause of ``shared/rules/<game>-clauses.md`` and is cited in
  ``docs/rules/<game>.md`` (so the decision it shows is the recorded one);
- every quote is the rulebook's own words: found in the game's seed text once its markup (bold marks, tags)
  and typography (quotation marks of any kind, runs of spaces) are set aside; an elision ``…`` splits it into
  parts found in order.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.shared import REPOSITORY, shared_file

from iwgt.core.help import GameHelp

_TAG = re.compile(r"<[^>]+>")
_CLAUSE = re.compile(r"\b[A-Z]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
_TYPOGRAPHY = str.maketrans(dict.fromkeys("“”‘’\"'*\\"))


def plain(text: str) -> str:
    """Text without markup, quotation marks or runs of spaces, in lower case: words compared as words."""
    text = _TAG.sub("", text).translate(_TYPOGRAPHY)
    return re.sub(r"\s+", " ", text).strip().lower()


def quoted_in(quote: str, source: str) -> bool:
    """Whether ``quote`` (its parts around ``…``, in order) is in ``source``, both made ``plain``."""
    at = 0
    body = plain(source)
    for part in (plain(p) for p in quote.split("…")):
        if not part:
            continue
        found = body.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def clause_ids(path: Path) -> set[str]:
    """Every clause id that a markdown file names."""
    return set(_CLAUSE.findall(path.read_text(encoding="utf-8")))


def defined_clauses(game: str) -> set[str]:
    """The clause ids the shared clauses file defines (the first cell of a table row)."""
    text = shared_file("rules", f"{game}-clauses.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| ([A-Z]{2}-[A-Z0-9-]+) \|", text, re.MULTILINE))


def check_clauses(help_: GameHelp, game: str) -> set[str]:
    """Every clause the help cites is in the shared clauses and cited in the rules doc; returns them."""
    assert help_.source is not None
    cited = help_.source.cited()
    assert cited, "the help cites no clause"
    unknown = sorted(cited - defined_clauses(game))
    assert not unknown, (
        f"clauses the help cites that shared/rules/{game}-clauses.md does not define: {unknown}"
    )
    undocumented = sorted(cited - clause_ids(REPOSITORY / "docs" / "rules" / f"{game}.md"))
    assert not undocumented, f"clauses the help cites that docs/rules/{game}.md never cites: {undocumented}"
    return cited


def check_quotes(help_: GameHelp, seed: str) -> int:
    """Every quote is found in the seed (``shared/seeds/<seed>``); returns how many quotes were checked."""
    assert help_.source is not None
    source = shared_file("seeds", seed).read_text(encoding="utf-8")
    wrong = {c: r.quote for c, r in help_.source.rules.items() if r.quote and not quoted_in(r.quote, source)}
    assert not wrong, f"quotes not found in the rulebook ({seed}): {wrong}"
    return sum(1 for r in help_.source.rules.values() if r.quote)


def unquoted_clauses(help_: GameHelp) -> set[str]:
    """The clauses the help gives without a quote: the ones the text is silent on (decided or designed)."""
    assert help_.source is not None
    return {c for c, r in help_.source.rules.items() if not r.quote}
