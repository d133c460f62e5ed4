"""What a Valhalla player may do, as values, with their JSON form (points as [x, y] in inches)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from iwgt.core.actioncodec import ActionCodec, point, points, whole
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

MAX_VIA = 16
"""Waypoints a move may give before its end."""

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


def _points(value: Any, key: str) -> tuple[XY, ...]:
    return points(value, key, 0, MAX_VIA)


CODEC = ActionCodec(
    "Valhalla",
    _TYPES,
    {
        "figure": whole,
        "target": whole,
        "opponent": whole,
        "thing": whole,
        "obstacle": whole,
        "baggage": whole,
        "to": point,
        "via": _points,
    },
)
"""The actions' JSON codec (the field parsers by key)."""


def action_to_json(action: Action) -> JSON:
    """An action as JSON."""
    return CODEC.to_json(action)


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    action: Action = CODEC.from_json(data)
    return action


def recorded(action: Any) -> Action:
    """The action exactly as its record will replay it, or ``MalformedAction`` (see ``as_recorded``)."""
    return as_recorded(action, action_to_json, action_from_json, "Valhalla")
