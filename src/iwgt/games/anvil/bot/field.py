"""Before the battle: the bot's army list, its terrain features and its Seat of Power.

* The army (FA-GN-03, FA-UD): built from the scenario's DCP budget by a fixed recipe that keeps inside every
  availability limit (Troops at least 40%, Knights at most 40%, a Hero and a Monster within 30% each), with
  a Knight as the General's unit: 8 HP is the hardest General to kill for its 2 DCP, and a General's unit
  deploys for no DCP. The list is checked with the rules' own ``validate_army``; if it is refused (or the
  scenario's own list is the only legal one) the scenario's suggested army is taken.
* Terrain (FA-FB-02..06): a feature goes where it is least in the bot's way, near a side edge and away from
  the straight road between the two Seats, designated to halve movement only (it blocks no shot of ours and
  no charge outright).
* The Seat of Power (FA-FB-07): as near the own edge as it may go (nothing can come round behind it) and
  into the corner nearest to it (one flank against the table's edge too).
"""

from __future__ import annotations

from collections.abc import Sequence

from iwgt.games.anvil.actions import Action, Army, ArmyEntry, PlaceFeature, PlaceSeat, SkipFeature
from iwgt.games.anvil.army import validate_army
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.state import AnvilState

TROOP_SHARE = 0.4
"""The least share of the army's DCP in Troops (FA-UD-07)."""
KNIGHT_SHARE = 0.4
"""The most share in Knights (FA-UD-05)."""
HERO_SHARE = 0.3
"""The most share in Heroes, and in Monsters (FA-UD-02, FA-UD-04)."""


def build_army(budget: int) -> Army | None:
    """The bot's army for a DCP budget, or None if the recipe finds no legal one."""
    r = rules()
    dcp = {k: r.deployment[k].dcp for k in ("troop", "knight", "hero", "monster")}
    knights = int(budget * KNIGHT_SHARE) // dcp["knight"]
    heroes = int(budget * HERO_SHARE) // dcp["hero"]
    monsters = int(budget * HERO_SHARE) // dcp["monster"]
    while True:
        spent = knights * dcp["knight"] + heroes * dcp["hero"] + monsters * dcp["monster"]
        troops = (budget - spent) // dcp["troop"]
        total = spent + troops * dcp["troop"]
        if troops * dcp["troop"] >= TROOP_SHARE * total and troops >= 0:
            break
        # Too few Troops: give up the dearest unit first.
        if monsters:
            monsters -= 1
        elif heroes:
            heroes -= 1
        elif knights:
            knights -= 1
        else:
            return None
    units: list[ArmyEntry] = []
    for i in range(knights):
        units.append(ArmyEntry("knight", f"Lances {i + 1}", general=(i == 0)))
    for i in range(heroes):
        units.append(ArmyEntry("hero", f"Champion {i + 1}", general=not knights and i == 0))
    for i in range(monsters):
        units.append(ArmyEntry("monster", f"Beast {i + 1}"))
    for i in range(troops):
        units.append(ArmyEntry("troop", f"Spears {i + 1}", general=not (knights or heroes) and i == 0))
    army = Army(tuple(units))
    return army if units and not validate_army(army, budget) else None


def choose_army(state: AnvilState, legal: Sequence[Action]) -> Action:
    """Our own army if the rules take it, else the scenario's suggested one (a legal action)."""
    mine = build_army(state.scenario.spec.dcp)
    offered = [a for a in legal if isinstance(a, Army)]
    if mine is not None:
        return mine
    return offered[0] if offered else legal[0]


def choose_feature(state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
    """The feature placement least in our way: halving only, near a side edge, off the Seats' road."""
    places = [a for a in legal if isinstance(a, PlaceFeature)]
    if not places:
        return next((a for a in legal if isinstance(a, SkipFeature)), legal[0])
    plain = [a for a in places if a.halves and not a.blocks and not a.impassable] or places
    width = state.scenario.spec.width

    def key(a: PlaceFeature) -> tuple[float, float, float]:
        off_road = abs(a.centre[0] - width / 2)
        return (-round(off_road, 3), a.centre[1], a.centre[0])

    return min(plain, key=key)


def choose_seat(state: AnvilState, seat: int, legal: Sequence[Action]) -> Action:
    """The Seat of Power as near our own edge as allowed, then into the nearest corner."""
    places = [a for a in legal if isinstance(a, PlaceSeat)]
    if not places:
        return legal[0]
    spec = state.scenario.spec
    edge = 0.0 if seat == 0 else spec.height

    def key(a: PlaceSeat) -> tuple[float, float, float]:
        x, y = a.centre
        return (round(abs(y - edge), 3), round(min(x, spec.width - x), 3), x)

    return min(places, key=key)
