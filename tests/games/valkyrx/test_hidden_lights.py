"""Lights, selections and previews leak nothing hidden (VX-12-06, VX-14-12, VX-SP-PLAGUE-4).

States come from the shared seeded playout of the ``sorcery`` scenario (the Grima, the Sand Worm, wizards
and the plague), with both stealth units forced into hiding. For each, the facts hidden from a seat are
redrawn by ``resample_hidden``: the seat's lights, options, selections and previews must not change, and
every light that marks a unit must sit on a cell the seat's observation gives to a unit in sight.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conformance.test_conformance import played, step_action
from tests.games.valkyrx.table_kit import ADAPTER, seen

from iwgt.core.digest import canonical_json
from iwgt.core.lights import Light
from iwgt.core.protocol import JSON, Event
from iwgt.games.valkyrx.game import ValkyrxGame
from iwgt.games.valkyrx.state import ValkyrxState

GAME = ValkyrxGame()
UNIT_EFFECTS = frozenset(
    {
        "movable",
        "command",
        "enchanted",
        "weakened",
        "critical",
        "firing",
        "under_fire",
        "melee",
        "won",
        "lost",
        "destroyed",
        "selected",
        "preview",
    }
)


@cache
def steps() -> tuple[tuple[ValkyrxState, tuple[Event, ...]], ...]:
    """Every state of the playout after deployment, with the events of the step that led to it."""
    match = played("valkyrx", "sorcery")
    state = GAME.initial_state(GAME.load_scenario("sorcery"))
    out = []
    for step in match.record.steps:
        state, events = GAME.apply(state, step_action(GAME, step.seat, step.action))
        if state.result is None and state.phase != "deploy":
            out.append((state, tuple(events)))
    return tuple(out)


def force_hidden(state: ValkyrxState) -> ValkyrxState:
    """The Grima and the Sand Worm off the table (if still in play), so that there is something to hide."""
    for u in state.units:
        if u.in_play and (u.type.has("stealth") or u.type.has("burrower")):
            state = replace(
                state.with_unit(replace(u, hidden=True)),
                contacts=tuple(c for c in state.contacts if u.id not in (c.a, c.b)),
            )
    return state


def view(state: ValkyrxState, events: tuple[Event, ...], seat: int) -> tuple[JSON, list[Light]]:
    obs = GAME.observe(state, seat)
    movable = ADAPTER.options(GAME, state, seat)["movable"] if GAME.to_move(state) == seat else []
    return obs, ADAPTER.lights(obs, seen(events, seat), seat, movable=movable)


def in_sight(obs: JSON) -> set[tuple[int, int]]:
    return {tuple(u["cell"]) for u in obs["units"] if u["cell"] is not None and not u["hidden"]}


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed_a=st.integers(0, 2**32), seed_b=st.integers(0, 2**32))
def test_vx_12_06_lights_are_the_same_whatever_the_seat_cannot_know(
    data: st.DataObject, seed_a: int, seed_b: int
) -> None:
    base, events = data.draw(st.sampled_from(steps()))
    base = force_hidden(base)
    seat = data.draw(st.sampled_from([0, 1]))
    ra, rb = random.Random(seed_a), random.Random(seed_b)
    a = GAME.resample_hidden(base, seat, lambda n: ra.randrange(n))
    b = GAME.resample_hidden(base, seat, lambda n: rb.randrange(n))
    obs_a, lights_a = view(a, events, seat)
    _, lights_b = view(b, events, seat)
    assert lights_a == lights_b
    width, height = obs_a["board"]["width"], obs_a["board"]["height"]
    sight = in_sight(obs_a)
    for x in lights_a:
        assert 0 <= x.cell[0] < width and 0 <= x.cell[1] < height
        if x.effect in UNIT_EFFECTS:
            assert x.cell in sight, x  # a light that marks a unit marks one the seat sees
    if GAME.to_move(base) != seat:
        return
    assert canonical_json(ADAPTER.options(GAME, a, seat)) == canonical_json(ADAPTER.options(GAME, b, seat))
    for uid in ADAPTER.options(GAME, a, seat)["movable"][:2]:
        sel_a = ADAPTER.selection(GAME, a, seat, uid)
        assert canonical_json(sel_a) == canonical_json(ADAPTER.selection(GAME, b, seat, uid))
        for light in sel_a["lights"]:
            if light["effect"] in ("selected", "preview"):
                assert tuple(light["cell"]) in sight
        for move in sel_a["moves"][:3]:
            pa = ADAPTER.preview(GAME, a, seat, move["action"])
            assert canonical_json(pa) == canonical_json(ADAPTER.preview(GAME, b, seat, move["action"]))
    for action in ADAPTER.options(GAME, a, seat)["actions"][:5]:
        pa = ADAPTER.preview(GAME, a, seat, action)
        assert canonical_json(pa) == canonical_json(ADAPTER.preview(GAME, b, seat, action))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_cards_and_report_are_the_same_whatever_the_seat_cannot_know(data: st.DataObject) -> None:
    base, events = data.draw(st.sampled_from(steps()))
    base = force_hidden(base)
    seat = data.draw(st.sampled_from([0, 1]))
    seed = data.draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    other = GAME.resample_hidden(base, seat, lambda n: rng.randrange(n))
    for state in (base, other):
        obs = GAME.observe(state, seat)
        cards = ADAPTER.cards(obs, seat)
        report = ADAPTER.report(obs, seen(events, seat))
        if state is base:
            first = canonical_json([cards, report])
        else:
            assert canonical_json([cards, report]) == first
