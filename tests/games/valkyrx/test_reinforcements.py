"""Late troops (VX-15-24, the Add troops button): reserves, their arrival turn and entry zone, AddTroops.

The test position, unless a test says otherwise: a 12x9 board; the Light's entry zone is row 0 and the
Darkness's row 8. Unit ids follow the armies in seat order:

    0  Guardsmen of Mynsterlif         Light,    on [9, 1]
    1  Knights of Mynsterlif (Mounted) Light,    late: arrives in turn 2 (60 men, morale 35, moves 3/5)
    2  Wearg Warriors                  Darkness, on [2, 7]
    3  Wearg wolf-riders               Darkness, late: arrives in turn 3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from iwgt.core.errors import DataFileError, IllegalAction, MalformedAction
from iwgt.games.valkyrx.abilities import elves_depart
from iwgt.games.valkyrx.actions import AddTroops, EndPhase, Move, PlaceUnit, action_from_json, action_to_json
from iwgt.games.valkyrx.events import ContactMade, MovementPhaseStarted, TerrainCasualties, TroopsArrived
from iwgt.games.valkyrx.flow import judge, points_destroyed
from iwgt.games.valkyrx.scenario import ValkyrxScenario, load_scenario, parse_scenario
from iwgt.games.valkyrx.spells import why_not_cast
from iwgt.games.valkyrx.state import ValkyrxState, Verdict

from .kit import GAME, cell, end_movement, next_turn, start, tweak

Entry = tuple[str, tuple[int, int] | None, int | None]
"""A unit of a test army: type, starting cell (None for a late troop) and turn of arrival."""

LIGHT: list[Entry] = [("guardsmen", (9, 1), None), ("knights_of_mynsterlif", None, 2)]
DARK: list[Entry] = [("wearg_warriors", (2, 7), None), ("wolf_riders", None, 3)]
DARK_ENTRY = "[entry.darkness]\nrows = [8, 8]"
ENTRY = "[entry.light]\nrows = [0, 0]\n" + DARK_ENTRY
KNIGHTS, WARRIORS, RIDERS = 1, 2, 3


def text(
    light: Sequence[Entry] = LIGHT,
    dark: Sequence[Entry] = DARK,
    *,
    entry: str = ENTRY,
    extra: str = "",
    terrain: str = "",
) -> str:
    """A scenario with late troops: deployment rows 0-1 and 7-8 of a 12x9 board."""

    def army(units: Sequence[Entry]) -> str:
        rows = []
        for unit, at, arrives in units:
            keys = [f'unit = "{unit}"']
            if at is not None:
                keys.append(f"cell = [{at[0]}, {at[1]}]")
            if arrives is not None:
                keys.append(f"arrives = {arrives}")
            rows.append("{ " + ", ".join(keys) + " }")
        return "[" + ", ".join(rows) + "]"

    return "\n".join(
        [
            'name = "late"',
            'title = "Late troops"',
            "width = 12",
            "height = 9",
            extra,
            terrain,
            "[deployment.light]\nrows = [0, 1]",
            "[deployment.darkness]\nrows = [7, 8]",
            entry,
            f"[army]\nlight = {army(light)}\ndarkness = {army(dark)}",
        ]
    )


def scenario(**kw: object) -> ValkyrxScenario:
    return parse_scenario(text(**kw), "late.toml")  # type: ignore[arg-type]


def turn_two(first: int = 0, **kw: object) -> ValkyrxState:
    """Turn 1 passes with no move (no contact, no missiles: no dice); ``first`` opens turn 2."""
    state = start(scenario(**kw))
    state, _ = end_movement(state)
    assert state.turn == 2
    return next_turn(state, first)


def arrivals(state: ValkyrxState, seat: int) -> list[AddTroops]:
    return [a for a in GAME.legal_actions(state, seat) if isinstance(a, AddTroops)]


# --- the reserve -----------------------------------------------------------------------------------------


def test_vx_15_24_late_troops_start_in_reserve_off_the_table() -> None:
    state = GAME.initial_state(scenario())
    knights = state.units[KNIGHTS]
    assert knights.status == "reserve" and knights.in_reserve
    assert not knights.on_table and not knights.in_play and not knights.gone
    assert knights.strength == 60.0 and knights.morale == 35.0
    assert knights.id not in {u.id for u in state.occupancy().values()}
    assert [state.arrives(u.id) for u in state.units] == [None, 2, None, 3]


def test_vx_15_24_the_observation_shows_reserves_publicly() -> None:
    state = start(scenario())
    views = [GAME.observe(state, seat) for seat in (0, 1, None)]
    seen = [v["units"][KNIGHTS] for v in views]
    assert seen[0] == seen[1] == seen[2]  # agreed beforehand: every seat sees the same
    assert (seen[0]["status"], seen[0]["cell"], seen[0]["arrives"]) == ("reserve", None, 2)
    assert views[0]["units"][0]["arrives"] is None  # there from the start
    # Both sides' entry zones are public: row 0 for the Light, row 8 for the Darkness.
    assert views[1]["entry"] == [[[c, 0] for c in range(12)], [[c, 8] for c in range(12)]]


def test_vx_15_24_a_late_wizards_spells_stay_his_owners_secret() -> None:
    light: list[Entry] = [("guardsmen", (9, 1), None), ("circan", None, 2)]
    state = start(scenario(light=light))  # deployment gave Circan his default pack (VX-15-05)
    mine, theirs = GAME.observe(state, 0)["units"][1], GAME.observe(state, 1)["units"][1]
    assert mine["status"] == theirs["status"] == "reserve"
    assert len(mine["spells"]) == 6 and "spells" not in theirs and theirs["spells_left"] == 6
    other = GAME.resample_hidden(state, 1, lambda n: n - 1)
    assert other.units[1].spells != state.units[1].spells  # redrawn: the Darkness cannot know them
    assert other.units[1].status == "reserve" and GAME.observe(other, 1) == GAME.observe(state, 1)


def test_vx_15_24_late_troops_are_not_deployed() -> None:
    state = GAME.initial_state(scenario())
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, PlaceUnit) and a.unit == KNIGHTS]
    with pytest.raises(IllegalAction, match="late troop: it is added to the table from turn 2"):
        GAME.apply(state, PlaceUnit(KNIGHTS, cell(4, 0)))


# --- when -----------------------------------------------------------------------------------------------


def test_vx_15_24_no_arrival_before_its_turn() -> None:
    state = start(scenario())  # turn 1, the Light moves
    assert arrivals(state, 0) == []
    with pytest.raises(IllegalAction, match=r"joins the battle in turn 2, not before \(now turn 1\)"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(4, 0)))


def test_vx_15_24_only_in_its_owners_movement_phase() -> None:
    state = turn_two(first=1)  # the Darkness moves first in turn 2
    assert arrivals(state, 0) == [] and arrivals(state, 1) == []  # its riders come in turn 3
    with pytest.raises(IllegalAction, match="not yours to bring on"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(4, 0)))
    state, events = GAME.apply(state, EndPhase())
    assert MovementPhaseStarted(2, 0, (0,), (KNIGHTS,)) in events  # the Add troops button lights
    assert len(arrivals(state, 0)) == 12  # every cell of row 0
    with pytest.raises(IllegalAction, match="only in their owner's movement phase"):
        GAME.apply(replace(state, phase="spells"), AddTroops(KNIGHTS, cell(4, 0)))


# --- where ----------------------------------------------------------------------------------------------


def test_vx_15_24_only_on_a_free_entry_cell_away_from_the_enemy() -> None:
    state = turn_two()
    assert {a.to for a in arrivals(state, 0)} == {cell(c, 0) for c in range(12)}
    with pytest.raises(IllegalAction, match="not in your entry zone"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(5, 3)))  # deployment row 1 is not the entry row
    with pytest.raises(IllegalAction, match="not in your entry zone"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(40, 0)))  # off the board
    held = tweak(state, 0, cell=cell(9, 0))
    with pytest.raises(IllegalAction, match="already holds Guardsmen of Mynsterlif"):
        GAME.apply(held, AddTroops(KNIGHTS, cell(9, 0)))
    # Wearg Warriors on [4, 1] touch [4, 0] and [5, 0]: those two are closed, ten cells are left.
    near = tweak(state, WARRIORS, cell=cell(4, 1))
    assert {a.to for a in arrivals(near, 0)} == {cell(c, 0) for c in range(12)} - {cell(4, 0), cell(5, 0)}
    with pytest.raises(IllegalAction, match="closed to arrivals"):
        GAME.apply(near, AddTroops(KNIGHTS, cell(5, 0)))


def test_vx_15_24_the_temple_is_closed_and_quicksand_strikes_on_arrival() -> None:
    terrain = (
        '[[terrain]]\nkind = "temple"\ncells = [[6, 0]]\n[[terrain]]\nkind = "quicksand"\ncells = [[3, 0]]'
    )
    state = turn_two(terrain=terrain)
    assert cell(6, 0) not in {a.to for a in arrivals(state, 0)}
    with pytest.raises(IllegalAction, match="closed to arrivals"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(6, 0)))
    # VX-05-05: a ground move ending in quicksand loses 25% of its strength: 60 x 0.25 = 15 men.
    state, events = GAME.apply(state, AddTroops(KNIGHTS, cell(3, 0)))
    assert TerrainCasualties(KNIGHTS, 15.0, "quicksand") in events
    assert state.units[KNIGHTS].strength == 45.0


def test_vx_15_24_the_entry_zone_defaults_to_the_deployment_zone() -> None:
    state = turn_two(entry="")
    assert {a.to for a in arrivals(state, 0)} == {cell(c, r) for r in (0, 1) for c in range(12)} - {
        cell(9, 1)
    }


# --- the arrival ----------------------------------------------------------------------------------------


def test_vx_15_24_the_arrival_is_its_move_at_full_strength() -> None:
    state = turn_two()
    state, events = GAME.apply(state, AddTroops(KNIGHTS, cell(5, 0)))
    assert events == [TroopsArrived(KNIGHTS, (5, 0))]
    assert TroopsArrived(KNIGHTS, (5, 0)).visible_to(1)  # public
    knights = state.units[KNIGHTS]
    assert (knights.status, knights.cell, knights.strength, knights.morale) == (
        "active",
        cell(5, 0),
        60.0,
        35.0,
    )
    # Its whole normal allowance (3 of 3/5) is spent: it moves no further this turn.
    assert knights.moved and knights.moved_cost == 3.0
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, Move) and a.unit == KNIGHTS]
    with pytest.raises(IllegalAction, match="already moved this turn"):
        GAME.apply(state, Move(KNIGHTS, cell(5, 1)))
    with pytest.raises(IllegalAction, match="already joined the battle"):
        GAME.apply(state, AddTroops(KNIGHTS, cell(6, 0)))
    view = GAME.observe(state, 1)["units"][KNIGHTS]
    assert (view["status"], view["cell"], view["arrives"]) == ("active", [5, 0], 2)


def test_vx_15_24_vx_02_10_an_enemy_walking_into_a_new_arrival_fights_next_turn() -> None:
    """The arrival spent 3 of the Knights' 3 cells, more than half: the contact is put off (VX-02-10)."""
    state = tweak(turn_two(), WARRIORS, cell=cell(4, 2))
    state, _ = GAME.apply(state, AddTroops(KNIGHTS, cell(5, 0)))
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, Move(WARRIORS, cell(4, 1)))  # 1 cell of 2: the Warriors are not late
    state, events = GAME.apply(state, EndPhase())
    assert ContactMade(KNIGHTS, WARRIORS, True) in events


def test_vx_15_24_a_unit_that_is_no_late_troop_cannot_be_added() -> None:
    state = turn_two()
    with pytest.raises(IllegalAction, match="no late troop"):
        GAME.apply(state, AddTroops(0, cell(4, 0)))
    with pytest.raises(MalformedAction, match="no unit 9"):
        GAME.apply(state, AddTroops(9, cell(4, 0)))


# --- victory ---------------------------------------------------------------------------------------------


def test_vx_15_24_vx_15_26_reserves_to_come_keep_a_side_in_the_battle() -> None:
    """The Darkness loses everything on the table in turn 1, but its wolf-riders arrive in turn 3."""
    state = start(scenario())
    state = tweak(state, WARRIORS, status="destroyed", strength=0.0)
    assert judge(state) is None
    state, _ = end_movement(state)  # the Darkness has nothing to move and nothing due: its phase ends
    assert state.result is None and state.turn == 2
    state, _ = end_movement(next_turn(state))
    state = next_turn(state, 1)  # turn 3: its phase does not end by itself, an arrival is due
    assert state.mover == 1 and state.phase == "movement"
    assert len(arrivals(state, 1)) == 12
    gone = tweak(state, RIDERS, status="destroyed", strength=0.0)
    assert judge(gone) == Verdict(0, "the Darkness has nothing left on the table")


def test_vx_15_24_a_reserve_counts_no_points_lost() -> None:
    state = tweak(start(scenario(extra='victory = ["points"]')), WARRIORS, status="destroyed", strength=0.0)
    assert points_destroyed(state, 0) == 1200.0  # the Warriors; the riders still to come count nothing
    assert points_destroyed(state, 1) == 0.0  # the Knights in reserve have lost nothing


def test_vx_15_24_a_supreme_leader_in_reserve_has_not_fallen() -> None:
    light: list[Entry] = [("guardsmen", (9, 1), None), ("modrof", None, 3)]
    state = start(scenario(light=light, extra='victory = ["leader"]'))
    assert judge(state) is None
    state, _ = end_movement(state)
    assert state.turn == 2 and state.leaders_slain == () and state.units[0].morale == 30.0


def test_vx_15_24_vx_13_elves_4_elves_in_reserve_are_not_yet_of_the_elven_force() -> None:
    light: list[Entry] = [("guardsmen", (9, 1), None), ("elves", None, 3)]
    state = start(scenario(light=light))
    assert elves_depart(state) == (state, [])


# --- JSON ------------------------------------------------------------------------------------------------


def test_vx_15_24_add_troops_json_round_trip() -> None:
    action = AddTroops(KNIGHTS, cell(5, 0))
    data = action_to_json(action)
    assert data == {"type": "add_troops", "unit": 1, "to": [5, 0]}
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "add_troops", "unit": 1}, "'to' must be a cell"),
        ({"type": "add_troops", "to": [5, 0]}, "'unit' must be a whole number"),
        ({"type": "add_troops", "unit": True, "to": [5, 0]}, "'unit' must be a whole number"),
        ({"type": "add_troops", "unit": 1, "to": [5]}, "'to' must be a cell"),
        ({"type": "add_troops", "unit": 1, "to": "5,0"}, "'to' must be a cell"),
        ({"type": "add_troops", "unit": 1, "to": [5, 0], "turn": 2}, "unexpected key"),
        ({"type": "add_troop", "unit": 1, "to": [5, 0]}, "unknown action type"),
    ],
)
def test_vx_15_24_malformed_add_troops_json_is_refused(data: dict[str, object], words: str) -> None:
    with pytest.raises(MalformedAction, match=words):
        action_from_json(data)


# --- scenario files --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("light", "entry", "extra", "key", "words"),
    [
        ([*LIGHT[:1], ("knights_of_mynsterlif", None, 1)], ENTRY, "", "army.light.1.arrives", "greater than"),
        ([*LIGHT[:1], ("knights_of_mynsterlif", (4, 0), 2)], ENTRY, "", "army.light.1.cell", "no starting"),
        (
            [*LIGHT[:1], ("knights_of_mynsterlif", None, None)],
            DARK_ENTRY,
            "",
            "army.light.1.cell",
            "is missing",
        ),
        (LIGHT, ENTRY, "turn_limit = 2", "army.darkness.1.arrives", "turn 3 comes after the last turn, 2"),
        (
            [*LIGHT[:1], ("knights_of_mynsterlif", None, 13)],
            ENTRY,
            "",
            "army.light.1.arrives",
            "last turn, 12",
        ),
        ([("guardsmen", None, 2)], ENTRY, "", "army.light", "on the table from the start"),
        (LIGHT[:1], ENTRY, "", "entry.light", "the light has no late troops"),
        (LIGHT, "[entry.light]\nrows = [0, 9]", "", "entry.light.rows", "within 0..8"),
        (LIGHT, "[entry.light]\ncells = [[12, 0]]", "", "entry.light.cells.0", "off the 12x9 board"),
        (LIGHT, "[entry.light]\ncolumns = [0, 1]", "", "entry.light.columns", "unknown key"),
        (LIGHT, "[entry.light]", "", "entry.light", "needs 'rows' or 'cells'"),
        (LIGHT, "[entry.center]\nrows = [0, 0]", "", "entry.center", "'light' or 'darkness'"),
    ],
)
def test_vx_15_24_broken_late_troops_are_refused_with_file_and_key(
    light: list[Entry], entry: str, extra: str, key: str, words: str
) -> None:
    with pytest.raises(DataFileError) as info:
        parse_scenario(text(light, entry=entry, extra=extra), "late.toml")
    assert info.value.key.startswith(key) and "late.toml" in info.value.message
    assert words in info.value.message


def test_vx_15_24_an_entry_zone_with_no_standing_room_is_refused() -> None:
    terrain = (
        '[[terrain]]\nkind = "impassable"\ncells = [[0, 0]]\n[[terrain]]\nkind = "temple"\ncells = [[1, 0]]'
    )
    entry = "[entry.light]\ncells = [[0, 0], [1, 0]]"
    with pytest.raises(DataFileError) as info:
        parse_scenario(text(entry=entry, terrain=terrain), "late.toml")
    assert info.value.key == "entry.light" and "can take a unit" in info.value.message


def test_vx_15_24_the_shipped_reinforcements_scenario_has_late_troops_on_both_sides() -> None:
    scen = load_scenario("reinforcements")
    state = GAME.initial_state(scen)
    for seat in (0, 1):
        late = [u for u in state.units if u.owner == seat and u.in_reserve]
        assert late and all((state.arrives(u.id) or 0) >= 2 for u in late)
        assert 8 <= sum(1 for u in state.units if u.owner == seat) <= 12
    assert scen.turn_limit == 10


def test_vx_15_24_a_reserve_neither_moves_nor_casts() -> None:
    light: list[Entry] = [("guardsmen", (9, 1), None), ("circan", None, 3)]
    state = turn_two(light=light)
    with pytest.raises(IllegalAction, match="late troop, not yet on the table"):
        GAME.apply(state, Move(1, cell(4, 0)))
    assert (
        why_not_cast(state, state.units[1], 0)
        == "Circan - Wizard of the White Council has not yet joined the battle (VX-15-24)"
    )
