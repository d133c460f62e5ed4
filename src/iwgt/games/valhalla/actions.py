"""What a Valhalla player may do, as values, with their JSON form (points as [x, y] in inches)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON, as_recorded
from iwgt.geometry.plane import XY


@dataclass(frozen=True, slots=True)
class Move:
    """Move up to 6" along a path, half speed in woods, village or uphill, stopping 2" from the enemy
    (VH-AC-05..07). ``via`` are optional waypoints before ``to``."""

    figure: int
    to: XY
    via: tuple[XY, ...] = ()


@dataclass(frozen=True, slots=True)
class Cross:
    """Cross a fence, hedge or other obstacle within reach, ending just beyond it (VH-AC-08)."""

    figure: int
    obstacle: int


@dataclass(frozen=True, slots=True)
class Charge:
    """Charge up to 2" into contact with an enemy; the combat is fought at once (VH-AC-09, VH-CO-01)."""

    figure: int
    target: int


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Withdraw up to 2" out of combat (VH-AC-10, VH-CO-16)."""

    figure: int
    to: XY


@dataclass(frozen=True, slots=True)
class Fight:
    """Continue fighting an opponent in contact: the only action of the activation (VH-AC-11, VH-CO-15)."""

    figure: int
    opponent: int


@dataclass(frozen=True, slots=True)
class PickUp:
    """Pick up a thing within reach (VH-AC-12)."""

    figure: int
    thing: int


@dataclass(frozen=True, slots=True)
class Drop:
    """Drop what the figure carries (VH-AC-12, VH-AC-16)."""

    figure: int


@dataclass(frozen=True, slots=True)
class Recover:
    """Remove one shock marker, more than 2" from every enemy (VH-AC-13, VH-AC-14)."""

    figure: int


@dataclass(frozen=True, slots=True)
class Shoot:
    """An archer or slinger shoots at an enemy figure (VH-AC-15, VH-SH-01..09)."""

    figure: int
    target: int


@dataclass(frozen=True, slots=True)
class EndActivation:
    """End the activation now (fewer than two actions are allowed: "up to two"), or pass the card."""


@dataclass(frozen=True, slots=True)
class MoveBaggage:
    """Move a side's baggage up to 6" at the end of the turn (VH-AC-04)."""

    baggage: int
    to: XY


Action = (
    Move | Cross | Charge | Withdraw | Fight | PickUp | Drop | Recover | Shoot | EndActivation | MoveBaggage
)

_TYPES: dict[str, type[Any]] = {
    "move": Move,
    "cross": Cross,
    "charge": Charge,
    "withdraw": Withdraw,
    "fight": Fight,
    "pick_up": PickUp,
    "drop": Drop,
    "recover": Recover,
    "shoot": Shoot,
    "end_activation": EndActivation,
    "move_baggage": MoveBaggage,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}
_OPTIONAL = {"via"}


def _coordinate(v: Any) -> bool:
    """A finite number of inches (an integer too big for a float, say 401 digits, is none)."""
    if not isinstance(v, int | float) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def _point(value: Any, key: str) -> XY:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(_coordinate(v) for v in value):
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
        raise MalformedAction(f"'{key}' must be a point [x, y] in inches, got {shown}")
    return (float(value[0]), float(value[1]))


def _int(value: Any, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"'{key}' must be a whole number, got {value!r}")
    return value


def _points(value: Any, key: str) -> tuple[XY, ...]:
    if not isinstance(value, list) or len(value) > 16:
        raise MalformedAction(f"'{key}' must be a list of at most 16 points [x, y], got {value!r}")
    return tuple(_point(v, f"{key}.{i}") for i, v in enumerate(value))


_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    "figure": _int,
    "target": _int,
    "opponent": _int,
    "thing": _int,
    "obstacle": _int,
    "baggage": _int,
    "to": _point,
    "via": _points,
}


def action_to_json(action: Action) -> JSON:
    """An action as JSON."""
    name = _NAMES.get(type(action))
    if name is None:
        raise MalformedAction(f"not a Valhalla action: {action!r}")
    out: JSON = {"type": name}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name == "via":
            if value:
                out["via"] = [list(p) for p in value]
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind is None:
        raise MalformedAction(f"the action names no 'type'; expected one of {', '.join(sorted(_TYPES))}")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {', '.join(sorted(_TYPES))}")
    names = [f.name for f in fields(cls)]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise MalformedAction(f"unexpected key(s) {', '.join(sorted(extra))} in a '{kind}' action")
    args: dict[str, Any] = {}
    for n in names:
        if n not in data:
            if n in _OPTIONAL:
                continue
            raise MalformedAction(f"a '{kind}' action needs '{n}'")
        args[n] = _PARSERS[n](data[n], n)
    action: Action = cls(**args)
    return action


def recorded(action: Any) -> Action:
    """The action exactly as its record will replay it, or ``MalformedAction`` (see ``as_recorded``)."""
    return as_recorded(action, action_to_json, action_from_json, "Valhalla")
