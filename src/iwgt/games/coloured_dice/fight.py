"""Fighting (CD-FI-01..07, CD-CH-32, CD-AC-04): who fights, who strikes first, the strike back, morale after.

The unit with the lower slowness strikes first; equal: the unit whose player's turn it is; a unit that
reacted successfully to this charger without a missile weapon strikes first (CD-RE, CD-MS-14 designed).
Each fighting model (``formation.fighters``: touching, a formation's whole front rank, reach-2 weapons from
the second rank) rolls the melee dice of all its weapons (from the second rank only its reach-2 weapons);
the armour is the target's + 1 when it stands higher (CD-TE-01) + buffs. The first striker's wounds are
applied, then the SURVIVING models of the other side that still fight strike back (CD-FI-04). Then each unit
that lost models (or took wounds through its armour, CD-MS-03 decision) in the fight tests morale with the
round's losses (CD-MM-02), the one struck first first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_common import (
    armour_mods,
    base_armour,
    fights_together,
    geo,
    hill_bonus,
    hurt,
    in_contact,
    prof,
)
from iwgt.games.coloured_dice.combat_events import FightBegun
from iwgt.games.coloured_dice.dice import pool_list
from iwgt.games.coloured_dice.formation import fighters, files_of
from iwgt.games.coloured_dice.magic_bonus import extra_dice
from iwgt.games.coloured_dice.morale_flow import push_test
from iwgt.games.coloured_dice.pending import Attack, FightStage, FightStep
from iwgt.games.coloured_dice.rules import melee_dice as melee_dice_of
from iwgt.games.coloured_dice.rules import reach
from iwgt.games.coloured_dice.state import CdState, Unit
from iwgt.games.coloured_dice.terrain import higher
from iwgt.games.coloured_dice.wounds import push_attack


def order_of(state: CdState, a: Unit, d: Unit) -> tuple[Unit, Unit, str]:
    """(first, second, why): the faster side strikes first (CD-FI-03, CD-CH-32 decision)."""
    if d.strikes_first_vs == a.id:
        return d, a, "reaction"
    if a.strikes_first_vs == d.id:
        return a, d, "reaction"
    sa, sd = prof(a).slowness, prof(d).slowness
    if sa != sd:
        return (a, d, "slowness") if sa < sd else (d, a, "slowness")
    return (a, d, "turn") if a.seat == state.seat or d.seat != state.seat else (d, a, "turn")


def push_fight(state: CdState, unit_id: int, target_id: int, events: list[Event]) -> CdState:
    """Begin a fight between two enemy units in contact."""
    if not (0 <= unit_id < len(state.units) and 0 <= target_id < len(state.units)):
        raise IllegalAction("no such unit")
    a, d = state.unit(unit_id), state.unit(target_id)
    if a.seat == d.seat:
        raise IllegalAction(f"the target must be an enemy ({d.name}: a friend)")
    if not (a.on_table and d.on_table):
        raise IllegalAction("both units must be on the table to fight")
    if not in_contact(a, d):
        raise IllegalAction(f"CD-FI-01: a fight needs contact ({a.name} and {d.name}: not in contact)")
    first, second, why = order_of(state, a, d)
    events.append(FightBegun(first.id, second.id, why))
    before = (first.models, second.models)
    return state.push(FightStep(first.id, second.id, "first", before, (first.wounds, second.wounds)))


def melee_dice(state: CdState, src: Unit, tgt: Unit) -> tuple[str, ...]:
    """The pool of ``src``'s models that fight ``tgt`` now, in pool order (CD-FI-01/02, CD-AC-04)."""
    p = prof(src)
    if not melee_dice_of(p):
        return ()
    idx = fighters(geo(src), tgt.tray, fights_together=fights_together(src), reach=reach(p))
    f = files_of(src.models, src.files)
    count: Counter[str] = Counter()
    for i in idx:
        count.update(melee_dice_of(p, rank=i // f + 1))
    if idx:
        count.update(extra_dice(state, src))  # magic's dice, once to the pool (runes, spirits, spells)
    return pool_list(count)


def melee_armour(state: CdState, src: Unit, tgt: Unit) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The target's armour in a fight and its parts: armour + hill (+1 if it stands higher) + buffs."""
    base = base_armour(tgt)
    hill = hill_bonus() * higher(tgt.tray, src.tray, state.terrain())
    extra = armour_mods(state, tgt, "fight")
    parts = (("armour", base), ("hill", hill), ("magic", extra))
    return max(0, base + hill + extra), parts


def strike(state: CdState, src: Unit, tgt: Unit, stage: FightStage, events: list[Event]) -> CdState:
    """One side's strike: its fighters' pool against the other's armour (nothing when nobody fights)."""
    dice = melee_dice(state, src, tgt)
    if not dice:
        return state
    armour, parts = melee_armour(state, src, tgt)
    return push_attack(state, Attack("fight", src.id, tgt.id, dice, armour, parts, fight_stage=stage), events)


def fight_step(state: CdState, step: FightStep, events: list[Event]) -> CdState:
    """The ``FightStep`` on top: the first strike, the strike back, then the morale tests."""
    first, second = state.unit(step.first), state.unit(step.second)
    if step.stage == "first":
        state = state.with_top(replace(step, stage="back"))
        return strike(state, first, second, "first", events)
    if step.stage == "back":
        state = state.with_top(replace(step, stage="morale"))
        if in_contact(second, first):
            state = strike(state, second, first, "back", events)
        return state
    state = state.pop()
    # The one struck first tests first: its test is pushed last (the top of the stack). A unit wounded
    # through its armour tests even when no model fell (CD-MS-03 decision: a lone hero, a monster).
    for u, before, carried in (
        (first, step.before[0], step.wounds_before[0]),
        (second, step.before[1], step.wounds_before[1]),
    ):
        if u.on_table and hurt(u, before, carried):
            state = push_test(state, u.id, close_combat=True, reason="fight", away_from=_other(step, u.id))
    return state


def _other(step: FightStep, uid: int) -> int:
    return step.second if uid == step.first else step.first
