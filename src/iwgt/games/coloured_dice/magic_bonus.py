"""Magic's bonuses, the queries the engine calls while it works a move, a fight or a shot (CD-MA designed):
runes (``runes.py``), bound spirits (``spirits.py``) and the buffs of spells, gifts and released spirits that
still run. Kept apart from ``magic.py`` (which starts attacks and tests through ``resolve``) so that the
combat and movement modules may import it at the top without an import cycle.

- ``armour_bonus(state, unit, "fight"|"shot")``: armour added in close combat / against a shot or a spell.
- ``move_bonus(state, unit)``: inches added to each move action.
- ``extra_dice(state, unit)``: dice added ONCE to the unit's close-combat pool whenever it fights.
- ``wound_immune(state, unit)``: an immaterial spirit, which wounds cannot touch (CD-MA-08).

Buff effects (``state.Buff.effect``): ``armour_fight``, ``armour_shot``, ``armour`` (both), ``move``,
``dice:<colour>``. A buff is read only while it runs (until ``until_seat``'s turn of ``until_round`` begins),
so a late clean-up by the flow changes nothing.
"""

from __future__ import annotations

from typing import Literal

from iwgt.games.coloured_dice import spirits
from iwgt.games.coloured_dice.magic_data import COLOURS, Bonus
from iwgt.games.coloured_dice.rules import profile
from iwgt.games.coloured_dice.runes import add, rune_bonus
from iwgt.games.coloured_dice.state import SEATS, Buff, CdState, Unit

Against = Literal["fight", "shot"]
"""What an armour bonus is asked for: a close-combat strike or a shot (spell attacks count as shots)."""


# --- turns and buffs -------------------------------------------------------------------------------------


def _turn_index(state: CdState, round_: int, seat: int) -> int:
    first = state.scenario.spec.first
    return (round_ - 1) * SEATS + (0 if seat == first else 1)


def turns_ahead(state: CdState, n: int) -> tuple[int, int]:
    """The (round, seat) of the turn ``n`` turns after the one being played."""
    first = state.scenario.spec.first
    index = _turn_index(state, state.round, state.seat) + n
    round_, k = divmod(index, SEATS)
    return round_ + 1, first if k == 0 else 1 - first


def live(state: CdState, b: Buff) -> bool:
    """Whether a buff still runs (it ends when ``until_seat``'s turn of ``until_round`` begins)."""
    return _turn_index(state, b.until_round, b.until_seat) > _turn_index(state, state.round, state.seat)


def _buffs(state: CdState, u: Unit, effect: str) -> int:
    return sum(b.amount for b in u.buffs if b.effect == effect and live(state, b))


def passive(u: Unit) -> Bonus:
    """A unit's always-on magic: its runes (with their combinations) and its bound spirits."""
    return add([rune_bonus(profile(u.army, u.key).runes), spirits.bound_bonus(u.spirits)])


def armour_bonus(state: CdState, unit: Unit, against: Against) -> int:
    """The armour magic adds to a unit in close combat (``fight``) or against a shot or spell (``shot``)."""
    bonus = passive(unit)
    base = bonus.armour_fight if against == "fight" else bonus.armour_shot
    return base + _buffs(state, unit, f"armour_{against}") + _buffs(state, unit, "armour")


def move_bonus(state: CdState, unit: Unit) -> float:
    """The inches magic adds to each of a unit's move actions."""
    return passive(unit).move + _buffs(state, unit, "move")


def extra_dice(state: CdState, unit: Unit) -> tuple[str, ...]:
    """The dice magic adds, once, to a unit's close-combat pool (runes, spirits), in pool order."""
    dice: list[str] = list(passive(unit).dice)
    for colour in COLOURS:
        dice.extend([colour] * _buffs(state, unit, f"dice:{colour}"))
    return tuple(sorted(dice, key=COLOURS.index))


def wound_immune(state: CdState, unit: Unit) -> bool:
    """Whether wounds cannot harm a unit: an immaterial spirit (CD-MA-08: only magic or its owner's death)."""
    return spirits.is_immaterial(unit)
