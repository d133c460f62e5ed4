"""Exact odds of a charge, a fight or a shot the player is about to commit, from the state itself.

The touchscreen shows these before the action is sent (issue 5: "the same preview"), and the bot
weighs its choices with them. They use the same rule code as the game and the odds command.
"""

from __future__ import annotations

from typing import Any

from iwgt.games.valhalla.actions import Action, Charge, Fight, Shoot
from iwgt.games.valhalla.flow import charge_sides, fighter
from iwgt.games.valhalla.movement import why_not_charge
from iwgt.games.valhalla.odds import CombatOdds, ShotOdds, combat_odds, shoot_odds
from iwgt.games.valhalla.shooting import aim, why_not_shoot
from iwgt.games.valhalla.state import ValhallaState


def charge_odds(state: ValhallaState, fid: int, target: int) -> CombatOdds | None:
    """The odds of the fight a charge would start (the charger at its contact point), or None if illegal."""
    f, t = state.figure(fid), state.figure(target)
    if why_not_charge(state, f, t) is not None:
        return None
    return combat_odds(*charge_sides(state, f, t))


def fight_odds(state: ValhallaState, fid: int, opponent: int) -> CombatOdds | None:
    """The odds of continuing a fight, or None if the two are not in combat."""
    e = state.engagement(fid, opponent)
    if e is None:
        return None
    f, o = state.figure(fid), state.figure(opponent)
    return combat_odds(
        fighter(state, f, o, charging=False, charged=e.charged == fid),
        fighter(state, o, f, charging=False, charged=e.charged == opponent),
    )


def shot_odds(state: ValhallaState, fid: int, target: int) -> ShotOdds | None:
    """The odds of one shot, or None if it may not be taken."""
    f, t = state.figure(fid), state.figure(target)
    shot = aim(state, f, t) if why_not_shoot(state, f, t) is None else None
    if shot is None:
        return None
    return shoot_odds(shot.distance, shot.cover, t.kind, t.shock, t.wounded)


def preview(state: ValhallaState, action: Action) -> dict[str, Any] | None:
    """The odds JSON for a charge, fight or shot (as ``iwgt odds valhalla`` prints it), else None."""
    odds: CombatOdds | ShotOdds | None = None
    kind = ""
    match action:
        case Charge(figure, target):
            odds, kind = charge_odds(state, figure, target), "charge"
        case Fight(figure, opponent):
            odds, kind = fight_odds(state, figure, opponent), "fight"
        case Shoot(figure, target):
            odds, kind = shot_odds(state, figure, target), "shot"
    if odds is None:
        return None
    out = odds.to_json()
    out["kind"] = kind
    return out
