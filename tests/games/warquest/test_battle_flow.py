"""The engine's battle (battle_flow.py) through the game, with scripted dice and answers: the order of
attacks, AMBUSH's cascade, spells, FIRE BREATH, refills, pursuit, withdrawal, MAX rounds, the retreat, the
captured Lieutenant and the Warlord's escape (WQ-CB, WQ-SP, WQ-MS-40..43), and a property test that troops
are conserved through random legal battles.

The test grid (``corekit``): r<row><col>, 6 x 4; a mountain between r11 and r21."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.warquest import actions as A
from iwgt.games.warquest import battle as K
from iwgt.games.warquest import battle_events as E
from iwgt.games.warquest import battle_flow as BF
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.state import WqState, with_player

from .corekit import _import_all, _restore, _swap, board, dealt, scenario
from .corekit import testland_loader as _loader

GAME = WqGame()
DEFAULT = None
"""In a script: answer the question with the table's default (the first offered answer)."""


@pytest.fixture(scope="module", autouse=True)
def _testland() -> Iterator[None]:
    _import_all()
    saved = _swap(_loader())
    try:
        yield None
    finally:
        _restore(saved)


@pytest.fixture(scope="module")
def base() -> WqState:
    return dealt(GAME, scenario(players=2))


def army(
    base: WqState,
    att: Sequence[str],
    dfn: Sequence[str],
    *,
    att_at: str = "r00",
    dfn_at: str = "r01",
    extra_leaders: Sequence[tuple[int, str, str]] = (),
    extra_troops: Sequence[tuple[int, str, str]] = (),
) -> WqState:
    """Seat 0's Warlord (id 0) with troops ``att`` at ``att_at``; seat 1's Warlord (id 1) and Lieutenant
    (id 2) with troops ``dfn`` at ``dfn_at``. Troop ids from 100 in that order (attacker first)."""
    leaders = [(0, "warlord", att_at), (1, "warlord", dfn_at), (1, "lieutenant", dfn_at), *extra_leaders]
    troops = [(0, k, att_at) for k in att] + [(1, k, dfn_at) for k in dfn] + list(extra_troops)
    return board(base, leaders, troops)


def attack(state: WqState, path: Sequence[str] = ("r01",)) -> tuple[WqState, list[Event]]:
    """Seat 0's Warlord moves with every seat-0 troop of its region along ``path``."""
    ld = state.leader(0)
    assert ld is not None
    ids = tuple(t.id for t in state.troops_in(ld.region, 0))
    return GAME.apply(state, A.Move(0, ids, tuple(path)))


def play(state: WqState, script: Sequence[Any]) -> tuple[WqState, list[Event]]:
    """Answer the battle step by step: an int is the next die's face, an action the next answer, DEFAULT
    the first offered answer; the script must match what is asked, in order."""
    events: list[Event] = []
    for i, item in enumerate(script):
        assert state.battle is not None, f"the battle ended before script item {i} ({item!r})"
        who = GAME.to_move(state)
        if who == CHANCE:
            assert isinstance(item, int), f"item {i}: a die is owed, the script says {item!r}"
            state, ev = GAME.apply(state, ChanceOutcome(item))
        else:
            assert not isinstance(item, int), f"item {i}: seat {who} is asked {state.battle.stage}, not a die"
            assert who is not None
            offered = GAME.legal_actions(state, who)
            answer = offered[0] if item is DEFAULT else item
            state, ev = GAME.apply(state, answer)
        events += ev
    return state, events


def of(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def routed(s: WqState) -> WqState:
    """The battle with every defending troop in the Retreat Area and no defending leader to rally them."""
    b = s.battle
    assert b is not None
    d = b.defender
    d = replace(d, front=(), rear=(), reserve=(), retreat=tuple(sorted(d.everyone(), key=lambda f: f.id)))
    return replace(s, battle=replace(b, defender=replace(d, leaders=())))


BLANK = 3
HIT = 1
FLEE = 2


# ---------------------------------------------------------------- starting and arranging


def test_wq_mv_10_a_move_into_another_players_region_starts_a_battle(base: WqState) -> None:
    """WQ-MV-10/11: the moving army is the attacker; every piece of the other player there defends; the
    defender arranges first (WQ-MS-43), offered the table's arrangement first."""
    s = army(base, ["goblin_foot", "goblin_archer"], ["dwarf_foot", "goblin_archer"])
    s, ev = attack(s)
    began = of(ev, E.BattleBegan)
    assert began == [E.BattleBegan("r01", 0, 1, (0, 100, 101), (1, 2, 102, 103))]
    assert s.battle is not None and s.battle.stage == "arrange_defender"
    assert GAME.to_move(s) == 1
    assert GAME.status(s).phase == "battle"
    offered = GAME.legal_actions(s, 1)
    assert offered[0] == A.Arrange(front=(102,), rear=(103,))
    assert GAME.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction, match="WQ-CB-02"):
        GAME.apply(s, A.Arrange(front=(100,), rear=()))  # the attacker's troop
    s, _ = GAME.apply(s, A.Arrange(front=(102,), rear=(103,)))
    assert s.battle is not None and s.battle.stage == "arrange_attacker" and GAME.to_move(s) == 0
    view = BF.battle_view(s)
    assert view["question"] == {"kind": "arrange", "seat": 0, "side": "attacker", "max": 5}
    assert [f["id"] for f in view["battle"]["defender"]["front"]] == [102]
    assert view["battle"]["defender"]["leaders"] == [1, 2]


def test_wq_cb_09_the_four_attacks_in_order_then_withdrawal_and_pursuit(base: WqState) -> None:
    """WQ-CB-09/10: defender's rear, attacker's rear, defender's front, attacker's front; then the attacker
    withdraws (WQ-MS-41): the defender pursues every attacker troop with 4 dice (WQ-MS-40); two hits kill
    both; the attacker's leader goes back where it came from; the defender gains 1 VP (WQ-MS-42)."""
    s = army(base, ["goblin_foot", "goblin_archer"], ["goblin_foot", "goblin_archer"])
    s, _ = attack(s)
    arr_d = A.Arrange(front=(102,), rear=(103,))
    arr_a = A.Arrange(front=(100,), rear=(101,))
    script = [arr_d, arr_a, A.Target("rear"), BLANK, A.Target("rear"), BLANK, BLANK, BLANK]
    s, ev = play(s, script)
    rolled = [(e.side, e.rank, e.target, e.dice) for e in of(ev, E.AttackRolled)]
    assert rolled == [
        ("defender", "rear", "rear", 1),
        ("attacker", "rear", "rear", 1),
        ("defender", "front", "front", 1),
        ("attacker", "front", "front", 1),
    ]
    assert of(ev, E.RoundEnded) == [E.RoundEnded(1, (), ())]
    assert s.battle is not None and s.battle.stage == "press_on" and GAME.to_move(s) == 0
    assert GAME.legal_actions(s, 0) == [A.PressOn(False), A.PressOn(True)]
    vp = s.players[1].vp
    s, ev = play(s, [A.PressOn(True), HIT, HIT, BLANK, BLANK])
    assert s.battle is None
    assert of(ev, E.Pursued) == [E.Pursued(1, 4, (HIT, HIT, BLANK, BLANK), (100, 101))]
    assert of(ev, E.BattleWon) == [E.BattleWon("r01", 1, 0, True, 1, 1)]
    assert s.players[1].vp == vp + 1 and s.players[1].battles_won == 1
    assert s.troops_in("r01", 0) == () and s.troops_in("r00", 0) == ()
    assert s.leader(0) is not None and s.leader(0).region == "r00"  # type: ignore[union-attr]
    assert {t.id for t in s.troops_in("r01", 1)} == {102, 103}


def test_wq_sp_06_rage_in_round_one_only_through_the_flow(base: WqState) -> None:
    """WQ-SP-06: two orc foot roll 2 + 2 + RAGE 1 + 1 = 6 dice in round 1, 4 in round 2."""
    s = army(base, ["orc_foot", "orc_foot"], ["dwarf_foot"])
    s, _ = attack(s)
    s, ev = play(s, [DEFAULT, DEFAULT, BLANK, *[BLANK] * 6, A.PressOn(False), BLANK, *[BLANK] * 4])
    dice = [(e.side, e.dice) for e in of(ev, E.AttackRolled)]
    assert dice == [("defender", 1), ("attacker", 6), ("defender", 1), ("attacker", 4)]


def test_wq_sp_07_ambush_cascade_with_scripted_faces(base: WqState) -> None:
    """WQ-SP-07: satyr + goblin roll 2 dice; each flee owes 2 more: flee (4), flee (6), hit, blanks: 6 dice,
    1 hit 2 flees; the dice are asked one at a time (one chance node per die)."""
    s = army(base, ["satyr_foot", "goblin_foot"], ["goblin_foot"] * 4 + ["bugbear"])
    s, _ = attack(s)
    s, _ = play(s, [DEFAULT, DEFAULT, *[BLANK] * 6])  # the defender's front: 4 goblins + a bugbear = 6 dice
    assert s.battle is not None and BF.die_needed(s) == BF.COMBAT_DIE
    assert BF.COMBAT_DIE.faces == K.COMBAT_FACES
    owed = []
    for face in (FLEE, FLEE, HIT, BLANK, BLANK, BLANK):
        assert s.battle is not None and s.battle.roll is not None
        owed.append(s.battle.roll.dice)
        s, ev = GAME.apply(s, ChanceOutcome(face))
    assert owed == [2, 4, 6, 6, 6, 6]
    rolled = of(ev, E.AttackRolled)
    assert rolled == [E.AttackRolled(0, "attacker", "front", "front", 6, (2, 2, 1, 3, 3, 3), 1, 2)]
    assert s.battle is not None and s.battle.stage == "assign"
    # the default: the hit kills a goblin (cheapest to kill, then dearest: bugbear 4 has 2 left), the flees
    # go to the dearest survivors: the bugbear and a goblin
    assert GAME.legal_actions(s, 0)[0] == A.Assign(hits=((102, 1),), flees=(103, 106))


def test_wq_sp_04_shield_in_the_flow_refuses_an_assignment_around_the_dwarf(base: WqState) -> None:
    """WQ-SP-04 through the engine: a hit on the goblin beside a Dwarf Foot is refused, naming SHIELD."""
    s = army(base, ["bugbear", "bugbear"], ["dwarf_foot", "goblin_foot"])
    s, _ = attack(s)
    s, _ = play(s, [A.Arrange(front=(102, 103), rear=()), DEFAULT, BLANK, BLANK, HIT, HIT, BLANK, BLANK])
    # 2 hits on a rank of a dwarf and a goblin: the only legal assignment is both on the dwarf, so nobody
    # is asked; the dwarf carries 2 markers
    assert s.battle is not None
    assert [(f.id, f.hits) for f in s.battle.defender.front] == [(102, 2), (103, 0)]


def test_wq_ms_43_a_defender_cannot_hide_its_troops_in_the_reserve(base: WqState) -> None:
    """WQ-MS-43 (designed), WQ-CB-02: the defender may not arrange an empty Front while it has troops (the
    review's exploit: every attack then had no target); every offered arrangement shows a Front."""
    s = army(base, ["orc_foot", "orc_foot"], ["goblin_foot", "goblin_archer"])
    s, _ = attack(s)
    assert s.battle is not None and s.battle.stage == "arrange_defender"
    for bad in (A.Arrange(front=(), rear=()), A.Arrange(front=(), rear=(103,))):
        with pytest.raises(IllegalAction, match="WQ-MS-43"):
            GAME.apply(s, bad)
    offered = GAME.legal_actions(s, 1)
    assert offered and all(isinstance(a, A.Arrange) and a.front for a in offered)
    assert offered[0] == A.Arrange(front=(102,), rear=(103,))


def test_wq_cb_18_the_struck_side_refills_its_gap(base: WqState) -> None:
    """WQ-CB-18, WQ-MS-43 (designed): the attacker's front kills the defender's only Front troop; with its
    Front empty and a bugbear in the Reserve the refill is compulsory: only that refill is offered, and
    declining it (or filling the rear) is refused."""
    s = army(base, ["bugbear"], ["goblin_foot", "bugbear"])
    s, _ = attack(s)
    s, _ = play(s, [A.Arrange(front=(101,), rear=()), DEFAULT, BLANK, HIT, BLANK])
    assert s.battle is not None and s.battle.stage == "refill" and GAME.to_move(s) == 1
    assert GAME.legal_actions(s, 1) == [A.Refill(front=(102,), rear=())]
    with pytest.raises(IllegalAction, match="WQ-MS-43"):
        GAME.apply(s, A.Refill(front=(), rear=()))
    with pytest.raises(IllegalAction, match="WQ-CB-18"):
        GAME.apply(s, A.Refill(front=(), rear=(102,)))
    s, ev = GAME.apply(s, A.Refill(front=(102,), rear=()))
    assert of(ev, E.LineRefilled) == [E.LineRefilled(1, (102,), ())]
    assert s.battle is not None and [f.id for f in s.battle.defender.front] == [102]


def test_wq_sp_11_fireball_twelve_dice_at_a_troll(base: WqState) -> None:
    """WQ-SP-11: the Fire Wizard's rank attacks, then its player may cast FIREBALL at one enemy troop:
    12 dice at a troll; 3 hits kill it."""
    s = army(base, ["fire_wizard", "goblin_foot"], ["troll"])
    s, _ = attack(s)
    s, _ = play(s, [DEFAULT, A.Arrange(front=(101,), rear=(100,)), BLANK])
    assert s.battle is not None and s.battle.stage == "spell" and GAME.to_move(s) == 0
    assert GAME.legal_actions(s, 0) == [A.Spell(102), A.Spell(None)]
    assert BF.battle_view(s)["question"] == {
        "kind": "spell",
        "seat": 0,
        "spell": "fireball",
        "targets": {"102": 12},
    }
    faces = [HIT, HIT, HIT] + [BLANK] * 9
    s, ev = play(s, [A.Spell(102), *faces])
    assert of(ev, E.SpellRolled) == [E.SpellRolled(0, "fireball", 102, 12, tuple(faces), 3, 0)]
    assert of(ev, E.HitsTaken)[-1].eliminated == (102,)


def test_wq_sp_12_ice_blast_twelve_dice_at_the_fire_dragon_four_else(base: WqState) -> None:
    """WQ-SP-12: ICE BLAST rolls 12 dice at the Fire Dragon, 4 at a goblin."""
    s = army(base, ["water_wizard", "goblin_foot"], ["fire_dragon"], dfn_at="r01")
    s = replace(s, troops=(*s.troops, replace(s.troops[-1], id=103, kind="goblin_foot")), next_id=104)
    s, _ = attack(s)
    s, _ = play(s, [A.Arrange(front=(102,), rear=(103,)), A.Arrange(front=(101,), rear=(100,))])
    # the defender's rear goblin is no missile troop (no attack); the attacker's rear picks its target
    assert s.battle is not None and s.battle.stage == "target"
    s, _ = play(s, [A.Target("front"), BLANK])
    assert s.battle is not None and s.battle.stage == "spell"
    q = BF.battle_view(s)["question"]
    assert q["spell"] == "ice_blast" and q["targets"] == {"102": 12, "103": 4}


def test_wq_sp_14_fire_breath_four_dice_at_each_troop_once_per_battle(base: WqState) -> None:
    """WQ-SP-14: when the dragon's front rank attacks, FIRE BREATH rolls 4 dice separately at each troop of
    one enemy rank, each roll applying to its troop; once per battle (not offered in round 2)."""
    s = army(base, ["fire_dragon"], ["goblin_foot", "goblin_foot", "satyr_archer"])
    s, _ = attack(s)
    s, _ = play(s, [A.Arrange(front=(101, 102), rear=(103,)), DEFAULT])
    # defender rear (satyr archer 1 die at the dragon), defender front (2 dice), dragon front (4 dice)
    s, _ = play(s, [BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK])
    assert s.battle is not None and s.battle.stage == "breath"
    assert GAME.legal_actions(s, 0) == [A.Breath("front"), A.Breath("rear"), A.Breath(None)]
    s, ev = play(s, [A.Breath("front"), HIT, BLANK, BLANK, BLANK, FLEE, BLANK, BLANK, BLANK])
    assert of(ev, E.BreathBreathed) == [E.BreathBreathed(0, "front", (101, 102))]
    spells = [(e.spell, e.troop, e.dice, e.hits, e.flees) for e in of(ev, E.SpellRolled)]
    assert spells == [("fire_breath", 101, 4, 1, 0), ("fire_breath", 102, 4, 0, 1)]
    # the goblin hit is dead, the one that fled was rallied into the Reserve at the round's end
    assert s.battle is not None
    assert s.battle.defender.front == () and [f.id for f in s.battle.defender.reserve] == [102]
    assert s.battle.attacker.breath_used
    # round 2: the rallied goblin must step into the empty Front (WQ-MS-43), so the defender rear (1 die),
    # its front (1 die) and the dragon (4 dice at that front) roll; no breath is offered
    with pytest.raises(IllegalAction, match="WQ-MS-43"):
        play(s, [A.PressOn(False), A.Refill(front=(), rear=())])
    s, ev = play(
        s, [A.PressOn(False), A.Refill(front=(102,), rear=()), BLANK, BLANK, BLANK, BLANK, BLANK, BLANK]
    )
    assert [(e.side, e.rank, e.dice) for e in of(ev, E.AttackRolled)] == [
        ("defender", "rear", 1),
        ("defender", "front", 1),
        ("attacker", "front", 4),
    ]
    assert s.battle is not None and s.battle.stage == "press_on"


def test_wq_sp_03_relentless_pursuit_rolls_eight(base: WqState) -> None:
    """WQ-SP-03: a winner with a Goblin Wolf Rider pursues with 8 dice; each hit kills one troop of the
    loser's Retreat Area (the winner picks when there is a choice)."""
    s = army(base, ["goblin_wolf_rider", "bugbear"], ["goblin_foot", "goblin_foot"])
    s, _ = attack(s)
    # both goblins flee from the attacker's front (2 + 2 = 4 dice: 2 flees), nobody is left to fight
    s, _ = play(s, [DEFAULT, DEFAULT, BLANK, BLANK, FLEE, FLEE, BLANK, BLANK])
    # the defender's leaders rally both back at the round's end: the battle goes on; by hand, they stay in
    # the Retreat Area and no leader rallies them
    assert s.battle is not None and s.battle.stage == "press_on"
    s2 = routed(s)
    s2, _ = play(s2, [A.PressOn(False)])  # nobody left in the defender's ranks: no attack, it has lost
    assert s2.battle is not None and s2.battle.stage == "pursuit_roll"
    assert s2.battle.roll is not None and s2.battle.roll.dice == 8
    s2, ev = play(s2, [HIT, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK])
    assert s2.battle is not None and s2.battle.stage == "pursuit_assign"
    assert GAME.legal_actions(s2, 0)[0] == A.Assign(hits=((102, 1),), flees=())
    s2, ev = play(s2, [A.Assign(hits=((103, 1),), flees=())])
    assert of(ev, E.Pursued)[0].eliminated == (103,)


def test_wq_ms_42_retreat_choices_and_refusal(base: WqState) -> None:
    """WQ-MS-42: a beaten defender falls back to an adjacent region: not over the mountain (r21), not into
    another player's pieces (r12 holds the attacker's Lieutenant); r01 (emptied by the attack) and r10."""
    s = army(base, ["bugbear"], [], att_at="r01", dfn_at="r11", extra_leaders=[(0, "lieutenant", "r12")])
    s, ev = attack(s, ("r11",))
    # the defender has no troops: it loses at once (WQ-MS-41), and chooses its way out
    assert s.battle is not None and s.battle.stage == "retreat" and GAME.to_move(s) == 1
    assert GAME.legal_actions(s, 1) == [A.Retreat("r01"), A.Retreat("r10")]
    with pytest.raises(IllegalAction, match="WQ-MS-42"):
        GAME.apply(s, A.Retreat("r21"))
    with pytest.raises(IllegalAction, match="WQ-MS-42"):
        GAME.apply(s, A.Retreat("r12"))
    s, ev = GAME.apply(s, A.Retreat("r10"))
    assert s.battle is None
    assert {ld.region for ld in s.leaders if ld.seat == 1} == {"r10"}
    assert of(ev, E.BattleWon)[0].rounds == 0
    assert s.leader(0).region == "r11"  # type: ignore[union-attr]  # the winning attacker stays


def test_wq_ms_42_no_way_out_capture_and_the_warlords_escape(base: WqState) -> None:
    """WQ-MS-42 designed: a beaten defender with no free neighbour loses its troops, its Lieutenant is
    captured (back to the supply), its Warlord escapes alone to the nearest free region (r02: two steps,
    first in map order)."""
    s = army(
        base,
        ["bugbear", "bugbear"],
        ["goblin_foot"],
        att_at="r01",
        dfn_at="r00",
        extra_leaders=[(0, "lieutenant", "r10"), (0, "lieutenant", "r01")],
    )
    s, _ = attack(s, ("r00",))
    # the goblin flees from the bugbears (4 dice); its leaders would rally it: by hand, it stays in the
    # Retreat Area with nobody to rally it
    s, _ = play(s, [DEFAULT, DEFAULT, BLANK, FLEE, BLANK, BLANK, BLANK])
    s = routed(s)
    s, ev = play(s, [A.PressOn(False), BLANK, BLANK, BLANK, BLANK])  # round 2: nobody to hit; pursuit
    assert s.battle is None, s.battle
    assert of(ev, E.ArmyDestroyed) == [E.ArmyDestroyed(1, (102,))]
    assert of(ev, E.LieutenantCaptured) == [E.LieutenantCaptured(1, 2)]
    assert of(ev, E.WarlordEscaped) == [E.WarlordEscaped(1, 1, "r02")]
    assert s.leader(2) is None and s.leader(1).region == "r02"  # type: ignore[union-attr]
    assert s.troop(102) is None


def test_wq_ms_41_a_lone_leader_attacking_loses_at_once(base: WqState) -> None:
    """WQ-MS-41: a side with no troops when the battle begins loses at once: the attacker goes back to the
    region it came from. WQ-MS-38 decision: the loser had no troop, so the defender gains no VP (the battle
    still counts as won)."""
    s = army(base, [], ["goblin_foot"])
    vp, won = s.players[1].vp, s.players[1].battles_won
    s, ev = attack(s)
    assert s.battle is None
    assert of(ev, E.BattleWon) == [E.BattleWon("r01", 1, 0, False, 0, 0)]
    assert s.leader(0).region == "r00"  # type: ignore[union-attr]
    assert s.players[1].vp == vp and s.players[1].battles_won == won + 1


def test_wq_ms_38_an_army_walking_over_lone_leaders_scores_nothing(base: WqState) -> None:
    """WQ-MS-38/41 decision: the defender's two leaders stand without troops; the attacker wins at once,
    they fall back, and no BATTLE_VP is gained (the loser had no troop when the battle began)."""
    s = army(base, ["goblin_foot"], [])
    vp = s.players[0].vp
    s, ev = attack(s)
    if s.battle is not None:  # the beaten defender chooses where to fall back (WQ-MS-42)
        assert s.battle.stage == "retreat"
        s, more = play(s, [DEFAULT])
        ev += more
    assert s.battle is None
    (won,) = of(ev, E.BattleWon)
    assert (won.winner, won.loser, won.rounds, won.vp) == (0, 1, 0, 0)
    assert s.players[0].vp == vp


def test_wq_ms_41_after_the_last_round_equal_worth_the_defender_holds(base: WqState) -> None:
    """WQ-MS-41 (designed): one Skeleton Warrior (printed 2 gold) attacks one; eight rounds of blanks leave
    both standing, worth 2 against 2: the defender holds. Nothing of the attacker is in its Retreat Area, so
    there is no pursuit (the attacker did not withdraw), and it goes back where it came from."""
    s = army(base, ["skeleton_warrior"], ["skeleton_warrior"])
    s, _ = attack(s)
    s, _ = play(s, [DEFAULT, DEFAULT, BLANK, BLANK])
    ev: list[Any] = []
    for _ in range(K.const("MAX_BATTLE_ROUNDS") - 1):
        assert s.battle is not None and s.battle.stage == "press_on"
        s, ev = play(s, [A.PressOn(False), BLANK, BLANK])
    assert s.battle is None  # no pursuit roll, no question: the attacker's army went home
    assert of(ev, E.Pursued) == []
    assert of(ev, E.BattleWon) == [E.BattleWon("r01", 1, 0, False, 8, 1)]
    assert [t.region for t in s.troops if t.seat == 0] == ["r00"]


def test_wq_ms_41_the_last_round_decides_by_gold(base: WqState) -> None:
    """WQ-MS-41 (designed): two Skeleton Riders (4 + 4 = 8 gold, attack 2 each) attack three Skeleton
    Warriors (3 x 2 = 6) held by a Warlord and a Lieutenant. Rounds 1..7 all blanks. In round 8 the riders'
    four dice roll three flees: the three warriors go to the Retreat Area; the two leaders rally two back
    (WQ-CB-20), one stays. Both sides stand after round 8: 8 gold against 4 in the fight, the attacker wins.
    It pursues as usual: the defender's Retreat Area only (the warrior left there), 4 dice, one hit kills
    it; then the beaten defender retreats with the two rallied warriors. The attacker gains BATTLE_VP."""
    s = army(base, ["skeleton_rider", "skeleton_rider"], ["skeleton_warrior"] * 3)
    vp = s.players[0].vp
    s, _ = attack(s)
    s, _ = play(s, [DEFAULT, DEFAULT, *[BLANK] * 7])  # round 1: the defender's 3 dice, the attacker's 4
    for _ in range(K.const("MAX_BATTLE_ROUNDS") - 2):
        assert s.battle is not None and s.battle.stage == "press_on"
        s, _ = play(s, [A.PressOn(False), *[BLANK] * 7])
    s, ev = play(s, [A.PressOn(False), BLANK, BLANK, BLANK, FLEE, FLEE, FLEE, BLANK])
    b = s.battle  # (three flees on three warriors: no choice, no assign question)
    assert b is not None and b.stage == "pursuit_roll" and b.winner == "attacker" and not b.withdrew
    assert len(b.defender.retreat) == 1 and len(b.defender.fighting()) == 2
    assert b.roll is not None and b.roll.dice == K.const("PURSUIT_DICE")
    s, more = play(s, [HIT, BLANK, BLANK, BLANK])
    ev += more
    if s.battle is not None:  # the beaten defender chooses where to fall back (WQ-MS-42)
        assert s.battle.stage == "retreat"
        s, more = play(s, [DEFAULT])
        ev += more
    assert s.battle is None
    assert len(of(ev, E.Pursued)[0].eliminated) == 1
    (won,) = of(ev, E.BattleWon)
    assert (won.winner, won.loser, won.withdrew, won.rounds, won.vp) == (0, 1, False, 8, 1)
    assert s.players[0].vp == vp + 1
    assert len(s.troops_in("r01", 0)) == 2 and len(s.troops_in("r01", 1)) == 0  # the attacker holds r01
    assert sorted(t.kind for t in s.troops if t.seat == 1) == ["skeleton_warrior", "skeleton_warrior"]


def test_the_wraith_king_dies_and_the_one_shot_battle_dice_are_spent(base: WqState) -> None:
    """The event power's battle dice add 2 to the round-1 front (2 + 2 = 4) and are spent by the battle;
    the Wraith King killed by the pursuit leaves nobody controlling him (wq-spec, WQ-TR-04 designed)."""
    s = army(base, ["wraith_king"], ["goblin_foot"])
    s = with_player(s, replace(s.players[0], battle_dice=2))
    s = replace(s, wraith_seat=0)
    s, _ = attack(s)
    s, ev = play(s, [DEFAULT, DEFAULT, BLANK, BLANK, BLANK, BLANK, BLANK])
    assert [(e.side, e.dice) for e in of(ev, E.AttackRolled)] == [("defender", 1), ("attacker", 4)]
    s, ev = play(s, [A.PressOn(True), HIT, BLANK, BLANK, BLANK])
    assert s.battle is None and of(ev, E.Pursued)[0].eliminated == (100,)
    assert s.wraith_seat is None and s.troop(100) is None
    assert s.players[0].battle_dice == 0


def test_answers_are_refused_out_of_turn_and_of_the_wrong_kind(base: WqState) -> None:
    """Only the question asked is accepted: a move during a battle and a wrong answer are refused; the
    refusal names the warlord asked (the defender, seat 1: the Blue Warlord), not a seat number."""
    s = army(base, ["goblin_foot"], ["goblin_foot"])
    s, _ = attack(s)
    with pytest.raises(IllegalAction, match="WQ-MV-10"):
        GAME.apply(s, A.EndTurn())
    with pytest.raises(IllegalAction, match="WQ-MS-43: the battle asks the Blue Warlord for 'arrange'"):
        GAME.apply(s, A.PressOn(False))
    s, _ = play(s, [DEFAULT, DEFAULT])
    with pytest.raises(IllegalAction):
        GAME.apply(s, A.Target("front"))  # a die is owed


# ---------------------------------------------------------------- conservation (property)

KINDS = (
    "goblin_foot",
    "goblin_archer",
    "goblin_wolf_rider",
    "elf_foot",
    "elf_archer",
    "dwarf_foot",
    "satyr_foot",
    "satyr_archer",
    "orc_foot",
    "troll",
    "fire_dragon",
    "air_wizard",
    "earth_wizard",
    "fire_wizard",
    "water_wizard",
)


def _check_conserved(s: WqState, start: dict[int, int], gone: set[int]) -> None:
    """Every fighter is in exactly one area or eliminated; nobody comes back; nothing new appears."""
    b = s.battle
    if b is None:
        ids = {t.id for t in s.troops if t.id in start}
    else:
        areas = [f.id for side in K.SIDES for f in b.side(side).everyone()]
        assert len(areas) == len(set(areas)), "a troop stands in two areas"
        ids = set(areas)
        for side in K.SIDES:
            sd = b.side(side)
            assert len(sd.front) <= 5 and len(sd.rear) <= 5
            assert all(start[f.id] == sd.seat for f in sd.everyone()), "a troop changed sides"
    assert ids <= set(start), "a troop appeared"
    assert not ids & gone, "an eliminated troop came back"
    gone |= set(start) - ids


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    att=st.lists(st.sampled_from(KINDS), min_size=0, max_size=9),
    dfn=st.lists(st.sampled_from(KINDS), min_size=0, max_size=9),
    seed=st.integers(0, 10**6),
)
def test_troops_are_conserved_through_random_legal_battles(
    base: WqState, att: list[str], dfn: list[str], seed: int
) -> None:
    """Random armies, random legal answers (any offered one), random faces: every troop is in exactly one
    area or eliminated, counts never grow, and after the battle the region holds one player's pieces."""
    rng = random.Random(seed)
    s = army(base, att, dfn)
    start = {t.id: t.seat for t in s.troops}
    gone: set[int] = set()
    s, _ = attack(s)
    for _ in range(3000):
        _check_conserved(s, start, gone)
        if s.battle is None:
            break
        who = GAME.to_move(s)
        if who == CHANCE:
            s, _ = GAME.apply(s, ChanceOutcome(rng.randrange(6) + 1))
        else:
            assert who is not None
            offered = GAME.legal_actions(s, who)
            assert offered, f"seat {who} is asked {s.battle.stage} with nothing offered"
            s, _ = GAME.apply(s, rng.choice(offered))
    assert s.battle is None
    assert len(s.seats_in("r01")) == 1
    assert len([t for t in s.troops if t.id in start]) <= len(start)
