"""The state of a Coloured-Dice battle: an immutable value; the rules return new ones.

Seat 0's table edge is y = 0 (bottom), seat 1's is y = table height (top); seat 0's units face 0 degrees
(+y), seat 1's 180 (cd-spec 1, "Turns, battlefield, winning"). A unit is a block of models on one tray
(CD-AC, CD-MI-01); the models are laid out by ``formation.py`` from the tray, the model count and the files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final, Literal, TypeVar

from iwgt.games.coloured_dice.rules import rules
from iwgt.geometry.trays import Feature, Tray

if TYPE_CHECKING:
    from iwgt.core.protocol import Result
    from iwgt.games.coloured_dice.pending import Pending
    from iwgt.games.coloured_dice.scenario import CdScenario

XY = tuple[float, float]
Order = Literal["open", "skirmish", "loose", "tight"]
"""A unit's order (CD-AC-05..08): open and skirmish for units without 'formation', loose and tight with."""
ORDERS: Final[tuple[str, ...]] = ("open", "skirmish", "loose", "tight")
"""Every order, in the order the screen lists them."""
FORMATION_ORDERS: Final[tuple[str, ...]] = ("loose", "tight")
"""The orders of a unit with the 'formation' ability (CD-AC-07/08)."""
Phase = Literal["turn", "roll", "decide", "over"]
"""The status phase names (cd-spec 2, engine core)."""
ACTIONS_PER_TURN: Final[int] = rules().constants.actions_per_turn
"""A unit's actions in its player's turn (CD-AC-01, data)."""
GM_START: Final[int] = rules().constants.general_morale_start
"""Each army's general morale at the start (CD-GM-01, data)."""
SEATS: Final = 2
"""Two sides."""


def home_facing(seat: int) -> float:
    """The facing of a seat's units as they deploy at its own edge: straight into the table."""
    return 0.0 if seat == 0 else 180.0


@dataclass(frozen=True, slots=True)
class Buff:
    """A passing effect on a unit (a spell, a released spirit): ``effect`` names what it changes (``armour``,
    ``move``, ``dice``...), ``amount`` by how much; it lasts until the start of ``until_seat``'s turn in round
    ``until_round`` (the flow drops it then)."""

    key: str
    effect: str
    amount: int
    until_round: int
    until_seat: int


@dataclass(frozen=True, slots=True)
class TerrainPiece:
    """A terrain feature on the table (CD-TE): its kind (a key of the rules' terrain table: hill, stream,
    river, pond, bushes, woodland, forest, building, fence, wall, stones, cave, rocks), outline in inches,
    hill height, and whether it is gone (bushes cleared by the models that went through, CD-TE-08)."""

    id: int
    kind: str
    name: str
    outline: tuple[XY, ...]
    height: float = 0.0
    removed: bool = False

    def feature(self, *, blocks: bool = False, impassable: bool = False) -> Feature:
        """The piece as shared geometry (sight-blocking and impassability are the terrain table's facts)."""
        return Feature(self.outline, halves=False, blocks=blocks, impassable=impassable, name=self.name)


@dataclass(frozen=True, slots=True)
class Objective:
    """A scenario objective: a point, its victory points (CD-MS-06/07 designed)."""

    id: int
    at: XY
    vp: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: its army and profile key, its models and the wounds on the current model, its tray and
    order, and what it did and may still do this turn.

    ``wounds`` holds the wounds on the model next to die (Body > 1, CD-MS-10); ``moved`` counts the move
    actions used this turn (a second is marching, CD-AC-02); ``owner`` is a released spirit's owner unit;
    ``strikes_first_vs`` the charger it strikes first against after a reaction (CD-RE-02).
    """

    id: int
    seat: int
    army: str
    key: str
    name: str
    models: int
    start_models: int
    tray: Tray
    files: int
    order: str
    wounds: int = 0
    actions_left: int = ACTIONS_PER_TURN
    attacked: bool = False
    moved: int = 0
    shaken: bool = False
    destroyed: bool = False
    routed: bool = False
    round_losses: int = 0
    hero_left: int = 0
    bear_left: int = 0
    will: int | None = None
    buffs: tuple[Buff, ...] = ()
    spirits: tuple[str, ...] = ()
    owner: int | None = None
    general: bool = False
    banner: bool = False
    strikes_first_vs: int | None = None
    marching_blocked: bool = False
    start_us: int = 0  # its morale cap at the start (general-morale table, CD-GM)

    @property
    def on_table(self) -> bool:
        """Whether the unit is still on the table (not destroyed, not routed)."""
        return not self.destroyed and not self.routed and self.models > 0

    @property
    def gone(self) -> bool:
        """Destroyed or routed: counts as destroyed for VP and general morale (CD-GM designed)."""
        return self.destroyed or self.routed or self.models <= 0

    @property
    def leader_alive(self) -> bool:
        """The unit's leader is its last model, removed last (CD-MS-11): alive while any model is."""
        return self.models > 0

    def buff_total(self, effect: str) -> int:
        """The sum of the unit's buffs on one effect."""
        return sum(b.amount for b in self.buffs if b.effect == effect)


@dataclass(frozen=True, slots=True)
class MoveRoll:
    """A move or charge waiting for its terrain dice (a river, a pond, woodland for cavalry, a forest: CD-TE):
    one d6 chance node per feature in ``dice`` (feature ids), in order; ``rolled`` holds the faces so far.
    The engine core (``movement.py``) owns this pending kind; everything else on the stack is combat's."""

    unit: int
    path: tuple[XY, ...]
    facing: float
    allowance: float  # inches after the fixed taxes, before the dice
    fixed: float  # the fixed taxes already taken off
    dice: tuple[int, ...]
    rolled: tuple[int, ...] = ()
    target: int | None = None  # a charge's target
    march: bool = False
    blocks_march: bool = False  # a pond on the way: no second move this turn
    bushes: tuple[int, ...] = ()  # bushes crossed (cleared if the unit has more than a few models)
    start_gap: float = 0.0  # a charge's tray gap at its start (the reaction dice, CD-RE-01)


@dataclass(frozen=True, slots=True)
class LastRoll:
    """The last pool rolled, as the screen shows it: its purpose, dice, faces and outcome."""

    purpose: str
    dice: tuple[str, ...]
    faces: tuple[int, ...]
    points: int = 0
    kills: int = 0
    armour: int | None = None
    wounds: int | None = None


@dataclass(frozen=True)
class CdState:
    """Everything about a battle at one moment."""

    scenario: CdScenario
    units: tuple[Unit, ...]
    features: tuple[TerrainPiece, ...]
    objectives: tuple[Objective, ...] = ()
    round: int = 1
    seat: int = 0  # whose turn it is
    general_morale: tuple[int, int] = (GM_START, GM_START)
    vp: tuple[int, int] = (0, 0)
    objectives_taken: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    pending: tuple[Pending | MoveRoll, ...] = ()  # a stack, top = pending[-1]: combat's kinds and MoveRoll
    over: Result | None = None
    next_id: int = 0  # the id a new unit (a released spirit) takes
    last_roll: LastRoll | None = None
    start_points: tuple[int, int] = (0, 0)  # each side's points at the start (the 2/3 break, CD-MS-07)
    notes: tuple[str, ...] = field(default=())  # free, for debugging; the rules never read it

    # ------------------------------------------------------------------ helpers

    def unit(self, uid: int) -> Unit:
        """A unit by id (ids are positions in ``units``)."""
        return self.units[uid]

    def units_of(self, seat: int) -> list[Unit]:
        """Every unit of a seat, gone or not."""
        return [u for u in self.units if u.seat == seat]

    def on_table(self, seat: int | None = None) -> list[Unit]:
        """The units on the table (of one seat, or of both)."""
        return [u for u in self.units if u.on_table and (seat is None or u.seat == seat)]

    def enemies(self, seat: int) -> list[Unit]:
        """The other seat's units on the table."""
        return [u for u in self.units if u.on_table and u.seat != seat]

    def with_unit(self, u: Unit) -> CdState:
        """The state with one unit replaced."""
        units = list(self.units)
        units[u.id] = u
        return replace(self, units=tuple(units))

    def with_units(self, *changed: Unit) -> CdState:
        """The state with several units replaced."""
        units = list(self.units)
        for u in changed:
            units[u.id] = u
        return replace(self, units=tuple(units))

    def add_unit(self, u: Unit) -> CdState:
        """The state with a new unit (its id must be ``len(units)``: a released spirit)."""
        if u.id != len(self.units):
            raise ValueError(f"a new unit takes id {len(self.units)}, not {u.id}")
        return replace(self, units=(*self.units, u), next_id=u.id + 1)

    def piece(self, fid: int) -> TerrainPiece:
        """A terrain piece by id (ids are positions in ``features``)."""
        return self.features[fid]

    def terrain(self) -> list[TerrainPiece]:
        """The terrain pieces still on the table (cleared bushes are gone)."""
        return [f for f in self.features if not f.removed]

    @property
    def top(self) -> Pending | MoveRoll | None:
        """The pending step on top of the stack (None: nothing pending)."""
        return self.pending[-1] if self.pending else None

    def push(self, p: Pending | MoveRoll) -> CdState:
        """The state with one more pending step on top."""
        return replace(self, pending=(*self.pending, p))

    def pop(self) -> CdState:
        """The state with the top pending step gone."""
        return replace(self, pending=self.pending[:-1])

    def with_top(self, p: Pending | MoveRoll) -> CdState:
        """The state with the top pending step replaced."""
        return replace(self, pending=(*self.pending[:-1], p))

    @property
    def rounds(self) -> int:
        """The scenario's number of rounds."""
        return self.scenario.rounds

    @property
    def width(self) -> float:
        """The table's width in inches."""
        return self.scenario.width

    @property
    def height(self) -> float:
        """The table's depth in inches."""
        return self.scenario.height


T = TypeVar("T")


def pair(values: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """A two-seat tuple with one seat's entry replaced."""
    return (value, values[1]) if seat == 0 else (values[0], value)
