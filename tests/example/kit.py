"""The game of Pig the tests expect, worked out by hand: ``first_to_30`` with the table's dice seeded 3.

The seeded dice (SplitMix64, seed 3) give these d6 faces, in order (``test_cli`` checks them). Both players
follow the bot's rule (hold once the turn's total is 20 or more, or when holding wins; roll otherwise):

==== ===== ==================== ================================
turn seat  faces                what happens
==== ===== ==================== ================================
1    Anna  4 4 4 6 1            18 in hand, then a 1: loses 18
2    Bruno 2 1                  loses 2
3    Anna  5 3 1                loses 8
4    Bruno 1                    loses 0
5    Anna  4 5 2 5 1            loses 16
6    Bruno 5 2 3 2 3 1          loses 15
7    Anna  4 2 3 6 5            20: holds, 20 in all
8    Bruno 6 2 3 4 4 4          19 is not enough; 23: holds, 23
9    Anna  3 2 3 6              20 + 14 = 34 >= 30: holds, wins
==== ===== ==================== ================================

37 rolls (a roll and its face are two steps) and 3 holds: 77 steps in 9 turns; Anna wins 34 to 23.
"""

from __future__ import annotations

from typing import Any

SEED = 3
TURNS: list[tuple[int, list[int], bool]] = [
    (0, [4, 4, 4, 6, 1], False),
    (1, [2, 1], False),
    (0, [5, 3, 1], False),
    (1, [1], False),
    (0, [4, 5, 2, 5, 1], False),
    (1, [5, 2, 3, 2, 3, 1], False),
    (0, [4, 2, 3, 6, 5], True),
    (1, [6, 2, 3, 4, 4, 4], True),
    (0, [3, 2, 3, 6], True),
]
"""Each turn: the seat, its faces, and whether it ended by holding."""

FACES = [face for _seat, faces, _held in TURNS for face in faces]
"""The first 37 faces of SeededDice(3) on a d6: exactly the faces of the game above."""

SUMMARY = {
    "game": "pig",
    "scenario": "first_to_30",
    "seed": 3,
    "winner": "Anna",
    "reason": "34 points of the 30 needed",
    "turns": 9,
    "steps": 77,
    "scores": [34, 23],
}
"""What ``iwgt simulate pig --scenario first_to_30 --seed 3 --json`` prints."""


def expected_events() -> list[list[dict[str, Any]]]:
    """The events of every step batch of the game above, as the server's log words them, in order.

    A roll and its face are one batch (the Rolled or RolledOne event); a hold is one batch (Held, and Won).
    """
    batches: list[list[dict[str, Any]]] = []
    scores = [0, 0]
    for seat, faces, held in TURNS:
        total = 0
        for face in faces:
            if face == 1:
                batches.append([{"event": "RolledOne", "seat": seat, "lost": total}])
                break
            total += face
            batches.append([{"event": "Rolled", "seat": seat, "face": face, "turn_total": total}])
        if held:
            scores[seat] += total
            batch = [{"event": "Held", "seat": seat, "banked": total, "score": scores[seat]}]
            if scores[seat] >= 30:
                batch.append({"event": "Won", "seat": seat, "score": scores[seat]})
            batches.append(batch)
    return batches
