"""Pig in the browser: chosen on the game selection, then played through its own screen against the table's
bot up to Game Over. The table's dice are seeded 3 and both players follow the bot's rule, so the game is the
one of kit.py, worked out by hand: Anna (this page) wins 34 to 23. Screenshots: build/screenshots/pig_*."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect
from tests.browser.conftest import Server, shot

from iwgt.core.record import GameRecord, replay

from .kit import SEED, SUMMARY, expected_events

WAIT_MS = 15_000
"""How long a check waits for the page (a loaded 2-core machine runs the server, the browser and a bot)."""

expect.set_options(timeout=WAIT_MS)


def tid(page: Page, name: str) -> Locator:
    return page.get_by_test_id(name)


def version(page: Page) -> int:
    """The version of the view the page holds (read to know when a step is in; checks are on the DOM)."""
    v: int = page.evaluate("() => (window.iwgtTable?.view ? window.iwgtTable.view.version : -1)")
    return v


def wait_turn_or_over(page: Page, after: int) -> None:
    """Wait for a view newer than ``after`` in which this page is to act, or the game is over."""
    page.wait_for_function(
        """v => { const t = window.iwgtTable; return t && t.view && t.view.version > v
                 && (t.view.status !== 'playing' || t.view.to_move === t.view.seat); }""",
        arg=after,
        timeout=WAIT_MS,
    )


def seeded(route: Route) -> None:
    """The page's own create request, with the table's dice seeded."""
    body = json.loads(route.request.post_data or "{}")
    route.continue_(post_data=json.dumps({**body, "seed": SEED}))


@pytest.mark.timeout(180)
def test_pig_from_game_selection_to_game_over_against_the_bot(server: Server, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.base + "/")
        tid(page, "game-card-pig").click()
        expect(tid(page, "setup-panel")).to_contain_text("Pig")
        tid(page, "scenario-select").select_option("first_to_30")
        expect(tid(page, "seat-fields")).to_contain_text("Anna")
        tid(page, "seat-select-0").select_option("human")
        tid(page, "seat-select-1").select_option("bot")
        tid(page, "mode-shared").click()
        page.route("**/api/tables", seeded)
        tid(page, "play-button").click()
        page.wait_for_url(re.compile(r"/play/t-"))
        table = page.url.split("/play/")[1].split("#")[0]
        expect(tid(page, "conn-state")).to_have_attribute("data-state", "open")

        # Anna opens: she must roll before she may hold.
        expect(tid(page, "whose-turn")).to_have_text("Your turn: Anna")
        expect(tid(page, "pig-score-0")).to_have_text("Anna: 0")
        expect(tid(page, "pig-score-1")).to_have_text("Bruno: 0")
        expect(tid(page, "pig-turn-total")).to_have_text("Turn total: 0")
        expect(tid(page, "pig-roll")).to_be_enabled()
        expect(tid(page, "pig-hold")).to_be_disabled()
        shot(page, "pig_01_first_turn")
        tid(page, "pig-roll").click()
        expect(tid(page, "pig-turn-total")).to_have_text("Turn total: 4")  # the first face of seed 3
        expect(tid(page, "pig-hold")).to_be_enabled()

        # Then by the bot's rule, read off the screen: hold at 20 or at what wins.
        clicks = 1
        while True:
            wait_turn_or_over(page, version(page) - 1)
            if page.evaluate("() => window.iwgtTable.view.status") != "playing":
                break
            expect(tid(page, "pig-roll")).to_be_enabled()
            total = int(tid(page, "pig-turn-total").inner_text().split(": ")[1])
            score = int(tid(page, "pig-score-0").get_attribute("data-score") or "0")
            button = "pig-hold" if total and (total >= 20 or score + total >= 30) else "pig-roll"
            before = version(page)
            tid(page, button).click()
            clicks += 1
            page.wait_for_function("v => window.iwgtTable.view.version > v", arg=before)
            if clicks == 5:  # Anna's fifth roll was a 1 (kit.py)
                expect(tid(page, "log")).to_contain_text("Anna rolls a 1 and loses 18")
                shot(page, "pig_02_rolled_one")

        expect(tid(page, "game-over-modal")).to_be_visible()
        expect(tid(page, "game-over-winner")).to_have_text("Anna wins!")
        expect(tid(page, "game-over-reason")).to_have_text(SUMMARY["reason"])
        expect(tid(page, "pig-final-scores")).to_have_text(re.compile(r"Anna: 34\s*Bruno: 23"))
        expect(tid(page, "log")).to_contain_text("Anna wins with 34")
        expect(tid(page, "whose-turn")).to_have_text("Game over")
        shot(page, "pig_03_game_over")
        assert clicks == 24  # Anna's 22 rolls and 2 holds

        # The table's record is the game of kit.py, step for step.
        record = GameRecord.from_json(httpx.get(f"{server.base}/api/tables/{table}/record").json())
        events = [e.to_json() for e in replay(record).events]
        assert events == [e for batch in expected_events() for e in batch]
        assert len(record.steps) == SUMMARY["steps"]

        tid(page, "new-game").click()
        page.wait_for_url(server.base + "/")
        expect(tid(page, "game-card-pig")).to_be_visible()
        assert not errors, errors
    finally:
        page.close()
