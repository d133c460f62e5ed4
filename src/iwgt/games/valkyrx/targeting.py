"""Automatic target selection for units with range over one cell (section 9)."""

from __future__ import annotations

from collections.abc import Sequence

from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.movement import allowance, is_ground
from iwgt.games.valkyrx.state import Unit, ValkyrxState
from iwgt.geometry.hexgrid import Hex, distance, neighbours

WEAK_TARGET_SHARE = 0.25
"""VX-09-06: a target under 25% of the attacker's strength is passed over for a more powerful one."""


def can_fire(state: ValkyrxState, unit: Unit, engaged: set[int]) -> bool:
    """A missile unit, or an airborne flyer (VX-04-28, VX-08-06), that may shoot this turn."""
    if not unit.on_table or unit.routed or unit.id in engaged:
        return False  # VX-09-05: a unit in close combat fights hand to hand instead
    if not (unit.type.is_missile or unit.airborne):
        return False
    normal = allowance(state, unit).normal
    # VX-04-07: more than 50% of the normal allowance moved: no fire. Exactly 50% still fires.
    return unit.moved_cost <= rules_config().movement.missile_move_share * normal + 1e-9


def firing_groups(state: ValkyrxState, firers: Sequence[Unit]) -> list[list[Unit]]:
    """Firers by value, highest first (VX-09-07); units of equal value form one group to order at random."""
    groups: list[list[Unit]] = []
    for u in sorted(firers, key=lambda u: (-round(u.value, 6), u.id)):
        if groups and round(groups[-1][0].value, 6) == round(u.value, 6):
            groups[-1].append(u)
        else:
            groups.append([u])
    return groups


def order_rolls_needed(groups: Sequence[Sequence[Unit]]) -> list[int]:
    """The dice (their sides) that order every tied group: d k, d k-1, ..., d2 (VX-09-11)."""
    sides: list[int] = []
    for g in groups:
        sides.extend(range(len(g), 1, -1))
    return sides


def firing_order(groups: Sequence[Sequence[Unit]], faces: Sequence[int]) -> list[Unit]:
    """The firers in selection order, ties broken by the faces rolled (each face picks the next unit)."""
    order: list[Unit] = []
    it = iter(faces)
    for g in groups:
        rest = list(g)
        while len(rest) > 1:
            order.append(rest.pop(next(it) - 1))
        order.extend(rest)
    return order


def candidates(state: ValkyrxState, firer: Unit, occ: dict[Hex, Unit]) -> list[Unit]:
    """Enemies the firer may engage under conditions (i) to (iii) (VX-09-04 to VX-09-06)."""
    reach = max(1, firer.type.range)
    side = firer.commander
    out = []
    for other in occ.values():
        if other.commander == side or distance(firer.cell, other.cell) > reach:
            continue
        if other.routed:
            continue  # (i) routed and about to move away
        if is_ground(other) and any(
            (f := occ.get(n)) is not None and f.commander == side and is_ground(f)
            for n in neighbours(other.cell)
        ):
            continue  # (ii) engaged with a friendly unit: for fear of striking own men
        out.append(other)
    strong = [u for u in out if u.value >= WEAK_TARGET_SHARE * firer.value]
    if strong:
        out = strong  # (iii) the more powerful enemy is chosen in preference to the weaker, closer one
    if firer.type.has("hates_dwarfs"):
        dwarfs = [u for u in out if u.type.has("dwarf")]
        if dwarfs:
            out = dwarfs  # VX-13-LAF-1: she attacks Dwarfs even when they are not the nearest
    return out


def select_targets(
    state: ValkyrxState, order: Sequence[Unit], occ: dict[Hex, Unit]
) -> list[tuple[Unit, Unit]]:
    """Each firer in turn takes the nearest eligible enemy, preferring one no other firer chose (VX-09-08)."""
    chosen: set[int] = set()
    out: list[tuple[Unit, Unit]] = []
    for firer in order:
        cands = candidates(state, firer, occ)
        if not cands:
            continue
        fresh = [u for u in cands if u.id not in chosen]
        pool = fresh or cands  # VX-09-09: not enough targets: some shoot at the same one

        # VX-09-03: the wolf closest to the sledge; at equal distance the greater threat, then the lower id.
        def key(u: Unit, firer: Unit = firer) -> tuple[int, float, int]:
            return (distance(firer.cell, u.cell), -u.value, u.id)

        target = min(pool, key=key)
        chosen.add(target.id)
        out.append((firer, target))
    return out
