"""The WarQuest screen drawn from hand-built views (issue 15 section 6), in a real page round the real shell:
the map of Myrathia from the catalogue (kingdoms, wild lands, cities with their tax, places, ownership tokens,
each warlord's stack with its leaders), the seat's purse and secret hand with its quest locations marked, the
power market, the action buttons with their costs and reasons, a move picked by tapping a leader then a lit
region with the battle odds shown first, the battle screen with its areas, dice and a question answered, and
the combat dice entered as a tally. The socket is a stub: every act the screen sends is kept in
``window.sent``.

The views follow the observation of /work/notes/wq-spec.md section 3; the tests against the real engine are in
test_warquest.py. Screenshots: build/screenshots/warquest_screen_*.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from .conftest import Server, shot
from .kit import WAIT_MS, open_link, tid

WEB = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "games" / "warquest" / "web"
PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}
DESKTOP: ViewportSize = {"width": 1600, "height": 1000}

expect.set_options(timeout=WAIT_MS)

SEATS = [("the Red Warlord", "#c0392b"), ("the Blue Warlord", "#2e6fd8"), ("the Green Warlord", "#27ae60")]


def catalogue() -> dict[str, Any]:
    """The game's catalogue as the server gives it (GET /api/games/warquest/data)."""
    from iwgt.games.warquest.catalogue import catalogue as build

    data: dict[str, Any] = json.loads(json.dumps(build()))
    return data


def power(cat: dict[str, Any], i: int) -> dict[str, Any]:
    c = cat["powers"][i]
    return {k: c[k] for k in ("id", "key", "name", "text", "cost", "event")}


def player(seat: int, gold: int, vp: int, **extra: Any) -> dict[str, Any]:
    name, colour = SEATS[seat]
    base = {
        "seat": seat,
        "name": name,
        "colour": colour,
        "gold": gold,
        "vp": vp,
        "sacred": 0,
        "quests_held": 2,
        "conquests_held": 2,
        "powers": [],
        "done_quests": [],
        "scored_conquests": [],
        "battles_won": 0,
        "lieutenants": 1,
        "tokens_left": 22,
        "extra_action": False,
    }
    return {**base, **extra}


def troops(seat: int, kind: str, first: int, n: int) -> list[dict[str, Any]]:
    return [{"id": first + i, "kind": kind, "seat": seat} for i in range(n)]


HAND = {
    "quests": [
        {
            "id": 0,
            "key": "crown_of_storms",
            "name": "The Crown of Storms",
            "monster": "the Harpy Queen",
            "location": "tower_of_winds",
            "region": "duskmoor",
            "vp": 8,
            "sacred": True,
        },
        {
            "id": 7,
            "key": "stones_song",
            "name": "The Song of the Stones",
            "monster": "a Barrow Wight",
            "location": "monument_of_vandar",
            "region": "goldmere",
            "vp": 5,
            "sacred": False,
        },
    ],
    "conquests": [
        {"id": 3, "name": "A Foothold in Vandar", "text": "Own 2 or more regions of Vandar.", "vp": 2}
    ],
}


def turn_view(cat: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """Round 2, the Red Warlord's turn (2 actions left): Red holds the Vandar Crown with both leaders and six
    goblins, Blue the Kingsfield (a battlefield) with dwarves, Green Ravenhold with orcs."""
    regions = [
        {
            "id": "vandar_crown",
            "owner": 0,
            "leaders": [{"id": 0, "seat": 0, "rank": "warlord"}, {"id": 1, "seat": 0, "rank": "lieutenant"}],
            "troops": troops(0, "goblin_foot", 10, 4) + troops(0, "goblin_archer", 14, 2),
        },
        {"id": "goldmere", "owner": 0, "leaders": [], "troops": []},
        {
            "id": "kingsfield",
            "owner": 1,
            "leaders": [{"id": 2, "seat": 1, "rank": "warlord"}],
            "troops": troops(1, "dwarf_foot", 20, 3) + troops(1, "dwarf_crossbow", 23, 1),
        },
        {
            "id": "ravenhold",
            "owner": 2,
            "leaders": [{"id": 4, "seat": 2, "rank": "warlord"}, {"id": 5, "seat": 2, "rank": "lieutenant"}],
            "troops": troops(2, "orc_foot", 30, 5),
        },
        {
            "id": "duskmoor",
            "owner": None,
            "leaders": [{"id": 3, "seat": 1, "rank": "lieutenant"}],
            "troops": [],
        },
    ]
    mine = seat == 0
    return {
        "game": "warquest",
        "map": "myrathia",
        "phase": "turn",
        "round": 2,
        "rounds": 6,
        "first": 0,
        "seat": 0,
        "actions_left": 2,
        "events_left": 23,
        "players": [
            player(0, 14, 3, powers=[power(cat, 20)], sacred=1),
            player(1, 9, 2, tokens_left=23),
            player(2, 21, 1),
        ],
        "regions": regions,
        "pool": {"goblin_foot": 11},
        "lieutenant_supply": [2, 2, 1],
        "market": [power(cat, i) for i in (0, 9, 30, 44)] + [None],
        "decks": {
            "quest": 20,
            "quest_bottom": [],
            "power": 40,
            "power_bottom": [],
            "conquest": 30,
            "events": 23,
        },
        "event": {
            "id": 0,
            "key": "bountiful_harvest",
            "name": "A Bountiful Harvest",
            "text": "Every warlord gains 5 gold.",
        },
        "marks": {"moved": [], "taxed": [], "bought_power": False, "quests": 0},
        "hand": HAND if mine else {"quests": [], "conquests": []},
        "battle": None,
        "question": None,
        "rolling": None,
        "last_roll": None,
        "unlocked": [],
        "wraith": None,
        "result": None,
    }


def view(
    obs: dict[str, Any],
    *,
    seat: int = 0,
    to_move: int | None = 0,
    version: int = 1,
    actions: list[dict[str, Any]] | None = None,
    movable: list[int] | None = None,
    die: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "type": "view",
        "version": version,
        "seat": seat,
        "status": "playing",
        "to_move": to_move,
        "observation": obs,
        "options": {"movable": movable or [], "actions": actions or []},
        "lights": [],
        "log": [{"text": ["The Red Warlord taxes the Vandar Crown: 5 gold."]}],
        "die": die,
        "result": None,
    }


TURN_ACTIONS = [{"type": "tax", "region": "vandar_crown"}, {"type": "lieutenant"}, {"type": "end_turn"}]

ROUND_ONE = {
    "attacker": {
        "front": {
            "dice": 4,
            "hits": {"0": 0.48, "1": 0.39, "2": 0.12, "3": 0.01},
            "flees": {"0": 0.48, "1": 0.39, "2": 0.13},
        },
    },
    "defender": {
        "front": {
            "dice": 3,
            "hits": {"0": 0.58, "1": 0.35, "2": 0.07},
            "flees": {"0": 0.58, "1": 0.35, "2": 0.07},
        },
        "rear": {
            "dice": 2,
            "hits": {"0": 0.69, "1": 0.28, "2": 0.03},
            "flees": {"0": 0.69, "1": 0.28, "2": 0.03},
        },
    },
}
"""Round 1 of the Kingsfield battle by rank (/work/notes/wq-table-api.md: the preview's ``odds.round``)."""


def move_to(region: str, path: list[str], battle: bool, foe: int | None = None) -> dict[str, Any]:
    """A destination of the selection (/work/notes/wq-table-api.md): no odds, ``battle`` a plain boolean."""
    taken = [10, 11, 12, 13, 14, 15]
    action = {"type": "move", "leader": 0, "troops": taken, "path": path}
    alone = {**action, "troops": []}
    return {
        "region": region,
        "path": path,
        "troops": taken,
        "action": action,
        "alone": alone,
        "battle": battle,
        "foe": foe,
    }


SELECTION = {
    "type": "selection",
    "unit": 0,
    "leader": 0,
    "region": "vandar_crown",
    "destinations": [
        move_to("kingsfield", ["kingsfield"], True, 1),
        move_to("goldmere", ["goldmere"], False),
        move_to("ashford", ["ashford"], False),
        move_to("sylmar_downs", ["ashford", "sylmar_downs"], False),
    ],
    "lights": [
        {"region": r, "effect": "destination", "colour": "#22c55e"}
        for r in ("goldmere", "ashford", "sylmar_downs")
    ]
    + [{"region": "kingsfield", "effect": "battle", "colour": "#ef4444"}],
}


def battle_obs(cat: dict[str, Any]) -> dict[str, Any]:
    """Round 1 of a battle in the Kingsfield: Red's rear rank has fired; Red assigns 2 hits and 1 flee to
    Blue's front rank."""
    obs = turn_view(cat)
    obs["phase"] = "battle"
    f = lambda i, k, hits=0: {"id": i, "kind": k, "hits": hits}  # noqa: E731
    obs["battle"] = {
        "region": "kingsfield",
        "round": 1,
        "step": 1,
        "attacker": {
            "seat": 0,
            "front": [f(10, "goblin_foot"), f(11, "goblin_foot"), f(12, "goblin_foot"), f(13, "goblin_foot")],
            "rear": [f(14, "goblin_archer"), f(15, "goblin_archer")],
            "reserve": [],
            "retreat": [],
            "leaders": [0],
        },
        "defender": {
            "seat": 1,
            "front": [f(20, "dwarf_foot", 1), f(21, "dwarf_foot"), f(22, "dwarf_foot")],
            "rear": [f(23, "dwarf_crossbow")],
            "reserve": [],
            "retreat": [],
            "leaders": [2],
        },
        "attacking": {"side": "attacker", "rank": "rear"},
    }
    obs["question"] = {
        "kind": "assign",
        "seat": 0,
        "target": "front",
        "hits": 2,
        "flees": 1,
        "missile": True,
        "pursuit": False,
    }
    obs["last_roll"] = {
        "purpose": "the Red Warlord's rear rank",
        "faces": ["hit", "blank", "flee", "hit"],
        "hits": 2,
        "flees": 1,
    }
    return obs


ASSIGN_DEFAULT = {"type": "assign", "hits": {"20": 2}, "flees": []}

SETUP = """async ([cat]) => {
  document.body.innerHTML = '<div id="app"></div><div id="toasts" class="toasts"></div>';
  const { Shell } = await import('/static/shell.js');
  const module = await import('/static/games/warquest/screen.js');
  window.sent = [];
  const socket = {
    act: (seat, action) => { window.sent.push({ seat, action }); return true; },
    select: (seat, id) => window.sent.push({ seat, select: id }),
    preview: (seat, action) => window.sent.push({ seat, preview: action }),
    die: (face) => window.sent.push({ die: face }), sendRaw: () => {},
    close: () => {}, quit: () => {},
  };
  const shell = new Shell(document.getElementById('app'), 'fixture', 'token', socket, module);
  window.iwgtTable = shell;
  shell.onMessage({ type: 'welcome', seats: [0],
    names: ['the Red Warlord', 'the Blue Warlord', 'the Green Warlord'],
    table: { game: 'warquest', scenario: 'short', title: 'WarQuest' } });
}"""


def serve_web(route: Route) -> None:
    """The screen's files from the source tree (the fixture page needs no registered plug-in)."""
    name = route.request.url.split("/static/games/warquest/", 1)[1].split("?")[0]
    path = WEB / name
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    route.fulfill(status=200, body=path.read_text(encoding="utf-8"), headers={"Content-Type": kind})


@pytest.fixture(scope="module")
def cat() -> dict[str, Any]:
    return catalogue()


def fixture_page(server: Server, browser: Browser, cat: dict[str, Any], size: ViewportSize = DESKTOP) -> Page:
    page = open_link(browser, server.base, "/", size)
    page.route("**/static/games/warquest/**", serve_web)
    page.route(
        "**/api/games/warquest/data",
        lambda r: r.fulfill(status=200, body=json.dumps(cat), headers={"Content-Type": "application/json"}),
    )
    page.wait_for_selector('[data-testid="game-cards"]')
    page.evaluate(SETUP, [cat])
    return page


def show(page: Page, v: dict[str, Any]) -> None:
    page.evaluate("v => window.iwgtTable.onMessage(v)", v)


@pytest.fixture()
def page(server: Server, browser: Browser, cat: dict[str, Any]) -> Iterator[Page]:
    p = fixture_page(server, browser, cat)
    yield p
    assert not p.errors, p.errors  # type: ignore[attr-defined]
    p.close()


def sent(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.sent")
    return found


def test_the_map_shows_kingdoms_places_tokens_and_stacks(page: Page, cat: dict[str, Any]) -> None:
    """Issue 15 section 6: kingdom colours, cities with their tax (a capital crowned), special locations and
    ancient battlefields, ownership tokens in the owner's colour, a stack per warlord with its leaders."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    expect(tid(page, "wq-region-vandar_crown")).to_be_visible()
    expect(tid(page, "wq-region-vandar_crown")).to_have_attribute("data-kind", "kingdom")
    expect(tid(page, "wq-region-trollmoor")).to_have_attribute("data-kind", "wild")
    # The Vandar Crown's capital, Vandarholm: tax 5 in its coin, drawn as a crown.
    capital = tid(page, "wq-place-vandar_crown-city")
    expect(capital).to_have_class("rb-place place-city capital")
    expect(capital.locator(".rb-coin-text")).to_have_text("5")
    expect(tid(page, "wq-place-kingsfield-battlefield").locator(".rb-swords")).to_have_count(1)
    dusk = next(r for r in cat["maps"]["myrathia"]["regions"] if r["id"] == "duskmoor")
    for loc in dusk["locations"]:
        expect(tid(page, f"wq-place-duskmoor-{loc['key']}")).to_have_attribute("data-kind", loc["kind"])
    expect(tid(page, "wq-token-vandar_crown")).to_have_attribute("data-colour", "#c0392b")
    expect(tid(page, "wq-token-kingsfield")).to_have_attribute("data-colour", "#2e6fd8")
    stack = tid(page, "wq-stack-vandar_crown-0")
    expect(stack).to_have_attribute("data-count", "6")
    expect(stack).to_have_attribute("data-leaders", "0 1")
    expect(tid(page, "wq-piece-0")).to_have_class("rb-leader crowned pickable")
    expect(tid(page, "wq-piece-4")).not_to_have_class("pickable")
    # The seat's own quests are marked on the map: the Crown of Storms (8 VP) at Duskmoor.
    expect(tid(page, "wq-quest-mark-0")).to_have_attribute("data-region", "duskmoor")
    shot(page, "warquest_screen_01_turn")


def test_actions_show_costs_and_reasons(page: Page, cat: dict[str, Any]) -> None:
    """Tax and Lieutenant offered with their gain and cost; Conquer, Recruit, Power and Quest greyed, each
    with the reason read from the observation; Tax sends at once (one city)."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    expect(tid(page, "wq-act-tax")).to_be_enabled()
    expect(tid(page, "wq-act-tax")).to_contain_text("+5 gold")
    expect(tid(page, "wq-act-lieutenant")).to_contain_text("8 gold")
    expect(tid(page, "wq-act-conquer")).to_be_disabled()
    expect(tid(page, "wq-why-conquer")).to_have_text("your leaders stand in regions you own")
    expect(tid(page, "wq-why-power")).to_have_text("no leader at an ancient battlefield")
    expect(tid(page, "wq-why-quest")).to_have_text("no leader at your quests' locations")
    expect(tid(page, "wq-gold")).to_contain_text("14")
    expect(tid(page, "wq-quest-0")).to_contain_text("in Duskmoor")
    tid(page, "wq-act-tax").click()
    assert sent(page)[-1] == {"seat": 0, "action": {"type": "tax", "region": "vandar_crown"}}


def test_after_a_quest_the_quest_button_says_one_a_turn(page: Page, cat: dict[str, Any]) -> None:
    """WQ-QU-01 designed: with a quest attempted this turn (``marks.quests`` 1) and none offered, the Quest
    button is greyed with "one quest a turn", not the leaders' reason."""
    obs = turn_view(cat)
    obs["marks"] = {**obs["marks"], "quests": 1}
    show(page, view(obs, actions=TURN_ACTIONS, movable=[0, 1]))
    expect(tid(page, "wq-act-quest")).to_be_disabled()
    expect(tid(page, "wq-why-quest")).to_have_text("one quest a turn")


def preview_answer(action: dict[str, Any], wins: float, error: float) -> dict[str, Any]:
    """The table's answer to a preview of a move into battle (/work/notes/wq-table-api.md)."""
    odds = {
        "attacker_wins": wins,
        "defender_wins": 1 - wins - error,
        "error": error,
        "exact": error == 0,
        "rounds_mean": 2.4,
        "round": ROUND_ONE,
    }
    return {"type": "preview", "action": action, "legal": True, "reason": None, "lines": [], "odds": odds}


def test_a_move_into_battle_shows_the_odds_first(page: Page, cat: dict[str, Any]) -> None:
    """Tap the Warlord, tap the lit Kingsfield (a battle): the screen asks the table's preview of that move
    and shows its odds (42.1% ± 0.2%, round 1 by rank, hits and flees as averages); leaving the archers behind
    asks again for the troops taken and shows the new odds; Attack sends the move with those troops."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    tid(page, "wq-piece-0").click()
    assert sent(page)[-1] == {"seat": 0, "select": 0}
    page.evaluate("m => window.iwgtTable.onMessage(m)", SELECTION)
    expect(tid(page, "wq-region-kingsfield")).to_have_attribute("data-target", "")
    expect(tid(page, "wq-region-goldmere")).to_have_attribute("data-light", "destination")
    # The table's green destination light is drawn in a neutral gold (green is the Green Warlord's colour).
    lit = page.locator('.light[data-region="goldmere"]').evaluate("e => e.style.getPropertyValue('--lc')")
    assert lit.strip() == "#ffe9a8", lit
    # A tap on the Kingsfield (on Blue's stack there, which stands for its region).
    at = next(r for r in cat["maps"]["myrathia"]["regions"] if r["id"] == "kingsfield")["centre"]
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", at)
    page.mouse.click(xy[0], xy[1] + 10)
    expect(tid(page, "wq-odds")).to_be_visible()
    whole = {"type": "move", "leader": 0, "troops": [10, 11, 12, 13, 14, 15], "path": ["kingsfield"]}
    assert sent(page)[-1] == {"seat": 0, "preview": whole}
    expect(tid(page, "wq-odds-wait")).to_be_visible()
    page.evaluate("m => window.iwgtTable.onMessage(m)", preview_answer(whole, 0.4213, 0.0021))
    expect(tid(page, "wq-win")).to_contain_text("42.1%")
    expect(tid(page, "wq-odds-error")).to_contain_text("± 0.2%")
    expect(tid(page, "wq-odds-attacker-front")).to_contain_text("4")
    # 0.39 + 2 x 0.12 + 3 x 0.01 = 0.66 hits on average for 4 dice.
    expect(tid(page, "wq-odds-attacker-front").get_by_test_id("wq-mean-hits")).to_have_text("0.7 hits")
    # The archers stay behind: the odds are asked again for the four goblins taken.
    tid(page, "wq-take-goblin_archer").click()
    expect(tid(page, "wq-take-goblin_archer")).to_have_attribute("aria-pressed", "false")
    part = {**whole, "troops": [10, 11, 12, 13]}
    assert sent(page)[-1] == {"seat": 0, "preview": part}
    expect(tid(page, "wq-odds-wait")).to_be_visible()
    page.evaluate(
        "m => window.iwgtTable.onMessage(m)", preview_answer(whole, 0.4213, 0.0021)
    )  # a late answer
    expect(tid(page, "wq-odds-wait")).to_be_visible()
    page.evaluate("m => window.iwgtTable.onMessage(m)", preview_answer(part, 0.3102, 0.0))
    expect(tid(page, "wq-win")).to_contain_text("31.0% (exact)")
    expect(tid(page, "wq-odds-troops")).to_have_text(" · you take 4 troops")
    shot(page, "warquest_screen_02_odds")
    tid(page, "wq-attack").click()
    assert sent(page)[-1] == {"seat": 0, "action": part}


def test_a_quiet_move_goes_at_once(page: Page, cat: dict[str, Any]) -> None:
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    tid(page, "wq-act-move").click()
    page.evaluate("m => window.iwgtTable.onMessage(m)", SELECTION)
    tid(page, "wq-dest-list").locator("summary").click()
    tid(page, "wq-dest-sylmar_downs").click()
    assert sent(page)[-1]["action"] == {
        "type": "move",
        "leader": 0,
        "troops": [10, 11, 12, 13, 14, 15],
        "path": ["ashford", "sylmar_downs"],
    }


def test_the_hand_is_drawn_only_for_its_holder(page: Page, cat: dict[str, Any]) -> None:
    """Issue 15 section 4: the Blue seat's view (an empty hand in its observation) shown on a screen that
    plays only the Red seat draws no hand and no quest marks; the Red view's quest names are gone from the
    DOM."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    expect(tid(page, "wq-quest-0")).to_be_visible()
    other = turn_view(cat, seat=1)
    other["hand"] = HAND  # even if a view for another seat carried a hand, this screen plays seat 0 only
    show(page, view(other, seat=1, to_move=0, version=2))
    expect(tid(page, "wq-hand")).to_be_hidden()
    html = page.content()
    assert "The Crown of Storms" not in html and "wq-quest-mark" not in html


def test_the_battle_screen_answers_a_question(page: Page, cat: dict[str, Any]) -> None:
    """The battle: both sides' areas with troops (a hit marker on the first dwarf), the attacking rank, the
    dice rolled (2 hits, 1 flee), and the assignment with the table's default one tap away."""
    show(page, view(battle_obs(cat), actions=[ASSIGN_DEFAULT]))
    expect(tid(page, "wq-battle")).to_be_visible()
    expect(tid(page, "wq-area-attacker-rear")).to_have_class("wq-area rear attacking")
    expect(tid(page, "wq-area-defender-front")).to_have_class("wq-area front targeted")
    expect(tid(page, "wq-hits-20").locator(".wq-hitmark")).to_have_count(1)
    expect(tid(page, "wq-dice-sum")).to_have_text("2 hits, 1 flee")
    expect(tid(page, "wq-die-2")).to_have_attribute("data-face", "flee")
    shot(page, "warquest_screen_03_battle")
    tid(page, "wq-assign-custom").click()
    tid(page, "wq-assign-more-21").click()
    tid(page, "wq-assign-flee-22").click()
    expect(tid(page, "wq-troop-21")).to_contain_text("+1")
    shot(page, "warquest_screen_04_assign")
    tid(page, "wq-assign-send").click()
    assert sent(page)[-1]["action"] == {"type": "assign", "hits": {"20": 2, "21": 1}, "flees": [22]}


def test_combat_dice_are_entered_as_a_tally(page: Page, cat: dict[str, Any]) -> None:
    """Physical dice: five combat dice to roll (WQ-CB-01: hit, flee, four blanks): 2 hits and 1 flee entered
    in one dialog; the first face goes at once, the next as the table asks for the next die."""
    obs = battle_obs(cat)
    obs["question"] = None
    obs["rolling"] = {"purpose": "the Red Warlord's front rank", "dice": 5, "faces": []}
    die = {
        "sides": 6,
        "faces": ["hit", "flee", "blank", "blank", "blank", "blank"],
        "purpose": "combat die",
        "colour": "",
    }
    show(page, view(obs, to_move=None, die=die))
    expect(tid(page, "wq-tally-dialog")).to_be_visible()
    tid(page, "wq-tally-hits").fill("4")
    tid(page, "wq-tally-flees").fill("2")
    expect(tid(page, "wq-tally-send")).to_be_disabled()
    tid(page, "wq-tally-hits").fill("2")
    tid(page, "wq-tally-flees").fill("1")
    expect(tid(page, "wq-tally-blanks")).to_have_text("2")
    shot(page, "warquest_screen_05_tally")
    tid(page, "wq-tally-send").click()
    faces = [1]
    for n in range(1, 5):
        obs["rolling"]["faces"] = ["hit", "hit", "flee", "blank"][:n]
        show(page, view(obs, to_move=None, die=die, version=1 + n))
        faces.append([1, 1, 2, 3, 3][n])
    assert [m["die"] for m in sent(page) if "die" in m] == faces
    expect(tid(page, "wq-tally-dialog")).to_have_count(0)
    expect(tid(page, "die-dialog")).to_have_count(0)


@pytest.mark.parametrize("size_name", ["phone", "tablet"])
def test_nothing_is_cut_off(server: Server, browser: Browser, cat: dict[str, Any], size_name: str) -> None:
    """At 390x844 and 1024x768 every button of the turn and of the battle is on the screen and big enough to
    tap, and no panel is wider than the screen."""
    size = PHONE if size_name == "phone" else TABLET
    page = fixture_page(server, browser, cat, size)
    try:
        for name, v in (
            ("turn", view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1])),
            ("battle", view(battle_obs(cat), actions=[ASSIGN_DEFAULT], version=2)),
        ):
            show(page, v)
            page.wait_for_timeout(300)
            shot(page, f"warquest_screen_06_{size_name}_{name}")
            if name == "turn":
                # Review B 9: the first-game tour comes after the prompt and the actions, never above them.
                found = page.evaluate(
                    """() => {
                      const top = (q) => { const e = document.querySelector(q);
                        return e && e.offsetParent ? e.getBoundingClientRect().top : null; };
                      return {acts: top('[data-testid="wq-acts"]'), guide: top('[data-testid="help-guide"]'),
                              side: document.querySelector('.side').getBoundingClientRect().height}; }"""
                )
                assert found["guide"] is not None, found
                assert found["acts"] < found["guide"], found
                if size_name == "phone":
                    assert found["side"] >= 0.38 * size["height"], found
            wide: float = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= size["width"] + 1, f"{name}: the page is {wide} px wide"
            for sel in ('[data-testid="wq-end-turn"]', '[data-testid="options-button"]', ".wq-battle .btn"):
                for b in page.locator(sel).all():
                    if not b.is_visible():
                        continue
                    box = b.bounding_box()
                    assert box is not None
                    assert box["x"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5, (
                        name,
                        sel,
                        box,
                    )
                    assert box["height"] >= 40, (name, sel, box)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


def test_tap_for_help_names_a_place_and_a_troop(page: Page, cat: dict[str, Any]) -> None:
    """Tap for help (docs/screen-shell.md): a tower on the map opens the help topic of towers, a troop kind in
    the move dock that of its troop kind (the game's help.toml keys)."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    dusk = next(r for r in cat["maps"]["myrathia"]["regions"] if r["id"] == "duskmoor")
    loc = dusk["locations"][0]
    tid(page, "help-tap").click()
    tid(page, f"wq-place-duskmoor-{loc['key']}").click()
    expect(tid(page, "help-topic")).to_have_attribute("data-topic", f"location:{loc['kind']}")
    tid(page, "help-close").click()
    tid(page, "wq-piece-0").click()
    page.evaluate("m => window.iwgtTable.onMessage(m)", SELECTION)
    tid(page, "help-tap").click()
    tid(page, "wq-take-goblin_foot").click()
    expect(tid(page, "help-topic")).to_have_attribute("data-topic", "troop:goblin_foot")


def test_every_ownership_flag_stands_inside_its_own_region(page: Page, cat: dict[str, Any]) -> None:
    """Review B 2: with every region of Myrathia owned, each region's flag (its pole, its cloth and its
    foot) lies inside that region's own outline, never in a neighbour's."""
    obs = turn_view(cat)
    ids = [r["id"] for r in cat["maps"]["myrathia"]["regions"]]
    held = {r["id"]: r for r in obs["regions"]}
    obs["regions"] = [
        {**held.get(k, {"id": k, "leaders": [], "troops": []}), "owner": i % 3} for i, k in enumerate(ids)
    ]
    show(page, view(obs, actions=TURN_ACTIONS, movable=[0, 1]))
    expect(page.locator(".rb-token")).to_have_count(len(ids))
    outside = page.evaluate(
        """ids => ids.filter(id => {
             const flag = document.querySelector(`[data-testid="wq-token-${id}"]`);
             const region = document.querySelector(`[data-testid="wq-region-${id}"]`);
             const svg = region.ownerSVGElement;
             const m = flag.transform.baseVal.consolidate().matrix;
             // The cloth's tip, the pole's top and foot, in the map's units.
             return [[-15, -2], [0, -6], [0, 14], [-4, 0]].some(([x, y]) => {
               const p = svg.createSVGPoint(); p.x = m.e + x; p.y = m.f + y;
               return !region.isPointInFill(p);
             });
           })""",
        ids,
    )
    assert outside == [], outside
    page.evaluate(
        "() => document.querySelector('[data-testid=\"wq-region-highmoor\"]')"
        ".scrollIntoView({block: 'center', inline: 'center'})"
    )
    shot(page, "warquest_screen_20_every_flag")


def logged(version: int, text: list[str], *events: dict[str, Any]) -> dict[str, Any]:
    """A log step as the server sends it (docs/protocol.md): its version, its events, its sentences."""
    return {
        "version": version,
        "actor": 0,
        "action": {},
        "origin": "player",
        "events": list(events),
        "text": text,
    }


def test_what_just_happened_is_shown_where_the_player_looks(page: Page, cat: dict[str, Any]) -> None:
    """Review B 1 (WQ-QU-03/04, WQ-CB-09..12, WQ-MS-38..42): a quest's two dice and its outcome in a banner
    over the map; the log's last sentences near the top of the side panel; in a battle the dice strip says
    whose rank rolled and lists the round's attacks; a battle's end gives a summary (winner, VP, losses each
    side with the pursuit, where the beaten army went)."""
    first = view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1])
    first["log"] = [logged(1, ["The Red Warlord taxes the Vandar Crown: 5 gold."])]
    show(page, first)
    expect(tid(page, "wq-news")).to_be_hidden()  # the page's first view tells nothing old again
    # Red's quest: 6 and 3 = 9 against 8 (the Crown of Storms, card 0 in the hand): slain, +8 VP.
    quest = view(turn_view(cat), version=2, actions=TURN_ACTIONS, movable=[0, 1])
    said = [
        "The Red Warlord goes on the quest The Crown of Storms.",
        "The Red Warlord rolls 6 and 3 = 9 against 8.",
    ]
    quest["log"] = first["log"] + [
        logged(
            2,
            said,
            {
                "event": "QuestRolled",
                "seat": 0,
                "card": 0,
                "dice": [6, 3],
                "bonus": 0,
                "target": 8,
                "success": True,
            },
        )
    ]
    show(page, quest)
    expect(tid(page, "wq-news")).to_be_visible()
    expect(tid(page, "wq-news-text")).to_have_text("6 + 3 = 9 against 8: The Harpy Queen is slain! +8 VP")
    expect(tid(page, "wq-news-die-0")).to_have_text("6")
    expect(tid(page, "wq-news-die-1")).to_have_text("3")
    # The last sentences, the newest last, above the actions.
    expect(tid(page, "wq-recent-2")).to_have_text(said[1])
    top = page.evaluate(
        "() => [document.querySelector('[data-testid=\"wq-recent\"]').getBoundingClientRect().top,"
        " document.querySelector('[data-testid=\"wq-acts\"]').getBoundingClientRect().top]"
    )
    assert top[0] < top[1], top
    shot(page, "warquest_screen_21_quest_roll")
    tid(page, "wq-news-close").click()
    expect(tid(page, "wq-news")).to_be_hidden()
    # A battle: Blue's front rank has rolled at Red's front (2 hits, 1 flee), then Red's rear fired.
    began = {
        "event": "BattleBegan",
        "region": "kingsfield",
        "attacker": 0,
        "defender": 1,
        "attacking": [0, 10],
        "defending": [2, 20],
    }
    blue = {
        "event": "AttackRolled",
        "seat": 1,
        "side": "defender",
        "rank": "front",
        "target": "front",
        "dice": 3,
        "faces": [1, 2, 1],
        "hits": 2,
        "flees": 1,
    }
    red = {
        "event": "AttackRolled",
        "seat": 0,
        "side": "attacker",
        "rank": "rear",
        "target": "front",
        "dice": 4,
        "faces": [1, 3, 2, 1],
        "hits": 2,
        "flees": 1,
    }
    lost = {"event": "HitsTaken", "seat": 0, "hits": [[10, 1], [11, 1]], "eliminated": [10, 11], "fled": [12]}
    fight = view(battle_obs(cat), version=5, actions=[ASSIGN_DEFAULT])
    fight["log"] = quest["log"] + [
        logged(3, ["Battle."], began),
        logged(4, ["Blue rolls."], blue, lost),
        logged(5, ["Red rolls."], red),
    ]
    show(page, fight)
    expect(tid(page, "wq-dice-whose")).to_have_text("The Red Warlord's rear rank")
    expect(tid(page, "wq-round-roll-0")).to_contain_text("The Blue Warlord's front rank")
    expect(tid(page, "wq-round-roll-0")).to_contain_text("2 hits, 1 flee")
    expect(tid(page, "wq-round-roll-1")).to_contain_text("The Red Warlord's rear rank")
    # What each roll did: Blue's 2 hits and 1 flee eliminated 2 goblins, 1 fled; Red's is not applied yet.
    expect(tid(page, "wq-round-took-0")).to_have_text("→ 2 eliminated, 1 fled")
    expect(tid(page, "wq-round-took-1")).to_have_text("")
    shot(page, "warquest_screen_22_battle_rolls")
    # Blue is beaten after 2 rounds: +1 VP to Red; 3 of Blue's troops are cut down in the pursuit, the rest
    # fall back to Ashford.
    blue_lost = {"event": "HitsTaken", "seat": 1, "hits": [], "eliminated": [20], "fled": []}
    won = {
        "event": "BattleWon",
        "region": "kingsfield",
        "winner": 0,
        "loser": 1,
        "withdrew": False,
        "rounds": 2,
        "vp": 1,
    }
    pursued = {"event": "Pursued", "seat": 0, "dice": 4, "faces": [1, 1, 1, 3], "eliminated": [21, 22, 23]}
    fell = {"event": "ArmyFellBack", "seat": 1, "region": "ashford", "leaders": [2], "troops": []}
    over = view(turn_view(cat), version=7, actions=TURN_ACTIONS, movable=[0, 1])
    over["log"] = fight["log"] + [
        logged(6, ["Red wins."], blue_lost, won, pursued),
        logged(7, ["Back."], fell),
    ]
    show(page, over)
    expect(tid(page, "wq-battle-summary")).to_contain_text("Battle of Kingsfield: the Red Warlord wins")
    expect(tid(page, "wq-news-text")).to_have_text(
        "After 2 rounds (the Blue Warlord is beaten): +1 VP for the Red Warlord."
    )
    expect(tid(page, "wq-summary-loss-0")).to_have_text(" The Red Warlord: 2 troops lost, 1 fled")
    expect(tid(page, "wq-summary-loss-1")).to_have_text(
        " The Blue Warlord: 4 troops lost (3 cut down in the pursuit)"
    )
    expect(tid(page, "wq-summary-where")).to_have_text("The Blue Warlord's survivors fell back to Ashford.")
    shot(page, "warquest_screen_23_battle_summary")


def test_the_tables_choice_is_the_first_button(page: Page, cat: dict[str, Any]) -> None:
    """Review B 10: the battle's questions put the table's default (the first answer it offers) first, named
    "Table's choice", one tap; the other answers follow."""
    obs = battle_obs(cat)
    obs["question"] = {"kind": "target", "seat": 0, "ranks": ["rear", "front"]}
    show(page, view(obs, actions=[{"type": "target", "rank": "rear"}, {"type": "target", "rank": "front"}]))
    expect(tid(page, "wq-target-rear")).to_have_text("Table's choice: strike the Rear rank")
    expect(tid(page, "wq-target-rear")).to_have_attribute("data-default", "true")
    expect(tid(page, "wq-target-front")).to_have_text("Strike the Front rank")
    expect(tid(page, "wq-target-front")).to_have_class("btn secondary")
    obs["question"] = {"kind": "press_on", "seat": 0, "round": 1}
    actions = [{"type": "press_on", "withdraw": False}, {"type": "press_on", "withdraw": True}]
    show(page, view(obs, actions=actions, version=2))
    expect(tid(page, "wq-press-on")).to_have_text("Table's choice: press on")
    tid(page, "wq-press-on").click()
    assert sent(page)[-1]["action"] == {"type": "press_on", "withdraw": False}


def test_kingdoms_are_named_and_a_card_shows_its_kingdom(page: Page, cat: dict[str, Any]) -> None:
    """Review B 3: the eight kingdoms of Myrathia are named under the map in their colours; tapping a conquest
    card that names Vandar outlines Vandar's four regions (and no other); an event naming Thalassa outlines
    Thalassa; a kingdom's name in the legend does the same, and a second tap puts it out."""
    obs = turn_view(cat)
    obs["event"] = next(e for e in cat["events"] if e["key"] == "the_kraken_rises")
    show(page, view(obs, actions=TURN_ACTIONS, movable=[0, 1]))
    kingdoms = cat["maps"]["myrathia"]["kingdoms"]
    expect(page.locator(".wq-kingdom")).to_have_count(len(kingdoms))
    for k in kingdoms:
        expect(tid(page, f"wq-kingdom-{k['key']}")).to_have_text(k["name"])

    def lit() -> set[str]:
        found: list[str] = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid^="wq-region-"]')]
                 .filter(e => (e.dataset.light || '').split(' ').includes('kingdom'))
                 .map(e => e.dataset.region)"""
        )
        return set(found)

    def of(key: str) -> set[str]:
        return {r["id"] for r in cat["maps"]["myrathia"]["regions"] if r["kingdom"] == key}

    assert lit() == set()
    tid(page, "wq-conquest-3").click()  # "A Foothold in Vandar"
    page.wait_for_function("() => document.querySelector('[data-light~=\"kingdom\"]')")
    assert lit() == of("vandar") == {"ashford", "goldmere", "kingsfield", "vandar_crown"}
    expect(tid(page, "wq-kingdom-vandar")).to_have_attribute("aria-pressed", "true")
    shot(page, "warquest_screen_24_kingdom")
    tid(page, "wq-event-card").click()  # "The kraken rises off Thalassa"
    expect(tid(page, "wq-kingdom-thalassa")).to_have_attribute("aria-pressed", "true")
    assert lit() == of("thalassa")
    tid(page, "wq-kingdom-thalassa").click()
    expect(tid(page, "wq-kingdom-thalassa")).to_have_attribute("aria-pressed", "false")
    assert lit() == set()
    tid(page, "wq-kingdom-sylmar").click()
    expect(tid(page, "wq-kingdom-sylmar")).to_have_attribute("aria-pressed", "true")
    assert lit() == of("sylmar")
    # At 1920x1080 the kingdoms' names stay on one row under the map, the map whole beside the side panel.
    page.set_viewport_size({"width": 1920, "height": 1080})
    rows = page.evaluate(
        "() => new Set([...document.querySelectorAll('.wq-kingdom')]"
        ".map(e => Math.round(e.getBoundingClientRect().top))).size"
    )
    assert rows == 1, rows
    shot(page, "warquest_screen_25_full_hd")


def test_the_event_says_when_it_was_turned(page: Page, cat: dict[str, Any]) -> None:
    """Review B 10: the event card shown in round 2 was turned when round 1 ended, and says so."""
    show(page, view(turn_view(cat), actions=TURN_ACTIONS, movable=[0, 1]))
    expect(tid(page, "wq-event-title")).to_have_text("Last event (end of round 1)")
