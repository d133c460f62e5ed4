"""Formation geometry: blocks of models on a tray, who fights, losses, reforming, charging home, coherency.

Hand-measured cases (expectations worked out on squared paper) and hypothesis properties. Facing 0 looks
along +y and the unit's right is +x, so model 0 (front-left) has the smallest x of the front rank.
"""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from iwgt.games.coloured_dice.formation import (
    CONTACT_EPS,
    UnitGeo,
    after_losses,
    block_tray,
    block_tray_at_front,
    cell_dims,
    cell_of,
    cell_size,
    charge_end,
    coherent,
    fighters,
    files_of,
    model_cells,
    model_points,
    ranks_of,
    reform,
    surely_apart,
)
from iwgt.geometry.trays import Tray, tray_gap, trays_overlap

INCH = (1.0, 1.0)


def close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two points equal to rounding."""
    return math.isclose(a[0], b[0], abs_tol=1e-9) and math.isclose(a[1], b[1], abs_tol=1e-9)


# --- hand-measured layouts -------------------------------------------------------------------------------


def test_ten_models_in_five_files_of_inch_cells() -> None:
    """CD-AC-07, CD-MI-01: 10 models in 5 files of 1" cells: 2 ranks on a 5" x 2" tray, model 0 front-left."""
    tray = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)
    assert (tray.frontage, tray.depth) == (5.0, 2.0)
    pts = model_points(tray, 10, 5)
    # Front rank at y = 10.5 from x = 8 (left) to 12; second rank at y = 9.5.
    assert all(close(p, q) for p, q in zip(pts, [(8 + i % 5, 10.5 - i // 5) for i in range(10)], strict=True))


def test_partial_last_rank_is_centred() -> None:
    """CD-MS-10: 7 models in 5 files: the 2 rear models stand behind the middle (x = 9.5 and 10.5)."""
    tray = block_tray((10.0, 10.0), 0.0, 7, 5, INCH)
    pts = model_points(tray, 7, 5)
    assert close(pts[5], (9.5, 9.5)) and close(pts[6], (10.5, 9.5))


def test_facing_turns_the_block() -> None:
    """A block facing 90 looks along -x and its right is +y: the front-left model is the one at -y."""
    tray = block_tray((0.0, 0.0), 90.0, 2, 2, INCH)
    # Facing 90: forward (-1, 0), right (0, 1). The front rank is at x = -0.5; left is -y.
    pts = model_points(tray, 2, 2)
    assert close(pts[0], (-0.0, -0.5)) and close(pts[1], (0.0, 0.5))


def test_cell_is_base_plus_gap() -> None:
    """CD-AC-05/06: open order leaves 1" between bases, skirmish 3": cells 2" and 4" for 1" bases."""
    assert cell_of((1.0, 1.0), 1.0) == (2.0, 2.0)
    assert cell_of((1.0, 2.0), 3.0) == (4.0, 5.0)
    assert cell_of((2.0, 2.0), 0.0) == (2.0, 2.0)


def test_files_never_exceed_models() -> None:
    """Fewer models than files: the files are the models, in one rank."""
    assert files_of(3, 5) == 3 and ranks_of(3, 5) == 1
    assert ranks_of(11, 5) == 3 and ranks_of(0, 5) == 0


# --- losses ----------------------------------------------------------------------------------------------


def test_three_losses_keep_the_front_edge() -> None:
    """CD-MS-10: 10 models, 5 files, 3 lost: still 2 ranks, the tray unchanged, the rear rank 2 models."""
    tray = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)
    after, files = after_losses(tray, 10, 7, 5)
    assert files == 5
    assert close(after.front_centre(), (10.0, 11.0))
    assert (after.frontage, after.depth) == (5.0, 2.0)


def test_six_losses_shrink_to_one_rank_of_four() -> None:
    """CD-MS-10: 10 models in 5 files down to 4: one rank of 4, the front edge still at y = 11, centred."""
    tray = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)
    after, files = after_losses(tray, 10, 4, 5)
    assert files == 4
    assert (after.frontage, after.depth) == (4.0, 1.0)
    assert close(after.centre, (10.0, 10.5))
    assert close(model_points(after, 4, 4)[0], (8.5, 10.5))


def test_after_losses_refuses_nonsense() -> None:
    """A unit with no models has no tray; losses cannot add models."""
    tray = block_tray((10.0, 10.0), 0.0, 4, 4, INCH)
    with pytest.raises(ValueError):
        after_losses(tray, 4, 0, 4)
    with pytest.raises(ValueError):
        after_losses(tray, 4, 5, 4)


# --- reform ----------------------------------------------------------------------------------------------


def test_reform_keeps_the_front_centre() -> None:
    """CD-AC-08 (designed): 10 models, 5 files loose to 10 files open (2" cells): 20" x 2", same front."""
    tray = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)
    new, files = reform(tray, 10, 10, (2.0, 2.0))
    assert files == 10
    assert (new.frontage, new.depth) == (20.0, 2.0)
    assert close(new.front_centre(), (10.0, 11.0))
    turned, _ = reform(tray, 10, 5, INCH, facing=180.0)
    assert close(turned.front_centre(), (10.0, 11.0)) and turned.facing == 180.0
    assert close(turned.centre, (10.0, 12.0))


# --- fighters --------------------------------------------------------------------------------------------


def _front_to_front(offset: float) -> tuple[Tray, Tray]:
    """A 5 x 1 block facing +y with its front at y = 10.5, and a 5 x 1 enemy facing it, shifted right."""
    mine = block_tray((10.0, 10.0), 0.0, 5, 5, INCH)
    theirs = block_tray((10.0 + offset, 11.0), 180.0, 5, 5, INCH)
    return mine, theirs


def test_overlapping_files_fight() -> None:
    """CD-FI-01: front to front, the enemy 1.7" right: files 1-4 overlap it (file 1 by 0.3") and fight."""
    mine, theirs = _front_to_front(1.7)
    geo = UnitGeo(mine, 5, 5)
    assert fighters(geo, theirs, fights_together=False, reach=1) == [1, 2, 3, 4]


def test_a_corner_touch_is_a_touch() -> None:
    """CD-FI-01 (within CONTACT_EPS of the enemy tray): shifted 2", file 1 touches it corner to corner."""
    mine, theirs = _front_to_front(2.0)
    assert fighters(UnitGeo(mine, 5, 5), theirs, fights_together=False, reach=1) == [1, 2, 3, 4]
    mine, theirs = _front_to_front(2.0 + 2 * CONTACT_EPS)
    assert fighters(UnitGeo(mine, 5, 5), theirs, fights_together=False, reach=1) == [2, 3, 4]


def test_formation_front_rank_fights_together() -> None:
    """CD-AC-04: a formation unit touched over files 2-4 fights with its whole front rank."""
    mine, theirs = _front_to_front(2.5)
    two_ranks = block_tray_at_front(mine.front_centre(), 0.0, 10, 5, INCH)
    assert fighters(UnitGeo(two_ranks, 10, 5), theirs, fights_together=True, reach=1) == [0, 1, 2, 3, 4]
    assert fighters(UnitGeo(two_ranks, 10, 5), theirs, fights_together=False, reach=1) == [2, 3, 4]


def test_spears_fight_from_the_second_rank() -> None:
    """CD-FI-02: reach 2: the rank-2 models behind fighting models fight too (files 2-4: models 7-9)."""
    mine, theirs = _front_to_front(2.5)
    block = block_tray_at_front(mine.front_centre(), 0.0, 10, 5, INCH)
    assert fighters(UnitGeo(block, 10, 5), theirs, fights_together=False, reach=2) == [2, 3, 4, 7, 8, 9]
    assert fighters(UnitGeo(block, 10, 5), theirs, fights_together=True, reach=2) == list(range(10))
    # A third rank never reaches.
    deep = block_tray_at_front(mine.front_centre(), 0.0, 15, 5, INCH)
    assert fighters(UnitGeo(deep, 15, 5), theirs, fights_together=True, reach=2) == list(range(10))


def test_spears_behind_a_partial_rank() -> None:
    """CD-FI-02: 7 models in 5 files, only file 1 touching: rear model 5 (x 9-10) is behind it, 6 is not."""
    front = block_tray_at_front((10.0, 10.5), 0.0, 7, 5, INCH)
    # An enemy touching only model 1 (x 8.5..9.5 at the front, y = 10.5): a 0.8" wide tray at x 8.6..9.4.
    enemy = Tray((9.0, 11.0), 180.0, 0.8, 1.0)
    geo = UnitGeo(front, 7, 5)
    assert fighters(geo, enemy, fights_together=False, reach=2) == [1, 5]


def test_no_touch_no_fighters() -> None:
    """CD-FI-01: an enemy 0.5" away touches nobody: nobody fights, formation or not."""
    mine, theirs = _front_to_front(0.0)
    far = theirs.moved((theirs.centre[0], theirs.centre[1] + 0.5))
    assert fighters(UnitGeo(mine, 5, 5), far, fights_together=True, reach=2) == []


def test_flank_contact_touches_the_end_models() -> None:
    """CD-FI-01: an enemy on the left flank of a 5 x 2 block touches models 0 and 5 only (open order)."""
    block = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)
    enemy = Tray((6.5, 10.0), 270.0, 2.0, 2.0)  # its front on x = 7.5, the block's left edge
    assert fighters(UnitGeo(block, 10, 5), enemy, fights_together=False, reach=1) == [0, 5]
    assert fighters(UnitGeo(block, 10, 5), enemy, fights_together=True, reach=1) == [0, 1, 2, 3, 4, 5]


# --- charge end ------------------------------------------------------------------------------------------


def test_charge_end_front() -> None:
    """CD-MS-16: a charger straight ahead of a 5 x 2 target ends flush on its front, centred, facing it."""
    target = block_tray((10.0, 10.0), 180.0, 10, 5, INCH)  # faces -y: its front edge on y = 9
    charger = block_tray((12.0, 2.0), 0.0, 6, 3, INCH)
    end = charge_end(charger, target)
    assert close(end.centre, (10.0, 8.0)) and end.facing == 0.0
    assert math.isclose(tray_gap(end, target), 0.0, abs_tol=1e-9) and not trays_overlap(end, target)


def test_charge_end_flank() -> None:
    """CD-MS-16: from the target's right (its +x side when facing +y), the charger ends on that flank."""
    target = block_tray((10.0, 10.0), 0.0, 10, 5, INCH)  # x 7.5..12.5
    charger = block_tray((25.0, 10.0), 90.0, 4, 2, INCH)
    end = charge_end(charger, target)
    assert close(end.centre, (13.5, 10.0)) and end.facing == 90.0


# --- properties ------------------------------------------------------------------------------------------

sizes = st.sampled_from([1.0, 2.0])
gaps = st.sampled_from([0.0, 1.0, 3.0])
coords = st.floats(min_value=-50, max_value=50, allow_nan=False)
facings = st.floats(min_value=0, max_value=359.9, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    models=st.integers(1, 40),
    files=st.integers(1, 12),
    bw=sizes,
    bd=sizes,
    gap=gaps,
    x=coords,
    y=coords,
    facing=facings,
)
def test_cells_tile_the_tray(
    models: int, files: int, bw: float, bd: float, gap: float, x: float, y: float, facing: float
) -> None:
    """CD-MI-01: cells never overlap each other and lie within the tray; their count is the models."""
    cell = cell_of((bw, bd), gap)
    tray = block_tray((x, y), facing, models, files, cell)
    cells = model_cells(tray, models, files)
    assert len(cells) == models
    body = tray.polygon().buffer(1e-6)
    assert all(body.contains(c) for c in cells)
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            # Snap-rounded overlay: plain overlay of nearly coincident edges can go wrong in GEOS.
            assert shapely.intersection(a, b, grid_size=1e-9).area < 1e-6
    assert cell_dims(tray, models, files) == pytest.approx(cell)


@settings(max_examples=60, deadline=None)
@given(
    models=st.integers(1, 40),
    lost=st.integers(0, 39),
    files=st.integers(1, 12),
    x=coords,
    y=coords,
    facing=facings,
)
def test_after_losses_keeps_the_front_edge(
    models: int, lost: int, files: int, x: float, y: float, facing: float
) -> None:
    """CD-MS-10: casualties from the rear: the front centre and facing stay; the tray never grows."""
    assume(lost < models)
    f = files_of(models, files)
    tray = block_tray((x, y), facing, models, f, (1.0, 2.0))
    after, new_files = after_losses(tray, models, models - lost, f)
    assert close(after.front_centre(), tray.front_centre())
    assert after.facing == tray.facing
    assert after.depth <= tray.depth + 1e-9 and after.frontage <= tray.frontage + 1e-9
    assert new_files == min(f, models - lost)
    # The front rank models that remain stand where they stood (centred when the files shrink).
    if new_files == f:
        before_front = model_points(tray, models, f)[:f]
        after_front = model_points(after, models - lost, f)[:f]
        assert all(close(p, q) for p, q in zip(after_front, before_front, strict=True))


@settings(max_examples=60, deadline=None)
@given(
    models=st.integers(1, 30),
    files=st.integers(1, 10),
    base=st.sampled_from([(1.0, 1.0), (1.0, 2.0), (2.0, 2.0)]),
    order=st.sampled_from([(0.0, 0.0), (1.0, 2.0), (3.0, 4.0)]),
    facing=facings,
)
def test_coherency_holds_by_construction(
    models: int, files: int, base: tuple[float, float], order: tuple[float, float], facing: float
) -> None:
    """CD-AC-05..07: open (1" gaps, 2" limit), skirmish (3", 4") and formation (touching) are coherent."""
    gap, limit = order
    tray = block_tray((0.0, 0.0), facing, models, files, cell_of(base, gap))
    assert coherent(tray, models, files, base, limit)
    # Neighbours in a rank are exactly the gap apart, so a limit under the gap breaks any open block.
    if models > 1 and gap > 0:
        assert not coherent(tray, models, files, base, gap - 0.1)


@settings(max_examples=80, deadline=None)
@given(
    cx=coords,
    cy=coords,
    cf=facings,
    cm=st.integers(1, 20),
    cfiles=st.integers(1, 8),
    tx=coords,
    ty=coords,
    tf=facings,
    tm=st.integers(1, 20),
    tfiles=st.integers(1, 8),
)
def test_charge_end_touches_and_never_overlaps(
    cx: float,
    cy: float,
    cf: float,
    cm: int,
    cfiles: int,
    tx: float,
    ty: float,
    tf: float,
    tm: int,
    tfiles: int,
) -> None:
    """CD-MS-16: wherever it starts, the charger ends touching the target (gap 0), never overlapping it."""
    charger = block_tray((cx, cy), cf, cm, cfiles, INCH)
    target = block_tray((tx, ty), tf, tm, tfiles, (1.0, 2.0))
    assume(not trays_overlap(charger, target))
    end = charge_end(charger, target)
    assert not trays_overlap(end, target)
    assert tray_gap(end, target) <= 1e-9
    assert (end.frontage, end.depth) == (charger.frontage, charger.depth)
    # Its own front rank touches the target: a formation charger fights with it.
    assert fighters(UnitGeo(end, cm, cfiles), target, fights_together=False, reach=1)


def test_skirmish_rear_model_within_four_inches() -> None:
    """CD-AC-06: 3 skirmishers (1" bases, 3" gaps) in 2 files: the centred rear one is 3.16" off."""
    tray = block_tray((0.0, 0.0), 0.0, 3, 2, cell_of((1.0, 1.0), 3.0))
    assert coherent(tray, 3, 2, (1.0, 1.0), 4.0)
    assert not coherent(tray, 3, 2, (1.0, 1.0), 3.1)
    assert coherent(tray, 3, 2, (1.0, 1.0), 3.17)


def test_cell_size_from_the_rules() -> None:
    """CD-AC-05..08: the data's bases (infantry 1x1", cavalry 1x2") plus the gap (open 1", skirmish 3")."""
    assert cell_size("infantry", "loose") == (1.0, 1.0)
    assert cell_size("infantry", "open") == (2.0, 2.0)
    assert cell_size("infantry", "skirmish") == (4.0, 4.0)
    assert cell_size("cavalry", "tight") == (1.0, 2.0)
    assert cell_size("cavalry", "open", gap=0.5) == (1.5, 2.5)


def test_surely_apart_never_parts_trays_nearer_than_asked() -> None:
    """CD-FI (contact within CONTACT_EPS), the cheap test before the exact gap: trays 10" apart are surely
    more than 1" apart; trays side by side 0.5" apart are not *surely* more than 0.4" apart (the bound is
    the centres' distance less both half-diagonals: 2.5 - 2.236 = 0.264); over a sweep of placements and
    facings it never says apart when the true gap is within the distance asked."""
    a = Tray((0.0, 0.0), 0.0, 2.0, 1.0)
    assert surely_apart(a, a.moved((10.0, 0.0)), 1.0)
    assert not surely_apart(a, a.moved((2.5, 0.0)), 0.4)
    assert tray_gap(a, a.moved((2.5, 0.0))) == pytest.approx(0.5)
    for i in range(200):
        b = Tray((i % 20 * 0.37, i // 20 * 0.41), i * 17.0 % 360, 1.0 + i % 3, 0.5 + i % 2)
        for by in (0.0, 0.05, 1.0):
            if surely_apart(a, b, by):
                assert tray_gap(a, b) > by
