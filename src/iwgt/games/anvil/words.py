"""Forged upon an Anvil in words: every action and every event as one English sentence, written once.

The server's log (``view.log[i].text``), the table's combat report, the command line's turn report and the
browser all take their sentences from here. Names come from the observation of the seat the words are for
(units, sides); an action comes as that seat may see it (``action_view``), so a sealed bid or army list of
the other seat is only "X has bid" (the ``Sealed`` event), and a private event (``BidChosen``) speaks only to
its maker.

Actions are mostly silent: the events they bring tell them (``UnitMoved`` says where to and at what cost,
``CombatResolved`` the damage, ``Sealed`` that a bid is in). The actions that speak are the ones whose
events say nothing of the order itself: a stratagem is told by ``StratagemUsed``, so no action speaks twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from iwgt.core.protocol import JSON, Event, Seat
from iwgt.games.anvil import combat_events as ce
from iwgt.games.anvil import events as ev

SILENT: Final[frozenset[type[Event]]] = frozenset({ev.MoverChanged})
"""Events that never say anything: whose activation it is shows in the header."""

SILENT_ACTIONS: Final = frozenset(
    {
        "army",
        "terrain_bid",
        "bid",
        "place_feature",
        "skip_feature",
        "place_seat",
        "activate",
        "deploy",
        "stratagem",
        "move",
        "engage",
        "shoot",
        "cast",
        "steady",
        "raise_champion",
        "interrupt",
        "decline",
        "end_activation",
        "pass",
    }
)
"""Action types whose own events tell all of them (every action the game has, today)."""

SEALED_WHAT: Final = {"army": "chosen an army", "terrain_bid": "bid for the terrain", "bid": "bid"}
"""A sealed choice, as "X has ..." says it."""

SPELLS: Final = {
    "fireball": "Fireball",
    "stormwind": "Stormwind",
    "transfix": "Transfix",
    "drain_life": "Drain Life",
    "summon_subjects": "Summon Subjects",
}
"""Spell keys in the text's words (the rules data names the rest)."""

STOPPED: Final = {
    "stops_at": '1" short of a unit or impassable terrain',
    "friend": '1" short of a friendly unit',
    "impassable": '1" short of impassable terrain',
    "edge": "at the table's edge",
    "enemy": "against an enemy unit",
}
"""Why a bounce back or a push stopped (the geometry's ``Slide.stopped_by``), in words."""

REASONS: Final = {
    "nate": "not allowed to engage that side (NATE)",
    "short": "out of reach",
    "seat": "the Seat of Power never moves",
    "braced": "it is braced",
    "blocked": "no room to move",
    "edge": "it is at the table's edge",
    "chain bound": "the chain's limit of combats is reached",
}
"""The engine's reason codes (an engage stopped, a bounce back blocked, a chain stopped), in words."""


def reason(code: str) -> str:
    """A reason code in words (a reason already in words is kept)."""
    return REASONS.get(code, code)


def point(p: Sequence[float] | None) -> str:
    """A point on the table in inches: ``(16, 9.5)``."""
    if p is None or len(p) != 2:
        return "?"
    return f"({round(p[0], 2):g}, {round(p[1], 2):g})"


def inches(x: float) -> str:
    """A distance in inches: ``3"``, ``4.25"``."""
    return f'{round(x, 2):g}"'


def count(k: int, word: str) -> str:
    """``1 HP``, ``2 features``."""
    return f"{k} {word}{'' if k == 1 or word in ('HP', 'CP', 'DCP') else 's'}"


def stratagem_name(key: str) -> str:
    """A stratagem's name from the rules data (``hero_of_the_day`` -> ``Hero of the Day``)."""
    from iwgt.games.anvil.rules import rules
    from iwgt.games.anvil.stratagems import TOGGLES

    s = rules().stratagems.get(TOGGLES.get(key, key))
    if s is not None:
        return s.name
    return SPELLS.get(key, key.replace("_", " ").capitalize())


class Names:
    """The names the observation gives: units and sides (players)."""

    def __init__(self, observation: JSON) -> None:
        self.units: dict[Any, str] = {}
        self.seats: dict[Any, int] = {}
        for u in observation.get("units", []) or []:
            if isinstance(u, dict) and "id" in u:
                self.units[u["id"]] = str(u.get("name") or f"unit {u['id']}")
                if isinstance(u.get("seat"), int):
                    self.seats[u["id"]] = u["seat"]
        self._shared: set[str] | None = None  # names both sides use, found on first need
        sides = observation.get("sides") or observation.get("players") or []
        self.sides = [
            str(s.get("name", f"seat {i}")) if isinstance(s, dict) else str(s) for i, s in enumerate(sides)
        ]

    def unit(self, uid: Any) -> str:
        """A unit's name (names are the army list's); a name both sides use is told by its side
        (``Champion 1 (The Wild Host)``), so a combat between two namesakes still reads."""
        name = self.units.get(uid)
        if name is None:
            return f"unit {uid}"
        if self._shared is None:
            owners: dict[str, set[Any]] = {}
            for other, n in self.units.items():
                owners.setdefault(n, set()).add(self.seats.get(other))
            self._shared = {n for n, seats in owners.items() if len(seats) > 1}
        return f"{name} ({self.owner(uid)})" if name in self._shared else name

    def own(self, uid: Any, seat: Any) -> str:
        """A unit's name in a sentence whose subject is its own side ("The Wild Host deploys Lances 1"): no
        side added when the unit is that side's."""
        name = self.units.get(uid)
        if name is None or self.seats.get(uid) != seat:
            return self.unit(uid)
        return name

    def side(self, seat: Any) -> str:
        """A side's name (``Dwarves``)."""
        if isinstance(seat, int) and 0 <= seat < len(self.sides):
            return self.sides[seat]
        return f"seat {seat}"

    def owner(self, uid: Any) -> str:
        """The side a unit belongs to."""
        return self.side(self.seats.get(uid))


class AnvilWords:
    """The words of Forged upon an Anvil (``GamePlugin.words``)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """None for every action whose events say it all (all of them today); an unknown action type is
        said plainly, so a new action is never lost from the log."""
        kind = action.get("type")
        if kind in SILENT_ACTIONS:
            return None
        n = Names(observation)
        return f"{n.side(actor)}: {str(kind or 'acts').replace('_', ' ')}."

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's sentence for ``seat``, or None for a silent event or one the seat may not see."""
        if not event.visible_to(seat) or type(event) in SILENT:
            return None
        return sentence(event, Names(observation))


def _designations(halves: bool, blocks: bool, impassable: bool) -> str:
    said = [
        w
        for w, on in (("halves movement", halves), ("blocks sight", blocks), ("impassable", impassable))
        if on
    ]
    if not said:
        return "no designation"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def sentence(e: Event, n: Names) -> str | None:
    """Each speaking event's sentence (matched by class, so mypy checks every field named)."""
    match e:
        # ---------------------------------------------------------------- before the battle
        case ev.Sealed():
            return f"{n.side(e.seat)} has {SEALED_WHAT.get(e.what, 'chosen')} (sealed)."
        case ev.ArmyChosen():
            return f"Your army (sealed until both are in): {', '.join(e.units)}; {e.dcp} DCP."
        case ev.ArmiesRevealed():
            parts = [f"{n.side(i)}: {', '.join(units)} ({e.dcp[i]} DCP)" for i, units in enumerate(e.units)]
            return "The armies are revealed. " + "; ".join(parts) + "."
        case ev.TerrainBidChosen():
            return f"You bid {e.amount} CP for the terrain (sealed until both are in)."
        case ev.TerrainBidsRevealed():
            return (
                f"Terrain bids: {n.side(0)} {e.bids[0]}, {n.side(1)} {e.bids[1]}; "
                f"{n.side(e.first)} places first."
            )
        case ev.FeaturePlaced():
            return (
                f"{n.side(e.seat)} places the {e.name} at {point(e.centre)}"
                f"{', turned 90 degrees' if e.rotation else ''}: "
                f"{_designations(e.halves, e.blocks, e.impassable)}."
            )
        case ev.FeatureSkipped():
            return f"{n.side(e.seat)} gives up a feature: {e.reason}."
        case ev.ExtraCP():
            return f"{n.side(e.seat)} placed {count(e.placed, 'feature')}: {e.cp} extra CP in turn 1."
        case ev.SeatPlaced():
            name = n.units.get(e.unit, "")
            what = "its Seat of Power" if name.lower() == "seat of power" else f"{name}, its Seat of Power,"
            return f"{n.side(e.seat)} places {what} at {point(e.centre)}."
        # ---------------------------------------------------------------- the turn
        case ev.TurnBegan():
            return (
                f"Turn {e.turn}: bid up to {e.limits[0]} CP ({n.side(0)}) and {e.limits[1]} CP ({n.side(1)})."
            )
        case ev.BidChosen():
            return f"You bid {e.amount} CP (sealed until both are in)."
        case ev.BidsRevealed():
            bids = f"{n.side(0)} bid {e.bids[0]} CP, {n.side(1)} {e.bids[1]} CP"
            if e.tie and e.first is not None:  # the re-bid tied too: it stands (FA-GT-04/05 decided)
                why = "it placed second on the field of battle" if e.turn == 1 else "it went second last turn"
                then = (
                    "nobody has CP: this turn has no activations"
                    if e.bids[0] == 0
                    else f"each has {e.bids[0]} CP"
                )
                return f"{bids}: a tie that stands: {n.side(e.first)} goes first ({why}); {then}."
            if e.tie and not any(e.limits):
                return f"{bids}: a tie, the CP are lost and neither has any left to bid."
            if e.tie:
                return (
                    f"{bids}: a tie, the CP are lost; bid again (up to {e.limits[0]} and {e.limits[1]} CP)."
                )
            if e.first is None:
                return f"{bids}: no activations this turn."
            return f"{bids}: {n.side(e.first)} goes first."
        case ev.UnitActivated():
            return f"{n.side(e.seat)} activates {n.own(e.unit, e.seat)} ({e.cost} CP, {e.cp_left} left)."
        case ev.UnitDeployed():
            edges = {"own": "from its own edge", "left": "from the left edge", "right": "from the right edge"}
            where = edges.get(e.edge, "by infiltration")
            said = (
                f"{n.side(e.seat)} deploys {n.own(e.unit, e.seat)} {where} at {point(e.centre)} "
                f"({e.cost} CP, {e.cp_left} left)"
            )
            if e.left_off:  # FA-DP-03 decided: a late General enters for 1 CP, without them
                names = [stratagem_name(k) for k in e.left_off]
                left = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
                said += f", late, without {left}"
            return said + "."
        case ev.UnitMoved():
            end = e.path[-1] if e.path else None
            short = " (the order fell short: it went as far as it could)" if e.short else ""
            return f"{n.unit(e.unit)} moves to {point(end)}, using {inches(e.cost)}{short}."
        case ev.ActivationEnded():
            return f"{n.unit(e.unit)} ends its activation."
        case ev.Passed():
            return f"{n.side(e.seat)} passes, giving up {e.cp} CP." if e.cp else f"{n.side(e.seat)} passes."
        case ev.TurnEnded():
            return f"End of turn {e.turn}: every effect in play is removed."
        case ev.GameOver():
            if e.winner is None:
                return f"Game over: {e.reason if 'draw' in e.reason else f'a draw ({e.reason})'}."
            return f"Game over: {n.side(e.winner)} win ({e.reason})."
        # ---------------------------------------------------------------- combat, shooting, spells
        case ce.StratagemUsed():
            return (
                f"{n.side(e.seat)} uses {stratagem_name(e.key)} with {n.own(e.unit, e.seat)} ({e.cost} CP)."
            )
        case ce.EngageDeclared():
            return (
                f"{n.unit(e.attacker)} engages {n.unit(e.defender)} in the {e.side}, moving {inches(e.cost)}."
            )
        case ce.EngageStopped():
            why = reason(e.reason)
            return f"{n.unit(e.attacker)} stops at {point(e.at)}, short of {n.unit(e.defender)}: {why}."
        case ce.InterruptionOffered():
            return f"{n.side(e.seat)} may play {stratagem_name(e.key)} with {n.own(e.unit, e.seat)}."
        case ce.InterruptionDeclined():
            return f"{n.side(e.seat)} lets {stratagem_name(e.key)} go."
        case ce.CombatResolved():
            how = "shoots" if e.ballistics else "strikes"
            said = (
                f"{n.unit(e.attacker)} {how} {n.unit(e.defender)} ({e.side}): {count(e.damage, 'HP')} "
                f"of damage, {e.defender_hp} HP left"
            )
            if e.counter_damage is not None:
                said += (
                    f"; the counterattack deals {count(e.counter_damage, 'HP')}, "
                    f"{n.unit(e.attacker)} has {e.attacker_hp} HP left"
                )
            return said + "."
        case ce.HeroOfTheDay():
            return f"Hero of the Day: {n.unit(e.unit)} stays on the table with {count(e.hp, 'HP')}."
        case ce.UnitDestroyed():
            return f"{n.unit(e.unit)} is destroyed ({e.cause})."
        case ce.ExcessMove():
            return f"{n.unit(e.unit)} may move {inches(e.inches)} more at once (excess damage)."
        case ce.BouncedBack():
            why = f", stopping {STOPPED.get(e.stopped_by, e.stopped_by)}" if e.stopped_by else ""
            return f"{n.unit(e.unit)} bounces back {inches(e.moved)} to {point(e.end)}{why}."
        case ce.BounceBlocked():
            why = reason(e.reason)
            return f"{n.unit(e.unit)} cannot bounce back ({why}) and loses 1 HP: {count(e.hp, 'HP')} left."
        case ce.ChainCombat():
            return (
                f"A new combat: {n.unit(e.attacker)} attacks {n.unit(e.defender)} in the {e.side} "
                f"(combat {e.depth + 1} of the chain)."
            )
        case ce.ChainStopped():
            return f"No combat between {n.unit(e.attacker)} and {n.unit(e.defender)}: {reason(e.reason)}."
        case ce.ShotMissed():
            return (
                f"{n.unit(e.unit)}'s shot at {n.unit(e.target)} falls short ({inches(e.distance)} away): "
                "no effect."
            )
        case ce.SpellCastEvent():
            kind = "natural" if e.natural else "spell"
            at = f" at {n.unit(e.target)}" if e.target is not None else ""
            return f"{n.unit(e.caster)} casts {stratagem_name(e.spell)} ({kind}, {e.cost} CP){at}."
        case ce.SpellDispelled():
            return f"{n.unit(e.by)} dispels {n.unit(e.caster)}'s {stratagem_name(e.spell)}: no effect."
        case ce.SpellFizzled():
            return f"{n.unit(e.caster)}'s {stratagem_name(e.spell)} is out of range: no effect."
        case ce.UnitDamaged():
            return f"{n.unit(e.unit)} loses {count(e.damage, 'HP')}: {count(e.hp, 'HP')} left."
        case ce.UnitHealed():
            return f"{n.unit(e.unit)} gains {count(e.gained, 'HP')}: {count(e.hp, 'HP')}."
        case ce.UnitPushed():
            why = f", stopping {STOPPED.get(e.stopped_by, e.stopped_by)}" if e.stopped_by else ""
            return f"{n.unit(e.unit)} is blown {inches(e.moved)} to {point(e.end)}{why}."
        case ce.UnitTransfixed():
            return f"{n.unit(e.unit)} is transfixed: it may not activate this turn."
        case ce.UnitSummoned():
            return (
                f"{n.side(e.seat)} brings {n.unit(e.unit)} onto the table at {point(e.at)} "
                f"({count(e.hp, 'HP')})."
            )
    return None
