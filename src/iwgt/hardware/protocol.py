"""The physical table's MQTT protocol, version 1: topics, message models, encoding and refusals.

Every payload is a UTF-8 JSON object with ``"v": 1``. Each table (a *device*) has its own topics under
``iwgt/v1/tables/<device>/``; the referee announces itself on ``iwgt/v1/referee/status``. The models here are
the whole vocabulary (docs/hardware.md describes each message, its QoS and whether it is retained):

- table -> referee: ``status`` (``Birth``, retained; its last will is ``Offline``), ``sensor``
  (``SensorEvent``), ``snapshot`` (``Snapshot``), ``ack`` (``Ack``);
- referee -> table: ``frame`` (``Frame``, retained), ``cmd`` (``Command``), ``error`` (``Refusal``);
- the referee's own ``RefereeStatus``.

``decode`` is the one way in: it refuses a payload that is too large, not JSON, not an object, of another
version, or with a bad field, with a ``ProtocolError`` whose message says what was refused and where
("sensor on iwgt/v1/tables/t1/sensor: seq: must be at least 1"). ``encode`` is the one way out (compact JSON;
optional fields that are null are left out).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar, get_args

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from iwgt.core.lights import PATTERNS

PROTOCOL_VERSION: Final = 1
"""The protocol's version: the ``v`` of every payload and the ``v1`` of every topic."""

PREFIX: Final = "iwgt/v1/tables"
"""Every table's topics live under ``PREFIX/<device>/``."""

REFEREE_STATUS: Final = "iwgt/v1/referee/status"
"""The referee's retained status topic (its last will says it is offline)."""

MAX_PAYLOAD: Final = 256 * 1024
"""The largest payload accepted, in bytes (a whole frame of a 600-cell table is well under it)."""

MAX_COORDINATE: Final = 1023
"""The largest column or row of a table cell (a table has at most 1,024 columns and 1,024 rows)."""

MAX_COUNTER: Final = 2**31 - 1
"""The largest ``session`` and ``seq``: firmware keeps them in 32-bit signed integers. A controller whose
``seq`` would pass it starts a new session (seq 1 again); a session counter that wraps back to 1 is a table
whose flash lost its counter, which the referee follows afresh."""

TableCell = tuple[int, int]
"""A cell of the physical table: odd-r offset [column, row], JSON ``[c, r]``."""

Leaf = Literal["status", "sensor", "snapshot", "ack", "frame", "cmd", "error"]
"""The last part of a table's topic."""

LEAVES: Final[tuple[str, ...]] = get_args(Leaf)
"""Every leaf of a table's topics."""

TABLE_LEAVES: Final = ("status", "sensor", "snapshot", "ack")
"""The leaves a table publishes (the ``table`` user may publish these and nothing else)."""

REFEREE_LEAVES: Final = ("frame", "cmd", "error")
"""The leaves the referee publishes to a table (the ``table`` user may subscribe to these)."""

QOS: Final = {"status": 1, "sensor": 1, "snapshot": 1, "ack": 1, "frame": 1, "cmd": 1, "error": 0}
"""The QoS each leaf is published with (the referee status: 1)."""

RETAIN: Final = {"status": True, "frame": True}
"""The leaves published retained (the referee status is retained too); every other leaf is not."""

ErrorCode = Literal["malformed", "version", "invalid", "unknown"]
"""Why a message was refused: not a JSON object of at most MAX_PAYLOAD bytes; another protocol version; a
bad field; a topic nobody listens to."""

Pattern = Literal["steady", "flash", "alternate", "wave", "flicker", "pulse"]
"""A light's pattern: the same list as ``iwgt.core.lights.PATTERNS`` (checked below, so they cannot drift)."""

if get_args(Pattern) != PATTERNS:  # pragma: no cover - a guard for whoever adds a pattern to core.lights
    raise RuntimeError(f"protocol.Pattern {get_args(Pattern)} differs from core.lights.PATTERNS {PATTERNS}")

_DEVICE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")
_EFFECT = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_TOKEN = re.compile(r"^[\x21-\x7e]{1,64}$")  # printable ASCII without spaces: ids, tags, firmware


def _short(value: Any) -> str:
    """A value for an error message, cut short so a refusal never echoes a large payload back."""
    try:
        text = orjson.dumps(value).decode()  # as the sender wrote it: JSON, not Python
    except TypeError:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_device(value: str) -> str:
    if not _DEVICE.match(value):
        raise PydanticCustomError(
            "device",
            "must be a device id: 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit, got {got}",
            {"got": _short(value)},
        )
    return value


def _check_colour(value: str) -> str:
    if not _COLOUR.match(value):
        raise PydanticCustomError(
            "colour", "must be a colour #rrggbb in lower case, got {got}", {"got": _short(value)}
        )
    return value


def _check_effect(value: str) -> str:
    if not _EFFECT.match(value):
        raise PydanticCustomError(
            "effect", "must be an effect name: a-z, 0-9 and _, at most 40, got {got}", {"got": _short(value)}
        )
    return value


def _check_token(value: str) -> str:
    if not _TOKEN.match(value):
        raise PydanticCustomError(
            "token", "must be 1 to 64 printable characters without spaces, got {got}", {"got": _short(value)}
        )
    return value


def _check_cell(value: Any) -> TableCell:
    # A before-validator so every bad cell gets the same sentence, whatever is wrong with it.
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(type(x) is int and 0 <= x <= MAX_COORDINATE for x in value)
    ):
        return (value[0], value[1])
    raise PydanticCustomError(
        "cell",
        "must be a cell [column, row]: two integers from 0 to {top}, got {got}",
        {"top": MAX_COORDINATE, "got": _short(value)},
    )


# The checked field types (the layout's model uses some of them too).
Cell = Annotated[TableCell, BeforeValidator(_check_cell)]
"""A TableCell field: [column, row], two integers 0..MAX_COORDINATE."""
Device = Annotated[str, AfterValidator(_check_device)]
"""A device id field: ^[a-z0-9][a-z0-9_-]{0,31}$."""
Colour = Annotated[str, AfterValidator(_check_colour)]
"""A colour field: #rrggbb in lower case."""
Effect = Annotated[str, AfterValidator(_check_effect)]
"""An effect name field: a-z, 0-9 and _, at most 40 characters."""
Token = Annotated[str, AfterValidator(_check_token)]
"""An id field (command, referee, request, tag, firmware): 1 to 64 printable ASCII characters, no space."""
Session = Annotated[int, Field(ge=1, le=MAX_COUNTER)]
"""A session counter: 1 to MAX_COUNTER (2**31 - 1)."""
Seq = Annotated[int, Field(ge=1, le=MAX_COUNTER)]
"""A sensor event's number within its session: 1 to MAX_COUNTER."""
SeqSeen = Annotated[int, Field(ge=0, le=MAX_COUNTER)]
"""The last sensor event a snapshot includes: 0 (none yet) to MAX_COUNTER."""
Count = Annotated[int, Field(ge=1, le=MAX_COORDINATE + 1)]
"""A number of columns or rows: 1 to 1,024."""
Led = Annotated[int, Field(ge=0)]
"""A global LED index: at least 0."""


class Message(BaseModel):
    """The base of every protocol model: frozen, no field beyond the spec's."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    KIND: ClassVar[str] = "message"
    """What a refusal calls this message ("sensor on <topic>: ...")."""


class LayoutCell(Message):
    """One cell of a table and the global indices of the LEDs under it."""

    KIND: ClassVar[str] = "layout cell"
    cell: Cell
    leds: tuple[Led, ...]


class Birth(Message):
    """A table announcing itself (retained on ``status``): what it is and every cell with its LEDs."""

    KIND: ClassVar[str] = "birth"
    v: Literal[1] = 1
    device: Device
    online: Literal[True] = True
    firmware: Token
    session: Session
    sensor: Literal["presence", "identity"]
    columns: Count
    rows: Count
    cell_inches: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)]
    cells: tuple[LayoutCell, ...]

    @model_validator(mode="after")
    def _cells_fit(self) -> Birth:
        if not self.cells:
            raise ValueError("cells: a table has at least one cell")
        seen: set[TableCell] = set()
        leds: set[int] = set()
        for i, layout_cell in enumerate(self.cells):
            c, r = layout_cell.cell
            if c >= self.columns or r >= self.rows:
                raise ValueError(f"cells.{i}.cell: {[c, r]} is off the {self.columns} x {self.rows} grid")
            if layout_cell.cell in seen:
                raise ValueError(f"cells.{i}.cell: {[c, r]} is listed twice")
            seen.add(layout_cell.cell)
            shared = leds.intersection(layout_cell.leds)
            if shared or len(set(layout_cell.leds)) != len(layout_cell.leds):
                led = min(shared) if shared else layout_cell.leds[0]
                raise ValueError(f"cells.{i}.leds: LED {led} is on two cells (or twice on one)")
            leds.update(layout_cell.leds)
        return self


class Offline(Message):
    """A table gone: its last will on ``status`` (retained), published by the broker when it drops."""

    KIND: ClassVar[str] = "offline"
    v: Literal[1] = 1
    device: Device
    online: Literal[False] = False
    session: Session


class SensorEvent(Message):
    """A piece lifted off or placed on a cell; ``seq`` counts from 1 within a session."""

    KIND: ClassVar[str] = "sensor"
    v: Literal[1] = 1
    session: Session
    seq: Seq
    cell: Cell
    event: Literal["lifted", "placed"]
    tag: Token | None = None
    at_ms: Annotated[int, Field(ge=0)] | None = None


class Occupied(Message):
    """A cell that holds a piece, in a snapshot (with its tag where the sensors read identity)."""

    KIND: ClassVar[str] = "occupied cell"
    cell: Cell
    tag: Token | None = None


class Snapshot(Message):
    """Every occupied cell of a table, after sensor event ``seq`` of ``session`` (0: before any)."""

    KIND: ClassVar[str] = "snapshot"
    v: Literal[1] = 1
    session: Session
    seq: SeqSeen
    request: Token | None = None
    occupied: tuple[Occupied, ...]

    @model_validator(mode="after")
    def _distinct(self) -> Snapshot:
        seen: set[TableCell] = set()
        for i, occupied in enumerate(self.occupied):
            if occupied.cell in seen:
                raise ValueError(f"occupied.{i}.cell: {list(occupied.cell)} is listed twice")
            seen.add(occupied.cell)
        return self


class FrameLight(Message):
    """One light of a frame: a table cell, the effect, its colour, pattern and timing."""

    KIND: ClassVar[str] = "light"
    cell: Cell
    effect: Effect
    colour: Colour
    pattern: Pattern
    delay_ms: Annotated[int, Field(ge=0)] = 0
    duration_ms: Annotated[int, Field(ge=1)] | None = None


class Frame(Message):
    """A whole lighting frame (retained on ``frame``): its lights from the least to the most urgent."""

    KIND: ClassVar[str] = "frame"
    v: Literal[1] = 1
    referee: Token
    frame: Annotated[int, Field(ge=1)]
    lights: tuple[FrameLight, ...]


class Command(Message):
    """A command to a table: ``snapshot`` (send a Snapshot) or ``identify`` (blink a cell white)."""

    KIND: ClassVar[str] = "command"
    v: Literal[1] = 1
    id: Token
    cmd: Literal["snapshot", "identify"]
    cell: Cell | None = None
    ms: Annotated[int, Field(ge=100, le=60_000)] = 3000

    @model_validator(mode="after")
    def _cell_for_identify(self) -> Command:
        if self.cmd == "identify" and self.cell is None:
            raise ValueError("cell: identify needs the cell to blink")
        if self.cmd == "snapshot" and self.cell is not None:
            raise ValueError("cell: only identify takes a cell")
        return self


class Ack(Message):
    """A table's answer to a command: ok, or not and why."""

    KIND: ClassVar[str] = "ack"
    v: Literal[1] = 1
    id: Token
    ok: bool
    error: Annotated[str, Field(min_length=1, max_length=2000)] | None = None

    @model_validator(mode="after")
    def _error_iff_not_ok(self) -> Ack:
        if not self.ok and self.error is None:
            raise ValueError("error: a refused command (ok false) says why")
        if self.ok and self.error is not None:
            raise ValueError("error: only a refused command (ok false) has an error")
        return self


class Refusal(Message):
    """The referee's answer (on ``error``) to a refused message: the code, why, and the topic it came on."""

    KIND: ClassVar[str] = "refusal"
    v: Literal[1] = 1
    error: ErrorCode
    message: Annotated[str, Field(min_length=1, max_length=2000)]
    topic: Annotated[str, Field(max_length=500)]


class RefereeStatus(Message):
    """The referee's presence (retained on REFEREE_STATUS; its last will says ``online: false``)."""

    KIND: ClassVar[str] = "referee status"
    v: Literal[1] = 1
    online: bool
    referee: Token


M = TypeVar("M", bound=Message)
"""Any protocol message class (what ``decode`` returns)."""


class ProtocolError(ValueError):
    """A refused message: ``code`` (an ErrorCode), a message that says what and where, and the topic."""

    def __init__(self, code: ErrorCode, message: str, topic: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.topic = topic

    def refusal(self) -> Refusal:
        """The Refusal that answers this error on the device's ``error`` topic."""
        return Refusal(error=self.code, message=self.message[:2000], topic=self.topic[:500])


def is_device(device: str) -> bool:
    """Whether a string is a valid device id."""
    return bool(_DEVICE.match(device))


def topic(device: str, leaf: str) -> str:
    """The topic of a device's leaf; a bad device id or an unknown leaf raises ValueError."""
    if not is_device(device):
        raise ValueError(
            f"bad device id {device!r}: 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit"
        )
    if leaf not in LEAVES:
        raise ValueError(f"unknown leaf {leaf!r}: expected one of {', '.join(LEAVES)}")
    return f"{PREFIX}/{device}/{leaf}"


def check_topic(name: str) -> tuple[str, str]:
    """The (device, leaf) of a table topic, or a ProtocolError ("unknown") that says what is wrong."""
    parts = name.split("/")
    if len(parts) != 5 or "/".join(parts[:3]) != PREFIX:
        raise ProtocolError("unknown", f"unknown topic {name}: expected {PREFIX}/<device>/<leaf>", name)
    device, leaf = parts[3], parts[4]
    if not is_device(device):
        raise ProtocolError("unknown", f"unknown topic {name}: {device!r} is not a device id", name)
    if leaf not in LEAVES:
        raise ProtocolError(
            "unknown", f"unknown topic {name}: leaf {leaf!r} is not one of {', '.join(LEAVES)}", name
        )
    return device, leaf


def parse_topic(name: str) -> tuple[str, str] | None:
    """The (device, leaf) of a table topic, or None for any other topic (check_topic says why)."""
    try:
        return check_topic(name)
    except ProtocolError:
        return None


def encode(model: Message) -> bytes:
    """A message as compact JSON bytes (optional fields that are null are left out)."""
    data = orjson.dumps(model.model_dump(mode="json", exclude_none=True))
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"{model.KIND} of {len(data)} bytes is over the protocol's {MAX_PAYLOAD} bytes")
    return data


_MESSAGES: Final = {
    "missing": "missing",
    "extra_forbidden": "unknown field",
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be a string",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "tuple_type": "must be a list",
    "list_type": "must be a list",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "dict_type": "must be an object",
    "finite_number": "must be a finite number",
}


def _number(bound: Any) -> str:
    """A bound as a person writes it: 0, not 0.0."""
    return str(int(bound)) if isinstance(bound, float) and bound.is_integer() else str(bound)


def _sentence(error: Any) -> str:
    """One pydantic error as "where: what" in the protocol's words."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "greater_than_equal":
        what = f"must be at least {_number(ctx['ge'])}"
    elif kind == "greater_than":
        what = f"must be more than {_number(ctx['gt'])}"
    elif kind == "less_than_equal":
        what = f"must be at most {_number(ctx['le'])}"
        if ctx["le"] == MAX_COUNTER:
            what += " (2**31 - 1: firmware keeps it in a 32-bit signed integer)"
    elif kind in ("too_short", "string_too_short"):
        what = "must not be empty" if ctx.get("min_length", 1) == 1 else f"needs {ctx['min_length']} at least"
    elif kind in ("too_long", "string_too_long"):
        unit = "characters" if kind.startswith("string") else "items"
        what = f"must have at most {ctx.get('max_length')} {unit}"
    elif kind == "literal_error":
        what = f"must be {ctx['expected']}, got {_short(error.get('input'))}"
    elif kind == "value_error":
        # Our own model checks: the sentence already starts with the dotted place.
        return str(error["msg"]).removeprefix("Value error, ")
    elif kind in _MESSAGES:
        what = _MESSAGES[kind]
    else:
        what = str(error["msg"])[:1].lower() + str(error["msg"])[1:]
    where = ".".join(str(part) for part in error["loc"] if not str(part).startswith("function-"))
    return f"{where}: {what}" if where else what


def _describe(errors: list[Any], limit: int = 5) -> str:
    sentences = [_sentence(error) for error in errors[:limit]]
    more = f" (and {len(errors) - limit} more)" if len(errors) > limit else ""
    return "; ".join(sentences) + more


def _envelope(kind: str, payload: bytes, name: str) -> dict[str, Any]:
    """The payload as a JSON object of this version, or the ProtocolError that refuses it."""
    where = f"{kind} on {name}"
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(
            "malformed", f"{where}: too large: {len(payload)} bytes, at most {MAX_PAYLOAD}", name
        )
    try:
        data = orjson.loads(payload)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError("malformed", f"{where}: not JSON: {exc}", name) from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"{where}: not a JSON object but {type(data).__name__}", name)
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:
        got = "missing" if "v" not in data else f"got {_short(version)}"
        raise ProtocolError(
            "version", f"{where}: v: this is protocol version {PROTOCOL_VERSION}, {got}", name
        )
    return data


def _device_matches(model: Message, kind: str, name: str) -> None:
    device = getattr(model, "device", None)
    parsed = parse_topic(name)
    if device is not None and parsed is not None and parsed[0] != device:
        raise ProtocolError(
            "invalid", f"{kind} on {name}: device: {device!r} is not the topic's device {parsed[0]!r}", name
        )


def decode(model_cls: type[M], payload: bytes, topic: str) -> M:
    """A payload received on ``topic`` as ``model_cls``, or a ProtocolError saying what is wrong and where."""
    _envelope(model_cls.KIND, payload, topic)
    try:
        # Strict JSON validation: "1" is no integer, true is no 1; arrays stand for tuples.
        model = model_cls.model_validate_json(payload, strict=True)
    except ValidationError as exc:
        raise ProtocolError(
            "invalid", f"{model_cls.KIND} on {topic}: {_describe(exc.errors())}", topic
        ) from None
    _device_matches(model, model_cls.KIND, topic)
    return model


def decode_status(payload: bytes, topic: str) -> Birth | Offline:
    """A table's ``status`` payload: a Birth when ``online`` is true, else its Offline will."""
    data = _envelope("status", payload, topic)
    if data.get("online") is False:
        return decode(Offline, payload, topic)
    return decode(Birth, payload, topic)
