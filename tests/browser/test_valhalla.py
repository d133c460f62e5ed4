"""Playing Valhalla in the browser: the whole of a small game through the page alone.

``first_blood`` (24" x 16", one player a side, four turns) is chosen on the game selection screen, and played
by taps on the table, the action buttons, the odds panel and the dice: a shot and a charge with their exact
odds, a refused move shown in red with its reason, the bot's turns, the cards and the coins, up to Game Over.
A second game is played by two remote players with physical dice, whose faces they enter on the touchscreen.
To know when a step has been committed the tests read the version of the view the page holds
(``window.iwgtTable.view.version``); what they check is in the DOM. Screenshots: build/screenshots/valhalla_*.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from .conftest import Server, shot
from .kit import FULL_HD, WAIT_MS, tid, version, wait_version

TABLET: ViewportSize = {"width": 1024, "height": 768}

expect.set_options(timeout=WAIT_MS)


# -- helpers -------------------------------------------------------------------------------------------------


def view(page: Page) -> dict[str, Any]:
    """The view the page shows (read only to know what to tap next; checks are made on the DOM)."""
    v: dict[str, Any] = page.evaluate("() => window.iwgtTable.view")
    return v


def my_turn(page: Page) -> bool:
    return tid(page, "whose-turn").get_attribute("data-mine") == "true"


def over(page: Page) -> bool:
    status: str = page.evaluate("() => window.iwgtTable.view.status")
    return status != "playing"


def wait_turn_or_over(page: Page, after: int, timeout: int = 30_000) -> None:
    """Wait for a view newer than ``after`` in which this page is to act, or the game is over."""
    page.wait_for_function(
        """v => { const t = window.iwgtTable; return t && t.view && t.view.version > v
                 && (t.view.status !== 'playing' || (t.view.to_move === t.view.seat && !t.view.die)); }""",
        arg=after,
        timeout=timeout,
    )


def tap_inches(page: Page, p: list[float]) -> None:
    """Tap the table at a point given in inches from its bottom-left corner."""
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", p)
    assert xy, "the table is not drawn"
    page.mouse.click(xy[0], xy[1])


def at_of(page: Page, fid: int) -> str:
    where = tid(page, f"vh-figure-{fid}").get_attribute("data-at")
    assert where
    return where


def actions_of(page: Page, kind: str) -> list[dict[str, Any]]:
    """The legal actions of a type the page's view offers."""
    acts: list[dict[str, Any]] = [a for a in view(page)["options"]["actions"] if a["type"] == kind]
    return acts


def end_activation(page: Page) -> None:
    """Tap End activation / Pass the card and wait until the table has taken it."""
    before = version(page)
    tid(page, "vh-action-end_activation").click()
    wait_version(page, before + 1)


def select(page: Page, fid: int) -> None:
    """Tap one of the player's lit figures and wait for its rings."""
    tid(page, f"vh-figure-{fid}").click()
    expect(tid(page, f"vh-figure-{fid}")).to_have_class(re.compile(r"\bselected\b"))
    expect(tid(page, "vh-ring-move")).to_have_count(1)


def confirm_with_odds(page: Page, button: str, odds_testid: str, name: str) -> None:
    """Tap an action button, check the exact odds shown before it is committed, and confirm it."""
    tid(page, button).click()
    panel = tid(page, "vh-odds")
    expect(panel).to_be_visible()
    expect(tid(page, odds_testid)).to_contain_text("%")
    expect(tid(page, "vh-confirm")).to_be_enabled()
    shot(page, name)
    before = version(page)
    tid(page, "vh-confirm").click()
    wait_version(page, before + 1)
    expect(panel).to_be_hidden()


SEED_ULF_FIRST = 2
"""A seed of the table's dice whose first deal in first_blood turns up Ulf's card first."""


def seeded(route: Route, seed: int) -> None:
    """Let the page's create request through with a seed for the table's dice."""
    body = json.loads(route.request.post_data or "{}")
    route.continue_(post_data=json.dumps({**body, "seed": seed}))


_ERRORS: dict[int, list[str]] = {}


def watch(page: Page) -> Page:
    page.set_default_timeout(WAIT_MS)
    errors = _ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def no_page_errors(*pages: Page) -> None:
    for p in pages:
        assert not _ERRORS.get(id(p)), f"script errors in {p.url}: {_ERRORS.get(id(p))}"


# -- 1. a whole game, human against the bot, from the game selection ---------------------------------------


@pytest.mark.timeout(180)
def test_first_blood_from_game_selection_to_game_over(server: Server, browser: Browser) -> None:
    page = watch(browser.new_page(viewport=FULL_HD))
    try:
        page.goto(server.base + "/")
        tid(page, "game-card-valhalla").click()
        expect(tid(page, "setup-panel")).to_contain_text("Valhalla")
        tid(page, "scenario-select").select_option("first_blood")
        expect(tid(page, "scenario-about")).to_contain_text('24" x 16"')
        expect(tid(page, "timer-input")).to_have_count(0)  # Valhalla has no movement timer
        expect(tid(page, "seat-fields")).to_contain_text("Ulf (Raiders)")
        tid(page, "seat-select-0").select_option("human")
        tid(page, "seat-select-1").select_option("bot")
        tid(page, "mode-shared").click()
        shot(page, "valhalla_00_setup")
        # The page's own create request, with the table's dice seeded so that Ulf's card comes up first (the
        # bot could otherwise win before the player's first tap).
        page.route("**/api/tables", lambda route: seeded(route, SEED_ULF_FIRST))
        tid(page, "play-button").click()
        page.wait_for_url(re.compile(r"/play/t-"))
        wait_version(page, 0)
        expect(tid(page, "conn-state")).to_have_attribute("data-state", "open")

        # The table in inches: terrain, six figures on round bases, both hands of cards, coins.
        expect(tid(page, "vh-table")).to_be_visible()
        expect(tid(page, "vh-area-0")).to_have_attribute("data-kind", "woods")
        expect(tid(page, "vh-area-1")).to_have_attribute("data-kind", "village")
        for fid in range(6):
            expect(tid(page, f"vh-figure-{fid}")).to_be_visible()
        expect(tid(page, "vh-figure-0")).to_contain_text("H")
        expect(tid(page, "vh-coins-0")).to_contain_text("0 / 3 coins")
        expect(tid(page, "vh-coins-1")).to_contain_text("Farmers")
        expect(page.locator('[data-testid^="vh-card-0-"]')).to_have_count(3)
        expect(page.locator('[data-testid^="vh-card-1-"]')).to_have_count(3)
        expect(page.locator('[data-testid^="vh-card-"][data-up="true"]')).to_have_count(1)

        wait_turn_or_over(page, -1)
        assert not over(page) and version(page) == 6  # six cards dealt, and Ulf's card is up
        expect(tid(page, "whose-turn")).to_have_text("Your turn: Ulf (Raiders)")
        up = page.locator('[data-testid^="vh-card-0-"][data-up="true"]')
        expect(up).to_have_count(1)
        shot(page, "valhalla_01_my_card")

        # The archer shoots: its rings (6" close range, 12" range), the exact odds first, then the die.
        select(page, 2)
        expect(tid(page, "vh-ring-close")).to_have_attribute("data-radius", "6.5")
        expect(tid(page, "vh-ring-range")).to_have_attribute("data-radius", "12.5")
        expect(page.locator('[data-testid^="vh-ring-zone-"]')).to_have_count(3)  # the 2" round each enemy
        expect(tid(page, "vh-reach")).to_be_visible()
        shots = [a for a in actions_of(page, "shoot") if a["figure"] == 2]
        assert shots, "the archer has no target at the start of first_blood"
        confirm_with_odds(
            page, f"vh-action-shoot-{shots[0]['target']}", "vh-odds-hit", "valhalla_02_shot_odds"
        )
        expect(tid(page, "vh-dice")).to_contain_text("needs")
        # The roll's sentence is the server's (valhalla/words.py: ShotFired), the same as the log's.
        aimed = next(f["name"] for f in view(page)["observation"]["figures"] if f["id"] == shots[0]["target"])
        worded = re.compile(
            rf'Shot at {re.escape(aimed)} \([\d.]+"(, in cover)?, needs \d\+\): '
            r"Hrafn the archer rolls \d, a (hit|miss)\."
        )
        expect(tid(page, "vh-dice").locator("li").first).to_contain_text(worded)
        expect(tid(page, "log")).to_contain_text(worded)
        shot(page, "valhalla_03_shot_rolled")
        if not over(page) and my_turn(page) and view(page)["observation"]["active"] == 2:
            end_activation(page)

        # Later cards: a figure moves (a refused point first, red with its reason), then charges when it can.
        refused = moved = charged = False
        while not over(page):
            wait_turn_or_over(page, version(page) - 1)
            if over(page):
                break
            obs = view(page)["observation"]
            movable = view(page)["options"]["movable"]
            if not moved and movable:
                fid = obs["active"] if obs["active"] is not None else (0 if 0 in movable else movable[0])
                if obs["active"] is None:
                    select(page, fid)
                page.wait_for_function(
                    "f => window.iwgtTable.selection && window.iwgtTable.selection.unit === f", arg=fid
                )
                sel: dict[str, Any] = page.evaluate("() => window.iwgtTable.selection")
                if sel["moves"]:
                    if not refused:
                        before = version(page)
                        here = [float(v) for v in at_of(page, fid).split(",")]
                        far = [23.5 if here[0] < 12 else 0.5, 15.5 if here[1] < 8 else 0.5]  # beyond 6"
                        tap_inches(page, far)
                        expect(tid(page, "vh-refusal")).to_contain_text("allowed")
                        illegal = page.locator('[data-testid="vh-table"] circle.light[data-effect="illegal"]')
                        expect(illegal).to_have_count(1)
                        shot(page, "valhalla_04_refused_move")
                        assert version(page) == before, "a refused move changed the table"
                        refused = True
                    approach = page.locator('[data-testid^="vh-point-approach-"]')
                    if approach.count():
                        where = approach.first.get_attribute("data-at")
                        assert where
                        point = [float(v) for v in where.split(",")]
                        point = [
                            point[0] + 0.1,
                            point[1] - 0.1,
                        ]  # a tap near a charge-ready point snaps to it
                    else:
                        point = sel["moves"][0]["to"]
                    start = at_of(page, fid)
                    before = version(page)
                    tap_inches(page, point)
                    wait_version(page, before + 1)
                    expect(tid(page, f"vh-figure-{fid}")).not_to_have_attribute("data-at", start)
                    moved = True
                    shot(page, "valhalla_05_moved")
                    continue
            charges = actions_of(page, "charge") + actions_of(page, "fight")
            if not charged and charges:
                a = charges[0]
                if obs["active"] is None:
                    select(page, a["figure"])
                other = a.get("target", a.get("opponent"))
                confirm_with_odds(
                    page, f"vh-action-{a['type']}-{other}", "vh-odds-win", "valhalla_06_charge_odds"
                )
                expect(page.get_by_test_id("vh-roll-combat").first).to_contain_text("scores")
                shot(page, "valhalla_07_combat_rolled")
                charged = True
                continue
            if my_turn(page) and not over(page):
                end_activation(page)
        assert refused and moved

        # Game Over: who won and why, the final coins.
        modal = tid(page, "game-over-modal")
        expect(modal).to_be_visible(timeout=20_000)
        expect(tid(page, "game-over-winner")).to_have_text(
            re.compile(r"(Raiders win!|Farmers win!|A draw\.)")
        )
        expect(tid(page, "game-over-reason")).to_have_text(re.compile(r"\w"))
        expect(tid(page, "vh-final-coins-0")).to_contain_text("coins")
        expect(tid(page, "log")).to_contain_text("Game over")
        shot(page, "valhalla_08_game_over")
        tid(page, "new-game").click()
        page.wait_for_url(server.base + "/")
        expect(tid(page, "game-card-valhalla")).to_be_visible()
        no_page_errors(page)
    finally:
        page.close()


# -- 2. two remote players with physical dice ---------------------------------------------------------------


def enter_die(page: Page, sides: int, face: int, *others: Page) -> None:
    """The table asks for a real die: check its size, tap the face read off it, and wait for every screen."""
    dlg = tid(page, "die-dialog")
    expect(dlg).to_be_visible()
    expect(dlg).to_contain_text(f"Roll a d{sides}")
    expect(tid(page, f"die-face-{sides}")).to_be_visible()
    expect(tid(page, f"die-face-{sides + 1}")).to_have_count(0)
    before = version(page)
    tid(page, f"die-face-{face}").click()
    wait_version(page, before + 1)
    for p in others:
        wait_version(p, version(page))


def turn_pages(a: Page, b: Page) -> tuple[Page, Page, int]:
    """The page whose player's card is up, the other page, and the seat to act."""
    for _ in range(2):
        for p, q in ((a, b), (b, a)):
            if my_turn(p):
                return p, q, int(view(p)["seat"])
        a.wait_for_timeout(300)
    raise AssertionError("neither player's card is up")


@pytest.mark.timeout(180)
def test_two_remote_players_enter_physical_dice(server: Server, browser: Browser) -> None:
    lobby = watch(browser.new_page(viewport=FULL_HD))
    pages: list[Page] = []
    try:
        lobby.goto(server.base + "/")
        tid(lobby, "game-card-valhalla").click()
        tid(lobby, "scenario-select").select_option("first_blood")
        tid(lobby, "seat-select-0").select_option("human")
        tid(lobby, "seat-select-1").select_option("human")
        tid(lobby, "mode-remote").click()
        tid(lobby, "dice-physical").click()
        tid(lobby, "play-button").click()
        expect(tid(lobby, "invite-panel")).to_be_visible()
        links = [tid(lobby, f"invite-link-{i}").input_value() for i in (0, 1)]
        table_id = links[0].split("/play/")[1].split("#")[0]
        for link, size in zip(links, (FULL_HD, TABLET), strict=True):
            p = watch(browser.new_page(viewport=size))
            p.goto(link)
            wait_version(p, 0)
            expect(tid(p, "conn-state")).to_have_attribute("data-state", "open")
            pages.append(p)
        red, blue = pages
        expect(tid(red, "whose-turn")).to_have_text(re.compile(r"Your turn: Ulf|Asa \(Farmers\) to play"))
        expect(tid(blue, "whose-turn")).to_have_text(re.compile(r"Your turn: Asa|Ulf \(Raiders\) to play"))

        # A shot: the player whose card is up shoots at the enemy warrior; the other player rolls the d6 (a 6,
        # a hit), the shooter rolls the Dice of Death (a 4: one shock marker), and both tables show the pip.
        me, other, seat = turn_pages(red, blue)
        shooter, target = (2, 4) if seat == 0 else (5, 1)
        select(me, shooter)
        confirm_with_odds(me, f"vh-action-shoot-{target}", "vh-odds-hit", "valhalla_10_remote_shot_odds")
        expect(tid(other, "die-dialog")).to_contain_text("shot at")
        shot(other, "valhalla_11_physical_die_tablet")
        enter_die(other, 6, 6, me)
        expect(tid(me, "die-dialog")).to_contain_text("Dice of Death")
        enter_die(me, 6, 4, other)
        names = {f["id"]: f["name"] for f in view(me)["observation"]["figures"]}
        for p in (me, other):
            expect(tid(p, "die-dialog")).to_have_count(0)
            expect(tid(p, f"vh-shock-{target}-0")).to_be_visible()
            expect(tid(p, f"vh-figure-{target}")).to_have_attribute("data-shock", "1")
            # The dice panel shows the server's sentences (valhalla/words.py) beside the dice, a save's
            # effect (the report's words) in bold.
            save = p.get_by_test_id("vh-roll-save").first
            expect(save).to_contain_text(f"Dice of Death for {names[target]}: 4, one shock marker.")
            expect(save.locator("strong")).to_have_text("one shock marker")
            rolled = p.get_by_test_id("vh-roll-shot").first
            expect(rolled).to_contain_text("d6 6")
            expect(rolled).to_contain_text(f"{names[shooter]} rolls 6, a hit.")
        shot(me, "valhalla_12_shock_marker")
        end_activation(me)

        # A charge: the hero moves to the edge of the enemy warrior's 2" zone (a tap near the charge-ready
        # point), then charges: d10 and d8 entered by hand, a 10 against a 1 is two hits, and two saves of 6.
        me, other, seat = turn_pages(red, blue)
        hero, foe = (0, 4) if seat == 0 else (3, 1)
        select(me, hero)
        point = tid(me, f"vh-point-approach-{foe}")
        expect(point).to_have_count(1)
        where = point.get_attribute("data-at")
        assert where
        x, y = (float(v) for v in where.split(","))
        before = version(me)
        tap_inches(me, [x + 0.2, y + 0.15])
        wait_version(me, before + 1)
        expect(tid(me, f"vh-figure-{hero}")).to_have_attribute("data-at", f"{x:g},{y:g}")
        expect(tid(me, "vh-actions-left")).to_have_text("1 action left.")
        confirm_with_odds(me, f"vh-action-charge-{foe}", "vh-odds-win", "valhalla_13_remote_charge_odds")
        expect(tid(me, "die-dialog")).to_contain_text("combat")
        enter_die(me, 10, 10, other)
        enter_die(other, 8, 1, me)
        enter_die(me, 6, 6, other)
        enter_die(other, 6, 6, me)
        for p in (me, other):
            expect(p.get_by_test_id("vh-roll-combat").first).to_contain_text("d10 10")
            expect(p.get_by_test_id("vh-roll-combat").first).to_contain_text("2 hits")
            expect(tid(p, "log")).to_contain_text("charges")
        shot(other, "valhalla_14_combat_tablet")

        # A withdrawal: when a card of the charged warrior's player comes up, the warrior steps back out of
        # the combat (tap Withdraw, then one of the points), instead of fighting on.
        charger = seat
        for _ in range(8):
            me, other, seat = turn_pages(red, blue)
            if seat != charger:
                break
            end_activation(me)  # the charger's side passes its other cards
            wait_version(other, version(me))
        assert seat != charger
        expect(tid(me, f"vh-figure-{foe}")).to_have_class(re.compile(r"\bengaged\b"))
        select(me, foe)
        expect(tid(me, f"vh-action-fight-{hero}")).to_be_visible()
        tid(me, "vh-action-withdraw").click()
        points = tid(me, "vh-point-withdraw")
        expect(points.first).to_be_visible()
        where = points.first.get_attribute("data-at")
        assert where
        before = version(me)
        tap_inches(me, [float(v) for v in where.split(",")])
        wait_version(me, before + 1)
        wait_version(other, before + 1)
        for p in (me, other):
            expect(tid(p, f"vh-figure-{foe}")).not_to_have_class(re.compile(r"\bengaged\b"))
            expect(tid(p, "log")).to_contain_text("withdraws")

        # Quit: the table closes as quit.
        tid(me, "options-button").click()
        tid(me, "options-quit").click()
        tid(me, "confirm-yes").click()
        me.wait_for_url(server.base + "/")
        tables = lobby.evaluate("() => fetch('/api/tables').then(r => r.json())")
        assert next(t for t in tables if t["id"] == table_id)["status"] == "quit"
        no_page_errors(lobby, *pages)
    finally:
        for p in [lobby, *pages]:
            p.close()


# -- 3. four players at one touchscreen, and the baggage ----------------------------------------------------


@pytest.mark.timeout(120)
def test_four_players_share_the_touchscreen_and_move_the_baggage(server: Server, browser: Browser) -> None:
    body = {"game": "valhalla", "scenario": "raid", "seats": ["human"] * 4, "mode": "shared", "seed": 4}
    r = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    page = watch(browser.new_page(viewport=FULL_HD))
    try:
        page.goto(r.json()["links"]["table"])
        wait_version(page, 0)
        expect(page.locator('[data-testid^="vh-hand-"]')).to_have_count(4)
        expect(page.locator('[data-testid^="vh-figure-"]')).to_have_count(12)
        players = set()
        for _ in range(12):  # every card passed; the screen follows the player whose card is up, uncovered
            expect(tid(page, "whose-turn")).to_have_attribute("data-mine", "true")
            expect(tid(page, "pass-screen")).to_have_count(0)
            players.add(tid(page, "whose-turn").inner_text())
            expect(tid(page, "vh-action-end_activation")).to_have_text("Pass the card")
            end_activation(page)
        assert len(players) == 4, players
        shot(page, "valhalla_20_raid_baggage")
        expect(tid(page, "phase")).to_contain_text("Baggage")
        expect(tid(page, "vh-prompt")).to_contain_text("raiders' mule")
        expect(tid(page, "vh-action-end_activation")).to_have_text("Leave the baggage")
        mule = view(page)["observation"]["baggage_up"]
        expect(page.locator('[data-testid="vh-table"] circle.light[data-effect="movable"]')).to_have_count(1)
        before = version(page)
        tap_inches(page, [25, 4])
        wait_version(page, before + 1)
        expect(tid(page, f"vh-baggage-{mule}")).to_have_attribute("data-at", "25,4")
        expect(tid(page, "vh-prompt")).to_contain_text("abbey cart")
        end_activation(page)
        expect(tid(page, "phase")).to_contain_text("Turn 2 of 10")
        expect(tid(page, "log")).to_contain_text("The raiders' mule moves to (25, 4)")
        no_page_errors(page)
    finally:
        page.close()
