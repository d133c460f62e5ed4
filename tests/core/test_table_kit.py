"""The helpers every inch table adapter shares (core/table_kit.py): JSON numbers and points, rounding, and
the light collector's skeleton."""

from __future__ import annotations

import math
from typing import Any

from iwgt.core.lights import BASE_PALETTE
from iwgt.core.table_kit import LightCollector, is_number, json_point, xy


def test_numbers_and_points_from_json() -> None:
    assert is_number(3) and is_number(2.5) and not is_number(True) and not is_number("3")
    assert not is_number(math.nan) and not is_number(math.inf)
    assert json_point([1, 2.5]) == (1.0, 2.5) and json_point((0, 0)) == (0.0, 0.0)
    assert json_point([1]) is None and json_point([1, None]) is None and json_point("1,2") is None
    assert xy((1.23456, 7.899)) == [1.23, 7.9]


class _Edged(LightCollector):
    """A collector of a 10 x 10 table whose units are points."""

    def keeps(self, at: tuple[float, float]) -> bool:
        return 0 <= at[0] <= 10 and 0 <= at[1] <= 10

    def unit(self, uid: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        self.spot((float(uid), 1.0), effect, pattern, **kw)


def test_the_collector_keeps_what_its_table_keeps_and_lights_a_melee_in_two_colours() -> None:
    lit = _Edged(BASE_PALETTE, radius=0.5)
    lit.spot(None, "selected")
    lit.spot((11.0, 1.0), "selected")  # off this table
    lit.area([(0.0, 0.0), (1.0, 0.0)], "selected")  # two corners: no area
    assert lit.out == []
    lit.spot((2.0, 3.0), "selected", radius=1.0, duration=500)
    lit.melee(4, None)
    assert [(x.effect, x.pattern, x.at, x.radius) for x in lit.out] == [
        ("selected", "steady", (2.0, 3.0), 1.0),
        ("melee", "alternate", (4.0, 1.0), 0.5),
        ("melee", "alternate", (4.0, 1.0), 0.5),
    ]
    assert lit.out[0].duration_ms == 500
    assert lit.out[1].colour == BASE_PALETTE["melee"] and lit.out[2].colour == BASE_PALETTE["melee_alt"]
