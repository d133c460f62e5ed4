"""Moving armies (WQ-MV-01..14): one leader and any of the player's unmoved troops of its region, 1..3
steps; no mountain, an unbridged river ends the move (unless a ford power), another player's region ends
it and fights; no dropping off; each piece moves once a turn.
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.warquest.actions import Move
from iwgt.games.warquest.events import ArmyMoved
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.state import Leader, WqState
from iwgt.geometry.regions import check_path, paths

_CLAUSES = (
    ("mountain", "WQ-MV-12"),
    ("river", "WQ-MV-14"),
    ("stops", "WQ-MV-10"),
    ("too long", "WQ-MV-02"),
    ("not adjacent", "WQ-MV-02"),
)


def _clause(reason: str) -> str:
    for word, clause in _CLAUSES:
        if word in reason:
            return clause
    if "the move stops" in reason:
        return "WQ-MV-10"
    return "WQ-MV-02"


def _rules_of(state: WqState, seat: int) -> tuple[int, bool, tuple[tuple[str, str], ...]]:
    from iwgt.games.warquest import powers

    return powers.move_regions(state, seat), powers.ford(state, seat), tuple(powers.tunnel_links(state, seat))


def _stops(state: WqState, seat: int) -> set[str]:
    return {r for r, seats in state.occupied().items() if any(s != seat for s in seats)}


def destinations(state: WqState, leader: Leader) -> dict[str, tuple[str, ...]]:
    """Every region the leader's army may reach this action -> one legal path (empty if it moved)."""
    if leader.id in state.marks.moved:
        return {}
    m = load_map(state.scenario.map)
    steps, ford, links = _rules_of(state, leader.seat)
    stops = _stops(state, leader.seat)
    return paths(m.geometry, leader.region, steps, stops=stops.__contains__, ford=ford, links=links)


def legal_moves(state: WqState, seat: int) -> list[Move]:
    """Per unmoved leader and destination: with all its region's unmoved troops, and the leader alone."""
    out: list[Move] = []
    for ld in state.leaders:
        if ld.seat != seat or ld.id in state.marks.moved:
            continue
        troops = tuple(
            t.id
            for t in state.troops
            if t.seat == seat and t.region == ld.region and t.id not in state.marks.moved
        )
        for path in destinations(state, ld).values():
            out.append(Move(ld.id, troops, path))
            if troops:
                out.append(Move(ld.id, (), path))
    return out


def check_move(state: WqState, seat: int, action: Move) -> Leader:
    """The moving leader, or IllegalAction naming the rule the move breaks."""
    ld = state.leader(action.leader)
    if ld is None or ld.seat != seat:
        raise IllegalAction(f"WQ-MV-01: leader {action.leader} is not one of this warlord's leaders")
    if ld.id in state.marks.moved:
        raise IllegalAction("WQ-MV-06: this leader has already moved this turn")
    for tid in action.troops:
        t = state.troop(tid)
        if t is None or t.seat != seat:
            raise IllegalAction(f"WQ-MV-01: troop {tid} is not one of this warlord's troops")
        if t.region != ld.region:
            raise IllegalAction(
                f"WQ-MV-01: troop {tid} is not in the leader's region (an army is one region's)"
            )
        if tid in state.marks.moved:
            raise IllegalAction(f"WQ-MV-06: troop {tid} has already moved this turn")
    m = load_map(state.scenario.map)
    steps, ford, links = _rules_of(state, seat)
    stops = _stops(state, seat)
    why = check_path(
        m.geometry, ld.region, action.path, steps, stops=stops.__contains__, ford=ford, links=links
    )
    if why is not None:
        raise IllegalAction(f"{_clause(why)}: {why}")
    return ld


def apply_move(state: WqState, seat: int, action: Move) -> tuple[WqState, list[Event]]:
    """Move the army along its path (no dropping off, WQ-MV-08); entering another player's pieces fights."""
    ld = check_move(state, seat, action)
    start = ld.region
    dest = action.path[-1]
    came_from = action.path[-2] if len(action.path) > 1 else start
    moving = set(action.troops)
    leaders = tuple(replace(x, region=dest) if x.id == ld.id else x for x in state.leaders)
    troops = tuple(replace(t, region=dest) if t.id in moving else t for t in state.troops)
    marks = replace(state.marks, moved=state.marks.moved | moving | {ld.id})
    enemy = any(s != seat for s in state.seats_in(dest))
    state = replace(state, leaders=leaders, troops=troops, marks=marks)
    events: list[Event] = [ArmyMoved(seat, ld.id, action.troops, start, action.path)]
    if enemy:
        from iwgt.games.warquest import battle_flow

        state, more = battle_flow.begin_battle(state, ld.id, action.troops, came_from, dest)
        events += more
    return state, events
