"""The maps of Myrathia as data (data/maps/*.toml): kingdoms, the peoples' wild lands, cities, battlefields,
special locations, rivers and mountain ranges, validated and built into a region map once.

The source's map is lost (WQ-MP-01, WQ-MS-25..32): every map here is designed, and says why in its
``designed`` key. A region's outline is the Voronoi cell of its site (``at``) clipped to the board; regions
are adjacent when they share an edge (``iwgt.geometry.regions``). A broken file is refused with the file and
the dotted key of the problem (``core/datafiles.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, field_validator, model_validator

from iwgt.core.datafiles import DataModel, parse_toml, validate
from iwgt.core.errors import DataFileError

# The kingdoms, peoples and special locations are the game's (rules.py, one table): every map uses their keys.
from iwgt.games.warquest.rules import KINGDOMS as KINGDOMS
from iwgt.games.warquest.rules import LOCATIONS as LOCATIONS
from iwgt.games.warquest.rules import PEOPLES as PEOPLES
from iwgt.games.warquest.rules import LocationKind as LocationKind
from iwgt.geometry.regions import BorderKind, MapError, RegionMap, build

JSON = dict[str, Any]
"""A JSON object."""

MAPS_DIR = Path(__file__).parent / "data" / "maps"
"""Where the shipped maps live, one TOML file per map, named by its key."""

_ID = r"^[a-z][a-z0-9_]*$"


def _tuple(value: Any) -> Any:
    """TOML arrays arrive as lists: strict models take them as tuples."""
    return tuple(value) if isinstance(value, list) else value


Keys = Annotated[tuple[str, ...], BeforeValidator(_tuple)]
"""A list of keys."""
Pair = Annotated[tuple[str, str], BeforeValidator(_tuple)]
"""Two region ids."""
Site = Annotated[tuple[float, float], BeforeValidator(_tuple)]
"""A point [x, y] on the board (x to the right, y down)."""
Counts = Annotated[tuple[int, int], BeforeValidator(_tuple)]
"""[fewest, most]."""


class Model(DataModel):
    """A map-file entry: frozen, strict, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class MapHeader(Model):
    """``[map]``: the map's key (its file name), name, board size, the player counts it suits, and why it is
    designed."""

    key: str = Field(pattern=_ID)
    name: str = Field(min_length=1)
    width: float = Field(gt=0)
    height: float = Field(gt=0)
    players: Counts
    designed: str = Field(min_length=1)

    @field_validator("players")
    @classmethod
    def _counts(cls, players: tuple[int, int]) -> tuple[int, int]:
        """2 to 5 warlords play (WQ-CM-12): the range must lie within."""
        low, high = players
        if not 2 <= low <= high <= 5:
            raise ValueError(f"[{low}, {high}] should be [fewest, most] within 2..5")
        return players


class KingdomEntry(Model):
    """``[kingdoms.<key>]``: a kingdom's name and the colour of its outline (WQ-MP-03)."""

    name: str = Field(min_length=1)
    colour: str = Field(pattern=r"^#[0-9a-f]{6}$")


class RegionEntry(Model):
    """``[regions.<id>]``: one region: its name, its site, the kingdom or people's land it belongs to, and
    what stands in it."""

    name: str = Field(min_length=1)
    at: Site
    kingdom: str | None = None
    people: str | None = None
    city: str | None = Field(default=None, min_length=1)
    tax: int = Field(default=0, ge=0)
    capital: bool = False
    battlefield: bool = False
    locations: Keys = ()


class BorderEntry(Model):
    """``[[borders]]``: a border that is not open: a river, a bridged river, or a mountain range."""

    between: Pair
    kind: Literal["river", "bridge", "mountain"]


class MapFile(Model):
    """A whole map file, checked as a whole (every reference resolves, every location once, one capital per
    kingdom); the geometry checks (adjacency, islands) follow when it is built."""

    map: MapHeader
    kingdoms: dict[str, KingdomEntry]
    regions: dict[str, RegionEntry]
    borders: tuple[BorderEntry, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _tuples(cls, data: Any) -> Any:
        """The borders array of tables as a tuple (strict mode takes no list)."""
        if isinstance(data, dict) and isinstance(data.get("borders"), list):
            return {**data, "borders": tuple(data["borders"])}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> MapFile:
        """Every key names something that exists, and the map has what the rules need."""
        for key in self.kingdoms:
            if key not in KINGDOMS:
                raise ValueError(f"kingdoms.{key}: unknown kingdom (one of {', '.join(KINGDOMS)})")
        for key in KINGDOMS:
            if key not in self.kingdoms:
                raise ValueError(f"kingdoms.{key}: missing: every map has the eight kingdoms")
        placed: dict[str, str] = {}
        for rid, r in self.regions.items():
            where = f"regions.{rid}"
            if not re.match(_ID, rid):
                raise ValueError(f"{where}: a region id is lower case letters, digits and _")
            if (r.kingdom is None) == (r.people is None):
                said = "both" if r.kingdom is not None else "neither"
                raise ValueError(f"{where}: {said}: a region is in exactly one kingdom or one people's land")
            if r.kingdom is not None and r.kingdom not in self.kingdoms:
                raise ValueError(f"{where}.kingdom: unknown kingdom {r.kingdom!r}")
            if r.people is not None and r.people not in PEOPLES:
                raise ValueError(f"{where}.people: unknown people {r.people!r} (one of {', '.join(PEOPLES)})")
            if r.tax and r.city is None:
                raise ValueError(f"{where}.tax: a tax without a city (only a city is taxed, WQ-TX-01)")
            if r.city is not None and r.tax < 1:
                raise ValueError(f"{where}.tax: missing: a city gives gold when taxed (WQ-TX-02)")
            if r.city is not None and r.kingdom is None:
                raise ValueError(f"{where}.city: cities stand in the kingdoms of men, not in wild lands")
            if r.capital and r.city is None:
                raise ValueError(f"{where}.capital: a capital needs a city")
            for i, loc in enumerate(r.locations):
                if loc not in LOCATIONS:
                    raise ValueError(f"{where}.locations.{i}: unknown location {loc!r}")
                if loc in placed:
                    raise ValueError(
                        f"{where}.locations.{i}: {loc} is on two regions ({placed[loc]} and {rid})"
                    )
                placed[loc] = rid
        for loc in LOCATIONS:
            if loc not in placed:
                raise ValueError(f"regions: the location {loc} is on no region (each is on exactly one)")
        for key in KINGDOMS:
            capitals = [rid for rid, r in self.regions.items() if r.kingdom == key and r.capital]
            if len(capitals) != 1:
                found = ", ".join(capitals) or "none"
                raise ValueError(f"kingdoms.{key}: a kingdom has exactly one capital, found {found}")
        for people in PEOPLES:
            if not any(r.people == people for r in self.regions.values()):
                raise ValueError(f"regions: no land of the {people} people (every people has a land)")
        seen: dict[frozenset[str], int] = {}
        for i, b in enumerate(self.borders):
            a, c = b.between
            for name in (a, c):
                if name not in self.regions:
                    raise ValueError(f"borders.{i}.between: no region called {name!r}")
            if a == c:
                raise ValueError(f"borders.{i}.between: a border joins two different regions")
            pair = frozenset((a, c))
            if pair in seen:
                raise ValueError(f"borders.{i}.between: the border {a}-{c} is already borders.{seen[pair]}")
            seen[pair] = i
        return self


# ------------------------------------------------------------------------------------------------ the map


@dataclass(frozen=True)
class Kingdom:
    """A kingdom: its key, name, colour and regions (in map order)."""

    key: str
    name: str
    colour: str
    regions: tuple[str, ...]


@dataclass(frozen=True)
class Region:
    """A region and what it holds (WQ-MP): its kingdom or people's land, its city and tax, capital,
    Ancient Battlefield and Special Locations."""

    id: str
    name: str
    kingdom: str | None
    people: str | None
    city: str | None
    tax: int
    capital: bool
    battlefield: bool
    locations: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class WqMap:
    """A loaded map: its kingdoms, regions (in file order), geometry, and where each location is."""

    key: str
    name: str
    players: tuple[int, int]
    width: float
    height: float
    designed: str
    kingdoms: Mapping[str, Kingdom]
    regions: Mapping[str, Region]
    geometry: RegionMap
    location_region: Mapping[str, str]


def _geometry_key(key: str) -> str:
    """The map file's key for a key the geometry names (sites are the regions' ``at``)."""
    if key.startswith("sites."):
        return f"regions.{key.removeprefix('sites.')}.at"
    if key.startswith("borders."):
        return f"{key}.between"
    return key


def parse_map(text: str, origin: str) -> WqMap:
    """A map from its TOML text (``origin`` names it in errors); refuses a broken map with a
    :class:`DataFileError` naming the file and the dotted key."""
    data = validate(MapFile, parse_toml(text, origin), origin)
    kinds: dict[frozenset[str], BorderKind] = {frozenset(b.between): b.kind for b in data.borders}
    try:
        geometry = build(
            {rid: r.at for rid, r in data.regions.items()}, data.map.width, data.map.height, kinds
        )
    except MapError as exc:
        raise DataFileError(origin, _geometry_key(exc.key), exc.message) from None
    regions = {
        rid: Region(
            id=rid,
            name=r.name,
            kingdom=r.kingdom,
            people=r.people,
            city=r.city,
            tax=r.tax,
            capital=r.capital,
            battlefield=r.battlefield,
            locations=r.locations,
        )
        for rid, r in data.regions.items()
    }
    kingdoms = {
        key: Kingdom(
            key=key,
            name=data.kingdoms[key].name,
            colour=data.kingdoms[key].colour,
            regions=tuple(rid for rid, r in regions.items() if r.kingdom == key),
        )
        for key in KINGDOMS
    }
    where = {loc: rid for rid, r in regions.items() for loc in r.locations}
    return WqMap(
        key=data.map.key,
        name=data.map.name,
        players=data.map.players,
        width=data.map.width,
        height=data.map.height,
        designed=data.map.designed,
        kingdoms=MappingProxyType(kingdoms),
        regions=MappingProxyType(regions),
        geometry=geometry,
        location_region=MappingProxyType({loc: where[loc] for loc in LOCATIONS}),
    )


def map_keys() -> tuple[str, ...]:
    """The shipped maps' keys, sorted."""
    return tuple(sorted(p.stem for p in MAPS_DIR.glob("*.toml")))


@cache
def load_map(key: str) -> WqMap:
    """A shipped map by its key, read and built once; refuses an unknown key or a broken file with a
    :class:`DataFileError` naming the file and the dotted key."""
    path = MAPS_DIR / f"{key}.toml"
    if not re.match(_ID, key) or not path.is_file():
        known = ", ".join(map_keys())
        raise DataFileError(
            key, "", f"a shipped map ({known})", message=f"no map called {key!r}; the maps: {known}"
        )
    m = parse_map(path.read_text(encoding="utf-8"), str(path))
    if m.key != key:
        raise DataFileError(str(path), "map.key", f"is {m.key!r}, should be {key!r} (the file's name)")
    return m


def _pt(p: tuple[float, float]) -> list[float]:
    """A point as JSON."""
    return [p[0], p[1]]


def map_json(m: WqMap) -> JSON:
    """The drawing data of a map: board size, kingdoms, regions (outline, label point, what stands there) and
    the borders (kind and shared edge)."""
    g = m.geometry
    return {
        "key": m.key,
        "name": m.name,
        "width": m.width,
        "height": m.height,
        "kingdoms": [{"key": k.key, "name": k.name, "colour": k.colour} for k in m.kingdoms.values()],
        "regions": [
            {
                "id": r.id,
                "name": r.name,
                "outline": [_pt(p) for p in g.outlines[r.id]],
                "centre": _pt(g.centres[r.id]),
                "kingdom": r.kingdom,
                "people": r.people,
                "city": r.city,
                "tax": r.tax,
                "capital": r.capital,
                "battlefield": r.battlefield,
                "locations": [
                    {"key": loc, "name": LOCATIONS[loc][0], "kind": LOCATIONS[loc][1]} for loc in r.locations
                ],
            }
            for r in m.regions.values()
        ],
        "borders": [
            {"a": b.a, "b": b.b, "kind": b.kind, "segment": [_pt(p) for p in b.segment]} for b in g.borders()
        ],
    }
