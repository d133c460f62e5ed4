"""Views of the state: ``observe`` is the one door hidden information leaves by."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

from iwgt.core.protocol import JSON, Seat
from iwgt.games.valkyrx.flow import current_step
from iwgt.games.valkyrx.morale import morale_status
from iwgt.games.valkyrx.state import Contact, Unit, ValkyrxState
from iwgt.geometry.hexgrid import hex_to_offset


def _unit_view(u: Unit) -> JSON:
    return {
        "id": u.id,
        "type": u.type_id,
        "name": u.type.name,
        "owner": u.owner,
        "commander": u.commander,
        "cell": list(hex_to_offset(u.cell)),
        "strength": round(u.strength, 3),
        "start": u.start_strength,
        "morale": round(u.morale, 3),
        "level": morale_status(u.morale),
        "status": u.status,
        "routed": u.routed,
        "airborne": u.airborne,
        "moved": u.moved,
        "last_charge": u.last_charge,
        "temple_until": u.temple_until,
    }


def observe(state: ValkyrxState, seat: Seat | None) -> JSON:
    """What ``seat`` (None: a spectator) may see. Nothing in this game is hidden until section 12 arrives."""
    scen = state.scenario
    to_move = state.deploy_seat if state.phase == "deploy" else state.mover
    return {
        "game": "valkyrx",
        "scenario": scen.name,
        "seat": seat,
        "turn": state.turn,
        "turn_limit": scen.turn_limit,
        "phase": state.phase,
        "step": current_step(state),
        "to_move": None if state.pending or state.result else to_move,
        "awaiting_die": state.pending[0].purpose if state.pending else None,
        "first_mover": state.first_mover,
        "board": {
            "width": scen.spec.width,
            "height": scen.spec.height,
            "terrain": [{"cell": list(hex_to_offset(c)), "kind": k} for c, k in sorted(scen.terrain.items())],
        },
        "deployment": (
            [list(hex_to_offset(c)) for c in sorted(scen.deployment[seat])]
            if seat is not None and state.phase == "deploy"
            else []
        ),
        "units": [_unit_view(u) for u in state.units],
        "contacts": [
            {"a": c.a, "b": c.b, "rounds": c.rounds, "deferred": c.deferred} for c in state.contacts
        ],
        "result": None
        if state.result is None
        else {"winner": state.result.winner, "reason": state.result.reason},
    }


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))
_unit_row = attrgetter(*_UNIT_FIELDS)
_contact_row = attrgetter(*(f.name for f in fields(Contact)))
# Rows are plain tuples built in C: a digest runs after every step, so this is the hot path of a game.
# Floats need no rounding here: their JSON text (repr) is exact and the same on every platform.


def state_to_json(state: ValkyrxState) -> JSON:
    """The whole state, hidden parts included: for digests, golden files and debugging only."""
    return {
        "scenario": state.scenario.name,
        "turn": state.turn,
        "phase": state.phase,
        "deploy_seat": state.deploy_seat,
        "first_mover": state.first_mover,
        "mover": state.mover,
        "movers_done": state.movers_done,
        "unit_fields": list(_UNIT_FIELDS),
        "units": [_unit_row(u) for u in state.units],
        "contacts": [_contact_row(c) for c in state.contacts],
        "pending": [[p.kind, p.unit, p.sides] for p in state.pending],
        "rolls": list(state.rolls),
        "plan": [
            [a.attacker, a.target, a.kind, a.share, a.melee_stage, a.charge, a.flank, a.outnumbered]
            for a in state.plan
        ],
        "raised": state.raised,
        "result": None
        if state.result is None
        else {"winner": state.result.winner, "reason": state.result.reason},
    }
