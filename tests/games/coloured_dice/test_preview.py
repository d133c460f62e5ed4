"""Shot and fight previews: the pool, the armour and its parts, exact casualties and morale odds (odds.py).

Hand-computed: one white die (1, 1, 2, miss x3) against armour 1 (2 points a casualty) removes a model only
on the 2: 1/6. The militia (12, Us 7) then test under 7 with 1 loss added in close combat: they pass on
2d6 + 1 < 7, i.e. 2..5 (10 ways in 36), so P(morale breaks) = 1/6 x 26/36 = 26/216.
"""

from __future__ import annotations

import pytest
from tests.games.coloured_dice.combat_kit import combat_profiles, state, unit

from iwgt.games.coloured_dice import resolve
from iwgt.games.coloured_dice.odds import casualties_distribution, morale_break_probability
from iwgt.games.coloured_dice.preview import Preview, fight_preview, shot_preview

__all__ = ["combat_profiles"]
pytestmark = pytest.mark.usefixtures("combat_profiles")


def test_fight_preview_of_one_white_die_by_hand() -> None:
    """One axeman against the militia: casualties {0: 5/6, 1: 1/6}; morale breaks 26/216; never destroyed."""
    a = unit(0, 0, "axemen", (20.0, 10.0), models=1)
    d = unit(1, 1, "militia", (20.0, 11.0))
    p = fight_preview(state(a, d), 0, 1)
    assert isinstance(p, Preview)
    assert (p.kind, p.dice, p.armour) == ("fight", {"white": 1}, 1)
    assert p.casualties == pytest.approx({0: 5 / 6, 1: 1 / 6})
    assert p.mean == pytest.approx(1 / 6)
    assert p.morale_break == pytest.approx(26 / 216)
    assert p.destroyed == 0.0


def test_shot_preview_at_23_inches_matches_the_exact_odds() -> None:
    """CD-RA-03/04: 16 blue dice at armour 1 + skill 0 + band 2 = 3; casualties and morale from odds.py."""
    shooters = unit(0, 0, "javelins", (20.0, 5.0))
    target = unit(1, 1, "militia", (20.0, 29.0))  # near edge 28.5: 23" from 5.5
    p = resolve.shot_preview(state(shooters, target), 0, 1)
    assert isinstance(p, Preview)
    assert p.parts == {"armour": 1, "skill": 0, "band": 2, "cover": 0, "hill": 0, "magic": 0}
    assert p.armour == 3 and p.distance == pytest.approx(23.0)
    expected = casualties_distribution({"blue": 16}, 3, models=12)
    assert p.casualties == pytest.approx(expected, abs=1e-12)
    fails, destroyed = morale_break_probability(
        expected, models=12, target_of=lambda m: min(m, 7), round_losses=False, general_morale=0
    )
    assert (p.morale_break, p.destroyed) == (pytest.approx(fails), pytest.approx(destroyed))
    data = p.to_json()
    assert set(data) >= {
        "kind",
        "unit",
        "target",
        "dice",
        "armour",
        "parts",
        "distance",
        "casualties",
        "mean",
    }
    assert data["dice"] == {"blue": 16} and all(isinstance(k, str) for k in data["casualties"])
    assert sum(data["casualties"].values()) == pytest.approx(1.0, abs=1e-5)


def test_previews_refuse_with_the_rule() -> None:
    """Out of range (33" at 8"), or not in contact: the reason, not a preview."""
    shooters = unit(0, 0, "javelins", (20.0, 5.0))
    target = unit(1, 1, "militia", (20.0, 39.0))  # 33"
    s = state(shooters, target)
    assert str(shot_preview(s, 0, 1)).startswith("CD-RA-01")
    assert str(fight_preview(s, 0, 1)).startswith("CD-FI-01")


def test_body_and_wounds_on_enter_the_casualties() -> None:
    """A troll (Body 3, armour 2: 3 points a wound) with 2 wounds on it: one more wound removes it. Two white
    dice make 3 or more points on 2 + 1, 1 + 2 or 2 + 2."""
    a = unit(0, 0, "axemen", (20.0, 10.0), models=2, files=2)
    t = unit(1, 1, "troll", (20.0, 11.5), wounds=2)  # a 2" x 2" base: near edge 10.5
    p = fight_preview(state(a, t), 0, 1)
    assert isinstance(p, Preview) and p.dice == {"white": 2}
    # 3+ points on two white dice: (2, 1) either way 2 x (1/6 x 2/6) + (2, 2) 1/36 = 4/36 + 1/36 = 5/36
    assert p.casualties == pytest.approx({0: 31 / 36, 1: 5 / 36})
    assert p.destroyed == pytest.approx(5 / 36)
