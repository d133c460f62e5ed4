"""Moving, charging, reforming and rallying: legality and application (CD-MS-01, CD-MS-16, CD-TE, CD-AC).

A ``move`` is a path of tray centres and a final facing; pivots are free; it costs its length. The swept
area may not cross another tray or impassable ground or leave the table, and the move may not end within
``ENEMY_GAP`` of an enemy: only a charge ends in contact. Terrain taxes (CD-TE-02..14) are taken off the
allowance once per feature entered or crossed: the fixed ones at once (an order too long for them is
refused), the d6 ones rolled as chance nodes when the move is ordered (a ``MoveRoll`` on the pending
stack); the unit then goes along the ordered path as far as the reduced allowance lets it and stops.
A second move in a turn is a march: refused in tight order (CD-AC-08) and after a pond (CD-TE).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from shapely.geometry import MultiPoint, Polygon
from shapely.ops import unary_union

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.coloured_dice import formation, resolve
from iwgt.games.coloured_dice import rules as data
from iwgt.games.coloured_dice.events import (
    BushesCleared,
    ChargeAbandoned,
    TerrainRolled,
    UnitCharged,
    UnitMoved,
    UnitReformed,
)
from iwgt.games.coloured_dice.flow import actions_for
from iwgt.games.coloured_dice.magic import leash_refusal
from iwgt.games.coloured_dice.magic_bonus import move_bonus
from iwgt.games.coloured_dice.pending import Then
from iwgt.games.coloured_dice.rules import Profile, move_allowance, orders_for, profile, rules
from iwgt.games.coloured_dice.state import CdState, MoveRoll, TerrainPiece, Unit
from iwgt.games.coloured_dice.terrain import (
    MoveTax,
    blocked_pieces,
    convex_apart,
    convex_hull_xy,
    move_taxes,
    piece_box,
    piece_hull,
    piece_polygon,
)
from iwgt.games.coloured_dice.terrain import sees as terrain_sees
from iwgt.geometry.trays import (
    Tray,
    engaged_edge,
    facing_towards,
    facing_vector,
    leg_sweep,
    normal_facing,
    stop_short,
    tray_gap,
    trays_overlap,
    within_table,
)

XY = tuple[float, float]
Step = tuple[CdState, list[Event]]

ENEMY_GAP: Final = rules().constants.enemy_gap
"""A move may not end nearer an enemy than this (inches): only a charge ends in contact (CD-MS-16, data)."""
CONTACT_EPS: Final = formation.CONTACT_EPS
"""Two trays this near (inches) touch: engaged (CD-FI)."""
CAVALRY: Final = "cavalry"
"""The cavalry kind: a mounted character moves as one (CD-MS-08)."""
AREA_EPS: Final = 1e-6
"""Square inches of overlap below which two shapes only touch."""
GAP_EPS: Final = 1e-6
"""Rounding slack (inches) in distance checks."""
SHADOW_EPS: Final = 1e-9
"""Rounding slack (inches) of ``shadow_gap`` as a bound on the true gap."""
MOVE_EPS: Final = 1e-6
"""Inches of path below which a move is a pivot in place."""
SHORT_STEP: Final = 0.25
"""When the terrain dice stop a unit where it may not stand, it backs off this much at a time (inches)."""
OFFER_SHARES: Final = (1.0, 0.5)
"""The legal actions offer moves of the full and half allowance."""
OFFER_DIRECTIONS: Final = (0.0, 90.0, -90.0, 180.0)
"""And full moves forward, to either side and back (degrees from the unit's facing)."""
OFFER_ENEMIES: Final = 3
"""Moves are offered towards the nearest few enemy units."""
ROUNDING_MARGIN: Final = 0.02
"""Offered ends are rounded to hundredths a hair inside the reach."""
LANE_SLACK: Final = 0.1
"""Inches beyond the stopping gap within which a shape is still looked at by an offered slide."""
MIN_OFFER: Final = 0.5
"""No move shorter than this (inches) is offered."""
DIE_MAX: Final = 6
"""An ordinary d6."""


# ------------------------------------------------------------------ the unit's facts


def profile_of(unit: Unit) -> Profile:
    """The unit's profile (``data/armies.toml``)."""
    return profile(unit.army, unit.key)


def has(p: Profile, ability: str) -> bool:
    """Whether a profile has an ability (formation, skirmish, mounted, immaterial...)."""
    return ability in p.abilities


def terrain_class(p: Profile) -> str:
    """How terrain treats the unit (CD-TE, CD-MS-08): by its kind (monsters and characters on foot as
    infantry), mounted ones as cavalry, immaterial spirits ignore it (``spirit``)."""
    if has(p, "immaterial"):
        return "spirit"
    if has(p, "mounted"):
        return "cavalry"
    return str(data.terrain_class(p))


def orders_of(p: Profile) -> tuple[str, ...]:
    """The orders a unit may take: loose or tight with 'formation', skirmish with 'skirmish', else open."""
    return tuple(orders_for(p))


def unit_tray(p: Profile, order: str, centre: XY, facing: float, models: int, files: int) -> Tray:
    """A unit's tray laid out from its centre (formation.py)."""
    return formation.block_tray(centre, facing, models, files, formation.cell_size(p.kind, order))


def allowance(state: CdState, unit: Unit) -> float:
    """The inches of one move action (designed, by kind: rules.move_allowance; a mounted character as
    cavalry), with rune, spirit and spell bonuses (magic's ``move_bonus``, which reads the buffs too)."""
    p = profile_of(unit)
    base = float(move_allowance(p))
    if has(p, "mounted") and p.kind != CAVALRY:
        base = float(rules().kinds[CAVALRY].move)
    return max(0.0, base + _magic_move_bonus(state, unit))


def _magic_move_bonus(state: CdState, unit: Unit) -> float:
    """Runes', bound spirits' and running spells' move bonus (magic's query)."""
    return float(move_bonus(state, unit))


# ------------------------------------------------------------------ who is where


def others(state: CdState, uid: int) -> list[Unit]:
    """Every other unit on the table."""
    return [u for u in state.units if u.id != uid and u.on_table]


def engaged(state: CdState, unit: Unit) -> list[int]:
    """The enemy units in contact with this one (tray gap within ``CONTACT_EPS``)."""
    if not unit.on_table:
        return []
    reach = _radius(unit.tray) + CONTACT_EPS
    return [
        e.id
        for e in state.units
        if e.on_table
        and e.seat != unit.seat
        # far-apart centres settle it without the rectangle maths
        and math.dist(unit.tray.centre, e.tray.centre) <= reach + _radius(e.tray)
        and shadow_gap(unit.tray, e.tray) <= CONTACT_EPS + SHADOW_EPS
        and _gap(unit.tray, e.tray) <= CONTACT_EPS
    ]


@lru_cache(maxsize=8192)
def _gap(a: Tray, b: Tray) -> float:
    """``tray_gap`` remembered (trays are values; the same pairs are measured again and again)."""
    return tray_gap(a, b)


@lru_cache(maxsize=8192)
def _overlap(a: Tray, b: Tray) -> bool:
    """``trays_overlap`` remembered."""
    return trays_overlap(a, b)


def shadow_gap(a: Tray, b: Tray) -> float:
    """The widest gap between the trays' shadows on their four axes: never more than the trays' true gap
    (``tray_gap``), and much cheaper, so a tray surely farther than some distance is passed over."""
    ca, cb = a.corners(), b.corners()
    best = -math.inf
    for t in (a, b):
        for nx, ny in t.axes():
            pa = [x * nx + y * ny for x, y in ca]
            pb = [x * nx + y * ny for x, y in cb]
            best = max(best, min(pb) - max(pa), min(pa) - max(pb))
    return best


def _radius(t: Tray) -> float:
    return math.hypot(t.frontage, t.depth) / 2


Box = tuple[float, float, float, float]
"""A bounding box: min x, min y, max x, max y."""

FOREST_CLAUSE: Final = "CD-TE-14"
"""Forests "prevent cavalry from passing": the clause a cavalry move into one is refused by."""


@dataclass(frozen=True, slots=True)
class Barrier:
    """A terrain piece the unit may not enter (CD-TE), with its outline's polygon and bounding box."""

    piece: TerrainPiece
    polygon: Polygon
    box: Box


def barriers(state: CdState, p: Profile) -> list[Barrier]:
    """The ground the unit may not enter: impassable pieces (rocks), and forest for cavalry (CD-TE)."""
    return [
        Barrier(piece, piece_polygon(piece.outline), piece_box(piece.outline))
        for piece in blocked_pieces(state.terrain(), terrain_class(p))
    ]


def barrier_refusal(unit: Unit, p: Profile, piece: TerrainPiece, doing: str) -> str:
    """Why the unit may not go onto the piece, naming the piece and the rule: "CD-TE-14: cavalry may not
    enter the Forest"; ``doing`` says how it would ("cross it", "stand in it")."""
    entry = rules().terrain.get(piece.kind)
    name = piece.name or (entry.name if entry is not None else piece.kind)
    if entry is not None and entry.infantry_blocked and entry.cavalry_blocked:
        clause = entry.clauses[0] if entry.clauses else "CD-TE"
        return f"{clause}: no unit may enter the {name}, it is impassable ({unit.name} would {doing})"
    clause = (
        FOREST_CLAUSE
        if piece.kind == "forest"
        else (entry.clauses[0] if entry and entry.clauses else "CD-TE")
    )
    return f"{clause}: {terrain_class(p)} may not enter the {name} ({unit.name} would {doing})"


def _box_of(points: Sequence[XY]) -> Box:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


class Sweep:
    """The ground a move covers: convex parts for cheap tests, the exact polygon built only when needed."""

    __slots__ = ("_build", "_polygon", "box", "parts")

    def __init__(self, parts: list[list[XY]], build: Callable[[], Polygon]) -> None:
        self.parts = parts
        self.box = _box_of([q for part in parts for q in part])
        self._build = build
        self._polygon: Polygon | None = None

    @property
    def polygon(self) -> Polygon:
        """The swept area as shapely sees it (built once, on the first exact test)."""
        if self._polygon is None:
            self._polygon = self._build()
        return self._polygon

    def clear_of(self, corners: Sequence[XY]) -> bool:
        """Whether the sweep surely shares no area with this convex shape (each part apart from it)."""
        return all(convex_apart(part, corners) for part in self.parts)


def why_not_stand(state: CdState, unit: Unit, tray: Tray, *, ignore: Sequence[int] = ()) -> str | None:
    """Why the unit's tray may not end here: off the table, on another tray, within ``ENEMY_GAP`` of an
    enemy, in impassable ground; None when it may. ``ignore``: units not checked (a charge's target)."""
    if not within_table(tray, state.width, state.height):
        return "CD-MS-01: the tray would leave the table"
    reach = _radius(tray)
    for other in others(state, unit.id):
        if other.id in ignore:
            continue
        if math.dist(other.tray.centre, tray.centre) > reach + _radius(other.tray) + ENEMY_GAP + GAP_EPS:
            continue
        if _overlap(tray, other.tray):
            return f"CD-MS-01: the tray would stand on {other.name}"
        if other.seat != unit.seat:
            if shadow_gap(tray, other.tray) >= ENEMY_GAP - GAP_EPS + SHADOW_EPS:
                continue  # surely far enough
            gap = _gap(tray, other.tray)
            if gap < ENEMY_GAP - GAP_EPS:
                return (
                    f'CD-MS-16: a move may not end within {ENEMY_GAP:g}" of an enemy ({other.name} would be '
                    f'{gap:.2f}" away): only a charge ends in contact'
                )
    p = profile_of(unit)
    near = [b for b in barriers(state, p) if _boxes_meet(_box_of(tray.corners()), b.box)]
    if near:
        poly = tray.polygon()
        for b in near:
            if poly.intersection(b.polygon).area > AREA_EPS:
                return barrier_refusal(unit, p, b.piece, "stand in it")
    return None


@lru_cache(maxsize=4096)
def _poly(tray: Tray) -> Polygon:
    """A tray's polygon, built once (trays are values)."""
    return tray.polygon()


def why_not_leg(state: CdState, unit: Unit, sweep: Sweep, *, ignore: Sequence[int] = ()) -> str | None:
    """Why a swept area may not be crossed: another tray or impassable ground in the way (CD-MS-01).

    Cheap tests first (bounding circles and boxes, separating axes of the convex parts); shapely's overlay
    only decides the shapes those cannot part."""
    x0, y0, x1, y1 = sweep.box
    for other in others(state, unit.id):
        if other.id in ignore:
            continue
        (cx, cy), r = other.tray.centre, _radius(other.tray)
        if cx + r < x0 or cx - r > x1 or cy + r < y0 or cy - r > y1:
            continue  # its bounding circle is clear of the swept area's box
        if sweep.clear_of(other.tray.corners()):
            continue
        if sweep.polygon.intersection(_poly(other.tray)).area > AREA_EPS:
            return f"CD-MS-01: the move would cross {other.name}"
    p = profile_of(unit)
    for b in barriers(state, p):
        if _boxes_meet(sweep.box, b.box) and sweep.polygon.intersection(b.polygon).area > AREA_EPS:
            return barrier_refusal(unit, p, b.piece, "cross it")
    return None


def why_not_act(state: CdState, seat: int, uid: int) -> Unit | str:
    """The unit if the seat may give it an action now, else why not."""
    if not 0 <= uid < len(state.units):
        return f"there is no unit {uid}"
    unit = state.units[uid]
    if unit.seat != seat:
        return f"not your unit ({unit.name})"
    if not unit.on_table:
        return f"the unit is no longer on the table ({unit.name})"
    if unit.actions_left <= 0:
        return f"CD-AC-01: no action left this turn ({unit.name})"
    return unit


def _taxes(state: CdState, unit: Unit, path: Sequence[XY], facing: float | None) -> MoveTax:
    """The terrain taxes of a move along ``path`` (terrain.py): fixed inches, d6 pieces, blocked, pond,
    bushes crossed and cleared."""
    cls = terrain_class(profile_of(unit))
    return move_taxes(
        unit.tray, path, state.terrain(), cls, models=unit.models, files=unit.files, facing=facing
    )


# ------------------------------------------------------------------ moves


@dataclass(frozen=True, slots=True)
class MovePlan:
    """An ordered move checked: its centres, its length, the allowance and the taxes met."""

    centres: tuple[XY, ...]
    facing: float
    length: float
    allowance: float
    tax: MoveTax
    march: bool


def _sweep(start: Tray, centres: Sequence[XY]) -> Polygon:
    """The area the tray sweeps along the legs, keeping its facing (pivots at the end are free)."""
    tray = start
    parts: list[Polygon] = [start.polygon()]
    for to in centres:
        parts.append(leg_sweep(tray, to))
        tray = tray.moved(to)
    shape = unary_union(parts)
    return shape if isinstance(shape, Polygon) else _hull([*start.corners()])


def leg_sweeps(start: Tray, centres: Sequence[XY]) -> Sweep:
    """The legs' sweep (``_sweep``, built only when needed) with a convex part per leg for the cheap tests."""
    parts: list[list[XY]] = [list(start.corners())]
    tray = start
    for to in centres:
        end = tray.moved(to)
        parts.append(convex_hull_xy([*tray.corners(), *end.corners()]))
        tray = end
    return Sweep(parts, lambda: _sweep(start, centres))


def _hull(points: Sequence[XY]) -> Polygon:
    """The convex hull of some points as a polygon."""
    hull = MultiPoint(list(points)).convex_hull
    return hull if isinstance(hull, Polygon) else Polygon(points)


def why_not_move_now(state: CdState, unit: Unit) -> str | None:
    """Why the unit may not take a move action now (engaged, or a forbidden march), else None."""
    if engaged(state, unit):
        return f"CD-FI: an engaged unit may only fight, cast or reform in place ({unit.name}; designed)"
    if unit.moved >= 1:
        if unit.order == "tight":
            return f"CD-AC-08: no second move (no marching) in tight order this turn ({unit.name})"
        if unit.marching_blocked:
            return f"CD-TE: {unit.name} crossed a pond this turn: no marching"
    return None


def plan_move(state: CdState, unit: Unit, path: Sequence[XY], facing: float) -> MovePlan | str:
    """The ordered move checked (its fixed taxes within the allowance), or why it may not be made."""
    why = why_not_move_now(state, unit)
    if why is not None:
        return why
    return _plan_move(state, unit, path, facing, allowance(state, unit))


def _plan_move(state: CdState, unit: Unit, path: Sequence[XY], facing: float, reach: float) -> MovePlan | str:
    """``plan_move`` once the unit may move now and its allowance is known (the offers check many moves)."""
    facing = normal_facing(facing)
    centres = tuple((float(x), float(y)) for x, y in path)
    length = 0.0
    here = unit.tray.centre
    for to in centres:
        length += math.dist(here, to)
        here = to
    moving = length > MOVE_EPS
    if moving:
        why = why_not_leg(state, unit, leg_sweeps(unit.tray, centres))
        if why is not None:
            return why
    end = unit.tray.moved(centres[-1], facing) if centres else unit.tray.pivoted(facing)
    why = why_not_stand(state, unit, end) or _leash(state, unit, end)
    if why is not None:
        return why
    tax = _taxes(state, unit, centres, facing) if moving else _no_tax()
    if tax.blocked is not None:
        return f"CD-TE: {tax.blocked}"
    if length > reach - tax.fixed + GAP_EPS:
        taxed = f' less {tax.fixed:g}" of terrain' if tax.fixed else ""
        return f'CD-MS-01: the path is {length:.2f}" long; {unit.name} moves {reach:g}"{taxed}'
    return MovePlan(centres, facing, length, reach, tax, unit.moved >= 1)


def _leash(state: CdState, unit: Unit, tray: Tray) -> str | None:
    """An immaterial spirit may not move beyond its leash to its owner (magic's, CD-MA-10/11)."""
    if unit.owner is None:
        return None
    return leash_refusal(state, unit.id, tray)


def _no_tax() -> MoveTax:
    return MoveTax()


def _spend(unit: Unit, *, move: bool) -> Unit:
    """The unit with one action used (and one move counted)."""
    return replace(unit, actions_left=unit.actions_left - 1, moved=unit.moved + (1 if move else 0))


def apply_move(state: CdState, unit: Unit, path: Sequence[XY], facing: float) -> Step:
    """Order a move: refused with the clause, or the action spent and the move made (after its terrain dice,
    when it has any: a ``MoveRoll`` is pushed and ``finish_roll`` completes it)."""
    plan = plan_move(state, unit, path, facing)
    if isinstance(plan, str):
        raise IllegalAction(plan)
    unit = _spend(unit, move=True)
    state = state.with_unit(unit)
    roll = MoveRoll(
        unit=unit.id,
        path=plan.centres,
        facing=plan.facing,
        allowance=max(0.0, plan.allowance - plan.tax.fixed),
        fixed=plan.tax.fixed,
        dice=tuple(plan.tax.d6_features),
        march=plan.march,
        blocks_march=plan.tax.marching_blocked,
        bushes=tuple(plan.tax.bushes_removed),
    )
    if roll.dice:
        return state.push(roll), []
    return _finish_move(state, roll)


def roll_terrain(state: CdState, face: int) -> Step:
    """A terrain die of the ``MoveRoll`` on top; the last one completes the move or charge."""
    top = state.top
    if not isinstance(top, MoveRoll):
        raise IllegalAction("no terrain die is awaited")
    if not 1 <= face <= DIE_MAX:
        raise IllegalAction(f"a d6 shows 1 to {DIE_MAX}, not {face}")
    fid = top.dice[len(top.rolled)]
    mr = replace(top, rolled=(*top.rolled, face))
    events: list[Event] = [TerrainRolled(top.unit, fid, state.piece(fid).kind, face)]
    if len(mr.rolled) < len(mr.dice):
        return state.with_top(mr), events
    state = state.pop()
    state, more = _finish_charge(state, mr) if mr.target is not None else _finish_move(state, mr)
    return state, events + more


def _cut(start: XY, centres: Sequence[XY], budget: float) -> tuple[list[XY], bool]:
    """The path cut where ``budget`` inches run out (and whether it was cut)."""
    out: list[XY] = []
    here = start
    left = budget
    for to in centres:
        d = math.dist(here, to)
        if d <= left + GAP_EPS:
            out.append(to)
            left -= d
            here = to
            continue
        share = max(0.0, left) / d if d > 0 else 0.0
        out.append((here[0] + (to[0] - here[0]) * share, here[1] + (to[1] - here[1]) * share))
        return out, True
    return out, False


def _finish_move(state: CdState, mr: MoveRoll) -> Step:
    """Make the move as far as the allowance left after the dice goes (CD-TE: no refusal after the roll)."""
    unit = state.unit(mr.unit)
    budget = max(0.0, mr.allowance - sum(mr.rolled))
    centres, stopped = _cut(unit.tray.centre, mr.path, budget)
    tray = unit.tray
    if not stopped:
        end = unit.tray.moved(centres[-1], mr.facing) if centres else unit.tray.pivoted(mr.facing)
        tray = end
    else:
        tray = _back_off(state, unit, centres, mr.facing)
    used = _length(unit.tray.centre, _path_to(unit.tray.centre, centres, tray.centre))
    unit = replace(unit, tray=tray, marching_blocked=unit.marching_blocked or mr.blocks_march)
    state = state.with_unit(unit)
    events: list[Event] = [
        UnitMoved(
            unit.id,
            tuple(centres),
            tray.centre,
            tray.facing,
            mr.allowance + mr.fixed,
            used,
            mr.march,
            mr.fixed + sum(mr.rolled),
            stopped,
        )
    ]
    state, cleared = _clear_bushes(state, unit, mr.bushes, stopped)
    return state, events + cleared


def _path_to(start: XY, centres: list[XY], end: XY) -> list[XY]:
    """The centres up to the end the unit reached."""
    return [*centres[:-1], end] if centres else []


def _length(start: XY, centres: Sequence[XY]) -> float:
    total, here = 0.0, start
    for to in centres:
        total += math.dist(here, to)
        here = to
    return total


def _back_off(state: CdState, unit: Unit, centres: list[XY], facing: float) -> Tray:
    """Where a move cut short by the dice ends: its cut end (facing as ordered if that fits, else as it
    was), backing off along the last leg ``SHORT_STEP`` at a time to a place it may stand."""
    start = unit.tray.centre
    prev = centres[-2] if len(centres) > 1 else start
    end = centres[-1]
    d = math.dist(prev, end)
    steps = int(d / SHORT_STEP) + 1
    for k in range(steps + 1):
        share = max(0.0, 1 - k * SHORT_STEP / d) if d > 0 else 0.0
        at = (prev[0] + (end[0] - prev[0]) * share, prev[1] + (end[1] - prev[1]) * share)
        for f in (facing, unit.tray.facing):
            t = unit.tray.moved(at, f)
            if why_not_stand(state, unit, t) is None:
                return t
    return unit.tray if len(centres) <= 1 else _back_off(state, unit, centres[:-1], facing)


def _clear_bushes(state: CdState, unit: Unit, bushes: Sequence[int], stopped: bool) -> Step:
    """Bushes more than ``FEW_MODELS`` of the unit's models went through are cleared (CD-TE-08)."""
    if stopped or not bushes:
        return state, []
    feats = list(state.features)
    events: list[Event] = []
    for fid in bushes:
        feats[fid] = replace(feats[fid], removed=True)
        events.append(BushesCleared(fid, unit.id))
    return replace(state, features=tuple(feats)), events


# ------------------------------------------------------------------ charges


def sees(state: CdState, viewer: Unit, target: Unit) -> bool:
    """Whether the viewer sees the target (terrain.py: forests block; no models block)."""
    return bool(terrain_sees(viewer.tray, target.tray, state.terrain()))


@dataclass(frozen=True, slots=True)
class ChargePlan:
    """A charge checked: where the charger ends, how far its tray goes, the taxes met, the start gap."""

    end: Tray
    distance: float
    allowance: float
    tax: MoveTax
    gap: float
    march: bool


def plan_charge(state: CdState, unit: Unit, target_id: int) -> ChargePlan | str:
    """A charge on a visible enemy in reach, or why not (CD-MS-16)."""
    if not 0 <= target_id < len(state.units):
        return f"there is no unit {target_id}"
    target = state.unit(target_id)
    if target.seat == unit.seat or not target.on_table:
        return f"CD-MS-16: the target must be an enemy unit on the table ({target.name}: not one)"
    if unit.shaken:
        return f"CD-MO: a shaken unit may not charge ({unit.name}: shaken; designed)"
    why = why_not_move_now(state, unit)
    if why is not None:
        return why
    reach = allowance(state, unit)
    gap = _gap(unit.tray, target.tray)
    if gap > reach + GAP_EPS:  # the tray must go at least the gap: out of reach whatever the way
        return f'CD-MS-16: out of reach: {gap:.2f}" to {target.name}, a move of {reach:g}" for {unit.name}'
    if not sees(state, unit, target):
        return f"CD-MS-16: {unit.name} cannot see {target.name}"
    end = formation.charge_end(unit.tray, target.tray)
    distance = math.dist(unit.tray.centre, end.centre)
    ends = [*unit.tray.corners(), *end.corners()]
    why = why_not_leg(state, unit, Sweep([convex_hull_xy(ends)], lambda: _hull(ends)), ignore=(target.id,))
    if why is not None:
        return why
    why = why_not_stand(state, unit, end, ignore=(target.id,))
    if why is not None and "CD-MS-16" not in why:
        return why
    if (
        why is not None
    ):  # within 1" of another enemy at the end: a charge ends in contact with its target only
        return why
    tax = _taxes(state, unit, (end.centre,), end.facing)
    if tax.blocked is not None:
        return f"CD-TE: {tax.blocked}"
    if distance > reach - tax.fixed + GAP_EPS:
        taxed = f' less {tax.fixed:g}" of terrain' if tax.fixed else ""
        return (
            f'CD-MS-16: out of reach: {distance:.2f}" to {target.name}, '
            f'a move of {reach:g}"{taxed} for {unit.name}'
        )
    return ChargePlan(end, distance, reach, tax, gap, unit.moved >= 1)


CHARGE_THEN: Final = "cd_charge"
"""The tag of a charge's continuation: it completes after the target's reaction (resolve.register_then)."""


def apply_charge(state: CdState, unit: Unit, target_id: int) -> Step:
    """Order a charge: the action spent; the target may react first (CD-RE-01/02, combat's); then the
    charge's continuation rolls the terrain dice (if any) and makes contact."""
    plan = plan_charge(state, unit, target_id)
    if isinstance(plan, str):
        raise IllegalAction(plan)
    unit = _spend(unit, move=True)
    state = state.with_unit(unit)
    state = resolve.push_then(state, CHARGE_THEN, (unit.id, target_id, float(plan.gap), int(plan.march)))
    state, events = resolve.begin_reaction(state, target_id, unit.id)
    state = resolve.settle(state, events)
    return state, events


def _charge_then(state: CdState, then: Then, events: list[Event]) -> CdState:
    """After the reaction: a charger still on the table and steady goes on (terrain dice, then contact).

    A charger the stand-and-shoot destroyed or shook (or a target gone) abandons the charge where it stands:
    no ``UnitCharged`` (it went nowhere) but a ``ChargeAbandoned`` saying why, so the log does not leave the
    charge hanging (designed)."""
    uid, tid, gap, march = int(then.data[0]), int(then.data[1]), float(then.data[2]), bool(then.data[3])
    unit, target = state.unit(uid), state.unit(tid)
    reason = (
        "destroyed"
        if not unit.on_table
        else "shaken"
        if unit.shaken
        else "target_gone"
        if not target.on_table
        else ""
    )
    if reason:
        events.append(ChargeAbandoned(uid, tid, reason))
        return state
    end = formation.charge_end(unit.tray, target.tray)
    tax = _taxes(state, unit, (end.centre,), end.facing)
    roll = MoveRoll(
        unit=uid,
        path=(end.centre,),
        facing=end.facing,
        allowance=max(0.0, allowance(state, unit) - tax.fixed),
        fixed=tax.fixed,
        dice=tuple(tax.d6_features),
        target=tid,
        march=march,
        blocks_march=tax.marching_blocked,
        bushes=tuple(tax.bushes_removed),
        start_gap=gap,
    )
    if roll.dice:
        return state.push(roll)
    state, more = _finish_charge(state, roll)
    events.extend(more)
    return state


def _finish_charge(state: CdState, mr: MoveRoll) -> Step:
    """Contact if the allowance left reaches; else the charger goes straight as far as it can, stopping
    ``ENEMY_GAP`` short of the enemy."""
    assert mr.target is not None
    unit = state.unit(mr.unit)
    target = state.unit(mr.target)
    budget = max(0.0, mr.allowance - sum(mr.rolled))
    end = formation.charge_end(unit.tray, target.tray)
    distance = math.dist(unit.tray.centre, end.centre)
    contact = distance <= budget + GAP_EPS
    if contact:
        tray = end
    else:
        d = (end.centre[0] - unit.tray.centre[0], end.centre[1] - unit.tray.centre[1])
        slide = stop_short(
            unit.tray,
            d,
            budget,
            stops_at=[e.tray for e in others(state, unit.id) if e.seat != unit.seat],
            edges=(state.width, state.height),
            gap=ENEMY_GAP,
        )
        tray = slide.end
        if why_not_stand(state, unit, tray) is not None:
            tray = unit.tray
    unit = replace(unit, tray=tray, marching_blocked=unit.marching_blocked or mr.blocks_march)
    state = state.with_unit(unit)
    events: list[Event] = [
        UnitCharged(
            unit.id,
            target.id,
            _side(unit.tray, target.tray) if contact else "",
            round(distance, 3),
            tray.centre,
            tray.facing,
            contact,
        )
    ]
    state, cleared = _clear_bushes(state, unit, mr.bushes, not contact)
    return state, events + cleared


def _side(charger: Tray, target: Tray) -> str:
    return str(engaged_edge(charger, target))


# ------------------------------------------------------------------ reform and rally


def plan_reform(state: CdState, unit: Unit, order: str, files: int, facing: float | None) -> Tray | str:
    """The unit's new tray after a reform (about its front centre), or why not (CD-AC-05..08)."""
    p = profile_of(unit)
    allowed = orders_of(p)
    if order not in allowed:
        return f"CD-AC-07: {unit.name} may take only the order(s) {', '.join(allowed)}"
    if not 1 <= files <= unit.models:
        return f"CD-AC: 1 to {unit.models} files ({unit.name}: {unit.models} models)"
    if (
        order == unit.order
        and files == formation.files_of(unit.models, unit.files)
        and (facing is None or abs(normal_facing(facing) - unit.tray.facing) < 1e-6)
    ):
        return "CD-AC: the unit already stands so"
    cell = formation.cell_size(p.kind, order)
    tray, _ = formation.reform(unit.tray, unit.models, files, cell, facing=facing)
    foes = engaged(state, unit)
    why = why_not_stand(state, unit, tray, ignore=foes)
    if why is not None:
        return why
    if any(trays_overlap(tray, state.unit(e).tray) for e in foes):
        return "CD-MS-01: the new block would stand on the enemy it fights"
    return tray


def apply_reform(state: CdState, unit: Unit, order: str, files: int, facing: float | None) -> Step:
    """Reform: one action; the models laid out anew (coherency holds by construction)."""
    tray = plan_reform(state, unit, order, files, facing)
    if isinstance(tray, str):
        raise IllegalAction(tray)
    unit = replace(
        _spend(unit, move=False), tray=tray, order=order, files=formation.files_of(unit.models, files)
    )
    return state.with_unit(unit), [UnitReformed(unit.id, order, unit.files, tray.facing)]


def why_not_rally(state: CdState, unit: Unit) -> str | None:
    """Why the unit may not rally: it is steady, engaged, or has acted this turn (designed)."""
    if not unit.shaken:
        return f"CD-MO: only a shaken unit may rally ({unit.name}: steady)"
    if engaged(state, unit):
        return f"CD-MO: no rallying while engaged ({unit.name}: engaged; designed)"
    if unit.moved or unit.attacked or unit.actions_left < _full_actions(unit):
        return f"CD-MO: a rally takes all of {unit.name}'s actions this turn (designed)"
    return None


def _full_actions(unit: Unit) -> int:
    return actions_for(unit)


# ------------------------------------------------------------------ offered moves


def _nearest(state: CdState, unit: Unit) -> Unit | None:
    foes = state.enemies(unit.seat)
    return min(foes, key=lambda e: math.dist(e.tray.centre, unit.tray.centre)) if foes else None


def offered_facing(state: CdState, unit: Unit, at: XY) -> float:
    """The facing an offered move ends with: towards the nearest enemy, else as the unit faces."""
    foe = _nearest(state, unit)
    if foe is None:
        return round(unit.tray.facing, 1)
    return round(facing_towards(at, foe.tray.centre), 1)


Offer = tuple[tuple[XY, ...], float]
"""An offered move: its path (one centre) and its final facing."""

OFFERS_MEMO: Final = 512
"""How many units' offered moves are remembered: a unit's offers stay while nothing near it changes."""
PARTS_MEMO: Final = 8192
"""How many offered moves' checks and slides are remembered (an enemy's move changes a unit's goals, not
the checks of its moves towards the objectives or straight ahead)."""


class Memo:
    """A least-recently-used memory of answers by key (the keys hold everything the answer depends on)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.answers: OrderedDict[Hashable, object] = OrderedDict()

    def get(self, key: Hashable) -> object | None:
        """The answer remembered for the key, or None."""
        hit = self.answers.get(key)
        if hit is not None:
            self.answers.move_to_end(key)
        return hit

    def put(self, key: Hashable, answer: object) -> None:
        """Remember an answer (the oldest one goes when full)."""
        self.answers[key] = answer
        if len(self.answers) > self.size:
            self.answers.popitem(last=False)


_offers_memo = Memo(OFFERS_MEMO)
_parts_memo = Memo(PARTS_MEMO)


def move_offers(state: CdState, unit: Unit) -> list[Offer]:
    """A modest spread of legal one-leg moves: towards the nearest enemies (stopping ``ENEMY_GAP`` short)
    and each objective, at full and half allowance, and forward, sideways and back."""
    if why_not_move_now(state, unit) is not None:
        return []
    reach = allowance(state, unit)
    if reach < MIN_OFFER:
        return []
    key = _offers_key(state, unit, reach)
    if key is None:
        return _move_offers(state, unit, reach, None)
    hit = _offers_memo.get(key)
    if not isinstance(hit, tuple):
        hit = tuple(_move_offers(state, unit, reach, key[:-1]))
        _offers_memo.put(key, hit)
    return list(hit)


def _offers_key(state: CdState, unit: Unit, reach: float) -> tuple[object, ...] | None:
    """What a unit's offered moves depend on (once it may move now): the unit's profile, tray and models and
    its allowance, the table, the terrain and
    the objectives, every other tray near enough to stop or bar a move (its centre within the reach, both
    trays' half-diagonals, the enemy gap and an inch), and the nearest enemies' centres (the goals and the
    facing). None for a spirit on a leash: its owner's magic decides too."""
    if unit.owner is not None:
        return None
    here, r = unit.tray.centre, _radius(unit.tray)
    bound = reach + r + ENEMY_GAP + 1.0
    near = tuple(
        (o.id, o.seat, o.tray)
        for o in others(state, unit.id)
        if math.dist(o.tray.centre, here) <= bound + _radius(o.tray)
    )
    foes = sorted(state.enemies(unit.seat), key=lambda e: math.dist(e.tray.centre, here))
    goals = tuple(e.tray.centre for e in foes[:OFFER_ENEMIES])
    # The unit's own facts a move's check reads (not what it did this turn: a new turn keeps the answers).
    me = (unit.id, unit.seat, unit.army, unit.key, unit.tray, unit.models, unit.files)
    return (me, reach, state.width, state.height, state.features, state.objectives, near, goals)


def _move_offers(state: CdState, unit: Unit, reach: float, base: tuple[object, ...] | None) -> list[Offer]:
    """``move_offers`` worked out; ``base`` (the offers' key less the goals: what a move's check depends on)
    keys the memory of each move's check and each slide, None for no memory."""
    tray = unit.tray
    cx, cy = tray.centre
    near = reach + 2 * _radius(tray) + ENEMY_GAP
    friends = [o.tray for o in others(state, unit.id) if o.seat == unit.seat]
    foes = sorted(state.enemies(unit.seat), key=lambda e: math.dist(e.tray.centre, tray.centre))
    blockers: list[tuple[Polygon | Tray, Sequence[XY], Hashable]] = [
        (t, t.corners(), t) for t in friends if math.dist(t.centre, tray.centre) <= near
    ]
    blockers += [
        (b.polygon, piece_hull(b.piece.outline), b.piece.outline) for b in barriers(state, profile_of(unit))
    ]
    foe_trays: list[tuple[Polygon | Tray, Sequence[XY], Hashable]] = [
        (e.tray, e.tray.corners(), e.tray) for e in foes if math.dist(e.tray.centre, tray.centre) <= near
    ]
    goals: list[tuple[XY, float | None]] = []
    for e in foes[:OFFER_ENEMIES]:
        goals.append((e.tray.centre, None))
    for o in state.objectives:
        goals.append((o.at, math.dist(o.at, tray.centre)))
    directions: list[tuple[XY, float, tuple[float, ...]]] = []
    for at, limit in goals:
        span = math.dist(at, tray.centre)
        if span > MOVE_EPS:
            way = ((at[0] - cx) / span, (at[1] - cy) / span)
            directions.append((way, reach if limit is None else min(limit, reach), OFFER_SHARES))
    for rel in OFFER_DIRECTIONS:
        directions.append((facing_vector(tray.facing + rel), reach, (1.0,)))
    out: list[Offer] = []
    seen: set[XY] = set()
    for d, most, shares in directions:
        # Only the shapes near the lane the tray slides along can stop it: the rest are left out of the
        # exact (and dear) slide, which then gives the same answer.
        end = tray.moved((cx + d[0] * most, cy + d[1] * most))
        lane = convex_hull_xy([*tray.corners(), *end.corners()])
        in_lane = [(b, k) for b, pts, k in blockers if not _farther(lane, pts, LANE_SLACK)]
        dist = _slide(tray, d, most, in_lane, (state.width, state.height), GAP_EPS * 10)
        foes_in_lane = [(b, k) for b, pts, k in foe_trays if not _farther(lane, pts, ENEMY_GAP + LANE_SLACK)]
        if foes_in_lane:
            dist = min(dist, _slide(tray, d, most, foes_in_lane, None, ENEMY_GAP))
        for share in shares:
            length = dist * share - ROUNDING_MARGIN
            if length < MIN_OFFER:
                continue
            to = (math.floor((cx + d[0] * length) * 100) / 100, math.floor((cy + d[1] * length) * 100) / 100)
            if to in seen:
                continue
            seen.add(to)
            for facing in (offered_facing(state, unit, to), round(tray.facing, 1)):
                if _offer_ok(state, unit, to, facing, reach, base):
                    out.append(((to,), facing))
                    break
    return out


def _slide(
    tray: Tray,
    d: XY,
    most: float,
    shapes: list[tuple[Polygon | Tray, Hashable]],
    edges: tuple[float, float] | None,
    gap: float,
) -> float:
    """How far ``stop_short`` lets the tray slide (remembered by the shapes' keys: trays and outlines)."""
    key = ("slide", tray, d, most, gap, edges, tuple(k for _, k in shapes))
    hit = _parts_memo.get(key)
    if isinstance(hit, float):
        return hit
    moved = float(stop_short(tray, d, most, stops_at=[b for b, _ in shapes], edges=edges, gap=gap).moved)
    _parts_memo.put(key, moved)
    return moved


def _offer_ok(
    state: CdState, unit: Unit, to: XY, facing: float, reach: float, base: tuple[object, ...] | None
) -> bool:
    """Whether a one-leg move to ``to`` ending so faced is legal (remembered under ``base`` when given)."""
    if base is None:
        return isinstance(_plan_move(state, unit, (to,), facing, reach), MovePlan)
    key = ("move", base, to, facing)
    hit = _parts_memo.get(key)
    if isinstance(hit, bool):
        return hit
    ok = isinstance(_plan_move(state, unit, (to,), facing, reach), MovePlan)
    _parts_memo.put(key, ok)
    return ok


def _farther(a: Sequence[XY], b: Sequence[XY], slack: float) -> bool:
    """Whether two convex polygons are surely more than ``slack`` inches apart: their shadows on some edge
    normal of either are (the true distance is never less than a shadow's gap)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
            length = math.hypot(x1 - x0, y1 - y0)
            if length < MOVE_EPS:
                continue
            nx, ny = (y1 - y0) / length, (x0 - x1) / length
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if min(pb) - max(pa) > slack or min(pa) - max(pb) > slack:
                return True
    return False


def register() -> None:
    """Register the charge's continuation with the resolution stack (called when the game is built)."""
    resolve.register_then(CHARGE_THEN, _charge_then)
