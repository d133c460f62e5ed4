"""The Valkyrx Magic Spells table (data/spells.toml) and the wizards' spell packs, validated when loaded."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field, model_validator

from iwgt.core.datafiles import DataModel, load_model
from iwgt.games.valkyrx.units import DATA_DIR, UnitType, unit_types

SPELLS_PER_WIZARD = 6
"""VX-11-02, VX-11-08: "Wizards can select 6 spells" (exactly six, all different)."""

Affects = Literal["enemy", "friend", "all", "self", "one", "infected", "wizard", "everything", "cell"]


class Spell(DataModel):
    """One row of the spells table, with the referee's parameters for its effect."""

    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    name: str = Field(min_length=1)
    duration: int = Field(ge=1)
    range: int | Literal["local", "all"]
    timing: Literal["immediate", "following"]
    red: bool
    affects: Affects
    resisted: bool
    effect: str = Field(min_length=1)
    damage: float | None = Field(default=None, gt=0)
    morale: int | None = None
    attack_factor: float | None = Field(default=None, gt=0)
    defence_factor: float | None = Field(default=None, gt=0)
    move_factor: float | None = Field(default=None, gt=0)
    wipe_out_sides: int | None = Field(default=None, ge=2)
    works_sides: int | None = Field(default=None, ge=2)
    carries: int | None = Field(default=None, ge=1)

    def in_force(self, cast_turn: int) -> tuple[int, int]:
        """First and last turn the spell is in force when cast in ``cast_turn``."""
        first = cast_turn + (1 if self.timing == "following" else 0)
        return first, first + self.duration - 1

    def reach(self) -> int | None:
        """Range in cells, 0 for a "local" spell, None for one that reaches the whole battlefield."""
        if self.range == "local":
            return 0
        if self.range == "all":
            return None
        return self.range


class SpellTable(DataModel):
    """All of data/spells.toml: the spells and the default pack of every wizard."""

    spell: tuple[Spell, ...]
    packs: dict[str, tuple[str, ...]]

    @model_validator(mode="after")
    def _consistent(self) -> SpellTable:
        ids = [s.id for s in self.spell]
        if len(set(ids)) != len(ids):
            raise ValueError("spell: a spell id appears twice")
        known = set(ids)
        types = unit_types()
        for wizard, pack in self.packs.items():
            t = types.get(wizard)
            if t is None or not t.has("wizard"):
                raise ValueError(f"packs.{wizard}: not a wizard of the attributes table")
            problem = why_not_choose_spells(t, pack, {s.id: s for s in self.spell}, known)
            if problem:
                raise ValueError(f"packs.{wizard}: {problem}")
        return self


def why_not_choose_spells(
    wizard: UnitType, pack: tuple[str, ...], spells: dict[str, Spell], known: set[str] | None = None
) -> str | None:
    """Why this wizard may not choose this pack of spells, or None if he may (VX-11-08 to VX-11-10)."""
    known = set(spells) if known is None else known
    unknown = [s for s in pack if s not in known]
    if unknown:
        return f"no such spell: {', '.join(unknown)} (spells: {', '.join(sorted(known))})"
    if len(set(pack)) != len(pack):
        return "a spell is chosen twice"
    if len(pack) != SPELLS_PER_WIZARD:
        return f"a wizard takes exactly {SPELLS_PER_WIZARD} spells, not {len(pack)}"
    red = [spells[s].name for s in pack if spells[s].red]
    if red and not wizard.has("master_wizard"):
        return f"{wizard.name} is a lesser wizard: red spells are for Masters only ({', '.join(red)})"
    return None


@cache
def spell_table() -> SpellTable:
    """The spells table, loaded once."""
    return load_model(SpellTable, DATA_DIR / "spells.toml")


def spells() -> dict[str, Spell]:
    """Every spell by id, in table order."""
    return {s.id: s for s in spell_table().spell}


def default_pack(wizard: UnitType) -> tuple[str, ...]:
    """The default pack of a wizard (VX-15-05)."""
    return spell_table().packs[wizard.id]
