"""The game-agnostic light: its JSON shape (docs/protocol.md, *Lights*), palette, order and checks."""

from __future__ import annotations

import json
import re

import pytest

from iwgt.core.lights import (
    BASE,
    BASE_EFFECTS,
    BASE_PALETTE,
    PATTERNS,
    RED,
    TEAM_DARK,
    TEAM_LIGHT,
    WHITE,
    Effects,
    Light,
    colour,
    lights_json,
    on_board,
)

PALETTE = BASE_PALETTE


def test_light_json_has_exactly_the_protocol_shape() -> None:
    light = Light((4, 5), "movable", WHITE, "steady")
    assert light.to_json() == {
        "cell": [4, 5],
        "effect": "movable",
        "colour": "#f5f5f5",
        "pattern": "steady",
        "delay_ms": 0,
        "duration_ms": None,
    }
    assert lights_json([light]) == [light.to_json()]


def test_every_effect_has_a_css_colour_and_every_pattern_is_named() -> None:
    assert set(BASE_EFFECTS) <= set(PALETTE)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in PALETTE.values())
    assert set(PATTERNS) == {"steady", "flash", "alternate", "wave", "flicker", "pulse"}


def test_a_side_has_its_own_shade_where_the_palette_gives_one() -> None:
    team = BASE.extend({"command": TEAM_LIGHT, "command_1": TEAM_DARK}, (*BASE_EFFECTS, "command"))
    assert team.colour("command", side=1) == TEAM_DARK
    assert team.colour("command", side=0) == TEAM_LIGHT  # no shade for seat 0: the effect's own colour
    assert colour("illegal", side=1) == RED  # no side shade: the effect's colour
    assert colour("illegal", {"illegal": "#000000"}) == "#000000"  # a physical table's own palette


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pattern": "blink"}, "pattern"),
        ({"colour": "red"}, "colour"),
        ({"delay_ms": -1}, "timing"),
        ({"duration_ms": 0}, "timing"),
    ],
)
def test_a_malformed_light_is_refused(kwargs: dict[str, object], match: str) -> None:
    base: dict[str, object] = {"cell": (0, 0), "effect": "lava", "colour": RED, "pattern": "flicker"}
    with pytest.raises(ValueError, match=match):
        Light(**{**base, **kwargs})  # type: ignore[arg-type]


def test_ordered_drops_repeats_and_puts_the_most_urgent_last_keeping_order_within_an_effect() -> None:
    deploy = Light((0, 0), "deploy", WHITE, "steady")
    green = Light((1, 1), "melee", PALETTE["melee"], "alternate")
    red = Light((1, 1), "melee", PALETTE["melee_alt"], "alternate")
    illegal = Light((0, 0), "illegal", RED, "steady", 0, 2000)
    assert BASE.ordered([illegal, green, red, deploy, green, red]) == [deploy, green, red, illegal]


def test_a_game_extends_the_shared_effects_with_its_own_in_one_whole_order() -> None:
    lava = "#ea580c"
    game = BASE.extend({"lava": lava}, ("lava", *BASE_EFFECTS))
    assert game.palette["lava"] == lava and game.palette["illegal"] == RED
    assert (
        game.ordered([Light((0, 0), "deploy", WHITE, "steady"), Light((0, 0), "lava", lava, "flicker")])[
            0
        ].effect
        == "lava"
    )
    with pytest.raises(ValueError, match="without a colour: portal"):
        BASE.extend({}, (*BASE_EFFECTS, "portal"))
    with pytest.raises(ValueError, match="leaves out shared effects: deploy"):
        BASE.extend({}, BASE_EFFECTS[1:])
    with pytest.raises(ValueError, match="CSS hex"):
        Effects({"deploy": "white"}, ("deploy",))


def test_the_three_kinds_of_place_and_their_json() -> None:
    spot = Light.spot((1.234, 2), 0.5, "selected", WHITE, "steady")
    assert spot.place == "spot" and spot.to_json()["at"] == [1.23, 2.0] and spot.to_json()["cell"] is None
    area = Light.over_area([(0, 0), (2, 0), (2, 1)], "deploy", WHITE, "steady")
    assert area.place == "area" and area.to_json()["area"] == [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]]
    region = Light.on_region("vale_of_ash", "selected", WHITE, "pulse")
    assert region.place == "region" and region.to_json()["region"] == "vale_of_ash"
    assert Light((3, 4), "deploy", WHITE, "steady").place == "cell"
    with pytest.raises(ValueError, match="exactly one place"):
        Light((0, 0), "deploy", WHITE, "steady", region="x")
    with pytest.raises(ValueError, match="three corners"):
        Light.over_area([(0, 0), (1, 1)], "deploy", WHITE, "steady")


def test_on_board() -> None:
    assert on_board((0, 0), 3, 2) and on_board((2, 1), 3, 2)
    assert not on_board((3, 0), 3, 2) and not on_board((0, -1), 3, 2)


@pytest.mark.parametrize(
    "light",
    [
        Light((4, 5), "movable", WHITE, "steady"),
        Light((0, 0), "destroyed", RED, "flash", delay_ms=300, duration_ms=1200),
        Light.spot((10.25, 3.5), 1.5, "selected", "#2563eb", "steady"),
        Light.over_area([(0, 0), (4, 0), (2, 3.5)], "charge", "#f59e0b", "wave", 100, 500),
        Light.on_region("north-march", "won", "#22c55e", "pulse"),
    ],
)
def test_from_json_is_the_inverse_of_to_json(light: Light) -> None:
    assert Light.from_json(light.to_json()) == light
    # through real JSON text too (tuples become lists, ints may come back as ints where floats were)
    assert Light.from_json(json.loads(json.dumps(light.to_json()))) == light


def test_from_json_refuses_a_malformed_object() -> None:
    with pytest.raises(ValueError, match="not a light"):
        Light.from_json({"cell": [1, 2], "colour": WHITE, "pattern": "steady"})  # no effect
    with pytest.raises(ValueError, match="exactly one place"):
        Light.from_json({"cell": None, "effect": "movable", "colour": WHITE, "pattern": "steady"})
    with pytest.raises(ValueError, match="pattern"):
        Light.from_json({"cell": [1, 2], "effect": "movable", "colour": WHITE, "pattern": "blink"})
