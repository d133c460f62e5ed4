"""Shooting (VH-SH-01..09, VH-AC-15..17, VH-MS-04): ranges and faces by hand.

Seat 0's archer (figure 2) shoots from (10,10) along y = 10 at seat 1's warrior (figure 4) unless said
otherwise. Ranges are edge to edge: a target centred at x is x - 10 - 1 inches away.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.games.valhalla.actions import Move, Shoot
from iwgt.games.valhalla.dice import shot_hits_on
from iwgt.games.valhalla.events import ActivationEnded, ShotFired
from iwgt.games.valhalla.state import Engagement, ValhallaState

from .kit import GAME, act, first, make, of, player, position, refused

ARCHER = [(2, 2), (4, 2), (10, 10)]


def target_at(x: float, y: float = 10) -> list[tuple[float, float]]:
    return [(46, 30), (x, y), (42, 30)]


def shot(state: ValhallaState, face: int, target: int = 4) -> tuple[ValhallaState, ShotFired]:
    state, events = act(state, Shoot(2, target), face)
    (fired,) = of(events, ShotFired)
    return state, fired


@pytest.mark.parametrize(
    ("x", "face", "needs", "hit"),
    [
        (17, 4, 4, True),  # exactly 6": close range, 4-6 (VH-SH-04, VH-SH-06)
        (17, 3, 4, False),
        (13, 4, 4, True),  # 2": close
        (17.1, 5, 5, True),  # 6.1": long range, 5-6 (VH-SH-07)
        (17.1, 4, 5, False),
        (23, 5, 5, True),  # exactly 12": the range's edge (VH-SH-03)
        (23, 6, 5, True),
    ],
)
def test_vh_sh_03_04_06_07_range_bands_and_faces(x: float, face: int, needs: int, hit: bool) -> None:
    _, fired = shot(position(ARCHER, target_at(x)), face)
    assert (fired.needs, fired.hit, fired.face) == (needs, hit, face)
    assert fired.distance == pytest.approx(x - 11) and not fired.cover


def test_vh_sh_03_beyond_12_inches_is_refused() -> None:
    assert 'beyond the 12" range' in refused(position(ARCHER, target_at(23.1)), Shoot(2, 4))


def test_vh_sh_05_one_six_sided_die_per_shot() -> None:
    state, _ = act(position(ARCHER, target_at(17)), Shoot(2, 4))
    die = GAME.chance_outcomes(state)
    assert die is not None and die.sides == 6 and "hits on 4+" in die.purpose


WOOD_AROUND_17 = [[(16.5, 0), (18, 0), (18, 20), (16.5, 20)]]
WOOD_AROUND_20 = [[(19.5, 0), (21, 0), (21, 20), (19.5, 20)]]


def test_vh_sh_08_cover_takes_one_off_the_die() -> None:
    # Close range in the wood: 5-6. Long range in the wood: 6 only (1.5" of wood on the line: it can be seen).
    _, fired = shot(position(ARCHER, target_at(17), woods=WOOD_AROUND_17), 4)
    assert (fired.needs, fired.hit, fired.cover) == (5, False, True)
    _, fired = shot(position(ARCHER, target_at(17), woods=WOOD_AROUND_17), 5)
    assert fired.hit
    _, fired = shot(position(ARCHER, target_at(20), woods=WOOD_AROUND_20), 5)
    assert (fired.needs, fired.hit) == (6, False)
    _, fired = shot(position(ARCHER, target_at(20), woods=WOOD_AROUND_20), 6)
    assert fired.hit
    # A village gives the same cover.
    _, fired = shot(position(ARCHER, target_at(17), villages=WOOD_AROUND_17), 4)
    assert fired.cover and fired.needs == 5


def test_vh_ms_04_cover_is_judged_by_the_targets_centre() -> None:
    # The wood starts at x = 17.3: the target's base (16.5..17.5) reaches into it, its centre does not.
    wood = [[(17.3, 0), (20, 0), (20, 20), (17.3, 20)]]
    _, fired = shot(position(ARCHER, target_at(17), woods=wood), 4)
    assert not fired.cover and fired.needs == 4 and fired.hit


def test_shot_hits_on_table() -> None:
    assert [shot_hits_on(d, False) for d in (0, 6, 6.01, 12, 12.01)] == [4, 4, 5, 5, None]
    assert [shot_hits_on(d, True) for d in (0, 6, 12)] == [5, 5, 6]


def test_vh_sh_01_only_archers_and_slingers_shoot() -> None:
    state = position([(10, 10), (4, 2), (6, 2)], target_at(17))
    assert "only archers and slingers shoot" in refused(state, Shoot(0, 4))
    assert "only archers and slingers shoot" in refused(state, Shoot(1, 4))
    players = [player(0, (2, 2), (4, 2), (10, 10), slinger=True), player(1, (46, 30), (17, 10), (42, 30))]
    slinger = first(GAME.initial_state(make(players=players)))
    _, fired = shot(slinger, 4)
    assert fired.hit and fired.needs == 4  # VH-CB-03: a slinger shoots as an archer


def test_vh_sh_02_no_shooting_at_figures_in_combat_nor_from_combat() -> None:
    state = position([(2, 2), (17, 11), (10, 10)], target_at(17))
    state = replace(state, engagements=(Engagement(1, 4),))
    assert "no shooting at figures in combat" in refused(state, Shoot(2, 4))
    busy = replace(position(ARCHER, [(46, 30), (17, 10), (11, 10)]), engagements=(Engagement(5, 2),))
    assert "in combat and cannot shoot" in refused(busy, Shoot(2, 4))


def test_vh_sh_02_only_living_enemies() -> None:
    state = position(ARCHER, target_at(17))
    assert "not a living enemy" in refused(state, Shoot(2, 1))
    dead = state.with_figure(replace(state.figures[4], alive=False))
    assert "not a living enemy" in refused(dead, Shoot(2, 4))


def test_vh_ms_04_more_than_2_inches_of_woods_block_the_line_of_sight() -> None:
    deep = [[(13, 0), (16, 0), (16, 20), (13, 20)]]  # 3" of wood between
    assert "cannot see" in refused(position(ARCHER, target_at(20), woods=deep), Shoot(2, 4))
    two = [[(13, 0), (15, 0), (15, 20), (13, 20)]]  # 2" exactly: not more than 2"
    _, fired = shot(position(ARCHER, target_at(20), woods=two), 5)
    assert fired.hit and not fired.cover
    assert "cannot see" in refused(position(ARCHER, target_at(20), villages=deep), Shoot(2, 4))


def test_vh_ms_04_a_hill_crest_higher_than_both_blocks_and_figures_do_not() -> None:
    # A hill x 13..19, 1" slope: the crest x 14..18 is higher than both figures on the flat.
    hill = [((13, 0), (19, 0), (19, 20), (13, 20)), 1, 1.0]
    assert "stands between them" in refused(position(ARCHER, target_at(22), hills=[hill]), Shoot(2, 4))
    # Figures do not block: the archer's own warrior stands on the line.
    _, fired = shot(position([(2, 2), (14, 10), (10, 10)], target_at(20)), 5)
    assert fired.hit


def test_vh_sh_09_a_hit_calls_for_a_saving_throw_a_miss_does_not() -> None:
    state, fired = shot(position(ARCHER, target_at(17)), 6)
    assert fired.hit and state.saves == (4,)
    die = GAME.chance_outcomes(state)
    assert die is not None and die.sides == 6 and "Dice of Death" in die.purpose
    state, fired = shot(position(ARCHER, target_at(17)), 1)
    assert not fired.hit and state.saves == ()


def test_vh_ac_17_two_shots_may_have_different_targets_and_end_the_activation() -> None:
    state = position(ARCHER, [(20, 12), (17, 10), (42, 30)])
    state, first_shot = shot(state, 1, target=4)
    assert not first_shot.hit and state.active == 2
    state, events = act(state, Shoot(2, 3), 1)
    assert of(events, ShotFired)[0].target == 3 and ActivationEnded(2) in events


def test_vh_ac_17_move_then_shoot() -> None:
    state = position([(2, 2), (4, 2), (4, 10)], target_at(17))
    state, _ = act(state, Move(2, (10, 10)))
    _, fired = shot(state, 4)
    assert fired.needs == 4 and fired.hit
