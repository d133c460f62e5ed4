"""The Coloured-Dice rules and armies as data (data/rules.toml, data/armies.toml), validated, read once.

Every number the referee uses is here with its clause id; what the source does not give says ``designed`` with
its reason (CD-MS-01, 04, 05). A broken file is refused with the dotted key of the problem
(``core/datafiles.py``): a typo in the data is an error when it loads, never a wrong game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from iwgt.core.datafiles import DataModel, load_model
from iwgt.core.errors import DataFileError

DATA_DIR = Path(__file__).parent / "data"
RULES_FILE = DATA_DIR / "rules.toml"
ARMIES_FILE = DATA_DIR / "armies.toml"

COLOURS: tuple[str, ...] = ("white", "blue", "green", "black", "red", "violet", "yellow", "orange")
"""The eight dice, in pool order (CD-DI-04..11; the dice module owns their faces)."""
Colour = Literal["white", "blue", "green", "black", "red", "violet", "yellow", "orange"]
"""A die's colour: a die is named by its colour (CD-DI-02)."""
KindKey = Literal["infantry", "cavalry", "monster", "character", "spirit"]
"""The troop kinds (CD-MS-08): base, move and terrain class."""
KINDS: tuple[KindKey, ...] = ("infantry", "cavalry", "monster", "character", "spirit")
"""Every kind the rules file must describe."""
OrderKey = Literal["open", "skirmish", "loose", "tight"]
"""A unit's order (CD-AC-05..08)."""
ORDERS: tuple[OrderKey, ...] = ("open", "skirmish", "loose", "tight")
"""Every order the rules file must describe."""
TerrainClass = Literal["infantry", "cavalry", "spirit"]
"""How the terrain rules treat a kind: as infantry, as cavalry, or not at all (immaterial spirits)."""
Ability = Literal[
    "formation", "skirmish", "mounted", "general", "banner", "immaterial", "material", "shaman", "moon"
]
"""The special abilities of a profile: 'formation' and 'skirmish' are the text's own (CD-AC-04, CD-AC-06)."""
INDIVIDUAL_KINDS: frozenset[str] = frozenset({"character", "monster", "spirit"})
"""Kinds that are individuals: one model, morale by iUs (CD-MO-01 decision)."""
GM_CLAUSES: tuple[str, ...] = tuple(f"CD-GM-{n:02d}" for n in range(4, 14))
"""The general-morale table's rows, one clause each (CD-GM-04..13)."""
CLAUSE = r"^CD-[A-Z]{2}-\d{2}$"
"""A clause id as the clause file spells it."""


def _tuple(value: Any) -> Any:
    """TOML arrays arrive as lists: strict models take them as tuples."""
    return tuple(value) if isinstance(value, list) else value


Colours = Annotated[tuple[Colour, ...], BeforeValidator(_tuple)]
"""Dice, one colour per die."""
Keys = Annotated[tuple[str, ...], BeforeValidator(_tuple)]
"""Keys into another table."""
Pair = Annotated[tuple[int, int], BeforeValidator(_tuple)]
"""A fraction as [numerator, denominator]."""
Size = Annotated[tuple[float, float], BeforeValidator(_tuple)]
"""(width, depth) in inches."""
Tax = float | Literal["d6"]
"""Inches off a move: a fixed number, or one d6 rolled when the move is ordered."""


class Model(DataModel):
    """A data entry: frozen, strict (no "1" for 1, no true for 1), unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _with_keys(table: Any) -> Any:
    """Each entry of a keyed table knows its own key (the table's name in the file)."""
    if not isinstance(table, dict):
        return table
    return {k: ({"key": k, **v} if isinstance(v, dict) and "key" not in v else v) for k, v in table.items()}


def _check_keys(table: Mapping[str, Any], where: str) -> None:
    """An entry's ``key`` must be the name it is filed under."""
    for name, entry in table.items():
        if entry.key != name:
            raise ValueError(f"{where}.{name}.key: is {entry.key!r}, should be {name!r}")


# ------------------------------------------------------------------ rules.toml


class Source(Model):
    """Where a constant comes from: its clause, and why when the source does not give it."""

    clause: str = Field(pattern=CLAUSE)
    designed: str | None = Field(default=None, min_length=1)


class Constants(Model):
    """The named numbers of cd-spec section 1 (inches, counts, dice), read as ``rules().constants.<name>``."""

    contact_eps: float = Field(gt=0)
    enemy_gap: float = Field(ge=0)
    max_range_bands: int = Field(ge=1)
    few_models: int = Field(ge=0)
    fall_back: float = Field(gt=0)
    morale_min: int = Field(ge=2)
    morale_max: int = Field(ge=2)
    us_min: int = Field(ge=1)
    us_max: int = Field(ge=1)
    leader_factor: int = Field(ge=1)
    leader_bonus_min: int
    leader_bonus_max: int
    morale_always_fails: int = Field(ge=2, le=12)
    morale_always_passes: int = Field(ge=2, le=12)
    tight_morale_bonus: int = Field(ge=0)
    general_morale_start: int
    objective_range: float = Field(gt=0)
    break_fraction: Pair
    own_fire_share: Pair
    rounds: int = Field(ge=1)
    actions_per_turn: int = Field(ge=1)
    shaken_actions: int = Field(ge=0)
    coherency: float = Field(gt=0)
    skirmish_coherency: float = Field(gt=0)
    deploy_depth: float = Field(gt=0)
    reaction_inches_per_die: float = Field(gt=0)
    reaction_die: Colour
    bear_wound_die: Colour
    body_default: int = Field(ge=1)
    will_default: int = Field(ge=1)
    usual_skill: int
    worst_skill: int
    god_like_max: int = Field(ge=1)
    hill_bonus: int = Field(ge=0)
    forest_edge: float = Field(gt=0)
    visible_max: float = Field(gt=0, lt=1)
    behind_reach: float = Field(ge=0)
    spirit_range: float = Field(gt=0)
    shaman_spirit_range: float = Field(gt=0)
    spirit_place_gap: float = Field(ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> Constants:
        """Ranges are ranges, fractions are fractions, and 2 passes while 12 fails (CD-MO-08/09)."""
        for low, high in (("morale_min", "morale_max"), ("us_min", "us_max")):
            if getattr(self, low) > getattr(self, high):
                raise ValueError(f"{low} {getattr(self, low)} is above {high} {getattr(self, high)}")
        if not self.leader_bonus_min <= 0 < self.leader_bonus_max:
            raise ValueError("leader_bonus_min <= 0 < leader_bonus_max must hold")
        for name in ("break_fraction", "own_fire_share"):
            num, den = getattr(self, name)
            if not 0 < num <= den:
                raise ValueError(f"{name} {num}/{den} must be a fraction in (0, 1]")
        if self.morale_always_passes >= self.morale_always_fails:
            raise ValueError("morale_always_passes must be below morale_always_fails")
        if not self.usual_skill <= self.worst_skill:
            raise ValueError("usual_skill must not be above worst_skill")
        return self


class PointsFormula(Model):
    """The numbers of the one points formula (``model_points``); all designed (CD-MS-04)."""

    designed: str = Field(min_length=1)
    scale: float = Field(gt=0)
    kill_points: float = Field(ge=0)
    range_unit: float = Field(gt=0)
    skill_base: float = Field(gt=0)
    move_base: float = Field(ge=0)
    morale_base: float = Field(gt=0)
    reach_factor: float = Field(ge=1)
    other_attack: float = Field(ge=0, le=1)
    round_refills: float = Field(ge=1)
    bear_point: float = Field(ge=0)
    hero_point: float = Field(ge=0)
    will_point: float = Field(ge=0)
    god_like_point: float = Field(ge=0)
    magic_key: float = Field(ge=0)
    rune_point: float = Field(ge=0)


class Kind(Model):
    """A troop kind: one model's base, its move allowance and how terrain treats it (CD-MS-01, CD-MS-08)."""

    key: str
    name: str = Field(min_length=1)
    base: Size
    move: float = Field(gt=0)
    skirmish_move: float | None = Field(default=None, gt=0)
    terrain: TerrainClass
    clause: str = Field(pattern=CLAUSE)
    designed: str = Field(min_length=1)

    @model_validator(mode="after")
    def _positive_base(self) -> Kind:
        """A base has an area."""
        if min(self.base) <= 0:
            raise ValueError(f"base {self.base} must be positive both ways")
        return self


class Order(Model):
    """An order: the gap between bases, whether the unit fights together, its morale bonus (CD-AC-04..08)."""

    key: str
    name: str = Field(min_length=1)
    gap: float = Field(ge=0)
    needs: Literal["", "formation", "skirmish"]
    fights_together: bool
    morale_bonus: int = Field(ge=0)
    marching: bool
    clause: str = Field(pattern=CLAUSE)
    designed: str = Field(min_length=1)


class Missile(Model):
    """A missile weapon's range and the dice one model throws with it (CD-SH-02, CD-RA-01)."""

    range: float = Field(gt=0)
    dice: Colours = Field(min_length=1)


class Weapon(Model):
    """A weapon of the equipment list (CD-MS-05): dice per model, reach, missile, the Strength it needs."""

    key: str
    name: str = Field(min_length=1)
    melee: Colours = ()
    reach: Literal[1, 2] = 1
    missile: Missile | None = None
    strength: int = Field(ge=0)
    mounted: bool = False
    designed: str = Field(min_length=1)

    @model_validator(mode="after")
    def _some_use(self) -> Weapon:
        """A weapon rolls dice in a fight, or throws, or both; reach needs melee dice."""
        if not self.melee and self.missile is None:
            raise ValueError("a weapon needs melee dice or a missile")
        if self.reach == 2 and not self.melee:
            raise ValueError("reach 2 needs melee dice")
        return self


class Armour(Model):
    """An armour or a shield: the armour value it gives and the Strength it needs (CD-MS-05, CD-CH-05)."""

    key: str
    name: str = Field(min_length=1)
    value: int = Field(ge=0)
    strength: int = Field(ge=0)
    natural: bool = False
    designed: str = Field(min_length=1)


class Terrain(Model):
    """A terrain kind's rules as data (CD-TE-01..21, CD-TC-01..03)."""

    key: str
    name: str = Field(min_length=1)
    infantry_tax: Tax = 0.0
    cavalry_tax: Tax = 0.0
    infantry_blocked: bool = False
    cavalry_blocked: bool = False
    marching_blocked: bool = False
    blocks_los: bool = False
    among_cover: int = Field(default=0, ge=0, le=2)
    inside_cover: int = Field(default=0, ge=0, le=2)
    edge_cover: int = Field(default=0, ge=0, le=2)
    behind_cover: int = Field(default=0, ge=0, le=2)
    roofed: bool = False
    removable: bool = False
    height: float = Field(default=0.0, ge=0)
    clauses: Annotated[tuple[Annotated[str, Field(pattern=CLAUSE)], ...], BeforeValidator(_tuple)] = Field(
        min_length=1
    )
    designed: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _taxes(self) -> Terrain:
        """A tax is not negative; roofed structures are the ones with inside cover (CD-TE-19)."""
        for name in ("infantry_tax", "cavalry_tax"):
            tax = getattr(self, name)
            if isinstance(tax, float) and tax < 0:
                raise ValueError(f"{name} {tax} is negative: a tax takes inches off")
        if self.roofed != (self.inside_cover > 0):
            raise ValueError("a roofed structure (and only one) gives inside_cover")
        return self

    @property
    def impassable(self) -> bool:
        """Nobody enters it."""
        return self.infantry_blocked and self.cavalry_blocked

    @property
    def hill(self) -> bool:
        """A hill: the higher side gets +1 armour (CD-TE-01)."""
        return self.height > 0

    def tax(self, terrain_class: str) -> Tax:
        """The tax it takes from a move of that terrain class (immaterial spirits pay none)."""
        if terrain_class == "spirit":
            return 0.0
        return self.cavalry_tax if terrain_class == "cavalry" else self.infantry_tax

    def blocked(self, terrain_class: str) -> bool:
        """Whether a unit of that terrain class may not enter it."""
        if terrain_class == "spirit":
            return False
        return self.cavalry_blocked if terrain_class == "cavalry" else self.infantry_blocked


class GmRow(Model):
    """A row of the general-morale table (CD-GM-04..13): a signed number, or a d6 with the row's sign."""

    key: str
    text: str = Field(min_length=1)
    modifier: int | Literal["d6"]
    sign: Literal[1, -1]
    starting_us: int | None = Field(default=None, ge=1)
    clause: str = Field(pattern=CLAUSE)
    designed: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _signed(self) -> GmRow:
        """A number's sign is the row's sign."""
        if isinstance(self.modifier, int) and (self.modifier == 0 or (self.modifier > 0) != (self.sign > 0)):
            raise ValueError(f"modifier {self.modifier} does not have the row's sign {self.sign:+d}")
        return self

    @property
    def own(self) -> bool:
        """A row of the army's own losses (negative), not of its victories."""
        return self.sign < 0


class CdRules(Model):
    """The whole rules file."""

    version: str = Field(min_length=1)
    constants: Constants
    constant_sources: dict[str, Source]
    points: PointsFormula
    kinds: dict[KindKey, Kind]
    orders: dict[OrderKey, Order]
    weapons: dict[str, Weapon]
    armours: dict[str, Armour]
    shields: dict[str, Armour]
    terrain: dict[str, Terrain]
    general_morale: dict[str, GmRow]

    @model_validator(mode="before")
    @classmethod
    def _prepare(cls, data: Any) -> Any:
        """Constants are written { value, clause, designed? }: the values and the sources part here; keyed
        tables learn their keys."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        raw = data.get("constants")
        if isinstance(raw, dict) and "constant_sources" not in data:
            values: dict[str, Any] = {}
            sources: dict[str, Any] = {}
            for name, entry in raw.items():
                if not isinstance(entry, dict):
                    raise ValueError(f"constants.{name}: should be a table {{ value, clause, designed? }}")
                for part in ("value", "clause"):
                    if part not in entry:
                        raise ValueError(f"constants.{name}.{part}: missing: this key is required")
                unknown = sorted(set(entry) - {"value", "clause", "designed"})
                if unknown:
                    raise ValueError(f"constants.{name}.{unknown[0]}: unknown key (a misspelling?)")
                values[name] = entry["value"]
                sources[name] = {k: v for k, v in entry.items() if k != "value"}
            data["constants"] = values
            data["constant_sources"] = sources
        for table in ("kinds", "orders", "weapons", "armours", "shields", "terrain", "general_morale"):
            if table in data:
                data[table] = _with_keys(data[table])
        return data

    @model_validator(mode="after")
    def _complete(self) -> CdRules:
        """Every kind and order is described, the general-morale table has each of its ten rows once."""
        for kind in KINDS:
            if kind not in self.kinds:
                raise ValueError(f"kinds.{kind}: missing: every troop kind needs an entry")
        for order in ORDERS:
            if order not in self.orders:
                raise ValueError(f"orders.{order}: missing: every order needs an entry")
        for table in ("kinds", "orders", "weapons", "armours", "shields", "terrain", "general_morale"):
            _check_keys(getattr(self, table), table)
        for name in self.armours.keys() & self.shields.keys():
            raise ValueError(f"shields.{name}: the key is an armour's too: wears would be ambiguous")
        clauses = [row.clause for row in self.general_morale.values()]
        for clause in GM_CLAUSES:
            if clauses.count(clause) != 1:
                raise ValueError(
                    f"general_morale: {clause} must be one row exactly (found {clauses.count(clause)})"
                )
        return self

    def source(self, constant: str) -> Source:
        """Where a named constant comes from."""
        return self.constant_sources[constant]

    def weapon(self, key: str) -> Weapon:
        """A weapon by key; KeyError names the known ones."""
        try:
            return self.weapons[key]
        except KeyError:
            raise KeyError(f"unknown weapon {key!r}; known: {', '.join(self.weapons)}") from None

    def gear(self, key: str) -> Armour:
        """An armour or a shield by key."""
        found = self.armours.get(key) or self.shields.get(key)
        if found is None:
            raise KeyError(f"unknown armour or shield {key!r}")
        return found


def load_rules(path: Path) -> CdRules:
    """Read and validate a rules file (a broken one raises DataFileError naming the key)."""
    return load_model(CdRules, path)


@cache
def rules() -> CdRules:
    """The shipped rules file, read and validated once."""
    return load_rules(RULES_FILE)


# ------------------------------------------------------------------ armies.toml


class BearWound(Model):
    """A bear-wound pool: so many dice of a colour, per battle or refilled each round (CD-CH-10..17)."""

    dice: int = Field(ge=1)
    colour: Colour
    per: Literal["battle", "round"] = "battle"


class Profile(Model):
    """A unit type's military-technical characteristics in the text's own terms (CD-CH, CD-MS-04)."""

    key: str
    name: str = Field(min_length=1)
    kind: KindKey
    models: int = Field(ge=1)
    points: int = Field(ge=0)
    strength: int = Field(ge=0)
    body: int = Field(default=1, ge=1)
    armour: int = Field(ge=0)
    wears: Keys = ()
    shooting: int | None = Field(default=None, ge=-3, le=3)
    bear_wound: BearWound | None = None
    hero: int = Field(default=0, ge=0)
    will: int | None = Field(default=None, ge=1)
    god_like: int = Field(default=0, ge=0, le=10)
    god: str | None = None
    us: int = Field(ge=1)
    us_kind: Literal["Us", "iUs"]
    us_exception: str | None = Field(default=None, min_length=1)
    leader: bool = False
    leader_bonus: int = 0
    slowness: int = Field(ge=0)
    abilities: Annotated[tuple[Ability, ...], BeforeValidator(_tuple)] = ()
    weapons: Keys = Field(min_length=1)
    runes: Keys = ()
    spirits: Keys = ()
    spells: Keys = ()
    spirit: str | None = None
    designed: str = Field(min_length=1)

    def has(self, ability: str) -> bool:
        """Whether the profile has this special ability."""
        return ability in self.abilities

    @property
    def individual(self) -> bool:
        """An individual (iUs): a character, monster or spirit of one model (CD-MO-01 decision)."""
        return self.us_kind == "iUs"

    @property
    def will_value(self) -> int:
        """Its Will: the printed value, or 1 when none is printed (CD-CH-22)."""
        return self.will if self.will is not None else rules().constants.will_default


class Army(Model):
    """An army list: its unit types, and the released spirits its shamans may bring (CD-MA-02, CD-MA-05)."""

    key: str
    name: str = Field(min_length=1)
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    plural: bool = False  # the name takes a plural verb ("the Sons of Kaleva win")
    designed: str = Field(min_length=1)
    units: dict[str, Profile]
    spirits: dict[str, Profile] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        """Each profile knows its key."""
        if isinstance(data, dict):
            data = {**data, **{t: _with_keys(data[t]) for t in ("units", "spirits") if t in data}}
        return data

    def profile(self, key: str) -> Profile:
        """A unit type or a released spirit by key; KeyError names the known ones."""
        found = self.units.get(key) or self.spirits.get(key)
        if found is None:
            known = ", ".join([*self.units, *self.spirits])
            raise KeyError(f"army {self.key!r} has no unit type {key!r}; known: {known}")
        return found


class ArmiesFile(Model):
    """The whole armies file."""

    version: str = Field(min_length=1)
    armies: dict[str, Army] = Field(min_length=2)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        """Each army knows its key."""
        if isinstance(data, dict) and "armies" in data:
            data = {**data, "armies": _with_keys(data["armies"])}
        return data


UNIT_TYPES = (8, 12)
"""How many unit types an army list has (issue 14: 8 to 12)."""


def check_armies(file: ArmiesFile, data: CdRules) -> list[tuple[str, str]]:
    """Every cross-check of the armies against the rules, as (dotted key, what is wrong); empty when sound."""
    problems: list[tuple[str, str]] = []
    for army_key, army in file.armies.items():
        at = f"armies.{army_key}"
        if army.key != army_key:
            problems.append((f"{at}.key", f"is {army.key!r}, should be {army_key!r}"))
        low, high = UNIT_TYPES
        if not low <= len(army.units) <= high:
            problems.append((f"{at}.units", f"{len(army.units)} unit types; an army has {low} to {high}"))
        generals = [k for k, p in army.units.items() if p.has("general")]
        if len(generals) != 1:
            problems.append((f"{at}.units", f"one unit must be the army's general (found {len(generals)})"))
        banners = [k for k, p in army.units.items() if p.has("banner")]
        if len(banners) > 1:
            problems.append((f"{at}.units", f"at most one unit carries the army's banner (found {banners})"))
        for table in ("units", "spirits"):
            for key, p in getattr(army, table).items():
                problems += [
                    (f"{at}.{table}.{key}.{k}" if k else f"{at}.{table}.{key}", m)
                    for k, m in _profile_problems(p, data, spirit=table == "spirits")
                ]
                if p.key != key:
                    problems.append((f"{at}.{table}.{key}.key", f"is {p.key!r}, should be {key!r}"))
    return problems


def _profile_problems(p: Profile, data: CdRules, *, spirit: bool) -> list[tuple[str, str]]:
    """A profile's cross-checks against the equipment lists and the text's rules, as (sub-key, problem)."""
    out: list[tuple[str, str]] = []
    c = data.constants
    for i, w in enumerate(p.weapons):
        weapon = data.weapons.get(w)
        if weapon is None:
            out.append((f"weapons.{i}", f"unknown weapon {w!r}; known: {', '.join(data.weapons)}"))
        elif weapon.strength > p.strength:
            out.append(
                (
                    f"weapons.{i}",
                    f"{weapon.name} needs Strength {weapon.strength}, it has {p.strength} (CD-CH-05)",
                )
            )
        elif weapon.mounted and not p.has("mounted"):
            out.append((f"weapons.{i}", f"{weapon.name} is for mounted models only"))
    armours = [g for g in p.wears if g in data.armours]
    shields = [g for g in p.wears if g in data.shields]
    for i, g in enumerate(p.wears):
        if g not in data.armours and g not in data.shields:
            out.append((f"wears.{i}", f"unknown armour or shield {g!r}"))
    if len(armours) > 1 or len(shields) > 1:
        out.append(("wears", "at most one armour and one shield"))
    worn = [data.gear(g) for g in p.wears if g in data.armours or g in data.shields]
    value = sum(g.value for g in worn)
    if not out and p.armour != value:
        out.append(("armour", f"is {p.armour}, but what it wears gives {value}"))
    load = sum(g.strength for g in worn if not g.natural)
    if load > p.strength:
        out.append(
            ("wears", f"needs Strength {load} to carry, it has {p.strength} (CD-CH-05, designed load rule)")
        )
    missile = any(data.weapons[w].missile is not None for w in p.weapons if w in data.weapons)
    if missile != (p.shooting is not None):
        out.append(("shooting", "a shooting skill goes with a missile weapon, and only with one (CD-SH-04)"))
    if p.us_kind == "iUs" and p.models != 1:
        out.append(("models", "an individual (iUs) is one model"))
    if (p.kind in INDIVIDUAL_KINDS) != (p.us_kind == "iUs") and not (
        p.us_kind == "iUs" and p.kind == "cavalry"
    ):
        out.append(
            ("us_kind", f"a {p.kind} has {'iUs' if p.kind in INDIVIDUAL_KINDS else 'Us'} (CD-MO-01 decision)")
        )
    if not c.us_min <= p.us <= c.us_max and p.us_exception is None:
        out.append(
            ("us", f"{p.us} is outside {c.us_min}-{c.us_max} (CD-MO-03): give us_exception its reason")
        )
    if not c.leader_bonus_min <= p.leader_bonus <= c.leader_bonus_max:
        out.append(
            ("leader_bonus", f"{p.leader_bonus} is outside {c.leader_bonus_min}..{c.leader_bonus_max}")
        )
    if p.leader_bonus and not p.leader:
        out.append(("leader_bonus", "a leader bonus needs a leader (CD-MO-05)"))
    if p.leader and p.individual:
        out.append(("leader", "an individual leads himself: no unit leader to double his iUs"))
    if (p.god_like > 0) != (p.god is not None):
        out.append(("god", "a god goes with God-likeness 1 or more, and only with it (CD-CH-27)"))
    if p.god_like > c.god_like_max:
        out.append(("god_like", f"at most {c.god_like_max} (CD-CH-26)"))
    if p.will is not None and not p.individual:
        out.append(("will", "Will is printed for characters only (CD-CH-22)"))
    if p.has("formation") and p.has("skirmish"):
        out.append(("abilities", "formation and skirmish exclude each other"))
    if p.has("mounted") != (p.kind == "cavalry"):
        out.append(("abilities", "a mounted profile is cavalry, and cavalry is mounted"))
    if p.has("general") and not (p.individual and p.hero > 0):
        out.append(("abilities", "the army's general is a hero: an individual with hero points"))
    if p.has("banner") and p.individual:
        out.append(("abilities", "the banner is carried by a unit (Us)"))
    if p.has("shaman") and not p.spirits:
        out.append(("spirits", "a shaman has spirits"))
    if spirit:
        if p.spirit is None or not (p.has("material") or p.has("immaterial")):
            out.append(("spirit", "a released spirit names its spirit and is material or immaterial"))
        if p.has("immaterial") and p.kind != "spirit":
            out.append(("kind", "an immaterial spirit is of the kind spirit (it ignores terrain)"))
        if p.has("material") and p.kind != "monster":
            out.append(("kind", "a material spirit moves like a monster (CD-MA-09)"))
    elif p.spirit is not None or p.has("material") or p.has("immaterial"):
        out.append(("spirit", "only a released spirit (the army's spirits table) is a spirit"))
    return out


def load_armies(path: Path, data: CdRules | None = None) -> dict[str, Army]:
    """Read, validate and cross-check an armies file (a broken one raises DataFileError naming the key)."""
    file = load_model(ArmiesFile, path)
    return _checked(file, data or rules(), str(path))


def _checked(file: ArmiesFile, data: CdRules, origin: str) -> dict[str, Army]:
    """The armies, or the first cross-check problem as a DataFileError with its dotted key."""
    problems = check_armies(file, data)
    if problems:
        key, what = problems[0]
        raise DataFileError(origin, key, what)
    return dict(file.armies)


@cache
def armies() -> dict[str, Army]:
    """The shipped armies, read, validated and cross-checked once."""
    return load_armies(ARMIES_FILE)


def army(key: str) -> Army:
    """An army by key; KeyError names the known ones."""
    try:
        return armies()[key]
    except KeyError:
        raise KeyError(f"unknown army {key!r}; known: {', '.join(armies())}") from None


def profile(army_key: str, key: str) -> Profile:
    """A unit type (or released spirit) of an army."""
    return army(army_key).profile(key)


# ------------------------------------------------------------------ equipment read off a profile


def melee_dice(p: Profile, *, rank: int = 1) -> tuple[str, ...]:
    """The melee dice ONE model of the profile rolls: every weapon's from the front rank, only its reach-2
    weapons' from the second rank (CD-FI-01/02), nothing from further back."""
    data = rules()
    dice: list[str] = []
    for key in p.weapons:
        w = data.weapons[key]
        if rank <= w.reach:
            dice += w.melee
    return tuple(dice)


def reach(p: Profile) -> int:
    """How many ranks of the profile fight: 2 with a reach-2 weapon (spears), else 1."""
    return max(rules().weapons[w].reach for w in p.weapons)


def missile_weapon(p: Profile) -> Weapon | None:
    """The missile weapon a model of the profile shoots with (its first), or None."""
    for key in p.weapons:
        w = rules().weapons[key]
        if w.missile is not None:
            return w
    return None


def move_allowance(p: Profile) -> float:
    """Inches per move action: the kind's, a skirmishing kind's own when it has the rule (CD-MS-01)."""
    kind = rules().kinds[p.kind]
    if p.has("skirmish") and kind.skirmish_move is not None:
        return kind.skirmish_move
    return kind.move


def terrain_class(p: Profile) -> TerrainClass:
    """How the terrain rules treat the profile (CD-MS-08)."""
    return rules().kinds[p.kind].terrain


def orders_for(p: Profile) -> tuple[str, ...]:
    """The orders the profile may take: loose/tight with 'formation', skirmish with 'skirmish', else open."""
    got = tuple(k for k, o in rules().orders.items() if o.needs and p.has(o.needs))
    return got or tuple(k for k, o in rules().orders.items() if not o.needs)


# ------------------------------------------------------------------ points (one formula, CD-MS-04 designed)


def _die_mean(colour: str, kill_points: float) -> float:
    """The mean points of one die, a kill counted as ``kill_points`` (a wound whatever the armour)."""
    from iwgt.games.coloured_dice.dice import faces  # the dice module owns the faces

    values = [kill_points if f == "kill" else (0.0 if f == "miss" else float(f)) for f in faces(colour)]
    return sum(values) / len(values)


def model_points(
    p: Profile, data: CdRules | None = None, *, released: Mapping[str, Profile] | None = None
) -> int:
    """The points of ONE model of the profile, by the one formula (designed, CD-MS-04):

    round(scale x attack x (armour + 1) x body x move factor x morale factor + extras), where
    - attack = the better of melee and missile plus ``other_attack`` of the other (one attack a turn, but
      the choice is worth something); melee = the mean points of its melee dice (a kill counted
      ``kill_points``; a reach-2 weapon's dice x ``reach_factor``: it fights from the second rank too);
      missile = the mean of its missile dice x range / ``range_unit`` x skill_base / (skill_base + skill)
      (a poor shot raises the armour);
    - (armour + 1) x body: the attack points it takes to remove it (CD-FI-06, CD-CH-06);
    - move factor = (move + move_base) / (infantry move + move_base): 1 for a man on foot;
    - morale factor = (starting Us + morale_base) / (2 x morale_base): 1 at Us 7, more with a leader;
    - extras: bear-wound dice (mean of the die x ``bear_point``, x ``round_refills`` when per round), hero
      points, printed Will, God-likeness, each spell or bound spirit (``magic_key``), each rune
      (``rune_point``), and for each released spirit it may call (a profile of ``released``, its army's
      spirits) that spirit's points.
    """
    data = data or rules()
    f = data.points
    melee = 0.0
    missile = 0.0
    for key in p.weapons:
        w = data.weapons[key]
        dice = sum(_die_mean(c, f.kill_points) for c in w.melee)
        melee += dice * (f.reach_factor if w.reach == 2 else 1.0)
        if w.missile is not None and p.shooting is not None:
            thrown = sum(_die_mean(c, f.kill_points) for c in w.missile.dice)
            skill = f.skill_base / max(1.0, f.skill_base + p.shooting)
            missile = max(missile, thrown * w.missile.range / f.range_unit * skill)
    attack = max(melee, missile) + f.other_attack * min(melee, missile)
    infantry = data.kinds["infantry"].move
    move = (move_allowance(p) + f.move_base) / (infantry + f.move_base)
    morale = (starting_us(p) + f.morale_base) / (2 * f.morale_base)
    value = f.scale * attack * (p.armour + 1) * p.body * move * morale
    if p.bear_wound is not None:
        refills = f.round_refills if p.bear_wound.per == "round" else 1.0
        value += p.bear_wound.dice * _die_mean(p.bear_wound.colour, f.kill_points) * f.bear_point * refills
    value += f.hero_point * p.hero + f.will_point * (p.will or 0) + f.god_like_point * p.god_like
    value += f.magic_key * len(p.spells) + f.rune_point * len(p.runes)
    calls = released or {}
    for key in p.spirits:
        called = calls.get(key)
        value += f.magic_key if called is None else model_points(called, data) * called.models
    return math.floor(value + 0.5)


def army_points(a: Army, key: str) -> int:
    """A profile's points per model by the formula, its shamans paying for the spirits they may call."""
    return model_points(a.profile(key), released=a.spirits)


def unit_points(p: Profile, models: int) -> int:
    """The points of a unit of ``models`` models of the profile (victory points when it is destroyed)."""
    return p.points * models


def starting_us(p: Profile) -> int:
    """The unit's starting Us (morale.py; here too for the modules that read everything from the data)."""
    from iwgt.games.coloured_dice import morale

    return morale.starting_us(p)


def morale_target(p: Profile, models: int, leader_alive: bool) -> int:
    """The unit's morale target now (morale.py; here too for modules that read everything from the data)."""
    from iwgt.games.coloured_dice import morale

    return morale.morale_target(p, models, leader_alive)
