"""Tests for iwgt.core.record: a record is the save file, the replay and the bug report."""

from __future__ import annotations

import copy
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from iwgt.core.chance import RNG_ALGORITHM, ScriptedDice, SeededDice
from iwgt.core.digest import digest
from iwgt.core.errors import GameError, RecordError
from iwgt.core.match import Match
from iwgt.core.protocol import CHANCE, ChanceOutcome, Result
from iwgt.core.record import RECORD_FORMAT, GameRecord, Step, replay
from iwgt.core.registry import get_game
from iwgt.games.valkyrx import actions as act

GAME = get_game("valkyrx")
SEED = 7
MOVES_PER_PHASE = 3


def play_skirmish(seed: int = SEED, max_actions: int = 1000) -> Match:
    """A deterministic game of the skirmish: place one unit, confirm; then three moves a phase.

    In valkyrx, ``legal_actions`` lists ConfirmDeployment first and the PlaceUnit actions after it
    in deployment; in a movement phase the Moves come first and EndPhase last.
    """
    match = Match(GAME, GAME.load_scenario("skirmish"), SeededDice(seed), seed)
    taken: Counter[tuple[int, str, int]] = Counter()
    for _ in range(max_actions):
        state = match.state
        if GAME.is_terminal(state):
            break
        seat = GAME.to_move(state)
        assert seat is not None and seat != CHANCE
        legal = list(GAME.legal_actions(state, seat))
        key = (state.turn, state.phase, seat)
        if state.phase == "deploy":
            assert isinstance(legal[0], act.ConfirmDeployment)
            action = legal[-1] if taken[key] == 0 else legal[0]
        else:
            assert isinstance(legal[-1], act.EndPhase)
            action = legal[0] if taken[key] < MOVES_PER_PHASE else legal[-1]
        taken[key] += 1
        match.act(seat, action)
    return match


@cache
def _finished_record_json() -> str:
    match = play_skirmish()
    return json.dumps(match.finish_record().to_json())


@cache
def _final_state_json() -> str:
    return json.dumps(GAME.state_to_json(play_skirmish().state), sort_keys=True)


def finished_record() -> GameRecord:
    """A fresh copy of the finished game's record (tests tamper with it)."""
    return GameRecord.from_json(json.loads(_finished_record_json()))


def first_step(record: GameRecord, kind: str) -> int:
    return next(i for i, s in enumerate(record.steps) if s.seat != CHANCE and s.action["type"] == kind)


def test_the_deterministic_game_is_played_to_the_end() -> None:
    match = play_skirmish()
    assert GAME.is_terminal(match.state)
    res = match.result()
    assert isinstance(res, Result)
    assert res.winner in (None, 0, 1)
    rec = match.finish_record()
    assert rec.result == res.to_json()
    assert rec.game == "valkyrx"
    assert rec.rules_version == GAME.rules_version
    assert rec.scenario_name == "skirmish"
    assert rec.scenario_toml == GAME.load_scenario("skirmish").source
    assert rec.seed == SEED
    assert rec.dice == "seeded"
    assert rec.rng == RNG_ALGORITHM
    kinds = Counter("chance" if s.seat == CHANCE else s.action["type"] for s in rec.steps)
    assert kinds["place"] == 2
    assert kinds["confirm"] == 2
    assert kinds["move"] > 10
    assert kinds["end_phase"] > 5
    assert kinds["chance"] > 10
    # Every logged digest is the digest of the state after that step.
    assert rec.steps[-1].digest == digest(GAME.state_to_json(match.state))


def test_the_deterministic_game_is_reproducible() -> None:
    assert json.dumps(play_skirmish().finish_record().to_json()) == _finished_record_json()


def test_record_json_shape() -> None:
    data = json.loads(_finished_record_json())
    assert data["format"] == RECORD_FORMAT == 1
    assert set(data) == {
        "format",
        "game",
        "rules_version",
        "rng",
        "dice",
        "seed",
        "scenario",
        "steps",
        "result",
    }
    assert set(data["scenario"]) == {"name", "toml"}
    assert data["steps"][0] == {
        "seat": 0,
        "action": data["steps"][0]["action"],
        "digest": data["steps"][0]["digest"],
    }
    assert data["steps"][0]["action"]["type"] == "place"
    chance = [s for s in data["steps"] if s["seat"] == CHANCE]
    assert chance and all(set(s["action"]) == {"face"} for s in chance)
    assert all(len(s["digest"]) == 16 for s in data["steps"])


def test_record_round_trips_through_json() -> None:
    match = play_skirmish()
    rec = match.finish_record()
    text = json.dumps(rec.to_json())
    back = GameRecord.from_json(json.loads(text))
    assert back == rec
    assert back.to_json() == rec.to_json()
    assert json.dumps(back.to_json()) == text


def test_replay_reproduces_the_final_state() -> None:
    rec = finished_record()
    rep = replay(rec)
    assert rep.steps == len(rec.steps)
    assert json.dumps(GAME.state_to_json(rep.state), sort_keys=True) == _final_state_json()
    assert GAME.is_terminal(rep.state)
    res = GAME.result(rep.state)
    assert res is not None
    assert rec.result == res.to_json()
    assert rep.events and rep.events[-1].kind == "GameOver"


def test_replay_of_a_prefix_gives_the_state_after_that_step() -> None:
    rec = finished_record()
    k = len(rec.steps) // 2
    rec.steps = rec.steps[:k]
    rep = replay(rec)
    assert rep.steps == k
    assert digest(GAME.state_to_json(rep.state)) == rec.steps[-1].digest
    assert not GAME.is_terminal(rep.state)


def test_replay_of_no_steps_is_the_initial_state() -> None:
    rec = finished_record()
    rec.steps = []
    rep = replay(rec)
    assert rep.steps == 0
    assert rep.events == []
    initial = GAME.initial_state(GAME.load_scenario("skirmish"))
    assert GAME.state_to_json(rep.state) == GAME.state_to_json(initial)


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_tampered_digest_names_the_step(where: str) -> None:
    rec = finished_record()
    k = {"first": 0, "middle": len(rec.steps) // 2, "last": len(rec.steps) - 1}[where]
    good = rec.steps[k].digest
    rec.steps[k].digest = "0" * 16 if good != "0" * 16 else "1" * 16
    with pytest.raises(RecordError) as exc:
        replay(rec)
    msg = str(exc.value)
    assert msg.startswith(f"step {k}:")
    assert good in msg
    assert rec.steps[k].digest in msg
    assert exc.value.to_json()["error"] == "record"


def test_a_tampered_move_to_an_impassable_cell_names_the_step() -> None:
    rec = finished_record()
    k = first_step(rec, "move")
    rec.steps[k].action = {"type": "move", "unit": rec.steps[k].action["unit"], "to": [5, 3]}  # the Rocks
    with pytest.raises(RecordError) as exc:
        replay(rec)
    msg = str(exc.value)
    assert msg.startswith(f"step {k}:")
    assert "refused" in msg
    assert "impassable" in msg


def test_a_tampered_move_off_the_board_names_the_step() -> None:
    rec = finished_record()
    k = first_step(rec, "move")
    rec.steps[k].action = dict(rec.steps[k].action, to=[40, 40])
    with pytest.raises(RecordError, match=rf"^step {k}: .*off the table"):
        replay(rec)


def test_a_malformed_recorded_action_names_the_step() -> None:
    rec = finished_record()
    k = first_step(rec, "end_phase")
    rec.steps[k].action = {"type": "fly-to-the-moon"}
    with pytest.raises(RecordError, match=rf"^step {k}: .*fly-to-the-moon"):
        replay(rec)


def test_a_tampered_die_face_names_the_step() -> None:
    rec = finished_record()
    k = next(i for i, s in enumerate(rec.steps) if s.seat == CHANCE)
    rec.steps[k].action = {"face": 0}
    with pytest.raises(RecordError, match=rf"^step {k}: .*no face 0"):
        replay(rec)


def test_a_different_but_legal_die_face_is_caught_by_the_digest() -> None:
    rec = finished_record()
    k = next(i for i, s in enumerate(rec.steps) if s.seat == CHANCE)
    face = rec.steps[k].action["face"]
    rec.steps[k].action = {"face": 3 - face}  # the first roll is a d2: who moves first
    with pytest.raises(RecordError, match=rf"^step {k}: state digest"):
        replay(rec)


def test_a_step_by_the_wrong_seat_names_the_step() -> None:
    rec = finished_record()
    k = first_step(rec, "confirm")
    rec.steps[k].seat = 1 - rec.steps[k].seat
    with pytest.raises(RecordError) as exc:
        replay(rec)
    assert str(exc.value).startswith(f"step {k}:")
    assert f"seat {rec.steps[k].seat}" in str(exc.value)


def test_a_chance_step_with_a_null_face_is_a_record_error() -> None:
    rec = finished_record()
    k = next(i for i, s in enumerate(rec.steps) if s.seat == CHANCE)
    rec.steps[k].action = {"face": None}
    with pytest.raises(RecordError, match=rf"^step {k}:"):
        replay(rec)


def test_a_chance_step_without_a_face_names_the_step() -> None:
    rec = finished_record()
    k = next(i for i, s in enumerate(rec.steps) if s.seat == CHANCE)
    rec.steps[k].action = {"roll": 1}
    with pytest.raises(RecordError, match=rf"^step {k}:"):
        replay(rec)


def test_a_record_of_other_rules_is_refused_naming_both_versions() -> None:
    rec = finished_record()
    rec.rules_version = "valkyrx-0.9"
    with pytest.raises(RecordError) as exc:
        replay(rec)
    msg = str(exc.value)
    assert "valkyrx-0.9" in msg
    assert GAME.rules_version in msg
    assert GAME.rules_version != "valkyrx-0.9"


def test_a_record_of_an_unknown_game_is_refused_naming_it() -> None:
    rec = finished_record()
    rec.game = "nope"
    with pytest.raises((KeyError, RecordError)) as exc:
        replay(rec)
    assert "nope" in str(exc.value)
    assert "valkyrx" in str(exc.value)


@pytest.mark.parametrize("data", [None, [], "record", 42, [{"format": 1}]])
def test_a_record_that_is_not_an_object_is_refused(data: Any) -> None:
    with pytest.raises(RecordError, match="expected a JSON object"):
        GameRecord.from_json(data, origin="saved.json")
    with pytest.raises(RecordError, match=r"^saved\.json: "):
        GameRecord.from_json(data, origin="saved.json")


@pytest.mark.parametrize("key", ["steps", "game", "rules_version", "scenario", "dice"])
def test_a_record_missing_a_key_names_it(key: str) -> None:
    data = json.loads(_finished_record_json())
    del data[key]
    with pytest.raises(RecordError) as exc:
        GameRecord.from_json(data, origin="saved.json")
    assert str(exc.value) == f"saved.json: missing key {key!r}"


@pytest.mark.parametrize("key", ["name", "toml"])
def test_a_record_missing_a_scenario_key_names_it(key: str) -> None:
    data = json.loads(_finished_record_json())
    del data["scenario"][key]
    with pytest.raises(RecordError, match=f"missing key '{key}'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("key", ["seat", "action", "digest"])
def test_a_record_missing_a_step_key_names_it(key: str) -> None:
    data = json.loads(_finished_record_json())
    del data["steps"][3][key]
    with pytest.raises(RecordError, match=f"missing key '{key}'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("fmt", [0, 2, "1", None])
def test_a_record_of_another_format_is_refused(fmt: Any) -> None:
    data = json.loads(_finished_record_json())
    data["format"] = fmt
    with pytest.raises(RecordError) as exc:
        GameRecord.from_json(data, origin="old.json")
    msg = str(exc.value)
    assert msg.startswith("old.json: 'format' must be 1")
    assert repr(fmt) in msg


def test_a_record_without_a_format_is_refused() -> None:
    data = json.loads(_finished_record_json())
    del data["format"]
    with pytest.raises(RecordError, match="'format' must be 1, got None"):
        GameRecord.from_json(data)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(steps=5),
        lambda d: d.update(steps=[{"seat": "north", "action": {}, "digest": "x"}]),
        lambda d: d.update(steps=[{"seat": 0, "action": 3, "digest": "x"}]),
        lambda d: d.update(seed="lucky"),
        lambda d: d.update(scenario="skirmish"),
    ],
    ids=[
        "steps-not-a-list",
        "seat-not-a-number",
        "action-not-an-object",
        "seed-not-a-number",
        "scenario-str",
    ],
)
def test_a_mistyped_record_is_a_record_error(mutate: Any) -> None:
    data = json.loads(_finished_record_json())
    mutate(data)
    with pytest.raises(RecordError, match=r"^rec: "):
        GameRecord.from_json(data, origin="rec")


def test_a_record_without_seed_or_result_reads_as_none() -> None:
    data = json.loads(_finished_record_json())
    data["seed"] = None
    del data["result"]
    del data["rng"]
    rec = GameRecord.from_json(data)
    assert rec.seed is None
    assert rec.result is None
    assert rec.rng == RNG_ALGORITHM


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    rec = finished_record()
    path = tmp_path / "game.iwgt.json"
    rec.save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == rec.to_json()
    back = GameRecord.load(path)
    assert back == rec
    assert digest(GAME.state_to_json(replay(back).state)) == rec.steps[-1].digest
    # The scenario text holds non-ASCII (the Temple of Ψεύδος) and survives the file as UTF-8.
    assert "Ψεύδος" in back.scenario_toml


def test_loading_a_non_json_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "not-a-record.json"
    path.write_text("this is not { json", encoding="utf-8")
    with pytest.raises(RecordError) as exc:
        GameRecord.load(path)
    assert str(path) in str(exc.value)
    assert "cannot read a JSON record" in str(exc.value)


def test_loading_a_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(RecordError) as exc:
        GameRecord.load(path)
    assert str(path) in str(exc.value)


def test_loading_a_json_file_with_a_bad_record_names_the_path_and_key(tmp_path: Path) -> None:
    data = json.loads(_finished_record_json())
    del data["steps"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as exc:
        GameRecord.load(path)
    assert str(exc.value) == f"{path}: missing key 'steps'"


def test_step_to_json() -> None:
    step = Step(seat=CHANCE, action={"face": 2}, digest="abc")
    assert step.to_json() == {"seat": -1, "action": {"face": 2}, "digest": "abc"}


def test_match_refuses_the_wrong_seat_and_changes_nothing() -> None:
    match = Match(GAME, GAME.load_scenario("skirmish"), SeededDice(1), 1)
    before = copy.deepcopy(GAME.state_to_json(match.state))
    with pytest.raises(GameError) as exc:
        match.act(1, act.ConfirmDeployment())
    assert exc.value.code == "illegal"
    assert "seat 1" in str(exc.value)
    assert GAME.state_to_json(match.state) == before
    assert match.record.steps == []


def test_match_logs_chance_steps_after_the_action_that_caused_them() -> None:
    match = Match(GAME, GAME.load_scenario("skirmish"), SeededDice(1), 1)
    match.act(0, act.ConfirmDeployment())
    events = match.act(1, act.ConfirmDeployment())
    seats = [s.seat for s in match.record.steps]
    assert seats == [0, 1, CHANCE]
    face = match.record.steps[2].action["face"]
    assert face in (1, 2)
    # The first-mover roll: face 1 gives the Light (seat 0) the first move (VX-04-03).
    assert GAME.to_move(match.state) == face - 1
    assert [e.kind for e in events][:2] == ["DeploymentConfirmed", "FirstMoverChosen"]
    state = GAME.initial_state(GAME.load_scenario("skirmish"))
    for a in (act.ConfirmDeployment(), act.ConfirmDeployment(), ChanceOutcome(face)):
        state, _ = GAME.apply(state, a)
    assert digest(GAME.state_to_json(state)) == match.record.steps[2].digest


def test_match_stops_at_a_chance_node_when_scripted_dice_run_out() -> None:
    match = Match(GAME, GAME.load_scenario("skirmish"), ScriptedDice([]), None)
    match.act(0, act.ConfirmDeployment())
    with pytest.raises(ValueError, match="no scripted face left"):
        match.act(1, act.ConfirmDeployment())
    # The confirmation itself was applied and logged; the table now waits for the die.
    assert [s.seat for s in match.record.steps] == [0, 1]
    assert GAME.to_move(match.state) == CHANCE
    assert digest(GAME.state_to_json(match.state)) == match.record.steps[-1].digest
    match.dice = ScriptedDice([2])
    match.resolve_chance()
    assert [s.seat for s in match.record.steps] == [0, 1, CHANCE]
    assert GAME.to_move(match.state) == 1
    assert replay(match.record).steps == 3


def test_match_refuses_acting_for_the_dice_and_changes_nothing() -> None:
    match = Match(GAME, GAME.load_scenario("skirmish"), ScriptedDice([]), None)
    match.act(0, act.ConfirmDeployment())
    with pytest.raises(ValueError):
        match.act(1, act.ConfirmDeployment())
    before = GAME.state_to_json(match.state)
    with pytest.raises(GameError):
        match.act(CHANCE, ChanceOutcome(1))
    assert GAME.state_to_json(match.state) == before
    assert digest(GAME.state_to_json(match.state)) == match.record.steps[-1].digest
