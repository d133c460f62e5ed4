"""The health-bar report (VX-15-22) and the character cards (VX-15-07 to VX-15-21), by hand."""

from __future__ import annotations

import pytest
from tests.games.valkyrx.kit import GAME, end_movement, position, tweak
from tests.games.valkyrx.table_kit import ADAPTER, combat_step, seen

from iwgt.games.valkyrx.flow import report
from iwgt.games.valkyrx.state import ValkyrxState


def _battle() -> ValkyrxState:
    # Light: Guardsmen (1,200 points) at half strength, Archers (900) whole. Darkness: Wearg Warriors (1,200)
    # at 240 of 300, the Sand Worm (1,800) hidden underground and unhurt.
    state = position(
        [("guardsmen", (2, 2)), ("archers", (5, 2))], [("wearg_warriors", (5, 7)), ("sand_worm", (9, 7))]
    )
    state = tweak(state, 0, strength=150.0, casualties_turn=30.0)
    state = tweak(state, 2, strength=240.0, casualties_turn=60.0)
    return tweak(state, 3, hidden=True)


def test_vx_15_22_army_totals_are_the_points_weighted_share_of_starting_strength() -> None:
    state = _battle()
    events = [report(state)]
    for seat in (0, 1):
        rep = ADAPTER.report(GAME.observe(state, seat), seen(events, seat))
        assert rep is not None and rep["type"] == "report" and rep["turn"] == 1
        light, dark = rep["armies"]
        # Light: (1200 x 0.5 + 900 x 1) / 2100 = 0.714; lost this turn 1200 x 30/300 / 2100 = 0.057.
        assert (light["points"], light["start_points"], light["share"]) == (1500.0, 2100.0, 0.714)
        assert light["lost_this_turn"] == pytest.approx(0.057)
        # Darkness: (1200 x 0.8 + 1800 x 1) / 3000 = 0.92; the hidden worm counts at its public strength.
        assert (dark["points"], dark["start_points"], dark["share"]) == (2760.0, 3000.0, 0.92)
        assert dark["lost_this_turn"] == pytest.approx(0.08)
        rows = {r["unit"]: r for r in rep["lines"]}
        assert (rows[0]["share"], rows[0]["casualties"], rows[0]["level"]) == (0.5, 30.0, "Standard")
        assert rows[3]["status"] == "hidden" and "cell" not in rows[3]


def test_no_report_without_a_combat_round_and_a_real_round_adds_up() -> None:
    state = position([("guardsmen", (3, 4))], [("wearg_warriors", (3, 3)), ("wolf_riders", (10, 8))])
    assert ADAPTER.report(GAME.observe(state, 0), []) is None
    after, events = combat_step(end_movement(state)[0], face=50)
    rep = ADAPTER.report(GAME.observe(after, 0), seen(events, 0))
    assert rep is not None
    rows = rep["lines"]
    dark_start = sum(r["points"] for r in rows if r["seat"] == 1)
    dark_now = sum(r["points"] * r["strength"] / r["start"] for r in rows if r["seat"] == 1)
    assert rep["armies"][1]["share"] == pytest.approx(dark_now / dark_start, abs=1e-3)
    assert rep["armies"][1]["share"] < 1.0 and rows[1]["casualties"] > 0


def test_vx_15_07_character_cards() -> None:
    state = position(
        [("wulfgeldre", (2, 2)), ("grima", (4, 2)), ("astigend", (6, 2)), ("guardsmen", (8, 2))],
        [("sand_worm", (9, 7)), ("wearg_warriors", (5, 7))],
    )
    state = tweak(state, 0, morale=15.0)  # Weakened
    state = tweak(state, 2, morale=5.0, airborne=True)  # Critical, aloft
    state = tweak(state, 1, hidden=True, quarry=4)
    state = tweak(state, 4, surface_turns=1)
    own = {c["unit"]: c for c in ADAPTER.cards(GAME.observe(state, 0), 0)}
    assert set(own) == {0, 1, 2, 4}  # characters only: no Guardsmen, no Wearg
    assert own[0]["border"] == "yellow" and own[0]["spells_left"] == 6 and len(own[0]["spells"]) == 6
    assert own[2]["border"] == "orange" and own[2]["flying"] is True  # VX-15-09: red wings
    assert (own[1]["stealth"], own[1]["quarry"], own[1]["mine"]) == ("hidden", 4, True)  # VX-15-17, -18
    assert (own[4]["worm"], own[4]["surface_moves_left"], own[4]["mine"]) == ("surface", 2, False)
    theirs = {c["unit"]: c for c in ADAPTER.cards(GAME.observe(state, 1), 1)}
    assert theirs[1]["stealth"] == "hidden" and "quarry" not in theirs[1]  # VX-12-05
    assert theirs[0]["spells_left"] == 6 and "spells" not in theirs[0]  # held spells stay secret
    assert all("cell" not in c for c in theirs.values())
    state = tweak(state, 4, hidden=True)
    assert {c["unit"]: c for c in ADAPTER.cards(GAME.observe(state, 0), 0)}[4]["worm"] == "underground"
