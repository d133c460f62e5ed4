"""The simulated table's page (``iwgt table-sim``) driven in Chromium, against a real broker.

A broker (the embedded amqtt one, in a process of its own) and ``iwgt table-sim`` run as subprocesses on free
ports; a test subscriber (paho-mqtt, as the referee would) reads what the table publishes and publishes frames
to it. The page's clicks must become sensor messages on the wire, a frame's colour must reach the page's LED
dots, and the Power cycle button must make the broker publish the table's will.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson
import paho.mqtt.client as paho
import pytest
from playwright.sync_api import Browser, Page
from tests.browser.conftest import _free_port, _iwgt, shot
from tests.browser.kit import FULL_HD, WAIT_MS, open_link, tid

from iwgt.hardware.broker import Credentials
from iwgt.hardware.layout import load_layout
from iwgt.hardware.mqtt import MqttUrl

DEVICE = "sim-b"
LAYOUT = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "hardware" / "data" / "table-30x20.toml"
WAIT_S = WAIT_MS / 1000
"""A safety net for the subscriber's waits (a hang fails the test; no assertion is on time)."""

BROKER = """
import asyncio, sys
from pathlib import Path
from iwgt.hardware.broker import Credentials, EmbeddedBroker

async def main() -> None:
    broker = EmbeddedBroker("127.0.0.1", int(sys.argv[2]), Credentials.load(Path(sys.argv[1])))
    await broker.start()
    print("ready", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


@dataclass
class Subscriber:
    """The referee's side of the wire: every message of the device's topics, kept in order."""

    url: str
    got: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> None:
        url = MqttUrl.parse(self.url)
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="test-referee")
        self.client.username_pw_set(url.username, url.password)
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *args: subscribed.set()
        self.client.on_connect = lambda c, *args: c.subscribe(f"iwgt/v1/tables/{DEVICE}/#", qos=1)
        self.client.connect(url.host, url.port, keepalive=5)
        self.client.loop_start()
        assert subscribed.wait(WAIT_S), "the test subscriber could not subscribe"

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def _on_message(self, client: object, userdata: object, msg: paho.MQTTMessage) -> None:
        with self.cond:
            self.got.append((msg.topic.rsplit("/", 1)[-1], orjson.loads(msg.payload)))
            self.cond.notify_all()

    def of(self, leaf: str) -> list[dict[str, object]]:
        with self.cond:
            return [payload for got, payload in self.got if got == leaf]

    def wait(self, test: Callable[[], bool], what: str) -> None:
        with self.cond:
            assert self.cond.wait_for(test, WAIT_S), f"the subscriber never saw {what}: {self.got[-5:]}"

    def publish(self, leaf: str, payload: dict[str, object], retain: bool = False) -> None:
        info = self.client.publish(
            f"iwgt/v1/tables/{DEVICE}/{leaf}", orjson.dumps(payload), qos=1, retain=retain
        )
        info.wait_for_publish(WAIT_S)


@dataclass
class Rig:
    """The broker, the sim and its page's address, the test subscriber."""

    base: str
    sub: Subscriber


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    data = tmp_path_factory.mktemp("tablesim")
    mqtt_port, page_port = _free_port(), _free_port()
    log = open(data / "processes.log", "ab")  # noqa: SIM115  (kept open for the processes' life)
    broker = subprocess.Popen(
        [sys.executable, "-c", BROKER, str(data), str(mqtt_port)], stdout=subprocess.PIPE, stderr=log
    )
    procs = [broker]
    try:
        assert broker.stdout is not None and broker.stdout.readline().strip() == b"ready"
        creds = Credentials.load(data)
        creds.device(DEVICE)  # the sim's own login, made after the broker started (it reads the file again)
        sim = subprocess.Popen(
            [
                *_iwgt(),
                "table-sim",
                "--device",
                DEVICE,
                "--data",
                str(data),
                "--mqtt",
                creds.url(DEVICE, "127.0.0.1", mqtt_port),
                "--port",
                str(page_port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        procs.append(sim)
        base = f"http://127.0.0.1:{page_port}"
        for _ in range(300):
            try:
                if httpx.get(base + "/api/state", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                threading.Event().wait(0.1)
        else:
            raise RuntimeError(f"iwgt table-sim did not start: see {data / 'processes.log'}")
        sub = Subscriber(creds.url("referee", "127.0.0.1", mqtt_port))
        sub.start()
        yield Rig(base, sub)
        sub.stop()
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def sim_page(browser: Browser, rig: Rig) -> Page:
    page = open_link(browser, rig.base, "/", FULL_HD)
    page.wait_for_function("() => window.iwgtSim && window.iwgtSim.state && window.iwgtSim.state.online")
    return page


def sensor(rig: Rig) -> list[tuple[object, object, object]]:
    return [(e["seq"], e["event"], tuple(e["cell"])) for e in rig.sub.of("sensor")]  # type: ignore[arg-type]


def test_lift_and_place_become_sensor_messages(browser: Browser, rig: Rig) -> None:
    page = sim_page(browser, rig)
    assert tid(page, "online").get_attribute("data-online") == "true"
    tid(page, "box").click()
    page.wait_for_function("() => window.iwgtSim.state.in_hand !== null")
    tid(page, "cell-4-4").click()
    tid(page, "piece-4-4").wait_for()
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == 1, "the piece placed")
    # Lift it: it follows the pointer; put it down one cell east.
    tid(page, "piece-4-4").click()
    tid(page, "in-hand").wait_for()
    page.mouse.move(600, 500)
    assert tid(page, "hand").get_attribute("data-held") == "true"
    tid(page, "cell-5-4").click()
    tid(page, "piece-5-4").wait_for()
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == 3, "the lift and the place")
    session = rig.sub.of("sensor")[0]["session"]
    assert sensor(rig) == [(1, "placed", (4, 4)), (2, "lifted", (4, 4)), (3, "placed", (5, 4))]
    assert all(e["session"] == session for e in rig.sub.of("sensor"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_a_frame_colours_the_led_dots(browser: Browser, rig: Rig) -> None:
    page = sim_page(browser, rig)
    leds = load_layout(LAYOUT).cells()[(7, 2)]
    assert list(leds) == [(2 * 30 + 7) * 3 + k for k in range(3)]  # the default numbering, by hand
    frame = {
        "v": 1,
        "referee": "r1",
        "frame": 5,
        "lights": [{"cell": [7, 2], "effect": "move", "colour": "#ff0000", "pattern": "steady"}],
    }
    rig.sub.publish("frame", frame, retain=True)
    tid(page, "frame-id").and_(page.locator('[data-frame="5"]')).wait_for()
    # Red at the table's brightness (255 * 0.6 = 153), shown as the colour the referee asked for.
    for index in leds:
        page.wait_for_function(
            "i => document.querySelector(`[data-testid='led-${i}']`).dataset.colour === '#ff0000'", arg=index
        )
        assert tid(page, f"led-{index}").get_attribute("data-raw") == "990000"
    assert tid(page, f"led-{leds[0] - 1}").get_attribute("data-colour") == "#000000"
    shot(page, "tablesim-frame")
    page.close()


def test_power_cycle_publishes_the_will(browser: Browser, rig: Rig) -> None:
    page = sim_page(browser, rig)
    session = int(tid(page, "session").inner_text())
    statuses = len(rig.sub.of("status"))
    tid(page, "power-cycle").click()
    rig.sub.wait(lambda: len(rig.sub.of("status")) >= statuses + 2, "the will and the new birth")
    will, birth = rig.sub.of("status")[statuses : statuses + 2]
    assert will == {"v": 1, "device": DEVICE, "online": False, "session": session}
    assert (birth["online"], birth["session"]) == (True, session + 1)
    tid(page, "session").and_(page.get_by_text(str(session + 1), exact=True)).wait_for()
    page.close()


def test_faults_and_follow_the_lights_from_the_page(browser: Browser, rig: Rig) -> None:
    page = sim_page(browser, rig)
    before = len(rig.sub.of("sensor"))
    # Stick a sensor on an empty cell: it reads a piece (one "placed"); the button is a mode, then off.
    tid(page, "stick").click()
    assert tid(page, "stick").get_attribute("aria-pressed") == "true"
    tid(page, "cell-9-9").click()
    tid(page, "stuck-9-9").wait_for()
    assert tid(page, "stick").get_attribute("aria-pressed") == "false"
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == before + 1, "the stuck sensor")
    assert rig.sub.of("sensor")[-1]["cell"] == [9, 9] and rig.sub.of("sensor")[-1]["event"] == "placed"
    # Follow the lights: a piece wanted on (12, 2), one too many on (13, 2): it moves over (lifted, placed);
    # the pieces no light names stay where they are.
    tid(page, "box").click()
    page.wait_for_function("() => window.iwgtSim.state.in_hand !== null")
    tid(page, "cell-13-2").click()
    tid(page, "piece-13-2").wait_for()
    frame = {
        "v": 1,
        "referee": "r1",
        "frame": 6,
        "lights": [
            {"cell": [12, 2], "effect": "piece_missing", "colour": "#38bdf8", "pattern": "pulse"},
            {"cell": [13, 2], "effect": "piece_extra", "colour": "#ff8a00", "pattern": "pulse"},
        ],
    }
    rig.sub.publish("frame", frame, retain=True)
    tid(page, "frame-id").and_(page.locator('[data-frame="6"]')).wait_for()
    count = len(rig.sub.of("sensor"))
    tid(page, "tidy").click()
    tid(page, "piece-12-2").wait_for()
    assert tid(page, "piece-13-2").count() == 0
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == count + 2, "the tidy's lift and place")
    last = rig.sub.of("sensor")[-2:]
    assert [(e["event"], e["cell"]) for e in last] == [("lifted", [13, 2]), ("placed", [12, 2])]
    # Knock a piece: it falls east (an even row: (12, 2) -> (13, 2), empty again).
    tid(page, "knock").click()
    tid(page, "piece-12-2").click()
    tid(page, "piece-13-2").wait_for()
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == count + 4, "the knock")
    assert [(e["event"], e["cell"]) for e in rig.sub.of("sensor")[-2:]] == [
        ("lifted", [12, 2]),
        ("placed", [13, 2]),
    ]
    # Drop next message: the next sensor message never arrives, the one after does (seq shows the gap).
    tid(page, "drop-next").click()
    page.wait_for_function("() => window.iwgtSim.state.drop_pending === 1")
    tid(page, "piece-13-2").click()
    tid(page, "in-hand").wait_for()
    tid(page, "cell-13-3").click()
    tid(page, "piece-13-3").wait_for()
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == count + 5, "the place after the lost lift")
    lost, kept = rig.sub.of("sensor")[-2:]
    assert (kept["event"], kept["cell"]) == ("placed", [13, 3])
    assert kept["seq"] == lost["seq"] + 2  # type: ignore[operator]
    shot(page, "tablesim-faults")
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_the_page_fits_a_tablet(browser: Browser, rig: Rig) -> None:
    page = open_link(browser, rig.base, "/", {"width": 1024, "height": 768})
    page.wait_for_function("() => window.iwgtSim && window.iwgtSim.state")
    for name in ("tidy", "drop-next", "power-cycle", "stick", "knock", "box", "network"):
        box = tid(page, name).bounding_box()
        assert box is not None and box["height"] >= 44, name  # a finger's target
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1024, name
    board = tid(page, "board").bounding_box()
    assert board is not None and board["width"] >= 600
    shot(page, "tablesim-tablet")
    page.close()


def test_the_keyboard_lifts_and_places_with_a_visible_focus(browser: Browser, rig: Rig) -> None:
    """The board is one tab stop (arrows move between cells), each piece another; Enter or Space lifts and
    places, and the focused cell shows a thick yellow edge."""
    page = sim_page(browser, rig)
    count = len(rig.sub.of("sensor"))
    tid(page, "box").click()
    page.wait_for_function("() => window.iwgtSim.state.in_hand !== null")
    tid(page, "cell-20-15").focus()
    page.keyboard.press("Enter")  # put the box's piece down on (20, 15)
    tid(page, "piece-20-15").wait_for()
    page.keyboard.press("Space")  # the focus stayed on the cell: lift it again
    tid(page, "in-hand").wait_for()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.dataset.testid")
    assert focused == "cell-21-16"
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    stroke = page.evaluate("() => getComputedStyle(document.activeElement).stroke")
    assert stroke == "rgb(255, 212, 0)", stroke  # the page's --warn yellow
    assert tid(page, "cell-21-16").get_attribute("tabindex") == "0"  # the roving tab stop moved with it
    assert tid(page, "cell-20-15").get_attribute("tabindex") == "-1"
    shot(page, "tablesim-keyboard-hand")
    page.keyboard.press("Enter")
    tid(page, "piece-21-16").wait_for()
    # A piece takes the focus by itself (a tab stop) and Enter lifts it too.
    assert tid(page, "piece-21-16").get_attribute("tabindex") == "0"
    tid(page, "piece-21-16").focus()
    page.keyboard.press("Enter")
    tid(page, "in-hand").wait_for()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    tid(page, "piece-20-16").wait_for()
    rig.sub.wait(lambda: len(rig.sub.of("sensor")) == count + 5, "the keyboard's lifts and placements")
    assert [(e["event"], e["cell"]) for e in rig.sub.of("sensor")[count:]] == [
        ("placed", [20, 15]),
        ("lifted", [20, 15]),
        ("placed", [21, 16]),
        ("lifted", [21, 16]),
        ("placed", [20, 16]),
    ]
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def _luminance(rgb: str) -> float:
    """WCAG relative luminance of a CSS "rgb(r, g, b)"."""
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_the_legend_names_the_colours_and_the_page_says_whose_cells(browser: Browser, rig: Rig) -> None:
    """A legend from the frame's effects (the table's own first), the table's coordinates said to be the
    table's, and Follow the lights readable (white on its blue at least 4.5:1)."""
    page = sim_page(browser, rig)
    frame = {
        "v": 1,
        "referee": "r1",
        "frame": 9,
        "lights": [
            {"cell": [3, 3], "effect": "destination", "colour": "#22c55e", "pattern": "steady"},
            {"cell": [4, 3], "effect": "spell_wave", "colour": "#a855f7", "pattern": "wave"},
            {"cell": [5, 3], "effect": "piece_missing", "colour": "#38bdf8", "pattern": "pulse"},
        ],
    }
    rig.sub.publish("frame", frame, retain=True)
    tid(page, "frame-id").and_(page.locator('[data-frame="9"]')).wait_for()
    items = tid(page, "legend").locator("li")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"legend\"] li').length === 3")
    assert items.evaluate_all("els => els.map(e => e.dataset.effect)") == [
        "piece_missing",
        "destination",
        "spell_wave",
    ]
    assert tid(page, "legend-piece_missing").inner_text() == "Table: a piece belongs here: put one on"
    assert tid(page, "legend-destination").inner_text() == "Game: a lit piece may move here"
    assert tid(page, "legend-spell_wave").inner_text() == "Game: spell wave"  # a game's own: from its name
    swatch = tid(page, "legend-spell_wave").locator(".swatch")
    assert swatch.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(168, 85, 247)"
    assert tid(page, "legend-empty").is_hidden()
    note = tid(page, "coords-note")
    assert note.is_visible() and "table's" in note.inner_text() and "game's" in note.inner_text()
    style = "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    colours = tid(page, "tidy").evaluate(style)
    light, dark = sorted((_luminance(c) for c in colours), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5, colours
    shot(page, "tablesim-legend")
    # A dark frame: no legend, the page says so.
    rig.sub.publish("frame", {"v": 1, "referee": "r1", "frame": 10, "lights": []}, retain=True)
    tid(page, "legend-empty").wait_for()
    assert items.count() == 0
    page.close()
