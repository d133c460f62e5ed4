"""The Coloured-Dice Fantasy Battle Rules at the table: lights on a free table in inches (trays lit as areas),
options, a picked unit's selection (its legal destinations, the charges, fights, shots with their range bands
and spells it may make, each with its exact odds), previews, the dice report with the coloured faces rolled,
and one card per side.

Decisions (for docs/architecture.md):

- **Only the seat's view.** ``lights``, ``report`` and ``cards`` read the observation and the events the seat
  may see. Everything on this table is public; a seat's own parts are its questions and its previews.
- **Trays are lit as areas** (the observation's ``tray``: centre, facing, frontage, depth), so a projector or
  an LED matrix shows a unit's whole block; the points a move may end at are spots.
- **Standing lights**: the units the seat may order (``movable``), the unit a question is about
  (``question``, pulsing) and the two units of the attack being rolled (``melee`` or ``firing`` /
  ``under_fire``), shaken units (``shaken``).
- **Transient lights** of the last step's events (matched by the event's class name, as the words are): a
  move's or a charge's end (``destination``, ``charge``), a roll's attacker and target, casualties
  (``lost``), a unit destroyed or routed where it stood (``destroyed``), a spell (``spell``, a wave), an
  objective taken (``won``).
- **Selection**: the picked unit's move ring (its allowance, from the centre: a move is measured by the
  tray's centre), its range bands per missile weapon (the tray grown by each multiple of the range: the
  distance is tray to tray, so a band is the tray's outline buffered, not a circle), its spell reach, the
  move points the rules offer (spots and the outline of its reach), and every charge, fight, shot and spell
  target with the exact odds the observation's ``previews`` give (``odds.py``: never sampled).
- **Preview**: the engine is asked (``apply`` on the state, a value: nothing changes) whether the action is
  legal now and why not; an attack adds its odds from the observation's previews.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import BASE, CYAN, ORANGE, PURPLE, SKY, VIOLET, YELLOW, Effects, Light, Point, colour
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import Piece, Surface
from iwgt.core.table_kit import LightCollector, trial
from iwgt.core.table_kit import is_number as _num
from iwgt.core.table_kit import json_point as _point
from iwgt.core.table_kit import xy as _xy
from iwgt.games.coloured_dice import actions as act
from iwgt.games.coloured_dice.words import CdWords, Names, face_label, sentence
from iwgt.geometry.reach import reach_outline

ATTACK_MS: Final = 3000
"""How long an attack's lights flash before the casualties and removals show."""
ILLEGAL_MS: Final = 2000
"""A refused point or unit stays red this long."""
POINT_RADIUS: Final = 0.3
"""The radius of a point's spot (a move's end offered, a refused point), in inches."""
REACH_SECTORS: Final = 24
"""Sectors round a unit in which the furthest offered move point outlines its reach."""
BAND_RESOLUTION: Final = 8
"""Segments per quarter circle of a range band's rounded corners (shapely's buffer resolution)."""

CD_EFFECTS: Final = BASE.extend(
    {
        "reach": "#16a34a",  # the picked unit's reach (a dim green area)
        "band": SKY,  # a missile weapon's range band
        "aim": PURPLE,  # a unit the picked one may shoot at
        "spell": VIOLET,  # a spell's target or its wave
        "shaken": YELLOW,  # a shaken unit (one action a turn, no charge)
        "question": ORANGE,  # the unit a question is about (hero points, bear wound, reaction, resist)
        "objective": CYAN,  # an objective on the table
    },
    (
        "deploy", "band", "reach", "objective", "movable", "shaken", "destination", "charge", "aim",
        "preview", "selected", "question", "melee", "firing", "under_fire", "spell", "won", "lost",
        "destroyed", "illegal",
    ),
)  # fmt: skip
"""The shared effects and the game's own, least urgent first."""

PALETTE: Final = CD_EFFECTS.palette
"""Effect -> colour for the inch table."""

TARGET_ACTIONS: Final = (act.Charge, act.Fight, act.Shoot, act.Cast)
"""The orders a selection lists as targets."""
TARGET_KIND: Final[Mapping[type[Any], str]] = {
    act.Charge: "charge",
    act.Fight: "fight",
    act.Shoot: "shoot",
    act.Cast: "cast",
}
"""A target order's kind as the selection lists it."""
TARGET_EFFECT: Final = {"charge": "charge", "fight": "melee", "shoot": "aim", "cast": "spell"}
"""The light a target of each kind takes in a selection."""
PREVIEW_KIND: Final = {"fight": "fight", "shoot": "shot", "cast": "spell"}
"""An order's kind as the observation's previews name it."""

ROLLED: Final = frozenset({"PoolRolled"})
"""Events that carry an attack's dice (coloured faces), by class name."""
SHOT_KINDS: Final = frozenset({"shot", "stand_and_shoot"})
"""An attack's kinds that are shots (lit ``firing``/``under_fire``, not ``melee``)."""
GONE: Final = frozenset({"UnitDestroyed", "UnitRouted"})
"""Events of a unit leaving the table."""
LOSSES: Final = frozenset({"WoundsTaken", "OwnFire"})
"""Events of a unit losing models or wounds."""


# ------------------------------------------------------------------------------------------ small helpers


def _state(state: Any) -> Any:
    from iwgt.games.coloured_dice.state import CdState

    if not isinstance(state, CdState):
        raise TypeError(f"the Coloured-Dice table needs its own state, got {type(state).__name__}")
    return state


def _g(e: Any, *keys: str) -> Any:
    """The first of ``keys`` the event has (events name their fields their own way)."""
    for k in keys:
        if hasattr(e, k):
            return getattr(e, k)
    return None


def unit_corners(u: JSON) -> tuple[Point, ...] | None:
    """A unit's tray corners from the observation (``tray``: centre, facing, frontage, depth), or None."""
    from iwgt.geometry.trays import Tray

    t = u.get("tray")
    if not isinstance(t, dict):
        return None
    c = _point(t.get("centre"))
    f, w, d = t.get("facing", 0.0), t.get("frontage"), t.get("depth")
    if c is None or not (_num(w) and _num(d) and w > 0 and d > 0):
        return None
    return tuple(Tray(c, float(f) if _num(f) else 0.0, float(w), float(d)).corners())


def tray_corners(centre: Point, facing: float, frontage: float, depth: float) -> tuple[Point, ...]:
    """A tray's corners (the geometry's ``Tray.corners``)."""
    from iwgt.geometry.trays import Tray

    return tuple(Tray(centre, facing, frontage, depth).corners())


class _Lit(LightCollector):
    """Collects one view's lights: trays as areas, points as spots (the shared ``LightCollector``)."""

    def __init__(self, observation: JSON, palette: Mapping[str, str]) -> None:
        super().__init__(palette, POINT_RADIUS)
        self.units: dict[int, JSON] = {
            u["id"]: u for u in observation.get("units", []) or [] if isinstance(u, dict) and "id" in u
        }

    def unit(self, uid: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """A unit's tray where the observation has it (nothing for an unknown id or a unit off the table)."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        if u is not None:
            self.area(unit_corners(u), effect, pattern, **kw)

    def tray_at(
        self, uid: Any, centre: Any, facing: Any, effect: str, pattern: str = "steady", **kw: Any
    ) -> None:
        """A unit's tray at another place (where a move or a charge ended), its size from the observation."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        c = _point(centre)
        t = u.get("tray") if u is not None else None
        if c is None or not isinstance(t, dict) or not (_num(t.get("frontage")) and _num(t.get("depth"))):
            return
        keep = kw.pop("keep_facing", False)
        f = float(facing) if _num(facing) else float(t.get("facing", 0.0)) if keep else 0.0
        self.area(tray_corners(c, f, float(t["frontage"]), float(t["depth"])), effect, pattern, **kw)


# ------------------------------------------------------------------------------------------ the adapter


class CdAdapter:
    """The table adapter of the Coloured-Dice rules; ``palette`` remaps the colours for a physical table."""

    effects: ClassVar[Effects] = CD_EFFECTS
    """The table's effects, least urgent first: a physical table orders its frame's lights by them."""

    def __init__(self, palette: Mapping[str, str] = PALETTE) -> None:
        self.palette = palette
        self.words = CdWords()
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
        for o in observation.get("objectives", []) or []:
            if isinstance(o, dict):
                lit.spot(_point(o.get("at")), "objective", radius=1.0)
        for uid in movable:
            lit.unit(uid, "movable")
        for u in lit.units.values():
            if u.get("shaken") and not u.get("destroyed") and not u.get("routed"):
                lit.unit(u["id"], "shaken")
        pending = observation.get(
            "awaiting"
        )  # the die awaited or the question asked (the observation's name)
        if isinstance(pending, dict):
            if pending.get("seat") is not None:  # a question to a player (hero points, bear wound, ...)
                lit.unit(pending.get("unit"), "question", "pulse")
            # An attack being rolled (its pool: ``unit`` and ``target``) or asked about (``source``).
            source = pending.get("source", pending.get("unit") if pending.get("attack") else None)
            target = pending.get("target")
            if isinstance(source, int) and isinstance(target, int):
                if str(pending.get("attack") or "") in SHOT_KINDS:
                    lit.unit(source, "firing", "flash")
                    lit.unit(target, "under_fire", "flash")
                else:
                    lit.melee(source, None)
                    lit.melee(target, None)
        self._transient(lit, events)
        return CD_EFFECTS.ordered(lit.out)

    def _transient(self, lit: _Lit, events: Sequence[Event]) -> None:
        rolled = any(type(e).__name__ in ROLLED for e in events)
        after = ATTACK_MS if rolled else 0
        for e in events:
            kind = type(e).__name__
            if kind == "UnitMoved":
                lit.tray_at(_g(e, "unit"), _g(e, "centre"), _g(e, "facing"), "destination")
            elif kind == "UnitCharged":
                lit.tray_at(
                    _g(e, "unit"), _g(e, "centre"), _g(e, "facing"), "charge", "flash", duration=ATTACK_MS
                )
                lit.unit(_g(e, "target"), "charge", "flash", duration=ATTACK_MS)
            elif kind in ROLLED:
                source = _g(e, "unit", "source", "attacker", "caster")
                target = _g(e, "target", "defender")
                if attack_kind(e) in SHOT_KINDS:
                    lit.unit(source, "firing", "flash", duration=ATTACK_MS)
                    lit.unit(target, "under_fire", "flash", duration=ATTACK_MS)
                else:
                    lit.melee(source, ATTACK_MS)
                    lit.melee(target, ATTACK_MS)
            elif kind in LOSSES:
                lit.unit(_g(e, "unit", "friend"), "lost", delay=after)
            elif kind in GONE:
                lit.unit(_g(e, "unit"), "destroyed", "flash", delay=after)
            elif kind == "UnitShaken":
                lit.unit(_g(e, "unit"), "shaken", delay=after)
            elif kind == "FellBack":
                lit.tray_at(_g(e, "unit"), _g(e, "centre"), None, "shaken", delay=after, keep_facing=True)
            elif kind == "SpiritCalled":
                lit.spot(_point(_g(e, "at")), "destination", radius=1.0)
            elif kind == "UnitRallied":
                lit.unit(_g(e, "unit"), "won")
            elif kind == "AttackDeclared" and attack_kind(e) == "spell":
                lit.unit(_g(e, "unit"), "spell", "wave", duration=ATTACK_MS)
                lit.unit(_g(e, "target"), "spell", "wave", duration=ATTACK_MS)
            elif kind == "ObjectiveTaken":
                lit.unit(_g(e, "unit"), "won")

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """A refused move's end red for ``ILLEGAL_MS``; else the unit it named as its target (or the unit)."""
        lit = _Lit(observation, self.palette)
        path = action.get("path")
        p = _point(path[-1]) if isinstance(path, list) and path else _point(action.get("at"))
        if p is not None:
            lit.spot(p, "illegal", duration=ILLEGAL_MS, radius=1.0)
        elif isinstance(action.get("target"), int):
            lit.unit(action.get("target"), "illegal", duration=ILLEGAL_MS)
        else:
            lit.unit(action.get("unit"), "illegal", duration=ILLEGAL_MS)
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
        """The units with a legal order now (lit) and every legal action but the moves, whose points come with
        a selection."""
        st = _state(state)
        movable: dict[int, None] = {}
        actions: list[JSON] = []
        for a in self._legal.get(game, st, seat):
            uid = getattr(a, "unit", None)
            if isinstance(uid, int) and not isinstance(a, act.ANSWERS):
                movable.setdefault(uid)
            if isinstance(a, act.Move):
                continue
            actions.append(game.action_to_json(a))
        return {"movable": sorted(movable), "actions": actions}

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked unit: its rings (move, range bands, spell reach), the move points offered and their reach,
        and every charge, fight, shot and spell target with its odds."""
        st = _state(state)
        out: JSON = {
            "type": "selection",
            "unit": unit_id,
            "moves": [],
            "reach": [],
            "targets": [],
            "rings": [],
            "bands": [],
            "lights": [],
        }
        if not isinstance(unit_id, int) or not 0 <= unit_id < len(st.units):
            return out
        u = st.units[unit_id]
        if not u.on_table:
            return out
        obs = game.observe(st, seat)
        mine = next(
            (x for x in obs.get("units", []) or [] if isinstance(x, dict) and x.get("id") == unit_id), {}
        )
        previews = [
            p for p in obs.get("previews", []) or [] if isinstance(p, dict) and p.get("unit") == unit_id
        ]
        lit: list[Light] = [
            Light.over_area(u.tray.corners(), "selected", colour("selected", self.palette), "steady")
        ]
        move = mine.get("move")
        if _num(move) and move > 0:
            out["rings"].append(
                {
                    "kind": "move",
                    "at": _xy(u.tray.centre),
                    "radius": round(float(move), 2),
                    "label": f'{move:g}" move',
                }
            )
        out["bands"] = range_bands(u.tray, mine.get("weapons") or [], max_bands())
        hue = colour("band", self.palette)
        for band in out["bands"]:
            if band["band"] == 0:  # the first band alone is lit (the others would cover the table)
                lit.append(Light.over_area([tuple(p) for p in band["outline"]], "band", hue, "steady"))
        reach = spell_reach(mine.get("spells") or [])
        if reach > 0:
            half = math.hypot(u.tray.frontage, u.tray.depth) / 2
            out["rings"].append(
                {
                    "kind": "spell",
                    "at": _xy(u.tray.centre),
                    "radius": round(reach + half, 2),
                    "label": f'{reach:g}" spells',
                }
            )
        moves: list[act.Move] = []
        for a in self._legal.get(game, st, seat):
            if getattr(a, "unit", None) != unit_id:
                continue
            if isinstance(a, act.Move):
                moves.append(a)
            elif isinstance(a, TARGET_ACTIONS):
                kind = TARGET_KIND[type(a)]
                target = a.target
                entry: JSON = {
                    "target": target,
                    "kind": kind,
                    "action": game.action_to_json(a),
                    "odds": find_preview(previews, kind, target, getattr(a, "spell", None)),
                }
                if isinstance(a, act.Cast):
                    entry["spell"] = a.spell
                    if a.at is not None:
                        entry["at"] = _xy(a.at)
                if isinstance(a, act.Charge):
                    entry["contact"] = charge_contact(st, a)
                    if entry["contact"] is not None:
                        corners = [tuple(p) for p in entry["contact"]["corners"]]
                        lit.append(
                            Light.over_area(corners, "charge", colour("charge", self.palette), "steady")
                        )
                if isinstance(target, int) and 0 <= target < len(st.units) and st.units[target].on_table:
                    t = st.units[target].tray
                    entry["at"] = _xy(t.centre)
                    effect = TARGET_EFFECT[kind]
                    lit.append(Light.over_area(t.corners(), effect, colour(effect, self.palette), "steady"))
                out["targets"].append(entry)
        out["moves"] = [
            {"to": _xy(m.path[-1]), "facing": m.facing, "action": game.action_to_json(m)}
            for m in moves
            if m.path
        ]
        ends = [m.path[-1] for m in moves if m.path]
        out["reach"] = _reach(u.tray.centre, ends)
        if len(out["reach"]) >= 3:
            lit.append(
                Light.over_area(
                    [tuple(p) for p in out["reach"]], "reach", colour("reach", self.palette), "steady"
                )
            )
        hue = colour("destination", self.palette)
        lit += [Light.spot(p, POINT_RADIUS, "destination", hue, "steady") for p in ends]
        out["lights"] = [x.to_json() for x in CD_EFFECTS.ordered(lit)]
        return out

    # --------------------------------------------------------------------------------------- preview

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Whether the action is legal now (and why not); an attack adds its odds (effective armour and its
        parts, the casualties' distribution, the chance the target's morale breaks), a move what it cost."""
        st = _state(state)
        out: JSON = {
            "type": "preview",
            "action": action,
            "legal": False,
            "reason": None,
            "odds": None,
            "lines": [],
        }
        tried = trial(game, st, seat, action)  # a trial on a value: the state is untouched
        if isinstance(tried, str):
            out["reason"] = tried
            return out
        a, after, events = tried
        out["legal"] = True
        kind = PREVIEW_KIND.get(str(action.get("type")))
        if kind is not None:
            obs = game.observe(st, seat)
            previews = [p for p in obs.get("previews", []) or [] if isinstance(p, dict)]
            mine = [p for p in previews if p.get("unit") == action.get("unit")]
            out["odds"] = find_preview(
                mine, str(action.get("type")), action.get("target"), action.get("spell")
            )
        if isinstance(a, act.Charge):
            out["contact"] = charge_contact(st, a)
        seen = game.observe(after, seat)
        names = Names(seen)
        out["lines"] = [said for e in events if e.visible_to(seat) and (said := sentence(e, names))]
        asked = seen.get("awaiting")
        if isinstance(asked, dict) and asked.get("seat") is not None and asked.get("text"):
            out["lines"].append(asked["text"])  # the question the order brings (a charge: the reaction)
        moved = next((e for e in events if type(e).__name__ == "UnitMoved"), None)
        if moved is not None:
            out["move"] = {
                "to": _xy(_g(moved, "centre")),
                "used": round(float(_g(moved, "used") or 0.0), 2),
                "allowance": round(float(_g(moved, "allowance") or 0.0), 2),
                "taxes": round(float(_g(moved, "taxes") or 0.0), 2),
                "march": bool(_g(moved, "march")),
            }
        return out

    # ---------------------------------------------------------------------------------------- report

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """The dice report of the last step (None when no attack was rolled and no morale tested): each
        roll's dice with their colours and faces, its points, kills, armour and wounds, each morale test's
        2d6 and verdict, and every line in the game's words: ``{"type": "report", "round", "rolls",
        "morale", "lines"}``."""
        names = Names(observation)
        rolls = [roll_json(e, names) for e in events if type(e).__name__ in ROLLED]
        morale = [
            {
                "unit": e.unit,  # type: ignore[attr-defined]
                "dice": list(e.dice),  # type: ignore[attr-defined]
                "target": e.target,  # type: ignore[attr-defined]
                "losses": e.losses,  # type: ignore[attr-defined]
                "general_morale": e.general_morale,  # type: ignore[attr-defined]
                "passed": e.passed,  # type: ignore[attr-defined]
                "text": sentence(e, names),
            }
            for e in events
            if type(e).__name__ == "MoraleTested"
        ]
        if not rolls and not morale:
            return None
        lines = [said for e in events if (said := sentence(e, names))]
        return {
            "type": "report",
            "round": observation.get("round"),
            "rolls": rolls,
            "morale": morale,
            "lines": lines,
        }

    # ----------------------------------------------------------------------------------------- cards

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """One card per side: its name and colour, general morale, victory points, points lost of its
        starting points, the units and models on the table, and whether the card is the seat's own."""
        names = Names(observation)
        sides = [s for s in observation.get("sides", []) or [] if isinstance(s, dict)]
        out: list[JSON] = []
        for side in (0, 1):
            info = sides[side] if side < len(sides) else {}
            mine = [
                u for u in observation.get("units", []) or [] if isinstance(u, dict) and u.get("seat") == side
            ]
            on = [u for u in mine if not u.get("destroyed") and not u.get("routed") and u.get("models", 0)]
            out.append(
                {
                    "seat": side,
                    "name": names.side(side),
                    "colour": info.get("colour"),
                    "mine": seat == side,
                    "general_morale": info.get("general_morale", 0),
                    "vp": info.get("vp", 0),
                    "points": info.get("points"),
                    "points_lost": info.get("points_lost", 0),
                    "on_table": len(on),
                    "models": sum(int(u.get("models", 0) or 0) for u in on),
                    "shaken": sum(1 for u in on if u.get("shaken")),
                    "gone": len(mine) - len(on),
                }
            )
        return out


# ------------------------------------------------------------------------------------------ pieces


def roll_json(e: Event, names: Names) -> JSON:
    """One attack's roll for the dice report: each die's colour and face (as the die shows it), the sums,
    the armour they were against and the wounds they made, and the roll's sentence."""
    dice = [str(c) for c in (_g(e, "dice") or ())]
    faces = list(_g(e, "faces") or ())
    labels = list(_g(e, "labels") or ()) or [face_label(c, f) for c, f in zip(dice, faces, strict=False)]
    return {
        "unit": _g(e, "unit", "source", "attacker", "caster"),
        "target": _g(e, "target", "defender"),
        "attack": attack_kind(e),
        "dice": [
            {"colour": c, "face": f, "label": lab} for c, f, lab in zip(dice, faces, labels, strict=False)
        ],
        "points": _g(e, "points"),
        "kills": _g(e, "kills"),
        "armour": _g(e, "armour"),
        "wounds": _g(e, "wounds", "casualties"),
        "text": sentence(e, names),
    }


def attack_kind(e: Any) -> str:
    """An attack event's kind (``fight``, ``back``, ``shot``, ``stand_and_shoot``, ``spell``): its own
    field, never the event's class name that ``Event.kind`` gives when no field shadows it."""
    for name in ("attack", "kind"):
        value = getattr(e, name, None)
        if isinstance(value, str) and value != type(e).__name__:
            return value
    return ""


def charge_contact(state: Any, charge: act.Charge) -> JSON | None:
    """Where a charge ends (flush and centred on the side it meets, CD-MS-16), how far the tray goes, the
    charger's allowance and the start gap, and the dice the target may react with (the rules' own count,
    ``combat_common.reaction_dice``, CD-RE-02 decided) and their colour; None when the rules refuse the
    charge."""
    from iwgt.games.coloured_dice.combat_common import reaction_dice, reaction_die
    from iwgt.games.coloured_dice.movement import plan_charge

    plan = plan_charge(state, state.unit(charge.unit), charge.target)
    if isinstance(plan, str):
        return None
    return {
        "centre": _xy(plan.end.centre),
        "facing": round(float(plan.end.facing), 2),
        "corners": [_xy(p) for p in plan.end.corners()],
        "distance": round(plan.distance, 2),
        "allowance": round(plan.allowance, 2),
        "gap": round(plan.gap, 2),
        "reaction_dice": reaction_dice(plan.gap),
        "reaction_colour": reaction_die(),
    }


def find_preview(previews: Sequence[JSON], kind: str, target: Any, spell: Any = None) -> JSON | None:
    """The observation's preview of an attack of ``kind`` (an order's type or a preview's kind) at
    ``target``, or None."""
    want = PREVIEW_KIND.get(kind, kind)
    for p in previews:
        if p.get("kind") == want and p.get("target") == target and (spell is None or p.get("spell") == spell):
            return p
    return None


def max_bands() -> int:
    """The range multiples a shot may reach (``MAX_RANGE_BANDS`` of the rules data)."""
    from iwgt.games.coloured_dice.rules import rules

    return int(rules().constants.max_range_bands)


def range_bands(tray: Any, weapons: Sequence[Any], bands: int) -> list[JSON]:
    """Each missile weapon's range bands: band k (0 = the first, no penalty) reaches (k + 1) x the range,
    measured from the tray's edge (the distance is tray to tray), so it is the tray's outline grown by that
    much; ``armour`` is what the band adds to the target's armour (CD-RA-02)."""
    out: list[JSON] = []
    seen: set[float] = set()
    poly = tray.polygon()
    for w in weapons:
        missile = w.get("missile") if isinstance(w, dict) else None
        reach = missile.get("range") if isinstance(missile, dict) else None
        if not _num(reach) or reach <= 0 or float(reach) in seen:
            continue
        seen.add(float(reach))
        for k in range(bands):
            grown = poly.buffer(float(reach) * (k + 1), quad_segs=BAND_RESOLUTION)
            outline = [_xy(p) for p in list(grown.exterior.coords)[:-1]]
            lo, hi = float(reach) * k, float(reach) * (k + 1)
            out.append(
                {
                    "weapon": w.get("name"),
                    "range": float(reach),
                    "band": k,
                    "armour": k,
                    "from": lo,
                    "to": hi,
                    "label": f'+{k} ({lo:g}-{hi:g}")',
                    "outline": outline,
                }
            )
    return out


def spell_reach(spells: Sequence[Any]) -> float:
    """The longest reach of the unit's spells from the magic data (0 when there is none to read)."""
    import importlib

    try:
        magic = importlib.import_module("iwgt.games.coloured_dice.magic")
        data = magic.magic_rules()
    except (ImportError, AttributeError):
        return 0.0
    found = getattr(data, "spells", None) or {}
    best = 0.0
    for key in spells:
        s = found.get(key) if isinstance(found, dict) else None
        r = getattr(s, "range", None)
        if _num(r):
            best = max(best, float(r))
    return best


def _reach(
    start: Sequence[float], points: Sequence[Sequence[float]], sectors: int = REACH_SECTORS
) -> list[list[float]]:
    """The outline of a unit's reach: the hull of the furthest offered point in each sector round it."""
    return [_xy(p) for p in reach_outline(start, points, sectors)]


__all__ = ["CD_EFFECTS", "CdAdapter", "find_preview", "range_bands", "roll_json"]
