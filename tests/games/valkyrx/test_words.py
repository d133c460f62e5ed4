"""Days of the Valkyrx in words (games/valkyrx/words.py): every event class and every action has its sentence
or is deliberately silent, a few sentences checked by hand, names taken from the seat's observation, a hidden
unit and a secret order never named to the other seat, and the command line's report saying the same words.

The sorcery scenario's units (ids from sorcery.toml): 0 Wulfgeldre Warrior Wizard, 2 the Grima, 5 the
Guardsmen, 8 the Archers of the Light; 13 the Sand Worm, 14 Pocâdl, 16 the Wickermen, 17 the Wearg Warriors of
the Darkness.
"""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any, get_args

import pytest
from rich.console import Console

from iwgt.core.plugin import Words, sentences
from iwgt.core.protocol import JSON, Event
from iwgt.core.registry import get_game, get_plugin
from iwgt.games.valkyrx import actions as act
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.report import print_events
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.words import SILENT
from iwgt.geometry.hexgrid import offset_to_hex

GAME: Any = get_game("valkyrx")
_words = get_plugin("valkyrx").words()
assert _words is not None
WORDS: Words = _words
WIZARD, GRIMA, GUARDS, ARCHERS, WORM, POCADL, WICKERMEN, WEARGS = 0, 2, 5, 8, 13, 14, 16, 17
HER = "The Grima (of the mask) (L2)"


def sorcery() -> ValkyrxState:
    state: ValkyrxState = GAME.initial_state(GAME.load_scenario("sorcery"))
    return state


def hidden_grima() -> ValkyrxState:
    """The Grima in stealth: her owner (the Light) still has her cell, the Darkness does not."""
    state = sorcery()
    return state.with_unit(replace(state.units[GRIMA], hidden=True))


SAMPLES: list[Event] = [
    ev.UnitPlaced(GUARDS, (5, 2)),
    ev.DeploymentConfirmed(1),
    ev.FirstMoverChosen(3, 1),
    ev.MovementPhaseStarted(3, 0, (GUARDS, ARCHERS)),
    ev.TroopsArrived(GUARDS, (0, 3)),
    ev.UnitMoved(ARCHERS, (6, 0), (6, 1), 1.0, compulsory=True),
    ev.TerrainCasualties(GUARDS, 12.5, "quicksand"),
    ev.TemplePrayer(GUARDS, True, 5),
    ev.TrollDevoured(WEARGS, WICKERMEN, 20.0),
    ev.ContactMade(GUARDS, POCADL, True),
    ev.AttackResolved(ARCHERS, WEARGS, "missile", 3.0, 12.25, ("range",)),
    ev.CloseCombatOutcome(GUARDS, POCADL),
    ev.MoraleChanged(GUARDS, 10.0, 8.0, ("casualties",)),
    ev.UnitRouted(ARCHERS),
    ev.UnitRallied(ARCHERS),
    ev.UnitRemoved(WICKERMEN, "burnt to ashes"),
    ev.DeadRaised(WEARGS, 30.0),
    ev.CombatReport(2, ()),
    ev.GameOver(0, "the Darkness has nothing left on the table"),
    ev.SpellsChosen(0, WIZARD, ("fire",) * 6, False),
    ev.SpellCast(WIZARD, "fire", "Fire", 5, 0.1),
    ev.SpellFizzled(WIZARD, "plague", "no unit in range can carry the plague"),
    ev.SpellResisted(POCADL, "fire"),
    ev.SpellTookEffect(WIZARD, "strength", (GUARDS, ARCHERS), (), 2, 3),
    ev.SpellEnded(WIZARD, "strength", "denied (VX-SP-DENY-2)"),
    ev.SpellCasualties(WEARGS, "fire", 66.666),
    ev.UnitRestored(GUARDS, 183.7),
    ev.UnitTransported(GUARDS, (2, 2), (9, 6)),
    ev.LavaSpread(WIZARD, ((1, 1), (1, 2))),
    ev.ArmageddonRolled(WIZARD, False),
    ev.PlagueCarrierChosen(GUARDS, POCADL),
    ev.UnitInfected(ARCHERS),
    ev.PlagueLosses(ARCHERS, 15.0),
    ev.PlagueCured(ARCHERS),
    ev.CarrierCured(GUARDS),
    ev.PlagueChain(((1, GUARDS, POCADL, True), (2, ARCHERS, GUARDS, False))),
    ev.TitanCracked(WEARGS),
    ev.UnitConcealed(GRIMA),
    ev.UnitRevealed(GRIMA, (5, 3)),
    ev.QuarryChosen(0, GRIMA, POCADL),
    ev.HiddenMove(0, GRIMA, (10, 1), (9, 2)),
    ev.GrimaStruck(GRIMA, POCADL, False),
    ev.WormSurfaced(WORM, (7, 2), (7, 2), GUARDS, 100.0),
]
"""One event of every class, with the Light (seat 0) owning the private ones."""


def event_classes() -> set[type[Event]]:
    """Every concrete event class of the game (not the private and secret bases)."""
    found = {
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, Event) and cls.__module__ == ev.__name__
    }
    return found - {ev.PrivateEvent, ev.SecretEvent}


def test_every_event_class_has_a_sample_and_a_sentence_or_is_deliberately_silent() -> None:
    assert {type(e) for e in SAMPLES} == event_classes()  # a new event class needs a sample here
    assert event_classes() >= SILENT
    obs = GAME.observe(sorcery(), 0)
    for e in SAMPLES:
        said = WORDS.event(e, obs, 0)
        if type(e) in SILENT:
            assert said is None, e
        else:
            assert isinstance(said, str) and said.endswith((".", "!")) and "None" not in said, (e, said)


def test_sentences_by_hand() -> None:
    obs = GAME.observe(sorcery(), 0)

    def say(e: Event) -> str | None:
        return WORDS.event(e, obs, 0)

    assert say(ev.FirstMoverChosen(3, 1)) == "Turn 3: the Darkness moves first."
    assert say(ev.SpellCasualties(WEARGS, "fire", 66.666)) == "Wearg Warriors (D17) loses 67 men to Fire."
    assert say(ev.ContactMade(GUARDS, POCADL, True)) == (
        "Contact: Guardsmen of Mynsterlif (L5) and Pocâdl - Bringer of Plaque (Demon) (D14) "
        "(arrived late: they fight from next turn)."
    )
    assert say(ev.UnitRemoved(WICKERMEN, "fled")) == "Wickermen (D16) flees the field."
    assert say(ev.UnitRemoved(WICKERMEN, "burnt to ashes")) == (
        "Wickermen (D16) is removed from the table: burnt to ashes."
    )
    assert say(ev.WormSurfaced(WORM, (7, 2), (7, 3), GUARDS, 100.0)) == (
        "Sand Worm (D13) breaks the surface at [7, 3], swallowing 100 men of Guardsmen of Mynsterlif (L5)."
    )
    assert (
        say(ev.WormSurfaced(WORM, (7, 2), (7, 3), None, 0.0))
        == "Sand Worm (D13) breaks the surface at [7, 3]."
    )
    assert say(ev.PlagueChain(((1, GUARDS, POCADL, True), (2, ARCHERS, GUARDS, False)))) == (
        "The plague: turn 1: Guardsmen of Mynsterlif (L5): the first carrier, by Pocâdl - Bringer of Plaque "
        "(Demon) (D14)'s spell; turn 2: Archers of Mynsterlif (L8): from Guardsmen of Mynsterlif (L5)."
    )
    assert (
        say(ev.GameOver(None, "a draw: the turns ran out"))
        == "Game over: a draw (a draw: the turns ran out)."
    )
    assert say(ev.UnitMoved(ARCHERS, (6, 0), (6, 1), 1.0)) is None  # an ordinary move: its action says it


def test_every_action_is_worded_as_the_seat_sees_it() -> None:
    obs = GAME.observe(sorcery(), 0)
    h = offset_to_hex
    samples: dict[str, tuple[act.Action, str]] = {
        "place": (
            act.PlaceUnit(GUARDS, h(5, 2)),
            "The Light: places Guardsmen of Mynsterlif (L5) at [5, 2].",
        ),
        "confirm": (act.ConfirmDeployment(), "The Light: confirms the deployment."),
        "move": (
            act.Move(GUARDS, h(5, 3), charge=True),
            "The Light: moves Guardsmen of Mynsterlif (L5) to [5, 3] (charge).",
        ),
        "end_phase": (act.EndPhase(), "The Light: ends the phase."),
        "spells": (
            act.ChooseSpells(WIZARD),
            "The Light: arms Wulfgeldre Warrior Wizard (L0) with his default pack.",
        ),
        "cast": (
            act.CastSpell(WIZARD, "transportation", h(4, 4)),
            "The Light: Wulfgeldre Warrior Wizard (L0) casts Transportation at [4, 4].",
        ),
        "transport": (
            act.Transport(GUARDS, h(9, 6)),
            "The Light: sends Guardsmen of Mynsterlif (L5) through the portal to [9, 6].",
        ),
        "conceal": (act.Conceal(GRIMA), f"The Light: {HER} goes into hiding."),
        "reveal": (act.Reveal(GRIMA), f"The Light: {HER} comes into sight."),
        "quarry": (act.SetQuarry(GRIMA, POCADL), f"The Light: {HER} chooses her quarry."),
        "tunnel": (act.Tunnel(GRIMA, h(9, 2)), f"The Light: {HER} tunnels."),
        "surface": (act.Surface(GRIMA, h(9, 2)), f"The Light: {HER} is ordered up at [9, 2]."),
        "add_troops": (
            act.AddTroops(GUARDS, h(0, 3)),
            "The Light: brings Guardsmen of Mynsterlif (L5) onto the table at [0, 3].",
        ),
    }
    for kind, (action, words) in samples.items():
        as_json = GAME.action_view(action, 0, 0)
        assert as_json["type"] == kind
        assert WORDS.action(as_json, 0, obs, 0) == words, kind
    assert {type(a) for a, _ in samples.values()} == set(get_args(act.Action))  # every action class is here
    # The other seat sees a secret order as only that, whatever the order was.
    dark = GAME.observe(sorcery(), 1)
    for action in (
        act.ChooseSpells(WIZARD, ("fire",) * 6),
        act.SetQuarry(GRIMA, POCADL),
        act.Tunnel(GRIMA, h(9, 2)),
    ):
        seen = GAME.action_view(action, 0, 1)
        assert WORDS.action(seen, 0, dark, 1) == "The Light: gives a secret order."


def test_a_hidden_unit_is_never_named_to_the_other_seat() -> None:
    state = hidden_grima()
    light, dark = GAME.observe(state, 0), GAME.observe(state, 1)
    secret = [
        ev.QuarryChosen(0, GRIMA, POCADL),
        ev.HiddenMove(0, GRIMA, (10, 1), (9, 2)),
        ev.PlagueCarrierChosen(GUARDS, POCADL),
    ]
    for e in secret:
        assert WORDS.event(e, dark, 1) is None
        assert WORDS.event(e, dark, None) is None  # a spectator neither
    assert WORDS.event(secret[1], light, 0) == (
        f"{HER} moves unseen from [10, 1] to [9, 2], by herself, after her quarry."
    )  # the table moved her (VX-12-04): her owner gave no order
    assert WORDS.event(secret[2], light, 0) is None  # the first carrier: no player, not even the caster's
    # A spell's list of units leaves out one hidden from the seat (her owner reads her name).
    took = ev.SpellTookEffect(WIZARD, "strength", (GRIMA, GUARDS), (), 2, 3)
    assert WORDS.event(took, dark, 1) == "Strength acts on Guardsmen of Mynsterlif (L5)."
    assert WORDS.event(took, light, 0) == f"Strength acts on {HER}, Guardsmen of Mynsterlif (L5)."
    # A whole step as the server words it for each seat: her order and where she went are the Light's.
    quarry = GAME.action_to_json(act.SetQuarry(GRIMA, POCADL))
    for seat, obs in ((1, dark), (None, GAME.observe(state, None))):
        seen = GAME.action_view(act.SetQuarry(GRIMA, POCADL), 0, seat)
        text = sentences(WORDS, seen, 0, secret, obs, seat)
        assert text == ["The Light: gives a secret order."]
        assert not any("Grima" in t or "Pocâdl" in t or "[9, 2]" in t for t in text)
    assert sentences(WORDS, quarry, 0, secret, light, 0) == [
        f"The Light: {HER} chooses her quarry.",
        f"{HER} hunts Pocâdl - Bringer of Plaque (Demon) (D14).",
        f"{HER} moves unseen from [10, 1] to [9, 2], by herself, after her quarry.",
    ]


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_command_line_report_says_the_game_s_words(seat: int | None) -> None:
    state = hidden_grima()
    obs: JSON = GAME.observe(state, seat)
    told = [
        ev.FirstMoverChosen(3, 1),
        ev.SpellCast(WIZARD, "fire", "Fire", 5, 0.1),
        ev.SpellCasualties(WEARGS, "fire", 66.666),
        ev.UnitInfected(ARCHERS),
        ev.HiddenMove(0, GRIMA, (10, 1), (9, 2)),
        ev.UnitRemoved(WICKERMEN, "burnt to ashes"),
    ]
    silent = [
        ev.MoraleChanged(GUARDS, 10.0, 8.0, ("casualties",)),
        ev.AttackResolved(8, 17, "melee", 1, 2, ()),
    ]
    console = Console(record=True, width=300, highlight=False)
    assert print_events(console, state, [*told, *silent, ev.CombatReport(3, ())], seat) == []
    printed = console.export_text()
    lines = [line.strip() for line in printed.splitlines() if line.strip()]
    expected = [w for e in told if (w := WORDS.event(e, obs, seat)) is not None]
    assert lines[: len(expected)] == [
        "☠ " + w if w.endswith("catches the plague.") else w for w in expected
    ]  # the skull beside an infected unit (VX-SP-PLAGUE-7) is the report's own mark
    assert ("moves unseen" in printed) == (seat == 0)
    assert "Report after the combat round of turn 3" in lines[len(expected)]
