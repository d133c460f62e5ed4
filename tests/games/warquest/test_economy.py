"""The actions of gold and ground on the test grid: Tax (WQ-TX), Conquer (WQ-CQ), Recruit (WQ-RT),
Recruit Lieutenant (WQ-LT) and Acquire a Power Card (WQ-PW, the Rule of Five)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.warquest import actions as act
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import TurnMarks, WqState

from .corekit import board, dealt, scenario, testland  # noqa: F401

pytestmark = pytest.mark.usefixtures("testland")
GAME = WqGame()


def _base() -> WqState:
    return dealt(GAME, scenario(3), first=1)


def _gold(state: WqState, seat: int, gold: int) -> WqState:
    return replace(
        state, players=tuple(replace(p, gold=gold) if p.seat == seat else p for p in state.players)
    )


def _powers(state: WqState, seat: int, cards: tuple[int, ...]) -> WqState:
    return replace(
        state, players=tuple(replace(p, powers=cards) if p.seat == seat else p for p in state.players)
    )


# ---------------------------------------------------------------- tax


def test_tax_an_owned_city_once_a_turn() -> None:
    """WQ-TX-01/02: r00's city gives 4 gold, no army needed there; WQ-TX-03: not twice in a turn."""
    s = replace(board(_base(), [(0, "warlord", "r05")]), owners=(("r00", 0),))
    s, events = GAME.apply(s, act.Tax("r00"))
    assert s.players[0].gold == 34
    assert [(e.kind, e.gold) for e in events if e.kind == "Taxed"] == [("Taxed", 4)]  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match=r"^WQ-TX-03: "):
        GAME.apply(s, act.Tax("r00"))
    assert act.Tax("r00") not in GAME.legal_actions(s, 0)


def test_tax_refusals() -> None:
    """WQ-TX-01: only an owned region, and only one with a city."""
    s = replace(board(_base(), [(0, "warlord", "r01")]), owners=(("r00", 1), ("r01", 0)))
    with pytest.raises(IllegalAction, match=r"^WQ-TX-01: .* is not owned by this warlord"):
        GAME.apply(s, act.Tax("r00"))
    with pytest.raises(IllegalAction, match=r"^WQ-TX-01: .* has no city"):
        GAME.apply(s, act.Tax("r01"))


def test_a_new_owner_may_tax_a_city_taxed_this_round() -> None:
    """WQ-TU-04 / WQ-TX-03 decision: the mark is per player's turn; seat 1 may tax after seat 0 did."""
    s = replace(board(_base(), [(0, "warlord", "r05"), (1, "warlord", "r04")], seat=0), owners=(("r00", 0),))
    s, _ = GAME.apply(s, act.Tax("r00"))
    s = replace(s, owners=(("r00", 1),), seat=1, marks=replace(TurnMarks(actions_left=3)))
    s, _ = GAME.apply(s, act.Tax("r00"))
    assert s.players[1].gold == 34


# ---------------------------------------------------------------- conquer


def test_conquer_replaces_the_previous_token() -> None:
    """WQ-CQ-01/02: a leader's region; the old owner's token goes back (it counts again for them)."""
    s = replace(board(_base(), [(0, "warlord", "r00")]), owners=(("r00", 1), ("r05", 1)))
    s, events = GAME.apply(s, act.Conquer("r00"))
    assert s.owners == (("r00", 0), ("r05", 1))
    conquered = [e for e in events if e.kind == "Conquered"]
    assert conquered and conquered[0].previous == 1  # type: ignore[attr-defined]


def test_conquer_refusals() -> None:
    """WQ-CQ-01: an army (a leader) of the player must stand there; not a region it owns already;
    WQ-CM-21 decision: 24 tokens a player."""
    s = replace(board(_base(), [(0, "warlord", "r00")], [(0, "orc_foot", "r01")]), owners=(("r00", 0),))
    with pytest.raises(IllegalAction, match=r"^WQ-CQ-01: no army"):
        GAME.apply(s, act.Conquer("r01"))
    with pytest.raises(IllegalAction, match=r"^WQ-CQ-01: this warlord already owns"):
        GAME.apply(s, act.Conquer("r00"))
    many = tuple(sorted((f"x{i:02d}", 0) for i in range(24)))
    with pytest.raises(IllegalAction, match=r"^WQ-CM-21: "):
        GAME.apply(replace(s, owners=many), act.Conquer("r00"))


# ---------------------------------------------------------------- recruit


def test_recruit_by_the_land_s_people() -> None:
    """WQ-RT-01/02/05: goblins in the goblin land r24, paid and placed with the leader; no dwarves there."""
    s = board(_base(), [(0, "warlord", "r24")])
    s2, _ = GAME.apply(s, act.Recruit("r24", act.counts({"goblin_foot": 2, "goblin_archer": 1})))
    assert sorted((t.kind, t.region) for t in s2.troops) == [
        ("goblin_archer", "r24"),
        ("goblin_foot", "r24"),
        ("goblin_foot", "r24"),
    ]
    assert s2.players[0].gold == 30 - 3 * 2
    with pytest.raises(IllegalAction, match=r"^WQ-RT-02: Dwarf Infantry are not recruited in"):
        GAME.apply(s, act.Recruit("r24", act.counts({"dwarf_foot": 1})))
    with pytest.raises(IllegalAction, match=r"^WQ-RT-02: "):
        GAME.apply(
            board(_base(), [(0, "warlord", "r00")]), act.Recruit("r00", act.counts({"goblin_foot": 1}))
        )


def test_recruit_needs_a_leader_and_no_other_owner() -> None:
    """WQ-RT-01: a leader there; WQ-RT-03/04: not in a region another player owns (conquer it first)."""
    s = board(_base(), [(0, "warlord", "r25")], [(0, "orc_foot", "r24")])
    with pytest.raises(IllegalAction, match=r"^WQ-RT-01: no leader"):
        GAME.apply(s, act.Recruit("r24", act.counts({"goblin_foot": 1})))
    s = replace(board(_base(), [(0, "warlord", "r24")]), owners=(("r24", 2),))
    with pytest.raises(IllegalAction, match=r"^WQ-RT-03: .*conquer it first"):
        GAME.apply(s, act.Recruit("r24", act.counts({"goblin_foot": 1})))
    own = replace(s, owners=(("r24", 0),))
    GAME.apply(own, act.Recruit("r24", act.counts({"goblin_foot": 1})))


def test_recruit_limited_by_pool_and_gold() -> None:
    """WQ-RT-06: the pool of 5 Bugbears (designed) is spent by those on the board; WQ-RT-05: gold."""
    s = board(_base(), [(0, "warlord", "r33")], [(1, "bugbear", "r00")] * 4)
    with pytest.raises(IllegalAction, match=r"^WQ-RT-06: the Recruitment Pool holds only 1 Bugbears"):
        GAME.apply(s, act.Recruit("r33", act.counts({"bugbear": 2})))
    GAME.apply(s, act.Recruit("r33", act.counts({"bugbear": 1})))
    with pytest.raises(IllegalAction, match=r"^WQ-RT-05: these troops cost 4 gold; the warlord has 3"):
        GAME.apply(_gold(s, 0, 3), act.Recruit("r33", act.counts({"bugbear": 1})))


def test_advanced_troops_need_a_power_or_an_event() -> None:
    """WQ-TR-06 / WQ-SU-17: Goblin Wolf Riders only with an unlock power card or after an unlock event."""
    s = board(_base(), [(0, "warlord", "r24")])
    with pytest.raises(IllegalAction, match=r"^WQ-TR-06: Goblin Wolf Riders are Advanced"):
        GAME.apply(s, act.Recruit("r24", act.counts({"goblin_wolf_rider": 1})))
    unlock = next(
        i
        for i, p in rules().powers.items()
        if p.effect == "unlock" and "goblin_wolf_rider" in p.params["troops"]
    )
    GAME.apply(_powers(s, 0, (unlock,)), act.Recruit("r24", act.counts({"goblin_wolf_rider": 1})))
    by_event = replace(s, decks=replace(s.decks, unlocked=frozenset({"goblin_wolf_rider"})))
    GAME.apply(by_event, act.Recruit("r24", act.counts({"goblin_wolf_rider": 1})))


def test_offered_recruits_are_one_and_the_most() -> None:
    """Per region and kind: one troop and the most gold and pool allow (30 gold: 15 goblin foot)."""
    s = board(_base(), [(0, "warlord", "r24")])
    offered = [a for a in GAME.legal_actions(s, 0) if isinstance(a, act.Recruit)]
    assert act.Recruit("r24", (("goblin_foot", 1),)) in offered
    assert act.Recruit("r24", (("goblin_foot", 15),)) in offered
    assert act.Recruit("r24", (("goblin_archer", 10),)) in offered
    assert {k for a in offered for k, _ in a.troops} == {"goblin_foot", "goblin_archer"}


# ---------------------------------------------------------------- lieutenant


def test_a_lieutenant_where_the_warlord_stands_in_a_city() -> None:
    """WQ-LT-01..03: 8 gold, placed with the Warlord in a city region (not necessarily owned)."""
    s = board(_base(), [(0, "warlord", "r00")])
    s2, _ = GAME.apply(s, act.Lieutenant())
    new = [ld for ld in s2.leaders if ld.rank == "lieutenant"]
    assert [(ld.seat, ld.region) for ld in new] == [(0, "r00")]
    assert s2.players[0].gold == 22
    with pytest.raises(IllegalAction, match=r"^WQ-LT-01: the Warlord stands in .* which has no city"):
        GAME.apply(board(_base(), [(0, "warlord", "r01"), (0, "lieutenant", "r00")]), act.Lieutenant())
    with pytest.raises(IllegalAction, match=r"^WQ-LT-02: a Lieutenant costs 8 gold; the warlord has 7"):
        GAME.apply(_gold(s, 0, 7), act.Lieutenant())


def test_at_most_two_lieutenants_on_the_board() -> None:
    """WQ-LT-04: the Warlord and at most 2 Lieutenants."""
    s = board(_base(), [(0, "warlord", "r00"), (0, "lieutenant", "r05"), (0, "lieutenant", "r24")])
    with pytest.raises(IllegalAction, match=r"^WQ-LT-04: "):
        GAME.apply(s, act.Lieutenant())
    assert act.Lieutenant() not in GAME.legal_actions(s, 0)


# ---------------------------------------------------------------- power cards


def test_buy_a_power_card_at_a_battlefield_once_a_turn() -> None:
    """WQ-PW-01/02/04/05: a leader on an Ancient Battlefield (r01); paid; the market refills at once."""
    s = board(_base(), [(0, "warlord", "r01")])
    s = replace(
        s,
        decks=replace(
            s.decks,
            market=tuple(c for c in s.decks.market if c is not None and not rules().powers[c].event)
            + (None,) * 5,
        ),
    )
    s = replace(s, decks=replace(s.decks, market=s.decks.market[:5]))
    card = next(c for c in s.decks.market if c is not None and rules().powers[c].cost <= 30)
    top = s.decks.power[0]
    s2, _ = GAME.apply(s, act.Power(card))
    assert s2.players[0].gold == 30 - rules().powers[card].cost
    assert card not in s2.decks.market and top in s2.decks.market
    assert s2.marks.bought_power
    other = next(c for c in s2.decks.market if c is not None)
    with pytest.raises(IllegalAction, match=r"^WQ-PW-05: "):
        GAME.apply(s2, act.Power(other))
    with pytest.raises(IllegalAction, match=r"^WQ-PW-01: "):
        GAME.apply(board(_base(), [(0, "warlord", "r02")]), act.Power(card))


def test_the_rule_of_five_on_a_purchase() -> None:
    """WQ-PW-06..08: with five non-event cards, a sixth needs a discard (the new one allowed); the card
    leaves play for good."""
    held = tuple(i for i, p in rules().powers.items() if not p.event and p.effect == "unlock")[:5]
    s = _gold(_powers(board(_base(), [(0, "warlord", "r01")]), 0, held), 0, 99)
    card = next(c for c in s.decks.market if c is not None and not rules().powers[c].event and c not in held)
    with pytest.raises(IllegalAction, match=r"^WQ-PW-07: a sixth power card"):
        GAME.apply(s, act.Power(card))
    s2, _ = GAME.apply(s, act.Power(card, held[0]))
    assert sorted(s2.players[0].powers) == sorted((*held[1:], card))
    s3, _ = GAME.apply(s, act.Power(card, card))
    assert sorted(s3.players[0].powers) == sorted(held)
    offered = [a for a in GAME.legal_actions(s, 0) if isinstance(a, act.Power) and a.card == card]
    assert sorted(a.discard for a in offered if a.discard is not None) == sorted((*held, card))


def test_skeletons_only_with_the_wraith_king() -> None:
    """WQ-TR-07/08 designed: the Wraith King's master recruits skeletons only in his region, where they join
    him; nobody else, and nowhere else."""
    s = board(_base(), [(0, "warlord", "r00"), (0, "lieutenant", "r05")], [(0, "wraith_king", "r00")])
    s = replace(s, wraith_seat=0)
    s2, _ = GAME.apply(s, act.Recruit("r00", act.counts({"skeleton_warrior": 2, "skeleton_rider": 1})))
    assert sorted(t.kind for t in s2.troops if t.region == "r00") == [
        "skeleton_rider",
        "skeleton_warrior",
        "skeleton_warrior",
        "wraith_king",
    ]
    assert s2.players[0].gold == 30 - 2 * 2 - 4
    with pytest.raises(IllegalAction, match=r"^WQ-TR-07: "):
        GAME.apply(s, act.Recruit("r05", act.counts({"skeleton_warrior": 1})))
    with pytest.raises(IllegalAction, match=r"^WQ-TR-07: "):
        GAME.apply(replace(s, wraith_seat=None), act.Recruit("r00", act.counts({"skeleton_warrior": 1})))
    with pytest.raises(IllegalAction, match=r"^WQ-TR-04: "):
        GAME.apply(s, act.Recruit("r00", act.counts({"wraith_king": 1})))


def _black_crown() -> int:
    (card,) = [i for i, pc in rules().powers.items() if pc.effect == "wraith_king"]
    return card


def test_wq_tr_04_the_black_crown_calls_the_wraith_king_back_at_his_tomb() -> None:
    """WQ-TR-04 (designed): the Wraith King in the pool and The Black Crown still held, its holder recruits
    him, free, where a leader of theirs stands in the tomb's region (r11 on the test map); skeletons may
    then be recruited there. Refused: elsewhere, without the card, while he is on the board, in another's
    region."""
    crown = _black_crown()
    s = board(_base(), [(0, "warlord", "r11"), (0, "lieutenant", "r00")], [])
    s = _powers(replace(s, wraith_seat=None), 0, (crown,))
    call = act.Recruit("r11", act.counts({"wraith_king": 1}))
    assert call in GAME.legal_actions(s, 0)
    s2, ev = GAME.apply(s, call)
    (king,) = [t for t in s2.troops if t.kind == "wraith_king"]
    assert king.region == "r11" and king.seat == 0 and s2.wraith_seat == 0
    assert s2.players[0].gold == s.players[0].gold  # free
    assert any(type(e).__name__ == "WraithKingArrived" for e in ev)
    s3, _ = GAME.apply(s2, act.Recruit("r11", act.counts({"skeleton_warrior": 1})))
    assert s3.players[0].gold == s.players[0].gold - 2
    with pytest.raises(IllegalAction, match=r"^WQ-TR-04: .*already on the board"):
        GAME.apply(s2, call)
    with pytest.raises(IllegalAction, match=r"^WQ-TR-04: .*tomb"):
        GAME.apply(s, act.Recruit("r00", act.counts({"wraith_king": 1})))
    with pytest.raises(IllegalAction, match=r"^WQ-TR-04: .*Black Crown"):
        GAME.apply(_powers(s, 0, ()), call)
    with pytest.raises(IllegalAction, match=r"^WQ-RT-03: "):
        GAME.apply(replace(s, owners=(("r11", 1),)), call)
    assert call not in GAME.legal_actions(_powers(s, 0, ()), 0)


def test_a_new_lieutenant_may_move_the_same_turn() -> None:
    """WQ-LT-03 with WQ-MV-06: only pieces that moved are marked; the new Lieutenant has not moved."""
    s = board(_base(), [(0, "warlord", "r00")])
    s, _ = GAME.apply(s, act.Move(0, (), ("r10",)))
    s = replace(s, leaders=(replace(s.leaders[0], region="r00"),))
    s, _ = GAME.apply(s, act.Lieutenant())
    new = max(ld.id for ld in s.leaders)
    s, _ = GAME.apply(s, act.Move(new, (), ("r01",)))
    assert s.leader(new) is not None and s.leader(new).region == "r01"  # type: ignore[union-attr]
