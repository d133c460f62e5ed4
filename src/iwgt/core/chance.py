"""Explicit chance: dice specs, a version-stable seeded generator, and physical dice.

Rules never draw random numbers. When a game needs a roll it stops at a chance node and says which
die it needs (``Die``); the referee answers with a seeded generator or with the face a player read
off a real die. Either way the face is logged as an action, so replays need no generator at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

RNG_ALGORITHM = "splitmix64"
_MASK64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Die:
    """A fair die with faces 1..sides, and what the roll is for (shown to a player rolling by hand).

    A die of a game's own (coloured faces showing words or repeated numbers) gives the label of each face,
    in face order (``faces[i]`` is face ``i + 1``), and its colour: the outcome is still the face's number,
    so records, seeded rolls and replays are the same as for a plain die; only what a player is shown
    changes.
    """

    sides: int
    purpose: str
    secret: bool = False  # no player may see the face: the table rolls it itself, even with physical dice
    faces: tuple[str, ...] = ()  # the label printed on each face (empty: the faces show 1..sides)
    colour: str = ""  # the die's colour, when the game's dice differ by colour

    def __post_init__(self) -> None:
        if self.faces and len(self.faces) != self.sides:
            raise ValueError(f"a d{self.sides} has {self.sides} face labels, got {len(self.faces)}")

    def label(self, face: int) -> str:
        """What face ``face`` (1..sides) shows: its label, or its number on a plain die."""
        return self.faces[face - 1] if self.faces else str(face)

    def outcomes(self) -> list[tuple[int, Fraction]]:
        """Every face with its exact probability."""
        p = Fraction(1, self.sides)
        return [(face, p) for face in range(1, self.sides + 1)]

    def hint(self) -> str:
        """How to roll this die with ordinary dice (or with the game's own die, by its colour)."""
        if self.colour:
            return f"roll a {self.colour} die"
        if self.faces:
            return f"roll the d{self.sides} with the faces {', '.join(self.faces)}"
        if self.sides == 100:
            return "roll d100 (two d10: tens and units, 00 is 100)"
        if self.sides == 2:
            return "toss a coin or roll a d6, and enter 1 (heads, or 1-3) or 2 (tails, or 4-6)"
        return f"roll a d{self.sides}"


class SplitMix64:
    """SplitMix64: tiny, fully specified, identical on every Python version and platform."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), unbiased by rejection."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n


class DiceSource(Protocol):
    """Anything that answers a chance node with a face."""

    kind: str

    def roll(self, die: Die) -> int:
        """The face rolled for this die."""
        ...


class SeededDice:
    """Dice from a seeded SplitMix64: the same seed gives the same faces, everywhere."""

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = SplitMix64(seed)

    def roll(self, die: Die) -> int:
        """Roll the die with the generator."""
        return self._rng.below(die.sides) + 1


class ScriptedDice:
    """Faces given in advance (tests, and re-rolling a recorded game)."""

    kind = "scripted"

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: Iterator[int] = iter(faces)

    def roll(self, die: Die) -> int:
        """The next scripted face; refuses a face the die does not have."""
        try:
            face = next(self._faces)
        except StopIteration:
            raise ValueError(f"no scripted face left for {die.purpose}") from None
        if not 1 <= face <= die.sides:
            raise ValueError(f"face {face} is not on a d{die.sides} ({die.purpose})")
        return face
