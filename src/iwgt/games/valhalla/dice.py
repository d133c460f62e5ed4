"""The dice arithmetic of Valhalla as pure functions: the game and the odds tool share them.

Nothing here draws a random number: each function takes the faces and answers what they mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from iwgt.games.valhalla.config import Kind, rules

SaveEffect = Literal["killed", "wounded", "two_shock", "one_shock", "none"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """One figure's side of a fight: what it is and what modifies its die."""

    kind: Kind
    shock: int = 0
    wounded: bool = False
    charging: bool = False
    higher_ground: bool = False  # uphill of its opponent, or charged while in a village or woods (VH-CO-07)

    @property
    def die(self) -> int:
        """Sides of its combat die: d10 hero, d8 warrior, d6 archer or slinger (VH-CO-03..05)."""
        return rules().figures[self.kind].die

    @property
    def modifier(self) -> int:
        """The sum of its modifiers (VH-CO-06..09): +1 charging, +1 higher ground, -1 a shock, -2 wounded."""
        c = rules().combat
        return (
            (c.charging if self.charging else 0)
            + (c.higher_ground if self.higher_ground else 0)
            + c.per_shock * self.shock
            + (c.wounded if self.wounded else 0)
        )

    def score(self, face: int) -> int:
        """Its adjusted score for a face of its die."""
        return face + self.modifier


def fight_hits(score: int, other: int) -> int:
    """Hits a score inflicts on the other: 1 if higher, 2 if more than twice it, 0 if not higher.

    VH-CO-10..12; VH-CO-11 decided: "twice" an opponent's score of 0 or less is 0, so any positive
    score against it hits twice, and a winner's score of 0 or less never does.
    """
    if score <= other:
        return 0
    return 2 if score > rules().combat.double_ratio * max(other, 0) else 1


def save_effect(face: int, kind: Kind) -> SaveEffect:
    """What a Dice of Death face does to a figure (VH-ST-02..07: +1 for a hero's armour)."""
    s = rules().saves
    total = face + rules().figures[kind].save_bonus
    if total <= s.killed_max:
        return "killed"
    if total <= s.wounded_max:
        return "wounded"
    if total <= s.two_shock_max:
        return "two_shock"
    if total <= s.one_shock_max:
        return "one_shock"
    return "none"


@dataclass(frozen=True, slots=True)
class Harm:
    """A figure's hurts: shock markers, wounds, and whether it has gone to Valhalla."""

    shock: int = 0
    wounds: int = 0
    killed: bool = False

    def take(self, effect: SaveEffect) -> Harm:
        """The hurts after one saving throw (VH-ST-09: a third shock is a wound, the three markers with it;
        VH-ST-12: a second wound kills)."""
        s = rules().saves
        if self.killed or effect == "none":
            return self
        if effect == "killed":
            return Harm(self.shock, self.wounds, True)
        shock, wounds = self.shock, self.wounds
        if effect == "wounded":
            wounds += 1
        else:
            shock += 2 if effect == "two_shock" else 1
            while shock >= s.shock_to_wound:
                shock -= s.shock_to_wound
                wounds += 1
        if wounds >= s.wounds_to_kill:
            return Harm(shock, wounds, True)
        return Harm(shock, wounds, False)


def shot_hits_on(distance: float, cover: bool) -> int | None:
    """The lowest d6 face that hits at this edge-to-edge distance, or None out of range (VH-SH-03..08).

    The cover modifier is -1 on the die, so it raises the face needed by one; a needed 7 never hits.
    """
    s = rules().shooting
    if distance > s.range + 1e-9:
        return None
    need = s.close_hits_on if distance <= s.close + 1e-9 else s.long_hits_on
    return need - (s.cover_modifier if cover else 0)
