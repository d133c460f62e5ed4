"""The events of fights, shots, wounds, morale and general morale (cd-spec 2, combat and resolution).

Everything is public in this game. The words, the table's lights and the screen read these.
"""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class FightBegun(Event):
    """A fight starts: ``first`` strikes first (lower slowness, the active side on a tie, or a reaction's
    success), then ``second``'s survivors strike back (CD-FI-03/04, CD-CH-32)."""

    first: int
    second: int
    why: str


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """An attack pool is about to be rolled: the dice (pool order) and the effective armour with its parts."""

    attack: str
    unit: int
    target: int
    dice: tuple[str, ...]
    armour: int
    parts: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class PoolRolled(Event):
    """An attack pool was rolled (faces: indices 1..6 of each die) and read: points (hero points included),
    kills, effective armour, wounds = floor(points / (armour + 1)) + kills (CD-FI-06, CD-DI-13)."""

    attack: str
    unit: int
    target: int
    dice: tuple[str, ...]
    faces: tuple[int, ...]
    points: int
    kills: int
    armour: int
    wounds: int
    adjust: int


@dataclass(frozen=True, slots=True)
class HeroPointsSpent(Event):
    """A unit's owner spent hero points on a roll (+ or -), with the points left (CD-CH-18..20)."""

    unit: int
    points: int
    left: int


@dataclass(frozen=True, slots=True)
class BearWoundRolled(Event):
    """A bear-wound die was rolled: the face index, the wounds it cancelled, the wounds still coming, the
    dice left (CD-CH-12..17)."""

    unit: int
    colour: str
    face: int
    cancelled: int
    wounds_left: int
    dice_left: int


@dataclass(frozen=True, slots=True)
class OwnFire(Event):
    """A shot into a melee: the engaged friend comes under fire (general morale -1) and takes half the
    wounds (CD-MS-15 designed, CD-GM-08)."""

    shooter: int
    friend: int
    wounds: int


@dataclass(frozen=True, slots=True)
class WoundsTaken(Event):
    """Wounds reached a unit: the models removed from the rear, the models left, the wounds on the current
    model (Body > 1) (CD-CH-06, CD-MS-10)."""

    unit: int
    wounds: int
    removed: int
    models: int
    wounds_on: int


@dataclass(frozen=True, slots=True)
class MoraleTested(Event):
    """A morale test: the dice (after hero points), the target, the round's losses added, the general morale
    subtracted, and the verdict (CD-MO-02..10, CD-MM-02, CD-GM-01)."""

    unit: int
    dice: tuple[int, int]
    target: int
    losses: int
    general_morale: int
    passed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class UnitShaken(Event):
    """A steady unit failed a morale test: it is shaken (designed, CD-MS-03)."""

    unit: int


@dataclass(frozen=True, slots=True)
class FellBack(Event):
    """A unit shaken in close combat fell back straight away from its enemy (designed: 3")."""

    unit: int
    away_from: int
    centre: XY
    distance: float


@dataclass(frozen=True, slots=True)
class UnitRallied(Event):
    """A shaken unit passed its rally test: it is steady again (designed)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRouted(Event):
    """A shaken unit failed morale again: it flees the table and counts as destroyed (designed)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitDestroyed(Event):
    """A unit is gone (no models left, routed, a character at Will 0, a spirit with its owner): why, and
    whether it routed."""

    unit: int
    seat: Seat
    cause: str
    routed: bool


@dataclass(frozen=True, slots=True)
class GeneralMoraleChanged(Event):
    """A side's general morale changed by a row of the table (CD-GM-04..13): the change, the new value."""

    seat: Seat
    change: int
    value: int
    row: str  # the table's row (a field named ``event`` would hide the JSON's own event name)
    clause: str


@dataclass(frozen=True, slots=True)
class VictoryPoints(Event):
    """A side scored the points value of an enemy unit destroyed or routed (designed, CD-MS-06)."""

    seat: Seat
    vp: int
    total: int
    unit: int


@dataclass(frozen=True, slots=True)
class BannerLost(Event):
    """The banner unit is gone: its side loses the banner; ``captured_by`` the enemy unit in contact that
    took it, if any (CD-GM-07, CD-GM-12)."""

    unit: int
    seat: Seat
    captured_by: int | None


@dataclass(frozen=True, slots=True)
class ReactionRolled(Event):
    """A charged unit rolled its reaction dice: their faces and total against its slowness (CD-RE-01/02);
    on a success it stands and shoots or strikes first (CD-MS-14 designed)."""

    unit: int
    charger: int
    faces: tuple[int, ...]
    total: int
    slowness: int
    success: bool
    effect: str


@dataclass(frozen=True, slots=True)
class WillSpent(Event):
    """A character spent Will (a resist, a spell); at 0 or less it leaves the game (CD-CH-23/24)."""

    unit: int
    spent: int
    left: int
