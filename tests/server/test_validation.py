"""Inputs the server cannot store, encode or walk get the documented ``{"error", "message"}`` answer.

Each was once an HTTP 500, an ``internal`` error, a close without a word, or a socket that silently stopped
answering; each must now be refused as ``malformed`` (or the router's own ``not_found`` and
``method_not_allowed``) with nothing changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from iwgt.server.wire import MAX_DEPTH

from .kit import JSON, Screen, create, pair, screen, serving, steps

DEEP = 5000
"""Nesting far beyond Python's recursion limit: the parser itself gives up."""


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def refused(answer: Any, code: str = "malformed") -> JSON:
    """An HTTP answer that is the documented structured error with ``code``."""
    body: JSON = answer.json()
    assert set(body) == {"error", "message"}, body
    assert body["error"] == code and body["message"], body
    return body


CREATE: JSON = {
    "game": "valkyrx",
    "scenario": "skirmish",
    "seats": ["human", "human"],
    "mode": "remote",
    "timer_seconds": 0,
}


# -- HTTP ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [2**63, 2**64 + 5, 10**30])
def test_a_seed_beyond_64_bits_is_malformed(tmp_path: Path, seed: int) -> None:
    with serving(tmp_path) as c:
        r = c.post("/api/tables", json={**CREATE, "seed": seed})
        assert r.status_code == 400
        assert "seed" in refused(r)["message"]
        assert c.get("/api/tables").json() == []  # nothing was created


def test_the_largest_seed_the_journal_holds_is_taken(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, seed=2**63 - 1)
        assert c.get(f"/api/tables/{made['id']}").status_code == 200


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, DEEP])
@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/import"])
def test_deep_nesting_in_a_body_is_malformed(tmp_path: Path, path: str, depth: int) -> None:
    with serving(tmp_path) as c:
        r = c.post(path, content='{"game": "valkyrx", "seats": ' + nested(depth) + "}")
        assert r.status_code == 400
        assert "nests deeper" in refused(r)["message"]
        assert c.get("/api/tables").json() == []


def test_a_lone_surrogate_in_an_import_is_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.post("/api/tables/import", content='{"game": "valkyrx", "scenario_toml": "\\ud800"}')
        assert r.status_code == 400
        assert "surrogate" in refused(r)["message"]
        assert c.get("/api/tables").json() == []


def test_unknown_routes_and_methods_answer_the_documented_shape(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.get("/api/nothing-here")
        assert r.status_code == 404
        refused(r, "not_found")
        r = c.delete("/api/games")
        assert r.status_code == 405
        refused(r, "method_not_allowed")
        r = c.get("/api/tables/t-nope")  # the app's own 404 keeps its own words
        assert r.status_code == 404
        assert "t-nope" in refused(r, "not_found")["message"]


# -- the socket ----------------------------------------------------------------------------------------------


def still_answers(s: Screen) -> None:
    """The socket goes on answering after a refusal."""
    s.send({"type": "ping"})
    s.expect("pong")


def test_deep_nesting_on_the_socket_is_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with pair(c, made) as (s0, _):
            n = len(steps(c, made["id"]))
            for depth in (MAX_DEPTH + 1, DEEP):
                s0.send_text('{"type": "act", "id": "deep", "action": ' + nested(depth) + "}")
                err = s0.expect("error")
                assert err["error"] == "malformed" and "nests deeper" in err["message"], err
            still_answers(s0)
            assert len(steps(c, made["id"])) == n


def test_deep_nesting_at_hello_is_answered_before_the_close(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"]) as s:
            s.send_text('{"type": "hello", "token": ' + nested(DEEP) + "}")
            err = s.expect("error")
            assert err["error"] == "malformed", err
            with pytest.raises(WebSocketDisconnect) as closed:
                s.recv()
            assert closed.value.code == 1008


def test_a_unit_id_beyond_64_bits_is_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with pair(c, made) as (s0, _):
            s0.send({"type": "select", "id": "big", "seat": 0, "unit": 2**70})
            err = s0.expect("error")
            assert err["error"] == "malformed" and "64 bits" in err["message"], err
            still_answers(s0)


def test_a_message_id_with_a_lone_surrogate_is_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with pair(c, made) as (s0, _):
            n = len(steps(c, made["id"]))
            s0.send_text('{"type": "act", "id": "\\ud800", "seat": 0, "action": {"type": "confirm"}}')
            err = s0.expect("error")
            assert err["error"] == "malformed" and "surrogate" in err["message"], err
            still_answers(s0)
            assert len(steps(c, made["id"])) == n  # the tick was not taken


def test_a_valhalla_point_of_401_digits_is_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, game="valhalla", scenario="first_blood")
        with pair(c, made) as (s0, s1):
            seat = s0.last_view()["to_move"]
            me = (s0, s1)[seat]
            fid = me.last_view()["options"]["movable"][0]
            n = len(steps(c, made["id"]))
            huge = "9" * 401
            me.send_text(
                f'{{"type": "act", "id": "far", "seat": {seat}, '
                f'"action": {{"type": "move", "figure": {fid}, "to": [{huge}, 1]}}}}'
            )
            err = me.until(lambda m: m["type"] == "error")
            assert err["error"] == "malformed", err
            still_answers(me)
            assert len(steps(c, made["id"])) == n
