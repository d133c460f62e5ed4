"""The engine's battle: the kernel (``battle.py``) driven by questions and one chance node per combat die.

``begin_battle`` starts a battle when a move enters another player's region (WQ-MV-10/11); then the game
asks ``to_move`` / ``die_needed`` / ``questions`` and feeds every answer and face to ``advance`` until the
battle is over and the turn goes on. A question is asked only when its seat has a real choice; otherwise
the table's default is carried out at once. The flow's bookkeeping lives in ``Battle.stage`` and the
fields after it:

  arrange_defender, arrange_attacker   each side sets up, the defender first and openly (WQ-MS-43)
  round_refill                         round 2 on: each side may refill both ranks (designed)
  attack -> target -> roll -> assign   one attack of ATTACK_ORDER (WQ-CB-09..17)
  spell -> spell_roll                  FIREBALL / ICE BLAST of a wizard in the attacking rank (WQ-SP-11/12)
  breath -> breath_roll                FIRE BREATH of a dragon in the attacking front rank (WQ-SP-14)
  refill                               the struck side fills its gaps from the Reserve (WQ-CB-18)
  press_on                             after each round the attacker fights on or withdraws (WQ-MS-41)
  pursuit_roll -> pursuit_assign       the winner pursues (WQ-MS-40, WQ-SP-03)
  retreat                              a beaten defender picks its way out (WQ-MS-42)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import islice
from typing import Any

from iwgt.core.chance import Die
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, JSON, ChanceOutcome, Event
from iwgt.games.warquest import actions as A
from iwgt.games.warquest import battle as K
from iwgt.games.warquest import battle_events as E
from iwgt.games.warquest.battle import (
    ATTACK_ORDER,
    RANKS,
    Battle,
    Fighter,
    Rank,
    RollInProgress,
    Side,
    SideName,
)
from iwgt.games.warquest.score import SEAT_NAMES
from iwgt.games.warquest.state import LastRoll, Leader, Player, Troop, WqState, with_player

COMBAT_DIE = Die(6, "combat die", faces=K.COMBAT_FACES)
"""One combat die (WQ-CB-01 decision): one chance node per die."""
QUESTIONS = ("arrange", "target", "spell", "breath", "assign", "refill", "press_on", "retreat")
"""The kinds of question a battle asks."""
ATTACK_STAGES = (
    "attack",
    "target",
    "roll",
    "assign",
    "spell",
    "spell_roll",
    "breath",
    "breath_roll",
    "refill",
)
"""The stages inside one attack of the round."""
VARIANTS = 5
"""An engineering limit (not a rule): the variants offered beside the table's default answer."""
ASSIGNMENTS_SCANNED = 50
"""An engineering limit (not a rule): the legal assignments scanned for the variants offered (any legal
assignment is still accepted)."""
"""The most answers ``questions`` offers beside the default (the engine accepts any legal one)."""

Events = list[Event]


# ---------------------------------------------------------------- helpers


def _battle(state: WqState) -> Battle:
    if state.battle is None:
        raise IllegalAction("WQ-CB-09: no battle is being fought")
    return state.battle


def _put(state: WqState, b: Battle | None) -> WqState:
    return replace(state, battle=b)


def _acting(b: Battle) -> tuple[SideName, Rank]:
    return ATTACK_ORDER[b.step]


def _mods(state: WqState, seat: int, *, defending: bool) -> K.SideMods:
    """The side's power modifiers (CARDS' ``powers.side_mods``)."""
    from iwgt.games.warquest import powers

    mods: K.SideMods = powers.side_mods(state, seat, defending=defending)
    return mods


def _geometry(state: WqState) -> Any:
    from iwgt.games.warquest.maps import load_map

    return load_map(state.scenario.map).geometry


def _fighter(t: Troop) -> Fighter:
    return Fighter(id=t.id, kind=t.kind)


def _next_attack(b: Battle) -> Battle:
    """The battle at the next attack of the round (or its end)."""
    return replace(
        b,
        step=b.step + 1,
        stage="attack" if b.step + 1 < len(ATTACK_ORDER) else "round_end",
        roll=None,
        target=None,
        struck=(),
        spells_done=(),
        breath_done=False,
        queue=(),
    )


def _with_struck(before: Battle, after: Battle, side: SideName) -> Battle:
    """Remember which enemy ranks this attack thinned (their gaps may be filled after it)."""
    foe = K.enemy(side)
    struck = list(after.struck)
    for r in RANKS:
        if len(after.side(foe).rank(r)) < len(before.side(foe).rank(r)) and r not in struck:
            struck.append(r)
    return replace(after, struck=tuple(struck))


def _hits_event(
    before: Battle, after: Battle, side: SideName, hits: tuple[tuple[int, int], ...]
) -> E.HitsTaken:
    foe = K.enemy(side)
    gone = K.eliminated(before, after)
    was = {f.id for f in before.side(foe).retreat}
    fled = tuple(sorted(f.id for f in after.side(foe).retreat if f.id not in was))
    return E.HitsTaken(seat=after.side(foe).seat, hits=hits, eliminated=gone, fled=fled)


# ---------------------------------------------------------------- starting


def begin_battle(
    state: WqState, leader_id: int, troop_ids: Sequence[int], came_from: str, region: str
) -> tuple[WqState, list[Event]]:
    """Start the battle of the army (``leader_id`` with ``troop_ids``) that moved from ``came_from`` into
    ``region`` against every piece of the other player there (WQ-MV-10/11), and run it up to its first
    question or die."""
    leader = state.leader(leader_id)
    if leader is None:
        raise IllegalAction(f"WQ-MV-10: leader {leader_id} is not on the board")
    seat = leader.seat
    moving = set(troop_ids)
    others = state.seats_in(region) - {seat}
    # the move's own checks (WQ-MV-10) only start a battle against exactly one other player
    assert len(others) == 1, f"a battle in {region} needs exactly one other player, not {sorted(others)}"
    foe_seat = next(iter(others))
    # the moving army now stands in the region it entered
    troops = tuple(replace(t, region=region) if t.id in moving else t for t in state.troops)
    leaders = tuple(replace(ld, region=region) if ld.id == leader_id else ld for ld in state.leaders)
    state = replace(state, troops=troops, leaders=leaders)
    att_troops = [t for t in state.troops if t.id in moving]
    def_troops = list(state.troops_in(region, foe_seat))
    def_leaders = [ld.id for ld in state.leaders_in(region, foe_seat)]
    attacker = K.new_side(seat, map(_fighter, att_troops), [leader_id], _mods(state, seat, defending=False))
    defender = K.new_side(
        foe_seat, map(_fighter, def_troops), def_leaders, _mods(state, foe_seat, defending=True)
    )
    b = Battle(
        region=region, came_from=came_from, attacker=attacker, defender=defender, stage="arrange_defender"
    )
    events: Events = [
        E.BattleBegan(
            region=region,
            attacker=seat,
            defender=foe_seat,
            attacking=tuple(sorted([leader_id, *moving])),
            defending=tuple(sorted([*def_leaders, *(t.id for t in def_troops)])),
        )
    ]
    state = replace(state, battle=b)
    early = K.loser_at_start(b)
    if early is not None:
        state = _put(state, _finish(b, early, withdrew=False, events=events))
    return _run(state, events)


# ---------------------------------------------------------------- who acts


def to_move(state: WqState) -> int | None:
    """The seat asked, CHANCE when a die is owed, None when no battle waits on anything."""
    b = state.battle
    if b is None:
        return None
    if die_needed(state) is not None:
        return CHANCE
    return _asked(state, b)


def die_needed(state: WqState) -> Die | None:
    """The combat die owed now, if any: one chance node per die, AMBUSH's extra dice included."""
    b = state.battle
    if b is None or b.roll is None or b.roll.done:
        return None
    return COMBAT_DIE


def _asked(state: WqState, b: Battle) -> int | None:
    s = b.stage
    if s == "arrange_defender":
        return b.defender.seat
    if s == "arrange_attacker":
        return b.attacker.seat
    if s == "round_refill":
        return b.side(b.refill_sides[0]).seat
    if s in ("target", "spell", "breath", "assign"):
        return b.side(_acting(b)[0]).seat
    if s == "refill":
        return b.side(K.enemy(_acting(b)[0])).seat
    if s == "press_on":
        return b.attacker.seat
    if s == "pursuit_assign":
        assert b.winner is not None
        return b.side(b.winner).seat
    if s == "retreat":
        return b.defender.seat
    return None


# ---------------------------------------------------------------- the loop: up to a question or a die


def _run(state: WqState, events: Events) -> tuple[WqState, list[Event]]:
    """Carry out every step nobody has a choice in, up to the next question, die or the battle's end."""
    while state.battle is not None:
        b = state.battle
        nb = _step(state, b, events)
        if nb is None:
            return state, events
        state = _put(state, nb) if isinstance(nb, Battle) else nb
    return state, events


def _step(state: WqState, b: Battle, events: Events) -> Battle | WqState | None:
    """One automatic step: the next battle (or, at the end, the state after it), or None when waiting."""
    s = b.stage
    if b.roll is not None and not b.roll.done:
        return None
    if s in ("arrange_defender", "arrange_attacker"):
        side: SideName = "defender" if s == "arrange_defender" else "attacker"
        if b.side(side).fighting():
            return None
        return replace(b, stage="arrange_attacker" if side == "defender" else "attack", step=0)
    if s == "round_refill":
        sides = tuple(x for x in b.refill_sides if _refillable(b, x, RANKS))
        if sides:
            return None if sides == b.refill_sides else replace(b, refill_sides=sides)
        return replace(b, stage="attack", step=0, refill_sides=())
    if s == "attack":
        side, rank = _acting(b)
        ts = K.targets(b, side, rank)
        if not ts:
            return replace(b, stage="spell")
        if len(ts) > 1:
            return replace(b, stage="target")
        return _start_attack(b, ts[0])
    if s in ("target", "spell", "breath", "assign", "refill", "press_on", "pursuit_assign", "retreat"):
        return _settle_question(state, b, events)
    if s == "roll":
        return _attack_rolled(b, events)
    if s == "spell_roll":
        return _spell_rolled(b, events)
    if s == "breath_roll":
        return _breath_rolled(b, events)
    if s == "round_end":
        return _round_end(b, events)
    if s == "pursuit_roll":
        assert b.roll is not None
        return replace(b, stage="pursuit_assign")
    if s == "over":
        return _aftermath(state, b, events)
    raise AssertionError(f"unknown battle stage {s}")


def _start_attack(b: Battle, target: Rank) -> Battle:
    side, rank = _acting(b)
    roll = RollInProgress("attack", dice=K.rank_dice(b, side, rank), ambush=K.ambush(b, side, rank))
    return replace(b, stage="roll", target=target, roll=roll)


def _attack_rolled(b: Battle, events: Events) -> Battle:
    side, rank = _acting(b)
    roll = b.roll
    assert roll is not None and b.target is not None
    events.append(
        E.AttackRolled(
            seat=b.side(side).seat,
            side=side,
            rank=rank,
            target=b.target,
            dice=roll.dice,
            faces=roll.faces,
            hits=roll.hits,
            flees=roll.flees,
        )
    )
    return replace(b, stage="assign", last_roll=("attack", roll.faces))


def _spell_rolled(b: Battle, events: Events) -> Battle:
    side, _ = _acting(b)
    roll = b.roll
    assert roll is not None and roll.target is not None
    events.append(
        E.SpellRolled(
            seat=b.side(side).seat,
            spell=roll.purpose,
            troop=roll.target,
            dice=roll.dice,
            faces=roll.faces,
            hits=roll.hits,
            flees=roll.flees,
        )
    )
    after = K.strike_troop(b, side, roll.target, roll.hits, roll.flees)
    events.append(_hits_event(b, after, side, ((roll.target, roll.hits),) if roll.hits else ()))
    after = _with_struck(b, after, side)
    return replace(after, stage="spell", roll=None, last_roll=(roll.purpose, roll.faces))


def _breath_rolled(b: Battle, events: Events) -> Battle:
    after = _spell_rolled(b, events)
    queue = after.queue
    while queue:
        # the next troop of the burnt rank still standing in it
        foe = after.side(K.enemy(_acting(after)[0]))
        if any(f.id == queue[0] for f in foe.front + foe.rear):
            roll = RollInProgress("fire_breath", dice=K.const("BREATH_DICE"), target=queue[0])
            return replace(after, stage="breath_roll", roll=roll, queue=queue[1:])
        queue = queue[1:]
    return replace(after, stage="breath", breath_done=True, queue=())


def _refillable(b: Battle, side: SideName, ranks: Sequence[Rank]) -> bool:
    room = K.refill_room(b, side, ranks)
    return bool(b.side(side).reserve) and any(n > 0 for n in room.values())


def _round_end(b: Battle, events: Events) -> Battle:
    before = b
    b = K.end_of_round(b)
    healed = tuple(
        sorted(
            f.id for s in K.SIDES for f in before.side(s).everyone() if f.hits and K.has(f.kind, "regenerate")
        )
    )
    was_back = {f.id for s in K.SIDES for f in before.side(s).retreat}
    rallied = tuple(
        sorted(i for i in was_back if i not in {f.id for s in K.SIDES for f in b.side(s).retreat})
    )
    events.append(E.RoundEnded(round=before.round, regenerated=healed, rallied=rallied))
    lost = K.loser(b)
    if lost is not None:
        # a side beaten, or the last round over: the side worth less gold in the fight lost (WQ-MS-41);
        # either way the winner pursues only the loser's Retreat Area, and a beaten defender retreats
        return _finish(b, lost, withdrew=False, events=events)
    return replace(b, stage="press_on")


def _finish(b: Battle, lost: SideName, *, withdrew: bool, events: Events) -> Battle:
    """The battle is decided: the winner pursues, if it can (WQ-MS-40)."""
    won = K.enemy(lost)
    b = replace(b, winner=won, withdrew=withdrew, roll=None, target=None, struck=(), queue=())
    dice = K.pursuit_dice(b, won)
    if dice and K.pursued(b, lost, withdrew=withdrew):
        return replace(b, stage="pursuit_roll", roll=RollInProgress("pursuit", dice=dice))
    return replace(b, stage="retreat")


# ---------------------------------------------------------------- questions with no real choice


def _settle_question(state: WqState, b: Battle, events: Events) -> Battle | WqState | None:
    s = b.stage
    side, rank = _acting(b) if b.step < len(ATTACK_ORDER) else ("attacker", "front")
    if s == "target":
        return None
    if s == "assign":
        assert b.roll is not None and b.target is not None
        missile = rank == "rear"
        choices = list(
            islice(K.assignments(b, side, b.target, b.roll.hits, b.roll.flees, missile=missile), 2)
        )
        if len(choices) > 1:
            return None
        a = choices[0] if choices else ((), ())
        return _apply_assign(b, a, events)
    if s == "spell":
        todo = [sp for sp in K.spells(b, side, rank) if sp not in b.spells_done]
        if todo and K.spell_targets(b, side, todo[0]):
            return None
        if todo:
            return replace(b, spells_done=(*b.spells_done, todo[0]))
        return replace(b, stage="breath")
    if s == "breath":
        if not b.breath_done and K.breath_ready(b, side, rank) and K.breath_targets(b, side):
            return None
        return replace(b, stage="refill", breath_done=True)
    if s == "refill":
        ranks = _struck_gaps(b)
        if ranks and _refillable(b, K.enemy(side), ranks):
            return None
        return _next_attack(b)
    if s == "press_on":
        return None
    if s == "pursuit_assign":
        assert b.winner is not None and b.roll is not None
        lost = K.enemy(b.winner)
        pool = K.pursued(b, lost, withdrew=b.withdrew)
        want = min(b.roll.hits, len(pool))
        if 0 < want < len(pool):
            return None
        return _apply_pursuit(b, K.default_pursuit(b, lost, b.roll.hits, withdrew=b.withdrew), events)
    if s == "retreat":
        if b.winner == "attacker" and len(_retreat_regions(state, b)) > 1:
            return None
        return replace(b, stage="over")
    raise AssertionError(s)


def _struck_gaps(b: Battle) -> tuple[Rank, ...]:
    side, _ = _acting(b)
    foe = K.enemy(side)
    room = K.refill_room(b, foe, b.struck)
    # an emptied Front is refilled whatever was struck (compulsory, WQ-MS-43)
    return K.refill_ranks(b, foe, tuple(r for r in b.struck if room[r] > 0))


def _apply_assign(b: Battle, a: K.Assignment, events: Events) -> Battle:
    side, _ = _acting(b)
    assert b.target is not None
    after = K.apply_assignment(b, side, b.target, a)
    if a[0] or a[1]:
        events.append(_hits_event(b, after, side, a[0]))
    after = _with_struck(b, after, side)
    return replace(after, stage="spell", roll=None)


def _apply_pursuit(b: Battle, ids: Sequence[int], events: Events) -> Battle:
    assert b.winner is not None and b.roll is not None
    lost = K.enemy(b.winner)
    after = K.apply_pursuit(b, lost, ids)
    events.append(
        E.Pursued(
            seat=b.side(b.winner).seat, dice=b.roll.dice, faces=b.roll.faces, eliminated=tuple(sorted(ids))
        )
    )
    return replace(after, stage="retreat", roll=None, last_roll=("pursuit", b.roll.faces))


# ---------------------------------------------------------------- the questions and their answers


def questions(state: WqState, seat: int) -> list[A.Action]:
    """The answers offered to ``seat`` now: the table's default first, then a few variants (any legal
    answer is accepted by ``advance``)."""
    b = state.battle
    if b is None or die_needed(state) is not None or _asked(state, b) != seat:
        return []
    out: list[A.Action] = []

    def add(x: A.Action) -> None:
        if x not in out and len(out) <= VARIANTS:
            out.append(x)

    s = b.stage
    if s in ("arrange_defender", "arrange_attacker"):
        side = b.side("defender" if s == "arrange_defender" else "attacker")
        fs = side.fighting()
        front, rear, _ = K.default_arrangement(fs)
        add(A.Arrange(front=_ids(front), rear=_ids(rear)))
        cap = K.const("MAX_RANK")
        dearest = sorted(fs, key=lambda f: (-K.stats(f.kind).worth, f.id))
        add(A.Arrange(front=_ids(dearest[:cap]), rear=_ids(dearest[cap : 2 * cap])))
        add(A.Arrange(front=_ids(front), rear=()))
        add(A.Arrange(front=_ids(dearest[:1]), rear=_ids(dearest[1 : cap + 1])))
        # never offer an answer the rules refuse (the Front is never left empty, WQ-MS-43)
        out = [x for x in out if isinstance(x, A.Arrange) and not K.check_arrangement(side, x.front, x.rear)]
    elif s == "round_refill":
        name = b.refill_sides[0]
        add(K.default_refill(b, name, RANKS))
        if not K.front_due(b, name):
            add(A.Refill(front=(), rear=()))
    elif s == "target":
        side_name, rank = _acting(b)
        dt = K.default_target(b, side_name, rank)
        for tr in (dt, *K.targets(b, side_name, rank)):
            if tr is not None:
                add(A.Target(rank=tr))
    elif s == "assign":
        side_name, rank = _acting(b)
        assert b.roll is not None and b.target is not None
        hits, flees, missile = b.roll.hits, b.roll.flees, rank == "rear"
        h, fl = K.default_assignment(b, side_name, b.target, hits, flees, missile=missile)
        add(A.Assign(hits=h, flees=fl))
        for h, fl in islice(
            K.assignments(b, side_name, b.target, hits, flees, missile=missile), ASSIGNMENTS_SCANNED
        ):
            add(A.Assign(hits=h, flees=fl))
    elif s == "spell":
        side_name, rank = _acting(b)
        spell = _spell_now(b)
        first = K.default_spell_target(b, side_name, spell)
        for t in (first, *K.spell_targets(b, side_name, spell)):
            if t is not None:
                add(A.Spell(troop=t))
        if len(out) > VARIANTS:
            out.pop()
        out.append(A.Spell(troop=None))
    elif s == "breath":
        side_name, _ = _acting(b)
        for br in (K.default_breath(b, side_name), *K.breath_targets(b, side_name)):
            if br is not None:
                add(A.Breath(rank=br))
        out.append(A.Breath(rank=None))
    elif s == "refill":
        side_name, _ = _acting(b)
        add(K.default_refill(b, K.enemy(side_name), _struck_gaps(b)))
        if not K.front_due(b, K.enemy(side_name)):
            add(A.Refill(front=(), rear=()))
    elif s == "press_on":
        add(A.PressOn(withdraw=False))
        add(A.PressOn(withdraw=True))
    elif s == "pursuit_assign":
        assert b.winner is not None and b.roll is not None
        lost = K.enemy(b.winner)
        best = K.default_pursuit(b, lost, b.roll.hits, withdrew=b.withdrew)
        add(A.Assign(hits=tuple((i, 1) for i in best), flees=()))
        pool = sorted(K.pursued(b, lost, withdrew=b.withdrew), key=lambda f: (K.stats(f.kind).worth, f.id))
        cheap = sorted(f.id for f in pool[: min(b.roll.hits, len(pool))])
        add(A.Assign(hits=tuple((i, 1) for i in cheap), flees=()))
    elif s == "retreat":
        for region in _retreat_regions(state, b):
            add(A.Retreat(region=region))
    return out


def _ids(fs: Sequence[Fighter]) -> tuple[int, ...]:
    return tuple(sorted(f.id for f in fs))


def _spell_now(b: Battle) -> str:
    side, rank = _acting(b)
    return next(sp for sp in K.spells(b, side, rank) if sp not in b.spells_done)


def advance(state: WqState, action: Any) -> tuple[WqState, list[Event]]:
    """The battle after one answer or one die's face, run on to the next question or die (or its end)."""
    b = _battle(state)
    events: Events = []
    if isinstance(action, ChanceOutcome):
        if b.roll is None or b.roll.done:
            raise IllegalAction("WQ-CB-11: no combat die is being rolled")
        if not 1 <= action.face <= COMBAT_DIE.sides:
            raise IllegalAction(f"WQ-CB-01: a combat die has faces 1 to 6, not {action.face}")
        b = replace(b, roll=b.roll.rolled(action.face))
        return _run(_put(state, b), events)
    if die_needed(state) is not None:
        raise IllegalAction("WQ-CB-11: the combat dice are being rolled")
    s = b.stage
    seat = _asked(state, b)
    if seat is None:
        raise IllegalAction("WQ-CB-09: the battle waits on no question")
    kind = A.NAMES.get(type(action), "")
    want = _answer_kind(s)
    if kind != want:
        raise IllegalAction(f"{_clause(s)}: the battle asks {_seat_words(seat)} for {want!r}, not {kind!r}")
    nb = _answer(state, b, action, events)
    state = _put(state, nb) if isinstance(nb, Battle) else nb
    return _run(state, events)


def _answer_kind(stage: str) -> str:
    return {
        "arrange_defender": "arrange",
        "arrange_attacker": "arrange",
        "round_refill": "refill",
        "target": "target",
        "spell": "spell",
        "breath": "breath",
        "assign": "assign",
        "refill": "refill",
        "press_on": "press_on",
        "pursuit_assign": "assign",
        "retreat": "retreat",
    }[stage]


def _clause(stage: str) -> str:
    return {
        "arrange_defender": "WQ-MS-43",
        "arrange_attacker": "WQ-MS-43",
        "round_refill": "WQ-CB-18",
        "target": "WQ-CB-05",
        "spell": "WQ-SP-11",
        "breath": "WQ-SP-14",
        "assign": "WQ-CB-13",
        "refill": "WQ-CB-18",
        "press_on": "WQ-MS-41",
        "pursuit_assign": "WQ-MS-40",
        "retreat": "WQ-MS-42",
    }[stage]


def _seat_words(seat: int) -> str:
    """The warlord's name in a refusal ("the Red Warlord"), never a seat number."""
    return SEAT_NAMES[seat]


def _answer(state: WqState, b: Battle, action: Any, events: Events) -> Battle | WqState:
    s = b.stage
    if isinstance(action, A.Arrange):
        name: SideName = "defender" if s == "arrange_defender" else "attacker"
        side = b.side(name)
        why = K.check_arrangement(side, action.front, action.rear)
        if why:
            raise IllegalAction(why)
        side = K.arranged(side, action.front, action.rear)
        events.append(
            E.LinesArranged(
                seat=side.seat, front=_ids(side.front), rear=_ids(side.rear), reserve=_ids(side.reserve)
            )
        )
        b = b.with_side(name, side)
        if name == "defender":
            return replace(b, stage="arrange_attacker")
        return replace(b, stage="attack", step=0)
    if isinstance(action, A.Refill):
        if s == "round_refill":
            name = b.refill_sides[0]
            ranks: tuple[Rank, ...] = RANKS
        else:
            name = K.enemy(_acting(b)[0])
            ranks = _struck_gaps(b)
        why = K.check_refill(b, name, ranks, action)
        if why:
            raise IllegalAction(why)
        if action.front or action.rear:
            events.append(E.LineRefilled(seat=b.side(name).seat, front=action.front, rear=action.rear))
        b = K.apply_refill(b, name, action)
        if s == "round_refill":
            return replace(b, refill_sides=b.refill_sides[1:])
        return _next_attack(b)
    if isinstance(action, A.Target):
        side_name, rank = _acting(b)
        if action.rank not in K.targets(b, side_name, rank):
            raise IllegalAction(f"WQ-CB-05: the {action.rank} rank cannot be attacked now")
        return _start_attack(b, "front" if action.rank == "front" else "rear")
    if isinstance(action, A.Assign):
        if s == "pursuit_assign":
            assert b.winner is not None and b.roll is not None
            lost = K.enemy(b.winner)
            ids = [i for i, _ in action.hits]
            if action.flees or any(n != 1 for _, n in action.hits):
                raise IllegalAction(
                    "WQ-MS-40: each pursuit hit eliminates one troop: name each once, no flees"
                )
            why = K.check_pursuit(b, lost, b.roll.hits, ids, withdrew=b.withdrew)
            if why:
                raise IllegalAction(why)
            return _apply_pursuit(b, ids, events)
        side_name, rank = _acting(b)
        assert b.roll is not None and b.target is not None
        a: K.Assignment = (action.hits, action.flees)
        why = K.check_assignment(b, side_name, b.target, b.roll.hits, b.roll.flees, a, missile=rank == "rear")
        if why:
            raise IllegalAction(why)
        return _apply_assign(b, a, events)
    if isinstance(action, A.Spell):
        side_name, _ = _acting(b)
        spell = _spell_now(b)
        b = replace(b, spells_done=(*b.spells_done, spell))
        if action.troop is None:
            return b
        ts = K.spell_targets(b, side_name, spell)
        if action.troop not in ts:
            raise IllegalAction(f"WQ-SP-11: troop {action.troop} is not an enemy troop in a rank")
        roll = RollInProgress(spell, dice=ts[action.troop], target=action.troop)
        return replace(b, stage="spell_roll", roll=roll)
    if isinstance(action, A.Breath):
        side_name, _ = _acting(b)
        if action.rank is None:
            return replace(b, stage="refill", breath_done=True)
        if action.rank not in K.breath_targets(b, side_name):
            raise IllegalAction(f"WQ-SP-14: the enemy {action.rank} rank is empty")
        rank_: Rank = "front" if action.rank == "front" else "rear"
        burnt = _ids(b.side(K.enemy(side_name)).rank(rank_))
        events.append(E.BreathBreathed(seat=b.side(side_name).seat, rank=rank_, troops=burnt))
        b = K.used_breath(b, side_name)
        roll = RollInProgress("fire_breath", dice=K.const("BREATH_DICE"), target=burnt[0])
        return replace(b, stage="breath_roll", roll=roll, queue=burnt[1:], breath_done=True)
    if isinstance(action, A.PressOn):
        if action.withdraw:
            return _finish(b, "attacker", withdrew=True, events=events)
        return replace(b, stage="round_refill", refill_sides=("defender", "attacker"))
    if isinstance(action, A.Retreat):
        options = _retreat_regions(state, b)
        if action.region not in options:
            raise IllegalAction(
                f"WQ-MS-42: the beaten army may fall back to {', '.join(options) or 'no region'}, "
                f"not {action.region}"
            )
        return _aftermath(state, b, events, retreat_to=action.region)
    raise IllegalAction(f"WQ-CB-09: {type(action).__name__} is no answer to a battle's question")


# ---------------------------------------------------------------- after the battle (WQ-MS-42 designed)


def _blocked(state: WqState, region: str, seat: int) -> bool:
    return bool(state.seats_in(region) - {seat})


def _retreat_regions(state: WqState, b: Battle) -> tuple[str, ...]:
    """Where a beaten defender may fall back: an adjacent region, not over a mountain, holding no other
    player's piece (map order)."""
    g = _geometry(state)
    seat = b.defender.seat
    out = [
        r
        for r in g.neighbours(b.region)
        if g.kind(b.region, r) != "mountain" and not _blocked(state, r, seat)
    ]
    return tuple(sorted(out, key=g.index))


def _escape_region(state: WqState, start: str, seat: int) -> str | None:
    """The nearest region (fewest steps, mountains blocked; then map order) holding no other player's
    piece, for a Warlord with no way out."""
    g = _geometry(state)
    seen = {start}
    ring = [start]
    while ring:
        nxt: list[str] = []
        for here in ring:
            for r in g.neighbours(here):
                if r not in seen and g.kind(here, r) != "mountain":
                    seen.add(r)
                    nxt.append(r)
        free = [r for r in nxt if not _blocked(state, r, seat)]
        if free:
            return min(free, key=g.index)
        ring = nxt
    return None


def _aftermath(state: WqState, b: Battle, events: Events, *, retreat_to: str | None = None) -> WqState:
    """The battle's end: the dead to the pool, everyone healed, the loser away, the winner's VP, and the
    turn goes on."""
    assert b.winner is not None
    won = b.winner
    lost = K.enemy(won)
    win_side, lose_side = b.side(won), b.side(lost)
    alive = {f.id for s in K.SIDES for f in b.side(s).everyone()}
    # every troop in the region fought (the region held the defender's pieces and the moving army); the
    # dead, in no area any more, go back to the pool (WQ-CB-16); the living are healed (a Troop has no hits)
    troops = [t for t in state.troops if t.region != b.region or t.id in alive]
    leaders = list(state.leaders)
    lose_ids = {f.id for f in lose_side.everyone()}
    lose_leaders = {ld.id for ld in state.leaders_in(b.region, lose_side.seat)}
    if lost == "attacker":
        dest: str | None = b.came_from
    elif retreat_to is not None:
        dest = retreat_to
    else:
        options = _retreat_regions(state, b)
        dest = options[0] if options else None
    if dest is not None:
        troops = [replace(t, region=dest) if t.id in lose_ids else t for t in troops]
        leaders = [replace(ld, region=dest) if ld.id in lose_leaders else ld for ld in leaders]
        events.append(
            E.ArmyFellBack(
                seat=lose_side.seat,
                region=dest,
                leaders=tuple(sorted(lose_leaders)),
                troops=tuple(sorted(lose_ids)),
            )
        )
    else:
        troops = [t for t in troops if t.id not in lose_ids]
        if lose_ids:
            events.append(E.ArmyDestroyed(seat=lose_side.seat, troops=tuple(sorted(lose_ids))))
        kept: list[Leader] = []
        for ld in leaders:
            if ld.id not in lose_leaders:
                kept.append(ld)
            elif ld.rank == "lieutenant":
                events.append(E.LieutenantCaptured(seat=ld.seat, leader=ld.id))
            else:
                others = tuple(x for x in leaders if x.id not in lose_leaders)
                now = replace(state, troops=tuple(troops), leaders=others)
                away = _escape_region(now, b.region, ld.seat)
                kept.append(replace(ld, region=away or ld.region))
                events.append(E.WarlordEscaped(seat=ld.seat, leader=ld.id, region=away or ld.region))
        leaders = kept
    # BATTLE_VP only for beating an army (decision, wq-decisions WQ-MS-38/41): a battle decided before its
    # first round (b.round still 1) is exactly one where a side had no troop when it began, and then the
    # loser had none (a lone leader walking into an army, or an army walking over a lone leader)
    vp = K.const("BATTLE_VP") if b.round > 1 else 0
    wraith = state.wraith_seat
    kept_ids = {t.id for t in troops}
    if any(t.kind == "wraith_king" and t.id not in kept_ids for t in state.troops):
        wraith = None  # the Wraith King died: the Black Crown's holder may recall him at his tomb (WQ-TR-04)
    # the battle's last roll stays in view after it (the observation's last_roll)
    last = state.last_roll if b.last_roll is None else LastRoll(*b.last_roll, combat=True)
    state = replace(
        state, troops=tuple(troops), leaders=tuple(leaders), battle=None, wraith_seat=wraith, last_roll=last
    )
    p = state.players[win_side.seat]
    state = with_player(state, replace(p, vp=p.vp + vp, battles_won=p.battles_won + 1))
    # the one-shot battle dice (an event power) are spent by the battle that used them
    for seat in (win_side.seat, lose_side.seat):
        q: Player = state.players[seat]
        if q.battle_dice:
            state = with_player(state, replace(q, battle_dice=0))
    events.append(
        E.BattleWon(
            region=b.region,
            winner=win_side.seat,
            loser=lose_side.seat,
            withdrew=b.withdrew,
            rounds=max(0, b.round - 1),
            vp=vp,
        )
    )
    return state


# ---------------------------------------------------------------- the observation's parts


def _side_json(s: Side) -> JSON:
    def fs(xs: Sequence[Fighter]) -> list[JSON]:
        return [{"id": f.id, "kind": f.kind, "hits": f.hits} for f in xs]

    return {
        "seat": s.seat,
        "front": fs(s.front),
        "rear": fs(s.rear),
        "reserve": fs(s.reserve),
        "retreat": fs(s.retreat),
        "leaders": list(s.leaders),
        "breath_used": s.breath_used,
    }


def battle_view(state: WqState) -> JSON:
    """The observation's ``battle``, ``question``, ``rolling`` and ``last_roll`` parts (all public)."""
    b = state.battle
    if b is None:
        return {"battle": None, "question": None, "rolling": None, "last_roll": None}
    attacking = None
    if b.stage in (
        "attack",
        "target",
        "roll",
        "assign",
        "spell",
        "spell_roll",
        "breath",
        "breath_roll",
        "refill",
    ):
        side, rank = _acting(b)
        attacking = {"side": side, "rank": rank, "dice": K.rank_dice(b, side, rank), "target": b.target}
    view: JSON = {
        "region": b.region,
        "came_from": b.came_from,
        "round": b.round,
        "step": b.step,
        "stage": b.stage,
        "attacker": _side_json(b.attacker),
        "defender": _side_json(b.defender),
        "attacking": attacking,
        "winner": b.winner,
    }
    rolling = None
    if b.roll is not None and not b.roll.done:
        r = b.roll
        rolling = {
            "purpose": r.purpose,
            "dice": r.dice,
            "faces": [K.COMBAT_FACES[f - 1] for f in r.faces],
            "target": r.target,
        }
    last = None
    if b.last_roll is not None:
        purpose, faces = b.last_roll
        last = {
            "purpose": purpose,
            "faces": [K.COMBAT_FACES[f - 1] for f in faces],
            "hits": sum(1 for f in faces if f == K.HIT_FACE),
            "flees": sum(1 for f in faces if f == K.FLEE_FACE),
        }
    return {"battle": view, "question": _question_json(state, b), "rolling": rolling, "last_roll": last}


def _question_json(state: WqState, b: Battle) -> JSON | None:
    if die_needed(state) is not None:
        return None
    seat = _asked(state, b)
    if seat is None:
        return None
    s = b.stage
    q: JSON = {"kind": _answer_kind(s), "seat": seat}
    if s in ("arrange_defender", "arrange_attacker"):
        q["side"] = "defender" if s == "arrange_defender" else "attacker"
        q["max"] = K.const("MAX_RANK")
    elif s == "round_refill":
        name = b.refill_sides[0]
        q["side"] = name
        q["room"] = K.refill_room(b, name, RANKS)
    elif s == "refill":
        name = K.enemy(_acting(b)[0])
        q["side"] = name
        q["room"] = K.refill_room(b, name, _struck_gaps(b))
    elif s == "target":
        side, rank = _acting(b)
        q["ranks"] = list(K.targets(b, side, rank))
    elif s == "assign":
        side, rank = _acting(b)
        assert b.roll is not None
        q.update(hits=b.roll.hits, flees=b.roll.flees, target=b.target, missile=rank == "rear", pursuit=False)
    elif s == "pursuit_assign":
        assert b.roll is not None and b.winner is not None
        pool = K.pursued(b, K.enemy(b.winner), withdrew=b.withdrew)
        q.update(hits=min(b.roll.hits, len(pool)), flees=0, troops=[f.id for f in pool], pursuit=True)
    elif s == "spell":
        side, _ = _acting(b)
        spell = _spell_now(b)
        q["spell"] = spell
        q["targets"] = {str(k): v for k, v in K.spell_targets(b, side, spell).items()}
    elif s == "breath":
        side, _ = _acting(b)
        q["ranks"] = list(K.breath_targets(b, side))
    elif s == "press_on":
        q["round"] = b.round - 1
    elif s == "retreat":
        q["regions"] = list(_retreat_regions(state, b))
    return q
