"""Hand-built WarQuest states and a small stand-in map for the card tests (cards, powers, conquest, events).

The stand-in map has every kingdom key of the spec with three regions ``<kingdom>_1`` (the capital, a city,
tax 4), ``<kingdom>_2`` (a town, tax 2) and ``<kingdom>_3`` (no city), and two regions of every people's land,
``<people>_1`` and ``<people>_2``: small enough to count by hand, independent of the shipped maps' drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.scenario import WqScenario
from iwgt.games.warquest.state import Decks, Leader, Player, Troop, TurnMarks, WqState

KINGDOMS = ("vandar", "aldmark", "corwen", "eskerholt", "morvath", "thalassa", "drennor", "sylmar")
PEOPLES = ("goblin", "elf", "dwarf", "satyr", "orc", "bugbear", "troll", "dragon")


@dataclass(frozen=True)
class FakeRegion:
    """The fields of a map region the card rules read."""

    id: str
    kingdom: str | None = None
    people: str | None = None
    city: str | None = None
    tax: int = 0
    capital: bool = False
    battlefield: bool = False
    locations: tuple[str, ...] = ()


@dataclass(frozen=True)
class FakeKingdom:
    """A kingdom and its regions."""

    key: str
    regions: tuple[str, ...]


@dataclass(frozen=True)
class FakeMap:
    """The stand-in map (see the module docstring)."""

    key: str = "fake"
    kingdoms: dict[str, FakeKingdom] = field(default_factory=dict)
    regions: dict[str, FakeRegion] = field(default_factory=dict)
    location_region: dict[str, str] = field(default_factory=dict)


def fake_map() -> FakeMap:
    """Eight kingdoms of three regions (capital city, town, countryside) and two regions per people."""
    regions: dict[str, FakeRegion] = {}
    kingdoms: dict[str, FakeKingdom] = {}
    for k in KINGDOMS:
        regions[f"{k}_1"] = FakeRegion(f"{k}_1", kingdom=k, city=f"{k} city", tax=4, capital=True)
        regions[f"{k}_2"] = FakeRegion(f"{k}_2", kingdom=k, city=f"{k} town", tax=2)
        regions[f"{k}_3"] = FakeRegion(f"{k}_3", kingdom=k)
        kingdoms[k] = FakeKingdom(k, (f"{k}_1", f"{k}_2", f"{k}_3"))
    for p in PEOPLES:
        for i in (1, 2):
            regions[f"{p}_{i}"] = FakeRegion(f"{p}_{i}", people=p)
    return FakeMap(kingdoms=kingdoms, regions=regions)


SCENARIO = WqScenario(
    name="test",
    title="Test",
    description="",
    map="myrathia",
    players=3,
    rounds=25,
    emperor_quests=4,
    designed="",
    source="",
)


def player(seat: int, **kw: Any) -> Player:
    """A player with nothing but what the test gives."""
    base = Player(
        seat=seat, gold=0, vp=0, quests=(), conquests=(), powers=(), done_quests=(), scored_conquests=()
    )
    return replace(base, **kw)


def make_state(
    players: int = 3,
    *,
    leaders: tuple[Leader, ...] = (),
    troops: tuple[Troop, ...] = (),
    owners: dict[str, int] | None = None,
    decks: Decks | None = None,
    first: int = 0,
    **per_seat: dict[str, Any],
) -> WqState:
    """A turn-phase state; ``seat0={"gold": 5}`` etc. set one player's fields."""
    ps = tuple(player(s, **per_seat.get(f"seat{s}", {})) for s in range(players))
    top = max([x.id for x in leaders] + [x.id for x in troops], default=-1)
    return WqState(
        scenario=replace(SCENARIO, players=players),
        phase="turn",
        round=1,
        first=first,
        seat=first,
        marks=TurnMarks(actions_left=3),
        players=ps,
        leaders=leaders,
        troops=troops,
        owners=tuple(sorted((owners or {}).items())),
        decks=decks or Decks(),
        next_id=top + 1,
    )


def power_id(key: str) -> int:
    """A power card's id by its key."""
    return next(i for i, c in rules().powers.items() if c.key == key)


def power_ids(effect: str) -> tuple[int, ...]:
    """Every power card id of an effect kind, in file order."""
    return tuple(i for i, c in sorted(rules().powers.items()) if c.effect == effect)


def event_ids(effect: str) -> tuple[int, ...]:
    """Every event card id of an effect kind, in file order."""
    return tuple(i for i, c in sorted(rules().events.items()) if c.effect == effect)
