"""Builders for Valhalla test positions: a flat table, players placed by hand, the cards dealt by choice.

Figures are numbered as the game numbers them: seat 0's hero, warrior, archer are 0, 1, 2; seat 1's are
3, 4, 5; and so on. Cards are numbered ``(rank - 1) * 4 + suit`` with the suits clubs, diamonds, hearts,
spades (0..3), so ``card(1, "clubs")`` is 0 (the Ace of clubs, first to come up) and ``card(13, "spades")``
is 51. Every die is answered by hand with ``ChanceOutcome(face)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from iwgt.core.errors import IllegalAction
from iwgt.core.protocol import CHANCE, ChanceOutcome, Event
from iwgt.games.valhalla.actions import Action, EndActivation
from iwgt.games.valhalla.game import ValhallaGame
from iwgt.games.valhalla.scenario import ValhallaScenario, parse_scenario
from iwgt.games.valhalla.state import ValhallaState

GAME = ValhallaGame()
XY = tuple[float, float]
SUITS = ("clubs", "diamonds", "hearts", "spades")
FAR = 30.0
"""A long way from the fight: a test table is 48" wide, so figures parked on the far edge stay out of it."""


def card(rank: int, suit: str) -> int:
    """The engine's number for a card: rank 1 (Ace) to 13 (King), suits in bridge order."""
    return (rank - 1) * 4 + SUITS.index(suit)


def _pt(p: XY) -> str:
    return f"[{p[0]}, {p[1]}]"


def _poly(points: Sequence[XY]) -> str:
    return "[" + ", ".join(_pt(p) for p in points) + "]"


def player(
    side: int,
    hero: XY,
    warrior: XY,
    archer: XY,
    *,
    name: str = "",
    slinger: bool = False,
) -> str:
    """One ``[[players]]`` table (its archer a slinger when asked)."""
    shooter = "slinger" if slinger else "archer"
    who = name or f"P{side}"
    return (
        f'[[players]]\nname = "{who}"\nside = {side}\n'
        f"hero = {_pt(hero)}\nwarrior = {_pt(warrior)}\n{shooter} = {_pt(archer)}\n"
        f'hero_name = "{who} hero"\nwarrior_name = "{who} warrior"\narcher_name = "{who} {shooter}"\n'
    )


def default_players(seat0: Sequence[XY] | None, seat1: Sequence[XY] | None) -> list[str]:
    """Two players: seat 0 (side 0) bottom left, seat 1 (side 1) top right, unless placed."""
    a = seat0 or [(2, 2), (4, 2), (6, 2)]
    b = seat1 or [(46, 30), (44, 30), (42, 30)]
    return [player(0, a[0], a[1], a[2], name="Ulf"), player(1, b[0], b[1], b[2], name="Asa")]


def scenario_text(
    players: Iterable[str],
    *,
    width: float = 48,
    height: float = 32,
    turn_limit: int = 8,
    woods: Sequence[Sequence[XY]] = (),
    villages: Sequence[Sequence[XY]] = (),
    hills: Sequence[tuple[Sequence[XY], int, float]] = (),
    obstacles: Sequence[tuple[str, Sequence[XY]]] = (),
    extra: str = "",
) -> str:
    """TOML for a test table: flat and empty unless terrain is given."""
    lines = [
        'name = "test"',
        'title = "Test position"',
        f"width = {width}",
        f"height = {height}",
        f"turn_limit = {turn_limit}",
        '[[sides]]\nname = "Raiders"\n',
        '[[sides]]\nname = "Farmers"\n',
        *players,
    ]
    lines += [f'[[areas]]\nkind = "woods"\noutline = {_poly(w)}\n' for w in woods]
    lines += [f'[[areas]]\nkind = "village"\noutline = {_poly(v)}\n' for v in villages]
    lines += [f"[[hills]]\noutline = {_poly(o)}\nheight = {h}\nslope = {slope}\n" for o, h, slope in hills]
    lines += [f'[[obstacles]]\nkind = "{k}"\nline = {_poly(line)}\n' for k, line in obstacles]
    lines.append(extra)
    return "\n".join(lines)


def make(
    seat0: Sequence[XY] | None = None,
    seat1: Sequence[XY] | None = None,
    *,
    players: Iterable[str] | None = None,
    **kw: Any,
) -> ValhallaScenario:
    """A scenario from figure positions (hero, warrior, archer per seat), or from ``player()`` tables."""
    text = scenario_text(players if players is not None else default_players(seat0, seat1), **kw)
    return parse_scenario(text, "test scenario")


def deal(state: ValhallaState, cards: Sequence[int]) -> tuple[ValhallaState, list[Event]]:
    """Answer the deal's chance steps so that these cards are dealt, in dealing order (round-robin
    from seat 0, one card per living figure)."""
    events: list[Event] = []
    for c in cards:
        assert state.to_deal, "the deal is over"
        state, more = GAME.apply(state, ChanceOutcome(state.deck.index(c) + 1))
        events.extend(more)
    assert not state.to_deal, f"{len(state.to_deal)} cards still to deal"
    return state, events


def first(state: ValhallaState, seat: int = 0) -> ValhallaState:
    """Deal so that each player's n-th card is rank n, ``seat`` holding clubs (first in a tie) and the
    others diamonds, hearts, spades in seat order (up to four players): the cards come up round the table,
    ``seat`` leading each rank."""
    seats = len(state.scenario.spec.players)
    assert seats <= 4, "deal by hand for more than four players"
    others = [s for s in range(seats) if s != seat]
    suit = {seat: 0} | {s: 1 + i for i, s in enumerate(others)}
    rank = dict.fromkeys(range(seats), 1)
    cards: list[int] = []
    for s in state.to_deal:
        cards.append(card(rank[s], SUITS[suit[s]]))
        rank[s] += 1
    return deal(state, cards)[0]


def position(
    seat0: Sequence[XY] | None = None,
    seat1: Sequence[XY] | None = None,
    *,
    lead: int = 0,
    **kw: Any,
) -> ValhallaState:
    """A dealt position: ``lead``'s card is up (the two players' cards alternate, ``lead`` first)."""
    return first(GAME.initial_state(make(seat0, seat1, **kw)), lead)


def tweak(state: ValhallaState, fid: int, **changes: Any) -> ValhallaState:
    """The state with one figure's fields changed (shock, wounds, at ...)."""
    return state.with_figure(replace(state.figures[fid], **changes))


def act(state: ValhallaState, *actions: Action | int) -> tuple[ValhallaState, list[Event]]:
    """Apply actions in turn; a bare int is a die face (``ChanceOutcome``)."""
    events: list[Event] = []
    for a in actions:
        step = ChanceOutcome(a) if isinstance(a, int) else a
        state, more = GAME.apply(state, step)
        events.extend(more)
    return state, events


def refused(state: ValhallaState, action: Action) -> str:
    """The reason an action is refused (the state is a value: nothing changed)."""
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, action)
    return info.value.message


def pass_to(state: ValhallaState, seat: int) -> ValhallaState:
    """Pass cards (end activations) until ``seat``'s card is up with no figure active."""
    for _ in range(60):
        if GAME.to_move(state) == seat and state.active is None:
            return state
        assert GAME.to_move(state) not in (None, CHANCE), "a die or the end came first"
        state, _ = GAME.apply(state, EndActivation())
    raise AssertionError(f"seat {seat}'s card never came up")


def kinds(events: Iterable[Event]) -> list[str]:
    """The events' names, in order."""
    return [e.kind for e in events]


def of(events: Iterable[Event], cls: type[Any]) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, cls)]
