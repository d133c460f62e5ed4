"""Physical dice with labelled faces: the shell's die dialog draws each face as printed on the die (its
label, in the die's colour), keeps the test ids ``die-face-<n>`` and sends the face's number; a plain die is
unchanged.

The dialog is opened straight from the shell module (``askDie``), as a view with such a die opens it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.conftest import Server
from tests.browser.kit import WAIT_MS, tid

OPEN = """async (die) => {
  const shell = await import("/static/shell.js");
  window.faces = [];
  shell.askDie(die, (face) => window.faces.push(face));
}"""


@pytest.fixture
def page(server: Server, browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server.base + "/")
    yield page
    page.close()


GAME_DICE_CSS = '.die-face[data-colour="black"] { --die-bg: rgb(21, 21, 21); --die-fg: rgb(240, 240, 240); }'
"""What a game's own stylesheet does for its dice (the shared sheet names no game's dice colours)."""


def test_a_labelled_die_shows_its_labels_in_its_colour(page: Page) -> None:
    labels = ["0", "0", "1", "1", "2", "kill"]
    page.add_style_tag(content=GAME_DICE_CSS)
    page.evaluate(
        OPEN,
        {"sides": 6, "purpose": "the volley", "hint": "roll a black die", "faces": labels, "colour": "black"},
    )
    dlg = tid(page, "die-dialog")
    expect(dlg).to_contain_text("Roll a black die for the volley")
    for n, label in enumerate(labels, start=1):
        face = tid(page, f"die-face-{n}")
        expect(face).to_have_text(label)
        expect(face).to_have_attribute("data-colour", "black")
        expect(face).to_have_attribute("aria-label", f"The die shows {label}")
    expect(tid(page, "die-face-7")).to_have_count(0)
    # Drawn in the colour the game's sheet gives the die (through style.css's --die-bg), not paper white.
    background = tid(page, "die-face-6").evaluate("el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(21, 21, 21)"
    ink = tid(page, "die-face-6").evaluate("el => getComputedStyle(el).color")
    assert ink == "rgb(240, 240, 240)"
    tid(page, "die-face-6").click()  # the 'kill' face is face 6: the number is what is sent
    expect(dlg).to_have_count(0)
    assert page.evaluate("() => window.faces") == [6]


def test_a_plain_die_still_shows_its_numbers(page: Page) -> None:
    page.evaluate(
        OPEN, {"sides": 6, "purpose": "who goes first", "hint": "roll a d6", "faces": [], "colour": ""}
    )
    expect(tid(page, "die-dialog")).to_contain_text("Roll a d6 for who goes first")
    expect(tid(page, "die-face-4")).to_have_text("4")
    expect(tid(page, "die-face-4")).not_to_have_attribute("data-colour", "")
    expect(tid(page, "die-face-4")).to_have_attribute("aria-label", "The die shows 4")
    tid(page, "die-face-4").click()
    assert page.evaluate("() => window.faces") == [4]
