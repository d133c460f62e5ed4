"""What happens in a game of Valhalla; every event is public (the game hides nothing, VH-MS-05)."""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event
from iwgt.geometry.plane import XY


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """A new turn: the deck is shuffled and dealt (VH-TS-01, VH-TS-02)."""

    turn: int


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """A card dealt face up to a seat."""

    seat: int
    card: int
    label: str


@dataclass(frozen=True, slots=True)
class CardUp(Event):
    """A card comes up: its holder activates a figure (VH-TS-03..05)."""

    seat: int
    card: int
    label: str


@dataclass(frozen=True, slots=True)
class CardPassed(Event):
    """A card played with no activation, and why (VH-AC-01)."""

    seat: int
    card: int
    label: str
    reason: str


@dataclass(frozen=True, slots=True)
class FigureActivated(Event):
    """A figure takes its activation with so many actions (VH-AC-02, VH-AC-03)."""

    figure: int
    actions: int


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    """A figure's activation is over."""

    figure: int


@dataclass(frozen=True, slots=True)
class FigureMoved(Event):
    """A figure moved along a path, using so much of its movement (VH-AC-05..07)."""

    figure: int
    path: tuple[XY, ...]
    cost: float


@dataclass(frozen=True, slots=True)
class ObstacleCrossed(Event):
    """A figure crossed an obstacle (VH-AC-08)."""

    figure: int
    obstacle: int
    to: XY


@dataclass(frozen=True, slots=True)
class Charged(Event):
    """A figure charged an enemy into contact (VH-AC-09)."""

    figure: int
    target: int
    to: XY


@dataclass(frozen=True, slots=True)
class Withdrew(Event):
    """A figure withdrew from combat (VH-AC-10)."""

    figure: int
    to: XY


@dataclass(frozen=True, slots=True)
class Fought(Event):
    """A combat was fought: both faces, both adjusted scores and the hits each side scored (VH-CO-02..12)."""

    attacker: int
    defender: int
    attacker_face: int
    defender_face: int
    attacker_score: int
    defender_score: int
    attacker_hits: int
    defender_hits: int


@dataclass(frozen=True, slots=True)
class ShotFired(Event):
    """A shot: the face, the face it needed, and whether it hit (VH-SH-05..08)."""

    shooter: int
    target: int
    face: int
    needs: int
    hit: bool
    distance: float
    cover: bool


@dataclass(frozen=True, slots=True)
class SavingThrow(Event):
    """A Dice of Death roll and its effect (VH-ST-01..07)."""

    figure: int
    face: int
    effect: str


@dataclass(frozen=True, slots=True)
class FigureHurt(Event):
    """A figure's shock markers and wounds after a saving throw or a recovery."""

    figure: int
    shock: int
    wounds: int


@dataclass(frozen=True, slots=True)
class FigureKilled(Event):
    """A figure goes to Valhalla (VH-ST-02, VH-ST-12)."""

    figure: int


@dataclass(frozen=True, slots=True)
class Recovered(Event):
    """A figure removed a shock marker (VH-AC-13, VH-AC-14)."""

    figure: int
    shock: int


@dataclass(frozen=True, slots=True)
class ThingPickedUp(Event):
    """A figure picked a thing up (VH-AC-12)."""

    figure: int
    thing: int


@dataclass(frozen=True, slots=True)
class ThingDropped(Event):
    """A thing was dropped (by choice, or by a fallen figure)."""

    figure: int
    thing: int
    at: XY


@dataclass(frozen=True, slots=True)
class BaggageMoved(Event):
    """A side's baggage moved at the end of the turn (VH-AC-04)."""

    baggage: int
    path: tuple[XY, ...]


@dataclass(frozen=True, slots=True)
class CoinsWon(Event):
    """A side gained coins, and why (VH-WL-01..07)."""

    side: int
    coins: int
    reason: str
    total: int


@dataclass(frozen=True, slots=True)
class ObjectiveAchieved(Event):
    """A side achieved a scenario objective (VH-WL-07)."""

    side: int
    objective: int
    title: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """All cards are played: the turn is over (VH-TS-06)."""

    turn: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over: the winning side (None for a draw) and why (VH-WL-08)."""

    side: int | None
    reason: str
