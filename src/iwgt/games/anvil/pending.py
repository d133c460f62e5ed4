"""A resolution paused for an interruption answer (FA-ST-05): what was asked, of whom, and what waits.

The state keeps at most one ``Pending``; while it is set the phase is ``interrupt`` and ``to_move`` is
``pending.seat``. The seat answers with ``interrupt`` (the stratagem named by ``pending.kind``) or
``decline``; ``combat.apply_interrupt`` / ``combat.apply_decline`` continue the paused ``Combat`` or
``SpellCast`` from where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PendingKind = Literal["counterattack", "hero_of_the_day", "dispel"]
"""The interruption offered: Counterattack (FA-SI-01), Hero of the Day (FA-SI-09), Dispel (FA-SI-06)."""

CombatSide = Literal["front", "flank", "rear"]
"""The side of the defender engaged (FA-EN-05); the geometry's ``Side``."""

CombatStage = Literal["counterattack", "damage", "hero_of_the_day", "apply"]
"""Where a combat resumes: the Counterattack offer, the damage, the Hero of the Day offer, its application
(HP, destruction, excess move, then the bounce backs)."""

StormDirection = Literal["away", "towards"]
"""Stormwind moves a unit directly away from or towards the caster (FA-SN-04)."""


@dataclass(frozen=True, slots=True)
class Bounce:
    """A bounce back still to make (FA-BB-01): the unit, the point it moves straight away from (the other
    unit's centre when the combat was resolved), that unit, and the depth of the combat it comes from."""

    unit: int
    away_from: tuple[float, float]
    partner: int
    depth: int


@dataclass(frozen=True, slots=True)
class Combat:
    """One combat being resolved: an engage, a shot (Ballistics) or a bounce-back chain combat (FA-BB-02).

    ``depth`` is 0 for the combat the activation started and n for the n-th chain combat after it (the
    chain stops at ``MAX_CHAIN`` combats); ``after`` holds the outer combats' bounce backs still to make.
    ``counterattack`` / ``hero_of_the_day`` are None until asked (False when declined or not offered).
    ``damage`` / ``counter_damage`` / ``bounce`` / ``excess`` are set by the damage stage, so a Hero of
    the Day answer resumes without recomputing them.
    """

    attacker: int
    defender: int
    side: CombatSide
    depth: int = 0
    hammerblow: bool = False
    ballistics: bool = False
    parthian: bool = False
    heavy: bool = False
    counterattack: bool | None = None
    hero_of_the_day: bool | None = None
    stage: CombatStage = "counterattack"
    damage: int | None = None
    counter_damage: int | None = None
    bounce: Literal["attacker", "defender", "both"] | None = None
    excess: float = 0.0
    clauses: tuple[str, ...] = ()
    after: tuple[Bounce, ...] = ()


@dataclass(frozen=True, slots=True)
class SpellCast:
    """A Spell (Wizard) or a Natural (Monster, FA-ST-06) being cast, paused for a Dispel answer.

    ``target`` is the unit aimed at (None for Summon Subjects); ``point`` and ``facing`` place a summoned
    Troop; ``distance`` and ``direction`` are Stormwind's; ``extras`` are a summoned Troop's stratagems
    (FA-SN-13); ``cost`` is what the caster paid.
    """

    caster: int
    spell: str
    target: int | None = None
    point: tuple[float, float] | None = None
    facing: float | None = None
    distance: float | None = None
    direction: StormDirection | None = None
    extras: tuple[str, ...] = ()
    natural: bool = False
    cost: int = 0


@dataclass(frozen=True, slots=True)
class Pending:
    """An interruption offered: its kind, the seat asked, the unit that would use it, and what is paused."""

    kind: PendingKind
    seat: int
    unit: int
    paused: Combat | SpellCast

    @property
    def combat(self) -> Combat | None:
        """The paused combat (Counterattack, Hero of the Day), or None for a spell."""
        return self.paused if isinstance(self.paused, Combat) else None

    @property
    def spell(self) -> SpellCast | None:
        """The paused spell (Dispel), or None for a combat."""
        return self.paused if isinstance(self.paused, SpellCast) else None
