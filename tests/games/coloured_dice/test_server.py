"""The Coloured-Dice rules through the server, as a remote seat sees them: the game card with its set-up
choices, a view with lights, cards and the log in the game's words, a selection (moves, range bands, targets
with odds) and previews through the socket, and the set-up choices written into the recorded scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.server.kit import create, pair, serving

pytestmark = pytest.mark.timeout(300)


def test_the_game_card_offers_rounds_and_first_turn(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        cards = {card["name"]: card for card in c.get("/api/games").json()}
    card = cards["coloured-dice"]
    assert card["playable"] is True and card["title"] == "Coloured-Dice Fantasy Battle Rules"
    assert {s["name"] for s in card["scenarios"]} >= {"skirmish", "battle", "river_crossing"}
    options = {o["key"]: o for o in card["setup_options"]}
    assert set(options) == {"rounds", "first"}
    assert [ch["value"] for ch in options["rounds"]["choices"]] == ["scenario", "4", "6", "8", "10"]


def test_a_view_a_selection_and_a_preview_through_the_socket(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(c, game="coloured-dice", scenario="skirmish", seed=3, options={"rounds": "6"})
        record = c.get(f"/api/tables/{made['id']}/record").json()
        assert "rounds = 6" in record["scenario"]["toml"]  # the choice is in the record (CD-MS-02 designed)
        with pair(c, made) as (s0, _):
            view = s0.last_view()
            assert view["observation"]["game"] == "coloured-dice" and view["observation"]["rounds"] == 6
            movable = view["options"]["movable"]
            assert movable and all(isinstance(u, int) for u in movable)
            assert any(light["effect"] == "movable" and light.get("area") for light in view["lights"])
            assert [card["seat"] for card in view["cards"]] == [0, 1] and view["cards"][0]["mine"] is True
            archers = next(u["id"] for u in view["observation"]["units"] if u["key"] == "archers")
            s0.send({"type": "select", "seat": 0, "unit": archers})
            sel = s0.until(lambda m: m["type"] == "selection")
            assert sel["unit"] == archers and sel["moves"] and sel["bands"]
            assert [b["to"] for b in sel["bands"]] == [12.0, 24.0, 36.0, 48.0]  # the bow's 12" (CD-RA-02)
            move = sel["moves"][0]["action"]
            s0.send({"type": "preview", "seat": 0, "action": move})
            got = s0.until(lambda m: m["type"] == "preview")
            assert got["legal"] is True and got["move"]["allowance"] == 4.0
            s0.acted(move, "move-1", 0)
            after = s0.last_view()
            said = [line for step in after["log"] for line in step["text"]]
            assert any(line.startswith("The Human archers move to (") for line in said), said
            bad = {"type": "fight", "unit": archers, "target": archers}
            s0.send({"type": "preview", "seat": 0, "action": bad})
            refused = s0.until(lambda m: m["type"] == "preview")
            assert refused["legal"] is False and refused["reason"]
