"""Take the README's screenshots from a real server: `.venv/bin/python docs/screenshots/take.py`.

Starts `iwgt serve` on a free port with a throwaway journal, plays the first steps of `first_battle` against
the bot in Debian's Chromium, and writes the PNG files next to this script.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server

HERE = Path(__file__).resolve().parent


def tap(page: Page, testid: str) -> None:
    """Tap the element with this data-testid."""
    page.get_by_test_id(testid).click()


def main() -> None:
    """Start a server, play the first steps in Chromium and save the screenshots."""
    srv = Server(Path(tempfile.mkdtemp()), bot_delay=0.2)
    srv.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(srv.base + "/")
            page.get_by_test_id("game-card-valkyrx").wait_for()
            page.screenshot(path=str(HERE / "game-selection.png"))
            made = httpx.post(
                srv.base + "/api/tables",
                json={
                    "game": "valkyrx",
                    "scenario": "first_battle",
                    "seats": ["human", "bot"],
                    "seed": 4,
                    "timer_seconds": 120,
                },
            ).json()
            page.goto(made["links"]["table"])
            page.get_by_test_id("infra-tick").click()
            page.get_by_test_id("spells-default").click()
            tap(page, "tick-button")
            page.locator('[data-testid="whose-turn"][data-mine="true"]').wait_for(timeout=30000)
            page.wait_for_function(
                "document.querySelector('[data-testid=phase]')?.textContent.toLowerCase().includes('move')"
            )
            time.sleep(1.0)
            page.get_by_test_id("unit-2").click()
            time.sleep(1.0)
            page.screenshot(path=str(HERE / "table-movement.png"))
            browser.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
