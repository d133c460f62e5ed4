"""The lobby's HTTP API (docs/protocol.md, "HTTP API"): game cards, tables, records, the lobby's guards."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from tests.games.valkyrx.kit import scenario_text

from iwgt.core.digest import digest
from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import get_game

from .kit import JSON, create, screen, seat_token, serving, steps, table_token, to_movement

GAME = get_game("valkyrx")

pytestmark = pytest.mark.timeout(60)


def short_record(turn_limit: int = 1) -> JSON:
    """A record with no steps of a tiny scenario that ends after ``turn_limit`` turns (for finished games)."""
    toml = scenario_text(
        [("guardsmen", (2, 1))], [("wearg_warriors", (9, 7))], extra=f"turn_limit = {turn_limit}"
    )
    rec = GameRecord("valkyrx", GAME.rules_version, "short", toml, seed=3, dice="seeded")
    return rec.to_json()


def played_table(c: Any) -> tuple[JSON, JSON]:
    """A skirmish table past deployment with one unit moved; returns the create answer and seat 0's view."""
    made = create(c)
    with (
        screen(c, made["id"], seat_token(made, 0)) as s0,
        screen(c, made["id"], seat_token(made, 1)) as s1,
    ):
        mover = to_movement(s0, s1)["to_move"]
        s = (s0, s1)[mover]
        v = s.last_view()
        assert v["to_move"] == mover and v["observation"]["phase"] == "movement"
        s.send({"type": "select", "seat": mover, "unit": v["options"]["movable"][0]})
        sel = s.until(lambda m: m["type"] == "selection")
        s.acted(sel["moves"][0]["action"], "move-1", mover)
        done = s.acted({"type": "end_phase"}, "end-1", mover)
        last = s0.wait_for(lambda m: m["type"] == "view" and m["version"] == done["version"])
    return made, last


# -- the game selection cards --------------------------------------------------------------------------------


def test_games_lists_five_cards_and_valkyrx_and_valhalla_are_playable(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.get("/api/games")
    assert r.status_code == 200
    cards = r.json()
    names = [card["name"] for card in cards]
    # the registered games in name order (more may be registered, e.g. the example game), then those to come
    assert names[-1:] == ["warquest"]
    registered = names[:-1]
    assert {"anvil", "coloured-dice", "valkyrx", "valhalla"} <= set(registered)
    assert registered == sorted(registered)
    by_name = {card["name"]: card for card in cards}
    valkyrx = by_name.pop("valkyrx")
    assert valkyrx["playable"] is True
    assert valkyrx["title"] == "Days of the Valkyrx"
    assert valkyrx["movement_timer"] is True
    names = {s["name"] for s in valkyrx["scenarios"]}
    assert {"skirmish", "sorcery"} <= names
    assert all(s["title"] and isinstance(s["turns"], int) for s in valkyrx["scenarios"])
    assert all(s["seat_names"] == ["Forces of the Light", "Forces of Darkness"] for s in valkyrx["scenarios"])
    valhalla = by_name.pop("valhalla")
    assert valhalla["playable"] is True and valhalla["movement_timer"] is False
    assert {"first_blood", "skirmish"} <= {s["name"] for s in valhalla["scenarios"]}
    for card in by_name.values():
        if card["playable"]:
            continue  # another registered game (the example game of tests/conftest.py)
        assert card["playable"] is False
        assert card["scenarios"] == []
        assert card["title"] and card["blurb"]


# -- create, list, one, delete -------------------------------------------------------------------------------


def test_create_answers_201_with_an_id_and_links_and_journals_the_table(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, seats=["human", "bot"], timer_seconds=90, seed=11)
        assert made["id"].startswith("t-")
        links = made["links"]
        assert links["table"].endswith(f"/play/{made['id']}#token={table_token(made)}")
        assert links["seats"][0] is not None and links["seats"][1] is None  # no invitation for the bot's seat
        assert seat_token(made, 0) != table_token(made)
        summary = c.get(f"/api/tables/{made['id']}").json()
        assert summary["seats"] == ["human", "bot"]
        assert summary["timer_seconds"] == 90
        assert summary["status"] == "playing"
        assert summary["links"] == links
        row = c.app.state.manager.journal.table(made["id"])  # type: ignore[attr-defined]
        assert row is not None and row.seed == 11 and row.scenario_name == "skirmish"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", "chess"),
        ("game", 3),
        ("scenario", "atlantis"),
        ("seats", ["human"]),
        ("seats", ["human", "robot"]),
        ("seats", "human"),
        ("mode", "telepathic"),
        ("dice", "loaded"),
        ("timer_seconds", -1),
        ("timer_seconds", 3601),
        ("timer_seconds", "soon"),
        ("timer_seconds", True),
        ("seed", -5),
        ("seed", "seven"),
        ("seed", 1.5),
        ("colour", "red"),  # an unknown field is named too
    ],
)
def test_create_refuses_each_bad_field_with_400_naming_it(tmp_path: Path, field: str, value: Any) -> None:
    body: JSON = {"game": "valkyrx", "scenario": "skirmish", "seats": ["human", "human"], field: value}
    with serving(tmp_path) as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        err = r.json()
        assert err["error"] == "malformed"
        assert field in err["message"], err
        assert c.get("/api/tables").json() == []  # nothing was journalled


def test_create_refuses_a_body_that_is_not_a_json_object(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        for raw in (b"{nope", b"[1, 2]"):
            r = c.post("/api/tables", content=raw, headers={"content-type": "application/json"})
            assert r.status_code == 400
            assert r.json()["error"] == "malformed" and r.json()["message"]
        assert c.get("/api/tables").json() == []


def test_list_is_newest_first_and_one_gives_a_summary_or_404(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        first = create(c, scenario="skirmish")
        second = create(c, scenario="sorcery", seats=["human", "bot"])
        listed = c.get("/api/tables").json()
        assert [t["id"] for t in listed] == [second["id"], first["id"]]
        for t in listed:
            keys = {"id", "game", "scenario", "created", "status", "turn", "seats", "mode", "steps", "links"}
            assert keys <= set(t)
        assert listed[0]["scenario"] == "sorcery" and listed[0]["seats"] == ["human", "bot"]
        assert listed[1]["links"] == first["links"]
        one = c.get(f"/api/tables/{first['id']}").json()
        assert one["id"] == first["id"] and one["steps"] == 0 and one["game"] == "valkyrx"
        r = c.get("/api/tables/t-nothere")
        assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_delete_removes_the_table_and_tells_its_screens_closed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        keep = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, table_token(made)) as shared:
            s0.acted({"type": "confirm"}, "c1", 0)
            r = c.delete(f"/api/tables/{tid}")
            assert r.status_code == 204
            assert s0.until(lambda m: m["type"] == "closed")["reason"]
            assert shared.until(lambda m: m["type"] == "closed")["reason"]
        assert c.get(f"/api/tables/{tid}").status_code == 404
        assert c.get(f"/api/tables/{tid}/record").status_code == 404
        assert c.delete(f"/api/tables/{tid}").status_code == 404
        assert steps(c, tid) == []  # its journal rows went with it
        assert [t["id"] for t in c.get("/api/tables").json()] == [keep["id"]]
        with screen(c, tid) as late:  # a late screen finds no table
            late.send({"type": "hello", "token": seat_token(made, 0)})
            assert late.expect("error")["error"] == "not_found"


# -- records -------------------------------------------------------------------------------------------------


def test_export_replays_to_the_table_state_and_import_gives_the_same_digest(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made, view = played_table(c)
        r = c.get(f"/api/tables/{made['id']}/record")
        assert r.status_code == 200
        assert "attachment" in r.headers["content-disposition"]
        data = r.json()
        record = GameRecord.from_json(data)
        assert record.game == "valkyrx" and record.scenario_name == "skirmish" and record.seed == 7
        assert len(record.steps) == view["version"] == len(steps(c, made["id"]))
        assert [s.action for s in record.steps] == [s.action for s in steps(c, made["id"])]
        played = replay(record)  # every digest checked on the way
        assert digest(GAME.state_to_json(played.state)) == record.steps[-1].digest
        assert GAME.observe(played.state, 0) == view["observation"]  # the same game as the screen shows

        r = c.post("/api/tables/import", json={**data, "mode": "remote"})
        assert r.status_code == 201, r.text
        imported = r.json()
        assert imported["id"] != made["id"]
        assert imported["table"]["steps"] == len(record.steps)
        assert imported["table"]["status"] == "playing"
        again = GameRecord.from_json(c.get(f"/api/tables/{imported['id']}/record").json())
        assert again.steps[-1].digest == record.steps[-1].digest
        assert [s.to_json() for s in again.steps] == [s.to_json() for s in record.steps]
        with screen(c, imported["id"], seat_token(imported, 0)) as s0:
            v = s0.last_view()
            assert v["version"] == view["version"]
            assert v["observation"] == view["observation"]


def test_an_imported_finished_record_makes_a_finished_table(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.post("/api/tables/import", json={**short_record(), "mode": "remote"})
        assert r.status_code == 201, r.text
        made = r.json()
        with (
            screen(c, made["id"], seat_token(made, 0)) as s0,
            screen(c, made["id"], seat_token(made, 1)) as s1,
        ):
            view = to_movement(s0, s1)
            first = view["to_move"]
            (s0, s1)[first].acted({"type": "end_phase"}, "e1", first)
            (s0, s1)[1 - first].acted({"type": "end_phase"}, "e2", 1 - first)
            over = s0.wait_for(lambda m: m["type"] == "view" and m["status"] == "over")
            assert over["result"]["winner"] is None and "turn limit" in over["result"]["reason"]
        data = c.get(f"/api/tables/{made['id']}/record").json()
        r = c.post("/api/tables/import", json=data)
        assert r.status_code == 201
        assert r.json()["table"]["status"] == "over"
        assert r.json()["table"]["result"] == over["result"]


def _tamper_digest(data: JSON) -> None:
    data["steps"][-1]["digest"] = "0" * 16


def _tamper_face(data: JSON) -> None:
    die = next(s for s in data["steps"] if s["seat"] < 0)  # the first-mover d2
    die["action"]["face"] = 3 - die["action"]["face"]


def _tamper_rules(data: JSON) -> None:
    data["rules_version"] = "0.0.1-elsewhere"


@pytest.mark.parametrize(
    ("tamper", "words"),
    [(_tamper_digest, "step"), (_tamper_face, "step"), (_tamper_rules, "rules")],
    ids=["digest", "face", "rules_version"],
)
def test_a_tampered_record_is_refused_with_400_and_nothing_is_journalled(
    tmp_path: Path, tamper: Any, words: str
) -> None:
    with serving(tmp_path) as c:
        made, _ = played_table(c)
        good = c.get(f"/api/tables/{made['id']}/record").json()
        bad = copy.deepcopy(good)
        tamper(bad)
        before = c.get("/api/tables").json()
        r = c.post("/api/tables/import", json=bad)
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "malformed"
        assert words in r.json()["message"]
        assert c.get("/api/tables").json() == before
        journal = c.app.state.manager.journal  # type: ignore[attr-defined]
        assert [row.id for row in journal.tables()] == [made["id"]]
        assert c.post("/api/tables/import", json=good).status_code == 201  # the untouched one is fine


def test_import_refuses_what_is_no_record(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        bodies = [[1], {"format": 1}, {**short_record(), "format": 99}, {**short_record(), "game": "chess"}]
        for body in bodies:
            r = c.post("/api/tables/import", json=body)
            assert r.status_code == 400, (body, r.text)
        assert c.get("/api/tables").json() == []


def test_a_seat_exports_only_a_finished_game(tmp_path: Path) -> None:
    with serving(tmp_path) as c:  # the test client is no loopback client: a remote player
        made = create(c)
        other = create(c)
        tid = made["id"]
        c.app.state.settings.open_lobby = False  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}/record").status_code == 403  # no token: the lobby's, refused
        r = c.get(f"/api/tables/{tid}/record", params={"token": seat_token(made, 1)})
        assert r.status_code == 403 and "over" in r.json()["message"]  # hidden facts while in play
        r = c.get(f"/api/tables/{tid}/record", params={"token": seat_token(other, 0)})
        assert r.status_code == 403  # another table's credential
        r = c.get(f"/api/tables/{tid}/record", params={"token": "not-a-token"})
        assert r.status_code == 403
        with screen(c, tid, seat_token(made, 0)) as s0:
            s0.send({"type": "quit", "id": "q"})
            s0.until(lambda m: m["type"] == "closed")
        r = c.get(f"/api/tables/{tid}/record", params={"token": seat_token(made, 1)})
        assert r.status_code == 200
        assert r.json()["game"] == "valkyrx"


def test_a_seat_exports_a_game_played_to_its_end(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = c.post("/api/tables/import", json={**short_record(), "mode": "remote"}).json()
        tid = made["id"]
        c.app.state.settings.open_lobby = False  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}/record", params={"token": seat_token(made, 0)}).status_code == 403
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            first = to_movement(s0, s1)["to_move"]
            (s0, s1)[first].acted({"type": "end_phase"}, "e1", first)
            (s0, s1)[1 - first].acted({"type": "end_phase"}, "e2", 1 - first)
            s0.wait_for(lambda m: m["type"] == "view" and m["status"] == "over")
        r = c.get(f"/api/tables/{tid}/record", params={"token": seat_token(made, 0)})
        assert r.status_code == 200
        assert replay(GameRecord.from_json(r.json())).steps == 5


# -- the lobby's guards --------------------------------------------------------------------------------------


def test_the_lobby_refuses_a_remote_client_unless_open(tmp_path: Path) -> None:
    with serving(tmp_path, open_lobby=True) as c:
        made = create(c)
        record = c.get(f"/api/tables/{made['id']}/record").json()
    with serving(tmp_path, open_lobby=False, client=("::ffff:203.0.113.9", 5000)) as c:
        assert c.get("/api/tables").status_code == 403  # a mapped remote address is still remote
    with serving(tmp_path, open_lobby=False, client=("203.0.113.9", 5000)) as c:
        calls = [
            c.get("/api/tables"),
            c.get(f"/api/tables/{made['id']}"),
            c.post("/api/tables", json={"game": "valkyrx", "scenario": "skirmish"}),
            c.delete(f"/api/tables/{made['id']}"),
            c.get(f"/api/tables/{made['id']}/record"),
            c.post("/api/tables/import", json=record),
        ]
        for r in calls:
            assert r.status_code == 403, (r.request.method, r.request.url, r.text)
            assert r.json()["error"] == "forbidden"
            assert "--open-lobby" in r.json()["message"]
        assert c.get("/api/games").status_code == 200  # the cards are no secret
        with screen(c, made["id"], seat_token(made, 0)) as s0:  # an invitation link still joins
            assert s0.last_view()["seat"] == 0
    for local in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):  # the last: a server on "::"
        with serving(tmp_path, open_lobby=False, client=(local, 5000), base_url="http://localhost:8000") as c:
            assert c.get("/api/tables").status_code == 200
            assert c.get(f"/api/tables/{made['id']}").status_code == 200
    # DNS rebinding: a loopback client that asked for another site's name is refused.
    with serving(
        tmp_path, open_lobby=False, client=("127.0.0.1", 5000), base_url="http://evil.example:8000"
    ) as c:
        assert c.get("/api/tables").status_code == 403
        assert "localhost" in c.get("/api/tables").json()["message"]
    with serving(
        tmp_path, open_lobby=False, client=("127.0.0.1", 5000), base_url="http://127.0.0.1:8000"
    ) as c:
        assert c.post("/api/tables", json={"game": "valkyrx", "scenario": "skirmish"}).status_code == 201
        assert c.delete(f"/api/tables/{made['id']}").status_code == 204


def test_a_foreign_origin_cannot_change_anything(tmp_path: Path) -> None:
    evil = {"Origin": "https://evil.example"}
    with serving(tmp_path) as c:
        made = create(c)
        record = c.get(f"/api/tables/{made['id']}/record").json()
        body = {"game": "valkyrx", "scenario": "skirmish"}
        for r in (
            c.post("/api/tables", json=body, headers=evil),
            c.post("/api/tables/import", json=record, headers=evil),
            c.delete(f"/api/tables/{made['id']}", headers=evil),
            c.post("/api/tables", json=body, headers={"Origin": "http://testserver.evil.example"}),
            c.post("/api/tables", json=body, headers={"Origin": "null"}),
        ):
            assert r.status_code == 403, r.text
            assert r.json()["error"] == "forbidden"
        assert [t["id"] for t in c.get("/api/tables").json()] == [made["id"]]
        # The server's own pages, and clients that send no Origin (no browser), are let in.
        assert c.post("/api/tables", json=body, headers={"Origin": "http://testserver"}).status_code == 201
        assert c.post("/api/tables", json=body).status_code == 201


def test_an_allowed_origin_is_let_in(tmp_path: Path) -> None:
    with serving(tmp_path, allowed_origins=("https://table.example",)) as c:
        r = c.post(
            "/api/tables",
            json={"game": "valkyrx", "scenario": "skirmish"},
            headers={"Origin": "https://table.example"},
        )
        assert r.status_code == 201
        r = c.post(
            "/api/tables",
            json={"game": "valkyrx", "scenario": "skirmish"},
            headers={"Origin": "https://other.example"},
        )
        assert r.status_code == 403
