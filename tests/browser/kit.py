"""What every browser test file uses: the screen size, how long a check waits, and the page's view version."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, ViewportSize

FULL_HD: ViewportSize = {"width": 1920, "height": 1080}
WAIT_MS = 15_000
"""How long a check waits for the page (a loaded 2-core machine runs the server and the browser)."""


def tid(page: Page, name: str) -> Locator:
    """The element with ``data-testid=name``."""
    return page.get_by_test_id(name)


def version(page: Page) -> int:
    """The version of the view the page shows (-1 before the first view)."""
    v: int = page.evaluate(
        "() => (window.iwgtTable && window.iwgtTable.view) ? window.iwgtTable.view.version : -1"
    )
    return v


FIRST_COVER = """() => !!(window.iwgtTable && !window.iwgtTable.view
                     && document.querySelector('[data-testid="pass-screen"]'))"""
"""A shared screen's first view waiting behind the pass-and-play cover (nothing shown yet)."""


def lift_first_cover(page: Page) -> None:
    """Tap through the cover a shared screen puts over its first view (on opening or reloading the page)."""
    if page.evaluate(FIRST_COVER):
        tid(page, "pass-continue").click()


def wait_version(page: Page, at_least: int) -> None:
    """Wait until the page shows a view of at least this version (lifting the first view's cover)."""
    page.wait_for_function(
        f"""v => ({FIRST_COVER})()
                 || (window.iwgtTable && window.iwgtTable.view && window.iwgtTable.view.version >= v)""",
        arg=at_least,
        timeout=WAIT_MS,
    )
    if page.evaluate(FIRST_COVER):
        lift_first_cover(page)
        page.wait_for_function(
            "v => window.iwgtTable && window.iwgtTable.view && window.iwgtTable.view.version >= v",
            arg=at_least,
            timeout=WAIT_MS,
        )


def open_link(browser: Browser, base: str, link: str, viewport: ViewportSize = FULL_HD) -> Page:
    """A fresh page (its own localStorage) on a table link, its page errors kept in ``page.errors``."""
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(link if link.startswith("http") else base + link)
    return page
