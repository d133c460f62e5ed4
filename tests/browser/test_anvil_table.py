"""Forged upon an Anvil at the table, in the browser as a player sees it (issue 13, section 6).

- The shared inch board draws a unit's tray as a rectangle turned to its facing, its front edge marked and its
  miniatures as equal cells across the front; a planned position as a ghost tray; a bounce back as an arrow
  from where to where; and a Valhalla-style round base is drawn as before.
- A person plays the ``skirmish`` scenario against the bot through the screen alone: the army builder (the
  running DCP, a limit broken and the table's refusal naming its rule, then a legal army), the sealed terrain
  bid, the terrain features, the Seat of Power, the turn bids, deployments, moves, an engage with its exact
  outcome before Confirm, to the game's end or a bounded number of turns.
- On a shared touchscreen holding both seats the screen covers itself between the sealed bids: the first
  bid is never in the second player's view nor on the screen behind the cover.

Screenshots: build/screenshots/anvil_*.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, shot
from .kit import FIRST_COVER, WAIT_MS, lift_first_cover, open_link, tid, version, wait_version

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}
DESKTOP: ViewportSize = {"width": 1920, "height": 1080}
MAX_TURNS = 6
"""The browser game stops after this many turns if nobody has won (whole games are the headless tests')."""
MAX_STEPS = 400
"""A bound on the person's acts in the browser game (each one a wait for the server's answer)."""

expect.set_options(timeout=WAIT_MS)


# -- 1. the shared inch board: trays with a facing, cells, ghosts and arrows ---------------------------------

BOARD_JS = """async () => {
  const ib = await import('/static/inchboard.js');
  document.body.innerHTML = '<div id="ib" style="width:800px;height:800px;display:flex"></div>';
  window.taps = [];
  const board = new ib.InchBoard(document.getElementById('ib'), {
    onPiece: (id) => taps.push(['piece', id]), onPoint: (p) => taps.push(['point', p]), onDrop: () => {},
    onTurn: (key, facing) => taps.push(['turn', key, facing]) });
  board.setTable({ width: 24, height: 24 });
  board.render({
    trays: [{ id: 1, at: [6, 6], width: 3, depth: 1.5, facing: 90, cells: 3, colour: '#2563eb', letter: 'T',
              badge: { text: 4 } },
            { id: 2, at: [18, 18], width: 3, depth: 1.5, facing: 180, cells: 3, colour: '#b91c1c' }],
    pieces: [{ id: 3, at: [12, 20], radius: 0.5, colour: '#888', letter: 'H' }],
    ghosts: [{ at: [6, 12], width: 3, depth: 1.5, facing: 135, kind: 'plan', testid: 'g-plan',
               turn: 'plan' }],
    arrows: [{ from: [18, 18], to: [21, 18], kind: 'bounce', testid: 'a-bounce' }],
    pickable: new Set([1]),
  });
  window.board = board;
}"""


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_the_inch_board_draws_trays_with_cells_ghosts_and_arrows(server: Server, browser: Browser) -> None:
    page = open_link(browser, server.base, "/", {"width": 1000, "height": 1000})
    try:
        page.wait_for_selector('[data-testid="game-cards"]')
        page.evaluate(BOARD_JS)
        px = _box(page, '[data-testid="ib-felt"]')["width"] / 24  # screen pixels per inch
        # Tray 1 faces up the table (90): three cells abreast, each a third of the 3" front (1"), the whole
        # 1.5" depth (less the drawing's small margins: within 2 pixels).
        tray = tid(page, "ib-piece-1")
        assert tray.get_attribute("data-cells") == "3"
        cells = [_box(page, f'[data-testid="ib-piece-1-cell-{i}"]') for i in range(3)]
        base1 = _box(page, '[data-testid="ib-piece-1"] .ib-tray-base')
        for c in cells:
            assert 0.85 * px < c["width"] <= 1.0 * px and c["width"] == pytest.approx(
                cells[0]["width"], abs=0.5
            )
            assert 0.85 * 1.5 * px < c["height"] <= 1.5 * px
        span = cells[2]["x"] + cells[2]["width"] - cells[0]["x"]
        assert span == pytest.approx(base1["width"], abs=6)  # the cells fill the whole front
        assert cells[0]["x"] < cells[1]["x"] < cells[2]["x"]  # across the front, left to right
        # Its front edge is the top edge on the screen (facing up the table).
        front = _box(page, '[data-testid="ib-piece-1"] .ib-tray-front')
        base = _box(page, '[data-testid="ib-piece-1"] .ib-tray-base')
        assert front["y"] + front["height"] / 2 == pytest.approx(base["y"], abs=4)
        # Tray 2 faces 180 on the board (the -x way): its front is its left edge.
        front2 = _box(page, '[data-testid="ib-piece-2"] .ib-tray-front')
        base2 = _box(page, '[data-testid="ib-piece-2"] .ib-tray-base')
        assert front2["x"] + front2["width"] / 2 == pytest.approx(base2["x"], abs=4)
        assert base2["height"] == pytest.approx(3 * px, abs=6)  # turned: its 3" frontage runs up the screen
        # The HP plate, the ghost (turned 135) and the bounce arrow from (18, 18) to (21, 18).
        expect(tid(page, "ib-piece-1-badge")).to_have_text("4")
        assert tid(page, "g-plan").get_attribute("data-facing") == "135"
        arrow = tid(page, "a-bounce")
        assert arrow.get_attribute("data-from") == "18,18" and arrow.get_attribute("data-to") == "21,18"
        head = _box(page, '[data-testid="a-bounce"] .ib-arrow-head')
        felt = _box(page, '[data-testid="ib-felt"]')
        assert head["x"] + head["width"] == pytest.approx(felt["x"] + 21 * px, abs=3)  # the tip at x = 21"
        # A round base still draws as before, and a tap on the tray reports it.
        assert page.locator('[data-testid="ib-piece-3"] circle.ib-base').count() == 1
        tray.click()
        assert page.evaluate("taps") == [["piece", 1]]
        # A drag on the turnable ghost turns it about its centre to face the pointer: 3" east of it is 0.
        start = page.evaluate("p => window.board.clientPoint(p)", [6, 12])
        end = page.evaluate("p => window.board.clientPoint(p)", [9, 12])
        page.mouse.move(start[0], start[1])
        page.mouse.down()
        page.mouse.move(end[0], end[1], steps=5)
        page.mouse.up()
        assert page.evaluate("taps")[-1] == ["turn", "plan", 0]
        assert tid(page, "g-plan").get_attribute("data-facing") == "0"
        shot(page, "anvil_board_trays")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- helpers for a game in the browser -----------------------------------------------------------------------


def view(page: Page) -> dict[str, Any]:
    """The view the page shows."""
    v: dict[str, Any] = page.evaluate("() => window.iwgtTable.view")
    return v


def wait_settled(page: Page) -> None:
    """Wait until a seat of this screen is to act in the view shown, or a cover is up, or the game is over."""
    page.wait_for_function(
        """() => { const t = window.iwgtTable; if (!t) return false;
                   if (!t.view) return !!document.querySelector('[data-testid="pass-screen"]');
                   if (t.view.status !== 'playing') return true;
                   if (document.querySelector('[data-testid="pass-screen"]')) return true;
                   return t.view.to_move === t.view.seat && t.mySeats().includes(t.view.seat); }""",
        timeout=WAIT_MS * 4,
    )
    if page.evaluate(FIRST_COVER):  # the page's first view waits behind the cover: its player taps through
        lift_first_cover(page)
        wait_settled(page)


def new_table(server: Server, seats: list[str], seed: int = 1) -> dict[str, Any]:
    body = {"game": "anvil", "scenario": "skirmish", "seats": seats, "mode": "shared", "seed": seed}
    r = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def tap_table(page: Page, at: tuple[float, float]) -> None:
    """Tap the table at a point in inches (through the board's own mapping)."""
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", list(at))
    page.mouse.click(xy[0], xy[1])


def act_and_wait(page: Page, testid: str) -> None:
    """Tap a button that sends an act, and wait for the next view."""
    before = version(page)
    tid(page, testid).click()
    wait_version(page, before + 1)


LEGAL_ARMY = ["hero", "wizard", "knight", "troop", "troop", "troop", "troop", "troop"]
"""12 DCP: Hero 3 (25%), Wizard 2 (17%), Knight 2 (17%), five Troops 5 (42%): within every limit (FA-UD)."""


def build_army(page: Page) -> None:
    """Build an army in the builder: first a Hero-heavy list that breaks FA-UD-02 (the table's refusal is
    shown), then the legal one above, the Hero its General."""
    for _ in range(4):
        tid(page, "fa-add-hero").click()
    expect(tid(page, "fa-dcp")).to_have_attribute("data-dcp", "12")
    expect(tid(page, "fa-limit-hero")).to_have_attribute("data-ok", "false")  # 12 of 12 DCP: 100% > 30%
    expect(tid(page, "fa-army-reason")).to_contain_text("FA-UD-02")
    shot(page, "anvil_01_army_refused")
    for _ in range(4):
        tid(page, "fa-remove-0").click()
    for unit_type in LEGAL_ARMY:
        tid(page, f"fa-add-{unit_type}").click()
    expect(tid(page, "fa-dcp")).to_have_attribute("data-dcp", "12")
    for t in ("hero", "wizard", "knight", "troop"):
        expect(tid(page, f"fa-limit-{t}")).to_have_attribute("data-ok", "true")
    tid(page, "fa-general-2").check()  # the Knights (8 HP) are the General's unit
    # A deployment stratagem bought with the army: Shooter on the last Troop (paid in DCP when it deploys,
    # not counted in the army's DCP, FA-ST-03).
    last = len(LEGAL_ARMY) - 1
    tid(page, f"fa-deploy-strat-{last}-shooter").check()
    expect(tid(page, "fa-dcp")).to_have_attribute("data-dcp", "12")
    expect(tid(page, "fa-army-reason")).to_have_count(0)
    expect(tid(page, "fa-army-ok")).to_be_visible()  # the table's own check of the list, before it is sent
    shot(page, "anvil_02_army_built")
    act_and_wait(page, "fa-army-submit")


def place_features(page: Page, seat: int) -> None:
    """Place this seat's terrain feature: a Wood that halves and blocks, tried at a few points until one is
    legal (the table refuses a place within 6" of another feature, with its reason)."""
    v = view(page)
    width = v["observation"]["table"]["width"]
    height = v["observation"]["table"]["height"]
    # Points of a 3" grid, the farthest from the features already placed first.
    centres = [f["centre"] for f in v["observation"]["features"]]
    grid = [(float(x), float(y)) for x in range(6, int(width) - 5, 3) for y in range(6, int(height) - 5, 3)]
    grid.sort(
        key=lambda p: -min((math.dist(p, c) for c in centres), default=math.dist(p, (width / 2, height / 2)))
    )
    spots = grid[:6]
    tid(page, "fa-des-blocks").check()
    if not v["observation"]["features"]:  # the first feature turned a quarter
        tid(page, "fa-rotate").click()
        expect(tid(page, "fa-rotate")).to_have_text("Rotation 90°")
    reasons = []
    for at in spots:
        tap_table(page, at)
        page.wait_for_function(
            "() => { const s = window.iwgtTable.game; return s.check !== null; }", timeout=WAIT_MS
        )
        if page.evaluate("() => window.iwgtTable.game.check.legal"):
            act_and_wait(page, "fa-place")
            return
        reasons.append(page.evaluate("() => window.iwgtTable.game.check.reason"))
    if tid(page, "fa-skip").count():
        act_and_wait(page, "fa-skip")
        return
    raise AssertionError(f"no legal place for seat {seat}'s feature among {spots}: {reasons}")


def bid(page: Page, amount: int) -> None:
    tid(page, f"fa-bid-{amount}").click()
    expect(tid(page, "fa-bid-submit")).to_have_text(f"Bid {amount} CP")
    act_and_wait(page, "fa-bid-submit")


def nearest_enemy(v: dict[str, Any], unit: dict[str, Any]) -> dict[str, Any] | None:
    me = unit["tray"]["centre"]
    enemies = [
        u
        for u in v["observation"]["units"]
        if u["seat"] != v["seat"] and not u.get("destroyed") and u.get("tray")
    ]
    if not enemies:
        return None
    return min(enemies, key=lambda u: math.dist(me, u["tray"]["centre"]))


# -- 2. a whole small game against the bot ---------------------------------------------------------------


@pytest.fixture
def solo(server: Server, browser: Browser) -> Iterator[Page]:
    made = new_table(server, ["human", "bot"])
    page = open_link(browser, server.base, made["links"]["table"], DESKTOP)
    yield page
    page.close()


@pytest.mark.timeout(900)
def test_a_skirmish_against_the_bot_through_the_screen(solo: Page) -> None:
    page = solo
    wait_settled(page)
    engaged = False
    steps = 0
    shots_taken: set[str] = set()
    while steps < MAX_STEPS:
        steps += 1
        wait_settled(page)
        v = view(page)
        if v["status"] != "playing":
            break
        obs = v["observation"]
        if obs.get("turn", 0) > MAX_TURNS:
            break
        phase = obs["phase"]
        if phase not in shots_taken:
            shots_taken.add(phase)
            shot(page, f"anvil_phase_{phase}")
        if phase == "muster":
            build_army(page)
        elif phase == "activation":
            engaged = activation_step(page, v) or engaged
        else:
            setup_step(page, v)
    assert steps < MAX_STEPS, "the game did not advance"
    final = view(page)
    if final["observation"].get("turn", 0) <= MAX_TURNS:  # the skirmish has six turns: it ends within them
        assert final["status"] != "playing" and final["result"], "the game did not reach its end"
        expect(tid(page, "game-over-modal")).to_be_visible()
    assert engaged, "no engage was made through the outcome preview and Confirm"
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def setup_step(page: Page, v: dict[str, Any]) -> None:
    """One act of the person's before the activations (the army is the scenario's), or an interruption's
    answer (decline)."""
    obs = v["observation"]
    phase = obs["phase"]
    if phase == "muster":
        act_and_wait(page, "fa-army-suggested")
    elif phase == "terrain_bid":
        bid(page, 2)
    elif phase == "terrain":
        place_features(page, v["seat"])
    elif phase == "seats":
        tap_table(page, (obs["table"]["width"] / 2, 4.0))
        expect(tid(page, "fa-ghost-seat")).to_have_count(1)
        act_and_wait(page, "fa-place-seat")
    elif phase == "bid":
        bid(page, min(6, obs["sides"][v["seat"]]["limit"]))
    elif phase == "interrupt":
        expect(tid(page, "fa-decline")).to_be_visible()
        act_and_wait(page, "fa-decline")
    else:
        raise AssertionError(f"unexpected phase {phase}")


def activation_step(page: Page, v: dict[str, Any]) -> bool:
    """One act of the person's activation through the screen; True if it was a confirmed engage."""
    obs = v["observation"]
    active = (obs.get("activation") or {}).get("unit")
    if active is not None:  # the active unit's selection (its reach and targets) comes after the view
        page.wait_for_function(
            "u => { const t = window.iwgtTable; return t.selection && t.selection.unit === u; }", arg=active
        )
    targets = page.locator('[data-testid^="fa-target-engage-"]')
    if active is not None and targets.count():
        hammer = tid(page, "fa-strat-hammerblow")
        if (
            hammer.count()
            and obs["sides"][v["seat"]]["cp"] >= 3
            and "hammerblow" not in obs["activation"]["stratagems"]
        ):
            act_and_wait(page, "fa-strat-hammerblow")  # +1 damage, paid now (2 CP): the outcome counts it
            return False
        targets.first.click()
        expect(tid(page, "fa-outcome")).to_be_visible()
        expect(tid(page, "fa-confirm")).to_be_enabled()
        expect(tid(page, "fa-outcome-damage")).to_have_count(1)
        shot(page, "anvil_04_engage_outcome")
        act_and_wait(page, "fa-confirm")
        wait_settled(page)
        bounces = [e for e in view(page)["events"] if e.get("event") == "BouncedBack"]
        expect(page.locator('[data-testid^="fa-bounce-"]:not([data-testid*="preview"])')).to_have_count(
            len(bounces)
        )
        if bounces:
            shot(page, "anvil_04b_bounce_drawn")
        return True
    if active is not None:
        unit = next(u for u in obs["units"] if u["id"] == active)
        act = obs.get("activation") or {}
        enemy = nearest_enemy(v, unit)
        # The General's unit stays back (its loss loses the game); the others advance on the nearest enemy.
        if (
            not unit["general"]
            and not act.get("moved")
            and enemy is not None
            and act.get("allowance", 0) > 0.5
        ):
            me = unit["tray"]["centre"]
            to = enemy["tray"]["centre"]
            d = math.dist(me, to)
            full = max(0.0, min(act["allowance"] - 0.2, d - 3.5))
            # The whole way if the table allows it, else shorter (terrain may halve the move): its check says.
            for step in (full, full * 0.6, full * 0.35):
                if step <= 0.5:
                    break
                goal = (me[0] + (to[0] - me[0]) * step / d, me[1] + (to[1] - me[1]) * step / d)
                if obs["turn"] % 2:  # drag the tray there, or (even turns) tap the point
                    start = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", me)
                    end = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", list(goal))
                    page.mouse.move(start[0], start[1])
                    page.mouse.down()
                    page.mouse.move(end[0], end[1], steps=6)
                    page.mouse.up()
                else:
                    tap_table(page, goal)
                if not tid(page, "fa-ghost-plan").count():  # the tap fell on a tray (a friend in the way)
                    continue
                if obs["turn"] % 2 == 0:  # its outline dragged round to face straight up the table (0)
                    # Where the plan ends: a tap near a move end the table offers snaps to it.
                    end_at = page.evaluate("() => window.iwgtTable.game.plan.path.at(-1)")
                    centre = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", end_at)
                    ahead = page.evaluate(
                        "p => window.iwgtTable.board.clientPoint(p)",
                        [end_at[0], end_at[1] + 2 * (1 - 2 * v["seat"])],
                    )
                    page.mouse.move(centre[0], centre[1])
                    page.mouse.down()
                    page.mouse.move(ahead[0], ahead[1], steps=5)
                    page.mouse.up()
                    expect(tid(page, "fa-plan-words")).to_have_attribute(
                        "data-facing", "0" if v["seat"] == 0 else "180"
                    )
                page.wait_for_function("() => window.iwgtTable.game.check !== null", timeout=WAIT_MS)
                if page.evaluate("() => window.iwgtTable.game.check.legal"):
                    shot(page, "anvil_03_move_planned")
                    act_and_wait(page, "fa-move-go")
                    return False
                tid(page, "fa-move-clear").click()
        act_and_wait(page, "fa-end")
        return False
    # No unit active: a fighting unit near an enemy advances (and engages when it can); else a unit still
    # waiting deploys (the General's unit last, by turn 2: FA-DP-03); else the fighting unit nearest an enemy
    # advances; else pass.
    mine = [
        u for u in obs["units"] if u["seat"] == v["seat"] and not u.get("destroyed") and u["type"] != "seat"
    ]
    movable = set(v["options"].get("movable", [])) | {
        a["unit"] for a in v["options"]["actions"] if a["type"] in ("activate", "deploy")
    }
    waiting = [u for u in mine if not u.get("tray") and u["id"] in movable]
    standing = [u for u in mine if u.get("tray") and u["id"] in movable]
    by_distance = sorted(
        (math.dist(u["tray"]["centre"], e["tray"]["centre"]), u["id"], u)
        for u in standing
        if (e := nearest_enemy(v, u)) is not None
    )
    # Near an enemy: a fighting unit within its move and 6", the General's unit only within its reach (it
    # fights back but does not go looking for a fight).
    near = [(d, u) for d, _, u in by_distance if d <= u["move"] + (2 if u["general"] else 6)]
    by_distance = [x for x in by_distance if not x[2]["general"]]
    if near:  # activated first: its engage targets come with its selection
        u = near[0][1]
        tid(page, f"fa-roster-{u['id']}").click()
        act_and_wait(page, "fa-activate")
        return False
    if by_distance and obs["turn"] >= 2 and not [u for u in waiting if u["general"]]:
        # Far from the enemy: dragged towards it before it is active; Move activates it (1 CP), then sends
        # the move (a refused move leaves it active, its reason in red).
        d, _, u = by_distance[0]
        me, to = u["tray"]["centre"], nearest_enemy(v, u)["tray"]["centre"]  # type: ignore[index]
        step = max(0.5, min(u["move"] - 0.5, d - 3.5))
        goal = [me[0] + (to[0] - me[0]) * step / d, me[1] + (to[1] - me[1]) * step / d]
        start = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", me)
        end = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", goal)
        page.mouse.move(start[0], start[1])
        page.mouse.down()
        page.mouse.move(end[0], end[1], steps=6)
        page.mouse.up()
        expect(tid(page, "fa-ghost-plan")).to_have_count(1)
        before = version(page)
        tid(page, "fa-move-go").click()
        wait_version(page, before + 1)
        assert view(page)["observation"]["activation"]["unit"] == u["id"]
        page.wait_for_function(
            """() => { const t = window.iwgtTable; const a = t.view.observation.activation;
                     return (a && a.moved) || t.refusal || t.view.status !== 'playing' || !t.myTurn(); }"""
        )
        return False
    if waiting:
        # The General's unit deploys last (by turn 2, FA-DP-03), behind the others.
        later = [u for u in waiting if not u["general"]]
        u = later[0] if later and obs["turn"] < 2 else waiting[0]
        tid(page, f"fa-roster-{u['id']}").click()
        expect(tid(page, "fa-deploy-how")).to_be_visible()
        # Where along the edge: one of the places the table offers (its selection), tapped on the table.
        page.wait_for_function(
            "u => window.iwgtTable.selection && window.iwgtTable.selection.unit === u", arg=u["id"]
        )
        spots = page.evaluate("() => window.iwgtTable.selection.deploy")
        own = [s for s in spots if s["edge"] == "own" and s.get("at")]
        assert own, f"no place to deploy {u['name']}: {spots}"
        x = own[(u["id"] * 3) % len(own)]["at"][0]
        before = version(page)
        tap_table(page, (x, 1.0 if v["seat"] == 0 else obs["table"]["height"] - 1.0))
        wait_version(page, before + 1)
        return False
    before = version(page)
    tid(page, "fa-pass").click()
    if obs["sides"][v["seat"]]["cp"] > 0:  # giving up CP is asked first
        expect(tid(page, "confirm-dialog")).to_contain_text("give up")
        tid(page, "confirm-yes").click()
    wait_version(page, before + 1)
    return False


@pytest.mark.timeout(120)
def test_the_game_is_set_up_from_the_game_selection(server: Server, browser: Browser) -> None:
    page = open_link(browser, server.base, "/", TABLET)
    try:
        tid(page, "game-card-anvil").click()
        tid(page, "scenario-select").select_option("skirmish")
        expect(tid(page, "seat-select-1")).to_have_value("bot")
        # The game's own set-up choices (FA-GN-06, FA-GN-09): win by the Seat of Power, no premeasuring.
        expect(tid(page, "option-win-scenario")).to_have_attribute("aria-checked", "true")
        tid(page, "option-win-seat").click()
        tid(page, "option-premeasure-off").click()
        tid(page, "play-button").click()
        page.wait_for_url("**/play/**")
        wait_settled(page)
        options = page.evaluate("() => window.iwgtTable.view.observation.options")
        assert options == {"premeasure": False, "win": "seat"}, options
        expect(tid(page, "phase")).to_contain_text("Muster")
        expect(tid(page, "fa-army-suggested")).to_be_visible()  # the scenario's army, or build one
        expect(tid(page, "fa-add-troop")).to_be_visible()
        expect(tid(page, "fa-dcp")).to_have_attribute("data-budget", "12")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 3. the sealed bid on a shared touchscreen --------------------------------------------------------------


def pass_on(page: Page, testid: str) -> None:
    """On a shared screen: tap a button whose act hands the table to the other player, then lift the cover."""
    tid(page, testid).click()
    expect(tid(page, "pass-screen")).to_be_visible()
    tid(page, "pass-continue").click()
    expect(tid(page, "pass-screen")).to_have_count(0)
    wait_settled(page)


@pytest.mark.timeout(300)
def test_the_first_bid_is_never_shown_to_the_second_player(server: Server, browser: Browser) -> None:
    made = new_table(server, ["human", "human"])
    page = open_link(browser, server.base, made["links"]["table"], TABLET)
    try:
        wait_settled(page)
        # Muster: each player takes the scenario's army, the screen covering itself between them.
        assert view(page)["observation"]["phase"] == "muster" and view(page)["seat"] == 0
        pass_on(page, "fa-army-suggested")
        assert view(page)["observation"]["phase"] == "muster" and view(page)["seat"] == 1
        pass_on(page, "fa-army-suggested")
        # The terrain bid: seat 0 bids 4; the screen covers itself before seat 1 sees anything.
        v = view(page)
        assert v["observation"]["phase"] == "terrain_bid" and v["seat"] == 0
        tid(page, "fa-bid-4").click()
        expect(tid(page, "fa-bid-submit")).to_have_text("Bid 4 CP")
        tid(page, "fa-bid-submit").click()
        expect(tid(page, "pass-screen")).to_be_visible()
        shot(page, "anvil_05_bid_cover")
        # The cover is opaque and over everything; the bid's button has forgotten the amount.
        cover = page.evaluate(
            """() => { const el = document.querySelector('[data-testid="pass-screen"]');
                     const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                     return {bg: s.backgroundColor, w: r.width, h: r.height,
                             vw: innerWidth, vh: innerHeight}; }"""
        )
        assert cover["bg"] == "rgb(5, 7, 10)" and cover["w"] >= cover["vw"] and cover["h"] >= cover["vh"], (
            cover
        )
        expect(tid(page, "fa-bid-submit")).to_have_text("Choose your bid")
        tid(page, "pass-continue").click()
        wait_settled(page)
        v = view(page)
        assert v["seat"] == 1 and v["observation"]["phase"] == "terrain_bid"
        first = v["observation"]["sides"][0]
        assert first["terrain_bid_in"] is True and first["terrain_bid"] is None  # it is in, its amount is not
        logged = [step.get("action") for step in v.get("log", [])]
        assert {"type": "terrain_bid"} in logged and {"type": "terrain_bid", "amount": 4} not in logged
        expect(tid(page, "fa-bid-state-0")).to_have_text("has bid")
        expect(tid(page, "fa-bid-submit")).to_have_text("Choose your bid")  # seat 0's choice is not kept
        assert "bid 4" not in page.inner_text("body").lower()
        shot(page, "anvil_06_second_bidder")
        # Seat 1 bids; both bids are then public.
        tid(page, "fa-bid-2").click()
        pass_on(page, "fa-bid-submit")
        sides = view(page)["observation"]["sides"]
        assert [sides[0]["terrain_bid"], sides[1]["terrain_bid"]] in ([4, 2], [None, None])
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 4. phone and tablet: the acts of an activation in reach ------------------------------------------------

FITS_JS = """id => { const el = document.querySelector(`[data-testid="${id}"]`); if (!el) return false;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return r.x >= 0 && r.y >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5
         && Boolean(hit && el.contains(hit)); }"""


def in_reach(page: Page, testid: str) -> None:
    """The element is wholly on the screen without scrolling, and a tap at its middle reaches it."""
    page.wait_for_function(FITS_JS, arg=testid, timeout=WAIT_MS)


@pytest.mark.timeout(600)
def test_on_a_phone_and_a_tablet_the_acts_are_in_reach(solo: Page) -> None:
    page = solo
    for _ in range(MAX_STEPS):  # the set-up at the desktop size, to the person's first activation
        wait_settled(page)
        v = view(page)
        assert v["status"] == "playing"
        if v["observation"]["phase"] == "activation":
            break
        setup_step(page, v)
    v = view(page)
    waiting = [
        u
        for u in v["observation"]["units"]
        if u["seat"] == v["seat"] and u["waiting"] and u["type"] != "seat"
    ]
    assert waiting, "a unit to deploy"
    for size, name in ((PHONE, "phone"), (TABLET, "tablet")):
        page.set_viewport_size(size)
        # Deploying: the roster's row picks the unit, the prompt says how; Pass stays in reach.
        tid(page, f"fa-roster-{waiting[0]['id']}").click()
        expect(tid(page, "fa-deploy-how")).to_be_visible()
        in_reach(page, "fa-deploy-how")
        in_reach(page, "fa-pass")
        for chip in ("fa-cp-0", "fa-cp-1"):  # CP left for each side, always in view
            in_reach(page, chip)
        shot(page, f"anvil_08_{name}_deploy")
    page.set_viewport_size(DESKTOP)
    before = version(page)
    x = v["observation"]["table"]["width"] / 2
    tap_table(page, (x, 1.0))
    wait_version(page, before + 1)
    active = view(page)["observation"]["activation"]["unit"]
    page.wait_for_function(
        "u => window.iwgtTable.selection && window.iwgtTable.selection.unit === u", arg=active
    )
    tap_table(page, (x, 5.0))  # a move planned: its controls
    expect(tid(page, "fa-ghost-plan")).to_have_count(1)
    for size, name in ((PHONE, "phone"), (TABLET, "tablet")):
        page.set_viewport_size(size)
        for testid in ("fa-move-go", "fa-turn-left", "fa-end"):
            in_reach(page, testid)
        shot(page, f"anvil_09_{name}_move")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


# -- 5. "Don't premeasure": no distances, rings or reach --------------------------------------------------


def blind_table(server: Server) -> dict[str, Any]:
    """The skirmish with the table option "Don't premeasure" (FA-GN-09), as a table imported from a record
    with no steps (the lobby offers the shipped scenarios only)."""
    from iwgt.core.record import RECORD_FORMAT
    from iwgt.core.registry import get_game

    toml = get_game("anvil").load_scenario("skirmish").source
    # The option goes among the scenario's top-level keys (before its first table).
    toml = toml.replace('name = "skirmish"', 'name = "blind_skirmish"').replace(
        "\n[", "\npremeasure = false\n\n[", 1
    )
    assert "premeasure = false" in toml
    record = {
        "format": RECORD_FORMAT,
        "game": "anvil",
        "rules_version": get_game("anvil").rules_version,
        "scenario": {"name": "blind_skirmish", "toml": toml},
        "seed": 1,
        "dice": "table",
        "steps": [],
        "seats": ["human", "bot"],
        "mode": "shared",
    }
    r = httpx.post(server.base + "/api/tables/import", json=record, timeout=10)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


@pytest.mark.timeout(600)
def test_without_premeasuring_the_screen_shows_no_distances(server: Server, browser: Browser) -> None:
    made = blind_table(server)
    page = open_link(browser, server.base, made["links"]["table"], DESKTOP)
    try:
        for _ in range(MAX_STEPS):
            wait_settled(page)
            v = view(page)
            assert v["status"] == "playing"
            if v["observation"]["phase"] == "activation":
                break
            setup_step(page, v)
        v = view(page)
        assert v["observation"]["options"]["premeasure"] is False
        expect(tid(page, "fa-no-premeasure")).to_be_visible()
        # Deploy a unit: it is active, picked, and its selection has come; nothing measures for the player.
        before = version(page)
        waiting = [
            u
            for u in v["observation"]["units"]
            if u["seat"] == v["seat"] and u["waiting"] and u["type"] != "seat"
        ]
        tid(page, f"fa-roster-{waiting[0]['id']}").click()
        tap_table(page, (v["observation"]["table"]["width"] / 2 - 6, 1.0))
        wait_version(page, before + 1)
        active = view(page)["observation"]["activation"]["unit"]
        page.wait_for_function(
            "u => window.iwgtTable.selection && window.iwgtTable.selection.unit === u", arg=active
        )
        board = page.locator(".board-host")
        expect(board).to_have_class(re.compile(r"\bfa-blind\b"))
        assert page.locator('[data-testid^="fa-ring-"]').count() == 0
        assert page.locator('[data-testid="fa-reach"]').count() == 0
        grid = page.locator(".ib-grid").first
        assert grid.evaluate("el => getComputedStyle(el).display") == "none"
        assert page.locator(".ib-ruler").first.evaluate("el => getComputedStyle(el).display") == "none"
        expect(tid(page, "fa-active-words")).not_to_contain_text('"')  # no inches left told
        tap_table(page, (v["observation"]["table"]["width"] / 2 - 6, 5.0))
        expect(tid(page, "fa-plan-words")).to_be_visible()
        expect(tid(page, "fa-plan-words")).not_to_contain_text('"')  # no cost told
        shot(page, "anvil_10_no_premeasure")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- 6. an interruption prompt in the opponent's activation, and the bounce backs drawn ---------------------


ANSWERS = {"counterattack": ("Counterattack", 3), "hero_of_the_day": ("Hero of the Day", 4)}
"""The answers to an engage and their printed cost in CP (the text's Interruption Stratagems)."""
SEEDS_TRIED = 12
"""How many seeded bot-against-bot games are tried for an engage that the other side may answer."""


def engage_ahead() -> tuple[dict[str, Any], dict[str, Any], int, dict[str, Any]]:
    """A skirmish played by the bot for both seats up to the first engage that the other seat may answer
    with a stratagem (the adapter's outcome lists the interruption): the record so far, that engage, the seat
    that orders it, and the first answer offered. Seeded games are tried in turn (the bot's play, not this
    test, decides when one comes)."""
    from iwgt.core.chance import SeededDice
    from iwgt.core.match import Match
    from iwgt.core.registry import get_game, get_plugin

    game, plugin = get_game("anvil"), get_plugin("anvil")
    adapter = plugin.table()
    for seed in range(1, SEEDS_TRIED + 1):
        match = Match(game, game.load_scenario("skirmish"), SeededDice(seed), seed)
        bots = [plugin.bot(seed), plugin.bot(seed)]
        for _ in range(MAX_STEPS):
            if match.is_over():
                break
            seat, state = match.to_move, match.state
            if seat is not None and state.activation is not None and state.phase == "activation":
                for a in game.legal_actions(state, seat):
                    engage = game.action_to_json(a)
                    if engage["type"] != "engage":
                        continue
                    outcome = adapter.preview(game, state, seat, engage)["outcome"]
                    if outcome and outcome.get("interruptions"):
                        record = match.finish_record().to_json()
                        offer = outcome["interruptions"][0]
                        return {**record, "seats": ["human", "human"], "mode": "shared"}, engage, seat, offer
            match.act(seat, bots[seat].choose(state, seat))
    raise AssertionError(f"no engage that could be answered in {SEEDS_TRIED} games")


@pytest.mark.timeout(600)
def test_an_interruption_is_offered_in_the_opponents_activation(server: Server, browser: Browser) -> None:
    record, engage, me, offer = engage_ahead()
    other = 1 - me
    r = httpx.post(server.base + "/api/tables/import", json=record, timeout=30)
    assert r.status_code == 201, r.text
    page = open_link(browser, server.base, r.json()["links"]["table"], DESKTOP)
    try:
        wait_settled(page)
        v = view(page)
        assert v["seat"] == me and v["observation"]["activation"]["unit"] == engage["unit"]
        page.wait_for_function(
            "u => window.iwgtTable.selection && window.iwgtTable.selection.unit === u", arg=engage["unit"]
        )
        # The engage's outcome names the answer the other seat may give, and what it would do.
        tid(page, f"fa-target-engage-{engage['target']}").click()
        expect(tid(page, f"fa-outcome-interrupt-{offer['key']}")).to_be_visible()
        expect(tid(page, "fa-outcome-damage")).to_have_count(1)
        # Where each bounce back of the outcome lands is drawn: an arrow from where to where, a ghost tray.
        landing = page.evaluate("() => window.iwgtTable.game.outcome.outcome.bounces")
        for i, b in enumerate(landing):
            arrow = page.locator(f'[data-testid^="fa-bounce-preview-"][data-to="{b["to"][0]},{b["to"][1]}"]')
            expect(arrow).to_have_count(1)
            expect(tid(page, f"fa-ghost-landing-{i}")).to_have_attribute(
                "data-at", f"{b['to'][0]},{b['to'][1]}"
            )
        shot(page, "anvil_07_engage_with_answer")
        # Confirmed: the table asks the other seat, behind the shared screen's cover.
        tid(page, "fa-confirm").click()
        expect(tid(page, "pass-screen")).to_be_visible()
        tid(page, "pass-continue").click()
        wait_settled(page)
        v = view(page)
        assert v["seat"] == other and v["observation"]["phase"] == "interrupt"
        assert v["observation"]["interruption"]["kind"] == offer["key"]
        answer = tid(page, f"fa-interrupt-{offer['key']}-{offer['unit']}")
        expect(answer).to_contain_text(ANSWERS[offer["key"]][0])
        expect(answer).to_contain_text(f"{ANSWERS[offer['key']][1]} CP")
        expect(tid(page, "fa-decline")).to_be_visible()
        shot(page, "anvil_11_interrupt_prompt")
        cp_before = v["observation"]["sides"][other]["cp"]
        answer.click()
        # Back to the attacker's activation (or the next seat to act): the answer paid, the combat drawn.
        page.wait_for_function(
            """a => { const t = window.iwgtTable;
                     return document.querySelector('[data-testid="pass-screen"]')
                            || (t.view && t.view.observation.sides[a.other].cp !== a.cp); }""",
            arg={"cp": cp_before, "other": other},
        )
        if tid(page, "pass-screen").count():
            tid(page, "pass-continue").click()
        wait_settled(page)
        v = view(page)
        assert (
            v["observation"]["sides"][other]["cp"] == cp_before - ANSWERS[offer["key"]][1]
        )  # paid (FA-ST-05)
        bounces = [e for e in v["events"] if e.get("event") == "BouncedBack"]
        arrows = page.locator('[data-testid^="fa-bounce-"]')
        expect(arrows).to_have_count(len(bounces))
        for i, b in enumerate(bounces):  # each bounce back drawn from where to where
            arrow = tid(page, f"fa-bounce-{i}")
            assert arrow.get_attribute("data-from") == f"{b['start'][0]},{b['start'][1]}"
            assert arrow.get_attribute("data-to") == f"{b['end'][0]},{b['end'][1]}"
        shot(page, "anvil_12_after_counterattack")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()
