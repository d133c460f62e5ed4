"""A position of Valhalla in one line of text (FEN-like), and back.

The notation names everything a position needs to go on from it, given its scenario (the table, the
players, the figures' kinds and names, the things and baggage come from the scenario, not from the text):
the turn and phase, the coins, the cards dealt and the card up, the active figure and its actions, every
figure where it stands (to the hundredth of an inch, as the referee keeps positions) with its shock,
wounds and activation, the things and baggage, the combats, and at a roll the fight, shot or saving
throws awaited. ``notation(state)`` writes it; ``parse_notation(text, scenario)`` reads it back.

Grammar. Sections are separated by ``" | "``; inside a section words are separated by single spaces. A mark
is written only when it differs from its usual value. ::

    notation := header (" | " section)*
    header   := "valhalla/" SCENARIO " turn=" INT " phase=" PHASE " coins=" INT "," INT
                [" active=" FID " used=" INT "/" INT] [" withdrew"] [" achieved=" INT ("," INT)*]
                [" baggage=" TID ("," TID)*] [" winner=" (SIDE | "draw")]
    PHASE    := "deal" | "activate" | "baggage" | "over"
    FID      := "F" INT                    a figure by id: seat 0's hero, warrior, archer are F0, F1, F2 ...
    TID      := "T" INT                    a thing or baggage by id (things first, then baggage)
    SIDE     := "0" | "1"
    XY       := NUM "," NUM                inches from the table's bottom-left corner, to the hundredth
    CARD     := RANK SUIT                  RANK: A 2 ... 10 J Q K; SUIT: c d h s (``Ac``, ``10h``, ``Qs``)
    section  := cards | figure | thing | combat | fight | shot | saves

    cards    := "cards" (" " CARD "/" SEAT | " [" CARD "/" SEAT "]")+
                every card dealt this turn with its holder's seat, in the order they come up; the card up
                now is in brackets, the ones before it are played
    figure   := FID " P" SEAT " " KIND " " XY [" shock=" INT] [" wounds=" INT] [" activated"]
                [" carrying=" TID] [" dead"]
    thing    := TID " " ("thing" | "baggage") " " XY [" carrier=" FID]
    combat   := "combat " FID ">" FID                  an engagement: the charger > the figure it charged
    fight    := "fight " FID ">" FID [" charging"] [" faces=" (INT | "-") "," (INT | "-")]
    shot     := "shot " FID ">" FID " needs=" INT " distance=" NUM [" cover"]
    saves    := "saves " FID ("," FID)*                figures awaiting a Dice of Death, one per hit

``active`` is the figure the card up activated, ``used`` its actions used of its allowance; ``achieved``
lists the objectives scored; ``baggage`` the baggage still to move at the end of the turn. The deck, the
seats still to be dealt a card and the order the cards come up follow from the cards dealt (the deck is
gathered whole each turn and dealt one card per living figure, round the table). Example, turn 6 of
``skirmish``: seat 1's 7 of spades is up and its slinger has made one of its two actions; seat 1's hero
carries the thing, and seat 1's warrior charged seat 0's::

    valhalla/skirmish turn=6 phase=activate coins=0,0 active=F5 used=1/2 \
| cards Ad/0 2d/0 6d/1 [7s/1] Jh/0 Kd/1 | F0 P0 hero 10.96,0.51 activated | F1 P0 warrior 28.65,16.15 \
| F2 P0 archer 6.23,14.03 wounds=1 activated | F3 P1 hero 30.93,11.88 carrying=T0 \
| F4 P1 warrior 28.6,17.15 activated | F5 P1 slinger 0.5,19.46 activated | T0 thing 30.93,11.88 carrier=F3 \
| combat F4>F1

(one line; it is broken here only to fit). Not covered: why a finished game ended (``over_reason``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast, get_args

from iwgt.core.notation import NotationReader
from iwgt.games.valhalla.config import rules
from iwgt.games.valhalla.scenario import ValhallaScenario
from iwgt.games.valhalla.state import (
    RANKS,
    Engagement,
    Fight,
    Figure,
    Phase,
    Shot,
    Thing,
    ValhallaState,
    card_rank,
)
from iwgt.geometry.plane import XY

_PHASES: tuple[str, ...] = get_args(Phase)
DECK = 52
"""The cards in the deck (VH-TS-01 decided)."""


# ---------------------------------------------------------------- writing


def inches(x: float) -> str:
    """A length to the hundredth of an inch, without trailing zeros: ``12.5``, ``3``, ``7.25``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def point(p: XY) -> str:
    """A point as ``x,y`` in inches."""
    return f"{inches(p[0])},{inches(p[1])}"


def card_text(card: int) -> str:
    """A card in ASCII: rank then suit letter (``Ac``, ``10h``, ``Ks``)."""
    return RANKS[card_rank(card) - 1] + rules().table.suits[card % 4][0]


def _fids(ids: tuple[int, ...] | list[int]) -> str:
    return ",".join(f"F{i}" for i in ids)


def _figure(f: Figure) -> str:
    words = [f"F{f.id}", f"P{f.seat}", f.kind, point(f.at)]
    if f.shock:
        words.append(f"shock={f.shock}")
    if f.wounds:
        words.append(f"wounds={f.wounds}")
    if f.activated:
        words.append("activated")
    if f.carrying is not None:
        words.append(f"carrying=T{f.carrying}")
    if not f.alive:
        words.append("dead")
    return " ".join(words)


def _thing(t: Thing) -> str:
    words = [f"T{t.id}", "thing" if t.baggage_side is None else "baggage", point(t.at)]
    if t.carrier is not None:
        words.append(f"carrier=F{t.carrier}")
    return " ".join(words)


def _cards(state: ValhallaState) -> str | None:
    dealt = sorted((c, s) for s, hand in enumerate(state.hands) for c in hand)
    if not dealt:
        return None
    words = ["cards"]
    for i, (c, s) in enumerate(dealt):
        text = f"{card_text(c)}/{s}"
        up = bool(state.order) and i == state.card_index
        words.append(f"[{text}]" if up else text)
    return " ".join(words)


def notation(state: ValhallaState) -> str:
    """The position in one line (the grammar is in this module's docstring)."""
    head = [
        f"valhalla/{state.scenario.name}",
        f"turn={state.turn}",
        f"phase={state.phase}",
        f"coins={state.coins[0]},{state.coins[1]}",
    ]
    if state.active is not None:
        head.append(f"active=F{state.active}")
    if state.active is not None or state.actions_used or state.allowance:
        head.append(f"used={state.actions_used}/{state.allowance}")
    if state.withdrew:
        head.append("withdrew")
    if state.achieved:
        head.append("achieved=" + ",".join(str(i) for i in sorted(state.achieved)))
    if state.baggage_queue:
        head.append("baggage=" + ",".join(f"T{i}" for i in state.baggage_queue))
    if state.phase == "over":
        head.append(f"winner={'draw' if state.winner_side is None else state.winner_side}")
    sections = [" ".join(head)]
    cards = _cards(state)
    if cards is not None:
        sections.append(cards)
    sections.extend(_figure(f) for f in state.figures)
    sections.extend(_thing(t) for t in state.things)
    sections.extend(f"combat F{e.charger}>F{e.charged}" for e in state.engagements)
    if state.fight is not None:
        f = state.fight
        words = ["fight", f"F{f.attacker}>F{f.defender}"]
        if f.charging:
            words.append("charging")
        if f.attacker_face is not None or f.defender_face is not None:
            a, d = (("-" if v is None else str(v)) for v in (f.attacker_face, f.defender_face))
            words.append(f"faces={a},{d}")
        sections.append(" ".join(words))
    if state.shot is not None:
        s = state.shot
        words = ["shot", f"F{s.shooter}>F{s.target}", f"needs={s.needs}", f"distance={inches(s.distance)}"]
        if s.cover:
            words.append("cover")
        sections.append(" ".join(words))
    if state.saves:
        sections.append("saves " + _fids(state.saves))
    return " | ".join(sections)


# ---------------------------------------------------------------- reading


_CARD = re.compile(r"(A|[2-9]|10|J|Q|K)([a-z])")


class _Reader(NotationReader):
    """Reads the words of a notation against its scenario's figures and things."""

    def __init__(self, figures: int, things: int) -> None:
        super().__init__("valhalla")
        self.figures = figures
        self.things = things

    def number(self, text: str, what: str = "a number of inches") -> float:
        """Inches, to the hundredth as positions are kept."""
        return round(super().number(text, what), 2)

    def point(self, text: str) -> XY:
        parts = text.split(",")
        if len(parts) != 2:
            raise self.fail(f"a point x,y expected, got {text!r}")
        return (self.number(parts[0]), self.number(parts[1]))

    def fid(self, text: str) -> int:
        if not text.startswith("F"):
            raise self.fail(f"a figure such as F3 expected, got {text!r}")
        i = self.whole(text[1:], "a figure id")
        if not 0 <= i < self.figures:
            raise self.fail(f"there is no figure {i} in this scenario (figures are F0..F{self.figures - 1})")
        return i

    def tid(self, text: str) -> int:
        if not text.startswith("T"):
            raise self.fail(f"a thing such as T0 expected, got {text!r}")
        i = self.whole(text[1:], "a thing id")
        if not 0 <= i < self.things:
            raise self.fail(f"there is no thing {i} in this scenario")
        return i

    def pair(self, text: str) -> tuple[int, int]:
        a, gt, b = text.partition(">")
        if not gt:
            raise self.fail(f"two figures F1>F2 expected, got {text!r}")
        return self.fid(a), self.fid(b)

    def card(self, text: str) -> int:
        m = _CARD.fullmatch(text)
        suits = [s[0] for s in rules().table.suits]
        if m is None or m.group(2) not in suits:
            raise self.fail(f"a card such as Ac, 10h or Ks expected, got {text!r}")
        return RANKS.index(m.group(1)) * 4 + suits.index(m.group(2))


def _phase(r: _Reader, text: str) -> str:
    if text not in _PHASES:
        raise r.fail(f"phase {text!r} is not one of {', '.join(_PHASES)}")
    return text


def _read_cards(r: _Reader, words: list[str], seats: int) -> tuple[list[tuple[int, int]], int | None]:
    dealt: list[tuple[int, int]] = []
    up: int | None = None
    for i, w in enumerate(words):
        if w.startswith("[") and w.endswith("]"):
            if up is not None:
                raise r.fail("two cards are up")
            up, w = i, w[1:-1]
        c, slash, s = w.partition("/")
        if not slash:
            raise r.fail(f"CARD/SEAT expected, got {w!r}")
        seat = r.whole(s, "a seat")
        if not 0 <= seat < seats:
            raise r.fail(f"there is no seat {seat} (seats are 0..{seats - 1})")
        dealt.append((r.card(c), seat))
    cards = [c for c, _ in dealt]
    if len(set(cards)) != len(cards):
        raise r.fail("a card is dealt twice")
    if dealt != sorted(dealt):
        raise r.fail("the cards must be written in the order they come up (Ace first, then suit order)")
    return dealt, up


def parse_notation(text: str, scenario: ValhallaScenario) -> ValhallaState:
    """The state a notation describes, on its scenario; raises NotationError saying what is wrong."""
    from iwgt.games.valhalla.game import ValhallaGame  # the figures' fixed facts: seat, side, kind, name

    base = ValhallaGame().initial_state(scenario)
    seats = len(scenario.spec.players)
    r = _Reader(len(base.figures), len(base.things))
    sections = text.strip().split(" | ")
    head = sections[0].split(" ")
    if head[0] != f"valhalla/{scenario.name}":
        raise r.fail(f"'valhalla/{scenario.name}' expected first, got {head[0]!r}")
    h = r.marks(
        head[1:],
        {
            "turn": r.whole,
            "phase": lambda t: _phase(r, t),
            "coins": lambda t: tuple(r.whole(c) for c in t.split(",")),
            "active": r.fid,
            "used": lambda t: tuple(r.whole(c) for c in t.split("/")),
            "achieved": lambda t: frozenset(r.whole(c) for c in t.split(",")),
            "baggage": lambda t: tuple(r.tid(c) for c in t.split(",")),
            "winner": lambda t: None if t == "draw" else r.whole(t, "a side 0, 1 or draw"),
        },
        ("withdrew",),
    )
    for key in ("turn", "phase", "coins"):
        if key not in h:
            raise r.fail(f"'{key}=' is missing")
    if len(h["coins"]) != 2 or len(h.get("used", (0, 0))) != 2:
        raise r.fail("coins=A,B and used=N/M take two numbers")
    dealt: list[tuple[int, int]] = []
    up: int | None = None
    figures: dict[int, Figure] = {}
    things: dict[int, Thing] = {}
    engagements: list[Engagement] = []
    fight: Fight | None = None
    shot: Shot | None = None
    saves: tuple[int, ...] = ()
    for n, section in enumerate(sections[1:], start=1):
        words = section.split(" ")
        r.where = f"section {n} ({section[:40]!r})"
        first = words[0]
        if first == "cards":
            dealt, up = _read_cards(r, words[1:], seats)
        elif first.startswith("F") and len(words) >= 4:
            i = r.fid(first)
            f = base.figures[i]
            if words[1] != f"P{f.seat}" or words[2] != f.kind:
                raise r.fail(f"F{i} is P{f.seat}'s {f.kind} in this scenario, not {words[1]} {words[2]}")
            m = r.marks(
                words[4:], {"shock": r.whole, "wounds": r.whole, "carrying": r.tid}, ("activated", "dead")
            )
            if i in figures:
                raise r.fail(f"F{i} is given twice")
            figures[i] = replace(
                f,
                at=r.point(words[3]),
                shock=m.get("shock", 0),
                wounds=m.get("wounds", 0),
                activated=m.get("activated", False),
                carrying=m.get("carrying"),
                alive=not m.get("dead", False),
            )
        elif first.startswith("T") and len(words) >= 3:
            i = r.tid(first)
            t = base.things[i]
            kind = "thing" if t.baggage_side is None else "baggage"
            if words[1] != kind:
                raise r.fail(f"T{i} is a {kind} in this scenario, not a {words[1]}")
            m = r.marks(words[3:], {"carrier": r.fid}, ())
            if i in things:
                raise r.fail(f"T{i} is given twice")
            things[i] = replace(t, at=r.point(words[2]), carrier=m.get("carrier"))
        elif first == "combat" and len(words) == 2:
            engagements.append(Engagement(*r.pair(words[1])))
        elif first == "fight" and len(words) >= 2:
            a, d = r.pair(words[1])
            m = r.marks(
                words[2:],
                {"faces": lambda t: tuple(None if v == "-" else r.whole(v) for v in t.split(","))},
                ("charging",),
            )
            faces = m.get("faces", (None, None))
            if len(faces) != 2:
                raise r.fail("faces=A,D takes two faces (- for none)")
            fight = Fight(a, d, m.get("charging", False), faces[0], faces[1])
        elif first == "shot" and len(words) >= 2:
            a, d = r.pair(words[1])
            m = r.marks(words[2:], {"needs": r.whole, "distance": r.number}, ("cover",))
            if "needs" not in m or "distance" not in m:
                raise r.fail("a shot needs 'needs=' and 'distance='")
            shot = Shot(a, d, m["needs"], m["distance"], m.get("cover", False))
        elif first == "saves" and len(words) == 2:
            saves = tuple(r.fid(t) for t in words[1].split(","))
        else:
            raise r.fail(
                "a section is cards, a figure (F0 ...), a thing (T0 ...), combat, fight, shot or saves"
            )
    r.where = "the figures"
    missing = [i for i in range(len(base.figures)) if i not in figures]
    if missing:
        raise r.fail(f"figure(s) {_fids(missing)} missing")
    missing = [i for i in range(len(base.things)) if i not in things]
    if missing:
        raise r.fail(f"thing(s) {', '.join(f'T{i}' for i in missing)} missing")
    phase = h["phase"]
    hands = tuple(tuple(c for c, s in dealt if s == seat) for seat in range(seats))
    order = () if phase == "deal" else tuple(dealt)
    if up is not None and not order:
        raise r.fail("no card is up while the cards are dealt")
    figs = tuple(figures[i] for i in range(len(base.figures)))
    to_deal: tuple[int, ...] = ()
    if phase == "deal":  # the deal goes on round the table: one card per living figure (VH-TS-02)
        alive = [sum(1 for f in figs if f.alive and f.seat == s) for s in range(seats)]
        rounds = tuple(s for rnd in range(max(alive, default=0)) for s in range(seats) if alive[s] > rnd)
        if len(dealt) > len(rounds) or any(
            len(hands[seat]) != rounds[: len(dealt)].count(seat) for seat in range(seats)
        ):
            raise r.fail("the cards dealt so far do not follow the deal round the table (VH-TS-02)")
        to_deal = rounds[len(dealt) :]
    held = {c for c, _ in dealt}
    used, allowance = h.get("used", (0, 0))
    return replace(
        base,
        figures=figs,
        things=tuple(things[i] for i in range(len(base.things))),
        turn=h["turn"],
        phase=cast(Phase, phase),
        deck=tuple(c for c in range(DECK) if c not in held),
        to_deal=to_deal,
        hands=hands,
        order=order,
        card_index=len(order) if up is None else up,
        active=h.get("active"),
        allowance=allowance,
        actions_used=used,
        withdrew=h.get("withdrew", False),
        engagements=tuple(engagements),
        fight=fight,
        shot=shot,
        saves=saves,
        baggage_queue=h.get("baggage", ()),
        coins=h["coins"],
        achieved=h.get("achieved", frozenset()),
        winner_side=h.get("winner") if phase == "over" else None,
        over_reason="",
    )
