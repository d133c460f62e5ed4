"""The game state as a value: frozen dataclasses and tuples, replaced on write."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from iwgt.core.protocol import Seat
from iwgt.games.valkyrx.scenario import ValkyrxScenario
from iwgt.games.valkyrx.units import UnitType, unit_types
from iwgt.geometry.hexgrid import Hex

UnitStatus = Literal["active", "reserve", "destroyed", "fled", "left"]
"""In play (``active``: on the table, or hidden off it), a late troop not yet arrived (``reserve``,
VX-15-24), or removed: slain, fled below zero morale, or left the field (Elves)."""

Phase = Literal["deploy", "first_mover", "movement", "spells", "combat", "over"]


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
    controller: Seat | None = None  # None: its owner; a Command spell sets the other seat (VX-SP-COMMAND-2)
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
        0.0  # inflicted by the undead: Resurrection cannot restore them (VX-SP-RESURRECT-3)
    )
    hidden: bool = False  # off the table: the Grima in stealth, the Sand Worm underground (section 12)
    quarry: int | None = None  # the enemy character the Grima pursues (VX-12-03)
    surface_turns: int = 0  # turns the Sand Worm has ended on the surface since it last burrowed (VX-12-13)
    spells: tuple[str, ...] = ()  # a wizard's chosen spells not yet cast (VX-11-02, VX-SP-GEN-4)
    cast_turn: int = 0  # the last turn the wizard cast a spell (VX-SP-GEN-2)
    morale_bonus: float = 0.0  # Fear and Courage in force (VX-SP-FEAR-2, VX-SP-COURAGE-2)
    infected: int = 0  # the turn the unit caught the plague, 0 if healthy (VX-SP-PLAGUE-5)
    plague_base: float = 0.0  # its strength when infected: plague losses are shares of it (VX-SP-PLAGUE-6)
    carrier_only: bool = False  # carries the plague without sickening: the first carrier, Pocâdl
    burned: int = 0  # the last turn fire struck it (spell or weapon): for the Stone Titan (VX-SP-ICE-4)
    chilled: int = 0  # the last turn ice struck it

    @property
    def type(self) -> UnitType:
        """The unit's row of the attributes table."""
        return unit_types()[self.type_id]

    @property
    def on_table(self) -> bool:
        """Whether the unit stands on the table, in sight (not removed, not hidden)."""
        return self.status == "active" and not self.hidden

    @property
    def in_play(self) -> bool:
        """Whether the unit is still in the game, on the table or hidden off it (not a reserve to come)."""
        return self.status == "active"

    @property
    def in_reserve(self) -> bool:
        """A late troop waiting off the table for its turn (VX-15-24); its ``cell`` means nothing yet."""
        return self.status == "reserve"

    @property
    def gone(self) -> bool:
        """Removed from the game for good: destroyed, fled or left (never a reserve still to come)."""
        return self.status in ("destroyed", "fled", "left")

    @property
    def spirit(self) -> float:
        """Morale with the spells in force (Fear, Courage): what its status, random factor and rout use."""
        return self.morale + self.morale_bonus

    @property
    def is_carrier(self) -> bool:
        """Whether it carries the plague."""
        return self.infected > 0 or self.carrier_only

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


AttackKind = Literal["melee", "missile"]
"""Close combat, or shooting and slinging."""


@dataclass(frozen=True, slots=True)
class Attack:
    """One unit's share of firepower against one enemy this round, with the circumstances that modify it.

    It lives with the state (not with the combat rules that plan and resolve it) because the state holds the
    round being resolved (``ValkyrxState.plan``).
    """

    attacker: int
    target: int
    kind: AttackKind
    share: float
    melee_stage: bool = False
    charge: bool = False
    flank: bool = False
    outnumbered: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """A chance node waiting for a die: what it is for and whom it concerns."""

    kind: Literal[
        "first_mover",
        "temple",
        "troll",
        "order",
        "factor",
        "resist",
        "spell",
        "grima",
        "worm",
        "bearer",
        "armageddon",
    ]
    unit: int = -1
    sides: int = 2
    purpose: str = ""
    secret: bool = False  # the table rolls it unseen, even with physical dice (the plague carrier)


@dataclass(frozen=True, slots=True)
class Verdict:
    """How the battle ended, as the rules decide it: the winning seat (None: a draw) and why."""

    winner: Seat | None
    reason: str


@dataclass(frozen=True, slots=True)
class Enchantment:
    """A spell in force: who cast it, when it works, and the units or cells it holds."""

    spell: str
    caster: int
    side: Seat  # the seat the caster fought for when he cast it
    cast_turn: int
    first: int  # first turn in force
    last: int  # last turn in force
    units: tuple[int, ...] = ()
    cells: tuple[Hex, ...] = ()  # the portal; the lava's starting cell
    used: int = 0  # units carried through the portal (VX-SP-TRANSPORT-5)

    def covers(self, turn: int) -> bool:
        """Whether it is in force in this turn."""
        return self.first <= turn <= self.last


@dataclass(frozen=True, slots=True)
class Casting:
    """A spell being cast, waiting for its dice: resist rolls first, then the spell's own."""

    spell: str
    caster: int
    stage: Literal["resist", "effect"]
    units: tuple[int, ...]  # the units the spell reaches, in order
    target: Hex | None = None
    resisted: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Infection:
    """One link of the plague's chain, for the end-of-game report (VX-SP-PLAGUE-8)."""

    turn: int
    unit: int
    source: int  # the unit it caught it from, or the wizard whose spell made it the first carrier
    by_spell: bool


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
    result: Verdict | None = None
    leaders_slain: tuple[int, ...] = ()
    raised: tuple[tuple[int, float], ...] = ()  # men slain this round by each undead unit (VX-13-UNDEAD-2)
    plan: tuple[Attack, ...] = ()  # the combat round being resolved
    enchantments: tuple[Enchantment, ...] = ()
    casting: Casting | None = None
    denied: tuple[int, ...] = ()  # enemy wizards whose spells fizzle for the rest of this turn (Deny Magic)
    plague_chain: tuple[Infection, ...] = ()

    def unit(self, uid: int) -> Unit:
        """A unit by id."""
        return self.units[uid]

    def arrives(self, uid: int) -> int | None:
        """The turn a late troop may join the battle (VX-15-24), None for a unit there from the start."""
        return self.scenario.arrivals[uid]

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
