"""The brokers (hardware/broker.py): credentials, no anonymous login, the table user's topic rights.

Every ``broker`` test runs against the embedded amqtt broker and against Mosquitto; both enforce the same
rights (amqtt through our TopicRightsPlugin, Mosquitto through the generated ACL file).
"""

from __future__ import annotations

import asyncio
import base64
import shutil
import stat
import subprocess
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from tests.hardware.conftest import BrokerHandle, need_mosquitto
from typer.testing import CliRunner

from iwgt.hardware.broker import (
    CREDENTIALS_FILE,
    BrokerError,
    Credentials,
    EmbeddedBroker,
    MosquittoBroker,
    TlsFiles,
    allowed,
    mosquitto_acl,
    mosquitto_password_line,
)
from iwgt.hardware.commands import hardware_app
from iwgt.hardware.mqtt import MqttUrl, client, drop

LIMIT_S = 30  # a safety net against a hung broker, never an assertion on time


def run(make: Callable[[], Awaitable[None]]) -> None:
    """Run one async test body in a fresh event loop, failing it if it hangs."""

    async def body() -> None:
        async with asyncio.timeout(LIMIT_S):
            await make()

    asyncio.run(body())


def codes(granted: Sequence[Any]) -> list[int]:
    """SUBACK return codes as numbers (paho 2 gives reason-code objects even for MQTT 3.1.1)."""
    return [int(getattr(code, "value", code)) for code in granted]


# --------------------------------------------------------------------------------------------- credentials


def test_credentials_are_created_private_and_kept(tmp_path: Path) -> None:
    first = Credentials.load(tmp_path / "data")
    path = tmp_path / "data" / CREDENTIALS_FILE
    assert first.path == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert set(first.passwords) == {"referee", "table"}
    assert first.password("referee") != first.password("table")
    assert all(len(p) >= 24 for p in first.passwords.values())
    again = Credentials.load(tmp_path / "data")
    assert again.passwords == first.passwords  # the same users on every start: tables keep their URL


def test_credentials_url() -> None:
    creds = Credentials({"referee": "r-pw", "table": "t-pw"})
    assert creds.url("table", "10.0.0.2", 1884) == "mqtt://table:t-pw@10.0.0.2:1884"
    assert creds.url("referee", ca=Path("/ca.pem")) == "mqtts://referee:r-pw@127.0.0.1:1883?ca=/ca.pem"
    with pytest.raises(BrokerError, match="no MQTT user 'guest'"):
        creds.url("guest")


def test_credentials_readable_by_others_are_closed_again(tmp_path: Path) -> None:
    Credentials.load(tmp_path)
    path = tmp_path / CREDENTIALS_FILE
    path.chmod(0o644)
    Credentials.load(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_credentials_missing_a_user_are_refused(tmp_path: Path) -> None:
    (tmp_path / CREDENTIALS_FILE).write_text('[users]\nreferee = "x"\n')
    with pytest.raises(BrokerError, match="give no password for user 'table'"):
        Credentials.load(tmp_path)


def test_credentials_command_prints_the_table_url(tmp_path: Path) -> None:
    result = CliRunner().invoke(hardware_app, ["credentials", "--data", str(tmp_path), "--port", "1884"])
    assert result.exit_code == 0, result.output
    password = Credentials.load(tmp_path).password("table")
    assert result.output == f"mqtt://table:{password}@127.0.0.1:1884\n"
    assert MqttUrl.parse(result.output.strip()).password == password


# --------------------------------------------------------------------------------------------- topic rights


@pytest.mark.parametrize(
    ("action", "topic", "ok"),
    [
        ("publish", "iwgt/v1/tables/t1/status", True),
        ("publish", "iwgt/v1/tables/t1/sensor", True),
        ("publish", "iwgt/v1/tables/t1/snapshot", True),
        ("publish", "iwgt/v1/tables/t1/ack", True),
        ("publish", "iwgt/v1/tables/t1/frame", False),
        ("publish", "iwgt/v1/tables/t1/cmd", False),
        ("publish", "iwgt/v1/tables/t1/error", False),
        ("publish", "iwgt/v1/referee/status", False),
        ("publish", "iwgt/v1/tables/t1/status/x", False),
        ("publish", "elsewhere", False),
        ("subscribe", "iwgt/v1/tables/t1/frame", True),
        ("subscribe", "iwgt/v1/tables/t1/cmd", True),
        ("subscribe", "iwgt/v1/tables/t1/error", True),
        ("subscribe", "iwgt/v1/tables/+/frame", True),
        ("subscribe", "iwgt/v1/referee/status", True),
        ("subscribe", "iwgt/v1/tables/t1/sensor", False),
        ("subscribe", "iwgt/v1/tables/t1/+", False),
        ("subscribe", "iwgt/v1/tables/t1/#", False),
        ("subscribe", "iwgt/v1/tables/#", False),
        ("subscribe", "#", False),
        ("subscribe", "iwgt/v1/referee/+", False),
    ],
)
def test_table_rights(action: Any, topic: str, ok: bool) -> None:
    assert allowed("table", action, topic) is ok


def test_referee_may_do_anything_and_others_nothing() -> None:
    assert allowed("referee", "subscribe", "#") and allowed("referee", "publish", "iwgt/v1/tables/t1/frame")
    assert not allowed(None, "publish", "iwgt/v1/tables/t1/status")
    assert not allowed("guest", "subscribe", "iwgt/v1/tables/t1/frame")


def test_mosquitto_acl_lists_the_same_rights() -> None:
    assert mosquitto_acl().splitlines()[1:] == [
        "user referee",
        "topic readwrite #",
        "",
        "user table",
        "topic write iwgt/v1/tables/+/status",
        "topic write iwgt/v1/tables/+/sensor",
        "topic write iwgt/v1/tables/+/snapshot",
        "topic write iwgt/v1/tables/+/ack",
        "topic read iwgt/v1/tables/+/frame",
        "topic read iwgt/v1/tables/+/cmd",
        "topic read iwgt/v1/tables/+/error",
        "topic read iwgt/v1/referee/status",
    ]


def test_password_line_is_mosquitto_passwd_s(tmp_path: Path) -> None:
    need_mosquitto()
    passwords = tmp_path / "pw"
    subprocess.run(["/usr/bin/mosquitto_passwd", "-c", "-b", str(passwords), "table", "s3 cr:et"], check=True)
    line = passwords.read_text().strip()
    salt = base64.b64decode(line.split("$")[3])
    assert mosquitto_password_line("table", "s3 cr:et", salt=salt) == line


# --------------------------------------------------------------------------------------------- real brokers


@pytest.mark.parametrize("who", ["wrong password", "no password", "no user", "unknown user"])
def test_a_login_without_the_right_password_is_refused(broker: BrokerHandle, who: str) -> None:
    good = MqttUrl.parse(broker.url_table)
    url = {
        "wrong password": good.with_user("table", "not-the-password"),
        "no password": MqttUrl(good.host, good.port, "table"),
        "no user": MqttUrl(good.host, good.port),
        "unknown user": good.with_user("guest", good.password or ""),
    }[who]

    async def body() -> None:
        with pytest.raises(aiomqtt.MqttCodeError) as caught:
            async with client(url, "intruder"):
                pass
        assert int(getattr(caught.value.rc, "value", caught.value.rc)) in (4, 5, 134, 135)

    run(body)


def test_table_subscriptions_are_limited(broker: BrokerHandle) -> None:
    mine = [
        "iwgt/v1/tables/t1/frame",
        "iwgt/v1/tables/t1/cmd",
        "iwgt/v1/tables/t1/error",
        "iwgt/v1/referee/status",
    ]
    not_mine = ["iwgt/v1/tables/t1/sensor", "iwgt/v1/tables/t2/ack", "iwgt/v1/tables/t1/#", "#"]

    async def body() -> None:
        async with client(broker.url_table, "t1") as table, client(broker.url_referee, "referee") as referee:
            assert [codes(await table.subscribe(topic, qos=1))[0] for topic in mine] == [1, 1, 1, 1]
            refused = [codes(await table.subscribe(topic, qos=1))[0] for topic in not_mine]
            if broker.kind == "embedded":
                assert refused == [0x80] * 4  # amqtt refuses the subscription itself
            else:
                assert refused == [1] * 4  # Mosquitto 2.0 grants it and checks read rights on each delivery
            # Either way nothing the table may not read reaches it: the referee's later allowed message, from
            # the same client, is the first the table receives (a broker forwards them in order).
            await referee.publish("iwgt/v1/tables/t1/sensor", b"not for tables", qos=1)
            await referee.publish("iwgt/v1/tables/t2/ack", b"not for tables", qos=1)
            await referee.publish("iwgt/v1/tables/t1/frame", b"for the table", qos=1)
            first = await anext(aiter(table.messages))
            assert (str(first.topic), first.payload) == ("iwgt/v1/tables/t1/frame", b"for the table")
            assert codes(await referee.subscribe("#", qos=1)) == [1]

    run(body)


def test_table_cannot_publish_the_referee_s_topics(broker: BrokerHandle) -> None:
    async def body() -> None:
        async with client(broker.url_referee, "referee") as referee, client(broker.url_table, "t1") as table:
            await referee.subscribe("#", qos=1)
            # Refused publishes are dropped by the broker (MQTT 3.1.1 has no negative PUBACK) ...
            for topic in (
                "iwgt/v1/tables/t1/frame",
                "iwgt/v1/tables/t1/cmd",
                "iwgt/v1/referee/status",
                "x/y",
            ):
                await table.publish(topic, b"forged", qos=1)
            # ... and one allowed message later, from the same client, is the first the referee receives
            # (a broker forwards one client's messages in order: a forged one would have come first).
            await table.publish("iwgt/v1/tables/t1/sensor", b"real", qos=1)
            first = await anext(aiter(referee.messages))
            assert (str(first.topic), first.payload) == ("iwgt/v1/tables/t1/sensor", b"real")

    run(body)


def test_a_will_on_a_forbidden_topic_is_never_published(broker: BrokerHandle) -> None:
    """A table may not leave a forged retained "referee offline" (amqtt checks no will: our plug-in does)."""

    async def body() -> None:
        async with client(broker.url_referee, "referee") as referee:
            await referee.subscribe("#", qos=1)
            forged = aiomqtt.Will("iwgt/v1/referee/status", b'{"v":1,"online":false}', qos=1, retain=True)
            table = client(broker.url_table, "t1", will=forged)
            await table.__aenter__()  # the login itself stands (as Mosquitto does): only the will is dropped
            drop(table)
            with pytest.raises(aiomqtt.MqttError):
                async for _ in table.messages:
                    pass
            await table.__aexit__(None, None, None)
            # The drop came first; a forged will would reach the referee before this later message.
            async with client(broker.url_table, "t2") as other:
                await other.publish("iwgt/v1/tables/t2/status", b"later", qos=1)
            first = await anext(aiter(referee.messages))
            assert (str(first.topic), first.payload) == ("iwgt/v1/tables/t2/status", b"later")

    run(body)


def test_no_message_is_lost_while_other_clients_subscribe(broker: BrokerHandle) -> None:
    """Two receivers of one topic each get every message while other clients keep subscribing.

    (amqtt 0.12 lost a broadcast for every receiver after the first when a subscription came in meanwhile.)
    """
    sent = 200
    sensor = "iwgt/v1/tables/t1/sensor"

    async def churn(other: aiomqtt.Client, name: str, stop: asyncio.Event) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            await other.subscribe(f"iwgt/v1/tables/{name}-{n}/frame", qos=1)

    async def body() -> None:
        async with (
            client(broker.url_referee, "first") as first,
            client(broker.url_referee, "second") as second,
            client(broker.url_table, "publisher") as publisher,
            client(broker.url_table, "churn-1") as churn_1,
            client(broker.url_table, "churn-2") as churn_2,
        ):
            await first.subscribe(sensor, qos=1)
            await second.subscribe("iwgt/v1/tables/+/sensor", qos=1)
            stop = asyncio.Event()
            churning = [asyncio.create_task(churn(c, n, stop)) for c, n in ((churn_1, "a"), (churn_2, "b"))]
            for n in range(sent):
                await publisher.publish(sensor, str(n).encode(), qos=1)
            stop.set()
            await asyncio.gather(*churning)
            for receiver in (first, second):
                got = []
                async for message in receiver.messages:
                    got.append(int(message.payload))  # type: ignore[arg-type]
                    if len(got) == sent:
                        break
                assert sorted(got) == list(range(sent))

    run(body)


def test_retained_messages_come_once_and_only_for_one_s_own_subscriptions(broker: BrokerHandle) -> None:
    """A client gets a retained message when it subscribes, once, and never for others' subscriptions.

    (amqtt 0.12 sent a connecting client the retained messages of EVERY client's subscriptions, then again
    when it subscribed itself.)
    """
    frame = "iwgt/v1/tables/t1/frame"
    status = "iwgt/v1/tables/t1/status"

    async def body() -> None:
        async with client(broker.url_referee, "referee") as referee, client(broker.url_table, "t1") as table:
            await table.subscribe(frame, qos=1)  # someone else's subscription to the retained topic
            await referee.publish(frame, b"retained frame", qos=1, retain=True)
            assert (await anext(aiter(table.messages))).payload == b"retained frame"
            async with client(broker.url_referee, "late") as late:
                await late.subscribe(status, qos=1)
                await referee.publish(status, b"marker 1", qos=1)
                first = await anext(aiter(late.messages))
                assert (str(first.topic), first.payload) == (status, b"marker 1")  # no frame: not subscribed
                await late.subscribe(frame, qos=1)
                got = await anext(aiter(late.messages))
                assert (got.payload, got.retain) == (b"retained frame", True)
                await referee.publish(frame, b"marker 2", qos=1)
                assert (
                    await anext(aiter(late.messages))
                ).payload == b"marker 2"  # the retained one came once

    run(body)


def test_restart_keeps_the_port_and_the_users(broker: BrokerHandle) -> None:
    async def body() -> None:
        await broker.restart()
        async with client(broker.url_referee, "referee") as referee, client(broker.url_table, "t1") as table:
            await table.subscribe("iwgt/v1/tables/t1/cmd", qos=1)
            await referee.publish("iwgt/v1/tables/t1/cmd", b"after", qos=1)
            assert (await anext(aiter(table.messages))).payload == b"after"

    run(body)


# --------------------------------------------------------------------------------------------- start errors


def test_embedded_broker_on_a_taken_port_says_so(free_port: int) -> None:
    async def body() -> None:
        async with EmbeddedBroker("127.0.0.1", free_port, Credentials.generate()):
            with pytest.raises(BrokerError, match=f"cannot listen on 127.0.0.1:{free_port}"):
                await EmbeddedBroker("127.0.0.1", free_port, Credentials.generate()).start()

    run(body)


def test_mosquitto_on_a_taken_port_says_so(free_port: int, tmp_path: Path) -> None:
    need_mosquitto()

    async def body() -> None:
        async with EmbeddedBroker("127.0.0.1", free_port, Credentials.generate()):
            second = MosquittoBroker(free_port, Credentials.generate(), tmp_path)
            with pytest.raises(BrokerError, match="Address already in use"):
                await second.start()
            assert not second.running

    run(body)


def test_mosquitto_files_are_private(tmp_path: Path) -> None:
    broker = MosquittoBroker(1883, Credentials({"referee": "r", "table": "t"}), tmp_path)
    conf = broker.write_config().read_text()
    assert "allow_anonymous false" in conf.splitlines()
    assert "listener 1883 127.0.0.1" in conf.splitlines()
    for name in ("mosquitto.conf", "passwords", "acl"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
    users = [line.split(":")[0] for line in (tmp_path / "passwords").read_text().splitlines()]
    assert users == ["referee", "table"]


# --------------------------------------------------------------------------------------------- a power cut


def _mqtt_string(data: bytes) -> bytes:
    return len(data).to_bytes(2, "big") + data


def connect_packet(
    client_id: str, user: str, password: str, will: tuple[str, bytes], keepalive: int
) -> bytes:
    """An MQTT 3.1.1 CONNECT (clean session, a retained QoS 1 will), written by hand: a client that then
    falls silent without closing its socket is what a power cut looks like to the broker."""
    flags = 0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02  # user, password, will retain, will QoS 1, will, clean
    body = _mqtt_string(b"MQTT") + bytes([4, flags]) + keepalive.to_bytes(2, "big")
    body += _mqtt_string(client_id.encode()) + _mqtt_string(will[0].encode()) + _mqtt_string(will[1])
    body += _mqtt_string(user.encode()) + _mqtt_string(password.encode())
    length = bytearray()
    n = len(body)
    while True:  # the remaining length, 7 bits a byte
        n, digit = divmod(n, 128)
        length.append(digit | (0x80 if n else 0))
        if not n:
            break
    return bytes([0x10]) + bytes(length) + body


def test_a_silent_table_is_declared_offline_by_its_will(broker: BrokerHandle) -> None:
    """No DISCONNECT, no FIN, no PINGREQ: after 1.5 keep-alives the broker drops it and sends its will."""
    status = "iwgt/v1/tables/t1/status"
    table = MqttUrl.parse(broker.url_table)

    async def body() -> None:
        async with client(broker.url_referee, "referee") as referee:
            await referee.subscribe(status, qos=1)
            reader, writer = await asyncio.open_connection(broker.host, broker.port)
            packet = connect_packet("t1", "table", table.password or "", (status, b"offline"), keepalive=1)
            writer.write(packet)
            assert await reader.readexactly(4) == bytes([0x20, 0x02, 0x00, 0x00])  # CONNACK: accepted
            # ... and now the table says nothing more, its socket left open.
            will = await anext(aiter(referee.messages))
            assert (str(will.topic), will.payload) == (status, b"offline")
            assert await reader.read() == b""  # the broker closed the silent connection
            writer.close()

    run(body)


# --------------------------------------------------------------------------------------------- TLS


def make_certificates(folder: Path) -> tuple[Path, TlsFiles]:
    """A throwaway CA and a server certificate it signed for 127.0.0.1 (openssl; EC keys are quick)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, cert, ext = (
        folder / n for n in ("ca.key", "ca.pem", "s.key", "s.csr", "s.pem", "ext")
    )
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    ext.write_text("subjectAltName=IP:127.0.0.1\n")
    for command in (
        ["req", "-x509", *ec, "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=iwgt test CA"],
        ["req", *ec, "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
        [
            "x509",
            "-req",
            "-in",
            csr,
            "-CA",
            ca,
            "-CAkey",
            ca_key,
            "-CAcreateserial",
            "-out",
            cert,
            "-days",
            "2",
            "-extfile",
            ext,
        ],
    ):
        subprocess.run(["openssl", *map(str, command)], check=True, capture_output=True)
    return ca, TlsFiles(cert, key)


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
def test_tls_with_a_ca_file(kind: str, tmp_path: Path, free_port: int) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    if kind == "mosquitto":
        need_mosquitto()
    ca, tls = make_certificates(tmp_path / "certs")
    creds = Credentials.generate()
    server: EmbeddedBroker | MosquittoBroker = (
        EmbeddedBroker("127.0.0.1", free_port, creds, tls=tls)
        if kind == "embedded"
        else MosquittoBroker(free_port, creds, tmp_path / "mosquitto", tls=tls)
    )
    referee = creds.url("referee", "127.0.0.1", free_port, ca=ca)
    table = creds.url("table", "127.0.0.1", free_port, ca=ca)
    assert table.startswith("mqtts://table:")

    async def body() -> None:
        async with server:
            async with client(referee, "referee") as ref, client(table, "t1") as t1:
                await t1.subscribe("iwgt/v1/tables/t1/frame", qos=1)
                await ref.publish("iwgt/v1/tables/t1/frame", b"over TLS", qos=1)
                assert (await anext(aiter(t1.messages))).payload == b"over TLS"
            # Without our CA the broker's certificate is not trusted: no connection.
            untrusted = MqttUrl.parse(table)
            untrusted = MqttUrl(untrusted.host, untrusted.port, "table", untrusted.password, tls=True)
            with pytest.raises(aiomqtt.MqttError):
                async with client(untrusted, "t2"):
                    pass

    run(body)


def test_a_wildcard_listener_is_dialled_on_loopback() -> None:
    creds = Credentials({"referee": "r", "table": "t"})
    assert EmbeddedBroker("0.0.0.0", 1883, creds).url("table") == "mqtt://table:t@127.0.0.1:1883"
    assert MosquittoBroker(1884, creds, Path("/unused"), host="10.0.0.2").url("referee") == (
        "mqtt://referee:r@10.0.0.2:1884"
    )


def test_a_missing_mosquitto_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MosquittoBroker, "available", staticmethod(lambda executable=None: False))
    monkeypatch.delenv("IWGT_REQUIRE_MOSQUITTO", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Mosquitto is not installed"):
        need_mosquitto()
    monkeypatch.setenv("IWGT_REQUIRE_MOSQUITTO", "1")  # CI: a missing broker is a failure, not a skip
    with pytest.raises(pytest.fail.Exception, match="IWGT_REQUIRE_MOSQUITTO is set"):
        need_mosquitto()


def test_a_table_rebooting_before_its_broker_noticed_comes_back(broker: BrokerHandle) -> None:
    """A quick reboot after a power cut the broker has not noticed: the same client id takes over.

    No FIN, the keep-alive not run out: the controller logs in again and its new birth gets through.
    Mosquitto first publishes the old connection's will, amqtt drops it (either is fine for the referee:
    the birth that follows, with a higher session, is the last word).
    """
    status = "iwgt/v1/tables/t1/status"
    table = MqttUrl.parse(broker.url_table)

    async def body() -> None:
        async with client(broker.url_referee, "referee") as referee:
            await referee.subscribe(status, qos=1)
            ghost_reader, ghost = await asyncio.open_connection(broker.host, broker.port)
            ghost.write(connect_packet("table-t1", "table", table.password or "", (status, b"offline 1"), 60))
            assert await ghost_reader.readexactly(4) == bytes([0x20, 0x02, 0x00, 0x00])
            async with client(broker.url_table, "table-t1") as rebooted:
                await rebooted.publish(status, b"birth 2", qos=1, retain=True)
                before = []
                async for message in referee.messages:
                    if message.payload == b"birth 2":
                        break
                    before.append(message.payload)
                assert before in ([], [b"offline 1"])
            ghost.close()

    run(body)
