"""What a seat sees of a game of Forged upon an Anvil, as JSON; the sealed choices are the only secrets.

A sealed army list, terrain bid or turn bid is shown to its maker at once and to the other seat and to
spectators only once both are in: until then they see only that it was made (``..._in``: true). Everything
else is public. Points are ``[x, y]`` inches from the bottom-left corner; facings degrees (0 = facing +y,
counter-clockwise positive). The observation (``observe(state, seat)``):

{
  "game": "anvil", "scenario": "skirmish", "title": "...", "seat": 0 | 1 | null,
  "phase": "muster" | "terrain_bid" | "terrain" | "seats" | "bid" | "activation" | "interrupt" | "over",
  "turn": 0.., "turns": 6 | null, "to_move": 0 | 1 | null, "mover": 0 | 1 | null,
  "options": {"premeasure": true, "win": "general" | "seat"},
  "table": {"width": 36, "height": 36, "tray": [3.0, 1.5], "figures": 3, "dcp": 12,
            "armies": "build" | "fixed"},
  "palette": [{"key": "wood", "name": "Wood", "outline": [[x, y], ...]}],     (around the piece's centre)
  "sides": [{"seat": 0, "name": "...", "colour": "#8e2c1f",
             "army_in": bool, "army": [{"type", "name", "general", "stratagems"}] | null,  (sealed)
             "terrain_bid_in": bool, "terrain_bid": int | null,                            (sealed)
             "to_place": int, "placed": int, "extra_cp": int,
             "bid_in": bool, "bid": int | null,                                            (sealed)
             "limit": int, "cp": int, "passed": bool, "first": bool, "score": int,
             "champion_used": bool, "summons": int}, {...}],
  "placer": 0 | 1 | null, "first_placer": 0 | 1, "bid_round": 0..,
  "features": [{"seat", "piece", "name", "centre", "rotation", "outline", "halves", "blocks",
                "impassable"}],
  "units": [{"id", "seat", "type", "name", "general", "stratagems", "hp", "start_hp", "dcp", "worth",
             "deploy_cost", "move", "on_table", "waiting", "destroyed", "summoned", "braced", "transfixed",
             "skirmishing", "tray": {"centre", "facing", "frontage", "depth", "corners"} | null}],
  "activation": {"unit", "seat", "stratagems", "allowance", "moved", "engaged", "shot", "deployed",
                 "infiltrated", "excess", "excess_only"} | null,
  "interruption": {"kind": "counterattack" | "hero_of_the_day" | "dispel", "seat", "unit",
                   "attacker", "defender", "side", "spell", "caster", "target"} | null,
  "result": {"winner": 0 | 1 | null, "reason": "..."} | null
}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from iwgt.core.protocol import JSON, Seat
from iwgt.games.anvil import actions as act
from iwgt.games.anvil.army import deploy_cost, unit_dcp
from iwgt.games.anvil.flow import score, to_move, worth
from iwgt.games.anvil.movement import base_allowance
from iwgt.games.anvil.state import AnvilState, Unit, pair
from iwgt.geometry.trays import Tray

SEALED_ACTIONS = (act.Army, act.TerrainBid, act.Bid)
"""The actions whose content another seat does not see in the log."""
PLACES = 4
"""Decimal places of the inches and degrees an observation shows."""


def _xy(p: tuple[float, float]) -> list[float]:
    return [round(p[0], PLACES), round(p[1], PLACES)]


def _tray(t: Tray | None) -> JSON | None:
    if t is None:
        return None
    return {
        "centre": _xy(t.centre),
        "facing": round(t.facing, PLACES),
        "frontage": t.frontage,
        "depth": t.depth,
        "corners": [_xy(c) for c in t.corners()],
    }


def _army(army: act.Army | None) -> list[JSON] | None:
    if army is None:
        return None
    return [
        {"type": u.type, "name": u.name, "general": u.general, "stratagems": list(u.stratagems)}
        for u in army.units
    ]


def hidden_from(state: AnvilState, seat: Seat | None) -> dict[str, bool]:
    """Which sealed choices of the OTHER seat (or of either, for a spectator) the viewer may not see now."""
    out = {"army": False, "terrain_bid": False, "bid": False}
    both_armies = state.armies[0] is not None and state.armies[1] is not None
    out["army"] = state.phase == "muster" and not both_armies
    both_terrain = state.terrain_bids[0] is not None and state.terrain_bids[1] is not None
    out["terrain_bid"] = state.phase == "terrain_bid" and not both_terrain
    both_bids = state.bids[0] is not None and state.bids[1] is not None
    out["bid"] = state.phase == "bid" and not both_bids
    return out


def _unit(state: AnvilState, u: Unit) -> JSON:
    return {
        "id": u.id,
        "seat": u.seat,
        "type": u.type,
        "name": u.name,
        "general": u.general,
        "stratagems": list(u.stratagems),
        "hp": u.hp,
        "start_hp": u.start_hp,
        "dcp": 0 if u.is_seat else unit_dcp(u),
        "worth": worth(u),
        "deploy_cost": None if u.is_seat else deploy_cost(u),
        "move": 0.0 if u.is_seat else round(base_allowance(u), PLACES),
        "on_table": u.on_table,
        "waiting": u.waiting,
        "destroyed": u.destroyed,
        "summoned": u.summoned,
        "braced": u.braced,
        "transfixed": u.transfixed,
        "skirmishing": u.skirmishing,
        "tray": _tray(u.tray),
    }


def _interruption(state: AnvilState) -> JSON | None:
    p = state.pending
    if p is None:
        return None
    out: JSON = {"kind": p.kind, "seat": p.seat, "unit": p.unit}
    c, s = p.combat, p.spell
    if c is not None:
        out.update({"attacker": c.attacker, "defender": c.defender, "side": c.side})
    if s is not None:
        out.update({"spell": s.spell, "caster": s.caster, "target": s.target})
    return out


def observe(state: AnvilState, seat: Seat | None) -> JSON:
    """What one seat (None: a spectator) sees."""
    spec = state.scenario.spec
    hidden = hidden_from(state, seat)
    sides: list[JSON] = []
    for s in (0, 1):
        mine = seat == s
        army = state.armies[s]
        tbid = state.terrain_bids[s]
        bid = state.bids[s]
        side = spec.sides[s]
        sides.append(
            {
                "seat": s,
                "name": side.name,
                "colour": side.colour,
                "army_in": army is not None,
                "army": _army(army) if mine or not hidden["army"] else None,
                "terrain_bid_in": tbid is not None,
                "terrain_bid": tbid if mine or not hidden["terrain_bid"] else None,
                "to_place": state.to_place[s],
                "placed": state.placed[s],
                "extra_cp": state.extra_cp[s],
                "bid_in": bid is not None,
                "bid": bid if mine or not hidden["bid"] else None,
                "limit": state.limits[s],
                "cp": state.cp[s],
                "passed": state.passed[s],
                "first": state.first == s,
                "score": score(state, s),
                "champion_used": "raise_champion" in state.game_used[s],
                "summons": state.summons[s],
            }
        )
    a = state.activation
    phase = "interrupt" if state.pending is not None and state.phase != "over" else state.phase
    return {
        "game": "anvil",
        "scenario": spec.name,
        "title": spec.title,
        "seat": seat,
        "phase": phase,
        "turn": state.turn,
        "turns": spec.turns,
        "to_move": to_move(state),
        "mover": state.mover,
        "options": {"premeasure": state.options.premeasure, "win": state.options.win},
        "table": {
            "width": spec.width,
            "height": spec.height,
            "tray": list(spec.tray),
            "figures": spec.figures,
            "dcp": spec.dcp,
            "armies": spec.armies,
        },
        "palette": [
            {"key": p.key, "name": p.name, "outline": [_xy(xy) for xy in p.outline]} for p in spec.terrain
        ],
        "sides": sides,
        "placer": state.placer,
        "first_placer": state.first_placer,
        "bid_round": state.bid_round,
        "features": [
            {
                "seat": f.seat,
                "piece": f.piece,
                "name": f.feature.name,
                "centre": _xy(f.centre),
                "rotation": f.rotation,
                "outline": [_xy(xy) for xy in f.feature.outline],
                "halves": f.feature.halves,
                "blocks": f.feature.blocks,
                "impassable": f.feature.impassable,
            }
            for f in state.features
        ],
        "units": [_unit(state, u) for u in state.units],
        "activation": None
        if a is None
        else {
            "unit": a.unit,
            "seat": a.seat,
            "stratagems": list(a.stratagems),
            "allowance": round(a.allowance, PLACES),
            "moved": a.moved,
            "engaged": a.engaged,
            "shot": a.shot,
            "deployed": a.deployed,
            "infiltrated": a.infiltrated,
            "excess": round(a.excess, PLACES),
            "excess_only": a.excess_only,
        },
        "interruption": _interruption(state),
        "result": None if state.phase != "over" else {"winner": state.winner, "reason": state.over_reason},
    }


def state_to_json(state: AnvilState) -> JSON:
    """The whole state (sealed choices included: for digests and debugging, never sent to a seat)."""
    out = observe(state, None)
    out["sealed"] = {
        "armies": [_army(a) for a in state.armies],
        "terrain_bids": list(state.terrain_bids),
        "bids": list(state.bids),
    }
    out["turn_used"] = [sorted(x) for x in state.turn_used]
    out["game_used"] = [sorted(x) for x in state.game_used]
    out["winner"] = state.winner
    out["paused"] = _paused(state)
    return out


def _paused(state: AnvilState) -> Any:
    """The paused resolution in full (the digest must tell two pauses apart)."""
    p = state.pending
    return None if p is None else asdict(p)


def resample_hidden(state: AnvilState, seat: Seat | None, pick: Callable[[int], int]) -> AnvilState:
    """A state the seat cannot tell from ``state``: the other seat's sealed choice redrawn by ``pick``.

    Only seat 0 can have a sealed choice in while another is still to choose (seat 0 chooses first), so
    only seat 0's is redrawn, for seat 1 and for spectators: an army list among the scenario's suggested
    ones (both fit the same budget), a terrain bid of 0..5, a turn bid of 0..its limit.
    """
    if seat == 0:
        return state
    hidden = hidden_from(state, seat)
    if hidden["army"] and state.armies[0] is not None:
        choices = state.scenario.armies
        return replace(state, armies=pair(state.armies, 0, choices[pick(len(choices))]))
    if hidden["terrain_bid"] and state.terrain_bids[0] is not None:
        from iwgt.games.anvil.rules import rules

        return replace(
            state, terrain_bids=pair(state.terrain_bids, 0, pick(rules().constants.terrain_bid + 1))
        )
    if hidden["bid"] and state.bids[0] is not None:
        return replace(state, bids=pair(state.bids, 0, pick(state.limits[0] + 1)))
    return state


def action_view(action: act.Action, actor: Seat, seat: Seat | None) -> JSON:
    """An action as another seat sees it in the log: a sealed choice shows only its type."""
    if isinstance(action, SEALED_ACTIONS) and seat != actor:
        return {"type": act.NAMES[type(action)]}
    return act.action_to_json(action)
