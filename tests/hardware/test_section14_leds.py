"""Every light of the hex game's section 14 (VX-14-01 .. VX-14-16) on the 30 x 20 table's LEDs (issue 16).

For each effect a real game state is found: a ``sorcery`` game played by the bots (seeded, as
``test_frames_leak.py`` plays it), searched step by step until the effect shows in the spectator's lights
and its event is among the step's events; where a piece must be in the air, the bridge's ``Overlay.held``;
a refusal, ``Overlay.refusal``; the portal's journey is built from such a state through legal actions. Then:

(a) ``table_frame`` of the state carries the effect on the table cells of the game cells the touchscreen
    lights for a spectator (the adapter's lights: same effect, colour, pattern and timing, each game cell
    moved through the placement);
(b) the ``Renderer`` gives those cells' LEDs the effect's colour while its pattern is on, computed here by
    hand from the colour, the layout's gamma and brightness and the virtual table's CSS opacities:

        led = round(255 * brightness * (opacity * channel / 255) ** gamma)      (gamma 2.2, brightness 0.6)

    with opacity 1 for a steady light, 1 in a flash's first half and 0.08 in its second (``light-flash``),
    the alternation's colours in turn every 600 ms (``board.js``: ``period = 600 * n``), 1 at 15 % of a wave's
    run after its delay (``light-wave``), 0.35 .. 1 for a pulse (``light-pulse``: 1 at half its 1.6 s period)
    and 0.4 .. 1 for a flicker (``light-flicker``); and dark, or the light beneath it, when it is off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import iwgt.hardware
from iwgt.core.chance import SeededDice
from iwgt.core.lights import Light
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, Event, visible_events
from iwgt.core.registry import get_plugin
from iwgt.core.table import Piece
from iwgt.hardware.frames import Overlay, public_pieces, table_frame
from iwgt.hardware.layout import load_layout
from iwgt.hardware.places import placement
from iwgt.hardware.protocol import FrameLight, TableCell
from iwgt.hardware.reconcile import divergence
from iwgt.hardware.render import Renderer

PLUGIN = get_plugin("valkyrx")
GAME = PLUGIN.game
ADAPTER: Any = PLUGIN.table()  # the hex game's adapter: its own methods (selection, refusal_lights)
LAYOUT = load_layout(Path(iwgt.hardware.__file__).parent / "data" / "table-30x20.toml")
RENDERER = Renderer(LAYOUT)
SEEDS = (0, 1, 5, 22)
"""Seeded bot games of ``sorcery``: 0 fights, shoots, casts and commands; 1 spreads lava; 5 opens a portal;
22 engulfs a unit in the lava (found by searching seeds 0..60)."""

# The hand-written colours (core/lights.py's named shades, as docs/rules/valkyrx.md section 14 gives them).
WHITE, BLUE, GREEN, AMBER, SKY, RED = "#f5f5f5", "#2563eb", "#22c55e", "#f59e0b", "#38bdf8", "#ef4444"
YELLOW, ORANGE, VIOLET, DEEP_ORANGE, CYAN = "#facc15", "#f97316", "#a855f7", "#ea580c", "#06b6d4"
ENCHANTED = {0: "#c4b5fd", 1: "#7e22ce"}  # the caster's side: the Light's pale violet, the Darkness' dark one

# The virtual table's CSS (src/iwgt/web/style.css, board.js), written out here rather than imported.
FLASH_MS, FLASH_LOW = 700, 0.08
ALTERNATE_MS = 600
WAVE_PEAK = 0.15  # light-wave: opacity 1 at 15 % of its run
PULSE_MS, PULSE_LOW = 1600, 0.35
FLICKER_LOW = 0.4
COMBAT_MS = 3000  # the adapter's combat animation before the verdict (docs/rules/valkyrx.md, section 14)


def level(channel: int, opacity: float) -> int:
    """One LED channel by hand: the colour's share, dimmed by its opacity, through gamma, then brightness."""
    duty: float = 255 * LAYOUT.brightness * (opacity * channel / 255) ** LAYOUT.gamma
    return round(duty)


def by_hand(colour: str, opacity: float = 1.0) -> tuple[int, int, int]:
    """A cell's LED value for a colour ``#rrggbb`` at an opacity."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (level(r, opacity), level(g, opacity), level(b, opacity))


DARK = (0, 0, 0)


@dataclass(frozen=True)
class Moment:
    """One step of a game: the state after it and the step's events."""

    seed: int
    step: int
    state: Any
    events: tuple[Event, ...]


@cache
def played(seed: int) -> tuple[Moment, ...]:
    """A whole seeded ``sorcery`` game played by the bots (about 0.3 s)."""
    match = Match(GAME, GAME.load_scenario("sorcery"), SeededDice(seed), seed)
    moments = [Moment(seed, 0, match.state, tuple(match.resolve_chance()))]
    bots = {seat: PLUGIN.bot(seed * 10 + seat) for seat in (0, 1)}
    while (mover := GAME.to_move(match.state)) is not None:
        bot = bots[mover]
        assert bot is not None
        events = tuple(match.act(mover, bot.choose(match.state, mover)))
        moments.append(Moment(seed, len(moments), match.state, events))
    return tuple(moments)


@pytest.fixture(scope="module")
def games() -> tuple[Moment, ...]:
    """Every step of the seeded games, in order."""
    return tuple(m for seed in SEEDS for m in played(seed))


PLACE = placement(LAYOUT, ADAPTER.surface(GAME.observe(played(SEEDS[0])[0].state, None)))


def spectator_lights(m: Moment) -> list[Light]:
    """What a spectator's touchscreen lights, straight from the adapter: its observation and visible events,
    with the mover's movable units that stand on the table as public pieces."""
    observation = GAME.observe(m.state, None)
    mover = GAME.to_move(m.state)
    movable: list[int] = []
    if mover is not None and mover != CHANCE:
        public = {p.unit for p in ADAPTER.pieces(observation)}
        movable = [u for u in ADAPTER.options(GAME, m.state, mover)["movable"] if u in public]
    lights: list[Light] = ADAPTER.lights(observation, visible_events(m.events, None), None, movable=movable)
    return lights


def find(games: Sequence[Moment], effect: str, event: str | None = None, extra: Any = None) -> Moment:
    """The first step whose spectator lights hold ``effect`` (and whose events hold an ``event``)."""
    for m in games:
        if event is not None and not any(type(e).__name__ == event for e in m.events):
            continue
        if extra is not None and not extra(m):
            continue
        if any(light.effect == effect for light in spectator_lights(m)):
            return m
    raise AssertionError(f"no step of seeds {SEEDS} lights {effect} (event {event})")


def on_table(cell: Any) -> TableCell:
    """The table cell of a game cell on the board."""
    found = PLACE.to_table((cell[0], cell[1]))
    assert found is not None, f"{cell} is off the board"
    return found


def frame_of(m: Moment, overlay: Overlay | None = None) -> list[FrameLight]:
    """The frame the bridge publishes for a step."""
    return table_frame(PLUGIN, GAME, m.state, m.events, PLACE, overlay or Overlay())


def as_table(lights: Sequence[Light], effect: str) -> set[tuple[Any, ...]]:
    """The lights of one effect moved onto the table through the placement (None: a cell off the table)."""
    return {
        (PLACE.to_table(x.cell), x.effect, x.colour, x.pattern, x.delay_ms, x.duration_ms)
        for x in lights
        if x.effect == effect and x.cell is not None
    }


def carried(frame: Sequence[FrameLight], effect: str) -> set[tuple[Any, ...]]:
    """The frame's lights of one effect, in the same form."""
    return {
        (tuple(f.cell), f.effect, f.colour, f.pattern, f.delay_ms, f.duration_ms)
        for f in frame
        if f.effect == effect
    }


def check_carried(
    frame: Sequence[FrameLight], lights: Sequence[Light], effect: str, colours: set[str]
) -> None:
    """(a): the frame carries exactly the screen's lights of ``effect``, placed, in ``colours``."""
    want = as_table(lights, effect)
    assert want, f"the screen lights no {effect}"
    assert None not in {w[0] for w in want}, "a lit game cell has no table cell"
    assert carried(frame, effect) == want
    assert {w[2] for w in want} == colours


def ends(f: FrameLight) -> float:
    """When a light goes out (a wave without a duration runs 1.5 s, as board.js)."""
    if f.pattern == "wave":
        return f.delay_ms + (f.duration_ms or 1500)
    return f.delay_ms + f.duration_ms if f.duration_ms else math.inf


def on_top(frame: Sequence[FrameLight], effect: str, t: float) -> list[TableCell]:
    """The table cells whose most urgent light active at ``t`` is of ``effect`` (the frame lists lights from
    the least to the most urgent)."""
    top: dict[TableCell, str] = {}
    for f in frame:
        if f.delay_ms <= t < ends(f):
            top[(f.cell[0], f.cell[1])] = f.effect
    return sorted(cell for cell, e in top.items() if e == effect)


def alone(frame: Sequence[FrameLight], effect: str) -> list[TableCell]:
    """The table cells where ``effect`` is the only effect of the frame."""
    effects: dict[TableCell, set[str]] = {}
    for f in frame:
        effects.setdefault((f.cell[0], f.cell[1]), set()).add(f.effect)
    return sorted(cell for cell, es in effects.items() if es == {effect})


def shown(frame: Sequence[FrameLight], cell: TableCell, t: float) -> tuple[int, int, int]:
    """The rendered colour of a cell's LEDs at ``t`` ms (all its LEDs show the same, checked)."""
    leds = LAYOUT.leds_of(cell)
    assert len(leds) == LAYOUT.leds_per_cell == 3
    rgb = RENDERER.render(frame, t)[list(leds)]
    values = {(int(r), int(g), int(b)) for r, g, b in rgb}
    assert len(values) == 1, f"the LEDs of {cell} differ: {values}"
    return values.pop()


def beneath(frame: Sequence[FrameLight], effect: str, cell: TableCell, t: float) -> tuple[int, int, int]:
    """What a cell shows at ``t`` without ``effect``: dark for a cell with nothing else lit."""
    rest = [f for f in frame if f.effect != effect]
    if not any(tuple(f.cell) == cell for f in rest):
        return DARK
    return shown(rest, cell, t)


def test_the_layout_is_the_one_the_formula_uses() -> None:
    """The by-hand formula's numbers come from the 30 x 20 table's TOML: gamma 2.2, brightness 0.6."""
    assert (LAYOUT.columns, LAYOUT.rows, LAYOUT.gamma, LAYOUT.brightness) == (30, 20, 2.2, 0.6)
    assert by_hand(RED) == (round(153 * (0xEF / 255) ** 2.2), round(153 * (0x44 / 255) ** 2.2), 8)
    board = GAME.observe(played(SEEDS[0])[0].state, None)["board"]
    # The board in the middle of the table, by an even row shift (odd rows stay odd, so neighbours stay).
    assert PLACE.shift == ((30 - board["width"]) // 2, (20 - board["height"]) // 2 // 2 * 2)


# --- VX-14-01: deployment -----------------------------------------------------------------------------------


def test_vx_14_01_the_deploying_seats_zone_is_lit_on_its_own_screen(games: tuple[Moment, ...]) -> None:
    """VX-14-01: the deploying seat's touchscreen lights its zone white; a spectator's, the same zone (the
    scenario's, public: what the physical table shows)."""
    m = games[0]
    assert m.state.phase == "deploy"
    seat = GAME.to_move(m.state)
    assert seat is not None and seat != CHANCE
    own = ADAPTER.lights(GAME.observe(m.state, seat), [], seat)
    zone = {x.cell for x in own if x.effect == "deploy"}
    assert zone and {x.colour for x in own if x.effect == "deploy"} == {WHITE}
    assert [x for x in spectator_lights(m) if x.effect == "deploy"] == [
        x for x in own if x.effect == "deploy"
    ]


def test_vx_14_01_the_deployment_zone_lights_on_the_table(games: tuple[Moment, ...]) -> None:
    """VX-14-01: while a seat deploys, its zone (public: the scenario's) lights white on the table."""
    m = games[0]
    seat = GAME.to_move(m.state)
    own = ADAPTER.lights(GAME.observe(m.state, seat), [], seat)
    frame = frame_of(m)
    check_carried(frame, own, "deploy", {WHITE})
    for cell in on_top(frame, "deploy", 0)[:5]:
        assert shown(frame, cell, 0) == by_hand(WHITE)


# --- steady standing lights: VX-14-02, VX-14-08, VX-14-09, VX-14-12 -----------------------------------------


@pytest.mark.parametrize(
    ("clause", "effect", "colours"),
    [
        ("VX-14-02", "movable", {WHITE}),
        ("VX-14-08", "weakened", {YELLOW}),
        ("VX-14-09", "critical", {ORANGE}),
        ("VX-14-12", "enchanted", None),
    ],
)
def test_steady_lights_of_units_reach_their_leds(
    games: tuple[Moment, ...], clause: str, effect: str, colours: set[str] | None
) -> None:
    """VX-14-02 movable (white), VX-14-08 weakened (yellow), VX-14-09 critical (orange), VX-14-12 enchanted
    (the caster's side's violet): steady, on the units' table cells, lit at any time."""
    times = (0, 350, 1234, 60_000)

    def shows(m: Moment) -> bool:  # a step where some cell shows it at every one of the times
        frame = frame_of(m)
        return bool(set.intersection(*(set(on_top(frame, effect, t)) for t in times)))

    m = find(games, effect, extra=shows)
    lights = spectator_lights(m)
    if colours is None:  # enchanted: the shade of each spell's side
        sides = {e["side"] for e in GAME.observe(m.state, None)["spells_in_force"] if e["units"]}
        colours = {ENCHANTED[s] for s in sides}
    frame = frame_of(m)
    check_carried(frame, lights, effect, colours)
    assert {f.pattern for f in frame if f.effect == effect} == {"steady"}
    for t in times:
        cells = on_top(frame, effect, t)
        assert cells, f"{clause}: {effect} is under another light on every cell"
        for cell in cells:
            colour = next(f.colour for f in frame if tuple(f.cell) == cell and f.effect == effect)
            assert shown(frame, cell, t) == by_hand(colour), (clause, cell, t)


def test_vx_14_02_only_the_movers_units_light_and_only_on_its_turn(games: tuple[Moment, ...]) -> None:
    """VX-14-02: the white cells are exactly the mover's units with a move (the engine's options)."""
    m = find(games, "movable")
    mover = GAME.to_move(m.state)
    assert mover is not None
    units = {u["id"]: u for u in GAME.observe(m.state, None)["units"]}
    lit = {f.cell for f in frame_of(m) if f.effect == "movable"}
    movable = ADAPTER.options(GAME, m.state, mover)["movable"]
    assert lit == {PLACE.to_table(tuple(units[u]["cell"])) for u in movable}
    assert all(units[u]["commander"] == mover for u in movable)


# --- combat: VX-14-04 .. VX-14-07, VX-14-10 -----------------------------------------------------------------


def test_vx_14_04_and_05_missile_fire_flashes_green_on_the_firer_and_red_on_its_target(
    games: tuple[Moment, ...],
) -> None:
    """VX-14-04 firing flashes green, VX-14-05 under fire flashes red, for the combat's 3 s: on in the first
    half of each 0.7 s period, 0.08 in the second, and gone (dark or the lower light) after."""
    m = find(games, "firing", "AttackResolved")
    lights = spectator_lights(m)
    frame = frame_of(m)
    for effect, colour in (("firing", GREEN), ("under_fire", RED)):
        check_carried(frame, lights, effect, {colour})
        assert {(f.pattern, f.delay_ms, f.duration_ms) for f in frame if f.effect == effect} == {
            ("flash", 0, COMBAT_MS)
        }
        cells = on_top(frame, effect, 0)
        assert cells
        for cell in cells:
            for t in (0, 100, FLASH_MS + 300, 2 * FLASH_MS + 349):
                assert shown(frame, cell, t) == by_hand(colour), (effect, cell, t)
            for t in (FLASH_MS // 2, FLASH_MS + 400, 2 * FLASH_MS + 699):
                assert shown(frame, cell, t) == by_hand(colour, FLASH_LOW), (effect, cell, t)
            assert shown(frame, cell, COMBAT_MS + 100) == beneath(frame, effect, cell, COMBAT_MS + 100)


def test_vx_14_05_a_spell_that_hurts_flashes_its_victims_red(games: tuple[Moment, ...]) -> None:
    """VX-14-05 (and the spells that hurt): a unit losing men to a spell flashes red like one under fire."""
    m = find(games, "under_fire", "SpellCasualties")
    frame = frame_of(m)
    check_carried(frame, spectator_lights(m), "under_fire", {RED})
    for cell in on_top(frame, "under_fire", 0):
        assert shown(frame, cell, 50) == by_hand(RED)
        assert shown(frame, cell, 400) == by_hand(RED, FLASH_LOW)


def test_vx_14_06_units_in_close_combat_alternate_green_and_red(games: tuple[Moment, ...]) -> None:
    """VX-14-06: each unit in a close combat has a green and a red ``melee`` light that take turns, 600 ms
    each, counted from the frame's arrival: green, red, green."""
    m = find(games, "melee", "AttackResolved")
    lights = spectator_lights(m)
    frame = frame_of(m)
    check_carried(frame, lights, "melee", {GREEN, RED})
    cells = on_top(frame, "melee", 0)
    assert cells
    for cell in cells:
        pair = [f.colour for f in frame if tuple(f.cell) == cell and f.effect == "melee"]
        assert pair == [GREEN, RED]  # the alternation's order: green first
        for t in (0, 599, 1200, 1799, 2400, 2999):
            assert shown(frame, cell, t) == by_hand(GREEN), (cell, t)
        for t in (600, 1199, 1800, 2399):
            assert shown(frame, cell, t) == by_hand(RED), (cell, t)


def test_vx_14_07_the_winner_lights_green_and_the_loser_red_after_the_combat(
    games: tuple[Moment, ...],
) -> None:
    """VX-14-07: when the combat's 3 s are over the winner lights green and the loser red, steady; before,
    the lower layer (the combat's alternation) shows on those cells."""
    m = find(games, "won", "CloseCombatOutcome")
    lights = spectator_lights(m)
    frame = frame_of(m)
    for effect, colour in (("won", GREEN), ("lost", RED)):
        check_carried(frame, lights, effect, {colour})
        assert {(f.pattern, f.delay_ms) for f in frame if f.effect == effect} == {("steady", COMBAT_MS)}
        cells = on_top(frame, effect, COMBAT_MS)
        assert cells
        for cell in cells:
            for t in (COMBAT_MS, COMBAT_MS + 1, 10_000):
                assert shown(frame, cell, t) == by_hand(colour), (effect, cell, t)
            assert shown(frame, cell, 700) == beneath(frame, effect, cell, 700)
            if any(tuple(f.cell) == cell and f.effect == "melee" for f in frame):
                assert shown(frame, cell, 700) == by_hand(RED)  # the melee's second turn, under the verdict


def test_vx_14_10_a_destroyed_unit_flashes_red_at_its_last_cell(games: tuple[Moment, ...]) -> None:
    """VX-14-10: a removed unit flashes red at its last cell (after the combat's 3 s when there was one),
    until the next frame: its piece must come off the table."""
    m = find(games, "destroyed", "UnitRemoved")
    lights = spectator_lights(m)
    frame = frame_of(m)
    check_carried(frame, lights, "destroyed", {RED})
    removed = {e.unit for e in m.events if type(e).__name__ == "UnitRemoved"}  # type: ignore[attr-defined]
    units = {u["id"]: u for u in GAME.observe(m.state, None)["units"]}
    cells = {f.cell for f in frame if f.effect == "destroyed"}
    assert cells == {PLACE.to_table(tuple(units[u]["cell"])) for u in removed if units[u]["cell"] is not None}
    delays = {f.delay_ms for f in frame if f.effect == "destroyed"}
    assert len(delays) == 1 and delays <= {0, COMBAT_MS}
    delay = delays.pop()
    for cell in on_top(frame, "destroyed", delay):
        assert shown(frame, cell, delay + 10) == by_hand(RED)
        assert shown(frame, cell, delay + 10 + FLASH_MS * 20) == by_hand(RED)  # still there, a while later
        assert shown(frame, cell, delay + 360) == by_hand(RED, FLASH_LOW)
        if delay:
            assert shown(frame, cell, delay - 1) == beneath(frame, "destroyed", cell, delay - 1)


# --- spells: VX-14-11, VX-14-13 .. VX-14-16 -----------------------------------------------------------------


def test_vx_14_11_a_spells_range_runs_out_as_a_wave_of_light(games: tuple[Moment, ...]) -> None:
    """VX-14-11: violet, ring k of the wizard's range lit at k * 150 ms for 600 ms: dark before its delay,
    full at 15 % of its run (90 ms after), dark after."""
    m = find(games, "spell_wave", "SpellCast")
    lights = spectator_lights(m)
    frame = frame_of(m)
    check_carried(frame, lights, "spell_wave", {VIOLET})
    waves = [f for f in frame if f.effect == "spell_wave"]
    assert {f.pattern for f in waves} == {"wave"} and {f.duration_ms for f in waves} == {600}
    assert {f.delay_ms for f in waves} >= {0, 150}  # the wizard's cell, then the first ring
    lonely = alone(frame, "spell_wave")
    assert any(f.delay_ms > 0 and tuple(f.cell) in lonely for f in waves)
    for f in waves:
        cell = (f.cell[0], f.cell[1])
        if cell not in on_top(frame, "spell_wave", f.delay_ms + 90):
            continue
        assert shown(frame, cell, f.delay_ms + 90) == by_hand(VIOLET), f
        if cell in lonely:
            if f.delay_ms:
                assert shown(frame, cell, f.delay_ms - 1) == DARK
            assert shown(frame, cell, f.delay_ms + 600) == DARK


def test_vx_14_13_creeping_death_flickers_on_its_cells(games: tuple[Moment, ...]) -> None:
    """VX-14-13: the lava's cells flicker deep orange: every LED a lit level of that colour, between the
    flicker's lowest opacity (0.4) and full, and not the same level all the time."""
    m = find(games, "lava", "LavaSpread")
    lights = spectator_lights(m)
    frame = frame_of(m)
    check_carried(frame, lights, "lava", {DEEP_ORANGE})
    assert {f.pattern for f in frame if f.effect == "lava"} == {"flicker"}
    cells = on_top(frame, "lava", 0)
    assert cells
    r, g, b = (int(DEEP_ORANGE[i : i + 2], 16) for i in (1, 3, 5))
    for cell in cells:
        seen = set()
        for t in range(0, 3400, 97):
            red, green, blue = shown(frame, cell, t)
            # The opacity that gives this red level (gamma inverted), then the other channels from it.
            opacity = (red / (255 * LAYOUT.brightness)) ** (1 / LAYOUT.gamma) * 255 / r
            assert FLICKER_LOW - 0.01 <= opacity <= 1.0 + 1e-9, (cell, t, opacity)
            assert abs(green - level(g, opacity)) <= 1 and abs(blue - level(b, opacity)) <= 1, (cell, t)
            seen.add(red)
        assert len(seen) > 3, f"{cell} does not flicker"


def test_vx_14_14_a_unit_touched_by_creeping_death_is_destroyed_and_flashes_red(
    games: tuple[Moment, ...],
) -> None:
    """VX-14-14: a unit engulfed by the lava is removed: its lava cell flashes red (destroyed, more urgent
    than the lava beneath), so its piece must come off."""

    def engulfed(m: Moment) -> bool:
        return any("lava" in str(getattr(e, "why", "")) for e in m.events)

    m = find(games, "destroyed", "UnitRemoved", engulfed)
    frame = frame_of(m)
    lava = {f.cell for f in frame if f.effect == "lava"}
    units = {u["id"]: u for u in GAME.observe(m.state, None)["units"]}
    gone = [e.unit for e in m.events if "lava" in str(getattr(e, "why", ""))]  # type: ignore[attr-defined]
    cells = {on_table(tuple(units[u]["cell"])) for u in gone}
    assert cells and cells <= lava
    assert cells <= {f.cell for f in frame if f.effect == "destroyed"}
    delay = max(f.delay_ms for f in frame if f.effect == "destroyed" and f.cell in cells)
    for cell in cells:
        assert shown(frame, cell, delay + 100) == by_hand(RED)
        assert shown(frame, cell, delay + 400) == by_hand(RED, FLASH_LOW)  # the flash's low half, not lava


def test_vx_14_15_the_portal_pulses_on_its_cell(games: tuple[Moment, ...]) -> None:
    """VX-14-15: the Transportation portal's cell pulses cyan: 0.35 at the start of each 1.6 s breath, full
    at its middle."""
    m = find(games, "portal")
    lights = spectator_lights(m)
    frame = frame_of(m)
    check_carried(frame, lights, "portal", {CYAN})
    assert {f.pattern for f in frame if f.effect == "portal"} == {"pulse"}
    cells = on_top(frame, "portal", 0)
    assert cells
    for cell in cells:
        assert shown(frame, cell, PULSE_MS // 2) == by_hand(CYAN)
        assert shown(frame, cell, PULSE_MS + PULSE_MS // 2) == by_hand(CYAN)
        assert shown(frame, cell, 0) == by_hand(CYAN, PULSE_LOW)
        assert shown(frame, cell, PULSE_MS) == by_hand(CYAN, PULSE_LOW)


def onto_portal(games: Sequence[Moment]) -> tuple[Moment, int, Moment, Any]:
    """The first step of the bots' games where a unit of the mover's side (not the caster) may walk onto
    the side's open portal, and the step after that walk (a legal action applied to the state)."""
    from iwgt.games.valkyrx.actions import Move
    from iwgt.games.valkyrx.spells import portals

    for m in games:
        mover = GAME.to_move(m.state)
        if mover is None or mover == CHANCE or m.state.phase != "movement":
            continue
        gates = {c: g for c, g in portals(m.state).items() if g.side == mover}
        walks = [
            a
            for a in GAME.legal_actions(m.state, mover)
            if isinstance(a, Move) and a.to in gates and a.unit != gates[a.to].caster and not a.airborne
        ]
        if walks:
            state, events = GAME.apply(m.state, walks[0])
            assert GAME.to_move(state) == mover  # no die to roll: the mover goes on
            return m, mover, Moment(m.seed, m.step + 1, state, tuple(events)), walks[0]
    raise AssertionError("no portal of the mover's side could be walked onto")


def test_vx_14_16_a_unit_entering_the_portal_goes_anywhere_and_the_table_shows_where(
    games: tuple[Moment, ...],
) -> None:
    """VX-14-16: built through legal actions from a portal of the bots' game: a unit of the portal's side
    walks onto it, then is sent through to a far cell. The portal still pulses (it carries three), and the
    table, which still reads the piece on the portal, lights the way: the new cell pulses sky (a piece
    missing) and the portal's cell flashes orange (a piece extra) until the piece is carried there."""
    from iwgt.games.valkyrx.actions import Transport
    from iwgt.games.valkyrx.spells import transport_destinations

    m, _, on_gate, walk = onto_portal(games)
    gate_cell = PLACE.to_table(tuple(GAME.observe(on_gate.state, None)["units"][walk.unit]["cell"]))
    unit = on_gate.state.units[walk.unit]
    far = transport_destinations(on_gate.state, unit, on_gate.state.occupancy())
    assert far
    state, events = GAME.apply(on_gate.state, Transport(walk.unit, far[-1]))
    through = Moment(m.seed, m.step + 2, state, tuple(events))
    assert [type(e).__name__ for e in through.events] == ["UnitTransported"]
    after = {u["id"]: u for u in GAME.observe(through.state, None)["units"]}
    to_cell = PLACE.to_table(tuple(after[walk.unit]["cell"]))
    assert to_cell is not None and gate_cell is not None and to_cell != gate_cell

    def pieces(m: Moment) -> dict[TableCell, Piece]:
        out = {}
        for p in public_pieces(ADAPTER, GAME.observe(m.state, None)):
            cell = PLACE.to_table(p.cell)
            assert cell is not None
            out[cell] = p
        return out

    sensed: dict[TableCell, str | None] = dict.fromkeys(pieces(on_gate))  # the table as it stood
    diverged = divergence(pieces(through), sensed)
    assert {(d.cell, d.want) for d in diverged} == {(to_cell, "piece"), (gate_cell, "empty")}
    frame = frame_of(through, Overlay(divergent=diverged))
    check_carried(frame, spectator_lights(through), "portal", {CYAN})
    assert gate_cell in {f.cell for f in frame if f.effect == "portal"}
    assert shown(frame, to_cell, PULSE_MS // 2) == by_hand(SKY)
    assert shown(frame, to_cell, 0) == by_hand(SKY, PULSE_LOW)
    assert shown(frame, gate_cell, 100) == by_hand(ORANGE)
    # Once the piece is carried there, the table agrees and the portal pulses cyan again on its cell.
    agreed = frame_of(through, Overlay(divergent=divergence(pieces(through), dict.fromkeys(pieces(through)))))
    assert shown(agreed, gate_cell, PULSE_MS // 2) == by_hand(CYAN)


# --- a piece in the air (the selection): selected, destination, charge; VX-14-03 refusal --------------------


def held_moment(games: Sequence[Moment]) -> tuple[Moment, int, int, list[Light]]:
    """The first step where a public piece of the mover, lifted, lights a charge as well as a walk."""
    for m in games:
        mover = GAME.to_move(m.state)
        if mover is None or mover == CHANCE or m.state.phase != "movement":
            continue
        public = {p.unit for p in ADAPTER.pieces(GAME.observe(m.state, None))}
        for unit in ADAPTER.options(GAME, m.state, mover)["movable"]:
            if unit not in public:
                continue
            answer = ADAPTER.selection(GAME, m.state, mover, unit)
            lights = [Light.from_json(x) for x in answer["lights"]]
            if {"charge", "destination"} <= {x.effect for x in lights}:
                return m, mover, unit, lights
    raise AssertionError("no lifted piece lights a charge")


def test_a_piece_in_the_air_lights_itself_its_destinations_and_its_charges(games: tuple[Moment, ...]) -> None:
    """VX-03-01 / VX-14-02's move: the lifted piece blue, its walks green, its charges amber, steady, only
    while it is in the air (``Overlay.held``): the same lights as the touchscreen's selection."""
    m, mover, unit, lights = held_moment(games)
    frame = frame_of(m, Overlay(held=(unit, mover)))
    check_carried(frame, lights, "selected", {BLUE})
    check_carried(frame, lights, "destination", {GREEN})
    check_carried(frame, lights, "charge", {AMBER})
    check_carried(frame, lights, "preview", {AMBER})  # an enemy it may strike: the forecast's amber
    plain = frame_of(m)
    assert not {"selected", "destination", "charge"} & {f.effect for f in plain}
    for effect, colour in (("selected", BLUE), ("destination", GREEN), ("charge", AMBER)):
        cells = on_top(frame, effect, 0)
        assert cells, effect
        for cell in cells:
            assert shown(frame, cell, 0) == shown(frame, cell, 5000) == by_hand(colour), (effect, cell)
    home = PLACE.to_table(next(x.cell for x in lights if x.effect == "selected" and x.cell is not None))
    assert home in on_top(frame, "selected", 0)


def test_vx_14_03_a_refused_placement_lights_its_cell_red_above_everything(games: tuple[Moment, ...]) -> None:
    """VX-14-03: a piece put down where the rules forbid (``Overlay.refusal``) lights that cell red, steady,
    above the piece's own lights, until the bridge clears it (the touchscreen's 2 s red is the same effect
    and colour: the adapter's ``refusal_lights``)."""
    m, mover, unit, lights = held_moment(games)
    obs = GAME.observe(m.state, None)
    lit = {x.cell for x in spectator_lights(m)} | {x.cell for x in lights}
    width, height = obs["board"]["width"], obs["board"]["height"]
    bare = next((c, r) for r in range(height) for c in range(width) if (c, r) not in lit)
    screen = ADAPTER.refusal_lights(obs, {"type": "move", "unit": unit, "to": list(bare)})
    assert [(x.cell, x.effect, x.colour, x.pattern) for x in screen] == [(bare, "illegal", RED, "steady")]
    where = PLACE.to_table(bare)
    assert where is not None
    frame = frame_of(m, Overlay(held=(unit, mover), refusal=(where, "not a legal move")))
    assert [f for f in frame if f.effect == "illegal"] == [
        FrameLight(cell=where, effect="illegal", colour=RED, pattern="steady")
    ]
    assert frame[-1].effect == "illegal"  # the most urgent of the game's lights
    for t in (0, 1999, 2000, 600_000):
        assert shown(frame, where, t) == by_hand(RED)
    assert shown(frame_of(m, Overlay(held=(unit, mover))), where, 0) == DARK  # nothing there before
    # On a lit cell (a green destination) the red wins.
    green = PLACE.to_table(next(x.cell for x in lights if x.effect == "destination" and x.cell is not None))
    assert green is not None
    frame = frame_of(m, Overlay(held=(unit, mover), refusal=(green, "refused")))
    assert shown(frame, green, 0) == by_hand(RED)


def test_vx_14_16_a_unit_lifted_from_its_portal_lights_where_it_may_go(games: tuple[Moment, ...]) -> None:
    """VX-14-16: a piece lifted from its portal, in the air, lights the cells the portal may send it to."""
    _, mover, on_gate, walk = onto_portal(games)
    frame = frame_of(on_gate, Overlay(held=(walk.unit, mover)))
    offered = [a for a in ADAPTER.options(GAME, on_gate.state, mover)["actions"] if a["type"] == "transport"]
    assert offered  # the engine's journeys through the portal, from where the unit stands
    assert {on_table(a["to"]) for a in offered} <= {
        f.cell for f in frame if f.effect in ("destination", "fly")
    }
