"""What a player may do, as values, with their JSON form (cells as odd-r offset [col, row])."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON, as_recorded
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


@dataclass(frozen=True, slots=True)
class ChooseSpells:
    """Arm a wizard before the game (VX-15-05, VX-15-06): six spells, or none for his default pack."""

    unit: int
    spells: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CastSpell:
    """Throw a spell in the spells step of the combat round (VX-15-11 to VX-15-13).

    ``target`` is the portal's cell for Transportation and the enemy wizard's cell for Deny Magic.
    """

    unit: int
    spell: str
    target: Hex | None = None


@dataclass(frozen=True, slots=True)
class Transport:
    """Send a unit standing on its side's open portal to another cell (VX-SP-TRANSPORT-4)."""

    unit: int
    to: Hex


@dataclass(frozen=True, slots=True)
class Conceal:
    """Take the Grima off the table into stealth, or send the Sand Worm underground (VX-12-02, VX-12-08)."""

    unit: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Bring the hidden Grima back into sight without striking (VX-12-02)."""

    unit: int


@dataclass(frozen=True, slots=True)
class SetQuarry:
    """Name the enemy character the Grima pursues (VX-12-03, VX-15-18). A secret order."""

    unit: int
    target: int


@dataclass(frozen=True, slots=True)
class Tunnel:
    """Move the hidden Sand Worm underground (VX-12-08). A secret order."""

    unit: int
    to: Hex


@dataclass(frozen=True, slots=True)
class Surface:
    """Order the hidden Sand Worm up at a cell of its near choosing (VX-12-09, VX-15-21)."""

    unit: int
    at: Hex


@dataclass(frozen=True, slots=True)
class AddTroops:
    """The Add troops button (VX-15-24): bring a late troop onto a free cell of its side's entry zone."""

    unit: int
    to: Hex


Action = (
    PlaceUnit
    | ConfirmDeployment
    | Move
    | EndPhase
    | ChooseSpells
    | CastSpell
    | Transport
    | Conceal
    | Reveal
    | SetQuarry
    | Tunnel
    | Surface
    | AddTroops
)

PRIVATE_ACTIONS = (ChooseSpells, SetQuarry, Tunnel)
"""Orders the other seat must not see (held spells, the Grima's quarry, the worm's way underground)."""


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
        case ChooseSpells(unit, chosen):
            return {"type": "spells", "unit": unit, "spells": list(chosen)}
        case CastSpell(unit, spell, target):
            cast: JSON = {"type": "cast", "unit": unit, "spell": spell}
            if target is not None:
                cast["target"] = list(hex_to_offset(target))
            return cast
        case Transport(unit, to):
            return {"type": "transport", "unit": unit, "to": list(hex_to_offset(to))}
        case Conceal(unit):
            return {"type": "conceal", "unit": unit}
        case Reveal(unit):
            return {"type": "reveal", "unit": unit}
        case SetQuarry(unit, target):
            return {"type": "quarry", "unit": unit, "target": target}
        case Tunnel(unit, to):
            return {"type": "tunnel", "unit": unit, "to": list(hex_to_offset(to))}
        case Surface(unit, at):
            return {"type": "surface", "unit": unit, "at": list(hex_to_offset(at))}
        case AddTroops(unit, to):
            return {"type": "add_troops", "unit": unit, "to": list(hex_to_offset(to))}
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
    "spells": {"type", "unit", "spells"},
    "cast": {"type", "unit", "spell", "target"},
    "transport": {"type", "unit", "to"},
    "conceal": {"type", "unit"},
    "reveal": {"type", "unit"},
    "quarry": {"type", "unit", "target"},
    "tunnel": {"type", "unit", "to"},
    "surface": {"type", "unit", "at"},
    "add_troops": {"type", "unit", "to"},
}


def _names(data: JSON, key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedAction(f"'{key}' must be a list of spell ids, got {value!r}")
    return tuple(value)


def _text(data: JSON, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise MalformedAction(f"'{key}' must be a spell id such as \"fire\", got {value!r}")
    return value


def action_from_json(data: Any) -> Action:
    """An action from JSON, refusing anything malformed with the reason."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind is None:
        raise MalformedAction(f"the action names no 'type'; expected one of {', '.join(sorted(_KEYS))}")
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
    if kind == "spells":
        return ChooseSpells(_int(data, "unit"), _names(data, "spells"))
    if kind == "cast":
        target = _cell(data, "target") if data.get("target") is not None else None
        return CastSpell(_int(data, "unit"), _text(data, "spell"), target)
    if kind in ("conceal", "reveal"):
        return (Conceal if kind == "conceal" else Reveal)(_int(data, "unit"))
    if kind == "quarry":
        return SetQuarry(_int(data, "unit"), _int(data, "target"))
    if kind == "transport":
        return Transport(_int(data, "unit"), _cell(data, "to"))
    if kind == "tunnel":
        return Tunnel(_int(data, "unit"), _cell(data, "to"))
    if kind == "surface":
        return Surface(_int(data, "unit"), _cell(data, "at"))
    if kind == "add_troops":
        return AddTroops(_int(data, "unit"), _cell(data, "to"))
    return Move(
        _int(data, "unit"),
        _cell(data, "to"),
        charge=_flag(data, "charge"),
        airborne=_flag(data, "airborne"),
        pray=_flag(data, "pray"),
    )


def recorded(action: Any) -> Action:
    """The action exactly as its record will replay it, or ``MalformedAction`` (see ``as_recorded``)."""
    return as_recorded(action, action_to_json, action_from_json, "Days of the Valkyrx")
