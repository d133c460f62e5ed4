"""What went wrong at the table, in words (issue 12, section 3): the first turn has its header in the command
line's report and its sentence in the log, a figure's hurts read as English, and the dice report never
understates a loss: a Dice of Death says what it did when its effect alone does not (a third shock marker is
a wound, VH-ST-09; a second wound kills, VH-ST-12; a fallen figure drops what it carried).

The positions are those of ``test_saves.py``: seat 0's archer (figure 2) at (10,10) shoots seat 1's warrior
(figure 4, "Asa warrior") 6" away at (17,10) with a 6 (close range: a hit), then the Dice of Death is rolled
by hand (a warrior: 1 killed, 2 wounded, 3 two shock markers, 4-5 one, 6 nothing).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from rich.console import Console
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.chance import SeededDice
from iwgt.core.match import Match
from iwgt.core.plugin import sentences
from iwgt.core.protocol import JSON, Event
from iwgt.core.registry import get_plugin
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.actions import Shoot
from iwgt.games.valhalla.report import print_events
from iwgt.games.valhalla.state import ValhallaState
from iwgt.games.valhalla.words import ValhallaWords, save_outcome

from .kit import GAME, act, position, tweak

ARCHER = [(2, 2), (4, 2), (10, 10)]
WARRIOR_AT_17 = [(46, 30), (17, 10), (42, 30)]
WARRIOR = 4
ADAPTER = get_plugin("valhalla").table()
WORDS = ValhallaWords()


def shot_report(state: ValhallaState, save: int) -> tuple[ValhallaState, JSON]:
    """Shoot the warrior with a 6, roll ``save`` for it, and give the dice report of the step."""
    after, events = act(state, Shoot(2, WARRIOR), 6, save)
    assert ADAPTER is not None
    report = ADAPTER.report(GAME.observe(after, 0), events)
    assert report is not None
    return after, report


def the_save(report: JSON) -> JSON:
    saves = [r for r in report["dice"] if r["kind"] == "save"]
    assert len(saves) == 1
    save: JSON = saves[0]
    return save


# -- turn 1 is announced like every other turn ------------------------------------------------------------


def test_the_command_line_report_heads_turn_1_before_its_first_card() -> None:
    result = CliRunner().invoke(app, ["simulate", "valhalla", "--scenario", "first_blood", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = [line.strip("─ ").strip() for line in result.output.splitlines()]
    heads = [i for i, line in enumerate(lines) if re.fullmatch(r"Turn \d+ of 4", line)]
    assert lines[heads[0]] == "Turn 1 of 4"  # first_blood plays four turns
    first_card = next(i for i, line in enumerate(lines) if " is up: " in line)
    assert heads[0] < first_card  # the header comes before turn 1's first card, not after it


def test_the_log_says_turn_1_with_the_first_deal() -> None:
    plugin = get_plugin("valhalla")
    scen = plugin.game.load_scenario("first_blood")
    match = Match(plugin.game, scen, SeededDice(1), 1)
    events = match.resolve_chance()  # the first deal, as the server resolves it when a table opens
    obs = plugin.game.observe(match.state, None)
    said = [WORDS.event(e, obs, None) for e in events]
    assert said[0] == "Turn 1: the cards are shuffled and dealt."
    assert said.count("Turn 1: the cards are shuffled and dealt.") == 1


# -- a Dice of Death never understates a loss ---------------------------------------------------------------


def test_a_plain_shock_marker_says_what_the_figure_now_has() -> None:
    _, report = shot_report(position(ARCHER, WARRIOR_AT_17), 4)
    save = the_save(report)
    assert save["text"] == "Dice of Death for Asa warrior: 4, one shock marker."
    assert save["then"] == "Asa warrior now has 1 shock marker."
    assert save["killed"] is False


def test_a_third_shock_marker_is_reported_as_the_wound_it_is() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), WARRIOR, shock=2)
    after, report = shot_report(state, 4)  # one shock marker more: the third, a wound (VH-ST-09)
    assert (after.figures[WARRIOR].shock, after.figures[WARRIOR].wounds) == (0, 1)
    save = the_save(report)
    assert save["text"] == "Dice of Death for Asa warrior: 4, one shock marker."
    assert save["then"] == "A third shock marker is a wound: Asa warrior is now wounded."
    assert save["killed"] is False
    assert report["coins"] == []  # only a wounded hero scores (VH-WL-03)


def test_a_second_wound_is_reported_as_the_death_it_is() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), WARRIOR, wounds=1)
    after, report = shot_report(state, 2)  # wounded a second time: killed (VH-ST-12)
    assert not after.figures[WARRIOR].alive
    save = the_save(report)
    assert save["words"] == "wounded"
    assert save["then"] == "A second wound: Asa warrior goes to Valhalla."
    assert save["killed"] is True


def test_a_shock_marker_that_kills_a_wounded_figure_says_so() -> None:
    state = tweak(position(ARCHER, WARRIOR_AT_17), WARRIOR, shock=2, wounds=1)
    after, report = shot_report(state, 5)
    assert not after.figures[WARRIOR].alive
    save = the_save(report)
    assert save["then"] == (
        "A third shock marker is a wound, and a second wound: Asa warrior goes to Valhalla."
    )
    assert save["killed"] is True


def test_a_fallen_carrier_drops_its_thing_in_the_report() -> None:
    state = position(ARCHER, WARRIOR_AT_17, extra='[[things]]\nname = "silver hoard"\nat = [30, 20]\n')
    state = tweak(state, WARRIOR, carrying=0)
    state = state.with_thing(replace(state.things[0], at=(17, 10), carrier=WARRIOR))
    _, report = shot_report(state, 1)
    save = the_save(report)
    assert save["killed"] is True
    assert save["then"] == "Asa warrior drops the silver hoard at (17, 10)."


def test_an_effect_that_says_it_all_adds_nothing() -> None:
    _, report = shot_report(position(ARCHER, WARRIOR_AT_17), 1)
    save = the_save(report)
    assert (save["text"], save["then"], save["killed"]) == (
        "Dice of Death for Asa warrior: 1, goes to Valhalla.",
        "",
        True,
    )
    _, report = shot_report(position(ARCHER, WARRIOR_AT_17), 6)
    assert (the_save(report)["then"], the_save(report)["killed"]) == ("", False)


@pytest.mark.parametrize(
    ("effect", "after", "killed", "said"),
    [
        ("two_shock", (2, 0), False, "Ulf now has 2 shock markers."),
        (
            "two_shock",
            (1, 1),
            False,
            "A third shock marker is a wound: Ulf now has 1 shock marker and is wounded.",
        ),
        ("one_shock", (1, 1), False, "Ulf now has 1 shock marker and is wounded."),  # the wound was there
        ("wounded", (0, 1), False, "Ulf is now wounded."),
        ("wounded", None, True, "A second wound: Ulf goes to Valhalla."),
        ("killed", None, True, ""),
        ("none", None, False, ""),
    ],
)
def test_save_outcome_by_hand(effect: str, after: tuple[int, int] | None, killed: bool, said: str) -> None:
    assert save_outcome(effect, "Ulf", after, killed) == said


def test_two_saves_in_one_step_each_tell_their_own_figure() -> None:
    state = position(ARCHER, WARRIOR_AT_17)
    obs = GAME.observe(state, 0)
    events: list[Event] = [
        ev.Fought(0, WARRIOR, 9, 1, 10, 1, 2, 0),
        ev.SavingThrow(WARRIOR, 4, "one_shock"),
        ev.FigureHurt(WARRIOR, 1, 0),
        ev.SavingThrow(WARRIOR, 3, "two_shock"),
        ev.FigureHurt(WARRIOR, 0, 1),
    ]
    assert ADAPTER is not None
    report = ADAPTER.report(obs, events)
    assert report is not None
    assert [r.get("then") for r in report["dice"]] == [
        None,
        "Asa warrior now has 1 shock marker.",
        "A third shock marker is a wound: Asa warrior is now wounded.",
    ]
    # The log and the command line tell the same step event by event, in the same words.
    log = sentences(WORDS, {"type": "charge", "figure": 0, "target": WARRIOR}, 0, events, obs, 1)
    console = Console(record=True, width=300, highlight=False)
    print_events(console, state, events)
    assert [line.strip() for line in console.export_text().splitlines()] == log
    assert "Asa warrior is now wounded." in log
