"""Sealed bids as small simultaneous games (FA-FB-02..05, FA-GT-01..05).

A sealed bid is a two-player matrix game: each player picks an amount without seeing the other's, and the
pair decides who goes first and with how many CP. The bot builds the payoff matrix from a cheap evaluation
of the outcome, solves it for an equilibrium mixed strategy, and draws its bid from that mixture with a
generator seeded by what it may see, so the same observation always gets the same bid and the opponent's
sealed bid is never read.

The terrain bid is zero-sum, solved by regret matching (``solve``: RM+, Tammelin 2014: regrets floored at
zero, the average strategy weighted by iteration). The turn bid is general-sum (``turn_bid_game``: each
side values the CP it gets for itself, less a share of the other's, so that a tie, which burns both sides'
CP, is bad for both), posed from seat 0's side and solved for its logit equilibrium (``solve_pair``). The
tie rule (FA-GT-04/05, decided: at most two rounds) makes a first-round tie cell worth the values of the
re-bid game with both limits lowered by the tied bid, solved the same way; a tie in the re-bid stands: the
side that went second last turn goes first, each with the tied bid as its CP.
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
TEMPERATURE = 0.2
"""The turn bid's logit temperature, in the evaluation's points: bids this much worse are played e^-1 as
often (a bid a CP's worth worse is still played now and then, so two equal bots spread their bids)."""
DAMPING = 0.1
"""The step of the logit iteration (small enough to settle, not to cycle)."""


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


@dataclass(frozen=True, slots=True)
class PairSolution:
    """An equilibrium of a two-player general-sum matrix game: both mixed strategies and each side's value."""

    rows: tuple[float, ...]
    cols: tuple[float, ...]
    row_value: float
    col_value: float


def solve_pair(
    rows_payoff: Sequence[Sequence[float]],
    cols_payoff: Sequence[Sequence[float]],
    iterations: int = ITERATIONS,
    temperature: float = TEMPERATURE,
) -> PairSolution:
    """The logit (quantal response) equilibrium of a general-sum game (``rows_payoff[i][j]`` to the rows,
    ``cols_payoff[i][j]`` to the columns): each side plays every action in proportion to
    exp(payoff / ``temperature``) against the other's mixture, found by a damped simultaneous iteration
    from the uniform mixtures.

    Why not regret matching, as in ``solve``: a sealed bid between two equal sides is a game of chicken
    (both want the most CP, a tie burns them), whose pure equilibria are lopsided (one bids 10, the other 9)
    and which both bots, each solving from its own side, would claim at once: the tie they mean to avoid.
    Starting from the uniform mixtures and moving both sides together, the iteration keeps a symmetric
    game's solution symmetric: both sides spread their bids the same way.
    """
    a = np.asarray(rows_payoff, dtype=float)
    b = np.asarray(cols_payoff, dtype=float)
    n_rows, n_cols = a.shape
    x = np.full(n_rows, 1.0 / n_rows)
    y = np.full(n_cols, 1.0 / n_cols)
    for _ in range(iterations):
        x_new = _softmax(a @ y, temperature)
        y_new = _softmax(x @ b, temperature)
        x = (1.0 - DAMPING) * x + DAMPING * x_new
        y = (1.0 - DAMPING) * y + DAMPING * y_new
    return PairSolution(
        tuple(float(v) for v in x), tuple(float(v) for v in y), float(x @ a @ y), float(x @ b @ y)
    )


def _softmax(u: np.ndarray, temperature: float) -> np.ndarray:
    """The logit response to payoffs ``u``."""
    z = (u - float(np.max(u))) / max(temperature, 1e-9)
    e = np.exp(z)
    out: np.ndarray = e / float(e.sum())
    return out


Outcome = Callable[[int, int, int], tuple[float, float]]
"""A settled turn bid's values to (seat 0, seat 1): ``outcome(cp_0, cp_1, first)`` (``first``: the seat that
goes first)."""


def turn_bid_game(
    limits: tuple[int, int], outcome: Outcome, tie_first: int, rounds: int = 2
) -> tuple[list[list[float]], PairSolution]:
    """The payoff matrix to seat 0 of a turn bid (rows: seat 0's bids 0..limit, columns seat 1's) and the
    game's solution (``rows`` is seat 0's mixture, ``cols`` seat 1's).

    Each side values the outcome for itself (a general-sum game: a tie that burns both sides' CP is bad for
    both, where a zero-sum model would make the other side a spoiler that seeks it). The game is always
    posed with seat 0 as the rows: both bots pose the same game from the same public facts and solve it the
    same way, so where it has lopsided solutions (one side bids the most, the other one less) they agree on
    which. A decided cell is ``outcome(b0, b1, lower bidder)``. A tie at b with rounds left is the re-bid
    game with both limits lowered by b (FA-GT-04/05); a tie in the last round stands (decided): each side
    has b CP and ``tie_first`` (the seat that went second last turn) goes first.
    """

    @cache
    def game(
        limit0: int, limit1: int, left: int, iterations: int
    ) -> tuple[tuple[tuple[float, ...], ...], PairSolution]:
        zero: list[tuple[float, ...]] = []
        one: list[tuple[float, ...]] = []
        for a in range(limit0 + 1):
            row: list[float] = []
            other: list[float] = []
            for b in range(limit1 + 1):
                if a != b:
                    cell = outcome(a, b, 0 if a < b else 1)
                elif left <= 1:
                    cell = outcome(a, a, tie_first)
                else:
                    rebid = game(limit0 - a, limit1 - a, left - 1, REBID_ITERATIONS)[1]
                    cell = (rebid.row_value, rebid.col_value)
                row.append(cell[0])
                other.append(cell[1])
            zero.append(tuple(row))
            one.append(tuple(other))
        return tuple(zero), solve_pair(zero, one, iterations)

    matrix, solution = game(max(limits[0], 0), max(limits[1], 0), max(rounds, 1), ITERATIONS)
    return [list(r) for r in matrix], solution


# ---------------------------------------------------------------- the terrain bid (FA-FB-02..05)


def terrain_bid_game(most: int, value: Callable[[int, int], float]) -> tuple[list[list[float]], Solution]:
    """The payoff matrix of the terrain bid (both bid 0..most; ``value(ours, theirs)``) and its solution."""
    matrix = [[value(a, b) for b in range(most + 1)] for a in range(most + 1)]
    return matrix, solve(matrix)
