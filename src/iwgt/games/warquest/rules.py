"""The WarQuest rules as data: named constants, the troop table and the four card decks, validated, read once.

Six files in ``data/``: ``rules.toml`` (the named constants, each with its clause and, when the text does not
give it, ``designed`` with the reason), ``troops.toml`` (the troop table: the four printed rows exactly, the
rest designed, WQ-TR, WQ-MS-02..24), ``quests.toml`` (30), ``conquests.toml`` (40), ``events.toml`` (30) and
``powers.toml`` (51) (WQ-CM-16..19, designed WQ-MS-33..36). A broken file is refused with the file and the
dotted key of the problem (``core/datafiles.py``): a typo in the data is an error when it loads, never a wrong
game.
Card effects are closed lists of kinds whose parameters are checked against the kind (an ``unlock`` names
advanced troop keys, a kingdom is one of the eight, ...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from iwgt.core.datafiles import DataModel, parse_toml, validate
from iwgt.core.errors import DataFileError

DATA_DIR = Path(__file__).parent / "data"
"""Where the shipped data files live."""
FILES: tuple[str, ...] = (
    "rules.toml",
    "troops.toml",
    "quests.toml",
    "conquests.toml",
    "events.toml",
    "powers.toml",
)
"""The six data files, in the order they are read (troops before the cards that name them)."""

KINGDOMS: tuple[str, ...] = (
    "vandar",
    "aldmark",
    "corwen",
    "eskerholt",
    "morvath",
    "thalassa",
    "drennor",
    "sylmar",
)
"""The eight kingdoms of Myrathia (WQ-IN-01, WQ-MS-26): every map has all eight (conquest cards name them)."""
PEOPLES: tuple[str, ...] = ("goblin", "elf", "dwarf", "satyr", "orc", "bugbear", "troll", "dragon")
"""The peoples whose wild lands troops are recruited in (WQ-RT-02, WQ-MS-31)."""
LocationKind = Literal["tower", "tunnel", "tomb", "monument", "dungeon", "cave", "shrine"]
"""The kinds of Special Location (WQ-MP-05)."""

LOCATIONS: dict[str, tuple[str, LocationKind]] = {
    "tower_of_winds": ("the Tower of Winds", "tower"),
    "tower_of_embers": ("the Tower of Embers", "tower"),
    "black_tower": ("the Black Tower", "tower"),
    "deep_tunnels": ("the Deep Tunnels", "tunnel"),
    "goblin_tunnels": ("the Goblin Tunnels", "tunnel"),
    "dwarf_gate": ("the Dwarf Gate", "tunnel"),
    "tomb_of_the_wraith_king": ("the Tomb of the Wraith King", "tomb"),
    "barrow_of_kings": ("the Barrow of Kings", "tomb"),
    "monument_of_vandar": ("the Monument of Vandar", "monument"),
    "standing_stones": ("the Standing Stones", "monument"),
    "dungeon_of_despair": ("the Dungeon of Despair", "dungeon"),
    "the_pit": ("the Pit", "dungeon"),
    "dragon_cave": ("the Dragon's Cave", "cave"),
    "crystal_cave": ("the Crystal Cave", "cave"),
    "sunken_temple": ("the Sunken Temple", "shrine"),
}
"""The 15 Special Locations (WQ-MP-05, WQ-MS-28): key -> (name, kind); each is on exactly one region of every
map (maps.py places them), and the quest cards name them."""

LOCATION_KEYS: tuple[str, ...] = tuple(LOCATIONS)
"""The 15 special locations' keys, in the order above."""

Special = Literal[
    "hero",
    "relentless_pursuit",
    "shield",
    "untrained_archer",
    "rage",
    "ambush",
    "missile_shield",
    "wall",
    "fireball",
    "ice_blast",
    "regenerate",
    "fire_breath",
]
"""A special power's key."""
SPECIALS: tuple[Special, ...] = get_args(Special)
"""The special powers in combat (WQ-SP-02..14); "hero" is the leaders' and no troop has it."""
Recruit = Literal["land", "city", "wraith", "none"]
"""Where a troop is recruited: its people's land, any city (wizards), the Wraith King's region (skeletons),
nowhere (the Wraith King himself comes with a card)."""
CLAUSE = r"^WQ-[A-Z]{2}-\d{2}$"
"""A clause id as the clause file spells it."""
PRINTED_CLAUSE = "WQ-TR-"
"""The surviving rows of the troop table: the only troops without ``designed``."""

# What each parameter of an effect or objective must be (checked by _check_param):
#   "count": a whole number >= 1;  "kingdom" / "people": one of KINGDOMS / PEOPLES;
#   "rank": "front" or "rear";
#   "advanced": a non-empty list of advanced troop keys recruited with a card (not the undead);
#   "troop": a troop key that can be recruited somewhere (not the undead);  "muster": a people with a basic
#   foot troop (the kind a muster gives).
ParamKind = Literal["count", "kingdom", "people", "rank", "advanced", "troop", "muster"]
OBJECTIVES: Mapping[str, Mapping[str, ParamKind]] = MappingProxyType(
    {
        "kingdom_regions": {"kingdom": "kingdom", "count": "count"},
        "kingdom_capital": {"kingdom": "kingdom"},
        "kingdom_all": {"kingdom": "kingdom"},
        "cities": {"count": "count"},
        "regions": {"count": "count"},
        "kingdoms": {"count": "count"},
        "lands": {"people": "people"},
    }
)
"""The conquest cards' objective kinds and their parameters (WQ-MS-34, closed list)."""
EVENT_EFFECTS: Mapping[str, Mapping[str, ParamKind]] = MappingProxyType(
    {
        "harvest": {"gold": "count"},
        "tribute": {"gold_per_city": "count"},
        "bandits": {"gold": "count"},
        "plague": {"kingdom": "kingdom"},
        "monster": {"kingdom": "kingdom", "dice": "count"},
        "uprising": {"kingdom": "kingdom"},
        "unlock": {"troops": "advanced"},
        "muster": {"people": "muster", "count": "count"},
        "market": {},
        "calm": {},
    }
)
"""The event cards' effect kinds and their parameters (WQ-MS-35, closed list)."""
POWER_EFFECTS: Mapping[str, Mapping[str, ParamKind]] = MappingProxyType(
    {
        "unlock": {"troops": "advanced"},
        "wraith_king": {},
        "rank_dice": {"rank": "rank", "dice": "count"},
        "defend_dice": {"dice": "count"},
        "rally": {"extra": "count"},
        "pursuit": {"dice": "count"},
        "tax": {"gold": "count"},
        "discount": {"people": "people", "gold": "count"},
        "lieutenant_cost": {"gold": "count"},
        "move": {"regions": "count"},
        "ford": {},
        "tunnels": {},
        "quest_bonus": {"bonus": "count"},
        "vp": {"vp": "count"},
        "income": {"gold": "count"},
    }
)
"""The lasting power cards' effect kinds and their parameters (WQ-MS-36, closed list)."""
EVENT_POWER_EFFECTS: Mapping[str, Mapping[str, ParamKind]] = MappingProxyType(
    {
        "gold": {"gold": "count"},
        "free_troops": {"kind": "troop", "count": "count"},
        "extra_action": {},
        "battle_dice": {"dice": "count"},
    }
)
"""The EVENT power cards' effect kinds (one-shot, outside the Rule of Five, WQ-PW-09; WQ-MS-36)."""

M = TypeVar("M", bound=DataModel)
Param = int | str | tuple[str, ...]
"""A card parameter's value: a number, a key, or a list of keys."""


def _tuple(value: Any) -> Any:
    """TOML arrays arrive as lists: strict models take them as tuples."""
    return tuple(value) if isinstance(value, list) else value


class Model(DataModel):
    """A data entry: frozen, strict (no "1" for 1, no true for 1), unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


Specials = Annotated[tuple[Special, ...], BeforeValidator(_tuple)]
"""A troop's special powers."""
Text = Annotated[str, Field(min_length=1)]
"""A non-empty text."""

# ------------------------------------------------------------------ rules.toml


class Source(Model):
    """Where a constant comes from: its clause, and why when the text does not give it (designed)."""

    clause: str = Field(pattern=CLAUSE)
    designed: str | None = Field(default=None, min_length=1)


class ConstantEntry(Model):
    """A constant as written: { value, clause, designed? }."""

    value: int
    clause: str = Field(pattern=CLAUSE)
    designed: str | None = Field(default=None, min_length=1)


class Constants(Model):
    """The named numbers of the spec, read as ``rules().constants.<NAME>`` (never magic numbers in code)."""

    START_GOLD: int = Field(ge=0)
    ACTIONS_PER_TURN: int = Field(ge=1)
    MOVE_REGIONS: int = Field(ge=1)
    LIEUTENANT_COST: int = Field(ge=1)
    MAX_LIEUTENANTS: int = Field(ge=0)
    LIEUTENANTS_PER_PLAYER: int = Field(ge=1)
    OWNERSHIP_TOKENS: int = Field(ge=1)
    MARKET_SIZE: int = Field(ge=1)
    POWER_LIMIT: int = Field(ge=1)
    ACTIVE_EVENTS: int = Field(ge=1)
    QUEST_HAND: int = Field(ge=1)
    CONQUEST_HAND: int = Field(ge=1)
    QUEST_DICE: int = Field(ge=1)
    QUESTS_PER_TURN: int = Field(ge=1)
    EMPEROR_QUESTS: int = Field(ge=1)
    BATTLE_VP: int = Field(ge=0)
    MAX_RANK: int = Field(ge=1)
    NO_FLEE_DEFENSE: int = Field(ge=1)
    PURSUIT_DICE: int = Field(ge=0)
    RELENTLESS_PURSUIT_DICE: int = Field(ge=0)
    MAX_BATTLE_ROUNDS: int = Field(ge=1)
    WRAITH_KING_WORTH: int = Field(ge=1)
    AMBUSH_DICE: int = Field(ge=0)
    AMBUSH_MAX_EXTRA: int = Field(ge=0)
    MISSILE_SHIELD_DICE: int = Field(ge=0)
    WALL_DICE: int = Field(ge=0)
    FIREBALL_DICE: int = Field(ge=1)
    FIREBALL_VS_TROLL: int = Field(ge=1)
    ICE_DICE: int = Field(ge=1)
    ICE_VS_FIRE: int = Field(ge=1)
    BREATH_DICE: int = Field(ge=1)

    @model_validator(mode="after")
    def _consistent(self) -> Constants:
        """A lieutenant supply holds the board's lieutenants; relentless pursuit is not less than pursuit."""
        if self.MAX_LIEUTENANTS > self.LIEUTENANTS_PER_PLAYER:
            raise ValueError("MAX_LIEUTENANTS: more than LIEUTENANTS_PER_PLAYER (the supply) allows")
        if self.RELENTLESS_PURSUIT_DICE < self.PURSUIT_DICE:
            raise ValueError("RELENTLESS_PURSUIT_DICE: fewer than PURSUIT_DICE")
        return self


class RulesFile(Model):
    """rules.toml as written."""

    version: Text
    constants: dict[str, ConstantEntry]


# ------------------------------------------------------------------ troops.toml


class TroopKind(Model):
    """A troop type's line of the troop table (WQ-TR-09..11: cost, attack dice, defence rating)."""

    key: str
    name: Text
    people: str
    recruit: Recruit
    cost: int | None = Field(default=None, ge=1)
    attack: int = Field(ge=0)
    defense: int = Field(ge=1)
    missile: bool = False
    advanced: bool = False
    elite: bool = False
    unique: bool = False
    pool: int = Field(ge=1)
    specials: Specials = ()
    rage: int = Field(default=0, ge=0)
    clause: str = Field(pattern=CLAUSE)
    designed: str | None = Field(default=None, min_length=1)
    decision: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> TroopKind:
        """People and recruiting agree; RAGE has its bonus; printed rows are not designed, all others are."""
        where = {"land": PEOPLES, "city": ("wizard",), "wraith": ("undead",), "none": ("undead",)}[
            self.recruit
        ]
        if self.people not in where:
            raise ValueError(
                f"people: {self.people!r} cannot be recruited as {self.recruit!r}; one of: {', '.join(where)}"
            )
        if (self.cost is None) != (self.recruit == "none"):
            raise ValueError('cost: only a troop recruited nowhere (recruit = "none") has no cost')
        if ("rage" in self.specials) != (self.rage > 0):
            raise ValueError("rage: a RAGE troop has rage >= 1, any other troop none")
        if self.elite and not self.advanced:
            raise ValueError("advanced: an elite unit is advanced (WQ-SU-17)")
        if self.unique and self.pool != 1:
            raise ValueError("pool: a unique troop has a pool of 1")
        if len(set(self.specials)) != len(self.specials):
            raise ValueError("specials: a special power is listed twice")
        printed = self.clause.startswith(PRINTED_CLAUSE)
        if printed and self.designed is not None:
            raise ValueError(
                "designed: a printed row (WQ-TR) is the text's own; its readings go in `decision`"
            )
        if not printed and self.designed is None:
            raise ValueError(
                "designed: missing: a row the text does not give says why its numbers are what they are"
            )
        return self


class TroopsFile(Model):
    """troops.toml as written."""

    troops: dict[str, TroopKind] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        """Each row knows its key (its table's name in the file)."""
        if isinstance(data, dict) and isinstance(data.get("troops"), dict):
            data = {
                **data,
                "troops": {
                    k: ({"key": k, **v} if isinstance(v, dict) and "key" not in v else v)
                    for k, v in data["troops"].items()
                },
            }
        return data


# ------------------------------------------------------------------ the decks


class QuestRow(Model):
    """A quest card as written (WQ-MS-33)."""

    key: Text
    name: Text
    monster: Text
    location: str
    vp: int = Field(ge=2, le=12)
    sacred: bool
    designed: Text


class CardRow(Model):
    """A conquest, event or power card as written: the fields all three share."""

    key: Text
    name: Text
    text: Text
    params: dict[str, Any] = Field(default_factory=dict)
    designed: Text


class ConquestRow(CardRow):
    """A conquest card as written (WQ-MS-34)."""

    objective: str
    vp: int = Field(ge=1)


class EventRow(CardRow):
    """An event card as written (WQ-MS-35)."""

    effect: str


class PowerRow(CardRow):
    """A power card as written (WQ-MS-36)."""

    effect: str
    cost: int = Field(ge=0)
    event: bool = False


class QuestsFile(Model):
    """quests.toml as written."""

    quests: list[QuestRow]


class ConquestsFile(Model):
    """conquests.toml as written."""

    conquests: list[ConquestRow]


class EventsFile(Model):
    """events.toml as written."""

    events: list[EventRow]


class PowersFile(Model):
    """powers.toml as written."""

    powers: list[PowerRow]


_ROW_FIELDS: frozenset[str] = frozenset(TroopKind.model_fields) | frozenset(PowerRow.model_fields)
"""Field names a row's own check may name first in its message."""


# ------------------------------------------------------------------ what the game reads


@dataclass(frozen=True, slots=True)
class QuestCard:
    """A quest: a monster to defeat at a special location; its VP is also the roll's target (WQ-QU-03)."""

    id: int
    key: str
    name: str
    monster: str
    location: str
    vp: int
    sacred: bool
    designed: str


@dataclass(frozen=True, slots=True)
class ConquestCard:
    """A conquest card: an objective (a kind of the closed list OBJECTIVES, and its parameters) and its VP."""

    id: int
    key: str
    name: str
    text: str
    objective: str
    params: Mapping[str, Param] = field(hash=False)
    vp: int
    designed: str


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card: an effect kind of the closed list EVENT_EFFECTS and its parameters."""

    id: int
    key: str
    name: str
    text: str
    effect: str
    params: Mapping[str, Param] = field(hash=False)
    designed: str


@dataclass(frozen=True, slots=True)
class PowerCard:
    """A power card: cost in gold, an effect kind (POWER_EFFECTS, or EVENT_POWER_EFFECTS when ``event``)."""

    id: int
    key: str
    name: str
    text: str
    cost: int
    effect: str
    params: Mapping[str, Param] = field(hash=False)
    event: bool
    designed: str


@dataclass(frozen=True, eq=False)
class WqRules:
    """Everything the data files say: constants (with their sources), troops, and the four decks by card id
    (0-based in file order)."""

    version: str
    constants: Constants
    sources: Mapping[str, Source]
    troops: dict[str, TroopKind]
    quests: dict[int, QuestCard]
    conquests: dict[int, ConquestCard]
    events: dict[int, EventCard]
    powers: dict[int, PowerCard]

    def source(self, constant: str) -> Source:
        """Where a named constant comes from (its clause; ``designed`` when it is ours)."""
        return self.sources[constant]

    def troop(self, kind: str) -> TroopKind:
        """A troop kind by key; KeyError names the known ones."""
        try:
            return self.troops[kind]
        except KeyError:
            raise KeyError(f"unknown troop kind {kind!r}; known: {', '.join(self.troops)}") from None


# ------------------------------------------------------------------ loading


def _fail(origin: str, key: str, message: str) -> DataFileError:
    """A refusal naming the file and the dotted key."""
    return DataFileError(origin, key, message)


_FIELD_FIRST = re.compile(r"^(?P<field>[a-z_]+): (?P<msg>.*)$", re.DOTALL)


def _validate(model: type[M], data: Any, origin: str) -> M:
    """``datafiles.validate``, and a row's own check that names its field ("designed: missing") is reported at
    that field's dotted key (``troops.goblin_foot.designed``), not at the row's."""
    try:
        return validate(model, data, origin)
    except DataFileError as exc:
        found = _FIELD_FIRST.match(exc.expected)
        if exc.key and found and found["field"] in _ROW_FIELDS:
            raise _fail(origin, f"{exc.key}.{found['field']}", found["msg"]) from None
        raise


def _constants(text: str, origin: str) -> tuple[str, Constants, dict[str, Source]]:
    """rules.toml: the version, the constants' values and their sources."""
    raw = _validate(RulesFile, parse_toml(text, origin), origin)
    values = {name: entry.value for name, entry in raw.constants.items()}
    for name in Constants.model_fields:
        if name not in values:
            raise _fail(origin, f"constants.{name}", "missing: this key is required")
    for name in values:
        if name not in Constants.model_fields:
            raise _fail(origin, f"constants.{name}", "unknown constant (a misspelling?)")
    try:
        constants = validate(Constants, values, origin)
    except DataFileError as exc:
        key = f"constants.{exc.key}.value" if exc.key else "constants"
        raise _fail(origin, key, exc.expected) from None
    sources = {name: Source(clause=e.clause, designed=e.designed) for name, e in raw.constants.items()}
    return raw.version, constants, sources


def _troops(text: str, origin: str) -> dict[str, TroopKind]:
    """troops.toml: the troop table in file order."""
    table = _validate(TroopsFile, parse_toml(text, origin), origin).troops
    for name, row in table.items():
        if row.key != name:
            raise _fail(origin, f"troops.{name}.key", f"is {row.key!r}, should be {name!r}")
    return dict(table)


def _check_param(kind: ParamKind, value: Any, troops: Mapping[str, TroopKind]) -> str | None:
    """What is wrong with a parameter's value for its kind, or None."""
    if kind == "count":
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        return None if ok else f"should be a whole number >= 1, got {value!r}"
    if kind in ("kingdom", "people", "rank", "muster", "troop") and not isinstance(value, str):
        return f"should be a text in quotes, got {value!r}"
    if kind == "kingdom" and value not in KINGDOMS:
        return f"unknown kingdom {value!r}; one of: {', '.join(KINGDOMS)}"
    if kind == "people" and value not in PEOPLES:
        return f"unknown people {value!r}; one of: {', '.join(PEOPLES)}"
    if kind == "rank" and value not in ("front", "rear"):
        return f'should be "front" or "rear", got {value!r}'
    if kind == "muster" and value not in {k.people for k in troops.values() if _foot(k)}:
        musters = sorted({k.people for k in troops.values() if _foot(k)})
        return f"{value!r} has no basic foot troop to muster; one of: {', '.join(musters)}"
    if kind == "troop":
        found = troops.get(value)
        if found is None or found.recruit in ("wraith", "none"):
            known = [k for k, t in troops.items() if t.recruit not in ("wraith", "none")]
            return f"unknown troop {value!r}; one of: {', '.join(known)}"
    if kind == "advanced":
        if not isinstance(value, list) or not value:
            return f"should be a non-empty list in [brackets] of advanced troop keys, got {value!r}"
        advanced = [k for k, t in troops.items() if t.advanced and t.recruit in ("land", "city")]
        for i, name in enumerate(value):
            if name not in advanced:
                return f"{i}: {name!r} is not an advanced troop a card unlocks; one of: {', '.join(advanced)}"
    return None


def _params(
    origin: str,
    where: str,
    kind_key: str,
    kind: str,
    params: Mapping[str, Any],
    table: Mapping[str, Mapping[str, ParamKind]],
    troops: Mapping[str, TroopKind],
) -> Mapping[str, Param]:
    """A card's parameters checked against its kind (every parameter present, none unknown, each valid)."""
    if kind not in table:
        raise _fail(origin, f"{where}.{kind_key}", f"unknown kind {kind!r}; one of: {', '.join(table)}")
    wanted = table[kind]
    for name in wanted:
        if name not in params:
            raise _fail(origin, f"{where}.params.{name}", f"missing: a {kind!r} card needs it")
    for name, value in params.items():
        if name not in wanted:
            expected = ", ".join(wanted) or "none"
            raise _fail(
                origin,
                f"{where}.params.{name}",
                f"unknown parameter of {kind!r} (its parameters: {expected})",
            )
        problem = _check_param(wanted[name], value, troops)
        if problem is not None:
            # A list's item names its index: "powers.3.params.troops.0: ..."
            head, sep, rest = problem.partition(": ")
            if sep and head.isdigit():
                raise _fail(origin, f"{where}.params.{name}.{head}", rest)
            raise _fail(origin, f"{where}.params.{name}", problem)
    return MappingProxyType({k: _tuple(v) for k, v in params.items()})


def _unique_keys(origin: str, deck: str, keys: Sequence[str]) -> None:
    """Card keys are unique within a deck."""
    seen: dict[str, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            raise _fail(origin, f"{deck}.{i}.key", f"{key!r} is also the key of {deck}.{seen[key]}")
        seen[key] = i


def _quests(text: str, origin: str) -> dict[int, QuestCard]:
    """quests.toml: the quest deck by card id."""
    rows = _validate(QuestsFile, parse_toml(text, origin), origin).quests
    _unique_keys(origin, "quests", [r.key for r in rows])
    for i, r in enumerate(rows):
        if r.location not in LOCATION_KEYS:
            raise _fail(
                origin,
                f"quests.{i}.location",
                f"unknown location {r.location!r}; one of: {', '.join(LOCATION_KEYS)}",
            )
    return {
        i: QuestCard(i, r.key, r.name, r.monster, r.location, r.vp, r.sacred, r.designed)
        for i, r in enumerate(rows)
    }


def _conquests(text: str, origin: str, troops: Mapping[str, TroopKind]) -> dict[int, ConquestCard]:
    """conquests.toml: the conquest deck by card id."""
    rows = _validate(ConquestsFile, parse_toml(text, origin), origin).conquests
    _unique_keys(origin, "conquests", [r.key for r in rows])
    cards = {}
    for i, r in enumerate(rows):
        params = _params(origin, f"conquests.{i}", "objective", r.objective, r.params, OBJECTIVES, troops)
        cards[i] = ConquestCard(i, r.key, r.name, r.text, r.objective, params, r.vp, r.designed)
    return cards


def _events(text: str, origin: str, troops: Mapping[str, TroopKind]) -> dict[int, EventCard]:
    """events.toml: the event deck by card id."""
    rows = _validate(EventsFile, parse_toml(text, origin), origin).events
    _unique_keys(origin, "events", [r.key for r in rows])
    cards = {}
    for i, r in enumerate(rows):
        params = _params(origin, f"events.{i}", "effect", r.effect, r.params, EVENT_EFFECTS, troops)
        cards[i] = EventCard(i, r.key, r.name, r.text, r.effect, params, r.designed)
    return cards


def _powers(text: str, origin: str, troops: Mapping[str, TroopKind]) -> dict[int, PowerCard]:
    """powers.toml: the power deck by card id; an event card's effect is an event kind and only its."""
    rows = _validate(PowersFile, parse_toml(text, origin), origin).powers
    _unique_keys(origin, "powers", [r.key for r in rows])
    cards = {}
    for i, r in enumerate(rows):
        table = EVENT_POWER_EFFECTS if r.event else POWER_EFFECTS
        other = POWER_EFFECTS if r.event else EVENT_POWER_EFFECTS
        if r.effect in other:
            said = "a lasting power: event = false" if r.event else "an event power card: event = true"
            raise _fail(origin, f"powers.{i}.event", f"{r.effect!r} is {said}")
        params = _params(origin, f"powers.{i}", "effect", r.effect, r.params, table, troops)
        cards[i] = PowerCard(i, r.key, r.name, r.text, r.cost, r.effect, params, r.event, r.designed)
    return cards


def parse_rules(texts: Mapping[str, str] | None = None, directory: Path = DATA_DIR) -> WqRules:
    """The rules from the six files' texts: ``texts`` maps a file name (one of FILES) to its TOML text (a
    broken file in a test); the files not given are read from ``directory``. A problem raises DataFileError
    naming the file and the dotted key."""
    given = dict(texts or {})
    for name in given:
        if name not in FILES:
            raise _fail(name, "", f"one of the data files: {', '.join(FILES)}")
    read: dict[str, tuple[str, str]] = {}
    for name in FILES:
        if name in given:
            read[name] = (given[name], name)
            continue
        path = directory / name
        try:
            read[name] = (path.read_text(encoding="utf-8"), str(path))
        except FileNotFoundError:
            raise DataFileError(str(path), "", "an existing file", message=f"no such file: {path}") from None
    version, constants, sources = _constants(*read["rules.toml"])
    troops = _troops(*read["troops.toml"])
    return WqRules(
        version=version,
        constants=constants,
        sources=MappingProxyType(sources),
        troops=troops,
        quests=_quests(*read["quests.toml"]),
        conquests=_conquests(*read["conquests.toml"], troops),
        events=_events(*read["events.toml"], troops),
        powers=_powers(*read["powers.toml"], troops),
    )


def load_rules(directory: Path = DATA_DIR) -> WqRules:
    """Read and validate the six data files of a folder."""
    return parse_rules(None, directory)


@cache
def rules() -> WqRules:
    """The shipped rules, read and validated once."""
    return load_rules(DATA_DIR)


# ------------------------------------------------------------------ queries


def troop(kind: str) -> TroopKind:
    """A troop kind's line of the table; KeyError names the known kinds."""
    return rules().troop(kind)


def _foot(k: TroopKind) -> bool:
    """A basic foot troop of a people's land (what a muster gives)."""
    return not k.advanced and not k.missile and k.recruit == "land" and k.cost is not None


@cache
def basic_kinds() -> tuple[str, ...]:
    """The Basic troop kinds, in table order: bought without a card, also for the starting army (WQ-SU-16)."""
    return tuple(k for k, t in rules().troops.items() if not t.advanced and t.cost is not None)


@cache
def advanced_kinds() -> tuple[str, ...]:
    """The Advanced kinds a card or event unlocks (WQ-SU-17, WQ-TR-06), in table order; the undead come with
    the Wraith King instead (WQ-TR-07)."""
    return tuple(k for k, t in rules().troops.items() if t.advanced and t.recruit in ("land", "city"))


@cache
def wraith_kinds() -> tuple[str, ...]:
    """The troops only the Wraith King's controller recruits, in his region (WQ-TR-07/08)."""
    return tuple(k for k, t in rules().troops.items() if t.recruit == "wraith")


def is_dwarf_foot(kind: str) -> bool:
    """Whether a kind is Dwarf Foot for SHIELD (WQ-SP-04): dwarf infantry and the Hearthguard elite."""
    t = rules().troops.get(kind)
    return t is not None and t.people == "dwarf" and "shield" in t.specials


@cache
def muster_kind(people: str) -> str:
    """The troop a ``muster`` event gives in a people's land: its first basic foot kind in table order."""
    for k, t in rules().troops.items():
        if t.people == people and _foot(t):
            return k
    raise KeyError(f"no basic foot troop for the people {people!r}")
