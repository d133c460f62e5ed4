"""What happened in a WarQuest battle, as events (the log, words and screen read them; rules never do)."""

from __future__ import annotations

from dataclasses import dataclass

from iwgt.core.protocol import Event, Seat


@dataclass(frozen=True, slots=True)
class BattleBegan(Event):
    """A moving army entered a region holding another player's pieces (WQ-MV-10/11)."""

    region: str
    attacker: Seat
    defender: Seat
    attacking: tuple[int, ...]  # the attacker's leaders and troops
    defending: tuple[int, ...]  # every piece of the defender in the region


@dataclass(frozen=True, slots=True)
class LinesArranged(Event):
    """A side set up its ranks, openly (WQ-CB-02/03/07, WQ-MS-43 designed)."""

    seat: Seat
    front: tuple[int, ...]
    rear: tuple[int, ...]
    reserve: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """A rank's attack was rolled (WQ-CB-09..12; AMBUSH's extra dice included, WQ-SP-07)."""

    seat: Seat
    side: str
    rank: str
    target: str
    dice: int
    faces: tuple[int, ...]
    hits: int
    flees: int


@dataclass(frozen=True, slots=True)
class SpellRolled(Event):
    """FIREBALL, ICE BLAST or one troop's share of FIRE BREATH was rolled at a troop (WQ-SP-11/12/14)."""

    seat: Seat
    spell: str
    troop: int
    dice: int
    faces: tuple[int, ...]
    hits: int
    flees: int


@dataclass(frozen=True, slots=True)
class BreathBreathed(Event):
    """The Fire Dragon breathed on a rank, once per battle (WQ-SP-14)."""

    seat: Seat
    rank: str
    troops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HitsTaken(Event):
    """Hits and flees were applied to a side's troops (WQ-CB-13..17, WQ-MS-40)."""

    seat: Seat  # the side that took them
    hits: tuple[tuple[int, int], ...]
    eliminated: tuple[int, ...]
    fled: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LineRefilled(Event):
    """A side filled gaps in its ranks from the Reserve (WQ-CB-18)."""

    seat: Seat
    front: tuple[int, ...]
    rear: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A full round ended: Trolls regenerated (WQ-SP-13), leaders rallied troops (WQ-CB-20)."""

    round: int
    regenerated: tuple[int, ...]
    rallied: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleWon(Event):
    """The battle ended (WQ-MS-41 designed); the winner gained its VP (WQ-MS-38)."""

    region: str
    winner: Seat
    loser: Seat
    withdrew: bool
    rounds: int
    vp: int


@dataclass(frozen=True, slots=True)
class Pursued(Event):
    """The winner pursued the beaten troops (WQ-MS-40, WQ-SP-03)."""

    seat: Seat
    dice: int
    faces: tuple[int, ...]
    eliminated: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ArmyFellBack(Event):
    """The beaten side's survivors left the region (WQ-MS-42 designed)."""

    seat: Seat
    region: str
    leaders: tuple[int, ...]
    troops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ArmyDestroyed(Event):
    """A beaten defender had no way out: its troops were eliminated (WQ-MS-42 designed)."""

    seat: Seat
    troops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LieutenantCaptured(Event):
    """A Lieutenant with no way out was captured and went back to its supply (WQ-MS-42 designed)."""

    seat: Seat
    leader: int


@dataclass(frozen=True, slots=True)
class WarlordEscaped(Event):
    """A Warlord with no way out escaped alone to the nearest free region (WQ-MS-42 designed)."""

    seat: Seat
    leader: int
    region: str
