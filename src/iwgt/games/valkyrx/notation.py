"""A position of Days of the Valkyrx in one line of text (FEN-like), and back.

The notation names everything a position needs to go on from it, given its scenario (the board, terrain
and armies come from the scenario, not from the text): the turn, the phase, the seats, every unit with its
cell, strength, morale, status and markers, the contacts, the spells in force, and, at a chance node, the
dice awaited with the combat round or the spell in progress. Tests build positions from it and bug reports
quote it; ``notation(state)`` writes it and ``parse_notation(text, scenario)`` reads it back.

Grammar. Sections are separated by ``" | "``; inside a section words are separated by single spaces. A mark
is written only when it differs from its usual value (a flag only when true, a number only when not 0).
::

    notation := header (" | " section)*
    header   := "valkyrx/" SCENARIO " turn=" INT " phase=" PHASE
                [" deploy=" SIDE] [" first=" SIDE] [" mover=" SIDE] [" done=" INT]
                [" winner=" (SIDE | "draw")] [" slain=" UIDS] [" denied=" UIDS]
    PHASE    := "deploy" | "first_mover" | "movement" | "spells" | "combat" | "over"
    SIDE     := "L" | "D"                 the Light (seat 0) or the Darkness (seat 1)
    UID      := SIDE INT                  a unit: its owner's letter and its id (``L3``, ``D12``)
    UIDS     := UID ("," UID)*
    CELL     := INT "," INT               odd-r offset cell: column, row
    NUM      := a decimal number, written exactly (``12``, ``8.5``, ``11.733333333333333``)
    section  := unit | contact | spell | dice | casting | attack | rolls | raised

    unit     := UID " " TYPE " " CELL " " NUM "/" NUM (" " mark)*     type id, cell, strength / morale
    mark     := "reserve" | "destroyed" | "fled" | "left"     its status (none written: active)
              | "ctl=" SIDE                                  commanded by the other seat (Command)
              | "routed" | "airborne" | "hidden" | "moved" | "charging" | "prayed" | "carrier"
              | "cost=" NUM          the cells its move cost this turn
              | "charged=" INT       the turn of its last charge
              | "temple=" INT        the Temple's gift holds until this turn
              | "lost=" NUM          casualties this turn
              | "undead=" NUM        losses to the undead (Resurrection cannot restore them)
              | "quarry=" UID        the Grima's quarry
              | "surfaced=" INT      turns the Sand Worm has ended on the surface
              | "spells=" SPELL ("," SPELL)*     a wizard's spells not yet cast
              | "cast=" INT          the last turn the wizard cast
              | "bonus=" NUM         morale from Fear or Courage in force
              | "infected=" INT      the turn it caught the plague;   "plague=" NUM  its strength then
              | "burned=" INT | "chilled=" INT       the last turn fire or ice struck it
    contact  := "contact " UID " " UID [" rounds=" INT] [" deferred"] [" fresh"]
    spell    := "spell " SPELL " by=" UID " side=" SIDE " cast=" INT " turns=" INT "-" INT
                [" units=" UIDS] [" cells=" CELL (";" CELL)*] [" used=" INT]
    dice     := "dice " DIE (" " DIE)*       DIE := KIND [":" UID] ":d" INT [":secret"]
    casting  := "casting " SPELL " by=" UID " stage=" ("resist" | "effect") [" units=" UIDS]
                [" target=" CELL] [" resisted=" UIDS]
    attack   := "attack " UID ">" UID " " ("melee" | "missile") " share=" NUM
                [" melee_stage"] [" charge"] [" flank"] [" outnumbered"]
    rolls    := "rolls " INT ("," INT)*          faces gathered for the combat round in progress
    raised   := "raised " UID ":" NUM ("," UID ":" NUM)*     men slain this round by each undead unit

Units come in id order, then the contacts, the spells in force, and the chance node's sections. Morale is
the unit's own (without the ``bonus`` of a spell in force). Example, turn 2 of ``first_battle``, the Light
moving second, the Darkness's warriors and archers under the Light's Command::

    valkyrx/first_battle turn=2 phase=movement first=D mover=L done=1 \
| L0 wulfgeldre 2,3 0.8141818181818182/38.567 charged=1 spells=fire,strength,resurrection,deny_magic,shield \
cast=1 | L1 grima 7,1 1/40 quarry=D4 | L2 swordsmen 3,3 279.95151515151514/22.327 charged=1 \
| L3 archers 5,3 255.63636363636363/17.085 charged=1 \
| D4 ellorgast 4,4 0.4985454545454545/16.942 charged=1 spells=fear,weakness,disharmony,earthquake,shield \
cast=1 | D5 wearg_warriors 3,4 245.43030303030304/17.724 ctl=L \
| D6 wearg_archers 5,4 274.20454545454544/23.561 ctl=L \
| D7 lefan 2,5 1/35 spells=fire,ice,strength,speed,courage,deny_magic | D8 cave_troll 2,4 60/30 \
| contact L2 D4 rounds=1 \
| spell command by=L0 side=L cast=1 turns=2-4 units=D5,D6 \
| spell lead_boots by=D4 side=D cast=1 turns=1-3 units=L2,L3

(one line; it is broken here only to fit). Not covered: a die's wording (``purpose``), the reason of a
finished game's result, and the plague's chain of infections (a report of the past, shown at the end).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, cast, get_args, get_type_hints

from iwgt.core.notation import NotationReader
from iwgt.games.valkyrx.scenario import SIDES, ValkyrxScenario
from iwgt.games.valkyrx.state import (
    Attack,
    Casting,
    Contact,
    Enchantment,
    Pending,
    Phase,
    Unit,
    UnitStatus,
    ValkyrxState,
    Verdict,
)
from iwgt.geometry.hexgrid import Hex, hex_to_offset, offset_to_hex

SIDE_LETTERS = "LD"
"""Seat 0 (the Light) is ``L``, seat 1 (the Darkness) ``D``: the letters of ``Unit.label``."""
_PHASES: tuple[str, ...] = get_args(Phase)
_STATUSES = tuple(s for s in get_args(UnitStatus) if s != "active")
_FLAGS = ("routed", "airborne", "hidden", "moved", "charging", "prayed")
_PENDING_KINDS: tuple[str, ...] = get_args(get_type_hints(Pending)["kind"])


# ---------------------------------------------------------------- writing


def num(x: float) -> str:
    """A number written exactly: whole numbers without a point, others as Python's shortest repr."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def side(seat: int) -> str:
    """A seat's letter."""
    return SIDE_LETTERS[seat]


def cell(h: Hex) -> str:
    """A cell as ``col,row``."""
    col, row = hex_to_offset(h)
    return f"{col},{row}"


def uid(state: ValkyrxState, i: int) -> str:
    """A unit as ``L3`` or ``D12``."""
    return f"{side(state.units[i].owner)}{i}"


def _uids(state: ValkyrxState, ids: tuple[int, ...]) -> str:
    return ",".join(uid(state, i) for i in ids)


def _unit(state: ValkyrxState, u: Unit) -> str:
    words = [uid(state, u.id), u.type_id, cell(u.cell), f"{num(u.strength)}/{num(u.morale)}"]
    if u.status != "active":
        words.append(u.status)
    if u.controller is not None:
        words.append(f"ctl={side(u.controller)}")
    words.extend(flag for flag in _FLAGS if getattr(u, flag))
    if u.moved_cost:
        words.append(f"cost={num(u.moved_cost)}")
    if u.last_charge is not None:
        words.append(f"charged={u.last_charge}")
    for key, value in (
        ("temple", u.temple_until),
        ("lost", u.casualties_turn),
        ("undead", u.undead_losses),
    ):
        if value:
            words.append(f"{key}={num(value)}")
    if u.quarry is not None:
        words.append(f"quarry={uid(state, u.quarry)}")
    if u.surface_turns:
        words.append(f"surfaced={u.surface_turns}")
    if u.spells:
        words.append("spells=" + ",".join(u.spells))
    for key, value in (
        ("cast", u.cast_turn),
        ("bonus", u.morale_bonus),
        ("infected", u.infected),
        ("plague", u.plague_base),
    ):
        if value:
            words.append(f"{key}={num(value)}")
    if u.carrier_only:
        words.append("carrier")
    for key, value in (("burned", u.burned), ("chilled", u.chilled)):
        if value:
            words.append(f"{key}={value}")
    return " ".join(words)


def _spell(state: ValkyrxState, e: Enchantment) -> str:
    words = [
        "spell",
        e.spell,
        f"by={uid(state, e.caster)}",
        f"side={side(e.side)}",
        f"cast={e.cast_turn}",
        f"turns={e.first}-{e.last}",
    ]
    if e.units:
        words.append(f"units={_uids(state, e.units)}")
    if e.cells:
        words.append("cells=" + ";".join(cell(c) for c in e.cells))
    if e.used:
        words.append(f"used={e.used}")
    return " ".join(words)


def _die(state: ValkyrxState, p: Pending) -> str:
    parts: list[str] = [p.kind]
    if p.unit >= 0:
        parts.append(uid(state, p.unit))
    parts.append(f"d{p.sides}")
    if p.secret:
        parts.append("secret")
    return ":".join(parts)


def _casting(state: ValkyrxState, c: Casting) -> str:
    words = ["casting", c.spell, f"by={uid(state, c.caster)}", f"stage={c.stage}"]
    if c.units:
        words.append(f"units={_uids(state, c.units)}")
    if c.target is not None:
        words.append(f"target={cell(c.target)}")
    if c.resisted:
        words.append(f"resisted={_uids(state, c.resisted)}")
    return " ".join(words)


def _attack(state: ValkyrxState, a: Attack) -> str:
    words = ["attack", f"{uid(state, a.attacker)}>{uid(state, a.target)}", a.kind, f"share={num(a.share)}"]
    words.extend(flag for flag in ("melee_stage", "charge", "flank", "outnumbered") if getattr(a, flag))
    return " ".join(words)


def notation(state: ValkyrxState) -> str:
    """The position in one line (the grammar is in this module's docstring)."""
    head = [f"valkyrx/{state.scenario.name}", f"turn={state.turn}", f"phase={state.phase}"]
    if state.phase == "deploy" or state.deploy_seat != 1:  # deployment ends with the Darkness's tick
        head.append(f"deploy={side(state.deploy_seat)}")
    if state.first_mover is not None:
        head.append(f"first={side(state.first_mover)}")
    if state.mover is not None:
        head.append(f"mover={side(state.mover)}")
    if state.movers_done:
        head.append(f"done={state.movers_done}")
    if state.result is not None:
        w = state.result.winner
        head.append(f"winner={'draw' if w is None else side(w)}")
    if state.leaders_slain:
        head.append(f"slain={_uids(state, state.leaders_slain)}")
    if state.denied:
        head.append(f"denied={_uids(state, state.denied)}")
    sections = [" ".join(head)]
    sections.extend(_unit(state, u) for u in state.units)
    for c in state.contacts:
        words = ["contact", uid(state, c.a), uid(state, c.b)]
        if c.rounds:
            words.append(f"rounds={c.rounds}")
        if c.deferred:
            words.append("deferred")
        if c.fresh:
            words.append("fresh")
        sections.append(" ".join(words))
    sections.extend(_spell(state, e) for e in state.enchantments)
    if state.pending:
        sections.append("dice " + " ".join(_die(state, p) for p in state.pending))
    if state.casting is not None:
        sections.append(_casting(state, state.casting))
    sections.extend(_attack(state, a) for a in state.plan)
    if state.rolls:
        sections.append("rolls " + ",".join(str(r) for r in state.rolls))
    if state.raised:
        sections.append("raised " + ",".join(f"{uid(state, i)}:{num(m)}" for i, m in state.raised))
    return " | ".join(sections)


# ---------------------------------------------------------------- reading


_UID = re.compile(r"([LD])(\d+)")


class _Reader(NotationReader):
    """Reads the words of a notation against its scenario's units (their owners check the side letters)."""

    def __init__(self, owners: list[int]) -> None:
        super().__init__("valkyrx")
        self.owners = owners

    def seat(self, text: str) -> int:
        if text not in ("L", "D"):
            raise self.fail(f"a side L or D expected, got {text!r}")
        return SIDE_LETTERS.index(text)

    def uid(self, text: str) -> int:
        m = _UID.fullmatch(text)
        if m is None:
            raise self.fail(f"a unit such as L3 or D12 expected, got {text!r}")
        i = int(m.group(2))
        if i >= len(self.owners):
            raise self.fail(f"there is no unit {i} in this scenario (units are 0..{len(self.owners) - 1})")
        if self.owners[i] != SIDE_LETTERS.index(m.group(1)):
            raise self.fail(f"unit {i} belongs to {side(self.owners[i])}, not {m.group(1)}: {text!r}")
        return i

    def uids(self, text: str) -> tuple[int, ...]:
        return tuple(self.uid(t) for t in text.split(","))

    def cell(self, text: str) -> Hex:
        parts = text.split(",")
        if len(parts) != 2:
            raise self.fail(f"a cell col,row expected, got {text!r}")
        return offset_to_hex(self.whole(parts[0], "a column"), self.whole(parts[1], "a row"))


def _owners(scenario: ValkyrxScenario) -> tuple[list[int], list[str]]:
    owners: list[int] = []
    types: list[str] = []
    for seat, name in enumerate(SIDES):
        for p in scenario.spec.army[name]:
            owners.append(seat)
            types.append(p.unit)
    return owners, types


def _read_unit(r: _Reader, words: list[str], types: list[str]) -> Unit:
    if len(words) < 4:
        raise r.fail("a unit needs its id, type, cell and strength/morale")
    i = r.uid(words[0])
    if words[1] != types[i]:
        raise r.fail(f"unit {i} is {types[i]!r} in this scenario, not {words[1]!r}")
    strength, slash, morale = words[3].partition("/")
    if not slash:
        raise r.fail(f"strength/morale expected, got {words[3]!r}")
    unit = Unit(
        id=i,
        type_id=types[i],
        owner=r.owners[i],
        cell=r.cell(words[2]),
        strength=r.number(strength),
        morale=r.number(morale),
    )
    rest = words[4:]
    statuses = [w for w in rest if w in _STATUSES]
    if len(statuses) > 1:
        raise r.fail(f"two statuses: {', '.join(statuses)}")
    if statuses:
        unit = replace(unit, status=cast(UnitStatus, statuses[0]))
        rest = [w for w in rest if w not in _STATUSES]
    m = r.marks(
        rest,
        {
            "ctl": r.seat,
            "cost": r.number,
            "charged": r.whole,
            "temple": r.whole,
            "lost": r.number,
            "undead": r.number,
            "quarry": r.uid,
            "surfaced": r.whole,
            "spells": lambda t: tuple(t.split(",")),
            "cast": r.whole,
            "bonus": r.number,
            "infected": r.whole,
            "plague": r.number,
            "burned": r.whole,
            "chilled": r.whole,
        },
        (*_FLAGS, "carrier"),
    )
    rename = {
        "ctl": "controller",
        "cost": "moved_cost",
        "charged": "last_charge",
        "temple": "temple_until",
        "lost": "casualties_turn",
        "undead": "undead_losses",
        "surfaced": "surface_turns",
        "cast": "cast_turn",
        "bonus": "morale_bonus",
        "plague": "plague_base",
        "carrier": "carrier_only",
    }
    return replace(unit, **{rename.get(k, k): v for k, v in m.items()})


def parse_notation(text: str, scenario: ValkyrxScenario) -> ValkyrxState:
    """The state a notation describes, on its scenario; raises NotationError saying what is wrong."""
    owners, types = _owners(scenario)
    r = _Reader(owners)
    sections = text.strip().split(" | ")
    head = sections[0].split(" ")
    if head[0] != f"valkyrx/{scenario.name}":
        raise r.fail(f"'valkyrx/{scenario.name}' expected first, got {head[0]!r}")
    h = r.marks(
        head[1:],
        {
            "turn": r.whole,
            "phase": lambda t: t if t in _PHASES else _bad(r, "phase", t, _PHASES),
            "deploy": r.seat,
            "first": r.seat,
            "mover": r.seat,
            "done": r.whole,
            "winner": lambda t: None if t == "draw" else r.seat(t),
            "slain": r.uids,
            "denied": r.uids,
        },
        (),
    )
    for key in ("turn", "phase"):
        if key not in h:
            raise r.fail(f"'{key}=' is missing")
    units: dict[int, Unit] = {}
    contacts: list[Contact] = []
    spells: list[Enchantment] = []
    pending: tuple[Pending, ...] = ()
    casting: Casting | None = None
    plan: list[Attack] = []
    rolls: tuple[int, ...] = ()
    raised: tuple[tuple[int, float], ...] = ()
    for n, section in enumerate(sections[1:], start=1):
        words = section.split(" ")
        r.where = f"section {n} ({section[:40]!r})"
        first = words[0]
        if _UID.fullmatch(first):
            u = _read_unit(r, words, types)
            if u.id in units:
                raise r.fail(f"unit {u.id} is given twice")
            units[u.id] = u
        elif first == "contact":
            if len(words) < 3:
                raise r.fail("a contact needs two units")
            a, b = r.uid(words[1]), r.uid(words[2])
            m = r.marks(words[3:], {"rounds": r.whole}, ("deferred", "fresh"))
            contacts.append(
                Contact(a, b, m.get("rounds", 0), m.get("deferred", False), m.get("fresh", False))
            )
        elif first == "spell":
            if len(words) < 2:
                raise r.fail("a spell needs its id")
            m = r.marks(
                words[2:],
                {
                    "by": r.uid,
                    "side": r.seat,
                    "cast": r.whole,
                    "turns": lambda t: _span(r, t),
                    "units": r.uids,
                    "cells": lambda t: tuple(r.cell(c) for c in t.split(";")),
                    "used": r.whole,
                },
                (),
            )
            for key in ("by", "side", "cast", "turns"):
                if key not in m:
                    raise r.fail(f"'{key}=' is missing")
            spells.append(
                Enchantment(
                    words[1],
                    m["by"],
                    m["side"],
                    m["cast"],
                    m["turns"][0],
                    m["turns"][1],
                    m.get("units", ()),
                    m.get("cells", ()),
                    m.get("used", 0),
                )
            )
        elif first == "dice":
            pending = tuple(_read_die(r, w) for w in words[1:])
        elif first == "casting":
            if len(words) < 2:
                raise r.fail("a casting needs its spell")
            m = r.marks(
                words[2:],
                {
                    "by": r.uid,
                    "stage": lambda t: (
                        t if t in ("resist", "effect") else _bad(r, "stage", t, ("resist", "effect"))
                    ),
                    "units": r.uids,
                    "target": r.cell,
                    "resisted": r.uids,
                },
                (),
            )
            for key in ("by", "stage"):
                if key not in m:
                    raise r.fail(f"'{key}=' is missing")
            casting = Casting(
                words[1], m["by"], m["stage"], m.get("units", ()), m.get("target"), m.get("resisted", ())
            )
        elif first == "attack":
            if len(words) < 4 or ">" not in words[1] or words[2] not in ("melee", "missile"):
                raise r.fail("an attack is 'attack L1>D2 melee|missile share=N'")
            att, _, tgt = words[1].partition(">")
            m = r.marks(words[3:], {"share": r.number}, ("melee_stage", "charge", "flank", "outnumbered"))
            if "share" not in m:
                raise r.fail("'share=' is missing")
            flags = {k: v for k, v in m.items() if k != "share"}
            plan.append(Attack(r.uid(att), r.uid(tgt), words[2], m["share"], **flags))  # type: ignore[arg-type]
        elif first == "rolls" and len(words) == 2:
            rolls = tuple(r.whole(t) for t in words[1].split(","))
        elif first == "raised" and len(words) == 2:
            pairs = [t.partition(":") for t in words[1].split(",")]
            raised = tuple((r.uid(a), r.number(b)) for a, _, b in pairs)
        else:
            raise r.fail(
                "a section is a unit (L3 ...), contact, spell, dice, casting, attack, rolls or raised"
            )
    r.where = "the units"
    missing = [i for i in range(len(owners)) if i not in units]
    if missing:
        raise r.fail(f"unit(s) {', '.join(f'{side(owners[i])}{i}' for i in missing)} missing")
    phase = h["phase"]
    return ValkyrxState(
        scenario=scenario,
        units=tuple(units[i] for i in range(len(owners))),
        turn=h["turn"],
        phase=phase,
        deploy_seat=h.get("deploy", 0 if phase == "deploy" else 1),
        first_mover=h.get("first"),
        mover=h.get("mover"),
        movers_done=h.get("done", 0),
        contacts=tuple(contacts),
        pending=pending,
        rolls=rolls,
        result=Verdict(h["winner"], "") if "winner" in h else None,
        leaders_slain=h.get("slain", ()),
        raised=raised,
        plan=tuple(plan),
        enchantments=tuple(spells),
        casting=casting,
        denied=h.get("denied", ()),
    )


def _bad(r: _Reader, what: str, got: str, allowed: tuple[str, ...]) -> Any:
    raise r.fail(f"{what} {got!r} is not one of {', '.join(allowed)}")


def _span(r: _Reader, text: str) -> tuple[int, int]:
    first, dash, last = text.partition("-")
    if not dash:
        raise r.fail(f"turns first-last expected, got {text!r}")
    return r.whole(first), r.whole(last)


def _read_die(r: _Reader, word: str) -> Pending:
    parts = word.split(":")
    secret = parts[-1] == "secret"
    if secret:
        parts = parts[:-1]
    if len(parts) not in (2, 3) or not parts[-1].startswith("d"):
        raise r.fail(f"a die KIND[:UNIT]:dN[:secret] expected, got {word!r}")
    kind = parts[0]
    if kind not in _PENDING_KINDS:
        _bad(r, "die kind", kind, _PENDING_KINDS)
    unit = r.uid(parts[1]) if len(parts) == 3 else -1
    return Pending(kind, unit=unit, sides=r.whole(parts[-1][1:], "a die's sides"), secret=secret)  # type: ignore[arg-type]
