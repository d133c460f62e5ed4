"""A simple, deterministic Days of the Valkyrx bot: advance, charge when it pays, keep missiles at range."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON, Seat
from iwgt.games.valkyrx.actions import Action, ConfirmDeployment, EndPhase, Move
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.units import UnitType, unit_types
from iwgt.geometry.hexgrid import Hex, distance, offset_to_hex

CHARGE_WORTH = 0.5
"""Charge only an enemy whose value is at most twice ours (our value / theirs >= 0.5)."""
AVOID_RATIO = 0.25
LEADER_REACH = 3
"""Supreme Leaders and wizards stay within this many cells of as many friends as they can."""
"""Do not walk into contact with an enemy more than four times our value."""


@dataclass(frozen=True, slots=True)
class _Seen:
    """A unit as the observation shows it."""

    id: int
    kind: UnitType
    commander: int
    cell: Hex
    value: float
    routed: bool
    airborne: bool


@dataclass
class HeuristicBot:
    """Plans its whole movement phase at once, then plays the plan move by move."""

    game: ValkyrxGame
    _plan: list[Action] = field(default_factory=list)
    _planned_for: tuple[int, int, str] | None = None

    def choose(self, state: ValkyrxState, seat: Seat) -> Action:
        """The bot's next action for the seat to move."""
        obs = self.game.observe(state, seat)
        if obs["phase"] == "deploy":
            return ConfirmDeployment()  # the scenario's placement is the bot's deployment
        key = (obs["turn"], seat, obs["phase"])
        if self._planned_for != key:
            self._planned_for = key
            self._plan = self._make_plan(obs, self.game.legal_actions(state, seat), seat)
        while self._plan:
            action = self._plan.pop(0)
            try:
                self.game.apply(state, action)  # pure: checks that the planned move is still legal
            except GameError:
                continue
            return action
        return EndPhase()

    def _make_plan(self, obs: JSON, legal: Sequence[Action], seat: Seat) -> list[Action]:
        units = [_see(u) for u in obs["units"] if u["status"] == "active"]
        friends = {u.id: u for u in units if u.commander == seat}
        enemies = [u for u in units if u.commander != seat]
        if not enemies:
            return []
        by_unit: dict[int, list[Move]] = {}
        for a in legal:
            if isinstance(a, Move) and not a.pray:
                by_unit.setdefault(a.unit, []).append(a)
        cells = {friends[uid].cell for uid in by_unit} | {a.to for acts in by_unit.values() for a in acts}
        field = _Field.of(enemies, list(friends.values()), sorted(cells))
        taken: set[Hex] = set()
        plan: list[Action] = []
        # Front units first, so the line advances without the rear blocking it.
        order = sorted(
            by_unit, key=lambda uid: (min(distance(friends[uid].cell, e.cell) for e in enemies), uid)
        )
        for uid in order:
            me = friends[uid]
            best: tuple[float, int, Move] | None = None
            stay = _score(me, me.cell, field, None, moved=False)
            for i, mv in enumerate(by_unit[uid]):
                if mv.to in taken:
                    continue
                s = _score(me, mv.to, field, mv, moved=True)
                if best is None or s > best[0]:
                    best = (s, i, mv)
            if best is not None and best[0] > stay + 1e-9:
                plan.append(best[2])
                taken.add(best[2].to)
        return plan


def _see(u: JSON) -> _Seen:
    kind = unit_types()[u["type"]]
    value = kind.points * u["strength"] / u["start"]
    return _Seen(u["id"], kind, u["commander"], offset_to_hex(*u["cell"]), value, u["routed"], u["airborne"])


@dataclass(frozen=True, slots=True)
class _Field:
    """Hex distance from every cell to the nearest enemy, computed once per plan."""

    nearest: dict[Hex, int]
    enemies: Sequence[_Seen]
    friends: Sequence[_Seen]

    @classmethod
    def of(cls, enemies: Sequence[_Seen], friends: Sequence[_Seen], cells: Sequence[Hex]) -> _Field:
        return cls({c: min(distance(c, e.cell) for e in enemies) for c in cells}, enemies, friends)


def _score(me: _Seen, cell: Hex, field: _Field, mv: Move | None, *, moved: bool) -> float:
    """Higher is better. Distances are hex distances; the rules engine has already made every option legal."""
    t = me.kind
    d = field.nearest[cell]
    if me.routed:
        return float(d)
    adjacent = [e for e in field.enemies if not e.airborne and distance(cell, e.cell) == 1] if d == 1 else []
    if t.has("supreme_leader") or t.has("wizard"):
        # Support: a leader's presence lifts morale within LEADER_REACH cells; keep out of the melee.
        if d <= 1:
            return -100.0
        near = sum(1 for f in field.friends if f.id != me.id and distance(cell, f.cell) <= LEADER_REACH)
        return 2.0 * near - abs(d - 3)
    if t.range > 1:  # missile unit: stay at range, move little, never into contact
        if adjacent:
            return -100.0
        in_range = sum(1 for e in field.enemies if distance(cell, e.cell) <= t.range) if d <= t.range else 0
        score = 10.0 * in_range - abs(d - t.range)
        if moved and in_range:
            score -= 5.0  # moving may cost this turn's volley (VX-04-07)
        return score
    if mv is not None and mv.airborne:  # flyer: swoop next to an enemy and attack from the air
        return 20.0 - d if d == 1 else -float(d)
    if adjacent:
        foe = max(adjacent, key=lambda e: e.value)
        if me.value < AVOID_RATIO * foe.value:
            return -50.0
        if mv is not None and mv.charge:
            return 30.0 if me.value >= CHARGE_WORTH * foe.value else 5.0
        return 15.0
    return -float(d)


def bot_for(game: Any) -> HeuristicBot:
    """A heuristic bot for the Days of the Valkyrx game object."""
    if not isinstance(game, ValkyrxGame):
        raise TypeError("the heuristic bot plays Days of the Valkyrx only")
    return HeuristicBot(game)
