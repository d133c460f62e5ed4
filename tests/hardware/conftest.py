"""Broker fixtures for the physical table's tests: a real MQTT broker per test, on a free port.

``broker`` (function scope) is parametrized over ``["embedded", "mosquitto"]``: every test that takes it runs
twice, once against the embedded amqtt broker and once against Debian's Mosquitto (``/usr/sbin/mosquitto``;
skipped when it is missing, unless the environment sets ``IWGT_REQUIRE_MOSQUITTO=1`` (CI), then the test
fails). It yields a ``BrokerHandle``:

- ``url_referee``: ``mqtt://referee:<password>@127.0.0.1:<port>`` (every topic);
- ``url_device(d)``: the login of device ``d`` (``t1`` and ``t2`` exist from the start): publish only its own
  status/sensor/snapshot/ack; subscribe only its own frame/cmd/error and the referee status;
- ``url_table``: the shared ``table`` login, made here on purpose (a data folder has none unless asked:
  ``iwgt hardware credentials --shared-table-login``): the same rights under EVERY device id, for tests
  that play several devices with one client;
- ``await add_device(d)``: a device login made while the broker runs (written to the credentials file, as
  ``iwgt hardware credentials --device d`` does; Mosquitto is then reloaded); its URL. ``await reload()``:
  the reload alone, after the file was changed some other way;
- ``await restart()``: stops the broker and starts it again on the same port with the same users (every
  client's line drops; retained messages are gone, as after a real broker restart);
- also ``kind`` ("embedded" or "mosquitto"), ``host``, ``port``, ``credentials`` and ``url(user)``.

The URLs are plain strings: pass them to ``iwgt.hardware.mqtt.client`` / ``run_forever`` or anything taking
``--mqtt``. Each test gets a fresh broker (no retained message leaks from one test into the next; a start
costs a few milliseconds). The embedded broker runs in its own thread with its own event loop, so a test may
drive its clients with ``asyncio.run`` (this repository's pattern: no pytest-asyncio) while the broker keeps
serving, and ``restart()`` may be awaited from the test's loop.

``free_port`` gives a TCP port nobody listens on (several test processes run at once: never a fixed port).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from iwgt.hardware.broker import Credentials, EmbeddedBroker, MosquittoBroker
from iwgt.hardware.broker import free_port as _free_port

# Property tests here time nothing: on a loaded 2-core machine (CI runs two workers beside the brokers) the
# generation of an example may take seconds, which Hypothesis's too_slow health check fails on. Not timed.
settings.register_profile("hardware", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("hardware")

BROKERS = ("embedded", "mosquitto")
"""The brokers every ``broker`` test runs against."""
DEVICES = ("t1", "t2")
"""The device logins every ``broker`` fixture has from its start."""
HOST = "127.0.0.1"


def mosquitto_required() -> bool:
    """Whether a missing Mosquitto must fail the tests (CI) rather than skip them."""
    return os.environ.get("IWGT_REQUIRE_MOSQUITTO", "") not in ("", "0")


def need_mosquitto() -> None:
    """Skip the calling test when Mosquitto is missing (fail instead under IWGT_REQUIRE_MOSQUITTO)."""
    if MosquittoBroker.available():
        return
    message = "Mosquitto is not installed at /usr/sbin/mosquitto (make mosquitto)"
    if mosquitto_required():
        pytest.fail(message + "; IWGT_REQUIRE_MOSQUITTO is set")
    pytest.skip(message)


@dataclass
class BrokerHandle:
    """A running broker for one test: the referee's and the table's URLs, and ``await restart()``."""

    kind: str
    host: str
    port: int
    credentials: Credentials
    _restart: Callable[[], Awaitable[None]]
    _reload: Callable[[], Awaitable[None]]

    @property
    def url_referee(self) -> str:
        """The referee user's URL (every topic)."""
        return self.url("referee")

    @property
    def url_table(self) -> str:
        """The shared table login's URL (the table-side topics of every device)."""
        return self.url("table")

    def url_device(self, device: str) -> str:
        """A device's own login (one of DEVICES, or made by ``add_device``): its own topics only."""
        return self.url(device)

    async def add_device(self, device: str) -> str:
        """Make a device login while the broker runs (as ``iwgt hardware credentials --device``); its URL."""
        self.credentials.device(device)
        await self.reload()
        return self.url(device)

    async def reload(self) -> None:
        """Let the broker see the credentials file as it is now (Mosquitto: SIGHUP; embedded: by itself)."""
        await self._reload()

    def url(self, user: str) -> str:
        """The URL of a user of this broker."""
        return self.credentials.url(user, self.host, self.port)

    async def restart(self) -> None:
        """Stop the broker and start it again on the same port, with the same users."""
        await self._restart()


class _LoopThread:
    """An event loop in a daemon thread, for a broker that must outlive each test's ``asyncio.run``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="embedded-broker", daemon=True)
        self.thread.start()

    def call(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine on the thread's loop and wait for it (from synchronous code)."""
        asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=30)

    async def acall(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine on the thread's loop and await it from another loop."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def close(self) -> None:
        """Stop the loop and the thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


@pytest.fixture
def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now."""
    return _free_port(HOST)


@pytest.fixture(params=BROKERS)
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BrokerHandle]:
    """A running broker (embedded amqtt, then Mosquitto) with users referee, table, t1, t2; see the module."""
    kind: str = request.param
    credentials = Credentials.load(tmp_path / "users")  # a real credentials file: add_device writes it
    credentials.shared_table()
    for device in DEVICES:
        credentials.device(device)
    port = _free_port(HOST)
    if kind == "embedded":
        embedded = EmbeddedBroker(HOST, port, credentials)
        runner = _LoopThread()

        async def nothing() -> None:
            """The embedded broker reads the changed credentials file at the next login by itself."""

        try:
            runner.call(embedded.start())
            yield BrokerHandle(
                kind, HOST, port, credentials, lambda: runner.acall(embedded.restart()), nothing
            )
        finally:
            runner.call(embedded.stop())
            runner.close()
    else:
        need_mosquitto()
        mosquitto = MosquittoBroker(port, credentials, tmp_path / "mosquitto", host=HOST)
        asyncio.run(mosquitto.start())
        try:
            yield BrokerHandle(kind, HOST, port, credentials, mosquitto.restart, mosquitto.reload)
        finally:
            asyncio.run(mosquitto.stop())
