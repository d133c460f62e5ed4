"""WarQuest odds (odds.py): one attack's (hits, flees) law by hand and against icepool as the oracle, the
AMBUSH cascade (WQ-SP-07) exact up to its cap; the battle odds (a Markov chain over battle.py's kernel
under the table's defaults) by hand on tiny battles, as bounds when pruned, and against a seeded
simulation through the engine's battle (battle_flow)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from functools import cache

import icepool
import pytest

from iwgt.core.chance import SeededDice
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.games.warquest import actions as A
from iwgt.games.warquest import battle_events as E
from iwgt.games.warquest.battle import Battle, SideMods
from iwgt.games.warquest.game import WqGame
from iwgt.games.warquest.odds import (
    BattleOdds,
    attack_outcomes,
    battle_from_armies,
    battle_odds,
    clear_caches,
    marginals,
    rank_previews,
    round_distribution,
    side_mods,
)
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

from .corekit import _import_all, _restore, _swap, board, dealt, scenario
from .corekit import testland_loader as _loader

GAME = WqGame()
TOLERANCE = 1e-12
V = icepool.Vector
COMBAT_DIE = icepool.Die([V((1, 0)), V((0, 1))] + [V((0, 0))] * 4)
"""WQ-CB-01 decision: one hit face, one flee face, four blank faces, as a die of (hits, flees) vectors."""


@cache
def oracle(dice: int, cap: int) -> icepool.Die:
    """The AMBUSH cascade by icepool, wave by wave as a table rolls it: each wave's flees add 2 dice each (up
    to     ``cap`` extra in all), rolled at once; built apart from odds.py."""
    wave = icepool.Die([V((0, 0))])
    for _ in range(dice):
        wave = wave + COMBAT_DIE

    def more(v: V) -> V | icepool.Die:
        h, f = v
        extra = min(2 * f, cap)
        if extra == 0:
            return v
        return oracle(extra, cap - extra).map(lambda w: V((w[0] + h, w[1] + f)))

    return wave.map(more)


def as_map(d: icepool.Die) -> dict[tuple[int, int], float]:
    den = d.denominator()
    return {(int(o[0]), int(o[1])): q / den for o, q in d.items()}


def worst(a: dict[tuple[int, int], float], b: dict[tuple[int, int], float]) -> float:
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def test_the_constants_are_the_specs() -> None:
    """WQ-SP-07 designed: 2 dice a flee, at most 20 extra dice an attack."""
    assert rules().constants.AMBUSH_DICE == 2
    assert rules().constants.AMBUSH_MAX_EXTRA == 20


def test_one_die_by_hand_wq_cb_01() -> None:
    """One combat die: a hit 1/6, a flee 1/6, nothing 4/6."""
    assert round_distribution(1, ambush=False) == pytest.approx({(1, 0): 1 / 6, (0, 1): 1 / 6, (0, 0): 2 / 3})


def test_two_dice_by_hand_wq_cb_01() -> None:
    """Two dice: 36 ways; nothing 4x4, one hit 2x1x4, one flee 2x1x4, hit and flee 2, two hits 1, two flees
    1."""
    expected = {(0, 0): 16, (1, 0): 8, (0, 1): 8, (1, 1): 2, (2, 0): 1, (0, 2): 1}
    got = round_distribution(2, ambush=False)
    assert got == pytest.approx({k: v / 36 for k, v in expected.items()})


def test_no_dice_no_attack() -> None:
    assert round_distribution(0, ambush=False) == {(0, 0): 1.0}
    assert round_distribution(0, ambush=True) == {(0, 0): 1.0}


def test_one_die_with_ambush_by_hand_wq_sp_07() -> None:
    """One Satyr die: a hit 1/6 ends it; a blank 4/6 ends it; a flee brings 2 more dice (1/6 x their law):
    both     blank 16/36, one hit 8/36, two hits 1/36 end there; another flee cascades on."""
    got = round_distribution(1, ambush=True)
    assert got[(1, 0)] == pytest.approx(1 / 6)
    assert got[(0, 0)] == pytest.approx(2 / 3)
    assert got[(0, 1)] == pytest.approx(Fraction(1, 6) * Fraction(16, 36))
    assert got[(1, 1)] == pytest.approx(Fraction(1, 6) * Fraction(8, 36))
    assert got[(2, 1)] == pytest.approx(Fraction(1, 6) * Fraction(1, 36))
    assert sum(got.values()) == pytest.approx(1.0, abs=TOLERANCE)


def test_the_cap_stops_the_cascade_wq_sp_07() -> None:
    """A cap of 2 extra dice: one Satyr die's flee brings 2 dice whose flees bring nothing more."""
    got = dict(((h, f), p) for h, f, p in attack_outcomes(1, 2, 2))
    assert got[(0, 3)] == pytest.approx(Fraction(1, 6) * Fraction(1, 36))
    assert max(f for _, f in got) == 3
    # A cap of 0 is the plain roll.
    assert attack_outcomes(3, 0, 2) == attack_outcomes(3)


@pytest.mark.parametrize("dice", [1, 2, 3, 5, 8, 12, 20])
def test_plain_attack_against_icepool(dice: int) -> None:
    ours = round_distribution(dice, ambush=False)
    assert worst(ours, as_map(oracle(dice, 0))) <= TOLERANCE
    assert sum(ours.values()) == pytest.approx(1.0, abs=TOLERANCE)


@pytest.mark.parametrize(("dice", "cap"), [(1, 20), (2, 20), (4, 20), (6, 20), (3, 4), (5, 6)])
def test_ambush_cascade_against_icepool(dice: int, cap: int) -> None:
    """The cascade, die by die in odds.py, equals icepool's wave by wave (the same stopping die)."""
    ours = {(h, f): p for h, f, p in attack_outcomes(dice, cap, 2)}
    assert worst(ours, as_map(oracle(dice, cap))) <= TOLERANCE


def test_ambush_adds_dice_on_average() -> None:
    """More flees, more hits: the mean hits of 6 Satyr dice exceed the plain 1 (each flee brings 2/6 hits)."""
    hits, flees = marginals(round_distribution(6, ambush=True))
    plain_hits, plain_flees = marginals(round_distribution(6, ambush=False))
    mean = sum(h * p for h, p in hits.items())
    assert sum(h * p for h, p in plain_hits.items()) == pytest.approx(1.0)
    # Uncapped, each die yields 1/(1 - 2/6) = 1.5 dice in expectation, so 6 dice ~ 9 dice ~ 1.5 hits; the cap
    # (20 extra) trims a rare tail only.
    assert 1.45 < mean < 1.5
    assert sum(f * p for f, p in flees.items()) > sum(f * p for f, p in plain_flees.items())


# ---------------------------------------------------------------- whole battles (battle_odds over battle.py)


def two_sides(att: dict[str, int], dfn: dict[str, int], *, leaders: tuple[int, int] = (1, 1)) -> Battle:
    return battle_from_armies(att, dfn, attacker_leaders=leaders[0], defender_leaders=leaders[1])


def test_a_side_without_troops_loses_at_once_wq_ms_41() -> None:
    """No troops at the start: that side loses, no round fought (both: the defender holds)."""
    assert battle_odds(two_sides({"orc_foot": 1}, {})) == BattleOdds(1.0, 0.0, 0.0, 0.0, 1)
    assert battle_odds(two_sides({}, {"orc_foot": 1})) == BattleOdds(0.0, 1.0, 0.0, 0.0, 1)
    assert battle_odds(two_sides({}, {})).p_defender_wins == 1.0


def test_one_orc_against_one_goblin_by_hand_wq_cb_09() -> None:
    """1 Orc Foot (attack 2, RAGE +1 in round 1) attacks 1 Goblin Foot (attack 1, defence 1); each has one
    leader. The goblin strikes first each round (the defender's front before the attacker's, WQ-CB-09); a
    fled troop is rallied at the round's end (WQ-CB-20) and comes back; after round 8 (MAX_BATTLE_ROUNDS)
    with both standing, the side worth more gold in the fight wins (WQ-MS-41): the orc (3 gold) against the
    goblin (2). The chance the attacker wins, by hand, round by round."""
    odds_ = battle_odds(two_sides({"orc_foot": 1}, {"goblin_foot": 1}))
    assert odds_.error == 0.0
    assert odds_.p_attacker_wins + odds_.p_defender_wins == pytest.approx(1.0, abs=1e-12)
    # Round 1 alone (the battle ends when a side has nothing in its ranks or Reserve after RALLY):
    # - goblin hits (1/6): the orc dies, the attacker loses in round 1.
    # - goblin flees the orc (1/6): the orc is in the Retreat Area, rallied at the round's end: no end.
    # - goblin blank (4/6): the orc rolls 3 dice: any hit kills the goblin (1 - (5/6)^3); else a flee
    #   (no hit, at least one flee: (5/6)^3 - (4/6)^3) sends it back, rallied; else nothing.
    p_att_round1 = Fraction(4, 6) * (1 - Fraction(5, 6) ** 3)
    p_def_round1 = Fraction(1, 6)
    # From round 2 on both roll 1 vs 2 dice forever, with no RAGE, up to round 8: a geometric race.
    g_hit = Fraction(1, 6)  # the goblin's die hits
    o_hit = 1 - Fraction(5, 6) ** 2  # the orc's two dice hit at least once
    # per round the goblin strikes first: a hit (1/6) wins; a flee (1/6) takes the orc out of this round
    # (rallied after it); a blank (4/6) lets the orc's 2 dice strike; else another round (8 at most)
    per_def = g_hit
    per_att = Fraction(4, 6) * o_hit
    go_on = 1 - per_def - per_att
    rest = 1 - p_att_round1 - p_def_round1
    att = p_att_round1 + rest * per_att * sum(go_on**k for k in range(7))
    # the rest (both standing after round 8: no kill in rounds 2..8) goes to the orc, worth more gold
    att += rest * go_on**7
    assert odds_.p_attacker_wins == pytest.approx(float(att), abs=1e-12)


def test_the_chain_is_deterministic_and_cached() -> None:
    b = two_sides({"orc_foot": 2, "orc_archer": 1}, {"goblin_foot": 2, "goblin_archer": 1})
    first = battle_odds(b)
    clear_caches()
    assert battle_odds(b) == first
    assert first.error == 0.0 and first.states > 10


def test_renumbered_armies_have_the_same_odds() -> None:
    """Canonical states: the same armies with other troop ids (in kind blocks), seats, leader ids and region
    give the same odds (the same cached result); the number of leaders matters."""
    b = two_sides({"orc_foot": 2, "orc_archer": 1}, {"dwarf_foot": 1, "goblin_foot": 2})
    shifted = replace(
        b,
        region="elsewhere",
        attacker=replace(
            b.attacker,
            seat=3,
            leaders=(77,),
            reserve=tuple(replace(f, id=f.id + 50) for f in b.attacker.reserve),
        ),
        defender=replace(
            b.defender,
            seat=2,
            leaders=(78,),
            reserve=tuple(replace(f, id=f.id + 90) for f in b.defender.reserve),
        ),
    )
    assert battle_odds(shifted) is battle_odds(
        b
    )  # one chain, one cached result: seats and places are no part
    more = replace(b, defender=replace(b.defender, leaders=(78, 79)))  # one more leader to rally (WQ-SP-02)
    assert battle_odds(more).p_defender_wins > battle_odds(b).p_defender_wins


def test_a_pruned_battle_brackets_the_exact_odds() -> None:
    """A budget too small for the states: the odds are a true bound, p <= P(win) <= p + error."""
    b = two_sides({"orc_foot": 2, "orc_archer": 2}, {"elf_foot": 2, "elf_archer": 1})
    exact = battle_odds(b)
    assert exact.error == 0.0
    for budget in (200, 1000):
        cut = battle_odds(b, budget=budget)
        assert cut.error > 0 and cut.states <= budget
        for mine, truth in (
            (cut.p_attacker_wins, exact.p_attacker_wins),
            (cut.p_defender_wins, exact.p_defender_wins),
        ):
            assert mine <= truth + 1e-12
            assert truth <= mine + cut.error + 1e-12
    loose = battle_odds(b, tolerance=1e-3)
    assert 0 < loose.error <= 1e-3
    assert (
        loose.p_attacker_wins <= exact.p_attacker_wins + 1e-12 <= loose.p_attacker_wins + loose.error + 2e-12
    )


def test_more_troops_win_more_often() -> None:
    """A property of any sane chain: one more Orc Foot for the attacker never lowers its chance."""
    dfn = {"goblin_foot": 2, "goblin_archer": 1}
    p = [battle_odds(two_sides({"orc_foot": n}, dfn)).p_attacker_wins for n in (1, 2, 3)]
    assert p[0] < p[1] < p[2]


def test_rank_previews_round_one_wq_cb_11() -> None:
    """Round 1 as the table shows it: 4 Orc Foot (attack 2 + RAGE 1 each) in front roll 12 dice; 2 Orc
    Archers in the rear roll 2; 3 Dwarf Foot (attack 1) roll 3 in front, and no rear rank: no dice."""
    b = two_sides({"orc_foot": 4, "orc_archer": 2}, {"dwarf_foot": 3})
    view = rank_previews(b)
    assert view["attacker"]["front"]["dice"] == 12
    assert view["attacker"]["rear"]["dice"] == 2
    assert view["defender"]["front"]["dice"] == 3
    assert view["defender"]["rear"]["dice"] == 0
    assert view["defender"]["rear"]["hits"] == {"0": 1.0}
    hits, flees = marginals(round_distribution(2, ambush=False))
    assert view["attacker"]["rear"]["hits"] == {str(k): v for k, v in hits.items()}
    assert view["attacker"]["rear"]["flees"] == {str(k): v for k, v in flees.items()}
    assert view["attacker"]["front"]["hits"]["0"] == pytest.approx((5 / 6) ** 12)


def test_rank_previews_with_ambush_wq_sp_07() -> None:
    b = two_sides({"satyr_foot": 2}, {"goblin_foot": 2})
    view = rank_previews(b)
    assert view["attacker"]["front"]["ambush"] is True
    hits, _ = marginals(round_distribution(2, ambush=True))
    assert view["attacker"]["front"]["hits"] == {str(k): v for k, v in hits.items()}


def test_side_mods_from_power_keys() -> None:
    """Power cards as powers.side_mods counts them: rank dice, defence dice only when defending, rally,
    pursuit, a battle_dice event card for round 1."""
    keys = (
        "war_drums",
        "elven_bowstrings",
        "shield_wall_drill",
        "horn_of_rallying",
        "hunting_hounds",
        "battle_fury",
    )
    assert side_mods(keys, defending=True) == SideMods(1, 1, 1, 1, 2, 3)
    assert side_mods(keys, defending=False).defend_dice == 0


# ---------------------------------------------------------------- against the engine's battle


SIMULATED = 300
"""Seeded battles per army pair: the standard error of a chance near 1/2 is under 0.03."""


@pytest.fixture(scope="module")
def engine_base() -> Iterator[WqState]:
    """A dealt two-player game on the test grid of the engine's own tests (corekit's testland)."""
    _import_all()
    saved = _swap(_loader())
    try:
        yield dealt(GAME, scenario(players=2))
    finally:
        _restore(saved)


def engine_battle(base: WqState, att: dict[str, int], dfn: dict[str, int]) -> WqState:
    """Seat 0's Warlord with ``att`` at r00 moves into r01 where seat 1's Warlord and Lieutenant stand with
    ``dfn``: the engine's battle, about to be arranged."""
    troops = [(0, k, "r00") for k, n in att.items() for _ in range(n)]
    troops += [(1, k, "r01") for k, n in dfn.items() for _ in range(n)]
    s = board(base, [(0, "warlord", "r00"), (1, "warlord", "r01"), (1, "lieutenant", "r01")], troops)
    ids = tuple(t.id for t in s.troops_in("r00", 0))
    s, _ = GAME.apply(s, A.Move(0, ids, ("r01",)))
    assert s.battle is not None
    return s


def fight(state: WqState, seed: int) -> str:
    """One battle through the engine (battle_flow) with seeded dice and the table's default answers (the
    first offered): the side that won (seat 0 attacks)."""
    dice = SeededDice(seed)
    while state.battle is not None:
        if state.battle.winner is not None:
            return state.battle.winner
        who = GAME.to_move(state)
        if who == CHANCE:
            die = GAME.chance_outcomes(state)
            assert die is not None
            state, events = GAME.apply(state, ChanceOutcome(dice.roll(die)))
        else:
            assert who is not None
            state, events = GAME.apply(state, GAME.legal_actions(state, who)[0])
        won = [e for e in events if isinstance(e, E.BattleWon)]
        if won:
            return "attacker" if won[0].winner == 0 else "defender"
    raise AssertionError("the battle ended with no winner")


@pytest.mark.parametrize(
    ("att", "dfn"),
    [
        ({"orc_foot": 2, "orc_archer": 1}, {"goblin_foot": 2, "goblin_archer": 1}),
        ({"satyr_foot": 2, "satyr_archer": 1}, {"dwarf_foot": 1, "elf_foot": 1, "elf_archer": 1}),
        ({"orc_foot": 2, "fire_wizard": 1}, {"troll": 1, "air_wizard": 1, "goblin_archer": 1}),
        ({"fire_dragon": 1}, {"goblin_foot": 3, "goblin_archer": 2}),
    ],
)
def test_the_odds_agree_with_seeded_battles_through_the_engine(
    engine_base: WqState, att: dict[str, int], dfn: dict[str, int]
) -> None:
    """The exact odds of the engine's own Battle (before it is arranged) against SIMULATED battles played by
    battle_flow with seeded dice and the default answers: within 4 standard errors (WQ-CB; RAGE, SHIELD,
    AMBUSH, UNTRAINED ARCHER, MISSILE SHIELD, FIREBALL, REGENERATE, FIRE BREATH: WQ-SP-04..14)."""
    state = engine_battle(engine_base, att, dfn)
    assert state.battle is not None
    exact = battle_odds(state.battle)
    assert exact.error == 0.0
    wins = sum(fight(state, seed) == "attacker" for seed in range(SIMULATED))
    p = exact.p_attacker_wins
    sigma = (p * (1 - p) / SIMULATED) ** 0.5
    assert abs(wins / SIMULATED - p) <= 4 * sigma + 1 / SIMULATED, (wins, p)


def test_the_odds_from_between_rounds_agree_with_the_engine(engine_base: WqState) -> None:
    """The bot asks mid-battle, at the attacker's press-on question (round 2 about to begin, WQ-MS-41): the
    odds from there (the round's refills, then round 2 on) against SIMULATED battles from the same state."""
    start = engine_battle(
        engine_base, {"orc_foot": 3, "orc_archer": 1}, {"goblin_foot": 3, "goblin_archer": 2}
    )
    dice = SeededDice(7)
    state = start
    while state.battle is not None and state.battle.stage != "press_on":
        who = GAME.to_move(state)
        if who == CHANCE:
            die = GAME.chance_outcomes(state)
            assert die is not None
            state, _ = GAME.apply(state, ChanceOutcome(dice.roll(die)))
        else:
            assert who is not None
            state, _ = GAME.apply(state, GAME.legal_actions(state, who)[0])
    b = state.battle
    assert b is not None and b.stage == "press_on" and b.round == 2
    exact = battle_odds(b)
    assert exact.error == 0.0
    assert exact != battle_odds(start.battle)  # type: ignore[arg-type]
    wins = sum(fight(state, 1000 + seed) == "attacker" for seed in range(SIMULATED))
    p = exact.p_attacker_wins
    sigma = (p * (1 - p) / SIMULATED) ** 0.5
    assert abs(wins / SIMULATED - p) <= 4 * sigma + 1 / SIMULATED, (wins, p)
