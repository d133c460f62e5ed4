"""The view's log in words (views.py): each log entry's ``text`` per seat, built once per batch, and the
table adapter fed the last step's events typed, with a Days of the Valkyrx table built by hand (no socket).

The sorcery scenario: the Light arms Wulfgeldre (a secret order), both seats confirm their deployment, the
table's d2 says the Light moves first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from iwgt.core.plugin import GamePlugin
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event, GameFacts
from iwgt.core.registry import get_plugin
from iwgt.games.valkyrx import actions as act
from iwgt.games.valkyrx import events as ev
from iwgt.server.snapshot import Batch, Snapshot
from iwgt.server.views import log_for, view_for
from iwgt.table.plain import PlainWords, words_of

PLUGIN = get_plugin("valkyrx")
GAME: Any = PLUGIN.game
CHOSEN = ("fire", "strength", "shield", "courage", "speed", "ice")


def played() -> Snapshot:
    """Three batches: the arming, the Light's then the Darkness's confirmation with the table's d2."""
    state = GAME.initial_state(GAME.load_scenario("sorcery"))
    log: list[Batch] = []
    steps: list[tuple[int, Any]] = [
        (0, act.ChooseSpells(0, CHOSEN)),
        (0, act.ConfirmDeployment()),
        (1, act.ConfirmDeployment()),
    ]
    for seat, action in steps:
        state, events = GAME.apply(state, action)
        log.append(Batch(len(log) + 1, seat, GAME.action_to_json(action), list(events)))
    state, events = GAME.apply(state, ChanceOutcome(1))  # the d2 that followed, in the same batch
    log[-1].events.extend(events)
    return Snapshot(
        table="t-words",
        game=GAME,
        plugin=PLUGIN,
        state=state,
        version=4,
        to_move=0,
        log=tuple(log),
        timer=None,
        die=None,
        dice="table",
        status="playing",
        result=None,
    )


def test_each_log_entry_carries_the_game_s_words_for_its_seat() -> None:
    snap = played()
    armed = "The Light: arms Wulfgeldre Warrior Wizard (L0) with Fire, Strength, Shield, Courage, Speed, Ice."
    light = [e["text"] for e in view_for(snap, 0)["log"]]
    assert light == [
        [armed],  # the SpellsChosen event says nothing: the order said it
        ["The Light: confirms the deployment.", "The Light has deployed."],
        [
            "The Darkness: confirms the deployment.",
            "The Darkness has deployed.",
            "Turn 1: the Light moves first.",
            "The Light: movement phase.",
        ],
    ]
    for seat in (1, None):  # the Darkness and a spectator: the arming was a secret order
        seen = [e["text"] for e in view_for(snap, seat)["log"]]
        assert seen == [["The Light: gives a secret order."], *light[1:]]
    # The log's JSON is as before: the masked action and the events the seat may see.
    first = view_for(snap, 1)["log"][0]
    assert first["action"] == {"type": "secret_order"} and first["events"] == []


def test_a_log_entry_is_worded_once_per_seat_and_batch() -> None:
    snap = played()
    before = view_for(snap, 1)["log"]

    class Blind:
        """The game, but observing is refused: a built entry must not observe again."""

        def __getattr__(self, name: str) -> Any:
            return getattr(GAME, name)

        def observe(self, state: Any, seat: Any) -> Any:
            raise AssertionError("a log entry already built was built again")

    again = log_for(replace(snap, game=Blind()), 1)
    assert all(a is b for a, b in zip(again, before, strict=True))


def test_the_adapter_gets_the_last_step_s_events_typed() -> None:
    snap = played()
    gone = Batch(5, CHANCE, None, [ev.UnitRemoved(17, "fled")])  # the Wearg Warriors at [6, 7]
    view = view_for(replace(snap, log=(*snap.log, gone), version=5), 1)
    assert view["events"] == [{"event": "UnitRemoved", "unit": 17, "why": "fled"}]
    assert view["log"][-1]["text"] == ["Wearg Warriors (D17) flees the field."]  # no actor's sentence
    destroyed = [x for x in view["lights"] if x["effect"] == "destroyed"]
    assert [x["cell"] for x in destroyed] == [[6, 7]]


def test_a_game_without_words_is_worded_plainly() -> None:
    class Wordless(GamePlugin):
        facts = GameFacts("wordless", "Wordless", "no words", "abstract", 2, 2, "w-1")

    words = words_of(Wordless())
    assert isinstance(words, PlainWords)
    assert words.action({"type": "end_phase"}, 1, {}, 1) == "Seat 1: end phase."
    assert words.event(ev.UnitMoved(0, (0, 0), (0, 1), 1.0), {}, 0) == "Unit moved."
    hidden: Event = ev.HiddenMove(0, 2, (1, 1), (1, 2))
    assert words.event(hidden, {}, 1) is None and words.event(hidden, {}, 0) == "Hidden move."
    assert words_of(PLUGIN) is PLUGIN.words()
