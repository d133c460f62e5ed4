"""The LED driver against real UDP listeners that decode its packets (DDP and WLED DNRGB), and over MQTT.

Most tests drive the ticks by hand with a scripted clock (``driver.tick(t)``): no test depends on how fast the
machine is, they count ticks. The sockets are real: the driver's UDP sockets send to listeners on free ports.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.hardware.conftest import BrokerHandle

from iwgt.hardware.ddp import parse_ddp
from iwgt.hardware.layout import Layout, parse_layout
from iwgt.hardware.leds import LedDriver, run_from_mqtt
from iwgt.hardware.mqtt import client
from iwgt.hardware.protocol import REFEREE_STATUS, Command, Frame, FrameLight, RefereeStatus, encode, topic
from iwgt.hardware.wled import parse_dnrgb

GUARD_S = 20.0
"""Only a guard against a hang: no test waits on it when the code works."""

P = 1 / 30  # a tick at 30 fps


class Listener(asyncio.DatagramProtocol):
    """A UDP port that keeps every packet and decodes DDP frames (complete at each push)."""

    def __init__(self, leds: int) -> None:
        self.packets: list[bytes] = []
        self.frames: list[np.ndarray] = []
        self._buffer = np.zeros((leds, 3), dtype=np.uint8)
        self._arrived = asyncio.Event()
        self.port = 0

    def datagram_received(self, data: bytes, addr: object) -> None:
        self.packets.append(data)
        if data[0] & 0xC0 == 0x40:  # DDP
            packet = parse_ddp(data)
            rgb = packet.rgb()
            self._buffer[packet.first_led : packet.first_led + len(rgb)] = rgb
            if packet.push:
                self.frames.append(self._buffer.copy())
        self._arrived.set()

    async def until(self, done: Callable[[], bool]) -> None:
        """Wait until ``done()`` holds (re-checked at each packet)."""
        async with asyncio.timeout(GUARD_S):
            while not done():
                self._arrived.clear()
                await self._arrived.wait()


async def listen(leds: int) -> tuple[asyncio.DatagramTransport, Listener]:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.create_datagram_endpoint(
        lambda: Listener(leds), local_addr=("127.0.0.1", 0)
    )
    protocol.port = transport.get_extra_info("sockname")[1]
    return transport, protocol


def big_layout(ports: list[int], protocol: str = "ddp", timeout_s: int = 2) -> Layout:
    """The 30 x 20 table (600 cells, 3 LEDs each: 1,800), gamma and brightness 1, one controller a port."""
    leds = 1800 // len(ports)
    timeout = f"timeout_s = {timeout_s}\n" if protocol == "dnrgb" else ""  # DDP has none (layout.py)
    controllers = "".join(
        f'[[controllers]]\nname = "c{i}"\nprotocol = "{protocol}"\nhost = "127.0.0.1"\nport = {port}\n'
        f"leds = {leds}\n{timeout}"
        for i, port in enumerate(ports)
    )
    text = f"columns = 30\nrows = 20\nleds_per_cell = 3\ngamma = 1.0\nbrightness = 1.0\n{controllers}"
    return parse_layout(text, "test.toml")


def frame(n: int, *lights: tuple[tuple[int, int], str], pattern: str = "steady") -> Frame:
    return Frame(
        referee="r1",
        frame=n,
        lights=tuple(FrameLight(cell=c, effect="x", colour=colour, pattern=pattern) for c, colour in lights),  # type: ignore[arg-type]
    )


class Clock:
    """A clock the test sets."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def leds_of(cell: tuple[int, int]) -> slice:
    first = (cell[1] * 30 + cell[0]) * 3
    return slice(first, first + 3)


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def test_ddp_two_controllers_cover_1800_leds_push_on_each_last_packet(
    loop: asyncio.AbstractEventLoop,
) -> None:
    async def main() -> None:
        (t1, one), (t2, two) = await listen(900), await listen(900)
        clock = Clock()
        driver = LedDriver(big_layout([one.port, two.port]), fps=30, clock=clock)
        driver.show(frame(1, ((0, 0), "#ff0000"), ((29, 19), "#00ff00"), ((15, 10), "#0000ff")))
        async with driver:
            assert driver.tick(0.0)
        await one.until(lambda: len(one.frames) == 1)
        await two.until(lambda: len(two.frames) == 1)
        t1.close()
        t2.close()
        for listener in (one, two):
            # 900 LEDs = 2,700 bytes: 1,440 + 1,260, the push flag on the second only
            decoded = [parse_ddp(p) for p in listener.packets]
            assert [(d.push, d.offset, len(d.data)) for d in decoded] == [
                (False, 0, 1440),
                (True, 1440, 1260),
            ]
            assert [d.seq for d in decoded] == [1, 2]
        whole = np.concatenate([one.frames[0], two.frames[0]])
        assert whole.shape == (1800, 3)
        assert (whole[leds_of((0, 0))] == [255, 0, 0]).all()
        assert (whole[leds_of((29, 19))] == [0, 255, 0]).all()  # LEDs 1797..1799: the second controller
        assert (whole[leds_of((15, 10))] == [0, 0, 255]).all()  # LEDs 945..947
        lit = {0, 1, 2, 1797, 1798, 1799, 945, 946, 947}
        assert not whole[[i for i in range(1800) if i not in lit]].any()
        assert driver.stats.packets_sent == 4 and driver.stats.frames_sent == 1

    loop.run_until_complete(main())


def test_a_new_frame_shows_at_the_next_tick_and_unchanged_ones_are_refreshed(
    loop: asyncio.AbstractEventLoop,
) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        clock = Clock()
        driver = LedDriver(big_layout([listener.port]), fps=30, refresh_s=0.5, clock=clock)
        driver.show(frame(1, ((3, 4), "#ff0000")))
        async with driver:
            assert driver.tick(0.0)
            assert not driver.tick(P)  # unchanged: not sent again so soon
            driver.show(frame(2, ((3, 4), "#00ff00")))
            assert driver.tick(2 * P)  # the change: sent at the very next tick
            assert not driver.tick(3 * P)
            assert driver.tick(2 * P + 0.5)  # unchanged for REFRESH_S: sent again (WLED's timeout)
            driver.show(frame(1, ((3, 4), "#0000ff")))  # an older frame of the same referee run: ignored
            assert not driver.tick(2 * P + 0.5 + P)
        await listener.until(lambda: len(listener.frames) == 3)
        transport.close()
        assert [tuple(f[leds_of((3, 4))][0]) for f in listener.frames] == [
            (255, 0, 0),
            (0, 255, 0),
            (0, 255, 0),
        ]

    loop.run_until_complete(main())


def test_referee_offline_sends_one_dark_frame_then_silence(loop: asyncio.AbstractEventLoop) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        clock = Clock()
        driver = LedDriver(big_layout([listener.port]), fps=30, refresh_s=0, clock=clock)
        driver.show(frame(1, ((0, 0), "#ffffff")))
        async with driver:
            assert driver.tick(0.0)
            assert driver.tick(P)
            driver.referee(RefereeStatus(online=False, referee="r1"))
            assert driver.tick(2 * P)  # the dark frame
            assert [driver.tick(k * P) for k in range(3, 10)] == [False] * 7  # then nothing
            sent = driver.stats.packets_sent
            driver.referee(RefereeStatus(online=True, referee="r1"))
            assert driver.tick(10 * P)  # back: lit again
        await listener.until(lambda: len(listener.frames) == 4)
        transport.close()
        assert sent == 3 * 4  # three frames of four packets (5,400 bytes): nothing after the dark one
        assert listener.frames[0].any() and listener.frames[1].any()
        assert not listener.frames[2].any()
        assert listener.frames[3].any()
        assert driver.stats.dark_frames == 1

    loop.run_until_complete(main())


def test_no_frame_dark_once_identify_blinks_then_dark_again(loop: asyncio.AbstractEventLoop) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        clock = Clock()
        driver = LedDriver(big_layout([listener.port]), fps=30, refresh_s=0, clock=clock)
        async with driver:
            assert driver.tick(0.0)  # no frame yet: one dark frame (a controller may show a stale picture)
            assert not driver.tick(P)
            clock.now = 1.0
            driver.identify((2, 1), 1000)  # installation: no referee needed
            assert driver.tick(1.0)  # white (on half)
            assert driver.tick(1.4)  # off half (400 ms in: 350..700 is off)
            assert driver.tick(1.7)  # on again
            assert driver.tick(2.0)  # 1000 ms: over: dark once
            assert not driver.tick(2.0 + P)
        await listener.until(lambda: len(listener.frames) == 5)
        transport.close()
        cell = leds_of((2, 1))
        whites = [bool((f[cell] == 245).all()) for f in listener.frames]
        assert whites == [False, True, False, True, False]
        assert not any(f.any() for f in (listener.frames[0], listener.frames[2], listener.frames[4]))
        assert int(np.count_nonzero(listener.frames[1].any(axis=1))) == 3  # only that cell's 3 LEDs

    loop.run_until_complete(main())


def test_dnrgb_controller_gets_489_leds_a_packet_and_its_timeout(loop: asyncio.AbstractEventLoop) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        driver = LedDriver(big_layout([listener.port], "dnrgb", timeout_s=3), fps=30, clock=Clock())
        driver.show(frame(1, ((29, 19), "#102030")))
        async with driver:
            assert driver.tick(0.0)
        await listener.until(lambda: len(listener.packets) == 4)
        transport.close()
        decoded = [parse_dnrgb(p) for p in listener.packets]
        assert [(d.timeout_s, d.start, len(d.rgb)) for d in decoded] == [
            (3, 0, 489),
            (3, 489, 489),
            (3, 978, 489),
            (3, 1467, 333),
        ]
        whole = np.concatenate([d.rgb for d in decoded])
        assert (whole[1797:1800] == [0x10, 0x20, 0x30]).all() and not whole[:1797].any()

    loop.run_until_complete(main())


def test_run_keeps_deadlines_and_skips_late_ticks(loop: asyncio.AbstractEventLoop) -> None:
    period = 1 / 10
    # The clock's readings: show()'s, the start, then one a tick; tick 3 comes 2.5 periods late.
    readings = iter([0.0, 0.0, 0 * period, 1 * period, 2 * period, 5.5 * period, 6 * period, 7 * period])

    async def main() -> None:
        transport, listener = await listen(1800)
        driver = LedDriver(big_layout([listener.port]), fps=10, refresh_s=0, clock=lambda: next(readings))
        driver.show(frame(1, ((1, 1), "#ffffff"), pattern="flash"))
        stats = await driver.run(max_ticks=6)
        await listener.until(lambda: len(listener.frames) == 6)
        transport.close()
        assert (stats.ticks, stats.ticks_late, stats.frames_sent) == (6, 2, 6)

    loop.run_until_complete(main())


def test_run_at_a_real_rate_counts_ticks(loop: asyncio.AbstractEventLoop) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        driver = LedDriver(big_layout([listener.port]), fps=100, refresh_s=0)
        driver.show(frame(1, ((5, 5), "#ff8000"), pattern="pulse"))
        stats = await driver.run(max_ticks=8)
        await listener.until(lambda: len(listener.frames) == 8)
        transport.close()
        assert stats.ticks == 8 and stats.frames_sent == 8 and stats.achieved_fps > 0
        assert stats.as_dict()["ticks"] == 8

    loop.run_until_complete(main())


def test_from_mqtt_frames_identify_and_the_referee_going_offline(broker: BrokerHandle) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        layout = big_layout([listener.port])
        driver = LedDriver(layout, fps=50, refresh_s=0)
        red = leds_of((0, 0))
        ident = leds_of((4, 2))
        async with client(broker.url_referee, "test-referee") as referee:
            await referee.publish(
                REFEREE_STATUS, encode(RefereeStatus(online=True, referee="r1")), qos=1, retain=True
            )
            await referee.publish(
                topic("t1", "frame"), encode(frame(1, ((0, 0), "#ff0000"))), qos=1, retain=True
            )
            task = asyncio.create_task(run_from_mqtt(broker.url_table, "t1", layout, driver=driver))
            try:
                await listener.until(lambda: bool(listener.frames) and listener.frames[-1][red][0, 0] == 255)
                dark_before = (
                    driver.stats.dark_frames
                )  # the dark frame of the start, before the first frame came
                cmd = Command(id="c1", cmd="identify", cell=(4, 2), ms=400)
                await referee.publish(topic("t1", "cmd"), encode(cmd), qos=1)
                await listener.until(lambda: bool((listener.frames[-1][ident] == 245).all()))
                await referee.publish(
                    REFEREE_STATUS, encode(RefereeStatus(online=False, referee="r1")), qos=1, retain=True
                )
                # Once the blink is over and the referee is offline: a dark frame, then silence.
                await listener.until(
                    lambda: (
                        driver.stats.dark_frames == dark_before + 1
                        and len(listener.packets) == driver.stats.packets_sent
                    )
                )
                assert not listener.frames[-1].any()
                ticks, frames = driver.stats.ticks, len(listener.frames)
                async with asyncio.timeout(GUARD_S):
                    while driver.stats.ticks < ticks + 10:
                        await asyncio.sleep(0.01)
                sentinel = asyncio.get_running_loop().create_datagram_endpoint(
                    asyncio.DatagramProtocol, remote_addr=("127.0.0.1", listener.port)
                )
                probe, _ = await sentinel
                probe.sendto(b"\x00end")
                await listener.until(lambda: listener.packets[-1] == b"\x00end")
                probe.close()
                assert len(listener.frames) == frames  # ten ticks and not a packet
            finally:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
        transport.close()

    asyncio.run(main())


def iwgt_command() -> list[str]:
    script = Path(sys.executable).parent / "iwgt"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from iwgt.cli import main; main()"]


@pytest.mark.parametrize("broker", ["embedded"], indirect=True)
def test_the_command_drives_leds_from_the_broker(broker: BrokerHandle, tmp_path: Path) -> None:
    async def main() -> None:
        transport, listener = await listen(1800)
        (tmp_path / "table.toml").write_text(_toml(listener.port), encoding="utf-8")
        async with client(broker.url_referee, "test-referee") as referee:
            await referee.publish(
                topic("t9", "frame"), encode(frame(3, ((2, 2), "#00ff00"))), qos=1, retain=True
            )
        args = ["hardware", "leds", "--device", "t9", "--layout", str(tmp_path / "table.toml")]
        process = await asyncio.create_subprocess_exec(
            *iwgt_command(), *args, "--mqtt", broker.url_table, "--fps", "20",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await listener.until(
                lambda: bool(listener.frames) and listener.frames[-1][leds_of((2, 2))][0, 1] == 255
            )
        finally:
            process.send_signal(signal.SIGINT)
            out, err = await process.communicate()
        transport.close()
        assert process.returncode == 0, err.decode()
        assert f"127.0.0.1:{listener.port} LEDs 0..1799" in out.decode()
        assert "frames_sent" in out.decode()  # the figures at the end

    asyncio.run(main())


def _toml(port: int) -> str:
    return (
        "columns = 30\nrows = 20\nleds_per_cell = 3\ngamma = 1.0\nbrightness = 1.0\n"
        f'[[controllers]]\nname = "c0"\nprotocol = "ddp"\nhost = "127.0.0.1"\nport = {port}\nleds = 1800\n'
    )


def test_the_command_refuses_bad_arguments(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from iwgt.cli import app

    good = tmp_path / "table.toml"
    good.write_text(_toml(4048), encoding="utf-8")
    runner = CliRunner()
    for args, says in [
        (["--device", "Bad!", "--layout", str(good)], "device 'Bad!'"),
        (["--device", "t1", "--layout", str(tmp_path / "none.toml")], "none.toml"),
        (["--device", "t1", "--layout", str(good), "--mqtt", "http://x"], "mqtt:// or mqtts://"),
        (["--device", "t1", "--layout", str(good), "--fps", "0"], "--fps must be 1..240"),
    ]:
        result = runner.invoke(app, ["hardware", "leds", *args])
        assert result.exit_code == 2, args
        assert says in result.output, (args, result.output)
