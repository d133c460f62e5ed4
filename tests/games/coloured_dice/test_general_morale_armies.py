"""The general-morale table with the SHIPPED armies through the Game API (CD-GM-05/07/11).

Each army has one elite guard at starting Us 25 (Us 10 x 2 with its leader + the best captain's +5): the
Hearth-guard (Kaleva) and Louhi's house-guard (Pohjola), both carrying their army's banner.
"""

from __future__ import annotations

import pytest

from iwgt.games.coloured_dice.actions import Shoot
from iwgt.games.coloured_dice.morale import starting_us
from iwgt.games.coloured_dice.rules import armies, profile

from .kit import GAME, battle, roll, unit


@pytest.mark.parametrize("army", ["kaleva", "pohjola"])
def test_cd_gm_05_each_army_has_a_unit_of_starting_us_25(army: str) -> None:
    """CD-GM-05/11 are reachable: some unit type of each shipped army starts at Us 25 or more."""
    assert max(starting_us(p) for p in armies()[army].units.values()) >= 25


def test_cd_gm_05_11_the_hearth_guard_destroyed_costs_2_and_gives_the_enemy_1() -> None:
    """The Hearth-guard (one model left, starting Us 2 x 10 + 5 = 25) shot dead by Pohjola's poison archers
    (10 green kills): Kaleva -2 (the >= 25 row only, CD-GM-05) and -1 for its banner (CD-GM-07), Pohjola +1
    (CD-GM-11), and 40 VP (its points at its 1 starting model)."""
    assert starting_us(profile("kaleva", "hearth_guard")) == 25
    st = battle(
        [
            unit(0, "hearth_guard", 24, 5, models=1),
            unit(0, "levy", 5, 5),
            unit(1, "poison_archers", 24, 14, files=10),
        ],
        first=1,
    )
    st, events = GAME.apply(st, Shoot(2, 0))
    st, more = roll(st, [6] * 10)
    rows = [(e["seat"], e["change"], e["row"]) for e in (x.to_json() for x in events + more)
            if e["event"] == "GeneralMoraleChanged"]  # fmt: skip
    assert rows == [
        (0, -2, "own_unit_destroyed_25"),
        (1, 1, "enemy_unit_destroyed_25"),
        (0, -1, "own_banner_lost"),
    ]
    assert st.general_morale == (-3, 1)
    assert st.vp[1] == profile("kaleva", "hearth_guard").points == 40
