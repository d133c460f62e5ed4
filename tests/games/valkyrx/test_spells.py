"""Wizards and spells (section 11, the spells table): every expectation computed by hand.

Sources: the clauses (shared/rules/valkyrx-clauses.md, "11 Wizards & spells", "Spells table", "Wizard
hierarchy"), the decisions (notes/issue3-spec.md), data/spells.toml, data/rules.toml [magic] and the
Character Attributes Table (data/units.toml). Numbers used below:

    unit              defence  Resist Magic -> chance (rules.toml [magic.resist])
    Guardsmen           150    H  -> 35
    Wearg Warriors      150    L  -> 10
    Dwarfs              150    VL -> 0 (no die)
    Mægen               700    VL -> 0 (no die)
    Undead Warriors     300    VH -> 50
    Wraiths             600    VH -> 50
    Stone Titan       25000    VH -> 50
    Circan             2000    n/a -> 50 (masters of magic: as VH)
    Lefan Bealocraeft  2500    n/a -> 50
    Wickermen          1000    H  -> 35

Melee arithmetic (as tests/games/valkyrx/test_combat.py): a d100 face 1 at Standard morale is 80%.
Guardsmen: 300 x 15 x 10% = 450 hits x 0.8 = 360 x attack 10 / defence 150 = 24 men.
Wearg Warriors: 300 x 12 x 10% = 360 hits x 0.8 = 288 x attack 8 / defence 150 = 15.36 men.

Board geometry (odd-r offsets): cells of one row are |col difference| apart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from iwgt.cli import app
from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import ChanceOutcome, Event
from iwgt.games.valkyrx import spells as sp
from iwgt.games.valkyrx.actions import (
    CastSpell,
    ChooseSpells,
    ConfirmDeployment,
    EndPhase,
    Move,
    Transport,
)
from iwgt.games.valkyrx.combat import casualties, close_combat_plan, missile_groups
from iwgt.games.valkyrx.events import (
    ArmageddonRolled,
    CarrierCured,
    LavaSpread,
    PlagueCarrierChosen,
    PlagueCured,
    SpellCast,
    SpellCasualties,
    SpellEnded,
    SpellFizzled,
    SpellResisted,
    SpellsChosen,
    SpellTookEffect,
    TitanCracked,
    UnitRemoved,
    UnitTransported,
)
from iwgt.games.valkyrx.movement import allowance, why_not_move
from iwgt.games.valkyrx.spellbook import default_pack, spells, why_not_choose_spells
from iwgt.games.valkyrx.state import Attack, Infection, ValkyrxState
from iwgt.games.valkyrx.units import unit_types

from .kit import GAME, cell, make, position, tweak

T = unit_types()


# --- helpers ------------------------------------------------------------------------------------------


def to_spells(state: ValkyrxState) -> ValkyrxState:
    """From an open movement phase, end both movement phases: the spells step opens."""
    while state.phase == "movement" and not state.pending:
        state, _ = GAME.apply(state, EndPhase())
    assert state.phase == "spells", (state.phase, state.pending)
    return state


def setup(
    light: Sequence[tuple[str, tuple[int, int]]],
    dark: Sequence[tuple[str, tuple[int, int]]],
    *,
    first: int = 0,
    packs: dict[int, tuple[str, ...]] | None = None,
    **kw: Any,
) -> ValkyrxState:
    """A position in turn 1 at its spells step, wizards' spells set by unit id."""
    state = position(light, dark, first=first, **kw)
    for uid, pack in (packs or {}).items():
        state = tweak(state, uid, spells=pack)
    return to_spells(state)


def throw(
    state: ValkyrxState,
    uid: int,
    spell: str,
    target: tuple[int, int] | None = None,
    faces: Iterable[int] = (),
) -> tuple[ValkyrxState, list[Event]]:
    """Cast, then answer the spell's dice: ``faces`` in order, then 100 (no resist) / 2 for the rest."""
    action = CastSpell(uid, spell, None if target is None else cell(*target))
    state, events = GAME.apply(state, action)
    queue = list(faces)
    while state.pending and state.pending[0].kind in ("resist", "spell"):
        face = queue.pop(0) if queue else (100 if state.pending[0].kind == "resist" else 2)
        state, more = GAME.apply(state, ChanceOutcome(face))
        events += more
    assert not queue, f"faces left over: {queue}"
    return state, events


def advance(
    state: ValkyrxState, turn: int, *, phase: str = "spells", first: int = 0
) -> tuple[ValkyrxState, list[Event]]:
    """Play on without moving or casting to the ``phase`` ("spells" or "movement") of ``turn``.

    Dice: ``first`` moves first every turn, no unit resists, every random factor is face 1. A spell die or
    an Armageddon die on the way is an error: tests answer those themselves.
    """
    events: list[Event] = []
    while not (state.turn == turn and state.phase == phase and not state.pending):
        assert state.result is None, state.result
        assert state.turn <= turn, f"turn {turn} {phase} was skipped"
        if state.pending:
            kind = state.pending[0].kind
            assert kind not in ("spell", "armageddon"), kind
            face = first + 1 if kind == "first_mover" else 100 if kind == "resist" else 1
            state, more = GAME.apply(state, ChanceOutcome(face))
        else:
            state, more = GAME.apply(state, EndPhase())
        events += more
    return state, events


def of(events: Iterable[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def snapshot(state: ValkyrxState) -> str:
    return json.dumps(GAME.state_to_json(state), sort_keys=True)


# A bystander wizard of the other side, out of the spell's range, keeps the spells step open
# after the caster's seat is done, so the state stays in the casting turn.

# --- data: the table and the packs (VX-SP-GEN-1, VX-11-*) ----------------------------------------------

PRINTED = [
    # id, duration, range, timing (clauses VX-SP-*-1; "following" as decided for Command, Speed, Transport)
    ("sleep", 1, 5, "immediate", "VX-SP-SLEEP-1"),
    ("fear", 2, 5, "immediate", "VX-SP-FEAR-1"),
    ("command", 3, 5, "following", "VX-SP-COMMAND-1"),
    ("fire", 1, 5, "immediate", "VX-SP-FIRE-1"),
    ("strength", 2, 5, "immediate", "VX-SP-STRENGTH-1"),
    ("resurrection", 1, 5, "immediate", "VX-SP-RESURRECT-1"),
    ("transportation", 3, 1, "following", "VX-SP-TRANSPORT-1"),
    ("earthquake", 1, 5, "immediate", "VX-SP-QUAKE-1"),
    ("disharmony", 1, 5, "immediate", "VX-SP-DISHARMONY-1"),
    ("shield", 3, "local", "immediate", "VX-SP-SHIELD-1"),
    ("weakness", 2, 5, "immediate", "VX-SP-WEAKNESS-1"),
    ("ice", 1, 5, "immediate", "VX-SP-ICE-1"),
    ("plague", 1, 5, "immediate", "VX-SP-PLAGUE-1"),
    ("cure_plague", 1, 5, "immediate", "VX-SP-CURE-1"),
    ("deny_magic", 1, 10, "immediate", "VX-SP-DENY-1"),
    ("dismiss_dead", 1, 5, "immediate", "VX-SP-DISMISS-1"),
    ("armageddon", 2, "all", "following", "VX-SP-ARMAGEDDON-1"),
    ("creeping_death", 3, 5, "immediate", "VX-SP-CREEP-1"),
    ("lead_boots", 3, 5, "immediate", "VX-SP-LEADBOOTS-1"),
    ("speed", 3, 5, "following", "VX-SP-SPEED-1"),
    ("courage", 3, 5, "immediate", "VX-SP-COURAGE-1"),
]

RED = {"sleep", "command", "resurrection", "plague", "armageddon", "creeping_death"}


def test_vx_sp_gen_1_twenty_one_spells_in_table_order() -> None:
    assert list(spells()) == [row[0] for row in PRINTED]
    assert len(spells()) == 21
    assert spells()["dismiss_dead"].name == "Dismiss Dead/Wraiths"


@pytest.mark.parametrize(("sid", "duration", "reach", "timing", "clause"), PRINTED)
def test_vx_sp_each_spell_duration_range_and_timing_as_printed(
    sid: str, duration: int, reach: int | str, timing: str, clause: str
) -> None:
    s = spells()[sid]
    assert (s.duration, s.range, s.timing) == (duration, reach, timing), clause
    # In force t .. t+d-1 (immediate) or t+1 .. t+d (following), cast in turn 5:
    assert s.in_force(5) == ((5, 4 + duration) if timing == "immediate" else (6, 5 + duration)), clause


def test_vx_sp_in_force_turns_by_hand() -> None:
    assert spells()["fear"].in_force(3) == (3, 4)  # VX-SP-FEAR-1: 2 turns from this turn
    assert spells()["command"].in_force(3) == (4, 6)  # VX-SP-COMMAND-1: the following three turns
    assert spells()["armageddon"].in_force(3) == (4, 5)  # VX-SP-ARMAGEDDON-1: "Turn 2" is t+1
    assert spells()["shield"].reach() == 0  # "Local"
    assert spells()["armageddon"].reach() is None  # "All"
    assert spells()["deny_magic"].reach() == 10  # VX-SP-DENY-3


def test_vx_11_09_red_spells_are_the_six_decided() -> None:
    assert {sid for sid, s in spells().items() if s.red} == RED


def test_vx_11_02_vx_11_08_a_pack_is_exactly_six_different_spells() -> None:
    wulf = T["wulfgeldre"]
    six = ("fire", "strength", "resurrection", "command", "deny_magic", "shield")
    assert why_not_choose_spells(wulf, six, spells()) is None
    problem = why_not_choose_spells(wulf, six[:5], spells())
    assert problem is not None and "exactly 6" in problem and "not 5" in problem
    problem = why_not_choose_spells(wulf, (*six, "ice"), spells())
    assert problem is not None and "not 7" in problem
    problem = why_not_choose_spells(
        wulf, ("fire", "fire", "strength", "command", "deny_magic", "shield"), spells()
    )
    assert problem is not None and "twice" in problem
    problem = why_not_choose_spells(
        wulf, ("fireball", "strength", "resurrection", "command", "deny_magic", "shield"), spells()
    )
    assert problem is not None and "fireball" in problem


@pytest.mark.parametrize("wizard", ["circan", "ellorgast", "lefan"])
def test_vx_11_09_vx_11_10_lesser_wizards_take_no_red_spell(wizard: str) -> None:
    pack = ("sleep", "fire", "ice", "fear", "courage", "speed")
    problem = why_not_choose_spells(T[wizard], pack, spells())
    assert problem is not None and "lesser wizard" in problem and "Sleep" in problem
    # 15 lesser spells are left to them (21 - 6 red):
    assert len([s for s in spells().values() if not s.red]) == 15
    assert (
        why_not_choose_spells(T[wizard], ("fire", "ice", "fear", "courage", "speed", "shield"), spells())
        is None
    )


@pytest.mark.parametrize("master", ["wulfgeldre", "waerloga"])
def test_vx_11_09_masters_may_take_red_spells(master: str) -> None:
    pack = ("sleep", "command", "resurrection", "plague", "armageddon", "creeping_death")
    assert why_not_choose_spells(T[master], pack, spells()) is None


DEFAULTS = {
    "wulfgeldre": ("fire", "strength", "resurrection", "command", "deny_magic", "shield"),
    "circan": ("ice", "courage", "speed", "cure_plague", "deny_magic", "transportation"),
    "waerloga": ("sleep", "plague", "creeping_death", "weakness", "fear", "deny_magic"),
    "ellorgast": ("fear", "weakness", "lead_boots", "disharmony", "earthquake", "shield"),
    "lefan": ("fire", "ice", "strength", "speed", "courage", "deny_magic"),
}


@pytest.mark.parametrize("wizard", sorted(DEFAULTS))
def test_vx_15_05_default_packs_as_decided_and_valid(wizard: str) -> None:
    assert default_pack(T[wizard]) == DEFAULTS[wizard]
    assert why_not_choose_spells(T[wizard], DEFAULTS[wizard], spells()) is None


def test_vx_11_01_the_wizards_are_the_five_decided() -> None:
    assert {t.id for t in T.values() if t.has("wizard")} == set(DEFAULTS)
    assert {t.id for t in T.values() if t.has("master_wizard")} == {"wulfgeldre", "waerloga"}


def deploying() -> ValkyrxState:
    """Deployment open for the Light: Wulfgeldre 0, Circan 1, Guardsmen 2; Wærloga 3, Ellorgast 4."""
    scen = make(
        [("wulfgeldre", (1, 1)), ("circan", (2, 1)), ("guardsmen", (3, 1))],
        [("waerloga", (1, 7)), ("ellorgast", (2, 7))],
    )
    return GAME.initial_state(scen)


def test_vx_11_02_vx_15_06_choose_spells_at_deployment() -> None:
    state = deploying()
    legal = GAME.legal_actions(state, 0)
    assert ChooseSpells(0, ()) in legal and ChooseSpells(1, ()) in legal  # the default pack is offered
    assert ChooseSpells(2, ()) not in legal  # the Guardsmen hold no spells
    custom = ("sleep", "fire", "ice", "courage", "speed", "shield")
    state, events = GAME.apply(state, ChooseSpells(0, custom))
    assert state.units[0].spells == custom
    assert events == [SpellsChosen(0, 0, custom, False)]
    assert GAME.action_view(ChooseSpells(0, custom), 0, 1) == {"type": "secret_order"}  # hidden from the foe
    state, events = GAME.apply(state, ChooseSpells(1, ()))  # none named: the default pack (VX-15-05)
    assert state.units[1].spells == DEFAULTS["circan"]
    assert events == [SpellsChosen(0, 1, DEFAULTS["circan"], True)]


@pytest.mark.parametrize(
    ("unit", "pack", "message"),
    [
        (1, ("sleep", "fire", "ice", "courage", "speed", "shield"), "lesser wizard"),  # VX-11-10
        (1, ("armageddon", "fire", "ice", "courage", "speed", "shield"), "red spells are for Masters"),
        (0, ("fire", "ice", "courage", "speed", "shield"), "exactly 6"),  # VX-11-08
        (0, ("fire", "ice", "courage", "speed", "shield", "fear", "sleep"), "not 7"),
        (0, ("fire", "ice", "courage", "speed", "shield", "lightning"), "no such spell: lightning"),
        (0, ("fire", "fire", "courage", "speed", "shield", "fear"), "chosen twice"),
        (2, ("fire", "ice", "courage", "speed", "shield", "fear"), "no wizard"),
        (3, (), "not yours"),  # Wærloga belongs to the Darkness, the Light is deploying
    ],
)
def test_vx_11_08_to_11_10_choose_spells_refusals(unit: int, pack: tuple[str, ...], message: str) -> None:
    state = deploying()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, ChooseSpells(unit, pack))
    assert snapshot(state) == before


def test_vx_11_02_spells_are_chosen_only_at_deployment() -> None:
    state = position([("wulfgeldre", (1, 4))], [("guardsmen", (9, 4))])
    with pytest.raises(IllegalAction, match="at deployment"):
        GAME.apply(state, ChooseSpells(0, ()))


def test_vx_15_05_confirm_deployment_gives_the_default_packs() -> None:
    state = deploying()
    custom = ("fire", "ice", "courage", "speed", "shield", "fear")
    state, _ = GAME.apply(state, ChooseSpells(1, custom))
    state, events = GAME.apply(state, ConfirmDeployment())
    assert state.units[0].spells == DEFAULTS["wulfgeldre"]
    assert state.units[1].spells == custom  # chosen: kept
    assert of(events, SpellsChosen) == [SpellsChosen(0, 0, DEFAULTS["wulfgeldre"], True)]
    assert state.units[3].spells == ()  # the Darkness has not confirmed yet
    state, events = GAME.apply(state, ConfirmDeployment())
    assert state.units[3].spells == DEFAULTS["waerloga"]
    assert state.units[4].spells == DEFAULTS["ellorgast"]
    assert len(of(events, SpellsChosen)) == 2


# --- casting rules ------------------------------------------------------------------------------------


def test_vx_04_05_spells_are_cast_only_in_the_spells_step() -> None:
    state = position([("wulfgeldre", (1, 4))], [("lefan", (9, 4))])
    assert state.phase == "movement"
    assert not any(isinstance(a, CastSpell) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="spells step"):
        GAME.apply(state, CastSpell(0, "fire"))
    state = to_spells(state)
    assert state.mover == 0  # the first mover casts first
    legal = GAME.legal_actions(state, 0)
    casts = {(a.unit, a.spell) for a in legal if isinstance(a, CastSpell)}
    assert casts == {(0, s) for s in DEFAULTS["wulfgeldre"]}  # Lefan is 8 cells away: Deny Magic too
    assert EndPhase() in legal
    assert GAME.legal_actions(state, 1) == []  # not the Darkness's turn to cast


def test_vx_04_05_the_second_seat_casts_after_the_first() -> None:
    state = setup([("wulfgeldre", (1, 4))], [("lefan", (11, 4))])
    assert (state.phase, state.mover) == ("spells", 0)
    state, _ = GAME.apply(state, EndPhase())
    assert (state.phase, state.mover) == ("spells", 1)
    state, _ = GAME.apply(state, EndPhase())
    assert state.phase != "spells"


def test_vx_sp_gen_2_one_cast_per_wizard_per_turn() -> None:
    # Wulfgeldre 0, Circan 1 (Light); Lefan 2 far away.
    state = setup([("wulfgeldre", (1, 4)), ("circan", (1, 6))], [("lefan", (11, 8))])
    state, events = throw(state, 0, "strength")
    assert of(events, SpellCast) == [SpellCast(0, "strength", "Strength", 5, 0.1)]
    assert state.units[0].cast_turn == 1 and state.mover == 0  # Circan may still cast: the seat stays
    with pytest.raises(IllegalAction, match="already cast a spell this turn"):
        GAME.apply(state, CastSpell(0, "fire"))
    assert not any(isinstance(a, CastSpell) and a.unit == 0 for a in GAME.legal_actions(state, 0))
    state, _ = throw(state, 1, "courage")  # the other wizard of the side casts in the same step
    assert state.mover == 1  # the Light has nothing left to cast: the Darkness's turn


def test_vx_sp_gen_4_each_spell_is_cast_once() -> None:
    state = setup([("wulfgeldre", (1, 4))], [("lefan", (11, 8))])
    state, _ = throw(state, 0, "strength")
    assert "strength" not in state.units[0].spells and len(state.units[0].spells) == 5
    state, _ = advance(state, 2)
    with pytest.raises(IllegalAction, match="holds no Strength"):
        GAME.apply(state, CastSpell(0, "strength"))


def test_vx_sp_gen_3_a_new_spell_ends_the_old_one() -> None:
    # Wulfgeldre 0 (1,4), Guardsmen 1 (3,4); Lefan 2 (11,8) out of range of Fire.
    state = setup([("wulfgeldre", (1, 4)), ("guardsmen", (3, 4))], [("lefan", (11, 8))])
    state, _ = throw(state, 0, "strength")  # in force in turns 1 and 2 (VX-SP-STRENGTH-1)
    state, _ = advance(state, 2)
    assert sp.attack_factor(state, state.units[1]) == 1.5  # still in force in turn 2
    state, events = throw(state, 0, "fire")
    assert [(e.caster, e.spell) for e in of(events, SpellEnded)] == [(0, "strength")]
    assert sp.attack_factor(state, state.units[1]) == 1.0
    assert sp.defence_factor(state, state.units[0]) == 1.0


def test_vx_11_04_each_cast_costs_a_tenth_of_the_wizards_strength() -> None:
    state = setup([("wulfgeldre", (1, 4))], [("lefan", (11, 8))])
    assert state.units[0].strength == 1.0
    state, _ = throw(state, 0, "strength")
    assert state.units[0].strength == pytest.approx(0.9)  # 1.0 - 0.10
    state, _ = advance(state, 2)
    state, _ = throw(state, 0, "shield")
    assert state.units[0].strength == pytest.approx(0.8)  # 0.9 - 0.10: a tenth of the starting strength


def test_vx_11_04_a_wizard_too_weak_to_cast_is_refused() -> None:
    state = position([("wulfgeldre", (1, 4))], [("lefan", (11, 8))])
    weak = to_spells(tweak(state, 0, strength=0.1))  # a cast would leave him nothing
    assert weak.mover == 1  # the Light has no wizard able to cast: skipped
    weak = replace(weak, mover=0)
    with pytest.raises(IllegalAction, match="too weak"):
        GAME.apply(weak, CastSpell(0, "strength"))
    able = to_spells(tweak(state, 0, strength=0.2))
    able, _ = throw(able, 0, "strength")
    assert able.units[0].strength == pytest.approx(0.1)  # 0.2 - 0.10


def test_vx_sp_gen_2_a_routed_wizard_casts_nothing() -> None:
    state = position([("wulfgeldre", (1, 4)), ("circan", (1, 6))], [("lefan", (11, 8))])
    state = to_spells(tweak(state, 0, routed=True, moved=True))
    assert state.mover == 0  # Circan may cast
    with pytest.raises(IllegalAction, match="routed"):
        GAME.apply(state, CastSpell(0, "strength"))
    assert not any(isinstance(a, CastSpell) and a.unit == 0 for a in GAME.legal_actions(state, 0))


def test_vx_sp_gen_2_a_wizard_in_close_combat_may_cast() -> None:
    # Wulfgeldre 0 (5,4) next to Wearg Warriors 1 (6,4): in contact.
    state = setup([("wulfgeldre", (5, 4))], [("wearg_warriors", (6, 4)), ("lefan", (11, 8))])
    assert state.contact(0, 1) is not None
    state, events = throw(state, 0, "strength")
    assert of(events, SpellTookEffect)


def test_a_unit_not_of_your_side_or_no_wizard_casts_nothing() -> None:
    state = setup([("wulfgeldre", (1, 4)), ("guardsmen", (3, 4))], [("lefan", (11, 8))])
    with pytest.raises(IllegalAction, match="no wizard"):
        GAME.apply(state, CastSpell(1, "fire"))
    with pytest.raises(IllegalAction, match="does not cast for you"):
        GAME.apply(state, CastSpell(2, "fire"))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (CastSpell(0, "sleep"), "holds no Sleep"),  # not in his pack
        (CastSpell(0, "meteor"), "no spell 'meteor'"),
        (CastSpell(0, "fire", cell(2, 4)), "takes no target"),
        (CastSpell(0, "deny_magic", cell(3, 4)), "must be aimed at an enemy wizard"),  # at the Guardsmen
        (CastSpell(0, "deny_magic", cell(1, 6)), "must be aimed at an enemy wizard"),  # at his own Circan
        (CastSpell(1, "strength"), "no wizard"),
        (CastSpell(3, "fire"), "does not cast for you"),
    ],
)
def test_illegal_casts_change_nothing(action: CastSpell, message: str) -> None:
    # Wulfgeldre 0 (1,4), Guardsmen 1 (3,4), Circan 2 (1,6); Lefan 3 (9,4): 8 cells, within Deny's 10.
    state = setup([("wulfgeldre", (1, 4)), ("guardsmen", (3, 4)), ("circan", (1, 6))], [("lefan", (9, 4))])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, action)
    assert snapshot(state) == before
    assert state.units[0].strength == 1.0 and state.units[0].cast_turn == 0


# --- Resist Magic (VX-SP-GEN-6) -----------------------------------------------------------------------


def fire_on_guardsmen(face: int) -> tuple[ValkyrxState, list[Event]]:
    # Lefan 2 (1,4) burns the Light's Guardsmen 0 (3,4); Circan 1 (11,8) keeps the step open.
    state = setup([("guardsmen", (3, 4)), ("circan", (11, 8))], [("lefan", (1, 4))], first=1)
    state, events = GAME.apply(state, CastSpell(2, "fire"))
    assert [(p.kind, p.unit, p.sides) for p in state.pending] == [("resist", 0, 100)]
    assert "1-35 resists" in state.pending[0].purpose  # Resist Magic H: 35%
    state, more = GAME.apply(state, ChanceOutcome(face))
    return state, events + more


def test_vx_sp_gen_6_a_unit_that_resists_is_untouched() -> None:
    state, events = fire_on_guardsmen(35)  # 35 <= 35: resisted
    assert of(events, SpellResisted) == [SpellResisted(0, "fire")]
    assert state.units[0].strength == 300.0 and state.units[0].burned == 0
    assert of(events, SpellTookEffect)[0].units == ()


def test_vx_sp_gen_6_a_face_above_the_chance_does_not_resist() -> None:
    state, events = fire_on_guardsmen(36)
    assert not of(events, SpellResisted)
    assert state.units[0].strength == pytest.approx(300 - 10000 / 150)  # 233.33


def test_vx_sp_gen_6_very_low_resist_rolls_no_die() -> None:
    # Wulfgeldre 0 (1,4) burns Mægen 1 (3,4), VL: no die at all; Lefan 2 (11,8) keeps the step open.
    state = setup([("wulfgeldre", (1, 4))], [("maegen", (3, 4)), ("lefan", (11, 8))])
    state, _ = GAME.apply(state, CastSpell(0, "fire"))
    assert state.pending == ()
    assert state.units[1].strength == pytest.approx(60 - 10000 / 700)  # 60 - 14.29 = 45.71


def test_vx_sp_gen_6_helpful_spells_and_plague_are_never_resisted() -> None:
    # Light: Circan 0 (11,8) far. Darkness: Lefan 1 (0,8) (8 cells from Wærloga), Wærloga 2 (6,4), Wearg
    # Warriors 3 (7,4): the one unit within 5 of Wærloga that can carry the plague.
    state = setup(
        [("circan", (11, 8))], [("lefan", (0, 8)), ("waerloga", (6, 4)), ("wearg_warriors", (7, 4))], first=1
    )
    state, _ = GAME.apply(state, CastSpell(1, "strength"))  # friends: never resisted
    assert state.pending == ()
    state, events = GAME.apply(state, CastSpell(2, "plague"))
    assert state.pending == ()  # VX-SP-PLAGUE-12: "cannot be resisted"
    assert of(events, PlagueCarrierChosen) == [PlagueCarrierChosen(3, 2)]


def test_vx_sp_gen_5_hidden_units_are_not_reached() -> None:
    # Wulfgeldre 0 (1,4) burns what is in range: the Sand Worm 1 (3,4) is underground; Lefan 2 (11,8).
    state = position([("wulfgeldre", (1, 4))], [("sand_worm", (3, 4)), ("lefan", (11, 8))])
    state = to_spells(tweak(state, 1, hidden=True))
    state, events = GAME.apply(state, CastSpell(0, "fire"))
    assert state.pending == ()
    assert of(events, SpellTookEffect)[0].units == ()
    assert state.units[1].strength == 1.0


def test_vx_sp_gen_6_n_a_is_resisted_as_very_high() -> None:
    # Wulfgeldre 0 (1,4) burns Lefan 1 (3,4): "n/a", 50%; Ellorgast 2 (11,8) keeps the step open.
    state = setup([("wulfgeldre", (1, 4))], [("lefan", (3, 4)), ("ellorgast", (11, 8))])
    state, _ = GAME.apply(state, CastSpell(0, "fire"))
    assert [(p.unit, p.sides) for p in state.pending] == [(1, 100)]
    assert "Resist Magic n/a: 1-50 resists" in state.pending[0].purpose
    state, events = GAME.apply(state, ChanceOutcome(50))
    assert of(events, SpellResisted) == [SpellResisted(1, "fire")]
    assert state.units[1].strength == 1.0


# --- 1 Sleep ------------------------------------------------------------------------------------------


def test_vx_sp_sleep_2_3_4_in_contact_slaughtered_the_rest_asleep_this_turn() -> None:
    # Light: Wulfgeldre 0 (5,4), Guardsmen 1 (3,4). Darkness: Wearg Warriors 2 (2,4) and Wickermen 3 (3,3),
    # both in contact with the Guardsmen; Wearg Archers 4 (7,4), 2 cells from Wulfgeldre, in contact with no
    # one; Lefan 5 (11,8), 8 cells away (out of range).
    state = setup(
        [("wulfgeldre", (5, 4)), ("guardsmen", (3, 4))],
        [("wearg_warriors", (2, 4)), ("wickermen", (3, 3)), ("wearg_archers", (7, 4)), ("lefan", (11, 8))],
        packs={0: ("sleep", "fire", "ice", "courage", "speed", "shield")},
    )
    assert {(c.a, c.b) for c in state.contacts} == {(1, 2), (1, 3)}
    assert 4 in {u.id for g in missile_groups(state) for u in g}  # awake, the archers would shoot
    # Resist dice for 2, 3, 4 (L, H, L): the Warriors fail, the Wickermen resist (1 <= 35), the Archers fail.
    state, events = throw(state, 0, "sleep", faces=(100, 1, 100))
    assert of(events, SpellResisted) == [SpellResisted(3, "sleep")]
    assert UnitRemoved(2, "slaughtered in its sleep") in events  # VX-SP-SLEEP-3
    assert state.units[2].status == "destroyed" and state.units[2].strength == 0.0
    assert sp.is_asleep(state, 4) and not sp.is_asleep(state, 3) and not sp.is_asleep(state, 5)
    assert 4 not in {u.id for g in missile_groups(state) for u in g}  # VX-SP-SLEEP-2: no attack this round
    plan = close_combat_plan(state)
    assert {(a.attacker, a.target) for a in plan} == {(1, 3), (3, 1)}  # the resisting Wickermen still fight
    state, _ = GAME.apply(state, EndPhase())  # Lefan casts nothing: the combat round
    assert {a.attacker for a in state.plan} == {1, 3}
    state, _ = advance(state, 2)
    assert not sp.is_asleep(state, 4)  # VX-SP-SLEEP-4: normal the following turn
    assert state.units[4].status == "active"


# --- 2 Fear -------------------------------------------------------------------------------------------


def test_vx_sp_fear_2_minus_ten_morale_for_two_turns_then_given_back_elves_immune() -> None:
    # Light: Guardsmen 0 (3,4) morale 30, Elves 1 (6,4) morale 40 (5 cells: in range, out of bow shot),
    # Circan 2 (8,8) far. Darkness: Ellorgast 3 (1,4) casts first.
    state = setup(
        [("guardsmen", (3, 4)), ("elves", (6, 4)), ("circan", (8, 8))], [("ellorgast", (1, 4))], first=1
    )
    state, _ = GAME.apply(state, CastSpell(3, "fear"))
    assert [p.unit for p in state.pending] == [0]  # VX-13-ELVES-1: the Elves are not even reached
    state, events = GAME.apply(state, ChanceOutcome(100))
    assert of(events, SpellTookEffect)[0].units == (0,)
    g, e = state.units[0], state.units[1]
    assert (g.morale_bonus, g.spirit) == (-10.0, 20.0)  # 30 - 10
    assert (e.morale_bonus, e.spirit) == (0.0, 40.0)
    state, _ = advance(state, 2)
    assert (state.units[0].morale, state.units[0].spirit) == (30.0, 20.0)  # turn t+1: still -10
    state, _ = advance(state, 3)
    assert (state.units[0].morale_bonus, state.units[0].spirit) == (0.0, 30.0)  # t+2: given back


# --- 3 Command ----------------------------------------------------------------------------------------


def test_vx_sp_command_2_control_in_the_three_following_turns() -> None:
    # Wulfgeldre 0 (1,4) commands the Wearg Warriors 1 (4,4), 3 cells; Lefan 2 (11,4) is 10 away.
    state = setup(
        [("wulfgeldre", (1, 4))],
        [("wearg_warriors", (4, 4)), ("lefan", (11, 4))],
        packs={0: ("command", "fire", "ice", "courage", "speed", "shield")},
    )
    state, events = throw(state, 0, "command")
    took = of(events, SpellTookEffect)[0]
    assert (took.units, took.first_turn, took.last_turn) == ((1,), 2, 4)
    assert state.units[1].commander == 1  # turn t: not yet
    state, _ = advance(state, 2, phase="movement")
    assert state.units[1].commander == 0 and state.units[1].owner == 1
    assert why_not_move(state, state.units[1], 0) is None  # the Light moves it
    assert why_not_move(state, state.units[1], 1) is not None
    for turn in (3, 4):
        state, _ = advance(state, turn)
        assert state.units[1].commander == 0, turn
    state, _ = advance(state, 5)
    assert state.units[1].commander == 1 and state.units[1].controller is None  # t+4: back


def test_vx_sp_command_3_commanded_by_both_sides_it_reverts() -> None:
    # Wulfgeldre 0 (1,4) commands the Warriors 1 (4,4) in turn 1; in turn 2 Wærloga 2 (9,4) (5 cells from
    # the Warriors, 8 from Wulfgeldre) commands them back: from turn 3 both spells hold them -> their owner.
    state = setup(
        [("wulfgeldre", (1, 4))],
        [("wearg_warriors", (4, 4)), ("waerloga", (9, 4))],
        packs={
            0: ("command", "fire", "ice", "courage", "speed", "shield"),
            2: (*DEFAULTS["waerloga"][:5], "command"),
        },
    )
    state, _ = throw(state, 0, "command")
    state, _ = advance(state, 2)
    assert state.units[1].commander == 0
    state, _ = GAME.apply(state, EndPhase())  # the Light casts nothing
    assert state.mover == 1
    state, events = throw(state, 2, "command")
    assert of(events, SpellTookEffect)[0].units == (1,)  # commanded by the Light: an enemy to Wærloga
    state, _ = advance(state, 3)
    assert state.units[1].controller is None and state.units[1].commander == 1
    state, _ = advance(state, 4)
    assert state.units[1].commander == 1


# --- 4 Fire -------------------------------------------------------------------------------------------


def test_vx_sp_fire_2_ten_thousand_over_defence_characters_share_astigend_immune() -> None:
    # Darkness: Lefan 5 (1,4) casts first. Light: Guardsmen 0 (3,4) 2 cells, Circan 1 (4,4) 3, Ǻstígend 2
    # (5,4) 4 (on the ground), Spearmen 3 (7,4) 6 (out of range), Wulfgeldre 4 (10,8) far.
    state = setup(
        [
            ("guardsmen", (3, 4)),
            ("circan", (4, 4)),
            ("astigend", (5, 4)),
            ("spearmen", (7, 4)),
            ("wulfgeldre", (10, 8)),
        ],
        [("lefan", (1, 4))],
        first=1,
    )
    state, _ = GAME.apply(state, CastSpell(5, "fire"))
    assert [p.unit for p in state.pending] == [0, 1]  # Ǻstígend is not reached (VX-13-ASTIGEND-2)
    state, _ = GAME.apply(state, ChanceOutcome(100))
    state, events = GAME.apply(state, ChanceOutcome(100))
    # Guardsmen: 10000 / 150 = 66.67 men. Circan: 10000 / 2000 = 5.0 of his strength, capped at his 1.0.
    hit = [(e.unit, e.spell, e.casualties) for e in of(events, SpellCasualties)]
    assert hit == [(0, "fire", pytest.approx(66.6666667)), (1, "fire", 1.0)]
    assert state.units[0].strength == pytest.approx(233.3333333)
    assert state.units[0].casualties_turn == pytest.approx(66.6666667)
    assert state.units[1].status == "destroyed" and UnitRemoved(1, "destroyed") in events
    assert state.units[2].strength == 1.0  # Ǻstígend
    assert state.units[3].strength == 300.0  # 6 cells: out of range


def test_vx_sp_fire_3_4_wickermen_burn_undead_take_full_titan_marked() -> None:
    # Wulfgeldre 0 (1,4). Darkness: Wickermen 1 (3,4), Undead Warriors 2 (4,4), Wraiths 3 (5,4),
    # Stone Titan 4 (6,4); Ellorgast 5 (11,4), 10 cells away.
    state = setup(
        [("wulfgeldre", (1, 4))],
        [
            ("wickermen", (3, 4)),
            ("undead_warriors", (4, 4)),
            ("wraiths", (5, 4)),
            ("stone_titan", (6, 4)),
            ("ellorgast", (11, 4)),
        ],
    )
    state, events = throw(state, 0, "fire", faces=(100, 100, 100, 100))
    assert UnitRemoved(1, "burnt to ashes") in events  # VX-SP-FIRE-3
    assert state.units[1].status == "destroyed"
    assert state.units[2].strength == pytest.approx(300 - 10000 / 300)  # 266.67: full, no x0.1 (FIRE-4)
    assert state.units[3].strength == pytest.approx(90 - 10000 / 600)  # 73.33
    assert state.units[4].strength == pytest.approx(0.6)  # 1 - 10000/25000
    assert state.units[4].burned == 1
    assert state.units[5].strength == 1.0


def test_vx_sp_fire_5_airborne_flyers_are_hit() -> None:
    # Lefan 2 (1,4) burns the Light's Vertígron 0 (4,4), airborne (defence 15000); Circan 1 (11,8) far.
    state = position([("vertigron", (4, 4)), ("circan", (11, 8))], [("lefan", (1, 4))], first=1)
    state = to_spells(tweak(state, 0, airborne=True, moved=True))
    state, _ = throw(state, 2, "fire")
    assert state.units[0].strength == pytest.approx(1 - 10000 / 15000)  # 0.333


# --- 5 Strength ---------------------------------------------------------------------------------------


def test_vx_sp_strength_2_x1_5_inflicted_and_received_over_1_5_caster_included() -> None:
    # Wulfgeldre 0 (1,4), Guardsmen 1 (3,4), Spearmen 2 (7,4) 6 cells away; Darkness: Wearg Warriors 3 (5,4)
    # (no contact), Lefan 4 (11,8).
    state = setup(
        [("wulfgeldre", (1, 4)), ("guardsmen", (3, 4)), ("spearmen", (7, 4))],
        [("wearg_warriors", (5, 4)), ("lefan", (11, 8))],
    )
    state, events = throw(state, 0, "strength")
    assert of(events, SpellTookEffect)[0].units == (0, 1)  # the caster too (VX-11-06); not the Spearmen
    assert sp.attack_factor(state, state.units[0]) == 1.5
    assert sp.attack_factor(state, state.units[2]) == 1.0
    _, cas, factors = casualties(state, Attack(1, 3, "melee", 1.0), 1)
    assert cas == pytest.approx(36.0)  # 24 x 1.5
    assert "spells x1.5" in factors
    _, cas, factors = casualties(state, Attack(3, 1, "melee", 1.0), 1)
    assert cas == pytest.approx(10.24)  # 15.36 / 1.5
    assert "defence spells x1.5" in factors
    state, _ = advance(state, 2)
    assert casualties(state, Attack(1, 3, "melee", 1.0), 1)[1] == pytest.approx(36.0)  # turn t+1
    state, _ = advance(state, 3)
    assert casualties(state, Attack(1, 3, "melee", 1.0), 1)[1] == pytest.approx(24.0)  # t+2: over


# --- 6 Resurrection -----------------------------------------------------------------------------------


def test_vx_sp_resurrect_2_3_4_back_to_start_less_undead_losses() -> None:
    # Light: Circan 0 (11,8) far. Darkness: Wærloga 1 (1,4); Wearg Warriors 2 (3,4) at 150 with 30 lost to
    # the undead; Wearg Spearmen 3 (4,4) at 100; Undead Warriors 4 (5,4) at 100; Minotaurs 5 (2,6) removed;
    # Wolf-riders 6 (1,6) at 58 with 5 lost to the undead; Mægen 7 (8,4) at 20, 7 cells away.
    state = position(
        [("circan", (11, 8))],
        [
            ("waerloga", (1, 4)),
            ("wearg_warriors", (3, 4)),
            ("wearg_spearmen", (4, 4)),
            ("undead_warriors", (5, 4)),
            ("minotaurs", (2, 6)),
            ("wolf_riders", (1, 6)),
            ("maegen", (8, 4)),
        ],
        first=1,
    )
    state = tweak(state, 1, spells=("resurrection", "fire", "ice", "courage", "speed", "shield"))
    state = tweak(state, 2, strength=150.0, undead_losses=30.0)
    state = tweak(state, 3, strength=100.0)
    state = tweak(state, 4, strength=100.0)
    state = tweak(state, 5, strength=0.0, status="destroyed")
    state = tweak(state, 6, strength=58.0, undead_losses=5.0)
    state = tweak(state, 7, strength=20.0)
    state = to_spells(state)
    state, events = throw(state, 1, "resurrection")
    assert state.pending == ()  # helpful: no resist die
    assert state.units[2].strength == 270.0  # 300 - 30 (VX-SP-RESURRECT-3)
    assert state.units[3].strength == 300.0
    assert state.units[4].strength == 100.0  # undead: too far gone (VX-SP-RESURRECT-4)
    assert state.units[5].status == "destroyed" and state.units[5].strength == 0.0
    assert state.units[6].strength == 58.0  # 60 - 5 = 55 < 58: never below its current strength
    assert state.units[7].strength == 20.0  # out of range
    assert 4 not in of(events, SpellTookEffect)[0].units
    # The price of casting is not a casualty: the caster keeps his 1 - 0.10 = 0.90 (decision, VX-11-04).
    assert state.units[1].strength == pytest.approx(0.9)
    assert 1 not in of(events, SpellTookEffect)[0].units


# --- 7 Transportation ---------------------------------------------------------------------------------


def portal_position() -> ValkyrxState:
    """Circan 0 (5,4); Swordsmen 1 (7,4), Spearmen 2 (6,3), Guardsmen 3 (6,5), Dwarfs 4 (5,3) all next to
    the portal cell (6,4); the Darkness's Wearg Warriors 5 (11,8) in the far corner, Lefan 6 (0,8) 7 cells
    from Circan."""
    return setup(
        [
            ("circan", (5, 4)),
            ("swordsmen", (7, 4)),
            ("spearmen", (6, 3)),
            ("guardsmen", (6, 5)),
            ("dwarfs", (5, 3)),
        ],
        [("wearg_warriors", (11, 8)), ("lefan", (0, 8))],
    )


def test_vx_sp_transport_2_the_portal_opens_on_a_free_neighbour_of_the_wizard() -> None:
    state = portal_position()
    legal = [
        a for a in GAME.legal_actions(state, 0) if isinstance(a, CastSpell) and a.spell == "transportation"
    ]
    # Circan's neighbours (even row 4): (4,3) (5,3) (4,4) (6,4) (4,5) (5,5); (5,3) holds the Dwarfs.
    # In board order (row by row): (4,3), (4,4), (6,4), (4,5), (5,5).
    assert [a.target for a in legal] == [cell(4, 3), cell(4, 4), cell(6, 4), cell(4, 5), cell(5, 5)]
    with pytest.raises(IllegalAction, match="free cell beside the wizard"):
        GAME.apply(state, CastSpell(0, "transportation", cell(5, 3)))
    _, events = throw(state, 0, "transportation")  # no cell named: the first in board order
    assert of(events, SpellTookEffect)[0].cells == ((4, 3),)


def test_vx_sp_transport_4_5_three_friendly_units_sent_anywhere_free() -> None:
    state = portal_position()
    state, events = throw(state, 0, "transportation", (6, 4))
    took = of(events, SpellTookEffect)[0]
    assert (took.cells, took.first_turn, took.last_turn) == (((6, 4),), 2, 4)  # the following three turns
    assert sp.portals(state) == {}  # not open in the casting turn
    state, _ = advance(state, 2, phase="movement")
    assert list(sp.portals(state)) == [cell(6, 4)]
    state, _ = GAME.apply(state, Move(1, cell(6, 4)))
    legal = GAME.legal_actions(state, 0)
    assert Transport(1, cell(0, 0)) in legal
    assert Transport(1, cell(10, 8)) not in legal  # next to the enemy at (11,8)
    assert Transport(1, cell(6, 3)) not in legal  # occupied
    with pytest.raises(IllegalAction, match="next to an enemy"):
        GAME.apply(state, Transport(1, cell(10, 8)))
    state, events = GAME.apply(state, Transport(1, cell(0, 0)))
    assert events == [UnitTransported(1, (6, 4), (0, 0))]
    assert state.units[1].cell == cell(0, 0)
    for uid, to in ((2, (1, 0)), (3, (2, 0))):
        state, _ = GAME.apply(state, Move(uid, cell(6, 4)))
        state, _ = GAME.apply(state, Transport(uid, cell(*to)))
        assert state.units[uid].cell == cell(*to)
    assert sp.portals(state) == {}  # three carried: closed (VX-SP-TRANSPORT-5)
    state, _ = GAME.apply(state, Move(4, cell(6, 4)))  # the Dwarfs: now an ordinary cell
    assert not any(isinstance(a, Transport) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="open portal"):
        GAME.apply(state, Transport(4, cell(3, 0)))


def test_vx_sp_transport_6_the_wizard_cannot_transport_himself() -> None:
    state = setup([("circan", (5, 4))], [("wearg_warriors", (11, 8))])
    state, _ = throw(state, 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, Move(0, cell(6, 4)))
    assert not any(isinstance(a, Transport) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="cannot transport himself"):
        GAME.apply(state, Transport(0, cell(0, 0)))


def test_vx_sp_transport_4_enemy_units_may_not_enter_the_portal() -> None:
    # Circan 0 (5,4), portal (6,4); Wearg Warriors 1 (6,6), 2 cells from the portal, move 2.
    state = setup([("circan", (5, 4))], [("wearg_warriors", (6, 6))])
    state, _ = throw(state, 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, EndPhase())  # the Light does not move
    assert state.mover == 1
    moves = {a.to for a in GAME.legal_actions(state, 1) if isinstance(a, Move) and a.unit == 1}
    assert cell(6, 5) in moves  # one step short of it is fine
    assert cell(6, 4) not in moves
    with pytest.raises(IllegalAction, match="portal"):
        GAME.apply(state, Move(1, cell(6, 4)))


# --- 8 Earthquake -------------------------------------------------------------------------------------


def test_vx_sp_quake_2_3_4_both_sides_caster_spared_a_one_wipes_out() -> None:
    # Light: Guardsmen 0 (3,4), Dwarfs 1 (4,4) (VL), Circan 2 (10,8) far. Darkness: Ellorgast 3 (1,4) casts;
    # Stone Titan 4 (1,6) 2 cells; Lefan 5 (4,6) 4 cells; Wearg Warriors 6 (1,2) 2 cells.
    state = setup(
        [("guardsmen", (3, 4)), ("dwarfs", (4, 4)), ("circan", (10, 8))],
        [("ellorgast", (1, 4)), ("stone_titan", (1, 6)), ("lefan", (4, 6)), ("wearg_warriors", (1, 2))],
        first=1,
    )
    state, _ = GAME.apply(state, CastSpell(3, "earthquake"))
    assert [p.unit for p in state.pending] == [0, 4, 5, 6]  # friend and foe; Dwarfs VL; not the caster
    for _ in range(4):
        state, _ = GAME.apply(state, ChanceOutcome(100))
    # 5000 / defence: Guardsmen, Dwarfs, Warriors 33.33 men; Titan 0.2; Lefan 5000/2500 = 2.0 -> all of him.
    assert state.units[0].strength == pytest.approx(300 - 5000 / 150)
    assert state.units[1].strength == pytest.approx(266.6666667)
    assert state.units[4].strength == pytest.approx(0.8)
    assert state.units[5].strength == 0.0
    assert state.units[6].strength == pytest.approx(266.6666667)
    assert state.units[3].strength == pytest.approx(0.9)  # the caster: only the cost of the cast
    # One d10 per unit still standing (Lefan is not): Guardsmen, Dwarfs, Titan, Warriors.
    assert [(p.kind, p.unit, p.sides) for p in state.pending] == [
        ("spell", 0, 10),
        ("spell", 1, 10),
        ("spell", 4, 10),
        ("spell", 6, 10),
    ]
    events: list[Event] = []
    for face in (2, 1, 10, 2):  # the Dwarfs roll the 1
        state, more = GAME.apply(state, ChanceOutcome(face))
        events += more
    assert UnitRemoved(1, "swallowed by the earthquake") in events
    assert state.units[1].status == "destroyed"
    assert [u.status for u in state.units] == [
        "active",
        "destroyed",
        "active",
        "active",
        "active",
        "destroyed",
        "active",
    ]


# --- 9 Disharmony -------------------------------------------------------------------------------------


def test_vx_sp_disharmony_2_3_self_attack_at_full_strength_characters_unaffected() -> None:
    # Light: Guardsmen 0 (3,4) in contact with Wearg Warriors 4 (4,4); the She-Wolf 1 (2,6), a character,
    # 2 cells from Ellorgast 3 (1,4); Circan 2 (11,8) far.
    state = setup(
        [("guardsmen", (3, 4)), ("shewolf", (2, 6)), ("circan", (11, 8))],
        [("ellorgast", (1, 4)), ("wearg_warriors", (4, 4))],
        first=1,
    )
    state, _ = GAME.apply(state, CastSpell(3, "disharmony"))
    assert [p.unit for p in state.pending] == [0]  # the She-Wolf is not reached
    state, events = GAME.apply(state, ChanceOutcome(100))
    assert of(events, SpellTookEffect)[0].units == (0,)
    assert sp.is_disharmonious(state, 0) and not sp.is_disharmonious(state, 1)
    plan = close_combat_plan(state)
    assert {(a.attacker, a.target, a.share) for a in plan} == {(0, 0, 1.0), (4, 0, 1.0)}
    # Two halves of 150 strike each other: 2 x 12 = 24 men = one attack at full strength.
    assert casualties(state, Attack(0, 0, "melee", 1.0), 1)[1] == pytest.approx(24.0)


# --- 10 Shield ----------------------------------------------------------------------------------------


def test_vx_sp_shield_3_no_harm_then_ended_by_his_next_spell() -> None:
    # Wulfgeldre 0 (5,4) in contact with Wearg Warriors 1 (6,4); Lefan 2 (9,4), 4 cells away.
    state = setup([("wulfgeldre", (5, 4))], [("wearg_warriors", (6, 4)), ("lefan", (9, 4))])
    state, events = throw(state, 0, "shield")
    assert of(events, SpellTookEffect)[0].units == (0,)
    assert sp.is_shielded(state, 0)
    state, events = GAME.apply(state, CastSpell(2, "fire"))  # Lefan's Fire cannot reach him
    assert all(p.kind != "resist" for p in state.pending)
    assert of(events, SpellTookEffect)[0].units == ()
    assert state.units[0].strength == pytest.approx(0.9)
    _, cas, factors = casualties(state, Attack(1, 0, "melee", 1.0), 1)
    assert cas == 0.0 and "shield" in factors  # 288 x 8 / 20000 = 0.1152 without it
    state, _ = advance(state, 2)
    assert state.units[0].strength == pytest.approx(0.9)  # the round did him no harm
    assert sp.is_shielded(state, 0)  # turn t+1
    state, events = throw(state, 0, "fire")
    assert [(e.caster, e.spell) for e in of(events, SpellEnded)] == [(0, "shield")]  # VX-SP-SHIELD-2
    assert not sp.is_shielded(state, 0)


# --- 11 Weakness --------------------------------------------------------------------------------------


def test_vx_sp_weakness_2_x0_5_inflicted_x2_received_for_two_turns() -> None:
    # Light: Guardsmen 0 (3,4), Circan 1 (10,8) far. Darkness: Ellorgast 2 (1,4), Wearg Warriors 3 (5,4).
    state = setup(
        [("guardsmen", (3, 4)), ("circan", (10, 8))],
        [("ellorgast", (1, 4)), ("wearg_warriors", (5, 4))],
        first=1,
    )
    state, _ = throw(state, 2, "weakness")
    assert sp.attack_factor(state, state.units[0]) == 0.5
    assert sp.defence_factor(state, state.units[0]) == 0.5
    assert casualties(state, Attack(0, 3, "melee", 1.0), 1)[1] == pytest.approx(12.0)  # 24 x 0.5
    assert casualties(state, Attack(3, 0, "melee", 1.0), 1)[1] == pytest.approx(30.72)  # 15.36 / 0.5
    state, _ = advance(state, 2, first=1)
    assert casualties(state, Attack(0, 3, "melee", 1.0), 1)[1] == pytest.approx(12.0)
    state, _ = advance(state, 3, first=1)
    assert casualties(state, Attack(0, 3, "melee", 1.0), 1)[1] == pytest.approx(24.0)


def test_vx_sp_weakness_2_strength_and_weakness_multiply_to_0_75() -> None:
    # Wulfgeldre 0 (1,4), Guardsmen 1 (3,4); Ellorgast 2 (6,4) (Guardsmen 3 cells, Wulfgeldre 5), Wearg
    # Warriors 3 (9,4).
    state = setup(
        [("wulfgeldre", (1, 4)), ("guardsmen", (3, 4))], [("ellorgast", (6, 4)), ("wearg_warriors", (9, 4))]
    )
    state, _ = throw(state, 0, "strength")
    state, _ = throw(state, 2, "weakness")
    assert sp.attack_factor(state, state.units[1]) == pytest.approx(0.75)  # 1.5 x 0.5
    assert casualties(state, Attack(1, 3, "melee", 1.0), 1)[1] == pytest.approx(18.0)  # 24 x 0.75
    assert casualties(state, Attack(3, 1, "melee", 1.0), 1)[1] == pytest.approx(20.48)  # 15.36 / 0.75


def test_vx_sp_weakness_2_the_same_spell_never_stacks_with_itself() -> None:
    # Ellorgast 2 (1,4) and Lefan 3 (1,6) both weaken the Guardsmen 0 (3,4): still x0.5. Circan 1 far.
    state = position(
        [("guardsmen", (3, 4)), ("circan", (11, 8))], [("ellorgast", (1, 4)), ("lefan", (1, 6))], first=1
    )
    state = to_spells(tweak(state, 3, spells=("weakness", "fire", "ice", "courage", "speed", "shield")))
    state, _ = throw(state, 2, "weakness")
    state, _ = throw(state, 3, "weakness")
    assert sp.attack_factor(state, state.units[0]) == 0.5
    assert sp.defence_factor(state, state.units[0]) == 0.5


# --- 12 Ice -------------------------------------------------------------------------------------------


def test_vx_sp_ice_2_ten_thousand_over_defence_vertigron_immune() -> None:
    # Light: Guardsmen 0 (3,4), Vertígron 1 (4,4), Circan 2 (10,8) far. Darkness: Lefan 3 (1,4).
    state = setup(
        [("guardsmen", (3, 4)), ("vertigron", (4, 4)), ("circan", (10, 8))], [("lefan", (1, 4))], first=1
    )
    state, _ = GAME.apply(state, CastSpell(3, "ice"))
    assert [p.unit for p in state.pending] == [0]
    state, _ = GAME.apply(state, ChanceOutcome(100))
    assert state.units[0].strength == pytest.approx(300 - 10000 / 150)
    assert state.units[0].chilled == 1
    assert state.units[1].strength == 1.0


def titan_position() -> ValkyrxState:
    """Wulfgeldre 0 (1,4) and Circan 1 (1,5) both 4 cells from the Stone Titan 2 (5,4)."""
    return setup([("wulfgeldre", (1, 4)), ("circan", (1, 5))], [("stone_titan", (5, 4))])


def test_vx_sp_ice_4_fire_one_turn_then_ice_the_next_cracks_the_titan() -> None:
    state = titan_position()
    state, _ = throw(state, 0, "fire")
    assert state.units[2].strength == pytest.approx(0.6)  # 1 - 0.4
    state, _ = advance(state, 2)
    state, events = throw(state, 1, "ice")
    assert TitanCracked(2) in events and UnitRemoved(2, "cracked by fire and ice") in events
    assert state.units[2].status == "destroyed"


def test_vx_sp_ice_4_fire_and_ice_from_two_wizards_in_one_turn() -> None:
    state = titan_position()
    state, _ = throw(state, 0, "fire")
    state, events = throw(state, 1, "ice")
    assert TitanCracked(2) in events
    assert state.units[2].status == "destroyed"


def test_vx_sp_ice_4_ice_before_fire_does_not_crack() -> None:
    state = titan_position()
    state, _ = throw(state, 1, "ice")
    state, _ = advance(state, 2)
    state, events = throw(state, 0, "fire")
    assert not of(events, TitanCracked)
    assert state.units[2].strength == pytest.approx(0.2)  # 1 - 0.4 - 0.4
    assert state.units[2].status == "active"


def test_vx_13_vertigron_2_crack_titans_one_rule_for_spells_and_dragons() -> None:
    state = position([("guardsmen", (1, 4))], [("stone_titan", (8, 4))])
    state = replace(state, turn=3)
    cracked, events = sp.crack_titans(tweak(state, 1, burned=2, chilled=3))  # fire last turn, ice now
    assert cracked.units[1].status == "destroyed" and TitanCracked(1) in events
    cracked, events = sp.crack_titans(tweak(state, 1, burned=3, chilled=3))  # both this turn
    assert cracked.units[1].status == "destroyed"
    kept, events = sp.crack_titans(tweak(state, 1, burned=1, chilled=3))  # fire two turns ago
    assert kept.units[1].status == "active" and events == []
    kept, events = sp.crack_titans(tweak(state, 1, burned=3, chilled=2))  # ice last turn, fire now
    assert kept.units[1].status == "active"


def test_vx_13_vertigron_2_fire_and_ice_dragons_together_in_combat() -> None:
    # The Stone Titan 2 (5,4) in contact with Ǻstígend 0 (4,4) and Vertígron 1 (5,3): no wizards, so the
    # round follows the moves at once; both dragons strike it with fire and ice in one round.
    state = position([("astigend", (4, 4)), ("vertigron", (5, 3))], [("stone_titan", (5, 4))])
    assert [p.kind for p in state.pending] == ["factor", "factor", "factor"]
    events: list[Event] = []
    for _ in range(3):
        state, more = GAME.apply(state, ChanceOutcome(1))
        events += more
    assert TitanCracked(2) in events
    assert state.units[2].status == "destroyed"


# --- 13 Plague ----------------------------------------------------------------------------------------


def plague_position(*, warriors: bool = True) -> ValkyrxState:
    """Light: Guardsmen 0 (3,4), Wulfgeldre 1 (4,4) (a Living Spirit), Elves 2 (6,6), Circan 3 (11,8) far.
    Darkness: Wærloga 4 (6,4); Undead Warriors 5 (8,4); Wearg Warriors 6 (7,4) if asked."""
    dark = [("waerloga", (6, 4)), ("undead_warriors", (8, 4))] + (
        [("wearg_warriors", (7, 4))] if warriors else []
    )
    return setup(
        [("guardsmen", (3, 4)), ("wulfgeldre", (4, 4)), ("elves", (6, 6)), ("circan", (11, 8))], dark, first=1
    )


def test_vx_sp_plague_2_4_one_carrier_chosen_by_a_secret_die() -> None:
    state = plague_position()
    state, events = GAME.apply(state, CastSpell(4, "plague"))
    # Candidates: the Guardsmen 0 and the Wearg Warriors 6 (friend or foe, VX-SP-PLAGUE-11); Wulfgeldre,
    # the Elves and the Undead are immune (VX-SP-PLAGUE-10), the caster is not a candidate.
    assert len(state.pending) == 1
    node = state.pending[0]
    assert (node.kind, node.sides, node.secret) == ("spell", 2, True)
    die = GAME.chance_outcomes(state)
    assert die is not None and die.secret  # the protocol's die says so too
    # No player is asked for it: with physical dice the referee still rolls a secret die with the table's own
    # dice, unseen (tests/core/test_referee.py).
    state, events = GAME.apply(state, ChanceOutcome(2))
    assert of(events, PlagueCarrierChosen) == [PlagueCarrierChosen(6, 4)]
    carrier = state.units[6]
    assert (carrier.infected, carrier.plague_base, carrier.carrier_only) == (1, 300.0, True)
    assert state.units[0].infected == 0
    assert of(events, SpellTookEffect)[0].units == ()  # nothing lit (VX-SP-PLAGUE-4)
    assert state.plague_chain[-1] == Infection(1, 6, 4, True)


def test_vx_sp_plague_2_a_single_candidate_needs_no_die() -> None:
    state = plague_position(warriors=False)
    state, events = GAME.apply(state, CastSpell(4, "plague"))
    assert state.pending == ()
    assert of(events, PlagueCarrierChosen) == [PlagueCarrierChosen(0, 4)]
    assert state.units[0].carrier_only and state.units[0].infected == 1


def test_vx_sp_plague_10_no_candidate_the_spell_is_wasted() -> None:
    # Only immune units within 5 of Wærloga 2 (6,4): Wulfgeldre 0 (4,4), Elves 1 (6,6); Undead 3 (8,4).
    state = setup(
        [("wulfgeldre", (4, 4)), ("elves", (6, 6))],
        [("waerloga", (6, 4)), ("undead_warriors", (8, 4))],
        first=1,
    )
    state, events = GAME.apply(state, CastSpell(2, "plague"))
    assert [e.spell for e in of(events, SpellFizzled)] == ["plague"]
    assert not any(u.is_carrier for u in state.units)


# --- 14 Cure Plague -----------------------------------------------------------------------------------


def test_vx_sp_cure_2_3_both_sides_cured_losses_stop() -> None:
    # Light: Circan 0 (1,4); Guardsmen 1 (3,4) infected in turn 1 at 300; Spearmen 2 (9,4), 8 cells away,
    # infected too. Darkness: Wearg Warriors 3 (4,6), 4 cells, a first carrier; Lefan 4 (11,0) far.
    state = position(
        [("circan", (1, 4)), ("guardsmen", (3, 4)), ("spearmen", (9, 4))],
        [("wearg_warriors", (4, 6)), ("lefan", (11, 0))],
    )
    state = tweak(state, 1, infected=1, plague_base=300.0)
    state = tweak(state, 2, infected=1, plague_base=300.0)
    state = tweak(state, 3, infected=1, plague_base=300.0, carrier_only=True)
    state = to_spells(state)
    state, events = throw(state, 0, "cure_plague")
    assert state.pending == ()  # never resisted
    assert PlagueCured(1) in events and CarrierCured(3) in events
    for uid in (1, 3):
        u = state.units[uid]
        assert (u.infected, u.plague_base, u.carrier_only) == (0, 0.0, False)
    assert state.units[2].infected == 1  # out of range
    state, _ = advance(state, 2)
    assert state.units[1].strength == 300.0  # no more losses
    assert state.units[2].strength == pytest.approx(285.0)  # the uncured: 5% of 300 in its first turn


# --- 15 Deny Magic ------------------------------------------------------------------------------------


def deny_position(first: int) -> ValkyrxState:
    """Wulfgeldre 0 (1,4), Guardsmen 1 (5,4); Wærloga 2 (7,4): 6 cells from Wulfgeldre, 2 from them."""
    return setup([("wulfgeldre", (1, 4)), ("guardsmen", (5, 4))], [("waerloga", (7, 4))], first=first)


def test_vx_sp_deny_2_ends_the_enemy_wizards_spell_in_force() -> None:
    state = deny_position(first=1)
    state, _ = throw(state, 2, "weakness")
    assert sp.attack_factor(state, state.units[1]) == 0.5
    assert state.mover == 0
    state, events = throw(state, 0, "deny_magic", (7, 4))
    assert of(events, SpellEnded) == [SpellEnded(2, "weakness", "denied (VX-SP-DENY-2)")]
    assert sp.attack_factor(state, state.units[1]) == 1.0


def test_vx_sp_deny_2_his_later_cast_this_turn_fizzles() -> None:
    state = deny_position(first=0)
    state, _ = throw(state, 0, "deny_magic", (7, 4))
    assert state.mover == 1
    state, events = GAME.apply(state, CastSpell(2, "fear"))
    assert of(events, SpellFizzled) == [SpellFizzled(2, "fear", "denied by an enemy wizard's Deny Magic")]
    assert not of(events, SpellTookEffect)
    assert "fear" not in state.units[2].spells  # spent
    assert state.units[2].strength == pytest.approx(0.9)  # and paid for
    assert state.units[1].morale_bonus == 0.0
    state, _ = advance(state, 2, first=1)  # next turn he casts again
    state, _ = throw(state, 2, "weakness")
    assert sp.attack_factor(state, state.units[1]) == 0.5


def test_vx_sp_deny_3_only_an_enemy_wizard_within_ten_cells() -> None:
    # Wærloga 2 at (11,4): 11 cells from Wulfgeldre 0 (0,4). Circan 1 (0,6) is his own.
    state = setup([("wulfgeldre", (0, 4)), ("circan", (0, 6))], [("waerloga", (11, 4))])
    assert not any(isinstance(a, CastSpell) and a.spell == "deny_magic" for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="no enemy wizard within range"):
        GAME.apply(state, CastSpell(0, "deny_magic", cell(11, 4)))
    near = setup([("wulfgeldre", (1, 4)), ("circan", (1, 6))], [("waerloga", (11, 4))])  # 10 cells: in range
    assert CastSpell(0, "deny_magic", cell(11, 4)) in GAME.legal_actions(near, 0)
    with pytest.raises(IllegalAction, match="enemy wizard"):
        GAME.apply(near, CastSpell(0, "deny_magic", cell(1, 6)))


# --- 16 Dismiss Dead/Wraiths --------------------------------------------------------------------------


def test_vx_sp_dismiss_2_enemy_undead_in_range_removed() -> None:
    # Wulfgeldre 0 (1,4). Darkness: Undead Warriors 1 (3,4), Wraiths 2 (4,4), Deall 3 (2,6), Wraith King 4
    # (5,4), Wearg Warriors 5 (3,2) (not undead), Undead Warriors 6 (9,4) 8 cells away, Lefan 7 (11,8).
    state = setup(
        [("wulfgeldre", (1, 4))],
        [
            ("undead_warriors", (3, 4)),
            ("wraiths", (4, 4)),
            ("deall", (2, 6)),
            ("wraith_king", (5, 4)),
            ("wearg_warriors", (3, 2)),
            ("undead_warriors", (9, 4)),
            ("lefan", (11, 8)),
        ],
        packs={0: ("dismiss_dead", "fire", "ice", "courage", "speed", "shield")},
    )
    state, _ = GAME.apply(state, CastSpell(0, "dismiss_dead"))
    assert [p.unit for p in state.pending] == [1, 2, 3, 4]  # VH: 50%
    events: list[Event] = []
    for face in (100, 100, 100, 50):  # the Wraith King resists
        state, more = GAME.apply(state, ChanceOutcome(face))
        events += more
    assert [e.unit for e in of(events, UnitRemoved)] == [1, 2, 3]
    assert [state.units[i].status for i in range(1, 8)] == [
        "destroyed",
        "destroyed",
        "destroyed",
        "active",
        "active",
        "active",
        "active",
    ]


def test_vx_11_05_dismiss_dead_spares_the_casters_own_undead() -> None:
    # Wærloga 2 (1,4) with his Undead Warriors 3 (3,4); the Light's Guardsmen 0 (5,4), Circan 1 (11,8).
    state = setup(
        [("guardsmen", (5, 4)), ("circan", (11, 8))],
        [("waerloga", (1, 4)), ("undead_warriors", (3, 4))],
        first=1,
        packs={2: ("dismiss_dead", "fire", "ice", "courage", "speed", "shield")},
    )
    state, events = GAME.apply(state, CastSpell(2, "dismiss_dead"))
    assert state.pending == ()
    assert state.units[3].status == "active" and state.units[0].status == "active"
    assert of(events, SpellTookEffect)[0].units == ()


# --- 17 Armageddon ------------------------------------------------------------------------------------


def armageddon_cast() -> ValkyrxState:
    """Wærloga 2 (1,4) casts Armageddon in turn 1; Guardsmen 0 (3,4), Wulfgeldre 1 (10,4) 9 cells away; a
    Sand Worm 3 hidden underground."""
    state = position(
        [("guardsmen", (3, 4)), ("wulfgeldre", (10, 4))],
        [("waerloga", (1, 4)), ("sand_worm", (6, 8))],
        first=1,
    )
    state = tweak(state, 2, spells=("armageddon", "fear", "ice", "courage", "speed", "shield"))
    state = to_spells(tweak(state, 3, hidden=True))
    state, events = throw(state, 2, "armageddon")
    took = of(events, SpellTookEffect)[0]
    assert (took.first_turn, took.last_turn) == (2, 3)
    assert state.mover == 0
    return state


def test_vx_sp_armageddon_1_2_6_a_one_in_turn_two_destroys_everything_a_draw() -> None:
    state = armageddon_cast()
    state, _ = GAME.apply(state, EndPhase())  # turn 1 ends with no die: it waits for turn 2
    assert all(p.kind != "armageddon" for p in state.pending)
    state, _ = advance(state, 2)
    state, _ = throw(state, 1, "shield")  # Wulfgeldre's Shield: no help against Armageddon (VX-SP-SHIELD-3)
    state, _ = GAME.apply(state, EndPhase())  # both seats done: the gods are asked
    assert [(p.kind, p.sides) for p in state.pending] == [("armageddon", 4)]
    state, events = GAME.apply(state, ChanceOutcome(1))
    assert ArmageddonRolled(2, True) in events
    assert all(u.status == "destroyed" for u in state.units)  # the hidden worm and the caster too
    assert state.result is not None and state.result.winner is None
    assert state.phase == "over"


def test_vx_sp_armageddon_3_faces_two_to_four_do_nothing() -> None:
    state = armageddon_cast()
    state, _ = advance(state, 2)
    state, _ = GAME.apply(state, EndPhase())
    state, _ = GAME.apply(state, EndPhase())
    state, events = GAME.apply(state, ChanceOutcome(2))
    assert ArmageddonRolled(2, False) in events
    assert all(u.status == "active" for u in state.units)
    assert not any(e.spell == "armageddon" for e in state.enchantments)
    state, events = advance(state, 3)  # asked once only
    state, _ = GAME.apply(state, EndPhase())
    state, more = GAME.apply(state, EndPhase())
    assert all(p.kind != "armageddon" for p in state.pending) and not of(more, ArmageddonRolled)


def test_vx_sp_armageddon_5_deny_magic_in_the_casting_turn_cancels_it() -> None:
    state = armageddon_cast()
    state, events = throw(state, 1, "deny_magic", (1, 4))
    assert SpellEnded(2, "armageddon", "denied (VX-SP-DENY-2)") in events
    state, _ = advance(state, 2)
    state, _ = GAME.apply(state, EndPhase())
    state, more = GAME.apply(state, EndPhase())
    assert all(p.kind != "armageddon" for p in state.pending) and not of(more, ArmageddonRolled)


def test_vx_sp_armageddon_5_deny_magic_in_turn_two_cancels_it() -> None:
    state = armageddon_cast()
    state, _ = advance(state, 2)
    assert state.mover == 0
    state, events = throw(state, 1, "deny_magic", (1, 4))
    assert SpellEnded(2, "armageddon", "denied (VX-SP-DENY-2)") in events
    state, more = GAME.apply(state, EndPhase())  # Wærloga casts nothing
    assert all(p.kind != "armageddon" for p in state.pending) and not of(more, ArmageddonRolled)
    assert state.result is None


def test_vx_sp_gen_3_a_new_spell_of_the_caster_cancels_a_waiting_armageddon() -> None:
    state = armageddon_cast()
    state, _ = advance(state, 2)
    state, _ = GAME.apply(state, EndPhase())
    state, events = throw(state, 2, "courage")
    assert SpellEnded(2, "armageddon", "a new spell ends the old one (VX-SP-GEN-3)") in events
    assert all(p.kind != "armageddon" for p in state.pending)


# --- 18 Creeping Death --------------------------------------------------------------------------------


def lava_board() -> ValkyrxState:
    """A 20x15 board. Light: Guardsmen 0 (9,7), Ǻstígend 1 (10,7) on the ground, Spearmen 2 (18,1),
    Circan 3 (18,13). Darkness: Wærloga 4 (5,7): the Guardsmen (4 cells) are the nearest enemy."""
    return setup(
        [("guardsmen", (9, 7)), ("astigend", (10, 7)), ("spearmen", (18, 1)), ("circan", (18, 13))],
        [("waerloga", (5, 7))],
        first=1,
        width=20,
        height=15,
    )


# The Guardsmen's neighbours (odd row 7) and their distance to Wærloga (5,7): (8,7) 3, (9,6) 4, (9,8) 4,
# (10,6) 5, (10,8) 5; (10,7) holds Ǻstígend. The lava starts at (8,7).
RING1 = {(8, 7), (8, 6), (9, 6), (7, 7), (9, 7), (8, 8), (9, 8)}  # (8,7) and its six neighbours (odd row)
# Radius 2 round (8,7), axial (5,7), row by row (axial q = col - (row - row % 2) / 2, distance by cube):
# row 5: cols 7..9 (3); row 6: cols 7..10 (4); row 7: cols 6..10 (5); row 8: cols 7..10 (4); row 9: cols
# 7..9 (3): 19 cells. E.g. (6,6) is axial (3,6): dq -2, dr -1 -> 3 cells, out; (10,6) axial (7,6): 2, in.
RING2 = (
    {(c, 5) for c in range(7, 10)}
    | {(c, 6) for c in range(7, 11)}
    | {(c, 7) for c in range(6, 11)}
    | {(c, 8) for c in range(7, 11)}
    | {(c, 9) for c in range(7, 10)}
)


def test_vx_sp_creep_2_to_6_lava_spreads_1_7_19_and_destroys_units_left_in_it() -> None:
    state = lava_board()
    state, events = throw(state, 4, "creeping_death")
    took = of(events, SpellTookEffect)[0]
    assert (took.cells, took.first_turn, took.last_turn) == (((8, 7),), 1, 3)
    assert sp.lava_cells(state) == {cell(8, 7)}  # VX-SP-CREEP-3: 1 cell in turn t
    state, _ = advance(state, 2, phase="movement")
    assert sp.lava_cells(state) == {cell(*c) for c in RING1}  # 7 cells in turn t+1
    with pytest.raises(IllegalAction, match="lava"):
        GAME.apply(state, Move(0, cell(9, 6)))  # into the lava: refused
    assert Move(0, cell(9, 6)) not in GAME.legal_actions(state, 0)
    state, events = advance(state, 2)  # the Guardsmen stay in (9,7): the lava spreads over them
    assert [len(e.cells) for e in of(events, LavaSpread)] == [7]
    assert UnitRemoved(0, "engulfed by the lava") in events
    assert state.units[0].status == "destroyed"
    state, events = advance(state, 3, first=0)
    assert len(RING2) == 19
    assert sp.lava_cells(state) == {cell(*c) for c in RING2}  # 19 cells in turn t+2 (VX-SP-CREEP-5)
    assert state.units[1].cell == cell(10, 7) and state.units[1].status == "active"  # VX-SP-CREEP-7
    state, _ = advance(state, 4)
    assert sp.lava_cells(state) == frozenset()  # cooled after t+2


def test_vx_sp_creep_6_a_unit_may_walk_out_of_the_coming_lava() -> None:
    state = lava_board()
    state, _ = throw(state, 4, "creeping_death")
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, Move(0, cell(10, 8)))  # 2 cells from (8,7): out of the 7
    state, _ = advance(state, 2)
    assert state.units[0].status == "active"


def test_vx_sp_creep_5_fewer_cells_at_the_board_edge() -> None:
    # 12x9 board: Guardsmen 0 (1,0), Spearmen 1 (11,8), Circan 2 (9,8); Wærloga 3 (5,0).
    # Guardsmen's free neighbours: (0,0) 5 from Wærloga, (2,0) 3, (0,1) 5, (1,1) 4: the lava starts at (2,0).
    state = setup(
        [("guardsmen", (1, 0)), ("spearmen", (11, 8)), ("circan", (9, 8))], [("waerloga", (5, 0))], first=1
    )
    state, _ = throw(state, 3, "creeping_death")
    assert sp.lava_cells(state) == {cell(2, 0)}
    state, _ = advance(state, 2, first=1)
    # Radius 1: (1,0), (3,0), (1,1), (2,1) and the centre; the two cells of row -1 are off the board.
    assert sp.lava_cells(state) == {cell(*c) for c in [(2, 0), (1, 0), (3, 0), (1, 1), (2, 1)]}
    state, _ = advance(state, 3, first=1)
    # Radius 2 on the board: row 0 cols 0..4 (5), row 1 cols 0..3 (4), row 2 cols 1..3 (3): 12 of 19.
    expected = [(c, 0) for c in range(5)] + [(c, 1) for c in range(4)] + [(c, 2) for c in range(1, 4)]
    assert sp.lava_cells(state) == {cell(*c) for c in expected}


# --- 19 Lead Boots ------------------------------------------------------------------------------------


def test_vx_sp_leadboots_2_3_cannot_move_for_three_turns_and_strike_at_half() -> None:
    # Light: Guardsmen 0 (3,4), Ǻstígend 1 (4,4) airborne, Circan 2 (11,8) far. Darkness: Ellorgast 3
    # (1,4), Wearg Warriors 4 (6,4).
    state = position(
        [("guardsmen", (3, 4)), ("astigend", (4, 4)), ("circan", (11, 8))],
        [("ellorgast", (1, 4)), ("wearg_warriors", (6, 4))],
        first=1,
    )
    state = to_spells(tweak(state, 1, airborne=True))
    state, _ = throw(state, 3, "lead_boots")
    assert state.units[1].airborne is False  # brought down by the weight
    assert sp.is_leaden(state, 0) and sp.attack_factor(state, state.units[0]) == 0.5
    assert casualties(state, Attack(0, 4, "melee", 1.0), 1)[1] == pytest.approx(12.0)  # 24 x 0.5
    for turn in (2, 3):
        state, _ = advance(state, turn, phase="movement")
        why = why_not_move(state, state.units[0], 0)
        assert why is not None and "Lead Boots" in why, turn
        assert not any(isinstance(a, Move) and a.unit in (0, 1) for a in GAME.legal_actions(state, 0))
        assert any(isinstance(a, Move) and a.unit == 2 for a in GAME.legal_actions(state, 0))
        with pytest.raises(IllegalAction, match="Lead Boots"):
            GAME.apply(state, Move(0, cell(3, 3)))
    state, _ = advance(state, 4, phase="movement")
    assert why_not_move(state, state.units[0], 0) is None
    assert sp.attack_factor(state, state.units[0]) == 1.0


# --- 20 Speed -----------------------------------------------------------------------------------------


def test_vx_sp_speed_2_double_allowance_in_the_three_following_turns_only() -> None:
    # Circan 0 (1,4), Guardsmen 1 (3,4) move 2/3, Ǻstígend 2 (4,4) fly 12 (walk 12/3 = 4), Spearmen 3 (2,6)
    # move 2/2 blessed by the Temple, Knights 4 (8,4) 7 cells away; Lefan 5 (11,8).
    state = position(
        [
            ("circan", (1, 4)),
            ("guardsmen", (3, 4)),
            ("astigend", (4, 4)),
            ("spearmen", (2, 6)),
            ("knights_of_mynsterlif", (8, 4)),
        ],
        [("lefan", (11, 8))],
    )
    state = to_spells(tweak(state, 3, temple_until=10))
    state, events = throw(state, 0, "speed")
    took = of(events, SpellTookEffect)[0]
    assert (took.units, took.first_turn, took.last_turn) == ((0, 1, 2, 3), 2, 4)
    a = allowance(state, state.units[1])
    assert (a.normal, a.charge) == (2, 3)  # turn t: not yet
    for turn in (2, 3, 4):
        state, _ = advance(state, turn)
        a = allowance(state, state.units[1])
        assert (a.normal, a.charge, a.fly) == (4, 6, None), turn
        a = allowance(state, state.units[0])
        assert (a.normal, a.charge) == (4, 4), turn  # the caster too
        a = allowance(state, state.units[2])
        assert (a.normal, a.fly) == (8, 24), turn
        a = allowance(state, state.units[3])
        assert (a.normal, a.charge) == (4, 4), turn  # Temple x2 and Speed x2: x2 at most
        a = allowance(state, state.units[4])
        assert (a.normal, a.charge) == (3, 5), turn  # out of range
    state, _ = advance(state, 5)
    a = allowance(state, state.units[1])
    assert (a.normal, a.charge) == (2, 3)


# --- 21 Courage ---------------------------------------------------------------------------------------


def test_vx_sp_courage_2_plus_ten_for_three_turns() -> None:
    # Circan 0 (1,4) morale 35, Guardsmen 1 (3,4) morale 30; Lefan 2 (11,8).
    state = setup([("circan", (1, 4)), ("guardsmen", (3, 4))], [("lefan", (11, 8))])
    state, _ = throw(state, 0, "courage")
    assert state.pending == ()
    assert (state.units[1].spirit, state.units[0].spirit) == (40.0, 45.0)  # 30 + 10, 35 + 10
    for turn in (2, 3):
        state, _ = advance(state, turn)
        assert state.units[1].spirit == 40.0, turn
    state, _ = advance(state, 4)
    assert (state.units[1].morale_bonus, state.units[1].spirit) == (0.0, 30.0)


def test_vx_sp_courage_2_fear_and_courage_add() -> None:
    # Circan 0 (1,4), Guardsmen 1 (3,4); Ellorgast 2 (6,4): Guardsmen 3 cells, Circan 5.
    state = setup([("circan", (1, 4)), ("guardsmen", (3, 4))], [("ellorgast", (6, 4))])
    state, _ = throw(state, 0, "courage")
    state, _ = throw(state, 2, "fear")
    assert state.units[1].morale_bonus == 0.0  # +10 - 10
    assert state.units[1].spirit == 30.0


def test_vx_sp_courage_2_the_same_spell_never_stacks_with_itself() -> None:
    # Circan 0 (1,4) and Wulfgeldre 1 (1,6) both give Courage to the Guardsmen 2 (3,4): +10, not +20.
    state = position(
        [("circan", (1, 4)), ("wulfgeldre", (1, 6)), ("guardsmen", (3, 4))], [("lefan", (11, 8))]
    )
    state = to_spells(tweak(state, 1, spells=("courage", "fire", "ice", "fear", "speed", "shield")))
    state, _ = throw(state, 0, "courage")
    state, _ = throw(state, 1, "courage")
    assert state.units[2].morale_bonus == 10.0
    assert state.units[2].spirit == 40.0


# --- a whole game -------------------------------------------------------------------------------------


def test_simulate_the_sorcery_scenario_runs_and_casts(tmp_path: Path) -> None:
    record = tmp_path / "sorcery.json"
    args = ["simulate", "valkyrx", "--scenario", "sorcery", "--seed", "1", "--json", "--record", str(record)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["scenario"] == "sorcery" and summary["winner"] in ("light", "darkness", None)
    steps = json.loads(record.read_text(encoding="utf-8"))["steps"]
    casts = [
        s["action"] for s in steps if isinstance(s["action"], dict) and s["action"].get("type") == "cast"
    ]
    assert casts  # the wizards did cast


# --- more: how spells meet the rest of the rules ------------------------------------------------------


def test_vx_sp_deny_2_a_denied_command_gives_control_back_at_the_next_turn() -> None:
    # Wulfgeldre 0 (1,4) commands the Warriors 1 (4,4); Wærloga 2 (9,4), 8 cells from him, denies it first
    # thing in turn 2: the Warriors stay with the Light for the rest of turn 2, and are the Darkness's in
    # turn 3 (VX-SP-DENY-2 as decided: "control reverts at next turn start").
    state = setup(
        [("wulfgeldre", (1, 4))],
        [("wearg_warriors", (4, 4)), ("waerloga", (9, 4))],
        packs={0: ("command", "fire", "ice", "courage", "speed", "shield")},
    )
    state, _ = throw(state, 0, "command")
    state, _ = advance(state, 2, first=1)
    assert state.units[1].commander == 0 and state.mover == 1
    state, events = throw(state, 2, "deny_magic", (1, 4))
    assert SpellEnded(0, "command", "denied (VX-SP-DENY-2)") in events
    assert state.turn == 2 and state.mover == 0
    assert state.units[1].commander == 0
    state, _ = advance(state, 3)
    assert state.units[1].commander == 1


def test_vx_sp_creep_3_no_enemy_within_five_the_lava_starts_as_close_as_range_allows() -> None:
    # Wærloga 1 (1,4), the Guardsmen 0 (9,4) 8 cells away. Cells within 5 of Wærloga nearest the Guardsmen:
    # only (6,4) is 3 from them (5 + 3 = 8: it lies on the one shortest path, along row 4).
    state = setup([("guardsmen", (9, 4)), ("circan", (11, 8))], [("waerloga", (1, 4))], first=1)
    state, events = throw(state, 2, "creeping_death")
    assert of(events, SpellTookEffect)[0].cells == ((6, 4),)


def test_vx_sp_transport_4_never_to_the_temple_or_impassable_ground() -> None:
    # Circan 0 (5,4), Swordsmen 1 (7,4); the Temple at (0,0), the Standing Stones at (1,0); Warriors 2
    # (11,8); Lefan 3 (0,8) far.
    state = setup(
        [("circan", (5, 4)), ("swordsmen", (7, 4))],
        [("wearg_warriors", (11, 8)), ("lefan", (0, 8))],
        terrain=[("temple", [(0, 0)]), ("impassable", [(1, 0)])],
    )
    state, _ = throw(state, 0, "transportation", (6, 4))
    state, _ = advance(state, 2, phase="movement")
    state, _ = GAME.apply(state, Move(1, cell(6, 4)))
    legal = GAME.legal_actions(state, 0)
    assert Transport(1, cell(0, 0)) not in legal and Transport(1, cell(1, 0)) not in legal
    assert Transport(1, cell(2, 0)) in legal
    with pytest.raises(IllegalAction, match="the Temple"):
        GAME.apply(state, Transport(1, cell(0, 0)))


def test_vx_sp_fear_2_the_bonus_counts_for_flight() -> None:
    # Guardsmen 0 (3,4) at morale 5; Ellorgast's Fear makes it 5 - 10 = -5 < 0: they flee at the end of
    # the turn (VX-10-13). Circan 1 (11,8) far.
    state = position([("guardsmen", (3, 4)), ("circan", (11, 8))], [("ellorgast", (1, 4))], first=1)
    state = to_spells(tweak(state, 0, morale=5.0))
    state, _ = throw(state, 2, "fear")
    assert state.units[0].spirit == -5.0
    state, events = advance(state, 2, first=1)
    assert state.units[0].status == "fled"
    assert UnitRemoved(0, "fled") in events


def test_vx_sp_courage_2_the_bonus_counts_for_the_random_factor() -> None:
    # Guardsmen 1 (3,4) at morale 35 + Courage 10 = 45: Enhanced, 110%..160% (VX-10-08). Face 1: 110%.
    # 450 hits x 1.1 = 495 x 10 / 150 = 33 men on the Wearg Warriors 3 (5,4).
    state = position(
        [("circan", (1, 4)), ("guardsmen", (3, 4))], [("lefan", (11, 8)), ("wearg_warriors", (5, 4))]
    )
    state = to_spells(tweak(state, 1, morale=35.0))
    assert casualties(state, Attack(1, 3, "melee", 1.0), 1)[1] == pytest.approx(24.0)  # Standard: 80%
    state, _ = throw(state, 0, "courage")
    assert casualties(state, Attack(1, 3, "melee", 1.0), 1)[1] == pytest.approx(33.0)


def test_vx_sp_weakness_2_a_weakened_unit_takes_double_from_fire() -> None:
    # Defence halved: Fire on weakened Guardsmen 0 (3,4) is 10000 / (150 x 0.5) = 133.33 men. Ellorgast 2
    # (1,4) weakens them, Lefan 3 (1,6) burns them; Circan 1 (11,8) far.
    state = position(
        [("guardsmen", (3, 4)), ("circan", (11, 8))], [("ellorgast", (1, 4)), ("lefan", (1, 6))], first=1
    )
    state = to_spells(state)
    state, _ = throw(state, 2, "weakness")
    state, _ = throw(state, 3, "fire")
    assert state.units[0].strength == pytest.approx(300 - 10000 / 75)  # 166.67


def test_vx_sp_gen_3_lasting_spells_outlive_their_caster() -> None:
    # Ellorgast 2 (5,4) weakens the Guardsmen 1 (3,4) (and Wulfgeldre 0 (1,4)); Wulfgeldre's Fire then
    # burns him: 10000 / 2500 = 4.0 of his strength, all of it. The Weakness holds through turn 2.
    state = setup(
        [("wulfgeldre", (1, 4)), ("guardsmen", (3, 4))], [("ellorgast", (5, 4)), ("lefan", (11, 8))], first=1
    )
    state, _ = throw(state, 2, "weakness")
    state, _ = GAME.apply(state, EndPhase())  # Lefan casts nothing
    state, _ = throw(state, 0, "fire", faces=(100,))  # Ellorgast (4 cells) only: Lefan is 12 away
    assert state.units[2].status == "destroyed"
    assert sp.attack_factor(state, state.units[1]) == 0.5
    state, _ = advance(state, 2)
    assert sp.attack_factor(state, state.units[1]) == 0.5


def test_vx_sp_creep_6_airborne_flyers_are_not_touched_by_the_lava() -> None:
    # lava_board plus Vertígron 4 (9,8), airborne, 4 cells from Wærloga 5 like the Guardsmen but later in
    # board order: the lava still starts at (8,7), and (9,8) is one of its 7 cells in turn 2.
    state = position(
        [
            ("guardsmen", (9, 7)),
            ("astigend", (10, 7)),
            ("spearmen", (18, 1)),
            ("circan", (18, 13)),
            ("vertigron", (9, 8)),
        ],
        [("waerloga", (5, 7))],
        first=1,
        width=20,
        height=15,
    )
    state = to_spells(tweak(state, 4, airborne=True))
    state, events = throw(state, 5, "creeping_death")
    assert of(events, SpellTookEffect)[0].cells == ((8, 7),)
    state, events = advance(state, 2)
    assert UnitRemoved(0, "engulfed by the lava") in events
    assert state.units[4].status == "active" and state.units[4].airborne


def test_vx_sp_creep_6_an_airborne_flyer_may_end_its_flight_over_lava() -> None:
    # "Ground units may not end a move in lava": Vertígron 4 (13,7), 5 cells east of the lava's start
    # (8,7), flies airborne onto it in turn 2.
    state = position(
        [
            ("guardsmen", (9, 7)),
            ("astigend", (10, 7)),
            ("spearmen", (18, 1)),
            ("circan", (18, 13)),
            ("vertigron", (13, 7)),
        ],
        [("waerloga", (5, 7))],
        first=1,
        width=20,
        height=15,
    )
    state = to_spells(state)
    state, _ = throw(state, 5, "creeping_death")
    state, _ = advance(state, 2, phase="movement")
    assert cell(8, 7) in sp.lava_cells(state)
    assert Move(4, cell(8, 7), airborne=True) in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, Move(4, cell(8, 7)))  # walking into it: refused


def test_vx_05_11_the_temple_halves_spell_damage() -> None:
    # Lefan 5 (1,4) throws Fire on blessed Guardsmen 0 (3,4): 10000 / 150 = 66.67, halved: 33.33 men.
    state = setup([("guardsmen", (3, 4)), ("wulfgeldre", (10, 8))], [("lefan", (1, 4))], first=1)
    state = tweak(state, 0, temple_until=5)
    state, _ = GAME.apply(state, CastSpell(2, "fire"))
    state, events = GAME.apply(state, ChanceOutcome(100))
    assert [(e.unit, e.casualties) for e in of(events, SpellCasualties)] == [(0, pytest.approx(33.3333333))]
    assert state.units[0].strength == pytest.approx(266.6666667)
