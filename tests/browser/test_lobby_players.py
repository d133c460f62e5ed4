"""The lobby's seats follow a game's ``players`` set-up choice (WarQuest WQ-MS-44: 2 to 5 warlords):
choosing five warlords for a three-warlord scenario lists five seats, named as the game's five-seat scenario
names them, and the table is created with that many seats."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import Server
from .kit import open_link, tid


def test_choosing_five_warlords_lists_five_seats(server: Server, browser: Browser) -> None:
    page = open_link(browser, server.base, "/")
    tid(page, "game-card-warquest").click()
    tid(page, "scenario-select").select_option("short")
    expect(tid(page, "seat-fields").locator("select")).to_have_count(3)
    tid(page, "option-players-5").click()
    expect(tid(page, "seat-fields").locator("select")).to_have_count(5)
    expect(tid(page, "seat-fields")).to_contain_text("the Purple Warlord")
    tid(page, "option-players-scenario").click()
    expect(tid(page, "seat-fields").locator("select")).to_have_count(3)
    tid(page, "option-players-4").click()
    for seat in range(4):
        tid(page, f"seat-select-{seat}").select_option("human")
    tid(page, "mode-remote").click()
    tid(page, "play-button").click()
    expect(tid(page, "invite-3")).to_be_visible()
    expect(tid(page, "invite-4")).to_have_count(0)
    page.close()
