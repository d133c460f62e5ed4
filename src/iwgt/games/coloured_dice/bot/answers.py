"""The bot's answers to the questions a roll raises, from the observation's ``pending`` and ``questions``.

* hero points (CD-CH-18..20): on its own pool, the fewest points that reach the next casualty; on a
  pool against it, the fewest that save a model; on its own morale test, the fewest that turn a failure
  into a pass; otherwise keep them;
* bear wound (CD-CH-10..17): roll a die when the wounds coming would remove a model, else let them through;
* reaction (CD-RE-01/02): roll whenever there are dice to roll;
* resist (CD-CH-25 designed): spend Will when the spell would hurt more than the Will is worth to the
  character and the character keeps at least one point of Will (at zero it leaves the battle).
"""

from __future__ import annotations

from collections.abc import Sequence

from iwgt.core.protocol import JSON
from iwgt.games.coloured_dice.bot.view import View
from iwgt.games.coloured_dice.dice import total, wounds
from iwgt.games.coloured_dice.magic_data import magic_rules
from iwgt.games.coloured_dice.rules import rules

HARMLESS = frozenset({"armour", "move", "heal", "restore", "summon"})
"""Effects that do the target no harm: never worth Will to resist."""
CLOSE_COMBAT_REASON = "fight"
"""The reason of a morale test taken in close combat (its round's losses count, CD-MM-02)."""
WILL_KEPT = 1
"""Will a character keeps after resisting (at 0 it leaves the battle, CD-CH-23)."""


def _casualties(points: int, kills: int, armour: int, body: int, wounds_on: int, models: int) -> int:
    w = wounds(max(0, points), kills, max(0, armour))
    return min(models, (w + wounds_on) // body)


def hero_points(view: View, pending: JSON, offered: Sequence[int]) -> int:
    """How many hero points to spend (0 keeps them): see the module docstring."""
    if not offered:
        return 0
    hero = view.unit(int(pending.get("unit", -1)))
    if hero is None:
        return 0 if 0 in offered else offered[0]
    adjust = int(pending.get("adjust", 0))
    faces = [int(f) for f in pending.get("faces", [])]
    if "armour" in pending and "target" in pending:
        dice = [str(c) for c in pending.get("dice", [])]
        if len(faces) < len(dice):
            return 0
        rolled = total(dice, faces)
        target = view.unit(int(pending["target"]))
        if target is None:
            return 0
        armour = int(pending["armour"])

        def cas(k: int) -> int:
            assert target is not None
            return _casualties(
                rolled.points + adjust + k, rolled.kills, armour, target.body, target.wounds, target.models
            )

        now = cas(0)
        mine_attacking = int(pending.get("source", -1)) == hero.id or target.seat != view.seat
        ups = sorted((k for k in offered if k > 0), key=abs)
        downs = sorted((k for k in offered if k < 0), key=abs)
        if mine_attacking:
            return next((k for k in ups if cas(k) > now), 0)
        return next((k for k in downs if cas(k) < now), 0)
    if len(faces) >= 2:
        return _morale_points(view, pending, faces, adjust, offered)
    return 0


def _morale_points(view: View, pending: JSON, faces: list[int], adjust: int, offered: Sequence[int]) -> int:
    """The fewest hero points that make the unit's own morale roll pass (CD-MO-08/09: 2 passes, 12 fails)."""
    unit = view.unit(int(pending.get("tested", pending.get("unit", -1)) or 0))
    if unit is None:
        return 0
    close = bool(pending.get("close_combat", pending.get("reason") == CLOSE_COMBAT_REASON))
    c = rules().constants
    target = int(unit.data.get("morale_target", 0))
    if close:
        o = next((v for k, v in rules().orders.items() if k == unit.order), None)
        target += 0 if o is None else o.morale_bonus
    gm = int(view.obs["sides"][unit.seat].get("general_morale", 0))
    modifier = (int(unit.data.get("round_losses", 0)) if close else 0) - gm

    def passes(k: int) -> bool:
        roll = faces[0] + faces[1] + adjust + k
        if roll <= c.morale_always_passes:
            return True
        if roll >= c.morale_always_fails:
            return False
        return roll + modifier < target

    if passes(0):
        return 0
    return next((k for k in sorted(offered, key=abs) if passes(k)), 0)


def bear_wound(view: View, pending: JSON) -> bool:
    """Roll a bear-wound die when the wounds coming would remove a model (CD-CH-13..16)."""
    unit = view.unit(int(pending.get("unit", -1)))
    coming = int(pending.get("wounds", 0))
    if unit is None or coming <= 0:
        return False
    return unit.wounds + coming >= unit.body


def resist(view: View, pending: JSON) -> bool:
    """Spend Will against a harmful spell when the character keeps some Will after it."""
    unit = view.unit(int(pending.get("unit", -1)))
    cost = int(pending.get("cost", 0))
    if unit is None:
        return False
    will = unit.data.get("will")
    if will is None or int(will) - cost < WILL_KEPT:
        return False
    key = str(pending.get("spell", ""))
    try:
        power = magic_rules().power(key)
    except (KeyError, ValueError):
        return True  # an unknown spell aimed at us: assume it hurts
    return power.effect not in HARMLESS
