"""What a WarQuest player may do, as values, with their JSON form (wq-spec 1, Actions).

Every action is a JSON object with a snake_case ``type``; optional keys (marked ``?``) are left out when
unset. Troop counts are ``{kind: count}`` objects in JSON and sorted ``((kind, count), ...)`` tuples in the
dataclasses (so actions stay hashable and compare equal whatever the JSON key order).

Setup (WQ-SU-14..17):     {"type": "place", "region": id, "troops": {kind: n}}
A turn's actions (WQ-AC-01):
  {"type": "move", "leader": id, "troops": [ids], "path": [regions after the start]}
  {"type": "power", "card": id, "discard"?: id}      (Rule of Five: one of the six to give up)
  {"type": "tax", "region": id}
  {"type": "conquer", "region": id}
  {"type": "recruit", "region": id, "troops": {kind: n}}
  {"type": "lieutenant"}
  {"type": "quest", "card": id}
  {"type": "end_turn"}
Answers to a question:
  {"type": "discard", "card": id}                    (Rule of Five after Treasure or a free gain)
  {"type": "arrange", "front": [ids], "rear": [ids]} (the rest to the Reserve, WQ-CB-02/03/07)
  {"type": "target", "rank": "front"|"rear"}         (a missile rank's target, WQ-CB-05)
  {"type": "spell", "troop"?: id}                    (FIREBALL / ICE BLAST at one troop, or none)
  {"type": "breath", "rank"?: "front"|"rear"}        (FIRE BREATH at one rank, or not now)
  {"type": "assign", "hits": {troop id: n}, "flees": [ids]}   (WQ-CB-13..17)
  {"type": "refill", "front": [ids], "rear": [ids]}  (WQ-CB-18)
  {"type": "press_on", "withdraw": bool}             (WQ-MS-41)
  {"type": "retreat", "region": id}                  (WQ-MS-42)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from iwgt.core.actioncodec import ActionCodec, flag, shown, whole
from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON, as_recorded

GAME_TITLE: Final = "WarQuest"
"""The game's name in a refusal of a malformed action."""
MAX_KEY: Final = 40
"""The longest region or troop-kind key."""
MAX_LIST: Final = 200
"""The most ids one list may hold (more than every troop in the box)."""
MAX_COUNT: Final = 100
"""The most troops of one kind one action may name."""
MAX_PATH: Final = 8
"""The most steps a path may list (more than any move allows)."""
RANKS: Final = ("front", "rear")

Counts = tuple[tuple[str, int], ...]
"""Troops by kind: sorted ``((kind, count), ...)`` with every count positive."""
Hits = tuple[tuple[int, int], ...]
"""Hits by troop id: sorted ``((troop id, hits), ...)`` with every count positive."""


def counts(mapping: dict[str, int]) -> Counts:
    """Troop counts in canonical form (zeros dropped, sorted by kind)."""
    return tuple(sorted((k, v) for k, v in mapping.items() if v))


def hits_of(mapping: dict[int, int]) -> Hits:
    """Hits in canonical form (zeros dropped, sorted by troop id)."""
    return tuple(sorted((k, v) for k, v in mapping.items() if v))


@dataclass(frozen=True, slots=True)
class Place:
    """Place the Warlord and a Lieutenant on one region and buy the starting army (WQ-SU-14..17)."""

    region: str
    troops: Counts


@dataclass(frozen=True, slots=True)
class Move:
    """Move one leader and some unmoved troops of its region along a path (WQ-MV-01..14)."""

    leader: int
    troops: tuple[int, ...]
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Power:
    """Buy a face-up power card at an Ancient Battlefield (WQ-PW-01..09); ``discard`` for the Rule of Five."""

    card: int
    discard: int | None = None


@dataclass(frozen=True, slots=True)
class Tax:
    """Tax an owned city (WQ-TX-01..03)."""

    region: str


@dataclass(frozen=True, slots=True)
class Conquer:
    """Place an ownership token where one of the player's leaders stands (WQ-CQ-01..03)."""

    region: str


@dataclass(frozen=True, slots=True)
class Recruit:
    """Buy troops in a region where a leader of the player stands (WQ-RT-01..06)."""

    region: str
    troops: Counts


@dataclass(frozen=True, slots=True)
class Lieutenant:
    """Buy a Lieutenant where the Warlord stands in a city (WQ-LT-01..04)."""


@dataclass(frozen=True, slots=True)
class Quest:
    """Attempt a quest card of the hand where a leader stands at its location (WQ-QU-01..06)."""

    card: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn before the third action (WQ-TU-01 "may")."""


@dataclass(frozen=True, slots=True)
class Discard:
    """The Rule of Five: give up one of six power cards for good (WQ-PW-07/08)."""

    card: int


@dataclass(frozen=True, slots=True)
class Arrange:
    """Set up the army for a battle: at most 5 in each rank, the rest to the Reserve (WQ-CB-02/03/07)."""

    front: tuple[int, ...]
    rear: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Target:
    """The enemy rank a missile rank shoots at (WQ-CB-05)."""

    rank: str


@dataclass(frozen=True, slots=True)
class Spell:
    """FIREBALL or ICE BLAST at one enemy troop, or none this round (WQ-SP-11/12)."""

    troop: int | None = None


@dataclass(frozen=True, slots=True)
class Breath:
    """FIRE BREATH at one enemy rank, or not now (WQ-SP-14)."""

    rank: str | None = None


@dataclass(frozen=True, slots=True)
class Assign:
    """The acting player's assignment of hits and flees to troops of the target rank (WQ-CB-13..17)."""

    hits: Hits
    flees: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Refill:
    """Fill the gaps of the lines from the Reserve (WQ-CB-18)."""

    front: tuple[int, ...]
    rear: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PressOn:
    """After a full round, the attacker fights on or withdraws (and loses, WQ-MS-41)."""

    withdraw: bool


@dataclass(frozen=True, slots=True)
class Retreat:
    """The beaten defender's way out: an adjacent region (WQ-MS-42)."""

    region: str


Action = (
    Place
    | Move
    | Power
    | Tax
    | Conquer
    | Recruit
    | Lieutenant
    | Quest
    | EndTurn
    | Discard
    | Arrange
    | Target
    | Spell
    | Breath
    | Assign
    | Refill
    | PressOn
    | Retreat
)
"""Every action of the game."""

TYPES: Final[dict[str, type[Any]]] = {
    "place": Place,
    "move": Move,
    "power": Power,
    "tax": Tax,
    "conquer": Conquer,
    "recruit": Recruit,
    "lieutenant": Lieutenant,
    "quest": Quest,
    "end_turn": EndTurn,
    "discard": Discard,
    "arrange": Arrange,
    "target": Target,
    "spell": Spell,
    "breath": Breath,
    "assign": Assign,
    "refill": Refill,
    "press_on": PressOn,
    "retreat": Retreat,
}
"""Every action type by its JSON name."""
NAMES: Final[dict[type[Any], str]] = {cls: name for name, cls in TYPES.items()}
"""Every action class's JSON name."""
TURN_ACTIONS: Final[tuple[type[Any], ...]] = (Move, Power, Tax, Conquer, Recruit, Lieutenant, Quest)
"""The seven actions of a turn (WQ-AC-01): each uses one of the turn's actions."""
BATTLE_ANSWERS: Final[tuple[type[Any], ...]] = (
    Arrange,
    Target,
    Spell,
    Breath,
    Assign,
    Refill,
    PressOn,
    Retreat,
)
"""The answers to a battle's questions."""


def _key(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_KEY:
        raise MalformedAction(f"'{key}' must be a short name, got {shown(value)}")
    return value


def _rank(value: Any, key: str) -> str:
    if value not in RANKS:
        raise MalformedAction(f'\'{key}\' must be "front" or "rear", got {shown(value)}')
    return str(value)


def _ids(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) > MAX_LIST:
        raise MalformedAction(f"'{key}' must be a list of at most {MAX_LIST} ids, got {shown(value)}")
    out = tuple(whole(v, f"{key}.{i}") for i, v in enumerate(value))
    if len(set(out)) != len(out):
        raise MalformedAction(f"'{key}' names an id twice: {shown(value)}")
    return out


def _path(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_PATH:
        raise MalformedAction(f"'{key}' must be a list of 1 to {MAX_PATH} regions, got {shown(value)}")
    return tuple(_key(v, f"{key}.{i}") for i, v in enumerate(value))


def _counts(value: Any, key: str) -> Counts:
    if isinstance(value, list | tuple):  # the dataclass form, as a recorded action round-trips it
        try:
            value = dict(value)
        except (TypeError, ValueError) as exc:
            raise MalformedAction(f"'{key}' must be an object {{kind: count}}, got {shown(value)}") from exc
    if not isinstance(value, dict) or len(value) > MAX_LIST:
        raise MalformedAction(f"'{key}' must be an object {{kind: count}}, got {shown(value)}")
    out: dict[str, int] = {}
    for k, v in value.items():
        kind = _key(k, f"{key} kind")
        n = whole(v, f"{key}.{kind}")
        if not 0 <= n <= MAX_COUNT:
            raise MalformedAction(f"'{key}.{kind}' must be 0 to {MAX_COUNT}, got {shown(v)}")
        out[kind] = n
    return counts(out)


def _hits(value: Any, key: str) -> Hits:
    if isinstance(value, list | tuple):
        try:
            value = dict(value)
        except (TypeError, ValueError) as exc:
            said = f"'{key}' must be an object {{troop id: hits}}, got {shown(value)}"
            raise MalformedAction(said) from exc
    if not isinstance(value, dict) or len(value) > MAX_LIST:
        raise MalformedAction(f"'{key}' must be an object {{troop id: hits}}, got {shown(value)}")
    out: dict[int, int] = {}
    for k, v in value.items():
        # JSON object keys are strings: "12" is troop 12
        tid = int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else whole(k, f"{key} id")
        n = whole(v, f"{key}.{k}")
        if not 0 <= n <= MAX_COUNT:
            raise MalformedAction(f"'{key}.{k}' must be 0 to {MAX_COUNT}, got {shown(v)}")
        if tid in out:
            raise MalformedAction(f"'{key}' names troop {tid} twice")
        out[tid] = n
    return hits_of(out)


def _parsed(value: Any, key: str) -> Any:
    # ``troops`` differs by action type (ids for a move, counts for place/recruit): action_from_json
    # parses it before the codec sees it
    return value


def _opt_whole(value: Any, key: str) -> int:
    return whole(value, key)


CODEC: Final = ActionCodec(
    GAME_TITLE,
    TYPES,
    {
        "region": _key,
        "troops": _parsed,
        "leader": whole,
        "path": _path,
        "card": whole,
        "discard": _opt_whole,
        "front": _ids,
        "rear": _ids,
        "rank": _rank,
        "troop": whole,
        "hits": _hits,
        "flees": _ids,
        "withdraw": flag,
    },
)
"""The actions' JSON codec (the field parsers by key; ``troops`` is parsed per action type below)."""


def action_to_json(action: Action) -> JSON:
    """An action as JSON (optional keys left out when unset; counts and hits as objects)."""
    out = CODEC.to_json(action)
    if isinstance(action, Place | Recruit):
        out["troops"] = {k: n for k, n in action.troops}
    elif isinstance(action, Assign):
        out["hits"] = {str(k): n for k, n in action.hits}
    return out


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    if isinstance(data, dict) and "troops" in data:
        kind = data.get("type")
        if kind in ("place", "recruit"):
            data = {**data, "troops": _counts(data["troops"], "troops")}
        elif kind == "move":
            data = {**data, "troops": _ids(data["troops"], "troops")}
    action: Action = CODEC.from_json(data)
    if isinstance(action, Place | Recruit) and not (
        isinstance(action.troops, tuple) and all(isinstance(p, tuple) for p in action.troops)
    ):
        raise MalformedAction(f"'troops' must be an object {{kind: count}}, got {shown(action.troops)}")
    return action


def recorded(action: Any) -> Action:
    """The action exactly as its record will replay it, or ``MalformedAction`` (see ``as_recorded``)."""
    return as_recorded(action, action_to_json, action_from_json, GAME_TITLE)
