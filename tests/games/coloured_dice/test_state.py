"""The state as a value: units laid out from the scenario, helpers returning new states, the pending stack."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from iwgt.core.errors import DataFileError
from iwgt.games.coloured_dice.pending import D6Roll
from iwgt.games.coloured_dice.rules import profile
from iwgt.games.coloured_dice.state import ACTIONS_PER_TURN, Buff, MoveRoll, home_facing, pair

from .kit import GAME, battle, unit


def test_units_are_deployed_as_the_scenario_says() -> None:
    """cd-spec 1: the scenario's units on their trays, facing into the table; ids in order; their profile's
    models, hero points, bear-wound dice and Will."""
    st = GAME.initial_state(GAME.load_scenario("skirmish"))
    assert [u.id for u in st.units] == list(range(len(st.units)))
    assert {u.seat for u in st.units} == {0, 1}
    for u in st.units:
        assert u.tray.facing == home_facing(u.seat)
        p = profile(u.army, u.key)
        assert u.models == u.start_models == p.models
        assert u.actions_left == ACTIONS_PER_TURN or u.seat != st.seat
        assert u.hero_left == p.hero
        assert u.bear_left == (0 if p.bear_wound is None else p.bear_wound.dice)
        assert u.will == p.will
    generals = [u for u in st.units if u.general]
    assert sorted(u.seat for u in generals) == [0, 1]


def test_the_tray_holds_files_times_ranks_cells() -> None:
    """CD-AC-05/07: 10 archers in open order (1" bases, 1" gaps: 2" cells) in 5 files: 10" x 4"."""
    st = battle([unit(0, "archers", 20, 5, files=5, order="open"), unit(1, "spear_wall", 20, 30, files=6)])
    a = st.unit(0)
    assert (a.tray.frontage, a.tray.depth, a.files, a.order) == (10.0, 4.0, 5, "open")


def test_state_helpers_return_new_states() -> None:
    """with_unit, on_table, enemies and the pending stack leave the original state untouched."""
    st = battle([unit(0, "spearmen", 10, 5), unit(1, "spear_wall", 10, 30)])
    gone = st.with_unit(replace(st.unit(1), destroyed=True))
    assert st.unit(1).on_table and not gone.unit(1).on_table and gone.unit(1).gone
    assert [u.id for u in gone.enemies(0)] == []
    assert [u.id for u in st.enemies(0)] == [1]
    frame = D6Roll("test", "then")
    pushed = st.push(frame)
    assert st.pending == () and pushed.top == frame
    mr = MoveRoll(0, ((1.0, 1.0),), 0.0, 4.0, 0.0, (0,))
    assert pushed.push(mr).top == mr and pushed.push(mr).pop() == pushed
    assert pushed.with_top(mr).pending == (mr,)


def test_pair_and_buffs() -> None:
    """pair replaces one seat's entry; a unit's buffs sum by effect."""
    assert pair((1, 2), 0, 5) == (5, 2) and pair((1, 2), 1, 5) == (1, 5)
    st = battle([unit(0, "spearmen", 10, 5), unit(1, "spear_wall", 10, 30)])
    u = replace(
        st.unit(0),
        buffs=(Buff("a", "armour", 1, 2, 0), Buff("b", "armour", 2, 2, 0), Buff("c", "move", 1, 2, 0)),
    )
    assert u.buff_total("armour") == 3 and u.buff_total("move") == 1 and u.buff_total("dice") == 0


def test_a_new_unit_takes_the_next_id() -> None:
    """A released spirit is added with the next id; another id is refused."""
    st = battle([unit(0, "spearmen", 10, 5), unit(1, "spear_wall", 10, 30)])
    spirit = replace(st.unit(0), id=2, owner=0)
    assert st.add_unit(spirit).next_id == 3
    with pytest.raises(ValueError):
        st.add_unit(replace(spirit, id=5))


def test_the_state_is_canonical_json() -> None:
    """state_to_json is plain JSON (for digests), the same for equal states."""
    import json

    st = GAME.initial_state(GAME.load_scenario("river_crossing"))
    text = json.dumps(GAME.state_to_json(st), sort_keys=True)
    assert text == json.dumps(
        GAME.state_to_json(GAME.initial_state(GAME.load_scenario("river_crossing"))), sort_keys=True
    )


SKIRMISH = (Path(__file__).parents[3] / "src/iwgt/games/coloured_dice/scenarios/skirmish.toml").read_text()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('key = "archers"', 'key = "archerz"', "units.1.key"),
        ('kind = "woodland"', 'kind = "swamp"', "features.1"),
        ('order = "open"', 'order = "tight"', "may take only open"),
        ('army = "kaleva"', 'army = "rome"', "sides.0.army"),
        ("at = [10, 3]", "at = [10, 13]", "within 12"),
        ("rounds = 4", "rounds = 0", "rounds"),
    ],
)
def test_a_broken_scenario_is_refused_naming_the_key(old: str, new: str, said: str) -> None:
    """A scenario naming an unknown unit type, terrain kind, order or army, or deploying beyond 12" of its
    edge, is refused with the key."""
    assert old in SKIRMISH
    with pytest.raises(DataFileError, match=said):
        GAME.parse_scenario(SKIRMISH.replace(old, new, 1), "broken.toml")
