"""Tests for iwgt.core.errors and iwgt.core.registry: typed refusals and games registered by name."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
from pydantic import field_validator

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
from iwgt.core.plugin import GamePlugin
from iwgt.core.protocol import GameFacts
from iwgt.core.registry import game_names, get_game, get_plugin, register

# ---------------------------------------------------------------- registry


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registrations made by a test vanish afterwards (conformance tests parametrize over the registry)."""
    registry.game_names()  # read the entry points before copying
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))


class _Toy(GamePlugin):
    facts = GameFacts("aaa_test_game", "Toy", "a toy", "abstract", 2, 2, "toy-1")


def test_both_games_come_from_their_entry_points() -> None:
    eps = {ep.name: ep.value for ep in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert eps["valkyrx"] == "iwgt.games.valkyrx.plugin:plugin"
    assert eps["valhalla"] == "iwgt.games.valhalla.plugin:plugin"
    assert {"valkyrx", "valhalla"} <= set(game_names())
    assert game_names() == sorted(game_names())
    plugin = get_plugin("valkyrx")
    assert plugin.name == "valkyrx" and plugin.facts.title == "Days of the Valkyrx"
    assert get_game("valkyrx").name == "valkyrx"


def test_get_game_returns_one_instance() -> None:
    assert get_game("valkyrx") is get_game("valkyrx")
    assert get_plugin("valhalla") is get_plugin("valhalla")


def test_unknown_game_lists_the_known_games() -> None:
    with pytest.raises(KeyError) as exc:
        get_game("nope")
    msg = str(exc.value)
    assert "'nope'" in msg
    assert "the games on this table are:" in msg
    for name in game_names():
        assert name in msg


def test_unknown_game_with_an_empty_registry_says_none(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.game_names()
    monkeypatch.setattr(registry, "_FACTORIES", {})
    monkeypatch.setattr(registry, "_PLUGINS", {})
    with pytest.raises(KeyError, match="are: none"):
        get_game("valkyrx")


def test_a_name_already_taken_is_refused() -> None:
    instance = get_game("valkyrx")
    with pytest.raises(ValueError, match="'valkyrx' is already registered"):
        register("valkyrx", _Toy)
    assert get_game("valkyrx") is instance


@pytest.mark.usefixtures("isolated_registry")
def test_register_a_new_game_lazily() -> None:
    calls: list[int] = []

    def factory() -> GamePlugin:
        calls.append(1)
        return _Toy()

    register("aaa_test_game", factory)
    assert calls == []  # registration builds nothing
    assert game_names()[0] == "aaa_test_game"
    first = get_plugin("aaa_test_game")
    assert get_plugin("aaa_test_game") is first
    assert calls == [1]
    with pytest.raises(ValueError, match="already registered"):
        register("aaa_test_game", _Toy())
    with pytest.raises(NotImplementedError, match="builds no rules"):
        get_game("aaa_test_game")  # a plug-in that forgot its rules says so


@pytest.mark.usefixtures("isolated_registry")
def test_a_plugin_must_carry_its_own_name() -> None:
    with pytest.raises(ValueError, match="names its game 'aaa_test_game', not 'zzz'"):
        register("zzz", _Toy())


def test_the_isolated_registry_left_nothing_behind() -> None:
    assert "aaa_test_game" not in game_names()


def test_coming_games_are_listed_until_registered() -> None:
    import tomllib
    from importlib.resources import files

    written = tomllib.loads(files("iwgt.games").joinpath("coming.toml").read_text(encoding="utf-8"))
    coming = [g["name"] for g in registry.coming_games()]
    # Every game the file lists is shown until a plug-in of that name is registered (the list may be empty).
    assert coming == [g["name"] for g in written.get("coming", []) if g["name"] not in game_names()]
    assert not set(coming) & set(game_names())


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
    assert msg == "scenarios/ford.toml, army.light.2.unit: a known unit type, got 'orcs'"
    assert (err.path, err.key, err.expected) == (
        "scenarios/ford.toml",
        "army.light.2.unit",
        "a known unit type, got 'orcs'",
    )
    assert err.code == "data"
    assert err.to_json() == {"error": "data", "message": msg}
    assert isinstance(err, GameError)


def test_a_data_file_error_of_the_whole_file_has_no_key_and_may_say_it_in_its_own_words() -> None:
    assert DataFileError("ford.toml", "", "a TOML file").message == "ford.toml: a TOML file"
    err = DataFileError("nope.toml", "", "an existing file", message="no such file: nope.toml")
    assert (err.message, err.path, err.expected) == (
        "no such file: nope.toml",
        "nope.toml",
        "an existing file",
    )


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


class _CheckedInner(DataModel):
    sides: int

    @field_validator("sides")
    @classmethod
    def _at_least_two(cls, sides: int) -> int:
        if sides < 2:
            raise ValueError("a die has at least 2 sides")
        return sides


class _Checked(DataModel):
    name: str
    dice: tuple[_CheckedInner, ...] = ()


def test_validate_names_the_dotted_key() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {"name": "x", "dice": [{"sides": 6}, {"sides": "many"}]}, "dice.toml")
    err = exc.value
    assert err.path == "dice.toml"
    assert err.key == "dice.1.sides"
    assert "'many'" in err.expected
    assert str(err).startswith("dice.toml, dice.1.sides: ")


def test_validate_refuses_unknown_keys() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {"name": "x", "colour": "red"}, "dice.toml")
    assert exc.value.key == "colour"


def test_validate_names_a_missing_key() -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Model, {}, "dice.toml")
    assert exc.value.key == "name"
    assert "required" in exc.value.expected.lower()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "dice.toml, name: missing: this key is required"),
        ({"name": "x", "colour": "red"}, "dice.toml, colour: unknown key (a misspelling?)"),
        ({"name": "x", "dice": [{"sides": 0}]}, "dice.toml, dice.0.sides: a die has at least 2 sides"),
        (
            {"name": "x", "dice": [{"sides": "six"}]},
            "dice.toml, dice.0.sides: should be a whole number, got 'six'",
        ),
        ({"name": "x", "dice": 6}, "dice.toml, dice: should be a list in [brackets], got 6"),
        ({"name": 3}, "dice.toml, name: should be a text in quotes, got 3"),
    ],
)
def test_validate_says_what_is_wrong_in_plain_words(data: dict[str, object], message: str) -> None:
    with pytest.raises(DataFileError) as exc:
        validate(_Checked, data, "dice.toml")
    assert exc.value.message == message
    assert "Value error" not in exc.value.message and " at '" not in exc.value.message


def test_validated_models_are_frozen() -> None:
    model = validate(_Model, {"name": "x"}, "dice.toml")
    assert model.name == "x"
    with pytest.raises(Exception, match="frozen"):
        model.name = "y"  # type: ignore[misc]


def test_toml_syntax_error_names_the_file() -> None:
    with pytest.raises(DataFileError) as exc:
        parse_toml("name = = 3", "broken.toml")
    assert exc.value.path == "broken.toml"
    assert exc.value.key == ""
    assert "valid TOML" in exc.value.expected
    # tomllib's "Invalid value (at line 1, column 8)", the place first.
    assert exc.value.message == "broken.toml is not valid TOML: line 1, column 8: Invalid value"


def test_load_model_of_a_missing_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataFileError) as exc:
        load_model(_Model, path)
    assert exc.value.path == str(path)
    assert exc.value.key == ""
    assert exc.value.message == f"no such file: {path}"


def test_load_model_reads_and_validates(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text('name = "d"\n[[dice]]\nsides = 6\n', encoding="utf-8")
    model = load_model(_Model, path)
    assert model.dice == (_Inner(sides=6),)
    path.write_text('name = "d"\n[[dice]]\nsides = "six"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"ok.toml, dice.0.sides: "):
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
