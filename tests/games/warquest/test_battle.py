"""The pure battle kernel (battle.py) by hand: every expectation is worked out from the rules and the troop
table (WQ-CB-01..20, WQ-SP-01..14, WQ-MS-23, WQ-MS-40..43)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from iwgt.games.warquest import battle as K
from iwgt.games.warquest.actions import Refill
from iwgt.games.warquest.battle import Battle, Fighter, RollInProgress, Side, SideMods

NO_MODS = SideMods()


def F(i: int, kind: str, hits: int = 0) -> Fighter:
    return Fighter(i, kind, hits)


def side(
    seat: int,
    front: Sequence[Fighter] = (),
    rear: Sequence[Fighter] = (),
    reserve: Sequence[Fighter] = (),
    retreat: Sequence[Fighter] = (),
    leaders: Sequence[int] = (100,),
    mods: SideMods = NO_MODS,
) -> Side:
    return Side(seat, tuple(front), tuple(rear), tuple(reserve), tuple(retreat), tuple(leaders), mods)


def battle(att: Side, dfn: Side, rnd: int = 1) -> Battle:
    return Battle(region="here", came_from="there", attacker=att, defender=dfn, round=rnd)


NOBODY = side(1, front=[F(90, "goblin_foot")])


def test_constants_from_the_data() -> None:
    """The kernel reads its numbers from data/rules.toml (wq-spec: named constants)."""
    assert K.const("MAX_RANK") == 5
    assert K.const("PURSUIT_DICE") == 4
    assert K.const("NO_FLEE_DEFENSE") == 3


def test_wq_cb_09_order_of_the_four_attacks() -> None:
    """WQ-CB-09/10: defender's rear, attacker's rear, defender's front, attacker's front."""
    assert K.ATTACK_ORDER == (
        ("defender", "rear"),
        ("attacker", "rear"),
        ("defender", "front"),
        ("attacker", "front"),
    )


def test_wq_cb_01_the_combat_die() -> None:
    """WQ-CB-01 decision: face 1 a hit, face 2 a flee, four blanks."""
    assert K.COMBAT_FACES == ("hit", "flee", "blank", "blank", "blank", "blank")
    r = RollInProgress("attack", dice=6)
    for face in range(1, 7):
        r = r.rolled(face)
    assert (r.hits, r.flees, r.done) == (1, 1, True)


def test_wq_cb_11_dice_are_the_sum_of_attack_ratings() -> None:
    """WQ-CB-11: goblin foot 1 + goblin foot 1 + bugbear 2 = 4 dice; the rear's elf archers 2 + 2 = 4."""
    att = side(0, front=[F(1, "goblin_foot"), F(2, "goblin_foot"), F(3, "bugbear")])
    dfn = side(1, front=[F(10, "goblin_foot")], rear=[F(11, "elf_archer"), F(12, "elf_archer")])
    b = battle(att, dfn)
    assert K.rank_dice(b, "attacker", "front") == 4
    assert K.rank_dice(b, "defender", "rear") == 4
    assert K.rank_dice(b, "attacker", "rear") == 0  # nobody in it (WQ-CB-19)


def test_wq_cb_04_only_missile_troops_attack_from_the_rear() -> None:
    """WQ-CB-04: a rear rank of foot makes no attack; the archer beside them rolls only its own 1 die."""
    att = side(0, front=[F(1, "goblin_foot")], rear=[F(2, "bugbear"), F(3, "goblin_archer")])
    b = battle(att, NOBODY)
    assert K.rank_dice(b, "attacker", "rear") == 1
    b2 = battle(side(0, front=[F(1, "goblin_foot")], rear=[F(2, "bugbear")]), NOBODY)
    assert K.rank_dice(b2, "attacker", "rear") == 0
    assert K.targets(b2, "attacker", "rear") == ()


def test_wq_cb_06_missile_troops_in_front_fight_hand_to_hand() -> None:
    """WQ-CB-06 decision: an elf archer (2) in the front rank adds its attack to the front's dice."""
    b = battle(side(0, front=[F(1, "goblin_foot"), F(2, "elf_archer")]), NOBODY)
    assert K.rank_dice(b, "attacker", "front") == 3


def test_wq_sp_06_rage_round_one_only_and_never_for_missiles() -> None:
    """WQ-SP-06: orc foot 2 + great orc 3, RAGE +1 +2 in round 1 = 8; round 2: 5; the orc archer's rear
    volley gets no RAGE (1 die in round 1 too)."""
    att = side(0, front=[F(1, "orc_foot"), F(2, "great_orc")], rear=[F(3, "orc_archer")])
    b1 = battle(att, NOBODY, rnd=1)
    b2 = battle(att, NOBODY, rnd=2)
    assert K.rank_dice(b1, "attacker", "front") == 8
    assert K.rank_dice(b2, "attacker", "front") == 5
    assert K.rank_dice(b1, "attacker", "rear") == 1
    # an orc in the rear rank is no missile troop: still no attack there, RAGE or not
    b3 = battle(side(0, front=[F(1, "goblin_foot")], rear=[F(2, "orc_foot")]), NOBODY)
    assert K.rank_dice(b3, "attacker", "rear") == 0


def test_wq_sp_05_untrained_archer_only_when_the_rear_fires() -> None:
    """WQ-SP-05: elf foot 1 + high elf foot 2 in front add 3 dice to a firing rear (elf archer 2): 5; the
    front still rolls its own 3. No missile troop in the rear: the rear does not fire, no bonus."""
    front = [F(1, "elf_foot"), F(2, "high_elf_foot")]
    b = battle(side(0, front=front, rear=[F(3, "elf_archer")]), NOBODY)
    assert K.rank_dice(b, "attacker", "rear") == 5
    assert K.rank_dice(b, "attacker", "front") == 3
    assert K.rank_dice(battle(side(0, front=front), NOBODY), "attacker", "rear") == 0
    foot_behind = side(0, front=front, rear=[F(4, "goblin_foot")])
    assert K.rank_dice(battle(foot_behind, NOBODY), "attacker", "rear") == 0
    # elves in the rear rank or the reserve add nothing
    b4 = battle(side(0, rear=[F(3, "elf_archer"), F(5, "elf_foot")], reserve=[F(6, "elf_foot")]), NOBODY)
    assert K.rank_dice(b4, "attacker", "rear") == 2


def test_wq_sp_10_wall_minus_three_with_floor_zero() -> None:
    """WQ-SP-10 decision: an enemy Earth Wizard anywhere but the Retreat Area takes 3 dice from every
    hand-to-hand attack (4 goblins: 1; 2 goblins: 0, never below 0); missile fire is untouched."""
    four = [F(i, "goblin_foot") for i in range(1, 5)]
    archers = [F(5, "goblin_archer"), F(6, "goblin_archer")]
    for where in ("front", "rear", "reserve"):
        dfn = side(1, **{where: [F(20, "earth_wizard")]})  # type: ignore[arg-type]
        b = battle(side(0, front=four, rear=archers), dfn)
        assert K.rank_dice(b, "attacker", "front") == 1, where
        assert K.rank_dice(b, "attacker", "rear") == 2, where
    b = battle(side(0, front=four[:2]), side(1, reserve=[F(20, "earth_wizard")]))
    assert K.rank_dice(b, "attacker", "front") == 0
    assert K.targets(b, "attacker", "front") == ()
    fled = battle(side(0, front=four), side(1, front=[F(21, "goblin_foot")], retreat=[F(20, "earth_wizard")]))
    assert K.rank_dice(fled, "attacker", "front") == 4


def test_wq_sp_08_missile_shield_minus_three_with_floor_zero() -> None:
    """WQ-SP-08 decision: an enemy Air Wizard shields the whole side: 2 elf archers (4) fire 1 die; one
    goblin archer fires none; the front is untouched."""
    dfn = side(1, front=[F(20, "goblin_foot")], reserve=[F(21, "air_wizard")])
    b = battle(side(0, front=[F(1, "bugbear")], rear=[F(2, "elf_archer"), F(3, "elf_archer")]), dfn)
    assert K.rank_dice(b, "attacker", "rear") == 1
    assert K.rank_dice(b, "attacker", "front") == 2
    b2 = battle(side(0, rear=[F(2, "goblin_archer")]), dfn)
    assert K.rank_dice(b2, "attacker", "rear") == 0


def test_powers_add_dice_defend_only_when_defending_and_first_round_dice() -> None:
    """SideMods: rank powers, defend dice for the defender only, the event's dice in round 1's front."""
    mods = SideMods(front_dice=1, rear_dice=2, defend_dice=1, first_round_dice=2)
    front, rear = [F(1, "goblin_foot")], [F(2, "goblin_archer")]
    att = side(0, front=front, rear=rear, mods=mods)
    dfn = side(1, front=[F(11, "goblin_foot")], rear=[F(12, "goblin_archer")], mods=mods)
    b = battle(att, dfn)
    assert K.rank_dice(b, "attacker", "front") == 1 + 1 + 2
    assert K.rank_dice(b, "attacker", "rear") == 1 + 2
    assert K.rank_dice(b, "defender", "front") == 1 + 1 + 1 + 2
    assert K.rank_dice(b, "defender", "rear") == 1 + 2 + 1
    assert K.rank_dice(battle(att, dfn, rnd=2), "attacker", "front") == 2


def test_wq_cb_05_targets() -> None:
    """WQ-CB-05/06, WQ-MS-43: the front strikes the enemy front, or the rear when the front is empty;
    missiles pick either non-empty rank."""
    att = side(0, front=[F(1, "goblin_foot")], rear=[F(2, "goblin_archer")])
    both = side(1, front=[F(10, "goblin_foot")], rear=[F(11, "goblin_archer")])
    b = battle(att, both)
    assert K.targets(b, "attacker", "front") == ("front",)
    assert K.targets(b, "attacker", "rear") == ("front", "rear")
    broken = battle(att, side(1, rear=[F(11, "goblin_archer")]))
    assert K.targets(broken, "attacker", "front") == ("rear",)
    assert K.targets(broken, "attacker", "rear") == ("rear",)
    empty = battle(att, side(1, reserve=[F(12, "goblin_foot")]))
    assert K.targets(empty, "attacker", "front") == ()


def test_wq_sp_09_air_wizard_immune_to_missile_hits() -> None:
    """WQ-SP-09: missile hits and flees may not go to the Air Wizard; hand-to-hand ones may."""
    att = side(0, front=[F(1, "goblin_foot")], rear=[F(2, "elf_archer")])
    dfn = side(1, front=[F(10, "air_wizard"), F(11, "goblin_foot")])
    b = battle(att, dfn)
    assert K.check_assignment(b, "attacker", "front", 1, 0, (((10, 1),), ()), missile=True) is not None
    assert "WQ-SP-09" in str(K.check_assignment(b, "attacker", "front", 1, 0, (((10, 1),), ()), missile=True))
    # two missile hits: the goblin takes one, the other is lost
    assert K.default_assignment(b, "attacker", "front", 2, 1, missile=True) == (((11, 1),), ())
    assert K.check_assignment(b, "attacker", "front", 2, 0, (((11, 1),), ()), missile=True) is None
    # hand to hand the wizard can be hit and made to flee
    assert K.check_assignment(b, "attacker", "front", 2, 0, (((10, 2),), ()), missile=False) is None
    assert K.check_assignment(b, "attacker", "front", 1, 1, (((11, 1),), (10,)), missile=False) is None
    assert K.check_assignment(b, "attacker", "front", 0, 1, ((), (10,)), missile=True) is not None
    # the wizard's MISSILE SHIELD leaves 1 elf archer no die (2 - 3); three of them roll 3
    alone = battle(att, side(1, front=[F(10, "air_wizard")]))
    assert K.default_target(alone, "attacker", "rear") is None
    three = side(0, rear=[F(2, "elf_archer"), F(3, "elf_archer"), F(4, "elf_archer")])
    alone = battle(three, side(1, front=[F(10, "air_wizard")]))
    assert K.rank_dice(alone, "attacker", "rear") == 3
    assert K.default_target(alone, "attacker", "rear") == "front"
    assert K.default_assignment(alone, "attacker", "front", 3, 2, missile=True) == ((), ())


def test_wq_sp_04_shield_forces_hits_and_flees_onto_dwarves() -> None:
    """WQ-SP-04: while a Dwarf Foot (defence 3) stands in the rank, every hit goes to it and the flees are
    lost (dwarves never flee); once this assignment eliminates every dwarf the rest go to others."""
    rank = [F(10, "dwarf_foot"), F(11, "goblin_foot"), F(12, "elf_archer")]
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, front=rank))
    # 2 hits 1 flee: both hits on the dwarf, the flee lost
    assert K.default_assignment(b, "attacker", "front", 2, 1, missile=False) == (((10, 2),), ())
    why = K.check_assignment(b, "attacker", "front", 2, 1, (((11, 1), (12, 1)), ()), missile=False)
    assert why is not None and why.startswith("WQ-SP-04")
    why = K.check_assignment(b, "attacker", "front", 2, 1, (((10, 2),), (11,)), missile=False)
    assert why is not None and why.startswith("WQ-SP-04")
    # 4 hits 1 flee: the dwarf dies (3), one hit and the flee to the others: the dearer archer (4 gold)
    # cannot take both (it has 1 defence): hit on the cheapest-to-kill dearest = archer, flee to the goblin
    assert K.default_assignment(b, "attacker", "front", 4, 1, missile=False) == (((10, 3), (12, 1)), (11,))
    assert (
        K.check_assignment(b, "attacker", "front", 4, 1, (((10, 3), (11, 1)), (12,)), missile=False) is None
    )
    why = K.check_assignment(b, "attacker", "front", 4, 1, (((10, 2), (11, 1), (12, 1)), ()), missile=False)
    assert why is not None and why.startswith("WQ-SP-04")
    # a dwarf already carrying 2 hit markers needs 1 more
    b2 = battle(
        side(0, front=[F(1, "bugbear")]), side(1, front=[F(10, "dwarf_foot", 2), F(11, "goblin_foot")])
    )
    assert K.default_assignment(b2, "attacker", "front", 2, 0, missile=False) == (((10, 1), (11, 1)), ())
    # the hearthguard shields too
    b3 = battle(
        side(0, front=[F(1, "bugbear")]), side(1, front=[F(10, "dwarf_hearthguard"), F(11, "goblin_foot")])
    )
    assert K.default_assignment(b3, "attacker", "front", 1, 1, missile=False) == (((10, 1),), ())


def test_wq_cb_14_no_flee_for_defence_three_and_lost_flees() -> None:
    """WQ-CB-14: a troll (defence 3) cannot be forced to flee; flees nobody can take are lost."""
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, front=[F(10, "troll")]))
    assert K.default_assignment(b, "attacker", "front", 0, 2, missile=False) == ((), ())
    why = K.check_assignment(b, "attacker", "front", 0, 2, ((), (10,)), missile=False)
    assert why is not None and why.startswith("WQ-CB-14")
    b2 = battle(side(0, front=[F(1, "bugbear")]), side(1, front=[F(10, "goblin_foot")]))
    assert K.default_assignment(b2, "attacker", "front", 0, 3, missile=False) == ((), (10,))
    why = K.check_assignment(b2, "attacker", "front", 0, 3, ((), ()), missile=False)
    assert why is not None and why.startswith("WQ-CB-15")  # the one flee that can be taken must be


def test_wq_cb_15_16_17_hit_markers_elimination_and_flight() -> None:
    """WQ-CB-15..17: a satyr (defence 2) hit once keeps a hit marker, hit again it is eliminated; a
    fleeing troop goes to the Retreat Area with its markers; hits beyond defence are lost."""
    dfn = side(1, front=[F(10, "satyr_foot"), F(11, "satyr_foot"), F(12, "goblin_foot")])
    b = battle(side(0, front=[F(1, "bugbear")]), dfn)
    b = K.apply_assignment(b, "attacker", "front", (((10, 1),), (11,)))
    assert b.defender.front == (F(10, "satyr_foot", 1), F(12, "goblin_foot"))
    assert b.defender.retreat == (F(11, "satyr_foot"),)
    before = b
    b = K.apply_assignment(b, "attacker", "front", (((10, 1),), ()))
    assert b.defender.front == (F(12, "goblin_foot"),)
    assert K.eliminated(before, b) == (10,)
    # 3 hits at a lone goblin: 1 is taken, 2 are lost; giving it 2 is refused
    lone = battle(side(0, front=[F(1, "bugbear")]), side(1, front=[F(12, "goblin_foot")]))
    assert K.default_assignment(lone, "attacker", "front", 3, 0, missile=False) == (((12, 1),), ())
    why = K.check_assignment(lone, "attacker", "front", 3, 0, (((12, 2),), ()), missile=False)
    assert why is not None and why.startswith("WQ-CB-16")
    # a hit satyr that flees keeps its marker
    b3 = K.apply_assignment(battle(side(0), dfn), "attacker", "front", (((10, 1),), (10,)))
    assert b3.defender.retreat == (F(10, "satyr_foot", 1),)


def test_default_assignment_kills_the_cheapest_to_kill_then_dearest() -> None:
    """The table's default: complete eliminations of the fewest-hits-left troops first (ties: the dearest),
    flees to the dearest fleeable survivors."""
    rank = [F(10, "satyr_foot"), F(11, "goblin_foot"), F(12, "elf_archer"), F(13, "orc_archer", 1)]
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, front=rank))
    # left: satyr 2, goblin 1, archer 1, orc archer 1 (2 - 1): kill order archer(4), orc archer(3), goblin(2)
    a = K.default_assignment(b, "attacker", "front", 2, 2, missile=False)
    assert a == (((12, 1), (13, 1)), (10, 11))
    assert K.check_assignment(b, "attacker", "front", 2, 2, a, missile=False) is None


def test_assignments_enumerates_only_legal_ones() -> None:
    """Every enumerated assignment passes the check, and a forced one is the only one."""
    rank = [F(10, "satyr_foot"), F(11, "goblin_foot"), F(12, "dwarf_foot")]
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, front=rank))
    every = list(K.assignments(b, "attacker", "front", 4, 1, missile=False))
    assert every and all(
        K.check_assignment(b, "attacker", "front", 4, 1, a, missile=False) is None for a in every
    )
    # the dwarf takes 3, the 4th hit goes to the satyr (it survives: the flee to the satyr or the goblin)
    # or to the goblin (killed: the flee to the satyr): 3 ways
    assert len(every) == 3
    lone = battle(side(0), side(1, front=[F(11, "goblin_foot")]))
    assert list(K.assignments(lone, "attacker", "front", 1, 1, missile=False)) == [(((11, 1),), ())]


def test_wq_cb_18_refill_from_the_reserve_up_to_five() -> None:
    """WQ-CB-18: the struck side fills the gaps of the struck rank from its Reserve, at most 5 in a rank;
    the default sends missile troops to the rear, the others to the front, dearest first."""
    reserve = [F(20, "goblin_foot"), F(21, "bugbear"), F(22, "goblin_archer"), F(23, "orc_foot")]
    front = [F(10 + i, "goblin_foot") for i in range(3)]
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, front=front, reserve=reserve))
    assert K.refill_room(b, "defender", ("front",)) == {"front": 2}
    r = K.default_refill(b, "defender", ("front",))
    assert r == Refill(front=(21, 23), rear=())  # bugbear 4, orc 3 (dearest non-missile)
    assert K.check_refill(b, "defender", ("front",), r) is None
    too_many = Refill(front=(20, 21, 23), rear=())
    assert str(K.check_refill(b, "defender", ("front",), too_many)).startswith("WQ-CB-18")
    assert K.check_refill(b, "defender", ("front",), Refill(front=(), rear=(22,))) is not None
    assert K.check_refill(b, "defender", ("front",), Refill(front=(1,), rear=())) is not None
    after = K.apply_refill(b, "defender", r)
    assert [f.id for f in after.defender.front] == [10, 11, 12, 21, 23]
    assert [f.id for f in after.defender.reserve] == [20, 22]
    both = K.default_refill(b, "defender", ("front", "rear"))
    assert both == Refill(front=(21, 23), rear=(22,))
    # only missile troops in reserve and room in front: they fill the front (they fight hand to hand)
    b2 = battle(side(0), side(1, reserve=[F(30, "goblin_archer")]))
    assert K.default_refill(b2, "defender", ("front",)) == Refill(front=(30,), rear=())


def test_default_arrangement() -> None:
    """WQ-MS-43: missile troops to the rear, the others to the front, dearest first, 5 each, spare missile
    troops fill the front, the rest in reserve."""
    fs = [F(i, "goblin_foot") for i in range(1, 5)] + [F(10 + i, "elf_archer") for i in range(7)]
    front, rear, reserve = K.default_arrangement(fs)
    assert [f.id for f in rear] == [10, 11, 12, 13, 14]
    assert [f.id for f in front] == [1, 2, 3, 4, 15]
    assert [f.id for f in reserve] == [16]
    fs2 = [F(i, "goblin_foot") for i in range(1, 7)] + [F(7, "troll")]
    front, rear, reserve = K.default_arrangement(fs2)
    assert [f.id for f in front] == [1, 2, 3, 4, 7] and rear == () and [f.id for f in reserve] == [5, 6]


def test_wq_ms_43_the_front_is_never_left_empty_when_arranging() -> None:
    """WQ-MS-43 (designed), WQ-CB-02/03: an army with troops must put at least one in its Front; an army
    of shooters only sends its cheapest one forward by default (dwarf crossbow 4 gold, goblin archer 2)."""
    me = K.new_side(1, [F(1, "goblin_foot"), F(2, "goblin_archer")], [100])
    assert str(K.check_arrangement(me, [], [2])).startswith("WQ-MS-43")
    assert str(K.check_arrangement(me, [], [])).startswith("WQ-MS-43")
    assert K.check_arrangement(me, [1], []) is None
    assert K.check_arrangement(K.new_side(1, [], [100]), [], []) is None  # no troops: nothing to show
    front, rear, reserve = K.default_arrangement([F(5, "dwarf_crossbow"), F(6, "goblin_archer")])
    assert [f.id for f in front] == [6] and [f.id for f in rear] == [5] and reserve == ()
    front, rear, _ = K.default_arrangement([F(7, "goblin_archer")])
    assert [f.id for f in front] == [7] and rear == ()


def test_wq_ms_43_an_empty_front_must_be_refilled_as_far_as_it_can() -> None:
    """WQ-MS-43 (designed), WQ-CB-18: with its Front empty and 6 troops in the Reserve, the side must move
    5 of them (its choice which) into the Front, whatever rank was struck; the rear stays optional."""
    reserve = [
        F(20, "goblin_foot"),
        F(21, "bugbear"),
        F(22, "goblin_archer"),
        F(23, "orc_foot"),
        F(24, "goblin_foot"),
        F(25, "goblin_foot"),
    ]
    b = battle(side(0, front=[F(1, "bugbear")]), side(1, rear=[F(40, "orc_archer")], reserve=reserve))
    assert K.front_due(b, "defender") == 5 and K.front_due(b, "attacker") == 0
    assert K.refill_ranks(b, "defender", ("rear",)) == ("front", "rear")
    # the default: the archer to the rear, the five others (dearest first) to the front
    assert K.default_refill(b, "defender", ("rear",)) == Refill(front=(20, 21, 23, 24, 25), rear=(22,))
    assert str(K.check_refill(b, "defender", ("rear",), Refill(front=(), rear=()))).startswith("WQ-MS-43")
    assert str(K.check_refill(b, "defender", ("rear",), Refill(front=(21,), rear=()))).startswith("WQ-MS-43")
    # any five will do, the archer among them, and nothing to the rear
    assert K.check_refill(b, "defender", ("rear",), Refill(front=(20, 21, 22, 23, 24), rear=())) is None
    # two shooters in the Reserve and both ranks empty: both must step into the Front
    b2 = battle(
        side(0, front=[F(1, "bugbear")]), side(1, reserve=[F(30, "goblin_archer"), F(31, "orc_archer")])
    )
    assert K.default_refill(b2, "defender", ("front", "rear")) == Refill(front=(30, 31), rear=())
    assert K.check_refill(b2, "defender", ("front", "rear"), Refill(front=(31,), rear=(30,))) is not None


def test_wq_cb_20_rally_one_per_leader_in_reserve() -> None:
    """WQ-CB-20 / WQ-SP-02 HERO: each leader rallies one troop (the dearest) from the Retreat Area into the
    Reserve at the round's end; a rally power adds one more."""
    retreat = [F(10, "goblin_foot"), F(11, "bugbear"), F(12, "orc_foot")]
    att = side(0, front=[F(1, "goblin_foot")], retreat=retreat, leaders=(100, 101))
    b = K.end_of_round(battle(att, side(1, front=[F(20, "goblin_foot")], leaders=())))
    assert [f.id for f in b.attacker.reserve] == [11, 12]
    assert [f.id for f in b.attacker.retreat] == [10]
    assert (b.round, b.step) == (2, 0)
    more = replace_mods(att, SideMods(rally_extra=1))
    b2 = K.end_of_round(battle(more, side(1, front=[F(20, "goblin_foot")])))
    assert [f.id for f in b2.attacker.reserve] == [10, 11, 12]


def replace_mods(s: Side, mods: SideMods) -> Side:
    return Side(s.seat, s.front, s.rear, s.reserve, s.retreat, s.leaders, mods)


def test_wq_sp_13_regenerate() -> None:
    """WQ-SP-13: trolls lose their hit markers at the end of each full round, wherever they are; others keep
    theirs."""
    att = side(0, front=[F(1, "troll", 2), F(2, "satyr_foot", 1)], retreat=[F(3, "troll", 1)], leaders=())
    b = K.end_of_round(battle(att, NOBODY))
    assert b.attacker.front == (F(1, "troll"), F(2, "satyr_foot", 1))
    assert b.attacker.retreat == (F(3, "troll"),)


def test_wq_sp_11_12_spell_dice() -> None:
    """WQ-SP-11: FIREBALL 6 dice, 12 against trolls; WQ-SP-12: ICE BLAST 4, 12 against the Fire Dragon
    and Fire Wizards."""
    assert K.spell_dice("fireball", "goblin_foot") == 6
    assert K.spell_dice("fireball", "troll") == 12
    assert K.spell_dice("fireball", "fire_dragon") == 6
    assert K.spell_dice("ice_blast", "goblin_foot") == 4
    assert K.spell_dice("ice_blast", "troll") == 4
    assert K.spell_dice("ice_blast", "fire_dragon") == 12
    assert K.spell_dice("ice_blast", "fire_wizard") == 12
    att = side(0, rear=[F(1, "fire_wizard"), F(2, "water_wizard")])
    dfn = side(1, front=[F(10, "troll")], rear=[F(11, "goblin_archer")], reserve=[F(12, "troll")])
    b = battle(att, dfn)
    assert K.spells(b, "attacker", "rear") == ("fireball", "ice_blast")
    assert K.spells(b, "attacker", "front") == ()
    assert K.spell_targets(b, "attacker", "fireball") == {10: 12, 11: 6}  # not the reserve
    # the troll: 8 gold x P(>= 3 hits in 12 dice) = 8 x 0.323 = 2.58; the archer: 2 x P(>= 1 in 6) = 1.33
    assert K.default_spell_target(b, "attacker", "fireball") == 10


def test_strike_troop_applies_a_spell_to_one_troop() -> None:
    """A spell's hits go to its target up to its defence (the rest lost), any flee sends a survivor of
    defence below 3 to the Retreat Area; SHIELD does not redirect a spell (decision)."""
    dfn = side(1, front=[F(10, "dwarf_foot"), F(11, "satyr_foot"), F(12, "troll")])
    b = battle(side(0), dfn)
    b1 = K.strike_troop(b, "attacker", 12, 5, 0)
    assert [f.id for f in b1.defender.front] == [10, 11]
    b2 = K.strike_troop(b, "attacker", 11, 1, 2)
    assert b2.defender.retreat == (F(11, "satyr_foot", 1),)
    b3 = K.strike_troop(b, "attacker", 10, 1, 1)
    assert b3.defender.front[0] == F(10, "dwarf_foot", 1) and b3.defender.retreat == ()


def test_wq_sp_14_fire_breath_once_per_battle_from_the_front() -> None:
    """WQ-SP-14 decision: the dragon breathes when its (front) rank attacks, once per battle, at either
    non-empty enemy rank."""
    att = side(0, front=[F(1, "fire_dragon")])
    dfn = side(1, front=[F(10, "goblin_foot")], rear=[F(11, "goblin_archer"), F(12, "goblin_archer")])
    b = battle(att, dfn)
    assert K.breath_ready(b, "attacker", "front")
    assert not K.breath_ready(b, "attacker", "rear")
    assert K.breath_targets(b, "attacker") == ("front", "rear")
    assert K.default_breath(b, "attacker") == "rear"  # more troops there
    spent = K.used_breath(b, "attacker")
    assert not K.breath_ready(spent, "attacker", "front")
    assert not K.breath_ready(battle(side(0, reserve=[F(1, "fire_dragon")]), dfn), "attacker", "front")


def test_wq_sp_07_ambush_cascade() -> None:
    """WQ-SP-07: with a satyr in the attacking rank each flee adds 2 dice, the new dice's flees add more;
    capped at AMBUSH_MAX_EXTRA extra dice."""
    b = battle(side(0, front=[F(1, "satyr_foot"), F(2, "goblin_foot")]), NOBODY)
    assert K.ambush(b, "attacker", "front") and not K.ambush(b, "attacker", "rear")
    r = RollInProgress("attack", dice=K.rank_dice(b, "attacker", "front"), ambush=True)
    assert r.dice == 2
    for face, owed in ((2, 4), (1, 4), (2, 6), (3, 6), (2, 8)):
        r = r.rolled(face)
        assert r.dice == owed
    for face in (4, 5, 6):
        r = r.rolled(face)
    assert r.done and (r.hits, r.flees, r.dice) == (1, 3, 8)
    capped = RollInProgress("attack", dice=1, ambush=True)
    for _ in range(30):
        if capped.done:
            break
        capped = capped.rolled(2)
    assert capped.extra == K.const("AMBUSH_MAX_EXTRA") and capped.dice == 1 + K.const("AMBUSH_MAX_EXTRA")
    plain = RollInProgress("attack", dice=1).rolled(2)
    assert plain.done and plain.dice == 1


def test_wq_ms_41_loser_after_a_round() -> None:
    """WQ-MS-41: a side with nobody in its ranks or Reserve has lost; both: the defender holds; troops
    only in the Retreat Area do not fight on."""
    a = side(0, front=[F(1, "goblin_foot")])
    gone = side(1, retreat=[F(10, "goblin_foot")])
    assert K.loser(battle(a, gone)) == "defender"
    assert K.loser(battle(side(0, retreat=[F(1, "goblin_foot")]), gone)) == "attacker"
    assert K.loser(battle(a, side(1, reserve=[F(10, "goblin_foot")]))) is None
    assert K.loser_at_start(battle(side(0), side(1))) == "attacker"
    assert K.loser_at_start(battle(a, side(1))) == "defender"


def test_wq_ms_41_after_the_last_round_the_side_worth_more_gold_wins() -> None:
    """WQ-MS-41 (designed): when round MAX_BATTLE_ROUNDS (8) ends with both sides standing, the side whose
    troops in the Front, Rear and Reserve are worth more gold wins; the Retreat Area does not count; equal
    worth: the defender holds. Printed prices (WQ-TR-07): Skeleton Warriors 2, Skeleton Riders 4; the
    Wraith King counts as WRAITH_KING_WORTH = 8."""
    assert K.const("MAX_BATTLE_ROUNDS") == 8 and K.const("WRAITH_KING_WORTH") == 8
    riders = side(0, front=[F(1, "skeleton_rider")], reserve=[F(2, "skeleton_rider")])  # 4 + 4 = 8
    # 2 + 2 in the fight = 4, and a Skeleton Rider (4) in the Retreat Area that does not count: 8 > 4
    fled = [F(12, "skeleton_rider")]
    warriors = side(1, front=[F(10, "skeleton_warrior")], rear=[F(11, "skeleton_warrior")], retreat=fled)
    assert K.side_worth(riders) == 8 and K.side_worth(warriors) == 4
    assert K.loser(battle(riders, warriors, rnd=8)) is None  # round 8 under way: not yet
    assert K.loser(battle(riders, warriors, rnd=9)) == "defender"  # past round 8: the richer attacker wins
    assert K.loser(battle(warriors, riders, rnd=9)) == "attacker"  # the richer defender holds
    # equal worth: the Wraith King (8) against four Skeleton Warriors (4 x 2 = 8): the defender holds
    king = side(0, front=[F(1, "wraith_king")])
    four = side(1, front=[F(10 + i, "skeleton_warrior") for i in range(4)])
    assert K.side_worth(king) == 8 and K.side_worth(four) == 8
    assert K.loser(battle(king, four, rnd=9)) == "attacker"
    assert K.loser(battle(four, king, rnd=9)) == "attacker"
    # a side with nothing in the fight still loses as before, whatever the gold
    assert K.loser(battle(riders, side(1, retreat=[F(10, "wraith_king")]), rnd=9)) == "defender"
    assert K.loser_at_cap(5, 5) == "attacker" and K.loser_at_cap(6, 5) == "defender"


def test_wq_ms_40_pursuit_dice_and_relentless_pursuit() -> None:
    """WQ-MS-40, WQ-SP-03: the winner rolls 4 dice, 8 with a Goblin Wolf Rider in its ranks or Reserve,
    plus pursuit powers; a winner with nobody there does not pursue; the pursued are the Retreat Area
    (everyone after a withdrawal); each hit kills the dearest."""
    loser = side(1, front=[F(10, "goblin_foot")], retreat=[F(11, "bugbear"), F(12, "goblin_foot")])
    b = battle(side(0, front=[F(1, "goblin_foot")]), loser)
    assert K.pursuit_dice(b, "attacker") == 4
    wolves = battle(side(0, reserve=[F(1, "goblin_wolf_rider")]), loser)
    assert K.pursuit_dice(wolves, "attacker") == 8
    fled_wolf = battle(side(0, front=[F(2, "goblin_foot")], retreat=[F(1, "goblin_wolf_rider")]), loser)
    assert K.pursuit_dice(fled_wolf, "attacker") == 4
    powered = battle(side(0, front=[F(1, "goblin_foot")], mods=SideMods(pursuit_dice=2)), loser)
    assert K.pursuit_dice(powered, "attacker") == 6
    assert K.pursuit_dice(battle(side(0, retreat=[F(1, "goblin_foot")]), loser), "attacker") == 0
    assert [f.id for f in K.pursued(b, "defender", withdrew=False)] == [11, 12]
    assert [f.id for f in K.pursued(b, "defender", withdrew=True)] == [10, 11, 12]
    assert K.default_pursuit(b, "defender", 1, withdrew=False) == (11,)
    assert K.default_pursuit(b, "defender", 5, withdrew=False) == (11, 12)
    assert K.check_pursuit(b, "defender", 1, (12,), withdrew=False) is None
    assert K.check_pursuit(b, "defender", 1, (10,), withdrew=False) is not None
    assert K.check_pursuit(b, "defender", 2, (12,), withdrew=False) is not None
    after = K.apply_pursuit(b, "defender", (10, 11))
    assert after.defender.everyone() == (F(12, "goblin_foot"),)


def test_battles_are_hashable_values() -> None:
    """The odds memoise on battles: equal contents, equal hashes."""
    a = battle(side(0, front=[F(1, "goblin_foot")]), NOBODY)
    b = battle(side(0, front=[F(1, "goblin_foot")]), NOBODY)
    assert a == b and hash(a) == hash(b)


@pytest.mark.parametrize("kind", ["goblin_foot", "troll", "wraith_king", "fire_dragon"])
def test_every_kind_has_stats(kind: str) -> None:
    """The kernel reads every kind from the data (the Wraith King, unbuyable, counts as the dearest)."""
    s = K.stats(kind)
    assert s.defense >= 1 and s.worth >= 1
