"""Forged upon an Anvil scenario files (TOML): the table and its tray, the DCP budget, the win condition,
the turn limit, the terrain palette and each side's name and suggested army (FA-GN-02..06, FA-MS-02/06).

``armies = "fixed"`` plays the sides' armies as given (no muster); ``"build"`` asks each player for an army
list at muster, the suggested one being offered among the legal actions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from shapely.geometry import Polygon

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate
from iwgt.games.anvil.actions import Army, ArmyEntry

SCENARIO_DIR = Path(__file__).parent / "scenarios"
XY = tuple[float, float]


class UnitSpec(DataModel):
    """One unit of a side's army list."""

    type: Literal["hero", "wizard", "monster", "knight", "war_machine", "troop"]
    name: str = Field(min_length=1, max_length=40)
    general: bool = False
    stratagems: tuple[str, ...] = ()


class SideSpec(DataModel):
    """A side: its name, colour and army (fixed, or suggested at muster)."""

    name: str = Field(min_length=1, max_length=40)
    colour: str = Field(default="", pattern=r"^(#[0-9a-fA-F]{6})?$")
    seat_name: str = Field(default="Seat of Power", min_length=1, max_length=40)
    army: tuple[UnitSpec, ...] = Field(min_length=1, max_length=64)


class PieceSpec(DataModel):
    """A terrain piece of the palette: a polygon around its own centre (FA-FB-04 decided)."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=32)
    name: str = Field(min_length=1, max_length=40)
    outline: tuple[XY, ...] = Field(min_length=3, max_length=32)


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    title: str = Field(min_length=1)
    description: str = ""
    width: float = Field(ge=12, le=144)
    height: float = Field(ge=12, le=144)
    tray: tuple[float, float] = (3.0, 1.5)
    figures: int = Field(default=3, ge=1, le=12)
    dcp: int = Field(ge=1, le=200)
    win: Literal["general", "seat"] = "general"
    turns: int | None = Field(default=None, ge=1, le=100)
    premeasure: bool = True
    armies: Literal["fixed", "build"] = "build"
    terrain: tuple[PieceSpec, ...] = Field(min_length=1, max_length=16)
    sides: tuple[SideSpec, SideSpec]

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioFile:
        front, depth = self.tray
        for key, v in (("width", self.width), ("height", self.height), ("tray.0", front), ("tray.1", depth)):
            if not math.isfinite(v):
                raise ValueError(f"{key}: {v} is not a finite number of inches")
        if not (0.5 <= front <= 12 and 0.5 <= depth <= 12):
            raise ValueError(f"tray: {front:g} x {depth:g} must be 0.5 to 12 inches each way")
        keys = [p.key for p in self.terrain]
        if len(set(keys)) != len(keys):
            raise ValueError("terrain: two pieces share a key")
        for i, p in enumerate(self.terrain):
            if not all(math.isfinite(c) for xy in p.outline for c in xy):
                raise ValueError(f"terrain.{i}.outline: not points of finite inches")
            poly = Polygon(p.outline)
            if not poly.is_valid or poly.area <= 0:
                raise ValueError(f"terrain.{i}.outline: not a simple polygon with an area")
            if (
                not poly.contains(poly.centroid)
                or max(max(abs(x), abs(y)) for x, y in p.outline) > min(self.width, self.height) / 2
            ):
                raise ValueError(
                    f"terrain.{i}.outline: must lie around its own centre (0, 0), within the table"
                )
        for s, side in enumerate(self.sides):
            generals = [i for i, u in enumerate(side.army) if u.general]
            if len(generals) != 1:
                raise ValueError(
                    f"sides.{s}.army: exactly one General's unit, found {len(generals)} (FA-GN-04)"
                )
            problems = army_problems(as_army(side.army), self.dcp)
            if problems:
                raise ValueError(f"sides.{s}.army: {problems[0]}")
        return self


def as_army(units: tuple[UnitSpec, ...]) -> Army:
    """A side's army list as the muster action gives it."""
    return Army(tuple(ArmyEntry(u.type, u.name, u.general, tuple(u.stratagems)) for u in units))


def army_problems(army: Army, budget: int) -> list[str]:
    """What is wrong with an army list, each problem citing its clause (empty: a legal army)."""
    from iwgt.games.anvil.army import problems_of

    return problems_of(army, budget)


@dataclass(frozen=True)
class AnvilScenario:
    """A parsed scenario: the validated file and its TOML text (so a record is self-contained)."""

    spec: ScenarioFile
    source: str

    @property
    def name(self) -> str:
        """The scenario's short name."""
        return self.spec.name

    @cached_property
    def armies(self) -> tuple[Army, Army]:
        """Each side's army list (fixed, or suggested at muster)."""
        return (as_army(self.spec.sides[0].army), as_army(self.spec.sides[1].army))

    def piece(self, key: str) -> PieceSpec | None:
        """A terrain piece of the palette by key."""
        return next((p for p in self.spec.terrain if p.key == key), None)

    def seat_names(self) -> tuple[str, str]:
        """Each seat's name: its side's name."""
        return (self.spec.sides[0].name, self.spec.sides[1].name)


def parse_scenario(text: str, origin: str) -> AnvilScenario:
    """A scenario from TOML text; a broken file raises DataFileError naming the key."""
    return AnvilScenario(validate(ScenarioFile, parse_toml(text, origin), origin), text)


def scenario_names() -> list[str]:
    """The shipped scenarios."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> AnvilScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
