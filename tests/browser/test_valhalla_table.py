"""What went wrong at Valhalla's table (issue 12, section 3), checked in the browser as a player sees it.

- The board does not clutter: each ring's label (6" move, 2" charge, 6" close range, 12" range) sits on
  its ring, on its plate, over no figure, no lit move point, no point to tap and no other label, and it is at
  least 10 CSS pixels tall however small the board is drawn; shock and wound pips stay inside their own
  figure's base, never on the figure in contact with it.
- On a phone (390x844) and a tablet (1024x768, 768x1024) the Move, Charge and Shoot buttons of the picked
  figure, and the odds panel's Confirm, are on the screen without scrolling and take the tap.
- The dice panel tells a save's whole doing: a third shock marker is a wound (VH-ST-09).

Geometry is measured on the page (``getBoundingClientRect`` of the SVG elements), not taken from the board's
own bookkeeping. Screenshots: build/screenshots/valhalla_table_*.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.games.valhalla.kit import player, scenario_text

from .conftest import Server, shot
from .kit import WAIT_MS, tid, version, wait_version

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}
TABLET_PORTRAIT: ViewportSize = {"width": 768, "height": 1024}
SEED_ULF_FIRST = 2
"""A seed of the table's dice whose first deal in first_blood turns up Ulf's card first."""
MIN_TEXT_PX = 10

expect.set_options(timeout=WAIT_MS)


def wait_my_card(page: Page) -> None:
    """Wait until the page's player may act (the deal done, its card up)."""
    page.wait_for_function(
        """() => { const t = window.iwgtTable; return t && t.view && t.view.status === 'playing'
                 && t.view.to_move === t.view.seat && !t.view.die; }""",
        timeout=WAIT_MS,
    )


def select(page: Page, fid: int) -> None:
    """Pick one of the player's figures (the roster's row: on a phone the board may show only part of the
    table) and wait for its rings."""
    tid(page, f"vh-roster-{fid}").click()
    expect(tid(page, f"vh-figure-{fid}")).to_have_class(re.compile(r"\bselected\b"))
    expect(tid(page, "vh-ring-move")).to_have_count(1)
    page.wait_for_function(
        "f => window.iwgtTable.selection && window.iwgtTable.selection.unit === f", arg=fid
    )


def first_blood(server: Server, browser: Browser, size: ViewportSize) -> Page:
    """first_blood, Ulf (a person) against the bot, the dice seeded so that Ulf's card is up first."""
    body = {"game": "valhalla", "scenario": "first_blood", "seats": ["human", "bot"], "mode": "shared"}
    r = httpx.post(server.base + "/api/tables", json={**body, "seed": SEED_ULF_FIRST}, timeout=10)
    assert r.status_code == 201, r.text
    page = browser.new_page(viewport=size)
    page.set_default_timeout(WAIT_MS)
    page.goto(r.json()["links"]["table"])
    wait_my_card(page)
    return page


IN_REACH_JS = """id => { const el = document.querySelector(`[data-testid="${id}"]`); if (!el) return null;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const scrolled = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.scrollTop) scrolled.push(`${p.className}: ${p.scrollTop}`);
  }
  return {x: r.x, y: r.y, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight,
          takes: Boolean(hit && el.contains(hit)),
          hit: hit && [hit.tagName, hit.className.baseVal ?? hit.className, hit.dataset.testid].join(" "),
          scrolled}; }"""


def in_reach(page: Page, testid: str) -> None:
    """The element is wholly on the screen, without scrolling anything, and a tap at its middle reaches it.

    The layout is read once it has settled (a panel brought into view in the next animation frame, the game's
    style sheet arriving after its first view): the check waits for the element to be in reach, and on a
    timeout says where it is, what covers it and which of its containers are scrolled."""
    fits = """id => { const el = document.querySelector(`[data-testid="${id}"]`); if (!el) return false;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return r.x >= 0 && r.y >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5
             && Boolean(hit && el.contains(hit)); }"""
    with contextlib.suppress(PlaywrightTimeout):  # the checks below then say what is wrong
        page.wait_for_function(fits, arg=testid, timeout=WAIT_MS)
    box = page.evaluate(IN_REACH_JS, testid)
    assert box is not None, testid
    assert box["x"] >= 0 and box["y"] >= 0, (testid, box)
    assert box["x"] + box["w"] <= box["vw"] + 0.5 and box["y"] + box["h"] <= box["vh"] + 0.5, (testid, box)
    assert box["takes"], f"{testid} is covered by something else: {box}"


# -- 1. ring labels clear of figures, points and each other, and readable ------------------------------------

LABELS_JS = """() => {
  const rect = (el) => el.getBoundingClientRect();
  const disc = (el) => { const r = rect(el); return {x: r.x + r.width / 2, y: r.y + r.height / 2,
                                                     r: r.width / 2}; };
  const all = (sel) => [...document.querySelectorAll(sel)];
  const labels = all('[data-testid^="vh-ring-"][data-testid$="-label"]').map((g) => {
    const plate = rect(g.querySelector("rect")); const text = rect(g.querySelector("text"));
    return {id: g.dataset.testid, box: [plate.left, plate.top, plate.right, plate.bottom],
            textHeight: text.height, words: g.textContent};
  });
  const discs = [
    ...all('[data-testid^="vh-figure-"] .ib-base').map((el) => ({what: "figure", ...disc(el)})),
    ...all('[data-testid="vh-table"] circle.light[data-effect="destination"]')
        .map((el) => ({what: "move point", ...disc(el)})),
    ...all('[data-testid^="vh-point-"]').map((el) => ({what: "point", ...disc(el)})),
  ];
  return {labels, discs};
}"""


def covers(box: list[float], disc: dict[str, Any]) -> bool:
    """Whether a rectangle overlaps a disc."""
    dx = max(box[0] - disc["x"], 0.0, disc["x"] - box[2])
    dy = max(box[1] - disc["y"], 0.0, disc["y"] - box[3])
    return math.hypot(dx, dy) < disc["r"] - 0.5


def check_labels(page: Page) -> list[str]:
    """Every ring label clear of figures, lit points and other labels, and readable; their words."""
    found: dict[str, Any] = page.evaluate(LABELS_JS)
    labels, discs = found["labels"], found["discs"]
    assert discs, "no figures found"
    for lab in labels:
        assert lab["textHeight"] >= MIN_TEXT_PX, lab
        hidden = [d for d in discs if covers(lab["box"], d)]
        assert not hidden, f"{lab} covers {hidden}"
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            x0, y0, x1, y1 = a["box"]
            u0, v0, u1, v1 = b["box"]
            assert x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0, (a, b)
    return sorted(lab["words"] for lab in labels)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["tablet", "phone"])
def test_ring_labels_stand_clear_and_readable(server: Server, browser: Browser, size: ViewportSize) -> None:
    page = first_blood(server, browser, size)
    try:
        # The log begins with turn 1 like every other turn (the first deal's first card says it).
        expect(tid(page, "log").locator("li").first).to_have_text("Turn 1: the cards are shuffled and dealt.")
        select(page, 2)  # Hrafn the archer: four rings, and the move points thick round him
        expect(tid(page, "vh-ring-range-label")).to_have_count(1)
        words = check_labels(page)
        assert words == ['12" range', '2" charge', '6" close range', '6" move']
        shot(page, f"valhalla_table_01_ring_labels_{size['width']}")
        select(page, 0)  # Ulf the Bold: a hero, no shooting rings, approach points to charge from
        expect(tid(page, "vh-ring-range-label")).to_have_count(0)
        assert check_labels(page) == ['2" charge', '6" move']
    finally:
        page.close()


# -- 2. shock markers on their own base ---------------------------------------------------------------------


def engaged(turn_limit: int) -> Any:
    """A game where Ulf's hero has charged Asa's warrior (bases touching) and left it with two shock markers:
    d10 10 against d8 1 is two hits, two saves of 4 one shock marker each; then Asa's card is up. Played with
    real dice entered by hand (the match, to play on)."""
    from iwgt.core.chance import SeededDice
    from iwgt.core.match import Match
    from iwgt.core.registry import get_game

    game = get_game("valhalla")
    toml = scenario_text(
        [
            player(0, (10, 8), (2, 2), (4, 2), name="Ulf"),
            player(1, (22, 14), (12.5, 8), (20, 14), name="Asa"),
        ],
        width=24,
        height=16,
        turn_limit=turn_limit,
    )
    scenario = game.parse_scenario(toml, "engaged")
    for seed in range(1, 100):  # a deal that turns Ulf's card up first
        match = Match(game, scenario, SeededDice(seed), seed, by_hand=True)
        match.resolve_chance()
        if match.to_move == 0:
            break
    assert match.to_move == 0
    match.act(0, game.action_from_json({"type": "charge", "figure": 0, "target": 4}))
    for face in (10, 1, 4, 4):
        match.enter_face(face)
    warrior = match.state.figures[4]
    assert (warrior.shock, warrior.wounds) == (2, 0)
    assert match.to_move == 1  # Asa's card is up next
    return match


def for_the_screen(match: Any) -> dict[str, Any]:
    """The match's record, to be imported for a shared screen with two people at it."""
    return {**match.finish_record().to_json(), "seats": ["human", "human"], "mode": "shared"}


@pytest.fixture(scope="module")
def engaged_record() -> Iterator[dict[str, Any]]:
    """The record of ``engaged`` (8 turns: the game goes on)."""
    yield for_the_screen(engaged(8))


def engaged_table(server: Server, record: dict[str, Any]) -> str:
    """A new table of the engaged record (each test its own, as one plays on), the link of its screen."""
    r = httpx.post(server.base + "/api/tables/import", json=record, timeout=10)
    assert r.status_code == 201, r.text
    link: str = r.json()["links"]["table"]
    return link


PIPS_JS = """() => {
  const disc = (el) => { const r = el.getBoundingClientRect();
                         return {x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2}; };
  const bases = {};
  for (const g of document.querySelectorAll('[data-testid^="vh-figure-"]')) {
    bases[g.dataset.figure] = disc(g.querySelector(".ib-base"));
  }
  const pips = [...document.querySelectorAll('[data-testid^="vh-shock-"], [data-testid^="vh-wound-"]')]
    .map((el) => ({id: el.dataset.testid, owner: el.closest("[data-figure]").dataset.figure, ...disc(el)}));
  return {bases, pips};
}"""


def apart(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The distance between two discs' centres (screen pixels)."""
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])


@pytest.mark.timeout(90)
def test_shock_pips_stay_on_their_own_base(
    server: Server, browser: Browser, engaged_record: dict[str, Any]
) -> None:
    page = browser.new_page(viewport=TABLET)
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(engaged_table(server, engaged_record))
        wait_version(page, 0)
        expect(tid(page, "vh-shock-4-1")).to_be_visible()
        expect(tid(page, "vh-figure-4")).to_have_class(re.compile(r"\bengaged\b"))
        found: dict[str, Any] = page.evaluate(PIPS_JS)
        bases, pips = found["bases"], found["pips"]
        assert [p["id"] for p in pips] == ["vh-shock-4-0", "vh-shock-4-1"]
        hero, warrior = bases["0"], bases["4"]
        assert apart(hero, warrior) < hero["r"] + warrior["r"] + 2  # the bases touch
        for pip in pips:
            own = bases[pip["owner"]]
            assert apart(pip, own) + pip["r"] <= own["r"] + 0.5, pip  # inside its own base
            for fid, base in bases.items():
                if fid != pip["owner"]:
                    assert apart(pip, base) >= pip["r"] + base["r"] - 0.5, (pip, fid)  # on no other
        a, b = pips
        assert apart(a, b) >= a["r"] + b["r"] - 0.5  # side by side, not on each other
        shot(page, "valhalla_table_02_shock_on_its_base")
    finally:
        page.close()


# -- 3. the buttons in reach on a phone and a tablet ---------------------------------------------------------


@pytest.mark.timeout(150)
@pytest.mark.parametrize("size", [PHONE, TABLET, TABLET_PORTRAIT], ids=["phone", "tablet", "tablet-portrait"])
def test_shoot_and_charge_are_in_reach_without_scrolling(
    server: Server, browser: Browser, size: ViewportSize
) -> None:
    page = first_blood(server, browser, size)
    try:
        # The archer: Move and every Shoot in reach; a Shoot tapped shows its odds, and Confirm is in reach.
        select(page, 2)
        shoots = page.locator('[data-testid^="vh-action-shoot-"]')
        expect(shoots.first).to_be_visible()
        in_reach(page, "vh-action-move")
        for i in range(shoots.count()):
            in_reach(page, str(shoots.nth(i).get_attribute("data-testid")))
        shot(page, f"valhalla_table_03_shoot_in_reach_{size['width']}")
        shoots.first.click()
        expect(tid(page, "vh-odds-hit")).to_contain_text("%")
        expect(tid(page, "vh-confirm")).to_be_enabled()
        expect(tid(page, "vh-odds-hit")).to_be_in_viewport()
        in_reach(page, "vh-odds-hit")  # the odds themselves in view, not only the button
        in_reach(page, "vh-confirm")
        in_reach(page, "vh-cancel")
        shot(page, f"valhalla_table_04_confirm_in_reach_{size['width']}")
        tid(page, "vh-cancel").click()
        expect(tid(page, "vh-odds")).to_be_hidden()

        # The hero: to a charge-ready point (sent as the board's tap would), then Charge in reach and taken.
        select(page, 0)
        sel: dict[str, Any] = page.evaluate("() => window.iwgtTable.selection")
        assert sel["approach"], "Ulf the Bold has no point to charge from"
        before = version(page)
        page.evaluate("a => window.iwgtTable.send(a)", sel["approach"][0]["action"])
        wait_version(page, before + 1)
        charge = page.locator('[data-testid^="vh-action-charge-"]').first
        expect(charge).to_be_visible()
        in_reach(page, str(charge.get_attribute("data-testid")))
        charge.click()
        expect(tid(page, "vh-odds-win")).to_contain_text("%")
        in_reach(page, "vh-confirm")
        before = version(page)
        tid(page, "vh-confirm").click()
        wait_version(page, before + 1)
        expect(page.get_by_test_id("vh-roll-combat").first).to_contain_text("scores")
        shot(page, f"valhalla_table_05_charged_{size['width']}")
    finally:
        page.close()


# -- 4. a save's whole doing in the dice panel --------------------------------------------------------------


@pytest.mark.timeout(120)
def test_a_third_shock_marker_is_told_as_a_wound(server: Server, browser: Browser) -> None:
    """first_blood with real dice at one shared screen: whoever's card is up first shoots twice at the enemy
    warrior (6" to 12" off: a 6 hits). The first save is a 4 (one shock marker), the second a 3 (two more: the
    third is a wound, VH-ST-09, and one is left); the dice panel and its toast say the wound, not only "two
    shock markers"."""
    body = {"game": "valhalla", "scenario": "first_blood", "seats": ["human", "human"], "mode": "shared"}
    r = httpx.post(server.base + "/api/tables", json={**body, "dice": "physical"}, timeout=10)
    assert r.status_code == 201, r.text
    page = browser.new_page(viewport=TABLET)
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(r.json()["links"]["table"])
        wait_my_card(page)
        seat = int(page.evaluate("() => window.iwgtTable.view.to_move"))
        shooter, target = (2, 4) if seat == 0 else (5, 1)  # each side's shooter and the other side's warrior
        names = {f["id"]: f["name"] for f in page.evaluate("() => window.iwgtTable.view.observation.figures")}
        select(page, shooter)
        for save in (4, 3):
            tid(page, f"vh-action-shoot-{target}").click()
            expect(tid(page, "vh-confirm")).to_be_enabled()
            before = version(page)
            tid(page, "vh-confirm").click()
            wait_version(page, before + 1)
            for face in (6, save):  # the shot's d6, then the Dice of Death
                expect(tid(page, "die-dialog")).to_contain_text("Roll a d6")
                before = version(page)
                tid(page, f"die-face-{face}").click()
                wait_version(page, before + 1)
        expect(tid(page, f"vh-figure-{target}")).to_have_attribute("data-wounds", "1")
        expect(tid(page, f"vh-figure-{target}")).to_have_attribute("data-shock", "0")
        save_row = page.get_by_test_id("vh-roll-save").first  # the latest roll first
        expect(save_row).to_contain_text(f"Dice of Death for {names[target]}: 3, two shock markers.")
        expect(save_row.get_by_test_id("vh-roll-then")).to_have_text(
            f"A third shock marker is a wound: {names[target]} is now wounded."
        )
        expect(page.get_by_test_id("vh-roll-then")).to_have_count(
            2
        )  # the first save's "now has 1 shock marker"
        expect(page.get_by_test_id("vh-roll-then").nth(1)).to_have_text(
            f"{names[target]} now has 1 shock marker."
        )
        shot(page, "valhalla_table_06_third_shock_a_wound")
    finally:
        page.close()


# -- 5. Game Over's fates in full ----------------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_game_over_gives_each_figure_its_wound_and_its_shock(server: Server, browser: Browser) -> None:
    """A one-turn ``engaged`` game: Asa's warrior (two shock markers) fights on, d8 1 (-1 with its shock)
    against the hero's d10 10, two hits; saves of 4 and 4: the third shock marker is a wound, then one more
    shock marker. Every other card is passed, and the turn limit ends the game: Game Over lists the warrior
    wounded and shocked, not only wounded."""
    match = engaged(1)
    game = match.game
    match.act(1, game.action_from_json({"type": "fight", "figure": 4, "opponent": 0}))
    for face in (1, 10, 4, 4):
        match.enter_face(face)
    warrior = match.state.figures[4]
    assert (warrior.shock, warrior.wounds) == (1, 1)
    while not match.is_over():
        seat = match.to_move
        assert seat is not None and match.awaited_die() is None
        match.act(seat, game.action_from_json({"type": "end_activation"}))
    page = browser.new_page(viewport=TABLET)
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(engaged_table(server, for_the_screen(match)))
        expect(tid(page, "game-over-modal")).to_be_visible()
        expect(tid(page, "vh-final-figure-4")).to_have_text("Asa warrior: 1 wound, 1 shock marker")
        expect(tid(page, "vh-final-figure-0")).to_have_text("Ulf hero: unharmed")
        shot(page, "valhalla_table_07_game_over_fates")
    finally:
        page.close()
