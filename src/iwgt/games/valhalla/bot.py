"""The built-in Valhalla bot: weighs every activation it may take by expected coins and a position score.

Valhalla hides nothing (VH-MS-05 decided: cards face up, every figure, hurt and coin in plain view), so the
bot reads the public state directly for its geometry and never anything else (the undealt deck's order is
not even in the state). It asks ``legal_actions`` once per decision; any other point it moves to is checked
with the engine's own ``move_problem``, so ``apply`` accepts every action it returns.

How it plays, in short:

* Every choice is scored in "coin value": the coins each side would win (a coin that wins the game is worth
  a bonus on top), plus what a figure is worth in the fight to come (a dead hero is a lost fighter as well
  as three coins), minus the lasting cost of shock and wounds.
* A charge, a continued fight or a shot is worth its exact expected value, from the engine's own odds
  (``combat_odds``, ``shoot_odds``, the same ``fighter`` modifiers the referee uses).
* A position is worth the threats it makes and faces: each enemy that can reach it (a move and a 2"
  charge, or a shot) and would gain by attacking counts against it, for what it offers that enemy beyond
  our other figures (an enemy strikes only one) and weighted by whether that enemy still acts this turn; a
  target it can strike next activation counts for it; heroes and warriors are drawn towards the target
  they beat best, archers and slingers into range; objectives pull the figure that should fetch, carry,
  reach or plunder along a walking-distance field that goes round fences and hedges, and a carrier is
  worth charging, shooting or pinning in combat for the objective it would stop.
* When a card comes up it plans each figure's activation one or two actions deep (move then charge, move
  then shoot, shoot then step back, pick up then carry, withdraw then shoot...), and activates the figure
  whose best plan gains most over standing still; with no gain anywhere it lets the card pass.
* The second action is planned afresh once the first is done, and the activation ends when nothing left
  would improve the position (a second move into danger is not made).

Every choice is a fixed computation with fixed tie-breaks (the first best in a fixed order wins), so the
same position always gets the same answer.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from iwgt.core.protocol import Seat
from iwgt.games.valhalla.actions import (
    Action,
    Charge,
    Cross,
    Drop,
    EndActivation,
    Fight,
    Move,
    MoveBaggage,
    PickUp,
    Recover,
    Shoot,
    Withdraw,
)
from iwgt.games.valhalla.config import Kind, rules
from iwgt.games.valhalla.dice import Fighter, shot_hits_on
from iwgt.games.valhalla.flow import fight_sides, fighter
from iwgt.games.valhalla.movement import (
    MIN_MOVE,
    charge_problem,
    contact_point,
    cross_problem,
    figure_radius,
    move_problem,
    near_thing,
)
from iwgt.games.valhalla.odds import Fate, combat_odds, shoot_odds
from iwgt.games.valhalla.scenario import ObjectiveSpec
from iwgt.games.valhalla.shooting import shot_problem
from iwgt.games.valhalla.state import Engagement, Figure, Thing, ValhallaState
from iwgt.geometry.plane import EPS, XY, Ground, distance, edge_distance, rounded, toward

# ---------------------------------------------------------------- what things are worth (coin units)

COIN = 1.0
"""Value of one coin."""
WIN_BONUS = 4.0
"""Extra value of coins that bring a side to its target: those coins end the game (VH-WL-08)."""
MATERIAL = {"hero": 2.0, "warrior": 1.5, "archer": 1.0, "slinger": 1.0}
"""What a figure is worth as a fighter, beyond the coins its death gives the enemy."""
HURT_SHARE = 0.2
"""Share of a figure's worth lost while it is shocked or wounded at all: one action only (VH-AC-03)."""
SHOCK_SHARE = 0.1
"""Share of a figure's worth lost per shock marker (-1 in combat each, VH-CO-08)."""
WOUND_SHARE = 0.3
"""Share of a figure's worth lost to a wound (-2 in combat, a second one kills: VH-CO-09, VH-ST-12)."""
CARRIER_STAKE = 0.3
"""Share of an objective's value at stake when the figure carrying its thing falls (the thing drops)."""
INTERCEPT = 0.8
"""Factor on a carrier's chance for each enemy that could charge it at its next activation."""
SLOWED_STAKE = 0.4
"""Share of that stake lost when an unhurt carrier is hurt (one action, VH-AC-03) or pinned in combat."""

# ---------------------------------------------------------------- how far ahead threats count

FIRST_STRIKE = 0.8
"""Weight of a threat from an enemy that still acts this turn: it moves before our figure acts again."""
NEXT_TURN = 0.45
"""Weight of a threat or chance that must wait for next turn's cards (either side may go first)."""
OPPORTUNITY = 0.35
"""Weight of a target our figure could strike at its next activation (the target may move first)."""
ADVANCE = 0.04
"""Value per inch of closing on the best target (heroes, warriors) or into range (archers, slingers)."""
SHOOT_DISTANCE = 10.0
"""Archers and slingers are drawn to within this many inches of the nearest enemy."""
GATHER = 0.02
"""Value per inch of closing on the nearest friend, when there is nothing better to do."""
STEP_BACK = 0.02
"""Value per inch an archer, slinger or carrier keeps from the nearest enemy (up to 12")."""
LAST_TURN_WORTH = 0.25
"""Share of a figure's worth (and of its hurts' cost) that still counts in the last turn."""
MIN_GAIN = 1e-3
"""A plan must gain at least this much over standing still, or the card is passed."""

# ---------------------------------------------------------------- objectives

FETCH_ROLE: dict[str, float] = {"warrior": 0.0, "archer": 3.0, "slinger": 3.0, "hero": 4.0}
"""Inches added to a figure's distance when choosing who fetches a thing: warriors first (an archer must
drop it to shoot, a hero is wanted in the fight)."""
HORIZON = 30.0
"""Walking distance (inches) beyond which an objective is as good as out of reach."""
CROSS_PENALTY = 5.0
"""Inches of walking a crossing costs in the distance fields: crossing is an action of its own."""
MERGE = 0.4
"""Move ends closer than about this (inches) are taken as one: their values hardly differ."""
GRID = 1.0
"""Spacing (inches) of the walking-distance fields."""


# ---------------------------------------------------------------- exact odds, cached


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One possible end state of a figure's hurts, with its chance."""

    p: float
    shock: int
    wounds: int
    killed: bool


def _outcomes(fate: Fate) -> tuple[_Outcome, ...]:
    """A fate's exact distribution as floats, in a fixed order."""
    items = sorted(fate.harm.items(), key=lambda hp: (hp[0].killed, hp[0].wounds, hp[0].shock))
    return tuple(_Outcome(float(p), h.shock, h.wounds, h.killed) for h, p in items)


@lru_cache(maxsize=4096)
def _combat(attacker: Fighter, defender: Fighter) -> tuple[tuple[_Outcome, ...], tuple[_Outcome, ...]]:
    """What becomes of the attacker and of the defender after one round of combat (exact odds)."""
    odds = combat_odds(attacker, defender)
    return _outcomes(odds.attacker_fate), _outcomes(odds.defender_fate)


@lru_cache(maxsize=1024)
def _shots(
    close: bool, cover: bool, kind: Kind, shock: int, wounded: bool, shots: int
) -> tuple[_Outcome, ...]:
    """What becomes of a target after so many shots at close or long range, in cover or not."""
    s = rules().shooting
    return _outcomes(shoot_odds(0.0 if close else s.range, cover, kind, shock, wounded, shots).fate)


def _is_close(gap: float) -> bool:
    """Whether a shot at this edge distance is at close range (read off the rule function itself)."""
    return shot_hits_on(gap, False) == shot_hits_on(0.0, False)


def _penalty(kind: str, shock: int, wounds: int) -> float:
    """The lasting cost of a figure's hurts."""
    hurt = 1.0 if shock > 0 or wounds > 0 else 0.0
    return MATERIAL[kind] * (HURT_SHARE * hurt + SHOCK_SHARE * shock + WOUND_SHARE * wounds)


def _shooter(f: Figure) -> bool:
    return rules().figures[f.kind].shoots


# ---------------------------------------------------------------- walking-distance fields


@dataclass(frozen=True)
class _Grid:
    """The table as a grid of nodes with the cost of walking from each to its neighbours."""

    nx: int
    ny: int
    back: tuple[tuple[tuple[int, float], ...], ...]
    """For each node v: (u, cost of walking from u to v), for Dijkstra run from the goal outwards."""
    slow: tuple[bool, ...]
    """Whether each node is in woods or a village."""
    height: tuple[float, ...]
    """The ground's height at each node."""

    def cost(self, a: XY, b: XY) -> float:
        """A quick estimate of a straight walk's movement cost (half speed in woods, villages, uphill)."""
        length = distance(a, b)
        steps = max(1, math.ceil(length / (GRID / 2)))
        total, last = 0.0, self.node(a)
        for k in range(1, steps + 1):
            n = self.node((a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps))
            slowed = self.slow[n] or self.height[n] > self.height[last] + EPS
            total += length / steps * (2.0 if slowed else 1.0)
            last = n
        return total

    def node(self, p: XY) -> int:
        """The node nearest to a point."""
        i = min(self.nx - 1, max(0, int(p[0] / GRID)))
        j = min(self.ny - 1, max(0, int(p[1] / GRID)))
        return j * self.nx + i

    def centre(self, n: int) -> XY:
        """A node's position."""
        return ((n % self.nx + 0.5) * GRID, (n // self.nx + 0.5) * GRID)


@cache
def _grid(ground: Ground) -> _Grid:
    """The walking grid of a table: half speed in woods, villages and uphill; a crossing costs extra."""
    nx, ny = max(1, int(ground.width / GRID)), max(1, int(ground.height / GRID))
    xs = (np.arange(nx * ny) % nx + 0.5) * GRID
    ys = (np.arange(nx * ny) // nx + 0.5) * GRID
    slow = [ground.is_slow((float(x), float(y))) for x, y in zip(xs, ys, strict=True)]
    height = ground.elevations(xs, ys)
    pairs: list[tuple[int, int, float]] = []
    for j in range(ny):
        for i in range(nx):
            u = j * nx + i
            for di, dj in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                a, b = i + di, j + dj
                if 0 <= a < nx and 0 <= b < ny:
                    pairs.append((u, b * nx + a, math.hypot(di, dj) * GRID))
    crossing: list[bool] = [False] * len(pairs)
    if ground.obstacles and pairs:
        walls = shapely.union_all([o.geometry for o in ground.obstacles])
        coords = np.array([[[xs[u], ys[u]], [xs[v], ys[v]]] for u, v, _ in pairs])
        hits = np.asarray(shapely.intersects(shapely.linestrings(coords), walls), dtype=bool)
        crossing = [bool(x) for x in hits]
    back: list[list[tuple[int, float]]] = [[] for _ in range(nx * ny)]
    for (u, v, length), cross in zip(pairs, crossing, strict=True):
        extra = CROSS_PENALTY if cross else 0.0
        for a, b in ((u, v), (v, u)):
            slowed = slow[a] or slow[b] or height[b] > height[a] + EPS
            back[b].append((a, length * (2.0 if slowed else 1.0) + extra))
    return _Grid(nx, ny, tuple(tuple(x) for x in back), tuple(slow), tuple(float(h) for h in height))


@lru_cache(maxsize=64)
def _field(ground: Ground, goal: tuple[XY, ...]) -> tuple[float, ...]:
    """Walking cost from every node to a goal: a point (one vertex) or an area (a polygon's outline)."""
    grid = _grid(ground)
    dist = [math.inf] * (grid.nx * grid.ny)
    heap: list[tuple[float, int]] = []
    if len(goal) >= 3:
        poly = Polygon(goal)
        for n in range(len(dist)):
            if poly.covers(Point(grid.centre(n))):
                dist[n] = 0.0
                heap.append((0.0, n))
        if not heap:
            inner = poly.representative_point()
            n = grid.node((inner.x, inner.y))
            dist[n], heap = 0.0, [(0.0, n)]
    else:
        n = grid.node(goal[0])
        dist[n] = distance(grid.centre(n), goal[0])
        heap.append((dist[n], n))
    heapq.heapify(heap)
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, c in grid.back[v]:
            if d + c < dist[u]:
                dist[u] = d + c
                heapq.heappush(heap, (d + c, u))
    return tuple(dist)


@cache
def _polygon(outline: tuple[XY, ...]) -> Polygon:
    return Polygon(outline)


def _walk(ground: Ground, goal: tuple[XY, ...], p: XY) -> float:
    """Walking cost from a point to a goal (0 inside an area goal)."""
    if len(goal) >= 3 and _polygon(goal).covers(Point(p)):
        return 0.0
    grid = _grid(ground)
    n = grid.node(p)
    return _field(ground, goal)[n] + distance(p, grid.centre(n))


def _closer(p: float, d: float) -> float:
    """A chance-like share that grows as a walking distance shrinks, 0 beyond the horizon."""
    return p * (1.0 - min(d, HORIZON) / HORIZON)


# ---------------------------------------------------------------- one decision's evaluation


class _Judge:
    """Scores actions and positions for one side in one decision (its caches hold for that decision only:
    the coins, and so every value, may differ at the next)."""

    def __init__(self, state: ValhallaState, side: int) -> None:
        self.state = state
        self.side = side
        spec = state.scenario.spec
        self.ground = state.scenario.ground
        self.radius = figure_radius()
        a = rules().actions
        self.move = a.move
        self.charge = a.charge
        self.zone = a.enemy_zone
        self.targets = tuple(
            rules().table.coins_per_player * len(state.scenario.side_seats(s)) for s in (0, 1)
        )
        last = self.last = state.turn >= spec.turn_limit
        # In the last turn a figure's worth in fights to come counts for little: only coins decide.
        self.future = LAST_TURN_WORTH if last else 1.0
        self.next_turn = 0.0 if last else NEXT_TURN
        self.opportunity = 0.0 if last else OPPORTUNITY
        self.shaping = 0.0 if last else 1.0  # closing in pays off only in a later turn
        self.objectives = [(i, o) for i, o in enumerate(spec.objectives) if i not in state.achieved]
        self.range = rules().shooting.range
        self._ev: dict[tuple[Any, ...], float] = {}
        self._bands: dict[tuple[Any, ...], tuple[bool, bool] | None] = {}
        self._walks: dict[tuple[tuple[XY, ...], XY], float] = {}
        self._others: dict[tuple[int, int, XY], float] = {}

    # -------------------------------------------------------- coins and losses

    def coins(self, side: int, c: int) -> float:
        """The value of ``side`` winning ``c`` coins: more if that decides the game for it.

        Reaching the side's target wins (VH-WL-08); in the last turn the richer side wins at the turn limit
        (decided), so there coins are worth what they change in the outcome: behind, level or ahead.
        """
        if c <= 0:
            return 0.0
        mine, theirs = self.state.coins[side], self.state.coins[1 - side]
        if not self.last:
            return c * COIN + (WIN_BONUS if mine + c >= self.targets[side] else 0.0)

        def outcome(have: int) -> int:
            if have >= self.targets[side]:
                return 1
            return (have > theirs) - (have < theirs)

        return c * COIN + WIN_BONUS / 2 * (outcome(mine + c) - outcome(mine))

    def penalty(self, kind: str, shock: int, wounds: int) -> float:
        """The lasting cost of a figure's hurts (little in the last turn)."""
        return self.future * _penalty(kind, shock, wounds)

    def objective_worth(self, side: int) -> float:
        """What achieving one objective is worth to a side."""
        return self.coins(side, rules().table.objective_coins)

    def stake(self, f: Figure, st: ValhallaState) -> float:
        """Objective value lost with a figure that carries an objective's thing (it drops where it falls)."""
        if f.carrying is None:
            return 0.0
        name = st.things[f.carrying].name
        for _, o in self.objectives:
            if o.kind == "carry" and o.thing == name:
                return CARRIER_STAKE * self.objective_worth(o.side)
        return 0.0

    def loss(self, f: Figure, outcomes: Sequence[_Outcome], stake: float) -> float:
        """The expected loss to a figure's side from these outcomes (its enemy's gain)."""
        kind = rules().figures[f.kind]
        enemy = 1 - f.side
        before = self.penalty(f.kind, f.shock, f.wounds)
        total = 0.0
        for o in outcomes:
            if o.killed:
                v = self.coins(enemy, kind.killed_coins) + self.future * MATERIAL[f.kind] + stake
            else:
                c = kind.wounded_coins if o.wounds > f.wounds else 0
                v = self.coins(enemy, c) + self.penalty(f.kind, o.shock, o.wounds) - before
                if not f.hurt and (o.shock or o.wounds):
                    v += SLOWED_STAKE * stake
            total += o.p * v
        return total

    def combat_ev(self, st: ValhallaState, a: Figure, fa: Fighter, d: Figure, fd: Fighter) -> float:
        """The attacker's expected gain from one round of combat between these fighters."""
        sa, sd = self.stake(a, st), self.stake(d, st)
        key = (fa, fd, a.side, a.wounds, d.wounds, sa, sd)
        ev = self._ev.get(key)
        if ev is None:
            out_a, out_d = _combat(fa, fd)
            ev = self.loss(d, out_d, sd) - self.loss(a, out_a, sa)
            self._ev[key] = ev
        return ev

    def charge_ev(self, st: ValhallaState, a: Figure, d: Figure) -> float:
        """The charger's expected gain if ``a`` charged ``d`` from where it stands (VH-CO-06, VH-CO-07)."""
        key = ("charge", a, d, st.engaged(d.id))
        ev = self._ev.get(key)
        if ev is None:
            moved = replace(a, at=contact_point(a, d))
            fa = fighter(st, moved, d, charging=True, charged=False)
            fd = fighter(st, d, moved, charging=False, charged=True)
            pinned = 0.0 if st.engaged(d.id) else SLOWED_STAKE * self.stake(d, st)  # a carrier held in combat
            ev = self.combat_ev(st, moved, fa, d, fd) + pinned
            self._ev[key] = ev
        return ev

    def walk(self, goal: tuple[XY, ...], p: XY) -> float:
        """Walking cost from a point to a goal (see ``_walk``), remembered for this decision."""
        key = (goal, p)
        d = self._walks.get(key)
        if d is None:
            d = self._walks[key] = _walk(self.ground, goal, p)
        return d

    def fight_ev(self, st: ValhallaState, f: Figure, o: Figure) -> float:
        """The expected gain from continuing a fight (neither charges, VH-CO-15)."""
        fa, fd = fight_sides(st, f.id, o.id, charging=False)
        return self.combat_ev(st, f, fa, o, fd)

    def shot_ev(self, st: ValhallaState, shooter: Figure, target: Figure, shots: int = 1) -> float | None:
        """The shooter's expected gain from shooting (once or twice), or None if the shot is not allowed."""
        if edge_distance(shooter.at, self.radius, target.at, self.radius) > self.range:
            return None  # out of range: no need to trace the line of sight
        key = ("shot", shooter, target, st.engaged(shooter.id), st.engaged(target.id))
        if key not in self._bands:
            why, shot = shot_problem(st, shooter, target)
            ok = why is None and shot is not None
            self._bands[key] = (_is_close(shot.distance), shot.cover) if ok and shot is not None else None
        band = self._bands[key]
        if band is None:
            return None
        out = _shots(band[0], band[1], target.kind, target.shock, target.wounded, shots)
        return self.loss(target, out, self.stake(target, st))

    def static_ev(self, f: Figure, t: Figure) -> float:
        """The gain of ``f`` charging ``t`` in the open, for choosing a target to close on."""
        key = ("static", f.kind, f.shock, f.wounds, t.kind, t.shock, t.wounds, f.side)
        ev = self._ev.get(key)
        if ev is None:
            fa = Fighter(f.kind, f.shock, f.wounded, charging=True)
            fd = Fighter(t.kind, t.shock, t.wounded)
            out_a, out_d = _combat(fa, fd)
            ev = self.loss(t, out_d, 0.0) - self.loss(f, out_a, 0.0)
            self._ev[key] = ev
        return ev

    # -------------------------------------------------------- reach

    def can_charge_next(self, st: ValhallaState, a: Figure, d: Figure) -> bool:
        """Whether ``a`` could charge ``d`` at its next activation: within 2", or a move and 2" away."""
        gap = edge_distance(a.at, self.radius, d.at, self.radius)
        if gap <= self.charge + EPS:
            return not self.ground.crosses_obstacle([a.at, contact_point(a, d)])
        if a.hurt or a.carrying is not None:  # one action, or one spent dropping the load (VH-AC-16)
            return False
        need = gap - self.charge + 0.05
        if need > self.move + EPS:
            return False
        to = toward(a.at, d.at, need)
        if self.ground.crosses_obstacle([a.at, to]):
            return False
        return need * 2 <= self.move or _grid(self.ground).cost(a.at, to) <= self.move + EPS

    def weight(self, e: Figure) -> float:
        """How surely an enemy acts before our figure's next activation."""
        return FIRST_STRIKE if not e.activated else self.next_turn

    # -------------------------------------------------------- the position score

    def position(self, st: ValhallaState, f: Figure) -> float:
        """The value to our side of our figure ``f`` standing as it does in ``st`` after its activation."""
        v = -self.penalty(f.kind, f.shock, f.wounds) + self.objective_value(st)
        if not f.alive:
            return v
        foes = [e for e in st.figures if e.alive and e.side != f.side]
        fighting = set(st.opponents(f.id))
        for oid in fighting:
            v += self.engaged(st, f, st.figure(oid))
        engaged = bool(fighting)
        for e in foes:
            if e.id in fighting or st.engaged(e.id):
                continue
            w = self.weight(e)
            if w <= 0:
                continue
            # An enemy strikes one figure only: ours counts for what it offers beyond the best other target.
            # Only ``f`` moves in the states weighed for its plans, so the others' threats keep by their ids.
            key = (e.id, f.id, e.at)
            others = self._others.get(key)
            if others is None:
                others = self._others[key] = max(
                    (
                        self.threat(st, e, g)
                        for g in st.figures
                        if g.alive and g.side == f.side and g.id != f.id
                    ),
                    default=0.0,
                )
            v -= w * max(0.0, self.threat(st, e, f) - max(0.0, others))
        if not engaged:
            v += self.opportunities(st, f, foes)
        if foes and (_shooter(f) or f.carrying is not None):
            nearest = min(edge_distance(f.at, self.radius, e.at, self.radius) for e in foes)
            v += STEP_BACK * min(nearest, 12.0)
        return v

    def threat(self, st: ValhallaState, e: Figure, f: Figure) -> float:
        """What enemy ``e`` would gain by charging or shooting our figure ``f`` at its next activation."""
        key = ("threat", e.at, e.shock, e.wounds, e.carrying, f.id, f.at, f.shock, f.wounds, f.carrying)
        engaged = st.engaged(f.id)
        cached = self._ev.get((*key, engaged))
        if cached is not None:
            return cached
        threat = 0.0
        if self.can_charge_next(st, e, f):
            threat = max(threat, self.charge_ev(st, e, f))
        if not engaged and _shooter(e):
            threat = max(threat, self.shot_threat(st, e, f))
        self._ev[(*key, engaged)] = threat
        return threat

    def shot_threat(self, st: ValhallaState, e: Figure, f: Figure) -> float:
        """What an enemy archer or slinger would take from ``f`` by shooting at it next."""
        shots = 1 if e.hurt or e.carrying is not None else 2
        ev = self.shot_ev(st, e, f, shots)
        if ev is not None:
            return ev
        gap = edge_distance(e.at, self.radius, f.at, self.radius)
        if shots == 2 and gap <= rules().shooting.range + self.move:  # a move into range, then one shot
            cover = self.ground.in_cover(f.at)
            return 0.7 * self.loss(f, _shots(False, cover, f.kind, f.shock, f.wounded, 1), self.stake(f, st))
        return 0.0

    def opportunities(self, st: ValhallaState, f: Figure, foes: list[Figure]) -> float:
        """What our figure can strike at its next activation, and the pull towards a target or range."""
        best = 0.0
        for t in foes:
            if self.opportunity > 0 and self.can_charge_next(st, f, t):
                best = max(best, self.charge_ev(st, f, t))
            if self.opportunity > 0 and _shooter(f) and not st.engaged(t.id):
                ev = self.shot_ev(st, f, t, 1 if f.hurt else 2)
                if ev is not None:
                    best = max(best, ev)
        v = self.opportunity * best
        if f.carrying is not None or not foes:
            return v
        gaps = [(edge_distance(f.at, self.radius, t.at, self.radius), t) for t in foes]
        if _shooter(f):
            nearest = min(g for g, _ in gaps)
            return v - self.shaping * ADVANCE * max(0.0, nearest - SHOOT_DISTANCE)
        # Closing on the target it beats best (a little less the further it is); any target it beats pulls,
        # however far, so that walking away never looks like a gain.
        targets = [(ev - 0.02 * g, g) for g, t in gaps if (ev := self.static_ev(f, t)) > 0]
        if targets:
            return v - self.shaping * ADVANCE * max(0.0, max(targets)[1] - self.zone)
        friends = [distance(f.at, g.at) for g in st.figures if g.alive and g.side == f.side and g.id != f.id]
        return v - self.shaping * GATHER * min(friends, default=0.0)

    def engaged(self, st: ValhallaState, f: Figure, o: Figure) -> float:
        """The value of staying in combat: the fight goes on if whoever it favours gets to it first."""
        ev = self.fight_ev(st, f, o)
        if ev < 0:
            return self.weight(o) * ev
        return self.next_turn * ev

    # -------------------------------------------------------- objectives

    def objective_value(self, st: ValhallaState) -> float:
        """Our objectives' likely worth minus the enemy's (VH-WL-07): near, carried or achieved."""
        total = 0.0
        for _, o in self.objectives:
            p = self.objective_chance(st, o)
            worth = self.objective_worth(o.side) * p
            total += worth if o.side == self.side else -worth
        return total

    def fetch_distance(self, st: ValhallaState, side: int, goal: tuple[XY, ...]) -> float:
        """The walking distance of the side's figure best placed to go for a goal (warriors first)."""
        best = math.inf
        for f in st.figures:
            if f.alive and f.side == side:
                d = self.walk(goal, f.at) + FETCH_ROLE[f.kind] + (4.0 if st.engaged(f.id) else 0.0)
                best = min(best, d)
        return best

    def objective_chance(self, st: ValhallaState, o: ObjectiveSpec) -> float:
        """A rough chance that a side achieves an objective, from where things and figures are."""
        zone = tuple(o.zone)
        if o.kind == "carry":
            thing = next(t for t in st.things if t.name == o.thing)
            if thing.carrier is not None:
                c = st.figure(thing.carrier)
                if c.side == o.side:
                    if _polygon(zone).covers(Point(c.at)):
                        return 1.0
                    slowed = (0.75 if c.hurt else 1.0) * (0.6 if st.engaged(c.id) else 1.0)
                    # Each enemy that can strike the carrier before it moves on may stop it.
                    for e in st.figures:
                        free = e.alive and e.side != o.side and not st.engaged(e.id)
                        if free and self.can_charge_next(st, e, c):
                            slowed *= INTERCEPT
                    return (0.4 + _closer(0.5, self.walk(zone, c.at))) * slowed
                return _closer(0.1, self.walk(zone, thing.at))
            goal = (thing.at,)
            mine = self.fetch_distance(st, o.side, goal)
            theirs = self.fetch_distance(st, 1 - o.side, goal)
            p = _closer(0.35, mine) * (1.0 - 0.4 * min(self.walk(zone, thing.at), HORIZON) / HORIZON)
            return p * (0.7 if theirs < mine else 1.0)
        if o.kind == "reach":
            if any(f.alive and f.side == o.side and _polygon(zone).covers(Point(f.at)) for f in st.figures):
                return 1.0
            return _closer(0.4, self.fetch_distance(st, o.side, zone))
        cart = next(t for t in st.things if t.name == o.baggage)
        reach = rules().actions.pickup_reach
        gaps = [
            (f.side, edge_distance(f.at, self.radius, cart.at, cart.radius)) for f in st.figures if f.alive
        ]
        guarded = any(s != o.side and g <= self.zone + EPS for s, g in gaps)
        touching = any(s == o.side and g <= reach + EPS for s, g in gaps)
        if touching and not guarded:
            return 1.0
        p = _closer(0.4, self.fetch_distance(st, o.side, (cart.at,)))
        return p * (0.6 if guarded else 1.0)


# ---------------------------------------------------------------- the bot


@dataclass(frozen=True, slots=True)
class _Option:
    """A first action and the value of the best plan that starts with it."""

    value: float
    action: Action


class ValhallaBot:
    """Plans each activation by expected coins and position (see the module's description)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def choose(self, state: ValhallaState, seat: Seat) -> Action:
        """The bot's action for the seat now (legal: ``apply`` accepts it)."""
        legal: Sequence[Action] = self.game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        if state.phase == "baggage":
            return self._baggage(state, legal)
        side = state.scenario.spec.players[seat].side
        judge = _Judge(state, side)
        if state.active is None:
            return self._first(state, judge, legal)
        return self._next(state, judge, legal)

    # -------------------------------------------------------- choosing the figure

    def _first(self, state: ValhallaState, judge: _Judge, legal: Sequence[Action]) -> Action:
        """A card is up: the figure whose best plan gains most over standing still, or pass the card."""
        fids = sorted({a.figure for a in legal if not isinstance(a, EndActivation | MoveBaggage)})
        best: _Option | None = None
        for fid in fids:
            f = replace(state.figure(fid), activated=True)
            st = state.with_figure(f)
            idle = judge.position(st, f)
            mine = [a for a in legal if not isinstance(a, EndActivation | MoveBaggage) and a.figure == fid]
            allowance = rules().actions.when_hurt if f.hurt else rules().actions.per_activation
            option = self._plan(st, judge, f, mine, allowance)
            if option is None:
                continue
            gained = _Option(option.value - idle, option.action)
            if best is None or gained.value > best.value + 1e-9:
                best = gained
        if best is None or best.value < MIN_GAIN:
            return EndActivation()
        return best.action

    def _next(self, state: ValhallaState, judge: _Judge, legal: Sequence[Action]) -> Action:
        """The figure has an action left: take the best one, or end if nothing beats standing still."""
        assert state.active is not None
        f = state.figure(state.active)
        mine = [a for a in legal if not isinstance(a, EndActivation | MoveBaggage)]
        option = self._plan(state, judge, f, mine, 1)
        if option is None or option.value < judge.position(state, f) + MIN_GAIN:
            return EndActivation()
        return option.action

    # -------------------------------------------------------- planning one figure's activation

    def _plan(
        self, st: ValhallaState, judge: _Judge, f: Figure, legal: Sequence[Action], actions: int
    ) -> _Option | None:
        """The best first action for ``f`` and the value of the plan it begins (``actions`` left: 1 or 2)."""
        two = actions >= 2
        options: list[_Option] = []
        if st.engaged(f.id):
            withdrawals: list[_Option] = []
            for a in legal:
                if isinstance(a, Fight):
                    o = st.figure(a.opponent)
                    options.append(_Option(judge.fight_ev(st, f, o) + judge.position(st, f), a))
                elif isinstance(a, Withdraw):
                    withdrawals.append(_Option(self._withdraw_value(st, judge, f, a, False), a))
            # A second action is planned from the three best spots only (it rarely changes the order).
            ranked = sorted(range(len(withdrawals)), key=lambda i: (-withdrawals[i].value, i))
            for i in ranked[:3] if two else ():
                w = withdrawals[i].action
                assert isinstance(w, Withdraw)
                withdrawals[i] = _Option(self._withdraw_value(st, judge, f, w, True), w)
            return _best(options + withdrawals)
        moves: list[tuple[float, XY, ValhallaState]] = []
        for a in legal:
            if isinstance(a, Move):
                continue
            value = self._action_value(st, judge, f, a, two)
            if value is not None:
                options.append(_Option(value, a))
        for to in self._move_points(st, judge, f, legal):
            moved = _moved(st, f, to)
            mf = moved.figure(f.id)
            value = judge.position(moved, mf)
            if two:
                value = max(value, self._tactical(moved, judge, mf))
            moves.append((value, to, moved))
            options.append(_Option(value, Move(f.id, to)))
        if two and _shooter(f):
            # Shoot first, then step to the best spot (or shoot again): the shot's value plus the best second.
            stay = judge.position(st, f)
            best_shot = max((v for v in self._shot_values(st, judge, f)), default=None)
            second = max([stay, *(v for v, _, _ in moves)])
            if best_shot is not None:
                second = max(second, stay + best_shot)
            for i, option in enumerate(options):
                if isinstance(option.action, Shoot):
                    ev = judge.shot_ev(st, f, st.figure(option.action.target))
                    if ev is not None:
                        options[i] = _Option(ev + second, option.action)
        return _best(options)

    def _action_value(
        self, st: ValhallaState, judge: _Judge, f: Figure, a: Action, two: bool
    ) -> float | None:
        """The value of a plan starting with a non-move action (a second action included if ``two``)."""
        match a:
            case Charge(_, target):
                return self._charge_value(st, judge, f, st.figure(target))
            case Shoot(_, target):
                ev = judge.shot_ev(st, f, st.figure(target))
                return None if ev is None else ev + judge.position(st, f)
            case Cross(_, obstacle):
                after = _crossed(st, f, obstacle)
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._best_goal_move(after, judge, af))
                return value
            case PickUp(_, thing):
                after = _picked(st, f, st.things[thing])
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._best_goal_move(after, judge, af))
                return value
            case Drop():
                after = _dropped(st, f)
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._tactical(after, judge, af))
                return value
            case Recover():
                after = st.with_figure(replace(f, shock=f.shock - 1))
                return judge.position(after, after.figure(f.id))
        return None

    def _charge_value(self, st: ValhallaState, judge: _Judge, f: Figure, t: Figure) -> float:
        """A charge: the round's expected gain, then the position in contact (the fight may go on)."""
        ev = judge.charge_ev(st, f, t)
        to = rounded(contact_point(f, t))
        after = replace(
            st.with_figure(replace(f, at=to)), engagements=(*st.engagements, Engagement(f.id, t.id))
        )
        return ev + judge.position(after, after.figure(f.id))

    def _withdraw_value(self, st: ValhallaState, judge: _Judge, f: Figure, a: Withdraw, two: bool) -> float:
        """A withdrawal: the coin a hero gives away (VH-WL-02), the new position, perhaps a second action."""
        coins = rules().figures[f.kind].withdraw_coins
        after = replace(
            st.with_figure(replace(f, at=rounded(a.to))),
            engagements=tuple(e for e in st.engagements if not e.has(f.id)),
        )
        af = after.figure(f.id)
        value = judge.position(after, af)
        if two:
            # No charge after a withdrawal in the same activation (VH-AC-10 decided): it buys no new +1.
            tactical = self._tactical(after, judge, af, charge=False)
            value = max(value, tactical, self._best_goal_move(after, judge, af, True))
        return value - judge.coins(1 - f.side, coins)

    def _tactical(self, st: ValhallaState, judge: _Judge, f: Figure, charge: bool = True) -> float:
        """The best second action that is not a move: a charge (if ``charge``), a shot, a pick-up or a
        crossing."""
        best = -math.inf
        for t in st.figures:
            if not charge or not t.alive or t.side == f.side:
                continue
            gap = edge_distance(f.at, judge.radius, t.at, judge.radius)
            # A hundredth of slack: the engine's own check has the last word.
            if gap <= judge.charge + 0.01 and charge_problem(st, f, t) is None:
                best = max(best, self._charge_value(st, judge, f, t))
        shots = self._shot_values(st, judge, f)
        if shots:
            best = max(best, judge.position(st, f) + max(shots))
        if f.carrying is None:
            for thing in st.things:
                if thing.baggage_side is None and thing.carrier is None and near_thing(f, thing):
                    after = _picked(st, f, thing)
                    best = max(best, judge.position(after, after.figure(f.id)))
        for i in st.scenario.ground.obstacles_near(f.at, judge.radius + rules().actions.cross_reach):
            if cross_problem(st, f, i) is None:
                after = _crossed(st, f, i)
                best = max(best, judge.position(after, after.figure(f.id)))
        return best

    def _shot_values(self, st: ValhallaState, judge: _Judge, f: Figure) -> list[float]:
        """The expected gain of each shot ``f`` may take now."""
        if not _shooter(f) or f.carrying is not None:
            return []
        out = []
        for t in st.figures:
            if t.alive and t.side != f.side:
                ev = judge.shot_ev(st, f, t)
                if ev is not None:
                    out.append(ev)
        return out

    def _best_goal_move(self, st: ValhallaState, judge: _Judge, f: Figure, light: bool = False) -> float:
        """The value of the best of a few purposeful moves (a second action after a pick-up, crossing or
        withdrawal); ``light``: only away, to cover and towards objectives."""
        best = -math.inf
        for to in self._goal_points(st, judge, f, light):
            moved = _moved(st, f, to)
            best = max(best, judge.position(moved, moved.figure(f.id)))
        return best

    # -------------------------------------------------------- where to move

    def _move_points(self, st: ValhallaState, judge: _Judge, f: Figure, legal: Sequence[Action]) -> list[XY]:
        """The points offered by ``legal_actions`` and purposeful points of the bot's own, each legal."""
        offered = [a.to for a in legal if isinstance(a, Move) and not a.via and a.figure == f.id]
        if not offered:
            return []
        # Points a few tenths apart are worth about the same: one stands for all (the bot's own first, so
        # that the exact spots to charge from are kept).
        seen: set[tuple[int, int]] = set()
        out: list[XY] = []
        for p in (*self._goal_points(st, judge, f), *offered):
            cell = (round(p[0] / MERGE), round(p[1] / MERGE))
            if cell not in seen:
                seen.add(cell)
                out.append(p)
        return out

    def _goal_points(self, st: ValhallaState, judge: _Judge, f: Figure, light: bool = False) -> list[XY]:
        """Legal move ends towards what matters: each enemy's 2" zone (and exact spots to charge from),
        range bands, things, objectives, cover, and straight away from the nearest enemy."""
        r = judge.radius
        goals: list[XY] = []
        foes = [e for e in st.figures if e.alive and e.side != f.side]
        shooter = _shooter(f) and f.carrying is None
        exact: list[XY] = []
        for e in foes:
            d = distance(f.at, e.at)
            if d < EPS or light:
                continue
            exact.extend(_charge_spots(st, f, e, judge))
            goals.append(toward(e.at, f.at, 2 * r + judge.zone + 0.02))
            if shooter:
                for band in (rules().shooting.close - 0.1, rules().shooting.range - 0.1):
                    goals.append(toward(e.at, f.at, band + 2 * r))
        if foes:
            near = min(foes, key=lambda e: (distance(f.at, e.at), e.id))
            if distance(f.at, near.at) > EPS:
                goals.append(toward(near.at, f.at, distance(f.at, near.at) + judge.move))
        for t in st.things:
            if t.baggage_side is None and t.carrier is None and f.carrying is None:
                goals.append(toward(t.at, f.at, r + t.radius + 0.5))
        for _, o in judge.objectives:
            goals.extend(self._objective_goals(st, judge, f, o))
        for area in _cover(st.scenario.ground):
            if area.distance(Point(f.at)) <= judge.move:
                goals.append(_inside(area, f.at))
        out: list[XY] = list(dict.fromkeys(exact))
        for g in goals:
            p = _furthest(st, f, g, judge.move)
            if p is not None and p not in out:
                out.append(p)
        return out

    def _objective_goals(self, st: ValhallaState, judge: _Judge, f: Figure, o: ObjectiveSpec) -> list[XY]:
        """A step down the walking field towards an objective's zone (a carrier, a runner) or cart."""
        ground = st.scenario.ground
        if o.kind == "carry":
            if f.carrying is None or st.things[f.carrying].name != o.thing or o.side != f.side:
                return []
            goal = tuple(o.zone)
        elif o.kind == "reach" and o.side == f.side:
            goal = tuple(o.zone)
        elif o.kind == "plunder" and o.side == f.side:
            goal = (next(t for t in st.things if t.name == o.baggage).at,)
        else:
            return []
        return [_downhill(ground, goal, f.at, judge.move)]

    # -------------------------------------------------------- baggage

    def _baggage(self, state: ValhallaState, legal: Sequence[Action]) -> Action:
        """Drive the baggage away from the enemy and towards friends who guard it (VH-AC-04)."""
        cart = state.things[state.baggage_queue[0]]
        side = cart.baggage_side
        r = figure_radius()

        def score(at: XY) -> float:
            gaps = [(g.side, edge_distance(at, cart.radius, g.at, r)) for g in state.figures if g.alive]
            foes = [d for s, d in gaps if s != side]
            guarded = 1.0 if any(s == side and d <= rules().actions.enemy_zone for s, d in gaps) else 0.0
            return min(min(foes, default=24.0), 24.0) + guarded - 0.01 * distance(at, cart.at)

        best: tuple[float, Action] = (score(cart.at) + 0.05, EndActivation())
        for a in legal:
            if isinstance(a, MoveBaggage):
                s = score(a.to)
                if s > best[0] + 1e-9:
                    best = (s, a)
        return best[1]


def _best(options: Iterable[_Option]) -> _Option | None:
    """The highest-valued option, the first of equals."""
    best: _Option | None = None
    for o in options:
        if best is None or o.value > best.value + 1e-9:
            best = o
    return best


# ---------------------------------------------------------------- hypothetical states


def _moved(st: ValhallaState, f: Figure, to: XY) -> ValhallaState:
    """The state with the figure (and what it carries) at ``to``."""
    if f.carrying is not None:
        st = st.with_thing(replace(st.things[f.carrying], at=to))
    return st.with_figure(replace(f, at=to))


def _crossed(st: ValhallaState, f: Figure, obstacle: int) -> ValhallaState:
    """The state after the figure crosses an obstacle (where the engine puts it)."""
    return _moved(st, f, rounded(st.scenario.ground.beyond(obstacle, f.at, figure_radius())))


def _picked(st: ValhallaState, f: Figure, t: Thing) -> ValhallaState:
    """The state after the figure picks the thing up."""
    return st.with_thing(replace(t, carrier=f.id, at=f.at)).with_figure(replace(f, carrying=t.id))


def _dropped(st: ValhallaState, f: Figure) -> ValhallaState:
    """The state after the figure drops what it carries."""
    assert f.carrying is not None
    t = st.things[f.carrying]
    return st.with_thing(replace(t, carrier=None, at=f.at)).with_figure(replace(f, carrying=None))


# ---------------------------------------------------------------- geometry helpers


def _furthest(st: ValhallaState, f: Figure, goal: XY, budget: float) -> XY | None:
    """The furthest legal move end on the straight line to ``goal`` (checked by the engine's rule)."""
    start = f.at
    length = distance(start, goal)
    if length < MIN_MOVE:
        return None
    end = rounded(goal)
    if move_problem(st, f, [start, end], budget) is None:
        return end
    lo, hi = 0.0, length
    for _ in range(7):
        mid = (lo + hi) / 2
        why = move_problem(st, f, [start, toward(start, goal, mid)], budget)
        if why is None or why.startswith("there is no room"):
            lo = mid
        else:
            hi = mid
    d = lo
    for _ in range(6):  # a blocked end (another base) is stepped back from
        if d < MIN_MOVE:
            return None
        p = rounded(toward(start, goal, d))
        if move_problem(st, f, [start, p], budget) is None:
            return p
        d -= 0.3
    return None


@cache
def _ring(inner: float, outer: float) -> tuple[tuple[int, int], ...]:
    """Offsets in hundredths of an inch whose length lies between ``inner`` and ``outer`` inches.

    Positions are kept to hundredths, a move may not end nearer than 2" to an enemy and a charge may not
    start further than 2" (VH-AC-06, VH-AC-09). With both at 2", the 20 lattice points exactly 3" from an
    enemy's centre are stops from which a charge surely reaches, however the engine rounds the distance
    (it now measures a charge to the hundredth, so a stop a little further also reaches; before that, these
    were the only ones).
    """
    lo, hi = inner * 100 - 1e-4, outer * 100 + 1e-4
    out = []
    for a in range(-int(hi), int(hi) + 1):
        b_lo = math.sqrt(max(0.0, lo * lo - a * a))
        for b in range(math.ceil(b_lo), int(math.sqrt(max(0.0, hi * hi - a * a))) + 1):
            for sb in {b, -b}:
                out.append((a, sb))
    out.sort(key=lambda ab: math.atan2(ab[1], ab[0]))
    step = max(1, len(out) // 24)  # a band wider than a line would have too many: keep about 24
    return tuple(out[::step])


def _charge_spots(st: ValhallaState, f: Figure, e: Figure, judge: _Judge) -> list[XY]:
    """Legal move ends from which ``f`` may then charge ``e`` (the nearest few of the exact ring)."""
    r = judge.radius
    ring = _ring(2 * r + judge.zone, 2 * r + judge.charge)
    spots = [rounded((e.at[0] + a / 100, e.at[1] + b / 100)) for a, b in ring]
    spots = [p for p in spots if MIN_MOVE <= distance(f.at, p) <= judge.move + EPS]
    spots.sort(key=lambda p: (distance(f.at, p), p))
    out = []
    for p in spots[:8]:
        if move_problem(st, f, [f.at, p], judge.move) is None:
            out.append(p)
            if len(out) == 3:
                break
    return out


def _downhill(ground: Ground, goal: tuple[XY, ...], at: XY, budget: float) -> XY:
    """The node within a move's reach that is nearest the goal by walking (a waypoint round obstacles)."""
    grid = _grid(ground)
    field = _field(ground, goal)
    here = _walk(ground, goal, at)
    reach = int(budget / GRID) + 1
    i0, j0 = int(at[0] / GRID), int(at[1] / GRID)
    nodes = sorted(
        (field[j * grid.nx + i], j * grid.nx + i)
        for j in range(max(0, j0 - reach), min(grid.ny, j0 + reach + 1))
        for i in range(max(0, i0 - reach), min(grid.nx, i0 + reach + 1))
    )
    for value, n in nodes[:12]:  # the few nearest the goal; the first reachable one is the waypoint
        c = grid.centre(n)
        if value >= here or distance(at, c) > budget:
            continue
        if not ground.crosses_obstacle([at, c]) and ground.path_cost([at, c]) <= budget + EPS:
            return c
    return at


@cache
def _cover(ground: Ground) -> tuple[Polygon, ...]:
    """The woods and villages (cover, VH-SH-08) as polygons."""
    return tuple(Polygon(a.outline) for a in ground.areas if a.kind in ground.cover_kinds)


def _inside(area: Polygon, at: XY) -> XY:
    """A point just inside an area's edge, on the side nearest ``at``."""
    edge = area.exterior.interpolate(area.exterior.project(Point(at)))
    centre = area.representative_point()
    return toward((edge.x, edge.y), (centre.x, centre.y), 0.7)


def bot_for(game: Any) -> ValhallaBot:
    """The Valhalla bot."""
    return ValhallaBot(game)
