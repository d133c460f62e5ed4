"""Undo in the browser (issue 12, section 5): the action bar's Undo button and the other player's question.

Valhalla's ``first_blood`` with seed 2 deals Ulf's card first, so the Raiders (seat 0) act at once. Against
the bot, a move is taken back at a tap; with two people at one touchscreen, the same screen asks the other
player (``undo-question``), who may decline or allow. The button is disabled with its reason whenever undo
is not allowed (``data-reason``, and the title a mouse pointer shows).
"""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, shot
from .kit import WAIT_MS, open_link, tid, version, wait_version

expect.set_options(timeout=WAIT_MS)


def create(server: Server, seats: list[str]) -> dict[str, Any]:
    """A shared-touchscreen Valhalla table; the Raiders (seat 0) act first."""
    req = {"game": "valhalla", "scenario": "first_blood", "seats": seats, "mode": "shared", "seed": 2}
    r = httpx.post(server.base + "/api/tables", json=req, timeout=10)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def open_table(browser: Browser, server: Server, made: dict[str, Any]) -> Page:
    """The table's shared link in a fresh page, the seat to act's view shown."""
    page = open_link(browser, server.base, made["links"]["table"])
    page.wait_for_function(
        """() => { const v = window.iwgtTable && window.iwgtTable.view;
                   return v && v.status === 'playing' && v.to_move === 0 && v.seat === 0 && !v.die; }"""
    )
    return page


def figures(page: Page) -> dict[str, str | None]:
    """Where every figure stands on the drawn table (its ``data-at``)."""
    at: dict[str, str | None] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-testid^="vh-figure-"]')]
                 .map(e => [e.dataset.testid, e.dataset.at]))"""
    )
    return at


def make_a_move(page: Page) -> None:
    """Tap the first figure that may move, then its first move point; wait for the move's view."""
    before = version(page)
    fid = page.evaluate("() => window.iwgtTable.view.options.movable[0]")
    tid(page, f"vh-figure-{fid}").click()
    page.wait_for_function(
        "f => window.iwgtTable.selection && window.iwgtTable.selection.unit === f", arg=fid
    )
    to = page.evaluate("() => window.iwgtTable.selection.moves[0].to")
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", to)
    page.mouse.click(xy[0], xy[1])
    wait_version(page, before + 1)


def no_page_errors(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert not errors, f"script errors: {errors}"


def test_against_the_bot_a_move_is_taken_back_at_a_tap(server: Server, browser: Browser) -> None:
    page = open_table(browser, server, create(server, ["human", "bot"]))
    try:
        button = tid(page, "undo-button")
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("data-reason", "a die was thrown since")  # the deal
        start, at_start = version(page), figures(page)
        make_a_move(page)
        expect(button).to_be_enabled()
        expect(button).to_have_attribute("title", "Take back the last step")
        assert figures(page) != at_start
        shot(page, "undo_01_moved")
        button.click()
        wait_version(page, start + 2)  # the move's row, then the undo's: the version never goes back
        assert figures(page) == at_start
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("title", "Undo: a die was thrown since")
        expect(tid(page, "undo-question")).to_have_count(0)  # nobody to ask
        no_page_errors(page)
    finally:
        page.close()


def test_at_one_touchscreen_the_other_player_declines_then_allows(server: Server, browser: Browser) -> None:
    page = open_table(browser, server, create(server, ["human", "human"]))
    try:
        button = tid(page, "undo-button")
        at_start = figures(page)
        make_a_move(page)
        moved = version(page)
        button.click()
        question = tid(page, "undo-question")
        expect(question).to_be_visible()
        expect(question).to_contain_text("asks to take back a step")
        expect(tid(page, "undo-what")).not_to_be_empty()  # the step in the game's words
        expect(button).to_be_disabled()
        expect(button).to_contain_text("Undo asked")
        shot(page, "undo_02_asked")
        tid(page, "undo-decline").click()
        expect(question).to_have_count(0)
        page.wait_for_function("() => window.iwgtTable.view.undo.declined === true")
        expect(button).to_be_enabled()
        assert version(page) == moved and figures(page) != at_start

        button.click()
        expect(question).to_be_visible()
        tid(page, "undo-allow").click()
        wait_version(page, moved + 1)
        expect(question).to_have_count(0)
        assert figures(page) == at_start
        expect(button).to_be_disabled()
        no_page_errors(page)
    finally:
        page.close()
