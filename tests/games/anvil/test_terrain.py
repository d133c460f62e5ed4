"""The field of battle: placing the bid number of features (FA-FB-02..06), the extra CP (FA-FB-05) and the
Seats of Power (FA-FB-07)."""

from __future__ import annotations

import pytest
from tests.games.anvil.engine_kit import GAME, at_seats, at_terrain_bid, play

from iwgt.core.errors import IllegalAction
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.events import FeaturePlaced, FeatureSkipped, SeatPlaced
from iwgt.games.anvil.scenario import SCENARIO_DIR, parse_scenario


def wood(x: float, y: float, rotation: int = 0, **designations: bool) -> act.PlaceFeature:
    d = {"halves": True, "blocks": False, "impassable": False, **designations}
    return act.PlaceFeature("wood", (x, y), rotation, d["halves"], d["blocks"], d["impassable"])


def test_fa_fb_02_03_the_higher_bidder_places_first_then_they_alternate_then_the_rest() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(1), act.TerrainBid(3))
    order = []
    spots = [(6, 6), (18, 6), (30, 6), (6, 30)]
    for x, y in spots:
        order.append(GAME.to_move(state))
        state, _ = play(state, wood(x, y))
    assert order == [1, 0, 1, 1]
    assert state.phase == "seats" and state.placed == (1, 3)
    assert state.placer == 1  # the first placer places the first Seat of Power (FA-FB-07)


def test_fa_fb_04_a_feature_carries_its_designations_and_needs_at_least_one() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(1), act.TerrainBid(0))
    with pytest.raises(IllegalAction, match="FA-FB-04"):
        GAME.apply(state, wood(10, 10, halves=False))
    after, events = GAME.apply(state, wood(10, 10, halves=False, blocks=True, impassable=True))
    f = after.features[0].feature
    assert (f.halves, f.blocks, f.impassable) == (False, True, True)
    assert f.outline == ((7.0, 8.0), (13.0, 8.0), (13.0, 12.0), (7.0, 12.0))  # 6" x 4" around (10, 10)
    assert isinstance(events[0], FeaturePlaced) and events[0].outline == f.outline


def test_a_feature_turned_90_degrees_stands_the_other_way() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(1), act.TerrainBid(0))
    after, _ = GAME.apply(state, wood(10, 10, rotation=90))
    xs = [x for x, _ in after.features[0].feature.outline]
    ys = [y for _, y in after.features[0].feature.outline]
    assert (min(xs), max(xs), min(ys), max(ys)) == (8.0, 12.0, 7.0, 13.0)
    with pytest.raises(IllegalAction, match="0 or 90"):
        GAME.apply(state, wood(10, 10, rotation=45))


@pytest.mark.parametrize(("x", "legal"), [(17.0, False), (21.99, False), (22.0, True), (25.0, True)])
def test_fa_fb_06_features_at_least_6_inches_apart_by_their_nearest_edges(x: float, legal: bool) -> None:
    """The first wood spans x 7..13; a second at x spans x-3..x+3: the gap is x - 16."""
    state, _ = play(at_terrain_bid(), act.TerrainBid(2), act.TerrainBid(0))
    state, _ = play(state, wood(10, 10))
    if legal:
        after, _ = GAME.apply(state, wood(x, 10))
        assert len(after.features) == 2
    else:
        with pytest.raises(IllegalAction, match="FA-FB-06"):
            GAME.apply(state, wood(x, 10))


def test_a_feature_must_lie_wholly_on_the_table() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(1), act.TerrainBid(0))
    with pytest.raises(IllegalAction, match="wholly on the table"):
        GAME.apply(state, wood(2, 10))  # x -1..5
    with pytest.raises(IllegalAction, match="no terrain piece"):
        GAME.apply(state, act.PlaceFeature("volcano", (10, 10), 0, True, False, False))


def test_every_offered_placement_is_legal_and_skip_is_not_offered_while_one_is() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(3), act.TerrainBid(0))
    state, _ = play(state, wood(18, 18))
    offered = GAME.legal_actions(state, 0)
    assert offered and all(isinstance(a, act.PlaceFeature) for a in offered)
    for a in offered[:: max(1, len(offered) // 25)]:
        GAME.apply(state, a)
    with pytest.raises(IllegalAction, match="still has a legal place"):
        GAME.apply(state, act.SkipFeature())


def test_fa_fb_06_decided_a_feature_with_no_place_left_is_skipped_and_earns_nothing() -> None:
    text = (SCENARIO_DIR / "skirmish.toml").read_text(encoding="utf-8")
    text = text.replace(
        "outline = [[-3, -2], [3, -2], [3, 2], [-3, 2]]",
        "outline = [[-17, -17], [17, -17], [17, 17], [-17, 17]]",
    )
    state = GAME.initial_state(parse_scenario(text, "crowded.toml"))
    state, _ = play(
        state, state.scenario.armies[0], state.scenario.armies[1], act.TerrainBid(4), act.TerrainBid(0)
    )
    state, _ = play(state, wood(18, 18))
    assert GAME.legal_actions(state, 0) == [act.SkipFeature()]
    for _ in range(3):
        state, events = play(state, act.SkipFeature())
        assert any(isinstance(e, FeatureSkipped) for e in events)
    assert state.phase == "seats"
    assert state.placed == (1, 0) and state.extra_cp == (0, 0)  # placed 1, not 4 (FA-FB-05)


@pytest.mark.parametrize(("y", "legal"), [(0.75, True), (11.25, True), (11.3, False)])
def test_fa_fb_07_a_seat_of_power_lies_wholly_within_12_inches_of_its_own_edge(y: float, legal: bool) -> None:
    """A 3" x 1.5" tray facing 0: its far edge is at y + 0.75."""
    state = at_seats()
    if legal:
        after, events = GAME.apply(state, act.PlaceSeat((18, y)))
        assert SeatPlaced(0, 0, (18, y), 0.0) in events
        assert GAME.to_move(after) == 1
    else:
        with pytest.raises(IllegalAction, match="FA-FB-07"):
            GAME.apply(state, act.PlaceSeat((18, y)))


def test_fa_fb_07_seat_1_measures_from_the_top_edge_and_the_turn_begins() -> None:
    state, _ = play(at_seats(), act.PlaceSeat((18, 5)))
    with pytest.raises(IllegalAction, match="FA-FB-07"):
        GAME.apply(state, act.PlaceSeat((18, 24.7)))  # its far edge at 23.95: 12.05" from y = 36
    state, _ = play(state, act.PlaceSeat((18, 24.75)))
    assert state.phase == "bid" and state.turn == 1
    seat1 = state.seat_of_power(1)
    assert seat1 is not None and seat1.tray is not None and seat1.tray.facing == 180.0


def test_a_seat_of_power_may_not_stand_in_impassable_terrain() -> None:
    state, _ = play(at_terrain_bid(), act.TerrainBid(1), act.TerrainBid(0))
    state, _ = play(state, wood(18, 6, halves=False, impassable=True))  # y 4..8
    with pytest.raises(IllegalAction, match="impassable"):
        GAME.apply(state, act.PlaceSeat((18, 6)))
    offered = GAME.legal_actions(state, 0)
    assert offered and all(GAME.apply(state, a) for a in offered)
