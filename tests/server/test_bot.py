"""Bot seats: the server plays them on its own, through the same validate-journal-broadcast path."""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import create, moving, screen, seat_token, serving, steps, table_token

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("seed", [7, 8], ids=["bot-first", "human-first"])
def test_the_bot_deploys_and_moves_on_its_own(tmp_path: Path, seed: int) -> None:
    with serving(tmp_path) as c:
        made = create(c, seats=["human", "bot"], seed=seed)
        tid = made["id"]
        assert made["links"]["seats"][1] is None
        with screen(c, tid, seat_token(made, 0)) as s:
            assert s.last_view()["to_move"] == 0
            s.acted({"type": "confirm"}, "deploy", 0)
            # The bot confirms its deployment, the table rolls who moves first; then the movement phases go by
            # until the bot has moved: the human ends his phases, the bot takes its own.
            for i in range(20):
                v = s.until(moving(0), timeout=20)
                if any(r.origin == "bot" and r.action["type"] == "move" for r in steps(c, tid)):
                    break
                s.acted({"type": "end_phase"}, f"end-{i}", 0)
            else:
                raise AssertionError("the bot never moved")
            rows = steps(c, tid)
            by_bot = [r for r in rows if r.origin == "bot"]
            assert by_bot[0].action == {"type": "confirm"}  # its deployment
            assert all(r.seat == 1 for r in by_bot)
            assert by_bot[-1].action == {"type": "end_phase"}  # it ends its own phase
            assert all(r.client_id is not None and r.client_id.startswith("bot:") for r in by_bot)
            # The human's screen saw the bot's moves, one view per step, and the log tells them.
            bot_moves = [r.action for r in by_bot if r.action["type"] == "move"]
            logged = [e["action"] for e in v["log"] if e["actor"] == 1]
            assert all(m in logged for m in bot_moves)
            assert v["version"] == len(rows)


def test_two_bots_play_while_the_table_watches(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, seats=["bot", "bot"], scenario="skirmish", seed=3)
        assert made["links"]["seats"] == [None, None]
        with screen(c, made["id"], table_token(made)) as watcher:
            first = watcher.last_view()
            assert first["seats"] == [] and first["seat"] is None  # a spectator's view
            later = watcher.until(lambda m: m["type"] == "view" and m["observation"]["turn"] >= 2, timeout=30)
            assert later["options"] == {"movable": [], "actions": []}
            watcher.send({"type": "act", "id": "x", "seat": 0, "action": {"type": "end_phase"}})
            err = watcher.until(lambda m: m["type"] == "error")
            assert err["error"] == "unauthorized"
            watcher.send({"type": "quit", "id": "q"})
            assert watcher.until(lambda m: m["type"] == "error")["error"] == "unauthorized"


def test_a_player_cannot_squat_the_bot_s_own_message_id(tmp_path: Path) -> None:
    """The bot still moves when a player sends, before it, the id the bot will use."""
    with serving(tmp_path) as c:
        made = create(c, seats=["human", "bot"], seed=8)  # the Light (the human) moves first
        tid = made["id"]
        with screen(c, tid, seat_token(made, 0)) as s:
            s.acted({"type": "confirm"}, "deploy", 0)
            v = s.wait_for(moving(0))
            answer = s.act({"type": "end_phase"}, f"bot:{v['version'] + 1}", 0)
            assert answer["type"] == "error" and answer["error"] == "malformed"  # the server's own id
            s.acted({"type": "end_phase"}, "end", 0)
            s.until(lambda m: m["type"] == "view" and m["log"][-1]["actor"] == 1, timeout=10)
            assert any(r.origin == "bot" for r in steps(c, tid)[v["version"] :])
