"""Perft-like legal-move counts for named positions, worked out by hand from the hex rules.

Each position is a small inline scenario on an open 12x9 board (odd-r offset cells ``[col, row]``,
pointy-top, odd rows shoved half a cell right). It is stepped past deployment (both seats confirm, VX-15-04)
and past the first-mover die (VX-04-03: face 1 means seat 0, the Light, moves first; face 2 the Darkness),
and the legal ``Move`` actions of the seat to move are counted per unit and kind (walk, charge, fly, pray
variant) and in total.

Working by hand. Relative cells are axial ``(dq, dr)`` from the moving unit S; the distance of ``(q, r)``
is ``(|q| + |r| + |q + r|) / 2``. Around a cell there are 6 cells at distance 1, 12 at distance 2, 18 at
distance 3 (``6k`` at distance ``k``). On the ring at distance 2 the 6 "corner" cells (straight lines from
S) have exactly one neighbour at distance 1, the 6 "edge" cells between them have two. The rules used:

* VX-03-06, VX-04-12: a normal move of at most ``move`` cells; a charge of at most ``charge`` cells.
* VX-04-17, VX-04-18: a charge must end in contact (next to an enemy ground unit), so with no enemy within
  reach there is no charge move at all.
* VX-04-24: one unit per cell; a move may not pass through (or end on) an occupied cell.
* VX-04-25: a path may enter a cell next to an enemy (its zone of control, "ZOC") only to stop there.
* VX-05-04: entering difficult ground costs one cell more (2); the referee's reading is that ending the move
  there pays too. VX-05-05: quicksand "impairs movement" the same way. Impassable cells cannot be entered.
* VX-05-06: entering the Temple, a unit may pray: each Temple destination gives a second ``Move(pray=True)``.
* VX-04-27: a flyer set down two or more cells away is airborne; in flight it passes over anything and may
  land on any free, passable cell up to its flying allowance (12 for the dragons).
* VX-04-31 (with rules.toml ``flyer_walk_divisor = 3``): a dragon walks 4; it may fly part of the way and
  walk the rest, ``fly/12 + walk/4 <= 1``. Such a mixed move ends on the ground; a pure flight is airborne
  (VX-04-27), so a ground destination at distance >= 2 needs a real walking step (or a plain walk), and the
  walking part obeys VX-04-24 and VX-04-25 (landing next to an enemy ends the move).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.actions import ConfirmDeployment, Move
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.scenario import parse_scenario
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.geometry.hexgrid import distance, offset_to_hex

Cell = tuple[int, int]
GAME = ValkyrxGame()
CENTRE: Cell = (5, 4)  # axial (3, 4); every cell of the 12x9 board is within 8 of it
FAR_CORNER: Cell = (11, 8)  # 8 cells from CENTRE: no zone of control within reach of a walk or a charge


@dataclass(frozen=True)
class Position:
    """A named position: units of each side (type id, cell), terrain, and the expected counts."""

    light: tuple[tuple[str, Cell], ...]
    darkness: tuple[tuple[str, Cell], ...]
    terrain: tuple[tuple[str, tuple[Cell, ...]], ...] = ()
    first: int = 1  # the first-mover die: 1 = the Light moves first, 2 = the Darkness
    # unit id -> {"walk": n, "charge": n, "fly": n, "pray": n}; ids follow the scenario order, Light first.
    expected: dict[int, dict[str, int]] = field(default_factory=dict)
    # hand-made claims about distances that the reasoning relies on: (cell a, cell b, distance)
    distances: tuple[tuple[Cell, Cell, int], ...] = ()

    def toml(self) -> str:
        def cells(cs: tuple[Cell, ...]) -> str:
            return "[" + ", ".join(f"[{c}, {r}]" for c, r in cs) + "]"

        def army(units: tuple[tuple[str, Cell], ...]) -> str:
            return "[" + ", ".join(f'{{ unit = "{u}", cell = [{c}, {r}] }}' for u, (c, r) in units) + "]"

        lines = ['name = "perft"', 'title = "perft position"', "width = 12", "height = 9"]
        for kind, cs in self.terrain:
            lines += ["[[terrain]]", f'kind = "{kind}"', f"cells = {cells(cs)}"]
        lines += ["[deployment.light]", f"cells = {cells(tuple(c for _, c in self.light))}"]
        lines += ["[deployment.darkness]", f"cells = {cells(tuple(c for _, c in self.darkness))}"]
        lines += ["[army]", f"light = {army(self.light)}", f"darkness = {army(self.darkness)}"]
        return "\n".join(lines) + "\n"


def counts(p: Position) -> tuple[int, dict[int, dict[str, int]]]:
    """Step the position past deployment and the first-mover die; count the mover's Move actions."""
    state: ValkyrxState = GAME.initial_state(parse_scenario(p.toml(), "perft position"))
    state, _ = GAME.apply(state, ConfirmDeployment())  # the Light (VX-15-04)
    state, _ = GAME.apply(state, ConfirmDeployment())  # the Darkness
    state, _ = GAME.apply(state, ChanceOutcome(p.first))  # VX-04-03
    seat = p.first - 1
    assert GAME.to_move(state) == seat
    per_unit: dict[int, Counter[str]] = {}
    for a in GAME.legal_actions(state, seat):
        if isinstance(a, Move):
            kind = "pray" if a.pray else "fly" if a.airborne else "charge" if a.charge else "walk"
            per_unit.setdefault(a.unit, Counter())[kind] += 1
    got = {uid: {k: c[k] for k in ("walk", "charge", "fly", "pray")} for uid, c in per_unit.items()}
    return sum(sum(c.values()) for c in per_unit.values()), got


def full(walk: int = 0, charge: int = 0, fly: int = 0, pray: int = 0) -> dict[str, int]:
    return {"walk": walk, "charge": charge, "fly": fly, "pray": pray}


POSITIONS: dict[str, Position] = {
    # VX-03-06, VX-04-17: Guardsmen 2/3 alone in the middle, the enemy 8 cells away in the far corner.
    # Walk 2: 6 cells at distance 1 + 12 at distance 2 = 18. Charge 3: no cell within 3 is next to the
    # enemy (its neighbours are 7 or more away), and a charge must end in contact, so 0.
    "lone_infantry_open": Position(
        light=(("guardsmen", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        expected={0: full(walk=18)},
        distances=((CENTRE, FAR_CORNER, 8),),
    ),
    # VX-05-04: difficult ground at E (6,4) and NE (5,3) of S, and at (3,4), two cells due W.
    # Distance 1: all 6 reachable (E and NE cost 2, which the allowance of 2 just covers).
    # Distance 2 (12 cells), lost:
    #   (7,4) = 2xE, its only distance-1 neighbour is E: cost 2 + 1 = 3 > 2;
    #   (6,2) = 2xNE, its only distance-1 neighbour is NE: 3 > 2;
    #   (6,3) = E+NE, between the two wood cells, both its distance-1 neighbours are wood: 3 > 2;
    #   (3,4) = 2xW, difficult itself: 1 + 2 = 3 > 2 (ending there pays the penalty).
    # Walk = 6 + 12 - 4 = 14; no charge (no enemy near).
    "infantry_beside_wood": Position(
        light=(("guardsmen", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        terrain=(("difficult", ((6, 4), (5, 3), (3, 4))),),
        expected={0: full(walk=14)},
        distances=((CENTRE, (6, 4), 1), (CENTRE, (5, 3), 1), (CENTRE, (3, 4), 2), (CENTRE, (6, 3), 2)),
    ),
    # VX-05-04, VX-05-05: a rock (impassable) at E (6,4), quicksand at W (4,4).
    # Distance 1: 6 - the rock = 5 (the quicksand costs 2, still reachable).
    # Distance 2: 12 - (7,4) behind the rock (no other way in) - (3,4) behind the bog (2 + 1 = 3) = 10.
    # Walk = 15.
    "infantry_beside_rocks_and_bog": Position(
        light=(("guardsmen", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        terrain=(("impassable", ((6, 4),)), ("quicksand", ((4, 4),))),
        expected={0: full(walk=15)},
    ),
    # VX-04-24: Guardsmen 2/3 at S and Spearmen 2/2 right next to them at E (6,4).
    # For each: distance 1 loses the friend's cell (5), distance 2 loses the one corner cell straight
    # behind the friend, reachable only through it (11): 16 each, 32 in all. No charges (no enemy near;
    # the Spearmen's 2/2 may "charge" 2 but a charge must end in contact).
    "friend_blocks_path": Position(
        light=(("guardsmen", CENTRE), ("spearmen", (6, 4))),
        darkness=(("wearg_warriors", FAR_CORNER),),
        expected={0: full(walk=16), 1: full(walk=16)},
    ),
    # VX-05-06: the Temple at E (6,4). Walk 18 as in the open; entering the Temple may be a prayer: +1.
    "infantry_beside_temple": Position(
        light=(("guardsmen", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        terrain=(("temple", ((6, 4),)),),
        expected={0: full(walk=18, pray=1)},
    ),
    # VX-04-25, VX-04-17: Knights of Mynsterlif 3/5 at S = (0,0), an enemy E two cells due east at (2,0).
    # ZOC = the ring of E: (1,0) d1, (2,-1) d2, (1,1) d2, (3,-1) d3, (2,1) d3, (3,0) d3 (distances from S).
    # Walk 3: 36 cells within 3, minus E itself; the three ZOC cells at distance 3 can only be entered
    # from a cell at distance 2 that is itself ZOC or E (e.g. (3,-1) touches (2,-1), E and (3,0); its other
    # neighbours (3,-2), (4,-2), (4,-1) are 3 or 4 away), so they cost 4 or more: lost. Every other cell
    # has a path that avoids the ZOC (the three near ZOC cells are entered and stop there).
    # Walk = 36 - 1 - 3 = 32.
    # Charge 5: destinations are ZOC cells only. (1,0) costs 1, (2,-1) and (1,1) cost 2; (3,-1) is reached
    # round the north side, (1,-1), (2,-2), (3,-2), (3,-1), for 4; (2,1) likewise round the south for 4;
    # (3,0) straight behind E touches only ZOC cells, E and cells 4 away from S, none reachable for less
    # than 5 without crossing the ZOC: 6 > 5. Charge = 5.
    "facing_enemy_zoc": Position(
        light=(("knights_of_mynsterlif", CENTRE),),
        darkness=(("wearg_warriors", (7, 4)),),
        expected={0: full(walk=32, charge=5)},
        distances=((CENTRE, (7, 4), 2),),
    ),
    # The same two units with the Darkness moving first (face 2): Wearg Warriors 2/3 at S, the Knights two
    # cells due west. Walk 2: 6 at distance 1 (the ZOC cell between them is entered and stops), 12 at
    # distance 2 minus the Knights' cell; no other is lost (each has a non-ZOC neighbour at distance 1):
    # 17. Charge 3: the ZOC cells at distance 1, 2, 2; the three at distance 3 need 4 (as above): 3.
    "facing_enemy_zoc_darkness_first": Position(
        light=(("knights_of_mynsterlif", CENTRE),),
        darkness=(("wearg_warriors", (7, 4)),),
        first=2,
        expected={1: full(walk=17, charge=3)},
    ),
    # VX-04-27, VX-04-31: Ǻstígend (fly 12, walk 4) alone in the middle, the enemy in the far corner.
    # The whole 108-cell board is within 8 of the centre (corners: (0,0) 7, (11,0) 8, (0,8) 7, (11,8) 8).
    # Fly: every cell at distance 2..12 = 108 - itself - 6 at distance 1 - the enemy = 100.
    # Walk (ground): distance 1 by walking; any farther cell X by flying to a free neighbour M of X that is
    # not next to the enemy and walking one step: M is at most 8 away, 8/12 + 1/4 < 1. Every cell has such
    # a neighbour (even those next to the enemy), so every free cell: 108 - 1 - 1 = 106.
    "flyer_alone": Position(
        light=(("astigend", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        expected={0: full(walk=106, fly=100)},
        distances=(((0, 0), CENTRE, 7), ((11, 0), CENTRE, 8), ((0, 8), CENTRE, 7), (FAR_CORNER, CENTRE, 8)),
    ),
    # VX-04-27, VX-04-31: a hollow tor: the six neighbours of (8,4) are impassable; (8,4) is 3 from S, the
    # six rocks 2 or 3. Fly: 100 - 6 rocks = 94 (the hollow (8,4) is a landing place).
    # Walk: 106 - 6 rocks - the hollow = 99: the hollow cannot be walked into (every neighbour is rock), and
    # setting down there after a pure flight is airborne (VX-04-27), not a mixed move ending on the ground.
    "flyer_island": Position(
        light=(("astigend", CENTRE),),
        darkness=(("wearg_warriors", FAR_CORNER),),
        terrain=(("impassable", ((9, 4), (7, 4), (8, 3), (7, 3), (8, 5), (7, 5))),),
        expected={0: full(walk=99, fly=94)},
        distances=((CENTRE, (8, 4), 3), (CENTRE, (7, 4), 2), (CENTRE, (7, 3), 3), (CENTRE, (7, 5), 3)),
    ),
    # VX-04-25, VX-04-31: the enemy at (1,0), next to the corner (0,0). The corner's only on-board neighbours
    # are (1,0) (the enemy) and (0,1) (next to the enemy: a ZOC cell). Walking there passes through (0,1);
    # flying to (0,1) and walking on leaves a ZOC cell: both forbidden, and the corner is 7 away, beyond a
    # plain walk of 4. Fly: 108 - 1 - 6 - 1 = 100 (the corner included). Walk: 106 - the corner = 105
    # (the other ZOC cells (2,0), (1,1), (0,1) each have a free non-ZOC neighbour to land on).
    "flyer_corner_pocket": Position(
        light=(("astigend", CENTRE),),
        darkness=(("wearg_warriors", (1, 0)),),
        expected={0: full(walk=105, fly=100)},
        distances=(((0, 0), CENTRE, 7), ((0, 1), (1, 0), 1), ((0, 0), (1, 0), 1)),
    ),
}

EXPECTED_TOTALS = {  # the sums of the per-unit counts above, written out as the headline numbers
    "lone_infantry_open": 18,
    "infantry_beside_wood": 14,
    "infantry_beside_rocks_and_bog": 15,
    "friend_blocks_path": 32,
    "infantry_beside_temple": 19,
    "facing_enemy_zoc": 37,
    "facing_enemy_zoc_darkness_first": 20,
    "flyer_alone": 206,
    "flyer_island": 193,
    "flyer_corner_pocket": 205,
}


def test_every_position_has_a_total() -> None:
    assert set(EXPECTED_TOTALS) == set(POSITIONS)
    for name, p in POSITIONS.items():
        assert sum(sum(k.values()) for k in p.expected.values()) == EXPECTED_TOTALS[name], name


@pytest.mark.parametrize("name", list(POSITIONS))
def test_hand_distances(name: str) -> None:
    """The distances the hand counts rely on, checked with the geometry module."""
    for a, b, d in POSITIONS[name].distances:
        assert distance(offset_to_hex(*a), offset_to_hex(*b)) == d, (a, b)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_legal_move_counts(name: str) -> None:
    p = POSITIONS[name]
    total, per_unit = counts(p)
    assert per_unit == p.expected
    assert total == EXPECTED_TOTALS[name]
