"""What a Coloured-Dice player may do, as values, with their JSON form.

Points are ``[x, y]`` in inches from the bottom-left corner; facings are degrees, 0 = facing +y (towards
seat 1's edge), counter-clockwise positive. Every action is a JSON object with a snake_case ``type``;
optional keys (marked ``?``) are left out when unset.

A unit's actions in its turn (CD-AC-01/02, CD-MS-16, cd-spec 1):
  {"type": "move", "unit": id, "path": [[x, y], ...], "facing": f}   (tray centres, 1..16; pivots free)
  {"type": "charge", "unit": id, "target": id}
  {"type": "reform", "unit": id, "order": "open"|"skirmish"|"loose"|"tight", "files": n, "facing"?: f}
  {"type": "rally", "unit": id}
  {"type": "fight", "unit": id, "target": id}
  {"type": "shoot", "unit": id, "target": id}
  {"type": "cast", "unit": id, "spell": key, "target"?: id, "at"?: [x, y]}
  {"type": "release", "unit": id, "spirit": key}
  {"type": "end_turn"}
Answers to a pending question (cd-spec 1, characters and reaction):
  {"type": "hero", "points": k}          (k in [-left, +left]; 0 keeps them, CD-CH-18..20)
  {"type": "bear_wound", "roll": bool}   (roll one more bear-wound die, or let the rest through, CD-CH-10..17)
  {"type": "react", "roll": bool}        (roll the reaction dice against a charge, CD-RE-01/02)
  {"type": "resist", "spend": bool}      (spend Will to cancel a spell, CD-CH-21..25 designed)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from iwgt.core.actioncodec import ActionCodec, flag, number, point, points, shown, whole
from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON, as_recorded

XY = tuple[float, float]
GAME_TITLE: Final = "Coloured-Dice"
"""The game's name in a refusal of a malformed action."""
MAX_PATH: Final = 16
"""The most waypoints a move may list."""
MAX_KEY: Final = 32
"""The longest order, spell or spirit key."""
MAX_FILES: Final = 64
"""The most files a reform may ask for (more than any unit's models)."""
MAX_HERO: Final = 64
"""The most hero points one answer may spend either way."""


@dataclass(frozen=True, slots=True)
class Move:
    """Move a unit along straight legs through tray centres, then pivot to ``facing`` (CD-MS-01, CD-TE)."""

    unit: int
    path: tuple[XY, ...]
    facing: float


@dataclass(frozen=True, slots=True)
class Charge:
    """Charge a visible enemy unit within the allowance: a move into aligned contact (CD-MS-16)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Reform:
    """Change a unit's order and files (and facing, about its centre) (CD-AC-05..08)."""

    unit: int
    order: str
    files: int
    facing: float | None = None


@dataclass(frozen=True, slots=True)
class Rally:
    """A shaken unit not engaged tests morale with both its actions: passed, it is steady (designed)."""

    unit: int


@dataclass(frozen=True, slots=True)
class Fight:
    """Fight an enemy unit in contact: the faster side strikes first, the survivors strike back (CD-FI)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Shoot:
    """Shoot an enemy unit in sight and range with the unit's missile weapons (CD-SH, CD-RA)."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Cast:
    """Cast a spell, call a god's gift or use a spirit or moon power (CD-MA): at a unit or a point."""

    unit: int
    spell: str
    target: int | None = None
    at: XY | None = None


@dataclass(frozen=True, slots=True)
class Release:
    """Release a bound spirit: its benefit doubled for one turn, or a spirit unit on the table (CD-MA)."""

    unit: int
    spirit: str


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the player's turn (always offered in a turn)."""


@dataclass(frozen=True, slots=True)
class Hero:
    """Spend hero points on the dice just rolled: +k or -k, 0 keeps them (CD-CH-18..20)."""

    points: int


@dataclass(frozen=True, slots=True)
class BearWound:
    """Roll one more bear-wound die (``roll``), or let the wounds left through (CD-CH-10..17)."""

    roll: bool


@dataclass(frozen=True, slots=True)
class React:
    """Roll the reaction dice against a charge, or not (CD-RE-01/02)."""

    roll: bool


@dataclass(frozen=True, slots=True)
class Resist:
    """Spend Will equal to the spell's cost to cancel it, or not (CD-CH-21..25 designed)."""

    spend: bool


Action = (
    Move
    | Charge
    | Reform
    | Rally
    | Fight
    | Shoot
    | Cast
    | Release
    | EndTurn
    | Hero
    | BearWound
    | React
    | Resist
)
"""Every action of the game."""

TYPES: Final[dict[str, type[Any]]] = {
    "move": Move,
    "charge": Charge,
    "reform": Reform,
    "rally": Rally,
    "fight": Fight,
    "shoot": Shoot,
    "cast": Cast,
    "release": Release,
    "end_turn": EndTurn,
    "hero": Hero,
    "bear_wound": BearWound,
    "react": React,
    "resist": Resist,
}
"""Every action type by its JSON name."""
NAMES: Final[dict[type[Any], str]] = {cls: name for name, cls in TYPES.items()}
"""Every action class's JSON name."""
ANSWERS: Final[tuple[type[Any], ...]] = (Hero, BearWound, React, Resist)
"""The actions that answer a pending question (never a unit's own action)."""


def _key(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_KEY:
        raise MalformedAction(f"'{key}' must be a short name, got {shown(value)}")
    return value


def _path(value: Any, key: str) -> tuple[XY, ...]:
    return points(value, key, 1, MAX_PATH)


def _files(value: Any, key: str) -> int:
    n = whole(value, key)
    if not 1 <= n <= MAX_FILES:
        raise MalformedAction(f"'{key}' must be 1 to {MAX_FILES} files, got {shown(value)}")
    return n


def _hero_points(value: Any, key: str) -> int:
    n = whole(value, key)
    if not -MAX_HERO <= n <= MAX_HERO:
        raise MalformedAction(f"'{key}' must be -{MAX_HERO} to {MAX_HERO} hero points, got {shown(value)}")
    return n


CODEC: Final = ActionCodec(
    GAME_TITLE,
    TYPES,
    {
        "unit": whole,
        "target": whole,
        "path": _path,
        "facing": number,
        "order": _key,
        "files": _files,
        "spell": _key,
        "at": point,
        "spirit": _key,
        "points": _hero_points,
        "roll": flag,
        "spend": flag,
    },
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
    return as_recorded(action, action_to_json, action_from_json, GAME_TITLE)
