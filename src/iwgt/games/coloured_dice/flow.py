"""Turns, rounds, objectives, victory points and the end of a battle (CD-AC-01, CD-MS-02/06/07 designed).

A round is the first seat's turn then the other's. At the start of a side's turn its units have their
actions again (a shaken unit one, designed); at the start of a round every unit's losses of the round are
cleared (CD-MM-02) and per-round bear-wound dice refill (CD-CH-17). At the end of a side's turn it achieves
each objective one of its steady units stands within ``OBJECTIVE_RANGE`` of with no enemy unit as near:
once per objective and side, +1 general morale and the objective's VP. The battle ends after the last
round (more VP wins, equal: a draw), or at once when a side has no unit left on the table or has lost at
least ``BREAK_FRACTION`` of its starting points (it loses).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Final

from shapely.geometry import Point

from iwgt.core.protocol import Event, Result
from iwgt.games.coloured_dice.events import BattleOver, ObjectiveTaken, RoundStarted, TurnEnded, TurnStarted
from iwgt.games.coloured_dice.general_morale import objective_row
from iwgt.games.coloured_dice.rules import rules
from iwgt.games.coloured_dice.scenario import CdScenario
from iwgt.games.coloured_dice.state import (
    ACTIONS_PER_TURN,
    SEATS,
    Buff,
    CdState,
    Objective,
    TerrainPiece,
    Unit,
    home_facing,
    pair,
)

Step = tuple[CdState, list[Event]]

OBJECTIVE_RANGE: Final[float] = rules().constants.objective_range
"""A steady unit within this many inches of an objective, and no enemy unit, achieves it (designed, data)."""
BREAK_FRACTION: Final = Fraction(*rules().constants.break_fraction)
"""A side that has lost this share of its starting points breaks and flees: it loses (designed, data)."""
SHAKEN_ACTIONS: Final[int] = rules().constants.shaken_actions
"""A shaken unit has one action a turn (designed, data)."""


# ------------------------------------------------------------------ the start


def actions_for(unit: Unit) -> int:
    """The actions a unit has at the start of its side's turn (CD-AC-01; shaken: one, designed)."""
    return SHAKEN_ACTIONS if unit.shaken else ACTIONS_PER_TURN


def new_state(scenario: CdScenario) -> CdState:
    """The battle before the first action: every unit deployed as the scenario says."""
    from iwgt.games.coloured_dice.movement import unit_tray
    from iwgt.games.coloured_dice.rules import profile, starting_us

    spec = scenario.spec
    units: list[Unit] = []
    for seat, side in enumerate(spec.sides):
        for u in side.units:
            p = profile(side.army, u.key)
            models = u.models if u.models is not None else p.models
            facing = home_facing(seat) if u.facing is None else u.facing
            tray = unit_tray(p, u.order, u.at, facing, models, u.files)
            bear = p.bear_wound
            units.append(
                Unit(
                    id=len(units),
                    seat=seat,
                    army=side.army,
                    key=u.key,
                    name=u.name or p.name,
                    models=models,
                    start_models=models,
                    tray=tray,
                    files=min(u.files, models),
                    order=u.order,
                    hero_left=p.hero,
                    bear_left=0 if bear is None else bear.dice,
                    will=p.will,
                    spirits=tuple(p.spirits),
                    general=u.general or "general" in p.abilities,
                    banner=u.banner or "banner" in p.abilities,
                    start_us=starting_us(p),
                )
            )
    features = tuple(
        TerrainPiece(i, f.kind, f.name or f.kind.capitalize(), tuple(f.outline), f.height)
        for i, f in enumerate(spec.features)
    )
    objectives = tuple(Objective(i, o.at, o.vp, o.name) for i, o in enumerate(spec.objectives))
    state = CdState(
        scenario=scenario,
        units=tuple(units),
        features=features,
        objectives=objectives,
        round=1,
        seat=spec.first,
        next_id=len(units),
    )
    state = replace(state, start_points=(army_points(state, 0), army_points(state, 1)))
    return start_turn(state, spec.first)


# ------------------------------------------------------------------ points


def _points(unit: Unit, models: int) -> int:
    from iwgt.games.coloured_dice.rules import profile, unit_points

    return int(unit_points(profile(unit.army, unit.key), models))


def in_army(unit: Unit) -> bool:
    """Whether a unit counts in its army's points (a released spirit does not: it came later)."""
    return unit.owner is None


def army_points(state: CdState, seat: int) -> int:
    """A side's starting points: its units at their starting models."""
    return sum(_points(u, u.start_models) for u in state.units_of(seat) if in_army(u))


def points_lost(state: CdState, seat: int) -> int:
    """The points a side has lost: a gone unit all of them (routed counts as destroyed), else its dead."""
    lost = 0
    for u in state.units_of(seat):
        if not in_army(u):
            continue
        full = _points(u, u.start_models)
        lost += full if u.gone else full - _points(u, u.models)
    return lost


def victory_points(state: CdState, seat: int) -> int:
    """A side's VP (CD-MS-07 designed): ``state.vp``, where combat adds the points of each enemy unit
    destroyed or routed as it goes (``general_morale.lose_unit``) and the flow each objective's VP."""
    return state.vp[seat]


# ------------------------------------------------------------------ turns


def _turn_index(state: CdState, round_: int, seat: int) -> int:
    first = state.scenario.spec.first
    return (round_ - 1) * SEATS + (0 if seat == first else 1)


def _live(state: CdState, b: Buff) -> bool:
    """A buff lasts until the start of ``until_seat``'s turn in ``until_round``."""
    return _turn_index(state, b.until_round, b.until_seat) > _turn_index(state, state.round, state.seat)


def start_turn(state: CdState, seat: int) -> CdState:
    """A side's turn begins: its units have their actions again; spent buffs go."""
    state = replace(state, seat=seat)
    units = []
    for u in state.units:
        buffs = tuple(b for b in u.buffs if _live(state, b))
        if u.seat == seat and u.on_table:
            u = replace(
                u,
                actions_left=actions_for(u),
                attacked=False,
                moved=0,
                marching_blocked=False,
                strikes_first_vs=None,
                buffs=buffs,
            )
        elif buffs != u.buffs:
            u = replace(u, buffs=buffs)
        units.append(u)
    return replace(state, units=tuple(units))


def start_round(state: CdState, round_: int) -> CdState:
    """A new round: the round's losses cleared (CD-MM-02), per-round bear-wound dice refilled (CD-CH-17)."""
    from iwgt.games.coloured_dice.rules import profile

    units = []
    for u in state.units:
        bear = profile(u.army, u.key).bear_wound
        refill = bear is not None and bear.per == "round"
        units.append(
            replace(u, round_losses=0, bear_left=bear.dice if refill and bear is not None else u.bear_left)
        )
    return replace(state, round=round_, units=tuple(units))


def end_turn(state: CdState) -> Step:
    """The seat to play ends its turn: objectives, then the other side's turn, the next round, or the end."""
    seat = state.seat
    state, events = take_objectives(state, seat)
    events.append(TurnEnded(seat, state.round))
    first = state.scenario.spec.first
    nxt = 1 - seat
    over, more = check_over(state)
    events += more
    if over.over is not None:
        return over, events
    state = over
    if nxt == first:
        if state.round >= state.rounds:
            state, more = finish(state, f"the last round ({state.rounds}) is over")
            return state, events + more
        state = start_round(state, state.round + 1)
        events.append(RoundStarted(state.round))
    state = start_turn(state, nxt)
    events.append(TurnStarted(nxt, state.round))
    return state, events


def take_objectives(state: CdState, seat: int) -> Step:
    """Each objective a steady unit of the seat holds at the end of its turn, with no enemy as near, once
    per side: +1 general morale and its VP."""
    events: list[Event] = []
    for o in state.objectives:
        if o.id in state.objectives_taken[seat]:
            continue
        holder = _holder(state, seat, o)
        if holder is None:
            continue
        taken = pair(state.objectives_taken, seat, state.objectives_taken[seat] | {o.id})
        vp = pair(state.vp, seat, state.vp[seat] + o.vp)
        state = replace(state, objectives_taken=taken, vp=vp)
        events.append(ObjectiveTaken(seat, o.id, o.vp, holder.id))
        # the general-morale table's row (CD-GM-13), logged as GeneralMoraleChanged
        state = objective_row(state, seat, events)
    return state, events


def near_objective(unit: Unit, o: Objective) -> bool:
    """Whether the unit's tray comes within ``OBJECTIVE_RANGE`` of the objective's point."""
    return bool(unit.tray.polygon().distance(_point(o.at)) <= OBJECTIVE_RANGE + 1e-9)


def _point(at: tuple[float, float]) -> Point:
    return Point(at)


def _holder(state: CdState, seat: int, o: Objective) -> Unit | None:
    if any(near_objective(e, o) for e in state.enemies(seat)):
        return None
    mine = [u for u in state.on_table(seat) if not u.shaken and near_objective(u, o)]
    return min(mine, key=lambda u: math.dist(u.tray.centre, o.at)) if mine else None


# ------------------------------------------------------------------ the end


def broken(state: CdState, seat: int) -> bool:
    """Whether a side has lost at least ``BREAK_FRACTION`` of its starting points (it breaks and flees)."""
    start = state.start_points[seat]
    return start > 0 and Fraction(points_lost(state, seat)) >= BREAK_FRACTION * start


def check_over(state: CdState) -> Step:
    """The battle ends at once when a side has nothing on the table or has broken (it loses)."""
    if state.over is not None:
        return state, []
    gone = [s for s in range(SEATS) if not any(in_army(u) for u in state.on_table(s))]
    fled = [s for s in range(SEATS) if s not in gone and broken(state, s)]
    losers = sorted(set(gone) | set(fled))
    if not losers:
        return state, []
    if len(losers) == SEATS:
        return finish(state, "both armies are gone or broken")
    loser = losers[0]
    name = state.scenario.seat_names()[loser]
    has = "have" if plural(state, loser) else "has"
    why = f"{name} {has} no unit left on the table" if loser in gone else f"{name} {has} broken and fled"
    return _won(state, 1 - loser, why)


def plural(state: CdState, seat: int) -> bool:
    """Whether the seat's side takes a plural verb (its army's ``plural``: "the Sons of Kaleva win")."""
    from iwgt.games.coloured_dice.rules import armies

    army = armies().get(state.scenario.spec.sides[seat].army)
    return army is not None and army.plural


def _won(state: CdState, winner: int, reason: str) -> Step:
    name = state.scenario.seat_names()[winner]
    result = Result.win([winner], SEATS, reason, side=name, title=name, plural=plural(state, winner))
    vp = (victory_points(state, 0), victory_points(state, 1))
    return replace(state, over=result, pending=()), [BattleOver(winner, vp, reason)]


def finish(state: CdState, why: str) -> Step:
    """The end by VP: more VP wins, equal VP is a draw."""
    vp = (victory_points(state, 0), victory_points(state, 1))
    if vp[0] == vp[1]:
        result = Result.draw(SEATS, f"a draw: {why}, {vp[0]} VP each")
        return replace(state, over=result, pending=()), [BattleOver(None, vp, result.reason)]
    winner = 0 if vp[0] > vp[1] else 1
    return _won(state, winner, f"{why}: {vp[winner]} VP to {vp[1 - winner]}")
