"""What an attack is worth, from the exact odds (``odds.py``): the expected models removed, the chance the
target's morale breaks or it is destroyed, each turned into victory points; for a fight, minus the expected
strike back of the survivors (CD-FI-03/04).

Worth in points: a destroyed or routed unit gives the enemy its starting points (CD-MS-07 designed); a model
removed is worth part of its points (it brings the break of the army nearer and weakens the unit); a steady
unit that fails a test is shaken (one failure from routing), a shaken one routs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from iwgt.games.coloured_dice.bot.view import UnitView, fights_together
from iwgt.games.coloured_dice.odds import casualties_distribution, mean, morale_break_probability

MODEL_SHARE = 0.6
"""The share of a model's points its removal is worth before its unit is gone (designed for the bot)."""
SHAKEN_SHARE = 0.35
"""The share of a steady unit's worth a failed test (it is shaken) is worth."""
POOL_CACHE = 4096
"""Distinct (pool, armour, models, body, wounds) casualty distributions kept."""


@dataclass(frozen=True, slots=True)
class Strike:
    """One strike's outcome: expected models removed, P(morale fails and it survives), P(destroyed)."""

    mean: float
    breaks: float
    destroyed: float
    casualties: tuple[tuple[int, float], ...]


def pool_of(dice: Sequence[str] | Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """A pool as a sorted hashable key."""
    counts = Counter(dice) if not isinstance(dice, Mapping) else Counter(dict(dice))
    return tuple(sorted((c, n) for c, n in counts.items() if n > 0))


@lru_cache(maxsize=POOL_CACHE)
def _casualties(
    pool: tuple[tuple[str, int], ...], armour: int, models: int, body: int, wounds: int
) -> dict[int, float]:
    if not pool or models <= 0:
        return {0: 1.0}
    return casualties_distribution(dict(pool), max(0, armour), models=models, body=body, wounds_on=wounds)


def strike(
    pool: tuple[tuple[str, int], ...],
    target: UnitView,
    armour: int,
    *,
    close_combat: bool,
    general_morale: int = 0,
    models: int | None = None,
) -> Strike:
    """The exact odds of a pool against the target (``models`` it has, its own by default)."""
    m = target.models if models is None else models
    cas = _casualties(pool, armour, m, target.body, target.wounds)
    earlier = int(target.data.get("round_losses", 0)) if close_combat else 0
    fails, destroyed = morale_break_probability(
        cas,
        models=m,
        target_of=target.morale_target_with,
        round_losses=close_combat,
        general_morale=general_morale,
        earlier_losses=earlier,
    )
    return Strike(mean(cas), fails, destroyed, tuple(sorted(cas.items())))


def worth(s: Strike, target: UnitView) -> float:
    """A strike's worth in points to the striker's side."""
    value = target.full_value
    broken = value if target.shaken else SHAKEN_SHARE * value
    # The models of a unit destroyed are in its whole worth already: only the others count as models.
    survived_losses = max(0.0, s.mean - s.destroyed * target.models)
    return MODEL_SHARE * target.per_model * survived_losses + s.destroyed * value + s.breaks * broken


def fighters(unit: UnitView, facing_width: float, models: int | None = None) -> tuple[int, int]:
    """(front-rank fighters, second-rank fighters) of a unit meeting an enemy edge ``facing_width`` wide:
    a formation's whole front rank, else the models whose cells the contact covers (CD-AC-04, CD-FI-02)."""
    m = unit.models if models is None else models
    files = min(unit.files, m)
    if files <= 0:
        return 0, 0
    if fights_together(unit.order):
        front = files
    else:
        cell = unit.tray.frontage / max(1, unit.files)
        front = max(1, min(files, int(facing_width / max(cell, 1e-6)) + 1))
    second = min(front, max(0, m - files)) if unit.second_rank else 0
    return front, second


def melee_pool(unit: UnitView, facing_width: float, models: int | None = None) -> tuple[tuple[str, int], ...]:
    """The melee pool the unit rolls against an enemy edge of that width."""
    front, second = fighters(unit, facing_width, models)
    dice: Counter[str] = Counter()
    for c in unit.melee_per_model:
        dice[c] += front
    for c in unit.second_rank:
        dice[c] += second
    return pool_of(dice)


@dataclass(frozen=True, slots=True)
class Exchange:
    """A fight's expected worth to the attacker: what it deals, what it takes back, their difference."""

    dealt: float
    taken: float
    first: bool

    @property
    def net(self) -> float:
        """Dealt minus taken."""
        return self.dealt - self.taken


def exchange(
    attacker: UnitView,
    defender: UnitView,
    *,
    attacker_turn: bool = True,
    gm: tuple[int, int] = (0, 0),
    dealt_pool: tuple[tuple[str, int], ...] | None = None,
    armour: int | None = None,
) -> Exchange:
    """One round of a fight the attacker starts: the faster strikes first, the survivors strike back
    (CD-FI-03/04); ``gm`` is (attacker's, defender's) general morale. ``dealt_pool``/``armour`` may come
    from a preview (the exact fighters); otherwise they are estimated from the trays."""
    width_d = min(defender.tray.frontage, attacker.tray.frontage)
    pool_a = dealt_pool if dealt_pool is not None else melee_pool(attacker, width_d)
    armour_d = defender.armour if armour is None else armour
    if attacker.slowness != defender.slowness:
        a_first = attacker.slowness < defender.slowness
    else:
        a_first = attacker_turn
    if a_first:
        hit = strike(pool_a, defender, armour_d, close_combat=True, general_morale=gm[1])
        dealt = worth(hit, defender)
        taken = 0.0
        for lost, p in hit.casualties:
            left = defender.models - lost
            if left <= 0 or p < 1e-4:
                continue
            back = strike(
                melee_pool(defender, width_d, left),
                attacker,
                attacker.armour,
                close_combat=True,
                general_morale=gm[0],
            )
            taken += p * worth(back, attacker)
        return Exchange(dealt, taken, True)
    back = strike(
        melee_pool(defender, width_d), attacker, attacker.armour, close_combat=True, general_morale=gm[0]
    )
    taken = worth(back, attacker)
    dealt = 0.0
    for lost, p in back.casualties:
        left = attacker.models - lost
        if left <= 0 or p < 1e-4:
            continue
        scale = left / max(1, attacker.models)
        pool = pool_a if scale >= 1.0 else melee_pool(attacker, width_d, left)
        hit = strike(pool, defender, armour_d, close_combat=True, general_morale=gm[1])
        dealt += p * worth(hit, defender)
    return Exchange(dealt, taken, False)


def shot_worth(preview: Mapping[str, object], target: UnitView) -> float:
    """A preview's worth (a shot or a spell attack): its expected models, morale and destruction in points."""
    mean_ = float(preview.get("mean", 0.0))  # type: ignore[arg-type]
    breaks = float(preview.get("morale_break", 0.0))  # type: ignore[arg-type]
    destroyed = float(preview.get("destroyed", 0.0))  # type: ignore[arg-type]
    return worth(Strike(mean_, breaks, destroyed, ()), target)
