"""A whole game of Pig through the table server's HTTP API and WebSocket, with the table's dice: the game of
``kit.py``, step by step, its refusals, its end and its record; then the same game played by two bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.server.kit import JSON, Screen, create, screen, serving, steps, table_token

from iwgt.core.record import GameRecord, replay

from .kit import SEED, SUMMARY, expected_events

pytestmark = pytest.mark.timeout(90)


def pig(c: Any, seats: list[str]) -> JSON:
    """A first_to_30 table at one shared touchscreen, the table's dice seeded as in kit.py."""
    return create(c, game="pig", scenario="first_to_30", seats=seats, mode="shared", seed=SEED)


def choice(view: JSON) -> str:
    """The bot's rule, read off the view: hold at 20 or at what wins, else roll."""
    obs = view["observation"]
    total, score = obs["turn_total"], obs["players"][view["to_move"]]["score"]
    return "hold" if total and (total >= 20 or score + total >= obs["target"]) else "roll"


def refused(s: Screen, seat: int, action: Any, msg_id: str) -> JSON:
    err = s.act(action, msg_id, seat)
    assert err["type"] == "error", err
    return err


def test_a_whole_game_through_the_socket_is_the_game_worked_out_by_hand(tmp_path: Path) -> None:
    # 80 acts as fast as the test can send them: beyond a player's 20 a second (a burst of 40).
    with serving(tmp_path, rate_burst=1000) as c:
        made = pig(c, ["human", "human"])
        tid = made["id"]
        assert made["table"]["seat_names"] == ["Anna", "Bruno"] and made["table"]["game"] == "pig"
        with screen(c, tid, table_token(made)) as s:
            welcome, first = s.seen[0], s.seen[1]
            assert welcome["seats"] == [0, 1] and welcome["names"] == ["Anna", "Bruno"]
            assert first["version"] == 0 and first["to_move"] == 0 and first["timer"] is None
            assert first["options"] == {"movable": [], "actions": [{"type": "roll"}]}
            assert first["lights"] == [] and first["cards"] == [] and first["report"] is None

            # Refusals answer with the reason and change nothing.
            assert refused(s, 0, {"type": "hold"}, "h0")["message"].startswith("roll at least once")
            assert refused(s, 1, {"type": "roll"}, "r1")["error"] == "not_your_turn"
            assert refused(s, 0, {"type": "fly"}, "f0")["error"] == "malformed"
            assert refused(s, 0, "roll", "s0")["error"] == "malformed"
            assert steps(c, tid) == []

            batches: list[list[JSON]] = []
            texts: list[list[str]] = []
            view, n = first, 0
            while view["status"] == "playing":
                n += 1
                view = s.acted({"type": choice(view)}, f"a{n}", view["to_move"])
                batches.append(view["log"][-1]["events"])
                texts.append(view["log"][-1]["text"])
            assert batches == expected_events()
            # The log's words are Pig's (iwgt_pig/words.py): a roll and a hold say nothing, their events do.
            assert [len(t) for t in texts] == [len(b) for b in batches]
            banked = batches[-1][0]["banked"]
            assert texts[-1] == [f"Anna holds: banks {banked}, 34 in all", "Anna wins with 34"]
            assert view["version"] == SUMMARY["steps"] and view["to_move"] is None
            obs = view["observation"]
            assert [p["score"] for p in obs["players"]] == SUMMARY["scores"]
            assert obs["result"] == {"winner": 0, "name": "Anna"} and obs["turn"] == SUMMARY["turns"]
            assert view["result"]["reason"] == SUMMARY["reason"]
            assert view["result"]["outcomes"] == ["win", "loss"]
            assert refused(s, 1, {"type": "roll"}, "late")["error"] == "over"

        summary = c.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "over" and summary["steps"] == 77 and summary["turn"] == 9
        record = GameRecord.from_json(c.get(f"/api/tables/{tid}/record").json())
    assert [s.seat for s in record.steps].count(-1) == 37  # every face is the table's
    out = replay(record)
    assert out.steps == 77 and out.state.scores == (34, 23)


def test_two_bots_play_the_same_game_on_their_own(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = pig(c, ["bot", "bot"])
        with screen(c, made["id"], table_token(made)) as s:
            assert s.seen[0]["seats"] == []  # a spectator: every seat is the bot's
            end = s.wait_for(lambda m: m["type"] == "view" and m["status"] == "over", timeout=30)
        assert [p["score"] for p in end["observation"]["players"]] == SUMMARY["scores"]
        assert end["version"] == SUMMARY["steps"]
        assert {r.origin for r in steps(c, made["id"])} == {"bot", "auto"}
