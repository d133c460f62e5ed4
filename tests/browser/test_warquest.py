"""WarQuest at the table, against the real server (issue 15 section 6): the game selection offers it; a whole
``short`` game (6 rounds) for three warlords on one shared touchscreen from the game selection to Game Over,
every act a tap on the screen (the placement of each warlord and its starting army, moves by tapping a leader
and a lit region with the battle odds shown before an attack, tax, conquer, recruit, quests, the battle's
questions with the table's default one tap away), the pass-and-play cover between seats; a hand is never in
the DOM of another seat's screen; physical combat dice entered as a tally in a real battle.

Screenshots: build/screenshots/warquest_*.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .conftest import Server, shot
from .kit import WAIT_MS, open_link, tid, version

DESKTOP = {"width": 1600, "height": 1000}
MAX_ACTS = 700
"""A bound on the taps that act in the whole game (each waits for the server's answer)."""
SEED = 5
"""The table's dice and shuffles are seeded: the browser game is the same game every run."""
PREFERRED = [
    "vandar_crown",
    "kingsfield",
    "thornvale",
    "goldmere",
    "ashford",
    "sunreach",
    "sylmar_downs",
    "highmoor",
]
"""Where the warlords start: next to each other in the middle of the map, so that they meet in battle."""

expect.set_options(timeout=WAIT_MS)


def seeded(route: Route) -> None:
    """Let the lobby's create request through with a seed."""
    if route.request.method != "POST":
        route.continue_()
        return
    body = json.loads(route.request.post_data or "{}")
    route.continue_(post_data=json.dumps({**body, "seed": SEED}))


def view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("() => window.iwgtTable.view")
    return v


def settle(page: Page) -> dict[str, Any]:
    """Wait until a seat of this screen is to act (lifting the pass-and-play cover) or the game is over."""
    while True:
        page.wait_for_function(
            """() => { const t = window.iwgtTable; if (!t) return false;
                       if (document.querySelector('[data-testid="pass-screen"]')) return true;
                       if (!t.view) return false;
                       const dice = '[data-testid="die-dialog"], [data-testid="wq-tally-dialog"]';
                       if (document.querySelector(dice)) return true;
                       if (t.view.status !== 'playing') return true;
                       return t.view.to_move === t.view.seat && t.mySeats().includes(t.view.seat); }""",
            timeout=WAIT_MS * 4,
        )
        if tid(page, "pass-screen").count():
            tid(page, "pass-continue").click()
            expect(tid(page, "pass-screen")).to_have_count(0)
            continue
        return view(page)


def tap_and_wait(page: Page, do: Any) -> None:
    """Tap something that acts; wait for the next view (or the cover that hides it for the next seat)."""
    before = version(page)
    do()
    page.wait_for_function(
        """v => document.querySelector('[data-testid="pass-screen"]')
               || (window.iwgtTable.view && window.iwgtTable.view.version > v)""",
        arg=before,
        timeout=WAIT_MS * 2,
    )


def tap_region(page: Page, region: str, cat: dict[str, Any]) -> None:
    """Tap a region of the map at its label point (where its name and pieces are)."""
    r = next(x for x in cat["maps"]["myrathia"]["regions"] if x["id"] == region)
    # On a zoomed map (a phone) the region is first brought into view, as a player pans to it.
    page.evaluate(
        'id => document.querySelector(`[data-testid="wq-region-${id}"]`)'
        ".scrollIntoView({block: 'center', inline: 'center'})",
        region,
    )
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", r["centre"])
    page.mouse.click(xy[0] + 22, xy[1] - 2)


def offered(v: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [a for a in v["options"]["actions"] if a["type"] == kind]


# -- the game selection --------------------------------------------------------------------------------------


def test_the_game_selection_offers_warquest(server: Server, browser: Browser) -> None:
    page = open_link(browser, server.base, "/", DESKTOP)  # type: ignore[arg-type]
    try:
        card = tid(page, "game-card-warquest")
        expect(card).to_have_attribute("data-playable", "true")
        card.click()
        options = page.locator('[data-testid="scenario-select"] option').all_inner_texts()
        assert any("Short" in o for o in options), options
        tid(page, "scenario-select").select_option("short")
        expect(tid(page, "seat-select-2")).to_be_visible()
        shot(page, "warquest_01_lobby")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- a whole short game --------------------------------------------------------------------------------------


@pytest.fixture()
def cat(server: Server) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(server.base + "/api/games/warquest/data", timeout=30).json()
    return data


class Player:
    """Plays every seat of the shared screen by taps: expand, tax, recruit, quest, attack when it can."""

    def __init__(self, page: Page, cat: dict[str, Any]) -> None:
        self.page = page
        self.cat = cat
        self.done: dict[str, int] = {}
        self.shots: set[str] = set()
        self.moved_turn: tuple[int, int, int] | None = None
        self.tallied: tuple[str, int] | None = None
        self.tally_before = ""  # the last roll shown when the tally was sent (JSON)
        self.tally_total = 0  # the dice of the roll the tally completes

    def count(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    def shot_once(self, name: str) -> None:
        if name not in self.shots:
            self.shots.add(name)
            shot(self.page, name)

    def step(self, v: dict[str, Any]) -> None:
        page = self.page
        if tid(page, "wq-tally-dialog").count():
            self.tally(v)
            return
        if tid(page, "die-dialog").count():
            tap_and_wait(page, lambda: tid(page, "die-face-3").click())
            self.count("die")
            return
        o = v["observation"]
        q = o.get("question")
        if q and q.get("seat") == v["seat"]:
            self.answer(v, q)
        elif o["phase"] == "place":
            self.place(v)
        else:
            self.turn(v)

    def tally(self, v: dict[str, Any]) -> None:
        """Physical combat dice: one hit and one flee, the rest blanks, entered in one dialog (WQ-CB-01)."""
        page = self.page
        rolling = v["observation"]["rolling"]
        n = rolling["dice"] - len(rolling["faces"])
        tid(page, "wq-tally-hits").fill("1")
        tid(page, "wq-tally-flees").fill("1")
        expect(tid(page, "wq-tally-blanks")).to_have_text(str(n - 2))
        self.shot_once("warquest_08_physical_tally")
        self.tallied = (rolling["purpose"], n)
        self.tally_before = json.dumps(
            v["observation"]["last_roll"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        self.tally_total = int(rolling["dice"])
        tap_and_wait(page, lambda: tid(page, "wq-tally-send").click())
        self.count("tally")

    def place(self, v: dict[str, Any]) -> None:
        page = self.page
        free = {a["region"] for a in offered(v, "place")}
        region = next(r for r in PREFERRED if r in free)
        tap_region(page, region, self.cat)
        expect(tid(page, "wq-place-dialog")).to_be_visible()
        expect(tid(page, "wq-stats-key")).to_contain_text("attack/defence")  # "1/1 M" is explained
        self.shot_once("warquest_02_placement")
        # In a kingdom, the table's second package: a full army of one basic kind; in a people's land, the
        # first (no troops: the gold is kept to recruit the people of the land in the first turn).
        wild = (
            next(r for r in self.cat["maps"]["myrathia"]["regions"] if r["id"] == region)["kingdom"] is None
        )
        package = "wq-package-0" if wild else "wq-package-1"
        tap_and_wait(page, lambda: tid(page, package).click())
        self.count("place")

    def answer(self, v: dict[str, Any], q: dict[str, Any]) -> None:
        page = self.page
        kind = q["kind"]
        if kind != "discard":
            expect(tid(page, f"wq-ask-{kind}")).to_be_visible()
            self.shot_once(f"warquest_05_battle_{kind}")
        button = {
            "arrange": "wq-arrange-default",
            "assign": "wq-assign-default",
            "refill": "wq-refill-default",
            "press_on": "wq-press-on",
            "spell": "wq-spell-none",
        }.get(kind)
        if kind == "target":
            button = f"wq-target-{offered(v, 'target')[0]['rank']}"
        elif kind == "breath":
            a = offered(v, "breath")[0]
            button = f"wq-breath-{a.get('rank') or 'none'}"
        elif kind == "retreat":
            button = f"wq-retreat-{offered(v, 'retreat')[0]['region']}"
        elif kind == "discard":
            button = f"wq-discard-{offered(v, 'discard')[0]['card']}"
        assert button, kind
        tap_and_wait(page, lambda: tid(page, button).click())
        self.count(f"answer_{kind}")

    def turn(self, v: dict[str, Any]) -> None:
        page = self.page
        o = v["observation"]
        me = next(p for p in o["players"] if p["seat"] == v["seat"])
        turn_key = (o["round"], v["seat"], o["actions_left"])
        expect(tid(page, "wq-acts")).to_be_visible()
        if offered(v, "quest"):
            card = offered(v, "quest")[0]["card"]
            tap_and_wait(page, lambda: tid(page, f"wq-quest-go-{card}").click())
            self.count("quest")
            return
        if offered(v, "tax"):
            self.region_action(v, "tax")
            return
        if offered(v, "conquer") and me["tokens_left"] > 0:
            self.region_action(v, "conquer")
            return
        if offered(v, "recruit") and me["gold"] >= 4 and self.done.get("recruit", 0) < 12:
            self.recruit(v)
            return
        if v["options"]["movable"] and self.moved_turn != turn_key and self.move(v):
            self.moved_turn = turn_key
            return
        tap_and_wait(page, lambda: tid(page, "wq-end-turn").click())
        self.count("end_turn")

    def region_action(self, v: dict[str, Any], kind: str) -> None:
        page = self.page
        regions = [a["region"] for a in offered(v, kind)]

        def go() -> None:
            tid(page, f"wq-act-{kind}").click()
            if len(set(regions)) > 1:
                tid(page, f"wq-choose-{regions[0]}").click()

        tap_and_wait(page, go)
        self.count(kind)

    def recruit(self, v: dict[str, Any]) -> None:
        page = self.page
        regions = sorted({a["region"] for a in offered(v, "recruit")})
        tid(page, "wq-act-recruit").click()
        if len(regions) > 1:
            tid(page, f"wq-choose-{regions[0]}").click()
        expect(tid(page, "wq-recruit-dialog")).to_be_visible()
        kinds = [a for a in offered(v, "recruit") if a["region"] == regions[0]]
        kind = sorted({k for a in kinds for k in a["troops"]})[0]
        tid(page, f"wq-more-{kind}").click()
        if tid(page, f"wq-more-{kind}").is_enabled():
            tid(page, f"wq-more-{kind}").click()
        expect(tid(page, "wq-recruit-total")).to_contain_text("troop")
        self.shot_once("warquest_04_recruit")
        if not tid(page, "wq-recruit-send").is_enabled():
            tid(page, f"wq-less-{kind}").click()
        tap_and_wait(page, lambda: tid(page, "wq-recruit-send").click())
        self.count("recruit")

    def move(self, v: dict[str, Any]) -> bool:
        """Pick a leader by tapping it, then a destination: a battle from round 2 on, else a region the
        warlord does not own. False if no leader has a useful destination."""
        page = self.page
        o = v["observation"]
        seat = v["seat"]
        owned = {r["id"] for r in o["regions"] if r.get("owner") == seat}
        for leader in v["options"]["movable"]:
            tid(page, f"wq-piece-{leader}").click()
            page.wait_for_function(
                "u => { const t = window.iwgtTable; "
                "return (t.selection && t.selection.unit === u) || t.refusal; }",
                arg=leader,
            )
            sel = page.evaluate("() => window.iwgtTable.selection")
            if not sel:  # the table could not answer for this leader (see wq-screen-findings.md)
                self.count("selection_refused")
                tid(page, "wq-move-cancel").click()
                continue
            dests = sel["destinations"]
            fights = [d for d in dests if d["battle"]]
            quiet = [d for d in dests if not d["battle"] and d["region"] not in owned]
            pick = fights[0] if fights and o["round"] >= 2 else quiet[0] if quiet else None
            if pick is None:
                tid(page, "wq-move-cancel").click()
                continue
            self.shot_once("warquest_03_move_picked")
            if tid(page, "wq-dest-list").get_attribute("open") != "":
                tid(page, "wq-dest-list").locator("summary").click()
            if pick["battle"]:
                tid(page, f"wq-dest-{pick['region']}").click()
                expect(tid(page, "wq-odds")).to_be_visible()
                # The odds are the table's preview of this move (wq-table-api.md), shown once they come.
                page.wait_for_function("() => (window.iwgtTable.game.odds || {}).answer")
                odds = page.evaluate("() => window.iwgtTable.game.odds.answer.odds")
                if odds:
                    want = f"{round(odds['attacker_wins'] * 100, 1):.1f}%"
                    expect(tid(page, "wq-win")).to_contain_text(want)
                self.shot_once("warquest_04b_odds")
                tap_and_wait(page, lambda: tid(page, "wq-attack").click())
                self.count("attack")
            else:
                there = pick["region"]
                tap_and_wait(page, lambda there=there: tid(page, f"wq-dest-{there}").click())
                self.count("move")
            return True
        return False


@pytest.mark.timeout(1800)
def test_a_short_game_from_the_game_selection_to_game_over(
    server: Server, browser: Browser, cat: dict[str, Any]
) -> None:
    page = open_link(browser, server.base, "/", DESKTOP)  # type: ignore[arg-type]
    try:
        page.route("**/api/tables", seeded)
        tid(page, "game-card-warquest").click()
        tid(page, "scenario-select").select_option("short")
        for i in range(3):
            tid(page, f"seat-select-{i}").select_option("human")
        tid(page, "mode-shared").click()
        tid(page, "play-button").click()
        page.wait_for_url("**/play/**")
        player = Player(page, cat)
        acts = 0
        while acts < MAX_ACTS:
            v = settle(page)
            if v["status"] != "playing":
                break
            try:
                player.step(v)
            except Exception:
                shot(page, "warquest_failed")
                print("acts so far:", player.done, "view:", json.dumps(view(page))[:3000])
                raise
            acts += 1
        assert acts < MAX_ACTS, f"the game did not end: {player.done}"
        final = view(page)
        assert final["status"] == "over" and final["result"], final["status"]
        expect(tid(page, "game-over-modal")).to_be_visible()
        expect(tid(page, "wq-final")).to_be_visible()
        shot(page, "warquest_06_game_over")
        print("acts made through the screen:", player.done)
        for what in ("place", "move", "tax", "conquer", "recruit", "attack"):
            assert player.done.get(what, 0) >= 1, f"no {what} through the screen: {player.done}"
        assert player.done["place"] == 3
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


# -- hidden hands --------------------------------------------------------------------------------------------


def remote_table(server: Server, **extra: Any) -> dict[str, Any]:
    body = {
        "game": "warquest",
        "scenario": "short",
        "seats": ["human"] * 3,
        "mode": "remote",
        "seed": SEED,
        **extra,
    }
    r = httpx.post(server.base + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def test_a_hand_is_not_in_another_seats_screen(server: Server, browser: Browser) -> None:
    """Issue 15 section 4: each seat's screen draws its own quest and conquest cards; none of them is anywhere
    in the DOM of another seat's screen (not even hidden), nor its quest regions' marks."""
    made = remote_table(server)
    pages = [open_link(browser, server.base, link, DESKTOP) for link in made["links"]["seats"]]  # type: ignore[arg-type]
    try:
        hands = []
        for p in pages:
            p.wait_for_function("() => window.iwgtTable && window.iwgtTable.view")
            hand = p.evaluate("() => window.iwgtTable.view.observation.hand")
            assert len(hand["quests"]) == 2 and len(hand["conquests"]) == 2
            for q in hand["quests"]:
                expect(tid(p, f"wq-quest-{q['id']}")).to_contain_text(q["name"])
                expect(tid(p, f"wq-quest-mark-{q['id']}")).to_have_count(1)
            hands.append(hand)
        shot(pages[0], "warquest_07_own_hand")
        for i, p in enumerate(pages):
            html = p.content()
            for j, hand in enumerate(hands):
                if i == j:
                    continue
                mine = {q["id"] for q in hands[i]["quests"]}
                for q in hand["quests"]:
                    if q["name"] not in {x["name"] for x in hands[i]["quests"]}:
                        assert q["name"] not in html, f"seat {j}'s quest {q['name']} in seat {i}'s screen"
                    if q["id"] not in mine:
                        assert f'data-testid="wq-quest-mark-{q["id"]}"' not in html
                for c in hand["conquests"]:
                    if c["name"] not in {x["name"] for x in hands[i]["conquests"]}:
                        assert c["name"] not in html, f"seat {j}'s conquest {c['name']} in seat {i}'s screen"
        for p in pages:
            assert not p.errors, p.errors  # type: ignore[attr-defined]
    finally:
        for p in pages:
            p.close()


@pytest.mark.timeout(900)
def test_physical_combat_dice_are_entered_as_a_tally(
    server: Server, browser: Browser, cat: dict[str, Any]
) -> None:
    """Physical dice (issue 15 section 6): the warlords play until the first attack of several combat dice;
    its dice are entered in one tally (1 hit, 1 flee, the rest blank) and the roll the table then shows is
    that tally (WQ-CB-01: a hit face, a flee face, four blank faces)."""
    made = remote_table(server, mode="shared", dice="physical")
    page = open_link(browser, server.base, made["links"]["table"], DESKTOP)  # type: ignore[arg-type]
    try:
        player = Player(page, cat)
        for _ in range(MAX_ACTS):
            v = settle(page)
            assert v["status"] == "playing", "the game ended before a tally"
            player.step(v)
            if player.tallied:
                break
        assert player.tallied, player.done
        purpose, n = player.tallied
        # The roll ends with a view for the next seat to act, behind the pass-and-play cover; or, when a Satyr
        # stands in the rank, the tally's flee brings AMBUSH's 2 extra dice (WQ-SP-07) and the roll goes on.
        # The server enters the tally's faces one chance node at a time: wait for the roll to end (a new last
        # roll) or for AMBUSH to owe more dice once every tallied face is in.
        page.wait_for_function(
            """([before, total]) => {
                 if (document.querySelector('[data-testid="pass-screen"]')) return true;
                 const o = window.iwgtTable.view && window.iwgtTable.view.observation;
                 if (!o) return false;
                 const r = o.rolling;
                 if (r && r.dice > total && r.faces.length >= total) return true;
                 const keys = x => x && Object.keys(x).sort().reduce((a, k) => (a[k] = x[k], a), {});
                 return !!o.last_roll && JSON.stringify(keys(o.last_roll)) !== before; }""",
            arg=[player.tally_before, player.tally_total],
            timeout=WAIT_MS * 2,
        )
        if tid(page, "pass-screen").count():
            tid(page, "pass-continue").click()
        obs = view(page)["observation"]
        rolling = obs["rolling"]
        # The tallied roll is the last roll, unless its flee called AMBUSH's dice and it is still rolling (the
        # next rank's roll may already have begun: the last roll stays until a roll ends).
        total = player.tally_total
        cascade = rolling is not None and rolling["dice"] > total and len(rolling["faces"]) >= total
        roll = rolling if cascade else obs["last_roll"]
        assert roll["purpose"] == purpose, roll
        words = [
            f if isinstance(f, str) else ["hit", "flee", "blank", "blank", "blank", "blank"][f - 1]
            for f in roll["faces"]
        ]
        tally = words[total - n : total] if cascade else words[-n:]
        assert sorted(tally) == sorted(["hit", "flee"] + ["blank"] * (n - 2)), roll
        if cascade:  # AMBUSH: the tally's one flee owes 2 more dice (WQ-SP-07)
            assert roll["dice"] == total + 2, roll
        else:
            assert roll["hits"] >= 1 and roll["flees"] >= 1, roll
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


SIZES: dict[str, dict[str, int]] = {
    "phone": {"width": 390, "height": 844},
    "tablet-landscape": {"width": 1024, "height": 768},
    "tablet-portrait": {"width": 768, "height": 1024},
}
READABLE_PX = 10.0
"""The smallest board text a player can read (shell.js READABLE_PX)."""


def smallest_board_text(page: Page) -> float:
    """The smallest text of the map as drawn, in CSS pixels (its font size times the board's scale)."""
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


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size_name", list(SIZES))
def test_the_table_fits_a_phone_and_a_tablet(server: Server, browser: Browser, size_name: str) -> None:
    """At 390x844, 1024x768 and 768x1024, a warlord's screen in the first turn: nothing in the header is
    cut, the page is no wider than the screen, every button of the action bar and of the turn's actions is on
    the screen and big enough to tap, and the map's words read at 10 px or more once zoomed (at once on a
    phone)."""
    size = SIZES[size_name]
    made = remote_table(server)
    links = made["links"]["seats"]
    # The three warlords place themselves, each on its own screen, by taps.
    cat_data: dict[str, Any] = httpx.get(server.base + "/api/games/warquest/data", timeout=30).json()
    pages = [open_link(browser, server.base, link, size) for link in links]  # type: ignore[arg-type]
    try:
        for placed in range(3):
            acting = None
            for p in pages:
                # Each page's view after the last placement (the seat to place next may be any screen).
                p.wait_for_function(
                    "n => window.iwgtTable && window.iwgtTable.view"
                    " && window.iwgtTable.view.observation.regions.length >= n",
                    arg=placed,
                )
            for p in pages:
                if p.evaluate("() => window.iwgtTable.myTurn()"):
                    acting = p
            assert acting is not None
            player = Player(acting, cat_data)
            player.place(view(acting))
        for p in pages:
            p.wait_for_function("() => window.iwgtTable.view.observation.phase === 'turn'")
        page = next(p for p in pages if p.evaluate("() => window.iwgtTable.myTurn()"))
        page.reload()
        page.wait_for_function("() => window.iwgtTable && window.iwgtTable.view")
        expect(tid(page, "wq-acts")).to_be_visible()
        for name in ("table-title", "phase", "whose-turn"):
            fits = tid(page, name).evaluate("e => [e.scrollWidth, e.clientWidth]")
            assert fits[0] <= fits[1], f"{name} is cut at {size_name}: {fits}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        # Read at once (the panels are drawn anew as lights expire): the side panel scrolls, so only the width
        # and height of its buttons are checked; the action bar's are on the screen.
        found = page.evaluate(
            """() => [...document.querySelectorAll('.actionbar .btn, .wq-act')].filter(e => e.offsetParent)
                 .map(e => ({bar: !!e.closest('.actionbar'), ...e.getBoundingClientRect().toJSON()}))"""
        )
        assert found, "no buttons"
        for b in found:
            assert b["left"] >= -0.5 and b["right"] <= size["width"] + 0.5, b
            assert b["height"] >= 44, b
            if b["bar"]:
                assert b["top"] >= 0 and b["bottom"] <= size["height"] + 0.5, b
        zoom = tid(page, "board-zoom")
        if size_name == "phone":
            expect(page.locator(".board-host")).to_have_class("board-host zoomed")
        elif zoom.is_visible():
            zoom.click()
            expect(zoom).to_have_text("Whole board")
        # The kingdoms' names under the map take one row (it scrolls sideways on a narrow screen).
        rows = page.evaluate(
            "() => new Set([...document.querySelectorAll('.wq-kingdom')]"
            ".map(e => Math.round(e.getBoundingClientRect().top))).size"
        )
        assert rows == 1, f"the kingdoms take {rows} rows at {size_name}"
        text = smallest_board_text(page)
        assert text >= READABLE_PX - 0.05, f"the map's smallest text is {text:.1f}px at {size_name}"
        shot(page, f"warquest_09_layout_{size_name}")
        for p in pages:
            assert not p.errors, p.errors  # type: ignore[attr-defined]
    finally:
        for p in pages:
            p.close()


def test_a_shared_screen_covers_the_first_view_and_a_reload(server: Server, browser: Browser) -> None:
    """Issue 15 section 4, review B 5: at a shared touchscreen of three warlords, the page's first view and
    the view after a reload wait behind the pass-and-play cover; no quest or conquest card of the seat to act
    is in the DOM until its holder taps through."""
    made = remote_table(server, mode="shared")
    page = open_link(browser, server.base, made["links"]["table"], DESKTOP)  # type: ignore[arg-type]
    try:
        for shown in ("opened", "reloaded"):
            expect(tid(page, "pass-screen")).to_be_visible()
            assert page.evaluate("() => window.iwgtTable.view") is None, shown
            expect(page.locator('[data-testid^="wq-quest-"], [data-testid^="wq-conquest-"]')).to_have_count(0)
            if shown == "opened":
                shot(page, "warquest_08_first_cover")
            tid(page, "pass-continue").click()
            expect(tid(page, "pass-screen")).to_have_count(0)
            hand = page.evaluate("() => window.iwgtTable.view.observation.hand")
            assert hand["quests"], shown
            for q in hand["quests"]:
                expect(tid(page, f"wq-quest-{q['id']}")).to_contain_text(q["name"])
            if shown == "opened":
                page.reload()
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()
