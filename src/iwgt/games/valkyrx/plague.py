"""The plague (the Plague spell, VX-SP-PLAGUE-*, and Pocâdl's rats, VX-13-POCADL-1): spread and losses."""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import PlagueLosses, UnitInfected
from iwgt.games.valkyrx.losses import received
from iwgt.games.valkyrx.spells import is_shielded, plague_immune
from iwgt.games.valkyrx.state import Infection, Pending, Unit, ValkyrxState
from iwgt.geometry.hexgrid import neighbours

Flow = tuple[ValkyrxState, list[Event]]


def _touching(state: ValkyrxState, unit: Unit) -> list[Unit]:
    """Units on the ground next to this one, friend or foe: "contact" for the plague (VX-SP-PLAGUE-5)."""
    occ = state.occupancy()
    out = []
    for n in neighbours(unit.cell):
        other = occ.get(n)
        if other is not None and not other.airborne:
            out.append(other)
    return out


def _catchable(state: ValkyrxState, unit: Unit) -> bool:
    # A hidden first carrier is exposed like a healthy unit, or the dice and events would name it
    # (VX-SP-PLAGUE-4): when it catches the plague back, it sickens like any other unit.
    hidden_first = unit.carrier_only and not unit.type.has("plague_bearer")
    return (
        unit.on_table
        and not unit.airborne
        and (not unit.is_carrier or hidden_first)
        and not plague_immune(unit)
        and not is_shielded(state, unit.id)
    )


def exposures(state: ValkyrxState) -> tuple[list[tuple[Unit, Unit]], list[tuple[Unit, Unit]]]:
    """Units exposed this turn, with their source: infected at once, and those Pocâdl's rats may infect."""
    sure: dict[int, tuple[Unit, Unit]] = {}
    risky: dict[int, tuple[Unit, Unit]] = {}
    for carrier in state.units:
        if not (carrier.on_table and not carrier.airborne and carrier.is_carrier):
            continue
        for other in _touching(state, carrier):
            if not _catchable(state, other):
                continue
            if carrier.type.has("plague_bearer") and not carrier.infected:
                risky.setdefault(other.id, (other, carrier))
            else:
                sure.setdefault(other.id, (other, carrier))
    risky = {k: v for k, v in risky.items() if k not in sure}
    return sorted(sure.values(), key=lambda p: p[0].id), sorted(risky.values(), key=lambda p: p[0].id)


def spread(state: ValkyrxState) -> Flow:
    """End of the movement phase: contacts catch the plague; Pocâdl's contacts first roll their d6."""
    sure, risky = exposures(state)
    events: list[Event] = []
    for unit, source in sure:
        state, more = infect(state, unit.id, source.id)
        events.extend(more)
    cfg = rules_config().plague
    pending = tuple(
        Pending(
            "bearer",
            unit=unit.id,
            sides=cfg.bearer_infect_sides,
            purpose=f"do {source.type.name}'s rats infect {unit.label}? (1-{cfg.bearer_infect_faces}: yes)",
        )
        for unit, source in risky
    )
    return replace(state, pending=(*state.pending, *pending)), events


def bearer_answered(state: ValkyrxState, uid: int, face: int) -> Flow:
    """A d6 for a unit in contact with Pocâdl: a low face infects it (VX-13-POCADL-1)."""
    u = state.units[uid]
    if face > rules_config().plague.bearer_infect_faces or (u.is_carrier and not u.carrier_only):
        return state, []
    bearer = next(
        (
            u
            for u in state.units
            if u.type.has("plague_bearer") and u.on_table and u in _touching(state, state.units[uid])
        ),
        None,
    )
    return infect(state, uid, -1 if bearer is None else bearer.id)


def infect(state: ValkyrxState, uid: int, source: int) -> Flow:
    """The unit sickens and carries the plague from this turn (VX-SP-PLAGUE-5, VX-SP-PLAGUE-9)."""
    u = state.units[uid]
    state = state.with_unit(replace(u, infected=state.turn, plague_base=u.strength, carrier_only=False))
    state = replace(state, plague_chain=(*state.plague_chain, Infection(state.turn, uid, source, False)))
    return state, [UnitInfected(uid)]


def take_losses(state: ValkyrxState) -> Flow:
    """End of the turn: infected units lose 5, 10, 25, 50, 100% in all over five turns (VX-SP-PLAGUE-6)."""
    losses = rules_config().plague.losses
    events: list[Event] = []
    for u in state.units:
        if not (u.in_play and u.infected and not u.carrier_only) or is_shielded(state, u.id):
            continue
        k = state.turn - u.infected  # 0: the turn of infection, the first turn
        if k >= len(losses):
            continue
        before = losses[k - 1] if k > 0 else 0.0
        cas = min(u.strength, (losses[k] - before) * u.plague_base)
        if k == len(losses) - 1:
            cas = u.strength  # "100% losses by fifth turn": nothing survives it, unless the Temple wards it
        cas = received(state, u, cas)  # VX-05-11
        if cas <= 0:
            continue
        state = state.with_unit(
            replace(u, strength=u.strength - cas, casualties_turn=u.casualties_turn + cas)
        )
        events.append(PlagueLosses(u.id, cas))
    return state, events
