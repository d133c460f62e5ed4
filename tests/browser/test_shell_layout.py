"""The table screen's shell at a phone's, a portrait tablet's and a landscape tablet's size, its messages, and
the combat report that opens at once while the mover's clock waits for it (issue 12, "What went wrong at the
table").

Every size is checked the same way: nothing in the header is cut (each element's ``scrollWidth`` fits its
``clientWidth``, and the page is no wider than the screen), the phase is written at a readable size, every
button of the action bar lies within the screen, the board's smallest text is at least 10 CSS pixels when the
board is zoomed to be read (at once on a phone, by its button on a tablet), and a message (toast) covers
neither the board, its legend nor its scale.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from .conftest import Server, shot

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET_PORTRAIT: ViewportSize = {"width": 768, "height": 1024}
TABLET_LANDSCAPE: ViewportSize = {"width": 1024, "height": 768}
SIZES = {"phone": PHONE, "tablet-portrait": TABLET_PORTRAIT, "tablet-landscape": TABLET_LANDSCAPE}

READABLE_PX = 10.0
"""The smallest board text a player can read (shell.js READABLE_PX)."""

# (game, scenario, the scenario's title as the lobby shows it): the longest title of each game's scenarios
GAMES = {
    "valkyrx": ("great_battle", "The Battle of Castle Môdigian"),
    "valhalla": ("first_blood", "First blood"),
}


def tid(page: Page, name: str) -> Locator:
    return page.get_by_test_id(name)


def new_table(server: Server, game: str, scenario: str, **extra: Any) -> dict[str, Any]:
    body = {
        "game": game,
        "scenario": scenario,
        "seats": ["human", "bot"],
        "mode": "shared",
        "seed": 5,
        **extra,
    }
    r = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.fixture(scope="module")
def tables(server: Server) -> dict[str, dict[str, Any]]:
    """One table of each game, a person against the bot, shared by the sizes (nothing is played on them)."""
    return {game: new_table(server, game, scenario) for game, (scenario, _) in GAMES.items()}


@pytest.fixture(scope="module")
def errors() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert not found, found


def open_table(
    browser: Browser, link: str, size: ViewportSize, errors: list[str], zoom: str | None = None
) -> Page:
    page = browser.new_page(viewport=size)
    page.on("pageerror", lambda e: errors.append(str(e)))
    if zoom is not None:  # this device's zoom choice, as the board's button keeps it
        page.add_init_script(f"localStorage.setItem('iwgt-board-zoom', '{zoom}')")
    page.goto(link)
    expect(tid(page, "whose-turn")).not_to_be_empty()
    expect(tid(page, "phase")).not_to_be_empty()
    return page


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
              .map(e => e.getBoundingClientRect().toJSON())""",
        selector,
    )
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def smallest_board_text(page: Page) -> float:
    """The smallest text of the board as drawn, in CSS pixels (its font size times the board's scale)."""
    px: float = page.evaluate(
        """() => {
          const svg = document.querySelector('.board-host svg.board');
          const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
          const scale = Math.min(r.width / vb.width, r.height / vb.height);
          const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize));
          return sizes.length ? Math.min(...sizes) * scale : Infinity;
        }"""
    )
    return px


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size_name", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_nothing_is_cut_and_the_board_reads(
    server: Server,
    browser: Browser,
    tables: dict[str, dict[str, Any]],
    errors: list[str],
    game: str,
    size_name: str,
) -> None:
    size = SIZES[size_name]
    page = open_table(browser, tables[game]["links"]["table"], size, errors)
    try:
        # The scenario's whole name, the phase and whose turn it is: wrapped, never cut, all on the screen.
        expect(tid(page, "table-title")).to_have_text(GAMES[game][1])
        for name in ("table-title", "phase", "whose-turn", "conn-state"):
            el = tid(page, name)
            fits = el.evaluate("e => [e.scrollWidth, e.clientWidth]")
            assert fits[0] <= fits[1], f"{name} is cut at {size_name}: {fits}"
            box = el.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (
                f"{name} leaves the screen at {size_name}: {box}"
            )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        phase_px = float(tid(page, "phase").evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        assert phase_px >= 14, f"the phase is written at {phase_px}px at {size_name}"

        # Every button of the action bar can be reached without scrolling.
        buttons = boxes(page, ".actionbar .btn")
        assert buttons, "no button in the action bar"
        for b in buttons:
            assert b["left"] >= 0 and b["right"] <= size["width"] + 0.5, f"a button off screen: {b}"
            assert b["top"] >= 0 and b["bottom"] <= size["height"] + 0.5, f"a button below the fold: {b}"
            assert b["bottom"] - b["top"] >= 44, f"a button too small to tap: {b}"
        if size is PHONE:
            # The table's own buttons (Undo, Help, Tap for help, Options) shrink to their icons, so the bar
            # is one row and the board keeps the height; each keeps its name for a screen reader.
            assert len({round(b["top"]) for b in buttons}) == 1, f"the action bar wraps on a phone: {buttons}"
            for name in ("undo-button", "help-button", "help-tap", "options-button"):
                expect(tid(page, name)).to_have_attribute("aria-label", re.compile(r"\w"))

        # The board: on a phone it is drawn to be read at once; elsewhere its button zooms it to be read.
        zoom = tid(page, "board-zoom")
        if size is PHONE:
            expect(page.locator(".board-host")).to_have_class("board-host zoomed")
        elif zoom.is_visible():
            assert smallest_board_text(page) < READABLE_PX  # the button is offered only where it is needed
            board = page.locator(".board-host svg.board").bounding_box()
            assert board is not None and board["x"] + board["width"] <= size["width"] + 0.5
            zoom.click()
            expect(zoom).to_have_text("Whole board")
        text = smallest_board_text(page)
        assert text >= READABLE_PX - 0.05, f"the board's smallest text is {text:.1f}px at {size_name}"
        shot(page, f"layout_{game}_{size_name}")
        if zoom.is_visible():
            zoom.click()  # back to the whole board: the choice is this device's, kept for the next page
            expect(zoom).to_have_text("Zoom in")
            assert page.evaluate("() => localStorage.getItem('iwgt-board-zoom')") == "fit"

        # A message covers neither the board, nor its legend and scale; it stays on the screen.
        page.evaluate("() => window.iwgtTable.send({type: 'no_such_action'})")  # refused: a toast
        toast = tid(page, "toast").last
        expect(toast).to_be_visible()
        t = toast.bounding_box()
        assert t is not None
        t_box = {"left": t["x"], "right": t["x"] + t["width"], "top": t["y"], "bottom": t["y"] + t["height"]}
        assert t_box["right"] <= size["width"] + 0.5 and t_box["bottom"] <= size["height"]
        for covered in (*boxes(page, ".board-area"), *boxes(page, "[data-testid=legend]")):
            assert not overlap(t_box, covered), (
                f"the message covers the board or its legend: {t_box} {covered}"
            )
        for b in buttons:
            assert not overlap(t_box, b), f"the message covers an action button: {t_box} {b}"
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_a_clause_id_is_never_broken(server: Server, browser: Browser, errors: list[str]) -> None:
    """A message that must wrap right at a clause id moves the whole id to the next line."""
    page = browser.new_page(viewport=PHONE)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.base + "/")
        expect(tid(page, "game-cards")).to_be_visible()
        lines = page.evaluate(
            """async () => {
              const { toast } = await import('/static/ui.js');
              document.getElementById('toasts').style.width = '15ch';
              toast('A move breaks rule VK-MV-03 and VX-SP-COMMAND-4 of the rulebook.', 'error', 60000);
              const spans = [...document.querySelectorAll('[data-testid=toast] .clause')];
              const style = (s) => getComputedStyle(s).whiteSpace;
              return spans.map(s => [s.textContent, s.getClientRects().length, style(s)]);
            }"""
        )
        assert lines == [["VK-MV-03", 1, "nowrap"], ["VX-SP-COMMAND-4", 1, "nowrap"]]
        text = tid(page, "toast").inner_text().replace("\n", " ")
        assert text == "A move breaks rule VK-MV-03 and VX-SP-COMMAND-4 of the rulebook."
    finally:
        page.close()


@pytest.mark.timeout(120)
def test_the_combat_report_opens_at_once_and_the_clock_waits_for_it(
    server: Server, browser: Browser, errors: list[str]
) -> None:
    """Turn 1's combat ends: the health bars open with the view that brings them (not after the lights), the
    mover's two minutes stay whole while they are read, and run, from two minutes, once OK is pressed."""
    made = new_table(server, "valkyrx", "skirmish", timer_seconds=120)
    page = open_table(browser, made["links"]["table"], TABLET_LANDSCAPE, errors)
    try:
        # Every view the shell shows is noted with whether the report was open when showView returned.
        page.evaluate(
            """() => {
              const shell = window.iwgtTable, show = shell.showView.bind(shell);
              window.shown = [];
              shell.showView = (view) => {
                show(view);
                window.shown.push({version: view.version, report: Boolean(view.report),
                  open: document.querySelector('[data-testid=report-modal]') !== null});
              };
            }"""
        )
        # The person deploys and ends each movement phase at once; the bot plays its own.
        moves = 0
        while not page.evaluate("() => window.shown.some(s => s.report)"):
            state = page.evaluate(
                """() => { const v = window.iwgtTable.view;
                   return [v.version, v.to_move, v.observation.phase, v.status]; }"""
            )
            version, to_move, phase, status = state
            assert status == "playing" and moves < 6, state
            if to_move == 0:
                action = "confirm" if phase == "deploy" else "end_phase"
                page.evaluate(f"() => window.iwgtTable.send({{type: '{action}'}})")
                moves += 1
            page.wait_for_function(
                "v => window.iwgtTable.view.version > v || window.shown.some(s => s.report)", arg=version
            )
        first = page.evaluate("() => window.shown.find(s => s.report)")
        assert first["open"], "the report did not open with the view that brought it"
        report = tid(page, "report-modal")
        expect(report).to_be_visible()

        # While it is open the person's turn-2 movement timer (now or after the bot's move) is held whole.
        page.wait_for_function(
            """() => { const v = window.iwgtTable.view;
               return v.to_move === 0 && v.observation.phase === 'movement' && v.timer && v.timer.held; }"""
        )
        timer = tid(page, "timer")
        expect(timer).to_have_class("timer held mine")
        expect(timer).to_have_text("2:00")
        shot(page, "report_held_timer")
        held = page.evaluate("() => window.iwgtTable.view.timer")
        assert held["remaining"] == 120 and held["deadline"] is None
        assert report.is_visible()

        tid(page, "report-ok").click()
        page.wait_for_function("() => window.iwgtTable.view.timer && !window.iwgtTable.view.timer.held")
        running = page.evaluate("() => window.iwgtTable.view.timer")
        assert running["seat"] == 0 and running["total"] == 120
        # Running now, towards a deadline (its exact start: tests/server/test_report_timer.py).
        assert running["deadline"] is not None and running["remaining"] > 0
        expect(timer).not_to_have_class("timer held mine")
        expect(report).to_have_count(0)
    finally:
        page.close()


@pytest.mark.timeout(120)
def test_the_saved_games_list_words_status_and_turn_after_a_restart(
    server: Server, browser: Browser, errors: list[str]
) -> None:
    """A finished, a quit and a game in play, listed after the server restarted: each with its state in words
    and its turn (never "turn null")."""
    done = new_table(server, "valkyrx", "first_battle", seats=["bot", "bot"])
    quit_ = new_table(server, "valkyrx", "skirmish")
    playing = new_table(server, "valhalla", "first_blood")
    # Two bots play their whole game by themselves (the test's timeout ends a game that never does).
    while httpx.get(f"{server.base}/api/tables/{done['id']}", timeout=10).json()["status"] == "playing":
        time.sleep(0.2)
    page = open_table(browser, quit_["links"]["table"], TABLET_LANDSCAPE, errors)
    try:
        tid(page, "options-button").click()
        tid(page, "options-quit").click()
        tid(page, "confirm-yes").click()
        page.wait_for_url(server.base + "/")
    finally:
        page.close()
    turns = {t["id"]: t["turn"] for t in httpx.get(server.base + "/api/tables", timeout=10).json()}
    server.stop()
    server.start()  # the same journal: finished and quit games are no longer in the server's memory
    lobby = browser.new_page(viewport=TABLET_LANDSCAPE)
    lobby.on("pageerror", lambda e: errors.append(str(e)))
    try:
        lobby.goto(server.base + "/")
        expected = {
            done["id"]: f"finished · turn {turns[done['id']]}",
            quit_["id"]: "quit · turn 0",  # quit while deploying: the game counts that turn 0
            playing["id"]: "in play · turn 1",
        }
        assert isinstance(turns[done["id"]], int)
        for table_id, words in expected.items():
            row = tid(lobby, f"saved-{table_id}")
            expect(row).to_contain_text(words)
            expect(row).not_to_contain_text("null")
        shot(lobby, "lobby_saved_after_restart")
    finally:
        lobby.close()
