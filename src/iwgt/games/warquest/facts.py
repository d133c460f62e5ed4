"""What WarQuest declares about itself: read without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts

GAME_NAME: Final = "warquest"
"""The game's registered name (registry, command line, URLs)."""

RULES_VERSION: Final = "warquest-1.0"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""

MIN_PLAYERS: Final = 2
"""The fewest warlords (WQ-MS-44 decided: two, on either map)."""
MAX_PLAYERS: Final = 5
"""The most warlords: the box has five Warlords and five reference boards (WQ-CM-12, WQ-CM-24)."""

FACTS: Final = GameFacts(
    name=GAME_NAME,
    title="WarQuest",
    description="Conquest on a region map: gold, quests, four decks of cards and battles in two ranks.",
    geometry="regions",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    # No movement timer: a turn is three actions of one player, interleaved with battle questions to another
    # (arranging the ranks, retreating); a timer keyed on the mover could not answer those for a player.
    movement_timer=None,
    hidden_information=True,  # quest and conquest hands and the decks' order are secret (issue 15 section 4)
)
"""WarQuest's declared facts."""
