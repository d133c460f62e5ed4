"""What the combat modules share: a unit's profile and weapons, contact, armour, general morale changes.

Pure functions of ``CdState``; nothing here decides a rule beyond what its docstring says.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from typing import Any, Final

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.combat_events import GeneralMoraleChanged
from iwgt.games.coloured_dice.formation import CONTACT_EPS, UnitGeo, surely_apart
from iwgt.games.coloured_dice.magic_bonus import Against, armour_bonus
from iwgt.games.coloured_dice.morale import general_morale_change
from iwgt.games.coloured_dice.rules import Profile, profile, rules
from iwgt.games.coloured_dice.state import CdState, Unit, pair
from iwgt.geometry.trays import tray_gap

__all__ = ["CONTACT_EPS"]


def _constant(name: str) -> Any:
    """A named constant of ``data/rules.toml``."""
    return getattr(rules().constants, name)


@cache
def fall_back_inches() -> float:
    """How far a unit shaken in close combat falls back (designed, CD-MS-03)."""
    return float(_constant("fall_back"))


@cache
def tight_bonus() -> int:
    """The morale target bonus of a tight formation in close combat (designed, CD-AC-08)."""
    return int(_constant("tight_morale_bonus"))


@cache
def max_range_bands() -> int:
    """How many multiples of its range a missile weapon reaches (designed, CD-RA-01)."""
    return int(_constant("max_range_bands"))


@cache
def own_fire_share() -> tuple[int, int]:
    """The share of a shot's wounds that falls on an engaged friend (designed, CD-MS-15): (1, 2) = half."""
    num, den = _constant("own_fire_share")
    return int(num), int(den)


@cache
def reaction_inches_per_die() -> float:
    """Inches of distance per reaction die (CD-RE-02)."""
    return float(_constant("reaction_inches_per_die"))


REACTION_SLACK: Final = 1e-9
"""Floating-point slack: a gap of exactly 8" is one started 8", not two."""


def reaction_dice(gap: float) -> int:
    """The yellow dice a unit charged from ``gap`` inches reacts with (CD-RE-02 decision): one per STARTED
    ``reaction_inches_per_die`` (distance / 8 rounded up, as the range bands count: 1 die up to 8", 2 up to
    16"); none for trays already touching."""
    if gap <= CONTACT_EPS:
        return 0
    return max(0, math.ceil(gap / reaction_inches_per_die() - REACTION_SLACK))


@cache
def reaction_die() -> str:
    """The colour of the reaction dice (CD-RE-02 decision: yellow)."""
    return str(_constant("reaction_die"))


@cache
def hill_bonus() -> int:
    """Armour the higher side gets (CD-TE-01)."""
    return int(_constant("hill_bonus"))


def prof(u: Unit) -> Profile:
    """A unit's profile (its army list entry)."""
    return profile(u.army, u.key)


def geo(u: Unit) -> UnitGeo:
    """What the formation geometry needs of a unit."""
    return UnitGeo(u.tray, u.models, u.files)


def body(u: Unit) -> int:
    """Wounds a model of the unit takes before it is removed (CD-CH-06..08)."""
    return max(1, int(prof(u).body))


def in_contact(a: Unit, b: Unit) -> bool:
    """Whether two units on the table touch (CD-MS-16: within ``CONTACT_EPS``)."""
    return (
        a.on_table
        and b.on_table
        and not surely_apart(a.tray, b.tray, CONTACT_EPS)  # far-apart trays settled cheaply
        and tray_gap(a.tray, b.tray) <= CONTACT_EPS
    )


def engaged_friends(state: CdState, target: Unit, seat: int) -> list[Unit]:
    """The units of ``seat`` in contact with ``target`` (an enemy of theirs): a shot at it is own fire."""
    return [f for f in state.on_table(seat) if f.id != target.id and in_contact(f, target)]


def armour_mods(state: CdState, u: Unit, against: Against) -> int:
    """The armour magic adds to a unit (runes, bound spirits, spells still running; CD-MA designed) in a
    fight or against a shot or spell (``magic_bonus.armour_bonus``)."""
    return armour_bonus(state, u, against)


def base_armour(u: Unit) -> int:
    """The unit's printed armour value (armour + shield, CD-FI-05)."""
    return int(prof(u).armour)


def fights_together(u: Unit) -> bool:
    """Whether the unit's order makes its whole front rank fight (CD-AC-04): loose and tight formations."""
    return bool(rules().orders[u.order].fights_together)  # type: ignore[index]


def order_morale_bonus(u: Unit) -> int:
    """The morale target bonus of the unit's order in close combat (tight +1, CD-AC-08 designed)."""
    return int(rules().orders[u.order].morale_bonus)  # type: ignore[index]


def gm_of(state: CdState, seat: int) -> int:
    """A side's general morale now (CD-GM-01)."""
    return state.general_morale[seat]


def change_gm(state: CdState, seat: int, change: int, event: str, events: list[Event]) -> CdState:
    """Change a side's general morale by a row of the table (CD-GM-04..13), recording it."""
    if change == 0:
        return state
    value = state.general_morale[seat] + change
    row = rules().general_morale[event]
    events.append(GeneralMoraleChanged(seat, change, value, event, row.clause))
    return replace(state, general_morale=pair(state.general_morale, seat, value))


def gm_change(event: str) -> int | str:
    """A general-morale row's signed change, or "d6" (rolled once, with the row's sign)."""
    return general_morale_change(event)


def hurt(u: Unit, models_before: int, wounds_before: int) -> bool:
    """Whether wounds reached the unit through its armour since (models, wounds carried) were as given: a
    model lost, or a wound more on its current model (CD-MS-03 decision: a single model wounded tests too)."""
    return u.models < models_before or (u.models == models_before and u.wounds > wounds_before)
