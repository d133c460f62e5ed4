"""What a Forged upon an Anvil player may do, as values, with their JSON form.

Points are ``[x, y]`` in inches from the bottom-left corner; facings are degrees, 0 = facing +y (towards
seat 1's edge), counter-clockwise positive. Every action is a JSON object with a snake_case ``type``;
optional keys (marked ``?``) are left out when unset. The shapes, by phase:

muster (FA-GN-03, FA-UD):
  {"type": "army", "units": [{"type": "troop", "name": "Spearmen", "general": false,
                              "stratagems": ["shooter"]}, ...]}
      an army list without its Seat of Power (the engine adds it); unit types: hero, wizard, monster, knight,
      war_machine, troop; deployment stratagem keys: flanking, swiftness, shooter, weak, fear,
      heavy_projectile, tough, infiltrate.
terrain_bid (FA-FB-01):  {"type": "terrain_bid", "amount": 0..5}
terrain (FA-FB-02..06):
  {"type": "place_feature", "piece": "wood", "centre": [x, y], "rotation": 0|90,
   "halves": bool, "blocks": bool, "impassable": bool}
  {"type": "skip_feature"}              (only when the piece has no legal place left)
seats (FA-FB-07):        {"type": "place_seat", "centre": [x, y]}
bid (FA-GT-01..05):      {"type": "bid", "amount": 0..limit}
activation (FA-AC, FA-DP, FA-MV, FA-EN, stratagems):
  {"type": "activate", "unit": id}
  {"type": "deploy", "unit": id, "edge": "own", "x": x}
  {"type": "deploy", "unit": id, "edge": "left"|"right", "y": y}          (Flanking)
  {"type": "deploy", "unit": id, "edge": "infiltrate", "x": x, "y": y, "facing": f}   (Infiltrate)
  {"type": "stratagem", "key": "brace"|"march"|"hammerblow"|"skirmishing"|"fly_burrow"|
                               "interpenetration"|"parthian"}
  {"type": "move", "unit": id, "path": [[x, y], ...], "facing": f}   (tray centres, 1..16; pivots free)
  {"type": "engage", "unit": id, "target": id}
  {"type": "shoot", "unit": id, "target": id}                          (Ballistics)
  {"type": "cast", "unit": id, "spell": "fireball"|"stormwind"|"transfix"|"drain_life"|"summon_subjects",
   "target"?: id, "point"?: [x, y], "distance"?: d, "direction"?: "away"|"towards",
   "extras"?: ["swiftness", "fear"], "facing"?: f}
  {"type": "steady", "unit": id, "target": id}
  {"type": "raise_champion", "unit": id, "centre": [x, y], "facing": f}
  {"type": "end_activation"}
  {"type": "pass"}                                       (gives up the CP left this turn)
interrupt (FA-ST-05, FA-SI):
  {"type": "interrupt", "key": "counterattack"|"hero_of_the_day"|"dispel", "unit"?: id}
  {"type": "decline"}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from iwgt.core.actioncodec import ActionCodec, flag, number, point, points, shown, whole
from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON, as_recorded

XY = tuple[float, float]

MAX_PATH: Final = 16
"""The most waypoints a move may list."""
MAX_ARMY: Final = 64
"""The most units an army list may hold (the largest scenario's budget buys far fewer)."""
MAX_NAME: Final = 40
"""The longest unit name."""
MAX_KEY: Final = 32
"""The longest stratagem, spell or piece key."""


@dataclass(frozen=True, slots=True)
class ArmyEntry:
    """One unit of an army list: its type, its name, whether it is the General's unit, its deployment
    stratagems (FA-GN-04, FA-ST-03, FA-SD)."""

    type: str
    name: str
    general: bool = False
    stratagems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Army:
    """A sealed army list chosen at muster (FA-GN-03); the Seat of Power is added by the engine."""

    units: tuple[ArmyEntry, ...]


@dataclass(frozen=True, slots=True)
class TerrainBid:
    """A sealed bid of 0..5 CP for the field of battle (FA-FB-01)."""

    amount: int


@dataclass(frozen=True, slots=True)
class PlaceFeature:
    """Place one terrain piece of the scenario's palette with its designations (FA-FB-02..06)."""

    piece: str
    centre: XY
    rotation: int
    halves: bool
    blocks: bool
    impassable: bool


@dataclass(frozen=True, slots=True)
class SkipFeature:
    """Give up a feature that has no legal place left (FA-FB-06 decided)."""


@dataclass(frozen=True, slots=True)
class PlaceSeat:
    """Place the Seat of Power within 12" of the own board edge (FA-FB-07)."""

    centre: XY


@dataclass(frozen=True, slots=True)
class Bid:
    """A sealed bid of CP for this turn (FA-GT-01..05)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate a unit on the table for 1 CP (FA-AC-01..03)."""

    unit: int


@dataclass(frozen=True, slots=True)
class Deploy:
    """Deploy a unit in its first activation (FA-DP-01..04): from the own edge at ``x``, from a side edge at
    ``y`` (Flanking, FA-SD-02), or anywhere at ``(x, y)`` with ``facing`` (Infiltrate, FA-SD-18..21)."""

    unit: int
    edge: str = "own"
    x: float | None = None
    y: float | None = None
    facing: float | None = None


@dataclass(frozen=True, slots=True)
class Stratagem:
    """Use a stratagem that toggles something for this activation (Brace, March, Hammerblow, ...)."""

    key: str


@dataclass(frozen=True, slots=True)
class Move:
    """Move the active unit along straight legs through tray centres, then pivot to ``facing`` (FA-MV)."""

    unit: int
    path: tuple[XY, ...]
    facing: float


@dataclass(frozen=True, slots=True)
class Engage:
    """Engage an enemy unit in LOS: a straight move into aligned contact and a combat (FA-EN, FA-CRM)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Shoot:
    """Ballistics (3 CP) at an enemy unit in LOS within 18" (FA-SS)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Cast:
    """A spell (Wizard) or a natural (Monster) (FA-SN): ``target`` a unit; Stormwind's ``distance`` and
    ``direction``; Summon Subjects' ``point``, ``extras`` and ``facing``."""

    unit: int
    spell: str
    target: int | None = None
    point: XY | None = None
    distance: float | None = None
    direction: str | None = None
    extras: tuple[str, ...] = ()
    facing: float | None = None


@dataclass(frozen=True, slots=True)
class Steady:
    """Steady (1 CP, General's unit): another friendly unit within 6" gains 1 HP (FA-SH-01/02)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class RaiseChampion:
    """Raise a Champion (2 CP, once a game): a Hero beside the unit touching the enemy Seat (FA-SH-03..06)."""

    unit: int
    centre: XY
    facing: float


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Answer an interruption prompt with a stratagem (FA-ST-05, FA-SI); ``unit`` picks the Wizard that
    dispels when several could."""

    key: str
    unit: int | None = None


@dataclass(frozen=True, slots=True)
class Decline:
    """Let an interruption chance go."""


@dataclass(frozen=True, slots=True)
class EndActivation:
    """End the active unit's activation."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up all the CP left this turn (FA-AC-04 decided)."""


Action = (
    Army
    | TerrainBid
    | PlaceFeature
    | SkipFeature
    | PlaceSeat
    | Bid
    | Activate
    | Deploy
    | Stratagem
    | Move
    | Engage
    | Shoot
    | Cast
    | Steady
    | RaiseChampion
    | Interrupt
    | Decline
    | EndActivation
    | Pass
)

TYPES: Final[dict[str, type[Any]]] = {
    "army": Army,
    "terrain_bid": TerrainBid,
    "place_feature": PlaceFeature,
    "skip_feature": SkipFeature,
    "place_seat": PlaceSeat,
    "bid": Bid,
    "activate": Activate,
    "deploy": Deploy,
    "stratagem": Stratagem,
    "move": Move,
    "engage": Engage,
    "shoot": Shoot,
    "cast": Cast,
    "steady": Steady,
    "raise_champion": RaiseChampion,
    "interrupt": Interrupt,
    "decline": Decline,
    "end_activation": EndActivation,
    "pass": Pass,
}
"""Every action type by its JSON name."""
NAMES: Final[dict[type[Any], str]] = {cls: name for name, cls in TYPES.items()}
"""Every action class's JSON name."""


def _key(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_KEY:
        raise MalformedAction(f"'{key}' must be a short name, got {shown(value)}")
    return value


def _name(value: Any, key: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise MalformedAction(f"'{key}' must be a name of at most {MAX_NAME} characters, got {shown(value)}")
    return value


def _keys(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or len(value) > 8:
        raise MalformedAction(f"'{key}' must be a list of at most 8 names, got {shown(value)}")
    return tuple(_key(v, f"{key}.{i}") for i, v in enumerate(value))


def _path(value: Any, key: str) -> tuple[XY, ...]:
    return points(value, key, 1, MAX_PATH)


def _entry(value: Any, key: str) -> ArmyEntry:
    if not isinstance(value, dict):
        raise MalformedAction(f"'{key}' must be a unit object {{type, name, general, stratagems}}")
    extra = set(value) - {"type", "name", "general", "stratagems"}
    if extra:
        raise MalformedAction(f"unexpected key(s) {', '.join(sorted(extra))} in '{key}'")
    if "type" not in value:
        raise MalformedAction(f"'{key}' needs 'type'")
    return ArmyEntry(
        type=_key(value["type"], f"{key}.type"),
        name=_name(value.get("name", ""), f"{key}.name"),
        general=flag(value.get("general", False), f"{key}.general"),
        stratagems=_keys(value.get("stratagems", []), f"{key}.stratagems"),
    )


def _units(value: Any, key: str) -> tuple[ArmyEntry, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_ARMY:
        raise MalformedAction(f"'{key}' must be a list of 1 to {MAX_ARMY} units, got {shown(value)}")
    return tuple(_entry(v, f"{key}.{i}") for i, v in enumerate(value))


def _out(value: Any) -> Any:
    if isinstance(value, ArmyEntry):
        return {
            "type": value.type,
            "name": value.name,
            "general": value.general,
            "stratagems": list(value.stratagems),
        }
    if isinstance(value, tuple):
        return [_out(v) for v in value]
    return value


CODEC: Final = ActionCodec(
    "Forged upon an Anvil",
    TYPES,
    {
        "units": _units,
        "amount": whole,
        "piece": _key,
        "centre": point,
        "rotation": whole,
        "halves": flag,
        "blocks": flag,
        "impassable": flag,
        "unit": whole,
        "target": whole,
        "edge": _key,
        "x": number,
        "y": number,
        "facing": number,
        "key": _key,
        "path": _path,
        "spell": _key,
        "point": point,
        "distance": number,
        "direction": _key,
        "extras": _keys,
    },
    _out,
)
"""The actions' JSON codec (the field parsers by key)."""


def action_to_json(action: Action) -> JSON:
    """An action as JSON (optional keys left out when unset)."""
    return CODEC.to_json(action)


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    action: Action = CODEC.from_json(data)
    return action


def recorded(action: Any) -> Action:
    """The action exactly as its record will replay it, or ``MalformedAction`` (see ``as_recorded``)."""
    return as_recorded(action, action_to_json, action_from_json, "Forged upon an Anvil")
