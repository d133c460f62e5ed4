"""A small cache of legal actions per (state, seat), shared by the table adapters."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from iwgt.core.protocol import Seat

LEGAL_CACHE: Final = 128
"""How many (state, seat) legal-action lists an adapter keeps: a few per table in play."""


class LegalActions:
    """The legal actions of recent (state, seat) pairs.

    A view's options and the selection that follows it ask for the same position, and legal_actions is the
    dearest call of a view. Each entry holds its state, so the state's id cannot be reused while it is cached.
    """

    def __init__(self, size: int = LEGAL_CACHE) -> None:
        self.size = size
        self._cache: OrderedDict[tuple[int, Seat], tuple[Any, Sequence[Any]]] = OrderedDict()

    def get(self, game: Any, state: Any, seat: Seat) -> Sequence[Any]:
        """The seat's legal actions in this state, computed at most once while cached."""
        key = (id(state), seat)
        hit = self._cache.get(key)
        if hit is not None and hit[0] is state:
            self._cache.move_to_end(key)
            return hit[1]
        actions: Sequence[Any] = game.legal_actions(state, seat)
        self._cache[key] = (state, actions)
        if len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return actions
