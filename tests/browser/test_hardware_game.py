"""A whole game on the simulated physical table beside the touchscreen (issue 16, docs/hardware.md).

A real ``iwgt serve --table-bridge`` (its embedded broker on a free port) and a real ``iwgt table-sim`` on
that broker: the table is created, the sim's device is bound in the lobby's "Physical table" select, and the
pieces are set up by pressing Follow the lights on the sim's page. Then the hex game's ``first_battle`` is
played to Game Over: the Light's every move by lifting a piece and putting it down on the sim's page (the
touchscreen shows the piece in the air, its destinations lit on the sim's LEDs), every other decision
(deployment, End Phase, spells, reports) on the touchscreen; the table bot plays the Darkness, and its moves
(and the fallen units) are put right on the table with Follow the lights. Once, a piece is put down where the
rules forbid: its cell turns red on the sim's LEDs, the touchscreen says why, and the game refuses to go on
(``table_diverged``) until the piece is back.

Screenshots (build/screenshots/): hwgame_*.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from iwgt.core.table import Surface
from iwgt.hardware.layout import Layout, load_layout
from iwgt.hardware.places import placement

from .conftest import Server, _free_port, _iwgt, shot
from .kit import FULL_HD, WAIT_MS, tid, version, wait_version
from .test_play import TABLET, deploy, lit_cells, my_turn, no_page_errors, phase_text, watch_errors

LAYOUT = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "hardware" / "data" / "table-16x12.toml"
DEVICE = "sim-1"
LIGHT = 0
SWORDSMEN, ARCHERS, WULFGELDRE = 2, 3, 0
OLD_TOWER = (6, 2)  # impassable: a piece put down there is refused

expect.set_options(timeout=WAIT_MS)

Cell = tuple[int, int]


# -- the two processes ---------------------------------------------------------------------------------------


class BridgeServer(Server):
    """``iwgt serve --table-bridge`` with its embedded broker on a free port of its own."""

    def __init__(self, data: Path) -> None:
        super().__init__(data)
        self.mqtt_port = _free_port()

    def start(self) -> None:
        """Start the server with the bridge and wait until it answers."""
        cmd = [*_iwgt(), "serve", "--port", str(self.port), "--data", str(self.data)]
        cmd += [
            "--bot-delay",
            str(self.bot_delay),
            "--table-bridge",
            "--mqtt-listen",
            f"127.0.0.1:{self.mqtt_port}",
        ]
        log = open(self.data / "server.log", "ab")  # noqa: SIM115  (kept open for the process's life)
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        answers(self.base + "/api/games", self.proc, self.data / "server.log")

    def table_url(self) -> str:
        """The device's own broker URL (iwgt hardware credentials --device, made while the server runs)."""
        out = subprocess.run(
            [
                *_iwgt(),
                *("hardware", "credentials", "--device", DEVICE),
                *("--data", str(self.data), "--port", str(self.mqtt_port)),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        url = next(line.strip() for line in out.splitlines() if line.strip().startswith("mqtt://"))
        return url


def answers(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until ``url`` answers 200 (the process still running), else fail with its log."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer: see {log}")


class SimTableProcess:
    """``iwgt table-sim`` on the server's broker, its page on a free port."""

    def __init__(self, data: Path, url: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data / "table-sim.log"
        cmd = [*_iwgt(), "table-sim", "--device", DEVICE, "--layout", str(LAYOUT), "--mqtt", url]
        cmd += [
            "--port",
            str(self.port),
            "--data",
            str(data),
        ]  # its session "flash" file in the test's folder
        self.proc = subprocess.Popen(cmd, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)  # noqa: SIM115
        answers(self.base + "/api/state", self.proc, self.log)

    def stop(self) -> None:
        """Stop the sim (its MQTT client says goodbye first)."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[BridgeServer, SimTableProcess]]:
    srv = BridgeServer(tmp_path)
    srv.start()
    sim: SimTableProcess | None = None
    try:
        sim = SimTableProcess(tmp_path, srv.table_url())
        yield srv, sim
    finally:
        if sim is not None:
            sim.stop()
        srv.stop()


# -- the sim's page ------------------------------------------------------------------------------------------


class Sim:
    """The simulated table's page: a person's hands on it, and its LEDs as it draws them."""

    def __init__(self, page: Page, base: str, layout: Layout, shift: Cell) -> None:
        self.page = page
        self.base = base
        self.layout = layout
        self.shift = shift

    def table_cell(self, cell: Cell) -> Cell:
        """The table's cell under a game cell."""
        return cell[0] + self.shift[0], cell[1] + self.shift[1]

    def lift(self, cell: Cell) -> None:
        """Lift the piece on a game cell (a click on it: it follows the pointer)."""
        c, r = self.table_cell(cell)
        tid(self.page, f"piece-{c}-{r}").click()
        expect(tid(self.page, "in-hand")).to_have_count(1)

    def place(self, cell: Cell) -> None:
        """Put the piece in the hand down on a game cell."""
        c, r = self.table_cell(cell)
        tid(self.page, f"cell-{c}-{r}").click()
        expect(tid(self.page, "in-hand")).to_have_count(0)
        expect(tid(self.page, f"piece-{c}-{r}")).to_have_count(1)

    def follow_the_lights(self) -> None:
        """Press Follow the lights: the pieces go where the lights ask."""
        tid(self.page, "tidy").click()

    def state(self) -> dict[str, Any]:
        """The sim's state (GET /api/state of its own server: what its page draws)."""
        data: dict[str, Any] = httpx.get(self.base + "/api/state", timeout=5).json()
        return data

    def rgb(self, cell: Cell) -> tuple[int, int, int]:
        """The first LED dot of a game cell's table cell, as the sim's page draws it now."""
        i = self.layout.leds_of(self.table_cell(cell))[0]
        raw = tid(self.page, f"led-{i}").get_attribute("data-raw") or "000000"
        return int(raw[0:2], 16), int(raw[2:4], 16), int(raw[4:6], 16)

    def wait_rgb(self, cell: Cell, colour: str) -> tuple[int, int, int]:
        """Wait until the cell's LEDs show ``colour`` ("red", "green"): that channel well above the others."""
        k = {"red": 0, "green": 1, "blue": 2}[colour]
        deadline = time.monotonic() + WAIT_MS / 1000
        while True:
            rgb = self.rgb(cell)
            if rgb[k] >= 40 and all(rgb[k] > 2 * v for j, v in enumerate(rgb) if j != k):
                return rgb
            if time.monotonic() > deadline:
                raise AssertionError(f"the sim's LEDs at {cell} never showed {colour}: {rgb}")
            time.sleep(0.1)


# -- the touchscreen -----------------------------------------------------------------------------------------


def hardware(page: Page) -> dict[str, Any]:
    """The view's hardware field the touchscreen holds."""
    hw: dict[str, Any] | None = page.evaluate("() => window.iwgtTable.view && window.iwgtTable.view.hardware")
    assert hw is not None, "the view has no physical table"
    return hw


def unit_of(page: Page, unit: int) -> dict[str, Any]:
    """A unit of the view's observation."""
    units: list[dict[str, Any]] = page.evaluate("() => window.iwgtTable.view.observation.units")
    return next(u for u in units if u["id"] == unit)


def agreed(page: Page) -> None:
    """Wait until the table and the game agree (no divergent cell, nothing to wait for)."""
    expect(tid(page, "hw-divergent")).to_have_count(0)
    expect(tid(page, "hw-blocked")).to_have_count(0)


def tidy(page: Page, sim: Sim) -> None:
    """Follow the lights on the sim, then wait until the touchscreen's divergent cells are put right (or
    others differ: the bot may move again as soon as the table agrees)."""
    before = page.evaluate("() => JSON.stringify(window.iwgtTable.view.hardware.divergent)")
    sim.follow_the_lights()
    try:
        page.wait_for_function(
            """before => { const hw = window.iwgtTable.view.hardware; if (!hw) return false;
                           return !hw.divergent.length || JSON.stringify(hw.divergent) !== before; }""",
            arg=before,
            timeout=WAIT_MS,
        )
    except PlaywrightTimeout as exc:
        state = sim.state()
        raise AssertionError(
            f"Follow the lights did not put the table right: {hardware(page)}; the sim's pieces "
            f"{state['pieces']}, lights {state['effects']}, log {state['log']}, queued {state['queued']}, "
            f"published {state['published']}, session {state['session']}, seq {state['seq']}"
        ) from exc


def dismiss_report(page: Page) -> bool:
    """A combat report on the touchscreen: read, dismissed."""
    modal = tid(page, "report-modal")
    if modal.count() and modal.is_visible():
        tid(page, "report-ok").click()
        expect(modal).to_have_count(0)
        return True
    return False


class Play:
    """What the test saw along the way."""

    def __init__(self, page: Page, sim: Sim) -> None:
        self.page = page
        self.sim = sim
        self.illegal = False
        self.moves = 0
        self.tidies = 0
        self.cast = False
        self.moved_turns: set[int] = set()
        self.put_down = False
        self.waited = False

    def held(self, unit: int, origin: Cell) -> list[Cell]:
        """Lift ``unit`` off its cell on the sim; the touchscreen shows it in the air and its destinations,
        the same destinations lit green on the sim's LEDs. Returns them."""
        page, sim = self.page, self.sim
        name = unit_of(page, unit)["name"]
        sim.lift(origin)
        expect(tid(page, "hw-held")).to_contain_text(f"{name} lifted from [{origin[0]}, {origin[1]}]")
        page.wait_for_function(
            """() => [...document.querySelectorAll('[data-testid="board"] polygon[data-cell]')]
                 .some(el => /\\bdestination\\b/.test(el.dataset.light || ''))"""
        )
        dests = lit_cells(page, "destination")
        for d in dests[:3]:
            sim.wait_rgb(d, "green")
        if not self.put_down:
            # The screen's Put it down does not let go of a piece still in the air on the table: it says so.
            self.put_down = True
            tid(page, "put-down").click()
            toast = page.locator('[data-testid="toast"]').last
            expect(toast).to_contain_text("put the piece down on the table")
            expect(tid(page, "hw-held")).to_be_visible()
            assert page.evaluate("() => window.iwgtTable.selected") == unit
        return dests

    def move(self, turn: int) -> None:
        """The Light's movement: one piece lifted and put down on the sim (once, first, a refused one)."""
        page, sim = self.page, self.sim
        movable = set(page.evaluate("() => window.iwgtTable.view.options.movable || []"))
        unit = next((u for u in (SWORDSMEN, ARCHERS, WULFGELDRE) if u in movable), None)
        if unit is None:
            return
        origin = tuple(unit_of(page, unit)["cell"])
        assert len(origin) == 2
        start: Cell = (origin[0], origin[1])
        if not self.illegal:
            self.refused_then_put_back(unit, start)
        dests = self.held(unit, start)
        forward = sorted(dests, key=lambda d: (-d[1], abs(d[0] - start[0])))  # towards the Darkness
        dest = forward[0]
        before = version(page)
        sim.place(dest)
        wait_version(page, before + 1)
        expect(tid(page, f"unit-{unit}")).to_have_attribute("data-cell", f"{dest[0]},{dest[1]}")
        expect(tid(page, "hw-held")).to_have_count(0)
        expect(tid(page, "hw-refusal")).to_have_count(0)
        # The table agrees where the piece went and where it came from (a move may have other effects).
        around = [d for d in hardware(page)["divergent"] if d["cell"] in ([*start], [*dest])]
        assert around == [], around
        self.moves += 1
        if self.moves == 1:
            shot(page, "hwgame_04_moved")

    def refused_then_put_back(self, unit: int, start: Cell) -> None:
        """A piece put down on the impassable tower: red on the sim, the reason on the touchscreen, the game
        refusing to go on (End Phase refused: table_diverged) until the piece is back on its cell."""
        page, sim = self.page, self.sim
        self.held(unit, start)
        shot(page, "hwgame_02_piece_in_the_air")
        shot(sim.page, "hwgame_02_sim_destinations")
        v = version(page)
        sim.place(OLD_TOWER)
        expect(tid(page, "hw-refusal")).to_be_visible()
        expect(tid(page, "hw-refusal")).to_contain_text(f"[{OLD_TOWER[0]}, {OLD_TOWER[1]}]")
        sim.wait_rgb(OLD_TOWER, "red")
        wants = {(d["want"], tuple(d["cell"])) for d in hardware(page)["divergent"] if d["cell"] is not None}
        assert ("piece", start) in wants and ("empty", OLD_TOWER) in wants, wants
        expect(tid(page, "hw-blocked")).to_be_visible()
        # The screen's board shows the table's own lights too: the refused cell red, the piece missing.
        tower = tid(page, f"cell-{OLD_TOWER[0]}-{OLD_TOWER[1]}")
        expect(tower).to_have_attribute("data-light", re.compile(r"\billegal\b"))
        origin = tid(page, f"cell-{start[0]}-{start[1]}")
        expect(origin).to_have_attribute("data-light", re.compile(r"\bpiece_missing\b"))
        shot(page, "hwgame_03_refused")
        shot(sim.page, "hwgame_03_sim_red")
        # The game does not go on: End Phase is refused while the piece is not back.
        tid(page, "end-phase").click()
        expect(tid(page, "hw-diverged")).to_be_visible()
        expect(page.locator('[data-testid="toast"].toast-error').last).to_contain_text("the table differs")
        page.set_viewport_size(TABLET)
        shot(page, "hwgame_03_refused_tablet")
        page.set_viewport_size(FULL_HD)
        assert version(page) == v, "an act went through while the table differed from the game"
        # The piece back where the referee knows it: lifted off the tower, put down on its own cell.
        sim.lift(OLD_TOWER)
        sim.place(start)
        agreed(page)
        expect(tid(page, "hw-refusal")).to_have_count(0)
        expect(tid(page, "hw-diverged")).to_have_count(0)
        assert version(page) == v
        self.illegal = True

    def spells(self) -> None:
        """The spells step on the touchscreen: Wulfgeldre casts Strength once, then the Light passes."""
        page = self.page
        expect(tid(page, "prompt")).to_contain_text("Cast a spell?")
        before = version(page)
        if not self.cast:
            tid(page, "cast-start").click()
            page.locator('[data-testid="wizard-dialog"], [data-testid="cast-spell-dialog"]').first.wait_for()
            if tid(page, "wizard-dialog").count():
                tid(page, f"wizard-{WULFGELDRE}").click()
            tid(page, "cast-spell-dialog").get_by_test_id("spell-strength").click()
            tid(page, "cast-confirm").click()
            self.cast = True
        else:
            tid(page, "no-more-spells").click()
        wait_version(page, before + 1)


@pytest.mark.timeout(300)
def test_a_whole_game_on_the_simulated_table(
    rig: tuple[BridgeServer, SimTableProcess], browser: Browser
) -> None:
    server, simproc = rig
    layout = load_layout(LAYOUT)
    shift = placement(layout, Surface(kind="cells", width=8, height=6)).shift
    # The table: the Light a human at the touchscreen, the Darkness the table bot.
    made = httpx.post(
        server.base + "/api/tables",
        json={
            "game": "valkyrx",
            "scenario": "first_battle",
            "seats": ["human", "bot"],
            "mode": "shared",
            "dice": "table",
            "timer_seconds": 1800,
            "seed": 7,
        },
        timeout=10,
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    link = made.json()["links"]["table"]
    page = sim_page = None
    try:
        # The lobby binds the sim's device to the table (its "Physical table" select, online, with its size).
        lobby = watch_errors(browser.new_page(viewport=FULL_HD))
        lobby.goto(server.base + "/")
        select = tid(lobby, f"hardware-select-{table_id}")
        expect(select.locator("option", has_text=f"{DEVICE} (16 x 12, online)")).to_have_count(1)
        select.select_option(DEVICE)
        expect(select).to_have_value(DEVICE)
        expect(select).to_be_enabled()
        devices = httpx.get(server.base + "/api/hardware", timeout=5).json()["devices"]
        assert [(d["device"], d["table"]) for d in devices] == [(DEVICE, table_id)]
        shot(lobby, "hwgame_00_lobby_bound")
        no_page_errors(lobby)
        lobby.close()

        # The touchscreen and the sim's page side by side.
        page = watch_errors(browser.new_page(viewport=FULL_HD))
        page.goto(link if link.startswith("http") else server.base + link)
        wait_version(page, 0)
        sim_page = watch_errors(browser.new_page(viewport=FULL_HD))
        sim_page.goto(simproc.base + "/")
        sim = Sim(sim_page, simproc.base, layout, shift)
        play = Play(page, sim)

        # An empty table: every piece missing, the game waits for it.
        expect(tid(page, "hw-strip")).to_be_visible()
        expect(tid(page, "hw-device")).to_have_text(DEVICE)
        expect(tid(page, "hw-online")).to_have_attribute("data-state", "online")
        expect(tid(page, "hw-divergent")).to_be_visible()
        expect(tid(page, "hw-blocked")).to_be_visible()
        pieces = len(hardware(page)["divergent"])
        assert pieces == 9, hardware(page)["divergent"]  # first_battle's nine units, all still in the box
        assert all(d["want"] == "piece" for d in hardware(page)["divergent"])
        expect(tid(page, "hw-count")).to_have_text("9 cells differ from the game")
        board = tid(page, "board").bounding_box()
        shot(page, "hwgame_01_empty_table")
        page.set_viewport_size(TABLET)
        shot(page, "hwgame_01_empty_table_tablet")
        page.set_viewport_size(FULL_HD)
        tidy(page, sim)
        play.tidies += 1
        agreed(page)
        assert tid(page, "board").bounding_box() == board, "the board moved as the strip changed"

        # Deployment on the touchscreen; the bot deploys the Darkness.
        deploy(page)
        before = version(page)
        tid(page, "tick-button").click()
        wait_version(page, before + 1)

        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if page.evaluate("() => window.iwgtTable.view.status") != "playing":
                break  # Game Over (its dialog opens once the last step's lights have played)
            if dismiss_report(page):
                continue
            hw = hardware(page)
            if hw["blocked"] and hw["divergent"] and not play.waited and not my_turn(page):
                # The bot's move waits for hands on the table: the screen says so, not "the bot is playing".
                play.waited = True
                expect(tid(page, "hw-waiting")).to_contain_text("The table differs from the game")
                expect(tid(page, "prompt")).not_to_contain_text("is playing")
                expect(tid(page, "whose-turn")).to_have_text("Waiting for the table")
                shot(page, "hwgame_06_waiting_for_hands")
            if hw["divergent"] and not hw["held"]:
                tidy(page, sim)  # the bot's moves and the fallen units, put right
                play.tidies += 1
                continue
            if not my_turn(page):
                page.wait_for_timeout(150)
                continue
            text = phase_text(page)
            turn = int(m.group(1)) if (m := re.match(r"Turn (\d+)", text)) else 0
            if "Movement" in text:
                if turn not in play.moved_turns:
                    play.moved_turns.add(turn)
                    play.move(turn)
                before = version(page)
                tid(page, "end-phase").click()
                wait_version(page, before + 1)
            elif "Spells" in text:
                play.spells()
            else:
                raise AssertionError(f"the Light to act in an unexpected phase: {text!r}")
        else:
            raise AssertionError("the game did not reach Game Over in time")

        expect(tid(page, "game-over-modal")).to_be_visible()
        expect(tid(page, "game-over-winner")).to_have_text(
            re.compile(r"Forces of (the Light|Darkness) wins?!|A draw")
        )
        shot(page, "hwgame_05_game_over")
        shot(sim_page, "hwgame_05_sim_game_over")
        assert play.illegal, "no piece was ever put down where the rules forbid"
        assert play.moves >= 2, f"the Light moved {play.moves} pieces on the table"
        assert play.tidies >= 2, "the bot's moves were never put right on the table"
        assert play.waited, "the game never waited for hands on the table while the bot was to move"
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
        assert summary["status"] == "over"
        # The Light's moves went through the sensors: the log's steps say so (origin "sensor").
        sensed = page.evaluate("() => window.iwgtTable.view.log.filter(s => s.origin === 'sensor').length")
        assert sensed == play.moves, (
            f"{sensed} steps came from the table's sensors, {play.moves} moves made there"
        )
        no_page_errors(page, sim_page)
    finally:
        for p in (page, sim_page):
            if p is not None:
                p.close()


def test_the_lobby_refuses_a_board_too_big_and_carry_on_plays_past_the_table(
    rig: tuple[BridgeServer, SimTableProcess], browser: Browser
) -> None:
    server, simproc = rig

    def table(scenario: str) -> str:
        body = {"game": "valkyrx", "scenario": scenario, "seats": ["human", "bot"], "mode": "shared"}
        made = httpx.post(server.base + "/api/tables", json={**body, "dice": "table", "seed": 3}, timeout=10)
        assert made.status_code == 201, made.text
        table_id: str = made.json()["id"]
        return table_id

    valley, first = table("valley"), table("first_battle")  # 18 x 12 and 8 x 6 cells; the sim has 16 x 12
    lobby = watch_errors(browser.new_page(viewport=FULL_HD))
    try:
        lobby.goto(server.base + "/")
        refused = tid(lobby, f"hardware-select-{valley}")
        refused.select_option(DEVICE)
        problem = tid(lobby, f"hardware-error-{valley}")
        expect(problem).to_be_visible()
        expect(problem).to_contain_text("18 x 12")
        expect(problem).to_contain_text("16 x 12")
        expect(refused).to_have_value("")  # back to what is bound: nothing
        shot(lobby, "hwlobby_refused")
        devices = httpx.get(server.base + "/api/hardware", timeout=5).json()["devices"]
        assert [d["table"] for d in devices] == [None]
        select = tid(lobby, f"hardware-select-{first}")
        select.select_option(DEVICE)
        expect(select).to_have_value(DEVICE)
        expect(select).to_be_enabled()
        expect(tid(lobby, f"hardware-error-{first}")).to_be_hidden()
        # Freed again, then bound again: "None" frees the device.
        select.select_option("")
        expect(tid(lobby, f"hardware-select-{first}")).to_have_value("")
        expect(tid(lobby, f"hardware-select-{first}")).to_be_enabled()
        assert [
            d["table"] for d in httpx.get(server.base + "/api/hardware", timeout=5).json()["devices"]
        ] == [None]
        tid(lobby, f"hardware-select-{first}").select_option(DEVICE)
        expect(tid(lobby, f"hardware-select-{first}")).to_have_value(DEVICE)
        expect(tid(lobby, f"hardware-select-{first}")).to_be_enabled()
        no_page_errors(lobby)
    finally:
        lobby.close()

    link = next(t for t in httpx.get(server.base + "/api/tables", timeout=5).json() if t["id"] == first)[
        "links"
    ]
    page = watch_errors(browser.new_page(viewport=TABLET))
    try:
        page.goto(link["table"] if link["table"].startswith("http") else server.base + link["table"])
        wait_version(page, 0)
        # Nothing on the table yet: the game waits, and the touchscreen's acts are refused as such.
        expect(tid(page, "hw-blocked")).to_be_visible()
        expect(tid(page, "hw-divergent").locator("li")).to_have_count(9)
        expect(tid(page, "hw-divergent-0")).to_have_attribute("data-want", "piece")
        # Nothing stood there yet: the piece is put "on" its cell, not "back".
        expect(tid(page, "hw-divergent-0")).to_contain_text(re.compile(r"^put .+ on \[\d, \d\]$"))
        # The screen says the game waits for hands on the table, not for a seat.
        expect(tid(page, "whose-turn")).to_have_text("Waiting for the table")
        expect(tid(page, "hw-waiting")).to_contain_text("The table differs from the game: put ")
        # At 1024 x 768 the nine cells do not all fit the strip: their count, and a cue that more lie below.
        expect(tid(page, "hw-count")).to_have_text("9 cells differ from the game")
        expect(tid(page, "hw-more")).to_be_visible()
        expect(tid(page, "hw-more")).to_contain_text("more below")
        # An act refused while the table differs: red in the side panel, a toast, and in the strip.
        page.evaluate("() => window.iwgtTable.send({type: 'confirm'})")
        expect(tid(page, "refusal")).to_contain_text("the table differs")
        expect(tid(page, "hw-diverged")).to_be_visible()
        diverged_toast = page.locator('[data-testid="toast"][data-error="table_diverged"]')
        expect(diverged_toast).to_have_count(1)
        board = tid(page, "board").bounding_box()
        shot(page, "hwlobby_tablet_empty_table")
        # Carry on: the players play on past the cells the table reads wrongly (until each changes).
        tid(page, "hw-carry-on").click()
        agreed(page)
        # The game no longer waits: the refusal goes everywhere (side panel, toast, strip), and the words.
        expect(tid(page, "refusal")).to_have_count(0)
        expect(diverged_toast).to_have_count(0)
        expect(tid(page, "hw-diverged")).to_have_count(0)
        expect(tid(page, "hw-waiting")).to_have_count(0)
        expect(tid(page, "whose-turn")).to_have_text("Your turn: Forces of the Light")
        expect(tid(page, "hw-agrees")).to_be_visible()
        assert tid(page, "board").bounding_box() == board, "the board moved as the strip changed"
        shot(page, "hwlobby_tablet_agrees")
        expect(tid(page, "hw-strip")).to_be_visible()
        expect(tid(page, "hw-online")).to_have_attribute("data-state", "online")
        deploy(page)
        before = version(page)
        tid(page, "tick-button").click()
        wait_version(page, before + 1)  # the deployment went through: the game is not held by the table
        # The table unplugged: the screen says so in few words, with the way on, and the header turns to it.
        sim_page = watch_errors(browser.new_page(viewport=FULL_HD))
        try:
            sim_page.goto(simproc.base + "/")
            tid(sim_page, "network").click()
            expect(tid(page, "hw-online")).to_have_attribute("data-state", "offline")
            offline = f"{DEVICE} is offline: plug it back in, or free it in the lobby to play on the screen."
            expect(tid(page, "hw-blocked")).to_have_text(f"The game waits: {offline}")
            expect(tid(page, "hw-waiting")).to_contain_text(offline)
            expect(tid(page, "whose-turn")).to_have_attribute("data-waiting", "true")
            shot(page, "hwlobby_tablet_offline")
            tid(sim_page, "network").click()
            expect(tid(page, "hw-online")).to_have_attribute("data-state", "online")
        finally:
            sim_page.close()
        no_page_errors(page)
    finally:
        page.close()


def test_the_lobby_names_each_tables_game_asks_before_moving_it_and_frees_it_after_the_game(
    rig: tuple[BridgeServer, SimTableProcess], browser: Browser
) -> None:
    """The lobby's "Physical tables" list names the game each device plays (in play, then quit) with a Free
    button; choosing a device another game in play holds asks first (Cancel keeps it there)."""
    server, _ = rig

    def table() -> str:
        body = {"game": "valkyrx", "scenario": "first_battle", "seats": ["human", "bot"], "mode": "shared"}
        made = httpx.post(server.base + "/api/tables", json={**body, "dice": "table", "seed": 5}, timeout=10)
        assert made.status_code == 201, made.text
        table_id: str = made.json()["id"]
        return table_id

    def bound() -> str | None:
        devices = httpx.get(server.base + "/api/hardware", timeout=5).json()["devices"]
        assert [d["device"] for d in devices] == [DEVICE]
        table_id: str | None = devices[0]["table"]
        return table_id

    first, second = table(), table()
    lobby = watch_errors(browser.new_page(viewport=FULL_HD))
    try:
        lobby.goto(server.base + "/")
        row = tid(lobby, f"hardware-device-{DEVICE}")
        expect(row).to_contain_text(f"{DEVICE} (16 x 12, online): free")
        expect(tid(lobby, f"hardware-free-{DEVICE}")).to_have_count(0)
        tid(lobby, f"hardware-select-{first}").select_option(DEVICE)
        expect(row).to_have_attribute("data-table", first)
        plays = f"plays Days of the Valkyrx: A First Battle at the Ford ({first}, in play)"
        expect(row).to_contain_text(plays)
        # The other game's select says which game the device plays; choosing it asks first.
        other = tid(lobby, f"hardware-select-{second}")
        option = other.locator(f'option[value="{DEVICE}"]')
        expect(option).to_contain_text(plays)
        other.select_option(DEVICE)
        dialog = tid(lobby, "confirm-dialog")
        expect(dialog).to_contain_text(f"Move {DEVICE} to this game?")
        expect(dialog).to_contain_text(f"({first}, in play)")
        shot(lobby, "hwlobby_move_asked")
        tid(lobby, "confirm-no").click()
        expect(other).to_have_value("")
        assert bound() == first  # Cancel: it stays where it was
        other.select_option(DEVICE)
        tid(lobby, "confirm-yes").click()
        expect(row).to_have_attribute("data-table", second)
        assert bound() == second
        expect(tid(lobby, f"hardware-select-{first}")).to_have_value("")
        no_page_errors(lobby)
    finally:
        lobby.close()

    # The game quit on its touchscreen: the lobby still shows the device bound to it, and frees it.
    tables = httpx.get(server.base + "/api/tables", timeout=5).json()
    link = next(t for t in tables if t["id"] == second)["links"]
    page = watch_errors(browser.new_page(viewport=FULL_HD))
    try:
        page.goto(link["table"] if link["table"].startswith("http") else server.base + link["table"])
        wait_version(page, 0)
        tid(page, "options-button").click()
        tid(page, "options-quit").click()
        tid(page, "confirm-yes").click()
        page.wait_for_url(server.base + "/")
        row = tid(page, f"hardware-device-{DEVICE}")
        expect(row).to_contain_text(f"({second}, quit)")
        expect(tid(page, f"hardware-select-{second}")).to_have_count(0)  # a quit game has no select
        shot(page, "hwlobby_bound_to_a_quit_game")
        tid(page, f"hardware-free-{DEVICE}").click()
        expect(row).to_contain_text(f"{DEVICE} (16 x 12, online): free")
        assert bound() is None
        no_page_errors(page)
    finally:
        page.close()
