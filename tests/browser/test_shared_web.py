"""The shared touchscreen files name no game: each game's words, dialogs and look live in its own web folder.

A static check of ``src/iwgt/web`` (no browser): the shell and the boards must serve every game alike
(docs/screen-shell.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iwgt.core.registry import plugins

WEB = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "web"
SHARED = sorted(p for p in WEB.iterdir() if p.suffix in (".js", ".css", ".html"))


def _forbidden() -> list[str]:
    """Every registered game's name and title (the two games' always, even if one is not installed)."""
    words = {"valkyrx", "valhalla", "days of the valkyrx"}
    for plugin in plugins():
        words.add(plugin.name.lower())
        words.add(plugin.facts.title.lower())
    return sorted(words)


def test_the_shared_files_are_found() -> None:
    names = {p.name for p in SHARED}
    assert {
        "shell.js",
        "app.js",
        "board.js",
        "inchboard.js",
        "regionboard.js",
        "style.css",
        "index.html",
    } <= names
    assert "catalog.js" not in names and "panels.js" not in names


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_a_shared_file_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    found = [w for w in _forbidden() if re.search(re.escape(w), text)]
    assert not found, f"{path.name} names {found}"


def test_each_game_screen_is_where_the_shell_looks_for_it() -> None:
    for plugin in plugins():
        if plugin.web is not None:
            screen = Path(plugin.web) / "screen.js"
            assert screen.is_file(), f"{plugin.name} has a web folder without screen.js"
            assert re.search(r"export\s+class\s+Screen\b", screen.read_text(encoding="utf-8"))
