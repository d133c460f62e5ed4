"""Army lists: the Unit Deployment table's limits, the General, deployment stratagems, costs and HP.

Any object with the shape of ``ArmyList`` / ``ArmyUnit`` will do (the muster action's ``Army`` does): the
functions read only ``units`` and each unit's ``type``, ``name``, ``general`` and ``stratagems``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from iwgt.games.anvil.rules import FIGHTING_TYPES, SEAT, UNIT_TYPES, UnitType, rules

GENERAL_CLAUSE = "FA-GN-04"
BUDGET_CLAUSE = "FA-GN-03"
SEAT_CLAUSE = "FA-UD-08"
USERS_CLAUSE = "FA-ST-02"
DEPLOYMENT_ONLY = "FA-ST-04"
ONCE_CLAUSE = "FA-AC-02"
HEAVY_NEEDS_SHOOTER = "FA-SD-12"
HEAVY_NOT_SWIFT = "FA-SD-14"
START_HP_CLAUSE = "FA-SD-09"


class UnitEntry(Protocol):
    """One unit of an army list, as this module reads it."""

    @property
    def type(self) -> str:
        """The unit type (hero, wizard, monster, knight, war_machine, troop)."""

    @property
    def name(self) -> str:
        """The unit's name."""

    @property
    def general(self) -> bool:
        """Whether it is the General's unit."""

    @property
    def stratagems(self) -> tuple[str, ...]:
        """Its deployment stratagems' keys."""


class ArmyLike(Protocol):
    """An army list, as this module reads it."""

    @property
    def units(self) -> Sequence[UnitEntry]:
        """The units chosen (the Seat of Power is not among them: every army has one)."""


@dataclass(frozen=True, slots=True)
class ArmyUnit:
    """One unit of an army list: type, name, General flag, deployment stratagems (FA-GN-04, FA-SD)."""

    type: UnitType
    name: str
    general: bool = False
    stratagems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ArmyList:
    """An army list (FA-GN-03); the Seat of Power is not listed: each army has exactly one (FA-UD-08)."""

    units: tuple[ArmyUnit, ...]


def _label(unit: UnitEntry) -> str:
    """A unit as a problem names it: "Iron Guard (Troop)"."""
    known = rules().units.get(unit.type)  # type: ignore[call-overload]
    return f"{unit.name} ({known.name})" if known is not None else repr(unit.name)


def _percent(part: int, total: int) -> str:
    """A share as a short percentage: 45, 33.3."""
    return f"{100 * part / total:.1f}".rstrip("0").rstrip(".")


def unit_dcp(unit: UnitEntry) -> int:
    """The unit type's DCP, as the army total counts it (FA-UD-02..08; stratagems not counted, FA-ST-03)."""
    return rules().deployment[unit.type].dcp  # type: ignore[index]


def army_dcp(army: ArmyLike) -> int:
    """The army's DCP: its units' type DCP, the General's included (FA-GN-03, FA-ST-03)."""
    return sum(unit_dcp(u) for u in army.units if u.type in UNIT_TYPES)


def start_hp(unit: UnitEntry) -> int:
    """HP on deployment: the profile's, -2 Shooter, -2 Weak, +2 Tough (FA-SD-07, FA-SD-09, FA-SD-16)."""
    r = rules()
    hp = r.profile(unit.type).hp  # type: ignore[arg-type]
    return hp + sum(r.stratagems[k].hp for k in unit.stratagems if k in r.stratagems)


def move_allowance(unit: UnitEntry) -> float:
    """Base Move before per-activation bonuses: profile, +6 Swiftness, 4 with Heavy Projectile (FA-SD)."""
    r = rules()
    strats = [r.stratagems[k] for k in unit.stratagems if k in r.stratagems]
    fixed = [s.move_set for s in strats if s.move_set is not None]
    if fixed:
        return min(fixed)  # "reduced to 4" for the entire game" is final (FA-SD-14)
    base = r.profile(unit.type).move  # type: ignore[arg-type]
    return base + sum(s.move_add for s in strats if s.group == "deployment")


ENTRY_STRATAGEMS: dict[str, tuple[str, ...]] = {"flanking": ("left", "right"), "infiltrate": ("infiltrate",)}
"""The deployment stratagems that are a way onto the table, and the entries (``Deploy.edge``) using them."""


def paid_stratagems(unit: UnitEntry, entry: str = "own") -> tuple[str, ...]:
    """The deployment stratagems a deploy by ``entry`` pays (decided): the "entire game" ones (Swiftness,
    Shooter, Weak, fear, Heavy Projectile, Tough) with every deploy; Flanking and Infiltrate only when the
    entry uses them."""
    return tuple(k for k in unit.stratagems if k not in ENTRY_STRATAGEMS or entry in ENTRY_STRATAGEMS[k])


def deploy_cost(unit: UnitEntry, entry: str = "own") -> int:
    """CP to deploy by ``entry`` (own, left, right, infiltrate; the own edge by default): 1 + type DCP (none
    for the General) + the DCP of the deployment stratagems it pays (``paid_stratagems``; Weak -1).

    The DCP part never goes below 0 (a Weak General's unit still pays the activation's 1 CP).
    """
    r = rules()
    dcp = 0 if unit.general else unit_dcp(unit)
    dcp += sum(r.stratagems[k].cost for k in paid_stratagems(unit, entry) if k in r.stratagems)
    return r.constants.activation_cp + max(0, dcp)


def _stratagem_problems(unit: UnitEntry) -> list[str]:
    """What is wrong with one unit's deployment stratagems (FA-ST-02, FA-ST-04, FA-SD)."""
    r = rules()
    out: list[str] = []
    who = _label(unit)
    keys = unit.stratagems
    shooter = "shooter" in keys
    seen: set[str] = set()
    for key in keys:
        s = r.stratagems.get(key)
        if s is None:
            deploys = ", ".join(k for k, v in r.stratagems.items() if v.group == "deployment")
            out.append(f"{USERS_CLAUSE}: {who}: unknown stratagem {key!r}; choose {deploys}")
            continue
        if key in seen:
            out.append(f"{ONCE_CLAUSE}: {who}: {s.name} is chosen twice; each at most once")
            continue
        seen.add(key)
        if s.group != "deployment":
            out.append(
                f"{DEPLOYMENT_ONLY}: {who}: {s.name} is a {s.group} stratagem, "
                "used in play, not chosen with the army"
            )
        elif key == "heavy_projectile" and unit.type == "war_machine" and not shooter:
            out.append(f"{HEAVY_NEEDS_SHOOTER}: {who}: Heavy Projectile needs a War Machine with Shooter")
        elif not s.usable_by(unit.type, shooter=shooter, general=unit.general):  # type: ignore[arg-type]
            out.append(f"{USERS_CLAUSE}: {who}: {s.name} is for {s.printed_users} only")
    if "heavy_projectile" in seen and "swiftness" in seen:
        out.append(
            f'{HEAVY_NOT_SWIFT}: {who}: Heavy Projectile reduces Move to 4" for the entire game; '
            "Swiftness cannot go with it"
        )
    return out


def validate_army(army: ArmyLike, budget: int) -> list[str]:
    """Every problem of an army list for this DCP budget, each citing its clause; empty: a legal army."""
    r = rules()
    out: list[str] = []
    known: list[UnitEntry] = []
    for i, unit in enumerate(army.units):
        if unit.type == SEAT:
            out.append(
                f"{SEAT_CLAUSE}: {unit.name!r}: the Seat of Power is not chosen; every army has exactly one"
            )
        elif unit.type not in FIGHTING_TYPES:
            out.append(
                f"FA-UD-01: unit {i + 1} ({unit.name!r}): unknown unit type {unit.type!r}; "
                f"choose {', '.join(FIGHTING_TYPES)}"
            )
        else:
            known.append(unit)
    if not known:
        out.append(f"{BUDGET_CLAUSE}: the army has no unit")
        return out

    generals = [u for u in army.units if u.general]
    if len(generals) != 1:
        named = ", ".join(_label(u) for u in generals)
        found = f"{len(generals)} ({named})" if generals else "none"
        out.append(f"{GENERAL_CLAUSE}: exactly one General's unit is needed; found {found}")
    if any(u.general and u.type == SEAT for u in army.units):
        out.append(f"{GENERAL_CLAUSE}: the Seat of Power cannot be the General's unit")

    for unit in known:
        out.extend(_stratagem_problems(unit))
        hp = start_hp(unit)
        if hp < 1:
            out.append(
                f"{START_HP_CLAUSE}: {_label(unit)} would start with {hp} HP "
                f"({' + '.join(unit.stratagems)}); a unit starts with at least 1"
            )

    total = sum(unit_dcp(u) for u in known)
    if total > budget:
        out.append(f"{BUDGET_CLAUSE}: the army is {total} DCP; the budget is {budget} DCP")
    for kind in FIGHTING_TYPES:
        row = r.deployment[kind]
        if row.percent is None:
            continue
        part = sum(unit_dcp(u) for u in known if u.type == kind)
        if row.op == "<=" and part * 100 > row.percent * total:
            limit = f"at most {row.percent}%"
        elif row.op == ">=" and part * 100 < row.percent * total:
            limit = f"at least {row.percent}%"
        else:
            continue
        plural = r.profile(kind).plural
        out.append(f"{row.clause}: {plural} are {part} of {total} DCP ({_percent(part, total)}%); {limit}")
    return out


problems_of = validate_army
"""The name the scenario loader calls (``army_problems``)."""
