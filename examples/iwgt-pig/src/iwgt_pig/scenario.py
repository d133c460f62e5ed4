"""Pig scenario files (TOML, validated by pydantic): who plays, in seat order, and the score to reach."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate

SCENARIO_DIR = Path(__file__).parent / "scenarios"
MAX_PLAYERS = 6
"""Pig needs no more than a die passed round a table."""

PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str = Field(min_length=1, max_length=60)
    description: str = ""
    target: int = Field(ge=10, le=1000)
    players: tuple[PlayerName, ...] = Field(min_length=2, max_length=MAX_PLAYERS)

    @model_validator(mode="after")
    def _distinct(self) -> ScenarioFile:
        # A model-level check names its key itself ("key: what is wrong"), see core.datafiles.validate.
        if len(set(self.players)) != len(self.players):
            raise ValueError("players: two players share a name")
        return self


@dataclass(frozen=True)
class PigScenario:
    """A parsed scenario: the validated file and its TOML text (so that a record is self-contained)."""

    spec: ScenarioFile
    source: str

    @property
    def name(self) -> str:
        """The scenario's short name."""
        return self.spec.name


def parse_scenario(text: str, origin: str) -> PigScenario:
    """A scenario from TOML text; a broken file raises DataFileError naming the file and the key."""
    return PigScenario(validate(ScenarioFile, parse_toml(text, origin), origin), text)


def scenario_names() -> list[str]:
    """The shipped scenarios."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> PigScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
