"""The WebSocket protocol (docs/protocol.md, "The WebSocket"): hello, act, ack, view, refusals, dice, quit."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from tests.games.valkyrx.kit import scenario_text

import iwgt.server.app
from iwgt.core.lights import BASE_PALETTE as PALETTE
from iwgt.core.registry import get_game
from iwgt.server.clock import ManualClock
from iwgt.server.journal import Journal, TableRow, now

from .kit import JSON, Screen, create, screen, seat_token, serving, steps, table_token, to_movement

GAME = get_game("valkyrx")

pytestmark = pytest.mark.timeout(60)


def unchanged(c: Any, table_id: str, version: int, s: Screen) -> None:
    """Nothing changed: the journal holds ``version`` steps and no new view came."""
    assert len(steps(c, table_id)) == version
    assert not [m for m in s.quiet(0.1) if m["type"] == "view"]


def mover_screen(s0: Screen, s1: Screen, view: JSON) -> tuple[int, Screen, Screen]:
    """The seat to move, its screen and the other screen."""
    mover = view["to_move"]
    assert mover in (0, 1)
    return mover, (s0, s1)[mover], (s0, s1)[1 - mover]


# -- hello -------------------------------------------------------------------------------------------------


def test_hello_must_come_first(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"]) as s:
            s.send({"type": "act", "id": "a", "seat": 0, "action": {"type": "confirm"}})
            err = s.expect("error")
            assert err["error"] == "unauthorized" and "hello" in err["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                s.recv()
            assert closed.value.code == 1008
        assert steps(c, made["id"]) == []


def test_a_silent_socket_is_closed_after_the_hello_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(iwgt.server.app, "HELLO_SECONDS", 0.3)
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"]) as s:
            err = s.expect("error", timeout=5)
            assert err["error"] == "unauthorized" and "hello" in err["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                s.recv(5)
            assert closed.value.code == 1008


@pytest.mark.parametrize("tok", ["", "nope", "x" * 32])
def test_a_bad_token_is_refused_and_the_socket_closes(tmp_path: Path, tok: str) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        other = create(c)
        for bad in (tok, seat_token(other, 0), table_token(other)):
            with screen(c, made["id"]) as s:
                s.send({"type": "hello", "token": bad})
                err = s.expect("error")
                assert err["error"] == "unauthorized"
                with pytest.raises(WebSocketDisconnect) as closed:
                    s.recv()
                assert closed.value.code == 1008
                assert [m["type"] for m in s.seen] == ["error"]  # no welcome, no view


def test_welcome_then_view_for_the_credential_seats(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, mode="shared")
        tid = made["id"]
        with screen(c, tid) as s:
            welcome, view = s.hello(seat_token(made, 1))
            assert welcome["seats"] == [1]
            assert welcome["names"] == ["Forces of the Light", "Forces of Darkness"]
            assert welcome["table"]["id"] == tid and welcome["table"]["status"] == "playing"
            assert (
                view["table"] == tid and view["version"] == 0 and view["seat"] == 1 and view["seats"] == [1]
            )
            assert view["to_move"] == 0  # the Light deploys first
            assert view["options"] == {"movable": [], "actions": []}  # not its turn: nothing offered
            assert view["observation"]["seat"] == 1
            assert view["status"] == "playing" and view["result"] is None and view["timer"] is None
            assert view["die"] is None and view["dice"] == "table"
        with screen(c, tid) as s:
            welcome, view = s.hello(table_token(made))  # the shared touchscreen holds every human seat
            assert welcome["seats"] == [0, 1]
            assert view["seat"] == 0 and {"type": "confirm"} in view["options"]["actions"]
            deploy = [x for x in view["lights"] if x["effect"] == "deploy"]  # VX-14-01
            assert deploy and all(x["colour"] == PALETTE["deploy"] for x in deploy)
            s.send({"type": "hello", "token": table_token(made)})
            assert s.expect("error")["error"] == "malformed"  # one hello per socket
            s.send({"type": "ping"})
            assert s.expect("pong") == {"type": "pong"}


def test_a_shared_touchscreen_shows_the_seat_to_act(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, mode="shared")
        with screen(c, made["id"], table_token(made)) as s:
            v = s.acted({"type": "confirm"}, "c0", 0)
            assert v["seat"] == 1 and v["to_move"] == 1  # pass and play
            v = s.acted({"type": "confirm"}, "c1", 1)
            assert v["seat"] == v["to_move"] and v["observation"]["phase"] == "movement"


# -- act, ack, view ----------------------------------------------------------------------------------------


def test_act_is_acknowledged_then_every_screen_gets_the_next_view(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            s0.send({"type": "act", "id": "c-1", "seat": 0, "action": {"type": "confirm"}})
            assert s0.expect("ack") == {"type": "ack", "id": "c-1", "version": 1}
            v0 = s0.expect("view")
            assert v0["version"] == 1 and v0["seat"] == 0 and v0["to_move"] == 1
            v1 = s1.expect("view")
            assert v1["version"] == 1 and v1["seat"] == 1 and v1["to_move"] == 1
            assert {"type": "confirm"} in v1["options"]["actions"]
            assert v1["log"][-1]["action"] == {"type": "confirm"} and v1["log"][-1]["actor"] == 0
            (row,) = steps(c, tid)  # journalled before the ack
            assert (row.seq, row.seat, row.action, row.origin, row.client_id) == (
                1,
                0,
                {"type": "confirm"},
                "player",
                "seat0/c-1",  # the id as the journal keeps it: prefixed by the credential that sent it
            )
            s1.send(
                {"type": "act", "id": "c-2", "action": {"type": "confirm"}}
            )  # one seat: "seat" may be left out
            ack = s1.expect("ack")
            assert ack["version"] >= 3  # the confirm, then the table's first-mover d2
            assert s1.expect("view")["version"] == ack["version"]
            assert [r.origin for r in steps(c, tid)] == ["player", "player", "auto"]


def test_a_retried_id_is_applied_once(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            view = to_movement(s0, s1)
            mover, s, _ = mover_screen(s0, s1, view)
            unit = s.last_view()["options"]["movable"][0]
            s.send({"type": "select", "seat": mover, "unit": unit})
            move = s.until(lambda m: m["type"] == "selection")["moves"][0]["action"]
            first = s.act(move, "c-move", mover)
            assert first["type"] == "ack"
            after = s.until(lambda m: m["type"] == "view")
            n = len(steps(c, tid))
            again = s.act(move, "c-move", mover)  # the same id: the network lost the ack, say
            assert again == first
            repeat = s.until(lambda m: m["type"] == "view")  # the screen gets its view back
            assert repeat["version"] == after["version"]
            assert repeat["observation"] == after["observation"]
            assert len(steps(c, tid)) == n
            s.act({"type": "end_phase"}, "c-end", mover)
            assert s.act(move, "c-move", mover) == first  # still the first answer after later steps
            assert [(r.client_id or "").split("/")[-1] for r in steps(c, tid)].count("c-move") == 1


def test_acting_out_of_turn_or_for_a_seat_not_held_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            err = s1.act({"type": "confirm"}, "early", 1)  # the Light deploys first
            assert err["type"] == "error" and err["error"] == "not_your_turn" and err["id"] == "early"
            assert "Forces of the Light" in err["message"]
            err = s0.act({"type": "confirm"}, "theirs", 1)  # seat 0's credential acting as seat 1
            assert err["error"] == "unauthorized"
            err = s1.act({"type": "confirm"}, "mine", 0)  # seat 1's credential acting as seat 0, on 0's turn
            assert err["error"] == "unauthorized"
            for bad_seat, code in (
                ("0", "malformed"),
                (True, "malformed"),
                (2, "unauthorized"),
                (-1, "unauthorized"),
            ):
                s0.send({"type": "act", "id": "odd", "seat": bad_seat, "action": {"type": "confirm"}})
                assert s0.until(lambda m: m["type"] == "error")["error"] == code
            unchanged(c, tid, 0, s0)


def test_a_shared_screen_must_name_its_seat(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, mode="shared")
        with screen(c, made["id"], table_token(made)) as s:
            s.send({"type": "act", "id": "x", "action": {"type": "confirm"}})
            err = s.expect("error")
            assert err["error"] == "malformed" and "seat" in err["message"]
            unchanged(c, made["id"], 0, s)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ('"hello"', "malformed"),
        ('{"no_type": 1}', "malformed"),
        ('{"type": "dance"}', "malformed"),
        ('{"type": "act", "id": "m", "seat": 0}', "malformed"),
        ('{"type": "act", "id": "m", "seat": 0, "action": "confirm"}', "malformed"),
        ('{"type": "act", "id": "m", "seat": 0, "action": {"type": "teleport"}}', "malformed"),
        (
            '{"type": "act", "id": "m", "seat": 0, "action": {"type": "place", "unit": "x", "to": [0, 0]}}',
            "malformed",
        ),
        (
            '{"type": "act", "id": "m", "seat": 0, "action": {"type": "place", "unit": 0, "to": [0]}}',
            "malformed",
        ),
        ('{"type": "act", "id": "m", "seat": 0, "action": {"type": "confirm", "extra": 1}}', "malformed"),
        ('{"type": "act", "id": 17, "seat": 0, "action": {"type": "confirm"}}', "malformed"),
        ('{"type": "act", "id": "timer:1", "seat": 0, "action": {"type": "confirm"}}', "malformed"),
        ('{"type": "act", "id": "' + "i" * 65 + '", "seat": 0, "action": {"type": "confirm"}}', "malformed"),
        ('{"type": "select", "seat": 0, "unit": "three"}', "malformed"),
        ('{"type": "preview", "seat": 0, "action": 3}', "malformed"),
        ('{"type": "die", "id": "d", "face": 1}', "illegal"),  # the table rolls its own dice
    ],
)
def test_malformed_messages_get_a_structured_error_and_change_nothing(
    tmp_path: Path, raw: str, code: str
) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"], seat_token(made, 0)) as s:
            s.send_text(raw)
            err = s.expect("error")
            assert set(err) == {"type", "id", "error", "message", "lights"}
            assert err["error"] == code, err
            assert err["message"] and "Traceback" not in err["message"]
            unchanged(c, made["id"], 0, s)
            s.send({"type": "ping"})  # the socket still serves
            assert s.expect("pong")


def test_a_binary_frame_is_refused_as_malformed(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"]) as s:  # at hello: refused, and the socket closes
            s.ws.send_bytes(json.dumps({"type": "hello", "token": seat_token(made, 0)}).encode())
            assert s.expect("error")["error"] == "malformed"
            with pytest.raises(WebSocketDisconnect) as closed:
                s.recv()
            assert closed.value.code == 1008
        with screen(c, made["id"], seat_token(made, 0)) as s:  # later: refused, and the socket serves on
            s.ws.send_bytes(b'{"type": "act", "id": "b", "seat": 0, "action": {"type": "confirm"}}')
            err = s.expect("error")
            assert err["error"] == "malformed" and "binary" in err["message"]
            unchanged(c, made["id"], 0, s)
            s.send({"type": "ping"})
            assert s.expect("pong")


def test_a_message_over_16_kib_is_too_large(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with screen(c, made["id"], seat_token(made, 0)) as s:
            msg = {
                "type": "act",
                "id": "big",
                "seat": 0,
                "action": {"type": "confirm"},
                "pad": "x" * (16 * 1024),
            }
            s.send(msg)
            err = s.expect("error")
            assert err["error"] == "too_large"
            unchanged(c, made["id"], 0, s)
            # A message just under the limit is read (and refused only for its content).
            pad = 16 * 1024 - len(json.dumps({"type": "ping", "pad": ""}, separators=(",", ":"))) - 1
            s.send({"type": "ping", "pad": "y" * pad})
            assert s.expect("pong")


def test_more_than_the_burst_is_rate_limited(tmp_path: Path) -> None:
    """A burst of 40 passes, the rest is refused; the bucket refills 20 a second on the table's own clock,
    which stands still here unless the test moves it, so every count is exact."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c)
        n = len(steps(c, made["id"]))
        with screen(c, made["id"], seat_token(made, 0)) as s:
            for _ in range(80):
                s.send({"type": "ping"})
            got = [s.recv() for _ in range(80)]
            assert [m["type"] for m in got] == ["pong"] * 40 + ["error"] * 40
            assert all(m["error"] == "rate_limited" for m in got[40:])
            s.send({"type": "act", "id": "flood", "seat": 0, "action": {"type": "confirm"}})
            refused = s.recv()
            assert (
                refused["type"] == "error" and refused["error"] == "rate_limited" and refused["id"] == "flood"
            )
            unchanged(c, made["id"], n, s)
            clock.advance(0.125)  # two and a half tokens back (a binary fraction: exact)
            assert s.act({"type": "confirm"}, "later", 0)["type"] == "ack"
            s.send({"type": "ping"})
            answer = s.until(lambda m: m["type"] in ("pong", "error"))
            assert answer["type"] == "pong", answer
            s.send({"type": "ping"})
            limited = s.until(lambda m: m["type"] in ("pong", "error"))
            assert limited["type"] == "error" and limited["error"] == "rate_limited"


def test_an_illegal_move_lights_its_destination_red(tmp_path: Path) -> None:
    """VX-14-03: an illegal destination lights red, for 2 s."""
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            view = to_movement(s0, s1)
            mover, s, _ = mover_screen(s0, s1, view)
            v = s.last_view()
            unit = v["options"]["movable"][0]
            s.send({"type": "select", "seat": mover, "unit": unit})
            legal = {tuple(m["to"]) for m in s.until(lambda m: m["type"] == "selection")["moves"]}
            board = v["observation"]["board"]
            far = next(
                (col, row)
                for row in range(board["height"])
                for col in range(board["width"])
                if (col, row) not in legal
                and all(tuple(u["cell"] or ()) != (col, row) for u in v["observation"]["units"])
            )
            version = v["version"]
            err = s.act({"type": "move", "unit": unit, "to": list(far)}, "bad-move", mover)
            assert err["type"] == "error" and err["error"] == "illegal" and err["id"] == "bad-move"
            assert err["lights"] == [
                {
                    "cell": list(far),
                    "effect": "illegal",
                    "colour": PALETTE["illegal"],
                    "pattern": "steady",
                    "delay_ms": 0,
                    "duration_ms": 2000,
                }
            ]
            unchanged(c, tid, version, s)
            err = s.act({"type": "move", "unit": unit, "to": [99, 99]}, "off-board", mover)
            assert err["error"] == "illegal" and err["lights"] == []  # nothing to light off the table


def test_select_and_preview_answer_and_change_nothing(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            view = to_movement(s0, s1)
            mover, s, other = mover_screen(s0, s1, view)
            v = s.last_view()
            version = v["version"]
            unit = v["options"]["movable"][0]
            me = next(u for u in v["observation"]["units"] if u["id"] == unit)
            s.send({"type": "select", "seat": mover, "unit": unit, "id": "sel"})
            sel = s.until(lambda m: m["type"] == "selection")
            assert sel["unit"] == unit and sel["id"] == "sel" and sel["moves"]
            assert all(m["kind"] in ("walk", "charge", "fly", "pray") for m in sel["moves"])
            selected = [x for x in sel["lights"] if x["effect"] == "selected"]
            assert [x["cell"] for x in selected] == [me["cell"]]
            lit = {tuple(x["cell"]) for x in sel["lights"] if x["effect"] in ("destination", "charge", "fly")}
            assert lit == {tuple(m["to"]) for m in sel["moves"]}
            s.send({"type": "preview", "seat": mover, "action": sel["moves"][0]["action"], "id": "p1"})
            pre = s.until(lambda m: m["type"] == "preview")
            assert pre["legal"] is True and pre["reason"] is None and pre["id"] == "p1"
            s.send(
                {"type": "preview", "seat": mover, "action": {"type": "move", "unit": unit, "to": [99, 99]}}
            )
            pre = s.until(lambda m: m["type"] == "preview")
            assert pre["legal"] is False and pre["reason"]
            other_seat = 1 - mover
            other.send({"type": "preview", "seat": other_seat, "action": {"type": "end_phase"}})
            pre = other.until(lambda m: m["type"] == "preview")
            assert pre["legal"] is False and "turn" in pre["reason"]
            other.send({"type": "select", "seat": other_seat, "unit": unit})  # an enemy's unit
            assert other.until(lambda m: m["type"] == "selection")["moves"] == []
            other.send({"type": "select", "seat": mover, "unit": unit})  # the mover's seat: not held
            assert other.until(lambda m: m["type"] == "error")["error"] == "unauthorized"
            other.send({"type": "preview", "seat": mover, "action": {"type": "end_phase"}})
            assert other.until(lambda m: m["type"] == "error")["error"] == "unauthorized"
            unchanged(c, tid, version, s)


def test_quit_closes_every_screen_and_the_table(tmp_path: Path) -> None:
    """VX-15-25: Quit Game closes the table as abandoned; the record keeps every step."""
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with (
            screen(c, tid, seat_token(made, 0)) as s0,
            screen(c, tid, seat_token(made, 1)) as s1,
            screen(c, tid, table_token(made)) as shared,
        ):
            s0.acted({"type": "confirm"}, "c0", 0)
            s1.send({"type": "quit", "id": "q"})
            ack = s1.until(lambda m: m["type"] == "ack")
            assert ack == {"type": "ack", "id": "q", "version": 1}
            for s in (s0, s1, shared):
                assert s.until(lambda m: m["type"] == "closed")["reason"]
                with pytest.raises(WebSocketDisconnect) as gone:  # then the server closes the socket
                    s.recv(5)
                assert gone.value.code == 1000
        summary = c.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "quit" and summary["steps"] == 1
        assert c.app.state.manager.journal.table(tid).status == "quit"  # type: ignore[attr-defined]
        with screen(c, tid, seat_token(made, 0)) as again:
            assert again.last_view()["status"] == "quit"
            assert again.last_view()["to_move"] is None
    with serving(tmp_path) as c:  # the quit survives a restart
        assert c.get(f"/api/tables/{tid}").json()["status"] == "quit"


def test_a_reconnecting_screen_gets_the_same_view(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            to_movement(s0, s1)
            before = s1.last_view()
        with screen(c, tid, seat_token(made, 1)) as again:
            assert again.last_view() == before


def test_a_socket_from_a_foreign_origin_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            screen(c, made["id"], headers={"Origin": "https://evil.example"}) as s,
        ):
            s.hello(seat_token(made, 0))
        assert refused.value.code == 1008
        with screen(c, made["id"], seat_token(made, 0), headers={"Origin": "http://testserver"}) as s:
            assert s.last_view()["seat"] == 0


# -- physical dice -----------------------------------------------------------------------------------------


def plague_table(data_dir: Path) -> JSON:
    """A physical-dice table journalled by hand: Wærloga (D2) within range of L0 and L1 (VX-SP-PLAGUE-*).

    Returns the ids and tokens as a create answer would give them.
    """
    toml = scenario_text(
        [("guardsmen", (2, 4)), ("swordsmen", (3, 4))],
        [("waerloga", (6, 4)), ("wearg_warriors", (11, 8))],
        extra="turn_limit = 2",
    )
    tokens = {
        "table": secrets.token_urlsafe(24),
        "seats": [secrets.token_urlsafe(24), secrets.token_urlsafe(24)],
    }
    row = TableRow(
        id="t-plague",
        game="valkyrx",
        rules_version=GAME.rules_version,
        scenario_name="plague",
        scenario_toml=toml,
        seed=None,
        secret_seed=12345,
        dice="physical",
        mode="remote",
        seats=("human", "human"),
        tokens=tokens,
        timer_seconds=0.0,
        created=now(),
        status="playing",
        result=None,
    )
    journal = Journal(data_dir / "tables.sqlite3")
    journal.create_table(row)
    journal.close()
    base = "http://testserver/play/t-plague#token="
    return {
        "id": row.id,
        "links": {"table": base + tokens["table"], "seats": [base + t for t in tokens["seats"]]},
    }


def test_physical_dice_are_asked_checked_and_secret_dice_never_asked(tmp_path: Path) -> None:
    made = plague_table(tmp_path)
    with serving(tmp_path) as c:
        tid = made["id"]
        assert c.get(f"/api/tables/{tid}").json()["dice"] == "physical"
        with screen(c, tid, seat_token(made, 0)) as s0, screen(c, tid, seat_token(made, 1)) as s1:
            s0.acted({"type": "confirm"}, "c0", 0)
            v = s1.acted({"type": "confirm"}, "c1", 1)
            assert v["to_move"] is None  # the table waits for a die
            assert v["die"]["sides"] == 2 and "first" in v["die"]["purpose"] and v["die"]["hint"]
            assert v["dice"] == "physical"
            assert s0.until(lambda m: m["type"] == "view" and m["version"] == v["version"])["die"] == v["die"]
            for bad in (0, 3, "1", 1.0, True, None):
                s0.send({"type": "die", "id": f"bad-{bad!r}", "face": bad})
                err = s0.until(lambda m: m["type"] == "error")
                assert err["error"] == "malformed" and "face" in err["message"]
            unchanged(c, tid, 2, s0)
            err = s0.act({"type": "end_phase"}, "too-soon", 0)
            assert err["error"] == "not_your_turn" and "die" in err["message"]
            s0.send({"type": "die", "id": "d1", "face": 1})  # the Light moves first
            ack = s0.until(lambda m: m["type"] == "ack")
            assert ack == {"type": "ack", "id": "d1", "version": 3}
            v = s0.until(lambda m: m["type"] == "view")
            assert v["die"] is None and v["to_move"] == 0 and v["observation"]["first_mover"] == 0
            assert steps(c, tid)[-1].origin == "die" and steps(c, tid)[-1].action == {"face": 1}
            s0.send({"type": "die", "id": "d1", "face": 2})  # a retry of the same id: the first answer
            assert s0.until(lambda m: m["type"] == "ack") == ack
            s0.send({"type": "die", "id": "d2", "face": 1})
            assert s0.until(lambda m: m["type"] == "error")["error"] == "illegal"  # no die is awaited
            s0.acted({"type": "end_phase"}, "e0", 0)
            v = s1.acted({"type": "end_phase"}, "e1", 1)
            assert v["observation"]["phase"] == "spells" and v["to_move"] == 1
            # The plague's carrier is chosen by a secret die (VX-SP-PLAGUE-2): the table rolls it, never asks.
            n = len(steps(c, tid))
            v = s1.acted({"type": "cast", "unit": 2, "spell": "plague"}, "cast", 1)
            rows = steps(c, tid)
            assert rows[n].action["type"] == "cast"
            assert rows[n + 1].seat == -1 and rows[n + 1].origin == "auto"  # the secret die, from the table
            for msg in s0.seen + s1.seen:
                if msg["type"] == "view" and msg["die"] is not None:
                    assert "plague" not in msg["die"]["purpose"]
            assert v["die"] is not None and "turn 2" in v["die"]["purpose"]  # the next public die is asked
            assert rows[n + 1].action["face"] in (1, 2)
