"""The browser tests' server and Chromium (tests/browser/conftest.py), for the example's browser test."""

from tests.browser.conftest import browser, server

__all__ = ["browser", "server"]
