"""The phases of a game of Forged upon an Anvil: muster, the field of battle, the Seats of Power, the turn
bids, the alternating activations, the end of a turn and the end of the game.

Every function takes a state and the event list so far and returns the next state and the list; none
checks legality (game.py does that before calling).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import Army
from iwgt.games.anvil.army import army_dcp, start_hp, unit_dcp
from iwgt.games.anvil.events import (
    ActivationEnded,
    ArmiesRevealed,
    BidsRevealed,
    ExtraCP,
    GameOver,
    MoverChanged,
    TerrainBidsRevealed,
    TurnBegan,
    TurnEnded,
)
from iwgt.games.anvil.rules import SEAT, rules
from iwgt.games.anvil.state import AnvilState, Options, Unit, pair

Flow = tuple[AnvilState, list[Event]]

BID_ROUNDS = 2
"""Rounds of turn bidding at most (FA-GT-04/05 decided): a tie bids again once, from what is left; a tie in
the re-bid stands, the seat that went second last turn going first (``tie_first``)."""


# ------------------------------------------------------------------ who acts


def to_move(state: AnvilState) -> int | None:
    """Who acts next: sealed choices seat 0 then seat 1; placing the placer; activations the mover; an
    interruption the seat asked; None when the game is over."""
    phase = state.phase
    if phase == "over":
        return None
    if state.pending is not None:
        return state.pending.seat
    if phase == "muster":
        return 0 if state.armies[0] is None else 1
    if phase == "terrain_bid":
        return 0 if state.terrain_bids[0] is None else 1
    if phase in ("terrain", "seats"):
        return state.placer
    if phase == "bid":
        return 0 if state.bids[0] is None else 1
    return state.mover


# ------------------------------------------------------------------ the start


def new_state(scenario: object) -> AnvilState:
    """The state before the first action: muster (or, with fixed armies, the terrain bid)."""
    from iwgt.games.anvil.scenario import AnvilScenario

    assert isinstance(scenario, AnvilScenario)
    spec = scenario.spec
    state = AnvilState(scenario=scenario, options=Options(premeasure=spec.premeasure, win=spec.win))
    if spec.armies == "fixed":
        state = replace(state, armies=scenario.armies)
        state, _ = muster_done(state, [])
    return state


def build_units(state: AnvilState, armies: tuple[Army, Army]) -> tuple[Unit, ...]:
    """Each seat's units: its Seat of Power first, then its army list in order (ids are positions)."""
    units: list[Unit] = []
    seat_hp = rules().profile(SEAT).hp
    for seat, army in enumerate(armies):
        name = state.scenario.spec.sides[seat].seat_name
        units.append(Unit(id=len(units), seat=seat, type=SEAT, name=name, hp=seat_hp, start_hp=seat_hp))
        for entry in army.units:
            hp = start_hp(entry)
            units.append(
                Unit(
                    id=len(units),
                    seat=seat,
                    type=entry.type,
                    name=entry.name,
                    hp=hp,
                    start_hp=hp,
                    general=entry.general,
                    stratagems=tuple(entry.stratagems),
                )
            )
    return tuple(units)


def muster_done(state: AnvilState, events: list[Event]) -> Flow:
    """Both army lists are in: they are shown, the units made, and the terrain bid begins (FA-GN-03)."""
    a, b = state.armies
    assert a is not None and b is not None
    state = replace(state, units=build_units(state, (a, b)), phase="terrain_bid")
    events.append(
        ArmiesRevealed(
            units=(tuple(u.name for u in a.units), tuple(u.name for u in b.units)),
            dcp=(army_dcp(a), army_dcp(b)),
        )
    )
    return state, events


# ------------------------------------------------------------------ the field of battle


def terrain_bids_done(state: AnvilState, events: list[Event]) -> Flow:
    """Both terrain bids are in: the higher bidder places first, seat 0 on a tie (FA-FB-02/03)."""
    b0, b1 = state.terrain_bids
    assert b0 is not None and b1 is not None
    first = 1 if b1 > b0 else 0
    events.append(TerrainBidsRevealed((b0, b1), first))
    state = replace(state, phase="terrain", to_place=(b0, b1), first_placer=first, placer=first)
    return next_placer(state, 1 - first, events)


def next_placer(state: AnvilState, last: int, events: list[Event]) -> Flow:
    """Placing alternates; when one seat is done the other places the rest (FA-FB-02); then the Seats."""
    for seat in (1 - last, last):
        if state.to_place[seat] > 0:
            return replace(state, placer=seat), events
    return seats_phase(state, events)


def seats_phase(state: AnvilState, events: list[Event]) -> Flow:
    """No feature is left to place: extra CP for 4 or 5 placed (FA-FB-05), then the Seats (FA-FB-07)."""
    c = rules().constants
    extra = (c.extra_for(state.placed[0]), c.extra_for(state.placed[1]))
    for seat in (0, 1):
        if extra[seat]:
            events.append(ExtraCP(seat, state.placed[seat], extra[seat]))
    state = replace(state, phase="seats", extra_cp=extra, placer=state.first_placer)
    return state, events


def seat_placed(state: AnvilState, seat: int, events: list[Event]) -> Flow:
    """A Seat of Power is down: the other seat places its own, or the first turn begins."""
    other = 1 - seat
    mine = state.seat_of_power(other)
    if mine is not None and mine.tray is None:
        return replace(state, placer=other), events
    return start_turn(replace(state, placer=None), events)


# ------------------------------------------------------------------ turns and bids


def general_late(state: AnvilState, seat: int) -> bool:
    """Whether the deadline limit applies to a seat: from turn 3 on, its General's unit not yet deployed
    (FA-DP-03); it then bids at most 1 CP, and its General deploys for that 1 CP alone (decided)."""
    general = state.general(seat)
    return state.turn >= rules().constants.late_general_turn and general is not None and general.waiting


def bid_limit(state: AnvilState, seat: int) -> int:
    """The most a seat may bid this turn: 10, turn 1 plus the extra CP (FA-GT-01/02); 1 from turn 3 while
    its General's unit has not deployed (FA-DP-03)."""
    c = rules().constants
    if general_late(state, seat):
        return c.late_general_cp
    return c.turn_cp + (state.extra_cp[seat] if state.turn == 1 else 0)


def start_turn(state: AnvilState, events: list[Event]) -> Flow:
    """A new turn: sealed bids from each seat up to its limit (last turn's first player is remembered for a
    tie that stands, FA-GT-04/05)."""
    state = replace(
        state,
        turn=state.turn + 1,
        phase="bid",
        bids=(None, None),
        bid_round=0,
        cp=(0, 0),
        last_first=state.first,
        first=None,
        mover=None,
        passed=(False, False),
        activation=None,
        turn_used=(frozenset(), frozenset()),
    )
    limits = (bid_limit(state, 0), bid_limit(state, 1))
    state = replace(state, limits=limits)
    events.append(TurnBegan(state.turn, limits))
    if limits == (0, 0):  # nothing to bid: the only bids, 0 and 0, are made for them and the tie stands
        return tie_stands(state, 0, events)
    return state, events


def tie_first(state: AnvilState) -> int:
    """Who goes first when a re-bid ties too (FA-GT-04/05 decided): the seat that went second last turn; in
    turn 1 the seat that did not place first on the field of battle (FA-FB-02/03)."""
    if state.turn == 1 or state.last_first is None:
        return 1 - state.first_placer
    return 1 - state.last_first


def bids_done(state: AnvilState, events: list[Event]) -> Flow:
    """Both bids are in: the lower bidder goes first with each bid as the turn's CP (FA-GT-03). A tie loses
    the tied CP and both bid again from what is left (FA-GT-04/05); a tie in the last of ``BID_ROUNDS``
    rounds stands (decided): ``tie_first`` goes first, each seat with the tied bid as its CP."""
    b0, b1 = state.bids
    assert b0 is not None and b1 is not None
    if b0 == b1:
        if state.bid_round + 1 >= BID_ROUNDS:
            return tie_stands(state, b0, events)
        # A seat under the General's deadline "only gets 1 CP" (FA-DP-03): a tie does not take that CP away,
        # or two late seats would tie at 1 and lose every turn, and neither General could ever come on.
        limits = (
            state.limits[0] - (0 if general_late(state, 0) else b0),
            state.limits[1] - (0 if general_late(state, 1) else b1),
        )
        events.append(BidsRevealed(state.turn, (b0, b1), True, None, limits))
        state = replace(state, bids=(None, None), limits=limits, bid_round=state.bid_round + 1)
        if limits == (0, 0):  # the re-bid can only be 0 and 0: it is made for them, and stands
            return tie_stands(state, 0, events)
        return state, events
    first = 0 if b0 < b1 else 1
    events.append(BidsRevealed(state.turn, (b0, b1), False, first, state.limits))
    state = replace(state, phase="activation", cp=(b0, b1), first=first, bids=(b0, b1))
    return hand_over(state, 1 - first, events)


def tie_stands(state: AnvilState, bid: int, events: list[Event]) -> Flow:
    """A tie that stands (decided, FA-GT-04/05): ``tie_first`` goes first, each seat with ``bid`` CP; at 0
    the turn simply has no activations (nobody has CP) and ends at once."""
    first = tie_first(state)
    events.append(BidsRevealed(state.turn, (bid, bid), True, first, state.limits))
    state = replace(state, phase="activation", cp=(bid, bid), first=first, bids=(bid, bid))
    return hand_over(state, 1 - first, events)


def can_go(state: AnvilState, seat: int) -> bool:
    """Whether a seat still activates this turn: CP left and not passed (FA-AC-04)."""
    return state.cp[seat] > 0 and not state.passed[seat]


def hand_over(state: AnvilState, last: int, events: list[Event]) -> Flow:
    """The next activation: the other seat if it can go, else the same seat again; else the turn ends
    (FA-AC-01, FA-AC-04, FA-AC-05)."""
    for seat in (1 - last, last):
        if can_go(state, seat):
            events.append(MoverChanged(seat, state.cp[seat]))
            return replace(state, mover=seat, activation=None), events
    return end_turn(replace(state, mover=None, activation=None), events)


def end_activation(state: AnvilState, events: list[Event]) -> Flow:
    """The activation is over: hand over to the next seat."""
    act = state.activation
    if act is None:
        return state, events
    events.append(ActivationEnded(act.unit, act.seat))
    state = replace(state, activation=None)
    over = game_over(state, events)
    if over is not None:
        return over
    return hand_over(state, act.seat, events)


def end_turn(state: AnvilState, events: list[Event]) -> Flow:
    """The turn ends: every per-turn effect goes (FA-AC-06); the scenario's turn limit ends the game."""
    units = tuple(
        replace(u, braced=False, transfixed=False, skirmishing=False)
        if (u.braced or u.transfixed or u.skirmishing)
        else u
        for u in state.units
    )
    state = replace(state, units=units, activation=None, mover=None, cp=(0, 0))
    events.append(TurnEnded(state.turn))
    limit = state.scenario.spec.turns
    if limit is not None and state.turn >= limit:
        return by_score(state, events)
    return start_turn(state, events)


# ------------------------------------------------------------------ the end


def worth(unit: Unit) -> int:
    """What destroying a unit scores at the turn limit: its type DCP; a Seat of Power 3 (FA-MS-06)."""
    if unit.is_seat:
        return rules().constants.seat_worth
    return unit_dcp(unit)


def score(state: AnvilState, seat: int) -> int:
    """The enemy DCP-worth a seat has destroyed (FA-MS-06 decided)."""
    return sum(worth(u) for u in state.units if u.seat != seat and u.destroyed)


def finish(state: AnvilState, winner: int | None, reason: str, events: list[Event]) -> Flow:
    """The game is over."""
    events.append(GameOver(winner, reason))
    state = replace(
        state, phase="over", winner=winner, over_reason=reason, mover=None, activation=None, pending=None
    )
    return state, events


def by_score(state: AnvilState, events: list[Event]) -> Flow:
    """After the last turn the side that destroyed more enemy DCP-worth wins; equal: a draw (FA-MS-06)."""
    s0, s1 = score(state, 0), score(state, 1)
    reason = f"the last turn is over: {s0} to {s1} DCP destroyed"
    if s0 == s1:
        return finish(state, None, f"a draw ({reason})", events)
    return finish(state, 0 if s0 > s1 else 1, reason, events)


def _target(state: AnvilState, seat: int) -> Unit | None:
    """The unit a seat must keep (its General's unit or its Seat of Power, FA-GN-06)."""
    return state.general(seat) if state.options.win == "general" else state.seat_of_power(seat)


def lost_targets(state: AnvilState) -> list[int]:
    """The seats whose General's unit (or Seat of Power, per the win option) is destroyed (FA-GN-06)."""
    return [seat for seat in (0, 1) if (t := _target(state, seat)) is not None and t.destroyed]


def game_over(state: AnvilState, events: list[Event]) -> Flow | None:
    """The end, if reached: a General's unit or Seat destroyed (both: a draw, FA-GN-06), or a side with
    nothing on the table and nothing left to deploy (FA-MS-06); None while the game goes on."""
    if state.phase in ("over", "muster", "terrain_bid", "terrain", "seats"):
        return None
    lost = lost_targets(state)
    what = "General's unit" if state.options.win == "general" else "Seat of Power"
    sides = state.scenario.spec.sides
    if len(lost) == 2:
        return finish(state, None, f"a draw: both sides lost their {what} at once", events)
    if lost:
        loser = lost[0]
        return finish(state, 1 - loser, f"{sides[loser].name}'s {what} is destroyed", events)
    empty = [s for s in (0, 1) if not any(u.seat == s and not u.destroyed for u in state.units)]
    if len(empty) == 2:
        return finish(state, None, "a draw: neither side has a unit left", events)
    if empty:
        loser = empty[0]
        return finish(state, 1 - loser, f"{sides[loser].name} has no unit left", events)
    return None


def pay(state: AnvilState, seat: int, cost: int) -> AnvilState:
    """The state with a seat's CP reduced (never below 0: callers check affordability first)."""
    assert 0 <= cost <= state.cp[seat], f"{cost} CP asked of seat {seat} with {state.cp[seat]}"
    return replace(state, cp=pair(state.cp, seat, state.cp[seat] - cost))
