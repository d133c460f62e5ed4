"""WarQuest's set-up choices through the table server (``GamePlugin.setup_options`` / ``configure``): the
game selection offers ``players`` and ``rounds``, and a table created with five warlords on the standard map
records a scenario of five seats (WQ-MS-44); a count the map cannot seat is refused naming the map."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.server.kit import create, serving


def test_the_game_selection_offers_players_and_rounds(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        cards = {card["name"]: card for card in c.get("/api/games").json()}
    card = cards["warquest"]
    assert [o["key"] for o in card["setup_options"]] == ["players", "rounds"]
    assert card["facts"]["players"] == [2, 5] and card["facts"]["geometry"] == "regions"


def test_five_warlords_chosen_on_the_standard_map(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        made = create(
            c,
            game="warquest",
            scenario="short",
            seats=["human"] * 5,
            options={"players": "5", "rounds": "10"},
        )
        record = c.get(f"/api/tables/{made['id']}/record").json()
    scenario = tomllib.loads(record["scenario"]["toml"])
    assert (scenario["players"], scenario["rounds"], scenario["map"]) == (5, 10, "myrathia")


def test_a_count_the_map_cannot_seat_is_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as c:
        r = c.post(
            "/api/tables",
            json={
                "game": "warquest",
                "scenario": "duel",
                "seats": ["human"] * 4,
                "mode": "remote",
                "dice": "table",
                "timer_seconds": 0,
                "seed": 7,
                "options": {"players": "4"},
            },
        )
    assert r.status_code in (400, 422), r.text
    assert "the map 'marches' seats 2 to 2 warlords, not 4" in r.text
