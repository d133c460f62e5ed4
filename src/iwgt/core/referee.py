"""The referee: one game's state, who acts, every action applied, the dice answered, every step digested.

Every driver plays through it: the table server, ``iwgt simulate``, the bots' tests, record replays and
resumed journals. A chance node is answered by the table's own dice (a ``DiceSource``), or, when the players
roll real dice (``by_hand``), it waits as a pending step: ``awaited_die`` names the die, and entering its face
resumes the game. A secret die (the plague's carrier, a deal) is always rolled by the table, since no player
may see it.

Work is done in folds: a ``Fold`` is a run of steps computed from the state now without changing it, adopted
afterwards (the server commits it to its journal first; the headless drivers adopt it at once). Loading a
journal and replaying a record are the same fold over written steps, with different checks: a journal's
steps carry their origin, and the dice the table rolled are rolled again and must come up the same.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from iwgt.core.chance import DiceSource, Die
from iwgt.core.digest import digest
from iwgt.core.errors import GameError, IllegalAction, MalformedAction, RecordError
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Game, Result, Scenario, Seat

TABLE_DICE = "auto"
"""The origin of a die the table rolled itself: loading re-rolls it and must get the same face."""

BY_HAND = "die"
"""The origin of a face a player read off a real die and entered."""

IMPORTED = "import"
"""The origin of a face read from an imported record: taken as written, never re-rolled."""

PLAYER = "player"
"""The origin of a seat's own action (the server also writes "bot" and "timer")."""

DICE_ORIGINS = frozenset({TABLE_DICE, BY_HAND, IMPORTED})
"""The origins a die's step may have."""


@dataclass(slots=True)
class Step:
    """One logged action: who took it (CHANCE for the dice), the action, and the digest of the state after."""

    seat: Seat
    action: JSON
    digest: str

    def to_json(self) -> JSON:
        """The step as JSON."""
        return {"seat": self.seat, "action": self.action, "digest": self.digest}


@dataclass(slots=True)
class Taken:
    """A step as the referee took it: the logged step, where it came from, and what happened."""

    step: Step
    origin: str
    events: list[Event]


@dataclass(slots=True)
class Fold:
    """Steps folded from the referee's state but not adopted yet; ``adopt`` makes them the game's."""

    base: int  # the referee's version the fold starts from
    state: Any  # the state after the fold's steps
    taken: list[Taken] = field(default_factory=list)
    dice: DiceSource | None = None  # the table's dice before this fold first rolled them (to give back)

    @property
    def version(self) -> int:
        """The version the game reaches once the fold is adopted."""
        return self.base + len(self.taken)

    @property
    def events(self) -> list[Event]:
        """Everything that happened in the fold, in order."""
        return [e for t in self.taken for e in t.events]


class Referee:
    """Holds one game's state and its steps; validates who acts, applies, answers the dice, digests."""

    def __init__(
        self,
        game: Game[Any, Any],
        scenario: Scenario,
        dice: DiceSource | None = None,
        *,
        by_hand: bool = False,
    ) -> None:
        self.game = game
        self.scenario = scenario
        self.dice = dice  # the table's dice; None for a referee that only reads faces (a replay)
        self.by_hand = by_hand  # the players roll every die that is not secret
        self.state: Any = game.initial_state(scenario)
        self.steps: list[Step] = []  # extended in place: a Match's record shares this list

    # -- where the game stands ----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many steps the game has taken."""
        return len(self.steps)

    @property
    def to_move(self) -> Seat | None:
        """Who acts next: a seat, CHANCE for the dice, None when the game is over."""
        return self.game.to_move(self.state)

    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.game.is_terminal(self.state)

    def result(self) -> Result | None:
        """The result, once the game is over."""
        return self.game.result(self.state)

    def awaited_die(self) -> Die | None:
        """The die the players must roll by hand, if the game waits for one (never a secret die)."""
        return self._awaited(self.state)

    def _awaited(self, state: Any) -> Die | None:
        if not self.by_hand or self.game.to_move(state) != CHANCE:
            return None
        die = self.game.chance_outcomes(state)
        return None if die is None or die.secret else die

    # -- folds: computed from the state now, the game's only once adopted --------------------------------

    def propose(self, seat: Seat, action: Any, origin: str = PLAYER, *, then_chance: bool = True) -> Fold:
        """A seat's action and the table's dice after it; a refusal raises and changes nothing."""
        fold = self._fold()
        self._take(fold, seat, action, origin)
        if then_chance:
            self._roll_or_give_back(fold)
        return fold

    def propose_face(self, face: Any) -> Fold:
        """The face of the die the players rolled by hand, and the table's dice after it."""
        fold = self._fold()
        self._enter(fold, face)
        self._roll_or_give_back(fold)
        return fold

    def propose_chance(self) -> Fold:
        """The table's dice for every pending chance node, up to a die rolled by hand (a game's opening)."""
        fold = self._fold()
        self._roll_or_give_back(fold)
        return fold

    def adopt(self, fold: Fold) -> None:
        """Make the fold's steps the game's (after the server has committed them)."""
        if fold.base != len(self.steps):
            raise RuntimeError(f"a fold from version {fold.base} adopted at version {len(self.steps)}")
        if fold.taken:
            self.state = fold.state
            self.steps.extend(t.step for t in fold.taken)

    def give_back(self, fold: Fold) -> None:
        """Undo the fold's rolls of the table's dice (its commit failed): the next roll is the same face.

        Otherwise the live dice would run ahead of the journal, and the table could not be resumed ("step N:
        the table's dice re-rolled 2, not 1") after the next restart.
        """
        if fold.dice is not None:
            self.dice, fold.dice = fold.dice, None

    # -- at once: the headless drivers --------------------------------------------------------------------

    def act(self, seat: Seat, action: Any, *, origin: str = PLAYER, then_chance: bool = True) -> list[Event]:
        """Take a seat's action, then answer the chance nodes after it; a refusal raises and changes nothing.

        Should the dice fail (scripted dice run out), the action and the faces rolled before stay taken.
        """
        fold = self._fold()
        self._take(fold, seat, action, origin)
        try:
            if then_chance:
                self._roll(fold, undo=False)
        finally:
            self.adopt(fold)
        return fold.events

    def enter_face(self, face: Any) -> list[Event]:
        """Enter the face of the awaited die, then answer the table's dice after it."""
        fold = self._fold()
        self._enter(fold, face)
        try:
            self._roll(fold, undo=False)
        finally:
            self.adopt(fold)
        return fold.events

    def resolve_chance(self) -> list[Event]:
        """Answer every pending chance node with the table's dice, up to a die the players roll by hand."""
        fold = self._fold()
        try:
            self._roll(fold, undo=False)
        finally:
            self.adopt(fold)
        return fold.events

    # -- reading written steps: a record, a journal -------------------------------------------------------

    def load(
        self,
        steps: Iterable[Step],
        origins: Iterable[str] | None = None,
        *,
        source: str = "the record",
        first: int = 0,
    ) -> list[Taken]:
        """Fold written steps into the game, checking each; a RecordError names the first that fails.

        Every step must be taken by the seat to act and reproduce its digest. With ``origins`` (a journal's),
        a die the table rolled (``TABLE_DICE``) is rolled again with the table's dice and must come up the
        same, a face entered by hand must be for a die the players roll, and a seat's action must not claim to
        be a die. Without them (a record), faces are read as written. ``first`` is the first step's number in
        messages: a record counts from 0, a journal's sequence from 1.
        """
        pairs: Iterator[tuple[Step, str | None]] = (
            zip(steps, origins, strict=True) if origins is not None else ((s, None) for s in steps)
        )
        taken: list[Taken] = []
        for n, (step, origin) in enumerate(pairs, start=first):
            to_move = self.game.to_move(self.state)
            if step.seat != to_move:
                raise RecordError(
                    f"step {n}: {source} says {_who(step.seat)} acted, but {_who(to_move)} was to act"
                )
            try:
                if step.seat == CHANCE:
                    face = step.action.get("face")
                    if not isinstance(face, int) or isinstance(face, bool):
                        raise ValueError(f"a die face must be a whole number, got {face!r}")
                    self._check_die(n, origin, face)
                    state, events = self.game.apply(self.state, ChanceOutcome(face))
                else:
                    if origin is not None and origin in DICE_ORIGINS:
                        raise RecordError(
                            f"step {n}: seat {step.seat}'s action is written with a die's origin ({origin})"
                        )
                    state, events = self.game.apply(self.state, self.game.action_from_json(step.action))
            except RecordError:
                raise
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"step {n}: the recorded action was refused: {exc}") from None
            got = digest(self.game.state_to_json(state))
            if got != step.digest:
                raise RecordError(f"step {n}: state digest {got} differs from the recorded {step.digest}")
            self.state = state
            self.steps.append(step)
            taken.append(Taken(step, origin if origin is not None else IMPORTED, events))
        return taken

    def _check_die(self, n: int, origin: str | None, face: int) -> None:
        """A journal's die: rolled again if the table rolled it, else entered where the players roll."""
        if origin is None or origin == IMPORTED:
            return
        die = self.game.chance_outcomes(self.state)
        if die is None:
            raise RecordError(f"step {n}: a die is written where the game names none")
        by_hand = self.by_hand and not die.secret
        if origin == TABLE_DICE:
            if by_hand:
                raise RecordError(f"step {n}: the table is written to have rolled a die the players roll")
            if self.dice is None:
                raise RecordError(f"step {n}: the table's dice are unknown here: its roll cannot be checked")
            rolled = self.dice.roll(die)
            if rolled != face:
                raise RecordError(f"step {n}: the table's dice re-rolled {rolled}, not the {face} written")
        elif origin == BY_HAND:
            if not by_hand:
                raise RecordError(f"step {n}: a face is written as entered by hand for a die the table rolls")
        else:
            raise RecordError(f"step {n}: a die's step is written with the origin {origin!r}")

    # -- the fold's own moves ----------------------------------------------------------------------------

    def _fold(self) -> Fold:
        return Fold(base=len(self.steps), state=self.state)

    def _push(
        self, fold: Fold, seat: Seat, logged: JSON, state: Any, origin: str, events: list[Event]
    ) -> None:
        fold.state = state
        step = Step(seat, logged, digest(self.game.state_to_json(state)))
        fold.taken.append(Taken(step, origin, events))

    def _take(self, fold: Fold, seat: Seat, action: Any, origin: str) -> None:
        if seat == CHANCE:
            raise IllegalAction("the dice are answered by the table's dice or a face entered, not as a seat")
        if self.game.to_move(fold.state) != seat:
            raise IllegalAction(f"it is not seat {seat}'s turn to act")
        logged = self.game.action_to_json(action)  # before applying: state and record move together
        state, events = self.game.apply(fold.state, action)
        self._push(fold, seat, logged, state, origin, events)

    def _enter(self, fold: Fold, face: Any) -> None:
        die = self._awaited(fold.state)
        if die is None:
            raise IllegalAction("the table is not waiting for a die to be rolled by hand")
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= die.sides:
            raise MalformedAction(f"'face' must be a whole number from 1 to {die.sides}, got {face!r}")
        state, events = self.game.apply(fold.state, ChanceOutcome(face))
        self._push(fold, CHANCE, {"face": face}, state, BY_HAND, events)

    def _roll(self, fold: Fold, *, undo: bool) -> None:
        """Answer chance nodes with the table's dice, up to a die the players roll by hand."""
        while self.game.to_move(fold.state) == CHANCE:
            die = self.game.chance_outcomes(fold.state)
            assert die is not None, "a chance node must name its die"
            if self.by_hand and not die.secret:
                return  # a pending step: the game waits for its face (awaited_die)
            if self.dice is None:
                raise RuntimeError("this referee has no dice of its own: it only reads written faces")
            if undo and fold.dice is None:
                fold.dice = copy.deepcopy(self.dice)
            face = self.dice.roll(die)
            state, events = self.game.apply(fold.state, ChanceOutcome(face))
            self._push(fold, CHANCE, {"face": face}, state, TABLE_DICE, events)

    def _roll_or_give_back(self, fold: Fold) -> None:
        try:
            self._roll(fold, undo=True)
        except BaseException:
            self.give_back(fold)
            raise


def _who(seat: Seat | None) -> str:
    if seat == CHANCE:
        return "the dice"
    return "nobody (the game is over)" if seat is None else f"seat {seat}"
