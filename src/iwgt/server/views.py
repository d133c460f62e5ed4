"""A seat's whole screen as one JSON message: built only from what ``observe`` and the seat's events allow."""

from __future__ import annotations

from iwgt.core.protocol import CHANCE, JSON, Seat
from iwgt.server.session import TableSession
from iwgt.table.plain import table_of


def view_for(table: TableSession, seat: Seat | None) -> JSON:
    """The view of docs/protocol.md for one seat (None: a spectator)."""
    game, state = table.game, table.state
    adapter = table_of(table.plugin)
    obs = game.observe(state, seat)
    to_move = table.to_move
    if seat is not None and to_move == seat:
        options = adapter.options(game, state, seat)
    else:
        options = {"movable": [], "actions": []}
    log = table.log_for(seat)
    events = log[-1]["events"] if log else []  # the last step's events, as this seat may see them
    lights = adapter.lights(obs, events, seat, movable=options["movable"])
    die = table.awaited_die()
    return {
        "type": "view",
        "table": table.row.id,
        "version": table.version,
        "seat": seat,
        "to_move": None if to_move == CHANCE else to_move,
        "observation": obs,
        "options": options,
        "lights": [light.to_json() for light in lights],
        "events": events,
        "log": log,
        "cards": adapter.cards(obs, seat),
        "report": adapter.report(obs, events),
        "timer": None if table.timer is None else table.timer.to_json(),
        "die": None if die is None else {"sides": die.sides, "purpose": die.purpose, "hint": die.hint()},
        "dice": table.row.dice,
        "status": table.status,
        "result": table.result,
    }
