"""A match: one game being played, its dice and its record. The referee's loop, with no I/O."""

from __future__ import annotations

from typing import Any

from iwgt.core.chance import DiceSource
from iwgt.core.digest import digest
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Game, Result, Scenario, Seat
from iwgt.core.record import GameRecord, Step


class Match:
    """Plays one game: validates who acts, applies actions, answers chance nodes, logs every step."""

    def __init__(self, game: Game[Any, Any], scenario: Scenario, dice: DiceSource, seed: int | None) -> None:
        self.game = game
        self.dice = dice
        self.state: Any = game.initial_state(scenario)
        self.record = GameRecord(
            game=game.name,
            rules_version=game.rules_version,
            scenario_name=scenario.name,
            scenario_toml=scenario.source,
            seed=seed,
            dice=dice.kind,
        )

    def _log(self, seat: Seat, action: JSON) -> None:
        self.record.steps.append(
            Step(seat=seat, action=action, digest=digest(self.game.state_to_json(self.state)))
        )

    def act(self, seat: Seat, action: Any, *, then_chance: bool = True) -> list[Event]:
        """Apply a player's action, then answer chance nodes; a refused action raises and changes nothing."""
        to_move = self.game.to_move(self.state)
        if seat == CHANCE:
            raise IllegalAction("the dice act through resolve_chance, not as a seat")
        if to_move != seat:
            raise IllegalAction(f"it is not seat {seat}'s turn to act")
        logged = self.game.action_to_json(action)  # before applying: state and record move together
        self.state, events = self.game.apply(self.state, action)
        self._log(seat, logged)
        return events + self.resolve_chance() if then_chance else events

    def resolve_chance(self) -> list[Event]:
        """Answer every pending chance node with the dice source."""
        events: list[Event] = []
        while self.game.to_move(self.state) == CHANCE:
            die = self.game.chance_outcomes(self.state)
            assert die is not None, "a chance node must name its die"
            face = self.dice.roll(die)
            self.state, new = self.game.apply(self.state, ChanceOutcome(face))
            self._log(CHANCE, {"face": face})
            events.extend(new)
        return events

    def result(self) -> Result | None:
        """The result, once the game is over."""
        return self.game.result(self.state)

    def finish_record(self) -> GameRecord:
        """The record, with the result filled in if the game is over."""
        res = self.result()
        if res is not None:
            self.record.result = res.to_json()
        return self.record
