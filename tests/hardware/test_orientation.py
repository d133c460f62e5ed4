"""Which way up a game lies on the table: the top of the game's screen at the table's far edge (row 0).

The 30 x 20 table (data/table-30x20.toml, 2-inch cells): a cell's centre-to-corner is 2 / sqrt(3) = 1.1547 in,
the extent 61.0 x 1.1547 * 30.5 = 35.218 in, the covered rectangle x 1 .. 60, y 0.577 .. 34.641 (59 x 34.064).
Row r's centres lie at y = 35.218 - 1.1547 * (1 + 1.5 r): row 0 at 34.064, row 1 at 32.331, row 2 at 30.599
(y up: row 0, the far edge, is the row the screen draws at the top, docs/hardware.md). Column c's centre is at
x = 2 (c + 0.5) on even rows, 2 (c + 1) on odd ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import iwgt.hardware
from iwgt.core.lights import GREEN, Light
from iwgt.core.registry import get_plugin
from iwgt.games.warquest.maps import load_map
from iwgt.hardware.layout import load_layout
from iwgt.hardware.places import placement

TABLE = load_layout(Path(iwgt.hardware.__file__).parent / "data" / "table-30x20.toml")


def test_a_region_at_the_top_of_the_map_lights_the_tables_far_rows() -> None:
    # maps/marches.toml: a 24 x 20 board whose points have y down; Trollhaunt's site is [1.89, 1.97], the top
    # left corner of the map as the screen draws it.
    adapter = get_plugin("warquest").table()
    surface = adapter.surface({"map": "marches"})
    assert (surface.kind, surface.width, surface.height) == ("regions", 24.0, 20.0)
    m = load_map("marches")
    assert surface.outlines["trollhaunt"] == tuple(
        (x, 20.0 - y) for x, y in m.geometry.outlines["trollhaunt"]
    )
    place = placement(TABLE, surface)
    # Scale min(59 / 24, 34.064 / 20) = 1.7032; the board is 40.877 in wide, so x starts at 1 + (59 - 40.877)
    # / 2 = 10.062; its height fills the covered rectangle from y = 0.577.
    assert place.scale == pytest.approx(1.70320, abs=1e-4)
    # The site turned y-up is (1.89, 18.03): table (10.062 + 1.89 * 1.7032, 0.577 + 18.03 * 1.7032) =
    # (13.28, 31.29). The nearest centre is row 2's column 6 at (13.0, 30.599), 0.74 in away (row 1's column 6
    # at (14, 32.331) is 1.26 away), so cell (6, 2) is Trollhaunt's. Mirrored (the bug) it fell on rows 14-16.
    x, y = place.to_table_point((1.89, 20.0 - 1.97))
    assert (round(x, 2), round(y, 2)) == (13.28, 31.29)
    lit = place.cells_of(Light.on_region("trollhaunt", "deploy", GREEN, "steady"))
    assert (6, 2) in lit
    assert max(r for _, r in lit) < 10  # all in the far half of the 20 rows, none near the players' edge


def test_a_spot_near_an_inch_boards_top_edge_lights_the_tables_far_row() -> None:
    # valhalla/scenarios/skirmish.toml: a 36 x 24 inch table, y up as inchboard.js draws it (y = 24 on top).
    adapter = get_plugin("valhalla").table()
    surface = adapter.surface({"table": {"width": 36, "height": 24}})
    place = placement(TABLE, surface)
    # Scale min(59 / 36, 34.064 / 24) = 1.4193; x starts at 1 + (59 - 36 * 1.4193) / 2 = 4.952. The spot at
    # (18, 23) is at table (4.952 + 18 * 1.4193, 0.577 + 23 * 1.4193) = (30.50, 33.22).
    x, y = place.to_table_point((18.0, 23.0))
    assert (round(x, 2), round(y, 2)) == (30.5, 33.22)
    # Radius 0.5 in -> 0.71 table inches: no centre is that near; the nearest is row 0's column 15 at
    # (31, 34.064), 0.98 away (row 1's column 14 at (30, 32.331) is 1.02 away).
    assert place.cells_of(Light.spot((18.0, 23.0), 0.5, "movable", GREEN, "steady")) == [(15, 0)]
    # Radius 1 in -> 1.419: both of those; row 0's column 14 at (29, 34.064) is 1.72 away, row 2 is 2.6 below.
    assert place.cells_of(Light.spot((18.0, 23.0), 1.0, "movable", GREEN, "steady")) == [(14, 1), (15, 0)]
    # And one near the bottom edge, (18, 1): table y 0.577 + 1.4193 = 1.996, the last rows (18 and 19).
    assert {r for _, r in place.cells_of(Light.spot((18.0, 1.0), 1.0, "movable", GREEN, "steady"))} <= {
        18,
        19,
    }
