"""Forged upon an Anvil's rules as data (data/rules.toml), validated when loaded and read once."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from iwgt.core.datafiles import DataModel, load_model

DATA_DIR = Path(__file__).parent / "data"
RULES_FILE = DATA_DIR / "rules.toml"

UnitType = Literal["hero", "wizard", "monster", "knight", "war_machine", "troop", "seat"]
"""Every unit type of an army, the Seat of Power included."""
FightingType = Literal["hero", "wizard", "monster", "knight", "war_machine", "troop"]
"""The six types of the matrix; the Seat of Power fights as a Troop (FA-GN-07, FA-CRM-06)."""
Side = Literal["front", "flank", "rear"]
"""The side of a defender engaged (FA-EN-05)."""
Bouncer = Literal["attacker", "defender"]
"""Which unit a matrix cell makes bounce back (FA-CRM-04)."""
Group = Literal["interruption", "combat", "shooter", "heroic", "deployment", "spell", "movement"]
"""The stratagem lists of the text."""
Currency = Literal["CP", "DCP"]
"""CP: paid from the turn's CP when used; DCP: paid at deployment (FA-ST-04)."""
Requirement = Literal["shooter", "general"]
"""What a stratagem's user must be besides its type: deployed with Shooter, or the General's unit."""

UNIT_TYPES: tuple[UnitType, ...] = ("hero", "wizard", "monster", "knight", "war_machine", "troop", "seat")
"""The unit types in the order the text lists them."""
FIGHTING_TYPES: tuple[FightingType, ...] = ("hero", "wizard", "monster", "knight", "war_machine", "troop")
"""The matrix's types, in its column order."""
SIDES: tuple[Side, ...] = ("front", "flank", "rear")
"""The sides in their precedence order (FA-EN-06)."""
SEAT: UnitType = "seat"
"""The Seat of Power."""
SEAT_FIGHTS_AS: FightingType = "troop"
"""FA-GN-07: "The Seat of Power counts as a Troop"."""
NATE = "NATE"
"""A matrix side on which the attacker is not allowed to engage (FA-CRM-05)."""

_PRINTED = re.compile(
    r"^(?P<front>\d+ Front|NATE) (?P<flank>\d+ Flanks?|NATE) (?P<rear>\d+ Rear|NATE) "
    r"(?P<bounce>Attacker|Defender) BB$"
)


def fights_as(unit: UnitType) -> FightingType:
    """The matrix type a unit type fights as: the Seat of Power as a Troop (FA-CRM-06)."""
    return SEAT_FIGHTS_AS if unit == SEAT else unit  # type: ignore[return-value]


def clause_name(unit: FightingType) -> str:
    """A type as the matrix clause ids spell it: HERO, ..., WARMACHINE (FA-CRM-<ATT>-<DEF>)."""
    return unit.replace("_", "").upper()


class UnitProfile(DataModel):
    """A unit type's profile: the matrix's second row, "6"/4 HP" (FA-CRM-PROFILE-..)."""

    name: str = Field(min_length=1)
    plural: str = Field(min_length=1)
    move: float = Field(ge=0)
    hp: int = Field(ge=1)
    clause: str = Field(min_length=1)


class MatrixCell(DataModel):
    """One printed cell: damage by side engaged or "NATE", and who bounces back."""

    front: int | Literal["NATE"]
    flank: int | Literal["NATE"]
    rear: int | Literal["NATE"]
    bounce: Bouncer
    clause: str
    printed: str

    @model_validator(mode="after")
    def _as_printed(self) -> MatrixCell:
        """The numbers must be the printed cell's: a typo in either is caught when the file loads."""
        for side in SIDES:
            value = getattr(self, side)
            if isinstance(value, int) and value < 0:
                raise ValueError(f"{side} is {value}; damage is 0 or more")
        found = _PRINTED.match(self.printed)
        if not found:
            raise ValueError(f"printed {self.printed!r} is not a cell as the matrix prints them")
        for side in SIDES:
            word = found[side].split(" ")[0]
            printed: int | str = NATE if word == NATE else int(word)
            if printed != getattr(self, side):
                raise ValueError(f"{side} is {getattr(self, side)!r} but the printed cell says {printed!r}")
        if found["bounce"].lower() != self.bounce:
            raise ValueError(f"bounce is {self.bounce!r} but the printed cell says {found['bounce']} BB")
        return self


class Deployment(DataModel):
    """A row of the Unit Deployment table: availability and DCP (FA-UD-01..08)."""

    op: Literal["<=", ">=", "=="]
    percent: int | None = Field(default=None, ge=0, le=100)
    count: int | None = Field(default=None, ge=0)
    dcp: int = Field(ge=0)
    clause: str

    @model_validator(mode="after")
    def _one_measure(self) -> Deployment:
        """An availability is either a percentage of the army's DCP or a count, never both."""
        if (self.percent is None) == (self.count is None):
            raise ValueError("give exactly one of percent and count")
        return self

    @property
    def availability(self) -> str:
        """The availability as the table prints it: "<= 30%", ">= 40%" or "1"."""
        if self.count is not None:
            return str(self.count) if self.op == "==" else f"{self.op} {self.count}"
        return f"{self.op} {self.percent}%"


class Stratagem(DataModel):
    """A stratagem: its price, list, users (FA-ST-02) and the numbers of its effect."""

    key: str
    name: str = Field(min_length=1)
    cost: int
    currency: Currency
    group: Group
    users: tuple[FightingType, ...] = Field(min_length=1)
    requires: tuple[Requirement, ...] = ()
    or_general: bool = False
    printed_users: str
    clauses: tuple[str, ...] = Field(min_length=1)
    damage: int = 0
    hp: int = 0
    move_add: float = 0.0
    move_set: float | None = None
    range: float | None = Field(default=None, gt=0)
    harm: int = Field(default=0, ge=0)
    heal: int = Field(default=0, ge=0)
    keeps_hp: int = Field(default=0, ge=0)
    self_harm: int = Field(default=0, ge=0)
    distance: float | None = Field(default=None, gt=0)
    per_game: int | None = Field(default=None, ge=1)
    needs_los: bool = False

    @model_validator(mode="after")
    def _currency(self) -> Stratagem:
        """Deployment stratagems are priced in DCP and only they (FA-ST-04, FA-SD-12/15/17)."""
        if (self.group == "deployment") != (self.currency == "DCP"):
            raise ValueError(f"currency {self.currency} does not fit a {self.group} stratagem")
        if self.currency == "CP" and self.cost < 0:
            raise ValueError(f"cost {self.cost}: a stratagem paid in CP costs 0 or more")
        return self

    @property
    def clause(self) -> str:
        """The stratagem's first clause id: the one naming its cost and users."""
        return self.clauses[0]

    def usable_by(self, unit: UnitType, *, shooter: bool = False, general: bool = False) -> bool:
        """Whether a unit of this type (with Shooter, the General's) may use it (FA-ST-02, FA-GN-08)."""
        if unit == SEAT:
            return False
        if self.or_general and general:
            return True
        if unit not in self.users:
            return False
        return ("shooter" not in self.requires or shooter) and ("general" not in self.requires or general)


class Constants(DataModel):
    """The named numbers of the rules (inches, CP, counts)."""

    activation_cp: int = Field(ge=0)
    turn_cp: int = Field(ge=0)
    terrain_bid: int = Field(ge=0)
    extra_cp: tuple[int, ...] = Field(min_length=1)
    late_general_turn: int = Field(ge=1)
    late_general_cp: int = Field(ge=0)
    terrain_gap: float = Field(ge=0)
    seat_zone: float = Field(gt=0)
    seat_gap: float = Field(ge=0)
    bounce_back: float = Field(gt=0)
    stop_gap: float = Field(ge=0)
    enemy_gap: float = Field(ge=0)
    cannot_bb_loss: int = Field(ge=0)
    min_bounce: float = Field(gt=0)
    max_chain: int = Field(ge=1)
    excess_inches_per_hp: float = Field(ge=0)
    ballistics_rear: float = Field(gt=0)
    ballistics_flank: float = Field(gt=0)
    ballistics_front: float = Field(gt=0)
    flanking_depth: tuple[int, int]
    infiltrate_gaps: tuple[float, ...] = Field(min_length=1)
    champion_hp: int = Field(ge=1)
    contact: float = Field(ge=0)
    seat_worth: int = Field(ge=0)
    tray: tuple[float, float]
    figures: int = Field(ge=1)
    los_samples: int = Field(ge=2)
    corner_eps: float = Field(gt=0)

    @model_validator(mode="after")
    def _bands(self) -> Constants:
        """The Ballistics bands nest: rear within flank within front (FA-SS-02..04)."""
        if not self.ballistics_rear < self.ballistics_flank < self.ballistics_front:
            raise ValueError("ballistics_rear < ballistics_flank < ballistics_front must hold")
        num, den = self.flanking_depth
        if not 0 < num <= den:
            raise ValueError(f"flanking_depth {num}/{den} must be a fraction in (0, 1]")
        if len(self.extra_cp) != self.terrain_bid + 1:
            raise ValueError(f"extra_cp needs one entry per feature count 0..{self.terrain_bid}")
        return self

    def extra_for(self, placed: int) -> int:
        """FA-FB-05: the turn-1 extra CP for the number of features a player placed."""
        return self.extra_cp[max(0, min(placed, len(self.extra_cp) - 1))]

    def infiltrate_gap(self, turn: int) -> float:
        """FA-SD-19..21: how far from every enemy tray an infiltrating unit deploys in this turn."""
        return self.infiltrate_gaps[max(0, min(turn, len(self.infiltrate_gaps)) - 1)]

    @property
    def flanking_fraction(self) -> float:
        """FA-SD-02: the share of the table's depth a flanking entry may reach from the own edge."""
        return self.flanking_depth[0] / self.flanking_depth[1]


class AnvilRules(DataModel):
    """The whole rules file."""

    version: str
    units: dict[UnitType, UnitProfile]
    matrix: dict[FightingType, dict[FightingType, MatrixCell]]
    deployment: dict[UnitType, Deployment]
    stratagems: dict[str, Stratagem]
    constants: Constants

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        """Each stratagem knows its own key (the table's name in the file)."""
        if isinstance(data, dict) and isinstance(data.get("stratagems"), dict):
            strats = {
                k: ({"key": k, **v} if isinstance(v, dict) and "key" not in v else v)
                for k, v in data["stratagems"].items()
            }
            data = {**data, "stratagems": strats}
        return data

    @model_validator(mode="after")
    def _complete(self) -> AnvilRules:
        """Every type has a profile and a deployment row; all 36 cells are there, each with its clause."""
        for unit in UNIT_TYPES:
            if unit not in self.units:
                raise ValueError(f"units.{unit}: missing: every unit type needs a profile")
            if unit not in self.deployment:
                raise ValueError(f"deployment.{unit}: missing: every unit type needs a deployment row")
        for att in FIGHTING_TYPES:
            for dfn in FIGHTING_TYPES:
                cell = self.matrix.get(att, {}).get(dfn)
                if cell is None:
                    raise ValueError(f"matrix.{att}.{dfn}: missing: the matrix has all 36 cells")
                want = f"FA-CRM-{clause_name(att)}-{clause_name(dfn)}"
                if cell.clause != want:
                    raise ValueError(f"matrix.{att}.{dfn}.clause: is {cell.clause!r}, should be {want!r}")
        for key, strat in self.stratagems.items():
            if strat.key != key:
                raise ValueError(f"stratagems.{key}.key: is {strat.key!r}, should be {key!r}")
        return self

    def profile(self, unit: UnitType) -> UnitProfile:
        """A unit type's profile (move, HP)."""
        return self.units[unit]

    def stratagem(self, key: str) -> Stratagem:
        """A stratagem by key; KeyError names the known ones."""
        try:
            return self.stratagems[key]
        except KeyError:
            raise KeyError(f"unknown stratagem {key!r}; known: {', '.join(self.stratagems)}") from None

    def group(self, group: Group) -> tuple[Stratagem, ...]:
        """The stratagems of one list, in the file's order."""
        return tuple(s for s in self.stratagems.values() if s.group == group)


def load_rules(path: Path) -> AnvilRules:
    """Read and validate a rules file (a broken one raises DataFileError naming the key)."""
    return load_model(AnvilRules, path)


@cache
def rules() -> AnvilRules:
    """The shipped rules file, read and validated once."""
    return load_rules(RULES_FILE)
