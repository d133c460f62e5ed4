"""Coloured-Dice scenario files (TOML): the table, the rounds, the terrain, the objectives and each side's
army and deployed units (CD-MS-02/06/07; designed: the source gives no scenarios).

Each unit names a profile of its side's army (``data/armies.toml``), its tray centre ``at``, its facing
(default: straight into the table), its files and order, and optionally its models (default: the profile's
unit size), whether it is the army's general and whether it carries the banner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import Field, model_validator
from shapely.geometry import Polygon

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate
from iwgt.games.coloured_dice.rules import rules

SCENARIO_DIR: Final = Path(__file__).parent / "scenarios"
XY = tuple[float, float]
ORDER_NAMES: Final = ("open", "skirmish", "loose", "tight")
"""A unit's orders (CD-AC-05..08)."""
DEPLOY_DEPTH: Final[float] = rules().constants.deploy_depth
"""Deployment within 12" of the own edge (designed, data)."""


class FeatureSpec(DataModel):
    """A terrain feature: its kind, a name, its outline in inches (table coordinates), a hill's height."""

    kind: str
    name: str = ""
    outline: tuple[XY, ...] = Field(min_length=3, max_length=64)
    height: float = Field(default=0.0, ge=0, le=5)

    @model_validator(mode="after")
    def _known(self) -> FeatureSpec:
        from iwgt.games.coloured_dice.rules import rules

        kinds = rules().terrain
        if self.kind not in kinds:
            raise ValueError(
                f"kind: {self.kind!r} is not one of {', '.join(kinds)} (data/rules.toml terrain)"
            )
        poly = Polygon(self.outline)
        if (
            not all(math.isfinite(c) for xy in self.outline for c in xy)
            or not poly.is_valid
            or poly.area <= 0
        ):
            raise ValueError("outline: not a simple polygon with an area")
        return self


class ObjectiveSpec(DataModel):
    """An objective: a point and its victory points (CD-MS-06/07 designed)."""

    at: XY
    vp: int = Field(ge=0, le=1000)
    name: str = ""


class UnitSpec(DataModel):
    """One deployed unit of a side."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=32)
    at: XY
    facing: float | None = None
    files: int = Field(ge=1, le=64)
    order: str = "loose"
    models: int | None = Field(default=None, ge=1, le=64)
    general: bool = False
    banner: bool = False
    name: str = ""

    @model_validator(mode="after")
    def _order(self) -> UnitSpec:
        if self.order not in ORDER_NAMES:
            raise ValueError(f"order: {self.order!r} is not one of {', '.join(ORDER_NAMES)}")
        return self


class SideSpec(DataModel):
    """A side: its army key (``data/armies.toml``), its name and its deployed units."""

    army: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = ""
    units: tuple[UnitSpec, ...] = Field(min_length=1, max_length=32)


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    title: str = Field(min_length=1)
    description: str = ""
    width: float = Field(ge=12, le=144)
    height: float = Field(ge=12, le=144)
    rounds: int = Field(default=6, ge=1, le=50)
    first: int = Field(default=0, ge=0, le=1)
    features: tuple[FeatureSpec, ...] = ()
    objectives: tuple[ObjectiveSpec, ...] = ()
    sides: tuple[SideSpec, SideSpec]

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioFile:
        for i, o in enumerate(self.objectives):
            x, y = o.at
            if not (0 <= x <= self.width and 0 <= y <= self.height):
                raise ValueError(f"objectives.{i}.at: ({x:g}, {y:g}) is off the table")
        for s, side in enumerate(self.sides):
            why = _army_problem(side)
            if why is not None:
                raise ValueError(f"sides.{s}.{why}")
            if sum(u.general for u in side.units) > 1:
                raise ValueError(f"sides.{s}.units: more than one general")
            for i, u in enumerate(side.units):
                x, y = u.at
                edge = y if s == 0 else self.height - y
                if not (0 <= x <= self.width and 0 <= edge <= DEPLOY_DEPTH):
                    raise ValueError(
                        f'sides.{s}.units.{i}.at: ({x:g}, {y:g}) is not within {DEPLOY_DEPTH:g}" '
                        "of the side's own edge (designed)"
                    )
        return self


def _army_problem(side: SideSpec) -> str | None:
    """What is wrong with a side's army and units against ``data/armies.toml`` (None: nothing)."""
    from iwgt.games.coloured_dice.rules import armies, orders_for

    known = armies()
    army = known.get(side.army)
    if army is None:
        return f"army: {side.army!r} is not one of {', '.join(known)}"
    for i, u in enumerate(side.units):
        p = army.units.get(u.key)
        if p is None:
            return f"units.{i}.key: {u.key!r} is not a unit type of {side.army} ({', '.join(army.units)})"
        allowed = orders_for(p)
        if u.order not in allowed:
            return f"units.{i}.order: {p.name} may take only {', '.join(allowed)} (CD-AC-05..08)"
    return None


@dataclass(frozen=True)
class CdScenario:
    """A parsed scenario: the validated file and its TOML text (so a record is self-contained)."""

    spec: ScenarioFile
    source: str

    @property
    def name(self) -> str:
        """The scenario's short name."""
        return self.spec.name

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return self.spec.rounds

    @property
    def width(self) -> float:
        """The table's width in inches."""
        return self.spec.width

    @property
    def height(self) -> float:
        """The table's depth in inches."""
        return self.spec.height

    def seat_names(self) -> tuple[str, str]:
        """Each seat's name: its side's name, else its army's name."""
        from iwgt.games.coloured_dice.rules import armies

        known = armies()
        names = []
        for side in self.spec.sides:
            army = known.get(side.army)
            names.append(side.name or (army.name if army is not None else side.army))
        return (names[0], names[1])


def parse_scenario(text: str, origin: str) -> CdScenario:
    """A scenario from TOML text; a broken file raises DataFileError naming the key."""
    return CdScenario(validate(ScenarioFile, parse_toml(text, origin), origin), text)


def scenario_names() -> list[str]:
    """The shipped scenarios."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> CdScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
