"""A bot that plays a random legal action: the policy of the playthrough goldens, and a bot for any game.

It needs nothing but the public protocol, so it plays every game, and its choices come from an explicit
SplitMix64 (never Python's ``random``), so a seed means the same game on every machine.

It draws in two stages: first a kind of action (the ``type`` of the action's JSON), uniformly among the
kinds the seat has, then one action of that kind, uniformly. Drawn uniformly over the actions themselves, a
seat with forty units to place and one "deployment done" would place units for hundreds of steps before it
ever ended its deployment (one action in hundreds), and a seeded game would show little but deployment; over
kinds first, ending the phase is as likely as any other kind of thing to do, so the games reach their battles.
"""

from __future__ import annotations

from typing import Any

from iwgt.core.chance import SplitMix64
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import Seat


class RandomBot:
    """Chooses a random kind of legal action, then a random action of that kind, from its own generator."""

    def __init__(self, game: AnyGame, seed: int) -> None:
        self.game = game
        self.rng = SplitMix64(seed)

    def choose(self, state: Any, seat: Seat) -> Any:
        """A legal action: a kind drawn uniformly, then an action of it; the seat must have one."""
        legal = list(self.game.legal_actions(state, seat))
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        kinds: dict[str, list[Any]] = {}
        for action in legal:  # in legal order, so the draw depends only on the legal actions and the seed
            kinds.setdefault(str(self.game.action_to_json(action).get("type", "")), []).append(action)
        of_kind = list(kinds.values())[self.rng.below(len(kinds))]
        return of_kind[self.rng.below(len(of_kind))]
