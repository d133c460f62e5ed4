"""Browser tests: a real `iwgt serve` process and Debian's Chromium driven by Playwright.

Screenshots of the key screens are kept in ``build/screenshots/`` (or ``$IWGT_ARTIFACTS``) as test artifacts.
Without Chromium the tests skip locally, but CI sets ``IWGT_REQUIRE_BROWSER=1`` and they fail instead.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path(os.environ.get("IWGT_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(
    os.environ.get("IWGT_ARTIFACTS", Path(__file__).resolve().parents[2] / "build" / "screenshots")
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _iwgt() -> list[str]:
    script = Path(sys.executable).parent / "iwgt"
    return [str(script)] if script.exists() else [sys.executable, "-m", "iwgt.cli"]


class Server:
    """A running `iwgt serve` on a free port with its own journal."""

    def __init__(self, data: Path, bot_delay: float = 0.05) -> None:
        self.data = data
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers."""
        cmd = [*_iwgt(), "serve", "--port", str(self.port), "--data", str(self.data)]
        cmd += ["--bot-delay", str(self.bot_delay)]
        log = open(self.data / "server.log", "ab")  # noqa: SIM115  (kept open for the process's life)
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start: see " + str(self.data / "server.log"))

    def stop(self) -> None:
        """Stop the server."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("iwgt-browser"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("IWGT_REQUIRE_BROWSER"):
            pytest.fail(f"Chromium is required for the browser tests and is missing at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def shot(page: object, name: str) -> Path:
    """Keep a screenshot of a key screen as a test artifact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)  # type: ignore[attr-defined]
    return path
