"""Valhalla's help at the table: ``data/help.toml`` joined with each figure kind's and each ground's profile,
read from the game's own data (``data/rules.toml`` and the kinds ``scenario.py`` accepts), never retyped."""

from __future__ import annotations

from typing import get_args

from iwgt.core.help import GameHelp, Profile, load_help
from iwgt.games.valhalla.config import DATA_DIR, rules
from iwgt.games.valhalla.facts import FACTS

HELP_FILE = DATA_DIR / "help.toml"


def inches(x: float) -> str:
    """A distance as players say it: 6", 1.5"."""
    return f'{x:g}"'


def signed(n: int) -> str:
    """A modifier with its sign: +1, -2."""
    return f"{n:+d}"


def terrain_kinds() -> tuple[str, ...]:
    """Every kind of ground a scenario may hold: its areas, hills and obstacle lines (``scenario.py``)."""
    from iwgt.games.valhalla.scenario import AreaSpec, ObstacleSpec

    areas = get_args(AreaSpec.model_fields["kind"].annotation)
    lines = get_args(ObstacleSpec.model_fields["kind"].annotation)
    return (*areas, "hill", *lines)


def profiles() -> dict[str, Profile]:
    """The profile of every figure kind and every kind of ground, keyed ``kind:id``."""
    r = rules()
    a, sh, co = r.actions, r.shooting, r.combat
    out: dict[str, Profile] = {}
    for kind, f in r.figures.items():
        rows = [
            ("Combat die", f"d{f.die}"),
            (
                "Dice of Death",
                f"d{r.saves.sides} {signed(f.save_bonus)}" if f.save_bonus else f"d{r.saves.sides}",
            ),
            ("Actions", f"{a.per_activation} ({a.when_hurt} when shocked or wounded)"),
            ("Move", f"{inches(a.move)}; charge {inches(a.charge)}; withdraw {inches(a.withdraw)}"),
            ("Shoots", f"yes: range {inches(sh.range)}, close {inches(sh.close)}" if f.shoots else "no"),
            ("Coins to the enemy when it goes to Valhalla", str(f.killed_coins)),
        ]
        if f.wounded_coins:
            rows.append(("Coins to the enemy when it is wounded", str(f.wounded_coins)))
        if f.withdraw_coins:
            rows.append(("Coins to the enemy when it withdraws", str(f.withdraw_coins)))
        out[f"figure:{kind}"] = Profile(f.name, tuple(rows))
    slow = ("Movement", f"each inch costs {inches(a.slow_cost)}")
    for ground in terrain_kinds():
        if ground in ("woods", "village"):
            rows = [
                slow,
                ("Cover", f"{signed(sh.cover_modifier)} to hit a figure whose centre is in it"),
                ("Defending in it", f"{signed(co.higher_ground)} in combat"),
                ("Line of sight", f"blocked by more than {inches(sh.sight_depth)} of it"),
            ]
        elif ground == "hill":
            rows = [
                ("Movement uphill", f"each inch costs {inches(a.slow_cost)}"),
                ("Higher ground", f"{signed(co.higher_ground)} in combat"),
                ("Line of sight", "blocked by a crest higher than both figures"),
            ]
        else:
            rows = [
                ("Crossing", f"the Cross action, from within {inches(a.cross_reach)}"),
                ("Moves, charges, withdrawals", "may not cross it"),
            ]
        out[f"terrain:{ground}"] = Profile(ground.capitalize(), tuple(rows))
    return out


def game_help() -> GameHelp:
    """Valhalla's help, whole."""
    return load_help(HELP_FILE, profiles(), FACTS.name, FACTS.title)
