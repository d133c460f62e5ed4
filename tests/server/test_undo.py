"""Undo over the socket: taken at once against the bot, asked of the other player otherwise, refused with
the reason (``undo_refused``), journalled as a row of its own and kept by a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from iwgt.core.digest import digest
from iwgt.server.clock import ManualClock
from iwgt.server.journal import UNDO, Journal, StepRow

from .kit import (
    JSON,
    Screen,
    create,
    moving,
    pair,
    screen,
    seat_token,
    serving,
    steps,
    table_token,
    to_movement,
)
from .test_journal import row, step

pytestmark = pytest.mark.timeout(120)


def live(c: TestClient, tid: str) -> Any:
    """The table's live game, as the server holds it."""
    return c.app.state.manager.get(tid).live  # type: ignore[attr-defined]


def state_digest(c: TestClient, tid: str) -> str:
    lt = live(c, tid)
    return digest(lt.game.state_to_json(lt.state))


def a_move(s: Screen, seat: int) -> JSON:
    """A legal move of the seat's first movable unit, as its selection offers it."""
    unit = s.last_view()["options"]["movable"][0]
    s.send({"type": "select", "seat": seat, "unit": unit})
    move: JSON = s.until(lambda m: m["type"] == "selection")["moves"][0]["action"]
    return move


def undo(s: Screen, msg_id: str, seat: int | None = None, **more: Any) -> JSON:
    """Send an undo (or, with ``allow``, an answer); the ack or the error for its id."""
    msg: JSON = {"type": "undo_answer" if "allow" in more else "undo", "id": msg_id, **more}
    if seat is not None:
        msg["seat"] = seat
    s.send(msg)
    return s.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id)


def refused(answer: JSON, words: str) -> None:
    assert answer["type"] == "error" and answer["error"] == "undo_refused", answer
    assert words in answer["message"], answer


def test_against_the_bot_a_move_is_taken_back_at_once(tmp_path: Path) -> None:
    with serving(tmp_path, bot_delay=0.0) as c:
        made = create(c, seats=["human", "bot"], seed=7)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            first = s.acted({"type": "confirm"}, "deploy", 0)
            assert first["can_undo"] is False  # the bot confirmed and the dice rolled who moves first
            view = s.wait_for(moving(0), timeout=30)
            refused(undo(s, "u-0"), "")  # nothing of seat 0's since the dice: refused, whatever the reason
            before, version = state_digest(c, tid), view["version"]
            moved = s.acted(a_move(s, 0), "m-1", 0)
            assert moved["can_undo"] is True and moved["undo"]["seat"] == 0
            assert moved["undo"]["consent"] is False  # nobody else to ask
            ack = undo(s, "u-1")
            assert ack["type"] == "ack" and ack["version"] == version + 2  # the move's row, then the undo's
            back = s.view_from(ack["version"])
            assert state_digest(c, tid) == before
            assert back["observation"] == view["observation"]
            assert back["to_move"] == 0 and back["can_undo"] is False
            # Before the move came the dice (who moves first) or the bot's own phase: either bars the undo.
            barrier = steps(c, tid)[-3]
            reason = "a die was thrown since" if barrier.seat == -1 else "the other side has acted"
            assert back["undo"]["reason"] == reason
            rows = steps(c, tid)
            assert rows[-1].origin == "undo" and rows[-1].action == {"type": "undo", "step": len(rows) - 1}
            assert rows[-2].origin == "player"  # the move taken back stays in the journal
            summary = c.get(f"/api/tables/{tid}").json()
            assert summary["steps"] == len(rows) - 2  # the game's steps: not the move, not its undo
            record = c.get(f"/api/tables/{tid}/record").json()
            assert len(record["steps"]) == len(rows) - 2  # the record is the game as it stands


def test_the_other_player_is_asked_and_may_decline(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        with pair(c, made) as (s0, s1):
            mover = to_movement(s0, s1)["to_move"]
            me, other = (s0, s1) if mover == 0 else (s1, s0)
            before = state_digest(c, tid)
            moved = me.acted(a_move(me, mover), "m-1", mover)
            assert moved["can_undo"] is True and moved["undo"]["consent"] is True
            theirs = other.view_from(moved["version"])
            assert theirs["can_undo"] is False and theirs["undo"]["reason"] == "the other side has acted"
            refused(undo(other, "u-other"), "the other side has acted")

            ack = undo(me, "u-1")
            assert ack["type"] == "ack" and ack["version"] == moved["version"]  # asked: nothing changed yet
            asked = other.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            request = asked["undo"]["request"]
            assert request["seat"] == mover and request["answer_as"] == 1 - mover
            assert request["text"], "the step to take back is named in the answering seat's words"
            mine = me.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            assert mine["undo"]["request"]["answer_as"] is None and mine["can_undo"] is False

            no = undo(me, "a-self", mover, allow=True)  # the asker cannot answer itself
            assert no["type"] == "error" and no["error"] == "unauthorized"
            bad = undo(other, "a-bad", 1 - mover, allow="yes")
            assert bad["type"] == "error" and bad["error"] == "malformed"
            assert undo(other, "a-no", 1 - mover, allow=False)["type"] == "ack"
            declined = me.until(lambda m: m["type"] == "view" and m["undo"]["declined"])
            assert declined["undo"]["request"] is None and declined["can_undo"] is True
            refused(undo(other, "a-late", 1 - mover, allow=True), "no undo waits for an answer")
            assert state_digest(c, tid) != before

            assert undo(me, "u-2")["type"] == "ack"
            other.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            yes = undo(other, "a-yes", 1 - mover, allow=True)
            assert yes["type"] == "ack" and yes["version"] == moved["version"] + 1
            back = me.view_from(yes["version"])
            assert back["undo"]["request"] is None and back["to_move"] == mover
            assert state_digest(c, tid) == before
            assert [r.origin for r in steps(c, tid)][-2:] == ["player", "undo"]


def test_a_request_lapses_when_the_asker_plays_on(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c)
        with pair(c, made) as (s0, s1):
            mover = to_movement(s0, s1)["to_move"]
            me, other = (s0, s1) if mover == 0 else (s1, s0)
            me.acted(a_move(me, mover), "m-1", mover)
            assert undo(me, "u-1")["type"] == "ack"
            me.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            after = me.acted(a_move(me, mover), "m-2", mover)
            assert after["undo"]["request"] is None
            refused(undo(other, "a-late", 1 - mover, allow=True), "no undo waits for an answer")


def test_one_touchscreen_for_both_seats_asks_and_answers_on_the_same_screen(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, mode="shared")
        tid = made["id"]
        with screen(c, tid, table_token(made)) as s:
            s.acted({"type": "confirm"}, "d0", 0)
            view = s.acted({"type": "confirm"}, "d1", 1)
            view = s.wait_for(lambda m: m["type"] == "view" and m["observation"]["phase"] == "movement")
            mover = view["to_move"]
            before = state_digest(c, tid)
            moved = s.acted(a_move(s, mover), "m-1", mover)
            assert moved["undo"] == {
                "seat": mover,
                "reason": None,
                "consent": True,
                "request": None,
                "declined": False,
            }
            refused(undo(s, "u-wrong", 1 - mover), "the other side has acted")
            assert undo(s, "u-1", mover)["type"] == "ack"
            asked = s.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            assert asked["undo"]["request"]["answer_as"] == 1 - mover  # the same screen holds the other seat
            assert undo(s, "a-1", 1 - mover, allow=True)["type"] == "ack"
            assert state_digest(c, tid) == before


def test_the_undo_survives_a_restart_and_what_may_be_taken_back_too(tmp_path: Path) -> None:
    with serving(tmp_path, bot_delay=0.0) as c:
        made = create(c, seats=["human", "bot"], seed=7)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            s.acted({"type": "confirm"}, "deploy", 0)
            s.wait_for(moving(0), timeout=30)
            start = state_digest(c, tid)
            s.acted(a_move(s, 0), "m-1", 0)
            after_one = state_digest(c, tid)
            second = s.acted(a_move(s, 0), "m-2", 0)
            assert undo(s, "u-1")["type"] == "ack"  # the second move taken back
            view = s.view_from(second["version"] + 1)
            rows_before = steps(c, tid)
        assert state_digest(c, tid) == after_one
    with serving(tmp_path, bot_delay=0.0) as c:
        assert state_digest(c, tid) == after_one
        assert steps(c, tid) == rows_before
        with screen(c, tid, seat_token(made, 0)) as s:
            again = s.last_view()
            assert again["version"] == view["version"]
            assert again["observation"] == view["observation"]
            assert again["can_undo"] is True  # the first move may still be taken back
            retried = undo(s, "u-1")  # the same id after the restart: answered with its first ack
            assert retried == {"type": "ack", "id": "u-1", "version": view["version"]}
            assert state_digest(c, tid) == after_one
            ack = undo(s, "u-2")
            assert ack["type"] == "ack" and ack["version"] == view["version"] + 1
            assert state_digest(c, tid) == start
            assert [r.origin for r in steps(c, tid)][-4:] == ["player", "player", "undo", "undo"]


def test_the_journal_counts_the_games_steps_and_keeps_every_row(tmp_path: Path) -> None:
    """An undo row takes one step back in the count; the rows themselves all stay (nothing is deleted)."""
    journal = Journal(tmp_path / "j.sqlite")
    try:
        journal.create_table(row("t-a"), [step(1), step(2), step(3)])
        journal.append("t-a", [StepRow(4, 0, {"type": "undo", "step": 3}, "d2", UNDO)], "playing", None)
        journal.append("t-a", [StepRow(5, 0, {"type": "undo", "step": 2}, "d1", UNDO)], "playing", None)
        journal.append("t-a", [step(6)], "playing", None)
        assert journal.step_count("t-a") == 2  # 1 and 6: 2 and 3 were taken back
        assert [r.seq for r in journal.steps("t-a")] == [1, 2, 3, 4, 5, 6]
    finally:
        journal.close()


def test_a_journal_whose_undo_does_not_reproduce_is_refused(tmp_path: Path) -> None:
    """A tampered undo row (the wrong digest) refuses the resume, naming the row, like any step that fails."""
    with serving(tmp_path, bot_delay=0.0) as c:
        made = create(c, seats=["human", "bot"], seed=7)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            s.acted({"type": "confirm"}, "deploy", 0)
            s.wait_for(moving(0), timeout=30)
            s.acted(a_move(s, 0), "m-1", 0)
            assert undo(s, "u-1")["type"] == "ack"
        seq = steps(c, tid)[-1].seq
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:  # the journal edited behind the server's back
        db.execute("UPDATE steps SET digest = 'tampered' WHERE table_id = ? AND seq = ?", (tid, seq))
    with serving(tmp_path) as c:
        r = c.get(f"/api/tables/{tid}")
        assert r.status_code == 409
        message = r.json()["message"]
        assert (
            message.startswith(f"table {tid}: row {seq}: the undo leaves digest ") and "tampered" in message
        )


def test_nothing_comes_back_while_the_bot_has_its_turn(tmp_path: Path) -> None:
    """The bot acts as soon as a person's turn ends: the person's last step is no longer theirs to undo."""
    with serving(tmp_path, bot_delay=60.0) as c:  # a bot that thinks for a minute: its turn is seen waiting
        made = create(c, seats=["human", "bot"], seed=7)
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            view = s.acted({"type": "confirm"}, "deploy", 0)
            assert view["to_move"] == 1
            assert view["can_undo"] is False and view["undo"]["reason"] == "the bot has its turn"
            refused(undo(s, "u-1"), "the bot has its turn")
            assert [r.origin for r in steps(c, tid)] == ["player"]


def test_an_undone_end_of_phase_gives_back_the_time_left_not_a_fresh_timer(tmp_path: Path) -> None:
    """Taking back End Phase reopens the phase with the time it had left (110 s of 120 used: 10 s)."""
    clock = ManualClock()
    with serving(tmp_path, clock=clock) as c:
        made = create(c, timer_seconds=120)
        with pair(c, made) as (s0, s1):
            start = to_movement(s0, s1)
            mover = start["to_move"]
            me, other = (s0, s1) if mover == 0 else (s1, s0)
            assert start["timer"]["remaining"] == 120 and not start["timer"]["held"]
            clock.advance(110)
            ended = me.acted({"type": "end_phase"}, "e-1", mover)
            assert ended["to_move"] == 1 - mover and ended["can_undo"] is True
            assert undo(me, "u-1")["type"] == "ack"
            other.until(lambda m: m["type"] == "view" and m["undo"]["request"] is not None)
            yes = undo(other, "a-yes", 1 - mover, allow=True)
            assert yes["type"] == "ack"
            back = me.view_from(yes["version"])
            assert back["to_move"] == mover
            assert back["timer"]["seat"] == mover and back["timer"]["remaining"] == 10.0
            assert not back["timer"]["held"]
            # And it runs out at its old deadline: 10 s later the phase ends by itself.
            clock.advance(10)
            after = me.until(lambda m: m["type"] == "view" and m["version"] > back["version"])
            assert after["to_move"] == 1 - mover
            assert steps(c, tid := made["id"])[-1].origin == "timer", tid
