"""Actions as JSON for games whose actions are flat dataclasses: one codec, strict at the door.

A game lists its action classes by their JSON ``type`` and a parser per field name; the codec writes an
action as ``{"type": ..., field: value}`` (a field with a default left out while unset) and reads one back,
refusing anything malformed (not an object, an unknown type, a missing or unexpected key, a mistyped value)
with a ``MalformedAction`` that names the key. The field parsers every game needs (a whole number, a finite
number, a point in inches, a flag) are here too, so each game adds only its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any

from iwgt.core.errors import MalformedAction
from iwgt.core.protocol import JSON

Parser = Callable[[Any, str], Any]
"""A field's parser: the JSON value and its key in, the field's value out (else MalformedAction)."""
SHOWN = 80
"""Characters of a refused value quoted in an error (a longer one is cut with "...")."""


def shown(value: Any) -> str:
    """A refused value as an error quotes it: its repr, cut to ``SHOWN`` characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def finite(value: Any) -> bool:
    """Whether a JSON value is a finite number (an integer too big for a float, say 401 digits, is none)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def whole(value: Any, key: str) -> int:
    """A whole number (not a bool)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"'{key}' must be a whole number, got {shown(value)}")
    return value


def number(value: Any, key: str) -> float:
    """A finite number."""
    if not finite(value):
        raise MalformedAction(f"'{key}' must be a number, got {shown(value)}")
    return float(value)


def flag(value: Any, key: str) -> bool:
    """True or false."""
    if not isinstance(value, bool):
        raise MalformedAction(f"'{key}' must be true or false, got {shown(value)}")
    return value


def point(value: Any, key: str) -> tuple[float, float]:
    """A point ``[x, y]`` in inches."""
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(finite(v) for v in value):
        raise MalformedAction(f"'{key}' must be a point [x, y] in inches, got {shown(value)}")
    return (float(value[0]), float(value[1]))


def points(value: Any, key: str, least: int, most: int) -> tuple[tuple[float, float], ...]:
    """A list of ``least`` to ``most`` points ``[x, y]``."""
    if not isinstance(value, list | tuple) or not least <= len(value) <= most:
        said = f"a list of {least} to {most} points [x, y]"
        raise MalformedAction(f"'{key}' must be {said}, got {shown(value)}")
    return tuple(point(v, f"{key}.{i}") for i, v in enumerate(value))


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


class ActionCodec:
    """One game's actions to and from JSON (see the module's description)."""

    def __init__(
        self,
        game: str,
        types: Mapping[str, type[Any]],
        parsers: Mapping[str, Parser],
        write: Callable[[Any], Any] = _plain,
    ) -> None:
        self.game = game
        self.types = dict(types)
        self.names = {cls: name for name, cls in self.types.items()}
        self.parsers = dict(parsers)
        self.write = write
        self.optional = {
            cls: {f.name for f in fields(cls) if f.default is not MISSING or f.default_factory is not MISSING}
            for cls in self.types.values()
        }
        unparsed = {f.name for cls in self.types.values() for f in fields(cls)} - set(self.parsers)
        if unparsed:  # a programming error of the game, caught when its module is imported
            raise ValueError(f"{game}: no parser for the action field(s) {', '.join(sorted(unparsed))}")

    def to_json(self, action: Any) -> JSON:
        """An action as JSON (a field with a default left out while it is unset: None or empty)."""
        name = self.names.get(type(action))
        if name is None:
            raise MalformedAction(f"not a {self.game} action: {shown(action)}")
        out: JSON = {"type": name}
        optional = self.optional[type(action)]
        for f in fields(action):
            value = getattr(action, f.name)
            if f.name in optional and value in (None, ()):
                continue
            out[f.name] = self.write(value)
        return out

    def from_json(self, data: Any) -> Any:
        """An action from JSON, refusing anything malformed with the reason."""
        if not isinstance(data, dict):
            raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
        kinds = ", ".join(sorted(self.types))
        kind = data.get("type")
        if kind is None:
            raise MalformedAction(f"the action names no 'type'; expected one of {kinds}")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedAction(f"unknown action type {shown(kind)}; expected one of {kinds}")
        names = [f.name for f in fields(cls)]
        extra = set(data) - set(names) - {"type"}
        if extra:
            keys = ", ".join(sorted(map(str, extra)))
            raise MalformedAction(f"unexpected key(s) {keys} in a '{kind}' action")
        args: dict[str, Any] = {}
        optional = self.optional[cls]
        for n in names:
            if n not in data or (data[n] is None and n in optional):
                if n in optional:
                    continue
                raise MalformedAction(f"a '{kind}' action needs '{n}'")
            args[n] = self.parsers[n](data[n], n)
        return cls(**args)
