"""Every stratagem's price, users and effect, computed by hand from the text (the clause id in each test).

The toggles (Brace, Hammerblow, March, Skirmishing, Fly/Burrow, Interpenetration, Parthian Shot) are here;
the interruptions are in test_interruptions.py, Ballistics in test_shooting.py, the spells in
test_spells.py, Steady and Raise a Champion in test_heroic.py; the deployment stratagems' HP and Move are
checked here against the army helpers, fear and Heavy Projectile in combat.
"""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import ArmyEntry, Engage, Stratagem
from iwgt.games.anvil.army import move_allowance, start_hp
from iwgt.games.anvil.combat import engage_actions
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.stratagems import TOGGLES, stratagem_actions

from .kit import act, block, of, place, table


def _one(type_: str = "troop", cp: int = 10, **kw):  # type: ignore[no-untyped-def]
    """One unit of seat 0 at (18, 10) and an enemy Troop at (18, 15)."""
    return table([place(0, type_, 18, 10, **kw), place(1, "troop", 18, 15)], cp=(cp, 0))


def _keys(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.key for a in stratagem_actions(s)}


@pytest.mark.parametrize(
    ("type_", "offered"),
    [
        ("hero", {"brace", "march", "hammerblow", "fly_burrow"}),
        ("wizard", {"march", "fly_burrow"}),
        ("monster", {"march", "hammerblow", "fly_burrow"}),
        ("knight", {"brace", "march", "hammerblow", "interpenetration"}),
        ("war_machine", {"march", "hammerblow"}),
        ("troop", {"brace", "march", "hammerblow", "skirmishing", "interpenetration"}),
    ],
)
def test_who_may_use_which_toggle(type_: str, offered: set[str]) -> None:
    """FA-ST-02: the users in brackets: Brace (Hero, Knight, Troops) FA-SC-01; Hammerblow (Hero, Monster,
    Knight, War Machine, Troop) FA-SC-04; March (any) FA-SM-04; Fly/Burrow (Hero, Wizard, Monster)
    FA-SM-01; Interpenetration (Knight, Troop) FA-SM-07; Skirmishing (Troop) FA-SM-09; Parthian Shot
    (Troop and Shooter) FA-SS-07."""
    assert _keys(_one(type_)) == offered


def test_parthian_shot_for_a_troop_with_shooter_only() -> None:
    """FA-SS-07: "Troop and Shooter"."""
    assert "parthian" in _keys(_one("troop", stratagems=("shooter",)))
    assert "parthian" not in _keys(_one("knight", stratagems=("shooter",)))


@pytest.mark.parametrize(
    ("key", "cost"),
    [("brace", 1), ("march", 1), ("hammerblow", 2), ("skirmishing", 2), ("interpenetration", 2)],
)
def test_toggle_prices(key: str, cost: int) -> None:
    """FA-SC-01 Brace 1, FA-SM-04 March 1, FA-SC-04 Hammerblow 2, FA-SM-09 Skirmishing 2, FA-SM-07
    Interpenetration 2 CP, paid from the CP left (FA-ST-01)."""
    s, ev = act(_one(), Stratagem(key))
    assert s.cp == (10 - cost, 0)
    used = of(ev, "StratagemUsed")[0]
    assert used.cost == cost and used.key == TOGGLES[key]  # type: ignore[attr-defined]


def test_fly_burrow_price() -> None:
    """FA-SM-01: Fly/Burrow 2 CP; Parthian Shot 1 CP (FA-SS-07)."""
    s, _ = act(_one("hero"), Stratagem("fly_burrow"))
    assert s.cp == (8, 0) and s.activation is not None and s.activation.used("fly")
    s, _ = act(_one("troop", stratagems=("shooter",)), Stratagem("parthian"))
    assert s.cp == (9, 0) and s.activation is not None and s.activation.used("parthian_shot")


def test_a_stratagem_that_cannot_be_paid_is_not_legal() -> None:
    """FA-AC-02 decided: with 1 CP left, Hammerblow (2) is not offered and is refused; Brace (1) is."""
    s = _one(cp=1)
    assert "hammerblow" not in _keys(s) and "brace" in _keys(s)
    with pytest.raises(IllegalAction, match="2 CP"):
        act(s, Stratagem("hammerblow"))


def test_each_stratagem_at_most_once_per_activation() -> None:
    """FA-AC-02 decided: March twice in one activation is refused."""
    s, _ = act(_one(), Stratagem("march"))
    assert "march" not in _keys(s)
    with pytest.raises(IllegalAction, match="FA-AC-02"):
        act(s, Stratagem("march"))


def test_the_seat_of_power_takes_none() -> None:
    """FA-GN-08: "The Seat of Power ... can not be given any Stratagems"."""
    s = table([place(0, "seat", 18, 5), place(1, "troop", 18, 15)], cp=(10, 0))
    assert stratagem_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-GN-08"):
        act(s, Stratagem("march"))


def test_brace_marks_the_unit_and_ends_its_movement() -> None:
    """FA-SC-02/03: the marker; a braced unit may not move (allowance 0), so not engage."""
    s, _ = act(_one(), Stratagem("brace"))
    assert s.unit(0).braced and s.activation is not None and s.activation.allowance == 0.0
    assert engage_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SC-03"):
        act(s, Engage(0, 1))


def test_brace_takes_three_from_an_attack() -> None:
    """FA-SC-02: FA-CRM-MONSTER-TROOP front 3 - 3 = 0 against a braced Troop; it cannot bounce back
    (FA-SC-03 decided): 1 HP lost instead."""
    s = table([place(0, "monster", 18, 10), place(1, "troop", 18, 15, braced=True)], cp=(10, 0))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 0 and s.unit(1).hp == 3  # type: ignore[attr-defined]


def test_hammerblow_adds_one_to_the_engage() -> None:
    """FA-SC-05: FA-CRM-TROOP-TROOP front 2 + 1 = 3."""
    s, _ = act(_one(), Stratagem("hammerblow"))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 3 and s.unit(1).hp == 1  # type: ignore[attr-defined]


def test_hammerblow_is_declared_before_the_attack() -> None:
    """FA-SC-05 decided: not after the engage."""
    s = table([place(0, "troop", 18, 10), place(1, "troop", 18, 15)], cp=(10, 0))
    s, _ = act(s, Engage(0, 1))
    assert "hammerblow" not in _keys(s)


def test_march_adds_three_inches_and_forbids_the_engage() -> None:
    """FA-SM-05/06: a Troop's 6" + 3 = 9"; no engage."""
    s, _ = act(_one(), Stratagem("march"))
    assert s.activation is not None and s.activation.allowance == pytest.approx(9.0)
    assert engage_actions(s) == []


def test_skirmishing_adds_two_inches_and_a_token() -> None:
    """FA-SM-10..12: 6" + 2 = 8"; the Skirmish token (front only in combat, test_combat.py)."""
    s, _ = act(_one(), Stratagem("skirmishing"))
    assert s.activation is not None and s.activation.allowance == pytest.approx(8.0)
    assert s.unit(0).skirmishing
    # The token lasts the turn: a second Skirmishing this turn is not offered.
    assert "skirmishing" not in _keys(table([place(0, "troop", 18, 10, skirmishing=True)], cp=(10, 0)))


def test_movement_stratagems_are_declared_before_moving() -> None:
    """Spec 1: March, Skirmishing, Fly/Burrow, Interpenetration are declared before the move."""
    from dataclasses import replace

    s = _one()
    assert s.activation is not None
    s = replace(s, activation=replace(s.activation, moved=True))
    assert _keys(s) == {"brace", "hammerblow"}


def test_fly_burrow_crosses_impassable_ground() -> None:
    """FA-SM-02: the Hero engages across a strip of impassable ground (refused without Fly/Burrow)."""
    rock = block(10, 11.5, 26, 12.5, impassable=True)
    units = [place(0, "hero", 18, 10), place(1, "troop", 18, 15)]
    s = table(units, cp=(10, 0), features=(rock,))
    assert engage_actions(s) == []
    s, _ = act(s, Stratagem("fly_burrow"))
    assert engage_actions(s) == [Engage(0, 1)]
    s, _ = act(s, Engage(0, 1))
    assert s.unit(0).tray is not None and s.unit(0).tray.centre == pytest.approx((18.0, 13.5))


def test_fly_burrow_ignores_halving_ground() -> None:
    """FA-SM-02: a Hero 5.5" from contact across 4" of halving ground: 9.5" on foot (refused, Move 6),
    5.5" flying."""
    marsh = block(10, 9, 26, 13, halves=True)
    units = [place(0, "hero", 18, 8), place(1, "troop", 18, 15)]
    s = table(units, cp=(10, 0), features=(marsh,))
    assert engage_actions(s) == []
    s, _ = act(s, Stratagem("fly_burrow"))
    s, ev = act(s, Engage(0, 1))
    assert of(ev, "EngageDeclared")[0].cost == pytest.approx(5.5)  # type: ignore[attr-defined]


def test_interpenetration_engages_through_a_friend() -> None:
    """FA-SM-08: a friend on the engage line: refused, but allowed with Interpenetration."""
    units = [place(0, "troop", 18, 8), place(1, "troop", 18, 15), place(0, "troop", 18, 11)]
    s = table(units, cp=(10, 0))
    assert engage_actions(s) == []
    s, _ = act(s, Stratagem("interpenetration"))
    assert engage_actions(s) == [Engage(0, 1)]


@pytest.mark.parametrize(
    ("type_", "strats", "hp", "move"),
    [
        ("troop", ("shooter",), 2, 6.0),  # FA-SD-07: 4 - 2
        ("troop", ("weak",), 2, 6.0),  # FA-SD-09: 4 - 2
        ("knight", ("tough",), 10, 4.0),  # FA-SD-16: 8 + 2
        ("hero", ("swiftness",), 4, 12.0),  # FA-SD-04: 6 + 6
        ("war_machine", ("shooter", "heavy_projectile"), 10, 4.0),  # FA-SD-07, FA-SD-14: 12 - 2, Move 4
        ("monster", ("fear",), 8, 6.0),  # FA-SD-11: no HP or Move change
    ],
)
def test_deployment_stratagems_hp_and_move(type_: str, strats: tuple[str, ...], hp: int, move: float) -> None:
    """The deployment stratagems' HP and Move for the entire game."""
    entry = ArmyEntry(type_, "x", False, strats)
    assert start_hp(entry) == hp and move_allowance(entry) == move


def test_deployment_stratagem_prices() -> None:
    """FA-SD-01 Flanking 2, FA-SD-03 Swiftness 2, FA-SD-05 Shooter 1, FA-SD-08 Weak -1, FA-SD-10 fear 2,
    FA-SD-12 Heavy Projectile 2, FA-SD-15 Tough 2, FA-SD-17 Infiltrate 3 (DCP, decided)."""
    want = {
        "flanking": 2,
        "swiftness": 2,
        "shooter": 1,
        "weak": -1,
        "fear": 2,
        "heavy_projectile": 2,
        "tough": 2,
        "infiltrate": 3,
    }
    for key, cost in want.items():
        s = rules().stratagem(key)
        assert (s.cost, s.currency) == (cost, "DCP"), key
