"""The reaction to a charge through the Game API with the shipped armies (CD-RE-01/02, CD-MS-14 designed).

CD-RE-02 decision: the yellow dice are the charge's distance / 8 ROUNDED UP (each started 8" gives a die, as
the range bands count), so a charge from 2" or 3" (every charge covers at most its allowance) is reacted to
with one die. Yellow faces: 1 -> 1, 2 -> 2, 3..6 -> miss; a total strictly over the slowness succeeds.
Blue faces (the hunters' javelins): 5, 6 -> miss.
"""

from __future__ import annotations

from iwgt.core.protocol import Event
from iwgt.games.coloured_dice.actions import Charge, EndTurn, Fight, React
from iwgt.games.coloured_dice.combat_common import reaction_dice
from iwgt.games.coloured_dice.state import CdState
from iwgt.geometry.trays import tray_gap

from .kit import GAME, battle, roll, unit

RIDERS, TARGET = 0, 1


def _charge(target: str, react: bool, faces: list[int]) -> tuple[CdState, list[Event]]:
    """Kaleva's riders (front edge y = 8) charge a Pohjola unit centred at (20, 14); its owner answers."""
    st = battle([unit(0, "riders", 20, 6), unit(1, target, 20, 14)])
    asked, events = GAME.apply(st, Charge(RIDERS, TARGET))
    obs = GAME.observe(asked, 1)["awaiting"]
    gap = tray_gap(st.unit(RIDERS).tray, st.unit(TARGET).tray)
    assert obs["kind"] == "react" and len(obs["dice"]) == reaction_dice(gap) == 1
    st, more = GAME.apply(asked, React(react))
    events += more
    if faces:
        st, more = roll(st, faces)
        events += more
    return st, events


def _of(events: list[Event], kind: str) -> list[dict[str, object]]:
    return [e.to_json() for e in events if e.kind == kind]


def test_cd_re_02_distance_over_8_rounded_up() -> None:
    """CD-RE-02 decision: 1 die up to 8", 2 up to 16", 3 up to 24" (8 + 8 + 8 = 24 covers 23"); none when
    touching."""
    assert [reaction_dice(g) for g in (0.0, 0.5, 2.0, 8.0, 8.01, 16.0, 23.0, 24.0)] == [
        0,
        1,
        1,
        1,
        2,
        2,
        3,
        3,
    ]


def test_cd_ms_14_a_reaction_stands_and_shoots_the_charger() -> None:
    """CD-RE-01, CD-MS-14: the ski hunters (slowness 1, javelins 8") charged from 2": 1 die, a 2 is over 1:
    they shoot the riders at once (10 blue dice, all missing), then the charge goes on into contact."""
    st, events = _charge("hunters", True, [2] + [6] * 10)
    [rolled] = _of(events, "ReactionRolled")
    assert (rolled["total"], rolled["slowness"], rolled["success"], rolled["effect"]) == (
        2,
        1,
        True,
        "stand_and_shoot",
    )
    [shot] = _of(events, "AttackDeclared")
    assert (shot["attack"], shot["unit"], shot["target"]) == ("stand_and_shoot", TARGET, RIDERS)
    assert [c["contact"] for c in _of(events, "UnitCharged")] == [True]
    assert not st.unit(TARGET).attacked  # not counted as its attack (designed)


def test_cd_ms_14_a_reaction_without_missiles_strikes_first() -> None:
    """CD-RE-01, CD-MS-14, CD-FI-03: the wolf riders (slowness 1, no missile) charged from 3": a 2 is over 1,
    so in the fight the riders then order, the wolf riders strike first (why: reaction); declined, the equal
    slowness gives the first strike to the side whose turn it is (Kaleva)."""
    st, events = _charge("wolf_riders", True, [2])
    assert _of(events, "ReactionRolled")[0]["effect"] == "strike_first"
    _, events = GAME.apply(st, Fight(RIDERS, TARGET))
    begun = _of(events, "FightBegun")[0]
    assert (begun["first"], begun["why"]) == (TARGET, "reaction")
    st, _ = _charge("wolf_riders", False, [])
    _, events = GAME.apply(st, Fight(RIDERS, TARGET))
    begun = _of(events, "FightBegun")[0]
    assert (begun["first"], begun["why"]) == (RIDERS, "turn")


def test_cd_re_01_a_failed_reaction_does_nothing() -> None:
    """CD-RE-01: a miss (0) is not over slowness 1: no shot, the charge makes contact; the turn goes on."""
    st, events = _charge("hunters", True, [3])
    assert _of(events, "ReactionRolled")[0]["success"] is False
    assert not _of(events, "AttackDeclared")
    assert [c["contact"] for c in _of(events, "UnitCharged")] == [True]
    GAME.apply(st, EndTurn())
