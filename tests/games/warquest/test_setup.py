"""Setting up (WQ-SU-01..18): the secret shuffles and deals as chance nodes, the starting player's die,
placement in the text's order (counter-clockwise from the right of the starting player, who places last
and moves first), and what a placement may hold."""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules

from .corekit import dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def test_the_shuffles_are_secret_chance_nodes_then_the_starting_die() -> None:
    """WQ-SU-05..09, WQ-SU-12: four secret shuffles (power, event, quest, conquest; four secret dice of 256
    faces each, their faces the seed), then a d(N)."""
    s = GAME.initial_state(scenario(3))
    purposes = []
    for face in range(5, 21):
        die = GAME.chance_outcomes(s)
        assert die is not None and die.secret and die.sides == 256 and GAME.to_move(s) == CHANCE
        purposes.append(die.purpose)
        s, _ = GAME.apply(s, ChanceOutcome(face))
    assert purposes == [f"{d} shuffle" for d in ("power", "event", "quest", "conquest") for _ in range(4)]
    die = GAME.chance_outcomes(s)
    assert die is not None and die.sides == 3 and not die.secret


def test_the_deals() -> None:
    """WQ-SU-05..10: 5 face up, 25 active events and 5 removed, 2 quests and 2 conquests each, 30 gold."""
    s = dealt(GAME, scenario(4))
    r = rules()
    assert len(s.decks.market) == 5 and None not in s.decks.market
    assert len(s.decks.power) == len(r.powers) - 5
    assert len(s.decks.events) == 25 and len(s.decks.events_removed) == len(r.events) - 25
    assert all(len(p.quests) == 2 and len(p.conquests) == 2 and p.gold == 30 for p in s.players)
    assert len(s.decks.quest) == len(r.quests) - 8 and len(s.decks.conquest) == len(r.conquests) - 8
    every_quest = sorted([*s.decks.quest, *(q for p in s.players for q in p.quests)])
    assert every_quest == sorted(r.quests)


def _placing_order(players: int, first_face: int) -> tuple[list[int], int]:
    s = dealt(GAME, scenario(players), first=first_face)
    order = []
    regions = ["r00", "r02", "r04", "r10", "r14"]
    while s.phase == "place":
        seat = GAME.to_move(s)
        assert seat is not None
        order.append(seat)
        s, _ = GAME.apply(s, act.Place(regions[len(order) - 1], ()))
    assert s.phase == "turn"
    return order, s.seat


def test_placement_order_three_players() -> None:
    """WQ-SU-12/13/18: face 2 -> seat 1 starts; placing goes right of it counter-clockwise: 0, 2, then 1;
    the starting player moves first."""
    order, mover = _placing_order(3, 2)
    assert order == [0, 2, 1]
    assert mover == 1


def test_placement_order_five_players() -> None:
    """WQ-SU-13: face 1 -> seat 0 starts; placing 4, 3, 2, 1, 0; seat 0 moves first (WQ-SU-18)."""
    order, mover = _placing_order(5, 1)
    assert order == [4, 3, 2, 1, 0]
    assert mover == 0


def test_placing_both_leaders_and_a_starting_army() -> None:
    """WQ-SU-14/15: the Warlord and a Lieutenant on one region; the army paid from the 30 gold."""
    s = dealt(GAME, scenario(3), first=2)
    s, events = GAME.apply(s, act.Place("r00", act.counts({"goblin_foot": 3, "orc_foot": 2})))
    assert [(ld.seat, ld.rank, ld.region) for ld in s.leaders] == [
        (0, "warlord", "r00"),
        (0, "lieutenant", "r00"),
    ]
    assert sorted(t.kind for t in s.troops) == ["goblin_foot"] * 3 + ["orc_foot"] * 2
    assert s.players[0].gold == 30 - 3 * 2 - 2 * 3
    assert {e.kind for e in events} >= {"LeadersPlaced", "TroopsBought"}


def test_any_basic_troop_anywhere_but_no_advanced() -> None:
    """WQ-SU-16 decision: any Basic troop whatever the region's people; WQ-SU-17: no Advanced troop."""
    s = dealt(GAME, scenario(3), first=2)
    ok, _ = GAME.apply(s, act.Place("r30", act.counts({"elf_archer": 1})))  # an elf in the dwarves' land
    assert ok.troops[0].kind == "elf_archer"
    with pytest.raises(IllegalAction, match=r"^WQ-SU-17: .*Goblin Wolf Riders"):
        GAME.apply(s, act.Place("r24", act.counts({"goblin_wolf_rider": 1})))


def test_placement_refusals() -> None:
    """WQ-SU-14 decision: not where another player's pieces stand; WQ-SU-15: not beyond the gold;
    WQ-RT-06: not beyond the pool."""
    s = dealt(GAME, scenario(3), first=2)
    s, _ = GAME.apply(s, act.Place("r00", ()))
    with pytest.raises(IllegalAction, match=r"^WQ-SU-14: "):
        GAME.apply(s, act.Place("r00", ()))
    with pytest.raises(IllegalAction, match=r"^WQ-SU-15: the starting army costs 32 gold"):
        GAME.apply(s, act.Place("r01", act.counts({"dwarf_foot": 8})))
    with pytest.raises(IllegalAction, match=r"^WQ-RT-06: "):
        GAME.apply(s, act.Place("r01", act.counts({"bugbear": 6})))
    with pytest.raises(IllegalAction, match=r"^WQ-SU-14: the warlords are placing"):
        GAME.apply(s, act.Tax("r00"))


def test_offered_placements_are_valid_and_skip_occupied_regions() -> None:
    """Every offered placement applies; none is where another warlord stands (WQ-SU-14)."""
    s = dealt(GAME, scenario(3), first=2)
    s, _ = GAME.apply(s, act.Place("r00", ()))
    offered = GAME.legal_actions(s, 2)
    assert offered and all(isinstance(a, act.Place) for a in offered)
    assert not any(a.region == "r00" for a in offered if isinstance(a, act.Place))
    for a in offered[::7]:
        GAME.apply(s, a)
