"""Valhalla scenario files (TOML): the table and its terrain, the players and their figures, things to
carry, baggage, objectives and the turn limit (VH-MS-01, VH-MS-02, VH-WL-07)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from shapely.geometry import LineString, Point, Polygon

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate
from iwgt.games.valhalla.config import rules
from iwgt.geometry.plane import XY, Area, Ground, Hill, Obstacle

SCENARIO_DIR = Path(__file__).parent / "scenarios"
MAX_PLAYERS = 17
"""A 52-card deck deals three cards to at most 17 players (VH-TS-01)."""
BAGGAGE_RADIUS = 1.0
"""A baggage cart or mule stands on a 2" base."""
THING_RADIUS = 0.25
"""A thing to carry (a chest, a banner) is a marker of half an inch."""


class AreaSpec(DataModel):
    """A woods or village area."""

    kind: Literal["woods", "village"]
    outline: tuple[XY, ...] = Field(min_length=3)
    name: str = ""


class HillSpec(DataModel):
    """A hill: outline, height in levels, slope width in inches."""

    outline: tuple[XY, ...] = Field(min_length=3)
    height: int = Field(default=1, ge=1, le=5)
    slope: float = Field(default=1.5, gt=0, le=12)
    name: str = ""


class ObstacleSpec(DataModel):
    """A fence, hedge, wall or stream: a line a plain move may not cross."""

    kind: Literal["fence", "hedge", "wall", "stream", "obstacle"]
    line: tuple[XY, ...] = Field(min_length=2)
    name: str = ""


class PlayerSpec(DataModel):
    """One player: a side, a name, and where the hero, the warrior and the archer (or slinger) start."""

    name: str = Field(min_length=1, max_length=40)
    side: int = Field(ge=0, le=1)
    hero: XY
    warrior: XY
    archer: XY | None = None
    slinger: XY | None = None
    hero_name: str = ""
    warrior_name: str = ""
    archer_name: str = ""

    @model_validator(mode="after")
    def _one_shooter(self) -> PlayerSpec:
        if (self.archer is None) == (self.slinger is None):
            raise ValueError("a player has exactly one archer or one slinger (VH-CB-03)")
        return self


class SideSpec(DataModel):
    """A side's name and colour."""

    name: str = Field(min_length=1, max_length=40)
    colour: str = Field(default="", pattern=r"^(#[0-9a-fA-F]{6})?$")


class ThingSpec(DataModel):
    """Something a figure may pick up and carry (VH-AC-12)."""

    name: str = Field(min_length=1)
    at: XY


class BaggageSpec(DataModel):
    """A side's baggage: a cart or mule its side moves up to 6" at the end of each turn (VH-AC-04)."""

    name: str = Field(min_length=1)
    side: int = Field(ge=0, le=1)
    at: XY


class ObjectiveSpec(DataModel):
    """An objective worth 3 coins to its side, scored once (VH-WL-07).

    ``carry``: a figure of the side carries ``thing`` into ``zone``; ``reach``: a figure of the side stands
    in ``zone``; ``plunder``: a figure of the side touches the enemy ``baggage`` with no enemy within 2".
    """

    side: int = Field(ge=0, le=1)
    kind: Literal["carry", "reach", "plunder"]
    title: str = Field(min_length=1)
    thing: str = ""
    baggage: str = ""
    zone: tuple[XY, ...] = ()


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    title: str
    description: str = ""
    width: float = Field(ge=6, le=144)
    height: float = Field(ge=6, le=144)
    turn_limit: int = Field(default=8, ge=1, le=100)
    sides: tuple[SideSpec, SideSpec]
    players: tuple[PlayerSpec, ...] = Field(min_length=2, max_length=MAX_PLAYERS)
    areas: tuple[AreaSpec, ...] = ()
    hills: tuple[HillSpec, ...] = ()
    obstacles: tuple[ObstacleSpec, ...] = ()
    things: tuple[ThingSpec, ...] = ()
    baggage: tuple[BaggageSpec, ...] = ()
    objectives: tuple[ObjectiveSpec, ...] = ()

    def _points(self) -> list[tuple[str, XY]]:
        """Every point of the file with its key, for the finite check."""
        out: list[tuple[str, XY]] = []
        for i, p in enumerate(self.players):
            out += [(f"players.{i}.{role}", at) for role, at in self._bases_of(p)]
        outlines = [("areas", i, a.outline) for i, a in enumerate(self.areas)]
        outlines += [("hills", i, h.outline) for i, h in enumerate(self.hills)]
        for kind, i, outline in outlines:
            out += [(f"{kind}.{i}.outline.{k}", xy) for k, xy in enumerate(outline)]
        for i, ob in enumerate(self.obstacles):
            out += [(f"obstacles.{i}.line.{k}", xy) for k, xy in enumerate(ob.line)]
        out += [(f"things.{i}.at", t.at) for i, t in enumerate(self.things)]
        out += [(f"baggage.{i}.at", b.at) for i, b in enumerate(self.baggage)]
        for i, o in enumerate(self.objectives):
            out += [(f"objectives.{i}.zone.{k}", xy) for k, xy in enumerate(o.zone)]
        return out

    @staticmethod
    def _bases_of(p: PlayerSpec) -> list[tuple[str, XY]]:
        """A player's figures that stand on the table: (role, centre)."""
        roles = ("hero", "warrior", "archer", "slinger")
        return [(role, at) for role in roles if (at := getattr(p, role)) is not None]

    def _check_places(self) -> None:
        """Every base and marker on the table, no two bases on one another (the table's invariants)."""
        for key, xy in self._points():  # TOML allows nan and inf: no geometry survives them
            if not all(math.isfinite(v) for v in xy):
                raise ValueError(f"{key}: {list(xy)} is not a point of finite inches")
        r = rules().table.base_radius
        bases: list[tuple[str, XY, float]] = []
        for i, p in enumerate(self.players):
            bases += [(f"players.{i}.{role}", at, r) for role, at in self._bases_of(p)]
        bases += [(f"baggage.{i}.at", b.at, BAGGAGE_RADIUS) for i, b in enumerate(self.baggage)]
        markers = [*bases, *((f"things.{i}.at", t.at, THING_RADIUS) for i, t in enumerate(self.things))]
        for key, at, radius in markers:
            if not (radius <= at[0] <= self.width - radius and radius <= at[1] <= self.height - radius):
                raise ValueError(f"{key}: {list(at)} is off the {self.width:g}x{self.height:g} table")
        # Figures and baggage are solid: none may stand on another (a thing lies under whoever stands there).
        for n, (key, at, radius) in enumerate(bases):
            for other, at2, radius2 in bases[:n]:
                if math.dist(at, at2) < radius + radius2 - 1e-9:
                    raise ValueError(f"{key}: {list(at)} overlaps {other} at {list(at2)}")
        # No base starts straddling a fence, hedge, wall or stream: moves keep bases clear of them (VH-AC-08).
        lines = [(i, ob.kind, LineString(ob.line)) for i, ob in enumerate(self.obstacles)]
        for key, at, radius in bases:
            for i, kind, line in lines:
                if line.distance(Point(at)) < radius - 1e-9:
                    raise ValueError(f"{key}: {list(at)} has its base across obstacles.{i} (a {kind})")

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioFile:
        self._check_places()
        for s in (0, 1):
            if not any(p.side == s for p in self.players):
                raise ValueError(f"players: side {s} ({self.sides[s].name}) has no player")
        outlines = [("areas", i, a.outline) for i, a in enumerate(self.areas)]
        outlines += [("hills", i, h.outline) for i, h in enumerate(self.hills)]
        for kind, i, outline in outlines:
            poly = Polygon(outline)
            if not poly.is_valid or poly.area <= 0:
                raise ValueError(f"{kind}.{i}.outline: not a simple polygon with an area")
        for i, ob in enumerate(self.obstacles):
            if LineString(ob.line).length <= 0:
                raise ValueError(f"obstacles.{i}.line: has no length")
        names = {t.name for t in self.things}
        if len(names) != len(self.things):
            raise ValueError("things: two things share a name")
        carts = {b.name for b in self.baggage}
        for i, o in enumerate(self.objectives):
            if o.kind == "carry" and o.thing not in names:
                raise ValueError(f"objectives.{i}.thing: no thing named {o.thing!r}")
            if o.kind in ("carry", "reach") and len(o.zone) < 3:
                raise ValueError(f"objectives.{i}.zone: a {o.kind} objective needs a zone polygon")
            if o.kind == "plunder":
                cart = next((b for b in self.baggage if b.name == o.baggage), None)
                if cart is None:
                    raise ValueError(f"objectives.{i}.baggage: no baggage named {o.baggage!r}")
                if cart.side == o.side:
                    raise ValueError(
                        f"objectives.{i}.baggage: a side plunders the enemy's baggage, not its own"
                    )
        if len(carts) != len(self.baggage):
            raise ValueError("baggage: two carts share a name")
        return self


@dataclass(frozen=True)
class ValhallaScenario:
    """A parsed scenario: the validated file and its TOML text (so a record is self-contained)."""

    spec: ScenarioFile
    source: str

    @property
    def name(self) -> str:
        """The scenario's short name."""
        return self.spec.name

    @cached_property
    def ground(self) -> Ground:
        """The table with its terrain, for the geometry."""
        s = self.spec
        return Ground(
            width=s.width,
            height=s.height,
            areas=tuple(Area(a.kind, a.outline, a.name) for a in s.areas),
            hills=tuple(Hill(h.outline, h.height, h.slope, h.name) for h in s.hills),
            obstacles=tuple(Obstacle(o.kind, o.line, o.name) for o in s.obstacles),
            slow_cost=rules().actions.slow_cost,  # VH-AC-07
        )

    def side_seats(self, side: int) -> tuple[int, ...]:
        """The seats (players) on a side, in seat order."""
        return tuple(i for i, p in enumerate(self.spec.players) if p.side == side)

    def seat_names(self) -> tuple[str, ...]:
        """Each seat's name: the player's name and side."""
        return tuple(f"{p.name} ({self.spec.sides[p.side].name})" for p in self.spec.players)


def parse_scenario(text: str, origin: str) -> ValhallaScenario:
    """A scenario from TOML text; a broken file raises DataFileError naming the key."""
    return ValhallaScenario(validate(ScenarioFile, parse_toml(text, origin), origin), text)


def scenario_names() -> list[str]:
    """The shipped scenarios."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> ValhallaScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
