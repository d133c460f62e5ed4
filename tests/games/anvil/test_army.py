"""Army lists (FA-GN-03/04, FA-UD-01..08, FA-ST-02..04, FA-SD) and the unit helpers, by hand from the text."""

from __future__ import annotations

import pytest

from iwgt.games.anvil.army import (
    ArmyList,
    ArmyUnit,
    army_dcp,
    deploy_cost,
    move_allowance,
    problems_of,
    start_hp,
    validate_army,
)


def u(kind: str, name: str = "", general: bool = False, *strats: str) -> ArmyUnit:
    return ArmyUnit(kind, name or kind.title(), general, tuple(strats))  # type: ignore[arg-type]


def troops(n: int) -> list[ArmyUnit]:
    return [u("troop", f"Troop {i + 1}") for i in range(n)]


# Hero 3 (15%), Wizard 2 (10%), Knights 4 (20%), Monster 3 (15%), Troops 8 (40%): 20 DCP.
GOOD = ArmyList(
    (u("hero", "Lord", True), u("wizard"), u("knight", "K1"), u("knight", "K2"), u("monster"), *troops(8))
)


def test_a_good_army_is_accepted() -> None:
    assert army_dcp(GOOD) == 20
    assert validate_army(GOOD, 20) == []
    assert problems_of(GOOD, 24) == []  # a smaller army than the budget is fine (<= budget)


@pytest.mark.parametrize(
    ("army", "problem"),
    [
        # FA-UD-02: three Heroes are 9 of 20 DCP = 45% (at most 30%).
        ([u("hero", "H1", True), u("hero", "H2"), u("hero", "H3"), *troops(11)],
         "FA-UD-02: Heroes are 9 of 20 DCP (45%); at most 30%"),
        # FA-UD-03: three Wizards are 6 of 20 = 30% (at most 20%).
        ([u("wizard", "W1", True), u("wizard", "W2"), u("wizard", "W3"), *troops(14)],
         "FA-UD-03: Wizards are 6 of 20 DCP (30%); at most 20%"),
        # FA-UD-04: two Monsters are 6 of 16 = 37.5% (at most 30%).
        ([u("monster", "M1", True), u("monster", "M2"), *troops(10)],
         "FA-UD-04: Monsters are 6 of 16 DCP (37.5%); at most 30%"),
        # FA-UD-05: five Knights are 10 of 20 = 50% (at most 40%).
        ([u("knight", "K1", True), *[u("knight", f"K{i}") for i in range(2, 6)], *troops(10)],
         "FA-UD-05: Knights are 10 of 20 DCP (50%); at most 40%"),
        # FA-UD-06: three War Machines are 12 of 20 = 60% (at most 40%).
        ([u("war_machine", "W1", True), u("war_machine", "W2"), u("war_machine", "W3"), *troops(8)],
         "FA-UD-06: War Machines are 12 of 20 DCP (60%); at most 40%"),
        # FA-UD-07: Troops 4 of 20 = 20% (at least 40%):
        # Hero 3, Wizard 2, Monster 3, Knights 4, War Machine 4.
        ([u("hero", "H", True), u("wizard"), u("monster"), u("knight", "K1"), u("knight", "K2"),
          u("war_machine"), *troops(4)],
         "FA-UD-07: Troops are 4 of 20 DCP (20%); at least 40%"),
    ],
)  # fmt: skip
def test_each_availability_limit_is_refused_with_its_clause(army: list[ArmyUnit], problem: str) -> None:
    assert validate_army(ArmyList(tuple(army)), 20) == [problem]


def test_the_limits_themselves_are_allowed() -> None:
    # Heroes 6 of 20 = 30% exactly, Troops 8 of 20 = 40% exactly, Wizard 2 = 10%, Knights 4 = 20%.
    army = ArmyList(
        (
            u("hero", "H1", True),
            u("hero", "H2"),
            u("wizard"),
            u("knight", "K1"),
            u("knight", "K2"),
            *troops(8),
        )
    )
    assert army_dcp(army) == 20 and validate_army(army, 20) == []


def test_the_budget_fa_gn_03() -> None:
    # GOOD plus one Troop: 21 DCP (Troops 9 of 21 = 42.9%, Hero 14.3%: still within the limits).
    army = ArmyList((*GOOD.units, u("troop", "Extra")))
    assert validate_army(army, 20) == ["FA-GN-03: the army is 21 DCP; the budget is 20 DCP"]
    assert validate_army(army, 21) == []


def test_deployment_stratagems_do_not_count_in_the_army_dcp_fa_st_03() -> None:
    # A Weak Troop with Swiftness still counts 1 DCP (its type's) in the army and its percentages.
    army = ArmyList((*GOOD.units[:-1], u("troop", "Fast", False, "weak", "swiftness")))
    assert army_dcp(army) == 20 and validate_army(army, 20) == []


def test_exactly_one_general_fa_gn_04() -> None:
    none = ArmyList(tuple(replace_general(GOOD.units, False)))
    assert validate_army(none, 20) == ["FA-GN-04: exactly one General's unit is needed; found none"]
    two = ArmyList((*GOOD.units[:-1], u("troop", "Captain", True)))
    assert validate_army(two, 20) == [
        "FA-GN-04: exactly one General's unit is needed; found 2 (Lord (Hero), Captain (Troop))"
    ]


def replace_general(units: tuple[ArmyUnit, ...], flag: bool) -> list[ArmyUnit]:
    return [ArmyUnit(x.type, x.name, flag, x.stratagems) for x in units]


def test_the_seat_is_not_chosen_fa_ud_08() -> None:
    army = ArmyList((*GOOD.units, u("seat", "Throne")))
    assert validate_army(army, 20) == [
        "FA-UD-08: 'Throne': the Seat of Power is not chosen; every army has exactly one"
    ]


def test_an_empty_army_is_refused() -> None:
    assert validate_army(ArmyList(()), 20) == ["FA-GN-03: the army has no unit"]


def with_strats(index: int, *strats: str) -> ArmyList:
    units = list(GOOD.units)
    x = units[index]
    units[index] = ArmyUnit(x.type, x.name, x.general, tuple(strats))
    return ArmyList(tuple(units))


HERO, WIZARD, KNIGHT, MONSTER, TROOP = 0, 1, 2, 4, 5


@pytest.mark.parametrize(
    ("index", "strats", "problem"),
    [
        (HERO, ("shooter",), "FA-ST-02: Lord (Hero): Shooter is for Knight, War Machine, Troop only"),
        (HERO, ("weak",), "FA-ST-02: Lord (Hero): Weak is for Monster, Knight, War Machine, Troop only"),
        (HERO, ("fear",), "FA-ST-02: Lord (Hero): Fear is for Monster, Knight, Troop only"),
        (WIZARD, ("tough",), "FA-ST-02: Wizard (Wizard): Tough is for Hero, Monster, Knight, Troop only"),
        (KNIGHT, ("infiltrate",),
         "FA-ST-02: K1 (Knight): Infiltrate is for Hero, Wizard, Monster, Troop only"),
        (TROOP, ("shooter", "heavy_projectile"),
         "FA-ST-02: Troop 1 (Troop): Heavy Projectile is for War Machine with Shooter only"),
        (TROOP, ("march",),
         "FA-ST-04: Troop 1 (Troop): March is a movement stratagem, used in play, not chosen with the army"),
        (TROOP, ("swiftness", "swiftness"),
         "FA-AC-02: Troop 1 (Troop): Swiftness is chosen twice; each at most once"),
        (TROOP, ("wings",),
         "FA-ST-02: Troop 1 (Troop): unknown stratagem 'wings'; "
         "choose flanking, swiftness, shooter, weak, fear, heavy_projectile, tough, infiltrate"),
        (TROOP, ("weak", "shooter"),
         "FA-SD-09: Troop 1 (Troop) would start with 0 HP (weak + shooter); a unit starts with at least 1"),
    ],
)  # fmt: skip
def test_stratagem_users_and_limits(index: int, strats: tuple[str, ...], problem: str) -> None:
    assert validate_army(with_strats(index, *strats), 20) == [problem]


def test_heavy_projectile_needs_shooter_and_excludes_swiftness_fa_sd_12_14() -> None:
    # Hero 3, Wizard 2, Knight 2, War Machine 4 (21%), Troops 8 (42%): 19 DCP.
    def army(*strats: str) -> ArmyList:
        return ArmyList((*GOOD.units[:3], u("war_machine", "Catapult", False, *strats), *troops(8)))

    assert validate_army(army("shooter", "heavy_projectile"), 20) == []
    assert validate_army(army("heavy_projectile"), 20) == [
        "FA-SD-12: Catapult (War Machine): Heavy Projectile needs a War Machine with Shooter"
    ]
    assert validate_army(army("shooter", "heavy_projectile", "swiftness"), 20) == [
        'FA-SD-14: Catapult (War Machine): Heavy Projectile reduces Move to 4" for the entire game; '
        "Swiftness cannot go with it"
    ]


def test_every_problem_is_listed_at_once() -> None:
    # No General, a Shooter Hero and too many Heroes: three problems, each with its clause.
    army = ArmyList((u("hero", "H1", False, "shooter"), u("hero", "H2"), u("hero", "H3"), *troops(11)))
    got = validate_army(army, 20)
    assert [p.split(":")[0] for p in got] == ["FA-GN-04", "FA-ST-02", "FA-UD-02"]


def test_weak_and_shooter_on_a_knight_is_fine() -> None:
    # 8 - 2 - 2 = 4 HP: allowed.
    assert start_hp(u("knight", "K", False, "weak", "shooter")) == 4


@pytest.mark.parametrize(
    ("unit", "hp"),
    [
        (u("troop"), 4),
        (u("troop", "", False, "shooter"), 2),  # FA-SD-07
        (u("troop", "", False, "tough"), 6),  # FA-SD-16
        (u("monster", "", False, "weak"), 6),  # FA-SD-09
        (u("knight", "", False, "tough", "shooter"), 8),
        (u("war_machine", "", False, "shooter", "heavy_projectile"), 10),
        (u("hero", "", True, "tough"), 6),
    ],
)
def test_start_hp(unit: ArmyUnit, hp: int) -> None:
    assert start_hp(unit) == hp


@pytest.mark.parametrize(
    ("unit", "move"),
    [
        (u("troop"), 6.0),
        (u("knight"), 4.0),  # FA-CRM-PROFILE-KNIGHT
        (u("knight", "", False, "swiftness"), 10.0),  # FA-SD-04: +6
        (u("hero", "", False, "swiftness", "infiltrate"), 12.0),
        (u("war_machine", "", False, "shooter", "heavy_projectile"), 4.0),  # FA-SD-14
    ],
)
def test_move_allowance(unit: ArmyUnit, move: float) -> None:
    assert move_allowance(unit) == move


@pytest.mark.parametrize(
    ("unit", "entry", "cost"),
    [
        (u("troop"), "own", 2),  # 1 CP + 1 DCP (FA-DP-02)
        (u("troop", "", False, "weak"), "own", 1),  # 1 + 1 - 1 (FA-SD-08)
        (u("hero", "", True), "own", 1),  # the General's unit: no DCP (FA-DP-04)
        (u("hero", "", True, "swiftness"), "own", 3),  # 1 + 0 + 2
        (u("hero", "", False, "infiltrate"), "infiltrate", 7),  # 1 + 3 + 3 (FA-SD-17 read as DCP)
        (u("hero", "", False, "infiltrate"), "own", 4),  # decided: Infiltrate paid only when used: 1 + 3
        (u("war_machine", "", False, "shooter", "heavy_projectile"), "own", 8),  # 1 + 4 + 1 + 2
        (u("monster", "", False, "flanking", "weak"), "left", 5),  # 1 + 3 + 2 - 1
        (u("monster", "", False, "flanking", "weak"), "own", 3),  # decided: no Flanking paid: 1 + 3 - 1
        (u("troop", "", True, "weak"), "own", 1),  # a Weak General: the DCP part stays at 0, the 1 CP is paid
    ],
)
def test_deploy_cost(unit: ArmyUnit, entry: str, cost: int) -> None:
    assert deploy_cost(unit, entry) == cost


def test_any_army_shaped_object_will_do() -> None:
    # The muster action's own dataclasses have the same fields: the functions read only those.
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Entry:
        type: str
        name: str
        general: bool = False
        stratagems: tuple[str, ...] = ()

    @dataclass(frozen=True)
    class Army:
        units: tuple[Entry, ...]

    army = Army(tuple(Entry(x.type, x.name, x.general, x.stratagems) for x in GOOD.units))
    assert validate_army(army, 20) == []
    bad = Army((*army.units, Entry("dragon", "Smaug")))
    assert validate_army(bad, 20) == [
        "FA-UD-01: unit 14 ('Smaug'): unknown unit type 'dragon'; "
        "choose hero, wizard, monster, knight, war_machine, troop"
    ]
