"""Magic at work (CD-MA-01..17, CD-CH-21..27, CD-MS-13): what a unit may cast, casting, and the bonuses.

The five kinds (all designed, ``data/magic.toml``; the source gives no spells):
- Wizard and moon spells: a profile's ``spells``; each costs Will, spent when cast (CD-CH-23); a caster at
  Will <= 0 leaves the game after the spell (CD-CH-24, ``resolve.spend_will``). Resisting (CD-CH-25
  designed): when a spell aims at an enemy unit, a printed-Will character of the target's side (the target
  itself first, else the nearest within ``resist_range``) with at least the spell's Will may spend that much
  to cancel it: its owner is asked (``ResistAsk`` over a ``Then("magic_cast")``).
- God gifts: the gifts of the profile's ``god`` whose level is at most its God-likeness (CD-CH-26), no Will.
  A cast is the unit's attack of the turn, so a priest uses at most one gift a turn (CD-MA-15 designed).
- Spirits (``spirits.py``): bound bonuses, ``release``, released spirits as units, the leash, banishing.
- Runes (``runes.py``): passive bonuses and combinations.
- Moon magic: a moon-mage's profile lists wizard and moon spells, a god and spirits: it uses all three,
  and the moon's own spells are "more" (CD-MA-17).

A cast is an attack action (``cast``), ranges tray to tray from the caster. Attacks, a forced morale test,
banishing need the target in sight (``terrain.sees``) as a shot does; helping a friend does not. A spell
attack is rolled like a shot (``resolve.begin_attack``, kind ``spell``): A = armour + cover + hill + the
target's magic armour against shooting, with no shooting skill and no range band, never below 0. The same
spell or gift on the same unit does not stack: a friend already under it is not offered. The core counts the
action (one action; a cast is the turn's attack) before calling ``begin_cast``.

Queries the engine calls (each includes runes, bound spirits and the buffs still running):
``armour_bonus(state, unit, "fight"|"shot")``, ``move_bonus(state, unit)``, ``extra_dice(state, unit)``
(added once to the unit's close-combat pool), ``wound_immune(state, unit)`` (an immaterial spirit),
``leash_refusal(state, unit_id, tray)``, ``spirit_leash(state)``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.coloured_dice import formation, resolve, spirits, terrain
from iwgt.games.coloured_dice.actions import Cast, Release
from iwgt.games.coloured_dice.magic_bonus import (
    armour_bonus,
    extra_dice,
    live,
    move_bonus,
    passive,
    turns_ahead,
    wound_immune,
)
from iwgt.games.coloured_dice.magic_data import COLOURS, Gift, MagicRules, Power, Spell, magic_rules
from iwgt.games.coloured_dice.morale import starting_us
from iwgt.games.coloured_dice.odds import mean
from iwgt.games.coloured_dice.pending import Attack, MoraleRoll, Then
from iwgt.games.coloured_dice.preview import Preview
from iwgt.games.coloured_dice.preview import _odds as preview_odds
from iwgt.games.coloured_dice.rules import Profile, profile
from iwgt.games.coloured_dice.state import Buff, CdState, Unit
from iwgt.geometry.trays import Tray, tray_gap, trays_overlap, within_table

Step = tuple[CdState, list[Event]]
"""A new state and the events on the way to it."""
XY = tuple[float, float]

THEN_TAG: Final = "magic_cast"
"""The continuation of a spell after its resist question."""
NO_TARGET: Final = -1
"""A cast without a target unit, in the continuation's data."""
TURNS_OF: Final = {"this_turn": 1, "next_turn": 2}
"""How many turns from now a duration ends (at the start of that turn): the caster's own turn ends at the
start of the next, ``next_turn`` at the start of the caster's following turn."""
RANGE_EPS: Final = 1e-6
"""Rounding slack (inches) when a range is measured."""

__all__ = [
    "armour_bonus",
    "begin_cast",
    "castable",
    "extra_dice",
    "leash_refusal",
    "live",
    "magic_rules",
    "move_bonus",
    "passive",
    "releasable",
    "release",
    "release_spirit",
    "resistible",
    "spell_preview",
    "spell_previews",
    "spirit_leash",
    "turns_ahead",
    "wound_immune",
]


# --- events ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    """A unit cast a spell or called a god's gift (CD-MA): what (``school``: wizard, moon or
    ``god:<key>``), at whom or where, and the Will it cost."""

    seat: int
    unit: int
    spell: str
    school: str
    target: int | None
    at: XY | None
    cost: int


@dataclass(frozen=True, slots=True)
class SpellResisted(Event):
    """A printed-Will character spent Will equal to the spell's cost and cancelled it (CD-CH-25 designed)."""

    seat: int
    unit: int
    spell: str
    cost: int


@dataclass(frozen=True, slots=True)
class MagicBuff(Event):
    """A unit is under a spell's or gift's bonus until ``until_seat``'s turn in ``until_round`` begins."""

    unit: int
    spell: str
    effect: str
    amount: int
    until_round: int
    until_seat: int


@dataclass(frozen=True, slots=True)
class UnitHealed(Event):
    """Wounds healed and models returned to a unit (never above its start)."""

    unit: int
    spell: str
    wounds: int
    models: int


@dataclass(frozen=True, slots=True)
class Restored(Event):
    """Will or bear-wound dice given back to a character (never above its profile's)."""

    unit: int
    spell: str
    what: str
    amount: int


# --- what a unit is --------------------------------------------------------------------------------------


def prof(u: Unit) -> Profile:
    """A unit's profile (army data)."""
    return profile(u.army, u.key)


def is_shaman(u: Unit) -> bool:
    """Whether a unit is a shaman (its immaterial spirits go twice as far, CD-MA-11)."""
    return "shaman" in prof(u).abilities


def will_of(u: Unit) -> int:
    """A unit's Will now: taken to be 1 when none is given (CD-CH-22)."""
    return 1 if u.will is None else u.will


def printed_will(u: Unit) -> int | None:
    """The Will printed on a unit's profile (None: not printed)."""
    return prof(u).will


def powers_of(u: Unit, data: MagicRules | None = None) -> list[str]:
    """The spells and gifts a unit knows: its profile's spells, then its god's gifts within its
    God-likeness (CD-CH-26, lowest level first)."""
    book = data or magic_rules()
    p = prof(u)
    keys = [k for k in p.spells if k in book.spells]
    if p.god and p.god_like > 0:
        keys.extend(book.gifts_of(p.god, p.god_like))
    return keys


# --- what may be cast ------------------------------------------------------------------------------------


def _may_act(state: CdState, u: Unit) -> bool:
    return (
        not state.pending
        and state.over is None
        and u.on_table
        and u.seat == state.seat
        and u.actions_left > 0
    )


def _in_range(caster: Unit, target: Unit, power: Power) -> bool:
    return tray_gap(caster.tray, target.tray) <= power.range + RANGE_EPS


def _sees(state: CdState, caster: Unit, target: Unit) -> bool:
    cells = formation.model_cells(target.tray, target.models, target.files)
    return terrain.sees(caster.tray, target.tray, state.terrain(), cells=cells)


def _targets(
    state: CdState, caster: Unit, key: str, power: Power, seen: dict[int, bool] | None = None
) -> list[Unit]:
    """The units a power may aim at now (unit targets only); ``seen`` keeps the sight lines already drawn
    from this caster (a caster's powers share them)."""
    sight = {} if seen is None else seen
    if power.target == "self":
        pool = [caster]
    elif power.target == "friend":
        pool = [u for u in state.on_table(caster.seat) if _in_range(caster, u, power)]
    else:
        pool = [u for u in state.enemies(caster.seat) if _in_range(caster, u, power)]
        if power.target == "spirit":
            pool = [u for u in pool if spirits.is_immaterial(u)]
        elif power.effect == "attack":
            pool = [u for u in pool if not spirits.is_immaterial(u)]  # wounds cannot touch it
        for u in pool:
            if u.id not in sight:
                sight[u.id] = _sees(state, caster, u)
        pool = [u for u in pool if sight[u.id]]
    return [u for u in pool if _useful(caster, u, key, power)]


def _useful(caster: Unit, target: Unit, key: str, power: Power) -> bool:
    """Whether a power on this target would do anything (a spell already on it does not stack)."""
    if power.effect in ("armour", "move"):
        return not any(b.key == key for b in target.buffs)
    if power.effect == "heal":
        return target.wounds > 0 or target.models < target.start_models
    if power.effect == "restore":
        if power.what == "will":
            top = printed_will(target)
            return target.id != caster.id and top is not None and will_of(target) < top
        bear = prof(target).bear_wound
        return bear is not None and target.bear_left < bear.dice
    return True


def castable(state: CdState, unit_id: int) -> list[Cast]:
    """What a unit may cast now, with each legal target (a summoning: one free place near the caster; any
    other free place within range may be ordered too). Empty when it may not attack now."""
    u = state.unit(unit_id)
    if not _may_act(state, u) or u.attacked:
        return []
    book = magic_rules()
    out: list[Cast] = []
    seen: dict[int, bool] = {}
    for key in powers_of(u, book):
        power = book.power(key)
        if isinstance(power, Spell) and will_of(u) < power.cost:
            continue
        if power.target == "point":
            spot = _summon_place(state, u, power)
            if spot is not None:
                out.append(Cast(u.id, key, None, spot.centre))
            continue
        out.extend(Cast(u.id, key, t.id) for t in _targets(state, u, key, power, seen))
    return out


def _summon_place(state: CdState, caster: Unit, power: Power, at: XY | None = None) -> Tray | None:
    assert power.spirit is not None
    return spirits.place_near(state, caster, _spirit_tray(caster, power.spirit), at=at)


def _spirit_tray(owner: Unit, spirit: str) -> Tray:
    """A released spirit's tray (one model, open order) at its owner's centre, to be placed."""
    entry = spirits.spirit_of(spirit)
    assert entry.unit is not None
    p = profile(owner.army, entry.unit)
    cell = formation.cell_size(p.kind, "open")
    return formation.block_tray(owner.tray.centre, owner.tray.facing, 1, 1, cell)


def check_cast(state: CdState, cast: Cast) -> Spell | Gift:
    """The power a cast uses, refused with the reason when the caster does not know it, cannot pay it or
    the target or place is not legal (the turn's bookkeeping, whose turn, actions left and the one attack,
    is the game's: it checks them first, then this; ``begin_cast`` comes after the game has counted it)."""
    book = magic_rules()
    if not 0 <= cast.unit < len(state.units):
        raise IllegalAction(f"no unit {cast.unit}")
    u = state.unit(cast.unit)
    if cast.spell not in book.spells and cast.spell not in book.gifts:
        raise IllegalAction(f"no spell or gift {cast.spell!r}")
    if cast.spell not in powers_of(u, book):
        raise IllegalAction(f"{book.power(cast.spell).name} is not among the powers of {u.name} (CD-MA)")
    power = book.power(cast.spell)
    if not u.on_table:
        raise IllegalAction(f"the caster is no longer on the table ({u.name})")
    if isinstance(power, Spell) and will_of(u) < power.cost:
        raise IllegalAction(
            f"{power.name} costs {power.cost} Will, more than the {will_of(u)} left to {u.name} (CD-CH-23)"
        )
    if power.target == "point":
        if cast.at is None or _summon_place(state, u, power, cast.at) is None:
            raise IllegalAction(
                f'{power.name} needs a free place within {power.range:g}" of {u.name}, on the table, '
                'not on another unit and not within 1" of an enemy'
            )
        return power
    if cast.target is None or cast.target not in {t.id for t in _targets(state, u, cast.spell, power)}:
        raise IllegalAction(f"{power.name} cannot aim at that unit now: {_why_not(state, u, cast, power)}")
    return power


def _why_not(state: CdState, caster: Unit, cast: Cast, power: Power) -> str:
    aims = {
        "enemy": "an enemy unit",
        "friend": "a friendly unit",
        "self": "its caster",
        "spirit": "an enemy immaterial spirit",
        "point": "a place",
    }[power.target]
    if cast.target is None or not 0 <= cast.target < len(state.units):
        return f"it aims at {aims}"
    t = state.unit(cast.target)
    if power.target in ("enemy", "spirit") and t.seat == caster.seat:
        return f"it aims at {aims}"
    if power.target == "friend" and t.seat != caster.seat:
        return f"it aims at {aims}"
    if not _in_range(caster, t, power):
        return (
            f'out of range: {tray_gap(caster.tray, t.tray):.1f}" to {t.name}, the range is {power.range:g}"'
        )
    return f"it aims at {aims} in sight, on which it would do something"


# --- casting ---------------------------------------------------------------------------------------------


def resistible(state: CdState, cast: Cast) -> tuple[int, int] | None:
    """Who may resist a spell (CD-CH-25 designed): (seat, unit) of a printed-Will character of the target's
    side with at least the spell's cost in Will: the target itself, else the nearest one within
    ``resist_range`` of the target. None for god gifts, spells on friends, and nobody able."""
    book = magic_rules()
    power = book.power(cast.spell)
    if not isinstance(power, Spell) or cast.target is None or power.target not in ("enemy", "spirit"):
        return None
    target = state.unit(cast.target)
    if not target.on_table:
        return None

    def able(u: Unit) -> bool:
        return u.on_table and printed_will(u) is not None and will_of(u) >= power.cost

    if able(target):
        return target.seat, target.id
    near = [
        (tray_gap(u.tray, target.tray), u.id)
        for u in state.on_table(target.seat)
        if u.id != target.id
        and able(u)
        and tray_gap(u.tray, target.tray) <= book.constants.resist_range + RANGE_EPS
    ]
    if not near:
        return None
    return target.seat, min(near)[1]


def begin_cast(state: CdState, cast: Cast) -> Step:
    """Cast (the core has counted the action): check it, spend the Will, then ask for a resist or work the
    effect (an attack or a morale test goes on the pending stack; the rest happens at once)."""
    power = check_cast(state, cast)
    assert isinstance(power, Spell | Gift)
    caster = state.unit(cast.unit)
    events: list[Event] = []
    cost = power.cost if isinstance(power, Spell) else 0
    school = power.school if isinstance(power, Spell) else f"god:{power.god}"
    events.append(SpellCast(caster.seat, caster.id, cast.spell, school, cast.target, cast.at, cost))
    # who may resist is found before the Will is spent: the caster may leave the game with it
    resister = resistible(state, cast)
    if cost:
        # spent now; at 0 or less the caster leaves the game (CD-CH-24) AFTER its spell: a continuation
        # beneath everything the spell pushes
        state = resolve.spend_will(state, caster.id, cost, events, leave=False)
        state = resolve.push_will_out(state, caster.id)
    if resister is not None:
        state = resolve.push_then(state, THEN_TAG, (*_then_data(cast), resister[1]))
        state, more = resolve.begin_resist(state, resister[1], cost, cast.spell)
        return state, events + more
    state = _effect(state, cast, power, events)
    return resolve.settle(state, events), events


def _then_data(cast: Cast) -> tuple[int | float | str, ...]:
    x, y = cast.at if cast.at is not None else (0.0, 0.0)
    has_at = 0 if cast.at is None else 1
    target = NO_TARGET if cast.target is None else cast.target
    return (cast.unit, cast.spell, target, has_at, float(x), float(y))


def _cast_of(data: tuple[int | float | str, ...]) -> Cast:
    unit, spell, target, has_at, x, y = data[:6]
    at = (float(x), float(y)) if has_at else None
    return Cast(int(unit), str(spell), None if int(target) == NO_TARGET else int(target), at)


def _after_resist(state: CdState, then: Then, events: list[Event]) -> CdState:
    """The spell's continuation: cancelled when its resister spent the Will, else its effect happens."""
    cast = _cast_of(then.data)
    power = magic_rules().power(cast.spell)
    spent = bool(then.results[0]) if then.results else False
    if spent:
        cost = power.cost if isinstance(power, Spell) else 0
        resister = state.unit(int(then.data[6]))
        events.append(SpellResisted(resister.seat, resister.id, cast.spell, cost))
        return state
    return _effect(state, cast, power, events)


resolve.register_then(THEN_TAG, _after_resist)


def _effect(state: CdState, cast: Cast, power: Spell | Gift, events: list[Event]) -> CdState:
    """What a spell or gift does (the closed set of effects)."""
    caster = state.unit(cast.unit)
    if power.effect == "summon":
        assert power.spirit is not None and cast.at is not None
        if not caster.on_table:
            return state  # the mage spent its last Will: nobody holds the gate open
        return call_spirit(state, caster, power.spirit, events, at=cast.at)
    assert cast.target is not None
    target = state.unit(cast.target)
    if not target.on_table:
        return state  # gone meanwhile (a resister that fell): the spell has nothing to act on
    if power.effect == "attack":
        return _push_attack(state, caster, target, cast.spell, power.dice, events)
    if power.effect == "morale_test":
        return _push_morale(state, target.id, power.modifier)
    if power.effect in ("armour", "move"):
        effect = "move" if power.effect == "move" else _armour_effect(power.against)
        until = turns_ahead(state, TURNS_OF[power.duration])
        kept = tuple(b for b in target.buffs if b.key != cast.spell)
        buff = Buff(cast.spell, effect, power.amount, *until)
        events.append(MagicBuff(target.id, cast.spell, effect, power.amount, *until))
        return state.with_unit(replace(target, buffs=(*kept, buff)))
    if power.effect == "heal":
        return _heal(state, target, cast.spell, power.amount, events)
    if power.effect == "restore":
        return _restore(state, target, cast.spell, power.what, power.amount, events)
    if power.effect == "banish":
        return banish(state, target.id, events)
    raise AssertionError(f"unknown effect {power.effect}")


def _armour_effect(against: str) -> str:
    return "armour" if against == "all" else f"armour_{against}"


def spell_armour(state: CdState, caster: Unit, target: Unit) -> tuple[int, tuple[tuple[str, int], ...]]:
    """A spell attack's effective armour and its parts: like a shot with no skill and no range band."""
    cells = formation.model_cells(target.tray, target.models, target.files)
    cover, _ = terrain.cover(caster.tray, target.tray, cells, state.terrain())
    hill = terrain.higher(target.tray, caster.tray, state.terrain())
    parts = (
        ("armour", int(prof(target).armour)),
        ("cover", cover),
        ("hill", hill),
        ("magic", armour_bonus(state, target, "shot")),
    )
    return max(0, sum(v for _, v in parts)), parts


def _push_attack(
    state: CdState, caster: Unit, target: Unit, key: str, dice: tuple[str, ...], events: list[Event]
) -> CdState:
    armour, parts = spell_armour(state, caster, target)
    pool = tuple(sorted(dice, key=COLOURS.index))
    attack = Attack(
        "spell",
        caster.id,
        target.id,
        pool,
        armour,
        parts=parts,
        distance=tray_gap(caster.tray, target.tray),
        spell=key,
    )
    from iwgt.games.coloured_dice import wounds

    return wounds.push_attack(state, attack, events)


def _push_morale(state: CdState, unit_id: int, modifier: int) -> CdState:
    """A forced morale test (CD-MS-03 (c)); a modifier moves the dice as hero points do (clamped to 1..6,
    so a double 1 made worse is no longer the automatic pass), and hero points still add to it."""
    if not state.unit(unit_id).on_table:
        return state
    return state.push(MoraleRoll(unit_id, False, "forced", adjust=modifier))


def _heal(state: CdState, target: Unit, key: str, amount: int, events: list[Event]) -> CdState:
    """Heal: first the wounds on the current model, then lost models back (rear ranks, the front kept),
    while the tray has room; never above the start."""
    healed = min(amount, target.wounds)
    left = amount - healed
    models = target.models
    tray, files = target.tray, target.files
    others = [u.tray for u in state.on_table() if u.id != target.id]
    cell = formation.cell_dims(target.tray, target.models, target.files)

    while left > 0 and models < target.start_models:
        wider = formation.files_of(models + 1, max(files, target.files))
        grown = formation.block_tray_at_front(tray.front_centre(), tray.facing, models + 1, wider, cell)
        if not within_table(grown, state.width, state.height) or any(trays_overlap(grown, o) for o in others):
            break  # no room behind the unit: the rest of the healing is lost
        models, tray, files, left = models + 1, grown, wider, left - 1
    back = models - target.models
    if healed == 0 and back == 0:
        return state
    events.append(UnitHealed(target.id, key, healed, back))
    return state.with_unit(
        replace(target, wounds=target.wounds - healed, models=models, tray=tray, files=files)
    )


def _restore(state: CdState, target: Unit, key: str, what: str, amount: int, events: list[Event]) -> CdState:
    if what == "will":
        top = printed_will(target)
        if top is None:
            return state
        new = min(top, will_of(target) + amount)
        events.append(Restored(target.id, key, what, new - will_of(target)))
        return state.with_unit(replace(target, will=new))
    bear = prof(target).bear_wound
    if bear is None:
        return state
    new = min(bear.dice, target.bear_left + amount)
    events.append(Restored(target.id, key, what, new - target.bear_left))
    return state.with_unit(replace(target, bear_left=new))


# --- spirits on the table --------------------------------------------------------------------------------


def banish(state: CdState, unit_id: int, events: list[Event]) -> CdState:
    """An immaterial spirit is sent back to the spirit world: destroyed (CD-MA-08)."""
    return _depart(state, state.unit(unit_id), "banished", events)


def _depart(state: CdState, unit: Unit, why: str, events: list[Event]) -> CdState:
    from iwgt.games.coloured_dice import general_morale

    key = spirits.spirit_key(unit) or unit.key
    events.append(spirits.SpiritDeparted(unit.seat, unit.id, key, why))
    return general_morale.lose_unit(state, unit.id, why, events)


def call_spirit(
    state: CdState, owner: Unit, key: str, events: list[Event], *, at: XY | None = None
) -> CdState:
    """A released spirit enters the table as a unit owned by ``owner`` (CD-MA-05/06), within
    ``summon_range`` of it; it acts from its side's next turn. Refused when there is no room."""
    entry = spirits.spirit_of(key)
    assert entry.unit is not None
    p = profile(owner.army, entry.unit)
    placed = spirits.place_near(state, owner, _spirit_tray(owner, key), at=at)
    if placed is None:
        raise IllegalAction(f"there is no free place for the {entry.name} near {owner.name}")
    bear = p.bear_wound
    unit = Unit(
        id=len(state.units),
        seat=owner.seat,
        army=owner.army,
        key=entry.unit,
        name=entry.name,
        models=1,
        start_models=1,
        tray=placed,
        files=1,
        order="open",
        actions_left=0,
        attacked=True,
        hero_left=p.hero,
        bear_left=0 if bear is None else bear.dice,
        will=p.will,
        owner=owner.id,
        start_us=starting_us(p),
    )
    events.append(spirits.SpiritCalled(owner.seat, owner.id, unit.id, key, placed.centre))
    return state.add_unit(unit)


def releasable(state: CdState, unit_id: int) -> list[Release]:
    """The spirits a unit may let go now: bound ones (doubled for a turn) and released ones waiting to be
    called onto the table (only when there is room near the unit). One action, not an attack."""
    u = state.unit(unit_id)
    if not _may_act(state, u):
        return []
    out: list[Release] = []
    for key in dict.fromkeys(u.spirits):
        entry = spirits.spirit_of(key)
        if entry.kind == "released" and spirits.place_near(state, u, _spirit_tray(u, key)) is None:
            continue
        out.append(Release(u.id, key))
    return out


def release_spirit(state: CdState, unit_id: int, spirit: str) -> Step:
    """``release {unit, spirit}`` (the core has counted the action): a bound spirit's bonus x2 until its
    bearer's next turn, then it is gone (CD-MA-04); a released spirit enters the table (CD-MA-05)."""
    u = state.unit(unit_id)
    if not u.on_table or spirit not in u.spirits:
        raise IllegalAction(f"no spirit {spirit!r} for {u.name} to release now (CD-MA-02..05)")
    events: list[Event] = []
    if spirits.spirit_of(spirit).kind == "bound":
        state, more = spirits.release_bound(state, u, spirit, turns_ahead(state, TURNS_OF["next_turn"]))
        return state, more
    left = list(u.spirits)
    left.remove(spirit)
    state = state.with_unit(replace(u, spirits=tuple(left)))
    state = call_spirit(state, state.unit(unit_id), spirit, events)
    return state, events


def release(state: CdState, action: Release) -> Step:
    """The ``release`` action as the core hands it over (``release_spirit`` by its fields)."""
    return release_spirit(state, action.unit, action.spirit)


def leash_refusal(state: CdState, unit_id: int, tray: Tray) -> str | None:
    """Why a move may not end a unit on ``tray``: an immaterial spirit beyond its leash (CD-MA-10/11)."""
    u = state.unit(unit_id)
    if u.owner is None:
        return None
    return spirits.leash_refusal(state, u, tray, is_shaman(state.unit(u.owner)))


def spirit_leash(state: CdState) -> Step:
    """After each action: immaterial spirits whose owner is gone depart (CD-MA-08); those beyond their leash
    (their owner moved away) are drawn straight back within it, or depart when there is no room."""
    events: list[Event] = []
    for u in list(state.units):
        u = state.unit(u.id)
        if not u.on_table or u.owner is None or not spirits.is_immaterial(u):
            continue
        owner = state.unit(u.owner)
        if not owner.on_table:
            state = _depart(state, u, "owner_gone", events)
            continue
        limit = spirits.leash(is_shaman(owner))
        if tray_gap(u.tray, owner.tray) <= limit + spirits.LEASH_EPS:
            continue
        back = spirits.pulled_back(state, u, owner, limit)
        if back is None:
            state = _depart(state, u, "leash", events)
            continue
        events.append(spirits.SpiritPulled(u.id, owner.id, back.centre))
        state = state.with_unit(replace(u, tray=back))
    return state, events


# --- odds ------------------------------------------------------------------------------------------------


def spell_preview(state: CdState, cast: Cast) -> Preview | None:
    """The odds of a spell attack before it is cast (kind ``spell``: the pool, the armour and its parts,
    the casualties, the chance the target's morale then breaks); None for a cast that is no attack."""
    power = magic_rules().power(cast.spell)
    if power.effect != "attack" or cast.target is None:
        return None
    caster, target = state.unit(cast.unit), state.unit(cast.target)
    armour, parts = spell_armour(state, caster, target)
    # the same odds as a shot's preview (combat's preview module): casualties, then the morale test
    cas, fails, destroyed = preview_odds(state, target, power.dice, armour, close_combat=False)
    return Preview(
        "spell",
        caster.id,
        target.id,
        dict(Counter(power.dice)),
        armour,
        dict(parts),
        tray_gap(caster.tray, target.tray),
        cas,
        mean(cas),
        fails,
        destroyed,
        spell=cast.spell,
    )


def spell_previews(state: CdState, seat: int) -> list[Preview]:
    """The odds of every spell attack the seat's units may cast now (for the observation and the bot)."""
    out: list[Preview] = []
    for u in state.on_table(seat):
        for cast in castable(state, u.id):
            p = spell_preview(state, cast)
            if p is not None:
                out.append(p)
    return out
