"""A seat's whole screen as one JSON message: built only from what ``observe`` and the seat's events allow."""

from __future__ import annotations

from iwgt.core.protocol import CHANCE, JSON, Seat, visible_events
from iwgt.server.snapshot import Batch, Snapshot
from iwgt.table.plain import table_of


def view_for(snap: Snapshot, seat: Seat | None) -> JSON:
    """The view of docs/protocol.md for one seat (None: a spectator)."""
    game, state, to_move = snap.game, snap.state, snap.to_move
    adapter = table_of(snap.plugin)
    obs = game.observe(state, seat)
    if seat is not None and to_move == seat:
        options = adapter.options(game, state, seat)
    else:
        options = {"movable": [], "actions": []}
    log = log_for(snap, seat)
    events = log[-1]["events"] if log else []  # the last step's events, as this seat may see them
    lights = adapter.lights(obs, events, seat, movable=options["movable"])
    die = snap.die
    return {
        "type": "view",
        "table": snap.table,
        "version": snap.version,
        "seat": seat,
        "to_move": None if to_move == CHANCE else to_move,
        "observation": obs,
        "options": options,
        "lights": [light.to_json() for light in lights],
        "events": events,
        "log": log,
        "cards": adapter.cards(obs, seat),
        "report": adapter.report(obs, events),
        "timer": snap.timer,
        "die": None if die is None else {"sides": die.sides, "purpose": die.purpose, "hint": die.hint()},
        "dice": snap.dice,
        "status": snap.status,
        "result": snap.result,
    }


def log_for(snap: Snapshot, seat: Seat | None) -> list[JSON]:
    """The recent steps as the seat may see them: secret orders masked, hidden events left out."""
    return [_entry(snap, b, seat) for b in snap.log]


def _entry(snap: Snapshot, b: Batch, seat: Seat | None) -> JSON:
    """A step's log entry for a seat; built once, since a journalled step never changes."""
    entry = b.seen.get(seat)
    if entry is None:
        game = snap.game
        action = None
        if b.action is not None and b.actor != CHANCE:
            action = game.action_view(game.action_from_json(b.action), b.actor, seat)
        entry = {
            "version": b.version,
            "actor": b.actor,
            "action": action,
            "events": [e.to_json() for e in visible_events(b.events, seat)],
        }
        b.seen[seat] = entry
    return entry
