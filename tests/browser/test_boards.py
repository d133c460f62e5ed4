"""The shared boards drawn from data in a real page (no game): the inch board's trays (facing, models laid out
in ranks or placed one by one), area and spot lights and taps; the region map's regions, region lights, pieces
and taps. The expected positions are worked out by hand from the layout rules of docs/screen-shell.md."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server

SETUP = """async () => {
  const ib = await import('/static/inchboard.js');
  const rb = await import('/static/regionboard.js');
  const { normaliseLight } = await import('/static/shell.js');
  document.body.innerHTML = '<div id="ib" style="width:800px;height:600px;display:flex"></div>'
    + '<div id="rb" style="width:400px;height:400px;display:flex"></div>';
  window.taps = [];
  const now = performance.now();
  const board = new ib.InchBoard(document.getElementById('ib'), {
    onPiece: (id) => taps.push(['piece', id]), onPoint: (p) => taps.push(['point', p]), onDrop: () => {} });
  const wood = { outline: [[1, 1], [5, 1], [5, 4]], kind: 'woods', name: 'Wood' };
  board.setTable({ width: 24, height: 16, areas: [wood] });
  const melee = { at: [20, 3], radius: 1, effect: 'melee', pattern: 'alternate' };
  board.render({
    lights: [normaliseLight({ area: [[10, 10], [14, 10], [14, 12]], effect: 'deploy', colour: '#fff' }, now),
             normaliseLight({ ...melee, colour: '#22c55e' }, now),
             normaliseLight({ ...melee, colour: '#ef4444' }, now)],
    trays: [{ id: 1, at: [6, 10], width: 4, depth: 2, facing: 90, models: 8, colour: '#b91c1c' },
            { id: 2, at: [16, 4], width: 3, depth: 1.5, facing: 30, models: 5 },
            { id: 3, at: [18, 12], width: 2, depth: 2, facing: 270,
              models: [[0, 0.5], [-0.5, -0.4], [0.5, -0.4]] }],
    pickable: new Set([1]),
  });
  window.inchBoard = board;
  const map = new rb.RegionBoard(document.getElementById('rb'), { onRegion: (id) => taps.push(['region', id]),
    onPiece: (id) => taps.push(['piece', id]) });
  map.setMap({ width: 200, height: 200, regions: [
    { id: 'west', outline: [[0, 0], [100, 0], [100, 200], [0, 200]], name: 'West' },
    { id: 'east', outline: [[100, 0], [200, 0], [200, 200], [100, 200]], name: 'East' }] });
  map.render({ lights: [normaliseLight({ region: 'east', effect: 'under_fire', colour: '#ef4444' }, now),
                        normaliseLight({ region: 'east', effect: 'lost', colour: '#ef4444' }, now)],
               pieces: [{ id: 7, region: 'west', text: 'A' }, { id: 8, region: 'west', text: 'B' }],
               targets: new Set(['east']) });
  return rb.centroid([[0, 0], [100, 0], [100, 100], [0, 100]]);
}"""


@pytest.fixture(scope="module")
def page(server: Server, browser: Browser) -> Iterator[Page]:
    p = browser.new_page(viewport={"width": 1280, "height": 1100})
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server.base + "/")
    p.wait_for_selector('[data-testid="game-cards"]')
    assert p.evaluate(SETUP) == [50, 50]
    yield p
    assert not errors, errors
    p.close()


def models(page: Page, tray: int) -> list[tuple[float, float]]:
    """The model circles of a tray, in the tray's drawing frame (SVG units, 40 an inch, y down)."""
    found: list[list[float]] = page.evaluate(
        """id => [...document.querySelectorAll(`[data-testid="ib-piece-${id}"] circle.ib-model`)]
              .map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])""",
        tray,
    )
    return [(round(x, 3), round(y, 3)) for x, y in found]


def test_a_tray_of_eight_stands_in_two_ranks_of_four_facing_up_the_table(page: Page) -> None:
    tray = page.get_by_test_id("ib-piece-1")
    assert tray.get_attribute("data-facing") == "90"
    assert tray.get_attribute("data-models") == "8"
    assert tray.get_attribute("data-at") == "6,10"
    assert "rotate(0)" in (tray.get_attribute("transform") or "")
    assert "pickable" in (tray.get_attribute("class") or "")
    # 4 files of 1" on a 4" front, 2 ranks of 1" on a 2" depth: centres 0.5" and 1.5" either side, the front
    # rank 0.5" forward (up the screen: y negative), the rear rank 0.5" back.
    front = [(-60.0, -20.0), (-20.0, -20.0), (20.0, -20.0), (60.0, -20.0)]
    rear = [(-60.0, 20.0), (-20.0, 20.0), (20.0, 20.0), (60.0, 20.0)]
    assert models(page, 1) == front + rear


def test_a_short_rear_rank_is_centred_and_a_facing_turns_the_tray(page: Page) -> None:
    tray = page.get_by_test_id("ib-piece-2")
    # Five models on 3" x 1.5": ceil(sqrt(5 * 3 / 1.5)) = 4 files, so 2 ranks; the fifth alone in the middle.
    assert models(page, 2) == [(-45.0, -15.0), (-15.0, -15.0), (15.0, -15.0), (45.0, -15.0), (0.0, 15.0)]
    # Facing 30 degrees (counter-clockwise from +x, y up) is the drawing's front (90) turned by 60 on screen.
    assert "rotate(60)" in (tray.get_attribute("transform") or "")


def test_models_placed_one_by_one_keep_their_places(page: Page) -> None:
    # Inches in the tray's frame (y towards the front) to SVG units (40 an inch, y down the drawing).
    assert models(page, 3) == [(0.0, -20.0), (-20.0, 16.0), (20.0, 16.0)]
    assert "rotate(-180)" in (page.get_by_test_id("ib-piece-3").get_attribute("transform") or "")


def test_an_area_light_is_a_polygon_in_inches_and_a_spot_alternates(page: Page) -> None:
    area = page.locator('[data-testid="ib-table"] polygon.light.area')
    assert area.count() == 1
    assert area.get_attribute("data-effect") == "deploy"
    # x: 40 + 40 * inches; y: 40 + 40 * (16 - inches) on a 16" deep table.
    assert area.get_attribute("points") == "440.0,280.0 600.0,280.0 600.0,200.0"
    spots = page.locator('[data-testid="ib-table"] circle.light.spot[data-effect="melee"]')
    assert spots.count() == 2  # green then red, taking turns
    assert "pat-alternate" in (spots.first.get_attribute("class") or "")
    assert spots.first.get_attribute("r") == "40"


def test_taps_report_a_tray_and_a_point_in_inches(page: Page) -> None:
    page.evaluate("() => { window.taps = []; }")
    page.get_by_test_id("ib-piece-1").click()
    xy = page.evaluate("() => window.inchBoard.clientPoint([12, 4])")
    page.mouse.click(xy[0], xy[1])
    taps = page.evaluate("() => window.taps")
    assert taps[0] == ["piece", 1]
    kind, (x, y) = taps[1]
    assert kind == "point" and abs(x - 12) < 0.05 and abs(y - 4) < 0.05


def test_the_region_map_lights_marks_and_reports_regions(page: Page) -> None:
    east = page.get_by_test_id("rb-region-east")
    assert east.get_attribute("data-light") == "under_fire lost"
    assert east.get_attribute("data-target") == ""
    assert page.get_by_test_id("rb-region-west").get_attribute("data-light") == ""
    assert page.locator('polygon.light.region[data-region="east"]').count() == 2
    # Two pieces in the west stand in a row round its centroid (50, 100): 30 apart.
    xs = page.evaluate(
        """() => [...document.querySelectorAll('.rb-piece circle')].map(c => Number(c.getAttribute('cx')))"""
    )
    assert xs == [35, 65]
    page.evaluate("() => { window.taps = []; }")
    east.click(position={"x": 20, "y": 20})
    page.get_by_test_id("rb-piece-8").click()
    assert page.evaluate("() => window.taps") == [["region", "east"], ["piece", 8]]
