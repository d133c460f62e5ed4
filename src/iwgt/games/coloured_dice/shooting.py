"""Shooting (CD-SH-01..09, CD-RA-01..06, CD-TC-01..03, CD-TE-11..21), a reaction's stand and shoot, own fire.

Every model of the unit shoots its first missile weapon's dice (CD-SH-02/03). The armour against the shot is
max(0, armour + shooting skill + range band + cover + hill + buffs) (``dice.shot_armour``); the range band
is ceil(distance / range) - 1 (an exact multiple in the lower band), the distance is the gap between the two
trays, and a weapon reaches ``MAX_RANGE_BANDS`` multiples of its range (CD-RA-01 decision). The target must be
seen (``terrain.sees``). Cover is the highest single terrain bonus (``terrain.cover``, CD-TC-03 decision);
the hill adds on top when the target stands higher (CD-TE-01). Kills ignore all of it (CD-DI-13).

Own fire (CD-MS-15 designed): a shot at an enemy engaged with a friendly unit puts that friend under fire
(its side's general morale -1, CD-GM-08) and half the wounds (rounded down) fall on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_common import (
    armour_mods,
    base_armour,
    engaged_friends,
    hill_bonus,
    max_range_bands,
    prof,
)
from iwgt.games.coloured_dice.dice import pool_list, range_band, shot_armour
from iwgt.games.coloured_dice.formation import model_cells
from iwgt.games.coloured_dice.general_morale import own_fire_row
from iwgt.games.coloured_dice.magic_bonus import wound_immune
from iwgt.games.coloured_dice.pending import Attack
from iwgt.games.coloured_dice.rules import missile_weapon, rules
from iwgt.games.coloured_dice.state import CdState, Unit
from iwgt.games.coloured_dice.terrain import cover, higher, sees
from iwgt.games.coloured_dice.wounds import push_attack
from iwgt.geometry.trays import tray_gap

RANGE_SLACK = 1e-9
"""Inches of floating-point slack at the longest range."""


@dataclass(frozen=True, slots=True)
class ShotPlan:
    """A shot as it would be made now: the pool, the effective armour and its parts, the distance and the
    weapon's range, why the target has cover, and the engaged friend that would take half the wounds."""

    dice: tuple[str, ...]
    armour: int
    parts: tuple[tuple[str, int], ...]
    distance: float
    weapon_range: float
    cover_why: str | None
    friend: int | None


def skill_of(u: Unit) -> int:
    """The unit's shooting skill (CD-SH-05..08); a profile without one shoots with the usual skill."""
    s = prof(u).shooting
    return rules().constants.usual_skill if s is None else s


def immune_refusal(target: Unit) -> str:
    """Why no shot, fight or attack spell may aim at an immaterial spirit (CD-MA-08)."""
    return f"CD-MA-08: no wound touches an immaterial spirit, only magic or its owner's end ({target.name})"


def plan_shot(state: CdState, unit_id: int, target_id: int) -> ShotPlan:
    """The shot of ``unit_id`` at ``target_id`` now, or IllegalAction naming why it may not be made."""
    if not (0 <= unit_id < len(state.units) and 0 <= target_id < len(state.units)):
        raise IllegalAction("no such unit")
    u, t = state.unit(unit_id), state.unit(target_id)
    if t.seat == u.seat:
        raise IllegalAction(f"the target must be an enemy ({t.name}: a friend)")
    if not (u.on_table and t.on_table):
        raise IllegalAction("both units must be on the table")
    if wound_immune(state, t):
        raise IllegalAction(immune_refusal(t))
    w = missile_weapon(prof(u))
    if w is None or w.missile is None:
        raise IllegalAction(f"CD-SH-02: shooting needs a missile weapon ({u.name}: none)")
    missile = w.missile
    weapon_range = float(missile.range)
    distance = tray_gap(u.tray, t.tray)
    bands = max_range_bands()
    if distance > bands * weapon_range + RANGE_SLACK:
        raise IllegalAction(
            f'CD-RA-01: out of range: {distance:.1f}" to {t.name}; a {weapon_range:g}" weapon reaches '
            f'{bands * weapon_range:g}"'
        )
    features = state.terrain()
    cells = model_cells(t.tray, t.models, t.files)
    if not sees(u.tray, t.tray, features, cells=cells):
        raise IllegalAction(f"CD-TE-15: {u.name} cannot see {t.name}")
    band = range_band(distance, weapon_range)
    cov, why = cover(u.tray, t.tray, cells, features)
    hill = hill_bonus() * higher(t.tray, u.tray, features)
    skill = skill_of(u)
    base = base_armour(t)
    extra = armour_mods(state, t, "shot")
    armour = shot_armour(base, skill=skill, band=band, cover=cov, hill=hill, extra=extra)
    parts = (
        ("armour", base),
        ("skill", skill),
        ("band", band),
        ("cover", cov),
        ("hill", hill),
        ("magic", extra),
    )
    count: Counter[str] = Counter()
    for _ in range(u.models):
        count.update(missile.dice)
    friends = engaged_friends(state, t, u.seat)
    friend = min(friends, key=lambda f: (tray_gap(u.tray, f.tray), f.id)).id if friends else None
    return ShotPlan(pool_list(count), armour, parts, distance, weapon_range, why, friend)


def can_stand_and_shoot(state: CdState, unit_id: int, charger_id: int) -> bool:
    """Whether a unit that reacted may shoot the charger now (a missile weapon, sight, range)."""
    try:
        plan_shot(state, unit_id, charger_id)
    except IllegalAction:
        return False
    return True


def push_shot(
    state: CdState, unit_id: int, target_id: int, *, reaction: bool, events: list[Event]
) -> CdState:
    """Begin a shot (or a reaction's stand and shoot): own fire's -1 at once, then the pool."""
    plan = plan_shot(state, unit_id, target_id)
    shooter = state.unit(unit_id)
    if plan.friend is not None:
        state = own_fire_row(state, shooter.seat, events)
    attack = Attack(
        "stand_and_shoot" if reaction else "shot",
        unit_id,
        target_id,
        plan.dice,
        plan.armour,
        plan.parts,
        friend=plan.friend,
        distance=plan.distance,
    )
    return push_attack(state, attack, events)
