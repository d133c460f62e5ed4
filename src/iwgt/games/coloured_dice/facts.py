"""What the Coloured-Dice Fantasy Battle Rules declare about themselves: read without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts

GAME_NAME: Final = "coloured-dice"
"""The game's registered name (registry, command line, URLs)."""

RULES_VERSION: Final = "coloured-dice-1.0"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""

FACTS: Final = GameFacts(
    name=GAME_NAME,
    title="Coloured-Dice Fantasy Battle Rules",
    description="Eight coloured dice, armour and range bands, morale under Us, bear wounds and magic.",
    geometry="inches",
    min_players=2,
    max_players=2,
    rules_version=RULES_VERSION,
    # No movement timer: a turn is a run of orders by one player, interleaved with questions to the other
    # (bear wound, hero points, reaction, resisting a spell); a timer keyed on the mover could end only the
    # turn, never answer those questions for a player.
    movement_timer=None,
    hidden_information=False,  # everything on the table is public (the spec's section 3)
)
"""The Coloured-Dice Fantasy Battle Rules' declared facts."""
