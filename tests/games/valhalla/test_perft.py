"""Perft-like legal-action counts for named Valhalla positions, worked out by hand from the rules.

Each position is a small inline scenario on a flat 48" x 32" table (``kit.make``: seat 0's hero, warrior and
archer are figures 0, 1, 2; seat 1's are 3, 4, 5), dealt so that seat 0's card comes up first with nothing
activated (``kit.position``), sometimes tweaked (hurts, a thing carried, combats) or stepped on by an action.
The legal actions of the seat to act are counted per figure and kind, and in total; every count is written
out below with the clauses of ``docs/rules/valhalla.md`` it comes from.

**The actions other than moves are counted exactly.** A card up with no figure activated offers every
action of each of the seat's living, not-yet-activated figures (VH-AC-01) and one ``EndActivation`` (pass
the card, VH-AC-02); once a figure is active, only its actions and ``EndActivation``. A figure in combat may
only continue fighting (one ``Fight`` per opponent, as its first action) or withdraw (VH-AC-11, VH-CO-02).

**Moves are a spread of points** (``legal_actions`` offers some points; ``apply`` accepts any legal one,
VH-AC-05), so their counts are pinned with the reasoning that gives them, from ``movement.move_targets``:

* 16 compass directions (every 22.5°, east first). In each, the furthest accepted point, found by halving
  the 6" nine times: 5.988", 5.98" or 5.99" once kept to the hundredth; then the half-way point. In the open,
  with the table edge more than 6.5" away (a base is 1" across) and no enemy within 9" centre to centre (a
  6" move then never comes within 2" of its base, VH-AC-06), that is 16 + 16 = 32 distinct points.
* A direction whose every step would come nearer to an enemy already exactly 2" away (VH-AC-06: a move may
  not come within 2", nor nearer than it already is) has no point at all: with the enemy due east, the
  seven directions from 292.5° to 67.5° are lost and the nine from 90° to 270° stay: 18 points.
* A move that would cross or touch an obstacle's line is cut short of it (VH-AC-08), but keeps a point.
* For each enemy whose 2" ring is reachable (0 < centre distance - 3" <= 6"): a stop on that ring from
  which the charge reaches (VH-AC-06, VH-AC-09), here never on a compass line, so one more point.
* For each thing on the table not carried (VH-AC-12), the point toward it at its reach or at 6": one more.

Baggage (VH-AC-04) is driven in 8 directions, each the furthest point and the half-way point: 16 points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest

from iwgt.core.protocol import CHANCE
from iwgt.games.valhalla.actions import EndActivation, Move, Withdraw, action_to_json
from iwgt.games.valhalla.notation import notation, parse_notation
from iwgt.games.valhalla.state import Engagement, ValhallaState
from iwgt.geometry.plane import distance

from .kit import GAME, act, make, position, tweak

XY = tuple[float, float]
HERO, WARRIOR, ARCHER = 0, 1, 2
E_HERO, E_WARRIOR, E_ARCHER = 3, 4, 5
FAR_ENEMIES: list[XY] = [(46, 30), (44, 30), (42, 30)]
"""Seat 1 in the far corner: more than 9" from every seat-0 figure below unless a position moves them."""


def open_field() -> ValhallaState:
    """Seat 0 spread out in the open, the enemy far away."""
    return position([(10, 8), (10, 24), (24, 16)], FAR_ENEMIES)


def hurt_figures() -> ValhallaState:
    """The open field, the hero shocked once, the warrior wounded, the archer shocked twice."""
    state = tweak(open_field(), HERO, shock=1)
    state = tweak(state, WARRIOR, wounds=1)
    return tweak(state, ARCHER, shock=2)


def charge_reach() -> ValhallaState:
    """Seat 0's warrior at (24,16), the enemy hero at (27,16): 3" apart centre to centre, 2" edge to edge."""
    return position([(10, 8), (24, 16), (10, 24)], [(27, 16), (44, 30), (42, 30)])


RING_ENEMY: XY = (30.89, 17.22)
"""7" from (24,16) at about 10° north of east: its 2" ring is 4" away, off every compass line."""


def enemy_within_a_move() -> ValhallaState:
    """Seat 0's warrior at (24,16), the enemy hero 7" away (5" edge to edge): too far to charge, near enough
    to walk up to."""
    return position([(10, 8), (24, 16), (10, 24)], [RING_ENEMY, (44, 30), (42, 30)])


def shooting_ranges() -> ValhallaState:
    """Seat 0's archer at (24,16); the enemy hero 8.5" edge to edge, the warrior 12.00", the archer 12.01"."""
    return position([(38, 6.5), (38, 25.5), (24, 16)], [(33.5, 16), (24, 29), (10.99, 16)])


def in_combat() -> ValhallaState:
    """Seat 0's warrior at (20,16) charged by the enemy hero from the east (21,16) and the enemy warrior from
    the north (20,17), both in base contact; seat 0's archer 8.55" and 9.5" from them, in range."""
    state = position([(36, 12), (20, 16), (20, 6.5)], [(21, 16), (20, 17), (42, 30)])
    return replace(state, engagements=(Engagement(E_HERO, WARRIOR), Engagement(E_WARRIOR, WARRIOR)))


def after_a_withdrawal() -> ValhallaState:
    """The warrior of ``in_combat`` withdraws due south, 1.99" (VH-AC-10): active, one action left."""
    return act(in_combat(), Withdraw(WARRIOR, (20, 14.01)))[0]


def after_one_move() -> ValhallaState:
    """The hero of ``open_field`` moves 3" east to (13,8): active, one action left (VH-AC-02)."""
    return act(open_field(), Move(HERO, (13, 8)))[0]


THINGS = '[[things]]\nname = "chest"\nat = [12, 12]\n\n[[things]]\nname = "banner"\nat = [17.25, 16]\n'
"""The chest 1.5" north of the hero, 6.6" from the warrior and 6.5" from the archer."""


def pick_up_and_drop() -> ValhallaState:
    """The chest 0.75" from the hero's base; the warrior carries the banner, the enemy hero exactly 2" east of
    it; the archer on the chest's other side."""
    state = position([(12, 10.5), (17.25, 16), (8.1, 17.2)], [(20.25, 16), (44, 30), (42, 30)], extra=THINGS)
    state = tweak(state, WARRIOR, carrying=1)
    return state.with_thing(replace(state.things[1], carrier=WARRIOR))


FENCE = ("fence", [(16, 16), (36, 16)])


def cross_the_fence() -> ValhallaState:
    """Seat 0's archer with its base 0.75" short of a fence."""
    return position([(10, 8), (10, 24), (26, 14.75)], FAR_ENEMIES, obstacles=[FENCE])


CART = '[[baggage]]\nname = "cart"\nside = 0\nat = [24, 16]\n'


def baggage_turn() -> ValhallaState:
    """Every card passed (VH-AC-01, VH-TS-06): side 0's cart, in the open, is driven by seat 0 (VH-AC-04)."""
    state = position([(10, 8), (10, 24), (38, 8)], FAR_ENEMIES, extra=CART)
    while state.phase != "baggage":
        assert GAME.to_move(state) not in (None, CHANCE)
        state, _ = GAME.apply(state, EndActivation())
    return state


@dataclass(frozen=True)
class Perft:
    """A named position, the seat to act, and the expected counts: per figure (or baggage) and kind."""

    build: Callable[[], ValhallaState]
    seat: int
    expected: dict[int, dict[str, int]]
    end: int = 1  # EndActivation: pass the card, end the activation, or leave the baggage
    baggage: dict[int, int] = field(default_factory=dict)  # baggage id -> move_baggage points


def _moves(n: int, **others: int) -> dict[str, int]:
    return {"move": n, **others}


PERFTS: dict[str, Perft] = {
    # VH-AC-01, VH-AC-02, VH-AC-05: three figures in the open, 32 move points each; no enemy within 2"
    # (charge, VH-AC-09), none within 12" of the archer (shoot, VH-SH-03), no shock (recover, VH-AC-13),
    # nothing to pick up or drop (VH-AC-12), no obstacle (VH-AC-08). 96 moves + pass = 97.
    "open_field": Perft(open_field, 0, {HERO: _moves(32), WARRIOR: _moves(32), ARCHER: _moves(32)}),
    # VH-AC-13, VH-AC-14: a shocked figure more than 2" from every enemy may recover (the hero, the archer);
    # VH-ST-11: a wound is never recovered (the warrior). VH-AC-03 limits how many actions, not which: the
    # moves stay 32 each. 96 + 2 recoveries + pass = 99.
    "hurt_figures": Perft(
        hurt_figures, 0, {HERO: _moves(32, recover=1), WARRIOR: _moves(32), ARCHER: _moves(32, recover=1)}
    ),
    # VH-AC-09: the warrior is exactly 2" from the enemy hero (to the hundredth): one charge. VH-AC-06: every
    # step east of north-south would bring it nearer: 9 directions x 2 = 18 points; its ring is where it
    # stands (no ring point). The hero and the archer are 18.8" away: 32 each, no shot (VH-SH-03).
    # 32 + 18 + 1 + 32 + pass = 84.
    "charge_reach": Perft(
        charge_reach, 0, {HERO: _moves(32), WARRIOR: _moves(18, charge=1), ARCHER: _moves(32)}
    ),
    # VH-AC-06, VH-AC-09: the enemy hero 7" centre to centre at about 10°: the moves at 0° and 22.5° are cut
    # short of its 2" zone but keep their points, and the stop on its ring 4" away (from where a charge
    # reaches) is one more point: 33. It is 5" edge to edge: no charge. 33 + 32 + 32 + pass = 98.
    "enemy_within_a_move": Perft(
        enemy_within_a_move, 0, {HERO: _moves(32), WARRIOR: _moves(33), ARCHER: _moves(32)}
    ),
    # VH-SH-03, VH-SH-04: range 12" edge to edge, to the hundredth: 8.5" and 12.00" are in range, 12.01" is
    # not (the open table blocks no sight, VH-MS-04): 2 shots. The enemy 9.5" centre to centre leaves the
    # moves whole (3.5" > 3" after 6"). 96 + 2 + pass = 99.
    "shooting_ranges": Perft(
        shooting_ranges, 0, {HERO: _moves(32), WARRIOR: _moves(32), ARCHER: _moves(32, shoot=2)}
    ),
    # VH-AC-11, VH-CO-02: the warrior in two combats may only fight (either opponent: 2) or withdraw.
    # VH-AC-10: withdrawals offered 1.99" away at 45° steps from "away" (south-west): SW, S, W, SE, NW,
    # E, N, NE; E ends 0.99" from the hero's centre and N 0.99" from the warrior's (still touching, more than
    # 0.05" needed): lost; the other six are clear (1.47" or more from either): 6. VH-SH-02: the archer may
    # not shoot at figures in combat, though both are in range: 0 shots, 32 moves (9.55" and 10.5" away).
    # The hero is far: 32. 32 + 2 + 6 + 32 + pass = 73.
    "in_combat": Perft(
        in_combat, 0, {HERO: _moves(32), WARRIOR: {"fight": 2, "withdraw": 6}, ARCHER: _moves(32)}
    ),
    # VH-AC-01: the card activated the warrior: only its actions, and ending the activation. VH-AC-10: it
    # withdrew, so it may not charge in this activation, though both enemies are within 2" (1.23" and 1.99").
    # VH-AC-06: already within 2" of them, no move may bring it nearer to either: a direction must point away
    # from both (dy <= 0, and dx + 1.99 dy <= 0 for the hero 1" east and 1.99" north): 180° to 315°, 7
    # directions x 2 = 14 (337.5° and 0° would near the hero). No ring points (both are inside 2"). 14 + end.
    "after_a_withdrawal": Perft(after_a_withdrawal, 0, {WARRIOR: _moves(14)}),
    # VH-AC-01, VH-AC-17: the hero moved once; its second action may be another move: 32 from (13,8) (the
    # south edge is 7" away). Nothing else of seat 0 may act on this card. 32 + end = 33.
    "after_one_move": Perft(after_one_move, 0, {HERO: _moves(32)}),
    # VH-AC-12: the hero's base is 0.75" from the chest's marker (within 1"): pick it up; the point toward
    # the chest at its reach (0.75" north, short of the 2.99" and 5.99" points) is a 33rd move. VH-AC-16: the
    # warrior carries the banner, so it may not charge the enemy hero 2" east, but may drop it; its moves are
    # the 18 of "charge_reach" and the point 5.85" toward the chest (at 217.3°, away from the enemy): 19.
    # The archer gets its 32 and a point toward the chest (5.75" at 306.87°): 33, and may shoot the enemy
    # hero 11.2" away (VH-SH-03). No friend stands where another's offered point would put it (all 7.5"
    # apart or more). The carried banner offers nothing. 33 + 1 + 19 + 1 + 33 + 1 + pass = 89.
    "pick_up_and_drop": Perft(
        pick_up_and_drop,
        0,
        {HERO: _moves(33, pick_up=1), WARRIOR: _moves(19, drop=1), ARCHER: _moves(33, shoot=1)},
    ),
    # VH-AC-08: the archer's base is within 1" of the fence (its centre 1.25" from the line): one crossing.
    # A plain move may not cross or touch the line, so the seven northward directions are cut short (to 1.24"
    # due north) but all keep a point: 32. 32 + 1 + 32 + 32 + pass = 98.
    "cross_the_fence": Perft(
        cross_the_fence, 0, {HERO: _moves(32), WARRIOR: _moves(32), ARCHER: _moves(32, cross=1)}
    ),
    # VH-AC-04: side 0's cart, 2" across, more than 7" from the edges and every figure: 8 directions, each
    # its furthest point (5.99") and its half-way point: 16, and leaving it where it is: 17.
    "baggage_turn": Perft(baggage_turn, 0, {}, baggage={0: 16}),
}

EXPECTED_TOTALS = {  # the sums above, written out as the headline numbers
    "open_field": 97,
    "hurt_figures": 99,
    "charge_reach": 84,
    "enemy_within_a_move": 98,
    "shooting_ranges": 99,
    "in_combat": 73,
    "after_a_withdrawal": 15,
    "after_one_move": 33,
    "pick_up_and_drop": 89,
    "cross_the_fence": 98,
    "baggage_turn": 17,
}


def counts(state: ValhallaState, seat: int) -> tuple[dict[int, dict[str, int]], dict[int, int], int]:
    """The seat's legal actions per figure and kind, the baggage points, and the EndActivation count."""
    assert GAME.to_move(state) == seat
    per: dict[int, Counter[str]] = {}
    baggage: Counter[int] = Counter()
    end = 0
    for a in GAME.legal_actions(state, seat):
        data = action_to_json(a)
        if data["type"] == "end_activation":
            end += 1
        elif data["type"] == "move_baggage":
            baggage[data["baggage"]] += 1
        else:
            per.setdefault(data["figure"], Counter())[data["type"]] += 1
    return {fid: dict(c) for fid, c in per.items()}, dict(baggage), end


def test_every_position_has_its_total() -> None:
    assert set(EXPECTED_TOTALS) == set(PERFTS)
    for name, p in PERFTS.items():
        figures = sum(sum(kinds.values()) for kinds in p.expected.values())
        assert figures + sum(p.baggage.values()) + p.end == EXPECTED_TOTALS[name], name


def test_the_hand_distances() -> None:
    """The distances the reasoning relies on, centre to centre (edge to edge is 1" less)."""
    assert distance((24, 16), (27, 16)) == 3  # charge_reach: 2" edge to edge
    assert 6.99 < distance((24, 16), RING_ENEMY) < 7.01  # enemy_within_a_move: its ring 4" away
    assert distance((24, 16), (33.5, 16)) == 9.5  # shooting_ranges: 8.5" edge, moves untouched
    assert distance((24, 16), (24, 29)) == 13  # 12.00" edge to edge: in range
    assert round(distance((24, 16), (10.99, 16)), 2) == 13.01  # 12.01": out of range
    assert round(distance((20, 6.5), (21, 16)), 2) == 9.55 and distance((20, 6.5), (20, 17)) == 10.5
    assert round(distance((20, 14.01), (21, 16)), 2) == 2.23  # after the withdrawal: 1.23" from the hero
    assert distance((12, 10.5), (12, 12)) == 1.5  # the hero's base 0.75" from the chest's marker
    assert (
        round(distance((17.25, 16), (12, 12)), 2) == 6.6 and round(distance((8.1, 17.2), (12, 12)), 2) == 6.5
    )
    assert distance((17.25, 16), (20.25, 16)) == 3  # the carrier exactly 2" from the enemy hero
    assert 12.2 < distance((8.1, 17.2), (20.25, 16)) < 12.22  # the archer's target: in range, moves whole
    assert distance((12, 10.5), (20.25, 16)) > 9.9  # the hero's moves whole, no ring point
    assert min(distance(a, b) for a, b in [((12, 10.5), (17.25, 16)), ((12, 10.5), (8.1, 17.2))]) > 7.5
    for a, b in [((10, 8), (42, 30)), ((10, 24), (42, 30)), ((24, 16), (42, 30)), ((38, 25.5), (33.5, 16))]:
        assert distance(a, b) > 9, (a, b)  # no 2" zone within a 6" move


@pytest.mark.parametrize("name", list(PERFTS))
def test_legal_action_counts(name: str) -> None:
    p = PERFTS[name]
    per, baggage, end = counts(p.build(), p.seat)
    assert per == p.expected
    assert baggage == p.baggage
    assert end == p.end
    assert sum(sum(k.values()) for k in per.values()) + sum(baggage.values()) + end == EXPECTED_TOTALS[name]


def test_a_move_point_is_not_the_only_legal_point() -> None:
    """The spread is what ``legal_actions`` offers; ``apply`` takes any legal point (VH-AC-05): a point 4"
    north-east, on no compass line's offered points, is accepted in the open field."""
    state = open_field()
    offered = {a.to for a in GAME.legal_actions(state, 0) if isinstance(a, Move) and a.figure == HERO}
    assert (12.83, 10.83) not in offered
    after, _ = act(state, Move(HERO, (12.83, 10.83)))
    assert after.figures[HERO].at == (12.83, 10.83)


def test_the_perft_scenario_is_flat_and_empty() -> None:
    """The positions stand on a flat 48" x 32" table with no terrain but what a position adds."""
    ground = make().ground
    assert (ground.width, ground.height) == (48, 32)
    assert not ground.areas and not ground.hills and not ground.obstacles


@pytest.mark.parametrize("name", list(PERFTS))
def test_the_notation_carries_each_position(name: str) -> None:
    """Written in the notation and read back on its scenario, a position offers the same legal actions: a
    perft position can be quoted in a bug report as one line."""
    p = PERFTS[name]
    state = p.build()
    back = parse_notation(notation(state), state.scenario)
    assert GAME.legal_actions(back, p.seat) == GAME.legal_actions(state, p.seat)
