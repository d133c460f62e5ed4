"""The deployment zone on every screen and on the table (VX-14-01), and a picked-up unit's selection beyond
its moves: its placement in deployment (VX-15-04) and its journeys through its side's portal (VX-14-15/16,
VX-SP-TRANSPORT), which a physical table's bridge plays when the piece is put down on a lit cell."""

from __future__ import annotations

from tests.games.valkyrx.kit import GAME, cell, scenario_text
from tests.games.valkyrx.table_kit import ADAPTER
from tests.games.valkyrx.test_spells import advance, portal_position, throw

from iwgt.core.lights import BLUE, GREEN, WHITE
from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.actions import ConfirmDeployment, Move, PlaceUnit, Transport
from iwgt.games.valkyrx.scenario import parse_scenario
from iwgt.games.valkyrx.state import ValkyrxState

LIGHT_ZONE = {(c, r) for c in range(12) for r in (0, 1)}
"""The Light's zone: rows 0 and 1 of the 12 x 9 board (24 cells)."""
DARK_ZONE = {(c, r) for c in range(12) for r in (7, 8)}
"""The Darkness's zone: rows 7 and 8."""


def deploying() -> ValkyrxState:
    """Deployment's first state: Guardsmen 0 (3,0), Archers 1 (5,1) of the Light; Wearg Warriors 2 (3,8)."""
    text = scenario_text([("guardsmen", (3, 0)), ("archers", (5, 1))], [("wearg_warriors", (3, 8))])
    text = text.replace("[deployment.light]\nrows = [0, 8]", "[deployment.light]\nrows = [0, 1]")
    text = text.replace("[deployment.darkness]\nrows = [0, 8]", "[deployment.darkness]\nrows = [7, 8]")
    state = GAME.initial_state(parse_scenario(text, "test scenario"))
    assert state.phase == "deploy" and GAME.to_move(state) == 0
    return state


def zone(state: ValkyrxState, seat: int | None) -> set[tuple[int, int]]:
    """The deployment cells of a seat's observation."""
    return {(c, r) for c, r in GAME.observe(state, seat)["deployment"]}


def lit_zone(state: ValkyrxState, seat: int | None) -> dict[tuple[int, int], str]:
    """The cells a seat's screen lights ``deploy``, with their colour."""
    lights = ADAPTER.lights(GAME.observe(state, seat), [], seat)
    return {x.cell: x.colour for x in lights if x.effect == "deploy"}


def test_vx_14_01_a_spectator_sees_and_lights_the_zone_of_the_seat_deploying() -> None:
    """VX-14-01: the Light deploys first, then the Darkness (VX-02-12): a spectator's observation (the
    physical table's) carries the deploying seat's zone and lights it white; each seat's own view is as
    before: its own zone, lit only while it deploys."""
    state = deploying()
    assert zone(state, None) == zone(state, 0) == LIGHT_ZONE
    assert zone(state, 1) == DARK_ZONE  # the waiting seat's own zone, unlit
    assert lit_zone(state, None) == lit_zone(state, 0) == dict.fromkeys(LIGHT_ZONE, WHITE)
    assert lit_zone(state, 1) == {}
    state, _ = GAME.apply(state, ConfirmDeployment())  # the Light is done: the Darkness deploys
    assert GAME.to_move(state) == 1
    assert zone(state, None) == zone(state, 1) == DARK_ZONE
    assert zone(state, 0) == LIGHT_ZONE
    assert lit_zone(state, None) == lit_zone(state, 1) == dict.fromkeys(DARK_ZONE, WHITE)
    assert lit_zone(state, 0) == {}
    state, _ = GAME.apply(state, ConfirmDeployment())  # deployment over: the first-mover die
    state, _ = GAME.apply(state, ChanceOutcome(1))
    assert state.phase != "deploy"
    for seat in (None, 0, 1):
        assert zone(state, seat) == set() and lit_zone(state, seat) == {}


def test_vx_15_04_a_unit_picked_up_in_deployment_may_go_to_every_free_cell_of_its_zone() -> None:
    """VX-15-04: the Guardsmen, picked up while the Light deploys, may be placed on the 22 free cells of rows
    0 and 1 (24 less their own cell and the Archers'): each a ``deploy`` move whose action is the placement,
    lit white; the unit blue; no forecast, no note. The bridge plays the first move to the cell a piece is put
    on: the placement there."""
    state = deploying()
    sel = ADAPTER.selection(GAME, state, 0, 0)
    free = LIGHT_ZONE - {(3, 0), (5, 1)}
    assert len(free) == 22
    assert {tuple(m["to"]) for m in sel["moves"]} == free and len(sel["moves"]) == 22
    assert {m["kind"] for m in sel["moves"]} == {"deploy"}
    for m in sel["moves"]:
        assert m["action"] == {"type": "place", "unit": 0, "to": m["to"]}
        assert GAME.action_from_json(m["action"]) == PlaceUnit(0, cell(*m["to"]))
    lights = {tuple(x["cell"]): (x["effect"], x["colour"]) for x in sel["lights"]}
    assert lights == {(3, 0): ("selected", BLUE), **dict.fromkeys(free, ("deploy", WHITE))}
    assert sel["previews"] == [] and "note" not in sel
    first = next(m for m in sel["moves"] if m["to"] == [7, 1])
    state, events = GAME.apply(state, GAME.action_from_json(first["action"]))
    assert state.units[0].cell == cell(7, 1) and [type(e).__name__ for e in events] == ["UnitPlaced"]


def test_vx_15_04_in_deployment_other_pieces_say_why_they_do_not_move() -> None:
    """While the Light deploys: the Darkness's own piece, asked by its seat, is not its turn; asked by the
    Light, it is not the Light's to place. Nothing lights."""
    state = deploying()
    theirs = ADAPTER.selection(GAME, state, 1, 2)
    assert (theirs["moves"], theirs["lights"]) == ([], [])
    assert theirs["note"] == "Wearg Warriors cannot move now: it is not your turn to act."
    enemy = ADAPTER.selection(GAME, state, 0, 2)
    assert (enemy["moves"], enemy["lights"]) == ([], [])
    assert enemy["note"] == "Wearg Warriors cannot move now: it is not yours to place."


def on_portal() -> ValkyrxState:
    """``test_spells.portal_position``: Circan opens the portal at (6,4) in turn 1; in turn 2's movement the
    Swordsmen 1 walk onto it from (7,4). The Darkness: Wearg Warriors (11,8), Lefan (0,8)."""
    state, _ = throw(portal_position(), 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, Move(1, cell(6, 4)))
    return state


def test_vx_14_16_a_unit_on_its_portal_picked_up_may_go_through_to_every_cell_the_portal_serves() -> None:
    """VX-14-16, VX-SP-TRANSPORT-4: the Swordsmen on the portal have moved (no walk left) but may pass
    through to any free cell of the 12 x 9 board that is not next to an enemy: 108 cells less the 7 units'
    and the 5 beside the enemy ((10,8), (10,7), (11,7) by the Warriors; (1,8), (0,7) by Lefan) = 96, each a
    ``transport`` move lit green; the note says so, not 'cannot move'."""
    state = on_portal()
    sel = ADAPTER.selection(GAME, state, 0, 1)
    occupied = {(5, 4), (6, 4), (6, 3), (6, 5), (5, 3), (11, 8), (0, 8)}
    beside = {(10, 8), (10, 7), (11, 7), (1, 8), (0, 7)}
    served = {(c, r) for c in range(12) for r in range(9)} - occupied - beside
    assert len(served) == 96
    assert {tuple(m["to"]) for m in sel["moves"]} == served and len(sel["moves"]) == 96
    assert {m["kind"] for m in sel["moves"]} == {"transport"}
    legal = {a for a in GAME.legal_actions(state, 0) if isinstance(a, Transport) and a.unit == 1}
    assert {GAME.action_from_json(m["action"]) for m in sel["moves"]} == legal
    lights = {tuple(x["cell"]): (x["effect"], x["colour"]) for x in sel["lights"]}
    assert lights == {(6, 4): ("selected", BLUE), **dict.fromkeys(served, ("destination", GREEN))}
    assert sel["previews"] == []
    gate = "stands on your portal: it may pass through to any lit cell (VX-SP-TRANSPORT)."
    assert sel["note"] == f"Swordsmen of Mynsterlif {gate}"
    # The bridge's pick for a piece put down on (0,0): the journey there.
    first = next(m for m in sel["moves"] if m["to"] == [0, 0])
    assert first["action"] == {"type": "transport", "unit": 1, "to": [0, 0]}
    after, events = GAME.apply(state, GAME.action_from_json(first["action"]))
    assert after.units[1].cell == cell(0, 0) and [type(e).__name__ for e in events] == ["UnitTransported"]


def test_vx_14_15_the_caster_on_his_own_portal_has_no_journey() -> None:
    """VX-SP-TRANSPORT-6: Circan walks onto his portal; picked up, he has no journey (nor a walk left), and
    the note says why he cannot move."""
    state, _ = throw(portal_position(), 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, Move(0, cell(6, 4)))
    sel = ADAPTER.selection(GAME, state, 0, 0)
    assert (sel["moves"], sel["lights"]) == ([], [])
    assert (
        sel["note"] == "Circan - Wizard of the White Council cannot move now: it has already moved this turn."
    )


def test_a_unit_beside_the_portal_walks_onto_it_as_before() -> None:
    """A unit that has not moved: its selection holds its moves only (walk or charge kinds), the portal's
    cell among them; no journey until it stands there."""
    state, _ = throw(portal_position(), 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    sel = ADAPTER.selection(GAME, state, 0, 2)
    kinds = {m["kind"] for m in sel["moves"]}
    assert kinds <= {"walk", "charge", "fly", "pray"} and "walk" in kinds
    assert [m["kind"] for m in sel["moves"] if m["to"] == [6, 4]] == ["walk"]
    legal = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Move) and a.unit == 2]
    assert len(sel["moves"]) == len(legal)
