"""What a player may do, as values, with their JSON form (cells as odd-r offset [col, row])."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON
from iwgt.geometry.hexgrid import Hex, hex_to_offset, offset_to_hex


@dataclass(frozen=True, slots=True)
class PlaceUnit:
    """Deployment: set a unit on a cell of the seat's lit deployment zone (VX-02-12, VX-15-04)."""

    unit: int
    to: Hex


@dataclass(frozen=True, slots=True)
class ConfirmDeployment:
    """Deployment done: "tap the tick" (VX-15-04)."""


@dataclass(frozen=True, slots=True)
class Move:
    """Pick a unit up and set it down: walking, charging, or airborne; ``pray`` at the Temple (VX-05-06)."""

    unit: int
    to: Hex
    charge: bool = False
    airborne: bool = False
    pray: bool = False


@dataclass(frozen=True, slots=True)
class EndPhase:
    """End this seat's movement phase (VX-02-08, VX-15-23)."""


Action = PlaceUnit | ConfirmDeployment | Move | EndPhase


def action_to_json(action: Action) -> JSON:
    """An action as JSON."""
    match action:
        case PlaceUnit(unit, to):
            return {"type": "place", "unit": unit, "to": list(hex_to_offset(to))}
        case ConfirmDeployment():
            return {"type": "confirm"}
        case Move(unit, to, charge, airborne, pray):
            out: JSON = {"type": "move", "unit": unit, "to": list(hex_to_offset(to))}
            if charge:
                out["charge"] = True
            if airborne:
                out["airborne"] = True
            if pray:
                out["pray"] = True
            return out
        case EndPhase():
            return {"type": "end_phase"}
    raise MalformedAction(f"not a Days of the Valkyrx action: {action!r}")


def _cell(data: JSON, key: str) -> Hex:
    value = data.get(key)
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise MalformedAction(f"'{key}' must be a cell [column, row] of two whole numbers, got {value!r}")
    return offset_to_hex(value[0], value[1])


def _int(data: JSON, key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"'{key}' must be a whole number, got {value!r}")
    return value


def _flag(data: JSON, key: str) -> bool:
    value: Any = data.get(key, False)
    if not isinstance(value, bool):
        raise MalformedAction(f"'{key}' must be true or false, got {value!r}")
    return value


_KEYS = {
    "place": {"type", "unit", "to"},
    "confirm": {"type"},
    "move": {"type", "unit", "to", "charge", "airborne", "pray"},
    "end_phase": {"type"},
}


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in _KEYS:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {', '.join(sorted(_KEYS))}")
    extra = set(data) - _KEYS[kind]
    if extra:
        raise MalformedAction(f"unexpected key(s) {', '.join(sorted(extra))} in a '{kind}' action")
    if kind == "place":
        return PlaceUnit(_int(data, "unit"), _cell(data, "to"))
    if kind == "confirm":
        return ConfirmDeployment()
    if kind == "end_phase":
        return EndPhase()
    return Move(
        _int(data, "unit"),
        _cell(data, "to"),
        charge=_flag(data, "charge"),
        airborne=_flag(data, "airborne"),
        pray=_flag(data, "pray"),
    )
