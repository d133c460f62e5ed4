"""Sound at the table (issue 12, section 5): the cues the shell plays, the mute and music switches.

The page synthesises every sound with WebAudio (``src/iwgt/web/sound.js``); the tests do not listen: they read
``window.iwgtSound.played`` (the cue names scheduled, in order) and ``window.iwgtSound.history`` (each cue
with its detail, the timer's second for a tick). A real tap comes first on each page, as a player's would: the
browser lets a page make sound only after a user gesture.

Tables: Valhalla's ``first_blood`` for two humans at one touchscreen (seed 2 deals Ulf's card first, so the
Raiders move at once), and Days of the Valkyrx's ``first_battle`` with a short movement timer for the ticks.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, shot
from .kit import WAIT_MS, open_link, tid, version, wait_version

expect.set_options(timeout=WAIT_MS)


# -- helpers -------------------------------------------------------------------------------------------------


def played(page: Page) -> list[str]:
    """The cues the page has scheduled so far, in order."""
    cues: list[str] = page.evaluate("() => [...window.iwgtSound.played]")
    return cues


def wait_cue(page: Page, cue: str, count: int = 1) -> None:
    """Wait until the page has played ``cue`` at least ``count`` times."""
    page.wait_for_function(
        "([c, n]) => window.iwgtSound.played.filter(x => x === c).length >= n", arg=[cue, count]
    )


def create(server: Server, **body: Any) -> dict[str, Any]:
    """A table made through the API (the game selection screen is not these tests' point)."""
    req: dict[str, Any] = {
        "game": "valhalla",
        "scenario": "first_blood",
        "seats": ["human", "human"],
        "mode": "shared",
        "dice": "table",
        "seed": 2,  # Ulf's card comes up first: the Raiders (seat 0) act at once
    }
    req.update(body)
    r = httpx.post(server.base + "/api/tables", json=req, timeout=10)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def open_table(browser: Browser, server: Server, made: dict[str, Any]) -> Page:
    """A fresh browser context (its own localStorage) on the table's shared link, its first view shown."""
    page = open_link(browser, server.base, made["links"]["table"])
    wait_version(page, 0)
    expect(tid(page, "conn-state")).to_have_attribute("data-state", "open")
    return page


def gesture(page: Page) -> None:
    """A player's first tap (on the title: it does nothing else), which lets the page's audio start."""
    tid(page, "table-title").click()
    page.wait_for_function("() => window.iwgtSound.audio === 'running'")


def wait_my_turn(page: Page) -> None:
    """Wait until the page's seat is to act (no die awaited)."""
    page.wait_for_function(
        """() => { const v = window.iwgtTable && window.iwgtTable.view;
                   return v && v.status === 'playing' && v.to_move === v.seat && !v.die; }"""
    )


def tap_inches(page: Page, p: list[float]) -> None:
    """Tap the table at a point given in inches from its bottom-left corner."""
    xy = page.evaluate("p => window.iwgtTable.board.clientPoint(p)", p)
    assert xy, "the table is not drawn"
    page.mouse.click(xy[0], xy[1])


def pick_mover(page: Page) -> tuple[int, dict[str, Any]]:
    """Tap a figure that may move now and wait for its selection (its move points); returns both."""
    view: dict[str, Any] = page.evaluate("() => window.iwgtTable.view")
    active = view["observation"].get("active")
    fid: int = active if active is not None else view["options"]["movable"][0]
    if active is None:
        tid(page, f"vh-figure-{fid}").click()
    page.wait_for_function(
        "f => window.iwgtTable.selection && window.iwgtTable.selection.unit === f", arg=fid
    )
    sel: dict[str, Any] = page.evaluate("() => window.iwgtTable.selection")
    assert sel["moves"], f"figure {fid} has no move"
    return fid, sel


def far_from(page: Page, fid: int) -> list[float]:
    """A point of the 24" x 16" table beyond a 6" move from the figure."""
    where = tid(page, f"vh-figure-{fid}").get_attribute("data-at")
    assert where
    x, y = (float(v) for v in where.split(","))
    return [23.5 if x < 12 else 0.5, 15.5 if y < 8 else 0.5]


def refuse_a_move(page: Page) -> None:
    """Tap a point out of a figure's reach: the table refuses the move (red reason), nothing is committed."""
    before = version(page)
    fid, _ = pick_mover(page)
    tap_inches(page, far_from(page, fid))
    expect(tid(page, "vh-refusal")).to_be_visible()
    assert version(page) == before


def make_a_move(page: Page) -> None:
    """Tap one of a figure's move points and wait until the table has committed the move."""
    before = version(page)
    _, sel = pick_mover(page)
    tap_inches(page, sel["moves"][0]["to"])
    wait_version(page, before + 1)


def no_page_errors(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert not errors, f"script errors: {errors}"


@pytest.fixture(scope="module")
def table(server: Server) -> Iterator[dict[str, Any]]:
    """One shared Valhalla table for the module's tests that do not need their own."""
    yield create(server)


# -- the tests -----------------------------------------------------------------------------------------------


def test_a_refused_move_and_a_move_play_their_cues(server: Server, browser: Browser) -> None:
    page = open_table(browser, server, create(server))
    try:
        wait_my_turn(page)
        # Sound is on by default, music off; the page's first view (the deal so far) played nothing.
        expect(tid(page, "sound-toggle")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("() => [window.iwgtSound.sound, window.iwgtSound.music]") == [True, False]
        gesture(page)
        assert played(page) == []

        refuse_a_move(page)
        wait_cue(page, "refused")
        assert played(page) == ["refused"]

        make_a_move(page)
        wait_cue(page, "move")
        # The move's own cue (its action and its destination light), once; no combat, no charge, no music.
        assert played(page) == ["refused", "move"]
        assert page.evaluate("() => window.iwgtSound.musicPlaying") is False
        shot(page, "sound_01_moved")
        no_page_errors(page)
    finally:
        page.close()


def test_the_mute_switch_is_remembered_and_silences_every_cue(
    server: Server, browser: Browser, table: dict[str, Any]
) -> None:
    page = open_table(browser, server, table)
    try:
        wait_my_turn(page)
        toggle = tid(page, "sound-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_have_attribute("aria-label", "Sound on: tap to mute")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_attribute("aria-label", "Sound off: tap to turn on")
        assert page.evaluate("() => localStorage.getItem('iwgt.sound')") == "off"

        # Remembered on this device: a reload comes back muted.
        page.reload()
        wait_version(page, 0)
        wait_my_turn(page)
        expect(tid(page, "sound-toggle")).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("() => window.iwgtSound.sound") is False

        # Muted: a refusal and a move play nothing.
        tid(page, "table-title").click()
        refuse_a_move(page)
        make_a_move(page)
        assert played(page) == []

        # The Options menu says so and turns it back on; the next refusal is heard.
        wait_my_turn(page)
        tid(page, "options-button").click()
        expect(tid(page, "options-sound")).to_have_text("Sound: off (turn on)")
        tid(page, "options-sound").click()
        expect(tid(page, "options-menu")).to_have_count(0)
        expect(tid(page, "sound-toggle")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("() => localStorage.getItem('iwgt.sound')") == "on"
        refuse_a_move(page)
        wait_cue(page, "refused")
        assert played(page) == ["refused"]
        no_page_errors(page)
    finally:
        page.close()


def test_music_plays_only_when_switched_on(server: Server, browser: Browser, table: dict[str, Any]) -> None:
    page = open_table(browser, server, table)
    try:
        gesture(page)
        # Off by default: a tap has unlocked the audio, and still no music.
        switches = page.evaluate("() => [window.iwgtSound.music, window.iwgtSound.musicPlaying]")
        assert switches == [False, False]
        tid(page, "options-button").click()
        expect(tid(page, "options-music")).to_have_text("Music: off (turn on)")
        tid(page, "options-music").click()
        page.wait_for_function("() => window.iwgtSound.musicPlaying && window.iwgtSound.musicNotes > 0")
        assert page.evaluate("() => localStorage.getItem('iwgt.music')") == "on"

        # Muting sound stops the music too; unmuting brings it back, as the music switch is still on.
        tid(page, "sound-toggle").click()
        page.wait_for_function("() => !window.iwgtSound.musicPlaying")
        tid(page, "sound-toggle").click()
        page.wait_for_function("() => window.iwgtSound.musicPlaying")

        tid(page, "options-button").click()
        expect(tid(page, "options-music")).to_have_text("Music: on (turn off)")
        tid(page, "options-music").click()
        page.wait_for_function("() => !window.iwgtSound.musicPlaying")
        assert page.evaluate("() => localStorage.getItem('iwgt.music')") == "off"
        assert "music" not in played(page)  # music is not a cue
        no_page_errors(page)
    finally:
        page.close()


def socket_acts(server: Server, table_id: str, token: str, acts: list[tuple[int, dict[str, Any]]]) -> None:
    """Play ``(seat, action)`` pairs through one WebSocket (docs/protocol.md), each acknowledged."""
    from websockets.sync.client import connect

    url = server.base.replace("http://", "ws://") + f"/ws/{table_id}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        for i, (seat, action) in enumerate(acts):
            mid = f"sound-{uuid.uuid4().hex[:12]}-{i}"
            ws.send(json.dumps({"type": "act", "id": mid, "seat": seat, "action": action}))
            while True:
                msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
                if msg.get("id") == mid:
                    assert msg["type"] == "ack", msg
                    break


def test_the_timer_ticks_in_its_last_ten_seconds(server: Server, browser: Browser) -> None:
    # A first_battle table deployed by both sides (the default spells), with a 16-second movement timer.
    made = create(server, game="valkyrx", scenario="first_battle", timer_seconds=16, seed=7)
    token = made["links"]["table"].split("#token=", 1)[1]
    deploy = [
        (0, {"type": "spells", "unit": 0, "spells": []}),
        (0, {"type": "confirm"}),
        (1, {"type": "spells", "unit": 4, "spells": []}),
        (1, {"type": "confirm"}),
    ]
    socket_acts(server, made["id"], token, deploy)
    page = open_table(browser, server, made)
    try:
        expect(tid(page, "timer")).not_to_have_class("timer idle")
        gesture(page)
        # Wait for one of the last three seconds' ticks; every tick came at ten seconds left or fewer.
        page.wait_for_function(
            "() => window.iwgtSound.history.some(e => e.cue === 'tick' && e.detail <= 3)", timeout=30_000
        )
        ticks: list[int] = page.evaluate(
            "() => window.iwgtSound.history.filter(e => e.cue === 'tick').map(e => e.detail)"
        )
        assert ticks and all(1 <= s <= 10 for s in ticks), ticks
        assert ticks == sorted(ticks, reverse=True) and len(set(ticks)) == len(ticks), ticks
        no_page_errors(page)
    finally:
        page.close()


def test_a_shot_plays_the_combat_cue(server: Server, browser: Browser) -> None:
    page = open_table(browser, server, create(server))
    try:
        wait_my_turn(page)
        gesture(page)
        # Ulf's card is up: his archer (figure 2) has the Farmers in range at the start of first_blood.
        shots = page.evaluate(
            "() => window.iwgtTable.view.options.actions.filter(a => a.type === 'shoot' && a.figure === 2)"
        )
        assert shots, "the archer has no target at the start of first_blood"
        before = version(page)
        page.evaluate("a => window.iwgtTable.send(a)", shots[0])
        wait_version(page, before + 1)
        wait_cue(page, "combat")
        # The shot's firing and under-fire lights call for combat, once; nothing moved.
        assert played(page) == ["combat"]
        no_page_errors(page)
    finally:
        page.close()


CHOICES_JS = """async () => {
  const m = await import('/static/sound.js');
  const light = (effect, cell, extra = {}) =>
    ({effect, cell, pattern: 'steady', delay_ms: 0, duration_ms: null, ...extra});
  const step = (action, actor = 0) => ({version: 9, actor, action});
  const run = (lights, steps = [], before = [], sounds = {}) =>
    m.cuesOf({lights}, new Set(before.map(m.lightKey)), sounds, steps);
  const moved = {type: 'move', unit: 3, to: [4, 5]};
  return {
    plainMove: run([], [step(moved)]),
    chargeMove: run([light('melee', [4, 5])], [step({...moved, charge: true})]),
    spellWave: run([light('spell_wave', [1, 1], {duration_ms: 600}),
                    light('spell_wave', [2, 1], {delay_ms: 150, duration_ms: 600}),
                    light('under_fire', [2, 1], {duration_ms: 1500})],
                   [step({type: 'cast', unit: 0, spell: 'fire'})]),
    oldLights: run([light('melee', [4, 5]), light('movable', [1, 1])], [step({type: 'end_phase'})],
                   [light('melee', [4, 5])]),
    dice: run([], [step({type: 'die', face: 6}, -1)]),
    destination: run([light('destination', [7, 7])], []),
    lateCombat: run([light('won', [4, 5], {delay_ms: 5000})], []),
    ownMap: run([light('lava', [1, 2])], [step({type: 'end_phase'})], [],
                {effects: {lava: 'spell'}, actions: {end_phase: 'move'}}),
    silenced: run([light('destination', [7, 7])], [], [], {effects: {destination: null}}),
  };
}"""
"""Asks sound.js which cues some lights and steps call for (each case's expectation is in the test)."""


def test_which_cue_each_light_and_action_calls_for(
    server: Server, browser: Browser, table: dict[str, Any]
) -> None:
    """sound.js's choice, from lights and steps written here by hand (the game-neutral rules of the docs)."""
    page = open_table(browser, server, table)
    try:
        got = page.evaluate(CHOICES_JS)
        assert got == {
            "plainMove": [{"cue": "move", "ms": 0}],
            # A charge is a move: the charge's call replaces the knock; its combat follows 300 ms later.
            "chargeMove": [{"cue": "charge", "ms": 0}, {"cue": "combat", "ms": 300}],
            # The wave's first ring at 0 ms; the casualty's flash at 0 too, so it follows 300 ms later.
            "spellWave": [{"cue": "spell", "ms": 0}, {"cue": "combat", "ms": 300}],
            # A light already lit before this view is not news; end_phase has no cue.
            "oldLights": [],
            # The table's dice (actor -1) call for nothing by themselves.
            "dice": [],
            "destination": [{"cue": "move", "ms": 0}],
            # A cue follows its light's delay, at most 2.5 s.
            "lateCombat": [{"cue": "combat", "ms": 2500}],
            # The game's own map: lava calls for the spell, End Phase for the knock (the move first on a tie).
            "ownMap": [{"cue": "move", "ms": 0}, {"cue": "spell", "ms": 300}],
            "silenced": [],
        }
        no_page_errors(page)
    finally:
        page.close()


def test_game_over_plays_once_and_a_repeated_step_plays_nothing(
    server: Server, browser: Browser, table: dict[str, Any]
) -> None:
    """sound.js's `heard` with views written by hand, after the page's own (their versions are far above)."""
    page = open_table(browser, server, table)
    try:
        gesture(page)
        got = page.evaluate(
            """async () => {
                 const m = await import('/static/sound.js');
                 const moved = {version: 1001, actor: 0, action: {type: 'move', unit: 1, to: [2, 3]}};
                 const view = (version, status, log = []) => ({version, status, lights: [], log});
                 const after = [];
                 m.heard(view(1001, 'playing', [moved]));
                 after.push([...window.iwgtSound.played]);
                 m.heard(view(1001, 'playing', [moved]));  // the same step for another seat
                 after.push([...window.iwgtSound.played]);
                 m.heard(view(1002, 'over', [moved]));     // the last step: no action of a seat
                 after.push([...window.iwgtSound.played]);
                 m.heard(view(1003, 'over', [moved]));
                 after.push([...window.iwgtSound.played]);
                 return after;
               }"""
        )
        assert got == [["move"], ["move"], ["move", "gameover"], ["move", "gameover"]]
        no_page_errors(page)
    finally:
        page.close()
