"""What Forged upon an Anvil declares about itself: read without building the rules."""

from __future__ import annotations

from typing import Final

from iwgt.core.protocol import GameFacts

RULES_VERSION: Final = "anvil-1.0"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""

FACTS: Final = GameFacts(
    name="anvil",
    title="Forged upon an Anvil",
    description="Command points, sealed bids and units on trays: no dice, a Combat Resolution Matrix.",
    geometry="inches",
    min_players=2,
    max_players=2,
    rules_version=RULES_VERSION,
    # No movement timer: the rules time nothing, and the CP a player spends already bound its activations.
    # A timer over the activation phase could only end it with ``end_activation``, which has no meaning
    # between activations (the player has not chosen a unit yet: the mover's choice is to activate, deploy
    # or pass), and the server's timer is keyed on the mover, which changes after every activation and
    # during an interruption; a sealed bid cannot be timed out without choosing a bid for the player.
    movement_timer=None,
    hidden_information=True,  # sealed terrain bids, turn bids and army lists until both are in
)
"""Forged upon an Anvil's declared facts."""
