"""What went wrong at the table (issue 12, section 3), in the game's own code: the hidden Grima's selection
and card, the report counting every loss of the turn, and the slips in words (plurals, whole men, "-0", the
timer).

Positions come from tests/games/valkyrx/kit.py; the spell helpers from test_spells.py. Every number below is
worked out by hand in its comment.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.actions import Conceal, Reveal, SetQuarry, Surface
from iwgt.games.valkyrx.report import print_events
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.units import unit_types
from iwgt.games.valkyrx.words import amount, number, plural, whole

from .kit import GAME, cell, position, tweak
from .table_kit import ADAPTER, combat_step, play_turn
from .test_spells import setup, throw
from .test_words import WORDS, sorcery

GRIMA, MODROF, SPIDER, WEARGS = 0, 1, 2, 3


def hunt() -> ValkyrxState:
    """L0 the Grima (0,4), L1 Môdrôf (0,8); D2 the Giant Spider (3,4), D3 Wearg Warriors (11,8)."""
    return position(
        [("grima", (0, 4)), ("modrof", (0, 8))], [("giant_spider", (3, 4)), ("wearg_warriors", (11, 8))]
    )


def card(state: ValkyrxState, seat: int, uid: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = ADAPTER.cards(GAME.observe(state, seat), seat)
    return next(c for c in cards if c["unit"] == uid)


# --- 1. the hidden Grima --------------------------------------------------------------------------------


def test_the_hidden_grima_s_selection_is_answered_and_says_what_she_does_and_what_her_owner_may_do() -> None:
    state, _ = GAME.apply(hunt(), Conceal(GRIMA))
    # Picked up, she has no move (concealing was her move), but the table answers, and says why.
    sel = ADAPTER.selection(GAME, state, 0, GRIMA)
    assert sel["moves"] == [] and sel["lights"] == [] and sel["previews"] == []
    assert sel["note"] == (
        "Hidden: she waits unseen where she is until you choose whom she follows (tap Stealth). "
        "She has moved this turn: Reveal her in your next movement phase to command her again."
    )
    assert card(state, 0, GRIMA)["note"] == sel["note"]  # her card says the same
    # With a quarry, what the table will do with her at the end of the phase.
    state, _ = GAME.apply(state, SetQuarry(GRIMA, SPIDER))
    told = (
        "Hidden: she moves by herself once both sides have moved, after "
        "Lâf gangewifre - Giant Spider (D2), and strikes when she reaches it."
    )
    assert ADAPTER.selection(GAME, state, 0, GRIMA)["note"].startswith(told)
    # Next turn, not moved yet: Reveal is hers to order.
    fresh = tweak(state, GRIMA, moved=False)
    assert card(fresh, 0, GRIMA)["note"] == f"{told} Reveal her to command her again."
    # The enemy's card says she hunts, never whom nor where (VX-12-05, VX-12-06).
    enemy = card(state, 1, GRIMA)
    assert enemy["note"] == "Hidden: she hunts one of your characters unseen, and appears only to strike."
    assert "quarry" not in enemy
    # Visible, she says how to hide her; any other character has no note.
    assert card(hunt(), 0, GRIMA)["note"].startswith("Visible: she moves like any unit.")
    assert "note" not in card(hunt(), 0, MODROF)


def test_the_grima_just_revealed_is_answered_too() -> None:
    state, _ = GAME.apply(hunt(), Conceal(GRIMA))
    state = tweak(state, GRIMA, moved=False)  # a later turn: she has not moved yet
    state, _ = GAME.apply(state, Reveal(GRIMA))  # her move for the turn
    sel = ADAPTER.selection(GAME, state, 0, GRIMA)
    assert sel["moves"] == []
    assert sel["note"] == (
        "Visible: she moves like any unit. Conceal her and the table moves her by herself, unseen. "
        "The Grima (of the mask) cannot move now: it has already moved this turn."
    )


def test_a_move_order_for_the_hidden_grima_is_refused_in_words_about_her_not_the_table() -> None:
    state, _ = GAME.apply(hunt(), Conceal(GRIMA))
    refused = ADAPTER.preview(GAME, state, 0, {"type": "move", "unit": GRIMA, "to": [1, 4]})
    assert refused["legal"] is False
    assert "she is hidden: the table moves her by herself" in refused["reason"]
    assert "no longer on the table" not in refused["reason"]


def test_the_underground_worm_s_selection_tells_its_owner_the_orders() -> None:
    state = position([("guardsmen", (0, 0))], [("sand_worm", (3, 4)), ("wearg_warriors", (11, 8))], first=1)
    state = tweak(state, 1, hidden=True)
    assert ADAPTER.selection(GAME, state, 1, 1)["note"].startswith(
        "Underground: he moves by your orders only"
    )


# --- 2. the report counts every loss of the turn ------------------------------------------------------------


def test_the_report_counts_the_slaughtered_sleepers_and_the_wizard_s_price_of_casting() -> None:
    # test_spells' Sleep position: the Wearg Warriors (D2, 300 men) in contact are slaughtered in their sleep.
    state = setup(
        [("wulfgeldre", (5, 4)), ("guardsmen", (3, 4))],
        [("wearg_warriors", (2, 4)), ("wickermen", (3, 3)), ("wearg_archers", (7, 4)), ("lefan", (11, 8))],
        packs={0: ("sleep", "fire", "ice", "courage", "speed", "shield")},
    )
    state, _ = throw(state, 0, "sleep", faces=(100, 1, 100))
    assert state.units[2].status == "destroyed"
    assert state.units[0].casualties_turn == 0.0  # the price of casting is no casualty for morale (VX-10-15)
    after, events = combat_step(state)
    report = next(e for e in events if isinstance(e, ev.CombatReport))
    lines = {line.unit: line for line in report.lines}
    assert lines[2].strength == 0.0 and lines[2].casualties == 300.0  # all 300 men, not 0
    assert lines[0].casualties == pytest.approx(1.0 - lines[0].strength)  # his bar fell from 1.0 to it
    # Each army's loss this turn is what its bar fell by in turn 1 (every unit started whole; none raised).
    rep = ADAPTER.report(GAME.observe(after, 0), events)
    assert rep is not None
    for army in rep["armies"]:
        assert army["lost_this_turn"] == pytest.approx(1.0 - army["share"], abs=2e-3), army


def test_the_grima_s_kill_and_a_spent_swallowed_remnant_are_lost_in_full() -> None:
    # The Grima strikes at the spider and kills (top face of the d2): the spider's whole self is lost.
    state, _ = GAME.apply(hunt(), Conceal(GRIMA))
    state, _ = GAME.apply(state, SetQuarry(GRIMA, SPIDER))
    _, events = combat_step(state, face=2)
    assert ev.GrimaStruck(GRIMA, SPIDER, True) in events
    line = next(x for e in events if isinstance(e, ev.CombatReport) for x in e.lines if x.unit == SPIDER)
    assert (line.strength, line.casualties) == (0.0, 1.0)
    # The worm swallows 100 of 100.5 men: the half man left is no unit (under one man, VX-14-10), so the
    # report counts all 100.5, not 100 for a unit shown at 0/300.
    worm = position([("guardsmen", (6, 4))], [("sand_worm", (3, 4)), ("wearg_warriors", (11, 8))], first=1)
    worm = tweak(tweak(worm, 1, hidden=True), 0, strength=100.5)
    worm, _ = GAME.apply(worm, Surface(1, cell(6, 4)))
    worm, _ = GAME.apply(worm, ChanceOutcome(3))
    assert worm.units[0].status == "destroyed" and worm.units[0].casualties_turn == pytest.approx(100.5)
    last = play_turn(worm)
    line = next(
        x for _, es in last for e in es if isinstance(e, ev.CombatReport) for x in e.lines if x.unit == 0
    )
    assert line.casualties == pytest.approx(100.5)


# --- 7. words -----------------------------------------------------------------------------------------------


def test_whole_men_plurals_and_no_minus_zero() -> None:
    assert [whole(x) for x in (7.3, 7.5, 0.4, 66.666)] == [7, 8, 0, 67]
    assert plural(1, "casualty", "casualties") == "1 casualty" and plural(2, "man", "men") == "2 men"
    assert amount(1.2, character=False) == "1 man"
    assert amount(0.3, character=False, noun="casualty", nouns="casualties") == "under 1 casualty"
    assert amount(0.157, character=True) == "16% of its strength"
    assert amount(0.004, character=True) == "under 1% of its strength"
    assert number(-0.04) == "0" and number(-0.5) == "-0.5" and number(2.0) == "2"
    obs = GAME.observe(sorcery(), 0)
    # sorcery: 0 Wulfgeldre (a character), 8 the Archers, 17 the Wearg Warriors.
    say = lambda e: WORDS.event(e, obs, 0)  # noqa: E731
    assert say(ev.AttackResolved(8, 17, "missile", 1.0, 1.2, ())) == (
        "Archers of Mynsterlif (L8) shoots at Wearg Warriors (D17): 1 casualty."
    )
    assert say(ev.AttackResolved(17, 0, "melee", 1.0, 0.157, ())) == (
        "Wearg Warriors (D17) fights Wulfgeldre Warrior Wizard (L0): 16% of its strength."
    )
    assert say(ev.AttackResolved(8, 17, "missile", 1.0, 7.3, ())).endswith(": 7 casualties.")
    assert say(ev.AttackResolved(8, 17, "missile", 1.0, 0.0, ())).endswith(": no casualties.")
    assert say(ev.TerrainCasualties(8, 75.0, "quicksand")) == (
        "Archers of Mynsterlif (L8) loses 75 men in the quicksand."
    )
    assert say(ev.DeadRaised(17, 30.4)) == "30 men of the slain rise to march with Wearg Warriors (D17)."


def test_a_phase_the_timer_ended_says_the_time_ran_out() -> None:
    obs = GAME.observe(sorcery(), 1)
    ended = {"type": "end_phase", "timeout": True}  # as the server words a step of origin "timer"
    assert WORDS.action(ended, 1, obs, 1) == "The Darkness: the movement timer runs out, and the phase ends."
    assert WORDS.action({"type": "end_phase"}, 1, obs, 1) == "The Darkness: ends the phase."


def test_no_unit_name_starts_in_lower_case() -> None:
    assert [t.name for t in unit_types().values() if not t.name[:1].isupper()] == []
    assert unit_types()["astigend"].name == "Astigend - Dragon of the Ancients (fire)"


def test_the_command_line_report_counts_whole_men_and_a_sliver() -> None:
    state = sorcery()
    lines = (
        ev.ReportLine(8, "Archers of Mynsterlif", "light", 292.7, 300.0, 7.3, 25.0, "Standard", "active"),
        ev.ReportLine(5, "Guardsmen of Mynsterlif", "light", 299.6, 300.0, 0.4, 30.0, "Standard", "active"),
        ev.ReportLine(0, "Wulfgeldre Warrior Wizard", "light", 0.843, 1.0, 0.157, 35.7, "Standard", "active"),
    )
    console = Console(record=True, width=300, highlight=False)
    print_events(console, state, [ev.CombatReport(1, lines)], 0)
    rows = {r.split("│")[1].split()[0]: r for r in console.export_text().splitlines() if "│ light" in r}
    assert " 293/300 " in rows["Archers"] and " 7 " in rows["Archers"] and "7.3" not in rows["Archers"]
    assert " <1 " in rows["Guardsmen"]
    assert " 84% " in rows["Wulfgeldre"] and " 16% " in rows["Wulfgeldre"]
