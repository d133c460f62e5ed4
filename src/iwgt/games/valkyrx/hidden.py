"""What a seat cannot know, made explicit: ``resample_hidden`` redraws exactly the facts ``observe`` hides.

A state and its resamples must look the same to the seat, byte for byte: the conformance suite checks it,
and an information-set search can use it to imagine what the enemy might be hiding (OpenSpiel's
``resample_from_infostate``). The facts are: a hidden unit's cell, moves and quarry (hidden from the other
seat), a wizard's held spells (from the other seat), and the plague's first carrier (from both seats).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from iwgt.core.protocol import Seat
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.spells import plague_immune
from iwgt.games.valkyrx.state import Infection, Unit, ValkyrxState

Pick = Callable[[int], int]
"""A source of choices: ``pick(n)`` is a whole number in 0..n-1."""


def _choose(pick: Pick, options: list[int]) -> int | None:
    return options[pick(len(options))] if options else None


def resample_hidden(state: ValkyrxState, seat: Seat | None, pick: Pick) -> ValkyrxState:
    """A state ``seat`` cannot tell from this one: every fact hidden from it redrawn by ``pick``."""
    if state.result is not None:
        return state  # at the end of the game everything is told
    board = state.scenario.board
    open_cells = [c for c in board.cells if state.scenario.terrain.get(c) != "impassable"]
    table = spells()
    for u in state.units:
        if not (u.in_play or u.in_reserve) or u.owner == seat:
            continue  # a late troop's held spells are secret too, though the troop is public (VX-15-24)
        if u.hidden:
            state = state.with_unit(replace(u, cell=open_cells[pick(len(open_cells))], moved=pick(2) == 1))
        if u.type.has("stealth") and u.in_play:  # her quarry is her owner's secret, hidden or not (VX-12-05)
            prey = [t.id for t in state.units if t.on_table and t.owner != u.owner and t.type.is_character]
            quarry = _choose(pick, [-1, *prey])
            state = state.with_unit(replace(state.units[u.id], quarry=None if quarry == -1 else quarry))
        if u.type.has("wizard") and u.spells:
            allowed = [s for s in table if u.type.has("master_wizard") or not table[s].red]
            held: list[str] = []
            for _ in u.spells:
                s = allowed.pop(pick(len(allowed)))
                held.append(s)
            state = state.with_unit(replace(state.units[u.id], spells=tuple(held)))
    return _move_first_carrier(state, pick)


def _move_first_carrier(state: ValkyrxState, pick: Pick) -> ValkyrxState:
    """The Plague spell's first carrier is nobody's knowledge (VX-SP-PLAGUE-4): any eligible unit will do."""
    firsts = [u for u in state.units if u.carrier_only and not u.type.has("plague_bearer") and u.in_play]
    for first in firsts:
        eligible = [u.id for u in state.units if _could_carry(u) or u.id == first.id]
        chosen = state.units[eligible[pick(len(eligible))]]
        if chosen.id == first.id:
            continue
        healthy = replace(first, carrier_only=False, infected=0, plague_base=0.0)
        state = state.with_unit(healthy)
        state = state.with_unit(
            replace(chosen, carrier_only=True, infected=first.infected, plague_base=chosen.strength)
        )
        chain = tuple(
            Infection(i.turn, chosen.id, i.source, True) if i.unit == first.id and i.by_spell else i
            for i in state.plague_chain
        )
        state = replace(state, plague_chain=chain)
    return state


def _could_carry(u: Unit) -> bool:
    return u.on_table and not u.is_carrier and not plague_immune(u)
