"""Undo and the units that move unseen: a step is final while an enemy unit is hidden.

docs/rules/valkyrx.md, "Undo and hidden units"; VX-12-02, VX-12-05, VX-12-08: the enemy may not learn where
the Grima or the worm is.
"""

from __future__ import annotations

from iwgt.core.referee import REVEALED, Referee, reveals
from iwgt.games.valkyrx.actions import Move
from iwgt.games.valkyrx.state import ValkyrxState

from .kit import GAME, cell, position, tweak


def grima_and_enemy(first: int) -> ValkyrxState:
    """L0 the Grima (0,4), L1 Môdrôf (0,8); D2 a Giant Spider (3,4), D3 Wearg Warriors (11,8)."""
    light = [("grima", (0, 4)), ("modrof", (0, 8))]
    dark = [("giant_spider", (3, 4)), ("wearg_warriors", (11, 8))]
    return position(light, dark, first)


def test_a_move_is_undoable_while_the_only_hidden_unit_is_the_mover_s_own() -> None:
    state = tweak(grima_and_enemy(0), 0, hidden=True)
    move = Move(1, cell(1, 8))
    after, _ = GAME.apply(state, move)
    assert GAME.undoable(state, move, after)
    assert not reveals(GAME, 2, state, move)


def test_no_move_is_undoable_while_an_enemy_moves_unseen() -> None:
    state = tweak(grima_and_enemy(1), 0, hidden=True)  # the Darkness moves; the Light's Grima is hidden
    move = Move(3, cell(10, 8))
    after, _ = GAME.apply(state, move)
    assert not GAME.undoable(state, move, after)
    assert reveals(GAME, 2, state, move)


def test_the_referee_refuses_that_undo_with_the_reason() -> None:
    state = tweak(grima_and_enemy(1), 0, hidden=True)
    ref = Referee(GAME, state.scenario)  # type: ignore[arg-type]
    ref.state = state
    ref.act(1, Move(3, cell(10, 8)))
    assert ref.undo_refusal(1) == REVEALED
    visible = tweak(grima_and_enemy(1), 0, hidden=False)  # the same, the Grima in sight: the move comes back
    ref = Referee(GAME, visible.scenario)  # type: ignore[arg-type]
    ref.state = visible
    ref.act(1, Move(3, cell(10, 8)))
    assert ref.undo_refusal(1) is None
    ref.undo(1)
    assert ref.state == visible
