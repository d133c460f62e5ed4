"""Morale tests in play (CD-MO, CD-MM, CD-MS-03 designed): shaken, falling back, routing, rallying.

A test is two ordinary d6 (two chance nodes). It passes when roll + the round's losses (close combat only,
CD-MM-02) - general morale < the target (min(models, cap), +1 for a tight formation in close combat); 12
always fails, 2 always passes (``morale.test_passes``). A hero unit may spend hero points on its own roll
(CD-CH-18 decision: each point moves one die by one, a die stays 1..6; 12 and 2 are judged on the dice so
changed). A failure makes a steady unit shaken, falling back 3" straight away from its enemy in close
combat; a shaken unit that fails routs (it leaves the table and counts as destroyed). A rally test passed
makes a shaken unit steady; a failed rally leaves it shaken (designed: a rally is not a test forced by
losses, so it does not rout).
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_common import fall_back_inches, gm_of, order_morale_bonus, prof
from iwgt.games.coloured_dice.combat_events import FellBack, MoraleTested, UnitRallied, UnitRouted, UnitShaken
from iwgt.games.coloured_dice.general_morale import lose_unit
from iwgt.games.coloured_dice.morale import morale_target, test_passes
from iwgt.games.coloured_dice.pending import HeroAsk, MoraleReason, MoraleRoll
from iwgt.games.coloured_dice.rules import rules
from iwgt.games.coloured_dice.state import CdState, Unit
from iwgt.geometry.trays import Tray, stop_short

DIE_MIN, DIE_MAX = 1, 6
"""An ordinary die's faces."""


def push_test(
    state: CdState, uid: int, *, close_combat: bool, reason: str, away_from: int | None = None
) -> CdState:
    """Queue a morale test of a unit on the table (nothing for a unit gone)."""
    if not state.unit(uid).on_table:
        return state
    why: MoraleReason = reason  # type: ignore[assignment]
    return state.push(MoraleRoll(uid, close_combat, why, away_from))


def target_of(state: CdState, u: Unit, close_combat: bool) -> int:
    """The unit's morale target now: min(models, cap) for Us, the cap for iUs (CD-MO-10, CD-MO-01 decision),
    +1 for a tight formation in close combat (CD-AC-08 designed)."""
    t = morale_target(prof(u), u.models, u.leader_alive)
    return t + (order_morale_bonus(u) if close_combat else 0)


def losses_of(u: Unit, close_combat: bool) -> int:
    """The round's losses the roll adds: the unit's own this round, in close combat only (CD-MM-02)."""
    return u.round_losses if close_combat else 0


def adjusted(faces: tuple[int, ...], adjust: int) -> tuple[int, int]:
    """The two dice after hero points: the change goes on the first die as far as it goes, then the second
    (only the sum and the doubles 1+1 / 6+6 matter, and the sum decides those)."""
    d1, d2 = faces[0], faces[1]
    n1 = min(DIE_MAX, max(DIE_MIN, d1 + adjust))
    rest = adjust - (n1 - d1)
    n2 = min(DIE_MAX, max(DIE_MIN, d2 + rest))
    return n1, n2


def passes(state: CdState, roll: MoraleRoll, adjust: int | None = None) -> bool:
    """Whether the roll (with ``adjust`` hero points, default the roll's own) passes."""
    u = state.unit(roll.unit)
    dice = adjusted(roll.faces, roll.adjust if adjust is None else adjust)
    return test_passes(
        dice,
        target=target_of(state, u, roll.close_combat),
        round_losses=losses_of(u, roll.close_combat),
        general_morale=gm_of(state, u.seat),
    )


def hero_range(roll: MoraleRoll, left: int) -> tuple[int, int]:
    """Hero points that may go on a morale roll: each die stays 1..6 (CD-CH-18 decision)."""
    now = sum(adjusted(roll.faces, roll.adjust))
    return -min(left, now - 2 * DIE_MIN), min(left, 2 * DIE_MAX - now)


def dice_done(state: CdState, roll: MoraleRoll, events: list[Event]) -> CdState:
    """Both dice rolled (``state`` has the roll popped): a hero unit is asked about hero points when they
    could turn the verdict, then the verdict."""
    u = state.unit(roll.unit)
    if u.hero_left > 0 and not roll.asked:
        lo, hi = hero_range(roll, u.hero_left)
        if passes(state, roll, roll.adjust + lo) != passes(state, roll, roll.adjust + hi):
            return state.push(HeroAsk(u.seat, u.id, roll))
    return verdict(state, roll, events)


def verdict(state: CdState, roll: MoraleRoll, events: list[Event]) -> CdState:
    """Pass or fail, and what follows (designed, CD-MS-03)."""
    u = state.unit(roll.unit)
    if not u.on_table:
        return state
    ok = passes(state, roll)
    dice = adjusted(roll.faces, roll.adjust)
    events.append(
        MoraleTested(
            u.id,
            dice,
            target_of(state, u, roll.close_combat),
            losses_of(u, roll.close_combat),
            gm_of(state, u.seat),
            ok,
            roll.reason,
        )
    )
    if roll.reason == "rally":
        if ok and u.shaken:
            events.append(UnitRallied(u.id))
            return state.with_unit(replace(u, shaken=False))
        return state
    if ok:
        return state
    if u.shaken:
        events.append(UnitRouted(u.id))
        return lose_unit(state, u.id, "routed", events, routed=True)
    events.append(UnitShaken(u.id))
    state = state.with_unit(replace(u, shaken=True))
    if roll.close_combat and roll.away_from is not None:
        state = fall_back(state, u.id, roll.away_from, events)
    return state


def fall_back(state: CdState, uid: int, enemy_id: int, events: list[Event]) -> CdState:
    """Fall back ``FALL_BACK`` inches straight away from the enemy, keeping facing, stopping short of other
    units and impassable ground and at the table edge (geometry ``stop_short``)."""
    u, e = state.unit(uid), state.unit(enemy_id)
    d = (u.tray.centre[0] - e.tray.centre[0], u.tray.centre[1] - e.tray.centre[1])
    if d == (0.0, 0.0):
        return state
    terrain = rules().terrain
    stops: list[Polygon | Tray] = [o.tray for o in state.on_table() if o.id != u.id]
    stops += [Polygon(p.outline) for p in state.terrain() if p.kind in terrain and terrain[p.kind].impassable]
    slide = stop_short(u.tray, d, fall_back_inches(), stops_at=stops, edges=(state.width, state.height))
    end: Tray = slide.end
    moved = ((end.centre[0] - u.tray.centre[0]) ** 2 + (end.centre[1] - u.tray.centre[1]) ** 2) ** 0.5
    events.append(FellBack(u.id, e.id, end.centre, round(moved, 6)))
    return state.with_unit(replace(u, tray=end))
