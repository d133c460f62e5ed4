"""What happens in a game of Days of the Valkyrx; lights, touchscreen and reports react to these."""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

Cell = tuple[int, int]
"""A cell as an odd-r offset [col, row], the form players and scenario files use."""


@dataclass(frozen=True, slots=True)
class UnitPlaced(Event):
    """A unit was set on a deployment cell."""

    unit: int
    to: Cell


@dataclass(frozen=True, slots=True)
class DeploymentConfirmed(Event):
    """A seat tapped the tick."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class FirstMoverChosen(Event):
    """The table chose who moves first this turn (VX-04-03)."""

    turn: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class MovementPhaseStarted(Event):
    """A seat's movement phase began; ``movable`` are the units lit for it (VX-03-01, VX-14-02)."""

    turn: int
    seat: Seat
    movable: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit was moved (``compulsory`` for a routed unit's move away, VX-03-08)."""

    unit: int
    frm: Cell
    to: Cell
    cost: float
    charge: bool = False
    airborne: bool = False
    compulsory: bool = False


@dataclass(frozen=True, slots=True)
class TerrainCasualties(Event):
    """Casualties from a deadly feature such as quicksand (VX-05-05)."""

    unit: int
    casualties: float
    feature: str


@dataclass(frozen=True, slots=True)
class TemplePrayer(Event):
    """A unit prayed at the Temple of Ψεύδος (VX-05-06): god-like powers until ``until``, or destroyed."""

    unit: int
    success: bool
    until: int


@dataclass(frozen=True, slots=True)
class TrollDevoured(Event):
    """A hungry Troll pounced on a passing friend (VX-13-TROLL-1)."""

    troll: int
    victim: int
    casualties: float


@dataclass(frozen=True, slots=True)
class ContactMade(Event):
    """Two units are in close combat; ``deferred`` when they fight only from next turn (VX-04-10)."""

    a: int
    b: int
    deferred: bool


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """One unit's attack on another: missile units flash green, targets red (VX-14-04, VX-14-05)."""

    attacker: int
    target: int
    mode: str
    hits: float
    casualties: float
    factors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CloseCombatOutcome(Event):
    """The winner lights green and the loser red at the end of the combat phase (VX-14-07)."""

    winner: int
    loser: int


@dataclass(frozen=True, slots=True)
class MoraleChanged(Event):
    """A unit's morale score changed at the end of the turn, with the reasons (VX-10-05)."""

    unit: int
    before: float
    after: float
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnitRouted(Event):
    """A unit fell to Critical morale and will move away next turn (VX-03-11)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRallied(Event):
    """A routed unit's morale rose above Critical again."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRemoved(Event):
    """A unit left the table: ``destroyed``, ``fled`` (morale below zero) or ``left`` (the Elves)."""

    unit: int
    why: str


@dataclass(frozen=True, slots=True)
class DeadRaised(Event):
    """Men slain by the undead rose to march with them (VX-13-UNDEAD-2)."""

    unit: int
    raised: float


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One unit's line of the health-bar report."""

    unit: int
    name: str
    side: str
    strength: float
    start: float
    casualties: float
    morale: float
    level: str
    status: str


@dataclass(frozen=True, slots=True)
class CombatReport(Event):
    """The report after the combat round: every unit's strength, casualties and morale level (VX-04-01)."""

    turn: int
    lines: tuple[ReportLine, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over (VX-15-26)."""

    winner: Seat | None
    reason: str
