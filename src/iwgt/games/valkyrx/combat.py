"""The combat round (section 7): who fights whom, hits, the random factor, modifiers, casualties.

Reading of the text (VX-07-03, VX-07-04): H = men x rate of fire x accuracy%; damage = H x attack
score; casualties (men) = damage / the target's defence score. A character (one body) is worn down
by damage: it falls when its accumulated damage reaches its defence score, so its "strength" is the
share of its defence score still standing. All attacks of a round are computed from the strengths
at the start of the round and applied together (VX-07-02).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import AttackResolved, CloseCombatOutcome
from iwgt.games.valkyrx.morale import morale_status
from iwgt.games.valkyrx.movement import is_ground
from iwgt.games.valkyrx.spells import attack_factor, defence_factor, is_asleep, is_disharmonious, is_shielded
from iwgt.games.valkyrx.state import Attack, AttackKind, Contact, Unit, ValkyrxState
from iwgt.games.valkyrx.targeting import can_fire, firing_groups, firing_order, select_targets
from iwgt.games.valkyrx.units import UnitType
from iwgt.geometry.hexgrid import distance


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What the round did, for end-of-turn morale: close-combat verdicts, flanks and outnumbering."""

    won: Mapping[int, int]
    flanked: frozenset[int]
    outnumbered: frozenset[int]


def fighting_contacts(state: ValkyrxState) -> list[Contact]:
    """Contacts that fight this round: not deferred, both units on the ground (VX-04-09, VX-04-29)."""
    out = []
    for c in state.contacts:
        a, b = state.units[c.a], state.units[c.b]
        if not c.deferred and is_ground(a) and is_ground(b):
            out.append(c)
    return out


def _refuses(attacker: Unit, target: Unit) -> bool:
    """VX-13-WRAITHKING-2: only units of High morale stand and fight the Wraith King (Elves fear nothing)."""
    return (
        target.type.has("fear") and not attacker.type.has("elf") and morale_status(attacker.spirit) != "High"
    )


def close_combat_plan(state: ValkyrxState) -> list[Attack]:
    """Every unit splits its firepower evenly among the enemies it is in close combat with (VX-07-09)."""
    cfg = rules_config().combat
    foes: dict[int, list[Contact]] = defaultdict(list)
    for c in fighting_contacts(state):
        foes[c.a].append(c)
        foes[c.b].append(c)
    attacks: list[Attack] = []
    for uid in sorted(foes):
        unit = state.units[uid]
        if is_asleep(state, uid) or is_disharmonious(state, uid):
            continue  # asleep (VX-SP-SLEEP-2), or fighting itself (VX-SP-DISHARMONY-2)
        targets = [(c, state.units[c.other(uid)]) for c in foes[uid]]
        targets = [(c, t) for c, t in targets if not _refuses(unit, t)]
        for c, t in targets:
            attackers = [o for x in foes[t.id] if not _refuses(o := state.units[x.other(t.id)], t)]
            flankers = [
                o for o in attackers if any(distance(o.cell, p.cell) != 1 for p in attackers if p is not o)
            ]
            flank = unit in flankers  # VX-04-20, VX-04-22: an attacker not adjacent to another attacker
            total = sum(o.value for o in attackers)
            outnumbered = bool(flankers) and total >= cfg.outnumbered_ratio * max(t.value, 1e-9)
            attacks.append(
                Attack(
                    attacker=uid,
                    target=t.id,
                    kind="melee",
                    share=1.0 / len(targets),
                    melee_stage=c.rounds >= 1,  # VX-07-11: from the second round with the same enemy
                    charge=unit.charging and c.fresh,  # VX-04-19: the turn of a charge contact
                    flank=flank,
                    outnumbered=outnumbered,
                )
            )
    # VX-SP-DISHARMONY-3: its two halves strike each other, 2 x half strength = one attack at full strength.
    for u in state.units:
        if u.on_table and is_disharmonious(state, u.id) and not is_asleep(state, u.id):
            attacks.append(Attack(attacker=u.id, target=u.id, kind="melee", share=1.0))
    return attacks


def missile_groups(state: ValkyrxState) -> list[list[Unit]]:
    """The units that shoot this round, grouped by value for the firing order (VX-09-07, VX-09-11)."""
    engaged = {x for c in state.contacts for x in (c.a, c.b)}
    firers = [
        u
        for u in state.units
        if can_fire(state, u, engaged) and not is_asleep(state, u.id) and not is_disharmonious(state, u.id)
    ]
    return firing_groups(state, firers)


def missile_plan(state: ValkyrxState, order_faces: Sequence[int]) -> list[Attack]:
    """Missile attacks after automatic target selection, in firing order."""
    order = firing_order(missile_groups(state), order_faces)
    occ = state.occupancy()
    return [Attack(f.id, t.id, "missile", 1.0) for f, t in select_targets(state, order, occ)]


def weapon_factor(att: UnitType, tgt: UnitType, kind: AttackKind) -> tuple[float, str | None]:
    """Weapons against particular foes (VX-08-02, VX-08-03, VX-13-TITAN-1, -WICKERMEN-1, -WRAITHKING-1)."""
    w = rules_config().combat.weapons
    fire, ice = att.has("fire_weapon"), att.has("ice_weapon")
    magic = fire or ice or att.has("magic_weapon")
    if tgt.has("immune_to_mortals") and not magic:  # before "undead": the Wraith King is both
        return w.mortal_vs_immune, "mortal vs immune"
    if tgt.has("undead"):
        if fire:
            return w.fire_vs_undead, "fire vs undead"
        return (w.magic_vs_undead, "magic vs undead") if magic else (w.mortal_vs_undead, "mortal vs undead")
    if tgt.has("stone"):
        if fire or ice:
            return w.fire_ice_vs_stone, "fire/ice vs stone"
        return (w.magic_vs_stone, "magic vs stone") if magic else (w.mortal_vs_stone, "mortal vs stone")
    if tgt.has("wickerwork"):
        if fire:
            return w.fire_vs_wickerwork, "fire vs wicker"
        if kind == "missile":
            return w.missile_vs_wickerwork, None
        return w.mortal_melee_vs_wickerwork, "sword and spear vs wicker"
    return 1.0, None


def random_factor(morale: float, face: int) -> float:
    """The random factor (a share of hits) for a d100 face, in the band of the firer's morale status."""
    lo, hi = rules_config().random_factor.band(morale_status(morale))
    return (lo + (hi - lo) * (face - 1) / 99) / 100


def casualties(state: ValkyrxState, attack: Attack, face: int) -> tuple[float, float, tuple[str, ...]]:
    """Hits, casualties (men, or share of a character) and the named factors of one attack."""
    cfg = rules_config().combat
    a, t = state.units[attack.attacker], state.units[attack.target]
    at, tt = a.type, t.type
    hits = a.men * at.rate_of_fire * at.accuracy / 100 * attack.share  # VX-07-03, VX-07-09
    hits *= random_factor(a.spirit, face)  # VX-07-05, VX-10-06
    cas = hits * at.attack / tt.defence  # the reading of VX-07-04
    factors: list[str] = []
    if attack.melee_stage:
        cas *= cfg.melee[at.melee]
        factors.append(f"melee {at.melee}")
    if attack.charge:
        cas *= cfg.impetus_charge_factor if at.has("impetus") else cfg.charge_factor
        factors.append("impetus" if at.has("impetus") else "charge")
    if attack.flank:
        cas *= cfg.flank_factor
        factors.append("flank")
    if attack.outnumbered:
        cas *= cfg.outnumbered_factor
        factors.append("outnumbered")
    wf, label = weapon_factor(at, tt, attack.kind)
    cas *= wf
    if label:
        factors.append(label)
    if state.turn <= a.temple_until:
        cas *= cfg.temple_inflict_factor
        factors.append("temple")
    if state.turn <= t.temple_until:
        cas *= cfg.temple_receive_factor
        factors.append("temple ward")
    if state.enchantments:  # Strength, Weakness, Lead Boots (VX-SP-STRENGTH-2, -WEAKNESS-2, -LEADBOOTS-3)
        strike, ward = attack_factor(state, a), defence_factor(state, t)
        if strike != 1.0:
            cas *= strike
            factors.append(f"spells x{strike:g}")
        if ward != 1.0:
            cas /= ward
            factors.append(f"defence spells x{ward:g}")
        if is_shielded(state, t.id):
            cas = 0.0
            factors.append("shield")
    return hits, cas, tuple(factors)


def resolve_round(
    state: ValkyrxState, attacks: Sequence[Attack], faces: Mapping[int, int]
) -> tuple[ValkyrxState, list[AttackResolved | CloseCombatOutcome], RoundOutcome]:
    """Apply every attack at once; ``faces`` maps each attacking unit to its d100 face."""
    received: dict[int, float] = defaultdict(float)
    by_pair: dict[tuple[int, int], float] = defaultdict(float)
    undead_dealt: dict[int, float] = defaultdict(float)
    slain_by_undead: dict[tuple[int, int], float] = defaultdict(float)
    events: list[AttackResolved | CloseCombatOutcome] = []
    flanked: set[int] = set()
    outnumbered: set[int] = set()
    struck_by_fire: set[int] = set()
    struck_by_ice: set[int] = set()
    for atk in attacks:
        hits, cas, factors = casualties(state, atk, faces[atk.attacker])
        received[atk.target] += cas
        by_pair[(atk.attacker, atk.target)] += cas
        if atk.flank:
            flanked.add(atk.target)
        if atk.outnumbered:
            outnumbered.add(atk.target)
        if cas > 0 and state.units[atk.attacker].type.has("fire_weapon"):
            struck_by_fire.add(atk.target)
        if cas > 0 and state.units[atk.attacker].type.has("ice_weapon"):
            struck_by_ice.add(atk.target)
        if state.units[atk.attacker].type.has("undead"):
            undead_dealt[atk.target] += cas
            target = state.units[atk.target].type
            if not (target.has("war_machine") or target.has("living_spirit") or target.has("undead")):
                slain_by_undead[(atk.attacker, atk.target)] += cas  # VX-13-UNDEAD-2: "of living flesh"
        events.append(AttackResolved(atk.attacker, atk.target, atk.kind, hits, cas, factors))

    units = list(state.units)
    applied: dict[int, float] = {}
    for uid, cas in received.items():
        u = units[uid]
        cas = min(cas, u.strength)  # casualties never exceed strength
        left = u.strength - cas
        if replace(u, strength=left).is_spent:
            cas, left = u.strength, 0.0
        applied[uid] = cas
        units[uid] = replace(
            u,
            strength=left,
            casualties_turn=u.casualties_turn + cas,
            undead_losses=u.undead_losses + min(undead_dealt.get(uid, 0.0), cas),
            burned=state.turn
            if uid in struck_by_fire
            else u.burned,  # for the Stone Titan (VX-13-VERTIGRON-2)
            chilled=state.turn if uid in struck_by_ice else u.chilled,
        )

    raised_by: dict[int, float] = defaultdict(float)
    for (att, tgt), cas in slain_by_undead.items():
        raised_by[att] += cas * applied[tgt] / received[tgt] if received[tgt] > 0 else 0.0

    won: dict[int, int] = defaultdict(int)
    for c in fighting_contacts(state):
        a, b = state.units[c.a], state.units[c.b]
        if (
            is_disharmonious(state, a.id)
            or is_disharmonious(state, b.id)
            or is_asleep(state, a.id)
            or is_asleep(state, b.id)
        ):
            continue  # a unit that did not fight its enemy neither wins nor loses against it
        lost_a = by_pair[(c.b, c.a)] / a.start_strength
        lost_b = by_pair[(c.a, c.b)] / b.start_strength
        if abs(lost_a - lost_b) > 1e-12:
            winner, loser = (a, b) if lost_a < lost_b else (b, a)
            won[winner.id] += 1
            won[loser.id] -= 1
            events.append(CloseCombatOutcome(winner.id, loser.id))
    state = replace(state, units=tuple(units))
    state = _after_round(state, raised_by)
    return state, events, RoundOutcome(won, frozenset(flanked), frozenset(outnumbered))


def _after_round(state: ValkyrxState, raised_by: Mapping[int, float]) -> ValkyrxState:
    """Contacts count the round they fought (VX-07-11); the undead raise their slain (kept for morale)."""
    fought = {(c.a, c.b) for c in fighting_contacts(state)}
    contacts = tuple(
        replace(c, rounds=c.rounds + 1, fresh=False) if (c.a, c.b) in fought else replace(c, fresh=False)
        for c in state.contacts
    )
    return replace(state, contacts=contacts, raised=tuple(sorted(raised_by.items())))
