"""WarQuest's end (score.py): the result's reason says which tie-break decided when the most VP are tied
(WQ-MS-39 designed: most VP, then most sacred quests, then most gold, then a shared victory)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.score import final_result
from iwgt.games.warquest.state import WqState
from iwgt.games.warquest.words import WqWords

from .corekit import board, dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def _scored(vp: tuple[int, ...], holy: tuple[int, ...], gold: tuple[int, ...]) -> WqState:
    """Three warlords with these VP, sacred quests done (distinct sacred cards) and gold."""
    sacred = [i for i, q in rules().quests.items() if q.sacred]
    s = board(dealt(GAME, scenario(3), first=1), [])
    done = iter(sacred)
    players = tuple(
        replace(
            p, vp=vp[p.seat], gold=gold[p.seat], done_quests=tuple(next(done) for _ in range(holy[p.seat]))
        )
        for p in s.players
    )
    return replace(s, players=players)


def test_a_clear_lead_is_the_most_victory_points_wq_ms_39() -> None:
    r = final_result(_scored((12, 20, 15), (0, 0, 3), (0, 0, 9)))
    assert r.winners == (1,)
    assert r.reason == "the most victory points (20 VP) when the last round is over"


def test_tied_vp_decided_by_sacred_quests_says_so_wq_ms_39() -> None:
    """Blue and Green on 20 VP; Green has done 2 sacred quests, Blue 1 (and more gold: gold comes after)."""
    r = final_result(_scored((3, 20, 20), (0, 1, 2), (0, 9, 1)))
    assert r.winners == (2,)
    assert r.reason == "20 VP each; the Green Warlord has more sacred quests (2 to 1)"


def test_tied_vp_and_sacred_quests_decided_by_gold_says_so_wq_ms_39() -> None:
    r = final_result(_scored((20, 20, 5), (1, 1, 0), (4, 7, 30)))
    assert r.winners == (1,)
    assert r.reason == "20 VP and 1 sacred quest each; the Blue Warlord has more gold (7 to 4)"


def test_three_tied_on_vp_compare_the_winner_with_the_next_best_wq_ms_39() -> None:
    r = final_result(_scored((9, 9, 9), (0, 3, 1), (0, 0, 0)))
    assert r.winners == (1,)
    assert r.reason == "9 VP each; the Blue Warlord has more sacred quests (3 to 1)"


def test_still_tied_they_share_the_victory_wq_ms_39() -> None:
    r = final_result(_scored((20, 20, 5), (2, 2, 0), (4, 4, 30)))
    assert r.winners == (0, 1)
    assert r.reason == (
        "the Red Warlord and the Blue Warlord share the victory: 20 VP, 2 sacred quests and 4 gold each"
    )


def test_game_over_reads_the_tie_break() -> None:
    """The log's Game Over sentence carries the reason."""
    from iwgt.games.warquest.turn import game_over

    s = _scored((3, 20, 20), (0, 1, 2), (0, 9, 1))
    s, events = game_over(s)
    said = WqWords().event(events[-1], GAME.observe(s, None), None)
    assert said is not None and "the Green Warlord has more sacred quests (2 to 1)" in said


def test_game_over_of_a_shared_victory_names_the_winners_once() -> None:
    from iwgt.games.warquest.turn import game_over

    s, events = game_over(_scored((20, 20, 5), (2, 2, 0), (4, 4, 30)))
    said = WqWords().event(events[-1], GAME.observe(s, None), None)
    assert said == (
        "The game is over: the Red Warlord and the Blue Warlord share the victory: 20 VP, 2 sacred quests and"
        " 4 gold each. Victory points: the Red Warlord 20, the Blue Warlord 20, the Green Warlord 5."
    )
