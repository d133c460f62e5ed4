"""The WarQuest state: immutable values only (frozen dataclasses of tuples), so every step is pure.

Ids: leaders and troops share one id space (``WqState.next_id`` is the next free one); card ids are
0-based in file order within each deck (``rules.py``). Seats 0..N-1 sit clockwise (wq-spec 1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from iwgt.core.chance import Die
from iwgt.core.protocol import Result
from iwgt.games.warquest.scenario import WqScenario

if TYPE_CHECKING:
    from iwgt.games.warquest.battle import Battle

Phase = Literal["setup", "place", "turn", "battle", "event", "over"]
"""Where the game stands: dealing, placing, a player's turn, a battle, the round's event, finished."""
LeaderRank = Literal["warlord", "lieutenant"]


@dataclass(frozen=True, slots=True)
class Troop:
    """One troop figure on the board."""

    id: int
    kind: str
    seat: int
    region: str


@dataclass(frozen=True, slots=True)
class Leader:
    """A Warlord or a Lieutenant on the board (WQ-MV-03)."""

    id: int
    seat: int
    rank: LeaderRank
    region: str


@dataclass(frozen=True, slots=True)
class Player:
    """One warlord's holdings: gold and VP are public (WQ-CM-20 decision), hands are secret."""

    seat: int
    gold: int
    vp: int
    quests: tuple[int, ...]
    conquests: tuple[int, ...]
    powers: tuple[int, ...]
    done_quests: tuple[int, ...]
    scored_conquests: tuple[int, ...]
    battles_won: int = 0
    extra_action: bool = False
    battle_dice: int = 0


@dataclass(frozen=True, slots=True)
class TurnMarks:
    """What the player whose turn it is has done this turn (WQ-MV-06, WQ-TX-03, WQ-PW-05, WQ-QU-01)."""

    moved: frozenset[int] = frozenset()
    taxed: frozenset[str] = frozenset()
    bought_power: bool = False
    quests: int = 0
    """Quests attempted this turn (WQ-QU-01 designed: at most ``QUESTS_PER_TURN``)."""
    actions_left: int = 0


@dataclass(frozen=True, slots=True)
class Decks:
    """Every deck's order (index 0 is the top); the ``*_bottom`` piles are public, drawn after the rest."""

    quest: tuple[int, ...] = ()
    quest_bottom: tuple[int, ...] = ()
    conquest: tuple[int, ...] = ()
    power: tuple[int, ...] = ()
    power_bottom: tuple[int, ...] = ()
    market: tuple[int | None, ...] = ()
    events: tuple[int, ...] = ()
    events_removed: tuple[int, ...] = ()
    events_done: tuple[int, ...] = ()
    unlocked: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Pending:
    """One entry of the engine's stack of things to resolve (top last): a chance roll or a question.

    ``die`` set: a chance node (``faces`` collects the faces rolled so far, ``count`` is the total number
    of dice of the roll, for every kind: the entry is done when ``len(faces) == count``). ``seat`` set and
    no die: a question that seat answers. ``kind`` says what it is for:
    "shuffle" (``key`` = the deck), "first" (the starting player), "quest" (``card``, ``seat``),
    "discard" (Rule of Five, ``seat``), "event" (``card``), "monster" (``key`` = kingdom, ``seat``), ...
    The other fields carry what the entry needs; modules that push an entry own its meaning.
    """

    kind: str
    seat: int | None = None
    die: Die | None = None
    count: int = 0
    faces: tuple[int, ...] = ()
    card: int | None = None
    region: str | None = None
    key: str = ""
    items: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LastRoll:
    """A finished roll, for the observation's ``last_roll``: what it was for, the faces, and the seat it
    concerned; ``combat`` when the dice were combat dice (faces shown as "hit", "flee", "blank")."""

    purpose: str
    faces: tuple[int, ...]
    seat: int | None = None
    combat: bool = False


@dataclass(frozen=True, slots=True)
class WqState:
    """The whole game at one moment."""

    scenario: WqScenario
    phase: Phase
    round: int
    first: int
    seat: int
    marks: TurnMarks
    players: tuple[Player, ...]
    leaders: tuple[Leader, ...]
    troops: tuple[Troop, ...]
    owners: tuple[tuple[str, int], ...]
    decks: Decks
    battle: Battle | None = None
    pending: tuple[Pending, ...] = ()
    wraith_seat: int | None = None
    next_id: int = 0
    result: Result | None = None
    last_roll: LastRoll | None = None  # the last finished roll outside a battle's own (public)

    @property
    def n(self) -> int:
        """The number of seats."""
        return len(self.players)

    def warlord(self, seat: int) -> Leader | None:
        """The seat's Warlord figure, if on the board."""
        for ld in self.leaders:
            if ld.seat == seat and ld.rank == "warlord":
                return ld
        return None

    def lieutenants(self, seat: int) -> int:
        """How many of the seat's Lieutenants stand on the board (WQ-LT-04)."""
        return sum(1 for ld in self.leaders if ld.seat == seat and ld.rank == "lieutenant")

    def owner(self, region: str) -> int | None:
        """The seat owning a region, or None."""
        for r, s in self.owners:
            if r == region:
                return s
        return None

    def owner_map(self) -> dict[str, int]:
        """Every owned region and its owner."""
        return dict(self.owners)

    def leader(self, lid: int) -> Leader | None:
        """The leader with this id, if on the board."""
        for ld in self.leaders:
            if ld.id == lid:
                return ld
        return None

    def troop(self, tid: int) -> Troop | None:
        """The troop with this id, if on the board."""
        for t in self.troops:
            if t.id == tid:
                return t
        return None

    def leaders_in(self, region: str, seat: int | None = None) -> tuple[Leader, ...]:
        """The leaders in a region (of one seat, if given)."""
        return tuple(ld for ld in self.leaders if ld.region == region and (seat is None or ld.seat == seat))

    def troops_in(self, region: str, seat: int | None = None) -> tuple[Troop, ...]:
        """The troops in a region (of one seat, if given)."""
        return tuple(t for t in self.troops if t.region == region and (seat is None or t.seat == seat))

    def seats_in(self, region: str) -> frozenset[int]:
        """The seats with any piece in a region."""
        return frozenset(ld.seat for ld in self.leaders if ld.region == region) | frozenset(
            t.seat for t in self.troops if t.region == region
        )

    def occupied(self) -> dict[str, frozenset[int]]:
        """Every region with pieces and the seats holding them."""
        out: dict[str, set[int]] = {}
        for ld in self.leaders:
            out.setdefault(ld.region, set()).add(ld.seat)
        for t in self.troops:
            out.setdefault(t.region, set()).add(t.seat)
        return {r: frozenset(s) for r, s in out.items()}

    def on_board(self, kind: str) -> int:
        """How many troops of a kind are on the board (the rest are in the pool, WQ-SU-01)."""
        return sum(1 for t in self.troops if t.kind == kind)


def with_player(state: WqState, player: Player) -> WqState:
    """The state with one player's holdings replaced."""
    players = tuple(player if p.seat == player.seat else p for p in state.players)
    return replace(state, players=players)


def add_gold(state: WqState, seat: int, delta: int) -> WqState:
    """The state with ``delta`` gold added to a seat's (a loss takes at most what the seat has)."""
    p = state.players[seat]
    return with_player(state, replace(p, gold=max(0, p.gold + delta)))


Owners = tuple[tuple[str, int], ...]
"""Region ownership: sorted ``((region, seat), ...)``."""


def set_owner(owners: Owners, region: str, seat: int | None) -> Owners:
    """The owners with one region's owner set (None: unowned), kept sorted by region."""
    d = dict(owners)
    if seat is None:
        d.pop(region, None)
    else:
        d[region] = seat
    return tuple(sorted(d.items()))
