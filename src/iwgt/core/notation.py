"""What every game's position notation shares: the error, and a reader that names where a word failed.

Each game writes a position as one line of text (``GamePlugin.notation``) in a grammar of its own, documented
in its ``notation`` module; reading one back goes word by word, and a word that does not fit is refused with
the game, the section and what was expected (``<game> notation, figure F3: a point x,y expected``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_INT = re.compile(r"-?\d+")
_NUM = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


class NotationError(ValueError):
    """A notation that cannot be read: the message names the section and what was expected."""


class NotationReader:
    """Reads the words of one game's notation; ``where`` names the section being read, for the errors."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.where = "the header"

    def fail(self, what: str) -> NotationError:
        """The error to raise: the game's notation, the section, and what is wrong."""
        return NotationError(f"{self.game} notation, {self.where}: {what}")

    def whole(self, text: str, what: str = "a whole number") -> int:
        """A whole number (``what`` says which, in the error)."""
        if not _INT.fullmatch(text):
            raise self.fail(f"{what} expected, got {text!r}")
        return int(text)

    def number(self, text: str, what: str = "a number") -> float:
        """A number, written as Python writes a float (an exponent allowed)."""
        if not _NUM.fullmatch(text):
            raise self.fail(f"{what} expected, got {text!r}")
        return float(text)

    def marks(
        self, words: list[str], known: dict[str, Callable[[str], Any]], flags: tuple[str, ...]
    ) -> dict[str, Any]:
        """``key=value`` words parsed by ``known``, bare words from ``flags`` (True); anything else fails."""
        out: dict[str, Any] = {}
        for w in words:
            key, eq, value = w.partition("=")
            if eq:
                if key not in known:
                    raise self.fail(f"unknown mark {key!r} (known: {', '.join(known)})")
                out[key] = known[key](value)
            elif w in flags:
                out[w] = True
            else:
                raise self.fail(f"unknown word {w!r}")
        return out
