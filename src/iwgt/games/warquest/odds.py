"""Exact WarQuest battle odds: one attack's (hits, flees) and the chance of winning a whole battle.

The combat die (WQ-CB-01 decision) shows a hit on one face, a flee on one and nothing on four. One attack of
``n`` dice is a trinomial; with a Satyr in the attacking rank (AMBUSH, WQ-SP-07) every flee adds
``AMBUSH_DICE`` more dice, whose flees add more, capped at ``AMBUSH_MAX_EXTRA`` extra dice an attack. The
cascade is computed die by die: rolling the pending dice in waves or one at a time stops at the same die (the
count of dice still owed falls by at most one a die), so the (hits, flees) totals have the same law.

A battle is a Markov chain over the BATTLE engineer's pure kernel (``battle.py``) driven by the table's
default choices (arrangement, target, assignment, refill, spells, never withdrawing; after
``MAX_BATTLE_ROUNDS`` the side worth more gold in the fight wins, WQ-MS-41). The chain only moves forward
(round and step grow), so the odds are a forward sweep of probability mass, one attack at a time, over
canonical states (fighters renumbered in (kind, hits) order so that equivalent states merge; a side is
interned as an int, an attack's effect on the struck side is cached per side, and a layer of states is
advanced at once with numpy). When a layer outgrows its share of the budget (or a tolerance is given), its
least likely states are dropped and their mass is the ``error``: P(attacker wins) lies in [p, p + error]
(and the same for the defender).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from iwgt.games.warquest.battle import (
    ATTACK_ORDER,
    RANKS,
    Battle,
    Fighter,
    Rank,
    Side,
    SideMods,
    SideName,
    ambush,
    apply_assignment,
    apply_refill,
    arranged,
    breath_ready,
    default_arrangement,
    default_assignment,
    default_breath,
    default_refill,
    default_spell_target,
    default_target,
    end_of_round,
    enemy,
    gold_worth,
    loser_at_start,
    new_side,
    rank_dice,
    refill_ranks,
    spell_targets,
    spells,
    stats,
    strike_troop,
    targets,
    used_breath,
)

HIT_FACES = 1
FLEE_FACES = 1
BLANK_FACES = 4
SIDES = HIT_FACES + FLEE_FACES + BLANK_FACES
"""The combat die (WQ-CB-01 decision): ("hit", "flee", "blank" x 4)."""
P_HIT = HIT_FACES / SIDES
P_FLEE = FLEE_FACES / SIDES
P_BLANK = BLANK_FACES / SIDES

Outcomes = tuple[tuple[int, int, float], ...]
"""One attack's law: (hits, flees, probability) of each possible outcome, in (hits, flees) order."""


def _constant(name: str) -> int:
    """A named rule constant from data/rules.toml (never a magic number here)."""
    from iwgt.games.warquest.rules import rules

    value = getattr(rules().constants, name)
    assert isinstance(value, int)
    return value


def round_distribution(dice: int, *, ambush: bool) -> dict[tuple[int, int], float]:
    """The exact law of (hits, flees) of one attack of ``dice`` combat dice, with the AMBUSH cascade
    (WQ-SP-07) when ``ambush`` (capped at AMBUSH_MAX_EXTRA extra dice)."""
    if dice < 0:
        raise ValueError(f"dice: {dice}; an attack rolls 0 dice or more")
    extra = _constant("AMBUSH_MAX_EXTRA") if ambush else 0
    per_flee = _constant("AMBUSH_DICE") if ambush else 0
    return {(h, f): p for h, f, p in attack_outcomes(dice, extra, per_flee)}


@lru_cache(maxsize=4096)
def attack_outcomes(dice: int, cap: int = 0, per_flee: int = 0) -> Outcomes:
    """(hits, flees, probability) of ``dice`` dice where each flee adds ``per_flee`` dice up to ``cap`` extra
    dice in all (``cap = 0``: a plain trinomial)."""
    if cap == 0 or per_flee == 0 or dice == 0:
        return _trinomial(dice)
    # law[h][f]: the chance that, after some dice, h hits and f flees were rolled and dice are still owed.
    # Dice owed after k dice with f flees: dice + min(per_flee * f, cap) - k; a state whose debt is 0 is done.
    live: dict[tuple[int, int], float] = {(0, 0): 1.0}
    done: dict[tuple[int, int], float] = {}
    rolled = 0
    while live:
        rolled += 1
        step: dict[tuple[int, int], float] = {}
        for (h, f), p in live.items():
            for nh, nf, q in ((h + 1, f, P_HIT), (h, f + 1, P_FLEE), (h, f, P_BLANK)):
                owed = dice + min(per_flee * nf, cap) - rolled
                into = done if owed == 0 else step
                into[(nh, nf)] = into.get((nh, nf), 0.0) + p * q
        live = step
    return tuple((h, f, done[(h, f)]) for h, f in sorted(done))


def _trinomial(dice: int) -> Outcomes:
    """The plain law of ``dice`` dice: n! / (h! f! b!) p_hit^h p_flee^f p_blank^b."""
    out = []
    for h in range(dice + 1):
        for f in range(dice - h + 1):
            ways = comb(dice, h) * comb(dice - h, f)
            out.append((h, f, ways * P_HIT**h * P_FLEE**f * P_BLANK ** (dice - h - f)))
    return tuple(out)


def marginals(outcomes: dict[tuple[int, int], float]) -> tuple[dict[int, float], dict[int, float]]:
    """The hits law and the flees law of a joint (hits, flees) law."""
    hits: dict[int, float] = {}
    flees: dict[int, float] = {}
    for (h, f), p in outcomes.items():
        hits[h] = hits.get(h, 0.0) + p
        flees[f] = flees.get(f, 0.0) + p
    return dict(sorted(hits.items())), dict(sorted(flees.items()))


# ---------------------------------------------------------------- a whole battle (a chain over battle.py)

AreaKey = tuple[tuple[int, int], ...]
"""One area's troops as sorted (kind index, hits): fighters of one kind and hits are interchangeable."""
SideKey = tuple[AreaKey, AreaKey, AreaKey, AreaKey, bool]
"""A side's front, rear, reserve, retreat and whether its FIRE BREATH is spent."""
StateKey = tuple[SideKey, SideKey]
"""The attacker's and the defender's SideKey: a canonical battle state between attacks."""


TABLE_BUDGET = 200_000
TABLE_TOLERANCE = 1e-3
"""What a screen may pass (``battle_odds(b, budget=TABLE_BUDGET, tolerance=TABLE_TOLERANCE)``): the least
likely states dropped early (0.1% of the mass at most) leave the budget to the likely ones: 6 against 6 in
0.1..0.5 s of CPU with an error bound under 0.1% (2% with Satyrs' AMBUSH), 10 against 10 in about 0.6 s
with about 2% (benchmarks/warquest_odds.py); without a tolerance a big battle exhausts the budget early."""


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """The chances of a battle's end under the table's default choices; P(attacker wins) lies in
    [p_attacker_wins, p_attacker_wins + error] (the same for the defender); error 0: exact."""

    p_attacker_wins: float
    p_defender_wins: float
    error: float
    rounds_mean: float
    states: int


@dataclass(frozen=True, slots=True)
class _Context:
    """What a battle's chain needs beside its states: the kinds (in their id order at the start, so that the
    kernel's ties between kinds break as in the battle given) and each side's fixed parts."""

    kinds: tuple[str, ...]
    attacker: Side
    defender: Side
    region: str
    came_from: str


def _side_key(s: Side, index: dict[str, int]) -> SideKey:
    def area(fs: tuple[Fighter, ...]) -> AreaKey:
        return tuple(sorted((index[f.kind], f.hits) for f in fs))

    return (area(s.front), area(s.rear), area(s.reserve), area(s.retreat), s.breath_used)


def _encode(ctx: _Context, b: Battle) -> StateKey:
    index = {k: i for i, k in enumerate(ctx.kinds)}
    return (_side_key(b.attacker, index), _side_key(b.defender, index))


def _decode_side(ctx: _Context, template: Side, key: SideKey, first_id: int) -> tuple[Side, int]:
    # ids in (kind, area, hits) order: a kind's troops keep their block, as in the battle given
    items = sorted((k, area, hits) for area in range(4) for k, hits in cast(AreaKey, key[area]))
    areas: list[list[Fighter]] = [[], [], [], []]
    next_id = first_id
    for k, area, hits in items:
        areas[area].append(Fighter(next_id, ctx.kinds[k], hits))
        next_id += 1
    # the constructor, not dataclasses.replace: this runs for every new state and replace is slow
    side = Side(
        template.seat,
        tuple(areas[0]),
        tuple(areas[1]),
        tuple(areas[2]),
        tuple(areas[3]),
        template.leaders,
        template.mods,
        bool(key[4]),
    )
    return side, next_id


def _decode(ctx: _Context, key: StateKey, round_: int, step: int) -> Battle:
    attacker, n = _decode_side(ctx, ctx.attacker, key[0], 1)
    defender, _ = _decode_side(ctx, ctx.defender, key[1], n)
    return Battle(
        region=ctx.region,
        came_from=ctx.came_from,
        attacker=attacker,
        defender=defender,
        round=round_,
        step=step,
        stage="attack",
    )


def _fighter(b: Battle, name: SideName, troop: int) -> Fighter:
    s = b.side(name)
    return next(f for f in s.front + s.rear if f.id == troop)


def _strike(b: Battle, side: SideName, troop: int, dice: int) -> list[tuple[float, Battle]]:
    """A spell's or a breath's dice at one enemy troop (no AMBUSH: WQ-SP-07 is the rank's attack), through
    ``strike_troop``; hits beyond its defence and flees beyond one change nothing, so they merge."""
    f = _fighter(b, enemy(side), troop)
    left = stats(f.kind).defense - f.hits
    merged: dict[tuple[int, int], float] = {}
    for h, fl, p in attack_outcomes(dice):
        k = (min(h, left), min(fl, 1))
        merged[k] = merged.get(k, 0.0) + p
    return [(p, strike_troop(b, side, troop, h, fl)) for (h, fl), p in merged.items()]


def _attack(b: Battle, side: SideName, rank: Rank) -> list[tuple[float, Battle]]:
    """One attack of ATTACK_ORDER as the engine's flow plays it with the table's defaults: the rank's dice at
    the default target, the default assignment; the rank's spells at their default targets; FIRE BREATH at
    the default rank; then the struck side's default refill of its gaps (WQ-CB-11..18, WQ-SP-07/11/12/14)."""
    foe = enemy(side)
    sizes = {r: len(b.side(foe).rank(r)) for r in RANKS}
    branches: list[tuple[float, Battle]] = [(1.0, b)]
    target = default_target(b, side, rank) if targets(b, side, rank) else None
    if target is not None:
        missile = rank == "rear"
        struck = [
            f
            for f in b.side(foe).rank(target)
            if not (missile and "missile_shield" in stats(f.kind).specials)
        ]
        cap_hits = sum(stats(f.kind).defense - f.hits for f in struck)
        merged: dict[tuple[int, int], float] = {}
        amb = ambush(b, side, rank)
        cap = _constant("AMBUSH_MAX_EXTRA") if amb else 0
        per_flee = _constant("AMBUSH_DICE") if amb else 0
        for h, fl, p in attack_outcomes(rank_dice(b, side, rank), cap, per_flee):
            k = (min(h, cap_hits), min(fl, len(struck)))
            merged[k] = merged.get(k, 0.0) + p
        branches = []
        for (h, fl), p in merged.items():
            a = default_assignment(b, side, target, h, fl, missile=missile)
            branches.append((p, apply_assignment(b, side, target, a)))
    for spell in spells(b, side, rank):
        after: list[tuple[float, Battle]] = []
        for p, bb in branches:
            troop = default_spell_target(bb, side, spell)
            if troop is None:
                after.append((p, bb))
                continue
            dice = spell_targets(bb, side, spell)[troop]
            after.extend((p * q, x) for q, x in _strike(bb, side, troop, dice))
        branches = after
    if breath_ready(b, side, rank):
        after = []
        for p, bb in branches:
            burnt = default_breath(bb, side)
            if burnt is None:
                after.append((p, bb))
                continue
            ids = tuple(f.id for f in bb.side(foe).rank(burnt))
            todo = [(p, used_breath(bb, side))]
            for troop in ids:
                nxt: list[tuple[float, Battle]] = []
                for q, x in todo:
                    s = x.side(foe)
                    if any(f.id == troop for f in s.front + s.rear):
                        nxt.extend((q * r, y) for r, y in _strike(x, side, troop, _constant("BREATH_DICE")))
                    else:
                        nxt.append((q, x))
                todo = nxt
            after.extend(todo)
        branches = after
    out: list[tuple[float, Battle]] = []
    for p, bb in branches:
        s = bb.side(foe)
        out.append((p, _refilled(bb, foe, [r for r in RANKS if len(s.rank(r)) < sizes[r]])))
    return out


def _refilled(b: Battle, name: SideName, ranks: Sequence[Rank]) -> Battle:
    """The side's default refill of these ranks where they have room, and of an empty Front whatever was
    struck (compulsory, WQ-MS-43), when it has a Reserve troop (WQ-CB-18), as battle_flow asks it."""
    s = b.side(name)
    gaps = refill_ranks(b, name, [r for r in ranks if len(s.rank(r)) < _constant("MAX_RANK")])
    if gaps and s.reserve and any(len(s.rank(r)) < _constant("MAX_RANK") for r in gaps):
        return apply_refill(b, name, default_refill(b, name, gaps))
    return b


@lru_cache(maxsize=4096)
def _capped(dice: int, amb: bool, cap_hits: int, troops: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """An attack's (hits, flees) law with the hits beyond what the struck troops can take and the flees
    beyond one a troop merged (they change nothing: WQ-CB-14/16)."""
    merged: dict[tuple[int, int], float] = {}
    cap = _constant("AMBUSH_MAX_EXTRA") if amb else 0
    per_flee = _constant("AMBUSH_DICE") if amb else 0
    for h, fl, p in attack_outcomes(dice, cap, per_flee):
        k = (min(h, cap_hits), min(fl, troops))
        merged[k] = merged.get(k, 0.0) + p
    return tuple(merged.items())


Pair = tuple[int, int]
"""A state as the ints of its attacker and defender sides."""


class _Chain:
    """One battle's chain tables: canonical sides interned as ints (a state is a pair of them) and the
    transitions met so far. An attack changes only the struck side (and a breath's use), so most
    transitions are cached per struck side alone and shared by every state with that side."""

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx
        self.index = {k: i for i, k in enumerate(ctx.kinds)}
        self.ids: dict[SideKey, int] = {}
        self.keys: list[SideKey] = []
        self.specials: dict[tuple[int, int, bool, int], tuple[tuple[float, Pair], ...]] = {}
        self.struck: dict[tuple[int, SideName, Rank, int, int, bool], int] = {}
        self.refills: dict[tuple[int, SideName, tuple[Rank, ...]], int] = {}
        self.ends: dict[tuple[int, SideName], tuple[bool, int]] = {}
        self.worths: dict[int, int] = {}
        self.side_flags: dict[int, tuple[bool, bool]] = {}
        self.infos: dict[tuple[int, int, bool, tuple[bool, bool]], tuple[int, bool, bool]] = {}
        self.aims: dict[tuple[int, int], tuple[Rank, int, int] | None] = {}
        self.hits: dict[tuple[int, int, int, int], int] = {}
        self.laws: dict[tuple[int, int, int, bool], tuple[tuple[int, ...], tuple[float, ...]]] = {}

    def intern(self, key: SideKey) -> int:
        """The int of a canonical side."""
        i = self.ids.get(key)
        if i is None:
            i = self.ids[key] = len(self.keys)
            self.keys.append(key)
        return i

    def encode(self, b: Battle) -> tuple[int, int]:
        """A battle as the pair of its sides' ints."""
        return (
            self.intern(_side_key(b.attacker, self.index)),
            self.intern(_side_key(b.defender, self.index)),
        )

    def decode(self, state: tuple[int, int], round_: int, step: int) -> Battle:
        """A battle of the pair (fighters renumbered, kinds in their blocks)."""
        return _decode(self.ctx, (self.keys[state[0]], self.keys[state[1]]), round_, step)

    def _one(self, name: SideName, side: int) -> Battle:
        # a battle whose only meaningful side is ``name`` (the other side's areas are empty)
        pair = (side, self.intern(((), (), (), (), False)))
        if name == "defender":
            pair = (pair[1], pair[0])
        return self.decode(pair, 2, 0)

    def strike(self, foe: SideName, side: int, target: Rank, hits: int, flees: int, missile: bool) -> int:
        """The struck side after the default assignment of (hits, flees) on its ``target`` rank."""
        memo = (side, foe, target, hits, flees, missile)
        out = self.struck.get(memo)
        if out is None:
            b = self._one(foe, side)
            a = default_assignment(b, enemy(foe), target, hits, flees, missile=missile)
            after = apply_assignment(b, enemy(foe), target, a)
            out = self.struck[memo] = self.intern(_side_key(after.side(foe), self.index))
        return out

    def refill(self, foe: SideName, before: int, side: int) -> int:
        """The struck side after its default refill of the ranks the attack thinned (WQ-CB-18)."""
        was, now = self.keys[before], self.keys[side]
        gaps = tuple(
            r for i, r in enumerate(RANKS) if len(cast(AreaKey, now[i])) < len(cast(AreaKey, was[i]))
        )
        if not now[2] or (not gaps and now[0]):
            return side  # no Reserve, or nothing struck and a Front standing: no refill
        memo = (side, foe, gaps)
        out = self.refills.get(memo)
        if out is None:
            after = _refilled(self._one(foe, side), foe, gaps)
            out = self.refills[memo] = self.intern(_side_key(after.side(foe), self.index))
        return out

    def flags(self, side: int) -> tuple[bool, bool]:
        """Whether a side has an Earth Wizard (WALL) and an Air Wizard (MISSILE SHIELD) in the battle
        (ranks or Reserve, WQ-SP-08/10 decisions): all that the enemy's dice need to know of it."""
        out = self.side_flags.get(side)
        if out is None:
            kinds = {self.ctx.kinds[k] for area in self.keys[side][:3] for k, _ in area}
            out = self.side_flags[side] = (
                any("wall" in stats(k).specials for k in kinds),
                any("missile_shield" in stats(k).specials for k in kinds),
            )
        return out

    def info(self, state: Pair, first: bool, step: int) -> tuple[int, bool, bool]:
        """(dice, AMBUSH, special) of the attack of ATTACK_ORDER[step]: they depend on the attacking side,
        the round and the enemy's wizards only; special: a wizard or the dragon attacks too (spells)."""
        side, rank = ATTACK_ORDER[step]
        mine, theirs = (state[0], state[1]) if side == "attacker" else (state[1], state[0])
        key = (mine, step, first, self.flags(theirs))
        out = self.infos.get(key)
        if out is None:
            b = self.decode(state, 1 if first else 2, step)
            out = self.infos[key] = (
                rank_dice(b, side, rank),
                ambush(b, side, rank),
                bool(spells(b, side, rank)) or breath_ready(b, side, rank),
            )
        return out

    def law(
        self, state: tuple[int, int], first: bool, step: int
    ) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The struck side's ints after the attack (a plain one: no spell, no breath) and their chances; one
        struck side and the same dice give the same law, whoever attacks."""
        side, rank = ATTACK_ORDER[step]
        foe = enemy(side)
        theirs = state[1] if side == "attacker" else state[0]
        dice, amb, _ = self.info(state, first, step)
        key = (theirs, step, dice, amb)
        out = self.laws.get(key)
        if out is not None:
            return out
        aim = None
        if dice:
            # the target and how much it can take depend on the struck side only (given some dice)
            aim_key = (theirs, step)
            if aim_key in self.aims:
                aim = self.aims[aim_key]
            else:
                b = self.decode(state, 1 if first else 2, step)
                target = default_target(b, side, rank) if targets(b, side, rank) else None
                if target is not None:
                    missile = rank == "rear"
                    hittable = [
                        f
                        for f in b.side(foe).rank(target)
                        if not (missile and "missile_shield" in stats(f.kind).specials)
                    ]
                    aim = (target, sum(stats(f.kind).defense - f.hits for f in hittable), len(hittable))
                self.aims[aim_key] = aim
        if aim is None:
            out = self.laws[key] = ((theirs,), (1.0,))
            return out
        target, cap_hits, hittable_n = aim
        merged: dict[int, float] = {}
        for (h, fl), p in _capped(dice, amb, cap_hits, hittable_n):
            hit_key = (theirs, step, h, fl)
            after = self.hits.get(hit_key)
            if after is None:
                after = self.hits[hit_key] = self.refill(
                    foe, theirs, self.strike(foe, theirs, target, h, fl, rank == "rear")
                )
            merged[after] = merged.get(after, 0.0) + p
        out = self.laws[key] = (tuple(merged), tuple(merged.values()))
        return out

    def special(self, state: Pair, first: bool, step: int) -> tuple[tuple[float, Pair], ...]:
        """An attack with a wizard's spell or the dragon's breath: the whole battle through the kernel."""
        memo = (state[0], state[1], first, step)
        out = self.specials.get(memo)
        if out is None:
            side, rank = ATTACK_ORDER[step]
            merged: dict[Pair, float] = {}
            for p, nb in _attack(self.decode(state, 1 if first else 2, step), side, rank):
                k = self.encode(nb)
                merged[k] = merged.get(k, 0.0) + p
            if len(self.specials) >= STEPS_KEPT:
                self.specials.clear()
            out = self.specials[memo] = tuple((p, k) for k, p in merged.items())
        return out

    def end(self, name: SideName, side: int) -> tuple[bool, int]:
        """A side at the round's end: whether it has lost every troop in the ranks and the Reserve (WQ-MS-41),
        and the side after REGENERATE, RALLY (WQ-SP-13, WQ-CB-20) and its default refill of both ranks."""
        memo = (side, name)
        out = self.ends.get(memo)
        if out is None:
            b = end_of_round(self._one(name, side))
            beaten = not b.side(name).fighting()
            b = _refilled(b, name, RANKS)
            out = self.ends[memo] = (beaten, self.intern(_side_key(b.side(name), self.index)))
        return out

    def worth(self, side: int) -> int:
        """The gold worth of a side's troops in the ranks and the Reserve (``battle.gold_worth``): what
        decides a battle still undecided after the last round (WQ-MS-41)."""
        out = self.worths.get(side)
        if out is None:
            key = self.keys[side]
            areas: tuple[AreaKey, ...] = (key[0], key[1], key[2])  # front, rear, reserve
            total = 0
            for area in areas:
                total += sum(gold_worth(self.ctx.kinds[k]) for k, _ in area)
            out = self.worths[side] = total
        return out


def clear_caches() -> None:
    """Forget every cached chain and result (benchmarks time the cold case with it)."""
    _chains.clear()
    _battle_odds.cache_clear()
    _capped.cache_clear()
    attack_outcomes.cache_clear()


_chains: dict[_Context, _Chain] = {}
CHAINS = 8
"""Battles whose chain tables are kept (a table's selection asks about a few destinations at a time; a big
battle's tables take some tens of megabytes, so a long-lived server keeps only a few)."""
STEPS_KEPT = 200_000
"""Cached spell and breath attacks a chain keeps (per state); beyond, they are forgotten."""


def _chain(ctx: _Context) -> _Chain:
    chain = _chains.get(ctx)
    if chain is None:
        if len(_chains) >= CHAINS:
            _chains.clear()
        chain = _chains[ctx] = _Chain(ctx)
    return chain


def _arranged(b: Battle) -> Battle:
    """The battle with each side still to arrange set up by the table's default (WQ-MS-43: the defender
    first), as the flow does before round 1; a battle already under way is taken at its step."""
    if b.stage not in ("arrange_defender", "arrange_attacker"):
        return b
    names: tuple[SideName, ...] = ("defender", "attacker") if b.stage == "arrange_defender" else ("attacker",)
    for name in names:
        s = b.side(name)
        if s.fighting():
            front, rear, _ = default_arrangement(s.fighting())
            b = b.with_side(name, arranged(s, [f.id for f in front], [f.id for f in rear]))
    return replace(b, stage="attack", step=0)


def battle_odds(b: Battle, *, budget: int = 200_000, tolerance: float = 0.0) -> BattleOdds:
    """The chance that each side wins the battle ``b`` under the table's default choices (arrangement,
    target, assignment, spells, breath, refills; the attacker never withdraws; a battle still undecided after
    MAX_BATTLE_ROUNDS goes to the side worth more gold in the fight, WQ-MS-41).

    Exact while the states fit ``budget`` (and ``tolerance`` is 0); else each attack's least likely states
    are dropped (at most ``tolerance`` of the mass in all, and as many more as the budget needs) and the
    mass dropped is ``error`` (WQ-CB, WQ-SP, WQ-MS-41)."""
    early = loser_at_start(b) if b.stage in ("arrange_defender", "arrange_attacker") else None
    if early is not None:
        return BattleOdds(float(early == "defender"), float(early == "attacker"), 0.0, 0.0, 1)
    if b.stage not in ("arrange_defender", "arrange_attacker", "attack", "press_on", "round_refill"):
        raise ValueError(f"battle_odds: a battle between attacks, not at stage {b.stage!r}")
    b = _arranged(b)
    if b.stage in ("press_on", "round_refill"):
        # between rounds: the refills of the round's start, then the round from its first attack
        b = replace(_refilled(_refilled(b, "defender", RANKS), "attacker", RANKS), stage="attack", step=0)
    first_id: dict[str, int] = {}
    for f in sorted(b.attacker.everyone() + b.defender.everyone(), key=lambda f: f.id):
        first_id.setdefault(f.kind, f.id)
    # only the kinds, the powers and the number of leaders (RALLY) matter to the chain: seats, leader ids and
    # regions are left out, so that the same armies anywhere share one chain and one result
    ctx = _Context(
        kinds=tuple(first_id),
        attacker=Side(0, leaders=tuple(range(len(b.attacker.leaders))), mods=b.attacker.mods),
        defender=Side(1, leaders=tuple(range(len(b.defender.leaders))), mods=b.defender.mods),
        region="",
        came_from="",
    )
    return _battle_odds(ctx, _encode(ctx, b), b.round, b.step, budget, tolerance)


@lru_cache(maxsize=256)
def _battle_odds(
    ctx: _Context, start: StateKey, round_: int, step: int, budget: int, tolerance: float
) -> BattleOdds:
    """The odds from ``start`` (cached per canonical start): the forward sweep over the battle's chain."""
    chain = _chain(ctx)
    return _sweep(chain, (chain.intern(start[0]), chain.intern(start[1])), round_, step, budget, tolerance)


def _layer_attack(
    chain: _Chain, a: NDArray[np.int64], d: NDArray[np.int64], p: NDArray[np.float64], first: bool, step: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """One attack of ATTACK_ORDER on a whole layer at once (numpy): the attack's dice are looked up once per
    distinct (attacking side, enemy wizards), the struck side's law once per distinct (struck side, dice),
    and spread over every state holding them; attacks with a spell or a breath go pair by pair through
    the kernel."""
    attacking = ATTACK_ORDER[step][0] == "attacker"
    mine, theirs = (a, d) if attacking else (d, a)
    # the enemy's wizards (WALL, MISSILE SHIELD) as a code 0..3 per state
    uniq_t, t_inv = np.unique(theirs, return_inverse=True)
    codes = np.array([2 * f[0] + f[1] for f in map(chain.flags, uniq_t.tolist())], dtype=np.int64)
    # (dice, AMBUSH, special) per distinct (attacking side, code), from one state holding it
    keys = mine * 4 + codes[t_inv]
    _, m_first, m_inv = np.unique(keys, return_index=True, return_inverse=True)
    infos = [chain.info((int(a[i]), int(d[i])), first, step) for i in m_first.tolist()]
    dice = np.array([x[0] for x in infos], dtype=np.int64)[m_inv]
    amb = np.array([x[1] for x in infos], dtype=np.int64)[m_inv]
    spec = np.array([x[2] for x in infos], dtype=bool)[m_inv]
    out_a: list[NDArray[np.int64]] = []
    out_d: list[NDArray[np.int64]] = []
    out_p: list[NDArray[np.float64]] = []
    if spec.any():
        pairs = a[spec] << 32 | d[spec]
        uniq_s, s_inv = np.unique(pairs, return_inverse=True)
        masses = np.bincount(s_inv, weights=p[spec], minlength=len(uniq_s))
        sa: list[int] = []
        sd: list[int] = []
        sp: list[float] = []
        for pair, mass in zip(uniq_s.tolist(), masses.tolist(), strict=True):
            for q, (na, nd) in chain.special((pair >> 32, pair & 0xFFFFFFFF), first, step):
                sa.append(na)
                sd.append(nd)
                sp.append(mass * q)
        out_a.append(np.array(sa, dtype=np.int64))
        out_d.append(np.array(sd, dtype=np.int64))
        out_p.append(np.array(sp, dtype=np.float64))
    plain = ~spec
    if plain.any():
        idx = np.flatnonzero(plain)
        group_keys = (theirs[idx] << 16) | (dice[idx] << 1) | amb[idx]
        _, g_first, g_of = np.unique(group_keys, return_index=True, return_inverse=True)
        blocks = [chain.law((int(a[i]), int(d[i])), first, step) for i in idx[g_first].tolist()]
        counts = np.array([len(b[0]) for b in blocks], dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(counts)[:-1]))
        flat_after = np.fromiter((t for b in blocks for t in b[0]), dtype=np.int64)
        flat_prob = np.fromiter((q for b in blocks for q in b[1]), dtype=np.float64)
        reps = counts[g_of]
        rows = np.repeat(np.arange(len(idx)), reps)
        within = np.arange(len(rows)) - np.repeat(np.cumsum(reps) - reps, reps)
        pick = offsets[g_of][rows] + within
        kept = mine[idx][rows]
        struck = flat_after[pick]
        out_a.append(kept if attacking else struck)
        out_d.append(struck if attacking else kept)
        out_p.append(p[idx][rows] * flat_prob[pick])
    return _merged(np.concatenate(out_a), np.concatenate(out_d), np.concatenate(out_p))


def _merged(
    a: NDArray[np.int64], d: NDArray[np.int64], p: NDArray[np.float64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """Equal states added together."""
    pairs = a << 32 | d
    uniq, inverse = np.unique(pairs, return_inverse=True)
    mass: NDArray[np.float64] = np.bincount(inverse, weights=p, minlength=len(uniq)).astype(np.float64)
    high: NDArray[np.int64] = (uniq >> 32).astype(np.int64)
    low: NDArray[np.int64] = (uniq & 0xFFFFFFFF).astype(np.int64)
    return high, low, mass


def _side_ends(
    chain: _Chain, name: SideName, ids: NDArray[np.int64]
) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """Each side at the round's end (``chain.end``), looked up once per distinct side."""
    uniq, inverse = np.unique(ids, return_inverse=True)
    ends = [chain.end(name, int(i)) for i in uniq.tolist()]
    beaten = np.array([e[0] for e in ends], dtype=bool)
    after = np.array([e[1] for e in ends], dtype=np.int64)
    return beaten[inverse], after[inverse]


def _worths(chain: _Chain, ids: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each side's gold worth in the fight (``chain.worth``), looked up once per distinct side."""
    uniq, inverse = np.unique(ids, return_inverse=True)
    values = np.array([chain.worth(int(i)) for i in uniq.tolist()], dtype=np.int64)
    return values[inverse]


def _prune_arrays(
    a: NDArray[np.int64], d: NDArray[np.int64], p: NDArray[np.float64], room: int, allowance: float
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], float]:
    """The layer without its least likely states: as many as ``room`` demands, and beyond that as many as
    fit in ``allowance`` of mass; returns the kept layer and the mass dropped."""
    if len(p) <= room and allowance <= 0:
        return a, d, p, 0.0
    order = np.argsort(p, kind="stable")
    cut = max(0, len(p) - room)
    sums = np.cumsum(p[order])
    dropped_forced = float(sums[cut - 1]) if cut else 0.0
    # beyond the forced cut, drop while the total stays within the allowance
    more = int(np.searchsorted(sums, dropped_forced + allowance, side="right"))
    cut = max(cut, min(more, len(p)))
    dropped = float(sums[cut - 1]) if cut else 0.0
    keep = order[cut:]
    return a[keep], d[keep], p[keep], dropped


def _sweep(chain: _Chain, start: Pair, round_: int, step: int, budget: int, tolerance: float) -> BattleOdds:
    """The forward sweep of probability mass, attack by attack, over whole layers (numpy)."""
    last = _constant("MAX_BATTLE_ROUNDS")
    layers = (last - round_ + 1) * (len(ATTACK_ORDER) + 1) - step
    allowance = tolerance / layers  # per layer: the dropped mass stays within the tolerance in all
    a = np.array([start[0]], dtype=np.int64)
    d = np.array([start[1]], dtype=np.int64)
    p = np.array([1.0])
    won_attacker = won_defender = rounds_total = error = 0.0
    states = 1
    r, s = round_, step
    while len(p):
        if s < len(ATTACK_ORDER):
            a, d, p = _layer_attack(chain, a, d, p, r == 1, s)
            s += 1
        else:
            a_out, na = _side_ends(chain, "attacker", a)
            d_out, nd = _side_ends(chain, "defender", d)
            # both beaten: the defender holds (WQ-MS-41); after the last round, both standing, the side worth
            # less gold in the ranks and Reserve loses (equal: the defender holds, battle.loser_at_cap)
            attacker_lost = a_out.copy()
            defender_lost = d_out & ~a_out
            if r + 1 > last:
                standing = ~a_out & ~d_out
                richer = _worths(chain, na) > _worths(chain, nd)
                attacker_lost |= standing & ~richer
                defender_lost |= standing & richer
            ended = attacker_lost | defender_lost
            won_defender += float(p[attacker_lost].sum())
            won_attacker += float(p[defender_lost].sum())
            rounds_total += float(p[ended].sum()) * r
            a, d, p = _merged(na[~ended], nd[~ended], p[~ended])
            r, s = r + 1, 0
        layers -= 1
        a, d, p, dropped = _prune_arrays(a, d, p, max(1, (budget - states) // max(1, layers)), allowance)
        error += dropped
        states += len(p)
    settled = won_attacker + won_defender
    return BattleOdds(
        p_attacker_wins=won_attacker,
        p_defender_wins=won_defender,
        error=error,
        rounds_mean=rounds_total / settled if settled else 0.0,
        states=states,
    )


def rank_previews(b: Battle) -> dict[str, dict[str, dict[str, Any]]]:
    """Each rank's first-round attack as the table shows it before a move into battle: its dice and the exact
    law of its hits and of its flees (string keys, JSON-ready); the ranks as the table's default arrangement
    sets them up (WQ-CB-09..11, WQ-SP-05..10; AMBUSH included; spells are not in a rank's dice)."""
    b = _arranged(b) if b.stage in ("arrange_defender", "arrange_attacker") else b
    out: dict[str, dict[str, dict[str, Any]]] = {"attacker": {}, "defender": {}}
    cap = _constant("AMBUSH_MAX_EXTRA")
    per_flee = _constant("AMBUSH_DICE")
    for side, rank in ATTACK_ORDER:
        attacks = bool(targets(b, side, rank))
        dice = rank_dice(b, side, rank) if attacks else 0
        amb = attacks and ambush(b, side, rank)
        law = attack_outcomes(dice, cap if amb else 0, per_flee if amb else 0)
        hits, flees = marginals({(h, f): p for h, f, p in law})
        out[side][rank] = {
            "dice": dice,
            "ambush": amb,
            "hits": {str(k): v for k, v in hits.items()},
            "flees": {str(k): v for k, v in flees.items()},
        }
    return out


def side_mods(powers: Sequence[str], *, defending: bool) -> SideMods:
    """A side's modifiers from power card keys, as ``powers.side_mods`` sums them for a seat holding them
    (``defend_dice`` only when defending; a ``battle_dice`` event card in round 1)."""
    from iwgt.games.warquest.powers import AMOUNT
    from iwgt.games.warquest.rules import rules

    by_key = {card.key: card for card in rules().powers.values()}
    totals = {"front": 0, "rear": 0, "defend": 0, "rally": 0, "pursuit": 0, "first": 0}
    for key in powers:
        card = by_key[key]
        n = int(cast(int, card.params.get(AMOUNT.get(card.effect, ""), 0)))
        if card.effect == "rank_dice":
            totals["front" if card.params.get("rank") == "front" else "rear"] += n
        elif card.effect == "defend_dice":
            totals["defend"] += n if defending else 0
        elif card.effect == "rally":
            totals["rally"] += n
        elif card.effect == "pursuit":
            totals["pursuit"] += n
        elif card.effect == "battle_dice":
            totals["first"] += n
    return SideMods(
        front_dice=totals["front"],
        rear_dice=totals["rear"],
        defend_dice=totals["defend"],
        rally_extra=totals["rally"],
        pursuit_dice=totals["pursuit"],
        first_round_dice=totals["first"],
    )


def battle_from_armies(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    attacker_leaders: int = 1,
    defender_leaders: int = 1,
    attacker_powers: Sequence[str] = (),
    defender_powers: Sequence[str] = (),
) -> Battle:
    """A battle about to be arranged between two armies given as {kind: count} (troop ids from 1 in the
    order given, the attacker's first; then the leaders), as ``battle_flow.begin_battle`` starts one."""
    next_id = 1
    fighters: list[list[Fighter]] = [[], []]
    for i, army in enumerate((attacker, defender)):
        for kind, n in army.items():
            for _ in range(n):
                fighters[i].append(Fighter(next_id, kind))
                next_id += 1
    a_leaders = range(next_id, next_id + attacker_leaders)
    d_leaders = range(next_id + attacker_leaders, next_id + attacker_leaders + defender_leaders)
    return Battle(
        region="battlefield",
        came_from="march",
        attacker=new_side(0, fighters[0], a_leaders, side_mods(attacker_powers, defending=False)),
        defender=new_side(1, fighters[1], d_leaders, side_mods(defender_powers, defending=True)),
        stage="arrange_defender",
    )
