"""Deployment: the first activation brings a unit on from its own edge for 1 CP + DCP (FA-DP-01..04), from a
side edge with Flanking (FA-SD-01/02), or anywhere with Infiltrate (FA-SD-17..21)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.games.anvil.engine_kit import GAME, at_activation, play, unit_named

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.army import start_hp
from iwgt.games.anvil.events import UnitDeployed
from iwgt.games.anvil.state import AnvilState
from iwgt.geometry.trays import Tray


@pytest.mark.parametrize(
    ("name", "cost"),
    [
        ("Pikemen", 2),  # Troop: 1 CP + 1 DCP
        ("Crown Lances", 3),  # Knight: 1 + 2
        ("Crossbowmen", 3),  # Troop with Shooter: 1 + 1 + 1
        ("Scouts", 4),  # Troop with Swiftness: 1 + 1 + 2
        ("Court Mage", 3),  # Wizard: 1 + 2
        ("Lord Aldric", 1),  # the General's unit: no DCP (FA-DP-04)
    ],
)
def test_fa_dp_02_deploying_costs_1_cp_and_the_unit_s_dcp(name: str, cost: int) -> None:
    state = at_activation(5, 6)
    u = unit_named(state, name)
    after, events = GAME.apply(state, act.Deploy(u.id, "own", 6.0))
    assert after.cp == (5 - cost, 6)
    assert events[0] == UnitDeployed(u.id, 0, "own", (6.0, 0.75), 0.0, cost, 5 - cost, events[0].allowance)


def test_fa_dp_01_a_unit_enters_from_its_own_edge_facing_in_and_its_front_reaches_its_move() -> None:
    """FA-DP-01 decided: the tray enters with its rear edge on y = 0 (centre y = 0.75), facing in; coming on
    costs its depth, so the Pikemen (Move 6) have 6 - 1.5 = 4.5" left: to (6, 5.25), the front edge at
    y = 6, their Move from the edge; one inch more is refused."""
    state = at_activation(5, 6)
    pike = unit_named(state, "Pikemen")
    state, ev = play(state, act.Deploy(pike.id, "own", 6.0))
    t = state.unit(pike.id).tray
    assert t is not None and t.centre == (6.0, 0.75) and t.facing == 0.0  # rear edge on y = 0
    assert state.activation is not None and state.activation.deployed and state.activation.allowance == 4.5
    assert ev[0].allowance == 4.5  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match=r'costs 5\.50" but 4\.50"'):
        play(state, act.Move(pike.id, ((6.0, 6.25),), 0.0))
    state, _ = play(state, act.Move(pike.id, ((6.0, 5.25),), 0.0))
    t = state.unit(pike.id).tray
    assert t is not None and t.centre == (6.0, 5.25) and t.front()[0][1] == pytest.approx(6.0)


def test_fa_dp_01_a_flanking_entry_also_costs_the_tray_s_depth() -> None:
    """FA-DP-01, FA-SD-02 decided: the Elk Riders (Knight, Move 4) flank in from the left edge at y = 20: the
    tray's rear on x = 0, centre x = 0.75; 4 - 1.5 = 2.5" left (the front reaches x = 4)."""
    state = at_activation(6, 5, name="battle")
    elk = unit_named(state, "Elk Riders")
    after, ev = GAME.apply(state, act.Deploy(elk.id, "left", y=20.0))
    assert after.activation is not None and after.activation.allowance == 2.5
    assert ev[0].allowance == 2.5  # type: ignore[attr-defined]


def test_fa_ss_05_no_ballistics_in_the_activation_a_unit_deploys() -> None:
    """FA-SS-05, FA-DP-01 decided: the Crossbowmen (Troop with Shooter) deploy at x = 18 facing the enemy
    Spearmen set 10" ahead (in LOS and 18"): deploying is moving onto the table, so Ballistics is neither
    listed nor taken in that activation (no Parthian Shot)."""
    from dataclasses import replace as put

    state = at_activation(9, 10)  # seat 0 first, 9 CP: 3 to deploy, 6 left (Ballistics costs 3)
    xb = unit_named(state, "Crossbowmen")
    state, _ = play(state, act.Deploy(xb.id, "own", 12.0))
    spear = unit_named(state, "Spearmen")
    state = state.with_unit(put(spear, tray=put(state.unit(xb.id).tray, centre=(12.0, 12.0), facing=180.0)))
    assert not any(isinstance(a, act.Shoot) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="FA-SS-05"):
        GAME.apply(state, act.Shoot(xb.id, spear.id))


def test_seat_1_enters_from_the_top_edge_facing_180() -> None:
    state = at_activation(6, 5)
    spear = unit_named(state, "Spearmen")
    state, _ = play(state, act.Deploy(spear.id, "own", 30.0))
    t = state.unit(spear.id).tray
    assert t is not None and t.centre == (30.0, 35.25) and t.facing == 180.0


def test_a_deployment_is_refused_when_unaffordable_taken_or_not_yours() -> None:
    state = at_activation(2, 6)
    lances = unit_named(state, "Crown Lances")
    with pytest.raises(IllegalAction, match="costs 3 CP"):
        GAME.apply(state, act.Deploy(lances.id, "own", 6.0))
    with pytest.raises(IllegalAction, match="not yours"):
        GAME.apply(state, act.Deploy(unit_named(state, "Spearmen").id, "own", 6.0))
    with pytest.raises(IllegalAction, match="stand on"):
        GAME.apply(state, act.Deploy(unit_named(state, "Pikemen").id, "own", 18.0))  # on the Seat of Power
    with pytest.raises(IllegalAction, match="Flanking"):
        GAME.apply(state, act.Deploy(unit_named(state, "Pikemen").id, "left", y=10.0))
    with pytest.raises(IllegalAction, match="Infiltrate"):
        GAME.apply(state, act.Deploy(unit_named(state, "Pikemen").id, "infiltrate", 10.0, 10.0, 0.0))
    with pytest.raises(IllegalAction, match="straight into the table"):
        GAME.apply(state, act.Deploy(unit_named(state, "Pikemen").id, "own", 6.0, facing=90.0))


def test_a_deployed_unit_activates_rather_than_deploys() -> None:
    state = at_activation(5, 6)
    pike = unit_named(state, "Pikemen")
    state, _ = play(state, act.Deploy(pike.id, "own", 6.0), act.EndActivation())
    state, _ = play(state, act.Pass())  # seat 1 passes: seat 0 goes on
    with pytest.raises(IllegalAction, match="already deployed"):
        GAME.apply(state, act.Deploy(pike.id, "own", 12.0))
    assert act.Activate(pike.id) in GAME.legal_actions(state, 0)


@pytest.mark.parametrize(("y", "legal"), [(12.0, True), (30.0, True), (11.9, False)])
def test_fa_sd_02_flanking_enters_from_a_side_edge_up_to_two_thirds_from_the_own_edge(
    y: float, legal: bool
) -> None:
    """Battle, 36" deep: seat 1's edge is y = 36, so a flanking entry has y >= 36 - 24 = 12."""
    state = at_activation(6, 5, name="battle")
    elk = unit_named(state, "Elk Riders")
    if not legal:
        with pytest.raises(IllegalAction, match="FA-SD-02"):
            GAME.apply(state, act.Deploy(elk.id, "left", y=y))
        return
    after, _ = GAME.apply(state, act.Deploy(elk.id, "left", y=y))
    t = after.unit(elk.id).tray
    assert t is not None and t.centre == (0.75, y) and t.facing == 270.0  # facing +x, into the table
    assert after.cp[1] == 5 - 5  # 1 CP + Knight 2 DCP + Flanking 2 DCP
    right, _ = GAME.apply(state, act.Deploy(elk.id, "right", y=y))
    t = right.unit(elk.id).tray
    assert t is not None and t.centre == (47.25, y) and t.facing == 90.0


@pytest.mark.parametrize(
    ("turn", "y", "legal"), [(1, 27.75, True), (1, 27.8, False), (2, 24.75, True), (2, 24.8, False)]
)
def test_fa_sd_19_20_infiltrate_anywhere_6_then_9_inches_from_the_enemy(
    turn: int, y: float, legal: bool
) -> None:
    """The enemy Seat of Power spans y 34.5..36: a tray centred at y facing 0 ends at y + 0.75."""
    state = at_activation(7, 8, name="battle")
    if turn == 2:
        state, _ = play(state, act.Pass(), act.Pass(), act.Bid(7), act.Bid(8))
        assert state.turn == 2
    rangers = unit_named(state, "Rangers")
    order = act.Deploy(rangers.id, "infiltrate", 24.0, y, 0.0)
    if not legal:
        with pytest.raises(IllegalAction, match=r"FA-SD-19\.\.21"):
            GAME.apply(state, order)
        return
    after, _ = GAME.apply(state, order)
    assert after.cp[0] == 2  # 7 - (1 CP + Troop 1 DCP + Infiltrate 3 DCP)
    with pytest.raises(IllegalAction, match="infiltrated"):  # no further move in that activation (decided)
        GAME.apply(after, act.Move(rangers.id, ((24.0, y - 1),), 0.0))


def test_every_offered_deployment_applies() -> None:
    state = at_activation(6, 10, name="battle")
    offered = [a for a in GAME.legal_actions(state, 0) if isinstance(a, act.Deploy)]
    assert {a.edge for a in offered} == {"own", "infiltrate"}
    for a in offered:
        GAME.apply(state, a)


def _general_with(state: AnvilState, *keys: str) -> tuple[AnvilState, int]:
    """The state with seat 0's General (Lord Aldric, a Hero: 4 HP, Move 6) listed with ``keys``."""
    lord = unit_named(state, "Lord Aldric")
    listed = replace(lord, stratagems=keys)
    return state.with_unit(replace(listed, hp=start_hp(listed), start_hp=start_hp(listed))), lord.id


def test_fa_dp_03_a_late_general_deploys_for_1_cp_leaving_its_dcp_stratagems_off() -> None:
    """FA-DP-03/04 decided: in turn 3 the General's unit is still waiting, so its seat bids at most 1 CP; a
    Tough + Swiftness Hero would cost 1 + 0 + 2 + 2 = 5 CP: it deploys for the 1 CP alone and enters without
    them (4 HP, not 6; Move 6, not 12); the event lists what was left off."""
    state = at_activation(1, 6)
    state, lord = _general_with(state, "tough", "swiftness")
    assert state.unit(lord).hp == 6  # 4 + 2 Tough, as listed
    state = replace(state, turn=3)
    deploys = [a for a in GAME.legal_actions(state, 0) if isinstance(a, act.Deploy) and a.unit == lord]
    assert deploys and all(a.edge == "own" for a in deploys)
    after, events = GAME.apply(state, act.Deploy(lord, "own", 6.0))
    assert after.cp == (0, 6)
    d = events[0]
    assert isinstance(d, UnitDeployed) and d.cost == 1 and d.left_off == ("tough", "swiftness")
    u = after.unit(lord)
    assert u.stratagems == () and u.hp == 4 and u.start_hp == 4


def test_fa_dp_03_before_the_deadline_the_general_pays_its_stratagems() -> None:
    """FA-DP-04, FA-ST-04: in turn 2 (no limit yet) a Tough General pays 1 + 2 = 3 CP and keeps Tough."""
    state = at_activation(5, 6)
    state, lord = _general_with(state, "tough")
    state = replace(state, turn=2)
    after, events = GAME.apply(state, act.Deploy(lord, "own", 6.0))
    assert after.cp == (2, 6) and events[0].left_off == ()  # type: ignore[attr-defined]
    assert after.unit(lord).hp == 6 and after.unit(lord).stratagems == ("tough",)


def test_infiltrate_and_flanking_are_paid_only_by_the_entry_using_them() -> None:
    """FA-ST-04, FA-SD-01/17 decided: the Rangers (Troop with Infiltrate, battle) deploying from its own edge
    pay 1 CP + 1 DCP = 2, not the 3 DCP of Infiltrate (7 - 2 = 5 left); infiltrating costs 1 + 1 + 3 = 5.
    The Elk Riders (Knight with Flanking) from their own edge: 1 + 2 = 3 (5 - 3 = 2 left)."""
    state = at_activation(7, 8, name="battle")
    rangers = unit_named(state, "Rangers")
    own, ev = GAME.apply(state, act.Deploy(rangers.id, "own", 6.0))
    assert own.cp[0] == 5 and ev[0].cost == 2  # type: ignore[attr-defined]
    sneak, _ = GAME.apply(state, act.Deploy(rangers.id, "infiltrate", 24.0, 18.0, 0.0))
    assert sneak.cp[0] == 2
    state = at_activation(6, 5, name="battle")
    elk = unit_named(state, "Elk Riders")
    after, _ = GAME.apply(state, act.Deploy(elk.id, "own", 30.0))
    assert after.cp[1] == 2


def test_an_entry_beyond_the_cp_left_is_not_offered() -> None:
    """Decided with the entry costs: with 3 CP the Rangers (own edge 2, infiltrate 5) are offered their own
    edge only."""
    state = at_activation(3, 8, name="battle")
    rangers = unit_named(state, "Rangers")
    edges = {
        a.edge for a in GAME.legal_actions(state, 0) if isinstance(a, act.Deploy) and a.unit == rangers.id
    }
    assert edges == {"own"}


def test_fa_ss_05_an_infiltrated_unit_has_not_moved_and_may_shoot() -> None:
    """FA-SS-05, FA-SD-18 decided: the Crossbowmen listed with Shooter and Infiltrate (1 + 1 + 1 + 3 = 6 CP of
    9) infiltrate at (12, 20) facing 0, 6.5" from the Spearmen at (12, 28) facing 180 (27.25 - 20.75): placed,
    not moved onto the table, so Ballistics (3 CP) is open: flank band (within 12"), Troop -> Troop 3."""
    state = at_activation(9, 10)
    xb = unit_named(state, "Crossbowmen")
    state = state.with_unit(replace(xb, stratagems=("shooter", "infiltrate")))
    spear = unit_named(state, "Spearmen")
    state = state.with_unit(replace(spear, tray=Tray((12.0, 28.0), 180.0, 3.0, 1.5)))
    state, _ = play(state, act.Deploy(xb.id, "infiltrate", 12.0, 20.0, 0.0))
    assert state.cp[0] == 3
    assert act.Shoot(xb.id, spear.id) in GAME.legal_actions(state, 0)
    state, _ = GAME.apply(state, act.Shoot(xb.id, spear.id))
    assert state.unit(spear.id).hp == 1 and state.cp[0] == 0
