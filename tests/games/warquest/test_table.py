"""WarQuest at the table (games/warquest/table.py): region lights, options, a picked leader's destinations
with its battles marked, the odds of the chosen move into battle in its preview (WQ-MV-10, issue 15
section 5), previews that never turn a hidden card, the dice report, and the cards; above all, hidden
information (issue 15 section 4, WQ-SU-08/09): a quest's region lights only for its holder, and no card shows
another seat's hand."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle_events as be
from iwgt.games.warquest import events as ev
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.plugin import plugin
from iwgt.games.warquest.state import Troop, WqState
from iwgt.games.warquest.table import REVEALING, WqAdapter

GAME: Any = plugin.game
ADAPTER = WqAdapter()


@cache
def turn_state(scenario: str = "three_warlords", seed: int = 4) -> WqState:
    """The first state of the first warlord's first turn, by a seeded random placement."""
    match = Match(GAME, GAME.load_scenario(scenario), SeededDice(seed), seed)
    match.resolve_chance()
    rng = random.Random(seed)
    while match.state.phase != "turn" or GAME.to_move(match.state) is None:
        seat = GAME.to_move(match.state)
        match.act(seat, rng.choice(list(GAME.legal_actions(match.state, seat))))
    state: WqState = match.state
    return state


def lit(lights: list[Any], effect: str) -> set[str]:
    """The regions lit with an effect."""
    return {x.region for x in lights if x.effect == effect}


# ------------------------------------------------------------------------------------ hidden information


def test_a_quest_region_lights_only_for_its_holder_wq_su_08() -> None:
    state = turn_state()
    seen: dict[int | None, set[str]] = {}
    for seat in [*range(state.n), None]:
        obs = GAME.observe(state, seat)
        seen[seat] = lit(ADAPTER.lights(obs, [], seat), "quest")
    for seat in range(state.n):
        own = {GAME.observe(state, seat)["hand"]["quests"][i]["region"] for i in range(2)}
        assert seen[seat] == own, seat
    assert seen[None] == set()  # a spectator sees no hand


def test_no_card_shows_another_seat_s_hand() -> None:
    state = turn_state()
    quest_names = {
        s: [q["name"] for q in GAME.observe(state, s)["hand"]["quests"]]
        + [c["name"] for c in GAME.observe(state, s)["hand"]["conquests"]]
        for s in range(state.n)
    }
    for seat in [*range(state.n), None]:
        cards = ADAPTER.cards(GAME.observe(state, seat), seat)
        assert [c["seat"] for c in cards] == list(range(state.n))
        for card in cards:
            assert card["quests_held"] == 2 and card["conquests_held"] == 2  # WQ-SU-08/09: counts are public
            assert ("hand" in card) == (card["seat"] == seat)
        text = json.dumps(cards)
        for other, names in quest_names.items():
            if other != seat:
                assert not any(f'"{name}"' in text for name in names), (seat, other)


def test_a_preview_stops_before_a_hidden_card_turns() -> None:
    """Ending the last turn of a round turns the event card (WQ-TU-06): the preview legalises it, but its
    lines never say which card (nor anything after it)."""
    match = Match(GAME, GAME.load_scenario("short"), SeededDice(6), 6)
    match.resolve_chance()
    rng = random.Random(6)
    for _ in range(400):
        state = match.state
        seat = GAME.to_move(state)
        assert seat is not None
        if state.phase == "turn" and state.battle is None and not state.pending:
            _, events = GAME.apply(state, act.EndTurn())
            if any(isinstance(e, ev.EventTurned) for e in events):
                preview = ADAPTER.preview(GAME, state, seat, {"type": "end_turn"})
                assert preview["legal"] is True
                assert not any("event of round" in line for line in preview["lines"])
                assert "EventTurned" in REVEALING
                return
        match.act(seat, rng.choice(list(GAME.legal_actions(state, seat))))
    pytest.fail("no round ended in 400 actions")


# ------------------------------------------------------------------------------------ options, selection


def test_options_light_the_leaders_that_may_move_and_list_every_other_action() -> None:
    state = turn_state()
    seat = GAME.to_move(state)
    opts = ADAPTER.options(GAME, state, seat)
    legal = list(GAME.legal_actions(state, seat))
    assert opts["movable"] == sorted({a.leader for a in legal if isinstance(a, act.Move)})
    assert all(a["type"] != "move" for a in opts["actions"])
    assert len(opts["actions"]) == sum(1 for a in legal if not isinstance(a, act.Move))
    # The movable leaders' regions light (WQ-MV-01).
    obs = GAME.observe(state, seat)
    where = {ld.id: ld.region for ld in state.leaders}
    assert lit(ADAPTER.lights(obs, [], seat, movable=opts["movable"]), "movable") == {
        where[i] for i in opts["movable"]
    }


def test_a_leader_s_destinations_are_its_legal_moves_wq_mv_02() -> None:
    state = turn_state()
    seat = GAME.to_move(state)
    leader = next(ld for ld in state.leaders if ld.seat == seat and ld.rank == "warlord")
    sel = ADAPTER.selection(GAME, state, seat, leader.id)
    ends = {
        a.path[-1]
        for a in GAME.legal_actions(state, seat)
        if isinstance(a, act.Move) and a.leader == leader.id
    }
    assert {d["region"] for d in sel["destinations"]} == ends
    for d in sel["destinations"]:
        assert 1 <= len(d["path"]) <= 3 and d["path"][-1] == d["region"]
        assert GAME.action_from_json(d["action"]).leader == leader.id
    assert sel["region"] == leader.region
    # Another seat's leader gives nothing.
    other = next(ld for ld in state.leaders if ld.seat != seat)
    assert ADAPTER.selection(GAME, state, seat, other.id)["destinations"] == []


def duel_at_the_border(mine_count: int = 1) -> tuple[WqState, int, int, str]:
    """The first warlord with ``mine_count`` Goblin Infantry (ids 900, 902, 903...), and one enemy Goblin
    Infantry (id 901) with its Warlord in an adjacent region across an open border: a battle one move away."""
    state = turn_state()
    seat = GAME.to_move(state)
    foe = (seat + 1) % state.n
    mine = next(ld for ld in state.leaders if ld.seat == seat and ld.rank == "warlord")
    geo = load_map(state.scenario.map).geometry
    there = next(
        r
        for r in geo.neighbours(mine.region)
        if geo.border(mine.region, r).kind in ("open", "bridge")
        and not (state.seats_in(r) - {foe})
        and all(ld.region != r for ld in state.leaders if ld.seat == seat)
    )
    leaders = tuple(
        replace(ld, region=there) if ld.seat == foe else ld
        for ld in state.leaders
        if ld.seat in (seat, foe) and (ld.rank == "warlord" or ld.seat == seat)
    ) + tuple(ld for ld in state.leaders if ld.seat not in (seat, foe))
    troops = (
        Troop(900, "goblin_foot", seat, mine.region),
        Troop(901, "goblin_foot", foe, there),
        *(Troop(901 + i, "goblin_foot", seat, mine.region) for i in range(1, mine_count)),
    )
    others = tuple(t for t in state.troops if t.seat not in (seat, foe))
    state = replace(state, leaders=leaders, troops=troops + others, owners=())
    return state, seat, mine.id, there


def test_a_selection_marks_its_battles_without_computing_odds_wq_mv_10(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The selection must stay cheap (it runs on the server's loop): a fighting destination says
    ``battle: true`` and whom it fights, and no odds are computed (the screen previews the chosen move)."""
    from iwgt.games.warquest import odds

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the selection computed odds")

    monkeypatch.setattr(odds, "battle_odds", refuse)
    monkeypatch.setattr(odds, "rank_previews", refuse)
    state, seat, leader, there = duel_at_the_border()
    sel = WqAdapter().selection(GAME, state, seat, leader)
    fight = next(d for d in sel["destinations"] if d["region"] == there)
    assert fight["battle"] is True and fight["foe"] == (seat + 1) % state.n
    assert fight["troops"] == [900]
    assert "odds" not in fight and "fight" not in fight
    assert {x["region"] for x in sel["lights"] if x["effect"] == "charge"} >= {there}
    calm = [d for d in sel["destinations"] if d["region"] != there]
    assert calm and all(d["battle"] is False and d["foe"] is None for d in calm)


def test_the_preview_of_a_move_into_battle_gives_the_exact_odds_of_the_chosen_army_wq_mv_10() -> None:
    from iwgt.games.warquest import odds

    state, seat, leader, there = duel_at_the_border()
    sel = ADAPTER.selection(GAME, state, seat, leader)
    fight = next(d for d in sel["destinations"] if d["region"] == there)
    preview = ADAPTER.preview(GAME, state, seat, fight["action"])
    assert preview["legal"] is True
    o = preview["odds"]
    assert o is not None
    # The battle is the one the engine starts; its odds are odds.battle_odds' in the table setting.
    after, _ = GAME.apply(state, GAME.action_from_json(fight["action"]))
    direct = odds.battle_odds(after.battle, budget=odds.TABLE_BUDGET, tolerance=odds.TABLE_TOLERANCE)
    assert o["attacker_wins"] == pytest.approx(direct.p_attacker_wins, abs=1e-6)
    assert o["defender_wins"] == pytest.approx(direct.p_defender_wins, abs=1e-6)
    assert o["rounds_mean"] == pytest.approx(direct.rounds_mean, abs=1e-3)
    assert o["attacker_wins"] + o["defender_wins"] + o["error"] == pytest.approx(1.0, abs=1e-5)
    assert o["exact"] is (o["error"] == 0)
    # One Goblin Infantry a side: each front rank rolls 1 die (WQ-CB-11): a hit 1/6, a flee 1/6 (WQ-CB-01).
    front = o["round"]["attacker"]["front"]
    assert front["dice"] == 1
    assert front["hits"]["1"] == pytest.approx(1 / 6, abs=1e-6)
    assert front["flees"]["1"] == pytest.approx(1 / 6, abs=1e-6)
    # A move that fights nobody has no odds.
    calm = next(d for d in sel["destinations"] if not d["battle"])
    assert ADAPTER.preview(GAME, state, seat, calm["action"])["odds"] is None


def test_troops_left_behind_change_the_preview_s_odds_wq_mv_10() -> None:
    """Three Goblin Infantry against one win more often than one against one: the preview follows the troops
    the player ticks, each time the odds of the battle the engine would start with them."""
    from iwgt.games.warquest import odds

    state, seat, leader, there = duel_at_the_border(mine_count=3)
    sel = ADAPTER.selection(GAME, state, seat, leader)
    fight = next(d for d in sel["destinations"] if d["region"] == there)
    assert sorted(fight["troops"]) == [900, 902, 903]
    chances = {}
    for troops in ([900, 902, 903], [900]):
        action = {**fight["action"], "troops": troops}
        o = WqAdapter().preview(GAME, state, seat, action)["odds"]
        after, _ = GAME.apply(state, GAME.action_from_json(action))
        direct = odds.battle_odds(after.battle, budget=odds.TABLE_BUDGET, tolerance=odds.TABLE_TOLERANCE)
        assert o["attacker_wins"] == pytest.approx(direct.p_attacker_wins, abs=1e-6)
        assert o["round"]["attacker"]["front"]["dice"] == len(troops)
        chances[len(troops)] = o["attacker_wins"]
    assert chances[3] > chances[1] + 0.2


def test_a_refused_action_s_region_lights_red_and_the_preview_says_why() -> None:
    state = turn_state()
    seat = GAME.to_move(state)
    leader = next(ld for ld in state.leaders if ld.seat == seat)
    far = next(r for r in load_map(state.scenario.map).regions if r not in (leader.region,))
    bad = {"type": "move", "leader": leader.id, "troops": [], "path": [far, far, far, far]}
    preview = ADAPTER.preview(GAME, state, seat, bad)
    assert preview["legal"] is False and preview["reason"]
    red = ADAPTER.refusal_lights(GAME.observe(state, seat), bad)
    assert [(x.region, x.effect) for x in red] == [(far, "illegal")]


# ------------------------------------------------------------------------------------------ lights and report


def test_events_light_their_regions() -> None:
    obs = GAME.observe(turn_state(), 0)
    events = [
        ev.ArmyMoved(0, 0, (), "a", ("b", "c")),
        ev.Taxed(0, "d", 4),
        ev.Conquered(0, "e", None),
        be.BattleBegan("f", 0, 1, (0,), (1,)),
    ]
    lights = ADAPTER.lights(obs, events, 0)
    assert lit(lights, "destination") == {"c"}
    assert lit(lights, "tax") == {"d"} and lit(lights, "won") == {"e"} and lit(lights, "charge") == {"f"}


def test_the_report_shows_the_combat_dice_as_they_fell_wq_cb_01() -> None:
    obs = GAME.observe(turn_state(), None)
    assert ADAPTER.report(obs, [ev.Taxed(0, "d", 4)]) is None
    rolled = be.AttackRolled(1, "defender", "rear", "front", 3, (1, 2, 5), 1, 1)
    report = ADAPTER.report(obs, [rolled])
    assert report is not None and report["type"] == "report"
    (roll,) = report["rolls"]
    assert roll["labels"] == ["hit", "flee", "blank"] and (roll["hits"], roll["flees"]) == (1, 1)
    assert report["lines"] == [roll["text"]]


def test_a_battle_decided_before_a_die_is_rolled_shows_certain_odds_wq_ms_41() -> None:
    """A Warlord standing without troops loses at once (WQ-MS-41 designed): the odds say so, exactly."""
    state, seat, leader, there = duel_at_the_border()
    state = replace(state, troops=tuple(t for t in state.troops if t.id != 901))
    sel = ADAPTER.selection(GAME, state, seat, leader)
    fight = next(d for d in sel["destinations"] if d["region"] == there)
    assert fight["battle"] is True
    assert ADAPTER.preview(GAME, state, seat, fight["action"])["odds"] == {
        "attacker_wins": 1.0,
        "defender_wins": 0.0,
        "error": 0.0,
        "exact": True,
        "rounds_mean": 0.0,
        "round": None,
    }


def test_another_seat_s_preview_of_the_mover_s_move_is_refused() -> None:
    """A preview is tried for the seat that asks (core.table_kit.trial): a warlord whose turn it is not cannot
    preview the mover's move, its legality or its battle odds."""
    state, seat, leader, there = duel_at_the_border()
    sel = ADAPTER.selection(GAME, state, seat, leader)
    fight = next(d for d in sel["destinations"] if d["region"] == there)
    other = 1 - seat
    preview = ADAPTER.preview(GAME, state, other, fight["action"])
    assert preview["legal"] is False and preview["odds"] is None
    assert preview["reason"] == "it is not your turn to act"
    assert ADAPTER.preview(GAME, state, seat, fight["action"])["legal"] is True
