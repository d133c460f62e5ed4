"""Days of the Valkyrx at the table: section 14's lights, the cards of VX-15-07 and the report of VX-15-22.

Decisions (for docs/rules/valkyrx.md, section 14):

- **Only the seat's view.** ``lights``, ``report`` and ``cards`` read the seat's observation and the events it
  may see (the game's own event objects, matched by class), never the state. A unit whose observation is
  ``hidden`` never lights, not even for its owner: its piece is off the table, and a lit cell on a shared
  table would show every onlooker where it lurks (VX-12-06). A light needs a cell the observation gives;
  cells off the board never light.
- **Deployment** (VX-14-01): the deploying seat's zone, while that seat deploys, on its own screen and on a
  spectator's (the physical table's): the zone is scenario data, and the spectator's observation carries it.
- **Movable** (VX-14-02): the units ``options`` lists, on the seat's turn.
- **Morale** (VX-14-08, VX-14-09): every unit on the table at Weakened (yellow) or Critical (orange).
- **Enchanted** (VX-14-12): the units of every spell listed in force, in the shade of the caster's side; a
  spell cast for the following turns (Command, Speed) lights from its casting. The plague's first carrier
  is never among them (the engine lists no unit for Plague). **Command** (VX-SP-COMMAND-4): a unit whose
  commander is not its owner lights in its commander's team colour.
- **Lava** (VX-14-13) flickers on the cells covered this turn; **a portal** (VX-14-15) pulses from its
  casting until it has carried its three units or runs out.
- **Combat** (VX-14-04 to VX-14-07): missile fire flashes green on the firer and red on its target for
  ``COMBAT_MS``; units in close combat alternate green and red, for ``COMBAT_MS`` when they fight, and until
  the next view when contact is made (a deferred contact, which fights only next turn, does not light). The
  verdict (won green, lost red) and removals follow after ``COMBAT_MS`` and stay until the next view.
- **Removals** (VX-14-10): every unit removed (slain, fled, gone) flashes red at its last cell until the next
  view: its piece must come off the table. A hardware bridge may keep it lit until the piece is lifted.
- **Spell wave** (VX-14-11): from the wizard's cell, ring k lights at ``k * WAVE_RING_MS`` for
  ``WAVE_MS``, out to the spell's range. A "local" spell (Shield) lights the wizard's cell alone; an "all"
  spell (Armageddon) runs out to the farthest cell of the board. Spells hurting units flash them red.
- **Selection**: every legal action that puts the unit on a cell (a move, its placement in deployment, a
  journey through its side's portal); one light per destination cell, charge (amber) before walk (green)
  before flight (sky), a journey green, a placement white (``deploy``, VX-14-01, VX-15-04); the picked-up
  unit blue, and each enemy with a forecast amber (``preview``).
- **Forecasts** (``iwgt.games.valkyrx.forecast``): per enemy, the largest expected casualties over the
  unit's contact destinations (charge or walk, not a deferred contact), and its volley from where it stands;
  ``share`` is of the target's starting strength, as the health bar counts. A cast's ``attacker_losses`` are
  the expected casualties of friends it reaches (Earthquake), None for a spell that spares them; its price
  to the wizard is given apart as ``cost``.
- **Report** (VX-15-22): each army's strength is the points-weighted share of starting strength of all its
  units (removed ones at zero), from the ``CombatReport`` lines the seat sees. A character counts its points
  times its remaining share, as a body unit does. A hidden unit counts at the strength its line gives: the
  engine makes every unit's strength public (the line and the observation carry it, never a hidden cell),
  so the totals reveal nothing the lines do not. Raised dead may lift a share above 1.
- **Cards** (VX-15-07): every character; a yellow border when weakened (VX-15-15), orange when critical.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias

from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import (
    BASE,
    CYAN,
    DEEP_ORANGE,
    ORANGE,
    SKY,
    TEAM_DARK,
    TEAM_LIGHT,
    VIOLET,
    VIOLET_DARK,
    VIOLET_LIGHT,
    YELLOW,
    Cell,
    Effects,
    Light,
    colour,
    on_board,
)
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import Piece, Surface
from iwgt.core.table_kit import trial
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.actions import Action, CastSpell, Move, PlaceUnit, Transport
from iwgt.games.valkyrx.config import rules_config
from iwgt.games.valkyrx.forecast import Forecast, melee_forecast, missile_forecast, spell_forecast
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.movement import destinations, is_ground, why_not_move
from iwgt.games.valkyrx.scenario import SIDES
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.state import ValkyrxState
from iwgt.games.valkyrx.units import unit_types
from iwgt.games.valkyrx.words import Names, stealth_note
from iwgt.geometry.hexgrid import Hex, distance, hex_to_offset, neighbours, offset_to_hex, ring

COMBAT_MS: Final = 3000
"""How long the combat animation (fire, melee) runs before the verdict and the removals show."""
ILLEGAL_MS: Final = 2000
"""An illegal destination stays red this long (VX-14-03)."""
WAVE_RING_MS: Final = 150
"""A spell's wave reaches one ring further every this many milliseconds (VX-14-11)."""
WAVE_MS: Final = 600
"""How long each ring of a spell's wave stays lit."""

REACTS_TO: Final[tuple[type[Event], ...]] = (
    ev.AttackResolved,
    ev.ContactMade,
    ev.CloseCombatOutcome,
    ev.UnitRemoved,
    ev.SpellCast,
    ev.SpellCasualties,
    ev.LavaSpread,
    ev.CombatReport,
)
"""Every event class the adapter matches (lights, and the report): the tests hold each to being a class of
``iwgt.games.valkyrx.events`` and to lighting or reporting something."""

_BORDERS: Final = {"Weakened": "yellow", "Critical": "orange"}
_LEVEL_LIGHTS: Final = {"Weakened": "weakened", "Critical": "critical"}
_MOVE_RANK: Final = {"charge": 0, "destination": 1, "fly": 2, "deploy": 3}  # one light per destination cell


VALKYRX_EFFECTS: Final = BASE.extend(
    {
        "fly": SKY,
        "weakened": YELLOW,
        "critical": ORANGE,
        "spell_wave": VIOLET,
        "enchanted": VIOLET,  # a side's own shade below, when the side is known
        "enchanted_0": VIOLET_LIGHT,
        "enchanted_1": VIOLET_DARK,
        "command": TEAM_LIGHT,
        "command_0": TEAM_LIGHT,
        "command_1": TEAM_DARK,
        "lava": DEEP_ORANGE,
        "portal": CYAN,
    },
    (
        "deploy", "portal", "lava", "movable", "command", "enchanted", "weakened", "critical", "spell_wave",
        "destination", "fly", "charge", "preview", "selected", "melee", "firing", "under_fire", "won", "lost",
        "destroyed", "illegal",
    ),
)  # fmt: skip
"""The shared effects and Days of the Valkyrx's own (section 14), least urgent first."""

PALETTE: Final = VALKYRX_EFFECTS.palette
"""Effect -> colour for the hex table."""


def _cell(value: Any) -> Cell | None:
    """An odd-r cell from JSON, or None for anything else (a hidden unit's null cell)."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def _num(x: float) -> float:
    return float(round(x, 3))


def _jsonable(x: float) -> float:
    """A float as ``Event.to_json`` gives it (six decimals), so the report reads as it did from JSON."""
    return round(x, 6) if isinstance(x, float) else x


def _state(state: Any) -> ValkyrxState:
    if not isinstance(state, ValkyrxState):
        raise TypeError(f"the Days of the Valkyrx table needs a Valkyrx state, got {type(state).__name__}")
    return state


Placing: TypeAlias = Move | PlaceUnit | Transport
"""An action that puts a unit on a cell: what a piece lifted and put down on the table may order."""


def _move_kind(move: Placing) -> str:
    """The selection's ``kind`` of a move: walk, charge, fly, pray, deploy or transport."""
    if isinstance(move, PlaceUnit):
        return "deploy"
    if isinstance(move, Transport):
        return "transport"
    if move.pray:
        return "pray"
    if move.charge:
        return "charge"
    return "fly" if move.airborne else "walk"


class _Lighter:
    """Collects one view's lights, keeping only cells on the board and units the observation places."""

    def __init__(self, observation: JSON, palette: Mapping[str, str]) -> None:
        board = observation["board"]
        self.width, self.height = int(board["width"]), int(board["height"])
        self.units: dict[int, JSON] = {u["id"]: u for u in observation["units"]}
        self.palette = palette
        self.out: list[Light] = []

    def add(
        self,
        cell: Cell | None,
        effect: str,
        pattern: str,
        *,
        side: int | None = None,
        key: str | None = None,
        delay: int = 0,
        duration: int | None = None,
    ) -> None:
        if cell is None or not on_board(cell, self.width, self.height):
            return
        hue = colour(key or effect, self.palette, side)
        self.out.append(Light(cell, effect, hue, pattern, delay, duration))

    def unit_cell(self, uid: Any, *, active: bool = False) -> Cell | None:
        """Where a unit may light: a cell the observation gives, never a hidden unit's."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        if u is None or u.get("hidden") or (active and u.get("status") != "active"):
            return None
        return _cell(u.get("cell"))

    def melee(self, uid: Any, duration: int | None) -> None:
        cell = self.unit_cell(uid)
        self.add(cell, "melee", "alternate", duration=duration)
        self.add(cell, "melee", "alternate", key="melee_alt", duration=duration)


class ValkyrxAdapter:
    """The table adapter of Days of the Valkyrx; ``palette`` remaps the colours for a physical table."""

    effects: ClassVar[Effects] = VALKYRX_EFFECTS
    """The table's effects, least urgent first: a physical table orders its frame's lights by them."""

    def __init__(self, palette: Mapping[str, str] = PALETTE) -> None:
        self.palette = palette
        self._legal = LegalActions()

    # ---------------------------------------------------------------------------------------- lights

    def lights(
        self,
        observation: JSON,
        events: Sequence[Event],
        seat: Seat | None,
        *,
        movable: Sequence[int] = (),
    ) -> list[Light]:
        """Standing lights of the observation plus the transient lights of the last step's visible events."""
        lit = _Lighter(observation, self.palette)
        self._standing(lit, observation, seat, movable)
        self._transient(lit, observation, events)
        return VALKYRX_EFFECTS.ordered(lit.out)

    def _standing(self, lit: _Lighter, obs: JSON, seat: Seat | None, movable: Sequence[int]) -> None:
        deploying = obs.get("to_move")
        if obs.get("phase") == "deploy" and deploying is not None and seat in (None, deploying):
            for c in obs.get("deployment", []):  # a spectator's: the deploying seat's zone, public
                lit.add(_cell(c), "deploy", "steady")  # VX-14-01
        table = spells()
        for e in obs.get("spells_in_force", []):
            if e["spell"] == "transportation" and e["used"] < (table["transportation"].carries or 0):
                for c in e["cells"]:
                    lit.add(_cell(c), "portal", "pulse")  # VX-14-15
        for c in obs.get("lava", []):
            lit.add(_cell(c), "lava", "flicker")  # VX-14-13
        for uid in movable:
            lit.add(lit.unit_cell(uid, active=True), "movable", "steady")  # VX-14-02
        for u in lit.units.values():
            cell = lit.unit_cell(u["id"], active=True)
            if cell is not None and u["commander"] != u["owner"]:
                lit.add(cell, "command", "steady", side=u["commander"])  # VX-SP-COMMAND-4
        for e in obs.get("spells_in_force", []):
            for uid in e["units"]:
                lit.add(lit.unit_cell(uid, active=True), "enchanted", "steady", side=e["side"])  # VX-14-12
        for u in lit.units.values():
            effect = _LEVEL_LIGHTS.get(u.get("level", ""))
            if effect is not None:
                lit.add(lit.unit_cell(u["id"], active=True), effect, "steady")  # VX-14-08, VX-14-09

    def _transient(self, lit: _Lighter, obs: JSON, events: Sequence[Event]) -> None:
        fought = any(isinstance(e, ev.AttackResolved) for e in events)
        after = COMBAT_MS if fought else 0
        lava = {_cell(c) for c in obs.get("lava", [])}
        for e in events:
            match e:
                case ev.AttackResolved(mode="missile"):
                    lit.add(lit.unit_cell(e.attacker), "firing", "flash", duration=COMBAT_MS)  # VX-14-04
                    lit.add(lit.unit_cell(e.target), "under_fire", "flash", duration=COMBAT_MS)  # VX-14-05
                case ev.AttackResolved():
                    lit.melee(e.attacker, COMBAT_MS)  # VX-14-06
                    lit.melee(e.target, COMBAT_MS)
                case ev.ContactMade(deferred=False):
                    lit.melee(e.a, None)
                    lit.melee(e.b, None)
                case ev.CloseCombatOutcome():  # VX-14-07
                    lit.add(lit.unit_cell(e.winner), "won", "steady", delay=after)
                    lit.add(lit.unit_cell(e.loser), "lost", "steady", delay=after)
                case ev.UnitRemoved():  # VX-14-10: its last cell, until the next view
                    lit.add(lit.unit_cell(e.unit), "destroyed", "flash", delay=after)
                case ev.SpellCast():  # VX-14-11
                    self._wave(lit, e)
                case ev.SpellCasualties() if e.casualties > 0:
                    lit.add(lit.unit_cell(e.unit), "under_fire", "flash", duration=COMBAT_MS)
                case ev.LavaSpread():
                    for c in e.cells:
                        if _cell(c) not in lava:
                            lit.add(_cell(c), "lava", "flicker")
                case _:
                    pass

    def _wave(self, lit: _Lighter, cast: ev.SpellCast) -> None:
        """A spell's range, ring by ring from the wizard's cell: cells, never the units in them."""
        start = lit.unit_cell(cast.unit)
        if start is None:
            return
        spell = spells().get(cast.spell)
        reach: int | None = spell.reach() if spell is not None else cast.range
        centre = offset_to_hex(*start)
        if reach is None:  # "all": the whole battlefield
            reach = max(
                distance(centre, offset_to_hex(c, r)) for c in range(lit.width) for r in range(lit.height)
            )
        for k in range(reach + 1):
            for h in ring(centre, k):
                lit.add(hex_to_offset(h), "spell_wave", "wave", delay=k * WAVE_RING_MS, duration=WAVE_MS)

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """The destination of a refused placement, move, journey or worm order, lit red (VX-14-03)."""
        lit = _Lighter(observation, self.palette)
        for key in ("to", "at", "target"):
            lit.add(_cell(action.get(key)), "illegal", "steady", duration=ILLEGAL_MS)
        return lit.out

    # ------------------------------------------------------------------------------ physical table

    def surface(self, observation: JSON) -> Surface:
        """The board's cells: its columns and rows (odd-r offset, as the scenario files give them)."""
        board = observation["board"]
        return Surface("cells", int(board["width"]), int(board["height"]))

    def pieces(self, observation: JSON) -> list[Piece]:
        """The units standing on the board, from the observation: a unit in reserve, removed or hidden is
        never a piece (a hidden unit's miniature is off the table, even once the game's end shows its cell);
        ``seat`` is the unit's commander, the seat whose orders move it."""
        out = []
        for u in observation["units"]:
            cell = _cell(u.get("cell"))
            if cell is None or u.get("hidden") or u.get("status") != "active":
                continue
            out.append(Piece(int(u["id"]), cell, int(u["commander"]), str(u["name"])))
        return out

    # ------------------------------------------------------------------------ options and selection

    def options(self, game: AnyGame, state: Any, seat: Seat) -> JSON:
        """The units with a legal move (lit, VX-14-02) and every other legal action, from one call."""
        movable: dict[int, None] = {}  # a dict keeps the engine's order and drops repeats
        actions: list[JSON] = []
        for a in self._legal.get(game, state, seat):
            if isinstance(a, Move):
                movable.setdefault(a.unit)
            else:
                actions.append(game.action_to_json(a))
        return {"movable": list(movable), "actions": actions}

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked-up unit's legal moves and lights, and the expected casualties of its possible attacks.

        ``moves`` holds every legal action that puts the unit on a cell, ``{"to", "kind", "action"}`` with
        ``kind`` one of walk, charge, fly, pray (a move), deploy (its placement, VX-15-04) and transport (a
        journey through its portal, VX-SP-TRANSPORT): each cell's default first (the one its light shows), the
        one a physical table's bridge plays when the piece is put down there."""
        st = _state(state)
        out: JSON = {"type": "selection", "unit": unit_id, "moves": [], "lights": [], "previews": []}
        moves: list[Placing] = [
            a
            for a in self._legal.get(game, st, seat)
            if isinstance(a, Move | PlaceUnit | Transport) and a.unit == unit_id
        ]
        if 0 <= unit_id < len(st.units):
            note = self._note(game, st, seat, unit_id, moves)
            if note is not None:
                out["note"] = note  # always answered: a piece picked up with no move says why
        if not moves:
            return out  # not the seat's to move now, or no such unit: nothing lights
        unit = st.units[unit_id]
        moves = _default_first(moves)
        lights: dict[Hex, str] = {}
        for m in moves:
            effect = _move_effect(m)
            if m.to not in lights or _MOVE_RANK[effect] < _MOVE_RANK[lights[m.to]]:
                lights[m.to] = effect
        out["moves"] = [
            {"to": list(hex_to_offset(m.to)), "kind": _move_kind(m), "action": game.action_to_json(m)}
            for m in moves
        ]
        walks = [m for m in moves if isinstance(m, Move)]  # forecasts: a move's contacts, never a placement
        best = self._selection_forecasts(st, unit_id, walks) if walks else []
        lit = [Light(hex_to_offset(unit.cell), "selected", colour("selected", self.palette), "steady")]
        lit += [Light(hex_to_offset(c), e, colour(e, self.palette), "steady") for c, e in lights.items()]
        lit += [
            Light(hex_to_offset(f.cell), "preview", colour("preview", self.palette), "steady") for f in best
        ]
        out["lights"] = [x.to_json() for x in VALKYRX_EFFECTS.ordered(lit)]
        out["previews"] = [
            {"target": f.target, "cell": list(hex_to_offset(f.cell)), "expected": _expected_one(f)}
            for f in best
        ]
        return out

    def _note(
        self, game: AnyGame, st: ValkyrxState, seat: Seat, unit_id: int, moves: Sequence[Placing]
    ) -> str | None:
        """What the picked-up unit does by itself and what the seat may do (the Grima, the Sand Worm), where a
        portal may send it, or why it cannot move now; None for a unit with moves and nothing more to say
        (from its observation)."""
        obs = game.observe(st, seat)
        u = next((x for x in obs["units"] if x["id"] == unit_id), None)
        if u is None:
            return None
        note = stealth_note(u, Names(obs), seat)
        if moves and all(isinstance(m, Transport) for m in moves):
            gate = (
                f"{u['name']} stands on your portal: it may pass through to any lit cell (VX-SP-TRANSPORT)."
            )
            return gate if note is None else f"{note} {gate}"
        if moves or (note is not None and u.get("hidden")):
            return note  # a hidden unit's note says already why it takes no move
        if game.to_move(st) != seat:
            why = "it is not your turn to act"
        elif st.phase == "deploy" and st.units[unit_id].owner != seat:
            why = "it is not yours to place"
        elif st.phase == "deploy":
            why = why_not_move(st, st.units[unit_id], seat) or "no cell of your zone is free"
        elif st.phase != "movement":
            why = "units move in the movement phase"
        else:
            why = why_not_move(st, st.units[unit_id], seat) or "it has nowhere to go"
        told = f"{u['name']} cannot move now: {why}."
        return told if note is None else f"{note} {told}"  # the Grima just revealed: visible, moved

    def _selection_forecasts(self, st: ValkyrxState, unit_id: int, moves: Sequence[Move]) -> list[Forecast]:
        """Per visible enemy, the heaviest expected blow among the unit's contact moves and its volley."""
        unit = st.units[unit_id]
        occ = st.occupancy()  # units on the table only: a hidden unit is never a target
        foes = {
            n
            for u in occ.values()
            if u.commander != unit.commander and is_ground(u)
            for n in neighbours(u.cell)
        }
        ground = {(m.to, m.charge) for m in moves if not m.airborne and m.to in foes}
        dests = destinations(st, unit, occ) if ground else None
        found: list[Forecast] = []
        for to, charge in sorted(ground, key=lambda x: (st.scenario.board.index[x[0]], x[1])):
            assert dests is not None
            cost = (dests.charge if charge else dests.walk).get(to)
            found += melee_forecast(st, unit_id, to, charge=charge, cost=cost)
        found += missile_forecast(st, unit_id)
        best: dict[int, Forecast] = {}
        for f in found:
            if f.target not in best or f.casualties > best[f.target].casualties:
                best[f.target] = f
        return [best[k] for k in sorted(best)]

    # --------------------------------------------------------------------------------------- preview

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Legality by trying the action on the state (a value: nothing changes, no event leaves)."""
        st = _state(state)
        out: JSON = {"type": "preview", "legal": False, "reason": None, "expected": None}
        tried = trial(game, st, seat, action)
        if isinstance(tried, str):
            out["reason"] = tried
            return out
        parsed: Action = tried[0]  # the trial's state and events are dropped here
        out["legal"] = True
        out["expected"] = self._expected(st, parsed)
        return out

    def _expected(self, st: ValkyrxState, action: Action) -> JSON | None:
        match action:
            case Move(unit, to, charge, False, _):
                found = melee_forecast(st, unit, to, charge=charge)
                return _expected_many(found, sum(f.attacker_losses or 0.0 for f in found)) if found else None
            case CastSpell(unit, spell, target) if spells()[spell].damage is not None:
                side = st.units[unit].commander
                found = spell_forecast(st, unit, spell, target)
                foes = [f for f in found if st.units[f.target].commander != side]
                friends = [f for f in found if st.units[f.target].commander == side]
                spares = spells()[spell].affects != "all"
                out = _expected_many(foes, None if spares else sum(f.casualties for f in friends))
                out["friends"] = [_target_json(f) for f in friends]
                out["cost"] = rules_config().magic.cast_cost
                return out
        return None

    # ---------------------------------------------------------------------------------------- report

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """The health-bar report when the events hold the combat round's: ``{"type": "report", "turn",
        "armies": [{"seat", "side", "name", "points", "start_points", "share", "lost_this_turn"}],
        "lines": [one row per unit of the CombatReport, with its points and share]}``."""
        reports = [e for e in events if isinstance(e, ev.CombatReport)]
        if not reports:
            return None
        rep = reports[-1]
        types = unit_types()
        units = {u["id"]: u for u in observation["units"]}
        rows: list[JSON] = []
        start = [0.0] * len(SIDES)
        now = [0.0] * len(SIDES)
        lost = [0.0] * len(SIDES)
        for line in rep.lines:
            seat = SIDES.index(line.side)
            obs = units.get(line.unit)
            points = float(types[obs["type"]].points) if obs is not None else 0.0
            share = line.strength / line.start
            start[seat] += points
            now[seat] += points * share
            lost[seat] += points * line.casualties / line.start
            rows.append(
                {
                    "unit": line.unit,
                    "name": line.name,
                    "side": line.side,
                    "seat": seat,
                    "points": points,
                    "strength": _jsonable(line.strength),
                    "start": _jsonable(line.start),
                    "share": _num(share),
                    "casualties": _jsonable(line.casualties),
                    "level": line.level,
                    "status": line.status,
                    "infected": line.infected,
                }
            )
        armies = [
            {
                "seat": s,
                "side": SIDES[s],
                "name": ValkyrxGame.seat_names[s],
                "points": _num(now[s]),
                "start_points": _num(start[s]),
                "share": _num(now[s] / start[s]) if start[s] > 0 else 0.0,
                "lost_this_turn": _num(lost[s] / start[s]) if start[s] > 0 else 0.0,
            }
            for s in range(len(SIDES))
        ]
        return {"type": "report", "turn": rep.turn, "armies": armies, "lines": rows}

    # ----------------------------------------------------------------------------------------- cards

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """The character cards (VX-15-07) from the seat's observation: nothing it may not see."""
        types = unit_types()
        worm_limit = rules_config().stealth.worm_surface_turns
        names = Names(observation)
        out: list[JSON] = []
        for u in observation["units"]:
            t = types[u["type"]]
            if not t.is_character:
                continue
            active = u["status"] == "active"
            card: JSON = {
                "unit": u["id"],
                "type": u["type"],
                "name": u["name"],
                "side": SIDES[u["owner"]],
                "owner": u["owner"],
                "commander": u["commander"],
                "mine": seat is not None and u["owner"] == seat,
                "strength": u["strength"],
                "share": _num(u["strength"] / u["start"]),
                "level": u["level"],
                "status": u["status"],
                "border": _BORDERS.get(u["level"]) if active else None,  # VX-15-15
            }
            note = stealth_note(u, names, seat)
            if note is not None:
                card["note"] = note  # what the Grima or the worm does by itself, and what the owner may do
            if t.has("flyer"):
                card["flying"] = bool(u["airborne"])  # VX-15-09, VX-15-10: red wings aloft
            if t.has("stealth"):
                card["stealth"] = "hidden" if u["hidden"] else "visible"  # VX-15-16, VX-15-17
                if "quarry" in u:
                    card["quarry"] = u["quarry"]  # her owner's observation only (VX-12-05)
            if t.has("burrower"):
                card["worm"] = "underground" if u["hidden"] else "surface"  # VX-15-19, VX-15-20
                card["surface_moves_left"] = max(0, worm_limit - int(u.get("surface_turns", 0)))
            if t.has("wizard"):
                card["spells_left"] = u.get("spells_left", 0)
                if "spells" in u:
                    card["spells"] = list(u["spells"])  # held spells: the owner's secret
            out.append(card)
        return out


def _move_effect(move: Placing) -> str:
    """The light a move's destination shows (``_MOVE_RANK``'s keys): a placement lights its zone's cell
    (VX-14-01), a journey through the portal its cell green, where the piece goes."""
    if isinstance(move, PlaceUnit):
        return "deploy"
    if isinstance(move, Transport):
        return "destination"
    return "charge" if move.charge else "fly" if move.airborne else "destination"


def _default_rank(move: Placing) -> tuple[int, int, bool]:
    """The order of the moves to one cell: the kind its light shows (``_MOVE_RANK``), a move before a journey
    through the portal, a plain move before a prayer."""
    return (_MOVE_RANK[_move_effect(move)], isinstance(move, Transport), isinstance(move, Move) and move.pray)


def _default_first(moves: Sequence[Placing]) -> list[Placing]:
    """The moves grouped by cell (in the engine's order of first reaching it), the default first in each: the
    kind the cell's light shows (charge, then walk, then flight: ``_MOVE_RANK``), a move before a journey
    through the portal, and a plain move before a prayer at the Temple (praying is the player's choice on the
    touchscreen). A physical table's bridge plays the first move to the cell a piece is put on, so the piece
    does what the light promised."""
    cells: dict[Hex, list[Placing]] = {}
    for m in moves:
        cells.setdefault(m.to, []).append(m)
    return [m for group in cells.values() for m in sorted(group, key=_default_rank)]


def _target_json(f: Forecast) -> JSON:
    return {"target": f.target, "cell": list(hex_to_offset(f.cell)), **_expected_one(f)}


def _expected_one(f: Forecast) -> JSON:
    losses = None if f.attacker_losses is None else _num(f.attacker_losses)
    return {"casualties": _num(f.casualties), "share": _num(f.share), "attacker_losses": losses}


def _expected_many(found: Sequence[Forecast], losses: float | None) -> JSON:
    """Totals over several targets: ``share`` weighted by each target's points, as the report weighs."""
    types = unit_types()
    weights = [float(types[f.type_id].points) for f in found]
    total = sum(weights)
    share = sum(w * f.share for w, f in zip(weights, found, strict=True)) / total if total > 0 else 0.0
    return {
        "casualties": _num(sum(f.casualties for f in found)),
        "share": _num(share),
        "attacker_losses": None if losses is None else _num(losses),
        "targets": [_target_json(f) for f in found],
    }
