"""Turns and rounds (WQ-TU-01..06): three actions then the next seat clockwise, ending early, troops
without a leader going home, the event after every round, the end after the last round, the Emperor."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.score import final_result
from iwgt.games.warquest.state import WqState

from .corekit import board, dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()
CALM = next(i for i, e in rules().events.items() if e.effect == "calm")


def _three_seats(rounds: int = 25) -> WqState:
    """Seat 1 starts (face 2); each seat has a Warlord alone: seat 0 at r00, seat 1 at r03, seat 2 at r30;
    every event turned is a calm one (nothing happens), so only the turn order shows."""
    s = dealt(GAME, scenario(3, rounds), first=2)
    s = board(s, [(0, "warlord", "r00"), (1, "warlord", "r03"), (2, "warlord", "r30")], seat=1)
    return replace(s, decks=replace(s.decks, events=(CALM,) * len(s.decks.events)))


def _kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_three_actions_then_the_next_seat_clockwise() -> None:
    """WQ-TU-01/05: seat 1 acts three times, then seat 2 (to its left) has three actions."""
    s = _three_seats()
    s, _ = GAME.apply(s, act.Conquer("r03"))
    s, _ = GAME.apply(s, act.Move(1, (), ("r04",)))
    assert (s.seat, s.marks.actions_left) == (1, 1)
    s, events = GAME.apply(s, act.Conquer("r04"))
    assert (s.seat, s.marks.actions_left, s.round) == (2, 3, 1)
    assert _kinds(events)[-2:] == ["TurnEnded", "TurnBegan"]


def test_ending_a_turn_early() -> None:
    """WQ-TU-01 "may": end_turn passes to the next seat at once, with no action used."""
    s = _three_seats()
    s, _ = GAME.apply(s, act.EndTurn())
    assert (s.seat, s.marks.actions_left) == (2, 3)


def test_the_event_after_every_round_then_the_starting_player_again() -> None:
    """WQ-TU-06: after seats 1, 2 and 0, the top event card is turned; round 2 begins with seat 1."""
    s = _three_seats()
    events_before = len(s.decks.events)
    s, _ = GAME.apply(s, act.EndTurn())
    s, _ = GAME.apply(s, act.EndTurn())
    assert s.seat == 0
    s, events = GAME.apply(s, act.EndTurn())
    assert "EventTurned" in _kinds(events)
    assert (s.round, s.seat, len(s.decks.events), s.decks.events_done) == (2, 1, events_before - 1, (CALM,))


def test_the_game_ends_after_the_last_round() -> None:
    """WQ-MS-39: a 1-round scenario ends after the first round's event, by victory points."""
    s = _three_seats(rounds=1)
    s = replace(s, players=tuple(replace(p, vp=(3, 7, 5)[p.seat]) for p in s.players))
    for _ in range(3):
        s, events = GAME.apply(s, act.EndTurn())
    assert GAME.is_terminal(s) and GAME.to_move(s) is None
    assert _kinds(events)[-2:] == ["EventTurned", "GameOver"]
    result = GAME.result(s)
    assert result is not None and result.winners == (1,)


def test_troops_without_a_leader_go_home_at_their_owner_s_turn_end() -> None:
    """WQ-MV-09 decision: at the end of seat 1's turn its troops without a leader leave the board (back to
    the pool); seat 2's leaderless troops stay until seat 2's own turn ends."""
    s = _three_seats()
    s = replace(
        s,
        troops=(
            *s.troops,
            *board(s, [], [(1, "orc_foot", "r03"), (1, "orc_foot", "r05"), (2, "goblin_foot", "r05")]).troops,
        ),
    )
    s, events = GAME.apply(s, act.EndTurn())
    assert sorted((t.seat, t.region) for t in s.troops) == [(1, "r03"), (2, "r05")]
    home = [e for e in events if e.kind == "TroopsWentHome"]
    assert [(e.seat, e.region, e.troops) for e in home] == [(1, "r05", (101,))]  # type: ignore[attr-defined]
    s, _ = GAME.apply(s, act.EndTurn())
    assert sorted((t.seat, t.region) for t in s.troops) == [(1, "r03")]


def test_an_extra_action_card_gives_four() -> None:
    """Designed event power `extra_action`: the holder's next turn has 4 actions."""
    s = _three_seats()
    s = replace(s, players=tuple(replace(p, extra_action=p.seat == 2) for p in s.players))
    s, _ = GAME.apply(s, act.EndTurn())
    assert (s.seat, s.marks.actions_left, s.players[2].extra_action) == (2, 4, False)


def test_the_emperor_wins_at_once() -> None:
    """WQ-OB-03 decision: the fourth sacred quest completed ends the game at once, whatever the VP."""
    r = rules()
    sacred = [i for i, q in r.quests.items() if q.sacred and q.location != "tower_of_winds"][:3]
    card = 0  # sacred, 8 VP, at tower_of_winds (r01)
    s = board(dealt(GAME, scenario(3), first=1), [(0, "warlord", "r01")])
    players = tuple(
        replace(p, done_quests=tuple(sacred), quests=(card,)) if p.seat == 0 else replace(p, vp=99)
        for p in s.players
    )
    s = replace(s, players=players)
    s, _ = GAME.apply(s, act.Quest(card))
    assert GAME.to_move(s) == CHANCE
    s, _ = GAME.apply(s, ChanceOutcome(4))
    s, events = GAME.apply(s, ChanceOutcome(5))
    assert GAME.is_terminal(s) and "GameOver" in _kinds(events)
    result = GAME.result(s)
    assert result is not None and result.winners == (0,) and "Emperor" in result.reason


def test_ties_break_by_sacred_quests_then_gold_then_share() -> None:
    """WQ-MS-39 designed: equal VP -> most sacred quests, then most gold; still equal: shared victory."""
    r = rules()
    sacred = next(i for i, q in r.quests.items() if q.sacred)
    s = board(dealt(GAME, scenario(3), first=1), [])
    vp = replace(s, players=tuple(replace(p, vp=10, gold=(5, 9, 9)[p.seat]) for p in s.players))
    assert final_result(vp).winners == (1, 2)
    gold = replace(vp, players=tuple(replace(p, gold=(5, 9, 8)[p.seat]) for p in vp.players))
    assert final_result(gold).winners == (1,)
    holy = replace(
        gold, players=tuple(replace(p, done_quests=(sacred,) if p.seat == 0 else ()) for p in gold.players)
    )
    assert final_result(holy).winners == (0,)


def test_a_battle_on_the_last_action_then_the_turn_ends() -> None:
    """WQ-MV-10 with WQ-TU-05: the move on the third action fights; the battle's questions and dice go to
    the battle; when it is over (and only then) the turn passes to the next seat."""
    import random

    s = _three_seats()
    s = replace(
        s,
        troops=board(
            s, [], [(1, "orc_foot", "r03"), (1, "orc_foot", "r03"), (2, "goblin_foot", "r04")]
        ).troops,
        leaders=tuple(replace(ld, region="r04") if ld.seat == 2 else ld for ld in s.leaders),
        marks=replace(s.marks, actions_left=1),
    )
    s, _ = GAME.apply(s, act.Move(1, (100, 101), ("r04",)))
    assert s.battle is not None and s.seat == 1
    rng = random.Random(2)
    kinds: list[str] = []
    while s.battle is not None:
        who = GAME.to_move(s)
        if who == CHANCE:
            s, events = GAME.apply(s, ChanceOutcome(rng.randrange(6) + 1))
        else:
            assert who is not None
            s, events = GAME.apply(s, GAME.legal_actions(s, who)[0])
        kinds += _kinds(events)
    assert "BattleWon" in kinds and kinds[-2:] == ["TurnEnded", "TurnBegan"]
    assert (s.seat, s.marks.actions_left) == (2, 3)
    assert all(len(seats) == 1 for seats in s.occupied().values())  # no region holds two players' pieces
