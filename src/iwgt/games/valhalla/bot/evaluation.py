"""What a Valhalla position or plan is worth to one side, in coins: exact odds, threats, objectives.

Every value is in "coin value": the coins each side would win (a coin that wins the game is worth a bonus on
top), plus what a figure is worth in the fight to come, minus the lasting cost of shock and wounds. Charges,
fights and shots are worth their exact expected value from the engine's own odds and modifiers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from shapely.geometry import Point

from iwgt.games.valhalla.bot.navigation import Reach, polygon, shoots, walk
from iwgt.games.valhalla.config import Kind, rules
from iwgt.games.valhalla.dice import Fighter, shot_hits_on
from iwgt.games.valhalla.flow import charge_sides, coin_targets, fight_sides
from iwgt.games.valhalla.odds import Fate, combat_odds, shoot_odds
from iwgt.games.valhalla.scenario import ObjectiveSpec
from iwgt.games.valhalla.shooting import aim, why_not_shoot
from iwgt.games.valhalla.state import Figure, ValhallaState
from iwgt.geometry.plane import EPS, XY, distance, edge_distance

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

# ---------------------------------------------------------------- objectives

FETCH_ROLE: dict[str, float] = {"warrior": 0.0, "archer": 3.0, "slinger": 3.0, "hero": 4.0}
"""Inches added to a figure's distance when choosing who fetches a thing: warriors first (an archer must
drop it to shoot, a hero is wanted in the fight)."""
HORIZON = 30.0
"""Walking distance (inches) beyond which an objective is as good as out of reach."""


# ---------------------------------------------------------------- exact odds, cached


@dataclass(frozen=True, slots=True)
class Outcome:
    """One possible end state of a figure's hurts, with its chance."""

    p: float
    shock: int
    wounds: int
    killed: bool


def outcomes(fate: Fate) -> tuple[Outcome, ...]:
    """A fate's exact distribution as floats, in a fixed order."""
    items = sorted(fate.harm.items(), key=lambda hp: (hp[0].killed, hp[0].wounds, hp[0].shock))
    return tuple(Outcome(float(p), h.shock, h.wounds, h.killed) for h, p in items)


@lru_cache(maxsize=4096)
def combat_outcomes(attacker: Fighter, defender: Fighter) -> tuple[tuple[Outcome, ...], tuple[Outcome, ...]]:
    """What becomes of the attacker and of the defender after one round of combat (exact odds)."""
    odds = combat_odds(attacker, defender)
    return outcomes(odds.attacker_fate), outcomes(odds.defender_fate)


@lru_cache(maxsize=1024)
def shot_outcomes(
    close: bool, cover: bool, kind: Kind, shock: int, wounded: bool, shots: int
) -> tuple[Outcome, ...]:
    """What becomes of a target after so many shots at close or long range, in cover or not."""
    s = rules().shooting
    return outcomes(shoot_odds(0.0 if close else s.range, cover, kind, shock, wounded, shots).fate)


def is_close(gap: float) -> bool:
    """Whether a shot at this edge distance is at close range (read off the rule function itself)."""
    return shot_hits_on(gap, False) == shot_hits_on(0.0, False)


def hurt_cost(kind: str, shock: int, wounds: int) -> float:
    """The lasting cost of a figure's hurts."""
    hurt = 1.0 if shock > 0 or wounds > 0 else 0.0
    return MATERIAL[kind] * (HURT_SHARE * hurt + SHOCK_SHARE * shock + WOUND_SHARE * wounds)


def closer(p: float, d: float) -> float:
    """A chance-like share that grows as a walking distance shrinks, 0 beyond the horizon."""
    return p * (1.0 - min(d, HORIZON) / HORIZON)


# ---------------------------------------------------------------- one decision's evaluation


class Judge:
    """Scores actions and positions for one side in one decision (its caches hold for that decision only:
    the coins, and so every value, may differ at the next)."""

    def __init__(self, state: ValhallaState, side: int) -> None:
        self.state = state
        self.side = side
        spec = state.scenario.spec
        self.ground = state.scenario.ground
        reach = self.reach = Reach.of(self.ground)
        self.radius = reach.radius
        self.move = reach.move
        self.charge = reach.charge
        self.zone = reach.zone
        self.targets = coin_targets(state)
        last = self.last = state.turn >= spec.turn_limit
        # In the last turn a figure's worth in fights to come counts for little: only coins decide.
        self.future = LAST_TURN_WORTH if last else 1.0
        self.next_turn = 0.0 if last else NEXT_TURN
        self.opportunity = 0.0 if last else OPPORTUNITY
        self.shaping = 0.0 if last else 1.0  # closing in pays off only in a later turn
        self.objectives = [o for i, o in enumerate(spec.objectives) if i not in state.achieved]
        """The objectives not yet achieved (each scores once)."""
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
        return self.future * hurt_cost(kind, shock, wounds)

    def objective_worth(self, side: int) -> float:
        """What achieving one objective is worth to a side."""
        return self.coins(side, rules().table.objective_coins)

    def stake(self, f: Figure, st: ValhallaState) -> float:
        """Objective value lost with a figure that carries an objective's thing (it drops where it falls)."""
        if f.carrying is None:
            return 0.0
        name = st.things[f.carrying].name
        for o in self.objectives:
            if o.kind == "carry" and o.thing == name:
                return CARRIER_STAKE * self.objective_worth(o.side)
        return 0.0

    def loss(self, f: Figure, outcomes: Sequence[Outcome], stake: float) -> float:
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
            out_a, out_d = combat_outcomes(fa, fd)
            ev = self.loss(d, out_d, sd) - self.loss(a, out_a, sa)
            self._ev[key] = ev
        return ev

    def charge_ev(self, st: ValhallaState, a: Figure, d: Figure) -> float:
        """The charger's expected gain if ``a`` charged ``d`` from where it stands (VH-CO-06, VH-CO-07)."""
        key = ("charge", a, d, st.engaged(d.id))
        ev = self._ev.get(key)
        if ev is None:
            fa, fd = charge_sides(st, a, d)
            pinned = 0.0 if st.engaged(d.id) else SLOWED_STAKE * self.stake(d, st)  # a carrier held in combat
            ev = self.combat_ev(st, a, fa, d, fd) + pinned
            self._ev[key] = ev
        return ev

    def walk(self, goal: tuple[XY, ...], p: XY) -> float:
        """Walking cost from a point to a goal (see ``navigation.walk``), remembered for this decision."""
        key = (goal, p)
        d = self._walks.get(key)
        if d is None:
            d = self._walks[key] = walk(self.ground, goal, p)
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
            shot = aim(st, shooter, target) if why_not_shoot(st, shooter, target) is None else None
            self._bands[key] = None if shot is None else (is_close(shot.distance), shot.cover)
        band = self._bands[key]
        if band is None:
            return None
        out = shot_outcomes(band[0], band[1], target.kind, target.shock, target.wounded, shots)
        return self.loss(target, out, self.stake(target, st))

    def static_ev(self, f: Figure, t: Figure) -> float:
        """The gain of ``f`` charging ``t`` in the open, for choosing a target to close on."""
        key = ("static", f.kind, f.shock, f.wounds, t.kind, t.shock, t.wounds, f.side)
        ev = self._ev.get(key)
        if ev is None:
            fa = Fighter(f.kind, f.shock, f.wounded, charging=True)
            fd = Fighter(t.kind, t.shock, t.wounded)
            out_a, out_d = combat_outcomes(fa, fd)
            ev = self.loss(t, out_d, 0.0) - self.loss(f, out_a, 0.0)
            self._ev[key] = ev
        return ev

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
        if foes and (shoots(f) or f.carrying is not None):
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
        if self.reach.can_charge_next(e, f):
            threat = max(threat, self.charge_ev(st, e, f))
        if not engaged and shoots(e):
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
            once = shot_outcomes(False, cover, f.kind, f.shock, f.wounded, 1)
            return 0.7 * self.loss(f, once, self.stake(f, st))
        return 0.0

    def opportunities(self, st: ValhallaState, f: Figure, foes: list[Figure]) -> float:
        """What our figure can strike at its next activation, and the pull towards a target or range."""
        best = 0.0
        for t in foes:
            if self.opportunity > 0 and self.reach.can_charge_next(f, t):
                best = max(best, self.charge_ev(st, f, t))
            if self.opportunity > 0 and shoots(f) and not st.engaged(t.id):
                ev = self.shot_ev(st, f, t, 1 if f.hurt else 2)
                if ev is not None:
                    best = max(best, ev)
        v = self.opportunity * best
        if f.carrying is not None or not foes:
            return v
        gaps = [(edge_distance(f.at, self.radius, t.at, self.radius), t) for t in foes]
        if shoots(f):
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
        for o in self.objectives:
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
                    if polygon(zone).covers(Point(c.at)):
                        return 1.0
                    slowed = (0.75 if c.hurt else 1.0) * (0.6 if st.engaged(c.id) else 1.0)
                    # Each enemy that can strike the carrier before it moves on may stop it.
                    for e in st.figures:
                        free = e.alive and e.side != o.side and not st.engaged(e.id)
                        if free and self.reach.can_charge_next(e, c):
                            slowed *= INTERCEPT
                    return (0.4 + closer(0.5, self.walk(zone, c.at))) * slowed
                return closer(0.1, self.walk(zone, thing.at))
            goal = (thing.at,)
            mine = self.fetch_distance(st, o.side, goal)
            theirs = self.fetch_distance(st, 1 - o.side, goal)
            p = closer(0.35, mine) * (1.0 - 0.4 * min(self.walk(zone, thing.at), HORIZON) / HORIZON)
            return p * (0.7 if theirs < mine else 1.0)
        if o.kind == "reach":
            if any(f.alive and f.side == o.side and polygon(zone).covers(Point(f.at)) for f in st.figures):
                return 1.0
            return closer(0.4, self.fetch_distance(st, o.side, zone))
        cart = next(t for t in st.things if t.name == o.baggage)
        reach = rules().actions.pickup_reach
        gaps = [
            (f.side, edge_distance(f.at, self.radius, cart.at, cart.radius)) for f in st.figures if f.alive
        ]
        guarded = any(s != o.side and g <= self.zone + EPS for s, g in gaps)
        touching = any(s == o.side and g <= reach + EPS for s, g in gaps)
        if touching and not guarded:
            return 1.0
        p = closer(0.4, self.fetch_distance(st, o.side, (cart.at,)))
        return p * (0.6 if guarded else 1.0)
