"""The odds of a shot or a fight before it is made: the pool, the effective armour and its parts, the exact
casualties distribution, and the chances the target then fails its morale test or is destroyed (``odds.py``).

The preview is of the attacker's own strike (in a fight the target's strike back is not in it) before hero
points and bear-wound dice (they are choices made after the roll). A shot into a melee shows the whole
pool's casualties on the target; ``friend`` names the engaged friend that would take half the wounds.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import JSON
from iwgt.games.coloured_dice.combat_common import (
    CONTACT_EPS,
    body,
    gm_of,
    in_contact,
    max_range_bands,
    prof,
)
from iwgt.games.coloured_dice.fight import melee_armour, melee_dice
from iwgt.games.coloured_dice.magic_bonus import wound_immune
from iwgt.games.coloured_dice.morale_flow import target_of
from iwgt.games.coloured_dice.odds import casualties_distribution, mean, morale_break_probability
from iwgt.games.coloured_dice.rules import missile_weapon
from iwgt.games.coloured_dice.shooting import RANGE_SLACK, immune_refusal, plan_shot
from iwgt.games.coloured_dice.state import CdState, Unit
from iwgt.geometry.trays import tray_gap

ROUND = 6
"""Decimals of a probability in the JSON."""
APART_EPS = 1e-9
"""Rounding slack (inches) of ``_apart`` as a lower bound of the trays' gap."""


@dataclass(frozen=True, slots=True)
class Preview:
    """One attack's odds (the observation's ``previews`` entry, cd-spec 3)."""

    kind: str
    unit: int
    target: int
    dice: dict[str, int]
    armour: int
    parts: dict[str, int]
    distance: float
    casualties: dict[int, float]
    mean: float
    morale_break: float
    destroyed: float
    spell: str | None = None
    friend: int | None = None

    def to_json(self) -> JSON:
        """The preview as the observation carries it (probabilities keyed by the casualties as strings)."""
        return {
            "kind": self.kind,
            "unit": self.unit,
            "target": self.target,
            "spell": self.spell,
            "dice": dict(self.dice),
            "armour": self.armour,
            "parts": dict(self.parts),
            "distance": round(self.distance, 3),
            "casualties": {str(k): round(v, ROUND) for k, v in sorted(self.casualties.items())},
            "mean": round(self.mean, ROUND),
            "morale_break": round(self.morale_break, ROUND),
            "destroyed": round(self.destroyed, ROUND),
            "friend": self.friend,
        }


def _odds(
    state: CdState, target: Unit, dice: tuple[str, ...], armour: int, *, close_combat: bool
) -> tuple[dict[int, float], float, float]:
    pool = dict(Counter(dice))
    cas = casualties_distribution(
        pool, armour, models=target.models, body=body(target), wounds_on=target.wounds
    )
    fails, destroyed = morale_break_probability(
        cas,
        models=target.models,
        target_of=lambda m: _target_with(state, target, m, close_combat),
        round_losses=close_combat,
        general_morale=gm_of(state, target.seat),
        earlier_losses=target.round_losses if close_combat else 0,
    )
    return cas, fails, destroyed


def _target_with(state: CdState, u: Unit, models: int, close_combat: bool) -> int:
    return target_of(state, replace(u, models=models), close_combat)


def shot_preview(state: CdState, unit_id: int, target_id: int) -> Preview | str:
    """The odds of a shot now, or the reason it may not be made."""
    try:
        plan = plan_shot(state, unit_id, target_id)
    except IllegalAction as e:
        return e.message
    t = state.unit(target_id)
    cas, fails, destroyed = _odds(state, t, plan.dice, plan.armour, close_combat=False)
    return Preview(
        "shot",
        unit_id,
        target_id,
        dict(Counter(plan.dice)),
        plan.armour,
        dict(plan.parts),
        plan.distance,
        cas,
        mean(cas),
        fails,
        destroyed,
        friend=plan.friend,
    )


def fight_preview(state: CdState, unit_id: int, target_id: int) -> Preview | str:
    """The odds of the unit's strike in a fight with the target now, or the reason there is no fight."""
    if not (0 <= unit_id < len(state.units) and 0 <= target_id < len(state.units)):
        return "no such unit"
    a, t = state.unit(unit_id), state.unit(target_id)
    if a.seat == t.seat:
        return f"the target must be an enemy ({t.name}: a friend)"
    if not in_contact(a, t):
        return f"CD-FI-01: a fight needs contact ({a.name} and {t.name}: not in contact)"
    if wound_immune(state, t):
        return immune_refusal(t)
    dice = melee_dice(state, a, t)
    armour, parts = melee_armour(state, a, t)
    cas, fails, destroyed = _odds(state, t, dice, armour, close_combat=True)
    return Preview(
        "fight",
        unit_id,
        target_id,
        dict(Counter(dice)),
        armour,
        dict(parts),
        tray_gap(a.tray, t.tray),
        cas,
        mean(cas),
        fails,
        destroyed,
    )


def previews(state: CdState, seat: int) -> list[Preview]:
    """Every fight and shot the seat's units may make now that the rules allow geometrically (the core
    decides which units still have an attack this turn and filters further)."""
    out: list[Preview] = []
    enemies = state.enemies(seat)
    for u in state.on_table(seat):
        if u.attacked or u.actions_left <= 0:
            continue
        engaged = [e for e in enemies if _apart(u, e) <= CONTACT_EPS + APART_EPS and in_contact(u, e)]
        if engaged:
            fights = (fight_preview(state, u.id, e.id) for e in engaged)
            out.extend(p for p in fights if isinstance(p, Preview))
            continue
        reach = _shot_reach(u)
        if reach is None:
            continue  # no missile weapon: plan_shot refuses every target
        shots = (
            shot_preview(state, u.id, e.id)
            for e in enemies
            if _apart(u, e) <= reach + RANGE_SLACK + APART_EPS
        )
        out.extend(p for p in shots if isinstance(p, Preview))
    return out


def _apart(a: Unit, b: Unit) -> float:
    """A cheap lower bound of the trays' gap: their centres' distance less both half-diagonals (units far
    apart are passed over without the exact gap, which is never less)."""
    ra = math.hypot(a.tray.frontage, a.tray.depth) / 2
    rb = math.hypot(b.tray.frontage, b.tray.depth) / 2
    return math.dist(a.tray.centre, b.tray.centre) - ra - rb


def _shot_reach(u: Unit) -> float | None:
    """How far (tray gap, inches) the unit's missile weapon reaches at its longest band, None without one."""
    w = missile_weapon(prof(u))
    if w is None or w.missile is None:
        return None
    return max_range_bands() * float(w.missile.range)
