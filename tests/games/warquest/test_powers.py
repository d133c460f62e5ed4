"""WarQuest power cards: every query of the CARDS contract and gaining a card (WQ-PW-02..09, WQ-QU-06,
designed WQ-MS-36; the Wraith King WQ-TR-04/07/08)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from iwgt.games.warquest import maps, powers
from iwgt.games.warquest.battle import SideMods
from iwgt.games.warquest.state import Decks, Leader, Troop

from .cards_kit import FakeMap, make_state, power_id, power_ids

DRUMS = power_id("war_drums")  # rank_dice front 1
BLADE = power_id("blade_of_heroes")  # rank_dice front 2
BOWS = power_id("elven_bowstrings")  # rank_dice rear 1
BASTION = power_id("the_stone_bastion")  # defend_dice 1
HORN = power_id("horn_of_rallying")  # rally 1
HOUNDS = power_id("hunting_hounds")  # pursuit 2


def test_power_sum_adds_the_effect_number_of_matching_cards() -> None:
    """WQ-PW-03: front 1 + 2 = 3, rear 1; without a match every rank_dice card: 4; others hold none."""
    s = make_state(seat0={"powers": (DRUMS, BLADE, BOWS)})
    assert powers.power_sum(s, 0, "rank_dice", rank="front") == 3
    assert powers.power_sum(s, 0, "rank_dice", rank="rear") == 1
    assert powers.power_sum(s, 0, "rank_dice") == 4
    assert powers.power_sum(s, 1, "rank_dice") == 0
    assert powers.has_power(s, 0, "rank_dice") and not powers.has_power(s, 0, "ford")


def test_unlocked_joins_the_seats_cards_and_the_events() -> None:
    """WQ-SU-17, WQ-RT-06: an `unlock` card opens its kinds to its holder; an `unlock` event to everyone."""
    troll_card = power_id("bargain_under_the_bridge")
    s = make_state(seat0={"powers": (troll_card,)}, decks=Decks(unlocked=frozenset({"fire_dragon"})))
    assert powers.unlocked(s, 0) == {"troll", "fire_dragon"}
    assert powers.unlocked(s, 1) == {"fire_dragon"}


def test_move_regions_and_ford() -> None:
    """WQ-MV-02: 3 regions, +1 per `move` card (two: 5); WQ-MV-14: a `ford` card lets armies cross on."""
    s = make_state(seat0={"powers": power_ids("move")}, seat1={"powers": (power_ids("ford")[0],)})
    assert powers.move_regions(s, 0) == 5 and powers.move_regions(s, 1) == 3
    assert powers.ford(s, 1) and not powers.ford(s, 0)


@pytest.fixture
def tunnel_map(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The stand-in map with three Tunnel locations on three regions and one tower elsewhere."""
    fake = FakeMap(
        location_region={
            "deep_tunnels": "dwarf_1",
            "goblin_tunnels": "goblin_2",
            "dwarf_gate": "vandar_3",
            "black_tower": "orc_1",
        }
    )
    monkeypatch.setattr(maps, "load_map", lambda key: fake)
    powers._tunnel_links.cache_clear()
    yield
    powers._tunnel_links.cache_clear()


@pytest.mark.usefixtures("tunnel_map")
def test_tunnel_links_join_every_pair_of_tunnel_regions() -> None:
    """Designed (WQ-MS-36 `tunnels`): any two Tunnel regions are adjacent for the holder: 3 regions, 3 pairs
    (sorted); the tower is no tunnel; without the card, none."""
    s = make_state(seat0={"powers": power_ids("tunnels")})
    assert powers.tunnel_links(s, 0) == (
        ("dwarf_1", "goblin_2"),
        ("dwarf_1", "vandar_3"),
        ("goblin_2", "vandar_3"),
    )
    assert powers.tunnel_links(s, 1) == ()


def test_quest_tax_income_and_vp_bonuses() -> None:
    """WQ-QU-03 quest_bonus 1 + 1 + 2 = 4; WQ-TX-02 tax 1 + 1 = 2; income 2 + 3 = 5; vp 1 + 2 + 3 = 6."""
    held = power_ids("quest_bonus") + power_ids("tax")
    s = make_state(seat0={"powers": held}, seat1={"powers": power_ids("income") + power_ids("vp")})
    assert powers.quest_bonus(s, 0) == 4 and powers.tax_bonus(s, 0) == 2
    assert powers.income(s, 1) == 5 and powers.vp(s, 1) == 6
    assert powers.quest_bonus(s, 1) == powers.tax_bonus(s, 1) == powers.income(s, 0) == powers.vp(s, 0) == 0


def test_troop_cost_with_a_discount_for_its_people() -> None:
    """WQ-RT-05: the data's costs; a goblin `discount` card takes 1 gold off goblins only, never below 1
    (Goblin Infantry 2 -> 1, Goblin Wolf Riders 2 -> 1; Wood Elf Infantry stays 2)."""
    s = make_state(seat0={"powers": (power_id("goblin_gold"),)})
    assert powers.troop_cost(s, 0, "goblin_foot") == 1
    assert powers.troop_cost(s, 0, "goblin_wolf_rider") == 1
    assert powers.troop_cost(s, 0, "elf_foot") == 2
    assert powers.troop_cost(s, 1, "goblin_foot") == 2
    with pytest.raises(ValueError):
        powers.troop_cost(s, 0, "wraith_king")


def test_lieutenant_cost() -> None:
    """WQ-LT-02: 8 gold; the `lieutenant_cost` card takes 4 off: 4."""
    s = make_state(seat0={"powers": power_ids("lieutenant_cost")})
    assert powers.lieutenant_cost(s, 0) == 4 and powers.lieutenant_cost(s, 1) == 8


def test_side_mods() -> None:
    """BATTLE's SideMods from the cards: defence dice only when defending; a pending battle_dice card."""
    s = make_state(seat0={"powers": (DRUMS, BLADE, BOWS, BASTION, HORN, HOUNDS), "battle_dice": 3})
    assert powers.side_mods(s, 0, defending=True) == SideMods(3, 1, 1, 1, 2, 3)
    assert powers.side_mods(s, 0, defending=False) == SideMods(3, 1, 0, 1, 2, 3)
    assert powers.side_mods(s, 1, defending=True) == SideMods()


def _board() -> tuple[tuple[Leader, ...], tuple[Troop, ...]]:
    """Seat 0: the Warlord (id 1) in goblin_1, a Lieutenant (id 2) in orc_1; three bugbears on the board."""
    leaders = (Leader(1, 0, "warlord", "goblin_1"), Leader(2, 0, "lieutenant", "orc_1"))
    troops = tuple(Troop(10 + i, "bugbear", 1, "bugbear_1") for i in range(3))
    return leaders, troops


def test_gaining_a_plain_card_and_the_rule_of_five() -> None:
    """WQ-PW-02/07: a card joins the holder's powers; the sixth non-event card asks for a discard."""
    leaders, troops = _board()
    four = (DRUMS, BLADE, BOWS, BASTION)
    s = make_state(leaders=leaders, troops=troops, seat0={"powers": four})
    s2, events, discard = powers.gain_power(s, 0, HORN, "orc_1")
    assert s2.players[0].powers == (*four, HORN) and not discard
    assert [e.kind for e in events] == ["PowerGained"]
    s3, _, discard = powers.gain_power(s2, 0, HOUNDS, "orc_1")
    assert len(s3.players[0].powers) == 6 and discard


def test_event_cards_act_on_gain_and_never_count() -> None:
    """WQ-PW-09, WQ-MS-36: gold 8; 3 bugbears with the Warlord (the pool of 5 has 2 left: 2 placed, ids 13,
    14); an extra action; 3 battle dice. None joins the powers; five held cards still need no discard."""
    leaders, troops = _board()
    five = (DRUMS, BLADE, BOWS, BASTION, HORN)
    s = make_state(leaders=leaders, troops=troops, seat0={"powers": five, "gold": 2})
    s1, ev, discard = powers.gain_power(s, 0, power_id("buried_treasure"), "orc_1")
    assert s1.players[0].gold == 10 and s1.players[0].powers == five and not discard
    assert [e.kind for e in ev] == ["PowerGained", "GoldFound"]
    s2, ev, discard = powers.gain_power(s, 0, power_id("bugbear_mercenaries"), "orc_1")
    new = [t for t in s2.troops if t.seat == 0]
    assert [(t.id, t.kind, t.region) for t in new] == [
        (13, "bugbear", "goblin_1"),
        (14, "bugbear", "goblin_1"),
    ]
    assert s2.next_id == 15 and not discard
    assert isinstance(ev[1], powers.FreeTroops) and ev[1].ids == (13, 14)
    s3, _, _ = powers.gain_power(s, 0, power_id("forced_march"), "orc_1")
    assert s3.players[0].extra_action and s3.players[0].powers == five
    s4, _, _ = powers.gain_power(s, 0, power_id("battle_fury"), "orc_1")
    assert s4.players[0].battle_dice == 3
    assert powers.side_mods(s4, 0, defending=False).first_round_dice == 3


def test_the_black_crown_brings_the_wraith_king_to_the_leader() -> None:
    """Designed (WQ-TR-04/07/08): the Wraith King stands with the leader who gained the card (the Lieutenant
    in orc_1 here, not the Warlord); the seat controls him."""
    leaders, troops = _board()
    crown = power_id("the_black_crown")
    s = make_state(leaders=leaders, troops=troops)
    s2, events, discard = powers.gain_power(s, 0, crown, "orc_1")
    king = [t for t in s2.troops if t.kind == "wraith_king"]
    assert [(t.id, t.seat, t.region) for t in king] == [(13, 0, "orc_1")]
    assert s2.wraith_seat == 0 and s2.players[0].powers == (crown,) and not discard
    assert [e.kind for e in events] == ["PowerGained", "WraithKingArrived"]
    # the King already on the board (the pool holds one): the card comes without him
    s3 = replace(s, troops=(*s.troops, Troop(50, "wraith_king", 1, "undead_x")))
    s4, events, _ = powers.gain_power(s3, 0, crown, "orc_1")
    assert s4.on_board("wraith_king") == 1 and [e.kind for e in events] == ["PowerGained"]


def test_pool_left() -> None:
    """WQ-RT-06: bugbears' pool of 5 with 3 on the board leaves 2."""
    leaders, troops = _board()
    assert powers.pool_left(make_state(leaders=leaders, troops=troops), "bugbear") == 2


def test_tunnel_links_on_the_shipped_maps() -> None:
    """Designed (`tunnels`): on each shipped map the links join exactly the regions of the three Tunnel
    locations (deep_tunnels, goblin_tunnels, dwarf_gate), every pair once."""
    powers._tunnel_links.cache_clear()
    for key in ("myrathia", "marches"):
        m = maps.load_map(key)
        regions = sorted({m.location_region[k] for k in ("deep_tunnels", "goblin_tunnels", "dwarf_gate")})
        links = powers._tunnel_links(key)
        n = len(regions)
        assert len(links) == n * (n - 1) // 2
        assert all(a < b and a in regions and b in regions for a, b in links)
