"""docs/hardware.md's claims beyond the protocol's messages: its layout file, sizes, placement and timings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iwgt.core.table import Surface
from iwgt.hardware import render
from iwgt.hardware.layout import load_layout, parse_layout
from iwgt.hardware.places import PlacementError, placement

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
DATA = ROOT / "src" / "iwgt" / "hardware" / "data"


def toml_block(kind: str) -> str:
    (block,) = re.findall(rf"^```toml {kind}\n(.*?)^```", DOC, flags=re.MULTILINE | re.DOTALL)
    return str(block)


def test_the_doc_layout_is_a_valid_layout_with_its_exception() -> None:
    layout = parse_layout(toml_block("layout"), "hardware.md")
    assert (layout.columns, layout.rows, layout.led_count) == (30, 20, 1800)
    # The default numbering: (r * columns + c) * leds_per_cell + k.
    assert layout.leds_of((4, 3)) == ((3 * 30 + 4) * 3, (3 * 30 + 4) * 3 + 1, (3 * 30 + 4) * 3 + 2)
    # The [[cells]] exception replaces the default LEDs 1797..1799 of the last cell.
    assert layout.leds_of((29, 19)) == (1797, 1798)
    assert [(s.start, s.stop) for s in layout.slices()] == [(0, 900), (900, 1800)]


def test_the_ready_layouts_are_as_the_doc_says() -> None:
    big = load_layout(DATA / "table-30x20.toml")
    small = load_layout(DATA / "table-16x12.toml")
    assert (len(big.cells()), big.led_count, [c.protocol for c in big.controllers]) == (
        600,
        1800,
        ["ddp"] * 2,
    )
    assert (len(small.cells()), small.led_count, [c.protocol for c in small.controllers]) == (
        192,
        576,
        ["dnrgb"],
    )


def test_the_doc_sizes_and_centres() -> None:
    layout = load_layout(DATA / "table-30x20.toml")
    width, height = layout.extent
    # "A 30 x 20 table of 2-inch cells is 61 x 35.2 inches": (30 + 0.5) * 2 by 2/sqrt(3) * (1.5*20 + 0.5).
    assert (round(width, 1), round(height, 1)) == (61.0, 35.2)
    s = 2 / 3**0.5
    x, y = layout.centre((3, 1))  # an odd row: shoved half a cell right
    assert x == pytest.approx(2 * (3 + 0.5 + 0.5)) and y == pytest.approx(height - s * (1 + 1.5))
    x, y = layout.centre((0, 0))  # row 0 is the far edge: the largest y
    assert x == pytest.approx(1.0) and y == pytest.approx(height - s)


def test_the_doc_hex_placement_example() -> None:
    layout = load_layout(DATA / "table-30x20.toml")
    board = placement(layout, Surface(kind="cells", width=12, height=9))
    # "A 12 x 9 board on the 30 x 20 table sits at columns 9..20, rows 4..12" (row shift 5 rounded down to 4).
    assert board.to_table((0, 0)) == (9, 4)
    assert board.to_table((11, 8)) == (20, 12)
    assert board.to_game((8, 4)) is None
    with pytest.raises(
        PlacementError, match=r"^the game's board is 32 x 12 cells but the table has 30 x 20$"
    ):
        placement(layout, Surface(kind="cells", width=32, height=12))


def test_the_doc_timings_are_the_renderers() -> None:
    assert (render.FLASH_PERIOD_MS, render.FLASH_LOW) == (700, 0.08)
    assert render.ALTERNATE_STEP_MS == 600
    assert render.WAVE_DEFAULT_MS == 1500
    assert render.WAVE_KEYFRAMES == ((0.0, 0.0), (0.15, 1.0), (0.70, 0.85), (1.0, 0.0))
    assert (render.FLICKER_PERIOD_MS, render.FLICKER_SLOT_MS * 8, render.FLICKER_LOW) == (1700, 1700, 0.4)
    assert (render.PULSE_PERIOD_MS, render.PULSE_KEYFRAMES[0][1]) == (1600, 0.35)
    assert (render.IDENTIFY_PERIOD_MS, render.IDENTIFY_COLOUR) == (700, "#f5f5f5")
    for text in (
        "0.7 s a period",
        "600 ms each",
        "1.5 s if none",
        "1.7 s cycle of 8 slots",
        "1.6 s a period",
    ):
        assert text in DOC


def test_the_doc_hardware_effects_are_the_frames() -> None:
    from iwgt.hardware import frames

    assert frames.HARDWARE_EFFECTS == ("piece_missing", "piece_extra", "identify")
    for effect, colour, pattern in (
        ("piece_missing", "#38bdf8", "pulse"),
        ("piece_extra", "#f97316", "flash"),
        ("identify", "#f5f5f5", "flash"),
    ):
        assert frames.HARDWARE_PALETTE[effect] == colour
        assert frames._PATTERNS[effect] == pattern
        assert f"| `{effect}` | " in DOC and f"`{colour}` | {pattern} |" in DOC


def test_the_doc_led_driver_and_bridge_timings() -> None:
    from iwgt.hardware import leds, sequence
    from iwgt.server import bridge

    assert (leds.LINK_GRACE_S, leds.REFRESH_S) == (5.0, 0.5)
    assert sequence.GAP_TIMEOUT_S == 0.5
    assert bridge.RETRY_S == 1.0
    assert "after 5 s without the broker" in DOC and "every 0.5 s" in DOC and "GAP_TIMEOUT_S = 0.5" in DOC


def test_the_doc_serpentine_example() -> None:
    # "on a 3 x 2 table with one LED a cell, row 0 is LEDs 0, 1, 2 left to right and row 1 is 5, 4, 3"
    text = 'columns = 3\nrows = 2\nleds_per_cell = 1\nwiring = "serpentine"\n'
    text += '[[controllers]]\nname = "a"\nprotocol = "ddp"\nhost = "127.0.0.1"\nleds = 6\n'
    layout = parse_layout(text, "serpentine.toml")
    assert [layout.leds_of((c, 0))[0] for c in range(3)] == [0, 1, 2]
    assert [layout.leds_of((c, 1))[0] for c in range(3)] == [5, 4, 3]
    assert "row 1 is 5, 4, 3" in DOC.replace("\n  ", " ")
