"""Valhalla on the table server: seats from the scenario, the socket protocol with its refusals and odds,
bots, physical dice, no movement timer, and a game that resumes after a restart from its journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from iwgt.core.record import GameRecord

from .kit import JSON, Screen, create, pair, screen, seat_token, serving, steps, table_token

pytestmark = pytest.mark.timeout(90)

FAR = [23.5, 15.5]
"""A point of first_blood's 24" x 16" table that no figure can reach in one move."""


def vh(c: Any, **body: Any) -> JSON:
    """A Valhalla table: first_blood, two remote humans, table dice, seed 7, unless told otherwise."""
    req: JSON = {"game": "valhalla", "scenario": "first_blood", "timer_seconds": 0}
    req.update(body)
    return create(c, **req)


def mover(s0: Screen, s1: Screen) -> tuple[int, Screen, Screen]:
    """The seat whose card is up, its screen and the other screen (each screen's latest view)."""
    seat = s0.last_view()["to_move"]
    assert seat in (0, 1), s0.last_view()["to_move"]
    return seat, (s0, s1)[seat], (s0, s1)[1 - seat]


def shooter_and_target(seat: int) -> tuple[int, int]:
    """In first_blood: the seat's archer or slinger, and the enemy warrior it can shoot at from the start."""
    return (2, 4) if seat == 0 else (5, 1)


# -- the game selection and the create request ---------------------------------------------------------------


def test_the_valhalla_card_lists_its_scenarios_with_their_seats(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        cards = {card["name"]: card for card in c.get("/api/games").json()}
        data = c.get("/api/games/valhalla/data").json()
    card = cards["valhalla"]
    assert card["playable"] is True and card["movement_timer"] is False
    scenarios = {s["name"]: s for s in card["scenarios"]}
    first = scenarios["first_blood"]
    assert first["turns"] == 4 and first["title"] == "First blood" and "24" in first["description"]
    assert first["seat_names"] == ["Ulf (Raiders)", "Asa (Farmers)"]
    if "raid" in scenarios:  # two players a side
        assert len(scenarios["raid"]["seat_names"]) == 4
    assert data["figures"]["hero"]["die"] == 10 and data["figures"]["warrior"]["die"] == 8
    assert data["figures"]["archer"]["letter"] == "A" and data["figures"]["slinger"]["shoots"] is True
    assert data["measures"]["move"] == 6.0 and data["measures"]["range"] == 12.0


def test_a_valhalla_table_has_the_seats_of_its_scenario(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "valhalla", "scenario": "first_blood"})
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["table"]["seats"] == ["human", "human"]  # by default every seat is a person's
        assert made["table"]["seat_names"] == ["Ulf (Raiders)", "Asa (Farmers)"]
        assert made["table"]["timer_seconds"] == 120.0  # asked for (the default), but never runs: below
        bad = c.post("/api/tables", json={"game": "valhalla", "scenario": "first_blood", "seats": ["human"]})
        assert bad.status_code == 400 and "2 entries" in bad.json()["message"]
        listed = {t["id"]: t for t in c.get("/api/tables").json()}
        assert listed[made["id"]]["seat_names"] == ["Ulf (Raiders)", "Asa (Farmers)"]
        with screen(c, made["id"], table_token(made)) as s:
            welcome = s.seen[0]
            assert welcome["names"] == ["Ulf (Raiders)", "Asa (Farmers)"] and welcome["seats"] == [0, 1]
            v = s.last_view()
            assert v["timer"] is None  # Valhalla declares no movement timer (facts.movement_timer)
            assert v["observation"]["game"] == "valhalla" and v["observation"]["phase"] == "activate"


def test_a_four_player_scenario_has_four_seats(tmp_path: Path) -> None:
    """Two players a side: the seats come from the scenario (a record's own scenario text here)."""
    text = _four_player_scenario()
    record = GameRecord(
        game="valhalla",
        rules_version=_rules_version(),
        scenario_name="four",
        scenario_toml=text,
        seed=5,
        dice="seeded",
        steps=[],
    ).to_json()
    with serving(tmp_path) as c:
        r = c.post("/api/tables/import", json={**record, "seats": ["human", "bot", "human", "bot"]})
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["table"]["seat_names"] == ["A (North)", "B (North)", "C (South)", "D (South)"]
        assert [link is not None for link in made["links"]["seats"]] == [True, False, True, False]
        two = c.post("/api/tables/import", json={**record, "seats": ["human", "bot"]})
        assert two.status_code == 400 and "4 entries" in two.json()["message"]
        with screen(c, made["id"], table_token(made)) as s:
            assert s.seen[0]["seats"] == [0, 2]
            # The bots play seats 1 and 3 when their cards come up; the shared screen plays 0 and 2.
            v = s.wait_for(lambda m: m["type"] == "view" and m["to_move"] in (0, 2), timeout=30)
            seat = v["to_move"]
            assert v["seat"] == seat and v["options"]["movable"]
            after = s.acted({"type": "end_activation"}, "pass-1", seat)
            assert after["version"] > v["version"]
            assert {r.seat for r in steps(c, made["id"]) if r.origin == "bot"} <= {1, 3}


# -- the socket: views, selections, refusals and previews ------------------------------------------------


def test_a_refused_move_answers_its_reason_and_a_red_spot_and_changes_nothing(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, mode="remote", seed=7)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            seat, me, other = mover(s0, s1)
            v = me.last_view()
            fid = v["options"]["movable"][0]
            assert all(
                f["seat"] == seat for f in v["observation"]["figures"] if f["id"] in v["options"]["movable"]
            )
            assert {"type": "end_activation"} in v["options"]["actions"]
            assert all(a["type"] != "move" for a in v["options"]["actions"])  # moves come with a selection
            assert [x for x in v["lights"] if x["effect"] == "movable"]
            assert all(x["cell"] is None and len(x["at"]) == 2 and x["radius"] > 0 for x in v["lights"])
            assert other.last_view()["options"] == {"movable": [], "actions": []}
            n = len(steps(c, tid))

            err = me.act({"type": "move", "figure": fid, "to": FAR}, "far", seat)
            assert err["type"] == "error" and err["error"] == "illegal"
            assert '6" allowed' in err["message"]
            assert err["lights"] == [
                {
                    "cell": None,
                    "effect": "illegal",
                    "colour": "#ef4444",
                    "pattern": "steady",
                    "delay_ms": 0,
                    "duration_ms": 2000,
                    "at": FAR,
                    "radius": 0.5,
                }
            ]
            wrong = other.act({"type": "end_activation"}, "not-mine", 1 - seat)
            assert wrong["type"] == "error" and wrong["error"] == "not_your_turn"
            assert "Raiders" in wrong["message"] or "Farmers" in wrong["message"]
            assert len(steps(c, tid)) == n

            me.send({"type": "select", "seat": seat, "unit": fid, "id": "sel"})
            sel = me.until(lambda m: m["type"] == "selection")
            assert sel["unit"] == fid and sel["id"] == "sel"
            rings = {r["kind"]: r for r in sel["rings"] if r["kind"] != "zone"}
            assert rings["move"]["radius"] == 6.0 and rings["charge"]["radius"] == 2.5
            assert len([r for r in sel["rings"] if r["kind"] == "zone"]) == 3
            assert len(sel["reach"]) >= 8 and sel["moves"]
            to = sel["moves"][0]["to"]
            assert sel["moves"][0]["action"] == {"type": "move", "figure": fid, "to": to}

            after = me.acted(sel["moves"][0]["action"], "go", seat)
            moved = next(f for f in after["observation"]["figures"] if f["id"] == fid)
            assert moved["at"] == to and moved["activated"]
            assert after["observation"]["active"] == fid and after["observation"]["actions_left"] == 1
            assert [e["event"] for e in after["events"]][:2] == ["FigureActivated", "FigureMoved"]
            assert any(x["effect"] == "destination" and x["at"] == to for x in after["lights"])
            assert any(x["effect"] == "selected" and x["at"] == to for x in after["lights"])
            seen = other.view_from(after["version"])
            assert seen["observation"]["figures"] == after["observation"]["figures"]
            assert seen["log"][-1]["action"] == sel["moves"][0]["action"]


def test_a_shot_is_previewed_with_its_exact_odds_and_resolved_by_the_table_dice(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, mode="remote", seed=3)
        with pair(c, made) as (s0, s1):
            seat, me, _ = mover(s0, s1)
            shooter, target = shooter_and_target(seat)
            action = {"type": "shoot", "figure": shooter, "target": target}
            me.send({"type": "preview", "seat": seat, "action": action, "id": "odds"})
            p = me.until(lambda m: m["type"] == "preview")
            assert p["legal"] is True and p["reason"] is None
            assert (
                p["odds"]["kind"] == "shot" and p["odds"]["needs"] == 5 and p["odds"]["range_band"] == "long"
            )
            assert p["odds"]["hit"] == pytest.approx(1 / 3)
            fates = sum(p["odds"][k] for k in ("killed", "wounded", "shocked", "unharmed"))
            assert fates == pytest.approx(1.0)
            me.send({"type": "preview", "seat": seat, "action": {**action, "target": shooter}})
            no = me.until(lambda m: m["type"] == "preview")
            assert no["legal"] is False and "not a living enemy" in no["reason"]
            after = me.acted(action, "shoot", seat)
            fired = next(e for e in after["events"] if e["event"] == "ShotFired")
            assert fired["needs"] == 5 and fired["target"] == target
            rolls = after["report"]["dice"]
            assert rolls[0]["kind"] == "shot" and rolls[0]["face"] == fired["face"]
            assert ("a hit" if fired["hit"] else "a miss") in rolls[0]["text"]
            if fired["hit"]:
                assert rolls[1]["kind"] == "save"
            assert any(x["effect"] == "firing" for x in after["lights"])


# -- bots, physical dice, restarts ---------------------------------------------------------------------------


def test_two_bots_play_first_blood_to_the_end(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, seats=["bot", "bot"], seed=11)
        with screen(c, made["id"], table_token(made)) as watcher:
            end = watcher.wait_for(lambda m: m["type"] == "view" and m["status"] == "over", timeout=60)
            assert end["result"]["reason"] and end["observation"]["result"] is not None
            assert end["observation"]["phase"] == "over"
        rows = steps(c, made["id"])
        assert {r.origin for r in rows} <= {"bot", "auto"} and any(r.origin == "bot" for r in rows)
        assert c.get(f"/api/tables/{made['id']}").json()["status"] == "over"


def test_a_bot_seat_takes_its_cards_against_a_person(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, seats=["human", "bot"], mode="remote", seed=7)
        with screen(c, made["id"], seat_token(made, 0)) as s:
            for i in range(12):
                v = s.wait_for(
                    lambda m: m["type"] == "view" and (m["to_move"] == 0 or m["status"] != "playing")
                )
                if any(r.origin == "bot" for r in steps(c, made["id"])) or v["status"] != "playing":
                    break
                s.acted({"type": "end_activation"}, f"pass-{i}", 0)
            bot = [r for r in steps(c, made["id"]) if r.origin == "bot"]
            assert bot and all(r.seat == 1 for r in bot)
            assert all(r.client_id is not None and r.client_id.startswith("bot:") for r in bot)


def test_physical_dice_are_asked_for_and_entered_by_the_players(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, dice="physical", mode="remote")
        tid = made["id"]
        assert all(r.origin == "auto" for r in steps(c, tid))  # the deal: the table shuffles its own deck
        with pair(c, made) as (s0, s1):
            seat, me, other = mover(s0, s1)
            assert me.last_view()["die"] is None
            shooter, target = shooter_and_target(seat)
            waiting = me.acted({"type": "shoot", "figure": shooter, "target": target}, "shoot", seat)
            assert waiting["to_move"] is None
            assert waiting["die"]["sides"] == 6 and "shot at" in waiting["die"]["purpose"]
            other.send({"type": "die", "id": "seven", "face": 7})
            bad = other.until(lambda m: m["type"] == "error" and m.get("id") == "seven")
            assert bad["error"] == "malformed" and "1 to 6" in bad["message"]
            other.send({"type": "die", "id": "six", "face": 6})  # the other player reads the die: a hit
            hit = other.until(lambda m: m["type"] == "view" and m["version"] > waiting["version"])
            assert any(e["event"] == "ShotFired" and e["hit"] for e in hit["events"])
            assert hit["die"]["sides"] == 6 and "Dice of Death" in hit["die"]["purpose"]
            me.send({"type": "die", "id": "four", "face": 4})  # one shock marker
            hurt = me.until(lambda m: m["type"] == "view" and m["version"] > hit["version"])
            assert any(e["event"] == "SavingThrow" and e["effect"] == "one_shock" for e in hurt["events"])
            assert next(f for f in hurt["observation"]["figures"] if f["id"] == target)["shock"] == 1
            said = hurt["report"]["dice"][0]["text"]
            assert said.endswith(": 4, one shock marker.")
            # The dice panel and the log say it in the same words: the game's, worded once.
            assert said in hurt["log"][-1]["text"] and hurt["log"][-1]["actor"] == -1
            assert any(x["effect"] == "shocked" for x in hurt["lights"])
            assert hurt["die"] is None and hurt["to_move"] == seat
        assert [r.origin for r in steps(c, tid)][-3:] == ["player", "die", "die"]


def test_a_valhalla_game_resumes_after_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, mode="remote", seed=5)
        with pair(c, made) as (s0, s1):
            seat, me, _ = mover(s0, s1)
            shooter, target = shooter_and_target(seat)
            me.acted({"type": "shoot", "figure": shooter, "target": target}, "shoot", seat)
            v = me.acted({"type": "end_activation"}, "end", seat)
            before = (v["version"], v["observation"])
    # The journal is replayed: every step re-applied, every digest checked.
    with serving(tmp_path) as c, pair(c, made) as (s0, s1):
        again = (s0, s1)[seat].last_view()
        assert (again["version"], again["observation"]) == before
        now, me, _ = mover(s0, s1)
        after = me.acted({"type": "end_activation"}, "pass", now)
        assert after["version"] > again["version"]


def test_a_finished_valhalla_record_exports_and_imports(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = vh(c, seats=["bot", "bot"], seed=2)
        with screen(c, made["id"], table_token(made)) as watcher:
            watcher.wait_for(lambda m: m["type"] == "view" and m["status"] == "over", timeout=60)
        record = c.get(f"/api/tables/{made['id']}/record").json()
        assert record["game"] == "valhalla" and record["steps"]
        back = c.post("/api/tables/import", json=record)
        assert back.status_code == 201, back.text
        assert back.json()["table"]["status"] == "over"
        assert back.json()["table"]["steps"] == len(record["steps"])


# -- helpers -------------------------------------------------------------------------------------------------


def _rules_version() -> str:
    from iwgt.core.registry import get_game

    return get_game("valhalla").rules_version


def _four_player_scenario() -> str:
    players = []
    for i, (name, side, y) in enumerate((("A", 0, 3), ("B", 0, 3), ("C", 1, 21), ("D", 1, 21))):
        x = 6 + 18 * (i % 2)
        players.append(
            f"""
[[players]]
name = "{name}"
side = {side}
hero = [{x}, {y}]
warrior = [{x + 3}, {y}]
archer = [{x - 3}, {y}]
"""
        )
    return (
        'name = "four"\ntitle = "Four"\nwidth = 36\nheight = 24\nturn_limit = 2\n'
        '[[sides]]\nname = "North"\n[[sides]]\nname = "South"\n' + "".join(players)
    )


def test_the_baggage_moves_at_the_end_of_a_turn_of_the_raid(tmp_path: Path) -> None:
    """Four players at one shared touchscreen pass every card; then each side's baggage may move 6"."""
    with serving(tmp_path) as c:
        made = vh(c, scenario="raid", mode="shared", seed=4, seats=["human"] * 4)
        assert made["table"]["seats"] == ["human"] * 4 and len(made["table"]["seat_names"]) == 4
        with screen(c, made["id"], table_token(made)) as s:
            assert s.seen[0]["seats"] == [0, 1, 2, 3]
            v = s.last_view()
            shown = set()
            for i in range(12):  # three cards a player
                assert v["observation"]["phase"] == "activate" and v["seat"] == v["to_move"]
                shown.add(v["seat"])
                v = s.acted({"type": "end_activation"}, f"pass-{i}", v["to_move"])
            assert shown == {0, 1, 2, 3}  # the shared screen showed each player's seat in turn
            obs = v["observation"]
            assert obs["phase"] == "baggage" and obs["turn"] == 1
            mule = obs["baggage_up"]
            assert next(t for t in obs["things"] if t["id"] == mule)["baggage_side"] == 0
            seat = v["to_move"]
            assert seat in obs["sides"][0]["seats"]
            moves = [a for a in v["options"]["actions"] if a["type"] == "move_baggage"]
            assert moves and all(a["baggage"] == mule for a in moves) and v["options"]["movable"] == []
            assert {"type": "end_activation"} in v["options"]["actions"]
            lit = [x for x in v["lights"] if x["effect"] == "movable"]
            assert [x["at"] for x in lit] == [next(t["at"] for t in obs["things"] if t["id"] == mule)]
            err = s.act({"type": "move_baggage", "baggage": mule, "to": [10, 1.5]}, "too-far", seat)
            assert err["type"] == "error" and "allowed" in err["message"]
            after = s.acted(moves[0], "drive", seat)
            moved = next(e for e in after["events"] if e["event"] == "BaggageMoved")
            assert moved["path"][-1] == moves[0]["to"]
            cart = after["observation"]["baggage_up"]
            assert cart != mule and after["to_move"] in obs["sides"][1]["seats"]
            left = s.acted({"type": "end_activation"}, "leave", after["to_move"])
            assert left["observation"]["turn"] == 2 and left["observation"]["phase"] == "activate"
