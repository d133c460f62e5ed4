"""Forged upon an Anvil at the table: lights on a free table in inches (trays lit as areas), options,
selections with their reach and targets, and the exact outcome of an engage, a shot or a spell before it is
confirmed.

Combat has no dice, so the table can say exactly what an order will do. Decisions (for docs/architecture.md):

- **Only the seat's view.** ``lights``, ``report`` and ``cards`` read the observation and the events the seat
  may see (matched by class): a sealed bid lights nothing and reports nothing until both are revealed.
- **Trays are lit as areas** (``Light.over_area``, the tray's four corners): a projector or an LED matrix
  shows the unit's footprint, its front included. Points (a move's end offered, a deploy spot) are spots.
- **Standing lights**: the units the seat may act with (``movable``), the active unit (``selected``), braced
  (``braced``) and transfixed (``transfixed``) units, and during an interruption prompt the two units of the
  paused combat (``melee``) and the unit that may interrupt (``interrupt``, pulsing).
- **Transient lights** of the last step: where a unit moved, deployed or was placed (``destination``); an
  engage (``charge`` on both trays); a combat alternating ``melee`` for ``COMBAT_MS``, then ``won``/``lost``;
  a shot ``firing``/``under_fire``; each bounce back's landing (``bounce``); a unit that could not bounce back
  (``lost``); a destroyed unit where it stood (``destroyed``); a spell's target (``spell``, a wave).
- **Options** add the table options: ``premeasure`` (FA-GN-09: off, the screen shows no distances, rings or
  reach, and the selection and previews carry none) and ``win`` (``general`` or ``seat``, FA-GN-06). Moves
  come with a selection; deployments, terrain pieces and Seats of Power are listed once per unit and edge,
  piece and rotation, or seat (the screen sends the point tapped, and the referee judges it).
- **Selection**: the picked unit's rings (its movement left, the Ballistics bands, 12" spell and 6" Steady
  ranges; the move ring round the centre, the ranges measured tray to tray so drawn from the tray's edge),
  its reach (the outline of the move points the rules offer), and every engage, shot, spell, Steady or
  champion target with its exact outcome (below).
- **Exact outcome** (``preview`` and each selection target's ``outcome``): the order is applied by the
  engine to the state (a value: nothing changes) and every interruption that follows is declined, so the
  outcome is what happens unless the enemy interrupts; each interruption the enemy could play is listed
  (``interruptions``) with the outcome if it does (``alternatives``). Nothing is re-implemented here:
  damage, destruction, excess movement, bounce backs, chains, all are read off the engine's own events.
  Without premeasuring, the outcome of an engage or a shot is the matrix's alone (``iwgt.games.anvil.matrix
  .resolve``, as if it reaches), with no distance, landing or chain (those would measure for the player).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from iwgt.core.errors import GameError
from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import BASE, CYAN, ORANGE, PURPLE, SKY, VIOLET, Effects, Light, Point, colour
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import Piece, Surface
from iwgt.core.table_kit import LightCollector, trial
from iwgt.core.table_kit import is_number as _num
from iwgt.core.table_kit import json_point as _point
from iwgt.core.table_kit import xy as _xy
from iwgt.games.anvil import actions as act
from iwgt.games.anvil import combat_events as ce
from iwgt.games.anvil import events as ev
from iwgt.games.anvil.words import AnvilWords, Names, sentence
from iwgt.geometry.reach import reach_outline

COMBAT_MS: Final = 3000
"""How long a combat's lights alternate before the verdict, the bounce backs and the removals show."""
ILLEGAL_MS: Final = 2000
"""A refused point or unit stays red this long."""
POINT_RADIUS: Final = 0.3
"""The radius of a point's spot (a move's end offered, a refused point), in inches."""
MAX_FOLLOW: Final = 24
"""The most interruption answers a preview follows (each combat of a chain may offer one or two)."""
REACH_SECTORS: Final = 24
"""Sectors round a unit in which the furthest offered move point outlines its reach."""

REACTS_TO: Final[tuple[type[Event], ...]] = (
    ev.UnitMoved,
    ev.UnitDeployed,
    ev.SeatPlaced,
    ev.FeaturePlaced,
    ce.EngageDeclared,
    ce.EngageStopped,
    ce.CombatResolved,
    ce.BouncedBack,
    ce.BounceBlocked,
    ce.UnitDestroyed,
    ce.HeroOfTheDay,
    ce.ExcessMove,
    ce.ChainCombat,
    ce.SpellCastEvent,
    ce.SpellDispelled,
    ce.UnitDamaged,
    ce.UnitHealed,
    ce.UnitPushed,
    ce.UnitTransfixed,
    ce.UnitSummoned,
    ce.ShotMissed,
)
"""Every event class the adapter lights or reports: the tests hold each to being a class of the game's
events and to lighting or reporting something."""

ANVIL_EFFECTS: Final = BASE.extend(
    {
        "aim": PURPLE,  # a unit the picked one may shoot at
        "braced": SKY,  # a Brace marker (FA-SC-02)
        "transfixed": VIOLET,  # a Transfixed marker (FA-SN-07)
        "bounce": CYAN,  # where a bounce back or a push lands
        "spell": VIOLET,  # a spell's target
        "interrupt": ORANGE,  # the unit that may interrupt now
        "reach": "#16a34a",  # the picked unit's reach (a dim green area)
    },
    (
        "deploy", "reach", "movable", "braced", "transfixed", "destination", "charge", "aim", "preview",
        "bounce", "selected", "interrupt", "melee", "firing", "under_fire", "spell", "won", "lost",
        "destroyed", "illegal",
    ),
)  # fmt: skip
"""The shared effects and the game's own, least urgent first."""

PALETTE: Final = ANVIL_EFFECTS.palette
"""Effect -> colour for the inch table."""

DEFAULT_TRAY: Final = (3.0, 1.5)
"""A tray's frontage and depth when the observation does not say (the rules' default, FA-GN-02)."""

TARGET_ACTIONS: Final = (act.Engage, act.Shoot, act.Cast, act.Steady, act.RaiseChampion)
"""The orders a selection lists as targets (a spell's every variant too)."""
ANSWERS: Final = (act.Interrupt, act.Decline)
"""An interruption's answers: their preview gives the outcome of the paused combat or spell either way."""
OUTCOME_ACTIONS: Final = (act.Engage, act.Shoot)
"""The targets a selection gives with their exact outcome at once (a combat's: the others, a spell's many
variants, come with the preview the screen asks for before Confirm)."""


# ------------------------------------------------------------------------------------------ small helpers


def _state(state: Any) -> Any:
    from iwgt.games.anvil.state import AnvilState

    if not isinstance(state, AnvilState):
        raise TypeError(f"the Forged upon an Anvil table needs its own state, got {type(state).__name__}")
    return state


def _corners(centre: Point, facing: float, frontage: float, depth: float) -> tuple[Point, ...]:
    """A tray's corners (the geometry's ``Tray.corners``: 0 = facing +y, counter-clockwise)."""
    from iwgt.geometry.trays import Tray

    return tuple(Tray(centre, facing, frontage, depth).corners())


def tray_size(observation: JSON) -> tuple[float, float]:
    """The tray's frontage and depth from the observation (``tray`` as [f, d] or an object, at the top or
    under ``table``)."""
    for t in (observation.get("tray"), (observation.get("table") or {}).get("tray")):
        if isinstance(t, list | tuple) and len(t) == 2 and all(_num(v) for v in t):
            return (float(t[0]), float(t[1]))
        if isinstance(t, dict):
            f, d = t.get("frontage", t.get("width")), t.get("depth")
            if _num(f) and _num(d):
                return (float(f), float(d))
    return DEFAULT_TRAY


def unit_tray(u: JSON) -> tuple[Point, float] | None:
    """A unit's tray in the observation as (centre, facing), or None (not on the table)."""
    t = u.get("tray")
    if isinstance(t, dict):
        c = _point(t.get("centre", t.get("at")))
        if c is not None:
            f = t.get("facing", 0.0)
            return c, float(f) if _num(f) else 0.0
    c = _point(u.get("centre", u.get("at")))
    if c is not None:
        f = u.get("facing", 0.0)
        return c, float(f) if _num(f) else 0.0
    return None


class _Lit(LightCollector):
    """Collects one view's lights: trays as areas, points as spots (the shared ``LightCollector``), only on
    the table (an inch of slack round it)."""

    def __init__(self, observation: JSON, palette: Mapping[str, str]) -> None:
        super().__init__(palette, POINT_RADIUS)
        table = observation.get("table") or {}
        self.width = float(table.get("width", 0) or 0)
        self.height = float(table.get("height", 0) or 0)
        self.frontage, self.depth = tray_size(observation)
        self.units: dict[int, JSON] = {
            u["id"]: u for u in observation.get("units", []) or [] if isinstance(u, dict) and "id" in u
        }

    def keeps(self, at: Point) -> bool:
        """Whether a point is on the table, an inch of slack round it (any point when the size is unknown)."""
        if self.width <= 0 or self.height <= 0:
            return True
        return -1 <= at[0] <= self.width + 1 and -1 <= at[1] <= self.height + 1

    def tray_at(
        self, centre: Point | None, facing: float, effect: str, pattern: str = "steady", **kw: Any
    ) -> None:
        """A tray (the observation's size) centred at ``centre`` facing ``facing``, when on the table."""
        if centre is None or not self.keeps(centre):
            return
        self.area(_corners(centre, facing, self.frontage, self.depth), effect, pattern, **kw)

    def where(self, uid: Any) -> tuple[Point, float] | None:
        """A unit's tray as (centre, facing), or None (unknown, or off the table)."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        return None if u is None else unit_tray(u)

    def unit(self, uid: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """A unit's tray where the observation has it."""
        w = self.where(uid)
        if w is not None:
            self.tray_at(w[0], w[1], effect, pattern, **kw)

    def facing(self, uid: Any) -> float:
        """A unit's facing in degrees (0 when unknown)."""
        w = self.where(uid)
        return 0.0 if w is None else w[1]


# ------------------------------------------------------------------------------------------ the adapter


class AnvilAdapter:
    """The table adapter of Forged upon an Anvil; ``palette`` remaps the colours for a physical table."""

    effects: ClassVar[Effects] = ANVIL_EFFECTS
    """The table's effects, least urgent first: a physical table orders its frame's lights by them."""

    def __init__(self, palette: Mapping[str, str] = PALETTE) -> None:
        self.palette = palette
        self.words = AnvilWords()
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
        """Standing lights of the observation plus the transient lights of the last step's events."""
        lit = _Lit(observation, self.palette)
        for uid in movable:
            lit.unit(uid, "movable")
        activation = observation.get("activation")
        if isinstance(activation, dict):
            lit.unit(activation.get("unit"), "selected")
        for u in lit.units.values():
            if u.get("destroyed"):
                continue
            if u.get("braced"):
                lit.unit(u["id"], "braced")
            if u.get("transfixed"):
                lit.unit(u["id"], "transfixed")
        pending = observation.get("interruption")
        if isinstance(pending, dict):
            for key in ("attacker", "defender", "caster", "target"):
                if isinstance(pending.get(key), int):
                    lit.melee(pending[key], None)
            lit.unit(pending.get("unit"), "interrupt", "pulse")
        self._transient(lit, events)
        return ANVIL_EFFECTS.ordered(lit.out)

    def _transient(self, lit: _Lit, events: Sequence[Event]) -> None:
        fought = any(isinstance(e, ce.CombatResolved) for e in events)
        after = COMBAT_MS if fought else 0
        for e in events:
            match e:
                case ev.UnitMoved():
                    if e.path:
                        lit.tray_at(_point(e.path[-1]), e.facing, "destination")
                case ev.UnitDeployed():
                    lit.tray_at(_point(e.centre), e.facing, "destination")
                case ev.SeatPlaced():
                    lit.tray_at(_point(e.centre), e.facing, "destination")
                case ev.FeaturePlaced():
                    if len(e.outline) >= 3:
                        lit.area(e.outline, "destination")
                case ce.EngageDeclared():
                    lit.tray_at(_point(e.end), lit.facing(e.attacker), "charge", "flash", duration=COMBAT_MS)
                    lit.unit(e.defender, "charge", "flash", duration=COMBAT_MS)
                case ce.EngageStopped():
                    lit.tray_at(_point(e.at), lit.facing(e.attacker), "destination")
                case ce.CombatResolved():
                    if e.ballistics:
                        lit.unit(e.attacker, "firing", "flash", duration=COMBAT_MS)
                        lit.unit(e.defender, "under_fire", "flash", duration=COMBAT_MS)
                    else:
                        lit.melee(e.attacker, COMBAT_MS)
                        lit.melee(e.defender, COMBAT_MS)
                    if e.damage:
                        lit.unit(e.defender, "lost", delay=after)
                    if e.counter_damage:
                        lit.unit(e.attacker, "lost", delay=after)
                    elif e.damage:
                        lit.unit(e.attacker, "won", delay=after)
                case ce.BouncedBack() | ce.UnitPushed():
                    lit.tray_at(_point(e.end), lit.facing(e.unit), "bounce", delay=after)
                case ce.BounceBlocked():
                    lit.unit(e.unit, "lost", delay=after)
                case ce.HeroOfTheDay():
                    lit.unit(e.unit, "won", delay=after)
                case ce.UnitDestroyed():
                    lit.unit(e.unit, "destroyed", "flash", delay=after)
                case ce.UnitSummoned():
                    lit.tray_at(_point(e.at), e.facing, "destination")
                case ce.SpellCastEvent():
                    lit.unit(e.caster, "spell", "wave", duration=COMBAT_MS)
                    lit.unit(e.target, "spell", "wave", duration=COMBAT_MS)
                case ce.UnitTransfixed():
                    lit.unit(e.unit, "transfixed", delay=after)
                case ce.UnitDamaged():
                    lit.unit(e.unit, "lost", delay=after)
                case ce.UnitHealed():
                    lit.unit(e.unit, "won")
                case _:
                    pass

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """A refused order's point red for ``ILLEGAL_MS`` (a move's end, a deploy spot, a feature's or a
        Seat's centre, a summoned Troop's point); else the unit it named as its target."""
        lit = _Lit(observation, self.palette)
        path = action.get("path")
        p: Point | None = None
        if isinstance(path, list) and path:
            p = _point(path[-1])
        for key in ("centre", "point"):
            p = p or _point(action.get(key))
        if p is None and action.get("type") == "deploy":
            x, y = action.get("x"), action.get("y")
            if _num(x) and _num(y):
                p = (float(x), float(y))
            elif _num(x):
                p = (float(x), 0.0 if observation.get("seat") != 1 else lit.height)
        if p is not None:
            lit.spot(p, "illegal", duration=ILLEGAL_MS, radius=max(POINT_RADIUS, lit.depth / 2))
        else:
            lit.unit(action.get("target"), "illegal", duration=ILLEGAL_MS)
        return lit.out

    # ------------------------------------------------------------------------------ physical table

    def surface(self, observation: JSON) -> Surface:
        """The free table in inches (the observation's table size), which a physical table scales to fit."""
        table = observation["table"]
        return Surface("inches", float(table["width"]), float(table["height"]))

    def pieces(self, observation: JSON) -> list[Piece]:
        """None: sensors under a free table are too coarse to place a unit to the inch (units move on the
        touchscreen; the table only lights)."""
        return []

    # ------------------------------------------------------------------------ options and selection

    def options(self, game: AnyGame, state: Any, seat: Seat) -> JSON:
        """The units with a legal order now (lit), every other legal action but the moves (whose points come
        with a selection) and one of each kind of placement, and the table options."""
        st = _state(state)
        movable: dict[int, None] = {}
        actions: list[JSON] = []
        seen: set[tuple[Any, ...]] = set()
        for a in self._legal.get(game, st, seat):
            uid = getattr(a, "unit", None)
            if isinstance(uid, int) and isinstance(a, act.Activate | act.Deploy | act.Move):
                movable.setdefault(uid)
            if isinstance(a, act.Move):
                continue
            key: tuple[Any, ...] | None = None
            if isinstance(a, act.Deploy):
                key = ("deploy", a.unit, a.edge)
            elif isinstance(a, act.PlaceFeature):
                key = ("place_feature", a.piece, a.rotation)
            elif isinstance(a, act.PlaceSeat):
                key = ("place_seat",)
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
            actions.append(game.action_to_json(a))
        return {
            "movable": sorted(movable),
            "actions": actions,
            "premeasure": st.options.premeasure,
            "win": st.options.win,
        }

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked unit: its rings and reach (premeasuring on), the move points offered, its deploy points,
        and every target with the exact outcome of the order."""
        st = _state(state)
        out: JSON = {
            "type": "selection",
            "unit": unit_id,
            "moves": [],
            "deploy": [],
            "zones": [],
            "reach": [],
            "targets": [],
            "rings": [],
            "lights": [],
        }
        if not isinstance(unit_id, int) or not 0 <= unit_id < len(st.units):
            return out
        u = st.units[unit_id]
        measured = st.options.premeasure
        lit: list[Light] = []
        if u.tray is not None and not u.destroyed:
            hue = colour("selected", self.palette)
            lit.append(Light.over_area(u.tray.corners(), "selected", hue, "steady"))
            if measured:
                out["rings"] = self._rings(st, u)
        moves: list[act.Move] = []
        edges: set[str] = set()
        for a in self._legal.get(game, st, seat):
            if getattr(a, "unit", None) != unit_id:
                continue
            if isinstance(a, act.Move):
                moves.append(a)
            elif isinstance(a, act.Deploy):
                edges.add(a.edge)
                at = _deploy_point(st, a)
                out["deploy"].append(
                    {"edge": a.edge, "at": _xy(at) if at else None, "action": game.action_to_json(a)}
                )
            elif isinstance(a, TARGET_ACTIONS):
                target = getattr(a, "target", None)
                kind = _kind(a)
                entry: JSON = {
                    "target": target,
                    "kind": kind,
                    "action": game.action_to_json(a),
                    "outcome": self._outcome(game, st, seat, a) if isinstance(a, OUTCOME_ACTIONS) else None,
                }
                if isinstance(target, int) and st.units[target].tray is not None:
                    t = st.units[target].tray
                    entry["at"] = _xy(t.centre)
                    effect = {"shoot": "aim", "engage": "charge"}.get(
                        kind, "spell" if kind == "cast" else "preview"
                    )
                    lit.append(Light.over_area(t.corners(), effect, colour(effect, self.palette), "steady"))
                out["targets"].append(entry)
        out["zones"] = deploy_zones(st, u.seat, sorted(edges), measured)
        hue = colour("deploy", self.palette)
        lit += [Light.over_area(z["outline"], "deploy", hue, "steady") for z in out["zones"]]
        if measured:
            out["moves"] = [
                {"to": _xy(m.path[-1]), "facing": m.facing, "action": game.action_to_json(m)}
                for m in moves
                if m.path
            ]
            if u.tray is not None:
                ends = [m.path[-1] for m in moves if m.path]
                out["reach"] = _reach(u.tray.centre, ends)
                if len(out["reach"]) >= 3:
                    hue = colour("reach", self.palette)
                    lit.append(Light.over_area([tuple(p) for p in out["reach"]], "reach", hue, "steady"))
            hue = colour("destination", self.palette)
            lit += [
                Light.spot(m.path[-1], POINT_RADIUS, "destination", hue, "steady") for m in moves if m.path
            ]
        out["lights"] = [x.to_json() for x in ANVIL_EFFECTS.ordered(lit)]
        return out

    def _rings(self, st: Any, u: Any) -> list[JSON]:
        """The circles the screen draws round a picked unit: its movement (from its centre: a move is
        measured by the centre), and its ranges measured tray to tray (drawn from the centre, half the tray's
        diagonal further out: a tray touching the ring may be in range, the table judges)."""
        from iwgt.games.anvil.rules import rules

        r = rules()
        c = r.constants
        tray = u.tray
        centre = _xy(tray.centre)
        half = math.hypot(tray.frontage, tray.depth) / 2
        rings: list[JSON] = []
        allowance = _allowance(st, u)
        if allowance > 0:
            rings.append(
                {"kind": "move", "at": centre, "radius": round(allowance, 2), "label": f'{allowance:g}" move'}
            )
        if u.has("shooter"):
            for kind, d in (
                ("rear", c.ballistics_rear),
                ("flank", c.ballistics_flank),
                ("front", c.ballistics_front),
            ):
                rings.append(
                    {
                        "kind": f"shoot_{kind}",
                        "at": centre,
                        "radius": round(d + half, 2),
                        "label": f'{d:g}" {kind}',
                    }
                )
        spells = [s for s in r.group("spell") if u.type in s.users and s.range is not None]
        if spells:
            reach = max(s.range or 0.0 for s in spells)
            rings.append(
                {
                    "kind": "spell",
                    "at": centre,
                    "radius": round(reach + half, 2),
                    "label": f'{reach:g}" spells',
                }
            )
        if u.general:
            steady = r.stratagems.get("steady")
            if steady is not None and steady.range is not None:
                rings.append(
                    {
                        "kind": "steady",
                        "at": centre,
                        "radius": round(steady.range + half, 2),
                        "label": f'{steady.range:g}" Steady',
                    }
                )
        return rings

    # --------------------------------------------------------------------------------------- preview

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Whether the action is legal now (and why not); for a move its cost, and for an engage, a shot, a
        spell, Steady or a champion its exact outcome (``outcome``)."""
        st = _state(state)
        out: JSON = {"type": "preview", "legal": False, "reason": None, "expected": None, "outcome": None}
        tried = trial(game, st, seat, action)  # a trial on a value: the state is untouched
        if isinstance(tried, str):
            out["reason"] = tried
            return out
        parsed, after, events = tried
        out["legal"] = True
        if isinstance(parsed, act.Move) and st.options.premeasure:
            moved = [e for e in events if isinstance(e, ev.UnitMoved)]
            if moved:
                out["cost"] = round(sum(e.cost for e in moved), 2)
                out["allowance_left"] = round(moved[-1].allowance_left, 2)
        if isinstance(parsed, (*TARGET_ACTIONS, *ANSWERS)):
            out["outcome"] = self._outcome(game, st, seat, parsed, (after, events))
            out["lights"] = [x.to_json() for x in self._outcome_lights(st, out["outcome"])]
        return out

    def _outcome_lights(self, st: Any, outcome: JSON | None) -> list[Light]:
        """Where an outcome puts trays, for a physical table before Confirm: the attacker's contact position
        (``preview``), each bounce back's landing (``bounce``) and each unit it destroys (``destroyed``)."""
        if not outcome or not outcome.get("measured"):
            return []
        frontage, depth = st.scenario.spec.tray
        out: list[Light] = []

        def tray_light(centre: Any, facing: float, effect: str) -> None:
            p = _point(centre)
            if p is not None:
                hue = colour(effect, self.palette)
                out.append(Light.over_area(_corners(p, facing, frontage, depth), effect, hue, "steady"))

        contact = outcome.get("contact")
        if isinstance(contact, dict) and _num(contact.get("facing")):
            tray_light(contact.get("centre"), float(contact["facing"]), "preview")
        for b in outcome.get("bounces", []):
            unit = st.units[b["unit"]] if 0 <= b["unit"] < len(st.units) else None
            if unit is not None and unit.tray is not None:
                tray_light(b["to"], unit.tray.facing, "bounce")
        for uid in outcome.get("units_destroyed", []):
            unit = st.units[uid] if 0 <= uid < len(st.units) else None
            if unit is not None and unit.tray is not None:
                out.append(
                    Light.over_area(
                        unit.tray.corners(), "destroyed", colour("destroyed", self.palette), "flash"
                    )
                )
        return ANVIL_EFFECTS.ordered(out)

    def _outcome(
        self,
        game: AnyGame,
        st: Any,
        seat: Seat,
        action: Any,
        tried: tuple[Any, list[Event]] | None = None,
    ) -> JSON | None:
        """The exact outcome of an order, or None if the engine refuses it (see the module's docstring)."""
        if not st.options.premeasure and isinstance(action, act.Engage | act.Shoot):
            return matrix_outcome(st, action)
        try:
            after, events = tried if tried is not None else game.apply(st, action)
        except GameError:
            return None
        return follow(game, st, after, list(events), seat)

    # ---------------------------------------------------------------------------------------- report

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """The combat report of the last step (None when it had no combat, shot or spell): each combat with
        its damage and HP left, each bounce back with its landing, the units destroyed, and every line in
        the game's words: ``{"type": "report", "turn", "combats", "bounces", "destroyed", "lines"}``."""
        summary = summarise(events, Names(observation))
        if not summary["combats"] and not summary["spells"] and not summary["destroyed"]:
            return None
        return {"type": "report", "turn": observation.get("turn"), **summary}

    # ----------------------------------------------------------------------------------------- cards

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """One card per side: its name, CP left this turn, the units on the table and their HP, the units
        still to deploy, and whether the card is the seat's own."""
        names = Names(observation)
        sides = [s for s in observation.get("sides", []) or [] if isinstance(s, dict)]
        out: list[JSON] = []
        for side in (0, 1):
            info = sides[side] if side < len(sides) else {}
            mine = [
                u for u in observation.get("units", []) or [] if isinstance(u, dict) and u.get("seat") == side
            ]
            on = [u for u in mine if unit_tray(u) is not None and not u.get("destroyed")]
            out.append(
                {
                    "seat": side,
                    "name": names.side(side),
                    "mine": seat == side,
                    "cp": info.get("cp"),
                    "bid": info.get("bid"),
                    "limit": info.get("limit"),
                    "on_table": len(on),
                    "hp": sum(int(u.get("hp", 0) or 0) for u in on),
                    "to_deploy": sum(1 for u in mine if unit_tray(u) is None and not u.get("destroyed")),
                    "destroyed": sum(1 for u in mine if u.get("destroyed")),
                }
            )
        return out


# ------------------------------------------------------------------------------------------ outcomes


def _kind(a: Any) -> str:
    """A target order's kind as the selection lists it."""
    return {
        act.Engage: "engage",
        act.Shoot: "shoot",
        act.Cast: "cast",
        act.Steady: "steady",
        act.RaiseChampion: "champion",
    }.get(type(a), "act")


def _allowance(st: Any, u: Any) -> float:
    """The picked unit's movement left: the activation's, else its Move for a next activation."""
    if st.activation is not None and st.activation.unit == u.id:
        return float(st.activation.allowance)
    from iwgt.games.anvil.army import move_allowance

    try:
        return float(move_allowance(u))
    except (AttributeError, KeyError, TypeError):
        return 0.0


def _deploy_point(st: Any, a: Any) -> Point | None:
    """Where a deployment's tray centre comes on, as far as the action says (the engine places it)."""
    width, height = st.scenario.spec.width, st.scenario.spec.height
    depth = st.scenario.spec.tray[1]
    seat = st.units[a.unit].seat
    if a.edge == "own" and a.x is not None:
        return (a.x, depth / 2 if seat == 0 else height - depth / 2)
    if a.edge == "left" and a.y is not None:
        return (depth / 2, a.y)
    if a.edge == "right" and a.y is not None:
        return (width - depth / 2, a.y)
    if a.x is not None and a.y is not None:
        return (a.x, a.y)
    return None


def deploy_zones(st: Any, seat: int, edges: Sequence[str], measured: bool) -> list[JSON]:
    """Where a unit may come on, as areas a tray deep: along its own edge (FA-DP-01), and with Flanking
    along a side edge up to 2/3 of the table's depth from its own edge (FA-SD-02; that reach is a distance,
    so only when premeasuring). Infiltrate's whole table is not drawn."""
    from iwgt.games.anvil.rules import rules

    spec = st.scenario.spec
    w, h, d = float(spec.width), float(spec.height), float(spec.tray[1])
    reach = h * rules().constants.flanking_fraction
    lo, hi = (0.0, reach) if seat == 0 else (h - reach, h)
    out: list[JSON] = []
    for edge in edges:
        if edge == "own":
            y0, y1 = (0.0, d) if seat == 0 else (h - d, h)
            box = [(0.0, y0), (w, y0), (w, y1), (0.0, y1)]
        elif edge in ("left", "right") and measured:
            x0, x1 = (0.0, d) if edge == "left" else (w - d, w)
            box = [(x0, lo), (x1, lo), (x1, hi), (x0, hi)]
        else:
            continue
        out.append({"edge": edge, "outline": [_xy(p) for p in box]})
    return out


def _reach(
    start: Point, points: Sequence[Sequence[float]], sectors: int = REACH_SECTORS
) -> list[list[float]]:
    """The outline of a unit's reach: the hull of the furthest offered point in each sector round it (an
    outline to draw: any point the rules accept may still be tapped)."""
    return [_xy(p) for p in reach_outline(start, points, sectors)]


def follow(
    game: AnyGame, before: Any, after: Any, events: list[Event], seat: Seat, *, branch: bool = True
) -> JSON:
    """The outcome of an order already tried: every interruption that follows declined (the engine's own
    ``decline``), each one offered listed, and (``branch``) for each of them the outcome if it alone is
    played (``alternatives``; ``if_interrupted`` is the first's)."""
    offers: list[JSON] = []
    alternatives: list[JSON] = []
    state = after
    for _ in range(MAX_FOLLOW):
        pending = getattr(state, "pending", None)
        if pending is None or game.to_move(state) != pending.seat:
            break
        offers.append({"seat": pending.seat, "key": pending.kind, "unit": pending.unit})
        if branch:
            try:
                alt, alt_events = game.apply(state, act.Interrupt(pending.kind, pending.unit))
            except GameError:
                pass
            else:
                played = follow(game, before, alt, [*events, *alt_events], seat, branch=False)
                alternatives.append(
                    {**played, "key": pending.kind, "unit": pending.unit, "seat": pending.seat}
                )
        try:
            state, more = game.apply(state, act.Decline())
        except GameError:
            break
        events = [*events, *more]
    names = Names(game.observe(state, seat))
    out = summarise(events, names)
    first = out["combats"][0] if out["combats"] else None
    mover_units = {u.id for u in before.units if u.seat == seat}
    attacker = first["attacker"] if first else None
    defender = first["defender"] if first else None
    destroyed = set(out["destroyed"])
    result: JSON = {
        **out,
        "measured": True,
        "damage": first["damage"] if first else None,
        "side": first["side"] if first else None,
        "counter_damage": first["counter_damage"] if first else None,
        "hp_left": first["defender_hp"] if first else None,
        "destroyed": defender in destroyed if first else False,
        "attacker_destroyed": attacker in destroyed if first else False,
        "excess_move": out["excess"],
        "bounce_back": _who_bounced(out, attacker, defender),
        "units_destroyed": sorted(destroyed),
        "losses": sorted(destroyed & mover_units),
        "interruptions": offers,
        "alternatives": alternatives,
        "if_interrupted": alternatives[0] if alternatives else None,
        "clauses": first["clauses"] if first else [],
    }
    engage = next((e for e in events if isinstance(e, ce.EngageDeclared)), None)
    if engage is not None:
        moved = state.units[engage.attacker].tray if engage.attacker < len(state.units) else None
        result["contact"] = {
            "centre": _xy(engage.end),
            "facing": moved.facing if moved is not None else None,
            "cost": round(engage.cost, 2),
        }
    stopped = next((e for e in events if isinstance(e, ce.EngageStopped)), None)
    if stopped is not None:
        result["stopped"] = {"reason": stopped.reason, "at": _xy(stopped.at), "clause": stopped.clause}
        if first is None:
            result["damage"] = None
    return result


def _who_bounced(out: JSON, attacker: Any, defender: Any) -> str | None:
    """Which unit of the first combat bounced back (or tried to): "attacker", "defender", "both" or None."""
    moved = {b["unit"] for b in out["bounces"]} | {b["unit"] for b in out["blocked"]}
    a, d = attacker in moved, defender in moved
    if a and d:
        return "both"
    return "attacker" if a else "defender" if d else None


def summarise(events: Sequence[Event], names: Names) -> JSON:
    """What a run of events did: combats, bounce backs, blocked bounce backs, units destroyed, excess
    movement, spells and every event's sentence (``lines``)."""
    combats: list[JSON] = []
    bounces: list[JSON] = []
    blocked: list[JSON] = []
    destroyed: list[int] = []
    spells: list[JSON] = []
    excess = 0.0
    lines: list[str] = []
    for e in events:
        said = sentence(e, names) if e.visible_to(None) else None
        if said:
            lines.append(said)
        match e:
            case ce.CombatResolved():
                combats.append(
                    {
                        "attacker": e.attacker,
                        "defender": e.defender,
                        "side": e.side,
                        "damage": e.damage,
                        "counter_damage": e.counter_damage,
                        "defender_hp": e.defender_hp,
                        "attacker_hp": e.attacker_hp,
                        "depth": e.depth,
                        "ballistics": e.ballistics,
                        "cell": e.cell,
                        "clauses": list(e.clauses),
                        "text": said,
                    }
                )
            case ce.BouncedBack() | ce.UnitPushed():
                bounces.append(
                    {
                        "unit": e.unit,
                        "from": _xy(e.start),
                        "to": _xy(e.end),
                        "moved": round(e.moved, 2),
                        "stopped_by": e.stopped_by,
                        "push": isinstance(e, ce.UnitPushed),
                    }
                )
            case ce.BounceBlocked():
                blocked.append({"unit": e.unit, "reason": e.reason, "hp": e.hp})
            case ce.UnitDestroyed():
                destroyed.append(e.unit)
            case ce.ExcessMove():
                excess += e.inches
            case ce.SpellCastEvent():
                spells.append({"caster": e.caster, "spell": e.spell, "target": e.target, "cost": e.cost})
            case _:
                pass
    for c in combats:  # this combat's own verdict (a chain may destroy the unit later)
        c["destroyed"] = c["defender_hp"] <= 0
        c["attacker_destroyed"] = c["attacker_hp"] <= 0
    return {
        "combats": combats,
        "bounces": bounces,
        "blocked": blocked,
        "destroyed": destroyed,
        "excess": round(excess, 2),
        "spells": spells,
        "lines": lines,
    }


def matrix_outcome(st: Any, action: Any) -> JSON | None:
    """Without premeasuring: an engage's or a shot's outcome by the matrix alone, as if it reaches (no
    distance, landing or chain: those would measure the table for the player, FA-GN-09). The side of an
    engage is the engage line's (a direction, not a distance); a shot's band is a distance, so a shot gives
    the outcome for each band."""
    from iwgt.games.anvil.matrix import Attack, resolve
    from iwgt.geometry.trays import engaged_side

    me, them = st.units[action.unit], st.units[action.target]
    if me.tray is None or them.tray is None:
        return None
    a = st.activation
    hammer = a is not None and a.used("hammerblow")

    def attack(side: Any, ballistics: bool) -> Attack:
        return Attack(
            attacker=me.type,
            defender=them.type,
            side=side,
            hammerblow=hammer,
            brace=them.braced,
            fear_attacker=me.has("fear"),
            fear_defender=them.has("fear"),
            skirmishing_defender=them.skirmishing,
            defender_hp=max(1, them.hp),
            attacker_hp=max(1, me.hp),
            ballistics=ballistics,
            parthian=ballistics and a is not None and a.used("parthian_shot"),
            heavy_projectile=ballistics and me.has("heavy_projectile"),
        )

    try:
        if isinstance(action, act.Engage):
            o = resolve(attack(engaged_side(me.tray, them.tray), False))
            data = o.to_json()
            return {
                **data,
                "measured": False,
                "hp_left": o.defender_hp_left,
                "excess_move": None,
                "lines": [],
            }
        bands = {side: resolve(attack(side, True)).to_json() for side in ("front", "flank", "rear")}
        return {"measured": False, "bands": bands, "lines": []}
    except ValueError:
        return None


__all__ = [
    "ANVIL_EFFECTS",
    "COMBAT_MS",
    "ILLEGAL_MS",
    "AnvilAdapter",
    "follow",
    "matrix_outcome",
    "summarise",
]
