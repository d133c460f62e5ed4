"""Light effects per place: the one list that the browser's virtual table and a hardware bridge render.

A ``Light`` is one place and one effect (docs/protocol.md, *Lights*). A place is one of three kinds:

- a **cell** of a hex board ``[column, row]``;
- a **spot** of a free table measured in inches: a disc at a point ``at`` (inches from the bottom-left
  corner) of ``radius`` inches, or an **area** (a polygon of such points), for an LED strip under a glass top
  or a projector to show;
- a **region** of a map, by its id.

Its colour comes from a palette keyed by effect, so a physical table whose LEDs show other hues can pass its
own palette to the adapter. The effects every game shares are here (``BASE_PALETTE``, ``BASE_EFFECTS``); each
game adds its own with ``Effects.extend`` in its table module. Patterns:

- ``steady``: on for ``duration_ms`` (None: until the next view);
- ``flash``: on and off (firing, under fire, destroyed);
- ``alternate``: the lights of one effect on one cell take turns in list order (melee: a green light,
  then a red one, on each unit in close combat, VX-14-06);
- ``wave``: on once at ``delay_ms`` for ``duration_ms``; a spell's wave is one ring per step outwards;
- ``flicker``: irregular, like embers (lava);
- ``pulse``: slow breathing (a portal).

Several lights may fall on one place. ``Effects.ordered`` lists them from the least to the most urgent effect,
so a table with a single LED per cell shows the last light of each cell.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from iwgt.core.protocol import JSON

Cell = tuple[int, int]
"""An odd-r offset cell [column, row], the form of the scenario files and the protocol."""

Point = tuple[float, float]
"""A point of a free table in inches from its bottom-left corner (the centre of a spot)."""

PATTERNS: Final = ("steady", "flash", "alternate", "wave", "flicker", "pulse")
"""Every pattern a renderer must know."""

_HEX = re.compile(r"^#[0-9a-f]{6}$")

# Named colours (CSS hex). The protocol's table names the hues; these are the virtual table's shades.
WHITE: Final = "#f5f5f5"
BLUE: Final = "#2563eb"
GREEN: Final = "#22c55e"
AMBER: Final = "#f59e0b"
SKY: Final = "#38bdf8"
RED: Final = "#ef4444"
YELLOW: Final = "#facc15"
ORANGE: Final = "#f97316"
VIOLET: Final = "#a855f7"  # a spell's wave
VIOLET_LIGHT: Final = "#c4b5fd"  # enchanted by a wizard of the Light
VIOLET_DARK: Final = "#7e22ce"  # enchanted by a wizard of the Darkness
TEAM_LIGHT: Final = "#3b82f6"  # VX-SP-COMMAND-4: "blue, not red, team"
TEAM_DARK: Final = "#dc2626"
DEEP_ORANGE: Final = "#ea580c"
CYAN: Final = "#06b6d4"
PURPLE: Final = "#d946ef"

BASE_PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "deploy": WHITE,
        "movable": WHITE,
        "selected": BLUE,
        "destination": GREEN,
        "charge": AMBER,
        "illegal": RED,
        "melee": GREEN,  # the first colour of a close combat's alternation
        "melee_alt": RED,  # the second
        "firing": GREEN,
        "under_fire": RED,
        "won": GREEN,
        "lost": RED,
        "destroyed": RED,
        "preview": AMBER,
    }
)
"""The effects every game's table shows, and their colours; ``effect_<seat>`` keys give a side's shade."""

BASE_EFFECTS: Final = (
    "deploy",
    "movable",
    "destination",
    "charge",
    "preview",
    "selected",
    "melee",
    "firing",
    "under_fire",
    "won",
    "lost",
    "destroyed",
    "illegal",
)
"""The shared effects, from the least to the most urgent."""


@dataclass(frozen=True, slots=True)
class Effects:
    """A table's light effects: each effect's colour and their order from the least to the most urgent."""

    palette: Mapping[str, str] = field(default_factory=lambda: BASE_PALETTE)
    order: tuple[str, ...] = BASE_EFFECTS

    def __post_init__(self) -> None:
        missing = [e for e in self.order if e not in self.palette]
        if missing:
            raise ValueError(f"effects without a colour: {', '.join(missing)}")
        for name, hue in self.palette.items():
            if not _HEX.match(hue):
                raise ValueError(
                    f"effect {name!r}: colour must be CSS hex #rrggbb in lower case, got {hue!r}"
                )

    def extend(self, palette: Mapping[str, str], order: Sequence[str]) -> Effects:
        """These effects and a game's own: ``order`` is the whole order, shared effects included."""
        merged = {**self.palette, **palette}
        unknown = set(order) - {e for e in merged if not _is_shade(e, merged)}
        if unknown:
            raise ValueError(f"effects in the order without a colour: {', '.join(sorted(unknown))}")
        left_out = [e for e in self.order if e not in order]
        if left_out:
            raise ValueError(f"the order leaves out shared effects: {', '.join(left_out)}")
        return Effects(MappingProxyType(merged), tuple(order))

    def colour(self, effect: str, side: int | None = None) -> str:
        """The colour of an effect, in a side's own shade if the palette has one."""
        return colour(effect, self.palette, side)

    def ordered(self, lights: Iterable[Light]) -> list[Light]:
        """The lights without repeats, least urgent effect first; the order within an effect is kept."""
        rank = {e: i for i, e in enumerate(self.order)}
        seen: set[Light] = set()
        unique = []
        for light in lights:
            if light not in seen:
                seen.add(light)
                unique.append(light)
        return sorted(unique, key=lambda x: rank.get(x.effect, len(rank)))  # sorted() is stable


def _is_shade(effect: str, palette: Mapping[str, str]) -> bool:
    """Whether a palette key is a side's shade of another effect (``enchanted_0``)."""
    base, _, suffix = effect.rpartition("_")
    return suffix.isdigit() and base in palette


BASE: Final = Effects()
"""The shared effects alone."""


@dataclass(frozen=True, slots=True)
class Light:
    """One place's light effect: what the table shows there, in which colour and pattern, and when.

    A hex table's light names a ``cell``; a free table's names ``at`` and ``radius`` (a spot) or ``area`` (a
    polygon in inches); a region map's names a ``region``. Exactly one kind of place."""

    cell: Cell | None
    effect: str
    colour: str
    pattern: str
    delay_ms: int = 0
    duration_ms: int | None = None  # None: until the next view replaces the lights
    at: Point | None = None  # a spot's centre, in inches (a free table)
    radius: float | None = None  # a spot's radius, in inches
    area: tuple[Point, ...] | None = None  # a polygon of a free table, in inches
    region: str | None = None  # a region of a map, by its id

    @classmethod
    def spot(
        cls,
        at: Point,
        radius: float,
        effect: str,
        colour: str,
        pattern: str,
        delay_ms: int = 0,
        duration_ms: int | None = None,
    ) -> Light:
        """A light on a free table: a disc of ``radius`` inches at ``at``."""
        point = (round(float(at[0]), 2), round(float(at[1]), 2))
        return cls(None, effect, colour, pattern, delay_ms, duration_ms, point, round(float(radius), 2))

    @classmethod
    def over_area(
        cls,
        area: Sequence[Point],
        effect: str,
        colour: str,
        pattern: str,
        delay_ms: int = 0,
        duration_ms: int | None = None,
    ) -> Light:
        """A light over an area of a free table: a polygon of at least three points in inches."""
        corners = tuple((round(float(x), 2), round(float(y), 2)) for x, y in area)
        return cls(None, effect, colour, pattern, delay_ms, duration_ms, area=corners)

    @classmethod
    def on_region(
        cls,
        region: str,
        effect: str,
        colour: str,
        pattern: str,
        delay_ms: int = 0,
        duration_ms: int | None = None,
    ) -> Light:
        """A light on a region of a map."""
        return cls(None, effect, colour, pattern, delay_ms, duration_ms, region=region)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Light:
        """The light a ``to_json`` object describes (its inverse); a malformed object raises ValueError."""
        try:
            cell = data.get("cell")
            at = data.get("at")
            area = data.get("area")
            duration = data.get("duration_ms")
            radius = data.get("radius")
            return cls(
                cell=None if cell is None else (int(cell[0]), int(cell[1])),
                effect=str(data["effect"]),
                colour=str(data["colour"]),
                pattern=str(data["pattern"]),
                delay_ms=int(data.get("delay_ms", 0)),
                duration_ms=None if duration is None else int(duration),
                at=None if at is None else (float(at[0]), float(at[1])),
                radius=None if radius is None else float(radius),
                area=None if area is None else tuple((float(x), float(y)) for x, y in area),
                region=None if data.get("region") is None else str(data["region"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a light: {exc!r} in {dict(data)!r}") from exc

    @property
    def place(self) -> str:
        """The kind of place lit: "cell", "spot", "area" or "region"."""
        if self.cell is not None:
            return "cell"
        if self.at is not None:
            return "spot"
        return "area" if self.area is not None else "region"

    def __post_init__(self) -> None:
        # A bad light is a bug in the table layer: refuse it here rather than on a screen or an LED.
        places = [p for p in (self.cell, self.at, self.area, self.region) if p is not None]
        if len(places) != 1:
            raise ValueError(
                "a light names exactly one place: a cell, a spot's point (at), an area or a region"
            )
        if self.area is not None and len(self.area) < 3:
            raise ValueError(f"an area needs at least three corners, got {len(self.area)}")
        if self.region is not None and not self.region:
            raise ValueError("a region light needs the region's id")
        if self.at is not None and (self.radius is None or not self.radius > 0):
            raise ValueError(f"a spot needs a positive radius, got {self.radius!r}")
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown light pattern {self.pattern!r}; expected one of {', '.join(PATTERNS)}")
        if not _HEX.match(self.colour):
            raise ValueError(f"a light's colour must be CSS hex #rrggbb in lower case, got {self.colour!r}")
        if self.delay_ms < 0 or (self.duration_ms is not None and self.duration_ms <= 0):
            raise ValueError(f"bad timing for a light: delay {self.delay_ms}, duration {self.duration_ms}")

    def to_json(self) -> JSON:
        """The light as the protocol's JSON object (a spot adds ``at`` and ``radius``, an area ``area``, a
        region ``region``; their ``cell`` is null)."""
        out: JSON = {
            "cell": None if self.cell is None else [self.cell[0], self.cell[1]],
            "effect": self.effect,
            "colour": self.colour,
            "pattern": self.pattern,
            "delay_ms": self.delay_ms,
            "duration_ms": self.duration_ms,
        }
        if self.at is not None:
            out["at"] = [self.at[0], self.at[1]]
            out["radius"] = self.radius
        if self.area is not None:
            out["area"] = [[x, y] for x, y in self.area]
        if self.region is not None:
            out["region"] = self.region
        return out


def colour(effect: str, palette: Mapping[str, str] = BASE_PALETTE, side: int | None = None) -> str:
    """The colour of an effect, in a side's own shade if the palette has one."""
    if side is not None and f"{effect}_{side}" in palette:
        return palette[f"{effect}_{side}"]
    return palette[effect]


def on_board(cell: Cell, width: int, height: int) -> bool:
    """Whether an odd-r cell lies on a ``width`` x ``height`` board."""
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def lights_json(lights: Iterable[Light]) -> list[JSON]:
    """A list of lights as JSON, for a view or an answer."""
    return [light.to_json() for light in lights]
