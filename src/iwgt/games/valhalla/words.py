"""Valhalla in words: every action and every event as one English sentence, written once.

The server's log (``view.log[i].text``), the dice report's ``text`` (``ValhallaAdapter.report``), the
command line's turn report and the browser all take their sentences from here: a combat, a shot and a Dice of
Death are worded in this one place. Names come from the observation of the seat the words are for (figures,
things, obstacles, sides, players); Valhalla hides nothing, so every seat reads the same sentences.

An action says something only when its own events may not follow at once: a shot and a fight on (their dice
may come in a later step, rolled by hand), and the end of an activation. A move, a crossing, a charge, a
withdrawal, picking up or dropping a thing, recovering and moving the baggage are told by the events they
bring (``FigureMoved`` says where to and at what cost), so their actions are silent (``SILENT_ACTIONS``).

Deliberately silent events (``SILENT``): a card dealt (the hands show every card) and the end of an
activation (the next card up says it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from iwgt.core.protocol import JSON, Event, Seat
from iwgt.games.valhalla import events as ev

SILENT: Final[frozenset[type[Event]]] = frozenset({ev.CardDealt, ev.ActivationEnded})
"""The event classes that never say anything (see the module's docstring)."""

SILENT_ACTIONS: Final = frozenset(
    {"move", "cross", "charge", "withdraw", "pick_up", "drop", "recover", "move_baggage"}
)
"""The action types whose own events tell all of them at once."""

SAVES: Final = {
    "killed": "goes to Valhalla",
    "wounded": "wounded",
    "two_shock": "two shock markers",
    "one_shock": "one shock marker",
    "none": "no effect",
}
"""A Dice of Death's effect in the rules' words (VH-ST-02..06)."""


def point(p: Sequence[float] | None) -> str:
    """A point on the table in inches: ``(16, 9.5)``."""
    if p is None or len(p) != 2:
        return "?"
    return f"({p[0]:g}, {p[1]:g})"


def count(k: int, word: str) -> str:
    """``1 hit``, ``2 hits``."""
    return f"{k} {word}{'' if k == 1 else 's'}"


def hurts(shock: int, wounds: int) -> str:
    """A figure's hurts: ``1 shock marker, wounded``, or ``unhurt``."""
    parts = [count(shock, "shock marker")] if shock else []
    if wounds:
        parts.append("wounded")
    return ", ".join(parts) or "unhurt"


def condition(name: str, shock: int, wounds: int) -> str:
    """A figure's hurts as a sentence: ``Ulf now has 1 shock marker and is wounded.``, ``Ulf is now
    wounded.``, ``Ulf is unhurt now.``"""
    if shock and wounds:
        return f"{name} now has {count(shock, 'shock marker')} and is wounded."
    if shock:
        return f"{name} now has {count(shock, 'shock marker')}."
    if wounds:
        return f"{name} is now wounded."
    return f"{name} is unhurt now."


SHOCK_ADDED: Final = {"one_shock": 1, "two_shock": 2}
"""The shock markers a Dice of Death's effect adds (VH-ST-05, VH-ST-06)."""


def save_outcome(effect: str, name: str, after: tuple[int, int] | None, killed: bool) -> str:
    """What a Dice of Death did to the figure when its effect alone does not say it: a third shock marker is a
    wound (VH-ST-09), a second wound kills (VH-ST-12). ``after`` is the figure's shock and wounds once the
    save is taken (None: unchanged, or gone to Valhalla). ``""`` for an effect that says it all ("goes to
    Valhalla", "no effect")."""
    if effect in ("killed", "none"):
        return ""
    if killed:
        if effect == "wounded":
            return f"A second wound: {name} goes to Valhalla."
        return f"A third shock marker is a wound, and a second wound: {name} goes to Valhalla."
    if after is None:
        return ""
    shock, wounds = after
    said = condition(name, shock, wounds)
    if effect in SHOCK_ADDED and shock < SHOCK_ADDED[effect]:  # fewer markers than it added: 3 became a wound
        return f"A third shock marker is a wound: {said}"
    return said


class _Names:
    """The names the observation gives: figures, things, obstacles, sides and players."""

    def __init__(self, observation: JSON) -> None:
        self.figures = {f["id"]: str(f["name"]) for f in observation.get("figures", [])}
        self.things = {t["id"]: str(t["name"]) for t in observation.get("things", [])}
        self.obstacles = [str(o["kind"]) for o in observation.get("table", {}).get("obstacles", [])]
        self.sides = [str(s["name"]) for s in observation.get("sides", [])]
        self.players = [str(p["name"]) for p in observation.get("players", [])]

    def figure(self, fid: Any) -> str:
        """A figure's name."""
        return self.figures.get(fid, f"figure {fid}")

    def thing(self, tid: Any) -> str:
        """A thing's name, as in "the silver hoard"."""
        return self.things.get(tid, f"thing {tid}")

    def obstacle(self, i: Any) -> str:
        """An obstacle's kind ("hedge")."""
        return self.obstacles[i] if isinstance(i, int) and 0 <= i < len(self.obstacles) else "obstacle"

    def side(self, i: Any) -> str:
        """A side's name ("Raiders")."""
        return self.sides[i] if isinstance(i, int) and 0 <= i < len(self.sides) else f"side {i}"

    def player(self, seat: Any) -> str:
        """A player's name ("Ulf")."""
        return (
            self.players[seat] if isinstance(seat, int) and 0 <= seat < len(self.players) else f"seat {seat}"
        )


class ValhallaWords:
    """The words of Valhalla (``GamePlugin.words``)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """ "Ulf: Hrafn the archer shoots at Asa Farm-wife.": the player, then the order; None for an action
        whose events say it all."""
        kind = action.get("type")
        if kind in SILENT_ACTIONS:
            return None
        n = _Names(observation)
        match kind:
            case "shoot":
                said = f"{n.figure(action.get('figure'))} shoots at {n.figure(action.get('target'))}"
            case "fight":
                said = (
                    f"{n.figure(action.get('figure'))} fights on against {n.figure(action.get('opponent'))}"
                )
            case "end_activation":
                said = "ends the activation"
            case other:
                said = str(other or "acts").replace("_", " ")
        return f"{n.player(actor)}: {said}."

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's sentence, or None for a silent one."""
        if not event.visible_to(seat) or type(event) in SILENT:
            return None
        return _sentence(event, _Names(observation))


def _sentence(e: Event, n: _Names) -> str | None:
    """Each speaking event's sentence (matched by class, so mypy checks every field named)."""
    match e:
        case ev.TurnBegan():
            return f"Turn {e.turn}: the cards are shuffled and dealt."
        case ev.CardUp():
            return f"{e.label} is up: {n.player(e.seat)}."
        case ev.CardPassed():
            return f"{n.player(e.seat)} passes the {e.label}: {e.reason}."
        case ev.FigureActivated():
            return f"{n.figure(e.figure)} activates ({count(e.actions, 'action')})."
        case ev.FigureMoved():
            end = e.path[-1] if e.path else None
            return f'{n.figure(e.figure)} moves to {point(end)}, using {e.cost:g}" of movement.'
        case ev.ObstacleCrossed():
            return f"{n.figure(e.figure)} crosses the {n.obstacle(e.obstacle)} to {point(e.to)}."
        case ev.Charged():
            return f"{n.figure(e.figure)} charges {n.figure(e.target)} (contact at {point(e.to)})."
        case ev.Withdrew():
            return f"{n.figure(e.figure)} withdraws from combat to {point(e.to)}."
        case ev.Fought():
            if e.attacker_hits:
                verdict = f"{count(e.attacker_hits, 'hit')} on {n.figure(e.defender)}"
            elif e.defender_hits:
                verdict = f"{count(e.defender_hits, 'hit')} on {n.figure(e.attacker)}"
            else:
                verdict = "no hits"
            return (
                f"Combat: {n.figure(e.attacker)} rolls {e.attacker_face} (scores {e.attacker_score}), "
                f"{n.figure(e.defender)} rolls {e.defender_face} (scores {e.defender_score}): {verdict}."
            )
        case ev.ShotFired():
            cover = ", in cover" if e.cover else ""
            verdict = "a hit" if e.hit else "a miss"
            return (
                f'Shot at {n.figure(e.target)} ({e.distance:g}"{cover}, needs {e.needs}+): '
                f"{n.figure(e.shooter)} rolls {e.face}, {verdict}."
            )
        case ev.SavingThrow():
            return f"Dice of Death for {n.figure(e.figure)}: {e.face}, {SAVES.get(e.effect, e.effect)}."
        case ev.FigureHurt():
            return condition(n.figure(e.figure), e.shock, e.wounds)
        case ev.FigureKilled():
            return f"{n.figure(e.figure)} goes to Valhalla."
        case ev.Recovered():
            left = count(e.shock, "shock marker") if e.shock else "no shock marker"
            return f"{n.figure(e.figure)} recovers from shock ({left} left)."
        case ev.ThingPickedUp():
            return f"{n.figure(e.figure)} picks up the {n.thing(e.thing)}."
        case ev.ThingDropped():
            return f"{n.figure(e.figure)} drops the {n.thing(e.thing)} at {point(e.at)}."
        case ev.BaggageMoved():
            end = e.path[-1] if e.path else None
            return f"The {n.thing(e.baggage)} moves to {point(end)}."
        case ev.CoinsWon():
            return f"{n.side(e.side)} win {count(e.coins, 'coin')}: {e.reason} ({e.total} in all)."
        case ev.ObjectiveAchieved():
            return f"{n.side(e.side)} achieve an objective: {e.title}."
        case ev.TurnEnded():
            return f"End of turn {e.turn}."
        case ev.GameOver():
            who = "a draw" if e.side is None else f"{n.side(e.side)} win"
            return f"Game over: {who} ({e.reason})."
    return None
