"""Forged upon an Anvil in words (games/anvil/words.py): every event class has its sentence or is
deliberately silent, a sealed bid of the other seat is only "X has bid" until both are revealed, a few
sentences checked by hand, and the headless report prints the same sentences a spectator's log shows."""

from __future__ import annotations

import inspect
from typing import Any

from rich.console import Console
from tests.games.anvil.kit import place, table

from iwgt.core.plugin import sentences
from iwgt.core.protocol import Event
from iwgt.games.anvil import actions as act
from iwgt.games.anvil import combat_events as ce
from iwgt.games.anvil import events as ev
from iwgt.games.anvil.game import AnvilGame
from iwgt.games.anvil.report import print_events
from iwgt.games.anvil.state import AnvilState
from iwgt.games.anvil.words import SILENT, SILENT_ACTIONS, AnvilWords

GAME = AnvilGame()
WORDS = AnvilWords()


def skirmish() -> AnvilState:
    state: AnvilState = GAME.initial_state(GAME.load_scenario("skirmish"))
    return state


def event_classes() -> list[type[Event]]:
    """Every concrete event class the game defines."""
    out = []
    for module in (ev, ce):
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Event) and obj.__module__ == module.__name__ and obj is not ev.PrivateEvent:
                out.append(obj)
    return out


def sample(cls: type[Event]) -> Event:
    """An instance with plausible values, built from the dataclass fields' annotations."""
    values: dict[str, Any] = {}
    for name, p in inspect.signature(cls).parameters.items():
        hint = str(p.annotation)
        if "tuple[XY" in hint or hint.startswith("tuple[tuple[float"):
            values[name] = ((1.0, 2.0), (3.0, 4.0), (5.0, 2.0))
        elif "tuple[tuple[str" in hint:
            values[name] = (("Pikemen",), ("Spearmen",))
        elif "tuple[str" in hint:
            values[name] = ("FA-CRM-01",)
        elif "tuple[int" in hint:
            values[name] = (3, 4)
        elif hint.startswith("XY") or "tuple[float" in hint:
            values[name] = (1.5, 2.5)
        elif "bool" in hint:
            values[name] = False
        elif "float" in hint:
            values[name] = 2.5
        elif "str" in hint:
            values[name] = "march" if name in ("key", "spell") else "front" if name == "side" else "why"
        else:
            values[name] = 1
    return cls(**values)


def test_every_event_speaks_or_is_deliberately_silent() -> None:
    obs = GAME.observe(skirmish(), 1)
    classes = event_classes()
    assert len(classes) >= 35
    for cls in classes:
        e = sample(cls)
        said = WORDS.event(e, obs, 1)
        if cls in SILENT:
            assert said is None, cls.__name__
        else:
            assert said and said.endswith("."), cls.__name__


def test_every_action_is_told_by_its_events() -> None:
    assert set(SILENT_ACTIONS) == set(act.TYPES)
    obs = GAME.observe(skirmish(), 0)
    assert WORDS.action({"type": "bid", "amount": 4}, 0, obs, 0) is None
    assert WORDS.action({"type": "flourish"}, 0, obs, 0) == "The Iron Crown: flourish."


def test_a_sealed_bid_is_only_has_bid_to_the_other_seat_until_revealed() -> None:
    state = skirmish()
    while state.phase != "terrain_bid":
        seat = GAME.to_move(state)
        state, _ = GAME.apply(state, GAME.legal_actions(state, seat)[0])
    after, events = GAME.apply(state, act.TerrainBid(4))
    own = sentences(WORDS, {"type": "terrain_bid", "amount": 4}, 0, events, GAME.observe(after, 0), 0)
    view = GAME.action_view(act.TerrainBid(4), 0, 1)
    other = sentences(WORDS, view, 0, events, GAME.observe(after, 1), 1)
    spectator = sentences(
        WORDS, GAME.action_view(act.TerrainBid(4), 0, None), 0, events, GAME.observe(after, None), None
    )
    assert own == [
        "The Iron Crown has bid for the terrain (sealed).",
        "You bid 4 CP for the terrain (sealed until both are in).",
    ]
    assert other == spectator == ["The Iron Crown has bid for the terrain (sealed)."]
    assert not any("4" in line for line in other)
    done, events = GAME.apply(after, act.TerrainBid(1))
    said = sentences(WORDS, None, 1, events, GAME.observe(done, None), None)
    assert "Terrain bids: The Iron Crown 4, The Wild Host 1; The Iron Crown places first." in said


def test_a_combat_in_words() -> None:
    state = table(
        [place(0, "troop", 18, 16, name="Pikemen"), place(1, "troop", 18, 20, name="Spearmen")], cp=(10, 0)
    )
    after, events = GAME.apply(state, act.Engage(0, 1))
    said = sentences(WORDS, None, 0, events, GAME.observe(after, None), None)
    assert said[:3] == [
        'Pikemen engages Spearmen in the front, moving 2.5".',
        "Pikemen strikes Spearmen (front): 2 HP of damage, 2 HP left.",
        'Spearmen bounces back 3" to (18, 23).',
    ]


def test_the_report_prints_what_a_spectator_reads() -> None:
    state = table(
        [place(0, "troop", 18, 16, name="Pikemen"), place(1, "troop", 18, 20, name="Spearmen")], cp=(10, 0)
    )
    after, events = GAME.apply(state, act.Engage(0, 1))
    console = Console(record=True, width=200)
    assert print_events(console, after, events) == []
    text = console.export_text()
    assert "Pikemen strikes Spearmen (front): 2 HP of damage, 2 HP left." in text
    assert 'Spearmen bounces back 3" to (18, 23).' in text


def test_the_report_never_prints_a_sealed_bid_before_both_are_in() -> None:
    state = skirmish()
    while state.phase != "terrain_bid":
        seat = GAME.to_move(state)
        state, _ = GAME.apply(state, GAME.legal_actions(state, seat)[0])
    after, events = GAME.apply(state, act.TerrainBid(3))
    console = Console(record=True, width=200)
    print_events(console, after, events)
    text = console.export_text()
    assert "has bid for the terrain" in text and "3 CP" not in text


def test_the_engines_reason_codes_are_said_in_words() -> None:
    state = table([place(0, "troop", 18, 16, name="Pikemen"), place(1, "war_machine", 18, 20, name="Ram")])
    obs = GAME.observe(state, None)
    stopped = ce.EngageStopped(0, 1, "nate", (18.0, 17.5), 1.5, "FA-EN-03")
    assert WORDS.event(stopped, obs, None) == (
        "Pikemen stops at (18, 17.5), short of Ram: not allowed to engage that side (NATE)."
    )
    held = ce.BounceBlocked(0, "braced", 2)
    assert (
        WORDS.event(held, obs, None) == "Pikemen cannot bounce back (it is braced) and loses 1 HP: 2 HP left."
    )
    slid = ce.BouncedBack(1, (18.0, 20.0), (18.0, 21.0), 1.0, "stops_at")
    assert WORDS.event(slid, obs, None) == (
        'Ram bounces back 1" to (18, 21), stopping 1" short of a unit or impassable terrain.'
    )


def test_a_name_both_sides_use_is_told_by_its_side() -> None:
    units = [place(0, "troop", 18, 16, name="Spears"), place(1, "troop", 18, 20, name="Spears")]
    state = table(units, cp=(10, 0))
    after, events = GAME.apply(state, act.Engage(0, 1))
    said = sentences(WORDS, None, 0, events, GAME.observe(after, None), None)
    assert (
        said[1]
        == "Spears (The Iron Crown) strikes Spears (The Wild Host) (front): 2 HP of damage, 2 HP left."
    )
    placed = ev.SeatPlaced(0, 0, (1.5, 0.75), 0.0)
    state = skirmish()
    while state.phase != "terrain_bid":  # the armies are in: the units (Seats of Power first) are named
        state, _ = GAME.apply(state, GAME.legal_actions(state, GAME.to_move(state))[0])
    obs = GAME.observe(state, None)
    assert WORDS.event(placed, obs, None) == "The Iron Crown places its Seat of Power at (1.5, 0.75)."


def test_a_stratagem_named_by_its_action_key_reads_as_the_text_names_it() -> None:
    obs = GAME.observe(table([place(0, "hero", 18, 16, name="Aldric")]), None)
    used = ce.StratagemUsed(0, 0, "fly_burrow", 2, "FA-SM-01")
    assert WORDS.event(used, obs, None) == "The Iron Crown uses Fly/Burrow with Aldric (2 CP)."


def test_a_sentence_about_a_sides_own_unit_does_not_name_the_side_twice() -> None:
    units = [place(0, "troop", 18, 16, name="Spears"), place(1, "troop", 18, 20, name="Spears")]
    obs = GAME.observe(table(units), None)
    activated = ev.UnitActivated(0, 0, 1, 9, 6.0)
    assert WORDS.event(activated, obs, None) == "The Iron Crown activates Spears (1 CP, 9 left)."
    offered = ce.InterruptionOffered(1, 1, "counterattack")
    assert WORDS.event(offered, obs, None) == "The Wild Host may play Counterattack with Spears."


def test_a_late_generals_deployment_says_what_it_enters_without() -> None:
    obs = GAME.observe(table([place(0, "hero", 18, 16, name="Aldric", general=True)]), None)
    late = ev.UnitDeployed(0, 0, "own", (18.0, 0.75), 0.0, 1, 0, 6.0, ("swiftness", "tough"))
    assert WORDS.event(late, obs, None) == (
        "The Iron Crown deploys Aldric from its own edge at (18, 0.75) (1 CP, 0 left), late, "
        "without Swiftness and Tough."
    )
