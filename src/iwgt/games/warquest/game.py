"""WarQuest as the shared ``Game`` protocol: pure functions over ``WqState`` (core/protocol.py).

Who acts: a battle first (battle_flow.py), then the top of the pending stack (a chance roll or a question),
then the seat placing or whose turn it is. Every step ends with ``turn.settle``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import (
    CHANCE,
    JSON,
    ChanceOutcome,
    Event,
    Result,
    Scenario,
    ScenarioCard,
    Seat,
    Status,
)
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle_flow, cards, economy, movement, quest, setup, turn
from iwgt.games.warquest.facts import FACTS, RULES_VERSION
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.scenario import WqScenario, load_scenario, parse_scenario, scenario_names
from iwgt.games.warquest.score import SEAT_NAMES
from iwgt.games.warquest.state import Pending, WqState

Step = tuple[WqState, list[Event]]


def _scenario(scenario: Scenario) -> WqScenario:
    if not isinstance(scenario, WqScenario):
        raise TypeError(f"not a WarQuest scenario: {scenario!r}")
    return scenario


def _jsonable(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, WqScenario):
            return {"name": value.name, "players": value.players, "rounds": value.rounds, "map": value.map}
        if isinstance(value, Result):
            return value.to_json()
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, frozenset):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class WqGame:
    """The WarQuest rules for the referee."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> WqScenario:
        """A shipped scenario by name, or a scenario file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> WqScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """The warlords' names in seat order."""
        return SEAT_NAMES[: _scenario(scenario).players]

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it."""
        sc = _scenario(scenario)
        from iwgt.games.warquest.maps import load_map

        m = load_map(sc.map)
        width = m.geometry.width
        height = m.geometry.height
        return ScenarioCard(
            name=sc.name,
            title=sc.title,
            description=sc.description,
            seats=self.seats(sc),
            turns=sc.rounds,
            table=f"{m.name}, {len(m.regions)} regions ({width:g} x {height:g})",
            forces=f"{sc.players} warlords, {rules().constants.START_GOLD} gold each",
            turn_word="rounds",
        )

    def initial_state(self, scenario: Scenario) -> WqState:
        """The state before the shuffles."""
        return setup.initial_state(_scenario(scenario))

    # --- who acts

    def to_move(self, state: WqState) -> Seat | None:
        """The seat asked, CHANCE for a die or a shuffle, None when the game is over."""
        if state.phase == "over":
            return None
        if state.battle is not None:
            if battle_flow.die_needed(state) is not None:
                return CHANCE
            seat: Seat | None = battle_flow.to_move(state)
            return seat
        if state.pending:
            top = state.pending[-1]
            return CHANCE if top.die is not None else top.seat
        return state.seat

    def chance_outcomes(self, state: WqState) -> Die | None:
        """The die the next chance node needs."""
        if state.phase == "over":
            return None
        if state.battle is not None:
            die: Die | None = battle_flow.die_needed(state)
            return die
        if state.pending and state.pending[-1].die is not None:
            return state.pending[-1].die
        return None

    def status(self, state: WqState) -> Status:
        """Phase, round and who acts."""
        phase = "battle" if state.battle is not None else state.phase
        if phase == "setup":
            phase = "place"
        return Status(
            phase, state.round or None, self.to_move(state), None if state.phase == "over" else state.seat
        )

    def is_terminal(self, state: WqState) -> bool:
        """Whether the game is over."""
        return state.phase == "over"

    def result(self, state: WqState) -> Result | None:
        """The result of a finished game."""
        return state.result

    # --- actions

    def legal_actions(self, state: WqState, seat: Seat) -> Sequence[act.Action]:
        """Every offered action of the seat now (finite, representative; ``apply`` takes any valid one)."""
        if self.to_move(state) != seat:
            return []
        if state.battle is not None:
            out: list[act.Action] = battle_flow.questions(state, seat)
            return out
        if state.pending:
            top = state.pending[-1]
            if top.kind == "discard":
                return [act.Discard(c) for c in cards.discard_choices(state.players[seat].powers)]
            return []
        if state.phase == "place":
            return setup.legal_placements(state)
        if state.phase != "turn":
            return []
        acts: list[act.Action] = []
        acts += movement.legal_moves(state, seat)
        acts += economy.legal_powers(state, seat)
        acts += economy.legal_tax(state, seat)
        acts += economy.legal_conquer(state, seat)
        acts += economy.legal_recruits(state, seat)
        acts += economy.legal_lieutenant(state, seat)
        acts += quest.legal_quests(state, seat)
        acts.append(act.EndTurn())
        return acts

    def apply(self, state: WqState, action: act.Action | ChanceOutcome) -> Step:
        """The next state and what happened; a refused action raises and changes nothing."""
        if state.phase == "over":
            raise IllegalAction("WQ-MS-39: the game is over")
        if isinstance(action, ChanceOutcome):
            state, events = self._chance(state, action)
        else:
            action = act.recorded(action)
            state, events = self._act(state, action)
        state, more = turn.settle(state)
        return state, events + more

    def _chance(self, state: WqState, outcome: ChanceOutcome) -> Step:
        die = self.chance_outcomes(state)
        if die is None:
            raise IllegalAction("no die is being rolled now: a player must act")
        if not 1 <= outcome.face <= die.sides:
            raise IllegalAction(f"a {die.purpose} has faces 1 to {die.sides}, got {outcome.face}")
        if state.battle is not None:
            step: Step = battle_flow.advance(state, outcome)
            return step
        top = state.pending[-1]
        if top.kind in ("shuffle", "first"):
            return setup.resolve_setup_chance(state, outcome.face)
        if top.kind == "quest":
            return quest.resolve_quest_die(state, outcome.face)
        if top.kind == "monster":
            from iwgt.games.warquest import happenings

            return happenings.monster_face(state, outcome.face)
        raise ValueError(f"no rule resolves a pending {top.kind!r} roll")  # a programming error

    def _act(self, state: WqState, action: act.Action) -> Step:
        seat = self.to_move(state)
        if seat is None or seat == CHANCE:
            raise IllegalAction("a die must be rolled now, not a player's action")
        if state.battle is not None:
            if not isinstance(action, act.BATTLE_ANSWERS):
                raise IllegalAction("WQ-MV-10: a battle is being fought: answer its question first")
            step: Step = battle_flow.advance(state, action)
            return step
        if isinstance(action, act.BATTLE_ANSWERS):
            raise IllegalAction("WQ-CB-02: no battle is being fought")
        if state.pending:
            top = state.pending[-1]
            if top.kind == "discard" and isinstance(action, act.Discard):
                return self._discard(state, top, action)
            raise IllegalAction("WQ-PW-07: the Rule of Five: discard a power card first")
        if isinstance(action, act.Discard):
            raise IllegalAction("WQ-PW-07: no power card needs discarding now")
        if state.phase == "place":
            if not isinstance(action, act.Place):
                raise IllegalAction("WQ-SU-14: the warlords are placing their leaders and starting armies")
            return setup.apply_place(state, action)
        if isinstance(action, act.Place):
            raise IllegalAction("WQ-SU-18: placing is over; the turns have begun")
        if state.phase != "turn":
            raise IllegalAction("WQ-TU-06: the round's event is being resolved")
        if isinstance(action, act.EndTurn):
            return turn.end_turn(state)
        if state.marks.actions_left <= 0:  # settle ends a spent turn: kept as a guard for hand-built states
            raise IllegalAction("WQ-AC-01: no action is left this turn")
        handlers: dict[type[Any], Callable[[WqState, int, Any], Step]] = {
            act.Move: movement.apply_move,
            act.Power: economy.apply_power,
            act.Tax: economy.apply_tax,
            act.Conquer: economy.apply_conquer,
            act.Recruit: economy.apply_recruit,
            act.Lieutenant: economy.apply_lieutenant,
            act.Quest: quest.apply_quest,
        }
        handler = handlers[type(action)]
        # the action is counted first: a battle or a quest roll then runs with the turn's books already right
        return handler(turn.use_action(state), seat, action)

    def _discard(self, state: WqState, top: Pending, action: act.Discard) -> Step:
        assert top.seat is not None
        if action.card not in cards.discard_choices(state.players[top.seat].powers):
            raise IllegalAction(f"WQ-PW-07: power card {action.card} is not one of the cards to discard from")
        return cards.apply_discard(replace(state, pending=state.pending[:-1]), top.seat, action.card)

    # --- views

    def observe(self, state: WqState, seat: Seat | None) -> JSON:
        """What one seat may see."""
        from iwgt.games.warquest.observe import observe

        return observe(state, seat)

    def state_to_json(self, state: WqState) -> JSON:
        """The whole state as JSON (hidden data included: for digests and the record)."""
        out: JSON = _jsonable(state)
        return out

    def resample_hidden(self, state: WqState, seat: Seat | None, pick: Callable[[int], int]) -> WqState:
        """A state the seat cannot tell from ``state``: hidden deck orders and other hands redrawn."""
        from iwgt.games.warquest.observe import resample_hidden

        return resample_hidden(state, seat, pick)

    def action_view(self, action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
        """Every WarQuest action is public (a quest card is shown when attempted, WQ-QU-01)."""
        return act.action_to_json(action)

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)
