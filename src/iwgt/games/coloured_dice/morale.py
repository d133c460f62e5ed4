"""Morale as pure functions (CD-MO, CD-MM, CD-GM, CD-CH-28..30): the value, the 2d6 test, general morale.

A unit's morale cap is its Us (or iUs), doubled while its leader lives, plus the leader's bonus, held within
[morale_min, morale_max] (CD-MO-04..07, CD-CH-30). An ``Us`` unit tests under the smaller of its headcount and
its cap (CD-MO-10); an individual (``iUs``: characters, monsters, spirits) under its cap (CD-MO-01 decision).
A test passes when 2d6 + the round's close-combat losses - general morale is under the target; 2 always passes
and 12 always fails (CD-MO-02, 08, 09, CD-MM-02, CD-GM-01).
"""

from __future__ import annotations

from typing import Literal

from iwgt.games.coloured_dice.rules import GmRow, Profile, rules


def morale_cap(p: Profile, leader_alive: bool) -> int:
    """The most the unit's morale value can be: Us/iUs, x2 and + the leader's bonus while its leader lives,
    within [MORALE_MIN, MORALE_MAX] (CD-MO-04..07: 2 x 10 + 5 = 25 at most, 5 at least as a rule)."""
    c = rules().constants
    cap = p.us
    if p.leader and leader_alive:
        cap = cap * c.leader_factor + p.leader_bonus
    return max(c.morale_min, min(c.morale_max, cap))


def morale_target(p: Profile, models: int, leader_alive: bool) -> int:
    """The number 2d6 must come under: min(models, cap) for Us units (CD-MO-10), the cap for iUs ones."""
    if models < 1:
        raise ValueError(f"a unit of {models} models does not test morale: it is gone")
    cap = morale_cap(p, leader_alive)
    return cap if p.us_kind == "iUs" else min(models, cap)


def test_passes(roll: tuple[int, int], *, target: int, round_losses: int, general_morale: int) -> bool:
    """Whether a morale roll passes: 12 fails, 2 passes (CD-MO-08/09), else roll + the round's own losses in
    close combat (CD-MM-02; 0 outside it) - general morale (positive helps, CD-GM-01) < target (CD-MO-02)."""
    for die in roll:
        if not 1 <= die <= 6:
            raise ValueError(f"a d6 shows 1 to 6, not {die}")
    if round_losses < 0:
        raise ValueError(f"round_losses {round_losses} cannot be negative")
    c = rules().constants
    total = roll[0] + roll[1]
    if total >= c.morale_always_fails:
        return False
    if total <= c.morale_always_passes:
        return True
    return total + round_losses - general_morale < target


test_passes.__test__ = False  # type: ignore[attr-defined]  # a rule named test_*, not a pytest test


def starting_us(p: Profile) -> int:
    """The Us a unit starts the battle with: its cap with its leader alive, doubling and bonus included
    (the translator's reading of "starting Us", CD-GM-05)."""
    return morale_cap(p, leader_alive=p.leader)


def general_morale_row(event: str) -> GmRow:
    """A row of the general-morale table by its event key; KeyError names the known ones."""
    table = rules().general_morale
    try:
        return table[event]
    except KeyError:
        raise KeyError(f"unknown general-morale event {event!r}; known: {', '.join(table)}") from None


def general_morale_change(event: str) -> int | Literal["d6"]:
    """The row's signed change, or "d6" (rolled once when it happens, with ``general_morale_sign``'s sign)."""
    return general_morale_row(event).modifier


def general_morale_sign(event: str) -> int:
    """+1 for a victory row, -1 for a loss row (the sign a "d6" row's roll takes)."""
    return general_morale_row(event).sign


def unit_destroyed_event(start_us: int, *, own: bool) -> str | None:
    """The row a destroyed unit of this starting Us makes for its own army (own=True) or for its enemy's:
    only the highest row it reaches applies (CD-GM-05/06 decision: -2, not -3); None when no row does
    (there is no enemy row for 15-24, CD-GM-11)."""
    rows = [
        row
        for row in rules().general_morale.values()
        if row.starting_us is not None and row.own == own and start_us >= row.starting_us
    ]
    if not rows:
        return None
    return max(rows, key=lambda row: row.starting_us or 0).key
