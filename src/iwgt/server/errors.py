"""The table's own refusals, and how any failure on a message becomes one (never a trace to a client)."""

from __future__ import annotations

from iwgt.core.errors import GameError, MalformedAction


class TableError(GameError):
    """A request the table refuses for a reason outside the rules (not your seat, the game is over)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def refuse(exc: Exception) -> TableError | GameError:
    """Any failure to understand a message as a GameError with a code (never a stack trace to a client)."""
    if isinstance(exc, GameError):
        return exc
    if isinstance(exc, KeyError | TypeError | ValueError):
        return MalformedAction(f"the action could not be read: {exc}")
    return TableError("internal", "the table could not take this message; nothing changed")
