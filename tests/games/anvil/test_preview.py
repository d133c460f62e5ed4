"""The exact outcome before Confirm (games/anvil/table.py: preview and the selection's targets): damage,
destroyed or not, excess movement, where each bounce back lands and the chain it starts, as the engine's own
functions give them on a copy of the state; every interruption the enemy could answer with listed, with the
outcome if it does. Every expectation below is worked out by hand from the printed matrix and the decisions.

Positions (tests/games/anvil/kit.py): trays 3" x 1.5"; seat 0 faces 0 (up the table), seat 1 faces 180. A
tray centred at (18, 20) facing 180 has its front edge on y = 19.25; an attacker coming straight up from
(18, 16) enters that front and ends aligned with its own front on it: centre (18, 18.5), 2.5" moved.
"""

from __future__ import annotations

from typing import Any

from tests.games.anvil.kit import place, table

from iwgt.core.digest import canonical_json
from iwgt.games.anvil.game import AnvilGame
from iwgt.games.anvil.state import AnvilState
from iwgt.games.anvil.table import AnvilAdapter

GAME = AnvilGame()
TABLE = AnvilAdapter()


def preview(state: AnvilState, action: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = TABLE.preview(GAME, state, state.mover if seat is None else seat, action)
    return out


def engage(a: int = 0, b: int = 1) -> dict[str, Any]:
    return {"type": "engage", "unit": a, "target": b}


def test_a_front_engage_says_damage_hp_left_and_where_the_defender_bounces() -> None:
    # FA-CRM-TROOP-TROOP "2 Front 3 Flanks 4 Rear Defender BB": 2 HP off 4, the defender bounces back 3"
    # straight away from the attacker's centre (18, 18.5): from (18, 20) to (18, 23) (FA-BB-01).
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 0))
    before = canonical_json(GAME.state_to_json(state))
    got = preview(state, engage())
    assert got["legal"] and got["reason"] is None
    o = got["outcome"]
    assert (o["damage"], o["side"], o["hp_left"], o["destroyed"]) == (2, "front", 2, False)
    assert o["attacker_destroyed"] is False and o["excess_move"] == 0
    assert o["bounce_back"] == "defender"
    assert o["contact"] == {"centre": [18.0, 18.5], "facing": 0.0, "cost": 2.5}
    assert [(b["unit"], b["from"], b["to"], b["moved"]) for b in o["bounces"]] == [
        (1, [18.0, 20.0], [18.0, 23.0], 3.0)
    ]
    assert o["interruptions"] == [] and o["if_interrupted"] is None  # the defender's side has no CP
    assert "FA-CRM-TROOP-TROOP" in o["clauses"]
    assert any("2 HP of damage" in line for line in o["lines"])
    # A trial on a value: the state previewed is the state it was.
    assert canonical_json(GAME.state_to_json(state)) == before


def test_the_enemys_counterattack_is_listed_with_its_own_outcome() -> None:
    # Seat 1 has 3 CP: Counterattack (3 CP, FA-SI-01) is offered. Declined: as above. Played: the defender
    # deals its own column's front value against the attacker's row (troop v troop front: 2), both survive
    # with 2 HP and both bounce back 3" away from each other (FA-SI-02..04): the attacker from (18, 18.5) to
    # (18, 15.5), the defender from (18, 20) to (18, 23).
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 3))
    o = preview(state, engage())["outcome"]
    assert (o["damage"], o["hp_left"], o["counter_damage"]) == (2, 2, None)
    assert o["interruptions"] == [{"seat": 1, "key": "counterattack", "unit": 1}]
    alt = o["if_interrupted"]
    assert alt["key"] == "counterattack" and alt["unit"] == 1
    assert (alt["damage"], alt["counter_damage"], alt["hp_left"]) == (2, 2, 2)
    assert alt["bounce_back"] == "both" and not alt["destroyed"] and not alt["attacker_destroyed"]
    landings = {b["unit"]: b["to"] for b in alt["bounces"]}
    assert landings == {0: [18.0, 15.5], 1: [18.0, 23.0]}


def test_a_rear_engage_that_destroys_gives_the_excess_as_inches() -> None:
    # The defender faces up the table (0): the engage line from below enters its rear.
    # FA-CRM-HERO-TROOP rear 5 against 4 HP: destroyed (FA-CRM-02), 1 HP of excess = 1" (FA-CRM-03), and a
    # destroyed unit does not bounce back.
    state = table([place(0, "hero", 18, 16), place(1, "troop", 18, 20, facing=0.0)], cp=(10, 0))
    o = preview(state, engage())["outcome"]
    assert (o["damage"], o["side"], o["destroyed"], o["hp_left"]) == (5, "rear", True, 0)
    assert o["excess_move"] == 1.0
    assert o["bounce_back"] is None and o["bounces"] == []
    assert o["units_destroyed"] == [1]


def test_a_bounce_back_into_an_enemy_starts_the_chain_combat_shown_before_confirm() -> None:
    # The Spearmen (2 HP left) bounce back towards a second unit of seat 0 whose tray starts at y = 22.75:
    # they stop in contact after 2" at (18, 22) (FA-BB-02), and that unit attacks them. Its centre (18, 23.5)
    # lies behind them (they face 180): their rear. Troop v troop rear: 4 HP, destroyed.
    units = [place(0, "troop", 18, 16), place(1, "troop", 18, 20), place(0, "troop", 18, 23.5, facing=180.0)]
    o = preview(table(units, cp=(10, 0)), engage())["outcome"]
    first, chain = o["combats"]
    assert (first["attacker"], first["defender"], first["damage"], first["destroyed"]) == (0, 1, 2, False)
    assert (chain["attacker"], chain["defender"], chain["side"], chain["depth"]) == (2, 1, "rear", 1)
    assert (chain["damage"], chain["destroyed"]) == (4, True)
    assert [(b["unit"], b["to"], b["moved"], b["stopped_by"]) for b in o["bounces"]] == [
        (1, [18.0, 22.0], 2.0, "enemy")
    ]
    assert o["destroyed"] is True and o["units_destroyed"] == [1]


def test_nate_stops_the_attacker_one_inch_away_with_no_combat() -> None:
    # FA-CRM-TROOP-WARMACHINE front NATE (FA-EN-03): the Troop stops with its front 1" from the War Machine's
    # front edge (y = 19.25): its own front on y = 18.25, its centre at (18, 17.5).
    state = table([place(0, "troop", 18, 16), place(1, "war_machine", 18, 20)], cp=(10, 0))
    got = preview(state, engage())
    o = got["outcome"]
    assert got["legal"] and o["damage"] is None and o["combats"] == []
    assert o["stopped"]["at"] == [18.0, 17.5] and o["stopped"]["clause"] == "FA-EN-03"


def test_a_shot_reads_the_band_of_the_range() -> None:
    # Shooter Troop (4 - 2 = 2 HP) 8.5" from its target (10.75 to 19.25): within 12", the flank value
    # (FA-SS-03): troop v troop flank 3, 1 HP left, no bounce back (FA-SS-06).
    shooter = place(0, "troop", 18, 10, stratagems=("shooter",))
    state = table([shooter, place(1, "troop", 18, 20)], cp=(10, 0))
    o = preview(state, {"type": "shoot", "unit": 0, "target": 1})["outcome"]
    assert (o["damage"], o["side"], o["hp_left"], o["destroyed"]) == (3, "flank", 1, False)
    assert o["bounce_back"] is None and o["combats"][0]["ballistics"] is True


def test_without_premeasuring_the_outcome_is_the_matrixs_alone() -> None:
    # FA-GN-09 decided: no distance, landing or chain; the engage line's side is a direction, not a distance.
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 0), premeasure=False)
    o = preview(state, engage())["outcome"]
    assert o["measured"] is False
    assert (o["damage"], o["side"], o["bounce_back"], o["hp_left"], o["destroyed"]) == (
        2,
        "front",
        "defender",
        2,
        False,
    )
    assert o["excess_move"] is None and "bounces" not in o and "contact" not in o
    shooter = place(0, "troop", 18, 10, stratagems=("shooter",))
    state = table([shooter, place(1, "troop", 18, 20)], cp=(10, 0), premeasure=False)
    bands = preview(state, {"type": "shoot", "unit": 0, "target": 1})["outcome"]["bands"]
    # troop v troop: front 2, flank 3, rear 4 (a shot is read at the band of its range, FA-SS-02..04)
    assert {side: b["damage"] for side, b in bands.items()} == {"front": 2, "flank": 3, "rear": 4}


def test_a_refused_order_says_why_and_another_seats_preview_is_refused() -> None:
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 0))
    got = preview(state, engage(), seat=1)
    assert got["legal"] is False and got["reason"] == "it is not your turn to act"
    got = preview(state, {"type": "engage", "unit": 0, "target": 0})
    assert got["legal"] is False and got["reason"]
    got = preview(state, {"type": "fly"})
    assert got["legal"] is False and "fly" in got["reason"]


def test_a_move_preview_gives_its_cost_only_when_premeasuring() -> None:
    move = {"type": "move", "unit": 0, "path": [[18.0, 12.0]], "facing": 0.0}
    state = table([place(0, "troop", 18, 8), place(1, "troop", 18, 30)], cp=(10, 0))
    got = preview(state, move)
    assert got["legal"] and got["cost"] == 4.0 and got["allowance_left"] == 2.0  # 6" Move, 4" straight
    blind = table([place(0, "troop", 18, 8), place(1, "troop", 18, 30)], cp=(10, 0), premeasure=False)
    got = preview(blind, move)
    assert got["legal"] and "cost" not in got


def test_the_selection_lists_each_target_with_the_same_outcome_as_its_preview() -> None:
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 0))
    sel = TABLE.selection(GAME, state, 0, 0)
    engages = [t for t in sel["targets"] if t["kind"] == "engage"]
    assert [t["target"] for t in engages] == [1]
    assert engages[0]["outcome"] == preview(state, engages[0]["action"])["outcome"]
    assert engages[0]["at"] == [18.0, 20.0]


def test_the_preview_lights_where_the_trays_will_stand() -> None:
    # For a physical table: the attacker's contact position (18, 18.5) and the defender's landing (18, 23),
    # each a 3" x 1.5" tray.
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 0))
    lights = preview(state, engage())["lights"]
    by = {x["effect"]: sorted(map(tuple, x["area"])) for x in lights}
    assert by["preview"] == [(16.5, 17.75), (16.5, 19.25), (19.5, 17.75), (19.5, 19.25)]
    assert by["bounce"] == [(16.5, 22.25), (16.5, 23.75), (19.5, 22.25), (19.5, 23.75)]
    # A destroyed defender flashes where it stands.
    state = table([place(0, "hero", 18, 16), place(1, "troop", 18, 20, facing=0.0)], cp=(10, 0))
    effects = [x["effect"] for x in preview(state, engage())["lights"]]
    assert effects == ["preview", "destroyed"]


def test_each_interruption_the_enemy_could_play_has_its_own_outcome() -> None:
    # A Monster strikes a General's Hero in the rear: FA-CRM-MONSTER-HERO rear 5 against 4 HP, destroyed, 1"
    # of excess. Seat 1 (7 CP) may first Counterattack (3 CP: the Hero's front against the Monster's row,
    # FA-CRM-HERO-MONSTER front 2; the Hero still falls and the Monster still converts its excess), then play
    # Hero of the Day (4 CP, FA-SI-10/12): 1 HP left, a bounce back 3" away to (18, 23), no excess.
    hero = place(1, "hero", 18, 20, facing=0.0, general=True)
    state = table([place(0, "monster", 18, 16), hero], cp=(10, 7))
    o = preview(state, engage())["outcome"]
    assert (o["damage"], o["side"], o["destroyed"], o["excess_move"]) == (5, "rear", True, 1.0)
    assert [i["key"] for i in o["interruptions"]] == ["counterattack", "hero_of_the_day"]
    counter, saved = o["alternatives"]
    assert o["if_interrupted"] == counter
    assert (counter["key"], counter["counter_damage"], counter["destroyed"], counter["excess_move"]) == (
        "counterattack",
        2,
        True,
        1.0,
    )
    assert (saved["key"], saved["destroyed"], saved["hp_left"], saved["excess_move"]) == (
        "hero_of_the_day",
        False,
        1,
        0.0,
    )
    assert [(b["unit"], b["to"]) for b in saved["bounces"]] == [(1, [18.0, 23.0])]


def test_an_interruption_prompt_previews_both_answers() -> None:
    # The Spearmen's player, asked whether to Counterattack (FA-ST-05), sees either answer's outcome:
    # declined, 2 HP off its 4 and a bounce back; played, 2 HP back on the attacker and both bounce back
    # (FA-SI-02..04).
    state = table([place(0, "troop", 18, 16), place(1, "troop", 18, 20)], cp=(10, 3))
    asked, _ = GAME.apply(state, GAME.action_from_json(engage()))
    assert asked.pending is not None and GAME.to_move(asked) == 1
    declined = preview(asked, {"type": "decline"}, seat=1)["outcome"]
    assert (declined["damage"], declined["counter_damage"], declined["bounce_back"]) == (2, None, "defender")
    played = preview(asked, {"type": "interrupt", "key": "counterattack", "unit": 1}, seat=1)["outcome"]
    assert (played["damage"], played["counter_damage"], played["bounce_back"]) == (2, 2, "both")
