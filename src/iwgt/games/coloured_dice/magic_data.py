"""The five kinds of magic as data (``data/magic.toml``), validated when loaded, read once (CD-MA, CD-MS-13).

Every entry is designed (the source gives no spells, gods, runes or spirit profiles) and says why in its
``designed`` text. A broken file is refused with the dotted key of the problem (``core/datafiles.py``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from iwgt.core.datafiles import DataModel, load_model

DATA_DIR = Path(__file__).parent / "data"
MAGIC_FILE = DATA_DIR / "magic.toml"

COLOURS: tuple[str, ...] = ("white", "blue", "green", "black", "red", "violet", "yellow", "orange")
"""The eight dice, in pool order (CD-DI; the dice module owns the faces, magic only names colours)."""

Colour = Literal["white", "blue", "green", "black", "red", "violet", "yellow", "orange"]
"""A die's colour."""
School = Literal["wizard", "moon"]
"""The kinds of magic that are spells costing Will (god gifts have their own table)."""
Effect = Literal["attack", "armour", "move", "morale_test", "heal", "banish", "summon", "restore"]
"""The closed set of effects every spell and gift is made of."""
TargetKind = Literal["enemy", "friend", "self", "spirit", "point"]
"""What a spell is aimed at: an enemy unit, a friendly unit (the caster's own included), the caster, an enemy
immaterial spirit, or a point on the table (a summoning)."""
Against = Literal["fight", "shot", "all"]
"""What an armour bonus helps against."""
Duration = Literal["instant", "this_turn", "next_turn"]
"""How long an armour or move effect lasts: ``this_turn`` ends with the caster's turn, ``next_turn`` when the
caster's next turn begins."""
Restorable = Literal["will", "bear"]
"""What a restore effect gives back."""

NEEDS_DICE: frozenset[str] = frozenset({"attack"})
NEEDS_AMOUNT: frozenset[str] = frozenset({"armour", "move", "heal", "restore"})
NEEDS_DURATION: frozenset[str] = frozenset({"armour", "move"})
EFFECT_TARGETS: dict[str, frozenset[str]] = {
    "attack": frozenset({"enemy"}),
    "armour": frozenset({"friend", "self"}),
    "move": frozenset({"friend", "self"}),
    "morale_test": frozenset({"enemy"}),
    "heal": frozenset({"friend", "self"}),
    "banish": frozenset({"spirit"}),
    "summon": frozenset({"point"}),
    "restore": frozenset({"friend", "self"}),
}
"""Which targets make sense for each effect (a typo such as an attack on a friend is refused)."""


class Constants(DataModel):
    """The magic's named numbers (CD-MA-04, CD-CH-25 decided; the spirits' leash is in rules.toml)."""

    release_multiplier: int = Field(ge=1)
    summon_range: float = Field(gt=0)
    resist_range: float = Field(ge=0)
    designed: str = Field(min_length=1)


class Power(DataModel):
    """One effect with its aim: the common part of a spell and a god's gift."""

    name: str = Field(min_length=1)
    range: float = Field(ge=0)
    target: TargetKind
    effect: Effect
    dice: tuple[Colour, ...] = ()
    amount: int = Field(default=0, ge=0)
    against: Against = "all"
    duration: Duration = "instant"
    modifier: int = 0
    spirit: str | None = None
    what: Restorable = "will"
    clause: str = Field(min_length=1)
    designed: str = Field(min_length=1)

    @model_validator(mode="after")
    def _complete(self) -> Power:
        """Each effect has what it needs and aims at what it can: a half-written entry is refused on load."""
        if self.target not in EFFECT_TARGETS[self.effect]:
            allowed = " or ".join(sorted(EFFECT_TARGETS[self.effect]))
            raise ValueError(f"target: a {self.effect} aims at {allowed}, not {self.target!r}")
        if self.effect in NEEDS_DICE and not self.dice:
            raise ValueError(f"dice: an {self.effect} needs its dice")
        if self.effect not in NEEDS_DICE and self.dice:
            raise ValueError(f"dice: only an attack rolls dice, not a {self.effect}")
        if self.effect in NEEDS_AMOUNT and self.amount < 1:
            raise ValueError(f"amount: a {self.effect} needs an amount of 1 or more")
        if self.effect in NEEDS_DURATION and self.duration == "instant":
            raise ValueError(f"duration: a {self.effect} lasts this_turn or next_turn")
        if (self.effect == "summon") != (self.spirit is not None):
            raise ValueError("spirit: a summon names its spirit, and only a summon does")
        return self


class Spell(Power):
    """A wizard or moon spell: it costs Will (CD-CH-23) and may be resisted with Will (CD-CH-25)."""

    school: School
    cost: int = Field(ge=1)


class Gift(Power):
    """A god's gift: usable with God-likeness >= level (CD-CH-26), no Will."""

    god: str = Field(min_length=1)
    level: int = Field(ge=1, le=10)


class God(DataModel):
    """A god and the one thing or few things it can do (CD-MA-15)."""

    name: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    designed: str = Field(min_length=1)


class Bonus(DataModel):
    """A passive bonus: armour in close combat and against shooting, inches of move, close-combat dice."""

    armour_fight: int = Field(default=0, ge=0)
    armour_shot: int = Field(default=0, ge=0)
    move: float = Field(default=0.0, ge=0)
    dice: tuple[Colour, ...] = ()

    def times(self, k: int) -> Bonus:
        """The bonus k times over (a released bound spirit, CD-MA-04)."""
        return Bonus(
            armour_fight=self.armour_fight * k,
            armour_shot=self.armour_shot * k,
            move=self.move * k,
            dice=self.dice * k,
        )

    @property
    def empty(self) -> bool:
        """Whether it gives nothing."""
        return not (self.armour_fight or self.armour_shot or self.move or self.dice)


class Spirit(Bonus):
    """A spirit (CD-MA-02..11): bound (its bonus on the bearer) or released (a unit on the table)."""

    name: str = Field(min_length=1)
    kind: Literal["bound", "released"]
    material: bool = True
    unit: str | None = None
    clause: str = Field(min_length=1)
    designed: str = Field(min_length=1)

    @model_validator(mode="after")
    def _shape(self) -> Spirit:
        """A bound spirit gives a bonus and has no unit; a released one is a unit and gives no bonus."""
        if self.kind == "bound" and self.empty:
            raise ValueError("kind: a bound spirit gives its bearer something (armour, move or dice)")
        if self.kind == "bound" and self.unit is not None:
            raise ValueError("unit: a bound spirit is no unit on the table")
        if self.kind == "released" and not self.empty:
            raise ValueError("kind: a released spirit is a unit of its own, it gives no bonus")
        if self.kind == "released" and not self.unit:
            raise ValueError("unit: a released spirit names its unit profile")
        return self


class Rune(Bonus):
    """A single rune: modest, passive, always on (CD-MA-12)."""

    name: str = Field(min_length=1)
    clause: str = Field(min_length=1)
    designed: str = Field(min_length=1)


class Combo(Rune):
    """A combination of runes: its bonus comes on top when a unit carries every one of them (CD-MA-13)."""

    runes: tuple[str, ...] = Field(min_length=2)


class MagicRules(DataModel):
    """The whole of ``data/magic.toml``."""

    constants: Constants
    spells: dict[str, Spell]
    gods: dict[str, God]
    gifts: dict[str, Gift]
    spirits: dict[str, Spirit]
    runes: dict[str, Rune]
    combos: dict[str, Combo] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references(self) -> MagicRules:
        """Every name a gift, spell or combination uses exists; keys are unique across spells and gifts
        (a profile's `spells` and a cast's `spell` name either)."""
        for key, gift in self.gifts.items():
            if gift.god not in self.gods:
                raise ValueError(
                    f"gifts.{key}.god: no god {gift.god!r} (known: {', '.join(sorted(self.gods))})"
                )
        for key in self.gifts:
            if key in self.spells:
                raise ValueError(f"gifts.{key}: also a spell's key; a cast must name one thing")
        for table, powers in (("spells", self.spells), ("gifts", self.gifts)):
            for key, power in powers.items():
                if power.spirit is not None:
                    found = self.spirits.get(power.spirit)
                    if found is None or found.kind != "released":
                        raise ValueError(f"{table}.{key}.spirit: {power.spirit!r} is not a released spirit")
        for key, combo in self.combos.items():
            for rune in combo.runes:
                if rune not in self.runes:
                    raise ValueError(f"combos.{key}.runes: no rune {rune!r}")
            if len(set(combo.runes)) != len(combo.runes):
                raise ValueError(f"combos.{key}.runes: a rune twice")
        return self

    def power(self, key: str) -> Spell | Gift:
        """A spell or gift by its key (KeyError when neither)."""
        if key in self.spells:
            return self.spells[key]
        return self.gifts[key]

    def gifts_of(self, god: str, god_like: int) -> list[str]:
        """The keys of a god's gifts a character with this God-likeness may use (CD-CH-26), lowest first."""
        found = [(g.level, k) for k, g in self.gifts.items() if g.god == god and g.level <= god_like]
        return [k for _, k in sorted(found)]


def load_magic(path: Path) -> MagicRules:
    """Read and validate a magic file (tests load broken copies through this)."""
    return load_model(MagicRules, path)


@cache
def magic_rules() -> MagicRules:
    """The shipped magic, validated once (a broken file raises DataFileError naming the key)."""
    return load_magic(MAGIC_FILE)
