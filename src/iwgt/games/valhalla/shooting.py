"""Who may shoot whom: range, sight, cover, and the figures in combat (VH-SH-01..08, VH-AC-16)."""

from __future__ import annotations

from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.dice import shot_hits_on
from iwgt.games.valhalla.movement import figure_radius
from iwgt.games.valhalla.state import Figure, Shot, ValhallaState
from iwgt.geometry.plane import edge_distance


def shot_problem(state: ValhallaState, f: Figure, target: Figure) -> tuple[str | None, Shot | None]:
    """Why a shot is refused, or the shot (VH-SH-01..08, VH-AC-16, VH-MS-04)."""
    if not rules().figures[f.kind].shoots:
        return f"only archers and slingers shoot; {f.name} is a {f.kind}", None
    if state.engaged(f.id):
        return f"{f.name} is in combat and cannot shoot", None
    if f.carrying is not None:
        return f"{f.name} must drop the {state.things[f.carrying].name} to shoot (VH-AC-16)", None
    if not target.alive or target.side == f.side:
        return f"{target.name} is not a living enemy", None
    if state.engaged(target.id):
        return f"{target.name} is in combat: no shooting at figures in combat (VH-SH-02)", None
    r = figure_radius()
    gap = round(max(0.0, edge_distance(f.at, r, target.at, r)), 2)
    cover = state.scenario.ground.in_cover(target.at)
    needs = shot_hits_on(gap, cover)
    if needs is None:
        return f'{target.name} is {gap:.1f}" away, beyond the {rules().shooting.range:g}" range', None
    blocked = state.scenario.ground.sight_blocked(f.at, target.at, rules().shooting.sight_depth)
    if blocked is not None:
        return f"{f.name} cannot see {target.name}: {blocked}", None
    return None, Shot(f.id, target.id, needs, gap, cover)
