"""Light effects per cell or spot: the one list that the browser's virtual table and a hardware bridge render.

A ``Light`` is one cell and one effect (docs/protocol.md, *Lights*). On a free table measured in inches
(Valhalla) there are no cells: a light is a **spot**, a disc at a point ``at`` (inches from the bottom-left
corner) of ``radius`` inches, for an LED strip under a glass top or a projector to show. Its colour comes from
a palette keyed by effect, so a physical table whose LEDs show other hues can pass its own palette to the
adapter. Patterns:

- ``steady``: on for ``duration_ms`` (None: until the next view);
- ``flash``: on and off (firing, under fire, destroyed);
- ``alternate``: the lights of one effect on one cell take turns in list order (melee: a green light,
  then a red one, on each unit in close combat, VX-14-06);
- ``wave``: on once at ``delay_ms`` for ``duration_ms``; a spell's wave is one ring per step outwards;
- ``flicker``: irregular, like embers (lava);
- ``pulse``: slow breathing (a portal).

Several lights may fall on one cell. ``ordered`` lists them from the least to the most urgent effect
(``EFFECTS``), so a table with a single LED per cell shows the last light of each cell.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from iwgt.core.protocol import JSON

Cell = tuple[int, int]
"""An odd-r offset cell [column, row], the form of the scenario files and the protocol."""

Point = tuple[float, float]
"""A point of a free table in inches from its bottom-left corner (the centre of a spot)."""

PATTERNS: Final = ("steady", "flash", "alternate", "wave", "flicker", "pulse")
"""Every pattern a renderer must know."""

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

PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "deploy": WHITE,
        "movable": WHITE,
        "selected": BLUE,
        "destination": GREEN,
        "charge": AMBER,
        "fly": SKY,
        "illegal": RED,
        "firing": GREEN,
        "under_fire": RED,
        "melee": GREEN,  # the first colour of the alternation
        "melee_alt": RED,  # the second
        "won": GREEN,
        "lost": RED,
        "weakened": YELLOW,
        "critical": ORANGE,
        "destroyed": RED,
        "spell_wave": VIOLET,
        "enchanted": VIOLET,  # a side's own shade below, when the side is known
        "enchanted_0": VIOLET_LIGHT,
        "enchanted_1": VIOLET_DARK,
        "command": TEAM_LIGHT,
        "command_0": TEAM_LIGHT,
        "command_1": TEAM_DARK,
        "lava": DEEP_ORANGE,
        "portal": CYAN,
        "preview": AMBER,
        "aim": PURPLE,  # a figure a shooter may shoot at (Valhalla)
        "approach": AMBER,  # a point at an enemy's 2" zone from which a charge may follow (Valhalla)
        "shocked": YELLOW,  # a figure with shock markers (Valhalla)
        "wounded": ORANGE,  # a wounded figure (Valhalla)
    }
)
"""Effect -> colour; ``effect_<seat>`` keys give a side's shade (enchanted, command)."""

EFFECTS: Final = (
    "deploy",
    "portal",
    "lava",
    "movable",
    "command",
    "enchanted",
    "weakened",
    "critical",
    "shocked",
    "wounded",
    "spell_wave",
    "destination",
    "fly",
    "charge",
    "approach",
    "aim",
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
"""Every effect, from the least to the most urgent (the order of ``ordered``)."""

_HEX = re.compile(r"^#[0-9a-f]{6}$")
_RANK = {e: i for i, e in enumerate(EFFECTS)}


@dataclass(frozen=True, slots=True)
class Light:
    """One cell's (or one spot's) light effect: what the table shows there, in which colour and pattern, and
    when. A hex table's light names a ``cell``; a free table's names ``at`` and ``radius`` instead."""

    cell: Cell | None
    effect: str
    colour: str
    pattern: str
    delay_ms: int = 0
    duration_ms: int | None = None  # None: until the next view replaces the lights
    at: Point | None = None  # a spot's centre, in inches (a free table)
    radius: float | None = None  # a spot's radius, in inches

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

    def __post_init__(self) -> None:
        # A bad light is a bug in the table layer: refuse it here rather than on a screen or an LED.
        if (self.cell is None) == (self.at is None):
            raise ValueError("a light names either a cell or a spot's point (at), not both or neither")
        if self.at is not None and (self.radius is None or not self.radius > 0):
            raise ValueError(f"a spot needs a positive radius, got {self.radius!r}")
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown light pattern {self.pattern!r}; expected one of {', '.join(PATTERNS)}")
        if not _HEX.match(self.colour):
            raise ValueError(f"a light's colour must be CSS hex #rrggbb in lower case, got {self.colour!r}")
        if self.delay_ms < 0 or (self.duration_ms is not None and self.duration_ms <= 0):
            raise ValueError(f"bad timing for a light: delay {self.delay_ms}, duration {self.duration_ms}")

    def to_json(self) -> JSON:
        """The light as the protocol's JSON object (a spot adds ``at`` and ``radius``, its ``cell`` null)."""
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
        return out


def colour(effect: str, palette: Mapping[str, str] = PALETTE, side: int | None = None) -> str:
    """The colour of an effect, in a side's own shade if the palette has one."""
    if side is not None and f"{effect}_{side}" in palette:
        return palette[f"{effect}_{side}"]
    return palette[effect]


def on_board(cell: Cell, width: int, height: int) -> bool:
    """Whether an odd-r cell lies on a ``width`` x ``height`` board."""
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def ordered(lights: Iterable[Light]) -> list[Light]:
    """The lights without repeats, least urgent effect first; the order within an effect is kept."""
    seen: set[Light] = set()
    unique = []
    for light in lights:
        if light not in seen:
            seen.add(light)
            unique.append(light)
    return sorted(unique, key=lambda x: _RANK.get(x.effect, len(_RANK)))  # sorted() is stable


def lights_json(lights: Iterable[Light]) -> list[JSON]:
    """A list of lights as JSON, for a view or an answer."""
    return [light.to_json() for light in lights]
