"""The MQTT client settings (hardware/mqtt.py): broker URLs, and real clients against both brokers.

Birth and last will, an unclean drop, a broker restart and the reconnect loop, each through a real broker
(the ``broker`` fixture runs every test against the embedded amqtt broker and against Mosquitto).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiomqtt
import pytest
from tests.hardware.conftest import BrokerHandle

from iwgt.hardware.mqtt import (
    KEEPALIVE_S,
    MqttAuthError,
    MqttUrl,
    MqttUrlError,
    client,
    drop,
    run_forever,
)

# A safety net so that a broken broker fails the test instead of hanging it: never an assertion on time.
LIMIT_S = 30


def run(make: Callable[[], Awaitable[None]]) -> None:
    """Run one async test body in a fresh event loop, failing it if it hangs."""

    async def body() -> None:
        async with asyncio.timeout(LIMIT_S):
            await make()

    asyncio.run(body())


# --------------------------------------------------------------------------------------------- URL parsing


def test_parse_a_plain_url() -> None:
    url = MqttUrl.parse("mqtt://table:s3cret@192.168.1.20:1884")
    assert url == MqttUrl("192.168.1.20", 1884, "table", "s3cret", tls=False, ca=None)
    assert url.text() == "mqtt://table:s3cret@192.168.1.20:1884"


def test_default_ports_and_no_user() -> None:
    assert MqttUrl.parse("mqtt://broker.local") == MqttUrl("broker.local", 1883)
    assert MqttUrl.parse("mqtts://broker.local").port == 8883
    assert MqttUrl.parse("mqtts://broker.local").tls


def test_tls_with_a_ca_file() -> None:
    url = MqttUrl.parse("mqtts://referee:pw@table.example:8884?ca=/etc/iwgt/ca.pem")
    assert (url.tls, url.ca, url.port, url.scheme) == (True, Path("/etc/iwgt/ca.pem"), 8884, "mqtts")
    assert MqttUrl.parse(url.text()) == url


def test_percent_encoded_credentials_round_trip() -> None:
    url = MqttUrl("::1", 1883, "ta ble", "p@ss:w/rd%")
    text = url.text()
    assert text == "mqtt://ta%20ble:p%40ss%3Aw%2Frd%25@[::1]:1883"
    assert MqttUrl.parse(text) == url


def test_str_hides_the_password() -> None:
    url = MqttUrl.parse("mqtt://table:s3cret@host:1883")
    assert str(url) == "mqtt://table:***@host:1883"
    assert "s3cret" not in repr(str(url))


def test_parse_accepts_a_parsed_url() -> None:
    url = MqttUrl.parse("mqtt://table:pw@host:1")
    assert MqttUrl.parse(url) is url


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("http://table:pw@host:1883", "the scheme must be mqtt:// or mqtts:// (got 'http')"),
        ("table:pw@host:1883", "the scheme must be mqtt:// or mqtts://"),
        ("mqtt://table:pw@:1883", "no host"),
        ("mqtt://table:pw@host:port", "the port must be a number from 1 to 65535"),
        ("mqtt://table:pw@host:70000", "the port must be a number from 1 to 65535"),
        ("mqtt://table:pw@host:0", "the port must be a number from 1 to 65535"),
        ("mqtt://table:pw@host:1883/iwgt", "a broker URL has no path (got '/iwgt')"),
        ("mqtt://:pw@host:1883", "a password without a user name"),
        ("mqtt://table:pw@host:1883?ca=/ca.pem", "ca= needs TLS: write mqtts://"),
        ("mqtts://table:pw@host:1883?ca=", "ca= must name one CA certificate file"),
        ("mqtts://table:pw@host:1883?cert=/c.pem", "unknown option 'cert' (the only option is ca=FILE)"),
    ],
)
def test_parse_errors_say_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(MqttUrlError) as caught:
        MqttUrl.parse(text)
    assert says in str(caught.value)
    assert ":pw@" not in str(caught.value)  # the password never shows in an error


def test_a_missing_ca_file_is_named() -> None:
    async def body() -> None:
        with pytest.raises(MqttUrlError, match=r"the CA file /nowhere/ca\.pem does not exist"):
            client("mqtts://table:pw@127.0.0.1:8883?ca=/nowhere/ca.pem", "t1")

    run(body)


def test_client_options() -> None:
    async def body() -> None:
        made = client("mqtt://table:pw@127.0.0.1:1883", "table-t1")
        assert made.identifier == "table-t1"
        paho = made._client
        assert (paho.username, paho.password) == ("table", "pw")
        assert paho._clean_session is True
        assert made._keepalive == KEEPALIVE_S == 5

    run(body)


# --------------------------------------------------------------------------------------------- real brokers


def test_publish_and_subscribe_round_trip(broker: BrokerHandle) -> None:
    async def body() -> None:
        async with (
            client(broker.url_referee, "referee") as referee,
            client(broker.url_device("t1"), "t1") as table,
        ):
            await table.subscribe("iwgt/v1/tables/t1/frame", qos=1)
            await referee.subscribe("iwgt/v1/tables/t1/sensor", qos=1)
            await referee.publish("iwgt/v1/tables/t1/frame", b'{"v":1}', qos=1)
            got = await anext(aiter(table.messages))
            assert (str(got.topic), got.payload) == ("iwgt/v1/tables/t1/frame", b'{"v":1}')
            await table.publish("iwgt/v1/tables/t1/sensor", b'{"seq":1}', qos=1)
            got = await anext(aiter(referee.messages))
            assert (str(got.topic), got.payload) == ("iwgt/v1/tables/t1/sensor", b'{"seq":1}')

    run(body)


def test_retained_birth_and_last_will_on_an_unclean_drop(broker: BrokerHandle) -> None:
    status = "iwgt/v1/tables/t1/status"

    async def body() -> None:
        will = aiomqtt.Will(status, b'{"online":false}', qos=1, retain=True)
        async with client(broker.url_referee, "referee") as referee:
            await referee.subscribe(status, qos=1)
            table = client(broker.url_device("t1"), "t1", will=will)
            await table.__aenter__()
            await table.publish(status, b'{"online":true}', qos=1, retain=True)
            messages = aiter(referee.messages)
            assert (await anext(messages)).payload == b'{"online":true}'
            # A late subscriber gets the birth, retained.
            async with client(broker.url_referee, "late") as late:
                await late.subscribe(status, qos=1)
                birth = await anext(aiter(late.messages))
                assert (birth.payload, birth.retain) == (b'{"online":true}', True)
            drop(table)  # a power cut: no DISCONNECT, so the broker publishes the will
            assert (await anext(messages)).payload == b'{"online":false}'
            with pytest.raises(aiomqtt.MqttError):
                async for _ in table.messages:
                    pass
            await table.__aexit__(None, None, None)
        # The will was retained: it replaced the birth.
        async with client(broker.url_referee, "later") as later:
            await later.subscribe(status, qos=1)
            offline = await anext(aiter(later.messages))
            assert (offline.payload, offline.retain) == (b'{"online":false}', True)

    run(body)


def test_reconnect_loop_survives_a_broker_restart(broker: BrokerHandle) -> None:
    frame = "iwgt/v1/tables/t1/frame"

    async def body() -> None:
        connections: asyncio.Queue[int] = asyncio.Queue()
        received: asyncio.Queue[bytes] = asyncio.Queue()
        drops: list[BaseException] = []
        count = 0

        async def on_connect(table: aiomqtt.Client) -> None:
            nonlocal count
            count += 1
            await table.subscribe(frame, qos=1)  # a clean session: subscribe again on every connection
            await connections.put(count)
            async for message in table.messages:
                await received.put(bytes(message.payload))  # type: ignore[arg-type]

        loop = asyncio.create_task(
            run_forever(broker.url_device("t1"), "t1", on_connect, on_disconnect=drops.append)
        )
        try:
            assert await connections.get() == 1
            async with client(broker.url_referee, "referee-1") as referee:
                await referee.publish(frame, b"one", qos=1)
            assert await received.get() == b"one"

            await broker.restart()
            assert await connections.get() == 2  # reconnected by the loop, subscribed again
            assert len(drops) >= 1 and all(isinstance(e, aiomqtt.MqttError) for e in drops)
            async with client(broker.url_referee, "referee-2") as referee:
                await referee.publish(frame, b"two", qos=1)
            assert await received.get() == b"two"
        finally:
            loop.cancel()
            with pytest.raises(asyncio.CancelledError):
                await loop

    run(body)


def test_reconnect_loop_gives_up_on_a_wrong_password(broker: BrokerHandle) -> None:
    url = MqttUrl.parse(broker.url_device("t1"))
    wrong = url.with_user("t1", "not-the-password")

    async def never(_: aiomqtt.Client) -> None:
        raise AssertionError("connected with a wrong password")

    async def body() -> None:
        with pytest.raises(MqttAuthError, match="refused user 't1'") as caught:
            await run_forever(wrong, "t1", never)
        assert "not-the-password" not in str(caught.value)

    run(body)


def test_run_forever_returns_when_on_connect_returns(broker: BrokerHandle) -> None:
    seen: list[str] = []

    async def once(referee: aiomqtt.Client) -> None:
        seen.append(referee.identifier)

    run(lambda: run_forever(broker.url_referee, "referee", once))
    assert seen == ["referee"]
