"""What happens in a game of Forged upon an Anvil: the flow's events (muster, field of battle, bids,
activations, deployment, movement, the end).

Sealed choices (army lists, terrain bids, turn bids) are private to their maker until both are in: the
``...Sealed`` event tells everybody that a seat has chosen, the private ``...Chosen`` event tells the maker
what, and the ``...Revealed`` event tells everybody both (anvil-spec 1, "Sealed bids as protocol steps").
Combat, shooting and spell events live with their rules (combat.py, shooting.py, spells.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    """An event only its owner's seat may see (a sealed bid or army list before both are in)."""

    owner: Seat

    def visible_to(self, seat: Seat | None) -> bool:
        """Only the owner's seat."""
        return seat == self.owner


@dataclass(frozen=True, slots=True)
class Sealed(Event):
    """A seat has made a sealed choice (``what``: army, terrain_bid or bid); what it chose stays hidden."""

    seat: Seat
    what: str


@dataclass(frozen=True, slots=True)
class ArmyChosen(PrivateEvent):
    """The maker's own sealed army list: its units' names and its DCP (FA-GN-03)."""

    units: tuple[str, ...]
    dcp: int


@dataclass(frozen=True, slots=True)
class ArmiesRevealed(Event):
    """Both army lists are in and shown (FA-GN-03): each side's unit names and DCP."""

    units: tuple[tuple[str, ...], tuple[str, ...]]
    dcp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TerrainBidChosen(PrivateEvent):
    """The maker's own sealed terrain bid (FA-FB-01)."""

    amount: int


@dataclass(frozen=True, slots=True)
class TerrainBidsRevealed(Event):
    """Both terrain bids shown; ``first`` places first (FA-FB-02/03)."""

    bids: tuple[int, int]
    first: Seat


@dataclass(frozen=True, slots=True)
class FeaturePlaced(Event):
    """A terrain feature placed with its designations (FA-FB-04/06)."""

    seat: Seat
    piece: str
    name: str
    centre: XY
    rotation: int
    outline: tuple[XY, ...]
    halves: bool
    blocks: bool
    impassable: bool


@dataclass(frozen=True, slots=True)
class FeatureSkipped(Event):
    """A feature given up: no legal place was left for it (FA-FB-06 decided)."""

    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True)
class ExtraCP(Event):
    """A seat's turn-1 extra CP for the features it placed (FA-FB-05)."""

    seat: Seat
    placed: int
    cp: int


@dataclass(frozen=True, slots=True)
class SeatPlaced(Event):
    """A Seat of Power placed within 12" of its own edge (FA-FB-07)."""

    seat: Seat
    unit: int
    centre: XY
    facing: float


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """A new turn: each seat bids up to its limit (FA-GT-01/02, FA-DP-03)."""

    turn: int
    limits: tuple[int, int]


@dataclass(frozen=True, slots=True)
class BidChosen(PrivateEvent):
    """The maker's own sealed turn bid (FA-GT-01)."""

    amount: int


@dataclass(frozen=True, slots=True)
class BidsRevealed(Event):
    """Both turn bids shown: a first tie loses the bid CP and bids again (``first`` None); a second tie
    stands, ``first`` the seat that went second last turn (FA-GT-04/05 decided); else the lower bidder goes
    first with the bid as its CP (FA-GT-03)."""

    turn: int
    bids: tuple[int, int]
    tie: bool
    first: Seat | None
    limits: tuple[int, int]


@dataclass(frozen=True, slots=True)
class UnitActivated(Event):
    """A unit activated for 1 CP (FA-AC-01..03)."""

    unit: int
    seat: Seat
    cost: int
    cp_left: int
    allowance: float


@dataclass(frozen=True, slots=True)
class UnitDeployed(Event):
    """A unit deployed onto the table for 1 CP plus its DCP (FA-DP-01..04, FA-SD-02, FA-SD-18);
    ``left_off``: the deployment stratagems a General's unit deploying under the deadline limit enters
    without (FA-DP-03 decided)."""

    unit: int
    seat: Seat
    edge: str
    centre: XY
    facing: float
    cost: int
    cp_left: int
    allowance: float
    left_off: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit moved along straight legs and pivoted (FA-MV-01..03); ``short`` when an unpremeasured order
    fell short of its end (FA-GN-09 decided)."""

    unit: int
    path: tuple[XY, ...]
    facing: float
    cost: float
    allowance_left: float
    short: bool = False


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    """The active unit's activation is over."""

    unit: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat gave up the CP it had left this turn (FA-AC-04 decided)."""

    seat: Seat
    cp: int


@dataclass(frozen=True, slots=True)
class MoverChanged(Event):
    """The activation passes to a seat (FA-AC-01, FA-AC-04)."""

    seat: Seat
    cp_left: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The turn is over: every per-turn effect goes (FA-AC-05/06)."""

    turn: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over (FA-GN-06, FA-MS-06): the winner (None: a draw) and why."""

    winner: Seat | None
    reason: str
