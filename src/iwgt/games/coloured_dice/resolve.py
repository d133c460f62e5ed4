"""The pending stack at work: who acts next, which die is needed, what a seat is asked, and answering it.

The engine core calls, while ``state.pending`` is not empty (cd-spec 2, combat and resolution):

- ``to_move(state)``: CHANCE for a die, else the seat asked;
- ``die_needed(state)``: the ``Die`` of the top chance frame (None for a question);
- ``questions(state, seat)``: the answers the seat may give now (``Hero``, ``BearWound``, ``React``,
  ``Resist``);
- ``advance(state, action | ChanceOutcome)``: answers the top frame and works the stack on until it waits
  for a die or a question again (or is empty).

Every ``begin_*`` pushes frames and works the stack the same way, returning ``(state, events)``.
Frames of other modules: a ``Then`` runs the handler its module registered with ``register_then`` when it
reaches the top (after the frames pushed above it are done); a ``D6Roll`` whose effect is ``then`` gives its
face to the ``Then`` beneath it, any other effect runs the handler registered with ``register_d6``. The core's
own ``MoveRoll`` frames are not this module's: ``to_move``/``die_needed``/``advance`` refuse them (the core
handles its own frames before calling here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event, Seat
from iwgt.games.coloured_dice import fight, general_morale, heroes, morale_flow, shooting, wounds
from iwgt.games.coloured_dice.actions import Action, BearWound, Hero, React, Resist
from iwgt.games.coloured_dice.combat_common import CONTACT_EPS, prof, reaction_dice, reaction_die
from iwgt.games.coloured_dice.combat_events import ReactionRolled, WillSpent
from iwgt.games.coloured_dice.dice import die, face_value
from iwgt.games.coloured_dice.pending import (
    AfterAttack,
    Attack,
    BearAsk,
    BearRoll,
    D6Roll,
    FightStep,
    HeroAsk,
    MoraleRoll,
    Pending,
    PoolRoll,
    ReactAsk,
    ReactRoll,
    ResistAsk,
    Then,
    Wounds,
)
from iwgt.games.coloured_dice.preview import Preview, fight_preview, previews, shot_preview
from iwgt.games.coloured_dice.state import CdState
from iwgt.geometry.trays import tray_gap

Step = tuple[CdState, list[Event]]
"""A new state and the events on the way to it."""
ThenHandler = Callable[[CdState, Then, list[Event]], CdState]
"""Runs a continuation: the state (the ``Then`` already popped), the frame, the events list to extend."""
D6Handler = Callable[[CdState, D6Roll, int, list[Event]], CdState]
"""Runs a d6 event: the state (the ``D6Roll`` already popped), the frame, the face 1..6, the events."""

_THEN: dict[str, ThenHandler] = {}
_D6: dict[str, D6Handler] = {}
MAX_SETTLE: Final = 10_000
"""A guard against a frame that would never leave the top (a bug, not a rule)."""


def register_then(tag: str, handler: ThenHandler) -> None:
    """Register the handler a ``Then`` of this tag runs (a module calls it once, at import)."""
    _THEN[tag] = handler


def register_d6(effect: str, handler: D6Handler) -> None:
    """Register the handler a ``D6Roll`` of this effect runs with its face."""
    _D6[effect] = handler


# --- who acts, which die, what is asked ------------------------------------------------------------------


def _top(state: CdState) -> Pending:
    top = state.top
    if top is None:
        raise IllegalAction("nothing is waiting for a die or an answer")
    if not isinstance(top, _FRAMES):
        raise IllegalAction("the pending step is the engine core's, not combat's")
    return top


def to_move(state: CdState) -> Seat:
    """CHANCE when the top frame waits for a die, else the seat it asks."""
    top = _top(state)
    if isinstance(top, PoolRoll | MoraleRoll | BearRoll | ReactRoll | D6Roll):
        return CHANCE
    if isinstance(top, HeroAsk | BearAsk | ReactAsk | ResistAsk):
        return top.seat
    raise IllegalAction(f"{type(top).__name__} waits for nothing (the stack was not worked on)")


def die_needed(state: CdState) -> Die | None:
    """The die the top frame waits for (None when it waits for an answer)."""
    top = _top(state)
    if isinstance(top, PoolRoll):
        a = top.attack
        colour = a.dice[len(a.faces)]
        return die(colour, f"{_purpose(state, a)}: die {len(a.faces) + 1} of {len(a.dice)} ({colour})")
    if isinstance(top, BearRoll):
        return die(top.colour, f"bear wound of {state.unit(top.unit).name} ({top.wounds.wounds} wounds)")
    if isinstance(top, ReactRoll):
        name = state.unit(top.unit).name
        return die(reaction_die(), f"reaction of {name}: die {len(top.faces) + 1} of {top.dice}")
    if isinstance(top, MoraleRoll):
        return Die(6, f"morale test of {state.unit(top.unit).name}: die {len(top.faces) + 1} of 2")
    if isinstance(top, D6Roll):
        return Die(6, top.purpose)
    return None


def _purpose(state: CdState, a: Attack) -> str:
    src, tgt = state.unit(a.source).name, state.unit(a.target).name
    what = {"fight": "fight", "shot": "shot", "spell": "spell", "stand_and_shoot": "stand and shoot"}[a.kind]
    return f"{what}: {src} at {tgt} (armour {a.armour})"


def questions(state: CdState, seat: Seat) -> list[Action]:
    """The answers ``seat`` may give to the top frame now (empty when it is not asked)."""
    top = state.top
    if top is None or not isinstance(top, HeroAsk | BearAsk | ReactAsk | ResistAsk) or top.seat != seat:
        return []
    if isinstance(top, HeroAsk):
        lo, hi = heroes.hero_range(state, top)
        return [Hero(k) for k in range(lo, hi + 1)]
    if isinstance(top, BearAsk):
        return [BearWound(True), BearWound(False)]
    if isinstance(top, ReactAsk):
        return [React(True), React(False)]
    u = state.unit(top.unit)
    can = u.will is not None and u.will >= top.cost
    return [Resist(True), Resist(False)] if can else [Resist(False)]


# --- answering ---------------------------------------------------------------------------------------------


def advance(state: CdState, answer: Action | ChanceOutcome) -> Step:
    """Answer the top frame with a die face or a seat's answer, then work the stack on."""
    top = _top(state)
    events: list[Event] = []
    if isinstance(answer, ChanceOutcome):
        if to_move(state) != CHANCE:
            raise IllegalAction("a die was rolled, but a player is asked a question")
        face = answer.face
        if not 1 <= face <= 6:
            raise IllegalAction(f"face {face} is not on a six-sided die")
        state = _chance(state, top, face, events)
    else:
        asked = to_move(state)
        if asked == CHANCE:
            raise IllegalAction("the dice are to be rolled now, not a question answered")
        if answer not in questions(state, asked):
            raise IllegalAction(_refusal(state, top, answer))
        state = _answer(state, top, answer, events)
    return settle(state, events), events


_ASKED: Final = {
    HeroAsk: "hero points: hero {points}",
    BearAsk: "a bear wound: bear_wound {roll}",
    ReactAsk: "a reaction: react {roll}",
    ResistAsk: "resisting a spell: resist {spend}",
}
"""What each question asks, and the answer that fits it."""


def _refusal(state: CdState, top: Pending, answer: Action) -> str:
    """Why an answer is not on offer: the range (or the Will) when it answers the question asked, else the
    question that is asked."""
    if isinstance(top, HeroAsk) and isinstance(answer, Hero):
        why = heroes.hero_refusal(state, top, answer.points)
        if why is not None:
            return why
    if isinstance(top, ResistAsk) and isinstance(answer, Resist):
        u = state.unit(top.unit)
        return f"CD-CH-25: resisting costs {top.cost} Will, more than the {u.will or 0} left to {u.name}"
    asked = _ASKED.get(type(top), type(top).__name__)
    return f"{type(answer).__name__} is not an answer on offer now: the question is {asked}"


def _chance(state: CdState, top: Pending, face: int, events: list[Event]) -> CdState:
    if isinstance(top, PoolRoll):
        a = replace(top.attack, faces=(*top.attack.faces, face))
        if not a.rolled:
            return state.with_top(PoolRoll(a))
        return wounds.pool_done(state.pop(), a, events)
    if isinstance(top, BearRoll):
        return wounds.bear_face(state.pop(), top, face, events)
    if isinstance(top, MoraleRoll):
        roll = replace(top, faces=(*top.faces, face))
        if len(roll.faces) < 2:
            return state.with_top(roll)
        return morale_flow.dice_done(state.pop(), roll, events)
    if isinstance(top, ReactRoll):
        react = replace(top, faces=(*top.faces, face))
        if len(react.faces) < react.dice:
            return state.with_top(react)
        return _reaction_done(state.pop(), react, events)
    if isinstance(top, D6Roll):
        state = state.pop()
        if top.effect == "then":
            below = state.top
            if not isinstance(below, Then):
                raise IllegalAction("a d6 for a continuation with no continuation beneath it")
            return state.with_top(replace(below, results=(*below.results, face)))
        if top.effect in general_morale.D6_EFFECTS:
            return general_morale.d6_event(state, top, face, events)
        handler = _D6.get(top.effect)
        if handler is None:
            raise IllegalAction(f"no rule handles the d6 for {top.effect!r}")
        return handler(state, top, face, events)
    raise IllegalAction(f"{type(top).__name__} does not wait for a die")


def _answer(state: CdState, top: Pending, answer: Action, events: list[Event]) -> CdState:
    if isinstance(top, HeroAsk) and isinstance(answer, Hero):
        return heroes.hero_answer(state.pop(), top, answer.points, events)
    if isinstance(top, BearAsk) and isinstance(answer, BearWound):
        if answer.roll:
            return state.with_top(BearRoll(top.seat, top.unit, top.colour, top.wounds))
        return state.with_top(replace(top.wounds, declined=True))
    if isinstance(top, ReactAsk) and isinstance(answer, React):
        state = state.pop()
        if answer.roll:
            return state.push(ReactRoll(top.seat, top.unit, top.charger, top.dice))
        return state
    if isinstance(top, ResistAsk) and isinstance(answer, Resist):
        state = state.pop()
        if answer.spend:
            state = spend_will(state, top.unit, top.cost, events)
        below = state.top
        if isinstance(below, Then):
            state = state.with_top(replace(below, results=(*below.results, answer.spend)))
        return state
    raise IllegalAction(f"{type(answer).__name__} does not answer {type(top).__name__}")


def settle(state: CdState, events: list[Event]) -> CdState:
    """Work the frames that wait for nothing until the top waits for a die or an answer (or none is left)."""
    for _ in range(MAX_SETTLE):
        top = state.top
        if top is None or not isinstance(top, _FRAMES):
            return state
        if isinstance(top, Wounds):
            state = wounds.wounds_step(state, top, events)
        elif isinstance(top, AfterAttack):
            state = wounds.after_attack(state.pop(), top, events)
        elif isinstance(top, FightStep):
            state = fight.fight_step(state, top, events)
        elif isinstance(top, Then):
            handler = _THEN.get(top.tag)
            if handler is None:
                raise IllegalAction(f"no rule continues {top.tag!r}")
            state = handler(state.pop(), top, events)
        elif isinstance(top, PoolRoll) and top.attack.rolled:
            state = wounds.pool_done(state.pop(), top.attack, events)
        else:
            return state
    raise RuntimeError("the pending stack did not settle")


_FRAMES: Final = (
    PoolRoll,
    MoraleRoll,
    HeroAsk,
    Wounds,
    BearAsk,
    BearRoll,
    AfterAttack,
    FightStep,
    ReactAsk,
    ReactRoll,
    D6Roll,
    ResistAsk,
    Then,
)


# --- beginnings ---------------------------------------------------------------------------------------------


def begin_attack(state: CdState, attack: Attack) -> Step:
    """Roll an attack pool (magic's spell attacks use it): one chance node per die, then hero points, wounds,
    bear wound, casualties and, for a shot or a spell, the target's morale test."""
    events: list[Event] = []
    state = wounds.push_attack(state, attack, events)
    return settle(state, events), events


def begin_fight(state: CdState, unit_id: int, target_id: int) -> Step:
    """The ``fight`` action (CD-FI): the faster side strikes, the survivors strike back, morale after.

    The core has already checked the action's own bookkeeping (actions left, one attack a turn); this checks
    the two units are enemies in contact and on the table."""
    events: list[Event] = []
    state = fight.push_fight(state, unit_id, target_id, events)
    return settle(state, events), events


def begin_shot(state: CdState, unit_id: int, target_id: int, *, reaction: bool = False) -> Step:
    """The ``shoot`` action (CD-SH, CD-RA), or a reaction's stand and shoot (``reaction``: at once, outside
    its turn, CD-MS-14 designed). Refuses a shot out of sight or beyond the longest range band."""
    events: list[Event] = []
    state = shooting.push_shot(state, unit_id, target_id, reaction=reaction, events=events)
    return settle(state, events), events


def begin_morale_test(state: CdState, unit_id: int, *, close_combat: bool, reason: str) -> Step:
    """A morale test (2d6, CD-MO): ``reason`` "rally" makes a shaken unit steady when passed; "forced" is a
    spell's; "fight"/"shot"/"spell" are the tests after losses."""
    events: list[Event] = []
    state = morale_flow.push_test(state, unit_id, close_combat=close_combat, reason=reason)
    return settle(state, events), events


def begin_d6(state: CdState, purpose: str, effect: str, *, seat: int | None = None) -> Step:
    """One ordinary d6 for an event (a terrain tax with ``effect="then"`` over a ``Then``; a general-morale
    row ``gm_leader`` / ``gm_own_fire`` for ``seat``; a registered effect)."""
    events: list[Event] = []
    state = state.push(D6Roll(purpose, effect, seat))
    return settle(state, events), events


def push_then(state: CdState, tag: str, data: tuple[int | float | str, ...] = ()) -> CdState:
    """A continuation on the stack: push it first, then begin what must happen before it."""
    return state.push(Then(tag, data))


def begin_reaction(state: CdState, unit_id: int, charger_id: int) -> Step:
    """A charged unit may react (CD-RE-01/02): ``reaction_dice`` (distance / 8 rounded up) yellow dice,
    asked of its owner.

    Called by the core when a charge is declared, before the charger moves (the distance is the trays' gap at
    the start of the charge); push the charge's own ``Then`` first so that it completes after the reaction.
    No dice (trays touching): nothing is asked."""
    u, c = state.unit(unit_id), state.unit(charger_id)
    dice = reaction_dice(tray_gap(u.tray, c.tray))
    if dice <= 0 or not u.on_table:
        return state, []
    events: list[Event] = []
    state = state.push(ReactAsk(u.seat, u.id, c.id, dice))
    return settle(state, events), events


def begin_resist(state: CdState, unit_id: int, cost: int, spell: str) -> Step:
    """Ask the owner of a unit with a printed-Will character whether it spends ``cost`` Will to cancel a
    spell (CD-CH-25 designed). Push the spell's ``Then`` first: the answer (a bool) goes into its results."""
    u = state.unit(unit_id)
    events: list[Event] = []
    state = state.push(ResistAsk(u.seat, u.id, cost, spell))
    return settle(state, events), events


def spend_will(
    state: CdState, unit_id: int, amount: int, events: list[Event], *, leave: bool = True
) -> CdState:
    """Spend Will (a spell, a resist): at 0 or less the character leaves the game, counting as destroyed (a
    general so lost is the death of the army leader) (CD-CH-23/24). ``leave=False`` (a cast): it stays until
    its spell has resolved; push ``WILL_OUT`` with ``push_will_out`` beneath the spell's frames."""
    u = state.unit(unit_id)
    will = (u.will if u.will is not None else 0) - amount
    state = state.with_unit(replace(u, will=will))
    events.append(WillSpent(u.id, amount, will))
    if will <= 0 and leave:
        state = general_morale.lose_unit(state, u.id, "will", events)
    return state


WILL_OUT: Final = "will_out"
"""The continuation that takes a caster at 0 Will off the table once its spell has resolved (CD-CH-24)."""


def push_will_out(state: CdState, unit_id: int) -> CdState:
    """Beneath a spell's frames: its caster leaves after the spell when its Will is 0 or less (CD-CH-24)."""
    return push_then(state, WILL_OUT, (unit_id,))


def _will_out(state: CdState, then: Then, events: list[Event]) -> CdState:
    u = state.unit(int(then.data[0]))
    if u.on_table and u.will is not None and u.will <= 0:
        state = general_morale.lose_unit(state, u.id, "will", events)
    return state


register_then(WILL_OUT, _will_out)


def _reaction_done(state: CdState, roll: ReactRoll, events: list[Event]) -> CdState:
    """Over the slowness succeeds (CD-RE-01): a unit with a missile weapon stands and shoots at the charger
    at once; one without strikes first against that charger this turn (CD-MS-14 designed)."""
    u = state.unit(roll.unit)
    total = sum(_number(reaction_die(), f) for f in roll.faces)
    slowness = prof(u).slowness
    success = total > slowness
    effect = "none"
    if success:
        if shooting.can_stand_and_shoot(state, u.id, roll.charger):
            effect = "stand_and_shoot"
        else:
            effect = "strike_first"
            state = state.with_unit(replace(u, strikes_first_vs=roll.charger))
    events.append(ReactionRolled(u.id, roll.charger, roll.faces, total, slowness, success, effect))
    if effect == "stand_and_shoot":
        state = shooting.push_shot(state, u.id, roll.charger, reaction=True, events=events)
    return state


def _number(colour: str, index: int) -> int:
    v = face_value(colour, index)
    return v if isinstance(v, int) else 0


__all__ = [
    "CONTACT_EPS",
    "Preview",
    "Step",
    "advance",
    "begin_attack",
    "begin_d6",
    "begin_fight",
    "begin_morale_test",
    "begin_reaction",
    "begin_resist",
    "begin_shot",
    "die_needed",
    "fight_preview",
    "previews",
    "push_then",
    "push_will_out",
    "questions",
    "register_d6",
    "register_then",
    "settle",
    "shot_preview",
    "spend_will",
    "to_move",
]
