"""The gate between a game and its physical table: the bound device as the game sees it, and its words.

``_Link`` refuses a game's acts while the table differs (``TableBridge.blocked``); the helpers put a
divergent cell, or the rules' refusal of a piece's move, in the players' words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON, Seat
from iwgt.hardware.places import Placement
from iwgt.hardware.reconcile import Divergent
from iwgt.server.bridge.state import DIVERGED, SENSOR, _Device
from iwgt.server.errors import TableError

if TYPE_CHECKING:
    from iwgt.server.bridge.table import TableBridge


class _Link:
    """A bound device as its game table sees it (``TableSession.hardware``, ``LiveTable.gate``)."""

    def __init__(self, bridge: TableBridge, device: _Device) -> None:
        self.bridge = bridge
        self.device = device

    def view(self) -> JSON | None:
        """The view's ``hardware`` field."""
        return self.bridge.hardware_view(self.device)

    def shown(self, view: JSON | None) -> None:
        """Every screen got its view, with this hardware field: the lights follow. The field is kept as shown
        (a game step's own broadcast carries a new one: a refresh that then computes the same field must not
        think the screens still have an older one, and one that differs is sent)."""
        self.device.shown = view
        self.device.dirty = True
        self.bridge.wake()

    def carry_on(self) -> None:
        """Ignore the cells read wrongly now, until each changes again."""
        self.bridge.carry_on(self.device)

    def gate(self, origin: str) -> None:
        """Refuse an act while the table differs from the game (a sensor's own move is let through)."""
        if origin == SENSOR and self.bridge.sensor_acting is self.device:
            return
        why = self.bridge.blocked(self.device)
        if why is not None:
            raise TableError(DIVERGED, why)


def _why_not(live: Any, seat: Seat, moves: list[JSON], to: tuple[int, int]) -> str | None:
    """The rules' own reason a piece may not go to ``to`` (out of reach, impassable, ...): its move action
    with that destination, put to the referee (a refusal changes nothing; no die is rolled); None if the
    rules give none."""
    if not moves:
        return None
    first = moves[0]
    template, dest = first.get("action"), first.get("to")
    if not isinstance(template, dict) or dest is None:
        return None
    action = {k: [to[0], to[1]] if v == dest else v for k, v in template.items()}
    try:
        live.referee.propose(seat, live.game.action_from_json(action), SENSOR, then_chance=False)
    except GameError as exc:
        return exc.message
    except Exception:  # an action the game cannot read: no reason to give
        return None
    return None


def _back(dev: _Device, d: Divergent) -> bool:
    """Whether a missing piece stood on its cell on this table (lifted or knocked off it): put "back"."""
    return d.want == "piece" and d.unit is not None and (d.unit, d.cell) in dev.stood


def _words(d: Divergent, place: Placement | None, *, back: bool = False) -> str:
    """A divergent cell as the players read it: what to do, on the game's own cell ("back" only for a piece
    that stood there: one the game moved, or a table set up afresh, is put "on" its cell)."""
    to = place.to_game(d.cell) if place is not None else None
    where = f"[{to[0]}, {to[1]}]" if to is not None else f"the table's cell [{d.cell[0]}, {d.cell[1]}]"
    name = d.name or "the piece"
    if d.want == "piece":
        return f"put {name} back on {where}" if back else f"put {name} on {where}"
    if d.want == "tag":
        return f"put {name} on {where} (another piece stands there)"
    return f"take the piece off {where}"
