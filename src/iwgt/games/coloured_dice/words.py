"""The Coloured-Dice Fantasy Battle Rules in words: every action and every event as one English sentence,
written once.

The server's log, the table's dice report, the command line's turn report and the browser all take their
sentences from here. Names come from the observation of the seat the words are for (units, sides); every
thing on the table is public in this game, so each seat reads the same sentence.

Events are worded by their class name (``SAYERS``): the events live beside their rules in several modules
(the flow's ``events.py``, the combat's and the magic's), and a test holds every event class of the game to a
sentence here, so no event is ever left to the plain fallback. Actions whose events tell them (a move, a
charge, a reform, the end of a turn) say nothing themselves; an attack's order and the answers to a question
speak, since their events tell what the dice did, not what the player chose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from iwgt.core.protocol import JSON, Event, Seat

SILENT_ACTIONS: Final = frozenset(
    {"move", "charge", "reform", "end_turn", "fight", "shoot", "cast", "release"}
)
"""Action types whose own events tell all of them (``UnitMoved``, ``UnitCharged``, ``UnitReformed``,
``TurnEnded``, ``AttackDeclared``, ``SpellCast``, ``SpiritReleased``)."""

ORDERS: Final = {
    "open": "open order",
    "skirmish": "skirmish order",
    "loose": "a loose formation",
    "tight": "a tight formation",
}
"""A unit's order in words (CD-AC-05..08)."""

PERSONS: Final = frozenset({"Lemminkäinen", "Väinämöinen", "Louhi"})
"""The armies' characters named as persons, who take no article (``Louhi casts``, not ``The Louhi``)."""

SIDES: Final = {
    "front": "front",
    "flank": "flank",
    "left": "left flank",
    "right": "right flank",
    "rear": "rear",
}
"""The side of a tray a charge meets."""


# ------------------------------------------------------------------------------------------ small words


MORALE_ALWAYS_FAILS: Final = 12
"""A morale roll of 12 "is always a failure" (CD-MO-08): said as such."""
MORALE_ALWAYS_PASSES: Final = 2
"""A morale roll of 2 "is always a success" (CD-MO-09): said as such."""


def count(k: int, word: str, plural: str | None = None) -> str:
    """``1 casualty``, ``2 casualties``, ``3 points``."""
    if k == 1:
        return f"1 {word}"
    if plural is None:
        plural = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{k} {plural}"


def inches(x: float) -> str:
    """A distance in inches: ``3"``, ``4.25"``."""
    return f'{round(float(x), 2):g}"'


def point(p: Sequence[float] | None) -> str:
    """A point on the table in inches: ``(16, 9.5)``."""
    if p is None or len(p) != 2:
        return "?"
    return f"({round(float(p[0]), 2):g}, {round(float(p[1]), 2):g})"


def signed(k: int) -> str:
    """``+2``, ``-1``, ``0``."""
    return f"{k:+d}" if k else "0"


def face_word(face: Any) -> str:
    """A die face as players say it: ``2``, ``miss``, ``kill``."""
    return str(face)


def pool_words(dice: Sequence[str]) -> str:
    """A pool of coloured dice in words, colours in pool order: ``10 white and 5 black dice``."""
    counts: dict[str, int] = {}
    for colour in dice:
        counts[colour] = counts.get(colour, 0) + 1
    parts = [f"{n} {colour}" for colour, n in counts.items()]
    if not parts:
        return "no dice"
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return said + (" die" if len(dice) == 1 else " dice")


def faces_words(dice: Sequence[str], faces: Sequence[Any]) -> str:
    """Each die's face, by colour: ``white 2, white miss, black kill``."""
    return ", ".join(f"{c} {face_word(f)}" for c, f in zip(dice, faces, strict=False))


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def why(reason: str) -> str:
    """A reason code in words (underscores read as spaces)."""
    return reason.replace("_", " ")


# ------------------------------------------------------------------------------------------ names


class Names:
    """The names the observation gives: units, sides, features, spells."""

    def __init__(self, observation: JSON) -> None:
        self.units: dict[Any, str] = {}
        self.seats: dict[Any, int] = {}
        self.single: set[Any] = set()  # units of one model (a hero, a troll): "the Troll rolls"
        self.slowness: dict[Any, int] = {}
        for u in observation.get("units", []) or []:
            if isinstance(u, dict) and "id" in u:
                self.units[u["id"]] = str(u.get("name") or f"unit {u['id']}")
                if u.get("us_kind") == "iUs" or u.get("start_models") == 1:
                    self.single.add(u["id"])
                if isinstance(u.get("seat"), int):
                    self.seats[u["id"]] = u["seat"]
                if isinstance(u.get("slowness"), int):
                    self.slowness[u["id"]] = u["slowness"]
        self.features: dict[Any, str] = {
            f["id"]: str(f.get("name") or f.get("kind") or "terrain")
            for f in observation.get("features", []) or []
            if isinstance(f, dict) and "id" in f
        }
        self.objectives: dict[Any, str] = {
            o["id"]: str(o.get("name") or f"objective {o['id'] + 1}")
            for o in observation.get("objectives", []) or []
            if isinstance(o, dict) and isinstance(o.get("id"), int)
        }
        self._shared: set[str] | None = None
        sides = observation.get("sides") or []
        self.sides = [
            str(s.get("name", f"seat {i}")) if isinstance(s, dict) else str(s) for i, s in enumerate(sides)
        ]
        # sides whose name takes a plural verb (the army's ``plural``: "the Sons of Kaleva win")
        self.plural_sides = {i for i, s in enumerate(sides) if isinstance(s, dict) and s.get("plural")}

    def unit(self, uid: Any) -> str:
        """A unit's name; a name both sides use is told by its side (``Spearmen (the Host of Pohjola)``)."""
        name = self.units.get(uid)
        if name is None:
            return f"unit {uid}"
        if self._shared is None:
            owners: dict[str, set[Any]] = {}
            for other, n in self.units.items():
                owners.setdefault(n, set()).add(self.seats.get(other))
            self._shared = {n for n, seats in owners.items() if len(seats) > 1}
        return f"{name} ({self.owner(uid)})" if name in self._shared else name

    def the(self, uid: Any) -> str:
        """A unit's name with its article at the start of a sentence: ``The Spearmen``."""
        said = self.the_(uid)
        return said[:1].upper() + said[1:]

    def the_(self, uid: Any) -> str:
        """A unit's name with its article inside a sentence: ``the Spearmen``; a person's name has none
        (``Louhi``), and a name that has its own article keeps it (``the Master of Pohjola``)."""
        name = self.unit(uid)
        first = name.split(" ", 1)[0]
        if (
            name.startswith("unit ")
            or name.split(" (", 1)[0] in PERSONS
            or first.removesuffix("'s").removesuffix("\u2019s") in PERSONS
        ):
            return name  # a person, or a person's men ("Louhi's house-guard")
        if name.startswith("The "):
            return "t" + name[1:]
        return f"the {name}"

    def subj(self, uid: Any, verb: str) -> str:
        """A unit and its verb, agreeing: ``The Spearmen roll``, ``The Troll rolls`` (one model: singular)."""
        return f"{self.the(uid)} {verb if uid not in self.single else singular(verb)}"

    def subj_(self, uid: Any, verb: str) -> str:
        """``subj`` inside a sentence: ``the Spearmen roll``."""
        return f"{self.the_(uid)} {verb if uid not in self.single else singular(verb)}"

    def side(self, seat: Any) -> str:
        """A side's name (``the Sons of Kaleva``)."""
        if isinstance(seat, int) and 0 <= seat < len(self.sides):
            return self.sides[seat]
        return f"seat {seat}"

    def Side(self, seat: Any) -> str:
        """A side's name at the start of a sentence (``The Sons of Kaleva``)."""
        said = self.side(seat)
        return said[:1].upper() + said[1:]

    def side_subj(self, seat: Any, verb: str) -> str:
        """A side and its verb at the start of a sentence, agreeing with the side's name: ``The Sons of Kaleva
        score``, ``The Host of Pohjola scores``."""
        return f"{self.Side(seat)} {self._side_verb(seat, verb)}"

    def side_subj_(self, seat: Any, verb: str) -> str:
        """``side_subj`` inside a sentence: ``the Host of Pohjola wins``."""
        return f"{self.side(seat)} {self._side_verb(seat, verb)}"

    def side_its(self, seat: Any) -> str:
        """The side's possessive pronoun: ``their`` for a plural name, else ``its``."""
        return "their" if seat in self.plural_sides else "its"

    def _side_verb(self, seat: Any, verb: str) -> str:
        return verb if seat in self.plural_sides else singular(verb)

    def owner(self, uid: Any) -> str:
        """The side a unit belongs to."""
        return self.side(self.seats.get(uid))

    def feature(self, fid: Any) -> str:
        """A terrain feature's name."""
        return self.features.get(fid, f"feature {fid}")

    def objective(self, oid: Any) -> str:
        """An objective's name inside a sentence (``the ford``)."""
        name = self.objectives.get(oid, f"objective {oid}")
        return "t" + name[1:] if name.startswith("The ") else name


IRREGULAR: Final = {"are": "is", "have": "has", "do": "does", "go": "goes"}
"""Verbs whose third person singular is not the plain ``-s``."""


def singular(verb: str) -> str:
    """A verb phrase in the third person singular: ``roll`` -> ``rolls``, ``fall back`` -> ``falls back``,
    ``are`` -> ``is``, ``rally`` -> ``rallies``."""
    first, _, rest = verb.partition(" ")
    if first in IRREGULAR:
        done = IRREGULAR[first]
    elif first.endswith("y") and first[-2:-1] not in "aeiou":
        done = first[:-1] + "ies"
    elif first.endswith(("s", "sh", "ch", "x")):
        done = first + "es"
    else:
        done = first + "s"
    return f"{done} {rest}" if rest else done


def spell_name(key: Any) -> str:
    """A spell's (a gift's, a spirit's) name from the magic data when it names it, else from its key."""
    text = str(key)
    found = _magic_names().get(text)
    return found if found else text.replace("_", " ").capitalize()


def _magic_names() -> dict[str, str]:
    """Every spell's, gift's, spirit's and rune's name by key, from the magic data."""
    from iwgt.games.coloured_dice.magic_data import magic_rules

    m = magic_rules()
    out: dict[str, str] = {}
    for group in (m.spells, m.gifts, m.spirits, m.runes, m.combos):
        out.update({str(k): v.name for k, v in group.items()})
    return out


# ------------------------------------------------------------------------------------------ the sentences


Sayer = Callable[[Any, Names], "str | None"]


def _turn_started(e: Any, n: Names) -> str:
    return f"Round {e.round}: {n.side(e.seat)}'s turn."


def _turn_ended(e: Any, n: Names) -> str:
    return f"{n.side_subj(e.seat, 'end')} {n.side_its(e.seat)} turn."


def _round_started(e: Any, n: Names) -> str:
    return f"Round {e.round} begins."


def _unit_moved(e: Any, n: Names) -> str:
    march = " (marching)" if e.march else ""
    said = f"{n.subj(e.unit, 'move')}{march} to {point(e.centre)}"
    said += f", using {inches(e.used)} of {inches(e.allowance)}"
    if e.taxes:
        said += f" ({inches(e.taxes)} lost to the terrain)"
    if e.stopped:
        said += "; the terrain cut the move short"
    return said + "."


def _terrain_rolled(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'roll')} a d6 for the {n.feature(e.feature)}: {e.roll}, {inches(e.roll)} lost."


def _bushes_cleared(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'clear')} the {n.feature(e.feature)} away."


def _unit_charged(e: Any, n: Names) -> str:
    side = SIDES.get(e.side, e.side)
    if not e.contact:
        return f"{n.subj(e.unit, 'charge')} {n.the_(e.target)} from {inches(e.distance)} but stop short."
    return f"{n.subj(e.unit, 'charge')} {n.the_(e.target)} in the {side} from {inches(e.distance)}."


ABANDONED: Final = {
    "shaken": ("are", "shaken"),
    "destroyed": ("are", "destroyed"),
}
"""Why a charge is abandoned, said of the charger: its verb (to agree) and the rest."""


def _charge_abandoned(e: Any, n: Names) -> str:
    said = f"{possessive(n.the(e.unit))} charge at {n.the_(e.target)} is abandoned"
    if e.reason == "target_gone":
        return f"{said}: {n.subj_(e.target, 'are')} gone."
    verb, rest = ABANDONED.get(e.reason, ("are", why(e.reason)))
    pronoun, verb = ("it", singular(verb)) if e.unit in n.single else ("they", verb)
    return f"{said}: {pronoun} {verb} {rest}."


def _unit_reformed(e: Any, n: Names) -> str:
    order = ORDERS.get(e.order, e.order)
    wide = count(e.files, "file")
    return f"{n.subj(e.unit, 'form')} {order}, {wide} wide, facing {round(e.facing):g} degrees."


def _objective_taken(e: Any, n: Names) -> str:
    return (
        f"{n.side_subj(e.seat, 'take')} {n.objective(e.objective)} with {n.the_(e.unit)}: "
        f"+1 general morale and {e.vp} VP."
    )


def _battle_over(e: Any, n: Names) -> str:
    vp = f"{n.side(0)} {e.vp[0]} VP, {n.side(1)} {e.vp[1]} VP"
    if e.winner is None:
        return f"The battle is over: a draw ({vp}; {why(e.reason)})."
    return f"The battle is over: {n.side_subj_(e.winner, 'win')} ({vp}; {why(e.reason)})."


ATTACKS: Final = {
    "fight": "strike",
    "back": "strike back at",
    "shot": "shoot at",
    "stand_and_shoot": "stand and shoot at",
}
"""An attack's kind (``AttackDeclared.attack``), as its verb."""

PARTS: Final = {
    "armour": "armour",
    "skill": "skill",
    "band": "range",
    "cover": "cover",
    "hill": "hill",
}
"""The parts of an effective armour, as the sentence names them."""


def face_label(colour: str, index: Any) -> str:
    """A die's face read off the die (``dice.face_value``): ``2``, ``miss``, ``kill``."""
    from iwgt.games.coloured_dice.dice import face_value

    try:
        return str(face_value(colour, int(index)))
    except (KeyError, ValueError, TypeError, IndexError):
        return str(index)


def _attack_declared(e: Any, n: Names) -> str:
    if e.attack == "spell":  # the SpellCast before it named the caster and the spell
        return f"The spell strikes {n.the_(e.target)} with {pool_words(e.dice)}, against armour {e.armour}."
    verb = ATTACKS.get(str(e.attack), "attack")
    parts = [
        f"{PARTS.get(k, k)} {signed(v) if k != 'armour' else v}" for k, v in e.parts if v or k == "armour"
    ]
    shown = f" ({', '.join(parts)})" if len(parts) > 1 else ""
    return (
        f"{n.subj(e.unit, verb)} {n.the_(e.target)} with {pool_words(e.dice)}, "
        f"against armour {e.armour}{shown}."
    )


def _pool_rolled(e: Any, n: Names) -> str:
    """An attack's dice: "The Spearmen roll 10 white dice: 7 points against armour 1: 3 wounds."."""
    said = f"{n.subj(e.unit, 'roll')} {pool_words(e.dice)}: {count(e.points, 'point')}"
    if e.kills:
        said += f" and {count(e.kills, 'kill')}"
    if e.adjust:
        said += f" (hero points {signed(e.adjust)})"
    return said + f" against armour {e.armour}: {count(e.wounds, 'wound')}."


def _hero_spent(e: Any, n: Names) -> str:
    return (
        f"{n.subj(e.unit, 'spend')} {count(abs(e.points), 'hero point')} ({signed(e.points)}), {e.left} left."
    )


def _bear_rolled(e: Any, n: Names) -> str:
    face = face_label(e.colour, e.face)
    cancelled = count(e.cancelled, "wound")
    said = f"{n.subj(e.unit, 'roll')} a {e.colour} bear-wound die: {face}, {cancelled} cancelled"
    if e.wounds_left:
        said += f", {e.wounds_left} still coming"
    return said + f" ({e.dice_left} {'die' if e.dice_left == 1 else 'dice'} left)."


def _own_fire(e: Any, n: Names) -> str:
    return (
        f"{n.the(e.friend)} come under fire from {n.the_(e.shooter)}, their own side: "
        f"{count(e.wounds, 'wound')}."
    )


def _wounds_taken(e: Any, n: Names) -> str:
    said = f"{n.subj(e.unit, 'take')} {count(e.wounds, 'wound')}"
    if e.removed and e.models == 0 and e.unit in n.single:
        return said + " and falls."
    if not e.removed and e.unit in n.single:
        return said + f" and stands ({count(e.wounds_on, 'wound')} on it)."
    if e.removed:
        said += f": {count(e.removed, 'model')} removed, {e.models} left"
    elif e.wounds_on:
        said += f": {e.wounds_on} on the model in front, none removed"
    return said + "."


def _morale_tested(e: Any, n: Names) -> str:
    """A morale test: the 2d6, the round's losses added and general morale taken off, the target it must be
    under; a natural 12 always fails and a 2 always passes (CD-MO-02, CD-MO-08/09, CD-MM-02, CD-GM-01)."""
    roll = sum(e.dice)
    said = f"{n.subj(e.unit, 'test')} morale ({REASONS.get(e.reason, why(e.reason))}): {roll}"
    mods = []
    if e.losses:
        mods.append(f"+{e.losses} for the round's losses")
    if e.general_morale:
        mods.append(f"{signed(-e.general_morale)} for general morale")
    if mods:
        said += f" ({listed(mods)}) = {roll + e.losses - e.general_morale}"
    verdict = "passed" if e.passed else "failed"
    if roll in (MORALE_ALWAYS_FAILS, MORALE_ALWAYS_PASSES):
        return said + f": {roll} always {'passes' if e.passed else 'fails'}."
    return (
        said + f", under {e.target}: {verdict}." if e.passed else said + f", not under {e.target}: {verdict}."
    )


def _shaken(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'are')} shaken."


def _fell_back(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'fall back')} {inches(e.distance)} from {n.the_(e.away_from)}."


def _routed(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'rout')} off the table."


def _rallied(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'rally')}: steady again."


CAUSES: Final = {
    "wounds": " by the wounds taken",
    "own_fire": " by the fire of {its} own side",
    "will": " with no Will left",
    "owner": " with {its} owner gone",
    "owner_gone": " with {its} owner gone",
    "banished": ", banished to the spirit world",
    "leash": ", drawn too far from {its} owner",
}
"""Why a unit is destroyed (``UnitDestroyed.cause``: wounds.py, resolve.py, magic.py), in words after
"destroyed"; ``{its}`` agrees with the unit."""

DEPARTS: Final = {
    "banished": "banished",
    "owner": "its owner is gone",
    "owner_gone": "its owner is gone",
    "leash": "too far from its owner",
}
"""Why a spirit departs (``SpiritDeparted.why``), in words."""

REASONS: Final = {
    "fight": "after the fight",
    "close_combat": "close combat",
    "rally": "to rally",
    "forced": "forced by a spell",
    "shot": "casualties from shooting",
    "spell": "casualties from a spell",
}
"""Why a unit tests morale (``MoraleTested.reason``), in words (CD-MM-01, CD-MO-02, CD-RA-01)."""


def _destroyed(e: Any, n: Names) -> str:
    if e.routed:
        return f"{n.the(e.unit)}: routed, counted as destroyed."
    its = "its" if e.unit in n.single else "their"
    cause = CAUSES.get(e.cause, f" ({why(e.cause)})").format(its=its)
    return f"{n.subj(e.unit, 'are')} destroyed{cause}."


def gm_row_text(row: str) -> str:
    """A general-morale row (``GeneralMoraleChanged.row``) by its text in rules.toml, small inside a sentence
    ("a unit whose starting Us was 15 or more is destroyed"); an unknown key in plain words."""
    from iwgt.games.coloured_dice.rules import rules

    found = rules().general_morale.get(row)
    if found is None:
        return why(row)
    return found.text[:1].lower() + found.text[1:]


def _general_morale(e: Any, n: Names) -> str:
    row = gm_row_text(e.row)
    return f"General morale of {n.side(e.seat)} {signed(e.change)} ({row}): now {signed(e.value)}."


def _victory_points(e: Any, n: Names) -> str:
    return f"{n.side_subj(e.seat, 'score')} {e.vp} VP for {n.the_(e.unit)} ({e.total} in all)."


def _banner_lost(e: Any, n: Names) -> str:
    if e.captured_by is not None:
        return f"{n.subj(e.captured_by, 'capture')} the banner of {n.side(e.seat)}."
    return f"{n.side_subj(e.seat, 'lose')} {n.side_its(e.seat)} banner with {n.the_(e.unit)}."


def _reaction(e: Any, n: Names) -> str:
    faces = len(e.faces)
    dice = f"{faces} yellow {'die' if faces == 1 else 'dice'}"
    verdict = f"they react: {why(e.effect)}" if e.success else "too slow to react"
    if e.success and e.unit in n.single:
        verdict = f"it reacts: {why(e.effect)}"
    elif not e.success and e.unit in n.single:
        verdict = "too slow to react"
    return (
        f"{n.subj(e.unit, 'roll')} {dice} against the charge of {n.the_(e.charger)}: {e.total} against "
        f"slowness {e.slowness}: {verdict}."
    )


def _will_spent(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'spend')} {e.spent} Will, {e.left} left."


FIRST: Final = {
    "slowness": "the lower slowness",
    "turn": "equal slowness: the side whose turn it is",
    "reaction": "it reacted to the charge",
}
"""Why a side strikes first in a fight (CD-FI-03, CD-CH-32, CD-MS-14), in words."""


def _fight_begun(e: Any, n: Names) -> str:
    reason = FIRST.get(e.why, why(e.why))
    return f"{n.the(e.first)} and {n.the_(e.second)} fight: {n.subj_(e.first, 'strike')} first ({reason})."


EFFECTS: Final = {
    "armour": "armour",
    "move": "inches of move",
    "dice": "dice",
}
"""A spell's bonus, as its sentence names it."""


def _spell_cast(e: Any, n: Names) -> str:
    said = f"{n.subj(e.unit, 'cast')} {spell_name(e.spell)}"
    if e.target is not None:
        said += f" at {n.the_(e.target)}"
    elif e.at is not None:
        said += f" at {point(e.at)}"
    if e.cost:
        said += f" ({e.cost} Will)"
    return said + "."


def _spell_resisted(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'resist')} {spell_name(e.spell)}, spending {e.cost} Will: it does nothing."


def _magic_buff(e: Any, n: Names) -> str:
    what = EFFECTS.get(e.effect, why(e.effect))
    return (
        f"{spell_name(e.spell)}: {n.the_(e.unit)} {'has' if e.unit in n.single else 'have'} "
        f"{signed(e.amount)} {what} until round {e.until_round}."
    )


def _unit_healed(e: Any, n: Names) -> str:
    back = f", {count(e.models, 'model')} back" if e.models else ""
    return f"{spell_name(e.spell)} heals {n.the_(e.unit)}: {count(e.wounds, 'wound')}{back}."


def _restored(e: Any, n: Names) -> str:
    what = {"will": "Will", "bear": "bear-wound dice", "bear_wound": "bear-wound dice"}.get(
        e.what, why(e.what)
    )
    return f"{spell_name(e.spell)} gives {n.the_(e.unit)} {e.amount} {what} back."


def _spirit_released(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'release')} {spell_name(e.spirit)}: its gift x{e.multiplier} this turn."


def _spirit_called(e: Any, n: Names) -> str:
    return f"{n.subj(e.owner, 'call')} {spell_name(e.spirit)} onto the table at {point(e.at)}."


def _spirit_departed(e: Any, n: Names) -> str:
    said = DEPARTS.get(e.why, why(e.why))
    return f"{n.the(e.unit)}: {spell_name(e.spirit)} departs to the spirit world ({said})."


def _spirit_pulled(e: Any, n: Names) -> str:
    return f"{n.subj(e.unit, 'are')} drawn back to {point(e.to)}, near {n.the_(e.owner)}."


SAYERS: Final[Mapping[str, Sayer]] = {
    # the flow and movement (events.py)
    "TurnStarted": _turn_started,
    "TurnEnded": _turn_ended,
    "RoundStarted": _round_started,
    "UnitMoved": _unit_moved,
    "TerrainRolled": _terrain_rolled,
    "BushesCleared": _bushes_cleared,
    "UnitCharged": _unit_charged,
    "ChargeAbandoned": _charge_abandoned,
    "UnitReformed": _unit_reformed,
    "ObjectiveTaken": _objective_taken,
    "BattleOver": _battle_over,
    # fights, shots, wounds, morale (combat_events.py)
    "FightBegun": _fight_begun,
    "AttackDeclared": _attack_declared,
    "PoolRolled": _pool_rolled,
    "HeroPointsSpent": _hero_spent,
    "BearWoundRolled": _bear_rolled,
    "OwnFire": _own_fire,
    "WoundsTaken": _wounds_taken,
    "MoraleTested": _morale_tested,
    "UnitShaken": _shaken,
    "FellBack": _fell_back,
    "UnitRallied": _rallied,
    "UnitRouted": _routed,
    "UnitDestroyed": _destroyed,
    "GeneralMoraleChanged": _general_morale,
    "VictoryPoints": _victory_points,
    "BannerLost": _banner_lost,
    "ReactionRolled": _reaction,
    "WillSpent": _will_spent,
    # spirits (spirits.py)
    "SpiritReleased": _spirit_released,
    "SpiritCalled": _spirit_called,
    "SpiritDeparted": _spirit_departed,
    "SpiritPulled": _spirit_pulled,
    # spells and gifts (magic.py)
    "SpellCast": _spell_cast,
    "SpellResisted": _spell_resisted,
    "MagicBuff": _magic_buff,
    "UnitHealed": _unit_healed,
    "Restored": _restored,
}
"""Every event class of the game, by name, and its sentence."""


def plain(e: Event, n: Names) -> str:
    """The fallback for an event without a sentence of its own (a test keeps every event off it): its name
    in words, and the unit it names."""
    import re

    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(e).__name__).lower()
    unit = getattr(e, "unit", None)
    return f"{n.the(unit)}: {words}." if unit is not None else f"{words[:1].upper()}{words[1:]}."


def sentence(e: Event, n: Names) -> str | None:
    """The event's sentence (by its class name), or the plain fallback."""
    sayer = SAYERS.get(type(e).__name__)
    return sayer(e, n) if sayer is not None else plain(e, n)


def action_sentence(action: JSON, actor: Seat, n: Names) -> str | None:
    """An action's sentence, or None when its events say all of it."""
    kind = action.get("type")
    if kind in SILENT_ACTIONS:
        return None
    unit = action.get("unit")
    match kind:
        case "rally":
            return f"{n.subj(unit, 'try')} to rally."
        case "hero":  # points spent are told by HeroPointsSpent; keeping them has no event
            if int(action.get("points") or 0) == 0:
                return f"{n.side_subj(actor, 'keep')} {n.side_its(actor)} hero points."
            return None
        case "bear_wound":  # a die rolled is told by BearWoundRolled
            return None if action.get("roll") else f"{n.side_subj(actor, 'let')} the wounds through."
        case "react":  # a reaction rolled is told by ReactionRolled
            return None if action.get("roll") else f"{n.side_subj(actor, 'do')} not react."
        case "resist":  # Will spent is told by SpellResisted
            return None if action.get("spend") else f"{n.side_subj(actor, 'do')} not resist the spell."
    return f"{n.Side(actor)}: {str(kind or 'acts').replace('_', ' ')}."


ROLLS: Final = {
    "fight": "blows",
    "back": "blows back",
    "shot": "shot",
    "stand_and_shoot": "stand-and-shoot",
    "spell": "spell",
}
"""An attack's roll as a noun, for a question about it (``the Poison archers' shot``)."""


def possessive(said: str) -> str:
    """``the Spearmen`` -> ``the Spearmen's``; a name ending in s takes the apostrophe alone
    (``the Poison archers'``); a name told by its side keeps the side after it."""
    return f"{said}'" if said.endswith("s") else f"{said}'s"


def _roll_result(q: Mapping[str, Any]) -> str:
    """The roll a question is about as it stands (hero points already moved counted): an attack's points,
    kills, armour and wounds (CD-FI-05, CD-DI-13), or a morale test's 2d6 total."""
    from iwgt.games.coloured_dice import dice as dc

    faces = list(q.get("faces") or [])
    adjust = int(q.get("adjust") or 0)
    if q.get("on") == "morale":
        return f"2d6 total {sum(int(f) for f in faces) + adjust}"
    try:
        rolled = dc.total(list(q.get("dice") or []), faces)
    except (KeyError, ValueError, TypeError):
        return ""
    points = max(0, rolled.points + adjust)
    said = count(points, "point") + (f" and {count(rolled.kills, 'kill')}" if rolled.kills else "")
    armour = q.get("armour")
    if not isinstance(armour, int):
        return said
    return f"{said} against armour {armour}, {count(dc.wounds(points, rolled.kills, armour), 'wound')}"


def question_text(q: Mapping[str, Any], n: Names) -> str:
    """The die awaited or the question asked (the observation's ``awaiting``) as one sentence, its verbs
    agreeing with the names: "Lemminkäinen may spend hero points on the Poison archers' shot: 7 points
    against armour 1, 3 wounds (0 to +2)." """
    kind = q.get("kind")
    unit = q.get("unit")
    pool = pool_words(q.get("dice") or [])
    if kind == "hero":
        if q.get("on") == "morale":
            tested = q.get("tested")
            about = "the morale test" if tested == unit else f"{possessive(n.the_(tested))} morale test"
        else:
            src = q.get("source")
            roll = ROLLS.get(str(q.get("attack")), "attack")
            about = f"the {roll}" if src == unit else f"{possessive(n.the_(src))} {roll}"
            if q.get("target") is not None and q.get("target") != unit:
                about += f" at {n.the_(q.get('target'))}"
        lo, hi = [*list(q.get("range") or []), 0, 0][:2]
        result = _roll_result(q)
        return (
            f"{n.the(unit)} may spend hero points on {about}"
            + (f": {result}" if result else "")
            + f" ({signed(int(lo))} to {signed(int(hi))})."
        )
    if kind == "bear_wound":
        return (
            f"{n.the(unit)} may roll a {q.get('colour', '')} bear-wound die against "
            f"{count(int(q.get('wounds') or 0), 'wound')} coming through."
        )
    if kind == "react":
        dice = len(q.get("dice") or [])
        slow = n.slowness.get(unit)
        over = f", a total over slowness {slow} reacts" if slow is not None else ""
        return (
            f"{n.the(unit)} may react to the charge of {n.the_(q.get('charger'))}: "
            f"{count(dice, 'yellow die', 'yellow dice')}{over}."
        )
    if kind == "resist":
        return f"{n.the(unit)} may spend {q.get('cost')} Will to resist {spell_name(q.get('spell'))}."
    if kind == "morale":
        reason = REASONS.get(str(q.get("reason")), why(str(q.get("reason"))))
        return f"{n.subj(unit, 'test')} morale ({reason}): 2d6 to roll."
    if kind == "roll" and q.get("attack") is not None and q.get("target") is not None:
        if q.get("attack") == "spell":
            return f"{n.subj(q.get('target'), 'are')} struck by a spell: {pool} to roll."
        return (
            f"{n.subj(q.get('source'), 'roll')} {pool} at {n.the_(q.get('target'))}, "
            f"against armour {q.get('armour')}."
        )
    if kind == "roll" and q.get("feature") is not None and unit is not None:
        return f"{n.subj(unit, 'roll')} a d6 for the {n.feature(q.get('feature'))}."
    if kind == "roll" and q.get("charger") is not None and unit is not None:
        return f"{n.subj(unit, 'roll')} {pool} to react to {n.the_(q.get('charger'))}."
    if kind == "roll" and unit is not None and q.get("wounds") is not None:
        wounds = count(int(q.get("wounds") or 0), "wound")
        return f"{n.subj(unit, 'roll')} a bear-wound die against {wounds}."
    purpose = str(q.get("purpose") or "a die")
    return purpose[:1].upper() + purpose[1:] + "."


class CdWords:
    """The words of the Coloured-Dice Fantasy Battle Rules (``GamePlugin.words``)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """The action's sentence, or None when its events say it all (a move, a charge, a reform, the end of a
        turn)."""
        return action_sentence(action, actor, Names(observation))

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's sentence (every event is public in this game)."""
        if not event.visible_to(seat):
            return None
        return sentence(event, Names(observation))


__all__ = ["SAYERS", "CdWords", "Names", "action_sentence", "pool_words", "sentence"]
