"""Section 14 on the table: each light effect from a small position played by the engine (VX-14-*)."""

from __future__ import annotations

import ast
import inspect
from dataclasses import replace

from tests.games.valkyrx.kit import GAME, cell, end_movement, position, tweak
from tests.games.valkyrx.table_kit import ADAPTER, at, combat_step, lights_of, seen

from iwgt.core.lights import (
    CYAN,
    DEEP_ORANGE,
    GREEN,
    ORANGE,
    RED,
    TEAM_DARK,
    VIOLET_LIGHT,
    YELLOW,
    Light,
)
from iwgt.core.protocol import ChanceOutcome, Event
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx import table as table_module
from iwgt.games.valkyrx.actions import CastSpell, ConfirmDeployment
from iwgt.games.valkyrx.events import SpellCast, UnitRemoved
from iwgt.games.valkyrx.state import Enchantment
from iwgt.games.valkyrx.table import COMBAT_MS, ILLEGAL_MS, REACTS_TO, WAVE_MS, WAVE_RING_MS
from iwgt.geometry.hexgrid import distance, offset_to_hex


def test_vx_14_01_the_deploying_seat_sees_its_zone_lit_and_the_other_seat_nothing() -> None:
    scen = GAME.load_scenario("skirmish")  # the Light deploys on rows 0 and 1 of a 12-wide table
    state = GAME.initial_state(scen)
    light = ADAPTER.lights(GAME.observe(state, 0), [], 0)
    assert sorted(at(light, "deploy")) == sorted((c, r) for r in (0, 1) for c in range(12))
    assert all(x.pattern == "steady" and x.colour == "#f5f5f5" for x in light if x.effect == "deploy")
    assert at(ADAPTER.lights(GAME.observe(state, 1), [], 1), "deploy") == []
    state, _ = GAME.apply(state, ConfirmDeployment())  # now the Darkness deploys, on rows 7 and 8
    dark = ADAPTER.lights(GAME.observe(state, 1), [], 1)
    assert sorted(at(dark, "deploy")) == sorted((c, r) for r in (7, 8) for c in range(12))


def test_vx_14_02_your_units_that_may_move_light_on_your_turn() -> None:
    state = position([("spearmen", (2, 2)), ("archers", (5, 2))], [("wearg_warriors", (5, 7))])
    opts = ADAPTER.options(GAME, state, 0)
    assert opts["movable"] == [0, 1]
    assert at(lights_of(state, [], 0, opts["movable"]), "movable") == [(2, 2), (5, 2)]
    assert ADAPTER.options(GAME, state, 1) == {"movable": [], "actions": []}  # not the Darkness's turn
    assert at(lights_of(state, [], 1, []), "movable") == []


def test_vx_14_08_vx_14_09_weakened_lights_yellow_and_critical_orange() -> None:
    state = position([("spearmen", (2, 2)), ("archers", (5, 2))], [("wearg_warriors", (5, 7))])
    state = tweak(tweak(state, 0, morale=15.0), 2, morale=5.0)  # 10 <= 15 < 20: Weakened; 5 < 10: Critical
    for seat in (0, 1):
        lights = lights_of(state, [], seat)
        assert [(x.cell, x.colour) for x in lights if x.effect == "weakened"] == [((2, 2), YELLOW)]
        assert [(x.cell, x.colour) for x in lights if x.effect == "critical"] == [((5, 7), ORANGE)]


def test_vx_14_04_vx_14_05_a_missile_unit_flashes_green_and_its_target_red() -> None:
    state = position([("archers", (3, 0))], [("wearg_warriors", (3, 3))])  # three cells: in range
    after, events = combat_step(end_movement(state)[0])
    lights = lights_of(after, events, 1)
    fire = [x for x in lights if x.effect in ("firing", "under_fire")]
    assert fire == [
        Light((3, 0), "firing", GREEN, "flash", 0, COMBAT_MS),
        Light((3, 3), "under_fire", RED, "flash", 0, COMBAT_MS),
    ]


def test_vx_14_06_vx_14_07_close_combat_alternates_then_the_winner_lights_green_and_the_loser_red() -> None:
    # Guardsmen inflict 300 x 15 x 10% x 10 / 150 = 30 (x the random factor), the Wearg 300 x 12 x 10% x 8 /
    # 150 = 19.2 on them: with the same face, the Guardsmen lose the smaller share and win (VX-10-03).
    state = position([("guardsmen", (3, 4))], [("wearg_warriors", (3, 3)), ("wolf_riders", (10, 8))])
    state, moved = end_movement(state)
    contact = ADAPTER.lights(GAME.observe(state, 0), seen(moved, 0), 0)
    assert [(x.cell, x.colour, x.pattern, x.duration_ms) for x in contact if x.effect == "melee"] == [
        ((3, 4), GREEN, "alternate", None),
        ((3, 4), RED, "alternate", None),
        ((3, 3), GREEN, "alternate", None),
        ((3, 3), RED, "alternate", None),
    ]
    after, events = combat_step(state, face=50)
    lights = lights_of(after, events, 1)
    assert sorted(at(lights, "melee")) == [(3, 3), (3, 3), (3, 4), (3, 4)]
    assert all(x.duration_ms == COMBAT_MS for x in lights if x.effect == "melee")
    assert [x for x in lights if x.effect in ("won", "lost")] == [
        Light((3, 4), "won", GREEN, "steady", COMBAT_MS, None),
        Light((3, 3), "lost", RED, "steady", COMBAT_MS, None),
    ]


def test_vx_14_10_a_destroyed_unit_flashes_red_on_its_last_cell_after_the_fight() -> None:
    state = position([("guardsmen", (3, 4))], [("wearg_warriors", (3, 3)), ("wolf_riders", (10, 8))])
    state = tweak(state, 1, strength=10.0)  # 30 casualties and more: nothing left of ten men
    after, events = combat_step(end_movement(state)[0], face=50)
    assert UnitRemoved(1, "destroyed") in events
    for seat in (0, 1):
        lights = lights_of(after, events, seat)
        assert [x for x in lights if x.effect == "destroyed"] == [
            Light((3, 3), "destroyed", RED, "flash", COMBAT_MS, None)
        ]


def test_vx_14_11_a_spell_wave_runs_ring_by_ring_to_the_spell_s_range() -> None:
    state = position([("wulfgeldre", (6, 4))], [("wearg_warriors", (6, 8))], width=14, height=10)
    state, _ = end_movement(state)
    assert state.phase == "spells" and state.mover == 0
    state, events = GAME.apply(state, CastSpell(0, "strength"))
    assert events[0] == SpellCast(0, "strength", "Strength", 5, 0.1)
    wave = [x for x in lights_of(state, events, 1) if x.effect == "spell_wave"]
    centre = offset_to_hex(6, 4)
    # Rings 0..5 of a hexagon hold 1 + 6 + 12 + ... + 30 = 91 cells; row 9 cuts ring 5 by its 5+1 cells.
    assert len(wave) == 91 - 6
    assert max(distance(centre, offset_to_hex(*x.cell)) for x in wave) == 5
    for x in wave:
        k = distance(centre, offset_to_hex(*x.cell))
        assert (x.pattern, x.delay_ms, x.duration_ms) == ("wave", k * WAVE_RING_MS, WAVE_MS)
    # A wave lights cells, not units: the Wearg's cell is lit by the wave only.
    assert {x.effect for x in lights_of(state, events, 1) if x.cell == (6, 8)} == {"spell_wave"}


def test_vx_14_11_a_local_spell_lights_the_wizard_alone_and_an_all_spell_the_whole_board() -> None:
    state = position([("wulfgeldre", (0, 0))], [("wearg_warriors", (6, 8))])
    obs = GAME.observe(state, 0)
    shield = ADAPTER.lights(obs, [SpellCast(0, "shield", "Shield", 0, 0.1)], 0)
    assert at(shield, "spell_wave") == [(0, 0)]
    doom = ADAPTER.lights(obs, [SpellCast(0, "armageddon", "Armageddon", None, 0.1)], 0)
    assert sorted(at(doom, "spell_wave")) == sorted((c, r) for c in range(12) for r in range(9))


def test_vx_14_12_units_a_spell_holds_light_in_the_caster_s_shade() -> None:
    state = position(
        [("wulfgeldre", (6, 4)), ("spearmen", (6, 6)), ("archers", (0, 0))],
        [("wearg_warriors", (6, 8))],
    )
    state, _ = end_movement(state)
    state, _ = GAME.apply(state, CastSpell(0, "strength"))
    for seat in (0, 1):
        lights = lights_of(state, [], seat)
        # Strength holds friends within five cells, the caster too; the archers are seven cells away.
        assert [(x.cell, x.colour) for x in lights if x.effect == "enchanted"] == [
            ((6, 4), VIOLET_LIGHT),
            ((6, 6), VIOLET_LIGHT),
        ]


def test_vx_sp_command_4_a_commanded_unit_lights_in_its_commander_s_team_colour() -> None:
    state = position([("spearmen", (2, 2))], [("wearg_warriors", (5, 7))])
    state = tweak(state, 0, controller=1)
    assert [(x.cell, x.colour) for x in lights_of(state, [], 0) if x.effect == "command"] == [
        ((2, 2), TEAM_DARK)
    ]


def test_vx_14_13_lava_flickers_on_its_cells_and_vx_14_15_a_portal_pulses() -> None:
    state = position([("circan", (1, 1))], [("waerloga", (8, 7)), ("wearg_warriors", (10, 7))])
    lava = Enchantment("creeping_death", 1, 1, cast_turn=0, first=0, last=2, cells=(cell(5, 4),))
    portal = Enchantment("transportation", 0, 0, cast_turn=1, first=2, last=4, cells=(cell(2, 1),))
    state = replace(state, enchantments=(lava, portal))
    lights = lights_of(state, [], 0)
    # Turn 1, cast in turn 0: the lava covers its cell and the six around it (VX-SP-CREEP-2 to -4).
    assert sorted(at(lights, "lava")) == sorted([(5, 4), (4, 4), (6, 4), (4, 3), (5, 3), (4, 5), (5, 5)])
    assert {(x.colour, x.pattern) for x in lights if x.effect == "lava"} == {(DEEP_ORANGE, "flicker")}
    assert [(x.cell, x.colour, x.pattern) for x in lights if x.effect == "portal"] == [
        ((2, 1), CYAN, "pulse")
    ]
    used = replace(portal, used=3)  # it has carried its three units: closed, unlit
    assert at(lights_of(replace(state, enchantments=(lava, used)), [], 0), "portal") == []


def test_vx_14_03_an_illegal_destination_lights_red_for_two_seconds_and_off_board_cells_never_light() -> None:
    state = position([("spearmen", (2, 2))], [("wearg_warriors", (5, 7))])
    obs = GAME.observe(state, 0)
    assert ADAPTER.refusal_lights(obs, {"type": "move", "unit": 0, "to": [9, 2]}) == [
        Light((9, 2), "illegal", RED, "steady", 0, ILLEGAL_MS)
    ]
    assert ADAPTER.refusal_lights(obs, {"type": "move", "unit": 0, "to": [12, 2]}) == []
    assert ADAPTER.refusal_lights(obs, {"type": "end_phase"}) == []


def test_transient_lights_of_a_unit_without_a_cell_never_show() -> None:
    state = tweak(position([("grima", (2, 2))], [("wearg_warriors", (5, 7))], first=1), 0, hidden=True)
    obs = GAME.observe(state, 1)
    assert obs["units"][0]["cell"] is None
    events = [UnitRemoved(0, "destroyed"), SpellCast(0, "fire", "Fire", 5, 0.1)]
    assert ADAPTER.lights(obs, events, 1) == []
    # Nor for her owner: her piece is off the table, and a lit cell would show onlookers where she is.
    assert ADAPTER.lights(GAME.observe(state, 0), events, 0) == []


def test_lights_of_a_whole_playout_stay_on_the_board() -> None:
    state = GAME.initial_state(GAME.load_scenario("skirmish"))
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ChanceOutcome(1))
    for _ in range(3):
        after, events = combat_step(end_movement(state)[0], face=70)
        for seat in (0, 1):
            for x in lights_of(after, events, seat):
                assert 0 <= x.cell[0] < 12 and 0 <= x.cell[1] < 9
        if after.result is not None:
            break
        state = GAME.apply(after, ChanceOutcome(1))[0]


def test_the_adapter_matches_real_event_classes_of_the_game_and_each_one_shows() -> None:
    # Every event class the adapter names in its source is one it declares, and a class of the game's events:
    # a renamed event then breaks the adapter's import and this test, never silently a light.
    source = ast.parse(inspect.getsource(table_module))
    named = {
        n.attr for n in ast.walk(source) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
        and n.value.id == "ev"
    }  # fmt: skip
    assert named == {cls.__name__ for cls in REACTS_TO}
    for cls in REACTS_TO:
        assert issubclass(cls, Event) and getattr(ev, cls.__name__) is cls
    # And each one reacts: a light, or the report (sorcery: 5 the Guardsmen at [5, 2], 8 the Archers at
    # [6, 0], 0 Wulfgeldre at [6, 1]; 14 Pocâdl at [3, 8], 17 the Wearg Warriors at [6, 7]).
    state = GAME.initial_state(GAME.load_scenario("sorcery"))
    obs = GAME.observe(state, 0)
    shows: dict[type[Event], tuple[Event, str]] = {
        ev.AttackResolved: (ev.AttackResolved(8, 17, "missile", 3.0, 12.0, ()), "firing"),
        ev.ContactMade: (ev.ContactMade(5, 14, False), "melee"),
        ev.CloseCombatOutcome: (ev.CloseCombatOutcome(5, 14), "won"),
        ev.UnitRemoved: (ev.UnitRemoved(17, "fled"), "destroyed"),
        ev.SpellCast: (ev.SpellCast(0, "fire", "Fire", 5, 0.1), "spell_wave"),
        ev.SpellCasualties: (ev.SpellCasualties(17, "fire", 66.7), "under_fire"),
        ev.LavaSpread: (ev.LavaSpread(0, ((2, 4),)), "lava"),
    }
    assert set(shows) | {ev.CombatReport} == set(REACTS_TO)
    for event, effect in shows.values():
        assert effect in {x.effect for x in ADAPTER.lights(obs, [event], 0)}, event
        assert effect not in {x.effect for x in ADAPTER.lights(obs, [], 0)}
    assert ADAPTER.report(obs, []) is None
    report = ADAPTER.report(obs, [ev.CombatReport(1, ())])
    assert report is not None and report["turn"] == 1
