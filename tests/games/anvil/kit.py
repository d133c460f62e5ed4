"""Build Forged upon an Anvil states directly for the combat tests: units on given trays on an empty 36" x 36"
table (the skirmish scenario's), in the activation phase, with given CP, so the tests do not go through
muster, terrain, Seats and bids.

Seat 0 faces 0 (towards +y), seat 1 faces 180. Trays are 3" x 1.5". ``place(...)`` makes a unit;
``table(units, active=...)`` the state with that unit's activation under way (its full Move as allowance).
"""

from __future__ import annotations

from dataclasses import replace

from iwgt.core.protocol import Event
from iwgt.games.anvil.actions import Decline, Interrupt
from iwgt.games.anvil.combat import apply_combat
from iwgt.games.anvil.movement import base_allowance
from iwgt.games.anvil.rules import rules
from iwgt.games.anvil.scenario import load_scenario
from iwgt.games.anvil.state import Activation, AnvilState, Options, PlacedFeature, Unit
from iwgt.geometry.trays import Feature, Tray

FRONT, DEPTH = 3.0, 1.5


def place(
    seat: int,
    type: str,
    x: float,
    y: float,
    facing: float | None = None,
    *,
    hp: int | None = None,
    start_hp: int | None = None,
    general: bool = False,
    stratagems: tuple[str, ...] = (),
    name: str | None = None,
    braced: bool = False,
    skirmishing: bool = False,
) -> Unit:
    """A unit of ``seat`` with its tray centred at (x, y) (id set by ``table``)."""
    r = rules()
    full = r.profile(type).hp + sum(r.stratagem(k).hp for k in stratagems)  # type: ignore[arg-type]
    face = (0.0 if seat == 0 else 180.0) if facing is None else facing
    return Unit(
        id=-1,
        seat=seat,
        type=type,
        name=name or f"{type}{seat}",
        hp=full if hp is None else hp,
        start_hp=(full if start_hp is None else start_hp),
        general=general,
        stratagems=stratagems,
        tray=Tray((x, y), face, FRONT, DEPTH),
        braced=braced,
        skirmishing=skirmishing,
    )


def block(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    *,
    halves: bool = False,
    blocks: bool = False,
    impassable: bool = False,
) -> PlacedFeature:
    """A rectangular terrain feature from (x0, y0) to (x1, y1)."""
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    f = Feature(outline, halves, blocks, impassable, "block")
    return PlacedFeature(0, "block", ((x0 + x1) / 2, (y0 + y1) / 2), 0, f)


def table(
    units: list[Unit],
    *,
    active: int | None = 0,
    cp: tuple[int, int] = (10, 10),
    premeasure: bool = True,
    features: tuple[PlacedFeature, ...] = (),
    allowance: float | None = None,
    used: tuple[str, ...] = (),
) -> AnvilState:
    """The state: ``units`` (ids are their positions), in turn 1's activation phase, ``active``'s
    activation under way (its seat the mover), CP left per seat."""
    placed = tuple(replace(u, id=i) for i, u in enumerate(units))
    state = AnvilState(
        scenario=load_scenario("skirmish"),
        options=Options(premeasure=premeasure),
        phase="activation",
        turn=1,
        units=placed,
        features=features,
        cp=cp,
        first=0,
    )
    if active is None:
        return replace(state, mover=0)
    u = placed[active]
    left = base_allowance(u) if allowance is None else allowance
    return replace(state, mover=u.seat, activation=Activation(u.id, u.seat, stratagems=used, allowance=left))


def act(state: AnvilState, action: object) -> tuple[AnvilState, list[Event]]:
    """Apply a combat-family action."""
    return apply_combat(state, action)  # type: ignore[arg-type]


def answer(state: AnvilState, use: bool) -> tuple[AnvilState, list[Event]]:
    """Answer the interruption awaited: use it or decline."""
    assert state.pending is not None, "no interruption is awaited"
    return apply_combat(state, Interrupt(state.pending.kind) if use else Decline())


def kinds(events: list[Event]) -> list[str]:
    """The events' names, in order."""
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[Event]:
    """The events of one kind."""
    return [e for e in events if e.kind == kind]
