"""Typed errors: every refusal says what was wrong and where, and changes nothing."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the referee raises at a player or a file author."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        """The error as a JSON object for clients."""
        return {"error": self.code, "message": self.message}


class MalformedAction(GameError):
    """The action could not be understood at all (wrong shape, unknown unit, bad cell)."""

    code = "malformed"


class IllegalAction(GameError):
    """The action is understood but the rules forbid it now; the message gives the reason."""

    code = "illegal"


class AmbiguousAction(GameError):
    """The action matches more than one legal action; the message lists what to add."""

    code = "ambiguous"


class DataFileError(GameError):
    """A data or scenario file is broken; the message names the file, the key and what was expected."""

    code = "data"

    def __init__(self, path: str, key: str, expected: str, message: str | None = None) -> None:
        # "ford.toml, army.light.0.unit: unknown unit type"; a problem of the whole file has no key.
        where = f"{path}, {key}" if key else path
        super().__init__(message if message is not None else f"{where}: {expected}")
        self.path = path
        self.key = key
        self.expected = expected


class RecordError(GameError):
    """A game record is unreadable, or replaying it did not reproduce a recorded step."""

    code = "record"
