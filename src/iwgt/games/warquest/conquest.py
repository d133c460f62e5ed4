"""WarQuest's conquest cards (WQ-SU-09, contents designed WQ-MS-34): secret objectives over the regions a
player owns, scored at the end of the holder's turn when they hold (revealed, their VP gained, the card kept
among the scored ones, a replacement drawn; an empty deck is not refilled).

Objective kinds (closed list): ``kingdom_regions {kingdom, count}``, ``kingdom_capital {kingdom}``,
``kingdom_all {kingdom}``, ``cities {count}``, ``regions {count}``, ``kingdoms {count}`` (a region owned in
at least ``count`` kingdoms), ``lands {people}`` (a region of that people's land owned).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from iwgt.core.protocol import Event, Seat
from iwgt.games.warquest import cards
from iwgt.games.warquest.events import CardsDealt, HandDealt
from iwgt.games.warquest.maps import load_map
from iwgt.games.warquest.rules import rules
from iwgt.games.warquest.state import with_player

if TYPE_CHECKING:
    from iwgt.games.warquest.maps import WqMap
    from iwgt.games.warquest.state import WqState

OBJECTIVES = ("kingdom_regions", "kingdom_capital", "kingdom_all", "cities", "regions", "kingdoms", "lands")
"""The closed list of objective kinds (spec: Cards and winning)."""


@dataclass(frozen=True, slots=True)
class ConquestScored(Event):
    """A conquest card's objective held at the end of its holder's turn: revealed and scored (WQ-MS-34)."""

    seat: Seat
    card: int
    vp: int


def owned_regions(state: WqState, seat: int) -> frozenset[str]:
    """The regions the seat owns (its ownership tokens, WQ-CQ-01)."""
    return frozenset(r for r, s in state.owners if s == seat)


def holds(state: WqState, seat: int, kind: str, params: Mapping[str, Any], m: WqMap | None = None) -> bool:
    """Whether an objective of this kind and parameters holds for the seat now."""
    m = m or load_map(state.scenario.map)
    own = owned_regions(state, seat)
    if kind == "kingdom_regions":
        return len(own & set(m.kingdoms[params["kingdom"]].regions)) >= int(params["count"])
    if kind == "kingdom_capital":
        return any(r in own and m.regions[r].capital for r in m.kingdoms[params["kingdom"]].regions)
    if kind == "kingdom_all":
        return set(m.kingdoms[params["kingdom"]].regions) <= own
    if kind == "cities":
        return sum(1 for r in own if m.regions[r].city) >= int(params["count"])
    if kind == "regions":
        return len(own) >= int(params["count"])
    if kind == "kingdoms":
        kingdoms = {m.regions[r].kingdom for r in own} - {None}
        return len(kingdoms) >= int(params["count"])
    if kind == "lands":
        return any(m.regions[r].people == params["people"] for r in own)
    raise ValueError(f"unknown conquest objective {kind!r}")


def objective_holds(state: WqState, seat: int, card: int) -> bool:
    """Whether the objective of a conquest card holds for the seat now."""
    c = rules().conquests[card]
    return holds(state, seat, c.objective, c.params)


def score_conquests(state: WqState, seat: int) -> tuple[WqState, list[Event]]:
    """The end of the seat's turn: every conquest card in its hand whose objective holds is revealed and
    scored, in hand order; then one replacement per scored card is drawn (the new cards are checked at the
    end of the next turn, not now: designed, so a draw never scores in the same breath)."""
    player = state.players[seat]
    m = load_map(state.scenario.map)
    table = rules().conquests
    scored = tuple(c for c in player.conquests if holds(state, seat, table[c].objective, table[c].params, m))
    if not scored:
        return state, []
    events: list[Event] = [ConquestScored(seat, c, table[c].vp) for c in scored]
    drawn, decks = cards.draw_conquests(state.decks, len(scored))
    player = replace(
        player,
        vp=player.vp + sum(table[c].vp for c in scored),
        conquests=tuple(c for c in player.conquests if c not in scored) + drawn,
        scored_conquests=player.scored_conquests + scored,
    )
    state = replace(with_player(state, player), decks=decks)
    if drawn:
        events += [HandDealt(seat, "conquest", drawn), CardsDealt(seat, "conquest", len(drawn))]
    return state, events
