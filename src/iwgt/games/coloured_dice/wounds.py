"""Attack pools read; wounds through bear wound and Body; losses off the rear (CD-FI-05..07, CD-CH-06..17).

wounds = floor(points / (A + 1)) + kills (cd-spec 1); a kill is one wound whatever the armour (CD-DI-13
decision). Wounds fall on the rear model first; with Body > 1 each model takes Body wounds before the next
(``Unit.wounds`` holds those on the current model, CD-MS-10). A unit with bear-wound dice left is asked,
one die at a time, before the wounds are applied (CD-CH-12..16).
"""

from __future__ import annotations

from dataclasses import replace
from math import floor

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_common import body, hurt, own_fire_share, prof
from iwgt.games.coloured_dice.combat_events import (
    AttackDeclared,
    BearWoundRolled,
    OwnFire,
    PoolRolled,
    WoundsTaken,
)
from iwgt.games.coloured_dice.dice import Rolled, face_value, total
from iwgt.games.coloured_dice.dice import wounds as wounds_of
from iwgt.games.coloured_dice.formation import after_losses
from iwgt.games.coloured_dice.general_morale import lose_unit
from iwgt.games.coloured_dice.magic_bonus import wound_immune
from iwgt.games.coloured_dice.morale_flow import push_test
from iwgt.games.coloured_dice.pending import AfterAttack, Attack, BearAsk, BearRoll, HeroAsk, PoolRoll, Wounds
from iwgt.games.coloured_dice.state import CdState, LastRoll, Unit


def push_attack(state: CdState, attack: Attack, events: list[Event]) -> CdState:
    """Declare an attack pool and wait for its first die (an empty pool is read at once: no wounds)."""
    events.append(
        AttackDeclared(attack.kind, attack.source, attack.target, attack.dice, attack.armour, attack.parts)
    )
    if attack.rolled:
        return pool_done(state, attack, events)
    return state.push(PoolRoll(attack))


def rolled(a: Attack) -> Rolled:
    """The pool's reading before hero points: points, kills, dice showing a number (CD-DI-12/13)."""
    return total(a.dice, a.faces)


def points_of(a: Attack) -> int:
    """The points total after hero points (never below 0: a die never goes below 0, CD-CH-18 decision)."""
    return max(0, rolled(a).points + a.adjust)


def attack_wounds(a: Attack) -> int:
    """wounds = floor(points / (A + 1)) + kills (CD-FI-06, CD-DI-13 decision)."""
    return wounds_of(points_of(a), rolled(a).kills, a.armour)


def hero_asker(state: CdState, a: Attack) -> Unit | None:
    """The next unit whose owner is asked about hero points on this pool: the attacker's side first, then
    the target's (CD-CH-18 decision); only a unit with points left, not yet asked, for whom some choice
    changes the wounds."""
    for uid in (a.source, a.target):
        u = state.unit(uid)
        if u.hero_left <= 0 or uid in a.asked or not u.on_table:
            continue
        lo, hi = attack_hero_range(a, u.hero_left)
        if attack_wounds(replace(a, adjust=a.adjust + lo)) != attack_wounds(replace(a, adjust=a.adjust + hi)):
            return u
    return None


def attack_hero_range(a: Attack, left: int) -> tuple[int, int]:
    """The hero points that may be spent on a pool: -k at most the points rolled (no die below 0), +k only
    with at least one number die showing (miss and kill faces cannot change) (CD-CH-18 decision)."""
    r = rolled(a)
    lo = -min(left, points_of(a))
    hi = left if r.numbers > 0 else 0
    return lo, hi


def pool_done(state: CdState, a: Attack, events: list[Event]) -> CdState:
    """Every die has its face: hero questions, then the wounds (``state`` has the ``PoolRoll`` popped)."""
    u = hero_asker(state, a)
    if u is not None:
        return state.push(HeroAsk(u.seat, u.id, a))
    return finish_attack(state, a, events)


def finish_attack(state: CdState, a: Attack, events: list[Event]) -> CdState:
    """Read the pool, split a shot into a melee (own fire), and queue the wounds and what follows them."""
    r = rolled(a)
    pts = points_of(a)
    w = attack_wounds(a)
    events.append(
        PoolRolled(a.kind, a.source, a.target, a.dice, a.faces, pts, r.kills, a.armour, w, a.adjust)
    )
    state = replace(state, last_roll=LastRoll(a.kind, a.dice, a.faces, pts, r.kills, a.armour, w))
    hit = [a.target] if a.friend is None else [a.target, a.friend]
    before = tuple((uid, state.unit(uid).models) for uid in hit)
    carried = tuple(state.unit(uid).wounds for uid in hit)
    share = 0
    if a.friend is not None:
        num, den = own_fire_share()
        share = floor(w * num / den)
        events.append(OwnFire(a.source, a.friend, share))
    state = state.push(AfterAttack(a, before, carried))
    if a.friend is not None and share > 0:
        state = state.push(Wounds(a.friend, share, a.source, a.kind, own_fire=True))
    if w - share > 0:
        state = state.push(Wounds(a.target, w - share, a.source, a.kind))
    return state


def bear_colour(u: Unit) -> str | None:
    """The colour of the unit's bear-wound dice (None: it has none) (CD-CH-12)."""
    bw = prof(u).bear_wound
    return None if bw is None else str(bw.colour)


def wounds_step(state: CdState, w: Wounds, events: list[Event]) -> CdState:
    """The ``Wounds`` frame on top: ask about bear wound while dice are left, else apply (CD-CH-14..16)."""
    u = state.unit(w.unit)
    if not u.on_table or w.wounds <= 0 or wound_immune(state, u):
        return state.pop()  # an immaterial spirit is harmed only by magic or its owner's death (CD-MA-08)
    colour = bear_colour(u)
    if u.bear_left > 0 and colour is not None and not w.declined:
        return state.with_top(BearAsk(u.seat, u.id, colour, w))
    return apply_wounds(state.pop(), w, events)


def bear_face(state: CdState, roll: BearRoll, face: int, events: list[Event]) -> CdState:
    """One bear-wound die rolled: it cancels as many wounds as it shows (miss none; the excess is lost,
    CD-CH-13 decision); the die is spent; the rest come on (asked again while dice are left)."""
    value = face_value(roll.colour, face)
    shown = value if isinstance(value, int) else 0
    u = state.unit(roll.unit)
    cancelled = min(shown, roll.wounds.wounds)
    left = roll.wounds.wounds - cancelled
    u = replace(u, bear_left=max(0, u.bear_left - 1))
    events.append(BearWoundRolled(u.id, roll.colour, face, cancelled, left, u.bear_left))
    return state.with_unit(u).push(replace(roll.wounds, wounds=left))


def apply_wounds(state: CdState, w: Wounds, events: list[Event]) -> CdState:
    """Wounds on the rear model first, Body each (CD-CH-06, CD-MS-10); the tray shrinks from the rear; the
    round's losses grow (CD-MM-02); no models left: the unit is destroyed (general morale, VP)."""
    u = state.unit(w.unit)
    b = body(u)
    carried = u.wounds + w.wounds
    removed = min(u.models, carried // b)
    models = u.models - removed
    on = 0 if models == 0 else carried - removed * b
    tray, files = u.tray, u.files
    if removed and models > 0:
        tray, files = after_losses(u.tray, u.models, models, u.files)
    u = replace(u, models=models, wounds=on, tray=tray, files=files, round_losses=u.round_losses + removed)
    events.append(WoundsTaken(u.id, w.wounds, removed, models, on))
    state = state.with_unit(u)
    if models == 0:
        state = lose_unit(state, u.id, "own_fire" if w.own_fire else "wounds", events, own_fire=w.own_fire)
    return state


def after_attack(state: CdState, frame: AfterAttack, events: list[Event]) -> CdState:
    """A shot or spell that caused casualties, or wounds through the armour that felled no model (CD-MS-03
    decision: a single model tests too): each unit it hit that is still on the table tests morale, no
    modifier but general morale (CD-MS-03 designed, CD-MM-01). A fight's tests come after the whole fight."""
    a = frame.attack
    if a.kind == "fight":
        return state
    reason = "spell" if a.kind == "spell" else "shot"
    carried = frame.wounds_before or (0,) * len(frame.before)
    for (uid, before), wounds_on in reversed(list(zip(frame.before, carried, strict=True))):
        u = state.unit(uid)
        if u.on_table and hurt(u, before, wounds_on):
            state = push_test(state, uid, close_combat=False, reason=reason)
    return state
