"""What happened in a WarQuest game, as events: every fact the log shows is one of these.

Events are frozen dataclasses; ``visible_to`` hides a private one (a dealt hand, a drawn quest card) from
every seat but its holder. Rules never read events: the words, the report, the lights and the screen do.
"""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat

Counts = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """A deck was shuffled (its order stays hidden) (WQ-SU-05..09)."""

    deck: str
    cards: int


@dataclass(frozen=True, slots=True)
class EventsSetAside(Event):
    """The event deck was cut to the active deck; the rest left play unseen (WQ-SU-07)."""

    kept: int
    removed: int


@dataclass(frozen=True, slots=True)
class MarketTurned(Event):
    """Power cards were turned face up in the market (WQ-SU-05, WQ-PW-04)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A seat was dealt secret cards; only its holder sees which (WQ-SU-08/09)."""

    seat: Seat
    deck: str
    cards: tuple[int, ...]

    def visible_to(self, seat: Seat | None) -> bool:
        """Only the holder sees the cards."""
        return seat == self.seat


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """How many secret cards a seat was dealt (the public side of ``HandDealt``)."""

    seat: Seat
    deck: str
    count: int


@dataclass(frozen=True, slots=True)
class StartingPlayer(Event):
    """The die chose the starting player (WQ-SU-12)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class LeadersPlaced(Event):
    """A warlord placed the Warlord and a Lieutenant (WQ-SU-14)."""

    seat: Seat
    region: str
    leaders: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TroopsBought(Event):
    """Troops were bought and placed (starting army WQ-SU-15/16, Recruit WQ-RT-05)."""

    seat: Seat
    region: str
    troops: Counts
    ids: tuple[int, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """A warlord's turn began (WQ-TU-01, WQ-TU-05)."""

    seat: Seat
    round: int
    actions: int


@dataclass(frozen=True, slots=True)
class IncomeGained(Event):
    """Income powers paid gold at the start of the turn (designed power cards)."""

    seat: Seat
    gold: int


@dataclass(frozen=True, slots=True)
class ArmyMoved(Event):
    """An army moved along a path (WQ-MV-01..14)."""

    seat: Seat
    leader: int
    troops: tuple[int, ...]
    start: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PowerBought(Event):
    """A power card was bought at an Ancient Battlefield (WQ-PW-01..05)."""

    seat: Seat
    card: int
    cost: int


@dataclass(frozen=True, slots=True)
class PowerDiscarded(Event):
    """A power card left play for good under the Rule of Five (WQ-PW-06..08)."""

    seat: Seat
    card: int


@dataclass(frozen=True, slots=True)
class Taxed(Event):
    """An owned city was taxed (WQ-TX-01..03)."""

    seat: Seat
    region: str
    gold: int


@dataclass(frozen=True, slots=True)
class Conquered(Event):
    """An ownership token was placed; a previous owner's token went back (WQ-CQ-01..03)."""

    seat: Seat
    region: str
    previous: Seat | None


@dataclass(frozen=True, slots=True)
class LieutenantBought(Event):
    """A Lieutenant was bought and placed with the Warlord (WQ-LT-01..04)."""

    seat: Seat
    region: str
    leader: int
    cost: int


@dataclass(frozen=True, slots=True)
class QuestDeclared(Event):
    """A warlord declared a quest; the card is shown to all (WQ-QU-01/02)."""

    seat: Seat
    card: int
    region: str


@dataclass(frozen=True, slots=True)
class QuestRolled(Event):
    """The quest's two dice and their outcome (WQ-QU-03/04)."""

    seat: Seat
    card: int
    dice: tuple[int, ...]
    bonus: int
    target: int
    success: bool


@dataclass(frozen=True, slots=True)
class QuestCardDrawn(Event):
    """A quest card was drawn into a hand; only its holder sees which (WQ-QU-04, WQ-MS-37)."""

    seat: Seat
    card: int

    def visible_to(self, seat: Seat | None) -> bool:
        """Only the holder sees the card."""
        return seat == self.seat


@dataclass(frozen=True, slots=True)
class TreasureDrawn(Event):
    """Doubles: the top power card was drawn and shown; kept as Treasure or put under (WQ-QU-05/06)."""

    seat: Seat
    card: int
    kept: bool


@dataclass(frozen=True, slots=True)
class TroopsWentHome(Event):
    """Troops ended their owner's turn without a leader and went back to the pool (WQ-MV-09)."""

    seat: Seat
    region: str
    troops: tuple[int, ...]
    kinds: Counts


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """A warlord's turn ended."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class EventTurned(Event):
    """The round's event card was turned up (WQ-TU-06); its effects follow as their own events."""

    card: int
    round: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended (WQ-OB-03, WQ-MS-39)."""

    winners: tuple[Seat, ...]
    reason: str
    vp: tuple[int, ...]
