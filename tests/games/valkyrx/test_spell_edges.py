"""Edge cases found in review: hidden facts must not shape public dice or lights, one portal per cell, a
sleeper does no harm even to itself, a commanded unit may use its master's portal, and an Armageddon dies
with its caster."""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import ChanceOutcome
from iwgt.games.valkyrx.actions import CastSpell, Transport
from iwgt.games.valkyrx.combat import close_combat_plan
from iwgt.games.valkyrx.events import PlagueCured, SpellTookEffect
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.spells import armageddon_due, target_options
from iwgt.games.valkyrx.state import Enchantment, Infection

from .kit import GAME, cell, tweak
from .test_spells import advance, of, plague_position, setup, throw


def test_vx_sp_plague_4_a_hidden_first_carrier_stays_a_candidate_so_the_die_gives_nothing_away() -> None:
    # Candidates of plague_position: Guardsmen 0 and Wearg Warriors 6 (a d2). Make the Guardsmen a hidden
    # first carrier: the die must still be a d2, or its size would tell both seats who carries it.
    healthy = plague_position()
    carrying = tweak(plague_position(), 0, carrier_only=True, infected=1, plague_base=300.0)
    for state in (healthy, carrying):
        state, _ = GAME.apply(state, CastSpell(4, "plague"))
        assert (state.pending[0].sides, state.pending[0].secret) == (2, True)
    # The die falls on the carrier: nothing changes, and the public events are those of any cast.
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert state.units[0].carrier_only and state.units[0].infected == 1
    assert of(events, SpellTookEffect)[0].units == ()


def test_vx_sp_cure_2_a_former_first_carrier_that_now_sickens_is_lit_like_any_other() -> None:
    # Guardsmen 1 was the first carrier, caught the plague back and now sickens (skull): Cure lights it,
    # because what it shows now is public; only a unit that is a first carrier now stays unlit.
    state = setup(
        [("circan", (4, 4)), ("guardsmen", (5, 4))],
        [("wearg_warriors", (11, 8))],
        packs={0: ("cure_plague", "fire", "ice", "courage", "speed", "shield")},
    )
    state = tweak(state, 1, infected=1, plague_base=300.0)
    state = replace(state, plague_chain=(Infection(1, 1, 9, True), Infection(1, 1, 2, False)))
    state, events = throw(state, 0, "cure_plague")
    assert PlagueCured(1) in events
    assert of(events, SpellTookEffect)[0].units == (1,)


def test_vx_sp_transport_2_one_portal_per_cell() -> None:
    # Circan 0 (5,4) opens his portal at (6,4); Lefan 2 (7,4) also stands beside (6,4): it is not offered.
    state = setup(
        [("circan", (5, 4)), ("guardsmen", (0, 0))],
        [("lefan", (7, 4)), ("wearg_warriors", (11, 8))],
        packs={
            0: ("transportation", "fire", "ice", "courage", "speed", "shield"),
            2: ("transportation", "fire", "ice", "courage", "speed", "deny_magic"),
        },
    )
    state, _ = throw(state, 0, "transportation", (6, 4))
    assert cell(6, 4) not in target_options(state, state.units[2], spells()["transportation"])


def test_vx_sp_sleep_2_a_sleeper_under_disharmony_does_not_even_strike_itself() -> None:
    state = setup(
        [("guardsmen", (5, 4))],
        [("waerloga", (5, 6)), ("ellorgast", (6, 6))],
        first=1,
        packs={
            1: ("sleep", "fire", "ice", "courage", "speed", "shield"),
            2: ("disharmony", "fire", "ice", "courage", "speed", "shield"),
        },
    )
    state, _ = throw(state, 1, "sleep")
    state, _ = throw(state, 2, "disharmony")
    assert [(a.attacker, a.target) for a in close_combat_plan(state)] == []


def test_vx_sp_command_2_a_commanded_unit_is_offered_its_masters_portal() -> None:
    # Turn 2: Circan's portal at (6,4) is open for the Light; the Wearg Warriors 2, fighting for the Light,
    # stand on it after their move.
    state = setup(
        [("circan", (5, 4)), ("guardsmen", (0, 0))],
        [("wearg_warriors", (8, 4)), ("lefan", (11, 8))],
        packs={0: ("transportation", "fire", "ice", "courage", "speed", "shield")},
    )
    state, _ = throw(state, 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    assert state.mover == 0
    state = tweak(state, 2, controller=0, cell=cell(6, 4), moved=True)
    offered = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Transport) and a.unit == 2]
    assert offered
    state, _ = GAME.apply(state, offered[0])
    assert state.units[2].cell == offered[0].to


def test_vx_sp_armageddon_1_it_dies_with_its_caster() -> None:
    # Wærloga 1 cast Armageddon in turn 1 (in force turns 2-3): due in turn 2, unless he is gone.
    state = setup([("guardsmen", (5, 4))], [("waerloga", (5, 7))], first=1)
    doom = Enchantment("armageddon", 1, 1, 1, 2, 3)
    state = replace(state, enchantments=(doom,), turn=2)
    assert armageddon_due(state) == [doom]
    assert armageddon_due(tweak(state, 1, status="destroyed", strength=0.0)) == []
