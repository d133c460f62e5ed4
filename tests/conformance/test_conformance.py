"""The conformance suite: every registered game, every shipped scenario, through the protocol only.

A new game registered in ``iwgt.games`` gets all of this for free: seeded random playouts keep the
protocol's promises (no legal action raises, chance sums to one, same seed same game, a record
round-trips and replays every state, observations are clean and hide what they must, bad JSON is refused).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from iwgt.core.chance import Die, ScriptedDice, SeededDice
from iwgt.core.digest import canonical_json, digest
from iwgt.core.errors import GameError, IllegalAction, MalformedAction
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event, Result
from iwgt.core.record import GameRecord, replay
from iwgt.core.registry import game_names, get_game, get_plugin

MAX_ACTIONS = 300
"""Player actions per playout; chance steps come on top."""
SMALLER_BOUNDS = {"great_battle": 60}
"""Big scenarios are played for fewer actions, to keep the suite fast."""
SAMPLE = 20
"""Legal actions tried per state."""
PLAYOUT_SEED = 1
FINISH_BOUND = 2000
HIDDEN_KEYS = frozenset({"rolls", "plan", "pending", "seed", "rng"})
"""Names of internal chance data that must never appear in an observation."""

KNOWN_BUGS: dict[tuple[str, str], tuple[type[BaseException], str]] = {}
"""Failing checks reported as bugs in src/, marked xfail(strict) so that a fix turns them red."""

CASES = [
    pytest.param(game, scenario, id=f"{game}-{scenario}")
    for game in game_names()
    for scenario in get_game(game).scenario_names()
]
GAMES = [pytest.param(game, id=game) for game in game_names()]


def known_bug(request: pytest.FixtureRequest, game: str, check: str) -> None:
    bug = KNOWN_BUGS.get((game, check))
    if bug is not None:
        raises, reason = bug
        request.applymarker(pytest.mark.xfail(strict=True, raises=raises, reason=reason))


# ---------------------------------------------------------------- playouts


def choose(rng: random.Random, actions: Sequence[Any]) -> Any:
    """Mostly uniform; now and then the first or the last action (often "done" or "end phase")."""
    n = len(actions)
    if n > 1 and rng.random() < 0.15:
        return actions[0] if rng.random() < 0.5 else actions[-1]
    return actions[min(int(rng.random() * n), n - 1)]


def sample(rng: random.Random, actions: Sequence[Any], k: int = SAMPLE) -> list[Any]:
    """Up to k actions: the first, the last and a random few between."""
    if len(actions) <= k:
        return list(actions)
    middle = rng.sample(range(1, len(actions) - 1), k - 2)
    return [actions[0], *(actions[i] for i in sorted(middle)), actions[-1]]


def bound(scenario: str) -> int:
    return SMALLER_BOUNDS.get(scenario, MAX_ACTIONS)


def play(game_name: str, scenario: str, seed: int, max_actions: int) -> Match:
    """A seeded random playout by the Match, for at most ``max_actions`` player actions."""
    game = get_game(game_name)
    match = Match(game, game.load_scenario(scenario), SeededDice(seed), seed)
    match.resolve_chance()  # a game may open on a chance node
    rng = random.Random(seed)
    for _ in range(max_actions):
        seat = game.to_move(match.state)
        if seat is None:
            break
        actions = game.legal_actions(match.state, seat)
        assert actions, f"seat {seat} is to move but has no legal action"
        match.act(seat, choose(rng, actions))
    return match


@cache
def played(game_name: str, scenario: str, seed: int = PLAYOUT_SEED) -> Match:
    """The shared playout of a case (tests must not act on it)."""
    return play(game_name, scenario, seed, bound(scenario))


def step_action(game: Any, seat: int, action: dict[str, Any]) -> Any:
    return ChanceOutcome(int(action["face"])) if seat == CHANCE else game.action_from_json(action)


@cache
def trajectory(game_name: str, scenario: str, seed: int = PLAYOUT_SEED) -> tuple[Any, ...]:
    """Every state of the shared playout, the initial one first, folded by hand from its record."""
    game = get_game(game_name)
    match = played(game_name, scenario, seed)
    state = game.initial_state(game.load_scenario(scenario))
    states = [state]
    for step in match.record.steps:
        assert game.to_move(state) == step.seat
        state, _ = game.apply(state, step_action(game, step.seat, step.action))
        states.append(state)
    return tuple(states)


def snapshot(game: Any, state: Any) -> str:
    return canonical_json(game.state_to_json(state))


def seats(game: Any, scenario: str) -> range:
    """Every seat of the scenario (a Valhalla raid has four)."""
    return range(len(game.seats(game.load_scenario(scenario))))


def player_states(game_name: str, scenario: str) -> Iterator[tuple[Any, int]]:
    game = get_game(game_name)
    for state in trajectory(game_name, scenario):
        seat = game.to_move(state)
        if seat is not None and seat != CHANCE:
            yield state, seat


# ---------------------------------------------------------------- the game and its scenarios


@pytest.mark.parametrize("game_name", GAMES)
def test_game_describes_itself(game_name: str) -> None:
    game = get_game(game_name)
    assert game.name == game_name
    assert game.title
    assert game.rules_version
    facts = get_plugin(game_name).facts
    assert (facts.name, facts.title, facts.rules_version) == (game.name, game.title, game.rules_version)
    assert facts.geometry in ("hex", "inches", "regions", "abstract")
    assert 1 <= facts.min_players <= facts.max_players
    assert game.scenario_names()
    assert game.scenario_names() == sorted(set(game.scenario_names()))
    json.dumps(facts.to_json(), allow_nan=False)


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_every_scenario_has_seats_within_the_declared_players_and_a_card(
    game_name: str, scenario: str
) -> None:
    game = get_game(game_name)
    facts = get_plugin(game_name).facts
    scen = game.load_scenario(scenario)
    names = game.seats(scen)
    assert facts.min_players <= len(names) <= facts.max_players
    assert all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names)
    card = game.scenario_card(scen)
    assert card.name == scenario and card.title and card.table and card.seats == names
    assert card.turns is None or card.turns >= 1
    json.dumps(card.to_json(), allow_nan=False)
    status = game.status(game.initial_state(scen))
    assert status.to_move == game.to_move(game.initial_state(scen))
    assert status.phase and (status.turn is None or status.turn >= 0)


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_initial_state_is_a_pure_function_of_the_scenario(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    scen = game.load_scenario(scenario)
    assert scen.name == scenario
    again = game.parse_scenario(scen.source, "the same text")
    a, b = game.initial_state(scen), game.initial_state(again)
    assert snapshot(game, a) == snapshot(game, b)
    assert not game.is_terminal(a)
    assert game.result(a) is None
    json.dumps(game.state_to_json(a), allow_nan=False)


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_playout_is_not_trivial(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    match = played(game_name, scenario)
    player_steps = [s for s in match.record.steps if s.seat != CHANCE]
    # A short scenario (first_battle: two turns) may end sooner; it must then have reached a result.
    assert len(player_steps) >= min(bound(scenario), 40) or game.is_terminal(match.state)
    # Varied play: more than 10 different actions, or (a game with fewer, such as Pig's roll and hold) every
    # action the playout was ever offered.
    taken = {canonical_json(s.action) for s in player_steps}
    offered = {
        canonical_json(game.action_to_json(a))
        for state, seat in player_states(game_name, scenario)
        for a in game.legal_actions(state, seat)
    }
    assert len(taken) > 10 or taken == offered
    # Things happened: the state at the end is not the initial one.
    assert snapshot(game, match.state) != snapshot(game, trajectory(game_name, scenario)[0])


# ---------------------------------------------------------------- legal actions


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_every_legal_action_applies_and_leaves_the_input_state_alone(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    rng = random.Random(f"apply-{game_name}-{scenario}")
    tried = 0
    every = True  # every legal action of every state was tried, none left out by the sample
    for state, seat in player_states(game_name, scenario):
        before = snapshot(game, state)
        actions = game.legal_actions(state, seat)
        assert actions
        every = every and len(actions) <= SAMPLE
        for action in sample(rng, actions):
            try:
                after, events = game.apply(state, action)
            except GameError as exc:  # pragma: no cover - the message is the point
                pytest.fail(f"legal action {game.action_to_json(action)} was refused: {exc}")
            tried += 1
            assert isinstance(events, list)
            for event in events:
                assert isinstance(event, Event)
                assert event.to_json()["event"] == event.kind
            assert snapshot(game, after) != before or events, "a legal action that did nothing at all"
        assert snapshot(game, state) == before, "apply mutated its input state"
    # A small game (Pig's first_to_30) may end in fewer tries: then its whole playout, every action of it.
    assert tried > 50 or (every and game.is_terminal(played(game_name, scenario).state))


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_only_the_seat_to_move_has_legal_actions(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    for state in trajectory(game_name, scenario):
        to_move = game.to_move(state)
        for seat in seats(game, scenario):
            actions = game.legal_actions(state, seat)
            if seat == to_move:
                assert actions, f"seat {seat} is to move but has no legal action"
            else:
                assert list(actions) == [], f"seat {seat} has legal actions while {to_move} is to move"


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_the_dice_have_no_legal_actions(
    request: pytest.FixtureRequest, game_name: str, scenario: str
) -> None:
    known_bug(request, game_name, "chance-seat-actions")
    game = get_game(game_name)
    chance_states = [s for s in trajectory(game_name, scenario) if game.to_move(s) == CHANCE]
    if not chance_states:
        pytest.skip("this playout met no chance node")
    for state in chance_states:
        assert list(game.legal_actions(state, CHANCE)) == []


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_acting_for_the_wrong_seat_is_refused_and_changes_nothing(game_name: str, scenario: str) -> None:
    """Re-play the record through a new Match with its faces scripted, trying every wrong seat first."""
    game = get_game(game_name)
    record = played(game_name, scenario).record
    faces = [int(s.action["face"]) for s in record.steps if s.seat == CHANCE]
    match = Match(game, game.load_scenario(scenario), ScriptedDice(faces), record.seed)
    match.resolve_chance()
    refused = 0
    while len(match.record.steps) < len(record.steps):
        step = record.steps[len(match.record.steps)]
        assert step.seat != CHANCE
        action = game.action_from_json(step.action)
        for wrong in seats(game, scenario):
            if wrong == step.seat:
                continue
            before, logged = snapshot(game, match.state), len(match.record.steps)
            with pytest.raises(IllegalAction) as exc:
                match.act(wrong, action)
            assert exc.value.message
            assert snapshot(game, match.state) == before
            assert len(match.record.steps) == logged
            refused += 1
        match.act(step.seat, action)
    assert refused >= 20
    assert [s.to_json() for s in match.record.steps] == [s.to_json() for s in record.steps]
    assert match.record.dice == "scripted"


# ---------------------------------------------------------------- chance


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_chance_nodes_name_an_exact_die_and_refuse_faces_not_on_it(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    states = trajectory(game_name, scenario)
    steps = played(game_name, scenario).record.steps
    nodes = 0
    for i, state in enumerate(states):
        if game.to_move(state) != CHANCE:
            assert game.chance_outcomes(state) is None
            if not game.is_terminal(state):
                before = snapshot(game, state)
                with pytest.raises(IllegalAction):
                    game.apply(state, ChanceOutcome(1))
                assert snapshot(game, state) == before
            continue
        nodes += 1
        die = game.chance_outcomes(state)
        assert isinstance(die, Die)
        assert die.sides >= 1
        outcomes = die.outcomes()
        assert [face for face, _ in outcomes] == list(range(1, die.sides + 1))
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        assert 1 <= steps[i].action["face"] <= die.sides
        before = snapshot(game, state)
        for face in (0, -1, die.sides + 1, 1000):
            with pytest.raises(IllegalAction) as exc:
                game.apply(state, ChanceOutcome(face))
            assert exc.value.message
        assert snapshot(game, state) == before
        # The other faces are all answers: every one of them applies (a few, for big dice).
        for face in sorted({1, die.sides, (die.sides + 1) // 2}):
            game.apply(state, ChanceOutcome(face))
    if nodes == 0:
        pytest.skip("this playout met no chance node")


# ---------------------------------------------------------------- determinism and records


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_same_seed_same_record(game_name: str, scenario: str) -> None:
    a = play(game_name, scenario, 11, bound(scenario) // 2)
    b = play(game_name, scenario, 11, bound(scenario) // 2)
    assert a is not b
    assert len(a.record.steps) > 0
    assert [s.to_json() for s in a.record.steps] == [s.to_json() for s in b.record.steps]
    assert a.record.to_json() == b.record.to_json()


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
@pytest.mark.parametrize(("seed_a", "seed_b"), [(1, 2), (3, 4)])
def test_different_seeds_give_different_games(
    game_name: str, scenario: str, seed_a: int, seed_b: int
) -> None:
    a = play(game_name, scenario, seed_a, 40)
    b = play(game_name, scenario, seed_b, 40)
    assert [s.to_json() for s in a.record.steps] != [s.to_json() for s in b.record.steps]


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_record_round_trips_and_replays_every_state(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    match = played(game_name, scenario)
    text = json.dumps(match.record.to_json(), allow_nan=False)
    record = GameRecord.from_json(json.loads(text))
    assert record == match.record
    assert json.dumps(record.to_json(), allow_nan=False) == text
    rep = replay(record)  # checks every step's digest itself
    assert rep.steps == len(match.record.steps)
    assert snapshot(game, rep.state) == snapshot(game, match.state)
    # The same, folded by hand: every intermediate state's digest is the one logged.
    states = trajectory(game_name, scenario)
    assert len(states) == len(record.steps) + 1
    for i, step in enumerate(record.steps):
        assert digest(game.state_to_json(states[i + 1])) == step.digest, f"step {i}"
    assert snapshot(game, states[-1]) == snapshot(game, match.state)


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_every_event_is_json(request: pytest.FixtureRequest, game_name: str, scenario: str) -> None:
    """Events feed the lights, the touchscreen and the reports over the wire: they must be JSON."""
    known_bug(request, game_name, "events-json")
    events = replay(played(game_name, scenario).record).events
    assert events
    for event in events:
        data = event.to_json()
        assert data["event"] == event.kind
        assert json.loads(json.dumps(data, allow_nan=False)) == data


# ---------------------------------------------------------------- observations


def hidden_keys(value: Any, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if str(key).lower() in HIDDEN_KEYS:
                found.append(f"{path}.{key}")
            found.extend(hidden_keys(item, f"{path}.{key}"))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found.extend(hidden_keys(item, f"{path}[{i}]"))
    return found


def test_hidden_keys_finds_nested_keys() -> None:
    assert hidden_keys({"a": [{"b": {"Rolls": [1]}}], "seed": 3}) == [".a[0].b.Rolls", ".seed"]
    assert hidden_keys({"awaiting_die": "x", "units": [{"id": 1}]}) == []


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_observations_are_json_clean(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    states = trajectory(game_name, scenario)
    for state in states[:: max(1, len(states) // 60)]:
        before = snapshot(game, state)
        views = {seat: game.observe(state, seat) for seat in [*seats(game, scenario), None]}
        for seat, obs in views.items():
            assert isinstance(obs, dict)
            text = json.dumps(obs, allow_nan=False)
            assert json.loads(text) == obs, f"seat {seat}'s observation does not survive JSON"
            assert hidden_keys(obs) == [], f"seat {seat} is shown internal chance data"
        assert snapshot(game, state) == before


def picker(seed: int) -> Callable[[int], int]:
    """An explicit source of choices for ``resample_hidden``."""
    rng = random.Random(seed)
    return lambda n: rng.randrange(n)


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_hidden_facts_never_reach_the_seat_they_are_hidden_from(game_name: str, scenario: str) -> None:
    """DESIGN.md 5: states that differ only in facts hidden from a seat look byte-identical to it.

    ``resample_hidden`` redraws every fact the seat may not know (for Days of the Valkyrx: hidden units'
    cells and the Grima's quarry, held spells, the plague's first carrier); the seat's observation, its legal
    actions and the way its actions are refused must not change.
    """
    game = get_game(game_name)
    states = trajectory(game_name, scenario)
    rng = random.Random(7)
    for i, state in enumerate(states[:: max(1, len(states) // 40)]):
        mover = game.to_move(state)
        for seat in [*seats(game, scenario), None]:
            view = canonical_json(game.observe(state, seat))
            legal = (
                [game.action_to_json(a) for a in game.legal_actions(state, seat)] if seat is not None else []
            )
            others = (
                []
                if seat is None
                else [game.legal_actions(state, s) for s in seats(game, scenario) if s != seat]
            )
            probes = sample(rng, [a for acts in others for a in acts], 5)
            for k in range(3):
                variant = game.resample_hidden(state, seat, picker(1000 * i + 10 * k + (seat or 0)))
                assert canonical_json(game.observe(variant, seat)) == view, (
                    f"seat {seat} can tell the states apart"
                )
                if seat is None:
                    continue
                assert [game.action_to_json(a) for a in game.legal_actions(variant, seat)] == legal
                if mover != seat:
                    continue
                for probe in probes:  # another seat's actions, tried by this one: refused alike
                    assert refusal(game, state, probe) == refusal(game, variant, probe)


def refusal(game: Any, state: Any, action: Any) -> str | None:
    """The message an action is refused with, or None if it applies."""
    try:
        game.apply(state, action)
    except GameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


# ---------------------------------------------------------------- action JSON


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_action_json_round_trips(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    rng = random.Random(f"json-{game_name}-{scenario}")
    kinds: set[str] = set()
    for state, seat in player_states(game_name, scenario):
        for action in sample(rng, game.legal_actions(state, seat)):
            data = game.action_to_json(action)
            text = json.dumps(data, allow_nan=False)
            back = game.action_from_json(json.loads(text))
            assert back == action
            assert game.action_to_json(back) == data
            kinds.add(canonical_json(data.get("type")))
    assert len(kinds) >= 2


GARBAGE: list[Any] = [
    None,
    [],
    [["type", "move"]],
    "move",
    42,
    True,
    {},
    {"type": None},
    {"type": 7},
    {"type": "fly-to-the-moon"},
    {"type": "move"},
    {"type": "move", "unit": "zero", "to": "north"},
    {"kind": "move"},
]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("data", GARBAGE, ids=[json.dumps(g) for g in GARBAGE])
def test_action_from_json_refuses_garbage(game_name: str, data: Any) -> None:
    game = get_game(game_name)
    with pytest.raises(MalformedAction) as exc:
        game.action_from_json(data)
    assert exc.value.message.strip()
    assert exc.value.to_json()["error"] == "malformed"


@pytest.mark.parametrize("game_name", GAMES)
def test_an_action_without_a_type_is_told_so(game_name: str) -> None:
    with pytest.raises(MalformedAction, match="names no 'type'; expected one of") as exc:
        get_game(game_name).action_from_json({"unit": 0, "to": [1, 1]})
    assert "None" not in exc.value.message


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_action_from_json_refuses_extra_keys(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    rng = random.Random(f"extra-{game_name}-{scenario}")
    checked = 0
    for state, seat in list(player_states(game_name, scenario))[:30]:
        for action in sample(rng, game.legal_actions(state, seat), 5):
            data = dict(game.action_to_json(action), zzz_extra=1)
            with pytest.raises(MalformedAction) as exc:
                game.action_from_json(data)
            assert "zzz_extra" in exc.value.message
            checked += 1
    assert checked >= 30


# ---------------------------------------------------------------- the end of the game


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_the_game_ends_with_a_result(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    match = play(game_name, scenario, 5, FINISH_BOUND)
    state = match.state
    assert game.is_terminal(state), f"not over after {FINISH_BOUND} actions"
    res = game.result(state)
    assert isinstance(res, Result)
    assert len(res.outcomes) == len(seats(game, scenario)), "one outcome per seat"
    assert res.winner is None or res.winner in seats(game, scenario)
    assert all(res.outcomes[w].value == "win" for w in res.winners)
    if res.winners:
        assert res.side, "a won game names the winning side"
        assert all(o.value in ("win", "loss") for o in res.outcomes)
    else:
        assert all(o.value == "draw" for o in res.outcomes)
    assert res.reason and res.words
    assert match.result() == res
    assert game.to_move(state) is None
    assert game.chance_outcomes(state) is None
    for seat in seats(game, scenario):
        assert list(game.legal_actions(state, seat)) == []
    # Nothing applies after the end, and the refusal changes nothing.
    last = next(s for s in reversed(match.record.steps) if s.seat != CHANCE)
    before = snapshot(game, state)
    with pytest.raises(GameError):
        game.apply(state, game.action_from_json(last.action))
    with pytest.raises(GameError):
        game.apply(state, ChanceOutcome(1))
    assert snapshot(game, state) == before
    record = match.finish_record()
    assert record.result == res.to_json()
    back = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert game.is_terminal(back.state)
    assert game.result(back.state) == res


# ---------------------------------------------------------------- what apply accepts


@cache
def _some_action(game_name: str) -> Any:
    """A legal action of the game's first scenario, to offer to the other games as a foreign action."""
    game = get_game(game_name)
    for state, seat in player_states(game_name, game.scenario_names()[0]):
        return game.legal_actions(state, seat)[0]
    raise AssertionError(f"{game_name} never gives a seat a move")


def _mid_game_states(game_name: str, scenario: str, k: int = 5) -> list[tuple[Any, int]]:
    """Up to ``k`` player states spread over the shared playout."""
    states = list(player_states(game_name, scenario))
    return states[:: max(1, len(states) // k)][:k]


FOREIGN: list[Any] = [
    None,
    "move",
    42,
    1.5,
    True,
    [],
    ["move", 0],
    {},
    {"type": "move", "figure": 0},
    object(),
]
"""Things that are no game's action (a dict is JSON, not an action: it must go through action_from_json)."""


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_apply_refuses_a_foreign_action_with_the_typed_error(game_name: str, scenario: str) -> None:
    game = get_game(game_name)
    others = [_some_action(g) for g in game_names() if g != game_name]
    for state, _ in _mid_game_states(game_name, scenario):
        before = snapshot(game, state)
        for action in [*FOREIGN, *others]:
            with pytest.raises(MalformedAction) as exc:
                game.apply(state, action)
            assert exc.value.message.strip()
        assert snapshot(game, state) == before


def _odd_values(value: Any) -> list[Any]:
    """Values a real action's field may be mistyped with: wrong types, wrong lengths, huge, not finite."""
    odd: list[Any] = [
        None,
        "0",
        True,
        2**70,
        -1,
        0.5,
        float("nan"),
        float("inf"),
        (),
        [0, 0],
        (0.0, 0.0, 3.0),
    ]
    if isinstance(value, tuple):
        odd += [(*value, 3.0), list(value), value[:-1], (value, value)]
    elif isinstance(value, int | float) and not isinstance(value, bool):
        odd += [float(value) + 0.5, value + 1, -value - 1]
    return odd


def _mutants(action: Any) -> Iterator[Any]:
    """The action with one field at a time replaced by an odd value (dataclass actions only)."""
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return
    for field in dataclasses.fields(action):
        for value in _odd_values(getattr(action, field.name)):
            try:
                yield dataclasses.replace(action, **{field.name: value})
            except Exception:  # a constructor that refuses the value is fine
                continue


@pytest.mark.parametrize(("game_name", "scenario"), CASES)
def test_whatever_apply_accepts_round_trips_through_the_record(game_name: str, scenario: str) -> None:
    """A journalled action must replay: apply refuses, typed, what the record's JSON would not give back."""
    game = get_game(game_name)
    rng = random.Random(f"accepts-{game_name}-{scenario}")
    tried = fielded = 0
    for state, seat in _mid_game_states(game_name, scenario, 8):
        for action in sample(rng, game.legal_actions(state, seat), 6):
            fielded += bool(dataclasses.is_dataclass(action) and dataclasses.fields(action))
            for mutant in _mutants(action):
                tried += 1
                try:
                    game.apply(state, mutant)
                except GameError:
                    continue
                except Exception as exc:  # the failure below names it
                    pytest.fail(f"apply({mutant!r}) raised {type(exc).__name__}: {exc}, not a GameError")
                data = game.action_to_json(mutant)
                back = game.action_from_json(json.loads(json.dumps(data, allow_nan=False)))
                assert back == mutant, f"{mutant!r} was applied but records as {data!r}"
    assert tried >= 1 or not fielded  # Pig's actions have no fields to mistype
