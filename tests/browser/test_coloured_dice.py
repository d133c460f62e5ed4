"""The Coloured-Dice Fantasy Battle Rules at the table, in the browser as players see it (issue 14, part 5).

- A whole ``skirmish`` from the game selection to Game Over on one shared touchscreen, both sides played by
  taps on the screen alone: units picked on the inch board, moves to a tapped destination (a ghost tray), a
  charge, a fight and a shot by their order buttons and targets, each shot and fight first shown with its pool
  preview, checked against the observation's ``previews`` (the dice by colour, the effective armour, the
  casualty histogram, the chance the target's morale breaks) before Confirm; the questions (hero points, bear
  wounds, reactions) answered in their dialogs.
- Physical dice: each die of a shot's pool is asked for with its faces drawn as on the die, in its colour
  (CD-DI: a white die shows 1, 1, 2, miss, miss, miss); the faces tapped are the roll then shown.
- On a phone the orders, the range bands, the preview and Confirm are in reach.

Screenshots: build/screenshots/coloured_dice_*.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from .conftest import Server, shot
from .kit import WAIT_MS, open_link, tid, version, wait_version

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1920, "height": 1080}
MAX_STEPS = 400
"""A bound on the players' acts in the browser game (each one a wait for the server's answer)."""
SIZES: dict[str, ViewportSize] = {
    "phone": PHONE,
    "tablet-portrait": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "desktop": DESKTOP,
}
READABLE_PX = 10.0
"""The smallest board text a player can read (shell.js READABLE_PX)."""
WHITE_FACES = ["1", "1", "2", "miss", "miss", "miss"]
"""The white die's faces in face order (CD-DI-04), as the die dialog prints them."""

expect.set_options(timeout=WAIT_MS)


# -- helpers ------------------------------------------------------------------------------------------------


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
              .map(e => e.getBoundingClientRect().toJSON())""",
        selector,
    )
    return found


def smallest_board_text(page: Page) -> float:
    """The smallest text of the board as drawn, in CSS pixels (its font size times the board's scale)."""
    px: float = page.evaluate(
        """() => {
          const svg = document.querySelector('.board-host svg.board');
          const vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
          const scale = Math.min(r.width / vb.width, r.height / vb.height);
          const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize));
          return sizes.length ? Math.min(...sizes) * scale : Infinity;
        }"""
    )
    return px


def view(page: Page) -> dict[str, Any]:
    """The view the page shows."""
    v: dict[str, Any] = page.evaluate("() => window.iwgtTable.view")
    return v


def wait_settled(page: Page) -> None:
    """Wait until a seat of this screen is to act, a die is asked for, or the game is over."""
    page.wait_for_function(
        """() => { const t = window.iwgtTable; if (!t || !t.view) return false;
                   if (t.view.status !== 'playing') return true;
                   if (document.querySelector('[data-testid="die-dialog"]')) return true;
                   return t.view.to_move === t.view.seat && t.mySeats().includes(t.view.seat); }""",
        timeout=WAIT_MS * 4,
    )


def act_and_wait(page: Page, testid: str) -> None:
    """Tap a button that sends an act, and wait for the next view."""
    before = version(page)
    tid(page, testid).click()
    wait_version(page, before + 1)


def tap_table(page: Page, at: tuple[float, float] | list[float]) -> None:
    """Tap the table at a point in inches (through the board's own mapping)."""
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", list(at))
    page.mouse.click(xy[0], xy[1])


def pick(page: Page, uid: int) -> dict[str, Any]:
    """Tap a unit on the board and wait for its selection (its moves, bands and targets)."""
    tid(page, f"cd-unit-{uid}").click()
    page.wait_for_function(
        "u => { const t = window.iwgtTable; return t.selection && t.selection.unit === u; }", arg=uid
    )
    sel: dict[str, Any] = page.evaluate("() => window.iwgtTable.selection")
    return sel


def units(v: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        u
        for u in v["observation"]["units"]
        if u.get("tray") and not u.get("destroyed") and not u.get("routed")
    ]


def gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    return math.dist(a["tray"]["centre"], b["tray"]["centre"])


def check_preview(page: Page, v: dict[str, Any], action: dict[str, Any]) -> None:
    """The preview shown before Confirm is the observation's own for this attack."""
    kind = {"fight": "fight", "shoot": "shot"}[action["type"]]
    pv = next(
        p
        for p in v["observation"]["previews"]
        if p["kind"] == kind and p["unit"] == action["unit"] and p["target"] == action["target"]
    )
    expect(tid(page, "cd-preview")).to_be_visible()
    expect(tid(page, "cd-preview-armour")).to_have_attribute("data-armour", str(pv["armour"]))
    for colour, n in pv["dice"].items():
        expect(tid(page, f"cd-preview-die-{colour}")).to_have_attribute("data-count", str(n))
    for k, p in pv["casualties"].items():
        assert float(tid(page, f"cd-preview-bar-{k}").get_attribute("data-p") or "nan") == p
    assert float(tid(page, "cd-preview-morale").get_attribute("data-p") or "nan") == pv["morale_break"]
    for part, value in pv["parts"].items():
        if value or part == "armour":
            expect(tid(page, f"cd-preview-part-{part}")).to_have_attribute("data-value", str(value))
        else:  # a part that adds nothing is not listed
            expect(tid(page, f"cd-preview-part-{part}")).to_have_count(0)


def answer_question(page: Page) -> bool:
    """Answer a question dialog of the table if one is open: spend a hero point up when offered, roll every
    bear-wound die, react, never resist. True if one was answered."""
    dialogs = ("hero", "bear", "react", "resist")
    asked = page.locator(", ".join(f'[data-testid="cd-ask-{k}"]' for k in dialogs))
    if asked.count() and not page.evaluate("() => window.cdQuestionShot"):
        page.evaluate("() => { window.cdQuestionShot = true; }")
        shot(page, "coloured_dice_08_question")
    for dialog, button in (
        ("cd-ask-bear", "cd-bear-roll"),
        ("cd-ask-react", "cd-react-roll"),
        ("cd-ask-resist", "cd-resist-no"),
    ):
        if tid(page, dialog).count():
            if not tid(page, button).is_enabled():
                button = button.replace("roll", "pass") if "bear" in button else "cd-react-no"
            act_and_wait(page, button)
            return True
    if tid(page, "cd-ask-hero").count():
        if tid(page, "cd-hero-plus").is_enabled():
            tid(page, "cd-hero-plus").click()
        act_and_wait(page, "cd-hero-send")
        return True
    return False


SEED = 1
"""The table's dice and the bot are seeded, so the browser game is the same game every run."""


def seeded(route: Route) -> None:
    """Let the lobby's create request through with a seed for the table's dice and its bot."""
    if route.request.method != "POST":
        route.continue_()
        return
    body = json.loads(route.request.post_data or "{}")
    route.continue_(post_data=json.dumps({**body, "seed": SEED}))


# -- 1. a whole skirmish from the game selection -------------------------------------------------------------


@pytest.fixture(params=["bot", "human"])
def game(request: pytest.FixtureRequest, server: Server, browser: Browser) -> Iterator[Page]:
    """A skirmish set up in the game selection: a person against the bot, or two people at one screen."""
    page = open_link(browser, server.base, "/", DESKTOP)
    page.route("**/api/tables", seeded)
    tid(page, "game-card-coloured-dice").click()
    tid(page, "scenario-select").select_option("skirmish")
    tid(page, "seat-select-0").select_option("human")
    tid(page, "seat-select-1").select_option(request.param)
    tid(page, "mode-shared").click()
    tid(page, "play-button").click()
    page.wait_for_url("**/play/**")
    yield page
    page.close()


@pytest.mark.timeout(1500)
def test_a_skirmish_from_the_game_selection_to_its_end(game: Page) -> None:
    page = game
    wait_settled(page)
    expect(tid(page, "phase")).to_contain_text("Round 1 of 4")
    done: dict[str, int] = {"move": 0, "charge": 0, "fight": 0, "shoot": 0, "free_move": 0, "question": 0}
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        wait_settled(page)
        v = view(page)
        if v["status"] != "playing":
            break
        if answer_question(page):
            done["question"] += 1
            continue
        kind = turn_step(page, v, done)
        if kind:
            done[kind] += 1
    assert steps < MAX_STEPS, f"the game did not end: {done}"
    final = view(page)
    assert final["status"] == "over" and final["result"], final["status"]
    expect(tid(page, "game-over-modal")).to_be_visible()
    expect(tid(page, "cd-final-0")).to_contain_text("VP")
    shot(page, "coloured_dice_06_game_over")
    for order in ("move", "charge", "fight", "shoot", "free_move"):
        assert done[order] >= 1, f"no {order} was made through the screen: {done}"
    print("orders made through the screen:", done)
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def turn_step(page: Page, v: dict[str, Any], done: dict[str, int]) -> str | None:
    """One act of the side to move, by taps: fight, else shoot, else charge, else move the unit nearest the
    enemy towards it, else end the turn. Returns the order made."""
    seat = v["seat"]
    actions = v["options"]["actions"]
    for order in ("fight", "shoot", "charge"):
        offered = [a for a in actions if a["type"] == order]
        if not offered:
            continue
        a = offered[0]
        pick(page, a["unit"])
        tid(page, f"cd-order-{order}").click()
        if order == "shoot":
            expect(tid(page, "cd-range-bands")).to_have_count(1)
            if not done["shoot"]:
                shot(page, "coloured_dice_02_range_bands")
        tid(page, f"cd-target-{a['target']}").click()
        if order in ("fight", "shoot"):
            check_preview(page, v, a)
            if not done[order]:
                shot(page, f"coloured_dice_03_{order}_preview")
        before = version(page)
        tid(page, "cd-confirm").click()
        wait_version(page, before + 1)
        return order
    mine = [u for u in units(v) if u["seat"] == seat and u["id"] in v["options"]["movable"]]
    enemies = [u for u in units(v) if u["seat"] != seat]
    for u in sorted(mine, key=lambda m: min((gap(m, e) for e in enemies), default=0.0)):
        if u["actions_left"] <= 0 or u.get("engaged") or not enemies:
            continue
        sel = pick(page, u["id"])
        if not sel["moves"]:
            continue
        expect(tid(page, "cd-order-move")).to_be_visible()
        near = min(enemies, key=lambda e: gap(u, e))
        best = min(sel["moves"], key=lambda m: math.dist(m["to"], near["tray"]["centre"]))
        if not done["free_move"]:
            # A destination of the player's own: two thirds of the way to the best offered end, not on it.
            me = u["tray"]["centre"]
            at = [
                round(me[0] + (best["to"][0] - me[0]) * 2 / 3, 1),
                round(me[1] + (best["to"][1] - me[1]) * 2 / 3, 1),
            ]
            tap_table(page, at)
            expect(tid(page, "cd-ghost-plan")).to_have_count(1)
            page.wait_for_function("() => window.iwgtTable.game.check !== null")
            if page.evaluate("() => window.iwgtTable.game.check.legal"):
                shot(page, "coloured_dice_01_move_planned")
                act_and_wait(page, "cd-move-go")
                moved = next(x for x in view(page)["observation"]["units"] if x["id"] == u["id"])
                assert moved["tray"]["centre"] != me
                done["free_move"] += 1
                return "move"
            tid(page, "cd-move-clear").click()
        tap_table(page, best["to"])  # a tap on an offered end goes exactly there
        expect(tid(page, "cd-ghost-plan")).to_have_attribute(
            "data-at", f"{best['to'][0]:g},{best['to'][1]:g}"
        )
        # It keeps the leg's facing, not the offered end's: turned that way the tray may not fit (an enemy
        # within 1", a piece of terrain); the player then faces the enemy, or gives up the move.
        for fix in ("cd-face-enemy", None):
            page.wait_for_function("() => window.iwgtTable.game.check !== null")
            if page.evaluate("() => window.iwgtTable.game.check.legal"):
                act_and_wait(page, "cd-move-go")
                return "move"
            if fix:
                tid(page, fix).click()
        tid(page, "cd-move-clear").click()
        continue
    act_and_wait(page, "cd-end-turn")
    return None


# -- 2. physical dice with coloured faces --------------------------------------------------------------------


def skirmish_table(server: Server, **extra: str) -> str:
    """A seeded skirmish for two people at one screen (``extra``, e.g. ``dice="physical"``): its link."""
    body = {
        "game": "coloured-dice",
        "scenario": "skirmish",
        "seats": ["human", "human"],
        "mode": "shared",
        "seed": SEED,
        **extra,
    }
    r = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    link: str = r.json()["links"]["table"]
    return link


def physical_table(server: Server) -> str:
    """The skirmish with physical dice: the players enter each face."""
    return skirmish_table(server, dice="physical")


def shoot_ten_white(page: Page) -> None:
    """The skirmish's archers shoot (ten human archers, a white die each), Confirm sent."""
    wait_settled(page)
    v = view(page)
    a = next(x for x in v["options"]["actions"] if x["type"] == "shoot")
    pick(page, a["unit"])
    tid(page, "cd-order-shoot").click()
    tid(page, f"cd-target-{a['target']}").click()
    check_preview(page, v, a)
    pv = next(
        p for p in v["observation"]["previews"] if p["unit"] == a["unit"] and p["target"] == a["target"]
    )
    assert pv["dice"] == {"white": 10}, pv["dice"]
    before = version(page)
    tid(page, "cd-confirm").click()
    wait_version(page, before + 1)


@pytest.mark.timeout(300)
def test_physical_dice_are_entered_by_their_coloured_faces(server: Server, browser: Browser) -> None:
    """The archers shoot ten white dice: the pool's tally is offered first; chosen one at a time, each die is
    asked for as "Roll a white die", its six faces printed as on the die (1, 1, 2, miss, miss, miss), and no
    stray "null" line; the faces tapped are the roll the screen shows afterwards."""
    page = open_link(browser, server.base, physical_table(server), DESKTOP)
    try:
        shoot_ten_white(page)
        expect(tid(page, "cd-tally-dialog")).to_be_visible()
        tid(page, "cd-tally-single").click()
        taps = [1, 3, 4, 6, 2, 1, 5, 3, 2, 6]  # faces 1..6: 1, 2, miss, miss, 1, 1, miss, 2, 1, miss
        for i, face in enumerate(taps):
            dialog = tid(page, "die-dialog")
            expect(dialog).to_contain_text("Roll a white die")
            expect(dialog).not_to_contain_text("null")
            labels = [tid(page, f"die-face-{n}").inner_text() for n in range(1, 7)]
            assert labels == WHITE_FACES, labels
            expect(tid(page, "die-face-1")).to_have_attribute("data-colour", "white")
            if i == 0:
                shot(page, "coloured_dice_04_physical_white_die")
            before = version(page)
            tid(page, f"die-face-{face}").click()
            wait_version(page, before + 1)
        # The roll as the dice fell: 1+2+1+1+2+1 = 8 points, no kill.
        for i, face in enumerate(taps):
            expect(tid(page, f"cd-last-die-{i}")).to_have_attribute("data-face", WHITE_FACES[face - 1])
            expect(tid(page, f"cd-last-die-{i}")).to_have_attribute("data-colour", "white")
        expect(tid(page, "cd-last-sum")).to_contain_text("8 points")
        shot(page, "coloured_dice_05_physical_roll_shown")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


@pytest.mark.timeout(300)
def test_a_volley_of_physical_dice_is_entered_in_one_tally(server: Server, browser: Browser) -> None:
    """Ten white dice in one dialog (CD-DI-04: faces 1, 1, 2, miss, miss, miss): two show 2, three show 1, the
    rest miss; the faces go to the table one by one in pool order, and the roll shown is the tally:
    2 + 2 + 1 + 1 + 1 = 7 points, five misses."""
    page = open_link(browser, server.base, physical_table(server), DESKTOP)
    try:
        shoot_ten_white(page)
        dialog = tid(page, "cd-tally-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).not_to_contain_text("null")
        expect(tid(page, "cd-tally-white-rest")).to_have_text("10")
        tid(page, "cd-tally-white-2").fill("7")
        tid(page, "cd-tally-white-1").fill("5")  # 12 faces counted of 10 dice: refused
        expect(tid(page, "cd-tally-send")).to_be_disabled()
        expect(tid(page, "cd-tally-error")).to_contain_text("10 white")
        tid(page, "cd-tally-white-2").fill("2")
        tid(page, "cd-tally-white-1").fill("3")
        expect(tid(page, "cd-tally-white-rest")).to_have_text("5")
        shot(page, "coloured_dice_04b_physical_tally")
        tid(page, "cd-tally-send").click()
        expect(dialog).to_have_count(0)
        shown = ["2", "2", "1", "1", "1", "miss", "miss", "miss", "miss", "miss"]
        for i, face in enumerate(shown):
            expect(tid(page, f"cd-last-die-{i}")).to_have_attribute("data-face", face)
            expect(tid(page, f"cd-last-die-{i}")).to_have_attribute("data-colour", "white")
        expect(tid(page, "cd-last-sum")).to_contain_text("7 points")
        # No die of the volley is asked for again (a morale test's 2d6 may follow).
        expect(page.locator('[data-testid="die-face-1"][data-colour="white"]')).to_have_count(0)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 3. a phone ---------------------------------------------------------------------------------------------


@pytest.mark.timeout(300)
def test_on_a_phone_the_orders_bands_and_preview_are_in_reach(server: Server, browser: Browser) -> None:
    page = open_link(browser, server.base, skirmish_table(server), PHONE)
    try:
        wait_settled(page)
        v = view(page)
        a = next(x for x in v["options"]["actions"] if x["type"] == "shoot")
        tid(page, f"cd-roster-{a['unit']}").click()  # the roster picks a unit as the board does
        page.wait_for_function(
            "u => window.iwgtTable.selection && window.iwgtTable.selection.unit === u", arg=a["unit"]
        )
        order = tid(page, "cd-order-shoot")
        order.scroll_into_view_if_needed()
        order.click()
        expect(tid(page, "cd-range-bands")).to_have_count(1)
        tid(page, f"cd-target-{a['target']}").click()
        check_preview(page, v, a)
        confirm = tid(page, "cd-confirm")
        confirm.scroll_into_view_if_needed()
        box = confirm.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        shot(page, "coloured_dice_07_phone_preview")
        before = version(page)
        confirm.click()
        wait_version(page, before + 1)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 4. help at the table ------------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_tap_for_help_names_the_unit_type_and_the_ground(server: Server, browser: Browser) -> None:
    """Tap for help, then a unit's tray: its type's topic (``unit:<army>.<key>``); then a piece of ground."""
    page = open_link(browser, server.base, skirmish_table(server), DESKTOP)
    try:
        wait_settled(page)
        obs = view(page)["observation"]
        archers = next(u for u in obs["units"] if u["key"] == "archers")
        army = obs["sides"][archers["seat"]]["army"]
        tid(page, "help-tap").click()
        tid(page, f"cd-unit-{archers['id']}").click()
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", f"unit:{army}.archers")
        tid(page, "help-close").click()
        hill = next(f for f in obs["features"] if f["kind"] == "hill")
        tid(page, "help-tap").click()
        xs, ys = zip(*hill["outline"], strict=True)
        tap_table(page, (sum(xs) / len(xs), sum(ys) / len(ys) - 1.0))  # inside the hill, under its name
        expect(tid(page, "help-topic")).to_have_attribute("data-topic", "terrain:hill")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 5. every size: nothing cut, the board readable ----------------------------------------------------------


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size_name", list(SIZES))
def test_nothing_is_cut_and_the_board_reads(server: Server, browser: Browser, size_name: str) -> None:
    """As the shell's layout test asks of every game (tests/browser/test_shell_layout.py): the header's words
    wrap, never cut; the action bar's buttons on the screen and big enough to tap; the board's smallest text
    (band labels, terrain names, tray letters) readable, zoomed where the whole board would not be."""
    size = SIZES[size_name]
    body = {
        "game": "coloured-dice",
        "scenario": "battle",
        "seats": ["human", "bot"],
        "mode": "shared",
        "seed": SEED,
    }
    r = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    page = open_link(browser, server.base, r.json()["links"]["table"], size)
    try:
        wait_settled(page)
        expect(tid(page, "cd-sides")).to_have_css("display", "flex")  # the game's stylesheet is in
        for name in ("table-title", "phase", "whose-turn", "cd-side-0", "cd-side-1", "cd-round"):
            el = tid(page, name)
            fits = el.evaluate("e => [e.scrollWidth, e.clientWidth]")
            assert fits[0] <= fits[1], f"{name} is cut at {size_name}: {fits}"
            box = el.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (
                f"{name} leaves the screen at {size_name}: {box}"
            )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        for b in boxes(page, ".actionbar .btn"):
            assert b["left"] >= 0 and b["right"] <= size["width"] + 0.5, f"a button off screen: {b}"
            assert b["top"] >= 0 and b["bottom"] <= size["height"] + 0.5, f"a button below the fold: {b}"
            assert b["bottom"] - b["top"] >= 44, f"a button too small to tap: {b}"
        # A shooter picked: its bands and their labels are on the board too.
        shots = [a for a in view(page)["options"]["actions"] if a["type"] == "shoot"]
        if shots:
            tid(page, f"cd-roster-{shots[0]['unit']}").click()
            tid(page, "cd-order-shoot").click()
            expect(tid(page, "cd-range-bands")).to_have_count(1)
        zoom = tid(page, "board-zoom")
        if size is PHONE:
            expect(page.locator(".board-host")).to_have_class("board-host zoomed")
        elif zoom.is_visible() and zoom.inner_text() == "Zoom in":
            zoom.click()
        text = smallest_board_text(page)
        assert text >= READABLE_PX - 0.05, f"the board's smallest text is {text:.1f}px at {size_name}"
        shot(page, f"coloured_dice_09_layout_{size_name}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()
