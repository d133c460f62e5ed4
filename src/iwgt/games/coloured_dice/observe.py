"""What a seat sees of a Coloured-Dice battle (cd-spec 3): everything on the table is public; the only
per-seat parts are ``questions`` (what the seat is asked now) and ``previews`` (the attacks the seat to
move may make now, with their exact odds).

Keys: game, round, rounds, seat, phase, table, sides, features, objectives, units, awaiting, last_roll,
previews, questions, result. ``awaiting`` is the spec's ``pending`` (the die awaited or the question asked):
renamed because the conformance suite refuses an observation key named ``pending`` (internal chance data).
"""

from __future__ import annotations

from typing import Any

from iwgt.core.protocol import JSON, Seat
from iwgt.games.coloured_dice import formation
from iwgt.games.coloured_dice.state import CdState, MoveRoll, Unit

GAME = "coloured-dice"
"""The game's registry name."""


def _r(x: float) -> float:
    return round(float(x), 3)


def _xy(p: tuple[float, float]) -> list[float]:
    return [_r(p[0]), _r(p[1])]


def phase(state: CdState) -> str:
    """turn, roll (a die is awaited), decide (a question is asked) or over."""
    if state.over is not None:
        return "over"
    if not state.pending:
        return "turn"
    if isinstance(state.top, MoveRoll):
        return "roll"
    from iwgt.core.protocol import CHANCE
    from iwgt.games.coloured_dice import resolve

    return "roll" if resolve.to_move(state) == CHANCE else "decide"


def _weapon(key: str) -> JSON:
    from iwgt.games.coloured_dice.rules import rules

    w = rules().weapons.get(key)
    if w is None:
        return {"key": key, "name": key, "melee": [], "reach": 1, "missile": None}
    missile = getattr(w, "missile", None)
    return {
        "key": key,
        "name": w.name,
        "melee": list(getattr(w, "melee", ())),
        "reach": int(getattr(w, "reach", 1)),
        "missile": None
        if missile is None
        else {"range": _r(missile.range), "dice": list(getattr(missile, "dice", ()))},
    }


def unit_json(state: CdState, u: Unit) -> JSON:
    """One unit as the screen, words, table and bot read it."""
    from iwgt.games.coloured_dice.movement import allowance, engaged, profile_of
    from iwgt.games.coloured_dice.rules import morale_target, rules

    p = profile_of(u)
    on = u.on_table
    base = rules().kinds[p.kind].base
    bear = p.bear_wound
    return {
        "id": u.id,
        "seat": u.seat,
        "key": u.key,
        "name": u.name,
        "kind": p.kind,
        "models": u.models,
        "start_models": u.start_models,
        "wounds": u.wounds,
        "body": p.body,
        "files": u.files,
        "order": u.order,
        "tray": {
            "centre": _xy(u.tray.centre),
            "facing": _r(u.tray.facing),
            "frontage": _r(u.tray.frontage),
            "depth": _r(u.tray.depth),
        },
        "cells": [_xy(c) for c in formation.model_points(u.tray, u.models, u.files)] if on else [],
        "base": [float(base[0]), float(base[1])],
        "actions_left": u.actions_left if on and u.seat == state.seat else 0,
        "attacked": u.attacked,
        "shaken": u.shaken,
        "destroyed": u.destroyed,
        "routed": u.routed,
        "on_table": on,
        "engaged": engaged(state, u),
        "armour": p.armour,
        "slowness": p.slowness,
        "us": p.us,
        "us_kind": p.us_kind,
        "morale_target": morale_target(p, u.models, u.leader_alive) if on else 0,
        "leader": bool(p.leader) and u.leader_alive,
        "general": u.general,
        "banner": u.banner,
        "hero_left": u.hero_left,
        "bear_left": u.bear_left,
        "bear_colour": None if bear is None else bear.colour,
        "will": u.will,
        "god_like": p.god_like,
        "weapons": [_weapon(k) for k in p.weapons],
        "move": _r(allowance(state, u)) if on else 0.0,
        "round_losses": u.round_losses,
        "buffs": [
            {"key": b.key, "effect": b.effect, "amount": b.amount, "until_round": b.until_round}
            for b in u.buffs
        ],
        "spirits": list(u.spirits),
        "runes": list(p.runes),
        "spells": list(p.spells),
        "owner": u.owner,
    }


def _sides(state: CdState) -> list[JSON]:
    from iwgt.games.coloured_dice.flow import points_lost, victory_points
    from iwgt.games.coloured_dice.rules import armies

    known = armies()
    names = state.scenario.seat_names()
    out = []
    for seat, side in enumerate(state.scenario.spec.sides):
        army = known.get(side.army)
        out.append(
            {
                "name": names[seat],
                "army": side.army,
                "plural": army is not None and army.plural,  # the name takes a plural verb
                "colour": "" if army is None else army.colour,
                "general_morale": state.general_morale[seat],
                "vp": victory_points(state, seat),
                "points": state.start_points[seat],
                "points_lost": points_lost(state, seat),
            }
        )
    return out


def pending_json(state: CdState) -> JSON | None:
    """The top pending step as the screen shows it: a die awaited or a question asked."""
    top = state.top
    if top is None or state.over is not None:
        return None
    if isinstance(top, MoveRoll):
        fid = top.dice[len(top.rolled)]
        piece = state.piece(fid)
        return {
            "kind": "roll",
            "seat": None,
            "purpose": f"terrain: {state.unit(top.unit).name} in {piece.name} (d6 inches)",
            "dice": ["d6"] * len(top.dice),
            "faces": list(top.rolled),
            "unit": top.unit,
            "feature": fid,
        }
    from iwgt.games.coloured_dice import pending as pd
    from iwgt.games.coloured_dice import resolve

    die = resolve.die_needed(state)
    purpose = "" if die is None else die.purpose
    if isinstance(top, pd.PoolRoll):
        a = top.attack
        return {
            "kind": "roll",
            "seat": None,
            "purpose": purpose,
            "dice": list(a.dice),
            "faces": list(a.faces),
            "attack": a.kind,
            "unit": a.source,
            "source": a.source,
            "adjust": a.adjust,
            "target": a.target,
            "armour": a.armour,
        }
    if isinstance(top, pd.MoraleRoll):
        return {
            "kind": "morale",
            "seat": None,
            "purpose": purpose,
            "dice": ["d6", "d6"],
            "faces": list(top.faces),
            "unit": top.unit,
            "reason": top.reason,
        }
    if isinstance(top, pd.BearRoll):
        return {
            "kind": "roll",
            "seat": None,
            "purpose": purpose,
            "dice": [top.colour],
            "faces": [],
            "unit": top.unit,
            "wounds": top.wounds.wounds,
        }
    if isinstance(top, pd.ReactRoll):
        return {
            "kind": "roll",
            "seat": None,
            "purpose": purpose,
            "dice": ["yellow"] * top.dice,
            "faces": list(top.faces),
            "unit": top.unit,
            "charger": top.charger,
        }
    if isinstance(top, pd.D6Roll):
        return {"kind": "roll", "seat": None, "purpose": purpose, "dice": ["d6"], "faces": []}
    if isinstance(top, pd.HeroAsk):
        from iwgt.games.coloured_dice.heroes import hero_range

        on = top.on
        lo, hi = hero_range(state, top)
        out: JSON = {
            "kind": "hero",
            "seat": top.seat,
            "purpose": f"hero points of {state.unit(top.unit).name}",
            "unit": top.unit,
            "range": [lo, hi],
            "adjust": on.adjust,
            "faces": list(on.faces),
        }
        if isinstance(on, pd.Attack):
            out.update(
                {
                    "on": "attack",
                    "attack": on.kind,
                    "dice": list(on.dice),
                    "source": on.source,
                    "target": on.target,
                    "armour": on.armour,
                }
            )
        else:
            out.update({"on": "morale", "dice": ["d6", "d6"], "reason": on.reason, "tested": on.unit})
        return out
    if isinstance(top, pd.BearAsk):
        return {
            "kind": "bear_wound",
            "seat": top.seat,
            "purpose": f"bear wound of {state.unit(top.unit).name}",
            "unit": top.unit,
            "colour": top.colour,
            "wounds": top.wounds.wounds,
            "dice": [top.colour],
            "faces": [],
        }
    if isinstance(top, pd.ReactAsk):
        return {
            "kind": "react",
            "seat": top.seat,
            "purpose": f"{state.unit(top.unit).name} may react to {state.unit(top.charger).name}'s charge",
            "unit": top.unit,
            "charger": top.charger,
            "dice": ["yellow"] * top.dice,
            "faces": [],
        }
    if isinstance(top, pd.ResistAsk):
        return {
            "kind": "resist",
            "seat": top.seat,
            "purpose": f"{state.unit(top.unit).name} may spend {top.cost} Will against {top.spell}",
            "unit": top.unit,
            "cost": top.cost,
            "spell": top.spell,
            "dice": [],
            "faces": [],
        }
    return {"kind": type(top).__name__, "seat": None, "purpose": purpose, "dice": [], "faces": []}


def _last_roll(state: CdState) -> JSON | None:
    r = state.last_roll
    if r is None:
        return None
    return {
        "purpose": r.purpose,
        "dice": list(r.dice),
        "faces": list(r.faces),
        "points": r.points,
        "kills": r.kills,
        "armour": r.armour,
        "wounds": r.wounds,
    }


def previews(state: CdState, seat: Seat | None) -> list[JSON]:
    """The attacks the seat may make now (its turn, nothing pending) with their exact odds: fights and
    shots (combat's ``preview.previews``) and spell attacks (``magic.spell_previews``)."""
    if seat is None or seat != state.seat or state.pending or state.over is not None:
        return []
    from iwgt.games.coloured_dice import magic, preview

    return [p.to_json() for p in [*preview.previews(state, seat), *magic.spell_previews(state, seat)]]


def observe(state: CdState, seat: Seat | None) -> JSON:
    """The observation (cd-spec 3)."""
    from iwgt.games.coloured_dice import resolve

    asked: list[JSON] = []
    if seat is not None and state.pending and state.over is None and not isinstance(state.top, MoveRoll):
        from iwgt.games.coloured_dice.actions import action_to_json

        asked = [action_to_json(a) for a in resolve.questions(state, seat)]
    obs: JSON = {
        "game": GAME,
        "round": state.round,
        "rounds": state.rounds,
        "seat": state.seat,
        "phase": phase(state),
        "table": {"width": _r(state.width), "height": _r(state.height)},
        "sides": _sides(state),
        "features": [
            {
                "id": f.id,
                "kind": f.kind,
                "name": f.name,
                "outline": [_xy(p) for p in f.outline],
                "height": _r(f.height),
                "removed": f.removed,
            }
            for f in state.features
        ],
        "objectives": [
            {
                "id": o.id,
                "name": o.name,
                "at": _xy(o.at),
                "vp": o.vp,
                "taken_by": [s for s in (0, 1) if o.id in state.objectives_taken[s]],
            }
            for o in state.objectives
        ],
        "units": [unit_json(state, u) for u in state.units],
        "awaiting": pending_json(state),
        "last_roll": _last_roll(state),
        "previews": previews(state, seat),
        "questions": asked,
        "result": None if state.over is None else state.over.to_json(),
    }
    awaited = obs["awaiting"]
    if awaited is not None:  # the die awaited or the question asked in one sentence of the game's words
        from iwgt.games.coloured_dice.words import Names, question_text

        awaited["text"] = question_text(awaited, Names(obs))
    return obs


def state_to_json(state: CdState) -> JSON:
    """The whole state as canonical JSON (digests, debugging): the observation plus the raw stack."""
    data = observe(state, None)
    data["stack"] = [_frame(p) for p in state.pending]
    data["general_morale"] = list(state.general_morale)
    data["objective_vp"] = list(state.vp)
    data["scenario"] = state.scenario.name
    data["units_raw"] = [_frame(u) for u in state.units]
    return data


def _frame(value: Any) -> Any:
    from iwgt.core.protocol import _jsonable

    out = _jsonable(value)
    if isinstance(out, dict):
        out = {"kind": type(value).__name__, **out}
    return out
