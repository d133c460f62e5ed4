"""The game-agnostic light: its JSON shape (docs/protocol.md, *Lights*), palette, order and checks."""

from __future__ import annotations

import re

import pytest

from iwgt.table import adapter
from iwgt.table.adapter import adapter_for, adapter_names, register_adapter
from iwgt.table.lights import (
    EFFECTS,
    PALETTE,
    PATTERNS,
    RED,
    TEAM_DARK,
    WHITE,
    Light,
    colour,
    lights_json,
    on_board,
    ordered,
)


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
    assert set(EFFECTS) <= set(PALETTE)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in PALETTE.values())
    assert set(PATTERNS) == {"steady", "flash", "alternate", "wave", "flicker", "pulse"}


def test_a_side_has_its_own_shade_where_the_palette_gives_one() -> None:
    assert colour("command", side=1) == TEAM_DARK
    assert colour("enchanted", side=0) != colour("enchanted", side=1)
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
    assert ordered([illegal, green, red, deploy, green, red]) == [deploy, green, red, illegal]


def test_on_board() -> None:
    assert on_board((0, 0), 3, 2) and on_board((2, 1), 3, 2)
    assert not on_board((3, 0), 3, 2) and not on_board((0, -1), 3, 2)


def test_adapters_are_registered_by_game_and_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "valkyrx" in adapter_names()
    assert adapter_for("valkyrx") is adapter_for("valkyrx")
    with pytest.raises(LookupError, match="valkyrx"):
        adapter_for("chess")
    monkeypatch.setattr(adapter, "_FACTORIES", dict(adapter._FACTORIES))
    monkeypatch.setattr(adapter, "_BUILT", dict(adapter._BUILT))
    register_adapter("test-game", lambda: adapter_for("valkyrx"))
    assert adapter_for("test-game") is adapter_for("valkyrx")
