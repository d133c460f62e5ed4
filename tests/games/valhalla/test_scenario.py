"""Scenario files (VH-MS-01..03, VH-CB-04, VH-WL-07): the shipped ones load; broken ones are refused."""

from __future__ import annotations

import pytest

from iwgt.core.errors import DataFileError
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.scenario import (
    BAGGAGE_RADIUS,
    MAX_PLAYERS,
    THING_RADIUS,
    parse_scenario,
    scenario_names,
)
from iwgt.geometry.plane import edge_distance

from .kit import GAME, make, player, scenario_text


@pytest.mark.parametrize("name", ["first_blood", "skirmish", "raid"])
def test_vh_ms_01_the_shipped_scenarios_load_and_start(name: str) -> None:
    assert name in scenario_names()
    scen = GAME.load_scenario(name)
    state = GAME.initial_state(scen)
    spec = scen.spec
    assert len(state.figures) == 3 * len(spec.players)
    g = scen.ground
    assert all(g.on_table(f.at, rules().table.base_radius) for f in state.figures)
    for a in state.figures:  # no two figures overlap at the start
        for b in state.figures[a.id + 1 :]:
            assert edge_distance(a.at, 0.5, b.at, 0.5) >= 0


def test_vh_ms_02_the_scenario_places_every_figure_and_thing() -> None:
    extra = '[[things]]\nname = "chest"\nat = [20, 20]\n[[baggage]]\nname = "cart"\nside = 1\nat = [30, 20]\n'
    state = GAME.initial_state(make([(3, 4), (5, 6), (7, 8)], [(40, 30), (42, 30), (44, 30)], extra=extra))
    assert [f.at for f in state.figures] == [(3, 4), (5, 6), (7, 8), (40, 30), (42, 30), (44, 30)]
    chest, cart = state.things
    assert (chest.id, chest.at, chest.radius, chest.baggage_side) == (0, (20, 20), THING_RADIUS, None)
    assert (cart.id, cart.at, cart.radius, cart.baggage_side) == (1, (30, 20), BAGGAGE_RADIUS, 1)


def test_vh_ms_03_round_1_inch_bases_measured_edge_to_edge() -> None:
    assert rules().table.base_radius == 0.5
    view = GAME.observe(GAME.initial_state(make()), 0)
    assert view["base_radius"] == 0.5
    assert view["rings"] == {"move": 6.0, "close": 6.0, "range": 12.0, "zone": 2.0, "charge": 2.0}


def refused(text: str) -> str:
    with pytest.raises(DataFileError) as info:
        parse_scenario(text, "test")
    return str(info.value)


TWO = [player(0, (2, 2), (4, 2), (6, 2)), player(1, (40, 30), (42, 30), (44, 30))]


def test_vh_ms_01_broken_scenarios_are_refused_with_the_key() -> None:
    off = [player(0, (0.4, 2), (4, 2), (6, 2)), TWO[1]]
    assert "players.0.hero" in refused(scenario_text(off))
    assert "side 1" in refused(scenario_text([TWO[0], player(0, (9, 9), (11, 9), (13, 9))]))
    bow = [(0.0, 0.0), (4.0, 4.0), (4.0, 0.0), (0.0, 4.0)]  # a figure of eight: not a simple polygon
    assert "areas.0.outline" in refused(scenario_text(TWO, woods=[bow]))
    assert "hills.0.outline" in refused(scenario_text(TWO, hills=[(bow, 1, 1.0)]))
    assert "obstacles.0.line" in refused(scenario_text(TWO, obstacles=[("fence", [(1, 1), (1, 1)])]))
    carry = (
        '[[objectives]]\nside = 0\nkind = "carry"\ntitle = "t"\nthing = "gold"\nzone = [[0,0],[1,0],[1,1]]\n'
    )
    assert "no thing named 'gold'" in refused(scenario_text(TWO, extra=carry))
    reach = '[[objectives]]\nside = 0\nkind = "reach"\ntitle = "t"\n'
    assert "needs a zone" in refused(scenario_text(TWO, extra=reach))
    own = '[[baggage]]\nname = "cart"\nside = 0\nat = [9, 9]\n'
    own += '[[objectives]]\nside = 0\nkind = "plunder"\ntitle = "t"\nbaggage = "cart"\n'
    assert "not its own" in refused(scenario_text(TWO, extra=own))
    twice = '[[things]]\nname = "a"\nat = [9, 9]\n[[things]]\nname = "a"\nat = [10, 9]\n'
    assert "share a name" in refused(scenario_text(TWO, extra=twice))
    both = player(0, (2, 2), (4, 2), (6, 2)).replace("archer = [6, 2]", "archer = [6, 2]\nslinger = [8, 2]")
    assert "exactly one archer or one slinger" in refused(scenario_text([both, TWO[1]]))


def test_vh_cb_04_two_sides_and_2_to_17_players() -> None:
    assert MAX_PLAYERS == 17  # 17 x 3 = 51 cards of 52
    many = [
        player(i % 2, (2 + i * 2.5, 2), (2 + i * 2.5, 5), (2 + i * 2.5, 8), name=f"P{i}") for i in range(17)
    ]
    state = GAME.initial_state(make(players=many))
    assert len(state.to_deal) == 51
    too_many = [*many, player(1, (45, 20), (45, 24), (45, 28), name="P17")]
    assert "players" in refused(scenario_text(too_many))
    third_side = [TWO[0], TWO[1], player(2, (9, 9), (11, 9), (13, 9))]
    assert "side" in refused(scenario_text(third_side))


def test_vh_ms_01_figures_baggage_and_things_stand_clear_on_the_table() -> None:
    """The table's invariants hold from the file on: bases on the table and apart, every point finite."""
    # Two figures on one point: seat 1's hero on seat 0's hero at (2, 2).
    same = [TWO[0], player(1, (2, 2), (42, 30), (44, 30))]
    message = refused(scenario_text(same))
    assert message.startswith("test") and "players.1.hero: [2.0, 2.0] overlaps players.0.hero" in message
    # Overlapping bases: centres 0.9" apart, radii 0.5 + 0.5 = 1.0 > 0.9.
    assert "players.0.warrior" in refused(scenario_text([player(0, (2, 2), (2.9, 2), (6, 2)), TWO[1]]))
    # Touching bases (exactly 1.0" apart) are fine.
    parse_scenario(scenario_text([player(0, (2, 2), (3, 2), (6, 2)), TWO[1]]), "test")
    # Baggage on a figure: the cart's 1" radius at (6.5, 2) reaches the archer at (6, 2) (0.5 < 1.5).
    cart = '[[baggage]]\nname = "cart"\nside = 0\nat = [{}, {}]\n'
    assert "baggage.0.at: [6.5, 2.0] overlaps players.0.archer" in refused(
        scenario_text(TWO, extra=cart.format(6.5, 2))
    )
    # Off the table (48 x 32): the cart's base needs 1" from the edge, a thing's marker 0.25".
    assert "baggage.0.at: [47.5, 10.0] is off the 48x32 table" in refused(
        scenario_text(TWO, extra=cart.format(47.5, 10))
    )
    thing = '[[things]]\nname = "chest"\nat = [{}, {}]\n'
    assert "things.0.at: [20.0, 32.1] is off the 48x32 table" in refused(
        scenario_text(TWO, extra=thing.format(20, 32.1))
    )
    parse_scenario(scenario_text(TWO, extra=thing.format(20, 31.75)), "test")  # just on the table
    # NaN and infinity (TOML allows both) in any point.
    assert "players.0.hero: [nan, 2.0] is not a point of finite inches" in refused(
        scenario_text([TWO[0].replace("hero = [2, 2]", "hero = [nan, 2]"), TWO[1]])
    )
    assert "things.0.at" in refused(scenario_text(TWO, extra=thing.format("inf", 3)))
    assert "obstacles.0.line.1" in refused(
        scenario_text(TWO, obstacles=[("hedge", [(10, 10), (10, float("nan"))])])
    )


def test_vh_ac_08_no_base_starts_across_an_obstacle() -> None:
    # A hedge along y = 2 (x 0 to 10): the hero at (2, 2) stands on it; the archer at (6, 2.4) is 0.4" off.
    hedge = [("hedge", [(0, 2), (10, 2)])]
    assert "players.0.hero: [2.0, 2.0] has its base across obstacles.0 (a hedge)" in refused(
        scenario_text(TWO, obstacles=hedge)
    )
    near = [player(0, (2, 2.5), (4, 1.5), (6, 2.4)), TWO[1]]
    assert "players.0.archer" in refused(scenario_text(near, obstacles=hedge))
    clear = [player(0, (2, 2.5), (4, 1.5), (6, 2.5)), TWO[1]]  # bases touching the line: fine
    parse_scenario(scenario_text(clear, obstacles=hedge), "test")
