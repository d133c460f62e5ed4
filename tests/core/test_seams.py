"""The seam where a game plugs in: no shared file names a game, and the shared layers reach games only
through the registry's plug-ins (issue 11; the import contracts are in pyproject.toml, checked by
lint-imports)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iwgt.core.registry import game_names, get_plugin

SRC = Path(__file__).resolve().parents[2] / "src" / "iwgt"
SHARED = [
    *sorted((SRC / "core").rglob("*.py")),
    *sorted((SRC / "geometry").rglob("*.py")),
    *sorted((SRC / "ai").rglob("*.py")),
    *sorted((SRC / "table").rglob("*.py")),
    *sorted((SRC / "hardware").rglob("*.py")),
    *sorted(p for p in (SRC / "hardware").rglob("*") if p.suffix in (".js", ".css", ".html", ".toml")),
    *sorted((SRC / "server").rglob("*.py")),
    SRC / "cli.py",
    *sorted(p for p in (SRC / "web").rglob("*") if p.suffix in (".js", ".css", ".html")),
]
"""Every shared Python and browser file: the layers below and above the games, and the browser shell."""


def _words_of_games() -> list[str]:
    """Every registered game's name and title, as a shared file must never spell them."""
    words: set[str] = set()
    for name in game_names():
        facts = get_plugin(name).facts
        words |= {name, facts.title}
    return sorted(words, key=len, reverse=True)


def test_the_shared_files_are_found() -> None:
    assert len(SHARED) > 30 and all(p.is_file() for p in SHARED)
    assert {"registry.py", "app.py", "app.js", "cli.py"} <= {p.name for p in SHARED}


def _games_named_in(text: str) -> list[str]:
    """Where a text names a game: "line N: ...context..." for each hit, in any case."""
    hits = []
    for word in _words_of_games():
        for m in re.finditer(re.escape(word), text, flags=re.IGNORECASE):
            where = text.count("\n", 0, m.start()) + 1
            hits.append(f"line {where}: {word!r} in {text[max(0, m.start() - 30) : m.end() + 30]!r}")
    return hits


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(SRC)))
def test_no_shared_file_names_a_game(path: Path) -> None:
    hits = _games_named_in(path.read_text(encoding="utf-8"))
    assert not hits, f"{path.relative_to(SRC)} names a game:\n" + "\n".join(hits[:5])


def test_the_check_would_catch_a_game_name() -> None:
    """The scan itself can fail: a file that names a game is caught, case and all."""
    assert {"valkyrx", "Days of the Valkyrx", "valhalla"} <= set(_words_of_games())
    assert _games_named_in("x = 1\n// the hex board of DAYS OF THE VALKYRX\n")[0].startswith("line 2:")
    assert _games_named_in("const SCREENS = { valhalla: 1 };")
    assert not _games_named_in("// the board of any game")


def test_each_game_screen_is_where_the_shell_looks_for_it() -> None:
    for name in game_names():
        web = get_plugin(name).web
        if web is not None:
            screen = Path(web) / "screen.js"
            assert screen.is_file(), f"{name} has a web folder without screen.js"
            assert re.search(r"export\s+class\s+Screen\b", screen.read_text(encoding="utf-8"))


def test_each_game_is_found_through_its_entry_point_and_declares_its_facts() -> None:
    for name in game_names():
        plugin = get_plugin(name)
        assert plugin.name == name == plugin.facts.name == plugin.game.name
        assert plugin.facts.rules_version == plugin.game.rules_version
