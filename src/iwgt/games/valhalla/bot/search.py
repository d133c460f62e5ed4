"""The Valhalla bot's planner: each figure's activation planned one or two actions deep, the best one taken.

When a card comes up it plans each figure's activation (move then charge, move then shoot, shoot then step
back, pick up then carry, withdraw then shoot...) and activates the figure whose best plan gains most over
standing still; with no gain anywhere it lets the card pass. The second action is planned afresh once the
first is done, and the activation ends when nothing left would improve the position. The states a plan
passes through are made by the rules' own functions (``movement``, ``flow``), so the bot always plans with
the rules the engine applies.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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
from iwgt.games.valhalla.bot.evaluation import Judge
from iwgt.games.valhalla.bot.navigation import goal_points, move_points, shoots
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.flow import activate, allowance, recover
from iwgt.games.valhalla.movement import (
    charge_into,
    cross_end,
    drop,
    figure_radius,
    pick_up,
    relocate,
    why_not_charge,
    why_not_cross,
    why_not_pick_up,
    withdraw_to,
)
from iwgt.games.valhalla.state import Figure, ValhallaState
from iwgt.geometry.plane import XY, distance, edge_distance, rounded

MIN_GAIN = 1e-3
"""A plan must gain at least this much over standing still, or the card is passed."""


@dataclass(frozen=True, slots=True)
class Option:
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
        judge = Judge(state, side)
        if state.active is None:
            return self._first(state, judge, legal)
        return self._next(state, judge, legal)

    # -------------------------------------------------------- choosing the figure

    def _first(self, state: ValhallaState, judge: Judge, legal: Sequence[Action]) -> Action:
        """A card is up: the figure whose best plan gains most over standing still, or pass the card."""
        fids = sorted({a.figure for a in legal if not isinstance(a, EndActivation | MoveBaggage)})
        best: Option | None = None
        for fid in fids:
            st = activate(state, state.figure(fid))
            f = st.figure(fid)
            idle = judge.position(st, f)
            mine = [a for a in legal if not isinstance(a, EndActivation | MoveBaggage) and a.figure == fid]
            option = self._plan(st, judge, f, mine, allowance(f))
            if option is None:
                continue
            gained = Option(option.value - idle, option.action)
            if best is None or gained.value > best.value + 1e-9:
                best = gained
        if best is None or best.value < MIN_GAIN:
            return EndActivation()
        return best.action

    def _next(self, state: ValhallaState, judge: Judge, legal: Sequence[Action]) -> Action:
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
        self, st: ValhallaState, judge: Judge, f: Figure, legal: Sequence[Action], actions: int
    ) -> Option | None:
        """The best first action for ``f`` and the value of the plan it begins (``actions`` left: 1 or 2)."""
        two = actions >= 2
        options: list[Option] = []
        if st.engaged(f.id):
            withdrawals: list[Option] = []
            for a in legal:
                if isinstance(a, Fight):
                    o = st.figure(a.opponent)
                    options.append(Option(judge.fight_ev(st, f, o) + judge.position(st, f), a))
                elif isinstance(a, Withdraw):
                    withdrawals.append(Option(self._withdraw_value(st, judge, f, a, False), a))
            # A second action is planned from the three best spots only (it rarely changes the order).
            ranked = sorted(range(len(withdrawals)), key=lambda i: (-withdrawals[i].value, i))
            for i in ranked[:3] if two else ():
                w = withdrawals[i].action
                assert isinstance(w, Withdraw)
                withdrawals[i] = Option(self._withdraw_value(st, judge, f, w, True), w)
            return best_option(options + withdrawals)
        moves: list[tuple[float, XY, ValhallaState]] = []
        for a in legal:
            if isinstance(a, Move):
                continue
            value = self._action_value(st, judge, f, a, two)
            if value is not None:
                options.append(Option(value, a))
        for to in move_points(st, f, legal, judge.reach, judge.objectives):
            moved = relocate(st, f, to)
            mf = moved.figure(f.id)
            value = judge.position(moved, mf)
            if two:
                value = max(value, self._tactical(moved, judge, mf))
            moves.append((value, to, moved))
            options.append(Option(value, Move(f.id, to)))
        if two and shoots(f):
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
                        options[i] = Option(ev + second, option.action)
        return best_option(options)

    def _action_value(self, st: ValhallaState, judge: Judge, f: Figure, a: Action, two: bool) -> float | None:
        """The value of a plan starting with a non-move action (a second action included if ``two``)."""
        match a:
            case Charge(_, target):
                return self._charge_value(st, judge, f, st.figure(target))
            case Shoot(_, target):
                ev = judge.shot_ev(st, f, st.figure(target))
                return None if ev is None else ev + judge.position(st, f)
            case Cross(_, obstacle):
                after = relocate(st, f, cross_end(st, f, obstacle))
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._best_goal_move(after, judge, af))
                return value
            case PickUp(_, thing):
                after = pick_up(st, f, st.things[thing])
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._best_goal_move(after, judge, af))
                return value
            case Drop():
                after = drop(st, f)
                af = after.figure(f.id)
                value = judge.position(after, af)
                if two:
                    value = max(value, self._tactical(after, judge, af))
                return value
            case Recover():
                after = recover(st, f)
                return judge.position(after, after.figure(f.id))
        return None

    def _charge_value(self, st: ValhallaState, judge: Judge, f: Figure, t: Figure) -> float:
        """A charge: the round's expected gain, then the position in contact (the fight may go on)."""
        ev = judge.charge_ev(st, f, t)
        after = charge_into(st, f, t)
        return ev + judge.position(after, after.figure(f.id))

    def _withdraw_value(self, st: ValhallaState, judge: Judge, f: Figure, a: Withdraw, two: bool) -> float:
        """A withdrawal: the coin a hero gives away (VH-WL-02), the new position, perhaps a second action."""
        coins = rules().figures[f.kind].withdraw_coins
        after = withdraw_to(st, f, rounded(a.to))
        af = after.figure(f.id)
        value = judge.position(after, af)
        if two:
            # No charge after a withdrawal in the same activation (VH-AC-10 decided): it buys no new +1.
            tactical = self._tactical(after, judge, af, charge=False)
            value = max(value, tactical, self._best_goal_move(after, judge, af, True))
        return value - judge.coins(1 - f.side, coins)

    def _tactical(self, st: ValhallaState, judge: Judge, f: Figure, charge: bool = True) -> float:
        """The best second action that is not a move: a charge (if ``charge``), a shot, a pick-up or a
        crossing."""
        best = -math.inf
        for t in st.figures:
            if not charge or not t.alive or t.side == f.side:
                continue
            gap = edge_distance(f.at, judge.radius, t.at, judge.radius)
            # A hundredth of slack: the engine's own check has the last word.
            if gap <= judge.charge + 0.01 and why_not_charge(st, f, t) is None:
                best = max(best, self._charge_value(st, judge, f, t))
        shots = self._shot_values(st, judge, f)
        if shots:
            best = max(best, judge.position(st, f) + max(shots))
        for thing in st.things:
            if why_not_pick_up(st, f, thing) is None:
                after = pick_up(st, f, thing)
                best = max(best, judge.position(after, after.figure(f.id)))
        for i in st.scenario.ground.obstacles_near(f.at, judge.radius + rules().actions.cross_reach):
            if why_not_cross(st, f, i) is None:
                after = relocate(st, f, cross_end(st, f, i))
                best = max(best, judge.position(after, after.figure(f.id)))
        return best

    def _shot_values(self, st: ValhallaState, judge: Judge, f: Figure) -> list[float]:
        """The expected gain of each shot ``f`` may take now."""
        if not shoots(f) or f.carrying is not None:
            return []
        out = []
        for t in st.figures:
            if t.alive and t.side != f.side:
                ev = judge.shot_ev(st, f, t)
                if ev is not None:
                    out.append(ev)
        return out

    def _best_goal_move(self, st: ValhallaState, judge: Judge, f: Figure, light: bool = False) -> float:
        """The value of the best of a few purposeful moves (a second action after a pick-up, crossing or
        withdrawal); ``light``: only away, to cover and towards objectives."""
        best = -math.inf
        for to in goal_points(st, f, judge.reach, judge.objectives, light):
            moved = relocate(st, f, to)
            best = max(best, judge.position(moved, moved.figure(f.id)))
        return best

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


def best_option(options: Iterable[Option]) -> Option | None:
    """The highest-valued option, the first of equals."""
    best: Option | None = None
    for o in options:
        if best is None or o.value > best.value + 1e-9:
            best = o
    return best
