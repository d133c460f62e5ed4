"""WarQuest in words (games/warquest/words.py): every event class of the game has its own sentence (none is
left to the plain fallback), every action either speaks or is told by its events, a secret hand is worded
only for its holder (issue 15 section 4, WQ-SU-08/09), and a few sentences checked by hand."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import iwgt.games.warquest as package
from iwgt.core.protocol import Event
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle_events as be
from iwgt.games.warquest import events as ev
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.words import SAYERS, SILENT_ACTIONS, Names, WqWords

WORDS = WqWords()

OBS = {
    "game": "warquest",
    "map": "myrathia",
    "players": [
        {"seat": 0, "name": "the Red Warlord"},
        {"seat": 1, "name": "the Blue Warlord"},
        {"seat": 2, "name": "the Green Warlord"},
    ],
    "regions": [
        {
            "id": "vandar_crown",
            "owner": 0,
            "leaders": [{"id": 0, "seat": 0, "rank": "warlord"}, {"id": 1, "seat": 0, "rank": "lieutenant"}],
            "troops": [{"id": 7, "kind": "troll", "seat": 0}],
        }
    ],
}
"""An observation by hand: the names the sentences use."""


def event_classes() -> list[type[Event]]:
    """Every concrete event class any module of the game defines."""
    found: dict[str, type[Event]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Event) and obj is not Event and obj.__module__ == module.__name__:
                found[obj.__qualname__] = obj
    return sorted(found.values(), key=lambda c: c.__qualname__)


def test_every_event_class_of_the_game_has_its_own_sentence() -> None:
    classes = event_classes()
    assert {"ArmyMoved", "AttackRolled", "QuestRolled", "GameOver"} <= {c.__name__ for c in classes}
    missing = sorted(c.__name__ for c in classes if c.__name__ not in SAYERS)
    assert not missing, f"events without a sentence in words.SAYERS: {missing}"


@pytest.mark.parametrize("kind", sorted(act.TYPES))
def test_every_action_speaks_or_is_told_by_its_events(kind: str) -> None:
    base = {"type": kind, "region": "vandar_crown", "rank": "front", "front": [7], "rear": [], "troop": 7}
    said = WORDS.action(base, 0, OBS, None)
    if kind in SILENT_ACTIONS:
        assert said is None
    else:
        # Its own sentence, never the plain fallback "<warlord>: <type>."
        assert said and said.startswith("The Red Warlord ") and not said.endswith(f": {kind}."), said


def test_a_dealt_hand_is_worded_for_its_holder_only_wq_su_08() -> None:
    first, second = 0, 1
    dealt = ev.HandDealt(1, "quest", (first, second))
    counted = ev.CardsDealt(1, "quest", 2)
    q = rules().quests
    holder = WORDS.event(dealt, OBS, 1)
    assert holder is not None and q[first].name in holder and q[second].name in holder
    assert WORDS.event(dealt, OBS, 0) is None and WORDS.event(dealt, OBS, None) is None
    # The others read how many, the holder does not read it twice.
    assert WORDS.event(counted, OBS, 0) == "The Blue Warlord is dealt 2 quest cards."
    assert WORDS.event(counted, OBS, None) == "The Blue Warlord is dealt 2 quest cards."
    assert WORDS.event(counted, OBS, 1) is None
    drawn = ev.QuestCardDrawn(1, first)
    assert WORDS.event(drawn, OBS, 2) is None and WORDS.event(drawn, OBS, 1) is not None


def test_a_quest_roll_in_words_wq_qu_03() -> None:
    """Two dice 4 and 4 against a card of 8 VP: 8 >= 8, the monster is defeated; doubles (WQ-QU-05)."""
    rolled = ev.QuestRolled(0, 0, (4, 4), 0, 8, True)
    assert WORDS.event(rolled, OBS, None) == (
        "The Red Warlord rolls 4 and 4 = 8 against 8: the monster is defeated. Doubles!"
    )
    failed = ev.QuestRolled(2, 0, (2, 5), 1, 9, False)
    assert (
        WORDS.event(failed, OBS, None) == "The Green Warlord rolls 2 and 5 +1 = 8 against 9: the quest fails."
    )


def test_a_rank_s_attack_in_words_wq_cb_09() -> None:
    rolled = be.AttackRolled(1, "defender", "rear", "front", 4, (1, 2, 3, 1), 2, 1)
    assert WORDS.event(rolled, OBS, None) == (
        "The Blue Warlord's rear rank rolls 4 dice at the enemy front rank: 2 hits and 1 flee."
    )
    nothing = be.AttackRolled(0, "attacker", "front", "front", 1, (5,), 0, 0)
    assert WORDS.event(nothing, OBS, None) == (
        "The Red Warlord's front rank rolls 1 die at the enemy front rank: no hit, no flee."
    )


def test_moves_and_leaders_are_named_from_the_observation_and_the_map() -> None:
    names = Names(OBS)
    assert names.leader(0) == "the Red Warlord" and names.leader(1) == "the Red Warlord's Lieutenant"
    region = names.region("vandar_crown")
    assert region and region != "vandar crown"  # the map's own name, not the id in words
    moved = ev.ArmyMoved(0, 1, (7,), "vandar_crown", ("vandar_crown",))
    said = WORDS.event(moved, OBS, None)
    assert said == f"The Red Warlord's Lieutenant moves with 1 troop from {region} to {region}."
    assert (
        WORDS.action({"type": "spell", "troop": 7}, 0, OBS, None)
        == "The Red Warlord casts a spell at the Trolls."
    )


def test_a_battle_s_end_and_a_turn_s_end_in_words_wq_ms_41() -> None:
    won = be.BattleWon("vandar_crown", 0, 1, False, 2, 1)
    region = Names(OBS).region("vandar_crown")
    assert WORDS.event(won, OBS, None) == (
        f"The Red Warlord wins the battle of {region} after 2 rounds (the Blue Warlord is beaten): +1 VP."
    )
    at_once = be.BattleWon("vandar_crown", 1, 0, True, 0, 1)
    assert WORDS.event(at_once, OBS, None) == (
        f"The Blue Warlord wins the battle of {region} at once (the Red Warlord withdraws): +1 VP."
    )
    assert WORDS.event(ev.TurnEnded(2), OBS, None) == "The Green Warlord's turn ends."


def test_ranks_set_up_in_words_wq_cb_02_03() -> None:
    arranged = be.LinesArranged(1, (1, 2, 3, 4, 5), (6,), ())
    assert WORDS.event(arranged, OBS, None) == (
        "The Blue Warlord sets up 5 in the front rank, 1 in the rear rank and none in reserve."
    )


def test_the_wraith_king_recalled_at_his_tomb_reads_as_his_return_wq_tr_04() -> None:
    """The recall is a Recruit of cost 0 (TroopsBought) then WraithKingArrived: only the arrival speaks, never
    "buys 1 Wraith King for 0 gold"."""
    from iwgt.games.warquest.powers import WraithKingArrived

    recalled = ev.TroopsBought(0, "vandar_crown", (("wraith_king", 1),), (30,), 0)
    arrived = WraithKingArrived(0, "vandar_crown", 30)
    assert WORDS.event(recalled, OBS, None) is None
    assert (
        WORDS.event(arrived, OBS, None) == "The Wraith King rises to serve the Red Warlord in Vandar Crown."
    )
    bought = ev.TroopsBought(1, "vandar_crown", (("goblin_foot", 2),), (31, 32), 2)
    assert (
        WORDS.event(bought, OBS, None)
        == "The Blue Warlord buys 2 Goblin Infantry in Vandar Crown for 2 gold."
    )
    free = ev.TroopsBought(1, "vandar_crown", (("goblin_foot", 1),), (33,), 0)
    assert (
        WORDS.event(free, OBS, None) == "The Blue Warlord buys 1 Goblin Infantry in Vandar Crown at no cost."
    )
