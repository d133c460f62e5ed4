"""What happens in a Coloured-Dice battle: the flow's and movement's events (turns, rounds, moves, charges,
reforms, terrain dice, objectives, the end). Everything is public in this game (no hidden units).

Fights, shots, morale, general morale, wounds and magic have their events beside their rules (combat and
magic modules); they may also use the classes here.
"""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A seat's turn starts: its units have their actions again (CD-AC-01)."""

    seat: Seat
    round: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """A seat ended its turn."""

    seat: Seat
    round: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round: the round's losses are cleared, per-round bear-wound dice refill (CD-MM-02, CD-CH-17)."""

    round: int


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit moved (a move action): its path, where it ended, the inches it had and used, whether it was
    its march (the second move of the turn), the terrain taxes it paid."""

    unit: int
    path: tuple[XY, ...]
    centre: XY
    facing: float
    allowance: float
    used: float
    march: bool
    taxes: float
    stopped: bool  # the terrain dice cut the move short of its ordered end


@dataclass(frozen=True, slots=True)
class TerrainRolled(Event):
    """A terrain tax die was rolled for a move (a river, a pond, woodland for cavalry, forest; CD-TE)."""

    unit: int
    feature: int
    terrain: str  # the piece's kind (``kind`` is every event's own name)
    roll: int


@dataclass(frozen=True, slots=True)
class BushesCleared(Event):
    """More than a few models went through bushes: the bushes are gone (CD-TE-08)."""

    feature: int
    unit: int


@dataclass(frozen=True, slots=True)
class UnitCharged(Event):
    """A unit charged an enemy unit: it ends in contact on the target's ``side`` (CD-MS-16); ``contact``
    False when the terrain dice stopped it short."""

    unit: int
    target: int
    side: str
    distance: float
    centre: XY
    facing: float
    contact: bool


@dataclass(frozen=True, slots=True)
class ChargeAbandoned(Event):
    """A charger gives up its charge where it stands after the target's reaction (CD-MS-16, CD-RE-01,
    designed): ``reason`` is ``shaken``, ``destroyed`` (the charger is off the table) or ``target_gone``."""

    unit: int
    target: int
    reason: str


@dataclass(frozen=True, slots=True)
class UnitReformed(Event):
    """A unit changed its order and files (and facing) (CD-AC-05..08)."""

    unit: int
    order: str
    files: int
    facing: float


@dataclass(frozen=True, slots=True)
class ObjectiveTaken(Event):
    """A side achieved an objective at the end of its turn: +1 general morale and its VP (CD-GM, designed)."""

    seat: Seat
    objective: int
    vp: int
    unit: int


@dataclass(frozen=True, slots=True)
class BattleOver(Event):
    """The battle ended: the winner (None: a draw), each side's VP, and why (CD-MS-07 designed)."""

    winner: Seat | None
    vp: tuple[int, int]
    reason: str
