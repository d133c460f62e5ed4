"""Forged upon an Anvil behind the engine's one protocol.

The flow's own actions (muster, terrain, Seats, bids, activate, deploy, move, end_activation, pass) are
checked and applied here with ``flow`` and ``movement``; engage, shoot, cast, steady, raise_champion,
stratagem, interrupt and decline go to ``combat.apply_combat`` (and the legal ones come from
``combat.combat_actions`` / ``combat.interrupt_actions``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.protocol import (
    JSON,
    ChanceOutcome,
    Event,
    Result,
    Scenario,
    ScenarioCard,
    Seat,
    Status,
)
from iwgt.games.anvil import actions as act
from iwgt.games.anvil import flow
from iwgt.games.anvil.army import army_dcp, deploy_cost, start_hp
from iwgt.games.anvil.events import (
    ActivationEnded,
    ArmyChosen,
    BidChosen,
    FeaturePlaced,
    FeatureSkipped,
    Passed,
    Sealed,
    SeatPlaced,
    TerrainBidChosen,
    UnitActivated,
    UnitDeployed,
    UnitMoved,
)
from iwgt.games.anvil.facts import FACTS, RULES_VERSION
from iwgt.games.anvil.movement import (
    OFFERED_DESIGNATIONS,
    Plan,
    Spot,
    base_allowance,
    deploy_spots,
    deploy_tray,
    feature_outline,
    feature_spots,
    move_targets,
    plan_move,
    seat_spots,
    seat_tray,
    tray_size,
    why_not_feature,
    why_not_seat,
)
from iwgt.games.anvil.observe import action_view, observe, resample_hidden, state_to_json
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.scenario import (
    AnvilScenario,
    army_problems,
    load_scenario,
    parse_scenario,
    scenario_names,
)
from iwgt.games.anvil.state import Activation, AnvilState, PlacedFeature, Unit, pair
from iwgt.geometry.trays import Feature

Step = tuple[AnvilState, list[Event]]

MOVE_EPS = 0.01
"""Inches of movement below which an activation has no move left."""
COMBAT_TYPES = (
    act.Engage,
    act.Shoot,
    act.Cast,
    act.Steady,
    act.RaiseChampion,
    act.Stratagem,
    act.Interrupt,
    act.Decline,
)
"""The actions the combat engineer's modules apply."""


def _scenario(scenario: Scenario) -> AnvilScenario:
    if not isinstance(scenario, AnvilScenario):
        raise TypeError("a Forged upon an Anvil scenario is needed")
    return scenario


def deploying(state: AnvilState, unit: Unit) -> tuple[Unit, tuple[str, ...]]:
    """The unit as it deploys now and the deployment stratagems it leaves off: while the deadline limit
    applies (FA-DP-03), the General's unit deploys for its 1 CP of activation alone, so its stratagems
    that cost DCP are left off and it enters without them (decided); otherwise the unit as listed."""
    if not unit.general or not flow.general_late(state, unit.seat):
        return unit, ()
    table = rules().stratagems
    left_off = tuple(k for k in unit.stratagems if k in table and table[k].cost > 0)
    if not left_off:
        return unit, ()
    kept = tuple(k for k in unit.stratagems if k not in left_off)
    bare = replace(unit, stratagems=kept)
    hp = start_hp(bare)
    return replace(bare, hp=hp, start_hp=hp), left_off


class AnvilGame:
    """Forged upon an Anvil: sealed CP bids, alternate activations, trays and the Combat Resolution Matrix."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS

    # ------------------------------------------------------------ scenarios

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> AnvilScenario:
        """A shipped scenario by name, or a file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> AnvilScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """Two seats, one per side."""
        return _scenario(scenario).seat_names()

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The scenario as the game selection shows it."""
        s = _scenario(scenario)
        spec = s.spec
        a, b = s.armies
        how = "fixed armies" if spec.armies == "fixed" else "armies built at muster"
        return ScenarioCard(
            name=s.name,
            title=spec.title,
            description=spec.description,
            seats=s.seat_names(),
            turns=spec.turns,
            table=f'{spec.width:g}" x {spec.height:g}"',
            forces=f"{spec.dcp} DCP a side ({how}): {len(a.units)} / {len(b.units)} units "
            f"({army_dcp(a)} / {army_dcp(b)} DCP)",
        )

    # ------------------------------------------------------------ the state

    def initial_state(self, scenario: Scenario) -> AnvilState:
        """Muster (or, with fixed armies, the terrain bid)."""
        return flow.new_state(_scenario(scenario))

    def to_move(self, state: AnvilState) -> Seat | None:
        """Sealed choices: seat 0 then seat 1; placing: the placer; activations: the mover; an
        interruption: the seat asked."""
        return flow.to_move(state)

    def status(self, state: AnvilState) -> Status:
        """Phase, turn, who acts and whose activation it is."""
        phase = "interrupt" if state.pending is not None and state.phase != "over" else state.phase
        return Status(phase, state.turn, self.to_move(state), state.mover)

    def chance_outcomes(self, state: AnvilState) -> Die | None:
        """No dice in this game."""
        return None

    def is_terminal(self, state: AnvilState) -> bool:
        """Whether the game is over."""
        return state.phase == "over"

    def result(self, state: AnvilState) -> Result | None:
        """The winner (or a draw) and why; None while playing."""
        if state.phase != "over":
            return None
        if state.winner is None:
            return Result.draw(2, state.over_reason)
        side = state.scenario.spec.sides[state.winner].name
        return Result.win([state.winner], 2, state.over_reason, side=side, title=side)

    # ------------------------------------------------------------ views

    def observe(self, state: AnvilState, seat: Seat | None) -> JSON:
        """What a seat sees: everything but the other seat's sealed bid or army list before both are in."""
        return observe(state, seat)

    def state_to_json(self, state: AnvilState) -> JSON:
        """The whole state as canonical JSON (sealed choices included)."""
        return state_to_json(state)

    def resample_hidden(self, state: AnvilState, seat: Seat | None, pick: Callable[[int], int]) -> AnvilState:
        """The other seat's sealed bid or army list redrawn (nothing else is hidden)."""
        return resample_hidden(state, seat, pick)

    def action_view(self, action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
        """A sealed bid or army list shows another seat only that it was made."""
        return action_view(action, actor, seat)

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, state: AnvilState, seat: Seat) -> Sequence[act.Action]:
        """Every action the seat may take now: bids every value, placements on a grid, deployments at a
        spread along the edges, moves a spread of destinations; any other legal value is accepted by apply."""
        if self.to_move(state) != seat:
            return []
        from iwgt.games.anvil import combat

        phase = state.phase
        if state.pending is not None:
            return list(combat.interrupt_actions(state))
        if phase == "muster":
            return [state.scenario.armies[seat]]
        if phase == "terrain_bid":
            return [act.TerrainBid(n) for n in range(rules().constants.terrain_bid + 1)]
        if phase == "terrain":
            spots = feature_spots(state)
            if not spots:
                return [act.SkipFeature()]
            return [
                act.PlaceFeature(piece, centre, rotation, *designation)
                for piece, centre, rotation in spots
                for designation in OFFERED_DESIGNATIONS
            ]
        if phase == "seats":
            unit = state.seat_of_power(seat)
            assert unit is not None
            return [act.PlaceSeat(c) for c in seat_spots(state, unit)]
        if phase == "bid":
            return [act.Bid(n) for n in range(state.limits[seat] + 1)]
        if phase == "activation":
            if state.activation is None:
                return self._start_actions(state, seat)
            return self._activation_actions(state)
        return []

    def _start_actions(self, state: AnvilState, seat: int) -> list[act.Action]:
        """Between activations: activate a unit on the table, deploy one, or pass."""
        out: list[act.Action] = []
        cp = state.cp[seat]
        cost = rules().constants.activation_cp
        if cp >= cost:
            out.extend(
                act.Activate(u.id) for u in state.units if self._why_not_activate(state, seat, u) is None
            )
            shared: dict[tuple[bool, bool], list[Spot]] = {}  # the spots depend only on the entry stratagems
            for waiting in state.units:
                if waiting.seat != seat or not waiting.waiting or waiting.is_seat:
                    continue
                u, _ = deploying(state, waiting)
                if deploy_cost(u) <= cp:  # the own edge is the cheapest entry
                    key = (u.has("flanking"), u.has("infiltrate"))
                    if key not in shared:
                        shared[key] = deploy_spots(state, u)
                    costs = {e: deploy_cost(u, e) for e in ("own", "left", "right", "infiltrate")}
                    out.extend(act.Deploy(u.id, e, x, y, f) for e, x, y, f in shared[key] if costs[e] <= cp)
        out.append(act.Pass())
        return out

    def _activation_actions(self, state: AnvilState) -> list[act.Action]:
        """In an activation: the moves on offer, the combat family's actions, end, pass."""
        from iwgt.games.anvil import combat

        a = state.activation
        assert a is not None
        unit = state.unit(a.unit)
        out: list[act.Action] = []
        left = self._movement_left(state, unit, a)
        if left is not None and left >= MOVE_EPS:
            fly, through = a.used("fly"), a.used("interpenetration")
            out.extend(
                act.Move(unit.id, path, f)
                for path, f in move_targets(state, unit, left, fly=fly, through=through)
            )
        out.extend(combat.combat_actions(state))
        out.append(act.EndActivation())
        out.append(act.Pass())
        return out

    # ------------------------------------------------------------ apply

    def apply(self, state: AnvilState, action: act.Action | ChanceOutcome) -> Step:
        """Apply an action; a refused one raises a GameError and the state is untouched (it is a value)."""
        if isinstance(action, ChanceOutcome):
            raise IllegalAction("no die is awaited in Forged upon an Anvil")
        action = act.recorded(action)  # first: a foreign or mistyped action is malformed in any state
        if state.phase == "over":
            raise IllegalAction("the game is over")
        seat = self.to_move(state)
        if seat is None:
            raise IllegalAction("nobody is to act now")
        if state.pending is not None:
            if not isinstance(action, act.Interrupt | act.Decline):
                raise IllegalAction(
                    f"an interruption ({state.pending.kind}) awaits its answer: interrupt or decline"
                )
            return self._combat(state, action)
        match action:
            case act.Army():
                return self._army(state, seat, action)
            case act.TerrainBid():
                return self._terrain_bid(state, seat, action)
            case act.PlaceFeature():
                return self._place_feature(state, seat, action)
            case act.SkipFeature():
                return self._skip_feature(state, seat)
            case act.PlaceSeat():
                return self._place_seat(state, seat, action)
            case act.Bid():
                return self._bid(state, seat, action)
        if state.phase != "activation":
            raise IllegalAction(f"{type(action).__name__} is not an action of the {state.phase} phase")
        match action:
            case act.Activate():
                return self._settle(*self._activate(state, seat, action))
            case act.Deploy():
                return self._settle(*self._deploy(state, seat, action))
            case act.Move():
                return self._settle(*self._move(state, seat, action))
            case act.EndActivation():
                if state.activation is None:
                    raise IllegalAction("no unit is activated: activate or deploy one, or pass")
                return flow.end_activation(state, [])
            case act.Pass():
                return self._pass(state, seat)
        if isinstance(action, COMBAT_TYPES):
            if state.activation is None:
                raise IllegalAction("no unit is activated: activate or deploy one first")
            return self._combat(state, action)
        raise MalformedAction(f"not a Forged upon an Anvil action: {action!r}")

    def _combat(self, state: AnvilState, action: act.Action) -> Step:
        from iwgt.games.anvil import combat

        state, events = combat.apply_combat(state, action)
        return self._settle(state, events)

    def _settle(self, state: AnvilState, events: list[Event]) -> Step:
        """After an activation's step: the end of the game, the end of an activation whose unit is gone,
        or one with nothing left to do (no CP and no movement left: FA-AC-05 decided)."""
        over = flow.game_over(state, events)
        if over is not None:
            return over
        a = state.activation
        if state.pending is not None or a is None or state.phase != "activation":
            return state, events
        unit = state.unit(a.unit)
        if not unit.on_table:
            return flow.end_activation(state, events)
        left = self._movement_left(state, unit, a)
        if state.cp[a.seat] == 0 and (left is None or left < MOVE_EPS):
            return flow.end_activation(state, events)
        return state, events

    # ------------------------------------------------------------ muster and the field of battle

    def _army(self, state: AnvilState, seat: int, action: act.Army) -> Step:
        """A sealed army list (FA-GN-03, FA-UD): refused with the rule it breaks."""
        if state.phase != "muster":
            raise IllegalAction("army lists are chosen at muster, before the game")
        problems = army_problems(action, state.scenario.spec.dcp)
        if problems:
            raise IllegalAction("; ".join(problems))
        state = replace(state, armies=pair(state.armies, seat, action))
        events: list[Event] = [
            Sealed(seat, "army"),
            ArmyChosen(seat, tuple(u.name for u in action.units), army_dcp(action)),
        ]
        if state.armies[0] is not None and state.armies[1] is not None:
            return flow.muster_done(state, events)
        return state, events

    def _terrain_bid(self, state: AnvilState, seat: int, action: act.TerrainBid) -> Step:
        """A sealed terrain bid of 0..5 (FA-FB-01)."""
        if state.phase != "terrain_bid":
            raise IllegalAction("the terrain bid is made once, before the terrain is placed")
        top = rules().constants.terrain_bid
        if not 0 <= action.amount <= top:
            raise IllegalAction(f"a terrain bid is 0 to {top} CP, not {action.amount} (FA-FB-01)")
        state = replace(state, terrain_bids=pair(state.terrain_bids, seat, action.amount))
        events: list[Event] = [Sealed(seat, "terrain_bid"), TerrainBidChosen(seat, action.amount)]
        if state.terrain_bids[0] is not None and state.terrain_bids[1] is not None:
            return flow.terrain_bids_done(state, events)
        return state, events

    def _place_feature(self, state: AnvilState, seat: int, action: act.PlaceFeature) -> Step:
        """A terrain feature with its designations (FA-FB-02..06)."""
        if state.phase != "terrain":
            raise IllegalAction("terrain features are placed after the terrain bid")
        if not (action.halves or action.blocks or action.impassable):
            raise IllegalAction(
                "designate the feature: halves movement, blocks sight, impassable, or a mix (FA-FB-04)"
            )
        why = why_not_feature(state, action.piece, action.centre, action.rotation)
        if why is not None:
            raise IllegalAction(why)
        outline = feature_outline(state, action.piece, action.centre, action.rotation)
        piece = state.scenario.piece(action.piece)
        assert outline is not None and piece is not None
        feature = Feature(outline, action.halves, action.blocks, action.impassable, piece.name)
        placed = PlacedFeature(seat, action.piece, action.centre, action.rotation, feature)
        state = replace(
            state,
            features=(*state.features, placed),
            to_place=pair(state.to_place, seat, state.to_place[seat] - 1),
            placed=pair(state.placed, seat, state.placed[seat] + 1),
        )
        events: list[Event] = [
            FeaturePlaced(
                seat,
                action.piece,
                piece.name,
                action.centre,
                action.rotation,
                outline,
                action.halves,
                action.blocks,
                action.impassable,
            )
        ]
        return flow.next_placer(state, seat, events)

    def _skip_feature(self, state: AnvilState, seat: int) -> Step:
        """Give up a feature with no legal place left (FA-FB-06 decided): only when the grid has none."""
        if state.phase != "terrain":
            raise IllegalAction("only a terrain feature can be skipped")
        if feature_spots(state):
            raise IllegalAction("the feature still has a legal place: place it (FA-FB-06)")
        state = replace(state, to_place=pair(state.to_place, seat, state.to_place[seat] - 1))
        events: list[Event] = [FeatureSkipped(seat, 'no place left at least 6" from every feature')]
        return flow.next_placer(state, seat, events)

    def _place_seat(self, state: AnvilState, seat: int, action: act.PlaceSeat) -> Step:
        """The Seat of Power within 12" of its own edge (FA-FB-07)."""
        if state.phase != "seats":
            raise IllegalAction("the Seats of Power are placed after the terrain")
        unit = state.seat_of_power(seat)
        assert unit is not None
        why = why_not_seat(state, unit, action.centre)
        if why is not None:
            raise IllegalAction(why)
        tray = seat_tray(state, seat, action.centre)
        state = state.with_unit(replace(unit, tray=tray))
        events: list[Event] = [SeatPlaced(seat, unit.id, action.centre, tray.facing)]
        return flow.seat_placed(state, seat, events)

    def _bid(self, state: AnvilState, seat: int, action: act.Bid) -> Step:
        """A sealed turn bid up to the seat's limit (FA-GT-01..05, FA-DP-03)."""
        if state.phase != "bid":
            raise IllegalAction("CP are bid at the start of a turn")
        limit = state.limits[seat]
        if not 0 <= action.amount <= limit:
            raise IllegalAction(
                f"you may bid 0 to {limit} CP this time, not {action.amount} (FA-GT-01/02/05)"
            )
        state = replace(state, bids=pair(state.bids, seat, action.amount))
        events: list[Event] = [Sealed(seat, "bid"), BidChosen(seat, action.amount)]
        if state.bids[0] is not None and state.bids[1] is not None:
            return flow.bids_done(state, events)
        return state, events

    # ------------------------------------------------------------ activations

    def _why_not_activate(self, state: AnvilState, seat: int, unit: Unit) -> str | None:
        """Why a unit may not be activated now (None: it may)."""
        if unit.seat != seat:
            return f"{unit.name} is not yours"
        if unit.is_seat:
            return "the Seat of Power never activates (FA-GN-07 decided)"
        if unit.destroyed:
            return f"{unit.name} is destroyed"
        if unit.tray is None:
            return f"{unit.name} is not on the table: deploy it (FA-DP-01)"
        if unit.transfixed:
            return f"{unit.name} is Transfixed: it may not activate this turn (FA-SN-06)"
        return None

    def _unit(self, state: AnvilState, uid: int) -> Unit:
        if not 0 <= uid < len(state.units):
            raise IllegalAction(f"there is no unit {uid} (units are 0..{len(state.units) - 1})")
        return state.units[uid]

    def _ready(self, state: AnvilState, seat: int) -> None:
        """Refuse to start an activation while one is under way."""
        if state.activation is not None:
            name = state.unit(state.activation.unit).name
            raise IllegalAction(f"{name}'s activation is under way: end it first")

    def _activate(self, state: AnvilState, seat: int, action: act.Activate) -> Step:
        """Activate a unit for 1 CP (FA-AC-01..03)."""
        self._ready(state, seat)
        unit = self._unit(state, action.unit)
        why = self._why_not_activate(state, seat, unit)
        if why is not None:
            raise IllegalAction(why)
        cost = rules().constants.activation_cp
        if state.cp[seat] < cost:
            raise IllegalAction(f"an activation costs {cost} CP; {state.cp[seat]} CP left (FA-AC-02)")
        state = flow.pay(state, seat, cost)
        allowance = base_allowance(unit)
        state = replace(state, activation=Activation(unit.id, seat, allowance=allowance))
        return state, [UnitActivated(unit.id, seat, cost, state.cp[seat], allowance)]

    def _deploy(self, state: AnvilState, seat: int, action: act.Deploy) -> Step:
        """Deploy a unit in its first activation for 1 CP + DCP (FA-DP-01..04)."""
        self._ready(state, seat)
        unit = self._unit(state, action.unit)
        if unit.seat != seat:
            raise IllegalAction(f"{unit.name} is not yours")
        if unit.is_seat:
            raise IllegalAction("the Seat of Power is placed with the terrain (FA-FB-07)")
        if not unit.waiting:
            raise IllegalAction(f"{unit.name} has already deployed")
        unit, left_off = deploying(state, unit)
        # Flanking and Infiltrate are paid only by the entry that uses them (decided).
        cost = deploy_cost(unit, action.edge)
        if state.cp[seat] < cost:
            raise IllegalAction(
                f"deploying {unit.name} costs {cost} CP (1 + its DCP); {state.cp[seat]} CP left (FA-DP-02)"
            )
        tray = deploy_tray(state, unit, action.edge, action.x, action.y, action.facing)
        if isinstance(tray, str):
            raise IllegalAction(tray)
        state = flow.pay(state, seat, cost)
        state = state.with_unit(replace(unit, tray=tray))
        infiltrated = action.edge == "infiltrate"
        # FA-DP-01 decided: coming on from an edge is moving onto the table: the tray's entry costs its depth,
        # so the unit's front reaches its Move from the edge.
        allowance = 0.0 if infiltrated else max(0.0, base_allowance(unit) - tray_size(state)[1])
        state = replace(
            state,
            activation=Activation(unit.id, seat, allowance=allowance, deployed=True, infiltrated=infiltrated),
        )
        event = UnitDeployed(
            unit.id, seat, action.edge, tray.centre, tray.facing, cost, state.cp[seat], allowance, left_off
        )
        return state, [event]

    def _movement_left(self, state: AnvilState, unit: Unit, a: Activation) -> float | None:
        """Inches the active unit may still move (None: it may not move at all now)."""
        if not unit.on_table or unit.braced or a.infiltrated or a.used("brace"):
            return None
        if a.excess_only:
            return a.excess
        if a.engaged:
            return None
        if a.shot and not a.used("parthian_shot"):
            return None
        return a.allowance

    def _move(self, state: AnvilState, seat: int, action: act.Move) -> Step:
        """Move the active unit along its legs and pivot (FA-MV-01..03, FA-MS-04, FA-GN-09)."""
        a = state.activation
        if a is None:
            raise IllegalAction("no unit is activated: activate or deploy one first")
        unit = self._unit(state, action.unit)
        if unit.id != a.unit:
            raise IllegalAction(f"{unit.name} is not the active unit")
        left = self._movement_left(state, unit, a)
        if left is None:
            if unit.braced or a.used("brace"):
                raise IllegalAction(f"{unit.name} has a Brace marker: it may not move (FA-SC-03)")
            if a.infiltrated:
                raise IllegalAction(f"{unit.name} infiltrated: it does not move further this activation")
            if a.engaged:
                raise IllegalAction(f"{unit.name} has engaged: its move is over (FA-MS-01)")
            raise IllegalAction(f"{unit.name} used Ballistics: it may not move (FA-SS-05)")
        if not all(math.isfinite(c) and abs(c) < 1e6 for p in action.path for c in p):
            raise IllegalAction("the path's points must lie on the table")
        if not math.isfinite(action.facing):
            raise IllegalAction("the facing must be a number of degrees")
        plan = plan_move(
            state,
            unit,
            action.path,
            action.facing,
            left,
            fly=a.used("fly"),
            through=a.used("interpenetration"),
        )
        if isinstance(plan, str):
            raise IllegalAction(plan)
        return self._moved(state, unit, a, plan)

    def _moved(self, state: AnvilState, unit: Unit, a: Activation, plan: Plan) -> Step:
        state = state.with_unit(replace(unit, tray=plan.end))
        went = plan.path[-1] != plan.path[0]
        if a.excess_only:
            a = replace(a, excess=max(0.0, a.excess - plan.cost))
            left = a.excess
        else:
            a = replace(a, allowance=max(0.0, a.allowance - plan.cost), moved=a.moved or went)
            left = a.allowance
        state = replace(state, activation=a)
        event = UnitMoved(
            unit.id, plan.path, plan.end.facing, round(plan.cost, 4), round(left, 4), plan.short
        )
        return state, [event]

    def _pass(self, state: AnvilState, seat: int) -> Step:
        """Give up the CP left this turn (FA-AC-04 decided); an activation under way ends with it."""
        events: list[Event] = []
        a = state.activation
        if a is not None:
            events.append(ActivationEnded(a.unit, a.seat))
        given = state.cp[seat]
        state = replace(
            state, cp=pair(state.cp, seat, 0), passed=pair(state.passed, seat, True), activation=None
        )
        events.append(Passed(seat, given))
        over = flow.game_over(state, events)
        if over is not None:
            return over
        return flow.hand_over(state, seat, events)
