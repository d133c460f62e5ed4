"""Tests for iwgt.core.referee: one referee for every driver, its pending dice, its folds and its loads.

A toy game keeps every expectation countable by hand: its scenario is a script of who acts next ("0" and
"1" are seats, "d6" a die the players may roll, "s4" a secret d4 no player may see), each action or face
takes the next entry, and the game ends when the script does.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

from iwgt.core.chance import Die, ScriptedDice, SeededDice
from iwgt.core.digest import digest
from iwgt.core.errors import IllegalAction, MalformedAction, RecordError
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Result, Seat
from iwgt.core.referee import BY_HAND, IMPORTED, PLAYER, TABLE_DICE, Referee, Step

SEED = 7
PUBLIC = Die(6, "who goes first")
SECRET = Die(4, "the hidden card", secret=True)


@dataclass(frozen=True, slots=True)
class Script:
    """The toy scenario: what comes next, in order."""

    name: str
    entries: tuple[str, ...]

    @property
    def source(self) -> str:
        return " ".join(self.entries)


@dataclass(frozen=True, slots=True)
class ToyState:
    left: tuple[str, ...]
    taken: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Went(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    face: int


class ToyGame:
    """Just enough of the Game protocol for the referee."""

    name = "toy"
    title = "Toy"
    rules_version = "toy-1"

    def initial_state(self, scenario: Script) -> ToyState:
        return ToyState(scenario.entries)

    def to_move(self, state: ToyState) -> Seat | None:
        if not state.left:
            return None
        head = state.left[0]
        return int(head) if head.isdigit() else CHANCE

    def chance_outcomes(self, state: ToyState) -> Die | None:
        if not state.left or state.left[0].isdigit():
            return None
        return PUBLIC if state.left[0] == "d6" else SECRET

    def apply(self, state: ToyState, action: Any) -> tuple[ToyState, list[Event]]:
        who = self.to_move(state)
        if isinstance(action, ChanceOutcome):
            die = self.chance_outcomes(state)
            if die is None:
                raise IllegalAction("no die is to be rolled")
            if not 1 <= action.face <= die.sides:
                raise IllegalAction(f"a d{die.sides} has no face {action.face}")
            return ToyState(state.left[1:], (*state.taken, f"{action.face}")), [Rolled(action.face)]
        if action != "go" or who is None or who == CHANCE:
            raise IllegalAction(f"{action!r} is not a move now")
        return ToyState(state.left[1:], (*state.taken, f"go{who}")), [Went(who)]

    def action_to_json(self, action: str) -> JSON:
        return {"type": action}

    def action_from_json(self, data: JSON) -> str:
        if data.get("type") != "go":
            raise MalformedAction(f"unknown action {data.get('type')!r}")
        return "go"

    def state_to_json(self, state: ToyState) -> JSON:
        return {"left": list(state.left), "taken": list(state.taken)}

    def is_terminal(self, state: ToyState) -> bool:
        return not state.left

    def result(self, state: ToyState) -> Result | None:
        return Result.draw(2, "the script is done") if not state.left else None


GAME = ToyGame()


def referee(*entries: str, seed: int = SEED, by_hand: bool = True) -> Referee:
    return Referee(GAME, Script("toy", entries), SeededDice(seed), by_hand=by_hand)  # type: ignore[arg-type]


def first_rolls(sides: int, n: int, seed: int = SEED) -> list[int]:
    """What the table's seeded dice give, in order, for ``n`` rolls of a d``sides``."""
    dice = SeededDice(seed)
    return [dice.roll(Die(sides, "oracle")) for _ in range(n)]


def dig(*taken: str, left: tuple[str, ...]) -> str:
    return digest({"left": list(left), "taken": list(taken)})


# -- physical dice: a pending step, and the face that resumes it ---------------------------------------------


def test_a_die_rolled_by_hand_waits_as_a_pending_step_until_its_face_is_entered() -> None:
    ref = referee("0", "d6", "1")
    assert ref.act(0, "go") == [Went(0)]
    assert ref.to_move == CHANCE
    assert ref.awaited_die() == PUBLIC
    assert [s.seat for s in ref.steps] == [0]  # nothing rolled: the table waits
    assert ref.resolve_chance() == []  # the table's dice never answer a die the players roll
    assert ref.awaited_die() == PUBLIC and ref.version == 1
    with pytest.raises(IllegalAction, match="seat 1"):
        ref.act(1, "go")  # nobody acts past the pending die
    events = ref.enter_face(5)
    assert events == [Rolled(5)]
    assert ref.awaited_die() is None and ref.to_move == 1
    assert ref.steps[-1] == Step(CHANCE, {"face": 5}, dig("go0", "5", left=("1",)))


@pytest.mark.parametrize("face", [0, 7, "5", 5.0, True, None])
def test_a_face_not_on_the_awaited_die_is_refused_and_changes_nothing(face: Any) -> None:
    ref = referee("0", "d6", "1")
    ref.act(0, "go")
    before = (ref.state, list(ref.steps))
    with pytest.raises(MalformedAction, match="from 1 to 6"):
        ref.enter_face(face)
    assert (ref.state, ref.steps) == before
    assert ref.awaited_die() == PUBLIC


def test_no_face_is_taken_when_no_die_is_awaited() -> None:
    ref = referee("0", "d6")
    with pytest.raises(IllegalAction, match="not waiting for a die"):
        ref.enter_face(3)  # seat 0 is to act
    seeded = referee("0", "d6", by_hand=False)
    seeded.act(0, "go")  # the table rolled its own d6 at once
    assert seeded.to_move is None
    with pytest.raises(IllegalAction, match="not waiting for a die"):
        seeded.enter_face(3)


def test_a_proposed_face_is_the_game_s_only_once_adopted() -> None:
    ref = referee("0", "d6", "1")
    ref.act(0, "go")
    fold = ref.propose_face(2)
    assert [t.origin for t in fold.taken] == [BY_HAND]
    assert ref.awaited_die() == PUBLIC and ref.version == 1  # the live state has not moved
    ref.adopt(fold)
    assert ref.version == 2 and ref.to_move == 1


# -- secret dice: always the table's ---------------------------------------------------------------------


def test_a_secret_die_is_rolled_by_the_table_even_with_physical_dice() -> None:
    ref = referee("0", "s4", "d6", "s4", "1")
    assert ref.act(0, "go") == [Went(0), Rolled(first_rolls(4, 1)[0])]  # the secret die, never awaited
    assert ref.awaited_die() == PUBLIC  # the public die after it waits for the players
    events = ref.enter_face(6)
    secret = first_rolls(4, 2)
    # The d6 entered by hand drew nothing from the table's dice: the second secret die is their second roll.
    assert events == [Rolled(6), Rolled(secret[1])]
    assert ref.to_move == 1
    assert [s.action for s in ref.steps] == [
        {"type": "go"},
        {"face": secret[0]},
        {"face": 6},
        {"face": secret[1]},
    ]


def test_a_secret_die_is_never_the_awaited_one() -> None:
    ref = referee("s4", "0")
    assert ref.to_move == CHANCE and ref.awaited_die() is None  # pending, but not for a player to roll
    with pytest.raises(IllegalAction, match="not waiting for a die"):
        ref.enter_face(1)
    assert ref.resolve_chance() == [Rolled(first_rolls(4, 1)[0])]
    assert ref.to_move == 0


# -- folds: nothing changes before adoption; a failed commit gives the rolls back ----------------------------


def test_a_proposal_changes_nothing_and_its_rolls_can_be_given_back() -> None:
    ref = referee("0", "s4", "s4", "1", "s4", by_hand=False)
    fold = ref.propose(0, "go")
    rolls = first_rolls(4, 3)
    assert [t.step.action for t in fold.taken] == [{"type": "go"}, {"face": rolls[0]}, {"face": rolls[1]}]
    assert [t.origin for t in fold.taken] == [PLAYER, TABLE_DICE, TABLE_DICE]
    assert fold.version == 3 and fold.events == [Went(0), Rolled(rolls[0]), Rolled(rolls[1])]
    assert ref.version == 0 and ref.to_move == 0  # not adopted
    ref.give_back(fold)  # the commit failed: the same faces come up again
    again = ref.propose(0, "go")
    assert [t.step for t in again.taken] == [t.step for t in fold.taken]
    ref.adopt(again)
    assert ref.version == 3 and ref.to_move == 1
    ref.act(1, "go")
    assert ref.steps[-1].action == {"face": rolls[2]}  # the dice ran on from the adopted rolls only


def test_a_stale_fold_is_not_adopted() -> None:
    ref = referee("0", "1", "0")
    stale = ref.propose(0, "go")
    ref.act(0, "go")
    with pytest.raises(RuntimeError, match="version 0 adopted at version 1"):
        ref.adopt(stale)
    assert ref.version == 1


def test_the_dice_do_not_act_as_a_seat() -> None:
    ref = referee("d6", "0", by_hand=True)
    with pytest.raises(IllegalAction, match="not as a seat"):
        ref.propose(CHANCE, ChanceOutcome(1))
    assert ref.version == 0


def test_scripted_dice_running_out_keep_the_action_taken() -> None:
    ref = Referee(GAME, Script("toy", ("0", "s4", "s4")), ScriptedDice([2]))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no scripted face left"):
        ref.act(0, "go")
    assert [s.action for s in ref.steps] == [{"type": "go"}, {"face": 2}]
    assert ref.to_move == CHANCE


# -- loading a journal: the table's dice re-rolled, every seat, origin and digest checked --------------------


def journal() -> tuple[list[Step], list[str]]:
    """A physical-dice table's steps and origins: seat 0, its secret die, a face by hand, seat 1."""
    ref = referee("0", "s4", "d6", "1", "s4")
    ref.act(0, "go")
    ref.enter_face(3)
    ref.act(1, "go")
    origins = [PLAYER, TABLE_DICE, BY_HAND, PLAYER, TABLE_DICE]
    return copy.deepcopy(ref.steps), origins


def load(steps: list[Step], origins: list[str] | None, seed: int = SEED) -> Referee:
    ref = referee("0", "s4", "d6", "1", "s4", seed=seed)
    ref.load(steps, origins, source="the journal", first=1)
    return ref


def test_a_journal_loads_to_the_same_game() -> None:
    steps, origins = journal()
    ref = load(steps, origins)
    secret = first_rolls(4, 2)
    assert ref.steps == steps and ref.is_over()
    assert ref.state == ToyState((), ("go0", str(secret[0]), "3", "go1", str(secret[1])))


def test_a_journal_with_a_wrong_digest_names_the_step() -> None:
    steps, origins = journal()
    good = steps[2].digest
    steps[2] = dataclasses.replace(steps[2], digest="0" * 16)
    with pytest.raises(RecordError) as exc:
        load(steps, origins)
    assert str(exc.value) == f"step 3: state digest {good} differs from the recorded {'0' * 16}"


def test_a_journal_step_by_the_wrong_seat_names_the_step_and_both_seats() -> None:
    steps, origins = journal()
    steps[3] = dataclasses.replace(steps[3], seat=0)
    with pytest.raises(RecordError) as exc:
        load(steps, origins)
    assert str(exc.value) == "step 4: the journal says seat 0 acted, but seat 1 was to act"


def test_a_journal_face_the_table_s_dice_do_not_roll_again_names_both_faces() -> None:
    steps, origins = journal()
    rolled = first_rolls(4, 1)[0]
    other = 1 if rolled != 1 else 2
    steps[1] = dataclasses.replace(steps[1], action={"face": other})
    with pytest.raises(RecordError) as exc:
        load(steps, origins)
    assert str(exc.value) == f"step 2: the table's dice re-rolled {rolled}, not the {other} written"


def test_a_journal_loaded_with_other_dice_is_refused_at_the_first_roll() -> None:
    steps, origins = journal()
    mine, theirs = first_rolls(4, 1)[0], first_rolls(4, 1, seed=SEED + 1)[0]
    assert mine != theirs  # seeds 7 and 8 differ at their first d4
    with pytest.raises(RecordError, match=f"^step 2: the table's dice re-rolled {theirs}, not the {mine}"):
        load(steps, origins, seed=SEED + 1)


@pytest.mark.parametrize(
    ("k", "origin", "words"),
    [
        (1, BY_HAND, "step 2: a face is written as entered by hand for a die the table rolls"),
        (2, TABLE_DICE, "step 3: the table is written to have rolled a die the players roll"),
        (2, PLAYER, "step 3: a die's step is written with the origin 'player'"),
        (3, TABLE_DICE, "step 4: seat 1's action is written with a die's origin (auto)"),
    ],
)
def test_a_journal_step_of_the_wrong_origin_is_refused(k: int, origin: str, words: str) -> None:
    steps, origins = journal()
    origins[k] = origin
    with pytest.raises(RecordError) as exc:
        load(steps, origins)
    assert str(exc.value) == words


def test_an_imported_face_is_read_as_written_and_draws_nothing_from_the_dice() -> None:
    steps, origins = journal()
    origins[1] = IMPORTED
    secret = first_rolls(4, 2)
    assert secret[0] != secret[1]  # seed 7's first two d4 rolls differ
    with pytest.raises(RecordError) as exc:
        load(steps, origins)
    # Step 2 is read as written, so step 5's die is the dice's first roll, not their second.
    assert str(exc.value) == f"step 5: the table's dice re-rolled {secret[0]}, not the {secret[1]} written"


# -- replaying a record: the same fold, faces read as written ---------------------------------------------


def test_a_record_replays_without_dice_and_a_changed_face_is_caught_by_its_digest() -> None:
    steps, _ = journal()
    ref = Referee(GAME, Script("toy", ("0", "s4", "d6", "1", "s4")))  # type: ignore[arg-type]
    taken = ref.load(steps)
    assert ref.steps == steps and [t.origin for t in taken] == [IMPORTED] * 5
    assert [e for t in taken for e in t.events][:3] == [Went(0), Rolled(first_rolls(4, 1)[0]), Rolled(3)]
    steps[2] = dataclasses.replace(steps[2], action={"face": 4})
    fresh = Referee(GAME, Script("toy", ("0", "s4", "d6", "1", "s4")))  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^step 2: state digest"):
        fresh.load(steps)  # a record counts its steps from 0
