"""The Forged upon an Anvil bot: sealed bids solved as games, activations planned by look-ahead.

What it reads: only what its seat may know. Every decision starts from ``game.resample_hidden(state, seat,
pick)`` with a fixed ``pick`` (always the first choice), so any fact hidden from the seat (the other side's
sealed bid or army list) is replaced by the same stand-in whatever it really is: the bot cannot read it, and
the same observation always gets the same answer. Its mixed bids are drawn with a generator seeded by a
digest of its own observation.

How it decides, by phase:

* muster, terrain, Seats: ``field.py`` (a legal army from the budget, features out of its way, the Seat in
  the corner of its own edge);
* terrain bid and turn bid: ``bids.py`` solves the bid as a matrix game, the payoff of each pair of bids
  being a cheap evaluation of the outcome. The turn bid is general-sum, posed from seat 0's side so that
  two bots agree on its solution: each side's CP are worth what they buy (``cp_marginals``: the General's
  unit first, most from turn 2 on for FA-DP-03's deadline, then its other deployments, then activations
  worth a share of the best strike on offer), less a share of the other side's; going first is worth the
  best single strike either side could make now, in proportion to the CP to make it; a first tie is worth
  the re-bid game with both limits lowered, a second tie stands (FA-GT-04/05);
* activation: a look-ahead over the engine's own ``apply`` (so every combat foreseen is the exact matrix
  outcome, bounce backs and chains included): every unit it may activate, and a few entry points for each
  unit it may deploy, are looked at two actions deep, and the best few planned in full by a beam search
  scored by ``evaluation.evaluate``. The actions tried are made from the spec's action shapes (toggles that
  fit the moment, engages and shots at enemies in reach, spells, Steady, and moves: a spread of directions,
  straight at the near enemies, to spots in front of, beside and behind them, round them by a corner,
  shortened to fit halving terrain, screened for plain illegality and ranked by a quick score of the moved
  unit), and ``apply`` judges each, which costs far less than asking for every legal action at every node.
  The opponent's interruptions (Counterattack, Hero of the Day, Dispel) are answered in the look-ahead by
  whichever is worst for the bot. The best activation is taken, or ``Pass`` if none beats it; the plan is
  kept and followed while the game goes as planned;
* interruption: each answer (the stratagem or Decline) is applied on a copy, the opponent's later answers
  looked at as above, and the better kept: Counterattack when it pays, Hero of the Day when it saves the
  General, and CP kept back for the second when both cannot be paid.

The search budgets count ``apply`` calls, not seconds, so the bot's choices never depend on the machine's
speed (``iwgt simulate`` is deterministic by seed); the budgets are set so that a decision on the battle
scenario takes well under the 1 s the issue asks for (``benchmarks/anvil_bot.py``). A bot built with a
``time_guard`` (seconds) stops a search that runs past it and takes the best plan found so far: a safety net
for a table on a slow machine, at the price of that determinism.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from iwgt.core.errors import GameError
from iwgt.core.protocol import Seat
from iwgt.games.anvil.actions import (
    Action,
    Activate,
    Bid,
    Cast,
    Decline,
    Deploy,
    EndActivation,
    Engage,
    Move,
    Pass,
    Shoot,
    Steady,
    Stratagem,
    TerrainBid,
)
from iwgt.games.anvil.bot import bids
from iwgt.games.anvil.bot.evaluation import (
    best_strike,
    evaluate,
    gap,
    harm_value,
    move_of,
    target_of,
    tray_of,
    unit_score,
)
from iwgt.games.anvil.bot.field import choose_army, choose_feature, choose_seat
from iwgt.games.anvil.flow import BID_ROUNDS, general_late, tie_first
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState, Unit
from iwgt.geometry.trays import (
    Tray,
    facing_towards,
    facing_vector,
    halved_length,
    tray_gap,
    trays_overlap,
    within_table,
)

ROOT_BUDGET = 200
"""The ``apply`` calls the full planning of the best first actions may make (about 1-2 ms each)."""
FIRST_POOL = 320
"""The ``apply`` calls shared by the two-step look at every first action."""
CROWD = 20
"""Units on the table beyond which the search budgets shrink in proportion (the great battle's crowds)."""
FIRST_MIN = 10
"""The fewest ``apply`` calls each first action gets in that look, however many there are."""
BEAM = 4
"""States kept at each depth of an activation's beam search."""
DEPTH = 3
"""Actions planned ahead within one activation after the first (a stratagem, a move, an engage...)."""
MOVES = 5
"""Move destinations tried at each step (the best by a quick score, out of those the bot makes)."""
DEPLOYS = 3
"""Entry points tried for each unit still to deploy."""
FINALISTS = 4
"""First actions whose activation is planned in full (the others are scored two steps deep)."""
CP_USE_ON_TABLE = 3
"""CP a unit on the table can usefully spend in a turn (an activation and a stratagem)."""
SPARE_CP = 0.25
"""What a CP beyond those a side can usefully spend is still worth, as a share of ``CP_VALUE``."""
CP_VALUE = 0.3
"""A CP's worth in the bid game, in the evaluation's points (about what one activation gains)."""
STRIKE_SHARE = 0.5
"""The share of the best strike on offer a CP is worth in the bid game (not every activation strikes)."""
DEPLOY_CP = 0.4
"""A CP's worth towards deploying a unit (1 CP and its DCP): before any strike is possible, what CP buy."""
GENERAL_EARLY = 2.0
"""Deploying the General's unit in turn 1 (FA-DP-03: turn 2 is still to come), spread over its cost."""
GENERAL_DEADLINE = 6.0
"""Deploying the General's unit from turn 2 on: the last turn before the deadline, or the way out of the
1-CP limit (FA-DP-03); a turn without it costs every later turn's CP."""
RIVAL = 0.5
"""How much the other side's CP count against ours in the bid game (less than our own: a tie that burns
both sides' CP is bad for both, and neither bot seeks it)."""
STRIKE_CP = 3
"""CP a first strike needs (an activation and Hammerblow): going first with fewer is worth that share."""
FIRST_BASE = 0.1
"""What going first is worth when no strike is possible either way (the tempo alone)."""
PLACE_FIRST = 0.05
"""What placing the first terrain feature is worth in the terrain bid."""
MIN_STEP = 0.5
"""The shortest move (inches) worth planning."""
NEAR_ENEMIES = 3
"""Enemies (the nearest) the bot's own moves are aimed at, besides the one that wins the game."""
CLEAR = 1.0
"""A move may not end within this many inches of an enemy tray (FA-MS-04)."""
SLACK = 0.15
"""Inches kept beyond ``CLEAR`` by the spots beside an enemy (rounding must not bring them within 1")."""
REACH_SLACK = 0.5
"""Enemies this much beyond the movement left are still tried for an engage (the engine measures)."""
NEAR_SLACK = 2.0
"""An enemy within the unit's Move and this many inches is near (Brace, Skirmishing, no March)."""
SPELL_USERS = ("wizard", "monster")
"""Who casts Spells or uses Naturals (FA-ST-06)."""
SPELL_RANGE = 12.0
"""The range of Fireball, Transfix and Drain Life (FA-SN)."""
STEADY_RANGE = 6.0
"""Steady reaches a friend this near (FA-SH-02)."""
SUMMON_AHEAD = 4.0
"""Inches ahead of the caster a Summon Subjects Troop is placed."""
GRID_DIRECTIONS = (0.0, 45.0, -45.0, 90.0, -90.0, 180.0)
"""Directions (degrees from the unit's facing) of the bot's spread of moves."""
GRID_SHARES = (1.0, 0.5)
"""Shares of the movement left the spread goes."""
ALLOWANCE_SLACK = 0.01
"""Inches short of the whole allowance a move stops (rounding must not take it beyond)."""
SHORTENINGS = 4
"""Times a move through halving terrain is shortened to fit the movement left."""
BISECTIONS = 12
"""Halvings that find how far a straight move towards an enemy may go."""


def seeded_unit(data: Any) -> float:
    """A number in [0, 1) from a digest of ``data`` (our observation): the same view, the same draw."""
    raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    digest = hashlib.sha256(raw).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def cp_marginals(state: AnvilState, seat: int) -> list[float]:
    """What each further CP a seat gets this turn is worth, best first (the bid game's CP values): towards
    deploying its General's unit (``GENERAL_EARLY`` in turn 1, ``GENERAL_DEADLINE`` from turn 2,
    FA-DP-03), its other units (``DEPLOY_CP`` each), and activating those on the table (a share of the best
    strike on offer, at least ``CP_VALUE``)."""
    from iwgt.games.anvil.army import deploy_cost

    per_active = max(CP_VALUE, STRIKE_SHARE * best_strike(state, seat))
    deadline = rules().constants.late_general_turn - 1
    out: list[float] = []
    for u in state.units:
        if u.seat != seat or u.destroyed or u.is_seat:
            continue
        if u.tray is not None:
            out += [per_active] * CP_USE_ON_TABLE
            continue
        late = u.general and general_late(state, seat)
        cost = rules().constants.late_general_cp if late else deploy_cost(u)
        if u.general:
            worth = GENERAL_DEADLINE if state.turn >= deadline else GENERAL_EARLY
            out += [worth / max(cost, 1)] * cost
        else:
            out += [DEPLOY_CP] * cost
    out.sort(reverse=True)
    return out


def cp_worth(marginals: Sequence[float], cp: int) -> float:
    """What ``cp`` CP are worth to a side with these marginal values (``cp_marginals``); CP beyond them
    are still worth ``SPARE_CP`` of ``CP_VALUE`` (another activation may find a use)."""
    used = min(cp, len(marginals))
    return float(sum(marginals[:used])) + SPARE_CP * CP_VALUE * (cp - used)


@dataclass(slots=True)
class Plan:
    """The rest of an activation as planned: the state it was planned from and the actions still to take."""

    state: AnvilState
    actions: list[Action] = field(default_factory=list)


@dataclass(slots=True)
class Node:
    """A state reached in the look-ahead, its score, and the actions that led there from the root."""

    value: float
    state: AnvilState
    path: tuple[Action, ...]


class AnvilBot:
    """The built-in bot (see the module's description); one object may play both seats."""

    def __init__(self, game: Any, time_guard: float | None = None, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.time_guard = time_guard
        self.plans: dict[int, Plan] = {}
        self.applies = 0
        self.deadline = math.inf

    # ------------------------------------------------------------------ the entry point

    def choose(self, state: AnvilState, seat: Seat) -> Action:
        """The bot's action for the seat now (``apply`` accepts it)."""
        view: AnvilState = self.game.resample_hidden(state, seat, lambda n: 0)
        legal: Sequence[Action] = self.game.legal_actions(view, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        self.applies = 0
        self.deadline = math.inf if self.time_guard is None else time.perf_counter() + self.time_guard
        phase = view.phase
        if phase == "muster":  # the legal list holds only the suggested army; any legal army is accepted
            return self._checked(view, choose_army(view, legal), legal)
        if len(legal) == 1:
            return legal[0]
        if phase == "terrain_bid":
            return self._terrain_bid(view, seat, legal)
        if phase == "terrain":
            return choose_feature(view, seat, legal)
        if phase == "seats":
            return choose_seat(view, seat, legal)
        if phase == "bid":
            return self._turn_bid(view, seat, legal)
        if phase == "interrupt":
            return self._interrupt(view, seat, legal)
        if phase == "activation":
            return self._activation(view, seat, legal)
        return legal[0]

    def _checked(self, state: AnvilState, action: Action, legal: Sequence[Action]) -> Action:
        """The action if ``apply`` takes it, else the first legal one."""
        try:
            self.game.apply(state, action)
        except GameError:
            return legal[0]
        return action

    # ------------------------------------------------------------------ sealed bids

    def _draw(self, state: AnvilState, seat: int, strategy: Sequence[float]) -> int:
        """An index drawn from a mixed strategy, seeded by our own observation."""
        u = seeded_unit([self.seed, seat, state.phase, state.turn, self.game.observe(state, seat)])
        return bids.draw(bids.tidy(strategy), u)

    def _terrain_bid(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
        """The terrain bid (FA-FB-01..05): extra CP for 4 or 5 features, and placing first, as a game."""
        amounts = sorted({a.amount for a in legal if isinstance(a, TerrainBid)})
        if not amounts:
            return legal[0]
        c = rules().constants
        top = max(amounts)

        def value(ours: int, theirs: int) -> float:
            placed_first = ours > theirs or (ours == theirs and seat == 0)
            return CP_VALUE * (c.extra_for(ours) - c.extra_for(theirs)) + (
                PLACE_FIRST if placed_first else -PLACE_FIRST
            )

        _, solution = bids.terrain_bid_game(top, value)
        pick = self._draw(state, seat, solution.rows)
        return TerrainBid(pick) if pick in amounts else TerrainBid(top)

    def _turn_bid(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
        """The turn bid (FA-GT-01..05): CP against going first, ties as the re-bid game (a second tie
        standing), solved as a general-sum game posed from seat 0's side (``bids.turn_bid_game``)."""
        amounts = sorted({a.amount for a in legal if isinstance(a, Bid)})
        if not amounts:
            return legal[0]
        worth = (cp_marginals(state, 0), cp_marginals(state, 1))
        # Activations alternate, so going first buys one strike before the other side's: the best single
        # strike either side could make now.
        lead = FIRST_BASE + (best_strike(state, 0) + best_strike(state, 1)) / 2

        def outcome(cp0: int, cp1: int, first: int) -> tuple[float, float]:
            # Going first is worth a strike only with the CP to make it: first with 0 CP does nothing.
            tempo = lead * min(cp0, cp1, STRIKE_CP) / STRIKE_CP
            tempo = tempo if first == 0 else -tempo
            v0, v1 = cp_worth(worth[0], cp0), cp_worth(worth[1], cp1)
            return v0 - RIVAL * v1 + tempo, v1 - RIVAL * v0 - tempo

        _, solution = bids.turn_bid_game(
            state.limits, outcome, tie_first(state), BID_ROUNDS - state.bid_round
        )
        pick = self._draw(state, seat, solution.rows if seat == 0 else solution.cols)
        return Bid(pick) if pick in amounts else Bid(max(amounts))

    # ------------------------------------------------------------------ interruptions

    def _interrupt(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
        """Each answer applied on a copy, the better kept (Decline first on equal scores)."""
        ordered = sorted(legal, key=lambda a: 0 if isinstance(a, Decline) else 1)
        best: tuple[float, Action] | None = None
        for action in ordered:
            after = self._step(state, seat, action)
            if after is None:
                continue
            value = evaluate(after, seat)
            if best is None or value > best[0] + 1e-9:
                best = (value, action)
        return best[1] if best is not None else legal[0]

    # ------------------------------------------------------------------ the look-ahead machinery

    def _apply(self, state: AnvilState, action: Action) -> AnvilState | None:
        """The state after ``action`` (None if the engine refuses it), counted against the budget."""
        self.applies += 1
        try:
            after, _ = self.game.apply(state, action)
        except GameError:
            return None
        result: AnvilState = after
        return result

    def _step(self, state: AnvilState, seat: int, action: Action, depth: int = 2) -> AnvilState | None:
        """``action`` applied, then any interruption the OTHER seat is asked answered as worst for us (and
        any of ours as best), ``depth`` answers deep."""
        after = self._apply(state, action)
        if after is None:
            return None
        return self._settle(after, seat, depth)

    def _settle(self, state: AnvilState, seat: int, depth: int) -> AnvilState:
        """Resolve pending interruption prompts by the answer worst for us (theirs) or best (ours)."""
        if state.phase != "interrupt" or depth <= 0:
            return state
        asked = self.game.to_move(state)
        if asked is None:
            return state
        options = self.game.legal_actions(state, asked)
        best: tuple[float, AnvilState] | None = None
        for a in options:
            after = self._apply(state, a)
            if after is None:
                continue
            after = self._settle(after, seat, depth - 1)
            v = evaluate(after, seat)
            v = v if asked == seat else -v
            if best is None or v > best[0] + 1e-9:
                best = (v, after)
        return state if best is None else best[1]

    # ------------------------------------------------------------------ activations

    def _mine(self, state: AnvilState, seat: int) -> bool:
        """Whether our activation is still going on (so more actions may be planned in it)."""
        act = state.activation
        return state.phase == "activation" and act is not None and act.seat == seat

    def _activation(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
        """Follow the plan if the game went as planned; else plan afresh."""
        plan = self.plans.get(seat)
        if plan is not None and plan.state == state and plan.actions:
            action = plan.actions.pop(0)
            after = self._step(state, seat, action)
            if after is not None:
                plan.state = after
                return action
        self.plans.pop(seat, None)
        if state.activation is None:
            path = self._choose_activation(state, seat, legal)
        else:
            path = self._continue(state, seat, legal)
        action = path[0]
        after = self._step(state, seat, action)
        if after is not None and len(path) > 1:
            self.plans[seat] = Plan(after, list(path[1:]))
        return action

    def _continue(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> tuple[Action, ...]:
        """The rest of an activation already begun (after a replan): its best continuation."""
        node = self._beam(Node(evaluate(state, seat), state, ()), seat, ROOT_BUDGET)
        if node.path:
            return node.path
        end = next((a for a in legal if isinstance(a, EndActivation)), None)
        return (end if end is not None else legal[0],)

    def _choose_activation(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> tuple[Action, ...]:
        """The unit to activate or deploy and its planned activation, or Pass.

        Every first action is looked at two steps deep on a narrow beam (a unit is worth what it can do,
        not where it stands: a toggle then a move, a move then an engage); the best few are then planned
        in full with what is left of the budget.
        """
        firsts = self._first_actions(state, seat, legal)
        # Every apply and score costs more with more units on the table: the budgets shrink to match.
        crowd = max(1.0, len(state.on_table()) / CROWD)
        each = max(FIRST_MIN, int(FIRST_POOL / crowd) // max(len(firsts), 1))
        scored: list[tuple[Node, Node]] = []  # (two steps deeper, the first action's own node)
        for a in firsts:
            if self._late():
                break
            after = self._step(state, seat, a)
            if after is None:
                continue
            first = Node(evaluate(after, seat), after, (a,))
            scored.append((self._beam(first, seat, self.applies + each, depth=2, width=2), first))
        scored.sort(key=lambda pair: -pair[0].value)
        best: Node | None = scored[0][0] if scored else None
        finalists = scored[:FINALISTS]
        budget = self.applies + int(ROOT_BUDGET / crowd)
        for i, (_, first) in enumerate(finalists):
            share = max(budget - self.applies, 0) // (len(finalists) - i)
            deep = self._beam(first, seat, self.applies + share)
            if best is None or deep.value > best.value + 1e-9:
                best = deep
        pass_action = next((a for a in legal if isinstance(a, Pass)), None)
        if pass_action is not None:
            after = self._step(state, seat, pass_action)
            if after is not None and (best is None or evaluate(after, seat) >= best.value - 1e-9):
                return (pass_action,)
        if best is None:
            return (pass_action if pass_action is not None else legal[0],)
        return best.path

    def _late(self) -> bool:
        """Whether the decision has run past its time guard (if the bot has one): then search stops."""
        return self.deadline != math.inf and time.perf_counter() > self.deadline

    def _beam(self, root: Node, seat: int, limit: int, depth: int = DEPTH, width: int = BEAM) -> Node:
        """The best node a beam search reaches within our activation, ``depth`` actions beyond ``root``."""
        best = root
        frontier = [root]
        for _ in range(depth):
            children: list[Node] = []
            for node in frontier:
                if not self._mine(node.state, seat) or self._late():
                    continue
                for a in self._candidates(node.state, seat):
                    if self.applies >= limit or self._late():
                        break
                    after = self._step(node.state, seat, a)
                    if after is None:
                        continue
                    children.append(Node(evaluate(after, seat), after, (*node.path, a)))
            if not children:
                break
            children.sort(key=lambda n: -n.value)
            frontier = children[:width]
            if frontier[0].value > best.value + 1e-9:
                best = frontier[0]
            if self.applies >= limit or self._late():
                break
        return best

    # ------------------------------------------------------------------ candidate actions

    def _first_actions(self, state: AnvilState, seat: int, legal: Sequence[Action]) -> list[Action]:
        """Each unit we may activate, and a few entry points for each unit we may deploy."""
        out: list[Action] = [a for a in legal if isinstance(a, Activate)]
        deploys: dict[int, list[Deploy]] = {}
        for a in legal:
            if isinstance(a, Deploy):
                deploys.setdefault(a.unit, []).append(a)
        for uid, options in deploys.items():
            out.extend(self._entries(state, seat, state.unit(uid), options))
        return out

    def _entries(self, state: AnvilState, seat: int, unit: Unit, options: list[Deploy]) -> list[Deploy]:
        """A few entry points for a unit: nearest the enemy target, nearest the best prey, and the middle."""
        if len(options) <= DEPLOYS:
            return options
        width = state.scenario.spec.width
        goals: list[float] = [width / 2]
        target = target_of(state, seat)
        if target is not None:
            goals.insert(0, tray_of(target).centre[0])
        prey = self._prey(state, seat, unit)
        if prey is not None:
            goals.insert(0, tray_of(prey).centre[0])
        chosen: list[Deploy] = []
        own = [a for a in options if a.edge == "own" and a.x is not None]
        pool = own or options
        for gx in goals:
            pick = min(pool, key=lambda a: abs((a.x if a.x is not None else (a.y or 0.0)) - gx))
            if pick not in chosen:
                chosen.append(pick)
        others = [a for a in options if a not in chosen and a.edge != "own"]
        chosen.extend(others[: max(0, DEPLOYS - len(chosen))])
        return chosen[:DEPLOYS] if len(chosen) > DEPLOYS else chosen

    def _prey(self, state: AnvilState, seat: int, unit: Unit) -> Unit | None:
        """The enemy on the table this unit would harm most by the matrix (front), if any."""
        from iwgt.games.anvil.bot.evaluation import cell_damage

        best: tuple[float, Unit] | None = None
        for e in state.units:
            if e.seat == seat or not e.on_table:
                continue
            dmg = cell_damage(unit.type, e.type, "flank") or 0
            v = harm_value(state, e, dmg)
            if best is None or v > best[0]:
                best = (v, e)
        return None if best is None else best[1]

    def _candidates(self, state: AnvilState, seat: int) -> list[Action]:
        """The actions worth trying next in our activation, made from the spec's action shapes (``apply``
        judges each: asking the engine for all its legal actions at every node would cost far more):
        toggles that fit the moment, engages and shots at enemies in reach, spells, Steady, and the best
        few moves."""
        u = state.active
        act = state.activation
        if u is None or u.tray is None or act is None:
            return []
        here = u.tray
        out: list[Action] = []
        used = set(act.stratagems)
        enemies = [(gap(here, tray_of(e)), e) for e in state.enemies(seat)]
        enemies.sort(key=lambda pair: (pair[0], pair[1].id))
        reach = act.allowance
        in_reach = [e for g, e in enemies if g <= reach + REACH_SLACK]
        near = any(g <= move_of(u) + NEAR_SLACK for g, _ in enemies)
        shooter = u.has("shooter")
        in_range = [e for g, e in enemies if g <= rules().constants.ballistics_front] if shooter else []
        for e in in_reach:
            out.append(Engage(u.id, e.id))
        for e in in_range:
            out.append(Shoot(u.id, e.id))
        if u.type in SPELL_USERS:
            for g, e in enemies:
                if g > SPELL_RANGE:
                    break
                for spell in ("fireball", "drain_life", "transfix") if u.type == "wizard" else ("fireball",):
                    out.append(Cast(u.id, spell, target=e.id))
            if u.general and u.type == "wizard":
                fx, fy = facing_vector(here.facing)
                spot = (
                    round(here.centre[0] + fx * SUMMON_AHEAD, 2),
                    round(here.centre[1] + fy * SUMMON_AHEAD, 2),
                )
                out.append(Cast(u.id, "summon_subjects", point=spot, facing=here.facing))
        if u.general:
            for f in state.on_table(seat):
                if (
                    f.id != u.id
                    and not f.is_seat
                    and f.hp < f.start_hp
                    and gap(here, tray_of(f)) <= STEADY_RANGE
                ):
                    out.append(Steady(u.id, f.id))
        if "hammerblow" not in used and (in_reach or in_range):
            out.append(Stratagem("hammerblow"))
        if not act.moved and not act.engaged:
            if "brace" not in used and near:
                out.append(Stratagem("brace"))
            if "march" not in used and not near and act.allowance > 0:
                out.append(Stratagem("march"))
            if "skirmishing" not in used and u.type == "troop" and near and not in_reach:
                out.append(Stratagem("skirmishing"))
        moves = self._own_grid(state, u) + self._custom_moves(state, seat)
        return out + self._best_moves(state, seat, self._affordable(state, moves))

    def _affordable(self, state: AnvilState, moves: list[Move]) -> list[Move]:
        """Each move shortened along its line until its cost (halving terrain counts double, FA-MV-02) fits
        the movement left; duplicates dropped."""
        act = state.activation
        u = state.active
        if act is None or u is None or u.tray is None:
            return moves
        slow = [f for f in state.terrain() if f.halves]
        if not slow or "fly" in act.stratagems:
            return moves
        start = u.tray.centre
        budget = act.allowance - ALLOWANCE_SLACK
        out: list[Move] = []
        seen: set[tuple[float, float]] = set()
        for m in moves:
            if len(m.path) > 1:  # a path round an enemy: the engine measures it
                out.append(m)
                continue
            to = m.path[-1]
            for _ in range(SHORTENINGS):
                cost = halved_length(start, to, slow)
                if cost <= budget:
                    break
                k = budget / cost
                to = (
                    math.floor((start[0] + (to[0] - start[0]) * k) * 100) / 100,
                    math.floor((start[1] + (to[1] - start[1]) * k) * 100) / 100,
                )
            if math.dist(start, to) < MIN_STEP or to in seen:
                continue
            seen.add(to)
            out.append(Move(m.unit, (to,), m.facing))
        return out

    def _own_grid(self, state: AnvilState, u: Unit) -> list[Move]:
        """A spread of straight moves: a few directions from the unit's facing at full and half allowance,
        each ending facing the nearest enemy (``apply`` refuses those that cross or end badly)."""
        act = state.activation
        if act is None or u.tray is None or act.allowance < MIN_STEP:
            return []
        here = u.tray
        enemies = state.enemies(u.seat)
        out: list[Move] = []
        for rel in GRID_DIRECTIONS:
            dx, dy = facing_vector(here.facing + rel)
            for share in GRID_SHARES:
                dist = act.allowance * share - ALLOWANCE_SLACK
                if dist < MIN_STEP:
                    continue
                to = (round(here.centre[0] + dx * dist, 2), round(here.centre[1] + dy * dist, 2))
                if enemies:
                    nearest = min(enemies, key=lambda e: math.dist(tray_of(e).centre, to))
                    facing = round(facing_towards(to, tray_of(nearest).centre), 1)
                else:
                    facing = here.facing
                out.append(Move(u.id, (to,), facing))
        return out

    def _custom_moves(self, state: AnvilState, seat: int) -> list[Move]:
        """Moves the engine's spread may not offer: straight at each near enemy (stopping short of 1"), and
        to a spot facing its flank or rear from where an engage strikes that side (``apply`` judges them)."""
        u = state.active
        act = state.activation
        if u is None or u.tray is None or act is None or act.allowance < MIN_STEP:
            return []
        here = u.tray
        enemies = sorted(state.enemies(seat), key=lambda e: gap(here, tray_of(e)))[:NEAR_ENEMIES]
        target = target_of(state, seat)
        if target is not None and target not in enemies:
            enemies.append(target)
        out: list[Move] = []
        for e in enemies:
            et = tray_of(e)
            # Straight at it, as far as the allowance goes without ending within 1" of an enemy.
            dx, dy = et.centre[0] - here.centre[0], et.centre[1] - here.centre[1]
            d = math.hypot(dx, dy)
            if d > 1e-6:
                ux, uy = dx / d, dy / d
                lo, hi = 0.0, min(act.allowance, d)
                for _ in range(BISECTIONS):
                    mid = (lo + hi) / 2
                    spot = here.moved((here.centre[0] + ux * mid, here.centre[1] + uy * mid))
                    if all(gap(spot, tray_of(o)) >= CLEAR + SLACK for o in state.enemies(seat)):
                        lo = mid
                    else:
                        hi = mid
                if lo >= MIN_STEP:
                    to = (round(here.centre[0] + ux * lo, 2), round(here.centre[1] + uy * lo, 2))
                    out.append(Move(u.id, (to,), round(facing_towards(to, et.centre), 1)))
            # In front of it, beside its flanks and behind it, facing it (from there an engage strikes that
            # side); a spot out of reach is walked towards as far as the allowance goes.
            fwd, right = et.axes()
            side_off = et.frontage / 2 + CLEAR + SLACK + here.depth / 2
            end_off = et.depth / 2 + CLEAR + SLACK + here.depth / 2
            for vx, vy, off in ((fwd[0], fwd[1], end_off), (right[0], right[1], side_off),
                                (-right[0], -right[1], side_off), (-fwd[0], -fwd[1], end_off)):  # fmt: skip
                aim = (et.centre[0] + vx * off, et.centre[1] + vy * off)
                far = math.dist(aim, here.centre)
                if far < MIN_STEP:
                    continue
                share = min(1.0, (act.allowance - ALLOWANCE_SLACK) / far)
                to = (
                    round(here.centre[0] + (aim[0] - here.centre[0]) * share, 2),
                    round(here.centre[1] + (aim[1] - here.centre[1]) * share, 2),
                )
                facing = round(facing_towards(to, et.centre), 1)
                out.append(Move(u.id, (to,), facing))
                if share < 1.0:
                    continue
                # The straight way may cross the enemy's tray: round it by one corner either way.
                for corner in ((here.centre[0], to[1]), (to[0], here.centre[1])):
                    legs = math.dist(here.centre, corner) + math.dist(corner, to)
                    if legs <= act.allowance - ALLOWANCE_SLACK and math.dist(corner, to) >= MIN_STEP:
                        out.append(Move(u.id, (corner, to), facing))
        return out

    def _in_the_way(self, end: Tray, owner: int, other: Tray, seat: int) -> bool:
        """Whether a tray set down at ``end`` would overlap ``other`` or stand within 1" of it (an enemy);
        the cheap lower bound on the gap settles most pairs without the exact test."""
        if gap(end, other) > CLEAR + SLACK:
            return False
        return trays_overlap(end, other) or (owner != seat and tray_gap(end, other) < CLEAR)

    def _best_moves(self, state: AnvilState, seat: int, moves: list[Move]) -> list[Action]:
        """The ``MOVES`` moves whose end scores best, scored without ``apply`` (the tray set down there),
        among those whose end is plainly a place to stand (on the table, on no tray, 1" from every enemy)."""
        u = state.active
        if u is None or u.tray is None:
            return list(moves[:MOVES])
        spec = state.scenario.spec
        others = [(o.seat, tray_of(o)) for o in state.units if o.on_table and o.id != u.id]
        scored: list[tuple[float, int, Move]] = []
        for i, m in enumerate(moves):
            end = u.tray.moved(m.path[-1], m.facing)
            if not within_table(end, spec.width, spec.height):
                continue
            if any(self._in_the_way(end, s, t, seat) for s, t in others):
                continue
            scored.append((unit_score(state, replace(u, tray=end), seat), i, m))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [m for _, _, m in scored[:MOVES]]


__all__ = ["AnvilBot"]
