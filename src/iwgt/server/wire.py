"""JSON as the server reads it: bounded nesting, text that can be sent back, numbers that fit the journal.

Every body and socket message passes here before anything acts on it, so that what the server could not
store, encode in its answer or walk without recursing deeply is refused as ``malformed`` at the door,
instead of failing later as an HTTP 500, an ``internal`` error or a socket that silently stops answering.
"""

from __future__ import annotations

import json
import math
from typing import Any

from iwgt.core.errors import MalformedAction

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted (a record's deepest value is about 6 levels down)."""

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""Whole numbers must fit 64 bits: the journal (SQLite) and the answers' encoder (orjson) hold no more."""


def _refuse_constant(name: str) -> Any:
    raise MalformedAction(f"{name} is not a number JSON allows")


def read_json(raw: str | bytes, what: str = "the message") -> Any:
    """Parse ``raw`` and check it (see ``check``); a failure is a MalformedAction naming what is wrong."""
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise MalformedAction(f"{what} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise MalformedAction(f"{what} is not JSON: {exc}") from None
    check(value, what)
    return value


def check(value: Any, what: str = "the message") -> None:
    """Refuse nesting deeper than MAX_DEPTH, text with lone surrogates, whole numbers beyond 64 bits and
    non-finite numbers; the error names where the bad value is. Walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        v, where, depth = stack.pop()
        at = f" (at {where})" if where else ""
        if isinstance(v, dict | list):
            if depth >= MAX_DEPTH:
                raise MalformedAction(f"{what} nests deeper than {MAX_DEPTH} levels")
            if isinstance(v, dict):
                for k, item in v.items():
                    _text(k, what, at)
                    stack.append((item, f"{where}.{_label(k)}" if where else _label(k), depth + 1))
            else:
                stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(v))
        elif isinstance(v, str):
            _text(v, what, at)
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if not INT_MIN <= v <= INT_MAX:
                raise MalformedAction(f"{what} holds a whole number beyond 64 bits{at}")
        elif isinstance(v, float) and not math.isfinite(v):
            raise MalformedAction(f"{what} holds a number too large to be finite{at}")


def _label(key: str) -> str:
    """A key as the error shows it: escaped if it is not plain text, cut if long."""
    return ascii(key)[1:-1][:40]


def _text(s: str, what: str, at: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedAction(f"{what} holds text that is not valid Unicode (a lone surrogate){at}") from None
