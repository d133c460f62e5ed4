"""Movement policing (sections 3 to 5), expectations by hand and against an independent oracle."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iwgt.core.errors import IllegalAction
from iwgt.games.valkyrx.actions import EndPhase, Move
from iwgt.games.valkyrx.movement import allowance, destinations
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.geometry.hexgrid import Hex, distance, neighbours

from .kit import GAME, cell, position, tweak

FAR_ENEMY = [("wearg_warriors", (11, 8))]


def move(state: ValkyrxState, uid: int, to: tuple[int, int], **kw: bool) -> ValkyrxState:
    """Apply a move for the seat in its movement phase."""
    return GAME.apply(state, Move(uid, cell(*to), **kw))[0]


def refused(state: ValkyrxState, uid: int, to: tuple[int, int], **kw: bool) -> str:
    """The reason a move is refused; the state is a value, so nothing changed."""
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, Move(uid, cell(*to), **kw))
    return info.value.message


def test_vx_03_06_beyond_the_allowance_is_refused_with_its_reason() -> None:
    state = position([("guardsmen", (2, 4))], FAR_ENEMY)
    assert "may move 2 cells; that cell is 3 away" in refused(state, 0, (5, 4))
    after = move(state, 0, (4, 4))
    assert after.units[0].cell == cell(4, 4) and after.units[0].moved_cost == 2
    assert "already moved" in refused(after, 0, (5, 4))


def test_vx_03_02_an_unlit_unit_cannot_be_moved() -> None:
    state = position([("guardsmen", (2, 4))], FAR_ENEMY)
    assert "not under your command" in refused(state, 1, (10, 8))


def test_vx_04_24_no_passing_or_ending_on_an_occupied_cell() -> None:
    state = position([("guardsmen", (2, 4)), ("archers", (3, 4))], FAR_ENEMY)
    assert "occupied" in refused(state, 0, (3, 4))


def test_vx_05_01_impassable_and_vx_05_04_difficult_cost_one_more() -> None:
    # Guardsmen at (2,4) walled in except towards the wood at (3,4): (4,4) lies beyond it.
    walls = [(2, 3), (2, 5), (3, 3), (3, 5), (1, 3), (1, 5), (1, 4)]
    state = position(
        [("guardsmen", (2, 4))], FAR_ENEMY, terrain=[("impassable", walls), ("difficult", [(3, 4)])]
    )
    d = destinations(state, state.units[0])
    assert d.walk == {cell(3, 4): 2.0}  # entering the wood costs 1 + 1
    assert "impassable" in refused(state, 0, (2, 3))
    assert "no legal path" in refused(state, 0, (4, 4))


def test_vx_04_25_a_path_stops_on_entering_an_enemy_zone() -> None:
    # Wolf-riders (3/5) at (2,4); Wearg enemy at (4,4). Cells next to the enemy may be entered to stop,
    # never passed through: (5,4) lies behind the enemy, 3 cells away, reachable only through its zone.
    state = position([("knights_of_mynsterlif", (2, 4))], [("wearg_warriors", (4, 4))])
    walk = destinations(state, state.units[0]).walk
    assert cell(3, 4) in walk  # next to the enemy: may stop there
    assert cell(5, 4) not in walk and distance(cell(2, 4), cell(5, 4)) == 3


def test_vx_04_17_vx_04_18_a_charge_must_end_in_contact() -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (6, 4))])
    assert "beyond the normal move" in refused(state, 0, (5, 4))
    assert "must end in contact" in refused(state, 0, (4, 2), charge=True)
    after = move(state, 0, (5, 4), charge=True)  # 3 cells (the charge speed) into contact
    u = after.units[0]
    assert u.charging and u.last_charge == 1 and u.moved_cost == 3


def test_vx_04_14_charge_again_only_from_the_third_turn() -> None:
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (6, 4))])
    state = tweak(state, 0, last_charge=1)
    state = tweak(state, 0, last_charge=1)
    from dataclasses import replace

    turn3 = replace(state, turn=3)
    assert "may charge again from turn 4" in refused(turn3, 0, (5, 4), charge=True)
    turn4 = replace(state, turn=4)
    assert move(turn4, 0, (5, 4), charge=True).units[0].last_charge == 4


def test_vx_16_03_vx_04_31_flyer_apportions_flight_and_walk() -> None:
    # Ǻstígend flies 12 or walks 12/3 = 4; "fly 6 and walk 2" (6/12 + 2/4 = 1).
    state = position([("astigend", (6, 4))], [("wearg_warriors", (0, 0))], width=24, height=18)
    a = allowance(state, state.units[0])
    assert (a.normal, a.charge, a.fly) == (4, None, 12)
    d = destinations(state, state.units[0])
    start = cell(6, 4)
    assert all(2 <= distance(start, c) <= 12 for c in d.fly)
    walk_reach = max(distance(start, c) for c in d.walk)
    assert walk_reach == 10  # fly 9 (9/12 = 0.75) and walk 1 (0.25): the farthest ground cell
    eight = next(c for c in d.walk if distance(start, c) == 8)
    assert d.walk[eight] <= 4  # e.g. fly 6 and walk 2
    after = move(state, 0, (14, 4), airborne=True)  # 8 cells away, set down airborne (VX-04-27)
    assert after.units[0].airborne and after.units[0].moved_cost == pytest.approx(4 * 8 / 12)
    assert "set the unit down airborne" in refused(state, 0, (18, 4))  # 12 away: flight only


def test_vx_04_27_one_cell_is_a_walk_not_a_flight() -> None:
    state = position([("astigend", (6, 4))], FAR_ENEMY)
    assert "walking, not airborne" in refused(state, 0, (7, 4), airborne=True)


def test_vx_04_11_engaged_units_cannot_withdraw_before_a_round() -> None:
    # The Light moves first and charges into contact; the Darkness may not step away this turn.
    state = position([("guardsmen", (2, 4))], [("wearg_warriors", (6, 4)), ("wearg_archers", (10, 8))])
    state = move(state, 0, (5, 4), charge=True)
    state = GAME.apply(state, EndPhase())[0]
    assert state.mover == 1  # the archers far away are still lit, so the Darkness phase is open
    assert "locked in close combat" in refused(state, 1, (8, 4))
    assert all(not isinstance(a, Move) or a.unit != 1 for a in GAME.legal_actions(state, 1))


def test_vx_04_10_late_contact_fights_from_next_turn() -> None:
    # Walking all 2 cells (100% > 50%) into contact without a charge defers the fight (VX-02-10).
    state = position([("guardsmen", (3, 4))], [("wearg_warriors", (6, 4))])
    state = move(state, 0, (5, 4))
    state = GAME.apply(state, EndPhase())[0]
    assert state.contacts[0].deferred
    # Both units are in a deferred contact: no one attacks, so no random factor is asked.
    assert all(p.kind != "factor" for p in state.pending)


def _oracle(
    state: ValkyrxState, uid: int, budget: float, costs: dict[Hex, int], occupied: set[Hex], zoc: set[Hex]
) -> dict[Hex, float]:
    """An independent Dijkstra written from the rule text: enter a zone cell only to stop there."""
    board = state.scenario.board
    start = state.units[uid].cell
    best = {start: 0.0}
    heap: list[tuple[float, Hex]] = [(0.0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best[h] or (h != start and h in zoc):
            continue
        for n in neighbours(h):
            if not board.contains(n) or n in occupied or costs[n] == 0:
                continue
            nc = c + costs[n]
            if nc <= budget and nc < best.get(n, float("inf")):
                best[n] = nc
                heapq.heappush(heap, (nc, n))
    best.pop(start)
    return best


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    friends=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 8)), min_size=0, max_size=4),
    foes=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 8)), min_size=1, max_size=4),
    rough=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 8)), max_size=10),
    rocks=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 8)), max_size=6),
)
def test_walk_destinations_match_an_independent_oracle(
    friends: list[tuple[int, int]],
    foes: list[tuple[int, int]],
    rough: list[tuple[int, int]],
    rocks: list[tuple[int, int]],
) -> None:
    """VX-04-24, VX-04-25, VX-05-04: occupied cells, enemy zones and difficult ground, on random boards."""
    me = (5, 4)
    taken = {me}
    friends = [c for c in dict.fromkeys(friends) if c not in taken and not taken.add(c)]  # type: ignore[func-returns-value]
    foes = [c for c in dict.fromkeys(foes) if c not in taken and not taken.add(c)]  # type: ignore[func-returns-value]
    if not foes:
        return
    rough = [c for c in dict.fromkeys(rough) if c not in taken]
    rocks = [c for c in dict.fromkeys(rocks) if c not in taken and c not in rough]
    terrain = [("difficult", rough)] if rough else []
    terrain += [("impassable", rocks)] if rocks else []
    state = position(
        [("knights_of_mynsterlif", me)] + [("guardsmen", c) for c in friends],
        [("wearg_warriors", c) for c in foes],
        terrain=terrain,
    )
    if state.mover != 0:
        return  # the knights were locked by an adjacent enemy: nothing to compare
    unit = state.units[0]
    costs = {h: 1 for h in state.scenario.board.cells}
    costs.update({cell(*c): 2 for c in rough})
    costs.update({cell(*c): 0 for c in rocks})
    occupied = {u.cell for u in state.units if u.id != 0}
    zoc = {n for u in state.units if u.owner == 1 for n in neighbours(u.cell)}
    expected = _oracle(state, 0, 3, costs, occupied, zoc)
    assert destinations(state, unit).walk == pytest.approx(expected)
