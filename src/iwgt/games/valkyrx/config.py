"""The referee's decided numbers (data/rules.toml), validated when loaded."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field

from iwgt.core.datafiles import DataModel, load_model
from iwgt.games.valkyrx.units import DATA_DIR, Rating

Band = tuple[int, int]


class TurnRules(DataModel):
    """Turn order decisions."""

    first_mover: Literal["each_turn", "once"]


class MovementRules(DataModel):
    """Movement decisions (section 3 and 4)."""

    contact_defers_combat_share: float = Field(ge=0, le=1)
    missile_move_share: float = Field(ge=0, le=1)
    charge_interval: int = Field(ge=1)
    flyer_walk_divisor: int = Field(ge=1)
    difficult_extra_cost: int = Field(ge=0)


class WeaponFactors(DataModel):
    """Factors on casualties by weapon and foe (section 8 and 13)."""

    mortal_vs_undead: float = Field(ge=0)
    magic_vs_undead: float = Field(ge=0)
    fire_vs_undead: float = Field(ge=0)
    mortal_vs_stone: float = Field(ge=0)
    magic_vs_stone: float = Field(ge=0)
    fire_ice_vs_stone: float = Field(ge=0)
    mortal_melee_vs_wickerwork: float = Field(ge=0)
    missile_vs_wickerwork: float = Field(ge=0)
    fire_vs_wickerwork: float = Field(ge=0)
    mortal_vs_immune: float = Field(ge=0)


class CombatRules(DataModel):
    """Combat decisions (section 7)."""

    charge_factor: float = Field(gt=0)
    impetus_charge_factor: float = Field(gt=0)
    flank_factor: float = Field(gt=0)
    outnumbered_ratio: float = Field(gt=1)
    outnumbered_factor: float = Field(gt=0)
    temple_inflict_factor: float = Field(gt=0)
    temple_receive_factor: float = Field(ge=0)
    quicksand_casualties: float = Field(ge=0, le=1)
    melee: dict[Rating, float]
    weapons: WeaponFactors


class MoraleRules(DataModel):
    """Morale decisions (section 10 and 13)."""

    high_above: int
    enhanced_above: int
    weakened_below: int
    critical_below: int
    maximum: int
    loss_per_percent_casualties: float = Field(ge=0)
    combat_won: int
    combat_lost: int
    flanked: int
    outnumbered: int
    leader_radius: int = Field(ge=0)
    own_leader: int
    enemy_leader: int
    leader_slain_panic: int
    despair: int
    dread: int
    fear: int
    unsettling_radius: int = Field(ge=0)
    unsettling: int


class RandomFactor(DataModel):
    """Random factor bands, percent of calculated hits, by the firer's morale status (VX-10-07..11)."""

    High: Band
    Enhanced: Band
    Standard: Band
    Weakened: Band
    Critical: Band

    def band(self, status: str) -> Band:
        """The band of a morale status."""
        band: Band = getattr(self, status)
        return band


class AbilityRules(DataModel):
    """Numbers for the section 13 abilities."""

    elves_grievous_loss: float = Field(gt=0, le=1)
    undead_raise_share: float = Field(ge=0, le=1)
    undead_raise_cap: float = Field(ge=1)
    troll_devour_chance: int = Field(ge=1)
    troll_devour_share: float = Field(ge=0, le=1)
    temple_turns: int = Field(ge=1)


class MagicRules(DataModel):
    """Wizards and spells (section 11); each spell's own numbers are in spells.toml."""

    cast_cost: float = Field(ge=0, lt=1)
    resist_die: int = Field(ge=2)
    resist: dict[str, int]

    def resist_chance(self, rating: str) -> int:
        """Faces of the resist die (1..n) on which a unit of this Resist Magic rating shrugs a spell off."""
        return self.resist[rating]


class StealthRules(DataModel):
    """The Grima and the Sand Worm (section 12)."""

    grima_strike_sides: int = Field(ge=2)
    worm_tunnel: int = Field(ge=1)
    worm_navigation_sides: int = Field(ge=7)
    worm_on_target: int = Field(ge=0)
    worm_swallow_men: float = Field(gt=0)
    worm_surface_turns: int = Field(ge=1)


class PlagueRules(DataModel):
    """The plague (Plague spell, Pocâdl)."""

    losses: tuple[float, ...] = Field(min_length=1)
    bearer_infect_sides: int = Field(ge=2)
    bearer_infect_faces: int = Field(ge=0)


class VictoryRules(DataModel):
    """Defaults for the end of the game."""

    turn_limit_default: int = Field(ge=1)


class RulesConfig(DataModel):
    """All of data/rules.toml."""

    turn: TurnRules
    movement: MovementRules
    combat: CombatRules
    morale: MoraleRules
    random_factor: RandomFactor
    abilities: AbilityRules
    victory: VictoryRules
    magic: MagicRules
    stealth: StealthRules
    plague: PlagueRules


@cache
def rules_config() -> RulesConfig:
    """The rules constants, loaded once."""
    return load_model(RulesConfig, DATA_DIR / "rules.toml")
