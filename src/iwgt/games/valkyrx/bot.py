"""A simple, deterministic Days of the Valkyrx bot: advance, charge when it pays, keep missiles at range,
cast the spell that pays best, send the Grima and the Sand Worm after the enemy unseen, and bring its late
troops on as soon as they may arrive (VX-15-24).

The bot learns about the battle only through ``observe``, exactly as a player does: a hidden enemy (the
Grima off the table, the Sand Worm underground) has no cell there and is ignored, and the enemy wizards'
held spells are never known. It asks ``legal_actions`` for its options and ``apply`` whether a planned move
is still legal (a pure call: the state is a value). Every choice is a fixed rule with fixed tie-breaks, so the
same position always gets the same answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from iwgt.core.errors import GameError
from iwgt.core.protocol import JSON, Seat
from iwgt.games.valkyrx.actions import (
    Action,
    AddTroops,
    CastSpell,
    ChooseSpells,
    Conceal,
    ConfirmDeployment,
    EndPhase,
    Move,
    SetQuarry,
    Surface,
    Transport,
    Tunnel,
)
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.spellbook import Spell, default_pack, spells, why_not_choose_spells
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.units import UnitType, unit_types
from iwgt.geometry.hexgrid import Hex, distance, offset_to_hex, within

CHARGE_WORTH = 0.5
"""Charge only an enemy whose value is at most twice ours (our value / theirs >= 0.5)."""
AVOID_RATIO = 0.25
"""Do not walk into contact with an enemy more than four times our value."""
LEADER_REACH = 3
"""Supreme Leaders and wizards stay within this many cells of as many friends as they can."""

WIZARD_STRIDE = 2
"""Cells an enemy wizard may close before he casts: Fire or Ice reach that much beyond their range."""
CAST_GAIN = 50.0
"""A spell is cast only if its estimated gain beats its price (a tenth of the wizard) by this many points."""
LASTING_PENALTY = 100.0
"""Price per remaining turn of the wizard's own spell in force, which a new cast ends (VX-SP-GEN-3)."""
ARMAGEDDON_DESPAIR = 0.25
"""Armageddon only when our army is worth less than this share of the enemy's (a draw beats a rout)."""
WORM_ALERT = 8
"""The Sand Worm burrows when an enemy comes this close."""
LAVA_DANGER = -500.0
"""Score of a cell the spreading lava will cover in this turn's spells step."""
PORTAL_PULL = 40.0
"""Score of our open portal's cell for a melee body unit still far from the enemy (then it is sent on)."""
EXPOSED_PENALTY = 20.0
"""Cost of ending the first movement phase where an enemy still to move can charge us (VX-04-19)."""
PLAN_ROUNDS = 3
"""Times the first mover's plan is made again with the enemies its last plan locks."""

PACK_DROP_ORDER = (
    "transportation", "shield", "fear", "speed", "courage", "lead_boots", "disharmony", "deny_magic",
    "earthquake", "weakness", "strength", "ice", "fire", "sleep", "command", "creeping_death", "plague",
    "resurrection", "cure_plague", "dismiss_dead", "armageddon",
)  # fmt: skip
"""Spells a Master gives up first to make room for the ones his enemy calls for (all 21 spells)."""


@dataclass(frozen=True, slots=True)
class _Seen:
    """A unit as the observation shows it, on the table (hidden ones are never ``_Seen``)."""

    id: int
    kind: UnitType
    commander: int
    cell: Hex
    value: float
    routed: bool
    airborne: bool
    strength: float = 1.0
    infected: bool = False
    can_charge: bool = False  # a ground unit that may declare a charge this turn (VX-04-14)


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
            return _arm(obs, seat)  # the scenario's placement is the bot's deployment
        if obs["phase"] == "spells":
            return _best_cast(obs, self.game.legal_actions(state, seat), seat)
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
        if _own_portals(obs, seat):  # a unit that stepped onto our portal is sent on (VX-SP-TRANSPORT-4)
            journey = _best_transport(obs, self.game.legal_actions(state, seat), seat)
            if journey is not None:
                return journey
        if _late_troops_due(obs, seat):  # last, once the units in front have cleared the entry cells
            arrival = best_arrival(obs, self.game.legal_actions(state, seat), seat)
            if arrival is not None:
                return arrival
        return EndPhase()

    def _make_plan(self, obs: JSON, legal: Sequence[Action], seat: Seat) -> list[Action]:
        sc = _scene(obs, seat)
        if not sc.enemies:
            return []
        plan, busy = _stealth_orders(obs, sc, legal)
        friends = {u.id: u for u in sc.friends}
        enemies = sc.enemies
        by_unit: dict[int, list[Move]] = {}
        for a in legal:
            if isinstance(a, Move) and not a.pray and a.unit not in busy and a.unit in friends:
                by_unit.setdefault(a.unit, []).append(a)
        cells = {friends[uid].cell for uid in by_unit} | {a.to for acts in by_unit.values() for a in acts}
        fld = _Field.of(enemies, sc.friends, sorted(cells), _lava_danger(obs), _own_portals(obs, seat))
        order = sorted(  # front units first, so the line advances without the rear blocking it
            by_unit, key=lambda uid: (min(distance(friends[uid].cell, e.cell) for e in enemies), uid)
        )
        moves = _plan_moves(order, by_unit, friends, fld)
        if obs["step"] == "player_1_move":
            # The enemy moves after us, before the combat: mind the charges it could still make. An enemy
            # our line ends beside is locked (VX-04-11) and charges no one, so the plan is made again with
            # the enemies the last plan leaves free, until it holds (a line that closes up together is safe
            # where a lone charger is not).
            free = tuple(e for e in enemies if e.can_charge and e.id not in sc.engaged)
            for _ in range(PLAN_ROUNDS):
                locked = _locked_by(moves, sc.friends, enemies)
                again = _plan_moves(order, by_unit, friends, replace(fld, chargers=_unlocked(free, locked)))
                if again == moves:
                    break
                moves = again
        return plan + moves


def _plan_moves(
    order: Sequence[int], by_unit: dict[int, list[Move]], friends: dict[int, _Seen], fld: _Field
) -> list[Action]:
    """Each unit's best move in turn (none when standing is as good), two never to the same cell."""
    plan: list[Action] = []
    taken: set[Hex] = set()
    for uid in order:
        me = friends[uid]
        best: tuple[float, int, Move] | None = None
        stay = _score(me, me.cell, fld, None, moved=False)
        for i, mv in enumerate(by_unit[uid]):
            if mv.to in taken:
                continue
            s = _score(me, mv.to, fld, mv, moved=True)
            if best is None or s > best[0]:
                best = (s, i, mv)
        if best is not None and best[0] > stay + 1e-9:
            plan.append(best[2])
            taken.add(best[2].to)
    return plan


def _locked_by(moves: Sequence[Action], friends: Sequence[_Seen], enemies: Sequence[_Seen]) -> frozenset[int]:
    """The enemy ground units beside one of our ground units once the planned moves are made (VX-04-11)."""
    ground = {f.id: (f.cell, f.airborne) for f in friends}
    for mv in moves:
        if isinstance(mv, Move) and mv.unit in ground:
            ground[mv.unit] = (mv.to, mv.airborne)
    ours = [cell for cell, airborne in ground.values() if not airborne]
    return frozenset(e.id for e in enemies if not e.airborne and any(distance(e.cell, c) == 1 for c in ours))


def _unlocked(chargers: Sequence[_Seen], locked: frozenset[int]) -> tuple[_Seen, ...]:
    return tuple(e for e in chargers if e.id not in locked)


# --- what the bot sees --------------------------------------------------------------------------------


def _see(u: JSON, turn: int) -> _Seen | None:
    """A unit on the table as seen, or None for one that is gone or hidden (no cell for the enemy)."""
    if u["status"] != "active" or u["hidden"] or u["cell"] is None:
        return None
    kind = unit_types()[u["type"]]
    value = kind.points * u["strength"] / u["start"]
    return _Seen(
        u["id"],
        kind,
        u["commander"],
        offset_to_hex(*u["cell"]),
        value,
        u["routed"],
        u["airborne"],
        u["strength"],
        bool(u.get("infected")),
        kind.charge is not None and not u["routed"] and not u["airborne"] and _rested(u, turn),
    )


def _rested(u: JSON, turn: int) -> bool:
    """Whether the unit's last charge lies far enough back for it to charge this turn (VX-04-14)."""
    last = u.get("last_charge")
    return last is None or turn - last >= rules_config().movement.charge_interval


@dataclass(frozen=True, slots=True)
class _Scene:
    """The observation digested once: who stands where, who fights, which spells are in force."""

    turn: int
    turn_limit: int
    seat: int
    friends: tuple[_Seen, ...]
    enemies: tuple[_Seen, ...]
    by_id: dict[int, _Seen]
    engaged: frozenset[int]
    shielded: frozenset[int]
    in_force: tuple[JSON, ...]
    wizards: dict[int, JSON]
    army_value: float
    assassin: bool = False  # the enemy has a Grima out of sight, hunting one of our characters

    def near_enemy(self, cell: Hex, reach: int) -> bool:
        return any(distance(cell, e.cell) <= reach for e in self.enemies)

    def near_friend(self, cell: Hex, reach: int, but: int) -> bool:
        return any(f.id != but and distance(cell, f.cell) <= reach for f in self.friends)


def _scene(obs: JSON, seat: Seat) -> _Scene:
    turn = obs["turn"]
    seen = [s for s in (_see(u, turn) for u in obs["units"]) if s is not None]
    # Spells still to run out, including those that start next turn (a waiting Armageddon, a Command).
    in_force = tuple(e for e in obs["spells_in_force"] if e["last"] >= turn)
    own = [u for u in obs["units"] if u["owner"] == seat and u["status"] in ("active", "reserve")]
    return _Scene(
        turn=turn,
        turn_limit=obs["turn_limit"],
        seat=seat,
        friends=tuple(s for s in seen if s.commander == seat),
        enemies=tuple(s for s in seen if s.commander != seat),
        by_id={s.id: s for s in seen},
        engaged=frozenset(x for c in obs["contacts"] for x in (c["a"], c["b"])),
        shielded=frozenset(
            uid for e in in_force if e["spell"] == "shield" and e["first"] <= turn for uid in e["units"]
        ),
        in_force=in_force,
        wizards={u["id"]: u for u in own if "spells" in u},
        # Our own hidden units count too: we know they are there; so do our late troops still to come.
        army_value=sum(unit_types()[u["type"]].points * u["strength"] / u["start"] for u in own),
        assassin=any(
            u["owner"] != seat
            and u["status"] == "active"
            and u["hidden"]
            and unit_types()[u["type"]].has("stealth")
            for u in obs["units"]
        ),
    )


def _cell_of(offset: Sequence[int]) -> Hex:
    return offset_to_hex(offset[0], offset[1])


def _own_portals(obs: JSON, seat: Seat) -> frozenset[Hex]:
    """Our portals open in this turn's movement phases (Transportation, VX-SP-TRANSPORT-2)."""
    carries = spells()["transportation"].carries or 0
    turn = obs["turn"]
    return frozenset(
        _cell_of(e["cells"][0])
        for e in obs["spells_in_force"]
        if e["spell"] == "transportation"
        and e["side"] == seat
        and e["first"] <= turn <= e["last"]
        and e["used"] < carries
        and e["cells"]
    )


def _lava_danger(obs: JSON) -> frozenset[Hex]:
    """Cells the Creeping Death lava covers when it spreads at the start of this turn's spells step."""
    turn = obs["turn"]
    out: set[Hex] = set()
    for e in obs["spells_in_force"]:
        if e["spell"] == "creeping_death" and e["cells"] and e["cast_turn"] < turn <= e["last"]:
            out.update(within(_cell_of(e["cells"][0]), turn - e["cast_turn"]))
    return frozenset(out)


# --- deployment: arming the wizards -------------------------------------------------------------------


def _arm(obs: JSON, seat: Seat) -> Action:
    """Give each unarmed wizard of ours his spells, one per call; then confirm the deployment."""
    types = unit_types()
    present = ("active", "reserve")  # late troops are known to both sides beforehand (VX-15-24)
    enemy_kinds = [types[u["type"]] for u in obs["units"] if u["owner"] != seat and u["status"] in present]
    for u in obs["units"]:
        if u["owner"] == seat and u["status"] in present and "spells" in u and not u["spells"]:
            return ChooseSpells(u["id"], choose_pack(types[u["type"]], enemy_kinds))
    return ConfirmDeployment()


def choose_pack(wizard: UnitType, enemy_kinds: Iterable[UnitType]) -> tuple[str, ...]:
    """The six spells for a wizard: ``()`` (his default pack) for a lesser wizard, or when nothing calls for
    a change; a Master trades his least useful spells (``PACK_DROP_ORDER``) for Dismiss Dead against undead
    and Cure Plague against Pocâdl or an enemy Master (who may hold Plague)."""
    if not wizard.has("master_wizard"):
        return ()
    kinds = list(enemy_kinds)
    needs = []
    if any(k.has("undead") for k in kinds):
        needs.append("dismiss_dead")
    if any(k.has("plague_bearer") or k.has("master_wizard") for k in kinds):
        needs.append("cure_plague")
    base = default_pack(wizard)
    pack = list(base)
    for need in needs:
        if need not in pack:
            drop = next(s for s in PACK_DROP_ORDER if s in pack and s not in needs)
            pack[pack.index(drop)] = need
    chosen = tuple(pack)
    if chosen == base or why_not_choose_spells(wizard, chosen, spells()) is not None:
        return ()
    return chosen


# --- the spells step ----------------------------------------------------------------------------------


def _best_cast(obs: JSON, legal: Sequence[Action], seat: Seat) -> Action:
    """The legal cast with the best estimated gain over its price, or EndPhase when none pays."""
    sc = _scene(obs, seat)
    denied = set(obs["denied"])  # a denied wizard's spell would fizzle this turn (VX-SP-DENY-2)
    best: tuple[float, CastSpell] | None = None
    for a in legal:
        if not isinstance(a, CastSpell) or a.unit in denied:
            continue
        net = cast_gain(a, sc) - _cast_price(a.unit, sc)
        if best is None or net > best[0]:
            best = (net, a)
    if best is None or best[0] <= CAST_GAIN:
        return EndPhase()
    return best[1]


def _cast_price(wizard: int, sc: _Scene) -> float:
    """A cast costs a tenth of the wizard (VX-11-04) and ends his spell still in force (VX-SP-GEN-3)."""
    me = sc.by_id.get(wizard)
    price = 0.0 if me is None else rules_config().magic.cast_cost * me.kind.points
    carries = spells()["transportation"].carries or 0
    for e in sc.in_force:
        if e["caster"] != wizard or (e["spell"] == "transportation" and e["used"] >= carries):
            continue
        if e["spell"] == "armageddon":
            return float("inf")  # never call off our own Armageddon
        price += LASTING_PENALTY * (e["last"] - sc.turn + 1)
    return price


def _odds(spell: Spell, u: _Seen) -> float:
    """The chance a hostile spell is not shrugged off (VX-SP-GEN-6)."""
    if not spell.resisted:
        return 1.0
    return 1.0 - rules_config().magic.resist_chance(u.kind.resist_magic) / 100.0


def _hurt(u: _Seen, damage: float) -> float:
    """Points of value a damage / defence score hit takes from a unit (VX-SP-FIRE-2)."""
    lost = min(u.strength, damage / u.kind.defence)
    return u.kind.points * lost / u.kind.bodies


def _immune(spell_id: str, t: UnitType) -> bool:
    """Units a hostile spell cannot touch by its nature, as the rules text says."""
    match spell_id:
        case "fear":
            return t.has("elf")
        case "fire":
            return t.has("flyer") and t.has("fire_weapon")
        case "ice":
            return t.has("flyer") and t.has("ice_weapon")
        case "disharmony":
            return t.is_character
        case "dismiss_dead":
            return not t.has("undead")
    return False


def _plague_proof(t: UnitType) -> bool:
    return any(t.has(x) for x in ("living_spirit", "elf", "undead"))


def cast_gain(cast: CastSpell, sc: _Scene) -> float:
    """A cheap estimate, in points of enemy value, of what a cast gains (negative: it hurts us)."""
    wiz = sc.by_id.get(cast.unit)
    if wiz is None:
        return float("-inf")
    spell = spells()[cast.spell]
    reach = spell.reach()

    def in_reach(u: _Seen) -> bool:
        return reach is None or distance(u.cell, wiz.cell) <= reach

    foes = [
        e for e in sc.enemies if in_reach(e) and e.id not in sc.shielded and not _immune(spell.id, e.kind)
    ]
    mates = [f for f in sc.friends if in_reach(f)]

    def hit(units: Iterable[_Seen], share: float) -> float:
        return share * sum(u.value * _odds(spell, u) for u in units)

    def fighting(u: _Seen, side: Sequence[_Seen]) -> bool:
        return u.id in sc.engaged or any(o.id != wiz.id and distance(u.cell, o.cell) <= 2 for o in side)

    match spell.id:
        case "fire" | "ice":
            damage = spell.damage or 0.0
            gain = sum(
                (u.value if spell.id == "fire" and u.kind.has("wickerwork") else _hurt(u, damage))
                * _odds(spell, u)
                for u in foes
            )
            return gain + _titan_bonus(spell, wiz, foes, sc)
        case "earthquake":
            damage = spell.damage or 0.0

            def quake(u: _Seen) -> float:
                h = _hurt(u, damage)
                return (h + 0.1 * (u.value - h)) * _odds(spell, u)

            return sum(quake(u) for u in foes) - sum(quake(u) for u in mates if u.id != wiz.id)
        case "sleep":
            return sum(u.value * _odds(spell, u) * (1.0 if u.id in sc.engaged else 0.05) for u in foes)
        case "fear":
            return hit(foes, 0.05)
        case "command":
            return hit(foes, 0.35)
        case "weakness":
            return hit((u for u in foes if fighting(u, sc.friends)), 0.2)
        case "lead_boots":
            return hit(foes, 0.1) + hit((u for u in foes if fighting(u, sc.friends)), 0.1)
        case "disharmony":
            return hit(foes, 0.25)
        case "dismiss_dead":
            return hit(foes, 1.0)
        case "strength" | "courage" | "speed":
            return _boost(spell.id, wiz, mates, sc)
        case "resurrection":
            return sum(
                u.kind.points * (1.0 - u.strength / u.kind.bodies) for u in mates if not u.kind.has("undead")
            )
        case "cure_plague":
            sick = [u for u in sc.friends + sc.enemies if in_reach(u) and u.infected]
            return sum(0.5 * u.value * (1 if u.commander == sc.seat else -1) for u in sick)
        case "deny_magic":
            return _deny_gain(cast.target, sc)
        case "shield":
            return 0.5 * wiz.value if _in_danger(wiz, sc) else 0.0
        case "plague":
            ours = [u for u in mates if u.id != wiz.id and not _plague_proof(u.kind) and not u.infected]
            theirs = [u for u in foes if not _plague_proof(u.kind) and not u.infected]
            if len(theirs) <= len(ours):
                return 0.0
            return 0.1 * (sum(u.value for u in theirs) - sum(u.value for u in ours))
        case "creeping_death":
            close = [e for e in sc.enemies if distance(e.cell, wiz.cell) <= 5]
            if not close:
                return 0.0
            prey = min(close, key=lambda e: (distance(e.cell, wiz.cell), e.id))
            burnt = [u for u in sc.enemies if distance(u.cell, prey.cell) <= 2]
            spared = [u for u in sc.friends if distance(u.cell, prey.cell) <= 2]
            return 0.25 * (sum(u.value for u in burnt) - sum(u.value for u in spared))
        case "transportation":
            return _portal_gain(cast.target, wiz, sc)
        case "armageddon":
            enemy_value = sum(e.value for e in sc.enemies)
            despair = sc.army_value < ARMAGEDDON_DESPAIR * enemy_value
            return 1e6 if despair and sc.turn < sc.turn_limit else float("-inf")
    return 0.0


def _in_danger(wiz: _Seen, sc: _Scene) -> bool:
    """Whether our wizard may come to harm that a Shield wards off (VX-SP-SHIELD-3): in the melee, within a
    move and a cast of an enemy wizard who may hold Fire or Ice, or, the most valuable of our characters,
    the likely quarry of an enemy Grima out of sight (VX-12-07)."""
    if wiz.id in sc.engaged or sc.near_enemy(wiz.cell, 1):
        return True
    reach = (spells()["fire"].reach() or 0) + WIZARD_STRIDE
    if any(_may_burn(e.kind) and distance(e.cell, wiz.cell) <= reach for e in sc.enemies):
        return True
    characters = [f for f in sc.friends if f.kind.is_character]
    return sc.assassin and max(characters, key=lambda f: (f.value, -f.id)).id == wiz.id


def _may_burn(kind: UnitType) -> bool:
    """Whether an enemy wizard may hold Fire or Ice: a Master chooses his six, a lesser wizard has his own."""
    if not kind.has("wizard"):
        return False
    return kind.has("master_wizard") or bool({"fire", "ice"} & set(default_pack(kind)))


def _titan_bonus(spell: Spell, wiz: _Seen, foes: Sequence[_Seen], sc: _Scene) -> float:
    """Fire then Ice in one turn cracks the Stone Titan (VX-SP-ICE-4)."""
    titans = [u for u in foes if u.kind.has("stone")]
    if not titans:
        return 0.0
    if spell.id == "ice":
        burnt = {uid for e in sc.in_force if e["spell"] == "fire" for uid in e["units"]}
        return sum(u.value * _odds(spell, u) for u in titans if u.id in burnt)
    # Fire: worth more if another wizard of ours can still throw Ice at the Titan this turn.
    icers = [
        sc.by_id[w]
        for w, view in sc.wizards.items()
        if w != wiz.id and w in sc.by_id and "ice" in view["spells"] and view["cast_turn"] != sc.turn
    ]
    return sum(
        0.5 * u.value * _odds(spell, u) for u in titans if any(distance(i.cell, u.cell) <= 5 for i in icers)
    )


def _boost(spell_id: str, wiz: _Seen, mates: Sequence[_Seen], sc: _Scene) -> float:
    """Strength, Courage, Speed: worth casting over several friends with the enemy near."""
    if sum(1 for u in mates if u.id != wiz.id) < 2 or not sc.near_enemy(wiz.cell, 8):
        return 0.0
    if spell_id == "speed":
        far = [u for u in mates if not sc.near_enemy(u.cell, 2)]
        return 0.05 * sum(u.value for u in far) if len(far) >= 2 else 0.0
    reach = 2 if spell_id == "strength" else 3
    close = [u for u in mates if u.id in sc.engaged or sc.near_enemy(u.cell, reach)]
    return (0.2 if spell_id == "strength" else 0.08) * sum(u.value for u in close)


DENY_WORTH = {
    "command": 0.35,
    "lead_boots": 0.15,
    "weakness": 0.15,
    "fear": 0.05,
    "strength": 0.1,
    "speed": 0.05,
    "courage": 0.05,
}
"""Share of the value of the units an enemy's lasting spell holds that ending it wins back."""


def _deny_gain(target: Hex | None, sc: _Scene) -> float:
    """Deny Magic pays when the enemy wizard it aims at has a lasting spell in force."""
    foe = next((e for e in sc.enemies if e.cell == target and e.kind.has("wizard")), None)
    if foe is None:
        return 0.0
    gain = 0.0
    for e in sc.in_force:
        if e["caster"] != foe.id:
            continue
        turns = e["last"] - sc.turn + 1
        held = sum(sc.by_id[u].value for u in e["units"] if u in sc.by_id)
        if e["spell"] == "armageddon":
            gain += 1e5
        elif e["spell"] == "creeping_death":
            gain += 400.0
        elif e["spell"] in ("transportation", "shield"):
            gain += 150.0
        else:
            gain += DENY_WORTH.get(e["spell"], 0.0) * held * turns
    return gain


def _portal_gain(target: Hex | None, wiz: _Seen, sc: _Scene) -> float:
    """Transportation, rarely: with the enemy still far off and melee units around to step through."""
    if target is None or sc.near_enemy(wiz.cell, 6) or sc.turn >= sc.turn_limit - 1:
        return 0.0
    walkers = [
        u
        for u in sc.friends
        if not u.kind.is_character and u.kind.range <= 1 and distance(u.cell, target) <= 3
    ]
    return 300.0 if len(walkers) >= 2 else 0.0


def _best_transport(obs: JSON, legal: Sequence[Action], seat: Seat) -> Transport | None:
    """Send a unit on our portal to the legal cell nearest the enemy's most valuable unit."""
    sc = _scene(obs, seat)
    journeys = [a for a in legal if isinstance(a, Transport)]
    if not journeys or not sc.enemies:
        return None
    prize = max(sc.enemies, key=lambda e: (e.value, -e.id))
    first = min(a.unit for a in journeys)
    return min(
        (a for a in journeys if a.unit == first), key=lambda a: (distance(a.to, prize.cell), a.to.r, a.to.q)
    )


# --- late troops -------------------------------------------------------------------------------------


def _late_troops_due(obs: JSON, seat: Seat) -> bool:
    """Whether a late troop of ours may come on this turn (the observation says so; no legal-action scan)."""
    turn = obs["turn"]
    return any(
        u["owner"] == seat and u["status"] == "reserve" and u["arrives"] is not None and u["arrives"] <= turn
        for u in obs["units"]
    )


def best_arrival(obs: JSON, legal: Sequence[Action], seat: Seat) -> AddTroops | None:
    """Bring on the first waiting late troop (by id) as soon as it may arrive (VX-15-24).

    A fighting unit comes on at the entry cell nearest the enemy; a missile unit, a wizard or a leader at
    the one nearest a friend, to stand behind the line. Never into the lava about to spread, nor the
    quicksand if there is any other cell; ties go to board order (row, then column).
    """
    arrivals = [a for a in legal if isinstance(a, AddTroops)]
    if not arrivals:
        return None
    sc = _scene(obs, seat)
    first = min(a.unit for a in arrivals)
    kind = unit_types()[next(u["type"] for u in obs["units"] if u["id"] == first)]
    danger = _lava_danger(obs)
    mire = {_cell_of(t["cell"]) for t in obs["board"]["terrain"] if t["kind"] == "quicksand"}
    support = kind.range > 1 or kind.has("wizard") or kind.has("supreme_leader")
    anchors = sc.friends if support and sc.friends else sc.enemies or sc.friends

    def key(a: AddTroops) -> tuple[bool, bool, int, int, int]:
        near = min((distance(a.to, u.cell) for u in anchors), default=0)
        row, col = a.to.r, a.to.q
        return (a.to in danger, a.to in mire, near, row, col)

    return min((a for a in arrivals if a.unit == first), key=key)


# --- the Grima and the Sand Worm ----------------------------------------------------------------------


def _stealth_orders(obs: JSON, sc: _Scene, legal: Sequence[Action]) -> tuple[list[Action], set[int]]:
    """Orders for our Grima and Sand Worm, and the units they keep busy (no ordinary move for them)."""
    orders: list[Action] = []
    busy: set[int] = set()
    types = unit_types()
    own = [
        u
        for u in obs["units"]
        if u["owner"] == sc.seat
        and u["status"] == "active"
        and (types[u["type"]].has("stealth") or types[u["type"]].has("burrower"))
    ]
    if not own:
        return orders, busy
    options = set(legal)
    for u in own:
        kind = types[u["type"]]
        if kind.has("stealth"):
            orders += _grima_orders(u, sc, options, busy)
        elif kind.has("burrower"):
            orders += _worm_orders(u, sc, legal, options, busy)
    return orders, busy


def _grima_orders(u: JSON, sc: _Scene, options: set[Action], busy: set[int]) -> list[Action]:
    """Name the most valuable enemy character her quarry and vanish; keep a quarry while hidden."""
    prey = [e for e in sc.enemies if e.kind.is_character]
    if not prey:
        return []
    best = max(prey, key=lambda e: (e.id not in sc.shielded, e.value, -e.id))
    orders: list[Action] = []
    quarry = u.get("quarry")
    if u["hidden"]:
        if quarry not in {e.id for e in prey}:  # none yet, or it left the table: a new one
            orders.append(SetQuarry(u["id"], best.id))
        return [a for a in orders if a in options]
    if quarry != best.id:
        orders.append(SetQuarry(u["id"], best.id))
    if Conceal(u["id"]) in options:
        orders.append(Conceal(u["id"]))
        busy.add(u["id"])
    return [a for a in orders if a in options]


def _worm_orders(
    u: JSON, sc: _Scene, legal: Sequence[Action], options: set[Action], busy: set[int]
) -> list[Action]:
    """Burrow when the enemy is near (or before the sun kills it); from below, come up under a prize."""
    uid = u["id"]
    if u["cell"] is None:
        return []
    here = _cell_of(u["cell"])
    if not u["hidden"]:
        alert = sc.near_enemy(here, WORM_ALERT)
        if (alert or u.get("surface_turns", 0) >= 1) and Conceal(uid) in options:
            busy.add(uid)
            return [Conceal(uid)]
        return []
    busy.add(uid)
    reach = rules_config().stealth.worm_tunnel

    def swallow(e: _Seen) -> float:  # a character whole, a body unit up to 100 men (VX-12-11)
        if e.kind.is_character:
            return e.value
        return e.kind.points * min(e.strength, rules_config().stealth.worm_swallow_men) / e.kind.bodies

    ground = [e for e in sc.enemies if not e.airborne]
    # The navigation die may bring it up beside the aimed cell: never aim next to a friend.
    safe = [e for e in ground if not sc.near_friend(e.cell, 1, uid)]
    prizes = [e for e in safe if distance(e.cell, here) <= reach]
    if prizes:
        prize = max(prizes, key=lambda e: (swallow(e), -distance(e.cell, here), -e.id))
        action: Action = Surface(uid, prize.cell)
        return [action] if action in options else []
    goals = safe or ground
    if not goals:
        return []
    goal = max(goals, key=lambda e: (swallow(e), -distance(e.cell, here), -e.id))
    tunnels = [a for a in legal if isinstance(a, Tunnel) and a.unit == uid]
    if not tunnels:
        return []
    return [min(tunnels, key=lambda a: (distance(a.to, goal.cell), a.to.r, a.to.q))]


# --- movement -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Field:
    """Hex distance from every cell to the nearest enemy, computed once per plan."""

    nearest: dict[Hex, int]
    enemies: Sequence[_Seen]
    friends: Sequence[_Seen]
    danger: frozenset[Hex] = frozenset()
    portals: frozenset[Hex] = frozenset()
    chargers: tuple[_Seen, ...] = ()  # enemies that move after us this turn and may charge

    def exposed(self, me: _Seen, cell: Hex) -> bool:
        """Whether an enemy still to move could charge us there: it would strike at x1.5, and beside another
        of its side at x1.5 again for the flank, while we stand locked (VX-04-11, VX-04-19, VX-04-22). An
        enemy already beside the cell is the one we mean to fight, not a new one."""
        return any(
            e.kind.charge is not None and 1 < distance(cell, e.cell) <= e.kind.charge + 1
            for e in self.chargers
        )

    @classmethod
    def of(
        cls,
        enemies: Sequence[_Seen],
        friends: Sequence[_Seen],
        cells: Sequence[Hex],
        danger: frozenset[Hex] = frozenset(),
        portals: frozenset[Hex] = frozenset(),
    ) -> _Field:
        nearest = {c: min(distance(c, e.cell) for e in enemies) for c in cells}
        return cls(nearest, enemies, friends, danger, portals)


def _score(me: _Seen, cell: Hex, field: _Field, mv: Move | None, *, moved: bool) -> float:
    """Higher is better. Distances are hex distances; the rules engine has already made every option legal."""
    t = me.kind
    d = field.nearest[cell]
    flying = mv.airborne if mv is not None else me.airborne
    if cell in field.danger and not flying and not (t.has("flyer") and t.has("fire_weapon")):
        return LAVA_DANGER  # the lava spreads over it in this turn's spells step
    if me.routed:
        return float(d)
    adjacent = [e for e in field.enemies if not e.airborne and distance(cell, e.cell) == 1] if d == 1 else []
    if t.has("supreme_leader") or t.has("wizard"):
        # Support: a leader's presence lifts morale within LEADER_REACH cells; keep out of the melee.
        if d <= 1:
            return -100.0
        near = sum(1 for f in field.friends if f.id != me.id and distance(cell, f.cell) <= LEADER_REACH)
        return 2.0 * near - abs(d - 3) - _exposure(me, cell, field, flying)
    if t.range > 1:  # missile unit: stay at range, move little, never into contact
        if adjacent:
            return -100.0
        in_range = sum(1 for e in field.enemies if distance(cell, e.cell) <= t.range) if d <= t.range else 0
        score = 10.0 * in_range - abs(d - t.range)
        if moved and in_range:
            score -= 5.0  # moving may cost this turn's volley (VX-04-07)
        return score - _exposure(me, cell, field, flying)
    if mv is not None and mv.airborne:  # flyer: swoop next to an enemy and attack from the air
        return 20.0 - d if d == 1 else -float(d)
    if cell in field.portals and moved and not t.is_character and d >= 3:
        return PORTAL_PULL  # then through our portal to the enemy (VX-SP-TRANSPORT-4)
    if adjacent:
        foe = max(adjacent, key=lambda e: e.value)
        if me.value < AVOID_RATIO * foe.value:
            return -50.0
        if field.exposed(me, cell):
            return -1.0 - EXPOSED_PENALTY  # moving first: the enemy would pile onto us with its charges
        if mv is not None and mv.charge:
            return 30.0 if me.value >= CHARGE_WORTH * foe.value else 5.0
        return 15.0
    # Moving first, a unit that cannot strike this turn waits out of the enemy's charge reach rather than
    # walk up to it and hand the enemy the charge.
    return -float(d) - _exposure(me, cell, field, flying)


def _exposure(me: _Seen, cell: Hex, field: _Field, flying: bool) -> float:
    """The cost of standing where an enemy still to move this turn could charge us (none in the air)."""
    return EXPOSED_PENALTY if not flying and field.exposed(me, cell) else 0.0


def bot_for(game: Any) -> HeuristicBot:
    """A heuristic bot for the Days of the Valkyrx game object."""
    if not isinstance(game, ValkyrxGame):
        raise TypeError("the heuristic bot plays Days of the Valkyrx only")
    return HeuristicBot(game)
