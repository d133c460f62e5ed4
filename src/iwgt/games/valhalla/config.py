"""Valhalla's decided numbers (data/rules.toml), validated when loaded."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from iwgt.core.datafiles import DataModel, load_model

DATA_DIR = Path(__file__).parent / "data"
Kind = Literal["hero", "warrior", "archer", "slinger"]
KINDS: tuple[Kind, ...] = ("hero", "warrior", "archer", "slinger")


class FigureKind(DataModel):
    """One kind of figure: its combat die, armour, shooting and what its loss is worth to the enemy."""

    name: str
    die: int = Field(ge=2, le=100)
    save_bonus: int = Field(ge=0, le=5)
    shoots: bool
    killed_coins: int = Field(ge=0)
    wounded_coins: int = Field(ge=0)
    withdraw_coins: int = Field(ge=0)


class ActionRules(DataModel):
    """Activation and movement numbers (inches)."""

    per_activation: int = Field(ge=1)
    when_hurt: int = Field(ge=1)
    move: float = Field(gt=0)
    enemy_zone: float = Field(ge=0)
    charge: float = Field(gt=0)
    withdraw: float = Field(gt=0)
    baggage_move: float = Field(ge=0)
    cross_reach: float = Field(gt=0)
    pickup_reach: float = Field(ge=0)
    recover_beyond: float = Field(ge=0)
    slow_cost: float = Field(ge=1)


class ShootingRules(DataModel):
    """Shooting numbers."""

    range: float = Field(gt=0)
    close: float = Field(gt=0)
    close_hits_on: int = Field(ge=1, le=7)
    long_hits_on: int = Field(ge=1, le=7)
    cover_modifier: int
    sight_depth: float = Field(ge=0)


class CombatRules(DataModel):
    """Combat die modifiers."""

    charging: int
    higher_ground: int
    per_shock: int
    wounded: int
    double_ratio: int = Field(ge=1)


class SaveRules(DataModel):
    """The Dice of Death."""

    sides: int = Field(ge=2)
    killed_max: int
    wounded_max: int
    two_shock_max: int
    one_shock_max: int
    shock_to_wound: int = Field(ge=1)
    wounds_to_kill: int = Field(ge=1)


class TableRules(DataModel):
    """Bases, cards and victory."""

    base_radius: float = Field(gt=0)
    contact: float = Field(ge=0)
    suits: tuple[Literal["clubs", "diamonds", "hearts", "spades"], ...] = Field(min_length=4, max_length=4)
    coins_per_player: int = Field(ge=1)
    objective_coins: int = Field(ge=0)


class RulesFile(DataModel):
    """The whole rules file."""

    figures: dict[Kind, FigureKind]
    actions: ActionRules
    shooting: ShootingRules
    combat: CombatRules
    saves: SaveRules
    table: TableRules


@cache
def rules() -> RulesFile:
    """The rules file, read once."""
    return load_model(RulesFile, DATA_DIR / "rules.toml")
