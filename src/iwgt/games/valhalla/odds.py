"""Exact odds of a Valhalla fight or shot, as fractions, by enumerating every face of every die.

The rules' arithmetic is not restated here: each face is passed through the same functions the game uses
(``Fighter.score``, ``fight_hits``, ``save_effect``, ``Harm.take``, ``shot_hits_on``), so the odds can
never drift from the referee. Nothing here draws a random number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import icepool

from iwgt.games.valhalla.config import KINDS, Kind, rules
from iwgt.games.valhalla.dice import Fighter, Harm, fight_hits, save_effect, shot_hits_on

SHOT_DIE = 6
"""Sides of a shooting die (VH-SH-05: "one 6 sided die"); rules.toml gives no field for it."""

RangeBand = Literal["close", "long", "out of range"]
Distribution = dict[int, Fraction]
"""Chances keyed by a count (of hits), summing to exactly 1."""

FATES = ("killed", "wounded", "shocked", "unharmed")
"""What can become of a figure, each outcome in exactly one: the four sum to 1."""


def start_harm(shock: int, wounded: bool) -> Harm:
    """A figure's hurts before the dice: its shock markers and 0 or 1 wound.

    Raises ValueError for a state the rules never reach: negative shock, or as many markers as make a wound
    (VH-ST-09: a third shock is a wound at once).
    """
    limit = rules().saves.shock_to_wound
    if not 0 <= shock < limit:
        raise ValueError(
            f"shock must be 0 to {limit - 1} (a shock marker beyond that is a wound), not {shock}"
        )
    return Harm(shock=shock, wounds=1 if wounded else 0)


@dataclass(frozen=True, slots=True)
class Fate:
    """The exact distribution of one figure's hurts after its saving throws, from where it started."""

    start: Harm
    harm: dict[Harm, Fraction]

    @property
    def killed(self) -> Fraction:
        """The chance it goes to Valhalla."""
        return sum((p for h, p in self.harm.items() if h.killed), Fraction(0))

    @property
    def wounded(self) -> Fraction:
        """The chance it takes a new wound (a Dice of Death 2, or a third shock) and lives."""
        return sum(
            (p for h, p in self.harm.items() if not h.killed and h.wounds > self.start.wounds), Fraction(0)
        )

    @property
    def shocked(self) -> Fraction:
        """The chance it gains shock but no wound, and lives."""
        return sum(
            (
                p
                for h, p in self.harm.items()
                if not h.killed and h.wounds == self.start.wounds and h.shock > self.start.shock
            ),
            Fraction(0),
        )

    @property
    def unharmed(self) -> Fraction:
        """The chance its hurts are as before: no hit, or every save a 6 (or 5-6 for a hero)."""
        return self.harm.get(self.start, Fraction(0))

    def fates(self) -> dict[str, Fraction]:
        """Killed, wounded, shocked and unharmed, in that order."""
        return {
            "killed": self.killed,
            "wounded": self.wounded,
            "shocked": self.shocked,
            "unharmed": self.unharmed,
        }

    def to_json(self) -> dict[str, Any]:
        """The four fates as floats, and every resulting state of hurts with its chance."""
        out: dict[str, Any] = {k: float(p) for k, p in self.fates().items()}
        out["harm"] = [
            {"shock": h.shock, "wounds": h.wounds, "killed": h.killed, "p": float(p), "exact": str(p)}
            for h, p in sorted(self.harm.items(), key=lambda hp: (hp[0].killed, hp[0].wounds, hp[0].shock))
        ]
        return out

    def exact_json(self) -> dict[str, str]:
        """The four fates as exact fractions ("1/6")."""
        return {k: str(p) for k, p in self.fates().items()}


def _add(into: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    into[key] = into.get(key, Fraction(0)) + p


def fate_after_hits(kind: Kind, start: Harm, hits: Mapping[int, Fraction]) -> Fate:
    """The hurts of a figure of this kind after a distribution of hits: one Dice of Death per hit, in turn.

    VH-CO-13 and VH-SH-09: each hit is saved separately, so the second save applies to the hurts the first
    one left (a shocked figure's second shock can make a wound, a wounded one's second wound kills).
    """
    sides = rules().saves.sides
    face_p = Fraction(1, sides)
    harm: dict[Harm, Fraction] = {}
    for n, p_hits in hits.items():
        states = {start: p_hits}
        for _ in range(n):
            after: dict[Harm, Fraction] = {}
            for h, p in states.items():
                for face in range(1, sides + 1):
                    _add(after, h.take(save_effect(face, kind)), p * face_p)
            states = after
        for h, p in states.items():
            _add(harm, h, p)
    return Fate(start, {h: p for h, p in harm.items() if p})


def _hits_json(d: Distribution) -> dict[str, float]:
    return {str(k): float(p) for k, p in sorted(d.items())}


def _hits_exact(d: Distribution) -> dict[str, str]:
    return {str(k): str(p) for k, p in sorted(d.items())}


def fighter_json(f: Fighter) -> dict[str, Any]:
    """A fighter as given, with its die and the sum of its modifiers."""
    return {
        "kind": f.kind,
        "die": f.die,
        "modifier": f.modifier,
        "shock": f.shock,
        "wounded": f.wounded,
        "charging": f.charging,
        "higher_ground": f.higher_ground,
    }


@dataclass(frozen=True, slots=True)
class CombatOdds:
    """The exact odds of one round of combat (VH-CO-02..13) and its saving throws."""

    attacker: Fighter
    defender: Fighter
    attacker_hits: Distribution
    """Hits the attacker inflicts on the defender (0, 1 or 2)."""
    defender_hits: Distribution
    """Hits the defender inflicts on the attacker (0, 1 or 2)."""
    attacker_fate: Fate
    """What becomes of the attacker, after the defender's hits are saved."""
    defender_fate: Fate
    """What becomes of the defender, after the attacker's hits are saved."""

    @property
    def winner(self) -> dict[str, Fraction]:
        """The chance each side scores higher, or neither (equal scores: no hits, VH-CO-12)."""
        a = self.attacker_hits[1] + self.attacker_hits[2]
        d = self.defender_hits[1] + self.defender_hits[2]
        return {"attacker": a, "defender": d, "neither": 1 - a - d}

    def to_json(self) -> dict[str, Any]:
        """Floats, the inputs echoed, and every chance again as an exact fraction under "exact"."""
        return {
            "attacker_hits": _hits_json(self.attacker_hits),
            "defender_hits": _hits_json(self.defender_hits),
            "winner": {k: float(p) for k, p in self.winner.items()},
            "attacker": self.attacker_fate.to_json(),
            "defender": self.defender_fate.to_json(),
            "inputs": {"attacker": fighter_json(self.attacker), "defender": fighter_json(self.defender)},
            "exact": {
                "attacker_hits": _hits_exact(self.attacker_hits),
                "defender_hits": _hits_exact(self.defender_hits),
                "winner": {k: str(p) for k, p in self.winner.items()},
                "attacker": self.attacker_fate.exact_json(),
                "defender": self.defender_fate.exact_json(),
            },
        }


def combat_odds(attacker: Fighter, defender: Fighter) -> CombatOdds:
    """The exact odds of one round of combat between two figures: every pair of faces, equally likely.

    Raises ValueError for an unknown kind or a shock the rules never reach (see ``start_harm``).
    """
    for f in (attacker, defender):
        if f.kind not in KINDS:
            raise ValueError(f"unknown kind {f.kind!r}: one of {', '.join(KINDS)}")
    a_start = start_harm(attacker.shock, attacker.wounded)
    d_start = start_harm(defender.shock, defender.wounded)
    # icepool maps every pair of faces through the rule function, with exact fractions.
    both = icepool.map(
        lambda a_face, d_face: (
            fight_hits(attacker.score(a_face), defender.score(d_face)),
            fight_hits(defender.score(d_face), attacker.score(a_face)),
        ),
        icepool.d(attacker.die),
        icepool.d(defender.die),
    )
    a_hits: Distribution = {n: Fraction(both.marginals[0].probability(n)) for n in range(3)}
    d_hits: Distribution = {n: Fraction(both.marginals[1].probability(n)) for n in range(3)}
    return CombatOdds(
        attacker=attacker,
        defender=defender,
        attacker_hits=a_hits,
        defender_hits=d_hits,
        attacker_fate=fate_after_hits(attacker.kind, a_start, d_hits),
        defender_fate=fate_after_hits(defender.kind, d_start, a_hits),
    )


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """The exact odds of one or more shooting dice at one target (VH-SH-03..09) and its saving throws."""

    distance: float
    cover: bool
    target: Kind
    shots: int
    needs: int | None
    """The lowest face of the shooting die that hits, or None when no face can."""
    range_band: RangeBand
    reason: str | None
    """Why no shot can hit (out of range, or a face beyond the die needed), else None."""
    hit: Fraction
    """The chance one shooting die hits."""
    hits: Distribution
    """The chance of each number of hits, 0 to ``shots``."""
    fate: Fate
    """What becomes of the target."""

    @property
    def killed(self) -> Fraction:
        """The chance the target goes to Valhalla."""
        return self.fate.killed

    @property
    def wounded(self) -> Fraction:
        """The chance the target takes a new wound and lives."""
        return self.fate.wounded

    @property
    def shocked(self) -> Fraction:
        """The chance the target gains shock only."""
        return self.fate.shocked

    @property
    def unharmed(self) -> Fraction:
        """The chance the target's hurts are as before."""
        return self.fate.unharmed

    def to_json(self) -> dict[str, Any]:
        """Floats, the inputs echoed, and every chance again as an exact fraction under "exact"."""
        return {
            "hit": float(self.hit),
            "needs": self.needs,
            "range_band": self.range_band,
            "reason": self.reason,
            "hits": _hits_json(self.hits),
            **self.fate.to_json(),
            "inputs": {
                "range": self.distance,
                "cover": self.cover,
                "target": self.target,
                "target_shock": self.fate.start.shock,
                "target_wounded": self.fate.start.wounds > 0,
                "shots": self.shots,
            },
            "exact": {"hit": str(self.hit), "hits": _hits_exact(self.hits), **self.fate.exact_json()},
        }


def shoot_odds(
    distance: float,
    cover: bool,
    target: Kind,
    target_shock: int = 0,
    target_wounded: bool = False,
    shots: int = 1,
) -> ShotOdds:
    """The exact odds of ``shots`` shooting dice at a target this many inches away (edge to edge).

    Two shots are one figure shooting twice (VH-AC-17) at the same target; each hit is saved in turn.
    Raises ValueError for a negative or non-finite distance, an unknown kind, fewer than one shot, or a
    shock the rules never reach.
    """
    if not distance >= 0 or distance == float("inf"):
        raise ValueError(f"the range must be a distance of 0 inches or more, not {distance}")
    if target not in KINDS:
        raise ValueError(f"unknown kind {target!r}: one of {', '.join(KINDS)}")
    if shots < 1:
        raise ValueError(f"at least one shot, not {shots}")
    start = start_harm(target_shock, target_wounded)
    need = shot_hits_on(distance, cover)
    band: RangeBand
    reason: str | None = None
    if need is None:
        band = "out of range"
        reason = f'{distance:g}" is beyond the range of {rules().shooting.range:g}" (VH-SH-03)'
    else:
        # Close or long is read off the rule function itself (no cover: the need at 0" is the close need),
        # so the 6" boundary (VH-SH-04) is decided in one place only.
        band = "close" if shot_hits_on(distance, False) == shot_hits_on(0.0, False) else "long"
        if need > SHOT_DIE:
            reason = f"needs {need} on a d{SHOT_DIE}"
    faces = 0 if need is None else sum(1 for face in range(1, SHOT_DIE + 1) if face >= need)
    hit = Fraction(faces, SHOT_DIE)
    # Independent dice: the number of hits is binomial, built one die at a time.
    hits: Distribution = {0: Fraction(1)}
    for _ in range(shots):
        nxt: Distribution = {}
        for n, p in hits.items():
            _add(nxt, n, p * (1 - hit))
            _add(nxt, n + 1, p * hit)
        hits = nxt
    return ShotOdds(
        distance=distance,
        cover=cover,
        target=target,
        shots=shots,
        needs=need if need is not None and need <= SHOT_DIE else None,
        range_band=band,
        reason=reason,
        hit=hit,
        hits=hits,
        fate=fate_after_hits(target, start, hits),
    )
