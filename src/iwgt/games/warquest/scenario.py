"""WarQuest scenario files (TOML): the map, the number of warlords and the rounds (designed: the source
gives no scenarios; the publisher speaks of a game "until the event deck is spent" or a set number of turns).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import Field

from iwgt.core.datafiles import DataModel, parse_toml, read_scenario, validate

SCENARIO_DIR: Final = Path(__file__).parent / "scenarios"


class ScenarioFile(DataModel):
    """The whole scenario file."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=40)
    title: str = Field(min_length=1)
    description: str = ""
    map: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
    players: int = Field(ge=2, le=5)
    rounds: int = Field(default=25, ge=1, le=25)
    emperor_quests: int = Field(default=4, ge=1, le=10)
    designed: str = ""


@dataclass(frozen=True, slots=True)
class WqScenario:
    """A parsed scenario: its fields and the TOML text it was read from (so a record is self-contained)."""

    name: str
    title: str
    description: str
    map: str
    players: int
    rounds: int
    emperor_quests: int
    designed: str
    source: str


def parse_scenario(text: str, origin: str) -> WqScenario:
    """A scenario from TOML text; a broken file raises DataFileError naming the key."""
    spec = validate(ScenarioFile, parse_toml(text, origin), origin)
    return WqScenario(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        map=spec.map,
        players=spec.players,
        rounds=spec.rounds,
        emperor_quests=spec.emperor_quests,
        designed=spec.designed,
        source=text,
    )


def scenario_names() -> list[str]:
    """The shipped scenarios in name order (the conformance suite asks for sorted names)."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.toml"))


def load_scenario(ref: str) -> WqScenario:
    """A shipped scenario by name, or a scenario file by path."""
    return parse_scenario(*read_scenario(ref, SCENARIO_DIR))
