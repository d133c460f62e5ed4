"""A bot that plays a uniformly random legal action: the policy of the playthrough goldens and the fuzzers.

It needs nothing but the public protocol, so it plays every game, and its choices come from an explicit
SplitMix64 (never Python's ``random``), so a seed means the same game on every machine.
"""

from __future__ import annotations

from typing import Any

from iwgt.core.chance import SplitMix64
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import Seat


class RandomBot:
    """Chooses uniformly among the seat's legal actions, from its own seeded generator."""

    def __init__(self, game: AnyGame, seed: int) -> None:
        self.game = game
        self.rng = SplitMix64(seed)

    def choose(self, state: Any, seat: Seat) -> Any:
        """A legal action of the seat, drawn uniformly; the seat must have one."""
        legal = list(self.game.legal_actions(state, seat))
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        return legal[self.rng.below(len(legal))]
