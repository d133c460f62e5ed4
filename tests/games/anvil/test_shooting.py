"""Ballistics and Parthian Shot (FA-SS-01..09), measured by hand.

A shooter at (18, 10) (its tray from y 9.25 to 10.75) and a target at (18, y) facing 180 (from y - 0.75):
the range is y - 11.5 inches.
"""

from __future__ import annotations

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil.actions import Shoot, Stratagem
from iwgt.games.anvil.shooting import shoot_actions

from .kit import act, kinds, of, place, table

SHOOTER = ("shooter",)


def _shot(
    y: float, *, target: str = "troop", shooter: str = "troop", strats=SHOOTER, premeasure=True, used=(), **kw
):  # type: ignore[no-untyped-def]
    s = table(
        [place(0, shooter, 18, 10, stratagems=strats), place(1, target, 18, y, **kw)],
        cp=(10, 10),
        premeasure=premeasure,
        used=used,
    )
    return s


@pytest.mark.parametrize(
    ("y", "side", "damage"),
    [
        (16.5, "rear", 4),  # 5": FA-SS-04, FA-CRM-TROOP-TROOP rear
        (17.5, "rear", 4),  # exactly 6": "within 6""
        (21.5, "flank", 3),  # 10": FA-SS-03
        (26.5, "front", 2),  # 15": FA-SS-02
        (29.5, "front", 2),  # exactly 18"
    ],
)
def test_the_band_sets_the_side(y: float, side: str, damage: int) -> None:
    """FA-SS-02..04: the cell's rear / flank / front value by range; 3 CP; no bounce back (FA-SS-06)."""
    s = _shot(y)
    s, ev = act(s, Shoot(0, 1))
    r = of(ev, "CombatResolved")[0]
    assert (r.side, r.damage, r.ballistics) == (side, damage, True)  # type: ignore[attr-defined]
    assert "BouncedBack" not in kinds(ev) and "ExcessMove" not in kinds(ev)
    assert s.cp == (7, 10)
    assert s.activation is not None and s.activation.shot and s.activation.allowance == 0.0  # FA-SS-05


def test_beyond_eighteen_inches_is_refused_when_premeasuring() -> None:
    """FA-SS-02: 20" away: not listed, refused."""
    s = _shot(31.5)
    assert shoot_actions(s) == []
    with pytest.raises(IllegalAction, match=r"20\.00"):
        act(s, Shoot(0, 1))


def test_beyond_range_without_premeasure_spends_the_cp() -> None:
    """FA-GN-09 decided: the shot is spent with no effect, its 3 CP paid."""
    s = _shot(31.5, premeasure=False)
    s, ev = act(s, Shoot(0, 1))
    assert kinds(ev) == ["StratagemUsed", "ShotMissed"] and s.cp == (7, 10) and s.unit(1).hp == 4


def test_nate_at_the_band_is_not_allowed() -> None:
    """FA-SS-04 decided: a Troop shooting a War Machine 15" away reads the front: NATE: refused."""
    s = _shot(26.5, target="war_machine")
    assert shoot_actions(s) == []
    with pytest.raises(IllegalAction, match="NATE"):
        act(s, Shoot(0, 1))


def test_a_destroyed_target_gives_no_excess() -> None:
    """FA-SS-06 decided: rear 4 against 3 HP: destroyed, no excess move."""
    s = _shot(16.5, hp=3)
    s, ev = act(s, Shoot(0, 1))
    assert s.unit(1).destroyed and "ExcessMove" not in kinds(ev)
    assert s.activation is not None and s.activation.excess == 0.0


def test_only_a_shooter_may_shoot() -> None:
    """FA-SS-01: without Shooter, no Ballistics."""
    s = _shot(16.5, strats=())
    assert shoot_actions(s) == []
    with pytest.raises(IllegalAction, match="FA-SS-01"):
        act(s, Shoot(0, 1))


def test_a_unit_that_moved_may_not_shoot() -> None:
    """FA-SS-05: moving and Ballistics exclude each other without Parthian Shot."""
    s = _shot(16.5)
    from dataclasses import replace

    assert s.activation is not None
    s = replace(s, activation=replace(s.activation, moved=True))
    with pytest.raises(IllegalAction, match="FA-SS-05"):
        act(s, Shoot(0, 1))


def test_parthian_shot_moves_and_shoots_one_less() -> None:
    """FA-SS-07..09: Parthian Shot (1 CP) then Ballistics (3 CP) after moving: rear 4 - 1 = 3; the unit
    keeps its movement left."""
    from dataclasses import replace

    s = _shot(16.5)
    s, _ = act(s, Stratagem("parthian"))
    assert s.activation is not None
    s = replace(s, activation=replace(s.activation, moved=True, allowance=2.0))
    s, ev = act(s, Shoot(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 3  # type: ignore[attr-defined]
    assert s.cp == (6, 10) and s.activation is not None and s.activation.allowance == 2.0


def test_heavy_projectile_adds_one() -> None:
    """FA-SD-13, FA-CRM-WARMACHINE-TROOP flank 5 + 1 = 6."""
    s = _shot(21.5, shooter="war_machine", strats=("shooter", "heavy_projectile"))
    s, ev = act(s, Shoot(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 6  # type: ignore[attr-defined]


def test_hammerblow_and_brace_change_a_shot() -> None:
    """FA-SC-05 (+1) and FA-SC-02 (-3): flank 3 + 1 - 3 = 1; a braced target is not moved (no BB anyway)."""
    s = _shot(21.5, braced=True)
    s, _ = act(s, Stratagem("hammerblow"))
    s, ev = act(s, Shoot(0, 1))
    assert of(ev, "CombatResolved")[0].damage == 1 and s.unit(1).hp == 3  # type: ignore[attr-defined]


def test_no_line_of_sight_no_shot() -> None:
    """FA-SS-02: LOS needed."""
    from .kit import block

    wall = block(10, 13, 26, 14, blocks=True)
    s = table(
        [place(0, "troop", 18, 10, stratagems=SHOOTER), place(1, "troop", 18, 16.5)],
        cp=(10, 10),
        features=(wall,),
    )
    assert shoot_actions(s) == []


def test_shooting_once_per_activation() -> None:
    """FA-AC-02 decided: Ballistics at most once per activation."""
    s = table(
        [
            place(0, "troop", 18, 10, stratagems=SHOOTER),
            place(1, "troop", 18, 21.5),
            place(1, "troop", 24, 21.5),
        ],
        cp=(10, 10),
    )
    s, _ = act(s, Shoot(0, 1))
    with pytest.raises(IllegalAction):
        act(s, Shoot(0, 2))
