"""The stratagems that toggle something for the active unit's activation: which are legal now, their effect.

Entry points for ``game.py``: ``stratagem_actions(state)`` (the ``Stratagem`` actions legal now) and
``apply_stratagem(state, Stratagem)``; ``toggle_block(state, key)`` says why one is not legal.

The ``stratagem`` action names a toggle by its action key (``TOGGLES``); ``Activation.stratagems`` records
the DATA key (``rules.toml``: ``fly`` for fly_burrow, ``parthian_shot`` for parthian), which is what
movement and combat read (``Activation.used("fly")``, ``used("march")``, ``used("interpenetration")``,
``used("hammerblow")``, ``used("parthian_shot")``). Effects:

- brace (FA-SC-01..03): the Brace marker (``Unit.braced``, until turn end); the activation's movement ends
  (allowance 0, no excess move); a braced unit cannot move, engage or bounce back.
- march (FA-SM-04..06): +3" to this activation's allowance; no engage.
- hammerblow (FA-SC-04/05): +1 damage to this activation's engage or Ballistics (declared before it).
- skirmishing (FA-SM-09..12): the Skirmish token (``Unit.skirmishing``, until turn end): front only in
  combat, +2" now (and, for the flow, +2" in the unit's later activations this turn).
- fly_burrow (FA-SM-01..03): halving and impassable ground ignored while moving (may not end in impassable).
- interpenetration (FA-SM-07/08): may move through trays (may not end overlapping one).
- parthian (FA-SS-07..09): a Troop with Shooter may move and use Ballistics in the same activation, -1 damage.

Movement toggles are declared before the unit moves (spec 1); each stratagem at most once per activation
(FA-AC-02 decided); paid from the CP left (one that cannot be paid for is not legal); the Seat of Power
never activates and takes none (FA-GN-08).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import Stratagem
from iwgt.games.anvil.resolving import cost_of, in_activation, may_use, pay
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState

TOGGLES: Final[dict[str, str]] = {
    "brace": "brace",
    "march": "march",
    "hammerblow": "hammerblow",
    "skirmishing": "skirmishing",
    "fly_burrow": "fly",
    "interpenetration": "interpenetration",
    "parthian": "parthian_shot",
}
"""The ``stratagem`` action's keys and the data key each stands for."""
BEFORE_MOVING: Final = frozenset({"march", "skirmishing", "fly", "interpenetration", "parthian_shot"})
"""Toggles declared before the unit moves (spec 1: "declared before the move")."""


def data_key(key: str) -> str:
    """The data key of a toggle named by its action key (or by its data key)."""
    if key in TOGGLES:
        return TOGGLES[key]
    if key in TOGGLES.values():
        return key
    raise IllegalAction(f"unknown stratagem {key!r}; the toggles are {', '.join(TOGGLES)}")


def toggle_block(state: AnvilState, key: str) -> str | None:
    """Why the toggle ``key`` (action or data key) is not legal for the active unit now (None: it is)."""
    if not in_activation(state) or state.activation is None or state.active is None:
        return "no unit is activated now"
    dk = data_key(key)
    unit, act = state.active, state.activation
    strat = rules().stratagem(dk)
    if not unit.on_table:
        return f"{unit.name} is not on the table"
    if unit.is_seat:
        return "FA-GN-08: the Seat of Power takes no stratagem"
    if not may_use(unit, dk):
        return f"{strat.clauses[0]}: {strat.name} is for {strat.printed_users}"
    if act.used(dk):
        return f"FA-AC-02: {strat.name} is already used in this activation"
    if act.excess_only:
        return "FA-CRM-03: only the excess move is left"
    if state.cp[act.seat] < strat.cost:
        return f"{strat.name} costs {strat.cost} CP; {state.cp[act.seat]} CP left"
    if dk in BEFORE_MOVING and (act.moved or act.engaged):
        return f"{strat.name} is declared before the unit moves"
    if dk in ("march", "fly", "interpenetration", "skirmishing") and (unit.braced or act.infiltrated):
        return "FA-SC-03: the unit may not move" if unit.braced else "an infiltrated unit does not move"
    if dk in ("march", "fly", "interpenetration") and act.shot and not act.used("parthian_shot"):
        return "FA-SS-05: a unit using Ballistics may not move"
    if dk == "brace" and unit.braced:
        return "FA-SC-02: the unit already has a Brace marker"
    if dk == "skirmishing" and unit.skirmishing:
        return "FA-SM-12: the unit already has a Skirmish token this turn"
    if dk == "hammerblow" and (act.engaged or act.shot):
        return "FA-SC-05: Hammerblow is declared before the attack"
    if dk == "parthian_shot" and act.shot:
        return "FA-SS-08: Parthian Shot is declared before the shot"
    return None


def stratagem_actions(state: AnvilState) -> list[Stratagem]:
    """The toggles the active unit may use now."""
    if not in_activation(state):
        return []
    return [Stratagem(key) for key in TOGGLES if toggle_block(state, key) is None]


def apply_stratagem(state: AnvilState, action: Stratagem) -> tuple[AnvilState, list[Event]]:
    """Pay for a toggle and put its effect on the activation (and the unit's markers)."""
    why = toggle_block(state, action.key)
    if why is not None:
        raise IllegalAction(why)
    act, unit = state.activation, state.active
    assert act is not None and unit is not None
    dk = data_key(action.key)
    events: list[Event] = []
    state = pay(state, act.seat, unit.id, dk, events, cost_of(dk))
    act = replace(act, stratagems=(*act.stratagems, dk))
    strat = rules().stratagem(dk)
    if dk == "brace":
        unit = replace(unit, braced=True)
        act = replace(act, allowance=0.0, excess=0.0)  # FA-SC-03: using Brace ends any movement
    elif dk == "march":
        act = replace(act, allowance=act.allowance + strat.move_add)  # FA-SM-05
    elif dk == "skirmishing":
        unit = replace(unit, skirmishing=True)  # FA-SM-10/12
        act = replace(act, allowance=act.allowance + strat.move_add)  # FA-SM-11
    return replace(state.with_unit(unit), activation=act), events
