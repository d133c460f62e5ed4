"""The game state as a value: frozen dataclasses and tuples, replaced on write."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from iwgt.core.protocol import Result, Seat
from iwgt.games.valkyrx.scenario import ValkyrxScenario
from iwgt.games.valkyrx.units import UnitType, unit_types
from iwgt.geometry.hexgrid import Hex

if TYPE_CHECKING:
    from iwgt.games.valkyrx.combat import Attack

UnitStatus = Literal["active", "destroyed", "fled", "left"]
"""On the table (``active``), or removed: slain, fled below zero morale, or left the field (Elves)."""

Phase = Literal["deploy", "first_mover", "movement", "combat", "over"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit on (or removed from) the table. ``strength`` is men, or a character's remaining share."""

    id: int
    type_id: str
    owner: Seat
    cell: Hex
    strength: float
    morale: float
    status: UnitStatus = "active"
    controller: Seat | None = None  # None: its owner (a Command spell sets another seat; next issue)
    routed: bool = False
    airborne: bool = False
    moved: bool = False
    moved_cost: float = 0.0
    charging: bool = False
    last_charge: int | None = None
    temple_until: int = 0
    prayed: bool = False
    casualties_turn: float = 0.0
    undead_losses: float = (
        0.0  # casualties the undead inflicted: Resurrection cannot restore them (VX-SP-RESURRECT-3)
    )

    @property
    def type(self) -> UnitType:
        """The unit's row of the attributes table."""
        return unit_types()[self.type_id]

    @property
    def on_table(self) -> bool:
        """Whether the unit is still on the table."""
        return self.status == "active"

    @property
    def commander(self) -> Seat:
        """The seat that moves it."""
        return self.owner if self.controller is None else self.controller

    @property
    def start_strength(self) -> float:
        """Starting complement (bodies represented), 1 for a character."""
        return float(self.type.bodies)

    @property
    def men(self) -> float:
        """The "number of men" of the hit formula: a standing character counts as one (VX-07-03)."""
        return 1.0 if self.type.is_character else self.strength

    @property
    def is_spent(self) -> bool:
        """No fighting strength left: under one man for a body unit, nothing for a character (VX-14-10)."""
        return self.strength < 1.0 if not self.type.is_character else self.strength <= 0.0

    @property
    def label(self) -> str:
        """The unit's name and id as reports show it, e.g. ``Archers of Mynsterlif (L2)``."""
        return f"{self.type.name} ({'LD'[self.owner]}{self.id})"

    @property
    def value(self) -> float:
        """Points value scaled by remaining strength: the measure of strength for targets (VX-09-06)."""
        return self.type.points * self.strength / self.start_strength


@dataclass(frozen=True, slots=True)
class Contact:
    """Two units in close combat (adjacent, on the ground), ``a < b`` by id."""

    a: int
    b: int
    rounds: int = 0
    deferred: bool = False  # contact made late in a long move: fights from the next turn (VX-04-10)
    fresh: bool = True  # made this turn: charge impetus applies (VX-04-19)

    def other(self, uid: int) -> int:
        """The other unit of the pair."""
        return self.b if uid == self.a else self.a


@dataclass(frozen=True, slots=True)
class Pending:
    """A chance node waiting for a die: what it is for and whom it concerns."""

    kind: Literal["first_mover", "temple", "troll", "order", "factor"]
    unit: int = -1
    sides: int = 2
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class ValkyrxState:
    """Everything about a game in progress."""

    scenario: ValkyrxScenario
    units: tuple[Unit, ...]
    turn: int = 0
    phase: Phase = "deploy"
    deploy_seat: Seat = 0
    first_mover: Seat | None = None
    mover: Seat | None = None
    movers_done: int = 0
    contacts: tuple[Contact, ...] = ()
    pending: tuple[Pending, ...] = ()
    rolls: tuple[int, ...] = ()  # faces gathered for the combat round in progress
    result: Result | None = None
    leaders_slain: tuple[int, ...] = ()
    raised: tuple[tuple[int, float], ...] = ()
    plan: tuple[
        Attack, ...
    ] = ()  # the combat round being resolved  # men slain this round by each undead unit (VX-13-UNDEAD-2)

    def unit(self, uid: int) -> Unit:
        """A unit by id."""
        return self.units[uid]

    def with_unit(self, unit: Unit) -> ValkyrxState:
        """The state with one unit replaced."""
        units = list(self.units)
        units[unit.id] = unit
        return replace(self, units=tuple(units))

    def occupancy(self) -> dict[Hex, Unit]:
        """Units on the table by cell."""
        return {u.cell: u for u in self.units if u.on_table}

    def contact(self, x: int, y: int) -> Contact | None:
        """The contact between two units, if any."""
        a, b = (x, y) if x < y else (y, x)
        for c in self.contacts:
            if c.a == a and c.b == b:
                return c
        return None
