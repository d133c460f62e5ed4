"""The Coloured-Dice table (games/coloured_dice/table.py): trays lit as areas, the lights of an attack, its
wounds and a unit destroyed; a picked unit's move points, range bands (the tray grown by each multiple of the
weapon's range, CD-RA-02) and targets with their odds; previews asked of the engine; the dice report with the
faces as the dice show them; the side cards."""

from __future__ import annotations

import math

from shapely.geometry import Point
from tests.games.coloured_dice.kit import GAME, battle, unit

from iwgt.games.coloured_dice import combat_events as ce
from iwgt.games.coloured_dice import events as ev
from iwgt.games.coloured_dice.actions import action_from_json
from iwgt.games.coloured_dice.pending import ReactAsk
from iwgt.games.coloured_dice.table import ATTACK_MS, CdAdapter, range_bands
from iwgt.geometry.trays import Tray

TABLE = CdAdapter()


def archers_and_thralls() -> object:
    """The Sons of Kaleva's archers (10 in open order, 5 files: a 10" x 4" tray at (20, 6), front edge at
    y = 8) against the Thralls of Pohjola (12 in loose formation, 5 files: 5" x 3" at (20, 29), facing
    them, front edge at y = 27.5): 19.5" apart; spearmen and a troll beside them."""
    return battle(
        [
            unit(0, "archers", 20, 6),
            unit(1, "thralls", 20, 29),
            unit(0, "spearmen", 40, 6),
            unit(1, "troll", 40, 14),
        ]
    )


def test_range_bands_are_the_tray_grown_by_each_multiple_of_the_range_cd_ra_02() -> None:
    tray = Tray((20.0, 6.0), 0.0, 10.0, 4.0)
    bands = range_bands(
        tray, [{"name": "Bow", "missile": {"range": 12.0, "dice": ["white"]}}, {"name": "Axe"}], 4
    )
    assert [(b["band"], b["armour"], b["from"], b["to"]) for b in bands] == [
        (0, 0, 0.0, 12.0),
        (1, 1, 12.0, 24.0),
        (2, 2, 24.0, 36.0),
        (3, 3, 36.0, 48.0),
    ]
    assert bands[1]["label"] == '+1 (12-24")'
    poly = tray.polygon()
    for b in bands:  # every corner of a band's outline is its reach away from the tray (not from the centre)
        gaps = [poly.distance(Point(p)) for p in b["outline"]]
        assert max(abs(g - b["to"]) for g in gaps) < 0.02
    # Straight ahead of the front edge (y = 8) the first band ends at y = 20, not 12" from the centre.
    assert max(p[1] for p in bands[0]["outline"]) == 20.0


def test_a_picked_archer_unit_shows_its_moves_bands_and_targets_with_the_observation_s_odds() -> None:
    state = archers_and_thralls()
    sel = TABLE.selection(GAME, state, 0, 0)
    assert sel["moves"] and all(m["action"]["type"] == "move" for m in sel["moves"])
    assert [b["to"] for b in sel["bands"]] == [12.0, 24.0, 36.0, 48.0]  # the bow's 12", MAX_RANGE_BANDS = 4
    assert sel["rings"][0]["kind"] == "move" and sel["rings"][0]["radius"] == 4.0  # infantry 4" (CD-MS-01)
    shots = {t["target"]: t for t in sel["targets"] if t["kind"] == "shoot"}
    assert set(shots) == {2, 3}
    odds = shots[2]["odds"]
    # By hand: 19.5" with a 12" bow is band ceil(19.5 / 12) - 1 = 1; armour 1 + skill 1 + band 1 = 3.
    assert odds["distance"] == 19.5 and odds["armour"] == 3
    assert odds["parts"]["band"] == 1 and odds["parts"]["skill"] == 1
    effects = {light["effect"] for light in sel["lights"]}
    assert {"selected", "band", "aim", "destination"} <= effects


def test_options_light_the_seat_s_units_and_leave_the_moves_to_the_selection() -> None:
    state = archers_and_thralls()
    opts = TABLE.options(GAME, state, 0)
    assert opts["movable"] == [0, 1]  # the archers and the spearmen, seat 0's
    kinds = {a["type"] for a in opts["actions"]}
    assert "move" not in kinds and {"shoot", "end_turn"} <= kinds
    assert TABLE.options(GAME, state, 1)["movable"] == []  # not its turn


def test_a_preview_asks_the_engine_and_adds_the_odds() -> None:
    state = archers_and_thralls()
    shot = TABLE.preview(GAME, state, 0, {"type": "shoot", "unit": 0, "target": 2})
    assert shot["legal"] and shot["odds"]["armour"] == 3
    wrong = TABLE.preview(GAME, state, 0, {"type": "shoot", "unit": 0, "target": 1})  # its own spearmen
    assert not wrong["legal"] and wrong["reason"] and wrong["odds"] is None
    move = TABLE.preview(GAME, state, 0, {"type": "move", "unit": 0, "path": [[20, 8]], "facing": 0})
    assert move["legal"] and move["move"]["used"] == 2.0 and move["move"]["allowance"] == 4.0
    assert move["lines"] == ['The Human archers move to (20, 8), using 2" of 4".']


def test_a_shot_flashes_both_trays_then_the_losses_and_the_destroyed_light_after_it() -> None:
    state = archers_and_thralls()
    obs = GAME.observe(state, 0)
    events = [
        ce.PoolRolled("shot", 0, 2, ("white",) * 10, (1,) * 10, 10, 0, 3, 2, 0),
        ce.WoundsTaken(2, 2, 2, 10, 0),
        ce.UnitDestroyed(3, 1, "no models left", False),
    ]
    lights = TABLE.lights(obs, events, 0, movable=[0])
    by = {(x.effect, x.area) for x in lights}
    archers = tuple((round(x, 2), round(y, 2)) for x, y in Tray((20.0, 6.0), 0.0, 10.0, 4.0).corners())
    thralls = tuple((round(x, 2), round(y, 2)) for x, y in Tray((20.0, 29.0), 180.0, 5.0, 3.0).corners())
    assert ("movable", archers) in by and ("firing", archers) in by and ("under_fire", thralls) in by
    lost = [x for x in lights if x.effect == "lost"]
    assert [(x.area, x.delay_ms) for x in lost] == [(thralls, ATTACK_MS)]
    gone = [x for x in lights if x.effect == "destroyed"]
    assert len(gone) == 1 and gone[0].pattern == "flash" and gone[0].delay_ms == ATTACK_MS


def test_a_move_lights_the_tray_where_it_ended() -> None:
    obs = GAME.observe(archers_and_thralls(), 0)
    moved = ev.UnitMoved(0, ((20.0, 8.0),), (20.0, 8.0), 0.0, 4.0, 2.0, False, 0.0, False)
    [light] = [x for x in TABLE.lights(obs, [moved], 0) if x.effect == "destination"]
    assert light.area == tuple(
        (round(x, 2), round(y, 2)) for x, y in Tray((20.0, 8.0), 0.0, 10.0, 4.0).corners()
    )


def test_the_dice_report_gives_each_die_s_colour_and_face_as_the_die_shows_it_cd_di() -> None:
    obs = GAME.observe(archers_and_thralls(), 0)
    # White faces by index: 1, 1, 2, miss, miss, miss (CD-DI-04); black: 0, 0, 1, 1, 2, kill (CD-DI-07).
    rolled = ce.PoolRolled("fight", 1, 3, ("white", "white", "black"), (3, 6, 6), 2, 1, 2, 2, 0)
    report = TABLE.report(obs, [rolled])
    assert report is not None and report["type"] == "report"
    [roll] = report["rolls"]
    assert [(d["colour"], d["label"]) for d in roll["dice"]] == [
        ("white", "2"),
        ("white", "miss"),
        ("black", "kill"),
    ]
    assert (roll["points"], roll["kills"], roll["armour"], roll["wounds"], roll["attack"]) == (
        2,
        1,
        2,
        2,
        "fight",
    )
    assert report["lines"] == [
        "The Spearmen of Kaleva roll 2 white and 1 black dice: 2 points and 1 kill against armour 2: "
        "2 wounds."
    ]
    assert TABLE.report(obs, [ev.TurnEnded(0, 1)]) is None  # no dice, no report


def test_one_card_per_side() -> None:
    obs = GAME.observe(archers_and_thralls(), 1)
    cards = TABLE.cards(obs, 1)
    assert [c["seat"] for c in cards] == [0, 1] and [c["mine"] for c in cards] == [False, True]
    assert cards[0]["on_table"] == 2 and cards[0]["models"] == 10 + 12  # archers and spearmen
    assert cards[1]["models"] == 12 + 1 and cards[1]["general_morale"] == 0
    assert math.isclose(float(cards[0]["vp"]), 0.0)


def test_a_pool_being_rolled_lights_both_units_and_a_question_pulses_on_its_unit() -> None:
    obs = GAME.observe(archers_and_thralls(), 0)
    rolling = {**obs, "awaiting": {"kind": "roll", "seat": None, "attack": "shot", "unit": 0, "target": 2}}
    effects = {(x.effect, x.pattern) for x in TABLE.lights(rolling, [], 0)}
    assert {("firing", "flash"), ("under_fire", "flash")} <= effects and ("question", "pulse") not in effects
    asked = {**obs, "awaiting": {"kind": "bear_wound", "seat": 1, "unit": 3, "colour": "red", "wounds": 2}}
    [light] = [x for x in TABLE.lights(asked, [], 1) if x.effect == "question"]
    assert light.pattern == "pulse"
    fight = {
        **obs,
        "awaiting": {"kind": "hero", "seat": 0, "unit": 1, "attack": "fight", "source": 1, "target": 3},
    }
    melee = [x for x in TABLE.lights(fight, [], 0) if x.effect == "melee"]
    assert len(melee) == 4  # two alternating lights on each of the two trays


def test_a_charge_target_shows_where_the_charger_ends_and_the_reaction_dice_cd_ms_16() -> None:
    """Riders (6 in loose formation, 5 files: a 5" x 4" tray at (20, 6), front edge y = 8) charge the Thralls
    (5" x 3" at (20, 16) facing them, front edge y = 14.5): 6.5" apart, the riders end flush at y = 14.5, so
    centred at (20, 12.5); up to 8" the thralls react with 1 yellow die (distance / 8 rounded up, CD-RE-02
    decision), as the rules ask it (the reaction question after the charge is declared); thralls: slowness
    3."""
    state = battle([unit(0, "riders", 20, 6), unit(1, "thralls", 20, 16), unit(1, "troll", 40, 30)])
    sel = TABLE.selection(GAME, state, 0, 0)
    [charge] = [t for t in sel["targets"] if t["kind"] == "charge"]
    contact = charge["contact"]
    assert (contact["centre"], contact["facing"], contact["gap"]) == ([20.0, 12.5], 0.0, 6.5)
    assert contact["distance"] == 6.5 and contact["allowance"] == 8.0
    assert (contact["reaction_dice"], contact["reaction_colour"]) == (1, "yellow")
    asked, _ = GAME.apply(state, action_from_json(charge["action"]))
    assert isinstance(asked.top, ReactAsk) and asked.top.dice == contact["reaction_dice"]
    lit = [x for x in sel["lights"] if x["effect"] == "charge"]
    # Two: the target's tray and where the charger ends (its front corners on the thralls' front edge).
    assert len(lit) == 2 and any([17.5, 14.5] in x["area"] and [17.5, 10.5] in x["area"] for x in lit)
    preview = TABLE.preview(GAME, state, 0, charge["action"])
    assert preview["legal"] and preview["contact"] == contact
    assert preview["lines"] == [
        "The Thralls of Pohjola may react to the charge of the Riders of Kaleva: 1 yellow die, a total over "
        "slowness 3 reacts."
    ]  # the charge is told once the reaction is answered


def test_the_report_gives_each_morale_test_s_dice_and_verdict_cd_mo_02() -> None:
    obs = GAME.observe(archers_and_thralls(), 0)
    tested = ce.MoraleTested(2, (4, 5), 10, 1, 0, False, "shot")  # 9 + 1 = 10, not under 10: failed
    report = TABLE.report(obs, [tested])
    assert report is not None and report["rolls"] == []
    [m] = report["morale"]
    assert (m["unit"], m["dice"], m["target"], m["passed"]) == (2, [4, 5], 10, False)
    assert m["text"] == (
        "The Thralls of Pohjola test morale (casualties from shooting): 9 (+1 for the round's losses) = 10, "
        "not under 10: failed."
    )
