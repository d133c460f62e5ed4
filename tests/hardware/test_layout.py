"""The table's layout TOML: the ready layouts, cells and LEDs, hex geometry in inches, refusals, births."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.geometry.hexgrid import hex_to_offset, neighbours, offset_to_hex
from iwgt.hardware.layout import (
    Layout,
    LayoutError,
    load_layout,
    make_layout,
    parse_controller,
    parse_layout,
)
from iwgt.hardware.protocol import Birth, LayoutCell, decode, encode

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "iwgt" / "hardware" / "data"
BOARD_JS = ROOT / "src" / "iwgt" / "web" / "board.js"
HEX_SCENARIOS = ROOT / "src" / "iwgt" / "games" / "valkyrx" / "scenarios"

SIZE_2IN = 2.0 / math.sqrt(3.0)  # centre to corner of a 2-inch cell: 1.1547 in


def small(columns: int = 4, rows: int = 3, per_cell: int = 2, extra: str = "") -> str:
    """A small layout's TOML: two DDP controllers of 10 LEDs and the rest."""
    return make_layout(columns, rows, per_cell, ["ddp:127.0.0.1:4048:10", "ddp:127.0.0.1:4049"]) + extra


def test_the_30x20_table_loads_with_600_cells_and_1800_leds() -> None:
    layout = load_layout(DATA / "table-30x20.toml")
    cells = layout.cells()
    assert (layout.columns, layout.rows, len(cells), layout.led_count) == (30, 20, 600, 1800)
    assert cells[(0, 0)] == (0, 1, 2)
    assert cells[(1, 0)] == (3, 4, 5)
    assert cells[(0, 1)] == (90, 91, 92)  # (1 * 30 + 0) * 3
    assert cells[(29, 19)] == (1797, 1798, 1799)
    assert sorted(led for leds in cells.values() for led in leds) == list(range(1800))
    ddp = [c for c in layout.controllers if c.protocol == "ddp"]
    assert len(ddp) >= 2 and all(c.host == "127.0.0.1" for c in ddp)
    assert len({c.port for c in ddp}) == len(ddp)
    assert [(s.start, s.stop) for s in layout.slices()] == [(0, 900), (900, 1800)]
    assert (layout.cell_inches, layout.gamma, layout.brightness, layout.sensor) == (2.0, 2.2, 0.6, "presence")


def test_the_16x12_table_loads_with_192_cells_on_one_wled() -> None:
    layout = load_layout(DATA / "table-16x12.toml")
    assert (len(layout.cells()), layout.led_count) == (192, 576)
    (controller,) = layout.controllers
    assert (controller.protocol, controller.host, controller.port, controller.leds) == (
        "dnrgb",
        "127.0.0.1",
        21324,
        576,
    )


def scenario_sizes() -> dict[str, tuple[int, int]]:
    sizes = {}
    for path in sorted(HEX_SCENARIOS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        sizes[path.stem] = (data["width"], data["height"])
    return sizes


def test_every_hex_scenario_fits_the_30x20_table_and_the_small_ones_fit_the_16x12() -> None:
    sizes = scenario_sizes()
    assert max(sizes.values()) == (24, 18)  # the biggest battle, which the 30 x 20 table was sized for
    assert all(w <= 30 and h <= 20 for w, h in sizes.values())
    fits_small = sorted(name for name, (w, h) in sizes.items() if w <= 16 and h <= 12)
    assert fits_small == ["first_battle", "reinforcements", "skirmish", "sorcery"]


def test_centres_follow_the_screen_odd_r_geometry_in_inches() -> None:
    layout = load_layout(DATA / "table-30x20.toml")
    width, height = layout.extent
    assert width == pytest.approx(61.0)  # 30 cells and the half cell odd rows stick out
    assert height == pytest.approx(SIZE_2IN * 30.5)  # 20 rows 1.5 sizes apart, plus a size above and below
    # Row 0 is the far edge (the top of the screen): the largest y; odd rows are shoved half a cell right.
    assert layout.centre((0, 0)) == pytest.approx((1.0, height - SIZE_2IN))
    assert layout.centre((0, 1)) == pytest.approx((2.0, height - 2.5 * SIZE_2IN))
    assert layout.centre((3, 2)) == pytest.approx((7.0, height - 4.0 * SIZE_2IN))
    assert layout.centre((29, 19)) == pytest.approx((60.0, SIZE_2IN))  # the near right corner's cell
    # The screen draws the same: board.js centre(col, row) is W/2 + W (col + row&1 / 2), y down by 1.5 SIZE.
    js = BOARD_JS.read_text(encoding="utf-8")
    assert "W / 2 + W * (col + 0.5 * (row & 1))" in js and "SIZE + 1.5 * SIZE * row" in js
    assert "pointy-top, odd-r" in js


@pytest.mark.parametrize("cell", [(0, 0), (5, 1), (6, 2), (7, 7), (28, 18), (29, 19), (0, 19)])
def test_neighbours_are_one_cell_apart_and_others_further(cell: tuple[int, int]) -> None:
    # The odd-r parity check of the geometry: the hex grid's six neighbours (geometry.hexgrid) sit exactly a
    # cell's width away; nothing else does.
    layout = load_layout(DATA / "table-30x20.toml")
    x, y = layout.centre(cell)
    near = {hex_to_offset(h) for h in neighbours(offset_to_hex(*cell))}
    for other in layout.cells():
        if other == cell:
            continue
        ox, oy = layout.centre(other)
        gap = math.hypot(ox - x, oy - y)
        if other in near:
            assert gap == pytest.approx(2.0)
        else:
            assert gap > 2.0 * 1.7  # the second ring is sqrt(3) cells away


def test_a_broken_file_is_refused_naming_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(small().replace("leds = 14", 'leds = "many"'), encoding="utf-8")
    with pytest.raises(LayoutError) as err:
        load_layout(path)
    assert str(err.value).startswith(f"{path}: controllers.1.leds: ")
    assert err.value.problems[0][0] == "controllers.1.leds"


@pytest.mark.parametrize(
    ("change", "extra", "key", "words"),
    [
        (None, "[[cells]]\ncell = [4, 0]\nleds = [1]\n", "cells.0.cell", "[4, 0] is off the 4 x 3 grid"),
        (
            None,
            "[[cells]]\ncell = [0, 0]\nleds = [2]\n",
            "cells.0.leds",
            "LED 2 is on two cells: [0, 0] and [1, 0]",
        ),
        (
            None,
            "[[cells]]\ncell = [0, 0]\nleds = [0]\n[[cells]]\ncell = [0, 0]\nleds = [1]\n",
            "cells.1.cell",
            "listed twice",
        ),
        (None, "[[cells]]\ncell = [1, 2]\nleds = [24]\n", "cells.0.leds", "drive only 24 LEDs (0..23)"),
        (("leds = 14", "leds = 13"), "", "controllers", "the cells use LED 23"),
        (("port = 4049", "port = 4048"), "", "controllers.1.port", "127.0.0.1:4048 is already controllers.0"),
        (('protocol = "ddp"', 'protocol = "artnet"'), "", "controllers.0.protocol", "'ddp' or 'dnrgb'"),
        (("gamma = 2.2", "gamma = 0.5"), "", "gamma", "greater than or equal to 1"),
        (("brightness = 0.6", "brightness = 1.5"), "", "brightness", "less than or equal to 1"),
        (("rows = 3", "rows = 0"), "", "rows", "greater than or equal to 1"),
        (("name = ", "colour = 3\nname = "), "", "colour", "Extra inputs are not permitted"),
        (None, "[[cells]]\ncell = [1]\nleds = [1]\n", "cells.0.cell", "must be a cell [column, row]"),
    ],
)
def test_bad_layouts_are_refused_at_their_key(
    change: tuple[str, str] | None, extra: str, key: str, words: str
) -> None:
    text = small()
    if change is not None:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    with pytest.raises(LayoutError) as err:
        parse_layout(text + extra, "t.toml")
    assert err.value.problems[0][0] == key
    assert words in str(err.value)
    assert str(err.value).startswith(f"t.toml: {key}: ")


def test_no_controllers_not_toml_and_no_file_are_refused(tmp_path: Path) -> None:
    head = small().split("[[controllers]]")[0]
    with pytest.raises(LayoutError, match=r"^t.toml: controllers: a layout needs at least one"):
        parse_layout(head, "t.toml")
    with pytest.raises(LayoutError, match=r"^t.toml: not valid TOML"):
        parse_layout("columns = [", "t.toml")
    with pytest.raises(LayoutError, match="cannot read it"):
        load_layout(tmp_path / "missing.toml")


def test_cells_entries_renumber_a_cell() -> None:
    # Two cells' LEDs swapped (a strip wired the other way round there) and a cell with no LED at all.
    extra = (
        "[[cells]]\ncell = [0, 0]\nleds = [2, 3]\n"
        "[[cells]]\ncell = [1, 0]\nleds = [0, 1]\n"
        "[[cells]]\ncell = [3, 2]\nleds = []\n"
    )
    layout = parse_layout(small(extra=extra))
    cells = layout.cells()
    assert (cells[(0, 0)], cells[(1, 0)], cells[(2, 0)], cells[(3, 2)]) == ((2, 3), (0, 1), (4, 5), ())
    assert layout.led_count == 24  # the controllers' total: LEDs 22 and 23 are spare
    assert layout.leds_of((3, 2)) == () and layout.leds_of((9, 9)) == ()


def test_a_birth_round_trip_keeps_every_cell_and_led() -> None:
    extra = "[[cells]]\ncell = [2, 1]\nleds = []\n"
    layout = parse_layout(small(extra=extra))
    birth = layout.to_birth("t1", 4, "fw-1.0")
    assert (birth.device, birth.session, birth.firmware, birth.columns, birth.rows) == (
        "t1",
        4,
        "fw-1.0",
        4,
        3,
    )
    assert len(birth.cells) == 12 and birth.cells[0] == LayoutCell(cell=(0, 0), leds=(0, 1))
    wire = decode(Birth, encode(birth), "iwgt/v1/tables/t1/status")
    back = Layout.from_birth(wire)
    assert back.cells() == layout.cells()
    assert (back.leds_per_cell, back.cell_inches, back.sensor, back.controllers) == (2, 2.0, "presence", ())
    assert back.to_birth("t1", 4, "fw-1.0") == birth


def test_a_birth_without_every_cell_of_its_grid_is_refused() -> None:
    birth = Birth(
        device="t2",
        firmware="x",
        session=1,
        sensor="identity",
        columns=2,
        rows=2,
        cell_inches=1.5,
        cells=(LayoutCell(cell=(0, 0), leds=(0,)), LayoutCell(cell=(1, 1), leds=(3,))),
    )
    with pytest.raises(
        LayoutError, match=r"^birth of t2: cells: 2 cells of the grid are missing: \[1, 0\], \[0, 1\]"
    ):
        Layout.from_birth(birth)


def test_parse_controller() -> None:
    assert parse_controller("ddp:127.0.0.1:4048:900") == ("ddp", "127.0.0.1", 4048, 900)
    assert parse_controller("dnrgb:wled.local") == ("dnrgb", "wled.local", 21324, None)
    assert parse_controller("ddp:[::1]:4050:12") == ("ddp", "::1", 4050, 12)
    for bad in ("artnet:1.2.3.4", "ddp", "ddp::4048", "ddp:h:x", "ddp:h:1:2:3"):
        with pytest.raises(ValueError, match="controller"):
            parse_controller(bad)


def test_make_layout_gives_the_last_controller_the_rest_and_refuses_too_few_leds() -> None:
    layout = parse_layout(make_layout(5, 4, 3, ["dnrgb:10.0.0.5:21324:50", "dnrgb:10.0.0.6"]))
    assert [c.leds for c in layout.controllers] == [50, 10]  # 5 x 4 x 3 = 60
    with pytest.raises(LayoutError, match="drive only 59 LEDs"):
        make_layout(5, 4, 3, ["ddp:127.0.0.1:4048:59"])
    with pytest.raises(ValueError, match="only the last controller"):
        make_layout(5, 4, 3, ["ddp:127.0.0.1:4048", "ddp:127.0.0.1:4049:1"])


def test_iwgt_hardware_layout_prints_the_toml(tmp_path: Path) -> None:
    args = ["hardware", "layout", "--columns", "30", "--rows", "20", "--leds-per-cell", "3"]
    args += ["--controller", "ddp:127.0.0.1:4048:900", "--controller", "ddp:127.0.0.1:4049:900"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert parse_layout(result.output) == load_layout(DATA / "table-30x20.toml")
    out = tmp_path / "mine.toml"
    result = CliRunner().invoke(app, [*args[:-2], "-o", str(out)])
    assert result.exit_code == 2 and "drive only 900 LEDs" in result.output
    result = CliRunner().invoke(app, [*args, "-o", str(out), "--sensor", "identity"])
    assert result.exit_code == 0 and load_layout(out).sensor == "identity"


@settings(max_examples=40, deadline=None)
@given(
    columns=st.integers(1, 40),
    rows=st.integers(1, 30),
    per_cell=st.integers(0, 4),
    inches=st.sampled_from([1.0, 1.5, 2.0, 3.25]),
)
def test_every_made_layout_numbers_each_led_once_and_centres_lie_inside(
    columns: int, rows: int, per_cell: int, inches: float
) -> None:
    layout = parse_layout(make_layout(columns, rows, per_cell, ["ddp:127.0.0.1"], cell_inches=inches))
    cells = layout.cells()
    assert len(cells) == columns * rows
    leds = [led for group in cells.values() for led in group]
    assert sorted(leds) == list(range(columns * rows * per_cell))
    width, height = layout.extent
    size = inches / math.sqrt(3.0)
    for cell in cells:
        x, y = layout.centre(cell)
        # Every hexagon lies inside the extent: half a cell from the sides, a size from top and bottom.
        assert inches / 2 - 1e-9 <= x <= width - inches / 2 + 1e-9
        assert size - 1e-9 <= y <= height - size + 1e-9


def test_a_serpentine_3x2_table_numbers_its_odd_row_from_the_right(tmp_path: Path) -> None:
    # A zig-zag strip: row 0 left to right (LEDs 0, 1, 2), then back along row 1 right to left (3, 4, 5).
    text = make_layout(3, 2, 1, ["ddp:127.0.0.1:4048"], wiring="serpentine")
    assert 'wiring = "serpentine"' in text
    layout = parse_layout(text)
    assert layout.wiring == "serpentine"
    assert layout.cells() == {
        (0, 0): (0,),
        (1, 0): (1,),
        (2, 0): (2,),
        (0, 1): (5,),
        (1, 1): (4,),
        (2, 1): (3,),
    }
    # Two LEDs a cell: the blocks run the same way, each cell's own pair lowest first.
    two = parse_layout(make_layout(3, 2, 2, ["ddp:127.0.0.1:4048"], wiring="serpentine")).cells()
    assert [two[(c, 1)] for c in range(3)] == [(10, 11), (8, 9), (6, 7)]
    assert [two[(c, 0)] for c in range(3)] == [(0, 1), (2, 3), (4, 5)]
    # A third row runs left to right again: (0, 2) is LED 6.
    three = parse_layout(make_layout(3, 3, 1, ["ddp:127.0.0.1:4048"], wiring="serpentine")).cells()
    assert [three[(c, 2)] for c in range(3)] == [(6,), (7,), (8,)]
    # The default ("rows") is as before: row 1 left to right, (0, 1) is LED 3.
    assert parse_layout(make_layout(3, 2, 1, ["ddp:127.0.0.1:4048"])).cells()[(0, 1)] == (3,)
    # A birth carries no wiring: the referee's layout from it finds the serpentine (no [[cells]] exceptions).
    back = Layout.from_birth(layout.to_birth("t1", 1, "fw"))
    assert (back.wiring, back.exceptions, back.cells()) == ("serpentine", (), layout.cells())
    # The command's flag.
    args = ["hardware", "layout", "--columns", "3", "--rows", "2", "--controller", "dnrgb:10.0.0.5"]
    result = CliRunner().invoke(app, [*args, "--wiring", "serpentine"])
    assert result.exit_code == 0, result.output
    assert parse_layout(result.output).cells()[(0, 1)] == (5,)
    result = CliRunner().invoke(app, [*args, "--wiring", "spiral"])
    assert result.exit_code == 2 and "rows or serpentine" in result.output
    bad = text.replace('wiring = "serpentine"', 'wiring = "spiral"')
    with pytest.raises(LayoutError, match=r"^layout: wiring: "):
        parse_layout(bad)


def test_timeout_s_is_written_and_taken_for_dnrgb_controllers_only() -> None:
    text = make_layout(4, 3, 1, ["dnrgb:10.0.0.5:21324:6", "ddp:10.0.0.6"], timeout_s=5)
    layout = parse_layout(text)
    assert text.count("timeout_s") == 1  # the dnrgb controller's line only
    assert [(c.protocol, c.timeout_s) for c in layout.controllers] == [("dnrgb", 5), ("ddp", 2)]
    # A ddp controller naming a timeout is refused at its key (DDP has no timeout field).
    with pytest.raises(LayoutError, match=r"^t\.toml: controllers\.1\.timeout_s: a ddp controller takes no"):
        parse_layout(text.replace('host = "10.0.0.6"', 'host = "10.0.0.6"\ntimeout_s = 2'), "t.toml")
