"""A reach's outline from the points offered (geometry/reach.py), shared by the inch tables."""

from __future__ import annotations

from iwgt.geometry.reach import furthest_by_sector, reach_outline


def test_the_furthest_point_of_each_sector_in_sector_order() -> None:
    """Four sectors round (0, 0): east, north, west, south; the nearer point east (1, 0) gives way to (3, 0),
    the start itself is left out."""
    pts = [(0.0, 2.0), (1.0, 0.0), (3.0, 0.0), (0.0, 0.0), (-2.0, 0.0), (0.0, -1.0)]
    assert furthest_by_sector((0.0, 0.0), pts, 4) == [(3.0, 0.0), (0.0, 2.0), (-2.0, 0.0), (0.0, -1.0)]
    assert reach_outline((0.0, 0.0), pts, 4, hull=False) == [(3.0, 0.0), (0.0, 2.0), (-2.0, 0.0), (0.0, -1.0)]


def test_the_hull_outline_and_too_few_sectors() -> None:
    """A point inside the hull of the others is no corner of the outline; two sectors are no outline."""
    pts = [(4.0, 0.0), (0.0, 4.0), (-4.0, 0.0), (0.0, -4.0), (1.0, 1.0)]
    outline = reach_outline((0.0, 0.0), pts, 8)
    assert sorted(outline) == [(-4.0, 0.0), (0.0, -4.0), (0.0, 4.0), (4.0, 0.0)]
    assert reach_outline((0.0, 0.0), [(1.0, 0.0), (0.0, 1.0)], 8) == []
