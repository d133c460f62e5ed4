"""Forged upon an Anvil through the server, as two remote seats see it: a sealed bid never reaches the other
seat before both are in (in the view's observation, events, log words, lights, cards or report), and a
selection and a preview come back through the socket with the table adapter's answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.server.kit import create, pair, serving

pytestmark = pytest.mark.timeout(120)

SECRET = 4
"""Seat 0's terrain bid: the number seat 1 must not learn before it bids itself."""


def leaks(msg: Any) -> list[str]:
    """What in one message of seat 1's tells seat 0's sealed terrain bid."""
    found = []
    if msg.get("type") != "view":
        return found
    obs = msg["observation"]
    if obs["sides"][0]["terrain_bid"] is not None:
        found.append("observation")
    text = json.dumps([msg["events"], msg["log"], msg["lights"], msg["cards"], msg["report"]])
    for word in ("You bid", f"bid {SECRET}", f'"amount": {SECRET}'):
        if word in text:
            found.append(word)
    return found


def test_a_remote_seat_never_receives_the_other_bid_early(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, game="anvil", scenario="skirmish", seed=3)
        with pair(c, made) as (s0, s1):
            for s, seat in ((s0, 0), (s1, 1)):
                view = s.wait_for(lambda m, seat=seat: m["type"] == "view" and m["to_move"] == seat)
                army = next(a for a in view["options"]["actions"] if a["type"] == "army")
                s.acted(army, f"army-{seat}", seat)
            s0.wait_for(lambda m: m["type"] == "view" and m["observation"]["phase"] == "terrain_bid")
            s1.wait_for(lambda m: m["type"] == "view" and m["observation"]["phase"] == "terrain_bid")
            s0.acted({"type": "terrain_bid", "amount": SECRET}, "tb-0", 0)
            own = s0.last_view()
            assert own["observation"]["sides"][0]["terrain_bid"] == SECRET
            assert any("You bid 4 CP for the terrain" in line for step in own["log"] for line in step["text"])
            seen = s1.wait_for(
                lambda m: m["type"] == "view" and m["observation"]["sides"][0]["terrain_bid_in"]
            )
            assert seen["observation"]["sides"][0]["terrain_bid"] is None
            assert [w for m in s1.seen for w in leaks(m)] == []
            s1.wait_for(lambda m: m["type"] == "view" and m["to_move"] == 1)
            s1.acted({"type": "terrain_bid", "amount": 1}, "tb-1", 1)
            after = s1.last_view()
            assert after["observation"]["sides"][0]["terrain_bid"] == SECRET  # both in: both public


def test_a_selection_and_a_preview_come_back_through_the_socket(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, game="anvil", scenario="skirmish", seed=3)
        with pair(c, made) as (s0, _):
            army = next(a for a in s0.last_view()["options"]["actions"] if a["type"] == "army")
            s0.send({"type": "preview", "seat": 0, "action": army})
            got = s0.until(lambda m: m["type"] == "preview")
            assert got["legal"] is True and got["reason"] is None
            bad = {
                "type": "army",
                "units": [{"type": "hero", "name": "Lone", "general": True, "stratagems": []}],
            }
            s0.send({"type": "preview", "seat": 0, "action": bad})
            got = s0.until(lambda m: m["type"] == "preview")
            assert got["legal"] is False and "FA-" in got["reason"]
            s0.send({"type": "select", "seat": 0, "unit": 0})
            sel = s0.until(lambda m: m["type"] == "selection")
            assert sel["unit"] == 0 and "zones" in sel and "targets" in sel
