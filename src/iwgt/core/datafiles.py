"""Game data in TOML, validated by pydantic when loaded, failing fast with file and key."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from iwgt.core.errors import DataFileError

M = TypeVar("M", bound=BaseModel)


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
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        got = err.get("input")
        shown = "" if isinstance(got, dict) else f", got {got!r}"
        raise DataFileError(origin, key, f"{err['msg']}{shown}") from None


def load_model(model: type[M], path: Path) -> M:
    """Read and validate a TOML data file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(str(path), "(file)", f"a readable file ({exc.strerror})") from None
    return validate(model, parse_toml(text, str(path)), str(path))
