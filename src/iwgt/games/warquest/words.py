"""WarQuest in words: every action and every event as one English sentence, written once.

The server's log, the table's report, the command line's turn report and the browser all take their
sentences from here. Warlords' names come from the observation of the seat the words are for; regions, troop
kinds and cards are named from the game's public data (the maps, ``rules.py``): a card is only ever named in
an event the seat may see (a dealt hand or a drawn quest card is its holder's alone, ``Event.visible_to``),
so naming it from the data tells nobody what is hidden from them.

Events are worded by their class name (``SAYERS``): they live beside their rules in several modules (the
engine's ``events.py``, the battle's, the cards'), and a test holds every event class of the game to a
sentence here. Actions whose events tell them (a move, a purchase, a tax, the end of a turn) say nothing
themselves; the answers of a battle speak, since their events tell what the dice did, not what the player
chose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Final

from iwgt.core.errors import DataFileError
from iwgt.core.protocol import JSON, Event, Seat
from iwgt.games.warquest.score import SEAT_NAMES

SILENT_ACTIONS: Final = frozenset(
    {"place", "move", "power", "tax", "conquer", "recruit", "lieutenant", "quest", "end_turn", "discard"}
)
"""Action types whose own events tell all of them (``LeadersPlaced``, ``ArmyMoved``, ``PowerBought``,
``Taxed``, ``Conquered``, ``TroopsBought``, ``LieutenantBought``, ``QuestDeclared``, ``TurnEnded``,
``PowerDiscarded``)."""


DECKS: Final = {
    "quest": "quest",
    "conquest": "conquest",
    "power": "power",
    "event": "event",
    "events": "event",
}
"""A deck's key as the sentences name it."""


# ------------------------------------------------------------------------------------------ small words


def count(k: int, word: str, plural: str | None = None) -> str:
    """``1 troop``, ``2 troops``, ``3 gold`` (``plural`` for irregular words)."""
    if k == 1:
        return f"1 {word}"
    return f"{k} {plural if plural is not None else word + 's'}"


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def cap(text: str) -> str:
    """The sentence's first letter in upper case."""
    return text[:1].upper() + text[1:]


def why(reason: str) -> str:
    """A reason code in words (underscores read as spaces)."""
    return reason.replace("_", " ")


# ------------------------------------------------------------------------------------------ public data


@cache
def _troop_names() -> dict[str, str]:
    from iwgt.games.warquest.rules import rules

    return {k: t.name for k, t in rules().troops.items()}


def troop_name(kind: str) -> str:
    """A troop kind's name (``Goblin Infantry``); an unknown key in words."""
    return _troop_names().get(kind, why(kind))


def _cards(deck: str) -> Mapping[int, Any]:
    from iwgt.games.warquest.rules import rules

    r = rules()
    decks: dict[str, Mapping[int, Any]] = {
        "quest": r.quests,
        "conquest": r.conquests,
        "power": r.powers,
        "event": r.events,
    }
    table = decks.get(deck, {})
    return table


def card_name(deck: str, card: Any) -> str:
    """A card's name as printed (``The Black Crown``); only called for a card the seat may see."""
    found = _cards(deck).get(card) if isinstance(card, int) else None
    return str(found.name) if found is not None else f"{deck} card {card}"


def card_text(deck: str, card: Any) -> str:
    """A card's printed text (power, conquest and event cards), or ''."""
    found = _cards(deck).get(card) if isinstance(card, int) else None
    return str(getattr(found, "text", "") or "") if found is not None else ""


@cache
def _region_names(map_key: str) -> dict[str, str]:
    from iwgt.games.warquest.maps import load_map

    return {rid: r.name for rid, r in load_map(map_key).regions.items()}


@cache
def _cities(map_key: str) -> dict[str, str]:
    from iwgt.games.warquest.maps import load_map

    return {rid: r.city for rid, r in load_map(map_key).regions.items() if r.city}


@cache
def location_name(key: str) -> str:
    """A special location's name (``the Tower of Winds``)."""
    from iwgt.games.warquest.maps import LOCATIONS

    found = LOCATIONS.get(key)
    return found[0] if found else why(key)


def kinds_words(kinds: Any) -> str:
    """Troop counts ``((kind, n), ...)`` or ``{kind: n}`` in words: ``3 Goblin Infantry and 1 Trolls``."""
    pairs = list(kinds.items()) if isinstance(kinds, Mapping) else list(kinds or ())
    return listed([f"{n} {troop_name(str(k))}" for k, n in pairs if n])


# ------------------------------------------------------------------------------------------ names


class Names:
    """The names one seat's observation gives: the warlords, the map's regions and cities."""

    def __init__(self, observation: JSON) -> None:
        players = observation.get("players") or []
        self.players = [
            str(p.get("name") or self._default(i)) if isinstance(p, dict) else self._default(i)
            for i, p in enumerate(players)
        ]
        self.map = str(observation.get("map") or "")
        self.leaders: dict[int, tuple[int, str]] = {}
        self.troops: dict[int, str] = {}
        for r in observation.get("regions") or []:
            if not isinstance(r, dict):
                continue
            for ld in r.get("leaders") or []:
                if isinstance(ld, dict) and isinstance(ld.get("id"), int):
                    self.leaders[ld["id"]] = (int(ld.get("seat", -1)), str(ld.get("rank") or "leader"))
            for t in r.get("troops") or []:
                if isinstance(t, dict) and isinstance(t.get("id"), int):
                    self.troops[t["id"]] = str(t.get("kind") or "")
        battle = observation.get("battle")
        if isinstance(battle, dict):
            for side in ("attacker", "defender"):
                info = battle.get(side)
                if not isinstance(info, dict):
                    continue
                for area in ("front", "rear", "reserve", "retreat"):
                    for f in info.get(area) or []:
                        if isinstance(f, dict) and isinstance(f.get("id"), int):
                            self.troops[f["id"]] = str(f.get("kind") or "")

    @staticmethod
    def _default(seat: int) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else f"warlord {seat}"

    def seat(self, seat: Any) -> str:
        """A warlord's name inside a sentence (``the Red Warlord``)."""
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return self.players[seat]
        if isinstance(seat, int) and seat >= 0:
            return self._default(seat)
        return "nobody"

    def Seat(self, seat: Any) -> str:
        """A warlord's name at the start of a sentence (``The Red Warlord``)."""
        return cap(self.seat(seat))

    def possessive(self, seat: Any) -> str:
        """``the Red Warlord's``."""
        return f"{self.seat(seat)}'s"

    def region(self, region: Any) -> str:
        """A region's name from the map (``Vandar Crown``); its id in words if the map is unknown."""
        if not isinstance(region, str):
            return "somewhere"
        try:
            return _region_names(self.map).get(region, why(region)) if self.map else why(region)
        except DataFileError:  # an unknown map (a hand-built observation) names nothing; the id still reads
            return why(region)

    def city(self, region: Any) -> str:
        """The city of a region (``Aldhaven``), or the region's name."""
        try:
            found = _cities(self.map).get(region) if self.map and isinstance(region, str) else None
        except DataFileError:
            found = None
        return found or self.region(region)

    def troop(self, tid: Any) -> str:
        """A troop by id, by its kind's name (``a Troll``... as ``the Trolls``), or ``troop 7``."""
        kind = self.troops.get(tid) if isinstance(tid, int) else None
        return f"the {troop_name(kind)}" if kind else f"troop {tid}"

    def leader(self, lid: Any, seat: Any = None) -> str:
        """A leader by id: ``the Red Warlord`` for a Warlord, ``the Red Warlord's Lieutenant`` otherwise."""
        owner, rank = self.leaders.get(lid, (seat if isinstance(seat, int) else -1, "leader"))
        if rank == "warlord":
            return self.seat(owner)
        return f"{self.possessive(owner)} {'Lieutenant' if rank == 'lieutenant' else 'leader'}"


# ------------------------------------------------------------------------------------------ events

Sayer = Callable[[Any, Names, "Seat | None"], "str | None"]


def _deck_shuffled(e: Any, n: Names, seat: Seat | None) -> str:
    return f"The {DECKS.get(e.deck, e.deck)} deck is shuffled ({count(e.cards, 'card')})."


def _events_set_aside(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{count(e.kept, 'event card')} make the active event deck; {e.removed} leave play unseen."


def _market_turned(e: Any, n: Names, seat: Seat | None) -> str:
    names = [card_name("power", c) for c in e.cards]
    return f"Turned up in the power market: {listed(names)}."


def _hand_dealt(e: Any, n: Names, seat: Seat | None) -> str:
    names = [_quest_words(c) if e.deck == "quest" else card_name(e.deck, c) for c in e.cards]
    return f"{n.Seat(e.seat)} is dealt the {DECKS.get(e.deck, e.deck)} cards {listed(names)}."


def _cards_dealt(e: Any, n: Names, seat: Seat | None) -> str | None:
    if seat == e.seat:
        return None  # the holder reads which cards (HandDealt)
    return f"{n.Seat(e.seat)} is dealt {count(e.count, DECKS.get(e.deck, e.deck) + ' card')}."


def _starting_player(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} is the starting player: last to place, first to move."


def _leaders_placed(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} places the Warlord and a Lieutenant in {n.region(e.region)}."


def _troops_bought(e: Any, n: Names, seat: Seat | None) -> str | None:
    # The Wraith King is recalled, not bought (WQ-TR-04): WraithKingArrived, which follows, tells it.
    bought = [(k, c) for k, c in e.troops if k != "wraith_king"]
    if not bought:
        return None
    price = f"for {e.cost} gold" if e.cost else "at no cost"
    return f"{n.Seat(e.seat)} buys {kinds_words(bought)} in {n.region(e.region)} {price}."


def _turn_began(e: Any, n: Names, seat: Seat | None) -> str:
    return f"Round {e.round}: {n.possessive(e.seat)} turn ({count(e.actions, 'action')})."


def _income(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} gains {e.gold} gold of income."


def _army_moved(e: Any, n: Names, seat: Seat | None) -> str:
    path = list(e.path)
    troops = f" with {count(len(e.troops), 'troop')}" if e.troops else " alone"
    via = f" through {listed([n.region(r) for r in path[:-1]])}" if len(path) > 1 else ""
    to = n.region(path[-1])
    return f"{cap(n.leader(e.leader, e.seat))} moves{troops} from {n.region(e.start)}{via} to {to}."


def _power_bought(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} buys the power card {card_name('power', e.card)} for {e.cost} gold."


def _power_discarded(e: Any, n: Names, seat: Seat | None) -> str:
    return (
        f"{n.Seat(e.seat)} gives up {card_name('power', e.card)}: it leaves play for good (the Rule of Five)."
    )


def _taxed(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} taxes {n.city(e.region)}: {e.gold} gold."


def _conquered(e: Any, n: Names, seat: Seat | None) -> str:
    taken = f" from {n.seat(e.previous)}" if isinstance(e.previous, int) else ""
    return f"{n.Seat(e.seat)} conquers {n.region(e.region)}{taken}."


def _lieutenant_bought(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} recruits a Lieutenant in {n.region(e.region)} for {e.cost} gold."


def _quest_words(card: Any) -> str:
    """A quest card as its holder reads it: ``Slay the Wyrm (the Dragon Cave, 8 VP, sacred)``."""
    found = _cards("quest").get(card) if isinstance(card, int) else None
    if found is None:
        return f"quest card {card}"
    sacred = ", sacred" if found.sacred else ""
    return f"{found.name} ({location_name(found.location)}, {found.vp} VP{sacred})"


def _quest_declared(e: Any, n: Names, seat: Seat | None) -> str:
    found = _cards("quest").get(e.card) if isinstance(e.card, int) else None
    monster = f": {found.monster} at {location_name(found.location)}" if found is not None else ""
    need = f" (a roll of {found.vp} or more)" if found is not None else ""
    return (
        f"{n.Seat(e.seat)} goes on the quest {card_name('quest', e.card)}{monster} in {n.region(e.region)}"
        f"{need}."
    )


def _quest_rolled(e: Any, n: Names, seat: Seat | None) -> str:
    dice = list(e.dice)
    total = sum(dice) + int(e.bonus or 0)
    bonus = f" {int(e.bonus):+d}" if e.bonus else ""
    doubles = " Doubles!" if len(dice) == 2 and dice[0] == dice[1] else ""
    verdict = "the monster is defeated" if e.success else "the quest fails"
    return (
        f"{n.Seat(e.seat)} rolls {listed([str(d) for d in dice])}{bonus} = {total} against {e.target}: "
        f"{verdict}.{doubles}"
    )


def _quest_card_drawn(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} draws the quest card {_quest_words(e.card)}."


def _treasure(e: Any, n: Names, seat: Seat | None) -> str:
    name = card_name("power", e.card)
    if e.kept:
        return f"{n.Seat(e.seat)} draws {name} as Treasure."
    return f"{n.Seat(e.seat)} draws {name}, which goes to the bottom of the power deck."


def _went_home(e: Any, n: Names, seat: Seat | None) -> str:
    return (
        f"{cap(n.possessive(e.seat))} {kinds_words(e.kinds)} in {n.region(e.region)} go home: "
        "no leader stayed with them."
    )


def _turn_ended(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{cap(n.possessive(e.seat))} turn ends."


def _event_turned(e: Any, n: Names, seat: Seat | None) -> str:
    text = card_text("event", e.card)
    return f"The event of round {e.round}: {card_name('event', e.card)}" + (f": {text}" if text else ".")


def _game_over(e: Any, n: Names, seat: Seat | None) -> str:
    winners = listed([n.seat(s) for s in e.winners])
    vp = ", ".join(f"{n.seat(s)} {v}" for s, v in enumerate(e.vp))
    if len(e.winners) != 1:  # a shared victory's reason names the winners ("... share the victory: ...")
        return f"The game is over: {why(e.reason)}. Victory points: {vp}."
    # A colon, not brackets: the reason may hold its own (a tie-break's "(2 to 1)").
    return f"The game is over and {winners} wins: {why(e.reason)}. Victory points: {vp}."


# ------------------------------------------------------------------------------------------ battles


RANK_WORDS: Final = {"front": "front rank", "rear": "rear rank"}
"""A rank in words."""
SPELL_WORDS: Final = {"fireball": "a FIREBALL", "ice_blast": "an ICE BLAST", "fire_breath": "FIRE BREATH"}
"""A spell in words, as the text prints its name (WQ-SP-11, WQ-SP-12, WQ-SP-14)."""


def rolled_words(hits: int, flees: int) -> str:
    """``2 hits and 1 flee``, ``no hit, no flee``."""
    if not hits and not flees:
        return "no hit, no flee"
    return listed([count(hits, "hit") if hits else "", count(flees, "flee") if flees else ""])


def _battle_began(e: Any, n: Names, seat: Seat | None) -> str:
    return f"Battle in {n.region(e.region)}: {n.seat(e.attacker)} attacks {n.seat(e.defender)}."


def _lines_arranged(e: Any, n: Names, seat: Seat | None) -> str:
    def some(k: int) -> str:
        return str(k) if k else "none"

    return (
        f"{n.Seat(e.seat)} sets up {some(len(e.front))} in the front rank, {some(len(e.rear))} in the rear "
        f"rank and {some(len(e.reserve))} in reserve."
    )


def _attack_rolled(e: Any, n: Names, seat: Seat | None) -> str:
    rank = RANK_WORDS.get(e.rank, e.rank)
    target = RANK_WORDS.get(e.target, e.target)
    return (
        f"{cap(n.possessive(e.seat))} {rank} rolls {count(e.dice, 'die', 'dice')} at the enemy {target}: "
        f"{rolled_words(e.hits, e.flees)}."
    )


def _spell_rolled(e: Any, n: Names, seat: Seat | None) -> str:
    spell = SPELL_WORDS.get(e.spell, why(e.spell))
    return (
        f"{n.Seat(e.seat)} casts {spell} at {n.troop(e.troop)} with {count(e.dice, 'die', 'dice')}: "
        f"{rolled_words(e.hits, e.flees)}."
    )


def _breath(e: Any, n: Names, seat: Seat | None) -> str:
    rank = RANK_WORDS.get(e.rank, e.rank)
    troops = count(len(e.troops), "troop")
    return f"{cap(n.possessive(e.seat))} Fire Dragon breathes fire on the enemy {rank} ({troops})."


def _hits_taken(e: Any, n: Names, seat: Seat | None) -> str:
    marked = sum(k for _, k in e.hits)
    parts = [
        f"{count(len(e.eliminated), 'troop')} eliminated" if e.eliminated else "",
        f"{count(len(e.fled), 'troop')} {'flees' if len(e.fled) == 1 else 'flee'} to the retreat area"
        if e.fled
        else "",
    ]
    said = listed(parts)
    if not said:
        said = f"{count(marked, 'hit')} marked" if marked else "nothing lost"
    return f"{n.Seat(e.seat)}: {said}."


def _line_refilled(e: Any, n: Names, seat: Seat | None) -> str:
    moved = len(e.front) + len(e.rear)
    return f"{n.Seat(e.seat)} fills the line with {count(moved, 'troop')} from the reserve."


def _round_ended(e: Any, n: Names, seat: Seat | None) -> str:
    parts = [f"Round {e.round} of the battle is over"]
    if e.regenerated:
        parts.append(f"{count(len(e.regenerated), 'troll')} regenerate")
    if e.rallied:
        parts.append(f"{count(len(e.rallied), 'troop')} rallied to the reserve")
    return "; ".join(parts) + "."


def _battle_won(e: Any, n: Names, seat: Seat | None) -> str:
    how = f"{n.seat(e.loser)} withdraws" if e.withdrew else f"{n.seat(e.loser)} is beaten"
    when = f"after {count(e.rounds, 'round')}" if e.rounds else "at once"
    return f"{n.Seat(e.winner)} wins the battle of {n.region(e.region)} {when} ({how}): +{e.vp} VP."


def _pursued(e: Any, n: Names, seat: Seat | None) -> str:
    return (
        f"{n.Seat(e.seat)} pursues with {count(e.dice, 'die', 'dice')}: "
        f"{count(len(e.eliminated), 'troop')} cut down."
    )


def _fell_back(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{cap(n.possessive(e.seat))} survivors fall back to {n.region(e.region)}."


def _army_destroyed(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{cap(n.possessive(e.seat))} army has no way out: {count(len(e.troops), 'troop')} eliminated."


def _captured(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{cap(n.possessive(e.seat))} Lieutenant is captured and goes back to the supply."


def _escaped(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} escapes alone to {n.region(e.region)}."


# ------------------------------------------------------------------------------------------ cards


def _gold_changed(e: Any, n: Names, seat: Seat | None) -> str:
    cause = why(str(e.cause))
    if e.gold >= 0:
        return f"{n.Seat(e.seat)} gains {e.gold} gold ({cause})."
    return f"{n.Seat(e.seat)} loses {-e.gold} gold ({cause})."


def _troop_lost(e: Any, n: Names, seat: Seat | None) -> str:
    where = n.region(e.region)
    return f"{cap(n.possessive(e.seat))} {troop_name(e.troop_kind)} in {where} is lost ({why(e.cause)})."


def _monster_rolled(e: Any, n: Names, seat: Seat | None) -> str:
    kingdom = why(str(e.kingdom)).title()
    return f"A monster in {kingdom} rolls at {n.possessive(e.seat)} troops: {count(e.hits, 'hit')}."


def _token_removed(e: Any, n: Names, seat: Seat | None) -> str:
    return f"Uprising: {n.possessive(e.seat)} token in {n.region(e.region)} is thrown down."


def _unlocked(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{listed([troop_name(k) for k in e.kinds])} may now be recruited by every warlord."


def _mustered(e: Any, n: Names, seat: Seat | None) -> str:
    name = troop_name(e.troop_kind)
    return f"{count(len(e.ids), name, name)} join {n.seat(e.seat)} in {n.region(e.region)}."


def _market_replaced(e: Any, n: Names, seat: Seat | None) -> str:
    return f"The market is swept away; new power cards: {listed([card_name('power', c) for c in e.dealt])}."


def _conquest_scored(e: Any, n: Names, seat: Seat | None) -> str:
    text = card_text("conquest", e.card).rstrip(".")
    said = f" ({text})" if text else ""
    return f"{n.Seat(e.seat)} scores the conquest card {card_name('conquest', e.card)}{said}: +{e.vp} VP."


def _power_gained(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{n.Seat(e.seat)} now holds {card_name('power', e.card)}."


def _gold_found(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{card_name('power', e.card)}: {n.seat(e.seat)} gains {e.gold} gold."


def _free_troops(e: Any, n: Names, seat: Seat | None) -> str:
    name = troop_name(e.troop_kind)
    joined = f"{count(len(e.ids), name, name)} join {n.seat(e.seat)} in {n.region(e.region)}"
    return f"{card_name('power', e.card)}: {joined}."


def _extra_action(e: Any, n: Names, seat: Seat | None) -> str:
    return f"{card_name('power', e.card)}: {n.possessive(e.seat)} next turn has one more action."


def _battle_dice(e: Any, n: Names, seat: Seat | None) -> str:
    return (
        f"{card_name('power', e.card)}: {n.possessive(e.seat)} next battle rolls "
        f"{count(e.dice, 'more die', 'more dice')} in the front rank's first attack."
    )


def _wraith_king(e: Any, n: Names, seat: Seat | None) -> str:
    return f"The Wraith King rises to serve {n.seat(e.seat)} in {n.region(e.region)}."


def _wraith_king_left(e: Any, n: Names, seat: Seat | None) -> str:
    return f"The Wraith King leaves {n.seat(e.seat)} in {n.region(e.region)}: The Black Crown is gone."


SAYERS: Final[dict[str, Sayer]] = {
    # the engine (events.py)
    "DeckShuffled": _deck_shuffled,
    "EventsSetAside": _events_set_aside,
    "MarketTurned": _market_turned,
    "HandDealt": _hand_dealt,
    "CardsDealt": _cards_dealt,
    "StartingPlayer": _starting_player,
    "LeadersPlaced": _leaders_placed,
    "TroopsBought": _troops_bought,
    "TurnBegan": _turn_began,
    "IncomeGained": _income,
    "ArmyMoved": _army_moved,
    "PowerBought": _power_bought,
    "PowerDiscarded": _power_discarded,
    "Taxed": _taxed,
    "Conquered": _conquered,
    "LieutenantBought": _lieutenant_bought,
    "QuestDeclared": _quest_declared,
    "QuestRolled": _quest_rolled,
    "QuestCardDrawn": _quest_card_drawn,
    "TreasureDrawn": _treasure,
    "TroopsWentHome": _went_home,
    "TurnEnded": _turn_ended,
    "EventTurned": _event_turned,
    "GameOver": _game_over,
    # battles (battle_events.py)
    "BattleBegan": _battle_began,
    "LinesArranged": _lines_arranged,
    "AttackRolled": _attack_rolled,
    "SpellRolled": _spell_rolled,
    "BreathBreathed": _breath,
    "HitsTaken": _hits_taken,
    "LineRefilled": _line_refilled,
    "RoundEnded": _round_ended,
    "BattleWon": _battle_won,
    "Pursued": _pursued,
    "ArmyFellBack": _fell_back,
    "ArmyDestroyed": _army_destroyed,
    "LieutenantCaptured": _captured,
    "WarlordEscaped": _escaped,
    # events, conquest cards and powers (happenings.py, conquest.py, powers.py)
    "GoldChanged": _gold_changed,
    "TroopLost": _troop_lost,
    "MonsterRolled": _monster_rolled,
    "TokenRemoved": _token_removed,
    "TroopsUnlocked": _unlocked,
    "Mustered": _mustered,
    "MarketReplaced": _market_replaced,
    "ConquestScored": _conquest_scored,
    "PowerGained": _power_gained,
    "GoldFound": _gold_found,
    "FreeTroops": _free_troops,
    "ExtraActionGained": _extra_action,
    "BattleDiceGained": _battle_dice,
    "WraithKingArrived": _wraith_king,
    "WraithKingLeft": _wraith_king_left,  # cards.py
}
"""Every event class of the game, by name, and its sentence."""


def plain(e: Event, n: Names) -> str:
    """The fallback for an event without a sentence of its own (a test keeps every event off it): its name
    in words, and the warlord it names."""
    import re

    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(e).__name__).lower()
    seat = getattr(e, "seat", None)
    return f"{n.Seat(seat)}: {words}." if isinstance(seat, int) else f"{cap(words)}."


def sentence(e: Event, n: Names, seat: Seat | None = None) -> str | None:
    """The event's sentence for ``seat`` (by its class name), or the plain fallback."""
    sayer = SAYERS.get(type(e).__name__)
    return sayer(e, n, seat) if sayer is not None else plain(e, n)


# ------------------------------------------------------------------------------------------ actions


def _ids_count(value: Any) -> int:
    return len(value) if isinstance(value, list | tuple) else 0


def action_sentence(action: JSON, actor: Seat, n: Names) -> str | None:
    """An action's sentence, or None when its events say all of it."""
    kind = action.get("type")
    if kind in SILENT_ACTIONS:
        return None
    who = n.Seat(actor)
    match kind:
        case "arrange":
            front, rear = _ids_count(action.get("front")), _ids_count(action.get("rear"))
            return f"{who} arranges the ranks: {front} in front, {rear} in the rear, the rest in reserve."
        case "target":
            return f"{who} aims the rear rank's missiles at the enemy {action.get('rank')} rank."
        case "spell":
            if action.get("troop") is None:
                return f"{who} casts no spell this round."
            return f"{who} casts a spell at {n.troop(action.get('troop'))}."
        case "breath":
            if action.get("rank") is None:
                return f"{who} holds the dragon's fire breath."
            return f"{who} has the dragon breathe fire on the enemy {action.get('rank')} rank."
        case "assign":
            hits = action.get("hits") or {}
            given = sum(int(v) for v in hits.values()) if isinstance(hits, dict) else 0
            flees = _ids_count(action.get("flees"))
            return f"{who} assigns {count(given, 'hit')} and {count(flees, 'flee')}."
        case "refill":
            moved = _ids_count(action.get("front")) + _ids_count(action.get("rear"))
            if not moved:
                return f"{who} leaves the gaps in the ranks."
            return f"{who} fills the ranks with {count(moved, 'troop')} from the reserve."
        case "press_on":
            if action.get("withdraw"):
                return f"{who} withdraws from the battle."
            return f"{who} presses on."
        case "retreat":
            return f"{who} retreats to {n.region(action.get('region'))}."
    return f"{who}: {str(kind or 'acts').replace('_', ' ')}."


class WqWords:
    """The words of WarQuest (``GamePlugin.words``)."""

    def action(self, action: JSON, actor: Seat, observation: JSON, seat: Seat | None) -> str | None:
        """The action's sentence, or None when its events say it all (a move, a purchase, a tax...)."""
        return action_sentence(action, actor, Names(observation))

    def event(self, event: Event, observation: JSON, seat: Seat | None) -> str | None:
        """The event's sentence for ``seat``; nothing for an event hidden from it (another's hand)."""
        if not event.visible_to(seat):
            return None
        return sentence(event, Names(observation), seat)


__all__ = ["SAYERS", "SILENT_ACTIONS", "Names", "WqWords", "action_sentence", "sentence"]
