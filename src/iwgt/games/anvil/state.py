"""The state of a game of Forged upon an Anvil: an immutable value; the rules return new ones.

Seat 0's board edge is y = 0 (bottom), seat 1's is y = table height (top); seat 0's units face 0 degrees,
seat 1's 180 (docs/rules/anvil.md, FA-MS-02).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Literal, TypeVar

if TYPE_CHECKING:
    from iwgt.games.anvil.actions import Army
    from iwgt.games.anvil.pending import Pending
    from iwgt.games.anvil.scenario import AnvilScenario
    from iwgt.geometry.trays import Feature, Tray

Phase = Literal["muster", "terrain_bid", "terrain", "seats", "bid", "activation", "interrupt", "over"]
"""The status phase names (anvil-spec 2)."""
WinBy = Literal["general", "seat"]
"""What a side must destroy to win (FA-GN-06)."""
SEAT_TYPE: Final = "seat"
"""The unit type of the Seat of Power."""
PER_TURN_MARKERS: Final = ("braced", "transfixed", "skirmishing")
"""The markers that go at the end of every turn (FA-AC-06)."""


def home_facing(seat: int) -> float:
    """The facing of a seat's units as they come on from its own edge: straight into the table."""
    return 0.0 if seat == 0 else 180.0


@dataclass(frozen=True, slots=True)
class Options:
    """The table options: premeasuring (FA-GN-09) and the win condition for both sides (FA-GN-06)."""

    premeasure: bool = True
    win: WinBy = "general"


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: its army-list facts, its hit points, its tray on the table (None: not on the table) and its
    per-turn markers."""

    id: int
    seat: int
    type: str  # hero, wizard, monster, knight, war_machine, troop, seat
    name: str
    hp: int
    start_hp: int
    general: bool = False
    stratagems: tuple[str, ...] = ()  # deployment stratagems, for the entire game (FA-SD)
    tray: Tray | None = None
    destroyed: bool = False
    summoned: bool = False  # Summon Subjects or Raise a Champion: outside the army (FA-SN-12, FA-SH-05)
    braced: bool = False  # FA-SC-02, until turn end
    transfixed: bool = False  # FA-SN-06, until turn end
    skirmishing: bool = False  # FA-SM-10..12, until turn end

    @property
    def on_table(self) -> bool:
        """Whether the unit stands on the table now."""
        return self.tray is not None and not self.destroyed

    @property
    def waiting(self) -> bool:
        """Whether the unit has still to deploy."""
        return self.tray is None and not self.destroyed

    @property
    def is_seat(self) -> bool:
        """Whether this is a Seat of Power (never activates, never moves, FA-GN-07/08)."""
        return self.type == SEAT_TYPE

    def has(self, key: str) -> bool:
        """Whether the unit carries a deployment stratagem (Shooter, fear, Swiftness...)."""
        return key in self.stratagems


@dataclass(frozen=True, slots=True)
class PlacedFeature:
    """A terrain feature on the table: the palette piece it is, where, how turned, who placed it."""

    seat: int
    piece: str
    centre: tuple[float, float]
    rotation: int
    feature: Feature


@dataclass(frozen=True, slots=True)
class Activation:
    """The activation in progress: the unit, the stratagems used, the movement left and what it did."""

    unit: int
    seat: int
    stratagems: tuple[str, ...] = ()  # keys used this activation, each at most once (FA-AC-02)
    allowance: float = 0.0  # inches of movement left
    moved: bool = False
    engaged: bool = False
    shot: bool = False
    deployed: bool = False  # the unit deployed in this activation
    infiltrated: bool = False  # deployed by Infiltrate: no further move (decided)
    excess: float = 0.0  # excess-damage inches the attacker may still use (FA-CRM-03)
    excess_only: bool = False  # after a combat: only the excess move (or the end) is left
    # (unit, key) of the interruptions the other seat used in this activation: each at most once per unit
    # per opponent's activation (FA-AC-02 decided), so a chain does not offer Counterattack again.
    interruptions: tuple[tuple[int, str], ...] = ()

    def used(self, key: str) -> bool:
        """Whether a stratagem was used in this activation."""
        return key in self.stratagems


@dataclass(frozen=True)
class AnvilState:
    """Everything about a game at one moment."""

    scenario: AnvilScenario
    options: Options = Options()
    phase: Phase = "muster"
    turn: int = 0
    units: tuple[Unit, ...] = ()
    # muster: the sealed army lists, until both are in (FA-GN-03)
    armies: tuple[Army | None, Army | None] = (None, None)
    # the field of battle (FA-FB)
    terrain_bids: tuple[int | None, int | None] = (None, None)
    features: tuple[PlacedFeature, ...] = ()
    to_place: tuple[int, int] = (0, 0)  # features each seat has still to place (or skip)
    placed: tuple[int, int] = (0, 0)  # features each seat actually placed (FA-FB-05)
    placer: int | None = None  # the seat placing a feature or a Seat of Power now
    first_placer: int = 0  # who placed first: places the first Seat of Power (FA-FB-07)
    extra_cp: tuple[int, int] = (0, 0)  # turn-1 extra CP (FA-FB-05)
    # the turn bid (FA-GT)
    bids: tuple[int | None, int | None] = (None, None)
    limits: tuple[int, int] = (0, 0)  # the most each seat may bid now (ties lower it, FA-GT-05)
    bid_round: int = 0
    cp: tuple[int, int] = (0, 0)  # CP left this turn
    first: int | None = None  # the seat that goes first this turn
    last_first: int | None = None  # the seat that went first last turn (a tie that stands, FA-GT-04/05)
    mover: int | None = None  # the seat whose activation it is
    passed: tuple[bool, bool] = (False, False)
    activation: Activation | None = None
    pending: Pending | None = None  # an interruption chance or a combat awaiting its answer (pending.py)
    # records
    turn_used: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())  # per seat, this turn
    game_used: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())  # per seat, once per game
    summons: tuple[int, int] = (0, 0)  # Summon Subjects uses per seat (FA-SN-14)
    winner: int | None = None  # None with phase "over": a draw
    over_reason: str = ""

    # ------------------------------------------------------------------ helpers

    def unit(self, uid: int) -> Unit:
        """A unit by id (ids are positions in ``units``)."""
        return self.units[uid]

    def units_of(self, seat: int) -> list[Unit]:
        """Every unit of a seat, destroyed or not."""
        return [u for u in self.units if u.seat == seat]

    def on_table(self, seat: int | None = None) -> list[Unit]:
        """The units on the table (of one seat, or of both)."""
        return [u for u in self.units if u.on_table and (seat is None or u.seat == seat)]

    def waiting(self, seat: int) -> list[Unit]:
        """A seat's units still to deploy."""
        return [u for u in self.units if u.seat == seat and u.waiting]

    def enemies(self, seat: int) -> list[Unit]:
        """The other seat's units on the table."""
        return [u for u in self.units if u.on_table and u.seat != seat]

    def general(self, seat: int) -> Unit | None:
        """A seat's General's unit (None if the army has none yet)."""
        for u in self.units:
            if u.seat == seat and u.general:
                return u
        return None

    def seat_of_power(self, seat: int) -> Unit | None:
        """A seat's Seat of Power."""
        for u in self.units:
            if u.seat == seat and u.is_seat:
                return u
        return None

    def with_unit(self, u: Unit) -> AnvilState:
        """The state with one unit replaced."""
        units = list(self.units)
        units[u.id] = u
        return replace(self, units=tuple(units))

    def with_units(self, *changed: Unit) -> AnvilState:
        """The state with several units replaced."""
        units = list(self.units)
        for u in changed:
            units[u.id] = u
        return replace(self, units=tuple(units))

    def terrain(self) -> list[Feature]:
        """The terrain features on the table, as geometry."""
        return [p.feature for p in self.features]

    @property
    def active(self) -> Unit | None:
        """The unit whose activation it is."""
        return None if self.activation is None else self.units[self.activation.unit]


T = TypeVar("T")


def pair(values: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """A two-seat tuple with one seat's entry replaced."""
    return (value, values[1]) if seat == 0 else (values[0], value)
