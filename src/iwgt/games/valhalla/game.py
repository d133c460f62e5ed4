"""Valhalla behind the engine's one protocol."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction, MalformedAction
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
from iwgt.games.valhalla import actions as act
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.events import (
    BaggageMoved,
    CardPassed,
    Charged,
    FigureActivated,
    FigureMoved,
    ObstacleCrossed,
    Recovered,
    ThingDropped,
    ThingPickedUp,
    Withdrew,
)
from iwgt.games.valhalla.facts import FACTS, RULES_VERSION
from iwgt.games.valhalla.flow import (
    activate,
    after_action,
    award,
    baggage_done,
    baggage_driver,
    end_activation,
    recover,
    start_turn,
    why_not_recover,
)
from iwgt.games.valhalla.movement import (
    baggage_targets,
    charge_into,
    cross_end,
    drop,
    move_targets,
    pick_up,
    relocate,
    why_not_charge,
    why_not_cross,
    why_not_move,
    why_not_move_baggage,
    why_not_pick_up,
    why_not_withdraw,
    withdraw_targets,
    withdraw_to,
)
from iwgt.games.valhalla.observe import observe, state_to_json
from iwgt.games.valhalla.scenario import (
    BAGGAGE_RADIUS,
    THING_RADIUS,
    ValhallaScenario,
    load_scenario,
    parse_scenario,
    scenario_names,
)
from iwgt.games.valhalla.shooting import aim, why_not_shoot
from iwgt.games.valhalla.state import Fight, Figure, Thing, ValhallaState, card_label
from iwgt.geometry.plane import XY, rounded


class ValhallaGame:
    """Valhalla: heroes, warriors and archers, activated by the cards, measured in inches."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> ValhallaScenario:
        """A shipped scenario by name, or a file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> ValhallaScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """The seats of a scenario: one per player, several on each side (VH-CB-04)."""
        if not isinstance(scenario, ValhallaScenario):
            raise TypeError("a Valhalla scenario is needed")
        return scenario.seat_names()

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it: table size, players a side, turns."""
        if not isinstance(scenario, ValhallaScenario):
            raise TypeError("a Valhalla scenario is needed")
        spec = scenario.spec
        forces = " v ".join(f"{len(scenario.side_seats(i))} {side.name}" for i, side in enumerate(spec.sides))
        return ScenarioCard(
            name=scenario.name,
            title=spec.title,
            description=spec.description,
            seats=scenario.seat_names(),
            turns=spec.turn_limit,
            table=f'{spec.width:g}" x {spec.height:g}"',
            forces=forces,
        )

    def status(self, state: ValhallaState) -> Status:
        """Phase, turn and who acts (no seat owns a phase: the cards decide who acts)."""
        return Status(state.phase, state.turn, self.to_move(state))

    def initial_state(self, scenario: Scenario) -> ValhallaState:
        """The figures where the scenario puts them; the first deal is about to be shuffled."""
        if not isinstance(scenario, ValhallaScenario):
            raise TypeError("a Valhalla scenario is needed")
        spec = scenario.spec
        figures: list[Figure] = []
        for seat, p in enumerate(spec.players):
            shooter = "archer" if p.archer is not None else "slinger"
            for kind, at, given in (
                ("hero", p.hero, p.hero_name),
                ("warrior", p.warrior, p.warrior_name),
                (shooter, p.archer or p.slinger, p.archer_name),
            ):
                assert at is not None
                label = given or f"{p.name}'s {rules().figures[kind].name.lower()}"  # type: ignore[index]
                figures.append(Figure(len(figures), seat, p.side, kind, label, at))  # type: ignore[arg-type]
        things = [Thing(i, t.name, t.at, THING_RADIUS) for i, t in enumerate(spec.things)]
        first = len(things)  # baggage is numbered after the things to carry
        things.extend(
            Thing(first + i, b.name, b.at, BAGGAGE_RADIUS, baggage_side=b.side)
            for i, b in enumerate(spec.baggage)
        )
        state = ValhallaState(scenario=scenario, figures=tuple(figures), things=tuple(things))
        state, _ = start_turn(state, [])
        return state

    def to_move(self, state: ValhallaState) -> Seat | None:
        """The seat to act, CHANCE at a roll, None when the game is over."""
        if state.phase == "over":
            return None
        if state.awaiting_dice:
            return CHANCE
        if state.phase == "baggage":
            t = state.things[state.baggage_queue[0]]
            assert t.baggage_side is not None
            return baggage_driver(state, t.baggage_side)
        current = state.current
        return None if current is None else current[1]

    def chance_outcomes(self, state: ValhallaState) -> Die | None:
        """The die the next roll needs."""
        if not state.awaiting_dice:
            return None
        if state.to_deal:
            # The table shuffles its own deck, even when the players roll real dice (VH-TS-01 decided).
            return Die(len(state.deck), f"deal a card to seat {state.to_deal[0]}", secret=True)
        if state.fight is not None:
            f = state.fight
            fid = f.attacker if f.attacker_face is None else f.defender
            fig = state.figure(fid)
            return Die(rules().figures[fig.kind].die, f"combat: {fig.name}")
        if state.shot is not None:
            s = state.shot
            return Die(6, f"shot at {state.figure(s.target).name}: hits on {s.needs}+")
        fig = state.figure(state.saves[0])
        return Die(rules().saves.sides, f"Dice of Death for {fig.name}")

    def is_terminal(self, state: ValhallaState) -> bool:
        """Whether the game is over."""
        return state.phase == "over"

    def result(self, state: ValhallaState) -> Result | None:
        """The winning side's players win, the others lose (or all draw), and why; None while playing."""
        if state.phase != "over":
            return None
        seats = len(state.scenario.spec.players)
        side = state.winner_side
        if side is None:
            return Result.draw(seats, f"a draw: {state.over_reason}")
        name = state.scenario.spec.sides[side].name
        winners = state.scenario.side_seats(side)
        return Result.win(winners, seats, f"{name} win: {state.over_reason}", side=name)

    def observe(self, state: ValhallaState, seat: Seat | None) -> JSON:
        """Everything is public in Valhalla (VH-MS-05 decided: cards are dealt face up)."""
        return observe(state, seat)

    def state_to_json(self, state: ValhallaState) -> JSON:
        """The whole state as canonical JSON."""
        return state_to_json(state)

    def resample_hidden(
        self, state: ValhallaState, seat: Seat | None, pick: Callable[[int], int]
    ) -> ValhallaState:
        """Nothing is hidden: the deck's order is not in the state until the deal rolls it."""
        return state

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)

    def action_view(self, action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
        """Actions are public."""
        return act.action_to_json(action)

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, state: ValhallaState, seat: Seat) -> Sequence[act.Action]:
        """Every action the seat may take now (moves: a spread of points; any legal point is accepted)."""
        if seat == CHANCE or self.to_move(state) != seat:
            return []
        if state.phase == "baggage":
            t = state.things[state.baggage_queue[0]]
            out: list[act.Action] = [act.MoveBaggage(t.id, p) for p in baggage_targets(state, t)]
            out.append(act.EndActivation())
            return out
        out = []
        if state.active is None:
            for f in state.figures:
                if f.seat == seat and f.alive and not f.activated:
                    out.extend(self._figure_actions(state, f, first=True))
        else:
            out.extend(self._figure_actions(state, state.figure(state.active), first=state.actions_used == 0))
        out.append(act.EndActivation())
        return out

    def _figure_actions(self, state: ValhallaState, f: Figure, first: bool) -> list[act.Action]:
        out: list[act.Action] = []
        if state.engaged(f.id):
            if first:
                out.extend(act.Fight(f.id, o) for o in state.opponents(f.id))
            out.extend(act.Withdraw(f.id, p) for p in withdraw_targets(state, f))
            return out
        out.extend(act.Move(f.id, p) for p in move_targets(state, f, rules().actions.move))
        out.extend(
            act.Cross(f.id, i)
            for i in range(len(state.scenario.ground.obstacles))
            if why_not_cross(state, f, i) is None
        )
        if not (state.withdrew and state.active == f.id):
            out.extend(
                act.Charge(f.id, e.id) for e in state.enemies_of(f) if why_not_charge(state, f, e) is None
            )
        for t in state.things:
            if why_not_pick_up(state, f, t) is None:
                out.append(act.PickUp(f.id, t.id))
        if f.carrying is not None:
            out.append(act.Drop(f.id))
        if why_not_recover(state, f) is None:
            out.append(act.Recover(f.id))
        out.extend(act.Shoot(f.id, e.id) for e in state.enemies_of(f) if why_not_shoot(state, f, e) is None)
        return out

    # ------------------------------------------------------------ apply

    def apply(
        self, state: ValhallaState, action: act.Action | ChanceOutcome
    ) -> tuple[ValhallaState, list[Event]]:
        """Apply an action; a refused one raises and the state is untouched (it is a value)."""
        if not isinstance(action, ChanceOutcome):
            action = act.recorded(action)  # first: a foreign or mistyped action is malformed in any state
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if isinstance(action, ChanceOutcome):
            die = self.chance_outcomes(state)
            if die is None:
                raise IllegalAction("no die is awaited now")
            if not 1 <= action.face <= die.sides:
                raise IllegalAction(f"a d{die.sides} has no face {action.face}")
            from iwgt.games.valhalla.flow import answer

            return answer(state, action.face)
        if state.awaiting_dice:
            die = self.chance_outcomes(state)
            raise IllegalAction(f"the table is waiting for a die: {die.purpose if die else ''}")
        if state.phase == "baggage":
            return self._baggage(state, action)
        if isinstance(action, act.MoveBaggage):
            raise IllegalAction("baggage moves at the end of the turn (VH-AC-04)")
        if isinstance(action, act.EndActivation):
            events: list[Event] = []
            if state.active is None:
                card, seat = state.order[state.card_index]
                events.append(
                    CardPassed(seat, card, card_label(card), "the player chose not to activate a figure")
                )
            return end_activation(state, events)
        f = self._figure(state, action.figure)
        state, events = self._activate(state, f)
        f = state.figure(f.id)
        match action:
            case act.Move():
                return self._move(state, f, action, events)
            case act.Cross():
                self._free(state, f)
                why = why_not_cross(state, f, action.obstacle)
                if why is not None:
                    raise IllegalAction(why)
                to = cross_end(state, f, action.obstacle)
                state = relocate(state, f, to)
                events.append(ObstacleCrossed(f.id, action.obstacle, to))
                return self._spent(state, events)
            case act.Charge():
                return self._charge(state, f, self._figure(state, action.target), events)
            case act.Withdraw():
                return self._withdraw(state, f, action.to, events)
            case act.Fight():
                return self._fight(state, f, action.opponent, events)
            case act.PickUp():
                t = self._thing(state, action.thing)
                why = why_not_pick_up(state, f, t)
                if why is not None:
                    raise IllegalAction(why)
                state = pick_up(state, f, t)
                events.append(ThingPickedUp(f.id, t.id))
                return self._spent(state, events)
            case act.Drop():
                self._free(state, f)
                if f.carrying is None:
                    raise IllegalAction(f"{f.name} carries nothing to drop")
                events.append(ThingDropped(f.id, f.carrying, f.at))
                state = drop(state, f)
                return self._spent(state, events)
            case act.Recover():
                why = why_not_recover(state, f)
                if why is not None:
                    raise IllegalAction(why)
                state = recover(state, f)
                events.append(Recovered(f.id, f.shock - 1))
                return self._spent(state, events)
            case act.Shoot():
                target = self._figure(state, action.target)
                why = why_not_shoot(state, f, target)
                if why is not None:
                    raise IllegalAction(why)
                shot = aim(state, f, target)
                assert shot is not None  # in range: why_not_shoot said so
                state = replace(state, shot=shot, actions_used=state.actions_used + 1)
                return state, events
        raise MalformedAction(f"not a Valhalla action: {action!r}")

    # ------------------------------------------------------------ helpers

    def _figure(self, state: ValhallaState, fid: int) -> Figure:
        if not 0 <= fid < len(state.figures):
            raise MalformedAction(f"there is no figure {fid} (figures are 0..{len(state.figures) - 1})")
        return state.figures[fid]

    def _thing(self, state: ValhallaState, tid: int) -> Thing:
        if not 0 <= tid < len(state.things):
            raise MalformedAction(f"there is no thing {tid}")
        return state.things[tid]

    def _activate(self, state: ValhallaState, f: Figure) -> tuple[ValhallaState, list[Event]]:
        """Check that the figure may act now; the first action of a card activates it (VH-AC-01..03)."""
        current = state.current
        assert current is not None
        _, seat = current
        if f.seat != seat:
            raise IllegalAction(f"{f.name} is not the figure of the player whose card is up")
        if not f.alive:
            raise IllegalAction(f"{f.name} has gone to Valhalla")
        if state.active is not None:
            if f.id != state.active:
                raise IllegalAction(f"this card activated {state.figure(state.active).name}, not {f.name}")
            return state, []
        if f.activated:
            raise IllegalAction(f"{f.name} has already been activated this turn")
        state = activate(state, f)
        return state, [FigureActivated(f.id, state.allowance)]

    def _spent(self, state: ValhallaState, events: list[Event]) -> tuple[ValhallaState, list[Event]]:
        """One action used; the activation ends when none is left."""
        return after_action(replace(state, actions_used=state.actions_used + 1), events)

    def _free(self, state: ValhallaState, f: Figure) -> None:
        """A figure in combat may only continue fighting or withdraw (VH-AC-11 decided)."""
        if state.engaged(f.id):
            raise IllegalAction(f"{f.name} is in combat: it may only continue fighting or withdraw")

    def _move(
        self, state: ValhallaState, f: Figure, action: act.Move, events: list[Event]
    ) -> tuple[ValhallaState, list[Event]]:
        self._free(state, f)
        path = [f.at, *action.via, rounded(action.to)]
        why = why_not_move(state, f, path, rules().actions.move)
        if why is not None:
            raise IllegalAction(why)
        state = relocate(state, f, path[-1])
        events.append(FigureMoved(f.id, tuple(path), round(state.scenario.ground.path_cost(path), 2)))
        return self._spent(state, events)

    def _charge(
        self, state: ValhallaState, f: Figure, target: Figure, events: list[Event]
    ) -> tuple[ValhallaState, list[Event]]:
        """Charge into contact and fight at once (VH-AC-09, VH-CO-01); the charge ends the activation."""
        self._free(state, f)
        if state.withdrew:
            # Decided (VH-AC-10): else withdrawing and charging again would buy the +1 of a charge each turn.
            raise IllegalAction(f"{f.name} withdrew this activation: it may not charge until its next one")
        why = why_not_charge(state, f, target)
        if why is not None:
            raise IllegalAction(why)
        state = charge_into(state, f, target)
        to = state.figure(f.id).at
        state = replace(
            state,
            fight=Fight(f.id, target.id, charging=True),
            actions_used=state.allowance,  # decided (VH-AC-09): the charge's combat ends the activation
        )
        events.append(Charged(f.id, target.id, to))
        return state, events

    def _fight(
        self, state: ValhallaState, f: Figure, opponent: int, events: list[Event]
    ) -> tuple[ValhallaState, list[Event]]:
        """Continue fighting: the only action of this activation (VH-AC-11, VH-CO-15)."""
        self._figure(state, opponent)
        if state.engagement(f.id, opponent) is None:
            raise IllegalAction(f"{f.name} is not in combat with {state.figure(opponent).name}")
        if state.actions_used > 0:
            raise IllegalAction(
                "continuing to fight is the only action allowed in that activation (VH-AC-11)"
            )
        state = replace(state, fight=Fight(f.id, opponent, charging=False), actions_used=state.allowance)
        return state, events

    def _withdraw(
        self, state: ValhallaState, f: Figure, to: XY, events: list[Event]
    ) -> tuple[ValhallaState, list[Event]]:
        """Withdraw 2" out of combat (VH-AC-10); an enemy hero withdrawing gives a coin (VH-WL-02)."""
        if not state.engaged(f.id):
            raise IllegalAction(f"{f.name} is not in combat: move instead")
        to = rounded(to)
        why = why_not_withdraw(state, f, to)
        if why is not None:
            raise IllegalAction(why)
        state = withdraw_to(state, f, to)
        events.append(Withdrew(f.id, to))
        coins = rules().figures[f.kind].withdraw_coins
        if coins:
            state = award(state, 1 - f.side, coins, f"{f.name} withdrew from combat", events)
        return self._spent(state, events)

    def _baggage(
        self, state: ValhallaState, action: act.Action | ChanceOutcome
    ) -> tuple[ValhallaState, list[Event]]:
        t = state.things[state.baggage_queue[0]]
        events: list[Event] = []
        if isinstance(action, act.EndActivation):
            return baggage_done(state, events)
        if not isinstance(action, act.MoveBaggage):
            raise IllegalAction("the turn is over: only the baggage moves now (VH-AC-04)")
        if action.baggage != t.id:
            raise IllegalAction(f"the {t.name} moves now")
        path = [t.at, rounded(action.to)]
        why = why_not_move_baggage(state, t, path)
        if why is not None:
            raise IllegalAction(why)
        state = state.with_thing(replace(t, at=path[-1]))
        events.append(BaggageMoved(t.id, tuple(path)))
        return baggage_done(state, events)
