"""The pure battle kernel (WQ-CB-01..20, WQ-SP-01..14, WQ-MS-23, WQ-MS-40..43): values and rules only.

Shared by the engine's battle (``battle_flow.py``, which asks the questions and rolls one chance node per
die) and the exact odds (``odds.py``, a Markov chain under the table's defaults). So everything here is
deterministic, cheap and pure: frozen, hashable values; no engine state is ever read (a side's powers come
in its ``SideMods``, the kinds' numbers from ``rules.troop``). Ranks are kept sorted by troop id, so two
battles that differ only in the order things happened compare equal (fewer states for the odds).

A battle round (WQ-CB-09/10): the four attacks of ``ATTACK_ORDER``; each rolls ``rank_dice`` combat dice
at one of ``targets``; the acting side assigns hits and flees (``check_assignment`` /
``default_assignment`` / ``apply_assignment``); the struck side may refill its line from the Reserve
(``default_refill`` / ``apply_refill``); then ``end_of_round`` (REGENERATE, RALLY) and ``loser``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from math import comb
from typing import Literal

from iwgt.games.warquest.actions import Refill

Rank = Literal["front", "rear"]
SideName = Literal["attacker", "defender"]
RANKS: tuple[Rank, Rank] = ("front", "rear")
SIDES: tuple[SideName, SideName] = ("attacker", "defender")

ATTACK_ORDER: tuple[tuple[SideName, Rank], ...] = (
    ("defender", "rear"),
    ("attacker", "rear"),
    ("defender", "front"),
    ("attacker", "front"),
)
"""The four attacks of a round, in order (WQ-CB-09)."""

Assignment = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]
"""(hits as sorted ``((troop id, n), ...)``, flees as troop ids): the acting player's assignment."""

HIT_FACE = 1
FLEE_FACE = 2
"""The combat die (WQ-CB-01 decision): face 1 a hit, face 2 a flee, faces 3..6 blank."""
COMBAT_FACES: tuple[str, ...] = ("hit", "flee", "blank", "blank", "blank", "blank")
"""The combat die's face labels, in face order."""


# ---------------------------------------------------------------- the kinds' numbers (DATA's rules.py)


@cache
def const(name: str) -> int:
    """A named rule constant from ``data/rules.toml`` (never a magic number in the rules)."""
    from iwgt.games.warquest.rules import rules

    value = getattr(rules().constants, name)
    assert isinstance(value, int)
    return value


@dataclass(frozen=True, slots=True)
class KindStats:
    """What the battle needs of a troop kind, looked up once."""

    attack: int
    defense: int
    missile: bool
    worth: int  # the cost in gold; an unbuyable kind (the Wraith King) counts as the dearest
    rage: int
    specials: frozenset[str]


@cache
def stats(kind: str) -> KindStats:
    """The battle numbers of a troop kind (``rules.troop``)."""
    from iwgt.games.warquest.rules import rules

    tk = rules().troops[kind]
    dearest = max((k.cost for k in rules().troops.values() if k.cost is not None), default=0)
    specials = frozenset(tk.specials)
    rage = int(getattr(tk, "rage", 0) or 0)
    return KindStats(
        attack=int(tk.attack or 0),
        defense=int(tk.defense),
        missile=bool(tk.missile),
        worth=int(tk.cost) if tk.cost is not None else dearest,
        rage=rage if "rage" in specials else 0,
        specials=specials,
    )


def has(kind: str, special: str) -> bool:
    """Whether a kind has a special power (``rules.troop(kind).specials``)."""
    return special in stats(kind).specials


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Fighter:
    """One troop in a battle, with the hit markers it carries (WQ-CB-17)."""

    id: int
    kind: str
    hits: int = 0


@dataclass(frozen=True, slots=True)
class SideMods:
    """A side's power-card modifiers for one battle (``powers.side_mods`` fills them)."""

    front_dice: int = 0
    rear_dice: int = 0
    defend_dice: int = 0
    rally_extra: int = 0
    pursuit_dice: int = 0
    first_round_dice: int = 0


@dataclass(frozen=True, slots=True)
class Side:
    """One side's areas (WQ-CB-02/07/08): two ranks, the Reserve, the Retreat Area, and its leaders."""

    seat: int
    front: tuple[Fighter, ...] = ()
    rear: tuple[Fighter, ...] = ()
    reserve: tuple[Fighter, ...] = ()
    retreat: tuple[Fighter, ...] = ()
    leaders: tuple[int, ...] = ()
    mods: SideMods = SideMods()
    breath_used: bool = False

    def rank(self, rank: Rank) -> tuple[Fighter, ...]:
        """The troops of one rank."""
        return self.front if rank == "front" else self.rear

    def fighting(self) -> tuple[Fighter, ...]:
        """The troops in the ranks and the Reserve (not the Retreat Area)."""
        return self.front + self.rear + self.reserve

    def everyone(self) -> tuple[Fighter, ...]:
        """Every troop of the side still in the battle, the Retreat Area included."""
        return self.front + self.rear + self.reserve + self.retreat


@dataclass(frozen=True, slots=True)
class RollInProgress:
    """Combat dice being rolled one chance node at a time (the flow's; the odds never build one).

    ``purpose``: "attack", "fireball", "ice_blast", "fire_breath" or "pursuit"; ``dice`` the dice owed so
    far (AMBUSH adds to it as flees come up, WQ-SP-07); ``target`` the troop a spell or a breath aims at.
    """

    purpose: str
    dice: int
    faces: tuple[int, ...] = ()
    ambush: bool = False
    target: int | None = None
    extra: int = 0  # AMBUSH dice added so far (capped at AMBUSH_MAX_EXTRA)

    @property
    def hits(self) -> int:
        """Hits rolled so far."""
        return sum(1 for f in self.faces if f == HIT_FACE)

    @property
    def flees(self) -> int:
        """Flees rolled so far."""
        return sum(1 for f in self.faces if f == FLEE_FACE)

    @property
    def done(self) -> bool:
        """Whether every owed die has been rolled."""
        return len(self.faces) >= self.dice

    def rolled(self, face: int) -> RollInProgress:
        """The roll with one more face; under AMBUSH a flee owes 2 more dice, up to the cap (WQ-SP-07)."""
        add = 0
        if self.ambush and face == FLEE_FACE:
            add = max(0, min(const("AMBUSH_DICE"), const("AMBUSH_MAX_EXTRA") - self.extra))
        return replace(self, faces=(*self.faces, face), dice=self.dice + add, extra=self.extra + add)


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle between the moving army and every piece of the other player in the region (WQ-MV-10/11).

    ``round`` counts from 1; ``step`` is the attack of ``ATTACK_ORDER`` under way (4: the round's end).
    The fields after ``step`` are the engine flow's bookkeeping (``battle_flow.py``); the kernel's rules
    never read them, and the odds leave them at their defaults.
    """

    region: str
    came_from: str
    attacker: Side
    defender: Side
    round: int = 1
    step: int = 0
    stage: str = "arrange"
    roll: RollInProgress | None = None
    target: Rank | None = None  # the enemy rank the current attack strikes
    struck: tuple[Rank, ...] = ()  # enemy ranks the current attack has struck (refill after it)
    spells_done: tuple[str, ...] = ()  # the current attack's spells already settled
    breath_done: bool = False  # the current attack's breath question is settled
    queue: tuple[int, ...] = ()  # FIRE BREATH: the troops still to roll against
    refill_sides: tuple[SideName, ...] = ()  # round start: the sides still to refill
    winner: SideName | None = None
    withdrew: bool = False
    last_roll: tuple[str, tuple[int, ...]] | None = None  # (purpose, faces) of the last finished roll

    def side(self, name: SideName) -> Side:
        """One side by name."""
        return self.attacker if name == "attacker" else self.defender

    def with_side(self, name: SideName, side: Side) -> Battle:
        """The battle with one side replaced."""
        return replace(self, attacker=side) if name == "attacker" else replace(self, defender=side)


def enemy(name: SideName) -> SideName:
    """The other side."""
    return "defender" if name == "attacker" else "attacker"


def _sorted(fs: Iterable[Fighter]) -> tuple[Fighter, ...]:
    return tuple(sorted(fs, key=lambda f: f.id))


def _with_rank(s: Side, rank: Rank, fs: Iterable[Fighter], retreat: Iterable[Fighter] | None = None) -> Side:
    """The side with one rank replaced (and, if given, its Retreat Area)."""
    back = s.retreat if retreat is None else _sorted(retreat)
    if rank == "front":
        return replace(s, front=_sorted(fs), retreat=back)
    return replace(s, rear=_sorted(fs), retreat=back)


def new_side(
    seat: int, fighters: Iterable[Fighter], leaders: Iterable[int], mods: SideMods = SideMods()
) -> Side:
    """A side before it is arranged: every troop in the Reserve."""
    return Side(seat=seat, reserve=_sorted(fighters), leaders=tuple(sorted(leaders)), mods=mods)


def arranged(side: Side, front: Sequence[int], rear: Sequence[int]) -> Side:
    """The side with these troop ids in its ranks and the rest in the Reserve (WQ-CB-02/03/07)."""
    pool = {f.id: f for f in side.fighting()}
    fr = _sorted(pool[i] for i in front)
    re = _sorted(pool[i] for i in rear)
    used = set(front) | set(rear)
    rest = _sorted(f for f in pool.values() if f.id not in used)
    return replace(side, front=fr, rear=re, reserve=rest)


def check_arrangement(side: Side, front: Sequence[int], rear: Sequence[int]) -> str | None:
    """None if the arrangement is legal, else the rule it breaks (WQ-CB-03)."""
    ids = {f.id for f in side.fighting()}
    cap = const("MAX_RANK")
    if len(front) > cap or len(rear) > cap:
        return f"WQ-CB-03: at most {cap} troops in each rank"
    if len(set(front) | set(rear)) != len(front) + len(rear):
        return "WQ-CB-02: a troop stands in one rank only"
    for i in (*front, *rear):
        if i not in ids:
            return f"WQ-CB-02: troop {i} is not in this army"
    if ids and not front:
        # designed (WQ-MS-43): a line with troops shows a Front; hiding every troop in the Reserve would
        # leave the enemy nothing to strike
        return "WQ-MS-43: the Front rank must hold at least one troop (WQ-CB-02)"
    return None


# ---------------------------------------------------------------- the dice of one attack


def _in_battle(side: Side, special: str) -> bool:
    return any(has(f.kind, special) for f in side.fighting())


def rank_dice(b: Battle, side: SideName, rank: Rank) -> int:
    """The combat dice the rank rolls in its attack, every modifier included, never below 0 (WQ-CB-11).

    Front: every troop's attack (missile troops in front fight hand-to-hand, WQ-CB-06), RAGE in round 1
    (WQ-SP-06), the rank and defence powers, the one-shot first-round dice, less WALL if the enemy has an
    Earth Wizard in the battle (WQ-SP-10). Rear: only missile troops attack (WQ-CB-04), plus UNTRAINED
    ARCHER from the same side's front rank (WQ-SP-05), the powers, less MISSILE SHIELD if the enemy has
    an Air Wizard in the battle (WQ-SP-08). A rank with no troop that may attack rolls nothing (WQ-CB-19).
    """
    me = b.side(side)
    foe = b.side(enemy(side))
    defend = me.mods.defend_dice if side == "defender" else 0
    if rank == "front":
        if not me.front:
            return 0
        n = sum(stats(f.kind).attack for f in me.front)
        if b.round == 1:
            n += sum(stats(f.kind).rage for f in me.front) + me.mods.first_round_dice
        n += me.mods.front_dice + defend
        if _in_battle(foe, "wall"):
            n -= const("WALL_DICE")
        return max(0, n)
    shooters = [f for f in me.rear if stats(f.kind).missile]
    if not shooters:
        return 0
    n = sum(stats(f.kind).attack for f in shooters)
    n += sum(stats(f.kind).attack for f in me.front if has(f.kind, "untrained_archer"))
    n += me.mods.rear_dice + defend
    if _in_battle(foe, "missile_shield"):
        n -= const("MISSILE_SHIELD_DICE")
    return max(0, n)


def ambush(b: Battle, side: SideName, rank: Rank) -> bool:
    """Whether the attacking rank holds a Satyr: each flee then adds dice, cascading (WQ-SP-07)."""
    return any(has(f.kind, "ambush") for f in b.side(side).rank(rank))


def targets(b: Battle, side: SideName, rank: Rank) -> tuple[Rank, ...]:
    """The enemy ranks this attack may strike (WQ-CB-05/06, WQ-MS-43 designed).

    The front strikes the enemy front, or the enemy rear when the front is empty (the line is broken);
    the rear (missile) rank picks either non-empty enemy rank. No dice or no target: no attack.
    """
    if rank_dice(b, side, rank) == 0:
        return ()
    foe = b.side(enemy(side))
    if rank == "front":
        if foe.front:
            return ("front",)
        return ("rear",) if foe.rear else ()
    return tuple(r for r in RANKS if foe.rank(r))


def default_target(b: Battle, side: SideName, rank: Rank) -> Rank | None:
    """The table's target: the only one, else the enemy front, unless missiles cannot hurt anyone there."""
    ts = targets(b, side, rank)
    if not ts:
        return None
    if len(ts) == 1:
        return ts[0]
    missile = rank == "rear"
    foe = b.side(enemy(side))
    if _assignable(foe.front, missile=missile):
        return "front"
    return "rear"


# ---------------------------------------------------------------- assigning hits and flees


def _assignable(fs: Sequence[Fighter], *, missile: bool) -> tuple[Fighter, ...]:
    # the Air Wizard takes no missile hit nor flee (WQ-SP-09)
    if not missile:
        return tuple(fs)
    return tuple(f for f in fs if not has(f.kind, "missile_shield"))


def _left(f: Fighter) -> int:
    return stats(f.kind).defense - f.hits


def _can_flee(f: Fighter) -> bool:
    return stats(f.kind).defense < const("NO_FLEE_DEFENSE")


def _plan(
    rank: Sequence[Fighter], hits: int, flees: int, *, missile: bool
) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...], int]:
    """(shield troops, others, hits the shield troops must take) of an attack on a rank (WQ-SP-04)."""
    pool = _assignable(rank, missile=missile)
    shield = tuple(f for f in pool if has(f.kind, "shield"))
    others = tuple(f for f in pool if not has(f.kind, "shield"))
    return shield, others, min(hits, sum(_left(f) for f in shield))


def check_assignment(
    b: Battle, side: SideName, target: Rank, hits: int, flees: int, a: Assignment, *, missile: bool
) -> str | None:
    """None if ``side``'s assignment of ``hits`` and ``flees`` to the enemy ``target`` rank is legal.

    Rules (WQ-CB-13..17, WQ-SP-04, WQ-SP-09): only troops of the target rank (not the Air Wizard against
    missiles); no troop takes more hits than it has defence left, and hits are lost only when no troop can
    take them; while a Dwarf Foot survives in the rank every hit goes to Dwarf Foot and the flees are lost
    (SHIELD); flees go to distinct surviving troops of defence below 3, as many as can take one.
    """
    rank = b.side(enemy(side)).rank(target)
    by_id = {f.id: f for f in _assignable(rank, missile=missile)}
    given = dict(a[0])
    if len(given) != len(a[0]):
        return "WQ-CB-13: a troop is named twice among the hits"
    for i, n in given.items():
        if i not in by_id:
            if missile and any(f.id == i for f in rank):
                return f"WQ-SP-09: the Air Wizard (troop {i}) is immune to missile attacks"
            return f"WQ-CB-13: troop {i} is not in the rank attacked"
        if n < 1:
            return f"WQ-CB-13: troop {i} is given {n} hits"
        if n > _left(by_id[i]):
            return f"WQ-CB-16: troop {i} can take only {_left(by_id[i])} more hits"
    shield, _, on_shield = _plan(rank, hits, flees, missile=missile)
    capacity = sum(_left(f) for f in by_id.values())
    if sum(given.values()) != min(hits, capacity):
        return f"WQ-CB-13: {min(hits, capacity)} hits must be assigned, not {sum(given.values())}"
    if shield:
        on_dwarves = sum(n for i, n in given.items() if has(by_id[i].kind, "shield"))
        if on_dwarves != on_shield:
            return "WQ-SP-04: every hit goes to the Dwarf Foot while one stands in the rank"
    survivors = [f for f in by_id.values() if given.get(f.id, 0) < _left(f)]
    shielded = any(has(f.kind, "shield") for f in survivors)
    fleeable = {f.id for f in survivors if _can_flee(f)} if not shielded else set()
    fl = a[1]
    if len(set(fl)) != len(fl):
        return "WQ-CB-15: a troop is named twice among the flees"
    for i in fl:
        if i not in fleeable:
            if shielded:
                return "WQ-SP-04: the flees go to the Dwarf Foot, who never flee: they are lost"
            if i in by_id and given.get(i, 0) >= _left(by_id[i]):
                return f"WQ-CB-15: troop {i} is eliminated and cannot flee too"
            if i in by_id:
                return f"WQ-CB-14: troop {i} has a defence of 3 or more and cannot be forced to flee"
            return f"WQ-CB-13: troop {i} is not in the rank attacked"
    if len(fl) != min(flees, len(fleeable)):
        return f"WQ-CB-15: {min(flees, len(fleeable))} flees must be assigned, not {len(fl)}"
    return None


def _kill_order(f: Fighter) -> tuple[int, int, int]:
    # cheapest to kill first (fewest hits left), then the dearest, then the lowest id
    return (_left(f), -stats(f.kind).worth, f.id)


def _flee_order(f: Fighter) -> tuple[int, int]:
    return (-stats(f.kind).worth, f.id)


def default_assignment(
    b: Battle, side: SideName, target: Rank, hits: int, flees: int, *, missile: bool
) -> Assignment:
    """The table's assignment: hits complete the eliminations of the cheapest-to-kill troops first (fewest
    hits left, then the dearest), Dwarf Foot first under SHIELD; flees to the dearest fleeable survivors."""
    rank = b.side(enemy(side)).rank(target)
    shield, others, _ = _plan(rank, hits, flees, missile=missile)
    given: dict[int, int] = {}
    left = hits
    for f in sorted(shield, key=_kill_order) + sorted(others, key=_kill_order):
        if left == 0:
            break
        n = min(left, _left(f))
        given[f.id] = n
        left -= n
    pool = shield + others
    survivors = [f for f in pool if given.get(f.id, 0) < _left(f)]
    if any(has(f.kind, "shield") for f in survivors):
        fl: tuple[int, ...] = ()
    else:
        fleeable = sorted((f for f in survivors if _can_flee(f)), key=_flee_order)
        fl = tuple(sorted(f.id for f in fleeable[:flees]))
    return tuple(sorted(given.items())), fl


def assignments(
    b: Battle, side: SideName, target: Rank, hits: int, flees: int, *, missile: bool
) -> Iterator[Assignment]:
    """Every legal assignment (lazily, hit splits first), for the flow's variants and its "one choice?"."""
    rank = b.side(enemy(side)).rank(target)
    shield, others, on_shield = _plan(rank, hits, flees, missile=missile)
    total = min(hits, sum(_left(f) for f in shield + others))

    def splits(pool: Sequence[Fighter], i: int, left: int) -> Iterator[tuple[tuple[int, int], ...]]:
        # every way to share ``left`` hits among pool[i:] (no troop beyond its defence left)
        if i == len(pool):
            if left == 0:
                yield ()
            return
        rest = sum(_left(f) for f in pool[i + 1 :])
        for n in range(min(left, _left(pool[i])), -1, -1):
            if left - n > rest:
                break
            for tail in splits(pool, i + 1, left - n):
                yield (((pool[i].id, n),) if n else ()) + tail

    def all_splits() -> Iterator[tuple[tuple[int, int], ...]]:
        # SHIELD (WQ-SP-04): the dwarves' share is forced; only the rest is shared among the others
        for hs in splits(shield, 0, on_shield):
            for ho in splits(others, 0, total - on_shield):
                yield tuple(sorted(hs + ho))

    pool = sorted(shield + others, key=lambda f: f.id)

    def choose(items: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
        if k == 0:
            yield ()
            return
        for j in range(len(items) - k + 1):
            for tail in choose(items[j + 1 :], k - 1):
                yield (items[j], *tail)

    for hs in all_splits():
        given = dict(hs)
        survivors = [f for f in pool if given.get(f.id, 0) < _left(f)]
        if any(has(f.kind, "shield") for f in survivors):
            fleeable: list[int] = []
        else:
            fleeable = [f.id for f in survivors if _can_flee(f)]
        for fl in choose(fleeable, min(flees, len(fleeable))):
            a: Assignment = (hs, fl)
            if check_assignment(b, side, target, hits, flees, a, missile=missile) is None:
                yield a


def apply_assignment(b: Battle, side: SideName, target: Rank, a: Assignment) -> Battle:
    """The assignment carried out on the enemy rank: eliminations (WQ-CB-16), hit markers (WQ-CB-17),
    the fleeing troops to the Retreat Area with their markers (WQ-CB-15). Assumed checked."""
    name = enemy(side)
    foe = b.side(name)
    given = dict(a[0])
    fled = set(a[1])
    stay: list[Fighter] = []
    gone: list[Fighter] = []
    for f in foe.rank(target):
        g = replace(f, hits=f.hits + given.get(f.id, 0)) if f.id in given else f
        if g.hits >= stats(g.kind).defense:
            continue
        (gone if g.id in fled else stay).append(g)
    return b.with_side(name, _with_rank(foe, target, stay, (*foe.retreat, *gone)))


def strike_troop(b: Battle, side: SideName, troop: int, hits: int, flees: int) -> Battle:
    """A spell's or a breath's roll applied to one enemy troop (WQ-SP-11/12/14 decisions): its hits up to
    the troop's defence (the rest are lost); if it survives, any flee sends it to the Retreat Area unless
    its defence is 3 or more. SHIELD and the Air Wizard's missile immunity do not apply to spells."""
    name = enemy(side)
    foe = b.side(name)
    for rank in RANKS:
        row = foe.rank(rank)
        for f in row:
            if f.id != troop:
                continue
            g = replace(f, hits=min(stats(f.kind).defense, f.hits + hits))
            rest = tuple(x for x in row if x.id != troop)
            if g.hits >= stats(g.kind).defense:
                return b.with_side(name, _with_rank(foe, rank, rest))
            if flees and _can_flee(g):
                return b.with_side(name, _with_rank(foe, rank, rest, (*foe.retreat, g)))
            return b.with_side(name, _with_rank(foe, rank, (*rest, g)))
    return b


def eliminated(before: Battle, after: Battle) -> tuple[int, ...]:
    """The ids of the troops in ``before`` but no longer anywhere in ``after`` (back to the pool)."""
    now = {f.id for s in SIDES for f in after.side(s).everyone()}
    return tuple(sorted(f.id for s in SIDES for f in before.side(s).everyone() if f.id not in now))


# ---------------------------------------------------------------- spells (WQ-SP-11/12/14 decisions)

SPELLS: tuple[tuple[str, str], ...] = (("fireball", "FIREBALL"), ("ice_blast", "ICE BLAST"))
"""The wizards' spells by special key, with their names."""


def spell_dice(spell: str, kind: str) -> int:
    """The dice of a spell against a troop kind: FIREBALL 6 (12 vs Trolls), ICE BLAST 4 (12 vs the Fire
    Dragon and Fire Wizards)."""
    if spell == "fireball":
        return const("FIREBALL_VS_TROLL") if has(kind, "regenerate") else const("FIREBALL_DICE")
    if has(kind, "fire_breath") or has(kind, "fireball"):
        return const("ICE_VS_FIRE")
    return const("ICE_DICE")


def spells(b: Battle, side: SideName, rank: Rank) -> tuple[str, ...]:
    """The spells the attacking rank may cast with its attack: a wizard of each kind standing in it."""
    row = b.side(side).rank(rank)
    return tuple(key for key, _ in SPELLS if any(has(f.kind, key) for f in row))


def spell_targets(b: Battle, side: SideName, spell: str) -> dict[int, int]:
    """Every enemy troop of either rank a spell may aim at -> the dice it rolls against it."""
    foe = b.side(enemy(side))
    return {f.id: spell_dice(spell, f.kind) for f in sorted(foe.front + foe.rear, key=lambda f: f.id)}


def _p_kill(dice: int, left: int) -> float:
    """The chance that ``dice`` combat dice roll at least ``left`` hits (1 in 6 each)."""
    p = 1 / len(COMBAT_FACES)
    below = sum(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(min(left, dice + 1)))
    return 1.0 - below


def default_spell_target(b: Battle, side: SideName, spell: str) -> int | None:
    """The table's spell target: the enemy troop of either rank with the most gold killed on average
    (its cost times the chance that the spell's dice kill it), ties by id; None when the ranks are empty."""
    ts = spell_targets(b, side, spell)
    if not ts:
        return None
    foe = b.side(enemy(side))
    by_id = {f.id: f for f in foe.front + foe.rear}
    return min(ts, key=lambda i: (-stats(by_id[i].kind).worth * _p_kill(ts[i], _left(by_id[i])), i))


def breath_ready(b: Battle, side: SideName, rank: Rank) -> bool:
    """Whether FIRE BREATH may be breathed now: the Fire Dragon's rank attacks (a dragon in front), once
    per battle (WQ-SP-14 decision)."""
    me = b.side(side)
    return rank == "front" and not me.breath_used and any(has(f.kind, "fire_breath") for f in me.front)


def breath_targets(b: Battle, side: SideName) -> tuple[Rank, ...]:
    """The enemy ranks FIRE BREATH may burn (either non-empty one)."""
    foe = b.side(enemy(side))
    return tuple(r for r in RANKS if foe.rank(r))


def default_breath(b: Battle, side: SideName) -> Rank | None:
    """The table's breath: the enemy rank with the most troops (ties: the front), breathed at once."""
    ts = breath_targets(b, side)
    if not ts:
        return None
    foe = b.side(enemy(side))
    return max(ts, key=lambda r: (len(foe.rank(r)), r == "front"))


def used_breath(b: Battle, side: SideName) -> Battle:
    """The battle with the side's FIRE BREATH spent."""
    return b.with_side(side, replace(b.side(side), breath_used=True))


# ---------------------------------------------------------------- arranging and refilling


def _line_order(f: Fighter) -> tuple[int, int]:
    return (-stats(f.kind).worth, f.id)


def _fill(
    reserve: Sequence[Fighter], front_room: int, rear_room: int, front_min: int = 0
) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
    # missile troops to the rear, the others to the front, dearest first; missile troops left over
    # fill the front's room (they fight hand-to-hand there, WQ-CB-06); when the Front must hold at
    # least ``front_min`` troops (WQ-MS-43), the cheapest of the rear's shooters step forward
    shooters = sorted((f for f in reserve if stats(f.kind).missile), key=_line_order)
    others = sorted((f for f in reserve if not stats(f.kind).missile), key=_line_order)
    rear = shooters[:rear_room]
    front = (others + shooters[rear_room:])[:front_room]
    short = min(front_min, front_room) - len(front)
    if short > 0:
        front, rear = front + rear[len(rear) - short :], rear[: len(rear) - short]
    return tuple(front), tuple(rear)


def default_arrangement(
    fighters: Sequence[Fighter],
) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...], tuple[Fighter, ...]]:
    """The table's arrangement (front, rear, reserve): missile troops to the rear, the others to the
    front, dearest first, at most 5 each; spare missile troops fill the front, and an army of shooters
    only sends its cheapest one forward (the Front is never empty, WQ-MS-43); the rest stay in reserve."""
    cap = const("MAX_RANK")
    front, rear = _fill(fighters, cap, cap, front_min=1)
    used = {f.id for f in front + rear}
    return _sorted(front), _sorted(rear), _sorted(f for f in fighters if f.id not in used)


def front_due(b: Battle, side: SideName) -> int:
    """How many Reserve troops must step into the side's Front now: while the Front is empty and the
    Reserve holds troops, the refill is compulsory and fills it as far as it can (WQ-MS-43 designed,
    WQ-CB-18); else 0."""
    me = b.side(side)
    if me.front or not me.reserve:
        return 0
    return min(const("MAX_RANK"), len(me.reserve))


def refill_ranks(b: Battle, side: SideName, ranks: Iterable[Rank]) -> tuple[Rank, ...]:
    """The ranks a refill may fill: these, and the Front whenever its refill is compulsory (WQ-MS-43)."""
    out = tuple(ranks)
    if front_due(b, side) and "front" not in out:
        out = ("front", *out)
    return out


def refill_room(b: Battle, side: SideName, ranks: Iterable[Rank]) -> dict[str, int]:
    """The room in each of these ranks (up to 5, WQ-CB-18)."""
    me = b.side(side)
    cap = const("MAX_RANK")
    return {r: cap - len(me.rank(r)) for r in ranks}


def default_refill(b: Battle, side: SideName, ranks: Iterable[Rank]) -> Refill:
    """The table's refill of these ranks from the Reserve: missile troops to the rear, the others to the
    front, dearest first (WQ-CB-18); an empty Front is filled as far as the Reserve allows (WQ-MS-43)."""
    room = refill_room(b, side, refill_ranks(b, side, ranks))
    front, rear = _fill(
        b.side(side).reserve, room.get("front", 0), room.get("rear", 0), front_min=front_due(b, side)
    )
    return Refill(front=tuple(sorted(f.id for f in front)), rear=tuple(sorted(f.id for f in rear)))


def check_refill(b: Battle, side: SideName, ranks: Iterable[Rank], refill: Refill) -> str | None:
    """None if the refill is legal: Reserve troops, each once, only into these ranks, up to 5 (WQ-CB-18);
    an empty Front with troops in the Reserve must be filled as far as it can (WQ-MS-43)."""
    room = refill_room(b, side, refill_ranks(b, side, ranks))
    reserve = {f.id for f in b.side(side).reserve}
    ids = (*refill.front, *refill.rear)
    if len(set(ids)) != len(ids):
        return "WQ-CB-18: a troop is named twice"
    for i in ids:
        if i not in reserve:
            return f"WQ-CB-18: troop {i} is not in the Reserve"
    for r, chosen in (("front", refill.front), ("rear", refill.rear)):
        if chosen and r not in room:
            return f"WQ-CB-18: only the line attacked may be filled now, not the {r} rank"
        if len(chosen) > room.get(r, 0):
            return f"WQ-CB-18: the {r} rank has room for {room.get(r, 0)} more (at most {const('MAX_RANK')})"
    due = front_due(b, side)
    if len(refill.front) < due:
        return (
            f"WQ-MS-43: the Front rank is empty: {due} troop{'s' if due > 1 else ''} of the Reserve "
            "must step into it"
        )
    return None


def apply_refill(b: Battle, side: SideName, refill: Refill) -> Battle:
    """The Reserve troops moved into the ranks (assumed checked)."""
    me = b.side(side)
    fr, re = set(refill.front), set(refill.rear)
    me = replace(
        me,
        front=_sorted((*me.front, *(f for f in me.reserve if f.id in fr))),
        rear=_sorted((*me.rear, *(f for f in me.reserve if f.id in re))),
        reserve=tuple(f for f in me.reserve if f.id not in fr and f.id not in re),
    )
    return b.with_side(side, me)


# ---------------------------------------------------------------- the round's end and the battle's end


def _regenerate(s: Side) -> Side:
    def heal(fs: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
        return tuple(replace(f, hits=0) if f.hits and has(f.kind, "regenerate") else f for f in fs)

    return replace(
        s, front=heal(s.front), rear=heal(s.rear), reserve=heal(s.reserve), retreat=heal(s.retreat)
    )


def rallies(s: Side) -> int:
    """How many troops the side rallies: one per leader in the Reserve (HERO, WQ-SP-02 / RALLY, WQ-CB-20;
    every leader stands there, WQ-MS-23), plus ``rally`` powers."""
    return max(0, len(s.leaders) + s.mods.rally_extra)


def _rally(s: Side) -> Side:
    n = rallies(s)
    back = sorted(s.retreat, key=_line_order)[:n]
    ids = {f.id for f in back}
    return replace(
        s,
        reserve=_sorted((*s.reserve, *back)),
        retreat=tuple(f for f in s.retreat if f.id not in ids),
    )


def end_of_round(b: Battle) -> Battle:
    """The round's end: Trolls' hit markers removed (REGENERATE, WQ-SP-13), then each leader rallies the
    dearest troop of the Retreat Area into the Reserve (WQ-CB-20), then the next round."""
    a = _rally(_regenerate(b.attacker))
    d = _rally(_regenerate(b.defender))
    return replace(b, attacker=a, defender=d, round=b.round + 1, step=0)


def gold_worth(kind: str) -> int:
    """A troop's worth when the last round decides the battle (WQ-MS-41 designed): its printed or designed
    cost; the Wraith King, who cannot be bought, counts as ``WRAITH_KING_WORTH``."""
    from iwgt.games.warquest.rules import rules

    cost = rules().troops[kind].cost
    return int(cost) if cost is not None else const("WRAITH_KING_WORTH")


def side_worth(s: Side) -> int:
    """The gold worth of a side's troops in the fight: Front, Rear and Reserve (not the Retreat Area)."""
    return sum(gold_worth(f.kind) for f in s.fighting())


def loser_at_cap(attacker_worth: int, defender_worth: int) -> SideName:
    """The loser when the last round (``MAX_BATTLE_ROUNDS``) ends with both sides standing (WQ-MS-41
    designed): the side whose troops in the fight are worth less gold; equal worth: the defender holds."""
    return "defender" if attacker_worth > defender_worth else "attacker"


def loser(b: Battle) -> SideName | None:
    """The side that has lost after a full round (WQ-MS-41 designed; ``b`` is past ``end_of_round``): no
    troop in the ranks or the Reserve (when both have none, the defender holds); else, after the last round
    (``MAX_BATTLE_ROUNDS``), the side worth less gold in the fight (``loser_at_cap``). None: the battle goes
    on."""
    if not b.attacker.fighting():
        return "attacker"
    if not b.defender.fighting():
        return "defender"
    if b.round > const("MAX_BATTLE_ROUNDS"):
        return loser_at_cap(side_worth(b.attacker), side_worth(b.defender))
    return None


def loser_at_start(b: Battle) -> SideName | None:
    """A side with no troops at all when the battle begins loses at once (both: the defender holds)."""
    if not b.attacker.everyone():
        return "attacker"
    if not b.defender.everyone():
        return "defender"
    return None


# ---------------------------------------------------------------- pursuit (WQ-MS-40, WQ-SP-03 designed)


def pursuit_dice(b: Battle, winner: SideName) -> int:
    """The winner's pursuit dice: 4, or double with a Goblin Wolf Rider in its ranks or Reserve
    (RELENTLESS PURSUIT), plus ``pursuit`` powers; a winner with no troop there does not pursue."""
    me = b.side(winner)
    if not me.fighting():
        return 0
    relentless = any(has(f.kind, "relentless_pursuit") for f in me.fighting())
    base = const("RELENTLESS_PURSUIT_DICE") if relentless else const("PURSUIT_DICE")
    return max(0, base + me.mods.pursuit_dice)


def pursued(b: Battle, loser_side: SideName, *, withdrew: bool) -> tuple[Fighter, ...]:
    """The troops the pursuit may strike: the loser's Retreat Area, or every troop it has after a
    withdrawal."""
    s = b.side(loser_side)
    return _sorted(s.everyone() if withdrew else s.retreat)


def default_pursuit(b: Battle, loser_side: SideName, hits: int, *, withdrew: bool) -> tuple[int, ...]:
    """The table's pursuit: each hit eliminates the dearest pursued troop."""
    fs = sorted(pursued(b, loser_side, withdrew=withdrew), key=_line_order)
    return tuple(sorted(f.id for f in fs[:hits]))


def check_pursuit(
    b: Battle, loser_side: SideName, hits: int, ids: Sequence[int], *, withdrew: bool
) -> str | None:
    """None if ``ids`` names as many distinct pursued troops as the hits can kill (WQ-MS-40)."""
    pool = {f.id for f in pursued(b, loser_side, withdrew=withdrew)}
    if len(set(ids)) != len(ids):
        return "WQ-MS-40: a troop is named twice"
    for i in ids:
        if i not in pool:
            return f"WQ-MS-40: troop {i} is not pursued"
    want = min(hits, len(pool))
    if len(ids) != want:
        return f"WQ-MS-40: the pursuit eliminates {want} troops, not {len(ids)}"
    return None


def apply_pursuit(b: Battle, loser_side: SideName, ids: Iterable[int]) -> Battle:
    """The pursued troops eliminated, wherever they stand."""
    gone = set(ids)
    s = b.side(loser_side)

    def keep(fs: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
        return tuple(f for f in fs if f.id not in gone)

    s = replace(s, front=keep(s.front), rear=keep(s.rear), reserve=keep(s.reserve), retreat=keep(s.retreat))
    return b.with_side(loser_side, s)
