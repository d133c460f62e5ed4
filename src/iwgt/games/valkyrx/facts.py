"""What Days of the Valkyrx declares about itself: read without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts, TimerRule

RULES_VERSION: Final = "valkyrx-1.3"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""

SIDE_IDS: Final = ("light", "darkness")
"""Each seat's side, as summaries name it."""

SIDE_TITLES: Final = ("the Light", "the Darkness")
"""Each seat's side in words."""

SEAT_NAMES: Final = ("Forces of the Light", "Forces of Darkness")
"""The two seats of every battle."""

FACTS: Final = GameFacts(
    name="valkyrx",
    title="Days of the Valkyrx",
    description="War against the Demon King on hex cells: wizards, dragons, plague.",
    geometry="hex",
    min_players=2,
    max_players=2,
    rules_version=RULES_VERSION,
    # Two minutes per player's movement phase; at time-out the phase ends in the player's name.
    movement_timer=TimerRule(
        phase="movement", ends_with={"type": "end_phase"}, seconds=120.0, clause="VX-02-07"
    ),
    hidden_information=True,
)
"""Days of the Valkyrx's declared facts."""
