"""What Valhalla declares about itself: read without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts

RULES_VERSION: Final = "valhalla-1.1"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""

FACTS: Final = GameFacts(
    name="valhalla",
    title="Valhalla",
    description="A skirmish in inches: card activation, opposed dice and the Dice of Death.",
    geometry="inches",
    min_players=2,
    max_players=17,  # VH-CB-04 decided: two sides, up to 17 players (one card per living figure: 52 / 3)
    rules_version=RULES_VERSION,
    movement_timer=None,  # Valhalla's rules time nothing: an activation is two actions, not a span of time
    hidden_information=False,
)
"""Valhalla's declared facts."""
