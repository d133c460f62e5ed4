"""Valhalla in words (games/valhalla/words.py): every event class and every action has its sentence or is
deliberately silent, a few sentences checked by hand, and a combat, a shot and a Dice of Death worded in one
place: the log, the dice report and the command line's report say the same sentence.

The skirmish scenario: 0 Ulf the Bold (Ulf's hero, the Raiders), 5 Svein the slinger (Asa's, the Farmers);
thing 0 the silver hoard; obstacle 0 a hedge.
"""

from __future__ import annotations

import inspect
from typing import Any, get_args

from rich.console import Console

from iwgt.core.plugin import Words, sentences
from iwgt.core.protocol import Event
from iwgt.core.registry import get_game, get_plugin
from iwgt.games.valhalla import actions as act
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.report import print_events
from iwgt.games.valhalla.state import ValhallaState
from iwgt.games.valhalla.words import SILENT, SILENT_ACTIONS

GAME: Any = get_game("valhalla")
_words = get_plugin("valhalla").words()
assert _words is not None
WORDS: Words = _words
HERO, SLINGER, HOARD, HEDGE = 0, 5, 0, 0


def skirmish() -> ValhallaState:
    state: ValhallaState = GAME.initial_state(GAME.load_scenario("skirmish"))
    return state


SAMPLES: list[Event] = [
    ev.TurnBegan(2),
    ev.CardDealt(0, 0, "A♣"),
    ev.CardUp(0, 0, "A♣"),
    ev.CardPassed(1, 1, "A♦", "no figure of this player is left to activate"),
    ev.FigureActivated(HERO, 1),
    ev.ActivationEnded(HERO),
    ev.FigureMoved(HERO, ((16.0, 3.0), (16.0, 9.0)), 6.0),
    ev.ObstacleCrossed(HERO, HEDGE, (16.0, 17.55)),
    ev.Charged(HERO, SLINGER, (22.0, 21.5)),
    ev.Withdrew(HERO, (20.0, 21.0)),
    ev.Fought(HERO, SLINGER, 2, 5, 3, 5, 0, 1),
    ev.ShotFired(SLINGER, HERO, 5, 5, True, 7.5, True),
    ev.SavingThrow(HERO, 1, "killed"),
    ev.FigureHurt(HERO, 2, 0),
    ev.FigureKilled(SLINGER),
    ev.Recovered(HERO, 1),
    ev.ThingPickedUp(HERO, HOARD),
    ev.ThingDropped(HERO, HOARD, (20.0, 21.0)),
    ev.BaggageMoved(HOARD, ((1.0, 1.0), (20.0, 2.0))),
    ev.CoinsWon(1, 2, "Ulf the Bold went to Valhalla", 2),
    ev.ObjectiveAchieved(0, 0, "Carry the silver hoard back"),
    ev.TurnEnded(2),
    ev.GameOver(None, "the turns ran out with the coins even"),
]
"""One event of every class."""


def test_every_event_class_has_a_sample_and_a_sentence_or_is_deliberately_silent() -> None:
    classes = {
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, Event) and cls.__module__ == ev.__name__
    }
    assert {type(e) for e in SAMPLES} == classes  # a new event class needs a sample here
    assert classes >= SILENT
    obs = GAME.observe(skirmish(), 0)
    for e in SAMPLES:
        said = WORDS.event(e, obs, 0)
        if type(e) in SILENT:
            assert said is None, e
        else:
            assert isinstance(said, str) and said.endswith(".") and "None" not in said, (e, said)
            assert WORDS.event(e, obs, 1) == said == WORDS.event(e, obs, None)  # Valhalla hides nothing


def test_sentences_by_hand() -> None:
    obs = GAME.observe(skirmish(), 1)

    def say(e: Event) -> str | None:
        return WORDS.event(e, obs, 1)

    assert say(ev.Fought(HERO, SLINGER, 2, 5, 3, 5, 0, 1)) == (
        "Combat: Ulf the Bold rolls 2 (scores 3), Svein the slinger rolls 5 (scores 5): "
        "1 hit on Ulf the Bold."
    )
    assert say(ev.Fought(HERO, SLINGER, 4, 4, 4, 4, 0, 0)) == (
        "Combat: Ulf the Bold rolls 4 (scores 4), Svein the slinger rolls 4 (scores 4): no hits."
    )
    assert say(ev.ShotFired(SLINGER, HERO, 5, 5, True, 7.5, True)) == (
        'Shot at Ulf the Bold (7.5", in cover, needs 5+): Svein the slinger rolls 5, a hit.'
    )
    assert say(ev.SavingThrow(HERO, 1, "killed")) == "Dice of Death for Ulf the Bold: 1, goes to Valhalla."
    assert say(ev.SavingThrow(HERO, 6, "none")) == "Dice of Death for Ulf the Bold: 6, no effect."
    assert say(ev.FigureHurt(HERO, 0, 0)) == "Ulf the Bold is unhurt now."
    assert say(ev.FigureHurt(HERO, 1, 0)) == "Ulf the Bold now has 1 shock marker."
    assert say(ev.FigureHurt(HERO, 2, 0)) == "Ulf the Bold now has 2 shock markers."
    assert say(ev.FigureHurt(HERO, 0, 1)) == "Ulf the Bold is now wounded."
    assert say(ev.FigureHurt(HERO, 1, 1)) == "Ulf the Bold now has 1 shock marker and is wounded."
    assert say(ev.Recovered(HERO, 1)) == "Ulf the Bold recovers from shock (1 shock marker left)."
    assert say(ev.Recovered(HERO, 0)) == "Ulf the Bold recovers from shock (no shock marker left)."
    assert say(ev.FigureActivated(HERO, 1)) == "Ulf the Bold activates (1 action)."
    assert say(ev.CoinsWon(1, 2, "Ulf the Bold went to Valhalla", 2)) == (
        "Farmers win 2 coins: Ulf the Bold went to Valhalla (2 in all)."
    )
    assert say(ev.GameOver(None, "the turns ran out")) == "Game over: a draw (the turns ran out)."


def test_every_action_is_worded_or_told_by_its_events() -> None:
    obs = GAME.observe(skirmish(), 0)
    samples: list[act.Action] = [
        act.Move(HERO, (16.0, 9.0)),
        act.Cross(HERO, HEDGE),
        act.Charge(HERO, SLINGER),
        act.Withdraw(HERO, (20.0, 21.0)),
        act.Fight(HERO, SLINGER),
        act.PickUp(HERO, HOARD),
        act.Drop(HERO),
        act.Recover(HERO),
        act.Shoot(SLINGER, HERO),
        act.EndActivation(),
        act.MoveBaggage(HOARD, (20.0, 2.0)),
    ]
    assert {type(a) for a in samples} == set(get_args(act.Action))
    said = {}
    for a in samples:
        as_json = GAME.action_view(a, 1, 0)
        said[as_json["type"]] = WORDS.action(as_json, 1, obs, 0)
    assert {k for k, v in said.items() if v is None} == SILENT_ACTIONS
    assert said["shoot"] == "Asa: Svein the slinger shoots at Ulf the Bold."
    assert said["fight"] == "Asa: Ulf the Bold fights on against Svein the slinger."
    assert said["end_activation"] == "Asa: ends the activation."


def test_one_wording_of_the_dice_in_the_log_the_report_and_the_command_line() -> None:
    state = skirmish()
    obs = GAME.observe(state, 0)
    rolls: list[Event] = [
        ev.Fought(HERO, SLINGER, 9, 2, 10, 2, 2, 0),
        ev.SavingThrow(SLINGER, 3, "two_shock"),
        ev.ShotFired(SLINGER, HERO, 2, 5, False, 6.0, False),
    ]
    log = sentences(WORDS, {"type": "charge", "figure": HERO, "target": SLINGER}, 0, rolls, obs, 1)
    adapter = get_plugin("valhalla").table()
    assert adapter is not None
    report = adapter.report(obs, rolls)
    assert report is not None
    assert [r["text"] for r in report["dice"]] == log  # the charge itself is told by its Charged event
    console = Console(record=True, width=300, highlight=False)
    print_events(console, state, rolls)
    assert [line.strip() for line in console.export_text().splitlines()] == log
    assert log[1] == "Dice of Death for Svein the slinger: 3, two shock markers."
