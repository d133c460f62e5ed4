"""Expected casualties before an order is given: a charge, a missile volley, a damaging spell.

The table shows them when a unit is picked up or an action is previewed (docs/protocol.md, ``select`` and
``preview``). Every figure is the mean over the dice the rules would roll, computed with the engine's own
arithmetic (``combat.casualties``, ``combat.close_combat_plan``), never by rolling:

- the random factor (VX-07-05) is linear in the d100 face, so each face's casualties follow from the
  faces 1 and 100; the mean is taken face by face after the cap at the target's strength and the rule
  that a body unit left under one man is destroyed (VX-14-10), so it never exceeds what the unit has;
- a hostile spell counts each unit's Resist Magic (VX-SP-GEN-6) as the chance it takes nothing, and
  Earthquake's d10 (VX-SP-QUAKE-4) as the chance a unit still standing is wiped out.

A forecast reads only what the acting seat may know: the units on the table (a hidden unit is in no
occupancy, contact or spell's reach), public spells in force, and the acting seat's own unit. It is a
forecast of the position as it stands: units yet to move, and other units' dice, are not imagined.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from iwgt.games.valkyrx.combat import casualties, close_combat_plan
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.losses import received, sink
from iwgt.games.valkyrx.movement import allowance, destinations, is_ground
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.spells import defence_factor, reached
from iwgt.games.valkyrx.state import Attack, Contact, Unit, ValkyrxState
from iwgt.games.valkyrx.targeting import can_fire, candidates
from iwgt.geometry.hexgrid import Hex, neighbours

_FACES = 100  # the d100 of the random factor (VX-07-05)
_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Forecast:
    """Expected casualties one unit would suffer, and what its attacker would suffer in return."""

    target: int
    type_id: str
    cell: Hex
    casualties: float  # men, or a character's share of its defence (as ``Unit.strength``)
    share: float  # casualties as a share of the target's starting strength, as the health bar counts
    attacker_losses: float | None  # the return blow in close combat; None where there is none


def _taken(unit: Unit, cas: float) -> float:
    """What a blow of ``cas`` really takes: never more than the unit has, all of it if it is spent."""
    cas = min(max(cas, 0.0), unit.strength)
    if replace(unit, strength=unit.strength - cas).is_spent:
        return unit.strength  # under one man, or nothing left: destroyed (VX-14-10)
    return cas


def expected_attack(state: ValkyrxState, attack: Attack) -> float:
    """Mean casualties of one attack over the d100 faces of the attacker's random factor."""
    low = casualties(state, attack, 1)[1]
    high = casualties(state, attack, _FACES)[1]
    target = state.units[attack.target]
    step = (high - low) / (_FACES - 1)
    return sum(_taken(target, low + step * k) for k in range(_FACES)) / _FACES


def _moved(state: ValkyrxState, unit: Unit, to: Hex, cost: float, charge: bool) -> Unit:
    """The unit as it would stand after the move, quicksand included (VX-05-05)."""
    moved = replace(
        unit,
        cell=to,
        moved=True,
        moved_cost=cost,
        charging=charge,
        last_charge=state.turn if charge else unit.last_charge,
        airborne=False,
    )
    return sink(state, moved)[0]


def _deferred(state: ValkyrxState, a: Unit, b: Unit) -> bool:
    """VX-02-10, VX-04-10: a contact made late in a long move that is no charge fights from next turn."""
    share = rules_config().movement.contact_defers_combat_share
    movers = [u for u in (a, b) if u.moved and u.moved_cost > 0]
    late = [u for u in movers if u.moved_cost > share * allowance(state, u).normal + _EPS]
    return bool(late) and not any(u.charging for u in movers)


def contact_position(
    state: ValkyrxState, unit_id: int, to: Hex, *, charge: bool, cost: float | None = None
) -> ValkyrxState | None:
    """The position after this ground move, its contacts judged as at the end of movement (VX-04-08).

    ``cost`` is the move's cost if the caller knows it (from ``destinations``). None if the move is no
    legal walk or charge of the unit.
    """
    unit = state.units[unit_id]
    if cost is None:
        dests = destinations(state, unit)
        cost = (dests.charge if charge else dests.walk).get(to)
    if cost is None:
        return None
    moved = _moved(state, unit, to, cost, charge)
    state = state.with_unit(moved)
    occ = state.occupancy()
    contacts: list[Contact] = []
    for c in state.contacts:
        if unit_id in (c.a, c.b):
            continue  # it moved: its old contacts are judged anew below
        a, b = state.units[c.a], state.units[c.b]
        contacts.append(c if a.moved_cost > 0 or b.moved_cost > 0 else replace(c, deferred=False))
    for n in neighbours(to):
        other = occ.get(n)
        if other is None or other.commander == moved.commander or not is_ground(other):
            continue
        lo, hi = sorted((unit_id, other.id))
        contacts.append(Contact(lo, hi, deferred=_deferred(state, moved, other)))
    return replace(state, contacts=tuple(contacts))


def melee_forecast(
    state: ValkyrxState, unit_id: int, to: Hex, *, charge: bool, cost: float | None = None
) -> list[Forecast]:
    """Expected casualties of the close combats a walk or charge to ``to`` would start this turn.

    One forecast per enemy ground unit in contact at ``to``; a contact that fights only from next turn
    (deferred) gives none. The unit splits its blows among its foes as the rules do (VX-07-09).
    """
    hypo = contact_position(state, unit_id, to, charge=charge, cost=cost)
    if hypo is None:
        return []
    plan = close_combat_plan(hypo)
    out: list[Forecast] = []
    for c in hypo.contacts:
        if unit_id not in (c.a, c.b) or c.deferred:
            continue
        foe = hypo.units[c.other(unit_id)]
        dealt = sum(expected_attack(hypo, a) for a in plan if a.attacker == unit_id and a.target == foe.id)
        taken = sum(expected_attack(hypo, a) for a in plan if a.attacker == foe.id and a.target == unit_id)
        out.append(Forecast(foe.id, foe.type_id, foe.cell, dealt, dealt / foe.start_strength, taken))
    return out


def missile_forecast(state: ValkyrxState, unit_id: int) -> list[Forecast]:
    """Expected casualties of the unit's volley at each enemy it may engage from where it stands (section 9).

    The rules choose the target (VX-09-03 to VX-09-09); each eligible enemy is forecast as if chosen.
    """
    unit = state.units[unit_id]
    engaged = {x for c in state.contacts for x in (c.a, c.b)}
    if not unit.type.is_missile or not can_fire(state, unit, engaged):
        return []
    out: list[Forecast] = []
    for foe in sorted(candidates(state, unit, state.occupancy()), key=lambda u: u.id):
        cas = expected_attack(state, Attack(unit_id, foe.id, "missile", 1.0))
        out.append(Forecast(foe.id, foe.type_id, foe.cell, cas, cas / foe.start_strength, None))
    return out


def spell_forecast(state: ValkyrxState, wizard_id: int, spell_id: str, target: Hex | None) -> list[Forecast]:
    """Expected casualties of a damaging spell (Fire, Ice, Earthquake) on every unit it reaches.

    Friends are included for Earthquake; the caster's own price (``magic.cast_cost``) is not. Spells
    without damage forecast nothing.
    """
    spell = spells().get(spell_id)
    if spell is None or spell.damage is None:
        return []
    magic = rules_config().magic
    wizard = state.units[wizard_id]
    out: list[Forecast] = []
    for uid in reached(state, wizard, spell, target):
        u = state.units[uid]
        resist = magic.resist_chance(u.type.resist_magic) / magic.resist_die if spell.resisted else 0.0
        if spell.id == "fire" and u.type.has("wickerwork"):
            hit = u.strength  # VX-SP-FIRE-3: burnt to ashes
        elif spell.id == "ice" and u.type.has("stone") and u.burned > 0 and u.burned >= state.turn - 1:
            hit = u.strength  # VX-SP-ICE-4: fire then ice cracks a Stone Titan
        else:
            hit = _taken(u, received(state, u, spell.damage / (u.type.defence * defence_factor(state, u))))
        if spell.wipe_out_sides and hit < u.strength:
            hit += (u.strength - hit) / spell.wipe_out_sides  # a 1 on the d10 swallows the rest
        cas = (1.0 - resist) * hit
        out.append(Forecast(uid, u.type_id, u.cell, cas, cas / u.start_strength, None))
    return out
