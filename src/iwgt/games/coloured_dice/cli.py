"""The Coloured-Dice rules' own command: ``iwgt odds coloured-dice pool``, the exact odds of a pool of
coloured dice against an armour value, in close combat or as a shot (range band, shooting skill, cover).

It reads the same code as the game (``dice.py`` for the armour arithmetic, ``odds.py`` for the distributions,
``rules()`` for the maximum range): no number is repeated here.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.table import Table

from iwgt.core.terminal import console, fail

coloured_odds = typer.Typer(
    help="The Coloured-Dice rules: the exact odds of a pool of coloured dice (never sampled).",
    no_args_is_help=True,
)

COVERS = (0, 1, 2)
"""Cover: none, partly covered +1, almost entirely covered +2 (CD-TC-01, CD-TC-02)."""
SHOWN = 0.0005
"""The human tables leave out the rare tail, values less likely than this (0.05%); --json has them all."""


@coloured_odds.callback()
def odds() -> None:
    """The Coloured-Dice rules: the exact odds of a pool of coloured dice (never sampled)."""
    # A callback keeps this a group (``... coloured-dice pool``) even with one command, mounted or not.


@dataclass(frozen=True)
class Armour:
    """The target's effective armour and its parts (skill and band only for a shot)."""

    value: int
    armour: int
    cover: int
    skill: int | None = None
    band: int | None = None

    def parts(self) -> dict[str, int | None]:
        """The parts as JSON."""
        return {"armour": self.armour, "skill": self.skill, "band": self.band, "cover": self.cover}

    def sum_text(self) -> str:
        """ "armour 1 + skill 0 + range band 2 + cover 0 = 3"."""
        terms = [f"armour {self.armour}"]
        if self.skill is not None:
            terms.append(f"skill {self.skill}")
        if self.band is not None:
            terms.append(f"range band {self.band}")
        terms.append(f"cover {self.cover}")
        shown = " + ".join(terms) + f" = {self.value}"
        raw = self.armour + self.cover + (self.skill or 0) + (self.band or 0)
        return shown + (" (never below 0, CD-SH-08)" if raw < self.value else "")


def effective_armour(
    armour: int, cover: int, range_inches: float | None, weapon_range: float | None, skill: int | None
) -> Armour:
    """The armour the pool rolls against, or an exit-2 error naming the option that is wrong."""
    from iwgt.games.coloured_dice.dice import range_band, shot_armour
    from iwgt.games.coloured_dice.rules import rules

    if armour < 0:
        raise fail(f"--armour: {armour}; armour is 0 or more (CD-FI-06)")
    if cover not in COVERS:
        raise fail(
            f"--cover: {cover}; cover is 0 (none), 1 (partly covered) or 2 (almost entirely) (CD-TC-01/02)"
        )
    if range_inches is None:
        if skill is not None:
            raise fail("--skill is a shooting skill: give --range-inches too (a close-combat roll has none)")
        if weapon_range is not None:
            raise fail(
                "--weapon-range is a shot's: give --range-inches too (without it the roll is close combat)"
            )
        return Armour(armour + cover, armour, cover)
    if weapon_range is None:
        raise fail("--range-inches needs --weapon-range, the weapon's range in inches (e.g. 8 for a javelin)")
    if not (range_inches >= 0 and math.isfinite(range_inches)):
        raise fail(f"--range-inches: {range_inches:g} is not a distance in inches")
    if not (weapon_range > 0 and math.isfinite(weapon_range)):
        raise fail(f"--weapon-range: {weapon_range:g}; a range is a positive number of inches")
    band = range_band(range_inches, weapon_range)
    bands = rules().constants.max_range_bands
    if band >= bands:
        raise fail(
            f'--range-inches: {range_inches:g}" is beyond the weapon\'s reach, {bands} x {weapon_range:g}" = '
            f'{bands * weapon_range:g}" (CD-RA-01)'
        )
    # CD-SH-05: shooting skill "Usually it is 1": the skill of a shot when --skill is not given.
    used = rules().constants.usual_skill if skill is None else skill
    return Armour(shot_armour(armour, skill=used, band=band, cover=cover), armour, cover, used, band)


def _keyed(dist: dict[int, float]) -> dict[str, float]:
    """A distribution with string keys, in order (JSON)."""
    return {str(k): dist[k] for k in sorted(dist)}


@coloured_odds.command(name="pool")
def odds_pool(
    dice: Annotated[str, typer.Option(help="the pool: counts and colours, e.g. 10white,5black")],
    armour: Annotated[int, typer.Option(help="the target's armour value (CD-FI-05/06)")],
    range_inches: Annotated[
        float | None,
        typer.Option(help="a shot: the distance to the target in inches (the range band, CD-RA-02)"),
    ] = None,
    weapon_range: Annotated[
        float | None, typer.Option(help="a shot: the weapon's range in inches (a javelin's is 8)")
    ] = None,
    skill: Annotated[
        int | None,
        typer.Option(
            help="a shot: the shooting skill, 0 excellent, 1 usual (the default), 2 poor, 3 wretched, "
            "negative for legends (CD-SH-05..07)"
        ),
    ] = None,
    cover: Annotated[
        int, typer.Option(help="the target's cover: 0, 1 partly or 2 almost entirely (CD-TC-01/02)")
    ] = 0,
    models: Annotated[
        int | None, typer.Option(help="the target's models: casualties stop there (default: no limit)")
    ] = None,
    body: Annotated[int, typer.Option(help="wounds each target model withstands (CD-CH-06)")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    stray: Annotated[list[str] | None, typer.Argument(hidden=True, show_default=False)] = None,
) -> None:
    """The exact chances of each number of casualties and points of a pool of coloured dice against an
    armour value: close combat, or a shot with --range-inches and --weapon-range."""
    from iwgt.games.coloured_dice.dice import parse_pool
    from iwgt.games.coloured_dice.odds import (
        casualties_distribution,
        kills_distribution,
        mean,
        points_distribution,
        wounds_distribution,
    )

    if stray:
        # "--dice 10 white" splits the pool at the space: say how to write it, not "unexpected argument".
        given = " ".join([dice, *stray])
        raise fail(f"--dice {given}: write the pool without spaces, e.g. --dice 10white,5black")
    try:
        pool = parse_pool(dice)
    except ValueError as exc:
        raise fail(f"--dice: {exc}") from None
    against = effective_armour(armour, cover, range_inches, weapon_range, skill)
    if models is not None and models < 1:
        raise fail(f"--models: {models}; a unit on the table has at least 1 model")
    if body < 1:
        raise fail(f"--body: {body}; a model withstands at least 1 wound (CD-CH-06)")
    points = points_distribution(pool)
    kills = kills_distribution(pool)
    casualties = casualties_distribution(pool, against.value, models=models, body=body)
    data: dict[str, Any] = {
        "dice": pool,
        "roll": "close_combat" if range_inches is None else "shot",
        "armour": against.value,
        "parts": against.parts(),
        "range_inches": range_inches,
        "weapon_range": weapon_range,
        "models": models,
        "body": body,
        "casualties": _keyed(casualties),
        "points": _keyed(points),
        "kills": _keyed(kills),
        "wounds": _keyed(wounds_distribution(pool, against.value)),
        "mean_casualties": mean(casualties),
        "mean_points": mean(points),
        "mean_kills": mean(kills),
    }
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    _print(data, against, casualties, points, kills)


def _print(
    data: dict[str, Any],
    against: Armour,
    casualties: dict[int, float],
    points: dict[int, float],
    kills: dict[int, float],
) -> None:
    """The odds as sentences and two Rich tables."""
    from iwgt.games.coloured_dice.dice import faces, pool_text

    if data["range_inches"] is None:
        how = "close combat"
    else:
        how = f'a shot at {data["range_inches"]:g}" (weapon range {data["weapon_range"]:g}")'
    console.print(f"[bold]Coloured-Dice[/]: {pool_text(data['dice'])}, {how}")
    cost = against.value + 1
    console.print(f"against {against.sum_text()}: each casualty costs {cost} point{'s' if cost > 1 else ''}")
    table = Table(title="casualties")
    for head in ("casualties", "chance", "at least"):
        table.add_column(head, justify="right")
    left = 1.0
    for n in sorted(casualties):
        if casualties[n] >= SHOWN:
            table.add_row(str(n), _pc(casualties[n]), _pc(left))
        left -= casualties[n]
    console.print(table)
    shown = Table(title="points")
    for head in ("points", "chance", "at least"):
        shown.add_column(head, justify="right")
    left = 1.0
    for n in sorted(points):
        if points[n] >= SHOWN:
            shown.add_row(str(n), _pc(points[n]), _pc(left))
        left -= points[n]
    console.print(shown)
    # Decided from the pool's faces, not from 1 - P(no kill): that difference is rounding residue (2e-16)
    # for a pool without kill faces, and would print "at least one kill face <0.1%".
    any_kill = 1.0 - kills.get(0, 0.0) if any("kill" in faces(c) for c in data["dice"]) else 0.0
    console.print(
        f"mean casualties {data['mean_casualties']:.2f}; mean points {data['mean_points']:.2f}"
        + (
            f"; at least one kill face {_pc(any_kill)} (a wound through any armour, CD-DI-13)"
            if any_kill
            else ""
        )
        + f"; exact (the rare tail under {SHOWN:.2%} left out here: --json has it all)"
    )


def _pc(p: float) -> str:
    """A chance as a percentage with one decimal ("<0.1%" for a small one that is not 0)."""
    p = max(0.0, p)
    return "<0.1%" if 0 < p < 0.0005 else f"{p:.1%}"


def commands() -> dict[str, typer.Typer]:
    """The commands this game adds, by the shared group they join: ``iwgt odds coloured-dice pool``."""
    return {"odds": coloured_odds}
