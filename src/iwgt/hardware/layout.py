"""A physical table's layout: its hex cells, the LEDs under each, the LED controllers, gamma and brightness.

A layout is a TOML file (``data/table-30x20.toml`` is one)::

    name = "A 30 x 20 hex table"
    columns = 30
    rows = 20
    cell_inches = 2.0        # a cell's width across flats, in inches
    leds_per_cell = 3        # cell (c, r): LEDs (r * columns + c) * leds_per_cell + k, unless [[cells]] says
    wiring = "rows"          # or "serpentine": odd rows' LEDs run right to left (a zig-zag strip)
    gamma = 2.2
    brightness = 0.6         # 0..1, applied after gamma
    sensor = "presence"      # or "identity"
    [[controllers]]          # in LED order: each takes the next `leds` LEDs of the global strip
    name = "controller-1"
    protocol = "ddp"         # or "dnrgb" (WLED realtime UDP)
    host = "127.0.0.1"
    port = 4048              # ddp 4048, dnrgb 21324 when left out
    leds = 900
    timeout_s = 2            # dnrgb only: WLED's fall-back timeout (1..254 s); refused on a ddp controller
    [[cells]]                # optional exceptions to the default numbering
    cell = [3, 4]
    leds = [12, 13]

The cells are pointy-top hexagons in odd-r offset [column, row], exactly as the touchscreen's board
(``web/board.js``) draws them: odd rows are shoved half a cell to the right and row 0 is the row the screen
draws at the top, the table's far edge. The table's inches have their origin at the bottom-left corner of the
cells' bounding box, y up (like the free tables' inches), so row 0 has the largest y.

**Wiring.** ``wiring = "rows"`` (the default): every row's LEDs run left to right, row 0 first, so cell
(c, r) has LEDs ``(r * columns + c) * leds_per_cell + k``. ``wiring = "serpentine"``: a zig-zag strip, laid
along row 0 left to right, then back along row 1 right to left, and so on: on an odd row the column counts
from the right, ``(r * columns + (columns - 1 - c)) * leds_per_cell + k``. A cell's own LEDs are listed
lowest first either way (they all show the cell's colour). ``[[cells]]`` exceptions override either.

**Timeouts.** ``timeout_s`` is WLED's realtime timeout byte of a DNRGB packet; DDP has no such field (a
WLED controller fed DDP falls back after its own realtime timeout setting), so a ``ddp`` controller that
names one is refused, and ``make_layout`` writes it for ``dnrgb`` controllers only.

``load_layout`` refuses a bad file with a ``LayoutError`` naming the file and the dotted key
("table.toml: controllers.1.leds: ...").
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from iwgt.hardware.protocol import Birth, Count, LayoutCell, Led, TableCell
from iwgt.hardware.protocol import Cell as CellField

__all__ = [
    "DEFAULT_PORTS",
    "CellLeds",
    "Controller",
    "Layout",
    "LayoutError",
    "Slice",
    "load_layout",
    "make_layout",
    "parse_controller",
    "parse_layout",
]

SQRT3: Final = math.sqrt(3.0)

DEFAULT_PORTS: Final[Mapping[str, int]] = {"ddp": 4048, "dnrgb": 21324}
"""Each LED protocol's usual UDP port: DDP's 4048, WLED's realtime UDP 21324."""

Protocol = Literal["ddp", "dnrgb"]
Sensor = Literal["presence", "identity"]
Wiring = Literal["rows", "serpentine"]
"""The default LED order: every row left to right, or a zig-zag strip (odd rows right to left)."""


class LayoutError(ValueError):
    """A layout refused: says which file (or birth) and which dotted key, and what is wrong there."""

    def __init__(self, source: str, problems: Sequence[tuple[str, str]]) -> None:
        self.source = source
        self.problems = tuple(problems)
        text = "; ".join(f"{key}: {message}" if key else message for key, message in self.problems)
        super().__init__(f"{source}: {text}")


class _KeyedError(ValueError):
    """A whole-layout check that failed at one dotted key (turned into a LayoutError's key)."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.message = message
        super().__init__(f"{key}: {message}")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Controller(_Model):
    """One LED controller: it drives the next ``leds`` LEDs of the table's global strip."""

    name: Annotated[str, Field(min_length=1, max_length=64)]
    protocol: Protocol
    host: Annotated[str, Field(min_length=1, max_length=253)]
    port: Annotated[int, Field(ge=1, le=65535)]
    leds: Annotated[int, Field(ge=1, le=1_000_000)]
    timeout_s: Annotated[int, Field(ge=1, le=254)] = 2
    """DNRGB only (WLED's realtime timeout byte): a ddp controller must leave it out (refused)."""

    @model_validator(mode="before")
    @classmethod
    def _default_port(cls, data: Any) -> Any:
        # The port may be left out: each protocol's usual one.
        if isinstance(data, dict) and "port" not in data and data.get("protocol") in DEFAULT_PORTS:
            return {**data, "port": DEFAULT_PORTS[data["protocol"]]}
        return data


class CellLeds(_Model):
    """An exception to the default numbering: this cell's LEDs (global indices; may be none)."""

    cell: CellField
    leds: tuple[Led, ...]


@dataclass(frozen=True, slots=True)
class Slice:
    """The LEDs ``start`` (inclusive) to ``stop`` (exclusive) of the global strip, sent to one controller."""

    controller: Controller
    start: int
    stop: int


class Layout(_Model):
    """A table's layout (frozen, validated): the hex grid, each cell's LEDs and the controllers."""

    name: Annotated[str, Field(min_length=1, max_length=200)] = "A hex table"
    columns: Count
    rows: Count
    cell_inches: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = 2.0
    leds_per_cell: Annotated[int, Field(ge=0, le=64)] = 1
    gamma: Annotated[float, Field(ge=1.0, le=4.0, allow_inf_nan=False)] = 2.2
    brightness: Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)] = 0.6
    sensor: Sensor = "presence"
    wiring: Wiring = "rows"
    controllers: tuple[Controller, ...] = ()
    exceptions: tuple[CellLeds, ...] = Field(default=(), alias="cells")

    _cells: dict[TableCell, tuple[int, ...]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Layout:
        listed: dict[TableCell, int] = {}
        for i, exception in enumerate(self.exceptions):
            c, r = exception.cell
            if c >= self.columns or r >= self.rows:
                raise _KeyedError(f"cells.{i}.cell", f"{[c, r]} is off the {self.columns} x {self.rows} grid")
            if exception.cell in listed:
                raise _KeyedError(
                    f"cells.{i}.cell", f"{[c, r]} is listed twice (cells.{listed[exception.cell]})"
                )
            listed[exception.cell] = i
        seen_at: dict[tuple[str, int], int] = {}
        for i, controller in enumerate(self.controllers):
            if controller.protocol == "ddp" and "timeout_s" in controller.model_fields_set:
                # A key that would do nothing: the builder may believe DDP has a timeout. It has none.
                raise _KeyedError(
                    f"controllers.{i}.timeout_s",
                    "a ddp controller takes no timeout_s (DDP has no timeout field; WLED falls back after its"
                    " own realtime timeout setting): leave it out, or use protocol dnrgb",
                )
            where = (controller.host.lower(), controller.port)
            if where in seen_at:
                raise _KeyedError(
                    f"controllers.{i}.port",
                    f"{controller.host}:{controller.port} is already controllers.{seen_at[where]}'s address",
                )
            seen_at[where] = i
        cells: dict[TableCell, tuple[int, ...]] = {}
        owner: dict[int, TableCell] = {}
        for cell in self._grid():
            index = listed.get(cell)
            if index is None:
                leds = _default_leds(cell, self.columns, self.leds_per_cell, self.wiring)
            else:
                leds = self.exceptions[index].leds
            for led in leds:
                if led in owner:
                    # Name the [[cells]] entry that caused it: default cells never overlap each other.
                    key = f"cells.{index}.leds" if index is not None else f"cells.{listed[owner[led]]}.leds"
                    raise _KeyedError(key, f"LED {led} is on two cells: {list(owner[led])} and {list(cell)}")
                owner[led] = cell
            cells[cell] = leds
        total = sum(c.leds for c in self.controllers)
        if self.controllers and owner and max(owner) >= total:
            top = max(owner)
            index = listed.get(owner[top])
            key = f"cells.{index}.leds" if index is not None else "controllers"
            raise _KeyedError(
                key,
                f"the cells use LED {top} (cell {list(owner[top])}) but the controllers drive only {total}"
                f" LEDs (0..{total - 1})",
            )
        self._cells = cells
        return self

    def _grid(self) -> Iterator[TableCell]:
        for r in range(self.rows):
            for c in range(self.columns):
                yield (c, r)

    def cells(self) -> dict[TableCell, tuple[int, ...]]:
        """Every cell of the table (row by row, far edge first) and the global indices of its LEDs."""
        return dict(self._cells)

    def leds_of(self, cell: TableCell) -> tuple[int, ...]:
        """The LEDs under one cell (none for a cell off the table)."""
        return self._cells.get(cell, ())

    @property
    def led_count(self) -> int:
        """The LEDs of the global strip: the controllers' total, or up to the highest LED if none is named."""
        used = max((max(leds) + 1 for leds in self._cells.values() if leds), default=0)
        return max(sum(c.leds for c in self.controllers), used)

    def slices(self) -> list[Slice]:
        """Each controller's part of the global strip, in order."""
        out: list[Slice] = []
        start = 0
        for controller in self.controllers:
            out.append(Slice(controller, start, start + controller.leds))
            start += controller.leds
        return out

    @property
    def size(self) -> float:
        """A cell's centre-to-corner distance in inches (half its corner-to-corner height)."""
        return self.cell_inches / SQRT3

    @property
    def extent(self) -> tuple[float, float]:
        """The cells' bounding box, (width, height) in inches."""
        across = self.columns + (0.5 if self.rows > 1 else 0.0)  # odd rows stick out half a cell
        return (across * self.cell_inches, self.size * (1.5 * self.rows + 0.5))

    @property
    def covered(self) -> tuple[float, float, float, float]:
        """The largest centred rectangle every point of which lies over a cell: (x0, y0, x1, y1) inches.

        The bounding box's edges have gaps (the half cell beside each odd or even row, the notches between the
        pointy tops of the first and last rows); an inch board is fitted into this rectangle instead, so every
        spot of it lies over a cell."""
        width, height = self.extent
        inset_x = self.cell_inches / 2 if self.rows > 1 else 0.0  # one row has no odd row sticking out
        inset_y = self.size / 2  # the pointy tops of the first and last rows
        return (inset_x, inset_y, width - inset_x, height - inset_y)

    def centre(self, cell: TableCell) -> tuple[float, float]:
        """A cell's centre in the table's inches (origin bottom-left, y up; row 0 at the top, on screen)."""
        c, r = cell
        x = self.cell_inches * (c + 0.5 + 0.5 * (r & 1))
        y = self.extent[1] - self.size * (1.0 + 1.5 * r)
        return (x, y)

    def to_birth(self, device: str, session: int, firmware: str) -> Birth:
        """The birth message a table with this layout publishes (every cell with its LEDs)."""
        return Birth(
            device=device,
            session=session,
            firmware=firmware,
            sensor=self.sensor,
            columns=self.columns,
            rows=self.rows,
            cell_inches=self.cell_inches,
            cells=tuple(LayoutCell(cell=cell, leds=leds) for cell, leds in self._cells.items()),
        )

    @classmethod
    def from_birth(cls, birth: Birth) -> Layout:
        """The layout a birth describes: its grid, cells and LEDs (no controllers: the LED driver's file).

        A birth must list every cell of its columns x rows grid (LayoutError otherwise)."""
        given = {lc.cell: lc.leds for lc in birth.cells}
        source = f"birth of {birth.device}"
        missing = [[c, r] for r in range(birth.rows) for c in range(birth.columns) if (c, r) not in given]
        if missing:
            shown = ", ".join(str(m) for m in missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise LayoutError(source, [("cells", f"{len(missing)} cells of the grid are missing: {shown}")])
        # The most common LED count is the default numbering's; every cell that differs is an exception.
        counts: dict[int, int] = {}
        for leds in given.values():
            counts[len(leds)] = counts.get(len(leds), 0) + 1
        per_cell = max(sorted(counts), key=lambda n: counts[n])
        # A birth does not say its wiring: the one that leaves the fewest exceptions (rows on a tie).
        ordered = sorted(given.items(), key=lambda item: (item[0][1], item[0][0]))
        wirings: tuple[Wiring, ...] = ("rows", "serpentine")
        found = {
            way: [
                CellLeds(cell=cell, leds=leds)
                for cell, leds in ordered
                if leds != _default_leds(cell, birth.columns, per_cell, way)
            ]
            for way in wirings
        }
        wiring: Wiring = "serpentine" if len(found["serpentine"]) < len(found["rows"]) else "rows"
        data = {
            "name": birth.device,
            "columns": birth.columns,
            "rows": birth.rows,
            "cell_inches": birth.cell_inches,
            "leds_per_cell": per_cell,
            "sensor": birth.sensor,
            "wiring": wiring,
            "cells": found[wiring],
        }
        return _validated(data, source)


def _default_leds(cell: TableCell, columns: int, per_cell: int, wiring: Wiring) -> tuple[int, ...]:
    """A cell's LEDs by the default numbering of a wiring (lowest first)."""
    c, r = cell
    along = columns - 1 - c if wiring == "serpentine" and r % 2 == 1 else c
    base = (r * columns + along) * per_cell
    return tuple(range(base, base + per_cell))


def _key(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _validated(data: Any, source: str, *, need_controllers: bool = False) -> Layout:
    """A Layout from plain data, or a LayoutError naming ``source`` and every bad key."""
    try:
        layout = Layout.model_validate(data)
    except ValidationError as err:
        problems: list[tuple[str, str]] = []
        for e in err.errors(include_url=False):
            cause = (e.get("ctx") or {}).get("error")
            if isinstance(cause, _KeyedError):
                problems.append((cause.key, cause.message))
            else:
                problems.append((_key(e["loc"]), e["msg"]))
        raise LayoutError(source, problems) from None
    if need_controllers and not layout.controllers:
        raise LayoutError(source, [("controllers", "a layout needs at least one [[controllers]] entry")])
    return layout


def parse_layout(text: str, source: str = "layout") -> Layout:
    """A layout from TOML text; ``source`` names it in errors (a file name)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise LayoutError(source, [("", f"not valid TOML: {err}")]) from None
    return _validated(data, source, need_controllers=True)


def load_layout(path: str | Path) -> Layout:
    """Read and check a layout TOML file (LayoutError names the file and the dotted key)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LayoutError(str(path), [("", f"cannot read it: {err}")]) from None
    return parse_layout(text, str(path))


def parse_controller(text: str) -> tuple[Protocol, str, int, int | None]:
    """``protocol:host:port[:leds]`` (``ddp:127.0.0.1:4048:900``; an IPv6 host in brackets) as its parts."""
    protocol, sep, rest = text.partition(":")
    if not sep or protocol not in DEFAULT_PORTS:
        raise ValueError(f"controller {text!r}: must start with ddp: or dnrgb:")
    if rest.startswith("["):
        host, bracket, rest = rest[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"controller {text!r}: an IPv6 host is written [::1]")
        parts = rest[1:].split(":") if rest else []
    else:
        host, *parts = rest.split(":")
    if not host or len(parts) > 2:
        raise ValueError(f"controller {text!r}: expected protocol:host:port[:leds]")
    try:
        port = int(parts[0]) if parts and parts[0] else DEFAULT_PORTS[protocol]
        leds = int(parts[1]) if len(parts) > 1 and parts[1] else None
    except ValueError:
        raise ValueError(f"controller {text!r}: port and leds must be whole numbers") from None
    return ("ddp" if protocol == "ddp" else "dnrgb", host, port, leds)


def make_layout(
    columns: int,
    rows: int,
    leds_per_cell: int,
    controllers: Sequence[str | Controller],
    *,
    name: str | None = None,
    cell_inches: float = 2.0,
    gamma: float = 2.2,
    brightness: float = 0.6,
    sensor: Sensor = "presence",
    timeout_s: int = 2,
    wiring: Wiring = "rows",
) -> str:
    """A layout's TOML text, checked by loading it back (LayoutError if it would be refused).

    A controller is a ``Controller`` or ``protocol:host:port[:leds]``; the last one may leave out its LEDs: it
    takes every LED the others leave (columns x rows x leds_per_cell in all). ``timeout_s`` is written for the
    dnrgb controllers only (DDP has none); ``wiring`` is "rows" or "serpentine"."""
    if wiring not in ("rows", "serpentine"):
        raise ValueError(f"wiring must be rows or serpentine, got {wiring!r}")
    needed = columns * rows * leds_per_cell
    parsed: list[Controller] = []
    for i, item in enumerate(controllers):
        if isinstance(item, Controller):
            parsed.append(item)
            continue
        protocol, host, port, leds = parse_controller(item)
        if leds is None:
            if i != len(controllers) - 1:
                raise ValueError(f"controller {item!r}: only the last controller may leave out its LEDs")
            leds = max(1, needed - sum(c.leds for c in parsed))
        name_i = f"controller-{i + 1}"
        parsed.append(
            Controller(name=name_i, protocol=protocol, host=host, port=port, leds=leds, timeout_s=timeout_s)
            if protocol == "dnrgb"
            else Controller(name=name_i, protocol=protocol, host=host, port=port, leds=leds)
        )
    title = name or f"A {columns} x {rows} hex table"
    lines = [
        f"# {title}: made by `iwgt hardware layout`. Cells are odd-r [column, row] (odd rows shoved half a",
        "# cell right), row 0 at the far edge (the top of the screen); LEDs of cell (c, r) are",
        "# (r * columns + c) * leds_per_cell + k unless a [[cells]] entry says otherwise"
        + (
            " (serpentine: on an\n# odd row the column counts from the right, columns - 1 - c)."
            if wiring == "serpentine"
            else "."
        ),
        f"name = {_string(title)}",
        f"columns = {columns}",
        f"rows = {rows}",
        f"cell_inches = {_number(cell_inches)}        # a cell's width across flats, in inches",
        f"leds_per_cell = {leds_per_cell}",
        f'wiring = {_string(wiring)}          # or "serpentine": odd rows run right to left'
        if wiring == "rows"
        else f"wiring = {_string(wiring)}    # odd rows' LEDs run right to left (a zig-zag strip)",
        f"gamma = {_number(gamma)}",
        f"brightness = {_number(brightness)}         # 0..1, applied after gamma",
        f'sensor = {_string(sensor)}      # or "identity"'
        if sensor == "presence"
        else f"sensor = {_string(sensor)}",
    ]
    start = 0
    for controller in parsed:
        lines += [
            "",
            f"[[controllers]]          # LEDs {start}..{start + controller.leds - 1}",
            f"name = {_string(controller.name)}",
            f"protocol = {_string(controller.protocol)}",
            f"host = {_string(controller.host)}",
            f"port = {controller.port}",
            f"leds = {controller.leds}",
        ]
        if controller.protocol == "dnrgb":  # DDP has no timeout: the layout refuses one there
            lines.append(
                f"timeout_s = {controller.timeout_s}            # WLED's realtime timeout (1..254 s)"
            )
        start += controller.leds
    text = "\n".join(lines) + "\n"
    parse_layout(text, "the layout made")
    return text


def _string(value: str) -> str:
    # A JSON string is a TOML basic string for everything a layout holds (escapes included).
    return json.dumps(value, ensure_ascii=False)


def _number(value: float) -> str:
    return repr(float(value))
