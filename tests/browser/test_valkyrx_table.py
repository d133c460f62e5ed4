"""What went wrong at the Days of the Valkyrx table (issue 12, section 3), as the player sees it in the
browser: the hidden Grima's move screen, the casting banner's end, the odds labels' key, the terrain under the
lights, the board's edge numbers and the health-bar report's whole men.

The tables are made through the API and brought to the step a test needs through the WebSocket
(``socket_acts``, from test_play.py); everything checked is in the page. Screenshots: table_*.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, shot
from .test_play import (
    DARKNESS,
    ELLORGAST,
    FULL_HD,
    GRIMA,
    LIGHT,
    SWORDSMEN,
    WULFGELDRE,
    absolute,
    cell,
    committed,
    create_table,
    lit_cells,
    no_page_errors,
    open_page,
    socket_acts,
    table_at_light_movement,
    tid,
    token_of,
    version,
    wait_version,
)

PHONE: ViewportSize = {"width": 390, "height": 844}
FORD = (3, 3)  # first_battle's difficult ground, [3, 3] and [4, 3]
WEARG_WARRIORS_AT = (3, 4)


def light_page(server: Server, browser: Browser, viewport: ViewportSize = FULL_HD) -> Page:
    """The shared screen of a first_battle table, the Light to move in turn 1."""
    made = table_at_light_movement(server)
    page = open_page(browser, absolute(server, made["links"]["table"]), viewport)
    expect(tid(page, "whose-turn")).to_have_attribute("data-mine", "true")
    return page


# -- 1. the hidden Grima -------------------------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_the_hidden_grima_is_answered_and_her_card_says_what_she_does(
    server: Server, browser: Browser
) -> None:
    page = light_page(server, browser)
    try:
        committed(page, lambda: tid(page, f"grima-conceal-{GRIMA}").click())
        expect(tid(page, f"grima-symbol-{GRIMA}")).to_have_attribute("data-state", "hidden")
        # Her card says what she does, and what her owner may do.
        note = tid(page, f"card-note-{GRIMA}")
        expect(note).to_contain_text(
            "Hidden: she waits unseen where she is until you choose whom she follows"
        )
        expect(note).to_contain_text("Reveal her in your next movement phase")
        # Tapping her counter gets an answer (not "asking the table..." for ever), with the same words.
        tid(page, f"unit-{GRIMA}").click(force=True)
        expect(tid(page, "selected-note")).to_contain_text("Hidden: she waits unseen")
        expect(tid(page, "selected-unit")).not_to_contain_text("asking the table")
        # A tapped cell is not sent as a move the table cannot take: the screen says why, nothing changes.
        v = version(page)
        cell(page, 6, 1).click(force=True)
        toast = page.locator('[data-testid="toast"].toast-error').last
        expect(toast).to_contain_text("Hidden")
        expect(toast).not_to_contain_text("no longer on the table")
        assert version(page) == v
        shot(page, "table_01_hidden_grima")
        # With a quarry, the card tells what the table will do with her at the end of the phase.
        tid(page, "put-down").click()
        tid(page, f"grima-symbol-{GRIMA}").click()
        committed(page, lambda: tid(page, f"quarry-{ELLORGAST}").click())
        expect(tid(page, f"card-note-{GRIMA}")).to_contain_text(
            "she moves by herself once both sides have moved, after Ellorgast"
        )
        no_page_errors(page)
    finally:
        page.close()


# -- 4, 5, 6. odds labels with a key, terrain under the lights, the board's edges ----------------------------


@pytest.mark.timeout(90)
def test_odds_have_a_key_lit_ground_keeps_its_terrain_and_the_edges_are_numbered(
    server: Server, browser: Browser
) -> None:
    page = light_page(server, browser)
    try:
        # No odds on the board, no key in the legend.
        expect(tid(page, "legend-odds")).to_have_count(0)
        tid(page, f"unit-{SWORDSMEN}").click(force=True)
        label = tid(page, f"preview-{WEARG_WARRIORS_AT[0]}-{WEARG_WARRIORS_AT[1]}")
        # The forecast by hand (test_selection_preview): 28.8 men (9.6%), the swordsmen lose 19.2: whole men.
        expect(label.locator("text")).to_have_text("−29 (10%) · us −19")
        assert "Expected losses if you attack" in (label.locator("title").text_content() or "")
        key = tid(page, "legend-odds")
        expect(key).to_be_visible()
        expect(key).to_contain_text("Expected losses if you attack: theirs in men")
        labels: list[str] = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid^="preview-"] text')]
                 .map(e => e.textContent)"""
        )
        assert len(labels) == 3, labels  # both Wearg units and the Cave Troll (first_battle's Darkness)
        for text in labels:
            assert not re.search(r"−0\b|\d\.\d", text), f"a preview shows a fraction or −0: {text!r}"
        # The Cave Troll stands beside the Wearg Warriors: their labels never cover each other.
        plates: list[dict[str, float]] = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid^="preview-"] rect')].map(r => {
                 const b = r.getBoundingClientRect();
                 return {l: b.left, r: b.right, t: b.top, b: b.bottom}; })"""
        )
        for i, a in enumerate(plates):
            for b in plates[i + 1 :]:
                apart = a["r"] <= b["l"] or b["r"] <= a["l"] or a["b"] <= b["t"] or b["b"] <= a["t"]
                assert apart, f"two odds labels overlap: {a} {b}"
        # The Ford is lit for a charge, and its difficult ground still shows, drawn above the light.
        assert FORD in lit_cells(page, "charge")
        ground = tid(page, f"ground-{FORD[0]}-{FORD[1]}")
        expect(ground).to_have_attribute("data-terrain", "difficult")
        above: bool = page.evaluate(
            """() => {
                 const b = document.querySelector('[data-testid="board"]');
                 const lights = b.querySelector('.layer-lights'), ground = b.querySelector('.layer-ground');
                 return Boolean(lights.compareDocumentPosition(ground) & Node.DOCUMENT_POSITION_FOLLOWING)
                   && lights.querySelectorAll('polygon').length > 0;
               }"""
        )
        assert above, "the terrain texture is not drawn above the lights"
        assert (ground.get_attribute("fill") or "").startswith("url(#hexpat-")
        shot(page, "table_02_odds_key_and_lit_ford")
        # The edges: a number for every column and every row, in line with the cells they name.
        for c in range(8):
            expect(tid(page, f"edge-col-{c}")).to_have_text(str(c))
        for r in range(6):
            expect(tid(page, f"edge-row-{r}")).to_have_text(str(r))
        col3, cell30 = tid(page, "edge-col-3").bounding_box(), cell(page, 3, 0).bounding_box()
        assert col3 and cell30
        assert cell30["x"] < col3["x"] + col3["width"] / 2 < cell30["x"] + cell30["width"]
        row4, cell04 = tid(page, "edge-row-4").bounding_box(), cell(page, 0, 4).bounding_box()
        assert row4 and cell04
        assert cell04["y"] < row4["y"] + row4["height"] / 2 < cell04["y"] + cell04["height"]
        # Options: Add troops is off, and says why (first_battle has no late troops).
        tid(page, "options-button").click()
        expect(tid(page, "options-add-troops")).to_be_disabled()
        expect(tid(page, "options-add-troops")).to_have_text(
            "Add troops: no late troops of yours are waiting"
        )
        tid(page, "options-close").click()
        no_page_errors(page)
    finally:
        page.close()


@pytest.mark.timeout(60)
def test_the_edge_numbers_are_readable_on_a_phone(server: Server, browser: Browser) -> None:
    page = light_page(server, browser, PHONE)
    try:
        expect(tid(page, "board")).to_be_visible()
        heights = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid^="edge-"]')]
                 .map(el => el.getBoundingClientRect().height).filter(h => h > 0)"""
        )
        assert heights, "no edge numbers on the phone"
        assert min(heights) >= 8, f"edge numbers {min(heights):.1f}px tall on a phone"
        shot(page, "table_03_phone_edges")
    finally:
        page.close()


# -- 3. the casting banner ends with its casting -------------------------------------------------------------


BANNER_GONE_MS = 2000
"""How long a banner that should be gone may take to go: the next redraw, far under its own 6 s."""


def banner_hidden(page: Page) -> bool:
    hidden: bool = page.evaluate("() => document.querySelector('[data-testid=\"casting-banner\"]').hidden")
    return hidden


@pytest.mark.timeout(120)
def test_the_casting_banner_ends_with_the_phase_and_is_not_replayed_on_a_reload(
    server: Server, browser: Browser
) -> None:
    # Seed 1: the Darkness moves first in turn 1 and the Light in turn 2, so the Light casts first in the last
    # turn (first_battle's new Darkness units change the dice drawn: seed 7's turn-2 d2 now goes to the
    # Darkness).
    made = create_table(server, mode="remote", seed=1)
    tokens = [token_of(link) for link in made["links"]["seats"]]
    spells = ["fire", "strength", "command", "shield", "courage", "speed"]
    socket_acts(
        server, made["id"], tokens[LIGHT], [(LIGHT, {"type": "spells", "unit": WULFGELDRE, "spells": spells})]
    )
    socket_acts(server, made["id"], tokens[LIGHT], [(LIGHT, {"type": "confirm"})])
    socket_acts(
        server,
        made["id"],
        tokens[DARKNESS],
        [(DARKNESS, {"type": "spells", "unit": ELLORGAST, "spells": []})],
    )
    view: dict[str, Any] = socket_acts(
        server, made["id"], tokens[DARKNESS], [(DARKNESS, {"type": "confirm"})]
    )

    def play_until_light_casts(view: dict[str, Any]) -> dict[str, Any]:
        """End every step but the Light's spells step (the seat to act ends its phase)."""
        while not (view["observation"]["phase"] == "spells" and view["to_move"] == LIGHT):
            seat = view["to_move"]
            assert seat in (LIGHT, DARKNESS), view["observation"]
            view = socket_acts(server, made["id"], tokens[seat], [(seat, {"type": "end_phase"})])
        return view

    view = play_until_light_casts(view)
    light = open_page(browser, absolute(server, made["links"]["seats"][LIGHT]))
    dark = open_page(browser, absolute(server, made["links"]["seats"][DARKNESS]))
    try:
        v = version(light)
        view = socket_acts(
            server,
            made["id"],
            tokens[LIGHT],
            [(LIGHT, {"type": "cast", "unit": WULFGELDRE, "spell": "strength"})],
        )
        for p in (light, dark):
            wait_version(p, v + 1)
            expect(tid(p, "casting-banner")).to_be_visible()
            expect(tid(p, "casting-banner")).to_contain_text("Wulfgeldre Warrior Wizard is casting Strength")
        shot(dark, "table_04_casting_banner")
        # A reopened page does not replay the last step's cast: the casting is over.
        at = version(dark)
        dark.reload()
        wait_version(dark, at)
        assert banner_hidden(dark), "the banner came back on a reloaded page"
        if view["observation"]["phase"] == "spells":
            # The phase ends (the combat follows): the banner goes with it, at once.
            seat = view["to_move"]
            view = socket_acts(server, made["id"], tokens[seat], [(seat, {"type": "end_phase"})])
            wait_version(light, view["version"])
            expect(tid(light, "casting-banner")).to_be_hidden(
                timeout=BANNER_GONE_MS
            )  # stayed into the next phase
        else:
            # The cast's own step went on through the combat: the banner ends with its report.
            expect(tid(light, "report-modal")).to_be_visible()
            tid(light, "report-ok").click()
            expect(tid(light, "report-modal")).to_have_count(0)
            expect(tid(light, "casting-banner")).to_be_hidden(
                timeout=BANNER_GONE_MS
            )  # stayed into the next phase
        # Turn 2 (the last): the Light casts again, the spells step ends, Game Over: no banner over it.
        view = play_until_light_casts(view)
        v = version(light)
        view = socket_acts(
            server,
            made["id"],
            tokens[LIGHT],
            [(LIGHT, {"type": "cast", "unit": WULFGELDRE, "spell": "courage"})],
        )
        wait_version(light, view["version"])
        expect(tid(light, "casting-banner")).to_contain_text("is casting Courage")
        while view["status"] == "playing":
            seat = view["to_move"]
            view = socket_acts(server, made["id"], tokens[seat], [(seat, {"type": "end_phase"})])
        wait_version(light, view["version"])
        expect(tid(light, "casting-banner")).to_be_hidden(timeout=BANNER_GONE_MS)  # stayed over Game Over
        no_page_errors(light, dark)
    finally:
        light.close()
        dark.close()


# -- 2, 7. the report in whole men, every loss counted ------------------------------------------------------


@pytest.mark.timeout(60)
def test_the_report_shows_whole_men_and_a_character_s_share(server: Server, browser: Browser) -> None:
    page = light_page(server, browser)
    try:
        report = {
            "type": "report",
            "turn": 1,
            "armies": [
                {
                    "seat": 0,
                    "side": "light",
                    "name": "Forces of the Light",
                    "share": 0.62,
                    "lost_this_turn": 0.004,
                },
                {
                    "seat": 1,
                    "side": "darkness",
                    "name": "Forces of Darkness",
                    "share": 0.9,
                    "lost_this_turn": 0.1,
                },
            ],
            "lines": [
                {
                    "unit": 2,
                    "name": "Swordsmen",
                    "seat": 0,
                    "strength": 292.7,
                    "start": 300.0,
                    "casualties": 7.3,
                    "level": "Standard",
                    "status": "active",
                },
                {
                    "unit": 3,
                    "name": "Archers",
                    "seat": 0,
                    "strength": 299.6,
                    "start": 300.0,
                    "casualties": 0.4,
                    "level": "Standard",
                    "status": "active",
                },
                {
                    "unit": 0,
                    "name": "Wulfgeldre",
                    "seat": 0,
                    "strength": 0.843,
                    "start": 1.0,
                    "casualties": 0.157,
                    "level": "Standard",
                    "status": "active",
                },
                {
                    "unit": 5,
                    "name": "Wearg Warriors",
                    "seat": 1,
                    "strength": 0.0,
                    "start": 300.0,
                    "casualties": 300.0,
                    "level": "-",
                    "status": "destroyed",
                },
            ],
        }
        page.evaluate(
            """async (r) => {
                 const panels = await import('/static/games/valkyrx/panels.js');
                 panels.showReport(r, ['Forces of the Light', 'Forces of Darkness']);
               }""",
            report,
        )
        expect(tid(page, "report-modal")).to_be_visible()
        rows = {u: tid(page, f"report-unit-{u}").inner_text() for u in (2, 3, 0, 5)}
        assert "293 / 300" in rows[2] and "−7" in rows[2] and "7.3" not in rows[2], rows[2]
        assert "−<1" in rows[3], rows[3]
        assert "84%" in rows[0] and "−16%" in rows[0], rows[0]
        assert "−300" in rows[5], rows[5]
        expect(tid(page, "report-army-0")).to_contain_text(
            "62% of its starting strength · lost <1% this turn"
        )
        expect(tid(page, "report-modal")).to_contain_text("Lost this turn")
        shot(page, "table_05_report_whole_men")
        tid(page, "report-ok").click()
        no_page_errors(page)
    finally:
        page.close()
