"""The state of a game of Valhalla: an immutable value; the rules return new ones."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from iwgt.games.valhalla.config import Kind, rules
from iwgt.games.valhalla.scenario import ValhallaScenario
from iwgt.geometry.plane import XY

Phase = Literal["deal", "activate", "baggage", "over"]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def card_rank(card: int) -> int:
    """A card's rank, 1 (Ace) to 13 (King). Cards are numbered so that sorting them is playing order."""
    return card // 4 + 1


def card_suit(card: int) -> str:
    """A card's suit, by the decided suit order (VH-TS-05)."""
    return rules().table.suits[card % 4]


def card_label(card: int) -> str:
    """A card as players write it, e.g. ``A♣`` or ``10♥``."""
    return RANKS[card_rank(card) - 1] + SUIT_SYMBOLS[card_suit(card)]


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure: whose it is, where it stands, its hurts, and this turn's activation."""

    id: int
    seat: int
    side: int
    kind: Kind
    name: str
    at: XY
    shock: int = 0
    wounds: int = 0
    alive: bool = True
    activated: bool = False
    carrying: int | None = None

    @property
    def hurt(self) -> bool:
        """Shocked or wounded: one action per activation (VH-AC-03)."""
        return self.shock > 0 or self.wounds > 0

    @property
    def wounded(self) -> bool:
        """Whether it carries a wound."""
        return self.wounds > 0


@dataclass(frozen=True, slots=True)
class Thing:
    """Something on the table that is not a figure: a thing to carry, or a side's baggage."""

    id: int
    name: str
    at: XY
    radius: float
    baggage_side: int | None = None  # None: a thing figures may carry
    carrier: int | None = None


@dataclass(frozen=True, slots=True)
class Engagement:
    """Two figures in combat: the one that charged and the one it charged (VH-CO-14)."""

    charger: int
    charged: int

    def has(self, fid: int) -> bool:
        """Whether the figure is in this combat."""
        return fid in (self.charger, self.charged)

    def other(self, fid: int) -> int:
        """The figure's opponent in this combat."""
        return self.charged if fid == self.charger else self.charger


@dataclass(frozen=True, slots=True)
class Fight:
    """A combat being fought: the two figures, who charged, and the faces rolled so far."""

    attacker: int
    defender: int
    charging: bool
    attacker_face: int | None = None
    defender_face: int | None = None


@dataclass(frozen=True, slots=True)
class Shot:
    """A shot awaiting its die."""

    shooter: int
    target: int
    needs: int
    distance: float
    cover: bool


@dataclass(frozen=True)
class ValhallaState:
    """Everything about a game at one moment."""

    scenario: ValhallaScenario
    figures: tuple[Figure, ...]
    things: tuple[Thing, ...]
    turn: int = 1
    phase: Phase = "deal"
    deck: tuple[int, ...] = tuple(range(52))
    to_deal: tuple[int, ...] = ()  # seats still to receive a card this turn, in dealing order
    hands: tuple[tuple[int, ...], ...] = ()  # each seat's cards this turn
    order: tuple[tuple[int, int], ...] = ()  # (card, seat) in the order they come up
    card_index: int = 0
    active: int | None = None
    allowance: int = 0
    actions_used: int = 0
    withdrew: bool = False  # the active figure withdrew this activation: it may not charge again (VH-AC-10)
    engagements: tuple[Engagement, ...] = ()
    fight: Fight | None = None
    shot: Shot | None = None
    saves: tuple[int, ...] = ()  # figures awaiting a Dice of Death, one entry per hit
    baggage_queue: tuple[int, ...] = ()  # baggage still to move at the end of this turn
    coins: tuple[int, int] = (0, 0)
    achieved: frozenset[int] = frozenset()  # objectives scored (each once)
    winner_side: int | None = None
    over_reason: str = ""

    # ------------------------------------------------------------------ helpers

    def figure(self, fid: int) -> Figure:
        """A figure by id."""
        return self.figures[fid]

    def with_figure(self, f: Figure) -> ValhallaState:
        """The state with one figure replaced."""
        figs = list(self.figures)
        figs[f.id] = f
        return replace(self, figures=tuple(figs))

    def with_thing(self, t: Thing) -> ValhallaState:
        """The state with one thing replaced."""
        things = list(self.things)
        things[t.id] = t
        return replace(self, things=tuple(things))

    def living(self) -> list[Figure]:
        """The figures still alive."""
        return [f for f in self.figures if f.alive]

    def enemies_of(self, f: Figure) -> list[Figure]:
        """The living figures of the other side."""
        return [e for e in self.figures if e.alive and e.side != f.side]

    def opponents(self, fid: int) -> list[int]:
        """The figures in combat with this one."""
        return [e.other(fid) for e in self.engagements if e.has(fid)]

    def engaged(self, fid: int) -> bool:
        """Whether the figure is in combat."""
        return any(e.has(fid) for e in self.engagements)

    def engagement(self, a: int, b: int) -> Engagement | None:
        """The combat between two figures, if any."""
        for e in self.engagements:
            if e.has(a) and e.has(b):
                return e
        return None

    @property
    def current(self) -> tuple[int, int] | None:
        """The card that is up now and its holder, in the activation phase."""
        if self.phase != "activate" or self.card_index >= len(self.order):
            return None
        return self.order[self.card_index]

    @property
    def awaiting_dice(self) -> bool:
        """Whether the next step is a roll (a deal, a fight's die, a shot, a saving throw)."""
        if self.phase == "over":
            return False
        return bool(self.to_deal) or self.fight is not None or self.shot is not None or bool(self.saves)
