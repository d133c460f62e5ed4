"""Game data in TOML, validated by pydantic when loaded, failing fast with file and key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from iwgt.core.errors import DataFileError

M = TypeVar("M", bound=BaseModel)
_KEYED = re.compile(r"^Value error, (?P<key>[A-Za-z_][\w.]*): (?P<msg>.*)$", re.DOTALL)


class DataModel(BaseModel):
    """Base of every data-file model: frozen, and unknown keys are refused (a typo is an error)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def parse_toml(text: str, origin: str) -> dict[str, Any]:
    """TOML text as a dict; a syntax error names the file and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(origin, "(syntax)", f"valid TOML ({exc})") from None


def validate(model: type[M], data: Any, origin: str) -> M:
    """Validate data against a model; the first problem is reported with its dotted key."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"])
        got = err.get("input")
        shown = "" if isinstance(got, dict) else f", got {got!r}"
        if not key:
            # A model-level check cannot set pydantic's location, so it names its key itself as
            # "key: what is wrong" (see ScenarioFile); any other message is about the whole file.
            found = _KEYED.match(msg)
            key, msg, shown = (found["key"], found["msg"], "") if found else ("(top level)", msg, shown)
        raise DataFileError(origin, key, f"{msg}{shown}") from None


def load_model(model: type[M], path: Path) -> M:
    """Read and validate a TOML data file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # missing, unreadable, or not UTF-8 text
        raise DataFileError(str(path), "(file)", f"a readable UTF-8 file ({exc})") from None
    return validate(model, parse_toml(text, str(path)), str(path))


def read_scenario(ref: str, directory: Path) -> tuple[str, str]:
    """The TOML text of a scenario and where it came from: a shipped name in ``directory``, or a path."""
    path = directory / f"{ref}.toml"
    if not path.exists():
        path = Path(ref)
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in directory.glob("*.toml")))
        raise DataFileError(ref, "(file)", f"a shipped scenario name ({known}) or a path to a .toml file")
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except (OSError, ValueError) as exc:  # a folder, no permission, or not UTF-8 text
        raise DataFileError(str(path), "(file)", f"a readable UTF-8 TOML file ({exc})") from None
