"""A seat's whole screen as one JSON message: built only from what ``observe`` and the seat's events allow.

The table adapter gets the last step's events typed (the game's own classes, matched by class); the view
carries them as JSON for the browser, and each log entry carries the game's sentences for the seat (``text``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from iwgt.core.chance import Die
from iwgt.core.plugin import sentences
from iwgt.core.protocol import CHANCE, JSON, Seat
from iwgt.server.clock import TIMER_ORIGIN
from iwgt.server.snapshot import Batch, Snapshot
from iwgt.table.plain import table_of, words_of


def view_for(snap: Snapshot, seat: Seat | None) -> JSON:
    """The view of docs/protocol.md for one seat (None: a spectator)."""
    game, state, to_move = snap.game, snap.state, snap.to_move
    adapter = table_of(snap.plugin)
    obs = game.observe(state, seat)
    if seat is not None and to_move == seat:
        options = adapter.options(game, state, seat)
    else:
        options = {"movable": [], "actions": []}
    log = log_for(snap, seat, obs)
    events = log[-1]["events"] if log else []  # the last step's events, as this seat may see them
    typed = snap.log[-1].visible(seat) if snap.log else []  # the same events, as the game made them
    lights = adapter.lights(obs, typed, seat, movable=options["movable"])
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
        "report": adapter.report(obs, typed),
        "timer": snap.timer,
        "die": None if die is None else die_view(die),
        "dice": snap.dice,
        "status": snap.status,
        "result": snap.result,
        "hardware": snap.hardware,  # public: the same for every seat (docs/protocol.md)
        **undo_view(snap, () if seat is None else (seat,), seat),
    }


def die_view(die: Die) -> JSON:
    """The die the players roll by hand: sides, purpose, hint, and a game's own face labels and colour (empty
    for a plain die), so that the screen draws the faces as they are printed on the die."""
    return {
        "sides": die.sides,
        "purpose": die.purpose,
        "hint": die.hint(),
        "faces": list(die.faces),
        "colour": die.colour,
    }


def undo_view(snap: Snapshot, seats: Iterable[Seat], seat: Seat | None) -> JSON:
    """What a screen holding ``seats`` (showing ``seat``) may do about undo: ``can_undo`` and ``undo``.

    ``undo.seat`` is the screen's seat that may take back the last step now (on a shared touchscreen, the
    seat that just acted, though the screen already shows the next); ``reason`` says why not; ``consent``
    whether another person must allow it; ``request`` an undo waiting for an answer, with ``answer_as``, the
    screen's seat that may answer it (the same screen, when one touchscreen holds both seats).
    """
    u = snap.undo
    held = sorted(seats)
    by = u.by if u.by in held else None
    request: JSON | None = None
    if u.request is not None:
        answer_as = next((s for s in held if s != u.request and s in u.humans), None)
        request = {"seat": u.request, "answer_as": answer_as, "text": _last_words(snap, answer_as)}
    return {
        "can_undo": by is not None and u.request is None,
        "undo": {
            "seat": by,
            "reason": None
            if by is not None
            else u.reason(seat if seat in held else (held[0] if held else None)),
            "consent": by is not None and u.consent(by),
            "request": request,
            "declined": u.declined is not None and u.declined in held,
        },
    }


def _last_words(snap: Snapshot, seat: Seat | None) -> list[str]:
    """The step an undo would take back, in the game's words for the seat answering (its last log entry)."""
    if not snap.log:
        return []
    return list(log_for(snap, seat)[-1]["text"])


def log_for(snap: Snapshot, seat: Seat | None, observation: JSON | None = None) -> list[JSON]:
    """The recent steps as the seat may see them: secret orders masked, hidden events left out, each step in
    the game's words. ``observation`` is the seat's, if the caller has it (the words take names from it)."""
    known: list[JSON] = [] if observation is None else [observation]

    def names() -> JSON:
        if not known:  # observed only if an entry is new: built entries are kept
            known.append(snap.game.observe(snap.state, seat))
        return known[0]

    return [_entry(snap, b, seat, names) for b in snap.log]


def _entry(snap: Snapshot, b: Batch, seat: Seat | None, names: Callable[[], JSON]) -> JSON:
    """A step's log entry for a seat; built once, since a journalled step never changes."""
    entry = b.seen.get(seat)
    if entry is None:
        game = snap.game
        action = None
        if b.action is not None and b.actor != CHANCE:
            action = game.action_view(game.action_from_json(b.action), b.actor, seat)
        events = b.visible(seat)
        # A step the movement timer took is worded from its action with "timeout": true, so that the
        # game's words can say the time ran out (the action itself is the game's, as journalled).
        said = {**action, "timeout": True} if action is not None and b.origin == TIMER_ORIGIN else action
        entry = {
            "version": b.version,
            "actor": b.actor,
            "action": action,
            "origin": b.origin,
            "events": [e.to_json() for e in events],
            "text": sentences(words_of(snap.plugin), said, b.actor, events, names(), seat),
        }
        b.seen[seat] = entry
    return entry
