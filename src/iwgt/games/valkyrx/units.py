"""The Character Attributes Table (section 16) as validated data: every row, numbers as printed."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from iwgt.core.datafiles import DataModel, load_model

DATA_DIR = Path(__file__).parent / "data"

Side = Literal["light", "darkness"]
Rating = Literal["VL", "L", "A", "H", "VH"]
Trait = Literal[
    "flyer",  # single movement figure: flies (VX-16-03)
    "living_spirit",
    "elf",
    "dwarf",
    "wizard",
    "master_wizard",
    "magic_weapon",  # VX-08-01: magical weapons (deadly to the undead)
    "fire_weapon",  # VX-13-MODROF-3, VX-13-ASTIGEND-1
    "ice_weapon",  # VX-13-VERTIGRON-1
    "venom_weapon",  # VX-13-EKGLIDE-1
    "undead",  # VX-08-02
    "raises_dead",  # VX-13-UNDEAD-2
    "supreme_leader",  # VX-10-16
    "mutant",  # VX-13-MANGERE-2: the "mutant ranks"
    "despair",  # VX-13-MISTRIWAN-1
    "dread",  # VX-13-UNSIBB-1
    "fear",  # VX-13-WRAITHKING-2
    "immune_to_mortals",  # VX-13-WRAITHKING-1
    "devours_friends",  # VX-13-TROLL-1
    "unsettling",  # VX-13-TROLL-2
    "hates_dwarfs",  # VX-13-LAF-1
    "impetus",  # VX-13-MINOTAURS-1
    "stone",  # VX-13-TITAN-1
    "wickerwork",  # VX-13-WICKERMEN-1, -2
    "stealth",  # section 12 (next issue)
    "burrower",  # section 12 (next issue)
    "plague_bearer",  # VX-13-POCADL-1 (next issue)
    "war_machine",
    "mounted",
]


class UnitType(DataModel):
    """One row of the Character Attributes Table, plus the traits the profiles give it."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1)
    side: Side
    rank: Literal["principal", "secondary"]
    poses: int | None = Field(default=None, ge=1)
    miniature: str
    figs_per_base: str
    bodies: int = Field(ge=1)
    mount: str | None = None
    move: int = Field(ge=1)
    charge: int | None = Field(default=None, ge=1)
    attack: int = Field(ge=0)
    special: int = Field(ge=0)
    defence: int = Field(ge=1)
    range: int = Field(ge=1)
    rate_of_fire: int = Field(ge=0)
    accuracy: int = Field(ge=0, le=100)
    resist_magic: Rating | Literal["n/a"]
    melee: Rating
    morale: int
    points: int = Field(ge=0)
    traits: tuple[Trait, ...] = ()

    @model_validator(mode="after")
    def _charge_not_below_move(self) -> UnitType:
        if self.charge is not None and self.charge < self.move:
            raise ValueError(f"charge {self.charge} is below the normal move {self.move}")
        return self

    def has(self, trait: Trait) -> bool:
        """Whether the unit type has the trait."""
        return trait in self.traits

    @property
    def is_missile(self) -> bool:
        """A missile unit: weapon range over one cell (VX-08-04)."""
        return self.range > 1

    @property
    def is_character(self) -> bool:
        """Represented 1 to 1 (VX-02-04): one body."""
        return self.bodies == 1


class UnitTable(DataModel):
    """The whole attributes table: ``[[unit]]`` rows in ``units.toml``."""

    unit: tuple[UnitType, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitTable:
        seen: set[str] = set()
        for u in self.unit:
            if u.id in seen:
                raise ValueError(f"unit id {u.id!r} appears twice")
            seen.add(u.id)
        return self


@cache
def unit_types() -> dict[str, UnitType]:
    """Every unit type by id, in table order (loaded and validated once)."""
    table = load_model(UnitTable, DATA_DIR / "units.toml")
    return {u.id: u for u in table.unit}
