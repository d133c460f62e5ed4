"""What Pig declares about itself: read by the game selection without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts

RULES_VERSION: Final = "pig-1.0"
"""Bumped whenever a rule changes, so that old records are refused rather than misread."""

FACTS: Final = GameFacts(
    name="pig",
    title="Pig",
    description="The classic dice game: roll as often as you dare, but a 1 loses the turn's points.",
    geometry="abstract",  # no board: a die and a score sheet
    min_players=2,
    max_players=6,
    rules_version=RULES_VERSION,
    movement_timer=None,
    hidden_information=False,
)
"""Pig's declared facts."""
