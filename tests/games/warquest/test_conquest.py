"""WarQuest conquest cards: every objective kind true and false on hand-built states, and the scoring at the
end of the holder's turn (WQ-SU-09, designed WQ-MS-34)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from iwgt.games.warquest import conquest
from iwgt.games.warquest.events import CardsDealt, HandDealt
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import Decks

from .cards_kit import fake_map, make_state

MAP = fake_map()


def _holds(own: Sequence[str], kind: str, params: dict[str, Any], others: Sequence[str] = ()) -> bool:
    """Whether the objective holds for seat 0 owning ``own`` (seat 1 owning ``others``)."""
    owners = {r: 0 for r in own} | {r: 1 for r in others}
    return conquest.holds(make_state(owners=owners), 0, kind, params, MAP)  # type: ignore[arg-type]


def test_kingdom_regions() -> None:
    """`kingdom_regions {vandar, 2}`: one region of Vandar is not enough, two are; seat 1's do not count."""
    p = {"kingdom": "vandar", "count": 2}
    assert not _holds(["vandar_1", "aldmark_1"], "kingdom_regions", p, others=["vandar_2"])
    assert _holds(["vandar_1", "vandar_3"], "kingdom_regions", p)


def test_kingdom_capital() -> None:
    """`kingdom_capital {vandar}`: the town and the countryside are not the capital (vandar_1)."""
    p = {"kingdom": "vandar"}
    assert not _holds(["vandar_2", "vandar_3", "aldmark_1"], "kingdom_capital", p)
    assert _holds(["vandar_1"], "kingdom_capital", p)


def test_kingdom_all() -> None:
    """`kingdom_all {vandar}`: two of three regions fail; all three hold."""
    p = {"kingdom": "vandar"}
    assert not _holds(["vandar_1", "vandar_2"], "kingdom_all", p, others=["vandar_3"])
    assert _holds(["vandar_1", "vandar_2", "vandar_3"], "kingdom_all", p)


def test_cities() -> None:
    """`cities {3}`: vandar_1 and vandar_2 are cities, vandar_3 and goblin_1 not (2); aldmark_2 makes 3."""
    own = ["vandar_1", "vandar_2", "vandar_3", "goblin_1"]
    assert not _holds(own, "cities", {"count": 3})
    assert _holds([*own, "aldmark_2"], "cities", {"count": 3})


def test_regions() -> None:
    """`regions {6}`: five owned regions fail, six hold (a people's land counts too)."""
    five = ["vandar_1", "vandar_2", "aldmark_3", "goblin_1", "elf_2"]
    assert not _holds(five, "regions", {"count": 6}, others=["orc_1"])
    assert _holds([*five, "orc_1"], "regions", {"count": 6})


def test_kingdoms() -> None:
    """`kingdoms {3}`: Vandar twice, Aldmark and a goblin land are 2 kingdoms; corwen_3 makes 3."""
    own = ["vandar_1", "vandar_2", "aldmark_3", "goblin_1"]
    assert not _holds(own, "kingdoms", {"count": 3})
    assert _holds([*own, "corwen_3"], "kingdoms", {"count": 3})


def test_lands() -> None:
    """`lands {goblin}`: an elf land is not enough; a goblin land holds."""
    assert not _holds(["elf_1", "vandar_1"], "lands", {"people": "goblin"}, others=["goblin_1"])
    assert _holds(["goblin_2"], "lands", {"people": "goblin"})


def test_unknown_objective_is_refused() -> None:
    """The objective kinds are a closed list."""
    with pytest.raises(ValueError, match="unknown conquest objective"):
        _holds([], "glory", {})


def _card(key: str) -> int:
    """A conquest card id by its key."""
    return next(i for i, c in rules().conquests.items() if c.key == key)


@pytest.fixture(autouse=True)
def stand_in_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_conquests reads the scenario's map: the stand-in map here."""
    monkeypatch.setattr(conquest, "load_map", lambda key: MAP)


def test_objective_holds_reads_the_card() -> None:
    """Card "throne_vandar" (kingdom_capital vandar) holds for the owner of vandar_1 only."""
    s = make_state(owners={"vandar_1": 1})
    assert conquest.objective_holds(s, 1, _card("throne_vandar"))
    assert not conquest.objective_holds(s, 0, _card("throne_vandar"))


def test_score_conquests_scores_reveals_and_replaces() -> None:
    """WQ-MS-34 designed: at the end of seat 1's turn, "throne_vandar" (3 VP) holds and "crown_vandar" does
    not: VP 4 + 3 = 7, the card goes to the scored ones, the top card (friend_of_goblins, which would hold)
    is drawn but not scored this turn; the drawn card is told to its holder only."""
    throne, crown, goblins, other = (
        _card("throne_vandar"),
        _card("crown_vandar"),
        _card("friend_of_goblins"),
        _card("broad_lands"),
    )
    s = make_state(
        owners={"vandar_1": 1, "goblin_1": 1},
        decks=Decks(conquest=(goblins, other)),
        seat1={"conquests": (throne, crown), "vp": 4},
    )
    s2, events = conquest.score_conquests(s, 1)
    p = s2.players[1]
    assert p.vp == 7 and p.scored_conquests == (throne,) and p.conquests == (crown, goblins)
    assert s2.decks.conquest == (other,)
    assert events == [
        conquest.ConquestScored(1, throne, 3),
        HandDealt(1, "conquest", (goblins,)),
        CardsDealt(1, "conquest", 1),
    ]
    assert events[1].visible_to(1) and not events[1].visible_to(0)


def test_score_conquests_two_at_once_and_an_empty_deck() -> None:
    """Two objectives holding score both (2 + 3 = 5 VP); the empty deck gives no replacement: the hand
    shrinks; nothing holding changes nothing."""
    foothold, throne = _card("foothold_vandar"), _card("throne_vandar")
    s = make_state(owners={"vandar_1": 0, "vandar_2": 0}, seat0={"conquests": (foothold, throne)})
    s2, events = conquest.score_conquests(s, 0)
    assert s2.players[0].vp == 5 and s2.players[0].conquests == ()
    assert s2.players[0].scored_conquests == (foothold, throne)
    assert [e.kind for e in events] == ["ConquestScored", "ConquestScored"]
    s3, events = conquest.score_conquests(make_state(seat0={"conquests": (foothold,)}), 0)
    assert events == [] and s3.players[0].conquests == (foothold,)


def test_every_shipped_card_reads_on_the_shipped_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    """WQ-MS-34: every one of the 40 cards has an objective of the closed list and its parameters name a
    kingdom or people of both shipped maps (nobody owning anything: nothing holds)."""
    from iwgt.games.warquest.maps import load_map

    monkeypatch.setattr(conquest, "load_map", load_map)
    assert len(rules().conquests) == 40
    for key in ("myrathia", "marches"):
        m = load_map(key)
        s = make_state()
        for card, c in rules().conquests.items():
            assert c.objective in conquest.OBJECTIVES
            assert not conquest.holds(s, 0, c.objective, c.params, m), card
        every = {r: 0 for r in m.regions}
        s = make_state(owners=every)
        assert all(
            conquest.holds(s, 0, c.objective, c.params, m)
            for c in rules().conquests.values()
            if c.objective != "regions" or int(c.params["count"]) <= len(m.regions)
        )
