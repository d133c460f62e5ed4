"""Days of the Valkyrx behind the engine's one protocol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction, MalformedAction
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event, Result, Scenario, Seat
from iwgt.games.valkyrx import actions as act
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import DeploymentConfirmed, TerrainCasualties, UnitMoved, UnitPlaced
from iwgt.games.valkyrx.flow import bury, chance_answered, end_phase, start_turn
from iwgt.games.valkyrx.movement import check_move, destinations, immobile_reason
from iwgt.games.valkyrx.observe import observe, state_to_json
from iwgt.games.valkyrx.scenario import SIDES, ValkyrxScenario, load_scenario, parse_scenario, scenario_names
from iwgt.games.valkyrx.state import Pending, Unit, ValkyrxState
from iwgt.games.valkyrx.units import unit_types
from iwgt.geometry.hexgrid import hex_to_offset, offset_to_hex

RULES_VERSION = "valkyrx-1.0"
"""Bumped whenever a rule or a decided number changes, so old records are refused, not misread."""


class ValkyrxGame:
    """Days of the Valkyrx: rules for war against the Demon King."""

    name = "valkyrx"
    title = "Days of the Valkyrx"
    rules_version = RULES_VERSION
    seat_names: tuple[str, ...] = ("Forces of the Light", "Forces of Darkness")

    def scenario_names(self) -> list[str]:
        """The shipped scenarios."""
        return scenario_names()

    def load_scenario(self, ref: str) -> ValkyrxScenario:
        """A shipped scenario by name, or a file by path."""
        return load_scenario(ref)

    def parse_scenario(self, text: str, origin: str) -> ValkyrxScenario:
        """A scenario from TOML text."""
        return parse_scenario(text, origin)

    def initial_state(self, scenario: Scenario) -> ValkyrxState:
        """Armies set on their scenario cells, deployment open for seat 0 (the Light)."""
        if not isinstance(scenario, ValkyrxScenario):
            raise TypeError("a Days of the Valkyrx scenario is needed")
        types = unit_types()
        units: list[Unit] = []
        for seat, side in enumerate(SIDES):
            for p in scenario.spec.army[side]:
                t = types[p.unit]
                units.append(
                    Unit(
                        id=len(units),
                        type_id=t.id,
                        owner=seat,
                        cell=offset_to_hex(*p.cell),
                        strength=float(t.bodies),
                        morale=float(t.morale),
                    )
                )
        return ValkyrxState(scenario=scenario, units=tuple(units))

    def to_move(self, state: ValkyrxState) -> Seat | None:
        """The seat to act, CHANCE at a chance node, None when the game is over."""
        if state.result is not None:
            return None
        if state.pending:
            return CHANCE
        if state.phase == "deploy":
            return state.deploy_seat
        return state.mover

    def chance_outcomes(self, state: ValkyrxState) -> Die | None:
        """The die the next chance node needs."""
        if not state.pending or state.result is not None:
            return None
        node = state.pending[0]
        return Die(node.sides, node.purpose)

    def legal_actions(self, state: ValkyrxState, seat: Seat) -> Sequence[act.Action]:
        """Every legal action of the seat now (the lit cells come from this)."""
        if seat == CHANCE or self.to_move(state) != seat:
            return []  # the dice have no "actions": they answer chance_outcomes
        if state.phase == "deploy":
            zone = state.scenario.deployment[seat]
            free = sorted(zone - state.occupancy().keys(), key=state.scenario.board.index.__getitem__)
            out: list[act.Action] = [act.ConfirmDeployment()]
            for u in state.units:
                if u.owner == seat:
                    out.extend(act.PlaceUnit(u.id, c) for c in free)
            return out
        out = []
        occ = state.occupancy()
        temple = {c for c, k in state.scenario.terrain.items() if k == "temple"}
        for u in state.units:
            if immobile_reason(state, u, seat, occ) is not None:
                continue
            d = destinations(state, u, occ)
            for cells, charge, airborne in (
                (d.walk, False, False),
                (d.charge, True, False),
                (d.fly, False, True),
            ):
                for c in cells:
                    out.append(act.Move(u.id, c, charge=charge, airborne=airborne))
                    if c in temple and not u.prayed:
                        out.append(act.Move(u.id, c, charge=charge, airborne=airborne, pray=True))
        out.append(act.EndPhase())
        return out

    def apply(
        self, state: ValkyrxState, action: act.Action | ChanceOutcome
    ) -> tuple[ValkyrxState, list[Event]]:
        """Apply an action; a refused action raises and the state is untouched (it is a value)."""
        if state.result is not None:
            raise IllegalAction("the game is over")
        if isinstance(action, ChanceOutcome):
            if not state.pending:
                raise IllegalAction("no die is awaited now")
            sides = state.pending[0].sides
            if not 1 <= action.face <= sides:
                raise IllegalAction(f"a d{sides} has no face {action.face}")
            return chance_answered(state, action.face)
        if state.pending:
            raise IllegalAction(f"the table is waiting for a die: {state.pending[0].purpose}")
        match action:
            case act.PlaceUnit() | act.ConfirmDeployment():
                return self._deploy(state, action)
            case act.Move():
                return self._move(state, action)
            case act.EndPhase():
                if state.phase != "movement":
                    raise IllegalAction("there is no movement phase to end now")
                return end_phase(state)
        raise MalformedAction(f"not a Days of the Valkyrx action: {action!r}")

    def _unit(self, state: ValkyrxState, uid: int) -> Unit:
        if not 0 <= uid < len(state.units):
            raise MalformedAction(f"there is no unit {uid} (units are 0..{len(state.units) - 1})")
        return state.units[uid]

    def _deploy(
        self, state: ValkyrxState, action: act.PlaceUnit | act.ConfirmDeployment
    ) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "deploy":
            raise IllegalAction("deployment is over")
        seat = state.deploy_seat
        if isinstance(action, act.ConfirmDeployment):
            events: list[Event] = [DeploymentConfirmed(seat)]
            if seat == 0:
                return replace(state, deploy_seat=1), events
            state, more = start_turn(state)
            return state, events + more
        unit = self._unit(state, action.unit)
        if unit.owner != seat:
            raise IllegalAction(f"{unit.type.name} is not yours to place")
        if action.to not in state.scenario.deployment[seat]:
            raise IllegalAction("that cell is not lit for your deployment (VX-02-12)")
        occ = state.occupancy()
        if action.to == unit.cell:
            raise IllegalAction(f"{unit.type.name} already stands there")
        if action.to in occ:
            raise IllegalAction(f"that cell already holds {occ[action.to].type.name}")
        return state.with_unit(replace(unit, cell=action.to)), [UnitPlaced(unit.id, hex_to_offset(action.to))]

    def _move(self, state: ValkyrxState, move: act.Move) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "movement" or state.mover is None:
            raise IllegalAction("units move only in a movement phase")
        unit = self._unit(state, move.unit)
        if move.pray:
            if state.scenario.terrain.get(move.to) != "temple":
                raise IllegalAction("only a unit entering the Temple of Ψεύδος may pray (VX-05-06)")
            if unit.prayed:
                raise IllegalAction(f"{unit.type.name} has already prayed at the Temple")
        cost = check_move(state, unit, state.mover, move.to, charge=move.charge, airborne=move.airborne)
        moved = replace(
            unit,
            cell=move.to,
            moved=True,
            moved_cost=cost,
            charging=move.charge,
            last_charge=state.turn if move.charge else unit.last_charge,
            airborne=move.airborne,
            prayed=unit.prayed or move.pray,
        )
        events: list[Event] = [
            UnitMoved(
                unit.id, hex_to_offset(unit.cell), hex_to_offset(move.to), cost, move.charge, move.airborne
            )
        ]
        if not move.airborne and state.scenario.terrain.get(move.to) == "quicksand":  # VX-05-05
            cas = moved.strength * rules_config().combat.quicksand_casualties
            moved = replace(moved, strength=moved.strength - cas, casualties_turn=moved.casualties_turn + cas)
            events.append(TerrainCasualties(unit.id, cas, "quicksand"))
        state = state.with_unit(moved)
        state, removed = bury(state)
        events.extend(removed)
        if move.pray and state.units[unit.id].on_table:
            node = Pending(
                "temple",
                unit=unit.id,
                sides=2,
                purpose=f"{unit.label} prays at the Temple (1: the void, 2: the gods answer)",
            )
            state = replace(state, pending=(node,))
        return state, events

    def is_terminal(self, state: ValkyrxState) -> bool:
        """Whether the game is over."""
        return state.result is not None

    def result(self, state: ValkyrxState) -> Result | None:
        """The result of a finished game."""
        return state.result

    def observe(self, state: ValkyrxState, seat: Seat | None) -> JSON:
        """What a seat sees (section 12's hidden units arrive with the next issue; none are hidden yet)."""
        return observe(state, seat)

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)

    def state_to_json(self, state: ValkyrxState) -> JSON:
        """The whole state as canonical JSON."""
        return state_to_json(state)
