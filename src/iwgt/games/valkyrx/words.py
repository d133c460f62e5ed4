"""Days of the Valkyrx in words: every action and every event as one English sentence, written once.

The server's log (``view.log[i].text``), the command line's turn report and the browser's log all take their
sentences from here. Every name comes from the observation of the seat the words are for, never the state:
a unit is named ``Archers of Mynsterlif (L2)`` (its type's name, its side's letter and its id, as the report
shows it), an action comes as ``action_view`` shows it to that seat (another seat's secret order is only
"gives a secret order"), and an event the seat may not see (a hidden move, the Grima's quarry, the plague's
first carrier) says nothing. A list of units (a spell's) never names one hidden from the seat.

Deliberately silent (``SILENT``): a unit set down in deployment and an ordinary move (the action says it), the
spells a wizard was armed with (his owner's action says it), morale changes (the report and the cards show
morale), and the two secret events no player may ever see (the end-of-game story of the plague tells them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from iwgt.core.protocol import JSON, Event, Seat
from iwgt.games.valkyrx import events as ev
from iwgt.games.valkyrx.facts import SIDE_TITLES
from iwgt.games.valkyrx.spellbook import spells
from iwgt.games.valkyrx.units import unit_types

SILENT: Final[frozenset[type[Event]]] = frozenset(
    {
        ev.UnitPlaced,
        ev.SpellsChosen,
        ev.MoraleChanged,
        ev.PlagueCarrierChosen,
        ev.CarrierCured,
    }
)
"""The event classes that never say anything (see the module's docstring). ``UnitMoved`` speaks only for a
routed unit's compulsory move, which no action of a player says."""

_REMOVED: Final = {"destroyed": "is destroyed", "fled": "flees the field", "left": "leaves the battle"}
"""How a unit leaves the table, for the usual reasons; any other reason is given as it is."""


def number(x: float) -> str:
    """A number to one decimal, a whole one without it (``66.7``, ``2``, ``15``); never ``-0``."""
    text = f"{x:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def whole(x: float) -> int:
    """A count of men, rounded half up to a whole man (a body unit fights in whole men, not 7.3 of them)."""
    return math.floor(x + 0.5)


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 casualty``, ``2 casualties``, ``0 men``."""
    return f"{k} {word if k == 1 else many or word + 's'}"


def amount(x: float, *, character: bool, noun: str = "man", nouns: str = "men") -> str:
    """A loss or a gain in the words a player counts: whole men for a body unit (``7 men``, ``1 man``, ``under
    1 man`` for a sliver), a share of itself for a character (``16% of its strength``, ``under 1% ...``)."""
    if x <= 0:
        return f"no {nouns}" if not character else "nothing"
    if character:
        pct = whole(100 * x)
        return "under 1% of its strength" if pct == 0 else f"{pct}% of its strength"
    k = whole(x)
    return f"under 1 {noun}" if k == 0 else plural(k, noun, nouns)


def cell(c: Sequence[int] | None) -> str:
    """A cell as players read it off the board: ``[col, row]``."""
    return f"[{c[0]}, {c[1]}]" if c is not None and len(c) == 2 else "?"


def side(seat: Any) -> str:
    """A seat's side in words, "the Light" or "the Darkness"."""
    return SIDE_TITLES[seat] if isinstance(seat, int) and 0 <= seat < len(SIDE_TITLES) else f"seat {seat}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def spell_name(spell: str) -> str:
    """A spell's name from its id ("fire" -> "Fire"), or the id itself for one the table does not know."""
    found = spells().get(spell)
    return found.name if found is not None else spell


class Names:
    """The names one seat's observation gives: units, and whether a unit is hidden from that seat."""

    def __init__(self, observation: JSON) -> None:
        self.units: dict[int, JSON] = {u["id"]: u for u in observation.get("units", [])}

    def __call__(self, uid: Any) -> str:
        """A unit as the report shows it: ``Archers of Mynsterlif (L2)``."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        if u is None:
            return f"unit {uid}"
        owner = u.get("owner")
        letter = "LD"[owner] if owner in (0, 1) else "?"
        return f"{u['name']} ({letter}{u['id']})"

    def character(self, uid: Any) -> bool:
        """Whether the unit is one figure (a character, a war machine): its strength is a share of itself."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        return u is not None and float(u.get("start") or 0) <= 1.0

    def stealthy(self, uid: Any) -> bool:
        """Whether the unit is the Grima (trait ``stealth``), whom the table moves by herself."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        t = unit_types().get(u["type"]) if u is not None else None
        return t is not None and t.has("stealth")

    def loss(self, uid: Any, x: float, noun: str = "man", nouns: str = "men") -> str:
        """``amount`` for this unit: whole men, or a character's share of itself."""
        return amount(x, character=self.character(uid), noun=noun, nouns=nouns)

    def hidden(self, uid: Any) -> bool:
        """Whether the unit is hidden from this seat (its observation gives no cell for it)."""
        u = self.units.get(uid) if isinstance(uid, int) else None
        return u is not None and bool(u.get("hidden")) and u.get("cell") is None


def stealth_note(u: JSON, name: Names, seat: Seat | None) -> str | None:
    """What the Grima or the Sand Worm is doing and what the seat may do about it (section 12), for its card
    and for the move screen when it is picked up; None for any other unit. Only what the seat's observation
    gives: her quarry is her owner's (VX-12-05), and the enemy learns nothing of where she is (VX-12-06)."""
    traits = unit_types()[u["type"]].traits if u.get("type") in unit_types() else ()
    mine = seat is not None and u.get("owner") == seat
    hidden = bool(u.get("hidden"))
    if u.get("status") != "active":
        return None
    if "stealth" in traits:
        if not mine:
            return (
                "Hidden: she hunts one of your characters unseen, and appears only to strike."
                if hidden
                else None
            )
        if not hidden:
            return "Visible: she moves like any unit. Conceal her and the table moves her by herself, unseen."
        quarry = u.get("quarry")
        if quarry is None:
            does = "she waits unseen where she is until you choose whom she follows (tap Stealth)"
        else:
            does = (
                f"she moves by herself once both sides have moved, after {name(quarry)}, and strikes "
                "when she reaches it"
            )
        can = (
            "Reveal her to command her again."
            if not u.get("moved")
            else "She has moved this turn: Reveal her in your next movement phase to command her again."
        )
        return f"Hidden: {does}. {can}"
    if "burrower" in traits and hidden:
        if not mine:
            return "Underground: he travels unseen, and may break the surface anywhere."
        return (
            "Underground: he moves by your orders only: Tunnel (unseen), or Surface to swallow what is there."
        )
    return None


def infection(turn: int, unit: str, source: str, by_spell: bool) -> str:
    """One line of the plague's story (VX-SP-PLAGUE-8): who caught it, when, and from whom."""
    how = f"the first carrier, by {source}'s spell" if by_spell else f"from {source}"
    return f"turn {turn}: {unit}: {how}"


class ValkyrxWords:
    """The words of Days of the Valkyrx (``GamePlugin.words``)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """ "The Light: moves Orc Warriors (D3) to [4, 5] (charge).": the actor's side, then the order.

        A step the movement timer took (the server marks its action ``"timeout": true``, VX-15-14) says that
        the time ran out, not that the player chose to end the phase.
        """
        if action.get("timeout") and action.get("type") == "end_phase":
            return f"{_cap(side(actor))}: the movement timer runs out, and the phase ends."
        said = self._order(action, Names(observation))
        if said and action.get("timeout"):
            said += " (the movement timer ran out)"
        return f"{_cap(side(actor))}: {said}." if said else None

    def _order(self, a: JSON, name: Names) -> str:
        match a.get("type"):
            case "place":
                return f"places {name(a.get('unit'))} at {cell(a.get('to'))}"
            case "confirm":
                return "confirms the deployment"
            case "move":
                how = " (charge)" if a.get("charge") else ""
                how += " (flying)" if a.get("airborne") else ""
                how += " to pray at the Temple" if a.get("pray") else ""
                return f"moves {name(a.get('unit'))} to {cell(a.get('to'))}{how}"
            case "end_phase":
                return "ends the phase"
            case "spells":
                chosen = a.get("spells") or []
                pack = ", ".join(spell_name(s) for s in chosen) if chosen else "his default pack"
                return f"arms {name(a.get('unit'))} with {pack}"
            case "cast":
                at = f" at {cell(a.get('target'))}" if a.get("target") is not None else ""
                return f"{name(a.get('unit'))} casts {spell_name(str(a.get('spell')))}{at}"
            case "transport":
                return f"sends {name(a.get('unit'))} through the portal to {cell(a.get('to'))}"
            case "conceal":
                return f"{name(a.get('unit'))} goes into hiding"
            case "reveal":
                return f"{name(a.get('unit'))} comes into sight"
            case "quarry":
                return f"{name(a.get('unit'))} chooses her quarry"
            case "tunnel":
                return f"{name(a.get('unit'))} tunnels"
            case "surface":
                return f"{name(a.get('unit'))} is ordered up at {cell(a.get('at'))}"
            case "secret_order":
                return "gives a secret order"
            case "add_troops":
                return f"brings {name(a.get('unit'))} onto the table at {cell(a.get('to'))}"
            case other:
                return str(other or "acts").replace("_", " ")

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's sentence for the seat, or None (silent, or not the seat's to see)."""
        if not event.visible_to(seat) or type(event) in SILENT:
            return None
        return _sentence(event, Names(observation))


def _sentence(e: Event, n: Names) -> str | None:
    """Each speaking event's sentence (matched by class, so mypy checks every field named)."""
    match e:
        case ev.DeploymentConfirmed():
            return f"{_cap(side(e.seat))} has deployed."
        case ev.FirstMoverChosen():
            return f"Turn {e.turn}: {side(e.seat)} moves first."
        case ev.MovementPhaseStarted():
            return f"{_cap(side(e.seat))}: movement phase."
        case ev.TroopsArrived():
            return f"{n(e.unit)} joins the battle at {cell(e.cell)}."
        case ev.UnitMoved():
            return f"{n(e.unit)} is routed and falls back to {cell(e.to)}." if e.compulsory else None
        case ev.TerrainCasualties():
            return f"{n(e.unit)} loses {n.loss(e.unit, e.casualties)} in the {e.feature}."
        case ev.TemplePrayer():
            verdict = f"the gods answer until turn {e.until}" if e.success else "thrown into the void"
            return f"{n(e.unit)} prays at the Temple: {verdict}."
        case ev.TrollDevoured():
            return f"{n(e.troll)} devours {n.loss(e.victim, e.casualties)} of {n(e.victim)}."
        case ev.ContactMade():
            late = " (arrived late: they fight from next turn)" if e.deferred else ""
            return f"Contact: {n(e.a)} and {n(e.b)}{late}."
        case ev.AttackResolved():
            verb = "shoots at" if e.mode == "missile" else "fights"
            hurt = n.loss(e.target, e.casualties, "casualty", "casualties")
            return f"{n(e.attacker)} {verb} {n(e.target)}: {hurt}."
        case ev.CloseCombatOutcome():
            return f"{n(e.winner)} wins the combat against {n(e.loser)}."
        case ev.UnitRouted():
            return f"{n(e.unit)} routs!"
        case ev.UnitRallied():
            return f"{n(e.unit)} rallies."
        case ev.UnitRemoved():
            how = _REMOVED.get(e.why)
            return f"{n(e.unit)} {how}." if how else f"{n(e.unit)} is removed from the table: {e.why}."
        case ev.DeadRaised():
            return f"{_cap(amount(e.raised, character=False))} of the slain rise to march with {n(e.unit)}."
        case ev.CombatReport():
            return f"Combat report of turn {e.turn}."
        case ev.GameOver():
            who = "a draw" if e.winner is None else f"{side(e.winner)} wins"
            return f"Game over: {who} ({e.reason})."
        case ev.SpellCast():
            return f"{n(e.unit)} is casting {e.name}."
        case ev.SpellFizzled():
            return f"{n(e.unit)}'s {spell_name(e.spell)} comes to nothing: {e.why}."
        case ev.SpellResisted():
            return f"{n(e.unit)} resists {spell_name(e.spell)}."
        case ev.SpellTookEffect():
            shown = [n(u) for u in e.units if not n.hidden(u)]
            if shown:
                return f"{spell_name(e.spell)} acts on {', '.join(shown)}."
            return f"{spell_name(e.spell)} acts on {_count(len(e.cells), 'cell')}." if e.cells else None
        case ev.SpellEnded():
            return f"{spell_name(e.spell)} of {n(e.caster)} ends: {e.why}."
        case ev.SpellCasualties():
            return f"{n(e.unit)} loses {n.loss(e.unit, e.casualties)} to {spell_name(e.spell)}."
        case ev.UnitRestored():
            return f"{n(e.unit)} is restored by {n.loss(e.unit, e.restored)}."
        case ev.UnitTransported():
            return f"{n(e.unit)} passes through the portal from {cell(e.frm)} to {cell(e.to)}."
        case ev.LavaSpread():
            return f"The lava spreads over {_count(len(e.cells), 'cell')}."
        case ev.ArmageddonRolled():
            verdict = "the gods deliver it" if e.works else "the gods will not"
            return f"Armageddon by {n(e.caster)}: {verdict}."
        case ev.UnitInfected():
            return f"{n(e.unit)} catches the plague."
        case ev.PlagueLosses():
            return f"{n(e.unit)} loses {n.loss(e.unit, e.casualties)} to the plague."
        case ev.PlagueCured():
            return f"{n(e.unit)} is cured of the plague."
        case ev.PlagueChain():
            story = "; ".join(infection(t, n(u), n(s), by_spell) for t, u, s, by_spell in e.infections)
            return f"The plague: {story}." if story else "The plague touched nobody."
        case ev.TitanCracked():
            return f"{n(e.unit)} cracks under fire and ice."
        case ev.UnitConcealed():
            return f"{n(e.unit)} vanishes from sight."
        case ev.UnitRevealed():
            return f"{n(e.unit)} appears at {cell(e.cell)}."
        case ev.QuarryChosen():
            return f"{n(e.unit)} hunts {n(e.target)}."
        case ev.HiddenMove():
            # The table moved the Grima (VX-12-04): say so, her owner gave no order.
            how = ", by herself, after her quarry" if n.stealthy(e.unit) else ""
            return f"{n(e.unit)} moves unseen from {cell(e.frm)} to {cell(e.to)}{how}."
        case ev.GrimaStruck():
            verdict = "and kills" if e.success else "and fails: they fight"
            return f"{n(e.unit)} strikes at {n(e.quarry)} {verdict}."
        case ev.WormSurfaced():
            meal = (
                f", swallowing {n.loss(e.victim, e.swallowed)} of {n(e.victim)}"
                if e.victim is not None
                else ""
            )
            return f"{n(e.unit)} breaks the surface at {cell(e.cell)}{meal}."
    return None


def _count(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"
