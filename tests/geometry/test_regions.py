"""Maps of regions: Voronoi outlines, adjacency, border kinds, and the paths an army may take (mountains
block, bridges are free, an unbridged river or an occupied region ends the path, links join far regions)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from iwgt.geometry.regions import (
    BorderKind,
    MapError,
    RegionMap,
    build,
    check_path,
    distance,
    paths,
)

# A 3 x 3 grid of sites two units apart on a 6 x 6 board: each cell is a 2 x 2 square.
#   a b c
#   d e f
#   g h i
GRID = {name: (1.0 + 2 * (k % 3), 1.0 + 2 * (k // 3)) for k, name in enumerate("abcdefghi")}


def pair(a: str, b: str) -> frozenset[str]:
    """The key of a border in the kinds mapping."""
    return frozenset((a, b))


def grid(**kinds: BorderKind) -> RegionMap:
    """The 3 x 3 grid with border kinds given as ab="river" and the like."""
    return build(GRID, 6, 6, {pair(k[0], k[1]): v for k, v in kinds.items()})


def test_grid_adjacency_is_the_shared_edges_and_corners_do_not_count() -> None:
    m = grid()
    assert m.ids == tuple("abcdefghi")
    assert m.neighbours("a") == ("b", "d")
    assert m.neighbours("e") == ("b", "d", "f", "h")
    assert m.neighbours("i") == ("f", "h")
    assert m.border("a", "e") is None  # they meet at one corner only
    assert len(m.borders()) == 12  # 6 horizontal + 6 vertical neighbours in a 3 x 3 grid


def test_outlines_are_the_clipped_voronoi_cells_and_centres_lie_inside() -> None:
    m = grid()
    assert sorted(m.outlines["e"]) == [(2.0, 2.0), (2.0, 4.0), (4.0, 2.0), (4.0, 4.0)]
    assert sorted(m.outlines["a"]) == [(0.0, 0.0), (0.0, 2.0), (2.0, 0.0), (2.0, 2.0)]
    assert m.centres["e"] == (3.0, 3.0)
    border = m.border("b", "e")
    assert border is not None and border.kind == "open" and (border.a, border.b) == ("b", "e")
    assert sorted(border.segment) == [(2.0, 2.0), (4.0, 2.0)]


def test_a_short_shared_edge_is_no_border() -> None:
    """Sites of a nearly square grid: the cells of ne and sw meet along a stub 0.14 long (under 0.5)."""
    sites = {"nw": (1.0, 1.0), "ne": (3.0, 1.0), "sw": (1.0, 3.0), "se": (3.2, 3.0)}
    m = build(sites, 4, 4, {})
    assert m.border("ne", "sw") is None and m.border("nw", "se") is None
    assert m.neighbours("nw") == ("ne", "sw") and m.neighbours("ne") == ("nw", "se")


def test_given_outlines_are_used_as_they_are() -> None:
    outlines = {"w": [(0, 0), (3, 0), (3, 4), (0, 4)], "e": [(3, 0), (6, 0), (6, 4), (3, 4)]}
    m = build({"w": (1, 1), "e": (5, 3)}, 6, 4, {pair("w", "e"): "bridge"}, outlines)
    border = m.border("e", "w")
    assert border is not None and border.kind == "bridge" and sorted(border.segment) == [(3, 0), (3, 4)]


def test_an_outline_that_misses_its_site_is_refused() -> None:
    outlines = {"w": [(0, 0), (3, 0), (3, 4), (0, 4)], "e": [(3, 0), (6, 0), (6, 4), (3, 4)]}
    with pytest.raises(MapError) as err:
        build({"w": (1, 1), "e": (1, 3)}, 6, 4, {}, outlines)
    assert err.value.key == "outlines.e"


def test_a_mountain_blocks_but_stays_a_neighbour() -> None:
    m = grid(ab="mountain", de="mountain")
    assert "b" in m.neighbours("a")
    reach = paths(m, "a", 3)
    # a -> d -> (d-e blocked) g -> h: e needs 4 steps, b 5: out of reach in 3.
    assert reach == {"d": ("d",), "g": ("d", "g"), "h": ("d", "g", "h")}
    assert check_path(m, "a", ["b"], 3) == "a mountain range lies between a and b (step 1)"


def test_a_bridge_does_not_stop_the_move() -> None:
    m = grid(ab="bridge", bc="bridge")
    assert paths(m, "a", 2)["c"] == ("b", "c")
    assert check_path(m, "a", ["b", "c"], 3) is None


def test_an_unbridged_river_ends_the_path_unless_fording() -> None:
    m = grid(ab="river", ad="river")
    reach = paths(m, "a", 3)
    assert reach == {"b": ("b",), "d": ("d",)}
    assert check_path(m, "a", ["b"], 3) is None  # crossing as the last step is fine
    assert check_path(m, "a", ["b", "c"], 3) == (
        "crossing the river from a into b without a bridge ends the move (step 1)"
    )
    forded = paths(m, "a", 3, ford=True)
    assert forded["c"] == ("b", "c") and forded["f"] == ("b", "c", "f")
    assert check_path(m, "a", ["b", "c"], 3, ford=True) is None


def test_a_river_crossed_last_may_still_be_reached_further_by_a_longer_way() -> None:
    """e is reached across the river b-e in 1 step, but only the 3-step way round (by a and d) goes on."""
    m = grid(be="river", bc="mountain")
    reach = paths(m, "b", 4)
    assert reach["e"] == ("e",)  # the river crossing is the last step, and the shortest
    assert reach["f"] == ("a", "d", "e", "f")
    assert reach["h"] == ("a", "d", "e", "h")  # e before g in region order
    assert "f" not in paths(m, "b", 3)  # b-e-f crosses the river before its last step


def test_a_stop_region_ends_the_path() -> None:
    m = grid()
    occupied: Callable[[str], bool] = lambda r: r == "b"  # noqa: E731
    reach = paths(m, "a", 3, stops=occupied)
    assert reach["b"] == ("b",)
    assert "c" not in reach  # a-b-c goes through b; a-d-e-f-c is 4 steps
    assert check_path(m, "a", ["b", "c"], 3, stops=occupied) == (
        "the move stops in b: it may only be the last region (step 1)"
    )


def test_links_join_far_regions_like_tunnels() -> None:
    m = grid(ab="mountain")
    assert paths(m, "a", 1) == {"d": ("d",)}
    dug = paths(m, "a", 2, links=[("a", "i")])
    assert dug == {
        "d": ("d",),
        "i": ("i",),
        "e": ("d", "e"),
        "g": ("d", "g"),
        "f": ("i", "f"),
        "h": ("i", "h"),
    }
    assert check_path(m, "a", ["i", "h"], 2, links=[("a", "i")]) is None
    assert check_path(m, "a", ["i"], 2) == "a and i are not adjacent (step 1)"
    # A link under a mountain opens that pair too.
    assert paths(m, "a", 1, links=[("b", "a")]) == {"b": ("b",), "d": ("d",)}
    assert check_path(m, "a", ["b"], 1, links=[("b", "a")]) is None


def test_ties_are_broken_by_region_order() -> None:
    m = grid()
    reach = paths(m, "a", 2)
    assert reach["e"] == ("b", "e")  # a-b-e before a-d-e: b comes before d
    assert list(reach) == ["b", "d", "c", "e", "g"]  # by distance, then in the order found


def test_the_start_is_never_a_destination_and_steps_count() -> None:
    m = grid()
    assert "a" not in paths(m, "a", 3)
    assert set(paths(m, "e", 1)) == {"b", "d", "f", "h"}
    assert check_path(m, "a", [], 3) == "no steps: a move goes to at least one other region"
    assert check_path(m, "a", ["b", "c", "f", "i"], 3) == "too long: 4 steps, at most 3"
    assert check_path(m, "a", ["b", "a"], 3) == "a twice: a path visits each region once (step 2)"
    assert check_path(m, "a", ["e"], 3) == "a and e are not adjacent (step 1)"
    assert check_path(m, "a", ["zz"], 3) == "no region called 'zz' (step 1)"


def test_distance_ignores_rivers_and_stops_but_not_mountains() -> None:
    m = grid(ab="river", be="mountain", de="mountain", fe="mountain")
    assert distance(m, "a", "c") == 2
    assert distance(m, "a", "e") == 4  # only h-e is open: a-d-g-h-e
    assert distance(m, "e", "e") == 0


def test_a_border_between_regions_that_do_not_touch_is_refused() -> None:
    with pytest.raises(MapError) as err:
        build(GRID, 6, 6, {pair("a", "b"): "river", pair("a", "e"): "river"})
    assert err.value.key == "borders.1"
    assert str(err.value) == "borders.1: a and e are not adjacent: they share no edge"


def test_a_border_naming_no_region_is_refused() -> None:
    with pytest.raises(MapError) as err:
        build(GRID, 6, 6, {pair("a", "q"): "river"})
    assert err.value.key == "borders.0" and "no region called 'q'" in str(err.value)


def test_an_island_cut_off_by_mountains_is_refused_by_name() -> None:
    with pytest.raises(MapError) as err:
        grid(ab="mountain", ad="mountain")
    assert err.value.key == "regions.a"
    assert "cannot be reached from b without crossing a mountain" in str(err.value)


def test_sites_off_the_board_or_on_each_other_are_refused() -> None:
    with pytest.raises(MapError) as err:
        build({"a": (1, 1), "b": (7, 1)}, 6, 6, {})
    assert err.value.key == "sites.b"
    with pytest.raises(MapError) as err:
        build({"a": (1, 1), "b": (1, 1)}, 6, 6, {})
    assert err.value.key == "sites.b"


# ------------------------------------------------------------------------------------------------ properties


def _legal_paths(
    m: RegionMap, start: str, steps: int, stops: Callable[[str], bool], ford: bool
) -> dict[str, tuple[str, ...]]:
    """Every region -> its best legal path, by brute force over all paths check_path accepts: the fewest
    steps, then the first in region order."""
    best: dict[str, tuple[str, ...]] = {}

    def grow(path: tuple[str, ...]) -> None:
        if path:
            key = (len(path), [m.index(r) for r in path])
            old = best.get(path[-1])
            if old is None or key < (len(old), [m.index(r) for r in old]):
                best[path[-1]] = path
        if len(path) == steps:
            return
        here = path[-1] if path else start
        for n in m.neighbours(here):
            longer = (*path, n)
            # Grow only legal prefixes: a prefix check_path refuses cannot become legal.
            if check_path(m, start, longer, steps, stops=stops, ford=ford) is None:
                grow(longer)

    grow(())
    return best


@st.composite
def maps(draw: st.DrawFn) -> tuple[RegionMap, str, int, frozenset[str], bool]:
    """A random small map (random sites, random border kinds), a start, steps, stop regions and fording."""
    n = draw(st.integers(4, 10))
    points = draw(
        st.lists(st.tuples(st.integers(1, 19), st.integers(1, 19)), min_size=n, max_size=n, unique=True)
    )
    sites = {f"r{k}": (float(x), float(y)) for k, (x, y) in enumerate(points)}
    plain = build(sites, 20, 20, {})
    kinds: dict[frozenset[str], BorderKind] = {}
    for border in plain.borders():
        kinds[pair(border.a, border.b)] = draw(st.sampled_from(["open", "river", "bridge", "mountain"]))
    try:
        m = build(sites, 20, 20, kinds)
    except MapError:
        assume(False)
        raise
    start = draw(st.sampled_from(m.ids))
    stops = frozenset(draw(st.sets(st.sampled_from(m.ids), max_size=3)))
    return m, start, draw(st.integers(1, 4)), stops, draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(maps())
def test_every_path_is_legal_and_as_short_as_possible(
    case: tuple[RegionMap, str, int, frozenset[str], bool],
) -> None:
    m, start, steps, stops, ford = case
    stop = stops.__contains__
    found = paths(m, start, steps, stops=stop, ford=ford)
    for region, path in found.items():
        assert path[-1] == region
        assert check_path(m, start, path, steps, stops=stop, ford=ford) is None
    # The brute force finds the same destinations, the same (shortest, first in order) paths.
    assert found == _legal_paths(m, start, steps, stop, ford)


@settings(max_examples=60, deadline=None)
@given(maps())
def test_adjacency_is_symmetric_and_borders_match_neighbours(
    case: tuple[RegionMap, str, int, frozenset[str], bool],
) -> None:
    m = case[0]
    for a, b in itertools.permutations(m.ids, 2):
        assert (b in m.neighbours(a)) == (a in m.neighbours(b)) == (m.border(a, b) is not None)
    for border in m.borders():
        assert m.index(border.a) < m.index(border.b)
        assert len(border.segment) >= 2
