"""Wizards and spells (section 11 and the spells table): arming, casting, resisting, and spells in force.

A cast is a small state machine, ``ValkyrxState.casting``: the spell is paid for and announced, then each unit
it reaches that could resist rolls its Resist Magic die (stage "resist"), then the spell's own dice if it has
any (stage "effect": Earthquake's d10s, the secret plague die), and then it takes effect. Lasting spells are
``Enchantment`` values; the rest of the rules ask this module what is in force (``attack_factor``,
``is_asleep``, ``lava_cells`` ...), so no other module knows a spell by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event, Seat
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.events import (
    ArmageddonRolled,
    CarrierCured,
    LavaSpread,
    PlagueCarrierChosen,
    PlagueCured,
    SpellCast,
    SpellCasualties,
    SpellEnded,
    SpellFizzled,
    SpellResisted,
    SpellTookEffect,
    TitanCracked,
    UnitRemoved,
    UnitRestored,
)
from iwgt.games.valkyrx.losses import received, wiped_out
from iwgt.games.valkyrx.spellbook import Spell, spells
from iwgt.games.valkyrx.state import Casting, Enchantment, Infection, Pending, Unit, ValkyrxState, Verdict
from iwgt.geometry.hexgrid import Hex, distance, hex_to_offset, neighbours, within

Flow = tuple[ValkyrxState, list[Event]]

_EPS = 1e-9


# --- what is in force ---------------------------------------------------------------------------------


def in_force(state: ValkyrxState, spell: str, uid: int) -> bool:
    """Whether a spell holds this unit in the current turn."""
    return any(e.spell == spell and uid in e.units and e.covers(state.turn) for e in state.enchantments)


def _factor(state: ValkyrxState, unit: Unit, field: str) -> float:
    table = spells()
    out = 1.0
    for sid in sorted({e.spell for e in state.enchantments if unit.id in e.units and e.covers(state.turn)}):
        value = getattr(table[sid], field)
        if value is not None:
            out *= value  # one factor per spell: the same spell twice on a unit does not stack
    return out


def attack_factor(state: ValkyrxState, unit: Unit) -> float:
    """Factor on the casualties the unit inflicts: Strength x1.5, Weakness x0.5, Lead Boots x0.5."""
    return _factor(state, unit, "attack_factor")


def defence_factor(state: ValkyrxState, unit: Unit) -> float:
    """Factor on the unit's defence score (casualties it takes are divided by it): Strength, Weakness."""
    return _factor(state, unit, "defence_factor")


def move_factor(state: ValkyrxState, unit: Unit) -> float:
    """Factor on the unit's movement allowance: Speed x2 (VX-SP-SPEED-2)."""
    return _factor(state, unit, "move_factor")


def is_asleep(state: ValkyrxState, uid: int) -> bool:
    """Asleep this turn: makes no attack (VX-SP-SLEEP-2)."""
    return in_force(state, "sleep", uid)


def is_disharmonious(state: ValkyrxState, uid: int) -> bool:
    """Turned upon itself this combat round (VX-SP-DISHARMONY-2)."""
    return in_force(state, "disharmony", uid)


def is_leaden(state: ValkyrxState, uid: int) -> bool:
    """Cannot move (VX-SP-LEADBOOTS-2)."""
    return in_force(state, "lead_boots", uid)


def is_shielded(state: ValkyrxState, uid: int) -> bool:
    """Kept from all harm by his Shield (VX-SP-SHIELD-3)."""
    return in_force(state, "shield", uid)


def lava_cells(state: ValkyrxState, turn: int | None = None) -> frozenset[Hex]:
    """Cells covered by Creeping Death in a turn (now by default): 1, 7, then 19 cells (VX-SP-CREEP-2..5)."""
    turn = state.turn if turn is None else turn
    board = state.scenario.board
    out: set[Hex] = set()
    for e in state.enchantments:
        if e.spell == "creeping_death" and e.covers(turn):
            out.update(c for c in within(e.cells[0], turn - e.cast_turn) if board.contains(c))
    return frozenset(out)


def portals(state: ValkyrxState) -> dict[Hex, Enchantment]:
    """Open portals this turn by cell (VX-SP-TRANSPORT-2)."""
    return {
        e.cells[0]: e
        for e in state.enchantments
        if e.spell == "transportation" and e.covers(state.turn) and e.used < (spells()[e.spell].carries or 0)
    }


def lava_proof(unit: Unit) -> bool:
    """Ǻstígend, the Fire Dragon, resists the heat (VX-SP-CREEP-7, VX-13-ASTIGEND-2)."""
    return unit.type.has("flyer") and unit.type.has("fire_weapon")


def plague_immune(unit: Unit) -> bool:
    """Living Spirits, Elves and the undead never catch or carry the plague (VX-SP-PLAGUE-10)."""
    return any(unit.type.has(t) for t in ("living_spirit", "elf", "undead"))


# --- who may cast what --------------------------------------------------------------------------------


def why_not_cast(state: ValkyrxState, unit: Unit, seat: Seat) -> str | None:
    """Why this unit may not cast now, or None if it may."""
    if not unit.type.has("wizard"):
        return f"{unit.type.name} is no wizard"
    if unit.owner != seat or unit.commander != seat:
        return f"{unit.type.name} does not cast for you"
    if unit.in_reserve:
        return f"{unit.type.name} has not yet joined the battle (VX-15-24)"
    if not unit.on_table:
        return f"{unit.type.name} is no longer on the table"
    if unit.routed:
        return f"{unit.type.name} is routed and casts nothing"
    if is_asleep(state, unit.id):
        return f"{unit.type.name} is asleep (VX-SP-SLEEP-2)"
    if unit.cast_turn == state.turn:
        return f"{unit.type.name} has already cast a spell this turn"
    if not unit.spells:
        return f"{unit.type.name} has no spells left"
    if unit.strength <= rules_config().magic.cast_cost + _EPS:
        return f"{unit.type.name} is too weak to cast: a spell costs a tenth of his strength"
    return None


def can_cast_now(state: ValkyrxState, seat: Seat) -> bool:
    """Whether the seat has a wizard who may cast in this spells step."""
    return any(why_not_cast(state, u, seat) is None for u in state.units if u.type.has("wizard"))


def open_ground(state: ValkyrxState, cell: Hex, occ: dict[Hex, Unit]) -> bool:
    """A free cell a unit may be set down on: on the board, empty, not impassable, not the Temple."""
    scen = state.scenario
    return (
        scen.board.contains(cell)
        and cell not in occ
        and scen.terrain.get(cell) not in ("impassable", "temple")
    )


def target_options(state: ValkyrxState, wizard: Unit, spell: Spell) -> list[Hex | None]:
    """The targets a spell can be cast at: portal cells, enemy wizards for Deny Magic, else just None."""
    if spell.id == "transportation":
        occ = state.occupancy()
        lava = lava_cells(state)
        board = state.scenario.board
        gates = {
            e.cells[0] for e in state.enchantments if e.spell == "transportation" and e.last >= state.turn
        }
        cells = sorted(
            (
                n
                for n in neighbours(wizard.cell)
                if open_ground(state, n, occ) and n not in lava and n not in gates
            ),
            key=board.index.__getitem__,
        )
        return list[Hex | None](cells)
    if spell.id == "deny_magic":
        reach = spell.reach() or 0
        return [
            u.cell
            for u in state.units
            if u.on_table
            and u.type.has("wizard")
            and u.owner != wizard.owner
            and distance(u.cell, wizard.cell) <= reach
        ]
    return [None]


def transport_destinations(state: ValkyrxState, unit: Unit, occ: dict[Hex, Unit]) -> list[Hex]:
    """Where a portal may send a unit (VX-SP-TRANSPORT-4): a free cell, not next to an enemy on the ground."""
    board = state.scenario.board
    lava = lava_cells(state)
    gates = set(portals(state))
    foes = {
        n
        for u in occ.values()
        if u.commander != unit.commander and not u.airborne
        for n in neighbours(u.cell)
    }
    return [
        c
        for c in board.cells
        if open_ground(state, c, occ)
        and c not in lava
        and c not in gates
        and c not in foes
        and c != unit.cell
    ]


# --- casting ------------------------------------------------------------------------------------------


def cast(state: ValkyrxState, wizard_id: int, spell_id: str, target: Hex | None, seat: Seat) -> Flow:
    """A wizard throws a spell: checked, paid for, announced; then resisted, rolled for and applied."""
    wizard = state.units[wizard_id]
    reason = why_not_cast(state, wizard, seat)
    if reason:
        raise IllegalAction(reason)
    table = spells()
    if spell_id not in table:
        raise IllegalAction(f"there is no spell {spell_id!r} (spells: {', '.join(table)})")
    spell = table[spell_id]
    if spell_id not in wizard.spells:
        raise IllegalAction(f"{wizard.type.name} holds no {spell.name} spell (each spell is cast once)")
    options = target_options(state, wizard, spell)
    if spell.id in ("transportation", "deny_magic"):
        if not options:
            what = (
                "no free cell beside him" if spell.id == "transportation" else "no enemy wizard within range"
            )
            raise IllegalAction(f"{spell.name} cannot be cast: {what}")
        target = options[0] if target is None else target
        if target not in options:
            what = "a free cell beside the wizard" if spell.id == "transportation" else "an enemy wizard"
            raise IllegalAction(f"{spell.name} must be aimed at {what} within range")
    elif target is not None:
        raise IllegalAction(f"{spell.name} takes no target")
    cost = rules_config().magic.cast_cost
    held = tuple(s for s in wizard.spells if s != spell_id)
    state = state.with_unit(
        replace(wizard, spells=held, cast_turn=state.turn, strength=wizard.strength - cost)
    )
    events: list[Event] = [SpellCast(wizard_id, spell_id, spell.name, spell.reach(), cost)]
    state, ended = end_spells_of(state, wizard_id, "a new spell ends the old one (VX-SP-GEN-3)")
    events.extend(ended)
    if wizard_id in state.denied:
        events.append(SpellFizzled(wizard_id, spell_id, "denied by an enemy wizard's Deny Magic"))
        return state, events
    units = reached(state, state.units[wizard_id], spell, target)
    casting = Casting(spell_id, wizard_id, "resist", units, target)
    state, more = _resist_stage(replace(state, casting=casting))
    return state, events + more


def reached(state: ValkyrxState, wizard: Unit, spell: Spell, target: Hex | None) -> tuple[int, ...]:
    """The units a spell reaches, before Resist Magic (VX-SP-GEN-5, VX-11-05, VX-11-06)."""
    reach = spell.reach()
    side = wizard.commander

    def near(u: Unit) -> bool:
        return u.on_table and (reach is None or distance(u.cell, wizard.cell) <= reach)

    units = [u for u in state.units if near(u)]
    hostile = [u for u in units if u.commander != side and not is_shielded(state, u.id)]
    match spell.affects:
        case "enemy":
            return tuple(u.id for u in hostile if _open_to(spell, u))
        case "friend":
            # Resurrection restores casualties, not the price of casting it: the caster is not among them.
            mend = spell.id == "resurrection"
            return tuple(
                u.id
                for u in units
                if u.commander == side and _open_to(spell, u) and not (mend and u.id == wizard.id)
            )
        case "all":
            return tuple(u.id for u in units if u.id != wizard.id and not is_shielded(state, u.id))
        case "self":
            return (wizard.id,)
        case "one":
            # Public facts only: a unit with the skull, or Pocâdl, is no candidate; a hidden first carrier
            # still is (if the die falls on it, nothing changes), or the die would name it (VX-SP-PLAGUE-4).
            return tuple(
                u.id
                for u in units
                if u.id != wizard.id
                and not plague_immune(u)
                and not (u.infected and not u.carrier_only)
                and not u.type.has("plague_bearer")
                and not is_shielded(state, u.id)
            )
        case "infected":
            return tuple(u.id for u in units if u.is_carrier and not u.type.has("plague_bearer"))
        case "wizard":
            return tuple(u.id for u in units if u.cell == target and u.type.has("wizard"))
        case "everything" | "cell":
            return ()
    raise AssertionError(spell.affects)


def _open_to(spell: Spell, unit: Unit) -> bool:
    """Units a spell cannot touch by its nature (immunities stated in the text or decided)."""
    t = unit.type
    match spell.id:
        case "fear":
            return not t.has("elf")  # VX-13-ELVES-1: no fear of the supernatural
        case "fire":
            return not (t.has("flyer") and t.has("fire_weapon"))  # Ǻstígend resists the heat
        case "ice":
            return not (t.has("flyer") and t.has("ice_weapon"))  # Vertígron is the ice
        case "disharmony":
            return not t.is_character  # one body cannot split in two
        case "dismiss_dead":
            return t.has("undead")
        case "resurrection":
            return not t.has("undead")  # "too far gone" (VX-SP-RESURRECT-4)
    return True


def _resist_stage(state: ValkyrxState) -> Flow:
    """Ask one resist die for each unit a hostile spell reaches that has a chance to shrug it off."""
    casting = state.casting
    assert casting is not None
    spell = spells()[casting.spell]
    magic = rules_config().magic
    rollers = [u for u in _resisters(state, spell, casting.units)]
    if not rollers:
        return _effect_stage(replace(state, casting=replace(casting, stage="effect")))
    pending = tuple(
        Pending(
            "resist",
            unit=u.id,
            sides=magic.resist_die,
            purpose=(
                f"does {u.label} resist {spell.name}? (Resist Magic {u.type.resist_magic}: "
                f"1-{magic.resist_chance(u.type.resist_magic)} resists)"
            ),
        )
        for u in rollers
    )
    return replace(state, pending=pending, rolls=()), []


def _resisters(state: ValkyrxState, spell: Spell, units: Iterable[int]) -> list[Unit]:
    if not spell.resisted:
        return []
    magic = rules_config().magic
    return [state.units[i] for i in units if magic.resist_chance(state.units[i].type.resist_magic) > 0]


def resist_answered(state: ValkyrxState) -> Flow:
    """All resist dice are in: drop the units that resisted, then the spell's own stage."""
    casting = state.casting
    assert casting is not None
    spell = spells()[casting.spell]
    magic = rules_config().magic
    rollers = _resisters(state, spell, casting.units)
    resisted = tuple(
        u.id
        for u, face in zip(rollers, state.rolls, strict=True)
        if face <= magic.resist_chance(u.type.resist_magic)
    )
    events: list[Event] = [SpellResisted(uid, casting.spell) for uid in resisted]
    units = tuple(uid for uid in casting.units if uid not in resisted)
    casting = replace(casting, stage="effect", units=units, resisted=resisted)
    state, more = _effect_stage(replace(state, casting=casting, rolls=()))
    return state, events + more


def _effect_stage(state: ValkyrxState) -> Flow:
    """Apply the spell, or first ask for its own dice (Earthquake, Plague)."""
    casting = state.casting
    assert casting is not None
    spell = spells()[casting.spell]
    if spell.id == "earthquake":
        state, events = _damage(state, casting.caster, spell, casting.units)
        # VX-SP-QUAKE-4: a d10 for each unit still standing; one the tremor already destroyed rolls none.
        standing = tuple(
            uid for uid in casting.units if state.units[uid].in_play and not state.units[uid].is_spent
        )
        sides = spell.wipe_out_sides or 10
        pending = tuple(
            Pending(
                "spell",
                unit=uid,
                sides=sides,
                purpose=f"does the earthquake swallow {state.units[uid].label}? (a 1)",
            )
            for uid in standing
        )
        casting = replace(casting, units=standing)
        state = replace(state, casting=casting, pending=pending, rolls=())
        if pending:
            return state, events
        state, more = _finish(state, spell, casting, ())
        return state, events + more
    if spell.id == "plague" and len(casting.units) > 1:
        node = Pending(
            "spell",
            sides=len(casting.units),
            purpose="the table secretly chooses the plague carrier among the units in range",
            secret=True,
        )
        return replace(state, pending=(node,), rolls=()), []
    return apply_effect(state, spell, casting, ())


def spell_dice_answered(state: ValkyrxState) -> Flow:
    """The spell's own dice are in: apply it."""
    casting = state.casting
    assert casting is not None
    spell = spells()[casting.spell]
    faces = state.rolls
    state = replace(state, rolls=())
    if spell.id == "earthquake":
        return _finish(state, spell, casting, faces)
    return apply_effect(state, spell, casting, faces)


def _finish(state: ValkyrxState, spell: Spell, casting: Casting, faces: tuple[int, ...]) -> Flow:
    events: list[Event] = []
    if spell.id == "earthquake":
        for uid, face in zip(casting.units, faces, strict=True):
            u = state.units[uid]
            if face == 1 and u.in_play:
                state = state.with_unit(wiped_out(u))
                events.append(UnitRemoved(uid, "swallowed by the earthquake"))
    state, more = _record(state, spell, casting, ())
    return state, events + more


def apply_effect(state: ValkyrxState, spell: Spell, casting: Casting, faces: tuple[int, ...]) -> Flow:
    """What the spell does to the units it reached (those that resisted are already out)."""
    turn = state.turn
    events: list[Event] = []
    units = casting.units
    cells: tuple[Hex, ...] = ()
    match spell.id:
        case "sleep":
            engaged = {x for c in state.contacts for x in (c.a, c.b)}
            sleepers = []
            for uid in units:
                if uid in engaged:  # VX-SP-SLEEP-3: slaughtered where they lie
                    state = state.with_unit(wiped_out(state.units[uid]))
                    events.append(UnitRemoved(uid, "slaughtered in its sleep"))
                else:
                    sleepers.append(uid)
            units = tuple(sleepers)
        case "fire" | "ice":
            state, more = _damage(state, casting.caster, spell, units)
            events.extend(more)
            state, cracked = crack_titans(state)
            events.extend(cracked)
        case "resurrection":
            for uid in units:
                u = state.units[uid]
                full = max(u.strength, u.start_strength - u.undead_losses)
                if full > u.strength + _EPS:
                    state = state.with_unit(replace(u, strength=full))
                    events.append(UnitRestored(uid, full - u.strength))
        case "transportation":
            assert casting.target is not None
            cells = (casting.target,)
        case "disharmony" | "fear" | "courage" | "strength" | "weakness" | "speed" | "command" | "shield":
            pass
        case "lead_boots":
            for uid in units:
                if state.units[uid].airborne:  # brought down by the weight (VX-SP-LEADBOOTS-2)
                    state = state.with_unit(replace(state.units[uid], airborne=False))
        case "plague":
            if not units:
                events.append(SpellFizzled(casting.caster, spell.id, "no unit in range can carry the plague"))
            else:
                chosen = units[faces[0] - 1] if faces else units[0]
                carrier = state.units[chosen]
                if not carrier.carrier_only:  # already a first carrier: it stays one, and nobody can tell
                    state = state.with_unit(
                        replace(carrier, infected=turn, plague_base=carrier.strength, carrier_only=True)
                    )
                    state = replace(
                        state,
                        plague_chain=(*state.plague_chain, Infection(turn, chosen, casting.caster, True)),
                    )
                events.append(PlagueCarrierChosen(chosen, casting.caster))
            units = ()  # nothing lights: neither player may know (VX-SP-PLAGUE-4)
        case "cure_plague":
            firsts = {uid for uid in units if state.units[uid].carrier_only}
            for uid in units:
                u = state.units[uid]
                events.append(CarrierCured(uid) if u.carrier_only else PlagueCured(uid))
                state = state.with_unit(replace(u, infected=0, plague_base=0.0, carrier_only=False))
            units = tuple(uid for uid in units if uid not in firsts)  # lighting one would name it
        case "deny_magic":
            for uid in units:
                state, ended = end_spells_of(state, uid, "denied (VX-SP-DENY-2)")
                events.extend(ended)
                state = replace(state, denied=(*state.denied, uid))
        case "dismiss_dead":
            for uid in units:
                state = state.with_unit(wiped_out(state.units[uid]))
                events.append(UnitRemoved(uid, "dismissed from the battlefield"))
        case "armageddon":
            pass
        case "creeping_death":
            start = lava_start(state, state.units[casting.caster])
            if start is None:
                events.append(SpellFizzled(casting.caster, spell.id, "no enemy on the table"))
                return replace(state, casting=None), events
            cells = (start,)
    state, more = _record(state, spell, replace(casting, units=units), cells)
    return state, events + more


def _record(state: ValkyrxState, spell: Spell, casting: Casting, cells: tuple[Hex, ...]) -> Flow:
    """The spell is in force: keep it as an enchantment, light it, and refresh morale bonuses."""
    first, last = spell.in_force(state.turn)
    caster = state.units[casting.caster]
    ench = Enchantment(
        spell=spell.id,
        caster=caster.id,
        side=caster.commander,
        cast_turn=state.turn,
        first=first,
        last=last,
        units=casting.units,
        cells=cells,
    )
    state = replace(state, enchantments=(*state.enchantments, ench), casting=None, rolls=())
    state = refresh_morale(state)
    lit = tuple(hex_to_offset(c) for c in cells)
    return state, [SpellTookEffect(caster.id, spell.id, casting.units, lit, first, last)]


def _damage(state: ValkyrxState, caster: int, spell: Spell, units: Iterable[int]) -> Flow:
    """Fire, Ice, Earthquake: damage / defence score casualties each (VX-SP-FIRE-2); Wickermen burn."""
    events: list[Event] = []
    damage = spell.damage or 0.0
    for uid in units:
        u = state.units[uid]
        if spell.id == "fire" and u.type.has("wickerwork"):  # VX-SP-FIRE-3
            state = state.with_unit(wiped_out(u, burned=state.turn))
            events.append(UnitRemoved(uid, "burnt to ashes"))
            continue
        cas = received(state, u, damage / (u.type.defence * defence_factor(state, u)))  # VX-05-11
        hit = replace(u, strength=u.strength - cas, casualties_turn=u.casualties_turn + cas)
        if spell.id == "fire":
            hit = replace(hit, burned=state.turn)
        elif spell.id == "ice":
            hit = replace(hit, chilled=state.turn)
        state = state.with_unit(hit)
        events.append(SpellCasualties(uid, spell.id, cas))
    return state, events


def crack_titans(state: ValkyrxState) -> tuple[ValkyrxState, list[Event]]:
    """A stone unit struck by ice this turn, and by fire this or last turn, cracks (VX-SP-ICE-4)."""
    events: list[Event] = []
    for u in state.units:
        if (
            u.in_play
            and u.type.has("stone")
            and u.chilled == state.turn
            and u.burned >= state.turn - 1 > -1
            and u.burned > 0
            and not is_shielded(state, u.id)
        ):
            state = state.with_unit(wiped_out(u))
            events += [TitanCracked(u.id), UnitRemoved(u.id, "cracked by fire and ice")]
    return state, events


def end_spells_of(state: ValkyrxState, wizard: int, why: str) -> Flow:
    """End every spell of this wizard still in force (a new spell, Deny Magic)."""
    ended = [e for e in state.enchantments if e.caster == wizard and e.last >= state.turn]
    if not ended:
        return state, []
    keep = tuple(e for e in state.enchantments if e not in ended)
    # An ended spell's record stays until the turn is out only for what it already did this turn.
    stopped = tuple(replace(e, last=state.turn - 1) for e in ended)
    state = refresh_morale(replace(state, enchantments=keep + stopped))
    return state, [SpellEnded(wizard, e.spell, why) for e in ended]


def refresh_morale(state: ValkyrxState) -> ValkyrxState:
    """Morale bonuses from the Fear and Courage spells in force (VX-SP-FEAR-2, VX-SP-COURAGE-2)."""
    table = spells()
    held: dict[int, set[str]] = {}
    for e in state.enchantments:
        if e.covers(state.turn) and table[e.spell].morale is not None:
            for uid in e.units:
                held.setdefault(uid, set()).add(e.spell)
    # Fear and Courage add; the same spell twice on one unit counts once (as in ``_factor``).
    bonus = {uid: sum(float(table[sid].morale or 0) for sid in sids) for uid, sids in held.items()}
    units = tuple(
        replace(u, morale_bonus=bonus.get(u.id, 0.0)) if u.morale_bonus != bonus.get(u.id, 0.0) else u
        for u in state.units
    )
    return replace(state, units=units)


def new_turn(state: ValkyrxState) -> ValkyrxState:
    """At the start of a turn: spells run out, Deny Magic lapses, morale and command follow what is left."""
    turn = state.turn
    live = tuple(e for e in state.enchantments if e.last >= turn)
    state = refresh_morale(replace(state, enchantments=live, denied=()))
    commanders: dict[int, set[Seat]] = {}
    for e in live:
        if e.spell == "command" and e.covers(turn):
            for uid in e.units:
                commanders.setdefault(uid, set()).add(e.side)
    units = []
    for u in state.units:
        seats = commanders.get(u.id, set())
        # VX-SP-COMMAND-3: commanded by both sides at once, it reverts to its own chain of command.
        ctrl = next(iter(seats)) if len(seats) == 1 and u.owner not in seats else None
        units.append(replace(u, controller=ctrl) if u.controller != ctrl else u)
    state = replace(state, units=tuple(units))
    contacts = tuple(c for c in state.contacts if state.units[c.a].commander != state.units[c.b].commander)
    return replace(state, contacts=contacts)


# --- Creeping Death, Armageddon ------------------------------------------------------------------------


def lava_start(state: ValkyrxState, wizard: Unit) -> Hex | None:
    """Where the lava first appears (VX-SP-CREEP-3): next to the nearest enemy, within 5 cells if it can."""
    board = state.scenario.board
    enemies = [u for u in state.units if u.on_table and u.commander != wizard.commander]
    if not enemies:
        return None
    reach = spells()["creeping_death"].reach() or 0
    nearest = min(enemies, key=lambda u: (distance(u.cell, wizard.cell), board.index[u.cell]))
    occ = state.occupancy()
    free = [n for n in neighbours(nearest.cell) if open_ground(state, n, occ)]
    near = [c for c in free if distance(c, wizard.cell) <= reach]
    if near:
        return min(near, key=lambda c: (distance(c, wizard.cell), board.index[c]))
    # Too far: as close to the nearest enemy as the range allows.
    cells = [c for c in within(wizard.cell, reach) if open_ground(state, c, occ)]
    if not cells:
        return None
    return min(cells, key=lambda c: (distance(c, nearest.cell), board.index[c]))


def spread_lava(state: ValkyrxState) -> Flow:
    """The lava spreads at the start of the combat round; ground units standing in it die (VX-SP-CREEP-6)."""
    events: list[Event] = []
    for e in state.enchantments:
        if e.spell == "creeping_death" and e.covers(state.turn) and e.cast_turn < state.turn:
            board = state.scenario.board
            cells = sorted(
                (c for c in within(e.cells[0], state.turn - e.cast_turn) if board.contains(c)),
                key=board.index.__getitem__,
            )
            events.append(LavaSpread(e.caster, tuple(hex_to_offset(c) for c in cells)))
            lava = set(cells)
            for u in state.units:
                if (
                    u.on_table
                    and u.cell in lava
                    and not u.airborne
                    and not lava_proof(u)
                    and not is_shielded(state, u.id)
                ):
                    state = state.with_unit(wiped_out(u))
                    events.append(UnitRemoved(u.id, "engulfed by the lava"))
    return state, events


def armageddon_due(state: ValkyrxState) -> list[Enchantment]:
    """Armageddons whose second turn has come (VX-SP-ARMAGEDDON-1)."""
    return [
        e
        for e in state.enchantments
        if e.spell == "armageddon"
        and e.first == state.turn
        and e.last >= state.turn
        and state.units[e.caster].in_play  # no summoner, no doom: it dies with its caster
    ]


def armageddon_answered(state: ValkyrxState, caster: int, face: int) -> Flow:
    """A 1 on the d4 (25%): everything on the battlefield is destroyed, a draw (VX-SP-ARMAGEDDON-2..6)."""
    if face != 1:
        return state, [ArmageddonRolled(caster, False)]
    events: list[Event] = [ArmageddonRolled(caster, True)]
    for u in state.units:
        if u.in_play:
            state = state.with_unit(wiped_out(u))
            events.append(UnitRemoved(u.id, "Armageddon"))
    result = Verdict(
        None, f"Armageddon: {state.units[caster].type.name} destroyed everything on the battlefield"
    )
    return replace(state, result=result, phase="over", pending=()), events
