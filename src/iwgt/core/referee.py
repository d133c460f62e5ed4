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

Undo takes back the last step, and only a step its seat may take back: a player's own action (on a screen,
or a piece moved by hand on a physical table; not the bot's, the timer's or an imported one) with no die
thrown, no other seat's action and nothing hidden revealed since (``undo_refusal`` says why not). The referee
keeps the state before each step of the trailing run of one seat's own actions (at most ``UNDO_DEPTH``), so
taking a step back is exact and needs no replay; loading a journal builds the same run, so a restart keeps
what may be taken back.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from iwgt.core.chance import DiceSource, Die
from iwgt.core.digest import digest
from iwgt.core.errors import GameError, IllegalAction, MalformedAction, RecordError
from iwgt.core.protocol import (
    CHANCE,
    JSON,
    ChanceOutcome,
    Event,
    Game,
    Result,
    Scenario,
    Seat,
    UndoHook,
    visible_events,
)

log = logging.getLogger(__name__)

TABLE_DICE = "auto"
"""The origin of a die the table rolled itself: loading re-rolls it and must get the same face."""

BY_HAND = "die"
"""The origin of a face a player read off a real die and entered."""

IMPORTED = "import"
"""The origin of a face read from an imported record: taken as written, never re-rolled."""

PLAYER = "player"
"""The origin of a seat's own action (the server also writes "bot" and "timer")."""

SENSOR = "sensor"
"""The origin of a seat's action made by a person lifting a piece on a physical table and putting it down."""

BY_A_PERSON = frozenset({PLAYER, SENSOR})
"""The origins of a person's own act: each may be taken back (a move made by hand is the mover's own)."""

DICE_ORIGINS = frozenset({TABLE_DICE, BY_HAND, IMPORTED})
"""The origins a die's step may have."""

UNDO_DEPTH = 64
"""How many of one seat's own steps in a row may be taken back, at most (the states before them are kept)."""

NOTHING = "nothing to undo"
DIE_THROWN = "a die was thrown since"
OTHER_SIDE = "the other side has acted"
REVEALED = "that step revealed hidden facts"
NO_LONGER = "that step can no longer be taken back"  # another seat acted after it (and was taken back)
GAME_OVER = "the game is over"
"""Why an undo is refused, in the words the protocol sends (``undo_refused``)."""

_NOT_YOURS = {
    "bot": "that step was the bot's",
    "timer": "the timer ended that phase",
    IMPORTED: "that step came with an imported record",
}


class UndoRefused(GameError):
    """An undo the bounds forbid: the message says why (a die thrown, the other side acted, ...)."""

    code = "undo_refused"


def _pick_first(n: int) -> int:
    return 0


def _pick_last(n: int) -> int:
    return n - 1


def _pick_middle(n: int) -> int:
    return n // 2


_PICKS = (_pick_first, _pick_last, _pick_middle)
"""The hidden facts' redraws the reveal check tries: fixed, so that its verdict is the same on every run."""


def reveals(game: Game[Any, Any], seats: int, before: Any, action: Any) -> bool:
    """Whether taking ``action`` in ``before`` tells any seat something hidden from it (then it stays taken).

    A game may forbid more itself with an ``undoable(before, action, after) -> bool`` method (False: the step
    stays taken); it never allows what the check below forbids. A game without hidden information reveals
    nothing; one with it is tested on every seat: the facts hidden from the seat are redrawn
    (``resample_hidden``, a few fixed draws), the action is applied there too, and the seat's observation,
    visible events, who acts next and the die awaited next must be the same as in the real game. If they
    differ, or the action is refused there, the step told the seat something, and it may not be taken back.
    Anything going wrong in the check counts as a reveal: undo is a convenience, never a leak.
    """
    try:
        return _reveals(game, seats, before, action)
    except GameError:
        return True
    except Exception:  # a redrawn state the game trips over: refuse the undo, keep the table playing
        log.exception("the undo check of %s failed; the step stays taken", game.facts.name)
        return True


def _seen(game: Game[Any, Any], seat: Seat, state: Any, events: list[Event]) -> tuple[Any, ...]:
    die = game.chance_outcomes(state) if game.to_move(state) == CHANCE else None
    return (
        game.observe(state, seat),
        [e.to_json() for e in visible_events(events, seat)],
        game.to_move(state),
        # The whole die as the players are shown it: its face labels and colour tell what is rolled, too.
        None if die is None or die.secret else (die.sides, die.purpose, die.faces, die.colour),
    )


def _reveals(game: Game[Any, Any], seats: int, before: Any, action: Any) -> bool:
    after, events = game.apply(before, action)
    if isinstance(game, UndoHook) and not game.undoable(before, action, after):
        return True
    if not game.facts.hidden_information:
        return False
    for seat in range(seats):
        seen = _seen(game, seat, after, events)
        for pick in _PICKS:
            other = game.resample_hidden(before, seat, pick)
            try:
                other_after, other_events = game.apply(other, action)
            except GameError:
                return True  # refused where the hidden facts differ: its acceptance told the seat something
            if seen != _seen(game, seat, other_after, other_events):
                return True
    return False


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
    before: Any = None  # the state before the step (kept while its seat may take it back)
    action: Any = None  # the game's action as applied (None for a die)


@dataclass(slots=True)
class _Back:
    """A step its seat may still take back: the state before it, and (once asked) whether it revealed."""

    before: Any
    action: Any
    reveals: bool | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    """A step taken back, not adopted yet: the version it starts from, and the state and digest it leaves."""

    base: int  # the referee's version before the undo (the undo leaves base - 1 steps)
    seat: Seat
    state: Any
    digest: str


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
        self.origins: list[str] = []  # each step's origin, beside it
        self._run: list[_Back] = []  # the last steps, all one seat's own actions, that it may take back

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
            for t in fold.taken:
                self._note(t)

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
                    action: Any = None
                    state, events = self.game.apply(self.state, ChanceOutcome(face))
                else:
                    if origin is not None and origin in DICE_ORIGINS:
                        raise RecordError(
                            f"step {n}: seat {step.seat}'s action is written with a die's origin ({origin})"
                        )
                    action = self.game.action_from_json(step.action)
                    state, events = self.game.apply(self.state, action)
            except RecordError:
                raise
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"step {n}: the recorded action was refused: {exc}") from None
            got = digest(self.game.state_to_json(state))
            if got != step.digest:
                raise RecordError(f"step {n}: state digest {got} differs from the recorded {step.digest}")
            t = Taken(step, origin if origin is not None else IMPORTED, events, self.state, action)
            self.state = state
            self._note(t)
            taken.append(t)
        return taken

    # -- undo: the last step taken back, within its bounds -----------------------------------------------

    def _note(self, t: Taken) -> None:
        """Log a step, and keep the state before it while its seat may take it back."""
        seat = t.step.seat
        if seat == CHANCE or t.origin not in BY_A_PERSON or t.before is None:
            self._run.clear()  # a die, a bot's, the timer's or an imported step: a barrier
        else:
            if self._run and self.steps and self.steps[-1].seat != seat:
                self._run.clear()  # another seat's action ends the run
            self._run.append(_Back(t.before, t.action))
            if len(self._run) > UNDO_DEPTH:
                del self._run[0]
        self.steps.append(t.step)
        self.origins.append(t.origin)

    def undo_refusal(self, seat: Seat, *, check_reveals: bool = True) -> str | None:
        """Why ``seat`` may not take back the last step now, or None if it may."""
        if self.is_over():
            return GAME_OVER
        if not self.steps:
            return NOTHING
        last, origin = self.steps[-1], self.origins[-1]
        if last.seat == CHANCE:
            return DIE_THROWN
        if last.seat != seat:
            return OTHER_SIDE
        if origin not in BY_A_PERSON:
            return _NOT_YOURS.get(origin, NOTHING)
        if not self._run:
            return NO_LONGER  # another seat acted after it (its step since taken back), or beyond UNDO_DEPTH
        back = self._run[-1]
        if check_reveals:
            if back.reveals is None:
                back.reveals = reveals(
                    self.game, len(self.game.seats(self.scenario)), back.before, back.action
                )
            if back.reveals:
                return REVEALED
        return None

    def propose_undo(self, seat: Seat, *, check_reveals: bool = True) -> Undo:
        """The last step taken back by ``seat``, not adopted yet; ``UndoRefused`` says why it may not be.

        ``check_reveals=False`` is for a journal's undo, accepted when it was made: loading honours it.
        """
        why = self.undo_refusal(seat, check_reveals=check_reveals)
        if why is not None:
            raise UndoRefused(why)
        before = self._run[-1].before
        return Undo(len(self.steps), seat, before, digest(self.game.state_to_json(before)))

    def adopt_undo(self, undo: Undo) -> None:
        """Make the undo the game's (after the server has committed it): the last step is gone."""
        if undo.base != len(self.steps):
            raise RuntimeError(f"an undo from version {undo.base} adopted at version {len(self.steps)}")
        self._run.pop()
        self.steps.pop()
        self.origins.pop()
        self.state = undo.state

    def undo(self, seat: Seat) -> Undo:
        """Take back ``seat``'s last step at once (the headless drivers); refused with ``UndoRefused``."""
        undo = self.propose_undo(seat)
        self.adopt_undo(undo)
        return undo

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
        self,
        fold: Fold,
        seat: Seat,
        logged: JSON,
        state: Any,
        origin: str,
        events: list[Event],
        action: Any = None,
    ) -> None:
        before, fold.state = fold.state, state
        step = Step(seat, logged, digest(self.game.state_to_json(state)))
        fold.taken.append(Taken(step, origin, events, before, action))

    def _take(self, fold: Fold, seat: Seat, action: Any, origin: str) -> None:
        if seat == CHANCE:
            raise IllegalAction("the dice are answered by the table's dice or a face entered, not as a seat")
        if self.game.to_move(fold.state) != seat:
            raise IllegalAction(f"it is not seat {seat}'s turn to act")
        logged = self.game.action_to_json(action)  # before applying: state and record move together
        state, events = self.game.apply(fold.state, action)
        self._push(fold, seat, logged, state, origin, events, action)

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
