"""Hidden information (VX-12-05, VX-12-06, VX-12-08, VX-SP-PLAGUE-4): states that differ only in hidden
facts look byte-identical to the seat they are hidden from, in observations, legal actions and error messages.

The states are taken from a seeded playout of the ``sorcery`` scenario, and then the facts are forced by hand
(independently of ``resample_hidden``, which the conformance suite checks over every game): the Grima hidden
at a drawn cell with a drawn quarry, the Sand Worm hidden at a drawn cell, a drawn first plague carrier, drawn
held spells.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conformance.test_conformance import trajectory
from tests.games.valkyrx.kit import cell, position, tweak

from iwgt.core.digest import canonical_json
from iwgt.core.errors import GameError, IllegalAction
from iwgt.core.protocol import visible_events
from iwgt.games.valkyrx.actions import Move, SetQuarry, Tunnel
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.spells import plague_immune
from iwgt.games.valkyrx.state import Infection, ValkyrxState
from iwgt.geometry.hexgrid import Hex

GAME = ValkyrxGame()


def _playing() -> list[ValkyrxState]:
    return [s for s in trajectory("valkyrx", "sorcery") if s.result is None and s.phase != "deploy"]


def _open_cells(state: ValkyrxState) -> list[Hex]:
    return [c for c in state.scenario.board.cells if state.scenario.terrain.get(c) != "impassable"]


@st.composite
def hidden_facts(draw: st.DrawFn, state: ValkyrxState, blind: int) -> ValkyrxState:
    """The state with the facts hidden from seat ``blind`` drawn anew (and the plague's first carrier)."""
    cells = _open_cells(state)
    for u in state.units:
        if not u.in_play or u.owner == blind:
            continue
        if u.type.has("stealth") or u.type.has("burrower"):
            contacts = tuple(c for c in state.contacts if u.id not in (c.a, c.b))
            quarry = u.quarry
            if u.type.has("stealth"):
                prey = [
                    t.id for t in state.units if t.on_table and t.owner != u.owner and t.type.is_character
                ]
                quarry = draw(st.sampled_from([None, *prey]))
            hid = replace(
                u, hidden=True, cell=draw(st.sampled_from(cells)), quarry=quarry, moved=draw(st.booleans())
            )
            state = replace(state.with_unit(hid), contacts=contacts)
        if u.type.has("wizard") and u.spells:
            allowed = sorted(s for s, sp in spells().items() if u.type.has("master_wizard") or not sp.red)
            held = draw(
                st.lists(
                    st.sampled_from(allowed), min_size=len(u.spells), max_size=len(u.spells), unique=True
                )
            )
            state = state.with_unit(replace(state.units[u.id], spells=tuple(held)))
    # The first carrier: hidden from both seats.
    for u in state.units:
        if u.carrier_only and not u.type.has("plague_bearer"):
            state = state.with_unit(replace(u, carrier_only=False, infected=0, plague_base=0.0))
    eligible = [u.id for u in state.units if u.on_table and not u.is_carrier and not plague_immune(u)]
    first = draw(st.sampled_from([None, *eligible]))
    if first is not None:
        u = state.units[first]
        state = state.with_unit(replace(u, carrier_only=True, infected=state.turn, plague_base=u.strength))
        chain = tuple(i for i in state.plague_chain if not i.by_spell)
        state = replace(state, plague_chain=(*chain, Infection(state.turn, first, 0, True)))
    return state


def _force_hidden(state: ValkyrxState) -> ValkyrxState:
    """Both stealth characters hidden (if still in play), so that there is something to hide."""
    for u in state.units:
        if u.in_play and (u.type.has("stealth") or u.type.has("burrower")):
            state = replace(
                state.with_unit(replace(u, hidden=True)),
                contacts=tuple(c for c in state.contacts if u.id not in (c.a, c.b)),
            )
    return state


def _refusal(state: ValkyrxState, action: object) -> str | None:
    try:
        GAME.apply(state, action)  # type: ignore[arg-type]
    except GameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_vx_12_05_12_06_12_08_plague_4_hidden_facts_leave_no_trace_for_the_blind_seat(
    data: st.DataObject,
) -> None:
    base = _force_hidden(data.draw(st.sampled_from(_playing())))
    blind = data.draw(st.sampled_from([0, 1]))
    a = data.draw(hidden_facts(base, blind))
    b = data.draw(hidden_facts(base, blind))
    assert canonical_json(GAME.observe(a, blind)) == canonical_json(GAME.observe(b, blind))
    assert canonical_json(GAME.observe(a, None)) == canonical_json(GAME.observe(b, None))
    legal_a = [GAME.action_to_json(x) for x in GAME.legal_actions(a, blind)]
    assert legal_a == [GAME.action_to_json(x) for x in GAME.legal_actions(b, blind)]
    if GAME.to_move(a) != blind:
        return
    # Probes by the blind seat aimed at where the enemy's hidden units are in ``a``: refused (or not) alike.
    hidden_cells = [u.cell for u in a.units if u.hidden and u.owner != blind]
    own = [u for u in a.units if u.on_table and u.owner == blind]
    probes: list[object] = [Move(u.id, c) for u in own[:3] for c in hidden_cells]
    probes += [Tunnel(u.id, c) for u in a.units if u.hidden and u.owner != blind for c in hidden_cells]
    probes += [SetQuarry(u.id, t.id) for u in a.units if u.type.has("stealth") for t in own[:2]]
    for probe in probes:
        assert _refusal(a, probe) == _refusal(b, probe)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_vx_12_05_the_blind_seat_sees_the_same_events_when_it_acts(data: st.DataObject) -> None:
    """An action of the blind seat that does not end its phase gives it the same visible events."""
    base = _force_hidden(data.draw(st.sampled_from(_playing())))
    seat = GAME.to_move(base)
    if seat not in (0, 1):
        return
    a = data.draw(hidden_facts(base, seat))
    b = data.draw(hidden_facts(base, seat))
    acts = [x for x in GAME.legal_actions(a, seat) if type(x).__name__ in ("Move", "PlaceUnit", "Transport")]
    for action in acts[:10]:
        _, ev_a = GAME.apply(a, action)
        _, ev_b = GAME.apply(b, action)
        seen_a = [e.to_json() for e in visible_events(ev_a, seat)]
        assert seen_a == [e.to_json() for e in visible_events(ev_b, seat)]


def test_vx_sp_plague_8_everything_is_told_when_the_game_is_over() -> None:
    over = trajectory("valkyrx", "sorcery")[-1]
    assert over.result is not None
    assert GAME.resample_hidden(over, 0, lambda n: n - 1) is over
    view = GAME.observe(over, 1)
    assert view["plague_chain"] is not None
    assert all("spells" in u for u in view["units"] if u["type"] in ("wulfgeldre", "circan"))


def test_a_prayer_order_for_an_enemy_unit_is_refused_before_anything_about_it() -> None:
    """VX-12-06, VX-05-06: naming another seat's unit (here one that has prayed) in a Temple move says only
    that it cannot be moved by this seat, not whether it has prayed (found by the table issue's review)."""
    state = position([("swordsmen", (2, 2))], [("wearg_warriors", (8, 6))], terrain=[("temple", [(5, 4)])])
    answers = []
    for prayed in (False, True):
        probe = tweak(state, 1, prayed=prayed)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(probe, Move(1, cell(5, 4), pray=True))
        answers.append(refused.value.message)
    assert answers[0] == answers[1]
    assert "cannot move" in answers[0] and "prayed" not in answers[0]
