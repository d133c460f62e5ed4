"""The Combat Resolution Matrix and the exact outcome of one combat: pure arithmetic, no geometry.

The engine (engage, bounce-back chains, Ballistics) and ``iwgt odds anvil combat`` both call ``resolve``:
one rule code. Where the units stand, whether a bounce back can move and where it lands are the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from iwgt.games.anvil.rules import NATE, SEAT, Bouncer, Side, UnitType, fights_as, rules

BounceBack = Literal["attacker", "defender", "both"]
"""Who bounces back after a combat: the cell's unit, either by fear, or both (Counterattack)."""

ATTACK_CLAUSE = "FA-CRM-01"
DESTROYED_CLAUSE = "FA-CRM-02"
EXCESS_CLAUSE = "FA-CRM-03"
NATE_CLAUSES = ("FA-CRM-05", "FA-EN-03")
SEAT_CLAUSE = "FA-CRM-06"
BOUNCE_CLAUSE = "FA-BB-01"
CANNOT_BB_CLAUSE = "FA-BB-04"
BAND_CLAUSES: dict[Side, str] = {"front": "FA-SS-02", "flank": "FA-SS-03", "rear": "FA-SS-04"}
NO_BB_BALLISTICS = "FA-SS-06"
SKIRMISH_CLAUSE = "FA-SM-10"
FEAR_CLAUSE = "FA-SD-11"
BRACE_HELD = "FA-SC-03"


@dataclass(frozen=True, slots=True)
class Cell:
    """One matrix cell as the game reads it: damage by side (None = NATE) and who bounces back."""

    front: int | None
    flank: int | None
    rear: int | None
    bounce: Bouncer
    clause: str

    def value(self, side: Side) -> int | None:
        """The damage for engaging this side, or None when the attacker is not allowed to (NATE)."""
        value: int | None = getattr(self, side)
        return value


@cache
def cell(attacker: UnitType, defender: UnitType) -> Cell:
    """The cell of the attacker's column and the defender's row (FA-CRM-04); the Seat reads as Troop."""
    raw = rules().matrix[fights_as(attacker)][fights_as(defender)]

    def num(v: int | str) -> int | None:
        return None if v == NATE else int(v)

    return Cell(num(raw.front), num(raw.flank), num(raw.rear), raw.bounce, raw.clause)


def ballistics_band(distance: float) -> Side | None:
    """FA-SS-02..04: the side a shot at this range (nearest points of trays) counts as; None beyond 18"."""
    c = rules().constants
    if distance <= c.ballistics_rear:
        return "rear"
    if distance <= c.ballistics_flank:
        return "flank"
    if distance <= c.ballistics_front:
        return "front"
    return None


def bounce_held(unit: UnitType, braced: bool) -> bool:
    """Whether a unit cannot bounce back by rule alone: the Seat never moves, Brace may not move.

    Such a unit loses 1 HP instead (FA-BB-04); friends, impassable terrain and edges are the engine's.
    """
    return unit == SEAT or braced


@dataclass(frozen=True, slots=True)
class Attack:
    """One combat to resolve: the two types, the side engaged (or Ballistics band) and what is in play.

    ``fear_attacker`` / ``fear_defender``: that unit has fear (FA-SD-11). ``attacker_brace``: the attacker
    is braced (only in a bounce-back chain, where a braced unit can be the attacker): it reduces a
    Counterattack's damage. ``hero_of_the_day``: the defender plays it should the damage destroy it.
    HP default to the type's profile HP.
    """

    attacker: UnitType
    defender: UnitType
    side: Side = "front"
    hammerblow: bool = False
    brace: bool = False
    counterattack: bool = False
    fear_attacker: bool = False
    fear_defender: bool = False
    skirmishing_defender: bool = False
    defender_hp: int | None = None
    attacker_hp: int | None = None
    ballistics: bool = False
    parthian: bool = False
    heavy_projectile: bool = False
    attacker_brace: bool = False
    hero_of_the_day: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """The exact result of an Attack.

    ``allowed`` False: NATE on that side (no combat; the engine stops the attacker 1" away).
    ``side``: the side the matrix was read at (front for a Skirmishing defender).
    ``held``: the bouncing units that cannot move by rule (Seat, Brace): each loses 1 HP instead, which
    the engine applies with the rest of the bounce back (not counted in the ``*_hp_left`` here).
    """

    allowed: bool
    damage: int | None
    counter_damage: int | None
    bounce_back: BounceBack | None
    destroyed: bool
    attacker_destroyed: bool
    excess_move: float
    clauses: tuple[str, ...]
    side: Side = "front"
    defender_hp_left: int = 0
    attacker_hp_left: int = 0
    held: tuple[Bouncer, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object (the CLI's ``--json`` and the table's preview)."""
        return {
            "allowed": self.allowed,
            "damage": self.damage,
            "counter_damage": self.counter_damage,
            "bounce_back": self.bounce_back,
            "destroyed": self.destroyed,
            "attacker_destroyed": self.attacker_destroyed,
            "excess_move": self.excess_move,
            "side": self.side,
            "defender_hp_left": self.defender_hp_left,
            "attacker_hp_left": self.attacker_hp_left,
            "held": list(self.held),
            "clauses": list(self.clauses),
        }


def _check(a: Attack) -> None:
    """Refuse an Attack the rules cannot produce, naming the clause (ValueError)."""
    r = rules()

    def may(key: str, unit: UnitType, who: str) -> None:
        s = r.stratagem(key)
        # Ballistics and Heavy Projectile need Shooter: a type that may be given Shooter may have it.
        shooter = r.stratagem("shooter").usable_by(unit)
        # Hero of the Day's "General" may be any type: the engine checks the unit is the General's.
        if not s.usable_by(unit, shooter=shooter, general=s.or_general and unit != SEAT):
            name = r.profile(unit).name
            raise ValueError(f"{s.clauses[0]}: {s.name} ({s.printed_users}) is not for the {who} ({name})")

    for flag, key, unit, who in (
        (a.hammerblow, "hammerblow", a.attacker, "attacker"),
        (a.brace, "brace", a.defender, "defender"),
        (a.attacker_brace, "brace", a.attacker, "attacker"),
        (a.counterattack, "counterattack", a.defender, "defender"),
        (a.fear_attacker, "fear", a.attacker, "attacker"),
        (a.fear_defender, "fear", a.defender, "defender"),
        (a.skirmishing_defender, "skirmishing", a.defender, "defender"),
        (a.ballistics, "ballistics", a.attacker, "attacker"),
        (a.parthian, "parthian_shot", a.attacker, "attacker"),
        (a.heavy_projectile, "heavy_projectile", a.attacker, "attacker"),
        (a.hero_of_the_day, "hero_of_the_day", a.defender, "defender"),
    ):
        if flag:
            may(key, unit, who)
    if (a.parthian or a.heavy_projectile) and not a.ballistics:
        what = "Parthian Shot (FA-SS-08)" if a.parthian else "Heavy Projectile (FA-SD-13)"
        raise ValueError(f"{what} changes the damage of Ballistics only: add ballistics")
    if a.counterattack and a.ballistics:
        raise ValueError("FA-SI-02: Counterattack answers an engage, not Ballistics")
    for hp, who in ((a.defender_hp, "defender"), (a.attacker_hp, "attacker")):
        if hp is not None and hp < 1:
            raise ValueError(f"FA-CRM-02: the {who} has {hp} HP; a unit on the table has at least 1")


def resolve(a: Attack) -> Outcome:
    """The exact outcome of a combat (engage or Ballistics) by the matrix and the stratagems in play.

    Raises ValueError (its message citing the clause) for an Attack the rules cannot produce.
    """
    _check(a)
    r = rules()
    c = r.constants
    the_cell = cell(a.attacker, a.defender)
    clauses: list[str] = [the_cell.clause, ATTACK_CLAUSE]
    if SEAT in (a.attacker, a.defender):
        clauses.append(SEAT_CLAUSE)
    side: Side = a.side
    if a.skirmishing_defender and side != "front":
        side = "front"  # FA-SM-10: it "counts as only having a front in combat" (Ballistics included)
    if a.skirmishing_defender:
        clauses.append(SKIRMISH_CLAUSE)
    if a.ballistics:
        clauses.append(BAND_CLAUSES[a.side])
    d_hp = a.defender_hp if a.defender_hp is not None else r.profile(a.defender).hp
    at_hp = a.attacker_hp if a.attacker_hp is not None else r.profile(a.attacker).hp
    value = the_cell.value(side)
    if value is None:
        clauses.extend(NATE_CLAUSES)
        return Outcome(False, None, None, None, False, False, 0.0, tuple(clauses), side, d_hp, at_hp)

    damage = value
    for flag, key, clause in (
        (a.hammerblow, "hammerblow", "FA-SC-05"),
        (a.heavy_projectile, "heavy_projectile", "FA-SD-13"),
        (a.parthian, "parthian_shot", "FA-SS-09"),
        (a.brace, "brace", "FA-SC-02"),
    ):
        if flag:
            damage += r.stratagem(key).damage
            clauses.append(clause)
    damage = max(0, damage)  # FA-SC-02: Brace never heals

    counter: int | None = None
    if a.counterattack:
        # FA-SI-02: the defender deals its own column's front value against the attacker's row.
        counter = cell(a.defender, a.attacker).front or 0
        if a.attacker_brace:
            counter = max(0, counter + r.stratagem("brace").damage)
            clauses.append("FA-SC-02")
        clauses.extend(("FA-SI-02", "FA-SI-03"))

    destroyed = damage >= d_hp
    attacker_destroyed = counter is not None and counter >= at_hp
    d_left = max(0, d_hp - damage)
    a_left = max(0, at_hp - counter) if counter is not None else at_hp
    saved = destroyed and a.hero_of_the_day
    if saved:
        hotd = r.stratagem("hero_of_the_day")
        destroyed, d_left = False, hotd.keeps_hp
        clauses.extend(hotd.clauses[1:])
    if destroyed or attacker_destroyed:
        clauses.append(DESTROYED_CLAUSE)

    excess = 0.0
    # FA-CRM-03, FA-SS-06, FA-SI-05, FA-SI-12: only a surviving engaging attacker converts the excess.
    if destroyed and not a.ballistics and not attacker_destroyed and damage > d_hp:
        excess = (damage - d_hp) * c.excess_inches_per_hp
        clauses.append(EXCESS_CLAUSE)
        if counter is not None:
            clauses.append("FA-SI-05")

    bounce: BounceBack | None
    if saved:
        bounce = "both" if counter is not None and not attacker_destroyed else "defender"
    elif destroyed or attacker_destroyed:
        bounce = None  # decision: a combat that destroys a unit has no bounce back
    elif a.ballistics:
        bounce = None
        clauses.append(NO_BB_BALLISTICS)
    elif counter is not None:
        bounce = "both"
        clauses.append("FA-SI-04")
    elif a.fear_attacker and a.fear_defender:
        bounce = "both"  # each is the enemy of a fear unit
    elif a.fear_attacker or a.fear_defender:
        bounce = "defender" if a.fear_attacker else "attacker"
    else:
        bounce = the_cell.bounce
    if bounce is not None and not a.ballistics and (a.fear_attacker or a.fear_defender):
        clauses.append(FEAR_CLAUSE)
    if bounce is not None:
        clauses.append(BOUNCE_CLAUSE)
    held: list[Bouncer] = []
    if bounce in ("attacker", "both") and bounce_held(a.attacker, a.attacker_brace):
        held.append("attacker")
    if bounce in ("defender", "both") and bounce_held(a.defender, a.brace):
        held.append("defender")
    if held:
        if a.brace or a.attacker_brace:
            clauses.append(BRACE_HELD)
        clauses.append(CANNOT_BB_CLAUSE)
    return Outcome(
        True,
        damage,
        counter,
        bounce,
        destroyed,
        attacker_destroyed,
        excess,
        tuple(dict.fromkeys(clauses)),
        side,
        d_left,
        a_left,
        tuple(held),
    )
