"""Moving armies on the test grid (WQ-MV-01..14): up to three steps, mountains, rivers and bridges,
stopping on another player's pieces (and fighting), no dropping off, each piece moved once a turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import movement
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

from .corekit import board, dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def _base() -> WqState:
    return dealt(GAME, scenario(3), first=1)


def _power(state: WqState, seat: int, effect: str) -> WqState:
    card = next(i for i, p in rules().powers.items() if p.effect == effect)
    p = state.players[seat]
    return replace(
        state, players=tuple(replace(p, powers=(card,)) if q.seat == seat else q for q in state.players)
    )


def test_up_to_three_regions_away() -> None:
    """WQ-MV-02: r00 -> r03 is three steps; r04 is four, refused."""
    s = board(_base(), [(0, "warlord", "r00")])
    dest = movement.destinations(s, s.leaders[0])
    assert dest["r03"] == ("r01", "r02", "r03")
    assert "r04" not in dest
    assert set(dest) == {"r01", "r02", "r03", "r10", "r11", "r12", "r20", "r21", "r30"}
    with pytest.raises(IllegalAction, match=r"^WQ-MV-02: too long"):
        GAME.apply(s, act.Move(0, (), ("r01", "r02", "r03", "r04")))


def test_mountains_block() -> None:
    """WQ-MV-12: r11 | r21 is a mountain: no step across; r21 is reached round it in three steps."""
    s = board(_base(), [(0, "warlord", "r11")])
    with pytest.raises(IllegalAction, match=r"^WQ-MV-12: a mountain range"):
        GAME.apply(s, act.Move(0, (), ("r21",)))
    assert movement.destinations(s, s.leaders[0])["r21"] == ("r10", "r20", "r21")


def test_an_unbridged_river_ends_the_move_a_bridge_does_not() -> None:
    """WQ-MV-14: r12 -> r22 crosses a river: the move stops there; WQ-MV-13: r13 -> r23 is bridged."""
    s = board(_base(), [(0, "warlord", "r12"), (0, "lieutenant", "r13")])
    after, _ = GAME.apply(s, act.Move(0, (), ("r22",)))
    assert after.leaders[0].region == "r22"
    with pytest.raises(IllegalAction, match=r"^WQ-MV-14: crossing the river"):
        GAME.apply(s, act.Move(0, (), ("r22", "r32")))
    after, _ = GAME.apply(s, act.Move(1, (), ("r23", "r33")))
    assert after.leaders[1].region == "r33"


def test_a_ford_power_crosses_rivers_freely() -> None:
    """Designed power `ford`: an unbridged river no longer ends the move."""
    s = _power(board(_base(), [(0, "warlord", "r12")]), 0, "ford")
    after, _ = GAME.apply(s, act.Move(0, (), ("r22", "r32")))
    assert after.leaders[0].region == "r32"


def test_another_players_region_ends_the_move_and_fights() -> None:
    """WQ-MV-10: a region with another player's pieces may only be the last; entering it starts a battle."""
    s = board(
        _base(),
        [(0, "warlord", "r00"), (1, "warlord", "r01")],
        [(0, "orc_foot", "r00"), (1, "goblin_foot", "r01")],
    )
    with pytest.raises(IllegalAction, match=r"^WQ-MV-10: the move stops in r01"):
        GAME.apply(s, act.Move(0, (100,), ("r01", "r02")))
    dest = movement.destinations(s, s.leaders[0])
    assert dest["r01"] == ("r01",) and "r02" not in dest  # the way round by r10, r11, r12 is four steps
    after, events = GAME.apply(s, act.Move(0, (100,), ("r01",)))
    assert after.battle is not None and after.battle.region == "r01"
    assert "BattleBegan" in {e.kind for e in events}


def test_no_dropping_off_and_some_troops_may_stay() -> None:
    """WQ-MV-07/08: the named troops go all the way with the leader; the others stay where they were."""
    s = board(
        _base(),
        [(0, "warlord", "r00")],
        [(0, "orc_foot", "r00"), (0, "orc_foot", "r00"), (0, "goblin_foot", "r00")],
    )
    after, _ = GAME.apply(s, act.Move(0, (100, 102), ("r01", "r02")))
    assert {t.id: t.region for t in after.troops} == {100: "r02", 101: "r00", 102: "r02"}
    assert after.marks.moved == frozenset({0, 100, 102})


def test_each_piece_moves_once_a_turn() -> None:
    """WQ-MV-06 / WQ-TU-03: a leader or a troop that moved may not move again this turn."""
    s = board(
        _base(),
        [(0, "warlord", "r00"), (0, "lieutenant", "r00")],
        [(0, "orc_foot", "r00"), (0, "orc_foot", "r00")],
    )
    s, _ = GAME.apply(s, act.Move(0, (100,), ("r01",)))
    with pytest.raises(IllegalAction, match=r"^WQ-MV-06: this leader has already moved"):
        GAME.apply(s, act.Move(0, (), ("r02",)))
    # the lieutenant may come after, but not with the troop that already went
    s2, _ = GAME.apply(s, act.Move(1, (101,), ("r01",)))
    assert s2.leaders[1].region == "r01"
    with pytest.raises(IllegalAction, match=r"^WQ-MV-01: troop 100 is not in the leader's region"):
        GAME.apply(s, act.Move(1, (100,), ("r10",)))


def test_an_army_is_one_regions_and_ones_own() -> None:
    """WQ-MV-01/05: only the player's own leader, with troops of its own region."""
    s = board(_base(), [(0, "warlord", "r00"), (1, "warlord", "r05")], [(0, "orc_foot", "r01")])
    with pytest.raises(IllegalAction, match=r"^WQ-MV-01: leader 1 is not one of this warlord's"):
        GAME.apply(s, act.Move(1, (), ("r04",)))
    with pytest.raises(IllegalAction, match=r"^WQ-MV-01: troop 100 is not in the leader's region"):
        GAME.apply(s, act.Move(0, (100,), ("r10",)))


def test_offered_moves_are_legal_and_cover_all_and_none() -> None:
    """Per unmoved leader and destination: all its region's unmoved troops, and the leader alone."""
    s = board(_base(), [(0, "warlord", "r00")], [(0, "orc_foot", "r00")])
    moves = movement.legal_moves(s, 0)
    assert len(moves) == 2 * 9
    assert {m.troops for m in moves} == {(100,), ()}
    for m in moves:
        GAME.apply(s, m)
