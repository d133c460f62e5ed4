"""Hero points (CD-CH-18..20): spent after the roll, by the attacker's side first, on a pool or a morale roll.

Each point is +1 or -1 on one die (CD-CH-18 decision): on an attack pool only a number face changes (a die
never below 0; 'miss' and 'kill' stay), so +k needs a number die showing and -k at most the points rolled;
on the unit's own morale roll each die stays 1..6. The answer ``hero {points: k}`` spends |k| (0 keeps them).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice import morale_flow, wounds
from iwgt.games.coloured_dice.combat_events import HeroPointsSpent
from iwgt.games.coloured_dice.pending import Attack, HeroAsk
from iwgt.games.coloured_dice.state import CdState


def hero_range(state: CdState, ask: HeroAsk) -> tuple[int, int]:
    """The hero points the asked seat may spend now, lowest and highest (0 always among them)."""
    left = state.unit(ask.unit).hero_left
    if isinstance(ask.on, Attack):
        return wounds.attack_hero_range(ask.on, left)
    return morale_flow.hero_range(ask.on, left)


def hero_refusal(state: CdState, ask: HeroAsk, points: int) -> str | None:
    """Why ``points`` may not be spent on this question (outside the range on offer), None when they may."""
    lo, hi = hero_range(state, ask)
    if not lo <= points <= hi:
        return f"CD-CH-18: {points} hero points is outside {lo}..{hi}"
    return None


def hero_answer(state: CdState, ask: HeroAsk, points: int, events: list[Event]) -> CdState:
    """Spend ``points`` (``state`` has the question popped; ``resolve.advance`` has refused any answer
    outside ``hero_range`` with ``hero_refusal``'s reason) and go on with the roll."""
    u = state.unit(ask.unit)
    if points:
        u = replace(u, hero_left=u.hero_left - abs(points))
        state = state.with_unit(u)
        events.append(HeroPointsSpent(u.id, points, u.hero_left))
    if isinstance(ask.on, Attack):
        a = replace(ask.on, adjust=ask.on.adjust + points, asked=(*ask.on.asked, u.id))
        return wounds.pool_done(state, a, events)
    roll = replace(ask.on, adjust=ask.on.adjust + points, asked=True)
    return morale_flow.verdict(state, roll, events)
