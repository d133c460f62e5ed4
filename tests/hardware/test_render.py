"""The renderer: frame lights -> LED colours, with the virtual table's timings, gamma and brightness.

Expected values are computed by hand from the CSS (src/iwgt/web/style.css) and the layout's gamma and
brightness; most tests use gamma 1 and brightness 1 so a colour's byte times the opacity is the LED's byte.
"""

from __future__ import annotations

import numpy as np

from iwgt.hardware.layout import Layout, load_layout, parse_layout
from iwgt.hardware.protocol import FrameLight
from iwgt.hardware.render import Renderer

DATA = "src/iwgt/hardware/data/table-30x20.toml"


def layout(gamma: float = 1.0, brightness: float = 1.0) -> Layout:
    """A 4 x 2 table, 2 LEDs a cell: cell (c, r) has LEDs (r * 4 + c) * 2 and + 1."""
    return parse_layout(
        f"""
columns = 4
rows = 2
leds_per_cell = 2
gamma = {gamma}
brightness = {brightness}
[[controllers]]
name = "a"
protocol = "ddp"
host = "127.0.0.1"
leds = 16
""",
        "test.toml",
    )


def light(cell: tuple[int, int], colour: str, pattern: str = "steady", **kw: object) -> FrameLight:
    return FrameLight(cell=cell, effect=str(kw.pop("effect", "x")), colour=colour, pattern=pattern, **kw)  # type: ignore[arg-type]


def at(rgb: np.ndarray, cell: tuple[int, int]) -> tuple[int, int, int]:
    """The colour of a cell's LEDs (both the same)."""
    first = (cell[1] * 4 + cell[0]) * 2
    assert np.array_equal(rgb[first], rgb[first + 1])
    return tuple(int(v) for v in rgb[first])  # type: ignore[return-value]


def test_gamma_and_brightness_on_known_colours() -> None:
    r = Renderer(layout(gamma=2.2, brightness=0.6))
    rgb = r.render((light((0, 0), "#808080"), light((1, 0), "#ff0000")), 0)
    # 255 * 0.6 * (128/255) ** 2.2 = 153 * 0.219526 = 33.59 -> 34; full red: 153
    assert at(rgb, (0, 0)) == (34, 34, 34)
    assert at(rgb, (1, 0)) == (153, 0, 0)
    assert at(rgb, (2, 0)) == (0, 0, 0)  # no light: dark
    assert rgb.shape == (16, 3) and rgb.dtype == np.uint8


def test_flash_on_and_off_at_known_times() -> None:
    r = Renderer(layout())
    lights = (light((0, 0), "#ff0000", "flash", delay_ms=100),)
    # dark before its delay; from the delay on, 350 ms on, 350 ms at opacity 0.08 (255 * 0.08 = 20.4 -> 20)
    expected = {0: 0, 99: 0, 100: 255, 449: 255, 450: 20, 799: 20, 800: 255, 1150: 20}
    for t, red in expected.items():
        assert at(r.render(lights, t), (0, 0)) == (red, 0, 0), t


def test_a_wave_waits_for_its_delay_and_shows_the_light_beneath() -> None:
    r = Renderer(layout())
    lights = (light((1, 1), "#00ff00"), light((1, 1), "#0000ff", "wave", delay_ms=300, duration_ms=1000))
    assert at(r.render(lights, 299), (1, 1)) == (0, 255, 0)  # the wave not yet on: the steady green shows
    assert at(r.render(lights, 300), (1, 1)) == (0, 0, 0)  # keyframe 0%: opacity 0
    assert at(r.render(lights, 450), (1, 1)) == (0, 0, 255)  # 15%: opacity 1
    assert at(r.render(lights, 1000), (1, 1)) == (0, 0, 217)  # 70%: 0.85 * 255 = 216.75
    assert at(r.render(lights, 1300), (1, 1)) == (0, 255, 0)  # over: the green again


def test_a_wave_without_duration_lasts_1500_ms() -> None:
    r = Renderer(layout())
    lights = (light((0, 0), "#ffffff", "wave"),)
    assert at(r.render(lights, 225), (0, 0)) == (255, 255, 255)  # 15% of 1500
    assert at(r.render(lights, 1500), (0, 0)) == (0, 0, 0)


def test_alternate_takes_turns_in_list_order() -> None:
    r = Renderer(layout())
    lights = (
        light((2, 0), "#00ff00", "alternate", effect="melee"),
        light((2, 0), "#ff0000", "alternate", effect="melee"),
        light((3, 0), "#ffff00", "alternate", effect="melee"),  # one colour: takes turns with dark
    )
    for t, green_cell, single in [(0, (0, 255, 0), 255), (599, (0, 255, 0), 255), (600, (255, 0, 0), 0),
                                  (1199, (255, 0, 0), 0), (1200, (0, 255, 0), 255)]:  # fmt: skip
        rgb = r.render(lights, t)
        assert at(rgb, (2, 0)) == green_cell, t
        assert at(rgb, (3, 0)) == (single, single, 0), t


def test_the_most_urgent_active_light_wins() -> None:
    r = Renderer(layout())
    lights = (
        light((0, 1), "#0000ff"),  # least urgent
        light((0, 1), "#ff0000", duration_ms=500),  # more urgent, for 500 ms
        light((0, 1), "#00ff00", delay_ms=1000),  # the most urgent, from 1 s on
    )
    assert at(r.render(lights, 0), (0, 1)) == (255, 0, 0)
    assert at(r.render(lights, 500), (0, 1)) == (0, 0, 255)  # red over: blue beneath shows
    assert at(r.render(lights, 1000), (0, 1)) == (0, 255, 0)


def test_pulse_breathes_from_035_to_1() -> None:
    r = Renderer(layout())
    lights = (light((0, 0), "#ff0000", "pulse"),)
    # 1.6 s, ease-in-out: 0.35 at 0, 1 at 800 ms; the middle of a symmetric ease is 0.5: 0.675 at 400 ms
    assert at(r.render(lights, 0), (0, 0)) == (89, 0, 0)  # 0.35 * 255 = 89.25
    assert at(r.render(lights, 400), (0, 0)) == (172, 0, 0)  # 0.675 * 255 = 172.1
    assert at(r.render(lights, 800), (0, 0)) == (255, 0, 0)
    assert at(r.render(lights, 1600), (0, 0)) == (89, 0, 0)


def test_flicker_is_deterministic_within_the_css_range_and_differs_by_cell() -> None:
    lights = tuple(light((c, r), "#ff0000", "flicker") for c in range(4) for r in range(2))
    one, two = Renderer(layout()), Renderer(layout())
    reds = []
    for t in range(0, 3400, 50):
        a, b = one.render(lights, t), two.render(lights, t)
        assert np.array_equal(a, b)  # seeded by cell and time slot: the same every run
        reds.append(a[::2, 0])
    values = np.array(reds)
    assert values.min() >= 102 and values.max() <= 255  # opacity 0.4 .. 1 of 255
    assert len({tuple(col) for col in values.T}) == 8  # every cell flickers its own way
    assert len(np.unique(values[:, 0])) > 5  # and it does flicker


def test_identify_blinks_white_over_the_frame() -> None:
    r = Renderer(layout())
    lights = (light((1, 0), "#ff0000"),)
    assert at(r.render(lights, 0, {(1, 0): 0}), (1, 0)) == (245, 245, 245)  # #f5f5f5
    assert at(r.render(lights, 0, {(1, 0): 349}), (1, 0)) == (245, 245, 245)
    assert at(r.render(lights, 0, {(1, 0): 350}), (1, 0)) == (0, 0, 0)  # the off half: dark
    assert at(r.render(lights, 0, {(1, 0): 700}), (1, 0)) == (245, 245, 245)
    assert at(r.render(lights, 0, {(2, 0): 0}), (1, 0)) == (255, 0, 0)  # another cell's identify


def test_lights_off_the_table_are_ignored() -> None:
    r = Renderer(layout())
    rgb = r.render((light((9, 9), "#ffffff"),), 0)
    assert not rgb.any()


def test_1800_leds_of_the_30x20_table() -> None:
    big = load_layout(DATA)
    r = Renderer(big)
    pats = ["steady", "flash", "alternate", "wave", "flicker", "pulse"]
    lights = tuple(
        light((c, row), "#f97316", pats[(c + row) % 6], delay_ms=(c * 37) % 400)
        for c in range(30)
        for row in range(20)
    )
    rgb = r.render(lights, 0)
    assert rgb.shape == (1800, 3)
    # Steady cells with no delay (c + row divisible by 6, c * 37 % 400 == 0: c = 0) lit on all their LEDs.
    for row in (0, 6, 12, 18):
        base = (row * 30) * 3
        assert (rgb[base : base + 3] > 0).all(), row
    lit = r.render(lights, 400)  # every delay passed: the steady, flash (on), pulse, flicker cells are lit
    steady = [(c, row) for c in range(30) for row in range(20) if (c + row) % 6 == 0]
    assert all((lit[(row * 30 + c) * 3 : (row * 30 + c) * 3 + 3] > 0).all() for c, row in steady)
