"""The eight coloured dice (data/dice.toml, CD-DI-01..13) and the arithmetic of a pool: points, kills, wounds
against armour (CD-FI-05..07), range bands (CD-RA-01..06) and the armour of a shot (CD-SH-04..09).

A face is a whole number, ``"miss"`` or ``"kill"``. A die's faces are numbered 1..6 in the order the data
lists them; that number is the chance outcome a roll records and the button a player taps with real dice.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictBool, field_validator, model_validator

from iwgt.core.chance import Die
from iwgt.core.datafiles import DataModel, load_model

DATA_DIR = Path(__file__).parent / "data"
DICE_FILE = DATA_DIR / "dice.toml"

Label = Literal["miss", "kill"]
"""The two faces that are words, not numbers."""
Face = int | Label
"""One face of a coloured die: a number of points, 'miss' or 'kill'."""
MISS: Label = "miss"
KILL: Label = "kill"
SIDES = 6
"""CD-DI-01: "all of which are 6-sided"."""
COLOURS: tuple[str, ...] = ("white", "blue", "green", "black", "red", "violet", "yellow", "orange")
"""The eight dice in the text's order (CD-DI-04..11): the pool order, in which a pool's dice are rolled."""
RANGE_EPS = 1e-9
"""A distance within this many range multiples of an exact multiple counts as the multiple: a tray gap
measured as 24.000000001" at an 8" range is the text's 24" (lower band, CD-RA-02)."""
MAX_POOL_DICE = 1000
"""The most dice one pool may hold (designed: no unit rolls more; it bounds the work of a typed pool)."""

_POOL_PART = re.compile(r"^(?P<count>\d+)?\s*[x×*]?\s*(?P<colour>[a-z]+)$")


class FaceRule(DataModel):
    """What a word face counts: its points and wounds, and the decision behind it."""

    clause: str = Field(pattern=r"^CD-DI-\d\d$")
    points: int = Field(ge=0)
    wounds: int = Field(ge=0)
    decision: str = Field(min_length=1)
    designed: StrictBool = False


class DieSpec(DataModel):
    """One coloured die: its clause, name, Finnish name, six faces and the colour it is drawn in."""

    clause: str = Field(pattern=r"^CD-DI-\d\d$")
    name: str = Field(min_length=1)
    finnish: str = Field(min_length=1)
    faces: tuple[Face, ...]
    ink: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")

    @field_validator("faces", mode="before")
    @classmethod
    def _six_faces(cls, value: Any) -> Any:
        """Six faces, each a whole number 0 or more, "miss" or "kill" (a typo or a 7th face is refused)."""
        if not isinstance(value, list | tuple):
            raise ValueError("should be a list in [brackets] of six faces")
        if len(value) != SIDES:
            raise ValueError(f"a die has {SIDES} faces (CD-DI-01), got {len(value)}")
        for n, face in enumerate(value, start=1):
            number = isinstance(face, int) and not isinstance(face, bool) and face >= 0
            if not number and face not in (MISS, KILL):
                raise ValueError(
                    f"face {n} is {face!r}: a face is a whole number 0 or more, 'miss' or 'kill'"
                )
        return tuple(value)


class DiceFile(DataModel):
    """data/dice.toml: the two word faces and the eight dice."""

    miss: FaceRule
    kill: FaceRule
    dice: dict[str, DieSpec]

    @model_validator(mode="after")
    def _the_eight_dice(self) -> DiceFile:
        """Exactly the eight colours of the text, no more and no fewer."""
        for colour in self.dice:
            if colour not in COLOURS:
                raise ValueError(f"dice.{colour}: not a die of the text; the dice are {', '.join(COLOURS)}")
        for colour in COLOURS:
            if colour not in self.dice:
                raise ValueError(f"dice.{colour}: missing: the text has eight dice ({', '.join(COLOURS)})")
        return self


@cache
def dice_file() -> DiceFile:
    """The dice data, validated and read once."""
    return load_model(DiceFile, DICE_FILE)


def _known(colour: str) -> DieSpec:
    """The die of a colour, or a ValueError naming the dice."""
    spec = dice_file().dice.get(colour)
    if spec is None:
        raise ValueError(f"unknown colour {colour!r}: the dice are {', '.join(COLOURS)}")
    return spec


def faces(colour: str) -> tuple[Face, ...]:
    """The six faces of a colour's die, face 1 first (CD-DI-04..11)."""
    return _known(colour).faces


def spec(colour: str) -> DieSpec:
    """The whole data of a colour's die (clause, names, faces, ink)."""
    return _known(colour)


def labels(colour: str) -> tuple[str, ...]:
    """The six faces as they are printed: "1", "2", "miss", "kill"."""
    return tuple(str(f) for f in faces(colour))


def die(colour: str, purpose: str) -> Die:
    """The chance node for one die of this colour: a d6 whose faces carry the die's labels."""
    return Die(SIDES, purpose, faces=labels(colour), colour=colour)


def face_value(colour: str, index: int) -> Face:
    """The face number ``index`` (1..6) of a colour's die shows."""
    if isinstance(index, bool) or not 1 <= index <= SIDES:
        raise ValueError(f"a {colour} die has faces 1 to {SIDES}, not {index!r}")
    return faces(colour)[index - 1]


def face_points(face: Face) -> int:
    """The points a face adds to a roll: its number, and 0 for 'miss' and 'kill' (CD-DI-12, CD-DI-13)."""
    if isinstance(face, int):
        return face
    return dice_file().miss.points if face == MISS else dice_file().kill.points


def kill_wounds() -> int:
    """The wounds one 'kill' face deals (CD-DI-13 decision: one)."""
    return dice_file().kill.wounds


def parse_pool(text: str) -> dict[str, int]:
    """A pool typed as "10white,5black" (spaces, "10 white" and "10xwhite" too; a bare colour is one die; a
    colour named twice adds up) as {colour: count} in pool order; a clear ValueError otherwise."""
    known = ", ".join(COLOURS)
    parts = [p.strip() for p in text.strip().lower().replace(";", ",").split(",")]
    if not any(parts):
        raise ValueError(
            f"no dice: write a pool as counts and colours, e.g. 10white,5black (the dice are {known})"
        )
    counts: dict[str, int] = {}
    for part in parts:
        if not part:
            raise ValueError(f"an empty part in {text!r}: write a pool as e.g. 10white,5black")
        found = _POOL_PART.match(part)
        if found is None:
            raise ValueError(f"{part!r} is not a count and a colour: write a pool as e.g. 10white,5black")
        colour = found["colour"]
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r} in {part!r}: the dice are {known}")
        count = 1 if found["count"] is None else int(found["count"])
        if count < 1:
            raise ValueError(f"{part!r}: a pool holds at least one die of each colour it names")
        counts[colour] = counts.get(colour, 0) + count
    total = sum(counts.values())
    if total > MAX_POOL_DICE:
        raise ValueError(f"{total} dice: a pool holds at most {MAX_POOL_DICE}")
    return {c: counts[c] for c in COLOURS if c in counts}


def pool_list(pool: Mapping[str, int]) -> tuple[str, ...]:
    """One colour per die, in pool order (white first, orange last): the order the dice are rolled in."""
    for colour, count in pool.items():
        _known(colour)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{colour}: {count!r} is not a number of dice")
    return tuple(c for c in COLOURS for _ in range(pool.get(c, 0)))


def pool_text(pool: Mapping[str, int]) -> str:
    """A pool in words: "10 white, 5 black" ("no dice" when empty)."""
    parts = [f"{pool[c]} {c}" for c in COLOURS if pool.get(c, 0)]
    return ", ".join(parts) if parts else "no dice"


@dataclass(frozen=True, slots=True)
class Rolled:
    """A rolled pool summed: its points (numbers; 'miss' and 'kill' count 0), its kill faces, and how many
    dice show a number (a hero point can change only those, CD-CH-18 decision)."""

    points: int
    kills: int
    numbers: int


def total(colours: Sequence[str], indices: Sequence[int]) -> Rolled:
    """The points, kills and number faces of dice of these colours showing these face numbers (1..6)."""
    if len(colours) != len(indices):
        raise ValueError(f"{len(colours)} dice but {len(indices)} faces")
    points = kills = numbers = 0
    for colour, index in zip(colours, indices, strict=True):
        face = face_value(colour, index)
        points += face_points(face)
        if face == KILL:
            kills += 1
        elif face != MISS:
            numbers += 1
    return Rolled(points, kills, numbers)


def wounds(points: int, kills: int, armour: int) -> int:
    """Wounds dealt: every armour + 1 points one wound, left-over points lost (CD-FI-05..07), plus each kill
    face's wound whatever the armour (CD-DI-13 decision)."""
    if armour < 0:
        raise ValueError(f"armour {armour}: armour is 0 or more (CD-FI-06, CD-SH-08)")
    if points < 0 or kills < 0:
        raise ValueError(f"points {points} and kills {kills} cannot be negative")
    return points // (armour + 1) + kills * kill_wounds()


def range_band(distance: float, weapon_range: float) -> int:
    """The armour a range adds: +1 per multiple of the range after the first, an exact multiple in the lower
    band (CD-RA-02, CD-RA-03): ceil(distance / range) - 1, at least 0 (23" and 24" at 8" are +2, 25" +3)."""
    if not weapon_range > 0 or math.isinf(weapon_range):
        raise ValueError(f"a weapon's range is a positive number of inches, not {weapon_range!r}")
    if not distance >= 0 or math.isinf(distance):
        raise ValueError(f"a distance is 0 inches or more, not {distance!r}")
    return max(0, math.ceil(distance / weapon_range - RANGE_EPS) - 1)


def shot_armour(armour: int, *, skill: int, band: int, cover: int, hill: int = 0, extra: int = 0) -> int:
    """The target's armour against a shot: its armour + the shooter's skill + the range band + cover + hill +
    other modifiers, never below 0 (CD-SH-04..08, CD-RA-02, CD-TC-01..03)."""
    return max(0, armour + skill + band + cover + hill + extra)
