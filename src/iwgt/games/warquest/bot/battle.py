"""The WarQuest bot's battle answers and its judgement of a fight (WQ-CB, WQ-SP, WQ-MS-40..43).

Everything a battle shows is public (the observation's ``battle``): both sides' ranks, reserves, retreat
areas and hit markers. The bot picks among the answers the rules offer:

* arrange, refill, target, spell, breath: the table's default (offered first), which the exact odds assume;
* assign: of the offered assignments, the one that eliminates most (then the most attack dice and cost
  killed, then the most cost put to flight): kill the dangerous ones;
* press on or withdraw: by the exact odds of the battle from here (``odds.battle_odds``, a small budget),
  withdrawing when it is clearly lost (a quick strength measure decides the clear cases and the battles
  too big for the budget);
* pursuit: the default (the costliest first);
* retreat: the region where the beaten army is safest (no enemy army next to it, its own regions and
  leaders, nearest its quests).

``strength`` and ``attack_odds`` judge a fight before the move that starts it: a quick Lanchester-like
measure screens candidates, the exact odds confirm the one chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle as K
from iwgt.games.warquest.battle import Battle
from iwgt.games.warquest.state import WqState

ODDS_BUDGET = 2000
"""States the exact odds may visit for one of the bot's judgements (the chain prunes its least likely states
beyond it: their mass is the odds' ``error``)."""
WITHDRAW_BELOW = 0.25
"""The attacker withdraws when its chance of winning from here (of the outcomes the odds settle) is below
this."""


def strength(kinds: Iterable[str], *, defending: bool = False) -> float:
    """A quick measure of an army's fighting power: (dice a round, at most ten troops) x (total defence)."""
    ks = list(kinds)
    if not ks:
        return 0.0
    ranked = sorted(ks, key=lambda k: -K.stats(k).attack)[: 2 * K.const("MAX_RANK")]
    dice = sum(K.stats(k).attack + K.stats(k).rage for k in ranked)
    guard = sum(K.stats(k).defense for k in ks)
    return float(dice * guard) * (1.1 if defending else 1.0)


def exact_win(b: Battle, budget: int = ODDS_BUDGET) -> float:
    """The attacker's chance of winning ``b`` by the exact odds; when the budget pruned some states (a big
    battle), their mass is shared in the proportion of the settled outcomes (an estimate; with little
    settled, the pruned mass counts lost)."""
    from iwgt.games.warquest.odds import battle_odds

    o = battle_odds(b, budget=budget)
    settled = o.p_attacker_wins + o.p_defender_wins
    if o.error <= 0.0 or settled < 0.05:
        return o.p_attacker_wins
    return o.p_attacker_wins + o.error * o.p_attacker_wins / settled


def _score_assign(b: Battle, side: K.SideName, target: K.Rank, a: act.Assign) -> tuple[int, int, int, int]:
    after = K.apply_assignment(b, side, target, (a.hits, a.flees))
    foe = K.enemy(side)
    before_ids = {f.id: f for f in b.side(foe).everyone()}
    gone = [before_ids[i] for i in K.eliminated(b, after) if i in before_ids]
    was_back = {f.id for f in b.side(foe).retreat}
    fled = [f for f in after.side(foe).retreat if f.id not in was_back]
    return (
        len(gone),
        sum(K.stats(f.kind).attack + K.stats(f.kind).rage for f in gone),
        sum(K.stats(f.kind).worth for f in gone),
        sum(K.stats(f.kind).worth for f in fled),
    )


def best_assign(state: WqState, offered: Sequence[act.Action]) -> act.Action:
    """Of the offered assignments, the one that eliminates most, then the most dangerous troops."""
    b = state.battle
    assigns = [a for a in offered if isinstance(a, act.Assign)]
    if b is None or not assigns or b.stage != "assign" or b.target is None:
        return offered[0]
    side, _ = K.ATTACK_ORDER[b.step]
    target = b.target
    best = assigns[0]
    best_score = _score_assign(b, side, target, best)
    for a in assigns[1:]:
        s = _score_assign(b, side, target, a)
        if s > best_score:
            best, best_score = a, s
    return best


def press_on(state: WqState) -> act.PressOn:
    """Fight on unless the odds from here say the battle is clearly lost (WQ-MS-41)."""
    b = state.battle
    if b is None:
        return act.PressOn(withdraw=False)
    mine = [f.kind for f in b.attacker.fighting()]
    theirs = [f.kind for f in b.defender.fighting()]
    if not theirs:
        return act.PressOn(withdraw=False)
    ratio = strength(mine) / max(1e-9, strength(theirs, defending=True))
    if ratio >= 1.5:
        return act.PressOn(withdraw=False)
    if ratio < 0.35:
        return act.PressOn(withdraw=True)
    from iwgt.games.warquest.odds import battle_odds

    o = battle_odds(b, budget=ODDS_BUDGET)  # the question is asked at stage "press_on", which the odds take
    settled = o.p_attacker_wins + o.p_defender_wins
    if settled < 0.05:  # a battle too big to follow: the quick measure decides
        return act.PressOn(withdraw=ratio < 0.7)
    win = o.p_attacker_wins / settled
    return act.PressOn(withdraw=win < WITHDRAW_BELOW)


def retreat(
    state: WqState, seat: int, offered: Sequence[act.Action], quest_regions: Iterable[str], moves: Any
) -> act.Action:
    """The safest region to fall back to: no enemy army next to it, its own, its leaders, near its quests."""
    options = [a for a in offered if isinstance(a, act.Retreat)]
    if not options:
        return offered[0]
    from iwgt.games.warquest.bot.view import map_facts

    facts = map_facts(state.scenario.map)
    geo = facts.wq.geometry
    enemy_power: dict[str, float] = {}
    for t in state.troops:
        if t.seat != seat:
            enemy_power[t.region] = enemy_power.get(t.region, 0.0) + K.stats(t.kind).attack
    targets = list(quest_regions)

    def score(region: str) -> float:
        s = 0.0
        near = [region, *geo.neighbours(region)]
        s -= sum(enemy_power.get(r, 0.0) for r in near)
        if state.owner(region) == seat:
            s += 2.0
        if state.leaders_in(region, seat):
            s += 2.0
        if targets:
            s -= 0.5 * min(moves(facts, region, q) for q in targets)
        return s

    return max(options, key=lambda a: score(a.region) if isinstance(a, act.Retreat) else -1e9)


def answer(
    state: WqState, seat: int, offered: Sequence[act.Action], quest_regions: Iterable[str], moves: Any
) -> act.Action:
    """The bot's answer to the battle's question now (``offered``: the rules' answers, default first)."""
    b = state.battle
    if b is None or not offered:
        return offered[0]
    first = offered[0]
    if isinstance(first, act.Assign) and b.stage == "assign":
        return best_assign(state, offered)
    if isinstance(first, act.PressOn):
        return press_on(state)
    if isinstance(first, act.Retreat):
        return retreat(state, seat, offered, quest_regions, moves)
    if isinstance(first, act.Spell) and first.troop is None and len(offered) > 1:
        return offered[0]
    # arrange, refill, target, spell, breath, pursuit: the table's default, as the odds assume
    return first


def side_kinds(state: WqState, region: str, seat: int) -> list[str]:
    """The troop kinds of one seat in one region."""
    return [t.kind for t in state.troops_in(region, seat)]


def counts_of(kinds: Iterable[str]) -> Mapping[str, int]:
    """Kinds counted."""
    out: dict[str, int] = {}
    for k in kinds:
        out[k] = out.get(k, 0) + 1
    return out
