"""Pig's rules by hand, through the protocol only: rolls, a 1, holding, reaching the target, three seats,
refusals that change nothing, the scenario files, the bot and the headless report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from iwgt.core.errors import DataFileError, IllegalAction, MalformedAction
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event, Outcome
from iwgt.core.registry import get_game, get_plugin

GAME: Any = get_game("pig")
TWO = GAME.load_scenario("first_to_30")
THREE = GAME.load_scenario("race_to_50")


def act(state: Any, *steps: Any) -> tuple[Any, list[Event]]:
    """Apply steps in order: "roll", "hold", or a face (an int) for the die; the events of them all."""
    events: list[Event] = []
    for step in steps:
        action = ChanceOutcome(step) if isinstance(step, int) else GAME.action_from_json({"type": step})
        state, new = GAME.apply(state, action)
        events.extend(new)
    return state, events


def kinds(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


def test_a_game_opens_with_every_score_at_zero_and_the_first_seat_to_roll() -> None:
    s = GAME.initial_state(TWO)
    assert GAME.seats(TWO) == ("Anna", "Bruno")
    assert s.scores == (0, 0) and s.turn_total == 0
    assert GAME.to_move(s) == 0
    assert [GAME.action_to_json(a) for a in GAME.legal_actions(s, 0)] == [{"type": "roll"}]
    assert list(GAME.legal_actions(s, 1)) == []
    status = GAME.status(s)
    assert (status.phase, status.turn, status.to_move, status.mover) == ("turn", 1, 0, 0)


def test_a_roll_is_a_chance_node_and_a_face_adds_to_the_turn_total() -> None:
    s, _ = act(GAME.initial_state(TWO), "roll")
    assert GAME.to_move(s) == CHANCE
    die = GAME.chance_outcomes(s)
    assert die is not None and die.sides == 6 and "Anna" in die.purpose
    assert list(GAME.legal_actions(s, 0)) == [] and list(GAME.legal_actions(s, CHANCE)) == []
    s, events = act(s, 4)
    assert kinds(events) == [{"event": "Rolled", "seat": 0, "face": 4, "turn_total": 4}]
    s, events = act(s, "roll", 5)
    assert kinds(events) == [{"event": "Rolled", "seat": 0, "face": 5, "turn_total": 9}]
    assert (s.turn_total, s.scores, GAME.to_move(s)) == (9, (0, 0), 0)
    assert [GAME.action_to_json(a) for a in GAME.legal_actions(s, 0)] == [{"type": "roll"}, {"type": "hold"}]


def test_a_one_loses_the_turn_total_and_passes_the_die() -> None:
    s, _ = act(GAME.initial_state(TWO), "roll", 6, "roll", 3)
    s, events = act(s, "roll", 1)
    assert kinds(events) == [{"event": "RolledOne", "seat": 0, "lost": 9}]
    assert s.scores == (0, 0) and s.turn_total == 0 and s.last_face == 1
    assert GAME.to_move(s) == 1 and GAME.status(s).turn == 2


def test_holding_banks_the_turn_total_and_passes_the_die() -> None:
    s, _ = act(GAME.initial_state(TWO), "roll", 1)  # Anna loses nothing
    s, events = act(s, "roll", 6, "roll", 6, "hold")
    assert kinds(events)[-1] == {"event": "Held", "seat": 1, "banked": 12, "score": 12}
    assert s.scores == (0, 12) and s.turn_total == 0
    assert GAME.to_move(s) == 0 and GAME.status(s).turn == 3
    s, _ = act(s, "roll", 2, "hold", "roll", 5, "hold")
    assert s.scores == (2, 17)


def test_reaching_the_target_wins_only_when_banked() -> None:
    near = replace(GAME.initial_state(TWO), scores=(26, 0))
    s, _ = act(near, "roll", 6)  # 32 in hand, not yet banked
    assert not GAME.is_terminal(s) and GAME.result(s) is None
    lost, _ = act(s, "roll", 1)
    assert lost.scores == (26, 0) and GAME.to_move(lost) == 1
    s, _ = act(near, "roll", 4)
    s, events = act(s, "hold")  # exactly 30
    assert kinds(events) == [
        {"event": "Held", "seat": 0, "banked": 4, "score": 30},
        {"event": "Won", "seat": 0, "score": 30},
    ]
    assert GAME.is_terminal(s) and GAME.to_move(s) is None and GAME.status(s).phase == "over"
    res = GAME.result(s)
    assert res.outcomes == (Outcome.WIN, Outcome.LOSS) and res.side == "Anna"
    assert res.words == "Anna wins (30 points of the 30 needed)"
    assert list(GAME.legal_actions(s, 0)) == [] == list(GAME.legal_actions(s, 1))
    assert GAME.chance_outcomes(s) is None
    for action in (GAME.action_from_json({"type": "roll"}), ChanceOutcome(3)):
        with pytest.raises(IllegalAction, match="the game is over: Anna won"):
            GAME.apply(s, action)


def test_three_seats_take_turns_in_order_and_one_wins() -> None:
    assert GAME.seats(THREE) == ("Anna", "Bruno", "Carla")
    s = GAME.initial_state(THREE)
    s, _ = act(s, "roll", 5, "hold")  # Anna 5
    assert GAME.to_move(s) == 1
    s, _ = act(s, "roll", 1)  # Bruno 0
    assert GAME.to_move(s) == 2
    s, _ = act(s, "roll", 6, "roll", 6, "hold")  # Carla 12
    assert GAME.to_move(s) == 0 and s.scores == (5, 0, 12) and GAME.status(s).turn == 4
    s = replace(s, seat=2, scores=(5, 0, 48))
    s, _ = act(s, "roll", 2, "hold")
    res = GAME.result(s)
    assert s.scores == (5, 0, 50) and res.winners == (2,)
    assert res.outcomes == (Outcome.LOSS, Outcome.LOSS, Outcome.WIN)
    assert res.words == "Carla wins (50 points of the 50 needed)"


def test_illegal_actions_say_why_and_change_nothing() -> None:
    s = GAME.initial_state(TWO)
    cases: list[tuple[Any, Any, str]] = [
        (s, GAME.action_from_json({"type": "hold"}), "roll at least once before holding"),
        (s, ChanceOutcome(4), "no die is awaited"),
    ]
    rolling, _ = act(s, "roll")
    cases += [
        (rolling, GAME.action_from_json({"type": "roll"}), "the die is rolling"),
        (rolling, GAME.action_from_json({"type": "hold"}), "the die is rolling"),
        (rolling, ChanceOutcome(7), "a d6 has no face 7"),
        (rolling, ChanceOutcome(0), "a d6 has no face 0"),
    ]
    for state, action, reason in cases:
        before = GAME.state_to_json(state)
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply(state, action)
        assert GAME.state_to_json(state) == before


@pytest.mark.parametrize("thing", [None, "roll", {"type": "roll"}, 4, ("hold",)])
def test_anything_but_a_pig_action_is_malformed(thing: Any) -> None:
    s = GAME.initial_state(TWO)
    with pytest.raises(MalformedAction, match="not a Pig action"):
        GAME.apply(s, thing)
    assert GAME.to_move(s) == 0 and s.scores == (0, 0)


def test_another_games_action_is_malformed() -> None:
    valhalla = get_game("valhalla")
    theirs = valhalla.action_from_json({"type": "end_activation"})
    with pytest.raises(MalformedAction, match="not a Pig action"):
        GAME.apply(GAME.initial_state(TWO), theirs)
    with pytest.raises(MalformedAction):
        GAME.action_to_json(theirs)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("roll", "must be a JSON object"),
        ({"type": "move"}, "unknown action type 'move'; expected one of: roll, hold"),
        ({"type": "hold", "score": 100}, "unexpected key(s) score in a 'hold' action"),
        ({"roll": True}, "the action names no 'type'; expected one of: roll, hold"),
    ],
)
def test_action_json_is_refused_with_the_reason(data: Any, words: str) -> None:
    with pytest.raises(MalformedAction) as exc:
        GAME.action_from_json(data)
    assert words in exc.value.message


def test_everyone_sees_everything() -> None:
    s, _ = act(GAME.initial_state(TWO), "roll", 1, "roll", 3, "roll", 5)
    obs = GAME.observe(s, 0)
    assert obs == {
        "game": "pig",
        "scenario": "first_to_30",
        "title": "First to 30",
        "seat": 0,
        "target": 30,
        "turn": 2,
        "phase": "turn",
        "current": 1,
        "players": [{"seat": 0, "name": "Anna", "score": 0}, {"seat": 1, "name": "Bruno", "score": 0}],
        "turn_total": 8,
        "turn_faces": [3, 5],
        "last_face": 5,
        "result": None,
    }
    for seat in (1, None):
        assert GAME.observe(s, seat) == {**obs, "seat": seat}
    assert GAME.resample_hidden(s, 0, lambda n: 0) is s


# ---------------------------------------------------------------- scenarios


def broken(tmp_path: Path, text: str) -> DataFileError:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        GAME.load_scenario(str(path))
    return exc.value


GOOD = 'name = "duel"\ntitle = "Duel"\ntarget = 20\n'


@pytest.mark.parametrize(
    ("rest", "key"),
    [
        ('players = ["Solo"]', "players"),
        ('players = ["Ann", "Ann"]', "players"),
        ('players = ["Ann", ""]', "players.1"),
        ('players = ["A", "B", "C", "D", "E", "F", "G"]', "players"),
        ('players = ["Ann", "Bob"]\nboard = "hex"', "board"),
    ],
)
def test_a_broken_scenario_names_the_file_and_the_key(tmp_path: Path, rest: str, key: str) -> None:
    err = broken(tmp_path, GOOD + rest)
    assert err.path.endswith("broken.toml") and err.key == key
    assert GAME.load_scenario(str(_write(tmp_path, GOOD + 'players = ["Ann", "Bob"]'))).spec.target == 20


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "good.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_target_below_ten_is_refused(tmp_path: Path) -> None:
    err = broken(tmp_path, 'name = "x"\ntitle = "X"\ntarget = 5\nplayers = ["Ann", "Bob"]')
    assert err.key == "target" and "greater than or equal to 10" in err.expected


def test_an_unknown_scenario_lists_the_shipped_ones() -> None:
    with pytest.raises(DataFileError, match=r"first_to_30, race_to_50"):
        GAME.load_scenario("to_the_moon")


def test_the_scenario_cards() -> None:
    card = GAME.scenario_card(THREE)
    assert (card.name, card.title, card.turns) == ("race_to_50", "Race to 50", None)
    assert card.seats == GAME.seats(THREE)
    assert card.forces == "3 players, first to 50" and card.table == "no board: one d6"


# ---------------------------------------------------------------- the bot and the report


@pytest.mark.parametrize(
    ("score", "faces", "expected"),
    [
        (0, (), "roll"),  # a turn begins with a roll
        (0, (6, 6, 6), "roll"),  # 18
        (0, (6, 6, 6, 2), "hold"),  # 20
        (25, (5,), "hold"),  # 30 wins
        (25, (4,), "roll"),  # 29 does not
    ],
)
def test_the_bot_holds_at_twenty_or_at_what_wins(score: int, faces: tuple[int, ...], expected: str) -> None:
    s = replace(GAME.initial_state(TWO), scores=(score, 0), faces=faces)
    assert GAME.action_to_json(get_plugin("pig").bot().choose(s, 0)) == {"type": expected}


def test_the_report_words_every_event() -> None:
    printer = get_plugin("pig").report()
    assert printer is not None
    console = Console(record=True, width=120)
    s = GAME.initial_state(TWO)
    s, events = act(s, "roll", 5, "roll", 1, "roll", 2, "hold")
    s = replace(s, scores=(28, 2))
    s, more = act(s, "roll", 3, "hold")
    assert printer(console, s, events + more) == []
    assert console.export_text().splitlines() == [
        "Anna rolls 5: 5 this turn",
        "Anna rolls a 1 and loses 5",
        "Bruno rolls 2: 2 this turn",
        "Bruno holds: banks 2, 2 in all",
        "Anna rolls 3: 3 this turn",
        "Anna holds: banks 3, 31 in all",
        "Anna wins with 31",
    ]
