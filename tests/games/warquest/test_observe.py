"""What a seat sees (wq-spec 3; WQ-SU-06/08/09, WQ-MS-44): the board and the public cards, its own hand
only, never a deck's hidden order, never a key named ``pending``; and ``resample_hidden`` redraws only what
the seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import happenings
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

from .corekit import board, dealt, play_random, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def _state() -> WqState:
    s = board(
        dealt(GAME, scenario(3), first=1),
        [(0, "warlord", "r00"), (1, "warlord", "r05")],
        [(0, "orc_foot", "r00"), (1, "goblin_foot", "r05")],
    )
    return replace(s, owners=(("r00", 0),))


def test_the_observation_s_shape() -> None:
    """The spec's keys; every region with an owner or a piece; the pool counts what is off the board."""
    obs = GAME.observe(_state(), 0)
    assert obs["game"] == "warquest" and obs["phase"] == "turn" and obs["actions_left"] == 3
    assert [r["id"] for r in obs["regions"]] == ["r00", "r05"]
    assert obs["regions"][0]["owner"] == 0 and obs["regions"][0]["troops"] == [
        {"id": 100, "kind": "orc_foot", "seat": 0}
    ]
    assert obs["pool"]["orc_foot"] == 9 and obs["pool"]["goblin_foot"] == 14
    assert [p["name"] for p in obs["players"]] == ["the Red Warlord", "the Blue Warlord", "the Green Warlord"]
    assert obs["players"][0]["tokens_left"] == 23 and obs["players"][0]["quests_held"] == 2
    assert len(obs["market"]) == 5 and obs["battle"] is None and obs["question"] is None
    assert "pending" not in set(_keys(obs))


def test_a_hand_is_shown_to_its_holder_only() -> None:
    """WQ-SU-08/09 (secret hands): seat 0 sees its quest and conquest cards; seat 1 and spectators none."""
    s = _state()
    mine = GAME.observe(s, 0)["hand"]
    assert [q["id"] for q in mine["quests"]] == list(s.players[0].quests)
    assert [c["id"] for c in mine["conquests"]] == list(s.players[0].conquests)
    assert GAME.observe(s, None)["hand"] == {"quests": [], "conquests": []}
    other = replace(s, players=tuple(replace(p, quests=(0, 1)) if p.seat == 0 else p for p in s.players))
    assert GAME.observe(other, 1) == GAME.observe(s, 1)
    assert GAME.observe(other, None) == GAME.observe(s, None)


def test_deck_orders_are_never_shown() -> None:
    """WQ-SU-06: the draw piles' order is hidden: reordering them changes nobody's observation."""
    s = _state()
    d = s.decks
    shuffled = replace(
        s,
        decks=replace(
            d,
            quest=d.quest[::-1],
            power=d.power[::-1],
            conquest=d.conquest[::-1],
            events=d.events[::-1],
            events_removed=d.events_removed[::-1],
        ),
    )
    for seat in (0, 1, 2, None):
        assert GAME.observe(shuffled, seat) == GAME.observe(s, seat)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_resample_hidden_keeps_what_the_seat_sees(seat: int | None) -> None:
    """The redrawn state looks the same to the seat; the card counts stay; its own hand is kept."""
    s = _state()
    rng = random.Random(3)
    t = GAME.resample_hidden(s, seat, rng.randrange)
    assert GAME.observe(t, seat) == GAME.observe(s, seat)
    every = sorted([*s.decks.quest, *(q for p in s.players for q in p.quests)])
    assert sorted([*t.decks.quest, *(q for p in t.players for q in p.quests)]) == every
    if seat is not None:
        assert t.players[seat] == s.players[seat]
    changed = [t.players[x].quests != s.players[x].quests for x in range(3) if x != seat]
    assert any(changed) or t.decks.quest != s.decks.quest


def test_observations_of_a_whole_game_stay_clean() -> None:
    """Through a random game: no ``pending`` key anywhere, and each hand only in its holder's view."""
    s = GAME.initial_state(scenario(3, 3))
    end, _ = play_random(GAME, s, seed=5)
    assert GAME.is_terminal(end)
    for seat in (0, 1, 2, None):
        obs = GAME.observe(end, seat)
        assert "pending" not in set(_keys(obs))
        assert obs["result"] is not None and obs["phase"] == "over"


def test_a_declared_quest_leaves_the_hand_and_is_public() -> None:
    """WQ-QU-01: the card attempted is shown to all: it is not a hidden card while its dice roll."""
    s = board(dealt(GAME, scenario(3), first=1), [(0, "warlord", "r01")])
    s = replace(s, players=tuple(replace(p, quests=(1,)) if p.seat == 0 else p for p in s.players))
    s, _ = GAME.apply(s, act.Quest(1))
    assert s.players[0].quests == ()
    obs = GAME.observe(s, 1)
    assert obs["rolling"] == {"purpose": "quest die", "dice": 2, "faces": [], "seat": 0}
    t = GAME.resample_hidden(s, 1, random.Random(1).randrange)
    assert t.pending == s.pending


def test_wq_qu_03_the_quest_roll_in_rolling_and_last_roll() -> None:
    """WQ-QU-03: the quest's two dice show while rolling (2 in all, the faces so far), then as the last
    roll with their total (3 + 4 = 7)."""
    s = board(dealt(GAME, scenario(3), first=1), [(0, "warlord", "r01")])
    s = replace(s, players=tuple(replace(p, quests=(1,)) if p.seat == 0 else p for p in s.players))
    s, _ = GAME.apply(s, act.Quest(1))
    s, _ = GAME.apply(s, ChanceOutcome(3))
    assert GAME.observe(s, 2)["rolling"] == {"purpose": "quest die", "dice": 2, "faces": [3], "seat": 0}
    s, _ = GAME.apply(s, ChanceOutcome(4))
    obs = GAME.observe(s, 2)
    assert obs["rolling"] is None
    assert obs["last_roll"] == {"purpose": "quest die", "faces": [3, 4], "seat": 0, "total": 7}


def test_wq_ms_35_a_monster_roll_shows_its_total_dice_and_combat_faces() -> None:
    """WQ-MS-35 (designed) `monster {vandar, 4}`, WQ-CB-01: only seat 1 has troops in Vandar (r00, r01):
    the observation shows 4 dice throughout, the faces as "hit"/"flee"/"blank", the seat struck; after
    hit, flee, blank, blank the last roll has 1 hit, 1 flee, and the cheapest goblin (id 100) is gone."""
    s = board(
        dealt(GAME, scenario(3), first=1),
        [(1, "warlord", "r05")],
        [(1, "goblin_foot", "r00"), (1, "goblin_foot", "r01")],
    )
    card = next(i for i, c in rules().events.items() if c.key == "wyvern_over_vandar")
    s, _ = happenings.execute(s, card)
    assert GAME.observe(s, 0)["rolling"] == {
        "purpose": "monster in vandar",
        "dice": 4,
        "faces": [],
        "seat": 1,
    }
    for face in (1, 2):
        s, _ = happenings.monster_face(s, face)
    assert GAME.observe(s, 0)["rolling"] == {
        "purpose": "monster in vandar",
        "dice": 4,
        "faces": ["hit", "flee"],
        "seat": 1,
    }
    for face in (3, 5):
        s, _ = happenings.monster_face(s, face)
    obs = GAME.observe(s, 0)
    assert obs["rolling"] is None
    assert obs["last_roll"] == {
        "purpose": "monster in vandar",
        "faces": ["hit", "flee", "blank", "blank"],
        "seat": 1,
        "hits": 1,
        "flees": 1,
    }
    assert [t.id for t in s.troops] == [101]


def test_the_one_shot_battle_dice_are_public() -> None:
    """The event power's battle dice (read by the table's odds, powers.side_mods) show in players[]."""
    s = _state()
    s = replace(s, players=tuple(replace(p, battle_dice=2) if p.seat == 1 else p for p in s.players))
    assert [p["battle_dice"] for p in GAME.observe(s, 0)["players"]] == [0, 2, 0]
