"""WarQuest event cards: turning the round's card and every effect kind on hand-built states (WQ-TU-06,
designed WQ-MS-35; unlocks WQ-SU-17)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.games.warquest import happenings, powers
from iwgt.games.warquest.events import EventTurned
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Decks, Leader, Troop, WqState

from .cards_kit import fake_map, make_state

MAP = fake_map()


@pytest.fixture(autouse=True)
def stand_in_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """The effects read the scenario's map: the stand-in map here."""
    monkeypatch.setattr(happenings, "load_map", lambda key: MAP)


def _event(key: str) -> int:
    """An event card id by its key."""
    return next(i for i, c in rules().events.items() if c.key == key)


def _gold(s: WqState) -> list[int]:
    """Every seat's gold."""
    return [p.gold for p in s.players]


def test_turn_event_takes_the_top_card_and_executes_it() -> None:
    """WQ-TU-06: the top card is turned up (to the done pile) and executed: a harvest of 5 for everyone."""
    harvest, calm = _event("bountiful_harvest"), _event("a_quiet_season")
    s = make_state(decks=Decks(events=(harvest, calm), events_done=(7,)), seat0={"gold": 1})
    s2, events = happenings.turn_event(s)
    assert s2.decks.events == (calm,) and s2.decks.events_done == (7, harvest)
    assert _gold(s2) == [6, 5, 5]
    assert events[0] == EventTurned(harvest, 1)
    assert [e.kind for e in events[1:]] == ["GoldChanged"] * 3


def test_a_spent_event_deck_turns_nothing() -> None:
    """WQ-MS-39: no card left, nothing happens (the game's end is the turn module's)."""
    s = make_state()
    assert happenings.turn_event(s) == (s, [])


def test_calm_changes_nothing() -> None:
    """`calm {}`: nothing happens."""
    s = make_state(seat0={"gold": 3})
    assert happenings.execute(s, _event("a_quiet_season")) == (s, [])


def test_tribute_pays_per_owned_city() -> None:
    """`tribute {gold_per_city: 2}`: seat 0 owns 2 cities (vandar_1, vandar_2; vandar_3 has none): +4;
    seat 1 owns a goblin land: nothing (no event); seat 2 one capital: +2. Turn order from seat 1."""
    s = make_state(
        owners={"vandar_1": 0, "vandar_2": 0, "vandar_3": 0, "goblin_1": 1, "aldmark_1": 2},
        first=1,
    )
    s2, events = happenings.execute(s, _event("the_emperors_due"))
    assert _gold(s2) == [4, 0, 2]
    assert events == [happenings.GoldChanged(2, 2, "tribute"), happenings.GoldChanged(0, 4, "tribute")]


def test_bandits_take_up_to_their_gold() -> None:
    """`bandits {gold: 5}`: 7 -> 2, 3 -> 0 (loses 3), 0 stays (no event)."""
    s = make_state(seat0={"gold": 7}, seat1={"gold": 3})
    s2, events = happenings.execute(s, _event("the_thieves_guild"))
    assert _gold(s2) == [2, 0, 0]
    assert events == [happenings.GoldChanged(0, -5, "bandits"), happenings.GoldChanged(1, -3, "bandits")]


def _corwen_troops() -> tuple[Troop, ...]:
    """Seat 0: an orc (3 gold, id 10) and two goblins (2 gold, ids 12 and 11) in Corwen, a goblin (id 9) in
    Vandar; seat 1: a dwarf in corwen_3; seat 2: elves in Vandar."""
    return (
        Troop(9, "goblin_foot", 0, "vandar_1"),
        Troop(10, "orc_foot", 0, "corwen_1"),
        Troop(12, "goblin_foot", 0, "corwen_1"),
        Troop(11, "goblin_foot", 0, "corwen_2"),
        Troop(13, "dwarf_foot", 1, "corwen_3"),
        Troop(14, "elf_foot", 2, "vandar_2"),
    )


def test_plague_kills_each_players_cheapest_troop_in_the_kingdom() -> None:
    """`plague {corwen}`: seat 0 loses a goblin, the lowest id of the two (11, not 9 outside Corwen); seat 1
    its dwarf; seat 2 (no troop in Corwen) nothing."""
    s = make_state(troops=_corwen_troops())
    s2, events = happenings.execute(s, _event("plague_in_corwen"))
    assert sorted(t.id for t in s2.troops) == [9, 10, 12, 14]
    assert events == [
        happenings.TroopLost(0, 11, "goblin_foot", "corwen_2", "plague"),
        happenings.TroopLost(1, 13, "dwarf_foot", "corwen_3", "plague"),
    ]


def test_monster_dice_are_chance_nodes_one_entry_per_warlord_struck() -> None:
    """`monster {vandar, 4}`: seats 2 and 0 have troops in Vandar; from the starting player (seat 1) the
    order is 2 then 0: seat 2's entry is on top. Seat 2 rolls hit, flee, hit, blank: 2 hits take its two
    cheapest troops there (elves 3 gold, ids 20 and 21, before the archer at 4); seat 0 rolls no hit."""
    troops = (
        Troop(9, "goblin_foot", 0, "vandar_1"),
        Troop(22, "elf_archer", 2, "vandar_2"),
        Troop(21, "elf_foot", 2, "vandar_2"),
        Troop(20, "elf_foot", 2, "vandar_3"),
        Troop(30, "orc_foot", 1, "corwen_1"),
    )
    s = make_state(troops=troops, first=1)
    card = _event("wyvern_over_vandar")
    s, events = happenings.execute(s, card)
    assert events == []
    assert [(p.kind, p.seat, p.count, p.key, p.card) for p in s.pending] == [
        ("monster", 0, 4, "vandar", card),
        ("monster", 2, 4, "vandar", card),
    ]
    die = s.pending[-1].die
    assert die is not None and die.sides == 6 and die.label(1) == "hit" and die.label(2) == "flee"
    for face in (1, 2, 1):
        s, events = happenings.monster_face(s, face)
        assert events == []
    # ``count`` stays the roll's total (4), as for every Pending entry (review 2)
    assert s.pending[-1].faces == (1, 2, 1) and s.pending[-1].count == 4
    s, events = happenings.monster_face(s, 5)
    assert events == [
        happenings.MonsterRolled(2, "vandar", (1, 2, 1, 5), 2),
        happenings.TroopLost(2, 20, "elf_foot", "vandar_3", "monster"),
        happenings.TroopLost(2, 21, "elf_foot", "vandar_2", "monster"),
    ]
    assert [p.seat for p in s.pending] == [0]
    for face in (3, 4, 6, 2):
        s, events = happenings.monster_face(s, face)
    assert events == [happenings.MonsterRolled(0, "vandar", (3, 4, 6, 2), 0)]
    assert s.pending == () and sorted(t.id for t in s.troops) == [9, 22, 30]
    with pytest.raises(ValueError):
        happenings.monster_face(s, 1)


def test_monster_killing_the_wraith_king_last() -> None:
    """The Wraith King (unbuyable) is the dearest: a monster takes him last; his death frees his seat."""
    troops = (Troop(5, "wraith_king", 0, "vandar_1"), Troop(6, "skeleton_warrior", 0, "vandar_1"))
    s = replace(make_state(troops=troops), wraith_seat=0)
    s, _ = happenings.execute(s, _event("wyvern_over_vandar"))
    for face in (1, 3, 3, 3):
        s, _ = happenings.monster_face(s, face)
    assert [t.kind for t in s.troops] == ["wraith_king"] and s.wraith_seat == 0
    s, _ = happenings.execute(s, _event("wyvern_over_vandar"))
    for face in (1, 1, 3, 3):
        s, events = happenings.monster_face(s, face)
    assert s.troops == () and s.wraith_seat is None
    assert [e.kind for e in events] == ["MonsterRolled", "TroopLost"]


def test_uprising_removes_tokens_without_their_owners_leader() -> None:
    """`uprising {sylmar}`: sylmar_1 keeps seat 0's token (its Warlord there); sylmar_2 loses seat 1's (only
    seat 0's leader stands there); sylmar_3 loses seat 2's (nobody there); vandar_1 is outside Sylmar."""
    leaders = (Leader(1, 0, "warlord", "sylmar_1"), Leader(2, 0, "lieutenant", "sylmar_2"))
    s = make_state(leaders=leaders, owners={"sylmar_1": 0, "sylmar_2": 1, "sylmar_3": 2, "vandar_1": 2})
    s2, events = happenings.execute(s, _event("uprising_in_sylmar"))
    assert s2.owner_map() == {"sylmar_1": 0, "vandar_1": 2}
    assert events == [happenings.TokenRemoved(1, "sylmar_2"), happenings.TokenRemoved(2, "sylmar_3")]


def test_unlock_opens_advanced_troops_to_everyone() -> None:
    """`unlock {troll}` (WQ-SU-17 "the play of an Event Card"): every seat may recruit Trolls from now on;
    a second unlock of the same kind tells nothing new."""
    s = make_state()
    s2, events = happenings.execute(s, _event("the_trolls_awaken"))
    assert s2.decks.unlocked == {"troll"}
    assert all("troll" in powers.unlocked(s2, seat) for seat in range(3))
    assert events == [happenings.TroopsUnlocked(("troll",))]
    assert happenings.execute(s2, _event("the_trolls_awaken"))[1] == []


def test_muster_gives_free_infantry_within_the_pool() -> None:
    """`muster {goblin, 3}`: Goblin Infantry's pool is 15 and 11 are on the board: 4 left. In turn order from
    seat 1: seat 1 (a Lieutenant in goblin_2) gets 3; seat 0 (Warlord in goblin_1, Lieutenant in goblin_2)
    gets the last 1, with its Warlord; seat 2 (in Vandar) nothing."""
    leaders = (
        Leader(1, 0, "lieutenant", "goblin_2"),
        Leader(2, 0, "warlord", "goblin_1"),
        Leader(3, 1, "lieutenant", "goblin_2"),
        Leader(4, 2, "warlord", "vandar_1"),
    )
    troops = tuple(Troop(10 + i, "goblin_foot", 2, "vandar_1") for i in range(11))
    s = make_state(leaders=leaders, troops=troops, first=1)
    s2, events = happenings.execute(s, _event("the_goblin_warbands"))
    assert events == [
        happenings.Mustered(1, "goblin_2", "goblin_foot", (21, 22, 23)),
        happenings.Mustered(0, "goblin_1", "goblin_foot", (24,)),
    ]
    assert s2.on_board("goblin_foot") == 15 and s2.next_id == 25
    assert [(t.seat, t.region) for t in s2.troops[11:]] == [(1, "goblin_2")] * 3 + [(0, "goblin_1")]


def test_market_event_replaces_the_five_cards() -> None:
    """`market {}`: the five face-up cards go under the power deck (public), five new ones are dealt."""
    s = make_state(decks=Decks(power=(20, 21, 22, 23, 24, 25), market=(1, 2, 3, 4, 5)))
    s2, events = happenings.execute(s, _event("caravans_from_the_east"))
    assert s2.decks.market == (20, 21, 22, 23, 24)
    assert s2.decks.power == (25,) and s2.decks.power_bottom == (1, 2, 3, 4, 5)
    assert events == [happenings.MarketReplaced((1, 2, 3, 4, 5), (20, 21, 22, 23, 24))]


def test_first_infantry() -> None:
    """Muster's kind: a people's first basic, non-missile kind in the troop table; trolls have none."""
    assert happenings.first_infantry("dwarf") == "dwarf_foot"
    assert happenings.first_infantry("satyr") == "satyr_foot"
    assert happenings.first_infantry("troll") is None


def test_every_shipped_event_executes_on_the_shipped_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    """WQ-MS-35: each of the 30 cards has an effect of the closed list and executes on both shipped maps."""
    from iwgt.games.warquest.maps import load_map

    assert len(rules().events) == 30
    for key in ("myrathia", "marches"):
        monkeypatch.setattr(happenings, "load_map", lambda _k, key=key: load_map(key))
        for card, c in rules().events.items():
            assert c.effect in happenings.EFFECTS
            s, _ = happenings.execute(make_state(), card)
            assert s.pending == (), card  # nobody has troops: no monster dice
