"""Forged upon an Anvil at the table (games/anvil/table.py): lights from the observation and the events the
seat may see, options with the table options, selections with rings and reach, refusal lights, the combat
report and the side cards."""

from __future__ import annotations

import inspect
import json
from typing import Any

from tests.games.anvil.kit import place, table

from iwgt.core.protocol import Event, visible_events
from iwgt.games.anvil import actions as act
from iwgt.games.anvil import combat_events as ce
from iwgt.games.anvil import events as ev
from iwgt.games.anvil.game import AnvilGame
from iwgt.games.anvil.state import AnvilState
from iwgt.games.anvil.table import ANVIL_EFFECTS, COMBAT_MS, ILLEGAL_MS, REACTS_TO, AnvilAdapter

GAME = AnvilGame()
TABLE = AnvilAdapter()


def duel(**kw: Any) -> AnvilState:
    """A Troop of seat 0 at (18, 16) facing up, a Troop of seat 1 at (18, 20) facing down; seat 0 active."""
    return table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], **kw)


def to_activation(bids: tuple[int, int] = (5, 6)) -> AnvilState:
    """The skirmish played to its first activation: the suggested armies, no terrain, the first Seat spots,
    the given turn bids (seat 0 bids less: it goes first)."""
    state = GAME.initial_state(GAME.load_scenario("skirmish"))
    while state.phase != "activation":
        seat = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        wanted = {"terrain_bid": 0, "bid": bids[seat]}.get(state.phase)
        pick = next((a for a in legal if getattr(a, "amount", None) == wanted), legal[0])
        state, _ = GAME.apply(state, pick)
    return state


def lights_json(
    state: AnvilState, events: list[Event], seat: int | None, movable: tuple[int, ...] = ()
) -> list[Any]:
    obs = GAME.observe(state, seat)
    return [x.to_json() for x in TABLE.lights(obs, visible_events(events, seat), seat, movable=movable)]


def areas(lights: list[Any], effect: str) -> list[list[list[float]]]:
    return [x["area"] for x in lights if x["effect"] == effect and "area" in x]


def test_every_class_it_reacts_to_is_an_event_class_of_the_game() -> None:
    game_events = {
        obj
        for module in (ev, ce)
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, Event) and obj.__module__ == module.__name__
    }
    assert set(REACTS_TO) <= game_events
    assert len(set(REACTS_TO)) == len(REACTS_TO)


def test_trays_are_lit_as_their_four_corners() -> None:
    state = duel()
    lit = lights_json(state, [], 0, movable=(0,))
    # The active unit (selected) and the movable one: the tray centred (18, 16), 3" x 1.5", facing 0.
    corners = sorted(map(tuple, areas(lit, "selected")[0]))
    assert corners == [(16.5, 15.25), (16.5, 16.75), (19.5, 15.25), (19.5, 16.75)]
    assert areas(lit, "movable") == areas(lit, "selected")
    # Only the seat to act is given movable units; a spectator sees the active unit, not the movable ones.
    assert areas(lights_json(state, [], None), "movable") == []


def test_markers_light_their_units() -> None:
    units = [place(0, "troop", 18, 16), place(1, "troop", 18, 20, braced=True)]
    state = table(units)
    lit = lights_json(state, [], None)
    assert len(areas(lit, "braced")) == 1
    assert ANVIL_EFFECTS.order.index("braced") < ANVIL_EFFECTS.order.index("selected")


def test_a_combat_step_lights_melee_then_the_verdict_and_the_landing() -> None:
    state = duel(cp=(10, 0))
    after, events = GAME.apply(state, act.Engage(0, 1))
    lit = lights_json(after, events, None)
    melee = [x for x in lit if x["effect"] == "melee"]
    assert len(melee) == 4 and all(
        x["pattern"] == "alternate" and x["duration_ms"] == COMBAT_MS for x in melee
    )
    assert {x["colour"] for x in melee} == {
        ANVIL_EFFECTS.palette["melee"],
        ANVIL_EFFECTS.palette["melee_alt"],
    }
    lost = [x for x in lit if x["effect"] == "lost"]
    assert len(lost) == 1 and lost[0]["delay_ms"] == COMBAT_MS
    # The Spearmen bounce back to (18, 23): the landing lit as their tray there, after the combat.
    (bounce,) = [x for x in lit if x["effect"] == "bounce"]
    assert sorted(map(tuple, bounce["area"])) == [(16.5, 22.25), (16.5, 23.75), (19.5, 22.25), (19.5, 23.75)]
    assert bounce["delay_ms"] == COMBAT_MS
    json.dumps(lit, allow_nan=False)


def test_options_carry_the_table_options_and_leave_moves_to_the_selection() -> None:
    state = duel(cp=(10, 0))
    opts = TABLE.options(GAME, state, 0)
    assert opts["premeasure"] is True and opts["win"] == "general"
    types = {a["type"] for a in opts["actions"]}
    assert "move" not in types and "engage" in types and "end_activation" in types
    assert opts["movable"] == [0]
    blind = TABLE.options(GAME, duel(premeasure=False), 0)
    assert blind["premeasure"] is False


def test_options_list_one_deployment_per_unit_and_edge() -> None:
    g = GAME
    state = to_activation()
    seat = g.to_move(state)
    opts = TABLE.options(g, state, seat)
    deploys = [(a["unit"], a["edge"]) for a in opts["actions"] if a["type"] == "deploy"]
    assert deploys and len(deploys) == len(set(deploys))
    waiting = {u.id for u in state.units if u.seat == seat and u.waiting}
    assert {u for u, _ in deploys} <= waiting <= set(opts["movable"])


def test_the_selection_rings_and_reach_only_when_premeasuring() -> None:
    state = duel(cp=(10, 0))
    sel = TABLE.selection(GAME, state, 0, 0)
    rings = {r["kind"]: r for r in sel["rings"]}
    assert rings["move"]["radius"] == 6.0 and rings["move"]["at"] == [18.0, 16.0]  # a Troop's 6" Move
    assert len(sel["reach"]) >= 3 and sel["moves"]
    assert all(m["action"]["type"] == "move" for m in sel["moves"])
    blind = TABLE.selection(GAME, duel(cp=(10, 0), premeasure=False), 0, 0)
    assert blind["rings"] == [] and blind["reach"] == [] and blind["moves"] == []
    assert [t["kind"] for t in blind["targets"]] == ["engage"]
    assert TABLE.selection(GAME, state, 0, 99)["targets"] == []


def test_a_shooters_rings_are_its_three_bands() -> None:
    shooter = place(0, "troop", 18, 10, stratagems=("shooter",))
    state = table([shooter, place(1, "troop", 18, 30)], cp=(10, 0))
    rings = {r["kind"]: r["label"] for r in TABLE.selection(GAME, state, 0, 0)["rings"]}
    assert (rings["shoot_rear"], rings["shoot_flank"], rings["shoot_front"]) == (
        '6" rear',
        '12" flank',
        '18" front',
    )


def test_a_refused_point_or_target_is_lit_red() -> None:
    obs = GAME.observe(duel(), 0)
    lit = TABLE.refusal_lights(obs, {"type": "move", "unit": 0, "path": [[5, 5]], "facing": 0})
    assert [(x.effect, x.at, x.duration_ms) for x in lit] == [("illegal", (5.0, 5.0), ILLEGAL_MS)]
    lit = TABLE.refusal_lights(obs, {"type": "engage", "unit": 0, "target": 1})
    assert [x.effect for x in lit] == ["illegal"] and lit[0].area is not None


def test_the_report_is_the_combat_of_the_step_in_words() -> None:
    state = duel(cp=(10, 0))
    assert TABLE.report(GAME.observe(state, None), []) is None
    after, events = GAME.apply(state, act.Engage(0, 1))
    rep = TABLE.report(GAME.observe(after, None), events)
    assert rep is not None and rep["type"] == "report"
    (combat,) = rep["combats"]
    assert (combat["damage"], combat["defender_hp"], combat["destroyed"]) == (2, 2, False)
    assert rep["bounces"][0]["to"] == [18.0, 23.0]
    assert any('bounces back 3"' in line for line in rep["lines"])


def test_each_side_has_a_card_with_its_cp_left() -> None:
    state = duel(cp=(7, 3))
    cards = TABLE.cards(GAME.observe(state, 1), 1)
    assert [(c["seat"], c["mine"], c["cp"], c["on_table"], c["hp"]) for c in cards] == [
        (0, False, 7, 1, 4),
        (1, True, 3, 1, 4),
    ]


def test_a_waiting_unit_shows_where_it_may_come_on() -> None:
    state = to_activation()
    seat = GAME.to_move(state)
    uid = next(u.id for u in state.units if u.seat == seat and u.waiting and not u.stratagems)
    sel = TABLE.selection(GAME, state, seat, uid)
    # Its own edge, a tray (1.5") deep, the skirmish table's 36" across (FA-DP-01); seat 0's edge is y = 0.
    assert sel["zones"] == [{"edge": "own", "outline": [[0.0, 0.0], [36.0, 0.0], [36.0, 1.5], [0.0, 1.5]]}]
    assert [x["effect"] for x in sel["lights"]].count("deploy") == 1
    assert sel["deploy"] and all(d["action"]["type"] == "deploy" for d in sel["deploy"])


def test_what_the_table_gives_a_seat_is_the_same_whatever_it_may_not_know() -> None:
    # Seat 0 has sealed its terrain bid: for seat 1 (and a spectator) the states that differ only in that bid
    # (resample_hidden) give the same options, lights, cards, report and selections.
    import random

    state = GAME.initial_state(GAME.load_scenario("skirmish"))
    while state.phase != "terrain_bid":
        state, _ = GAME.apply(state, GAME.legal_actions(state, GAME.to_move(state))[0])
    state, events = GAME.apply(state, act.TerrainBid(5))
    assert GAME.to_move(state) == 1
    rng = random.Random(3)

    def seen(st: AnvilState, seat: int | None) -> str:
        obs = GAME.observe(st, seat)
        vis = visible_events(events, seat)
        parts: list[Any] = [
            [x.to_json() for x in TABLE.lights(obs, vis, seat)],
            TABLE.cards(obs, seat),
            TABLE.report(obs, vis),
        ]
        if seat is not None:
            parts += [TABLE.options(GAME, st, seat), TABLE.selection(GAME, st, seat, 0)]
        return json.dumps(parts, sort_keys=True)

    for seat in (1, None):
        want = seen(state, seat)
        redrawn = set()
        for _ in range(5):
            other = GAME.resample_hidden(state, seat, lambda n: rng.randrange(n))
            redrawn.add(other.terrain_bids[0])
            assert seen(other, seat) == want
        assert len(redrawn) > 1  # the bid really was redrawn
