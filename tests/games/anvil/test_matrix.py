"""The Combat Resolution Matrix exactly as printed (FA-CRM-04/05 and the 36 FA-CRM-<ATT>-<DEF> cells) and each
combat stratagem's effect on ``resolve``, every expectation written out by hand from the rules text.
"""

from __future__ import annotations

import pytest

from iwgt.games.anvil.matrix import Attack, ballistics_band, cell, resolve

N = None  # NATE: the attacker is not allowed to engage on that side (FA-CRM-05)

# The matrix as the text prints it, copied cell by cell: one row per DEFENDER, the columns the
# ATTACKERS in the printed order (FA-CRM-04); the row "Troops" is the Troop type.
COLUMNS = ("hero", "wizard", "monster", "knight", "war_machine", "troop")
PRINTED = {
    "hero": (
        "2 Front 4 Flanks 5 Rear Defender BB", "1 Front 2 Flanks 3 Rear Attacker BB",
        "2 Front 4 Flanks 5 Rear Defender BB", "2 Front 3 Flanks 4 Rear Defender BB",
        "3 Front 5 Flanks 5 Rear Defender BB", "1 Front 2 Flanks 3 Rear Defender BB",
    ),
    "wizard": (
        "2 Front 5 Flanks 5 Rear Defender BB", "2 Front 4 Flanks 5 Rear Defender BB",
        "3 Front 4 Flanks 5 Rear Defender BB", "3 Front 4 Flanks 5 Rear Defender BB",
        "3 Front 5 Flanks 5 Rear Defender BB", "2 Front 3 Flanks 4 Rear Defender BB",
    ),
    "monster": (
        "2 Front 3 Flanks 4 Rear Defender BB", "1 Front 2 Flanks 3 Rear Defender BB",
        "2 Front 3 Flanks 4 Rear Defender BB", "3 Front 4 Flanks 5 Rear Defender BB",
        "3 Front 4 Flanks 5 Rear Defender BB", "1 Front 2 Flanks 3 Rear Defender BB",
    ),
    "knight": (
        "2 Front 3 Flanks 4 Rear Defender BB", "NATE 2 Flanks 3 Rear Attacker BB",
        "1 Front 3 Flanks 4 Rear Defender BB", "2 Front 3 Flanks 4 Rear Defender BB",
        "2 Front 3 Flanks 4 Rear Defender BB", "1 Front 1 Flank 2 Rear Defender BB",
    ),
    "war_machine": (
        "NATE 3 Flanks 5 Rear Attacker BB", "NATE NATE 2 Rear Attacker BB",
        "1 Front 2 Flanks 4 Rear Attacker BB", "NATE 2 Flanks 4 Rear Attacker BB",
        "3 Front NATE NATE Defender BB", "NATE 1 Flank 2 Rear Attacker BB",
    ),
    "troop": (
        "3 Front 4 Flanks 5 Rear Defender BB", "2 Front 3 Flank 3 Rear Defender BB",
        "3 Front 4 Flanks 5 Rear Defender BB", "3 Front 4 Flanks 5 Rear Defender BB",
        "3 Front 5 Flanks 5 Rear Defender BB", "2 Front 3 Flanks 4 Rear Defender BB",
    ),
}  # fmt: skip

# The same 36 cells read by hand, attacker then defender: (front, flank, rear), who bounces back, clause id.
CELLS = [
    ("hero", "hero", (2, 4, 5), "defender", "FA-CRM-HERO-HERO"),
    ("hero", "wizard", (2, 5, 5), "defender", "FA-CRM-HERO-WIZARD"),
    ("hero", "monster", (2, 3, 4), "defender", "FA-CRM-HERO-MONSTER"),
    ("hero", "knight", (2, 3, 4), "defender", "FA-CRM-HERO-KNIGHT"),
    ("hero", "war_machine", (N, 3, 5), "attacker", "FA-CRM-HERO-WARMACHINE"),
    ("hero", "troop", (3, 4, 5), "defender", "FA-CRM-HERO-TROOP"),
    ("wizard", "hero", (1, 2, 3), "attacker", "FA-CRM-WIZARD-HERO"),
    ("wizard", "wizard", (2, 4, 5), "defender", "FA-CRM-WIZARD-WIZARD"),
    ("wizard", "monster", (1, 2, 3), "defender", "FA-CRM-WIZARD-MONSTER"),
    ("wizard", "knight", (N, 2, 3), "attacker", "FA-CRM-WIZARD-KNIGHT"),
    ("wizard", "war_machine", (N, N, 2), "attacker", "FA-CRM-WIZARD-WARMACHINE"),
    ("wizard", "troop", (2, 3, 3), "defender", "FA-CRM-WIZARD-TROOP"),
    ("monster", "hero", (2, 4, 5), "defender", "FA-CRM-MONSTER-HERO"),
    ("monster", "wizard", (3, 4, 5), "defender", "FA-CRM-MONSTER-WIZARD"),
    ("monster", "monster", (2, 3, 4), "defender", "FA-CRM-MONSTER-MONSTER"),
    ("monster", "knight", (1, 3, 4), "defender", "FA-CRM-MONSTER-KNIGHT"),
    ("monster", "war_machine", (1, 2, 4), "attacker", "FA-CRM-MONSTER-WARMACHINE"),
    ("monster", "troop", (3, 4, 5), "defender", "FA-CRM-MONSTER-TROOP"),
    ("knight", "hero", (2, 3, 4), "defender", "FA-CRM-KNIGHT-HERO"),
    ("knight", "wizard", (3, 4, 5), "defender", "FA-CRM-KNIGHT-WIZARD"),
    ("knight", "monster", (3, 4, 5), "defender", "FA-CRM-KNIGHT-MONSTER"),
    ("knight", "knight", (2, 3, 4), "defender", "FA-CRM-KNIGHT-KNIGHT"),
    ("knight", "war_machine", (N, 2, 4), "attacker", "FA-CRM-KNIGHT-WARMACHINE"),
    ("knight", "troop", (3, 4, 5), "defender", "FA-CRM-KNIGHT-TROOP"),
    ("war_machine", "hero", (3, 5, 5), "defender", "FA-CRM-WARMACHINE-HERO"),
    ("war_machine", "wizard", (3, 5, 5), "defender", "FA-CRM-WARMACHINE-WIZARD"),
    ("war_machine", "monster", (3, 4, 5), "defender", "FA-CRM-WARMACHINE-MONSTER"),
    ("war_machine", "knight", (2, 3, 4), "defender", "FA-CRM-WARMACHINE-KNIGHT"),
    ("war_machine", "war_machine", (3, N, N), "defender", "FA-CRM-WARMACHINE-WARMACHINE"),
    ("war_machine", "troop", (3, 5, 5), "defender", "FA-CRM-WARMACHINE-TROOP"),
    ("troop", "hero", (1, 2, 3), "defender", "FA-CRM-TROOP-HERO"),
    ("troop", "wizard", (2, 3, 4), "defender", "FA-CRM-TROOP-WIZARD"),
    ("troop", "monster", (1, 2, 3), "defender", "FA-CRM-TROOP-MONSTER"),
    ("troop", "knight", (1, 1, 2), "defender", "FA-CRM-TROOP-KNIGHT"),
    ("troop", "war_machine", (N, 1, 2), "attacker", "FA-CRM-TROOP-WARMACHINE"),
    ("troop", "troop", (2, 3, 4), "defender", "FA-CRM-TROOP-TROOP"),
]
SIDES = ("front", "flank", "rear")
HP = {"hero": 4, "wizard": 4, "monster": 8, "knight": 8, "war_machine": 12, "troop": 4, "seat": 4}
"""The profiles' HP (the matrix's second row; the Seat counts as a Troop, FA-GN-07)."""


def test_the_hand_table_is_the_printed_matrix_fa_crm_04() -> None:
    # The hand-read table against the text's rows (defenders) and columns (attackers).
    assert len(CELLS) == 36 and len({(a, d) for a, d, *_ in CELLS}) == 36
    for att, dfn, values, bounce, _ in CELLS:
        words = PRINTED[dfn][COLUMNS.index(att)].split()
        read: list[int | None] = []
        i = 0
        for _side in SIDES:
            if words[i] == "NATE":
                read.append(None)
                i += 1
            else:
                read.append(int(words[i]))
                i += 2
        assert tuple(read) == values, (att, dfn)
        assert words[i].lower() == bounce and words[i + 1] == "BB"


CASES = [
    pytest.param(att, dfn, side, values[k], bounce, clause, id=f"{clause}-{side}")
    for att, dfn, values, bounce, clause in CELLS
    for k, side in enumerate(SIDES)
]


@pytest.mark.parametrize(("att", "dfn", "side", "value", "bounce", "clause"), CASES)
def test_every_cell_and_side(
    att: str, dfn: str, side: str, value: int | None, bounce: str, clause: str
) -> None:
    # FA-CRM-<ATT>-<DEF>: the cell's value for the side engaged; NATE: no engage (FA-CRM-05, FA-EN-03).
    c = cell(att, dfn)  # type: ignore[arg-type]
    assert c.clause == clause and c.bounce == bounce
    assert c.value(side) == value  # type: ignore[arg-type]
    out = resolve(Attack(att, dfn, side))  # type: ignore[arg-type]
    assert clause in out.clauses
    if value is None:
        assert (out.allowed, out.damage, out.bounce_back) == (False, None, None)
        assert "FA-CRM-05" in out.clauses and "FA-EN-03" in out.clauses
        assert not out.destroyed and out.excess_move == 0
        return
    assert out.allowed and out.damage == value
    destroyed = value >= HP[dfn]
    assert out.destroyed == destroyed
    assert out.excess_move == max(0, value - HP[dfn])
    # FA-BB-01: the unit the cell names bounces back when the defender is not destroyed.
    assert out.bounce_back == (None if destroyed else bounce)
    assert out.defender_hp_left == max(0, HP[dfn] - value)


@pytest.mark.parametrize("att", COLUMNS)
def test_the_seat_fights_as_a_troop_fa_crm_06(att: str) -> None:
    # FA-GN-07, FA-CRM-06: the Troop column as attacker, the "Troops" row as defender.
    assert cell(att, "seat") == cell(att, "troop")  # type: ignore[arg-type]
    assert cell("seat", att) == cell("troop", att)  # type: ignore[arg-type]
    out = resolve(Attack("troop", "seat", "flank"))
    # Troop on Troops, flank: 3 of the Seat's 4 HP; it must bounce back but never moves: held (FA-BB-04).
    assert (out.damage, out.defender_hp_left, out.bounce_back, out.held) == (3, 1, "defender", ("defender",))
    assert "FA-CRM-06" in out.clauses and "FA-BB-04" in out.clauses


# ---------------------------------------------------------------- combat stratagems (FA-SC)


def test_hammerblow_adds_one_fa_sc_05() -> None:
    # Hero on Troop, flank 4, +1 = 5 against 4 HP: destroyed, 1" of excess movement (FA-CRM-03).
    out = resolve(Attack("hero", "troop", "flank", hammerblow=True))
    assert (out.damage, out.destroyed, out.excess_move, out.bounce_back) == (5, True, 1.0, None)
    assert "FA-SC-05" in out.clauses and "FA-CRM-03" in out.clauses


def test_hammerblow_is_not_for_a_wizard_fa_sc_04() -> None:
    with pytest.raises(ValueError, match="FA-SC-04"):
        resolve(Attack("wizard", "troop", hammerblow=True))


def test_brace_takes_three_and_holds_the_unit_fa_sc_02_03() -> None:
    # Hero on Troop, front 3, -3 = 0: not destroyed, must bounce back but may not move (FA-SC-03, FA-BB-04).
    out = resolve(Attack("hero", "troop", "front", brace=True))
    assert (out.damage, out.destroyed, out.bounce_back, out.held) == (0, False, "defender", ("defender",))
    assert {"FA-SC-02", "FA-SC-03", "FA-BB-04"} <= set(out.clauses)
    # Troop on Knight, front 1, -3: floored at 0, never healing.
    assert resolve(Attack("troop", "knight", "front", brace=True)).damage == 0
    # War Machine on Hero, rear 5, +1 Hammerblow -3 Brace = 3: the Hero keeps 1 HP.
    out = resolve(Attack("war_machine", "hero", "rear", brace=True, hammerblow=True))
    assert (out.damage, out.defender_hp_left, out.destroyed) == (3, 1, False)


def test_brace_is_not_for_a_wizard_fa_sc_01() -> None:
    with pytest.raises(ValueError, match="FA-SC-01"):
        resolve(Attack("hero", "wizard", brace=True))


# ---------------------------------------------------------------- Counterattack (FA-SI-02..05)


def test_counterattack_both_deal_damage_both_bounce_fa_si_02_04() -> None:
    # Knight on Troop, front: 3 (Troop 4 -> 1). The Troop counters with its column's front on the Knight
    # row: 1 (Knight 8 -> 7). Nobody destroyed: both bounce back.
    out = resolve(Attack("knight", "troop", "front", counterattack=True))
    assert (out.damage, out.counter_damage) == (3, 1)
    assert (out.defender_hp_left, out.attacker_hp_left) == (1, 7)
    assert out.bounce_back == "both" and not out.destroyed and not out.attacker_destroyed
    assert {"FA-SI-02", "FA-SI-03", "FA-SI-04"} <= set(out.clauses)


def test_counterattack_uses_the_front_whatever_side_was_engaged_fa_si_02() -> None:
    # Troop on Hero, rear 3 (Hero 4 -> 1); the Hero counters with Hero on Troops FRONT = 3 (not rear 5).
    out = resolve(Attack("troop", "hero", "rear", counterattack=True))
    assert (out.damage, out.counter_damage, out.attacker_hp_left) == (3, 3, 1)


def test_counterattack_with_a_nate_front_deals_nothing() -> None:
    # War Machine on Hero, front 3 (Hero 4 -> 1); the Hero's counter: Hero on War Machine front is NATE -> 0.
    out = resolve(Attack("war_machine", "hero", "front", counterattack=True))
    assert (out.damage, out.counter_damage, out.attacker_hp_left, out.bounce_back) == (3, 0, 12, "both")


def test_counterattack_both_destroyed_fa_si_03() -> None:
    # Troop (2 HP) on Troop (2 HP), front 2 each way, simultaneous: both destroyed, no bounce, no excess.
    out = resolve(Attack("troop", "troop", "front", counterattack=True, attacker_hp=2, defender_hp=2))
    assert (out.damage, out.counter_damage) == (2, 2)
    assert out.destroyed and out.attacker_destroyed
    assert (out.bounce_back, out.excess_move) == (None, 0.0)


def test_only_the_original_attacker_converts_excess_fa_si_05() -> None:
    # Hero on Troop, rear 5 against 4 HP: 1" excess; the Troop's counter (Troop on Hero front 1)
    # converts nothing.
    out = resolve(Attack("hero", "troop", "rear", counterattack=True))
    assert (out.destroyed, out.excess_move, out.counter_damage, out.attacker_hp_left) == (True, 1.0, 1, 3)
    assert "FA-SI-05" in out.clauses and out.bounce_back is None


def test_an_attacker_destroyed_by_the_counter_converts_nothing() -> None:
    # Troop (1 HP) on Knight, front 1 (Knight 8 -> 7); the Knight counters 3: the Troop is destroyed.
    out = resolve(Attack("troop", "knight", "front", counterattack=True, attacker_hp=1))
    assert (out.attacker_destroyed, out.destroyed, out.excess_move, out.bounce_back) == (
        True,
        False,
        0.0,
        None,
    )


def test_counterattack_answers_no_ballistics() -> None:
    with pytest.raises(ValueError, match="FA-SI-02"):
        resolve(Attack("troop", "hero", "front", counterattack=True, ballistics=True))


# ---------------------------------------------------------------- Hero of the Day (FA-SI-10..12)


def test_hero_of_the_day_keeps_one_hp_and_bounces_back() -> None:
    # War Machine on Hero, rear 5 against 4 HP: would be destroyed with 1" excess;
    # instead 1 HP, a BB, no excess.
    out = resolve(Attack("war_machine", "hero", "rear", hero_of_the_day=True))
    assert (out.destroyed, out.defender_hp_left, out.bounce_back, out.excess_move) == (
        False,
        1,
        "defender",
        0.0,
    )
    assert {"FA-SI-10", "FA-SI-12"} <= set(out.clauses)
    # Not lethal: the stratagem does nothing (the Hero keeps 4 - 3 = 1 HP by the matrix, the cell's BB).
    out = resolve(Attack("war_machine", "hero", "front", hero_of_the_day=True))
    assert (out.defender_hp_left, out.bounce_back) == (1, "defender") and "FA-SI-10" not in out.clauses


# ------------------------------------------------ Shooter (FA-SS) and Heavy Projectile (FA-SD-13)


@pytest.mark.parametrize(
    ("distance", "band"),
    [
        (0.0, "rear"),
        (6.0, "rear"),
        (6.01, "flank"),
        (12.0, "flank"),
        (12.01, "front"),
        (18.0, "front"),
        (18.01, None),
    ],
)
def test_ballistics_range_bands_fa_ss_02_04(distance: float, band: str | None) -> None:
    assert ballistics_band(distance) == band


def test_ballistics_reads_the_band_without_bounce_or_excess_fa_ss_02_06() -> None:
    # A Troop with Shooter at a Hero: within 6" the rear value 3, within 12" the flank 2,
    # within 18" the front 1.
    for side, damage in (("rear", 3), ("flank", 2), ("front", 1)):
        out = resolve(Attack("troop", "hero", side, ballistics=True))  # type: ignore[arg-type]
        assert out.damage == damage and out.bounce_back is None and "FA-SS-06" in out.clauses
    # Troop on Troops, rear 4 against 2 HP: destroyed, but no excess move (FA-SS-06: the unit may not move).
    out = resolve(Attack("troop", "troop", "rear", ballistics=True, defender_hp=2))
    assert (out.destroyed, out.excess_move) == (True, 0.0)


def test_ballistics_on_a_nate_band_is_not_allowed_fa_ss_04() -> None:
    # Troop on War Machine: the front value (13" to 18") is NATE.
    out = resolve(Attack("troop", "war_machine", "front", ballistics=True))
    assert (out.allowed, out.damage) == (False, None)


def test_ballistics_needs_a_type_that_can_have_shooter_fa_ss_01() -> None:
    with pytest.raises(ValueError, match="FA-SS-01"):
        resolve(Attack("hero", "troop", ballistics=True))


def test_ballistics_with_hammerblow_and_brace() -> None:
    # Knight (Shooter) at a Hero within 12" (flank 3), +1 Hammerblow = 4; a braced Hero: 4 - 3 = 1.
    assert resolve(Attack("knight", "hero", "flank", ballistics=True, hammerblow=True)).damage == 4
    assert (
        resolve(Attack("knight", "hero", "flank", ballistics=True, hammerblow=True, brace=True)).damage == 1
    )


def test_parthian_shot_subtracts_one_fa_ss_09() -> None:
    # Troop at a Knight within 12": flank 1, -1 = 0; at 6": rear 2 - 1 = 1.
    assert resolve(Attack("troop", "knight", "flank", ballistics=True, parthian=True)).damage == 0
    out = resolve(Attack("troop", "knight", "rear", ballistics=True, parthian=True))
    assert out.damage == 1 and "FA-SS-09" in out.clauses
    with pytest.raises(ValueError, match="FA-SS-08"):
        resolve(Attack("troop", "knight", "rear", parthian=True))
    with pytest.raises(ValueError, match="FA-SS-07"):
        resolve(Attack("knight", "troop", "rear", ballistics=True, parthian=True))


def test_heavy_projectile_adds_one_fa_sd_13() -> None:
    # War Machine at a Knight within 12": flank 3 + 1 = 4.
    out = resolve(Attack("war_machine", "knight", "flank", ballistics=True, heavy_projectile=True))
    assert out.damage == 4 and "FA-SD-13" in out.clauses
    with pytest.raises(ValueError, match="FA-SD-12"):
        resolve(Attack("troop", "knight", "flank", ballistics=True, heavy_projectile=True))


# ---------------------------------------------------------------- fear (FA-SD-11) and Skirmishing (FA-SM-10)


def test_fear_makes_the_enemy_bounce_back_fa_sd_11() -> None:
    # Troop on War Machine, flank 1: the cell says Attacker BB;
    # a Troop with fear makes the War Machine bounce.
    assert resolve(Attack("troop", "war_machine", "flank")).bounce_back == "attacker"
    out = resolve(Attack("troop", "war_machine", "flank", fear_attacker=True))
    assert out.bounce_back == "defender" and "FA-SD-11" in out.clauses
    # Hero on Monster, front 2 (Defender BB): a Monster with fear makes the Hero bounce instead.
    assert resolve(Attack("hero", "monster", "front", fear_defender=True)).bounce_back == "attacker"
    # Knight on Troop, front 3 (Troop 4 -> 1): both have fear: each is the enemy of a fear unit.
    assert (
        resolve(Attack("knight", "troop", "front", fear_attacker=True, fear_defender=True)).bounce_back
        == "both"
    )
    with pytest.raises(ValueError, match="FA-SD-10"):
        resolve(Attack("hero", "troop", fear_attacker=True))


def test_a_skirmishing_defender_only_has_a_front_fa_sm_10() -> None:
    # Hero on Troop: rear would be 5, flank 4; a Skirmishing Troop counts the front: 3.
    for side in ("flank", "rear"):
        out = resolve(Attack("hero", "troop", side, skirmishing_defender=True))  # type: ignore[arg-type]
        assert (out.damage, out.side) == (3, "front") and "FA-SM-10" in out.clauses
    with pytest.raises(ValueError, match="FA-SM-09"):
        resolve(Attack("hero", "knight", "rear", skirmishing_defender=True))


def test_the_seat_takes_no_stratagem_fa_gn_08() -> None:
    with pytest.raises(ValueError):
        resolve(Attack("hero", "seat", brace=True))
    with pytest.raises(ValueError):
        resolve(Attack("hero", "seat", counterattack=True))


def test_hp_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="FA-CRM-02"):
        resolve(Attack("hero", "troop", defender_hp=0))


def test_damage_exactly_the_hp_left_destroys_without_excess_fa_crm_02_03() -> None:
    # Troop on Troops, rear 4 against 4 HP: destroyed, nothing in excess.
    out = resolve(Attack("troop", "troop", "rear"))
    assert (out.destroyed, out.excess_move, out.bounce_back) == (True, 0.0, None)
    # Against 1 HP left: 3" of excess movement.
    assert resolve(Attack("troop", "troop", "rear", defender_hp=1)).excess_move == 3.0
