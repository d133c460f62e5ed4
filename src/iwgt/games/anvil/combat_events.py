"""What happens when units fight, shoot, cast and use stratagems; every one of these events is public.

Emitted by ``combat``, ``shooting``, ``spells``, ``heroic`` and ``stratagems``. Points are ``(x, y)`` in
inches; ``clauses`` name the rule clauses applied (FA-..).
"""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class StratagemUsed(Event):
    """A seat paid CP for a stratagem with one of its units (FA-ST-01, FA-AC-02)."""

    seat: int
    unit: int
    key: str
    cost: int
    clause: str


@dataclass(frozen=True, slots=True)
class EngageDeclared(Event):
    """A unit engages an enemy in LOS (FA-EN-01): the side the engage line meets and the straight move."""

    attacker: int
    defender: int
    side: str
    start: XY
    end: XY
    cost: float


@dataclass(frozen=True, slots=True)
class EngageStopped(Event):
    """An engage that ends with no combat: NATE on that side (FA-EN-03) or out of reach ("short")."""

    attacker: int
    defender: int
    reason: str
    at: XY
    moved: float
    clause: str


@dataclass(frozen=True, slots=True)
class InterruptionOffered(Event):
    """The other seat may answer with an interruption now (FA-ST-05)."""

    seat: int
    unit: int
    key: str


@dataclass(frozen=True, slots=True)
class InterruptionDeclined(Event):
    """The seat let the interruption go."""

    seat: int
    key: str


@dataclass(frozen=True, slots=True)
class CombatResolved(Event):
    """A combat by the matrix (FA-CRM-01): damage each way, HP left, and the cell and clauses read."""

    attacker: int
    defender: int
    side: str
    damage: int
    counter_damage: int | None
    defender_hp: int
    attacker_hp: int
    depth: int
    ballistics: bool
    cell: str
    clauses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeroOfTheDay(Event):
    """Hero of the Day: the unit stays on the table with 1 HP and bounces back (FA-SI-10)."""

    unit: int
    hp: int


@dataclass(frozen=True, slots=True)
class UnitDestroyed(Event):
    """A unit at 0 HP is removed from the table (FA-CRM-02)."""

    unit: int
    seat: int
    cause: str


@dataclass(frozen=True, slots=True)
class ExcessMove(Event):
    """Excess damage turned into inches the attacker may move at once (FA-CRM-03)."""

    unit: int
    inches: float


@dataclass(frozen=True, slots=True)
class BouncedBack(Event):
    """A bounce back: straight away from the other unit, keeping facing (FA-BB-01, FA-BB-03)."""

    unit: int
    start: XY
    end: XY
    moved: float
    stopped_by: str | None


@dataclass(frozen=True, slots=True)
class BounceBlocked(Event):
    """A unit that cannot bounce back loses 1 HP instead (FA-BB-04)."""

    unit: int
    reason: str
    hp: int


@dataclass(frozen=True, slots=True)
class ChainCombat(Event):
    """A unit bounced into an enemy: a new combat with that enemy as the attacker (FA-BB-02)."""

    attacker: int
    defender: int
    side: str
    depth: int


@dataclass(frozen=True, slots=True)
class ChainStopped(Event):
    """A bounce back met an enemy but no combat follows: the chain bound, or NATE on that side."""

    attacker: int
    defender: int
    reason: str


@dataclass(frozen=True, slots=True)
class ShotMissed(Event):
    """A shot ordered beyond range with premeasuring off: spent with no effect (FA-GN-09 decided)."""

    unit: int
    target: int
    distance: float


@dataclass(frozen=True, slots=True)
class SpellCastEvent(Event):
    """A Spell (Wizard) or Natural (Monster) cast at a target or a point (FA-SN, FA-ST-06)."""

    caster: int
    spell: str
    target: int | None
    natural: bool
    cost: int


@dataclass(frozen=True, slots=True)
class SpellDispelled(Event):
    """Dispel: the spell's effect is stopped, its CP still spent (FA-SI-07, FA-SI-08)."""

    caster: int
    spell: str
    by: int


@dataclass(frozen=True, slots=True)
class SpellFizzled(Event):
    """A spell ordered beyond range with premeasuring off: spent with no effect (FA-GN-09 decided)."""

    caster: int
    spell: str
    target: int | None


@dataclass(frozen=True, slots=True)
class UnitDamaged(Event):
    """A unit suffers damage outside the matrix (a spell, Summon Subjects' price)."""

    unit: int
    damage: int
    hp: int
    clause: str


@dataclass(frozen=True, slots=True)
class UnitHealed(Event):
    """A unit gains HP (Steady, Drain Life), never above its starting HP."""

    unit: int
    gained: int
    hp: int
    clause: str


@dataclass(frozen=True, slots=True)
class UnitPushed(Event):
    """Stormwind moves a unit straight away from or towards the caster (FA-SN-04)."""

    unit: int
    start: XY
    end: XY
    moved: float
    stopped_by: str | None


@dataclass(frozen=True, slots=True)
class UnitTransfixed(Event):
    """Transfix: the unit may not activate this turn (FA-SN-06, FA-SN-07)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitSummoned(Event):
    """A unit placed on the table outside the army: a summoned Troop or a raised Champion."""

    unit: int
    seat: int
    type: str
    at: XY
    facing: float
    hp: int
    clause: str
