"""The Coloured-Dice screen on a fixed observation (issue 14, section 5), without the engine behind it.

The screen module (``src/iwgt/games/coloured_dice/web/screen.js``) runs inside the real shell (``shell.js``)
with a stand-in socket that records what the screen sends, fed a hand-made observation in the team spec's
shape (section 3 of the spec): two units of several models each, terrain of several kinds, an objective. So
the drawing and the taps are checked whatever the engine's state of play:

- units are trays whose models are drawn as their bases (``cells`` and ``base``), the order's outline, shaken
  and engaged marks; the terrain by kind (a hill with its height); the objective; general morale, VP and round
  in the header;
- tapping a unit gives its orders as buttons (``cd-order-<type>``); a tapped destination makes a ghost tray
  and Move sends the path and facing;
- Shoot draws the range bands (``cd-range-bands``) at multiples of the weapon's range and tapping the target
  shows the pool preview (``cd-preview``: dice by colour, armour and its parts, casualty histogram, morale)
  exactly as the observation's ``previews`` say, before Confirm sends the shot;
- the questions (hero points: a stepper from -k to +k; bear wound; reaction; resist) open as dialogs whose
  buttons send the offered answers; the last roll shows each coloured die with its face (CD-DI).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .conftest import Server, shot
from .kit import WAIT_MS, tid

WEB = Path(__file__).resolve().parents[2] / "src" / "iwgt" / "games" / "coloured_dice" / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}

expect.set_options(timeout=WAIT_MS)


def cells(
    centre: tuple[float, float], files: int, models: int, cell: tuple[float, float]
) -> list[list[float]]:
    """Model centres of a block facing +y (facing 0): model 0 front left, files across, ranks behind."""
    ranks = math.ceil(models / files)
    w, d = cell
    out = []
    for i in range(models):
        rank, file = divmod(i, files)
        x = centre[0] + (file - (files - 1) / 2) * w
        y = centre[1] + ((ranks - 1) / 2 - rank) * d
        out.append([round(x, 2), round(y, 2)])
    return out


def unit(
    uid: int, seat: int, name: str, centre: tuple[float, float], files: int, models: int, **kw: Any
) -> dict[str, Any]:
    """A unit of the observation (spec section 3) facing up the table (seat 0) or down it (seat 1)."""
    base = kw.pop("base", [1, 1])
    gap = kw.pop("gap", 0.0)
    cell = (base[0] + gap, base[1] + gap)
    ranks = math.ceil(models / files)
    facing = 0 if seat == 0 else 180
    pts = cells(centre, files, models, cell)
    if seat == 1:  # turned half round about the centre
        pts = [[round(2 * centre[0] - x, 2), round(2 * centre[1] - y, 2)] for x, y in pts]
    u = {
        "id": uid,
        "seat": seat,
        "key": kw.pop("key", name.lower()),
        "name": name,
        "kind": kw.pop("kind", "infantry"),
        "models": models,
        "start_models": kw.pop("start_models", models),
        "wounds": 0,
        "body": 1,
        "files": files,
        "order": kw.pop("order", "loose"),
        "tray": {
            "centre": list(centre),
            "facing": facing,
            "frontage": files * cell[0],
            "depth": ranks * cell[1],
        },
        "cells": pts,
        "base": base,
        "actions_left": 2,
        "attacked": False,
        "shaken": False,
        "engaged": [],
        "armour": 1,
        "slowness": 3,
        "us": 7,
        "us_kind": "Us",
        "morale_target": 7,
        "leader": True,
        "hero_left": 0,
        "bear_left": 0,
        "bear_colour": None,
        "will": None,
        "god_like": 0,
        "weapons": [{"name": "Spear", "melee": ["yellow"], "reach": 2, "missile": None}],
        "move": 4,
        "buffs": [],
        "spirits": [],
        "runes": [],
        "spells": [],
    }
    u.update(kw)
    return u


ARCHERS = unit(
    1,
    0,
    "Archers",
    (12.0, 6.0),
    5,
    10,
    order="open",
    gap=1.0,
    key="archers",
    weapons=[{"name": "Bow", "melee": ["white"], "reach": 1, "missile": {"range": 8, "dice": ["red"]}}],
)
SPEARS = unit(2, 0, "Spearmen", (30.0, 6.0), 6, 12)
RAIDERS = unit(
    3,
    1,
    "Wolf riders",
    (14.0, 25.0),
    4,
    4,
    kind="cavalry",
    base=[1, 2],
    key="wolf_riders",
    shaken=True,
    move=8,
)
TROLL = unit(4, 1, "Troll", (34.0, 14.0), 1, 1, kind="monster", base=[2, 2], key="troll", us_kind="iUs")
PREVIEW = {
    "kind": "shot",
    "unit": 1,
    "target": 3,
    "spell": None,
    "dice": {"red": 10},
    "armour": 3,
    "parts": {"armour": 1, "skill": 1, "band": 1, "cover": 0, "hill": 0},
    "distance": 15.5,
    "casualties": {"0": 0.31, "1": 0.42, "2": 0.2, "3": 0.07},
    "mean": 1.03,
    "morale_break": 0.38,
    "destroyed": 0.0,
}
OBSERVATION: dict[str, Any] = {
    "game": "coloured-dice",
    "round": 2,
    "rounds": 6,
    "seat": 0,
    "phase": "turn",
    "table": {"width": 48, "height": 36},
    "sides": [
        {
            "name": "the Sons of Kaleva",
            "army": "kaleva",
            "colour": "#2563eb",
            "general_morale": 1,
            "vp": 20,
            "points": 310,
            "points_lost": 0,
        },
        {
            "name": "the Host of Pohjola",
            "army": "pohjola",
            "colour": "#b91c1c",
            "general_morale": -2,
            "vp": 0,
            "points": 300,
            "points_lost": 40,
        },
    ],
    "features": [
        {
            "id": 0,
            "kind": "hill",
            "name": "Hill",
            "outline": [[2, 14], [10, 14], [10, 20], [2, 20]],
            "height": 2,
        },
        {
            "id": 1,
            "kind": "forest",
            "name": "Forest",
            "outline": [[38, 24], [46, 24], [46, 32], [38, 32]],
            "height": 0,
        },
        {
            "id": 2,
            "kind": "stream",
            "name": "Stream",
            "outline": [[0, 11], [48, 11], [48, 12], [0, 12]],
            "height": 0,
        },
        {
            "id": 3,
            "kind": "wall",
            "name": "Wall",
            "outline": [[20, 20], [26, 20], [26, 20.5], [20, 20.5]],
            "height": 0,
        },
    ],
    "objectives": [{"id": 0, "at": [24, 18], "vp": 20, "taken_by": [0]}],
    "units": [ARCHERS, SPEARS, RAIDERS, TROLL],
    "awaiting": None,
    "last_roll": {
        "purpose": "shot",
        "dice": ["white", "white", "black", "green"],
        "faces": [1, 4, 6, 5],
        "points": 3,
        "kills": 1,
        "armour": 1,
        "wounds": 2,
    },
    "previews": [PREVIEW],
    "result": None,
}
ACTIONS: list[dict[str, Any]] = [
    {"type": "shoot", "unit": 1, "target": 3},
    {"type": "reform", "unit": 1, "order": "open", "files": 10},
    {"type": "charge", "unit": 2, "target": 4},
    {"type": "rally", "unit": 2},
    {"type": "end_turn"},
]
MOVES = {
    1: {"type": "move", "unit": 1, "path": [[12.0, 10.0]], "facing": 90},
    2: {"type": "move", "unit": 2, "path": [[30.0, 10.0]], "facing": 0},
}
SELECTIONS = {
    str(uid): {
        "type": "selection",
        "unit": uid,
        "moves": [{"to": m["path"][-1], "facing": m["facing"], "action": m}],
        "reach": [],
        "targets": [],
        "rings": [],
        "bands": [],
        "lights": [],
    }
    for uid, m in MOVES.items()
}
"""The table's answers when a unit is picked (its moves come with its selection, not with the options)."""


def archers_bands() -> list[dict[str, Any]]:
    """The archers' range bands as the table adapter gives them with their selection (CD-RA-01: as many
    multiples of the bow's 8" as the rules' maximum range)."""
    from iwgt.games.coloured_dice.table import max_bands, range_bands
    from iwgt.geometry.trays import Tray

    t = ARCHERS["tray"]
    tray = Tray(tuple(t["centre"]), t["facing"], t["frontage"], t["depth"])
    bands: list[dict[str, Any]] = json.loads(json.dumps(range_bands(tray, ARCHERS["weapons"], max_bands())))
    return bands


SELECTIONS["1"]["bands"] = archers_bands()
CONTACT = {
    "centre": [34.0, 10.5],
    "facing": 0.0,
    "corners": [[37.0, 11.5], [31.0, 11.5], [31.0, 9.5], [37.0, 9.5]],
    "distance": 3.5,
    "allowance": 4.0,
    "gap": 9.0,
    "reaction_dice": 1,
}
"""Where the spearmen's charge at the troll ends (the table adapter's ``contact``): 3.5" of a 4" move; a 9"
gap gives the troll one reaction die (CD-RE-02: one per full 8")."""
SELECTIONS["2"]["targets"] = [
    {
        "target": 4,
        "kind": "charge",
        "action": {"type": "charge", "unit": 2, "target": 4},
        "odds": None,
        "contact": CONTACT,
    }
]

HARNESS = """async ([welcome, view, selections]) => {
  const { Shell } = await import('/static/shell.js');
  const module = await import('/static/games/coloured-dice/screen.js');
  document.body.innerHTML = '<div id="app"></div><div id="toasts"></div>';
  window.sent = [];
  window.previews = [];
  window.selections = selections;
  const answer = (id) => setTimeout(() => window.iwgtTable.onMessage(window.selections[String(id)]
    || { type: 'selection', unit: id, moves: [], targets: [], rings: [], bands: [], lights: [] }), 20);
  const socket = { act: (seat, a) => { window.sent.push(a); return 1; }, select: (seat, id) => answer(id),
    preview: (seat, a) => window.previews.push(a), die: (f) => window.sent.push({ die: f }),
    close: () => {} };
  const shell = new Shell(document.getElementById('app'), 't1', 'tok', socket, module);
  window.iwgtTable = shell;
  shell.onState('open', '');
  shell.onMessage(welcome);
  shell.onMessage(view);
}"""


def view_msg(
    obs: dict[str, Any],
    actions: list[dict[str, Any]],
    version: int = 1,
    to_move: int | None = 0,
    movable: list[int] | None = None,
) -> dict[str, Any]:
    """A view as the server sends it: the units with an order lit (``movable``), the other actions."""
    if movable is None:
        movable = sorted({a["unit"] for a in actions if isinstance(a.get("unit"), int)})
    return {
        "type": "view",
        "version": version,
        "seat": 0,
        "seats": [0, 1],
        "status": "playing",
        "to_move": to_move,
        "observation": obs,
        "options": {"movable": movable, "actions": actions},
        "lights": [],
        "log": [],
        "events": [],
    }


WELCOME = {
    "type": "welcome",
    "table": {"game": "coloured-dice", "title": "Skirmish", "scenario": "skirmish"},
    "seats": [0, 1],
    "names": ["Kaleva", "Pohjola"],
}


def serve_screen(route: Route) -> None:
    """The game's web folder from the source tree (before or without the plug-in's registration)."""
    name = route.request.url.split("/static/games/coloured-dice/")[1].split("?")[0]
    path = WEB / name
    if not path.is_file():
        route.fulfill(status=404, body="")
        return
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    route.fulfill(status=200, body=path.read_text(), headers={"content-type": kind})


def open_fixture(
    browser: Browser,
    server: Server,
    obs: dict[str, Any],
    actions: list[dict[str, Any]],
    viewport: Any = DESKTOP,
    selections: dict[str, Any] | None = None,
) -> Page:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.route("**/static/games/coloured-dice/**", serve_screen)
    page.goto(server.base + "/")
    page.evaluate(
        HARNESS, [WELCOME, view_msg(obs, actions), SELECTIONS if selections is None else selections]
    )
    expect(tid(page, f"cd-unit-{obs['units'][0]['id']}")).to_be_visible()
    return page


def feed(
    page: Page, obs: dict[str, Any], actions: list[dict[str, Any]], version: int, to_move: int | None = 0
) -> None:
    page.evaluate("v => window.iwgtTable.onMessage(v)", view_msg(obs, actions, version, to_move))


def sent(page: Page) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.sent")
    return out


def tap_table(page: Page, at: tuple[float, float]) -> None:
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", list(at))
    page.mouse.click(xy[0], xy[1])


@pytest.fixture
def desk(server: Server, browser: Browser) -> Iterator[Page]:
    page = open_fixture(browser, server, copy.deepcopy(OBSERVATION), ACTIONS)
    yield page
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.close()


@pytest.mark.timeout(120)
def test_units_terrain_and_sides_are_drawn(desk: Page) -> None:
    page = desk
    # Each model on its own base: ten archers on 1" x 1" bases, four wolf riders on 1" x 2" (cavalry).
    expect(page.locator('[data-testid^="cd-unit-1-model-"]')).to_have_count(10)
    expect(page.locator('[data-testid="cd-unit-1-model-0"]')).to_have_attribute("width", "40.0")
    expect(page.locator('[data-testid="cd-unit-3-model-0"]')).to_have_attribute("height", "80.0")
    # The order is the outline's look (open order dashed), shaken and engaged marked.
    expect(tid(page, "cd-unit-1")).to_have_class(re.compile(r"\border-open\b"))
    expect(tid(page, "cd-unit-3")).to_have_attribute("data-shaken", "true")
    expect(tid(page, "cd-unit-3-badge")).to_contain_text("4!")
    # Terrain by kind, the hill with its height; the objective and its VP.
    expect(tid(page, "cd-feature-0")).to_have_attribute("data-kind", "cd-hill")
    expect(page.locator(".ib-area-name", has_text="Hill (height 2)")).to_have_count(1)
    expect(tid(page, "cd-feature-1")).to_have_attribute("data-kind", "cd-forest")
    expect(tid(page, "cd-objective-0")).to_contain_text("20")
    # The header: general morale and VP per side, the round.
    expect(tid(page, "cd-side-0")).to_have_attribute("data-gm", "1")
    expect(tid(page, "cd-side-0")).to_have_attribute("data-vp", "20")
    expect(tid(page, "cd-side-1")).to_have_attribute("data-gm", "-2")
    expect(tid(page, "cd-round")).to_have_text("Round 2/6")
    expect(tid(page, "phase")).to_contain_text("Round 2 of 6")
    # The last roll: white faces 1 and 4 are 1 and miss, black 6 a kill, green 5 a 2 (CD-DI).
    faces = [tid(page, f"cd-last-die-{i}").get_attribute("data-face") for i in range(4)]
    assert faces == ["1", "miss", "kill", "2"], faces
    expect(tid(page, "cd-last-die-2")).to_have_attribute("data-colour", "black")
    expect(tid(page, "cd-last-sum")).to_contain_text("2 wounds")
    shot(page, "coloured_dice_fixture_01_board")


@pytest.mark.timeout(120)
def test_a_move_is_planned_by_a_tap_and_sent_with_its_facing(desk: Page) -> None:
    page = desk
    tid(page, "cd-unit-2").click()
    page.wait_for_function("() => window.iwgtTable.selection && window.iwgtTable.selection.unit === 2")
    for t in ("move", "charge"):
        expect(tid(page, f"cd-order-{t}")).to_be_visible()
    expect(tid(page, "cd-order-shoot")).to_have_count(0)
    expect(tid(page, "cd-reach")).to_have_count(1)
    tap_table(page, (33.0, 9.0))
    expect(tid(page, "cd-ghost-plan")).to_have_count(1)
    expect(tid(page, "cd-ghost-plan")).to_have_attribute("data-at", "33,9")
    tid(page, "cd-turn-left").click()  # turned 45 degrees left of the way it went
    facing = page.evaluate("() => window.iwgtTable.game.plan.facing")
    tid(page, "cd-move-go").click()
    move = sent(page)[-1]
    assert move == {"type": "move", "unit": 2, "path": [[33.0, 9.0]], "facing": facing}, move
    # A tap on the table near an offered move end goes exactly there, facing the way the leg goes (straight
    # ahead from (12, 6)), not the offered end's facing (90).
    tid(page, "cd-unit-1").click()
    page.wait_for_function("() => window.iwgtTable.selection && window.iwgtTable.selection.unit === 1")
    tap_table(page, (12.2, 10.1))
    expect(tid(page, "cd-ghost-plan")).to_have_attribute("data-at", "12,10")
    tid(page, "cd-move-go").click()
    assert sent(page)[-1] == {**MOVES[1], "facing": 0}, sent(page)[-1]
    # Rally: a shaken unit's morale test, with both its actions.
    tid(page, "cd-unit-2").click()
    tid(page, "cd-order-rally").click()
    tid(page, "cd-rally").click()
    assert sent(page)[-1] == {"type": "rally", "unit": 2}, sent(page)[-1]


@pytest.mark.timeout(120)
def test_a_shot_shows_range_bands_and_the_pool_preview_before_it_is_sent(desk: Page) -> None:
    page = desk
    tid(page, "cd-unit-1").click()
    tid(page, "cd-order-shoot").click()
    bands = tid(page, "cd-range-bands")
    expect(bands).to_have_count(1)
    expect(bands.locator("polygon")).to_have_count(4)  # 8", 16", 24", 32": four bands (CD-RA-01)
    # The first band is 8" out from the tray's front edge (the tray's front at y = 6 + depth/2).
    front = ARCHERS["tray"]["centre"][1] + ARCHERS["tray"]["depth"] / 2
    top = page.evaluate("""() => { const band = document.querySelector('[data-testid="cd-range-band-1"]');
        const pts = band.getAttribute('points')
        .split(' ').map((p) => p.split(',').map(Number)); return Math.min(...pts.map((p) => p[1])); }""")
    sy = page.evaluate("y => 40 + (36 - y) * 40", front + 8)
    assert abs(top - sy) < 1.0, (top, sy)
    tid(page, "cd-target-3").click()
    pv = tid(page, "cd-preview")
    expect(pv).to_be_visible()
    expect(tid(page, "cd-preview-die-red")).to_have_attribute("data-count", "10")
    expect(tid(page, "cd-preview-armour")).to_have_attribute("data-armour", "3")
    for part, value in PREVIEW["parts"].items():
        if value or part == "armour":
            expect(tid(page, f"cd-preview-part-{part}")).to_have_attribute("data-value", str(value))
        else:  # a part that adds nothing is not listed
            expect(tid(page, f"cd-preview-part-{part}")).to_have_count(0)
    for k, p in PREVIEW["casualties"].items():
        assert float(tid(page, f"cd-preview-bar-{k}").get_attribute("data-p") or "nan") == p
    expect(tid(page, "cd-preview-morale")).to_contain_text("38%")
    expect(tid(page, "cd-aim-arrow")).to_have_count(1)
    shot(page, "coloured_dice_fixture_02_preview")
    assert not [a for a in sent(page) if a.get("type") == "shoot"], "sent before Confirm"
    tid(page, "cd-confirm").click()
    assert sent(page)[-1] == {"type": "shoot", "unit": 1, "target": 3}


@pytest.mark.timeout(120)
def test_the_questions_open_as_dialogs(desk: Page) -> None:
    page = desk
    obs = copy.deepcopy(OBSERVATION)
    obs["phase"] = "decide"
    obs["awaiting"] = {
        "kind": "hero",
        "seat": 0,
        "unit": 1,
        "left": 2,
        "on": "attack",
        "attack": "shot",
        "source": 1,
        "target": 3,
        "armour": 1,
        "adjust": 0,
        "range": [-2, 2],
        "dice": ["white", "orange"],
        "faces": [3, 5],
    }
    hero = [{"type": "hero", "points": k} for k in (-2, -1, 0, 1, 2)]
    feed(page, obs, hero, 2)
    dlg = tid(page, "cd-ask-hero")
    expect(dlg).to_be_visible()
    expect(tid(page, "cd-ask-die-0")).to_have_attribute("data-face", "2")  # white face 3 is a 2
    expect(tid(page, "cd-ask-die-1")).to_have_attribute("data-face", "3")  # orange face 5 is a 3
    expect(tid(page, "cd-hero-value")).to_have_text("0")
    # The roll now: 2 + 3 = 5 points against armour 1: floor(5 / 2) = 2 wounds (CD-FI-05); each choice's.
    expect(tid(page, "cd-hero-now")).to_have_text("Now: 5 points against armour 1: 2 wounds")
    for points, wounds in ((-2, 1), (-1, 2), (0, 2), (1, 3), (2, 3)):
        expect(tid(page, f"cd-hero-choice-{points}")).to_have_attribute("data-wounds", str(wounds))
    expect(tid(page, "cd-hero-choice-1")).to_have_text("+1: 6 points → 3 wounds")
    expect(dlg).to_contain_text("each point adds or takes 1 from a number die")
    expect(dlg).not_to_contain_text("null")
    # Behind the dialog the roll panel shows this roll, not the last one (a 4-die shot).
    expect(tid(page, "cd-last-title")).to_have_text("The roll in question")
    expect(tid(page, "cd-last-die-1")).to_have_attribute("data-face", "3")
    expect(tid(page, "cd-last-die-2")).to_have_count(0)
    shot(page, "coloured_dice_fixture_05_hero_points")
    tid(page, "cd-hero-plus").click()
    tid(page, "cd-hero-plus").click()
    expect(tid(page, "cd-hero-plus")).to_be_disabled()
    tid(page, "cd-hero-minus").click()
    expect(tid(page, "cd-hero-value")).to_have_text("+1")
    tid(page, "cd-hero-send").click()
    assert sent(page)[-1] == {"type": "hero", "points": 1}
    expect(dlg).to_have_count(0)
    for kind, ids in (
        ("bear_wound", ("cd-ask-bear", "cd-bear-roll", "roll")),
        ("react", ("cd-ask-react", "cd-react-no", "roll")),
        ("resist", ("cd-ask-resist", "cd-resist-spend", "spend")),
    ):
        obs["awaiting"] = {
            "kind": kind,
            "seat": 0,
            "unit": 2,
            "wounds": 3,
            "charger": 3,
            "dice_count": 2,
            "cost": 2,
            "spell": "curse",
        }
        answers = [{"type": kind, ids[2]: True}, {"type": kind, ids[2]: False}]
        version = page.evaluate("() => window.iwgtTable.view.version") + 1
        feed(page, obs, answers, version)
        expect(tid(page, ids[0])).to_be_visible()
        tid(page, ids[1]).click()
        assert sent(page)[-1] == {"type": kind, ids[2]: not ids[1].endswith("-no")}, sent(page)[-1]
        expect(tid(page, ids[0])).to_have_count(0)


@pytest.mark.timeout(120)
def test_a_charge_shows_its_distance_allowance_reaction_and_contact(desk: Page) -> None:
    """The charge panel (CD-MS-16, CD-RE-02): the distance against the allowance, the target's reaction dice
    and the ghost tray where the charger makes contact, from the table adapter's ``contact``."""
    page = desk
    tid(page, "cd-unit-2").click()
    page.wait_for_function("() => window.iwgtTable.selection && window.iwgtTable.selection.unit === 2")
    tid(page, "cd-order-charge").click()
    tid(page, "cd-target-4").click()
    expect(tid(page, "cd-charge-distance")).to_contain_text('Distance 3.5" of an allowance of 4"')
    expect(tid(page, "cd-charge-facts")).to_have_attribute("data-reaction", "1")
    expect(tid(page, "cd-charge-reaction")).to_contain_text("Reaction of Troll: 1 die")
    ghost = tid(page, "cd-ghost-contact")
    expect(ghost).to_have_count(1)
    expect(ghost).to_have_attribute("data-at", "34,10.5")
    shot(page, "coloured_dice_fixture_06_charge")
    # The table's answer to the preview (legal) lets Confirm send the charge.
    page.evaluate(
        "c => window.iwgtTable.onMessage({type: 'preview', action: {type: 'charge', unit: 2, target: 4},"
        " legal: true, odds: null, lines: [], contact: c})",
        CONTACT,
    )
    tid(page, "cd-confirm").click()
    assert sent(page)[-1] == {"type": "charge", "unit": 2, "target": 4}


@pytest.mark.timeout(120)
def test_the_verdict_names_the_winner_without_a_verb(desk: Page) -> None:
    """Game Over: "Victory: the Host of Pohjola" (no verb to agree with a side's name); each side's line
    starts with a capital."""
    page = desk
    obs = copy.deepcopy(OBSERVATION)
    obs["phase"] = "over"
    obs["result"] = {"winners": [1], "reason": "the last round is played"}
    msg = view_msg(obs, [], version=3)
    msg["status"] = "over"
    msg["result"] = obs["result"]
    page.evaluate("m => window.iwgtTable.onMessage(m)", msg)
    expect(tid(page, "game-over-winner")).to_have_text(f"Victory: {OBSERVATION['sides'][1]['name']}")
    first = tid(page, "cd-final-0").inner_text()
    assert first[0].isupper(), first


@pytest.mark.timeout(120)
def test_on_a_phone_the_orders_and_preview_are_in_reach(server: Server, browser: Browser) -> None:
    page = open_fixture(browser, server, copy.deepcopy(OBSERVATION), ACTIONS, PHONE)
    try:
        tid(page, "cd-roster-1").click()
        tid(page, "cd-order-shoot").click()
        tid(page, "cd-target-3").click()
        expect(tid(page, "cd-preview")).to_be_visible()
        confirm = tid(page, "cd-confirm")
        confirm.scroll_into_view_if_needed()
        box = confirm.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"] and box["x"] >= 0
        shot(page, "coloured_dice_fixture_03_phone_preview")
        confirm.click()
        assert sent(page)[-1] == {"type": "shoot", "unit": 1, "target": 3}
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.close()


def test_fixture_is_json() -> None:
    """The fixture goes to the page as JSON: no tuples or other Python-only values in it."""
    assert json.loads(json.dumps(OBSERVATION)) == OBSERVATION


# -- the engine's own observation ----------------------------------------------------------------------------


def engine_view(
    scenario: str = "skirmish",
) -> tuple[dict[str, Any], list[dict[str, Any]], list[int], dict[str, Any]]:
    """The skirmish's first moment as the engine observes it for seat 0, its options, and each lit unit's
    selection (the table adapter's), as the server would send them."""
    from iwgt.games.coloured_dice.plugin import plugin

    game = plugin.game
    table = plugin.table()
    state = game.initial_state(game.load_scenario(scenario))
    obs = game.observe(state, 0)
    options = table.options(game, state, 0)
    selections = {str(uid): table.selection(game, state, 0, uid) for uid in options["movable"]}
    return obs, options["actions"], options["movable"], json.loads(json.dumps(selections))


@pytest.mark.timeout(120)
def test_the_engines_observation_is_drawn_and_a_shot_previewed(server: Server, browser: Browser) -> None:
    """The real skirmish: every unit on the table with its models; the archers' range bands are the table's
    (the tray grown by each multiple of the bow's range, CD-RA-02) and the shot's preview is the engine's."""
    obs, actions, movable, selections = engine_view()
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.route("**/static/games/coloured-dice/**", serve_screen)
        page.goto(server.base + "/")
        page.evaluate(HARNESS, [WELCOME, view_msg(obs, actions, movable=movable), selections])
        for u in obs["units"]:
            expect(page.locator(f'[data-testid^="cd-unit-{u["id"]}-model-"]')).to_have_count(u["models"])
        shots = [a for a in actions if a["type"] == "shoot"]
        assert shots, "the skirmish's archers have no target at the start"
        shooter, target = shots[0]["unit"], shots[0]["target"]
        tid(page, f"cd-unit-{shooter}").click()
        expect(tid(page, "cd-order-move")).to_be_visible()  # its moves came with its selection
        tid(page, "cd-order-shoot").click()
        bands = [
            b
            for b in selections[str(shooter)]["bands"]
            if b["range"] == selections[str(shooter)]["bands"][0]["range"]
        ]
        expect(tid(page, "cd-range-bands").locator("polygon")).to_have_count(len(bands))
        tid(page, f"cd-target-{target}").click()
        pv = next(
            p
            for p in obs["previews"]
            if p["unit"] == shooter and p["target"] == target and p["kind"] == "shot"
        )
        expect(tid(page, "cd-preview-armour")).to_have_attribute("data-armour", str(pv["armour"]))
        for colour, n in pv["dice"].items():
            expect(tid(page, f"cd-preview-die-{colour}")).to_have_attribute("data-count", str(n))
        for k, p in pv["casualties"].items():
            assert float(tid(page, f"cd-preview-bar-{k}").get_attribute("data-p") or "nan") == p
        expect(tid(page, "cd-preview-morale")).to_have_attribute("data-p", str(pv["morale_break"]))
        shot(page, "coloured_dice_fixture_04_engine_shot")
        tid(page, "cd-confirm").click()
        assert sent(page)[-1] == shots[0]
        assert not errors, errors
    finally:
        page.close()


@pytest.mark.timeout(120)
def test_a_spell_and_a_reform_are_ordered_by_their_buttons(server: Server, browser: Browser) -> None:
    """The battle's first moment: a caster's spells are buttons, then the chosen spell's targets; Confirm
    sends the cast. A unit's reform options are buttons that send the reform."""
    obs, actions, movable, selections = engine_view("battle")
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.route("**/static/games/coloured-dice/**", serve_screen)
        page.goto(server.base + "/")
        page.evaluate(HARNESS, [WELCOME, view_msg(obs, actions, movable=movable), selections])
        cast = next(a for a in actions if a["type"] == "cast" and isinstance(a.get("target"), int))
        tid(page, f"cd-roster-{cast['unit']}").click()
        tid(page, "cd-order-cast").click()
        spells = {a["spell"] for a in actions if a["type"] == "cast" and a["unit"] == cast["unit"]}
        expect(page.locator('[data-testid^="cd-spell-"]')).to_have_count(len(spells))
        tid(page, f"cd-spell-{cast['spell']}").click()
        targets = [
            a
            for a in actions
            if a["type"] == "cast" and a["unit"] == cast["unit"] and a["spell"] == cast["spell"]
        ]
        expect(page.locator('[data-testid^="cd-target-cast-"]')).to_have_count(len(targets))
        tid(page, f"cd-target-cast-{cast['spell']}-{cast['target']}").click()
        expect(tid(page, "cd-preview")).to_be_visible()
        before = len(sent(page))
        tid(page, "cd-cancel").click()
        assert len(sent(page)) == before, "Cancel sent something"
        tid(page, f"cd-target-cast-{cast['spell']}-{cast['target']}").click()
        page.evaluate(
            "a => window.iwgtTable.game.onPreview("
            "{type: 'preview', action: a, legal: true, odds: null, lines: []})",
            cast,
        )
        expect(tid(page, "cd-preview-lines")).to_be_visible()
        tid(page, "cd-confirm").click()
        assert sent(page)[-1] == cast, sent(page)[-1]

        reform = next(a for a in actions if a["type"] == "reform")
        tid(page, f"cd-roster-{reform['unit']}").click()
        tid(page, "cd-order-reform").click()
        tail = f"-{round(reform['facing'])}" if reform.get("facing") is not None else ""
        tid(page, f"cd-reform-{reform['order']}-{reform['files']}{tail}").first.click()
        assert sent(page)[-1]["type"] == "reform" and sent(page)[-1]["unit"] == reform["unit"], sent(page)[-1]
        assert not errors, errors
    finally:
        page.close()
