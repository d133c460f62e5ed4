"""WarQuest at the table: lights on the map's regions, options, a picked leader's destinations (its battles
marked), previews (a move into battle with its odds), the dice report and one card per warlord.

Decisions (for docs/architecture.md):

- **Regions are the places.** Every light is ``Light.on_region``: the map's drawing data (``maps.map_json``)
  gives the browser the outlines, and a physical table maps region ids to its LEDs.
- **Only the seat's view, and nothing hidden.** ``lights``, ``report`` and ``cards`` read the seat's own
  observation and the events it may see. A quest card's region is lit only from the observation's ``hand``,
  which ``observe`` fills for its holder alone (issue 15 section 4): another seat, and a spectator, never see
  it lit. A card never shows another seat's hand, only how many cards it holds.
- **Standing lights**: the regions of the leaders the seat may move (``movable``), the battle being fought
  (``battle``, alternating), the seat's own quest regions (``quest``).
- **Transient lights** of the last step's events, by event class: a move's end
  (``destination``), a battle's start (``charge``) and its end (``won``), a conquest (``won``), a tax
  (``tax``), troops bought or mustered (``deploy``), losses (``lost``), a quest declared (``quest``: the card
  is shown to all once attempted).
- **Selection** is cheap: a picked leader's legal destinations, each with its path and the move of the
  leader with all its unmoved troops (and alone); a destination holding another warlord's pieces is marked
  ``battle: true``, with no odds (a late leader beside three armies would hold the server's loop a second).
- **Odds on demand**: ``preview`` of a move into a battle, with the troops the player chose (leaving some
  behind changes them), gives the chance of winning it (``odds.battle_odds`` in its table setting,
  ``TABLE_BUDGET`` and ``TABLE_TOLERANCE``: exact for small battles, else with its error bound stated) and
  the first round's (hits, flees) law of each rank (``odds.rank_previews``). The battle is the one the engine
  starts: the move is applied to the state (a value: nothing changes) and its ``battle`` read back; the odds
  are cached per battle, so asking again for the same troops is free.
- **Preview**: the engine is asked whether the action is legal now and why not; its sentences stop before the
  first event that would turn a hidden card (a market refill, a card drawn, the round's event), so a preview
  never shows what only doing the action would show.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from iwgt.core.legal_cache import LegalActions
from iwgt.core.lights import BASE, ORANGE, VIOLET, YELLOW, Effects, Light, colour
from iwgt.core.plugin import AnyGame
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.core.table import Piece, Surface
from iwgt.core.table_kit import trial
from iwgt.games.warquest import actions as act
from iwgt.games.warquest import battle_events as be
from iwgt.games.warquest import events as ev
from iwgt.games.warquest import happenings as hp
from iwgt.games.warquest import odds
from iwgt.games.warquest.battle import Battle
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.powers import FreeTroops
from iwgt.games.warquest.words import Names, WqWords, sentence

SHOWN_MS: Final = 2500
"""How long an event's transient light stays on."""
ILLEGAL_MS: Final = 2000
"""A refused region stays red this long."""
ODDS_CACHE: Final = 64
"""Battles whose odds the adapter keeps (the screen previews the same move again as troops are ticked)."""

WQ_EFFECTS: Final = BASE.extend(
    {
        "quest": VIOLET,  # the seat's own quest locations (its hand: never another's)
        "tax": YELLOW,  # a city taxed
        "question": ORANGE,  # the battle a question is about
    },
    (
        "deploy", "quest", "movable", "tax", "destination", "charge", "preview", "selected", "question",
        "melee", "firing", "under_fire", "won", "lost", "destroyed", "illegal",
    ),
)  # fmt: skip
"""The shared effects and the game's own, least urgent first."""

PALETTE: Final = WQ_EFFECTS.palette
"""Effect -> colour for the region map."""

REVEALING: Final = frozenset(
    {
        "MarketTurned",
        "HandDealt",
        "CardsDealt",
        "QuestCardDrawn",
        "EventTurned",
        "TreasureDrawn",
        "MarketReplaced",
    }
)
"""Events that turn a hidden card (a market refill, a card drawn, the round's event): a preview stops before
the first of them."""

DEPLOYED: Final = (ev.TroopsBought, ev.LeadersPlaced, hp.Mustered, FreeTroops, ev.LieutenantBought)
"""Events that put pieces on a region (lit ``deploy``)."""
LOST: Final = (hp.TroopLost, hp.TokenRemoved, be.ArmyFellBack)
"""Events that take pieces off a region (lit ``lost``)."""

ROLLED: Final = frozenset({"AttackRolled", "SpellRolled", "Pursued", "MonsterRolled", "QuestRolled"})
"""Events carrying dice, for the report."""
COMBAT_FACES: Final = {1: "hit", 2: "flee"}
"""The combat die's faces with a meaning (WQ-CB-01 decided); the other four are blank."""


def _state(state: Any) -> Any:
    from iwgt.games.warquest.state import WqState

    if not isinstance(state, WqState):
        raise TypeError(f"the WarQuest table needs its own state, got {type(state).__name__}")
    return state


def _jsonable(value: Any) -> Any:
    """Odds as JSON: mapping keys as strings, tuples as lists, floats rounded."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


class _Lit:
    """One view's lights on regions, in the palette's colours."""

    def __init__(self, palette: Mapping[str, str]) -> None:
        self.palette = palette
        self.out: list[Light] = []

    def region(self, region: Any, effect: str, pattern: str = "steady", **kw: Any) -> None:
        """Light a region by id (nothing for anything else)."""
        if not isinstance(region, str) or not region:
            return
        hue = colour(kw.pop("key", None) or effect, self.palette)
        self.out.append(Light.on_region(region, effect, hue, pattern, kw.get("delay", 0), kw.get("duration")))


class WqAdapter:
    """The table adapter of WarQuest; ``palette`` remaps the colours for a physical table."""

    effects: ClassVar[Effects] = WQ_EFFECTS
    """The table's effects, least urgent first: a physical table orders its frame's lights by them."""

    def __init__(self, palette: Mapping[str, str] = PALETTE) -> None:
        self.palette = palette
        self.words = WqWords()
        self._legal = LegalActions()
        self._odds: OrderedDict[Battle, JSON] = OrderedDict()

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
        lit = _Lit(self.palette)
        where = leader_regions(observation)
        hand = observation.get("hand")
        if seat is not None and isinstance(hand, dict):
            # The seat's own quest cards (observe fills ``hand`` for its holder only, WQ-SU-08).
            for q in hand.get("quests") or []:
                if isinstance(q, dict):
                    lit.region(q.get("region"), "quest")
        for lid in movable:
            lit.region(where.get(lid), "movable")
        battle = observation.get("battle")
        if isinstance(battle, dict):
            region = battle.get("region")
            lit.region(region, "melee", "alternate")
            lit.region(region, "melee", "alternate", key="melee_alt")
            question = observation.get("question")
            if isinstance(question, dict) and question.get("seat") == seat and seat is not None:
                lit.region(region, "question", "pulse")
        self._transient(lit, events)
        return WQ_EFFECTS.ordered(lit.out)

    def _transient(self, lit: _Lit, events: Sequence[Event]) -> None:
        for e in events:
            shown = SHOWN_MS
            if isinstance(e, ev.ArmyMoved):
                if e.path:
                    lit.region(e.path[-1], "destination", duration=shown)
            elif isinstance(e, be.BattleBegan):
                lit.region(e.region, "charge", "flash", duration=shown)
            elif isinstance(e, be.BattleWon | ev.Conquered):
                lit.region(e.region, "won", duration=shown)
            elif isinstance(e, ev.Taxed):
                lit.region(e.region, "tax", "flash", duration=shown)
            elif isinstance(e, DEPLOYED):
                lit.region(e.region, "deploy", duration=shown)
            elif isinstance(e, LOST):
                lit.region(e.region, "lost", duration=shown)
            elif isinstance(e, be.WarlordEscaped):
                lit.region(e.region, "destination", duration=shown)
            elif isinstance(e, ev.QuestDeclared):  # the card is shown to all once attempted (WQ-QU-01)
                lit.region(e.region, "quest", "flash", duration=shown)

    def refusal_lights(self, observation: JSON, action: JSON) -> list[Light]:
        """A refused action's region (a move's end, a tax, a recruit...) red for ``ILLEGAL_MS``."""
        lit = _Lit(self.palette)
        path = action.get("path")
        region = path[-1] if isinstance(path, list) and path else action.get("region")
        lit.region(region, "illegal", duration=ILLEGAL_MS)
        return lit.out

    # ------------------------------------------------------------------------ options and selection

    # ------------------------------------------------------------------------------ physical table

    def surface(self, observation: JSON) -> Surface:
        """The map's regions, each outline in inches on its board's size, turned y-up as a Surface wants.

        The map's own points have y down (maps.py: the screen draws the top of the map first), a Surface's y
        points up from the bottom-left corner: y becomes ``height - y``, so the map's top edge lies at the
        table's far edge, where the screen draws it (a region at the top of the map lights the table's first
        rows)."""
        m = load_map(str(observation["map"]))
        height = float(m.height)
        outlines = {
            rid: tuple((float(x), height - float(y)) for x, y in m.geometry.outlines[rid])
            for rid in m.regions
        }
        return Surface("regions", float(m.width), height, outlines)

    def pieces(self, observation: JSON) -> list[Piece]:
        """None: a region holds many troops, so the sensors follow no piece (the touchscreen moves them)."""
        return []

    def options(self, game: AnyGame, state: Any, seat: Seat) -> JSON:
        """The leaders with a legal move now (lit) and every legal action but the moves, whose paths come
        with a selection."""
        st = _state(state)
        movable: dict[int, None] = {}
        actions: list[JSON] = []
        for a in self._legal.get(game, st, seat):
            if isinstance(a, act.Move):
                movable.setdefault(a.leader)
                continue
            actions.append(game.action_to_json(a))
        return {"movable": sorted(movable), "actions": actions}

    def selection(self, game: AnyGame, state: Any, seat: Seat, unit_id: int) -> JSON:
        """A picked leader: its legal destinations, each with its path, the move with all its unmoved troops
        (and alone), and ``battle: true`` where it would fight (no odds: ``preview`` the chosen move)."""
        st = _state(state)
        out: JSON = {
            "type": "selection",
            "unit": unit_id,
            "leader": unit_id,
            "region": None,
            "destinations": [],
            "lights": [],
        }
        leader = st.leader(unit_id) if isinstance(unit_id, int) else None
        if leader is None or leader.seat != seat:
            return out
        out["region"] = leader.region
        best: dict[str, act.Move] = {}
        alone: dict[str, act.Move] = {}
        for a in self._legal.get(game, st, seat):
            if not isinstance(a, act.Move) or a.leader != unit_id or not a.path:
                continue
            end = a.path[-1]
            if not a.troops:
                alone.setdefault(end, a)
            if end not in best or len(a.troops) > len(best[end].troops):
                best[end] = a
        lit = _Lit(self.palette)
        lit.region(leader.region, "selected")
        for end, move in best.items():
            foes = st.seats_in(end) - {seat}
            fights = bool(foes)
            entry: JSON = {
                "region": end,
                "path": list(move.path),
                "troops": list(move.troops),
                "action": game.action_to_json(move),
                "alone": game.action_to_json(alone[end]) if end in alone and alone[end] != move else None,
                "battle": fights,
                "foe": min(foes) if foes else None,
            }
            out["destinations"].append(entry)
            lit.region(end, "charge" if fights else "destination")
        out["lights"] = [x.to_json() for x in WQ_EFFECTS.ordered(lit.out)]
        return out

    def battle_odds(self, battle: Battle) -> JSON:
        """The odds of a battle as the engine starts it (``odds_json``), cached: the screen asks again as the
        player ticks troops back and forth."""
        if battle in self._odds:
            self._odds.move_to_end(battle)
            return self._odds[battle]
        found = odds_json(battle)
        self._odds[battle] = found
        if len(self._odds) > ODDS_CACHE:
            self._odds.popitem(last=False)
        return found

    # --------------------------------------------------------------------------------------- preview

    def preview(self, game: AnyGame, state: Any, seat: Seat, action: JSON) -> JSON:
        """Whether the action is legal now (and why not), what it would do in words (never a hidden card it
        would turn), and for a move into a battle the odds of that battle, with the troops the move takes."""
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
        if isinstance(a, act.Move) and after.battle is not None:
            out["odds"] = self.battle_odds(after.battle)
        names = Names(game.observe(after, seat))
        lines: list[str] = []
        for e in events:
            if type(e).__name__ in REVEALING:
                break  # the rest would show what only doing it shows
            if e.visible_to(seat) and (said := sentence(e, names, seat)):
                lines.append(said)
        out["lines"] = lines
        return out

    # ---------------------------------------------------------------------------------------- report

    def report(self, observation: JSON, events: Sequence[Event]) -> JSON | None:
        """The dice report of the last step (None when no dice were rolled): each roll's faces (combat dice
        as hit, flee or blank; a quest's two dice as numbers), its hits and flees, and every line in the
        game's words: ``{"type": "report", "round", "battle_round", "rolls", "lines"}``."""
        names = Names(observation)
        rolls = [roll_json(e, names) for e in events if type(e).__name__ in ROLLED]
        if not rolls:
            return None
        battle = observation.get("battle")
        return {
            "type": "report",
            "round": observation.get("round"),
            "battle_round": battle.get("round") if isinstance(battle, dict) else None,
            "rolls": rolls,
            "lines": [said for e in events if (said := sentence(e, names))],
        }

    # ----------------------------------------------------------------------------------------- cards

    def cards(self, observation: JSON, seat: Seat | None) -> list[JSON]:
        """One card per warlord: name, colour, gold, VP, sacred quests, power cards, how many quest and
        conquest cards it holds, lieutenants, tokens and battles won; the seat's own card also lists its hand
        (from the observation's ``hand``, which holds only the seat's own cards)."""
        out: list[JSON] = []
        hand = observation.get("hand") if seat is not None else None
        for p in observation.get("players") or []:
            if not isinstance(p, dict):
                continue
            mine = seat is not None and p.get("seat") == seat
            card: JSON = {
                "seat": p.get("seat"),
                "name": p.get("name"),
                "colour": p.get("colour"),
                "mine": mine,
                "to_move": observation.get("seat") == p.get("seat") and observation.get("phase") == "turn",
                "gold": p.get("gold", 0),
                "vp": p.get("vp", 0),
                "sacred": p.get("sacred", 0),
                "quests_held": p.get("quests_held", 0),
                "conquests_held": p.get("conquests_held", 0),
                "powers": [c.get("name") for c in p.get("powers") or [] if isinstance(c, dict)],
                "done_quests": [q.get("name") for q in p.get("done_quests") or [] if isinstance(q, dict)],
                "lieutenants": p.get("lieutenants", 0),
                "tokens_left": p.get("tokens_left", 0),
                "battles_won": p.get("battles_won", 0),
            }
            if mine and isinstance(hand, dict):
                card["hand"] = {
                    "quests": [dict(q) for q in hand.get("quests") or [] if isinstance(q, dict)],
                    "conquests": [dict(c) for c in hand.get("conquests") or [] if isinstance(c, dict)],
                }
            out.append(card)
        return out


# ------------------------------------------------------------------------------------------ pieces


def leader_regions(observation: JSON) -> dict[int, str]:
    """Each leader on the board (by id) and its region, from the observation."""
    out: dict[int, str] = {}
    for r in observation.get("regions") or []:
        if not isinstance(r, dict) or not isinstance(r.get("id"), str):
            continue
        for ld in r.get("leaders") or []:
            if isinstance(ld, dict) and isinstance(ld.get("id"), int):
                out[ld["id"]] = r["id"]
    return out


def odds_json(battle: Battle) -> JSON:
    """A battle's odds as the screen shows them: the chance each side wins, the error bound (0: exact), the
    mean number of rounds, and the first round's (hits, flees) law of each rank."""
    if battle.winner is not None:  # decided before a die is rolled (a side with no troops at all, WQ-MS-41)
        return {
            "attacker_wins": float(battle.winner == "attacker"),
            "defender_wins": float(battle.winner == "defender"),
            "error": 0.0,
            "exact": True,
            "rounds_mean": 0.0,
            "round": None,
        }
    # The table setting (a state budget and a tolerance) keeps a big battle to a fraction of a second, its
    # error bound stated (0: exact).
    found = odds.battle_odds(battle, budget=odds.TABLE_BUDGET, tolerance=odds.TABLE_TOLERANCE)
    error = float(found.error)
    return {
        "attacker_wins": round(float(found.p_attacker_wins), 6),
        "defender_wins": round(float(found.p_defender_wins), 6),
        "error": round(error, 6),
        "exact": error == 0,
        "rounds_mean": round(float(found.rounds_mean), 3),
        "round": _jsonable(odds.rank_previews(battle)),
    }


def roll_json(e: Event, names: Names) -> JSON:
    """One roll for the dice report: who rolled, what for, each die's face (combat dice labelled), the hits
    and flees (or a quest's total), and the roll's sentence."""
    kind = type(e).__name__
    faces = [int(f) for f in getattr(e, "faces", None) or getattr(e, "dice", None) or ()]
    quest = kind == "QuestRolled"
    return {
        "kind": kind,
        "seat": getattr(e, "seat", None),
        "faces": faces,
        "labels": [str(f) if quest else COMBAT_FACES.get(f, "blank") for f in faces],
        "hits": getattr(e, "hits", None),
        "flees": getattr(e, "flees", None),
        "success": getattr(e, "success", None) if quest else None,
        "text": sentence(e, names),
    }
