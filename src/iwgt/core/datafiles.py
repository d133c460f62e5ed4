"""Game data in TOML, validated by pydantic when loaded, failing fast with file and key."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import tomlkit
from pydantic import BaseModel, ConfigDict, ValidationError

from iwgt.core.errors import DataFileError

M = TypeVar("M", bound=BaseModel)
_KEYED = re.compile(r"^(?P<key>[A-Za-z_][\w.]*): (?P<msg>.*)$", re.DOTALL)
_PYDANTIC_PREFIX = re.compile(r"^(Value error|Assertion failed), ")
_TOML_AT = re.compile(r"^(?P<msg>.*) \(at (?P<where>line \d+, column \d+|end of document)\)$", re.DOTALL)
PLAIN: dict[str, str] = {
    "missing": "missing: this key is required",
    "extra_forbidden": "unknown key (a misspelling?)",
}
"""Pydantic's wording of the commonest problems, in a file author's words (by pydantic's error type)."""
SHOULD_BE: dict[str, str] = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
    "string_type": "a text in quotes",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list in [brackets]",
    "tuple_type": "a list in [brackets]",
    "dict_type": "a table of keys",
    "model_type": "a table of keys",
}
"""What a value of the wrong type should have been, by pydantic's error type; the value found follows."""


class DataModel(BaseModel):
    """Base of every data-file model: frozen, and unknown keys are refused (a typo is an error)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def parse_toml(text: str, origin: str) -> dict[str, Any]:
    """TOML text as a dict; a syntax error names the file and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib says "Invalid value (at line 3, column 8)": the place first, as an editor shows it.
        said = str(exc)
        found = _TOML_AT.match(said)
        where = f"{found['where']}: {found['msg']}" if found else said
        raise DataFileError(
            origin, "", f"valid TOML ({where})", message=f"{origin} is not valid TOML: {where}"
        ) from None


def with_top_level(text: str, values: Mapping[str, str | bool | int]) -> str:
    """TOML text with top-level keys set to ``values`` (replaced where the text has them, else added), the
    rest of the text kept as written (tomlkit keeps comments and layout): a scenario with the players' setup
    choices written in, so that its record holds them."""
    doc = tomlkit.parse(text)
    for key, value in values.items():
        doc[key] = value
    return tomlkit.dumps(doc)


def validate(model: type[M], data: Any, origin: str) -> M:
    """Validate data against a model; the first problem is reported with its dotted key."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        # A check of our own says what is wrong in its own words: pydantic's "Value error, " is noise.
        kind = err["type"]
        msg = PLAIN.get(kind) or _PYDANTIC_PREFIX.sub("", str(err["msg"]))
        if kind in SHOULD_BE:
            msg = f"should be {SHOULD_BE[kind]}"
        got = err.get("input")
        custom = kind in ("value_error", "assertion_error")
        shown = "" if custom or kind in PLAIN or isinstance(got, dict) else f", got {got!r}"
        if not key:
            # A model-level check cannot set pydantic's location, so it names its key itself as
            # "key: what is wrong" (see ScenarioFile); any other message is about the whole file.
            found = _KEYED.match(msg)
            key, msg, shown = (found["key"], found["msg"], "") if found else ("", msg, shown)
        raise DataFileError(origin, key, f"{msg}{shown}") from None


def load_model(model: type[M], path: Path) -> M:
    """Read and validate a TOML data file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(str(path), "", "an existing file", message=f"no such file: {path}") from None
    except (OSError, ValueError) as exc:  # unreadable, or not UTF-8 text
        raise DataFileError(str(path), "", f"cannot be read as UTF-8 text ({_why(exc)})") from None
    return validate(model, parse_toml(text, str(path)), str(path))


def read_scenario(ref: str, directory: Path) -> tuple[str, str]:
    """The TOML text of a scenario and where it came from: a shipped name in ``directory``, or a path."""
    path = directory / f"{ref}.toml"
    if not path.exists():
        path = Path(ref)
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in directory.glob("*.toml")))
        expected = f"a shipped scenario name ({known}) or a path to a .toml file"
        # A bare name was meant as a shipped scenario; anything that looks like a path was meant as a file.
        bare = path.suffix == "" and len(path.parts) == 1
        said = f"no shipped scenario or file called {ref!r}; the shipped scenarios: {known}"
        raise DataFileError(ref, "", expected, message=said if bare else f"no such file: {ref}")
    if path.is_dir():
        raise DataFileError(str(path), "", "a TOML file", message=f"{path} is a folder, not a TOML file")
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except (OSError, ValueError) as exc:  # no permission, or not UTF-8 text
        raise DataFileError(str(path), "", f"cannot be read as UTF-8 text ({_why(exc)})") from None


def _why(exc: Exception) -> str:
    """Why a file could not be read, without Python's exception names or errno numbers."""
    if isinstance(exc, UnicodeDecodeError):
        return f"byte {exc.start} is not UTF-8"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc)
