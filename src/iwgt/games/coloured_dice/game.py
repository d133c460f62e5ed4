"""The Coloured-Dice Fantasy Battle Rules behind the engine's one protocol.

While ``state.pending`` holds anything, the top frame decides who acts: the core's own ``MoveRoll`` (a move's
terrain dice) is answered by ``movement.roll_terrain``; every other frame is combat's, answered by
``resolve.advance`` (dice, hero points, bear wounds, reactions, resisting). Otherwise the seat whose turn it
is gives its units orders (CD-AC-01/02): move, charge, reform, rally (``movement``), fight, shoot (combat's
``resolve.begin_*``), cast and release (``magic``), until it ends its turn (``flow.end_turn``). The core
keeps the actions' books (two a turn, one attack a turn) before handing an attack over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

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
from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice import flow, magic, movement
from iwgt.games.coloured_dice.facts import FACTS, RULES_VERSION
from iwgt.games.coloured_dice.magic_bonus import wound_immune
from iwgt.games.coloured_dice.observe import observe, phase, state_to_json
from iwgt.games.coloured_dice.scenario import CdScenario, load_scenario, parse_scenario, scenario_names
from iwgt.games.coloured_dice.shooting import immune_refusal
from iwgt.games.coloured_dice.state import CdState, MoveRoll, Unit

Step = tuple[CdState, list[Event]]

TERRAIN_DIE_PURPOSE = "terrain"
"""The purpose of a move's terrain d6 (CD-TE)."""


def _scenario(scenario: Scenario) -> CdScenario:
    if not isinstance(scenario, CdScenario):
        raise TypeError("a Coloured-Dice scenario is needed")
    return scenario


def _attack(unit: Unit) -> Unit:
    """The unit with its one attack of the turn used (an action spent) (CD-AC-02)."""
    return replace(unit, actions_left=unit.actions_left - 1, attacked=True)


def _has_missile(unit: Unit) -> bool:
    from iwgt.games.coloured_dice.rules import rules

    p = movement.profile_of(unit)
    table = rules().weapons
    return any(getattr(table.get(k), "missile", None) is not None for k in p.weapons)


def _why_not_attack(state: CdState, seat: int, uid: int) -> Unit | str:
    got = movement.why_not_act(state, seat, uid)
    if isinstance(got, str):
        return got
    if got.attacked:
        return f"CD-AC-02: one attack (fight, shot or spell) a turn ({got.name}: already made)"
    return got


def _shot_refusal(state: CdState, unit: Unit, target_id: int) -> str | None:
    """Why the unit may not shoot at the target now (engaged, no missile, out of sight or range)."""
    if movement.engaged(state, unit):
        return f"CD-SH: no shooting while engaged ({unit.name}: engaged; designed)"
    if not _has_missile(unit):
        return f"CD-SH: shooting needs a missile weapon ({unit.name}: none)"
    if not 0 <= target_id < len(state.units):
        return f"there is no unit {target_id}"
    target = state.unit(target_id)
    if target.seat == unit.seat or not target.on_table:
        return f"CD-SH: the target must be an enemy unit on the table ({target.name}: not one)"
    return None


def _fight_refusal(state: CdState, unit: Unit, target_id: int) -> str | None:
    if not 0 <= target_id < len(state.units):
        return f"there is no unit {target_id}"
    target = state.unit(target_id)
    if target.seat == unit.seat or not target.on_table:
        return f"CD-FI: the target must be an enemy unit on the table ({target.name}: not one)"
    if target_id not in movement.engaged(state, unit):
        return f"CD-FI-01: a fight needs contact ({unit.name} and {target.name}: not in contact)"
    if wound_immune(state, target):
        return immune_refusal(target)
    return None


def _shot_ok(state: CdState, unit: Unit, target_id: int) -> bool:
    """Whether a shot at the target may be taken (combat's plan: in sight and within the longest band)."""
    if _shot_refusal(state, unit, target_id) is not None:
        return False
    from iwgt.games.coloured_dice.shooting import plan_shot

    try:
        plan_shot(state, unit.id, target_id)
    except IllegalAction:
        return False
    return True


class CdGame:
    """The Coloured-Dice Fantasy Battle Rules: two sides, alternate turns, eight coloured dice."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS

    def __init__(self) -> None:
        movement.register()

    # ------------------------------------------------------------ scenarios

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> CdScenario:
        """A shipped scenario by name, or a file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> CdScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """Two seats, one per side."""
        return _scenario(scenario).seat_names()

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it."""
        s = _scenario(scenario)
        spec = s.spec
        a, b = (len(side.units) for side in spec.sides)
        return ScenarioCard(
            name=s.name,
            title=spec.title,
            description=spec.description,
            seats=s.seat_names(),
            turns=spec.rounds,
            table=f'{spec.width:g}" x {spec.height:g}"',
            forces=f"{a} / {b} units",
            turn_word="rounds",  # a battle lasts rounds (both sides' turns), not turns
        )

    # ------------------------------------------------------------ the state

    def initial_state(self, scenario: Scenario) -> CdState:
        """Both armies deployed; the first seat's turn of round 1."""
        return flow.new_state(_scenario(scenario))

    def to_move(self, state: CdState) -> Seat | None:
        """CHANCE while a die is needed, the asked seat for a question, else the seat whose turn it is."""
        if state.over is not None:
            return None
        if state.pending:
            if isinstance(state.top, MoveRoll):
                return CHANCE
            from iwgt.games.coloured_dice import resolve

            return resolve.to_move(state)
        return state.seat

    def status(self, state: CdState) -> Status:
        """Phase (turn, roll, decide, over), round, who acts and whose turn it is."""
        return Status(phase(state), state.round, self.to_move(state), None if state.over else state.seat)

    def chance_outcomes(self, state: CdState) -> Die | None:
        """The die the top pending frame waits for (a terrain d6, a coloured die, a 2d6 half...)."""
        if state.over is not None or not state.pending:
            return None
        top = state.top
        if isinstance(top, MoveRoll):
            piece = state.piece(top.dice[len(top.rolled)])
            unit = state.unit(top.unit)
            return Die(6, f"{TERRAIN_DIE_PURPOSE}: {unit.name} through {piece.name} (inches lost)")
        from iwgt.games.coloured_dice import resolve

        return resolve.die_needed(state)

    def is_terminal(self, state: CdState) -> bool:
        """Whether the battle is over."""
        return state.over is not None

    def result(self, state: CdState) -> Result | None:
        """The winner (or a draw) and why; None while the battle goes on."""
        return state.over

    # ------------------------------------------------------------ views

    def observe(self, state: CdState, seat: Seat | None) -> JSON:
        """Everything on the table (nothing is hidden), with the seat's questions and previews."""
        return observe(state, seat)

    def state_to_json(self, state: CdState) -> JSON:
        """The whole state as canonical JSON."""
        return state_to_json(state)

    def resample_hidden(self, state: CdState, seat: Seat | None, pick: Callable[[int], int]) -> CdState:
        """Nothing is hidden in this game: the state itself."""
        return state

    def action_view(self, action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
        """Every action is public."""
        return act.action_to_json(action)

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, state: CdState, seat: Seat) -> Sequence[act.Action]:
        """A finite, modest list: the answers to a question, or each unit's offered orders and end_turn."""
        if state.over is not None or self.to_move(state) != seat:
            return []
        if state.pending:
            from iwgt.games.coloured_dice import resolve

            return resolve.questions(state, seat)
        out: list[act.Action] = []
        for u in state.on_table(seat):
            if u.actions_left > 0:
                out.extend(self._unit_actions(state, u))
        out.append(act.EndTurn())
        return out

    def _unit_actions(self, state: CdState, u: Unit) -> list[act.Action]:
        out: list[act.Action] = []
        foes = movement.engaged(state, u)
        if not u.attacked:
            out.extend(act.Fight(u.id, t) for t in foes if _fight_refusal(state, u, t) is None)
            if not foes and _has_missile(u):
                out.extend(act.Shoot(u.id, e.id) for e in state.enemies(u.seat) if _shot_ok(state, u, e.id))
            out.extend(magic.castable(state, u.id))
        if not foes:
            out.extend(act.Move(u.id, path, f) for path, f in movement.move_offers(state, u))
            if not u.shaken:
                out.extend(
                    act.Charge(u.id, e.id)
                    for e in state.enemies(u.seat)
                    if not isinstance(movement.plan_charge(state, u, e.id), str)
                )
        p = movement.profile_of(u)
        for order in movement.orders_of(p):
            for files in sorted({u.files, max(1, (u.models + 1) // 2), u.models, max(1, u.models // 3)}):
                if not isinstance(movement.plan_reform(state, u, order, files, None), str):
                    out.append(act.Reform(u.id, order, files))
        if movement.why_not_rally(state, u) is None:
            out.append(act.Rally(u.id))
        out.extend(magic.releasable(state, u.id))
        return out

    # ------------------------------------------------------------ apply

    def apply(self, state: CdState, action: act.Action | ChanceOutcome) -> Step:
        """Apply an action or a die; a refused one raises a GameError naming the rule (nothing changes)."""
        if state.over is not None:
            raise IllegalAction("the battle is over")
        if isinstance(action, ChanceOutcome):
            return self._settle(*self._chance(state, action))
        action = act.recorded(action)
        if state.pending:
            if isinstance(state.top, MoveRoll):
                raise IllegalAction("a terrain die is to be rolled now (CD-TE)")
            if not isinstance(action, act.ANSWERS):
                raise IllegalAction("a question or a die is pending: answer it first")
            from iwgt.games.coloured_dice import resolve

            return self._settle(*resolve.advance(state, action))
        if isinstance(action, act.ANSWERS):
            raise IllegalAction(f"{type(action).__name__}: nothing is being asked now")
        return self._settle(*self._order(state, state.seat, action))

    def _chance(self, state: CdState, outcome: ChanceOutcome) -> Step:
        if not state.pending:
            raise IllegalAction("no die is awaited now")
        if isinstance(state.top, MoveRoll):
            state, events = movement.roll_terrain(state, outcome.face)
            if state.pending and not isinstance(state.top, MoveRoll):
                from iwgt.games.coloured_dice import resolve

                state = resolve.settle(state, events)
            return state, events
        from iwgt.games.coloured_dice import resolve

        return resolve.advance(state, outcome)

    def _settle(self, state: CdState, events: list[Event]) -> Step:
        """After a step with nothing pending: immaterial spirits kept on their leash (magic's), then the
        battle may be over (a side gone or broken)."""
        if state.over is None and not state.pending:
            state, more = magic.spirit_leash(state)
            events = events + more
            state, more = flow.check_over(state)
            events = events + more
        return state, events

    def _order(self, state: CdState, seat: int, action: act.Action) -> Step:
        """A unit's order (or end_turn) in the seat's turn."""
        if isinstance(action, act.EndTurn):
            return flow.end_turn(state)
        uid = getattr(action, "unit", None)
        if not isinstance(uid, int):
            raise IllegalAction(f"{type(action).__name__} is not an order of a turn")
        match action:
            case act.Move():
                unit = self._actor(state, seat, uid)
                return movement.apply_move(state, unit, action.path, action.facing)
            case act.Charge():
                unit = self._actor(state, seat, uid)
                return movement.apply_charge(state, unit, action.target)
            case act.Reform():
                unit = self._actor(state, seat, uid)
                return movement.apply_reform(state, unit, action.order, action.files, action.facing)
            case act.Rally():
                return self._rally(state, seat, uid)
            case act.Fight():
                return self._fight(state, seat, uid, action.target)
            case act.Shoot():
                return self._shoot(state, seat, uid, action.target)
            case act.Cast():
                return self._cast(state, seat, action)
            case act.Release():
                return self._release(state, seat, action)
        raise IllegalAction(f"{type(action).__name__} is not an order of a turn")

    def _actor(self, state: CdState, seat: int, uid: int) -> Unit:
        got = movement.why_not_act(state, seat, uid)
        if isinstance(got, str):
            raise IllegalAction(got)
        return got

    def _rally(self, state: CdState, seat: int, uid: int) -> Step:
        unit = self._actor(state, seat, uid)
        why = movement.why_not_rally(state, unit)
        if why is not None:
            raise IllegalAction(why)
        from iwgt.games.coloured_dice import resolve

        state = state.with_unit(replace(unit, actions_left=0))
        return resolve.begin_morale_test(state, uid, close_combat=False, reason="rally")

    def _fight(self, state: CdState, seat: int, uid: int, target: int) -> Step:
        got = _why_not_attack(state, seat, uid)
        if isinstance(got, str):
            raise IllegalAction(got)
        why = _fight_refusal(state, got, target)
        if why is not None:
            raise IllegalAction(why)
        from iwgt.games.coloured_dice import resolve

        return resolve.begin_fight(state.with_unit(_attack(got)), uid, target)

    def _shoot(self, state: CdState, seat: int, uid: int, target: int) -> Step:
        got = _why_not_attack(state, seat, uid)
        if isinstance(got, str):
            raise IllegalAction(got)
        why = _shot_refusal(state, got, target)
        if why is not None:
            raise IllegalAction(why)
        from iwgt.games.coloured_dice import resolve

        return resolve.begin_shot(state.with_unit(_attack(got)), uid, target)

    def _cast(self, state: CdState, seat: int, action: act.Cast) -> Step:
        got = _why_not_attack(state, seat, action.unit)
        if isinstance(got, str):
            raise IllegalAction(got)
        # the rule and its reason are magic's (any free place in range, not only the one offered)
        magic.check_cast(state, action)
        result: Step = magic.begin_cast(state.with_unit(_attack(got)), action)
        return result

    def _release(self, state: CdState, seat: int, action: act.Release) -> Step:
        unit = self._actor(state, seat, action.unit)
        if action.spirit not in unit.spirits:
            raise IllegalAction(f"CD-MA: no spirit {action.spirit!r} held by {unit.name}")
        if action not in magic.releasable(state, unit.id):
            raise IllegalAction(f"CD-MA: {action.spirit} may not be released by {unit.name} now")
        spent = replace(unit, actions_left=unit.actions_left - 1)
        result: Step = magic.release(state.with_unit(spent), action)
        return result
