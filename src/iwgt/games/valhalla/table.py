"""Valhalla at the table: spots of light on a free table in inches, options, selections with their rings,
the exact odds of a charge, a fight or a shot, the dice report and the players' cards.

A free table has no cells, so every light is a **spot** (``Light.spot``): a disc at a point in inches, for an
LED strip under a glass top or a projector over the table. Decisions (for docs/architecture.md):

- **Only the seat's view.** ``lights``, ``report`` and ``cards`` read the observation and the events the seat
  may see (the game's own event objects, matched by class). Valhalla hides nothing (cards are dealt face up),
  so every seat's lights are the same but for ``movable``, which only the seat to act gets.
- **Standing lights**: the figures the card holder may activate (``movable``, white), the active figure
  (``selected``, blue), figures in combat (``melee``, alternating green and red), shocked figures
  (``shocked``, yellow) and wounded ones (``wounded``, orange), and the baggage to move at the end of the turn
  (``movable``). A spot is a little larger than the base it lights (``HALO``).
- **Transient lights** from the last step's events: where a figure or a baggage moved to (``destination``,
  green, until the next view: a physical table's player sets the miniature there); a charge and a fight
  alternate green and red on both figures for ``COMBAT_MS``, then the figure that scored hits lights ``won``
  and the one hit ``lost``; a shot flashes ``firing`` on the shooter and ``under_fire`` on its target; a
  figure killed flashes ``destroyed`` where it fell, until the next view (its miniature must come off).
- **Selection**: the picked figure (blue), each legal move point offered by ``legal_actions`` (a small green
  spot; any other point may still be tapped and the server judges it), charge targets (amber) and shot targets
  (``aim``, purple); the rings are circles for the screen to draw (the 6" move, the 2" charge, the 6" close
  range and 12" range of a shooter, measured from the base's edge, and the 2" zone round each enemy base).
- **Previews**: the exact odds of ``iwgt.games.valhalla.forecast.preview`` for a charge, a fight or a shot.
- **Report**: always present: each side's coins and target, each figure's hurts, and the dice of the last step
  (combat faces and scores, a shot's face against the face it needed, each Dice of Death and its effect), each
  roll with its sentence from ``iwgt.games.valhalla.words`` (the one place a roll is worded). A Dice of Death
  also says what it did when its effect alone does not (``then``: a third shock marker made a wound, a second
  wound killed, the shock and wounds the figure now has, what a fallen figure dropped) and whether the figure
  went to Valhalla (``killed``), so that no loss is understated.
- **Cards**: each player's dealt cards, the card up marked, the played ones marked played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Final

from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import AMBER, BASE, ORANGE, PURPLE, YELLOW, Effects, Light, Point, colour
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import Piece, Surface
from iwgt.core.table_kit import LightCollector, trial
from iwgt.core.table_kit import json_point as _point
from iwgt.core.table_kit import xy as _xy
from iwgt.games.valhalla import actions as act
from iwgt.games.valhalla import events as ev
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.forecast import preview as odds_preview
from iwgt.games.valhalla.movement import why_not_charge, why_not_move
from iwgt.games.valhalla.state import Figure, ValhallaState
from iwgt.games.valhalla.words import SAVES, ValhallaWords, save_outcome
from iwgt.geometry.reach import reach_outline

COMBAT_MS: Final = 3000
"""How long a combat's or a shot's lights run before the verdict and the removals show."""
ILLEGAL_MS: Final = 2000
"""A refused point stays red this long."""
HALO: Final = 0.25
"""How much wider than a base (inches) the spot that lights it is."""
POINT_RADIUS: Final = 0.2
"""The radius of a move point's spot (inches)."""

REACTS_TO: Final[tuple[type[Event], ...]] = (
    ev.FigureMoved,
    ev.Withdrew,
    ev.ObstacleCrossed,
    ev.Charged,
    ev.BaggageMoved,
    ev.Fought,
    ev.ShotFired,
    ev.FigureKilled,
    ev.SavingThrow,
    ev.FigureHurt,
    ev.ThingDropped,
    ev.CoinsWon,
)
"""Every event class the adapter matches (lights, and the dice report): the tests hold each to being a class
of ``iwgt.games.valhalla.events`` and to lighting or reporting something."""


VALHALLA_EFFECTS: Final = BASE.extend(
    {
        "aim": PURPLE,  # a figure a shooter may shoot at
        "approach": AMBER,  # a point at an enemy's 2" zone from which a charge may follow
        "shocked": YELLOW,  # a figure with shock markers
        "wounded": ORANGE,  # a wounded figure
    },
    (
        "deploy", "movable", "shocked", "wounded", "destination", "charge", "approach", "aim", "preview",
        "selected", "melee", "firing", "under_fire", "won", "lost", "destroyed", "illegal",
    ),
)  # fmt: skip
"""The shared effects and Valhalla's own, least urgent first."""

PALETTE: Final = VALHALLA_EFFECTS.palette
"""Effect -> colour for the inch table."""


def _state(state: Any) -> ValhallaState:
    if not isinstance(state, ValhallaState):
        raise TypeError(f"the Valhalla table needs a Valhalla state, got {type(state).__name__}")
    return state


class _Spots(LightCollector):
    """Collects one view's spots, keeping only points on the table (the shared ``LightCollector``)."""

    def __init__(self, observation: JSON, palette: Mapping[str, str]) -> None:
        super().__init__(palette)
        table = observation["table"]
        self.width, self.height = float(table["width"]), float(table["height"])
        self.base = float(observation.get("base_radius", 0.5))
        self.figures: dict[int, JSON] = {f["id"]: f for f in observation.get("figures", [])}
        self.things: dict[int, JSON] = {t["id"]: t for t in observation.get("things", [])}

    def keeps(self, at: Point) -> bool:
        """Whether a point is on the table."""
        return 0 <= at[0] <= self.width and 0 <= at[1] <= self.height

    def add(
        self,
        at: Point | None,
        radius: float,
        effect: str,
        pattern: str,
        *,
        key: str | None = None,
        delay: int = 0,
        duration: int | None = None,
    ) -> None:
        """A spot of ``radius`` inches at ``at``, when on the table."""
        self.spot(at, effect, pattern, radius=radius, key=key, delay=delay, duration=duration)

    def figure_at(self, fid: Any, *, alive: bool = True) -> Point | None:
        """Where a figure stands (its last place, for a fallen one when ``alive`` is False)."""
        f = self.figures.get(fid) if isinstance(fid, int) else None
        if f is None or (alive and not f.get("alive")):
            return None
        return _point(f.get("at"))

    def figure(self, fid: Any, effect: str, pattern: str, **kw: Any) -> None:
        """A figure's base and a halo round it, where it stands."""
        self.add(self.figure_at(fid, alive=kw.pop("alive", True)), self.base + HALO, effect, pattern, **kw)

    def unit(self, uid: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """A figure (this game's unit) by its id."""
        self.figure(uid, effect, pattern, **kw)

    def melee(self, fid: Any, duration: int | None, *, alive: bool = True) -> None:
        """A figure in a melee (a fallen one's last place when ``alive`` is False), in both melee colours."""
        self.figure(fid, "melee", "alternate", duration=duration, alive=alive)
        self.figure(fid, "melee", "alternate", key="melee_alt", duration=duration, alive=alive)


class ValhallaAdapter:
    """The table adapter of Valhalla; ``palette`` remaps the colours for a physical table."""

    effects: ClassVar[Effects] = VALHALLA_EFFECTS
    """The table's effects, least urgent first: a physical table orders its frame's lights by them."""

    def __init__(self, palette: Mapping[str, str] = PALETTE) -> None:
        self.palette = palette
        self.words = ValhallaWords()
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
        """Standing spots of the observation plus the transient spots of the last step's events."""
        lit = _Spots(observation, self.palette)
        for fid in movable:
            lit.figure(fid, "movable", "steady")
        up = observation.get("baggage_up")
        if isinstance(up, int) and up in lit.things:
            t = lit.things[up]
            lit.add(_point(t["at"]), float(t["radius"]) + HALO, "movable", "steady")
        active = observation.get("active")
        if active is not None:
            lit.figure(active, "selected", "steady")
        for f in lit.figures.values():
            if f.get("shock"):
                lit.figure(f["id"], "shocked", "steady")
            if f.get("wounds"):
                lit.figure(f["id"], "wounded", "steady")
        for pair in observation.get("engagements", []):
            for fid in pair:
                lit.melee(fid, None)
        self._transient(lit, events)
        return VALHALLA_EFFECTS.ordered(lit.out)

    def _transient(self, lit: _Spots, events: Sequence[Event]) -> None:
        fought = any(isinstance(e, ev.Fought | ev.ShotFired) for e in events)
        after = COMBAT_MS if fought else 0
        for e in events:
            match e:
                case ev.FigureMoved():
                    lit.add(_point(e.path[-1]) if e.path else None, lit.base + HALO, "destination", "steady")
                case ev.Withdrew() | ev.ObstacleCrossed() | ev.Charged():
                    lit.add(_point(e.to), lit.base + HALO, "destination", "steady")
                case ev.BaggageMoved():
                    t = lit.things.get(e.baggage)
                    radius = float(t["radius"]) if t is not None else lit.base
                    lit.add(_point(e.path[-1]) if e.path else None, radius + HALO, "destination", "steady")
                # A figure the step killed still lights where it stood: the events happened while it lived.
                case ev.Fought():
                    lit.melee(e.attacker, COMBAT_MS, alive=False)
                    lit.melee(e.defender, COMBAT_MS, alive=False)
                    if e.attacker_hits or e.defender_hits:
                        winner, loser = (
                            (e.attacker, e.defender) if e.attacker_hits else (e.defender, e.attacker)
                        )
                        lit.figure(winner, "won", "steady", delay=after, alive=False)
                        lit.figure(loser, "lost", "steady", delay=after, alive=False)
                case ev.ShotFired():
                    lit.figure(e.shooter, "firing", "flash", duration=COMBAT_MS, alive=False)
                    lit.figure(e.target, "under_fire", "flash", duration=COMBAT_MS, alive=False)
                case ev.FigureKilled():
                    lit.figure(e.figure, "destroyed", "flash", delay=after, alive=False)
                case _:
                    pass

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """The point a refused move, withdrawal or baggage move named, red for ``ILLEGAL_MS``; else the
        figure a refused charge or shot named."""
        lit = _Spots(observation, self.palette)
        to = _point(action.get("to"))
        if to is not None:
            lit.add(to, lit.base, "illegal", "steady", duration=ILLEGAL_MS)
        else:
            for key in ("target", "opponent"):
                lit.figure(action.get(key), "illegal", "steady", duration=ILLEGAL_MS)
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
        """The figures with a legal action now (lit), and every legal action but the moves (whose points come
        with a selection). A baggage's end-of-turn moves are listed here: there are only a few."""
        movable: dict[int, None] = {}
        actions: list[JSON] = []
        for a in self._legal.get(game, state, seat):
            fid = getattr(a, "figure", None)
            if isinstance(fid, int):
                movable.setdefault(fid)
            if not isinstance(a, act.Move):
                actions.append(game.action_to_json(a))
        return {"movable": sorted(movable), "actions": actions}

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked figure: its rings, move points and reach, withdrawals, and targets with their odds."""
        st = _state(state)
        out: JSON = {
            "type": "selection",
            "unit": unit_id,
            "moves": [],
            "approach": [],
            "reach": [],
            "withdrawals": [],
            "targets": [],
            "rings": [],
            "lights": [],
        }
        if not 0 <= unit_id < len(st.figures) or not st.figures[unit_id].alive:
            return out
        f = st.figures[unit_id]
        out["rings"] = self._rings(st, unit_id)
        base = rules().table.base_radius
        hue = colour("selected", self.palette)
        lit: list[Light] = [Light.spot(f.at, base + HALO, "selected", hue, "steady")]
        moves: list[act.Move] = []
        for a in self._legal.get(game, st, seat):
            if getattr(a, "figure", None) != unit_id:
                continue
            if isinstance(a, act.Move):
                moves.append(a)
            elif isinstance(a, act.Withdraw):
                out["withdrawals"].append({"to": _xy(a.to), "action": game.action_to_json(a)})
            elif isinstance(a, act.Charge | act.Shoot | act.Fight):
                target = a.opponent if isinstance(a, act.Fight) else a.target
                kind = {act.Charge: "charge", act.Shoot: "shoot", act.Fight: "fight"}[type(a)]
                out["targets"].append(
                    {
                        "target": target,
                        "kind": kind,
                        "at": _xy(st.figures[target].at),
                        "action": game.action_to_json(a),
                        "odds": odds_preview(st, a),
                    }
                )
                effect = "aim" if kind == "shoot" else "charge"
                hue = colour(effect, self.palette)
                lit.append(Light.spot(st.figures[target].at, base + HALO, effect, hue, "steady"))
        out["moves"] = [{"to": _xy(m.to), "kind": "move", "action": game.action_to_json(m)} for m in moves]
        out["reach"] = _reach(f.at, [m.to for m in moves])
        hue = colour("destination", self.palette)
        lit += [Light.spot(m.to, POINT_RADIUS, "destination", hue, "steady") for m in moves]
        if moves:
            approach = _approach_points(st, f)
            out["approach"] = [
                {"to": _xy(p), "target": t, "action": game.action_to_json(act.Move(f.id, p))}
                for t, p in approach
            ]
            hue = colour("approach", self.palette)
            lit += [Light.spot(p, POINT_RADIUS, "approach", hue, "steady") for _, p in approach]
        out["lights"] = [x.to_json() for x in VALHALLA_EFFECTS.ordered(lit)]
        return out

    def _rings(self, st: ValhallaState, fid: int) -> list[JSON]:
        """The circles the screen draws round a picked figure, in inches from its centre.

        A move is measured by the centre, so its ring is 6" round the centre; a charge and shooting are
        measured base edge to base edge, so their rings are the base radius further out (an enemy base
        touching the ring is in reach); each enemy's 2" zone is drawn round its base.
        """
        r = rules()
        base = r.table.base_radius
        f = st.figures[fid]
        rings: list[JSON] = [
            {"kind": "move", "at": _xy(f.at), "radius": r.actions.move, "label": f'{r.actions.move:g}" move'},
            {
                "kind": "charge",
                "at": _xy(f.at),
                "radius": base + r.actions.charge,
                "label": f'{r.actions.charge:g}" charge',
            },
        ]
        if r.figures[f.kind].shoots:
            rings.append(
                {
                    "kind": "close",
                    "at": _xy(f.at),
                    "radius": base + r.shooting.close,
                    "label": f'{r.shooting.close:g}" close range',
                }
            )
            rings.append(
                {
                    "kind": "range",
                    "at": _xy(f.at),
                    "radius": base + r.shooting.range,
                    "label": f'{r.shooting.range:g}" range',
                }
            )
        for e in st.enemies_of(f):
            rings.append(
                {
                    "kind": "zone",
                    "at": _xy(e.at),
                    "radius": base + r.actions.enemy_zone,
                    "label": f'{r.actions.enemy_zone:g}" zone',
                    "figure": e.id,
                }
            )
        return rings

    # --------------------------------------------------------------------------------------- preview

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Legality by trying the action on the state (a value: nothing changes), and the exact odds of a
        charge, a fight or a shot (``odds``: as ``iwgt odds valhalla`` prints them, with ``kind``)."""
        st = _state(state)
        out: JSON = {"type": "preview", "legal": False, "reason": None, "expected": None, "odds": None}
        tried = trial(game, st, seat, action)
        if isinstance(tried, str):
            out["reason"] = tried
            return out
        parsed: act.Action = tried[0]  # the trial's state and events are dropped here
        out["legal"] = True
        out["odds"] = odds_preview(st, parsed)
        return out

    # ---------------------------------------------------------------------------------------- report

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """Coins, hurts and the last step's dice: ``{"type": "report", "turn", "sides": [{"side", "name",
        "colour", "coins", "target"}], "figures": [{"id", "name", "side", "seat", "kind", "shock", "wounds",
        "alive"}], "dice": [one entry per roll, its ``text`` worded by ``iwgt.games.valhalla.words``; a
        save's ``then`` and ``killed`` say what it did], "coins": [coins won in the step]}``."""
        figures = {f["id"]: f for f in observation.get("figures", [])}

        def die(fid: int) -> int | None:
            f = figures.get(fid)
            return rules().figures[f["kind"]].die if f is not None else None

        def text(e: Event) -> str:
            return self.words.event(e, observation, None) or ""

        dice: list[JSON] = []
        coins: list[JSON] = []
        save: JSON | None = None  # the last Dice of Death, until the next roll: what follows is its doing
        for e in events:
            match e:
                case ev.Fought():
                    save = None
                    dice.append(
                        {
                            "kind": "combat",
                            "attacker": e.attacker,
                            "defender": e.defender,
                            "attacker_die": die(e.attacker),
                            "defender_die": die(e.defender),
                            "attacker_face": e.attacker_face,
                            "defender_face": e.defender_face,
                            "attacker_score": e.attacker_score,
                            "defender_score": e.defender_score,
                            "attacker_hits": e.attacker_hits,
                            "defender_hits": e.defender_hits,
                            "text": text(e),
                        }
                    )
                case ev.ShotFired():
                    save = None
                    dice.append(
                        {
                            "kind": "shot",
                            "shooter": e.shooter,
                            "target": e.target,
                            "face": e.face,
                            "needs": e.needs,
                            "hit": e.hit,
                            "distance": e.distance,
                            "cover": e.cover,
                            "text": text(e),
                        }
                    )
                case ev.SavingThrow():
                    save = {
                        "kind": "save",
                        "figure": e.figure,
                        "face": e.face,
                        "effect": e.effect,
                        "words": SAVES.get(e.effect, e.effect),
                        "text": text(e),
                        "then": save_outcome(e.effect, self._name(figures, e.figure), None, False),
                        "killed": e.effect == "killed",
                    }
                    dice.append(save)
                case ev.FigureHurt() if save is not None and save["figure"] == e.figure:
                    save["then"] = save_outcome(
                        save["effect"], self._name(figures, e.figure), (e.shock, e.wounds), False
                    )
                case ev.FigureKilled() if save is not None and save["figure"] == e.figure:
                    save["killed"] = True
                    save["then"] = save_outcome(save["effect"], self._name(figures, e.figure), None, True)
                case ev.ThingDropped() if save is not None and save["figure"] == e.figure:
                    save["then"] = " ".join(x for x in (save["then"], text(e)) if x)
                case ev.CoinsWon():
                    coins.append(
                        {
                            "side": e.side,
                            "coins": e.coins,
                            "reason": e.reason,
                            "total": e.total,
                            "text": text(e),
                        }
                    )
                case _:
                    pass
        return {
            "type": "report",
            "turn": observation.get("turn"),
            "sides": [
                {
                    "side": i,
                    "name": s["name"],
                    "colour": s["colour"],
                    "coins": s["coins"],
                    "target": s["target"],
                }
                for i, s in enumerate(observation.get("sides", []))
            ],
            "figures": [
                {
                    "id": f["id"],
                    "name": f["name"],
                    "side": f["side"],
                    "seat": f["seat"],
                    "kind": f["kind"],
                    "shock": f["shock"],
                    "wounds": f["wounds"],
                    "alive": f["alive"],
                }
                for f in figures.values()
            ],
            "dice": dice,
            "coins": coins,
        }

    @staticmethod
    def _name(figures: Mapping[Any, JSON], fid: int) -> str:
        """A figure's name from the observation."""
        f = figures.get(fid)
        return str(f["name"]) if f is not None else f"figure {fid}"

    # ----------------------------------------------------------------------------------------- cards

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """Each player's dealt cards: ``{"seat", "name", "side", "mine", "cards": [{"card", "label",
        "played", "up"}]}``; the card up is the one whose holder activates a figure now."""
        up = observation.get("card_up")
        out: list[JSON] = []
        for p in observation.get("players", []):
            cards = [
                {
                    "card": c["card"],
                    "label": c["label"],
                    "played": c["played"],
                    "up": up is not None and up["card"] == c["card"] and up["seat"] == p["seat"],
                }
                for c in p.get("cards", [])
            ]
            out.append(
                {
                    "seat": p["seat"],
                    "name": p["name"],
                    "side": p["side"],
                    "mine": seat is not None and p["seat"] == seat,
                    "cards": cards,
                }
            )
        return out


def _approach_points(st: ValhallaState, f: Figure) -> list[tuple[int, Point]]:
    """Per enemy, the nearest point exactly at the edge of its 2" zone from which this figure could charge it
    with its next action: ``(enemy id, point)``.

    A move may end 2" from an enemy and a charge covers 2" (measured to the hundredth of an inch, as positions
    are kept), but no finger taps hundredths: the table offers the points of the hundredths grid that lie at
    exactly 2" (edge to edge), checked with the engine's ``why_not_move`` and, after the move, its
    ``why_not_charge``, and the screen snaps a tap near one to it.
    """
    r = rules()
    base = r.table.base_radius
    if f.carrying is not None:
        return []
    used = st.actions_used if st.active == f.id else 0
    allowance = (
        st.allowance if st.active == f.id else (r.actions.when_hurt if f.hurt else r.actions.per_activation)
    )
    if allowance - used < 2:
        return []  # the move would be its last action: no charge can follow
    ring = round((2 * base + r.actions.enemy_zone) * 100)
    if abs(ring - (2 * base + r.actions.enemy_zone) * 100) > 1e-9:
        return []  # no grid point lies exactly on the zone's edge
    offsets = [(x, y) for x in range(-ring, ring + 1) for y in _square_roots(ring * ring - x * x)]
    out: list[tuple[int, Point]] = []
    for e in st.enemies_of(f):
        near = math.hypot(e.at[0] - f.at[0], e.at[1] - f.at[1]) - ring / 100
        if near > r.actions.move or near <= 0:
            continue
        cands = sorted(
            ((round(e.at[0] + x / 100, 2), round(e.at[1] + y / 100, 2)) for x, y in offsets),
            key=lambda p: (math.hypot(p[0] - f.at[0], p[1] - f.at[1]), p),
        )
        for p in cands[:8]:
            if why_not_move(st, f, [f.at, p], r.actions.move) is not None:
                continue
            moved = st.with_figure(replace(f, at=p))
            if why_not_charge(moved, moved.figure(f.id), moved.figure(e.id)) is None:
                out.append((e.id, p))
                break
    return out


def _square_roots(n: int) -> list[int]:
    """The integers whose square is ``n`` (none, one, or a pair)."""
    if n < 0:
        return []
    k = math.isqrt(n)
    if k * k != n:
        return []
    return [k] if k == 0 else [k, -k]


def _reach(start: Point, points: Sequence[Point], directions: int = 16) -> list[list[float]]:
    """The outline of a figure's reach: the furthest offered point in each of ``directions`` sectors round it,
    by angle (an approximation for drawing: any point the rules accept may still be tapped)."""
    return [_xy(p) for p in reach_outline(start, points, directions, hull=False)]


__all__ = ["COMBAT_MS", "ILLEGAL_MS", "ValhallaAdapter"]
