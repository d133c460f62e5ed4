"""The sequence of play (section 4) as pure functions from state to (state, events).

``TURN_STEPS`` names the steps of a turn in order and ``current_step`` tells which one a state is in;
each step function moves the state on to the next. Chance nodes (``Pending``) pause the flow until a
die answers them.
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event, Seat
from iwgt.games.valkyrx.abilities import devour, elves_depart, raise_dead, troll_victim
from iwgt.games.valkyrx.combat import close_combat_plan, missile_groups, missile_plan, resolve_round
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import (
    CombatReport,
    ContactMade,
    FirstMoverChosen,
    GameOver,
    MovementPhaseStarted,
    PlagueChain,
    ReportLine,
    TemplePrayer,
    UnitMoved,
    UnitRemoved,
)
from iwgt.games.valkyrx.losses import sink, wiped_out
from iwgt.games.valkyrx.morale import apply_morale, morale_status
from iwgt.games.valkyrx.movement import allowance, compulsory_destination, is_ground, why_not_move
from iwgt.games.valkyrx.plague import bearer_answered, spread, take_losses
from iwgt.games.valkyrx.reinforcements import arriving
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.spells import (
    armageddon_answered,
    armageddon_due,
    can_cast_now,
    crack_titans,
    is_leaden,
    new_turn,
    resist_answered,
    spell_dice_answered,
    spread_lava,
)
from iwgt.games.valkyrx.state import Contact, Pending, Unit, ValkyrxState, Verdict
from iwgt.games.valkyrx.stealth import grima_answered, is_grima, is_worm, pursue, sunstroke, worm_answered
from iwgt.games.valkyrx.targeting import order_rolls_needed
from iwgt.geometry.hexgrid import hex_to_offset, neighbours

TURN_STEPS = ("first_mover", "player_1_move", "player_2_move", "combat_round", "reports")
"""VX-04-01: Player 1 move, Player 2 move, Combat round (including spells), Reports."""

Flow = tuple[ValkyrxState, list[Event]]


def current_step(state: ValkyrxState) -> str:
    """The step of ``TURN_STEPS`` a state is in ("deployment" before the first turn, "over" at the end)."""
    if state.phase in ("deploy", "over"):
        return "deployment" if state.phase == "deploy" else "over"
    if state.phase == "first_mover":
        return TURN_STEPS[0]
    if state.phase == "movement":
        return TURN_STEPS[1 + state.movers_done]
    return TURN_STEPS[3]


def start_turn(state: ValkyrxState) -> Flow:
    """A new turn: clear the per-turn marks and ask the dice who moves first (VX-04-03)."""
    turn = state.turn + 1
    units = tuple(
        replace(u, moved=False, moved_cost=0.0, charging=False, casualties_turn=0.0) for u in state.units
    )
    state = replace(state, turn=turn, units=units, phase="first_mover", movers_done=0, mover=None)
    state = new_turn(state)  # spells run out, command changes hands (VX-SP-COMMAND-2, -3)
    if rules_config().turn.first_mover == "once" and state.first_mover is not None:
        return start_movement(state, state.first_mover)
    return replace(
        state,
        pending=(
            Pending(
                "first_mover",
                sides=2,
                purpose=f"who moves first in turn {turn} (1: the Light, 2: the Darkness)",
            ),
        ),
    ), []


def first_mover_rolled(state: ValkyrxState, face: int) -> Flow:
    """Face 1: the Light (seat 0) moves first; face 2: the Darkness."""
    seat = face - 1
    state = replace(state, first_mover=seat)
    state, events = start_movement(state, seat)
    return state, [FirstMoverChosen(state.turn, seat), *events]


def start_movement(state: ValkyrxState, seat: Seat) -> Flow:
    """A seat's movement phase: compulsory moves first (VX-03-08), then the lit units (VX-03-01)."""
    state = replace(state, phase="movement", mover=seat)
    events: list[Event] = []
    for unit in state.units:
        if unit.on_table and unit.routed and unit.commander == seat and not is_leaden(state, unit.id):
            to = compulsory_destination(state, unit)
            if to is not None:
                events.append(
                    UnitMoved(unit.id, hex_to_offset(unit.cell), hex_to_offset(to), 0.0, compulsory=True)
                )
                # A compulsory move is a ground move like any other: quicksand takes its quarter (VX-05-05).
                fled, sunk = sink(state, replace(unit, cell=to, airborne=False))
                state = state.with_unit(fled)
                events.extend(sunk)
            state = state.with_unit(replace(state.units[unit.id], moved=True))
    state, removed = bury(state)  # quicksand may leave nothing of a weak fleeing unit
    events.extend(removed)
    occ = state.occupancy()
    movable = tuple(u.id for u in state.units if why_not_move(state, u, seat, occ) is None)
    late = arriving(state, seat, occ)  # the Add troops button lights (VX-15-24)
    events.append(MovementPhaseStarted(state.turn, seat, movable, late))
    secret_orders = any(
        u.in_play and u.owner == seat and u.commander == seat and (is_grima(u) or (is_worm(u) and u.hidden))
        for u in state.units
    )
    if not movable and not secret_orders and not late:  # nothing is lit: the phase ends by itself
        state, more = end_phase(state)
        events.extend(more)
    return state, events


def end_phase(state: ValkyrxState) -> Flow:
    """End the mover's phase (movement or spells); after both seats, the step is over."""
    if state.phase == "spells":
        return _next_caster(state)
    done = state.movers_done + 1
    state = replace(state, movers_done=done)
    if done == 1:
        assert state.first_mover is not None
        return start_movement(state, 1 - state.first_mover)
    return end_movement(state)


def end_movement(state: ValkyrxState) -> Flow:
    """Both seats have moved: the hidden Grima pursues her quarry and may strike (VX-12-04), then contacts."""
    state = replace(state, phase="combat", mover=None)
    state, events = pursue(state)
    if state.pending:
        return state, events
    state, more = judge_contacts(state)
    return state, events + more


def judge_contacts(state: ValkyrxState) -> Flow:
    """Contacts are judged only now, after both moves (VX-04-08); the plague spreads; hungry Trolls."""
    share = rules_config().movement.contact_defers_combat_share
    occ = state.occupancy()
    contacts: list[Contact] = []
    events: list[Event] = []
    for unit in state.units:
        if not is_ground(unit):
            continue
        for n in neighbours(unit.cell):
            other = occ.get(n)
            if (
                other is None
                or other.id <= unit.id
                or other.commander == unit.commander
                or not is_ground(other)
            ):
                continue
            old = state.contact(unit.id, other.id)
            if old is not None and not (unit.moved_cost > 0 or other.moved_cost > 0):
                contacts.append(replace(old, deferred=False))  # a late arrival fights from the next turn
                continue
            movers = [u for u in (unit, other) if u.moved and u.moved_cost > 0]
            late = [u for u in movers if u.moved_cost > share * allowance(state, u).normal + 1e-9]
            deferred = bool(late) and not any(u.charging for u in movers)  # VX-02-10, VX-04-10
            contacts.append(Contact(unit.id, other.id, deferred=deferred))
            events.append(ContactMade(unit.id, other.id, deferred))
    state = replace(state, contacts=tuple(contacts), phase="combat", mover=None)
    state, infected = spread(state)  # VX-SP-PLAGUE-5: contact at the end of the movement phase
    events.extend(infected)
    trolls = tuple(
        Pending(
            "troll",
            unit=u.id,
            sides=rules_config().abilities.troll_devour_chance,
            purpose=f"is {u.label} hungry? (a 1 devours a friend)",
        )
        for u in state.units
        if u.on_table and troll_victim(state, u) is not None
    )
    if trolls or state.pending:
        return replace(state, pending=(*state.pending, *trolls)), events
    state, more = begin_spells(state)
    return state, events + more


def begin_spells(state: ValkyrxState) -> Flow:
    """The combat round opens with the spells (VX-04-05): the lava spreads, then the first mover casts."""
    state, events = spread_lava(state)
    state = replace(state, phase="spells", movers_done=0, mover=None)
    state, more = bury(state)
    events.extend(more)
    assert state.first_mover is not None
    if can_cast_now(state, state.first_mover):
        return replace(state, mover=state.first_mover), events
    state, more2 = _next_caster(state)
    return state, events + more2


def _next_caster(state: ValkyrxState) -> Flow:
    """The other seat casts after the first mover; then the spells step is over."""
    assert state.first_mover is not None
    if state.movers_done == 0:
        other = 1 - state.first_mover
        state = replace(state, movers_done=1)
        if can_cast_now(state, other):
            return replace(state, mover=other), []
    return end_spells(replace(state, mover=None))


def end_spells(state: ValkyrxState) -> Flow:
    """After both seats cast, an Armageddon whose turn has come is tried (VX-SP-ARMAGEDDON-1, -3)."""
    due = armageddon_due(state)
    if due:
        pending = tuple(
            Pending(
                "armageddon",
                unit=e.caster,
                sides=spells()["armageddon"].works_sides or 4,
                purpose="do the gods deliver Armageddon? (a 1 destroys everything)",
            )
            for e in due
        )
        return replace(state, pending=pending, phase="combat"), []
    return begin_combat(replace(state, phase="combat"))


def after_cast(state: ValkyrxState, events: list[Event]) -> Flow:
    """A spell is done: the slain are removed; a seat with nothing more to cast ends its spells step."""
    state, removed = bury(state)
    events = events + list(removed)
    if state.result is None and state.casting is None and not state.pending:
        assert state.mover is not None
        if not can_cast_now(state, state.mover):
            state, more = _next_caster(state)
            events.extend(more)
    return state, events


def begin_combat(state: ValkyrxState) -> Flow:
    """The combat round: first any dice to order missile units of equal value (VX-09-11)."""
    sides = order_rolls_needed(missile_groups(state))
    if sides:
        return replace(
            state,
            pending=tuple(Pending("order", sides=k, purpose="firing order of equal units") for k in sides),
            rolls=(),
        ), []
    return plan_round(replace(state, rolls=()))


def plan_round(state: ValkyrxState) -> Flow:
    """Fix who attacks whom, then ask one d100 per attacking unit for its random factor (VX-07-05)."""
    plan = tuple(close_combat_plan(state)) + tuple(missile_plan(state, state.rolls))
    attackers = sorted({a.attacker for a in plan})
    pending = tuple(
        Pending("factor", unit=uid, sides=100, purpose=f"random factor for {state.units[uid].label}")
        for uid in attackers
    )
    state = replace(state, plan=plan, rolls=(), pending=pending)
    if not pending:
        return finish_round(state)
    return state, []


def finish_round(state: ValkyrxState) -> Flow:
    """Resolve the round, then abilities, morale, removals, the report, and the end of the game."""
    faces = {p: f for p, f in zip(sorted({a.attacker for a in state.plan}), state.rolls, strict=True)}
    state, combat_events, outcome = resolve_round(state, state.plan, faces)
    events: list[Event] = list(combat_events)
    state = replace(state, plan=(), rolls=())
    state, cracked = crack_titans(state)  # fire and ice together (VX-13-VERTIGRON-2)
    events.extend(cracked)
    state, sick = take_losses(state)  # VX-SP-PLAGUE-6, before morale: they are this turn's casualties
    events.extend(sick)
    state, burnt = sunstroke(state)  # VX-12-13
    events.extend(burnt)
    state, removed = bury(state)  # first: the slain stay slain, and a fallen King raises no one
    events.extend(removed)
    state, raised = raise_dead(state)
    events.extend(raised)
    # A Supreme Leader gone from the table for any reason (slain, fled, the Temple) is mourned once;
    # one still in reserve has not fallen (VX-15-24).
    gone = [
        u for u in state.units if u.type.has("supreme_leader") and u.gone and u.id not in state.leaders_slain
    ]
    fallen = {seat: sum(1 for u in gone if u.owner == seat) for seat in (0, 1)}
    state = replace(state, leaders_slain=(*state.leaders_slain, *(u.id for u in gone)))
    state, morale_events = apply_morale(state, outcome.won, outcome.flanked, outcome.outnumbered, fallen)
    events.extend(morale_events)
    state, left = elves_depart(state)
    events.extend(left)
    events.append(report(state))
    result = judge(state)
    if result is not None:
        state = replace(state, result=result, phase="over", pending=())
        events.extend(game_over(state))
        return state, events
    state, more = start_turn(state)
    return state, events + more


def game_over(state: ValkyrxState) -> list[Event]:
    """The Game Over message, and the plague's whole story for the end-of-game report (VX-SP-PLAGUE-8)."""
    assert state.result is not None
    out: list[Event] = [GameOver(state.result.winner, state.result.reason)]
    if state.plague_chain:
        out.append(PlagueChain(tuple((i.turn, i.unit, i.source, i.by_spell) for i in state.plague_chain)))
    return out


def bury(state: ValkyrxState) -> tuple[ValkyrxState, list[UnitRemoved]]:
    """Units with no strength left are destroyed and removed (VX-14-10)."""
    events: list[UnitRemoved] = []
    for u in state.units:
        if u.in_play and u.is_spent:
            state = state.with_unit(wiped_out(u))
            events.append(UnitRemoved(u.id, "destroyed"))
    return state, events


def lost_this_turn(state: ValkyrxState, u: Unit) -> float:
    """Everything the unit lost this turn, as its health bar fell (VX-15-22): its casualties
    (``casualties_turn``: combat, shooting, spells, quicksand, a Troll, the plague, the Sand Worm, and all
    that a removal took), and a wizard's cost of casting, which is no casualty for morale (VX-10-15,
    VX-11-04) but a loss all the same."""
    cost = rules_config().magic.cast_cost if u.type.has("wizard") and u.cast_turn == state.turn else 0.0
    return u.casualties_turn + cost


def report(state: ValkyrxState) -> CombatReport:
    """The health-bar report: every unit's strength, everything it lost this turn and its morale level."""
    lines = tuple(
        ReportLine(
            unit=u.id,
            name=u.type.name,
            side=("light", "darkness")[u.owner],
            strength=round(u.strength, 3),
            start=u.start_strength,
            casualties=round(lost_this_turn(state, u), 3),
            morale=round(u.spirit, 3),
            level=morale_status(u.spirit) if u.in_play else "-",
            status=("hidden" if u.hidden else "routed" if u.routed else u.status) if u.in_play else u.status,
            infected=shows_skull(u),
        )
        for u in state.units
    )
    return CombatReport(state.turn, lines)


def points_destroyed(state: ValkyrxState, seat: Seat) -> float:
    """Points of the seat's enemies destroyed: full value for removed units, lost share for the rest.

    A late troop still in reserve has lost nothing (VX-15-24).
    """
    return sum(
        u.type.points if u.gone else max(0.0, u.type.points - u.value)  # swollen undead lose nothing
        for u in state.units
        if u.owner != seat
    )


def judge(state: ValkyrxState) -> Verdict | None:
    """Victory conditions chosen by the scenario (VX-15-26; the rules name none)."""
    spec = state.scenario.spec
    # A side with late troops still to come is not annihilated: they will arrive (VX-15-24).
    alive = [any(not u.gone and u.owner == s for u in state.units) for s in (0, 1)]
    if not any(alive):
        return Verdict(None, "both armies are gone from the field")
    if not all(alive):
        winner = 0 if alive[0] else 1
        return Verdict(winner, f"the {('Light', 'Darkness')[1 - winner]} has nothing left on the table")
    if "leader" in spec.victory:
        fallen = [
            any(u.owner == s and u.type.has("supreme_leader") and u.gone for u in state.units) for s in (0, 1)
        ]
        if all(fallen):
            return Verdict(None, "both Supreme Leaders have fallen")
        if any(fallen):
            winner = 1 if fallen[0] else 0
            return Verdict(winner, "the enemy's Supreme Leader has fallen")
    if state.turn >= state.scenario.turn_limit:
        if "points" in spec.victory:
            got = [points_destroyed(state, s) for s in (0, 1)]
            if abs(got[0] - got[1]) < 0.5:
                return Verdict(None, f"turn limit: each side destroyed {got[0]:.0f} points")
            winner = 0 if got[0] > got[1] else 1
            return Verdict(
                winner, f"turn limit: the Light destroyed {got[0]:.0f} points, the Darkness {got[1]:.0f}"
            )
        return Verdict(None, f"turn limit of {state.scenario.turn_limit} reached")
    return None


def shows_skull(unit: Unit) -> bool:
    """The skull beside a sickening unit (VX-SP-PLAGUE-7); never beside a carrier that does not sicken."""
    return unit.infected > 0 and not unit.carrier_only


def chance_answered(state: ValkyrxState, face: int) -> Flow:
    """Pop the pending chance node, record or apply its face, and continue the flow."""
    node, rest = state.pending[0], state.pending[1:]
    state = replace(state, pending=rest)
    if node.kind == "first_mover":
        return first_mover_rolled(state, face)
    if node.kind == "temple":
        return temple_answered(state, node.unit, face)
    if node.kind == "worm":
        state, events = worm_answered(state, node.unit, face)
        state, removed = bury(state)
        return state, [*events, *removed]
    if node.kind == "grima":
        state, events = grima_answered(state, node.unit, face)
        if rest:
            return state, events
        state, more = judge_contacts(state)
        return state, events + more
    if node.kind in ("troll", "bearer"):
        if node.kind == "troll":
            state, devoured = devour(state, state.units[node.unit], face)
            happened: list[Event] = list(devoured)
        else:
            state, happened = bearer_answered(state, node.unit, face)
        state, removed = bury(state)
        if rest:
            return state, [*happened, *removed]
        state, more = begin_spells(state)
        return state, [*happened, *removed, *more]
    if node.kind == "armageddon":
        state, events = armageddon_answered(state, node.unit, face)
        done = tuple(e for e in state.enchantments if not (e.spell == "armageddon" and e.caster == node.unit))
        state = replace(state, enchantments=done)
        if state.result is not None:
            return state, events + game_over(state)
        if rest:
            return state, events
        state, more = begin_combat(state)
        return state, events + more
    if node.kind in ("resist", "spell"):
        state = replace(state, rolls=(*state.rolls, face))
        if rest:
            return state, []
        if node.kind == "resist":
            state, events = resist_answered(state)
        else:
            state, events = spell_dice_answered(state)
        return after_cast(state, events)
    state = replace(state, rolls=(*state.rolls, face))
    if rest:
        return state, []
    if node.kind == "order":
        return plan_round(state)
    return finish_round(state)


def temple_answered(state: ValkyrxState, uid: int, face: int) -> Flow:
    """VX-05-07: 50:50. Face 2: powers for the following five turns; face 1: thrown into the void."""
    unit = state.units[uid]
    if face == 2:
        until = state.turn + rules_config().abilities.temple_turns
        state = state.with_unit(replace(unit, temple_until=until))
        return state, [TemplePrayer(uid, True, until)]
    state = state.with_unit(wiped_out(unit))
    return state, [TemplePrayer(uid, False, 0), UnitRemoved(uid, "destroyed")]
