"""Small helpers the games' table adapters share: an action tried for a preview, numbers and points read from
an observation's JSON, points rounded for a view, and the skeleton of a collector of one view's lights.

They live in the core (not in ``iwgt.table``) because the adapters live in the games' packages, and a game may
import the core and the geometry but nothing above them (the import-linter's layers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard

from iwgt.core.errors import GameError
from iwgt.core.lights import Light, Point, colour
from iwgt.core.protocol import JSON, Event, Seat

POINT_RADIUS: Final = 0.3
"""The radius of a point's spot by default (a move's end offered, a refused point), in inches."""


def trial(game: Any, state: Any, seat: Seat, action: JSON) -> tuple[Any, Any, list[Event]] | str:
    """A preview's trial: the action read and tried on the state for this seat (a value: nothing changes).
    Gives the parsed action, the state after it and its events, or the reason it is refused: a malformed
    action, another seat's turn, or the rule it breaks."""
    try:
        parsed = game.action_from_json(action)
    except GameError as exc:
        return exc.message
    if game.to_move(state) != seat:
        return "it is not your turn to act"
    try:
        after, events = game.apply(state, parsed)
    except GameError as exc:
        return exc.message
    return parsed, after, list(events)


def is_number(v: Any) -> TypeGuard[int | float]:
    """Whether a JSON value is a finite number (a bool is not one)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def json_point(value: Any) -> Point | None:
    """A point [x, y] from JSON (or a tuple), or None for anything else."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(is_number(v) for v in value):
        return (float(value[0]), float(value[1]))
    return None


def xy(p: Sequence[float]) -> list[float]:
    """A point as a view carries it: [x, y] rounded to hundredths of an inch."""
    return [round(float(p[0]), 2), round(float(p[1]), 2)]


class LightCollector:
    """Collects one view's lights: points as spots, outlines as areas, in the palette's colours.

    An adapter subclasses it to light its own pieces (a unit's tray, a figure's base) and overrides
    ``keeps`` to drop spots off its table. ``unit`` is the adapter's; ``melee`` lights a unit in both melee
    colours, alternating."""

    def __init__(self, palette: Mapping[str, str], radius: float = POINT_RADIUS) -> None:
        self.palette = palette
        self.radius = radius
        self.out: list[Light] = []

    def keeps(self, at: Point) -> bool:
        """Whether a spot at ``at`` is lit (every point, unless the adapter knows its table's edges)."""
        return True

    def spot(self, at: Point | None, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """A spot at ``at`` (nothing for None or a point ``keeps`` refuses); ``radius`` (inches), ``key`` (the
        palette's entry, by default the effect), ``delay`` and ``duration`` (ms) as keywords."""
        if at is None or not self.keeps(at):
            return
        radius = kw.pop("radius", self.radius)
        hue = colour(kw.pop("key", None) or effect, self.palette)
        self.out.append(Light.spot(at, radius, effect, hue, pattern, kw.get("delay", 0), kw.get("duration")))

    def area(self, corners: Sequence[Point] | None, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """An area inside ``corners`` (nothing for fewer than three); ``key``, ``delay`` and ``duration`` as
        keywords."""
        if not corners or len(corners) < 3:
            return
        hue = colour(kw.pop("key", None) or effect, self.palette)
        self.out.append(
            Light.over_area(corners, effect, hue, pattern, kw.get("delay", 0), kw.get("duration"))
        )

    def unit(self, uid: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """Light a unit by its id (the adapter's own: nothing here)."""

    def melee(self, uid: Any, duration: int | None) -> None:
        """A unit in a melee: its light alternating between the two melee colours."""
        self.unit(uid, "melee", "alternate", duration=duration)
        self.unit(uid, "melee", "alternate", key="melee_alt", duration=duration)


__all__ = ["POINT_RADIUS", "LightCollector", "is_number", "json_point", "xy"]
