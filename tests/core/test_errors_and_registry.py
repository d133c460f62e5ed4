"""Tests for iwgt.core.errors and iwgt.core.registry: typed refusals and games registered by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import iwgt.games  # noqa: F401  (registers every game)
from iwgt.core import registry
from iwgt.core.datafiles import DataModel, load_model, parse_toml, validate
from iwgt.core.errors import (
    AmbiguousAction,
    DataFileError,
    GameError,
    IllegalAction,
    MalformedAction,
    RecordError,
)
from iwgt.core.registry import game_names, get_game, register

# ---------------------------------------------------------------- registry


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registrations made by a test vanish afterwards (conformance tests parametrize over the registry)."""
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_INSTANCES", dict(registry._INSTANCES))


def test_valkyrx_is_registered() -> None:
    assert "valkyrx" in game_names()
    assert game_names() == sorted(game_names())
    game = get_game("valkyrx")
    assert game.name == "valkyrx"
    assert game.title == "Days of the Valkyrx"


def test_get_game_returns_one_instance() -> None:
    assert get_game("valkyrx") is get_game("valkyrx")


def test_unknown_game_lists_the_known_games() -> None:
    with pytest.raises(KeyError) as exc:
        get_game("nope")
    msg = str(exc.value)
    assert "'nope'" in msg
    assert "known games:" in msg
    for name in game_names():
        assert name in msg


def test_unknown_game_with_an_empty_registry_says_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_FACTORIES", {})
    with pytest.raises(KeyError, match="known games: none"):
        get_game("valkyrx")


def test_a_second_different_factory_under_an_existing_name_is_refused() -> None:
    before = registry._FACTORIES["valkyrx"]
    instance = get_game("valkyrx")
    with pytest.raises(ValueError, match="'valkyrx' is already registered"):
        register("valkyrx", lambda: instance)
    assert registry._FACTORIES["valkyrx"] is before
    assert get_game("valkyrx") is instance


def test_registering_the_same_factory_again_is_harmless() -> None:
    factory = registry._FACTORIES["valkyrx"]
    instance = get_game("valkyrx")
    register("valkyrx", factory)
    assert get_game("valkyrx") is instance
    assert game_names().count("valkyrx") == 1


@pytest.mark.usefixtures("isolated_registry")
def test_register_a_new_game_lazily() -> None:
    calls: list[int] = []
    sentinel: Any = object()

    def factory() -> Any:
        calls.append(1)
        return sentinel

    register("aaa-test-game", factory)
    assert calls == []  # registration builds nothing
    assert game_names()[0] == "aaa-test-game"
    assert get_game("aaa-test-game") is sentinel
    assert get_game("aaa-test-game") is sentinel
    assert calls == [1]
    with pytest.raises(ValueError, match="already registered"):
        register("aaa-test-game", lambda: sentinel)


def test_the_isolated_registry_left_nothing_behind() -> None:
    assert "aaa-test-game" not in game_names()


# ---------------------------------------------------------------- errors

ERROR_CODES: list[tuple[type[GameError], str]] = [
    (GameError, "error"),
    (MalformedAction, "malformed"),
    (IllegalAction, "illegal"),
    (AmbiguousAction, "ambiguous"),
    (RecordError, "record"),
]


@pytest.mark.parametrize(("cls", "code"), ERROR_CODES)
def test_error_to_json(cls: type[GameError], code: str) -> None:
    err = cls("that cell is impassable")
    assert err.code == code
    assert err.to_json() == {"error": code, "message": "that cell is impassable"}
    assert err.message == str(err) == "that cell is impassable"
    assert isinstance(err, GameError)
    assert isinstance(err, Exception)


def test_error_codes_are_distinct() -> None:
    codes = [code for _, code in ERROR_CODES] + [DataFileError.code]
    assert len(set(codes)) == len(codes)


def test_data_file_error_names_path_key_and_expectation() -> None:
    err = DataFileError("scenarios/ford.toml", "army.light.2.unit", "a known unit type, got 'orcs'")
    msg = str(err)
    assert "scenarios/ford.toml" in msg
    assert "army.light.2.unit" in msg
    assert "a known unit type, got 'orcs'" in msg
    assert msg == "scenarios/ford.toml: at 'army.light.2.unit': a known unit type, got 'orcs'"
    assert (err.path, err.key, err.expected) == (
        "scenarios/ford.toml",
        "army.light.2.unit",
        "a known unit type, got 'orcs'",
    )
    assert err.code == "data"
    assert err.to_json() == {"error": "data", "message": msg}
    assert isinstance(err, GameError)


def test_errors_are_catchable_as_game_error() -> None:
    for cls, _ in ERROR_CODES[1:]:
        with pytest.raises(GameError):
            raise cls("x")
    with pytest.raises(GameError):
        raise DataFileError("p", "k", "e")


# ---------------------------------------------------------------- data files fail fast with file and key


class _Inner(DataModel):
    sides: int


class _Model(DataModel):
    name: str
    dice: tuple[_Inner, ...] = ()


def test_validate_names_the_dotted_key() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {"name": "x", "dice": [{"sides": 6}, {"sides": "many"}]}, "dice.toml")
    err = exc.value
    assert err.path == "dice.toml"
    assert err.key == "dice.1.sides"
    assert "'many'" in err.expected
    assert str(err).startswith("dice.toml: at 'dice.1.sides': ")


def test_validate_refuses_unknown_keys() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {"name": "x", "colour": "red"}, "dice.toml")
    assert exc.value.key == "colour"


def test_validate_names_a_missing_key() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {}, "dice.toml")
    assert exc.value.key == "name"
    assert "required" in exc.value.expected.lower()


def test_validated_models_are_frozen() -> None:
    model = validate(_Model, {"name": "x"}, "dice.toml")
    assert model.name == "x"
    with pytest.raises(Exception, match="frozen"):
        model.name = "y"  # type: ignore[misc]


def test_toml_syntax_error_names_the_file() -> None:
    with pytest.raises(DataFileError) as exc:
        parse_toml("name = = 3", "broken.toml")
    assert exc.value.path == "broken.toml"
    assert exc.value.key == "(syntax)"
    assert "valid TOML" in exc.value.expected
    assert "line 1" in exc.value.expected


def test_load_model_of_a_missing_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError) as exc:
        load_model(_Model, path)
    assert exc.value.path == str(path)
    assert exc.value.key == "(file)"


def test_load_model_reads_and_validates(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text('name = "d"\n[[dice]]\nsides = 6\n', encoding="utf-8")
    model = load_model(_Model, path)
    assert model.dice == (_Inner(sides=6),)
    path.write_text('name = "d"\n[[dice]]\nsides = "six"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"ok.toml: at 'dice.0.sides'"):
        load_model(_Model, path)


def test_a_broken_scenario_names_the_origin_and_key() -> None:
    game = get_game("valkyrx")
    text = game.load_scenario("skirmish").source.replace("width = 12", 'width = "wide"')
    with pytest.raises(DataFileError) as exc:
        game.parse_scenario(text, "my-ford.toml")
    assert exc.value.path == "my-ford.toml"
    assert exc.value.key == "width"
    assert "'wide'" in str(exc.value)


def test_an_unknown_scenario_lists_the_shipped_ones() -> None:
    game = get_game("valkyrx")
    with pytest.raises(DataFileError) as exc:
        game.load_scenario("no-such-scenario")
    assert exc.value.path == "no-such-scenario"
    for name in game.scenario_names():
        assert name in exc.value.expected
