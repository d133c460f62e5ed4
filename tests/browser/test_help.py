"""Help at the table in the browser (help.js): the first-game guide a newcomer sees on first_battle and
first_blood, stepped through with Next and Back and remembered per device; "Tap for help" on a unit and a
figure shows its profile and the clauses that apply; How to play opens for both games. Screenshots: help_*."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, shot
from .kit import wait_version
from .test_play import FULL_HD, absolute, create_table, no_page_errors, open_page, tid

WULFGELDRE = 0  # first_battle's first Light unit (tests/browser/test_play.py)


def open_table(server: Server, browser: Browser, **body: Any) -> tuple[Page, Any]:
    """A shared table, opened in a new browser context (a device that has never seen a guide)."""
    made = create_table(server, **body)
    ctx = browser.new_context(viewport=FULL_HD)
    page = open_page(ctx, absolute(server, made["links"]["table"]))
    return page, ctx


def test_the_first_battle_guide_appears_once_and_steps_through_the_first_turn(
    server: Server, browser: Browser
) -> None:
    page, ctx = open_table(server, browser)
    try:
        guide = tid(page, "help-guide")
        expect(guide).to_be_visible()
        expect(tid(page, "help-guide-count")).to_have_text("Step 1 of 12")
        expect(tid(page, "help-guide-title")).to_have_text("The table")
        expect(tid(page, "help-guide-back")).to_be_disabled()
        # The step outlines what it is about: the board.
        outline = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=\"board\"]')).outlineStyle"
        )
        assert outline == "solid"
        shot(page, "help_01_first_battle_guide")
        tid(page, "help-guide-next").click()
        expect(tid(page, "help-guide-title")).to_have_text("The ground")
        tid(page, "help-guide-back").click()
        expect(tid(page, "help-guide-title")).to_have_text("The table")
        titles = []
        for _ in range(11):
            tid(page, "help-guide-next").click()
            titles.append(tid(page, "help-guide-title").inner_text())
        first = ["The ground", "Your wizard's spells", "Place your army", "Who moves first", "Move"]
        assert titles[:5] == first
        assert titles[-1] == "Winning"
        expect(tid(page, "help-guide-count")).to_have_text("Step 12 of 12")
        expect(tid(page, "help-guide-next")).to_have_count(0)
        # "Tell me more" opens the step's topic in the panel.
        tid(page, "help-guide-more").click()
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "phase:combat")
        tid(page, "help-close").click()
        tid(page, "help-guide-done").click()
        expect(guide).to_be_hidden()
        # Remembered on this device: a reload does not show it again...
        page.reload()
        expect(tid(page, "conn-state")).to_have_attribute("data-state", "open")
        wait_version(page, 0)  # a shared screen covers a reloaded page's first view: tap through it
        expect(tid(page, "help-button")).to_be_visible()
        page.wait_for_function("() => window.iwgtTable && window.iwgtTable.help.data")
        expect(tid(page, "help-guide")).to_be_hidden()
        # ...but it can be opened again from the panel.
        tid(page, "help-button").click()
        tid(page, "help-tab-guide").click()
        tid(page, "help-guide-start").click()
        expect(tid(page, "help-panel")).to_have_count(0)
        expect(tid(page, "help-guide-title")).to_have_text("The table")
        no_page_errors(page)
    finally:
        ctx.close()


def test_tap_for_help_on_a_unit_and_the_ground_shows_its_profile_and_clauses(
    server: Server, browser: Browser
) -> None:
    page, ctx = open_table(server, browser)
    try:
        tid(page, "help-tap").click()
        expect(tid(page, "help-tap")).to_have_attribute("aria-pressed", "true")
        before = page.evaluate("() => window.iwgtTable.selected")
        tid(page, f"unit-{WULFGELDRE}").click()
        topic = tid(page, "help-topic")
        expect(topic).to_have_attribute("data-topic", "unit:wulfgeldre")
        expect(tid(page, "help-topic-title")).to_have_text("Wulfgeldre Warrior Wizard")
        # The profile is the attributes table's row; the rules carry the clause, the words and the decision.
        expect(tid(page, "help-profile")).to_contain_text("Morale at the start")
        expect(tid(page, "help-clause-VX-11-04")).to_be_visible()
        expect(tid(page, "help-rule-VX-11-04")).to_contain_text("The rulebook:")
        # The tap was help's: the unit was not picked, and help mode is over.
        assert page.evaluate("() => window.iwgtTable.selected") == before
        expect(tid(page, "help-tap")).to_have_attribute("aria-pressed", "false")
        shot(page, "help_02_unit_topic")
        tid(page, "help-close").click()
        # The header's phase line: the observation's phase, deployment.
        tid(page, "help-tap").click()
        tid(page, "phase").click()
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "phase:deploy")
        tid(page, "help-close").click()
        # The Ford (cells 3,3 and 4,3) is difficult ground.
        tid(page, "help-tap").click()
        tid(page, "cell-3-3").click()
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "terrain:difficult")
        expect(tid(page, "help-clause-VX-05-04")).to_be_visible()
        tid(page, "help-close").click()
        no_page_errors(page)
    finally:
        ctx.close()


def test_tap_for_help_on_a_spell_inside_the_wizards_dialog(server: Server, browser: Browser) -> None:
    page, ctx = open_table(server, browser)
    try:
        tid(page, "help-guide-close").click()
        tid(page, "infra-tick").click()
        expect(tid(page, "spells-dialog")).to_be_visible()
        tid(page, "spells-custom").click()
        dialog = tid(page, "spells-custom-dialog")
        expect(dialog).to_be_visible()
        # The dialog covers the action bar, so it offers its own "Tap for help".
        dialog.get_by_test_id("help-tap-dialog").click()
        dialog.get_by_test_id("spell-fire").click()
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "spell:fire")
        expect(tid(page, "help-profile")).to_contain_text("5 cells")  # spells.toml: fire, range 5
        expect(tid(page, "help-clause-VX-SP-FIRE-1")).to_be_visible()
        tid(page, "help-close").click()
        # The tap was help's: the spell was not chosen, and the wizard's dialog is still open.
        expect(dialog.get_by_test_id("spell-fire")).to_have_attribute("aria-pressed", "false")
        expect(tid(page, "spells-count")).to_have_text("0 of 6")
        no_page_errors(page)
    finally:
        ctx.close()


def test_how_to_play_for_both_games_and_a_valhalla_figure(server: Server, browser: Browser) -> None:
    page, ctx = open_table(server, browser)
    try:
        tid(page, "help-button").click()
        expect(tid(page, "help-howto")).to_contain_text("A turn")
        tid(page, "help-tab-topics").click()
        tid(page, "help-search").fill("sleep")
        tid(page, "help-topic-spell-sleep").click()
        expect(tid(page, "help-profile")).to_contain_text("5 cells")
        expect(tid(page, "help-clause-VX-SP-SLEEP-2")).to_be_visible()
        no_page_errors(page)
    finally:
        ctx.close()
    page, ctx = open_table(
        server, browser, game="valhalla", scenario="first_blood", timer_seconds=0, seats=["human", "human"]
    )
    try:
        expect(tid(page, "help-guide-title")).to_have_text("The table")  # first_blood has its guide too
        tid(page, "help-guide-close").click()
        tid(page, "help-button").click()
        expect(tid(page, "help-howto")).to_contain_text("The Dice of Death")
        shot(page, "help_03_valhalla_how_to_play")
        tid(page, "help-close").click()
        tid(page, "help-tap").click()
        tid(page, "vh-figure-0").click()  # Ulf the Bold, the Raiders' hero
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "figure:hero")
        expect(tid(page, "help-profile")).to_contain_text("d10")
        expect(tid(page, "help-clause-VH-CB-01")).to_be_visible()
        no_page_errors(page)
    finally:
        ctx.close()
