"""The WarQuest bot: each action of its turn the best by one step of look-ahead over a value of the position.

Each call reads the seat's observation (its own hand) and gives one action:

1. a battle's question: ``bot.battle.answer`` (defaults the odds assume, the best assignment, press on or
   withdraw by the exact odds, the safest retreat);
2. a Rule of Five discard: the power card it values least;
3. placing: the region nearest its quests' locations (a people's land to recruit in, away from other
   warlords), with a mixed starting army that leaves gold for a Lieutenant;
4. its turn: every offered action (and a few recruit sizes) is tried on a copy of the game in which every
   card the seat cannot see is redrawn (``resample_hidden``: the bot never reads a hidden fact) and the
   position after it is valued (``view.value``); a quest is valued by the exact chance of its 2d6 roll; a
   move into a battle by the exact battle odds (``odds.battle_odds``), and only a battle the odds say it
   wins (with a quick strength screen first, the exact odds on the few that pass). The best action is taken
   while it adds worth; else the turn ends.

Deterministic by its seed (the seed only drives the redrawing of hidden cards and breaks near ties).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from iwgt.core.chance import SplitMix64
from iwgt.core.errors import GameError
from iwgt.core.protocol import Seat
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle as K
from iwgt.games.warquest.bot import battle as fight
from iwgt.games.warquest.bot.view import (
    GUARD,
    NEW_QUEST,
    QUEST_REACH,
    STAND_SHARE,
    VP,
    conquer_gain,
    hand_of,
    map_facts,
    moves_between,
    quest_worth,
    rounds_left,
    troop_cost,
    value,
)
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import WqState

WIN_AT_LEAST = 0.7
"""The bot moves into a battle only when the exact odds give it at least this chance of winning."""
SCREEN_RATIO = 1.4
"""A battle is looked at with the exact odds only if the bot's army is this much stronger (quick measure)."""
EXACT_PER_DECISION = 2
"""The most battles weighed with the exact odds in one decision (the strongest-looking first)."""
LOSS_SHARE = 0.75
"""The share of the moving army's worth a lost battle costs (the pursuit and the fallen)."""
WEAR_SHARE = 0.25
"""The share of the moving army's worth even a won battle costs, scaled by the enemy's relative strength."""
START_ARMY = ("dwarf_foot", "orc_foot", "elf_archer", "orc_foot", "dwarf_foot", "goblin_archer", "orc_archer")
"""The starting army, bought in this order while the gold allows (a shield line, rage, missiles)."""
START_SPEND = 20
"""Gold the starting army may cost: the rest pays for a Lieutenant at the first city."""
JITTER = 1e-6
"""The size of the seeded tie-breaker."""


def _moved(state: WqState, move: act.Move) -> WqState:
    """The board after an offered move into a region without another player's pieces (only the pieces'
    regions and the moved marks change, as ``movement.apply_move`` does; far cheaper than the whole step)."""
    dest = move.path[-1]
    ids = set(move.troops)
    leaders = tuple(replace(ld, region=dest) if ld.id == move.leader else ld for ld in state.leaders)
    troops = tuple(replace(t, region=dest) if t.id in ids else t for t in state.troops)
    marks = replace(state.marks, moved=state.marks.moved | ids | {move.leader})
    return replace(state, leaders=leaders, troops=troops, marks=marks)


class WqBot:
    """Plans its turn's three actions from its own observation; answers battles by the exact odds."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = SplitMix64(seed)
        self.seed = seed
        self.observe_seconds = 0.0
        self._odds: dict[tuple[Any, ...], float] = {}

    # ------------------------------------------------------------------ entry

    def choose(self, state: WqState, seat: Seat) -> act.Action:
        """The bot's action for ``seat`` now."""
        t = time.perf_counter()
        obs = self.game.observe(state, seat)
        self.observe_seconds += time.perf_counter() - t
        legal: list[act.Action] = list(self.game.legal_actions(state, seat))
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        quests, conquests = hand_of(obs)
        # A planning error is a bug: it is raised, never turned into "the first legal action".
        if state.battle is not None:
            regions = self._quest_regions(state, quests)
            answer: act.Action = fight.answer(state, seat, legal, regions, moves_between)
            return answer
        if isinstance(legal[0], act.Discard):
            return self._discard(state, seat, legal, quests)
        if isinstance(legal[0], act.Place):
            return self._place(state, seat, legal, quests)
        return self._turn(state, seat, legal, quests, conquests)

    # ------------------------------------------------------------------ helpers

    def _quest_regions(self, state: WqState, quests: Sequence[int]) -> list[str]:
        m = map_facts(state.scenario.map).wq
        return [m.location_region[rules().quests[q].location] for q in quests]

    def _jitter(self) -> float:
        return JITTER * self.rng.below(1000)

    def _world(self, state: WqState, seat: int) -> WqState:
        """A state the seat cannot tell from ``state`` (every hidden card redrawn by the bot's own dice)."""
        world: WqState = self.game.resample_hidden(state, seat, self.rng.below)
        return world

    # ------------------------------------------------------------------ discard (WQ-PW-07/08)

    def _keep(self, state: WqState, seat: int, card: int) -> float:
        p = rules().powers[card]
        n = sum(int(v) for v in p.params.values() if isinstance(v, int))
        left = rounds_left(state)
        if p.effect == "vp":
            return VP * n + 5
        if p.effect == "quest_bonus":
            return 25.0 * n
        if p.effect == "income":
            return 0.8 * n * left
        if p.effect == "wraith_king":
            return 12.0
        return 0.5 * p.cost

    def _discard(
        self, state: WqState, seat: int, legal: Sequence[act.Action], quests: Sequence[int]
    ) -> act.Action:
        options = [a for a in legal if isinstance(a, act.Discard)]
        return min(options, key=lambda a: (self._keep(state, seat, a.card), a.card))

    # ------------------------------------------------------------------ placing (WQ-SU-13..17)

    def _place(
        self, state: WqState, seat: int, legal: Sequence[act.Action], quests: Sequence[int]
    ) -> act.Action:
        facts = map_facts(state.scenario.map)
        m = facts.wq
        regions = sorted({a.region for a in legal if isinstance(a, act.Place)})
        qs = [(q, m.location_region[rules().quests[q].location]) for q in quests]
        others = {ld.region for ld in state.leaders if ld.seat != seat}

        def score(region: str) -> float:
            r = m.regions[region]
            s = 0.0
            for q, qr in qs:
                d = moves_between(facts, region, qr)
                s += QUEST_REACH[min(d, len(QUEST_REACH) - 1)] * quest_worth(state, seat, q)
            if r.people in ("goblin", "elf", "dwarf", "satyr", "orc", "bugbear"):
                s += 6.0
            if r.city:
                s += 4.0
            if r.battlefield:
                s += 2.0
            for o in others:
                if moves_between(facts, region, o) <= 1:
                    s -= 15.0
            return s + self._jitter()

        region = max(regions, key=score)
        troops = self._start_army(state, seat)
        return act.Place(region, troops)

    def _start_army(self, state: WqState, seat: int) -> act.Counts:
        from iwgt.games.warquest.powers import pool_left

        gold = min(START_SPEND, state.players[seat].gold)
        bought: dict[str, int] = {}
        progress = True
        while progress:
            progress = False
            for kind in START_ARMY:
                cost = troop_cost(kind)
                if cost <= gold and pool_left(state, kind) - bought.get(kind, 0) > 0:
                    bought[kind] = bought.get(kind, 0) + 1
                    gold -= cost
                    progress = True
        return act.counts(bought)

    # ------------------------------------------------------------------ the turn

    def _recruit_sizes(self, state: WqState, seat: int, legal: Sequence[act.Action]) -> list[act.Action]:
        """Besides the offered sizes (one, the most), a size that keeps some gold back."""
        out: list[act.Action] = []
        gold = state.players[seat].gold
        seen: set[tuple[str, str]] = set()
        for a in legal:
            if not isinstance(a, act.Recruit) or len(a.troops) != 1:
                continue
            kind, _ = a.troops[0]
            if (a.region, kind) in seen:
                continue
            seen.add((a.region, kind))
            cost = troop_cost(kind)
            for keep in (8, 14):
                n = (gold - keep) // max(1, cost)
                if n >= 2:
                    out.append(act.Recruit(a.region, act.counts({kind: n})))
        return out

    def _split_moves(self, state: WqState, seat: int, legal: Sequence[act.Action]) -> list[act.Action]:
        """Besides the offered moves (all the unmoved troops, or the leader alone): where two of its leaders
        share a region, a move with a small guard (the cheapest troops worth GUARD gold), and one with all
        but that guard (so each leader keeps some troops: a leader alone is a free battle for the enemy)."""
        out: list[act.Action] = []
        guards: dict[int, tuple[int, ...]] = {}
        for a in legal:
            if not isinstance(a, act.Move) or len(a.troops) < 2:
                continue
            ld = state.leader(a.leader)
            if ld is None or len(state.leaders_in(ld.region, seat)) < 2:
                continue
            if a.leader not in guards:
                troops = sorted(
                    (t for t in state.troops if t.id in set(a.troops)),
                    key=lambda t: (troop_cost(t.kind), t.id),
                )
                guard: list[int] = []
                spent = 0
                for t in troops:
                    if spent >= GUARD:
                        break
                    guard.append(t.id)
                    spent += troop_cost(t.kind)
                guards[a.leader] = tuple(sorted(guard))
            guard_ids = guards[a.leader]
            rest = tuple(i for i in a.troops if i not in set(guard_ids))
            if rest:
                out.append(act.Move(a.leader, guard_ids, a.path))
                out.append(act.Move(a.leader, rest, a.path))
        return out

    def _turn(
        self,
        state: WqState,
        seat: int,
        legal: Sequence[act.Action],
        quests: Sequence[int],
        conquests: Sequence[int],
    ) -> act.Action:
        world = self._world(state, seat)
        base = value(world, seat, quests, conquests)
        best: act.Action = act.EndTurn()
        best_gain = 0.0
        battles: list[tuple[float, act.Move, str]] = []
        occupied = world.occupied()
        candidates = [
            *legal,
            *self._recruit_sizes(state, seat, legal),
            *self._split_moves(world, seat, legal),
        ]
        for a in candidates:
            if isinstance(a, act.EndTurn):
                continue
            if isinstance(a, act.Quest):
                gain = self._quest_gain(world, seat, a.card, quests)
            elif isinstance(a, act.Move) and (occupied.get(a.path[-1], frozenset()) - {seat}):
                ratio = self._ratio(world, seat, a)
                if ratio >= SCREEN_RATIO:
                    battles.append((ratio, a, a.path[-1]))
                continue
            elif isinstance(a, act.Move):
                gain = value(_moved(world, a), seat, quests, conquests) - base
            else:
                try:
                    after, _ = self.game.apply(world, a)
                except GameError:
                    continue
                if after.battle is not None or after.pending:
                    continue  # a free gain asking a discard: weighed as nothing
                gain = value(after, seat, quests, conquests) - base
            gain += self._jitter()
            if gain > best_gain:
                best, best_gain = a, gain
        # the battles: the strongest-looking few, by the exact odds
        battles.sort(key=lambda x: -x[0])
        for _, move, region in battles[:EXACT_PER_DECISION]:
            gain = self._battle_gain(world, seat, move, region, conquests)
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def _quest_gain(self, state: WqState, seat: int, card: int, quests: Sequence[int]) -> float:
        """A quest attempted now: its expected worth by the exact chance of the roll, and a new card drawn,
        less the worth the card had in hand (a leader at its location)."""
        qw = quest_worth(state, seat, card)
        return qw * (1.0 - QUEST_REACH[0]) + NEW_QUEST

    def _ratio(self, state: WqState, seat: int, move: act.Move) -> float:
        region = move.path[-1]
        theirs = [t.kind for t in state.troops if t.region == region and t.seat != seat]
        mine = [t.kind for t in state.troops if t.id in set(move.troops)]
        if not theirs:
            return 1e6  # a defender with no troops loses at once (WQ-MS-41)
        if not mine:
            return 0.0
        return fight.strength(mine) / max(1e-9, fight.strength(theirs, defending=True))

    def _battle_gain(
        self, state: WqState, seat: int, move: act.Move, region: str, conquests: Sequence[int]
    ) -> float:
        """The worth of a move into battle: the exact chance of winning times a battle's VP (and a stand on
        the enemy's region), less the expected cost to the moving army."""
        try:
            after, _ = self.game.apply(state, move)
        except GameError:
            return -1.0
        mine = [t.kind for t in state.troops if t.id in set(move.troops)]
        theirs = [t.kind for t in state.troops if t.region == region and t.seat != seat]
        b = after.battle
        if b is None:
            p = 1.0 if after.players[seat].battles_won > state.players[seat].battles_won else 0.0
        elif b.winner is not None:
            p = 1.0 if b.winner == "attacker" else 0.0
        else:
            key = (tuple(sorted(mine)), tuple(sorted(theirs)), b.attacker.mods, b.defender.mods)
            if key not in self._odds:
                self._odds[key] = fight.exact_win(b)
            p = self._odds[key]
        if p < WIN_AT_LEAST:
            return -1.0
        army = sum(troop_cost(k) for k in mine)
        rel = fight.strength(theirs, defending=True) / max(1e-9, fight.strength(mine)) if theirs else 0.0
        m = map_facts(state.scenario.map).wq
        win = VP * K.const("BATTLE_VP") + STAND_SHARE * conquer_gain(state, seat, region, conquests, m)
        return p * win - (1 - p) * LOSS_SHARE * army - WEAR_SHARE * army * min(1.0, rel)
