"""The pending-resolution stack of a Coloured-Dice battle: what waits for a die or an answer, as values.

``CdState.pending`` is a stack (the top is ``pending[-1]``). Each frame is one of the frozen dataclasses
below. Chance frames wait for one die each (``PoolRoll``: the next die of the pool, in pool order;
``BearRoll``; ``ReactRoll``: the next yellow die; ``MoraleRoll``: the next of two ordinary d6; ``D6Roll``);
question frames wait for a seat's answer (``HeroAsk``, ``BearAsk``, ``ReactAsk``, ``ResistAsk``); the
others are worked through by ``resolve.settle`` as soon as they reach the top (``Wounds`` when no question
is due, ``FightStep``, ``AfterAttack``, ``Then``). ``resolve.advance`` answers the top frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AttackKind = Literal["fight", "shot", "spell", "stand_and_shoot"]
"""What an attack pool is: a close-combat strike, a shot, a spell attack, a reaction's shot (CD-RE)."""
FightStage = Literal["first", "back"]
"""Which strike of a fight an attack is: the faster side's, or the survivors' strike back (CD-FI-03/04)."""
MoraleReason = Literal["fight", "shot", "spell", "rally", "forced"]
"""Why a unit tests morale (CD-MS-03 designed): after a fight, shot or spell; a rally; a spell forcing it."""
Answer = int | bool
"""What a ``Then`` collects: a d6 face, or a yes/no answer (a resist)."""


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack pool (CD-FI-05..07, CD-SH-04..09): who rolls against whom, the dice in pool order, the
    effective armour A and its parts, the faces rolled so far (indices 1..6, the chance outcomes), the hero
    points applied to the points total, the units whose owners were already asked about hero points, the
    fight stage, and the engaged friend that takes half the wounds of a shot into a melee (own fire,
    CD-MS-15 designed)."""

    kind: AttackKind
    source: int
    target: int
    dice: tuple[str, ...]
    armour: int
    parts: tuple[tuple[str, int], ...] = ()
    faces: tuple[int, ...] = ()
    adjust: int = 0
    asked: tuple[int, ...] = ()
    fight_stage: FightStage | None = None
    friend: int | None = None
    distance: float | None = None
    spell: str | None = None

    @property
    def rolled(self) -> bool:
        """Whether every die of the pool has its face."""
        return len(self.faces) >= len(self.dice)

    @property
    def close_combat(self) -> bool:
        """Whether this is a strike in close combat (its losses count in the round's morale, CD-MM-02)."""
        return self.kind == "fight"


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """Chance: the next die of an attack pool (one node per die, in pool order; CD-DI)."""

    attack: Attack


@dataclass(frozen=True, slots=True)
class MoraleRoll:
    """Chance: a 2d6 morale test (two ordinary d6 nodes, CD-MO-02), then its verdict.

    ``away_from`` is the enemy a unit failing in close combat falls back from; ``adjust`` the hero points
    spent on the roll (CD-CH-18, the unit's own roll); ``asked`` whether the hero was asked already.
    """

    unit: int
    close_combat: bool
    reason: MoraleReason
    away_from: int | None = None
    faces: tuple[int, ...] = ()
    adjust: int = 0
    asked: bool = False


@dataclass(frozen=True, slots=True)
class HeroAsk:
    """Question: how many hero points the seat spends (+k or -k) on the roll just made (CD-CH-18..20)."""

    seat: int
    unit: int
    on: Attack | MoraleRoll


@dataclass(frozen=True, slots=True)
class Wounds:
    """Wounds come through to a unit: bear-wound questions first while it has dice left, then applied to
    Body and models (CD-CH-06..17, CD-MS-10). ``source`` is the attacking unit; ``own_fire`` marks the half
    of a shot that fell on a friend (CD-GM-09); ``declined`` that the owner let the rest through."""

    unit: int
    wounds: int
    source: int | None
    kind: AttackKind
    own_fire: bool = False
    declined: bool = False


@dataclass(frozen=True, slots=True)
class BearAsk:
    """Question: roll one more bear-wound die against the wounds, or let them through (CD-CH-14..16)."""

    seat: int
    unit: int
    colour: str
    wounds: Wounds


@dataclass(frozen=True, slots=True)
class BearRoll:
    """Chance: one bear-wound die; it cancels as many of the wounds as it shows (CD-CH-13)."""

    seat: int
    unit: int
    colour: str
    wounds: Wounds


@dataclass(frozen=True, slots=True)
class AfterAttack:
    """Worked through when an attack's wounds are all applied: a shot or spell that caused casualties makes
    the unit test morale (CD-MS-03 designed). ``before`` holds (unit, models before) for each unit hit,
    ``wounds_before`` each one's wounds carried then (a unit wounded but not losing a model tests too)."""

    attack: Attack
    before: tuple[tuple[int, int], ...]
    wounds_before: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FightStep:
    """A fight being fought (CD-FI): ``first`` strikes ``second``, the survivors strike back, then each unit
    that lost models, or took wounds, tests morale. ``before`` is each unit's models when the fight began,
    ``wounds_before`` the wounds each carried then."""

    first: int
    second: int
    stage: Literal["first", "back", "morale"]
    before: tuple[int, int]
    wounds_before: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class ReactAsk:
    """Question: the charged unit's owner may roll ``dice`` yellow dice to react (CD-RE-01/02)."""

    seat: int
    unit: int
    charger: int
    dice: int


@dataclass(frozen=True, slots=True)
class ReactRoll:
    """Chance: the next reaction die; over the unit's slowness succeeds (CD-RE-01)."""

    seat: int
    unit: int
    charger: int
    dice: int
    faces: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class D6Roll:
    """Chance: one ordinary d6 for an event: a general-morale row (``gm_leader``, ``gm_own_fire``; ``seat``
    is the side that suffers it), ``then`` (the face goes to the ``Then`` frame beneath: terrain taxes), or
    an effect a module registered (``resolve.register_d6``)."""

    purpose: str
    effect: str
    seat: int | None = None
    data: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ResistAsk:
    """Question: spend ``cost`` Will of ``unit`` to cancel a spell (CD-CH-25 designed); the answer goes to
    the ``Then`` frame beneath as a bool."""

    seat: int
    unit: int
    cost: int
    spell: str


@dataclass(frozen=True, slots=True)
class Then:
    """A continuation of another module (a charge after its reaction, a move after its terrain dice, a spell
    after its resist question): when it reaches the top, the handler registered for ``tag`` runs with the
    answers the frames above it left in ``results`` (``resolve.register_then``)."""

    tag: str
    data: tuple[int | float | str, ...] = ()
    results: tuple[Answer, ...] = ()


Pending = (
    PoolRoll
    | MoraleRoll
    | HeroAsk
    | Wounds
    | BearAsk
    | BearRoll
    | AfterAttack
    | FightStep
    | ReactAsk
    | ReactRoll
    | D6Roll
    | ResistAsk
    | Then
)
"""Every kind of pending frame."""

CHANCE_FRAMES: tuple[type, ...] = (PoolRoll, MoraleRoll, BearRoll, ReactRoll, D6Roll)
"""Frames that wait for a die."""
QUESTION_FRAMES: tuple[type, ...] = (HeroAsk, BearAsk, ReactAsk, ResistAsk)
"""Frames that wait for a seat's answer."""
