"""Who may shoot whom: range, sight, cover, and the figures in combat (VH-SH-01..08, VH-AC-16)."""

from __future__ import annotations

from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.dice import shot_hits_on
from iwgt.games.valhalla.movement import figure_radius
from iwgt.games.valhalla.state import Figure, Shot, ValhallaState
from iwgt.geometry.plane import edge_distance


def why_not_shoot(state: ValhallaState, f: Figure, target: Figure) -> str | None:
    """Why ``f`` may not shoot ``target`` now, or None if it may (VH-SH-01..08, VH-AC-16, VH-MS-04)."""
    if not rules().figures[f.kind].shoots:
        return f"only archers and slingers shoot; {f.name} is a {f.kind}"
    if state.engaged(f.id):
        return f"{f.name} is in combat and cannot shoot"
    if f.carrying is not None:
        return f"{f.name} must drop the {state.things[f.carrying].name} to shoot (VH-AC-16)"
    if not target.alive or target.side == f.side:
        return f"{target.name} is not a living enemy"
    if state.engaged(target.id):
        return f"{target.name} is in combat: no shooting at figures in combat (VH-SH-02)"
    shot = aim(state, f, target)
    if shot is None:
        gap = shot_gap(f, target)
        return f'{target.name} is {gap:.1f}" away, beyond the {rules().shooting.range:g}" range'
    blocked = state.scenario.ground.sight_blocked(f.at, target.at, rules().shooting.sight_depth)
    if blocked is not None:
        return f"{f.name} cannot see {target.name}: {blocked}"
    return None


def shot_gap(f: Figure, target: Figure) -> float:
    """The edge-to-edge distance of a shot, to the hundredth of an inch as positions are kept (VH-SH-03)."""
    r = figure_radius()
    return round(max(0.0, edge_distance(f.at, r, target.at, r)), 2)


def aim(state: ValhallaState, f: Figure, target: Figure) -> Shot | None:
    """The shot ``f`` would take at ``target``: its distance, the target's cover and the score it needs; None
    out of range. Only range is judged here: whether the shot is allowed at all is ``why_not_shoot``'s."""
    gap = shot_gap(f, target)
    cover = state.scenario.ground.in_cover(target.at)
    needs = shot_hits_on(gap, cover)
    return None if needs is None else Shot(f.id, target.id, needs, gap, cover)
