"""The Coloured-Dice bot: one ply, every order scored with the exact odds, from its own observation.

Each call reads ``game.observe(state, seat)`` afresh and gives one action:

1. a question (hero points, bear wound, reaction, resist) is answered by ``answers``;
2. in its turn, in this order: the fights of engaged units (the previews' exact pools and armour, the
   survivors' strike back estimated), the shots worth taking (the previews: expected models, morale break and
   destruction in points), charges whose exchange favours it or whose target is weak or shaken, rallies of
   shaken units, attack spells, then moves: towards the objectives it has not taken, towards the target whose
   exchange is best, shooters to the nearest band of a target; every destination weighed against the charges
   the enemy could make at it next turn; and at last ``end_turn``.

The observation says what is on the table; the bot still asks the rules whether an order it has chosen will be
taken (``apply`` on a copy: the engine's legality, never a look at anything the observation lacks), because
the full ``legal_actions`` list (every offered move checked against the terrain) is far too slow to build for
every decision. Deterministic by its seed: the seed only breaks near ties.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

from iwgt.core.chance import SplitMix64
from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON, Seat
from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice.bot import answers
from iwgt.games.coloured_dice.bot.exchange import (
    MODEL_SHARE,
    SHAKEN_SHARE,
    Exchange,
    exchange,
    pool_of,
    shot_worth,
    strike,
    worth,
)
from iwgt.games.coloured_dice.bot.view import UnitView, View, farther_than, fights_together, read
from iwgt.games.coloured_dice.magic_data import magic_rules
from iwgt.games.coloured_dice.odds import pass_probability
from iwgt.geometry.trays import Tray, facing_towards

ENEMY_GAP = 1.0
"""A move may not end within this many inches of an enemy (CD-MS-16): the bot keeps a little more."""
KEEP_OFF = 1.15
"""The gap the bot's moves aim to leave to an enemy tray (ENEMY_GAP and a margin for rounding)."""
OBJECTIVE_HOLD = 2.5
"""A unit whose centre is this close to an objective it has not taken stays on it (3" takes it)."""
OBJECTIVE_RANGE = 3.0
"""Within this of an objective at the end of the turn, a steady unit takes it (CD-MS-07 designed)."""
MOVE_SHARES = (1.0, 0.75, 0.5, 0.25)
"""The lengths of a move the bot weighs, as shares of the allowance."""
TURNS = (-60.0, -30.0, 30.0, 60.0)
"""Turns (degrees) off the straight line tried when the straight move is refused."""
MOVES_TRIED = 3
"""The best few lengths tried along each line before turning off it."""
MOVES_REFUSED = 6
"""After so many of a unit's moves are refused in one decision it waits for its next turn."""
THREAT_WEIGHT = 0.6
"""How much an enemy's favourable charge at a destination counts against it."""
PROGRESS_WEIGHT = 4.0
"""Points of worth per inch a unit gets nearer its goal."""
OBJECTIVE_WORTH = 1.0
"""An objective's VP count this much in the choice of goal."""
CHARGE_MARGIN = 0.0
"""A charge is ordered when its exchange's net worth is above this (points)."""
MIN_SHOT = 0.5
"""A shot worth less than this (points) is not taken."""
WILL_WORTH = 6.0
"""Points a point of Will is worth to a caster (it is its life in the battle, CD-CH-23)."""
ARMOUR_SHARE = 0.05
"""The share of an engaged friend's worth a point of armour for the fight is worth."""
WIDEN_MARGIN = 2.0
"""Inches beyond a charge's reach within which a formation unit widens its front for the coming fight."""
JITTER = 1e-6
"""The size of the seeded tie-breaker."""


def _round(p: tuple[float, float]) -> tuple[float, float]:
    return (math.floor(p[0] * 100) / 100, math.floor(p[1] * 100) / 100)


class CdBot:
    """The bot for one seat (``choose``), deterministic by ``seed``."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self._rng = SplitMix64(seed)
        self._memo: dict[tuple[Any, ...], Any] = {}
        self.observe_seconds = 0.0
        """Time spent in ``game.observe`` so far (the benchmark tells it apart from the bot's own)."""
        # Units none of whose moves the rules took this turn (a pond crossed, friends in the way): not tried
        # again until the next turn. The bot's own memory of its refusals, keyed by (round, seat).
        self._stuck: tuple[tuple[int, int], set[int]] = ((0, -1), set())

    # ------------------------------------------------------------------ entry

    def choose(self, state: Any, seat: Seat) -> Any:
        """The bot's action for the seat now (a legal one)."""
        start = time.perf_counter()
        obs = self.game.observe(state, seat)
        self.observe_seconds += time.perf_counter() - start
        view = read(obs, int(seat))
        self._memo = {}
        questions = [q for q in obs.get("questions", []) if isinstance(q, dict)]
        if questions:
            asked = obs.get("awaiting") or obs.get("pending") or {}  # the question awaiting an answer
            return self.game.action_from_json(self._answer(view, asked, questions))
        turn = (int(obs.get("round", 0)), int(obs.get("seat", -1)))
        if self._stuck[0] != turn:
            self._stuck = (turn, set())
        refused: dict[int, int] = {}
        for action in self._orders(view):
            if isinstance(action, act.Move) and action.unit in self._stuck[1]:
                continue
            if self._taken(state, action):
                self._stuck[1].update(set(refused) - {getattr(action, "unit", -1)})
                return action
            if isinstance(action, act.Move):
                refused[action.unit] = refused.get(action.unit, 0) + 1
                if refused[action.unit] >= MOVES_REFUSED:
                    self._stuck[1].add(action.unit)
        self._stuck[1].update(refused)
        return act.EndTurn()

    def _taken(self, state: Any, action: Any) -> bool:
        """Whether the rules take the order now (applied to a copy; nothing changes)."""
        try:
            self.game.apply(state, action)
        except GameError:
            return False
        return True

    def _jitter(self) -> float:
        return JITTER * self._rng.below(1000)

    # ------------------------------------------------------------------ questions

    def _answer(self, view: View, pending: JSON, questions: list[JSON]) -> JSON:
        kinds = {str(q.get("type")) for q in questions}
        if "hero" in kinds:
            offered = sorted(int(q["points"]) for q in questions if q.get("type") == "hero")
            k = answers.hero_points(view, pending, offered)
            return {"type": "hero", "points": k if k in offered else (0 if 0 in offered else offered[0])}
        if "bear_wound" in kinds:
            return {"type": "bear_wound", "roll": answers.bear_wound(view, pending)}
        if "react" in kinds:
            return {
                "type": "react",
                "roll": any(q.get("roll") for q in questions if q.get("type") == "react"),
            }
        if "resist" in kinds:
            want = answers.resist(view, pending)
            can = any(q.get("spend") for q in questions if q.get("type") == "resist")
            return {"type": "resist", "spend": want and can}
        return questions[0]

    # ------------------------------------------------------------------ orders

    def _gm(self, view: View, seat: int) -> int:
        return int(view.obs["sides"][seat].get("general_morale", 0))

    def _exchange(self, view: View, a: UnitView, d: UnitView, attacker_turn: bool) -> Exchange:
        key = ("x", a.id, d.id, attacker_turn)
        got = self._memo.get(key)
        if got is None:
            got = exchange(
                a, d, attacker_turn=attacker_turn, gm=(self._gm(view, a.seat), self._gm(view, d.seat))
            )
            self._memo[key] = got
        return got

    def _orders(self, view: View) -> Iterator[Any]:
        """Candidate orders, best first."""
        previews = [p for p in view.obs.get("previews", []) if isinstance(p, dict)]
        yield from self._fights(view, previews)
        yield from self._shots(view, previews, now_only=True)
        yield from self._spells(view, previews)
        yield from self._charges(view)
        yield from self._rallies(view)
        yield from self._moves(view, previews)
        yield from self._shots(view, previews, now_only=False)

    def _fights(self, view: View, previews: list[JSON]) -> Iterator[Any]:
        scored: list[tuple[float, Any]] = []
        for p in previews:
            if p.get("kind") != "fight":
                continue
            a, d = view.unit(int(p["unit"])), view.unit(int(p["target"]))
            if a is None or d is None:
                continue
            x = exchange(
                a,
                d,
                attacker_turn=True,
                gm=(self._gm(view, a.seat), self._gm(view, d.seat)),
                dealt_pool=pool_of(p.get("dice", {})),
                armour=int(p.get("armour", d.armour)),
            )
            # An engaged unit can do little else: it fights unless the exchange is clearly bad.
            if x.net > -0.1 * a.full_value:
                scored.append((x.net + self._jitter(), act.Fight(a.id, d.id)))
        for _, action in sorted(scored, key=lambda s: -s[0]):
            yield action

    def _shot_choices(self, view: View, previews: list[JSON]) -> dict[int, tuple[float, JSON]]:
        best: dict[int, tuple[float, JSON]] = {}
        for p in previews:
            if p.get("kind") not in ("shot", "spell") or p.get("kind") == "spell":
                continue
            t = view.unit(int(p["target"]))
            if t is None:
                continue
            score = shot_worth(p, t)
            if p.get("friend") is not None:  # half the wounds would fall on our own engaged unit
                friend = view.unit(int(p["friend"]))
                score -= (
                    0.0
                    if friend is None
                    else 0.5
                    * worth(
                        strike(pool_of(p.get("dice", {})), friend, friend.armour, close_combat=False), friend
                    )
                )
            uid = int(p["unit"])
            if score > best.get(uid, (-math.inf, {}))[0]:
                best[uid] = (score + self._jitter(), p)
        return best

    def _shots(self, view: View, previews: list[JSON], *, now_only: bool) -> Iterator[Any]:
        best = self._shot_choices(view, previews)
        for uid, (score, p) in sorted(best.items(), key=lambda kv: -kv[1][0]):
            u = view.unit(uid)
            if u is None or score < MIN_SHOT:
                continue
            band = int(p.get("parts", {}).get("band", 0))
            if now_only and band > 0 and u.actions_left >= 2:
                continue  # move closer first (the moves below), shoot with the second action
            yield act.Shoot(uid, int(p["target"]))

    def _spells(self, view: View, previews: list[JSON]) -> Iterator[Any]:
        """Spell attacks from the previews, forced morale tests, healing and armour, by worth less the Will
        they cost (a caster keeps at least one point: at zero it leaves the battle)."""
        scored: list[tuple[float, Any]] = []
        book = magic_rules()
        for p in previews:
            if p.get("kind") != "spell" or not p.get("spell"):
                continue
            t, c = view.unit(int(p["target"])), view.unit(int(p["unit"]))
            if t is None or c is None:
                continue
            cost = _cost(book, str(p["spell"]))
            if cost and int(c.data.get("will") or 0) - cost < answers.WILL_KEPT:
                continue
            worth_ = shot_worth(p, t) - WILL_WORTH * cost
            if worth_ > MIN_SHOT:
                scored.append((worth_ + self._jitter(), act.Cast(c.id, str(p["spell"]), t.id)))
        for c in view.mine:
            if c.attacked or c.actions_left <= 0:
                continue
            for key in _powers(c):
                power = book.power(key)
                cost = _cost(book, key)
                if cost and int(c.data.get("will") or 0) - cost < answers.WILL_KEPT:
                    continue
                for target, value in self._power_targets(view, c, power):
                    if value - WILL_WORTH * cost > MIN_SHOT:
                        scored.append(
                            (value - WILL_WORTH * cost + self._jitter(), act.Cast(c.id, key, target))
                        )
        for _, action in sorted(scored, key=lambda s: -s[0]):
            yield action

    def _power_targets(self, view: View, c: UnitView, power: Any) -> Iterator[tuple[int, float]]:
        """(target, worth) of a spell or gift that rolls no dice: a forced test, healing, armour."""
        reach_ = float(power.range)
        if power.effect == "morale_test":
            for e in view.foes:
                if farther_than(c.tray, e.tray, reach_):
                    continue
                fails = 1.0 - pass_probability(
                    int(e.data.get("morale_target", 0)), int(power.modifier) - self._gm(view, e.seat)
                )
                broken = e.full_value if e.shaken else SHAKEN_SHARE * e.full_value
                yield e.id, fails * broken
        elif power.effect == "heal":
            for f in view.mine:
                lost = int(f.data.get("start_models", f.models)) - f.models
                if (lost <= 0 and f.wounds == 0) or farther_than(c.tray, f.tray, reach_):
                    continue
                yield f.id, MODEL_SHARE * f.per_model * min(int(power.amount), max(lost, 1))
        elif power.effect == "armour":
            for f in view.mine:
                if not f.engaged or farther_than(c.tray, f.tray, reach_) or power.against == "shot":
                    continue
                yield f.id, ARMOUR_SHARE * int(power.amount) * f.full_value

    def _charges(self, view: View) -> Iterator[Any]:
        scored: list[tuple[float, Any]] = []
        for u in view.mine:
            if u.shaken or u.engaged or u.attacked or u.actions_left < 2 or not u.melee_per_model:
                continue
            for e in view.foes:
                if farther_than(u.tray, e.tray, u.move - 0.05):
                    continue
                x = self._exchange(view, u, e, True)
                weak = e.shaken or e.models <= 2
                if x.net > CHARGE_MARGIN or (weak and x.dealt > x.taken * 0.5):
                    scored.append((x.net + self._jitter(), act.Charge(u.id, e.id)))
        for _, action in sorted(scored, key=lambda s: -s[0]):
            yield action

    def _rallies(self, view: View) -> Iterator[Any]:
        for u in view.mine:
            if u.shaken and not u.engaged and u.actions_left > 0:
                yield act.Rally(u.id)

    # ------------------------------------------------------------------ moves

    def _objective_goals(self, view: View) -> dict[int, tuple[float, float]]:
        """Each objective the side has not taken, given to the nearest free steady unit (in turns)."""
        out: dict[int, tuple[float, float]] = {}
        taken_units: set[int] = set()
        open_obj = [o for o in view.obs.get("objectives", []) if view.seat not in o.get("taken_by", [])]
        pairs: list[tuple[float, int, tuple[float, float]]] = []
        for o in open_obj:
            at = (float(o["at"][0]), float(o["at"][1]))
            for u in view.mine:
                if u.shaken or u.engaged or u.move <= 0:
                    continue
                turns = max(0.0, math.dist(u.centre, at) - OBJECTIVE_HOLD) / max(u.move * 2, 1.0)
                pairs.append((turns - 0.001 * float(o.get("vp", 0)), u.id, at))
        used: set[tuple[float, float]] = set()
        for _, uid, at in sorted(pairs):
            if uid in taken_units or at in used:
                continue
            if _turns_left(view) * 1.0 < 0:
                continue
            out[uid] = at
            taken_units.add(uid)
            used.add(at)
        return out

    def _threat(self, view: View, u: UnitView, tray: Tray) -> float:
        """The worth the enemy could take from ``u`` standing at ``tray`` by charging it next turn."""
        total = 0.0
        for e in view.foes:
            if e.shaken or not e.melee_per_model:
                continue
            if farther_than(e.tray, tray, e.move + 0.5):
                continue
            x = self._exchange(view, e, u, True)
            total += max(0.0, x.net)
        return total

    def _goal(
        self, view: View, u: UnitView, objectives: dict[int, tuple[float, float]]
    ) -> tuple[float, float] | None:
        """Where the unit is going: its objective, else its best target."""
        if u.id in objectives:
            return objectives[u.id]
        if u.missile is not None:
            best: tuple[float, UnitView] | None = None
            for e in view.foes:
                armour = e.armour + 1
                dice = [str(c) for c in u.missile.get("dice", [])] * u.models
                s = worth(strike(pool_of(dice), e, armour, close_combat=False), e)
                s -= 0.05 * math.dist(u.centre, e.centre)
                if best is None or s > best[0]:
                    best = (s, e)
            return None if best is None else best[1].centre
        scored: list[tuple[float, UnitView]] = []
        for e in view.foes:
            x = self._exchange(view, u, e, True)
            scored.append((x.net - 1.0 * math.dist(u.centre, e.centre), e))
        if not scored:
            return None
        return max(scored, key=lambda s: s[0])[1].centre

    def _moves(self, view: View, previews: list[JSON]) -> Iterator[Any]:
        objectives = self._objective_goals(view)
        shots = self._shot_choices(view, previews)
        movers = [u for u in view.mine if u.actions_left > 0 and not u.engaged and u.move > 0.5]
        movers.sort(key=lambda u: (u.id not in objectives, u.id))
        for u in movers:
            if u.shaken or u.id in self._stuck[1]:
                continue  # a shaken unit rallies (above) or stands; a stuck one waits for its next turn
            widen = _wider_front(view, u)
            if widen is not None:
                yield widen
            if u.order == "tight" and u.actions_left < 2:
                continue  # tight order: no second move in a turn (CD-AC-08 designed)
            if u.id in objectives and math.dist(u.centre, objectives[u.id]) <= OBJECTIVE_HOLD:
                continue
            if u.attacked and u.missile is not None:
                continue  # it has shot: it stays in range
            if u.id in shots and int(shots[u.id][1].get("parts", {}).get("band", 0)) == 0 and not u.attacked:
                continue  # a shot at the best band is there: shoot (below) rather than move
            goal = self._goal(view, u, objectives)
            if goal is None:
                continue
            yield from self._move_towards(view, u, goal, to_objective=u.id in objectives)

    def _move_towards(
        self, view: View, u: UnitView, goal: tuple[float, float], *, to_objective: bool
    ) -> Iterator[Any]:
        cx, cy = u.centre
        span = math.dist(u.centre, goal)
        if span < 0.3:
            return
        base = math.atan2(goal[1] - cy, goal[0] - cx)
        stay_threat = self._threat(view, u, u.tray)
        friends = [f for f in view.mine if f.id != u.id]
        for turn in (0.0, *TURNS):  # straight on first; a turn off the line only when that is refused
            options: list[tuple[float, Any]] = []
            ang = base + math.radians(turn)
            d = (math.cos(ang), math.sin(ang))
            for share in MOVE_SHARES:
                length = min(u.move * share, span - (1.0 if to_objective else 0.0)) - 0.02
                if length < 0.5:
                    continue
                to = _round((cx + d[0] * length, cy + d[1] * length))
                facing = round(facing_towards(to, goal), 1) if not to_objective else round(u.tray.facing, 1)
                tray = u.at(to, facing)
                if not all(farther_than(tray, e.tray, KEEP_OFF) for e in view.foes):
                    continue
                if not (0 <= to[0] <= view.width and 0 <= to[1] <= view.height):
                    continue
                if any(_sweeps_through(u, to, f) for f in friends):
                    continue
                nearer = span - math.dist(to, goal)
                score = PROGRESS_WEIGHT * nearer - THREAT_WEIGHT * (self._threat(view, u, tray) - stay_threat)
                score -= 0.5 * abs(turn) / 30.0
                if score <= 0.0:
                    continue
                options.append((score + self._jitter(), act.Move(u.id, (to,), facing)))
            for _, action in sorted(options, key=lambda s: -s[0])[:MOVES_TRIED]:
                yield action


def _wider_front(view: View, u: UnitView) -> Any | None:
    """A reform to a wider front for a formation unit whose last action of the turn is left and that an
    enemy could meet next turn: its whole front rank fights (CD-AC-04), so more files more dice; a spear
    unit's second rank fights already (CD-FI-02)."""
    if u.actions_left != 1 or not fights_together(u.order) or u.second_rank or u.files >= u.models:
        return None
    if not any(not farther_than(u.tray, e.tray, max(u.move, e.move) + WIDEN_MARGIN) for e in view.foes):
        return None
    return act.Reform(u.id, u.order, min(u.models, 2 * u.files))


def _sweeps_through(u: UnitView, to: tuple[float, float], f: UnitView) -> bool:
    """Whether moving ``u``'s centre straight to ``to`` surely crosses the friend ``f`` (the rules refuse it,
    CD-MS-01): the friend's centre is nearer the path than the two trays' inner half-widths."""
    (ax, ay), (bx, by), (px, py) = u.centre, to, f.centre
    dx, dy = bx - ax, by - ay
    span2 = dx * dx + dy * dy
    t = 0.0 if span2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / span2))
    near = math.dist((ax + t * dx, ay + t * dy), (px, py))
    inner = 0.5 * min(u.tray.frontage, u.tray.depth) + 0.5 * min(f.tray.frontage, f.tray.depth)
    return near < inner


def _cost(book: Any, key: str) -> int:
    """The Will a spell costs (a god's gift costs none)."""
    return int(getattr(book.power(key), "cost", 0) or 0)


def _powers(c: UnitView) -> list[str]:
    """The spells a unit knows and the gifts its God-likeness reaches (CD-CH-26), from the data."""
    keys = [str(k) for k in c.data.get("spells", [])]
    god = getattr(c.p, "god", None)
    if god:
        keys += magic_rules().gifts_of(str(god), int(c.data.get("god_like", 0)))
    return keys


def _turns_left(view: View) -> int:
    return view.rounds_left
