"""Undo in the referee: the last step taken back, exactly, and only within its bounds.

The bounds (core/referee.py): a seat takes back only its own last step, a player's action (not the bot's,
the timer's or an imported one); never once a die was thrown, another seat acted or the step revealed a
hidden fact; never after the game is over. Pig (the example game) gives dice and turns; a toy card game
gives a hidden fact; the real games give the property that every undo returns exactly the earlier state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iwgt.core.chance import Die, SeededDice
from iwgt.core.digest import digest
from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, GameFacts, Result, Seat
from iwgt.core.record import replay
from iwgt.core.referee import (
    DIE_THROWN,
    GAME_OVER,
    NO_LONGER,
    NOTHING,
    OTHER_SIDE,
    PLAYER,
    REVEALED,
    Referee,
    UndoRefused,
    reveals,
)
from iwgt.core.registry import get_game

ROLL, HOLD = {"type": "roll"}, {"type": "hold"}


def pig(by_hand: bool = True, seed: int = 3) -> Match:
    """A game of Pig to 30 between Anna (0) and Bruno (1); by hand, every roll waits for its face."""
    game = get_game("pig")
    return Match(game, game.load_scenario("first_to_30"), SeededDice(seed), seed, by_hand=by_hand)


def act(m: Referee, seat: Seat, action: JSON, origin: str = PLAYER) -> None:
    m.act(seat, m.game.action_from_json(action), origin=origin)


def fingerprint(m: Referee) -> tuple[str, int]:
    return digest(m.game.state_to_json(m.state)), len(m.steps)


# ---------------------------------------------------------------- the bounds, by hand


def test_a_roll_not_yet_thrown_is_taken_back_exactly() -> None:
    m = pig()
    start = m.state
    act(m, 0, ROLL)
    assert m.awaited_die() is not None  # the die is asked for, not thrown
    assert m.undo_refusal(0) is None
    m.undo(0)
    assert m.state == start and m.steps == [] and m.origins == []
    assert m.undo_refusal(0) == NOTHING


def test_nothing_is_taken_back_past_a_die() -> None:
    m = pig()
    act(m, 0, ROLL)
    m.enter_face(4)
    assert m.undo_refusal(0) == DIE_THROWN
    with pytest.raises(UndoRefused, match="a die was thrown since") as err:
        m.undo(0)
    assert err.value.code == "undo_refused"
    assert len(m.steps) == 2


def test_a_hold_comes_back_until_the_other_side_acts() -> None:
    m = pig()
    act(m, 0, ROLL)
    m.enter_face(4)
    after_face = fingerprint(m)
    act(m, 0, HOLD)  # Anna banks 4; Bruno is to act
    assert m.to_move == 1
    assert m.undo_refusal(1) == OTHER_SIDE  # Bruno has nothing of his to take back
    assert m.undo_refusal(0) is None
    m.undo(0)
    assert fingerprint(m) == after_face and m.to_move == 0
    assert m.undo_refusal(0) == DIE_THROWN  # the hold is gone; the face before it stays
    act(m, 0, HOLD)
    act(m, 1, ROLL)  # Bruno acts: Anna's hold is his now to live with
    assert m.undo_refusal(0) == OTHER_SIDE
    assert m.undo_refusal(1) is None  # his roll, its die not yet thrown


def test_the_table_dice_answer_at_once_so_a_roll_never_comes_back() -> None:
    m = pig(by_hand=False)
    act(m, 0, ROLL)
    assert m.steps[-1].seat == CHANCE
    assert m.undo_refusal(0) == DIE_THROWN


def test_only_a_players_own_action_comes_back() -> None:
    for origin, words in (("bot", "the bot's"), ("timer", "the timer"), ("import", "imported")):
        m = pig()
        act(m, 0, ROLL, origin=origin)
        why = m.undo_refusal(0)
        assert why is not None and words in why, (origin, why)


def test_several_steps_come_back_one_by_one_in_reverse() -> None:
    """Valhalla hides nothing: a player's moves within the activation come back one at a time."""
    game = get_game("valhalla")
    m = Match(game, game.load_scenario("first_blood"), SeededDice(5), 5)
    m.resolve_chance()
    rng = random.Random(5)
    seat = m.to_move
    assert seat is not None and seat != CHANCE
    states = [m.state]
    while m.to_move == seat and len(states) < 6:
        moves = [a for a in game.legal_actions(m.state, seat) if game.action_to_json(a)["type"] == "move"]
        if not moves:
            break
        m.act(seat, rng.choice(moves))
        if m.steps[-1].seat == CHANCE:
            break
        states.append(m.state)
    assert len(states) >= 3, "the scenario should let a figure move twice in its activation"
    while len(states) > 1:
        states.pop()
        m.undo(seat)
        assert m.state == states[-1]
    assert m.undo_refusal(seat) in (NOTHING, DIE_THROWN, OTHER_SIDE)


def test_nothing_comes_back_once_the_game_is_over() -> None:
    m = pig()
    state = m.game.initial_state(m.scenario)
    m.state = replace(state, scores=(29, 0))  # one good roll from the target
    act(m, 0, ROLL)
    m.enter_face(6)
    act(m, 0, HOLD)  # 35: Anna wins
    assert m.is_over()
    assert m.undo_refusal(0) == GAME_OVER


def test_an_undone_step_leaves_no_trace_in_the_record() -> None:
    m = pig()
    act(m, 0, ROLL)
    m.enter_face(5)
    act(m, 0, HOLD)
    m.undo(0)
    act(m, 0, ROLL)
    m.enter_face(3)
    record = m.finish_record()
    assert [s.action for s in record.steps] == [ROLL, {"face": 5}, ROLL, {"face": 3}]
    assert replay(record).state == m.state


def test_a_journal_loaded_keeps_what_may_be_taken_back() -> None:
    """Loading a journal's steps (with their origins) builds the same run: a restart keeps the undo."""
    m = pig()
    act(m, 0, ROLL)
    m.enter_face(5)
    act(m, 0, HOLD)
    act(m, 1, ROLL)
    loaded = Referee(m.game, m.scenario, SeededDice(3), by_hand=True)
    loaded.load(list(m.steps), list(m.origins), source="the journal", first=1)
    assert loaded.undo_refusal(0) == OTHER_SIDE
    assert loaded.undo_refusal(1) is None
    loaded.undo(1)
    m.undo(1)
    assert fingerprint(loaded) == fingerprint(m)
    # Bruno acted after Anna's hold: taking his roll back does not bring her hold back within reach.
    assert loaded.undo_refusal(0) == m.undo_refusal(0) == NO_LONGER


def test_a_record_replayed_brings_nothing_back() -> None:
    """A record's steps are taken as imported: none of them is a player's to take back."""
    m = pig()
    act(m, 0, ROLL)
    loaded = Referee(m.game, m.scenario)
    loaded.load(list(m.steps))
    assert loaded.undo_refusal(0) == "that step came with an imported record"


def test_an_undo_is_adopted_only_where_it_was_proposed() -> None:
    m = pig()
    act(m, 0, ROLL)
    undo = m.propose_undo(0)
    m.enter_face(2)
    with pytest.raises(RuntimeError, match="adopted at version 2"):
        m.adopt_undo(undo)


# ---------------------------------------------------------------- a hidden fact: a toy card game


@dataclass(frozen=True, slots=True)
class Deck:
    name: str = "deck"
    source: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    card: int  # hidden from both seats until seat 0 peeks
    peeked: bool = False
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Acted(Event):
    kind_: str


class CardGame:
    """Seat 0 acts three times: "wait" tells nobody anything, "peek" shows it the hidden card."""

    name = "cards"
    title = "Cards"
    rules_version = "cards-1"
    facts = GameFacts("cards", "Cards", "", "abstract", 2, 2, "cards-1", hidden_information=True)

    def seats(self, scenario: Any) -> tuple[str, ...]:
        return ("Ann", "Ben")

    def initial_state(self, scenario: Any) -> Table:
        return Table(card=7)

    def to_move(self, state: Table) -> Seat | None:
        return None if state.moves >= 3 else 0

    def chance_outcomes(self, state: Table) -> Die | None:
        return None

    def is_terminal(self, state: Table) -> bool:
        return state.moves >= 3

    def result(self, state: Table) -> Result | None:
        return Result.draw(2, "a draw") if state.moves >= 3 else None

    def apply(self, state: Table, action: Any) -> tuple[Table, list[Event]]:
        if isinstance(action, ChanceOutcome) or action not in ("wait", "peek"):
            raise IllegalAction(f"no such action {action!r}")
        return replace(state, peeked=state.peeked or action == "peek", moves=state.moves + 1), [Acted(action)]

    def observe(self, state: Table, seat: Seat | None) -> JSON:
        return {"moves": state.moves, "card": state.card if state.peeked and seat == 0 else None}

    def resample_hidden(self, state: Table, seat: Seat | None, pick: Callable[[int], int]) -> Table:
        if state.peeked and seat == 0:
            return state
        return replace(state, card=pick(10))

    def state_to_json(self, state: Table) -> JSON:
        return {"card": state.card, "peeked": state.peeked, "moves": state.moves}

    def action_to_json(self, action: str) -> JSON:
        return {"type": action}

    def action_from_json(self, data: JSON) -> str:
        if data.get("type") not in ("wait", "peek"):
            raise MalformedAction("wait or peek")
        return str(data["type"])


class StrictCardGame(CardGame):
    """The same game deciding for itself: nothing may ever be taken back."""

    def undoable(self, before: Table, action: str, after: Table) -> bool:
        return False


def test_a_step_that_revealed_a_hidden_fact_stays_taken() -> None:
    game = CardGame()
    ref = Referee(game, Deck())  # type: ignore[arg-type]
    ref.act(0, "wait")
    assert ref.undo_refusal(0) is None
    ref.act(0, "peek")
    assert ref.undo_refusal(0) == REVEALED
    assert ref.undo_refusal(0, check_reveals=False) is None  # a journal's undo, accepted when made
    with pytest.raises(UndoRefused, match="revealed hidden facts"):
        ref.undo(0)


def test_a_step_after_the_reveal_that_tells_nothing_more_comes_back() -> None:
    game = CardGame()
    ref = Referee(game, Deck())  # type: ignore[arg-type]
    ref.act(0, "peek")
    before = ref.state
    ref.act(0, "wait")  # the card is already known to seat 0 and still hidden from seat 1
    assert not reveals(game, 2, before, "wait")  # type: ignore[arg-type]
    ref.undo(0)
    assert ref.state == before


def test_a_game_may_decide_for_itself() -> None:
    ref = Referee(StrictCardGame(), Deck())  # type: ignore[arg-type]
    ref.act(0, "wait")
    assert ref.undo_refusal(0) == REVEALED


# ---------------------------------------------------------------- the property


def _play(m: Match, rng: random.Random, moves: int) -> list[tuple[Seat, Any, tuple[str, int]]]:
    """Random play; after each player step, what it was and the fingerprint before it."""
    taken = []
    for _ in range(moves):
        seat = m.to_move
        if seat is None:
            break
        if seat == CHANCE:
            die = m.awaited_die()
            assert die is not None
            m.enter_face(rng.randint(1, die.sides))
            continue
        before = fingerprint(m)
        actions = m.game.legal_actions(m.state, seat)
        m.act(seat, actions[rng.randrange(len(actions))])
        taken.append((seat, m.steps[-1], before))
    return taken


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 30), game_name=st.sampled_from(["pig", "valhalla"]))
def test_undo_returns_exactly_the_earlier_state_and_never_crosses_a_die(
    seed: int, moves: int, game_name: str
) -> None:
    game = get_game(game_name)
    scenario = game.scenario_names()[0]
    m = Match(game, game.load_scenario(scenario), SeededDice(seed), seed, by_hand=game_name == "pig")
    m.resolve_chance()
    _play(m, random.Random(seed), moves)
    last_die = max((i for i, s in enumerate(m.steps) if s.seat == CHANCE), default=-1)
    # Take back everything the bounds allow, each step giving back the state before it, as folded anew.
    while m.steps and m.steps[-1].seat != CHANCE and m.undo_refusal(m.steps[-1].seat) is None:
        replayed = Referee(game, m.scenario)
        replayed.load(m.steps[:-1])
        m.undo(m.steps[-1].seat)
        assert fingerprint(m) == fingerprint(replayed) and m.state == replayed.state
    assert len(m.steps) > last_die  # never past a die
    # Where it stopped, a bound holds: a die thrown, a step no longer within reach, the game's end.
    if m.steps:
        last = m.steps[-1]
        why = m.undo_refusal(last.seat if last.seat != CHANCE else 0)
        allowed = {DIE_THROWN, GAME_OVER} if last.seat == CHANCE else {NO_LONGER, GAME_OVER}
        assert why in allowed, (last, why)
