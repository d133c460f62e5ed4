"""Days of the Valkyrx behind the engine's one protocol."""

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
from iwgt.games.valkyrx import actions as act
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import (
    DeploymentConfirmed,
    SpellsChosen,
    UnitConcealed,
    UnitMoved,
    UnitPlaced,
    UnitTransported,
)
from iwgt.games.valkyrx.facts import FACTS, RULES_VERSION, SEAT_NAMES, SIDE_IDS, SIDE_TITLES
from iwgt.games.valkyrx.flow import after_cast, bury, chance_answered, end_phase, start_turn
from iwgt.games.valkyrx.hidden import resample_hidden
from iwgt.games.valkyrx.losses import sink
from iwgt.games.valkyrx.movement import check_move, destinations, why_not_move
from iwgt.games.valkyrx.observe import observe, state_to_json
from iwgt.games.valkyrx.reinforcements import add_troops, arriving, entry_cells, reserve_cell
from iwgt.games.valkyrx.scenario import SIDES, ValkyrxScenario, load_scenario, parse_scenario, scenario_names
from iwgt.games.valkyrx.spellbook import default_pack, spells, why_not_choose_spells
from iwgt.games.valkyrx.spells import cast, portals, target_options, transport_destinations, why_not_cast
from iwgt.games.valkyrx.state import Pending, Unit, ValkyrxState
from iwgt.games.valkyrx.stealth import conceal, is_grima, is_worm, reveal, set_quarry, surface, tunnel
from iwgt.games.valkyrx.units import unit_types
from iwgt.geometry.hexgrid import Hex, hex_to_offset, offset_to_hex


class ValkyrxGame:
    """Days of the Valkyrx: rules for war against the Demon King."""

    name = FACTS.name
    title = FACTS.title
    rules_version = RULES_VERSION
    facts = FACTS
    seat_names: tuple[str, ...] = SEAT_NAMES

    def seats(self, scenario: Scenario) -> tuple[str, ...]:
        """Every battle has two seats: the Light and the Darkness."""
        return SEAT_NAMES

    def scenario_card(self, scenario: Scenario) -> ScenarioCard:
        """The battle as the game selection shows it: board size, units a side, turns."""
        if not isinstance(scenario, ValkyrxScenario):
            raise TypeError("a Days of the Valkyrx scenario is needed")
        spec = scenario.spec
        return ScenarioCard(
            name=scenario.name,
            title=spec.title,
            description=spec.description,
            seats=SEAT_NAMES,
            turns=scenario.turn_limit,
            table=f"{spec.width}x{spec.height}",
            forces=" / ".join(str(len(spec.army[side])) for side in SIDES) + " units",
        )

    def status(self, state: ValkyrxState) -> Status:
        """Phase, turn, who acts, and whose phase it is (the movement timer's owner)."""
        return Status(state.phase, state.turn, self.to_move(state), state.mover)

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
        """Armies on their scenario cells, late troops in reserve; deployment open for seat 0 (the Light)."""
        if not isinstance(scenario, ValkyrxScenario):
            raise TypeError("a Days of the Valkyrx scenario is needed")
        types = unit_types()
        units: list[Unit] = []
        for seat, side in enumerate(SIDES):
            for p in scenario.spec.army[side]:
                t = types[p.unit]
                late = p.cell is None  # a late troop: in reserve until it arrives (VX-15-24)
                units.append(
                    Unit(
                        id=len(units),
                        type_id=t.id,
                        owner=seat,
                        cell=reserve_cell(scenario, seat) if p.cell is None else offset_to_hex(*p.cell),
                        strength=float(t.bodies),
                        morale=float(t.morale),
                        status="reserve" if late else "active",
                        carrier_only=t.has("plague_bearer"),  # Pocâdl's rats carry it (VX-13-POCADL-1)
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
        return Die(node.sides, node.purpose, node.secret)

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
                    if not u.in_reserve:  # late troops are placed when they arrive (VX-15-24)
                        out.extend(act.PlaceUnit(u.id, c) for c in free)
                    if u.type.has("wizard") and not u.spells:
                        # The default pack; a custom six is any valid ChooseSpells (not enumerated: 54,264).
                        out.append(act.ChooseSpells(u.id, ()))
            return out
        if state.phase == "spells":
            return self._casts(state, seat)
        out = []
        occ = state.occupancy()
        temple = {c for c, k in state.scenario.terrain.items() if k == "temple"}
        for u in state.units:
            if why_not_move(state, u, seat, occ) is not None:
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
        out.extend(self._secret_orders(state, seat, occ))
        late = arriving(state, seat, occ)
        if late:
            entries = entry_cells(state, seat, occ)
            out.extend(act.AddTroops(uid, c) for uid in late for c in entries)
        out.append(act.EndPhase())
        return out

    def _casts(self, state: ValkyrxState, seat: Seat) -> list[act.Action]:
        out: list[act.Action] = []
        table = spells()
        for u in state.units:
            if not u.type.has("wizard") or why_not_cast(state, u, seat) is not None:
                continue
            for sid in u.spells:
                for target in target_options(state, u, table[sid]):
                    out.append(act.CastSpell(u.id, sid, target))
        out.append(act.EndPhase())
        return out

    def _secret_orders(self, state: ValkyrxState, seat: Seat, occ: dict[Hex, Unit]) -> list[act.Action]:
        """Portal journeys, and the orders of the Grima and the Sand Worm."""
        out: list[act.Action] = []
        board = state.scenario.board
        gates = portals(state)
        for u in state.units:
            gate = gates.get(u.cell) if u.on_table and u.commander == seat else None
            if gate is not None and gate.side == seat and u.moved and u.id != gate.caster:
                out.extend(act.Transport(u.id, c) for c in transport_destinations(state, u, occ))
            if not u.in_play or u.owner != seat or u.commander != seat:
                continue  # the Grima and the worm take orders from their owner only
            why = why_not_move(state, u, seat, occ)
            if is_grima(u):
                if not u.hidden and why is None:
                    out.append(act.Conceal(u.id))
                if u.hidden and not u.moved:
                    out.append(act.Reveal(u.id))
                out.extend(
                    act.SetQuarry(u.id, t.id)
                    for t in state.units
                    if t.on_table and t.owner != seat and t.type.is_character and t.id != u.quarry
                )
            if is_worm(u):
                if not u.hidden and (why is None or why.startswith("it is locked")):
                    out.append(act.Conceal(u.id))
                if u.hidden and not u.moved:
                    reach = [c for c in board.cells_within(u.cell, rules_config().stealth.worm_tunnel)]
                    out.extend(act.Tunnel(u.id, c) for c in reach if c != u.cell)
                    out.extend(act.Surface(u.id, c) for c in reach)
        return out

    def apply(
        self, state: ValkyrxState, action: act.Action | ChanceOutcome
    ) -> tuple[ValkyrxState, list[Event]]:
        """Apply an action; a refused action raises and the state is untouched (it is a value)."""
        if not isinstance(action, ChanceOutcome):
            action = act.recorded(action)  # first: a foreign or mistyped action is malformed in any state
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
                if state.phase not in ("movement", "spells"):
                    raise IllegalAction("there is no movement phase or spells step to end now")
                return end_phase(state)
            case act.ChooseSpells():
                return self._choose_spells(state, action)
            case act.CastSpell():
                if state.phase != "spells" or state.mover is None:
                    raise IllegalAction("spells are cast in the combat round, in your spells step (VX-04-05)")
                self._unit(state, action.unit)
                state, events = cast(state, action.unit, action.spell, action.target, state.mover)
                return after_cast(state, events)
            case act.Transport():
                return self._transport(state, action)
            case act.Conceal() | act.Reveal() | act.SetQuarry() | act.Tunnel() | act.Surface():
                return self._stealth(state, action)
            case act.AddTroops():
                return self._add_troops(state, action)
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
            for u in state.units:  # VX-15-05: a wizard left unarmed takes his default pack
                if u.owner == seat and u.type.has("wizard") and not u.spells:
                    pack = default_pack(u.type)
                    state = state.with_unit(replace(u, spells=pack))
                    events.append(SpellsChosen(seat, u.id, pack, True))
            if seat == 0:
                return replace(state, deploy_seat=1), events
            state, more = start_turn(state)
            return state, events + more
        unit = self._unit(state, action.unit)
        if unit.owner != seat:
            raise IllegalAction(f"{unit.type.name} is not yours to place")
        if unit.in_reserve:
            turn = state.arrives(unit.id)
            raise IllegalAction(
                f"{unit.type.name} is a late troop: it is added to the table from turn {turn} (VX-15-24)"
            )
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
        why = why_not_move(state, unit, state.mover, state.occupancy())
        if why:  # before any other check, so a refusal says nothing of a unit the seat cannot move
            raise IllegalAction(f"{unit.type.name} cannot move: {why}")
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
        moved, sunk = sink(state, moved)  # VX-05-05
        events.extend(sunk)
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

    def _add_troops(self, state: ValkyrxState, action: act.AddTroops) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "movement" or state.mover is None:
            raise IllegalAction("late troops come on only in their owner's movement phase (VX-15-24)")
        self._unit(state, action.unit)
        state, events = add_troops(state, action.unit, action.to, state.mover)
        state, removed = bury(state)  # quicksand may leave nothing of a weak unit
        return state, [*events, *removed]

    def _choose_spells(
        self, state: ValkyrxState, action: act.ChooseSpells
    ) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "deploy":
            raise IllegalAction("wizards choose their spells before the game, at deployment (VX-11-02)")
        seat = state.deploy_seat
        unit = self._unit(state, action.unit)
        if unit.owner != seat:
            raise IllegalAction(f"{unit.type.name} is not yours to arm")
        if not unit.type.has("wizard"):
            raise IllegalAction(f"{unit.type.name} is no wizard and takes no spells")
        default = not action.spells
        pack = default_pack(unit.type) if default else action.spells
        problem = why_not_choose_spells(unit.type, pack, spells())
        if problem:
            raise IllegalAction(problem)
        state = state.with_unit(replace(unit, spells=pack))
        return state, [SpellsChosen(seat, unit.id, pack, default)]

    def _transport(self, state: ValkyrxState, action: act.Transport) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "movement" or state.mover is None:
            raise IllegalAction("units pass through a portal only in a movement phase")
        unit = self._unit(state, action.unit)
        gate = portals(state).get(unit.cell)
        if unit.commander != state.mover or not unit.on_table:
            raise IllegalAction(f"{unit.type.name} is not under your command")
        if gate is None or gate.side != state.mover:
            raise IllegalAction(f"{unit.type.name} does not stand on an open portal of yours")
        if unit.id == gate.caster:
            raise IllegalAction("a wizard cannot transport himself (VX-SP-TRANSPORT-6)")
        if not unit.moved:
            raise IllegalAction(f"{unit.type.name} must first move onto the portal this turn")
        if action.to not in transport_destinations(state, unit, state.occupancy()):
            raise IllegalAction(
                "a portal sends a unit to a free cell that is not impassable, the Temple, lava, "
                "or next to an enemy (VX-SP-TRANSPORT-4)"
            )
        used = replace(gate, used=gate.used + 1)
        ench = tuple(used if e == gate else e for e in state.enchantments)
        moved = replace(unit, cell=action.to, airborne=False)
        state = replace(state.with_unit(moved), enchantments=ench)
        return state, [UnitTransported(unit.id, hex_to_offset(unit.cell), hex_to_offset(action.to))]

    def _stealth(
        self, state: ValkyrxState, action: act.Conceal | act.Reveal | act.SetQuarry | act.Tunnel | act.Surface
    ) -> tuple[ValkyrxState, list[Event]]:
        if state.phase != "movement" or state.mover is None:
            raise IllegalAction("the Grima and the Sand Worm take orders in their owner's movement phase")
        seat = state.mover
        unit = self._unit(state, action.unit)
        if unit.owner != seat:
            raise IllegalAction(f"{unit.type.name} is not yours to order")
        match action:
            case act.Conceal():
                why = why_not_move(state, unit, seat, state.occupancy())
                state, events = conceal(state, unit.id, seat, why)
                return state, [*events, UnitConcealed(unit.id)]
            case act.Reveal():
                return reveal(state, unit.id, seat)
            case act.SetQuarry():
                return set_quarry(state, unit.id, action.target, seat)
            case act.Tunnel():
                return tunnel(state, unit.id, action.to, seat)
            case act.Surface():
                return surface(state, unit.id, action.at, seat)
        raise MalformedAction(f"not a stealth order: {action!r}")

    def is_terminal(self, state: ValkyrxState) -> bool:
        """Whether the game is over."""
        return state.result is not None

    def result(self, state: ValkyrxState) -> Result | None:
        """The result of a finished game: one side wins and the other loses, or a draw."""
        verdict = state.result
        if verdict is None:
            return None
        if verdict.winner is None:
            return Result.draw(2, verdict.reason)
        w = verdict.winner
        return Result.win((w,), 2, verdict.reason, side=SIDE_IDS[w], title=SIDE_TITLES[w])

    def observe(self, state: ValkyrxState, seat: Seat | None) -> JSON:
        """What a seat sees: hidden units, the Grima's quarry and held spells stay with their owner."""
        return observe(state, seat)

    def resample_hidden(
        self, state: ValkyrxState, seat: Seat | None, pick: Callable[[int], int]
    ) -> ValkyrxState:
        """A state the seat cannot tell from this one, its hidden facts redrawn by ``pick(n)`` in 0..n-1."""
        return resample_hidden(state, seat, pick)

    def undoable(self, before: ValkyrxState, action: act.Action, after: ValkyrxState) -> bool:
        """Undo is refused while an enemy unit moves unseen (a Grima in stealth, the Sand Worm underground).

        Where a hidden unit stands can decide what a move meets, so trying a move and taking it back would let
        a player feel for it; the table's own check (core/referee.py) redraws hidden facts only a few ways.
        """
        actor = self.to_move(before)
        return not any(u.hidden and u.in_play and u.owner != actor for u in before.units)

    def action_view(self, action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
        """A secret order (spells chosen, the Grima's quarry, a worm tunnelling) reaches only its actor."""
        if isinstance(action, act.PRIVATE_ACTIONS) and seat != actor:
            return {"type": "secret_order"}
        return act.action_to_json(action)

    def action_to_json(self, action: act.Action) -> JSON:
        """An action as JSON."""
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> act.Action:
        """An action from JSON."""
        return act.action_from_json(data)

    def state_to_json(self, state: ValkyrxState) -> JSON:
        """The whole state as canonical JSON."""
        return state_to_json(state)
