"""The maps of Myrathia (WQ-MP-01..06, designed WQ-MS-25..32): both shipped maps load with the spec's counts,
their rivers and mountain ranges are chains of borders, movement on them follows WQ-MV-10..14, and broken
copies of a map file are refused with the file and the dotted key."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from math import dist

import pytest
from shapely.geometry import Point, Polygon

from iwgt.core.errors import DataFileError
from iwgt.games.warquest.maps import (
    KINGDOMS,
    LOCATIONS,
    MAPS_DIR,
    PEOPLES,
    WqMap,
    load_map,
    map_json,
    map_keys,
    parse_map,
)
from iwgt.geometry.regions import Border, check_path, paths

SPEC_KINGDOMS = {
    "vandar": ("Vandar", "#c9a227"),
    "aldmark": ("Aldmark", "#3b6fb6"),
    "corwen": ("Corwen", "#b03a2e"),
    "eskerholt": ("Eskerholt", "#2e8b57"),
    "morvath": ("Morvath", "#6c3483"),
    "thalassa": ("Thalassa", "#17a589"),
    "drennor": ("Drennor", "#d35400"),
    "sylmar": ("Sylmar", "#839192"),
}
"""The kingdoms as the team spec names and colours them (WQ-MS-26)."""

SPEC_LOCATION_KINDS = {
    "tower_of_winds": "tower",
    "tower_of_embers": "tower",
    "black_tower": "tower",
    "deep_tunnels": "tunnel",
    "goblin_tunnels": "tunnel",
    "dwarf_gate": "tunnel",
    "tomb_of_the_wraith_king": "tomb",
    "barrow_of_kings": "tomb",
    "monument_of_vandar": "monument",
    "standing_stones": "monument",
    "dungeon_of_despair": "dungeon",
    "the_pit": "dungeon",
    "dragon_cave": "cave",
    "crystal_cave": "cave",
    "sunken_temple": "shrine",
}
"""The 15 special locations and their kinds (WQ-MP-05, WQ-MS-28)."""

GAP = 0.05
"""Where three or four regions nearly meet at a corner, two border edges along a river may end this far apart
(a corner split by the Voronoi construction): a river is still one line."""


@pytest.fixture(scope="module")
def myrathia() -> WqMap:
    return load_map("myrathia")


@pytest.fixture(scope="module")
def marches() -> WqMap:
    return load_map("marches")


def chains(borders: Iterable[Border]) -> list[list[Border]]:
    """Borders grouped into lines: two borders are in one line when their edges meet (within GAP)."""
    left = list(borders)
    groups: list[list[Border]] = []
    while left:
        group = [left.pop()]
        grown = True
        while grown:
            grown = False
            for b in list(left):
                ends = (b.segment[0], b.segment[-1])
                if any(dist(e, g.segment[k]) <= GAP for g in group for k in (0, -1) for e in ends):
                    group.append(b)
                    left.remove(b)
                    grown = True
        groups.append(group)
    return groups


def ends_of(group: list[Border]) -> list[tuple[float, float]]:
    """The loose ends of a line of borders: edge ends that meet no other edge of the line."""
    points = [p for b in group for p in (b.segment[0], b.segment[-1])]
    return [p for p in points if sum(dist(p, q) <= GAP for q in points) == 1]


# ----------------------------------------------------------------------------------------------- shipped maps


def test_both_maps_are_shipped_and_load() -> None:
    assert map_keys() == ("marches", "myrathia")
    assert load_map("myrathia") is load_map("myrathia")  # built once


def test_the_standard_map_has_the_spec_counts(myrathia: WqMap) -> None:
    """WQ-MS-25..31: 8 kingdoms x 4 regions + 16 wild regions = 48 on a 42 x 36 board, for 3 to 5 warlords."""
    m = myrathia
    assert (m.key, m.name, m.width, m.height, m.players) == ("myrathia", "Myrathia", 42, 36, (3, 5))
    assert len(m.regions) == 48 and tuple(m.geometry.ids) == tuple(m.regions)
    assert {k: len(v.regions) for k, v in m.kingdoms.items()} == dict.fromkeys(KINGDOMS, 4)
    people = Counter(r.people for r in m.regions.values() if r.people)
    assert people == {
        "goblin": 3,
        "elf": 3,
        "orc": 3,
        "dwarf": 2,
        "satyr": 2,
        "bugbear": 1,
        "troll": 1,
        "dragon": 1,
    }
    cities = [r for r in m.regions.values() if r.city]
    capitals = [r for r in cities if r.capital]
    assert len(cities) == 14 and len(capitals) == 8
    assert all(4 <= r.tax <= 5 for r in capitals) and all(2 <= r.tax <= 3 for r in cities if not r.capital)
    assert sum(r.battlefield for r in m.regions.values()) == 5


def test_the_small_map_has_the_spec_counts(marches: WqMap) -> None:
    """The two-player map: 8 kingdoms x 2 regions + one wild land per people = 24 on 24 x 20; 8 cities."""
    m = marches
    assert (m.key, m.width, m.height, m.players) == ("marches", 24, 20, (2, 2))
    assert len(m.regions) == 24
    assert {k: len(v.regions) for k, v in m.kingdoms.items()} == dict.fromkeys(KINGDOMS, 2)
    assert Counter(r.people for r in m.regions.values() if r.people) == dict.fromkeys(PEOPLES, 1)
    cities = [r for r in m.regions.values() if r.city]
    assert len(cities) == 8 and all(r.capital and 4 <= r.tax <= 5 for r in cities)
    assert sum(r.battlefield for r in m.regions.values()) == 2


@pytest.mark.parametrize("key", ["myrathia", "marches"])
def test_every_kingdom_as_the_spec_names_it_with_one_capital(key: str) -> None:
    """WQ-MS-26/27: the eight kingdoms' names and colours; one capital each, a city in the kingdom."""
    m = load_map(key)
    assert {k.key: (k.name, k.colour) for k in m.kingdoms.values()} == SPEC_KINGDOMS
    for k in m.kingdoms.values():
        capitals = [r for r in k.regions if m.regions[r].capital]
        assert len(capitals) == 1 and m.regions[capitals[0]].city


@pytest.mark.parametrize("key", ["myrathia", "marches"])
def test_the_fifteen_locations_are_each_on_exactly_one_region(key: str) -> None:
    """WQ-MS-28: every location key on one region of every map (the quest cards may name any of them)."""
    m = load_map(key)
    assert {k: kind for k, (_, kind) in LOCATIONS.items()} == SPEC_LOCATION_KINDS
    placed = [loc for r in m.regions.values() for loc in r.locations]
    assert sorted(placed) == sorted(LOCATIONS)
    for loc, region in m.location_region.items():
        assert loc in m.regions[region].locations


@pytest.mark.parametrize("key", ["myrathia", "marches"])
def test_kingdoms_and_wild_lands_are_each_one_piece(key: str) -> None:
    """A kingdom is "a group of regions" (WQ-MP-03) and a people's land lies together: each is connected."""
    m = load_map(key)
    groups = [set(k.regions) for k in m.kingdoms.values()]
    groups += [{r.id for r in m.regions.values() if r.people == p} for p in PEOPLES]
    for group in groups:
        start = min(group)
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for n in m.geometry.neighbours(here):
                if n in group and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == group


def test_the_wild_lands_ring_the_edges_and_the_kingdoms_meet_only_the_sea(myrathia: WqMap) -> None:
    """The other races were "driven back into the wild lands on the periphery" (introduction): every people's
    land reaches a board edge; a kingdom region reaches only the south edge (the sea coast)."""
    m = myrathia

    def edges(region: str) -> set[str]:
        xs = [p[0] for p in m.geometry.outlines[region]]
        ys = [p[1] for p in m.geometry.outlines[region]]
        found = {
            "west": min(xs) == 0,
            "north": min(ys) == 0,
            "east": max(xs) == m.width,
            "south": max(ys) == m.height,
        }
        return {side for side, touches in found.items() if touches}

    for people in PEOPLES:
        assert any(edges(r.id) for r in m.regions.values() if r.people == people), people
    for k in m.kingdoms.values():
        for r in k.regions:
            assert edges(r) <= {"south"}, r
    coast = {m.regions[r].kingdom for r in m.regions if m.regions[r].kingdom and edges(r)}
    assert coast == {"corwen", "thalassa"}


def test_the_standard_map_has_two_rivers_with_four_bridges_and_two_mountain_ranges(myrathia: WqMap) -> None:
    """WQ-MS-30/32: 12 river borders (4 bridged) in two rivers that each run from the end of a mountain range
    to the sea edge; 6 mountain borders in two ranges."""
    borders = myrathia.geometry.borders()
    kinds = Counter(b.kind for b in borders)
    assert (kinds["river"], kinds["bridge"], kinds["mountain"]) == (8, 4, 6)
    rivers = chains(b for b in borders if b.kind in ("river", "bridge"))
    ranges = chains(b for b in borders if b.kind == "mountain")
    assert len(rivers) == 2 and len(ranges) == 2
    assert sorted(sum(b.kind == "bridge" for b in r) for r in rivers) == [2, 2]
    mountain_points = [p for b in borders if b.kind == "mountain" for p in (b.segment[0], b.segment[-1])]
    for river in rivers:
        top, bottom = sorted(ends_of(river), key=lambda p: p[1])
        assert bottom[1] == 36  # reaches the sea on the south edge
        assert any(dist(top, p) <= GAP for p in mountain_points)  # rises in the mountains


def test_the_small_map_has_one_river_with_one_bridge_and_one_range(marches: WqMap) -> None:
    borders = marches.geometry.borders()
    kinds = Counter(b.kind for b in borders)
    assert (kinds["river"], kinds["bridge"], kinds["mountain"]) == (4, 1, 2)
    (river,) = chains(b for b in borders if b.kind in ("river", "bridge"))
    (_,) = chains(b for b in borders if b.kind == "mountain")
    top, bottom = sorted(ends_of(river), key=lambda p: p[1])
    assert bottom[1] == 20
    assert any(dist(top, p) <= GAP for b in borders if b.kind == "mountain" for p in b.segment)


def test_movement_on_the_standard_map_follows_its_borders(myrathia: WqMap) -> None:
    """WQ-MV-12: the Ironspine blocks Duskmoor from Ironcrown Hold; WQ-MV-13: the Kingsbridge carries an army
    on from Kingsfield into Sylmar; WQ-MV-14: the unbridged Silverrun ends a move from Ashford."""
    g = myrathia.geometry
    assert g.kind("duskmoor", "ironcrown") == "mountain" and "ironcrown" in g.neighbours("duskmoor")
    assert "ironcrown" not in paths(g, "duskmoor", 1)
    assert check_path(g, "duskmoor", ["ironcrown"], 3) is not None
    assert g.kind("kingsfield", "sylmar_downs") == "bridge"
    assert paths(g, "kingsfield", 2)["mistvale"] == ("sylmar_downs", "mistvale")
    assert g.kind("ashford", "willowmere") == "river"
    assert paths(g, "ashford", 1)["willowmere"] == ("willowmere",)
    why = check_path(g, "ashford", ["willowmere", "greyharrow"], 3)
    assert why is not None and "river" in why


def test_map_json_is_the_drawing_data(marches: WqMap) -> None:
    data = map_json(marches)
    json.dumps(data)  # plain JSON
    assert set(data) == {"key", "name", "width", "height", "kingdoms", "regions", "borders"}
    assert [k["key"] for k in data["kingdoms"]] == list(KINGDOMS)
    assert len(data["regions"]) == 24 and len(data["borders"]) == len(marches.geometry.borders())
    for r in data["regions"]:
        assert set(r) == {
            "id", "name", "outline", "centre", "kingdom", "people", "city", "tax", "capital", "battlefield",
            "locations",
        }  # fmt: skip
        assert len(r["outline"]) >= 3 and Polygon(r["outline"]).contains(Point(r["centre"]))
    crown = next(r for r in data["regions"] if r["id"] == "crownlands")
    assert crown["locations"] == [
        {"key": "monument_of_vandar", "name": "the Monument of Vandar", "kind": "monument"}
    ]
    assert (crown["city"], crown["tax"], crown["capital"]) == ("Old Vandar", 5, True)
    bridge = next(b for b in data["borders"] if b["kind"] == "bridge")
    assert {bridge["a"], bridge["b"]} == {"kingsford", "crownlands"} and len(bridge["segment"]) >= 2


# ----------------------------------------------------------------------------------------------- broken files

ORIGIN = "broken.toml"
MARCHES = (MAPS_DIR / "marches.toml").read_text(encoding="utf-8")


def broken(old: str, new: str, count: int = 1) -> str:
    """The small map's text with ``old`` (which must be there) replaced by ``new``."""
    assert old in MARCHES, old
    return MARCHES.replace(old, new, count)


def with_borders(*rows: tuple[str, str, str]) -> str:
    """The small map's text with more [[borders]] at the end."""
    more = "".join(f'\n[[borders]]\nbetween = ["{a}", "{b}"]\nkind = "{k}"\n' for a, b, k in rows)
    return MARCHES + more


def refused(text: str) -> DataFileError:
    """The error parse_map raises for a text."""
    with pytest.raises(DataFileError) as err:
        parse_map(text, ORIGIN)
    assert err.value.path == ORIGIN
    return err.value


def border_index(a: str, b: str) -> int:
    """Where the border a-b stands among the file's [[borders]] (counted in the text itself)."""
    at = MARCHES.index(f'between = ["{a}", "{b}"]')
    return MARCHES[:at].count("[[borders]]") - 1


N_BORDERS = MARCHES.count("[[borders]]")


def test_the_shipped_text_parses_as_it_is() -> None:
    assert len(parse_map(MARCHES, ORIGIN).regions) == 24 and N_BORDERS == 7


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        pytest.param(
            broken('kingdom = "aldmark"', 'kingdom = "aldmork"'),
            "regions.coldbarrow.kingdom",
            "unknown kingdom 'aldmork'",
            id="unknown-kingdom",
        ),
        pytest.param(
            broken('people = "troll"', 'people = "trolls"'),
            "regions.trollhaunt.people",
            "unknown people 'trolls'",
            id="unknown-people",
        ),
        pytest.param(
            broken('"crystal_cave"', '"crystal_cavern"'),
            "regions.trollhaunt.locations.0",
            "unknown location 'crystal_cavern'",
            id="unknown-location",
        ),
        pytest.param(
            broken('[kingdoms.sylmar]\nname = "Sylmar"', '[kingdoms.sylvar]\nname = "Sylmar"'),
            "kingdoms.sylvar",
            "unknown kingdom",
            id="unknown-kingdom-table",
        ),
        pytest.param(
            broken('name = "Kingsford"', 'name = "Kingsford"\npeople = "elf"'),
            "regions.kingsford",
            "both: a region is in exactly one kingdom or one people's land",
            id="kingdom-and-land",
        ),
        pytest.param(
            broken('kingdom = "drennor"\n', ""),
            "regions.cinder_vale",
            "neither: a region is in exactly one kingdom or one people's land",
            id="no-kingdom-no-land",
        ),
        pytest.param(
            broken('between = ["kingsford", "crownlands"]', 'between = ["kingsford", "crownland"]'),
            f"borders.{border_index('kingsford', 'crownlands')}.between",
            "no region called 'crownland'",
            id="border-to-nowhere",
        ),
        pytest.param(
            with_borders(("trollhaunt", "wyrmcrag", "river")),
            f"borders.{N_BORDERS}.between",
            "trollhaunt and wyrmcrag are not adjacent",
            id="border-not-adjacent",
        ),
        pytest.param(
            with_borders(("kingsford", "crownlands", "river")),
            f"borders.{N_BORDERS}.between",
            "already borders.",
            id="border-twice",
        ),
        pytest.param(
            broken('locations = ["tower_of_winds"]', 'locations = ["tower_of_winds", "the_pit"]'),
            "regions.starleaf.locations.1",
            "the_pit is on two regions (skullrock and starleaf)",
            id="location-twice",
        ),
        pytest.param(
            broken('locations = ["the_pit"]\n', ""),
            "regions",
            "the location the_pit is on no region",
            id="location-nowhere",
        ),
        pytest.param(
            broken('city = "Port Thalos"\n', ""),
            "regions.seagate.tax",
            "a tax without a city",
            id="tax-without-city",
        ),
        pytest.param(
            broken('city = "Morvath Keep"\ntax = 4\ncapital = true\n', 'city = "Morvath Keep"\ntax = 4\n'),
            "kingdoms.morvath",
            "exactly one capital, found none",
            id="no-capital",
        ),
        pytest.param(
            broken('name = "Nightfall"', 'name = "Nightfall"\ncity = "Dusk"\ntax = 2\ncapital = true'),
            "kingdoms.morvath",
            "exactly one capital, found gallowmoor, nightfall_heath",
            id="two-capitals",
        ),
        pytest.param(
            with_borders(("trollhaunt", "gallowmoor", "mountain"), ("trollhaunt", "mirewatch", "mountain")),
            "regions.trollhaunt",
            "an island: it cannot be reached from",
            id="island",
        ),
        pytest.param(
            broken("battlefield = true", "battlefeld = true"),
            "regions.mournfield.battlefeld",
            "unknown key",
            id="misspelt-key",
        ),
        pytest.param(
            broken('kind = "bridge"', 'kind = "ford"'),
            f"borders.{border_index('kingsford', 'crownlands')}.kind",
            "'river', 'bridge' or 'mountain'",
            id="unknown-border-kind",
        ),
        pytest.param(
            re.sub(r"at = \[[^\]]*\]", "at = [30.0, 5.0]", MARCHES, count=1),
            "regions.gallowmoor.at",
            "not inside the 24 x 20 board",
            id="site-off-the-board",
        ),
        pytest.param(
            broken("players = [2, 2]", "players = [2, 6]"),
            "map.players",
            "within 2..5",
            id="too-many-players",
        ),
    ],
)
def test_a_broken_map_is_refused_with_its_key(text: str, key: str, words: str) -> None:
    err = refused(text)
    assert err.key == key
    assert words in err.message and err.message.startswith(f"{ORIGIN}, {key}: ")


def test_a_map_file_that_is_not_toml_is_refused_with_its_line() -> None:
    err = refused(MARCHES.replace("[map]", "[map", 1))
    assert err.key == "" and "line" in err.message


def test_an_unknown_map_is_refused_with_the_shipped_ones() -> None:
    with pytest.raises(DataFileError) as err:
        load_map("atlantis")
    assert err.value.message == "no map called 'atlantis'; the maps: marches, myrathia"
