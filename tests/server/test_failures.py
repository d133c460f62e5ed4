"""When the journal refuses a write: nothing changes, the table's dice included, and the table resumes."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from .kit import create, pair, screen, seat_token, serving, steps

pytestmark = pytest.mark.timeout(60)


def test_a_failed_commit_changes_nothing_and_the_table_still_resumes(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, seed=7)  # the table's d2 rolls 2, then 1: a lost roll would show
        tid = made["id"]
        journal = c.app.state.manager.journal  # type: ignore[attr-defined]
        with pair(c, made) as (s0, s1):
            s0.acted({"type": "confirm"}, "c0", 0)
            real = journal.append
            failures = []

            def broken(*args: Any, **kw: Any) -> None:
                failures.append(args)
                raise sqlite3.OperationalError("disk I/O error")

            journal.append = broken
            try:
                err = s1.act({"type": "confirm"}, "c1", 1)  # the confirm and the first-mover d2 it brings
            finally:
                journal.append = real
            assert failures and err["type"] == "error"
            assert "Traceback" not in err["message"]
            assert len(steps(c, tid)) == 1
            assert c.get(f"/api/tables/{tid}").json()["steps"] == 1
            v = s1.acted({"type": "confirm"}, "c1-again", 1)  # the same step once the disk is back
            live = v["observation"]["first_mover"]
        assert [r.origin for r in steps(c, tid)] == ["player", "player", "auto"]
        assert steps(c, tid)[2].action == {"face": 2}  # the table's first roll, not its second
        assert live == 1
    with serving(tmp_path) as c:  # the journal replays: every auto die re-rolled to the same face
        r = c.get(f"/api/tables/{tid}")
        assert r.status_code == 200, r.text
        with screen(c, tid, seat_token(made, 0)) as s0:
            assert s0.last_view()["observation"]["first_mover"] == live
