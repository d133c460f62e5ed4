"""Scenario files (TOML): board, terrain, deployment and entry zones, armies (late troops included),
points limit, victory, turn limit."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.units import Side, unit_types
from iwgt.geometry.hexgrid import Hex, HexBoard, board, offset_to_hex

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SIDES: tuple[Side, Side] = ("light", "darkness")
"""Seat 0 commands the Forces of the Light, seat 1 the Forces of Darkness."""

TerrainKind = Literal["impassable", "difficult", "quicksand", "temple"]
VictoryCondition = Literal["annihilation", "leader", "points"]
Offset = tuple[int, int]


class TerrainPatch(DataModel):
    """Cells (odd-r offset [col, row]) holding one kind of infrastructure feature (section 5)."""

    kind: TerrainKind
    cells: tuple[Offset, ...] = Field(min_length=1)
    name: str = ""


class Zone(DataModel):
    """A side's deployment (or entry) cells: whole rows (first, last inclusive) and/or listed cells."""

    rows: tuple[int, int] | None = None
    cells: tuple[Offset, ...] = ()

    @model_validator(mode="after")
    def _not_empty(self) -> Zone:
        if self.rows is None and not self.cells:
            raise ValueError("a zone needs 'rows' or 'cells'")
        return self


class Placement(DataModel):
    """One unit of an army: its type id and starting cell, or, for a late troop, its turn of arrival.

    A late troop (VX-15-24) has ``arrives = N`` (turn 2 or later) and no cell: it waits off the table,
    in reserve, until its owner adds it to the table in his movement phase of turn N or later.
    """

    unit: str
    cell: Offset | None = None
    arrives: int | None = Field(default=None, ge=2)

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, value: str) -> str:
        if value not in unit_types():
            raise ValueError(f"unknown unit type {value!r} (see `iwgt units valkyrx`)")
        return value


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    title: str
    description: str = ""
    width: int = Field(ge=2, le=64)
    height: int = Field(ge=2, le=64)
    turn_limit: int | None = Field(default=None, ge=1)
    points_limit: int | None = Field(default=None, ge=0)
    victory: tuple[VictoryCondition, ...] = ("annihilation",)
    terrain: tuple[TerrainPatch, ...] = ()
    deployment: dict[Side, Zone]
    entry: dict[Side, Zone] = Field(default_factory=dict)  # where late troops come on (VX-15-24)
    army: dict[Side, tuple[Placement, ...]]

    @model_validator(mode="after")
    def _consistent(self) -> ScenarioFile:
        def on_board(where: str, cell: Offset) -> None:
            col, row = cell
            if not (0 <= col < self.width and 0 <= row < self.height):
                raise ValueError(f"{where}: cell {list(cell)} is off the {self.width}x{self.height} board")

        def zone_on_board(where: str, spec: Zone) -> None:
            if spec.rows is not None:
                first, last = spec.rows
                if not 0 <= first <= last < self.height:
                    raise ValueError(
                        f"{where}.rows: {list(spec.rows)} must be [first, last] within 0..{self.height - 1}"
                    )
            for i, cell in enumerate(spec.cells):
                on_board(f"{where}.cells.{i}", cell)

        for side in SIDES:
            if side not in self.deployment:
                raise ValueError(f"deployment.{side}: is missing")
            zone_on_board(f"deployment.{side}", self.deployment[side])
            if side not in self.army or not self.army[side]:
                raise ValueError(f"army.{side}: needs at least one unit")
            if all(p.arrives is not None for p in self.army[side]):
                raise ValueError(
                    f"army.{side}: needs at least one unit on the table from the start "
                    "(every unit has 'arrives')"
                )
            if side in self.entry:
                zone_on_board(f"entry.{side}", self.entry[side])
                if not any(p.arrives is not None for p in self.army[side]):
                    raise ValueError(
                        f"entry.{side}: the {side} has no late troops (no unit with 'arrives') "
                        "to bring on here (VX-15-24)"
                    )
        seen: dict[Offset, str] = {}
        for i, patch in enumerate(self.terrain):
            for cell in patch.cells:
                on_board(f"terrain.{i}", cell)
                if cell in seen:
                    raise ValueError(f"terrain.{i}: cell {list(cell)} already holds {seen[cell]}")
                seen[cell] = patch.kind
        occupied: set[Offset] = set()
        last_turn = self.turn_limit or rules_config().victory.turn_limit_default
        for side in SIDES:
            if side in self.entry and not self.entry_cells(side) - {
                c for c, k in seen.items() if k in ("impassable", "temple")
            }:
                raise ValueError(f"entry.{side}: no cell of the zone can take a unit (impassable, Temple)")
            zone = self.deployment_cells(side)
            total = 0
            for i, p in enumerate(self.army[side]):
                where = f"army.{side}.{i}"
                total += unit_types()[p.unit].points  # late troops are part of the army (VX-06-02)
                if p.arrives is not None:
                    if p.cell is not None:
                        raise ValueError(
                            f"{where}.cell: a late troop (arrives = {p.arrives}) has no starting cell; "
                            "it is placed on an entry cell when it arrives (VX-15-24)"
                        )
                    if p.arrives > last_turn:
                        raise ValueError(
                            f"{where}.arrives: turn {p.arrives} comes after the last turn, {last_turn}"
                        )
                    continue
                if p.cell is None:
                    raise ValueError(
                        f"{where}.cell: is missing (only a late troop, with 'arrives', starts off the table)"
                    )
                on_board(where, p.cell)
                if p.cell in occupied:
                    raise ValueError(f"{where}: cell {list(p.cell)} already holds a unit (one unit per cell)")
                if seen.get(p.cell) == "impassable":
                    raise ValueError(f"{where}: cell {list(p.cell)} is impassable")
                if p.cell not in zone:
                    raise ValueError(f"{where}: cell {list(p.cell)} is outside the {side} deployment zone")
                occupied.add(p.cell)
            if self.points_limit is not None and total > self.points_limit:
                raise ValueError(
                    f"army.{side}: the army costs {total} points, "
                    f"over the limit of {self.points_limit} (VX-06-02)"
                )
        return self

    def _zone_cells(self, zone: Zone) -> frozenset[Offset]:
        cells = set(zone.cells)
        if zone.rows is not None:
            first, last = zone.rows
            cells.update((c, r) for r in range(first, last + 1) for c in range(self.width))
        return frozenset(cells)

    def deployment_cells(self, side: Side) -> frozenset[Offset]:
        """The side's deployment cells as offsets."""
        return self._zone_cells(self.deployment[side])

    def entry_cells(self, side: Side) -> frozenset[Offset]:
        """The side's entry cells for late troops as offsets: its ``[entry]`` zone, else its deployment."""
        return self._zone_cells(self.entry[side]) if side in self.entry else self.deployment_cells(side)


@dataclass(frozen=True, eq=False)
class ValkyrxScenario:
    """A loaded scenario: the validated file, its source text, and the board derived from it."""

    spec: ScenarioFile
    source: str = field(repr=False)

    @property
    def name(self) -> str:
        """Short name."""
        return self.spec.name

    @cached_property
    def board(self) -> HexBoard:
        """The hex board."""
        return board(self.spec.width, self.spec.height)

    @cached_property
    def terrain(self) -> dict[Hex, TerrainKind]:
        """Infrastructure by cell."""
        return {offset_to_hex(*c): p.kind for p in self.spec.terrain for c in p.cells}

    @cached_property
    def deployment(self) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """Deployment cells per seat (VX-02-12), impassable cells left out."""
        imp = {h for h, k in self.terrain.items() if k == "impassable"}
        return tuple(  # type: ignore[return-value]
            frozenset(offset_to_hex(*c) for c in self.spec.deployment_cells(s)) - imp for s in SIDES
        )

    @cached_property
    def entry_zones(self) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """Entry cells of late troops per seat (VX-15-24), impassable cells left out."""
        imp = {h for h, k in self.terrain.items() if k == "impassable"}
        return tuple(  # type: ignore[return-value]
            frozenset(offset_to_hex(*c) for c in self.spec.entry_cells(s)) - imp for s in SIDES
        )

    @cached_property
    def arrivals(self) -> tuple[int | None, ...]:
        """The turn each unit arrives, by unit id (armies in seat order); None: there from the start."""
        return tuple(p.arrives for side in SIDES for p in self.spec.army[side])

    @cached_property
    def entry_costs(self) -> tuple[int, ...]:
        """Cost to enter each cell, by board index: 0 impassable, +1 for difficult ground (VX-05-04)."""
        extra = rules_config().movement.difficult_extra_cost
        out = []
        for cell in self.board.cells:
            kind = self.terrain.get(cell)
            if kind == "impassable":
                out.append(0)
            elif kind in ("difficult", "quicksand"):  # quicksand "impairs movement" too (VX-05-05)
                out.append(1 + extra)
            else:
                out.append(1)
        return tuple(out)

    @property
    def turn_limit(self) -> int:
        """The last turn."""
        return self.spec.turn_limit or rules_config().victory.turn_limit_default


def parse_scenario(text: str, origin: str) -> ValkyrxScenario:
    """A scenario from TOML text; errors name the origin, the key and what was expected."""
    data = parse_toml(text, origin)
    return ValkyrxScenario(spec=validate(ScenarioFile, data, origin), source=text)


def scenario_names() -> list[str]:
    """The shipped scenarios."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> ValkyrxScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
