"""A match: the referee of a headless game, its record kept as it goes (simulate, bots' tests, benchmarks)."""

from __future__ import annotations

from typing import Any

from iwgt.core.chance import DiceSource
from iwgt.core.protocol import Game, Scenario
from iwgt.core.record import GameRecord
from iwgt.core.referee import Referee


class Match(Referee):
    """Plays one game through the referee; ``record`` grows with each step (it shares the referee's steps)."""

    def __init__(
        self,
        game: Game[Any, Any],
        scenario: Scenario,
        dice: DiceSource,
        seed: int | None,
        *,
        by_hand: bool = False,
    ) -> None:
        super().__init__(game, scenario, dice, by_hand=by_hand)
        self.record = GameRecord(
            game=game.name,
            rules_version=game.rules_version,
            scenario_name=scenario.name,
            scenario_toml=scenario.source,
            seed=seed,
            dice="physical" if by_hand else dice.kind,
            steps=self.steps,
        )

    def finish_record(self) -> GameRecord:
        """The record, with the result filled in if the game is over."""
        res = self.result()
        if res is not None:
            self.record.result = res.to_json()
        return self.record
