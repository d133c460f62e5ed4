"""What a Forged upon an Anvil position is worth to one seat: material, threats, progress and the win.

The score is ours minus theirs, in "DCP points" (a Troop is worth 1, a Hero 3):

* material: every unit still in the game is worth its type's DCP (the unit that wins the game, the enemy
  General's unit or Seat of Power by the scenario's ``win``, far more), part of it for being alive at all and
  the rest in proportion to its HP left; a unit still to deploy counts a little less than one on the table,
  so deploying pays once it is safe;
* threats: each unit on the table that could reach an enemy with one move and engage it (or shoot it, or
  fireball it) threatens the most that attack would take from the target by the printed matrix cell of the
  side it would strike (a side whose contact place is off the table, or NATE, counts only at half, for the
  move round to another side); the side about to act counts its threats more, since the other cannot
  answer first; a side out of CP this turn threatens at half, for the next turn;
* progress: units on the table are pulled towards the enemy's edge and towards the enemy unit that wins the
  game (harder over the last 12"), a little per inch, so that far from the enemy the bot still advances;
* the General's unit on the table in the first two turns (FA-DP-03: the bids fall to 1 CP without it);
* CP left this turn are worth a little (an activation that does nothing should not be made);
* a finished game is worth ``WIN`` either way (0 for a draw).

Everything here is a pure function of the state and the seat; the search (``search.py``) makes the states
with the engine's own ``apply`` and scores them here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

from iwgt.games.anvil.rules import fights_as, rules
from iwgt.games.anvil.state import AnvilState, Unit
from iwgt.geometry.trays import SIDE_OF_EDGE, Edge, Tray, contact_position, engaged_edge, within_table

WIN = 1000.0
"""The value of a won game (a lost one is -WIN)."""
TARGET_WORTH = 12.0
"""What the unit that wins the game is worth (the enemy General's unit or Seat of Power, by ``win``)."""
SEAT_WORTH = 3.0
"""A Seat of Power that does not decide the game is worth the DCP the turn limit counts for it (FA-MS-06)."""
ALIVE_SHARE = 0.4
"""The share of a unit's worth it keeps while it has any HP at all (the rest goes with its HP)."""
RESERVE = 0.9
"""A unit still to deploy counts at this share of its worth (deploying it pays when it is safe)."""
CP_WORTH = 0.04
"""Each CP left this turn (a pointless activation is not made; CP still go at the turn's end)."""
THREAT_ACTING = 0.5
"""Weight of the threats of the side that acts next (it strikes before the other can answer)."""
THREAT_WAITING = 0.25
"""Weight of the threats of the side that does not act next."""
PULL = 0.02
"""Value per inch closer to the enemy target, per unit of worth (capped at ``PULL_CAP``)."""
WORTH_CAP = 4.0
"""The pull of a unit grows with its worth up to this (a General is pulled like a War Machine)."""
NEAR = 12.0
"""Within this many inches of the enemy target a unit is pulled harder (``NEAR_PULL``)."""
NEAR_PULL = 0.06
"""Value per inch closer to the enemy target within ``NEAR``, per unit."""
PULL_CAP = 48.0
"""Distances beyond this many inches all count the same (the pull only matters nearer)."""
GENERAL_SAFETY = 1.0
"""Extra worth of our own General's unit on the table in the first two turns (the FA-DP-03 deadline)."""

NEXT_TURN = 0.5
"""A side out of CP this turn threatens at this share (the next turn's bid decides who strikes first)."""
NEXT_TURN_CP = 10
"""The CP a side is assumed to have in a turn not yet bid for."""


@cache
def type_dcp(kind: str) -> float:
    """The DCP of a unit type (the Seat of Power's is 0)."""
    return float(rules().deployment[kind].dcp)  # type: ignore[index]


def worth(state: AnvilState, u: Unit) -> float:
    """What one unit is worth whole: its type's DCP, or far more for the unit that decides the game."""
    win = state.options.win
    if u.is_seat:
        return TARGET_WORTH if win == "seat" else SEAT_WORTH
    base = max(type_dcp(u.type), 1.0)
    if u.general and win == "general":
        return base + TARGET_WORTH
    return base


def unit_value(state: AnvilState, u: Unit) -> float:
    """What a unit still in the game is worth now (0 once destroyed)."""
    if u.destroyed:
        return 0.0
    w = worth(state, u)
    start = max(u.start_hp, 1)
    share = ALIVE_SHARE + (1.0 - ALIVE_SHARE) * max(0, min(u.hp, start)) / start
    value = w * share
    return value * RESERVE if u.tray is None else value


def harm_value(state: AnvilState, u: Unit, damage: int) -> float:
    """What ``damage`` HP would take from unit ``u`` (all of its value if it dies)."""
    if damage <= 0 or u.destroyed:
        return 0.0
    if damage >= u.hp:
        return unit_value(state, u)
    w = worth(state, u)
    start = max(u.start_hp, 1)
    return w * (1.0 - ALIVE_SHARE) * damage / start


# ---------------------------------------------------------------- tray geometry (cheap, for scoring only)


@lru_cache(maxsize=4096)
def _axes(facing: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The tray's forward and right unit vectors (facing 0 = +y, counter-clockwise positive)."""
    r = math.radians(facing)
    return (-math.sin(r), math.cos(r)), (math.cos(r), math.sin(r))


def _extent(tray: Tray, ux: float, uy: float) -> float:
    """Half the tray's width along the unit direction (ux, uy): its support function."""
    fwd, right = _axes(tray.facing)
    along = abs(ux * fwd[0] + uy * fwd[1]) * tray.depth / 2
    return along + abs(ux * right[0] + uy * right[1]) * tray.frontage / 2


def tray_of(u: Unit) -> Tray:
    """The tray of a unit on the table (the callers ask only about units on the table)."""
    if u.tray is None:
        raise ValueError(f"unit {u.id} is not on the table")
    return u.tray


def gap(a: Tray, b: Tray) -> float:
    """About the nearest distance between two trays (exact when they face each other squarely)."""
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return 0.0
    ux, uy = dx / d, dy / d
    return max(0.0, d - _extent(a, ux, uy) - _extent(b, ux, uy))


def side_struck(attacker: Tray, defender: Tray) -> str:
    """The side of ``defender`` the engage line from ``attacker``'s centre enters (front before flank before
    rear when in doubt, FA-EN-05/06)."""
    dx = attacker.centre[0] - defender.centre[0]
    dy = attacker.centre[1] - defender.centre[1]
    fwd, right = _axes(defender.facing)
    along = dx * fwd[0] + dy * fwd[1]
    across = dx * right[0] + dy * right[1]
    if abs(along) / (defender.depth / 2) >= abs(across) / (defender.frontage / 2) - 1e-9:
        return "front" if along >= 0 else "rear"
    return "flank"


# ---------------------------------------------------------------- what a unit can do to another


def move_of(u: Unit) -> float:
    """The unit's Move with its deployment stratagems (Swiftness +6, Heavy Projectile 4)."""
    profile = rules().units[u.type]  # type: ignore[index]
    move = float(profile.move)
    if u.has("heavy_projectile"):
        return rules().stratagem("heavy_projectile").move_set or move
    if u.has("swiftness"):
        move += rules().stratagem("swiftness").move_add
    return move


def cell_damage(attacker: str, defender: str, side: str) -> int | None:
    """The matrix damage (None: NATE) of one type attacking another on one side."""
    cell = rules().matrix[fights_as(attacker)][fights_as(defender)]  # type: ignore[arg-type]
    value = getattr(cell, side)
    return value if isinstance(value, int) else None


def attack_damage(state: AnvilState, a: Unit, d: Unit) -> int:
    """The damage ``a`` would deal engaging ``d`` (0 if it cannot), Brace included.

    The side is the one the engage line from where ``a`` stands comes in by (only the front of a
    Skirmishing unit, FA-SM-10). A side that is NATE, or whose contact place is off the table (a unit
    against an edge cannot be struck from there), is no strike from here: the best other side counts at
    half, for the move it takes to get round to it.
    """
    at, dt = tray_of(a), tray_of(d)
    spec = state.scenario.spec

    def strike(edge: Edge) -> int | None:
        dmg = cell_damage(a.type, d.type, SIDE_OF_EDGE[edge])
        if dmg is None or not within_table(contact_position(at, dt, edge), spec.width, spec.height):
            return None
        return dmg

    edges: tuple[Edge, ...] = ("front",) if d.skirmishing else ("front", "left", "right", "rear")
    here = "front" if d.skirmishing else engaged_edge(at, dt)
    dmg = strike(here)
    if dmg is None:
        others = [v for e in edges if e != here and (v := strike(e)) is not None]
        dmg = max(others) // 2 if others else 0
    if d.braced:
        dmg -= 3
    return max(dmg, 0)


def _shot_damage(a: Unit, d: Unit, distance: float) -> int:
    """What a Ballistics shot from ``a`` would deal to ``d`` at ``distance`` (0 out of range or NATE)."""
    c = rules().constants
    if distance <= c.ballistics_rear:
        side = "rear"
    elif distance <= c.ballistics_flank:
        side = "flank"
    elif distance <= c.ballistics_front:
        side = "front"
    else:
        return 0
    dmg = cell_damage(a.type, d.type, side)
    if dmg is None:
        return 0
    if a.has("heavy_projectile"):
        dmg += 1
    if d.braced:
        dmg -= 3
    return max(dmg, 0)


@dataclass(frozen=True, slots=True)
class Threat:
    """The best attack one unit has on the enemy now: its target, and what it would take from it."""

    attacker: int
    target: int
    value: float


def best_threat(state: AnvilState, a: Unit, cp: int) -> Threat | None:
    """The most valuable attack unit ``a`` could make in one activation with ``cp`` CP, or None."""
    if a.is_seat or a.tray is None or a.transfixed or cp < 1:
        return None
    reach = move_of(a) + (2.0 if a.skirmishing else 0.0)
    best: Threat | None = None
    fireball = rules().stratagem("fireball")
    for d in state.units:
        if d.seat == a.seat or not d.on_table:
            continue
        g = gap(tray_of(a), tray_of(d))
        dmg = 0
        if g <= reach and not a.braced:
            dmg = attack_damage(state, a, d)
            if cp >= 3:  # Hammerblow on top (2 CP) when it can pay for it
                dmg += 1 if dmg > 0 and a.type != "wizard" else 0
        if a.has("shooter") and cp >= 4:
            dmg = max(dmg, _shot_damage(a, d, g))
        if a.type in ("wizard", "monster") and cp >= 1 + fireball.cost and g <= (fireball.range or 0):
            dmg = max(dmg, fireball.harm)
        if dmg <= 0:
            continue
        value = harm_value(state, d, dmg)
        if best is None or value > best.value + 1e-9:
            best = Threat(a.id, d.id, value)
    return best


def threats(state: AnvilState, seat: int, cp: int) -> float:
    """The sum over a seat's units of the best attack each could make (each strikes one target)."""
    total = 0.0
    for a in state.units:
        if a.seat == seat and a.on_table:
            t = best_threat(state, a, cp)
            if t is not None:
                total += t.value
    return total


def best_strike(state: AnvilState, seat: int, cp: int = NEXT_TURN_CP) -> float:
    """The most valuable single attack any of a seat's units could make now (0 if none)."""
    best = 0.0
    for a in state.units:
        if a.seat == seat and a.on_table:
            t = best_threat(state, a, cp)
            if t is not None and t.value > best:
                best = t.value
    return best


def target_of(state: AnvilState, seat: int) -> Unit | None:
    """The enemy unit that wins the game for ``seat`` (by ``win``), if it is on the table."""
    enemy = 1 - seat
    u = state.seat_of_power(enemy) if state.options.win == "seat" else state.general(enemy)
    return u if u is not None and u.on_table else None


def progress(state: AnvilState, seat: int) -> float:
    """How near the seat's mobile units stand to the enemy target (or the nearest enemy): higher is nearer."""
    goal = target_of(state, seat)
    enemies = [u for u in state.units if u.seat != seat and u.on_table]
    return sum(
        unit_progress(state, u, goal, enemies)
        for u in state.units
        if u.seat == seat and u.on_table and not u.is_seat
    )


def unit_progress(state: AnvilState, u: Unit, goal: Unit | None, enemies: list[Unit]) -> float:
    """One unit's share of ``progress``: towards the enemy's edge (where the enemy comes from: this pull
    never jumps when an enemy falls), and towards the enemy unit that wins the game when it is on the table,
    harder over the last ``NEAR`` inches."""
    here = tray_of(u)
    weight = PULL * min(worth(state, u), WORTH_CAP)
    edge = state.scenario.spec.height if u.seat == 0 else 0.0
    total = (PULL_CAP - min(abs(edge - here.centre[1]), PULL_CAP)) * weight
    if goal is not None:
        d = gap(here, tray_of(goal))
        total += (PULL_CAP - min(d, PULL_CAP)) * weight + max(0.0, NEAR - d) * NEAR_PULL
    return total


def unit_score(state: AnvilState, u: Unit, seat: int) -> float:
    """A quick score of where one unit of ``seat`` (the active one) stands, for ranking its moves: its
    progress, the best strike it has, less the worst strike an enemy has on it."""
    enemies = state.enemies(seat)
    first = acting(state)
    cp = state.cp
    w_mine = THREAT_ACTING if first == seat else THREAT_WAITING
    w_theirs = THREAT_ACTING if first == 1 - seat else THREAT_WAITING
    score = unit_progress(state, u, target_of(state, seat), enemies)
    mine = best_threat(state, u, max(cp[seat], 1))
    if mine is not None:
        score += w_mine * mine.value
    worst = 0.0
    their_cp = cp[1 - seat] if first is not None else NEXT_TURN_CP
    for e in enemies:
        t = best_threat_on(state, e, u, max(their_cp, 1))
        worst = max(worst, t)
    return score - w_theirs * worst


def best_threat_on(state: AnvilState, a: Unit, d: Unit, cp: int) -> float:
    """What ``a``'s best attack on ``d`` alone would take from it (0 if it has none)."""
    if a.is_seat or a.tray is None or a.transfixed or cp < 1 or d.tray is None:
        return 0.0
    g = gap(a.tray, d.tray)
    dmg = 0
    if g <= move_of(a) + (2.0 if a.skirmishing else 0.0) and not a.braced:
        dmg = attack_damage(state, a, d)
    if a.has("shooter") and cp >= 4:
        dmg = max(dmg, _shot_damage(a, d, g))
    return harm_value(state, d, dmg) if dmg > 0 else 0.0


def acting(state: AnvilState) -> int | None:
    """The seat that acts next in the activation phase (None outside it)."""
    if state.phase not in ("activation", "interrupt"):
        return None
    return state.mover if state.mover is not None else state.first


def evaluate(state: AnvilState, seat: int) -> float:
    """The position's worth to ``seat``: ours minus theirs (see the module's description)."""
    if state.phase == "over":
        if state.winner is None:
            return 0.0
        return WIN if state.winner == seat else -WIN
    enemy = 1 - seat
    score = 0.0
    for u in state.units:
        v = unit_value(state, u)
        score += v if u.seat == seat else -v
    # The General's unit on the table early: FA-DP-03 cuts the bids to 1 CP from turn 3 if it is not.
    for s, sign in ((seat, 1.0), (enemy, -1.0)):
        g = state.general(s)
        if g is not None and g.tray is not None and state.turn <= 2:
            score += sign * GENERAL_SAFETY
    cp = tuple(state.cp)
    first = acting(state)
    in_turn = first is not None

    def menace(s: int) -> float:
        """A side's threats: with its CP left in this turn, at a discount once it is out until the next."""
        if not in_turn:
            return threats(state, s, NEXT_TURN_CP)
        if cp[s] > 0:
            return threats(state, s, cp[s])
        return NEXT_TURN * threats(state, s, NEXT_TURN_CP)

    score += (THREAT_ACTING if first == seat else THREAT_WAITING) * menace(seat)
    score -= (THREAT_ACTING if first == enemy else THREAT_WAITING) * menace(enemy)
    score += progress(state, seat) - progress(state, enemy)
    score += CP_WORTH * (cp[seat] - cp[enemy])
    return score
