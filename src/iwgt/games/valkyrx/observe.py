"""Views of the state: ``observe`` is the one door hidden information leaves by."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

from iwgt.core.protocol import JSON, Seat
from iwgt.games.valkyrx.flow import current_step, shows_skull
from iwgt.games.valkyrx.morale import morale_status
from iwgt.games.valkyrx.spells import lava_cells
from iwgt.games.valkyrx.state import Contact, Enchantment, Unit, ValkyrxState
from iwgt.geometry.hexgrid import hex_to_offset


def _unit_view(u: Unit, seat: Seat | None, over: bool, arrives: int | None) -> JSON:
    """One unit as ``seat`` sees it: a hidden unit's cell, moves and quarry are its owner's secret.

    A late troop is public (VX-15-24): its ``arrives`` turn always, and in reserve ``status`` "reserve"
    with no cell.
    """
    mine = seat == u.owner
    secret = u.hidden and not mine and not over
    view: JSON = {
        "id": u.id,
        "type": u.type_id,
        "name": u.type.name,
        "owner": u.owner,
        "commander": u.commander,
        "cell": None if secret or u.in_reserve else list(hex_to_offset(u.cell)),
        "arrives": arrives,
        "hidden": u.hidden,
        "strength": round(u.strength, 3),
        "start": u.start_strength,
        "morale": round(u.spirit, 3),
        "morale_bonus": u.morale_bonus,
        "level": morale_status(u.spirit),
        "status": u.status,
        "routed": u.routed,
        "airborne": u.airborne,
        "moved": None if secret else u.moved,
        "last_charge": u.last_charge,
        "temple_until": u.temple_until,
        "infected": shows_skull(u),  # the skull: never the first carrier (VX-SP-PLAGUE-4, -7)
    }
    if u.type.has("wizard"):
        view["spells_left"] = len(u.spells)
        view["cast_turn"] = u.cast_turn
        if mine or over:
            view["spells"] = list(u.spells)  # held spells are their owner's secret
    if u.type.has("stealth") and (mine or over):
        view["quarry"] = u.quarry  # VX-12-05: the enemy never learns whom she hunts
    if u.type.has("burrower"):
        view["surface_turns"] = u.surface_turns
    return view


def _spell_view(e: Enchantment) -> JSON:
    return {
        "spell": e.spell,
        "caster": e.caster,
        "side": e.side,
        "cast_turn": e.cast_turn,
        "first": e.first,
        "last": e.last,
        "units": list(e.units),
        "cells": [list(hex_to_offset(c)) for c in e.cells],
        "used": e.used,
    }


def observe(state: ValkyrxState, seat: Seat | None) -> JSON:
    """What ``seat`` (None: a spectator) may see: the single door hidden information leaves by.

    Hidden from the other seat: a hidden unit's cell and moves, the Grima's quarry, a wizard's held
    spells. Hidden from both seats until the game is over: which unit first carried the plague.
    """
    scen = state.scenario
    over = state.result is not None
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
        "secret_die": bool(state.pending) and state.pending[0].secret,
        "first_mover": state.first_mover,
        "board": {
            "width": scen.spec.width,
            "height": scen.spec.height,
            "terrain": [{"cell": list(hex_to_offset(c)), "kind": k} for c, k in sorted(scen.terrain.items())],
        },
        # A seat sees its own zone while deployment lasts; a spectator (and the physical table, which lights
        # what a spectator sees) the zone of the seat deploying (VX-14-01): scenario data, public to all.
        "deployment": (
            [
                list(hex_to_offset(c))
                for c in sorted(scen.deployment[state.deploy_seat if seat is None else seat])
            ]
            if state.phase == "deploy"
            else []
        ),
        "units": [_unit_view(u, seat, over, state.arrives(u.id)) for u in state.units],
        "entry": [  # where each side's late troops come on (VX-15-24); [] for a side with none
            [list(hex_to_offset(c)) for c in sorted(zone, key=scen.board.index.__getitem__)]
            if any(a is not None for a, u in zip(scen.arrivals, state.units, strict=True) if u.owner == s)
            else []
            for s, zone in enumerate(scen.entry_zones)
        ],
        "spells_in_force": [_spell_view(e) for e in state.enchantments if e.last >= state.turn],
        "lava": [list(hex_to_offset(c)) for c in sorted(lava_cells(state), key=scen.board.index.__getitem__)],
        "casting": None
        if state.casting is None
        else {"spell": state.casting.spell, "caster": state.casting.caster},
        "denied": list(state.denied),
        "plague_chain": [
            {"turn": i.turn, "unit": i.unit, "source": i.source, "by_spell": i.by_spell}
            for i in state.plague_chain
        ]
        if over
        else None,
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
        "enchantments": [
            [e.spell, e.caster, e.side, e.cast_turn, e.first, e.last, list(e.units), list(e.cells), e.used]
            for e in state.enchantments
        ],
        "casting": None
        if state.casting is None
        else [
            state.casting.spell,
            state.casting.caster,
            state.casting.stage,
            list(state.casting.units),
            state.casting.target,
            list(state.casting.resisted),
        ],
        "denied": list(state.denied),
        "plague_chain": [[i.turn, i.unit, i.source, i.by_spell] for i in state.plague_chain],
        "result": None
        if state.result is None
        else {"winner": state.result.winner, "reason": state.result.reason},
    }
