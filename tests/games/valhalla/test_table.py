"""Valhalla at the table: spots of light on a free table, options, selections with rings, odds, the dice
report and the cards, checked by hand on first_blood positions (table/valhalla.py)."""

from __future__ import annotations

import ast
import inspect
from dataclasses import replace
from typing import Any

import pytest

from iwgt.core.lights import AMBER, BLUE, GREEN, RED, WHITE, YELLOW, Light
from iwgt.core.protocol import JSON, ChanceOutcome, Event
from iwgt.core.registry import get_game, get_plugin
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla import table as table_module
from iwgt.games.valhalla.state import Engagement, ValhallaState
from iwgt.games.valhalla.table import COMBAT_MS, HALO, ILLEGAL_MS, PALETTE, POINT_RADIUS, REACTS_TO

GAME: Any = get_game("valhalla")
ADAPTER = get_plugin("valhalla").table()
SPOT = 0.5 + HALO
"""The radius of a spot that lights a figure's 1" base."""
HERO, WARRIOR, ARCHER, ASA, THORVALD, SVEIN = range(6)


def dealt() -> ValhallaState:
    """first_blood after a deal of the top card each time: Ulf holds A♣ A♥ 2♣, Asa A♦ A♠ 2♦; A♣ is up."""
    state = GAME.initial_state(GAME.load_scenario("first_blood"))
    while GAME.to_move(state) == -1:
        state, _ = GAME.apply(state, ChanceOutcome(1))
    return state  # type: ignore[no-any-return]


def place(state: ValhallaState, fid: int, at: tuple[float, float], **changes: Any) -> ValhallaState:
    return state.with_figure(replace(state.figure(fid), at=at, **changes))


def obs(state: ValhallaState, seat: int | None = 0) -> JSON:
    return GAME.observe(state, seat)  # type: ignore[no-any-return]


def spots(lights: list[Light], effect: str) -> list[tuple[float, float] | None]:
    return [x.at for x in lights if x.effect == effect]


# -- the spot ------------------------------------------------------------------------------------------------


def test_a_spot_is_a_point_and_a_radius_in_inches() -> None:
    light = Light.spot((12.345, 3), 0.75, "movable", WHITE, "steady")
    assert light.to_json() == {
        "cell": None,
        "effect": "movable",
        "colour": WHITE,
        "pattern": "steady",
        "delay_ms": 0,
        "duration_ms": None,
        "at": [12.35, 3.0],
        "radius": 0.75,
    }
    with pytest.raises(ValueError, match="exactly one place"):
        Light((1, 1), "movable", WHITE, "steady", at=(1.0, 1.0), radius=1.0)
    with pytest.raises(ValueError, match="exactly one place"):
        Light(None, "movable", WHITE, "steady")
    with pytest.raises(ValueError, match="positive radius"):
        Light.spot((1, 1), 0, "movable", WHITE, "steady")
    assert PALETTE["aim"] and PALETTE["approach"] == AMBER and PALETTE["shocked"] == YELLOW


# -- lights --------------------------------------------------------------------------------------------------


def test_standing_spots_light_the_card_holder_s_figures_the_active_one_hurts_and_combats() -> None:
    state = dealt()
    assert state.current == (0, 0)  # A♣, Ulf's
    lit = ADAPTER.lights(obs(state), [], 0, movable=[HERO, WARRIOR, ARCHER])
    assert lit == [Light.spot(at, SPOT, "movable", WHITE, "steady") for at in ((10, 5), (14, 5), (12, 3))]

    state = place(state, ASA, (10, 6), shock=1)  # in contact with Ulf the Bold, shocked
    state = place(state, THORVALD, (20, 14), wounds=1)
    state = replace(state, engagements=(Engagement(ASA, HERO),), active=HERO, allowance=2, actions_used=1)
    lit = ADAPTER.lights(obs(state), [], 0)
    assert spots(lit, "selected") == [(10.0, 5.0)]
    assert spots(lit, "shocked") == [(10.0, 6.0)]
    assert spots(lit, "wounded") == [(20.0, 14.0)]
    melee = [(x.at, x.colour) for x in lit if x.effect == "melee"]
    assert melee == [
        ((10.0, 6.0), PALETTE["melee"]),
        ((10.0, 6.0), PALETTE["melee_alt"]),
        ((10.0, 5.0), PALETTE["melee"]),
        ((10.0, 5.0), PALETTE["melee_alt"]),
    ]
    assert all(x.pattern == "alternate" and x.duration_ms is None for x in lit if x.effect == "melee")
    # From the least to the most urgent: a table with one light per spot shows the last.
    ranks = [x.effect for x in lit]
    assert ranks.index("shocked") < ranks.index("selected") < ranks.index("melee")


def test_the_last_step_s_events_light_moves_combats_shots_and_deaths() -> None:
    state = place(dealt(), THORVALD, (10, 6), alive=False)
    events: list[Event] = [
        ev.FigureMoved(WARRIOR, ((14, 5), (16, 5)), 2.0),
        ev.Fought(HERO, THORVALD, 9, 1, 10, 1, 2, 0),
        ev.ShotFired(ARCHER, ASA, 6, 5, True, 5.0, False),
        ev.FigureKilled(THORVALD),
        ev.BaggageMoved(0, ((1, 1), (99, 99))),  # off the table: no light
    ]
    lit = ADAPTER.lights(obs(state), events, 1)
    assert Light.spot((16, 5), SPOT, "destination", GREEN, "steady") in lit
    assert Light.spot((10, 5), SPOT, "won", GREEN, "steady", COMBAT_MS) in lit
    assert Light.spot((10, 5), SPOT, "melee", PALETTE["melee"], "alternate", 0, COMBAT_MS) in lit
    assert spots(lit, "lost") == [(10.0, 6.0)]  # the one hit, where it fell
    assert Light.spot((10, 6), SPOT, "destroyed", RED, "flash", COMBAT_MS) in lit
    assert Light.spot((12, 3), SPOT, "firing", GREEN, "flash", 0, COMBAT_MS) in lit
    assert Light.spot((14, 10), SPOT, "under_fire", RED, "flash", 0, COMBAT_MS) in lit
    assert all(x.at is not None and x.at[0] <= 24 for x in lit)


def test_the_adapter_matches_real_event_classes_of_the_game_and_each_one_shows() -> None:
    # Every event class the adapter names is one it declares, and a class of the game's events: a renamed
    # event breaks the adapter's import and this test, never silently a light or a roll of the report.
    source = ast.parse(inspect.getsource(table_module))
    named = {
        n.attr for n in ast.walk(source) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
        and n.value.id == "ev"
    }  # fmt: skip
    assert named == {cls.__name__ for cls in REACTS_TO}
    for cls in REACTS_TO:
        assert issubclass(cls, Event) and getattr(ev, cls.__name__) is cls
    o = obs(dealt())
    lit_by: dict[type[Event], tuple[Event, str]] = {
        ev.FigureMoved: (ev.FigureMoved(WARRIOR, ((14.0, 5.0), (16.0, 5.0)), 2.0), "destination"),
        ev.Withdrew: (ev.Withdrew(HERO, (10.0, 3.0)), "destination"),
        ev.ObstacleCrossed: (ev.ObstacleCrossed(HERO, 0, (10.0, 8.0)), "destination"),
        ev.Charged: (ev.Charged(HERO, ASA, (10.0, 13.0)), "destination"),
        ev.BaggageMoved: (ev.BaggageMoved(0, ((1.0, 1.0), (2.0, 2.0))), "destination"),
        ev.Fought: (ev.Fought(HERO, ASA, 9, 1, 10, 1, 2, 0), "won"),
        ev.ShotFired: (ev.ShotFired(ARCHER, ASA, 6, 5, True, 5.0, False), "firing"),
        ev.FigureKilled: (ev.FigureKilled(ASA), "destroyed"),
    }
    for event, effect in lit_by.values():
        assert effect in {x.effect for x in ADAPTER.lights(o, [event], 0)}, event
        assert effect not in {x.effect for x in ADAPTER.lights(o, [], 0)}
    reported = {ev.Fought: "dice", ev.ShotFired: "dice", ev.SavingThrow: "dice", ev.CoinsWon: "coins"}
    told_by_a_save = {ev.FigureHurt, ev.ThingDropped}  # what a Dice of Death did: its ``then``
    assert set(lit_by) | set(reported) | told_by_a_save == set(REACTS_TO)
    samples = {**{k: e for k, (e, _) in lit_by.items()}, ev.SavingThrow: ev.SavingThrow(ASA, 4, "one_shock")}
    samples[ev.CoinsWon] = ev.CoinsWon(0, 1, "a shot", 1)
    for cls, key in reported.items():
        rep = ADAPTER.report(o, [samples[cls]])
        assert rep is not None and len(rep[key]) == 1, cls
    save = ev.SavingThrow(ASA, 1, "wounded")
    for then in (ev.FigureHurt(ASA, 0, 1), ev.ThingDropped(ASA, 0, (10.0, 13.0))):
        rep = ADAPTER.report(o, [save, then])
        alone = ADAPTER.report(o, [save])
        assert rep is not None and alone is not None
        assert rep["dice"][0]["then"] != alone["dice"][0]["then"], then


def test_a_refused_point_or_target_lights_red_for_two_seconds() -> None:
    o = obs(dealt())
    assert ADAPTER.refusal_lights(o, {"type": "move", "figure": HERO, "to": [23, 1]}) == [
        Light.spot((23, 1), 0.5, "illegal", RED, "steady", 0, ILLEGAL_MS)
    ]
    assert ADAPTER.refusal_lights(o, {"type": "charge", "figure": HERO, "target": ASA}) == [
        Light.spot((14, 10), SPOT, "illegal", RED, "steady", 0, ILLEGAL_MS)
    ]
    assert ADAPTER.refusal_lights(o, {"type": "move", "figure": HERO, "to": [40, 1]}) == []  # off the table
    assert ADAPTER.refusal_lights(o, {"type": "move", "figure": HERO, "to": "north"}) == []


# -- options, selection, preview -----------------------------------------------------------------------------


def test_options_list_the_card_holder_s_figures_and_every_action_but_the_moves() -> None:
    state = dealt()
    out = ADAPTER.options(GAME, state, 0)
    assert out["movable"] == [HERO, WARRIOR, ARCHER]
    assert {"type": "end_activation"} in out["actions"]
    assert {"type": "shoot", "figure": ARCHER, "target": THORVALD} in out["actions"]
    assert all(a["type"] != "move" for a in out["actions"])
    assert ADAPTER.options(GAME, state, 1) == {"movable": [], "actions": []}  # not Asa's card


def test_a_selection_gives_rings_moves_reach_and_targets_with_their_odds() -> None:
    state = dealt()
    sel = ADAPTER.selection(GAME, state, 0, ARCHER)
    rings = {(r["kind"], r.get("figure")): (r["at"], r["radius"]) for r in sel["rings"]}
    assert rings[("move", None)] == ([12.0, 3.0], 6.0)
    assert rings[("charge", None)] == ([12.0, 3.0], 2.5)  # 2" from the base's edge
    assert rings[("close", None)] == ([12.0, 3.0], 6.5)
    assert rings[("range", None)] == ([12.0, 3.0], 12.5)
    assert rings[("zone", ASA)] == ([14.0, 10.0], 2.5)
    assert len(rings) == 7  # three zones, one per enemy
    assert sel["moves"] and all(m["action"]["figure"] == ARCHER for m in sel["moves"])
    for m in sel["moves"][:5]:  # every offered point is one the rules accept
        GAME.apply(state, GAME.action_from_json(m["action"]))
    assert len(sel["reach"]) >= 8
    shots = {t["target"]: t for t in sel["targets"] if t["kind"] == "shoot"}
    assert set(shots) == {ASA, THORVALD, SVEIN}
    assert shots[THORVALD]["odds"]["hit"] == pytest.approx(1 / 3)  # 6.3" away: long range, 5+
    assert shots[THORVALD]["action"] == {"type": "shoot", "figure": ARCHER, "target": THORVALD}
    lights = [
        Light.spot(tuple(x["at"]), x["radius"], x["effect"], x["colour"], x["pattern"]) for x in sel["lights"]
    ]
    assert Light.spot((12, 3), SPOT, "selected", BLUE, "steady") in lights
    assert len([x for x in lights if x.effect == "aim"]) == 3
    assert all(x.radius == POINT_RADIUS for x in lights if x.effect == "destination")
    # Anything else: an enemy gets its rings only, a figure gone to Valhalla or not on the table nothing.
    theirs = ADAPTER.selection(GAME, state, 0, ASA)
    assert theirs["rings"] and theirs["moves"] == [] and theirs["targets"] == []
    assert ADAPTER.selection(GAME, state, 0, 99)["rings"] == []
    gone = ADAPTER.selection(GAME, place(state, ASA, (14, 10), alive=False), 0, ASA)
    assert gone["rings"] == []


def test_approach_points_stand_exactly_at_the_enemy_zone_so_a_charge_can_follow() -> None:
    state = dealt()
    sel = ADAPTER.selection(GAME, state, 0, HERO)  # Ulf at (10, 5); Thorvald at (10, 10), Asa at (14, 10)
    approach = {a["target"]: a for a in sel["approach"]}
    assert approach[THORVALD]["to"] == [10.0, 7.0]  # 3" from Thorvald's centre: 2" base edge to base edge
    after, _ = GAME.apply(state, GAME.action_from_json(approach[THORVALD]["action"]))
    charges = [a for a in GAME.legal_actions(after, 0) if type(a).__name__ == "Charge"]
    assert [a.target for a in charges] == [THORVALD]
    for a in sel["approach"]:  # each one leaves a charge possible
        moved, _ = GAME.apply(state, GAME.action_from_json(a["action"]))
        assert any(getattr(x, "target", None) == a["target"] for x in GAME.legal_actions(moved, 0))
    # Only while a second action is left: a hurt figure's move ends its activation.
    hurt = place(state, HERO, (10, 5), shock=1)
    assert ADAPTER.selection(GAME, hurt, 0, HERO)["approach"] == []


def test_a_preview_is_legality_and_exact_odds_and_changes_nothing() -> None:
    state = dealt()
    shot = ADAPTER.preview(GAME, state, 0, {"type": "shoot", "figure": ARCHER, "target": THORVALD})
    assert shot["legal"] is True and shot["reason"] is None
    assert shot["odds"]["kind"] == "shot" and shot["odds"]["needs"] == 5
    near = place(state, THORVALD, (10, 7))  # 1" from Ulf's base: within a charge
    charge = ADAPTER.preview(GAME, near, 0, {"type": "charge", "figure": HERO, "target": THORVALD})
    assert charge["legal"] is True and charge["odds"]["kind"] == "charge"
    assert sum(charge["odds"]["winner"].values()) == pytest.approx(1.0)
    move = ADAPTER.preview(GAME, state, 0, {"type": "move", "figure": HERO, "to": [11, 5]})
    assert move["legal"] is True and move["odds"] is None
    far = ADAPTER.preview(GAME, state, 0, {"type": "move", "figure": HERO, "to": [23, 1]})
    assert far["legal"] is False and '6" allowed' in far["reason"]
    assert (
        ADAPTER.preview(GAME, state, 1, {"type": "end_activation"})["reason"] == "it is not your turn to act"
    )
    assert "unknown action type" in ADAPTER.preview(GAME, state, 0, {"type": "fly"})["reason"]
    assert GAME.state_to_json(state) == GAME.state_to_json(dealt())


# -- report and cards ----------------------------------------------------------------------------------------


def test_the_report_gives_coins_hurts_and_the_dice_of_the_last_step() -> None:
    state = replace(place(dealt(), THORVALD, (10, 10), shock=2), coins=(2, 0))
    events: list[Event] = [
        ev.Fought(HERO, THORVALD, 7, 3, 8, 1, 2, 0),
        ev.SavingThrow(THORVALD, 3, "two_shock"),
        ev.SavingThrow(THORVALD, 1, "killed"),
        ev.CoinsWon(0, 2, "Thorvald went to Valhalla", 2),
    ]
    rep = ADAPTER.report(obs(state), events)
    assert rep is not None and rep["type"] == "report" and rep["turn"] == 1
    assert [(s["name"], s["coins"], s["target"]) for s in rep["sides"]] == [
        ("Raiders", 2, 3),
        ("Farmers", 0, 3),
    ]
    assert next(f for f in rep["figures"] if f["id"] == THORVALD)["shock"] == 2
    combat, save, death = rep["dice"]
    assert combat["attacker_die"] == 10 and combat["defender_die"] == 8
    assert combat["text"] == (
        "Combat: Ulf the Bold rolls 7 (scores 8), Thorvald rolls 3 (scores 1): 2 hits on Thorvald."
    )
    assert save["text"] == "Dice of Death for Thorvald: 3, two shock markers."
    assert save["words"] == "two shock markers"
    assert death["effect"] == "killed" and death["text"] == "Dice of Death for Thorvald: 1, goes to Valhalla."
    assert rep["coins"] == [
        {
            "side": 0,
            "coins": 2,
            "reason": "Thorvald went to Valhalla",
            "total": 2,
            "text": "Raiders win 2 coins: Thorvald went to Valhalla (2 in all).",
        }
    ]
    shot = ADAPTER.report(obs(state), [ev.ShotFired(ARCHER, ASA, 2, 5, False, 6.2, False)])
    assert shot is not None
    missed = 'Shot at Asa Farm-wife (6.2", needs 5+): Hrafn the archer rolls 2, a miss.'
    assert shot["dice"][0]["text"] == missed
    # Each roll's sentence is the game's one wording of it (the log and the command line say the same).
    words = get_plugin("valhalla").words()
    assert words is not None
    for roll, e in zip(rep["dice"], events, strict=False):
        assert roll["text"] == words.event(e, obs(state), 0)


def test_the_cards_show_each_hand_the_card_up_and_the_played_ones() -> None:
    state = dealt()
    state, _ = GAME.apply(state, GAME.action_from_json({"type": "end_activation"}))  # Ulf passes the A♣
    cards = ADAPTER.cards(obs(state, 1), 1)
    assert [(p["seat"], p["name"], p["mine"]) for p in cards] == [(0, "Ulf", False), (1, "Asa", True)]
    ulf = {c["label"]: c for c in cards[0]["cards"]}
    asa = {c["label"]: c for c in cards[1]["cards"]}
    assert set(ulf) == {"A♣", "A♥", "2♣"} and set(asa) == {"A♦", "A♠", "2♦"}
    assert ulf["A♣"]["played"] and not ulf["A♣"]["up"]
    assert asa["A♦"]["up"] and not asa["A♦"]["played"]
    assert [c for c in cards[0]["cards"] + cards[1]["cards"] if c["up"]] == [asa["A♦"]]


def test_a_figure_in_combat_may_fight_on_or_withdraw_and_its_selection_says_so() -> None:
    state = place(dealt(), ASA, (10, 6))  # Asa's base touches Ulf's
    state = replace(state, engagements=(Engagement(ASA, HERO),))
    sel = ADAPTER.selection(GAME, state, 0, HERO)
    assert sel["moves"] == [] and sel["approach"] == [] and sel["reach"] == []
    fight = [t for t in sel["targets"] if t["kind"] == "fight"]
    assert [t["target"] for t in fight] == [ASA]
    assert fight[0]["action"] == {"type": "fight", "figure": HERO, "opponent": ASA}
    assert fight[0]["odds"]["kind"] == "fight" and set(fight[0]["odds"]["attacker_hits"]) == {"0", "1", "2"}
    assert sel["withdrawals"]
    for w in sel["withdrawals"]:  # 2" back, out of contact: each one the rules accept
        after, events = GAME.apply(state, GAME.action_from_json(w["action"]))
        assert after.engagements == () and any(e.kind == "Withdrew" for e in events)
    options = ADAPTER.options(GAME, state, 0)
    assert {"type": "withdraw", "figure": HERO, "to": sel["withdrawals"][0]["to"]} in options["actions"]
