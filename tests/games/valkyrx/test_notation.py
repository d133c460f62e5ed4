"""The one-line position notation of Days of the Valkyrx (``iwgt.games.valkyrx.notation``).

What is checked: the module's own example reads back to what it says; over the states of seeded random
playouts of every shipped scenario, the notation reads back to a state with the same notation and equal to
the original in everything it covers (all but a die's wording, the result's reason and the plague's chain),
and at decision points with the same legal actions; every mark of a unit, contact, spell in force and
chance node survives the round trip; a hand-written position means what it says; bad text is refused with
the section at fault named.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.chance import SeededDice, SplitMix64
from iwgt.core.notation import NotationError
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.core.registry import get_plugin
from iwgt.games.valkyrx import notation as module
from iwgt.games.valkyrx.actions import ConfirmDeployment, EndPhase, Move
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.notation import notation, parse_notation
from iwgt.games.valkyrx.scenario import ValkyrxScenario, load_scenario, scenario_names
from iwgt.games.valkyrx.state import (
    Attack,
    Casting,
    Contact,
    Enchantment,
    Infection,
    Pending,
    ValkyrxState,
    Verdict,
)
from iwgt.geometry.hexgrid import offset_to_hex

GAME = ValkyrxGame()
STEPS = 400
"""States visited per playout (chance steps included): enough to pass deployment and fight a few turns."""
LEGAL_EVERY = 20
"""Every so many decision points, the parsed state's legal actions are compared too (they are dear)."""


def covered(state: ValkyrxState) -> ValkyrxState:
    """The state as far as the notation covers it: no die's wording, no result reason, no plague chain."""
    return replace(
        state,
        pending=tuple(replace(p, purpose="") for p in state.pending),
        result=None if state.result is None else Verdict(state.result.winner, ""),
        plague_chain=(),
    )


def example() -> str:
    """The example line of the module's docstring (its backslash-newlines join it into one line)."""
    doc = module.__doc__ or ""
    return next(line.strip() for line in doc.splitlines() if line.strip().startswith("valkyrx/"))


def test_the_docstring_example_reads_back() -> None:
    scen = load_scenario("first_battle")
    text = example()
    state = parse_notation(text, scen)
    assert notation(state) == text
    assert (state.turn, state.phase, state.first_mover, state.mover, state.movers_done) == (
        2,
        "movement",
        1,
        0,
        1,
    )
    assert GAME.to_move(state) == 0  # the Light moves second: "mover=L done=1"
    grima, warriors = state.units[1], state.units[5]
    assert (grima.type_id, grima.quarry, grima.cell) == ("grima", 4, offset_to_hex(7, 1))
    assert (warriors.owner, warriors.controller, warriors.commander) == (1, 0, 0)  # under the Light's Command
    assert state.contacts == (Contact(2, 4, rounds=1, deferred=False, fresh=False),)
    assert [(e.spell, e.caster, e.units, e.first, e.last) for e in state.enchantments] == [
        ("command", 0, (5, 6), 2, 4),
        ("lead_boots", 4, (2, 3), 1, 3),
    ]


def test_the_plugin_writes_the_notation() -> None:
    state = GAME.initial_state(load_scenario("skirmish"))
    assert get_plugin("valkyrx").notation(state) == notation(state)


def test_the_opening_position_of_first_battle_by_hand() -> None:
    """Worked out from the scenario file: four Light units on rows 0-1, five Darkness units on rows 4-5,
    full strength (the attributes table's bodies) and morale, deployment open for the Light."""
    state = GAME.initial_state(load_scenario("first_battle"))
    units = [(u.type_id, u.strength, u.morale) for u in state.units]
    assert notation(state) == (
        "valkyrx/first_battle turn=0 phase=deploy deploy=L"
        f" | L0 wulfgeldre 3,0 {units[0][1]:g}/{units[0][2]:g}"
        f" | L1 grima 6,0 {units[1][1]:g}/{units[1][2]:g}"
        f" | L2 swordsmen 3,1 {units[2][1]:g}/{units[2][2]:g}"
        f" | L3 archers 5,1 {units[3][1]:g}/{units[3][2]:g}"
        f" | D4 ellorgast 4,5 {units[4][1]:g}/{units[4][2]:g}"
        f" | D5 wearg_warriors 3,4 {units[5][1]:g}/{units[5][2]:g}"
        f" | D6 wearg_archers 5,4 {units[6][1]:g}/{units[6][2]:g}"
        f" | D7 lefan 2,5 {units[7][1]:g}/{units[7][2]:g}"
        f" | D8 cave_troll 2,4 {units[8][1]:g}/{units[8][2]:g}"
    )


def playout(scen: ValkyrxScenario, seed: int) -> list[ValkyrxState]:
    """A seeded random playout: uniform over the legal actions, but at deployment a third of the time the
    tick (else random play would place units for ever), dice from the table's seeded dice."""
    state = GAME.initial_state(scen)
    dice, rng = SeededDice(seed), SplitMix64(seed)
    states = [state]
    for _ in range(STEPS):
        seat = GAME.to_move(state)
        if seat is None:
            break
        if seat == CHANCE:
            die = GAME.chance_outcomes(state)
            assert die is not None
            state, _ = GAME.apply(state, ChanceOutcome(dice.roll(die)))
        else:
            legal = GAME.legal_actions(state, seat)
            confirm = state.phase == "deploy" and rng.below(3) == 0
            state, _ = GAME.apply(state, ConfirmDeployment() if confirm else legal[rng.below(len(legal))])
        states.append(state)
    return states


@pytest.mark.parametrize("scenario", scenario_names())
def test_round_trip_over_a_random_playout(scenario: str) -> None:
    scen = load_scenario(scenario)
    decisions = 0
    for state in playout(scen, seed=7):
        text = notation(state)
        back = parse_notation(text, scen)
        assert notation(back) == text
        assert back == covered(state), text
        seat = GAME.to_move(back)
        if seat is not None and seat != CHANCE:
            decisions += 1
            if decisions % LEGAL_EVERY == 0:
                assert GAME.legal_actions(back, seat) == GAME.legal_actions(state, seat), text


def test_every_mark_survives_the_round_trip() -> None:
    """A state with every field of a unit, contact, spell in force and chance node set away from its usual
    value (the values need not make a legal game: the notation is only asked to carry them)."""
    scen = load_scenario("sorcery")
    base = GAME.initial_state(scen)
    wizard = next(u for u in base.units if u.type.has("wizard"))
    u0 = replace(
        wizard,
        cell=offset_to_hex(2, 3),
        strength=0.8141818181818182,
        morale=37.5,
        status="fled",
        controller=1 - wizard.owner,
        routed=True,
        airborne=True,
        moved=True,
        moved_cost=2.5,
        charging=True,
        last_charge=3,
        temple_until=5,
        prayed=True,
        casualties_turn=0.25,
        undead_losses=1.5,
        hidden=True,
        quarry=len(base.units) - 1,
        surface_turns=2,
        spells=("fire", "fear"),
        cast_turn=4,
        morale_bonus=-10.0,
        infected=3,
        plague_base=12.75,
        carrier_only=True,
        burned=2,
        chilled=6,
    )
    state = replace(
        base.with_unit(u0),
        turn=6,
        phase="combat",
        deploy_seat=0,
        first_mover=1,
        mover=0,
        movers_done=2,
        contacts=(Contact(0, len(base.units) - 1, rounds=3, deferred=True, fresh=True), Contact(1, 2)),
        pending=(
            Pending("factor", unit=u0.id, sides=100, purpose="random factor"),
            Pending("spell", sides=11, secret=True),
        ),
        rolls=(34, 100, 1),
        result=Verdict(None, ""),
        leaders_slain=(1, 2),
        raised=((0, 2.5), (1, 1.0)),
        plan=(Attack(0, 1, "missile", 0.5, melee_stage=True, charge=True, flank=True, outnumbered=True),),
        enchantments=(
            Enchantment(
                "transportation", 0, 1, 5, 5, 7, (1, 2), (offset_to_hex(4, 4), offset_to_hex(0, 1)), 2
            ),
            Enchantment("fear", 1, 0, 6, 6, 6),
        ),
        casting=Casting("plague", 0, "resist", (1, 2), offset_to_hex(3, 3), (2,)),
        denied=(0,),
    )
    text = notation(state)
    back = parse_notation(text, scen)
    assert notation(back) == text
    assert back == covered(state)
    assert back.units[u0.id] == u0  # every field of the unit, exactly
    assert f"| dice factor:{'LD'[u0.owner]}{u0.id}:d100 spell:d11:secret |" in text
    assert " winner=draw " in text


def test_a_hand_written_position() -> None:
    """A test writes a position by hand: the Light's swordsmen in contact with the Wearg warriors on turn 1,
    not yet fought, the Light to move; the notation says it all, and the rules play on from it."""
    scen = load_scenario("first_battle")
    text = (
        "valkyrx/first_battle turn=1 phase=movement first=L mover=L"
        " | L0 wulfgeldre 3,0 1/40 spells=fire,strength,command,deny_magic,shield,resurrection"
        " | L1 grima 6,0 1/40 | L2 swordsmen 3,3 300/30 | L3 archers 5,1 300/25"
        " | D4 ellorgast 4,5 1/35 spells=fear,weakness,lead_boots,disharmony,earthquake,shield"
        " | D5 wearg_warriors 3,4 250/20 | D6 wearg_archers 5,4 300/25"
        " | D7 lefan 2,5 1/35 spells=fire,ice,strength,speed,courage,deny_magic | D8 cave_troll 2,4 60/30"
        " | contact L2 D5"
    )
    state = parse_notation(text, scen)
    assert notation(state) == text
    assert GAME.to_move(state) == 0
    assert state.units[2].cell == offset_to_hex(3, 3) and state.units[5].strength == 250.0
    assert state.contact(2, 5) == Contact(2, 5, rounds=0, deferred=False, fresh=False)
    # VX-03-03: a ground unit next to an enemy it has not yet fought a round with is locked: no Move of the
    # swordsmen is legal; the archers, far from the enemy, may move.
    movers = {a.unit for a in GAME.legal_actions(state, 0) if isinstance(a, Move)}
    assert 2 not in movers and 3 in movers
    after, _ = GAME.apply(state, EndPhase())
    assert notation(after).startswith("valkyrx/first_battle turn=1 phase=movement first=L mover=D done=1 ")


def test_a_chance_node_reads_back_as_one() -> None:
    """The first-mover die of turn 1 (VX-04-03): the notation shows it, and the parsed state awaits it."""
    scen = load_scenario("first_battle")
    state = GAME.initial_state(scen)
    state, _ = GAME.apply(state, ConfirmDeployment())
    state, _ = GAME.apply(state, ConfirmDeployment())
    text = notation(state)
    assert text.startswith("valkyrx/first_battle turn=1 phase=first_mover | ")
    assert text.endswith(" | dice first_mover:d2")
    back = parse_notation(text, scen)
    assert GAME.to_move(back) == CHANCE
    die = GAME.chance_outcomes(back)
    assert die is not None and die.sides == 2
    assert notation(GAME.apply(back, ChanceOutcome(2))[0]) == notation(GAME.apply(state, ChanceOutcome(2))[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("valkyrx/skirmish turn=0 phase=deploy", "'valkyrx/first_battle' expected first"),
        ("valkyrx/first_battle phase=deploy", "'turn=' is missing"),
        ("valkyrx/first_battle turn=0 phase=lunch", "phase 'lunch' is not one of"),
        ("valkyrx/first_battle turn=0 phase=deploy colour=red", "unknown mark 'colour'"),
        ("valkyrx/first_battle turn=0 phase=deploy | L0 guardsmen 3,0 1/40", "unit 0 is 'wulfgeldre'"),
        ("valkyrx/first_battle turn=0 phase=deploy | D0 wulfgeldre 3,0 1/40", "unit 0 belongs to L, not D"),
        ("valkyrx/first_battle turn=0 phase=deploy | L9 grima 3,0 1/40", "there is no unit 9"),
        ("valkyrx/first_battle turn=0 phase=deploy | L0 wulfgeldre 3,0 1/40 sleepy", "unknown word 'sleepy'"),
        ("valkyrx/first_battle turn=0 phase=deploy | L0 wulfgeldre 3;0 1/40", "a cell col,row expected"),
        (
            "valkyrx/first_battle turn=0 phase=deploy | L0 wulfgeldre 3,0 1/40",
            "unit(s) L1, L2, L3, D4, D5, D6, D7, D8 missing",
        ),
        ("valkyrx/first_battle turn=0 phase=deploy | weather rain", "a section is a unit"),
        ("valkyrx/first_battle turn=0 phase=deploy | dice lunch:d6", "die kind 'lunch' is not one of"),
    ],
)
def test_bad_notations_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(text, load_scenario("first_battle"))
    assert message in str(info.value)


def test_infection_chain_is_not_covered() -> None:
    """The plague's chain is a report of the past, shown at the end: the notation leaves it out."""
    scen = load_scenario("first_battle")
    state = GAME.initial_state(scen)
    chained = replace(state, plague_chain=(Infection(1, 0, 4, True),))
    assert notation(chained) == notation(state)
