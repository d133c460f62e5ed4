"""The one-line position notation of Valhalla (``iwgt.games.valhalla.notation``).

What is checked: the module's own example reads back to what it says; over the states of seeded random
playouts of every shipped scenario (a policy that likes to charge, fight and shoot, so that hurts, combats
and dice in progress come up), the notation reads back to a state with the same notation and equal to the
original in everything but why a finished game ended, and at decision points with the same legal actions;
the deal in progress, fights, shots, saves and the baggage's turn survive the round trip; a hand-written
position means what it says; bad text is refused with the section at fault named.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from iwgt.core.chance import SeededDice, SplitMix64
from iwgt.core.notation import NotationError
from iwgt.core.protocol import CHANCE, ChanceOutcome
from iwgt.core.registry import get_plugin
from iwgt.games.valhalla import notation as module
from iwgt.games.valhalla.actions import Charge, EndActivation, Fight, Move, Shoot
from iwgt.games.valhalla.notation import card_text, notation, parse_notation
from iwgt.games.valhalla.scenario import ValhallaScenario, load_scenario, scenario_names
from iwgt.games.valhalla.state import Fight as Fighting
from iwgt.games.valhalla.state import Shot, ValhallaState

from .kit import GAME, act, card, make

STEPS = 250
"""States visited per playout (chance steps included): a few turns of every scenario."""
LEGAL_EVERY = 15
"""Every so many decision points, the parsed state's legal actions are compared too (they are dear)."""
SEEDS = {"first_blood": 1, "skirmish": 11, "raid": 21}
"""A seed per shipped scenario whose playout charges, fights, shoots and hurts (found by trying a few)."""


def covered(state: ValhallaState) -> ValhallaState:
    """The state as far as the notation covers it: everything but why a finished game ended."""
    return replace(state, over_reason="")


def example() -> str:
    """The example line of the module's docstring (its backslash-newlines join it into one line)."""
    doc = module.__doc__ or ""
    return next(line.strip() for line in doc.splitlines() if line.strip().startswith("valhalla/"))


def test_the_docstring_example_reads_back() -> None:
    scen = load_scenario("skirmish")
    text = example()
    state = parse_notation(text, scen)
    assert notation(state) == text
    assert (state.turn, state.phase, state.active, state.actions_used, state.allowance) == (
        6,
        "activate",
        5,
        1,
        2,
    )
    # 7s is the fourth card to come up (Ad, 2d, 6d, then 7s) and seat 1 holds it.
    assert state.current == (card(7, "spades"), 1) and state.card_index == 3
    assert state.hands == (
        (card(1, "diamonds"), card(2, "diamonds"), card(11, "hearts")),
        (card(6, "diamonds"), card(7, "spades"), card(13, "diamonds")),
    )
    assert GAME.to_move(state) == 1
    hero, thing = state.figures[3], state.things[0]
    assert (hero.carrying, thing.carrier, thing.at, hero.at) == (0, 3, (30.93, 11.88), (30.93, 11.88))
    assert state.engagement(4, 1) is not None and state.engagements[0].charger == 4
    assert state.figures[2].wounds == 1 and len(state.deck) == 52 - 6 and state.to_deal == ()


def test_the_plugin_writes_the_notation() -> None:
    state = GAME.initial_state(load_scenario("skirmish"))
    assert get_plugin("valhalla").notation(state) == notation(state)


def test_cards_are_written_in_ascii() -> None:
    """Rank, then suit letter; ranks Ace to King, suits clubs, diamonds, hearts, spades (VH-TS-04, -05)."""
    assert [card_text(c) for c in (0, 1, 2, 3, 4, 36, 40, 44, 48, 51)] == [
        "Ac", "Ad", "Ah", "As", "2c", "10c", "Jc", "Qc", "Kc", "Ks",
    ]  # fmt: skip


def test_the_opening_position_of_first_blood() -> None:
    """Worked out from the scenario file: before the first card is dealt, no cards section; every figure where
    the file puts it."""
    scen = load_scenario("first_blood")
    state = GAME.initial_state(scen)
    spots = [f"{x:g},{y:g}" for f in state.figures for x, y in [f.at]]
    kinds = [f"P{f.seat} {f.kind}" for f in state.figures]
    figures = " | ".join(f"F{i} {k} {p}" for i, (k, p) in enumerate(zip(kinds, spots, strict=True)))
    assert notation(state) == f"valhalla/first_blood turn=1 phase=deal coins=0,0 | {figures}"
    assert state.to_deal == (0, 1, 0, 1, 0, 1)  # one card per living figure, round the table (VH-TS-02)


def aggressive(scen: ValhallaScenario, seed: int) -> list[ValhallaState]:
    """A seeded playout: a charge, fight or shot three times in four when one is legal, else uniform."""
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
            bold = [a for a in legal if isinstance(a, Charge | Fight | Shoot)]
            pool = bold if bold and rng.below(4) else legal
            state, _ = GAME.apply(state, pool[rng.below(len(pool))])
        states.append(state)
    return states


@pytest.mark.parametrize("scenario", scenario_names())
def test_round_trip_over_a_random_playout(scenario: str) -> None:
    scen = load_scenario(scenario)
    decisions = 0
    seen: set[str] = set()
    for state in aggressive(scen, SEEDS.get(scenario, 1)):
        text = notation(state)
        back = parse_notation(text, scen)
        assert notation(back) == text
        assert back == covered(state), text
        seen.update(word.split("=")[0] for section in text.split(" | ") for word in section.split(" "))
        seat = GAME.to_move(back)
        if seat is not None and seat != CHANCE:
            decisions += 1
            if decisions % LEGAL_EVERY == 0:
                assert GAME.legal_actions(back, seat) == GAME.legal_actions(state, seat), text
    if scenario in SEEDS:  # the playout did reach the fighting, the shooting and the hurts
        assert {"cards", "active", "used", "activated", "combat", "fight", "shot", "saves"} <= seen
        assert {"shock", "wounds"} <= seen


def test_dice_in_progress_survive_the_round_trip() -> None:
    """A fight with the charger's die rolled, a shot awaiting its die, saves queued, the deal half done."""
    scen = make([(10, 10), (20, 10), (30, 10)], [(10, 12.5), (40, 30), (20, 20)])
    half = GAME.initial_state(scen)
    for face in (1, 1, 1):  # three of the six cards dealt: seat 0, seat 1, seat 0 (VH-TS-02)
        half, _ = GAME.apply(half, ChanceOutcome(face))
    text = notation(half)
    assert text.startswith("valhalla/test turn=1 phase=deal coins=0,0 | cards Ac/0 Ad/1 Ah/0 | F0 ")
    back = parse_notation(text, scen)
    assert back == half and back.to_deal == (1, 0, 1) and len(back.deck) == 49
    fighting = replace(
        GAME.initial_state(scen),
        phase="activate",
        fight=Fighting(0, 3, True, attacker_face=7),
        shot=Shot(2, 4, 5, 7.25, True),
        saves=(3, 3, 0),
        withdrew=True,
        active=0,
        allowance=2,
        actions_used=2,
        achieved=frozenset({0}),
        coins=(4, 1),
        to_deal=(),
    )
    text = notation(fighting)
    assert (
        " | fight F0>F3 charging faces=7,- | shot F2>F4 needs=5 distance=7.25 cover | saves F3,F3,F0" in text
    )
    assert " active=F0 used=2/2 withdrew achieved=0 " in text
    back = parse_notation(text, scen)
    assert back == fighting and notation(back) == text


def test_a_dead_figure_its_thing_and_the_baggage_turn() -> None:
    scen = load_scenario("raid")
    base = GAME.initial_state(scen)
    state = replace(
        base.with_figure(replace(base.figures[7], alive=False, at=(25.5, 26.25))),
        phase="baggage",
        baggage_queue=(1, 2),
        to_deal=(),
    )
    text = notation(state)
    assert " baggage=T1,T2" in text and "| F7 P2 warrior 25.5,26.25 dead |" in text
    assert "| T1 baggage " in text and "| T0 thing 25,26 |" in text
    back = parse_notation(text, scen)
    assert back == covered(state)
    assert GAME.to_move(back) == GAME.to_move(state)


def test_a_hand_written_position() -> None:
    """A test writes a position by hand: seat 0's warrior 2" from seat 1's hero, seat 0's card up and nothing
    activated; the rules play on from it (VH-AC-09: the charge is within reach)."""
    scen = make([(2, 2), (10, 10), (6, 2)], [(13, 10), (44, 30), (42, 30)])
    text = (
        "valhalla/test turn=1 phase=activate coins=0,0 | cards [Ac/0] Ad/1 2c/0 2d/1 3c/0 3d/1"
        " | F0 P0 hero 2,2 | F1 P0 warrior 10,10 | F2 P0 archer 6,2"
        " | F3 P1 hero 13,10 | F4 P1 warrior 44,30 | F5 P1 archer 42,30"
    )
    state = parse_notation(text, scen)
    assert notation(state) == text
    assert state.current == (0, 0) and GAME.to_move(state) == 0
    assert Charge(1, 3) in GAME.legal_actions(state, 0)
    after, _ = act(state, Charge(1, 3))  # the charger touches the hero: 1" between centres
    assert notation(after).startswith(
        "valhalla/test turn=1 phase=activate coins=0,0 active=F1 used=2/2 | cards [Ac/0] Ad/1 "
    )
    assert " | F1 P0 warrior 12,10 activated | " in notation(after)
    assert notation(after).endswith(" | combat F1>F3 | fight F1>F3 charging")
    assert any(isinstance(a, Move) for a in GAME.legal_actions(parse_notation(text, scen), 0))
    passed, _ = act(state, EndActivation())
    assert " | cards Ac/0 [Ad/1] 2c/0 " in notation(passed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("valhalla/skirmish turn=1 phase=deal coins=0,0", "'valhalla/first_blood' expected first"),
        ("valhalla/first_blood turn=1 phase=deal", "'coins=' is missing"),
        ("valhalla/first_blood turn=1 phase=lunch coins=0,0", "phase 'lunch' is not one of"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 mood=grim", "unknown mark 'mood'"),
        (
            "valhalla/first_blood turn=1 phase=deal coins=0,0 | F0 P1 hero 1,1",
            "F0 is P0's hero in this scenario",
        ),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | F9 P0 hero 1,1", "there is no figure 9"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | F0 P0 hero 1;1", "a point x,y expected"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | F0 P0 hero 1,1 sad", "unknown word 'sad'"),
        (
            "valhalla/first_blood turn=1 phase=deal coins=0,0 | F0 P0 hero 1,1",
            "figure(s) F1,F2,F3,F4,F5 missing",
        ),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | cards 1c/0", "a card such as Ac, 10h or Ks"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | cards Ad/0 Ac/1", "in the order they come up"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | cards Ac/0 Ac/1", "a card is dealt twice"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | cards Ac/5", "there is no seat 5"),
        ("valhalla/first_blood turn=1 phase=deal coins=0,0 | weather rain", "a section is cards"),
    ],
)
def test_bad_notations_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_notation(text, load_scenario("first_blood"))
    assert message in str(info.value)


def test_a_deal_out_of_turn_is_refused() -> None:
    """The deal goes round the table from seat 0 (VH-TS-02): seat 1 cannot hold two cards while seat 0 has
    none."""
    scen = load_scenario("first_blood")
    state = GAME.initial_state(scen)
    figures = notation(state).split(" | ", 1)[1]
    with pytest.raises(NotationError, match="do not follow the deal"):
        parse_notation(
            f"valhalla/first_blood turn=1 phase=deal coins=0,0 | cards Ac/1 Ad/1 | {figures}", scen
        )
