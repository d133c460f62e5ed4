"""The lobby's scenario select says what a scenario's length counts in the game's own word: a battle of
rounds says "(4 rounds)" (the scenario card's ``turn_word``), a game of turns keeps "turns"."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import Server
from .kit import open_link, tid


def test_lobby_scenario_select_names_rounds_or_turns(server: Server, browser: Browser) -> None:
    """Coloured-Dice's skirmish lasts 4 rounds (CD-AC-01); the anvil battle's card counts turns."""
    page = open_link(browser, server.base, "/")
    tid(page, "game-card-coloured-dice").click()
    select = tid(page, "scenario-select")
    select.select_option("skirmish")
    expect(select.locator('option[value="skirmish"]')).to_have_text("Skirmish at the Two Cairns (4 rounds)")
    expect(tid(page, "scenario-facts")).to_contain_text("4 rounds")
    page.close()
    page = open_link(browser, server.base, "/")
    tid(page, "game-card-anvil").click()
    expect(tid(page, "scenario-select").locator("option").first).to_contain_text(" turns)")
    page.close()
