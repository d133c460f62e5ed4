"""What a physical table lights: a game state's public lights and the bridge's overlay, as a frame's lights.

Pure: no I/O, no clock, no randomness. A frame is a function of the spectator's observation, the events
every seat may see and the overlay (the piece in the air, a refused placement, the cells where the table and
the game differ, cells to identify): never of a secret, because everyone round the table sees it. Decisions:

- **The spectator's view.** ``public_lights`` asks the game's adapter for the lights of ``observe(state,
  None)`` and of ``visible_events(events, None)``, as a spectator's screen shows them. A hidden unit has no
  cell there, so it never lights.
- **Movable** are the mover's movable units (``options``) that are public pieces (``pieces`` of the
  spectator's observation): a table lights a piece a hand may pick up, and a unit's options may hang on its
  side's secrets. A game without hidden information (``facts.hidden_information`` false) has no secret they
  could hang on, so its table lights every movable unit the spectator's observation places (an inch game's
  trays and figures, which no sensor follows); an inch game or a map with secrets lights none.
- **The piece in the air** (``Overlay.held``) adds its selection's lights: the unit blue, its destinations,
  the enemies it may strike. A unit that is no public piece (hidden since it was lifted) adds nothing.
- **Order**, least to most urgent: the game's effects in the game's order (its adapter's ``effects``, the
  shared order for an adapter that names none), a refusal at the rank of the shared ``illegal`` effect among
  them, then the hardware effects ``HARDWARE_EFFECTS`` above every game effect. A light that falls on several
  table cells (a spot, an area, a region) gives one frame light per cell; repeats are dropped.
- **A refusal** lights its table cell red (``illegal``, steady, until the bridge clears it: the piece is put
  back). The refused cell's own divergence (the piece that stands where the rules forbid) is not drawn there
  as well: the red light already says "take it back", and the table shows each cell's most urgent light.
- **Divergence**: a piece missing (``piece_missing``, sky, pulsing: "put one here") where the game wants a
  piece; a piece extra (``piece_extra``, orange, flashing: "take this off") where it wants the cell empty or
  another piece (a wrong tag). Two patterns, not only two hues, so a colour-blind player tells them apart.
- **Identify**: a cell blinks white (``identify``, flash), for installing a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from iwgt.core.lights import BASE, ORANGE, SKY, WHITE, Effects, Light
from iwgt.core.plugin import AnyGame, GamePlugin
from iwgt.core.protocol import CHANCE, JSON, Event, Seat, visible_events
from iwgt.core.table import PhysicalTable, Piece, TableAdapter
from iwgt.hardware.places import Placement
from iwgt.hardware.protocol import FrameLight, TableCell
from iwgt.hardware.reconcile import Divergent
from iwgt.table.plain import table_of

HARDWARE_PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {"piece_missing": SKY, "piece_extra": ORANGE, "identify": WHITE}
)
"""The physical table's own effects and their colours."""

HARDWARE_EFFECTS: Final = ("piece_missing", "piece_extra", "identify")
"""The physical table's own effects, least urgent first: drawn above every game effect."""

_PATTERNS: Final[Mapping[str, str]] = MappingProxyType(
    {"piece_missing": "pulse", "piece_extra": "flash", "identify": "flash"}
)
_REFUSAL: Final = "illegal"  # the shared effect of a refused action (red)


@dataclass(frozen=True)
class Overlay:
    """What the bridge adds to a game's lights: the piece in the air, a refusal, divergent cells, identify."""

    held: tuple[int, Seat] | None = None  # (unit, seat) of a piece in the air, lit with its moves
    refusal: tuple[TableCell, str] | None = None  # a refused placement's table cell and the reason
    divergent: tuple[Divergent, ...] = ()  # where the table and the game differ (reconcile.py)
    identify: tuple[TableCell, ...] = ()  # cells blinking for installation


def _effects(adapter: TableAdapter) -> Effects:
    """The adapter's effects order (``effects``), or the shared one for an adapter that names none."""
    effects = getattr(adapter, "effects", None)
    return effects if isinstance(effects, Effects) else BASE


def public_pieces(adapter: TableAdapter, observation: JSON) -> list[Piece]:
    """The pieces every seat sees standing on the board ([] for an adapter that is no physical table)."""
    return adapter.pieces(observation) if isinstance(adapter, PhysicalTable) else []


def public_lights(plugin: GamePlugin, game: AnyGame, state: Any, last_events: Sequence[Event]) -> list[Light]:
    """The lights of a state as a spectator sees them, with the mover's movable public pieces lit."""
    adapter = table_of(plugin)
    observation = game.observe(state, None)
    movable: list[int] = []
    mover = game.to_move(state)
    if mover is not None and mover != CHANCE:
        movable = list(adapter.options(game, state, mover)["movable"])
        if plugin.facts.hidden_information:  # a unit's options may hang on its side's secrets
            public = {p.unit for p in public_pieces(adapter, observation)}
            movable = [u for u in movable if u in public]
    return adapter.lights(observation, visible_events(last_events, None), None, movable=movable)


def held_lights(
    plugin: GamePlugin, game: AnyGame, state: Any, seat: Seat, unit: int
) -> tuple[list[Light], list[JSON], str | None]:
    """A piece in the air: its selection's lights, its moves (``{"to", "action"}``, each cell's default
    first) and its note (why it cannot move). A unit that is no public piece gives nothing."""
    adapter = table_of(plugin)
    if unit not in {p.unit for p in public_pieces(adapter, game.observe(state, None))}:
        return [], [], None
    answer = adapter.selection(game, state, seat, unit)
    lights = [Light.from_json(x) for x in answer.get("lights", [])]
    note = answer.get("note")
    return lights, list(answer.get("moves", [])), note if isinstance(note, str) else None


def _frame_light(cell: TableCell, light: Light) -> FrameLight:
    return FrameLight(
        cell=cell,
        effect=light.effect,
        colour=light.colour,
        pattern=light.pattern,
        delay_ms=light.delay_ms,
        duration_ms=light.duration_ms,
    )


def _hardware(cell: TableCell, effect: str) -> FrameLight:
    return FrameLight(cell=cell, effect=effect, colour=HARDWARE_PALETTE[effect], pattern=_PATTERNS[effect])


def _unique(lights: Iterable[FrameLight]) -> list[FrameLight]:
    seen: set[FrameLight] = set()
    out = []
    for light in lights:
        if light not in seen:
            seen.add(light)
            out.append(light)
    return out


def table_frame(
    plugin: GamePlugin,
    game: AnyGame,
    state: Any,
    last_events: Sequence[Event],
    placement: Placement,
    overlay: Overlay,
) -> list[FrameLight]:
    """The lights of a frame, least to most urgent: the game's public lights on the table's cells, the piece
    in the air's, a refusal, then the divergent and identify cells."""
    adapter = table_of(plugin)
    effects = _effects(adapter)
    lights = public_lights(plugin, game, state, last_events)
    if overlay.held is not None:
        unit, seat = overlay.held
        lights += held_lights(plugin, game, state, seat, unit)[0]
    rank = {e: i for i, e in enumerate(effects.order)}
    ranked: list[tuple[int, FrameLight]] = [
        (rank.get(light.effect, len(rank)), _frame_light(cell, light))
        for light in effects.ordered(lights)
        for cell in placement.cells_of(light)
    ]
    refused = None if overlay.refusal is None else overlay.refusal[0]
    if refused is not None:
        red = FrameLight(cell=refused, effect=_REFUSAL, colour=effects.colour(_REFUSAL), pattern="steady")
        ranked.append((rank.get(_REFUSAL, len(rank)), red))
    ranked.sort(key=lambda x: x[0])  # stable: the order within an effect is kept
    hardware = [
        _hardware(d.cell, "piece_missing" if d.want == "piece" else "piece_extra")
        for d in overlay.divergent
        if d.cell != refused
    ]
    hardware += [_hardware(cell, "identify") for cell in overlay.identify]
    hardware.sort(key=lambda x: HARDWARE_EFFECTS.index(x.effect))
    return _unique([x for _, x in ranked] + hardware)
