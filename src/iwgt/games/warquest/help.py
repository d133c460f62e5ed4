"""WarQuest's help at the table: ``data/help.toml`` joined with each troop kind's profile, each kind of
special location's places and each kind of power and event card's cards, read from the game's own data
(``data/troops.toml``, ``data/powers.toml``, ``data/events.toml``, ``maps.LOCATIONS``), never retyped."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from iwgt.core.help import GameHelp, Profile, load_help

if TYPE_CHECKING:
    from iwgt.games.warquest.rules import TroopKind

HELP_FILE: Final = Path(__file__).parent / "data" / "help.toml"
"""The help file beside the game's other data."""

RECRUITED: Final = {
    "city": "in a city region",
    "wraith": "with the Wraith King, in his region",
    "none": "never (a power card brings him)",
}
"""Where a troop kind is recruited, for the kinds not recruited in their people's land."""


def special_name(key: str) -> str:
    """A special power's key as the text prints its name (``relentless_pursuit``: ``RELENTLESS PURSUIT``)."""
    return key.replace("_", " ").upper()


def troop_rows(t: TroopKind) -> tuple[tuple[str, str], ...]:
    """A troop kind's profile as the troop table prints it: cost, attack dice, defence, (M), Basic or
    Advanced, where it is recruited, its pool, its special powers, and whether the row is printed or
    designed."""
    kind = "Advanced" if t.advanced else "Basic"
    if t.elite:
        kind += ", elite"
    if t.unique:
        kind += ", unique"
    where = RECRUITED.get(t.recruit, f"in the {t.people} lands")
    rows: list[tuple[str, str]] = [
        ("Cost", "not bought" if t.cost is None else f"{t.cost} gold"),
        ("Attack dice", str(t.attack)),
        ("Defence", str(t.defense)),
        ("Missile (M)", "yes" if t.missile else "no"),
        ("Kind", kind),
        ("Recruited", where),
        ("Pool", str(t.pool)),
    ]
    specials = [special_name(s) for s in t.specials]
    if t.rage:
        specials = [f"RAGE +{t.rage}" if s == "RAGE" else s for s in specials]
    if specials:
        rows.append(("Special", ", ".join(specials)))
    rows.append(
        ("Designed", str(t.designed)) if t.designed else ("Printed", "a row of the text's troop table")
    )
    return tuple(rows)


def troop_profiles() -> dict[str, Profile]:
    """Each troop kind, keyed ``troop:<key>``."""
    from iwgt.games.warquest.rules import rules

    return {f"troop:{k}": Profile(t.name, troop_rows(t)) for k, t in rules().troops.items()}


def location_profiles() -> dict[str, Profile]:
    """Each kind of special location and the places of that kind, keyed ``location:<kind>``."""
    from iwgt.games.warquest.maps import LOCATIONS

    kinds: dict[str, list[str]] = {}
    for name, kind in LOCATIONS.values():
        kinds.setdefault(kind, []).append(name)
    return {
        f"location:{kind}": Profile(
            f"{kind.capitalize()}s" if kind != "shrine" else "Shrines", (("Places", ", ".join(names)),)
        )
        for kind, names in kinds.items()
    }


def _card_rows(cards: list[Any], *, costs: bool) -> tuple[tuple[str, str], ...]:
    names = [f"{c.name} ({c.cost} gold)" if costs else str(c.name) for c in cards]
    return (("Cards", str(len(cards))), ("Which", "; ".join(names)))


def power_profiles() -> dict[str, Profile]:
    """Each kind of power card (its effect) and the cards of that kind, keyed ``power:<effect>``."""
    from iwgt.games.warquest.rules import rules

    kinds: dict[str, list[Any]] = {}
    for card in rules().powers.values():
        kinds.setdefault(card.effect, []).append(card)
    out: dict[str, Profile] = {}
    for effect, cards in kinds.items():
        event = " (Event power cards)" if all(c.event for c in cards) else ""
        out[f"power:{effect}"] = Profile(
            effect.replace("_", " ").capitalize() + event, _card_rows(cards, costs=True)
        )
    return out


def event_profiles() -> dict[str, Profile]:
    """Each kind of event card (its effect) and the cards of that kind, keyed ``event:<effect>``."""
    from iwgt.games.warquest.rules import rules

    kinds: dict[str, list[Any]] = {}
    for card in rules().events.values():
        kinds.setdefault(card.effect, []).append(card)
    return {
        f"event:{effect}": Profile(effect.replace("_", " ").capitalize(), _card_rows(cards, costs=False))
        for effect, cards in kinds.items()
    }


def profiles() -> dict[str, Profile]:
    """The profile of every troop kind and kind of location, power card and event, keyed ``kind:id``."""
    return {**troop_profiles(), **location_profiles(), **power_profiles(), **event_profiles()}


def game_help() -> GameHelp:
    """WarQuest's help, whole."""
    from iwgt.games.warquest.facts import FACTS

    return load_help(HELP_FILE, profiles(), FACTS.name, FACTS.title)
