"""Frame lights -> an RGB colour per LED at a moment: the patterns of the browser's virtual table, on LEDs.

``Renderer(layout).render(lights, t_ms)`` gives a (led_count, 3) uint8 array. ``t_ms`` counts from when
the frame arrived, as the browser counts a light's delay from the view's arrival (``shell.js``'s t0).
Each cell shows its most urgent light that is active at ``t`` (``delay_ms <= t < delay_ms + duration_ms``;
the frame lists its lights from the least to the most urgent); the LEDs of a cell all show its colour.

The patterns copy the virtual table's CSS animations (``src/iwgt/web/style.css``, ``.pat-*`` and their
``@keyframes``; the alternation's period from ``board.js``, ``inchboard.js`` and ``regionboard.js``), so the
LEDs blink in step with the touchscreen. The light's opacity there is its brightness here: a colour of
opacity ``a`` is the sRGB colour times ``a`` (the browser blends it over a dark board), then the table's gamma
turns it into LED duty and its brightness scales it: ``round(255 * brightness * (a * c / 255) ** gamma)``.

Identify (``identify={cell: ms since it began}``) draws over everything: the cell's LEDs blink white.
Everything is vectorised with numpy: a frame's lights are prepared once (per cell, their groups and colours),
each tick is a handful of array operations (1,800 LEDs in a fraction of a millisecond).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from iwgt.hardware.layout import Layout
from iwgt.hardware.protocol import FrameLight, TableCell

# --- The virtual table's timings (src/iwgt/web/style.css unless said otherwise) -----------------------------

FLASH_PERIOD_MS: Final = 700
"""``.pat-flash``: ``light-flash 0.7s steps(1, end)``: on for the first half of each period."""

FLASH_LOW: Final = 0.08
"""``@keyframes light-flash { 50% { opacity: 0.08 } }``: the off half is nearly, not quite, dark."""

ALTERNATE_STEP_MS: Final = 600
"""``board.js`` (and ``inchboard.js``, ``regionboard.js``): ``period = 600 * n``: each of n colours 600 ms."""

WAVE_DEFAULT_MS: Final = 1500
"""``board.js``: ``--dur: duration_ms || 1500``: a wave without a duration lasts 1.5 s."""

WAVE_KEYFRAMES: Final = ((0.0, 0.0), (0.15, 1.0), (0.70, 0.85), (1.0, 0.0))
"""``@keyframes light-wave`` (offset, opacity), ``ease-out`` between keyframes, played once."""

FLICKER_PERIOD_MS: Final = 1700
"""``.pat-flicker``: ``light-flicker 1.7s linear``."""

FLICKER_SLOT_MS: Final = FLICKER_PERIOD_MS / 8
"""The CSS flicker has 8 keyframe segments a period; here each slot gets a level seeded by cell and slot."""

FLICKER_LOW: Final = 0.4
"""``@keyframes light-flicker``: its lowest opacity (55%: 0.4) ..."""

FLICKER_HIGH: Final = 1.0
"""... and its highest (17%: 1)."""

PULSE_PERIOD_MS: Final = 1600
"""``.pat-pulse``: ``light-pulse 1.6s ease-in-out``."""

PULSE_KEYFRAMES: Final = ((0.0, 0.35), (0.5, 1.0), (1.0, 0.35))
"""``@keyframes light-pulse`` (offset, opacity): breathing 0.35 .. 1 (its scale has no LED meaning)."""

IDENTIFY_PERIOD_MS: Final = FLASH_PERIOD_MS
"""Identify blinks at the flash's rate, on for the first half, fully off for the second."""

IDENTIFY_COLOUR: Final = "#f5f5f5"
"""White: ``core/lights.py: WHITE``, the hardware palette's ``identify``."""

EASE_OUT: Final = (0.0, 0.0, 0.58, 1.0)
"""CSS ``ease-out``: cubic-bezier(0, 0, 0.58, 1)."""

EASE_IN_OUT: Final = (0.42, 0.0, 0.58, 1.0)
"""CSS ``ease-in-out``: cubic-bezier(0.42, 0, 0.58, 1)."""

_STEADY, _FLASH, _ALTERNATE, _WAVE, _FLICKER, _PULSE = range(6)
_PATTERN_CODE: Final = {"steady": _STEADY, "flash": _FLASH, "alternate": _ALTERNATE, "wave": _WAVE,
                        "flicker": _FLICKER, "pulse": _PULSE}  # fmt: skip


def hex_rgb(colour: str) -> tuple[float, float, float]:
    """A CSS ``#rrggbb`` colour as three floats 0..1."""
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"colour must be #rrggbb, got {colour!r}")
    value = int(colour[1:], 16)
    return ((value >> 16) / 255.0, ((value >> 8) & 0xFF) / 255.0, (value & 0xFF) / 255.0)


def _bezier_table(
    p1x: float, p1y: float, p2x: float, p2y: float, n: int = 1025
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A CSS cubic-bezier timing function sampled densely: (x, y), x increasing, for ``np.interp``."""
    s = np.linspace(0.0, 1.0, n)
    a = 3 * (1 - s) ** 2 * s
    b = 3 * (1 - s) * s**2
    c = s**3
    return a * p1x + b * p2x + c, a * p1y + b * p2y + c


_EASE_OUT_TABLE: Final = _bezier_table(*EASE_OUT)
_EASE_IN_OUT_TABLE: Final = _bezier_table(*EASE_IN_OUT)


def _keyframes(
    p: npt.NDArray[np.float64], frames: tuple[tuple[float, float], ...], easing: tuple[np.ndarray, np.ndarray]
) -> npt.NDArray[np.float64]:
    """CSS keyframes at progress ``p`` (0..1): the timing function eases each segment, as CSS applies it."""
    offsets = np.array([f[0] for f in frames])
    values = np.array([f[1] for f in frames])
    seg = np.clip(np.searchsorted(offsets, p, side="right") - 1, 0, len(frames) - 2)
    local = (p - offsets[seg]) / (offsets[seg + 1] - offsets[seg])
    eased = np.interp(np.clip(local, 0.0, 1.0), *easing)
    out: npt.NDArray[np.float64] = values[seg] + (values[seg + 1] - values[seg]) * eased
    return out


def _unit_hash(
    a: npt.NDArray[np.int64], b: npt.NDArray[np.int64], c: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """A deterministic hash of three integers to [0, 1) (not Python's salted ``hash``: the same every run)."""
    mask = np.uint64(0xFFFFFFFF)
    h = (a.astype(np.uint64) * np.uint64(73856093)) ^ (b.astype(np.uint64) * np.uint64(19349663))
    h = (h ^ (c.astype(np.uint64) * np.uint64(83492791))) & mask
    h = ((h ^ (h >> np.uint64(16))) * np.uint64(0x45D9F3B)) & mask
    h = ((h ^ (h >> np.uint64(16))) * np.uint64(0x45D9F3B)) & mask
    h = h ^ (h >> np.uint64(16))
    out: npt.NDArray[np.float64] = h.astype(np.float64) / 4294967296.0
    return out


@dataclass(slots=True)
class _Group:
    """One cell's light (or alternation of lights) while a frame is being prepared."""

    cell: int
    start: float
    end: float
    pattern: int
    colours: list[tuple[float, float, float]]
    wave_ms: float


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A frame's lights as arrays, one row per group (an alternation's lights on one cell are one group)."""

    cell: npt.NDArray[np.intp]  # index into the renderer's cells
    start: npt.NDArray[np.float64]  # delay_ms
    end: npt.NDArray[np.float64]  # delay + duration (inf: until the next frame)
    pattern: npt.NDArray[np.int64]
    colours: npt.NDArray[np.float64]  # (groups, k, 3), 0..1; an alternation's colours in turn
    ncolours: npt.NDArray[np.int64]  # an alternation of one colour takes turns with dark: 2
    wave_ms: npt.NDArray[np.float64]


class Renderer:
    """Turns a frame's lights into LED colours for one layout (its cells' LEDs, gamma and brightness)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        cells = layout.cells()
        self.cells: list[TableCell] = sorted(cells)
        self.index: dict[TableCell, int] = {cell: i for i, cell in enumerate(self.cells)}
        self.led_count = int(layout.led_count)
        # LED -> its cell's index; LEDs on no cell point at an extra row that stays dark.
        self.led_cell = np.full(self.led_count, len(self.cells), dtype=np.intp)
        for cell, leds in cells.items():
            self.led_cell[list(leds)] = self.index[cell]
        self.gamma = float(layout.gamma)
        self.brightness = float(layout.brightness)
        self._cell_c = np.array([c for c, _ in self.cells], dtype=np.int64)
        self._cell_r = np.array([r for _, r in self.cells], dtype=np.int64)
        self._white = np.array(hex_rgb(IDENTIFY_COLOUR))
        self._last: tuple[Sequence[FrameLight], _Prepared] | None = None

    def leds_of(self, cell: TableCell) -> npt.NDArray[np.intp]:
        """The global LED indices of a cell (empty for a cell the layout does not have)."""
        i = self.index.get(cell)
        return np.flatnonzero(self.led_cell == i) if i is not None else np.empty(0, dtype=np.intp)

    def _prepare(self, lights: Sequence[FrameLight]) -> _Prepared:
        """Group a frame's lights (cached while the same lights come again)."""
        if self._last is not None and (self._last[0] is lights or self._last[0] == lights):
            return self._last[1]
        groups: list[_Group] = []
        alternations: dict[tuple[int, str], _Group] = {}
        for light in lights:
            i = self.index.get((light.cell[0], light.cell[1]))
            if i is None:
                continue  # a cell this table does not have
            pattern = _PATTERN_CODE.get(light.pattern, _STEADY)
            colour = hex_rgb(light.colour)
            if pattern == _ALTERNATE:
                # The lights of one alternating effect on one cell take turns, in list order (board.js).
                same = alternations.get((i, light.effect))
                if same is not None:
                    same.colours.append(colour)
                    continue
            delay = float(light.delay_ms)
            wave_ms = float(light.duration_ms or WAVE_DEFAULT_MS)
            if pattern == _WAVE:
                end = delay + wave_ms  # after its one run a wave is dark (fill-mode both, last keyframe 0)
            else:
                end = delay + light.duration_ms if light.duration_ms else float("inf")
            group = _Group(i, delay, end, pattern, [colour], wave_ms)
            if pattern == _ALTERNATE:
                alternations[(i, light.effect)] = group
            groups.append(group)
        k = max((len(g.colours) for g in groups), default=1)
        colours = np.zeros((len(groups), max(k, 2), 3))
        for j, g in enumerate(groups):
            colours[j, : len(g.colours)] = g.colours
        prepared = _Prepared(
            cell=np.array([g.cell for g in groups], dtype=np.intp),
            start=np.array([g.start for g in groups], dtype=np.float64),
            end=np.array([g.end for g in groups], dtype=np.float64),
            pattern=np.array([g.pattern for g in groups], dtype=np.int64),
            colours=colours,
            # An alternation of one colour takes turns with dark (board.js: [colour, "transparent"]).
            ncolours=np.array(
                [max(len(g.colours), 2) if g.pattern == _ALTERNATE else 1 for g in groups], dtype=np.int64
            ),
            wave_ms=np.array([g.wave_ms for g in groups], dtype=np.float64),
        )
        self._last = (lights, prepared)
        return prepared

    def cell_colours(self, lights: Sequence[FrameLight], t_ms: float) -> npt.NDArray[np.float64]:
        """Each cell's colour before gamma, sRGB 0..1 times opacity: rows in ``self.cells`` order + dark."""
        prep = self._prepare(lights)
        out = np.zeros((len(self.cells) + 1, 3))
        if not len(prep.cell):
            return out
        t = float(t_ms)
        active = np.flatnonzero((prep.start <= t) & (t < prep.end))
        if not len(active):
            return out
        # The most urgent active group of each cell: groups are in frame order, so the highest index wins.
        winner = np.full(len(self.cells), -1, dtype=np.int64)
        np.maximum.at(winner, prep.cell[active], active)
        cells = np.flatnonzero(winner >= 0)
        g = winner[cells]
        pattern = prep.pattern[g]
        since = t - prep.start[g]  # ms since the light's delay: where its animation starts
        opacity = np.ones(len(g))
        colour = prep.colours[g, 0]

        flash = pattern == _FLASH
        opacity[flash] = np.where(since[flash] % FLASH_PERIOD_MS < FLASH_PERIOD_MS / 2, 1.0, FLASH_LOW)

        alt = np.flatnonzero(pattern == _ALTERNATE)
        if len(alt):
            # The turns count from the frame's arrival, not the delay (board.js: phase from t0).
            n = prep.ncolours[g[alt]]
            turn = (int(t) // ALTERNATE_STEP_MS) % n
            colour[alt] = prep.colours[g[alt], turn]  # a single colour's second turn is the zero row: dark

        wave = np.flatnonzero(pattern == _WAVE)
        if len(wave):
            opacity[wave] = _keyframes(since[wave] / prep.wave_ms[g[wave]], WAVE_KEYFRAMES, _EASE_OUT_TABLE)

        pulse = np.flatnonzero(pattern == _PULSE)
        if len(pulse):
            p = (since[pulse] % PULSE_PERIOD_MS) / PULSE_PERIOD_MS
            opacity[pulse] = _keyframes(p, PULSE_KEYFRAMES, _EASE_IN_OUT_TABLE)

        flick = np.flatnonzero(pattern == _FLICKER)
        if len(flick):
            # Each cell's own embers: a level per (cell, time slot), linear in between, as the CSS is linear.
            pos = since[flick] / FLICKER_SLOT_MS
            slot = np.floor(pos).astype(np.int64)
            frac = pos - slot
            c, r = self._cell_c[cells[flick]], self._cell_r[cells[flick]]
            lo = _unit_hash(c, r, slot)
            hi = _unit_hash(c, r, slot + 1)
            opacity[flick] = FLICKER_LOW + (FLICKER_HIGH - FLICKER_LOW) * (lo + (hi - lo) * frac)

        out[cells] = colour * opacity[:, None]
        return out

    def to_leds(self, cell_rgb: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
        """Cells' colours (0..1, with the dark row) -> each LED's value after gamma and brightness."""
        duty = np.power(np.clip(cell_rgb, 0.0, 1.0), self.gamma) * (255.0 * self.brightness)
        levels = np.rint(duty).astype(np.uint8)
        return levels[self.led_cell]

    def render(
        self, lights: Sequence[FrameLight], t_ms: float, identify: Mapping[TableCell, float] | None = None
    ) -> npt.NDArray[np.uint8]:
        """The LEDs' RGB ``t_ms`` after the frame arrived, (led_count, 3) uint8; identify blinks over it."""
        cell_rgb = self.cell_colours(lights, t_ms)
        for cell, since in (identify or {}).items():
            i = self.index.get(cell)
            if i is not None and since >= 0:
                on = since % IDENTIFY_PERIOD_MS < IDENTIFY_PERIOD_MS / 2
                cell_rgb[i] = self._white if on else 0.0
        return self.to_leds(cell_rgb)

    def dark(self) -> npt.NDArray[np.uint8]:
        """Every LED off."""
        return np.zeros((self.led_count, 3), dtype=np.uint8)
