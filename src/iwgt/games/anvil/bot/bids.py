"""Sealed bids as small simultaneous games, solved by regret matching (FA-FB-02..05, FA-GT-01..05).

A sealed bid is a two-player zero-sum matrix game: each player picks an amount without seeing the other's,
and the pair decides who goes first and with how many CP. The bot builds the payoff matrix of its own bids
(rows) against the opponent's (columns) from a cheap evaluation of the outcome, solves it for an
equilibrium mixed strategy with regret matching (RM+, Tammelin 2014: regrets floored at zero, the average
strategy weighted by iteration), and draws its bid from that mixture with a generator seeded by what it may
see, so the same observation always gets the same bid and the opponent's sealed bid is never read.

The turn bid's tie rule ("If a tie occurs, bid again. Already bid CP are lost", FA-GT-04) makes a tie cell
worth the value of the rebid game with both limits lowered by the tied bid; that game is solved the same way
(its own ties lead to still smaller games), so the matrix is exact for the evaluation it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

ITERATIONS = 800
"""Regret-matching iterations: an exploitability under 0.1% of the payoff range on 13 x 13 games."""
REBID_ITERATIONS = 300
"""Iterations for a rebid game after a tie: only its value is used (a cell of the bigger game)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """An equilibrium of a zero-sum matrix game: both mixed strategies and the game's value to the rows."""

    rows: tuple[float, ...]
    cols: tuple[float, ...]
    value: float

    def exploitability(self, payoff: Sequence[Sequence[float]]) -> float:
        """How much either side could gain by deviating (0 at an exact equilibrium)."""
        m = np.asarray(payoff, dtype=float)
        x, y = np.asarray(self.rows), np.asarray(self.cols)
        best_row = float(np.max(m @ y))  # the rows' best answer to the columns' mixture
        best_col = float(np.min(x @ m))  # the columns' best answer to the rows' mixture
        return best_row - best_col


def solve(payoff: Sequence[Sequence[float]], iterations: int = ITERATIONS) -> Solution:
    """The equilibrium of a zero-sum game (payoff[i][j] to the rows when rows play i and columns j).

    Regret matching+ with alternating updates and linearly weighted averages: deterministic, dependency-free,
    and on these small games it converges to within a tiny exploitability.
    """
    m = np.asarray(payoff, dtype=float)
    n_rows, n_cols = m.shape
    if n_rows == 1 or n_cols == 1:
        # One side has no choice: the other simply answers best (ties to the first, lowest, action).
        if n_rows == 1:
            j = int(np.argmin(m[0]))
            return Solution((1.0,), _pure(n_cols, j), float(m[0, j]))
        i = int(np.argmax(m[:, 0]))
        return Solution(_pure(n_rows, i), (1.0,), float(m[i, 0]))
    reg_r = np.zeros(n_rows)
    reg_c = np.zeros(n_cols)
    avg_r = np.zeros(n_rows)
    avg_c = np.zeros(n_cols)
    for t in range(1, iterations + 1):
        x = _strategy(reg_r)
        y = _strategy(reg_c)
        u_r = m @ y  # each row's payoff against the columns' current mixture
        reg_r = np.maximum(reg_r + u_r - x @ u_r, 0.0)
        x = _strategy(reg_r)
        u_c = -(x @ m)  # the columns minimise the rows' payoff
        reg_c = np.maximum(reg_c + u_c - u_c @ y, 0.0)
        avg_r += t * x
        avg_c += t * y
    rows = avg_r / avg_r.sum()
    cols = avg_c / avg_c.sum()
    return Solution(tuple(float(v) for v in rows), tuple(float(v) for v in cols), float(rows @ m @ cols))


def _strategy(regret: np.ndarray) -> np.ndarray:
    """Regret matching: play each action in proportion to its positive regret (uniform when none)."""
    total = float(regret.sum())
    if total <= 0.0:
        return np.full(regret.shape, 1.0 / regret.size)
    out: np.ndarray = regret / total
    return out


def _pure(n: int, i: int) -> tuple[float, ...]:
    return tuple(1.0 if k == i else 0.0 for k in range(n))


def draw(strategy: Sequence[float], u: float) -> int:
    """The action a mixed strategy plays for a uniform number ``u`` in [0, 1) (inverse of the CDF)."""
    acc = 0.0
    for i, p in enumerate(strategy):
        acc += p
        if u < acc:
            return i
    return max(i for i, p in enumerate(strategy) if p > 0.0)


def tidy(strategy: Sequence[float], floor: float = 0.01) -> tuple[float, ...]:
    """The strategy without the dust regret matching leaves on dominated actions (below ``floor``)."""
    kept = [p if p >= floor else 0.0 for p in strategy]
    total = sum(kept)
    return tuple(p / total for p in kept) if total > 0 else tuple(strategy)


# ---------------------------------------------------------------- the turn bid (FA-GT-01..05)

Outcome = Callable[[int, int], float]
"""The value to us of a decided turn bid: ``outcome(ours, theirs)`` with ours != theirs (lower goes first)."""


def turn_bid_game(
    my_limit: int, their_limit: int, outcome: Outcome, skipped: float = 0.0
) -> tuple[list[list[float]], Solution]:
    """The payoff matrix of a turn bid (rows: our bids 0..my_limit) and its solution.

    A decided cell is ``outcome(ours, theirs)``; a tie at b > 0 is the rebid game with limits lowered by b
    (FA-GT-04); a tie at 0 is a turn without activations, worth ``skipped``.
    """

    @cache
    def game(mine: int, theirs: int, iterations: int) -> tuple[tuple[tuple[float, ...], ...], Solution]:
        rows = []
        for a in range(mine + 1):
            row = []
            for b in range(theirs + 1):
                if a != b:
                    row.append(outcome(a, b))
                elif a == 0:
                    row.append(skipped)
                else:
                    row.append(game(mine - a, theirs - a, REBID_ITERATIONS)[1].value)
            rows.append(tuple(row))
        matrix = tuple(rows)
        return matrix, solve(matrix, iterations)

    matrix, solution = game(max(my_limit, 0), max(their_limit, 0), ITERATIONS)
    return [list(r) for r in matrix], solution


# ---------------------------------------------------------------- the terrain bid (FA-FB-02..05)


def terrain_bid_game(most: int, value: Callable[[int, int], float]) -> tuple[list[list[float]], Solution]:
    """The payoff matrix of the terrain bid (both bid 0..most; ``value(ours, theirs)``) and its solution."""
    matrix = [[value(a, b) for b in range(most + 1)] for a in range(most + 1)]
    return matrix, solve(matrix)
