"""Spirit magic (CD-MA-02..11): bound spirits on their bearers, released spirits as units on the table.

Decisions (designed; the source gives the shape, not the numbers):
- A bound spirit (a key in ``Unit.spirits`` whose entry is ``kind = "bound"``) gives its bearer its bonus all
  the time (CD-MA-03). ``release`` lets it go for one turn: ``release_multiplier`` (x2) times the bonus as
  buffs lasting until its bearer's next turn begins, and the spirit is gone from ``Unit.spirits`` (CD-MA-04).
- A released spirit (``kind = "released"``) listed in a shaman's ``Unit.spirits`` enters the table when its
  owner ``release``s it: a unit of its own profile (army data, key ``unit``), owned by the releasing unit
  (``Unit.owner``), placed within ``summon_range`` of the owner; it acts from its side's next turn
  (CD-MA-05/06). Moon magic's ``summon`` effect uses the same placement.
- Material spirits move like monsters and are destroyed by wounds (CD-MA-07/09: nothing special here).
  Immaterial ones (``material = false``) are destroyed by a ``banish`` or when their owner is gone
  (CD-MA-08), and must stay within ``spirit_range`` (6") of their owner, ``shaman_spirit_range`` (12")
  when the owner is a shaman (CD-MA-10/11), measured tray to tray. The leash (``spirit_leash``): a move
  that would end an immaterial spirit beyond it is refused (``leash_refusal``), and when its owner moves
  away, the spirit is pulled straight back towards the owner until it is within range (after each action).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.magic_data import Bonus, MagicRules, Spirit, magic_rules
from iwgt.games.coloured_dice.rules import rules
from iwgt.games.coloured_dice.runes import add
from iwgt.games.coloured_dice.state import Buff, CdState, Unit
from iwgt.geometry.trays import Tray, tray_gap, trays_overlap, within_table

XY = tuple[float, float]

LEASH_EPS = 1e-6
"""Rounding slack (inches) when a spirit is measured against its leash."""
PULL_STEP = 0.5
"""How much nearer (inches) a pulled-back spirit is tried again when its place is taken."""
PLACE_TRIES = 8
"""How many directions around its owner a called spirit's place is looked for in."""
PLACE_GAP: Final[float] = rules().constants.spirit_place_gap
"""The gap (inches) between a called spirit's tray and its owner's (the same 1" units keep apart; data)."""


@dataclass(frozen=True, slots=True)
class SpiritReleased(Event):
    """A bound spirit was let go for one turn: its bonus multiplied on the bearer, then gone (CD-MA-04)."""

    seat: int
    unit: int
    spirit: str
    multiplier: int


@dataclass(frozen=True, slots=True)
class SpiritCalled(Event):
    """A released spirit entered the table as a unit owned by ``owner`` (CD-MA-05/06)."""

    seat: int
    owner: int
    unit: int
    spirit: str
    at: XY


@dataclass(frozen=True, slots=True)
class SpiritDeparted(Event):
    """An immaterial spirit went back to the spirit world (CD-MA-08): ``why`` is ``banished``, ``owner_gone``
    or ``leash`` (no room to draw it back)."""

    seat: int
    unit: int
    spirit: str
    why: str


@dataclass(frozen=True, slots=True)
class SpiritPulled(Event):
    """An immaterial spirit was drawn back within its leash of its owner (CD-MA-10/11)."""

    unit: int
    owner: int
    to: XY


def spirit_of(key: str, data: MagicRules | None = None) -> Spirit:
    """A spirit's entry by key (KeyError names it)."""
    book = data or magic_rules()
    if key not in book.spirits:
        raise KeyError(f"no spirit {key!r} in magic.toml (known: {', '.join(sorted(book.spirits))})")
    return book.spirits[key]


def bound_bonus(spirits: Sequence[str], data: MagicRules | None = None) -> Bonus:
    """The bonus of the bound spirits a unit bears (released-kind spirits waiting to be called give none)."""
    book = data or magic_rules()
    return add([s for s in (spirit_of(k, book) for k in spirits) if s.kind == "bound"])


def spirit_key(unit: Unit, data: MagicRules | None = None) -> str | None:
    """The spirit a unit on the table is (a released spirit: it has an owner and a spirit's profile)."""
    book = data or magic_rules()
    if unit.owner is None:
        return None
    for key, spirit in book.spirits.items():
        if spirit.kind == "released" and spirit.unit == unit.key:
            return key
    return None


def is_immaterial(unit: Unit, data: MagicRules | None = None) -> bool:
    """Whether a unit is an immaterial released spirit (banishable, leashed, gone with its owner)."""
    key = spirit_key(unit, data)
    return key is not None and not spirit_of(key, data).material


def leash(owner_is_shaman: bool) -> float:
    """How far (tray to tray) an immaterial spirit may be from its owner (CD-MA-10/11, rules.toml)."""
    c = rules().constants
    return c.shaman_spirit_range if owner_is_shaman else c.spirit_range


def buffs_for(bonus: Bonus, key: str, until_round: int, until_seat: int) -> tuple[Buff, ...]:
    """A bonus as buffs (one per part it changes) lasting until the start of ``until_seat``'s turn of
    ``until_round`` (the effect names are those magic's queries read)."""
    out: list[Buff] = []
    if bonus.armour_fight and bonus.armour_fight == bonus.armour_shot:
        out.append(Buff(key, "armour", bonus.armour_fight, until_round, until_seat))
    else:
        if bonus.armour_fight:
            out.append(Buff(key, "armour_fight", bonus.armour_fight, until_round, until_seat))
        if bonus.armour_shot:
            out.append(Buff(key, "armour_shot", bonus.armour_shot, until_round, until_seat))
    if bonus.move:
        out.append(Buff(key, "move", math.ceil(bonus.move), until_round, until_seat))
    for colour in dict.fromkeys(bonus.dice):
        out.append(Buff(key, f"dice:{colour}", bonus.dice.count(colour), until_round, until_seat))
    return tuple(out)


def release_bound(
    state: CdState, unit: Unit, key: str, until: tuple[int, int]
) -> tuple[CdState, list[Event]]:
    """Let a bound spirit go (CD-MA-04): x``release_multiplier`` its bonus as buffs until ``until`` (round,
    seat) begins, and the spirit leaves the bearer's list."""
    book = magic_rules()
    spirit = spirit_of(key, book)
    k = book.constants.release_multiplier
    spirits = list(unit.spirits)
    spirits.remove(key)
    buffs = buffs_for(spirit.times(k), key, *until)
    changed = replace(unit, spirits=tuple(spirits), buffs=(*unit.buffs, *buffs))
    return state.with_unit(changed), [SpiritReleased(unit.seat, unit.id, key, k)]


def place_near(state: CdState, owner: Unit, tray: Tray, *, at: XY | None = None) -> Tray | None:
    """Where a called spirit stands: at ``at`` when given and free, else the first free place around its
    owner (in front first, then the sides and the rear), within the table, overlapping no tray, not within 1"
    of an enemy. None when there is no room."""
    c = magic_rules().constants
    enemies = [u.tray for u in state.enemies(owner.seat)]
    others = [u.tray for u in state.on_table()]

    def free(t: Tray) -> bool:
        if not within_table(t, state.width, state.height):
            return False
        if tray_gap(t, owner.tray) > c.summon_range + LEASH_EPS:
            return False
        if any(trays_overlap(t, o) or tray_gap(t, o) < LEASH_EPS for o in others):
            return False
        return all(tray_gap(t, e) >= PLACE_GAP for e in enemies)

    if at is not None:
        placed = tray.moved(at, owner.tray.facing)
        return placed if free(placed) else None
    (fx, fy), (rx, ry) = owner.tray.axes()
    ox, oy = owner.tray.centre
    reach_front = owner.tray.depth / 2 + PLACE_GAP + tray.depth / 2
    reach_side = owner.tray.frontage / 2 + PLACE_GAP + tray.frontage / 2
    for i in range(PLACE_TRIES):
        angle = 2 * math.pi * i / PLACE_TRIES
        # front first, then the right, left, back: the forward axis weighted by the depths, the side by widths
        dx = math.cos(angle) * reach_front * fx + math.sin(angle) * reach_side * rx
        dy = math.cos(angle) * reach_front * fy + math.sin(angle) * reach_side * ry
        placed = tray.moved((ox + dx, oy + dy), owner.tray.facing)
        if free(placed):
            return placed
    return None


def leash_refusal(state: CdState, unit: Unit, tray: Tray, owner_is_shaman: bool) -> str | None:
    """Why an immaterial spirit may not end a move on ``tray`` (beyond its leash), or None."""
    if unit.owner is None or not is_immaterial(unit):
        return None
    owner = state.unit(unit.owner)
    limit = leash(owner_is_shaman)
    gap = tray_gap(tray, owner.tray)
    if gap > limit + LEASH_EPS:
        return (
            f'{unit.name} is an immaterial spirit: it may not go more than {limit:g}" from {owner.name} '
            f'(CD-MA-10/11); that move ends {gap:.1f}" away'
        )
    return None


def pulled_back(state: CdState, unit: Unit, owner: Unit, limit: float) -> Tray | None:
    """Where a spirit beyond its leash is drawn back to: straight towards its owner until within ``limit``,
    on a free place (nearer still if that one is taken); None when no place on the line is free."""
    sx, sy = unit.tray.centre
    ox, oy = owner.tray.centre
    length = math.hypot(ox - sx, oy - sy)
    if length <= LEASH_EPS:
        return None
    ux, uy = (ox - sx) / length, (oy - sy) / length
    others = [u.tray for u in state.on_table() if u.id != unit.id]
    # the distance to travel so that the gap is the limit: the gap shrinks one for one along the line
    # while the trays face each other across it, so step to it and then on in small steps
    travel = max(0.0, tray_gap(unit.tray, owner.tray) - limit)
    while travel <= length:
        t = unit.tray.moved((sx + ux * travel, sy + uy * travel))
        if tray_gap(t, owner.tray) <= limit + LEASH_EPS and not any(trays_overlap(t, o) for o in others):
            return t
        travel += PULL_STEP
    return None
