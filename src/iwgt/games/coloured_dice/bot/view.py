"""The bot's reading of its observation: each unit as a small value with its tray, profile and worth.

Everything here comes from ``game.observe(state, seat)`` (the table is public in this game) and from the
armies' data (``rules.profile``: the printed unit types both players know); never from the state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from iwgt.core.protocol import JSON
from iwgt.games.coloured_dice.rules import Profile, melee_dice, morale_target, profile, reach, rules
from iwgt.geometry.trays import Tray, tray_gap

XY = tuple[float, float]


@cache
def _profile(army: str, key: str) -> Profile:
    return profile(army, key)


@cache
def fights_together(order: str) -> bool:
    """Whether a unit in this order fights with its whole front rank (CD-AC-04)."""
    o = next((v for k, v in rules().orders.items() if k == order), None)
    return bool(o is not None and o.fights_together)


@dataclass(frozen=True, slots=True)
class UnitView:
    """One unit as the bot sees it."""

    id: int
    seat: int
    data: JSON
    p: Profile
    tray: Tray

    @property
    def models(self) -> int:
        """Models left."""
        return int(self.data["models"])

    @property
    def files(self) -> int:
        """Models across the front."""
        return max(1, min(int(self.data["files"]), self.models))

    @property
    def order(self) -> str:
        """open, skirmish, loose or tight."""
        return str(self.data["order"])

    @property
    def armour(self) -> int:
        """Printed armour."""
        return int(self.data["armour"])

    @property
    def body(self) -> int:
        """Wounds a model takes before it falls."""
        return max(1, int(self.data.get("body", 1)))

    @property
    def wounds(self) -> int:
        """Wounds on the current model."""
        w = int(self.data.get("wounds", 0))
        return w if 0 <= w < self.body else 0

    @property
    def move(self) -> float:
        """Inches per move action now."""
        return float(self.data.get("move", 0.0))

    @property
    def slowness(self) -> int:
        """The lower strikes first (CD-FI-03)."""
        return int(self.data.get("slowness", 0))

    @property
    def shaken(self) -> bool:
        """A failed morale test: one more and it routs."""
        return bool(self.data.get("shaken"))

    @property
    def engaged(self) -> list[int]:
        """The enemy units in contact."""
        return [int(i) for i in self.data.get("engaged", [])]

    @property
    def actions_left(self) -> int:
        """Actions left this turn (only the side to move has any)."""
        return int(self.data.get("actions_left", 0))

    @property
    def attacked(self) -> bool:
        """Whether its one attack of the turn is made."""
        return bool(self.data.get("attacked"))

    @property
    def centre(self) -> XY:
        """The tray's centre."""
        return self.tray.centre

    @property
    def per_model(self) -> float:
        """Points per model."""
        return float(self.p.points)

    @property
    def full_value(self) -> float:
        """The victory points the enemy gains when it is destroyed or routed (its starting points)."""
        return self.per_model * int(self.data.get("start_models", self.models))

    @property
    def missile(self) -> JSON | None:
        """Its missile weapon (range, dice per model), or None."""
        for w in self.data.get("weapons", []):
            if w.get("missile"):
                m: JSON = w["missile"]
                return m
        return None

    @property
    def melee_per_model(self) -> tuple[str, ...]:
        """The melee dice one front-rank model rolls."""
        return melee_dice(self.p)

    @property
    def second_rank(self) -> tuple[str, ...]:
        """The melee dice one second-rank model rolls (spears), else nothing."""
        return melee_dice(self.p, rank=2) if reach(self.p) >= 2 else ()

    @property
    def is_character(self) -> bool:
        """A single named model (hero, wizard, priest, shaman)."""
        return self.models <= 1 and self.p.kind == "character"

    def leader_alive(self) -> bool:
        """Whether its leader still stands (the observation says so for a unit that has one)."""
        return bool(self.data.get("leader")) or not self.p.leader

    def morale_target_with(self, models: int) -> int:
        """Its morale target with so many models left (the observation's target moved by the data's rule)."""
        now = int(self.data.get("morale_target", 0))
        alive = self.leader_alive()
        return now + morale_target(self.p, models, alive) - morale_target(self.p, self.models, alive)

    def at(self, centre: XY, facing: float | None = None) -> Tray:
        """Its tray moved to ``centre`` (and turned)."""
        t = self.tray
        return Tray(centre, t.facing if facing is None else facing, t.frontage, t.depth)


def tray_of(data: JSON) -> Tray:
    """A unit's tray from its observation entry."""
    t = data["tray"]
    c = t["centre"]
    return Tray((float(c[0]), float(c[1])), float(t["facing"]), float(t["frontage"]), float(t["depth"]))


@dataclass(frozen=True, slots=True)
class View:
    """The whole observation as the bot uses it."""

    obs: JSON
    seat: int
    units: tuple[UnitView, ...]

    @property
    def mine(self) -> list[UnitView]:
        """Its own units on the table."""
        return [u for u in self.units if u.seat == self.seat]

    @property
    def foes(self) -> list[UnitView]:
        """The enemy units on the table."""
        return [u for u in self.units if u.seat != self.seat]

    def unit(self, uid: int) -> UnitView | None:
        """A unit on the table by id."""
        for u in self.units:
            if u.id == uid:
                return u
        return None

    @property
    def width(self) -> float:
        """The table's width."""
        return float(self.obs["table"]["width"])

    @property
    def height(self) -> float:
        """The table's depth."""
        return float(self.obs["table"]["height"])

    @property
    def rounds_left(self) -> int:
        """Rounds still to play, this one included."""
        return int(self.obs.get("rounds", 1)) - int(self.obs.get("round", 1)) + 1


def read(obs: JSON, seat: int) -> View:
    """The observation read into a ``View`` (units off the table are left out)."""
    armies = [str(s["army"]) for s in obs["sides"]]
    units: list[UnitView] = []
    for d in obs["units"]:
        if not d.get("on_table", True) or int(d.get("models", 0)) <= 0:
            continue
        s = int(d["seat"])
        units.append(UnitView(int(d["id"]), s, d, _profile(armies[s], str(d["key"])), tray_of(d)))
    return View(obs, seat, tuple(units))


def radius(t: Tray) -> float:
    """Half the tray's diagonal: no point of it is farther from its centre."""
    return 0.5 * math.hypot(t.frontage, t.depth)


def gap(a: Tray, b: Tray) -> float:
    """The distance between the nearest points of two trays."""
    return tray_gap(a, b)


def farther_than(a: Tray, b: Tray, limit: float) -> bool:
    """Whether the two trays are more than ``limit`` apart, the exact gap measured only when their centres'
    distance cannot tell (the bot asks this thousands of times a decision)."""
    span = math.dist(a.centre, b.centre)
    if span - radius(a) - radius(b) > limit:
        return True
    inner = 0.5 * min(a.frontage, a.depth) + 0.5 * min(b.frontage, b.depth)
    if span - inner <= limit:
        return False
    return tray_gap(a, b) > limit


def distance(a: XY, b: XY) -> float:
    """Straight distance between two points."""
    return math.dist(a, b)


def as_list(value: Any) -> list[Any]:
    """A JSON value as a list (None as empty)."""
    return list(value) if isinstance(value, list | tuple) else []
