"""Exact odds of a pool of coloured dice: the joint distribution of (points, kills), and from it the points,
wounds and casualties against an armour value, and the chance a morale test fails (CD-FI-05..07, CD-MO-08/09).

Exact, never sampled: float64 convolutions of the dice's own face distributions (dice.py reads them from
data/dice.toml). The distribution of ``n`` dice of one colour is cached per (colour, count) and built from the
one for ``n - 1`` by one die's few distinct faces; a pool then convolves its colours: the colours without a
kill face on the points axis alone, those with one (green, black) on both axes. A 40-die pool takes well under
a millisecond (benchmarks/coloured_dice_odds.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import cast

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view
from numpy.typing import NDArray

from iwgt.games.coloured_dice.dice import (
    COLOURS,
    KILL,
    SIDES,
    dice_file,
    face_points,
    faces,
    kill_wounds,
)

Grid = NDArray[np.float64]
"""A joint distribution: ``grid[points, kills]`` is the chance of exactly that many points and kill faces."""

CACHED_COUNT = 64
"""Counts of one colour cached up to this many dice; a larger count is built on from the cached one (a
60-model unit fits; the cache of all eight colours stays a few megabytes)."""
POOL_CACHE = 2048
"""Distinct pools whose joint distribution is kept (a battle meets a few dozen)."""

TWO_D6: tuple[tuple[int, int], ...] = tuple((s, 6 - abs(s - 7)) for s in range(2, 13))
"""2d6: each total with its number of ways out of 36."""
TWO_D6_WAYS = sum(n for _, n in TWO_D6)
"""36: the ways two dice fall."""

_ONE: NDArray[np.float64] = np.ones(1)
_ONE.setflags(write=False)
_by_count: dict[tuple[str, int], Grid] = {}
_powers: dict[tuple[str, int], NDArray[np.float64]] = {}


@dataclass(frozen=True)
class _DieShape:
    """One die as the odds need it: the chance of its kill face(s), the points a kill face counts, and the
    points distribution of its other faces (given that it shows no kill)."""

    kill: float
    kill_points: int
    others: NDArray[np.float64]


@cache
def _shape(colour: str) -> _DieShape:
    """A colour's die, read once from the data."""
    shown = faces(colour)
    kills = sum(1 for f in shown if f == KILL)
    kill_points = dice_file().kill.points
    others = np.zeros(max(face_points(f) for f in shown) + 1)
    for face in shown:
        if face != KILL:
            others[face_points(face)] += 1.0
    if kills < SIDES:
        others /= SIDES - kills
    others.setflags(write=False)
    return _DieShape(kills / SIDES, kill_points, others)


def _power(colour: str, count: int) -> NDArray[np.float64]:
    """The points of ``count`` of a colour's dice that show no kill: the ``count``-fold convolution of its
    other faces, cached per (colour, count) up to ``CACHED_COUNT``, built on from the largest cached one."""
    have = min(count, CACHED_COUNT)
    while have > 0 and (colour, have) not in _powers:
        have -= 1
    dist = _powers.get((colour, have), _ONE)
    kernel = _shape(colour).others
    for n in range(have + 1, count + 1):
        dist = np.convolve(dist, kernel)
        if n <= CACHED_COUNT:
            dist.setflags(write=False)
            _powers[(colour, n)] = dist
    return dist


def colour_distribution(colour: str, count: int) -> Grid:
    """``count`` dice of one colour: grid[points, kills] (read-only, cached up to ``CACHED_COUNT`` dice).

    With ``j`` kill faces among ``n`` dice (a binomial chance), the other ``n - j`` dice show their other
    faces: column ``j`` is that binomial chance times their ``(n - j)``-fold convolution, moved up by the
    points the kill faces count."""
    if count < 0:
        raise ValueError(f"{colour}: {count} is not a number of dice")
    grid = _by_count.get((colour, count))
    if grid is not None:
        return grid
    die = _shape(colour)
    if die.kill == 0.0:
        grid = _power(colour, count).reshape(-1, 1)
    else:
        top = max(len(die.others) - 1, die.kill_points)
        grid = np.zeros((count * top + 1, count + 1))
        for j in range(count + 1):
            chance = math.comb(count, j) * die.kill**j * (1.0 - die.kill) ** (count - j)
            rest = _power(colour, count - j)
            at = j * die.kill_points
            grid[at : at + len(rest), j] = chance * rest
    if count <= CACHED_COUNT:
        grid.setflags(write=False)
        _by_count[(colour, count)] = grid
    return grid


def _convolve(a: Grid, b: Grid) -> Grid:
    """The distribution of the sum of two independent (points, kills) grids: a two-axis convolution as one
    matrix product (each points window of ``a`` against ``b`` reversed), the kills summed along diagonals."""
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    rows_b, cols_a, cols_b = b.shape[0], a.shape[1], b.shape[1]
    padded = np.zeros((a.shape[0] + 2 * (rows_b - 1), cols_a))
    padded[rows_b - 1 : rows_b - 1 + a.shape[0]] = a
    windows = sliding_window_view(padded, rows_b, axis=0)  # [points, kills of a, window]
    by_kills = np.matmul(windows, b[::-1])  # [points, kills of a, kills of b]
    if cols_a == 1 or cols_b == 1:
        flat: Grid = by_kills.reshape(by_kills.shape[0], cols_a * cols_b)
        return flat
    # Kills of a and of b add: lay row i of each points slice i places to the right, then sum the rows.
    skewed = np.zeros((by_kills.shape[0], cols_a, cols_a + cols_b - 1))
    st = skewed.strides
    as_strided(skewed, shape=by_kills.shape, strides=(st[0], st[1] + st[2], st[2]))[...] = by_kills
    summed: Grid = skewed.sum(axis=1)
    return summed


@lru_cache(maxsize=POOL_CACHE)
def _joint(pool: tuple[tuple[str, int], ...]) -> Grid:
    """The joint distribution of a pool given as ((colour, count), ...) in pool order."""
    points = _ONE
    grid: Grid | None = None
    for colour, count in pool:
        if _shape(colour).kill == 0.0:  # points only: a plain convolution
            points = np.convolve(points, _power(colour, count))
        else:
            part = colour_distribution(colour, count)
            grid = part if grid is None else _convolve(grid, part)
    if grid is None:
        out = points.reshape(-1, 1)
    elif len(points) > 1:
        out = _convolve(grid, points.reshape(-1, 1))
    else:  # kill colours only
        out = grid
    if out.flags.writeable:
        out.setflags(write=False)
    return out


def _key(pool: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """A pool as a hashable key in pool order, checked (unknown colours and bad counts refused)."""
    for colour, count in pool.items():
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}: the dice are {', '.join(COLOURS)}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{colour}: {count!r} is not a number of dice")
    return tuple((c, pool[c]) for c in COLOURS if pool.get(c, 0))


def joint(pool: Mapping[str, int]) -> Grid:
    """The exact joint distribution of a pool's points and kill faces: ``joint(pool)[points, kills]``
    (read-only; an empty pool is certain to roll 0 and 0)."""
    return _joint(_key(pool))


def _as_dict(weights: NDArray[np.float64]) -> dict[int, float]:
    """A distribution as {value: probability}, the impossible values left out."""
    return {int(v): float(p) for v, p in enumerate(weights) if p > 0.0}


def points_distribution(pool: Mapping[str, int]) -> dict[int, float]:
    """The chance of each points total of a pool ('miss' and 'kill' count 0, CD-DI-12)."""
    return _as_dict(joint(pool).sum(axis=1))


def kills_distribution(pool: Mapping[str, int]) -> dict[int, float]:
    """The chance of each number of 'kill' faces (green and black dice only)."""
    return _as_dict(joint(pool).sum(axis=0))


def _check_armour(armour: int) -> None:
    if armour < 0:
        raise ValueError(f"armour {armour}: armour is 0 or more (CD-FI-06, CD-SH-08)")


def _wounds_weights(pool: Mapping[str, int], armour: int) -> NDArray[np.float64]:
    """weights[w]: the chance of exactly ``w`` wounds against this armour."""
    _check_armour(armour)
    grid = joint(pool)
    points = np.arange(grid.shape[0])[:, None] // (armour + 1)
    wounds = points + np.arange(grid.shape[1])[None, :] * kill_wounds()
    weights: NDArray[np.float64] = np.bincount(wounds.ravel(), weights=grid.ravel()).astype(
        np.float64, copy=False
    )
    return weights


def wounds_distribution(pool: Mapping[str, int], armour: int) -> dict[int, float]:
    """The chance of each number of wounds against an armour value: floor(points / (armour + 1)) + kills
    (CD-FI-05..07, CD-DI-13 decision)."""
    return _as_dict(_wounds_weights(pool, armour))


def casualties_distribution(
    pool: Mapping[str, int], armour: int, *, models: int | None = None, body: int = 1, wounds_on: int = 0
) -> dict[int, float]:
    """The chance of each number of models removed: wounds fall on the current model first (holding
    ``wounds_on`` already), each model taking ``body`` wounds before the next (CD-CH-06, CD-MS-10); at most
    ``models`` (a unit cannot lose more models than it has)."""
    if body < 1:
        raise ValueError(f"body {body}: a model withstands at least 1 wound (CD-CH-06)")
    if not 0 <= wounds_on < body:
        raise ValueError(f"{wounds_on} wounds on a Body-{body} model: it holds 0 to {body - 1}")
    if models is not None and models < 0:
        raise ValueError(f"{models} is not a number of models")
    weights = _wounds_weights(pool, armour)
    removed = (np.arange(weights.shape[0]) + wounds_on) // body
    if models is not None:
        removed = np.minimum(removed, models)
    return _as_dict(cast(NDArray[np.float64], np.bincount(removed, weights=weights)))


def mean(distribution: Mapping[int, float]) -> float:
    """The expected value of a distribution given as {value: probability}."""
    return float(sum(v * p for v, p in distribution.items()))


def pass_probability(target: int, modifier: int) -> float:
    """The chance a 2d6 morale test passes: roll + modifier under the target, a 2 always passing and a 12
    always failing (CD-MO-08, CD-MO-09). ``modifier`` adds to the roll: the round's losses in close combat
    minus general morale (CD-MM-02, CD-GM)."""
    from iwgt.games.coloured_dice.rules import rules

    c = rules().constants
    ways = 0
    for roll, n in TWO_D6:
        if roll == c.morale_always_passes or (roll != c.morale_always_fails and roll + modifier < target):
            ways += n
    return ways / TWO_D6_WAYS


def morale_break_probability(
    casualties: Mapping[int, float],
    *,
    models: int,
    target_of: Callable[[int], int],
    round_losses: bool,
    general_morale: int,
    earlier_losses: int = 0,
) -> tuple[float, float]:
    """(the chance the unit survives the attack and fails its morale test, the chance it is destroyed), from a
    casualties distribution. A unit that loses no model takes no test; one that loses them all is destroyed
    (no test); otherwise ``target_of(models left)`` is its target, and in close combat (``round_losses``)
    its losses this round (``earlier_losses`` plus these) add to the roll; general morale helps (CD-MM-02,
    CD-GM)."""
    fails = destroyed = 0.0
    for lost, chance in casualties.items():
        if lost <= 0:
            continue
        if lost >= models:
            destroyed += chance
            continue
        modifier = (earlier_losses + lost if round_losses else 0) - general_morale
        fails += chance * (1.0 - pass_probability(target_of(models - lost), modifier))
    return fails, destroyed


def clear_caches() -> None:
    """Forget every cached distribution (the benchmark measures a cold start with it)."""
    _by_count.clear()
    _powers.clear()
    _joint.cache_clear()
    _shape.cache_clear()
